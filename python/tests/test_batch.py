"""Issue 39, item 5: ``quadratic_assignment_batch``, many QAPs in one call. On the CPU engine:
every answer a permutation whose ``fun`` is the objective recomputed here, small instances
optimal (as brute force says), the single call's fields and contract, sizes that differ,
``maximize``, floats, a 3-D array, seeds, and every argument error naming the argument and
the instance. Bounds are generous: the machine may be slow or busy."""
import itertools
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import qapgpu

CPU = {"engine": "cpu", "time_limit": 2.0}


def pair(n, seed, high=50, dtype=np.int64):
    r = np.random.default_rng(seed)
    return r.integers(0, high, (n, n)).astype(dtype), r.integers(0, high, (n, n)).astype(dtype)


def objective(A, B, col):
    return np.sum(A * B[np.ix_(col, col)])


def brute(A, B, maximize=False):
    n = A.shape[0]
    costs = [objective(A, B, list(p)) for p in itertools.permutations(range(n))]
    return max(costs) if maximize else min(costs)


def check(res, A, B):
    """A permutation of the instance's n whose ``fun`` is its objective, recomputed."""
    n = A.shape[0]
    col = np.asarray(res.col_ind)
    assert sorted(col.tolist()) == list(range(n))
    assert res.fun == pytest.approx(objective(A, B, col), rel=1e-12, abs=1e-12)


def test_sizes_differ_and_every_answer_is_a_permutation_with_its_cost():
    sizes = [5, 9, 14, 20, 7, 30]
    As, Bs = zip(*(pair(n, k) for k, n in enumerate(sizes)))
    t = time.perf_counter()
    results = qapgpu.quadratic_assignment_batch(list(As), list(Bs), options=dict(CPU, rng=3))
    assert time.perf_counter() - t < 30
    assert len(results) == len(sizes)
    for res, A, B, n in zip(results, As, Bs, sizes):
        check(res, A, B)
        assert isinstance(res.fun, int) and res.engine == "cpu" and res.success and res.status == 0
        assert res.elapsed <= 2.0 + 0.5, res.elapsed  # time_limit bounds each instance's search
        assert res.stop_rule == "converged" and res.stopped in ("proven optimal", "converged", "time limit")
        if n <= 8:
            assert res.fun == brute(A, B), n
            assert res.stopped == "proven optimal" and res.message == "proven optimal"


def test_the_fields_and_answers_of_single_calls():
    As, Bs = zip(*(pair(n, 10 + n) for n in (6, 7, 8)))
    batch = qapgpu.quadratic_assignment_batch(As, Bs, method="faq", options=dict(CPU, rng=1))
    for res, A, B in zip(batch, As, Bs):
        single = qapgpu.quadratic_assignment(A, B, method="faq", options=dict(CPU, rng=1))
        assert set(res.keys()) == set(single.keys())
        assert type(res) is type(single) is qapgpu.QAPResult
        assert res.fun == single.fun == brute(A, B)
        assert res.algorithm == single.algorithm == "exact"
        assert res.nit >= 0 and res.interrupted is False and res.notes == []


def test_each_instance_has_its_own_seed_drawn_from_rng():
    As, Bs = zip(*(pair(15, k) for k in range(3)))
    results = qapgpu.quadratic_assignment_batch(As, Bs, options=dict(CPU, time_limit=0.2, rng=42))
    single = qapgpu.quadratic_assignment(As[0], Bs[0], options=dict(CPU, time_limit=0.2, rng=42))
    assert results[0].seed == single.seed, "instance 0 runs with the seed a single call draws"
    assert [r.seed for r in results] == [qapgpu._native.instance_seed(single.seed, k) for k in range(3)]
    assert len({r.seed for r in results}) == 3


def test_maximize():
    As, Bs = zip(*(pair(n, 30 + n, high=9) for n in (5, 6, 7, 8)))
    results = qapgpu.quadratic_assignment_batch(As, Bs, options=dict(CPU, maximize=True))
    for res, A, B in zip(results, As, Bs):
        check(res, A, B)
        assert res.fun == brute(A, B, maximize=True)


def test_negative_and_bool_entries():
    r = np.random.default_rng(4)
    As = [r.integers(-20, 20, (6, 6)), r.random((7, 7)) < 0.4]
    Bs = [r.integers(-20, 20, (6, 6)), r.random((7, 7)) < 0.4]
    for res, A, B in zip(qapgpu.quadratic_assignment_batch(As, Bs, options=CPU), As, Bs):
        check(res, A, B)
        assert res.fun == brute(A.astype(np.int64), B.astype(np.int64))


