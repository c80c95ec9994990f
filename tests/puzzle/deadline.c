/* The build's own time limit and progress (qubo_puzzle_options.time_limit,
 * .progress): a long build stops soon after the limit or when the callback
 * asks, frees everything, and leaves *out NULL. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "puzzle/helpers.h"

/* A build long enough for several progress calls (nqueens 200: 40000
 * cells, 13 million couplers, a quarter of a second); under valgrind, about
 * 30 times slower, a smaller one that still takes about a second. */
static const char *big_text(void)
{
	return getenv("QUBO_TEST_VALGRIND") ? "nqueens 100\n" : "nqueens 200\n";
}

/* Seconds a stopped build may take: generous, for loaded machines. */
static double bound(void)
{
	return getenv("QUBO_TEST_VALGRIND") ? 60.0 : 3.0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct seen {
	size_t calls, stop_at; /* stop_at 0: never stop */
	int all_build, size_ok;
	uint64_t last_nodes;
	int nodes_grow;
	double last_seconds;
} seen;

static int record(const qubo_puzzle_progress *pr, void *user_data)
{
	seen *s = user_data;

	s->calls++;
	if (pr->struct_size < QUBO_PUZZLE_PROGRESS_SIZE_V1)
		s->size_ok = 0;
	if (pr->phase != QUBO_PUZZLE_PHASE_BUILD)
		s->all_build = 0;
	if (pr->nodes < s->last_nodes || pr->seconds < s->last_seconds)
		s->nodes_grow = 0;
	s->last_nodes = pr->nodes;
	s->last_seconds = pr->seconds;
	return s->stop_at && s->calls >= s->stop_at;
}

Test(puzzle_deadline, time_limit_stops_a_long_build)
{
	const char *text = big_text();
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = (qubo_puzzle *)&o; /* must be set to NULL */
	tu_failalloc fa;
	double t0, took;
	int rc;

	tu_failalloc_init(&fa, 0);
	o.allocator = &fa.a;
	o.time_limit = getenv("QUBO_TEST_VALGRIND") ? 0.05 : 0.2;
	t0 = now();
	rc = qubo_puzzle_parse(&p, text, strlen(text), &o);
	took = now() - t0;
	cr_assert_eq(rc, QUBO_TIME_LIMIT, "%s with a %g s limit gave %s after %.3f s", text,
		     o.time_limit, qubo_status_name(rc), took);
	cr_assert_null(p);
	cr_assert_lt(took, bound(), "the build stopped %.3f s after its start", took);
	cr_assert_geq(took, o.time_limit);
	cr_assert_eq(fa.live, 0, "%zu blocks leaked", fa.live);
}

Test(puzzle_deadline, time_limit_covers_reading_a_file)
{
	const char *text = big_text();
	const char *dir = getenv("QUBO_TEST_TMPDIR");
	char path[4096];
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;
	double t0, took;
	FILE *f;
	int rc;

	snprintf(path, sizeof path, "%s/deadline-%ld.txt", dir ? dir : "/tmp", (long)getpid());
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	o.time_limit = getenv("QUBO_TEST_VALGRIND") ? 0.05 : 0.2;
	t0 = now();
	rc = qubo_puzzle_parse_file(&p, path, &o);
	took = now() - t0;
	remove(path);
	cr_assert_eq(rc, QUBO_TIME_LIMIT, "%s", qubo_status_name(rc));
	cr_assert_null(p);
	cr_assert_lt(took, bound());
}

Test(puzzle_deadline, callback_stops_the_build)
{
	const char *text = big_text();
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = (qubo_puzzle *)&o;
	seen s = { 0, 1, 1, 1, 0, 1, 0.0 }; /* stop at the first call */
	tu_failalloc fa;
	double t0, took;
	int rc;

	tu_failalloc_init(&fa, 0);
	o.allocator = &fa.a;
	o.progress = record;
	o.progress_data = &s;
	t0 = now();
	rc = qubo_puzzle_parse(&p, text, strlen(text), &o);
	took = now() - t0;
	cr_assert_eq(rc, QUBO_CANCELLED, "%s", qubo_status_name(rc));
	cr_assert_null(p);
	cr_assert_eq(s.calls, 1, "the build went on after the callback asked to stop");
	cr_assert(s.all_build, "a progress call had another phase than PHASE_BUILD");
	cr_assert(s.size_ok);
	cr_assert_lt(took, bound());
	cr_assert_eq(fa.live, 0, "%zu blocks leaked", fa.live);
}

/* A callback that never stops sees the whole build, its work growing; the
 * puzzle is the one built without a callback. */
Test(puzzle_deadline, callback_follows_the_build)
{
	const char *text = big_text();
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle_stats a = QUBO_PUZZLE_STATS_INIT, b = QUBO_PUZZLE_STATS_INIT;
	qubo_puzzle *p = NULL, *q = NULL;
	seen s = { 0, 0, 1, 1, 0, 1, 0.0 };

	o.progress = record;
	o.progress_data = &s;
	o.time_limit = 1000;
	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK, "%s",
		     qubo_error_message());
	/* calls come about every 100 ms: the small board under valgrind may see one or two */
	cr_assert_geq(s.calls, getenv("QUBO_TEST_VALGRIND") ? 1u : 3u, "%zu progress calls", s.calls);
	cr_assert(s.all_build);
	cr_assert(s.nodes_grow, "the work or the seconds went back");
	cr_assert_gt(s.last_nodes, 0);
	cr_assert_eq(qubo_puzzle_get_stats(p, &a), QUBO_OK);
	qubo_puzzle_free(p); /* one big model at a time */
	cr_assert_eq(qubo_puzzle_parse(&q, text, strlen(text), NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(q, &b), QUBO_OK);
	cr_assert_eq(a.couplers_after, b.couplers_after);
	cr_assert_eq(a.variables_after, b.variables_after);
	qubo_puzzle_free(q);
}

/* The other families and the spec builders take the same options; a build
 * that is not stopped is unchanged, and a callback that stops at once stops
 * any build long enough to poll. */
Test(puzzle_deadline, builders_honour_the_options)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *p = NULL;
	static const char *const texts[] = { "queens 4\naabb\nacbB\ndccb\nddc.\n", "nqueens 8\n",
					     "domination 5\n",
					     "takuzu 4\n1...\n....\n..0.\n....\n" };
	size_t t;

	o.time_limit = 100;
	for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		cr_assert_eq(qubo_puzzle_parse(&p, texts[t], strlen(texts[t]), &o), QUBO_OK,
			     "%s: %s", texts[t], qubo_error_message());
		qubo_puzzle_free(p);
		p = NULL;
	}
}

