#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the `ts` walk kernels (tabu matrices carried
# between launches, in shared memory for small n and in global memory for large n, MATA,
# plain, split and sums mappings), from the repository root after `cargo xtask dist` with QAPLIB
# in dist/qaplib: a few launches each (the target is unreachable, the time limit ends them).
# TOOLS and LAYOUTS narrow the loops; EXTRA adds options to every run (e.g. "--regroup-every
# 16 --regroup-rounds 0" for the regrouping kernels and the kept tables).
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
python3 ../scripts/random-dat.py 256 > /tmp/rand256.dat
for tool in ${TOOLS:-memcheck racecheck}; do
  for inst in nug12 esc64a tai150b /tmp/rand256.dat; do
    for layout in ${LAYOUTS:-mata plain split sums}; do
      echo "== $tool $inst $layout"
      timeout 90 compute-sanitizer --tool $tool --print-limit 5 ./qapgpu $inst --engine gpu --algo ts --layout $layout \
        --ants 4 --ls-iterations 64 --target -1 --time-limit 2 --quiet --seed 5 ${EXTRA:-} 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|^cost" | head -3
    done
  done
done
