#!/usr/bin/env python3
"""Builds through the qubo program that used to run past every limit: the
wide open Unruly game IDs build and solve at once; a long build (Tents on a
1000 x 1000 board, whose reduction runs many rounds) stops at --time-limit
and at Ctrl-C in every verb that builds a puzzle, with exit status 1 and
the status line of doc/cli.md, and does so promptly.

usage: test_cli_build_stop.py QUBO_BINARY WORK_DIR
"""
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

QUBO = sys.argv[1]
WORK = sys.argv[2]
failures = []

# Seconds a stop may take past its limit or its Ctrl-C, process start and
# exit included: loose, for a loaded 2-core machine and sanitizer builds.
SLACK = 2.0


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args, timeout=60):
    t0 = time.monotonic()
    try:
        p = subprocess.run([QUBO, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "(still running after %d s)" % timeout, time.monotonic() - t0
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def status_line(err):
    for line in err.splitlines():
        if line.startswith("status: "):
            return line[len("status: "):]
    return None


def open_unruly(w, h):
    """An open Unruly board as a game ID: 'z' skips 25 cells, the last
    letter puts a clue one past the end."""
    n = w * h
    return "%dx%d:%s%s" % (w, h, "z" * (n // 25), chr(ord("a") + n % 25))


def tents_file(n):
    """A planted n x n Tents board: half of the cells of every other column
    of every other row hold a tent, its tree below it."""
    rng = random.Random(2211)
    grid = [["."] * n for _ in range(n)]
    rows, cols = [0] * n, [0] * n
    for r in range(0, n - 1, 2):
        for c in range(0, n, 2):
            if rng.random() < 0.5:
                grid[r + 1][c] = "T"
                rows[r] += 1
                cols[c] += 1
    path = os.path.join(WORK, "tents%d.txt" % n)
    with open(path, "w") as f:
        f.write("tents %d\ncols %s\nrows %s\n" % (n, " ".join(map(str, cols)),
                                                  " ".join(map(str, rows))))
        f.write("".join("".join(row) + "\n" for row in grid))
    return path


os.makedirs(WORK, exist_ok=True)

# 1. The game IDs that hung: 44x2 took 35 s to build, 64x2 and 40x40 never
# finished, and a time limit or Ctrl-C did not stop them.
for gid in (open_unruly(44, 2), open_unruly(64, 2), open_unruly(40, 40)):
    rc, out, err, took = run("info", gid, timeout=30)
    check(rc == 0 and "solved by reduction: no" in out,
          f"info {gid[:12]}...: {rc} after {took:.1f} s {err[-200:]!r}")
    rc, out, err, took = run("solve", "--time-limit", "5", gid, timeout=30)
    check(rc == 0 and status_line(err) == "solved and verified",
          f"solve {gid[:12]}...: {rc} after {took:.1f} s {err[-200:]!r}")

# 2. --time-limit stops a long build (it counts from the program's start:
# reading and building are in it).
tents = tents_file(1000)
for verb in ("solve", "count"):
    rc, out, err, took = run(verb, "--time-limit", "0.5", tents, timeout=60)
    said = re.search(r"while reading and building the puzzle, after ([0-9.]+) s", err)
    check(rc == 1 and status_line(err) == "stopped (time limit)" and out == "",
          f"{verb} --time-limit 0.5 on Tents 1000: {rc} {err[-300:]!r}")
    check(took <= 0.5 + SLACK, f"{verb} --time-limit 0.5 on Tents 1000 took {took:.2f} s")
    check(said and float(said.group(1)) <= 0.5 + 0.2 + 0.05,
          f"{verb}: the program's own time: {said and said.group(1)}")


# 3. Ctrl-C stops the build in every verb that builds a puzzle. info, solve
# and count show progress after a second of building: the Ctrl-C comes at
# that line, when the build is surely running. export builds quietly: the
# Ctrl-C comes after 1.5 s.
def interrupt(args, wait_line):
    p = subprocess.Popen([QUBO, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    lines = []
    shown = threading.Event()

    def read_err():
        for line in p.stderr:
            lines.append(line)
            if "building the puzzle" in line:
                shown.set()

    reader = threading.Thread(target=read_err)
    reader.start()
    if wait_line:
        shown.wait(30)
    else:
        time.sleep(1.5)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out = p.stdout.read()
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    reader.join()
    return p.returncode, out, "".join(lines), time.monotonic() - sent


for args, wait_line in ((["info"], True), (["solve"], True), (["count"], True),
                        (["export"], False), (["export", "--reduce", "none"], False)):
    rc, out, err, after = interrupt(args + [tents], wait_line)
    what = " ".join(args)
    check(rc == 1 and "stopped (interrupted) while reading and building the puzzle" in err,
          f"{what} on Tents 1000, Ctrl-C: {rc} {err[-300:]!r}")
    check(after <= SLACK, f"{what}: exited {after:.2f} s after the Ctrl-C")
    if wait_line:
        check(status_line(err) == "stopped (interrupted)", f"{what}: {err[-300:]!r}")

if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("build stops: all checks passed")
