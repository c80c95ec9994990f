/*
 * QAOA on reduced puzzles. The built-in solver "qaoa", with its angles
 * optimised (no "angles" key) at depth p = 1 or 2, samples the model of a
 * puzzle reduced to between 1 and 16 variables. The lowest read must have
 * the model's ground energy, found by the "exhaustive" solver (which must
 * agree with qubo_puzzle_ground_energy()), and qubo_puzzle_decode() must
 * turn it into a board that the rule checker, qubo_puzzle_check(), accepts.
 * Where every variable of the model is a board cell (no witness variables),
 * the highest read, when it is above the ground energy, must decode to a
 * board the checker rejects, so the check tells ground states from the rest.
 *
 * Instances: hand-made ones written here (LinkedIn Queens 4 x 4, Tango
 * 6 x 6, Takuzu 4 x 4 and 6 x 6, with and without distinct lines), so the
 * suite tests something without the shared collection; and from the shared
 * collection ($QUBO_PUZZLES_DIR, read in place, skipped with a message when
 * absent) the first LinkedIn Queens levels (by variables, then by name)
 * whose full reduction leaves 1 to 16 variables, and the first Tango levels
 * whose clue-level reduction does. A LinkedIn Queens level gives no queen,
 * so its clue-level model keeps every cell (49 to 121 variables): only the
 * full reduction brings a few of them within a simulator's reach.
 *
 * The simulator's cost doubles with each variable. Under valgrind
 * (QUBO_TEST_VALGRIND=1) only the instances of at most QP_VALGRIND_VARS
 * variables run, with the same checks.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo.h>
#include <qubo/puzzle.h>

#include "util.h"

#define QP_MAX_VARS 16
#define QP_MAX_CELLS 256
#define QP_MAX_FILES 1024
#define QP_VALGRIND_VARS 12
/* Reads per run: the lowest ground-state probability of these instances is
 * about 0.1 %, read about 30 times in 30000 reads; it would be missed by
 * every read with probability about e^-30. */
#define QP_READS 30000
#define QP_SEED 20260

static int under_valgrind(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");

	return v && *v == '1';
}

static int close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

static qubo_puzzle *parse_at(const char *name, const char *text, size_t len, int32_t reduce)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;
	int rc;

	o.reduce = reduce;
	rc = qubo_puzzle_parse(&p, text, len, &o);
	cr_assert_eq(rc, QUBO_OK, "%s: %s: %s", name, qubo_status_name(rc), qubo_error_message());
	return p;
}

static size_t num_vars(const qubo_puzzle *p)
{
	const qubo_model *m;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	return qubo_model_num_variables(m);
}

/* The lowest energy of the model, by the "exhaustive" solver, and how many
 * states have it. */
static double exhaustive_ground(const qubo_model *m, const char *name, uint64_t *count_out)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	double e = 0.0;
	int rc;

	cr_assert_eq(qubo_solver_new(&s, "exhaustive", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 1), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_THREADS, 1), QUBO_OK);
	rc = qubo_solver_sample(&set, s, m);
	cr_assert_eq(rc, QUBO_OK, "%s: exhaustive: %s", name, qubo_error_message());
	cr_assert_eq(qubo_sampleset_lowest(set, NULL, 0, &e), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_geq(info.num_ground_states, 1, "%s", name);
	*count_out = info.num_ground_states;
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return e;
}

/* The mean energy over all 2^n states (the state |+>^n of depth 0): the
 * constant of the Ising form. */
static double uniform_mean(const qubo_model *m)
{
	size_t n = qubo_model_num_variables(m), count = 0;
	qubo_model_stats st;
	double h[QP_MAX_VARS], *J, offset = 0.0;
	uint32_t *rows, *cols;
	size_t cap;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
	cap = st.num_couplers ? st.num_couplers : 1;
	J = malloc(cap * sizeof *J);
	rows = malloc(cap * sizeof *rows);
	cols = malloc(cap * sizeof *cols);
	cr_assert(J && rows && cols);
	cr_assert_eq(qubo_model_to_ising(m, h, n ? n : 1, rows, cols, J, cap, &count, &offset),
		     QUBO_OK);
	free(J);
	free(rows);
	free(cols);
	return offset;
}

