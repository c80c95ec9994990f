#!/usr/bin/env bash
# Runs one of the README's two commands as a user would: the quick start,
# checked to print the solved board of the sample puzzle, or (--test) the
# test command, checked by its exit status.
#
#   tools/readme-commands.sh [--test] [SOURCE_ROOT]
#
# The command is the fenced block that follows the line
# `<!-- ci: quickstart -->` (or `<!-- ci: test -->`) in README.md. It runs with bash in a copy of the
# source tree (the files git tracks, plus untracked ones not ignored, when
# SOURCE_ROOT is the top of a git work tree; else all of it), so it
# starts without a build directory and leaves the caller's tree alone. On a
# machine that has the packages the command installs, it needs no root; on
# one without them it calls apt-get (through sudo unless root).
#
# The check: the output holds the puzzle's header line `queens 8` followed by
# 8 rows of 8 cells, '.' or 'Q', with one queen in every row and every column.
# Exit status 0 when it does, 1 when the command fails or the board is
# missing, 2 when the README has no marked block.
set -euo pipefail

mode=quickstart
if [ "${1:-}" = --test ]; then
	mode=test
	shift
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
readme=$root/README.md

# The first fenced block after the marker, without its fences.
block=$(awk '
	$0 == marker { marked = 1; next }
	marked && !inside && /^```/ { inside = 1; next }
	inside && /^```/ { exit }
	inside { print }
' marker="<!-- ci: $mode -->" "$readme")
if [ -z "$block" ]; then
	echo "readme-commands: no fenced block after <!-- ci: $mode --> in $readme" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/qubo-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT
# git's list of files where root is the top of a work tree; else every file
# (an unpacked tarball, even one inside another checkout's build directory)
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$top" = "$(cd "$root" && pwd -P)" ]; then
	(cd "$root" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -C "$work" -xf -
else
	(cd "$root" && tar --exclude='./build*' -cf - .) | tar -C "$work" -xf -
fi

echo "readme-commands: running in $work:"
printf '%s\n' "$block"
out=$work/$mode.out
if ! (cd "$work" && bash -e -o pipefail -c "$block") >"$out" 2>"$work/$mode.err"; then
	echo "readme-commands: the $mode command failed" >&2
	tail -n 40 "$out" "$work/$mode.err" >&2
	exit 1
fi
if [ "$mode" = test ]; then
	tail -n 12 "$out"
	echo "readme-commands: the test command passed"
	exit 0
fi
cat "$out"

# The board: the header line, then 8 rows with one queen each, and one
# queen in every column.
if ! awk '
	found == 0 && $0 == "queens 8" { found = 1; rows = 0; next }
	found == 1 && rows < 8 {
		if (length($0) != 8 || $0 !~ /^[.Q]+$/) { found = 0; next }
		n = gsub(/Q/, "Q")
		if (n != 1) { found = 0; next }
		col[index($0, "Q")]++
		rows++
		if (rows == 8) { ok = 1; for (c = 1; c <= 8; c++) if (col[c] != 1) ok = 0; if (ok) exit 0; found = 0; delete col }
	}
	END { exit ok ? 0 : 1 }
' "$out"; then
	echo "readme-commands: the output has no solved 8 x 8 queens board" >&2
	exit 1
fi
echo "readme-commands: the quick-start command printed the solved board"
