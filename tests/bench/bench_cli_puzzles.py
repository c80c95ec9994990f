#!/usr/bin/env python3
"""Whole-process `qubo solve` time per LinkedIn Queens / Star Battle puzzle.

Runs `qubo solve PUZZLE` with default settings, one process at a time, on
every queens/*.txt of the shared collection, times each process from spawn
to exit (time.perf_counter around it; its CPU time from wait4), and checks
each answer: the published NAME.solution where the output equals it, else
`qubo verify` (outside the timing). Prints median, p90 and worst wall time
with the worst puzzle's name, separately for LinkedIn Queens, 1-star and
2-star Star Battle, and the cost of an empty process for comparison.

usage: bench_cli_puzzles.py QUBO_BINARY [--repeat R] [PUZZLES_DIR]
  R runs per puzzle (default 1), the median of them counts.
"""
import glob
import os
import statistics
import subprocess
import sys
import time


def timed(cmd, stdin=None):
    """(wall seconds, cpu seconds, exit status, stdout) of one process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.stdout.close()
    return wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status), out.decode()


def strip_comments(text):
    return "".join(line for line in text.splitlines(True) if not line.startswith("#"))


def pct(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    qubo = args.pop(0)
    repeat = 1
    if args[:1] == ["--repeat"]:
        repeat = int(args[1])
        args = args[2:]
    root = args[0] if args else os.environ.get("QUBO_PUZZLES_DIR", "")
    paths = sorted(glob.glob(os.path.join(root, "queens", "*.txt")))
    if not paths:
        print(f"SKIP: no queens/*.txt under {root!r} (set QUBO_PUZZLES_DIR)")
        return 77

    load0 = os.getloadavg()
    floor = sorted(timed([qubo, "--version"])[0] for _ in range(50))
    sets = {}
    wrong = []
    for path in paths:
        name = os.path.basename(path)
        with open(path) as f:
            header = next(line for line in f if line.strip() and not line.startswith("#"))
        kind = ("Star Battle, 2 stars" if " stars 2" in header else
                "Star Battle, 1 star" if "starbattle" in name else "LinkedIn Queens")
        runs = [timed([qubo, "solve", path]) for _ in range(repeat)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        for _, _, rc, out in runs:
            ok = rc == 0
            if ok:
                sol = path[:-4] + ".solution"
                same = os.path.exists(sol) and out == strip_comments(open(sol).read())
                if not same:
                    v = subprocess.run([qubo, "verify", path, "-"], input=out,
                                       capture_output=True, text=True)
                    ok = v.returncode == 0
            if not ok:
                wrong.append(name)
        sets.setdefault(kind, []).append((wall, cpu, name))
    load1 = os.getloadavg()

    print(f"qubo solve PUZZLE, default settings, one process at a time, {repeat} run(s) "
          f"per puzzle; {os.cpu_count()} CPUs; load average {load0[0]:.2f} before, "
          f"{load1[0]:.2f} after")
    print(f"empty process (qubo --version): median {statistics.median(floor) * 1e3:.2f} ms")
    for kind in ("LinkedIn Queens", "Star Battle, 1 star", "Star Battle, 2 stars"):
        rows = sets.get(kind)
        if not rows:
            continue
        walls = sorted(r[0] for r in rows)
        cpus = sorted(r[1] for r in rows)
        worst = max(rows)
        print(f"{kind} ({len(rows)} puzzles): wall median {statistics.median(walls) * 1e3:.2f} "
              f"ms, p90 {pct(walls, 0.9) * 1e3:.2f} ms, worst {worst[0] * 1e3:.2f} ms "
              f"({worst[2]}); CPU median {statistics.median(cpus) * 1e3:.2f} ms, "
              f"worst {cpus[-1] * 1e3:.2f} ms")
    if wrong:
        print(f"WRONG ANSWER or failure on {len(wrong)} puzzle(s): {', '.join(wrong[:10])}")
        return 1
    print(f"all {len(paths)} answers verified")
    return 0


sys.exit(main())
