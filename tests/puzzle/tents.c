/* Tents & Trees: exactness by brute force (doc/formulations.md) on random
 * small boards, planted and random, rectangular, at every reduction level,
 * through the spec and the text; qubo_puzzle_count() against the referee;
 * the relaxed model (every solution is a minimiser, and a board where two
 * trees share a tent is one too); the text form (round trips, solution
 * files, a table of bad inputs with line and column, infeasible files); the
 * spec API's checks; the rule checker's messages; the cells; the reduction
 * (white-box: its rule counters, and that propagation never loses a
 * solution); out of memory; Simon Tatham's game IDs. */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_puzzle_parse_cells, until it is removed */
#include <qubo/puzzle/tents.h>

#include "puzzle/tents_oracle.h"
#include "structs.h"
#include "tents_impl.h"

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };

static qubo_puzzle_options tt_opts(int32_t reduce, double penalty)
{
	qubo_puzzle_options o;

	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.reduce = reduce;
	o.penalty = penalty;
	return o;
}

static qubo_puzzle_stats tt_stats(const qubo_puzzle *p)
{
	qubo_puzzle_stats st;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	return st;
}

static size_t nvars(const qubo_puzzle *p)
{
	const qubo_model *m;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	return qubo_model_num_variables(m);
}

static uint64_t count_with(const qubo_puzzle *p, int32_t method)
{
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result res;

	memset(&res, 0, sizeof res);
	res.struct_size = sizeof res;
	o.method = method;
	cr_assert_eq(qubo_puzzle_count(p, &o, &res), QUBO_OK, "%s", qubo_error_message());
	cr_assert(res.complete);
	return res.count;
}

/* Every solution is among the minimisers, at the ground energy 0 (what a
 * relaxation promises). */
static void relaxation_holds(const qubo_puzzle *p, const ph_set *sols, const char *what)
{
	ph_set mins = { 0 };
	double best = ph_minimisers(p, &mins);
	size_t i, j = 0;

	if (sols->n)
		cr_assert_eq(best, 0.0, "%s: relaxed minimum %g", what, best);
	for (i = 0; i < sols->n; i++) {
		while (j < mins.n && mins.keys[j] < sols->keys[i])
			j++;
		cr_assert(j < mins.n && mins.keys[j] == sols->keys[i],
			  "%s: solution %zu is no minimiser of the relaxed model", what, i);
	}
	free(mins.keys);
}

#define ENUM_MAX 20 /* enumerate models up to 2^20 states */

/* One instance at one level, exact and relaxed, against the referee. */
static void one_instance(to_inst *I, const ph_set *sols, int32_t level, double penalty,
			 int via_text, size_t *enumerated, const char *what)
{
	qubo_puzzle_options o = tt_opts(level, penalty);
	qubo_puzzle_tents_spec s = to_spec(I, 0), sr = to_spec(I, 1);
	qubo_puzzle *p = NULL, *q = NULL;
	char text[512];
	int rc, rc2;

	if (via_text) {
		size_t len = to_text(I, text, sizeof text);
		rc = qubo_puzzle_parse(&p, text, len, &o);
	} else {
		rc = qubo_puzzle_tents_new(&p, &s, &o);
	}
	rc2 = qubo_puzzle_tents_new(&q, &sr, &o);
	cr_assert_eq(rc, rc2, "%s: exact %d, relaxed %d", what, rc, rc2);
	if (rc == QUBO_ERR_INFEASIBLE) {
		cr_assert_eq(sols->n, 0, "%s: infeasible, but the referee has %zu solutions: %s",
			     what, sols->n, qubo_error_message());
		cr_assert(strstr(qubo_error_message(), "no solution"), "%s",
			  qubo_error_message());
		cr_assert_null(p);
		return;
	}
	cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_TENTS);
	if (nvars(p) <= ENUM_MAX) {
		ph_exact(p, sols, what);
		(*enumerated)++;
		cr_assert_eq(count_with(p, QUBO_PUZZLE_COUNT_ENUMERATE), sols->n, "%s", what);
	}
	if (nvars(q) <= ENUM_MAX) {
		relaxation_holds(q, sols, what);
		cr_assert_eq(count_with(q, QUBO_PUZZLE_COUNT_ENUMERATE), sols->n, "%s", what);
	}
	cr_assert_eq(count_with(p, QUBO_PUZZLE_COUNT_SEARCH), sols->n, "%s", what);
	cr_assert_eq(count_with(q, QUBO_PUZZLE_COUNT_AUTO), sols->n, "%s", what);
	{
		qubo_puzzle_result res;
		uint8_t board[TO_MAX];

		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		cr_assert_eq(qubo_puzzle_solve(q, NULL, board, sizeof board, &res), QUBO_OK, "%s",
			     qubo_error_message());
		cr_assert_eq(res.verdict, sols->n ? QUBO_PUZZLE_SOLVED : QUBO_PUZZLE_INFEASIBLE,
			     "%s: relaxed puzzle, verdict %d", what, res.verdict);
		if (sols->n)
			cr_assert(to_valid(I, board), "%s", what);
	}
	qubo_puzzle_free(p);
	qubo_puzzle_free(q);
}

static void random_boards(uint64_t seed, int planted, int trials)
{
	tu_rng r = { seed };
	size_t enumerated[3] = { 0, 0, 0 }, with_solutions = 0;
	int t, k;

	/* under valgrind 40 boards: 100 planted ones take 4 s there */
	if (valgrind_run())
		trials /= 30;
	for (t = 0; t < trials; t++) {
		to_inst I;
		ph_set sols = { 0 };
		char what[96];
		static const double penalties[3] = { 0.0, 2.0, 0.5 };

		to_random(&I, &r, 25, planted);
		to_solutions(&I, &sols);
		with_solutions += sols.n > 0;
		for (k = 0; k < 3; k++) {
			snprintf(what, sizeof what, "seed %llu, trial %d, %ux%u, level %d",
				 (unsigned long long)seed, t, (unsigned)I.w, (unsigned)I.h,
				 (int)levels[k]);
			one_instance(&I, &sols, levels[k], penalties[tu_below(&r, 3)],
				     (int)tu_below(&r, 2), &enumerated[k], what);
		}
		free(sols.keys);
	}
	if (getenv("PH_DEBUG"))
		fprintf(stderr, "seed %llu: %d boards, %zu with solutions, enumerated %zu %zu %zu\n",
			(unsigned long long)seed, trials, with_solutions, enumerated[0],
			enumerated[1], enumerated[2]);
	/* the sizes were chosen so that every level is enumerated often (most
	 * unplanted boards are refused as infeasible) */
	cr_assert_geq(enumerated[0], (size_t)trials / (planted ? 4 : 12),
		      "NONE enumerated %zu times", enumerated[0]);
	cr_assert_geq(enumerated[2], (size_t)trials / (planted ? 2 : 12),
		      "FULL enumerated %zu times", enumerated[2]);
	if (planted == 1)
		cr_assert_eq(with_solutions, (size_t)trials);
}

