/*
 * A solver lent to qubo_puzzle_solve() comes back as it was lent, whatever
 * the run did with it: after a solve that succeeded, stopped (its time limit,
 * the run's progress callback, the solver's own progress callback) or failed
 * (the backend's error, a value refused when the run samples, each
 * allocation failing in turn), the caller's solver has the same name,
 * description and options (every key, in order, with its type and value),
 * the same progress callback with the same user data (a run of the
 * caller's own still calls them), and a backend of the caller's own has
 * its user data and table untouched, its sample slot called once per round
 * and its destroy callback not called. Built-in solvers and a backend of
 * the test's own (tests/probe.h), on feasibility and optimisation puzzles,
 * in the default strategy (sampling, then the exact search) and sampling
 * only. (qubo_puzzle_count() takes no solver.)
 */
#include <qubo/puzzle.h>

#include "probe.h"
#include "util.h"

/* The caller's side: a solver, a backend of its own when named "probe", a
 * progress callback, and what it all looked like when lent. */
struct lender {
	const char *name;
	qubo_solver *s;
	int backend;
	tp_probe probe;
	qubo_backend_vtable table, table_as_lent;
	tp_watch watch;
	tp_state before;
	qubo_model *tiny; /* for a run of the caller's own */
};

static void lend(struct lender *l, const char *name, const qubo_allocator *a)
{
	memset(l, 0, sizeof *l);
	l->name = name;
	l->backend = !strcmp(name, "probe");
	if (l->backend) {
		tp_probe_init(&l->probe);
		l->table = l->table_as_lent = tp_probe_table();
		cr_assert_eq(qubo_solver_new_backend(&l->s, &l->table, &l->probe, tp_probe_destroy,
						     a),
			     QUBO_OK);
		cr_assert_eq(qubo_solver_set_string(l->s, "style", "careful"), QUBO_OK);
		cr_assert_eq(qubo_solver_set_double(l->s, "rate", 0.125), QUBO_OK);
	} else {
		cr_assert_eq(qubo_solver_new(&l->s, name, a), QUBO_OK, "%s", qubo_error_message());
	}
	/* keys the run sets on its copy, and one per solver that it does not */
	cr_assert_eq(qubo_solver_set_int(l->s, QUBO_PARAM_SEED, 99), QUBO_OK);
	cr_assert_eq(qubo_solver_set_double(l->s, QUBO_PARAM_TIME_LIMIT, 60.0), QUBO_OK);
	if (!strcmp(name, "sa") || !strcmp(name, "pt"))
		cr_assert_eq(qubo_solver_set_int(l->s, QUBO_PARAM_KEEP_LOWEST, 1), QUBO_OK);
	else if (!strcmp(name, "tabu"))
		cr_assert_eq(qubo_solver_set_int(l->s, QUBO_PARAM_NUM_RESTARTS, 2), QUBO_OK);
	else if (!strcmp(name, "exhaustive"))
		cr_assert_eq(qubo_solver_set_int(l->s, QUBO_PARAM_MAX_GROUND_STATES, 500), QUBO_OK);
	else if (!strcmp(name, "qaoa")) /* fixed angles: no optimisation */
		cr_assert_eq(qubo_solver_set_string(l->s, QUBO_PARAM_ANGLES, "0.4,0.2"), QUBO_OK);
	cr_assert_eq(qubo_solver_set_progress(l->s, tp_watch_cb, &l->watch), QUBO_OK);
	tp_snap(l->s, &l->before);
	cr_assert_eq(qubo_model_new(&l->tiny, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(l->tiny, 0, 1, -1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(l->tiny, 2, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(l->tiny), QUBO_OK);
}

/* The solver's name, description and options and the backend are as lent;
 * what names the call. */
static void check_state(const struct lender *l, const char *what)
{
	tp_state after;

	tp_snap(l->s, &after);
	tp_assert_same(&l->before, &after, what);
	if (l->backend) {
		cr_assert_eq(l->probe.magic, TP_MAGIC, "%s: the backend's user data was written",
			     what);
		cr_assert(!memcmp(&l->table, &l->table_as_lent, sizeof l->table),
			  "%s: the backend's table was written", what);
		cr_assert_eq(l->probe.destroy_calls, 0, "%s: the backend was destroyed", what);
	}
}

/* A run of the caller's own calls the caller's progress callback with its
 * user data. */
static void check_progress(struct lender *l, const char *what)
{
	qubo_sampleset *set = NULL;
	unsigned calls = l->watch.calls, samples = l->probe.sample_calls;
	int stop = l->watch.stop;

	l->watch.stop = 0;
	cr_assert_eq(qubo_solver_sample(&set, l->s, l->tiny), QUBO_OK, "%s: %s", what,
		     qubo_error_message());
	qubo_sampleset_free(set);
	cr_assert_gt(l->watch.calls, calls, "%s: the caller's progress callback is gone", what);
	if (l->backend)
		cr_assert_eq(l->probe.sample_calls, samples + 1);
	l->watch.stop = stop;
}

static void check_returned(struct lender *l, const char *what)
{
	check_state(l, what);
	check_progress(l, what);
}

static void give_back(struct lender *l)
{
	qubo_solver_free(l->s);
	qubo_model_free(l->tiny);
	if (l->backend) {
		cr_assert_eq(l->probe.destroy_calls, 1);
		tp_probe_dispose(&l->probe);
	}
}

static qubo_puzzle *parse_with(const char *text, const qubo_allocator *a)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;

	o.allocator = a;
	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK, "%s: %s", text,
		     qubo_error_message());
	return p;
}

static int solve(const qubo_puzzle *p, qubo_puzzle_solve_options *o, qubo_puzzle_result *r)
{
	uint8_t board[1024];

	memset(r, 0, sizeof *r);
	r->struct_size = sizeof *r;
	return qubo_puzzle_solve(p, o, board, sizeof board, r);
}

/* The sample slot of a backend of the caller's own ran once per round. */
static void check_rounds(const struct lender *l, const qubo_puzzle_result *r, unsigned before,
			 const char *what)
{
	if (l->backend)
		cr_assert_eq(l->probe.sample_calls - before, r->rounds,
			     "%s: %u sample calls in %u rounds", what,
			     l->probe.sample_calls - before, r->rounds);
}

Test(puzzle_lent_solver, comes_back_as_lent_after_a_solve)
{
	static const char *const names[] = { "sa", "exhaustive", "tabu", "descent",
					     "pt", "qaoa", "probe" };
	/* feasibility (with the exact search after the first round, or
	 * sampling only) and optimisation (sampling only, and the default,
	 * which proves this one by search alone); "qaoa" at fixed angles seldom
	 * reads a solution of 16 variables, so it samples only the 9 of
	 * 3 x 3 domination and leaves 4-Queens to the search */
	static const struct {
		const char *text;
		int32_t strategy;
		int qaoa;
	} runs[] = {
		{ "nqueens 4\n", QUBO_PUZZLE_STRATEGY_AUTO, 1 },
		{ "nqueens 4\n", QUBO_PUZZLE_STRATEGY_SAMPLE, 0 },
		{ "queens 4\naabb\naabb\nccdd\nccdd\n", QUBO_PUZZLE_STRATEGY_SAMPLE, 0 },
		{ "domination 3\n", QUBO_PUZZLE_STRATEGY_SAMPLE, 1 },
		{ "domination 3\n", QUBO_PUZZLE_STRATEGY_AUTO, 1 },
	};
	size_t i, j;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct lender l;

		lend(&l, names[i], NULL);
		for (j = 0; j < sizeof runs / sizeof runs[0]; j++) {
			qubo_puzzle *p;
			qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
			qubo_puzzle_result r;
			unsigned samples = l.probe.sample_calls;
			char what[128];
			int rc;

			if (!strcmp(names[i], "qaoa") && !runs[j].qaoa)
				continue;
			p = parse_with(runs[j].text, NULL);
			snprintf(what, sizeof what, "%s, strategy %d, %s", names[i],
				 (int)runs[j].strategy, runs[j].text);
			o.solver = l.s;
			o.strategy = runs[j].strategy;
			o.seed = 3;
			o.threads = 1;
			o.time_limit = 60;
			rc = solve(p, &o, &r);
			cr_assert_eq(rc, QUBO_OK, "%s: %d %s", what, rc, qubo_error_message());
			/* (a single run of fixed-angle QAOA may find no valid board) */
			cr_assert(r.verdict == QUBO_PUZZLE_SOLVED || r.verdict == QUBO_PUZZLE_OPTIMAL ||
					  r.verdict == QUBO_PUZZLE_BEST_FOUND ||
					  (r.verdict == QUBO_PUZZLE_NOT_FOUND &&
					   !strcmp(names[i], "qaoa")),
				  "%s: verdict %d", what, r.verdict);
			if (runs[j].strategy == QUBO_PUZZLE_STRATEGY_SAMPLE)
				cr_assert_geq(r.rounds, 1, "%s", what);
			check_rounds(&l, &r, samples, what);
			if (l.backend && r.rounds)
				cr_assert_eq(l.probe.last_seed, 3 + (int64_t)r.rounds - 1,
					     "%s: the round's seed reaches the backend", what);
			check_returned(&l, what);
			qubo_puzzle_free(p);
		}
		give_back(&l);
	}
}

