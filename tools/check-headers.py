#!/usr/bin/env python3
"""The public headers: what is installed, and the header tests of the meta
suite.

Public headers are named as consumers include them (qubo.h, qubo/model.h,
qubo/puzzle/queens.h, ...); a generated header counts under its generated
name (qubo/version.h.in gives qubo/version.h).

  check-headers.py installed INCLUDE_DIR STAGED_INCLUDE_DIR
      Every public header is installed under STAGED_INCLUDE_DIR (the include
      folder of a `meson install --destdir` stage), and nothing else is
      installed there. Used by tests/meta/install-consumer.sh.
  check-headers.py compile LANG INCLUDE_DIR COMPILER [ARG...]
      Every public header, listed when the test runs (a new header is
      covered at once), is self-contained and warning-free in LANG (c or
      c++): a translation unit that includes it alone, twice, and then
      - uses every macro it defines (object-like ones as values, *_INIT
        ones as the initialiser of their struct, function-like ones called,
        lower-case ones that stand for a type as that type: `enum NAME` for
        an enum, `NAME` and `struct NAME` for a struct),
        so that a macro that warns (an old-style cast in C++, a missing
        field) fails where users would see it;
      - uses every constant and type its documentation names (#NAME), unless
        that name lives in a header that includes this one (a pointer up to
        a higher layer), and, when it names a status code, the status API
        (qubo_error_message(), and the functions of qubo/status.h it names):
        what a header tells its reader to pass, compare or call with its
        functions is declared by including it alone (other functions named
        in the prose are pointers to read on, and are not checked);
      is compiled with COMPILER ARG... TU (the ARGs give -std, the warning
      flags, -Werror, -fsyntax-only and the include directories).
  check-headers.py umbrella INCLUDE_DIR
      qubo.h includes every module header of libqubo (qubo/*.h but
      qubo/puzzle.h, which belongs to libqubo-puzzle).

Exit status 0 when every check passes, 1 otherwise, 2 on a usage error.
tests/meta/meson.build runs compile (tests header-c99, header-c11,
header-cxx11, header-cxx17) and umbrella (header-umbrella).
"""

import os
import re
import subprocess
import sys
import tempfile

# Macros that are not values: how a translation unit uses each, at file
# scope or inside a function. A new macro of this kind needs a line here
# (the test then fails on the value-use it would otherwise get).
SYNTAX_MACROS = {
    'QUBO_API': ('QUBO_API int qubo_header_test_api(void);', ''),
    'QUBO_BEGIN_DECLS': ('QUBO_BEGIN_DECLS\nint qubo_header_test_decls(void);\nQUBO_END_DECLS', ''),
    'QUBO_END_DECLS': ('', ''),
    'QUBO_DEPRECATED': ('QUBO_DEPRECATED("a test") int qubo_header_test_old(void);', ''),
    'QUBO_CAST': ('', '(void)QUBO_CAST(unsigned, 1);'),
    'QUBO_STATUS_LIST': ('#define QUBO_HEADER_TEST_X(name, value, text) + (value)',
                         '(void)(0 QUBO_STATUS_LIST(QUBO_HEADER_TEST_X));'),
    'QUBO_STATUS_ENUM_ITEM': ('enum { QUBO_STATUS_ENUM_ITEM(QUBO_HEADER_TEST_ITEM, 1, "") '
                              'QUBO_HEADER_TEST_LAST };', ''),
    'QUBO_LIMIT_LIST': ('#define QUBO_HEADER_TEST_L(name, value, id, text) + (value)',
                        '(void)(0 QUBO_LIMIT_LIST(QUBO_HEADER_TEST_L));'),
    'QUBO_LIMIT_ENUM_ITEM': ('enum { QUBO_LIMIT_ENUM_ITEM(QUBO_HEADER_TEST_LIMIT, 1, "", "") '
                             'QUBO_HEADER_TEST_LIMIT_LAST };', ''),
}


def public_headers(inc):
    """{name as included: path of the file that makes it}."""
    found = {}
    for root, _, files in os.walk(inc):
        for name in files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, inc).replace(os.sep, '/')
            if name.endswith('.h'):
                found[rel] = path
            elif name.endswith('.h.in'):
                found[rel[:-3]] = path
    return found


