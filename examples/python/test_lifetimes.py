#!/usr/bin/env python3
"""Tests that no object of the Python package qubo reaches freed C memory,
and how calls end: every borrow (a puzzle's model, a sample set after its
solver, a QAOA state after its model, a backend's context and model after
the slot, an iterator over a sample set closed under it), close() from
inside a running call, ints that do not fit their C type, exceptions raised
in callbacks and backends, and Ctrl-C during a long call.

A use-after-free here is a crash, or an error of the memory checker: meson
runs this file with the ASan runtime preloaded in an ASan build (CI's asan
step), where any invalid read fails the test.

Run: python3 test_lifetimes.py, with PYTHONPATH naming examples/python and
QUBO_LIBDIR the build's libraries (meson test python-lifetimes does both).
Exit status: 0 passed, 1 failed, 77 skipped (ASan-instrumented libraries
without the ASan runtime in LD_PRELOAD).
"""
import gc
import os
import pathlib
import signal
import sys
import threading
import time
import traceback
import unittest

import qubo
from test_package import big_model as random_model

QUEENS8 = pathlib.Path(__file__).resolve().parent.parent / "puzzles" / "queens8.txt"


def setUpModule():
    qubo.load()


def raised(call):
    """The exception call() raises, with its traceback (assertRaises drops
    it), and the names of the traceback's functions."""
    try:
        call()
    except BaseException as e:  # noqa: BLE001
        return e, [f.name for f in traceback.extract_tb(e.__traceback__)]
    raise AssertionError("no exception")


def small_model():
    m = qubo.Model(3)
    m.add_linear(0, -1.0)
    m.add_quadratic(0, 1, 2.0)
    m.add_quadratic(1, 2, -1.0)
    m.compile()
    return m


class Borrows(unittest.TestCase):
    def test_model_of_a_puzzle_after_the_with_block(self):
        with qubo.Puzzle.from_file(QUEENS8, reduce=qubo.QUBO_REDUCE_NONE) as p:
            m = p.model()
        # The puzzle is closed: its model can no longer be used, and using
        # it raises instead of reading freed memory.
        with qubo.Solver("sa", num_reads=2, seed=1) as s:
            with self.assertRaises(qubo.ClosedError):
                s.sample(m)
        with self.assertRaises(qubo.ClosedError):
            m.num_variables
        m.close()

    def test_model_keeps_the_puzzle_allocated(self):
        p = qubo.Puzzle.from_file(QUEENS8, reduce=qubo.QUBO_REDUCE_NONE)
        m = p.model()
        n = m.num_variables
        p.close()
        self.assertTrue(p.closed and m.closed)
        with self.assertRaises(qubo.ClosedError):
            m.num_variables
        with self.assertRaises(qubo.ClosedError):
            p.stats()
        self.assertIsNotNone(p._h, "the puzzle is freed only when its model is closed")
        m.close()
        self.assertIsNone(p._h, "closing the last borrower frees the puzzle")
        self.assertGreater(n, 0)

    def test_model_keeps_the_puzzle_alive(self):
        m = qubo.Puzzle.from_file(QUEENS8, reduce=qubo.QUBO_REDUCE_NONE).model()
        gc.collect()
        with qubo.Solver("sa", num_reads=2, seed=1) as s, s.sample(m) as res:
            self.assertEqual(res.num_variables, m.num_variables)

    def test_sample_set_outlives_its_solver_and_model(self):
        m = small_model()
        s = qubo.Solver("exhaustive")
        res = s.sample(m)
        s.close()
        m.close()
        self.assertEqual(res.num_variables, 3)
        self.assertEqual(res.lowest()[1], -1.0)
        res.close()
        with self.assertRaises(qubo.ClosedError):
            res.lowest()
        with self.assertRaises(qubo.ClosedError):
            len(res)
        with self.assertRaises(qubo.ClosedError):
            s.sample(small_model())

    def test_iterator_over_a_closed_sample_set(self):
        with small_model() as m, qubo.Solver("exhaustive", num_lowest=4) as s:
            res = s.sample(m)
        it = iter(res)
        next(it)
        res.close()
        with self.assertRaises(qubo.ClosedError):
            next(it)

    def test_qaoa_state(self):
        m = small_model()
        q = qubo.Qaoa(m)
        m.close()  # the simulator holds a copy
        q.evolve([0.3], [0.2])
        self.assertEqual(len(q.probabilities()), 8)
        q.close()
        for call in (lambda: q.probabilities(), lambda: q.num_qubits,
                     lambda: q.sample(1, 2), lambda: q.evolve([0.1], [0.1])):
            with self.assertRaises(qubo.ClosedError):
                call()
        with self.assertRaises(qubo.ClosedError):
            qubo.qasm(m, [0.1], [0.2])

    def test_backend_context_after_the_call(self):
        kept = {}

        class Keeper(qubo.Backend):
            name = "py-keeper"

            def sample(self, ctx, model, options):
                kept.update(ctx=ctx, model=model, options=options)
                ctx.add_samples([bytes(model.num_variables)])

        with small_model() as m, qubo.Solver.from_backend(Keeper()) as s:
            s.sample(m).close()
        for call in (lambda: kept["ctx"].add_samples([b"\0\0\0"]),
                     lambda: kept["ctx"].should_stop(),
                     lambda: kept["model"].num_variables,
                     lambda: kept["options"].get_int("num_reads", 1)):
            with self.assertRaises(qubo.ClosedError):
                call()

    def test_every_method_of_a_closed_object_raises(self):
        m = small_model()
        m.close()
        for call in (lambda: m.add_linear(0, 1.0), lambda: m.compile(),
                     lambda: m.energy(b"\0\0\0"), lambda: m.linear(), lambda: m.to_qbsolv(),
                     lambda: m.offset, lambda: m.handle):
            with self.assertRaises(qubo.ClosedError):
                call()
        s = qubo.Solver("sa")
        s.close()
        s.close()  # twice is harmless
        for call in (lambda: s.name, lambda: s.set("num_reads", 2), lambda: s.describe()):
            with self.assertRaises(qubo.ClosedError):
                call()
        p = qubo.Puzzle.from_file(QUEENS8)
        p.close()
        for call in (lambda: p.model(), lambda: p.solve(), lambda: p.count(),
                     lambda: p.cell(0, 0), lambda: p.family):
            with self.assertRaises(qubo.ClosedError):
                call()


