/*
 * qubo_puzzle_solve(), qubo_puzzle_count() and qubo_puzzle_get_cell():
 * exactness against the independent backtracking oracle of helpers.h on
 * random generalised queens instances (every solution found once, none
 * invented, infeasibility proven only where there is none), the known
 * N-Queens counts, limits, time limits and cancellation, a caller's
 * solver, bad arguments, and the size-first structs' version rule.
 */
#include <math.h>

#include "helpers.h"

static int32_t method_of_text(const char *text);

static qubo_puzzle_result result_init(void)
{
	qubo_puzzle_result r;

	memset(&r, 0, sizeof r);
	r.struct_size = sizeof r;
	return r;
}

static qubo_puzzle_count_result count_result_init(void)
{
	qubo_puzzle_count_result r;

	memset(&r, 0, sizeof r);
	r.struct_size = sizeof r;
	return r;
}

static qubo_puzzle *parse_at(const char *text, int32_t reduce)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;
	int rc;

	o.reduce = reduce;
	rc = qubo_puzzle_parse(&p, text, strlen(text), &o);

	cr_assert_eq(rc, QUBO_OK, "%s: %s", text, qubo_error_message());
	return p;
}

static qubo_puzzle *parse(const char *text)
{
	return parse_at(text, QUBO_REDUCE_DEFAULT);
}

/* Collects the solutions a count reports, as keys. */
struct collect {
	ph_set set;
	size_t cells;
	size_t calls;
	size_t stop_at; /* nonzero: stop at this call */
	const qubo_puzzle *p;
};

static int collect_cb(const uint8_t *board, size_t length, void *user_data)
{
	struct collect *c = user_data;
	size_t viol = 1;

	cr_assert_eq(length, c->cells);
	cr_assert_eq(qubo_puzzle_check(c->p, board, length, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "a counted board breaks %zu rules", viol);
	ph_set_add(&c->set, ph_key(board, length));
	c->calls++;
	return c->stop_at && c->calls >= c->stop_at;
}

static uint64_t count_of(const qubo_puzzle *p, int32_t method, uint64_t limit, int *complete)
{
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result r = count_result_init();
	int rc;

	o.method = method;
	o.limit = limit;
	rc = qubo_puzzle_count(p, &o, &r);
	cr_assert_eq(rc, QUBO_OK, "count: %d %s", rc, qubo_error_message());
	if (complete)
		*complete = r.complete;
	return r.count;
}

/* ---- exactness on random instances ---- */

Test(puzzle_solve, count_and_solve_match_the_oracle_on_random_instances)
{
	tu_rng rng = { 20261124 };
	int i, trials = 300, feasible = 0, infeasible = 0;

	for (i = 0; i < trials; i++) {
		ph_inst I;
		qubo_puzzle_queens_spec s;
		qubo_puzzle *p = NULL;
		ph_set sols = { 0 };
		struct collect c;
		qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
		qubo_puzzle_count_result cr = count_result_init();
		qubo_puzzle_result sr;
		qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		uint8_t board[PH_MAX_CELLS];
		size_t n, k;
		int rc, strategy;

		ph_random_inst(&I, &rng, 16);
		ph_spec(&I, &s);
		n = (size_t)I.w * I.h;
		cr_assert_leq(n, PH_MAX_CELLS);
		if (n > PH_MAX_CELLS)
			continue; /* tells the compiler the bound of ph_key's loop */
		{
			/* every level: unreduced models leave the search real work,
			 * and infeasible instances reach it */
			qubo_puzzle_options po = QUBO_PUZZLE_OPTIONS_INIT;

			po.reduce = 1 + i % 3;
			rc = qubo_puzzle_queens_new(&p, &s, &po);
		}
		ph_solutions(&I, NULL, &sols);
		if (rc == QUBO_ERR_INFEASIBLE) {
			cr_assert_eq(sols.n, 0, "instance %d: the build says infeasible", i);
			free(sols.keys);
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "instance %d: %s", i, qubo_error_message());
		feasible += sols.n > 0;
		infeasible += sols.n == 0;

		/* the search's count: every solution once */
		memset(&c, 0, sizeof c);
		c.cells = n;
		c.p = p;
		co.method = QUBO_PUZZLE_COUNT_SEARCH;
		co.on_solution = collect_cb;
		co.user_data = &c;
		rc = qubo_puzzle_count(p, &co, &cr);
		cr_assert_eq(rc, QUBO_OK, "instance %d: %s", i, qubo_error_message());
		cr_assert(cr.complete);
		cr_assert_eq(cr.count, sols.n, "instance %d: counted %llu, the oracle has %zu", i,
			     (unsigned long long)cr.count, sols.n);
		cr_assert_eq(c.calls, sols.n);
		ph_set_sort(&c.set);
		cr_assert_eq(c.set.n, sols.n, "instance %d: a solution was reported twice", i);
		for (k = 0; k < sols.n; k++)
			cr_assert_eq(c.set.keys[k], sols.keys[k], "instance %d: solution %zu differs",
				     i, k);
		/* enumeration agrees */
		cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_ENUMERATE, 0, NULL), sols.n,
			     "instance %d: enumeration", i);

		/* solving: a solution of the oracle, or proven infeasible */
		for (strategy = QUBO_PUZZLE_STRATEGY_AUTO; strategy <= QUBO_PUZZLE_STRATEGY_SEARCH;
		     strategy++) {
			if (strategy == QUBO_PUZZLE_STRATEGY_SAMPLE && !sols.n)
				continue; /* sampling proves nothing */
			sr = result_init();
			so.strategy = strategy;
			so.seed = (uint64_t)i;
			rc = qubo_puzzle_solve(p, &so, board, sizeof board, &sr);
			cr_assert_eq(rc, QUBO_OK, "instance %d, strategy %d: %d %s", i, strategy, rc,
				     qubo_error_message());
			cr_assert_eq(sr.method_id, method_of_text(sr.method), "'%s'", sr.method);
			if (!sols.n) {
				cr_assert_eq(sr.verdict, QUBO_PUZZLE_INFEASIBLE,
					     "instance %d, strategy %d: verdict %d", i, strategy,
					     sr.verdict);
				cr_assert_eq(sr.has_board, 0);
				continue;
			}
			cr_assert_eq(sr.verdict, QUBO_PUZZLE_SOLVED, "instance %d, strategy %d: %d",
				     i, strategy, sr.verdict);
			cr_assert(sr.has_board);
			cr_assert_eq(sr.violations, 0);
			cr_assert(sr.has_energy);
			cr_assert(bsearch(&(uint64_t){ ph_key(board, n) }, sols.keys, sols.n,
					  sizeof *sols.keys, ph_cmp_u64),
				  "instance %d, strategy %d: the board is not a solution", i,
				  strategy);
		}
		free(c.set.keys);
		free(sols.keys);
		qubo_puzzle_free(p);
	}
	cr_assert_gt(feasible, trials / 10, "too few feasible instances (%d)", feasible);
	(void)infeasible; /* the builds' reductions catch most of them */
}

