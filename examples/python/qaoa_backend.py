#!/usr/bin/env python3
"""QAOA in pure Python, plugged into libqubo as a solver backend (standard
library only).

QaoaBackend is a subclass of the binding's Backend: Solver.from_backend()
turns it into a qubo_backend_vtable of ctypes callbacks, so the library
drives it like its built-in solvers (options, seed, progress, time limit,
sample sets). It simulates the Quantum Approximate Optimization Algorithm
exactly, as a state vector of 2^n complex numbers in a Python list, with the
conventions of the C simulator (qubo/qaoa.h):

- qubit i is variable i, |1> is the value 1, and basis state x is the int
  whose bit i is x_i (qubit 0 is the least significant bit);
- the cost operator C is diagonal with the model's energies E(x), offset
  included, read through the binding (qubo_model_export_linear(),
  qubo_model_export_coo(), qubo_model_offset());
- the state of depth p is
  e^{-i b_p B} e^{-i g_p C} ... e^{-i b_1 B} e^{-i g_1 C} |+>^n with the
  mixer B = X_0 + ... + X_{n-1}, so that e^{-i b B} is Rx(2b) on every qubit.

Options (qubo_solver_set_int / _set_string, checked by the set_param slot as
they are set): "p" (1 to 64, the depth; default 1, or the depth of "angles"),
"angles" ("g1,...,gp,b1,...,bp": 2p finite numbers separated by commas; unset
means optimised), "num_iterations" (Nelder-Mead iterations per depth, 1 to
1000000; default 100), "max_qubits" (1 to 12, default 12), and the common
keys "num_reads", "seed", "threads" (accepted, unused: one Python thread),
"time_limit" and "target_energy" (accepted, unused). A model of more
variables than max_qubits is refused with QUBO_ERR_TOO_LARGE.

Optimised angles: depth 1 starts from the best point of a grid over
(gamma, beta), every depth d > 1 from the interpolation of the angles of
depth d - 1 (the INTERP strategy of Zhou, Wang, Choi, Pichler and Lukin,
"Quantum Approximate Optimization Algorithm: Performance, Mechanism, and
Implementation on Near-Term Devices", Phys. Rev. X 10, 021067 (2020)), and
each depth is refined by the Nelder-Mead simplex method (Nelder and Mead,
"A simplex method for function minimization", The Computer Journal 7
(1965)).
The reads are drawn from |psi_x|^2 with random.Random(seed). The run's
expectation <C> and the probability of a read of the lowest energy reach the
caller through qubo_backend_report() (qubo_sample_info's expectation,
lowest_probability and has_expectation).

Run as a program, it solves a small Tango puzzle end to end: the library
builds the reduced model, this backend samples it at p = 1, 2, 3, the
library decodes the lowest read into a board and its rule checker accepts
it:

    python3 qaoa_backend.py [--p P] [LIBDIR ...]   (or QUBO_LIBDIR=dir1:dir2)
"""
import argparse
import bisect
import cmath
import math
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qubo_ctypes as q  # noqa: E402

# The largest model simulated: 4096 amplitudes, about a tenth of a second per
# layer in CPython at 12 qubits.
MAX_QUBITS = 12
MAX_DEPTH = 64
MAX_ITERATIONS = 1000000
DEFAULT_ITERATIONS = 100

# --- The simulator ----------------------------------------------------------


def model_terms(model):
    """(n, linear weights, couplers as (i, j, J_ij), offset) of a compiled
    model, read through the binding."""
    return model.num_variables, model.linear(), model.couplers(), model.offset


def energies(n, linear, couplers, offset):
    """E(x) for every basis state x in [0, 2^n): each state is a smaller one
    with its lowest set bit added, which adds that variable's weight and its
    couplers to the variables already set."""
    neighbours = [[] for _ in range(n)]
    for i, j, w in couplers:
        neighbours[i].append((j, w))
        neighbours[j].append((i, w))
    table = [float(offset)] * (1 << n)
    for x in range(1, 1 << n):
        v = (x & -x).bit_length() - 1
        rest = x & (x - 1)
        table[x] = table[rest] + linear[v] + sum(w for u, w in neighbours[v] if rest >> u & 1)
    return table