class CloseDuringACall(unittest.TestCase):
    def test_solver_and_model_closed_by_the_progress_callback(self):
        m = random_model(60)
        s = qubo.Solver("sa", num_reads=1000000, seed=1, time_limit=5.0)

        def progress(p):
            s.close()
            m.close()
            return True

        res = s.sample(m, progress=progress)
        self.assertEqual(res.status, qubo.QUBO_CANCELLED)
        self.assertGreater(len(res), 0)
        res.close()
        self.assertIsNone(s._h, "freed when the call returned")
        self.assertIsNone(m._h)
        with self.assertRaises(qubo.ClosedError):
            s.sample(random_model(3))

    def test_puzzle_and_solver_closed_by_the_solve_progress(self):
        p = qubo.Puzzle("nqueens 30 torus\n")
        s = qubo.Solver("sa")
        m = p.model()

        def progress(info):
            p.close()
            s.close()
            m.close()
            return True

        out = p.solve(strategy=qubo.QUBO_PUZZLE_STRATEGY_SAMPLE, seed=1, time_limit=20.0,
                      threads=2, solver=s, progress=progress)
        self.assertEqual(out["status"], qubo.QUBO_CANCELLED)
        self.assertIsNone(p._h)
        self.assertIsNone(s._h)

    def test_backend_closes_its_solver(self):
        holder = {}

        class Closer(qubo.Backend):
            name = "py-closer"

            def sample(self, ctx, model, options):
                holder["solver"].close()
                ctx.add_samples([bytes(model.num_variables)])

        with small_model() as m:
            s = holder["solver"] = qubo.Solver.from_backend(Closer())
            with s.sample(m) as res:
                self.assertEqual(len(res), 1)
            self.assertIsNone(s._h)