/* 1 when every variable of the model is the literal of some cell: the model
 * has no witness variables, so a state is a board and back. */
static int cells_only(const qubo_puzzle *p, size_t cells, size_t n)
{
	qubo_lit lits[QP_MAX_CELLS];
	uint8_t named[QP_MAX_VARS];
	size_t c, v;

	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, cells), QUBO_OK);
	memset(named, 0, sizeof named);
	for (c = 0; c < cells; c++)
		if (!QUBO_LIT_IS_CONST(lits[c]))
			named[QUBO_LIT_VAR(lits[c])] = 1;
	for (v = 0; v < n; v++)
		if (!named[v])
			return 0;
	return 1;
}

/* Samples the puzzle's model with "qaoa" at depth p and checks the lowest
 * (and, without witnesses, the highest) read. */
static void qaoa_solves(const char *name, const qubo_puzzle *p, int depth)
{
	const qubo_model *m;
	qubo_puzzle_stats st;
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	uint8_t sample[QP_MAX_VARS], board[QP_MAX_CELLS];
	char report[1024];
	double ground, documented, e, recomputed, mean, uniform;
	uint64_t ground_states = 0;
	size_t n, cells, viol = 99, size;
	int rc;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cells = st.width * st.height;
	cr_assert_leq(cells, QP_MAX_CELLS, "%s", name);
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	n = qubo_model_num_variables(m);
	cr_assert(n >= 1 && n <= QP_MAX_VARS, "%s: %zu variables, not 1 to %d", name, n,
		  QP_MAX_VARS);

	ground = exhaustive_ground(m, name, &ground_states);
	cr_assert_eq(qubo_puzzle_ground_energy(p, &documented), QUBO_OK);
	cr_assert(close_to(ground, documented),
		  "%s: the exhaustive solver's ground energy %.17g is not the puzzle's %.17g", name,
		  ground, documented);
	mean = uniform_mean(m);
	uniform = (double)ground_states / (double)(UINT64_C(1) << n);

	rc = qubo_solver_new(&s, "qaoa", NULL);
	cr_assert_eq(rc, QUBO_OK, "%s: no solver \"qaoa\": %s", name, qubo_error_message());
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_P, depth), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, QP_READS), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_SEED, QP_SEED), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_THREADS, 1), QUBO_OK);
	rc = qubo_solver_sample(&set, s, m);
	cr_assert_eq(rc, QUBO_OK, "%s: qaoa: %s: %s", name, qubo_status_name(rc),
		     qubo_error_message());
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.num_samples, QP_READS, "%s", name);
	cr_assert_eq(info.seed, QP_SEED, "%s", name);
	cr_assert_eq(info.has_expectation, 1, "%s: no expectation reported", name);
	cr_assert(info.lowest_probability > 0.0 && info.lowest_probability <= 1.0 + 1e-12,
		  "%s: ground-state probability %g", name, info.lowest_probability);
	/* Optimised angles do at least as well as depth 0, the uniform state
	 * (every angle 0 gives it), and no state is below the ground energy. */
	cr_assert(info.expectation >= ground - 1e-9 * fmax(1.0, fabs(ground)),
		  "%s: expectation %.17g below the ground energy %.17g", name, info.expectation,
		  ground);
	cr_assert(info.expectation <= mean + 1e-9 * fmax(1.0, fabs(mean)),
		  "%s: p = %d: optimised expectation %.17g above the uniform state's %.17g", name,
		  depth, info.expectation, mean);

	cr_assert(info.lowest_probability > uniform,
		  "%s: p = %d: ground-state probability %g, not above the uniform state's %g", name,
		  depth, info.lowest_probability, uniform);
	cr_log_info("%s: n = %zu, p = %d: ground-state probability %.4g (uniform %.3g), <C> = "
		    "%.6g (ground %.6g, uniform %.6g)",
		    name, n, depth, info.lowest_probability, uniform, info.expectation, ground,
		    mean);

	size = qubo_sampleset_size(set);
	cr_assert_geq(size, 1);
	cr_assert_eq(qubo_sampleset_lowest(set, sample, sizeof sample, &e), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, sample, n, &recomputed), QUBO_OK);
	cr_assert(close_to(e, recomputed), "%s: the set says %.17g, the model %.17g", name, e,
		  recomputed);
	cr_assert(close_to(e, ground),
		  "%s: p = %d, %d reads: the lowest read has energy %.17g, the ground energy is "
		  "%.17g (ground-state probability %g)",
		  name, depth, QP_READS, e, ground, info.lowest_probability);

	cr_assert_eq(qubo_puzzle_decode(p, sample, n, board, cells), QUBO_OK, "%s", name);
	cr_assert_eq(qubo_puzzle_check(p, board, cells, report, sizeof report, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s: the lowest read decodes to a board that breaks %zu rules:\n%s",
		     name, viol, report);

	/* The highest read, above the ground energy, is no solution. */
	if (size > 1 && cells_only(p, cells, n)) {
		cr_assert_eq(qubo_sampleset_get(set, size - 1, sample, sizeof sample, &e, NULL),
			     QUBO_OK);
		if (!close_to(e, ground)) {
			cr_assert_gt(e, ground, "%s", name);
			cr_assert_eq(qubo_puzzle_decode(p, sample, n, board, cells), QUBO_OK);
			cr_assert_eq(qubo_puzzle_check(p, board, cells, NULL, 0, &viol), QUBO_OK);
			cr_assert_gt(viol, 0,
				     "%s: a read of energy %.17g (ground %.17g) decodes to a "
				     "board the checker accepts",
				     name, e, ground);
		}
	}
	qubo_sampleset_free(set);
	qubo_solver_free(s);
}

