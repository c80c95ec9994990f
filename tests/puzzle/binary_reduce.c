/* White-box figures of the binary families' FULL reduction
 * (qubo__pz_binary_rule_counts): the cells each propagation rule fixed add
 * up to the puzzle's cells_fixed, the clues are the GIVEN ones, and small
 * boards built to need one rule show it; the deprecated
 * qubo_puzzle_parse_cells() gives the cell map of qubo_puzzle_parse(). */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_puzzle_parse_cells is tested until it is removed */
#include <dirent.h>

#include "puzzle/binary_oracle.h"
#include "binary_impl.h"

static void counts_of(const qubo_puzzle *p, size_t counts[BN_NUM_RULES])
{
	cr_assert_eq(qubo__pz_binary_rule_counts(p, counts), QUBO_OK);
}

/* The rule counts against the stats: they sum to the cells the FULL
 * reduction fixed, and GIVEN to the clues. */
static void check_sums(const qubo_puzzle *p, size_t clues, const char *what)
{
	size_t counts[BN_NUM_RULES], sum = 0, k;
	qubo_puzzle_stats st;

	counts_of(p, counts);
	for (k = 0; k < BN_NUM_RULES; k++)
		sum += counts[k];
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(sum, st.cells_fixed, "%s: rules fixed %zu cells, cells_fixed %zu", what, sum,
		     st.cells_fixed);
	cr_assert_eq(counts[BN_RULE_GIVEN], clues, "%s: GIVEN %zu, clues %zu", what,
		     counts[BN_RULE_GIVEN], clues);
	cr_assert_eq(st.solved_by_reduction, st.cells_fixed == st.width * st.height, "%s", what);
}

static size_t count_clues(const char *text)
{
	const char *s = text;
	size_t n = 0;

	while (*s == '#') /* comments */
		s = strchr(s, '\n') + 1;
	s = strchr(s, '\n') + 1; /* the header */
	for (; *s; s++)
		n += *s == '0' || *s == '1';
	return n;
}

static qubo_puzzle *parse_full(const char *text)
{
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s\n%s",
		     qubo_error_message(), text);
	return p;
}

/* Boards built for one rule each. */
Test(binary_reduce, each_rule_shows)
{
	static const struct {
		const char *text;
		int rule;
		size_t at_least;
	} cases[] = {
		/* a row with its two ones: COUNT fixes the other two */
		{ "takuzu 4 nounique\n1.1.\n....\n....\n....\n", BN_RULE_COUNT, 2 },
		/* two equal neighbours: WINDOW fixes both ends */
		{ "takuzu 6 nounique\n......\n..00..\n......\n......\n......\n......\n",
		  BN_RULE_WINDOW, 2 },
		/* a sign to a clue: PARITY */
		{ "tango 4\n0=.x. .\n\n. . . .\n\n. . . .\n\n. . . .\n", BN_RULE_PARITY, 2 },
		/* row 2 = 01.. next to the complete row 0110: DISTINCT makes it 0101 */
		{ "takuzu 4\n0110\n01..\n....\n....\n", BN_RULE_DISTINCT, 2 },
	};
	size_t i, counts[BN_NUM_RULES];

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		qubo_puzzle *p = parse_full(cases[i].text);

		counts_of(p, counts);
		cr_assert_geq(counts[cases[i].rule], cases[i].at_least,
			      "case %zu: rule %d fixed %zu cells", i, cases[i].rule,
			      counts[cases[i].rule]);
		check_sums(p, count_clues(cases[i].text), cases[i].text);
		qubo_puzzle_free(p);
	}
	/* the same DISTINCT board without the rule: nothing for DISTINCT, and
	 * row 2 stays open */
	{
		qubo_puzzle *p = parse_full("takuzu 4 nounique\n0110\n01..\n....\n....\n");
		qubo_lit lits[16];

		counts_of(p, counts);
		cr_assert_eq(counts[BN_RULE_DISTINCT], 0);
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
		cr_assert(!QUBO_LIT_IS_CONST(lits[6]) && !QUBO_LIT_IS_CONST(lits[7]));
		qubo_puzzle_free(p);
	}
	/* another family is refused */
	{
		qubo_puzzle *p = parse_full("queens 4\naabb\nacbB\ndccb\nddc.\n");
		cr_assert_eq(qubo__pz_binary_rule_counts(p, counts), QUBO_ERR_INVALID_ARG);
		cr_assert_eq(qubo__pz_binary_rule_counts(NULL, counts), QUBO_ERR_INVALID_ARG);
		qubo_puzzle_free(p);
	}
}

