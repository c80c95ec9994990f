#!/usr/bin/env python3
"""Tests the Python package qubo: where it loads the libraries from, puzzle
and qbsolv files, progress callbacks that stop a run or raise, solver
options of every type, and the errors it raises.

It imports qubo from sys.path as it is, and never names a build tree:

- in the build (meson test python-package), PYTHONPATH is the source tree's
  examples/python and QUBO_LIBDIR the build's two libraries;
- installed (tools/ci-python-installed.sh), it runs with no variable set from
  a directory outside the source tree, and checks that the package and the
  libraries it mapped are the installed ones.

Run: python3 -m unittest -v test_package (or python3 test_package.py).
Exit status: 0 passed, 1 failed, 77 skipped (ASan-instrumented libraries
without an ASan runtime in LD_PRELOAD: gcc's libasan.so, clang's
libclang_rt.asan-ARCH.so).
"""
import itertools
import os
import pathlib
import random
import sys
import tempfile
import unittest

import qubo


def mapped_libraries():
    """The files of this process's memory map whose name starts with
    libqubo (Linux)."""
    found = set()
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split(None, 5)
            if len(fields) == 6 and os.path.basename(fields[5].strip()).startswith("libqubo"):
                found.add(os.path.realpath(fields[5].strip()))
    return found


def setUpModule():
    qubo.load()


def energy(lin, quad, offset, x):
    return offset + sum(h * x[i] for i, h in enumerate(lin)) + \
        sum(w * x[i] * x[j] for (i, j), w in quad.items())


class Loading(unittest.TestCase):
    def test_libraries_loaded_from_the_expected_place(self):
        core, puzzle = qubo.library_paths()
        libdir = os.environ.get("QUBO_LIBDIR")
        if libdir:
            # a build tree: the files QUBO_LIBDIR names, or files in its
            # directories
            places = [os.path.realpath(p) for p in libdir.split(os.pathsep) if p]
            for path in (core, puzzle):
                real = os.path.realpath(path)
                self.assertTrue(real in places or os.path.dirname(real) in places,
                                "%s is not in QUBO_LIBDIR %s" % (path, libdir))
        else:
            # installed: the configured libdir, by absolute path
            self.assertIsNotNone(qubo._config, "qubo/_config.py was not installed")
            self.assertEqual(core, os.path.join(qubo._config.LIBDIR, "libqubo.so.0"))
            self.assertEqual(puzzle, os.path.join(qubo._config.LIBDIR, "libqubo-puzzle.so.0"))
            self.assertTrue(os.path.isabs(core))
        # exactly these two files are mapped: libqubo-puzzle found the
        # libqubo already loaded, and no other copy came in
        self.assertEqual(mapped_libraries(), {os.path.realpath(core), os.path.realpath(puzzle)})
        self.assertEqual(qubo.version(), "0.1.90" if qubo._config is None
                         else qubo._config.VERSION)

    def test_first_name_is_the_package(self):
        """examples/python's qubo_ctypes is the package under its first
        name (only where that shim is on sys.path)."""
        try:
            import qubo_ctypes
        except ImportError:
            self.skipTest("qubo_ctypes.py is not on sys.path")
        self.assertIs(qubo_ctypes, qubo)


