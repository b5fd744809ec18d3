#!/usr/bin/env bash
# Two builds of qapgpu side by side on the GPUs of one host (issue 43's measurements of a
# mechanism), in the background. From the repository root:
#   scripts/bench-ab.sh start
#   BIN_DIR=<folder of NEW> scripts/bench-seeds-rest.sh collect SECONDS   (repeat until done)
# `start` launches the queues below in a process session of their own under $BG (default
# /tmp/seeds-rest, which must hold no earlier A/B), so that they outlive a device call;
# bench-seeds-rest.sh's `collect` (same BG) waits for them and packs them, with whatever
# else runs there, into $OUT/rest.tar.xz (default bench-results/).
#
# BASE and NEW name the two binaries (default dist/quick/qapgpu-base and dist/quick/qapgpu):
# e.g. a stripped `cargo build --release -p host` of the baseline commit copied to
# dist/quick/qapgpu-base, and of the change to dist/quick/qapgpu. QAPLIB_DIR names the
# instances (default dist/quick/qaplib; "every instance" is every .dat there with a
# best-known value). JOB_CAP (default 900) cuts each job, in seconds: a bench table is
# written only at its end, so a job cut off leaves none (gaps1 over the whole 136-instance
# library needs about 1,100 s). Each run is re-costed and its gap taken by `bench`.
#
# Jobs, each for BASE and for NEW:
#   gaps1   `bench gaps --algos auto --runs 8 --time-limit 1`: every instance with a
#           best-known value, 1 s, seeds 1-8
#   taia10  `bench gaps --algos auto --runs 8 --time-limit 10` on tai40a ... tai100a
#   ts      `bench compare --algos ts --runs 16 --time-limit 3` on the small structured
#           targets: time to the best-known value
# Queues, as pairs (BASE, NEW) of the same jobs at once on two GPUs: pair 1 gaps1 then ts,
# pair 2 taia10. With 4 GPUs the pairs run side by side; with 2 or 3 GPUs (the third idle)
# one pair after the other; with 1 GPU every queue one after the other. Each GPU's process
# is pinned to one core of CORES (space-separated core numbers, default the last ones the
# process may run on, one a GPU), so that CPU work on the other cores (e.g.
# `bench-seeds-rest.sh start-allcores` with SLOTS × SLOT_CORES below them) runs beside it.
set -u
[ "${1:-}" = start ] || { echo "usage: scripts/bench-ab.sh start   (then scripts/bench-seeds-rest.sh collect SECONDS)"; exit 2; }
base=$(realpath -m "${BASE:-dist/quick/qapgpu-base}")
new=$(realpath -m "${NEW:-dist/quick/qapgpu}")
export QAPLIB_DIR=${QAPLIB_DIR:-$(realpath -m dist/quick/qaplib)}
bg=${BG:-/tmp/seeds-rest}
cap=${JOB_CAP:-900}
for b in "$base" "$new"; do [ -x "$b" ] || { echo "bench-ab.sh: no qapgpu binary at $b (set BASE and NEW)"; exit 2; }; done
[ -d "$QAPLIB_DIR" ] || { echo "bench-ab.sh: no QAPLIB folder at $QAPLIB_DIR (set QAPLIB_DIR)"; exit 2; }
[ -e "$bg/ab" ] && { echo "bench-ab.sh: $bg/ab holds an earlier A/B; move it away or set BG"; exit 2; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -ge 1 ] || { echo "bench-ab.sh: no GPU"; exit 2; }
# The cores this process may run on, in order (taskset's and cgroups' limits included).
allowed=$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')
read -r -a mine <<< "$allowed"
[ "${#mine[@]}" -gt "$gpus" ] || { echo "bench-ab.sh: ${#mine[@]} cores are too few for $gpus GPUs"; exit 2; }
read -r -a cores <<< "${CORES:-${mine[*]: -$gpus}}"
[ "${#cores[@]}" -ge "$gpus" ] || { echo "bench-ab.sh: CORES lists ${#cores[@]} cores for $gpus GPUs"; exit 2; }
for c in "${cores[@]}"; do
  [[ " $allowed " == *" $c "* ]] || { echo "bench-ab.sh: CORES: core $c is not one this process may run on ($allowed)"; exit 2; }
done
mkdir -p "$bg/ab"
{ nproc; lscpu | grep -E '^(Model name|Thread|Core|Socket)'; nvidia-smi -L; } > "$bg/ab-machine.txt"
job() { # TAG BIN ARGS: one bench run of BIN into $bg/ab/TAG, as a quoted command line
  local tag=$1 bin=$2 out=$bg/ab/$1; shift 2
  printf 'timeout %q %q bench %s --engine gpu --seed 1 --out %q > %q 2> %q' "$cap" "$bin" "$*" "$out" "$out.md" "$out.log"
}
small=tai25b,kra30a,kra30b,tai30b,tai35b,ste36b,tai40b,tho40
taia=tai40a,tai50a,tai60a,tai80a,tai100a
pair1() { echo "$(job "$1-gaps1" "$2" gaps --algos auto --runs 8 --time-limit 1); $(job "$1-ts" "$2" compare --algos ts --runs 16 --time-limit 3 --instances $small)"; }
pair2() { job "$1-taia10" "$2" gaps --algos auto --runs 8 --time-limit 10 --instances $taia; }
# Queue k runs on GPU gpu_of[k]; queues on one GPU run one after the other.
queues=("$(pair1 base "$base")" "$(pair1 new "$new")" "$(pair2 base "$base")" "$(pair2 new "$new")")
case $gpus in
  1) gpu_of=(0 0 0 0) ;;
  2 | 3) gpu_of=(0 1 0 1) ;;
  *) gpu_of=(0 1 2 3) ;;
esac
for g in 0 1 2 3; do
  list=""
  for q in 0 1 2 3; do [ "${gpu_of[$q]}" -eq "$g" ] && list="$list${queues[$q]}; "; done
  [ -n "$list" ] || continue
  d=$bg/ab$g
  mkdir -p "$d" && rm -f "$d/done" && touch "$d/started"
  CUDA_VISIBLE_DEVICES=$g setsid taskset -c "${cores[$g]}" bash -c "$list touch $(printf %q "$d/done")" > "$d/log" 2>&1 < /dev/null &
done
echo "started: 4 queues on $gpus GPU(s), pinned to cores ${cores[*]:0:$gpus}; results under $bg/ab"
