#!/usr/bin/env python3
"""Checks that the exported symbols, the symbol map and the headers agree.

  check-symbols.py exported LIBRARY.so abi/exported.txt [NM]
      The names `nm -D --defined-only` lists for LIBRARY.so (version nodes
      dropped, '@@LIBQUBO_x.y' stripped) equal the committed list, which is
      sorted and has no duplicates; every exported symbol has a version node.
  check-symbols.py prefix LIBRARY.so PREFIX [NM]
      Every exported name starts with PREFIX (qubo_ or qubo_puzzle_), and
      none with the internal prefix 'qubo__'.
  check-symbols.py map lib/libqubo.map include/ abi/exported.txt
                   [--only GLOB]... [--exclude GLOB]...
      The map's global names equal the functions declared with QUBO_API in
      the headers under include/ (those whose path relative to include/
      matches an --only glob, when given, and no --exclude glob) and the
      committed list. The map has one node per minor release (NAME_MAJOR.MINOR
      with one NAME, such as LIBQUBO_0.1, each inheriting from the one
      before), names sorted within a node, no globs, no name in two nodes,
      and 'local: *;' in the first node only.

Exit status 0 when everything agrees, 1 with a list of differences otherwise.
See doc/abi.md.
"""

import fnmatch
import os
import re
import subprocess
import sys

PREFIX = 'qubo_'
NODE_RE = re.compile(r'^([A-Z][A-Z0-9_]*)_(\d+)\.(\d+)$')


