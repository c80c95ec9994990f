/*
 * Solution text round trips, every family: for random puzzles (text and
 * spec-built) and random boards of 0s and 1s, qubo_puzzle_format_solution()
 * followed by qubo_puzzle_parse_solution() gives the same board back, or
 * one of the two calls fails; it never gives a different board (a piece
 * written as an empty cell would hide the rule it breaks from the checker).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/puzzle.h>
#include <qubo/puzzle/binary.h>
#include <qubo/puzzle/chess.h>
#include <qubo/puzzle/queens.h>
#include <qubo/puzzle/tents.h>

#include "util.h"

#define MAX_SIDE 8
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define BOARDS 40 /* random boards per puzzle */

static int valgrind(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");

	return v && *v == '1';
}

/* Tallies of one family. */
typedef struct tally {
	size_t puzzles, formatted, returned, refused;
} tally;

/* A board of 0s and 1s with a random density, every cell or none set
 * sometimes. */
static void random_board(tu_rng *rng, uint8_t *board, size_t n)
{
	uint64_t per16 = tu_below(rng, 17);
	size_t i;

	for (i = 0; i < n; i++)
		board[i] = tu_below(rng, 16) < per16;
}

/* Formats random boards of p and reads each back: the same board, or an
 * error from one of the two calls. Every other board keeps its pieces on
 * the board (qubo_puzzle_get_cell()), as a solver's would. */
static void round_trips(const qubo_puzzle *p, const char *what, tu_rng *rng, tally *t)
{
	qubo_puzzle_stats st;
	uint8_t board[MAX_CELLS], back[MAX_CELLS], on[MAX_CELLS];
	char text[4096];
	size_t n, len, k, i;
	int rc;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	n = st.width * st.height;
	cr_assert_leq(n, MAX_CELLS);
	for (i = 0; i < n; i++) {
		qubo_puzzle_cell cell;

		memset(&cell, 0, sizeof cell);
		cell.struct_size = sizeof cell;
		cr_assert_eq(qubo_puzzle_get_cell(p, (uint32_t)(i / st.width),
						  (uint32_t)(i % st.width), &cell),
			     QUBO_OK);
		on[i] = cell.on_board != 0;
	}
	t->puzzles++;
	for (k = 0; k < BOARDS; k++) {
		random_board(rng, board, n);
		for (i = 0; k % 2 && i < n; i++)
			board[i] &= on[i];
		rc = qubo_puzzle_format_solution(p, board, n, text, sizeof text, &len);
		if (rc) {
			cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "%s: %s", what,
				     qubo_error_message());
			t->refused++;
			continue;
		}
		t->formatted++;
		memset(back, 7, sizeof back);
		rc = qubo_puzzle_parse_solution(p, text, len, back, n);
		if (rc)
			continue;
		for (i = 0; i < n; i++)
			cr_assert_eq(back[i], board[i],
				     "%s: cell %zu (row %zu, column %zu) was %u, read back as %u "
				     "from:\n%s",
				     what, i, i / st.width + 1, i % st.width + 1, board[i], back[i],
				     text);
		t->returned++;
	}
}

/* Parses text (no reduction, so that few random puzzles are refused as
 * infeasible) and round-trips boards of it; a text the library refuses is
 * skipped. */
static void text_puzzle(const char *text, tu_rng *rng, tally *t)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;

	o.reduce = QUBO_REDUCE_NONE;
	if (qubo_puzzle_parse(&p, text, strlen(text), &o) != QUBO_OK)
		return;
	round_trips(p, text, rng, t);
	qubo_puzzle_free(p);
}

/* A puzzle that a spec builder returned with rc: round-tripped, and freed. */
static void spec_puzzle(int rc, qubo_puzzle **p, const char *what, tu_rng *rng, tally *t)
{
	if (rc == QUBO_OK)
		round_trips(*p, what, rng, t);
	qubo_puzzle_free(*p);
}

