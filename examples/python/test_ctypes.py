#!/usr/bin/env python3
"""Tests the ctypes binding (qubo_ctypes.py) against the shared libraries:
models and energies, a penalty, the built-in solvers, a puzzle round trip, a
solver backend written in Python, error reporting, and the puzzle layer's
solve, count and cells (the struct layouts against the C compiler's, every
queens puzzle of the shared collection, known counts, limits, stops from
Python callbacks). Python recomputes every figure it can (energies,
brute-force minima, the puzzle's solution, regions read from the text).

usage: test_ctypes.py [LIBQUBO LIBQUBO_PUZZLE [QUBO_CLI [STRUCT_LAYOUT]]]
  LIBQUBO, LIBQUBO_PUZZLE: the shared libraries (files or their directories);
    without them, those qubo.load() finds (QUBO_LIBDIR, else the installed
    ones)
  QUBO_CLI: optional; the qubo program, to cross-check `qubo info`
  STRUCT_LAYOUT: optional; examples/python/struct_layout.c built, which
    prints the C layout of the versioned puzzle structs
The shared puzzle collection is read from $QUBO_PUZZLES_DIR (skipped with a
message when absent).
Exit status: 0 passed, 1 failed, 77 skipped (ASan-instrumented libraries
without an ASan runtime in LD_PRELOAD, which Python needs to load them).
"""
import ctypes
import glob
import itertools
import math
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qubo_ctypes as q  # noqa: E402

failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def expect_error(status, fn, *args):
    """Calls fn(*args), which must raise QuboError with this status; returns
    the error (None when it did not fail as expected)."""
    try:
        fn(*args)
    except q.QuboError as e:
        if e.status == status:
            return e
        check(False, "%s raised %s, expected %s" % (fn.__name__, e, status))
        return None
    check(False, "%s did not fail (expected status %d)" % (fn.__name__, status))
    return None


# --- Python's own arithmetic, the referee -----------------------------------

def random_model(n, seed):
    """Linear weights, couplers {(i, j): w} (i < j) and an offset, in halves
    so that every sum is exact in doubles."""
    rnd = random.Random(seed)
    lin = [rnd.randint(-8, 8) / 2 for _ in range(n)]
    quad = {}
    for i in range(n):
        for j in range(i + 1, n):
            if rnd.random() < 0.5:
                quad[(i, j)] = rnd.randint(-8, 8) / 2
    return lin, {k: w for k, w in quad.items() if w}, 0.5


def energy(lin, quad, offset, x):
    return offset + sum(h * x[i] for i, h in enumerate(lin)) + \
        sum(w * x[i] * x[j] for (i, j), w in quad.items())


def brute_force(lin, quad, offset):
    """(minimum energy, set of minimisers as bytes) over all 2^n states."""
    best, argmins = math.inf, set()
    for bits in itertools.product((0, 1), repeat=len(lin)):
        e = energy(lin, quad, offset, bits)
        if e < best:
            best, argmins = e, {bytes(bits)}
        elif e == best:
            argmins.add(bytes(bits))
    return best, argmins


def build(lin, quad, offset):
    """The model of (lin, quad, offset), its couplers added in pieces (split
    weights, reversed index order) so that compilation has to merge them."""
    m = q.Model(len(lin))
    m.add_offset(offset)
    for i, h in enumerate(lin):
        m.add_linear(i, h)
    for (i, j), w in quad.items():
        m.add_quadratic(j, i, w - 1.0)
        m.add_quadratic(i, j, 1.0)
    m.add_quadratic(0, 1, 2.5)   # a pair that cancels to zero:
    m.add_quadratic(1, 0, -2.5)  # compilation drops it unless (0, 1) exists
    m.compile()
    return m


# --- A solver backend in Python: random restarts of steepest descent -------

class RestartDescent(q.Backend):
    name = "py-descent"
    own_keys = ("num_reads", "seed", "threads", "time_limit", "target_energy")

    def __init__(self):
        self.calls = 0
        self.destroyed = False

    def check_param(self, key, options):
        if key not in self.own_keys:
            raise q.QuboError(q.QUBO_ERR_NOT_SUPPORTED,
                              "unknown option '%s' (accepted: %s)"
                              % (key, ", ".join(self.own_keys)))

    def describe(self):
        return "py-descent: random restarts of steepest descent, in Python"

    def sample(self, ctx, model, options):
        self.calls += 1
        reads = options.get_int("num_reads", 10)
        rng = random.Random(options.get_int("seed", 0))  # the host always sets one
        n = model.num_variables
        h = model.linear()
        adj = [[] for _ in range(n)]
        for i, j, w in model.couplers():
            adj[i].append((j, w))
            adj[j].append((i, w))
        found, status = [], q.QUBO_OK
        for r in range(reads):
            x = [1 if rng.random() < 0.5 else 0 for _ in range(n)]
            while True:  # flip the best improving variable until none improves
                best_delta, best_v = 0.0, -1
                for v in range(n):
                    field = h[v] + sum(w * x[u] for u, w in adj[v])
                    delta = -field if x[v] else field
                    if delta < best_delta:
                        best_delta, best_v = delta, v
                if best_v < 0:
                    break
                x[best_v] ^= 1
            found.append(bytes(x))
            status = ctx.progress(r + 1, reads)
            if status:
                break
        ctx.add_samples(found)
        return status


