"""scipy.optimize.quadratic_assignment against qapgpu.quadratic_assignment on the same
instances and machine: cost reached and wall time (scipy: one FAQ start, one 2-opt start,
and FAQ restarted with new random starts for 10 s; qapgpu: the default call with a 1 s
limit and the best-known value as its target). Run from the repository root with the
package installed: python3 scripts/bench-python.py [QAPLIB_DIR]."""
import os
import sys
import time

import numpy as np
import qapgpu
from scipy.optimize import quadratic_assignment as scipy_qap

qaplib = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("QAPLIB_DIR", "../shared/qaplib")
bks = {l.split(",")[0]: int(l.split(",")[2]) for l in open(os.path.join(qaplib, "bks.csv")).read().splitlines()[1:] if l.count(",") >= 2}


def gap(c, k):
    return 100.0 * (c - k) / k


print("| instance | best known | scipy FAQ (gap %, s) | scipy 2-opt (gap %, s) | scipy FAQ restarts 10 s (gap %) | qapgpu (gap %, s, engine) |")
print("|---|---|---|---|---|---|")
for name in ["nug30", "tai40b", "tai40a", "tai60a", "tai60b"]:
    A, B = qapgpu.read_qaplib(os.path.join(qaplib, name + ".dat"))
    k = bks[name]
    t = time.perf_counter(); f = scipy_qap(A, B, method="faq", options={"rng": np.random.default_rng(0)}); tf = time.perf_counter() - t
    t = time.perf_counter(); o = scipy_qap(A, B, method="2opt", options={"rng": np.random.default_rng(0)}); to = time.perf_counter() - t
    best, end, r = np.inf, time.perf_counter() + 10, np.random.default_rng(1)
    while time.perf_counter() < end:
        best = min(best, scipy_qap(A, B, method="faq", options={"rng": r, "P0": "randomized"}).fun)
    t = time.perf_counter(); q = qapgpu.quadratic_assignment(A, B, options={"time_limit": 1.0, "target": k, "rng": 1}); tq = time.perf_counter() - t
    print(f"| {name} | {k} | {gap(f.fun, k):.3f}, {tf:.3f} | {gap(o.fun, k):.3f}, {to:.3f} | {gap(best, k):.3f} | {gap(q.fun, k):.3f}, {tq:.3f}, {q.engine} |", flush=True)

# Per-call cost in one session: the first call opens the GPU, later ones reuse it.
A = np.random.default_rng(0).integers(0, 100, (20, 20))
for i in range(4):
    t = time.perf_counter()
    r = qapgpu.quadratic_assignment(A, A.T, options={"time_limit": 0.05, "rng": i})
    print(f"call {i}: {time.perf_counter() - t:.3f} s wall for a 0.05 s solve, engine {r.engine}")

# partial_match (scipy's seeded matching): the first five facilities pinned to locations 0..4.
print()
print("| instance, 5 pairs pinned | scipy FAQ (cost, s) | scipy 2-opt (cost, s) | qapgpu 1 s (cost, s, engine) |")
print("|---|---|---|---|")
pm = np.array([[i, i] for i in range(5)])
for name in ["nug30", "tai40b", "tai60a"]:
    A, B = qapgpu.read_qaplib(os.path.join(qaplib, name + ".dat"))
    t = time.perf_counter(); f = scipy_qap(A, B, method="faq", options={"rng": np.random.default_rng(0), "partial_match": pm}); tf = time.perf_counter() - t
    t = time.perf_counter(); o = scipy_qap(A, B, method="2opt", options={"rng": np.random.default_rng(0), "partial_match": pm}); to = time.perf_counter() - t
    t = time.perf_counter(); q = qapgpu.quadratic_assignment(A, B, options={"time_limit": 1.0, "rng": 1, "partial_match": pm}); tq = time.perf_counter() - t
    assert (q.col_ind[pm[:, 0]] == pm[:, 1]).all()
    print(f"| {name} | {int(f.fun)}, {tf:.3f} | {int(o.fun)}, {to:.3f} | {int(q.fun)}, {tq:.3f}, {q.engine} |", flush=True)
