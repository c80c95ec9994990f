/* Tabu search: one-flip moves, a tenure, aspiration, and restarts from a
 * perturbed best state. */
#include <string.h>

#include "localsearch.h"
#include "runner.h"
#include "solver_impl.h"

typedef struct tabu_job {
	const qubo_model *m;
	const uint8_t *initial;
	uint64_t first_read; /* read r draws from the stream of first_read + r */
	uint8_t *samples;
	double *energies;
	double eps;
	size_t tenure, iterations, restarts;
	/* per worker */
	uint8_t *x, *best;
	double *f;
	uint64_t *until; /* iteration before which a variable is tabu */
	uint64_t *flips;
} tabu_job;

/* Picks the move: the best non-tabu flip, or a tabu flip that would beat the
 * best energy (aspiration); ties are broken at random. When every move is
 * tabu and none aspires, the best move overall. */
static size_t choose(const tabu_job *job, const uint8_t *x, const double *f,
		     const uint64_t *until, uint64_t it, double e, double best_e, qubo__rng *g)
{
	size_t n = job->m->n, i, pick = 0, any = 0;
	double pick_d = 0.0, any_d = 0.0;
	uint32_t ties = 0, any_ties = 0;
	int found = 0;

	for (i = 0; i < n; i++) {
		double d = qubo__ls_delta(x, f, i);
		int allowed = until[i] <= it || e + d < best_e - job->eps;
		if (!i || d < any_d - job->eps) {
			any = i;
			any_d = d;
			any_ties = 1;
		} else if (d <= any_d + job->eps && qubo__rng_below(g, ++any_ties) == 0) {
			any = i;
		}
		if (!allowed)
			continue;
		if (!found || d < pick_d - job->eps) {
			pick = i;
			pick_d = d;
			ties = 1;
			found = 1;
		} else if (d <= pick_d + job->eps && qubo__rng_below(g, ++ties) == 0) {
			pick = i;
		}
	}
	return found ? pick : any;
}

static int tabu_unit(qubo__runner *rn, unsigned w, size_t r)
{
	tabu_job *job = rn->arg;
	const qubo_model *m = job->m;
	size_t n = m->n, i, rs;
	uint8_t *x = job->x + (size_t)w * n, *best = job->best + (size_t)w * n;
	double *f = job->f + (size_t)w * n;
	uint64_t *until = job->until + (size_t)w * n, it, flips = 0;
	double e, best_e;
	qubo__rng g;

	qubo__rng_stream(&g, rn->seed, job->first_read + r);
	qubo__ls_start(x, n, job->initial, r, &g);
	e = best_e = qubo__ls_init(m, x, f);
	if (n)
		memcpy(best, x, n);
	qubo__runner_found(rn, e);
	for (rs = 0; n && rs <= job->restarts && !qubo__runner_stopped(rn); rs++) {
		if (rs) {
			size_t kicks = n / 8 ? n / 8 : 1;
			memcpy(x, best, n);
			for (i = 0; i < kicks; i++)
				x[qubo__rng_below(&g, (uint32_t)n)] ^= 1;
			/* exact fields at each restart: no drift across restarts */
			e = qubo__ls_init(m, x, f);
		}
		memset(until, 0, n * sizeof *until);
		for (it = 0; it < job->iterations; it++) {
			size_t k;
			if (qubo__runner_stopped(rn))
				break;
			k = choose(job, x, f, until, it, e, best_e, &g);
			e += qubo__ls_delta(x, f, k);
			qubo__ls_flip(m, x, f, k);
			until[k] = it + 1 + job->tenure;
			flips++;
			if (e < best_e - job->eps) {
				best_e = e;
				memcpy(best, x, n);
				qubo__runner_found(rn, e);
			}
		}
	}
	if (n)
		memcpy(job->samples + r * n, best, n);
	job->energies[r] = best_e;
	job->flips[w] += flips; /* once per read: no false sharing */
	qubo__runner_unit_done(rn, best_e);
	return QUBO_OK;
}

