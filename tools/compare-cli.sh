#!/usr/bin/env bash
# Runs two builds of the `qubo` program over the same inputs and compares
# what they print, byte for byte: standard output, standard error and the
# exit status of solve, count, render, verify, info and export on every
# puzzle of a folder tree (NAME.txt with NAME.solution beside it where there
# is one) and on every .qubo model given. A refactoring must leave them all
# equal; a deliberate change shows up as a diff to be listed in CHANGELOG.md.
#
# usage: tools/compare-cli.sh OLD_QUBO NEW_QUBO OUTDIR PUZZLE_DIR [MODEL.qubo...]
# Exit status 0 when every output is equal, 1 otherwise (OUTDIR/diff has
# the differences, OUTDIR/old and OUTDIR/new the outputs).
set -u
old=${1:?usage: compare-cli.sh OLD_QUBO NEW_QUBO OUTDIR PUZZLE_DIR [MODEL...]}
new=${2:?usage}
out=${3:?usage}
dir=${4:?usage}
shift 4
rm -rf "$out" && mkdir -p "$out/old" "$out/new" || exit 2

# run BIN SIDE NAME ARGS...: one command's output and status into one file;
# the wall-time line of `solve` is the one line that differs from run to run
run() {
	local bin=$1 side=$2 name=$3
	shift 3
	{
		"$bin" "$@" 2>&1
		echo "exit $?"
	} </dev/null | sed 's/^time: .*/time: (not compared)/' >"$out/$side/$name"
}

# every command on one input, for one side
one() {
	local bin=$1 side=$2 f=$3 base
	base=$(echo "${f#"$dir"/}" | tr '/' '_')
	run "$bin" "$side" "$base.solve" solve --seed 7 --time-limit 20 "$f"
	run "$bin" "$side" "$base.info" info "$f"
	run "$bin" "$side" "$base.export" export --reduce none "$f"
	run "$bin" "$side" "$base.export-full" export "$f"
	run "$bin" "$side" "$base.render" render "$f"
	run "$bin" "$side" "$base.count" count --time-limit 20 "$f"
	if [ -f "${f%.txt}.solution" ]; then
		run "$bin" "$side" "$base.verify" verify "$f" "${f%.txt}.solution"
		run "$bin" "$side" "$base.render-sol" render "$f" "${f%.txt}.solution"
	fi
}

model() {
	local bin=$1 side=$2 f=$3 base
	base=model_$(basename "$f")
	run "$bin" "$side" "$base.info" info "$f"
	run "$bin" "$side" "$base.solve" solve --seed 7 --reads 4 --sweeps 200 --threads 1 "$f"
	run "$bin" "$side" "$base.export" export "$f"
}

n=0
mapfile -t puzzles < <(find "$dir" -name '*.txt' | sort)
for f in "${puzzles[@]}"; do
	one "$old" old "$f" &
	one "$new" new "$f"
	wait
	n=$((n + 1))
done
for f in "$@"; do
	model "$old" old "$f" &
	model "$new" new "$f"
	wait
	n=$((n + 1))
done
if diff -r "$out/old" "$out/new" >"$out/diff"; then
	echo "compare-cli: $n inputs, $(ls "$out/new" | wc -l) outputs, all equal"
	exit 0
fi
echo "compare-cli: $n inputs, $(grep -c '^diff ' "$out/diff") outputs differ (see $out/diff)"
exit 1
