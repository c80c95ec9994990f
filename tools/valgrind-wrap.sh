#!/usr/bin/env bash
# Runs a test under valgrind for `meson test --setup valgrind`.
#
# Why a wrapper: Criterion re-executes itself
# once per test, and it ignores a worker's exit status once the test has
# reported. So valgrind must follow the children (--trace-children=yes), an
# invalid access must kill the worker at once (--exit-on-first-error=yes),
# and leaks, which are only found when a worker exits, are caught by
# reading every process's log afterwards. Any error in any log fails the test.
#
# Usage: valgrind-wrap.sh PROGRAM [ARGS...]
set -u

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind-wrap: valgrind not found" >&2
	exit 1
fi

logdir=$(mktemp -d "${TMPDIR:-/tmp}/qubo-vg.XXXXXX") || exit 1
trap 'rm -rf "$logdir"' EXIT

# --fair-sched=yes: valgrind runs one thread at a time, and its default lock
# lets a busy worker keep it, starving a thread that waits on a timed
# condition (the solvers' time limit and progress checks) for seconds.
valgrind \
	--fair-sched=yes \
	--trace-children=yes \
	--leak-check=full \
	--show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect \
	--exit-on-first-error=yes \
	--error-exitcode=99 \
	--num-callers=30 \
	--log-file="$logdir/vg.%p.log" \
	"$@"
rc=$?

bad=0
for log in "$logdir"/vg.*.log; do
	[ -e "$log" ] || continue
	if grep -Eq 'ERROR SUMMARY: [1-9]|Exit program on first error|definitely lost: [1-9]|indirectly lost: [1-9]' "$log"; then
		bad=1
		echo "valgrind-wrap: errors in ${log##*/}:" >&2
		head -n 200 "$log" >&2
	fi
done

if [ "$bad" -ne 0 ]; then
	echo "valgrind-wrap: FAIL (valgrind found errors; program exit status $rc)" >&2
	exit 1
fi
if [ "$rc" -eq 99 ]; then
	echo "valgrind-wrap: FAIL (valgrind error exit code 99)" >&2
	exit 1
fi
exit "$rc"
