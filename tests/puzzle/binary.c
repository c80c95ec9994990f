/* The binary-grid families (Takuzu, Binairo, Unruly, Tango and the
 * generalisations of qubo/puzzle/binary.h): exactness by brute force
 * (doc/formulations.md) against the independent rule checker of
 * binary_oracle.h, at every reduction level, for every feature of the spec;
 * the local model against the witness model (§6); Tango's parity classes;
 * contradictory instances named; spec validation. */
#include "puzzle/binary_oracle.h"
#include "structs.h"

static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };

static qubo_puzzle_options opts_for(int32_t reduce, double penalty)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;

	o.reduce = reduce;
	o.penalty = penalty;
	return o;
}

/* What a run of random instances covered. */
typedef struct tally {
	size_t instances, with, without; /* by the oracle */
	size_t refused;			 /* QUBO_ERR_INFEASIBLE from the builder */
	size_t built_without;		 /* built, no solution: minimum above 0 */
	size_t models;			 /* models enumerated */
	size_t enumerated;		 /* counts by enumeration */
	size_t solutions;		 /* oracle solutions in all */
} tally;

static void tally_report(const tally *t, const char *name, size_t min_with, size_t min_without)
{
	fprintf(stderr,
		"[binary] %s: %zu instances, %zu with solutions (%zu solutions), %zu without "
		"(%zu refused as infeasible, %zu built with minimum > 0); %zu models "
		"enumerated, %zu counts by enumeration\n",
		name, t->instances, t->with, t->solutions, t->without, t->refused,
		t->built_without, t->models, t->enumerated);
	cr_assert_geq(t->with, min_with, "%s: only %zu instances with solutions", name, t->with);
	cr_assert_geq(t->without, min_without, "%s: only %zu instances without solutions", name,
		      t->without);
}

typedef struct collect {
	ph_set set;
	size_t calls, n;
	int bad_length;
} collect;

static int on_solution(const uint8_t *board, size_t length, void *ud)
{
	collect *c = ud;

	c->calls++;
	if (length != c->n)
		c->bad_length = 1;
	ph_set_add(&c->set, ph_key(board, length < c->n ? length : c->n));
	return 0;
}

/* qubo_puzzle_count by one method: the count, each board, complete. */
static void check_count(const qubo_puzzle *p, int32_t method, const ph_set *sols, size_t n,
			const char *what)
{
	qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result cr;
	collect c;
	size_t i;
	int rc;

	memset(&c, 0, sizeof c);
	c.n = n;
	memset(&cr, 0, sizeof cr);
	cr.struct_size = sizeof cr;
	co.method = method;
	co.on_solution = on_solution;
	co.user_data = &c;
	co.max_variables = 22;
	rc = qubo_puzzle_count(p, &co, &cr);
	cr_assert_eq(rc, QUBO_OK, "%s: count (method %d): %s: %s", what, (int)method,
		     qubo_status_name(rc), qubo_error_message());
	cr_assert_eq(cr.complete, 1, "%s", what);
	cr_assert_eq(cr.count, sols->n, "%s: count (method %d) %llu, oracle %zu", what,
		     (int)method, (unsigned long long)cr.count, sols->n);
	cr_assert_eq(c.calls, sols->n, "%s: %zu callbacks", what, c.calls);
	cr_assert(!c.bad_length, "%s: a callback with the wrong length", what);
	ph_set_sort(&c.set);
	cr_assert_eq(c.set.n, sols->n, "%s: %zu distinct boards reported", what, c.set.n);
	for (i = 0; i < c.set.n; i++)
		cr_assert_eq(c.set.keys[i], sols->keys[i], "%s: count (method %d) reported a board "
							   "that is not a solution",
			     what, (int)method);
	if (sols->n)
		cr_assert_eq(cr.energy, 0.0, "%s", what);
	free(c.set.keys);
}

/* The rule checker: every solution passes, and boards near them or
 * random ones pass exactly when the oracle says so. */
static void check_checker(const qubo_puzzle *p, const bo_inst *I, const ph_set *sols, tu_rng *r,
			  const char *what)
{
	size_t n = bo_cells(I), i, c, viol;
	uint8_t x[BO_MAX_CELLS];
	char rep[1024];
	int t;

	for (i = 0; i < sols->n && i < 64; i++) {
		bo_board(sols->keys[i], n, x);
		viol = 99;
		cr_assert_eq(qubo_puzzle_check(p, x, n, rep, sizeof rep, &viol), QUBO_OK);
		cr_assert_eq(viol, 0, "%s: the checker rejects a solution: %s", what, rep);
		if (i < 8)
			for (c = 0; c < n; c++) {
				x[c] ^= 1;
				viol = 99;
				cr_assert_eq(qubo_puzzle_check(p, x, n, rep, sizeof rep, &viol),
					     QUBO_OK);
				cr_assert_eq(viol == 0, bo_valid(I, x),
					     "%s: checker says %zu violations (%s), oracle %d", what,
					     viol, rep, bo_valid(I, x));
				if (viol)
					cr_assert_gt(strlen(rep), 0, "%s: an empty report", what);
				x[c] ^= 1;
			}
	}
	for (t = 0; t < 12; t++) {
		for (c = 0; c < n; c++)
			x[c] = (uint8_t)tu_below(r, 2);
		viol = 99;
		cr_assert_eq(qubo_puzzle_check(p, x, n, rep, sizeof rep, &viol), QUBO_OK);
		cr_assert_eq(viol == 0, bo_valid(I, x), "%s: checker says %zu violations (%s), "
							"oracle %d",
			     what, viol, rep, bo_valid(I, x));
	}
}

/* One built puzzle against the oracle's solutions. */

/* Witnesses of the unreduced model (doc/formulations.md): for each pair of
 * rows (columns), one per position when both need the same count, else
 * two. */
static size_t unreduced_witnesses(const bo_inst *I)
{
	size_t total = 0;
	uint32_t a, b;

	if (!I->distinct)
		return 0;
	for (a = 0; a < I->h; a++)
		for (b = a + 1; b < I->h; b++) {
			int32_t na = I->has_rows ? I->rows[a] : (int32_t)I->w / 2;
			int32_t nb = I->has_rows ? I->rows[b] : (int32_t)I->w / 2;

			total += (size_t)I->w * (na >= 0 && na == nb ? 1 : 2);
		}
	for (a = 0; a < I->w; a++)
		for (b = a + 1; b < I->w; b++) {
			int32_t na = I->has_cols ? I->cols[a] : (int32_t)I->h / 2;
			int32_t nb = I->has_cols ? I->cols[b] : (int32_t)I->h / 2;

			total += (size_t)I->h * (na >= 0 && na == nb ? 1 : 2);
		}
	return total;
}

static void check_built(const qubo_puzzle *p, const bo_inst *I, const ph_set *sols, int32_t level,
			double penalty, tu_rng *r, const char *what, tally *t, int solve)
{
	size_t n = bo_cells(I), i, fixed = 0;
	qubo_puzzle_stats st;
	bo_proj P;
	ph_set mins = { 0 };
	double ground = -1, best, second;

	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_TAKUZU, "%s", what);
	cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
	cr_assert_eq(ground, 0.0, "%s: documented ground energy %g", what, ground);
	bo_proj_init(&P, p, n);
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(st.width, I->w);
	cr_assert_eq(st.height, I->h);
	cr_assert_eq(st.variables_after, P.nv, "%s", what);
	for (i = 0; i < n; i++)
		fixed += QUBO_LIT_IS_CONST(P.lits[i]);
	cr_assert_eq(st.cells_fixed, fixed, "%s: cells_fixed %zu, constant literals %zu", what,
		     st.cells_fixed, fixed);
	if (level == QUBO_REDUCE_NONE) {
		cr_assert_eq(fixed, 0, "%s: a constant cell at level NONE", what);
		cr_assert_eq(P.nb, n, "%s", what);
	}
	/* the unreduced model: one variable per cell, and the witnesses of
	 * doc/formulations.md for distinct lines */
	cr_assert_eq(st.variables_before, n + unreduced_witnesses(I),
		     "%s: variables_before %zu", what, st.variables_before);
	if (!I->distinct)
		cr_assert_eq(P.nv, P.nb, "%s: auxiliary variables without distinct lines", what);

	best = bo_proj_minimisers_ex(&P, &mins, &second);
	t->models++;
	/* binary.h: every term is 0 when its rule holds and at least P
	 * otherwise, so any board that is not a solution costs at least P */
	if (sols->n == 0) {
		cr_assert_gt(best, ground, "%s: no solution, but the model reaches %g", what, best);
		cr_assert_geq(best, penalty, "%s: no solution, minimum %g below P = %g", what, best,
			      penalty);
	} else {
		if (isfinite(second))
			cr_assert_geq(second, penalty,
				      "%s: a non-solution at energy %g, below P = %g", what, second,
				      penalty);
		cr_assert_eq(best, ground, "%s: minimum %g, ground energy %g", what, best, ground);
		cr_assert_eq(mins.n, sols->n, "%s: %zu minimisers, %zu solutions", what, mins.n,
			     sols->n);
		for (i = 0; i < mins.n; i++)
			cr_assert_eq(mins.keys[i], sols->keys[i],
				     "%s: the minimisers are not the solutions (at %zu)", what, i);
	}
	free(mins.keys);

	check_count(p, QUBO_PUZZLE_COUNT_SEARCH, sols, n, what);
	if (P.nv <= 20) {
		check_count(p, QUBO_PUZZLE_COUNT_ENUMERATE, sols, n, what);
		t->enumerated++;
	}
	check_checker(p, I, sols, r, what);
	if (solve) {
		qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		qubo_puzzle_result res;
		uint8_t board[BO_MAX_CELLS];
		int rc;

		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		so.seed = 7;
		so.time_limit = 30;
		rc = qubo_puzzle_solve(p, &so, board, sizeof board, &res);
		cr_assert_eq(rc, QUBO_OK, "%s: solve: %s", what, qubo_error_message());
		if (sols->n) {
			cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED, "%s: verdict %d", what,
				     res.verdict);
			cr_assert(res.has_board);
			cr_assert(bo_set_has(sols, ph_key(board, n)), "%s: solve gave a non-solution",
				  what);
		} else {
			cr_assert_eq(res.verdict, QUBO_PUZZLE_INFEASIBLE, "%s: verdict %d", what,
				     res.verdict);
		}
	}
	bo_proj_free(&P);
}

/* Builds I at every reduction level (from its spec, and from its text form
 * when given) and checks each against the oracle. */
