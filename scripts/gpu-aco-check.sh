#!/usr/bin/env bash
# On a GPU machine, from the repository root, after `cargo xtask dist` with QAPLIB and the
# aco_twin test binary in dist/ (README, "Running on a GPU machine"): the ACO kernels
# against their CPU twin, then one short solve per local search and layout.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
timeout 240 ./aco_twin --test-threads=1 2>&1 | tail -12
for args in "tai40a --algo aco-ts" "tai40a --algo aco-ts --layout plain" "tai50b --algo aco-ts" "tai50b --algo aco-2opt"; do
  echo "== $args"
  timeout 60 ./qapgpu $args --engine gpu --seed 1 --time-limit 20 --quiet --target-gap 1.0 2>&1 | grep -E "cost|target|elapsed|layout"
done
