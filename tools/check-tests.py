#!/usr/bin/env python3
"""The tests mirror lib/, and every test file runs.

  check-tests.py SOURCE_ROOT

Fails when a folder of lib/ has no folder of the same path under tests/
(lib/qubo/solvers -> tests/qubo/solvers), or when a test source under tests/
(a .c, .py, .sh or .js file) is named by no meson.build of tests/: such a
file would never be built or run. The opposite, a meson.build naming a file
that is absent, stops `meson setup` itself. tests/fuzz is left out: its
targets are named from its table (fuzz_NAME.c), and a missing one stops
`meson setup -Dfuzz=true`. Prints each offence on a line of its own.

Exit status 0 when all is well, 1 otherwise, 2 on a usage error.
tests/meta/meson.build runs it (test tests-layout).
"""

import os
import re
import sys

SOURCES = ('.c', '.py', '.sh', '.js')
SKIP = ('fuzz',)
QUOTED = re.compile(r"'([^'\n]+)'")


def lib_folders(root):
    lib = os.path.join(root, 'lib')
    for dirpath, _, files in os.walk(lib):
        if any(f.endswith('.c') for f in files):
            yield os.path.relpath(dirpath, lib)


def named_files(tests):
    """Every path a meson.build of tests/ names, relative to tests/."""
    named = set()
    for dirpath, _, files in os.walk(tests):
        if 'meson.build' not in files:
            continue
        with open(os.path.join(dirpath, 'meson.build'), encoding='utf-8') as f:
            text = f.read()
        for s in QUOTED.findall(text):
            path = os.path.normpath(os.path.join(dirpath, s))
            named.add(os.path.relpath(path, tests))
    return named


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1]
    tests = os.path.join(root, 'tests')
    bad = 0
    for rel in sorted(lib_folders(root)):
        if not os.path.isdir(os.path.join(tests, rel)):
            print(f'lib/{rel} has no tests/{rel}')
            bad += 1
    named = named_files(tests)
    for dirpath, dirs, files in os.walk(tests):
        if os.path.relpath(dirpath, tests) == '.':
            dirs[:] = [d for d in dirs if d not in SKIP]
        dirs.sort()
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, name), tests)
            if name.endswith(SOURCES) and rel not in named:
                print(f'tests/{rel} is named by no meson.build of tests/: it never runs')
                bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