static void check_instance(const bo_inst *I, const ph_set *sols, tu_rng *r, const char *what,
			   tally *t, const char *text)
{
	qubo_puzzle_binary_spec s;
	size_t l;
	int src;
	char w2[200];

	t->instances++;
	t->solutions += sols->n;
	if (sols->n)
		t->with++;
	else
		t->without++;
	bo_spec(I, &s);
	for (src = 0; src < (text ? 2 : 1); src++)
		for (l = 0; l < 3; l++) {
			double pen = tu_below(r, 4) == 0 ? 2.0 : tu_below(r, 8) == 0 ? 0.5 : 0.0;
			qubo_puzzle_options o = opts_for(levels[l], pen);
			qubo_puzzle *p = (qubo_puzzle *)&l;
			int rc = src == 0 ? qubo_puzzle_binary_new(&p, &s, &o)
					  : qubo_puzzle_parse(&p, text, text ? strlen(text) : 0, &o);

			snprintf(w2, sizeof w2, "%s, %s, level %d", what, src ? "text" : "spec",
				 (int)levels[l]);
			if (rc == QUBO_ERR_INFEASIBLE) {
				cr_assert_null(p, "%s", w2);
				cr_assert_eq(sols->n, 0,
					     "%s: refused as infeasible (%s), but the oracle has %zu "
					     "solutions",
					     w2, qubo_error_message(), sols->n);
				cr_assert(strstr(qubo_error_message(), "no solution"), "%s: %s", w2,
					  qubo_error_message());
				t->refused += l == 2 && src == 0;
				continue;
			}
			cr_assert_eq(rc, QUBO_OK, "%s: %s: %s", w2, qubo_status_name(rc),
				     qubo_error_message());
			if (src == 1 && text)
				cr_assert_eq(qubo_puzzle_family(p),
					     strncmp(text, "tango", 5) ? QUBO_PUZZLE_TAKUZU
								       : QUBO_PUZZLE_TANGO);
			else
				check_built(p, I, sols, levels[l], pen ? pen : 1.0, r, w2, t, l == 2);
			if (src == 1) {
				/* the parsed puzzle: the same checks but the family */
				size_t n = bo_cells(I), i;
				bo_proj P;
				ph_set mins = { 0 };
				double best;

				bo_proj_init(&P, p, n);
				best = bo_proj_minimisers(&P, &mins);
				t->models++;
				if (sols->n == 0) {
					cr_assert_gt(best, 0.0, "%s", w2);
				} else {
					cr_assert_eq(best, 0.0, "%s", w2);
					cr_assert_eq(mins.n, sols->n, "%s: %zu minimisers, %zu "
								      "solutions",
						     w2, mins.n, sols->n);
					for (i = 0; i < mins.n; i++)
						cr_assert_eq(mins.keys[i], sols->keys[i], "%s", w2);
				}
				free(mins.keys);
				bo_proj_free(&P);
				check_count(p, QUBO_PUZZLE_COUNT_SEARCH, sols, n, w2);
				check_checker(p, I, sols, r, w2);
			}
			if (sols->n == 0 && l == 2 && src == 0)
				t->built_without++;
			qubo_puzzle_free(p);
		}
}

typedef void (*gen_fn)(bo_inst *I, tu_rng *r, int i);

/* Runs `trials` random instances of one family (half under valgrind). */
static tally run_family(uint64_t seed, int trials, gen_fn gen, int text, const char *name)
{
	tu_rng r = { seed };
	tally t;
	int i;

	memset(&t, 0, sizeof t);
	if (bo_valgrind())
		trials = trials / 3 + 1;
	for (i = 0; i < trials; i++) {
		bo_inst I;
		ph_set sols = { 0 };
		long cnt;
		int attempt = 0;
		char what[96], buf[1024];

		do {
			sols.n = 0;
			gen(&I, &r, i);
			bo_prepare(&I);
			cnt = bo_solutions(&I, &sols, 1 << 14);
		} while (cnt < 0 && ++attempt < 50);
		cr_assert_geq(cnt, 0, "%s: no instance with few enough solutions", name);
		snprintf(what, sizeof what, "%s instance %d (%ux%u)", name, i, (unsigned)I.w,
			 (unsigned)I.h);
		if (text)
			bo_text(&I, text == 2, buf, sizeof buf);
		check_instance(&I, &sols, &r, what, &t, text ? buf : NULL);
		free(sols.keys);
	}
	return t;
}

static void pick_size(const uint32_t (*sizes)[2], size_t count, tu_rng *r, uint32_t *w,
		      uint32_t *h)
{
	size_t k = (size_t)tu_below(r, count);

	*w = sizes[k][0];
	*h = sizes[k][1];
}

/* ---- the families ---- */

/* The oracle's own check: backtracking finds exactly the boards that a
 * plain loop over all 2^n boards accepts. */
static void gen_mixed(bo_inst *I, tu_rng *r, int i);

Test(binary, oracle_backtracking_matches_brute_force)
{
	tu_rng r = { 99 };
	int i, trials = bo_valgrind() ? 20 : 120;
	size_t with = 0;

	for (i = 0; i < trials; i++) {
		bo_inst I;
		ph_set sols = { 0 }, all = { 0 };
		uint64_t key;
		long cnt;
		size_t n, k;

		do {
			gen_mixed(&I, &r, i);
		} while (bo_cells(&I) > 14);
		bo_prepare(&I);
		n = bo_cells(&I);
		cnt = bo_solutions(&I, &sols, 0);
		cr_assert_geq(cnt, 0);
		for (key = 0; key < ((uint64_t)1 << n); key++) {
			uint8_t x[BO_MAX_CELLS];
			bo_board(key, n, x);
			if (bo_valid(&I, x))
				ph_set_add(&all, key);
		}
		ph_set_sort(&all);
		cr_assert_eq(sols.n, all.n, "instance %d: backtracking %zu, brute force %zu", i,
			     sols.n, all.n);
		for (k = 0; k < all.n; k++)
			cr_assert_eq(sols.keys[k], all.keys[k]);
		with += sols.n > 0;
		free(sols.keys);
		free(all.keys);
	}
	cr_assert_geq(with, (size_t)trials / 5);
}

/* Takuzu: balanced, rows and columns windows, random clues from a planted
 * solution, with and without distinct lines. */
static void gen_takuzu(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 2, 2 }, { 2, 4 }, { 4, 2 }, { 4, 4 },
					     { 4, 4 }, { 6, 2 }, { 2, 6 }, { 4, 4 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->distinct = w <= 4 && h <= 4 && tu_below(r, 2);
	bo_prepare(I);
	bo_plant(I, r, x);
	bo_clues_from(I, x, r, (int)tu_range(r, 2, 7), 6);
	if (tu_below(r, 8) == 0)
		bo_clues_from(I, x, r, 0, 0); /* no clue at all */
}

Test(binary, exact_takuzu_balanced)
{
	tally t = run_family(20261201, 60, gen_takuzu, 0, "takuzu");
	tally_report(&t, "takuzu", bo_valgrind() ? 5 : 25, bo_valgrind() ? 1 : 5);
}

/* The same instances through the `takuzu` text form. */
static void gen_takuzu_text(bo_inst *I, tu_rng *r, int i)
{
	gen_takuzu(I, r, i);
}

Test(binary, exact_takuzu_text)
{
	tally t = run_family(5150, 30, gen_takuzu_text, 1, "takuzu text");
	tally_report(&t, "takuzu text", bo_valgrind() ? 3 : 12, bo_valgrind() ? 0 : 2);
}

/* Rectangular boards, odd sides, explicit counts per row and column
 * (some -1, some wrong), windows in some directions. */
static void gen_rect(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 3, 5 }, { 5, 3 }, { 4, 5 }, { 5, 4 }, { 3, 4 },
					     { 4, 3 }, { 3, 6 }, { 6, 3 }, { 2, 7 }, { 7, 2 },
					     { 1, 6 }, { 5, 1 }, { 3, 3 }, { 2, 5 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->windows = (int32_t)tu_below(r, 4); /* none, rows, columns or both */
	if (tu_below(r, 3))
		I->windows = QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS;
	I->distinct = w <= 4 && h <= 4 && tu_below(r, 3) == 0;
	bo_prepare(I);
	bo_random_board(I, r, x);
	bo_counts_from(I, x, r, 5, 10);
	/* now and then the balanced default on an even side */
	if (w % 2 == 0 && tu_below(r, 4) == 0)
		I->has_rows = 0;
	if (h % 2 == 0 && tu_below(r, 4) == 0)
		I->has_cols = 0;
	bo_clues_from(I, x, r, (int)tu_range(r, 3, 9), 8);
}

Test(binary, exact_rectangular_unbalanced)
{
	tally t = run_family(31337, 80, gen_rect, 0, "rectangular");
	tally_report(&t, "rectangular", bo_valgrind() ? 8 : 35, bo_valgrind() ? 1 : 5);
}

/* Distinct lines (the witness model), and each instance again without
 * them: the solutions without the rule are a superset. */
static void gen_distinct(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 2, 2 }, { 2, 4 }, { 4, 2 }, { 4, 4 }, { 3, 3 },
					     { 3, 4 }, { 4, 3 }, { 2, 3 }, { 4, 4 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->distinct = 1;
	I->windows = tu_below(r, 3) ? QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS
				    : (int32_t)tu_below(r, 4);
	bo_prepare(I);
	if (w % 2 == 0 && h % 2 == 0 && tu_below(r, 2)) {
		bo_plant(I, r, x);
	} else {
		bo_random_board(I, r, x);
		bo_counts_from(I, x, r, 4, 12);
	}
	bo_clues_from(I, x, r, (int)tu_range(r, 3, 12), 10);
}

Test(binary, exact_distinct_witness_and_nounique)
{
	tu_rng r = { 4242 };
	tally a, b;
	int i, trials = bo_valgrind() ? 20 : 60;
	size_t differ = 0;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (i = 0; i < trials; i++) {
		bo_inst I, U;
		ph_set sd = { 0 }, su = { 0 };
		long cd, cu;
		size_t k;
		char what[96];

		do {
			sd.n = su.n = 0;
			gen_distinct(&I, &r, i);
			bo_prepare(&I);
			U = I;
			U.distinct = 0;
			cd = bo_solutions(&I, &sd, 1 << 14);
			cu = bo_solutions(&U, &su, 1 << 14);
		} while (cd < 0 || cu < 0);
		for (k = 0; k < sd.n; k++)
			cr_assert(bo_set_has(&su, sd.keys[k]));
		differ += su.n > sd.n;
		snprintf(what, sizeof what, "distinct instance %d (%ux%u)", i, (unsigned)I.w,
			 (unsigned)I.h);
		check_instance(&I, &sd, &r, what, &a, NULL);
		snprintf(what, sizeof what, "nounique instance %d (%ux%u)", i, (unsigned)I.w,
			 (unsigned)I.h);
		check_instance(&U, &su, &r, what, &b, NULL);
		free(sd.keys);
		free(su.keys);
	}
	tally_report(&a, "distinct", bo_valgrind() ? 5 : 20, bo_valgrind() ? 1 : 5);
	tally_report(&b, "nounique", bo_valgrind() ? 5 : 20, 0);
	cr_assert_geq(differ, (size_t)trials / 10, "only %zu instances where the rule matters",
		      differ);
}

/* Tango: balanced even boards, signs between adjacent cells (and a wrong
 * one now and then), sparse clues; also through the `tango` text form. */
static void gen_tango(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 2, 2 }, { 4, 2 }, { 2, 4 }, { 4, 4 },
					     { 4, 4 }, { 6, 2 }, { 2, 6 }, { 4, 4 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	bo_prepare(I);
	bo_plant(I, r, x);
	bo_signs_from(I, x, r, (size_t)tu_range(r, 1, 2 * (int64_t)(w + h)), 1, 5);
	bo_clues_from(I, x, r, (int)tu_range(r, 4, 12), 8);
}

Test(binary, exact_tango_signs)
{
	tally t = run_family(777, 70, gen_tango, 2, "tango");
	tally_report(&t, "tango", bo_valgrind() ? 8 : 30, bo_valgrind() ? 1 : 5);
}

/* Signs between any two cells, on any board. */
static void gen_long_signs(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 4, 4 }, { 3, 5 }, { 5, 3 }, { 4, 3 }, { 2, 6 },
					     { 6, 2 }, { 4, 5 }, { 5, 4 }, { 3, 3 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	bo_prepare(I);
	if (w % 2 == 0 && h % 2 == 0 && tu_below(r, 2)) {
		bo_plant(I, r, x);
	} else {
		bo_random_board(I, r, x);
		bo_counts_from(I, x, r, 4, 0);
	}
	bo_signs_from(I, x, r, (size_t)tu_range(r, 2, 12), 0, 6);
	bo_clues_from(I, x, r, (int)tu_range(r, 5, 16), 12);
}

Test(binary, exact_long_distance_signs)
{
	tally t = run_family(8080, 70, gen_long_signs, 0, "long signs");
	tally_report(&t, "long signs", bo_valgrind() ? 6 : 24, bo_valgrind() ? 1 : 5);
}

/* Diagonal windows (with rows and columns or alone). */
static void gen_diagonal(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 3, 3 }, { 4, 4 }, { 3, 4 }, { 4, 3 }, { 5, 3 },
					     { 3, 5 }, { 4, 5 }, { 5, 4 }, { 6, 3 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->windows = QUBO_PUZZLE_WINDOWS_DIAGONALS | (int32_t)tu_below(r, 4);
	bo_prepare(I);
	bo_random_board(I, r, x);
	bo_counts_from(I, x, r, 3, 12);
	bo_clues_from(I, x, r, (int)tu_range(r, 4, 12), 10);
}

