/* The queens family: exactness by brute force (doc/formulations.md) for every
 * variant and option, N-Queens ground-state counts, the rule checker, and
 * infeasible instances. */
#include <float.h>

#include "puzzle/helpers.h"

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };

static qubo_puzzle_options opts_for(int32_t reduce, double penalty, int32_t drop)
{
	qubo_puzzle_options o;

	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.reduce = reduce;
	o.penalty = penalty;
	o.drop_region = drop;
	return o;
}

static size_t num_vars(const qubo_puzzle *p)
{
	const qubo_model *m;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	return qubo_model_num_variables(m);
}

/* Counts the zero-energy states of an N-Queens model by enumeration. */
static size_t nqueens_count(const char *text, ph_set *mins)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_options o = opts_for(QUBO_REDUCE_NONE, 1, 0);
	double best, ground;
	size_t i;
	uint8_t board[PH_MAX_CELLS];

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK, "%s: %s", text,
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
	cr_assert_eq(ground, 0.0);
	best = ph_minimisers(p, mins);
	if (best != ground) {
		qubo_puzzle_free(p);
		return 0;
	}
	/* every ground state is a valid board for the checker */
	for (i = 0; i < mins->n; i++) {
		qubo_puzzle_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0, 0 };
		size_t c, viol = 1;

		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		for (c = 0; c < st.width * st.height; c++)
			board[c] = (uint8_t)((mins->keys[i] >> c) & 1);
		cr_assert_eq(qubo_puzzle_check(p, board, c, NULL, 0, &viol), QUBO_OK);
		cr_assert_eq(viol, 0);
	}
	qubo_puzzle_free(p);
	return mins->n;
}

