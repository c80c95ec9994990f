#!/usr/bin/env python3
"""Drives the qubo program: output layout, order, determinism, exit codes,
for QUBO models and for puzzles (every verb, every exit status, --help of
every verb, parse-error positions, standard input). Small random LinkedIn
Queens puzzles are the puzzle inputs; a brute-force solver in this file is
the referee for their solution counts.

usage: test_cli.py QUBO_BINARY WORK_DIR
"""
import itertools
import os
import re
import random
import subprocess
import sys
from fractions import Fraction

QUBO = sys.argv[1]
WORK = sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args, stdin=None):
    p = subprocess.run([QUBO, *args], input=stdin, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def write_model(path, n, seed):
    rnd = random.Random(seed)
    lin = {i: rnd.randint(-3, 3) for i in range(n)}
    quad = {(i, j): rnd.randint(-3, 3) for i in range(n) for j in range(i + 1, n)
            if rnd.random() < 0.5}
    quad = {k: v for k, v in quad.items() if v}
    with open(path, "w") as f:
        f.write("c random test model\nc offset 0.5\n")
        f.write(f"p qubo 0 {n} {n} {len(quad)}\n")
        for i in range(n):
            f.write(f"{i} {i} {lin[i]}\n")
        for (i, j), w in sorted(quad.items()):
            f.write(f"{i} {j} {w}\n")
    return lin, quad


def energy(lin, quad, bits):
    x = [int(c) for c in bits]
    return 0.5 + sum(w * x[i] for i, w in lin.items()) + \
        sum(w * x[i] * x[j] for (i, j), w in quad.items())


def parse(out):
    rows = []
    for line in out.splitlines():
        e, c, b = line.split(" ")
        rows.append((float(e), int(c), b))
    return rows


n = 10
model = os.path.join(WORK, "cli_model.qubo")
lin, quad = write_model(model, n, 1)
states = ["".join(s) for s in itertools.product("01", repeat=n)]
best = min(energy(lin, quad, s) for s in states)
ground = sorted(s for s in states if energy(lin, quad, s) == best)

# exhaustive: every ground state, nothing else on stdout, exit 0
rc, out, err = run("solve", "--solver", "exhaustive", "--quiet", model)
check(rc == 0, f"exhaustive exit {rc}: {err}")
rows = parse(out)
check([r[2] for r in rows] == ground, "exhaustive ground states")
check(all(r[0] == best and r[1] == 1 for r in rows), "exhaustive energies and counts")

# sa: lines are <energy> <count> <bits>, energies exact, sorted, counts sum to reads
rc, out, err = run("solve", "--reads", "40", "--seed", "3", "--sweeps", "200", model)
check(rc == 0, f"sa exit {rc}: {err}")
rows = parse(out)
check(sum(r[1] for r in rows) == 40, "sa counts sum to the reads")
check(all(abs(r[0] - energy(lin, quad, r[2])) < 1e-9 for r in rows), "sa energies")
check(rows == sorted(rows, key=lambda r: (r[0], r[2])), "sa order")
check(rows[0][0] == best, "sa finds the minimum")
check(len({r[2] for r in rows}) == len(rows), "sa duplicates merged")
check(err == "", f"stderr without --stats: {err!r}")

# the same seed gives the same output, whatever the threads
rc1, out1, _ = run("solve", "--solver", "tabu", "--seed", "9", "--threads", "1", model)
rc2, out2, _ = run("solve", "--solver", "tabu", "--seed", "9", "--threads", "2", model)
check(rc1 == 0 and out1 == out2, "tabu: same seed, same output for 1 and 2 threads")

# --stats on stderr only
rc, out, err = run("solve", "--solver", "descent", "--stats", "--top", "1", model)
check(rc == 0 and len(out.splitlines()) == 1, "--top 1 prints one line")
for word in ("variables: 10", f"couplers: {len(quad)}", "sampling time:",
             "ns per flip attempt:"):
    check(word in err, f"--stats shows {word!r}: {err!r}")

# standard input, info
with open(model) as f:
    text = f.read()
rc, out, err = run("solve", "--solver", "exhaustive", "-", stdin=text)
check(rc == 0 and parse(out)[0][0] == best, "model from standard input")
rc, out, err = run("info", model)
check(rc == 0 and "variables: 10\n" in out and f"couplers: {len(quad)}\n" in out,
      f"info: {out!r}")

# exit codes
check(run()[0] == 2, "no command: usage")
check(run("frobnicate")[0] == 2, "unknown command: usage")
check(run("solve")[0] == 2, "no model: usage")
check(run("solve", "--reads", "zero", model)[0] == 2, "non-numeric value: usage")
check(run("solve", "--reads", "0", model)[0] == 2, "out of range: usage")
check(run("solve", "--set", "nonsense=1", model)[0] == 2, "unknown key: usage")
check(run("solve", "--bogus", model)[0] == 2, "unknown flag: usage")
check(run("solve", os.path.join(WORK, "does-not-exist.qubo"))[0] == 4, "missing file: I/O")
rc, out, err = run("solve", "-", stdin="p qubo 0 2 1 0\n0 0 nan\n")
check(rc == 3 and out == "" and "(standard input):2:5:" in err, f"parse error: {rc} {err!r}")
check(run("--help")[0] == 0 and run("solve", "--help")[0] == 0, "help exits 0")
big = os.path.join(WORK, "cli_big.qubo")
write_model(big, 45, 2)
rc, out, err = run("solve", "--solver", "exhaustive", big)
check(rc == 6 and "40" in err, f"too large for exhaustive: {rc} {err!r}")

# a time limit stops a long run and still prints samples (exit 1: stopped)
rc, out, err = run("solve", "--sweeps", "100000000", "--reads", "2", "--time-limit", "0.3",
                   big)
check(rc == 1 and len(parse(out)) >= 1 and "stopped (time limit)" in err,
      f"time limit: {rc} {err!r}")


# ---- puzzles ----

def queens_solutions(n, regions, stars=1):
    """Brute force: every board of a queens puzzle (1 star: permutations)."""
    assert stars == 1
    sols = []
    for perm in itertools.permutations(range(n)):
        if any(abs(perm[r] - perm[r + 1]) == 1 for r in range(n - 1)):
            continue
        if len({regions[r][perm[r]] for r in range(n)}) != n:
            continue
        sols.append(perm)
    return sols


def random_regions(n, rnd):
    """n connected regions grown from n random seeds."""
    grid = [[None] * n for _ in range(n)]
    cells = rnd.sample([(r, c) for r in range(n) for c in range(n)], n)
    frontier = []
    for k, (r, c) in enumerate(cells):
        grid[r][c] = k
        frontier.append((r, c))
    while any(None in row for row in grid):
        r, c = rnd.choice(frontier)
        nb = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
              if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] is None]
        if not nb:
            frontier.remove((r, c))
            continue
        rr, cc = rnd.choice(nb)
        grid[rr][cc] = grid[r][c]
        frontier.append((rr, cc))
    # letters in order of first appearance, as the collection writes them
    order = {}
    for row in grid:
        for k in row:
            order.setdefault(k, len(order))
    return ["".join(chr(97 + order[k]) for k in row) for row in grid]


