#!/usr/bin/env bash
# Solves fresh puzzles of Simon Tatham's Portable Puzzle Collection from
# their game IDs: Debian's sgt-tents and sgt-unruly generate them at their
# hardest difficulty, several sizes each, from a seed that changes per run
# (QUBO_SGT_SEED to repeat a run); `qubo solve ID` must print a solution
# (exit 0) that `qubo verify` accepts.
#
# usage: tools/run-sgt.sh QUBO_BINARY [COUNT]     (COUNT puzzles per size, default 3)
# Exit status 77 (skipped) when the generators are not installed.
set -u
qubo=${1:?usage: run-sgt.sh QUBO_BINARY [COUNT]}
count=${2:-3}
tents=$(command -v sgt-tents || echo /usr/games/sgt-tents)
unruly=$(command -v sgt-unruly || echo /usr/games/sgt-unruly)
if [ ! -x "$tents" ] || [ ! -x "$unruly" ]; then
	echo "run-sgt: sgt-tents or sgt-unruly is not installed (Debian package sgt-puzzles): skipped"
	exit 77
fi
seed=${QUBO_SGT_SEED:-$(date +%s)$$}
echo "run-sgt: seed $seed (QUBO_SGT_SEED=$seed repeats this run)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# generator, then parameters: size and hardest difficulty ('t' tricky for
# Tents, 'n' normal for Unruly; 'u' asks Unruly for distinct rows)
params=(
	"$tents 8x8dt" "$tents 10x10dt" "$tents 12x12dt" "$tents 15x15dt"
	"$unruly 8x8dn" "$unruly 10x10dn" "$unruly 14x14dn" "$unruly 8x8udn" "$unruly 12x12udn"
)
solved=0
failed=0
for p in "${params[@]}"; do
	gen=${p% *}
	par=${p#* }
	if ! ids=$("$gen" --generate "$count" "$par#$seed" 2>"$work/gen.err"); then
		echo "run-sgt: $gen --generate $count '$par#$seed' failed: $(cat "$work/gen.err")"
		failed=$((failed + 1))
		continue
	fi
	while IFS= read -r id; do
		[ -n "$id" ] || continue
		start=$(date +%s%N)
		if "$qubo" solve --quiet --time-limit 60 "$id" >"$work/sol" 2>"$work/err" &&
			printf '%s\n' "$id" >"$work/puzzle" &&
			[ "$("$qubo" verify "$work/puzzle" "$work/sol" 2>&1)" = valid ]; then
			ms=$((($(date +%s%N) - start) / 1000000))
			echo "run-sgt: ok   ${ms} ms  $(basename "$gen") $id"
			solved=$((solved + 1))
		else
			echo "run-sgt: FAIL $(basename "$gen") $id"
			sed 's/^/run-sgt:   /' "$work/err"
			failed=$((failed + 1))
		fi
	done <<<"$ids"
done
echo "run-sgt: $solved solved and verified, $failed failed"
[ "$failed" -eq 0 ] && [ "$solved" -gt 0 ]