Test(queens, nqueens_ground_state_counts)
{
	/* vg 0: left out under valgrind, where enumerating its 2^25 states
	 * takes 10 s of test code; nqueens 4 has the plain board's path and
	 * the 5 x 5 torus the size */
	static const struct {
		const char *text;
		size_t count;
		int vg;
	} cases[] = {
		{ "nqueens 1\n", 1, 1 },	  { "nqueens 4\n", 2, 1 },
		{ "nqueens 5\n", 10, 0 },	  { "nqueens 5 torus\n", 10, 1 },
		{ "nqueens 4 cylinder\n", 0, 1 }, { "nqueens 4 torus\n", 0, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ph_set mins = { 0 };

		if (valgrind_run() && !cases[i].vg)
			continue;
		cr_expect_eq(nqueens_count(cases[i].text, &mins), cases[i].count,
			     "%s: %zu ground states, expected %zu", cases[i].text, mins.n,
			     cases[i].count);
		free(mins.keys);
	}
}

Test(queens, nqueens_2_and_3_are_infeasible)
{
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 2\n", 10, NULL), QUBO_ERR_INFEASIBLE);
	cr_assert_null(p);
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 3\n", 10, NULL), QUBO_ERR_INFEASIBLE);
	cr_assert(strstr(qubo_error_message(), "no solution"), "%s", qubo_error_message());
}

/* How many comparisons a test made: per reduction level, how many of them
 * had a model with variables, how many instances had solutions. */
typedef struct tally {
	int level[3];
	int nontrivial;
	int feasible;
	int infeasible;
	int large; /* models checked by ph_check_large() */
} tally;

/* Compares a model built at level index li with the oracle's solutions: by
 * enumeration when it is small enough, otherwise by ph_check_large(). */
static void compare(const qubo_puzzle *p, const ph_inst *I, const ph_set *sols, tu_rng *r, int li,
		    const char *what, tally *t)
{
	if (num_vars(p) > 20) {
		ph_check_large(p, I, sols, r, what);
		t->large++;
		return;
	}
	ph_exact(p, sols, what);
	t->level[li]++;
	t->nontrivial += num_vars(p) > 0;
}

/* Every level compared often enough, and not only trivial models. */
static void tally_check(const tally *t, int trials, int min_none, const char *what)
{
	int li;

	if (getenv("PH_DEBUG"))
		fprintf(stderr,
			"%s: compared %d/%d/%d, nontrivial %d, feasible %d, infeasible %d, "
			"large %d\n",
			what, t->level[0], t->level[1], t->level[2], t->nontrivial, t->feasible,
			t->infeasible, t->large);
	for (li = 0; li < 3; li++)
		cr_assert_geq(t->level[li], li ? trials / 8 : min_none,
			      "%s: level %d compared %d times in %d", what, (int)levels[li],
			      t->level[li], trials);
	cr_assert_geq(t->nontrivial, trials / 4, "%s: %d models with variables compared", what,
		      t->nontrivial);
	cr_assert_geq(t->feasible, trials / 4, "%s: %d of %d instances have solutions", what,
		      t->feasible, trials);
}

/* Builds I at every level (and both penalty weights) and compares each
 * enumerable model with the oracle's solutions. */
static void check_inst(ph_inst *I, int drop, const char *what, tally *t)
{
	qubo_puzzle_queens_spec s;
	ph_set sols = { 0 };
	int li, infeasible = -1;
	size_t on = 0, c;

	ph_spec(I, &s);
	for (c = 0; c < (size_t)I->w * I->h; c++)
		on += !I->off[c];
	for (li = 0; li < 3; li++) {
		qubo_puzzle *p = NULL;
		qubo_puzzle_options o = opts_for(levels[li], li == 1 ? 2.0 : 1.0, drop);
		int rc = qubo_puzzle_queens_new(&p, &s, &o);
		tu_rng r = { (uint64_t)li * 7919 + on };

		if (getenv("PH_DEBUG"))
			fprintf(stderr, "%s level %d: rc %d vars %zu %s\n", what, li, rc,
				rc ? 0 : num_vars(p), rc ? qubo_error_message() : "");
		if (rc == QUBO_ERR_INFEASIBLE) {
			cr_assert(infeasible != 0, "%s: infeasible at one level only", what);
			infeasible = 1;
			if (!sols.keys && !sols.n)
				ph_solutions(I, NULL, &sols);
			cr_assert_eq(sols.n, 0,
				     "%s: reported infeasible but has %zu solutions (%s)", what,
				     sols.n, qubo_error_message());
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
		cr_assert(infeasible != 1, "%s: infeasible at one level only", what);
		infeasible = 0;
		if (li == 0) {
			ph_solutions(I, p, &sols);
			cr_assert_eq(num_vars(p), on, "%s: level NONE has a variable per cell",
				     what);
		}
		compare(p, I, &sols, &r, li, what, t);
		qubo_puzzle_free(p);
	}
	if (!sols.keys && !sols.n && infeasible != 1)
		ph_solutions(I, NULL, &sols);
	t->feasible += sols.n > 0;
	t->infeasible += infeasible == 1;
	free(sols.keys);
}

/* Makes trial i's instance from r and names it in what. */
typedef void make_inst(ph_inst *I, tu_rng *r, int i, char *what, size_t cap);

/* One family's random trials (half as many under valgrind), each checked by
 * check_inst(); level NONE must be compared in trials / none_div of them. */
static void run_trials(uint64_t seed, int normal, int none_div, int drop, make_inst *make,
		       const char *name)
{
	tu_rng r = { seed };
	int i, trials = valgrind_run() ? normal / 2 : normal;
	tally t = { { 0 }, 0, 0, 0, 0 };

	for (i = 0; i < trials; i++) {
		ph_inst I;
		char what[64];

		make(&I, &r, i, what, sizeof what);
		check_inst(&I, drop, what, &t);
	}
	tally_check(&t, trials, trials / none_div, name);
}

static void make_generalised(ph_inst *I, tu_rng *r, int i, char *what, size_t cap)
{
	ph_random_inst(I, r, 16);
	snprintf(what, cap, "random instance %d", i);
}

Test(queens, exact_random_generalised)
{
	run_trials(20261122, 400, 8, 0, make_generalised, "generalised");
}

static void make_regions(ph_inst *I, tu_rng *r, int i, char *what, size_t cap)
{
	int32_t k = i % 3 == 2 ? 2 : 1;
	/* 2 stars need an 8 x 8 board at least; many clues keep it small */
	uint32_t N = k == 2 ? 8 : (uint32_t)tu_range(r, 3, 5);

	ph_random_regions(I, r, N, k, (int)tu_below(r, 2),
			  k == 2 ? (int)tu_range(r, 6, 14) : (int)tu_range(r, 0, 2));
	snprintf(what, cap, "regions instance %d (N %u, k %d)", i, (unsigned)N, (int)k);
}

Test(queens, exact_linkedin_and_star_battle_specs)
{
	run_trials(77, 160, 12, 0, make_regions, "regions");
}

static void make_drop_region(ph_inst *I, tu_rng *r, int i, char *what, size_t cap)
{
	ph_random_regions(I, r, (uint32_t)tu_range(r, 3, 5), 1, 0, (int)tu_range(r, 0, 1));
	snprintf(what, cap, "drop_region instance %d", i);
}

/* drop_region: the last region's term is left out; still exact. */
Test(queens, exact_drop_region)
{
	run_trials(5150, 80, 8, 1, make_drop_region, "drop_region");
}

/* N-Queens with regions (one queen each) and with soft regions (0 or 1
 * each, in both the count form and the pairwise form, zero-based and
 * fractional). */
static void make_nqueens_regions(ph_inst *I, tu_rng *r, int i, char *what, size_t cap)
{
	uint32_t N = (uint32_t)tu_range(r, 4, 5);
	int soft = i % 2, d;
	size_t k;

	ph_random_regions(I, r, N, 1, 0, i % 4 == 3);
	for (d = 0; d < 8; d++)
		I->reach[d] = d % 2 ? QUBO_PUZZLE_QUEENS_UNLIMITED : 0;
	if (soft) {
		for (k = 0; k < I->nreg; k++) {
			I->q[k] = 0;
			I->t[k] = 1;
		}
		I->region_form = (int32_t)tu_below(r, 2);
		I->kform = (int32_t)tu_below(r, 2);
	}
	I->wrap = (int32_t)tu_below(r, 2) * 2;
	ph_prepare(I);
	snprintf(what, cap, "N-Queens with %s regions %d", soft ? "soft" : "hard", i);
}

Test(queens, exact_nqueens_with_regions)
{
	run_trials(314, 60, 8, 0, make_nqueens_regions, "N-Queens with regions");
}

/* Writes trial i's puzzle text and its instance; returns the text's length. */
typedef size_t make_text(ph_inst *I, tu_rng *r, int i, char *text, size_t cap);

/* The text families go through the parser: each trial's text is parsed at
 * every level (with drop_region 0 .. drops - 1) into family and compared. */
static void run_text_trials(uint64_t seed, int normal, int none_div, int drops, int family,
			    make_text *make, const char *name)
{
	tu_rng r = { seed };
	int i, trials = valgrind_run() ? normal / 2 : normal;
	tally t = { { 0 }, 0, 0, 0, 0 };

	for (i = 0; i < trials; i++) {
		ph_inst I;
		ph_set sols = { 0 };
		char text[1024], what[64];
		size_t len = make(&I, &r, i, text, sizeof text);
		int li, drop;

		ph_solutions(&I, NULL, &sols);
		for (li = 0; li < 3; li++)
			for (drop = 0; drop < drops; drop++) {
				qubo_puzzle *p = NULL;
				qubo_puzzle_options o = opts_for(levels[li], 1, drop);
				int rc = qubo_puzzle_parse(&p, text, len, &o);

				snprintf(what, sizeof what, "%s %d level %d drop %d", name, i,
					 (int)levels[li], drop);
				if (getenv("PH_DEBUG"))
					fprintf(stderr, "%s: rc %d vars %zu\n", what, rc,
						rc ? 0 : num_vars(p));
				if (rc == QUBO_ERR_INFEASIBLE) {
					cr_assert_eq(sols.n, 0,
						     "%s: infeasible, but %zu solutions (%s)\n%s",
						     what, sols.n, qubo_error_message(), text);
					continue;
				}
				cr_assert_eq(rc, QUBO_OK, "%s: %s\n%s", what, qubo_error_message(),
					     text);
				cr_assert_eq(qubo_puzzle_family(p), family, "%s", what);
				compare(p, &I, &sols, &r, li, what, &t);
				qubo_puzzle_free(p);
			}
		t.feasible += sols.n > 0;
		free(sols.keys);
	}
	tally_check(&t, trials, trials / none_div, name);
}

/* Random region maps with pre-placed queens and holes, `queens N` and
 * `queens N stars 2`. */
static size_t make_queens_text(ph_inst *I, tu_rng *r, int i, char *text, size_t cap)
{
	int32_t k = i % 2 ? 2 : 1;
	uint32_t N = k == 2 ? 8 : (uint32_t)tu_range(r, 3, 5);

	ph_random_regions(I, r, N, k, (int)tu_below(r, 2),
			  k == 2 ? (int)tu_range(r, 6, 14) : (int)tu_range(r, 0, 3));
	ph_queens_text(I, k, text, cap);
	return strlen(text);
}

Test(queens, exact_queens_text)
{
	run_text_trials(424242, 120, 8, 2, QUBO_PUZZLE_QUEENS, make_queens_text, "queens text");
}

/* `nqueens N` boards, plain or wrapped, with clues and holes. */
static size_t make_nqueens_text(ph_inst *I, tu_rng *r, int i, char *text, size_t cap)
{
	static const char *wraps[3] = { "", " cylinder", " torus" };
	int32_t wrap = (int32_t)(i % 3);
	/* wrapped boards mostly 5 x 5, where N-Queens has solutions */
	uint32_t N = wrap && tu_below(r, 5) ? 5 : (uint32_t)tu_range(r, 3, 6);
	size_t len, c, n = (size_t)N * N;
	int d;
	ph_set plain = { 0 };

	memset(I, 0, sizeof *I);
	I->w = I->h = N;
	I->has_rows = I->has_cols = 1;
	for (c = 0; c < N; c++)
		I->rows[c] = I->cols[c] = 1;
	for (d = 1; d < 8; d += 2)
		I->reach[d] = QUBO_PUZZLE_QUEENS_UNLIMITED;
	I->wrap = wrap;
	ph_prepare(I);
	ph_solutions(I, NULL, &plain);
	if (plain.n && tu_below(r, 4) != 0) {
		/* clues from a solution, holes elsewhere: feasible */
		uint64_t sol = plain.keys[tu_below(r, plain.n)];

		for (c = 0; c < n; c++) {
			int q = (int)((sol >> c) & 1);
			I->off[c] = !q && tu_below(r, 9) == 0;
			I->given[c] = q && tu_below(r, 3) == 0;
		}
	} else {
		for (c = 0; c < n; c++) {
			I->off[c] = tu_below(r, 9) == 0;
			I->given[c] = !I->off[c] && tu_below(r, 12) == 0;
		}
	}
	free(plain.keys);
	ph_prepare(I);
	len = (size_t)snprintf(text, cap, "nqueens %u%s\n", (unsigned)N, wraps[I->wrap]);
	for (c = 0; c < n; c++) {
		text[len++] = I->off[c] ? '#' : I->given[c] ? 'Q' : '.';
		if (c % N == N - 1)
			text[len++] = '\n';
	}
	text[len] = '\0';
	return len;
}

Test(queens, exact_nqueens_text)
{
	run_text_trials(99, 90, 30, 1, QUBO_PUZZLE_NQUEENS, make_nqueens_text, "nqueens text");
}

/* The fractional k-or-k+1 form: ground energy P/4 per such region term. */
Test(queens, fractional_ground_energy)
{
	ph_inst I;
	qubo_puzzle_queens_spec s;
	qubo_puzzle *p = NULL;
	qubo_puzzle_options o = opts_for(QUBO_REDUCE_NONE, 2.0, 0);
	ph_set sols = { 0 };
	double g;
	size_t c;

	memset(&I, 0, sizeof I);
	I.w = 3;
	I.h = 2;
	I.nreg = 3;
	for (c = 0; c < 6; c++) {
		I.in_reg[0][c] = c < 4;
		I.in_reg[1][c] = c >= 2;
		I.in_reg[2][c] = c % 2;
	}
	I.q[0] = 1;
	I.t[0] = 1;
	I.q[1] = 2;
	I.t[1] = 1;
	I.q[2] = 1;
	I.t[2] = 0;
	I.kform = QUBO_K_OR_K1_FRACTIONAL;
	I.reach[QUBO_PUZZLE_QUEENS_E] = I.reach[QUBO_PUZZLE_QUEENS_W] = 1;
	ph_prepare(&I);
	ph_spec(&I, &s);
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, &o), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_ground_energy(p, &g), QUBO_OK);
	cr_assert_eq(g, 2 * 2.0 / 4);
	ph_solutions(&I, p, &sols);
	cr_assert_gt(sols.n, 0);
	ph_exact(p, &sols, "fractional");
	free(sols.keys);
	qubo_puzzle_free(p);
}