/* Infeasible boards that no reduction refutes: only the search proves it. */
Test(puzzle_solve, proven_infeasible_by_the_search)
{
	static const char *const texts[] = { "nqueens 4 torus\n", "nqueens 6 torus\n",
					     "nqueens 8 torus\n", "nqueens 9 torus\n" };
	size_t i;
	int strategy;

	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		qubo_puzzle *p = parse(texts[i]);
		uint8_t board[81];
		int complete = 0;

		for (strategy = QUBO_PUZZLE_STRATEGY_AUTO; strategy <= QUBO_PUZZLE_STRATEGY_SEARCH;
		     strategy += 2) {
			qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
			qubo_puzzle_result r = result_init();

			o.strategy = strategy;
			cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_OK);
			cr_assert_eq(r.verdict, QUBO_PUZZLE_INFEASIBLE, "%s: verdict %d", texts[i],
				     r.verdict);
			cr_assert_eq(r.has_board, 0);
			cr_assert_gt(r.nodes, 0);
		}
		cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_AUTO, 0, &complete), 0);
		cr_assert(complete);
		qubo_puzzle_free(p);
	}
}

/* ---- known counts ---- */

Test(puzzle_solve, n_queens_counts)
{
	static const struct {
		const char *text;
		uint64_t count;
	} cases[] = {
		{ "nqueens 1\n", 1 },	       { "nqueens 2\n", 0 },	    { "nqueens 3\n", 0 },
		{ "nqueens 4\n", 2 },	       { "nqueens 6\n", 4 },	    { "nqueens 8\n", 92 },
		{ "nqueens 10\n", 724 },       { "nqueens 5 torus\n", 10 }, { "nqueens 6 torus\n", 0 },
		{ "nqueens 7 torus\n", 28 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		qubo_puzzle *p = NULL;
		int rc = qubo_puzzle_parse(&p, cases[i].text, strlen(cases[i].text), NULL), complete = 0;

		if (rc == QUBO_ERR_INFEASIBLE) {
			cr_assert_eq(cases[i].count, 0, "%s", cases[i].text);
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "%s: %s", cases[i].text, qubo_error_message());
		cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_AUTO, 0, &complete), cases[i].count,
			     "%s", cases[i].text);
		cr_assert(complete);
		qubo_puzzle_free(p);
	}
}

Test(puzzle_solve, count_stops_at_the_limit)
{
	qubo_puzzle *p = parse("nqueens 10\n");
	int complete = 1;

	cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_SEARCH, 5, &complete), 5);
	cr_assert_eq(complete, 0);
	/* a limit above the count changes nothing */
	cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_SEARCH, 10000, &complete), 724);
	cr_assert_eq(complete, 1);
	qubo_puzzle_free(p);
	p = parse("nqueens 5\n");
	cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_ENUMERATE, 0, &complete), 10);
	cr_assert_eq(complete, 1);
	cr_assert_eq(count_of(p, QUBO_PUZZLE_COUNT_ENUMERATE, 3, &complete), 3);
	cr_assert_eq(complete, 0);
	qubo_puzzle_free(p);
}

Test(puzzle_solve, the_solution_callback_stops_the_count)
{
	qubo_puzzle *p = parse("nqueens 8\n");
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result r = count_result_init();
	struct collect c;

	memset(&c, 0, sizeof c);
	c.cells = 64;
	c.p = p;
	c.stop_at = 3;
	o.on_solution = collect_cb;
	o.user_data = &c;
	cr_assert_eq(qubo_puzzle_count(p, &o, &r), QUBO_CANCELLED);
	cr_assert_eq(r.count, 3);
	cr_assert_eq(r.complete, 0);
	free(c.set.keys);
	qubo_puzzle_free(p);
}

/* ---- time limits and cancellation ---- */