/* Random spec-built instances: the sums, and the FULL reduction keeps every
 * solution of the oracle (its constants agree with each). */
Test(binary_reduce, random_sums_and_soundness)
{
	tu_rng r = { 8128 };
	int i, trials = bo_valgrind() ? 40 : 200, built = 0;

	for (i = 0; i < trials; i++) {
		bo_inst I;
		uint8_t x[BO_MAX_CELLS];
		qubo_puzzle_binary_spec s;
		qubo_puzzle *p = NULL;
		ph_set sols = { 0 };
		qubo_lit lits[BO_MAX_CELLS];
		size_t c, k, clues = 0;
		uint32_t w = 2 * (uint32_t)tu_range(&r, 1, 3), h = 2 * (uint32_t)tu_range(&r, 1, 3);

		bo_init(&I, w, h);
		/* two columns of 01 / 10 cannot make more than two distinct rows */
		I.distinct = tu_below(&r, 2) && (w == h || (w >= 4 && h >= 4));
		bo_prepare(&I);
		if (!bo_random_solution(&I, &r, x))
			continue;
		if (tu_below(&r, 2))
			bo_signs_from(&I, x, &r, (size_t)tu_range(&r, 0, 8), (int)tu_below(&r, 2), 0);
		bo_clues_from(&I, x, &r, (int)tu_range(&r, 2, 6), 0);
		for (c = 0; c < bo_cells(&I); c++)
			clues += I.clue[c] >= 0;
		bo_spec(&I, &s);
		cr_assert_eq(qubo_puzzle_binary_new(&p, &s, NULL), QUBO_OK, "%s",
			     qubo_error_message());
		check_sums(p, clues, "random");
		cr_assert_geq(bo_solutions(&I, &sols, 0), 1);
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, bo_cells(&I)), QUBO_OK);
		for (k = 0; k < sols.n; k++)
			for (c = 0; c < bo_cells(&I); c++)
				if (QUBO_LIT_IS_CONST(lits[c]))
					cr_assert_eq((sols.keys[k] >> c) & 1, lits[c] == QUBO_LIT_TRUE,
						     "instance %d: cell %zu fixed against a solution", i,
						     c);
		free(sols.keys);
		qubo_puzzle_free(p);
		built++;
	}
	cr_assert_geq(built, trials * 3 / 4, "only %d of %d built", built, trials);
}

/* The shared collection: the sums for every file, and the deprecated
 * qubo_puzzle_parse_cells() gives qubo_puzzle_parse()'s cell map. */
