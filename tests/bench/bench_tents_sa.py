#!/usr/bin/env python3
"""The built-in annealer alone on Tents & Trees, up to 10 x 10.

  bench_tents_sa.py QUBO [--count N] [--seed S] [--sizes 4x4,5x5,...]

For every size, fresh puzzles from Simon Tatham's generator (Debian's
sgt-tents, both difficulties, from a fixed seed; without it, the 8x8 and
10x10 puzzles of $QUBO_PUZZLES_DIR/tents) are solved with

  qubo solve --solver sa [--reduce none] PUZZLE

that is the sa solver alone with default settings (sampling rounds of 4 reads
that stop at a solution's energy, 128 sweeps growing 4-fold, 60 s limit),
on the fully reduced model (the default) and on the unreduced exact model
(--reduce none: every cell and every tree-cell assignment a variable). A
run succeeds when it exits 0 and `qubo verify` accepts its board. For the
unreduced model it also measures the probability that one read reaches a
solution: 100 reads of 128 and of 1000 sweeps on the exported model
(`qubo export --reduce none`, then `qubo solve MODEL`), counting the reads
at energy 0.

Prints one line per size and model: success rate, rounds and time (median,
worst), and the per-read rates. A benchmark, never a timed test: exit 0
unless a run fails to reach a verified solution (exit 1), 77 when there is
nothing to run.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time


def generate(size, difficulty, count, seed):
    gen = None
    for cand in ('sgt-tents', '/usr/games/sgt-tents'):
        try:
            out = subprocess.run([cand, '--generate', str(count),
                                  '%sd%s#%s' % (size, difficulty, seed)],
                                 capture_output=True, text=True, check=True)
            gen = out.stdout.split()
            break
        except (OSError, subprocess.CalledProcessError):
            continue
    return gen


def shared(size):
    root = os.environ.get('QUBO_PUZZLES_DIR', '')
    d = os.path.join(root, 'tents')
    if not root or not os.path.isdir(d):
        return []
    out = []
    for name in sorted(os.listdir(d)):
        if not name.endswith('.txt'):
            continue
        path = os.path.join(d, name)
        with open(path) as f:
            if ('\ntents %s\n' % size) in f.read():
                out.append(path)
    return out


def solve(qubo, puzzle, reduce_none, work):
    args = [qubo, 'solve', '--solver', 'sa']
    if reduce_none:
        args += ['--reduce', 'none']
    t0 = time.perf_counter()
    p = subprocess.run(args + [puzzle], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    ok = False
    rounds = 0
    if p.returncode == 0:
        sol = os.path.join(work, 'sol')
        with open(sol, 'w') as f:
            f.write(p.stdout)
        v = subprocess.run([qubo, 'verify', puzzle, sol], capture_output=True, text=True)
        ok = v.returncode == 0 and v.stdout.strip() == 'valid'
    for line in p.stderr.splitlines():
        if line.startswith('solver: sa, '):
            rounds = int(line.split(',')[1].split()[0])
        elif line.startswith('solver: none'):
            rounds = 0
    return ok, dt, rounds


def per_read(qubo, puzzle, sweeps, work):
    model = os.path.join(work, 'm.qubo')
    subprocess.run([qubo, 'export', '--reduce', 'none', puzzle, '-o', model], check=True,
                   capture_output=True)
    p = subprocess.run([qubo, 'solve', '--reads', '100', '--sweeps', str(sweeps), '--seed', '1',
                        '--threads', '1', model], capture_output=True, text=True, check=True)
    hits = 0
    for line in p.stdout.splitlines():
        e, c, _ = line.split()
        if abs(float(e)) < 1e-9:
            hits += int(c)
    return hits / 100.0


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    qubo = sys.argv[1]
    count, seed = 10, '2026'
    sizes = ['4x4', '5x5', '6x6', '7x7', '8x8', '6x9', '10x7', '9x9', '10x10']
    args = sys.argv[2:]
    while args:
        if args[0] == '--count':
            count = int(args[1])
        elif args[0] == '--seed':
            seed = args[1]
        elif args[0] == '--sizes':
            sizes = args[1].split(',')
        else:
            print('unknown option %s' % args[0], file=sys.stderr)
            return 2
        args = args[2:]
    failed = 0
    ran = 0
    with tempfile.TemporaryDirectory() as work:
        for size in sizes:
            puzzles = []
            for diff in ('e', 't'):
                ids = generate(size, diff, count, seed)
                if ids:
                    puzzles += ids
            source = 'sgt-tents %s, difficulties e and t, seed %s' % (size, seed)
            if not puzzles:
                puzzles = shared(size)[:2 * count]
                source = 'shared collection'
            if not puzzles:
                continue
            files = []
            for k, pz in enumerate(puzzles):
                if os.path.exists(pz):
                    files.append(pz)
                    continue
                path = os.path.join(work, 'p%d.txt' % k)
                with open(path, 'w') as f:
                    f.write(pz + '\n')
                files.append(path)
            for reduce_none in (False, True):
                res = [solve(qubo, f, reduce_none, work) for f in files]
                ok = sum(1 for r in res if r[0])
                times = [r[1] for r in res]
                rounds = [r[2] for r in res]
                ran += len(res)
                failed += len(res) - ok
                line = ('%-6s %-13s %3d/%-3d verified (%5.1f%%), rounds median %d max %d, '
                        'time median %.1f ms worst %.1f ms' %
                        (size, 'reduce none' if reduce_none else 'reduce full', ok, len(res),
                         100.0 * ok / len(res), statistics.median(rounds), max(rounds),
                         1e3 * statistics.median(times), 1e3 * max(times)))
                if reduce_none:
                    r128 = [per_read(qubo, f, 128, work) for f in files]
                    r1000 = [per_read(qubo, f, 1000, work) for f in files]
                    line += ('; one read at 128 sweeps: %.0f%%, at 1000: %.0f%% (mean)' %
                             (100 * statistics.mean(r128), 100 * statistics.mean(r1000)))
                print(line + '  [%s]' % source, flush=True)
    if not ran:
        print('bench_tents_sa: no puzzles (sgt-tents not installed and no shared collection)')
        return 77
    print('bench_tents_sa: %d runs, %d failed' % (ran, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
