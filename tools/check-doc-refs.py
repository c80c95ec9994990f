#!/usr/bin/env python3
"""No shipped text cites a file that does not ship.

  check-doc-refs.py SOURCE_ROOT

Reads every public header (include/, the .h and .h.in files), every doc page
(doc/*.md), doc/Doxyfile.in, README.md and pkgconfig/README.md, and fails
when one of them names a file that is not part of the project: the
working notes the project was planned from (seeds/..., FORMATS.md,
FORMULATIONS.md, TOOLCHAIN.md, DESIGN.md, STYLE.md). The project's own pages
are doc/formats.md and doc/formulations.md; papers are cited by title and
section. Prints each offending line as FILE:LINE: TEXT.

Exit status 0 when no text names such a file, 1 otherwise, 2 on a usage
error. tests/meta/meson.build runs it (test docs-no-private-refs).
"""

import os
import re
import sys

# A bare name (FORMATS.md) is a private file; doc/formats.md is not, as the
# project's pages are lower case.
PATTERN = re.compile(r'seeds/|\b(?:FORMATS|FORMULATIONS|TOOLCHAIN|DESIGN|STYLE)\.md\b')


def shipped_texts(root):
    for sub in ('include',):
        for dirpath, _, files in os.walk(os.path.join(root, sub)):
            for name in sorted(files):
                if name.endswith('.h') or name.endswith('.h.in'):
                    yield os.path.join(dirpath, name)
    doc = os.path.join(root, 'doc')
    for name in sorted(os.listdir(doc)):
        if name.endswith('.md') or name == 'Doxyfile.in':
            yield os.path.join(doc, name)
    for rel in ('README.md', os.path.join('pkgconfig', 'README.md')):
        path = os.path.join(root, rel)
        if os.path.exists(path):
            yield path


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    root = argv[1]
    bad = 0
    checked = 0
    for path in shipped_texts(root):
        checked += 1
        with open(path, encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                if PATTERN.search(line):
                    rel = os.path.relpath(path, root)
                    print('%s:%d: %s' % (rel, no, line.rstrip()))
                    bad += 1
    if checked == 0:
        print('check-doc-refs: no file found under %s' % root)
        return 1
    if bad:
        print('check-doc-refs: %d line(s) cite files that do not ship; cite the '
              'project page (doc/formats.md, doc/formulations.md) or the paper by '
              'title and section' % bad)
        return 1
    print('check-doc-refs: %d files, no reference to a file that does not ship' % checked)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
