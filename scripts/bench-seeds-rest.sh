#!/usr/bin/env bash
# Issue 42's longest runs in one lease of a four-GPU host, over several device calls (each
# at most 10 minutes): `start` (or `start-allcores`) launches them in the background in a
# process session of their own, so that they outlive the call; `collect SECONDS` waits up
# to SECONDS (or until all are done), prints progress and packs what is done into
# $OUT/rest.tar.xz. From the repository root, with the binary in $BIN_DIR (default
# dist/quick) and QAPLIB in $QAPLIB_DIR (default $BIN_DIR/qaplib, with kra32).
#
# `start`, GPU queues (CUDA_VISIBLE_DEVICES; with fewer GPUs, queue q runs on GPU q mod count):
#   0: 001 Table II, 30 runs at p = 30 and 60 and 100 single blocks, 15 s a run: tai50b,
#      tai35b, ste36b (`bench-seeds.sh gpu001`)
#   1: the same for tai40b; 003 Table 6's non-MATA tai80b and tai100b (10 runs)
#   2, 3: 003 Table 5's non-MATA tai150b (seeds 1-5 and 6-10), then Table 6's (the same)
# `start`, CPU jobs, one thread a run, beside them on all cores but one a GPU queue:
#   003 Table 5's one-thread column for tai80a, tai100a, tai100b (10 runs) and tai150b
#   (3 runs, cut at CPU_LIMIT, 1150 s: a run needs 27 minutes on an idle core, about 55 on a
#   busy host); Table 6's for tai80b, tai100b and tai150b (10 runs, cut at CPU_LIMIT); 001
#   Table III at 30 runs a size, 20 s a run, TABLE3_JOBS (24) at once.
# `start-allcores`: the papers' CPU columns on all cores of a CPU instead of one thread, no
#   GPU: SLOTS (4) groups of SLOT_CORES (16) cores (taskset), each a queue of jobs taken
#   longest first: 003 Tables 5 and 6 (10 runs; tai150b 3, whose runs took 3.6 and 5.7
#   minutes on 15 cores), 000 GA-1/GA-2 (10 runs), 001's independent runs at p = 60 (30
#   runs, 10 s) and 004 (10 runs a cell), each with --threads 0 (the slot's cores), each cut
#   at JOB_CAP (1700) s. ONLY (space-separated job names, e.g. "t5-tai80b t6-tai100b
#   t6-small") runs those jobs alone; tai150b's runs 4-10 are jobs of one run each
#   (t5-tai150b-s4 … t6-tai150b-s10). The weights are minutes on 15 cores of a busy 64-core
#   Xeon, as measured on 2026-11-26 (estimates for the three jobs that did not run then).
set -u
bin_dir=${BIN_DIR:-dist/quick}
bin=$(realpath "$bin_dir")/qapgpu
export QAPLIB_DIR=${QAPLIB_DIR:-$(realpath "$bin_dir")/qaplib}
bg=${BG:-/tmp/seeds-rest}
limit=${CPU_LIMIT:-1150}
[ -x "$bin" ] || { echo "bench-seeds-rest.sh: no qapgpu binary at $bin (set BIN_DIR)"; exit 2; }
case ${1:-} in
start)
  mkdir -p "$bg"
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  [ "$gpus" -ge 1 ] || { echo "bench-seeds-rest.sh: no GPU"; exit 2; }
  { nproc; lscpu | grep -E '^(Model name|Thread|Core|Socket)'; nvidia-smi -L; } > "$bg/machine.txt"
  queue() { # Q COMMANDS: a GPU queue in the background, its log under $bg/qQ
    local q=$1; shift
    mkdir -p "$bg/q$q" && touch "$bg/q$q/started"
    CUDA_VISIBLE_DEVICES=$((q % gpus)) setsid bash -c "$*; touch '$bg/q$q/done'" > "$bg/q$q/log" 2>&1 < /dev/null &
  }
  seeds="BIN_DIR=$bin_dir OUT=$bg/q"
  plain() { # NAME PROTOCOL INSTANCE SEED RUNS LIMIT: non-MATA runs of seed 003
    echo "timeout $(($6 * $5 + 120)) $bin bench $2 --engine gpu --layouts plain --instances $3 --seed $4 --runs $5 --time-limit $6 --out $bg/gpu/$1 > $bg/gpu/$1.md 2> $bg/gpu/$1.log"
  }
  mkdir -p "$bg/gpu"
  queue 0 "CAP=1100 LIMIT=15 $seeds""0 INSTANCES=tai50b,tai35b,ste36b scripts/bench-seeds.sh gpu001"
  queue 1 "CAP=1100 LIMIT=15 $seeds""1 INSTANCES=tai40b scripts/bench-seeds.sh gpu001; $(plain t6-plain-tai80b 003-target tai80b 1 10 60); $(plain t6-plain-tai100b 003-target tai100b 1 10 60)"
  queue 2 "$(plain t5-plain-tai150b-1 003-fixed tai150b 1 5 300); $(plain t6-plain-tai150b-1 003-target tai150b 1 5 120)"
  queue 3 "$(plain t5-plain-tai150b-6 003-fixed tai150b 6 5 300); $(plain t6-plain-tai150b-6 003-target tai150b 6 5 120)"
  # The CPU: a process a run of seed 003, longest first; Table III in one process.
  t3=${TABLE3_JOBS:-24}
  jobs=$(($(nproc) - gpus - t3))
  [ "$jobs" -ge 1 ] || { echo "bench-seeds-rest.sh: $(nproc) cores are too few"; exit 2; }
  mkdir -p "$bg/cpu" && touch "$bg/cpu/started"
  {
    for s in 1 2 3; do echo "003-fixed tai150b $s"; done
    for i in tai150b tai100b; do for s in $(seq 1 10); do echo "003-target $i $s"; done; done
    for i in tai100a tai100b; do for s in $(seq 1 10); do echo "003-fixed $i $s"; done; done
    for s in $(seq 1 10); do echo "003-target tai80b $s"; done
    for s in $(seq 1 10); do echo "003-fixed tai80a $s"; done
  } > "$bg/cpu/jobs"
  setsid bash -c "xargs -P $jobs -L1 bash -c 'timeout $((limit + 60)) $bin bench \$0 --engine cpu --threads 1 --instances \$1 --runs 1 --seed \$2 --time-limit $limit --out $bg/cpu/\$0-\$1-\$2 > /dev/null 2> $bg/cpu/\$0-\$1-\$2.log' < $bg/cpu/jobs; touch $bg/cpu/done" > "$bg/cpu/log" 2>&1 < /dev/null &
  mkdir -p "$bg/t3" && touch "$bg/t3/started"
  setsid bash -c "timeout 1300 $bin bench 001-cpu --engine cpu --threads 1 --runs 30 --time-limit 20 --jobs $t3 --out $bg/t3 > $bg/t3/table.md 2> $bg/t3/log; touch $bg/t3/done" < /dev/null > /dev/null 2>&1 &
  echo "started: $gpus GPU(s), $jobs CPU jobs at once, Table III $t3 at once; results under $bg"
  ;;
