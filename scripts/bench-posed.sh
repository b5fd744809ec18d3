#!/usr/bin/env bash
# Problems posed as QAPs on real files (issue 41), from the repository root: TSPLIB tours and
# DIMACS clique graphs of at most 256 cities or vertices, listed in data/problems/benchmarks.csv
# and fetched into dist/problems by scripts/fetch-problems.sh.
#   scripts/bench-posed.sh [BIN] [ENGINE]      (defaults: dist/quick/qapgpu, gpu)
# Runs, each to the known optimum or the time limit (per k for cliques):
#   1. every tour and every graph with the polish beside the QAP search (the default);
#   2. the slowest tours again with --polish none (the QAP search with the constructions'
#      starts alone), to see what the polish adds.
set -u
bin=${1:-dist/quick/qapgpu}
engine=${2:-gpu}
out=${OUT:-bench-results}
runs=${RUNS:-1}
secs=${RUN_SECONDS:-10}
mkdir -p "$out"
list=data/problems/benchmarks.csv
for kind in tsp clique; do
  (head -1 $list; grep ",$kind," $list) > "$out/$kind.csv"
  timeout "${BENCH_LIMIT:-280}" "$bin" bench problems --files "$out/$kind.csv" --engine "$engine" --runs "$runs" \
    --time-limit "$secs" --seed 1 --out "$out/posed-$kind" > /dev/null 2> "$out/posed-$kind.log"
  cat "$out/posed-$kind/problems.md" 2>/dev/null || tail -3 "$out/posed-$kind.log"
done
(head -1 $list; grep -E "/(ch130|ch150|kroA200|pr226|brg180|ts225|gr229|ftv170|kro124p|ft70)\." $list) > "$out/slow.csv"
for polish in none ils; do
  timeout "${BENCH_LIMIT:-280}" "$bin" bench problems --files "$out/slow.csv" --engine "$engine" --runs 1 \
    --time-limit "${SLOW_SECONDS:-5}" --seed 1 --polish $polish --out "$out/posed-slow-$polish" > /dev/null 2> "$out/posed-slow-$polish.log"
  echo "== --polish $polish, ${SLOW_SECONDS:-5} s"
  cat "$out/posed-slow-$polish/problems.md" 2>/dev/null || tail -3 "$out/posed-slow-$polish.log"
done