struct stopper {
	int calls;
	int stop_after;
	int32_t phases;
};

static int stop_cb(const qubo_puzzle_progress *pr, void *user_data)
{
	struct stopper *s = user_data;

	cr_assert_geq(pr->struct_size, sizeof *pr);
	s->phases |= 1 << pr->phase;
	return ++s->calls >= s->stop_after;
}

Test(puzzle_solve, count_time_limit_and_cancel)
{
	qubo_puzzle *p = parse("nqueens 15\n"); /* 2,279,184 solutions */
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result r = count_result_init();
	struct stopper s = { 0, 2, 0 };

	o.time_limit = 0.05;
	cr_assert_eq(qubo_puzzle_count(p, &o, &r), QUBO_TIME_LIMIT);
	cr_assert_eq(r.complete, 0);
	cr_assert_gt(r.count, 0);
	cr_assert_lt(r.seconds, 5.0);

	o.time_limit = 0;
	o.progress = stop_cb;
	o.user_data = &s;
	r = count_result_init();
	cr_assert_eq(qubo_puzzle_count(p, &o, &r), QUBO_CANCELLED);
	cr_assert_eq(r.complete, 0);
	cr_assert_eq(s.calls, 2);
	cr_assert(s.phases & (1 << QUBO_PUZZLE_PHASE_SEARCH));
	qubo_puzzle_free(p);
}

Test(puzzle_solve, solve_time_limit_and_cancel)
{
	/* no solution, and no reduction says so: sampling alone never tells */
	qubo_puzzle *p = parse("nqueens 6 torus\n");
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r = result_init();
	struct stopper s = { 0, 3, 0 };
	uint8_t board[36];

	o.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
	o.time_limit = 0.2;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_TIME_LIMIT);
	cr_assert_eq(r.verdict, QUBO_PUZZLE_STOPPED);
	cr_assert_gt(r.rounds, 1);
	cr_assert_lt(r.seconds, 5.0);
	if (r.has_board)
		cr_assert_gt(r.violations, 0);

	o.time_limit = 0;
	o.progress = stop_cb;
	o.user_data = &s;
	r = result_init();
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_CANCELLED);
	cr_assert_eq(r.verdict, QUBO_PUZZLE_STOPPED);
	cr_assert_eq(s.calls, 3);
	cr_assert(s.phases & (1 << QUBO_PUZZLE_PHASE_SAMPLE));

	/* the default strategy proves it */
	o.strategy = QUBO_PUZZLE_STRATEGY_AUTO;
	o.progress = NULL;
	r = result_init();
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_OK);
	cr_assert_eq(r.verdict, QUBO_PUZZLE_INFEASIBLE);
	qubo_puzzle_free(p);
}

/* ---- a caller's solver ---- */

Test(puzzle_solve, a_callers_solver_keeps_its_options)
{
	qubo_puzzle *p = parse("nqueens 8\n");
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r = result_init();
	const qubo_options *opts = NULL;
	qubo_solver *s = NULL;
	uint8_t board[64];
	int64_t reads = 0;
	size_t viol = 1;

	cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 3), QUBO_OK);
	o.solver = s;
	o.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
	o.seed = 5;
	o.time_limit = 30;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_OK);
	cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED);
	cr_assert_str_eq(r.method, "sa");
	cr_assert_eq(r.seed, 5);
	cr_assert_geq(r.reads, 1);
	cr_assert_eq(qubo_puzzle_check(p, board, 64, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, 0);
	/* what the caller set stays; what the run set is gone */
	cr_assert_eq(qubo_solver_options(s, &opts), QUBO_OK);
	cr_assert_eq(qubo_options_get_int(opts, QUBO_PARAM_NUM_READS, 0, &reads), QUBO_OK);
	cr_assert_eq(reads, 3);
	cr_assert_eq(qubo_options_type(opts, QUBO_PARAM_SEED), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_type(opts, QUBO_PARAM_NUM_SWEEPS), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_type(opts, QUBO_PARAM_TIME_LIMIT), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_type(opts, QUBO_PARAM_TARGET_ENERGY), QUBO_TYPE_NONE);
	qubo_solver_free(s);
	qubo_puzzle_free(p);
}

/* One thread: the same seed gives the same board, and another seed
 * (almost surely) another one. */
Test(puzzle_solve, same_seed_same_board)
{
	qubo_puzzle *p = parse("nqueens 30\n");
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	static uint8_t a[900], b[900];
	qubo_puzzle_result r = result_init();
	int seed, differ = 0;

	o.threads = 1;
	for (seed = 11; seed < 14; seed++) {
		o.seed = (uint64_t)seed;
		r = result_init();
		cr_assert_eq(qubo_puzzle_solve(p, &o, a, sizeof a, &r), QUBO_OK);
		cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED);
		if (seed > 11)
			differ |= memcmp(a, b, sizeof a) != 0;
		r = result_init();
		cr_assert_eq(qubo_puzzle_solve(p, &o, b, sizeof b, &r), QUBO_OK);
		cr_assert_eq(memcmp(a, b, sizeof a), 0, "seed %d: two boards", seed);
	}
	cr_assert(differ, "three seeds gave one board");
	qubo_puzzle_free(p);
}

/* ---- a reduction that decides everything ---- */

Test(puzzle_solve, solved_by_the_reduction)
{
	qubo_puzzle *p = parse("nqueens 1\n");
	qubo_puzzle_result r = result_init();
	uint8_t board[1];

	cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, &r), QUBO_OK);
	cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED);
	cr_assert_str_eq(r.method, "reduction");
	cr_assert_eq(board[0], 1);
	qubo_puzzle_free(p);
}