Test(binary, exact_diagonal_windows)
{
	tally t = run_family(1234, 60, gen_diagonal, 0, "diagonal");
	tally_report(&t, "diagonal", bo_valgrind() ? 6 : 25, bo_valgrind() ? 1 : 4);
}

/* Cylinder and torus. Diagonal windows only where both libraries of rules
 * agree on the sides (see wrap_across_short_sides for the others). */
static void gen_wrap(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 4, 4 }, { 5, 4 }, { 4, 5 }, { 4, 3 }, { 5, 3 },
					     { 3, 4 }, { 6, 2 }, { 3, 3 }, { 2, 4 }, { 6, 3 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->wrap = (int32_t)tu_range(r, 1, 2);
	I->windows = (int32_t)tu_range(r, 1, 3);
	if (tu_below(r, 2) &&
	    (I->wrap == QUBO_PUZZLE_WRAP_CYLINDER ? w >= 4 : w >= 4 && h >= 4))
		I->windows |= QUBO_PUZZLE_WINDOWS_DIAGONALS;
	bo_prepare(I);
	if (w % 2 == 0 && h % 2 == 0 && tu_below(r, 2)) {
		bo_plant(I, r, x);
	} else {
		bo_random_board(I, r, x);
		bo_counts_from(I, x, r, 4, 12);
	}
	bo_clues_from(I, x, r, (int)tu_range(r, 4, 12), 10);
}

Test(binary, exact_cylinder_and_torus)
{
	tally t = run_family(2718, 70, gen_wrap, 0, "wrap");
	tally_report(&t, "wrap", bo_valgrind() ? 6 : 30, bo_valgrind() ? 0 : 3);
}

/* Regions with counts (and a cell in no region), over any counts. */
static void gen_regions(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 4, 4 }, { 3, 4 }, { 4, 3 }, { 5, 3 }, { 3, 5 },
					     { 4, 5 }, { 5, 4 }, { 3, 3 }, { 6, 3 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->windows = (int32_t)tu_below(r, 4);
	bo_prepare(I);
	if (w % 2 == 0 && h % 2 == 0 && tu_below(r, 3) == 0) {
		bo_plant(I, r, x);
	} else {
		bo_random_board(I, r, x);
		bo_counts_from(I, x, r, 2, 0);
	}
	bo_regions_from(I, x, r, (size_t)tu_range(r, 1, 5), 6, 8);
	bo_clues_from(I, x, r, (int)tu_range(r, 5, 16), 12);
}

Test(binary, exact_regions)
{
	tally t = run_family(1618, 70, gen_regions, 0, "regions");
	tally_report(&t, "regions", bo_valgrind() ? 8 : 30, bo_valgrind() ? 1 : 5);
}

/* Equality groups and differing pairs of groups. */
static void gen_groups(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 4, 4 }, { 3, 4 }, { 4, 3 }, { 5, 3 },
					     { 3, 5 }, { 4, 5 }, { 5, 4 }, { 6, 2 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	pick_size(sizes, sizeof sizes / sizeof sizes[0], r, &w, &h);
	bo_init(I, w, h);
	I->windows = tu_below(r, 3) ? QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS
				    : (int32_t)tu_below(r, 8);
	bo_prepare(I);
	if (w % 2 == 0 && h % 2 == 0 && tu_below(r, 2)) {
		bo_plant(I, r, x);
	} else {
		bo_random_board(I, r, x);
		bo_counts_from(I, x, r, 3, 0);
	}
	bo_groups_from(I, x, r, (size_t)tu_range(r, 2, 5), (size_t)tu_range(r, 0, 4), 6);
	bo_clues_from(I, x, r, (int)tu_range(r, 6, 20), 12);
}

Test(binary, exact_groups_and_differing_pairs)
{
	tally t = run_family(5555, 70, gen_groups, 0, "groups");
	tally_report(&t, "groups", bo_valgrind() ? 8 : 30, bo_valgrind() ? 1 : 5);
}

/* Everything at once. */
static void gen_mixed(bo_inst *I, tu_rng *r, int i)
{
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];

	(void)i;
	do {
		w = (uint32_t)tu_range(r, 1, 6);
		h = (uint32_t)tu_range(r, 1, 6);
	} while (w * h > 20 || w * h < 2);
	bo_init(I, w, h);
	I->windows = (int32_t)tu_below(r, 8);
	I->wrap = (int32_t)tu_below(r, 3);
	if ((I->windows & QUBO_PUZZLE_WINDOWS_DIAGONALS) &&
	    ((I->wrap == QUBO_PUZZLE_WRAP_CYLINDER && w < 4) ||
	     (I->wrap == QUBO_PUZZLE_WRAP_TORUS && (w < 4 || h < 4))))
		I->wrap = QUBO_PUZZLE_WRAP_NONE; /* see wrap_across_short_sides */
	I->distinct = w <= 4 && h <= 4 && tu_below(r, 3) == 0;
	bo_prepare(I);
	bo_random_board(I, r, x);
	bo_counts_from(I, x, r, 4, 15);
	if (w % 2 == 0 && tu_below(r, 3) == 0)
		I->has_rows = 0;
	if (h % 2 == 0 && tu_below(r, 3) == 0)
		I->has_cols = 0;
	if (tu_below(r, 2))
		bo_signs_from(I, x, r, (size_t)tu_range(r, 1, 6), (int)tu_below(r, 2), 8);
	if (tu_below(r, 3) == 0)
		bo_regions_from(I, x, r, (size_t)tu_range(r, 1, 4), 5, 10);
	if (tu_below(r, 3) == 0 && w * h >= 6)
		bo_groups_from(I, x, r, (size_t)tu_range(r, 2, 4), (size_t)tu_range(r, 0, 3), 10);
	bo_clues_from(I, x, r, (int)tu_range(r, 3, 12), 12);
}

Test(binary, exact_mixed_features)
{
	tally t = run_family(60221, 90, gen_mixed, 0, "mixed");
	tally_report(&t, "mixed", bo_valgrind() ? 8 : 35, bo_valgrind() ? 1 : 5);
}

/* Windows across a joined edge of a short side. binary.h: "the windows are
 * the runs of three adjacent cells in the directions windows names,
 * continued across the edges that wrap joins". On a cylinder 3 wide, the
 * diagonal run (row 1, column 3), (row 2, column 1), (row 3, column 2) is
 * such a run of three different cells; so is, on a torus 2 high, the run
 * (row 1, column 1), (row 2, column 2), (row 1, column 3). */
static void check_short_side(uint32_t w, uint32_t h, int32_t wrap, int32_t windows,
			     const uint32_t *extra, const char *what)
{
	bo_inst I;
	qubo_puzzle_binary_spec s;
	qubo_puzzle *p = NULL;
	ph_set sols = { 0 };
	uint8_t x[BO_MAX_CELLS];
	size_t k, n = (size_t)w * h, viol = 0;
	char rep[512];

	bo_init(&I, w, h);
	I.has_rows = I.has_cols = 1;
	for (k = 0; k < h; k++)
		I.rows[k] = -1;
	for (k = 0; k < w; k++)
		I.cols[k] = -1;
	I.wrap = wrap;
	I.windows = windows;
	bo_prepare(&I);
	/* the oracle has the extra window */
	for (k = 0; k < I.nwin; k++)
		if (!memcmp(I.win[k], extra, 3 * sizeof *extra))
			break;
	cr_assert_lt(k, I.nwin, "%s: the oracle lacks the window", what);
	/* the checker agrees with the oracle on every board */
	bo_spec(&I, &s);
	cr_assert_eq(qubo_puzzle_binary_new(&p, &s, NULL), QUBO_OK, "%s: %s", what,
		     qubo_error_message());
	for (k = 0; k < ((size_t)1 << n); k++) {
		bo_board(k, n, x);
		cr_assert_eq(qubo_puzzle_check(p, x, n, rep, sizeof rep, &viol), QUBO_OK);
		if ((viol == 0) != bo_valid(&I, x))
			break;
	}
	if (k < ((size_t)1 << n)) {
		char shown[BO_MAX_CELLS + BO_MAX_SIDE + 1];
		size_t j, m = 0;

		for (j = 0; j < n; j++) {
			shown[m++] = (char)('0' + x[j]);
			if (j % w == w - 1 && j + 1 < n)
				shown[m++] = '/';
		}
		shown[m] = '\0';
		cr_expect_eq(viol == 0, bo_valid(&I, x),
			     "%s: the checker finds %zu broken rules in the board %s (rows "
			     "separated by '/'), the rules of binary.h %s (their windows include "
			     "runs across the joined edge, such as cells %u, %u, %u)",
			     what, viol, shown, bo_valid(&I, x) ? "none" : "at least one", extra[0],
			     extra[1], extra[2]);
	}
	qubo_puzzle_free(p);
	/* and the model's minimisers are the oracle's solutions (checked
	 * without aborting, so that a failure leaks nothing) */
	cr_assert_geq(bo_solutions(&I, &sols, 0), 0);
	{
		qubo_puzzle_options o = opts_for(QUBO_REDUCE_NONE, 0);
		bo_proj P;
		ph_set mins = { 0 };
		double best;
		size_t same = 0;

		p = NULL;
		cr_assert_eq(qubo_puzzle_binary_new(&p, &s, &o), QUBO_OK, "%s: %s", what,
			     qubo_error_message());
		bo_proj_init(&P, p, n);
		best = bo_proj_minimisers(&P, &mins);
		for (k = 0; k < mins.n; k++)
			same += bo_set_has(&sols, mins.keys[k]);
		cr_expect(best == 0.0 && mins.n == sols.n && same == sols.n,
			  "%s: the model has %zu minimisers at energy %g, the rules of binary.h "
			  "%zu solutions (%zu in common)",
			  what, mins.n, best, sols.n, same);
		free(mins.keys);
		bo_proj_free(&P);
		qubo_puzzle_free(p);
	}
	free(sols.keys);
}

/* Each a failing case while lib/puzzle/binary_spec.c's step() treats a
 * wrapped side of 3 or fewer cells as not wrapped. */
Test(binary, wrap_across_short_sides_cylinder_3_wide)
{
	static const uint32_t win[3] = { 2, 3, 7 }; /* (1,3) (2,1) (3,2) */
	check_short_side(3, 3, QUBO_PUZZLE_WRAP_CYLINDER, QUBO_PUZZLE_WINDOWS_DIAGONALS, win,
			 "cylinder 3 x 3");
}

Test(binary, wrap_across_short_sides_cylinder_2_wide)
{
	static const uint32_t win[3] = { 1, 2, 5 }; /* (1,2) (2,1) (3,2) */
	check_short_side(2, 3, QUBO_PUZZLE_WRAP_CYLINDER, QUBO_PUZZLE_WINDOWS_DIAGONALS, win,
			 "cylinder 2 x 3");
}

Test(binary, wrap_across_short_sides_torus_2_high)
{
	static const uint32_t win[3] = { 0, 2, 5 }; /* (1,1) (2,2) (1,3) */
	check_short_side(4, 2, QUBO_PUZZLE_WRAP_TORUS, QUBO_PUZZLE_WINDOWS_DIAGONALS, win,
			 "torus 4 x 2");
}

Test(binary, wrap_across_short_sides_torus_3_high)
{
	static const uint32_t win[3] = { 2, 4, 9 }; /* (2,1) (3,2) (1,3) */
	check_short_side(4, 3, QUBO_PUZZLE_WRAP_TORUS, QUBO_PUZZLE_WINDOWS_DIAGONALS, win,
			 "torus 4 x 3");
}

/* The wide side wraps, the short one does not: a torus 3 high still wraps
 * its rows' windows across the left and right edges like the library. */
