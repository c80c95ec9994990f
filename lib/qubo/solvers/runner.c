/* The thread pool of the built-in kernels: workers take units in order, the
 * calling thread watches the clock and reports progress. */
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

#define PROGRESS_PERIOD 0.1 /* seconds between progress calls */
#define MAX_WORKERS 1024u

double qubo__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

unsigned qubo__runner_workers_for(int threads)
{
	long w = threads;

	if (w <= 0) {
		w = sysconf(_SC_NPROCESSORS_ONLN);
		if (w < 1)
			w = 1;
	}
	return w > (long)MAX_WORKERS ? MAX_WORKERS : (unsigned)w;
}

unsigned qubo__runner_workers(const qubo__run *run, size_t num_units)
{
	size_t w = qubo__runner_workers_for(run->threads);

	if (w > num_units)
		w = num_units;
	return w ? (unsigned)w : 1;
}

void qubo__runner_request_stop(qubo__runner *rn, int reason)
{
	int expected = QUBO__STOP_DONE;

	atomic_compare_exchange_strong(&rn->stop, &expected, reason);
}

void qubo__runner_unit_done(qubo__runner *rn, double e)
{
	pthread_mutex_lock(&rn->lock);
	rn->done++;
	if (e < rn->best)
		rn->best = e;
	pthread_mutex_unlock(&rn->lock);
}

typedef struct worker_arg {
	qubo__runner *rn;
	unsigned index;
} worker_arg;

static void *worker_main(void *p)
{
	worker_arg *wa = p;
	qubo__runner *rn = wa->rn;

	for (;;) {
		size_t u = atomic_fetch_add(&rn->next, 1);
		int rc;

		if (u >= rn->num_units)
			break;
		rc = rn->fn(rn, wa->index, u);
		if (rc) {
			int expected = QUBO_OK;
			atomic_compare_exchange_strong(&rn->error, &expected, rc);
			qubo__runner_request_stop(rn, QUBO__STOP_CANCEL);
		}
		if (qubo__runner_stopped(rn))
			break;
	}
	pthread_mutex_lock(&rn->lock);
	rn->active--;
	pthread_cond_signal(&rn->cond);
	pthread_mutex_unlock(&rn->lock);
	return NULL;
}

static int call_progress(qubo__runner *rn)
{
	const qubo__run *run = rn->run;
	size_t done = rn->done;
	double best = rn->best;
	int rc;

	pthread_mutex_unlock(&rn->lock);
	rc = run->progress(done, rn->num_units, best, run->user_data);
	pthread_mutex_lock(&rn->lock);
	return rc;
}

static void timed_wait(qubo__runner *rn, double until)
{
	struct timespec ts;
	double s = floor(until);

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((until - s) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	pthread_cond_timedwait(&rn->cond, &rn->lock, &ts);
}

/* The calling thread's loop while workers run. Called with the lock held. */
static void watch(qubo__runner *rn)
{
	const qubo__run *run = rn->run;
	double deadline = run->time_limit > 0 ? rn->t0 + run->time_limit : 0;
	double next_report = rn->t0 + PROGRESS_PERIOD;

	while (rn->active > 0) {
		double now = qubo__now(), wake;

		if (deadline > 0 && now >= deadline)
			qubo__runner_request_stop(rn, QUBO__STOP_TIME);
		if (run->progress && now >= next_report) {
			if (call_progress(rn))
				qubo__runner_request_stop(rn, QUBO__STOP_CANCEL);
			next_report = qubo__now() + PROGRESS_PERIOD;
		}
		if (rn->active == 0)
			break;
		wake = run->progress ? next_report : 0;
		if (deadline > 0 && !qubo__runner_stopped(rn) && (wake <= 0 || deadline < wake))
			wake = deadline;
		if (wake > 0)
			timed_wait(rn, wake);
		else
			pthread_cond_wait(&rn->cond, &rn->lock);
	}
}

int qubo__runner_exec(qubo__runner *rn, qubo__result *res)
{
	pthread_t tids[MAX_WORKERS];
	worker_arg args[MAX_WORKERS];
	pthread_condattr_t ca;
	unsigned i, started = 0;
	size_t claimed;
	int rc;

	atomic_init(&rn->next, 0);
	atomic_init(&rn->stop, QUBO__STOP_DONE);
	atomic_init(&rn->error, QUBO_OK);
	rn->active = 0;
	rn->done = 0;
	rn->best = HUGE_VAL;
	if (rn->num_workers < 1)
		rn->num_workers = 1;
	if (rn->num_workers > MAX_WORKERS)
		rn->num_workers = MAX_WORKERS;
	if (pthread_mutex_init(&rn->lock, NULL))
		return qubo__error(QUBO_ERR_NOMEM, "could not create a mutex");
	if (pthread_condattr_init(&ca)) {
		pthread_mutex_destroy(&rn->lock);
		return qubo__error(QUBO_ERR_NOMEM, "could not create a condition variable");
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&rn->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc) {
		pthread_mutex_destroy(&rn->lock);
		return qubo__error(QUBO_ERR_NOMEM, "could not create a condition variable");
	}

	rn->t0 = qubo__now();
	if (rn->num_workers == 1 && rn->run->time_limit <= 0 && !rn->run->progress) {
		/* nothing to watch: the one worker runs on this thread */
		args[0].rn = rn;
		args[0].index = 0;
		rn->active = 1;
		worker_main(&args[0]);
		goto joined;
	}
	pthread_mutex_lock(&rn->lock);
	for (i = 0; i < rn->num_workers; i++) {
		args[i].rn = rn;
		args[i].index = started;
		if (pthread_create(&tids[started], NULL, worker_main, &args[i]))
			break; /* fewer workers give the same results, only slower */
		rn->active++;
		started++;
	}
	if (started == 0) {
		pthread_mutex_unlock(&rn->lock);
		pthread_cond_destroy(&rn->cond);
		pthread_mutex_destroy(&rn->lock);
		return qubo__error(QUBO_ERR_NOMEM, "could not start a worker thread");
	}
	watch(rn);
	pthread_mutex_unlock(&rn->lock);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
joined:
	res->seconds = qubo__now() - rn->t0;

	claimed = atomic_load(&rn->next);
	res->reads_done = claimed < rn->num_units ? claimed : rn->num_units;
	res->stop = atomic_load(&rn->stop);
	if (rn->run->progress)
		(void)rn->run->progress(rn->done, rn->num_units, rn->best, rn->run->user_data);
	pthread_cond_destroy(&rn->cond);
	pthread_mutex_destroy(&rn->lock);
	rc = atomic_load(&rn->error);
	return rc;
}
