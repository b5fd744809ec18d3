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

import math
import numbers
import operator
import warnings
from collections.abc import Iterable, Mapping
from fractions import Fraction

import numpy as np

from . import _native

__all__ = ["quadratic_assignment", "quadratic_assignment_batch", "read_qaplib", "write_qaplib", "solve_file", "info", "gpu_unavailable_reason",
           "QAPResult", "OptimizeWarning", "MAX_N"]

#: Largest n: above 256 (``MAX_BYTE_N``) only the methods of ``WIDE_METHODS``, whose walks
#: take u16 permutations (the wide path); the batch call stays at 256 on every engine.
MAX_N = 2048
#: Largest n of the GA methods (permutations as rows of bytes) and of the batch call.
MAX_BYTE_N = 256
#: The methods that take n above ``MAX_BYTE_N`` (scipy's "faq" and "2opt" mean "auto").
WIDE_METHODS = ("auto", "faq", "2opt", "ts", "memetic", "aco-ts", "aco-2opt")
#: Most CPU engine threads (``threads``; 0 means all cores).
MAX_THREADS = 256

try:  # scipy's result type when scipy is there, a dict with attribute access otherwise
    from scipy.optimize import OptimizeResult as _Base
except ImportError:  # pragma: no cover - scipy is optional
    class _Base(dict):
        __getattr__ = dict.__getitem__

try:  # scipy's warning for unknown options and lossy rounding, so that filters written for scipy apply
    from scipy.optimize import OptimizeWarning
except ImportError:  # pragma: no cover - scipy is optional
    class OptimizeWarning(UserWarning):
        """An option qapgpu does not know, or floats that rounding to integers changes."""


class QAPResult(_Base):
    """The result: scipy's fields ``col_ind``, ``fun``, ``nit``, ``status``, ``success``,
    ``message``, and qapgpu's ``time_to_target`` (s, None when the target was not reached
    or none was given), ``elapsed`` (s), ``engine`` ("gpu" or "cpu"), ``device``,
    ``algorithm``, ``seed``, ``interrupted``, ``notes`` (why there is no GPU, if so),
    ``stopped`` (why the search ended: "proven optimal", "converged", "target", "time limit",
    "maxiter", "callback", "interrupted", "budget"), ``stop_rule`` ("time" or "converged")
    ``last_improvement_s`` (s into the run of the last improvement the "converged" rule saw;
    None under "time" and for a proven optimum) and ``search_start_s`` (s into the run at which
    the search began, after a failed attempt of the exact method; 0 without one)."""


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


#: Largest int64 cost: the host checks max(2n², 16(n+1))·max|A|·max|B| below it.
_I64 = 2**63
#: Entries of a scaled float matrix stay within the GPU kernels' 32-bit signed type.
_I32 = 2**31 - 1
#: Relative loss of the objective's scale above which rounding floats warns.
LOSS_WARN = 1e-6
#: scipy's methods: "faq" (the default there) and "2opt"; here both mean "auto".
SCIPY_METHODS = ("faq", "2opt")
#: Options every method takes: scipy's common ones, partial_guess, maxiter, tol, and qapgpu's.
_COMMON_OPTIONS = frozenset({"maximize", "partial_match", "rng", "partial_guess", "maxiter", "tol", "time_limit",
                             "target", "engine", "gpus", "threads", "precision", "callback", "return_on_interrupt",
                             "stop", "effort"})
#: The stop rules of option ``stop`` (the library's ``StopRule``).
STOP_RULES = ("time", "converged")
#: The budgets of option ``effort`` (the command line's ``--effort``).
EFFORTS = ("auto", "short", "long")
#: ``message`` for each ``stopped``.
_MESSAGES = {"target": "target reached", "maxiter": "maxiter reached", "callback": "stopped by the callback",
             "proven optimal": "proven optimal", "converged": "converged", "interrupted": "interrupted",
             "time limit": "time limit", "budget": "budget spent"}
#: Options of scipy's FAQ, taken where scipy takes them: method "faq" and the default "auto".
_FAQ_OPTIONS = frozenset({"P0", "shuffle_input"})


def _algorithms():
    return tuple(_native.algorithms())


def _bound_factor(n):
    """K of the host's check that every cost and move cost fits 64 bits: K·max|A|·max|B| < 2⁶³."""
    return max(2 * n * n, 16 * (n + 1))


def _is_int(x):
    return isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_))


def _is_real(x):
    return isinstance(x, (numbers.Real, np.floating, np.integer)) and not isinstance(x, (bool, np.bool_))


def _seed_pairs(name, pairs, n, what):
    """scipy's checks of ``partial_match`` / ``partial_guess``, with scipy's messages (its
    ``_common_input_validation`` and ``_quadratic_assignment_2opt``); ``what`` is the
    count check's wording, which differs between the two. Non-integral entries, which scipy
    truncates, raise here."""
    if pairs is None:
        return np.zeros((0, 2), dtype=np.int64)
    pm = np.atleast_2d(np.asarray(pairs))
    if pm.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if pm.dtype == bool or not (np.issubdtype(pm.dtype, np.integer) or np.issubdtype(pm.dtype, np.floating)):
        raise ValueError(f"`{name}` must hold integer indices, got dtype {pm.dtype}")
    msg = None
    if pm.shape[0] > n:
        msg = f"`{name}` can have only as many {what} as there are nodes"
    elif pm.shape[1] != 2:
        msg = f"`{name}` must have two columns"
    elif pm.ndim != 2:
        msg = f"`{name}` must have exactly two dimensions"
    elif not np.all(np.isfinite(pm) & (pm == np.round(pm))):
        msg = f"`{name}` must hold integer indices"
    elif (pm < 0).any():
        msg = f"`{name}` must contain only positive indices"
    elif (pm >= n).any():
        msg = f"`{name}` entries must be less than number of nodes"
    else:
        pm = pm.astype(np.int64)
        if len(set(pm[:, 0].tolist())) != len(pm) or len(set(pm[:, 1].tolist())) != len(pm):
            msg = f"`{name}` column entries must be unique"
    if msg is not None:
        raise ValueError(msg)
    return pm


