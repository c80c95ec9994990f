/*
 * The worker pool of lib/common (pool.h): every unit runs once, the first
 * error stops the run and is returned, the target and the progress
 * callback stop it, the counts it reports, and a run in the background.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

#include "common_impl.h"
#include "pool.h"

#define UNITS 1000

typedef struct job {
	atomic_int runs[UNITS];
	atomic_uint worker_seen;
	size_t fail_at; /* a unit that fails, or UNITS for none */
	size_t found_at; /* a unit that reports value 0, or UNITS */
} job;

static int unit(qubo__pool *pl, unsigned w, size_t u)
{
	job *j = pl->arg;

	cr_assert_lt(w, pl->num_workers);
	atomic_fetch_or(&j->worker_seen, 1u << (w & 31));
	atomic_fetch_add(&j->runs[u], 1);
	if (u == j->fail_at)
		return QUBO_ERR_NOMEM;
	qubo__pool_found(pl, u == j->found_at ? 0.0 : 1.0);
	qubo__pool_report(pl, 1, (double)u);
	return QUBO_OK;
}

static void job_init(job *j)
{
	size_t u;

	for (u = 0; u < UNITS; u++)
		atomic_init(&j->runs[u], 0);
	atomic_init(&j->worker_seen, 0);
	j->fail_at = UNITS;
	j->found_at = UNITS;
}

/* Units 0 .. claimed - 1 ran once each, the others never. */
static void check_claimed(job *j, size_t claimed)
{
	size_t u;

	for (u = 0; u < UNITS; u++)
		cr_assert_eq(atomic_load(&j->runs[u]), u < claimed, "unit %zu", u);
}

Test(pool, every_unit_once)
{
	static job j;
	int threads;

	for (threads = 1; threads <= 4; threads++) {
		qubo__pool pl;

		job_init(&j);
		qubo__pool_init(&pl, UNITS, threads, unit, &j);
		cr_assert_eq(pl.num_workers, (unsigned)threads);
		cr_assert_eq(qubo__pool_exec(&pl), QUBO_OK);
		cr_assert_eq(pl.claimed, UNITS);
		cr_assert_eq(pl.stop, QUBO__STOP_DONE);
		check_claimed(&j, UNITS);
	}
}

Test(pool, workers_bounded_by_units)
{
	static job j;
	qubo__pool pl;

	job_init(&j);
	qubo__pool_init(&pl, 2, 8, unit, &j);
	cr_assert_eq(pl.num_workers, 2);
	qubo__pool_init(&pl, 0, 8, unit, &j);
	cr_assert_eq(pl.num_workers, 1);
	cr_assert_eq(qubo__pool_exec(&pl), QUBO_OK);
	cr_assert_eq(pl.claimed, 0);
	cr_assert_eq(qubo__pool_workers_for(3), 3);
	cr_assert_geq(qubo__pool_workers_for(0), 1);
}

Test(pool, first_error_stops)
{
	static job j;
	int threads;

	for (threads = 1; threads <= 3; threads++) {
		qubo__pool pl;

		job_init(&j);
		j.fail_at = 10;
		qubo__pool_init(&pl, UNITS, threads, unit, &j);
		cr_assert_eq(qubo__pool_exec(&pl), QUBO_ERR_NOMEM);
		cr_assert_eq(pl.stop, QUBO__STOP_CANCEL);
		cr_assert_gt(pl.claimed, 10);
		/* one worker stops at once; others may finish what they took */
		if (threads == 1)
			cr_assert_eq(pl.claimed, 11);
		check_claimed(&j, pl.claimed);
	}
}

Test(pool, target_stops)
{
	static job j;
	qubo__pool pl;

	job_init(&j);
	j.found_at = 5;
	qubo__pool_init(&pl, UNITS, 2, unit, &j);
	pl.has_target = 1;
	pl.target = 0.0;
	cr_assert_eq(qubo__pool_exec(&pl), QUBO_OK);
	cr_assert_eq(pl.stop, QUBO__STOP_TARGET);
	cr_assert_gt(pl.claimed, 5);
	check_claimed(&j, pl.claimed);
}

