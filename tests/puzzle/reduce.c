/* White-box tests of the queens reduction (links the static library for
 * the hidden per-rule counters): every propagation rule fires on the random
 * instances, and every instance where it fired is still exact by brute
 * force. Each rule is also shown on a hand-made instance. */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_puzzle_parse_cells is tested until it is removed */
#include "puzzle/helpers.h"
#include "queens_impl.h"

static qubo_puzzle *build(ph_inst *I, int32_t reduce, int *rc_out)
{
	qubo_puzzle_queens_spec s;
	qubo_puzzle_options o;
	qubo_puzzle *p = NULL;

	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.reduce = reduce;
	ph_spec(I, &s);
	*rc_out = qubo_puzzle_queens_new(&p, &s, &o);
	return p;
}

/* Cells fixed at CLUES keep their values at FULL, and FULL fixes at least
 * as many. */
static void clues_within_full(ph_inst *I)
{
	int rc1, rc2;
	qubo_puzzle *a = build(I, QUBO_REDUCE_CLUES, &rc1), *b = build(I, QUBO_REDUCE_FULL, &rc2);
	qubo_lit la[PH_MAX_CELLS], lb[PH_MAX_CELLS];
	size_t n = (size_t)I->w * I->h, c;

	cr_assert_eq(rc1, rc2);
	if (rc1 == QUBO_OK) {
		cr_assert_eq(qubo_puzzle_cell_literals(a, la, n), QUBO_OK);
		cr_assert_eq(qubo_puzzle_cell_literals(b, lb, n), QUBO_OK);
		for (c = 0; c < n; c++)
			if (QUBO_LIT_IS_CONST(la[c]))
				cr_assert_eq(la[c], lb[c], "cell %zu fixed differently", c);
	}
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);
}

