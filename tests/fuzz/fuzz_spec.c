/*
 * libFuzzer target for the spec builders of the generalised families
 * (qubo/puzzle/binary.h, queens.h, chess.h, tents.h): the input's bytes
 * fill one spec, mostly with values in range and now and then any 32-bit
 * value, on boards of up to 64 x 64 cells (mostly small ones, and now and
 * then a side of 0 or one too large for any board).
 *
 * Any spec: the builder returns within its time limit (FUZZ_BUILD_LIMIT,
 * with the slack of fuzz_common.h), and either builds or fails with a
 * message (never QUBO_ERR_INTERNAL, and *out NULL). A puzzle built is
 * exercised as fuzz_exercise() (fuzz_common.h) says. Arrays always have
 * the length the spec promises: reading past them is the library's bug,
 * which AddressSanitizer reports.
 */
#define FUZZ_NAME "fuzz_spec"
#include "fuzz_common.h"

#include <qubo/puzzle/binary.h>
#include <qubo/puzzle/chess.h>
#include <qubo/puzzle/queens.h>
#include <qubo/puzzle/tents.h>

#define SIDE 64
#define CELLS (SIDE * SIDE)
#define LIST 16 /* signs, pairs, moves, pre-placed pieces, regions */

/* The arrays a spec points into; every one long enough for the largest
 * board, so that a spec never promises more than there is. */
static struct {
	int8_t clues[CELLS];
	uint8_t bytes[CELLS];
	int32_t map[CELLS], map2[CELLS], rows[SIDE], cols[SIDE], counts[LIST], flags[LIST];
	uint32_t cells[CELLS], pairs[2 * LIST], reach[8 * CELLS];
	size_t starts[LIST + 1];
	double weights[CELLS];
	qubo_puzzle_binary_sign signs[LIST];
	qubo_puzzle_chess_move moves[LIST];
} A;

/* A side: mostly 1 to 8, so that most builds are quick; one byte in 17
 * gives 16 to 64, one in 256 gives 0 or 2^24 + 1 (refused before any array
 * is read). */
static uint32_t side(fuzz_in *in)
{
	unsigned b = fuzz_byte(in);

	if (b == 255)
		return fuzz_byte(in) & 1 ? (1u << 24) + 1 : 0;
	if (b >= 240)
		return 16 + (b - 240) * 48 / 14;
	return 1 + b % 8;
}

/* NULL, or the array after filling its n entries in [lo, hi] (now and then
 * any value). */
static const int32_t *ints(fuzz_in *in, int32_t *a, size_t n, int64_t lo, int64_t hi)
{
	size_t i;

	if (fuzz_byte(in) % 4 == 0)
		return NULL;
	for (i = 0; i < n; i++)
		a[i] = (int32_t)fuzz_int(in, lo, hi);
	return a;
}

static const uint8_t *flags(fuzz_in *in, size_t n)
{
	size_t i;

	if (fuzz_byte(in) % 2)
		return NULL;
	for (i = 0; i < n; i++)
		A.bytes[i] = fuzz_byte(in) % 5 == 0;
	return A.bytes;
}

/* m distinct-ish cells below n (now and then one out of range). */
static const uint32_t *cells(fuzz_in *in, size_t m, size_t n)
{
	size_t i;

	for (i = 0; i < m; i++)
		A.cells[i] = (uint32_t)fuzz_int(in, 0, (int64_t)n - 1);
	return A.cells;
}

static int build_binary(fuzz_in *in, uint32_t w, uint32_t h, qubo_puzzle **p,
			const qubo_puzzle_options *o)
{
	qubo_puzzle_binary_spec s = QUBO_PUZZLE_BINARY_SPEC_INIT;
	size_t n = (size_t)w * h, i;

	s.width = w;
	s.height = h;
	if (w <= SIDE && h <= SIDE) {
		if (fuzz_byte(in) % 2) {
			for (i = 0; i < n; i++)
				A.clues[i] =
					(int8_t)(fuzz_byte(in) % 7 == 0 ? fuzz_int(in, -1, 1) : -1);
			s.clues = A.clues;
		}
		s.row_ones = ints(in, A.rows, h, -1, w);
		s.col_ones = ints(in, A.cols, w, -1, h);
		s.num_signs = fuzz_below(in, LIST);
		for (i = 0; i < s.num_signs; i++) {
			A.signs[i].a = (uint32_t)fuzz_int(in, 0, (int64_t)n - 1);
			A.signs[i].b = (uint32_t)fuzz_int(in, 0, (int64_t)n - 1);
			A.signs[i].differ = (int32_t)fuzz_int(in, 0, 1);
		}
		s.signs = A.signs;
		if (fuzz_byte(in) % 3 == 0) {
			s.num_regions = fuzz_below(in, 8);
			s.regions = ints(in, A.map, n, -1, (int64_t)s.num_regions - 1);
			s.region_ones = ints(in, A.counts, s.num_regions, -1, (int64_t)n);
		}
		if (fuzz_byte(in) % 3 == 0) {
			s.num_equal_groups = fuzz_below(in, 8);
			s.equal_groups = ints(in, A.map2, n, -1, (int64_t)s.num_equal_groups - 1);
			s.num_differ_pairs = fuzz_below(in, 4);
			for (i = 0; i < 2 * s.num_differ_pairs; i++)
				A.pairs[i] = (uint32_t)fuzz_int(in, 0, (int64_t)s.num_equal_groups);
			s.differ_pairs = A.pairs;
		}
	}
	s.windows = (int32_t)fuzz_int(in, 0, 7);
	s.wrap = (int32_t)fuzz_int(in, 0, 2);
	s.distinct = (int32_t)fuzz_int(in, 0, 1);
	return qubo_puzzle_binary_new(p, &s, o);
}

