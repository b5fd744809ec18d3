#!/usr/bin/env bash
# Data for the `converged` stop rule (policy::CONVERGED_*): convergence traces of `solve`
# under `--stop time` (no target: every run goes to its limit), replayed offline by
# scripts/replay-stop.py against candidate rules. From the repository root after
# `cargo xtask dist`, QAPLIB in dist/qaplib; traces under $OUT (default bench-results/stop).
#   scripts/bench-stop.sh gpu | cpu      (ENGINE's runs: every instance, seeds 1..SEEDS, LIMIT s)
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
out=${OUT:-../bench-results}/stop-${1:-gpu}
mkdir -p "$out"
engine=${1:-gpu}
for f in qaplib/*.dat; do
  i=$(basename "$f" .dat)
  for s in $(seq 1 "${SEEDS:-3}"); do
    "${BIN:-./qapgpu}" solve "$i" --engine "$engine" --seed "$s" --stop time --target -9223372036854775807 \
      --time-limit "${LIMIT:-1}" --json -q --trace "$out/$i-$s.csv" > "$out/$i-$s.json" 2>/dev/null
  done
done
ls "$out" | wc -l
