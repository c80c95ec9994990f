#!/usr/bin/env bash
# Checks examples/mpi/qubo_mpi (doc/mpi.md) under mpirun on this machine:
#
#   tools/check-mpi.sh QUBO_MPI QUBO_CLI PUZZLE_DIR WORK_DIR
#
# - sample: for "sa", "tabu", "descent" and "pt" on two models (random real
#   weights, and a puzzle's model from `qubo export`, whose many equal
#   energies test the order of ties), the samples printed with 1, 2 and 3
#   ranks are byte for byte those of `qubo solve` with the same solver,
#   seed, reads and sweeps (run with 2 threads, the ranks with 1);
# - puzzles: a batch of puzzles printed in file order, the same with 1, 2
#   and 3 ranks, and the board of PUZZLE_DIR/queens8.txt is its solution
#   file.
#
# Exit 77 (skipped) when mpirun is not installed. Ranks run on localhost
# (--oversubscribe: more ranks than cores; --allow-run-as-root when root, as
# in containers).
set -euo pipefail

if [ $# -ne 4 ]; then
	echo "usage: $0 QUBO_MPI QUBO_CLI PUZZLE_DIR WORK_DIR" >&2
	exit 2
fi
MPI_PROG=$1
CLI=$2
PUZZLES=$3
WORK=$4

if ! command -v mpirun >/dev/null 2>&1; then
	echo "check-mpi: no mpirun (Debian: openmpi-bin): skipped"
	exit 77
fi
MPIRUN=(mpirun --oversubscribe)
if [ "$(id -u)" = 0 ]; then
	MPIRUN+=(--allow-run-as-root)
fi
# Open MPI looks for network interfaces and high-speed fabrics it will not
# find in a container; keep it to the loopback and shared memory.
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1

rm -rf "$WORK"
mkdir -p "$WORK"
fail=0

# A model with real weights: 40 variables, about half the pairs coupled.
awk 'BEGIN {
	srand(12345); n = 40; k = 0
	for (i = 0; i < n; i++) {
		lin[i] = sprintf("%d %d %.6f", i, i, 8 * rand() - 4)
		for (j = i + 1; j < n; j++)
			if (rand() < 0.5)
				q[k++] = sprintf("%d %d %.6f", i, j, 8 * rand() - 4)
	}
	printf "p qubo 0 %d %d %d\n", n, n, k
	for (i = 0; i < n; i++) print lin[i]
	for (i = 0; i < k; i++) print q[i]
}' >"$WORK/random.qubo"
"$CLI" export --reduce none "$PUZZLES/queens8.txt" -o "$WORK/queens8.qubo" 2>/dev/null

check_sample() { # MODEL SOLVER EXTRA-ARGS...
	local model=$1 solver=$2 k
	shift 2
	local name
	name=$(basename "$model" .qubo)-$solver
	"$CLI" solve --quiet --solver "$solver" --seed 7 --threads 2 "$@" "$model" \
		>"$WORK/$name.cli" 2>"$WORK/$name.cli.err" || {
		echo "check-mpi: qubo solve failed on $model ($solver):"
		cat "$WORK/$name.cli.err"
		fail=1
		return
	}
	local bad=$fail
	fail=0
	for k in 1 2 3; do
		if ! "${MPIRUN[@]}" -np "$k" "$MPI_PROG" sample --solver "$solver" --seed 7 \
			--threads 1 "$@" "$model" >"$WORK/$name.np$k" 2>"$WORK/$name.np$k.err"; then
			echo "check-mpi: $name with $k ranks failed:"
			cat "$WORK/$name.np$k.err"
			fail=1
		elif ! cmp -s "$WORK/$name.cli" "$WORK/$name.np$k"; then
			echo "check-mpi: $name with $k ranks differs from qubo solve:"
			diff "$WORK/$name.cli" "$WORK/$name.np$k" | head -10 || true
			fail=1
		fi
	done
	if [ "$fail" = 0 ]; then
		echo "check-mpi: $name: $(wc -l <"$WORK/$name.cli") distinct samples, 1, 2 and" \
			"3 ranks identical to qubo solve"
	fi
	[ "$bad" = 0 ] || fail=1
}

check_sample "$WORK/random.qubo" sa --reads 61 --sweeps 2
check_sample "$WORK/random.qubo" tabu --reads 23 --set num_iterations=2 --set num_restarts=0
check_sample "$WORK/random.qubo" descent --reads 50
check_sample "$WORK/random.qubo" pt --reads 19 --sweeps 2 --set num_replicas=3
check_sample "$WORK/queens8.qubo" sa --reads 40 --sweeps 1
check_sample "$WORK/queens8.qubo" descent --reads 30

# Puzzles: the repository's queens board and N-Queens boards written here.
bad=$fail
fail=0
files=("$PUZZLES/queens8.txt")
for n in 4 5 6 7 8 9; do
	printf 'nqueens %d\n' "$n" >"$WORK/nqueens$n.txt"
	files+=("$WORK/nqueens$n.txt")
done
for k in 1 2 3; do
	if ! "${MPIRUN[@]}" -np "$k" "$MPI_PROG" puzzles --time-limit 20 "${files[@]}" \
		>"$WORK/puzzles.np$k" 2>"$WORK/puzzles.np$k.err"; then
		echo "check-mpi: puzzles with $k ranks failed:"
		cat "$WORK/puzzles.np$k.err" "$WORK/puzzles.np$k"
		fail=1
	fi
done
if [ "$(grep -c '^== ' "$WORK/puzzles.np1")" != "${#files[@]}" ]; then
	echo "check-mpi: puzzles: not one result per file:"
	cat "$WORK/puzzles.np1"
	fail=1
fi
for k in 2 3; do
	if ! cmp -s "$WORK/puzzles.np1" "$WORK/puzzles.np$k"; then
		echo "check-mpi: puzzles with $k ranks differ from 1 rank:"
		diff "$WORK/puzzles.np1" "$WORK/puzzles.np$k" | head -10 || true
		fail=1
	fi
done
# the first result is queens8.txt's: its board is the solution file
awk 'NR > 1 && /^== / { exit } NR > 1 { print }' "$WORK/puzzles.np1" >"$WORK/queens8.board"
grep -v '^#' "$PUZZLES/queens8.solution" >"$WORK/queens8.solution"
if ! cmp -s "$WORK/queens8.board" "$WORK/queens8.solution"; then
	echo "check-mpi: queens8.txt: the board is not its solution:"
	diff "$WORK/queens8.solution" "$WORK/queens8.board" | head -10 || true
	fail=1
fi
if [ "$fail" = 0 ]; then
	echo "check-mpi: puzzles: ${#files[@]} files, 1, 2 and 3 ranks identical, in file order"
fi
[ "$bad" = 0 ] || fail=1
exit $fail
