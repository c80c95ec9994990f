#!/bin/sh
# The qasm suite's entry point: runs compare.js under Node.js (node, or
# Debian's older name nodejs). Without Node.js the suite is skipped (exit
# 77), or fails when QUBO_REQUIRE_NODE=1 (CI).
#   run.sh COMPARE_JS ARG...
# COMPARE_JS is compare.js (named in meson.build, so that a missing one stops
# `meson setup`); the other arguments go to it.
script=$1
shift
node=$(command -v node || command -v nodejs || true)
if [ -z "$node" ]; then
	if [ "${QUBO_REQUIRE_NODE:-0}" = 1 ]; then
		echo "qasm: Node.js (node or nodejs) is not installed, and QUBO_REQUIRE_NODE=1: failing" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "qasm: Node.js (node or nodejs) is not installed: skipped" >&2
	exit 77
fi
# --no-warnings: quantum-circuit's parser warns about a circular require
exec "$node" --no-warnings "$script" "$@"