/* The rule checker on hand-made boards: every broken rule named, 1-based. */
Test(queens, checker_names_broken_rules)
{
	static const char text[] = "queens 4\n"
				   "aabb\n"
				   "acbB\n"
				   "dccb\n"
				   "ddc.\n";
	qubo_puzzle *p = NULL;
	uint8_t board[16] = { 0 };
	char rep[1024];
	size_t viol = 0;

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	/* queens at (1,1), (1,2), (4,4) (off the board); pre-placed (2,4) empty */
	board[0] = board[1] = board[15] = 1;
	cr_assert_eq(qubo_puzzle_check(p, board, 16, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "Queen at row 4, column 4 is not on the board"), "%s", rep);
	cr_assert(strstr(rep, "pre-placed queen at row 2, column 4 is missing"), "%s", rep);
	cr_assert(strstr(rep, "row 1 has 2 queens, needs 1"), "%s", rep);
	cr_assert(strstr(rep, "row 2 has 0 queens, needs 1"), "%s", rep);
	cr_assert(strstr(rep, "column 3 has 0 queens, needs 1"), "%s", rep);
	cr_assert(strstr(rep, "region a has 2 queens, needs 1"), "%s", rep);
	cr_assert(strstr(rep, "region c has 0 queens, needs 1"), "%s", rep);
	cr_assert_eq(viol, 10, "%zu violations:\n%s", viol, rep);
	/* diagonal neighbours */
	memset(board, 0, sizeof board);
	board[5] = board[10] = 1;
	cr_assert_eq(qubo_puzzle_check(p, board, 16, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "queens at row 2, column 2 and row 3, column 3 touch"), "%s", rep);
	/* a short report is cut but still counts everything */
	cr_assert_eq(qubo_puzzle_check(p, board, 16, rep, 10, &viol), QUBO_OK);
	cr_assert_eq(strlen(rep), 9);
	cr_assert_gt(viol, 1);
	qubo_puzzle_free(p);

	/* a torus: queens attack across the edge, reported once */
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 5 torus\n", 16, NULL), QUBO_OK);
	{
		uint8_t b[25] = { 0 };
		b[0] = 1;  /* (1,1) */
		b[24] = 1; /* (5,5): one step up-left from (1,1) across both edges */
		cr_assert_eq(qubo_puzzle_check(p, b, 25, rep, sizeof rep, &viol), QUBO_OK);
		cr_assert(strstr(rep, "queens at row 1, column 1 and row 5, column 5 attack each "
				      "other"),
			  "%s", rep);
		cr_assert_null(strstr(strstr(rep, "attack") + 1, "attack"), "reported twice: %s",
			       rep);
	}
	qubo_puzzle_free(p);
}