def puzzle_text(n, regions):
    return f"queens {n}\n" + "".join(row + "\n" for row in regions)


def board_text(n, perm):
    return f"queens {n}\n" + "".join("." * perm[r] + "Q" + "." * (n - 1 - perm[r]) + "\n"
                                      for r in range(n))


rnd = random.Random(7)
unique = None   # (n, regions, perm) of a puzzle with one solution
several = None  # a puzzle with more than one
for trial in range(400):
    n = rnd.choice((5, 6, 7))
    regions = random_regions(n, rnd)
    sols = queens_solutions(n, regions)
    rc, out, err = run("count", "-", stdin=puzzle_text(n, regions))
    want = len(sols)
    check(rc == (0 if want else 5) and out == f"{want}\n",
          f"count of {regions}: {rc} {out!r} {err!r}, brute force {want}")
    if want == 1 and unique is None and n == 5:
        unique = (n, regions, sols[0])
    if want > 1 and several is None:
        several = (n, regions, sols)
    if trial >= 60 and unique and several:
        break
check(unique is not None and several is not None, "random puzzles of both kinds")
print(f"count agreed with brute force on {trial + 1} random puzzles")

n, regions, perm = unique
pz = os.path.join(WORK, "cli_queens.txt")
with open(pz, "w") as f:
    f.write("# a comment line before the header\n" + puzzle_text(n, regions))