#: The batch's message for an instance above ``MAX_BYTE_N`` (its caller prefixes the pair).
_BATCH_TOO_LARGE = "n = {n} exceeds {limit}, the batch call's limit (MAX_BYTE_N): solve it with quadratic_assignment"


def _check_matrices(A, B, limit=MAX_N, too_large="A, B: n = {n} exceeds {limit}"):
    """A and B as arrays after scipy's shape checks (and its messages), then qapgpu's: numbers,
    finite, n ≤ ``limit`` (the batch: ``MAX_BYTE_N``), else ``too_large``'s message."""
    A, B = np.atleast_2d(np.asarray(A)), np.atleast_2d(np.asarray(B))
    msg = None
    if A.shape[0] != A.shape[1]:
        msg = "`A` must be square"
    elif B.shape[0] != B.shape[1]:
        msg = "`B` must be square"
    elif A.ndim != 2 or B.ndim != 2:
        msg = "`A` and `B` must have exactly two dimensions"
    elif A.shape != B.shape:
        msg = "`A` and `B` matrices must be of equal size"
    if msg is not None:
        raise ValueError(msg)
    for name, M in (("A", A), ("B", B)):
        if not (M.dtype == bool or np.issubdtype(M.dtype, np.integer) or np.issubdtype(M.dtype, np.floating)):
            raise ValueError(f"{name} must hold numbers (integer or float), got dtype {M.dtype}")
        if np.issubdtype(M.dtype, np.floating) and not np.all(np.isfinite(M)):
            raise ValueError(f"{name} has NaN or infinite entries")
    if A.shape[0] > limit:
        raise ValueError(too_large.format(n=A.shape[0], limit=limit))
    return A, B


class _Matrix:
    """One matrix as given, and what scaling it to integers needs: whether its entries are
    integers already (``exact``) and their largest absolute value."""

    def __init__(self, name, M):
        self.name, self.M = name, M
        if M.dtype == bool or np.issubdtype(M.dtype, np.integer):
            self.exact = True
            self.maxabs = max(abs(int(M.max())), abs(int(M.min()))) if M.size else 0
        else:
            self.exact = bool(np.all(M == np.round(M)))
            self.maxabs = float(np.abs(M).max()) if M.size else 0.0

    def scaled(self, k):
        """round(M·10^k) as int64, or None where an entry reaches 2⁶² (no cost could fit)."""
        M = self.M
        if k == 0 and (M.dtype == bool or np.issubdtype(M.dtype, np.integer)):
            if self.maxabs >= 2**62:
                return None
            return M.astype(np.int64)
        with np.errstate(over="ignore", invalid="ignore"):
            X = np.round(M.astype(np.float64) * (10.0 ** k))
        if not np.all(np.isfinite(X)) or (X.size and np.abs(X).max() >= 2.0**62):
            return None
        return X.astype(np.int64)

    def auto_exponent(self):
        """The largest k whose round(max|M|·10^k) stays within 2³¹ − 1."""
        k = int(np.floor(np.log10(_I32 / self.maxabs)))
        while round(self.maxabs * 10.0**k) > _I32:
            k -= 1
        while round(self.maxabs * 10.0 ** (k + 1)) <= _I32:
            k += 1
        return k

    def loss(self, k):
        """Largest rounding error of an entry at scale 10^k, over max|M| (0: exact)."""
        if self.maxabs == 0:
            return 0.0
        if k >= 0 and self.exact:
            return 0.0
        with np.errstate(over="ignore", invalid="ignore"):
            err = np.abs(np.round(self.M.astype(np.float64) * 10.0**k) / 10.0**k - self.M).max()
        return float(err) / float(self.maxabs)

    def merges(self, k):
        """Whether rounding to multiples of 10^−k changes the order of entries: makes equal
        entries that differ by more than LOSS_WARN of max|M| (closer ones are equal to within
        the objective's tolerance anyway, and large random matrices always hold some)."""
        if (k >= 0 and self.exact) or self.maxabs == 0:
            return False
        u = np.unique(self.M.astype(np.float64))
        with np.errstate(over="ignore", invalid="ignore"):
            r = np.round(u * 10.0**k)
        starts = np.flatnonzero(np.r_[True, np.diff(r) != 0])
        ends = np.r_[starts[1:], len(u)] - 1
        return bool(np.any(u[ends] - u[starts] > LOSS_WARN * float(self.maxabs)))


class _Native:
    """The integer instance the engines search, and how its costs map to the caller's:
    ``native = c0 + sign·U + offset``, ``U = Σ Ai·Bi[p, p]`` with ``Ai = round(A·10^ka)``,
    ``Bi = round(B·10^kb)``, and the caller's objective ≈ ``U / 10^(ka+kb)``."""

    def __init__(self, Ai, Bi, ka, kb, sign, c0, offset):
        self.Ai, self.Bi, self.ka, self.kb, self.sign, self.c0, self.offset = Ai, Bi, ka, kb, sign, c0, offset
        #: Entries above 2³¹ − 1: u32 matrices, which only the CPU engine takes.
        self.u32 = max(int(Ai.max()), int(Bi.max())) > 2**31 - 1

    def native_target(self, target):
        """The native cost at or below which the caller's ``target`` is met: U ≤ floor(t)
        minimising, U ≥ ceil(t) maximising, t the target at the instance's scale."""
        t = Fraction(target) * Fraction(10) ** (self.ka + self.kb)
        u = math.floor(t) if self.sign > 0 else math.ceil(t)
        v = self.c0 + self.sign * u + self.offset
        return max(-(2**63), min(2**63 - 1, v))

    def user_value(self, native, exact):
        u = self.sign * (native - self.offset - self.c0)
        k = self.ka + self.kb
        if exact and k == 0:
            return u
        return float(u) / 10.0**k if k >= 0 else float(u) * 10.0**(-k)


