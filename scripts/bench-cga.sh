#!/usr/bin/env bash
# The cellular GA's benchmarks (seeds 002/004) on a GPU machine, from the repository root,
# after `cargo xtask dist` with QAPLIB in dist/qaplib. Rows stream to bench-results/*.log.
#   scripts/bench-cga.sh 004       the thesis's tables, 10 runs per cell, and the Wilcoxon tests
#   scripts/bench-cga.sh 004-full  the same with greedy 2-opt run to a local optimum every
#                                  generation (--ls-passes 0) instead of one pass
#   scripts/bench-cga.sh 002       seed 002's cells (4n, 8n, greedy 2-opt, CPU variant)
#   scripts/bench-cga.sh mapping   gene against move mapping: wall time per run, 8n, 3 runs
#   scripts/bench-cga.sh compare   time to the best known, GPU filled (64×64), against the other families
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
out=${OUT:-../bench-results}
mkdir -p "$out"
run() { local tag=$1; shift; timeout "$LIMIT" ./qapgpu bench "$@" --out "$out/$tag" 2>&1 | tee "$out/$tag.log" | grep -v '^$' | tail -n +1 >/dev/null; cat "$out/$tag/"*.md 2>/dev/null; }
case "${1:-}" in
  004)     LIMIT=${LIMIT:-400} run cga-004 004 --engine gpu --runs 10 ;;
  004-full) LIMIT=${LIMIT:-500} run cga-004-full 004 --engine gpu --runs 10 --cga-ls greedy --ls-passes 0 ;;
  002)     LIMIT=${LIMIT:-200} run cga-002 002 --engine gpu --runs 10 ;;
  mapping) for m in gene move; do
             LIMIT=${LIMIT:-150} run cga-mapping-$m 004 --engine gpu --runs 3 --topologies 8n --no-cpu-variant --ls-mapping $m \
               --instances els19,had20,nug30,tai35b,tai60b,tho40
           done ;;
  compare) LIMIT=${LIMIT:-300} run cga-compare compare --engine gpu --grid 64x64 --runs 10 --time-limit 5 --instances tai35b,tai40b,nug30 ;;
  *) echo "usage: $0 004|004-full|002|mapping|compare"; exit 2 ;;
esac