class Broken(q.Backend):
    name = "py-broken"

    def sample(self, ctx, model, options):
        raise RuntimeError("the Python backend broke on purpose")


# --- The checks -------------------------------------------------------------

def test_model_and_energy():
    lin, quad, offset = random_model(10, seed=1)
    with build(lin, quad, offset) as m:
        check(m.num_variables == 10, "model has 10 variables")
        check(m.offset == offset, "offset read back")
        check(m.linear() == lin, "export_linear equals the weights added")
        coo = {(i, j): w for i, j, w in m.couplers()}
        check(coo == quad, "export_coo equals the merged couplers (%d)" % len(quad))
        rnd = random.Random(2)
        states = [[rnd.randint(0, 1) for _ in range(10)] for _ in range(64)]
        bad = [x for x in states if m.energy(x) != energy(lin, quad, offset, x)]
        check(not bad, "qubo_model_energy equals Python's energy on 64 states")


def test_penalty():
    # exactly 1 of (x0, not x1, x2) with weight 2: 2 (S - 1)^2, S the true ones
    lits = [q.lit(0), q.lit_neg(1), q.lit(2)]
    check(q.lit_not(q.lit(5)) == q.lit_neg(5) == 11 and q.lit(5) == 10,
          "literal encoding: QUBO_LIT(5) = 10, QUBO_LIT_NEG(5) = 11")
    with q.Model(3) as m:
        m.penalty_exactly(lits, 1, 2.0)
        m.compile()
        ok = True
        for x in itertools.product((0, 1), repeat=3):
            s = x[0] + (1 - x[1]) + x[2]
            ok &= m.energy(x) == 2.0 * (s - 1) ** 2
        check(ok, "penalty_exactly(x0, !x1, x2; k=1, P=2) = 2 (S - 1)^2 on all 8 states")
    with q.Model(2) as m:
        # a constant TRUE among the literals: then exactly 1 means both free ones 0
        m.penalty_exactly([q.lit(0), q.LIT_TRUE, q.lit(1)], 1, 1.0)
        m.compile()
        zeros = [x for x in itertools.product((0, 1), repeat=2) if m.energy(x) == 0]
        check(zeros == [(0, 0)], "penalty_exactly with LIT_TRUE: only (0, 0) has energy 0")
        e = expect_error(q.QUBO_ERR_INFEASIBLE, m.penalty_exactly, [q.lit(0), q.lit(1)], 3, 1.0)
        check(e is not None and "exactly 3" in e.message,
              "exactly 3 of 2 literals: QUBO_ERR_INFEASIBLE, message %r"
              % (e.message if e else None))


def test_exhaustive():
    lin, quad, offset = random_model(12, seed=3)
    best, argmins = brute_force(lin, quad, offset)
    with build(lin, quad, offset) as m, q.Solver("exhaustive") as s:
        check(s.name == "exhaustive", "solver name 'exhaustive'")
        with s.sample(m) as res:
            sample, e = res.lowest()
            check(e == best, "exhaustive minimum %g equals the brute-force minimum %g"
                  % (e, best))
            check({x for x, _, _ in res} == argmins,
                  "exhaustive ground states equal the brute-force minimisers (%d)"
                  % len(argmins))
            info = res.info()
            check(info["num_ground_states"] == len(argmins),
                  "sample_info.num_ground_states = %d" % info["num_ground_states"])
            check(info["flip_attempts"] == 2 ** 12 and info["status"] == q.QUBO_OK,
                  "sample_info: %d states visited, status OK" % info["flip_attempts"])


def test_sa():
    lin, quad, offset = random_model(10, seed=4)
    best, _ = brute_force(lin, quad, offset)
    with build(lin, quad, offset) as m, q.Solver("sa") as s:
        s.set_int("num_reads", 20)
        s.set_int("seed", 12345)
        s.set_int("num_sweeps", 300)
        s.set_double("beta_hot", 0.1)
        s.set_double("beta_cold", 5.0)
        s.set_double("time_limit", 60.0)
        e = expect_error(q.QUBO_ERR_NOT_SUPPORTED, s.set_int, "no_such_key", 1)
        check(e is not None and "no_such_key" in e.message,
              "sa rejects an unknown key, naming it")
        with s.sample(m) as res:
            rows = list(res)
            check(res.status == q.QUBO_OK, "sa status QUBO_OK")
            check(sum(occ for _, _, occ in rows) == 20, "sa occurrences sum to num_reads")
            check(all(e == energy(lin, quad, offset, x) for x, e, _ in rows),
                  "sa sample energies equal Python's (%d samples)" % len(rows))
            check([e for _, e, _ in rows] == sorted(e for _, e, _ in rows),
                  "sa samples sorted by energy")
            check(res.lowest()[1] == best, "sa reaches the brute-force minimum %g" % best)
            info = res.info()
            check(info["seed"] == 12345 and info["num_samples"] == 20,
                  "sample_info: seed %d, num_samples %d"
                  % (info["seed"], info["num_samples"]))


