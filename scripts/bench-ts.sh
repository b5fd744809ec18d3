#!/usr/bin/env bash
# Time to target of the multi-start tabu search (`ts`) against `aco-ts` on the GPU, and of
# `ts` on all the host's CPU cores (the user's alternative without a GPU), over the targets
# of issue 10's table; from the repository root after `cargo xtask dist` with QAPLIB in
# dist/qaplib. 10 runs each, seeds 1..10 (RUNS sets another count; the time to a target is
# close to exponential, so a mean over 10 runs is within about a third of the true one).
#   scripts/bench-ts.sh gpu-opt | gpu-gap | cpu | ttt | gaps | memetic | layout | auto | tail | rates | kernels
# auto: `auto` alone over every target of issue 10's table (its choice and colony per
# instance), 10 runs each.
# memetic: ts, memetic and aco-ts for 1 s on the random class (tai*a, tho40), 5 runs.
# ttt writes one time-to-target plot per instance (bench-results/ttt/ttt-*.svg); gaps runs
# every QAPLIB instance with a best-known value for 1 s with auto and aco-ts.
# tail: tai35b's time to the optimum over 2000 runs (RUNS sets another count) as built (two
# regrouping rounds, no restart cycle) and as before the sixth session (4 rounds, restart
# cycles from 256 moves), as percentiles of the per-run log.
# rates: the walks' move costs a second (0.3 s of `ts`, seed 1) on the instances the padded
# rows were measured on (docs/benchmarks-record.md, "Padded rows"). kernels: every kept
# local-search kernel at work (docs/search.md). BIN names another binary (from dist/) for
# every mode but ttt; OUT another folder for the results.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
out=${OUT:-../bench-results}
mkdir -p "$out"
T=${RUN_SECONDS:-5}
cmp() { local tag=$1; shift; timeout "${BENCH_LIMIT:-560}" "${BIN:-./qapgpu}" bench compare --runs "${RUNS:-10}" --time-limit "$T" --out "$out/$tag" "$@" \
          >/dev/null 2>"$out/$tag.log"; cat "$out/$tag/compare.md" 2>/dev/null || tail -3 "$out/$tag.log"; }
small=tai25b,kra30a,kra30b,tai30b,tai35b,ste36b,tai40b,tai50b,tai60b
case "${1:-}" in
  gpu-opt) cmp ts-opt --engine gpu --algos ts,aco-ts --instances $small,tai80b,tai100b ;;
  gpu-gap) cmp ts-a1 --engine gpu --algos ts,aco-ts --gap 1 --instances tai40a,tai50a,tai60a,tai80a,tai100a
           cmp ts-b006 --engine gpu --algos ts,aco-ts --gap 0.06 --instances tai50b ;;
  ttt)     timeout "${BENCH_LIMIT:-560}" ./qapgpu bench ttt --engine gpu --cpu-baseline --runs "${RUNS:-10}" --time-limit "$T" \
             --instances tai25b,kra30a,kra30b,tai35b,ste36b,tai40b --out "$out/ttt" >/dev/null 2>/tmp/ttt.log
           cat "$out/ttt/ttt.md" 2>/dev/null || tail -3 /tmp/ttt.log ;;
  gaps)    timeout "${BENCH_LIMIT:-560}" "${BIN:-./qapgpu}" bench gaps --engine gpu --runs 1 --time-limit 1 --out "$out/gaps" >/dev/null 2>/tmp/gaps.log
           cat "$out/gaps/gaps.md" 2>/dev/null || tail -3 /tmp/gaps.log ;;
  memetic) timeout "${BENCH_LIMIT:-500}" ./qapgpu bench gaps --engine gpu --runs 5 --time-limit 1 --algos ts,memetic,aco-ts \
             --instances tai40a,tai50a,tai60a,tai80a,tai100a,tho40 --out "$out/memetic" >/dev/null 2>/tmp/memetic.log
           cat "$out/memetic/gaps.md" 2>/dev/null || tail -3 /tmp/memetic.log ;;
  auto)    cmp auto-opt --engine gpu --algos auto --instances $small,tai80b,tai100b
           cmp auto-a1 --engine gpu --algos auto --gap 1 --instances tai40a,tai50a,tai60a,tai80a,tai100a
           cmp auto-b006 --engine gpu --algos auto --gap 0.06 --instances tai50b
           RUNS=${RUNS_TAI150B:-10} T=12 cmp auto-b150 --engine gpu --algos auto --gap 0.2 --instances tai150b ;;
  layout)  for i in tai25b tai40a tai60b tai100b tai150b; do ./qapgpu solve $i --algo ts --engine gpu --seed 1 --time-limit 1 --quiet | grep -E "^(instance|layout)"; done ;;
  cpu)     cmp ts-cpu --engine cpu --algos ts --instances tai25b,kra30a,kra30b,tai30b,tai35b,ste36b,tai40b
           cmp ts-cpu-a1 --engine cpu --algos ts --gap 1 --instances tai40a,tai50a,tai60a ;;
  tail)    for tag in default four-rounds; do
             x=(); [ $tag = four-rounds ] && x=(--regroup-rounds 4 --restart-cycle 256)
             RUNS=${RUNS:-2000} cmp tail-$tag --engine gpu --algos ts --instances tai35b "${x[@]}"
             python3 - "$out/tail-$tag/compare-runs.csv" <<'PY'