def _build(ma, mb, ka, kb, maximize, pm):
    """The native instance at exponents (ka, kb), or a one-word reason it does not fit:
    "large" (an entry or a cost beyond 64 bits), "width" (no 32-bit type holds every entry),
    "pin" (partial_match's penalties do not fit)."""
    Ai, Bi = ma.scaled(ka), mb.scaled(kb)
    if Ai is None or Bi is None:
        return "large"
    n = Ai.shape[0]
    sign = -1 if maximize else 1
    X, Y = sign * Ai, Bi
    a = b = 0

    def on_gpu(M):  # u16 or i32, the GPU kernels' types
        return int(M.min()) >= -(2**31) and int(M.max()) <= 2**31 - 1

    if not (on_gpu(X) and on_gpu(Y)):
        # Σ (X − a)(Y[p,p] − b) = Σ X·Y[p,p] − b·ΣX − a·ΣY + a·b·n²: a matrix shifted to
        # non-negative entries moves every permutation's cost by the same constant. Shifted
        # where that brings it within i32, or where no 32-bit type holds both as they are.
        shifted = [M - int(M.min()) if not on_gpu(M) else M for M in (X, Y)]
        lo, hi = min(int(X.min()), int(Y.min())), max(int(X.max()), int(Y.max()))
        if (on_gpu(shifted[0]) and on_gpu(shifted[1])) or not (lo >= 0 and hi <= 2**32 - 1):
            a, b = int(X.min()) if not on_gpu(X) else 0, int(Y.min()) if not on_gpu(Y) else 0
            if not (on_gpu(shifted[0]) and on_gpu(shifted[1])):  # u32: both non-negative
                a, b = min(int(X.min()), 0) if on_gpu(X) else a, min(int(Y.min()), 0) if on_gpu(Y) else b
            X, Y = X - a, Y - b
            if max(int(X.max()), int(Y.max())) > 2**32 - 1:
                return "width"
    c0 = 0
    if a or b:
        c0 = -b * int(sign * Ai.sum(dtype=object)) - a * int(Bi.sum(dtype=object)) + a * b * n * n
    if _bound_factor(n) * int(np.abs(X).max()) * int(np.abs(Y).max()) >= _I64:
        return "large"
    offset = 0
    if len(pm):
        try:
            X, Y, offset = _pin(X, Y, pm)
        except _PinTooLarge:
            return "pin"
    return _Native(X, Y, ka, kb, sign, c0, offset)


class _PinTooLarge(ValueError):
    pass


def _exponents(ma, mb, precision):
    """The exponents (ka, kb) to start from and whether each may still go down: integer
    matrices keep 1 (unless a negative ``precision`` rounds them too), others take
    ``precision`` or, by default, the largest that keeps their entries within 32 bits."""
    out = []
    for m in (ma, mb):
        if m.maxabs == 0:
            out.append((0, False))
        elif precision is None:
            out.append((0, False) if m.exact else (m.auto_exponent(), True))
        elif m.exact and precision >= 0:
            out.append((0, False))
        else:
            out.append((int(precision), False))
    return out


def _integer_instance(ma, mb, maximize, pm, precision):
    """The native instance: the largest powers of ten (by default) at which every cost fits
    64 bits, every entry one 32-bit type, and partial_match's penalties too; a ValueError
    in the caller's values, naming ``precision``, where none does."""
    (ka, free_a), (kb, free_b) = _exponents(ma, mb, precision)
    while True:
        built = _build(ma, mb, ka, kb, maximize, pm)
        if isinstance(built, _Native):
            return built
        # Lower the exponent of the free matrix whose scaled entries are larger.
        da = np.log10(ma.maxabs) + ka if free_a else -np.inf
        db = np.log10(mb.maxabs) + kb if free_b else -np.inf
        if max(da, db) == -np.inf or min(ka, kb) < -400:
            break
        if da >= db:
            ka -= 1
        else:
            kb -= 1
    raise ValueError(_too_large_message(ma, mb, maximize, pm, precision, built))


def _too_large_message(ma, mb, maximize, pm, precision, reason):
    n = ma.M.shape[0]
    suggestion = None
    for p in range(18, -400, -1):
        if p == precision:
            continue
        (ka, _), (kb, _) = _exponents(ma, mb, p)
        if isinstance(_build(ma, mb, ka, kb, maximize, pm), _Native):
            suggestion = p
            break
    head = (f"A and B (n = {n}, max|A| = {ma.maxabs:.6g}, max|B| = {mb.maxabs:.6g}"
            + (f", precision = {precision}" if precision is not None else "") + "): ")
    if reason == "pin":
        why = (f"the penalties that pin partial_match's {len(pm)} pairs do not fit 32-bit entries at this "
               f"scale")
    elif reason == "width":
        why = "no 32-bit integer type holds every entry (qapgpu searches on integers)"
    else:
        why = (f"qapgpu searches on integers, and its costs must fit 64 bits: max(2n², 16(n+1))·max|A|·max|B| "
               f"= {_bound_factor(n) * float(ma.maxabs) * float(mb.maxabs):.3g} must stay below 2**63 ≈ 9.22e18 "
               f"after rounding")
    if suggestion is None:
        return head + why + "; scale the matrices down"
    return (head + why + f"; pass options={{'precision': {suggestion}}} to round them to multiples of "
            f"1e{-suggestion} (or scale the matrices down)")