Test(puzzle_deadline, bad_time_limits_are_refused)
{
	static const double bad[] = { -1.0, -1e-300, (double)NAN, (double)INFINITY,
				      -(double)INFINITY };
	size_t k;

	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
		qubo_puzzle *p = NULL;

		o.time_limit = bad[k];
		cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
		cr_assert_null(p);
		cr_assert(strstr(qubo_error_message(), "time_limit"), "%s", qubo_error_message());
	}
}

/* One rule for every time limit: any finite number of seconds >= 0. A limit
 * longer than any run (up to DBL_MAX) is accepted and never passes, for
 * the build, the solve and the count alike, as for the solvers' option. */
Test(puzzle_deadline, long_time_limits_are_no_limit)
{
	static const double longs[] = { 1e12, 1e13, 1e18, 1e19, 1e300, DBL_MAX };
	size_t k;

	for (k = 0; k < sizeof longs / sizeof longs[0]; k++) {
		qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
		qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
		qubo_puzzle_count_result cr;
		qubo_puzzle_result r;
		qubo_puzzle *p = NULL;
		qubo_solver *s = NULL;
		uint8_t board[16];

		o.time_limit = longs[k];
		cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_OK, "%g: %s",
			     longs[k], qubo_error_message());
		memset(&r, 0, sizeof r);
		r.struct_size = sizeof r;
		so.time_limit = longs[k];
		cr_assert_eq(qubo_puzzle_solve(p, &so, board, 16, &r), QUBO_OK, "%g: %s",
			     longs[k], qubo_error_message());
		cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED);
		/* sampling rounds set the limit left on the solver */
		cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
		so.solver = s;
		so.strategy = QUBO_PUZZLE_STRATEGY_SAMPLE;
		cr_assert_eq(qubo_puzzle_solve(p, &so, board, 16, &r), QUBO_OK, "%g: %s",
			     longs[k], qubo_error_message());
		cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED);
		qubo_solver_free(s);
		memset(&cr, 0, sizeof cr);
		cr.struct_size = sizeof cr;
		co.time_limit = longs[k];
		cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_OK, "%g: %s", longs[k],
			     qubo_error_message());
		cr_assert_eq(cr.count, 2);
		co.method = QUBO_PUZZLE_COUNT_ENUMERATE;
		cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_OK, "%g: %s", longs[k],
			     qubo_error_message());
		cr_assert_eq(cr.count, 2);
		qubo_puzzle_free(p);
	}
}

/* The solvers' option takes the same values: a run with a limit of DBL_MAX
 * seconds, on two threads (whose watcher waits for the deadline), ends
 * when its reads do. */
Test(puzzle_deadline, long_solver_time_limits_are_no_limit)
{
	static const double longs[] = { 1e19, 1e300, DBL_MAX };
	static const char text[] = "p qubo 0 3 3 0\n0 0 -1\n1 1 -1\n2 2 1\n";
	qubo_model *m = NULL;
	size_t k;

	cr_assert_eq(qubo_qbsolv_read_ex(&m, text, sizeof text - 1, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	for (k = 0; k < sizeof longs / sizeof longs[0]; k++) {
		qubo_solver *s = NULL;
		qubo_sampleset *set = NULL;
		double e = 1;

		cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
		cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, longs[k]), QUBO_OK);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_THREADS, 2), QUBO_OK);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 64), QUBO_OK);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(qubo_sampleset_lowest(set, NULL, 0, &e), QUBO_OK);
		cr_assert_eq(e, -2);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
	}
	qubo_model_free(m);
}
