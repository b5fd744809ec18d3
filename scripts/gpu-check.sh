#!/usr/bin/env bash
# On a GPU machine, from the repository root, after `cargo xtask dist` and copying the GPU
# test binary and QAPLIB into dist/ (see README, "Running on a GPU machine"):
# device info, the GPU tests (kernel vs CPU twin, FoundFlag, per-block runs), the main job.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
./qapgpu info
./gpu_twin --test-threads=1 2>&1 | tail -15
./qapgpu --engine gpu --seed 1
