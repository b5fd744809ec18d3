#!/usr/bin/env bash
# Seed 003's Table 5 (cAS + tabu search for IT_TOTAL = 50000n tabu iterations, or the
# optimum) run by an independent C implementation (scripts/reference/tsutsui_aco.c), beside
# the paper's: is a weaker cell of ours the algorithm's or our implementation's? From the
# repository root:
#   scripts/reference-aco.sh [RUNS] [INSTANCES...]    (defaults: 10 runs, Table 5's ten)
#   LS=2opt LIMIT=S scripts/reference-aco.sh ...      Table 6's 2-opt rows: to the acceptable
#                                                     cost (1 % for tai*a, the optimum for tai*b,
#                                                     0.2 % for tai150b), S CPU seconds a run
# One thread a run, as many runs at once as there are cores (JOBS overrides). QAPLIB files
# from $QAPLIB_DIR, else ../shared/qaplib, else data/qaplib. Table 4's settings: class (i)
# (tai*a) m = n, gamma 0.4, IT_TS = 16n; class (iv) (tai*b) m = 4n, gamma 0.5, IT_TS = 4n;
# rho 0.5 and T_list = n for both. Prints one line per instance:
#   instance, runs at the target, mean CPU seconds of all runs and of those at the target,
#   mean colony iterations (of the runs at the target), average error % (to the best known).
set -u
runs=${1:-10}
shift || true
instances=${*:-tai40a tai50a tai60a tai80a tai100a tai50b tai60b tai80b tai100b tai150b}
dir=${QAPLIB_DIR:-../shared/qaplib}
[ -d "$dir" ] || dir=data/qaplib
# REF_ACO_BIN: a binary built elsewhere (gcc -O3 -static), for a machine without a compiler.
bin=${REF_ACO_BIN:-}
if [ -z "$bin" ]; then
  bin=$(mktemp -d)/tsutsui_aco
  gcc -O3 -o "$bin" scripts/reference/tsutsui_aco.c || exit 1
fi
jobs=${JOBS:-$(nproc)}
best() { awk -F, -v i="$1" '$1 == i { print $3 }' "$dir/bks.csv" data/qaplib/bks.csv 2>/dev/null | head -1; }
# Every (instance, seed) run in one pool of JOBS, in the order given (longest first pays).
runs_of() {
  local inst=$1 file=$dir/$1.dat n target args
  [ -f "$file" ] || { echo "$inst: no file" >&2; return; }
  n=$(awk 'NR == 1 { print $1; exit }' "$file")
  target=$(best "$inst")
  local budget=$((50000 * n)) tail=""
  if [ "${LS:-ts}" = 2opt ]; then
    case $inst in
      tai150b) target=$(awk -v b="$target" 'BEGIN { printf "%d", b * 1.002 }') ;;
      *a) target=$(awk -v b="$target" 'BEGIN { printf "%d", b * 1.01 }') ;;
    esac
    budget=999999999999 tail="2opt ${LIMIT:-60}"
  fi
  case $inst in
    *a) args="$n 0.5 0.4 $((16 * n)) $n" ;;
    *) args="$((4 * n)) 0.5 0.5 $((4 * n)) $n" ;;
  esac
  for s in $(seq 1 "$runs"); do echo "$inst $file $target $s $budget $args $tail"; done
}
results=$(for inst in $instances; do runs_of "$inst"; done |
  xargs -P "$jobs" -L1 bash -c 'echo "$0 $("'"$bin"'" "$@")"')
printf "%-8s %-8s %-10s %-14s %-18s %s\n" instance target "T_avg (s)" "T_avg hits (s)" "colony iterations" "avg error %"
for inst in $instances; do
  echo "$results" | awk -v i="$inst" -v t="$(best "$inst")" '
    $1 == i { k++; s += $5; e += ($6 - t) * 100 / t }
    $1 == i && $2 == "hit" { h++; c += $3; sh += $5 }
    END { if (k) printf "%-8s %2d/%-5d %-10.2f %-14s %-18s %.3f\n", i, h, k, s / k, h ? sprintf("%.2f", sh / h) : "-", h ? sprintf("%.1f", c / h) : "-", e / k }'
done