/* Most puzzles built and most of their boards read back: the property was
 * tried, not skipped. */
static void expect_tried(const tally *t, const char *family, size_t min_puzzles)
{
	cr_assert_geq(t->puzzles, min_puzzles, "%s: %zu puzzles built", family, t->puzzles);
	cr_assert_geq(t->returned, t->puzzles * BOARDS / 4,
		      "%s: %zu of %zu boards read back (%zu formatted, %zu refused)", family,
		      t->returned, t->puzzles * BOARDS, t->formatted, t->refused);
}

static size_t trials(void)
{
	return valgrind() ? 4 : 30;
}

/* "c" ... drawn from `chars`, one per cell, rows ending in '\n'. */
static size_t put_grid(char *s, tu_rng *rng, uint32_t w, uint32_t h, const char *chars)
{
	size_t len = 0, nchars = strlen(chars);
	uint32_t r, c;

	for (r = 0; r < h; r++) {
		for (c = 0; c < w; c++)
			s[len++] = chars[tu_below(rng, nchars)];
		s[len++] = '\n';
	}
	s[len] = '\0';
	return len;
}

Test(roundtrip, queens)
{
	tu_rng rng = { 11 };
	tally t = { 0, 0, 0, 0 };
	char text[512];
	size_t k;

	for (k = 0; k < trials(); k++) {
		uint32_t n = k % 4 == 3 ? 8 : (uint32_t)tu_range(&rng, 4, 6), r, c;
		size_t len = (size_t)snprintf(text, sizeof text, "queens %u%s\n", (unsigned)n,
					      k % 4 == 3 ? " stars 2" : "");

		/* the rows as regions, some cells moved to another region,
		 * some off the board ('.'), some queens pre-placed */
		for (r = 0; r < n; r++) {
			for (c = 0; c < n; c++) {
				uint64_t x = tu_below(&rng, 40);
				char reg = (char)('a' + (x < 8 ? tu_below(&rng, n) : r));

				text[len++] = x == 8 || x == 9 ? '.' : x == 10 ? (char)(reg - 32) : reg;
			}
			text[len++] = '\n';
		}
		text[len] = '\0';
		text_puzzle(text, &rng, &t);
	}
	expect_tried(&t, "queens", trials() / 2);
}

Test(roundtrip, nqueens)
{
	static const char *const wraps[] = { "", " torus", " cylinder" };
	tu_rng rng = { 12 };
	tally t = { 0, 0, 0, 0 };
	char text[512];
	size_t k;

	for (k = 0; k < trials(); k++) {
		uint32_t n = (uint32_t)tu_range(&rng, 4, 7);
		size_t len = (size_t)snprintf(text, sizeof text, "nqueens %u%s\n", (unsigned)n,
					      wraps[k % 3]);

		if (k % 2)
			put_grid(text + len, &rng, n, n, "......#");
		text_puzzle(text, &rng, &t);
	}
	expect_tried(&t, "nqueens", trials() / 2);
}

/* Chess pieces: piece grids with cells where no piece may stand ('.'), a
 * custom piece, pre-placed pieces; coloured boards with a region grid. */
Test(roundtrip, chess)
{
	tu_rng rng = { 13 };
	tally t = { 0, 0, 0, 0 };
	char text[1024];
	size_t k;

	for (k = 0; k < 2 * trials(); k++) {
		uint32_t w = (uint32_t)tu_range(&rng, 2, 6), h = (uint32_t)tu_range(&rng, 2, 6);
		int coloured = k % 2 == 0;
		size_t len = (size_t)snprintf(text, sizeof text,
					      "chess %ux%u %s\npiece A 1,2 -1,1*\n", (unsigned)w,
					      (unsigned)h, coloured ? "coloured" : "max");

		len += put_grid(text + len, &rng, w, h, "QRBNKA....n");
		if (coloured) {
			text[len++] = '\n';
			put_grid(text + len, &rng, w, h, "abc.");
		}
		text_puzzle(text, &rng, &t);
	}
	expect_tried(&t, "chess", trials() / 2);
}

