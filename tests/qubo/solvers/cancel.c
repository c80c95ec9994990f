/* Cancellation through the progress callback and the time limit: each
 * built-in solver stops within about one sweep, returns what it found, and
 * says why it stopped. */
#include <time.h>

#include "helpers.h"

/* seconds from the stop request to the return (valgrind: slower sweeps) */
#define STOP_BOUND (th_trials(1, 3) * 1.0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct canceller {
	int calls;
	double asked_at;
} canceller;

static int cancel_at_once(const qubo_progress *p, void *user_data)
{
	canceller *c = user_data;

	(void)p;
	c->calls++;
	if (!c->asked_at)
		c->asked_at = now();
	return 1;
}

/* A solver set up to run for minutes unless stopped. */
static qubo_solver *long_run(const char *name, qubo_model **m_out)
{
	qubo_solver *s = th_solver(name);

	th_set_int(s, QUBO_PARAM_THREADS, 2);
	th_set_int(s, QUBO_PARAM_SEED, 1);
	if (!strcmp(name, "sa")) {
		*m_out = th_random_model(1, 1500, 0.01, 3, 0);
		th_set_int(s, QUBO_PARAM_NUM_READS, 4);
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 100000000);
	} else if (!strcmp(name, "tabu")) {
		*m_out = th_random_model(2, 800, 0.01, 3, 0);
		th_set_int(s, QUBO_PARAM_NUM_READS, 4);
		th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 1000000000000);
	} else if (!strcmp(name, "pt")) {
		*m_out = th_random_model(6, 800, 0.01, 3, 0);
		th_set_int(s, QUBO_PARAM_NUM_READS, 4);
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 1000000000000);
	} else if (!strcmp(name, "descent")) {
		*m_out = th_random_model(3, 40, 0.2, 3, 0);
		th_set_int(s, QUBO_PARAM_NUM_READS, 1000000);
	} else {
		/* real weights: a single ground state, so returning it is cheap */
		*m_out = th_random_model(4, 38, 0.1, 3, 0);
	}
	return s;
}

static const char *const names[] = { "sa", "tabu", "descent", "exhaustive", "pt" };

static void check_stopped_set(const qubo_sampleset *set, int status, const char *name)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	size_t i, n = qubo_sampleset_num_variables(set);

	cr_assert_not_null(set, "%s", name);
	cr_assert_gt(qubo_sampleset_size(set), 0, "%s returned no samples", name);
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.status, status, "%s", name);
	/* what it found is real: energies are the model's */
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		size_t v;
		for (v = 0; v < n; v++)
			cr_assert_leq(x[v], 1);
	}
}

Test(cancel, progress_callback_stops_every_builtin)
{
	size_t k;

	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		qubo_model *m = NULL;
		qubo_solver *s = long_run(names[k], &m);
		qubo_sampleset *set = NULL;
		canceller c = { 0, 0.0 };
		double t0 = now(), t1;
		int rc;

		cr_assert_eq(qubo_solver_set_progress(s, cancel_at_once, &c), QUBO_OK);
		rc = qubo_solver_sample(&set, s, m);
		t1 = now();
		cr_assert_eq(rc, QUBO_CANCELLED, "%s: %d %s", names[k], rc, qubo_error_message());
		cr_assert_gt(c.calls, 0);
		cr_assert_lt(t1 - c.asked_at, STOP_BOUND, "%s took %.3f s to stop", names[k],
			     t1 - c.asked_at);
		cr_assert_lt(t1 - t0, 10.0);
		check_stopped_set(set, QUBO_CANCELLED, names[k]);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
		qubo_model_free(m);
	}
}

Test(cancel, time_limit_stops_every_builtin)
{
	size_t k;

	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		qubo_model *m = NULL;
		qubo_solver *s = long_run(names[k], &m);
		qubo_sampleset *set = NULL;
		qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
		double t0 = now(), t1;
		int rc;

		th_set_double(s, QUBO_PARAM_TIME_LIMIT, 0.3);
		rc = qubo_solver_sample(&set, s, m);
		t1 = now();
		cr_assert_eq(rc, QUBO_TIME_LIMIT, "%s: %d %s", names[k], rc, qubo_error_message());
		cr_assert_geq(t1 - t0, 0.3);
		cr_assert_lt(t1 - t0, 0.3 + STOP_BOUND, "%s took %.3f s", names[k], t1 - t0);
		check_stopped_set(set, QUBO_TIME_LIMIT, names[k]);
		cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
		cr_assert_geq(info.seconds, 0.29);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
		qubo_model_free(m);
	}
}

typedef struct counter {
	int calls;
	uint64_t last_done, total;
} counter;

static int count_calls(const qubo_progress *p, void *user_data)
{
	counter *c = user_data;

	cr_assert_geq(p->done, c->last_done);
	cr_assert_leq(p->done, p->total);
	c->last_done = p->done;
	c->total = p->total;
	c->calls++;
	return 0;
}

/* A run that is not stopped calls progress at least at the end, with every
 * unit done. */
Test(cancel, progress_reports_completion)
{
	size_t k;

	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		qubo_model *m = th_random_model(5, 18, 0.3, 3, 1);
		qubo_solver *s = th_solver(names[k]);
		qubo_sampleset *set = NULL;
		counter c = { 0, 0, 0 };

		cr_assert_eq(qubo_solver_set_progress(s, count_calls, &c), QUBO_OK);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK);
		cr_assert_geq(c.calls, 1, "%s", names[k]);
		cr_assert_eq(c.last_done, c.total, "%s", names[k]);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
		qubo_model_free(m);
	}
}