def _scaling_warning(ma, mb, native, precision, pinned, stacklevel=3):
    """An OptimizeWarning where rounding to integers made distinct entries equal or loses
    more than LOSS_WARN of the objective's scale, n²·max|A|·max|B|."""
    ra, rb = ma.loss(native.ka), mb.loss(native.kb)
    lost = ra + rb + ra * rb
    merged = [m.name for m, k in ((ma, native.ka), (mb, native.kb)) if m.merges(k)]
    if lost <= LOSS_WARN and not merged:
        return
    how = ", ".join(f"{m.name} to multiples of 1e{-k}" for m, k in ((ma, native.ka), (mb, native.kb))
                    if not (m.exact and k >= 0))
    what = []
    if merged:
        what.append(f"makes distinct entries of {' and '.join(merged)} equal")
    if lost > LOSS_WARN:
        what.append(f"may shift the objective by up to {lost:.2g} of its scale (n²·max|A|·max|B|)")
    chosen = ("options['precision']" if precision is not None else "the most 64-bit costs and partial_match's "
              "penalties allow" if pinned else "the most 64-bit costs allow")
    warnings.warn(f"qapgpu searches on integers: rounding {how} ({chosen}) {' and '.join(what)}; "
                  f"fun is recomputed on the floats, but the search may miss their optimum"
                  + ("" if precision is None else "; a larger precision keeps more digits"),
                  OptimizeWarning, stacklevel=stacklevel)


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
    original objective plus a constant. Raises ``_PinTooLarge`` where the penalised entries
    do not fit 32 bits; the instance's own check covers the 64-bit costs."""
    n, m = Ai.shape[0], pm.shape[0]
    rows, cols = pm[:, 0], pm[:, 1]
    r0 = int(np.abs(Ai).sum(dtype=object)) * int(np.abs(Bi).max())
    c = (m + 1) * int(np.abs(np.diag(Ai)).sum(dtype=object)) + (m * (m + 1) // 2) * int(np.abs(np.diag(Bi)).max())
    big = c + math.isqrt(c * c + 2 * r0) + 2
    x = np.zeros(n, dtype=object)
    y = np.full(n, m + 1, dtype=object)
    x[rows] = np.arange(1, m + 1)
    y[cols] = np.arange(m, 0, -1)
    Ap, Bp = Ai.astype(object), Bi.astype(object)
    Ap[np.arange(n), np.arange(n)] += big * x
    Bp[np.arange(n), np.arange(n)] += big * y
    limit = 2**32 - 1 if min(Ai.min(), Bi.min()) >= 0 else 2**31 - 1
    if max(Ap.max(), Bp.max()) > limit or _bound_factor(n) * int(np.abs(Ap).max()) * int(np.abs(Bp).max()) >= _I64:
        raise _PinTooLarge()
    # The constant: each kept pair's diagonal product less its original, and the free rows' x=0
    # times B's weight (m+1)·M added to their own A diagonal.
    free = np.setdiff1d(np.arange(n), rows)
    offset = sum(int(Ap[r, r]) * int(Bp[k, k]) - int(Ai[r, r]) * int(Bi[k, k]) for r, k in zip(rows, cols))
    offset += sum(int(Ai[i, i]) * big * (m + 1) for i in free)
    return Ap.astype(np.int64), Bp.astype(np.int64), offset


def _spec007(rng):
    """The warnings the installed scipy gives for this ``rng`` during its SPEC-7 transition
    (RandomState, the seeded global RNG, integer seeds), by scipy's own function, so that
    code moving between the two sees the same; none where scipy has no such function."""
    try:
        from scipy.optimize._qap import _spec007_transition
    except Exception:  # scipy absent, or past its transition
        return
    _spec007_transition(rng)


def _random_state(rng):
    """(seed for the engines, numpy generator for fills) from scipy's ``rng`` forms: None (the
    global RNG, as scipy's check_random_state), an int, a ``Generator`` or a ``RandomState``."""
    if rng is None or rng is np.random:
        g = np.random.mtrand._rand
        return int(g.randint(0, 2**63 - 1, dtype=np.int64)), g
    if _is_int(rng):
        seed = int(rng) & (2**64 - 1)
        return seed, np.random.default_rng(seed)
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**63)), rng
    if isinstance(rng, np.random.RandomState):
        return int(rng.randint(0, 2**63 - 1, dtype=np.int64)), rng
    raise ValueError(f"rng = {rng!r} cannot be used to seed the search: pass None, an int, a "
                     f"numpy.random.Generator or a numpy.random.RandomState")


def _check_p0(P0, n_unseed):
    """scipy FAQ's ``P0`` checks on an array: shape m'×m' and doubly stochastic."""
    try:
        P0 = np.atleast_2d(np.asarray(P0, dtype=np.float64))
    except (TypeError, ValueError):
        raise TypeError(f"P0 must be \"barycenter\", \"randomized\" or a doubly stochastic matrix, got {P0!r}") from None
    if P0.shape != (n_unseed, n_unseed):
        raise ValueError("`P0` matrix must have shape m' x m', where m'=n-m")
    if (P0 < 0).any() or not np.allclose(np.sum(P0, axis=0), 1) or not np.allclose(np.sum(P0, axis=1), 1):
        raise ValueError("`P0` matrix must be doubly stochastic")
    return P0


def _round_p0(P0):
    """The permutation nearest a doubly stochastic matrix: FAQ's own last step,
    ``linear_sum_assignment(P, maximize=True)`` (a greedy pick without scipy)."""
    try:
        from scipy.optimize import linear_sum_assignment
        return linear_sum_assignment(P0, maximize=True)[1]
    except ImportError:  # pragma: no cover - scipy is optional
        col, used = np.full(len(P0), -1), set()
        for flat in np.argsort(-P0, axis=None):
            i, j = divmod(int(flat), len(P0))
            if col[i] < 0 and j not in used:
                col[i] = j
                used.add(j)
        return col


def _start(n, pm, guess, P0, fill):
    """The start the search is handed: partial_match's pairs, then partial_guess's pairs
    whose row and column are still free (or FAQ's ``P0`` rounded to a permutation over the
    rows and columns partial_match leaves), and the rest a random permutation of what is
    left, drawn from ``fill`` as scipy's 2opt does. None when neither was given."""
    if not len(guess) and P0 is None:
        return None
    col = np.full(n, -1, dtype=np.int64)
    col[pm[:, 0]] = pm[:, 1]
    if len(guess):
        used = set(pm[:, 1].tolist())
        for r, c in guess.tolist():
            if col[r] < 0 and c not in used:
                col[r] = c
                used.add(c)
    else:
        rows = np.setdiff1d(np.arange(n), pm[:, 0])
        cols = np.setdiff1d(np.arange(n), pm[:, 1])
        col[rows] = cols[_round_p0(P0)]
    free_rows = np.flatnonzero(col < 0)
    free_cols = np.setdiff1d(np.arange(n), col[col >= 0])
    col[free_rows] = fill.permutation(free_cols)
    return col