def test_pt():
    lin, quad, offset = random_model(10, seed=6)
    best, _ = brute_force(lin, quad, offset)
    with build(lin, quad, offset) as m, q.Solver("pt") as s:
        s.set_int("num_reads", 4)
        s.set_int("seed", 7)
        s.set_int("num_sweeps", 50)
        s.set_int("num_replicas", 6)
        with s.sample(m) as res:
            rows = list(res)
            check(sum(occ for _, _, occ in rows) == 4, "pt occurrences sum to num_reads")
            check(all(e == energy(lin, quad, offset, x) for x, e, _ in rows),
                  "pt sample energies equal Python's")
            check(res.lowest()[1] == best, "pt reaches the brute-force minimum %g" % best)
            check(res.info()["flip_attempts"] == 4 * 50 * 6 * 10,
                  "pt makes num_reads x num_sweeps x num_replicas x n flip attempts")


def is_local_minimum(lin, quad, offset, x):
    e = energy(lin, quad, offset, x)
    for v in range(len(x)):
        y = list(x)
        y[v] ^= 1
        if energy(lin, quad, offset, y) < e:
            return False
    return True


def test_python_backend():
    lin, quad, offset = random_model(8, seed=5)
    best, argmins = brute_force(lin, quad, offset)
    backend = RestartDescent()
    with build(lin, quad, offset) as m:
        s = q.Solver.from_backend(backend)
        check(s.name == "py-descent", "backend solver name 'py-descent'")
        check(s.describe().startswith("py-descent: random restarts"),
              "describe slot answered from Python")
        s.set_int("num_reads", 40)
        s.set_int("seed", 7)
        e = expect_error(q.QUBO_ERR_NOT_SUPPORTED, s.set_int, "num_sweeps", 5)
        check(e is not None and "py-descent" in e.message and "num_sweeps" in e.message,
              "set_param slot rejects a key: %r" % (e.message if e else None))
        with s.sample(m) as res:
            rows = list(res)
            check(backend.calls == 1, "the Python sample slot ran once")
            check(sum(occ for _, _, occ in rows) == 40,
                  "host received the 40 samples the backend added")
            check(all(e == energy(lin, quad, offset, x) for x, e, _ in rows),
                  "host-computed energies equal Python's")
            check(all(is_local_minimum(lin, quad, offset, x) for x, _, _ in rows),
                  "every sample is a 1-flip local minimum (the descent ran)")
            x, e = res.lowest()
            check(e == best and x in argmins,
                  "Python backend's best %g is the brute-force minimum %g" % (e, best))
            check(res.info()["seed"] == 7, "the backend's run used seed 7")
        s.close()
        check(backend.destroyed, "destroy slot called by qubo_solver_free")

        broken = q.Solver.from_backend(Broken())
        e = expect_error(q.QUBO_ERR_CALLBACK, broken.sample, m)
        check(e is not None and "broke on purpose" in e.message and "py-broken" in e.message,
              "a Python exception in the slot becomes QUBO_ERR_CALLBACK: %r"
              % (e.message if e else None))
        broken.close()


def test_errors():
    with q.Model(3) as m:
        e = expect_error(q.QUBO_ERR_OUT_OF_RANGE, m.add_linear, 3, 1.0)
        check(e is not None and e.name == "QUBO_ERR_OUT_OF_RANGE"
              and "qubo_model_add_linear" in e.message and "var = 3" in e.message,
              "add_linear(3) on 3 variables: %s" % e)
        check(e is not None and str(e).startswith("QUBO_ERR_OUT_OF_RANGE: "),
              "the exception text starts with the status name")
        e = expect_error(q.QUBO_ERR_INVALID_ARG, m.add_linear, 0, float("nan"))
        check(e is not None, "a NaN weight: QUBO_ERR_INVALID_ARG (%s)" % e)
        m.add_quadratic(0, 1, 1.0)  # pending until compiled: the model is dirty
        e = expect_error(q.QUBO_ERR_MISUSE, m.energy, [0, 0, 0])
        check(e is not None, "energy of a dirty model: QUBO_ERR_MISUSE (%s)" % e)
        m.compile()
        e = expect_error(q.QUBO_ERR_INVALID_ARG, m.energy, [0, 0])
        check(e is not None, "energy of a sample of the wrong length: %s" % e)
    e = expect_error(q.QUBO_ERR_NOT_SUPPORTED, q.Solver, "no-such-solver")
    check(e is not None and "sa" in e.message, "unknown solver name: %s" % e)


PUZZLE = "queens 4\naabb\nacbB\ndccb\nddc.\n"


def queens_solutions(text):
    """Every solution of a LinkedIn Queens text, by brute force over the
    rules of doc/formats.md (one queen per row, column and region, no two
    diagonal neighbours, pre-placed queens kept, '.' never holds one)."""
    rows = text.split("\n")[1:]
    n = int(text.split()[1])
    grid = rows[:n]
    sols = []
    for perm in itertools.permutations(range(n)):
        cells = [(r, perm[r]) for r in range(n)]
        if any(grid[r][c] == "." for r, c in cells):
            continue
        if len({grid[r][c].lower() for r, c in cells}) != n:
            continue
        if any(abs(perm[r] - perm[r + 1]) == 1 for r in range(n - 1)):
            continue
        if any(ch.isupper() and perm[r] != c for r in range(n)
               for c, ch in enumerate(grid[r])):
            continue
        board = bytearray(n * n)
        for r, c in cells:
            board[r * n + c] = 1
        sols.append(bytes(board))
    return sols


