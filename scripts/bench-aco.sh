#!/usr/bin/env bash
# Seed 003's tables on a GPU machine (from the repository root, after `cargo xtask dist` with
# QAPLIB in dist/qaplib). Each phase streams its rows to bench-results/*.log.
#   scripts/bench-aco.sh t6-mata    Table 6, tabu search, MATA, 10 runs
#   scripts/bench-aco.sh t6-plain   Table 6, tabu search, non-MATA, 3 runs
#   scripts/bench-aco.sh t6-2opt    Table 6, 2-opt, MATA, 3 runs (2-opt on tai80a/tai100a takes minutes)
#   scripts/bench-aco.sh t5         Table 5, tabu search, MATA and non-MATA, 3 runs
#   scripts/bench-aco.sh t5-b       Table 5, class (iv) n ≥ 80, MATA only, 3 runs
#   scripts/bench-aco.sh t5-mata    Table 5, every instance, MATA only, 5 runs
#   scripts/bench-aco.sh plain150   Table 6, tai150b non-MATA, 1 run capped at 30 s (move evaluations/s)
#   scripts/bench-aco.sh cpu        Table 6, tabu search, CPU twin on all cores, 3 runs
#   scripts/bench-aco.sh ncu        ncu: threads per executed instruction, MATA vs plain
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
mkdir -p ../bench-results
run() { local tag=$1; shift; timeout "$LIMIT" ./qapgpu bench "$@" --out ../bench-results/$tag 2>&1 | tee ../bench-results/$tag.log | grep -v '^$'; }
case "${1:-}" in
  t6-mata)  LIMIT=${LIMIT:-400} run t6-mata 003-target --engine gpu --layouts mata --runs 10 --time-limit 60 ;;
  t6-plain) LIMIT=${LIMIT:-300} run t6-plain 003-target --engine gpu --layouts plain --runs 3 --time-limit 60 ;;
  t6-2opt)  LIMIT=${LIMIT:-300} run t6-2opt 003-target --engine gpu --layouts mata --ls 2opt --runs 3 --time-limit 30 \
              --instances tai40a,tai50a,tai60a,tai50b,tai60b,tai80b,tai100b,tai150b ;;
  t5)       LIMIT=${LIMIT:-400} run t5 003-fixed --engine gpu --layouts mata,plain --runs 3 --time-limit 120 ;;
  t5-b)     LIMIT=${LIMIT:-200} run t5-b 003-fixed --engine gpu --layouts mata --runs 3 --time-limit 120 --instances tai80b,tai100b,tai150b ;;
  t5-mata)  LIMIT=${LIMIT:-300} run t5-mata 003-fixed --engine gpu --layouts mata --runs 5 --time-limit 120 ;;
  plain150) LIMIT=${LIMIT:-100} run plain150 003-target --engine gpu --layouts plain --runs 1 --time-limit 30 --instances tai150b ;;
  cpu)      LIMIT=${LIMIT:-400} run cpu 003-target --engine cpu --runs 3 --time-limit 40 \
              --instances tai40a,tai50a,tai60a,tai80a,tai100a,tai50b,tai60b,tai80b ;;
  ncu)      # warp efficiency of the local-search kernel, MATA against plain (one launch each, tai100a)
            for layout in mata plain; do
              echo "== ncu $layout"
              timeout 150 ncu --kernel-name regex:aco_local_search --launch-count 1 --metrics \
                smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed \
                ./qapgpu tai100a --engine gpu --algo aco-ts --layout $layout --max-ls-iterations 1 --target 0 --quiet --seed 1 2>&1 \
                | grep -E "smsp__|gpu__|sm__" ; done ;;
  *) echo "usage: $0 t6-mata|t6-plain|t6-2opt|t5|t5-b|t5-mata|plain150|cpu|ncu"; exit 2 ;;
esac