solution = board_text(n, perm)

# solve: the solution file on stdout, figures on stderr, exit 0
rc, out, err = run("solve", pz)
check(rc == 0 and out == solution, f"solve a unique puzzle: {rc} {out!r} {err!r}")
for word in ("puzzle: queens", "variables:", "couplers:", "solver:", "status: solved and verified",
             "time:"):
    check(word in err, f"solve figures show {word!r}: {err!r}")
rc, out, err = run("solve", "--quiet", pz)
check(rc == 0 and out == solution and err == "", f"solve --quiet: {rc} {err!r}")
rc, out, err = run("solve", "-", stdin=puzzle_text(n, regions))
check(rc == 0 and out == solution, f"solve from standard input: {rc} {err!r}")
for extra in (("--solver", "sa", "--seed", "5"), ("--solver", "tabu"),
              ("--solver", "exhaustive", "--reduce", "none"), ("--reduce", "clues"),
              ("--reduce", "none", "--threads", "2", "--reads", "3", "--sweeps", "50"),
              ("--solver", "descent", "--time-limit", "5")):
    rc, out, err = run("solve", *extra, pz)
    check(rc == 0 and out == solution, f"solve {extra}: {rc} {out!r} {err!r}")
rc1, out1, _ = run("solve", "--solver", "sa", "--seed", "11", "--reduce", "none", pz)
rc2, out2, _ = run("solve", "--solver", "sa", "--seed", "11", "--reduce", "none", pz)
check(rc1 == 0 and out1 == out2, "solve --seed is reproducible")

# a puzzle with several solutions: any printed one is valid
n2, regions2, sols2 = several
rc, out, err = run("solve", "-", stdin=puzzle_text(n2, regions2))
check(rc == 0 and out in [board_text(n2, p) for p in sols2], f"solve, several: {out!r}")

# verify
rc, out, err = run("verify", pz, "-", stdin=solution)
check(rc == 0 and out == "valid\n", f"verify valid: {rc} {out!r} {err!r}")
grid_only = "".join(solution.splitlines(True)[1:])
solpath = os.path.join(WORK, "cli_queens.sol")
with open(solpath, "w") as f:
    f.write(grid_only)
rc, out, err = run("verify", "-", solpath, stdin=puzzle_text(n, regions))
check(rc == 0 and out == "valid\n", f"verify a grid alone, puzzle on stdin: {rc} {err!r}")
bad = solution.replace("Q", ".", 1)
rc, out, err = run("verify", pz, "-", stdin=bad)
check(rc == 1 and out.startswith("invalid: ") and "row 1" in out,
      f"verify invalid: {rc} {out!r}")
rc, out, err = run("verify", pz, "-", stdin=f"queens {n}\n" + "X" * n + "\n")
check(rc == 3 and "(standard input):2:1:" in err, f"verify parse error: {rc} {err!r}")
check(run("verify", pz)[0] == 2, "verify without a solution: usage")
check(run("verify", "-", "-")[0] == 2, "verify - -: usage")