def test_puzzle(cli):
    expected = queens_solutions(PUZZLE)
    check(len(expected) == 1, "the puzzle has exactly one solution (Python brute force)")
    with q.Puzzle(PUZZLE) as p:
        check(p.family == q.QUBO_PUZZLE_QUEENS, "family QUBO_PUZZLE_QUEENS")
        st = p.stats()
        check((st["width"], st["height"]) == (4, 4), "board 4 x 4")
        if cli:
            r = subprocess.run([cli, "info", "-"], input=PUZZLE, capture_output=True,
                               text=True, timeout=60, env=program_env())
            out = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
            check(r.returncode == 0 and out.get("family", "").startswith("queens"),
                  "`qubo info` accepts the puzzle (exit %d)" % r.returncode)
            check(int(out.get("variables", -1)) == st["variables_after"]
                  and int(out.get("cells fixed", -1)) == st["cells_fixed"]
                  and int(out.get("variables before reduction", -1)) == st["variables_before"],
                  "stats agree with `qubo info` (variables %d, cells fixed %d)"
                  % (st["variables_after"], st["cells_fixed"]))
        # The full reduction solves this one: the model has no variables left.
        m = p.model()
        with q.Solver("exhaustive") as s, s.sample(m) as res:
            board = p.decode(res.lowest()[0])
            check(board == expected[0], "reduced model decodes to the solution")

    # Without reduction every cell is a variable: a real search.
    with q.Puzzle(PUZZLE, reduce=q.QUBO_REDUCE_NONE, penalty=2.0) as p:
        m = p.model()
        check(m.num_variables >= 15, "unreduced model has %d variables" % m.num_variables)
        ground = p.ground_energy()
        for name in ("sa", "exhaustive"):
            with q.Solver(name) as s:
                if name == "sa":
                    s.set_int("seed", 99)
                    s.set_int("num_reads", 20)
                with s.sample(m) as res:
                    sample, e = res.lowest()
                    check(e == ground, "%s reaches the ground energy %g" % (name, ground))
                    board = p.decode(sample)
                    violations, report = p.check(board)
                    check(violations == 0 and report == "",
                          "%s: decoded board passes qubo_puzzle_check" % name)
                    check(board == expected[0], "%s: board equals Python's solution" % name)
        text = p.format_solution(expected[0])
        check(text == "queens 4\n.Q..\n...Q\nQ...\n..Q.\n",
              "format_solution writes the header and grid: %r" % text)
        violations, report = p.check(bytes(16))
        check(violations == 13 and "row 1 has 0 queens, needs 1" in report
              and "pre-placed queen at row 2, column 4 is missing" in report,
              "empty board: %d violations, report names them" % violations)
    e = expect_error(q.QUBO_ERR_PARSE, q.Puzzle, "queens 4\naabb\nacbZ\ndccb\nddc.\n")
    check(e is not None and "line 3, column 4" in e.message,
          "parse error names line 3, column 4: %s" % e)


# --- Solving, counting and cells (qubo_puzzle_solve, _count, _get_cell) ----

LAYOUTS = {
    "qubo_sample_info": q.SampleInfo,
    "qubo_puzzle_cell": q.PuzzleCell,
    "qubo_puzzle_progress": q.PuzzleProgress,
    "qubo_puzzle_options": q.PuzzleOptions,
    "qubo_puzzle_solve_options": q.PuzzleSolveOptions,
    "qubo_puzzle_result": q.PuzzleResult,
    "qubo_puzzle_count_options": q.PuzzleCountOptions,
    "qubo_puzzle_count_result": q.PuzzleCountResult,
}
V1 = {
    "qubo_sample_info": q.SAMPLE_INFO_SIZE_V1,
    "qubo_puzzle_cell": q.PUZZLE_CELL_SIZE_V1,
    "qubo_puzzle_options": q.PUZZLE_OPTIONS_SIZE_V1,
    "qubo_puzzle_solve_options": q.PUZZLE_SOLVE_OPTIONS_SIZE_V1,
    "qubo_puzzle_result": q.PUZZLE_RESULT_SIZE_V1,
    "qubo_puzzle_count_options": q.PUZZLE_COUNT_OPTIONS_SIZE_V1,
    "qubo_puzzle_count_result": q.PUZZLE_COUNT_RESULT_SIZE_V1,
}
V2 = {
    "qubo_sample_info": q.SAMPLE_INFO_SIZE_V2,
}