/* The same through qubo_puzzle_chess_new(): no header, custom pieces
 * written with the spec letters. */
Test(roundtrip, chess_spec)
{
	static const qubo_puzzle_chess_move moves[] = { { 1, 2, 0 }, { -1, 1, 1 } };
	static const size_t start[] = { 0, 2 };
	tu_rng rng = { 14 };
	tally t = { 0, 0, 0, 0 };
	size_t k, i;

	for (k = 0; k < trials(); k++) {
		qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
		int32_t pieces[MAX_CELLS];
		qubo_puzzle *p = NULL;

		s.width = (uint32_t)tu_range(&rng, 2, 6);
		s.height = (uint32_t)tu_range(&rng, 2, 6);
		s.mode = k % 2 ? QUBO_PUZZLE_CHESS_MODE_MAX : QUBO_PUZZLE_CHESS_MODE_COLOURED;
		for (i = 0; i < (size_t)s.width * s.height; i++)
			pieces[i] = tu_below(&rng, 3) == 0 ? QUBO_PUZZLE_CHESS_NONE :
				    tu_below(&rng, 4) == 0 ? QUBO_PUZZLE_CHESS_CUSTOM :
							     (int32_t)tu_below(&rng, 5);
		s.pieces = pieces;
		s.num_move_sets = 1;
		s.move_set_start = start;
		s.moves = moves;
		spec_puzzle(qubo_puzzle_chess_new(&p, &s, NULL), &p, "a spec-built chess board", &rng,
			    &t);
	}
	expect_tried(&t, "chess (spec)", trials() / 2);
}

/* Domination: text with cells off the board, and spec-built boards (no
 * header: their grids are read without one). */
Test(roundtrip, domination)
{
	static const char *const pieces[] = { "", " rook", " bishop", " knight", " king" };
	tu_rng rng = { 15 };
	tally t = { 0, 0, 0, 0 };
	char text[512];
	uint8_t off[MAX_CELLS];
	size_t k, i;

	for (k = 0; k < trials(); k++) {
		uint32_t w = (uint32_t)tu_range(&rng, 2, 6), h = (uint32_t)tu_range(&rng, 2, 6);
		size_t len = (size_t)snprintf(text, sizeof text, "domination %ux%u%s\n",
					      (unsigned)w, (unsigned)h, pieces[k % 5]);
		qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
		qubo_puzzle *p = NULL;

		if (k % 2)
			put_grid(text + len, &rng, w, h, "...#");
		text_puzzle(text, &rng, &t);
		s.width = w;
		s.height = h;
		s.piece = (int32_t)(k % 5);
		for (i = 0; i < (size_t)w * h; i++)
			off[i] = tu_below(&rng, 4) == 0;
		s.off_board = off;
		spec_puzzle(qubo_puzzle_domination_new(&p, &s, NULL), &p,
			    "a spec-built domination board", &rng, &t);
	}
	expect_tried(&t, "domination", trials());
}

/* Takuzu (sparse clues, with and without distinct lines) and Tango (clues
 * and signs between cells). */
Test(roundtrip, binary)
{
	tu_rng rng = { 16 };
	tally t = { 0, 0, 0, 0 };
	char text[1024];
	size_t k;

	for (k = 0; k < trials(); k++) {
		uint32_t w = 2 * (uint32_t)tu_range(&rng, 2, 3), h = 2 * (uint32_t)tu_range(&rng, 2, 3);
		size_t len = (size_t)snprintf(text, sizeof text, "takuzu %ux%u%s\n", (unsigned)w,
					      (unsigned)h, k % 2 ? " nounique" : "");
		uint32_t r, c;

		put_grid(text + len, &rng, w, h, "..............01");
		text_puzzle(text, &rng, &t);
		len = (size_t)snprintf(text, sizeof text, "tango %ux%u\n", (unsigned)w,
				       (unsigned)h);
		for (r = 0; r < h; r++) {
			for (c = 0; c < w; c++) {
				text[len++] = "..........01"[tu_below(&rng, 12)];
				if (c + 1 < w)
					text[len++] = "          =x"[tu_below(&rng, 12)];
			}
			text[len++] = '\n';
			for (c = 0; r + 1 < h && c < w; c++) {
				text[len++] = "          =x"[tu_below(&rng, 12)];
				if (c + 1 < w)
					text[len++] = ' ';
			}
			if (r + 1 < h)
				text[len++] = '\n';
		}
		text[len] = '\0';
		text_puzzle(text, &rng, &t);
	}
	expect_tried(&t, "takuzu and tango", trials());
}

