#!/usr/bin/env bash
# On a GPU machine, from the repository root, after `cargo xtask dist` (binary, PTX and the
# GPU test binaries in dist/) and copying QAPLIB into dist/qaplib (README, "Running on a GPU
# machine"): device info, every GPU test (kernels against their CPU twins, FoundFlag,
# per-block runs, degenerate instances, time limits and Ctrl-C inside kernels), the main job.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
./qapgpu info
status=0
for t in gpu_twin aco_twin cga_twin time_limits multi_device hardening_limits_gpu batch_engine wide_twin; do
  echo "== $t"
  timeout 300 ./$t --test-threads=1 2>&1 | grep -E "^test |test result|panicked|SKIPPED|skipped|left|right|returned" || true
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
echo "== main job"
./qapgpu --engine gpu --seed 1 || status=1
exit $status