Test(tents, exact_on_planted_boards)
{
	random_boards(1, 1, 1200);
}

Test(tents, exact_on_random_boards)
{
	random_boards(2, 0, 1200);
}

Test(tents, exact_on_boards_with_a_count_moved)
{
	random_boards(3, 2, 1200);
}

/* ---- the relaxation: two trees sharing a tent ---- */

/* The board of doc/formulations.md: the relaxed model's zero-energy board
 * with tents at a, b, c, d, where the trees at (1,1) and (1,3) share the
 * tent at (1,2) and the tree at (3,3) has two. */
static const char relax_text[] = "tents 5x3\ncols 0 2 0 1 1\nrows 2 0 2\n"
				 "T.T..\n"
				 "....T\n"
				 "..T..\n";
static const uint8_t relax_spurious[15] = { 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0 };
static const uint8_t relax_solution[15] = { 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1 };

/* The model sample of a board (cell variables only; y stays 0). */
static void board_sample(const qubo_puzzle *p, const uint8_t *board, size_t cells, uint8_t *x)
{
	qubo_lit lits[TO_MAX];
	size_t c;

	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, TO_MAX), QUBO_OK);
	for (c = 0; c < cells; c++)
		if (!QUBO_LIT_IS_CONST(lits[c]))
			x[QUBO_LIT_VAR(lits[c])] = (uint8_t)(board[c] ^ QUBO_LIT_IS_NEG(lits[c]));
}