/* ---- cells ---- */

Test(puzzle_solve, cells_of_a_queens_board)
{
	static const char text[] = "queens 4\n"
				   "aAbb\n"
				   "a.bb\n"
				   "ccdd\n"
				   "ccdd\n";
	qubo_puzzle *p = parse(text);
	qubo_puzzle_cell cell;
	qubo_lit lits[16];
	uint32_t r, c;

	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
	for (r = 0; r < 4; r++) {
		for (c = 0; c < 4; c++) {
			char ch = text[9 + r * 5 + c];

			memset(&cell, 0xab, sizeof cell);
			cell.struct_size = sizeof cell;
			cr_assert_eq(qubo_puzzle_get_cell(p, r, c, &cell), QUBO_OK);
			cr_assert_eq(cell.struct_size, sizeof cell);
			cr_assert_eq(cell.on_board, ch != '.', "row %u col %u", r, c);
			cr_assert_eq(cell.region,
				     ch == '.'		     ? -1 :
				     ch >= 'a' && ch <= 'z' ? ch - 'a' :
							      ch - 'A',
				     "row %u col %u: region %d", r, c, cell.region);
			cr_assert_eq(cell.given, ch >= 'A' && ch <= 'Z' ? 1 : -1);
			cr_assert_eq(cell.piece, -1);
			cr_assert_eq(cell.literal, lits[r * 4 + c]);
		}
	}
	cr_assert_eq(qubo_puzzle_get_cell(p, 4, 0, &cell), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_puzzle_get_cell(p, 0, 4, &cell), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_puzzle_get_cell(NULL, 0, 0, &cell), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_get_cell(p, 0, 0, NULL), QUBO_ERR_MISUSE);
	qubo_puzzle_free(p);
}

/* ---- arguments ---- */

Test(puzzle_solve, bad_arguments)
{
	qubo_puzzle *p = parse("nqueens 4\n");
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result cr = count_result_init();
	qubo_puzzle_result r = result_init();
	uint8_t board[16];

	cr_assert_eq(qubo_puzzle_solve(NULL, NULL, board, 16, &r), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_solve(p, NULL, board, 16, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_solve(p, NULL, NULL, 16, &r), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_solve(p, NULL, board, 15, &r), QUBO_ERR_BUFFER_TOO_SMALL);
	o.strategy = 3;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, 16, &r), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "strategy"));
	o.strategy = 0;
	o.time_limit = (double)NAN;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, 16, &r), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "time_limit"));
	o.time_limit = -1;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, 16, &r), QUBO_ERR_INVALID_ARG);
	o.time_limit = 0;
	o.threads = -1;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, 16, &r), QUBO_ERR_INVALID_ARG);

	cr_assert_eq(qubo_puzzle_count(NULL, NULL, &cr), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_count(p, NULL, NULL), QUBO_ERR_MISUSE);
	co.method = 9;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_ERR_INVALID_ARG);
	co.method = 0;
	co.max_variables = 41;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_ERR_INVALID_ARG);
	co.max_variables = 0;
	co.time_limit = (double)INFINITY;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_ERR_INVALID_ARG);
	co.time_limit = 0;
	co.reserved = 1;
	cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_ERR_INVALID_ARG);
	qubo_puzzle_free(p);
}

Test(puzzle_solve, enumeration_refuses_large_models)
{
	qubo_puzzle *p = parse("nqueens 7\n");
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result r = count_result_init();

	o.method = QUBO_PUZZLE_COUNT_ENUMERATE;
	o.max_variables = 20;
	cr_assert_eq(qubo_puzzle_count(p, &o, &r), QUBO_ERR_TOO_LARGE);
	cr_assert(strstr(qubo_error_message(), "49 variables"), "%s", qubo_error_message());
	qubo_puzzle_free(p);
}

/* ---- struct versions: older, newer and too-small callers ---- */

/* An input struct of `size` bytes (in a larger zeroed buffer), its
 * struct_size set: the V1 size and a zero tail are accepted, a set byte in
 * the tail and a size below V1 are not. */