static int build_queens(fuzz_in *in, uint32_t w, uint32_t h, qubo_puzzle **p,
			const qubo_puzzle_options *o)
{
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	size_t n = (size_t)w * h, i, k, at = 0;
	int d;

	s.width = w;
	s.height = h;
	for (d = 0; d < 8; d++) {
		unsigned b = fuzz_byte(in) % 6;

		s.reach[d] = b == 5 ? QUBO_PUZZLE_QUEENS_UNLIMITED :
			     b == 4 ? (uint32_t)fuzz_int(in, 0, 99) :
				      b;
	}
	if (w <= SIDE && h <= SIDE) {
		s.off_board = flags(in, n);
		s.row_counts = ints(in, A.rows, h, -1, 2);
		s.col_counts = ints(in, A.cols, w, -1, 2);
		s.num_regions = fuzz_below(in, 6);
		/* region k: its cells from `at` on; an offset now and then out of
		 * order, within the cells given */
		A.starts[0] = 0;
		for (k = 0; k < s.num_regions; k++) {
			size_t len = fuzz_below(in, 9);

			for (i = 0; i < len && at < CELLS; i++)
				A.cells[at++] = (uint32_t)fuzz_int(in, 0, (int64_t)n - 1);
			A.starts[k + 1] = fuzz_byte(in) % 16 == 0 ? fuzz_below(in, at + 1) : at;
			A.counts[k] = (int32_t)fuzz_int(in, 0, 2);
			A.flags[k] = (int32_t)fuzz_int(in, 0, 1);
		}
		if (s.num_regions) {
			s.region_start = A.starts;
			s.region_cells = A.cells;
			s.region_counts = A.counts;
			s.region_plus_one = fuzz_byte(in) % 2 ? A.flags : NULL;
		}
		if (fuzz_byte(in) % 4 == 0) {
			for (i = 0; i < 8 * n; i++)
				A.reach[i] = fuzz_byte(in) % 4;
			s.cell_reach = A.reach;
		}
		s.num_queens = fuzz_below(in, 4);
		for (i = 0; i < s.num_queens; i++)
			A.pairs[i] = (uint32_t)fuzz_int(in, 0, (int64_t)n - 1);
		s.queens = A.pairs;
	}
	s.wrap = (int32_t)fuzz_int(in, 0, 2);
	s.region_form = (int32_t)fuzz_int(in, 0, 1);
	s.k_or_k1_form = (int32_t)fuzz_int(in, 0, 1);
	return qubo_puzzle_queens_new(p, &s, o);
}

/* k move sets of up to 4 moves each; the starts in A.starts. */
static size_t move_sets(fuzz_in *in, size_t k)
{
	size_t i, at = 0;

	A.starts[0] = 0;
	for (i = 0; i < k; i++) {
		size_t len = fuzz_below(in, 5), j;

		for (j = 0; j < len && at < LIST; j++, at++) {
			A.moves[at].drow = (int32_t)fuzz_int(in, -3, 3);
			A.moves[at].dcol = (int32_t)fuzz_int(in, -3, 3);
			A.moves[at].slide = (int32_t)fuzz_int(in, 0, 1);
		}
		A.starts[i + 1] = at;
	}
	return at;
}