start-allcores)
  slots=${SLOTS:-4} cores=${SLOT_CORES:-16}
  [ $((slots * cores)) -le "$(nproc)" ] || { echo "bench-seeds-rest.sh: $slots slots of $cores cores need more than $(nproc) cores"; exit 2; }
  mkdir -p "$bg"
  { nproc; lscpu | grep -E '^(Model name|Thread|Core|Socket)'; } > "$bg/machine.txt"
  # WEIGHT NAME ARGS: minutes on 15 cores (see the header), then the bench arguments.
  cat > "$bg/allcores.all" <<JOBS
27 t001 001 --blocks 60 --runs 30 --single-runs 0 --time-limit 10
17 t6-tai150b-1 003-target --instances tai150b --seed 1 --runs 3 --time-limit 900
12 t5-tai100a 003-fixed --instances tai100a --runs 10 --time-limit 600
11 t5-tai150b-1 003-fixed --instances tai150b --seed 1 --runs 3 --time-limit 900
10 t6-tai100b 003-target --instances tai100b --runs 10 --time-limit 600
8 t5-tai100b 003-fixed --instances tai100b --runs 10 --time-limit 600
6 t004 004 --runs 10
6 t5-tai80a 003-fixed --instances tai80a --runs 10 --time-limit 600
6 t5-tai80b 003-fixed --instances tai80b --runs 10 --time-limit 600
6 t6-tai80b 003-target --instances tai80b --runs 10 --time-limit 600
5 t000 000 --instances tai20b,tai25b,tai40b --variants ga1,ga2 --paper-k --runs 10 --time-limit 15
5 t5-small 003-fixed --instances tai40a,tai50a,tai60a,tai50b,tai60b --runs 10 --time-limit 600
5 t6-small 003-target --instances tai40a,tai50a,tai60a,tai80a,tai100a,tai50b,tai60b --runs 10 --time-limit 600
JOBS
  # tai150b's runs 4 to 10, a job a run (t5-tai150b-sS, t6-tai150b-sS), so that they spread
  # over the slots.
  for s in 4 5 6 7 8 9 10; do
    echo "4 t5-tai150b-s$s 003-fixed --instances tai150b --seed $s --runs 1 --time-limit 900"
    echo "6 t6-tai150b-s$s 003-target --instances tai150b --seed $s --runs 1 --time-limit 900"
  done >> "$bg/allcores.all"
  if [ -n "${ONLY:-}" ]; then
    for j in $ONLY; do awk -v j="$j" '$2 == j { f = 1 } END { exit !f }' "$bg/allcores.all" || { echo "bench-seeds-rest.sh: ONLY: no job $j"; exit 2; }; done
    awk -v only=" $ONLY " 'index(only, " " $2 " ")' "$bg/allcores.all" > "$bg/allcores.jobs"
  else
    cp "$bg/allcores.all" "$bg/allcores.jobs"
  fi
  # Longest first, each job to the slot with the least work so far.
  sort -rn "$bg/allcores.jobs" | awk -v s="$slots" '{ k = 0; for (i = 1; i < s; i++) if (w[i] < w[k]) k = i; w[k] += $1; print k, $0 }' > "$bg/allcores.plan"
  for k in $(seq 0 $((slots - 1))); do
    d=$bg/slot$k
    mkdir -p "$d" && touch "$d/started"
    awk -v k="$k" -v cap="${JOB_CAP:-1700}" -v bin="$bin" -v d="$d" '$1 == k { name = $3; $1 = $2 = $3 = ""; printf "timeout %s %s bench%s --engine cpu --threads 0 --out %s/%s > %s/%s.md 2> %s/%s.log\n", cap, bin, $0, d, name, d, name, d, name }' "$bg/allcores.plan" > "$d/jobs"
    setsid taskset -c "$((k * cores))-$((k * cores + cores - 1))" bash -c "bash '$d/jobs'; touch '$d/done'" > "$d/log" 2>&1 < /dev/null &
  done
  echo "started: $slots slots of $cores cores; plan in $bg/allcores.plan; results under $bg"
  ;;
collect)
  compgen -G "$bg/*/started" > /dev/null || { echo "bench-seeds-rest.sh: nothing was started under $bg"; exit 2; }
  end=$((SECONDS + ${2:-540}))
  while [ $SECONDS -lt $end ]; do
    left=0
    for s in "$bg"/*/started; do [ -e "${s%started}done" ] || left=$((left + 1)); done
    [ $left -eq 0 ] && break
    sleep 10
  done
  for s in "$bg"/*/started; do
    d=${s%/started}
    echo "$d: $([ -e "$d/done" ] && echo done || echo running)"
  done
  [ -e "$bg/cpu/jobs" ] && echo "CPU runs done: $(find "$bg/cpu" -name 'seed003-table*.csv' | wc -l) of $(wc -l < "$bg/cpu/jobs")"
  grep -h "^==" "$bg"/q*/log 2>/dev/null
  mkdir -p "${OUT:-bench-results}"
  tar cf - -C "$(dirname "$bg")" "$(basename "$bg")" | xz -T0 -6 > "${OUT:-bench-results}/rest.tar.xz"
  ;;
*) echo "usage: scripts/bench-seeds-rest.sh start | start-allcores | collect [SECONDS]"; exit 2 ;;
esac