#define VERSION_CASES(type, v1, call)                                                     \
	do {                                                                              \
		static unsigned char buf[sizeof(type) + 64];                              \
		type *opt = (type *)(void *)buf;                                          \
		size_t sizes[3] = { (v1), sizeof(type), sizeof(type) + 32 };              \
		size_t k;                                                                 \
		for (k = 0; k < 3; k++) {                                                 \
			memset(buf, 0, sizeof buf);                                       \
			opt->struct_size = sizes[k];                                      \
			cr_assert_eq((call), QUBO_OK, #type " of %zu bytes: %s", sizes[k], \
				     qubo_error_message());                               \
		}                                                                         \
		buf[sizeof(type) + 8] = 1;                                                \
		cr_assert_eq((call), QUBO_ERR_UNSUPPORTED_VERSION);                       \
		cr_assert(strstr(qubo_error_message(), #type), "%s", qubo_error_message()); \
		memset(buf, 0, sizeof buf);                                               \
		opt->struct_size = (v1) - 1;                                              \
		cr_assert_eq((call), QUBO_ERR_UNSUPPORTED_VERSION);                       \
		cr_assert(strstr(qubo_error_message(), #type), "%s", qubo_error_message()); \
	} while (0)

Test(puzzle_solve, input_struct_versions)
{
	qubo_puzzle *p = parse("nqueens 5\n");
	qubo_puzzle_result r = result_init();
	qubo_puzzle_count_result cr = count_result_init();
	uint8_t board[25];

	VERSION_CASES(qubo_puzzle_solve_options, QUBO_PUZZLE_SOLVE_OPTIONS_SIZE_V1,
		      qubo_puzzle_solve(p, opt, board, sizeof board, &r));
	VERSION_CASES(qubo_puzzle_count_options, QUBO_PUZZLE_COUNT_OPTIONS_SIZE_V1,
		      qubo_puzzle_count(p, opt, &cr));
	qubo_puzzle_free(p);
}

/* After a call that filled an output struct of `known` bytes for a caller
 * whose struct has `size` bytes (poisoned with 0xee before): the fields a
 * newer caller has beyond `known` are zeroed, and nothing past `size` is
 * written. */
static void tail_check(const unsigned char *buf, size_t cap, size_t known, size_t size)
{
	size_t i;

	for (i = known; i < size; i++)
		cr_assert_eq(buf[i], 0, "byte %zu of a newer caller's struct is not zeroed", i);
	for (i = size; i < cap; i++)
		cr_assert_eq(buf[i], 0xee, "byte %zu past the struct was written", i);
}

/* An output struct: written up to the caller's size and no further; a
 * larger size is accepted; below V1 is refused. */
Test(puzzle_solve, output_struct_versions)
{
	qubo_puzzle *p = parse("nqueens 5\n");
	static unsigned char buf[512];
	uint8_t board[25];
	size_t k;

	cr_assert_leq(sizeof(qubo_puzzle_result) + 64, sizeof buf);
	{
		size_t sizes[3] = { QUBO_PUZZLE_RESULT_SIZE_V1, sizeof(qubo_puzzle_result),
				    sizeof(qubo_puzzle_result) + 32 };
		for (k = 0; k < 3; k++) {
			qubo_puzzle_result *r = (qubo_puzzle_result *)(void *)buf;

			memset(buf, 0xee, sizeof buf);
			r->struct_size = sizes[k];
			cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, r), QUBO_OK);
			cr_assert_eq(r->struct_size, sizes[k]);
			cr_assert_eq(r->verdict, QUBO_PUZZLE_SOLVED);
			tail_check(buf, sizeof buf, sizeof *r, sizes[k]);
		}
	}
	{
		size_t sizes[3] = { QUBO_PUZZLE_COUNT_RESULT_SIZE_V1,
				    sizeof(qubo_puzzle_count_result),
				    sizeof(qubo_puzzle_count_result) + 32 };
		for (k = 0; k < 3; k++) {
			qubo_puzzle_count_result *r = (qubo_puzzle_count_result *)(void *)buf;

			memset(buf, 0xee, sizeof buf);
			r->struct_size = sizes[k];
			cr_assert_eq(qubo_puzzle_count(p, NULL, r), QUBO_OK);
			cr_assert_eq(r->count, 10);
			tail_check(buf, sizeof buf, sizeof *r, sizes[k]);
		}
	}
	{
		size_t sizes[3] = { QUBO_PUZZLE_CELL_SIZE_V1, sizeof(qubo_puzzle_cell),
				    sizeof(qubo_puzzle_cell) + 32 };
		for (k = 0; k < 3; k++) {
			qubo_puzzle_cell *c = (qubo_puzzle_cell *)(void *)buf;

			memset(buf, 0xee, sizeof buf);
			c->struct_size = sizes[k];
			cr_assert_eq(qubo_puzzle_get_cell(p, 1, 2, c), QUBO_OK);
			cr_assert_eq(c->on_board, 1);
			tail_check(buf, sizeof buf, sizeof *c, sizes[k]);
		}
	}
	{
		qubo_puzzle_result r = result_init();
		qubo_puzzle_count_result cr = count_result_init();
		qubo_puzzle_cell c;

		r.struct_size = QUBO_PUZZLE_RESULT_SIZE_V1 - 1;
		cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, &r),
			     QUBO_ERR_UNSUPPORTED_VERSION);
		cr_assert(strstr(qubo_error_message(), "qubo_puzzle_result"));
		cr.struct_size = QUBO_PUZZLE_COUNT_RESULT_SIZE_V1 - 1;
		cr_assert_eq(qubo_puzzle_count(p, NULL, &cr), QUBO_ERR_UNSUPPORTED_VERSION);
		c.struct_size = QUBO_PUZZLE_CELL_SIZE_V1 - 1;
		cr_assert_eq(qubo_puzzle_get_cell(p, 0, 0, &c), QUBO_ERR_UNSUPPORTED_VERSION);
		cr_assert(strstr(qubo_error_message(), "qubo_puzzle_cell"));
	}
	qubo_puzzle_free(p);
}

/* ---- out of memory ---- */

/* Allocation k of a solve or a count fails, for every k: the call returns
 * QUBO_ERR_NOMEM (or succeeds when the failure hit nothing it needed),
 * frees everything it allocated, and the puzzle still solves afterwards. */