static int build_chess(fuzz_in *in, uint32_t w, uint32_t h, qubo_puzzle **p,
		       const qubo_puzzle_options *o)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	size_t n = (size_t)w * h, i;

	s.width = w;
	s.height = h;
	s.mode = (int32_t)fuzz_int(in, 0, 1);
	s.num_move_sets = fuzz_below(in, 3);
	if (s.num_move_sets) {
		move_sets(in, s.num_move_sets);
		s.move_set_start = A.starts;
		s.moves = A.moves;
	}
	if (w <= SIDE && h <= SIDE) {
		s.pieces =
			ints(in, A.map, n, -1, QUBO_PUZZLE_CHESS_CUSTOM + (int64_t)s.num_move_sets);
		for (i = 0; s.pieces && i < n; i++)
			if (A.map[i] > QUBO_PUZZLE_CHESS_KING &&
			    A.map[i] < QUBO_PUZZLE_CHESS_CUSTOM)
				A.map[i] = QUBO_PUZZLE_CHESS_NONE;
		if (fuzz_byte(in) % 3 == 0)
			s.regions = ints(in, A.map2, n, -1, 7);
		if (fuzz_byte(in) % 3 == 0) {
			for (i = 0; i < n; i++)
				A.weights[i] =
					fuzz_byte(in) % 64 == 0 ? -1.0 : 1.0 + fuzz_byte(in) % 4;
			s.weights = A.weights;
		}
		s.num_placed = fuzz_below(in, 4);
		for (i = 0; i < s.num_placed; i++)
			A.pairs[i] = (uint32_t)fuzz_int(in, 0, (int64_t)n - 1);
		s.placed = A.pairs;
	}
	s.lambda = fuzz_byte(in) % 4 == 0 ? (double)fuzz_int(in, 0, 9) : 0.0;
	return qubo_puzzle_chess_new(p, &s, o);
}

static int build_domination(fuzz_in *in, uint32_t w, uint32_t h, qubo_puzzle **p,
			    const qubo_puzzle_options *o)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	size_t n = (size_t)w * h;

	s.width = w;
	s.height = h;
	if (w <= SIDE && h <= SIDE)
		s.off_board = flags(in, n);
	s.piece = (int32_t)fuzz_int(in, 0, QUBO_PUZZLE_CHESS_KING + 1);
	if (s.piece == QUBO_PUZZLE_CHESS_KING + 1)
		s.piece = QUBO_PUZZLE_CHESS_CUSTOM;
	if (s.piece == QUBO_PUZZLE_CHESS_CUSTOM) {
		s.num_moves = move_sets(in, 1);
		s.moves = A.moves;
	}
	s.slack = (int32_t)fuzz_int(in, 0, 1);
	return qubo_puzzle_domination_new(p, &s, o);
}

static int build_tents(fuzz_in *in, uint32_t w, uint32_t h, qubo_puzzle **p,
		       const qubo_puzzle_options *o)
{
	qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;
	size_t n = (size_t)w * h, i;
	int32_t rows[SIDE] = { 0 }, cols[SIDE] = { 0 };

	s.width = w;
	s.height = h;
	if (w <= SIDE && h <= SIDE) {
		/* trees, and the counts they imply, now and then changed */
		s.num_trees = fuzz_below(in, n / 4 + 1);
		cells(in, s.num_trees, n);
		for (i = 0; i < s.num_trees; i++)
			if (A.cells[i] < n && fuzz_byte(in) % 2) {
				rows[A.cells[i] / w]++;
				cols[A.cells[i] % w]++;
			}
		for (i = 0; i < h; i++)
			A.rows[i] = fuzz_byte(in) % 16 ? rows[i] : (int32_t)fuzz_int(in, -1, w);
		for (i = 0; i < w; i++)
			A.cols[i] = fuzz_byte(in) % 16 ? cols[i] : (int32_t)fuzz_int(in, -1, h);
		s.trees = A.cells;
		s.row_counts = A.rows;
		s.col_counts = A.cols;
	}
	s.relaxed = (int32_t)fuzz_int(in, 0, 1);
	return qubo_puzzle_tents_new(p, &s, o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int (*const builders[5])(fuzz_in *, uint32_t, uint32_t, qubo_puzzle **,
					const qubo_puzzle_options *) = {
		build_binary, build_queens, build_chess, build_domination, build_tents
	};
	fuzz_in in = { data, size, 0 };
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = (qubo_puzzle *)&o;
	unsigned family = fuzz_byte(&in) % 5;
	uint32_t w, h;
	double t0;
	int rc;

	o.reduce = (int32_t)(fuzz_byte(&in) % 4);
	o.drop_region = (int32_t)(fuzz_byte(&in) % 8 == 0);
	o.allocator = &fuzz_alloc;
	o.time_limit = FUZZ_BUILD_LIMIT;
	w = side(&in);
	h = side(&in);
	t0 = fuzz_now();
	rc = builders[family](&in, w, h, &p, &o);
	if (check_build(t0, rc, p))
		return 0;
	fuzz_exercise(p, data, size);
	qubo_puzzle_free(p);
	return 0;
}
