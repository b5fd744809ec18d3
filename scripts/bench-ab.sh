#!/usr/bin/env bash
# Two builds of qapgpu side by side on the GPUs of one host (issue 43's measurements of a
# mechanism), in the background: `start` launches the queues below in a process session of
# their own under $BG (default /tmp/seeds-rest), so that they outlive a device call, and
# `scripts/bench-seeds-rest.sh collect SECONDS` (same BG) waits for them and packs them with
# whatever else runs there. From the repository root; BASE and NEW name the two binaries
# (default dist/quick/qapgpu-base and dist/quick/qapgpu), QAPLIB_DIR the instances (default
# dist/quick/qaplib). Each run is re-costed and its gap taken by `bench`.
#
# Jobs, each for BASE and for NEW (the same job of the two builds on sibling GPUs):
#   gaps1   `bench gaps --algos auto --runs 8 --time-limit 1`: every instance with a
#           best-known value, 1 s, seeds 1-8
#   taia10  `bench gaps --algos auto --runs 8 --time-limit 10` on tai40a ... tai100a
#   ts      `bench compare --algos ts --runs 16 --time-limit 3` on the small structured
#           targets: time to the best-known value
# Queues: GPU 0 BASE gaps1 then ts, GPU 1 NEW the same, GPU 2 BASE taia10, GPU 3 NEW taia10;
# with fewer GPUs, queue q runs on GPU q mod count, after the queues before it there. Each
# GPU's process is pinned to one core of CORES (default the host's last cores, one a GPU),
# so that CPU work on the other cores (`bench-seeds-rest.sh start-allcores` with SLOTS ×
# SLOT_CORES below them) runs beside it undisturbed.
set -u
base=$(realpath "${BASE:-dist/quick/qapgpu-base}")
new=$(realpath "${NEW:-dist/quick/qapgpu}")
export QAPLIB_DIR=${QAPLIB_DIR:-$(realpath dist/quick/qaplib)}
bg=${BG:-/tmp/seeds-rest}
for b in "$base" "$new"; do [ -x "$b" ] || { echo "bench-ab.sh: no qapgpu binary at $b (set BASE and NEW)"; exit 2; }; done
[ "${1:-}" = start ] || { echo "usage: scripts/bench-ab.sh start   (then scripts/bench-seeds-rest.sh collect SECONDS)"; exit 2; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -ge 1 ] || { echo "bench-ab.sh: no GPU"; exit 2; }
read -r -a cores <<< "${CORES:-$(seq -s ' ' $(($(nproc) - gpus)) $(($(nproc) - 1)))}"
[ "${#cores[@]}" -ge "$gpus" ] || { echo "bench-ab.sh: CORES lists ${#cores[@]} cores for $gpus GPUs"; exit 2; }
mkdir -p "$bg"
{ nproc; lscpu | grep -E '^(Model name|Thread|Core|Socket)'; nvidia-smi -L; } > "$bg/ab-machine.txt"
job() { # TAG BIN ARGS: one bench run of BIN into $bg/ab/TAG
  local tag=$1 bin=$2; shift 2
  echo "timeout 900 $bin bench $* --engine gpu --seed 1 --out $bg/ab/$tag > $bg/ab/$tag.md 2> $bg/ab/$tag.log"
}
small=tai25b,kra30a,kra30b,tai30b,tai35b,ste36b,tai40b,tho40
taia=tai40a,tai50a,tai60a,tai80a,tai100a
queues=(
  "$(job base-gaps1 "$base" gaps --algos auto --runs 8 --time-limit 1); $(job base-ts "$base" compare --algos ts --runs 16 --time-limit 3 --instances $small)"
  "$(job new-gaps1 "$new" gaps --algos auto --runs 8 --time-limit 1); $(job new-ts "$new" compare --algos ts --runs 16 --time-limit 3 --instances $small)"
  "$(job base-taia10 "$base" gaps --algos auto --runs 8 --time-limit 10 --instances $taia)"
  "$(job new-taia10 "$new" gaps --algos auto --runs 8 --time-limit 10 --instances $taia)"
)
mkdir -p "$bg/ab"
for g in $(seq 0 $((gpus - 1))); do
  list=""
  for q in "${!queues[@]}"; do [ $((q % gpus)) -eq "$g" ] && list="$list${queues[$q]}; "; done
  [ -n "$list" ] || continue
  d=$bg/ab$g
  mkdir -p "$d" && touch "$d/started"
  CUDA_VISIBLE_DEVICES=$g setsid taskset -c "${cores[$g]}" bash -c "$list touch '$d/done'" > "$d/log" 2>&1 < /dev/null &
done
echo "started: ${#queues[@]} queues on $gpus GPU(s), pinned to cores ${cores[*]:0:$gpus}; results under $bg/ab"
