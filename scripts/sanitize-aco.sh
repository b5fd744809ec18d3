#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the ACO kernels (seed 003) for n = 12, 50,
# 100, 150 and 256 (a random instance: the i32 Δ table in shared memory, A, B and the tabu
# matrix in global memory, 896 threads under the 72-register cap): init, one local search per ant and the pheromone
# kernels, both local searches and the mappings (from the repository root, after `cargo
# xtask dist` with QAPLIB in dist/qaplib). TOOLS, INSTANCES and LAYOUTS narrow the loops. The time
# limit is above what racecheck needs at n = 256 (67 s on an H100), so every line shows the
# cost of the whole run, the same in every mapping.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
python3 ../scripts/random-dat.py 256 > /tmp/rand256.dat
for tool in ${TOOLS:-memcheck racecheck}; do
  for inst in ${INSTANCES:-nug12 tai50b tai100a tai150b /tmp/rand256.dat}; do
    for layout in ${LAYOUTS:-mata plain split sums}; do for algo in "aco-ts --layout $layout" "aco-2opt --layout $layout"; do
      [ "$algo" = "aco-2opt --layout plain" ] && continue
      echo "== $tool $inst $algo"
      timeout 150 compute-sanitizer --tool $tool --print-limit 5 ./qapgpu $inst --engine gpu --algo $algo \
        --ants 3 --ls-iterations 12 --max-ls-iterations 40 --target 0 --quiet --seed 5 --time-limit 110 2>&1 \
        | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|error|cost " | head -4
    done; done
  done
done
