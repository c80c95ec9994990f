#!/usr/bin/env python3
"""Every puzzle of the shared collection (LinkedIn Queens and Star Battle,
LinkedIn Tango, Takuzu, Binairo and Unruly, Tents), solved by `qubo solve`
with default settings and accepted by the checker.

For each queens/, tango/, takuzu/ and tents/*.txt in $QUBO_PUZZLES_DIR: `qubo solve FILE` must exit 0
and print a solution file; `qubo verify FILE -` must accept that output; and
where the puzzle is unique (its '# solutions: 1' comment, or `qubo count`
says 1) the output must be the published NAME.solution. Puzzles run on a
few processes at once. Skips (exit 77) when the collection is absent.

With --shard K/N (1 <= K <= N) only every N-th puzzle of the sorted list,
starting at the K-th, is run: the N shards together run every puzzle once,
and meson runs them as separate tests, each well inside its timeout under
the sanitizers.

usage: test_cli_puzzles.py QUBO_BINARY [--shard K/N]
"""
import concurrent.futures
import glob
import os
import subprocess
import sys
import time

QUBO = sys.argv[1]
SHARD, SHARDS = 1, 1
if len(sys.argv) == 4 and sys.argv[2] == "--shard":
    SHARD, SHARDS = (int(x) for x in sys.argv[3].split("/"))
elif len(sys.argv) != 2:
    sys.exit(__doc__)
if not 1 <= SHARD <= SHARDS:
    sys.exit(f"bad --shard {SHARD}/{SHARDS}")
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


FOLDERS = ("queens", "tango", "takuzu", "tents")


def set_of(path):
    b = os.path.basename(path)
    for prefix, key in (("samimsu", "LinkedIn Queens"), ("janko-starbattle2", "Star Battle, 2 stars"),
                        ("janko-starbattle", "Star Battle, 1 star"), ("rntango", "LinkedIn Tango"),
                        ("janko-binairo", "Binairo"), ("binarypuzzle", "Takuzu"),
                        ("sgt-unruly", "Unruly"), ("sgt-tents", "Tents (Tatham)"),
                        ("janko-tents", "Tents (janko)")):
        if b.startswith(prefix):
            return key
    return os.path.basename(os.path.dirname(path))


def main():
    if not DIR or not os.path.isdir(DIR):
        print(f"SKIP: the puzzle collection is absent (QUBO_PUZZLES_DIR={DIR!r})")
        return 77
    paths = sorted(p for folder in FOLDERS
                   for p in glob.glob(os.path.join(DIR, folder, "*.txt")))
    if not paths:
        print(f"SKIP: no puzzles in {DIR}")
        return 77
    paths = paths[SHARD - 1::SHARDS]
    if not paths:
        print(f"SKIP: shard {SHARD} of {SHARDS} holds no puzzle")
        return 77
    t0 = time.perf_counter()
    workers = max(2, min(8, (os.cpu_count() or 2) * 2))
    with concurrent.futures.ThreadPoolExecutor(workers) as ex:
        results = list(ex.map(one, paths))
    failures = [p for r in results for p in r]
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sets = {}
    for p in paths:
        sets[set_of(p)] = sets.get(set_of(p), 0) + 1
    print(", ".join(f"{k}: {v}" for k, v in sets.items()),
          f"({time.perf_counter() - t0:.1f} s on {workers} processes)")
    bad = sum(1 for r in results if r)
    shard = f" (shard {SHARD} of {SHARDS})" if SHARDS > 1 else ""
    print(f"{len(paths) - bad} of {len(paths)} puzzles solved and verified{shard}")
    return 1 if failures else 0


sys.exit(main())
