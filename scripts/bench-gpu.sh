#!/usr/bin/env bash
# The GPU benchmarks behind BENCHMARKS.md, run on a GPU machine from the repository root
# after `cargo xtask dist` (dist/qapgpu) with the QAPLIB files in dist/qaplib.
# Usage: scripts/bench-gpu.sh 001-fill | 000-and-001-p   (results go to $OUT or bench-results/)
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
out=${OUT:-../bench-results}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
case "$1" in
  # Seed 001: 30 single-block runs (concurrently, one block per run) for the gamma model,
  # then 10 FoundFlag runs with the GPU filled.
  001-fill) ./qapgpu bench 001 --engine gpu --runs 10 --single-runs 30 --blocks 0 --time-limit 40 --out "$out/001-fill" ;;
  # Seed 000 (island GA) with the GPU filled (128 × 30 × 22) and at the paper's 128 × 30 × 1,
  # then seed 001 with the paper's p = 30 and p = 60 blocks; each phase bounded in time, rows
  # streamed to logs as they come.
  000-and-001-p)
    mkdir -p "$out"
    timeout 200 ./qapgpu bench 000 --engine gpu --runs 5 --k 22 --time-limit 10 --out "$out/000-fill" 2>&1 | tee "$out/000-fill.log"
    timeout 120 ./qapgpu bench 000 --engine gpu --runs 5 --k 1 --instances tai20b,tai25b,tai40b --time-limit 15 --out "$out/000-k1" 2>&1 | tee "$out/000-k1.log"
    timeout 240 ./qapgpu bench 001 --engine gpu --runs 5 --single-runs 0 --blocks 30,60 --instances tai25b,kra30a,kra30b,tai30b,tai40b --time-limit 15 --out "$out/001-p" 2>&1 | tee "$out/001-p.log"
    ;;
  *) echo "usage: $0 001-fill|000-and-001-p" >&2; exit 2 ;;
esac
