#!/usr/bin/env bash
# compute-sanitizer memcheck, racecheck and synccheck over short GA runs on the GPU
# (from the repository root, after `cargo xtask dist` with QAPLIB in dist/qaplib).
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
for tool in memcheck racecheck synccheck; do
  for algo in ga-independent ga-islands; do
    echo "== $tool $algo"
    timeout 150 compute-sanitizer --tool $tool --print-limit 5 ./qapgpu nug12 --engine gpu --algo $algo --blocks 3 \
      --target 0 --time-limit 0.5 --migration-interval 100 --restart --b-rate 0.3 --quiet --seed 3 2>&1 \
      | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|error|cost " | head -6
  done
done
echo "== racecheck, atomic B_count, u32 elements (els19)"
timeout 100 compute-sanitizer --tool racecheck ./qapgpu els19 --engine gpu --count atomic --blocks 2 --target 0 \
  --time-limit 0.5 --quiet --seed 1 2>&1 | grep -E "SUMMARY|cost " | head