def staged_headers(inc):
    found = set()
    for root, _, files in os.walk(inc):
        for name in files:
            found.add(os.path.relpath(os.path.join(root, name), inc).replace(os.sep, '/'))
    return found


COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def split_comments(text):
    """(code without comments, the comments' text)."""
    comments = COMMENT.findall(text)
    return COMMENT.sub(' ', text), '\n'.join(comments)


class Header:
    def __init__(self, name, path):
        self.name = name
        text = open(path, encoding='utf-8').read()
        self.code, self.docs = split_comments(text)
        self.includes = []
        base = os.path.dirname(name)
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', self.code, re.M):
            beside = os.path.normpath(os.path.join(base, inc)).replace(os.sep, '/')
            self.includes.append((beside, inc))
        guard = re.search(r'^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+\1\b', self.code, re.M)
        self.guard = guard.group(1) if guard else None
        # name -> parameter count (None: object-like), first definition only
        self.macros = {}
        # lower-case object-like macros naming a type (a former name kept
        # as an alias): name -> the name it stands for
        self.type_aliases = {}
        for m in re.finditer(r'^\s*#\s*define\s+(\w+)(\(([^)]*)\))?[ \t]*(\w*)', self.code, re.M):
            if m.group(1) == self.guard or m.group(1) in self.macros:
                continue
            params = m.group(3)
            self.macros[m.group(1)] = None if m.group(2) is None else \
                len([p for p in params.split(',') if p.strip()])
            if m.group(2) is None and m.group(1).islower() and m.group(4).startswith('qubo_'):
                self.type_aliases[m.group(1)] = m.group(4)

    def declares(self, name):
        """'macro', 'function', 'type', 'enum-tag', 'value' or None."""
        n = re.escape(name)
        if name in self.macros:
            return 'macro'
        if re.search(r'QUBO_API[^;{}]*?\b' + n + r'\s*\(', self.code):
            return 'function'
        if re.search(r'\benum\s+' + n + r'\s*\{', self.code):
            return 'enum-tag'
        if re.search(r'typedef[^;]*\b' + n + r'\s*;|\(\s*\*\s*' + n + r'\s*\)|\}\s*' + n +
                     r'\s*;', self.code):
            return 'type'
        if re.search(r'^\s*' + n + r'\s*(=|,|$)|\bX\(\s*' + n + r'\s*,', self.code, re.M):
            return 'value'
        return None

    def doc_refs(self):
        refs = set(re.findall(r'#((?:QUBO|qubo)_\w+)', self.docs))
        refs |= set(re.findall(r'\b(qubo_\w+)\(\)', self.docs))
        return sorted(refs)


def load(inc):
    headers = {}
    for name, path in public_headers(inc).items():
        headers[name] = Header(name, path)
    for h in headers.values():
        # "beside" the including file, else from the include root
        h.includes = [b if b in headers else i for b, i in h.includes]
    return headers


def closure(headers, name, seen=None):
    seen = set() if seen is None else seen
    if name in seen or name not in headers:
        return seen
    seen.add(name)
    for inc in headers[name].includes:
        closure(headers, inc, seen)
    return seen


def home_of(headers, ref):
    for name in sorted(headers):
        kind = headers[name].declares(ref)
        if kind:
            return name, kind
    return None, None