# A 6 x 6 Tango with 36 variables, 21 after the clues' reduction and 12
# after the full one.
TANGO = """\
tango 6
. . . . . .
  x   =   x
. .x. . .=1

. 1 . 1 . .
          x
.x. . . . .

. . . .x. .
    = = =
.x. . . . .
"""


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name, text=None):
        path = os.path.join(self.dir.name, name)
        if text is not None:
            with open(path, "w") as f:
                f.write(text)
        return path

    def test_puzzle_file(self):
        path = self.path("six.txt", "# six queens\nnqueens 6\n")
        for arg in (path, pathlib.Path(path), os.fsencode(path)):
            with qubo.Puzzle.from_file(arg) as p, qubo.Puzzle("nqueens 6\n") as q:
                self.assertEqual(p.family, qubo.QUBO_PUZZLE_NQUEENS)
                self.assertEqual(p.stats(), q.stats())
                self.assertEqual(p.count()["count"], 4)  # the 6-queens problem's 4 solutions
        # the options reach the parser: a Tango's variables after each
        # reduction
        tango = self.path("tango.txt", TANGO)
        for reduce, variables in ((qubo.QUBO_REDUCE_NONE, 36), (qubo.QUBO_REDUCE_CLUES, 21),
                                  (qubo.QUBO_REDUCE_FULL, 12)):
            with qubo.Puzzle.from_file(tango, reduce=reduce) as p:
                self.assertEqual(p.stats()["variables_after"], variables)

    def test_puzzle_file_errors(self):
        with self.assertRaises(qubo.QuboError) as e:
            qubo.Puzzle.from_file(self.path("absent.txt"))
        self.assertEqual(e.exception.status, qubo.QUBO_ERR_IO)
        self.assertEqual(e.exception.name, "QUBO_ERR_IO")
        self.assertIn("absent.txt", e.exception.message)
        bad = self.path("bad.txt", "# a comment\n\nnqueens six\n")
        with self.assertRaises(qubo.QuboError) as e:
            qubo.Puzzle.from_file(bad)
        self.assertEqual(e.exception.status, qubo.QUBO_ERR_PARSE)
        self.assertEqual(e.exception.line, 3)
        self.assertTrue(e.exception.message)
        self.assertIn(e.exception.message, str(e.exception))

    def test_qbsolv_file(self):
        text = ("c offset 2.5\np qubo 0 4 2 3\n0 0 1.5\n2 2 -2\n"
                "0 1 0.5\n0 3 -7\n1 2 3\n")
        lin, quad, offset = [1.5, 0, -2, 0], {(0, 1): 0.5, (0, 3): -7, (1, 2): 3}, 2.5
        path = self.path("m.qubo", text)
        with qubo.Model.from_qbsolv_file(path) as m, qubo.Model.from_qbsolv(text) as n:
            self.assertEqual(m.num_variables, 4)
            for x in itertools.product((0, 1), repeat=4):
                self.assertEqual(m.energy(x), energy(lin, quad, offset, x))
                self.assertEqual(n.energy(x), m.energy(x))

    def test_qbsolv_round_trip(self):
        rnd = random.Random(7)
        n = 9
        lin = [rnd.randint(-8, 8) / 4 for _ in range(n)]
        quad = {(i, j): rnd.randint(-8, 8) / 4 for i in range(n) for j in range(i + 1, n)
                if rnd.random() < 0.4}
        with qubo.Model(n) as m:
            m.add_offset(-1.25)
            for i, h in enumerate(lin):
                m.add_linear(i, h)
            for (i, j), w in quad.items():
                m.add_quadratic(i, j, w)
            m.compile()
            path = pathlib.Path(self.path("r.qubo"))
            m.write_qbsolv_file(path)
            self.assertEqual(path.read_text(), m.to_qbsolv())
            with qubo.Model.from_qbsolv_file(path) as back:
                self.assertEqual(back.linear(), m.linear())
                self.assertEqual(back.couplers(), m.couplers())
                for x in itertools.product((0, 1), repeat=n):
                    self.assertEqual(back.energy(x), energy(lin, quad, -1.25, x))

    def test_qbsolv_errors(self):
        with self.assertRaises(qubo.QuboError) as e:
            qubo.Model.from_qbsolv_file(self.path("absent.qubo"))
        self.assertEqual(e.exception.status, qubo.QUBO_ERR_IO)
        with self.assertRaises(qubo.QuboError) as e:
            qubo.Model.from_qbsolv_file(self.path("bad.qubo", "p qubo 0 2 1 0\n0 0 x\n"))
        self.assertEqual(e.exception.status, qubo.QUBO_ERR_PARSE)
        self.assertEqual(e.exception.line, 2)
        # the parts of the error, each read from the library
        self.assertEqual(e.exception.column, 5)
        self.assertEqual(e.exception.function, "qubo_qbsolv_read_file")
        self.assertEqual(e.exception.message,
                         "line 2, column 5: qubo_qbsolv_read_file: " + e.exception.detail)
        self.assertEqual(e.exception.detail, "weight 'x' is not a decimal number (in '%s')"
                         % self.path("bad.qubo"))
        self.assertIsNone(e.exception.cell)
        self.assertEqual((e.exception.limit, e.exception.limit_value), ("none", 0))
        with self.assertRaises(qubo.QuboError) as e:
            qubo.Puzzle("nqueens 5000\n")
        self.assertEqual(e.exception.status, qubo.QUBO_ERR_TOO_LARGE)
        self.assertEqual((e.exception.limit, e.exception.limit_value), ("board_side", 4096))
        self.assertEqual((e.exception.line, e.exception.column), (1, 9))
        with qubo.Puzzle("nqueens 5\n") as p:
            with self.assertRaises(qubo.QuboError) as e:
                p.check(bytes(7) + b"\x02" + bytes(17))
            self.assertEqual(e.exception.cell, (2, 3))
            self.assertEqual(e.exception.function, "qubo_puzzle_check")
        with qubo.Model(2) as m:
            m.add_quadratic(0, 1, 1.0)  # pending until compiled
            with self.assertRaises(qubo.QuboError) as e:
                m.write_qbsolv_file(self.path("x.qubo"))
            self.assertEqual(e.exception.status, qubo.QUBO_ERR_MISUSE)
            self.assertIn("compile", e.exception.message)