def plus_state(n):
    """|+>^n: every amplitude 2^{-n/2}."""
    return [complex(1.0 / math.sqrt(1 << n))] * (1 << n)


def apply_cost(psi, table, gamma):
    """e^{-i gamma C}: a phase per basis state."""
    return [a * cmath.exp(-1j * gamma * e) for a, e in zip(psi, table)]


def apply_mixer(psi, n, beta):
    """e^{-i beta B} = Rx(2 beta) on every qubit: on the pair of states that
    differ in qubit k only, (a, b) -> (cos(beta) a - i sin(beta) b,
    -i sin(beta) a + cos(beta) b). The pairs of qubit k are read as slices:
    runs of 2^k states with bit k clear for the high qubits, arithmetic
    progressions of step 2^{k+1} for the low ones (whichever gives fewer and
    longer slices)."""
    c, s = math.cos(beta), complex(0.0, -math.sin(beta))
    size = len(psi)
    for k in range(n):
        half = 1 << k
        step = half << 1
        if half >= size // step:
            for start in range(0, size, step):
                lo, hi = psi[start:start + half], psi[start + half:start + step]
                psi[start:start + half] = [c * a + s * b for a, b in zip(lo, hi)]
                psi[start + half:start + step] = [s * a + c * b for a, b in zip(lo, hi)]
        else:
            for r in range(half):
                lo, hi = psi[r::step], psi[r + half::step]
                psi[r::step] = [c * a + s * b for a, b in zip(lo, hi)]
                psi[r + half::step] = [s * a + c * b for a, b in zip(lo, hi)]
    return psi


def evolve(n, table, gammas, betas):
    """The state of depth len(gammas) with these angles, from |+>^n."""
    psi = plus_state(n)
    for gamma, beta in zip(gammas, betas):
        psi = apply_mixer(apply_cost(psi, table, gamma), n, beta)
    return psi


def probabilities(psi):
    return [a.real * a.real + a.imag * a.imag for a in psi]


def lowest_states(table):
    """(the lowest energy, the states that have it): energies within
    1e-9 max(1, |E|) of the lowest count as equal, as in qubo/qaoa.h."""
    low = min(table)
    tolerance = 1e-9 * max(1.0, abs(low))
    return low, [x for x, e in enumerate(table) if e - low <= tolerance]


def figures(psi, table, ground):
    """(<C>, the probability of the states in ground)."""
    prob = probabilities(psi)
    return sum(p * e for p, e in zip(prob, table)), sum(prob[x] for x in ground)


def draw(psi, rng, num_reads):
    """num_reads basis states drawn from |psi_x|^2: {state: occurrences}."""
    cumulative, total = [], 0.0
    for p in probabilities(psi):
        total += p
        cumulative.append(total)
    counts = {}
    for _ in range(num_reads):
        x = min(bisect.bisect_right(cumulative, rng.random() * total), len(psi) - 1)
        counts[x] = counts.get(x, 0) + 1
    return counts


def bits(x, n):
    """Basis state x as n bytes, x_0 first."""
    return bytes((x >> i) & 1 for i in range(n))


# --- Angles -----------------------------------------------------------------

_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*\Z")


def parse_angles(text):
    """(gammas, betas) from "g1,...,gp,b1,...,bp"; ValueError when the text
    is not 2p finite decimal numbers (p >= 1) separated by commas."""
    fields = text.split(",")
    bad = [f.strip() for f in fields if not _NUMBER.match(f)]
    if bad:
        raise ValueError("'%s' is not a number" % bad[0])
    values = [float(f) for f in fields]
    if any(not math.isfinite(v) for v in values):
        raise ValueError("an angle is not finite")
    if len(values) % 2 or len(values) // 2 > MAX_DEPTH:
        raise ValueError("%d numbers, expected 2p with p from 1 to %d (g1,...,gp,b1,...,bp)"
                         % (len(values), MAX_DEPTH))
    p = len(values) // 2
    return values[:p], values[p:]