/* ---- hand-made instances ------------------------------------------------ */

typedef struct qp_case {
	const char *name;
	const char *text;
	int32_t reduce;
	size_t vars; /* the variables the reduction leaves */
	int depth;
} qp_case;

/* The queens: one per row, column and region, none touching another. Of
 * the two such boards of 4 x 4 only .Q.. / ...Q / Q... / ..Q. has one queen
 * in each region; the other puts two in region d. */
static const char queens4[] = "queens 4\n"
			      "aaaa\n"
			      "cbbb\n"
			      "ccdd\n"
			      "cddd\n";

/* The same regions with the queen of row 1 given (a capital letter): the
 * clue-level reduction fixes its row, column, region and neighbours. */
static const char queens4_given[] = "queens 4\n"
				    "aAaa\n"
				    "cbbb\n"
				    "ccdd\n"
				    "cddd\n";

/* A 5 x 5 of four solutions, one of them with the queen given in row 1. */
static const char queens5_given[] = "queens 5\n"
				    "aaAbb\n"
				    "accbb\n"
				    "dccbe\n"
				    "ddcee\n"
				    "ddeee\n";

/* A 6 x 6 Tango of two solutions: 8 suns and moons given, 14 signs. */
static const char tango6[] = "tango 6\n"
			     "1 .x. .x. .\n"
			     "          x\n"
			     ". . 1 . .=.\n"
			     "  x   x\n"
			     "1 .x. 1 .=.\n"
			     "          x\n"
			     ". 1 . .x. .\n"
			     "    x\n"
			     ". . .=. 0 .\n"
			     "x\n"
			     ".x. 1 . . 0\n";

/* Takuzu without distinct lines: an empty 4 x 4 (every variable a cell,
 * many solutions) and two with clues. */
static const char takuzu4_empty[] = "takuzu 4 nounique\n....\n....\n....\n....\n";
static const char takuzu4_clues[] = "takuzu 4 nounique\n.0..\n1.1.\n...1\n..0.\n";
static const char takuzu6_clues[] = "takuzu 6 nounique\n"
				    "1.0...\n"
				    "001...\n"
				    "...1.0\n"
				    "010..1\n"
				    ".0....\n"
				    "1..100\n";
/* Classic Takuzu, rows and columns distinct: the witnesses of distinct
 * lines are variables too, so only the full reduction is small enough. */