def quadratic_assignment(A, B, method="auto", options=None):
    """Solve the quadratic assignment problem of A and B, as scipy's
    ``scipy.optimize.quadratic_assignment`` does, on the GPU when there is one.

    Parameters
    ----------
    A, B : 2-D array_like, square, same shape (n ≤ 2048; above 256 only the ``WIDE_METHODS``)
        Integer matrices are used as they are, and float matrices whose entries are all
        integers too. Other float matrices are rounded to integers at the largest power of
        ten whose costs still fit 64 bits (``precision`` sets it), with an
        ``OptimizeWarning`` where that merges distinct entries or loses more than 1e-6 of the
        objective's scale; ``fun`` is recomputed in float64 on the given matrices.
    method : str
        "auto" (the default: qapgpu picks from the instance's features), or one of qapgpu's
        algorithms ("ts", "aco-ts", "aco-2opt", "ga-independent", "ga-islands", "cga",
        "memetic"). scipy's "faq" and "2opt" mean "auto" (case is ignored, as in scipy).
    options : dict, optional
        scipy's, checked as scipy checks them: ``maximize`` (bool), ``rng`` (None, an int, a
        numpy ``Generator`` or ``RandomState``; the search's seed is drawn from it),
        ``partial_match`` ((m, 2) pairs the answer keeps:
        ``col_ind[partial_match[:, 0]] == partial_match[:, 1]``), ``partial_guess`` ((m, 2)
        pairs of a start: the search is handed that permutation, the rest filled at random,
        after its first step, and the answer is never worse), ``maxiter`` (a positive int:
        the search stops after that many steps of its engine), ``tol`` (a positive float,
        accepted: the search has no tolerance); with method "faq" or "auto" also ``P0``
        ("barycenter", "randomized", or a doubly stochastic matrix, which is rounded to a
        permutation and used as a start like ``partial_guess``) and ``shuffle_input``
        (accepted, no effect). Unknown options give an ``OptimizeWarning`` and are ignored.
        qapgpu's: ``time_limit`` (s, default 1), ``target`` (stop at this objective value
        or better), ``engine`` ("auto", "gpu", "cpu"), ``gpus`` (list of device ordinals;
        default: every GPU from n = 80, the first below), ``threads`` (CPU engine, 0..256, 0 = all cores), ``precision``
        (None: chosen from the data; an int p rounds non-integral floats to multiples of
        10^-p, and a negative p rounds every matrix so), ``return_on_interrupt`` (Ctrl-C
        returns the best so far instead of raising ``KeyboardInterrupt``), ``callback``
        (``callback(best, seconds)``, called about every 0.25 s and at the end with the best
        objective so far; returning True stops the search with its best solution; an
        exception stops it and is raised once it has ended), ``stop`` ("converged": also stop
        once done, a small instance (n ≤ 12) when proven optimal by an exact method, a larger
        one once it has gone without improvement for 8 times the time to its last
        improvement, at least 0.5 s; "time": run to ``time_limit`` or ``target``; default
        "converged" without a ``target``, "time" with one), ``effort`` ("short": the
        settings tuned for runs of about a second; "long": those tuned for 10 s and more,
        which differ on uniform random data of n = 41 to 100 on the GPU; "auto", the default:
        "long" from a ``time_limit`` of 10 s up).

    Returns
    -------
    QAPResult
        ``col_ind`` (``col_ind[i]`` is the column/location of row/facility i), ``fun`` (the
        objective), ``nit`` (iterations of the chosen algorithm), and qapgpu's fields.

    Raises
    ------
    ValueError, TypeError
        Bad input, each naming the argument or option at fault.
    """
    method, algo = _method(method)
    opts = _options_dict(options)
    _spec007(opts.get("rng"))
    _drop_unknown(opts, _COMMON_OPTIONS | (_FAQ_OPTIONS if method in ("auto", "faq") else frozenset()))

    maximize = bool(opts.get("maximize", False))
    maxiter = opts.get("maxiter")
    if maxiter is not None:
        try:
            maxiter = operator.index(maxiter)
        except TypeError:
            raise TypeError(f"maxiter must be an integer, got {maxiter!r}") from None
    A0, B0 = _check_matrices(A, B)
    n = A0.shape[0]
    if n > MAX_BYTE_N and method not in WIDE_METHODS:
        raise ValueError(
            f"method={method!r}: n = {n} is above {MAX_BYTE_N} (its solutions are rows of bytes); "
            f"methods {', '.join(repr(m) for m in WIDE_METHODS if m not in SCIPY_METHODS)} take n up to {MAX_N}")
    pm = _seed_pairs("partial_match", opts.get("partial_match"), n, "seeds")
    P0 = opts.get("P0", "barycenter")
    tol = opts.get("tol")
    if tol is not None and not _is_real(tol):
        raise TypeError(f"tol must be a real number, got {tol!r}")
    if isinstance(P0, str) and P0 not in {"barycenter", "randomized"}:
        raise ValueError("Invalid 'P0' parameter string")
    if maxiter is not None and maxiter <= 0:
        raise ValueError("'maxiter' must be a positive integer")
    if tol is not None and not tol > 0:
        raise ValueError("'tol' must be a positive float")
    seed, fill = _random_state(opts.get("rng"))
    P0 = None if isinstance(P0, str) else _check_p0(P0, n - len(pm))
    guess = _seed_pairs("partial_guess", opts.get("partial_guess"), n, "entries")

    run = _Run(opts)
    effort = _effort(opts)
    target = opts.get("target")
    if target is not None and not _is_real(target):
        raise TypeError(f"target must be a number, got {target!r}")
    if target is not None and not np.isfinite(float(target)):
        raise ValueError(f"target = {target}: must be finite")
    callback = opts.get("callback")
    if callback is not None and not callable(callback):
        raise TypeError("callback must be callable: callback(best, seconds) -> stop?")

    if n <= 1 or len(pm) >= n - 1:
        return _forced(A0, B0, pm, n)
    native, exact, engine, notes = _prepare(A0, B0, maximize, pm, run.precision, run.engine)
    start = _start(n, pm, guess, P0, fill)
    native_target = None if target is None else native.native_target(target)
    native_callback = None
    if callback is not None:
        def native_callback(best, seconds):
            return callback(native.user_value(best, exact), seconds)
    r = _native.solve(native.Ai.ravel().tolist(), native.Bi.ravel().tolist(), n, algo, engine, run.time_limit,
                      native_target, seed, run.gpus, run.threads, run.return_on_interrupt, native_callback,
                      None if start is None else start.tolist(), maxiter, run.stop, effort)
    col = np.asarray(r["perm"], dtype=np.int64)
    keeps = not len(pm) or np.array_equal(col[pm[:, 0]], pm[:, 1])
    fun = _objective(A0, B0, col) if keeps else None
    if start is not None:  # the start (which keeps the pairs), where the search ended before it took it in
        start_fun = _objective(A0, B0, start)
        if fun is None or ((start_fun > fun) if maximize else (start_fun < fun)):
            col, fun = start, start_fun
    if fun is None:
        raise ValueError("partial_match: the search ended without a permutation that keeps the pairs "
                         "(give it more time_limit)")
    return _result(col, fun, r, notes)


