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
# seconds-to-best seconds moves cost"). Prints a row an instance: runs at the best-known value,
# mean seconds to each run's best, the mean, lowest and highest gap %, and the groups' mean.
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
  build_dir=$(mktemp -d)
  trap 'rm -rf "$build_dir"' EXIT
  bin=$build_dir/bls
  gcc -O3 -o "$bin" scripts/reference/bls.c -lm || fail "scripts/reference/bls.c did not build"
fi
lines=$(for inst in $instances; do
  t=$(best "$inst")
  for s in $(seq 1 "$runs"); do echo "$inst $s $dir/$inst.dat $t $s $limit"; done
done)
# Every (instance, seed) run in one pool of JOBS; each line: instance seed and bls's output.
results=$(echo "$lines" | xargs -P "$jobs" -L1 bash -c 'echo "$0 $1 $("'"$bin"'" "$2" "$3" "$4" "$5")"')
[ -z "${RAW:-}" ] || echo "$results" > "$RAW"
printf "%-8s %-8s %-12s %-10s %-10s %-10s %s\n" instance "at best" "to best (s)" "mean %" "lowest %" "highest %" "best of $group, mean %"
status=0
for inst in $instances; do
  row=$(echo "$results" | awk -v i="$inst" -v t="$(best "$inst")" -v g="$group" '
    $1 == i && NF == 7 {
      k++; e = ($7 - t) * 100 / t; s += e; tb += $4; h += ($3 == "hit")
      if (k == 1 || e < lo) lo = e
      if (k == 1 || e > hi) hi = e
      grp = int(($2 - 1) / g); if (!(grp in gb) || e < gb[grp]) gb[grp] = e
    }
    END {
      if (!k) exit
      for (x in gb) { gs += gb[x]; gn++ }
      printf "%-8s %2d/%-5d %-12.2f %-10.3f %-10.3f %-10.3f %.3f (%d groups)\n", i, h, k, tb / k, s / k, lo, hi, gs / gn, gn
    }')
  if [ -n "$row" ]; then echo "$row"; else echo "$inst: no run finished" >&2; status=1; fi
done
exit $status