def big_model(n=60, seed=3):
    rnd = random.Random(seed)
    m = qubo.Model(n)
    for i in range(n):
        m.add_linear(i, rnd.uniform(-1, 1))
        for j in range(i + 1, n):
            if rnd.random() < 0.3:
                m.add_quadratic(i, j, rnd.uniform(-1, 1))
    m.compile()
    return m


class Progress(unittest.TestCase):
    """Progress callbacks of Solver.sample() and Puzzle.solve()."""

    # nqueens 150: about 0.6 s of building here, far more than the limits below
    BIG = "nqueens 150\n"

    def test_puzzle_build_time_limit(self):
        with self.assertRaises(qubo.QuboError) as cm:
            qubo.Puzzle(self.BIG, time_limit=0.02)
        self.assertEqual(cm.exception.status, qubo.QUBO_TIME_LIMIT)

    def test_puzzle_build_progress_stops(self):
        calls = []
        with self.assertRaises(qubo.QuboError) as cm:
            qubo.Puzzle(self.BIG, progress=lambda p: calls.append(p) or True)
        self.assertEqual(cm.exception.status, qubo.QUBO_CANCELLED)
        self.assertEqual(len(calls), 1)
        self.assertEqual(calls[0]["phase"], qubo.QUBO_PUZZLE_PHASE_BUILD)
        self.assertGreater(calls[0]["nodes"], 0)

    def test_puzzle_build_progress_raises(self):
        class Broken(Exception):
            pass

        def broken(progress):
            raise Broken()

        with self.assertRaises(Broken):
            qubo.Puzzle(self.BIG, progress=broken)

    def test_sample_progress_runs_to_the_end(self):
        calls = []
        with big_model(20) as m, qubo.Solver("sa", num_reads=20, seed=1) as s:
            with s.sample(m, progress=lambda p: calls.append(p) and False) as res:
                self.assertEqual(res.status, qubo.QUBO_OK)
        self.assertGreaterEqual(len(calls), 1)
        last = calls[-1]
        self.assertEqual(set(last), {"done", "total", "best_energy", "has_best", "seconds"})
        self.assertEqual((last["done"], last["total"]), (20, 20))

    def test_sample_progress_stops(self):
        calls = []

        def stop(progress):
            calls.append(progress)
            return True

        with big_model() as m, qubo.Solver("sa", num_reads=1000000, seed=1) as s:
            with s.sample(m, progress=stop) as res:
                self.assertEqual(res.status, qubo.QUBO_CANCELLED)
                self.assertGreater(len(res), 0)
            self.assertEqual(len(calls), 1)
            self.assertLess(calls[0]["done"], 1000000)
            # the callback is gone after the call: the next run is not stopped
            s.set("num_reads", 5)
            with s.sample(m) as res:
                self.assertEqual(res.status, qubo.QUBO_OK)
            self.assertEqual(len(calls), 1)

    def test_sample_progress_raises(self):
        class Broken(Exception):
            pass

        calls = []

        def broken(progress):
            calls.append(progress)
            raise Broken("on purpose")

        with big_model() as m, qubo.Solver("sa", num_reads=1000000, seed=1) as s:
            with self.assertRaises(Broken):
                s.sample(m, progress=broken)
            self.assertEqual(len(calls), 1)  # the run stopped at the first call
            s.set("num_reads", 3)
            with s.sample(m) as res:
                self.assertEqual(res.status, qubo.QUBO_OK)

    def test_puzzle_solve_progress(self):
        calls = []

        def stop(progress):
            calls.append(progress)
            return progress["seconds"] > 0.15

        with qubo.Puzzle("nqueens 8 torus\n") as p:
            r = p.solve(strategy=qubo.QUBO_PUZZLE_STRATEGY_SAMPLE, time_limit=60, progress=stop)
            self.assertEqual(r["status"], qubo.QUBO_CANCELLED)
            self.assertLess(r["seconds"], 30)
            self.assertTrue(calls and calls[-1]["seconds"] > 0.15)

            def broken(progress):
                raise KeyError("on purpose")
            with self.assertRaises(KeyError):
                p.solve(strategy=qubo.QUBO_PUZZLE_STRATEGY_SAMPLE, time_limit=60,
                        progress=broken)
            # False goes on: a solvable puzzle is solved
        with qubo.Puzzle("nqueens 6\n") as p:
            r = p.solve(seed=2, progress=lambda progress: False)
            self.assertNotEqual(r["method_id"], 0)
            self.assertEqual(r["method_name"], qubo._puzzle.qubo_puzzle_method_name(r["method_id"]).decode())
            self.assertEqual(r["verdict"], qubo.QUBO_PUZZLE_SOLVED)
            self.assertEqual(p.check(r["board"])[0], 0)


