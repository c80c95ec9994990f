#!/usr/bin/env bash
# Regenerates the committed ABI files from a build directory, at release time
# only (doc/abi.md):
#   abi/exported.txt         sorted names libqubo.so exports
#   abi/libqubo.abi          abidw's XML corpus of libqubo.so (abidiff baseline)
# and, once the puzzle layer exists, abi/exported-puzzle.txt and
# abi/libqubo-puzzle.abi the same way.
#
# Usage: tools/abi-baseline.sh [BUILD_DIR]   (default: build; it must be a
# debug or debugoptimized build, since abidw needs the DWARF types)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

dump() { # dump LIBRARY EXPORTED_LIST ABI_FILE
	local lib=$1
	# grep -c reads all of readelf's output (grep -q could SIGPIPE it under pipefail)
	if ! readelf -S "$lib" | grep -c '\.debug_info' >/dev/null; then
		echo "abi-baseline: $lib has no debug info (use --buildtype=debugoptimized)" >&2
		exit 1
	fi
	nm -D --defined-only "$lib" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
		LC_ALL=C sort >"$2"
	# Source locations stay in: abidiff needs them to tell public types
	# (under include/qubo) from private ones.
	abidw --no-corpus-path --no-comp-dir-path --headers-dir include/qubo "$lib" >"$3"
	echo "abi-baseline: $2 ($(wc -l <"$2") names) and $3 ($(wc -l <"$3") lines)" \
	     "written from $lib"
}

lib="$build/lib/libqubo.so"
if [ ! -e "$lib" ]; then
	echo "abi-baseline: $lib not found; build first" >&2
	exit 1
fi
dump "$lib" abi/exported.txt abi/libqubo.abi
plib=$(find "$build" -name 'libqubo-puzzle.so' -print -quit)
if [ -n "$plib" ]; then
	dump "$plib" abi/exported-puzzle.txt abi/libqubo-puzzle.abi
fi
