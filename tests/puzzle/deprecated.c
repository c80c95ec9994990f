/*
 * The deprecated names of the public API: each still compiles, and each
 * means exactly what its replacement means (same function, same value, same
 * type). Every other test uses the current names only.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/puzzle.h>
#include <qubo/puzzle/chess.h>
#include <qubo/puzzle/queens.h>
#include <qubo/model.h>
#include <qubo/qbsolv.h>

#include "util.h"

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

/* The model of a puzzle as qbsolv text (caller frees). */
static char *model_text(const qubo_puzzle *p)
{
	const qubo_model *m = NULL;
	size_t len = 0;
	char *buf;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_qbsolv_write(m, NULL, 0, &len), QUBO_OK);
	buf = malloc(len + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(qubo_qbsolv_write(m, buf, len + 1, &len), QUBO_OK);
	return buf;
}

/* qubo_puzzle_queens_build() is qubo_puzzle_queens_new() under its 0.1
 * name: the same model, the same refusals, its own name in messages. */
Test(deprecated, queens_build)
{
	static const uint32_t given[1] = { 1 };
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle *a = NULL, *b = NULL;
	char *ta, *tb;
	int d;

	s.width = 5;
	s.height = 5;
	for (d = 0; d < 8; d++)
		s.reach[d] = 1;
	s.queens = given;
	s.num_queens = 1;
	cr_assert_eq(qubo_puzzle_queens_new(&a, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_build(&b, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(b), QUBO_PUZZLE_GENERAL_QUEENS);
	ta = model_text(a);
	tb = model_text(b);
	cr_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);

	s.width = 0;
	cr_assert_eq(qubo_puzzle_queens_build(&b, &s, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert_null(b);
	cr_assert(strstr(qubo_error_message(), "qubo_puzzle_queens_build"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_new(&a, &s, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "qubo_puzzle_queens_new"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_build(NULL, &s, NULL), QUBO_ERR_MISUSE);
}

/* The 0.1 names of the puzzle types and constants: the same values, the
 * same types (the old enum and struct tags included). */
Test(deprecated, puzzle_names)
{
	enum qubo_chess_piece piece = QUBO_CHESS_KNIGHT;
	enum qubo_chess_mode mode = QUBO_CHESS_MAX;
	enum qubo_domination_slack slack = QUBO_DOMINATION_SLACK_FULL;
	enum qubo_queens_direction dir = QUBO_QUEENS_SW;
	enum qubo_queens_wrap wrap = QUBO_QUEENS_TORUS;
	enum qubo_queens_region_form form = QUBO_QUEENS_REGION_PAIRWISE;
	struct qubo_chess_move old_move = { 1, 2, 0 };
	qubo_chess_move move = old_move;
	qubo_puzzle_chess_move *now = &move;

	cr_assert_eq(piece, QUBO_PUZZLE_CHESS_KNIGHT);
	cr_assert_eq(QUBO_CHESS_NONE, QUBO_PUZZLE_CHESS_NONE);
	cr_assert_eq(QUBO_CHESS_QUEEN, QUBO_PUZZLE_CHESS_QUEEN);
	cr_assert_eq(QUBO_CHESS_ROOK, QUBO_PUZZLE_CHESS_ROOK);
	cr_assert_eq(QUBO_CHESS_BISHOP, QUBO_PUZZLE_CHESS_BISHOP);
	cr_assert_eq(QUBO_CHESS_KING, QUBO_PUZZLE_CHESS_KING);
	cr_assert_eq(QUBO_CHESS_CUSTOM, QUBO_PUZZLE_CHESS_CUSTOM);
	cr_assert_eq(mode, QUBO_PUZZLE_CHESS_MODE_MAX);
	cr_assert_eq(QUBO_CHESS_COLOURED, QUBO_PUZZLE_CHESS_MODE_COLOURED);
	cr_assert_eq(slack, QUBO_PUZZLE_DOMINATION_SLACK_FULL);
	cr_assert_eq(QUBO_DOMINATION_SLACK_TIGHT, QUBO_PUZZLE_DOMINATION_SLACK_TIGHT);
	cr_assert_eq(dir, QUBO_PUZZLE_QUEENS_SW);
	cr_assert_eq(QUBO_QUEENS_N, QUBO_PUZZLE_QUEENS_N);
	cr_assert_eq(QUBO_QUEENS_NE, QUBO_PUZZLE_QUEENS_NE);
	cr_assert_eq(QUBO_QUEENS_E, QUBO_PUZZLE_QUEENS_E);
	cr_assert_eq(QUBO_QUEENS_SE, QUBO_PUZZLE_QUEENS_SE);
	cr_assert_eq(QUBO_QUEENS_S, QUBO_PUZZLE_QUEENS_S);
	cr_assert_eq(QUBO_QUEENS_W, QUBO_PUZZLE_QUEENS_W);
	cr_assert_eq(QUBO_QUEENS_NW, QUBO_PUZZLE_QUEENS_NW);
	cr_assert_eq(QUBO_QUEENS_UNLIMITED, QUBO_PUZZLE_QUEENS_UNLIMITED);
	cr_assert_eq(QUBO_QUEENS_ANY, QUBO_PUZZLE_QUEENS_ANY);
	cr_assert_eq(form, QUBO_PUZZLE_QUEENS_REGION_PAIRWISE);
	cr_assert_eq(QUBO_QUEENS_REGION_COUNT, QUBO_PUZZLE_QUEENS_REGION_COUNT);
	/* the queens wrap of 0.1 is the one wrap enum, value for value */
	cr_assert_eq(wrap, QUBO_PUZZLE_WRAP_TORUS);
	cr_assert_eq(QUBO_QUEENS_PLANE, QUBO_PUZZLE_WRAP_NONE);
	cr_assert_eq(QUBO_QUEENS_CYLINDER, QUBO_PUZZLE_WRAP_CYLINDER);
	cr_assert_eq(sizeof(enum qubo_queens_wrap), sizeof(enum qubo_puzzle_wrap));
	cr_assert_eq(now->dcol, 2);
	cr_assert_eq(sizeof(qubo_chess_move), sizeof(qubo_puzzle_chess_move));
}

/* A 0.1 program's spec, written with the old names, builds the puzzle the
 * new names build: a torus of queens and a board of custom pieces. */
Test(deprecated, old_names_build_the_same_puzzles)
{
	static const qubo_chess_move knight_like[2] = { { 1, 2, 0 }, { 2, 1, 0 } };
	static const size_t set_start[2] = { 0, 2 };
	qubo_puzzle_queens_spec qs = QUBO_PUZZLE_QUEENS_SPEC_INIT, qn;
	qubo_puzzle_domination_spec ds = QUBO_PUZZLE_DOMINATION_SPEC_INIT, dn;
	qubo_puzzle_chess_spec cs = QUBO_PUZZLE_CHESS_SPEC_INIT, cn;
	int32_t pieces[9];
	qubo_puzzle *a = NULL, *b = NULL;
	char *ta, *tb;
	int d, k;

	qs.width = qs.height = 5;
	for (d = QUBO_QUEENS_N; d <= QUBO_QUEENS_NW; d++)
		qs.reach[d] = d % 2 ? QUBO_QUEENS_UNLIMITED : 0;
	qs.wrap = QUBO_QUEENS_TORUS;
	qn = qs;
	qn.wrap = QUBO_PUZZLE_WRAP_TORUS;
	for (d = QUBO_PUZZLE_QUEENS_N; d <= QUBO_PUZZLE_QUEENS_NW; d++)
		qn.reach[d] = d % 2 ? QUBO_PUZZLE_QUEENS_UNLIMITED : 0;
	cr_assert_eq(qubo_puzzle_queens_new(&a, &qs, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_new(&b, &qn, NULL), QUBO_OK, "%s", qubo_error_message());
	ta = model_text(a);
	tb = model_text(b);
	cr_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);

	ds.width = ds.height = 4;
	ds.piece = QUBO_CHESS_CUSTOM;
	ds.num_moves = 2;
	ds.moves = knight_like;
	ds.slack = QUBO_DOMINATION_SLACK_FULL;
	dn = ds;
	dn.piece = QUBO_PUZZLE_CHESS_CUSTOM;
	dn.slack = QUBO_PUZZLE_DOMINATION_SLACK_FULL;
	cr_assert_eq(qubo_puzzle_domination_new(&a, &ds, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_domination_new(&b, &dn, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	ta = model_text(a);
	tb = model_text(b);
	cr_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);

	for (k = 0; k < 9; k++)
		pieces[k] = k == 4 ? QUBO_CHESS_NONE : k % 2 ? QUBO_CHESS_ROOK : QUBO_CHESS_CUSTOM;
	cs.width = cs.height = 3;
	cs.mode = QUBO_CHESS_MAX;
	cs.pieces = pieces;
	cs.num_move_sets = 1;
	cs.move_set_start = set_start;
	cs.moves = knight_like;
	cn = cs;
	cn.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	cr_assert_eq(qubo_puzzle_chess_new(&a, &cs, NULL), QUBO_OK, "%s", qubo_error_message());
	for (k = 0; k < 9; k++)
		pieces[k] = k == 4 ? QUBO_PUZZLE_CHESS_NONE :
			    k % 2  ? QUBO_PUZZLE_CHESS_ROOK :
				     QUBO_PUZZLE_CHESS_CUSTOM;
	cr_assert_eq(qubo_puzzle_chess_new(&b, &cn, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(a), QUBO_PUZZLE_CHESS_MAX);
	ta = model_text(a);
	tb = model_text(b);
	cr_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);
}

static int stop_at_once(void *user_data)
{
	++*(int *)user_data;
	return 1;
}

/* qubo_model_interrupt_fn is qubo_model_interrupt_cb: a function of the
 * old type is accepted as it was and stops a compile. */
Test(deprecated, model_interrupt_fn)
{
	qubo_model_interrupt_fn old_type = stop_at_once;
	qubo_model_interrupt_cb new_type = old_type;
	qubo_model *m = NULL;
	uint32_t i, j;
	int calls = 0;

	cr_assert_eq(new_type, stop_at_once);
	cr_assert_eq(qubo_model_new(&m, 400, NULL), QUBO_OK);
	for (i = 0; i < 400; i++)
		for (j = i + 1; j < 400; j++)
			cr_assert_eq(qubo_model_add_quadratic(m, i, j, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_set_interrupt(m, old_type, &calls), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_CANCELLED);
	cr_assert_eq(calls, 1);
	cr_assert_eq(qubo_model_is_compiled(m), 0);
	qubo_model_free(m);
}