Test(binary, wrap_long_sides_agree)
{
	tu_rng r = { 11 };
	static const uint32_t sizes[][3] = { { 4, 3, 2 }, { 5, 2, 2 }, { 4, 4, 2 },
					     { 5, 3, 1 }, { 4, 2, 1 }, { 3, 4, 2 } };
	size_t k;
	tally t;

	memset(&t, 0, sizeof t);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		bo_inst I;
		ph_set sols = { 0 };
		char what[64];

		bo_init(&I, sizes[k][0], sizes[k][1]);
		I.has_rows = I.has_cols = 1;
		memset(I.rows, 0xff, sizeof I.rows);
		memset(I.cols, 0xff, sizeof I.cols);
		I.wrap = (int32_t)sizes[k][2];
		bo_prepare(&I);
		cr_assert_geq(bo_solutions(&I, &sols, 0), 0);
		snprintf(what, sizeof what, "%s %ux%u rows and columns windows",
			 I.wrap == 1 ? "cylinder" : "torus", (unsigned)I.w, (unsigned)I.h);
		check_instance(&I, &sols, &r, what, &t, NULL);
		free(sols.keys);
	}
	cr_assert_eq(t.with, sizeof sizes / sizeof sizes[0]);
}

/* ---- the local model against the witness model (doc/formulations.md) ---- */

static qubo_puzzle *parse_at(const char *text, int32_t level)
{
	qubo_puzzle_options o = opts_for(level, 0);
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK, "%s: %s", text,
		     qubo_error_message());
	return p;
}

static int has_equal_lines(const uint8_t *x, uint32_t w, uint32_t h)
{
	uint32_t a, b, r;

	for (a = 0; a < h; a++)
		for (b = a + 1; b < h; b++)
			if (!memcmp(x + a * w, x + b * w, w))
				return 1;
	for (a = 0; a < w; a++)
		for (b = a + 1; b < w; b++) {
			for (r = 0; r < h && x[r * w + a] == x[r * w + b]; r++)
				;
			if (r == h)
				return 1;
		}
	return 0;
}

/* A classical Takuzu whose local model (`nounique`, no witnesses) has a
 * second minimiser at energy 0 with two equal rows (and two pairs of equal
 * columns): only a relaxation. The witness model does not: that board's
 * best energy over every setting of the witnesses is above 0 (exactly one
 * P per pair of equal lines, unreduced), and its minimisers are the one
 * solution. */
Test(binary, local_model_is_a_relaxation_witness_model_is_exact)
{
	static const char local[] = "takuzu 4 nounique\n.0..\n1.1.\n...1\n..0.\n";
	static const char classic[] = "takuzu 4\n.0..\n1.1.\n...1\n..0.\n";
	/* 0011/1010/0101/1100 and 1010/1010/0101/0101 (rows 1 and 2 equal) */
	static const uint8_t good[16] = { 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0 };
	static const uint8_t twin[16] = { 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1 };
	size_t l;

	cr_assert(has_equal_lines(twin, 4, 4) && !has_equal_lines(good, 4, 4));
	for (l = 0; l < 3; l++) {
		qubo_puzzle *pl = parse_at(local, levels[l]), *pw = parse_at(classic, levels[l]);
		bo_proj Pl, Pw;
		ph_set ml = { 0 }, mw = { 0 };
		double bl, bw, e;
		size_t viol = 0;
		char rep[256];

		bo_proj_init(&Pl, pl, 16);
		bo_proj_init(&Pw, pw, 16);
		bl = bo_proj_minimisers(&Pl, &ml);
		bw = bo_proj_minimisers(&Pw, &mw);
		cr_assert_eq(bl, 0.0);
		cr_assert_eq(bw, 0.0);
		/* the local model: both boards at energy 0 */
		cr_assert_eq(ml.n, 2, "level %d: %zu local minimisers", (int)levels[l], ml.n);
		cr_assert(bo_set_has(&ml, ph_key(good, 16)) && bo_set_has(&ml, ph_key(twin, 16)));
		cr_assert_eq(bo_board_energy(&Pl, twin), 0.0);
		/* the witness model: the twin is not a minimiser, at any witnesses */
		cr_assert_eq(mw.n, 1, "level %d: %zu witness minimisers", (int)levels[l], mw.n);
		cr_assert_eq(mw.keys[0], ph_key(good, 16));
		cr_assert(!bo_set_has(&mw, ph_key(twin, 16)));
		e = bo_board_energy(&Pw, twin);
		cr_assert_gt(e, 0.0, "level %d: the twin board reaches %g in the witness model",
			     (int)levels[l], e);
		if (levels[l] == QUBO_REDUCE_NONE) {
			/* rows 1 = 2, rows 3 = 4, columns 1 = 3, columns 2 = 4 */
			cr_assert_eq(e, 4.0, "unreduced: %g, expected one P per equal pair", e);
			cr_assert_gt(Pw.nv, Pl.nv, "the witnesses add variables");
			/* balanced lines: one kind of witness per pair and position */
			cr_assert_eq(Pw.nv, 16 + (6 * 4 + 6 * 4), "unreduced witness variables: %zu",
				     Pw.nv);
		}
		/* the checker agrees */
		cr_assert_eq(qubo_puzzle_check(pw, twin, 16, rep, sizeof rep, &viol), QUBO_OK);
		cr_assert_eq(viol, 4, "%s", rep);
		cr_assert(strstr(rep, "rows 1 and 2 are equal"), "%s", rep);
		cr_assert_eq(qubo_puzzle_check(pl, twin, 16, rep, sizeof rep, &viol), QUBO_OK);
		cr_assert_eq(viol, 0, "%s", rep);
		free(ml.keys);
		free(mw.keys);
		bo_proj_free(&Pl);
		bo_proj_free(&Pw);
		qubo_puzzle_free(pl);
		qubo_puzzle_free(pw);
	}
}

/* The empty 4 x 4 board: 90 local minimisers, 72 witness minimisers; each
 * of the 18 boards between them repeats a line and has a witness energy
 * above 0. */
Test(binary, empty_4x4_local_and_witness)
{
	qubo_puzzle *pl = parse_at("takuzu 4 nounique\n....\n....\n....\n....\n", QUBO_REDUCE_NONE);
	qubo_puzzle *pw = parse_at("takuzu 4\n....\n....\n....\n....\n", QUBO_REDUCE_NONE);
	bo_proj Pl, Pw;
	ph_set ml = { 0 }, mw = { 0 };
	bo_inst I;
	ph_set sols = { 0 };
	size_t i, extra = 0;

	bo_init(&I, 4, 4);
	I.distinct = 1;
	bo_prepare(&I);
	cr_assert_eq(bo_solutions(&I, &sols, 0), 72);
	bo_proj_init(&Pl, pl, 16);
	bo_proj_init(&Pw, pw, 16);
	cr_assert_eq(bo_proj_minimisers(&Pl, &ml), 0.0);
	cr_assert_eq(bo_proj_minimisers(&Pw, &mw), 0.0);
	cr_assert_eq(ml.n, 90);
	cr_assert_eq(mw.n, 72);
	for (i = 0; i < mw.n; i++)
		cr_assert_eq(mw.keys[i], sols.keys[i]);
	for (i = 0; i < ml.n; i++) {
		uint8_t x[16];

		if (bo_set_has(&mw, ml.keys[i]))
			continue;
		extra++;
		bo_board(ml.keys[i], 16, x);
		cr_assert(has_equal_lines(x, 4, 4));
		cr_assert_gt(bo_board_energy(&Pw, x), 0.0);
	}
	cr_assert_eq(extra, 18);
	free(ml.keys);
	free(mw.keys);
	free(sols.keys);
	bo_proj_free(&Pl);
	bo_proj_free(&Pw);
	qubo_puzzle_free(pl);
	qubo_puzzle_free(pw);
}

/* ---- Tango: signs become parity classes ---- */

/* The test's own union-find with parity over the signs and groups. */
typedef struct bo_classes {
	size_t n;
	uint32_t parent[BO_MAX_CELLS];
	uint8_t par[BO_MAX_CELLS]; /* parity to the parent */
} bo_classes;

static uint32_t cls_find(bo_classes *C, uint32_t a, uint8_t *parity)
{
	uint8_t p = 0;

	while (C->parent[a] != a) {
		p ^= C->par[a];
		a = C->parent[a];
	}
	*parity = p;
	return a;
}

/* 0 when a relation contradicts the earlier ones. */
static int cls_relate(bo_classes *C, uint32_t a, uint32_t b, int differ)
{
	uint8_t pa, pb;
	uint32_t ra = cls_find(C, a, &pa), rb = cls_find(C, b, &pb);

	if (ra == rb)
		return (uint8_t)(pa ^ pb) == (uint8_t)(differ != 0);
	C->parent[ra] = rb;
	C->par[ra] = (uint8_t)(pa ^ pb ^ (differ != 0));
	return 1;
}

static void cls_build(bo_classes *C, const bo_inst *I)
{
	size_t c, k;
	int32_t first[BO_MAX_GROUPS];

	C->n = bo_cells(I);
	for (c = 0; c < C->n; c++) {
		C->parent[c] = (uint32_t)c;
		C->par[c] = 0;
	}
	for (k = 0; k < I->nsigns; k++)
		cr_assert(cls_relate(C, I->signs[k].a, I->signs[k].b, I->signs[k].differ));
	if (I->has_groups) {
		for (k = 0; k < I->ngroups; k++)
			first[k] = -1;
		for (c = 0; c < C->n; c++) {
			int32_t g = I->group[c];
			if (g < 0)
				continue;
			if (first[g] < 0)
				first[g] = (int32_t)c;
			else
				cr_assert(cls_relate(C, (uint32_t)first[g], (uint32_t)c, 0));
		}
		for (k = 0; k < I->npairs; k++)
			cr_assert(cls_relate(C, (uint32_t)first[I->pairs[2 * k]],
					     (uint32_t)first[I->pairs[2 * k + 1]], 1));
	}
}

/* At level CLUES the variables are the classes that hold no clue, each
 * cell its class's variable or its complement by the parity, and a clued
 * class constant. */
static void check_classes(const qubo_puzzle *p, const bo_inst *I, const char *what)
{
	bo_classes C;
	qubo_puzzle_stats st;
	qubo_lit lits[BO_MAX_CELLS];
	size_t n = bo_cells(I), c, d, free_classes = 0;
	int8_t root_val[BO_MAX_CELLS];
	uint8_t pc, pd;
	const qubo_model *m;

	cls_build(&C, I);
	memset(root_val, -1, sizeof root_val);
	for (c = 0; c < n; c++)
		if (I->clue[c] >= 0) {
			uint32_t r = cls_find(&C, (uint32_t)c, &pc);
			cr_assert(root_val[r] < 0 || root_val[r] == (I->clue[c] ^ pc),
				  "%s: a planted instance with clashing clues", what);
			root_val[r] = (int8_t)(I->clue[c] ^ pc);
		}
	for (c = 0; c < n; c++)
		free_classes += cls_find(&C, (uint32_t)c, &pc) == c && root_val[c] < 0;
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(st.variables_after, free_classes,
		     "%s: %zu variables at level CLUES, %zu classes without a clue", what,
		     st.variables_after, free_classes);
	cr_assert_eq(qubo_model_num_variables(m), free_classes, "%s", what);
	cr_assert_eq(st.variables_before, n, "%s", what);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, n), QUBO_OK);
	for (c = 0; c < n; c++) {
		uint32_t rc = cls_find(&C, (uint32_t)c, &pc);

		if (root_val[rc] >= 0) {
			cr_assert_eq(lits[c], (root_val[rc] ^ pc) ? QUBO_LIT_TRUE : QUBO_LIT_FALSE,
				     "%s: cell %zu of a clued class", what, c);
			continue;
		}
		cr_assert(!QUBO_LIT_IS_CONST(lits[c]), "%s: cell %zu fixed at level CLUES", what, c);
		for (d = 0; d < c; d++) {
			uint32_t rd = cls_find(&C, (uint32_t)d, &pd);

			if (QUBO_LIT_IS_CONST(lits[d]))
				continue;
			if (rd == rc)
				cr_assert_eq(lits[c], (pc ^ pd) ? QUBO_LIT_NOT(lits[d]) : lits[d],
					     "%s: cells %zu and %zu of one class", what, d, c);
			else
				cr_assert_neq(QUBO_LIT_VAR(lits[c]), QUBO_LIT_VAR(lits[d]),
					      "%s: cells %zu and %zu of two classes share a variable",
					      what, d, c);
		}
	}
	{
		size_t in_free = 0;
		for (c = 0; c < n; c++)
			in_free += root_val[cls_find(&C, (uint32_t)c, &pc)] < 0;
		cr_assert_eq(st.cells_fixed, n - in_free, "%s: cells_fixed %zu", what,
			     st.cells_fixed);
	}
}

