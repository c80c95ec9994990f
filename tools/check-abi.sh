#!/usr/bin/env bash
# The ABI check of doc/abi.md, run by `meson test` (suite abi):
#   1. `nm -D --defined-only LIB` equals the committed list (LIST), through
#      tools/check-symbols.py exported;
#   2. `abidiff --no-added-syms BASELINE LIB` finds nothing: additions pass,
#      a removed function or a changed public struct fails.
#
# Usage: tools/check-abi.sh SOURCE_ROOT LIB BASELINE LIST [LIB BASELINE LIST]...
#   (BASELINE and LIST relative to SOURCE_ROOT; LIB as built)
# Environment: NM, PYTHON, ABIDIFF (default: nm, python3, abidiff);
# QUBO_REQUIRE_ABIDIFF=1 (as .ci/run sets) makes a missing abidiff a failure.
#
# Exit status: 0 when everything matches; 1 on a difference; 77 (skipped)
# when the names match but abidiff is not installed, or a library has no
# debug info (buildtype release or plain without -g), against which abidiff
# compares only the symbols and would miss every change of a struct.
set -uo pipefail
if [ $# -lt 4 ] || [ $((($# - 1) % 3)) -ne 0 ]; then
	echo "usage: $0 SOURCE_ROOT LIB BASELINE LIST [LIB BASELINE LIST]..." >&2
	exit 2
fi
src=$1
shift
nm=${NM:-nm}
python=${PYTHON:-python3}
abidiff=${ABIDIFF:-abidiff}
rc=0
skip=()

# Pass 1: the exported names (needs binutils only).
args=("$@")
for ((i = 0; i < ${#args[@]}; i += 3)); do
	lib=${args[i]} list=$src/${args[i + 2]}
	if "$python" "$src/tools/check-symbols.py" exported "$lib" "$list" "$nm"; then
		echo "abi: $(basename "$lib"): exported names == ${args[i + 2]}"
	else
		echo "abi: $(basename "$lib"): exported names differ from ${args[i + 2]}"
		rc=1
	fi
done

# Pass 2: abidiff against the committed baselines.
if ! command -v "$abidiff" >/dev/null 2>&1; then
	echo "SKIP: abidiff is not installed (Debian: abigail-tools); the libraries" \
	     "were not compared with the ABI baselines"
	if [ "${QUBO_REQUIRE_ABIDIFF:-0}" = 1 ]; then
		echo "abi: QUBO_REQUIRE_ABIDIFF=1: failing instead of skipping"
		exit 1
	fi
	[ "$rc" -eq 0 ] && exit 77
	exit "$rc"
fi
for ((i = 0; i < ${#args[@]}; i += 3)); do
	lib=${args[i]} base=$src/${args[i + 1]}
	name=$(basename "$lib")
	if [ ! -f "$base" ]; then
		echo "abi: $name: baseline ${args[i + 1]} is missing"
		rc=1
		continue
	fi
	# grep reads the whole list: with grep -q, readelf could die of SIGPIPE
	# and pipefail would report the section missing
	if ! readelf -S "$lib" 2>/dev/null | grep -c '\.debug_info' >/dev/null; then
		skip+=("$name")
		continue
	fi
	"$abidiff" --no-added-syms --headers-dir1 "$src/include/qubo" \
		--headers-dir2 "$src/include/qubo" --suppressions "$src/abi/appended.suppr" \
		"$base" "$lib"
	r=$?
	if [ "$r" -eq 0 ]; then
		echo "abi: $name: no change against ${args[i + 1]} (additions allowed)"
	else
		# Bits of abidiff's status: 1 error, 2 usage, 4 change, 8 incompatible.
		echo "abi: $name: abidiff exit status $r against ${args[i + 1]}:" \
		     "a removed symbol or a changed public type (doc/abi.md)"
		rc=1
	fi
done
if [ "$rc" -eq 0 ] && [ "${#skip[@]}" -gt 0 ]; then
	echo "SKIP: ${skip[*]}: no debug info (build with buildtype debug or" \
	     "debugoptimized); abidiff would compare the symbols only"
	exit 77
fi
exit "$rc"