# parse errors: FILE:LINE:COLUMN on stderr, exit 3
broken = f"queens {n}\n" + regions[0] + "\n" + regions[1][:2] + "?" + regions[1][3:] + "\n"
rc, out, err = run("solve", "-", stdin=broken)
check(rc == 3 and out == "" and "(standard input):3:3:" in err, f"parse position: {err!r}")
brokenpath = os.path.join(WORK, "cli_broken.txt")
with open(brokenpath, "w") as f:
    f.write("\n" + broken)
for verb in ("solve", "info", "export", "count", "render"):
    rc, out, err = run(verb, brokenpath)
    check(rc == 3 and f"{brokenpath}:4:3:" in err, f"{verb} parse error: {rc} {err!r}")
rc, out, err = run("solve", "-", stdin="frobnicate 3\n")
check(rc == 3 and ":1:1:" in err and "frobnicate" in err, f"unknown family: {err!r}")

# proven infeasible: exit 5 (from the build, from the search, from count)
two = puzzle_text(n, regions).replace(regions[0], regions[0][:2].upper() + regions[0][2:])
rc, out, err = run("solve", "-", stdin=two)
check(rc == 5 and out == "" and "no solution" in err, f"infeasible build: {rc} {err!r}")
rc, out, err = run("count", "-", stdin=two)
check(rc == 5 and out == "0\n", f"count, infeasible build: {rc} {out!r}")
rc, out, err = run("solve", "-", stdin="nqueens 8 torus\n")
check(rc == 5 and out == "" and "no solution" in err, f"nqueens 8 torus: {rc} {err!r}")
rc, out, err = run("count", "-", stdin="nqueens 8 torus\n")
check(rc == 5 and out == "0\n", f"count nqueens 8 torus: {rc} {out!r}")
rc, out, err = run("count", "-", stdin="nqueens 8\n")
check(rc == 0 and out == "92\n", f"count nqueens 8: {rc} {out!r}")
# Takuzu and Tango: contradictions are proven infeasible (exit 5), not parse errors
cycle = "tango 4\n.=. . .\n= x    \n.=. . .\n       \n. . . .\n       \n. . . .\n"
for verb in ("solve", "info", "count"):
    rc, out, err = run(verb, "-", stdin=cycle)
    check(rc == 5 and "no solution" in err and "cycle" in err and "row 2, column 2" in err,
          f"{verb}, tango sign cycle: {rc} {out!r} {err!r}")
full = "takuzu 6 nounique\n1.1.11\n1.....\n......\n......\n......\n......\n"
rc, out, err = run("solve", "-", stdin=full)
check(rc == 5 and out == "" and "row 1" in err and "no solution" in err,
      f"takuzu over-full row: {rc} {err!r}")
rc, out, err = run("count", "-", stdin=full)
check(rc == 5 and out == "0\n", f"count, takuzu over-full row: {rc} {out!r}")
rc, out, err = run("count", "-", stdin="takuzu 4 nounique\n....\n....\n....\n....\n")
check(rc == 0 and out == "90\n", f"count takuzu 4 nounique: {rc} {out!r}")
rc, out, err = run("count", "-", stdin="takuzu 4\n....\n....\n....\n....\n")
check(rc == 0 and out == "72\n", f"count takuzu 4: {rc} {out!r}")
rc, out, err = run("solve", "--quiet", "6x6:cCCBcBgCBbBCb")
check(rc == 0 and out.startswith("takuzu 6 nounique\n") and len(out.splitlines()) == 7,
      f"unruly game ID: {rc} {out!r} {err!r}")
if rc == 0:
    vrc, vout, verr = run("verify", "6x6:cCCBcBgCBbBCb", "-", stdin=out)
    check(vrc == 0 and vout == "valid\n", f"verify unruly game ID: {vrc} {vout!r} {verr!r}")