#: Options of ``quadratic_assignment_batch``: those of one call that hold for every instance alike.
_BATCH_OPTIONS = frozenset({"maximize", "rng", "tol", "time_limit", "engine", "gpus", "threads", "precision",
                            "return_on_interrupt", "stop"})
#: Options of one call that the batch refuses (a ValueError, not a warning): each holds for one
#: instance (pairs, starts, a target in its terms) or one search (maxiter, callback).
_SINGLE_ONLY = frozenset({"partial_match", "partial_guess", "target", "maxiter", "callback"})


def _batch_sequence(name, X):
    """``As`` or ``Bs`` as a list of matrices: a sequence of 2-D arrays, or a 3-D array."""
    if isinstance(X, np.ndarray):
        if X.ndim != 3:
            raise ValueError(f"{name} must be a sequence of square matrices or a 3-D array, got a {X.ndim}-D array"
                             + (" (one instance: use quadratic_assignment)" if X.ndim == 2 else ""))
        return list(X)
    if isinstance(X, (str, bytes, Mapping)) or not isinstance(X, Iterable):
        raise TypeError(f"{name} must be a sequence of square matrices or a 3-D array, got {type(X).__name__}")
    return list(X)


def quadratic_assignment_batch(As, Bs, method=None, options=None):
    """Solve many quadratic assignment problems at once: instance k is ``As[k]``, ``Bs[k]``,
    solved as ``quadratic_assignment(As[k], Bs[k], method, options)`` would solve it alone,
    all in one call (on the GPU, instances of one size search together; on the CPU, one
    instance per thread).

    Parameters
    ----------
    As, Bs : sequences of 2-D array_like, or 3-D arrays
        Instance k is ``As[k]``, ``Bs[k]``: square, of the same shape, n ≤ 256 (``MAX_BYTE_N``). Sizes may
        differ from one instance to the next. Each pair is checked, and floats scaled to
        integers, as ``quadratic_assignment`` does, on its own.
    method : str
        As ``quadratic_assignment``'s, for every instance.
    options : dict, optional
        For every instance alike: ``maximize``, ``rng`` (the batch's seed is drawn from it;
        each instance's search runs with a seed of its own derived from it, ``res.seed``),
        ``tol`` (accepted), ``time_limit`` (s each instance's search may take, default 1),
        ``engine``, ``gpus`` (the batch runs on the first of them), ``threads`` (CPU engine:
        instances solved at once), ``precision``, ``return_on_interrupt``, ``stop`` (default
        "converged"); with method "faq" or "auto" also ``P0`` ("barycenter" or "randomized":
        no effect) and ``shuffle_input``. ``partial_match``, ``partial_guess``, ``target``,
        ``maxiter`` and ``callback`` hold for one instance or one search: the batch raises
        ValueError for them (call ``quadratic_assignment`` per instance). Unknown options give
        an ``OptimizeWarning`` and are ignored.

    Returns
    -------
    list of QAPResult
        One per instance, in order, with ``quadratic_assignment``'s fields.

    Raises
    ------
    ValueError, TypeError
        Bad input, each naming the argument or option and, for a matrix, the instance's index.
    """
    method, algo = _method(method)
    opts = _options_dict(options)
    _spec007(opts.get("rng"))
    faq = method in ("auto", "faq")
    _drop_unknown(opts, _BATCH_OPTIONS | _SINGLE_ONLY | (_FAQ_OPTIONS if faq else frozenset()))
    for k in sorted(_SINGLE_ONLY & opts.keys()):
        if opts[k] is not None:
            raise ValueError(f"options[{k!r}]: quadratic_assignment_batch does not take it (it holds for one "
                             f"instance or one search); call quadratic_assignment for each instance instead")
    P0 = opts.get("P0", "barycenter")
    if not isinstance(P0, str):
        raise ValueError("options['P0']: quadratic_assignment_batch takes only \"barycenter\" or \"randomized\"; "
                         "a matrix holds for one instance: call quadratic_assignment for it")
    if P0 not in {"barycenter", "randomized"}:
        raise ValueError("Invalid 'P0' parameter string")
    tol = opts.get("tol")
    if tol is not None and not _is_real(tol):
        raise TypeError(f"tol must be a real number, got {tol!r}")
    if tol is not None and not tol > 0:
        raise ValueError("'tol' must be a positive float")
    maximize = bool(opts.get("maximize", False))
    run = _Run(opts)
    As, Bs = _batch_sequence("As", As), _batch_sequence("Bs", Bs)
    if len(As) != len(Bs):
        raise ValueError(f"As and Bs must hold as many matrices: {len(As)} and {len(Bs)}")
    pairs = []
    for k, (A, B) in enumerate(zip(As, Bs)):
        try:
            pairs.append(_check_matrices(A, B, MAX_BYTE_N, _BATCH_TOO_LARGE))
        except (ValueError, TypeError) as e:
            raise type(e)(f"As[{k}], Bs[{k}]: {e}") from None
    seed, _ = _random_state(opts.get("rng"))

    results = [None] * len(pairs)
    batch, alone = [], []  # (k, native, exact, notes) searched together, and those only the CPU engine takes
    for k, (A0, B0) in enumerate(pairs):
        n = A0.shape[0]
        if n <= 1:
            results[k] = _forced(A0, B0, np.zeros((0, 2), dtype=np.int64), n)
            continue
        try:
            native, exact, engine, notes = _prepare(A0, B0, maximize, np.zeros((0, 2), dtype=np.int64),
                                                    run.precision, run.engine, names=(f"As[{k}]", f"Bs[{k}]"))
        except ValueError as e:
            raise ValueError(f"As[{k}], Bs[{k}]: {e}") from None
        (alone if engine != run.engine else batch).append((k, native, exact, notes))
    if batch:
        rs = _native.solve_batch([(_le_bytes(nat.Ai), _le_bytes(nat.Bi), nat.Ai.shape[0]) for _, nat, _, _ in batch],
                                 [f"As[{k}]" for k, _, _, _ in batch], algo, run.engine, run.time_limit, seed,
                                 run.gpus, run.threads, run.return_on_interrupt, run.stop)
        for (k, nat, exact, notes), r in zip(batch, rs):
            results[k] = _batch_result(pairs[k], r, notes, nat, exact)
    for k, native, _, notes in alone:  # u32 matrices under engine="auto": the CPU engine, one at a time
        n = native.Ai.shape[0]
        r = _native.solve(native.Ai.ravel().tolist(), native.Bi.ravel().tolist(), n, algo, "cpu", run.time_limit,
                          None, _native.instance_seed(seed, k), run.gpus, run.threads, run.return_on_interrupt, None,
                          None, None, run.stop)
        results[k] = _batch_result(pairs[k], r, notes)
    return results


