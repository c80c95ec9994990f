#!/usr/bin/env python3
"""Whole-process `qubo solve` time per puzzle of the shared collection.

Runs `qubo solve PUZZLE` with default settings, one process at a time, on
every FOLDER/*.txt of the shared collection (queens by default), times each process from spawn
to exit (time.perf_counter around it; its CPU time from wait4), and checks
each answer: the published NAME.solution where the output equals it, else
`qubo verify` (outside the timing). Prints median, p90 and worst wall time
with the worst puzzle's name, separately for each set (LinkedIn Queens, 1-star
and 2-star Star Battle; LinkedIn Tango; janko Binairo, binarypuzzle.com
Takuzu, Tatham's Unruly; Tatham's and janko's Tents), and the cost of an empty
process for comparison.

Given several programs (an old and a new build), it runs them side by side:
each puzzle's runs alternate between the programs, the first of them taking
turns, so that a change of machine load falls on all alike; then it prints
each program's figures and a table of the medians per set, relative to the
first program.

usage: bench_cli_puzzles.py QUBO_BINARY [QUBO_BINARY ...] [--repeat R]
                            [--folder F ...] [--arg A ...] [--max-side N]
                            [--by-size] [PUZZLES_DIR]
  R runs per puzzle and program (default 1), the median of them counts.
  F: queens (the default), tango, takuzu or tents; may be given several times.
  A: an argument added to `qubo solve` (e.g. --arg --solver --arg sa for the
     annealer alone); may be given several times.
  N: only puzzles whose sides are at most N.
  --by-size: sets per board size too; each set's line gives its success
     rate (answers verified out of runs).
  PUZZLES_DIR (a directory) defaults to $QUBO_PUZZLES_DIR.
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


def kind_of(folder, name, header):
    """The set a puzzle file belongs to."""
    if folder == "queens":
        return ("Star Battle, 2 stars" if " stars 2" in header else
                "Star Battle, 1 star" if "starbattle" in name else "LinkedIn Queens")
    for prefix, kind in (("janko-binairo", "Binairo (janko)"),
                         ("binarypuzzle", "Takuzu (binarypuzzle.com)"),
                         ("sgt-unruly", "Unruly (Tatham)"), ("sgt-tents", "Tents (Tatham)"),
                         ("janko-tents", "Tents (janko)"), ("rntango", "LinkedIn Tango")):
        if name.startswith(prefix):
            return kind
    return folder


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    programs, root, repeat = [], os.environ.get("QUBO_PUZZLES_DIR", ""), 1
    folders, extra, max_side, by_size = [], [], 0, False
    while args:
        arg = args.pop(0)
        if arg == "--repeat":
            repeat = int(args.pop(0))
        elif arg == "--arg":
            extra.append(args.pop(0))
        elif arg == "--max-side":
            max_side = int(args.pop(0))
        elif arg == "--by-size":
            by_size = True
        elif arg == "--folder":
            folders.append(args.pop(0))
        elif os.path.isdir(arg):
            root = arg
        else:
            programs.append(arg)
    folders = folders or ["queens"]
    paths = [(folder, path) for folder in folders
             for path in sorted(glob.glob(os.path.join(root, folder, "*.txt")))]
    if not paths:
        print(f"SKIP: no {'/, '.join(folders)}/*.txt under {root!r} (set QUBO_PUZZLES_DIR)")
        return 77
    kinds = []

    load0 = os.getloadavg()
    floors = {q: sorted(timed([q, "--version"])[0] for _ in range(50)) for q in programs}
    sets = {q: {} for q in programs}
    wrong = {q: [] for q in programs}
    good = {}
    for folder, path in paths:
        name = os.path.basename(path)
        with open(path) as f:
            header = next(line for line in f if line.strip() and not line.startswith("#"))
        size = header.split()[1]
        sides = [int(v) for v in size.split("x")]
        if max_side and max(sides) > max_side:
            continue
        kind = kind_of(folder, name, header)
        if by_size:
            kind += f" {size if 'x' in size else size + 'x' + size}"
        if kind not in kinds:
            kinds.append(kind)
        runs = {q: [] for q in programs}
        for r in range(repeat):
            turn = programs[r % len(programs):] + programs[:r % len(programs)]
            for q in turn:
                runs[q].append(timed([q, "solve"] + extra + [path]))
        for q in programs:
            wall = statistics.median(r[0] for r in runs[q])
            cpu = statistics.median(r[1] for r in runs[q])
            for _, _, rc, out in runs[q]:
                ok = rc == 0
                if ok:
                    sol = path[:-4] + ".solution"
                    same = os.path.exists(sol) and out == strip_comments(open(sol).read())
                    if not same:
                        v = subprocess.run([q, "verify", path, "-"], input=out,
                                           capture_output=True, text=True)
                        ok = v.returncode == 0
                if not ok:
                    wrong[q].append(name)
                good[q, kind] = good.get((q, kind), 0) + ok
            sets[q].setdefault(kind, []).append((wall, cpu, name))
    load1 = os.getloadavg()

    print(f"qubo solve {' '.join(extra) + ' ' if extra else ''}PUZZLE, default settings, one process at a time, {repeat} run(s) "
          f"per puzzle{' and program, alternating' if len(programs) > 1 else ''}; "
          f"{os.cpu_count()} CPUs; load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    medians = {}
    for q in programs:
        if len(programs) > 1:
            print(f"\n{q}:")
        print(f"empty process (qubo --version): median "
              f"{statistics.median(floors[q]) * 1e3:.2f} ms")
        for kind in kinds:
            rows = sets[q].get(kind)
            if not rows:
                continue
            walls = sorted(r[0] for r in rows)
            cpus = sorted(r[1] for r in rows)
            worst = max(rows)
            medians[q, kind] = statistics.median(walls)
            print(f"{kind} ({len(rows)} puzzles, {good.get((q, kind), 0)}/{len(rows) * repeat} "
                  f"verified): wall median "
                  f"{statistics.median(walls) * 1e3:.2f} ms, p90 {pct(walls, 0.9) * 1e3:.2f} ms, "
                  f"worst {worst[0] * 1e3:.2f} ms ({worst[2]}); CPU median "
                  f"{statistics.median(cpus) * 1e3:.2f} ms, worst {cpus[-1] * 1e3:.2f} ms")
    if len(programs) > 1:
        base = programs[0]
        print("\nwall median per set (ms), relative to the first program:")
        print("| set | " + " | ".join(programs) + " |")
        print("|---|" + "---|" * len(programs))
        for kind in kinds:
            if (base, kind) not in medians:
                continue
            cells = [f"{medians[base, kind] * 1e3:.3f}"]
            for q in programs[1:]:
                ratio = medians[q, kind] / medians[base, kind]
                cells.append(f"{medians[q, kind] * 1e3:.3f} ({(ratio - 1) * 100:+.1f}%)")
            print(f"| {kind} | " + " | ".join(cells) + " |")
    status = 0
    for q in programs:
        if wrong[q]:
            print(f"WRONG ANSWER or failure on {len(wrong[q])} puzzle(s) with {q}: "
                  f"{', '.join(wrong[q][:10])}")
            status = 1
    if not status:
        ran = sum(len(rows) for rows in sets[programs[0]].values())
        print(f"all {ran} answers verified"
              f"{' for every program' if len(programs) > 1 else ''}")
    return status


sys.exit(main())