/* A feasible Tango-like instance: a planted solution, signs that it keeps
 * (adjacent, or any two cells), clues from it. */
static void gen_tango_classes(bo_inst *I, tu_rng *r, uint32_t w, uint32_t h, int adjacent)
{
	uint8_t x[BO_MAX_CELLS];

	bo_init(I, w, h);
	bo_prepare(I);
	cr_assert(bo_random_solution(I, r, x));
	bo_signs_from(I, x, r, (size_t)tu_range(r, 0, (int64_t)(w * h) / 2), adjacent, 0);
	bo_clues_from(I, x, r, (int)tu_range(r, 3, 10), 0);
	if (!adjacent && tu_below(r, 2))
		bo_groups_from(I, x, r, (size_t)tu_range(r, 1, 4), (size_t)tu_range(r, 0, 3), 0);
	if (I->has_groups) /* keep only pairs of groups of different values */
		for (size_t k = 0; k < I->npairs; k++) {
			size_t c, a = bo_cells(I), b = bo_cells(I);
			for (c = 0; c < bo_cells(I); c++) {
				if (I->group[c] == (int32_t)I->pairs[2 * k] && a == bo_cells(I))
					a = c;
				if (I->group[c] == (int32_t)I->pairs[2 * k + 1] && b == bo_cells(I))
					b = c;
			}
			if (x[a] == x[b])
				I->pairs[2 * k + 1] = I->pairs[2 * k]; /* marked, dropped below */
		}
	if (I->has_groups) {
		size_t k, m = 0;
		for (k = 0; k < I->npairs; k++)
			if (I->pairs[2 * k] != I->pairs[2 * k + 1]) {
				I->pairs[2 * m] = I->pairs[2 * k];
				I->pairs[2 * m + 1] = I->pairs[2 * k + 1];
				m++;
			}
		I->npairs = m;
	}
	bo_prepare(I);
	cr_assert(bo_valid(I, x), "the planted board breaks the instance");
}

Test(binary, tango_signs_become_parity_classes)
{
	static const uint32_t sizes[][2] = { { 6, 6 }, { 6, 6 }, { 8, 8 }, { 4, 6 },
					     { 6, 4 }, { 8, 4 }, { 4, 4 }, { 6, 8 } };
	tu_rng r = { 1729 };
	int i, trials = bo_valgrind() ? 16 : 64;

	for (i = 0; i < trials; i++) {
		bo_inst I;
		qubo_puzzle_binary_spec s;
		qubo_puzzle_options o = opts_for(QUBO_REDUCE_CLUES, 0);
		qubo_puzzle_options none = opts_for(QUBO_REDUCE_NONE, 0);
		qubo_puzzle_options full = opts_for(QUBO_REDUCE_FULL, 0);
		qubo_puzzle_stats st, sf;
		qubo_puzzle *p = NULL;
		int adjacent = i % 4 != 3;
		char what[64], text[1024];
		size_t k = (size_t)i % (sizeof sizes / sizeof sizes[0]);

		gen_tango_classes(&I, &r, sizes[k][0], sizes[k][1], adjacent);
		snprintf(what, sizeof what, "instance %d (%ux%u, %zu signs)", i, (unsigned)I.w,
			 (unsigned)I.h, I.nsigns);
		bo_spec(&I, &s);
		cr_assert_eq(qubo_puzzle_binary_new(&p, &s, &o), QUBO_OK, "%s: %s", what,
			     qubo_error_message());
		check_classes(p, &I, what);
		memset(&sf, 0, sizeof sf);
		sf.struct_size = sizeof sf;
		cr_assert_eq(qubo_puzzle_get_stats(p, &sf), QUBO_OK);
		qubo_puzzle_free(p);
		/* unreduced: one variable per cell; full: no more than by classes */
		cr_assert_eq(qubo_puzzle_binary_new(&p, &s, &none), QUBO_OK, "%s", what);
		memset(&st, 0, sizeof st);
		st.struct_size = sizeof st;
		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		cr_assert_eq(st.variables_after, bo_cells(&I), "%s", what);
		cr_assert_eq(st.cells_fixed, 0, "%s", what);
		qubo_puzzle_free(p);
		cr_assert_eq(qubo_puzzle_binary_new(&p, &s, &full), QUBO_OK, "%s", what);
		memset(&st, 0, sizeof st);
		st.struct_size = sizeof st;
		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		cr_assert_leq(st.variables_after, sf.variables_after, "%s", what);
		cr_assert_geq(st.cells_fixed, sf.cells_fixed, "%s", what);
		qubo_puzzle_free(p);
		/* the same through the tango text form */
		if (adjacent) {
			bo_text(&I, 1, text, sizeof text);
			p = NULL;
			cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK,
				     "%s: %s\n%s", what, qubo_error_message(), text);
			cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_TANGO);
			check_classes(p, &I, what);
			qubo_puzzle_free(p);
		}
	}
}

/* ---- contradictions: QUBO_ERR_INFEASIBLE naming the cells ---- */

typedef struct infeasible_case {
	const char *text;
	const char *needles[3];
} infeasible_case;

static const infeasible_case infeasible_texts[] = {
	/* a cycle of signs with one 'x': a = b, a = c, b x d, c = d */
	{ "tango 4\n.=. . .\n= x\n.=. . .\n\n. . . .\n\n. . . .\n",
	  { "closes a cycle of signs with an odd number of 'x'", "row 2, column 1",
	    "row 2, column 2" } },
	/* clues against a sign */
	{ "tango 4\n0=1 . .\n\n. . . .\n\n. . . .\n\n. . . .\n",
	  { "the clue 0 at row 1, column 1", "the clue 1 at row 1, column 2",
	    "contradict the signs" } },
	/* clues against a chain of signs through a free cell: 0 x a = 0 */
	{ "tango 4\n. . . .\n\n. . . 0\n      x\n. . . .\n      =\n. . . 0\n",
	  { "the clue 0 at row 2, column 4", "the clue 0 at row 4, column 4",
	    "contradict the signs" } },
	/* four 1s given in a row of 6 */
	{ "takuzu 6\n1.11.1\n......\n......\n......\n......\n......\n",
	  { "row 1 needs 3 ones and 3 zeros", "4 of its cells must be 1",
	    "columns 1, 3, 4, 6" } },
	/* four 0s given in a column of 6 (nounique) */
	{ "takuzu 6 nounique\n.0....\n......\n.0....\n.0....\n......\n.0....\n",
	  { "column 2 needs 3 ones and 3 zeros", "4 of its cells must be 0",
	    "rows 1, 3, 4, 6" } },
	/* three equal in a window by the signs */
	{ "tango 6\n. .=.=. . .\n\n. . . . . .\n\n. . . . . .\n\n. . . . . .\n\n. . . . . .\n\n"
	  ". . . . . .\n",
	  { "the signs make row 1, columns 2 to 4 equal", "no three equal", NULL } },
	{ "tango 6\n. . . . . .\n\n. . . . . .\n    =\n. . . . . .\n    =\n. . . . . .\n\n"
	  ". . . . . .\n\n. . . . . .\n",
	  { "the signs make column 3, rows 2 to 4 equal", "no three equal", NULL } },
	/* a window given two equal cells and the third by a sign */
	{ "tango 4\n1 1=. .\n\n. . . .\n\n. . . .\n\n. . . .\n",
	  { "no solution", "row 1", NULL } },
};

Test(binary, infeasible_text_is_named_at_every_level)
{
	size_t i, l;

	for (i = 0; i < sizeof infeasible_texts / sizeof infeasible_texts[0]; i++)
		for (l = 0; l < 3; l++) {
			const infeasible_case *c = &infeasible_texts[i];
			qubo_puzzle_options o = opts_for(levels[l], 0);
			qubo_puzzle *p = (qubo_puzzle *)&o;
			int rc = qubo_puzzle_parse(&p, c->text, strlen(c->text), &o), k;

			cr_expect_eq(rc, QUBO_ERR_INFEASIBLE, "case %zu, level %d: %s: %s", i,
				     (int)levels[l], qubo_status_name(rc), qubo_error_message());
			if (rc == QUBO_OK)
				qubo_puzzle_free(p);
			else
				cr_expect_null(p, "case %zu", i);
			cr_expect_eq(qubo_error_code(), QUBO_ERR_INFEASIBLE, "case %zu", i);
			cr_expect_eq(qubo_error_line(), 0, "case %zu", i);
			cr_expect(strstr(qubo_error_message(), "the puzzle has no solution"),
				  "case %zu: %s", i, qubo_error_message());
			for (k = 0; k < 3 && c->needles[k]; k++)
				cr_expect(strstr(qubo_error_message(), c->needles[k]),
					  "case %zu, level %d: '%s' lacks '%s'", i, (int)levels[l],
					  qubo_error_message(), c->needles[k]);
		}
}

static void expect_infeasible(const qubo_puzzle_binary_spec *s, const char *n1, const char *n2,
			      const char *what)
{
	size_t l;

	for (l = 0; l < 3; l++) {
		qubo_puzzle_options o = opts_for(levels[l], 0);
		qubo_puzzle *p = (qubo_puzzle *)&o;
		int rc = qubo_puzzle_binary_new(&p, s, &o);

		cr_expect_eq(rc, QUBO_ERR_INFEASIBLE, "%s, level %d: %s: %s", what, (int)levels[l],
			     qubo_status_name(rc), qubo_error_message());
		if (rc == QUBO_OK) {
			qubo_puzzle_free(p);
			continue;
		}
		cr_expect_null(p, "%s", what);
		cr_expect(strstr(qubo_error_message(), "no solution"), "%s: %s", what,
			  qubo_error_message());
		cr_expect(strstr(qubo_error_message(), n1), "%s: '%s' lacks '%s'", what,
			  qubo_error_message(), n1);
		if (n2)
			cr_expect(strstr(qubo_error_message(), n2), "%s: '%s' lacks '%s'", what,
				  qubo_error_message(), n2);
	}
}

