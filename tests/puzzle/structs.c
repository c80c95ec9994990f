/*
 * Struct versioning in libqubo-puzzle: the same rule and the same messages
 * as libqubo's (tests/qubo/structs.c) for the puzzle layer's size-first
 * structs, whose checks run inside libqubo-puzzle and report through
 * libqubo's per-thread message.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <qubo/puzzle.h>
#include <qubo/puzzle/chess.h>
#include <qubo/puzzle/queens.h>

#include "structs.h"
#include "util.h"

static const char linkedin[] = "queens 4\naabb\nacbB\ndccb\nddc.\n";

/* On LP64 the frozen sizes are pinned: a change here breaks old callers. */
Test(puzzle_structs, v1_sizes_are_frozen)
{
	cr_assert_leq(QUBO_PUZZLE_OPTIONS_SIZE_V1, sizeof(qubo_puzzle_options));
	cr_assert_leq(QUBO_PUZZLE_STATS_SIZE_V1, sizeof(qubo_puzzle_stats));
	cr_assert_leq(QUBO_PUZZLE_PROGRESS_SIZE_V1, sizeof(qubo_puzzle_progress));
	cr_assert_leq(QUBO_PUZZLE_QUEENS_SPEC_SIZE_V1, sizeof(qubo_puzzle_queens_spec));
	cr_assert_leq(QUBO_PUZZLE_CHESS_SPEC_SIZE_V1, sizeof(qubo_puzzle_chess_spec));
	cr_assert_leq(QUBO_PUZZLE_DOMINATION_SPEC_SIZE_V1, sizeof(qubo_puzzle_domination_spec));
	if (sizeof(void *) == 8 && sizeof(size_t) == 8) {
		cr_assert_eq(QUBO_PUZZLE_OPTIONS_SIZE_V1, 40);
		cr_assert_eq(QUBO_PUZZLE_STATS_SIZE_V1, 68);
		cr_assert_eq(QUBO_PUZZLE_PROGRESS_SIZE_V1, 80);
		cr_assert_eq(QUBO_PUZZLE_QUEENS_SPEC_SIZE_V1, 152);
		cr_assert_eq(QUBO_PUZZLE_CHESS_SPEC_SIZE_V1, 96);
		cr_assert_eq(QUBO_PUZZLE_DOMINATION_SPEC_SIZE_V1, 52);
	}
}

/* ---- qubo_puzzle_options (input), and the allocator it carries ---- */

static int use_options(void *ctx, const void *in)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, in);

	(void)ctx;
	qubo_puzzle_free(p);
	return rc;
}

Test(puzzle_structs, options)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	tu_failalloc fa;

	tu_failalloc_init(&fa, 0);
	o.reduce = QUBO_REDUCE_NONE;
	o.penalty = 2.0;
	o.allocator = &fa.a;
	ts_input_rule(use_options, NULL, &o, sizeof o, QUBO_PUZZLE_OPTIONS_SIZE_V1,
		      "qubo_puzzle_options", "qubo_puzzle_parse");
	cr_assert_gt(fa.count, 0, "the options' allocator was used");
	cr_assert_eq(fa.live, 0);
}

/* An older caller's options are read, not just accepted: the same model
 * as from the current layout, and not the default one. */
Test(puzzle_structs, options_at_v1_are_read)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0, 0 }, ref = st, dflt = st;
	qubo_puzzle *p = NULL;
	ts_buf buf;

	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, &dflt), QUBO_OK);
	qubo_puzzle_free(p);
	o.reduce = QUBO_REDUCE_NONE;
	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, &o), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, &ref), QUBO_OK);
	qubo_puzzle_free(p);
	cr_assert_neq(ref.variables_after, dflt.variables_after);

	memset(buf.b, TS_POISON, sizeof buf.b);
	memcpy(buf.b, &o, QUBO_PUZZLE_OPTIONS_SIZE_V1);
	ts_set_size(&buf, QUBO_PUZZLE_OPTIONS_SIZE_V1);
	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1,
				       (const qubo_puzzle_options *)(const void *)buf.b),
		     QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(st.variables_after, ref.variables_after);
	cr_assert_eq(st.cells_fixed, ref.cells_fixed);
	qubo_puzzle_free(p);
}

static int use_options_allocator(void *ctx, const void *in)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;
	int rc;

	(void)ctx;
	o.allocator = in;
	rc = qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, &o);
	qubo_puzzle_free(p);
	return rc;
}

/* The allocator check runs in libqubo-puzzle's copy of the helpers; its
 * message is libqubo's, word for word, and qubo_error_message() sees it. */
