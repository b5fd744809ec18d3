#!/usr/bin/env bash
# MPI on a GPU machine that has none (issue 44): Open MPI from the .deb files in
# dist/mpi/debs (scripts/mpi-debs.sh) unpacked with `dpkg -x` into /tmp/ompi, and the MPI
# build of the binary, dist/mpi/qapgpu.xz. From the repository root with QAPLIB in dist/qaplib:
# `mpirun -np 2` reports once and reaches nug12's optimum on the GPUs; then the time to
# target of `-np 1`, `-np 2` and `-np 4` (ranks on one host split its GPUs: one GPU a rank
# on two GPUs, two ranks a GPU at -np 4) against one process over every GPU (`--gpus all`),
# seeds 1..RUNS (default 5), on INSTANCES (name:gap% pairs).
set -u
root=/tmp/ompi
mkdir -p "$root"
for d in dist/mpi/debs/*.deb; do dpkg -x "$d" "$root"; done
lib=$root/usr/lib/x86_64-linux-gnu
export OPAL_PREFIX=$root/usr OPAL_LIBDIR=$lib/openmpi/lib OPAL_SYSCONFDIR=$root/etc/openmpi \
  OPAL_PKGDATADIR=$root/usr/share/openmpi OPAL_DATADIR=$root/usr/share \
  PATH=$root/usr/bin:$PATH LD_LIBRARY_PATH=$lib:$lib/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
  PMIX_INSTALL_PREFIX=$root/usr PMIX_MCA_pcompress_base_silence_warning=1
export QAPLIB_DIR=$PWD/dist/qaplib
bin=/tmp/qapgpu-mpi
xz -dc dist/mpi/qapgpu.xz > "$bin" && chmod +x "$bin"
mpirun --version | head -1
run() { mpirun --allow-run-as-root --oversubscribe --bind-to none "$@"; }
out=$(run -np 2 "$bin" solve nug12 --engine gpu --seed 1 --time-limit 60 --quiet 2>&1)
echo "$out" | grep -E "^(instance|device|cost|target|ranks|layout)" | head -8
[ "$(grep -c '^instance' <<<"$out")" = 1 ] && echo "mpirun -np 2: one report" || echo "mpirun -np 2: expected one report"
ttt() { python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["time_to_target_s"]; print("-" if t is None else round(t*1e3,2), end=" ")'; }
for pair in ${INSTANCES:-tai50b:0 tai60b:0 tai50a:1}; do
  inst=${pair%%:*} gap=${pair##*:}
  printf "%s gap %s%%, time to target (ms), seeds 1..%s\n" "$inst" "$gap" "${RUNS:-5}"
  printf "  one process, --gpus all: "
  for s in $(seq 1 "${RUNS:-5}"); do "$bin" solve "$inst" --engine gpu --gpus all --seed $s --target-gap "$gap" --time-limit 30 --json -q 2>/dev/null | ttt; done; echo
  for np in 1 2 4; do
    printf "  mpirun -np %s: " $np
    for s in $(seq 1 "${RUNS:-5}"); do run -np $np "$bin" solve "$inst" --engine gpu --seed $s --target-gap "$gap" --time-limit 30 --json -q 2>/dev/null | ttt; done; echo
  done
done
