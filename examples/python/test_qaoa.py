#!/usr/bin/env python3
"""Tests QAOA through the ctypes binding: the library's simulator (Qaoa,
qasm()), its "qaoa" solver, and the pure-Python QAOA backend of
qaoa_backend.py plugged in through the backend table.

The two simulators are written apart and check each other: their amplitudes
agree to 1e-10 on random models of 1 to 8 qubits at depths 1 to 3. Python
also recomputes what it can on its own: the mixer as a dense product of
Rx(2 beta) matrices, energies by brute force, the OpenQASM circuit run gate
by gate, read frequencies against the probabilities, and a Tango board
checked against the puzzle's rules read from its text.

usage: test_qaoa.py [LIBQUBO LIBQUBO_PUZZLE]
  LIBQUBO, LIBQUBO_PUZZLE: the shared libraries (files or their directories);
    without them, those qubo.load() finds (QUBO_LIBDIR, else the installed
    ones)
Exit status: 0 passed, 1 failed, 77 skipped (ASan-instrumented libraries
without the ASan runtime in LD_PRELOAD).
"""
import cmath
import io
import math
import os
import random
import re
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qaoa_backend as qb  # noqa: E402
import qubo_ctypes as q  # noqa: E402
from test_ctypes import asan_instrumented, check, expect_error, failures  # noqa: E402

# --- Helpers ----------------------------------------------------------------


def random_model(n, seed, dyadic=False):
    """A compiled model of n variables with random weights: halves when
    dyadic (every energy exact in doubles), any doubles otherwise."""
    rnd = random.Random(seed)

    def weight():
        return rnd.randint(-8, 8) / 2 if dyadic else rnd.uniform(-3.0, 3.0)

    m = q.Model(n)
    m.add_offset(weight())
    for i in range(n):
        m.add_linear(i, weight())
    for i in range(n):
        for j in range(i + 1, n):
            if rnd.random() < 0.6:
                m.add_quadratic(i, j, weight())
    m.compile()
    return m


def python_table(model):
    return qb.energies(*qb.model_terms(model))


def max_diff(a, b):
    return max((abs(x - y) for x, y in zip(a, b)), default=0.0) if len(a) == len(b) \
        else math.inf


def dense_mixer(psi, n, beta):
    """e^{-i beta B} as a dense matrix: <y|U|x> is the product over the
    qubits of cos(beta) where x and y agree and -i sin(beta) where they
    differ."""
    c, s = math.cos(beta), -1j * math.sin(beta)
    return [sum(a * math.prod(s if (x ^ y) >> k & 1 else c for k in range(n))
                for x, a in enumerate(psi)) for y in range(len(psi))]


# --- The pure-Python simulator on its own -----------------------------------


def test_python_simulator():
    rnd = random.Random(11)
    worst = 0.0
    for n in range(1, 6):
        psi = [complex(rnd.gauss(0, 1), rnd.gauss(0, 1)) for _ in range(1 << n)]
        beta = rnd.uniform(-2.0, 2.0)
        worst = max(worst, max_diff(qb.apply_mixer(list(psi), n, beta),
                                    dense_mixer(psi, n, beta)))
    check(worst < 1e-12, "the sliced mixer equals the dense Rx(2b) product on 1..5 qubits "
          "(largest difference %.1e)" % worst)
    for n in (3, 7):
        with random_model(n, seed=n) as m:
            table = python_table(m)
            states = range(1 << n)
            bad = [x for x in states if abs(table[x] - m.energy(qb.bits(x, n))) > 1e-12]
            check(not bad, "energies of the %d states of %d variables equal "
                  "qubo_model_energy()" % (1 << n, n))
            psi = qb.evolve(n, table, [0.3, -0.7], [1.1, 0.2])
            check(abs(sum(qb.probabilities(psi)) - 1.0) < 1e-12, "depth 2 keeps the norm")
            check(qb.evolve(n, table, [], []) == qb.plus_state(n),
                  "depth 0 is |+>^%d" % n)
    check(qb.interp([0.5]) == [0.5, 0.5] and qb.interp([1.0, 2.0]) == [1.0, 1.5, 2.0]
          and max_diff(qb.interp([3.0, 0.0, 6.0]), [3.0, 1.0, 2.0, 6.0]) < 1e-15,
          "INTERP: [a] -> [a, a], [1, 2] -> [1, 1.5, 2], [3, 0, 6] -> [3, 1, 2, 6]")

    def bowl(v):
        return (v[0] - 1.0) ** 2 + 10.0 * (v[1] + 2.0) ** 2 + (v[0] - 1.0) * (v[1] + 2.0)
    x, value = qb.nelder_mead(bowl, [0.0, 0.0], [0.5, 0.5], 400)
    check(abs(x[0] - 1.0) < 1e-5 and abs(x[1] + 2.0) < 1e-5 and value < 1e-10,
          "Nelder-Mead finds the minimum (1, -2) of a quadratic bowl: (%.6f, %.6f)"
          % tuple(x))
    check(qb.parse_angles(" 0.5, -1e-1 ,2.,.25") == ([0.5, -0.1], [2.0, 0.25]),
          "angles '0.5,-1e-1,2.,.25' read as gammas (0.5, -0.1), betas (2, 0.25)")
    for text in ("", "1", "1,2,3", "1,,2", "nan,1", "inf,1", "1_0,2", "0x1,2", "1;2"):
        try:
            qb.parse_angles(text)
            check(False, "angles %r refused" % text)
        except ValueError:
            pass


