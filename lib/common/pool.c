/* The worker pool (pool.h): workers take units in order, the calling thread
 * watches the clock and reports progress. */
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common_impl.h"
#include "pool.h"

#define PROGRESS_PERIOD 0.1 /* seconds between progress calls */
#define MAX_WORKERS QUBO__POOL_MAX_WORKERS

unsigned qubo__pool_workers_for(int threads)
{
	long w = threads;

	if (w <= 0) {
		w = sysconf(_SC_NPROCESSORS_ONLN);
		if (w < 1)
			w = 1;
	}
	return w > (long)MAX_WORKERS ? MAX_WORKERS : (unsigned)w;
}

void qubo__pool_init(qubo__pool *pl, size_t num_units, int threads, qubo__pool_fn fn, void *arg)
{
	size_t w = qubo__pool_workers_for(threads);

	memset(pl, 0, offsetof(qubo__pool, tids)); /* tids: written as threads start */
	pl->num_units = num_units;
	pl->num_workers = w > num_units ? (num_units ? (unsigned)num_units : 1) : (unsigned)w;
	pl->fn = fn;
	pl->arg = arg;
	pl->total = num_units;
}

void qubo__pool_request_stop(qubo__pool *pl, int reason)
{
	int expected = QUBO__STOP_DONE;

	atomic_compare_exchange_strong(&pl->stop_flag, &expected, reason);
}

void qubo__pool_report(qubo__pool *pl, size_t count, double e)
{
	pthread_mutex_lock(&pl->lock);
	pl->done += count;
	if (e < pl->best)
		pl->best = e;
	pthread_mutex_unlock(&pl->lock);
}

static void *worker_main(void *p)
{
	qubo__pool *pl = p;
	unsigned index = atomic_fetch_add(&pl->next_worker, 1);

	for (;;) {
		size_t u = atomic_fetch_add(&pl->next, 1);
		int rc;

		if (u >= pl->num_units)
			break;
		rc = pl->fn(pl, index, u);
		if (rc) {
			int expected = QUBO_OK;
			atomic_compare_exchange_strong(&pl->error, &expected, rc);
			qubo__pool_request_stop(pl, QUBO__STOP_CANCEL);
		}
		if (qubo__pool_stopped(pl))
			break;
	}
	pthread_mutex_lock(&pl->lock);
	pl->active--;
	pthread_cond_signal(&pl->cond);
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

static int call_progress(qubo__pool *pl)
{
	size_t done = pl->done;
	double best = pl->best;
	int rc;

	pthread_mutex_unlock(&pl->lock);
	rc = pl->progress(done, pl->total, best, pl->user_data);
	pthread_mutex_lock(&pl->lock);
	return rc;
}

static void timed_wait(qubo__pool *pl, double until)
{
	struct timespec ts;
	double s = floor(until);

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((until - s) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	pthread_cond_timedwait(&pl->cond, &pl->lock, &ts);
}

/* The calling thread's loop while workers run. Called with the lock held. */
static void watch(qubo__pool *pl)
{
	double deadline = qubo__deadline(pl->t0, pl->time_limit);
	double next_report = pl->t0 + PROGRESS_PERIOD;

	while (pl->active > 0) {
		double now = qubo__now(), wake;

		if (deadline > 0 && now >= deadline)
			qubo__pool_request_stop(pl, QUBO__STOP_TIME);
		if (pl->progress && now >= next_report) {
			if (call_progress(pl))
				qubo__pool_request_stop(pl, QUBO__STOP_CANCEL);
			next_report = qubo__now() + PROGRESS_PERIOD;
		}
		if (pl->active == 0)
			break;
		wake = pl->progress ? next_report : 0;
		if (deadline > 0 && !qubo__pool_stopped(pl) && (wake <= 0 || deadline < wake))
			wake = deadline;
		if (wake > 0)
			timed_wait(pl, wake);
		else
			pthread_cond_wait(&pl->cond, &pl->lock);
	}
}

/* Sets up the shared state of a run; NULL or what could not be created. */
static const char *prepare(qubo__pool *pl)
{
	pthread_condattr_t ca;
	int rc;

	atomic_init(&pl->next, 0);
	atomic_init(&pl->stop_flag, QUBO__STOP_DONE);
	atomic_init(&pl->error, QUBO_OK);
	atomic_init(&pl->next_worker, 0);
	pl->active = 0;
	pl->started = 0;
	pl->done = 0;
	pl->best = HUGE_VAL;
	if (pl->num_workers < 1)
		pl->num_workers = 1;
	if (pl->num_workers > MAX_WORKERS)
		pl->num_workers = MAX_WORKERS;
	if (pthread_mutex_init(&pl->lock, NULL))
		return "could not create a mutex";
	if (pthread_condattr_init(&ca)) {
		pthread_mutex_destroy(&pl->lock);
		return "could not create a condition variable";
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&pl->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc) {
		pthread_mutex_destroy(&pl->lock);
		return "could not create a condition variable";
	}
	pl->t0 = qubo__now();
	return NULL;
}

/* Starts the workers' threads (fewer when some cannot start: the same
 * results, only slower); returns how many started. Called with the lock
 * held. */
static unsigned start_threads(qubo__pool *pl)
{
	while (pl->started < pl->num_workers &&
	       !pthread_create(&pl->tids[pl->started], NULL, worker_main, pl)) {
		pl->active++;
		pl->started++;
	}
	return pl->started;
}

/* Joins the threads, fills the results and ends the run. */
static int finish(qubo__pool *pl)
{
	unsigned i;
	size_t claimed;

	for (i = 0; i < pl->started; i++)
		pthread_join(pl->tids[i], NULL);
	pl->seconds = qubo__now() - pl->t0;

	claimed = atomic_load(&pl->next);
	pl->claimed = claimed < pl->num_units ? claimed : pl->num_units;
	pl->stop = atomic_load(&pl->stop_flag);
	if (pl->progress)
		(void)pl->progress(pl->done, pl->total, pl->best, pl->user_data);
	pthread_cond_destroy(&pl->cond);
	pthread_mutex_destroy(&pl->lock);
	return atomic_load(&pl->error);
}

int qubo__pool_exec(qubo__pool *pl)
{
	const char *failed = prepare(pl);

	if (failed)
		return qubo__error(QUBO_ERR_NOMEM, "%s", failed);
	if (pl->num_workers == 1 && pl->time_limit <= 0 && !pl->progress) {
		/* nothing to watch: the one worker runs on this thread */
		pl->active = 1;
		worker_main(pl);
		return finish(pl);
	}
	pthread_mutex_lock(&pl->lock);
	if (!start_threads(pl)) {
		pthread_mutex_unlock(&pl->lock);
		pthread_cond_destroy(&pl->cond);
		pthread_mutex_destroy(&pl->lock);
		return qubo__error(QUBO_ERR_NOMEM, "could not start a worker thread");
	}
	watch(pl);
	pthread_mutex_unlock(&pl->lock);
	return finish(pl);
}

int qubo__pool_start(qubo__pool *pl)
{
	unsigned started;

	if (prepare(pl))
		return 0;
	pthread_mutex_lock(&pl->lock);
	started = start_threads(pl);
	pthread_mutex_unlock(&pl->lock);
	if (!started) {
		pthread_cond_destroy(&pl->cond);
		pthread_mutex_destroy(&pl->lock);
	}
	return started > 0;
}

int qubo__pool_wait(qubo__pool *pl)
{
	return finish(pl);
}
