#!/usr/bin/env bash
# The wide path at scale (issue 40), on a GPU machine from the repository root after
# scripts/unpack-dist.sh: random symmetric instances (entries below 30, seeded by n; written
# by scripts/random-dat.py into $OUT/inst) of n = $SIZES, each for $RUN_SECONDS (10) s:
#   * `ts` on the GPU (seed 1), and on all the host's cores (the CPU engine, seed 1);
#   * Taillard's robust tabu search (Ro-TS, didoudiaz/QAP-codes src/rots-qap.c, carried in
#     dist/rots and built here with gcc -O3), 16 runs at once (seeds 1..16) stopped by SIGINT
#     after the same time (SIGKILL 5 s later: a run still building its first Δ table then
#     answers nothing); `-m 2000000000` lifts the code's own stop after 10,000 iterations,
#     which ended runs of n ≤ 300 before the time did (until 2026-11-26);
#   * with EXTRA=path.dat more instances (tai256c: ALGO=auto on the GPU, n ≤ 256).
# BIN names another binary; NO_CPU=1 skips the CPU engine.
# Prints one row an instance: costs, the GPU's moves a second, and its plan's memory.
set -u
cd dist
out=${OUT:-../bench-results/scale}
mkdir -p "$out/inst"
T=${RUN_SECONDS:-10}
SIZES=${SIZES-"300 500 729 1000 2000"}
if [ -d rots ] && [ ! -x rots/rots-qap ]; then
  (cd rots && gcc -O3 -w -o rots-qap rots-qap.c main.c qap-utils.c tools.c -lm) || echo "Ro-TS did not build"
fi
insts=()
for n in $SIZES; do
  f=$out/inst/rand$n.dat
  [ -s "$f" ] || python3 ../scripts/random-dat.py "$n" --symmetric --below 30 --seed "$n" > "$f"
  insts+=("$f")
done
for f in ${EXTRA:-}; do insts+=("$f"); done
for f in "${insts[@]}"; do
  name=$(basename "$f" .dat)
  "${BIN:-./qapgpu}" --engine gpu --algo "${ALGO:-ts}" --stop time --time-limit "$T" --seed 1 --json "$f" > "$out/gpu-$name.json" 2> "$out/gpu-$name.log"
  [ -n "${NO_CPU:-}" ] || "${BIN:-./qapgpu}" --engine cpu --algo "${ALGO:-ts}" --stop time --time-limit "$T" --seed 1 --json "$f" > "$out/cpu-$name.json" 2> "$out/cpu-$name.log"
  if [ -x rots/rots-qap ]; then
    for s in $(seq 1 16); do
      timeout -s INT -k 5 "$T" stdbuf -oL ./rots/rots-qap -s "$s" -m 2000000000 "$f" > "$out/rots-$name-$s.txt" 2>&1 &
    done
    wait
  fi
  python3 - "$out" "$name" <<'PY'
import json, re, sys, glob
out, name = sys.argv[1], sys.argv[2]
def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return None
g, c = load(f"{out}/gpu-{name}.json"), load(f"{out}/cpu-{name}.json")
rots = []
for p in glob.glob(f"{out}/rots-{name}-*.txt"):
    m = re.findall(r"Exec #1 .*cost:\s*(\d+)", open(p).read())
    if m:
        rots.append(int(m[-1]))
best = min(rots) if rots else None
def rate(s):
    return s["iterations"] / s["elapsed_s"] if s and s["elapsed_s"] > 0 else 0
mem = re.search(r"([\d.]+ [KMG]iB) a walk, ([\d.]+ [KMG]iB) in all", g["layout"]) if g else None
row = [name, g and g["n"], g and g["cost"], g and f'{g["elapsed_s"]:.2f}', g and f"{rate(g):.0f}", g and g["blocks"],
       mem and mem.group(1), mem and mem.group(2), c and c["cost"], c and f"{rate(c):.0f}",
       best, f"{len(rots)}/16", g and best and f'{100 * (g["cost"] - best) / best:+.3f} %']
print("| " + " | ".join("—" if v is None else str(v) for v in row) + " |")
PY
done