def _le_bytes(M):
    """A matrix's entries as little-endian int64 bytes, row-major (the native batch's input)."""
    return np.ascontiguousarray(M, dtype="<i8").tobytes()


def _batch_result(pair, r, notes, native=None, exact=False):
    """Instance ``pair``'s result from the native dict ``r``. Where the native instance is the
    caller's integers unscaled (``exact``, exponents 0), its cost, which the library re-costed
    in 64 bits, is the caller's objective through ``native.user_value``; else the objective is
    computed on the caller's matrices (about 40 µs a pair of n = 30, 0.4 s of 10,000)."""
    col = np.asarray(r["perm"], dtype=np.int64)
    if native is not None and exact and native.ka + native.kb == 0:
        return _result(col, native.user_value(r["cost"], True), r, notes)
    return _result(col, _objective(pair[0], pair[1], col), r, notes)


def _method(method):
    """``method`` checked as scipy checks it (case ignored): (the method, lowercased; the
    algorithm to run, None for ``auto`` and scipy's methods)."""
    if method is None:
        method = "auto"
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {method!r}")
    method = method.lower()
    algorithms = _algorithms()
    if method not in ("auto",) + SCIPY_METHODS + algorithms:
        raise ValueError(f"method {method!r} must be one of {', '.join(('auto',) + SCIPY_METHODS + algorithms)}")
    return method, None if method in ("auto",) + SCIPY_METHODS else method


