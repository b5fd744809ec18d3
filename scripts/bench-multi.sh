#!/usr/bin/env bash
# Several GPUs, one run (`--gpus`), on a multi-GPU machine, from the repository root after
# `cargo xtask dist` with QAPLIB in dist/qaplib: every device listed, a device that cannot be
# opened is skipped with a note, then time to target on 1 GPU against all of them (10 runs).
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
out=${OUT:-../bench-results}
mkdir -p "$out"
./qapgpu info | grep -E "^GPU"
echo "== --gpus 0,7 (no device 7)"; ./qapgpu tai25b --gpus 0,7 --seed 1 2>&1 | grep -E "^note|^algorithm|^target"
for g in 0 all; do
  echo "== --gpus $g"
  timeout 250 ./qapgpu bench compare --engine gpu --gpus $g --algos ts,aco-ts,ga-independent --runs 10 --time-limit 5 \
    --instances tai35b,tai50b,tai60b,kra30b --out "$out/multi-$g" >/dev/null 2>/tmp/multi-$g.log
  cat "$out/multi-$g/compare.md" 2>/dev/null || tail -3 /tmp/multi-$g.log
done
