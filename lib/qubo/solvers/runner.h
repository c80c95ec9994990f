/*
 * A kernel's run on the shared worker pool (lib/common/pool.h): a run of
 * units (reads, or blocks of states) under the run control of a qubo__run.
 * Every built-in kernel (descent, tabu, exhaustive, pt, SA single flips and
 * SA with group moves) runs on it and uses the pool's own calls
 * (qubo__pool_stopped, qubo__pool_found, qubo__pool_report) inside its
 * units.
 */
#ifndef QUBO_SOLVERS_RUNNER_H
#define QUBO_SOLVERS_RUNNER_H

#include "kernel.h"
#include "pool.h"

/* Sets up a run of num_units units of fn over arg with the run's worker
 * count, seed, time limit, target and progress callback. */
static inline void qubo__pool_init_run(qubo__pool *pl, const qubo__run *run, size_t num_units,
				       qubo__pool_fn fn, void *arg)
{
	qubo__pool_init(pl, num_units, run->threads, fn, arg);
	pl->seed = run->seed;
	pl->time_limit = run->time_limit;
	pl->has_target = run->has_target;
	pl->target = run->target;
	pl->progress = run->progress;
	pl->user_data = run->user_data;
}

/* Runs every unit; fills res->reads_done (units claimed), res->stop and
 * res->seconds (res->flips is the kernel's). */
static inline int qubo__pool_exec_run(qubo__pool *pl, qubo__result *res)
{
	int rc = qubo__pool_exec(pl);

	res->reads_done = pl->claimed;
	res->stop = pl->stop;
	res->seconds = pl->seconds;
	return rc;
}

#endif /* QUBO_SOLVERS_RUNNER_H */