def test_floats_are_scaled_per_instance_and_fun_recomputed_on_them():
    r = np.random.default_rng(6)
    As = [r.random((7, 7)), r.random((6, 6)) * 1e-9, np.round(r.random((8, 8)) * 100)]
    Bs = [r.random((7, 7)), r.random((6, 6)) * 1e4, np.round(r.random((8, 8)) * 100)]
    results = qapgpu.quadratic_assignment_batch(As, Bs, options=CPU)
    for res, A, B in zip(results, As, Bs):
        check(res, A, B)
        assert isinstance(res.fun, float)
        assert res.fun == pytest.approx(brute(A, B), rel=1e-6)


def test_a_3d_array_and_a_tuple_of_lists_work():
    r = np.random.default_rng(7)
    As, Bs = r.integers(0, 30, (4, 8, 8)), r.integers(0, 30, (4, 8, 8))
    results = qapgpu.quadratic_assignment_batch(As, Bs, options=CPU)
    assert [res.fun for res in results] == [brute(A, B) for A, B in zip(As, Bs)]
    lists = qapgpu.quadratic_assignment_batch(tuple(A.tolist() for A in As), [B.tolist() for B in Bs], options=CPU)
    assert [res.fun for res in lists] == [res.fun for res in results]


def test_empty_batch_and_trivial_instances():
    assert qapgpu.quadratic_assignment_batch([], [], options=CPU) == []
    A, B = pair(6, 2)
    results = qapgpu.quadratic_assignment_batch([np.zeros((0, 0)), [[3]], A], [np.zeros((0, 0)), [[4]], B],
                                                options=CPU)
    assert results[0].col_ind.tolist() == [] and results[0].fun == 0
    assert results[1].col_ind.tolist() == [0] and results[1].fun == 12
    assert results[1].engine == "none" and results[1].stopped == "proven optimal"
    assert results[2].fun == brute(A, B)


def test_time_rule_and_threads():
    As, Bs = zip(*(pair(20, k) for k in range(3)))
    t = time.perf_counter()
    results = qapgpu.quadratic_assignment_batch(As, Bs, options=dict(CPU, time_limit=0.4, stop="time", threads=1))
    wall = time.perf_counter() - t
    # One thread: one instance after another, each to its limit.
    assert 1.1 < wall < 20, wall
    for res, A, B in zip(results, As, Bs):
        check(res, A, B)
        assert res.stopped == "time limit" and res.stop_rule == "time" and res.elapsed >= 0.35
        assert res.nit > 0, "each instance searched"


def test_u32_entries_run_on_the_cpu_under_auto_and_are_refused_on_the_gpu():
    r = np.random.default_rng(5)
    A = r.integers(0, 2**32 - 1, (6, 6), dtype=np.int64)
    B = r.integers(0, 3, (6, 6), dtype=np.int64)
    C, D = pair(6, 9)
    results = qapgpu.quadratic_assignment_batch([C, A], [D, B], options=dict(CPU, engine="auto"))
    assert results[1].fun == brute(A, B) and results[1].engine == "cpu"
    assert any("u32" in note and "As[1]" in note for note in results[1].notes)
    assert results[0].fun == brute(C, D)
    with pytest.raises(ValueError, match=r"As\[1\], Bs\[1\]: engine = 'gpu'.*u32"):
        qapgpu.quadratic_assignment_batch([C, A], [D, B], options=dict(CPU, engine="gpu"))


def test_rounding_warns_naming_the_instance():
    r = np.random.default_rng(11)
    A = r.random((6, 6))
    with pytest.warns(qapgpu.OptimizeWarning, match=r"As\[1\]"):
        qapgpu.quadratic_assignment_batch([A, A], [A, A], options=dict(CPU, precision=1))


def test_the_gil_is_released_during_the_search():
    As, Bs = zip(*(pair(25, k) for k in range(2)))
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    th = threading.Thread(target=count)
    th.start()
    try:
        qapgpu.quadratic_assignment_batch(As, Bs, options=dict(CPU, time_limit=0.6, stop="time"))
    finally:
        done.set()
        th.join()
    assert len(ticks) > 20, len(ticks)


