/*
 * The solvers on threads, as a plain program (no Criterion, so that it also
 * runs under ThreadSanitizer, which cannot run Criterion's workers). The
 * models are compiled once and shared: every built-in solver samples them
 * with fixed seeds on its own worker threads (threads = 2 and 4), and from
 * 4 threads at once, each with its own solver objects. Every sample set
 * (samples, energies, occurrences and the run's figures) must be the same
 * bit for bit as the one of the same run on one thread. Runs far longer than
 * their time limit are made too, on 4 threads and from the 4 threads at
 * once, for ThreadSanitizer to watch the workers stop. QAOA's state passes
 * use worker threads from 4 qubits here, so that its small model runs them.
 * Exit status 0 when all agree, 1 otherwise (with a message).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qaoa/qaoa_impl.h"
#include "util.h"

#define CALLERS 4
#define MAX_OPTS 4

/* One run: a solver, its model (models[]) and integer options. */
typedef struct run {
	const char *solver;
	int model;
	const char *keys[MAX_OPTS];
	int64_t values[MAX_OPTS];
} run;

static const run runs[] = {
	{ "sa", 1, { "num_reads", "num_sweeps", "seed" }, { 24, 60, 11 } },
	{ "sa", 0, { "num_reads", "num_sweeps", "seed" }, { 9, 100, 12 } },
	{ "pt", 1, { "num_reads", "num_sweeps", "num_replicas", "seed" }, { 3, 40, 8, 13 } },
	{ "tabu", 1, { "num_reads", "num_iterations", "num_restarts", "seed" }, { 4, 1500, 1, 14 } },
	{ "descent", 1, { "num_reads", "seed" }, { 40, 15 } },
	{ "exhaustive", 2, { "num_lowest", "seed" }, { 6, 17 } },
	{ "exhaustive", 2, { "max_ground_states", "seed" }, { 4, 18 } },
	{ "qaoa", 0, { "num_reads", "p", "num_iterations", "seed" }, { 64, 1, 15, 16 } },
};
#define NUM_RUNS (sizeof runs / sizeof runs[0])

/* 12 variables (QAOA's), 300, 20 (64 blocks of states for exhaustive's
 * workers) and 36 */
static qubo_model *models[4];
static uint64_t reference[NUM_RUNS];
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static int failures;

static void fail(const char *solver, int threads, const char *detail)
{
	pthread_mutex_lock(&fail_lock);
	fprintf(stderr, "solver_threads: %s, threads %d: %s\n", solver, threads, detail);
	failures++;
	pthread_mutex_unlock(&fail_lock);
}

static uint64_t fold(uint64_t x, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		x = (x ^ b[i]) * 1099511628211u;
	return x;
}

/* Progress reports must come on the thread that called the solver. */
typedef struct progress_check {
	pthread_t caller;
	unsigned calls, wrong_thread;
} progress_check;

static int on_progress(const qubo_progress *p, void *user_data)
{
	progress_check *c = user_data;

	(void)p;
	c->calls++;
	if (!pthread_equal(pthread_self(), c->caller))
		c->wrong_thread++;
	return 0;
}

/* Starts run u on the given threads, with a time limit (0: none), and
 * checks that progress came on this thread (at least at the end of a run
 * that was not stopped). The status, or -1 after a failure (reported). */
static int start(const run *u, int threads, double time_limit, qubo_sampleset **set)
{
	const char *what = u->solver;
	qubo_solver *s = NULL;
	progress_check pc = { pthread_self(), 0, 0 };
	size_t k;
	int rc = qubo_solver_new(&s, u->solver, NULL);

	if (!rc)
		rc = qubo_solver_set_int(s, "threads", threads);
	for (k = 0; !rc && k < MAX_OPTS && u->keys[k]; k++)
		rc = qubo_solver_set_int(s, u->keys[k], u->values[k]);
	if (!rc && time_limit > 0)
		rc = qubo_solver_set_double(s, "time_limit", time_limit);
	if (!rc)
		rc = qubo_solver_set_progress(s, on_progress, &pc);
	if (!rc)
		rc = qubo_solver_sample(set, s, models[u->model]);
	if (rc < 0)
		fail(what, threads, qubo_error_message());
	else if (pc.wrong_thread)
		fail(what, threads, "progress reported on another thread");
	else if (rc == QUBO_OK && pc.calls == 0)
		fail(what, threads, "progress never reported");
	qubo_solver_free(s);
	return rc < 0 ? -1 : rc;
}

/* The digest of run r at the given thread count: its sample set and run
 * figures (all but the seconds); 0 after a failure. */
static uint64_t sample(size_t r, int threads)
{
	const size_t n = qubo_model_num_variables(models[runs[r].model]);
	qubo_sampleset *set = NULL;
	qubo_sample_info info;
	uint64_t x = 1469598103934665603u;
	size_t i;
	int rc = start(&runs[r], threads, 0, &set);

	if (rc < 0)
		return 0;
	if (rc != QUBO_OK)
		fail(runs[r].solver, threads, qubo_status_name(rc));
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		double e;
		uint64_t occ;

		qubo_sampleset_get(set, i, NULL, 0, &e, &occ);
		x = fold(x, qubo_sampleset_sample_data(set, i), n);
		x = fold(x, &e, sizeof e);
		x = fold(x, &occ, sizeof occ);
	}
	memset(&info, 0, sizeof info);
	info.struct_size = sizeof info;
	qubo_sampleset_get_info(set, &info);
	x = fold(x, &info.status, sizeof info.status);
	x = fold(x, &info.num_samples, sizeof info.num_samples);
	x = fold(x, &info.flip_attempts, sizeof info.flip_attempts);
	x = fold(x, &info.num_ground_states, sizeof info.num_ground_states);
	x = fold(x, &info.seed, sizeof info.seed);
	if (info.has_expectation) {
		x = fold(x, &info.expectation, sizeof info.expectation);
		x = fold(x, &info.lowest_probability, sizeof info.lowest_probability);
	}
	qubo_sampleset_free(set);
	return x ? x : 1;
}