/* Random boards: the checker's verdict equals the oracle's. */
Test(queens, checker_agrees_with_oracle)
{
	tu_rng r = { 8080 };
	int i, j, valid = 0;

	for (i = 0; i < 200; i++) {
		ph_inst I;
		qubo_puzzle_queens_spec s;
		qubo_puzzle *p = NULL;
		qubo_puzzle_options o = opts_for(QUBO_REDUCE_NONE, 1, 0);
		ph_set sols = { 0 };

		ph_random_inst(&I, &r, 20);
		ph_spec(&I, &s);
		if (qubo_puzzle_queens_new(&p, &s, &o) != QUBO_OK)
			continue;
		for (j = 0; j < 40; j++) {
			uint8_t b[PH_MAX_CELLS];
			size_t c, n = (size_t)I.w * I.h, viol = 0;

			for (c = 0; c < n; c++)
				b[c] = tu_below(&r, 3) == 0;
			cr_assert_eq(qubo_puzzle_check(p, b, n, NULL, 0, &viol), QUBO_OK);
			cr_assert_eq(viol == 0, ph_valid(&I, b), "instance %d board %d", i, j);
		}
		/* and every oracle solution passes (checked inside) */
		ph_solutions(&I, p, &sols);
		valid += sols.n > 0;
		free(sols.keys);
		qubo_puzzle_free(p);
	}
	cr_assert_gt(valid, 20);
}