def test_struct_layouts(layout_program):
    """Every field's offset and size, each struct's size and its _SIZE_V1
    (and _SIZE_V2) macros, as the C compiler computes them, against the
    ctypes layouts."""
    if not layout_program:
        print("skip: no struct layout program given (4th argument)")
        return
    text = subprocess.run([layout_program], capture_output=True, text=True, timeout=60,
                          check=True, env=program_env()).stdout
    structs, current = {}, None
    for line in text.splitlines():
        kind, name, a, b, *more = line.split()
        if kind == "struct":
            current = structs[name] = {"size": int(a), "v1": int(b), "fields": []}
            if more:
                current["v2"] = int(more[0])
        else:
            current["fields"].append((name, int(a), int(b)))
    check(sorted(structs) == sorted(LAYOUTS), "layouts printed for %s" % ", ".join(structs))
    for name, cls in LAYOUTS.items():
        c = structs.get(name)
        if not c:
            continue
        py_fields = [(f, getattr(cls, f).offset, getattr(cls, f).size) for f, _ in cls._fields_]
        check(py_fields == c["fields"],
              "%s: ctypes fields, offsets and sizes equal C's (%d fields)"
              % (name, len(c["fields"])))
        check(ctypes.sizeof(cls) == c["size"],
              "%s: sizeof %d in ctypes, %d in C" % (name, ctypes.sizeof(cls), c["size"]))
        if name in V1:
            check(V1[name] == c["v1"], "%s: _SIZE_V1 %d from the ctypes offsets, %d in C"
                  % (name, V1[name], c["v1"]))
        check(V2.get(name) == c.get("v2"), "%s: _SIZE_V2 %s from the ctypes offsets, %s in C"
              % (name, V2.get(name), c.get("v2")))


def test_struct_versions():
    """The library accepts the first layouts' sizes and refuses smaller ones."""
    with q.Puzzle("nqueens 6\n") as p:
        cells = 36
        board = (ctypes.c_uint8 * cells)()
        opts = q.PuzzleSolveOptions(struct_size=q.PUZZLE_SOLVE_OPTIONS_SIZE_V1, seed=3)
        res = q.PuzzleResult(struct_size=q.PUZZLE_RESULT_SIZE_V1)
        rc = q._puzzle.qubo_puzzle_solve(p.handle, ctypes.byref(opts), board, cells,
                                         ctypes.byref(res))
        check(rc == q.QUBO_OK and res.verdict == q.QUBO_PUZZLE_SOLVED
              and res.struct_size == q.PUZZLE_RESULT_SIZE_V1,
              "solve with V1-sized options and result: status %d, verdict %d"
              % (rc, res.verdict))
        res = q.PuzzleResult(struct_size=q.PUZZLE_RESULT_SIZE_V1 - 1)
        rc = q._puzzle.qubo_puzzle_solve(p.handle, None, board, cells, ctypes.byref(res))
        check(rc == q.QUBO_ERR_UNSUPPORTED_VERSION,
              "a result one byte short of V1: QUBO_ERR_UNSUPPORTED_VERSION (%d)" % rc)
        copts = q.PuzzleCountOptions(struct_size=q.PUZZLE_COUNT_OPTIONS_SIZE_V1)
        cres = q.PuzzleCountResult(struct_size=q.PUZZLE_COUNT_RESULT_SIZE_V1)
        rc = q._puzzle.qubo_puzzle_count(p.handle, ctypes.byref(copts), ctypes.byref(cres))
        check(rc == q.QUBO_OK and cres.count == 4 and cres.complete == 1,
              "count with V1-sized options and result: %d solutions" % cres.count)
        cell = q.PuzzleCell(struct_size=q.PUZZLE_CELL_SIZE_V1)
        rc = q._puzzle.qubo_puzzle_get_cell(p.handle, 0, 0, ctypes.byref(cell))
        check(rc == q.QUBO_OK and cell.on_board == 1, "get_cell with a V1-sized cell")


def test_sample_info_versions():
    """qubo_sampleset_get_info() fills a V1-sized qubo_sample_info up to its
    seed and leaves the V2 fields alone; a size below V1 is refused; a solver
    that reports no expectation leaves has_expectation 0."""
    with q.Model(3) as m:
        m.add_linear(0, -1.0)
        m.add_quadratic(1, 2, 1.0)
        m.compile()
        with q.Solver("exhaustive") as s, s.sample(m) as res:
            info = q.SampleInfo(struct_size=q.SAMPLE_INFO_SIZE_V1, expectation=7.5,
                                lowest_probability=0.25, has_expectation=9)
            rc = q._core.qubo_sampleset_get_info(res.handle, ctypes.byref(info))
            check(rc == q.QUBO_OK and info.flip_attempts == 8 and info.expectation == 7.5
                  and info.lowest_probability == 0.25 and info.has_expectation == 9,
                  "get_info with a V1-sized info: %d states visited, the V2 fields untouched"
                  % info.flip_attempts)
            info = q.SampleInfo(struct_size=q.SAMPLE_INFO_SIZE_V1 - 1)
            rc = q._core.qubo_sampleset_get_info(res.handle, ctypes.byref(info))
            check(rc == q.QUBO_ERR_UNSUPPORTED_VERSION,
                  "an info one byte short of V1: QUBO_ERR_UNSUPPORTED_VERSION (%d)" % rc)
            full = res.info()
            check(full["has_expectation"] == 0 and full["expectation"] == 0.0
                  and full["lowest_probability"] == 0.0,
                  "exhaustive reports no expectation: has_expectation 0")


