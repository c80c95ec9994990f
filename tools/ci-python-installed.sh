#!/usr/bin/env bash
# Tests the Python package qubo as a user gets it: `meson install` into a
# real prefix (default /usr/local), then the Python tests run from a
# directory outside the source tree, under `env -i PATH=/usr/bin:/bin`: no
# variable names the build or the install, and nothing is added to
# sys.path. The package must be found where the interpreter looks, and must
# load the installed libraries.
#
# usage: bash tools/ci-python-installed.sh [BUILD_DIR]
#   BUILD_DIR: default build-ci-python (made anew)
# Environment: QUBO_PY_PREFIX (default /usr/local), QUBO_PY_KEEP=1 to leave
# the install in place (it is removed at the end otherwise, also on failure).
#
# The build is configured under the same `env -i PATH=/usr/bin:/bin`, so
# that meson's python3 is the system's /usr/bin/python3 (not a pyenv or
# venv one earlier on a developer's PATH), the one the tests run with.
# It refuses to run when any file it would install already exists, so that
# it never replaces (and then deletes) an install it did not make.
# Exit status: 0 passed, 1 failed, 77 skipped (no /usr/bin/python3, or the
# prefix is not writable).
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
BUILD=${1:-build-ci-python}
PREFIX=${QUBO_PY_PREFIX:-/usr/local}
CLEAN_ENV=(env -i PATH=/usr/bin:/bin HOME="${HOME:-/root}" LC_ALL=C.UTF-8)
PY=/usr/bin/python3

note() {
	printf 'python-installed: %s\n' "$*"
}

if [ ! -x "$PY" ]; then
	note "no $PY: skipped"
	exit 77
fi
mkdir -p "$PREFIX" 2>/dev/null || true
if [ ! -w "$PREFIX" ]; then
	note "$PREFIX is not writable (run as root, or set QUBO_PY_PREFIX): skipped"
	exit 77
fi

rm -rf "$BUILD"
"${CLEAN_ENV[@]}" meson setup "$BUILD" --prefix="$PREFIX" --buildtype=debugoptimized \
	-Db_colorout=never -Dtests=disabled -Ddocs=disabled -Dpython=enabled \
	>"$BUILD.setup.log" 2>&1 || {
	cat "$BUILD.setup.log"
	exit 1
}
mv "$BUILD.setup.log" "$BUILD/meson-logs/setup-output.txt"
grep -A2 '^  Python' "$BUILD/meson-logs/setup-output.txt" || true
if grep -q 'WARNING: the Python package goes to' "$BUILD/meson-logs/setup-output.txt"; then
	grep 'WARNING: the Python package goes to' "$BUILD/meson-logs/setup-output.txt"
	exit 1
fi
"${CLEAN_ENV[@]}" meson compile -C "$BUILD" >"$BUILD/meson-logs/compile-output.txt" 2>&1 || {
	tail -40 "$BUILD/meson-logs/compile-output.txt"
	exit 1
}

# What the install puts where (absolute destinations), before installing.
"${CLEAN_ENV[@]}" meson introspect "$BUILD" --installed >"$BUILD/installed.json"
mapfile -t DESTS < <("$PY" -c '
import json, sys
for dest in sorted(set(json.load(open(sys.argv[1])).values())):
    print(dest)' "$BUILD/installed.json")
# meson also makes the links of each shared library (lib.so, lib.so.0),
# which --installed leaves out.
links_of() {
	case $1 in
	*.so.*) printf '%s\n' "${1%.so.*}.so" "${1%.so.*}.so.${1##*.so.}" |
		sed 's/\(\.so\.[0-9]*\)\..*/\1/' ;;
	esac
}
PKG_INIT=
NEW_DIRS=()
for dest in "${DESTS[@]}"; do
	for f in "$dest" $(links_of "$dest"); do
		if [ -e "$f" ] || [ -L "$f" ]; then
			note "$f exists already: not replacing an install this script did not make"
			exit 1
		fi
	done
	case $dest in */qubo/__init__.py) PKG_INIT=$dest ;; esac
	# the directories the install will make, to remove them afterwards
	d=$(dirname "$dest")
	while [ ! -d "$d" ]; do
		NEW_DIRS+=("$d")
		d=$(dirname "$d")
	done
done
if [ -z "$PKG_INIT" ]; then
	note "the install has no qubo/__init__.py"
	exit 1
fi
PKG_DIR=$(dirname "$PKG_INIT")

TMP=$(mktemp -d)
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	rm -rf "$TMP"
	if [ "${QUBO_PY_KEEP:-0}" = 1 ]; then
		note "kept the install under $PREFIX (QUBO_PY_KEEP=1)"
		return
	fi
	local dest link d
	for dest in "${DESTS[@]}"; do
		rm -f "$dest"
		for link in $(links_of "$dest"); do
			if [ -L "$link" ]; then
				rm -f "$link"
			fi
		done
	done
	rm -rf "$PKG_DIR/__pycache__"
	# deepest first; only the directories the install made, once empty
	if [ "${#NEW_DIRS[@]}" -gt 0 ]; then
		for d in $(printf '%s\n' "${NEW_DIRS[@]}" | sort -ru); do
			rmdir "$d" 2>/dev/null || true
		done
	fi
	note "removed the install"
}
trap cleanup EXIT

"${CLEAN_ENV[@]}" meson install -C "$BUILD" --no-rebuild >"$BUILD/meson-logs/install-output.txt" 2>&1 || {
	cat "$BUILD/meson-logs/install-output.txt"
	exit 1
}
note "installed into $PREFIX; the package is $PKG_DIR"

# The tests, copied out of the source tree: no qubo/ beside them, so
# `import qubo` can only find the installed package.
cp examples/python/test_package.py examples/python/test_ctypes.py \
	examples/python/test_qaoa.py examples/python/qaoa_backend.py \
	examples/python/qubo_ctypes.py "$TMP"/
cd "$TMP"
run() {
	note "run: $*" >&2
	"${CLEAN_ENV[@]}" "$@"
}

rc=0
# Which package and which libraries: python3 -m qubo names them.
out=$(run "$PY" -B -c 'import qubo; print(qubo.__file__)') || rc=1
if [ "$out" != "$PKG_INIT" ]; then
	note "FAIL: import qubo gave ${out:-nothing}, expected $PKG_INIT"
	rc=1
fi
run "$PY" -B -m qubo || rc=1
run "$PY" -B -m unittest -v test_package || rc=1
# The binding's own tests, on the installed package and libraries (no
# library arguments: load() finds the installed ones).
run "$PY" -B test_ctypes.py >test_ctypes.log 2>&1 || { cat test_ctypes.log; rc=1; }
tail -1 test_ctypes.log
run "$PY" -B test_qaoa.py >test_qaoa.log 2>&1 || { cat test_qaoa.log; rc=1; }
tail -1 test_qaoa.log
cd "$SRC"
if [ "$rc" -eq 0 ]; then
	note "passed"
else
	note "FAILED"
fi
exit "$rc"