Test(binary, infeasible_spec_is_named_at_every_level)
{
	bo_inst I;
	qubo_puzzle_binary_spec s;

	/* a = b, b = c, a x c between cells far apart */
	bo_init(&I, 4, 4);
	bo_add_sign(&I, 0, 5, 0);
	bo_add_sign(&I, 5, 10, 0);
	bo_add_sign(&I, 10, 0, 1);
	bo_spec(&I, &s);
	expect_infeasible(&s, "closes a cycle", "row 1, column 1", "sign cycle");
	cr_expect(strstr(qubo_error_message(), "row 3, column 3"), "%s", qubo_error_message());

	/* the same cycle through a group and a differing pair: group 0 holds
	 * cells 0 and 1, group 1 cell 2, the sign 1 = 2, and the pair (0, 1) */
	bo_init(&I, 4, 4);
	I.has_groups = 1;
	I.ngroups = 2;
	I.group[0] = I.group[1] = 0;
	I.group[2] = 1;
	I.npairs = 1;
	I.pairs[0] = 0;
	I.pairs[1] = 1;
	bo_add_sign(&I, 1, 2, 0);
	bo_spec(&I, &s);
	expect_infeasible(&s, "closes a cycle", NULL, "group cycle");

	/* the signs make a diagonal window all equal */
	bo_init(&I, 4, 4);
	I.windows = QUBO_PUZZLE_WINDOWS_DIAGONALS;
	bo_add_sign(&I, 0, 5, 0);
	bo_add_sign(&I, 5, 10, 0);
	bo_spec(&I, &s);
	expect_infeasible(&s, "row 1, column 1", "row 3, column 3", "diagonal window");

	/* a region that cannot hold its count */
	bo_init(&I, 4, 4);
	I.has_regions = I.has_region_ones = 1;
	I.nreg = 2;
	I.region[0] = I.region[1] = 0;
	I.region[2] = 1;
	I.region_ones[0] = 3;
	I.region_ones[1] = 1;
	bo_spec(&I, &s);
	expect_infeasible(&s, "region 0", "3 ones", "region too small");

	/* a row of four with all its cells equal by the signs, needing 2 ones
	 * (no windows) */
	bo_init(&I, 4, 4);
	I.windows = 0;
	bo_add_sign(&I, 0, 1, 0);
	bo_add_sign(&I, 1, 2, 0);
	bo_add_sign(&I, 2, 3, 0);
	bo_spec(&I, &s);
	expect_infeasible(&s, "row 1", "2 ones", "row by signs");

	/* distinct rows made equal by the signs (columns without counts) */
	bo_init(&I, 4, 2);
	I.distinct = 1;
	I.has_cols = 1;
	memset(I.cols, 0xff, sizeof I.cols);
	for (uint32_t c = 0; c < 4; c++)
		bo_add_sign(&I, c, 4 + c, 0);
	bo_spec(&I, &s);
	expect_infeasible(&s, "rows 1 and 2", NULL, "equal rows");

	/* a clue against a long-distance sign */
	bo_init(&I, 4, 4);
	I.clue[0] = 1;
	I.clue[15] = 0;
	bo_add_sign(&I, 0, 15, 0);
	bo_spec(&I, &s);
	expect_infeasible(&s, "row 1, column 1", "row 4, column 4", "clue against sign");
}

/* ---- spec validation ---- */

/* A valid 4 x 4 spec with every array set, to spoil one field at a time. */
typedef struct spec_store {
	int8_t clues[16];
	int32_t rows[4], cols[4], regions[16], region_ones[2], groups[16];
	qubo_puzzle_binary_sign signs[2];
	uint32_t pairs[2];
	qubo_puzzle_binary_spec s;
} spec_store;

static void store_init(spec_store *st)
{
	qubo_puzzle_binary_spec z = QUBO_PUZZLE_BINARY_SPEC_INIT;
	size_t i;

	memset(st, 0, sizeof *st);
	for (i = 0; i < 16; i++) {
		st->clues[i] = -1;
		st->regions[i] = i < 8 ? 0 : 1;
		st->groups[i] = -1;
	}
	st->clues[0] = 1;
	for (i = 0; i < 4; i++)
		st->rows[i] = st->cols[i] = 2;
	st->region_ones[0] = st->region_ones[1] = 4;
	st->groups[0] = 0;
	st->groups[5] = 0;
	st->groups[3] = 1;
	st->signs[0].a = 1;
	st->signs[0].b = 2;
	st->signs[0].differ = 1;
	st->signs[1].a = 14;
	st->signs[1].b = 9;
	st->signs[1].differ = 0;
	st->pairs[0] = 0;
	st->pairs[1] = 1;
	st->s = z;
	st->s.width = st->s.height = 4;
	st->s.clues = st->clues;
	st->s.row_ones = st->rows;
	st->s.col_ones = st->cols;
	st->s.signs = st->signs;
	st->s.num_signs = 2;
	st->s.regions = st->regions;
	st->s.region_ones = st->region_ones;
	st->s.num_regions = 2;
	st->s.equal_groups = st->groups;
	st->s.num_equal_groups = 2;
	st->s.differ_pairs = st->pairs;
	st->s.num_differ_pairs = 1;
}

/* The spec is refused with status, the message naming what it should. */
static void expect_bad(const qubo_puzzle_binary_spec *s, int status, const char *n1,
		       const char *n2, const char *what)
{
	qubo_puzzle *p = (qubo_puzzle *)&p;
	int rc = qubo_puzzle_binary_new(&p, s, NULL);

	cr_expect_eq(rc, status, "%s: %s (%s), expected %s", what, qubo_status_name(rc),
		     qubo_error_message(), qubo_status_name(status));
	if (rc == QUBO_OK) {
		qubo_puzzle_free(p);
		return;
	}
	cr_expect_null(p, "%s: out not cleared", what);
	cr_expect_eq(qubo_error_code(), status, "%s", what);
	cr_expect(strstr(qubo_error_message(), "qubo_puzzle_binary_new"), "%s: %s", what,
		  qubo_error_message());
	cr_expect(strstr(qubo_error_message(), n1), "%s: '%s' lacks '%s'", what,
		  qubo_error_message(), n1);
	if (n2)
		cr_expect(strstr(qubo_error_message(), n2), "%s: '%s' lacks '%s'", what,
			  qubo_error_message(), n2);
}

Test(binary, spec_validation)
{
	spec_store st;
	qubo_puzzle *p = NULL;
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;

	/* the base spec is valid */
	store_init(&st);
	cr_assert_eq(qubo_puzzle_binary_new(&p, &st.s, NULL), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);

	cr_expect_eq(qubo_puzzle_binary_new(NULL, &st.s, NULL), QUBO_ERR_MISUSE);
	cr_expect(strstr(qubo_error_message(), "out is NULL"), "%s", qubo_error_message());
	p = (qubo_puzzle *)&p;
	cr_expect_eq(qubo_puzzle_binary_new(&p, NULL, NULL), QUBO_ERR_MISUSE);
	cr_expect_null(p);
	cr_expect(strstr(qubo_error_message(), "spec is NULL"), "%s", qubo_error_message());

	store_init(&st);
	st.s.struct_size = 8;
	expect_bad(&st.s, QUBO_ERR_UNSUPPORTED_VERSION, "qubo_puzzle_binary_spec.struct_size is 8",
		   "below the smallest size accepted", "struct_size 8");
	store_init(&st);
	st.s.width = 0;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "0 x 4", "at least 1", "width 0");
	store_init(&st);
	st.s.height = 0;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "4 x 0", "at least 1", "height 0");

	store_init(&st);
	st.clues[5] = 2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.clues[5] is 2", "-1, 0 or 1", "clue 2");
	store_init(&st);
	st.clues[15] = -2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.clues[15] is -2", NULL, "clue -2");

	store_init(&st);
	st.s.width = 3;
	st.s.row_ones = NULL;
	st.s.clues = NULL;
	st.s.regions = NULL;
	st.s.num_regions = 0;
	st.s.equal_groups = NULL;
	st.s.num_equal_groups = 0;
	st.s.num_differ_pairs = 0;
	st.s.num_signs = 0;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.row_ones is NULL", "width 3",
		   "odd width, balanced");
	st.s.width = 4;
	st.s.height = 5;
	st.s.row_ones = NULL;
	st.s.col_ones = NULL;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.col_ones is NULL", "height 5",
		   "odd height, balanced");

	store_init(&st);
	st.rows[2] = 5;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.row_ones[2] is 5", "0 to 4", "row count 5");
	store_init(&st);
	st.rows[0] = -2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.row_ones[0] is -2", NULL, "row count -2");
	store_init(&st);
	st.cols[3] = 7;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.col_ones[3] is 7", "0 to 4",
		   "column count 7");
	store_init(&st);
	st.cols[1] = INT32_MIN;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.col_ones[1]", NULL, "column count min");

	store_init(&st);
	st.s.windows = 8;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.windows is 8", NULL, "windows 8");
	st.s.windows = -1;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.windows is -1", NULL, "windows -1");
	store_init(&st);
	st.s.wrap = 3;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.wrap is 3", NULL, "wrap 3");
	st.s.wrap = -1;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.wrap is -1", NULL, "wrap -1");
	store_init(&st);
	st.s.distinct = 2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.distinct is 2", NULL, "distinct 2");
	st.s.distinct = -1;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.distinct is -1", NULL, "distinct -1");

	store_init(&st);
	st.signs[1].a = st.signs[1].b = 9;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.signs[1] is (9, 9, 0)", NULL, "sign a == b");
	store_init(&st);
	st.signs[0].b = 16;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.signs[0] is (1, 16, 1)", "below 16",
		   "sign out of range");
	store_init(&st);
	st.signs[1].a = UINT32_MAX;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.signs[1]", NULL, "sign far out");
	store_init(&st);
	st.signs[1].differ = 2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.signs[1] is (14, 9, 2)", "differ 0 or 1",
		   "sign differ 2");
	store_init(&st);
	st.s.signs = NULL;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.signs is NULL", "num_signs",
		   "signs NULL");

	store_init(&st);
	st.regions[3] = 2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.regions[3] is 2", "num_regions",
		   "region id = num_regions");
	store_init(&st);
	st.regions[0] = -2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.regions[0] is -2", NULL, "region id -2");
	store_init(&st);
	st.s.regions = NULL;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.regions is NULL", "num_regions",
		   "regions NULL");
	store_init(&st);
	st.region_ones[1] = -2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.region_ones[1] is -2", NULL,
		   "region count -2");

	store_init(&st);
	st.groups[7] = 2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.equal_groups[7] is 2", "num_equal_groups",
		   "group id out of range");
	store_init(&st);
	st.groups[9] = -5;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.equal_groups[9] is -5", NULL,
		   "group id -5");
	store_init(&st);
	st.s.num_equal_groups = 3;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "equality group 2", "no cell", "empty group");
	store_init(&st);
	st.s.equal_groups = NULL;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.equal_groups is NULL", "num_equal_groups",
		   "groups NULL");
	store_init(&st);
	st.pairs[1] = 0;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.differ_pairs[1] is 0", "other than",
		   "pair of one group");
	store_init(&st);
	st.pairs[0] = 2;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.differ_pairs[0] is 2", "num_equal_groups",
		   "pair group out of range");
	store_init(&st);
	st.s.differ_pairs = NULL;
	expect_bad(&st.s, QUBO_ERR_INVALID_ARG, "spec.differ_pairs is NULL", "num_differ_pairs",
		   "pairs NULL");

	/* sizes: too many cells; distinct lines with too many witnesses */
	store_init(&st);
	st.s.width = 8192;
	st.s.height = 4096;
	st.s.clues = NULL;
	st.s.row_ones = st.s.col_ones = NULL;
	st.s.regions = NULL;
	st.s.num_regions = 0;
	st.s.equal_groups = NULL;
	st.s.num_equal_groups = 0;
	st.s.num_differ_pairs = 0;
	st.s.num_signs = 0;
	expect_bad(&st.s, QUBO_ERR_TOO_LARGE, "33554432 cells", NULL, "too many cells");
	st.s.width = st.s.height = 130;
	st.s.distinct = 1;
	expect_bad(&st.s, QUBO_ERR_TOO_LARGE, "130 x 130", "witness", "too many witnesses");

	/* bad options */
	store_init(&st);
	o.reduce = 4;
	p = (qubo_puzzle *)&p;
	cr_expect_eq(qubo_puzzle_binary_new(&p, &st.s, &o), QUBO_ERR_INVALID_ARG);
	cr_expect_null(p);
	cr_expect(strstr(qubo_error_message(), "options.reduce is 4"), "%s", qubo_error_message());
}

/* Regions with counts but no region map of their own: region_ones without
 * regions is ignored (num_regions 0); a clue spec of all -1 is no clue. */
