#!/usr/bin/env bash
# Breakout local search (Benlic & Hao 2013; scripts/reference/bls.c), a leading CPU method on
# tai*a, run for LIMIT wall-clock seconds a run, one thread a run, JOBS runs at once (default:
# the number of cores), so that it can be set beside qapgpu's runs on the same machine. From
# the repository root:
#   scripts/reference-bls.sh [RUNS] [INSTANCES...]     (defaults: 16 runs; tai40a … tai100a)
#   LIMIT=60 GROUP=16 scripts/reference-bls.sh 64 tai80a
# RUNS is the first argument (a whole number from 1); the runs are seeds 1 … RUNS. A run
# stops at LIMIT (10) s or at the best-known value. GROUP (1) also gives the mean over groups
# of GROUP consecutive seeds of each group's best: GROUP = 16 with JOBS = 16 is "16 BLS runs on
# 16 cores", the way scripts/bench-cpu-rots.sh sets Ro-TS against qapgpu's CPU engine. QAPLIB
# files from $QAPLIB_DIR where it is set, else ../shared/qaplib, else data/qaplib; best-known
# values from its bks.csv. REF_BLS_BIN: a binary built elsewhere (gcc -O3 -static), for a
# machine without a compiler. RAW=FILE keeps each run's line ("instance seed hit|miss
# seconds-to-best seconds moves cost", or "instance seed failed STATUS: message"). Prints a row
# an instance: runs at the best-known value, mean seconds to each run's best, the mean, lowest
# and highest gap %, and the mean of the whole groups' bests; exits 1 where a run failed.
set -u
. scripts/reference/lib.sh
runs=${1:-16}
whole "RUNS (the first argument)" "$runs"
shift || true
instances=${*:-tai40a tai50a tai60a tai80a tai100a}
limit=${LIMIT:-10}
positive LIMIT "$limit"
group=${GROUP:-1}
whole GROUP "$group"
qaplib_dir
jobs_of
best() { awk -F, -v i="$1" '$1 == i { print $3 }' "$dir/bks.csv" data/qaplib/bks.csv 2>/dev/null | head -1; }
for inst in $instances; do
  [ -f "$dir/$inst.dat" ] || fail "$inst: no $dir/$inst.dat (set QAPLIB_DIR to the folder of the whole QAPLIB)"
  [ -n "$(best "$inst")" ] || fail "$inst: no best-known value in $dir/bks.csv or data/qaplib/bks.csv"
done
if [ -n "${REF_BLS_BIN:-}" ]; then
  bin=$REF_BLS_BIN
  [ -x "$bin" ] || fail "REF_BLS_BIN = '$bin': not an executable file"
else
  build bls -lm
fi
lines=$(for inst in $instances; do
  t=$(best "$inst")
  for s in $(seq 1 "$runs"); do echo "$inst $s $dir/$inst.dat $t $s $limit"; done
done)
# Every (instance, seed) run in one pool of JOBS; each line: instance seed and bls's output,
# or "failed" and its exit status and message.
results=$(echo "$lines" | xargs -P "$jobs" -L1 bash -c 'out=$("'"$bin"'" "$2" "$3" "$4" "$5" 2>&1) && echo "$0 $1 $out" || echo "$0 $1 failed $?: $out"')
[ -z "${RAW:-}" ] || echo "$results" > "$RAW"
failed=$(grep -c ' failed ' <<<"$results")
[ "$failed" -eq 0 ] || { grep ' failed ' <<<"$results" | head -3 >&2; echo "$(basename "$0"): $failed run(s) failed" >&2; }
printf "%-8s %-8s %-12s %-10s %-10s %-10s %s\n" instance "at best" "to best (s)" "mean %" "lowest %" "highest %" "best of $group, mean %"
status=$((failed > 0))
for inst in $instances; do
  # Only whole groups of GROUP runs count in the last column ("-" where there is none).
  row=$(echo "$results" | awk -v i="$inst" -v t="$(best "$inst")" -v g="$group" '
    $1 == i && NF == 7 && ($3 == "hit" || $3 == "miss") {
      k++; e = ($7 - t) * 100 / t; s += e; tb += $4; h += ($3 == "hit")
      if (k == 1 || e < lo) lo = e
      if (k == 1 || e > hi) hi = e
      grp = int(($2 - 1) / g); size[grp]++; if (!(grp in gb) || e < gb[grp]) gb[grp] = e
    }
    END {
      if (!k) exit
      for (x in gb) if (size[x] == g) { gs += gb[x]; gn++ }
      printf "%-8s %2d/%-5d %-12.2f %-10.3f %-10.3f %-10.3f %s\n", i, h, k, tb / k, s / k, lo, hi, gn ? sprintf("%.3f (%d groups)", gs / gn, gn) : "-"
    }')
  if [ -n "$row" ]; then echo "$row"; else echo "$inst: no run finished" >&2; status=1; fi
  done_runs=$(awk -v i="$inst" '$1 == i && ($3 == "hit" || $3 == "miss")' <<<"$results" | wc -l)
  [ "$done_runs" -eq "$runs" ] || status=1
done
exit $status