# --- The C simulator against the Python one ---------------------------------


def test_amplitudes():
    """The two simulators on random models of 1..8 qubits at depths 1..3."""
    rnd = random.Random(5)
    worst, runs = 0.0, 0
    bad = []
    for n in range(1, 9):
        for p in (1, 2, 3):
            with random_model(n, seed=100 * n + p) as m, q.Qaoa(m) as sim:
                gammas = [rnd.uniform(-1.0, 1.0) for _ in range(p)]
                betas = [rnd.uniform(-1.6, 1.6) for _ in range(p)]
                sim.evolve(gammas, betas)
                table = python_table(m)
                mine = qb.evolve(n, table, gammas, betas)
                diff = max_diff(sim.amplitudes(), mine)
                worst, runs = max(worst, diff), runs + 1
                if not diff <= 1e-10:
                    bad.append("n %d, p %d: %.1e" % (n, p, diff))
                prob = sim.probabilities()
                low, ground = qb.lowest_states(table)
                expectation, lowest = qb.figures(mine, table, ground)
                c_expectation, c_lowest = sim.expectation()
                c_low, c_count = sim.lowest_energy()
                if max_diff(prob, qb.probabilities(mine)) > 1e-10 \
                        or abs(c_expectation - expectation) > 1e-9 \
                        or abs(c_lowest - lowest) > 1e-10 \
                        or abs(c_low - low) > 1e-12 or c_count != len(ground):
                    bad.append("n %d, p %d: probabilities, <C> %r vs %r, P(lowest) %r vs %r, "
                               "lowest %r x %d vs %r x %d"
                               % (n, p, c_expectation, expectation, c_lowest, lowest, c_low,
                                  c_count, low, len(ground)))
    for b in bad[:5]:
        print("  " + b)
    check(not bad, "the C and Python simulators agree on %d random models of 1..8 qubits at "
          "p = 1..3: amplitudes to %.1e, probabilities, <C>, P(lowest), lowest energy and "
          "its count" % (runs, worst))
    with random_model(4, seed=9, dyadic=True) as m, q.Qaoa(m) as sim:
        check(sim.num_qubits == 4, "num_qubits 4")
        check(max_diff(sim.amplitudes(), qb.plus_state(4)) < 1e-15,
              "a new simulator holds |+>^4")
        sim.evolve([0.4], [0.3])
        sim.evolve([], [])
        check(max_diff(sim.amplitudes(), qb.plus_state(4)) < 1e-15,
              "evolve at depth 0 returns to |+>^4")