def _options_dict(options):
    """A copy of ``options`` (None: none), which must be a mapping."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict, got {type(options).__name__}")
    return dict(options)


def _drop_unknown(opts, known):
    """scipy's ``OptimizeWarning`` for the options not in ``known``, which are then dropped;
    the warning points at the caller of the public function that calls this."""
    unknown = [k for k in opts if k not in known]
    if unknown:
        warnings.warn(f"Unknown solver options: {', '.join(map(str, unknown))}", OptimizeWarning, stacklevel=3)
        for k in unknown:
            del opts[k]


def _effort(opts):
    """Option ``effort``, checked (None: "auto")."""
    effort = opts.get("effort")
    if effort is not None and not isinstance(effort, str):
        raise TypeError(f"effort must be a string, one of {', '.join(map(repr, EFFORTS))}, got {effort!r}")
    if effort is not None and effort not in EFFORTS:
        raise ValueError(f"effort = {effort!r}: one of {', '.join(map(repr, EFFORTS))}")
    return effort


class _Run:
    """qapgpu's options of a run, checked: ``time_limit`` (float), ``engine``, ``gpus`` (a
    list or None), ``threads``, ``precision``, ``return_on_interrupt`` and ``stop``."""

    def __init__(self, opts):
        time_limit = opts.get("time_limit", 1.0)
        if not _is_real(time_limit):
            raise TypeError(f"time_limit must be a number of seconds, got {time_limit!r}")
        if not 0 < float(time_limit) <= 1e9:
            raise ValueError(f"time_limit = {time_limit}: must be in (0, 1e9] seconds")
        self.time_limit = float(time_limit)
        engine = opts.get("engine", "auto")
        if not isinstance(engine, str):
            raise TypeError(f"engine must be a string, got {engine!r}")
        if engine not in ("auto", "gpu", "cpu"):
            raise ValueError(f"engine = {engine!r}: one of \"auto\", \"gpu\", \"cpu\"")
        self.engine = engine
        gpus = opts.get("gpus")
        if gpus is not None:
            if isinstance(gpus, (str, bytes)) or not isinstance(gpus, Iterable):
                raise TypeError(f"gpus must be a list of device ordinals, got {gpus!r}")
            gpus = list(gpus)
            if not all(_is_int(g) for g in gpus):
                raise TypeError(f"gpus must be a list of device ordinals (ints), got {gpus!r}")
            if any(g < 0 for g in gpus):
                raise ValueError(f"gpus = {gpus}: device ordinals are 0 or more")
            gpus = [int(g) for g in gpus]
        self.gpus = gpus
        threads = opts.get("threads", 0)
        if not _is_int(threads):
            raise TypeError(f"threads must be an integer, got {threads!r}")
        if not 0 <= threads <= MAX_THREADS:
            raise ValueError(f"threads = {threads}: must be in 0..{MAX_THREADS} (0 = all cores)")
        self.threads = int(threads)
        precision = opts.get("precision")
        if precision is not None and not _is_int(precision):
            raise TypeError(f"precision must be an integer (decimal digits) or None, got {precision!r}")
        if precision is not None and not -300 <= precision <= 300:
            raise ValueError(f"precision = {precision}: must be in -300..300")
        self.precision = precision
        self.return_on_interrupt = bool(opts.get("return_on_interrupt", False))
        stop = opts.get("stop")
        if stop is not None and not isinstance(stop, str):
            raise TypeError(f"stop must be a string, one of {', '.join(map(repr, STOP_RULES))}, got {stop!r}")
        if stop is not None and stop not in STOP_RULES:
            raise ValueError(f"stop = {stop!r}: one of {', '.join(map(repr, STOP_RULES))} (None: "
                             f"'converged' without a target, 'time' with one)")
        self.stop = stop


def _prepare(A0, B0, maximize, pm, precision, engine, names=("A", "B")):
    """The integer instance the engines search (``_Native``), whether the caller's objective
    is exact in integers, the engine to run it on and the notes that say why: a matrix only
    the CPU engine takes turns ``engine="auto"`` into the CPU engine (and ``"gpu"`` into a
    ValueError). Rounding floats warns (``_scaling_warning``), naming the matrices by
    ``names``."""
    ma, mb = _Matrix(names[0], A0), _Matrix(names[1], B0)
    native = _integer_instance(ma, mb, maximize, pm, precision)
    _scaling_warning(ma, mb, native, precision, len(pm) > 0, stacklevel=4)
    exact = ma.exact and mb.exact and not np.issubdtype(A0.dtype, np.floating) \
        and not np.issubdtype(B0.dtype, np.floating)
    notes = []
    if native.u32:
        why = (f"entries of {names[0]} and {names[1]} (max|{names[0]}| = {ma.maxabs:.6g}, max|{names[1]}| = "
               f"{mb.maxabs:.6g}) span more than 2**31 − 1 even shifted, and only the CPU engine takes such (u32) "
               f"matrices")
        if engine == "gpu":
            raise ValueError(f"engine = 'gpu': {why}; use engine='cpu' or 'auto'")
        if engine == "auto":
            engine = "cpu"
            notes.append(f"CPU engine: {why}")
    return native, exact, engine, notes


def _result(col, fun, r, notes):
    """The result of one search: ``col``, ``fun`` and the native call's dict ``r``."""
    stopped = r["stopped"]
    message = _MESSAGES.get(stopped, stopped)
    return QAPResult(col_ind=col, fun=fun, nit=r["iterations"], status=0, success=True, message=message,
                     time_to_target=r["time_to_target"], elapsed=r["elapsed"], engine=r["engine"], device=r["device"],
                     algorithm=r["algorithm"], seed=r["seed"],
                     interrupted=bool(r["interrupted"]) and r["stopped_by"] != "maxiter", notes=notes + r["notes"],
                     stopped=stopped, stop_rule=r["stop_rule"], last_improvement_s=r["last_improvement_s"],
                     search_start_s=r["search_start_s"])


def _objective(A0, B0, col):
    """Σ A[i,j]·B[col[i], col[j]] on the caller's matrices: exact int for integer (and bool)
    matrices, float64 otherwise."""
    ints = all(np.issubdtype(M.dtype, np.integer) or M.dtype == bool for M in (A0, B0))
    if ints:
        n = len(col)
        small = n == 0 or n * n * max(abs(int(A0.max())), abs(int(A0.min()))) * \
            max(abs(int(B0.max())), abs(int(B0.min()))) < 2**63
        kind = np.int64 if small else object  # exact either way
        return int(np.sum(A0.astype(kind) * B0.astype(kind)[np.ix_(col, col)]))
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
                     engine="none", device="none", algorithm="none", seed=None, interrupted=False, notes=[],
                     stopped="proven optimal", stop_rule=None, last_improvement_s=None,
                     search_start_s=None)


def _as_integer_matrix(name, M):
    """An integral matrix as int64 and 1, or (None, 0) where it has non-integral entries."""
    M = np.asarray(M)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {M.shape}")
    if not (M.dtype == bool or np.issubdtype(M.dtype, np.integer) or np.issubdtype(M.dtype, np.floating)):
        raise ValueError(f"{name} must hold numbers (integer or float), got dtype {M.dtype}")
    m = _Matrix(name, M)
    if not m.exact:
        return None, 0
    X = m.scaled(0)
    if X is None:
        raise ValueError(f"{name} has entries too large for 64-bit costs")
    return X, 1


def read_qaplib(path):
    """A QAPLIB .dat file's (A, B) as int64 numpy arrays."""
    n, a, b = _native.read_qaplib(str(path))
    return np.asarray(a, dtype=np.int64).reshape(n, n), np.asarray(b, dtype=np.int64).reshape(n, n)


def write_qaplib(path, A, B):
    """Writes (A, B) as a QAPLIB .dat file (n, then A, then B; integer matrices)."""
    Ai, sa = _as_integer_matrix("A", A)
    Bi, sb = _as_integer_matrix("B", B)
    if (sa, sb) != (1, 1):
        raise ValueError("write_qaplib: QAPLIB files hold integers; A or B has non-integral entries")
    if Ai.shape != Bi.shape:
        raise ValueError(f"write_qaplib: A and B must have the same shape, got {Ai.shape} and {Bi.shape}")
    _native.write_qaplib(str(path), Ai.shape[0], Ai.ravel().tolist(), Bi.ravel().tolist())


def solve_file(path, method="auto", options=None):
    """``quadratic_assignment`` on a QAPLIB .dat file."""
    A, B = read_qaplib(path)
    return quadratic_assignment(A, B, method=method, options=options)