def nm_exports(lib, nm='nm'):
    """Returns [(name, version)] for the defined dynamic symbols of lib."""
    out = subprocess.run([nm, '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3 or parts[1] == 'A':
            continue  # 'A LIBQUBO_0.1' is the version node itself
        name, _, version = parts[2].partition('@')
        syms.append((name, version.lstrip('@')))
    return syms


def read_list(path):
    with open(path, encoding='utf-8') as f:
        return [line.strip() for line in f
                if line.strip() and not line.lstrip().startswith('#')]


def diff(label_a, a, label_b, b):
    problems = []
    for name in sorted(set(a) - set(b)):
        problems.append(f'{name}: in {label_a} but not in {label_b}')
    for name in sorted(set(b) - set(a)):
        problems.append(f'{name}: in {label_b} but not in {label_a}')
    return problems


def check_list_sorted(path, names):
    problems = []
    if names != sorted(names):
        problems.append(f'{path} is not sorted')
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        problems.append(f'{path} lists twice: {", ".join(dups)}')
    return problems


def cmd_exported(lib, listfile, nm='nm'):
    syms = nm_exports(lib, nm)
    expected = read_list(listfile)
    problems = check_list_sorted(listfile, expected)
    problems += diff(f'nm -D {os.path.basename(lib)}', [s[0] for s in syms],
                     listfile, expected)
    for name, version in syms:
        if not NODE_RE.match(version):
            problems.append(f'{name}: exported without a NAME_x.y version node '
                            f'(version "{version}")')
    return problems, f'{len(syms)} exported symbols match {listfile}'


def cmd_prefix(lib, prefix=PREFIX, nm='nm'):
    syms = nm_exports(lib, nm)
    problems = []
    for name, _ in syms:
        if not name.startswith(prefix):
            problems.append(f'{name}: exported name does not start with {prefix}')
        elif name.startswith('qubo__'):
            problems.append(f'{name}: internal qubo__ name is exported')
    if not syms:
        problems.append(f'{lib} exports nothing')
    return problems, f'all {len(syms)} exported names start with {prefix}'


def strip_c_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def header_selected(rel, only, exclude):
    if only and not any(fnmatch.fnmatchcase(rel, g) for g in only):
        return False
    return not any(fnmatch.fnmatchcase(rel, g) for g in exclude)


def header_api_names(include_dir, only=(), exclude=()):
    """Names declared with QUBO_API in the selected .h files under include_dir."""
    names = {}
    decl_re = re.compile(r'\bQUBO_API\b([^;{]*?)\b([A-Za-z_]\w*)\s*(\(|;|\[)', re.S)
    for root, _, files in os.walk(include_dir):
        for fname in sorted(files):
            if not fname.endswith(('.h', '.h.in')):
                continue
            path = os.path.join(root, fname)
            rel = os.path.relpath(path, include_dir).replace(os.sep, '/')
            if not header_selected(rel, only, exclude):
                continue
            with open(path, encoding='utf-8') as f:
                text = strip_c_comments(f.read())
            # Drop the macro's own definitions ("#define QUBO_API ...").
            text = re.sub(r'^\s*#\s*define\s+QUBO_API\b[^\n]*', ' ', text, flags=re.M)
            for m in decl_re.finditer(text):
                names.setdefault(m.group(2), os.path.relpath(path, include_dir))
    return names


def parse_map(path):
    """Returns (nodes, problems); nodes = [(node, parent, [names], has_local)]."""
    with open(path, encoding='utf-8') as f:
        text = strip_c_comments(f.read())
    problems = []
    nodes = []
    node_re = re.compile(r'([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*([A-Za-z_][\w.]*)?\s*;', re.S)
    pos = 0
    for m in node_re.finditer(text):
        if text[pos:m.start()].strip():
            problems.append(f'{path}: cannot parse "{text[pos:m.start()].strip()[:40]}"')
        pos = m.end()
        node, body, parent = m.group(1), m.group(2), m.group(3)
        names = []
        has_local = False
        section = None
        for tok in re.findall(r'[^\s;]+:|[^\s;]+(?=\s*;)', body):
            if tok.endswith(':'):
                section = tok[:-1]
                continue
            if section == 'local':
                has_local = True
                if tok != '*':
                    problems.append(f'{path}: node {node}: local entry {tok} (expected *)')
                continue
            if section != 'global':
                problems.append(f'{path}: node {node}: {tok} outside a global: section')
            if any(c in tok for c in '*?['):
                problems.append(f'{path}: node {node}: glob {tok} (name symbols explicitly)')
            names.append(tok)
        nodes.append((node, parent, names, has_local))
    if text[pos:].strip():
        problems.append(f'{path}: cannot parse "{text[pos:].strip()[:40]}"')
    return nodes, problems


def cmd_map(mapfile, include_dir, listfile, only=(), exclude=(), prefix=PREFIX):
    nodes, problems = parse_map(mapfile)
    if not nodes:
        return problems + [f'{mapfile}: no version node'], ''
    seen = {}
    prev = None
    first = NODE_RE.match(nodes[0][0])
    for i, (node, parent, names, has_local) in enumerate(nodes):
        m = NODE_RE.match(node)
        if not m:
            problems.append(f'{mapfile}: node {node} is not named NAME_MAJOR.MINOR')
        elif first and m.group(1) != first.group(1):
            problems.append(f'{mapfile}: node {node} does not start with {first.group(1)}_')
        if i == 0 and parent:
            problems.append(f'{mapfile}: first node {node} inherits from {parent}')
        if i > 0 and parent != prev:
            problems.append(f'{mapfile}: node {node} should inherit from {prev}, '
                            f'not {parent}')
        if has_local and i > 0:
            problems.append(f'{mapfile}: node {node} has a local: section '
                            '(only the first node has local: *;)')
        if i == 0 and not has_local:
            problems.append(f'{mapfile}: first node {node} lacks "local: *;"')
        if names != sorted(names):
            problems.append(f'{mapfile}: names in node {node} are not sorted')
        for name in names:
            if name in seen:
                problems.append(f'{name}: in map nodes {seen[name]} and {node}')
            seen[name] = node
        prev = node
    mapped = list(seen)
    declared = header_api_names(include_dir, only, exclude)
    expected = read_list(listfile)
    problems += diff(mapfile, mapped, f'QUBO_API declarations in {include_dir}',
                     list(declared))
    problems += diff(mapfile, mapped, listfile, expected)
    for name in mapped:
        if not name.startswith(prefix):
            problems.append(f'{name}: map name does not start with {prefix}')
    return problems, (f'{len(mapped)} names in {len(nodes)} map node(s) match the '
                      f'QUBO_API declarations and {listfile}')


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == 'exported' and len(args) in (2, 3):
        problems, ok = cmd_exported(*args)
    elif cmd == 'prefix' and len(args) in (2, 3):
        problems, ok = cmd_prefix(*args)
    elif cmd == 'map' and len(args) >= 3:
        only, exclude = [], []
        rest = args[3:]
        while len(rest) >= 2 and rest[0] in ('--only', '--exclude'):
            (only if rest[0] == '--only' else exclude).append(rest[1])
            rest = rest[2:]
        if rest:
            print(__doc__, file=sys.stderr)
            return 2
        problems, ok = cmd_map(args[0], args[1], args[2], only, exclude)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(f'check-symbols {cmd}: {p}')
    if problems:
        print(f'check-symbols {cmd}: FAILED ({len(problems)} problem(s))')
        return 1
    print(f'check-symbols {cmd}: {ok}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