def test_threads_and_reads():
    with random_model(10, seed=21) as m, q.Qaoa(m) as sim:
        table = python_table(m)
        gammas, betas = [0.35, 0.6], [-0.4, -0.2]
        sim.set_threads(1)
        sim.evolve(gammas, betas)
        one = sim.amplitudes()
        reads_one = sim.sample(77, 500)
        sim.set_threads(2)
        sim.evolve(gammas, betas)
        check(sim.amplitudes() == one, "amplitudes bit for bit equal on 1 and 2 threads")
        check(sim.sample(77, 500) == reads_one, "seed 77: the same 500 reads on 1 and 2 "
              "threads")
        check(sim.sample(78, 500) != reads_one, "seed 78 gives other reads")
        # frequencies against the probabilities: the reads that fall in the
        # most likely eighth of the states, within 5 standard deviations
        prob = sim.probabilities()
        reads = sim.sample(5, 20000)
        top = set(sorted(range(len(prob)), key=prob.__getitem__)[-len(prob) // 8:])
        p_top = sum(prob[x] for x in top)
        hits = sum(1 for r in reads if sum(b << i for i, b in enumerate(r)) in top)
        sigma = math.sqrt(20000 * p_top * (1 - p_top))
        check(abs(hits - 20000 * p_top) < 5 * sigma,
              "20000 reads: %d in the likeliest eighth of the states, %.0f expected"
              % (hits, 20000 * p_top))
        low, ground = qb.lowest_states(table)
        energies_ok = all(abs(m.energy(r) - table[sum(b << i for i, b in enumerate(r))])
                          < 1e-9 for r in reads[:200])
        check(energies_ok and all(len(r) == 10 for r in reads),
              "each read is 10 bytes, bit i the variable i of its basis state")


def test_optimize():
    with random_model(8, seed=31, dyadic=True) as m, q.Qaoa(m) as sim:
        table = python_table(m)
        mean = sum(table) / len(table)
        for p in (1, 2):
            gammas, betas, value = sim.optimize(p, 30)
            mine = qb.figures(qb.evolve(8, table, gammas, betas), table, [])[0]
            check(len(gammas) == len(betas) == p and abs(value - mine) < 1e-9
                  and abs(sim.expectation()[0] - value) < 1e-9,
                  "optimize(p=%d): <C> %.6f, recomputed by Python at its angles %.6f, and "
                  "the simulator left in that state" % (p, value, mine))
            check(value < mean, "optimize(p=%d): <C> %.4f below the uniform mean %.4f"
                  % (p, value, mean))
        again = sim.optimize(2, 30)
        check(again == (gammas, betas, value), "optimize is deterministic")


def test_memory_and_errors():
    sizes = [q.Qaoa.memory(n, 1) for n in (1, 10, 26)]
    check(all(s >= 16 << n for s, n in zip(sizes, (1, 10, 26))) and sizes[2] < 2 * (16 << 26),
          "qubo_qaoa_memory: at least 16 * 2^n bytes, under twice that at 26 qubits (%s)"
          % sizes)
    check(q.Qaoa.memory(64, 1) == 2 ** 64 - 1, "64 qubits do not fit: UINT64_MAX")
    with random_model(5, seed=41) as m:
        e = expect_error(q.QUBO_ERR_TOO_LARGE, q.Qaoa, m, 4)
        check(e is not None and "5" in e.message, "5 variables at max_qubits 4: %s" % e)
        expect_error(q.QUBO_ERR_OUT_OF_RANGE, q.Qaoa, m, q.QUBO_QAOA_MAX_QUBITS + 1)
        with q.Qaoa(m) as sim:
            expect_error(q.QUBO_ERR_INVALID_ARG, sim.evolve, [float("nan")], [0.1])
            expect_error(q.QUBO_ERR_INVALID_ARG, sim.evolve, [0.1], [float("inf")])
            expect_error(q.QUBO_ERR_OUT_OF_RANGE, sim.evolve, [0.1] * 65, [0.1] * 65)
            expect_error(q.QUBO_ERR_OUT_OF_RANGE, sim.optimize, 0)
            expect_error(q.QUBO_ERR_OUT_OF_RANGE, sim.set_threads, 1025)
            buf = (q.c_double * 63)()
            rc = q._core.qubo_qaoa_amplitudes(sim.handle, buf, 63)
            check(rc == q.QUBO_ERR_BUFFER_TOO_SMALL, "63 doubles for 32 amplitudes: "
                  "QUBO_ERR_BUFFER_TOO_SMALL (%d)" % rc)
        expect_error(q.QUBO_ERR_INVALID_ARG, q.qasm, m, [0.1], [0.2], 4)
        expect_error(q.QUBO_ERR_INVALID_ARG, q.qasm, m, [float("nan")], [0.2])
        expect_error(q.QUBO_ERR_OUT_OF_RANGE, q.qasm, m, [0.1] * 65, [0.2] * 65)
    with q.Model(2) as m:
        m.add_quadratic(0, 1, 1.0)  # pending until compiled
        e = expect_error(q.QUBO_ERR_MISUSE, q.Qaoa, m)
        check(e is not None, "a model with pending couplers: QUBO_ERR_MISUSE (%s)" % e)


# --- The OpenQASM circuit, run gate by gate ---------------------------------

_GATE = re.compile(r"(h|x|rz|rx|cx)\s*(?:\(([^()]*)\))?\s+q\[(\d+)\]\s*(?:,\s*q\[(\d+)\])?\s*;")


def angle(text):
    """An angle of the circuit: a decimal number."""
    if not re.fullmatch(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*", text):
        raise ValueError("angle %r" % text)
    return float(text)


def run_qasm(text, n):
    """The state the circuit prepares before its measurements, from |0>^n;
    gates h, x, rz, rx and cx, qubit 0 the least significant bit."""
    psi = [0j] * (1 << n)
    psi[0] = 1.0
    gates = 0
    for line in text.splitlines():
        line = line.split("//")[0].strip()
        if not line or "measure" in line or line.startswith(
                ("OPENQASM", "include", "qreg", "creg", "qubit", "bit", "barrier")):
            continue
        match = _GATE.fullmatch(line)
        if not match:
            raise ValueError("unknown line %r" % line)
        name, arg, a, b = match.groups()
        a = int(a)
        bit = 1 << a
        if name == "cx":
            target = 1 << int(b)
            for x in range(len(psi)):
                if x & bit and not x & target:
                    psi[x], psi[x | target] = psi[x | target], psi[x]
        elif name == "rz":
            t = angle(arg)
            for x in range(len(psi)):
                psi[x] *= cmath.exp(1j * t / 2 if x & bit else -1j * t / 2)
        else:
            if name == "h":
                m = [[1 / math.sqrt(2), 1 / math.sqrt(2)], [1 / math.sqrt(2), -1 / math.sqrt(2)]]
            elif name == "x":
                m = [[0, 1], [1, 0]]
            else:
                t = angle(arg)
                m = [[math.cos(t / 2), -1j * math.sin(t / 2)],
                     [-1j * math.sin(t / 2), math.cos(t / 2)]]
            for x in range(len(psi)):
                if not x & bit:
                    u, v = psi[x], psi[x | bit]
                    psi[x], psi[x | bit] = m[0][0] * u + m[0][1] * v, m[1][0] * u + m[1][1] * v
        gates += 1
    return psi, gates


def test_qasm():
    with random_model(5, seed=51, dyadic=True) as m, q.Qaoa(m) as sim:
        gammas, betas = [0.3, -0.45], [0.7, 0.25]
        sim.evolve(gammas, betas)
        want = sim.amplitudes()
        for version, head, include in ((q.QUBO_QASM_2, "OPENQASM 2.0;", "qelib1.inc"),
                                       (q.QUBO_QASM_3, "OPENQASM 3", "stdgates.inc")):
            text = q.qasm(m, gammas, betas, version)
            check(text.startswith(head) and 'include "%s";' % include in text
                  and len(re.findall(r"\bmeasure q\[\d\]", text)) == 5,
                  "OpenQASM %d starts with %r, includes %s and measures the 5 qubits"
                  % (version, head, include))
            try:
                psi, gates = run_qasm(text, 5)
            except ValueError as e:
                check(False, "OpenQASM %d read gate by gate: %s" % (version, e))
                continue
            # the circuit drops the global phase: compare up to one phase
            k = max(range(len(want)), key=lambda x: abs(want[x]))
            phase = want[k] / psi[k] if psi[k] else 0
            diff = max_diff([phase * a for a in psi], want)
            check(abs(abs(phase) - 1.0) < 1e-9 and diff < 1e-9,
                  "OpenQASM %d: its %d gates, run in Python, give the simulator's state up "
                  "to a global phase (difference %.1e)" % (version, gates, diff))


# --- The "qaoa" solver and the Python backend ------------------------------

# qaoa_backend.PUZZLE has 12 variables after the full reduction; this one 8.
SMALL_TANGO = """\
tango 6
.=. . . . .

. . . . . .
        x
. . . . . .
        x x
.=. . . .x.
  =
. . 0 . 1x.
        =
. . . . . .
"""


def tango_rules(text, board):
    """The rules a Tango board breaks, read from the puzzle's text on their
    own: clues kept, three of each value per row and column, no three equal
    in a line, '=' and 'x' signs between neighbours."""
    lines = text.split("\n")[1:]
    size = int(text.split()[1])
    cell = [[board[r * size + c] for c in range(size)] for r in range(size)]
    broken = []
    for r in range(size):
        row = lines[2 * r].ljust(2 * size - 1)
        below = lines[2 * r + 1].ljust(2 * size - 1) if r < size - 1 else ""
        for c in range(size):
            if row[2 * c] in "01" and cell[r][c] != int(row[2 * c]):
                broken.append("clue (%d, %d)" % (r, c))
            for sign, other in ((row[2 * c + 1] if c < size - 1 else " ",
                                 cell[r][c + 1] if c < size - 1 else None),
                                (below[2 * c] if below else " ",
                                 cell[r + 1][c] if below else None)):
                if sign == "=" and other != cell[r][c] or sign == "x" and other == cell[r][c]:
                    broken.append("sign at (%d, %d)" % (r, c))
    for line in cell + [list(col) for col in zip(*cell)]:
        if sum(line) != size // 2:
            broken.append("count in %s" % line)
        if any(line[i] == line[i + 1] == line[i + 2] for i in range(size - 2)):
            broken.append("three in %s" % line)
    return broken


def test_backend_options():
    backend = qb.QaoaBackend()
    s = q.Solver.from_backend(backend)
    check(s.name == "py-qaoa" and "pure Python" in s.describe(), "backend py-qaoa described")
    for key, value, status in (("p", 0, q.QUBO_ERR_OUT_OF_RANGE),
                               ("p", 65, q.QUBO_ERR_OUT_OF_RANGE),
                               ("num_iterations", 0, q.QUBO_ERR_OUT_OF_RANGE),
                               ("max_qubits", 13, q.QUBO_ERR_OUT_OF_RANGE),
                               ("angles", 3, q.QUBO_ERR_INVALID_ARG),
                               ("num_sweeps", 10, q.QUBO_ERR_NOT_SUPPORTED)):
        e = expect_error(status, s.set_int, key, value)
        check(e is not None and key in e.message and "py-qaoa" in e.message,
              "py-qaoa: %s = %r refused: %s" % (key, value, e))
    expect_error(q.QUBO_ERR_INVALID_ARG, s.set_double, "p", 2.0)
    for text in ("0.1,0.2,0.3", "0.1,x", "nan,0.2", ""):
        e = expect_error(q.QUBO_ERR_INVALID_ARG, s.set_string, "angles", text)
        check(e is not None and "angles" in e.message, "py-qaoa: angles %r refused: %s"
              % (text, e))
    with random_model(13, seed=61) as big:
        e = expect_error(q.QUBO_ERR_TOO_LARGE, s.sample, big)
        check(e is not None and "13 variables" in e.message and "12 qubits" in e.message,
              "py-qaoa: a model of 13 variables refused: %s" % e)
    with random_model(5, seed=62) as m:
        s.set_int("max_qubits", 4)
        expect_error(q.QUBO_ERR_TOO_LARGE, s.sample, m)
    s.close()
    with q.Solver("qaoa") as c:
        for key, value in (("p", 0), ("p", 65), ("max_qubits", 0), ("max_qubits", 41),
                           ("num_sweeps", 3)):
            try:
                c.set_int(key, value)
                check(False, "qaoa: %s = %d refused" % (key, value))
            except q.QuboError as e:
                check(e.status < 0, "qaoa: %s = %d refused: %s" % (key, value, e))
        for text in ("0.1,0.2,0.3", "0.1,x", "nan,0.2"):
            e = expect_error(q.QUBO_ERR_INVALID_ARG, c.set_string, "angles", text)
        c.set_int("max_qubits", 4)
        with random_model(5, seed=63) as m:
            expect_error(q.QUBO_ERR_TOO_LARGE, c.sample, m)
    # p and the depth of the angles agree, whichever is set last; both
    # solvers keep the previous value of a key they refuse
    with random_model(3, seed=64) as m:
        for s in (q.Solver("qaoa"), q.Solver.from_backend(qb.QaoaBackend())):
            s.set_int("p", 2)
            e = expect_error(q.QUBO_ERR_INVALID_ARG, s.set_string, "angles", "0.1,0.2")
            s.set_string("angles", "0.1,0.2,0.3,0.4")
            e2 = expect_error(q.QUBO_ERR_INVALID_ARG, s.set_int, "p", 3)
            s.unset("p")
            s.set_string("angles", "0.1,0.2")
            s.set_int("num_reads", 1)
            with s.sample(m) as res:
                ok = len(res) == 1
            check(e is not None and e2 is not None and ok,
                  "%s: p 2 then angles of depth 1, angles of depth 2 then p 3: refused as "
                  "they are set (%s; %s); angles alone set the depth" % (s.name, e, e2))
            s.close()


def test_no_variables():
    """A model without variables (a puzzle solved by its reduction): one
    state, its energy the offset."""
    with q.Model(0) as m:
        m.add_offset(2.5)
        m.compile()
        for s in (q.Solver("qaoa"), q.Solver.from_backend(qb.QaoaBackend())):
            with s.sample(m) as res:
                rows, info = list(res), res.info()
            check(rows == [(b"", 2.5, 10)] and info["expectation"] == 2.5
                  and info["lowest_probability"] == 1.0 and info["has_expectation"] == 1,
                  "%s on a model of no variables: 10 empty reads of energy 2.5, <C> %g, "
                  "P(lowest) %g" % (s.name, info["expectation"], info["lowest_probability"]))
            s.close()
        with q.Qaoa(m) as sim:
            sim.evolve([0.3], [0.2])
            check(sim.num_qubits == 0
                  and max_diff(sim.amplitudes(), [cmath.exp(-0.75j)]) < 1e-15
                  and sim.expectation() == (2.5, 1.0) and sim.lowest_energy() == (2.5, 1),
                  "the simulator of no qubits: one amplitude, the phase e^{-i 0.3 * 2.5}")


def test_same_angles():
    """The Python backend and the "qaoa" solver at the same given angles:
    the same <C> and P(lowest), as Python computes them; reads whose
    frequency of the lowest energy matches it."""
    gammas, betas = [0.4, 0.25], [-0.5, -0.3]
    text = ",".join(repr(a) for a in gammas + betas)
    reads = 4000
    with q.Puzzle(SMALL_TANGO) as puzzle:
        m = puzzle.model()
        n = m.num_variables
        table = python_table(m)
        low, ground = qb.lowest_states(table)
        want = qb.figures(qb.evolve(n, table, gammas, betas), table, ground)
        backend = qb.QaoaBackend()
        with q.Solver.from_backend(backend) as py, q.Solver("qaoa") as c:
            for solver in (py, c):
                solver.set_string("angles", text)
                solver.set_int("num_reads", reads)
                solver.set_int("seed", 3)
                with solver.sample(m) as res:
                    info = res.info()
                    rows = list(res)
                    again = solver.sample(m)
                    same = list(again) == rows
                    again.close()
                name = solver.name
                check(info["has_expectation"] == 1
                      and abs(info["expectation"] - want[0]) < 1e-9
                      and abs(info["lowest_probability"] - want[1]) < 1e-10,
                      "%s at given angles: <C> %.6f, P(lowest) %.5f; Python's %.6f, %.5f"
                      % (name, info["expectation"], info["lowest_probability"], *want))
                hits = sum(occ for _, e, occ in rows if e - low <= 1e-9)
                sigma = math.sqrt(reads * want[1] * (1 - want[1]))
                check(sum(occ for _, _, occ in rows) == reads
                      and abs(hits - reads * want[1]) < 5 * sigma + 1,
                      "%s: %d of %d reads at the lowest energy, %.1f expected"
                      % (name, hits, reads, reads * want[1]))
                check(same and info["seed"] == 3, "%s: seed 3 gives the same reads twice"
                      % name)
        check(backend.last["evaluations"] == 1 and backend.last["depths"] == [],
              "given angles: one evaluation, nothing optimised")


def test_puzzle_end_to_end():
    """qaoa_backend.solve_puzzle() with a small optimiser budget, the
    example's main at p = 1, and the "qaoa" solver on the same models."""
    for text, want_n in ((SMALL_TANGO, 8), (qb.PUZZLE, 12)):
        stats, runs = qb.solve_puzzle(text, depths=(1,), num_reads=2000, seed=4, grid=(6, 4),
                                      iterations=20)
        run = runs[0]
        check(stats["variables_after"] == want_n and run["backend"]["p"] == 1,
              "Tango of %d variables after the full reduction, sampled by py-qaoa at p = 1"
              % stats["variables_after"])
        check(run["violations"] == 0 and run["energy"] == run["ground_energy"]
              and not tango_rules(text, run["board"]),
              "py-qaoa: the lowest of 2000 reads decodes to a board that qubo_puzzle_check "
              "and Python's reading of the rules accept (%s)"
              % (run["report"] or ", ".join(tango_rules(text, run["board"])) or "valid"))
        with q.Puzzle(text) as puzzle:
            m = puzzle.model()
            table = python_table(m)
            low, ground = qb.lowest_states(table)
            last = run["backend"]
            want = qb.figures(qb.evolve(m.num_variables, table, last["gammas"], last["betas"]),
                              table, ground)
            uniform = sum(table) / len(table)
            check(abs(run["expectation"] - want[0]) < 1e-9
                  and abs(run["lowest_probability"] - want[1]) < 1e-10
                  and run["expectation"] < uniform and want[1] > len(ground) / len(table),
                  "py-qaoa reported <C> %.4f (uniform %.4f) and P(lowest) %.5f (uniform "
                  "%.5f), as Python recomputes them at its angles"
                  % (run["expectation"], uniform, run["lowest_probability"],
                     len(ground) / len(table)))
            with q.Solver("qaoa") as c:
                c.set_int("num_reads", 2000)
                c.set_int("seed", 4)
                c.set_int("num_iterations", 30)
                with c.sample(m) as res:
                    sample, energy = res.lowest()
                    info = res.info()
                board = puzzle.decode(sample)
                violations, report = puzzle.check(board)
                check(violations == 0 and energy == puzzle.ground_energy()
                      and not tango_rules(text, board),
                      "qaoa (C): the lowest read decodes to a valid board (<C> %.4f, "
                      "P(lowest) %.5f) %s" % (info["expectation"], info["lowest_probability"],
                                              report))
    out = io.StringIO()
    with redirect_stdout(out):
        rc = qb.main(["qaoa_backend.py", "--p", "1"] + LIBS)
    lines = out.getvalue().splitlines()
    print("\n".join("  | " + line for line in lines))
    check(rc == 0 and any(re.match(r"\s*1\s+\S+\s+\S+\s+0\s+valid", line) for line in lines),
          "the example's main at p = 1: exit %d, a valid board" % rc)


def test_time_limit():
    with q.Puzzle(qb.PUZZLE) as puzzle, q.Solver.from_backend(qb.QaoaBackend()) as s:
        s.set_int("p", 3)
        s.set_int("num_iterations", 1000000)
        s.set_double("time_limit", 0.3)
        with s.sample(puzzle.model()) as res:
            check(res.status == q.QUBO_TIME_LIMIT and len(res) > 0
                  and res.info()["seconds"] < 10,
                  "py-qaoa stops at a time limit of 0.3 s with its reads (status %d, %.2f s)"
                  % (res.status, res.info()["seconds"]))


LIBS = []


def main():
    if len(sys.argv) == 2:
        print(__doc__, file=sys.stderr)
        return 2
    LIBS[:] = sys.argv[1:3]
    if asan_instrumented(LIBS):
        print("skip: the libraries are ASan-instrumented; Python would need the ASan "
              "runtime preloaded (LD_PRELOAD) to load them")
        return 77
    q.load(*LIBS)
    for test in (test_python_simulator, test_amplitudes, test_threads_and_reads, test_optimize,
                 test_memory_and_errors, test_qasm, test_backend_options, test_no_variables,
                 test_same_angles,
                 test_puzzle_end_to_end, test_time_limit):
        try:
            test()
        except Exception as e:  # an unexpected failure: report it, go on
            import traceback
            traceback.print_exc()
            check(False, "%s raised %s: %s" % (test.__name__, type(e).__name__, e))
    if failures:
        print("%d check(s) failed:\n  %s" % (len(failures), "\n  ".join(failures)),
              file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
