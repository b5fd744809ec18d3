"""qapgpu.quadratic_assignment against brute force and scipy, dtypes, errors, Ctrl-C."""
import itertools
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import qapgpu

# scipy's SPEC-7 transition warns on integer seeds (qapgpu gives the installed scipy's warnings).
pytestmark = pytest.mark.filterwarnings("ignore:The behavior when the rng option:FutureWarning")

QUICK = {"time_limit": 0.3, "rng": 7, "engine": "cpu"}


def brute(A, B, maximize=False):
    n = A.shape[0]
    costs = [(np.sum(A * B[np.ix_(p, p)]), p) for p in map(list, itertools.permutations(range(n)))]
    return (max if maximize else min)(costs, key=lambda c: c[0])


def random_pair(n, seed, dtype=np.int64, low=0):
    r = np.random.default_rng(seed)
    return r.integers(low, 50, (n, n)).astype(dtype), r.integers(low, 50, (n, n)).astype(dtype)


@pytest.mark.parametrize("n", [3, 5, 7])
def test_minimum_equals_brute_force(n):
    A, B = random_pair(n, n)
    best, _ = brute(A, B)
    res = qapgpu.quadratic_assignment(A, B, options=QUICK)
    assert res.fun == best
    assert sorted(res.col_ind) == list(range(n))
    assert res.fun == np.sum(A * B[np.ix_(res.col_ind, res.col_ind)])


@pytest.mark.parametrize("n", [4, 6])
def test_maximize_equals_brute_force(n):
    A, B = random_pair(n, 10 + n)
    best, _ = brute(A, B, maximize=True)
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, maximize=True))
    assert res.fun == best


def test_above_256_runs_the_wide_walks():
    """n = 300: the default method runs `ts` on the wide path; a byte-row method says why not."""
    rng = np.random.default_rng(3)
    A, B = rng.integers(0, 30, (300, 300)), rng.integers(0, 30, (300, 300))
    res = qapgpu.quadratic_assignment(A, B, options={**QUICK, "stop": "time"})
    assert sorted(res.col_ind) == list(range(300))
    assert res.fun == np.sum(A * B[np.ix_(res.col_ind, res.col_ind)])
    with pytest.raises(ValueError, match="above 256"):
        qapgpu.quadratic_assignment(A, B, method="cga", options=QUICK)


def test_negative_entries():
    A, B = random_pair(6, 3, low=-20)
    assert qapgpu.quadratic_assignment(A, B, options=QUICK).fun == brute(A, B)[0]


def test_never_worse_than_scipy_faq():
    scipy_opt = pytest.importorskip("scipy.optimize")
    for seed in range(3):
        A, B = random_pair(10, 100 + seed)
        ours = qapgpu.quadratic_assignment(A, B, options=QUICK)
        theirs = scipy_opt.quadratic_assignment(A, B, method="faq", options={"rng": seed})
        assert ours.fun <= theirs.fun
        assert set(["col_ind", "fun", "nit"]) <= set(ours.keys())


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64, bool])
def test_dtypes(dtype):
    A, B = random_pair(5, 9)
    A, B = A.astype(dtype), B.astype(dtype)
    best = brute(A.astype(np.float64), B.astype(np.float64))[0]
    assert qapgpu.quadratic_assignment(A, B, options=QUICK).fun == pytest.approx(best)


def test_non_integral_floats_are_scaled_and_fun_is_exact():
    r = np.random.default_rng(4)
    A, B = r.random((6, 6)), r.random((6, 6))
    best = brute(A, B)[0]
    res = qapgpu.quadratic_assignment(A, B, options=QUICK)
    assert res.fun == pytest.approx(np.sum(A * B[np.ix_(res.col_ind, res.col_ind)]), abs=0)
    assert res.fun == pytest.approx(best, rel=1e-6)


def test_target_stops_early_and_reports_the_time():
    A, B = random_pair(12, 5)
    first = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, time_limit=1.0))
    again = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, time_limit=30.0, target=first.fun))
    assert again.fun <= first.fun and again.time_to_target is not None and again.elapsed < 30


@pytest.mark.parametrize("A,B,msg", [
    (np.zeros((3, 4)), np.zeros((3, 4)), "square"),
    (np.zeros((3, 3)), np.zeros((4, 4)), "equal size"),
    (np.full((3, 3), np.nan), np.zeros((3, 3)), "NaN"),
    (np.zeros((2049, 2049)), np.zeros((2049, 2049)), "exceeds 2048"),
    (np.array([["a"] * 3] * 3), np.zeros((3, 3)), "numbers"),
])
def test_bad_input_raises_value_error(A, B, msg):
    with pytest.raises(ValueError, match=msg):
        qapgpu.quadratic_assignment(A, B, options=QUICK)


def test_bad_options():
    A, B = random_pair(4, 1)
    with pytest.warns(qapgpu.OptimizeWarning, match="Unknown solver options: bogus"):
        qapgpu.quadratic_assignment(A, B, options=dict(QUICK, bogus=1))
    with pytest.raises(ValueError, match="engine"):
        qapgpu.quadratic_assignment(A, B, options={"engine": "tpu"})
    with pytest.raises(ValueError, match="method 'simplex' must be one of auto, faq, 2opt, .*memetic"):
        qapgpu.quadratic_assignment(A, B, method="simplex", options=QUICK)
    for pm, msg in [([[0, 0], [0, 1]], "unique"), ([[0, 4]], "entries"), ([0, 1, 2], "two columns"),
                    ([[0.5, 1]], "integer")]:
        with pytest.raises(ValueError, match=msg):
            qapgpu.quadratic_assignment(A, B, options=dict(QUICK, partial_match=pm))