/* Well-formed but contradictory instances are infeasible, named. */
Test(queens, infeasible_instances_are_named)
{
	static const struct {
		const char *text;
		const char *needle;
	} cases[] = {
		{ "queens 3\nAAb\nabc\nbcc\n", "row 1 has 2 pre-placed queens" },
		{ "queens 3\nAab\nAbc\nbcc\n", "column 1 has 2 pre-placed queens" },
		{ "queens 3\naab\naAb\nbbb\n", "region c has no cells" },
		{ "queens 4\nAabb\naBbb\nccdd\nccdd\n", "attack each other" },
		{ "queens 4\naabb\nabbb\nccdd\n....\n", "row 4 has no cells" },
		{ "queens 4 stars 3\naabb\naabb\nccdd\nccdd\n", "no solution" },
		{ "nqueens 4\nQ...\n....\n....\n...Q\n", "attack each other" },
		{ "nqueens 4\n####\n....\n....\n....\n", "row 1 has no cells" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		qubo_puzzle *p = (qubo_puzzle *)1;
		int rc = qubo_puzzle_parse(&p, cases[i].text, strlen(cases[i].text), NULL);

		cr_expect_eq(rc, QUBO_ERR_INFEASIBLE, "case %zu: %d %s", i, rc,
			     qubo_error_message());
		cr_expect_null(p);
		cr_expect(strstr(qubo_error_message(), cases[i].needle),
			  "case %zu: '%s' lacks '%s'", i, qubo_error_message(), cases[i].needle);
		cr_expect_eq(qubo_error_line(), 0);
	}
}

/* Statistics: before/after sizes, fixed cells, solved by reduction. */
Test(queens, stats_before_and_after)
{
	/* one pre-placed queen in a 4x4 LinkedIn puzzle (unique solution
	 * (1,2), (2,4), (3,1), (4,3)) */
	static const char text[] = "queens 4\n"
				   "aabb\n"
				   "acbb\n"
				   "Dccb\n"
				   "ddcc\n";
	qubo_puzzle *p = NULL;
	qubo_puzzle_options o = opts_for(QUBO_REDUCE_CLUES, 0, 0);
	qubo_puzzle_stats st;
	qubo_lit lits[16];
	size_t i, consts = 0;

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, &o), QUBO_OK, "%s",
		     qubo_error_message());
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(st.width, 4);
	cr_assert_eq(st.height, 4);
	cr_assert_eq(st.variables_before, 16);
	/* the queen at (3,1) fixes itself, the rest of row 3 and column 1,
	 * (4,2) in region d and the diagonal neighbour (2,2): 1 + 3 + 3 + 1 + 1 */
	cr_assert_eq(st.cells_fixed, 9, "%zu", st.cells_fixed);
	cr_assert_eq(st.variables_after, 7);
	cr_assert_eq(st.solved_by_reduction, 0);
	cr_assert_lt(st.couplers_after, st.couplers_before);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
	for (i = 0; i < 16; i++)
		consts += QUBO_LIT_IS_CONST(lits[i]);
	cr_assert_eq(consts, 9);
	cr_assert_eq(lits[8], QUBO_LIT_TRUE);
	cr_assert_eq(lits[9], QUBO_LIT_FALSE);
	cr_assert_eq(lits[5], QUBO_LIT_FALSE);
	cr_assert_eq(lits[1], QUBO_LIT(0), "free cells are numbered in row-major order");
	qubo_puzzle_free(p);

	/* full reduction solves it */
	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(st.variables_after, 0);
	cr_assert_eq(st.solved_by_reduction, 1);
	cr_assert_eq(st.cells_fixed, 16);
	qubo_puzzle_free(p);
}

