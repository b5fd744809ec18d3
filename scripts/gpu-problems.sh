#!/usr/bin/env bash
# Other problems posed as QAPs on a GPU machine, from the repository root, after `cargo xtask
# dist`: the README's commands on the GPU engine, compute-sanitizer over the local search
# that stops at a proven answer, then `bench problems` (GPU and the host's CPU cores).
#   scripts/gpu-problems.sh readme | sanitize | bench
set -u
cd dist
out=${OUT:-../bench-results}
mkdir -p "$out"
ex=../examples/problems
show() { grep -E "^(algorithm|cost|target|elapsed|answer|tour_length|arrangement_length|clique_size|cut|squares_toured|pieces_placed) " || true; }
case "${1:-}" in
  readme)
    for args in "tsp $ex/grid24.tsp --known 240" "lap $ex/cycle12.txt --known 22" "clique $ex/planted40.clq --time-limit 5" \
                "gpp --k 3 $ex/rings18.txt --known 3" "knight --k 8" "queens --k 16" "rooks --k 8" "bishops --k 8"; do
      echo "== solve --problem $args"
      timeout 120 ./qapgpu solve --engine gpu --seed 1 --quiet --problem $args | show
    done ;;
  sanitize)
    for tool in memcheck racecheck; do
      for args in "queens --k 8" "knight --k 6" "clique $ex/planted40.clq --k 10"; do
        echo "== $tool $args"
        timeout 120 compute-sanitizer --tool $tool --print-limit 5 ./qapgpu solve --engine gpu --seed 2 --quiet --problem $args 2>&1 \
          | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|^answer" | head -4
      done
    done ;;
  bench)
    timeout "${BENCH_LIMIT:-560}" ./qapgpu bench problems --engine gpu --algos "${BENCH_ALGOS:-aco-ts}" --runs "${BENCH_RUNS:-10}" \
      --time-limit "${RUN_SECONDS:-10}" --out "$out/problems" >/dev/null 2>"$out/problems.log"
    cat "$out/problems/problems.md" 2>/dev/null || tail -3 "$out/problems.log" ;;
  *) echo "usage: $0 readme|sanitize|bench"; exit 2 ;;
esac