def brute_matched(A, B, pm, maximize=False):
    n = A.shape[0]
    ok = (p for p in map(list, itertools.permutations(range(n))) if all(p[r] == c for r, c in pm))
    costs = [(np.sum(A * B[np.ix_(p, p)]), p) for p in ok]
    return (max if maximize else min)(costs, key=lambda c: c[0])[0]


@pytest.mark.parametrize("n,pm,maximize,low", [
    (6, [[0, 3]], False, 0),
    (7, [[1, 2], [4, 0], [6, 6]], False, 0),
    (7, [[2, 5], [3, 1]], True, 0),
    (6, [[0, 1], [5, 2]], False, -30),
    (8, [[7, 0], [0, 7], [3, 3]], False, 0),
])
def test_partial_match_equals_brute_force(n, pm, maximize, low):
    A, B = random_pair(n, 40 + n, low=low)
    A[np.diag_indices(n)] += 7  # non-zero diagonals meet the pinning penalty's cross terms
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, partial_match=pm, maximize=maximize))
    assert all(res.col_ind[r] == c for r, c in pm)
    assert res.fun == brute_matched(A, B, pm, maximize)


def test_partial_match_target_and_callback_are_in_the_callers_terms():
    A, B = random_pair(8, 77)
    pm = [[0, 2], [1, 0]]
    best = brute_matched(A, B, pm)
    seen = []
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, time_limit=20, partial_match=pm, target=best,
                                                         callback=lambda b, s: seen.append(b)))
    assert res.fun == best and res.time_to_target is not None and res.elapsed < 20
    assert seen and seen[-1] == best


def test_partial_match_fixing_everything_and_against_scipy():
    A, B = random_pair(5, 3)
    res = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, partial_match=[[0, 4], [1, 3], [2, 2], [3, 1]]))
    assert list(res.col_ind) == [4, 3, 2, 1, 0] and res.fun == np.sum(A * B[np.ix_(res.col_ind, res.col_ind)])
    scipy_opt = pytest.importorskip("scipy.optimize")
    A, B = random_pair(12, 5)
    pm = np.array([[0, 5], [3, 3], [11, 0]])
    theirs = scipy_opt.quadratic_assignment(A, B, method="faq", options={"rng": 0, "partial_match": pm})
    ours = qapgpu.quadratic_assignment(A, B, options=dict(QUICK, partial_match=pm))
    assert (ours.col_ind[pm[:, 0]] == pm[:, 1]).all() and ours.fun <= theirs.fun


def test_cpu_engine_says_so_without_a_gpu():
    A, B = random_pair(6, 2)
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 0.2, "engine": "auto"})
    if qapgpu.gpu_unavailable_reason() is None:
        assert res.engine == "gpu"
    else:
        assert res.engine == "cpu" and any("CPU engine" in n for n in res.notes)


def test_qaplib_files(tmp_path):
    A, B = random_pair(5, 6)
    path = tmp_path / "t.dat"
    path.write_text("5\n" + "\n".join(" ".join(map(str, r)) for r in A) + "\n" + "\n".join(" ".join(map(str, r)) for r in B) + "\n")
    A2, B2 = qapgpu.read_qaplib(path)
    assert (A2 == A).all() and (B2 == B).all()
    assert qapgpu.solve_file(path, options=QUICK).fun == brute(A, B)[0]
    qapgpu.write_qaplib(tmp_path / "w.dat", A, B)
    A3, B3 = qapgpu.read_qaplib(tmp_path / "w.dat")
    assert (A3 == A).all() and (B3 == B).all()
    with pytest.raises(ValueError, match="integers"):
        qapgpu.write_qaplib(tmp_path / "x.dat", A + 0.5, B)
    with pytest.raises(ValueError, match="t2.dat"):
        bad = tmp_path / "t2.dat"
        bad.write_text("3 1 2")
        qapgpu.read_qaplib(bad)


def test_ctrl_c_raises_keyboard_interrupt():
    code = ("import numpy as np, qapgpu\n"
            "A = np.random.default_rng(0).integers(0, 100, (60, 60))\n"
            "print('started', flush=True)\n"
            "try:\n"
            "    qapgpu.quadratic_assignment(A, A.T, options={'time_limit': 120, 'engine': 'cpu', 'stop': 'time'})\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert "interrupted" in out


def test_progress_callback_reports_and_can_stop():
    A, B = random_pair(60, 8)
    seen = []

    def cb(best, seconds):
        seen.append((best, seconds))
        return seconds > 0.5  # stop after half a second

    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 30, "engine": "cpu", "callback": cb, "rng": 1})
    assert res.elapsed < 10 and seen and seen[-1][0] == res.fun
    assert all(b1 >= b2 for (b1, _), (b2, _) in zip(seen, seen[1:]))  # the best never worsens
    with pytest.raises(TypeError, match="callback"):
        qapgpu.quadratic_assignment(A, B, options={"callback": 3})


@pytest.mark.parametrize("limit", [1e-12, 1e-9, 1e-3])
def test_any_positive_time_limit_answers_with_a_permutation(limit):
    # Issue 37: the shortest limits raised "the engine returned an invalid permutation".
    rng = np.random.default_rng(3)
    A, B = rng.integers(0, 100, (20, 20)), rng.integers(0, 100, (20, 20))
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": limit, "engine": "cpu"})
    assert sorted(res.col_ind.tolist()) == list(range(20))
    assert res.fun == int((A * B[np.ix_(res.col_ind, res.col_ind)]).sum())
