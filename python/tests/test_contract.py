"""Issue 39, items 1, 3 and 4: scipy's option contract (warnings, rng forms, partial_guess,
P0, maxiter, tol and their checks), floats in the caller's terms (scale chosen from the
data, warnings, errors naming the option), callbacks' exceptions and argument errors."""
import itertools
import time
import warnings

import numpy as np
import pytest

import qapgpu

pytestmark = pytest.mark.filterwarnings("ignore:The behavior when the rng option:FutureWarning")

QUICK = {"time_limit": 0.3, "rng": 7, "engine": "cpu"}


def brute(A, B, maximize=False, keep=()):
    n = A.shape[0]
    best = None
    for p in itertools.permutations(range(n)):
        if any(p[r] != c for r, c in keep):
            continue
        p = list(p)
        c = np.sum(A.astype(np.float64) * B.astype(np.float64)[np.ix_(p, p)]) if A.dtype.kind == "f" or \
            B.dtype.kind == "f" else int(np.sum(A.astype(object) * B.astype(object)[np.ix_(p, p)]))
        if best is None or (c > best[0] if maximize else c < best[0]):
            best = (c, p)
    return best


def pair(n, seed, high=50):
    r = np.random.default_rng(seed)
    return r.integers(0, high, (n, n)), r.integers(0, high, (n, n))


class no_warnings(warnings.catch_warnings):
    """Every warning an error but scipy's integer-seed FutureWarning."""

    def __enter__(self):
        super().__enter__()
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "The behavior when the rng option", FutureWarning)


# --- 1. scipy's contract -------------------------------------------------------------------

def test_unknown_options_warn_and_the_solve_goes_on():
    A, B = pair(5, 1)
    with pytest.warns(qapgpu.OptimizeWarning, match="Unknown solver options: ekki"):
        res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, ekki=True))
    assert res.fun == brute(A, B)[0]
    # scipy's FAQ options are FAQ's: with method "2opt" they are unknown, as in scipy.
    with pytest.warns(qapgpu.OptimizeWarning, match="P0"):
        qapgpu.quadratic_assignment(A, B, method="2opt", options=dict(QUICK, P0="barycenter"))
    with pytest.warns(qapgpu.OptimizeWarning, match="shuffle_input"):
        qapgpu.quadratic_assignment(A, B, method="ts", options=dict(QUICK, shuffle_input=True))


def test_optimize_warning_is_scipys():
    scipy_opt = pytest.importorskip("scipy.optimize")
    assert qapgpu.OptimizeWarning is scipy_opt.OptimizeWarning


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("rng", [None, 3, np.int64(3), np.random.default_rng(0), np.random.RandomState(0)],
                         ids=["None", "int", "np.int64", "Generator", "RandomState"])
def test_every_rng_form_scipy_takes(rng):
    A, B = pair(5, 2)
    res = qapgpu.quadratic_assignment(A, B, options={"rng": rng, "time_limit": 0.2, "engine": "cpu"})
    assert res.fun == brute(A, B)[0] and isinstance(res.seed, int)


def test_same_seed_same_start():
    A, B = pair(6, 2)
    guess = [[0, 1]]
    r1 = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, rng=5, partial_guess=guess, time_limit=1e-9))
    r2 = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, rng=5, partial_guess=guess, time_limit=1e-9))
    assert r1.seed == r2.seed


@pytest.mark.parametrize("rng", ["abc", 1.5, object()])
def test_a_bad_rng_is_a_value_error_naming_it(rng):
    A, B = pair(4, 2)
    with pytest.raises(ValueError, match="rng"):
        qapgpu.quadratic_assignment(A, B, options={"rng": rng})


@pytest.mark.parametrize("method", ["auto", "faq", "2opt", "FAQ"] + list(qapgpu._algorithms()))
def test_partial_guess_is_a_start_for_every_method(method):
    # The optimum as the guess, and a limit too short for the search to take a step: the
    # answer is the start, never the identity the engines hold before their first step.
    A, B = pair(8, 11)
    opt, perm = brute(A, B)
    guess = np.array([np.arange(8), perm]).T
    res = qapgpu.quadratic_assignment(A, B, method=method, options=dict(QUICK, partial_guess=guess, time_limit=1e-9))
    assert res.fun == opt