class Overflow(unittest.TestCase):
    def test_variable_index(self):
        with qubo.Model(2) as m:
            with self.assertRaises(OverflowError):
                m.add_linear(2**32, 1.0)
            with self.assertRaises(OverflowError):
                m.add_quadratic(0, 2**32 + 1, 1.0)
            with self.assertRaises(OverflowError):
                m.add_linear(-1, 1.0)
            m.compile()
            self.assertEqual(m.linear(), [0.0, 0.0], "nothing was added to variable 0")

    def test_literals(self):
        with self.assertRaises(OverflowError):
            qubo.lit(2**31)
        with self.assertRaises(OverflowError):
            qubo.lit_neg(-1)
        self.assertEqual(qubo.lit_neg(3), 7)
        with qubo.Model(2) as m:
            with self.assertRaises(OverflowError):
                m.penalty_exactly([qubo.lit(0), 2**32 + 2], 1, 1.0)
            m.compile()
            self.assertEqual(m.couplers(), [], "nothing was added")

    def test_sizes_and_seeds(self):
        with self.assertRaises(OverflowError):
            qubo.Model(2**64)
        with qubo.Solver("sa") as s:
            with self.assertRaises(OverflowError):
                s.set("seed", 2**64)
        with qubo.Puzzle.from_file(QUEENS8) as p:
            with self.assertRaises(OverflowError):
                p.solve(seed=2**64)
            with self.assertRaises(OverflowError):
                p.count(limit=-1)
        with small_model() as m, qubo.Qaoa(m) as q:
            with self.assertRaises(OverflowError):
                q.sample(2**64, 1)


class Exceptions(unittest.TestCase):
    def test_progress_exception_with_its_traceback(self):
        def progress(p):
            raise LookupError("from the callback")

        with random_model(40) as m, qubo.Solver("sa", num_reads=1000000, seed=1) as s:
            e, frames = raised(lambda: s.sample(m, progress=progress))
        self.assertIsInstance(e, LookupError)
        self.assertIn("progress", frames)

    def test_backend_keyboard_interrupt(self):
        class Interrupted(qubo.Backend):
            name = "py-interrupted"

            def sample(self, ctx, model, options):
                raise KeyboardInterrupt

        with small_model() as m, qubo.Solver.from_backend(Interrupted()) as s:
            e, frames = raised(lambda: s.sample(m))
        self.assertIsInstance(e, KeyboardInterrupt)
        self.assertIn("sample", frames)

    def test_backend_exception_is_the_cause(self):
        class Broken(qubo.Backend):
            name = "py-broken"

            def sample(self, ctx, model, options):
                raise RuntimeError("broke on purpose")

        with small_model() as m, qubo.Solver.from_backend(Broken()) as s:
            with self.assertRaises(qubo.QuboError) as e:
                s.sample(m)
        self.assertEqual(e.exception.status, qubo.QUBO_ERR_CALLBACK)
        self.assertIsInstance(e.exception.__cause__, RuntimeError)


class CtrlC(unittest.TestCase):
    """SIGINT sent to this process during a long call: KeyboardInterrupt
    within 0.2 s. On a loaded machine the wall time of a prompt stop
    stretches while the processor time it uses does not, so the stop is on
    time when either stays within the bound (processor time counts the
    call's two threads: 0.4 s), and always within 10 s."""

    def interrupt(self, call):
        sent = []

        def send():
            sent.append((time.monotonic(), time.process_time()))
            os.kill(os.getpid(), signal.SIGINT)

        timer = threading.Timer(0.5, send)
        timer.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                call()
            elapsed = time.monotonic() - sent[0][0]
            cpu = time.process_time() - sent[0][1]
        finally:
            timer.cancel()
        self.assertTrue(elapsed < 10 and (elapsed < 0.2 or cpu < 0.4),
                        "KeyboardInterrupt %.3f s (%.3f s of processor time) after SIGINT"
                        % (elapsed, cpu))
        self.assertIs(signal.getsignal(signal.SIGINT), signal.default_int_handler)

    def test_solver_sample(self):
        with random_model(100) as m, qubo.Solver("sa", num_reads=10**6, num_sweeps=10**4,
                                                 seed=1, time_limit=30.0) as s:
            self.interrupt(lambda: s.sample(m))

    def test_puzzle_solve_with_progress(self):
        with qubo.Puzzle("nqueens 30 torus\n") as p:
            self.interrupt(lambda: p.solve(strategy=qubo.QUBO_PUZZLE_STRATEGY_SAMPLE,
                                           seed=1, time_limit=30.0, threads=2,
                                           progress=lambda info: False))

    def test_puzzle_count(self):
        with qubo.Puzzle("nqueens 30\n") as p:
            self.interrupt(lambda: p.count(method=qubo.QUBO_PUZZLE_COUNT_SEARCH, threads=1,
                                           time_limit=30.0))


if __name__ == "__main__":
    if os.environ.get("QUBO_ASAN") == "1" and "asan" not in os.environ.get("LD_PRELOAD", ""):
        print("skip: the libraries are ASan-instrumented; Python would need the ASan "
              "runtime preloaded (LD_PRELOAD) to load them")
        sys.exit(77)
    unittest.main(verbosity=2)