/* Building from t is refused with rc, no puzzle is made, and the message
 * names word. */
static void expect_refused(const qubo_puzzle_queens_spec *t, const qubo_puzzle_options *o, int rc,
			   const char *word)
{
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_queens_new(&p, t, o), rc, "%s: %s", word, qubo_error_message());
	cr_assert_null(p, "%s", word);
	cr_assert(strstr(qubo_error_message(), word), "%s: %s", word, qubo_error_message());
}

/* Spec checks: every malformed field is an INVALID_ARG naming it. */
Test(queens, spec_validation)
{
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT, t;
	qubo_puzzle *p = NULL;
	int32_t bad_rows[2] = { 1, -2 };
	size_t start[2] = { 0, 2 };
	uint32_t cells[2] = { 0, 0 }, far[1] = { 9 }, dup_q[2] = { 1, 1 };
	int32_t q1[1] = { 1 }, tbad[1] = { 2 };
	uint8_t off[4] = { 1, 0, 0, 0 };
	uint32_t q0[1] = { 0 };

	s.width = 2;
	s.height = 2;
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, NULL), QUBO_OK);
	qubo_puzzle_free(p);
	cr_assert_eq(qubo_puzzle_queens_new(NULL, &s, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_queens_new(&p, NULL, NULL), QUBO_ERR_MISUSE);

	t = s;
	t.width = 0;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "0 x 2");
	t = s;
	t.struct_size = 8;
	expect_refused(&t, NULL, QUBO_ERR_UNSUPPORTED_VERSION, "struct_size is 8");
	t = s;
	t.row_counts = bad_rows;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "row_counts[1]");
	t = s;
	t.num_regions = 1;
	t.region_start = start;
	t.region_cells = cells;
	t.region_counts = q1;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "twice");
	start[1] = 1;
	t.region_cells = far;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "region_cells[0] is 9");
	t.region_cells = cells;
	t.region_plus_one = tbad;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "region_plus_one[0] is 2");
	t = s;
	t.wrap = 3;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "spec.wrap is 3");
	t = s;
	t.queens = dup_q;
	t.num_queens = 2;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "twice");
	t = s;
	t.off_board = off;
	t.queens = q0;
	t.num_queens = 1;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "not on the board");
	t = s;
	t.width = 1 << 13;
	t.height = 1 << 12;
	expect_refused(&t, NULL, QUBO_ERR_TOO_LARGE, "33554432 cells");
	t = s;
	t.k_or_k1_form = 2;
	expect_refused(&t, NULL, QUBO_ERR_INVALID_ARG, "k_or_k1_form is 2");
	cr_assert_null(p);
}

