/* The "sa" backend: maps options onto the simulated-annealing kernel
 * (qubo__sa_sample in sa.c). */
#include <string.h>

#include "solver_impl.h"

/* Defaults (doc/solvers-sa.md, "Defaults"): 1000 sweeps as in the common
 * SA samplers; 16 reads, two runs of 8 reads that the kernel runs in SIMD lanes
 * (one run of lanes per core on two cores). */
#define DEFAULT_NUM_SWEEPS 1000
#define DEFAULT_NUM_READS 16

static const qubo__param sa_params[] = {
	{ QUBO_PARAM_NUM_READS, QUBO_TYPE_INT, 1, 2147483647.0, 0, "16", "independent anneals" },
	QUBO__P_SEED,
	QUBO__P_FIRST_READ,
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
	{ QUBO_PARAM_NUM_SWEEPS, QUBO_TYPE_INT, 1, 1e15, 0, "1000", "sweeps per anneal" },
	{ QUBO_PARAM_BETA_HOT, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 1, "from the model",
	  "inverse temperature at the start; set with beta_cold" },
	{ QUBO_PARAM_BETA_COLD, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 1, "from the model",
	  "inverse temperature at the end; set with beta_hot" },
	{ QUBO_PARAM_GROUP_MOVES, QUBO_TYPE_INT, 0, 1, 0, "1",
	  "1: moves set the model's variable groups to their best values; 0: single flips" },
	{ QUBO_PARAM_KEEP_LOWEST, QUBO_TYPE_INT, 0, 1, 0, "1 (0 at constant beta)",
	  "1: a read returns its lowest state seen at the end of a sweep; 0: its final state" },
};


/* The kernel for a run: group moves when the model has groups and the
 * option allows them, else single flips. */
typedef struct sa_choice {
	qubo__sa_params p;
	int group_moves;
} sa_choice;

static int sa_kernel(const qubo_model *m, const void *params, const qubo__run *run,
		     const uint8_t *initial, uint8_t *samples, double *energies, qubo__result *res)
{
	const sa_choice *c = params;

	(void)initial;
	memset(res, 0, sizeof *res);
	return c->group_moves ? qubo__sa_groups_sample(m, &c->p, run, samples, energies, res)
			      : qubo__sa_sample(m, &c->p, run, samples, energies, res);
}

static int sa_run(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		  const qubo_sampleset *initial)
{
	int hot_set = qubo_options_type(o, QUBO_PARAM_BETA_HOT) != QUBO_TYPE_NONE;
	int keep_set = qubo_options_type(o, QUBO_PARAM_KEEP_LOWEST) != QUBO_TYPE_NONE;
	sa_choice c;
	qubo__run run;
	int rc;

	(void)initial;
	qubo__builtin_run(ctx, o, &run);
	if (qubo_options_type(o, QUBO_PARAM_NUM_READS) == QUBO_TYPE_NONE)
		run.num_reads = DEFAULT_NUM_READS;
	memset(&c, 0, sizeof c);
	c.p.num_sweeps = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_SWEEPS, DEFAULT_NUM_SWEEPS);
	c.group_moves = m->num_groups && qubo__builtin_int(o, QUBO_PARAM_GROUP_MOVES, 1);
	rc = qubo__builtin_betas(ctx, o, "the schedule must cool", &c.p.beta_hot, &c.p.beta_cold);
	if (rc)
		return rc;
	/* An anneal is an optimiser: its lowest state is what it found. At
	 * constant β the final states are Metropolis samples. */
	c.p.keep_lowest = keep_set ? (int)qubo__builtin_int(o, QUBO_PARAM_KEEP_LOWEST, 1)
				   : !hot_set || c.p.beta_cold > c.p.beta_hot;
	return qubo__builtin_sample(ctx, m, &run, NULL, sa_kernel, &c);
}

QUBO__BUILTIN(sa, "sa", NULL,
	      "simulated annealing: single-flip Metropolis sweeps, or group moves on a model with "
	      "variable groups",
	      sa_params, sa_run);