def test_partial_guess_is_handed_to_the_search():
    # One step and the guess: the search takes the start in after its first step.
    A, B = pair(12, 5)
    best = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, time_limit=1.0))
    guess = np.array([np.arange(12), best.col_ind]).T
    res = qapgpu.quadratic_assignment(A, B, method="ga-independent",
                                      options=dict(QUICK, partial_guess=guess, maxiter=1, time_limit=30))
    assert res.fun <= best.fun and res.elapsed < 10


def test_partial_guess_with_partial_match_keeps_the_pairs():
    A, B = pair(7, 3)
    pm = np.array([[0, 6], [3, 2]])
    guess = np.array([[0, 1], [1, 6], [2, 0]])  # clashes with the pairs: the pairs win
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, partial_match=pm, partial_guess=guess))
    assert (res.col_ind[pm[:, 0]] == pm[:, 1]).all()
    assert res.fun == brute(A, B, keep=pm.tolist())[0]


def test_p0_a_permutation_matrix_is_a_start():
    A, B = pair(8, 12)
    opt, perm = brute(A, B)
    P0 = np.eye(8)[perm]
    res = qapgpu.quadratic_assignment(A, B, method="faq", options=dict(QUICK, P0=P0, time_limit=1e-9))
    assert res.fun == opt
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, P0="randomized"))
    assert res.fun == opt


def test_maxiter_bounds_the_steps():
    A, B = pair(40, 9)
    t = time.perf_counter()
    res = qapgpu.quadratic_assignment(A, B, method="ga-independent", options=dict(QUICK, maxiter=2, time_limit=60))
    assert time.perf_counter() - t < 30 and res.message == "maxiter reached" and not res.interrupted
    assert sorted(res.col_ind) == list(range(40))


def test_tol_is_accepted():
    A, B = pair(5, 2)
    assert qapgpu.quadratic_assignment(A, B, options=dict(QUICK, tol=0.5)).fun == brute(A, B)[0]


@pytest.mark.parametrize("opts,exc,msg", [
    ({"maxiter": 1.5}, TypeError, "maxiter"),
    ({"maxiter": -1}, ValueError, "'maxiter' must be a positive integer"),
    ({"maxiter": 0}, ValueError, "'maxiter' must be a positive integer"),
    ({"tol": -1}, ValueError, "'tol' must be a positive float"),
    ({"tol": "x"}, TypeError, "tol"),
    ({"P0": "random"}, ValueError, "Invalid 'P0' parameter"),
    ({"P0": np.ones((3, 3))}, ValueError, "`P0` matrix must have shape m' x m', where m'=n-m"),
    ({"P0": np.full((4, 4), 0.3)}, ValueError, "`P0` matrix must be doubly stochastic"),
    ({"P0": np.eye(3), "partial_match": [[0, 0]]}, None, None),  # m' = n − m
    ({"partial_guess": np.ones((2, 2))}, ValueError, "`partial_guess` column entries must be unique"),
    ({"partial_guess": [[0, 5]]}, ValueError, "`partial_guess` entries must be less than number of nodes"),
    ({"partial_guess": [[-1, 0]]}, ValueError, "`partial_guess` must contain only positive indices"),
    ({"partial_guess": np.zeros((5, 2))}, ValueError, "`partial_guess` can have only as many entries"),
    ({"partial_guess": [[0, 1, 2]]}, ValueError, "`partial_guess` must have two columns"),
    ({"partial_match": np.zeros((2, 2, 2))}, ValueError, "`partial_match` must have exactly two"),
])
def test_scipys_checks_with_scipys_exceptions(opts, exc, msg):
    A, B = pair(4, 1)
    if exc is None:
        qapgpu.quadratic_assignment(A, B, options=dict(QUICK, **opts))
        return
    with pytest.raises(exc, match=msg):
        qapgpu.quadratic_assignment(A, B, options=dict(QUICK, **opts))


