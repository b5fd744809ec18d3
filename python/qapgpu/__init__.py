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

__all__ = ["quadratic_assignment", "read_qaplib", "write_qaplib", "solve_file", "info", "gpu_unavailable_reason",
           "QAPResult", "MAX_N"]

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


def info():
    """Which engine a solve uses here, the GPUs, and the machine code this package carries.

    A dict:

    - ``engine``: ``"gpu"`` or ``"cpu"``, what ``quadratic_assignment`` runs with
      ``engine="auto"`` (the default);
    - ``reason``: why not the GPU (None when ``engine`` is ``"gpu"``), as in a solve's ``notes``;
    - ``gpus``: one dict per GPU the driver reports (a solve uses all of them by default):
      ``ordinal``, ``name``, ``compute_capability`` ("9.0"), ``arch`` ("sm_90"),
      ``memory_bytes`` and ``code``, what that GPU loads at start-up: ``"sm_90 machine code"``
      (an embedded cubin, no compilation) or ``"PTX, JIT-compiled for sm_XX"`` (the driver
      compiles the PTX at first use, which takes long; also where ``QAPGPU_JIT=1`` asks for it);
    - ``driver``: the CUDA driver's version ("12.8"), None without one;
    - ``ptx_bytes``: size of the embedded PTX (0 in a package built CPU-only);
    - ``cubins``: the embedded machine code, ``{"sm_75": bytes, "sm_80": ..., "sm_90": ...}``;
    - ``version``: this package's version;
    - ``gpu_error``: only where the driver reports GPUs but failed to describe one: its error.

    Reading it opens no CUDA context and compiles nothing."""
    d = _native.info()
    d["version"] = _version()
    return d


def _version():
    try:
        from importlib.metadata import version
        return version("qapgpu")
    except Exception:  # pragma: no cover - not installed as a distribution (a bare build)
        return None


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


def _partial_match_pairs(partial_match, n):
    """scipy's ``partial_match`` checked: an (m, 2) int array of (row of A, row of B) pairs,
    no row of A or of B twice."""
    pm = np.asarray(partial_match)
    if pm.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if pm.ndim != 2 or pm.shape[1] != 2:
        raise ValueError(f"partial_match must be an (m, 2) array, got shape {pm.shape}")
    if not np.issubdtype(pm.dtype, np.integer):
        if not (np.issubdtype(pm.dtype, np.floating) and np.all(pm == np.round(pm))):
            raise ValueError("partial_match must hold integer indices")
    pm = pm.astype(np.int64)
    if pm.shape[0] > n:
        raise ValueError(f"partial_match has {pm.shape[0]} pairs, more than n = {n}")
    if pm.min() < 0 or pm.max() >= n:
        raise ValueError(f"partial_match entries must be in 0..{n - 1}")
    if len(set(pm[:, 0].tolist())) != len(pm) or len(set(pm[:, 1].tolist())) != len(pm):
        raise ValueError("partial_match must not repeat a row of A or a row of B")
    return pm


