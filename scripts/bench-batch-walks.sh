#!/usr/bin/env bash
# Walks an instance in a GPU batch (policy::BATCH_MIN_WALKS): COUNT (default 5000) random
# symmetric n = N (default 30) instances, entries 0..99 (as scripts/bench-batch.py's), written
# as .dat files, then `qapgpu solve-batch --engine gpu --ants W` for W in WALKS (default
# 1 2 4 8 16), LIMIT s an instance (default 1, as bench-batch.py): wall seconds, each
# instance's mean search time, the instances at the limit, the mean cost, and how often each W
# ends above the best of all W on an instance. From the repository root after `cargo xtask dist` (BIN: another binary).
set -u
dir=$(mktemp -d)
python3 - "$dir" "${COUNT:-5000}" "${N:-30}" <<'PY'
import sys, numpy as np
d, count, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(7)
for k in range(count):
    with open(f"{d}/r{n}-{k:05d}.dat", "w") as f:
        f.write(f"{n}\n")
        for _ in range(2):
            m = np.triu(rng.integers(0, 100, (n, n)), 1)
            m = m + m.T
            f.write("\n".join(" ".join(map(str, r)) for r in m) + "\n")
PY
for w in ${WALKS:-1 2 4 8 16}; do
  t0=$(date +%s.%N)
  "${BIN:-dist/qapgpu}" solve-batch "$dir" --engine gpu --ants "$w" --seed 1 --time-limit "${LIMIT:-1}" --json -q > "$dir/w$w.jsonl" 2>/dev/null
  t1=$(date +%s.%N)
  echo "$w $(python3 -c "print($t1 - $t0)")" >> "$dir/times"
done
python3 - "$dir" <<'PY'
import json, sys, glob
d = sys.argv[1]
times = dict(l.split() for l in open(f"{d}/times"))
rows = {w: [json.loads(l) for l in open(f"{d}/w{w}.jsonl")] for w in times}
runs = {w: {j["instance"]: j["cost"] for j in r} for w, r in rows.items()}
searched = {w: sum(j["elapsed_s"] for j in r) / len(r) for w, r in rows.items()}
limited = {w: sum(j["stopped"] == "time limit" for j in r) for w, r in rows.items()}
best = {i: min(r[i] for r in runs.values()) for i in next(iter(runs.values()))}
print("| walks an instance | wall s | mean s searched an instance | at the time limit | mean cost | above the best of all counts |")
print("|---|---|---|---|---|---|")
for w, r in runs.items():
    print(f"| {w} | {float(times[w]):.2f} | {searched[w]:.3f} | {limited[w]} | {sum(r.values()) / len(r):.1f} | {sum(r[i] > best[i] for i in r)} of {len(r)} |")
PY
rm -rf "$dir"
