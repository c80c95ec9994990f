#!/usr/bin/env python3
"""Public header inventory for the meta tests.

  check-headers.py list INCLUDE_DIR
      Prints every public header as consumers include it (qubo.h,
      qubo/model.h, qubo/puzzle/queens.h, ...), one per line, sorted. A
      generated header counts under its generated name (qubo/version.h.in
      gives qubo/version.h). tests/meta/meson.build reads this when the
      build is configured, to compile each header on its own.
  check-headers.py installed INCLUDE_DIR STAGED_INCLUDE_DIR
      Every public header is installed under STAGED_INCLUDE_DIR (the include
      folder of a `meson install --destdir` stage), and nothing else is
      installed there. Used by tests/meta/install-consumer.sh.

Exit status 0 when the lists agree, 1 otherwise, 2 on a usage error.
"""

import os
import sys


def public_headers(inc):
    found = set()
    for root, _, files in os.walk(inc):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), inc).replace(os.sep, '/')
            if name.endswith('.h'):
                found.add(rel)
            elif name.endswith('.h.in'):
                found.add(rel[:-3])
    return found


def staged_headers(inc):
    found = set()
    for root, _, files in os.walk(inc):
        for name in files:
            found.add(os.path.relpath(os.path.join(root, name), inc).replace(os.sep, '/'))
    return found


def main(argv):
    if len(argv) == 3 and argv[1] == 'list':
        for h in sorted(public_headers(argv[2])):
            print(h)
        return 0
    if len(argv) == 4 and argv[1] == 'installed':
        src, staged = public_headers(argv[2]), staged_headers(argv[3])
        problems = [f'{h}: public header not installed' for h in sorted(src - staged)]
        problems += [f'{h}: installed but not a public header of {argv[2]}'
                     for h in sorted(staged - src)]
        for p in problems:
            print(f'check-headers: {p}')
        if problems:
            print(f'check-headers: FAILED ({len(problems)} problem(s))')
            return 1
        print(f'check-headers: all {len(src)} public headers are installed')
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