rc, out, err = run("count", "--method", "exhaustive", "-", stdin="nqueens 5\n")
check(rc == 0 and out == "10\n", f"count nqueens 5, exhaustive: {rc} {out!r}")

# no solution found within the limits: exit 1
rc, out, err = run("solve", "--solver", "sa", "--time-limit", "0.2", "-",
                   stdin="nqueens 8 torus\n")
check(rc == 1 and out == "" and "no solution found" in err, f"time limit: {rc} {err!r}")

# a limit: the count stops there (exit 0, a note on stderr)
rc, out, err = run("count", "--limit", "3", "-", stdin="nqueens 8\n")
check(rc == 0 and out == "3\n" and "limit" in err, f"count --limit 3: {rc} {out!r} {err!r}")
check(run("count", "--limit", "-1", "-", stdin="nqueens 8\n")[0] == 2, "count --limit -1: usage")

# optimisation puzzles: their optimal solutions are counted
rc, out, err = run("count", "-", stdin="domination 4\n")
check(rc == 0 and out == "12\n", f"count domination 4: {rc} {out!r} {err!r}")
rc, out, err = run("count", "-", stdin="chess 3x2 max\nQN.\n..K\n")
check(rc == 0 and out == "1\n" and "optimal solutions" in err,
      f"count chess max (optimal solutions): {rc} {out!r} {err!r}")
rc, out, err = run("solve", "-", stdin="chess 3x2 max\nQN.\n..K\n")
check(rc == 0 and out == "chess 3x2 max\nQ..\n..K\n"
      and "status: optimal and proven (by exact search)" in err, f"solve chess max: {rc} {out!r} {err!r}")

# too large to count: exit 6
rc, out, err = run("count", "--method", "exhaustive", "-", stdin="nqueens 8\n")
check(rc == 6 and out == "" and "64 variables" in err, f"count too large: {rc} {err!r}")

# I/O errors: exit 4
missing = os.path.join(WORK, "no-such-puzzle.txt")
for args in (("solve", missing), ("info", missing), ("export", missing), ("count", missing),
             ("render", missing), ("verify", missing, pz), ("verify", pz, missing),
             ("export", pz, "-o", os.path.join(WORK, "no-such-dir", "m.qubo"))):
    rc, out, err = run(*args)
    check(rc == 4 and err.startswith("qubo: "), f"{args}: I/O error: {rc} {err!r}")

# info
rc, out, err = run("info", pz)
fields = dict(line.split(": ", 1) for line in out.splitlines())
check(rc == 0 and fields.get("header") == f"queens {n}" and fields.get("size") == f"{n}x{n}"
      and fields.get("variables before reduction") == str(n * n)
      and fields.get("solution energy") == "0", f"info: {out!r}")
rc, out, err = run("info", "--reduce", "none", "-", stdin=puzzle_text(n, regions))
fields = dict(line.split(": ", 1) for line in out.splitlines())
check(rc == 0 and fields.get("variables") == str(n * n) and fields.get("cells fixed") == "0",
      f"info --reduce none: {out!r}")

# export: the model's minimum is the solutions' energy, its ground states
# the solutions
mpath = os.path.join(WORK, "cli_queens.qubo")
rc, out, err = run("export", "--reduce", "none", pz, "-o", mpath)
check(rc == 0 and out == "", f"export -o: {rc} {err!r}")
rc, out, err = run("solve", "--solver", "exhaustive", mpath)
rows = parse(out)
check(rc == 0 and len(rows) == 1 and rows[0][0] == 0, f"exported model's ground: {out!r}")
check(rows and rows[0][2] == "".join("1" if perm[r] == c else "0" for r in range(n)
                                     for c in range(n)), "exported ground state is the board")
rc, out2, err = run("export", "--reduce", "none", "-", "-o", "-",
                    stdin=puzzle_text(n, regions))
check(rc == 0 and out2 == open(mpath).read(), "export to standard output")
rc, out, err = run("export", mpath)
check(rc == 0 and out == open(mpath).read(), "export of a model writes it back")