Test(queens_reduce, every_rule_fires_and_stays_exact)
{
	tu_rng r = { 271828 };
	size_t total[QZ_NUM_RULES] = { 0 }, cnt[QZ_NUM_RULES];
	int i, k, checked[QZ_NUM_RULES] = { 0 };

	for (i = 0; i < 600; i++) {
		ph_inst I;
		qubo_puzzle *p;
		ph_set sols = { 0 };
		int rc;

		if (i % 3 == 0)
			ph_random_inst(&I, &r, 16);
		else
			ph_random_regions(&I, &r, (uint32_t)tu_range(&r, 4, 6), i % 3 == 2 ? 2 : 1,
					  (int)tu_below(&r, 2), (int)tu_range(&r, 0, 2));
		clues_within_full(&I);
		p = build(&I, QUBO_REDUCE_FULL, &rc);
		if (rc == QUBO_ERR_INFEASIBLE) {
			ph_solutions(&I, NULL, &sols);
			cr_assert_eq(sols.n, 0, "instance %d: %s", i, qubo_error_message());
			free(sols.keys);
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(qubo__pz_queens_rule_counts(p, cnt), QUBO_OK);
		ph_solutions(&I, p, &sols);
		{
			const qubo_model *m;
			cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
			if (qubo_model_num_variables(m) <= 20) {
				ph_exact(p, &sols, "reduced instance");
				for (k = 0; k < QZ_NUM_RULES; k++)
					checked[k] += cnt[k] > 0;
			}
		}
		for (k = 0; k < QZ_NUM_RULES; k++)
			total[k] += cnt[k];
		free(sols.keys);
		qubo_puzzle_free(p);
	}
	for (k = 0; k < QZ_NUM_RULES; k++) {
		if (getenv("PH_DEBUG"))
			fprintf(stderr, "rule %d: %zu cells, %d brute-forced instances\n", k,
				total[k], checked[k]);
		cr_assert_gt(total[k], 20, "rule %d fixed only %zu cells", k, total[k]);
		cr_assert_gt(checked[k], 10, "rule %d fired in only %d brute-forced instances", k,
			     checked[k]);
	}
	cr_assert_eq(qubo__pz_queens_rule_counts(NULL, cnt), QUBO_ERR_INVALID_ARG);
}

/* A 4 x 4 board, one queen per row and column, no attacks, and one region
 * {(1,1), (1,2)} needing a queen: the region lies inside row 1, so the rest
 * of row 1 is empty (SUBSET). */
Test(queens_reduce, region_inside_a_row_empties_the_row)
{
	ph_inst I;
	qubo_puzzle *p;
	size_t cnt[QZ_NUM_RULES];
	qubo_lit lits[16];
	ph_set sols = { 0 };
	int rc, c;

	memset(&I, 0, sizeof I);
	I.w = I.h = 4;
	I.has_rows = I.has_cols = 1;
	for (c = 0; c < 4; c++)
		I.rows[c] = I.cols[c] = 1;
	I.nreg = 1;
	I.in_reg[0][0] = I.in_reg[0][1] = 1;
	I.q[0] = 1;
	ph_prepare(&I);
	p = build(&I, QUBO_REDUCE_FULL, &rc);
	cr_assert_eq(rc, QUBO_OK);
	cr_assert_eq(qubo__pz_queens_rule_counts(p, cnt), QUBO_OK);
	cr_assert_eq(cnt[QZ_RULE_SUBSET], 2);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
	cr_assert_eq(lits[2], QUBO_LIT_FALSE);
	cr_assert_eq(lits[3], QUBO_LIT_FALSE);
	cr_assert(!QUBO_LIT_IS_CONST(lits[0]));
	ph_solutions(&I, p, &sols);
	cr_assert_eq(sols.n, 12); /* 2 choices in row 1, then 3! */
	ph_exact(p, &sols, "subset");
	free(sols.keys);
	qubo_puzzle_free(p);
}

/* A queen on a cell would take both cells of a two-cell region through its
 * row and a diagonal attack: PROBE empties that cell. 3 x 3, rows and
 * columns unconstrained, region {(2,1), (2,3)} needs exactly one, and
 * region {(1,2), (2,2)} may hold 0 or 1; attacks only diagonal, distance 1. */
Test(queens_reduce, probe_finds_a_cell_that_would_empty_a_region)
{
	ph_inst I;
	qubo_puzzle *p;
	size_t cnt[QZ_NUM_RULES];
	ph_set sols = { 0 };
	int rc, d;

	memset(&I, 0, sizeof I);
	I.w = I.h = 3;
	I.nreg = 1;
	I.in_reg[0][3] = I.in_reg[0][5] = 1;
	I.q[0] = 1;
	for (d = 1; d < 8; d += 2)
		I.reach[d] = 1;
	ph_prepare(&I);
	/* a queen at (1,2) attacks (2,1) and (2,3): the region would be empty */
	p = build(&I, QUBO_REDUCE_FULL, &rc);
	cr_assert_eq(rc, QUBO_OK);
	cr_assert_eq(qubo__pz_queens_rule_counts(p, cnt), QUBO_OK);
	cr_assert_geq(cnt[QZ_RULE_PROBE], 2, "probe fixed %zu", cnt[QZ_RULE_PROBE]);
	ph_solutions(&I, p, &sols);
	ph_exact(p, &sols, "probe");
	free(sols.keys);
	qubo_puzzle_free(p);
}

/* qubo_puzzle_parse_cells gives the cell map of qubo_puzzle_parse, or its
 * status, at every level, on random region puzzles (many of them
 * contradictory), an N-Queens board, a chess and a domination board. */
Test(queens_reduce, parse_cells_matches_parse)
{
	static const char *const others[] = { "queens 4\naabb\nacbB\ndccb\nddc.\n", "nqueens 5\n",
					      "domination 4\n",
					      "chess 3x2 max\nQN.\n..K\n" };
	tu_rng r = { 4242 };
	qubo_lit la[PH_MAX_CELLS + 1], lb[PH_MAX_CELLS + 1];
	char text[1024];
	int i, level, infeasible = 0;
	size_t k;

	for (i = 0; i < 300; i++) {
		ph_inst I;
		int32_t stars = i % 3 == 2 ? 2 : 1;
		size_t len;

		ph_random_regions(&I, &r, (uint32_t)tu_range(&r, 4, 6), stars, (int)tu_below(&r, 2),
				  (int)tu_range(&r, 0, 3));
		len = ph_queens_text(&I, stars, text, sizeof text);
		for (level = QUBO_REDUCE_NONE; level <= QUBO_REDUCE_FULL; level++) {
			qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
			qubo_puzzle *p = NULL;
			size_t n = (size_t)I.w * I.h, c;
			int rc1, rc2;

			o.reduce = level;
			rc1 = qubo_puzzle_parse(&p, text, len, &o);
			rc2 = qubo_puzzle_parse_cells(text, len, &o, lb, n);
			cr_assert_eq(rc2, rc1, "instance %d, level %d: %s", i, level,
				     qubo_error_message());
			infeasible += rc1 == QUBO_ERR_INFEASIBLE;
			if (rc1 == QUBO_OK) {
				cr_assert_eq(qubo_puzzle_cell_literals(p, la, n), QUBO_OK);
				for (c = 0; c < n; c++)
					cr_assert_eq(la[c], lb[c], "instance %d, level %d, cell %zu",
						     i, level, c);
			}
			qubo_puzzle_free(p);
		}
	}
	cr_assert_gt(infeasible, 10, "too few contradictory instances (%d)", infeasible);
	for (k = 0; k < sizeof others / sizeof others[0]; k++) {
		qubo_puzzle *p = NULL;
		qubo_puzzle_stats st;
		size_t n;

		memset(&st, 0, sizeof st);
		st.struct_size = sizeof st;
		cr_assert_eq(qubo_puzzle_parse(&p, others[k], strlen(others[k]), NULL), QUBO_OK);
		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		n = st.width * st.height;
		cr_assert_eq(qubo_puzzle_cell_literals(p, la, n), QUBO_OK);
		cr_assert_eq(qubo_puzzle_parse_cells(others[k], strlen(others[k]), NULL, lb, n),
			     QUBO_OK, "%s", others[k]);
		cr_assert_eq(memcmp(la, lb, n * sizeof *la), 0, "%s", others[k]);
		cr_assert_eq(qubo_puzzle_parse_cells(others[k], strlen(others[k]), NULL, lb, n - 1),
			     QUBO_ERR_BUFFER_TOO_SMALL);
		qubo_puzzle_free(p);
	}
	cr_assert_eq(qubo_puzzle_parse_cells(NULL, 3, NULL, lb, 4), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_parse_cells("queens 2\n", 9, NULL, NULL, 4), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_parse_cells("queens 2\nab\n", 12, NULL, lb, 4), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3);
}
