#!/usr/bin/env python3
"""Whole-process `qubo info` on a large puzzle: the user's build path.

Writes a puzzle file holding one header line (by default `nqueens 200`, a
40,000-cell board whose model has 13,253,400 couplers), then runs
`qubo info FILE` with the default reduction and with `--reduce none`, R
times each, one process at a time. Each process is timed from spawn to
exit (time.perf_counter around it); its peak resident set size comes from
wait4. Prints every run and, per setting, the median wall time and the
largest peak RSS.

Given several programs (an old and a new build), their runs alternate, so
that a change of machine load falls on all alike, and the medians are
also given relative to the first program.

usage: bench_cli_info.py QUBO_BINARY [QUBO_BINARY ...] [--repeat R]
                         [--puzzle TEXT]
  R runs per program and setting (default 5).
  TEXT the puzzle's text (default 'nqueens 200').
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    """(wall seconds, peak RSS in MB, exit status) of one process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    return wall, ru.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def main(argv):
    progs, repeat, puzzle = [], 5, "nqueens 200"
    it = iter(argv)
    for a in it:
        if a == "--repeat":
            repeat = int(next(it))
        elif a == "--puzzle":
            puzzle = next(it)
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            progs.append(a)
    if not progs or repeat < 1:
        sys.exit(__doc__)
    settings = (("default", []), ("none", ["--reduce", "none"]))
    runs = {(p, s): [] for p in progs for s, _ in settings}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "puzzle.txt")
        with open(path, "w") as f:
            f.write(puzzle + "\n")
        for r in range(repeat):
            for k in range(len(progs)):
                prog = progs[(k + r) % len(progs)]
                for name, args in settings:
                    wall, rss, code = timed([prog, "info", *args, path])
                    if code != 0:
                        sys.exit(f"bench_cli_info: {prog} info {' '.join(args)} exited {code}")
                    runs[(prog, name)].append((wall, rss))
                    print(f"run {r}: {prog} --reduce {name}: {wall:.3f} s, {rss:.0f} MB",
                          flush=True)
    print(f"'{puzzle}', median wall time of {repeat} runs and the largest peak RSS:")
    base = {}
    for prog in progs:
        for name, _ in settings:
            walls = [w for w, _ in runs[(prog, name)]]
            med = statistics.median(walls)
            peak = max(m for _, m in runs[(prog, name)])
            rel = ""
            if prog == progs[0]:
                base[name] = med
            else:
                rel = f" ({med / base[name]:.2f}x the first)"
            print(f"  {prog} --reduce {name}: {med:.3f} s{rel}, peak {peak:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