# export --qasm2 / --qasm3: the QAOA circuit of the model that `export` writes.
# The referee: the gates expected from the Ising form computed here, exactly
# (Fractions), from the exported qbsolv text.

def read_qubo(text):
    n, lin, quad = 0, {}, {}
    for line in text.splitlines():
        f = line.split()
        if not f or f[0] == "c":
            continue
        if f[0] == "p":
            n = int(f[3])
            continue
        i, j, w = int(f[0]), int(f[1]), Fraction(f[2])
        if i == j:
            lin[i] = lin.get(i, 0) + w
        else:
            quad[(min(i, j), max(i, j))] = quad.get((min(i, j), max(i, j)), 0) + w
    return n, lin, quad


def expected_gates(n, lin, quad, gammas, betas):
    """x = (1 + s)/2: h_i = a_i/2 + sum_j b_ij/4, J_ij = b_ij/4; the gates of doc/qaoa.md."""
    h = [lin.get(i, 0) / 2 + sum(w / 4 for (a, b), w in quad.items() if i in (a, b))
         for i in range(n)]
    gates = [("h", (i,), None) for i in range(n)]
    for g, b in zip(gammas, betas):
        gates += [("rz", (i,), -2 * g * float(h[i])) for i in range(n) if h[i] != 0]
        for (i, j), w in sorted(quad.items()):
            if w != 0:
                gates += [("cx", (i, j), None), ("rz", (j,), 2 * g * float(w / 4)),
                          ("cx", (i, j), None)]
        gates += [("rx", (i,), 2 * b) for i in range(n)]
    return gates


def read_qasm(text, version):
    """(qubits, gates, measured) of a program; None when a statement is unexpected."""
    head = ("OPENQASM 2.0;", 'include "qelib1.inc";') if version == 2 else \
        ("OPENQASM 3.0;", 'include "stdgates.inc";')
    lines = [ln for ln in text.splitlines() if not ln.startswith("//")]
    if len(lines) < 4 or tuple(lines[:2]) != head:
        return None
    decl = re.fullmatch(r"qreg q\[(\d+)\];" if version == 2 else r"qubit\[(\d+)\] q;", lines[2])
    creg = f"creg c[{decl.group(1)}];" if version == 2 and decl else f"bit[{decl.group(1)}] c;" \
        if decl else None
    if not decl or lines[3] != creg:
        return None
    nq, gates, measured = int(decl.group(1)), [], []
    for ln in lines[4:]:
        m = re.fullmatch(r"measure q\[(\d+)\] -> c\[(\d+)\];" if version == 2
                         else r"c\[(\d+)\] = measure q\[(\d+)\];", ln)
        if m:
            q, c = (m.group(1), m.group(2)) if version == 2 else (m.group(2), m.group(1))
            measured.append((int(q), int(c)))
            continue
        m = re.fullmatch(r"(h|rz|rx|cx)(?:\((-?\d+\.\d*(?:e[-+]\d+)?)\))? q\[(\d+)\]"
                         r"(?:,q\[(\d+)\])?;", ln)
        if not m or measured:
            return None
        qs = tuple(int(x) for x in m.group(3, 4) if x is not None)
        gates.append((m.group(1), qs, float(m.group(2)) if m.group(2) else None))
    return nq, gates, measured


# a board that the full reduction leaves with 7 variables (tests/qubo/qaoa/qasm/queens6.txt)
qz = os.path.join(WORK, "cli_queens6.txt")
with open(qz, "w") as f:
    f.write("queens 6\naabbbb\naabbbc\naabbbc\naadbbf\neddfff\ndddfff\n")