static const char takuzu6_distinct[] = "takuzu 6\n"
				       "11001.\n"
				       "0.10..\n"
				       ".1.1.0\n"
				       ".1....\n"
				       "...1.1\n"
				       ".0.1..\n";

static const qp_case hand_made[] = {
	{ "queens 4 x 4, clues", queens4, QUBO_REDUCE_CLUES, 16, 1 },
	{ "queens 4 x 4, none", queens4, QUBO_REDUCE_NONE, 16, 2 },
	{ "queens 4 x 4 given, clues", queens4_given, QUBO_REDUCE_CLUES, 7, 2 },
	{ "queens 5 x 5 given, clues", queens5_given, QUBO_REDUCE_CLUES, 13, 1 },
	{ "tango 6 x 6, clues", tango6, QUBO_REDUCE_CLUES, 14, 1 },
	{ "tango 6 x 6, clues, p = 2", tango6, QUBO_REDUCE_CLUES, 14, 2 },
	{ "tango 6 x 6, full", tango6, QUBO_REDUCE_FULL, 3, 1 },
	{ "takuzu 4 x 4 empty, none", takuzu4_empty, QUBO_REDUCE_NONE, 16, 1 },
	{ "takuzu 4 x 4, clues", takuzu4_clues, QUBO_REDUCE_CLUES, 11, 2 },
	{ "takuzu 4 x 4, full", takuzu4_clues, QUBO_REDUCE_FULL, 4, 1 },
	{ "takuzu 6 x 6, full", takuzu6_clues, QUBO_REDUCE_FULL, 14, 2 },
	{ "takuzu 6 x 6 distinct, full", takuzu6_distinct, QUBO_REDUCE_FULL, 16, 1 },
};

static void run_hand_made(size_t i)
{
	const qp_case *c = &hand_made[i];
	qubo_puzzle *p = parse_at(c->name, c->text, strlen(c->text), c->reduce);
	size_t n = num_vars(p);

	if (c->vars)
		cr_assert_eq(n, c->vars, "%s: %zu variables, expected %zu", c->name, n, c->vars);
	if (under_valgrind() && n > QP_VALGRIND_VARS) {
		qubo_puzzle_free(p);
		cr_skip_test("%s: %zu variables: too slow under valgrind (at most %d)", c->name, n,
			     QP_VALGRIND_VARS);
	}
	qaoa_solves(c->name, p, c->depth);
	qubo_puzzle_free(p);
}

Test(qaoa_puzzle, queens_4x4_clues)
{
	run_hand_made(0);
}

Test(qaoa_puzzle, queens_4x4_none)
{
	run_hand_made(1);
}

Test(qaoa_puzzle, queens_4x4_given_clues)
{
	run_hand_made(2);
}

Test(qaoa_puzzle, queens_5x5_given_clues)
{
	run_hand_made(3);
}

Test(qaoa_puzzle, tango_6x6_clues_p1)
{
	run_hand_made(4);
}

Test(qaoa_puzzle, tango_6x6_clues_p2)
{
	run_hand_made(5);
}

Test(qaoa_puzzle, tango_6x6_full)
{
	run_hand_made(6);
}

Test(qaoa_puzzle, takuzu_4x4_empty)
{
	run_hand_made(7);
}

Test(qaoa_puzzle, takuzu_4x4_clues)
{
	run_hand_made(8);
}

Test(qaoa_puzzle, takuzu_4x4_full)
{
	run_hand_made(9);
}

Test(qaoa_puzzle, takuzu_6x6_full)
{
	run_hand_made(10);
}

Test(qaoa_puzzle, takuzu_6x6_distinct_full)
{
	run_hand_made(11);
}

/* The hand-made puzzles are what their comments say: the queens ones have
 * a single solution, the Tango two, and each instance has one at all. */
