#!/usr/bin/env bash
# Settings studies of issue 10 (items 6 and 7): one `qapgpu solve` per setting, instance and
# seed, from the repository root after `cargo xtask dist` with QAPLIB in dist/qaplib.
# Prints one line per run: study, setting, instance, seed, then the time to the target
# ("t=…", or "miss") or the final gap.
#   scripts/bench-tune.sh class-iv   aco-ts settings on tai80b/tai100b, time to the optimum
#                                    (tai150b: 0.2 % above; GAP sets another target)
#   scripts/bench-tune.sh table5     seed 003's Table 5 budget (n·50000 tabu moves), tenure
#                                    rule and p_best, final gap
#   scripts/bench-tune.sh gaps       1-s gaps on tai*a for ts and aco-ts settings
#   scripts/bench-tune.sh ts-small   `ts` settings (block shape, walks) on the small targets,
#                                    time to the optimum
#   scripts/bench-tune.sh uniform    aco-ts settings on tai50a, time to 1 % above (GAP)
# SEEDS (default "1 2 3 4 5") and PTX (a PTX file to load instead of the embedded module)
# change every run; EXTRA adds options to every solve; SETTINGS (";"-separated) and
# INSTANCES (space-separated) replace a study's lists; a word "Kn" in a setting is K times the
# instance's n.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
seeds=${SEEDS:-1 2 3 4 5}
ptx=${PTX:+--ptx $PTX}

# one STUDY SETTING INSTANCE SEED TARGET-ARGS... -- SOLVE-ARGS...
one() {
  local study=$1 setting=$2 inst=$3 seed=$4; shift 4
  # a word "Kn" in the settings is K times the instance's n
  local n=${inst//[!0-9]/} args=() w out
  for w in "$@"; do [[ $w =~ ^([0-9]+)n$ ]] && w=$((BASH_REMATCH[1] * n)); args+=("$w"); done
  out=$(./qapgpu solve "$inst" --engine gpu --seed "$seed" $ptx ${EXTRA:-} "${args[@]}" 2>&1)
  local t gap
  t=$(sed -n 's/^target .*reached in \([0-9.]*\) s.*/\1/p' <<<"$out")
  gap=$(sed -n 's/^cost .*(gap \([-0-9.]*\)%.*/\1/p' <<<"$out")
  if [ -n "$t" ]; then t="t=$t"; else t=miss; fi
  echo "$study | $setting | $inst | $seed | $t | gap=$gap"
}

case "${1:-}" in
  class-iv)
    for inst in ${INSTANCES:-tai80b tai100b}; do
      IFS=';' read -ra list <<<"${SETTINGS:-default;--ants 132;--ants 264;--tenure move;--ls-iterations 200;--ls-iterations 800}"
      for setting in "${list[@]}"; do
        for s in $seeds; do
          # shellcheck disable=SC2086
          # seed 003's targets: the optimum, 0.2 % above it for tai150b
          gap=${GAP:-0}; [ "$inst" = tai150b ] && gap=${GAP:-0.2}
          one class-iv "$setting" $inst "$s" --algo aco-ts --target-gap $gap --time-limit ${LIMIT:-10} $( [ "$setting" = default ] || echo "$setting" )
        done
      done
    done ;;
  table5)
    for inst in ${INSTANCES:-tai40a tai50a tai60a tai80a tai100a}; do
      n=${inst//[!0-9]/}
      IFS=';' read -ra list <<<"${SETTINGS:-default;--tenure move;--p-best 0.05}"
      for setting in "${list[@]}"; do
        for s in $seeds; do
          # shellcheck disable=SC2086
          one table5 "$setting" $inst "$s" --algo aco-ts --target-gap 0 --time-limit 60 --max-ls-iterations $((n * 50000)) $( [ "$setting" = default ] || echo "$setting" )
        done
      done
    done ;;
  gaps)
    for inst in ${INSTANCES:-tai50a tai60a tai80a tai100a}; do
      IFS=';' read -ra list <<<"${SETTINGS:-ts;aco-ts;aco-ts --tenure move;ts --tenure move}"
      for setting in "${list[@]}"; do
        for s in $seeds; do
          # shellcheck disable=SC2086
          one gaps "$setting" $inst "$s" --time-limit 1 --algo $setting
        done
      done
    done ;;
  ts-small)
    for inst in ${INSTANCES:-tai25b tai35b}; do
      IFS=';' read -ra list <<<"${SETTINGS:-default;--ns 4;--ns 2;--layout plain;--ants 132}"
      for setting in "${list[@]}"; do
        for s in $seeds; do
          # shellcheck disable=SC2086
          one ts-small "$setting" $inst "$s" --algo ts --target-gap 0 --time-limit ${LIMIT:-5} $( [ "$setting" = default ] || echo "$setting" )
        done
      done
    done ;;
  uniform)
    for inst in ${INSTANCES:-tai50a}; do
      IFS=';' read -ra list <<<"${SETTINGS:-auto;auto --ls-iterations 16n;auto --ls-iterations 64n;auto --ants 1n;ts}"
      for setting in "${list[@]}"; do
        for s in $seeds; do
          # shellcheck disable=SC2086
          one uniform "$setting" $inst "$s" --target-gap ${GAP:-1} --time-limit ${LIMIT:-5} --algo $setting
        done
      done
    done ;;
  *) echo "usage: $0 class-iv|table5|gaps|ts-small|uniform"; exit 2 ;;
esac
