"""Issue 39, item 2: the stop rule (option ``stop``): a small instance is proven optimal, a
larger one returns once converged, ``stop="time"`` runs to the limit, and the result says why
it stopped. Bounds are generous: the machine may be slow or busy."""
import itertools
import time
from pathlib import Path

import numpy as np
import pytest

import qapgpu


def pair(n, seed, high=50):
    r = np.random.default_rng(seed)
    return r.integers(0, high, (n, n)), r.integers(0, high, (n, n))


def objective(A, B, col):
    """The objective of ``col`` (``col[i]`` the location of facility i), recomputed."""
    return int(np.sum(A * B[np.ix_(col, col)]))


def brute(A, B):
    return min(objective(A, B, p) for p in map(list, itertools.permutations(range(A.shape[0]))))


def test_small_instance_is_proven_optimal_and_returns_fast():
    A, B = pair(9, 1)
    t = time.perf_counter()
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 10, "engine": "cpu", "rng": 3})
    wall = time.perf_counter() - t
    assert res.stopped == "proven optimal" and res.message == "proven optimal"
    assert res.stop_rule == "converged" and res.last_improvement_s is None
    assert wall < 3 and res.fun == brute(A, B)
    assert sorted(res.col_ind.tolist()) == list(range(9))


QAPLIB = Path(__file__).resolve().parents[2] / "data" / "qaplib"


@pytest.mark.parametrize("name, optimum", [("nug12", 578), ("had12", 1652), ("chr12a", 9552)])
def test_qaplib_n12_is_proven_optimal(name, optimum):
    path = QAPLIB / f"{name}.dat"
    if not path.exists():
        pytest.skip(f"{path} is not in this checkout")
    t = time.perf_counter()
    res = qapgpu.solve_file(path, options={"time_limit": 10, "engine": "cpu"})
    assert res.stopped == "proven optimal" and time.perf_counter() - t < 5
    assert res.fun == optimum


def test_larger_instance_returns_once_converged():
    A, B = pair(25, 4)
    t = time.perf_counter()
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 10, "engine": "cpu", "rng": 5})
    wall = time.perf_counter() - t
    assert res.stopped == "converged" and res.message == "converged" and res.stop_rule == "converged"
    assert wall < 8, wall
    assert res.last_improvement_s is not None and 0 <= res.last_improvement_s <= res.elapsed
    assert sorted(res.col_ind.tolist()) == list(range(25))


def test_time_rule_runs_to_the_limit():
    A, B = pair(9, 1)  # small enough to be proven optimal under the default rule
    t = time.perf_counter()
    res = qapgpu.quadratic_assignment(A, B, options={"stop": "time", "time_limit": 0.5, "engine": "cpu"})
    wall = time.perf_counter() - t
    assert res.stopped == "time limit" and res.message == "time limit" and res.stop_rule == "time"
    assert 0.4 <= wall < 5 and res.last_improvement_s is None


def test_a_target_defaults_to_the_time_rule():
    A, B = pair(9, 1)
    res = qapgpu.quadratic_assignment(A, B, options={"target": brute(A, B), "time_limit": 10, "engine": "cpu"})
    assert res.stop_rule == "time" and res.stopped == "target" and res.message == "target reached"


def test_converged_with_a_target_may_prove_it():
    A, B = pair(9, 1)
    res = qapgpu.quadratic_assignment(A, B, options={"target": brute(A, B), "stop": "converged",
                                                     "time_limit": 10, "engine": "cpu"})
    assert res.stopped == "proven optimal" and res.time_to_target is not None


def test_maxiter_and_callback_say_so():
    A, B = pair(30, 6)
    res = qapgpu.quadratic_assignment(A, B, method="ga-independent",
                                      options={"maxiter": 2, "time_limit": 30, "engine": "cpu"})
    assert res.stopped == "maxiter" and res.message == "maxiter reached" and not res.interrupted
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 30, "engine": "cpu", "stop": "time",
                                                     "callback": lambda best, s: s > 0.3})
    assert res.stopped == "callback" and res.message == "stopped by the callback"


@pytest.mark.parametrize("option, bad", [("stop", "Time"), ("stop", "never"), ("stop", ""), ("stop", "converge"),
                                         ("effort", "Long"), ("effort", ""), ("effort", "fast")])
def test_a_bad_rule_raises_value_error(option, bad):
    A, B = pair(6, 1)
    with pytest.raises(ValueError, match=option):
        qapgpu.quadratic_assignment(A, B, options={option: bad})


@pytest.mark.parametrize("option, bad", [("stop", 1), ("effort", 2)])
def test_a_rule_of_the_wrong_type_raises_type_error(option, bad):
    A, B = pair(6, 1)
    with pytest.raises(TypeError, match=option):
        qapgpu.quadratic_assignment(A, B, options={option: bad})


@pytest.mark.parametrize("effort", ["auto", "short", "long", None])
def test_every_effort_runs(effort):
    A, B = pair(12, 2)
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 2, "engine": "cpu", "rng": 1, "effort": effort})
    assert res.fun == objective(A, B, res.col_ind)
