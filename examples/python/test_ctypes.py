#!/usr/bin/env python3
"""Tests the ctypes binding (qubo_ctypes.py) against the shared libraries:
models and energies, a penalty, the built-in solvers, a puzzle round trip, a
solver backend written in Python, and error reporting. Python recomputes
every figure it can (energies, brute-force minima, the puzzle's solution).

usage: test_ctypes.py LIBQUBO LIBQUBO_PUZZLE [QUBO_CLI]
  LIBQUBO, LIBQUBO_PUZZLE: the shared libraries (files or their directories)
  QUBO_CLI: optional; the qubo program, to cross-check `qubo info`
Exit status: 0 passed, 1 failed, 77 skipped (ASan-instrumented libraries
without the ASan runtime in LD_PRELOAD, which Python needs to load them).
"""
import itertools
import math
import os
import random
import subprocess
import sys

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
                               text=True, timeout=60)
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


def asan_instrumented(paths):
    """True when the libraries need the ASan runtime and it is not preloaded."""
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
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
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    libs, cli = sys.argv[1:3], (sys.argv[3] if len(sys.argv) > 3 else None)
    if asan_instrumented(libs):
        print("skip: the libraries are ASan-instrumented; Python would need the ASan "
              "runtime preloaded (LD_PRELOAD) to load them")
        return 77
    q.load(*libs)
    for test in (test_model_and_energy, test_penalty, test_exhaustive, test_sa,
                 test_python_backend, test_errors, lambda: test_puzzle(cli)):
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