Test(puzzle_solve, out_of_memory)
{
	static const char *const texts[] = {
		"nqueens 6\n", "nqueens 6 torus\n", "nqueens 8\n",
		"queens 5\naabbb\naabbb\ncccdd\ncccdd\neeeee\n",
	};
	size_t t, k, fails = 0;

	for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		tu_failalloc fa;
		qubo_puzzle_options po = QUBO_PUZZLE_OPTIONS_INIT;
		qubo_puzzle *p = NULL;
		int which;

		tu_failalloc_init(&fa, 0);
		po.allocator = &fa.a;
		if (qubo_puzzle_parse(&p, texts[t], strlen(texts[t]), &po) != QUBO_OK)
			continue;
		for (which = 0; which < 2; which++) {
			for (k = 1; k < 100000; k++) {
				size_t live = fa.live;
				uint8_t board[64];
				int rc;

				fa.failed = 0;
				fa.fail_at = fa.count + k;
				if (which == 0) {
					qubo_puzzle_result r = result_init();

					rc = qubo_puzzle_solve(p, NULL, board, sizeof board, &r);
				} else {
					qubo_puzzle_count_result r = count_result_init();

					rc = qubo_puzzle_count(p, NULL, &r);
				}
				fa.fail_at = 0;
				cr_assert_eq(fa.live, live, "%s, %s, allocation %zu: %zu blocks leaked",
					     texts[t], which ? "count" : "solve", k, fa.live - live);
				if (rc >= 0 && !fa.failed)
					break;
				if (rc < 0) {
					cr_assert_eq(rc, QUBO_ERR_NOMEM, "%s, allocation %zu: %d %s",
						     texts[t], k, rc, qubo_error_message());
					fails++;
				}
			}
		}
		{
			qubo_puzzle_result r = result_init();
			uint8_t board[64];

			cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, &r), QUBO_OK);
		}
		qubo_puzzle_free(p);
		cr_assert_eq(fa.live, 0);
	}
	cr_assert_gt(fails, 10);
}

/* ---- optimisation puzzles ---- */

/* Dominating queens on n x n: the domination numbers 2, 3, 3, 4, 5 for
 * n = 4 … 8 proven by branch and bound, and the 4,860 minimum dominating
 * sets of the 8 x 8 board (the number given in the dominating-queens
 * literature), in well under a second. */
Test(puzzle_solve, dominating_queens)
{
	static const unsigned gamma[] = { 2, 3, 3, 4, 5 };
	unsigned n;

	for (n = 4; n <= 8; n++) {
		char text[32];
		qubo_puzzle *p;
		qubo_puzzle_result r = result_init();
		uint8_t board[64];
		size_t viol = 1, i, queens = 0;

		snprintf(text, sizeof text, "domination %u\n", n);
		p = parse(text);
		cr_assert_eq(qubo_puzzle_solve(p, NULL, board, sizeof board, &r), QUBO_OK, "%s: %s",
			     text, qubo_error_message());
		cr_assert_eq(r.verdict, QUBO_PUZZLE_OPTIMAL, "%s: verdict %d", text, r.verdict);
		cr_assert_eq(qubo_puzzle_check(p, board, n * n, NULL, 0, &viol), QUBO_OK);
		cr_assert_eq(viol, 0);
		for (i = 0; i < n * n; i++)
			queens += board[i];
		cr_assert_eq(queens, gamma[n - 4], "%s: %zu queens", text, queens);
		cr_assert_eq(r.energy, (double)gamma[n - 4]);
		if (n == 8) {
			qubo_puzzle_count_result c = count_result_init();

			cr_assert_eq(qubo_puzzle_count(p, NULL, &c), QUBO_OK, "%s",
				     qubo_error_message());
			cr_assert_eq(c.count, 4860);
			cr_assert(c.complete);
			cr_assert(c.optimal_only);
			cr_assert_eq(c.energy, 5.0);
			cr_assert_lt(c.seconds, 1.0, "%.3f s", c.seconds);
		}
		qubo_puzzle_free(p);
	}
}

/* Counts by the exact searches (branch and bound for the optimal boards,
 * branch and reduce for coloured pieces) equal those by enumerating the
 * model's minimisers, on boards small enough to enumerate. */
Test(puzzle_solve, optimal_counts_agree_with_enumeration)
{
	static const char *const texts[] = {
		"domination 3\n",	  "domination 2x4\n",	"domination 2x5\n",
		"domination 3 knight\n", "domination 3 king\n", "domination 1x6 rook\n",
		"domination 4 rook\n",
		"chess 4x4 max\nQRBN\nNBRQ\nRNQB\nBQNR\n",
		"chess 5x4 max\nQRBNK\nNBRQK\nRNQBN\nBQNRB\n",
		"chess 4x4 coloured\nQRBN\nNBRQ\nRNQB\nBQNR\n\naabb\naabb\nccdd\nccdd\n",
		"chess 4x4 coloured\nQQQQ\nQQQQ\nQQQQ\nQQQQ\n\naabb\naabb\nccdd\nccdd\n",
	};
	size_t t, compared = 0;

	for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		qubo_puzzle *p = parse(texts[t]);
		const qubo_model *m;
		int complete = 0;
		uint64_t search, enumerated;

		cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
		if (qubo_model_num_variables(m) > 26) {
			qubo_puzzle_free(p);
			continue;
		}
		search = count_of(p, QUBO_PUZZLE_COUNT_SEARCH, 0, &complete);
		cr_assert(complete);
		enumerated = count_of(p, QUBO_PUZZLE_COUNT_ENUMERATE, 0, &complete);
		cr_assert_eq(search, enumerated, "%s: %llu by search, %llu by enumeration", texts[t],
			     (unsigned long long)search, (unsigned long long)enumerated);
		cr_assert_gt(search, 0);
		compared++;
		qubo_puzzle_free(p);
	}
	cr_assert_geq(compared, 5, "only %zu boards were small enough to enumerate", compared);
}