Test(binary_reduce, shared_collection_figures)
{
	const char *root = getenv("QUBO_PUZZLES_DIR");
	static const char *families[2] = { "takuzu", "tango" };
	size_t f, files = 0, by_rule[BN_NUM_RULES] = { 0 };

	if (!root || !*root)
		cr_skip_test("QUBO_PUZZLES_DIR is not set: no shared puzzles to read");
	for (f = 0; f < 2; f++) {
		char dir[1024], path[1400];
		DIR *d;
		struct dirent *ent;
		size_t seen = 0;

		snprintf(dir, sizeof dir, "%s/%s", root, families[f]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((ent = readdir(d))) {
			size_t len = strlen(ent->d_name), n, k, counts[BN_NUM_RULES];
			qubo_lit la[256], lb[256];
			qubo_puzzle *p;
			FILE *fp;
			char text[4096];

			if (len < 5 || strcmp(ent->d_name + len - 4, ".txt") != 0)
				continue;
			if (bo_valgrind() && seen++ % 10)
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
			fp = fopen(path, "rb");
			cr_assert(fp, "%s", path);
			n = fread(text, 1, sizeof text - 1, fp);
			fclose(fp);
			text[n] = '\0';
			p = parse_full(text);
			check_sums(p, count_clues(text), ent->d_name);
			counts_of(p, counts);
			for (k = 0; k < BN_NUM_RULES; k++)
				by_rule[k] += counts[k];
			{
				qubo_puzzle_stats st;
				memset(&st, 0, sizeof st);
				st.struct_size = sizeof st;
				cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
				k = st.width * st.height;
			}
			cr_assert_leq(k, 256);
			cr_assert_eq(qubo_puzzle_cell_literals(p, la, k), QUBO_OK);
			cr_assert_eq(qubo_puzzle_parse_cells(text, n, NULL, lb, k), QUBO_OK, "%s: %s",
				     ent->d_name, qubo_error_message());
			cr_assert_eq(memcmp(la, lb, k * sizeof la[0]), 0, "%s: parse_cells differs",
				     ent->d_name);
			qubo_puzzle_free(p);
			files++;
		}
		closedir(d);
	}
	if (files == 0)
		cr_skip_test("no shared takuzu or tango puzzles under %s", root);
	fprintf(stderr,
		"[binary_reduce] %zu files: cells fixed by GIVEN %zu, PARITY %zu, COUNT %zu, "
		"WINDOW %zu, DISTINCT %zu\n",
		files, by_rule[BN_RULE_GIVEN], by_rule[BN_RULE_PARITY], by_rule[BN_RULE_COUNT],
		by_rule[BN_RULE_WINDOW], by_rule[BN_RULE_DISTINCT]);
	cr_assert_gt(by_rule[BN_RULE_PARITY], 0);
	cr_assert_gt(by_rule[BN_RULE_COUNT], 0);
	cr_assert_gt(by_rule[BN_RULE_WINDOW], 0);
	if (!bo_valgrind()) /* 30 cells of the 750 files: not in every 10th */
		cr_assert_gt(by_rule[BN_RULE_DISTINCT], 0);
}

/* On a board of one row the LINE rule sees every rule (the columns hold a
 * cell each, without a count), so the FULL reduction fixes exactly the
 * cells on which all solutions agree, and finds that there is none when
 * there is none: against the oracle, on rows of up to 16 cells with
 * counts, clues, signs between any two cells and windows across the
 * wrapped edge. */
Test(binary_reduce, line_rule_is_exact_on_a_row)
{
	tu_rng r = { 4107 };
	int i, trials = bo_valgrind() ? 150 : 1500, feasible = 0, infeasible = 0;

	for (i = 0; i < trials; i++) {
		uint32_t w = (uint32_t)tu_range(&r, 3, 16), c;
		bo_inst I;
		uint8_t x[BO_MAX_CELLS];
		qubo_puzzle_binary_spec s;
		qubo_puzzle *p = NULL;
		qubo_lit lits[BO_MAX_CELLS];
		ph_set sols = { 0 };
		int rc;
		size_t k;

		bo_init(&I, w, 1);
		I.has_cols = 1;
		for (c = 0; c < w; c++)
			I.cols[c] = -1;
		I.has_rows = w % 2 || tu_below(&r, 2);
		I.rows[0] = tu_below(&r, 4) ? (int32_t)tu_range(&r, 0, w) : -1;
		I.wrap = tu_below(&r, 3) ? QUBO_PUZZLE_WRAP_NONE : QUBO_PUZZLE_WRAP_CYLINDER;
		bo_prepare(&I);
		for (c = 0; c < w; c++)
			x[c] = (uint8_t)tu_below(&r, 2);
		/* at most 3 signs: the LINE rule keeps every one of them */
		bo_signs_from(&I, x, &r, (size_t)tu_range(&r, 0, 3), (int)tu_below(&r, 2), 4);
		bo_clues_from(&I, x, &r, (int)tu_range(&r, 2, 8), 6);
		bo_spec(&I, &s);
		rc = qubo_puzzle_binary_new(&p, &s, NULL);
		if (bo_solutions(&I, &sols, 0) == 0) {
			cr_assert_eq(rc, QUBO_ERR_INFEASIBLE, "row %d (%u cells): %s, no solution",
				     i, w, qubo_status_name(rc));
			infeasible++;
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "row %d: %s", i, qubo_error_message());
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, w), QUBO_OK);
		for (c = 0; c < w; c++) {
			uint64_t first = (sols.keys[0] >> c) & 1;
			int same = 1;

			for (k = 1; k < sols.n && same; k++)
				same = ((sols.keys[k] >> c) & 1) == first;
			cr_assert_eq(QUBO_LIT_IS_CONST(lits[c]), same,
				     "row %d (%u cells, %zu solutions): cell %u %s", i, w, sols.n,
				     c,
				     same ? "is the same in every solution but open" :
					    "differs between solutions but is fixed");
			if (same)
				cr_assert_eq(lits[c] == QUBO_LIT_TRUE, first == 1);
		}
		free(sols.keys);
		qubo_puzzle_free(p);
		feasible++;
	}
	cr_assert_gt(feasible, trials / 4, "%d feasible rows", feasible);
	cr_assert_gt(infeasible, trials / 20, "%d infeasible rows", infeasible);
}