def strip_comments(text):
    return "".join(line for line in text.splitlines(True) if not line.startswith("#"))


def test_solve_collection():
    """Every queens-family puzzle of the shared collection, solved through the
    binding with the default strategy; each board confirmed by
    qubo_puzzle_check and, for the unique ones, equal to the published
    solution."""
    root = os.environ.get("QUBO_PUZZLES_DIR", "")
    paths = sorted(glob.glob(os.path.join(root, "queens", "*.txt"))) if root else []
    if not paths:
        print("skip: the shared puzzle collection is absent (QUBO_PUZZLES_DIR=%r)" % root)
        return
    t0 = time.perf_counter()
    bad, published, methods = [], 0, {}
    for path in paths:
        name = os.path.basename(path)
        with open(path) as f:
            text = f.read()
        with q.Puzzle(text) as p:
            r = p.solve(seed=1)
            if r["status"] != q.QUBO_OK or r["verdict"] != q.QUBO_PUZZLE_SOLVED \
                    or r["board"] is None:
                bad.append("%s: status %d, verdict %s" % (name, r["status"],
                                                          q.VERDICT_NAMES[r["verdict"]]))
                continue
            violations, report = p.check(r["board"])
            if violations or r["violations"]:
                bad.append("%s: the board breaks %d rules: %s" % (name, violations, report))
                continue
            methods[r["method"]] = methods.get(r["method"], 0) + 1
            sol = path[:-4] + ".solution"
            if "# solutions: 1 " in text and os.path.exists(sol):
                with open(sol) as f:
                    want = strip_comments(f.read())
                published += 1
                if p.format_solution(r["board"]) != want:
                    bad.append("%s: the board differs from %s" % (name, os.path.basename(sol)))
    for b in bad[:10]:
        print("  " + b)
    check(not bad, "%d queens puzzles solved through the binding and confirmed by "
          "qubo_puzzle_check, %d equal to their published solution (%s; %.1f s)"
          % (len(paths) - len(bad), published,
             ", ".join("%s: %d" % kv for kv in sorted(methods.items())),
             time.perf_counter() - t0))


def test_solve_options():
    """A caller's solver, the strategies, a Python solver backend."""
    with q.Puzzle("nqueens 8\n") as p, q.Solver("sa") as s:
        s.set_int("num_reads", 3)
        r = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, seed=5, solver=s)
        ok = r["verdict"] == q.QUBO_PUZZLE_SOLVED and p.check(r["board"])[0] == 0
        # each round draws at most 3 reads (fewer when one reaches the target)
        check(ok and r["method"] == "sa" and r["seed"] == 5
              and r["rounds"] <= r["reads"] <= 3 * r["rounds"],
              "sample with a caller's sa (num_reads 3): %s, %d reads, %d rounds"
              % (q.VERDICT_NAMES[r["verdict"]], r["reads"], r["rounds"]))
        again = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, seed=5, solver=s, threads=1)
        check(again["board"] == r["board"], "the same seed gives the same board on 1 thread")
        # on 2 threads the first read to reach the target ends the round, and
        # which read that is depends on timing (doc/solvers.md, LIMITATIONS)
        two = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, seed=5, solver=s, threads=2)
        check(two["verdict"] == q.QUBO_PUZZLE_SOLVED and p.check(two["board"])[0] == 0,
              "the same seed on 2 threads: %s, a board the checker accepts"
              % q.VERDICT_NAMES[two["verdict"]])
        r = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SEARCH)
        check(r["verdict"] == q.QUBO_PUZZLE_SOLVED and r["method"] == "branch and reduce"
              and r["nodes"] > 0 and r["rounds"] == 0 and p.check(r["board"])[0] == 0,
              "search strategy: %s in %d nodes" % (q.VERDICT_NAMES[r["verdict"]], r["nodes"]))
    with q.Puzzle("nqueens 8 torus\n") as p:
        r = p.solve()
        check(r["status"] == q.QUBO_OK and r["verdict"] == q.QUBO_PUZZLE_INFEASIBLE
              and r["board"] is None, "nqueens 8 torus: proven infeasible (%s, %s)"
              % (q.VERDICT_NAMES[r["verdict"]], r["method"]))
    with q.Puzzle(PUZZLE, reduce=q.QUBO_REDUCE_NONE) as p:
        backend = RestartDescent()
        s = q.Solver.from_backend(backend)
        s.set_int("num_reads", 8)
        r = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, seed=2, solver=s, time_limit=30)
        check(r["verdict"] == q.QUBO_PUZZLE_SOLVED and r["board"] == queens_solutions(PUZZLE)[0]
              and backend.calls == r["rounds"] and r["method"] == "a caller's solver",
              "a Python backend solves the puzzle through qubo_puzzle_solve: %d round(s), "
              "method %r" % (r["rounds"], r["method"]))
        s.close()
    with q.Puzzle("domination 8\n") as p:
        r = p.solve()
        check(r["verdict"] == q.QUBO_PUZZLE_OPTIMAL and r["energy"] == 5
              and sum(r["board"]) == 5, "domination 8: 5 queens (%s)"
              % q.VERDICT_NAMES[r["verdict"]])
    with q.Puzzle("nqueens 6\n") as p:
        e = expect_error(q.QUBO_ERR_INVALID_ARG, p.solve, 7)
        check(e is not None and "strategy" in e.message, "strategy 7: %s" % e)