def test_scipy_raises_the_same_for_its_own_checks():
    scipy_opt = pytest.importorskip("scipy.optimize")
    A = np.identity(3)
    for opts in [{"maxiter": 1.5}, {"maxiter": -1}, {"tol": -1}, {"P0": "random"}, {"P0": np.ones((2, 2))},
                 {"partial_match": [[0, 0], [0, 1]]}]:
        kinds = []
        for f in (scipy_opt.quadratic_assignment, qapgpu.quadratic_assignment):
            try:
                f(A, A, options=opts)
                kinds.append(None)
            except Exception as e:  # noqa: BLE001 - comparing the kinds
                kinds.append(type(e))
        assert kinds[0] is kinds[1] and kinds[0] is not None, opts


# --- 3. floats in the caller's terms --------------------------------------------------------

def test_tiny_floats_keep_their_order_and_find_the_optimum():
    r = np.random.default_rng(7)
    A, B = r.random((7, 7)) * 1e-9, r.random((7, 7))
    with no_warnings():
        res = qapgpu.quadratic_assignment(A, B, options=QUICK)
    assert res.fun == pytest.approx(brute(A, B)[0], rel=1e-9)


def test_large_floats_work_without_naming_a_precision():
    r = np.random.default_rng(7)
    A, B = r.random((7, 7)) * 1e4, r.random((7, 7)) * 1e4
    with no_warnings():
        res = qapgpu.quadratic_assignment(A, B, options=QUICK)
    assert res.fun == pytest.approx(brute(A, B)[0], rel=1e-9)


def test_a_lossy_precision_warns():
    r = np.random.default_rng(7)
    A, B = r.random((6, 6)) * 1e-9, r.random((6, 6))
    with pytest.warns(qapgpu.OptimizeWarning, match="distinct entries of A equal"):
        qapgpu.quadratic_assignment(A, B, options=dict(QUICK, precision=6))
    with pytest.warns(qapgpu.OptimizeWarning, match="of its scale"):
        qapgpu.quadratic_assignment(A + 1, B, options=dict(QUICK, precision=2))


def test_huge_equal_floats_are_a_clean_value_error():
    with no_warnings():  # no numpy RuntimeWarning on the way
        with pytest.raises(ValueError, match=r"max\|A\| = 1e\+30.*64 bits.*'precision': -\d+"):
            qapgpu.quadratic_assignment(np.full((5, 5), 1e30), np.full((5, 5), 1e30), options=QUICK)


def test_the_suggested_precision_works():
    A, B = np.full((5, 5), 1e30), np.full((5, 5), 1e30)
    with pytest.raises(ValueError) as e:
        qapgpu.quadratic_assignment(A, B, options=QUICK)
    p = int(str(e.value).split("'precision': ")[1].split("}")[0])
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, precision=p))
    assert res.fun == pytest.approx(25e60)


def test_integers_too_large_name_the_values_and_precision():
    A = pair(5, 3)[0] * 2**40
    with pytest.raises(ValueError, match=r"max\|A\| = [\d.]+e\+13.*'precision': -\d+"):
        qapgpu.quadratic_assignment(A, A, options=QUICK)


@pytest.mark.parametrize("low,high", [
    (2**31, 2**32 - 1),  # above 2³¹: shifted within i32 (the GPU's type), maximised too
    (0, 2**32 - 1),  # u32 even shifted: the CPU engine
    (-2**20, 2**32 - 2**21),  # negatives with entries above 2³¹: shifted to non-negative
])
@pytest.mark.parametrize("maximize", [False, True])
def test_maximize_takes_the_range_minimise_takes(low, high, maximize):
    r = np.random.default_rng(5)
    A = r.integers(low, high, (6, 6), dtype=np.int64)
    B = r.integers(0, 3, (6, 6), dtype=np.int64)
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, maximize=maximize))
    assert res.fun == brute(A, B, maximize)[0]
    # engine "auto": on the GPU where a shift brings the entries within i32, else the CPU.
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, maximize=maximize, engine="auto"))
    assert res.fun == brute(A, B, maximize)[0]
    if high - low > 2**31:
        assert res.engine == "cpu" and any("u32" in note for note in res.notes)
        with pytest.raises(ValueError, match="engine = 'gpu'.*u32"):
            qapgpu.quadratic_assignment(A, B, options=dict(QUICK, maximize=maximize, engine="gpu"))


