/*
 * The worker pool of the built-in solver kernels (simulated annealing,
 * descent, tabu, exhaustive enumeration), and of anything else in either
 * library that runs independent units of work on threads. Never installed.
 *
 * A run is a number of units (reads, groups of reads, blocks of states)
 * handed out in order through an atomic counter to worker threads. The
 * calling thread does no unit itself: it watches the time limit, calls the
 * progress callback about every 100 ms and once at the end, and raises the
 * stop flag that units poll (once per sweep or iteration). A run of one
 * worker with neither a time limit nor a progress callback has nothing to
 * watch: the calling thread is its worker. A worker always returns from
 * every unit it claimed (the unit may end early when it sees the stop
 * flag), so the units claimed are exactly 0 .. claimed - 1.
 *
 * A run may also go on in the background (qubo__pool_start, then
 * qubo__pool_wait) while the calling thread does work of its own; nothing
 * watches it then, so it has neither a time limit nor a progress callback.
 *
 * A unit's result must not depend on the worker that runs it (units that
 * draw random numbers derive their stream from (seed, unit) or the like):
 * then a run gives the same results at any thread count.
 */
#ifndef QUBO_COMMON_POOL_H
#define QUBO_COMMON_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Why a run ended. */
enum qubo__stop {
	QUBO__STOP_DONE = 0,   /* every unit finished */
	QUBO__STOP_TARGET = 1, /* a unit reached the target (qubo__pool_found) */
	QUBO__STOP_CANCEL = 2, /* the progress callback asked to stop, or a unit failed */
	QUBO__STOP_TIME = 3    /* the time limit passed */
};

#define QUBO__POOL_MAX_WORKERS 1024u

typedef struct qubo__pool qubo__pool;

/* Runs unit u on worker w (0 <= w < num_workers). Returns 0 or an error
 * status (the run then stops and the first error is returned). */
typedef int (*qubo__pool_fn)(qubo__pool *pl, unsigned w, size_t u);

/* Progress callback: items done of total, the lowest value reported (+inf
 * before any). Called on the calling thread; nonzero stops the run. */
typedef int (*qubo__pool_progress_fn)(size_t done, size_t total, double best, void *user_data);

struct qubo__pool {
	/* set by qubo__pool_init; the caller may change them before
	 * qubo__pool_exec (num_workers only downwards) */
	size_t num_units;
	unsigned num_workers;
	qubo__pool_fn fn;
	void *arg;	   /* the caller's job, for fn */
	uint64_t seed;	   /* for fn: the run's seed */
	double time_limit; /* seconds; <= 0 means none */
	int has_target;	   /* stop when a unit reports a value <= target */
	double target;
	qubo__pool_progress_fn progress; /* may be NULL */
	void *user_data;
	size_t total; /* the progress callback's total (num_units by default) */

	/* results of qubo__pool_exec */
	size_t claimed; /* units claimed (and run), at most num_units */
	int stop;	/* enum qubo__stop */
	double seconds; /* wall time of the run */

	/* shared state while running */
	atomic_size_t next;
	atomic_int stop_flag; /* enum qubo__stop; QUBO__STOP_DONE while running */
	atomic_int error;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned active;
	size_t done;
	double best;
	double t0;
	atomic_uint next_worker; /* index of the next worker to begin */
	unsigned started;	 /* threads started */
	pthread_t tids[QUBO__POOL_MAX_WORKERS];
};

/* Threads for a request: threads >= 1 as is (at most 1024), 0 one per
 * online CPU. */
unsigned qubo__pool_workers_for(int threads);

/* Sets up a run of num_units units of fn over arg on threads workers (0:
 * one per online CPU), at most num_units and at least 1; no time limit,
 * progress or target. */
void qubo__pool_init(qubo__pool *pl, size_t num_units, int threads, qubo__pool_fn fn, void *arg);

/* Runs every unit (until a stop); fills claimed, stop and seconds. Returns
 * QUBO_OK, a unit's first error, or QUBO_ERR_NOMEM when no thread could be
 * started (message set). */
int qubo__pool_exec(qubo__pool *pl);

/* Starts the run's workers on threads of their own and returns: the
 * calling thread does work of its own meanwhile, then calls qubo__pool_wait.
 * Needs time_limit <= 0 and no progress callback. 1 when at least one
 * worker started, 0 when none could (no message is set; nothing runs and
 * qubo__pool_wait must not be called). */
int qubo__pool_start(qubo__pool *pl);

/* Waits for the workers of qubo__pool_start; fills claimed, stop and
 * seconds. Returns QUBO_OK or a unit's first error. */
int qubo__pool_wait(qubo__pool *pl);

/* Nonzero once the run should stop (cancel, time limit, target, error). */
static inline int qubo__pool_stopped(qubo__pool *pl)
{
	return atomic_load_explicit(&pl->stop_flag, memory_order_relaxed) != QUBO__STOP_DONE;
}

/* Requests a stop for a reason; the first reason wins. */
void qubo__pool_request_stop(qubo__pool *pl, int reason);

/* A unit reached value e: stops the run when it is at or below the target. */
static inline void qubo__pool_found(qubo__pool *pl, double e)
{
	if (pl->has_target && e <= pl->target)
		qubo__pool_request_stop(pl, QUBO__STOP_TARGET);
}

/* count more items of the progress total are done, the best of them with
 * value e (for progress reports). */
void qubo__pool_report(qubo__pool *pl, size_t count, double e);

#endif /* QUBO_COMMON_POOL_H */
