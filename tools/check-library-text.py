#!/usr/bin/env python3
"""The library's text is for people; programs read the parts.

usage: check-library-text.py SOURCE_ROOT

Two checks, each failing with the places it found:

programs  The `qubo` program (examples/cli) and the Python package
          (examples/python/qubo) take nothing apart that the libraries
          write: no strstr/strcmp/strncmp (C) and no `in`, startswith,
          endswith, find or regular expression (Python) on an error
          message, a status string or a result's method text. They use
          the accessors (qubo_error_detail(), qubo_error_function(),
          qubo_error_line(), qubo_error_limit(), ...) and the enums
          (qubo_puzzle_result.method_id) instead. A C comparison is
          library text when an argument calls a qubo_ function, names a
          variable or field that holds such text (msg, message, detail,
          method, why), or is a literal of the library's words (one with a
          space or a colon, or starting "qubo_"). The program's own
          command-line words ("--help", "auto", "-") compare freely. In
          Python every text method (startswith, find, split, ...) and
          regular expression is flagged but for the ALLOWED lines below, and
          so is a string literal looked for `in` anything or compared with
          the library's text.

limits    Every QUBO_ERR_TOO_LARGE of lib/ names its limit: it is raised
          through qubo__too_large(), qubo__too_large_at() or a helper that
          takes the limit, never through the plain error helpers.
"""
import ast
import os
import re
import sys

C_COMPARE = re.compile(r"\b(strstr|strcasestr|strcmp|strncmp|strcasecmp|strncasecmp|memcmp)\s*\(")
C_LIBRARY_TEXT = [
    re.compile(r"\bqubo_\w+\s*\("),                         # a library call
    re.compile(r"(?<![\w.>])(msg|message|detail|method|why)\b"),  # a variable of its text
    re.compile(r"(\.|->)(method|message)\b"),               # a result's text
    re.compile(r'"[^"]*[ :][^"]*"|"qubo_'),                 # the library's words
]

# Python: method calls that test text, and the names that hold the library's.
PY_TEXT_METHODS = {"startswith", "endswith", "find", "rfind", "index", "rindex", "count",
                   "split", "partition", "rpartition"}
PY_TEXT_NAMES = {"msg", "message", "detail", "method", "why"}

# Python lines that test text of their own, not the library's, with why.
ALLOWED = {
    # a Python attribute name looked up on the lazy library handle
    'if name.startswith("__"):',
    # file names: the configured SONAMEs and the paths searched for them
    'if name.startswith("lib%s.so." % stem):',
    'if os.path.basename(place).startswith("lib%s.so" % stem):',
    # the folders of the QUBO_LIBDIR environment variable
    'places = tuple(os.environ["QUBO_LIBDIR"].split(os.pathsep))',
}

TOO_LARGE = re.compile(
    r"\b(qubo__error|qubo__error_at|qubo__pz_error|qubo__pz_error_at|rd_fail)\s*\(\s*"
    r"QUBO_ERR_TOO_LARGE\b")


def call_args(text, start):
    """The text between the parenthesis at text[start - 1] and its match."""
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def strip_c_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group()), text,
                  flags=re.S)


def files(root, sub, exts):
    top = os.path.join(root, sub)
    for d, _, names in sorted(os.walk(top)):
        for n in sorted(names):
            if n.endswith(exts):
                yield os.path.join(d, n)


def py_library_text(node):
    """Whether an expression reads the library's text: a call into a
    library handle (_core., _puzzle.), a .decode(), or a name or attribute
    that holds a message, a detail or a method."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in PY_TEXT_NAMES:
            return True
        if isinstance(n, ast.Attribute) and (n.attr in PY_TEXT_NAMES or n.attr == "decode" or
                                             (isinstance(n.value, ast.Name) and
                                              n.value.id in ("_core", "_puzzle"))):
            return True
    return False


def py_text_test(node):
    """Whether a node tests text: a text method or a regular expression on
    any string, or a comparison (==, !=, in, not in) of a string literal
    with the library's text, or a literal looked for `in` anything."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        f = node.func
        if isinstance(f.value, ast.Name) and f.value.id == "re":
            return True
        return f.attr in PY_TEXT_METHODS and not (isinstance(f.value, ast.Name) and
                                                  f.value.id in ("os", "ctypes"))
    if isinstance(node, ast.Compare):
        sides = [node.left] + node.comparators
        literal = [isinstance(x, ast.Constant) and isinstance(x.value, str) for x in sides]
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and literal[0]:
            return True
        return any(literal) and any(py_library_text(x) for x, lit in zip(sides, literal)
                                    if not lit)
    return False


def check_programs(root):
    found = []
    for path in files(root, "examples/cli", (".c", ".h")):
        text = strip_c_comments(open(path, encoding="utf-8").read())
        for m in C_COMPARE.finditer(text):
            args = call_args(text, m.end())
            if any(p.search(args) for p in C_LIBRARY_TEXT):
                line = text.count("\n", 0, m.start()) + 1
                found.append("%s:%d: %s(%s)" % (os.path.relpath(path, root), line, m.group(1),
                                                " ".join(args.split())))
    for path in files(root, "examples/python/qubo", (".py",)):
        source = open(path, encoding="utf-8").read()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source, path)):
            if py_text_test(node) and lines[node.lineno - 1].strip() not in ALLOWED:
                found.append("%s:%d: %s" % (os.path.relpath(path, root), node.lineno,
                                            lines[node.lineno - 1].strip()))
    return found


def check_limits(root):
    found = []
    for path in files(root, "lib", (".c", ".h")):
        text = strip_c_comments(open(path, encoding="utf-8").read())
        for m in TOO_LARGE.finditer(text):
            found.append("%s:%d: %s(QUBO_ERR_TOO_LARGE, ...) names no limit"
                         % (os.path.relpath(path, root), text.count("\n", 0, m.start()) + 1,
                            m.group(1)))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    root = sys.argv[1]
    bad = 0
    for name, check, what in (
            ("programs", check_programs, "tests on library text (use the parts and enums)"),
            ("limits", check_limits, "QUBO_ERR_TOO_LARGE without its limit")):
        found = check(root)
        for f in found:
            print(f)
        print("check-library-text %s: %s" % (name, "%d %s" % (len(found), what) if found
                                             else "none found"))
        bad |= bool(found)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
