"""qapgpu: Quadratic Assignment Problem metaheuristics on NVIDIA GPUs, from Python.

``quadratic_assignment(A, B)`` takes scipy's arguments and returns scipy's result fields,
solved by qapgpu's GPU engine when a GPU is usable and by its CPU engine otherwise::

    import numpy as np, qapgpu
    A = np.random.randint(0, 100, (30, 30)); B = np.random.randint(0, 100, (30, 30))
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 1.0})
    print(res.fun, res.col_ind, res.engine)

The objective and index conventions are scipy's: minimise (or maximise)
``sum(A[i, j] * B[col_ind[i], col_ind[j]])`` over permutations ``col_ind``.
"""
from __future__ import annotations

import numbers

import numpy as np

from . import _native

__all__ = ["quadratic_assignment", "read_qaplib", "solve_file", "gpu_unavailable_reason", "QAPResult", "MAX_N"]

#: Largest n (a permutation entry is one byte on the GPU).
MAX_N = 256
#: Decimal digits kept when float matrices that are not integral are scaled to integers.
DEFAULT_PRECISION = 6

try:  # scipy's result type when scipy is there, a dict with attribute access otherwise
    from scipy.optimize import OptimizeResult as _Base
except ImportError:  # pragma: no cover - scipy is optional
    class _Base(dict):
        __getattr__ = dict.__getitem__


class QAPResult(_Base):
    """The result: scipy's fields ``col_ind``, ``fun``, ``nit``, ``status``, ``success``,
    ``message``, and qapgpu's ``time_to_target`` (s, None when the target was not reached
    or none was given), ``elapsed`` (s), ``engine`` ("gpu" or "cpu"), ``device``,
    ``algorithm``, ``seed``, ``interrupted`` and ``notes`` (why there is no GPU, if so)."""


def gpu_unavailable_reason():
    """None when the GPU engine can run here, else why not."""
    return _native.gpu_unavailable_reason()


