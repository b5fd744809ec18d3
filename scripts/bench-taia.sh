#!/usr/bin/env bash
# Issue 43's GPU measurements, as one queue of `qapgpu solve --json` runs shared by every
# GPU of the host, in the background. From the repository root:
#   scripts/bench-taia.sh start        # writes the jobs, starts one worker a GPU, returns
#   scripts/bench-seeds-rest.sh collect SECONDS   # waits for them (same BG), packs $BG
#   scripts/bench-taia.sh summary [RESULTS]       # tables from results.jsonl (python3)
# Jobs (STUDIES, space-separated, default all five), every run re-costed by `solve`, which
# stops at the best-known value (the default target) or at the time limit:
#   long60   tai50a and tai60a (LONG_INSTANCES), 60 s, seeds 1-10 (LONG_SEEDS: 1-N): is the
#            best-known value reached?
#   taia10   every tai*a of $QAPLIB_DIR, 10 s, seeds 1-8 (issue 43's first criterion)
#   tune10   tai60a, tai80a, tai100a (TUNE_INSTANCES: names in $QAPLIB_DIR or paths of .dat
#            files), 10 s (`--stop time`), seeds 1-8 (TUNE_SEEDS: N for 1-N, or A-B), seed by seed, for each of SETTINGS
#            (";"-separated `solve` options; "auto" is the default run). An instance without a
#            best-known value (scripts/random-dat.py's) is summarised by its gap to the
#            lowest cost any run of the study found for it.
#   c256     tai256c, 10 s, seeds 1-8
#   all1     every instance of $QAPLIB_DIR with a best-known value, 1 s, SEEDS1 (2) seeds
# Each worker is one GPU (CUDA_VISIBLE_DEVICES, set per worker over every GPU nvidia-smi
# lists) and its process is pinned to one core of
# CORES (space-separated; default the last cores the process may use, one a GPU), so that
# CPU work below them runs beside it. BIN_DIR (dist/quick) holds qapgpu; QAPLIB_DIR
# defaults to $BIN_DIR/qaplib-all (scripts/fetch-qaplib.sh). Results: $BG/taia/results.jsonl,
# one line a run: "study|setting|instance|seed|" and `solve --json`'s object.
set -u
bin_dir=${BIN_DIR:-dist/quick}
bg=${BG:-/tmp/seeds-rest}
q=$bg/taia
fail() { echo "bench-taia.sh: $*" >&2; exit 2; }
# Seeds N (1 to N) or A-B.
seeds_of() { case $1 in *-*) seq "${1%-*}" "${1#*-}" ;; *) seq 1 "$1" ;; esac; }
case ${1:-} in
start)
  bin=$(realpath "$bin_dir")/qapgpu
  [ -x "$bin" ] || fail "no qapgpu binary at $bin (set BIN_DIR)"
  lib=$(realpath "${QAPLIB_DIR:-$bin_dir/qaplib-all}")
  [ -f "$lib/bks.csv" ] || fail "no bks.csv in $lib (scripts/fetch-qaplib.sh, or set QAPLIB_DIR)"
  [ -e "$q/started" ] && fail "$q holds an earlier queue; move it away or set BG"
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  [ "$gpus" -ge 1 ] || fail "no GPU"
  mkdir -p "$q"
  names=$(tail -n +2 "$lib/bks.csv" | cut -d, -f1 | while read -r i; do [ -f "$lib/$i.dat" ] && echo "$i"; done)
  taia=$(grep -E '^tai[0-9]+a$' <<<"$names")
  studies=${STUDIES:-long60 taia10 tune10 c256 all1}
  IFS=';' read -ra settings <<<"${SETTINGS:-auto}"
  # In the order of STUDIES (the default's is longest first, so that the workers end together).
  {
    for st in $studies; do
      case $st in
      long60) for i in ${LONG_INSTANCES:-tai50a tai60a}; do for s in $(seq 1 "${LONG_SEEDS:-10}"); do echo "long60|auto|$i|$s|--time-limit 60"; done; done ;;
      # Seed by seed, the settings side by side, so that a change in the host's load over
      # the queue falls on every setting alike.
      tune10) for s in $(seeds_of "${TUNE_SEEDS:-8}"); do for i in ${TUNE_INSTANCES:-tai60a tai80a tai100a}; do for set in "${settings[@]}"; do
          echo "tune10|$set|$i|$s|--time-limit 10 --stop time $([ "$set" = auto ] || echo "$set")"; done; done; done ;;
      taia10) for i in $taia; do for s in $(seq 1 8); do echo "taia10|auto|$i|$s|--time-limit 10"; done; done ;;
      c256) for s in $(seq 1 8); do echo "c256|auto|tai256c|$s|--time-limit 10"; done ;;
      all1) for i in $names; do for s in $(seq 1 "${SEEDS1:-2}"); do echo "all1|auto|$i|$s|--time-limit 1"; done; done ;;
      *) fail "STUDIES: no study $st" ;;
      esac
    done
  } > "$q/jobs"
  cp "$q/jobs" "$q/jobs.all"
  { nproc; lscpu | grep -E '^Model name'; nvidia-smi -L; } > "$q/machine.txt"
  allowed=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done)
  read -ra cores <<<"${CORES:-$(tail -n "$gpus" <<<"$allowed" | tr '\n' ' ')}"
  [ "${#cores[@]}" -ge "$gpus" ] || fail "CORES names ${#cores[@]} cores for $gpus GPUs"
  touch "$q/started"
  for g in $(seq 0 $((gpus - 1))); do
    CUDA_VISIBLE_DEVICES=$g QAPLIB_DIR=$lib setsid taskset -c "${cores[$g]}" bash -c '
      q=$0 bin=$1 g=$2 gpus=$3
      while :; do
        job=$(flock "$q/lock" sh -c '\''l=$(head -n1 "$0"); [ -n "$l" ] && sed -i 1d "$0"; printf %s "$l"'\'' "$q/jobs")
        [ -n "$job" ] || break
        IFS="|" read -r st set inst seed args <<<"$job"
        # shellcheck disable=SC2086
        out=$(timeout 200 "$bin" solve "$inst" --engine gpu --seed "$seed" --json -q $args 2> "$q/err.tmp.$$")
        rc=$?
        # A failed run: its exit status and stderr, as JSON (python3 quotes them).
        [ -n "$out" ] || out=$(python3 -c "import json, sys; print(json.dumps({\"error\": \"rc %s: %s\" % (sys.argv[1], open(sys.argv[2], errors=\"replace\").read(300))}))" "$rc" "$q/err.tmp.$$")
        flock "$q/lock" sh -c "printf \"%s\\n\" \"\$1\" >> \"\$0/results.jsonl\"" "$q" "$st|$set|$inst|$seed|$out"
      done
      rm -f "$q/err.tmp.$$"
      # The queue is done (for `collect`) when every worker is.
      touch "$q/worker$g.done"
      [ "$(find "$q" -name "worker*.done" | wc -l)" -ge "$gpus" ] && touch "$q/done"' "$q" "$bin" "$g" "$gpus" > "$q/worker$g.log" 2>&1 < /dev/null &
  done
  echo "started: $(wc -l < "$q/jobs.all") runs on $gpus GPU(s), cores ${cores[*]:0:$gpus}; results in $q/results.jsonl"
  ;;