/* An optimisation puzzle is never SOLVED, and OPTIMAL only with a proof:
 * a short anneal of 11 x 11 (domination number 5, known) or 13 x 13
 * (unknown) gives the best found at most, a stopped default run its best
 * board as the best found (or nothing), and a finished branch and bound the
 * optimum. */
Test(puzzle_solve, optimisation_verdicts_need_a_proof)
{
	static const char *const texts[] = { "domination 11\n", "domination 13\n" };
	size_t t, i;

	for (t = 0; t < 2; t++) {
		qubo_puzzle *p = parse(texts[t]);
		qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		qubo_puzzle_result r = result_init();
		qubo_solver *s = NULL;
		uint8_t board[169];
		size_t queens = 0, cells = t ? 169 : 121;
		int rc;

		cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 1), QUBO_OK);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, 1), QUBO_OK);
		o.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
		o.solver = s;
		cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_OK, "%s",
			     qubo_error_message());
		cr_assert(r.verdict == QUBO_PUZZLE_BEST_FOUND || r.verdict == QUBO_PUZZLE_NOT_FOUND,
			  "%s: one sweep: verdict %d", texts[t], r.verdict);
		if (r.verdict == QUBO_PUZZLE_BEST_FOUND) {
			for (i = 0; i < cells; i++)
				queens += board[i];
			cr_assert_gt(queens, 5, "%s: %zu queens", texts[t], queens);
		}
		qubo_solver_free(s);

		o = (qubo_puzzle_solve_options)QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		o.time_limit = 0.05;
		r = result_init();
		rc = qubo_puzzle_solve(p, &o, board, sizeof board, &r);
		if (t == 1) {
			/* 13 x 13 needs seconds of branch and bound */
			cr_assert_eq(rc, QUBO_TIME_LIMIT, "%s: %d", texts[t], rc);
			cr_assert(r.verdict == QUBO_PUZZLE_BEST_FOUND ||
					  r.verdict == QUBO_PUZZLE_STOPPED,
				  "%s: stopped: verdict %d", texts[t], r.verdict);
		} else {
			cr_assert(rc == QUBO_OK ? r.verdict == QUBO_PUZZLE_OPTIMAL
						: r.verdict == QUBO_PUZZLE_BEST_FOUND ||
							  r.verdict == QUBO_PUZZLE_STOPPED,
				  "%s: rc %d, verdict %d", texts[t], rc, r.verdict);
		}
		cr_assert_neq(r.verdict, QUBO_PUZZLE_SOLVED);
		qubo_puzzle_free(p);
	}
}

/* A board at a known optimum (3 rooks dominate 3 x 3, a proven value) is
 * optimal even when the caller's target, not the optimum, stopped the
 * sampling. */
Test(puzzle_solve, a_known_optimum_reached_is_optimal_whatever_the_target)
{
	qubo_puzzle *p = parse("domination 3 rook\n");
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r = result_init();
	qubo_solver *s = NULL;
	uint8_t board[9];
	size_t i, rooks = 0;

	cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TARGET_ENERGY, 3.5), QUBO_OK);
	o.solver = s;
	o.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
	cr_assert_eq(qubo_puzzle_solve(p, &o, board, sizeof board, &r), QUBO_OK, "%s",
		     qubo_error_message());
	for (i = 0; i < 9; i++)
		rooks += board[i];
	cr_assert_eq(r.energy, 3.0);
	cr_assert_eq(rooks, 3);
	cr_assert_eq(r.verdict, QUBO_PUZZLE_OPTIMAL, "verdict %d", r.verdict);
	qubo_solver_free(s);
	qubo_puzzle_free(p);
}

/* ---- the method as an enum ---- */

/* The enum value that goes with each text qubo_puzzle_result.method gives. */
static int32_t method_of_text(const char *text)
{
	static const struct {
		const char *text;
		int32_t id;
	} map[] = {
		{ "reduction", QUBO_PUZZLE_METHOD_REDUCTION },
		{ "branch and reduce", QUBO_PUZZLE_METHOD_BRANCH_AND_REDUCE },
		{ "branch and bound", QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND },
		{ "exhaustive", QUBO_PUZZLE_METHOD_EXHAUSTIVE },
		{ "sa", QUBO_PUZZLE_METHOD_SOLVER },
		{ "tabu", QUBO_PUZZLE_METHOD_SOLVER },
		{ "descent", QUBO_PUZZLE_METHOD_SOLVER },
		{ "a caller's solver", QUBO_PUZZLE_METHOD_OTHER_SOLVER },
		{ "sa, then branch and reduce",
		  QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_REDUCE },
		{ "sampling, then branch and reduce",
		  QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_REDUCE },
		{ "sa, then exhaustive", QUBO_PUZZLE_METHOD_SAMPLING_THEN_EXHAUSTIVE },
		{ "sampling, then exhaustive", QUBO_PUZZLE_METHOD_SAMPLING_THEN_EXHAUSTIVE },
		{ "sa, then branch and bound", QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND },
		{ "sampling, then branch and bound",
		  QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND },
	};
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(text, map[i].text))
			return map[i].id;
	cr_assert_fail("method '%s' has no enum value", text);
	return -1;
}

