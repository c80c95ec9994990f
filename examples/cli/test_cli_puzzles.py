#!/usr/bin/env python3
"""Every LinkedIn Queens and Star Battle puzzle of the shared collection,
solved by `qubo solve` with default settings and accepted by the checker.

For each queens/*.txt in $QUBO_PUZZLES_DIR: `qubo solve FILE` must exit 0
and print a solution file; `qubo verify FILE -` must accept that output; and
where the puzzle is unique (its '# solutions: 1' comment, or `qubo count`
says 1) the output must be the published NAME.solution. Puzzles run on a
few processes at once. Skips (exit 77) when the collection is absent.

usage: test_cli_puzzles.py QUBO_BINARY
"""
import concurrent.futures
import glob
import os
import subprocess
import sys
import time

QUBO = sys.argv[1]
DIR = os.environ.get("QUBO_PUZZLES_DIR", "")


def run(*args, stdin=None):
    p = subprocess.run([QUBO, *args], input=stdin, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def strip_comments(text):
    return "".join(line for line in text.splitlines(True) if not line.startswith("#"))


def one(path):
    """Returns a list of problems with this puzzle (empty when all is well)."""
    name = os.path.basename(path)
    problems = []
    rc, out, err = run("solve", "--quiet", path)
    if rc != 0:
        return [f"{name}: solve exit {rc}: {err.strip()}"]
    if err:
        problems.append(f"{name}: solve --quiet wrote to stderr: {err!r}")
    vrc, vout, verr = run("verify", path, "-", stdin=out)
    if vrc != 0 or vout != "valid\n":
        problems.append(f"{name}: verify exit {vrc}: {vout.strip()} {verr.strip()}")
    with open(path) as f:
        text = f.read()
    unique = "# solutions: 1 " in text
    if not unique:
        crc, cout, cerr = run("count", "--quiet", path)
        if crc != 0:
            problems.append(f"{name}: count exit {crc}: {cerr.strip()}")
        unique = cout == "1\n"
    sol = path[:-4] + ".solution"
    if unique and os.path.exists(sol):
        with open(sol) as f:
            want = strip_comments(f.read())
        if out != want:
            problems.append(f"{name}: output differs from {os.path.basename(sol)}:\n"
                            f"{out}--- expected ---\n{want}")
    return problems


def main():
    if not DIR or not os.path.isdir(os.path.join(DIR, "queens")):
        print(f"SKIP: the puzzle collection is absent (QUBO_PUZZLES_DIR={DIR!r})")
        return 77
    paths = sorted(glob.glob(os.path.join(DIR, "queens", "*.txt")))
    if not paths:
        print(f"SKIP: no queens/*.txt in {DIR}")
        return 77
    t0 = time.perf_counter()
    workers = max(2, min(8, (os.cpu_count() or 2) * 2))
    with concurrent.futures.ThreadPoolExecutor(workers) as ex:
        results = list(ex.map(one, paths))
    failures = [p for r in results for p in r]
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sets = {"LinkedIn Queens": 0, "Star Battle, 1 star": 0, "Star Battle, 2 stars": 0}
    for p in paths:
        b = os.path.basename(p)
        key = ("Star Battle, 2 stars" if "starbattle2" in b else
               "Star Battle, 1 star" if "starbattle" in b else "LinkedIn Queens")
        sets[key] += 1
    print(", ".join(f"{k}: {v}" for k, v in sets.items()),
          f"({time.perf_counter() - t0:.1f} s on {workers} processes)")
    bad = sum(1 for r in results if r)
    print(f"{len(paths) - bad} of {len(paths)} puzzles solved and verified")
    return 1 if failures else 0


sys.exit(main())