static void compare(size_t r, int threads)
{
	uint64_t d = sample(r, threads);

	if (d && d != reference[r])
		fail(runs[r].solver, threads, "the sample set differs from the one of one thread");
}

/* Runs far too long for their time limit, which stops them while their
 * workers are busy: the stop's paths between threads, for
 * ThreadSanitizer. Their sets depend on the timing and are not compared. */
static const run stopped[] = {
	{ "sa", 1, { "num_reads", "num_sweeps", "seed" }, { 64, 1000000, 21 } },
	{ "pt", 1, { "num_reads", "num_sweeps", "seed" }, { 4, 1000000, 22 } },
	{ "tabu", 1, { "num_reads", "num_iterations", "seed" }, { 8, 100000000, 23 } },
	{ "descent", 1, { "num_reads", "seed" }, { 100000, 24 } },
	{ "exhaustive", 3, { "seed" }, { 25 } },
	{ "qaoa", 0, { "p", "num_iterations", "seed" }, { 6, 1000000, 26 } },
};

static void stop(size_t r, int threads)
{
	qubo_sampleset *set = NULL;
	int rc = start(&stopped[r], threads, 0.05, &set);

	if (rc >= 0 && rc != QUBO_TIME_LIMIT)
		fail(stopped[r].solver, threads, "a long run was not stopped by its time limit");
	qubo_sampleset_free(set);
}

/* A caller: every run, from its own place in the list, on 1 or 2 threads,
 * then every stopped run on 2. */
static void *caller(void *arg)
{
	size_t c = (size_t)(uintptr_t)arg, k;

	for (k = 0; k < NUM_RUNS; k++)
		compare((c + k) % NUM_RUNS, 1 + (int)(c % 2));
	for (k = 0; k < sizeof stopped / sizeof *stopped; k++)
		stop((c + k) % (sizeof stopped / sizeof *stopped), 2);
	return NULL;
}

/* n variables, each coupled to about degree others at random, weights in
 * [-2, 2] in steps of 1/8, one exactly-one penalty and one group. */
static qubo_model *make_model(uint32_t n, uint32_t degree, uint64_t seed)
{
	tu_rng g = { seed };
	qubo_model *m;
	qubo_lit lits[3] = { QUBO_LIT(0), QUBO_LIT(1), QUBO_LIT(2) };
	uint32_t i, k;
	int rc = qubo_model_new(&m, n, NULL);

	for (i = 0; !rc && i < n; i++) {
		rc = qubo_model_add_linear(m, i, (double)tu_range(&g, -16, 16) / 8);
		for (k = 0; !rc && k < degree; k++) {
			uint32_t j = (uint32_t)tu_below(&g, n);
			if (j != i)
				rc = qubo_model_add_quadratic(m, i, j,
							      (double)tu_range(&g, -16, 16) / 8);
		}
	}
	if (!rc)
		rc = qubo_penalty_exactly(m, lits, 3, 1, 2.0);
	if (!rc)
		rc = qubo_model_add_group(m, n - 3, 3);
	if (!rc)
		rc = qubo_model_compile(m);
	if (rc) {
		fprintf(stderr, "solver_threads: the model: %s\n", qubo_error_message());
		exit(1);
	}
	return m;
}

int main(void)
{
	static const int internal[] = { 2, 4 };
	pthread_t t[CALLERS];
	size_t r, k;

	qubo__qaoa_set_mt_min_bits(4);
	models[0] = make_model(12, 5, 1);
	models[1] = make_model(300, 4, 2);
	models[2] = make_model(20, 4, 3);
	models[3] = make_model(36, 4, 4);
	for (r = 0; r < NUM_RUNS; r++)
		reference[r] = sample(r, 1);
	/* each solver's own threads */
	for (r = 0; r < NUM_RUNS; r++)
		for (k = 0; k < sizeof internal / sizeof *internal; k++)
			compare(r, internal[k]);
	for (k = 0; k < sizeof stopped / sizeof *stopped; k++)
		stop(k, 4);
	/* one model, solvers on several threads at once */
	for (k = 0; k < CALLERS; k++)
		if (pthread_create(&t[k], NULL, caller, (void *)(uintptr_t)k)) {
			fprintf(stderr, "solver_threads: pthread_create failed\n");
			return 1;
		}
	for (k = 0; k < CALLERS; k++)
		pthread_join(t[k], NULL);
	for (k = 0; k < sizeof models / sizeof *models; k++)
		qubo_model_free(models[k]);
	if (failures)
		return 1;
	printf("solver_threads: %zu runs of sa, pt, tabu, descent, exhaustive and qaoa agree at "
	       "1, 2 and 4 threads and from %d threads at once\n", NUM_RUNS, CALLERS);
	return 0;
}
