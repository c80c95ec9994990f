#!/usr/bin/env python3
"""The `qubo` program on Tents & Trees.

- Every tents/*.txt of $QUBO_PUZZLES_DIR (when present): `qubo solve` prints
  exactly the published NAME.solution (all are unique), which `qubo verify`
  accepts, and `qubo count` prints 1.
- Exit statuses and messages: a malformed file is status 3 with
  FILE:LINE:COLUMN; a well-formed file without solution is status 5 for
  solve, count, info, export and verify, with the row, column or tree named;
  a broken solution is status 1 for verify with the rule it breaks.
- A game ID solves; `info`, `export --reduce none`, `render` with and without
  a solution, and `solve --solver sa --reduce none` work on a small puzzle.

usage: test_cli_tents.py QUBO_BINARY
"""
import glob
import os
import subprocess
import sys
import tempfile

QUBO = sys.argv[1]
DIR = os.environ.get("QUBO_PUZZLES_DIR", "")
failures = []

SMALL = "tents 3x2\ncols 0 1 0\nrows 1 0\nT..\n...\n"
SMALL_SOLUTION = "tents 3x2\ncols 0 1 0\nrows 1 0\nTA.\n...\n"
GAME_ID = "8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0"


def qubo(*args, stdin=None):
    p = subprocess.run([QUBO, *args], input=stdin, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what):
    if not cond:
        failures.append(what)


def shared_collection():
    paths = sorted(glob.glob(os.path.join(DIR, "tents", "*.txt"))) if DIR else []
    if not paths:
        print(f"note: no shared tents puzzles (QUBO_PUZZLES_DIR={DIR!r}); checked the rest")
        return
    for path in paths:
        name = os.path.basename(path)
        rc, out, err = qubo("solve", "--quiet", path)
        with open(path[:-4] + ".solution") as f:
            want = "".join(l for l in f.readlines() if not l.startswith("#"))
        expect(rc == 0 and out == want, f"{name}: solve exit {rc}, output\n{out}{err}")
        rc, vout, verr = qubo("verify", path, "-", stdin=out)
        expect(rc == 0 and vout == "valid\n", f"{name}: verify exit {rc}: {vout}{verr}")
        rc, cout, cerr = qubo("count", "--quiet", path)
        expect(rc == 0 and cout == "1\n", f"{name}: count exit {rc}: {cout}{cerr}")
    print(f"{len(paths)} shared tents puzzles solved, verified and counted")


def statuses(work):
    def put(name, text):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    small = put("small.txt", SMALL)
    bad = put("bad.txt", "tents 2x2\ncols 1 x\nrows 1 0\nT.\n..\n")
    for verb in ("solve", "count", "info", "export", "render"):
        rc, out, err = qubo(verb, bad)
        expect(rc == 3 and f"{bad}:2:8: the tent count of column 2 must be a number" in err,
               f"{verb} of a malformed file: exit {rc}, {err!r}")
    none = put("none.txt", "tents 2x2\ncols 1 1\nrows 1 0\nT.\n..\n")
    for verb in ("solve", "count", "info", "export"):
        rc, out, err = qubo(verb, none)
        expect(rc == 5 and "there is 1 tree, so as many tents, but the rows ask for 1 and the "
               "columns for 2" in err, f"{verb} of an infeasible file: exit {rc}, {err!r}")
    rc, out, err = qubo("verify", none, "-", stdin="T.\n..\n")
    expect(rc == 5, f"verify against an infeasible file: exit {rc}, {err!r}")
    over = put("over.txt", "tents 4x1\ncols 1 1 0 0\nrows 2\nT..T\n")
    rc, out, err = qubo("solve", over)
    expect(rc == 5 and "row 1 needs 2 tents, but at most 1 fits there" in err,
           f"solve of an over-full row: exit {rc}, {err!r}")
    # verify: a solution that breaks rules, one that does not parse
    rc, out, err = qubo("verify", small, "-", stdin="T..\n.A.\n")
    expect(rc == 1 and "row 2 has 1 tent, needs 0" in out
           and "tree at row 1, column 1 has no tent beside it" in out,
           f"verify of a broken solution: exit {rc}, {out!r} {err!r}")
    rc, out, err = qubo("verify", small, "-", stdin=".A.\n...\n")
    expect(rc == 3 and ":1:1: row 1 has no 'T' at column 1" in err,
           f"verify of a solution without the tree: exit {rc}, {err!r}")
    rc, out, err = qubo("verify", small, "-", stdin=SMALL_SOLUTION)
    expect(rc == 0 and out == "valid\n", f"verify of the solution: exit {rc}, {out!r}")
    # the other verbs on the small puzzle
    rc, out, err = qubo("solve", small)
    expect(rc == 0 and out == SMALL_SOLUTION and "tents (Tents & Trees)" in err
           and "status: solved and verified" in err, f"solve: exit {rc}, {out!r} {err!r}")
    rc, out, err = qubo("solve", "--solver", "sa", "--reduce", "none", small)
    expect(rc == 0 and out == SMALL_SOLUTION and "solver: sa" in err,
           f"solve --solver sa --reduce none: exit {rc}, {out!r} {err!r}")
    rc, out, err = qubo("info", "--reduce", "none", small)
    expect(rc == 0 and "family: tents (Tents & Trees)" in out
           and "variables before reduction: 7" in out and "solution energy: 0" in out,
           f"info: exit {rc}, {out!r}")
    rc, out, err = qubo("export", "--reduce", "none", small)
    expect(rc == 0 and "p qubo 0 7 " in out, f"export: exit {rc}, {out!r}")
    rc, out, err = qubo("render", small)
    expect(rc == 0 and out == SMALL, f"render: exit {rc}, {out!r}")
    sol = put("small.solution", SMALL_SOLUTION)
    rc, out, err = qubo("render", small, sol)
    expect(rc == 0 and out == SMALL_SOLUTION, f"render with a solution: exit {rc}, {out!r}")
    # a game ID in place of a file
    rc, out, err = qubo("solve", "--quiet", GAME_ID)
    expect(rc == 0 and out.startswith("tents 8x8\ncols 3 0 2 2 1 1 1 2\n"),
           f"solve of a game ID: exit {rc}, {out!r} {err!r}")
    gid = put("id.txt", GAME_ID + "\n")
    rc, vout, err = qubo("verify", gid, "-", stdin=out)
    expect(rc == 0 and vout == "valid\n", f"verify against a game ID: exit {rc}, {vout!r}")
    rc, out, err = qubo("count", "--quiet", GAME_ID)
    expect(rc == 0 and out == "1\n", f"count of a game ID: exit {rc}, {out!r}")


def main():
    with tempfile.TemporaryDirectory() as work:
        statuses(work)
    shared_collection()
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


sys.exit(main())
