#!/usr/bin/env bash
# Seed 003's Table 5 (cAS + tabu search for IT_TOTAL = 50000n tabu iterations, or the
# optimum) run by an independent C implementation (scripts/reference/tsutsui_aco.c), beside
# the paper's: is a weaker cell of ours the algorithm's or our implementation's? From the
# repository root:
#   scripts/reference-aco.sh [RUNS] [INSTANCES...]    (defaults: 10 runs, Table 5's ten)
#   LS=2opt LIMIT=S scripts/reference-aco.sh ...      Table 6's 2-opt rows: to the acceptable
#                                                     cost (1 % for tai*a, the optimum for tai*b,
#                                                     0.2 % for tai150b), S CPU seconds a run
# RUNS is the first argument (a whole number from 1). One thread a run, as many runs at once
# as there are cores (JOBS overrides). QAPLIB files from $QAPLIB_DIR where it is set, else
# ../shared/qaplib, else data/qaplib. The instances are Table 5's: Table 4's settings by
# class, (i) for tai*a (m = n, gamma 0.4, IT_TS = 16n), (iv) for tai*b (m = 4n, gamma 0.5,
# IT_TS = 4n); rho 0.5 and T_list = n for both. Prints one line per instance:
#   instance, runs at the target / runs, mean CPU seconds of all runs and of those at the
#   target, mean cAS iterations of the runs at the target (the random ants' first round
#   counted, as the paper's IT_ACO does), average error % (to the best known).
set -u
. scripts/reference/lib.sh
runs=${1:-10}
whole "RUNS (the first argument)" "$runs"
shift || true
instances=${*:-tai40a tai50a tai60a tai80a tai100a tai50b tai60b tai80b tai100b tai150b}
case ${LS:-ts} in
  ts) ;;
  2opt) positive LIMIT "${LIMIT:-60}" ;;
  *) fail "LS = '$LS': ts or 2opt" ;;
esac
qaplib_dir
jobs_of
for inst in $instances; do
  case $inst in
    tai*a | tai*b) ;;
    *) fail "$inst: Table 4 sets tai*a (class i) and tai*b (class iv) only" ;;
  esac
  [ -f "$dir/$inst.dat" ] || fail "$inst: no $dir/$inst.dat (set QAPLIB_DIR to the folder of the whole QAPLIB)"
done
# REF_ACO_BIN: a binary built elsewhere (gcc -O3 -static), for a machine without a compiler.
if [ -n "${REF_ACO_BIN:-}" ]; then
  bin=$REF_ACO_BIN
  [ -x "$bin" ] || fail "REF_ACO_BIN = '$bin': not an executable file"
else
  build tsutsui_aco
fi
best() { awk -F, -v i="$1" '$1 == i { print $3 }' "$dir/bks.csv" data/qaplib/bks.csv 2>/dev/null | head -1; }
# One line of arguments a run (no trailing blank: xargs -L would join the next line).
runs_of() {
  local inst=$1 file=$dir/$1.dat n target args budget mode=""
  n=$(awk 'NR == 1 { print $1; exit }' "$file")
  target=$(best "$inst")
  [ -n "$target" ] || fail "$inst: no best-known value in $dir/bks.csv or data/qaplib/bks.csv"
  budget=$((50000 * n))
  if [ "${LS:-ts}" = 2opt ]; then
    case $inst in
      tai150b) target=$(awk -v b="$target" 'BEGIN { printf "%d", b * 1.002 }') ;;
      *a) target=$(awk -v b="$target" 'BEGIN { printf "%d", b * 1.01 }') ;;
    esac
    budget=999999999999 mode=" 2opt ${LIMIT:-60}"
  fi
  case $inst in
    *a) args="$n 0.5 0.4 $((16 * n)) $n" ;;
    *) args="$((4 * n)) 0.5 0.5 $((4 * n)) $n" ;;
  esac
  for s in $(seq 1 "$runs"); do echo "$inst $file $target $s $budget $args$mode"; done
}
lines=$(for inst in $instances; do runs_of "$inst" || exit 2; done) || exit 2
# Every (instance, seed) run in one pool of JOBS, in the order given (longest first pays).
results=$(echo "$lines" | xargs -P "$jobs" -L1 bash -c 'echo "$0 $("'"$bin"'" "$@")"')
printf "%-8s %-8s %-10s %-14s %-18s %s\n" instance "at target" "T_avg (s)" "T_avg hits (s)" "cAS iterations" "avg error %"
status=0
for inst in $instances; do
  row=$(echo "$results" | awk -v i="$inst" -v t="$(best "$inst")" '
    $1 == i && NF == 6 { k++; s += $5; e += ($6 - t) * 100 / t }
    $1 == i && $2 == "hit" { h++; c += $3; sh += $5 }
    END { if (k) printf "%-8s %2d/%-5d %-10.2f %-14s %-18s %.3f\n", i, h, k, s / k, h ? sprintf("%.2f", sh / h) : "-", h ? sprintf("%.1f", c / h) : "-", e / k }')
  if [ -n "$row" ]; then echo "$row"; else echo "$inst: no run finished" >&2; status=1; fi
done
exit $status
