#!/usr/bin/env python3
"""Standard output that cannot be written: every verb (and --help, --version,
`solvers`) whose output goes nowhere exits with status 4 and says so in
exactly one line on standard error, naming standard output. Three ways to
fail: standard output closed, /dev/full (no space left), and a pipe whose
reader has gone, with SIGPIPE ignored (as `trap '' PIPE` leaves it). Each
command is first run with a working standard output, so that it is known
to write something.

usage: test_cli_output.py QUBO_BINARY WORK_DIR
"""
import os
import signal
import subprocess
import sys

QUBO = sys.argv[1]
WORK = sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def ignore_sigpipe():
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


def close_stdout():
    os.close(1)


def run(args, how):
    """Runs qubo with args; how is 'pipe' (a working one), 'closed',
    'full' or 'broken'. Returns (status, stdout, stderr)."""
    kwargs = dict(stderr=subprocess.PIPE, timeout=60)
    out = b""
    if how == "pipe":
        p = subprocess.run([QUBO, *args], stdout=subprocess.PIPE, **kwargs)
        out = p.stdout
    elif how == "closed":
        p = subprocess.run([QUBO, *args], preexec_fn=close_stdout, **kwargs)
    elif how == "full":
        with open("/dev/full", "wb") as full:
            p = subprocess.run([QUBO, *args], stdout=full, **kwargs)
    else:
        # the reader is gone before qubo writes: every write fails with
        # EPIPE, and SIGPIPE, ignored, does not end the program
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.run([QUBO, *args], stdout=w, restore_signals=False,
                               preexec_fn=ignore_sigpipe, **kwargs)
        finally:
            os.close(w)
    return p.returncode, out.decode(), p.stderr.decode()


os.makedirs(WORK, exist_ok=True)
nq6 = write("out_nq6.txt", "nqueens 6\n")
queens = write("out_queens.txt", "queens 4\naabb\naabb\nccdd\nccdd\n")
model = write("out_model.qubo", "p qubo 0 3 3 1\n0 0 -1\n1 1 -1\n2 2 1\n0 1 2\n")
sol = write("out_nq6.sol", "nqueens 6\n.Q....\n...Q..\n.....Q\nQ.....\n..Q...\n....Q.\n")
big = write("out_big.txt", "nqueens 30\n")  # a model of 160 kB, past any pipe buffer

commands = [
    ["--help"],
    ["--version"],
    ["help", "solve"],
    ["solvers"],
    ["solvers", "--help"],
    ["solve", "--help"],
    ["solve", "--quiet", nq6],
    ["solve", "--quiet", "--threads", "1", model],
    ["solve", "--quiet", "--threads", "1", "--reads", "20000", "--sweeps", "1", model],
    ["export", nq6],
    ["export", big],
    ["export", "--qasm2", "--angles", "0.1,0.2", nq6],
    ["export", "--qasm3", "--angles", "0.3,0.4", "-o", "-", model],
    ["info", nq6],
    ["info", model],
    ["count", "--quiet", nq6],
    ["verify", nq6, sol],
    ["render", "--color", "never", queens],
    ["render", nq6, sol],
]
reasons = {"closed": "Bad file descriptor", "full": "No space left on device",
           "broken": "Broken pipe"}
for args in commands:
    name = " ".join(os.path.basename(a) for a in args)
    rc, out, err = run(args, "pipe")
    check(rc == 0 and out, f"{name}: with a working standard output: {rc} {err!r}")
    for how, reason in reasons.items():
        rc, _, err = run(args, how)
        lines = err.splitlines()
        check(rc == 4 and len(lines) == 1 and "standard output" in lines[0]
              and lines[0].startswith("qubo: ") and reason in lines[0],
              f"{name}, standard output {how}: exit {rc}, stderr {err!r}")

# a file of -o that cannot be written: named, once, status 4
for args in (["export", nq6, "-o", "/dev/full"],
             ["export", "--qasm2", "--angles", "0.1,0.2", nq6, "-o", "/dev/full"]):
    rc, out, err = run(args, "pipe")
    lines = err.splitlines()
    check(rc == 4 and len(lines) == 1 and "/dev/full" in lines[0]
          and "No space left on device" in lines[0],
          f"{' '.join(args[:2])} -o /dev/full: exit {rc}, stderr {err!r}")

# messages and figures on standard error are no results: a closed standard
# error changes nothing
p = subprocess.run([QUBO, "solve", nq6], stdout=subprocess.PIPE,
                   preexec_fn=lambda: os.close(2), timeout=60)
check(p.returncode == 0 and p.stdout.startswith(b"nqueens 6\n"),
      f"solve with standard error closed: {p.returncode}")

if failures:
    print(f"{len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print(f"{len(commands)} commands checked against 3 broken outputs")