/* Solves `text` with a strategy and a solver (NULL name: none) and checks
 * that the method's enum value goes with its text and is `want`. */
static void check_method(const char *text, int32_t strategy, const char *solver, int32_t want)
{
	qubo_puzzle *p = parse(text);
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r = result_init();
	qubo_solver *s = NULL;
	static uint8_t board[4096];
	int rc;

	if (solver)
		cr_assert_eq(qubo_solver_new(&s, solver, NULL), QUBO_OK);
	o.strategy = strategy;
	o.solver = s;
	o.seed = 3;
	o.time_limit = 30;
	rc = qubo_puzzle_solve(p, &o, board, sizeof board, &r);
	cr_assert_eq(rc, QUBO_OK, "%s: %s", text, qubo_error_message());
	cr_assert_not_null(r.method);
	cr_assert_eq(r.method_id, method_of_text(r.method), "%s: '%s' is %d", text, r.method,
		     (int)r.method_id);
	cr_assert_eq(r.method_id, want, "%s (%s): '%s', %s", text, solver ? solver : "no solver",
		     r.method, qubo_puzzle_method_name(r.method_id));
	qubo_solver_free(s);
	qubo_puzzle_free(p);
}

Test(puzzle_solve, the_method_as_an_enum)
{
	check_method("nqueens 1\n", QUBO_PUZZLE_STRATEGY_AUTO, NULL, QUBO_PUZZLE_METHOD_REDUCTION);
	check_method("nqueens 8\n", QUBO_PUZZLE_STRATEGY_SEARCH, NULL,
		     QUBO_PUZZLE_METHOD_BRANCH_AND_REDUCE);
	check_method("domination 3\n", QUBO_PUZZLE_STRATEGY_SEARCH, NULL,
		     QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND);
	check_method("nqueens 6\n", QUBO_PUZZLE_STRATEGY_SAMPLE, NULL, QUBO_PUZZLE_METHOD_SOLVER);
	check_method("nqueens 6\n", QUBO_PUZZLE_STRATEGY_SAMPLE, "tabu", QUBO_PUZZLE_METHOD_SOLVER);
	check_method("nqueens 4\n", QUBO_PUZZLE_STRATEGY_SAMPLE, "exhaustive",
		     QUBO_PUZZLE_METHOD_EXHAUSTIVE);
	check_method("nqueens 6\n", QUBO_PUZZLE_STRATEGY_SAMPLE, "pt",
		     QUBO_PUZZLE_METHOD_OTHER_SOLVER);

	/* the names: one for each value, distinct; "unknown" beyond */
	for (int i = 0; i <= QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND; i++) {
		cr_assert_str_neq(qubo_puzzle_method_name(i), "unknown", "%d", i);
		for (int j = 0; j < i; j++)
			cr_assert_str_neq(qubo_puzzle_method_name(i), qubo_puzzle_method_name(j));
	}
	cr_assert_str_eq(qubo_puzzle_method_name(QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND),
			 "branch_and_bound");
	cr_assert_str_eq(qubo_puzzle_method_name(-1), "unknown");
	cr_assert_str_eq(qubo_puzzle_method_name(10), "unknown");
}

Test(puzzle_solve, family_and_reduce_names)
{
	static const char *const reduce[] = { "none", "clues", "full", "default" };
	int32_t level = 77;
	size_t i;

	for (int f = QUBO_PUZZLE_QUEENS; f <= QUBO_PUZZLE_TANGO; f++) {
		cr_assert_str_neq(qubo_puzzle_family_name(f), "unknown", "%d", f);
		for (int g = QUBO_PUZZLE_QUEENS; g < f; g++)
			cr_assert_str_neq(qubo_puzzle_family_name(f), qubo_puzzle_family_name(g));
	}
	cr_assert_str_eq(qubo_puzzle_family_name(QUBO_PUZZLE_TANGO), "tango (LinkedIn Tango)");
	cr_assert_str_eq(qubo_puzzle_family_name(0), "unknown");
	cr_assert_str_eq(qubo_puzzle_family_name(QUBO_PUZZLE_TANGO + 1), "unknown");

	for (i = 0; i < sizeof reduce / sizeof reduce[0]; i++) {
		cr_assert_eq(qubo_puzzle_reduce_parse(reduce[i], &level), QUBO_OK);
		/* the default reads back as the level it is */
		cr_assert_str_eq(qubo_puzzle_reduce_name(level), i == 3 ? "full" : reduce[i]);
	}
	cr_assert_eq(qubo_puzzle_reduce_parse("default", &level), QUBO_OK);
	cr_assert_eq(level, QUBO_REDUCE_DEFAULT);
	cr_assert_eq(qubo_puzzle_reduce_parse("Full", &level), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(level, QUBO_REDUCE_DEFAULT, "unchanged on failure");
	cr_assert_str_eq(qubo_error_function(), "qubo_puzzle_reduce_parse");
	cr_assert_eq(qubo_puzzle_reduce_parse("", &level), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_puzzle_reduce_parse(NULL, &level), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_reduce_parse("full", NULL), QUBO_ERR_MISUSE);
	cr_assert_str_eq(qubo_puzzle_reduce_name(QUBO_REDUCE_NONE), "none");
	cr_assert_str_eq(qubo_puzzle_reduce_name(-1), "unknown");
	cr_assert_str_eq(qubo_puzzle_reduce_name(4), "unknown");
}
