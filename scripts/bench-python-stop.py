"""How soon a default `qapgpu.quadratic_assignment` call returns on small instances (issue
39: a call on n <= 30 that reaches its optimum returns within 20 ms on the GPU machine, the
Python session already open, and within 50 ms on the CPU). Every QAPLIB instance of n <= 30
in QAPLIB_DIR (or argv[1]) with a best-known value, one warm-up call, then RUNS (default 5)
calls with default options but the engine; wall time of each call, its gap and why it
stopped. From the repository root with the package installed:
    python3 scripts/bench-python-stop.py [QAPLIB_DIR]"""
import os
import statistics
import sys
import time

import numpy as np
import qapgpu

qaplib = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("QAPLIB_DIR", "../shared/qaplib")
runs = int(os.environ.get("RUNS", "5"))
bks = {}
for line in open(os.path.join(qaplib, "bks.csv")).read().splitlines()[1:]:
    f = line.split(",")
    if len(f) >= 3 and f[2].strip().lstrip("-").isdigit():
        bks[f[0]] = int(f[2])
names = sorted(n[:-4] for n in os.listdir(qaplib) if n.endswith(".dat") and n[:-4] in bks)
engines = os.environ.get("ENGINES", "gpu,cpu").split(",")
print("| instance | n | engine | calls at the optimum | median ms | max ms | stopped |")
print("|---|---|---|---|---|---|---|")
for engine in engines:
    for name in names:
        A, B = qapgpu.read_qaplib(os.path.join(qaplib, name + ".dat"))
        if len(A) > 30:
            continue
        opts = {"engine": engine}
        qapgpu.quadratic_assignment(A, B, options=opts)  # the session's start-up, untimed
        times, hits, why = [], 0, set()
        for r in range(runs):
            t = time.perf_counter()
            res = qapgpu.quadratic_assignment(A, B, options={**opts, "rng": np.random.default_rng(r + 1)})
            times.append(1e3 * (time.perf_counter() - t))
            hits += int(round(res.fun)) == bks[name]
            why.add(res.stopped)
        print(f"| {name} | {len(A)} | {engine} | {hits}/{runs} | {statistics.median(times):.1f} | {max(times):.1f} | {', '.join(sorted(why))} |")