Test(qaoa_puzzle, hand_made_instances)
{
	size_t i;

	for (i = 0; i < sizeof hand_made / sizeof hand_made[0]; i++) {
		const qp_case *c = &hand_made[i];
		qubo_puzzle *p = parse_at(c->name, c->text, strlen(c->text), c->reduce);
		qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
		qubo_puzzle_count_result r;

		memset(&r, 0, sizeof r);
		r.struct_size = sizeof r;
		cr_assert_eq(qubo_puzzle_count(p, &o, &r), QUBO_OK, "%s: %s", c->name,
			     qubo_error_message());
		cr_assert_eq(r.complete, 1, "%s", c->name);
		cr_assert_geq(r.count, 1, "%s", c->name);
		if (c->text == queens4 || c->text == queens4_given || c->text == queens5_given)
			cr_assert_eq(r.count, 1, "%s", c->name);
		if (c->text == tango6)
			cr_assert_eq(r.count, 2, "%s", c->name);
		qubo_puzzle_free(p);
	}
}

/* ---- the shared collection ---------------------------------------------- */

typedef struct qp_pick {
	char *name;
	size_t vars;
} qp_pick;

static int cmp_pick(const void *a, const void *b)
{
	const qp_pick *x = a, *y = b;

	if (x->vars != y->vars)
		return x->vars < y->vars ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Runs the first @p want files of $QUBO_PUZZLES_DIR/family named prefix*
 * whose model at @p reduce has 1 to QP_MAX_VARS variables (fewest first,
 * then by name), at depth @p depth. */
static void run_shared(const char *family, const char *prefix, int32_t reduce, size_t want,
		       int depth)
{
	const char *root = getenv("QUBO_PUZZLES_DIR");
	char dir[1024], path[1400];
	char **names;
	qp_pick *picks;
	size_t count, i, npicks = 0, ran = 0, limit = QP_MAX_VARS;

	if (!root || !*root)
		cr_skip_test("QUBO_PUZZLES_DIR is not set: no shared %s puzzles to read", family);
	snprintf(dir, sizeof dir, "%s/%s", root, family);
	names = tu_list_files(dir, ".txt", &count);
	if (!names)
		cr_skip_test("no shared %s puzzles at %s (the collection is optional)", family,
			     dir);
	if (under_valgrind())
		limit = QP_VALGRIND_VARS;
	picks = malloc(count * sizeof *picks);
	cr_assert(picks);
	for (i = 0; i < count; i++) {
		qubo_puzzle *p;
		size_t len, n;
		char *text;

		if (strncmp(names[i], prefix, strlen(prefix)) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		text = tu_read_file(path, &len);
		cr_assert(text, "%s: cannot read", path);
		p = parse_at(names[i], text, len, reduce);
		n = num_vars(p);
		if (n >= 1 && n <= limit) {
			picks[npicks].name = names[i];
			picks[npicks++].vars = n;
		}
		qubo_puzzle_free(p);
		free(text);
	}
	if (npicks == 0) {
		free(picks);
		tu_free_names(names, count);
		/* Under valgrind the hand-made instances of at most
		 * QP_VALGRIND_VARS variables run the same checks. */
		if (under_valgrind())
			cr_skip_test(
				"under valgrind: no %s* level of %s reduces to 1 to %zu variables",
				prefix, dir, limit);
		cr_assert_fail("no %s* level of %s reduces to 1 to %zu variables", prefix, dir,
			       limit);
	}
	qsort(picks, npicks, sizeof *picks, cmp_pick);
	for (i = 0; i < npicks && ran < want; i++, ran++) {
		qubo_puzzle *p;
		size_t len;
		char *text;

		snprintf(path, sizeof path, "%s/%s", dir, picks[i].name);
		text = tu_read_file(path, &len);
		cr_assert(text, "%s: cannot read", path);
		p = parse_at(picks[i].name, text, len, reduce);
		qaoa_solves(picks[i].name, p, depth);
		qubo_puzzle_free(p);
		free(text);
	}
	free(picks);
	tu_free_names(names, count);
}

Test(qaoa_puzzle, shared_linkedin_queens_full)
{
	run_shared("queens", "samimsu-", QUBO_REDUCE_FULL, 3, 1);
}

Test(qaoa_puzzle, shared_tango_clues)
{
	run_shared("tango", "rntango-", QUBO_REDUCE_CLUES, 3, 2);
}