summary)
  python3 - "${2:-$q/results.jsonl}" <<'PY'
import json, sys, collections
rows = collections.defaultdict(list)
errors = 0
records = []
for line in open(sys.argv[1], errors="replace"):
    try:
        st, setting, inst, seed, js = line.rstrip("\n").split("|", 4)
        r = json.loads(js)
    except ValueError:
        errors += 1
        print(f"error: unreadable line: {line[:120]!r}")
        continue
    records.append((st, setting, inst, seed, r))
# An instance without a best-known value: the gap to the lowest cost its study's runs found.
lowest = {}
for st, setting, inst, seed, r in records:
    if r.get("best_known") is None and isinstance(r.get("cost"), int):
        lowest[(st, inst)] = min(lowest.get((st, inst), r["cost"]), r["cost"])
for st, setting, inst, seed, r in records:
    if r.get("gap_percent") is None and r.get("best_known") == 0 and r.get("cost") == 0:
        r["gap_percent"] = 0.0  # a best-known value of 0 reached (esc16f): no gap to divide
    if r.get("best_known") is None and (st, inst) in lowest and lowest[(st, inst)] > 0:
        r["best_known"] = lowest[(st, inst)]
        r["gap_percent"] = 100.0 * (r["cost"] - r["best_known"]) / r["best_known"]
        inst = inst.rsplit("/", 1)[-1] + " (to the lowest found)"
    if "error" in r or r.get("gap_percent") is None:
        errors += 1
        print(f"error: {st} {setting} {inst} seed {seed}: {r.get('error', 'no gap')}")
        continue
    rows[(st, setting, inst)].append(r)
mean = lambda xs: sum(xs) / len(xs)
for st in ["long60", "taia10", "tune10", "c256", "all1"]:
    keys = [k for k in rows if k[0] == st]
    if not keys:
        continue
    print(f"\n## {st}\n\n| setting | instance | runs | mean gap % | max gap % | at best known | mean time s |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(keys, key=lambda k: (k[1], int(''.join(c for c in k[2] if c.isdigit()) or 0), k[2])):
        rs = rows[k]
        g = [r["gap_percent"] for r in rs]
        hit = sum(1 for r in rs if r["cost"] <= r["best_known"])
        print(f"| {k[1]} | {k[2]} | {len(rs)} | {mean(g):.4f} | {max(g):.4f} | {hit} | {mean([r['elapsed_s'] for r in rs]):.2f} |")
    by_set = collections.defaultdict(list)
    for k in keys:
        by_set[k[1]].append(mean([r["gap_percent"] for r in rows[k]]))
    for s, v in sorted(by_set.items()):
        print(f"\n{st}, {s}: mean over {len(v)} instances of their mean gap: {mean(v):.4f} %")
print(f"\nerrors: {errors}")
PY
  ;;
*) fail "usage: scripts/bench-taia.sh start | summary [RESULTS]" ;;
esac