def test_float_target_and_callback_in_the_callers_terms():
    r = np.random.default_rng(8)
    A, B = r.random((7, 7)), r.random((7, 7)) * 1e-3
    best = brute(A, B)[0]
    seen = []
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, time_limit=20, target=best * (1 + 1e-7),
                                                         callback=lambda b, s: seen.append(b)))
    assert res.time_to_target is not None and res.elapsed < 20
    assert seen[-1] == pytest.approx(res.fun, rel=1e-6)


def test_maximize_target_with_floats():
    r = np.random.default_rng(9)
    A, B = r.random((6, 6)), r.random((6, 6))
    best = brute(A, B, maximize=True)[0]
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, maximize=True, time_limit=20,
                                                         target=best * (1 - 1e-7)))
    assert res.time_to_target is not None and res.fun == pytest.approx(best, rel=1e-9)


@pytest.mark.filterwarnings("ignore:qapgpu searches on integers")  # the penalties' headroom costs digits
def test_partial_match_with_floats_finds_a_scale_that_pins():
    r = np.random.default_rng(10)
    A, B = r.random((7, 7)), r.random((7, 7))
    pm = [[0, 3], [5, 1]]
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, partial_match=pm))
    assert res.fun == pytest.approx(brute(A, B, keep=pm)[0], rel=1e-9)


# --- 4. callbacks and arguments -------------------------------------------------------------

class Boom(Exception):
    pass


def test_a_callbacks_exception_stops_the_search_and_is_raised():
    A, B = pair(60, 8, 100)
    calls = []

    def cb(best, seconds):
        calls.append(seconds)
        raise Boom("from the callback")

    t = time.perf_counter()
    with pytest.raises(Boom, match="from the callback"):
        qapgpu.quadratic_assignment(A, B, options={"time_limit": 30, "engine": "cpu", "callback": cb})
    assert time.perf_counter() - t < 10 and len(calls) == 1
    # The session goes on: the next solve runs normally.
    assert qapgpu.quadratic_assignment(*pair(5, 1), options=QUICK).fun == brute(*pair(5, 1))[0]


@pytest.mark.parametrize("opts,exc,name", [
    ({"threads": -1}, ValueError, "threads"),
    ({"threads": 10**6}, ValueError, "threads"),
    ({"threads": 1.5}, TypeError, "threads"),
    ({"threads": "4"}, TypeError, "threads"),
    ({"time_limit": 0}, ValueError, "time_limit"),
    ({"time_limit": -1}, ValueError, "time_limit"),
    ({"time_limit": "1"}, TypeError, "time_limit"),
    ({"time_limit": float("nan")}, ValueError, "time_limit"),
    ({"target": "x"}, TypeError, "target"),
    ({"target": float("inf")}, ValueError, "target"),
    ({"engine": 3}, TypeError, "engine"),
    ({"engine": "tpu"}, ValueError, "engine"),
    ({"gpus": [-1]}, ValueError, "gpus"),
    ({"gpus": "0"}, TypeError, "gpus"),
    ({"gpus": [0.5]}, TypeError, "gpus"),
    ({"gpus": 3}, TypeError, "gpus"),
    ({"precision": "6"}, TypeError, "precision"),
    ({"precision": 1000}, ValueError, "precision"),
    ({"callback": 3}, TypeError, "callback"),
    ({"rng": "x"}, ValueError, "rng"),
])
def test_argument_errors_name_the_argument(opts, exc, name):
    A, B = pair(4, 1)
    with pytest.raises(exc, match=name):
        qapgpu.quadratic_assignment(A, B, options=opts)


def test_method_and_options_of_the_wrong_type():
    A, B = pair(4, 1)
    with pytest.raises(TypeError, match="method"):
        qapgpu.quadratic_assignment(A, B, method=3)
    with pytest.raises(ValueError, match="method"):
        qapgpu.quadratic_assignment(A, B, method="simplex")
    with pytest.raises(TypeError, match="options"):
        qapgpu.quadratic_assignment(A, B, options=[("time_limit", 1)])