rc, out, err = run("export", qz)
nvar, lin, quad = read_qubo(out)
check(rc == 0 and nvar == 7, f"export of the 7-variable board: {rc} {nvar}")
for version in (2, 3):
    angles = [0.35, -1.25, 0.5, 1.5707963267948966]  # p = 2
    rc, out, err = run("export", f"--qasm{version}", "--angles", ",".join(map(repr, angles)), qz)
    got = read_qasm(out, version) if rc == 0 else None
    check(got is not None, f"export --qasm{version}: {rc} {out[:300]!r} {err!r}")
    if got:
        nq, gates, measured = got
        check(nq == nvar and measured == [(i, i) for i in range(nvar)],
              f"--qasm{version}: {nq} qubits, measured {measured}")
        check(gates == expected_gates(nvar, lin, quad, angles[:2], angles[2:]),
              f"--qasm{version}: the gates of the Ising form")
        check("// gamma = [0.35, -1.25]\n// beta = [0.5, 1.5707963267948966]\n" in out,
              f"--qasm{version}: the angles in the header comment")
    check(err == "", f"--qasm{version} with --angles is quiet: {err!r}")
# the angles optimised by the library: printed on stderr as an --angles list
# that gives the same program back
rc, out, err = run("export", "--qasm2", "--p", "2", qz)
m = re.search(r"angles optimised for p = 2: --angles (\S+)", err)
check(rc == 0 and m is not None, f"export --qasm2 --p 2: {rc} {err!r}")
if m:
    vals = m.group(1).split(",")
    check(len(vals) == 4 and f"// gamma = [{vals[0]}, {vals[1]}]\n" in out,
          f"optimised angles in the header comment: {vals} {out[:400]!r}")
    rc2, out2, err2 = run("export", "--qasm2", "--angles", m.group(1), qz)
    check(rc2 == 0 and out2 == out, "the printed angles give the same circuit")
    rc3, out3, _ = run("export", "--qasm2", "--p", "2", qz)
    check(rc3 == 0 and out3 == out, "optimised angles are reproducible")
# the unique puzzle is solved by the reduction: a program without qubits
rc, out, err = run("export", "--qasm2", pz)
check(rc == 0 and "no variables" in out and "qreg" not in out and "measure" not in out
      and "no qubits" in err, f"export --qasm2 of a solved puzzle: {rc} {out!r} {err!r}")
# a model file, -o, standard input
qpath = os.path.join(WORK, "cli_model.qasm")
rc, out, err = run("export", "--qasm3", "--angles", "0.1,0.2", model, "-o", qpath)
check(rc == 0 and out == "" and read_qasm(open(qpath).read(), 3) is not None
      and read_qasm(open(qpath).read(), 3)[0] == 10, f"export --qasm3 of a model -o: {rc} {err!r}")
rc, out, err = run("export", "--qasm2", "--angles", "0.1,0.2", "-", stdin=open(model).read())
check(rc == 0 and read_qasm(out, 2) is not None, f"export --qasm2 from standard input: {rc}")
# statuses: too large to optimise (6), bad values and combinations (2), I/O (4)
rc, out, err = run("export", "--qasm2", big)
check(rc == 6 and out == "" and "45 variables" in err and "max_qubits 26" in err,
      f"export --qasm2 of 45 variables: {rc} {err!r}")
rc, out, err = run("export", "--qasm2", "--angles", "0.1,0.2", big)
check(rc == 0 and read_qasm(out, 2) is not None, f"given angles need no simulator: {rc} {err!r}")
for args in (("--qasm2", "--angles", "0.1,0.2,0.3"), ("--qasm2", "--angles", "0.1,inf"),
             ("--qasm2", "--angles", "0.1,,0.2"), ("--qasm2", "--p", "2", "--angles", "0.1,0.2"),
             ("--qasm2", "--p", "0"), ("--qasm2", "--p", "65"), ("--p", "1"),
             ("--angles", "0.1,0.2"), ("--qasm2", "--qasm3")):
    rc, out, err = run("export", *args, qz)
    check(rc == 2 and out == "" and err.startswith("qubo: "), f"export {args}: {rc} {err!r}")
