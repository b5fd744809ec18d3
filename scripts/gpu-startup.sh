#!/usr/bin/env bash
# First start on a GPU machine, from the repository root, after `cargo xtask dist` and
# scripts/unpack-dist.sh: for each family, a fresh process solving nug12 (shipped in
# data/qaplib) with the embedded machine code, and with the PTX JIT-compiled kernel by
# kernel (QAPGPU_JIT=1), the driver's JIT cache off both times as on a fresh machine.
# Prints the solver's start-up line (context, module, JIT) and the process's wall time.
# Then the README's main job (the embedded default instance) from process start to exit.
set -u
cd dist
inst=../data/qaplib/nug12.dat
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
wall() { local s e; s=$(date +%s.%N); "$@" >/tmp/startup.json 2>/dev/null; e=$(date +%s.%N); python3 -c "print(f'{$e-$s:.3f}')"; }
field() { python3 -c "import json; d=json.load(open('/tmp/startup.json')); print(d.get('$1'))"; }
echo "family | code | start-up s | process wall s | start-up line"
for algo in auto ts memetic aco-ts aco-2opt ga-islands ga-independent cga; do
  for mode in cubin jit; do
    if [ $mode = jit ]; then export QAPGPU_JIT=1; else unset QAPGPU_JIT; fi
    w=$(CUDA_CACHE_DISABLE=1 wall ./qapgpu solve $inst --engine gpu --algo $algo --seed 1 --time-limit 0.2 --json)
    echo "$algo | $mode | $(field startup_s) | $w | $(field startup)"
  done
done
unset QAPGPU_JIT
echo "== the README's main job, process start to exit (3 runs, JIT cache off)"
for i in 1 2 3; do
  s=$(date +%s.%N); CUDA_CACHE_DISABLE=1 ./qapgpu --engine gpu --seed $i --quiet | grep -E "^(start-up|target|algorithm)"; e=$(date +%s.%N)
  echo "wall $(python3 -c "print(f'{$e-$s:.3f}')") s"
done
echo "== the whole PTX in one module (the build before the split), JIT cache off"
CUDA_CACHE_DISABLE=1 ./qapgpu info --ptx qapgpu.ptx | grep start-up