@pytest.mark.parametrize("As, Bs, kind, match", [
    (3, [np.eye(3)], TypeError, "As must be a sequence"),
    ([np.eye(3)], "abc", TypeError, "Bs must be a sequence"),
    (np.eye(3), np.eye(3), ValueError, "As must be .* got a 2-D array .*quadratic_assignment"),
    ([np.eye(3)], [np.eye(3), np.eye(3)], ValueError, "As and Bs must hold as many matrices: 1 and 2"),
    ([np.eye(3), np.ones((3, 2))], [np.eye(3), np.eye(3)], ValueError, r"As\[1\], Bs\[1\]: `A` must be square"),
    ([np.eye(3), np.eye(3)], [np.eye(3), np.eye(4)], ValueError, r"As\[1\], Bs\[1\]: .*equal size"),
    ([np.eye(3), np.full((3, 3), np.nan)], [np.eye(3)] * 2, ValueError, r"As\[1\], Bs\[1\]: A has NaN"),
    ([np.eye(3), np.array([["a"] * 3] * 3)], [np.eye(3)] * 2, ValueError, r"As\[1\], Bs\[1\]: A must hold numbers"),
    ([np.eye(3), np.eye(300)], [np.eye(3), np.eye(300)], ValueError, r"As\[1\], Bs\[1\]: n = 300 exceeds 256"),
    ([np.eye(3), np.full((5, 5), 1e30)], [np.eye(3), np.full((5, 5), 1e30)], ValueError,
     r"As\[1\], Bs\[1\]: A and B \(n = 5.*precision"),
])
def test_matrix_errors_name_the_argument_and_the_instance(As, Bs, kind, match):
    with pytest.raises(kind, match=match):
        qapgpu.quadratic_assignment_batch(As, Bs, options=CPU)


@pytest.mark.parametrize("options, kind, match", [
    ([1, 2], TypeError, "options must be a dict"),
    ({"partial_match": [[0, 0]]}, ValueError, r"options\['partial_match'\]: quadratic_assignment_batch"),
    ({"partial_guess": [[0, 0]]}, ValueError, r"options\['partial_guess'\]"),
    ({"target": 5}, ValueError, r"options\['target'\]"),
    ({"maxiter": 3}, ValueError, r"options\['maxiter'\]"),
    ({"callback": print}, ValueError, r"options\['callback'\]"),
    ({"P0": np.eye(3)}, ValueError, r"options\['P0'\]"),
    ({"P0": "uniform"}, ValueError, "Invalid 'P0' parameter string"),
    ({"tol": -1}, ValueError, "'tol' must be a positive float"),
    ({"time_limit": 0}, ValueError, "time_limit = 0"),
    ({"time_limit": "1"}, TypeError, "time_limit must be a number"),
    ({"engine": "tpu"}, ValueError, "engine = 'tpu'"),
    ({"threads": 999}, ValueError, "threads = 999"),
    ({"threads": 1.5}, TypeError, "threads must be an integer"),
    ({"stop": "never"}, ValueError, "stop = 'never'"),
    ({"gpus": "0"}, TypeError, "gpus must be a list"),
    ({"precision": 1.5}, TypeError, "precision must be an integer"),
    ({"rng": "seed"}, ValueError, "rng = 'seed'"),
])
def test_option_errors_name_the_option(options, kind, match):
    with pytest.raises(kind, match=match):
        qapgpu.quadratic_assignment_batch([np.eye(3)], [np.eye(3)], options=options)


def test_method_errors_and_unknown_options():
    with pytest.raises(ValueError, match="method 'simplex'"):
        qapgpu.quadratic_assignment_batch([np.eye(3)], [np.eye(3)], method="simplex")
    with pytest.raises(TypeError, match="method must be a string"):
        qapgpu.quadratic_assignment_batch([np.eye(3)], [np.eye(3)], method=3)
    A, B = pair(5, 1)
    with pytest.warns(qapgpu.OptimizeWarning, match="Unknown solver options: walks"):
        res, = qapgpu.quadratic_assignment_batch([A], [B], options=dict(CPU, walks=3))
    assert res.fun == brute(A, B)
    # scipy's FAQ options are known to "faq" and "auto" only, as in the single call.
    with pytest.warns(qapgpu.OptimizeWarning, match="shuffle_input"):
        qapgpu.quadratic_assignment_batch([A], [B], method="ts", options=dict(CPU, shuffle_input=True))
    # Options left at None are accepted, as scipy's defaults.
    res, = qapgpu.quadratic_assignment_batch([A], [B], method="FAQ",
                                             options=dict(CPU, target=None, maxiter=None, P0="randomized", tol=0.1))
    assert res.fun == brute(A, B)


def test_ctrl_c_raises_keyboard_interrupt_or_returns_the_best_so_far():
    code = ("import sys, numpy as np, qapgpu\n"
            "r = np.random.default_rng(0)\n"
            "As = [r.integers(0, 100, (40, 40)) for _ in range(3)]\n"
            "print('started', flush=True)\n"
            "opts = {'time_limit': 120, 'engine': 'cpu', 'stop': 'time', 'threads': 3,\n"
            "        'return_on_interrupt': sys.argv[1] == 'return'}\n"
            "try:\n"
            "    res = qapgpu.quadratic_assignment_batch(As, [A.T for A in As], options=opts)\n"
            "    print('returned', len(res), all(x.interrupted for x in res), flush=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n")
    for how, expected in (("raise", "interrupted"), ("return", "returned 3 True")):
        p = subprocess.Popen([sys.executable, "-c", code, how], stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.5)
        t = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
        assert expected in out, (how, out)
        assert time.perf_counter() - t < 10