def interp(angles):
    """INTERP: the p + 1 starting angles of depth p + 1 from the p optimised
    ones of depth p, a_i = (i - 1)/p a'_{i-1} + (p - i + 1)/p a'_i for
    i = 1 .. p + 1, with a'_0 = a'_{p+1} = 0 (Zhou et al.)."""
    p = len(angles)
    padded = [0.0] + list(angles) + [0.0]
    return [(i - 1) / p * padded[i - 1] + (p - i + 1) / p * padded[i] for i in range(1, p + 2)]


def nelder_mead(f, start, steps, iterations):
    """Minimises f from start with the Nelder-Mead simplex method
    (reflection 1, expansion 2, contraction 1/2, shrink 1/2), the first
    simplex being start and start + steps[i] e_i. At most iterations steps,
    fewer when the simplex's values agree to 1e-12. Returns (x, f(x))."""
    dim = len(start)
    points = [list(start)]
    for i in range(dim):
        point = list(start)
        point[i] += steps[i]
        points.append(point)
    values = [f(x) for x in points]
    for _ in range(iterations):
        order = sorted(range(dim + 1), key=values.__getitem__)
        points, values = [points[i] for i in order], [values[i] for i in order]
        if values[-1] - values[0] <= 1e-12 * (1.0 + abs(values[0])):
            break
        centre = [sum(x[i] for x in points[:-1]) / dim for i in range(dim)]
        worst = points[-1]

        def along(t):
            return [c + t * (w - c) for c, w in zip(centre, worst)]

        reflected = along(-1.0)
        fr = f(reflected)
        if fr < values[0]:
            expanded = along(-2.0)
            fe = f(expanded)
            points[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            points[-1], values[-1] = reflected, fr
        else:
            # outside contraction when the reflection beats the worst point,
            # inside otherwise
            contracted = along(-0.5 if fr < values[-1] else 0.5)
            fc = f(contracted)
            if fc < min(fr, values[-1]):
                points[-1], values[-1] = contracted, fc
            else:
                best = points[0]
                points = [best] + [[b + 0.5 * (x - b) for b, x in zip(best, point)]
                                   for point in points[1:]]
                values = [values[0]] + [f(x) for x in points[1:]]
    best = min(range(dim + 1), key=values.__getitem__)
    return points[best], values[best]


def flip_scale(n, table):
    """The root mean square of the energy change of one flip,
    E(x with x_i flipped) - E(x) over every state x and variable i; 1 when
    every flip is free. The best depth-1 gamma is typically near its
    inverse: gamma times a typical step between neighbouring states is then
    about one radian."""
    total = 0.0
    for i in range(n):
        bit = 1 << i
        total += sum((table[x ^ bit] - e) ** 2 for x, e in enumerate(table) if not x & bit)
    return math.sqrt(2.0 * total / (n << n)) if total > 0.0 else 1.0


class _Stop(Exception):
    """The host asked the run to stop (status QUBO_CANCELLED or QUBO_TIME_LIMIT)."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


class Optimizer:
    """Angles that minimise <C>: a grid at depth 1, then INTERP and
    Nelder-Mead depth by depth. on_evaluation(count) is called after each
    evaluation and may raise to stop; the best angles met so far stay in
    self.best (depth, gammas, betas, expectation)."""

    def __init__(self, n, table, grid=(10, 8), iterations=DEFAULT_ITERATIONS,
                 on_evaluation=None):
        self.n, self.table = n, table
        # The grid's gammas: (0, pi / flip_scale]. Negative gammas add
        # nothing: (-g, -b) gives the complex conjugate state, with the same
        # probabilities.
        self.gamma_max = math.pi / flip_scale(n, table)
        self.grid, self.iterations = grid, iterations
        self.on_evaluation = on_evaluation
        self.evaluations = 0
        self.best = None
        self.depths = []  # (depth, gammas, betas, <C>) for each depth optimised

    def expectation(self, gammas, betas):
        psi = evolve(self.n, self.table, gammas, betas)
        value = sum(p * e for p, e in zip(probabilities(psi), self.table))
        self.evaluations += 1
        # depths only grow: a deeper state replaces the best of a shallower one
        if self.best is None or len(gammas) > self.best[0] or value < self.best[3]:
            self.best = (len(gammas), list(gammas), list(betas), value)
        if self.on_evaluation:
            self.on_evaluation(self.evaluations)
        return value

    def run(self, p):
        """Optimises depths 1 .. p; returns (gammas, betas, <C>) of depth p."""
        g_points, b_points = self.grid
        start = None
        for a in range(g_points):
            for b in range(b_points):
                # beta over one period, (-pi/2, pi/2]: e^{-i pi B} is a global phase
                gamma = self.gamma_max * (a + 1) / g_points
                beta = math.pi * ((b + 0.5) / b_points - 0.5)
                value = self.expectation([gamma], [beta])
                if start is None or value < start[2]:
                    start = ([gamma], [beta], value)
        gammas, betas = start[0], start[1]
        g_step = 0.5 * self.gamma_max / g_points
        b_step = 0.5 * math.pi / b_points
        for depth in range(1, p + 1):
            if depth > 1:
                gammas, betas = interp(gammas), interp(betas)
            x, value = nelder_mead(lambda v: self.expectation(v[:depth], v[depth:]),
                                   gammas + betas, [g_step] * depth + [b_step] * depth,
                                   self.iterations)
            gammas, betas = x[:depth], x[depth:]
            self.depths.append((depth, gammas, betas, value))
        return gammas, betas, value


# --- The backend ------------------------------------------------------------


class QaoaBackend(q.Backend):
    """QAOA simulated in Python behind the library's backend table.

    grid: (gamma points, beta points) of the depth-1 grid search. After a
    run, self.last holds its figures: p, gammas, betas, expectation,
    lowest_probability, lowest_energy, evaluations, seconds and depths (the
    optimised angles and <C> of each depth, empty when the angles were
    given)."""

    name = "py-qaoa"
    common_keys = ("num_reads", "seed", "threads", "time_limit", "target_energy")

    def __init__(self, grid=(10, 8)):
        self.grid = grid
        self.last = None
        self.calls = 0

    def describe(self):
        return ("py-qaoa: QAOA simulated in pure Python (state vector, at most %d qubits); "
                "options p, angles, num_iterations, max_qubits" % MAX_QUBITS)

    @staticmethod
    def _int(options, key, low, high, default=None):
        """The int under key, default when unset; QuboError when it is not
        an int (QUBO_ERR_INVALID_ARG) or out of [low, high]."""
        if options.type(key) == q.QUBO_TYPE_NONE:
            return default
        value = options.get_int(key, 0)
        if not low <= value <= high:
            raise q.QuboError(q.QUBO_ERR_OUT_OF_RANGE, "%s = %d is out of range [%d, %d]"
                              % (key, value, low, high))
        return value

    @classmethod
    def _depth_and_angles(cls, options):
        """(p, (gammas, betas) or None when they are to be optimised); p and
        the depth of the angles must agree."""
        angles = None
        if options.type("angles") != q.QUBO_TYPE_NONE:
            text = options.get_string("angles")  # QUBO_ERR_INVALID_ARG when not a string
            try:
                angles = parse_angles(text)
            except ValueError as e:
                raise q.QuboError(q.QUBO_ERR_INVALID_ARG,
                                  "angles '%s': %s" % (text, e)) from None
        p = cls._int(options, "p", 1, MAX_DEPTH)
        if angles and p is not None and p != len(angles[0]):
            raise q.QuboError(q.QUBO_ERR_INVALID_ARG, "p = %d but angles has depth %d"
                              % (p, len(angles[0])))
        return p or (len(angles[0]) if angles else 1), angles

    def check_param(self, key, options):
        if key in ("p", "angles"):
            # p and angles must agree, whichever is set last
            self._depth_and_angles(options)
        elif key == "num_iterations":
            self._int(options, key, 1, MAX_ITERATIONS)
        elif key == "max_qubits":
            self._int(options, key, 1, MAX_QUBITS)
        elif key not in self.common_keys:
            raise q.QuboError(q.QUBO_ERR_NOT_SUPPORTED, "unknown option '%s' (accepted: %s)"
                              % (key, ", ".join(("p", "angles", "num_iterations", "max_qubits")
                                                + self.common_keys)))

    def sample(self, ctx, model, options):
        self.calls += 1
        t0 = time.perf_counter()
        max_qubits = self._int(options, "max_qubits", 1, MAX_QUBITS, MAX_QUBITS)
        n, linear, couplers, offset = model_terms(model)
        if n > max_qubits:
            raise q.QuboError(q.QUBO_ERR_TOO_LARGE,
                              "%d variables: the state would hold 2^%d amplitudes; this "
                              "simulator takes at most %d qubits" % (n, n, max_qubits))
        p, angles = self._depth_and_angles(options)
        iterations = self._int(options, "num_iterations", 1, MAX_ITERATIONS, DEFAULT_ITERATIONS)
        reads = options.get_int("num_reads", 10)
        rng = random.Random(options.get_int("seed", 0) & 0xFFFFFFFFFFFFFFFF)

        table = energies(n, linear, couplers, offset)
        low, ground = lowest_states(table)
        status = q.QUBO_OK
        optimizer = None
        if angles:
            gammas, betas = angles
        else:
            clock = [time.perf_counter()]

            def on_evaluation(count):
                # ask the host about every 0.1 s: progress callback, time limit
                now = time.perf_counter()
                if now - clock[0] >= 0.1:
                    clock[0] = now
                    stop = ctx.progress(0, reads)
                    if stop:
                        raise _Stop(stop)

            optimizer = Optimizer(n, table, self.grid, iterations, on_evaluation)
            try:
                gammas, betas, _ = optimizer.run(p)
            except _Stop as stop:
                # stopped early: measure the best state met so far
                status = stop.status
                _, gammas, betas, _ = optimizer.best
        psi = evolve(n, table, gammas, betas)
        expectation, lowest_probability = figures(psi, table, ground)
        counts = draw(psi, rng, reads)
        states = sorted(counts)
        ctx.add_samples([bits(x, n) for x in states], [counts[x] for x in states])
        ctx.report(expectation=expectation, lowest_probability=lowest_probability,
                   has_expectation=1)
        self.last = {"p": len(gammas), "gammas": list(gammas), "betas": list(betas),
                     "expectation": expectation, "lowest_probability": lowest_probability,
                     "lowest_energy": low,
                     "evaluations": optimizer.evaluations if optimizer else 1,
                     "depths": optimizer.depths if optimizer else [],
                     "seconds": time.perf_counter() - t0}
        if status == q.QUBO_OK:
            # the run is complete: a stop asked for now has nothing left to stop
            ctx.progress(reads, reads, min(table[x] for x in states))
        return status


# --- A puzzle end to end ----------------------------------------------------

# A 6 x 6 Tango made for this example (qubo/puzzle.h, doc/formats.md): three
# clues and twelve signs, one solution. The full reduction (the default)
# leaves 12 variables, as many as this simulator takes; the clues alone leave
# 21, no reduction 36.
PUZZLE = """\
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


def solve_puzzle(text, depths=(1, 2, 3), num_reads=2000, seed=1, grid=(10, 8),
                 iterations=DEFAULT_ITERATIONS, reduce=q.QUBO_REDUCE_FULL):
    """Builds the puzzle's reduced model with the library, samples it with
    QaoaBackend at each depth, decodes the lowest read into a board with
    qubo_puzzle_decode() and checks it with qubo_puzzle_check(). Returns
    (the puzzle's stats, [one dict per depth: p, expectation,
    lowest_probability (as reported in qubo_sample_info), energy (of the
    lowest read), ground_energy, board, violations, report, seconds])."""
    runs = []
    with q.Puzzle(text, reduce=reduce) as puzzle:
        stats = puzzle.stats()
        model = puzzle.model()
        ground = puzzle.ground_energy()
        backend = QaoaBackend(grid)
        with q.Solver.from_backend(backend) as solver:
            solver.set_int("num_reads", num_reads)
            solver.set_int("seed", seed)
            solver.set_int("num_iterations", iterations)
            for p in depths:
                solver.set_int("p", p)
                with solver.sample(model) as samples:
                    sample, energy = samples.lowest()
                    info = samples.info()
                board = puzzle.decode(sample)
                violations, report = puzzle.check(board)
                runs.append({"p": p, "expectation": info["expectation"],
                             "lowest_probability": info["lowest_probability"],
                             "has_expectation": info["has_expectation"], "energy": energy,
                             "ground_energy": ground, "board": board,
                             "violations": violations, "report": report,
                             "solution": puzzle.format_solution(board) if not violations
                             else None, "seconds": info["seconds"],
                             "backend": dict(backend.last)})
    return stats, runs


def main(argv):
    parser = argparse.ArgumentParser(
        description="Solves a 6 x 6 Tango with QAOA simulated in Python, at p = 1 .. P.")
    parser.add_argument("--p", type=int, default=3, metavar="P",
                        help="the largest depth (default 3; 1 to %d)" % MAX_DEPTH)
    parser.add_argument("places", nargs="*", metavar="LIBDIR",
                        help="directories or files of libqubo and libqubo-puzzle")
    args = parser.parse_args(argv[1:])
    if not 1 <= args.p <= MAX_DEPTH:
        parser.error("--p %d is out of range [1, %d]" % (args.p, MAX_DEPTH))
    q.load(*args.places)
    levels = (("none", q.QUBO_REDUCE_NONE), ("clues", q.QUBO_REDUCE_CLUES),
              ("full", q.QUBO_REDUCE_FULL))
    sizes = []
    for name, level in levels:
        with q.Puzzle(PUZZLE, reduce=level) as puzzle:
            sizes.append("%s %d" % (name, puzzle.stats()["variables_after"]))
    print("Tango 6 x 6, variables after each reduction: %s" % ", ".join(sizes))
    stats, runs = solve_puzzle(PUZZLE, depths=range(1, args.p + 1))
    n = stats["variables_after"]
    print("QAOA in Python on the full reduction: %d qubits, ground energy %g, "
          "probability %.5f for a uniform read" % (n, runs[0]["ground_energy"], 2.0 ** -n))
    print(" p   <C>      P(lowest)  lowest read  board         seconds")
    for run in runs:
        print("%2d %8.4f %10.5f %12g  %-13s %7.2f"
              % (run["p"], run["expectation"], run["lowest_probability"], run["energy"],
                 "valid" if run["violations"] == 0 else "%d broken" % run["violations"],
                 run["seconds"]))
    try:
        c_solver = q.Solver("qaoa")
    except q.QuboError:
        c_solver = None
    if c_solver is not None:
        # the same reads and seed; the library's own optimiser
        print("The library's \"qaoa\" solver on the same model:")
        with c_solver, q.Puzzle(PUZZLE) as puzzle:
            c_solver.set_int("num_reads", 2000)
            c_solver.set_int("seed", 1)
            for run in runs:
                c_solver.set_int("p", run["p"])
                with c_solver.sample(puzzle.model()) as samples:
                    info, (sample, energy) = samples.info(), samples.lowest()
                violations = puzzle.check(puzzle.decode(sample))[0]
                print("%2d %8.4f %10.5f %12g  %-13s %7.2f"
                      % (run["p"], info["expectation"], info["lowest_probability"], energy,
                         "valid" if violations == 0 else "%d broken" % violations,
                         info["seconds"]))
    last = runs[-1]
    if last["solution"]:
        print("The lowest read of p = %d, decoded and checked:\n%s"
              % (last["p"], last["solution"]), end="")
    return 0 if all(run["violations"] == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