typedef struct seen {
	size_t calls, done, total;
	double best;
	int stop;
} seen;

static int progress(size_t done, size_t total, double best, void *user_data)
{
	seen *s = user_data;

	s->calls++;
	s->done = done;
	s->total = total;
	s->best = best;
	return s->stop;
}

Test(pool, progress_at_the_end)
{
	static job j;
	seen s = { 0, 0, 0, 0.0, 0 };
	qubo__pool pl;

	job_init(&j);
	qubo__pool_init(&pl, UNITS, 2, unit, &j);
	pl.progress = progress;
	pl.user_data = &s;
	cr_assert_eq(qubo__pool_exec(&pl), QUBO_OK);
	cr_assert_geq(s.calls, 1);
	cr_assert_eq(s.done, UNITS);
	cr_assert_eq(s.total, UNITS);
	cr_assert_eq(s.best, 0.0);
}

/* A unit that waits for the stop flag: only the watcher can end the run. */
static int wait_unit(qubo__pool *pl, unsigned w, size_t u)
{
	(void)w;
	(void)u;
	while (!qubo__pool_stopped(pl))
		;
	return QUBO_OK;
}

Test(pool, time_limit_and_progress_stop)
{
	seen s = { 0, 0, 0, 0.0, 1 };
	qubo__pool pl;

	qubo__pool_init(&pl, 4, 2, wait_unit, NULL);
	pl.time_limit = 0.05;
	cr_assert_eq(qubo__pool_exec(&pl), QUBO_OK);
	cr_assert_eq(pl.stop, QUBO__STOP_TIME);
	cr_assert_geq(pl.seconds, 0.05);
	qubo__pool_init(&pl, 4, 2, wait_unit, NULL);
	pl.progress = progress;
	pl.user_data = &s;
	cr_assert_eq(qubo__pool_exec(&pl), QUBO_OK);
	cr_assert_eq(pl.stop, QUBO__STOP_CANCEL);
	cr_assert(isinf(s.best));
}

static pthread_t caller;

/* unit() on a thread other than the caller's. */
static int away_unit(qubo__pool *pl, unsigned w, size_t u)
{
	cr_assert(!pthread_equal(pthread_self(), caller), "unit %zu on the calling thread", u);
	return unit(pl, w, u);
}

Test(pool, background_run)
{
	static job j;
	int threads;

	caller = pthread_self();
	for (threads = 1; threads <= 4; threads++) {
		qubo__pool pl;

		job_init(&j);
		j.fail_at = threads == 3 ? 10 : UNITS;
		qubo__pool_init(&pl, UNITS, threads, away_unit, &j);
		cr_assert_eq(qubo__pool_start(&pl), 1);
		cr_assert_eq(qubo__pool_wait(&pl), threads == 3 ? QUBO_ERR_NOMEM : QUBO_OK);
		cr_assert_eq(pl.stop, threads == 3 ? QUBO__STOP_CANCEL : QUBO__STOP_DONE);
		cr_assert_eq(pl.claimed == UNITS, threads != 3);
		check_claimed(&j, pl.claimed);
	}
}

/* start returns while units run: only the caller's stop ends them. */
Test(pool, background_run_stopped_by_the_caller)
{
	qubo__pool pl;

	qubo__pool_init(&pl, 4, 2, wait_unit, NULL);
	cr_assert_eq(qubo__pool_start(&pl), 1);
	qubo__pool_request_stop(&pl, QUBO__STOP_CANCEL);
	cr_assert_eq(qubo__pool_wait(&pl), QUBO_OK);
	cr_assert_eq(pl.stop, QUBO__STOP_CANCEL);
	cr_assert_leq(pl.claimed, 2);
}