Test(roundtrip, binary_spec)
{
	tu_rng rng = { 17 };
	tally t = { 0, 0, 0, 0 };
	size_t k;

	for (k = 0; k < trials(); k++) {
		qubo_puzzle_binary_spec s = QUBO_PUZZLE_BINARY_SPEC_INIT;
		qubo_puzzle *p = NULL;

		s.width = 2 * (uint32_t)tu_range(&rng, 1, 3);
		s.height = 2 * (uint32_t)tu_range(&rng, 1, 3);
		spec_puzzle(qubo_puzzle_binary_new(&p, &s, NULL), &p, "a spec-built binary board",
			    &rng, &t);
	}
	expect_tried(&t, "binary (spec)", trials() / 2);
}

/* Tents: the example of doc/formats.md, read from text and built from its
 * spec; tents on trees are written and read back (the checker reports
 * them). */
Test(roundtrip, tents)
{
	static const char text[] = "tents 8x8\n"
				   "cols 3 0 2 2 1 1 1 2\n"
				   "rows 3 0 2 1 2 0 4 0\n"
				   ".TT..T..\n...T....\n........\nT.....T.\n"
				   ".....T..\n..T.....\n.T....T.\nT......T\n";
	static const int32_t cols[] = { 3, 0, 2, 2, 1, 1, 1, 2 }, rows[] = { 3, 0, 2, 1, 2, 0, 4, 0 };
	qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;
	tu_rng rng = { 18 };
	tally t = { 0, 0, 0, 0 };
	uint32_t trees[MAX_CELLS];
	qubo_puzzle *p = NULL;
	const char *grid = strchr(strstr(text, "rows"), '\n') + 1;
	size_t k, i;

	for (i = 0; i < 64; i++)
		if (grid[i / 8 * 9 + i % 8] == 'T')
			trees[s.num_trees++] = (uint32_t)i;
	s.width = s.height = 8;
	s.trees = trees;
	s.row_counts = rows;
	s.col_counts = cols;
	cr_assert_eq(qubo_puzzle_tents_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	for (k = 0; k < trials(); k++) {
		text_puzzle(text, &rng, &t);
		round_trips(p, "a spec-built tents board", &rng, &t);
	}
	qubo_puzzle_free(p);
	expect_tried(&t, "tents", 2 * trials());
}

/* The case that was lossy: a piece on a chess cell where no piece may
 * stand was written as '.', and the board read back had no piece there,
 * so the checker's violation disappeared. */
Test(roundtrip, chess_piece_off_the_board_is_refused)
{
	static const char text[] = "chess 3x1 max\nQ.Q\n";
	static const uint8_t board[3] = { 0, 1, 0 };
	qubo_puzzle *p = NULL;
	char buf[64];
	size_t len = 0, violations = 0;

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_check(p, board, 3, NULL, 0, &violations), QUBO_OK);
	cr_assert_eq(violations, 1);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 3, buf, sizeof buf, &len),
		     QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "row 1, column 2"), "%s", qubo_error_message());
	/* the size query refuses it too */
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 3, NULL, 0, &len),
		     QUBO_ERR_INVALID_ARG);
	qubo_puzzle_free(p);
}
