#!/usr/bin/env bash
# The MPI path (`--features mpi`): `mpirun -np 2 qapgpu solve` on the CPU engine reaches the
# target and prints exactly one report; then time to target with 1 and 2 ranks. From the
# repository root after `cargo build --release -p host --features mpi`.
set -eu
bin=${BIN:-target/release/qapgpu}
run() { mpirun --allow-run-as-root --oversubscribe "$@"; }
out=$(run -np 2 "$bin" solve nug12 --engine cpu --seed 1 --time-limit 60 --quiet)
[ "$(grep -c '^instance' <<<"$out")" = 1 ] || { echo "expected one report, got: $out"; exit 1; }
grep -q 'target           578: reached' <<<"$out" || { echo "target not reached: $out"; exit 1; }
grep -q '2 MPI ranks' <<<"$out" || { echo "not an MPI run: $out"; exit 1; }
echo "mpirun -np 2: one report, target reached"
if [ "${TIMES:-}" ]; then
  for inst in ${TIMES}; do
    for np in 1 2; do
      ts=""
      for s in 1 2 3 4 5; do
        ts="$ts $(run -np $np "$bin" solve "$inst" --engine cpu --seed $s --time-limit 60 --json | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["time_to_target_s"], 3))')"
      done
      echo "$inst -np $np:$ts"
    done
  done
fi