/* The same on rows of 17 to 64 cells, too long for the oracle's search,
 * with windows, a count and clues: a direct table over (position, the last
 * two values, the ones so far) decides which values each cell can take. */
Test(binary_reduce, line_rule_is_exact_on_long_rows)
{
	static uint8_t fw[65][3][3][65], bw[66][3][3][66];
	tu_rng r = { 6043 };
	int i, trials = bo_valgrind() ? 40 : 400, fixed_seen = 0;

	for (i = 0; i < trials; i++) {
		uint32_t w = (uint32_t)tu_range(&r, 17, 64), j;
		int32_t need = tu_below(&r, 4) ?
				       (int32_t)tu_range(&r, (int32_t)w / 3, 2 * (int32_t)w / 3) :
				       -1,
			cols[64];
		int8_t clue[64];
		qubo_puzzle_binary_spec s = QUBO_PUZZLE_BINARY_SPEC_INIT;
		qubo_puzzle *p = NULL;
		qubo_lit lits[64];
		int every = (int)tu_range(&r, 3, 12), can[64][2], any = 0, rc, a, b, v;
		uint32_t c;

		for (j = 0; j < w; j++) {
			clue[j] = tu_below(&r, (uint64_t)every) ? -1 : (int8_t)tu_below(&r, 2);
			cols[j] = -1;
		}
		/* fw[j][a][b][c]: cells 0 … j−1 set, the last two a, b (2: none),
		 * c ones; bw[j][a][b][c]: from there the rest can be set */
		memset(fw, 0, sizeof fw);
		memset(bw, 0, sizeof bw);
		fw[0][2][2][0] = 1;
		for (j = 0; j < w; j++)
			for (a = 0; a < 3; a++)
				for (b = 0; b < 3; b++)
					for (c = 0; c <= j; c++)
						for (v = 0; v < 2 && fw[j][a][b][c]; v++)
							if ((clue[j] < 0 || clue[j] == v) &&
							    !(a == v && b == v))
								fw[j + 1][b][v][c + (uint32_t)v] =
									1;
		for (a = 0; a < 3; a++)
			for (b = 0; b < 3; b++)
				for (c = 0; c <= w; c++)
					bw[w][a][b][c] = need < 0 || (int32_t)c == need;
		for (j = w; j-- > 0;)
			for (a = 0; a < 3; a++)
				for (b = 0; b < 3; b++)
					for (c = 0; c <= j; c++)
						for (v = 0; v < 2; v++)
							bw[j][a][b][c] |=
								(clue[j] < 0 || clue[j] == v) &&
								!(a == v && b == v) &&
								bw[j + 1][b][v][c + (uint32_t)v];
		for (j = 0; j < w; j++)
			for (v = 0; v < 2; v++) {
				can[j][v] = 0;
				for (a = 0; a < 3; a++)
					for (b = 0; b < 3; b++)
						for (c = 0; c <= j; c++)
							can[j][v] |=
								fw[j][a][b][c] &&
								(clue[j] < 0 || clue[j] == v) &&
								!(a == v && b == v) &&
								bw[j + 1][b][v][c + (uint32_t)v];
			}
		any = bw[0][2][2][0];
		s.width = w;
		s.height = 1;
		s.clues = clue;
		s.row_ones = &need;
		s.col_ones = cols;
		rc = qubo_puzzle_binary_new(&p, &s, NULL);
		if (!any) {
			cr_assert_eq(rc, QUBO_ERR_INFEASIBLE, "row %d (%u cells): %s, no solution",
				     i, w, qubo_status_name(rc));
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "row %d: %s", i, qubo_error_message());
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, w), QUBO_OK);
		for (j = 0; j < w; j++) {
			int same = !can[j][0] || !can[j][1];

			cr_assert(can[j][0] || can[j][1]);
			cr_assert_eq(QUBO_LIT_IS_CONST(lits[j]), same,
				     "row %d (%u cells, need %d): cell %u", i, w, (int)need, j);
			if (same)
				cr_assert_eq(lits[j] == QUBO_LIT_TRUE, can[j][1]);
			fixed_seen += same && clue[j] < 0;
		}
		qubo_puzzle_free(p);
	}
	cr_assert_gt(fixed_seen, trials, "%d open cells fixed", fixed_seen);
}