/* drop_region needs regions that partition the board with exact counts. */
Test(queens, drop_region_needs_a_partition)
{
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle_options o = opts_for(0, 0, 1);
	qubo_puzzle *p = NULL;
	int32_t ones[2] = { 1, 1 };
	size_t start[3] = { 0, 2, 4 };
	uint32_t cells[4] = { 0, 1, 2, 3 };
	int32_t q[2] = { 1, 1 };
	qubo_puzzle_stats a, b;

	s.width = s.height = 2;
	s.row_counts = ones;
	s.num_regions = 2;
	s.region_start = start;
	s.region_cells = cells;
	s.region_counts = q;
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, &o), QUBO_OK, "%s", qubo_error_message());
	memset(&a, 0, sizeof a);
	a.struct_size = sizeof a;
	b = a;
	cr_assert_eq(qubo_puzzle_get_stats(p, &a), QUBO_OK);
	qubo_puzzle_free(p);
	o.drop_region = 0;
	o.reduce = QUBO_REDUCE_NONE;
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, &o), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, &b), QUBO_OK);
	qubo_puzzle_free(p);
	o.drop_region = 1;
	cells[3] = 0; /* cell 0 in both regions, cell 3 in none */
	start[2] = 4;
	expect_refused(&s, &o, QUBO_ERR_INVALID_ARG, "partition");
	cells[3] = 3;
	s.row_counts = NULL;
	expect_refused(&s, &o, QUBO_ERR_INVALID_ARG, "row");
	s.row_counts = ones;
	q[1] = 0;
	expect_refused(&s, &o, QUBO_ERR_INVALID_ARG, "agree");
	(void)b;
}

/* Each attacking pair is one violation, whichever queen reaches the other
 * and however many ways (a column of three cells, and a 2 x 2 torus where
 * every direction meets the same cells). */
Test(queens, checker_reports_each_attack_once)
{
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle *p = NULL;
	uint32_t reach[24] = { 0 };
	uint8_t b[4];
	size_t viol = 0;
	char rep[512];

	s.width = 1;
	s.height = 3;
	s.reach[QUBO_PUZZLE_QUEENS_N] = s.reach[QUBO_PUZZLE_QUEENS_S] = 1;
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, NULL), QUBO_OK);
	b[0] = b[1] = 1;
	b[2] = 0;
	cr_assert_eq(qubo_puzzle_check(p, b, 3, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 1, "%s", rep);
	b[1] = 0;
	b[2] = 1;
	cr_assert_eq(qubo_puzzle_check(p, b, 3, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s", rep);
	qubo_puzzle_free(p);

	/* only the bottom cell reaches two steps up */
	reach[8 * 2 + QUBO_PUZZLE_QUEENS_N] = 2;
	s.cell_reach = reach;
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_check(p, b, 3, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 1, "%s", rep);
	cr_assert(strstr(rep, "row 1, column 1 and row 3, column 1 attack each other"), "%s", rep);
	qubo_puzzle_free(p);

	memset(&s, 0, sizeof s);
	s.struct_size = sizeof s;
	s.width = s.height = 2;
	s.wrap = QUBO_PUZZLE_WRAP_TORUS;
	memset(s.reach, 0xFF, sizeof s.reach);
	cr_assert_eq(qubo_puzzle_queens_new(&p, &s, NULL), QUBO_OK);
	memset(b, 1, sizeof b);
	cr_assert_eq(qubo_puzzle_check(p, b, 4, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 6, "every pair of the four cells once: %s", rep);
	qubo_puzzle_free(p);
}

/* Whether on-board cells a and b share a count constraint of the model
 * (a row or column with a count, or a region). */
static int share_constraint(const ph_inst *I, size_t a, size_t b)
{
	size_t k;

	if (a / I->w == b / I->w && I->has_rows && I->rows[a / I->w] != QUBO_PUZZLE_QUEENS_ANY)
		return 1;
	if (a % I->w == b % I->w && I->has_cols && I->cols[a % I->w] != QUBO_PUZZLE_QUEENS_ANY)
		return 1;
	for (k = 0; k < I->nreg; k++)
		if (I->in_reg[k][a] && I->in_reg[k][b])
			return 1;
	return 0;
}

/* At level NONE, two cells that share no constraint are coupled by exactly
 * P when they attack each other and not at all otherwise, whether the
 * model takes their line as a clique or the pair alone: on wrapped boards a
 * pair can lie on two lines and must still get P once. Returns the pairs
 * checked. */
static size_t check_conflict_couplers(ph_inst *I, double P, const char *what)
{
	qubo_puzzle_queens_spec s;
	qubo_puzzle_options o = opts_for(QUBO_REDUCE_NONE, P, 0);
	qubo_puzzle *p = NULL;
	const qubo_model *m;
	qubo_lit lits[PH_MAX_CELLS];
	size_t n = (size_t)I->w * I->h, a, b, checked = 0;
	int rc;

	ph_spec(I, &s);
	rc = qubo_puzzle_queens_new(&p, &s, &o);
	if (rc == QUBO_ERR_INFEASIBLE)
		return 0;
	cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, n), QUBO_OK);
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++) {
			double w = -1.0;

			if (I->off[a] || I->off[b] || share_constraint(I, a, b))
				continue;
			cr_assert_eq(qubo_model_get_quadratic(m, QUBO_LIT_VAR(lits[a]),
							      QUBO_LIT_VAR(lits[b]), &w),
				     QUBO_OK);
			cr_assert_eq(w, I->conflict[a][b] ? P : 0.0,
				     "%s: cells %zu and %zu coupled by %g", what, a, b, w);
			checked++;
		}
	qubo_puzzle_free(p);
	return checked;
}