rc, out, err = run("export", "--qasm2", "--angles", "0.1,0.2", qz, "-o",
                   os.path.join(WORK, "no-such-dir", "c.qasm"))
check(rc == 4 and err.startswith("qubo: "), f"export --qasm2 to a missing folder: {rc} {err!r}")
rc, out, err = run("export", "--help")
check(rc == 0 and "--qasm2" in out and "--angles" in out, "export --help shows --qasm2")

# render: plain letters when not a terminal, colours when asked
rc, out, err = run("render", pz, solpath)
lines = out.splitlines()
check(rc == 0 and lines[0] == f"queens {n}" and len(lines) == n + 1
      and sum(line.split().count("Q") for line in lines[1:]) == n
      and "\033" not in out, f"render plain: {out!r}")
check(all(len(line.split()) == n for line in lines[1:]), "render: one token per cell")
rc, out, err = run("render", "--color", "always", pz, "-", stdin=solution)
check(rc == 0 and "\033[48;5;" in out, f"render --color always: {out!r}")
rc, out, err = run("render", "-", stdin=puzzle_text(n, regions))
check(rc == 0 and "Q" not in out and regions[0][0] in out, f"render the puzzle alone: {out!r}")
rc, out, err = run("render", pz, "-", stdin=bad)
check(rc == 0 and "breaks" in err, f"render an invalid solution: {rc} {err!r}")

# dominating queens: 8 x 8 needs 5 (a known result: the domination number of the 8 x 8 queens graph), found by the default solver
rc, out, err = run("solve", "-", stdin="domination 8\n")
check(rc == 0 and out.count("Q") == 5 and "status: optimal and proven" in err
      and "energy: 5 " in err, f"solve domination 8: {rc} {out!r} {err!r}")
dompath = os.path.join(WORK, "cli_domination.txt")
with open(dompath, "w") as f:
    f.write("domination 8\n")
rc2, out2, err2 = run("verify", dompath, "-", stdin=out)
check(rc2 == 0 and out2 == "valid\n", f"verify the domination: {rc2} {out2!r} {err2!r}")

# usage errors and --help for every verb
for verb in ("solve", "export", "verify", "info", "count", "render", "solvers"):
    rc, out, err = run(verb, "--help")
    check(rc == 0 and out.startswith(f"usage: qubo {verb}") and err == "",
          f"{verb} --help: {rc} {out[:40]!r}")
    rc, out, err = run("help", verb)
    check(rc == 0 and out.startswith(f"usage: qubo {verb}"), f"help {verb}")
    rc, out, err = run(verb, "--no-such-option", pz)
    check(rc == 2 and err.startswith("qubo: "), f"{verb} bad option: {rc} {err!r}")
for verb in ("solve", "export", "info", "count", "render"):
    check(run(verb)[0] == 2, f"{verb} without input: usage")
check(run("solve", "--reduce", "most", pz)[0] == 2, "solve --reduce most: usage")
check(run("solve", "--reduce", "full", model)[0] == 2, "--reduce on a model: usage")
check(run("solve", "--top", "1", pz)[0] == 2, "--top on a puzzle: usage")
check(run("count", "--max-variables", "41", pz)[0] == 2, "count --max-variables 41: usage")
check(run("count", "--max-variables", "0", pz)[0] == 2, "count --max-variables 0: usage")
check(run("render", "--color", "sometimes", pz)[0] == 2, "render --color sometimes: usage")
check(run("export", pz, "-o")[0] == 2, "export -o without a path: usage")
check(run("count", model)[0] == 2, "count of a model: usage")
check(run("solve", "--solver", "nonesuch", pz)[0] == 2, "unknown solver: usage")
rc, out, err = run("--help")
check(rc == 0 and all(f"\n  {k}  " in out for k in range(7)), "--help lists the exit statuses")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