def test_count():
    with q.Puzzle("nqueens 8\n") as p:
        r = p.count()
        check(r["status"] == q.QUBO_OK and r["count"] == 92 and r["complete"] == 1,
              "nqueens 8: %d solutions by %s, complete %d"
              % (r["count"], r["method"], r["complete"]))
        boards = []
        r = p.count(limit=10, on_solution=boards.append)
        check(r["status"] == q.QUBO_OK and r["count"] == 10 and r["complete"] == 0
              and len(set(boards)) == 10 and all(p.check(b)[0] == 0 for b in boards),
              "limit 10: 10 distinct valid boards through on_solution, complete 0")
        seen = []
        r = p.count(on_solution=lambda b: seen.append(b) or len(seen) == 5)
        check(r["status"] == q.QUBO_CANCELLED and r["count"] == 5 and r["complete"] == 0,
              "on_solution returning true at the 5th: QUBO_CANCELLED, count %d" % r["count"])
    with q.Puzzle("nqueens 5\n") as p:
        r = p.count(method=q.QUBO_PUZZLE_COUNT_ENUMERATE)
        check(r["count"] == 10 and r["method"] == "enumeration",
              "nqueens 5 by enumeration: %d" % r["count"])
    with q.Puzzle("nqueens 8\n") as p:
        e = expect_error(q.QUBO_ERR_TOO_LARGE, p.count, q.QUBO_PUZZLE_COUNT_ENUMERATE)
        check(e is not None and "64 variables" in e.message, "enumerating 64 variables: %s" % e)
    with q.Puzzle("domination 4\n") as p:
        r = p.count()
        check(r["count"] == 12 and r["complete"] == 1, "domination 4: %d dominating sets"
              % r["count"])


def test_binary_and_tents():
    """Takuzu, Tango and Tents through the same calls as every family."""
    cases = (
        ("takuzu 4\n....\n....\n....\n....\n", q.QUBO_PUZZLE_TAKUZU, 72),
        ("takuzu 4 nounique\n....\n....\n....\n....\n", q.QUBO_PUZZLE_TAKUZU, 90),
        ("tango 4\n0=. . .\n       \n. . .x.\n       \n. . . .\n       \n. . . .\n",
         q.QUBO_PUZZLE_TANGO, None),
        ("tents 4x4\ncols 1 0 0 1\nrows 1 0 0 1\n.T..\n....\n....\n..T.\n",
         q.QUBO_PUZZLE_TENTS, 1),
        ("6x6:cCCBcBgCBbBCb", q.QUBO_PUZZLE_TAKUZU, 1),
    )
    for text, family, want in cases:
        with q.Puzzle(text) as p:
            check(p.family == family, "%r: family %d" % (text[:12], p.family))
            r = p.solve()
            check(r["status"] == q.QUBO_OK and r["verdict"] == q.QUBO_PUZZLE_SOLVED
                  and p.check(r["board"])[0] == 0,
                  "%r: solved and valid (%s)" % (text[:12], r["verdict"]))
            c = p.count()
            check(c["complete"] == 1 and c["count"] >= 1 and (want is None or c["count"] == want),
                  "%r: %d solutions, want %s" % (text[:12], c["count"], want))
    e = expect_error(q.QUBO_ERR_INFEASIBLE, q.Puzzle,
                     "tango 4\n.=. . .\n= x    \n.=. . .\n       \n. . . .\n       \n. . . .\n")
    check(e is not None and "cycle" in e.message, "a sign cycle: %s" % e)


def test_stop_from_python():
    """A progress callback stops a solve and a count; an exception raised in
    one stops the run and reaches the caller."""
    calls = []

    def stop_soon(progress):
        calls.append(progress)
        return progress["seconds"] > 0.2

    with q.Puzzle("nqueens 8 torus\n") as p:
        # sampling only: the rounds would go on to the time limit
        r = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, time_limit=60, progress=stop_soon)
        stopped = r["verdict"] == q.QUBO_PUZZLE_STOPPED or (
            r["board"] is not None and p.check(r["board"])[0] == r["violations"])
        check(r["status"] == q.QUBO_CANCELLED and stopped and r["seconds"] < 30,
              "solve stopped by the Python progress callback: QUBO_CANCELLED, verdict %s, "
              "%d calls, %.2f s" % (q.VERDICT_NAMES[r["verdict"]], len(calls), r["seconds"]))
        check(all(c["phase"] == q.QUBO_PUZZLE_PHASE_SAMPLE for c in calls)
              and calls[-1]["has_target"] == 1 and calls[-1]["reads"] >= 1,
              "progress figures: phase sample, target set, %d reads" % calls[-1]["reads"])
        r = p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, time_limit=0.3)
        check(r["status"] == q.QUBO_TIME_LIMIT and r["verdict"] == q.QUBO_PUZZLE_STOPPED,
              "a time limit of 0.3 s: QUBO_TIME_LIMIT, verdict %s"
              % q.VERDICT_NAMES[r["verdict"]])

        def broken(progress):
            raise ValueError("the progress callback broke on purpose")
        try:
            p.solve(strategy=q.QUBO_PUZZLE_STRATEGY_SAMPLE, time_limit=60, progress=broken)
            check(False, "an exception in the progress callback reaches the caller")
        except ValueError as e:
            check("on purpose" in str(e), "an exception in the progress callback stops the "
                  "run and reaches the caller")
    with q.Puzzle("nqueens 14\n") as p:
        del calls[:]
        r = p.count(progress=stop_soon)
        check(r["status"] == q.QUBO_CANCELLED and r["complete"] == 0
              and 0 < r["count"] < 365596 and calls[-1]["phase"] == q.QUBO_PUZZLE_PHASE_SEARCH,
              "count of nqueens 14 stopped by the progress callback after %d solutions"
              % r["count"])