Test(queens, conflicts_are_coupled_once_by_lines_or_pairs)
{
	static const int32_t wraps[3] = { QUBO_PUZZLE_WRAP_NONE, QUBO_PUZZLE_WRAP_CYLINDER,
					  QUBO_PUZZLE_WRAP_TORUS };
	tu_rng r = { 4242 };
	size_t checked = 0, i;
	uint32_t N;
	int wi, d;

	/* N-Queens on every wrap: only diagonal pairs share no row or column;
	 * on an even torus, (0, 0) and (N/2, N/2) share both diagonals */
	for (N = 4; N <= 8; N++)
		for (wi = 0; wi < 3; wi++) {
			ph_inst I;
			char what[64];

			memset(&I, 0, sizeof I);
			I.w = I.h = N;
			I.has_rows = I.has_cols = 1;
			for (i = 0; i < N; i++)
				I.rows[i] = I.cols[i] = 1;
			for (d = 1; d < 8; d += 2)
				I.reach[d] = QUBO_PUZZLE_QUEENS_UNLIMITED;
			I.wrap = wraps[wi];
			ph_prepare(&I);
			snprintf(what, sizeof what, "nqueens %u wrap %d", (unsigned)N, (int)I.wrap);
			checked += check_conflict_couplers(&I, 0.3, what);
		}
	for (i = 0; i < (valgrind_run() ? 100u : 400u); i++) {
		ph_inst I;
		char what[64];

		ph_random_inst(&I, &r, 16);
		snprintf(what, sizeof what, "random instance %zu", i);
		checked += check_conflict_couplers(&I, 1.7, what);
	}
	cr_assert_geq(checked, 1000, "only %zu pairs checked", checked);
}

/* A penalty so large that the sum over all conflict pairs overflows fails
 * as it would without clique lines (those lines alone would fit). */
Test(queens, penalty_overflow_counts_every_conflict_pair)
{
	int32_t cnt[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	/* a sum of two terms that overflows; terms that do not, but whose
	 * magnitudes add up beyond the weight sum's limit; a penalty that fits */
	static const double div[3] = { 480, 1e5, 1e12 };
	int d, k;

	for (k = 0; k < 3; k++) {
		qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
		qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
		qubo_puzzle *p = NULL;
		int rc;

		s.width = s.height = 8;
		s.row_counts = cnt;
		s.col_counts = cnt;
		for (d = 1; d < 8; d += 2)
			s.reach[d] = QUBO_PUZZLE_QUEENS_UNLIMITED;
		o.penalty = DBL_MAX / div[k];
		o.reduce = QUBO_REDUCE_NONE;
		rc = qubo_puzzle_queens_new(&p, &s, &o);
		if (k < 2) {
			cr_assert_eq(rc, QUBO_ERR_OUT_OF_RANGE);
			cr_assert(strstr(qubo_error_message(),
					 k ? "QUBO_MODEL_MAX_WEIGHT_SUM" : "overflow"),
				  "%s", qubo_error_message());
			cr_assert_null(p);
		} else {
			cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
		}
		qubo_puzzle_free(p);
	}
}
