/*
 * The thread pool of the built-in kernels (descent, tabu, exhaustive, SA
 * with group moves).
 *
 * A run is a number of units (reads, or blocks of states) handed out in
 * order through an atomic counter to worker threads. The calling thread does
 * no unit itself: it watches the time limit, calls the progress callback
 * about every 100 ms, and raises the stop flag that workers poll once per
 * sweep or iteration. A run of one worker with neither a time limit nor a
 * progress callback has nothing to watch: the calling thread is its worker. A worker always finishes (possibly early) every unit it
 * claimed, and claims at least one, so the units claimed are exactly
 * 0 .. reads_done - 1 and each of them wrote its result.
 */
#ifndef QUBO_SOLVERS_RUNNER_H
#define QUBO_SOLVERS_RUNNER_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "kernel.h"

typedef struct qubo__runner qubo__runner;

/* Runs unit u on worker w (0 <= w < num_workers). Returns QUBO_OK or an
 * error (the run then stops and the first error is returned). */
typedef int (*qubo__unit_fn)(qubo__runner *rn, unsigned w, size_t u);

struct qubo__runner {
	/* set by the kernel before qubo__runner_exec */
	const qubo__run *run;
	size_t num_units;
	unsigned num_workers; /* from qubo__runner_workers */
	qubo__unit_fn fn;
	void *arg;

	/* shared state */
	atomic_size_t next;
	atomic_int stop; /* enum qubo__stop; QUBO__STOP_DONE while running */
	atomic_int error;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned active;
	size_t done;
	double best; /* +inf until a unit reports */
	double t0;
};

/* Monotonic clock in seconds. */
double qubo__now(void);

/* Threads for a request: threads >= 1 as is (at most 1024), 0 one per
 * online CPU. */
unsigned qubo__runner_workers_for(int threads);

/* Worker count for a run: run->threads (0: one per online CPU), at most
 * num_units and at least 1. */
unsigned qubo__runner_workers(const qubo__run *run, size_t num_units);

/* Sets up a run of num_units units of fn over arg, with the worker count
 * for run (everything else zero). */
static inline void qubo__runner_init(qubo__runner *rn, const qubo__run *run, size_t num_units,
				     qubo__unit_fn fn, void *arg)
{
	memset(rn, 0, sizeof *rn);
	rn->run = run;
	rn->num_units = num_units;
	rn->num_workers = qubo__runner_workers(run, num_units);
	rn->fn = fn;
	rn->arg = arg;
}

/* Runs every unit; fills res->reads_done (units claimed), res->stop and
 * res->seconds (res->flips is the kernel's). */
int qubo__runner_exec(qubo__runner *rn, qubo__result *res);

/* Nonzero once the run should stop (cancel, time limit, target, error). */
static inline int qubo__runner_stopped(qubo__runner *rn)
{
	return atomic_load_explicit(&rn->stop, memory_order_relaxed) != QUBO__STOP_DONE;
}

/* Requests a stop for a reason; the first reason wins. */
void qubo__runner_request_stop(qubo__runner *rn, int reason);

/* A unit found energy e: stops the run when it reaches the target. */
static inline void qubo__runner_found(qubo__runner *rn, double e)
{
	if (rn->run->has_target && e <= rn->run->target)
		qubo__runner_request_stop(rn, QUBO__STOP_TARGET);
}

/* A unit finished with best energy e (for progress reports). */
void qubo__runner_unit_done(qubo__runner *rn, double e);

#endif /* QUBO_SOLVERS_RUNNER_H */