Test(tents, relaxation_admits_shared_tents)
{
	qubo_puzzle_options none = tt_opts(QUBO_REDUCE_NONE, 0);
	qubo_puzzle_tents_spec s;
	qubo_puzzle *exact = NULL, *relaxed = NULL;
	const qubo_model *m;
	uint8_t x[32] = { 0 }, board[15];
	char rep[512];
	size_t viol = 0, nv, ny, y;
	double e, best = 1e300;
	to_inst I;
	ph_set sols = { 0 };

	/* the referee: one solution, and the spurious board breaks a rule */
	memset(&I, 0, sizeof I);
	I.w = 5;
	I.h = 3;
	I.n = 15;
	I.tree[0] = I.tree[2] = I.tree[9] = I.tree[12] = 1;
	I.cols[1] = 2;
	I.cols[3] = I.cols[4] = 1;
	I.rows[0] = I.rows[2] = 2;
	s = to_spec(&I, 1);
	to_solutions(&I, &sols);
	cr_assert_eq(sols.n, 1);
	cr_assert_eq(sols.keys[0], ph_key(relax_solution, 15));
	cr_assert_not(to_valid(&I, relax_spurious));

	/* relaxed: the spurious board has energy 0, the ground energy */
	cr_assert_eq(qubo_puzzle_tents_new(&relaxed, &s, &none), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_model(relaxed, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	cr_assert_eq(nv, 11, "the relaxed model has a variable per cell without a tree only");
	board_sample(relaxed, relax_spurious, 15, x);
	cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
	cr_assert_eq(e, 0.0, "the relaxed model puts the shared tent at %g", e);
	cr_assert_eq(qubo_puzzle_decode(relaxed, x, nv, board, 15), QUBO_OK);
	cr_assert_arr_eq(board, relax_spurious, 15);
	/* the checker rejects it, naming the tree left without a tent and
	 * the tent left without a tree */
	cr_assert_eq(qubo_puzzle_check(relaxed, board, 15, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 2, "%s", rep);
	cr_assert_str_eq(rep, "tree at row 1, column 3 cannot be paired with a tent of its own "
			      "(the tents beside it belong to other trees)\n"
			      "tent at row 3, column 4 cannot be paired with a tree of its own "
			      "(the trees beside it have other tents)\n");
	/* counting passes over it; the exact search solves it */
	cr_assert_eq(count_with(relaxed, QUBO_PUZZLE_COUNT_ENUMERATE), 1);
	{
		ph_set mins = { 0 };

		cr_assert_eq(ph_minimisers(relaxed, &mins), 0.0);
		cr_assert_gt(mins.n, 1, "the relaxed model has more minimisers than solutions");
		free(mins.keys);
	}

	/* exact: whatever the assignments y, the board costs at least P */
	cr_assert_eq(qubo_puzzle_parse(&exact, relax_text, sizeof relax_text - 1, &none), QUBO_OK,
		     "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_model(exact, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	ny = nv - 11;
	cr_assert_eq(ny, 11, "2 + 3 + 3 + 3 assignment variables");
	memset(x, 0, sizeof x);
	board_sample(exact, relax_spurious, 15, x);
	for (y = 0; y < ((size_t)1 << ny); y++) {
		size_t k;

		for (k = 0; k < ny; k++)
			x[11 + k] = (uint8_t)(y >> k & 1);
		cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
		if (e < best)
			best = e;
	}
	cr_assert_geq(best, 1.0, "the exact model gives the shared tent energy %g", best);
	cr_assert_eq(qubo_puzzle_check(exact, relax_spurious, 15, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, 2);
	ph_exact(exact, &sols, "the relaxation board, exact");
	cr_assert_lt(tt_stats(relaxed).couplers_after, tt_stats(exact).couplers_after);
	qubo_puzzle_free(exact);
	qubo_puzzle_free(relaxed);
	free(sols.keys);
}

/* Sampling a relaxed model may stop at a board that is no solution: the
 * verdict says so, with the broken rules, never a disagreement error. */
Test(tents, relaxed_sampling_is_checked)
{
	qubo_puzzle_options none = tt_opts(QUBO_REDUCE_NONE, 0);
	qubo_puzzle_tents_spec s;
	qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result res;
	qubo_puzzle *p = NULL;
	qubo_solver *ex = NULL;
	uint8_t board[15];
	to_inst I;
	int seen_spurious = 0, seed;

	memset(&I, 0, sizeof I);
	I.w = 5;
	I.h = 3;
	I.n = 15;
	I.tree[0] = I.tree[2] = I.tree[9] = I.tree[12] = 1;
	I.cols[1] = 2;
	I.cols[3] = I.cols[4] = 1;
	I.rows[0] = I.rows[2] = 2;
	s = to_spec(&I, 1);
	cr_assert_eq(qubo_puzzle_tents_new(&p, &s, &none), QUBO_OK);
	so.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
	for (seed = 1; seed <= 40; seed++) {
		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		so.seed = (uint64_t)seed;
		cr_assert_eq(qubo_puzzle_solve(p, &so, board, 15, &res), QUBO_OK, "%s",
			     qubo_error_message());
		cr_assert(res.verdict == QUBO_PUZZLE_SOLVED || res.verdict == QUBO_PUZZLE_NOT_FOUND,
			  "verdict %d", res.verdict);
		cr_assert(res.has_board);
		if (res.verdict == QUBO_PUZZLE_NOT_FOUND) {
			cr_assert_gt(res.violations, 0);
			cr_assert_not(to_valid(&I, board));
			seen_spurious = 1;
		} else {
			cr_assert(to_valid(&I, board));
		}
	}
	cr_assert(seen_spurious, "40 anneals of the relaxed model all found the solution");
	/* the exhaustive solver as the caller's solver: same rule */
	cr_assert_eq(qubo_solver_new(&ex, "exhaustive", NULL), QUBO_OK);
	so.solver = ex;
	memset(&res, 0, sizeof res);
	res.struct_size = sizeof res;
	cr_assert_eq(qubo_puzzle_solve(p, &so, board, 15, &res), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert(res.verdict == QUBO_PUZZLE_SOLVED || res.verdict == QUBO_PUZZLE_NOT_FOUND);
	qubo_solver_free(ex);
	qubo_puzzle_free(p);
}

/* ---- the text form ---- */

static const char small[] = "tents 3x2\ncols 0 1 0\nrows 1 0\nT..\n...\n";

/* doc/formats.md; Simon Tatham's 8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0 */
static const char example[] = "tents 8x8\ncols 3 0 2 2 1 1 1 2\nrows 3 0 2 1 2 0 4 0\n"
			      ".TT..T..\n...T....\n........\nT.....T.\n.....T..\n..T.....\n"
			      ".T....T.\nT......T\n";
static const char example_solution[] = "tents 8x8\ncols 3 0 2 2 1 1 1 2\n"
				       "rows 3 0 2 1 2 0 4 0\n"
				       "ATTA.TA.\n...T....\nA..A....\nT.....TA\n..A.AT..\n"
				       "..T.....\nATA..ATA\nT......T\n";

static const struct {
	const char *text;
	int status;
	size_t line, column;
	const char *needle;
} bad[] = {
	{ "tents\n", QUBO_ERR_PARSE, 1, 6, "needs the board size" },
	{ "tents 0x3\n", QUBO_ERR_PARSE, 1, 7, "between 1 and 4096" },
	{ "tents 5000\n", QUBO_ERR_TOO_LARGE, 1, 7, "the board size 5000 is above the largest" },
	{ "tents 2x3x\n", QUBO_ERR_PARSE, 1, 10, "must be a number" },
	{ "tents 3x3 big\n", QUBO_ERR_PARSE, 1, 11, "unexpected word" },
	{ "tent 2x2\n", QUBO_ERR_PARSE, 1, 1, "unknown puzzle family 'tent' (known: " },
	{ "tents 2x2\n", QUBO_ERR_PARSE, 2, 1, "ends before its 'cols' line" },
	{ "tents 2x2\nrows 1 1\n", QUBO_ERR_PARSE, 2, 1, "expected the 'cols' line" },
	{ "tents 2x2\ncols 1\n", QUBO_ERR_PARSE, 2, 7, "has 1 count, the board has 2" },
	{ "tents 2x2\ncols 1 0 1\n", QUBO_ERR_PARSE, 2, 10, "more than the board's 2 columns" },
	{ "tents 2x2\ncols 1 x\n", QUBO_ERR_PARSE, 2, 8, "count of column 2 must be a number" },
	{ "tents 2x2\ncols 1 -1\n", QUBO_ERR_PARSE, 2, 8, "must be a number, not '-1'" },
	{ "tents 2x2\ncols 1 5000\n", QUBO_ERR_PARSE, 2, 8, "between 0 and 4096" },
	{ "tents 2x2\n# c\ncols 1 0\n\nrows 1 0x\n", QUBO_ERR_PARSE, 5, 9,
	  "count of row 2 must be a number" },
	{ "tents 2x2\ncols 1 0\nrows 1\n", QUBO_ERR_PARSE, 3, 7, "has 1 count" },
	{ "tents 2x2\ncols 1 0\ncols 1 0\n", QUBO_ERR_PARSE, 3, 1, "expected the 'rows' line" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\n", QUBO_ERR_PARSE, 4, 1, "ends before its grid" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nT.\n", QUBO_ERR_PARSE, 5, 1, "ends after 1 of its 2 rows" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nTx\n..\n", QUBO_ERR_PARSE, 4, 2, "unexpected 'x' in row 1" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nA.\nT.\n", QUBO_ERR_PARSE, 4, 1,
	  "tents belong in solutions" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\n T\n..\n", QUBO_ERR_PARSE, 4, 1, "unexpected a space" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nT\n..\n", QUBO_ERR_PARSE, 4, 2,
	  "row 1 has 1 of the board's 2 columns" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nT..\n..\n", QUBO_ERR_PARSE, 4, 3, "longer than" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nT.\n\n..\n", QUBO_ERR_PARSE, 5, 1, "blank line inside" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\nT.\n# c\n..\n", QUBO_ERR_PARSE, 5, 1, "unexpected '#'" },
	{ "tents 2x2\ncols 1 0\nrows 1 0\n.T\n..\nxx\n", QUBO_ERR_PARSE, 6, 1, "after the grid" },
	/* well formed, no solution: no position, the row, column or tree named */
	{ "tents 2x2\ncols 1 1\nrows 1 0\nT.\n..\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "there is 1 tree, so as many tents, but the rows ask for 1 and the columns for 2" },
	{ "tents 2x2\ncols 1 0\nrows 3 0\nT.\n..\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "row 1 needs 3 tents, but it has only 2 cells" },
	{ "tents 2x1\ncols 0 2\nrows 1\nT.\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "column 2 needs 2 tents, but it has only 1 cell" },
	{ "tents 4x1\ncols 1 1 0 0\nrows 2\nT..T\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "row 1 needs 2 tents, but at most 1 fits there" },
	{ "tents 2x2\ncols 1 2\nrows 2 1\nT.\nTT\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "the tree at row 2, column 1 has no free cell beside it" },
	{ "tents 3x3\ncols 1 1 2\nrows 2 0 2\n.T.\nTT.\n.T.\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "column 1 needs 1 tent, but the reduction forces 2 there" },
	{ "tents 4x3\ncols 2 0 0 1\nrows 1 1 1\n..T.\nT.T.\n....\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "the tree at row 1, column 3 has no cell left for its tent" },
	{ "tents 4x4\ncols 2 1 1 2\nrows 2 1 1 2\n.TT.\n.T..\nT.T.\n..T.\n", QUBO_ERR_INFEASIBLE,
	  0, 0, "the tent at row 4, column 4 has no tree left to belong to" },
	{ "tents 3x4\ncols 0 2 1\nrows 1 1 0 1\n.T.\nT..\n...\n..T\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "touches another" },
};

Test(tents, bad_inputs)
{
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		static const int32_t lv[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES,
					       QUBO_REDUCE_FULL };
		int k;

		/* infeasibility is found whatever the level */
		for (k = 0; k < 3; k++) {
			qubo_puzzle_options o = tt_opts(lv[k], 0);
			qubo_puzzle *p = (qubo_puzzle *)&p;
			int rc = qubo_puzzle_parse(&p, bad[i].text, strlen(bad[i].text), &o);

			cr_assert_eq(rc, bad[i].status, "case %zu (%s): status %d, expected %d: %s",
				     i, bad[i].text, rc, bad[i].status, qubo_error_message());
			cr_assert_null(p, "case %zu", i);
			cr_assert(strstr(qubo_error_message(), bad[i].needle),
				  "case %zu: message '%s' lacks '%s'", i, qubo_error_message(),
				  bad[i].needle);
			cr_assert_eq(qubo_error_line(), bad[i].line, "case %zu: line %zu: %s", i,
				     qubo_error_line(), qubo_error_message());
			cr_assert_eq(qubo_error_column(), bad[i].column,
				     "case %zu: column %zu: %s", i, qubo_error_column(),
				     qubo_error_message());
		}
	}
	{
		/* the message lists the family among the known ones */
		qubo_puzzle *p = NULL;
		const char *known;

		cr_assert_eq(qubo_puzzle_parse(&p, "tent 2x2\n", 9, NULL), QUBO_ERR_PARSE);
		known = strstr(qubo_error_message(), "(known: ");
		cr_assert(known && strstr(known, " tents"), "%s", qubo_error_message());
	}
	{
		/* a NUL byte, named where it is */
		static const char nul[] = "tents 2x2\ncols 1 0\nrows 1 0\nT.\n.\0\n";
		qubo_puzzle *p = NULL;

		cr_assert_eq(qubo_puzzle_parse(&p, nul, sizeof nul - 1, NULL), QUBO_ERR_PARSE);
		cr_assert_eq(qubo_error_line(), 5);
		cr_assert_eq(qubo_error_column(), 2);
	}
}

static void round_trip(const char *text, const char *canonical)
{
	qubo_puzzle *p = NULL, *q = NULL;
	char buf[1024];
	size_t len, n;
	qubo_puzzle_stats a, b;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s: %s", text,
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &len), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format(p, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_eq(n, len);
	cr_assert_str_eq(buf, canonical);
	cr_assert_eq(qubo_puzzle_parse(&q, buf, n, NULL), QUBO_OK, "%s", qubo_error_message());
	a = tt_stats(p);
	b = tt_stats(q);
	cr_assert_eq(a.variables_before, b.variables_before);
	cr_assert_eq(a.variables_after, b.variables_after);
	cr_assert_eq(a.couplers_after, b.couplers_after);
	cr_assert_eq(qubo_puzzle_family(q), QUBO_PUZZLE_TENTS);
	qubo_puzzle_free(p);
	qubo_puzzle_free(q);
}

Test(tents, text_round_trips)
{
	round_trip(small, small);
	round_trip("# a comment\n\n  tents\t3x2  \r\n# counts\ncols 0   1\t0 \n\nrows 001 0\n"
		   "# the grid\nT..  \r\n...\n\n# after\n",
		   small);
	round_trip("tents 2\ncols 0 1\nrows 0 1\n..\nT.\n", "tents 2x2\ncols 0 1\nrows 0 1\n..\nT.\n");
	/* the example of doc/formats.md */
	round_trip(example, example);
}

Test(tents, solution_files)
{
	qubo_puzzle *p = NULL;
	static const uint8_t board[6] = { 0, 1, 0, 0, 0, 0 };
	uint8_t back[6];
	char buf[512];
	size_t n, viol = 9;

	cr_assert_eq(qubo_puzzle_parse(&p, small, sizeof small - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 6, NULL, 0, &n), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 6, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_str_eq(buf, "tents 3x2\ncols 0 1 0\nrows 1 0\nTA.\n...\n");
	cr_assert_eq(n, strlen(buf));
	cr_assert_eq(qubo_puzzle_parse_solution(p, buf, n, back, 6), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_arr_eq(back, board, 6);
	cr_assert_eq(qubo_puzzle_check(p, back, 6, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, 0);
	/* the grid alone; the count lines without the header; comments */
	memset(back, 9, sizeof back);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "TA.\n...\n", 8, back, 6), QUBO_OK);
	cr_assert_arr_eq(back, board, 6);
	{
		static const char t[] = "# solved\ncols 0 1 0\n# c\nrows 1 0\n\nTA.\n...\n# end\n";
		static const char t2[] = "tents 3x2\n# c\ncols 0 1 0\nrows 1 0\nTA.\n...\n";

		cr_assert_eq(qubo_puzzle_parse_solution(p, t, sizeof t - 1, back, 6), QUBO_OK,
			     "%s", qubo_error_message());
		cr_assert_arr_eq(back, board, 6);
		cr_assert_eq(qubo_puzzle_parse_solution(p, t2, sizeof t2 - 1, back, 6), QUBO_OK,
			     "%s", qubo_error_message());
	}
	/* a tent on a tree reads and writes back; the checker rejects it */
	cr_assert_eq(qubo_puzzle_parse_solution(p, "A..\n...\n", 8, back, 6), QUBO_OK);
	cr_assert_eq(back[0], 1);
	cr_assert_eq(qubo_puzzle_format_solution(p, back, 6, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_str_eq(buf, "tents 3x2\ncols 0 1 0\nrows 1 0\nA..\n...\n");
	cr_assert_eq(qubo_puzzle_check(p, back, 6, buf, sizeof buf, &viol), QUBO_OK);
	cr_assert_str_eq(buf, "tent at row 1, column 1 stands on a tree\n"
			      "column 1 has 1 tent, needs 0\ncolumn 2 has 0 tents, needs 1\n"
			      "tree at row 1, column 1 has no tent beside it\n");
	/* mistakes, each at its line and column */
	{
		static const struct {
			const char *text;
			size_t line, column;
			const char *needle;
		} e[] = {
			{ "T..\nT..\n", 2, 1, "the puzzle has no tree at column 1" },
			{ ".A.\n...\n", 1, 1, "row 1 has no 'T' at column 1" },
			{ "TA.\n..x\n", 2, 3, "unexpected 'x' in row 2" },
			{ "TA.\n", 2, 1, "ends after 1 of its 2 rows" },
			{ "tents 3x3\nTA.\n...\n", 1, 7, "for a 3 x 3 board" },
			{ "tents 3x2 x\nTA.\n...\n", 1, 11, "unexpected word" },
			{ "tents\nTA.\n...\n", 1, 6, "no board size" },
			{ "tents 3x2\ncols 0 1 1\nrows 1 0\nTA.\n...\n", 2, 10,
			  "gives column 3 1 tent, the puzzle 0" },
			{ "tents 3x2\ncols 0 1 0\nrows 1\nTA.\n...\n", 3, 7, "has 1 count" },
			{ "tents 3x2\ncols 0 1 0\nTA.\n...\n", 3, 1, "expected the 'rows' line" },
			{ "tents 3x2\ncols 0 1 0\nrows 1 0\n", 4, 1, "ends before the solution grid" },
			{ "TA.\n...\nA\n", 3, 1, "after the solution grid" },
		};
		size_t i;

		for (i = 0; i < sizeof e / sizeof e[0]; i++) {
			cr_assert_eq(qubo_puzzle_parse_solution(p, e[i].text, strlen(e[i].text),
								 back, 6),
				     QUBO_ERR_PARSE, "case %zu", i);
			cr_assert(strstr(qubo_error_message(), e[i].needle),
				  "case %zu: '%s' lacks '%s'", i, qubo_error_message(),
				  e[i].needle);
			cr_assert_eq(qubo_error_line(), e[i].line, "case %zu: line %zu: %s", i,
				     qubo_error_line(), qubo_error_message());
			cr_assert_eq(qubo_error_column(), e[i].column, "case %zu: column %zu: %s",
				     i, qubo_error_column(), qubo_error_message());
		}
	}
	qubo_puzzle_free(p);
}

/* A spec-built puzzle: no text form, the grid alone as its solution. */
Test(tents, spec_built_output)
{
	static const uint32_t trees[1] = { 0 };
	static const int32_t rows[2] = { 1, 0 }, cols[3] = { 0, 1, 0 };
	qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;
	static const uint8_t board[6] = { 0, 1, 0, 0, 0, 0 };
	uint8_t back[6];
	qubo_puzzle *p = NULL;
	char buf[64];
	size_t n;

	s.width = 3;
	s.height = 2;
	s.trees = trees;
	s.num_trees = 1;
	s.row_counts = rows;
	s.col_counts = cols;
	cr_assert_eq(qubo_puzzle_tents_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_TENTS);
	cr_assert_eq(qubo_puzzle_format(p, buf, sizeof buf, &n), QUBO_ERR_NOT_SUPPORTED);
	cr_assert(strstr(qubo_error_message(), "built from a spec"));
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 6, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_str_eq(buf, "TA.\n...\n");
	cr_assert_eq(qubo_puzzle_parse_solution(p, buf, n, back, 6), QUBO_OK);
	cr_assert_arr_eq(back, board, 6);
	/* the same puzzle as text builds the same model */
	{
		qubo_puzzle *q = NULL;
		qubo_puzzle_stats a = tt_stats(p), b;

		cr_assert_eq(qubo_puzzle_parse(&q, small, sizeof small - 1, NULL), QUBO_OK);
		b = tt_stats(q);
		cr_assert_eq(a.variables_before, b.variables_before);
		cr_assert_eq(a.couplers_before, b.couplers_before);
		cr_assert_eq(a.variables_after, b.variables_after);
		qubo_puzzle_free(q);
	}
	qubo_puzzle_free(p);
}

/* ---- the spec API ---- */

Test(tents, bad_specs)
{
	uint32_t trees[3] = { 0, 4, 0 };
	int32_t rows[2] = { 0, 2 }, cols[3] = { 1, 0, 1 };
	qubo_puzzle_tents_spec s0 = QUBO_PUZZLE_TENTS_SPEC_INIT, s;
	qubo_puzzle *p = (qubo_puzzle *)&p;
	qubo_puzzle_options o = tt_opts(QUBO_REDUCE_FULL, 0);
	struct {
		qubo_puzzle_tents_spec big;
		unsigned char tail[16];
	} newer;

	s0.width = 3;
	s0.height = 2;
	s0.trees = trees;
	s0.num_trees = 2;
	s0.row_counts = rows;
	s0.col_counts = cols;
	/* the base spec is valid: trees at (1,1) and (2,2), tents at (2,1)
	 * and (2,3) */
	cr_assert_eq(qubo_puzzle_tents_new(&p, &s0, NULL), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);

#define BAD(field_change, status, needle)                                                      \
	do {                                                                                     \
		s = s0;                                                                          \
		field_change;                                                                    \
		p = (qubo_puzzle *)&p;                                                           \
		cr_assert_eq(qubo_puzzle_tents_new(&p, &s, &o), status, "%s: %s", #field_change, \
			     qubo_error_message());                                              \
		cr_assert_null(p, "%s", #field_change);                                          \
		cr_assert(strstr(qubo_error_message(), needle), "%s: '%s' lacks '%s'",            \
			  #field_change, qubo_error_message(), needle);                          \
	} while (0)

	BAD(s.struct_size = 8, QUBO_ERR_UNSUPPORTED_VERSION, "qubo_puzzle_tents_spec.struct_size");
	BAD(s.width = 0, QUBO_ERR_INVALID_ARG, "both sides must be at least 1");
	BAD((s.width = 1u << 13, s.height = 1u << 12), QUBO_ERR_TOO_LARGE, "at most");
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_BOARD_CELLS);
	cr_assert_eq(qubo_error_limit_value(), 1u << 24);
	BAD(s.row_counts = NULL, QUBO_ERR_INVALID_ARG, "spec.row_counts is NULL");
	BAD(s.col_counts = NULL, QUBO_ERR_INVALID_ARG, "spec.col_counts is NULL");
	BAD(rows[1] = -1, QUBO_ERR_INVALID_ARG, "spec.row_counts[1] is -1, expected a count from 0 to 3");
	rows[1] = 2;
	BAD(cols[2] = 3, QUBO_ERR_INVALID_ARG, "spec.col_counts[2] is 3, expected a count from 0 to 2");
	cols[2] = 1;
	BAD(s.relaxed = 2, QUBO_ERR_INVALID_ARG, "spec.relaxed is 2, expected 0 (exact) or 1");
	BAD(s.relaxed = -1, QUBO_ERR_INVALID_ARG, "spec.relaxed is -1");
	BAD(s.trees = NULL, QUBO_ERR_INVALID_ARG, "spec.num_trees is 2 but spec.trees is NULL");
	BAD(s.num_trees = 7, QUBO_ERR_INVALID_ARG, "spec.num_trees is 7, the board has 6 cells");
	BAD(trees[1] = 6, QUBO_ERR_INVALID_ARG, "spec.trees[1] is 6, the board has 6 cells");
	cr_assert_eq(qubo_error_cell_row(), 0, "a cell off the board is none");
	trees[1] = 4;
	BAD(s.num_trees = 3, QUBO_ERR_INVALID_ARG, "spec.trees lists cell 0 (row 1, column 1) twice");
	/* the cell is a part of the error too */
	cr_assert_eq(qubo_error_cell_row(), 1);
	cr_assert_eq(qubo_error_cell_column(), 1);
	cr_assert_str_eq(qubo_error_function(), "qubo_puzzle_tents_new");
	/* well formed, no solution */
	BAD(rows[0] = 1, QUBO_ERR_INFEASIBLE, "the rows ask for 3 and the columns for 2");
	rows[0] = 0;
	BAD(s.num_trees = 1, QUBO_ERR_INFEASIBLE, "there is 1 tree");
	/* options */
	o.reduce = 9;
	BAD((void)0, QUBO_ERR_INVALID_ARG, "options.reduce is 9");
	o = tt_opts(0, -1.0);
	BAD((void)0, QUBO_ERR_INVALID_ARG, "options.penalty is -1");
	o = tt_opts(0, 0);
#undef BAD

	/* NULL handles */
	cr_assert_eq(qubo_puzzle_tents_new(NULL, &s0, NULL), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "out"), "%s", qubo_error_message());
	p = (qubo_puzzle *)&p;
	cr_assert_eq(qubo_puzzle_tents_new(&p, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_null(p);
	cr_assert(strstr(qubo_error_message(), "spec"), "%s", qubo_error_message());

	/* a newer caller's larger struct: a zero tail is fine, anything else
	 * is a request this library cannot honour */
	memset(&newer, 0, sizeof newer);
	newer.big = s0;
	newer.big.struct_size = sizeof newer;
	cr_assert_eq(qubo_puzzle_tents_new(&p, &newer.big, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	qubo_puzzle_free(p);
	newer.tail[3] = 1;
	cr_assert_eq(qubo_puzzle_tents_new(&p, &newer.big, NULL), QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert_null(p);
	/* the first layout's size is accepted */
	s = s0;
	s.struct_size = QUBO_PUZZLE_TENTS_SPEC_SIZE_V1;
	cr_assert_eq(qubo_puzzle_tents_new(&p, &s, NULL), QUBO_OK);
	qubo_puzzle_free(p);
}

/* The spec's size follows the rule of doc/abi.md, with its messages; its
 * first layout is pinned. */
static int use_tents(void *ctx, const void *in)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_tents_new(&p, in, NULL);

	(void)ctx;
	qubo_puzzle_free(p);
	return rc;
}

Test(tents, spec_struct_versions)
{
	static const uint32_t trees[1] = { 0 };
	static const int32_t rows[2] = { 1, 0 }, cols[3] = { 0, 1, 0 };
	qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;

	cr_assert_leq(QUBO_PUZZLE_TENTS_SPEC_SIZE_V1, sizeof(qubo_puzzle_tents_spec));
	if (sizeof(void *) == 8 && sizeof(size_t) == 8)
		cr_assert_eq(QUBO_PUZZLE_TENTS_SPEC_SIZE_V1, 52);
	s.width = 3;
	s.height = 2;
	s.trees = trees;
	s.num_trees = 1;
	s.row_counts = rows;
	s.col_counts = cols;
	cr_assert_eq(use_tents(NULL, &s), QUBO_OK, "%s", qubo_error_message());
	ts_input_rule(use_tents, NULL, &s, sizeof s, QUBO_PUZZLE_TENTS_SPEC_SIZE_V1,
		      "qubo_puzzle_tents_spec", "qubo_puzzle_tents_new");
}

/* ---- the rule checker ---- */

Test(tents, checker_messages)
{
	qubo_puzzle *p = NULL;
	char rep[1024];
	size_t viol = 0;
	static const char text[] = "tents 4x3\ncols 0 2 0 1\nrows 1 1 1\n"
				   "T...\n"
				   "..T.\n"
				   "T...\n";
	uint8_t board[12] = { 0 };

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	/* a valid board: A at (1,2), (2,4), (3,2) */
	board[1] = board[7] = board[9] = 1;
	cr_assert_eq(qubo_puzzle_check(p, board, 12, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s", rep);
	cr_assert_str_eq(rep, "");
	/* wrong counts, touching tents, tents with no tree, a tree with none */
	memset(board, 0, sizeof board);
	board[1] = board[3] = board[5] = board[11] = 1;
	cr_assert_eq(qubo_puzzle_check(p, board, 12, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_str_eq(rep, "row 1 has 2 tents, needs 1\n"
			      "column 4 has 2 tents, needs 1\n"
			      "tents at row 1, column 2 and row 2, column 2 touch\n"
			      "tree at row 3, column 1 has no tent beside it\n"
			      "tent at row 1, column 4 has no tree beside it\n"
			      "tent at row 3, column 4 has no tree beside it\n",
			 "%s", rep);
	cr_assert_eq(viol, 6);
	/* the report is cut to the capacity, the count is not */
	cr_assert_eq(qubo_puzzle_check(p, board, 12, rep, 10, &viol), QUBO_OK);
	cr_assert_eq(strlen(rep), 9);
	cr_assert_eq(viol, 6);
	/* the empty board: only counts and trees */
	memset(board, 0, sizeof board);
	cr_assert_eq(qubo_puzzle_check(p, board, 12, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 3 + 2 + 3, "%s", rep);
	qubo_puzzle_free(p);
}

/* ---- cells ---- */

Test(tents, cells)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_cell c;
	qubo_lit lits[6];
	uint32_t r, k;

	cr_assert_eq(qubo_puzzle_parse(&p, small, sizeof small - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 6), QUBO_OK);
	for (r = 0; r < 2; r++)
		for (k = 0; k < 3; k++) {
			memset(&c, 0x55, sizeof c);
			c.struct_size = sizeof c;
			cr_assert_eq(qubo_puzzle_get_cell(p, r, k, &c), QUBO_OK);
			cr_assert_eq(c.on_board, 1);
			cr_assert_eq(c.region, -1);
			cr_assert_eq(c.piece, -1);
			cr_assert_eq(c.given, r == 0 && k == 0 ? 0 : -1, "(%u,%u)", r, k);
			cr_assert_eq(c.literal, lits[r * 3 + k]);
		}
	/* the tree's literal is the constant 0; the reduction solved it */
	cr_assert_eq(lits[0], QUBO_LIT_FALSE);
	cr_assert_eq(lits[1], QUBO_LIT_TRUE);
	cr_assert_eq(qubo_puzzle_get_cell(p, 2, 0, &c), QUBO_ERR_OUT_OF_RANGE);
	qubo_puzzle_free(p);
}

/* ---- the reduction ---- */

Test(tents, reduction_levels)
{
	/* a tree in the corner of 3 x 2; the tent goes right of it */
	qubo_puzzle_stats st;
	qubo_puzzle *p = NULL;
	int i;
	/* NONE: 5 cells + 2 assignments; CLUES: the cells next to no tree and
	 * the columns without a tent are 0, leaving the cell right of the
	 * tree and its assignment; FULL: everything */
	static const size_t vars[3] = { 7, 2, 0 }, fixed[3] = { 0, 4, 5 };

	for (i = 0; i < 3; i++) {
		qubo_puzzle_options o = tt_opts(levels[i], 0);

		cr_assert_eq(qubo_puzzle_parse(&p, small, sizeof small - 1, &o), QUBO_OK);
		st = tt_stats(p);
		cr_assert_eq(st.variables_before, 7);
		cr_assert_eq(st.variables_after, vars[i], "level %d: %zu", i, st.variables_after);
		cr_assert_eq(st.cells_fixed, fixed[i], "level %d: %zu", i, st.cells_fixed);
		cr_assert_eq(st.solved_by_reduction, i == 2);
		cr_assert_leq(st.couplers_after, st.couplers_before);
		qubo_puzzle_free(p);
	}
}

/* The deprecated cells-only parse gives the cell map of the full parse. */
Test(tents, parse_cells)
{
	static const char open6[] = "tents 6x6\ncols 2 1 1 1 1 2\nrows 1 2 1 1 1 2\n"
				    "..T...\n.T..TT\nT.....\n...T..\n.....T\nT.....\n";
	qubo_lit a[36], b[36];
	int i;

	for (i = 0; i < 3; i++) {
		qubo_puzzle_options o = tt_opts(levels[i], 0);
		qubo_puzzle *p = NULL;

		cr_assert_eq(qubo_puzzle_parse(&p, open6, sizeof open6 - 1, &o), QUBO_OK);
		cr_assert_eq(qubo_puzzle_cell_literals(p, a, 36), QUBO_OK);
		cr_assert_eq(qubo_puzzle_parse_cells(open6, sizeof open6 - 1, &o, b, 36), QUBO_OK,
			     "%s", qubo_error_message());
		cr_assert_arr_eq(a, b, sizeof a);
		if (i == 2)
			cr_assert_gt(tt_stats(p).variables_after, 0, "two solutions: cells stay open");
		qubo_puzzle_free(p);
	}
}

/* White-box: the per-rule counters add up to the cells fixed, and every
 * rule fires somewhere on the example and a few random boards. */
Test(tents, reduction_rules)
{
	size_t counts[TT_NUM_RULES], total = 0, fired[TT_NUM_RULES] = { 0 }, k;
	qubo_puzzle *p = NULL;
	tu_rng r = { 77 };
	int t;

	cr_assert_eq(qubo_puzzle_parse(&p, example, sizeof example - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo__pz_tents_rule_counts(p, counts), QUBO_OK);
	for (k = 0; k < TT_NUM_RULES; k++)
		total += counts[k];
	cr_assert_eq(total, tt_stats(p).cells_fixed);
	cr_assert_eq(total, 64 - 12, "every cell but the trees");
	qubo_puzzle_free(p);
	cr_assert_eq(qubo__pz_tents_rule_counts(NULL, counts), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, NULL), QUBO_OK);
	cr_assert_eq(qubo__pz_tents_rule_counts(p, counts), QUBO_ERR_INVALID_ARG);
	qubo_puzzle_free(p);
	for (t = 0; t < 300; t++) {
		to_inst I;
		qubo_puzzle_tents_spec s;

		to_random(&I, &r, 64, 3);
		s = to_spec(&I, 0);
		if (qubo_puzzle_tents_new(&p, &s, NULL) != QUBO_OK)
			continue;
		cr_assert_eq(qubo__pz_tents_rule_counts(p, counts), QUBO_OK);
		for (total = 0, k = 0; k < TT_NUM_RULES; k++) {
			total += counts[k];
			fired[k] += counts[k] > 0;
		}
		cr_assert_eq(total, tt_stats(p).cells_fixed);
		qubo_puzzle_free(p);
	}
	if (getenv("PH_DEBUG"))
		for (k = 0; k < TT_NUM_RULES; k++)
			fprintf(stderr, "rule %zu fired on %zu boards\n", k, fired[k]);
	for (k = 0; k < TT_NUM_RULES; k++)
		cr_assert_gt(fired[k], 0, "rule %zu never fired", k);
}

/* White-box: propagation from any part of a solution keeps it (never a
 * contradiction, never a cell fixed against it), and from the whole of it
 * confirms it. */
Test(tents, propagation_keeps_solutions)
{
	tu_rng r = { 5 };
	int t, trials = valgrind_run() ? 40 : 400;

	for (t = 0; t < trials; t++) {
		to_inst I;
		ph_set sols = { 0 };
		qubo_puzzle_tents_spec s;
		qubo_puzzle *p = NULL;
		struct qubo__pz_tt_ws *ws = NULL;
		qubo_allocator a;
		size_t i, c;

		to_random(&I, &r, 30, 1);
		to_solutions(&I, &sols);
		s = to_spec(&I, 0);
		cr_assert_eq(qubo_puzzle_tents_new(&p, &s, NULL), QUBO_OK, "%s",
			     qubo_error_message());
		cr_assert_eq(qubo__alloc_init(&a, NULL, NULL), QUBO_OK);
		cr_assert_eq(qubo__pz_tt_ws_new(p->data, &a, NULL, &ws), QUBO_OK);
		for (i = 0; i < sols.n && i < 8; i++) {
			int8_t val[TO_MAX];
			int keep = (int)tu_below(&r, 5);

			for (c = 0; c < I.n; c++) {
				int v = (int)(sols.keys[i] >> c & 1);

				val[c] = (int8_t)(I.tree[c] ? -1 : (int)tu_below(&r, 5) < keep ? v : -1);
			}
			cr_assert_eq(qubo__pz_tt_propagate(ws, QUBO_REDUCE_FULL, val, 1, NULL, NULL),
				     QUBO_OK, "trial %d: a solution was lost", t);
			for (c = 0; c < I.n; c++)
				if (val[c] >= 0)
					cr_assert_eq(val[c], (int)(sols.keys[i] >> c & 1),
						     "trial %d: cell %zu fixed against a solution", t,
						     c);
			/* the whole solution propagates to itself */
			for (c = 0; c < I.n; c++)
				val[c] = (int8_t)(sols.keys[i] >> c & 1);
			cr_assert_eq(qubo__pz_tt_propagate(ws, QUBO_REDUCE_FULL, val, 1, NULL, NULL),
				     QUBO_OK);
			/* a board that is not a solution never passes the full check */
			c = (size_t)tu_below(&r, I.n);
			if (!I.tree[c]) {
				val[c] ^= 1;
				{
					uint8_t b[TO_MAX];
					size_t j;

					for (j = 0; j < I.n; j++)
						b[j] = (uint8_t)val[j];
					cr_assert_eq(qubo__pz_tt_propagate(ws, QUBO_REDUCE_FULL, val,
									   1, NULL, NULL) == QUBO_OK,
						     to_valid(&I, b), "trial %d", t);
				}
			}
		}
		qubo__pz_tt_ws_free(&a, ws);
		qubo_puzzle_free(p);
		free(sols.keys);
	}
}

/* ---- out of memory ---- */

static int build_tents(qubo_puzzle **out, const void *spec, const qubo_puzzle_options *o)
{
	return qubo_puzzle_tents_new(out, spec, o);
}

/* Out of memory at each allocation in turn (ph_oom_sweep). */
static size_t oom_sweep(const char *text, const qubo_puzzle_tents_spec *spec, int32_t reduce)
{
	return ph_oom_sweep(text, build_tents, spec, reduce);
}

Test(tents, out_of_memory_building)
{
	/* two solutions */
	static const char hard[] = "tents 6x6\ncols 2 1 1 1 1 2\nrows 1 2 1 1 1 2\n"
				   "..T...\n.T..TT\nT.....\n...T..\n.....T\nT.....\n";
	to_inst I;
	qubo_puzzle_tents_spec s;
	tu_rng r = { 3 };

	cr_assert_gt(oom_sweep(example, NULL, QUBO_REDUCE_FULL), 10);
	cr_assert_gt(oom_sweep(example, NULL, QUBO_REDUCE_CLUES), 10);
	cr_assert_gt(oom_sweep(hard, NULL, QUBO_REDUCE_NONE), 10);
	to_random(&I, &r, 25, 1);
	s = to_spec(&I, 1);
	cr_assert_gt(oom_sweep(NULL, &s, QUBO_REDUCE_FULL), 5);
	s = to_spec(&I, 0);
	cr_assert_gt(oom_sweep(NULL, &s, QUBO_REDUCE_NONE), 5);
}

/* Solving and counting under failing allocations: NOMEM or the answer,
 * the puzzle left usable, nothing leaked. */
Test(tents, out_of_memory_solving)
{
	static const char text[] = "tents 5x3\ncols 0 2 0 1 1\nrows 2 0 2\nT.T..\n....T\n..T..\n";
	size_t k, fails = 0;
	int what;

	for (what = 0; what < 3; what++) {
		for (k = 1; k < 100000; k++) {
			tu_failalloc fa;
			qubo_puzzle_options o = tt_opts(QUBO_REDUCE_NONE, 0);
			qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
			qubo_puzzle_result res;
			qubo_puzzle *p = NULL;
			uint8_t board[15];
			size_t built;
			uint64_t n = 0;
			int rc;

			tu_failalloc_init(&fa, 0);
			o.allocator = &fa.a;
			cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, &o), QUBO_OK);
			built = fa.count;
			fa.fail_at = built + k;
			memset(&res, 0, sizeof res);
			res.struct_size = sizeof res;
			if (what == 2) {
				qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
				qubo_puzzle_count_result cres;

				memset(&cres, 0, sizeof cres);
				cres.struct_size = sizeof cres;
				co.method = QUBO_PUZZLE_COUNT_SEARCH;
				rc = qubo_puzzle_count(p, &co, &cres);
				n = cres.count;
			} else {
				so.strategy = what == 0 ? QUBO_PUZZLE_STRATEGY_SEARCH
							: QUBO_PUZZLE_STRATEGY_AUTO;
				rc = qubo_puzzle_solve(p, &so, board, 15, &res);
			}
			if (rc == QUBO_ERR_NOMEM) {
				fails++;
				cr_assert(fa.failed);
			} else {
				cr_assert_eq(rc, QUBO_OK, "%d, allocation %zu: %s", what, k,
					     qubo_error_message());
				if (what == 2)
					cr_assert_eq(n, 1);
				else
					cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED);
			}
			/* the puzzle still works */
			fa.fail_at = 0;
			memset(&res, 0, sizeof res);
			res.struct_size = sizeof res;
			so.strategy = QUBO_PUZZLE_STRATEGY_SEARCH;
			cr_assert_eq(qubo_puzzle_solve(p, &so, board, 15, &res), QUBO_OK);
			cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED);
			qubo_puzzle_free(p);
			cr_assert_eq(fa.live, 0, "%d, allocation %zu: %zu blocks leaked", what, k,
				     fa.live);
			if (rc != QUBO_ERR_NOMEM && !fa.failed)
				break;
		}
	}
	cr_assert_gt(fails, 5);
}

/* ---- Simon Tatham's game IDs ---- */

Test(tents, game_ids)
{
	static const char *const ids[] = {
		"8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0",
		"tents:8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0",
		"# a game ID on its own line\n  8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0\n",
	};
	size_t i;

	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		qubo_puzzle *p = NULL, *q = NULL;
		qubo_puzzle_result res;
		uint8_t board[64], want[64];
		char buf[512];
		size_t n, viol = 1;

		cr_assert_eq(qubo_puzzle_parse(&p, ids[i], strlen(ids[i]), NULL), QUBO_OK, "%s: %s",
			     ids[i], qubo_error_message());
		cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_TENTS);
		/* it is the puzzle of doc/formats.md */
		cr_assert_eq(qubo_puzzle_format(p, buf, sizeof buf, &n), QUBO_OK);
		cr_assert_str_eq(buf, example);
		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, &res), QUBO_OK);
		cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED);
		cr_assert_eq(qubo_puzzle_check(p, board, 64, NULL, 0, &viol), QUBO_OK);
		cr_assert_eq(viol, 0);
		cr_assert_eq(qubo_puzzle_parse_solution(p, example_solution,
							sizeof example_solution - 1, want, 64),
			     QUBO_OK, "%s", qubo_error_message());
		cr_assert_arr_eq(board, want, 64);
		cr_assert_eq(count_with(p, QUBO_PUZZLE_COUNT_AUTO), 1);
		/* at NONE the whole model is there, and unique too */
		{
			qubo_puzzle_options o = tt_opts(QUBO_REDUCE_NONE, 0);

			cr_assert_eq(qubo_puzzle_parse(&q, ids[i], strlen(ids[i]), &o), QUBO_OK);
			cr_assert_eq(tt_stats(q).variables_after, 52 + 38);
			cr_assert_eq(count_with(q, QUBO_PUZZLE_COUNT_AUTO), 1);
			qubo_puzzle_free(q);
		}
		qubo_puzzle_free(p);
	}
	/* a malformed ID is a parse error at its position */
	{
		static const char id[] = "8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,9,0";
		qubo_puzzle *p = NULL;

		cr_assert_eq(qubo_puzzle_parse(&p, id, sizeof id - 1, NULL), QUBO_ERR_PARSE);
		cr_assert_eq(qubo_error_line(), 1);
		cr_assert_eq(qubo_error_column(), 47);
	}
}