static int stop_run(const qubo_puzzle_progress *progress, void *user_data)
{
	(void)progress;
	(void)user_data;
	return 1;
}

/* Stopped by the time limit, by the run's progress callback and by the
 * solver's own. */
Test(puzzle_lent_solver, comes_back_as_lent_after_a_stop)
{
	static const char *const names[] = { "sa", "probe" };
	size_t i;
	int how;

	for (i = 0; i < 2; i++) {
		struct lender l;
		/* one read of one sweep per round never finds 30 queens, nor
		 * does the board without queens solve 4: the rounds go on until
		 * something stops them */
		qubo_puzzle *p = parse_with(i ? "nqueens 4\n" : "nqueens 30\n", NULL);

		lend(&l, names[i], NULL);
		if (l.backend) {
			l.probe.zeros = 1;
		} else {
			cr_assert_eq(qubo_solver_set_int(l.s, QUBO_PARAM_NUM_READS, 1), QUBO_OK);
			cr_assert_eq(qubo_solver_set_int(l.s, QUBO_PARAM_NUM_SWEEPS, 1), QUBO_OK);
			tp_snap(l.s, &l.before);
		}
		for (how = 0; how < 3; how++) {
			static const char *const hows[] = { "the time limit", "the run's callback",
							    "the solver's callback" };
			qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
			qubo_puzzle_result r;
			unsigned samples = l.probe.sample_calls;
			char what[128];
			int rc;

			snprintf(what, sizeof what, "%s stopped by %s", names[i], hows[how]);
			o.solver = l.s;
			o.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
			o.threads = 1;
			o.time_limit = how == 0 ? 0.05 : 10;
			if (how == 1)
				o.progress = stop_run;
			l.watch.stop = how == 2;
			rc = solve(p, &o, &r);
			cr_assert_eq(rc, how ? QUBO_CANCELLED : QUBO_TIME_LIMIT, "%s: %d %s", what, rc,
				     qubo_error_message());
			check_rounds(&l, &r, samples, what);
			check_returned(&l, what);
			l.watch.stop = 0;
		}
		give_back(&l);
		qubo_puzzle_free(p);
	}
}

