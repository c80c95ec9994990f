/*
 * The kernels' view of the shared worker pool (lib/common/pool.h): a run of
 * units (reads, or blocks of states) under the run control of a qubo__run.
 * Every built-in kernel (descent, tabu, exhaustive, SA single flips and SA
 * with group moves) runs on it.
 */
#ifndef QUBO_SOLVERS_RUNNER_H
#define QUBO_SOLVERS_RUNNER_H

#include "kernel.h"
#include "pool.h"

typedef qubo__pool qubo__runner;

/* Runs unit u on worker w (0 <= w < num_workers). Returns QUBO_OK or an
 * error (the run then stops and the first error is returned). */
typedef qubo__pool_fn qubo__unit_fn;

/* Sets up a run of num_units units of fn over arg with the run's worker
 * count, seed, time limit, target and progress callback. */
static inline void qubo__runner_init(qubo__runner *rn, const qubo__run *run, size_t num_units,
				     qubo__unit_fn fn, void *arg)
{
	qubo__pool_init(rn, num_units, run->threads, fn, arg);
	rn->seed = run->seed;
	rn->time_limit = run->time_limit;
	rn->has_target = run->has_target;
	rn->target = run->target;
	rn->progress = run->progress;
	rn->user_data = run->user_data;
}

/* Runs every unit; fills res->reads_done (units claimed), res->stop and
 * res->seconds (res->flips is the kernel's). */
static inline int qubo__runner_exec(qubo__runner *rn, qubo__result *res)
{
	int rc = qubo__pool_exec(rn);

	res->reads_done = rn->claimed;
	res->stop = rn->stop;
	res->seconds = rn->seconds;
	return rc;
}

/* Nonzero once the run should stop (cancel, time limit, target, error). */
static inline int qubo__runner_stopped(qubo__runner *rn)
{
	return qubo__pool_stopped(rn);
}

/* A unit found energy e: stops the run when it reaches the target. */
static inline void qubo__runner_found(qubo__runner *rn, double e)
{
	qubo__pool_found(rn, e);
}

/* A unit finished with best energy e (for progress reports). */
static inline void qubo__runner_unit_done(qubo__runner *rn, double e)
{
	qubo__pool_report(rn, 1, e);
}

#endif /* QUBO_SOLVERS_RUNNER_H */