int qubo__tabu_sample(const qubo_model *m, const qubo__tabu_params *p, const qubo__run *run,
		      const uint8_t *initial, uint8_t *samples, double *energies,
		      qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__runner rn;
	tabu_job job;
	size_t n = m->n, nn = n ? n : 1;
	unsigned w;
	int rc;

	memset(res, 0, sizeof *res);
	if (p->tenure_set && n && p->tenure >= n)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "option tenure is %zu; it must be below "
				   "the number of variables, %zu", p->tenure, n);
	qubo__runner_init(&rn, run, run->num_reads, tabu_unit, &job);
	memset(&job, 0, sizeof job);
	job.m = m;
	job.initial = initial;
	job.first_read = run->first_read;
	job.samples = samples;
	job.energies = energies;
	job.eps = qubo__ls_eps(m);
	job.tenure = p->tenure_set ? p->tenure : (n / 4 < 20 ? n / 4 : 20);
	job.iterations = p->num_iterations ? p->num_iterations : (n * 10 > 1000 ? n * 10 : 1000);
	job.restarts = p->num_restarts;
	job.x = qubo__malloc_array(a, rn.num_workers, nn);
	job.best = qubo__malloc_array(a, rn.num_workers, nn);
	job.f = qubo__malloc_array(a, (size_t)rn.num_workers * nn, sizeof *job.f);
	job.until = qubo__malloc_array(a, (size_t)rn.num_workers * nn, sizeof *job.until);
	job.flips = qubo__calloc_array(a, rn.num_workers, sizeof *job.flips);
	if (!job.x || !job.best || !job.f || !job.until || !job.flips) {
		rc = qubo__nomem("tabu search's work arrays");
		goto out;
	}
	rc = qubo__runner_exec(&rn, res);
	for (w = 0; w < rn.num_workers; w++)
		res->flips += job.flips[w];
out:
	qubo__free(a, job.x);
	qubo__free(a, job.best);
	qubo__free(a, job.f);
	qubo__free(a, job.until);
	qubo__free(a, job.flips);
	return rc;
}

/* ---- the backend ---- */

static const qubo__param tabu_params[] = {
	QUBO__P_NUM_READS("independent searches (sample_from uses its samples instead)"),
	QUBO__P_SEED,
	QUBO__P_FIRST_READ,
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
	{ QUBO_PARAM_TENURE, QUBO_TYPE_INT, 0, 1e9, 0, "min(20, n/4)",
	  "iterations a flipped variable stays tabu; below n" },
	{ QUBO_PARAM_NUM_ITERATIONS, QUBO_TYPE_INT, 1, 1e15, 0, "max(1000, 10 n)",
	  "iterations per restart" },
	{ QUBO_PARAM_NUM_RESTARTS, QUBO_TYPE_INT, 0, 1e9, 0, "3",
	  "restarts per read from the best state, perturbed" },
};


static int tabu_kernel(const qubo_model *m, const void *params, const qubo__run *run,
		       const uint8_t *initial, uint8_t *samples, double *energies,
		       qubo__result *res)
{
	return qubo__tabu_sample(m, params, run, initial, samples, energies, res);
}

static int tabu_run(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		    const qubo_sampleset *initial)
{
	qubo__tabu_params p;
	qubo__run run;

	qubo__builtin_run(ctx, o, &run);
	p.tenure_set = qubo_options_type(o, QUBO_PARAM_TENURE) != QUBO_TYPE_NONE;
	p.tenure = (size_t)qubo__builtin_int(o, QUBO_PARAM_TENURE, 0);
	p.num_iterations = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_ITERATIONS, 0);
	p.num_restarts = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_RESTARTS, 3);
	return qubo__builtin_sample(ctx, m, &run, initial, tabu_kernel, &p);
}

static int tabu_sample(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		       void *user_data)
{
	(void)user_data;
	return tabu_run(ctx, m, o, NULL);
}

static int tabu_sample_from(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
			    const qubo_sampleset *initial, void *user_data)
{
	(void)user_data;
	return tabu_run(ctx, m, o, initial);
}

const qubo_backend_vtable qubo__tabu_backend = {
	sizeof(qubo_backend_vtable),
	"tabu",
	tabu_sample,
	tabu_sample_from,
	qubo__builtin_set_param,
	qubo__builtin_describe,
};

qubo__builtin qubo__tabu_builtin = {
	&qubo__tabu_backend,
	"one-flip tabu search with aspiration and restarts",
	tabu_params,
	sizeof tabu_params / sizeof tabu_params[0],
};
