#!/usr/bin/env bash
# On a GPU machine, from the repository root: unpacks what `cargo xtask dist` packed
# (dist/pack/bundle.tar.xz: qapgpu, qapgpu.ptx and the GPU test binaries) into dist/.
set -euo pipefail
tar xJf dist/pack/bundle.tar.xz -C dist