def check_cells(p, text, what):
    """get_cell of every cell against the queens text: a letter is its region
    (a = 0), uppercase a pre-placed queen, '.' a cell off the board."""
    rows = [line for line in strip_comments(text).splitlines() if line.strip()][1:]
    n = len(rows)
    bad = []
    for r in range(n):
        for c in range(n):
            ch, cell = rows[r][c], p.cell(r, c)
            want = {"on_board": 0 if ch == "." else 1,
                    "region": -1 if ch == "." else ord(ch.lower()) - ord("a"),
                    "given": 1 if ch.isupper() else -1, "piece": -1}
            if any(cell[k] != v for k, v in want.items()):
                bad.append("(%d, %d) %r: %s" % (r, c, ch, cell))
    for b in bad[:5]:
        print("  " + b)
    check(not bad, "get_cell: the %d cells of %s match the regions, givens and holes of its "
          "text" % (n * n, what))
    e = expect_error(q.QUBO_ERR_OUT_OF_RANGE, p.cell, n, 0)
    check(e is not None, "get_cell past the last row of %s: QUBO_ERR_OUT_OF_RANGE" % what)


def test_cells():
    root = os.environ.get("QUBO_PUZZLES_DIR", "")
    path = os.path.join(root, "queens", "samimsu-linkedin-001.txt") if root else ""
    if path and os.path.exists(path):
        with open(path) as f:
            text = f.read()
        with q.Puzzle(text) as p:
            check_cells(p, text, os.path.basename(path))
    else:
        print("skip: the shared puzzle collection is absent (QUBO_PUZZLES_DIR=%r); no "
              "LinkedIn board for get_cell" % root)
    with q.Puzzle(PUZZLE, reduce=q.QUBO_REDUCE_NONE) as p:
        check_cells(p, PUZZLE, "the 4 x 4 test puzzle")
        check(all(p.cell(r, c)["literal"] == q.lit(4 * r + c)
                  for r in range(4) for c in range(4) if (r, c) != (3, 3)),
              "get_cell: without reduction, cell (r, c) is variable 4r + c")


def asan_preloaded():
    """True when LD_PRELOAD names an ASan runtime (gcc's libasan.so, clang's
    libclang_rt.asan-ARCH.so)."""
    return any("asan" in os.path.basename(p)
               for p in os.environ.get("LD_PRELOAD", "").replace(":", " ").split())


def program_env():
    """The environment of the programs this test runs: without the
    interpreter's preloaded runtimes, as the programs link their own (clang
    links it into each program, and refuses a second one)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def asan_instrumented(paths):
    """True when the libraries need the ASan runtime and it is not preloaded."""
    if asan_preloaded():
        return False
    if os.environ.get("QUBO_ASAN") == "1":
        return True
    for path in paths:
        if os.path.isfile(path):
            with open(path, "rb") as f:
                if b"libasan.so" in f.read():
                    return True
    return False


def main():
    if len(sys.argv) == 2:
        print(__doc__, file=sys.stderr)
        return 2
    libs, cli = sys.argv[1:3], (sys.argv[3] if len(sys.argv) > 3 else None)
    layout = sys.argv[4] if len(sys.argv) > 4 else None
    if asan_instrumented(libs):
        print("skip: the libraries are ASan-instrumented; Python would need the ASan "
              "runtime preloaded (LD_PRELOAD) to load them")
        return 77
    q.load(*libs)
    for test in (test_model_and_energy, test_penalty, test_exhaustive, test_sa, test_pt,
                 test_python_backend, test_errors, lambda: test_puzzle(cli),
                 lambda: test_struct_layouts(layout), test_struct_versions,
                 test_sample_info_versions,
                 test_solve_collection, test_solve_options, test_count,
                 test_stop_from_python, test_cells, test_binary_and_tents):
        try:
            test()
        except Exception as e:  # an unexpected failure: report it, go on
            import traceback
            traceback.print_exc()
            check(False, "%s raised %s: %s" % (getattr(test, "__name__", "test"),
                                                type(e).__name__, e))
    if failures:
        print("%d check(s) failed:\n  %s" % (len(failures), "\n  ".join(failures)),
              file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
