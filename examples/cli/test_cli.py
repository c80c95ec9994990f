#!/usr/bin/env python3
"""Drives the qubo program: output layout, order, determinism, exit codes.

usage: test_cli.py QUBO_BINARY WORK_DIR
"""
import itertools
import os
import random
import subprocess
import sys

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
check(run("solve", os.path.join(WORK, "does-not-exist.qubo"))[0] == 3, "missing file")
rc, out, err = run("solve", "-", stdin="p qubo 0 2 1 0\n0 0 nan\n")
check(rc == 3 and out == "" and "line 2" in err, f"parse error: {rc} {err!r}")
check(run("--help")[0] == 0 and run("solve", "--help")[0] == 0, "help exits 0")
big = os.path.join(WORK, "cli_big.qubo")
write_model(big, 45, 2)
rc, out, err = run("solve", "--solver", "exhaustive", big)
check(rc == 1 and "40" in err, f"too large for exhaustive: {rc} {err!r}")

# a time limit stops a long run and still prints samples (exit 0)
rc, out, err = run("solve", "--sweeps", "100000000", "--reads", "2", "--time-limit", "0.3",
                   big)
check(rc == 0 and len(parse(out)) >= 1 and "time limit" in err,
      f"time limit: {rc} {err!r}")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