class RecordingBackend(qubo.Backend):
    """A backend that reads back every option it is given, by type."""
    name = "recorder"

    def __init__(self):
        self.seen = {}

    def check_param(self, key, options):
        kind = options.type(key)
        if kind == qubo.QUBO_TYPE_INT:
            self.seen[key] = ("int", options.get_int(key, 0))
        elif kind == qubo.QUBO_TYPE_DOUBLE:
            self.seen[key] = ("double", options.get_double(key, 0.0))
        elif kind == qubo.QUBO_TYPE_STRING:
            self.seen[key] = ("string", options.get_string(key))
        else:
            self.seen[key] = ("none", None)

    def sample(self, ctx, model, options):
        ctx.add_samples([bytes(model.num_variables)])


class Options(unittest.TestCase):
    def test_set_dispatches_on_type(self):
        backend = RecordingBackend()
        with qubo.Solver.from_backend(backend) as s:
            s.set("i", 7)
            s.set("b", True)
            s.set("d", 2.5)
            s.set("whole", 3.0)
            s.set("s", "géométrique")
            s.set("raw", b"bytes")
            self.assertEqual(backend.seen, {
                "i": ("int", 7), "b": ("int", 1), "d": ("double", 2.5),
                "whole": ("double", 3.0), "s": ("string", "géométrique"),
                "raw": ("string", "bytes")})
            s.set_string("s2", "x")
            s.set_int("i2", -4)
            s.set_double("d2", -0.5)
            self.assertEqual([backend.seen[k] for k in ("s2", "i2", "d2")],
                             [("string", "x"), ("int", -4), ("double", -0.5)])
            with self.assertRaises(TypeError):
                s.set("l", [1, 2])
            self.assertNotIn("l", backend.seen)

    def test_set_none_unsets(self):
        with big_model(8) as m, qubo.Solver("sa", num_reads=3) as s:
            with s.sample(m) as res:
                self.assertEqual(res.info()["num_samples"], 3)
            s.set("num_reads", None)
            with s.sample(m) as res:
                self.assertNotEqual(res.info()["num_samples"], 3)

    def test_constructor_options_reach_the_solver(self):
        with big_model(8) as m, qubo.Solver("sa", num_reads=17, seed=5) as s:
            with s.sample(m) as res:
                info = res.info()
                self.assertEqual((info["num_samples"], info["seed"]), (17, 5))

    def test_string_option_of_a_builtin(self):
        with qubo.Puzzle("nqueens 4\n") as p, qubo.Solver("qaoa", p=1) as s:
            s.set("angles", "0.4,0.3")
            s.set("num_reads", 8)
            with s.sample(p.model()) as res:
                self.assertEqual(res.info()["num_samples"], 8)
            with self.assertRaises(qubo.QuboError) as e:
                s.set("angles", "not numbers")
            self.assertLess(e.exception.status, 0)
            self.assertIn("angles", e.exception.message)

    def test_wrong_options_raise(self):
        with qubo.Solver("sa") as s:
            with self.assertRaises(qubo.QuboError) as e:
                s.set("num_reads", -1)
            self.assertLess(e.exception.status, 0)
            self.assertEqual(e.exception.name,
                             qubo._core.qubo_status_name(e.exception.status).decode())
            self.assertIn("num_reads", e.exception.message)


if __name__ == "__main__":
    if os.environ.get("QUBO_ASAN") == "1" and "asan" not in os.environ.get("LD_PRELOAD", ""):
        print("skip: the libraries are ASan-instrumented; Python would need the ASan "
              "runtime preloaded (LD_PRELOAD) to load them")
        sys.exit(77)
    unittest.main(verbosity=2)
