#!/usr/bin/env python3
"""Sums meson test logs into one closing line for CI.

Usage: test-summary.py TESTLOG.json [TESTLOG.json ...]

Each file is meson's build/meson-logs/testlog*.json: one JSON object per line
(name, result, returncode, stdout, stderr, command, ...). A Criterion test
executable counts as the tests it ran, read from its closing line

    [====] Synthesis: Tested: 7 | Passing: 7 | Failing: 0 | Crashing: 0

(Failing includes Crashing; skipped tests are not in Tested, so they are
counted from '[SKIP]' lines, which Criterion prints at verbosity 1 and which
tests/meson.build enables with CRITERION_VERBOSITY_LEVEL=1). Every other meson
test counts as one test: OK and EXPECTEDFAIL pass, SKIP is skipped, anything
else fails.

Guards against tests that pass without testing:
- a Criterion executable with no Synthesis line (for instance Criterion 2.4.1
  given an unknown option prints its usage and exits 0) counts as failed;
- a Criterion executable that ran and skipped nothing counts as failed;
- a Criterion executable whose process failed (a leak found by LeakSanitizer
  or valgrind after the tests reported) counts one failure even when its
  Synthesis line says every test passed.

The last line printed is 'tests: N passed, N failed, N skipped', summed over
all files. The exit status is 1 when anything failed, when a file is missing
or unreadable, or when no test ran at all; 0 otherwise.
"""

import json
import os
import re
import sys

SYNTH_RE = re.compile(r'\[====\] Synthesis: Tested: (\d+) \| Passing: (\d+) \| '
                      r'Failing: (\d+) \| Crashing: (\d+)')
SKIP_RE = re.compile(r'^\[SKIP\] ', re.MULTILINE)
ANSI_RE = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')
CRITERION_TEXT = ('Tests compiled with Criterion', '[----] Criterion v')
PASS_RESULTS = ('OK', 'EXPECTEDFAIL')
SKIP_RESULTS = ('SKIP',)

_criterion_cache = {}


def links_criterion(path):
    """True when the file at path is an executable linked with Criterion."""
    if path in _criterion_cache:
        return _criterion_cache[path]
    found = False
    try:
        if os.path.isfile(path) and os.path.getsize(path) < (256 << 20):
            with open(path, 'rb') as f:
                head = f.read(4)
                if head == b'\x7fELF':
                    found = b'libcriterion.so' in f.read()
    except OSError:
        found = False
    _criterion_cache[path] = found
    return found


def is_criterion(entry, text):
    if any(marker in text for marker in CRITERION_TEXT):
        return True
    return any(isinstance(arg, str) and links_criterion(arg)
               for arg in entry.get('command') or [])


def count_entry(entry):
    """Returns (passed, failed, skipped, note) for one meson test."""
    result = entry.get('result', 'ERROR')
    text = (entry.get('stdout') or '') + '\n' + (entry.get('stderr') or '')
    text = ANSI_RE.sub('', text)
    synth = SYNTH_RE.findall(text)
    criterion = bool(synth) or is_criterion(entry, text)

    if not criterion:
        if result in PASS_RESULTS:
            return 1, 0, 0, None
        if result in SKIP_RESULTS:
            return 0, 0, 1, None
        return 0, 1, 0, result

    if result in SKIP_RESULTS and not synth:
        return 0, 0, 1, None
    if not synth:
        return 0, 1, 0, f'{result}, no Criterion Synthesis line (nothing ran?)'
    passed = sum(int(s[1]) for s in synth)
    failed = sum(int(s[2]) for s in synth)
    tested = sum(int(s[0]) for s in synth)
    skipped = len(SKIP_RE.findall(text))
    note = None
    if failed:
        note = f'{result}, {failed} failing test(s)'
    if result not in PASS_RESULTS and failed == 0:
        # The process failed after every test reported success: a leak at
        # exit, a sanitizer abort in teardown, a valgrind error, a timeout.
        failed = 1
        passed = max(0, passed - 1)
        note = f'{result} (exit status {entry.get("returncode")}) although every test passed'
    if tested == 0 and skipped == 0:
        failed += 1
        note = 'Criterion ran no test'
    return passed, failed, skipped, note


def summarise(path):
    """Returns (passed, failed, skipped, problems) for one testlog file."""
    totals = [0, 0, 0]
    problems = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.readlines()
    except OSError as e:
        return 0, 1, 0, [f'cannot read {path}: {e.strerror}']
    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            totals[1] += 1
            problems.append(f'{path}:{lineno}: not a JSON object')
            continue
        p, fl, s, note = count_entry(entry)
        totals[0] += p
        totals[1] += fl
        totals[2] += s
        if fl:
            problems.append(f'{entry.get("name", "?")}: {note}')
    return totals[0], totals[1], totals[2], problems


def main(argv):
    if len(argv) < 2:
        print('usage: test-summary.py TESTLOG.json [TESTLOG.json ...]', file=sys.stderr)
        return 2
    grand = [0, 0, 0]
    for path in argv[1:]:
        p, fl, s, problems = summarise(path)
        print(f'{path}: {p} passed, {fl} failed, {s} skipped')
        for problem in problems:
            print(f'  FAILED {problem}')
        grand[0] += p
        grand[1] += fl
        grand[2] += s
    if grand[0] + grand[1] == 0:
        print('no test ran: counting that as a failure')
    print(f'tests: {grand[0]} passed, {grand[1]} failed, {grand[2]} skipped')
    if grand[1] or grand[0] + grand[1] == 0:
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