Test(binary, spec_optional_arrays)
{
	spec_store st;
	qubo_puzzle *p = NULL;
	qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result cr;
	int8_t none[16];

	store_init(&st);
	memset(none, -1, sizeof none);
	st.s.clues = none;
	st.s.regions = NULL;
	st.s.num_regions = 0;
	st.s.equal_groups = NULL;
	st.s.num_equal_groups = 0;
	st.s.num_differ_pairs = 0;
	st.s.differ_pairs = NULL;
	st.s.num_signs = 0;
	st.s.signs = NULL;
	cr_assert_eq(qubo_puzzle_binary_new(&p, &st.s, NULL), QUBO_OK, "%s", qubo_error_message());
	memset(&cr, 0, sizeof cr);
	cr.struct_size = sizeof cr;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_OK);
	cr_assert_eq(cr.count, 90, "the empty balanced 4 x 4 board: %llu",
		     (unsigned long long)cr.count);
	qubo_puzzle_free(p);
}

/* ---- struct versioning of the spec (doc/abi.md's size-first rule) ---- */

static int use_binary(void *ctx, const void *in)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_binary_new(&p, in, NULL);

	(void)ctx;
	qubo_puzzle_free(p);
	return rc;
}

Test(binary, spec_struct_size_rule)
{
	spec_store st;

	cr_assert_leq(QUBO_PUZZLE_BINARY_SPEC_SIZE_V1, sizeof(qubo_puzzle_binary_spec));
	if (sizeof(void *) == 8 && sizeof(size_t) == 8)
		cr_assert_eq(QUBO_PUZZLE_BINARY_SPEC_SIZE_V1, 128);
	store_init(&st);
	ts_input_rule(use_binary, NULL, &st.s, sizeof st.s, QUBO_PUZZLE_BINARY_SPEC_SIZE_V1,
		      "qubo_puzzle_binary_spec", "qubo_puzzle_binary_new");
}

/* ---- cells ---- */

/* qubo_puzzle_get_cell(): a Takuzu cell is on the board, its clue is
 * `given`, its literal the map's; a cell of a spec region reports the
 * region (puzzle.h: "The cell's region, from 0 ..., or -1 when the family
 * has no regions or the cell is in none"). */
