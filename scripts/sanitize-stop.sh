#!/usr/bin/env bash
# compute-sanitizer over the stop word (pinned, mapped host memory polled by the kernels):
# runs whose time limit ends a long local search or a long launch of generations, and the
# degenerate instances of the twin tests' kind (all-zero flows, n = 3). From the repository
# root, after `cargo xtask dist` with QAPLIB in dist/qaplib.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
printf '3\n0 1 2\n1 0 1\n2 1 0\n0 5 2\n5 0 3\n2 3 0\n' > /tmp/three.dat
printf '4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 1 2 3\n1 0 1 2\n2 1 0 1\n3 2 1 0\n' > /tmp/zeros.dat
for tool in memcheck racecheck; do
  for args in "nug12 --algo aco-ts --ls-iterations 100000000 --ants 4" "tai100a --algo aco-2opt --ls-iterations 100000000 --ants 4" \
              "tai40b --algo ga-independent --blocks 8" "/tmp/three.dat --algo aco-ts --ants 3" "/tmp/zeros.dat --algo aco-ts --ants 3" \
              "/tmp/zeros.dat --algo ga-islands --blocks 4"; do
    echo "== $tool $args"
    timeout 60 compute-sanitizer --tool $tool --print-limit 5 ./qapgpu $args --engine gpu --target -1 --time-limit 1 --quiet --seed 5 2>&1 \
      | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|error|^cost|^elapsed" | head -4
  done
done