Test(puzzle_structs, allocator)
{
	tu_failalloc fa;

	tu_failalloc_init(&fa, 0);
	ts_input_rule(use_options_allocator, NULL, &fa.a, sizeof fa.a, QUBO_ALLOCATOR_SIZE_V1,
		      "qubo_allocator", "qubo_puzzle_parse");
	cr_assert_eq(qubo_error_code(), QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert_eq(fa.live, 0);
}

/* ---- qubo_puzzle_stats (output) ---- */

static int fill_stats(void *ctx, void *out)
{
	return qubo_puzzle_get_stats(ctx, out);
}

Test(puzzle_structs, stats)
{
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, NULL), QUBO_OK);
	ts_output_rule(fill_stats, p, sizeof(qubo_puzzle_stats), QUBO_PUZZLE_STATS_SIZE_V1,
		       "qubo_puzzle_stats", "qubo_puzzle_get_stats");
	qubo_puzzle_free(p);
}

/* ---- the specs (input) ---- */

static int use_queens(void *ctx, const void *in)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_queens_new(&p, in, NULL);

	(void)ctx;
	qubo_puzzle_free(p);
	return rc;
}

Test(puzzle_structs, queens_spec)
{
	static const int32_t ones[4] = { 1, 1, 1, 1 };
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	int d;

	/* 4-Queens */
	s.width = s.height = 4;
	s.row_counts = ones;
	s.col_counts = ones;
	for (d = 0; d < 8; d++)
		s.reach[d] = d % 2 ? QUBO_PUZZLE_QUEENS_UNLIMITED : 0;
	cr_assert_eq(use_queens(NULL, &s), QUBO_OK, "%s", qubo_error_message());
	ts_input_rule(use_queens, NULL, &s, sizeof s, QUBO_PUZZLE_QUEENS_SPEC_SIZE_V1,
		      "qubo_puzzle_queens_spec", "qubo_puzzle_queens_new");
}

static int use_chess(void *ctx, const void *in)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_chess_new(&p, in, NULL);

	(void)ctx;
	qubo_puzzle_free(p);
	return rc;
}

Test(puzzle_structs, chess_spec)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;

	s.width = s.height = 3;
	ts_input_rule(use_chess, NULL, &s, sizeof s, QUBO_PUZZLE_CHESS_SPEC_SIZE_V1,
		      "qubo_puzzle_chess_spec", "qubo_puzzle_chess_new");
}

static int use_domination(void *ctx, const void *in)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_domination_new(&p, in, NULL);

	(void)ctx;
	qubo_puzzle_free(p);
	return rc;
}

Test(puzzle_structs, domination_spec)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;

	s.width = s.height = 4;
	ts_input_rule(use_domination, NULL, &s, sizeof s, QUBO_PUZZLE_DOMINATION_SPEC_SIZE_V1,
		      "qubo_puzzle_domination_spec", "qubo_puzzle_domination_new");
}

/* The out-struct initialisers: the caller's size and every other field
 * zero, accepted as they are by the calls that fill them. */
Test(puzzle_structs, out_struct_inits)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_stats st = QUBO_PUZZLE_STATS_INIT;
	qubo_puzzle_cell cell = QUBO_PUZZLE_CELL_INIT;
	qubo_puzzle_result r = QUBO_PUZZLE_RESULT_INIT;
	qubo_puzzle_count_result c = QUBO_PUZZLE_COUNT_RESULT_INIT;
	uint8_t board[16];

	cr_assert_eq(st.struct_size, sizeof st);
	cr_assert_eq(st.width + st.height + st.variables_before + st.couplers_before +
			     st.variables_after + st.couplers_after + st.cells_fixed,
		     0);
	cr_assert_eq(st.solved_by_reduction, 0);
	cr_assert_eq(cell.struct_size, sizeof cell);
	cr_assert(cell.on_board == 0 && cell.region == 0 && cell.given == 0 && cell.piece == 0 &&
		  cell.literal == 0);
	cr_assert_eq(r.struct_size, sizeof r);
	cr_assert(r.verdict == 0 && r.has_board == 0 && r.has_energy == 0 && r.reserved == 0 &&
		  r.violations == 0 && r.energy == 0.0 && r.method == NULL && r.rounds == 0 &&
		  r.reads == 0 && r.sweeps_first == 0 && r.sweeps_last == 0 && r.seed == 0 &&
		  r.nodes == 0 && r.seconds == 0.0);
	cr_assert_eq(c.struct_size, sizeof c);
	cr_assert(c.complete == 0 && c.optimal_only == 0 && c.count == 0 && c.energy == 0.0 &&
		  c.method == NULL && c.nodes == 0 && c.seconds == 0.0);

	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(st.width, 4);
	cr_assert_eq(qubo_puzzle_get_cell(p, 0, 0, &cell), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(cell.on_board, 1);
	cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, &r), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED);
	cr_assert_eq(qubo_puzzle_count(p, NULL, &c), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(c.count, 1);
	qubo_puzzle_free(p);
}