Test(binary, get_cell)
{
	spec_store st;
	qubo_puzzle *p = NULL;
	qubo_lit lits[16];
	uint32_t r, c;
	int bad_region = 0;

	store_init(&st);
	st.regions[6] = -1;
	st.region_ones[0] = 3;
	st.clues[0] = -1;
	st.clues[10] = 0;
	cr_assert_eq(qubo_puzzle_binary_new(&p, &st.s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++) {
			qubo_puzzle_cell cell;
			size_t i = r * 4 + c;

			memset(&cell, 0x5a, sizeof cell);
			cell.struct_size = sizeof cell;
			cr_assert_eq(qubo_puzzle_get_cell(p, r, c, &cell), QUBO_OK);
			cr_expect_eq(cell.on_board, 1);
			cr_expect_eq(cell.given, st.clues[i], "cell %zu: given %d", i, cell.given);
			cr_expect_eq(cell.piece, -1);
			cr_expect_eq(cell.literal, lits[i]);
			if (cell.region != st.regions[i] && !bad_region++)
				cr_expect_eq(cell.region, st.regions[i],
					     "row %u, column %u: qubo_puzzle_get_cell gives region "
					     "%d, the spec's is %d",
					     r, c, cell.region, st.regions[i]);
		}
	{
		qubo_puzzle_cell cell;
		cell.struct_size = sizeof cell;
		cr_expect_eq(qubo_puzzle_get_cell(p, 4, 0, &cell), QUBO_ERR_OUT_OF_RANGE);
		cr_expect_eq(qubo_puzzle_get_cell(p, 0, 4, &cell), QUBO_ERR_OUT_OF_RANGE);
	}
	qubo_puzzle_free(p);
}

/* The text forms have no regions: -1 everywhere, clues as given. */
Test(binary, get_cell_text)
{
	static const char t[] = "tango 4\n0 .x. .\n\n. . . 1\n\n. . . .\n\n. . . .\n";
	qubo_puzzle *p = NULL;
	qubo_puzzle_cell cell;

	cr_assert_eq(qubo_puzzle_parse(&p, t, sizeof t - 1, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	cell.struct_size = sizeof cell;
	cr_assert_eq(qubo_puzzle_get_cell(p, 0, 0, &cell), QUBO_OK);
	cr_assert_eq(cell.given, 0);
	cr_assert_eq(cell.region, -1);
	cr_assert_eq(qubo_puzzle_get_cell(p, 1, 3, &cell), QUBO_OK);
	cr_assert_eq(cell.given, 1);
	cr_assert_eq(qubo_puzzle_get_cell(p, 0, 1, &cell), QUBO_OK);
	cr_assert_eq(cell.given, -1);
	qubo_puzzle_free(p);
}

/* ---- boards too large to enumerate the model: the search and the FULL
 * reduction against the oracle ---- */

static void gen_medium(bo_inst *I, tu_rng *r, int i)
{
	static const uint32_t sizes[][2] = { { 6, 6 }, { 8, 4 }, { 4, 8 }, { 6, 4 },
					     { 4, 6 }, { 6, 6 }, { 8, 6 }, { 5, 5 } };
	uint32_t w, h;
	uint8_t x[BO_MAX_CELLS];
	size_t k = (size_t)tu_below(r, sizeof sizes / sizeof sizes[0]);

	(void)i;
	w = sizes[k][0];
	h = sizes[k][1];
	bo_init(I, w, h);
	I->distinct = tu_below(r, 2);
	if (tu_below(r, 4) == 0)
		I->windows |= QUBO_PUZZLE_WINDOWS_DIAGONALS;
	if (tu_below(r, 4) == 0)
		I->wrap = tu_below(r, 2) ? QUBO_PUZZLE_WRAP_CYLINDER : QUBO_PUZZLE_WRAP_TORUS;
	if (I->wrap && (I->windows & QUBO_PUZZLE_WINDOWS_DIAGONALS) &&
	    (w < 4 || (I->wrap == QUBO_PUZZLE_WRAP_TORUS && h < 4)))
		I->wrap = 0; /* see wrap_across_short_sides */
	if (w % 2 || h % 2) {
		bo_prepare(I);
		bo_random_board(I, r, x);
		bo_counts_from(I, x, r, 6, 0);
	}
	bo_prepare(I);
	if (!bo_random_solution(I, r, x) && !bo_random_board(I, r, x))
		for (size_t c = 0; c < bo_cells(I); c++)
			x[c] = (uint8_t)tu_below(r, 2);
	if (tu_below(r, 2))
		bo_signs_from(I, x, r, (size_t)tu_range(r, 1, 10), (int)tu_below(r, 2), 10);
	if (tu_below(r, 4) == 0)
		bo_regions_from(I, x, r, (size_t)tu_range(r, 2, 6), 4, 12);
	if (tu_below(r, 4) == 0)
		bo_groups_from(I, x, r, (size_t)tu_range(r, 2, 5), (size_t)tu_range(r, 0, 3), 12);
	bo_clues_from(I, x, r, (int)tu_range(r, 2, 5), 12);
}

Test(binary, search_and_reduction_on_medium_boards)
{
	tu_rng r = { 31415 };
	int i, trials = bo_valgrind() ? 25 : 150;
	size_t with = 0, without = 0, refused = 0, total = 0;

	for (i = 0; i < trials; i++) {
		bo_inst I;
		ph_set sols = { 0 };
		qubo_puzzle_binary_spec s;
		qubo_puzzle *p = (qubo_puzzle *)&s;
		qubo_lit lits[BO_MAX_CELLS];
		long cnt;
		size_t n, k, c;
		int rc;
		char what[96];

		do {
			sols.n = 0;
			gen_medium(&I, &r, i);
			bo_prepare(&I);
			cnt = bo_solutions(&I, &sols, 1 << 14);
		} while (cnt < 0);
		n = bo_cells(&I);
		snprintf(what, sizeof what, "medium instance %d (%ux%u, distinct %d, wrap %d)", i,
			 (unsigned)I.w, (unsigned)I.h, (int)I.distinct, (int)I.wrap);
		bo_spec(&I, &s);
		rc = qubo_puzzle_binary_new(&p, &s, NULL);
		total += sols.n;
		if (sols.n)
			with++;
		else
			without++;
		if (rc == QUBO_ERR_INFEASIBLE) {
			cr_assert_eq(sols.n, 0, "%s: refused (%s), the oracle has %zu solutions", what,
				     qubo_error_message(), sols.n);
			refused++;
			free(sols.keys);
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
		/* the FULL reduction keeps every solution */
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, n), QUBO_OK);
		for (k = 0; k < sols.n; k++)
			for (c = 0; c < n; c++)
				if (QUBO_LIT_IS_CONST(lits[c]))
					cr_assert_eq((sols.keys[k] >> c) & 1, lits[c] == QUBO_LIT_TRUE,
						     "%s: cell %zu fixed against a solution", what, c);
		check_count(p, QUBO_PUZZLE_COUNT_SEARCH, &sols, n, what);
		check_checker(p, &I, &sols, &r, what);
		qubo_puzzle_free(p);
		free(sols.keys);
	}
	fprintf(stderr,
		"[binary] medium boards: %d instances, %zu with solutions (%zu solutions), %zu "
		"without (%zu refused as infeasible)\n",
		trials, with, total, without, refused);
	cr_assert_geq(with, (size_t)trials / 3);
	cr_assert_geq(without, (size_t)trials / 20);
}

/* ---- out of memory: every allocation refused in turn ---- */

typedef int (*build_fn)(qubo_puzzle **p, const qubo_puzzle_options *o, const void *ctx);

static int build_spec(qubo_puzzle **p, const qubo_puzzle_options *o, const void *ctx)
{
	return qubo_puzzle_binary_new(p, ctx, o);
}

static int build_text(qubo_puzzle **p, const qubo_puzzle_options *o, const void *ctx)
{
	return qubo_puzzle_parse(p, ctx, strlen(ctx), o);
}

static void out_of_memory(build_fn build, const void *ctx, int32_t level, const char *what)
{
	qubo_puzzle_options o = opts_for(level, 0);
	size_t k, total, nomem = 0;
	tu_failalloc fa;
	qubo_puzzle *p = NULL;

	tu_failalloc_init(&fa, 0);
	o.allocator = &fa.a;
	cr_assert_eq(build(&p, &o, ctx), QUBO_OK, "%s: %s", what, qubo_error_message());
	qubo_puzzle_free(p);
	cr_assert_eq(fa.live, 0, "%s", what);
	total = fa.count;
	for (k = 1; k <= total; k++) {
		int rc;

		tu_failalloc_init(&fa, k);
		o.allocator = &fa.a;
		p = (qubo_puzzle *)&fa;
		rc = build(&p, &o, ctx);
		if (rc == QUBO_OK) {
			cr_assert_not_null(p);
		} else {
			cr_assert_eq(rc, QUBO_ERR_NOMEM, "%s, allocation %zu: %s: %s", what, k,
				     qubo_status_name(rc), qubo_error_message());
			cr_assert(fa.failed);
			cr_assert_null(p, "%s", what);
			nomem++;
		}
		qubo_puzzle_free(p);
		cr_assert_eq(fa.live, 0, "%s: allocation %zu leaks %zu blocks", what, k, fa.live);
	}
	cr_assert_gt(nomem, total / 2, "%s: %zu of %zu failures reported", what, nomem, total);

	/* counting and solving allocate through the puzzle's allocator too */
	for (k = 1; k <= 40; k++) {
		qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
		qubo_puzzle_count_result cr;
		qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		qubo_puzzle_result res;
		uint8_t board[64];
		int rc;

		tu_failalloc_init(&fa, 0);
		o.allocator = &fa.a;
		cr_assert_eq(build(&p, &o, ctx), QUBO_OK);
		fa.fail_at = fa.count + k;
		memset(&cr, 0, sizeof cr);
		cr.struct_size = sizeof cr;
		{
			const qubo_model *m;
			cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
			co.method = k % 2 || qubo_model_num_variables(m) > 20
					    ? QUBO_PUZZLE_COUNT_SEARCH
					    : QUBO_PUZZLE_COUNT_ENUMERATE;
		}
		rc = qubo_puzzle_count(p, &co, &cr);
		cr_assert(rc == QUBO_OK || rc == QUBO_ERR_NOMEM, "%s: count, allocation %zu: %s",
			  what, k, qubo_status_name(rc));
		fa.fail_at = fa.count + k;
		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		so.seed = 3;
		rc = qubo_puzzle_solve(p, &so, board, sizeof board, &res);
		cr_assert(rc == QUBO_OK || rc == QUBO_ERR_NOMEM, "%s: solve, allocation %zu: %s",
			  what, k, qubo_status_name(rc));
		if (rc == QUBO_OK)
			cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED, "%s", what);
		qubo_puzzle_free(p);
		cr_assert_eq(fa.live, 0, "%s: count or solve, allocation %zu leaks %zu blocks",
			     what, k, fa.live);
	}
}

Test(binary, out_of_memory)
{
	spec_store st;
	size_t l;

	store_init(&st);
	st.s.distinct = 1;
	st.s.wrap = QUBO_PUZZLE_WRAP_CYLINDER;
	for (l = 0; l < 3; l++) {
		out_of_memory(build_spec, &st.s, levels[l], "spec");
		out_of_memory(build_text, "takuzu 4\n.0..\n1.1.\n...1\n..0.\n", levels[l], "takuzu");
		out_of_memory(build_text, "tango 4\n.x. . .\n=      \n. . . 0\n\n0 . . .\n      x\n. .=.x.\n",
			      levels[l], "tango");
	}
}

/* ---- the rule checker's report ---- */

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Each broken rule once, named and placed (1-based rows and columns). */
Test(binary, checker_names_broken_rules)
{
	/* 1110 / 0011 / 1110 / 0001 */
	static const uint8_t board[16] = { 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1 };
	static const char *needles[] = {
		"row 1, column 1 is 1, its clue is 0",
		"row 1 has 3 ones, needs 2",
		"row 3 has 3 ones, needs 2",
		"row 4 has 1 ones, needs 2",
		"column 3 has 3 ones, needs 2",
		"row 1, columns 1 to 3 are three equal cells (1)",
		"row 3, columns 1 to 3 are three equal cells (1)",
		"row 4, columns 1 to 3 are three equal cells (0)",
		"column 3, rows 1 to 3 are three equal cells (1)",
		"row 1, column 4 and row 4, column 4 are different, the '=' sign needs them equal",
		"rows 1 and 3 are equal",
		"columns 1 and 2 are equal",
	};
	bo_inst I;
	qubo_puzzle_binary_spec s;
	qubo_puzzle *p = NULL;
	char rep[2048], small[16];
	size_t viol = 0, i;

	bo_init(&I, 4, 4);
	I.distinct = 1;
	I.clue[0] = 0;
	bo_add_sign(&I, 3, 15, 0);
	bo_prepare(&I);
	bo_spec(&I, &s);
	cr_assert_eq(qubo_puzzle_binary_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_check(p, board, 16, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, sizeof needles / sizeof needles[0], "%zu violations:\n%s", viol, rep);
	cr_assert_eq(count_lines(rep), viol, "one line per broken rule:\n%s", rep);
	for (i = 0; i < sizeof needles / sizeof needles[0]; i++)
		cr_expect(strstr(rep, needles[i]), "the report lacks '%s':\n%s", needles[i], rep);
	/* truncated, NUL-terminated, the same count */
	memset(small, 'x', sizeof small);
	cr_assert_eq(qubo_puzzle_check(p, board, 16, small, sizeof small, &viol), QUBO_OK);
	cr_assert_eq(viol, sizeof needles / sizeof needles[0]);
	cr_assert_lt(strlen(small), sizeof small);
	cr_assert_eq(strncmp(small, rep, strlen(small)), 0);
	/* no report buffer: the count alone */
	cr_assert_eq(qubo_puzzle_check(p, board, 16, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, sizeof needles / sizeof needles[0]);
	/* bad boards */
	cr_assert_eq(qubo_puzzle_check(p, board, 15, rep, sizeof rep, &viol), QUBO_ERR_INVALID_ARG);
	{
		uint8_t two[16];
		memcpy(two, board, 16);
		two[5] = 2;
		cr_assert_eq(qubo_puzzle_check(p, two, 16, rep, sizeof rep, &viol),
			     QUBO_ERR_INVALID_ARG);
	}
	qubo_puzzle_free(p);

	/* diagonal windows and a region */
	bo_init(&I, 3, 3);
	I.has_rows = I.has_cols = 1;
	memset(I.rows, 0xff, sizeof I.rows);
	memset(I.cols, 0xff, sizeof I.cols);
	I.windows = QUBO_PUZZLE_WINDOWS_DIAGONALS;
	I.has_regions = I.has_region_ones = 1;
	I.nreg = 1;
	I.region[0] = I.region[8] = 0;
	I.region_ones[0] = 2;
	bo_prepare(&I);
	bo_spec(&I, &s);
	cr_assert_eq(qubo_puzzle_binary_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	{
		static const uint8_t zeros[9] = { 0 };
		cr_assert_eq(qubo_puzzle_check(p, zeros, 9, rep, sizeof rep, &viol), QUBO_OK);
	}
	cr_assert_eq(viol, 3, "%s", rep);
	cr_expect(strstr(rep, "row 1, column 1; row 2, column 2 and row 3, column 3"), "%s", rep);
	cr_expect(strstr(rep, "row 1, column 3; row 2, column 2 and row 3, column 1"), "%s", rep);
	cr_expect(strstr(rep, "region 0 has 0 ones, needs 2"), "%s", rep);
	qubo_puzzle_free(p);
}

/* Tiny boards, and signs given twice. */
Test(binary, tiny_boards_and_repeated_signs)
{
	tu_rng r = { 5 };
	tally t;
	bo_inst I;
	ph_set sols = { 0 };
	qubo_puzzle_binary_spec s;
	int32_t k;

	memset(&t, 0, sizeof t);
	/* 1 x 1 with every count, 1 x 2 and 2 x 1 balanced, with distinct */
	for (k = -1; k <= 1; k++) {
		bo_init(&I, 1, 1);
		I.has_rows = I.has_cols = 1;
		I.rows[0] = k;
		I.cols[0] = k == 1 ? -1 : k;
		bo_prepare(&I);
		cr_assert_geq(bo_solutions(&I, &sols, 0), 0);
		check_instance(&I, &sols, &r, "1 x 1", &t, NULL);
		free(sols.keys);
		sols.keys = NULL;
		sols.n = sols.cap = 0;
	}
	for (k = 0; k < 4; k++) {
		bo_init(&I, k < 2 ? 2 : 1, k < 2 ? 1 : 2);
		I.has_rows = k >= 2;
		I.has_cols = k < 2;
		memset(I.rows, 0xff, sizeof I.rows);
		memset(I.cols, 0xff, sizeof I.cols);
		I.distinct = k % 2;
		bo_prepare(&I);
		cr_assert_geq(bo_solutions(&I, &sols, 0), 0);
		check_instance(&I, &sols, &r, "1 x 2 / 2 x 1", &t, NULL);
		free(sols.keys);
		sols.keys = NULL;
		sols.n = sols.cap = 0;
	}
	/* the same sign twice, in both orders: fine; contradicting: refused */
	bo_init(&I, 4, 4);
	bo_add_sign(&I, 0, 9, 1);
	bo_add_sign(&I, 9, 0, 1);
	bo_prepare(&I);
	cr_assert_geq(bo_solutions(&I, &sols, 0), 1);
	check_instance(&I, &sols, &r, "a sign twice", &t, NULL);
	free(sols.keys);
	bo_add_sign(&I, 0, 9, 0);
	bo_spec(&I, &s);
	expect_infeasible(&s, "closes a cycle", "row 1, column 1", "contradicting signs");
	cr_assert_geq(t.with, 5);
}

/* A puzzle the FULL reduction solves: every cell constant, no variable, and
 * the model still built (its windows are all constant: under clang's
 * -fsanitize=undefined this reaches qubo_model_add_clique() with no member
 * array yet, see tests/fuzz/corpus/puzzle/takuzu-solved-by-reduction.txt). */
Test(binary, solved_by_reduction)
{
	static const char text[] = "takuzu 4 nounique\n0011\n1100\n0101\n1010\n";
	static const char almost[] = "takuzu 4 nounique\n0011\n1100\n0101\n10..\n";
	static const uint8_t want[16] = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0 };
	const char *texts[2] = { text, almost };
	size_t t, l;

	for (t = 0; t < 2; t++)
		for (l = 0; l < 3; l++) {
			qubo_puzzle *p = parse_at(texts[t], levels[l]);
			qubo_puzzle_stats st;
			qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
			qubo_puzzle_result res;
			uint8_t board[16];
			const qubo_model *m;
			double e = -1;

			memset(&st, 0, sizeof st);
			st.struct_size = sizeof st;
			cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
			/* every cell a clue: level CLUES has no variable either */
			cr_assert_eq(st.solved_by_reduction,
				     levels[l] == QUBO_REDUCE_FULL ||
					     (t == 0 && levels[l] == QUBO_REDUCE_CLUES),
				     "text %zu, level %d", t, (int)levels[l]);
			if (levels[l] == QUBO_REDUCE_FULL) {
				cr_assert_eq(st.variables_after, 0);
				cr_assert_eq(st.cells_fixed, 16);
			}
			cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
			if (qubo_model_num_variables(m) == 0) {
				cr_assert_eq(qubo_model_energy(m, NULL, 0, &e), QUBO_OK);
				cr_assert_eq(e, 0.0);
			}
			memset(&res, 0, sizeof res);
			res.struct_size = sizeof res;
			cr_assert_eq(qubo_puzzle_solve(p, &so, board, sizeof board, &res), QUBO_OK);
			cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED);
			cr_assert_eq(memcmp(board, want, 16), 0);
			qubo_puzzle_free(p);
		}
}

/* ---- counting limits and stops ---- */

static int stop_at_3(const uint8_t *board, size_t length, void *ud)
{
	size_t *calls = ud;

	(void)board;
	(void)length;
	return ++*calls >= 3;
}

Test(binary, count_limit_and_stop)
{
	qubo_puzzle *p = parse_at("takuzu 8 nounique\n........\n........\n........\n........\n"
				  "........\n........\n........\n........\n",
				  QUBO_REDUCE_FULL);
	qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result cr;
	size_t calls = 0;

	memset(&cr, 0, sizeof cr);
	cr.struct_size = sizeof cr;
	co.limit = 1000;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(cr.count, 1000);
	cr_assert_eq(cr.complete, 0);
	co.limit = 0;
	co.on_solution = stop_at_3;
	co.user_data = &calls;
	memset(&cr, 0, sizeof cr);
	cr.struct_size = sizeof cr;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_CANCELLED);
	cr_assert_eq(calls, 3);
	cr_assert_eq(cr.count, 3);
	cr_assert_eq(cr.complete, 0);
	qubo_puzzle_free(p);

	/* the 4 x 4 boards: 90 without distinct lines, 72 with them, by both
	 * methods */
	{
		static const char *texts[2] = { "takuzu 4 nounique\n....\n....\n....\n....\n",
						"takuzu 4\n....\n....\n....\n....\n" };
		static const uint64_t want[2] = { 90, 72 };
		size_t t, m;

		for (t = 0; t < 2; t++)
			for (m = 1; m <= 2; m++) {
				qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
				int rc;

				p = parse_at(texts[t], QUBO_REDUCE_FULL);
				memset(&cr, 0, sizeof cr);
				cr.struct_size = sizeof cr;
				o.method = (int32_t)m;
				rc = qubo_puzzle_count(p, &o, &cr);
				if (t == 1 && m == QUBO_PUZZLE_COUNT_ENUMERATE) {
					/* 16 cells and 96 witnesses: too many states */
					cr_assert_eq(rc, QUBO_ERR_TOO_LARGE);
				} else {
					cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
					cr_assert_eq(cr.count, want[t]);
					cr_assert_eq(cr.complete, 1);
				}
				qubo_puzzle_free(p);
			}
	}
}
