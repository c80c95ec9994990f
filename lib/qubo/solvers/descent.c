/* Steepest descent: from a random or given state, flip the variable whose
 * flip lowers the energy most, until no flip lowers it. Also polishes the
 * samples of another solver (qubo_solver_sample_from). */
#include <string.h>

#include "localsearch.h"
#include "runner.h"
#include "solver_impl.h"

typedef struct descent_job {
	const qubo_model *m;
	const uint8_t *initial;
	uint64_t first_read; /* read r draws from the stream of first_read + r */
	uint8_t *samples;
	double *energies;
	double eps;
	uint8_t *x;   /* per worker: n bytes */
	double *f;    /* per worker: n fields */
	uint64_t *flips; /* per worker */
} descent_job;

static int descent_unit(qubo__pool *rn, unsigned w, size_t r)
{
	descent_job *job = rn->arg;
	const qubo_model *m = job->m;
	size_t n = m->n, i;
	uint8_t *x = job->x + (size_t)w * n;
	double *f = job->f + (size_t)w * n;
	double e;
	uint64_t flips = 0;
	qubo__rng g;

	qubo__rng_stream(&g, rn->seed, job->first_read + r);
	qubo__ls_start(x, n, job->initial, r, &g);
	e = qubo__ls_init(m, x, f);
	while (n && !qubo__pool_stopped(rn)) {
		size_t best = 0;
		double d = qubo__ls_delta(x, f, 0);
		for (i = 1; i < n; i++) {
			double di = qubo__ls_delta(x, f, i);
			if (di < d) {
				d = di;
				best = i;
			}
		}
		if (d >= -job->eps)
			break;
		qubo__ls_flip(m, x, f, best);
		e += d;
		flips++;
		qubo__pool_found(rn, e);
	}
	if (n)
		memcpy(job->samples + r * n, x, n);
	job->energies[r] = e;
	job->flips[w] += flips; /* once per read: no false sharing */
	qubo__pool_report(rn, 1, e);
	return QUBO_OK;
}

int qubo__descent_sample(const qubo_model *m, const qubo__run *run, const uint8_t *initial,
			 uint8_t *samples, double *energies, qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__pool rn;
	descent_job job;
	unsigned w;
	size_t n = m->n;
	int rc;

	memset(res, 0, sizeof *res);
	qubo__pool_init_run(&rn, run, run->num_reads, descent_unit, &job);
	job.m = m;
	job.initial = initial;
	job.first_read = run->first_read;
	job.samples = samples;
	job.energies = energies;
	job.eps = qubo__ls_eps(m);
	job.x = qubo__malloc_array(a, rn.num_workers, n ? n : 1);
	job.f = qubo__malloc_array(a, (size_t)rn.num_workers * (n ? n : 1), sizeof *job.f);
	job.flips = qubo__calloc_array(a, rn.num_workers, sizeof *job.flips);
	if (!job.x || !job.f || !job.flips) {
		rc = qubo__nomem("steepest descent's work arrays");
		goto out;
	}
	rc = qubo__pool_exec_run(&rn, res);
	for (w = 0; w < rn.num_workers; w++)
		res->flips += job.flips[w];
out:
	qubo__free(a, job.x);
	qubo__free(a, job.f);
	qubo__free(a, job.flips);
	return rc;
}

/* ---- the backend ---- */

static const qubo__param descent_params[] = {
	QUBO__P_NUM_READS("random starts (sample_from uses its samples instead)"),
	QUBO__P_SEED,
	QUBO__P_FIRST_READ,
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
};


static int descent_kernel(const qubo_model *m, const void *params, const qubo__run *run,
			  const uint8_t *initial, uint8_t *samples, double *energies,
			  qubo__result *res)
{
	(void)params;
	return qubo__descent_sample(m, run, initial, samples, energies, res);
}

static int descent_run(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		       const qubo_sampleset *initial)
{
	qubo__run run;

	qubo__builtin_run(ctx, o, &run);
	return qubo__builtin_sample(ctx, m, &run, initial, descent_kernel, NULL);
}

QUBO__BUILTIN(descent, "descent", qubo__builtin_sample_from_slot,
	      "steepest descent from random starts, or from given samples", descent_params,
	      descent_run);