/* An optimisation puzzle too large to prove at once: a first try of branch
 * and bound, the caller's solver, then the search until the time is up. */
Test(puzzle_lent_solver, comes_back_as_lent_after_sampling_between_searches)
{
	qubo_puzzle *p = parse_with("domination 13\n", NULL);
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r;
	struct lender l;
	int rc;

	lend(&l, "sa", NULL);
	o.solver = l.s;
	o.time_limit = 0.6;
	rc = solve(p, &o, &r);
	cr_assert_eq(rc, QUBO_TIME_LIMIT, "%d %s", rc, qubo_error_message());
	cr_assert_str_eq(r.method, "sampling, then branch and bound");
	cr_assert_geq(r.rounds, 1);
	check_returned(&l, "domination 13");
	give_back(&l);
	qubo_puzzle_free(p);
}

/* The backend fails, and "sa" refuses at run time a pair of values it
 * accepted one at a time. */
Test(puzzle_lent_solver, comes_back_as_lent_after_a_failure)
{
	qubo_puzzle *p = parse_with("nqueens 4\n", NULL);
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r;
	struct lender l;
	int rc;

	lend(&l, "probe", NULL);
	l.probe.fail = 1;
	o.solver = l.s;
	o.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
	rc = solve(p, &o, &r);
	cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "%d %s", rc, qubo_error_message());
	cr_assert_eq(l.probe.sample_calls, 1);
	l.probe.fail = 0;
	check_returned(&l, "the backend failed");
	give_back(&l);

	lend(&l, "sa", NULL);
	cr_assert_eq(qubo_solver_set_double(l.s, QUBO_PARAM_BETA_HOT, 5.0), QUBO_OK);
	cr_assert_eq(qubo_solver_set_double(l.s, QUBO_PARAM_BETA_COLD, 1.0), QUBO_OK);
	tp_snap(l.s, &l.before);
	o.solver = l.s;
	rc = solve(p, &o, &r);
	cr_assert_lt(rc, 0, "beta_hot above beta_cold: %d", rc);
	check_state(&l, "beta_hot above beta_cold");
	/* a run of the caller's own would fail the same way */
	cr_assert_eq(qubo_solver_unset(l.s, QUBO_PARAM_BETA_HOT), QUBO_OK);
	cr_assert_eq(qubo_solver_unset(l.s, QUBO_PARAM_BETA_COLD), QUBO_OK);
	check_progress(&l, "beta_hot above beta_cold");
	give_back(&l);
	qubo_puzzle_free(p);
}