def translation_unit(headers, name):
    h = headers[name]
    top, body = [], []
    for macro, params in h.macros.items():
        if macro in SYNTAX_MACROS:
            scope, inside = SYNTAX_MACROS[macro]
            top += [scope] if scope else []
            body += [inside] if inside else []
        elif params is not None:
            body.append(f'(void)({macro}({", ".join(["1u"] * params)}));')
        elif macro in h.type_aliases:
            _, kind = home_of(headers, h.type_aliases[macro])
            body.append(f'(void)sizeof(enum {macro});' if kind == 'enum-tag' else
                        f'(void)sizeof({macro});\n(void)sizeof(struct {macro});')
        elif macro.endswith('_INIT'):
            var = 'qubo_header_test_' + macro.lower()
            body.append(f'{macro[:-5].lower()} {var} = {macro};')
            body.append(f'(void){var};')
        else:
            body.append(f'(void)({macro});')
    refs = [(ref,) + home_of(headers, ref) for ref in h.doc_refs()]
    if any(home == 'qubo/status.h' for _, home, _ in refs):
        refs.append(('qubo_error_message', 'qubo/status.h', 'function'))
    for ref, home, kind in refs:
        if home == name or (home and name in closure(headers, home)):
            continue  # its own (used above), or a pointer up to a header that includes it
        note = f'/* {name} documents {ref} */'
        if kind == 'macro':
            top.append(f'#ifndef {ref}\n#error "{ref}, documented in {name}, is not defined '
                       f'by including it alone"\n#endif')
        elif kind == 'function' and home == 'qubo/status.h':
            body += [note, f'(void)&{ref};']
        elif kind == 'enum-tag':
            body += [note, f'(void)sizeof(enum {ref});']
        elif kind == 'type':
            body += [note, f'(void)sizeof({ref} *);']
        elif kind != 'function':
            body += [note, f'(void)({ref});']
    lines = [f'/* {name} on its own: generated by tools/check-headers.py compile */',
             f'#include <{name}>', f'#include <{name}>', '']
    lines += top
    lines += ['', 'void qubo_header_test(void);', 'void qubo_header_test(void)', '{']
    lines += ['\t' + line for line in body]
    lines += ['}', '']
    return '\n'.join(lines)


def compile_all(lang, inc, command):
    headers = load(inc)
    if not headers:
        print(f'check-headers: no public header under {inc}')
        return 1
    failed = []
    with tempfile.TemporaryDirectory(prefix='qubo-headers.') as tmp:
        for name in sorted(headers):
            tu = os.path.join(tmp, name.replace('/', '-').replace('.h', '') +
                              ('.c' if lang == 'c' else '.cc'))
            text = translation_unit(headers, name)
            with open(tu, 'w', encoding='utf-8') as f:
                f.write(text)
            run = subprocess.run(command + [tu], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, universal_newlines=True)
            if run.returncode == 0:
                print(f'check-headers: {name}: ok')
                continue
            failed.append(name)
            print(f'check-headers: {name}: FAILED')
            print(run.stdout.rstrip())
            print(f'--- the translation unit ({os.path.basename(tu)}):')
            for i, line in enumerate(text.split('\n'), 1):
                print(f'{i:4d}  {line}')
    if failed:
        print(f'check-headers: FAILED ({len(failed)} of {len(headers)} headers): '
              + ', '.join(failed))
        return 1
    print(f'check-headers: all {len(headers)} public headers are self-contained as {lang}')
    return 0


def report(problems, passed):
    for p in problems:
        print(f'check-headers: {p}')
    if problems:
        print(f'check-headers: FAILED ({len(problems)} problem(s))')
        return 1
    print(f'check-headers: {passed}')
    return 0


def check_umbrella(inc):
    headers = load(inc)
    modules = {n for n in headers if re.fullmatch(r'qubo/[^/]+\.h', n) and n != 'qubo/puzzle.h'}
    umbrella = set(headers['qubo.h'].includes)
    problems = [f'qubo.h does not include {n}' for n in sorted(modules - umbrella)]
    problems += [f'qubo.h includes {n}, which is not a module of libqubo'
                 for n in sorted(umbrella - modules)]
    return report(problems, f'qubo.h includes all {len(modules)} module headers')


def main(argv):
    if len(argv) == 4 and argv[1] == 'installed':
        src, staged = set(public_headers(argv[2])), staged_headers(argv[3])
        problems = [f'{h}: public header not installed' for h in sorted(src - staged)]
        problems += [f'{h}: installed but not a public header of {argv[2]}'
                     for h in sorted(staged - src)]
        return report(problems, f'all {len(src)} public headers are installed')
    if len(argv) >= 5 and argv[1] == 'compile' and argv[2] in ('c', 'c++'):
        return compile_all(argv[2], argv[3], argv[4:])
    if len(argv) == 3 and argv[1] == 'umbrella':
        return check_umbrella(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
