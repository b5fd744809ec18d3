"""Many QAPs at once (issue 39, item 5): qapgpu's batch call against scipy's FAQ run in a
loop over every core, on thousands of small instances.

Sets of instances (``--modes``):

- ``random``: ``--count`` instances of n = 30 (default 10,000), A and B each with uniform
  integer entries 0..99, symmetric, zero diagonal; minimised.
- ``mixed``: ``--mixed-count`` such instances with n drawn uniformly from 20..50.
- ``graph``: graph matching, ``--graph-count`` pairs for each noise level σ in
  ``--sigmas`` (default 0.02, 0.05, 0.1): A an Erdős–Rényi graph (n from 30..50, edge
  probability ``--p``, default 0.3), B the same graph relabelled by a random permutation with
  each vertex pair's edge flipped with probability σ. Solved as scipy solves graph matching:
  maximise ``sum(A * B[col][:, col])`` with the adjacency matrices. The planted permutation is
  known: ``B[perm][:, perm]`` is A before the noise, so ``col_ind == perm`` recovers it.

Solvers, on the same instances and machine:

- ``faq``: ``scipy.optimize.quadratic_assignment(method="faq")`` (one barycenter start, its
  defaults) over every instance, in a ``multiprocessing`` pool of one process per core
  (``--workers``; BLAS held to one thread a process);
- ``batch-gpu``, ``batch-cpu``: one ``qapgpu.quadratic_assignment_batch`` call over every
  instance (``--engines``; ``gpu`` is skipped, saying why, where no GPU is usable);
- ``single-gpu``, ``single-cpu``: one ``qapgpu.quadratic_assignment`` call per instance,
  timed on the first ``--single-sample`` instances only and its wall time extrapolated to
  the whole set (the table says so).

Reported per set and solver: wall time, the mean over instances of the cost ratio
qapgpu / FAQ (below 1 is better when minimising, above 1 when maximising), how many of the
first ``--sample`` instances (default 200) qapgpu answers worse than FAQ (and how many of
all), and for graph matching the planted-matching recovery rate (the share of instances
whose answer is the planted permutation) and the mean node accuracy (the share of vertices
mapped as planted), for FAQ and qapgpu alike. Every qapgpu call gets ``--time-limit``
seconds per instance and the ``converged`` stop rule (``--stop``). A first tiny call warms
each engine up (CUDA start-up) outside the timings.

Writes ``bench-batch.json`` (configuration, machine, every figure and the per-instance
costs) and ``bench-batch.md`` (the table) into ``--out``, each whole or not at all.

On the GPU machine, with numpy, scipy and the qapgpu wheel installed::

    python3 scripts/bench-batch.py --out bench-results/batch

A quick check on any machine (the CPU engine, a few instances)::

    python3 scripts/bench-batch.py --count 40 --mixed-count 20 --graph-count 10 \\
        --single-sample 4 --engines cpu --time-limit 0.5 --out /tmp/bench-batch
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

#: Environment variables that hold numpy's BLAS to one thread in each FAQ process.
BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def say(line):
    print(line, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Instances


def symmetric_uniform(rng, n, high=100):
    """Uniform integers 0..high-1, symmetric, zero diagonal."""
    M = rng.integers(0, high, (n, n))
    M = np.triu(M, 1)
    return M + M.T


def random_set(count, sizes, seed):
    """``count`` minimisation instances, n drawn from ``sizes`` (a tuple low, high inclusive)."""
    rng = np.random.default_rng(seed)
    insts = []
    for _ in range(count):
        n = int(rng.integers(sizes[0], sizes[1] + 1))
        insts.append((symmetric_uniform(rng, n), symmetric_uniform(rng, n)))
    return insts


def er_graph(rng, n, p):
    upper = np.triu(rng.random((n, n)) < p, 1)
    return (upper | upper.T).astype(np.int64)


def graph_set(count, sizes, p, sigma, seed):
    """``count`` graph-matching pairs (A, B) and their planted permutations ``perm``, such
    that ``B[perm][:, perm]`` is A before each vertex pair's edge is flipped with probability
    ``sigma``."""
    rng = np.random.default_rng(seed)
    insts, planted = [], []
    for _ in range(count):
        n = int(rng.integers(sizes[0], sizes[1] + 1))
        A = er_graph(rng, n, p)
        perm = rng.permutation(n)
        B = np.zeros_like(A)
        B[np.ix_(perm, perm)] = A
        flip = np.triu(rng.random((n, n)) < sigma, 1)
        flip = flip | flip.T
        B = np.where(flip, 1 - B, B)
        insts.append((A, B))
        planted.append(perm)
    return insts, planted


def objective(A, B, col):
    return int(np.sum(A * B[np.ix_(col, col)]))


# ---------------------------------------------------------------------------------------------
# Solvers


def _faq_one(job):
    """One FAQ solve in a worker process: (col_ind, fun)."""
    A, B, maximize, seed = job
    from scipy.optimize import quadratic_assignment
    res = quadratic_assignment(A, B, method="faq", options={"maximize": maximize, "rng": np.random.default_rng(seed)})
    return np.asarray(res.col_ind, dtype=np.int64), int(round(res.fun))


def run_faq(insts, maximize, seed, workers):
    """scipy's FAQ on every instance, one process per core: (answers, wall seconds)."""
    saved = {k: os.environ.get(k) for k in BLAS_THREADS}
    os.environ.update({k: "1" for k in BLAS_THREADS})
    try:
        ctx = multiprocessing.get_context("spawn")  # no CUDA state or qapgpu threads forked
        with ctx.Pool(workers) as pool:
            pool.map(_faq_one, [(np.eye(2, dtype=np.int64), np.eye(2, dtype=np.int64), False, 0)] * workers)
            jobs = [(A, B, maximize, seed + k) for k, (A, B) in enumerate(insts)]
            t = time.perf_counter()
            out = pool.map(_faq_one, jobs, chunksize=max(1, len(jobs) // (workers * 8)))
            wall = time.perf_counter() - t
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return out, wall


def qap_options(args, engine, maximize, seed):
    return {"engine": engine, "time_limit": args.time_limit, "stop": args.stop, "maximize": maximize,
            "rng": np.random.default_rng(seed), "threads": args.threads}


def warm_up(qapgpu, engine):
    """A tiny batch and a tiny single call: the engine opened (CUDA start-up) before any timing."""
    A = np.arange(100).reshape(10, 10) % 7
    opts = {"engine": engine, "time_limit": 0.1, "rng": np.random.default_rng(0)}
    qapgpu.quadratic_assignment_batch([A, A], [A.T, A.T], options=opts)
    qapgpu.quadratic_assignment(A, A.T, options=opts)


def run_batch(qapgpu, args, insts, engine, maximize, seed):
    As, Bs = [A for A, _ in insts], [B for _, B in insts]
    t = time.perf_counter()
    res = qapgpu.quadratic_assignment_batch(As, Bs, options=qap_options(args, engine, maximize, seed))
    wall = time.perf_counter() - t
    return [(np.asarray(r.col_ind, dtype=np.int64), int(round(r.fun))) for r in res], wall, res


def run_single(qapgpu, args, insts, engine, maximize, seed):
    """One call per instance on the first ``--single-sample`` instances: their answers, the
    seconds they took, that time extrapolated to all of ``insts``, and the results."""
    sample = insts[:args.single_sample]
    res = []
    t = time.perf_counter()
    for k, (A, B) in enumerate(sample):
        res.append(qapgpu.quadratic_assignment(A, B, options=qap_options(args, engine, maximize, seed + k)))
    wall = time.perf_counter() - t
    out = [(np.asarray(r.col_ind, dtype=np.int64), int(round(r.fun))) for r in res]
    return out, wall, wall / max(1, len(sample)) * len(insts), res


# ---------------------------------------------------------------------------------------------
# Figures


def compare(answers, faq, maximize, sample):
    """Mean cost ratio to FAQ, and how many answers are worse than FAQ's: among the first
    ``sample`` instances and among all those both have."""
    m = min(len(answers), len(faq))
    ratios = [a[1] / f[1] for a, f in zip(answers[:m], faq[:m]) if f[1] != 0]

    def worse(a, f):
        return a[1] < f[1] if maximize else a[1] > f[1]

    flags = [worse(a, f) for a, f in zip(answers[:m], faq[:m])]
    return {"mean_cost_ratio_to_faq": float(np.mean(ratios)) if ratios else None,
            "worse_than_faq_in_sample": int(sum(flags[:sample])), "sample": min(sample, m),
            "worse_than_faq_all": int(sum(flags)), "compared": m}


def recovery(answers, planted):
    m = min(len(answers), len(planted))
    exact = [bool(np.array_equal(a[0], p)) for a, p in zip(answers[:m], planted[:m])]
    acc = [float(np.mean(a[0] == p)) for a, p in zip(answers[:m], planted[:m])]
    return {"recovery_rate": float(np.mean(exact)) if m else None,
            "node_accuracy": float(np.mean(acc)) if m else None}


def stopped(results):
    """How many results stopped for each reason ("converged", "time limit", …)."""
    return {s: sum(r.stopped == s for r in results) for s in sorted({r.stopped for r in results})}


def check_answers(insts, answers, what):
    """Every answer a permutation whose cost is the one reported."""
    for k, ((A, B), (col, fun)) in enumerate(zip(insts, answers)):
        n = A.shape[0]
        if sorted(col.tolist()) != list(range(n)) or objective(A, B, col) != fun:
            raise SystemExit(f"{what}: instance {k}: not a permutation, or its cost is not {fun}")


# ---------------------------------------------------------------------------------------------


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, required=True, help="folder for bench-batch.json and bench-batch.md")
    p.add_argument("--modes", default="random,mixed,graph", help="sets to run: random, mixed, graph (default all)")
    p.add_argument("--count", type=int, default=10_000, help="random n = 30 instances (default 10000)")
    p.add_argument("--mixed-count", type=int, default=2_000, help="random instances of n 20..50 (default 2000)")
    p.add_argument("--graph-count", type=int, default=1_000, help="graph pairs per sigma (default 1000)")
    p.add_argument("--sigmas", default="0.02,0.05,0.1", help="edge-flip probabilities of the graph pairs")
    p.add_argument("--p", type=float, default=0.3, help="Erdős–Rényi edge probability (default 0.3)")
    p.add_argument("--engines", default="gpu,cpu", help="qapgpu engines to run: gpu, cpu (default both)")
    p.add_argument("--time-limit", type=float, default=1.0, help="qapgpu's seconds per instance (default 1)")
    p.add_argument("--stop", default="converged", choices=("converged", "time"), help="qapgpu's stop rule")
    p.add_argument("--threads", type=int, default=0, help="qapgpu's CPU engine threads (0: all cores)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="FAQ processes (default: one per core)")
    p.add_argument("--sample", type=int, default=200, help="instances counted for 'worse than FAQ' (default 200)")
    p.add_argument("--single-sample", type=int, default=50,
                   help="instances solved by single calls, whose time is extrapolated (default 50; 0: none)")
    p.add_argument("--seed", type=int, default=2024, help="seed of the instances and the solvers")
    a = p.parse_args(argv)
    a.modes = [m for m in a.modes.split(",") if m]
    a.engines = [e for e in a.engines.split(",") if e]
    a.sigmas = [float(s) for s in a.sigmas.split(",") if s]
    for m in a.modes:
        if m not in ("random", "mixed", "graph"):
            p.error(f"--modes: unknown set {m!r} (random, mixed, graph)")
    for e in a.engines:
        if e not in ("gpu", "cpu"):
            p.error(f"--engines: unknown engine {e!r} (gpu, cpu)")
    for name in ("count", "mixed_count", "graph_count", "sample", "single_sample"):
        if getattr(a, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be 0 or more")
    if not a.workers >= 1:
        p.error("--workers must be 1 or more")
    if not 0 < a.time_limit <= 1e9:
        p.error("--time-limit must be in (0, 1e9]")
    try:  # fails now, not after an hour of runs
        a.out.mkdir(parents=True, exist_ok=True)
        probe = a.out / f".bench-batch-probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        p.error(f"--out {a.out}: {e}")
    return a


def sets(args):
    """(name, instances, maximize, planted or None, sigma or None) for each set asked for."""
    s = args.seed
    if "random" in args.modes and args.count:
        yield "random n=30", random_set(args.count, (30, 30), s), False, None, None
    if "mixed" in args.modes and args.mixed_count:
        yield "mixed n=20-50", random_set(args.mixed_count, (20, 50), s + 1), False, None, None
    if "graph" in args.modes and args.graph_count:
        for i, sigma in enumerate(args.sigmas):
            insts, planted = graph_set(args.graph_count, (30, 50), args.p, sigma, s + 2 + i)
            yield f"graph sigma={sigma:g}", insts, True, planted, sigma


def write_whole(path, text):
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def markdown(report):
    lines = [f"### Many QAPs at once: qapgpu's batch call against scipy's FAQ on every core",
             "",
             f"{report['machine']['cpus']} CPUs ({report['machine']['processor'] or report['machine']['machine']}), "
             f"{', '.join(g['name'] for g in report['qapgpu']['gpus']) or 'no GPU'}; qapgpu {report['qapgpu']['version']}, "
             f"scipy {report['machine']['scipy']}, numpy {report['machine']['numpy']}. qapgpu: "
             f"{report['config']['time_limit']} s per instance at most, stop rule {report['config']['stop']}. "
             f"FAQ: one barycenter start, {report['config']['workers']} processes. Cost ratio: qapgpu / FAQ, the mean "
             f"over instances (minimised sets: below 1 is better; graph matching maximises: above 1 is better).",
             "",
             "| set | solver | instances | wall s | s per instance | mean cost ratio to FAQ | worse than FAQ "
             "(first N) | worse than FAQ (all) | planted recovered | node accuracy |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for s in report["sets"]:
        for r in s["solvers"]:
            wall = f"{r['wall_s']:.2f}" + (f" (extrapolated from {r['timed']})" if r.get("extrapolated") else "")

            def fmt(v, f="{:.4f}"):
                return "–" if v is None else f.format(v)

            cmp_ = r.get("vs_faq") or {}
            worse_n = f"{cmp_['worse_than_faq_in_sample']} of {cmp_['sample']}" if cmp_ else "–"
            worse_all = f"{cmp_['worse_than_faq_all']} of {cmp_['compared']}" if cmp_ else "–"
            rec = r.get("planted") or {}
            lines.append(f"| {s['name']} | {r['solver']} | {s['instances']} | {wall} | "
                         f"{r['wall_s'] / max(1, s['instances']):.4f} | {fmt(cmp_.get('mean_cost_ratio_to_faq'))} | "
                         f"{worse_n} | {worse_all} | {fmt(rec.get('recovery_rate'), '{:.3f}')} | "
                         f"{fmt(rec.get('node_accuracy'), '{:.3f}')} |")
    notes = [n for s in report["sets"] for n in s.get("notes", [])] + report.get("notes", [])
    if notes:
        lines += [""] + [f"- {n}" for n in dict.fromkeys(notes)]
    return "\n".join(lines) + "\n"


def main(argv=None):
    args = parse(argv)
    import scipy
    import qapgpu

    info = qapgpu.info()
    report = {"config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
              "machine": {"cpus": os.cpu_count(), "machine": platform.machine(), "processor": platform.processor(),
                          "python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__},
              "qapgpu": info, "sets": [], "notes": []}
    engines = []
    for e in args.engines:
        if e == "gpu" and info["engine"] != "gpu":
            report["notes"].append(f"the GPU engine was skipped: {info['reason']}")
            say(f"bench-batch: skipping the GPU engine: {info['reason']}")
            continue
        engines.append(e)
    for e in engines:
        warm_up(qapgpu, e)
    for name, insts, maximize, planted, sigma in sets(args):
        say(f"bench-batch: {name}: {len(insts)} instances")
        entry = {"name": name, "instances": len(insts), "maximize": maximize, "sigma": sigma, "solvers": [],
                 "costs": {}, "notes": []}
        faq, wall = run_faq(insts, maximize, args.seed, args.workers)
        check_answers(insts, faq, f"{name}: faq")
        row = {"solver": f"scipy faq, {args.workers} processes", "wall_s": wall}
        if planted is not None:
            row["planted"] = recovery(faq, planted)
        entry["solvers"].append(row)
        entry["costs"]["faq"] = [f for _, f in faq]
        say(f"  faq: {wall:.2f} s")
        for e in engines:
            answers, wall, res = run_batch(qapgpu, args, insts, e, maximize, args.seed)
            check_answers(insts, answers, f"{name}: batch {e}")
            row = {"solver": f"qapgpu batch, {e}", "wall_s": wall, "vs_faq": compare(answers, faq, maximize, args.sample),
                   "stopped": stopped(res),
                   "device": res[0].device if res else None}
            if planted is not None:
                row["planted"] = recovery(answers, planted)
            entry["solvers"].append(row)
            entry["costs"][f"batch-{e}"] = [f for _, f in answers]
            entry["notes"] += [f"batch {e}: {n}" for n in dict.fromkeys(n for r in res for n in r.notes)]
            say(f"  batch {e}: {wall:.2f} s, ratio to faq {row['vs_faq']['mean_cost_ratio_to_faq']}")
            if args.single_sample:
                answers, timed, wall, res = run_single(qapgpu, args, insts, e, maximize, args.seed)
                check_answers(insts, answers, f"{name}: single {e}")
                row = {"solver": f"qapgpu single calls, {e}", "wall_s": wall, "extrapolated": True,
                       "timed": f"{len(answers)} instances in {timed:.2f} s",
                       "vs_faq": compare(answers, faq, maximize, args.sample), "stopped": stopped(res)}
                if planted is not None:
                    row["planted"] = recovery(answers, planted)
                entry["solvers"].append(row)
                entry["costs"][f"single-{e}"] = [f for _, f in answers]
                say(f"  single {e}: {timed:.2f} s for {len(answers)}, {wall:.2f} s extrapolated")
        report["sets"].append(entry)
    md = markdown(report)
    write_whole(args.out / "bench-batch.json", json.dumps(report, indent=1) + "\n")
    write_whole(args.out / "bench-batch.md", md)
    print(md, end="")


if __name__ == "__main__":
    main()