/* Allocation k of the solve fails, for every k (the puzzle, the caller's
 * solver and the run's copy of it share one allocator): the solver comes
 * back as lent each time, and nothing leaks. */
Test(puzzle_lent_solver, comes_back_as_lent_when_each_allocation_fails)
{
	static const char *const names[] = { "sa", "probe" };
	static const char *const texts[] = { "nqueens 4\n", "domination 3\n" };
	size_t i, t, k, fails = 0;

	for (i = 0; i < 2; i++) {
		for (t = 0; t < 2; t++) {
			tu_failalloc fa;
			struct lender l;
			qubo_puzzle *p;
			int32_t strategy;

			tu_failalloc_init(&fa, 0);
			p = parse_with(texts[t], &fa.a);
			lend(&l, names[i], &fa.a);
			for (strategy = QUBO_PUZZLE_STRATEGY_AUTO;
			     strategy <= QUBO_PUZZLE_STRATEGY_SAMPLE; strategy++) {
				for (k = 1; k < 100000; k++) {
					qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
					qubo_puzzle_result r;
					size_t live = fa.live;
					char what[128];
					int rc;

					o.solver = l.s;
					o.strategy = strategy;
					o.threads = 1;
					fa.failed = 0;
					fa.fail_at = fa.count + k;
					rc = solve(p, &o, &r);
					fa.fail_at = 0;
					snprintf(what, sizeof what, "%s, %s, strategy %d, allocation %zu",
						 names[i], texts[t], (int)strategy, k);
					cr_assert_eq(fa.live, live, "%s: %zu blocks leaked", what,
						     fa.live - live);
					cr_assert(rc == QUBO_OK || rc == QUBO_ERR_NOMEM, "%s: %d %s", what,
						  rc, qubo_error_message());
					check_returned(&l, what);
					if (!fa.failed)
						break;
					fails += rc == QUBO_ERR_NOMEM;
				}
			}
			give_back(&l);
			qubo_puzzle_free(p);
			cr_assert_eq(fa.live, 0);
		}
	}
	cr_assert_gt(fails, 20);
}