def _pin(Ai, Bi, pm):
    """The instance with pairs ``pm`` forced by diagonal penalties, and the constant those
    penalties add to every permutation that keeps the pairs.

    Row ``pm[k, 0]`` of A gets ``M·(k+1)`` on its diagonal, row ``pm[k, 1]`` of B gets
    ``M·(m−k)``, every other row of B ``M·(m+1)``. By the rearrangement inequality the
    diagonal product ``Σ x_i·y_p(i)`` is least, by at least ``M²``, exactly when row k goes to
    column k: the pinned columns carry the m smallest weights, sorted against the rows'. Every
    swap that breaks a pair then costs more than the rest of the objective can gain
    (``M² > 2·(R + M·C)``, R bounding the original objective and C the cross terms), so the
    optimum and every 2-swap local optimum keep the pairs, and a kept pairing costs the
    original objective plus a constant. The sizes are checked by the instance's own check
    (32-bit entries, 64-bit costs), which raises ``ValueError`` when the penalty is too big."""
    n, m = Ai.shape[0], pm.shape[0]
    rows, cols = pm[:, 0], pm[:, 1]
    max_a, max_b = int(np.abs(Ai).max()), int(np.abs(Bi).max())
    r0 = int(np.abs(Ai).sum()) * max_b
    c = (m + 1) * int(np.abs(np.diag(Ai)).sum()) + (m * (m + 1) // 2) * int(np.abs(np.diag(Bi)).max())
    big = c + int(np.ceil(np.sqrt(c * c + 2 * r0))) + 1
    x = np.zeros(n, dtype=object)
    y = np.full(n, m + 1, dtype=object)
    x[rows] = np.arange(1, m + 1)
    y[cols] = np.arange(m, 0, -1)
    Ap, Bp = Ai.astype(object), Bi.astype(object)
    Ap[np.arange(n), np.arange(n)] += big * x
    Bp[np.arange(n), np.arange(n)] += big * y
    limit = 2**32 - 1 if min(Ai.min(), Bi.min()) >= 0 else 2**31 - 1
    if max(Ap.max(), Bp.max()) > limit:
        raise ValueError(f"partial_match: the penalty that pins {m} pairs ({big}) does not fit 32-bit entries "
                         f"for matrices this large (max |A| = {max_a}, max |B| = {max_b})")
    # The constant: each kept pair's diagonal product less its original, and the free rows' x=0
    # times B's weight (m+1)·M added to their own A diagonal.
    free = np.setdiff1d(np.arange(n), rows)
    offset = sum(int(Ap[r, r]) * int(Bp[k, k]) - int(Ai[r, r]) * int(Bi[k, k]) for r, k in zip(rows, cols))
    offset += sum(int(Ai[i, i]) * big * (m + 1) for i in free)
    return Ap.astype(np.int64), Bp.astype(np.int64), offset


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
        algorithms: "ts", "aco-ts", "aco-2opt", "ga-independent", "ga-islands", "cga", "memetic".
        scipy's "faq" and "2opt" map to "auto".
    options : dict, optional
        scipy's: ``maximize`` (bool), ``rng`` (an int seed or a numpy Generator),
        ``partial_match`` (an (m, 2) array of (row of A, row of B) pairs that the answer must
        keep: ``col_ind[partial_match[:, 0]] == partial_match[:, 1]``; forced by diagonal
        penalties, see ``_pin``), ``P0`` and ``maxiter`` (accepted and ignored: the search is
        bounded by time). qapgpu's:
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
    partial_match = opts.pop("partial_match", None)
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
    pm = _partial_match_pairs(partial_match if partial_match is not None else [], n)
    if n <= 1 or len(pm) >= n - 1:
        return _forced(A0, B0, pm, n)
    if maximize:
        Ai = -Ai
    offset = 0
    if len(pm):
        Ai, Bi, offset = _pin(Ai, Bi, pm)
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
        native_target = (int(np.floor(t * sa * sb)) if (sa, sb) != (1, 1) else int(t)) + offset
    native_callback = None
    if callback is not None:
        scale = sa * sb
        sign = -1 if maximize else 1

        def native_callback(best, seconds):
            best -= offset
            return callback(sign * best / scale if scale != 1 else sign * best, seconds)
    r = _native.solve(Ai.ravel().tolist(), Bi.ravel().tolist(), n, algo, engine, time_limit, native_target, seed,
                      gpus, threads, return_on_interrupt, native_callback)
    col = np.asarray(r["perm"], dtype=np.int64)
    if len(pm) and not np.array_equal(col[pm[:, 0]], pm[:, 1]):
        raise ValueError("partial_match: the search ended without a permutation that keeps the pairs "
                         "(give it more time_limit)")
    fun = _objective(A0, B0, col)
    reached = r["time_to_target"] is not None
    message = "target reached" if reached else ("interrupted" if r["interrupted"] else "time limit")
    return QAPResult(col_ind=col, fun=fun, nit=r["iterations"], status=0, success=True, message=message,
                     time_to_target=r["time_to_target"], elapsed=r["elapsed"], engine=r["engine"], device=r["device"],
                     algorithm=r["algorithm"], seed=r["seed"], interrupted=r["interrupted"], notes=r["notes"])


def _objective(A0, B0, col):
    """Σ A[i,j]·B[col[i], col[j]] on the caller's matrices: exact int for integer (and bool)
    matrices, float64 otherwise."""
    ints = all(np.issubdtype(M.dtype, np.integer) or M.dtype == bool for M in (A0, B0))
    if ints:
        return int(np.sum(A0.astype(np.int64) * B0.astype(np.int64)[np.ix_(col, col)]))
    return float(np.sum(A0.astype(np.float64) * B0.astype(np.float64)[np.ix_(col, col)]))


def _forced(A0, B0, pm, n):
    """The answer when nothing is left to search: n ≤ 1, or partial_match fixes n − 1 pairs
    (hence all n)."""
    col = np.full(n, -1, dtype=np.int64)
    col[pm[:, 0]] = pm[:, 1]
    free_rows = [i for i in range(n) if col[i] < 0]
    free_cols = sorted(set(range(n)) - set(col[col >= 0].tolist()))
    col[free_rows] = free_cols
    return QAPResult(col_ind=col, fun=_objective(A0, B0, col) if n else 0, nit=0, status=0, success=True,
                     message="nothing to search: the permutation is fixed", time_to_target=0.0, elapsed=0.0,
                     engine="none", device="none", algorithm="none", seed=None, interrupted=False, notes=[])


def read_qaplib(path):
    """A QAPLIB .dat file's (A, B) as int64 numpy arrays."""
    n, a, b = _native.read_qaplib(str(path))
    return np.asarray(a, dtype=np.int64).reshape(n, n), np.asarray(b, dtype=np.int64).reshape(n, n)


def write_qaplib(path, A, B):
    """Writes (A, B) as a QAPLIB .dat file (n, then A, then B; integer matrices)."""
    Ai, sa = _as_integer_matrix("A", A, DEFAULT_PRECISION)
    Bi, sb = _as_integer_matrix("B", B, DEFAULT_PRECISION)
    if (sa, sb) != (1, 1):
        raise ValueError("write_qaplib: QAPLIB files hold integers; A or B has non-integral entries")
    if Ai.shape != Bi.shape:
        raise ValueError(f"write_qaplib: A and B must have the same shape, got {Ai.shape} and {Bi.shape}")
    _native.write_qaplib(str(path), Ai.shape[0], Ai.ravel().tolist(), Bi.ravel().tolist())


def solve_file(path, method="auto", options=None):
    """``quadratic_assignment`` on a QAPLIB .dat file."""
    A, B = read_qaplib(path)
    return quadratic_assignment(A, B, method=method, options=options)
