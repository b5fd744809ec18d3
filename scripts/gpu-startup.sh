#!/usr/bin/env bash
# Start-up cost on a GPU machine, from the repository root, after `cargo xtask dist`: the
# embedded machine code against the PTX JIT (with the driver's JIT cache off, as on a fresh
# machine), and process start to the end of a small solve.
set -u
cd dist
for i in 1 2 3; do
  echo "== embedded cubin, JIT cache off (run $i)"; CUDA_CACHE_DISABLE=1 ./qapgpu info | grep start-up
  echo "== PTX only, JIT cache off (run $i)"; CUDA_CACHE_DISABLE=1 ./qapgpu info --ptx qapgpu.ptx | grep start-up
done
echo "== process start to exit, planted24 on the GPU (3 runs)"
for i in 1 2 3; do
  s=$(date +%s.%N); ./qapgpu --engine gpu --seed $i --quiet | grep -E "^(start-up|target)"; e=$(date +%s.%N)
  echo "wall $(python3 -c "print(f'{$e-$s:.3f}')") s"
done