/* A row of 16 on a cylinder with signs between cells seven apart: the
 * LINE rule would have to remember 9 earlier cells at once and leaves a
 * rule out; what it fixes is still what every solution has, and some
 * cells that every solution agrees on stay open (the relaxation shows). */
Test(binary_reduce, line_rule_stays_sound_with_far_signs)
{
	tu_rng r = { 9127 };
	int i, trials = bo_valgrind() ? 30 : 300, missed = 0;

	for (i = 0; i < trials; i++) {
		bo_inst I;
		uint8_t x[BO_MAX_CELLS];
		qubo_puzzle_binary_spec s;
		qubo_puzzle *p = NULL;
		qubo_lit lits[16];
		ph_set sols = { 0 };
		uint32_t c;
		size_t k;

		bo_init(&I, 16, 1);
		I.has_cols = 1;
		for (c = 0; c < 16; c++)
			I.cols[c] = -1;
		I.wrap = QUBO_PUZZLE_WRAP_CYLINDER;
		bo_prepare(&I);
		cr_assert(bo_random_solution(&I, &r, x));
		for (c = 2; c <= 8; c++)
			bo_add_sign(&I, c, c + 7, x[c] != x[c + 7]);
		bo_clues_from(&I, x, &r, (int)tu_range(&r, 3, 8), 0);
		bo_spec(&I, &s);
		cr_assert_eq(qubo_puzzle_binary_new(&p, &s, NULL), QUBO_OK, "row %d: %s", i,
			     qubo_error_message());
		cr_assert_gt(bo_solutions(&I, &sols, 0), 0);
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
		for (c = 0; c < 16; c++) {
			int same = 1;

			for (k = 0; k < sols.n; k++) {
				same &= ((sols.keys[k] >> c) & 1) == (sols.keys[0] >> c & 1);
				if (QUBO_LIT_IS_CONST(lits[c]))
					cr_assert_eq(
						(sols.keys[k] >> c) & 1, lits[c] == QUBO_LIT_TRUE,
						"row %d: cell %u fixed against a solution", i, c);
			}
			missed += same && !QUBO_LIT_IS_CONST(lits[c]);
		}
		free(sols.keys);
		qubo_puzzle_free(p);
	}
	cr_assert_gt(missed, 0, "the relaxation never showed");
}