import csv, sys
t = sorted(float(r["time to target (s)"]) * 1e3 for r in csv.DictReader(open(sys.argv[1])) if r["time to target (s)"])
n = len(t)
q = lambda p: t[min(n - 1, int(p * n))]
print(f"runs {n}: p50 {q(.5):.3f} p90 {q(.9):.3f} p99 {q(.99):.3f} p99.9 {q(.999):.3f} max {t[-1]:.3f} ms; over 1 ms {sum(x > 1 for x in t)}, over 2 ms {sum(x > 2 for x in t)}, over 5 ms {sum(x > 5 for x in t)}")
PY
           done ;;
  rates)   for i in tai80a tai80b esc64a tai100a tai100b tai60a tai50a tai40a tai40b ste36b tai35b tai25b; do
             "${BIN:-./qapgpu}" solve $i --engine gpu --seed 1 --algo ts --target 0 --time-limit 0.3 --json -q \
               | python3 -c "import json, sys; d = json.load(sys.stdin); print('$i', '%.4e' % (d['move_evaluations'] / d['local_search_s']))"
           done ;;
  kernels) # Every kept local-search kernel at work (docs/search.md): move costs a second of
           # 0.3 s (seed 1), one line a body, role and instance; BIN names another binary.
           while read -r tag inst args; do
             "${BIN:-./qapgpu}" solve "$inst" --engine gpu --seed 1 --target 0 --time-limit 0.3 --json -q $args \
               | python3 -c "import json, sys; d = json.load(sys.stdin); print('$tag $inst', '%.4e' % (d['move_evaluations'] / d['local_search_s']))"
           done <<'ROWS'
walk-fast-rows-n tai35b --algo ts --layout sums
walk-fast-rows-n+1 tai80b --algo ts --layout sums
walk-fast-rows-n+1 esc64a --algo ts --layout sums
walk-fast-narrow tai100a --algo ts --layout sums
walk-sums tai150b --algo ts --layout sums
walk-split tai35b --algo ts --layout split
walk-mata tai35b --algo ts --layout mata
search-fast-rows-n tai35b --algo aco-ts --layout sums
search-fast-rows-n+1 tai80b --algo aco-ts --layout sums
search-fast-narrow tai100a --algo aco-ts --layout sums
search-fast-narrow-global-pairs tai150b --algo aco-ts --layout sums
search-sums tai35b --algo aco-2opt --layout sums
search-split tai35b --algo aco-ts --layout split
search-mata tai35b --algo aco-ts --layout mata
ROWS
           ;;
  *) echo "usage: $0 gpu-opt|gpu-gap|cpu|ttt|gaps|memetic|layout|auto|tail|rates|kernels"; exit 2 ;;
esac