def _as_integer_matrix(name, M, precision):
    """The matrix as int64 and the scale applied (1 for integer data)."""
    M = np.asarray(M)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {M.shape}")
    if M.dtype == bool:
        M = M.astype(np.int64)
    if np.issubdtype(M.dtype, np.integer):
        if M.size and (M.max() > np.iinfo(np.int64).max // 2 or M.min() < np.iinfo(np.int64).min // 2):
            raise ValueError(f"{name} has entries too large for 64-bit costs")
        return M.astype(np.int64), 1
    if not np.issubdtype(M.dtype, np.floating):
        raise ValueError(f"{name} must hold numbers (integer or float), got dtype {M.dtype}")
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{name} has NaN or infinite entries")
    if np.all(M == np.round(M)):
        return M.astype(np.int64), 1
    scale = 10 ** int(precision)
    return np.round(M * scale).astype(np.int64), scale


def quadratic_assignment(A, B, method="auto", options=None):
    """Solve the quadratic assignment problem of A and B, as scipy's
    ``scipy.optimize.quadratic_assignment`` does, on the GPU when there is one.

    Parameters
    ----------
    A, B : 2-D array_like, square, same shape (n ≤ 256)
        Integer matrices are used as they are; float matrices that are integral too;
        other float matrices are scaled by ``10**precision`` and rounded (the search runs on
        those integers; ``fun`` is recomputed in float64 on the original matrices).
    method : str
        "auto" (the default: qapgpu picks from the instance's features), or one of qapgpu's
        algorithms: "ts", "aco-ts", "aco-2opt", "ga-independent", "ga-islands", "cga".
        scipy's "faq" and "2opt" map to "auto".
    options : dict, optional
        scipy's: ``maximize`` (bool), ``rng`` (an int seed or a numpy Generator),
        ``partial_match`` (not supported: raises ``NotImplementedError``), ``P0`` and
        ``maxiter`` (accepted and ignored: the search is bounded by time). qapgpu's:
        ``time_limit`` (s, default 1), ``target`` (stop at this objective value or better),
        ``engine`` ("auto", "gpu", "cpu"), ``gpus`` (list of device ordinals; default all),
        ``threads`` (CPU engine), ``precision`` (decimal digits for float scaling, default 6),
        ``return_on_interrupt`` (Ctrl-C returns the best so far instead of raising
        ``KeyboardInterrupt``), ``callback`` (``callback(best, seconds)``, called about every
        0.25 s and at the end with the best objective so far; returning True stops the
        search with its best solution).

    Returns
    -------
    QAPResult
        ``col_ind`` (``col_ind[i]`` is the column/location of row/facility i), ``fun`` (the
        objective), ``nit`` (iterations of the chosen algorithm), and qapgpu's fields.
    """
    opts = dict(options or {})
    maximize = bool(opts.pop("maximize", False))
    if opts.pop("partial_match", None) is not None:
        raise NotImplementedError("partial_match is not supported by qapgpu")
    opts.pop("P0", None)
    opts.pop("maxiter", None)
    opts.pop("shuffle_input", None)
    opts.pop("tol", None)
    rng = opts.pop("rng", None)
    precision = opts.pop("precision", DEFAULT_PRECISION)
    time_limit = float(opts.pop("time_limit", 1.0))
    target = opts.pop("target", None)
    engine = opts.pop("engine", "auto")
    gpus = opts.pop("gpus", None)
    threads = int(opts.pop("threads", 0))
    return_on_interrupt = bool(opts.pop("return_on_interrupt", False))
    callback = opts.pop("callback", None)
    if callback is not None and not callable(callback):
        raise ValueError("callback must be callable: callback(best, seconds) -> stop?")
    if opts:
        raise ValueError(f"unknown options: {', '.join(sorted(opts))}")
    if method in ("faq", "2opt", "auto", None):
        algo = None
    elif isinstance(method, str):
        algo = method
    else:
        raise ValueError(f"method must be a string, got {method!r}")

    A0, B0 = np.asarray(A), np.asarray(B)
    if A0.shape != B0.shape:
        raise ValueError(f"A and B must have the same shape, got {A0.shape} and {B0.shape}")
    Ai, sa = _as_integer_matrix("A", A0, precision)
    Bi, sb = _as_integer_matrix("B", B0, precision)
    n = Ai.shape[0]
    if n > MAX_N:
        raise ValueError(f"n = {n} exceeds {MAX_N}")
    if n <= 1:
        col = np.arange(n)
        fun = float(np.sum(A0 * B0)) if n else 0.0
        return QAPResult(col_ind=col, fun=fun, nit=0, status=0, success=True, message="n ≤ 1: the identity",
                         time_to_target=0.0, elapsed=0.0, engine="none", device="none", algorithm="none",
                         seed=None, interrupted=False, notes=[])
    if maximize:
        Ai = -Ai
    if isinstance(rng, numbers.Integral):
        seed = int(rng) & (2**64 - 1)
    elif rng is None:
        seed = None
    elif hasattr(rng, "integers"):
        seed = int(rng.integers(0, 2**63))
    else:
        raise ValueError("rng must be an int seed or a numpy Generator")
    native_target = None
    if target is not None:
        t = -target if maximize else target
        native_target = int(np.floor(t * sa * sb)) if (sa, sb) != (1, 1) else int(t)
    native_callback = None
    if callback is not None:
        scale = sa * sb
        sign = -1 if maximize else 1

        def native_callback(best, seconds):
            return callback(sign * best / scale if scale != 1 else sign * best, seconds)
    r = _native.solve(Ai.ravel().tolist(), Bi.ravel().tolist(), n, algo, engine, time_limit, native_target, seed,
                      gpus, threads, return_on_interrupt, native_callback)
    col = np.asarray(r["perm"], dtype=np.int64)
    exact_int = (sa, sb) == (1, 1) and np.issubdtype(A0.dtype, np.integer) and np.issubdtype(B0.dtype, np.integer)
    if exact_int:
        fun = int(np.sum(A0.astype(np.int64) * B0.astype(np.int64)[np.ix_(col, col)]))
    else:
        fun = float(np.sum(A0.astype(np.float64) * B0.astype(np.float64)[np.ix_(col, col)]))
    reached = r["time_to_target"] is not None
    message = "target reached" if reached else ("interrupted" if r["interrupted"] else "time limit")
    return QAPResult(col_ind=col, fun=fun, nit=r["iterations"], status=0, success=True, message=message,
                     time_to_target=r["time_to_target"], elapsed=r["elapsed"], engine=r["engine"], device=r["device"],
                     algorithm=r["algorithm"], seed=r["seed"], interrupted=r["interrupted"], notes=r["notes"])


def read_qaplib(path):
    """A QAPLIB .dat file's (A, B) as int64 numpy arrays."""
    n, a, b = _native.read_qaplib(str(path))
    return np.asarray(a, dtype=np.int64).reshape(n, n), np.asarray(b, dtype=np.int64).reshape(n, n)


def solve_file(path, method="auto", options=None):
    """``quadratic_assignment`` on a QAPLIB .dat file."""
    A, B = read_qaplib(path)
    return quadratic_assignment(A, B, method=method, options=options)
