/* Parallel tempering (replica exchange Monte Carlo).
 *
 * A read runs R replicas of the model at fixed inverse temperatures, a
 * geometric ladder β_0 < β_1 < … < β_{R−1} from beta_hot to beta_cold. A
 * round is one Metropolis sweep of every replica at its rung, then an
 * exchange: rungs t and t + 1 swap their states with probability
 * min(1, exp((β_t − β_{t+1}) (E_t − E_{t+1}))), for the pairs (0, 1),
 * (2, 3), … on even rounds and (1, 2), (3, 4), … on odd ones. States that
 * settle in a poor basin at the cold end are carried up to the hot end,
 * melted and brought down again, which single anneals cannot do. A read
 * returns the lowest state any of its replicas was in at the end of a sweep
 * (the starts count).
 *
 * Two engines make the sweeps, with the same decisions. On a model whose
 * weights are multiples of one power of two and whose flips change the
 * energy by at most PT_MAX_DE of those units (Max-Cut graphs, puzzle
 * models), fields and energies are exact integers and each rung looks its
 * acceptance thresholds up in a table. Other models keep double fields,
 * resynchronised every PT_RESYNC rounds. */
#include <math.h>
#include <string.h>

#include "localsearch.h"
#include "runner.h"
#include "solver_impl.h"

#define PT_MAX_DE 4096   /* integer engine: largest |ΔE| in units (a table row) */
#define PT_RESYNC 64     /* real engine: rounds between recomputed fields */
#define PT_MIN_RUNGS 4   /* default ladders: fewest and most rungs */
#define PT_MAX_RUNGS 64
#define PT_MAX_BYTES ((size_t)4 << 30) /* replicas' states and fields, all workers */

typedef struct pt_job {
	const qubo_model *m;
	const uint8_t *initial;
	uint64_t first_read; /* read r draws from the stream of first_read + r */
	uint8_t *samples;
	double *energies;
	size_t replicas, rounds;
	int keep_lowest;     /* 0: a read returns the coldest rung's final state */
	double *beta;        /* the ladder, hot to cold */
	/* the integer engine (ih != NULL) */
	int32_t *ih, *ival;  /* h and the CSR weights in units of 2^−shift */
	int shift;
	int32_t maxde;       /* largest |ΔE| in units; rows of thr have maxde + 1 */
	uint32_t *thr;       /* thr[t (maxde + 1) + d]: accept ΔE = d at rung t when u < it */
	/* per worker */
	uint8_t *x;          /* replicas × n states, replica-major */
	void *f;             /* replicas × n fields: int32_t or double */
	uint8_t *bx;         /* n: the read's lowest state */
	double *e;           /* replicas: tracked energies (units on the integer engine) */
	size_t *at;          /* replicas: the replica at each rung */
	uint64_t *flips;
} pt_job;

/* 32-bit threshold of a Metropolis step of β ΔE = t > 0: the step is taken
 * when a uniform 32-bit u is below it, so with probability
 * floor(exp(−t) 2^32) / 2^32 on both engines. */
static uint32_t threshold(double t)
{
	double p;

	if (!(t < 23.0)) /* exp(−23) 2^32 < 1 */
		return 0;
	p = ldexp(exp(-t), 32);
	return p >= 4294967295.0 ? UINT32_MAX : (uint32_t)p;
}

/* ---- the integer engine ---- */

static int64_t int_init(const pt_job *job, const uint8_t *x, int32_t *f)
{
	const qubo_model *m = job->m;
	int64_t e = 0;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		int64_t fi = job->ih[i], up = 0;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			if (!x[m->col[k]])
				continue;
			fi += job->ival[k];
			if (k >= m->upper[i])
				up += job->ival[k];
		}
		f[i] = (int32_t)fi;
		if (x[i])
			e += job->ih[i] + up;
	}
	return e;
}

/* One sweep of x at the rung whose thresholds are thr; returns ΔE. */
static int64_t int_sweep(const pt_job *job, uint8_t *x, int32_t *f, const uint32_t *thr,
			 qubo__rng *g)
{
	const qubo_model *m = job->m;
	const size_t *row = m->row;
	const uint32_t *col = m->col;
	const int32_t *w = job->ival;
	int64_t de_sum = 0;
	size_t i, k, n = m->n;

	for (i = 0; i < n; i++) {
		int32_t s = x[i] ? -1 : 1, de = s * f[i];
		if (de > 0 && (uint32_t)(qubo__rng_next(g) >> 32) >= thr[de])
			continue;
		x[i] ^= 1;
		de_sum += de;
		for (k = row[i]; k < row[i + 1]; k++)
			f[col[k]] += s * w[k];
	}
	return de_sum;
}

/* ---- the real engine ---- */

static double real_sweep(const pt_job *job, uint8_t *x, double *f, double beta, qubo__rng *g)
{
	const qubo_model *m = job->m;
	double de_sum = 0;
	size_t i, n = m->n;

	for (i = 0; i < n; i++) {
		double de = qubo__ls_delta(x, f, i);
		if (de > 0 && (uint32_t)(qubo__rng_next(g) >> 32) >= threshold(beta * de))
			continue;
		qubo__ls_flip(m, x, f, i);
		de_sum += de;
	}
	return de_sum;
}

/* ---- a read ---- */

/* Energy in real units of a tracked energy. */
static double real_energy(const pt_job *job, double e)
{
	return job->ih ? job->m->offset + ldexp(e, -job->shift) : e;
}

/* Sets the replica at rung t, or at t + 1, to the other's state by
 * exchange when the Metropolis rule for the swap says so. */
static void exchange(const pt_job *job, size_t *at, const double *e, size_t t, qubo__rng *g)
{
	double d = (job->beta[t] - job->beta[t + 1]) *
		   (real_energy(job, e[at[t]]) - real_energy(job, e[at[t + 1]]));
	size_t tmp;

	if (d < 0 && (double)(qubo__rng_next(g) >> 11) * 0x1p-53 >= exp(d))
		return;
	tmp = at[t];
	at[t] = at[t + 1];
	at[t + 1] = tmp;
}

static int pt_unit(qubo__runner *rn, unsigned w, size_t r)
{
	pt_job *job = rn->arg;
	const qubo_model *m = job->m;
	const size_t n = m->n, R = job->replicas;
	uint8_t *x = job->x + (size_t)w * R * (n ? n : 1), *bx = job->bx + (size_t)w * (n ? n : 1);
	int32_t *fi = job->ih ? (int32_t *)job->f + (size_t)w * R * n : NULL;
	double *fr = job->ih ? NULL : (double *)job->f + (size_t)w * R * n;
	double *e = job->e + (size_t)w * R, best = HUGE_VAL;
	size_t *at = job->at + (size_t)w * R, t, k;
	uint64_t flips = 0;
	qubo__rng g;

	qubo__rng_stream(&g, rn->seed, job->first_read + r);
	for (t = 0; t < R; t++) {
		qubo__ls_start(x + t * n, n, job->initial, r, &g);
		e[t] = job->ih ? (double)int_init(job, x + t * n, fi + t * n)
			       : qubo__ls_init(m, x + t * n, fr + t * n);
		at[t] = t;
		if (e[t] < best) {
			best = e[t];
			memcpy(bx, x + t * n, n);
		}
	}
	qubo__runner_found(rn, real_energy(job, best));
	for (k = 0; n && k < job->rounds && !qubo__runner_stopped(rn); k++) {
		for (t = 0; t < R; t++) {
			size_t q = at[t];
			uint8_t *xq = x + q * n;
			if (job->ih)
				e[q] += (double)int_sweep(job, xq, fi + q * n,
							  job->thr + t * ((size_t)job->maxde + 1), &g);
			else if ((k + 1) % PT_RESYNC)
				e[q] += real_sweep(job, xq, fr + q * n, job->beta[t], &g);
			else {
				real_sweep(job, xq, fr + q * n, job->beta[t], &g);
				e[q] = qubo__ls_init(m, xq, fr + q * n);
			}
			if (e[q] < best) {
				best = e[q];
				memcpy(bx, xq, n);
				qubo__runner_found(rn, real_energy(job, best));
			}
		}
		flips += (uint64_t)R * n;
		for (t = k & 1; t + 1 < R; t += 2)
			exchange(job, at, e, t, &g);
	}
	if (!job->keep_lowest) { /* a Boltzmann sample at beta_cold */
		bx = x + at[R - 1] * n;
		best = e[at[R - 1]];
	}
	if (n) /* samples may be NULL when n is 0 */
		memcpy(job->samples + r * n, bx, n);
	job->energies[r] = real_energy(job, best);
	job->flips[w] += flips;
	qubo__runner_unit_done(rn, job->energies[r]);
	return QUBO_OK;
}

/* ---- the run ---- */

/* The weights in units and the rungs' thresholds, when the model allows
 * the integer engine (job->ih stays NULL otherwise). */
static int prepare_units(const qubo_allocator *a, pt_job *job)
{
	const qubo_model *m = job->m;
	size_t i, t, nnz = m->row[m->n], row;
	int64_t big;

	if (!qubo__ls_units(m, PT_MAX_DE, &job->shift, &big))
		return QUBO_OK;
	job->maxde = (int32_t)big;
	row = (size_t)big + 1;
	job->ih = qubo__malloc_array(a, m->n ? m->n : 1, sizeof *job->ih);
	job->ival = qubo__malloc_array(a, nnz ? nnz : 1, sizeof *job->ival);
	job->thr = qubo__malloc_array(a, job->replicas, row * sizeof *job->thr);
	if (!job->ih || !job->ival || !job->thr)
		return qubo__nomem("parallel tempering's weights");
	for (i = 0; i < m->n; i++)
		job->ih[i] = (int32_t)ldexp(m->h[i], job->shift);
	for (i = 0; i < nnz; i++)
		job->ival[i] = (int32_t)ldexp(m->val[i], job->shift);
	for (t = 0; t < job->replicas; t++)
		for (i = 0; i < row; i++)
			job->thr[t * row + i] =
				threshold(job->beta[t] * ldexp((double)i, -job->shift));
	return QUBO_OK;
}

int qubo__pt_integer(const qubo_model *m)
{
	int shift;
	int64_t big;

	return qubo__ls_units(m, PT_MAX_DE, &shift, &big);
}

size_t qubo__pt_default_replicas(size_t n, double beta_hot, double beta_cold)
{
	/* Neighbouring rungs a factor 1 + 5.8 / sqrt(n) apart: the energy's
	 * spread grows as sqrt(n), and on the 2000-node G-set graphs this keeps
	 * about a third of the exchanges. */
	double step = log1p(5.8 / sqrt((double)(n ? n : 1)));
	double r = 1 + ceil(log(beta_cold / beta_hot) / step);

	return r < PT_MIN_RUNGS ? PT_MIN_RUNGS : r > PT_MAX_RUNGS ? PT_MAX_RUNGS : (size_t)r;
}

int qubo__pt_sample(const qubo_model *m, const qubo__pt_params *p, const qubo__run *run,
		    const uint8_t *initial, uint8_t *samples, double *energies,
		    qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__runner rn;
	pt_job job;
	size_t n = m->n ? m->n : 1, t, R;
	double bh = p->beta_hot, bc = p->beta_cold;
	unsigned w;
	int rc;

	memset(res, 0, sizeof *res);
	memset(&job, 0, sizeof job);
	if (bh == 0 && bc == 0) {
		rc = qubo__pt_default_betas(m, &bh, &bc);
		if (rc)
			return rc;
	}
	R = p->num_replicas ? p->num_replicas : qubo__pt_default_replicas(m->n, bh, bc);
	qubo__runner_init(&rn, run, run->num_reads, pt_unit, &job);
	job.m = m;
	job.initial = initial;
	job.first_read = run->first_read;
	job.samples = samples;
	job.energies = energies;
	job.replicas = R;
	job.rounds = p->num_sweeps;
	job.keep_lowest = p->keep_lowest;
	job.beta = qubo__malloc_array(a, R, sizeof *job.beta);
	if (!job.beta) {
		rc = qubo__nomem("parallel tempering's ladder");
		goto out;
	}
	for (t = 0; t < R; t++)
		job.beta[t] = R == 1 ? bc : bh * pow(bc / bh, (double)t / (double)(R - 1));
	job.beta[R - 1] = bc;
	rc = (p->flags & QUBO__PT_REAL) ? QUBO_OK : prepare_units(a, &job);
	if (rc)
		goto out;
	/* states and fields of every replica of every worker */
	if ((double)rn.num_workers * (double)R * (double)n *
		    (1.0 + (job.ih ? sizeof(int32_t) : sizeof(double))) > (double)PT_MAX_BYTES) {
		rc = qubo__error(QUBO_ERR_TOO_LARGE, "%zu replicas of %zu variables on %u "
				 "threads need more than the %.0f GiB parallel tempering allows; "
				 "lower num_replicas or threads", R, m->n, rn.num_workers,
				 ldexp((double)PT_MAX_BYTES, -30));
		goto out;
	}
	job.x = qubo__malloc_array(a, (size_t)rn.num_workers * R, n);
	job.f = qubo__malloc_array(a, (size_t)rn.num_workers * R,
				   n * (job.ih ? sizeof(int32_t) : sizeof(double)));
	job.bx = qubo__malloc_array(a, rn.num_workers, n);
	job.e = qubo__malloc_array(a, (size_t)rn.num_workers * R, sizeof *job.e);
	job.at = qubo__malloc_array(a, (size_t)rn.num_workers * R, sizeof *job.at);
	job.flips = qubo__calloc_array(a, rn.num_workers, sizeof *job.flips);
	if (!job.x || !job.f || !job.bx || !job.e || !job.at || !job.flips) {
		rc = qubo__nomem("parallel tempering's replicas");
		goto out;
	}
	rc = qubo__runner_exec(&rn, res);
	for (w = 0; w < rn.num_workers; w++)
		res->flips += job.flips[w];
out:
	qubo__free(a, job.beta);
	qubo__free(a, job.ih);
	qubo__free(a, job.ival);
	qubo__free(a, job.thr);
	qubo__free(a, job.x);
	qubo__free(a, job.f);
	qubo__free(a, job.bx);
	qubo__free(a, job.e);
	qubo__free(a, job.at);
	qubo__free(a, job.flips);
	return rc;
}

/* ---- the backend ---- */

static const qubo__param pt_params[] = {
	QUBO__P_NUM_READS("independent runs (sample_from starts every replica of read r "
			  "at sample r)"),
	QUBO__P_SEED,
	QUBO__P_FIRST_READ,
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
	{ QUBO_PARAM_NUM_SWEEPS, QUBO_TYPE_INT, 1, 1e15, 0, "1000",
	  "rounds per read: a sweep of every replica, then an exchange" },
	{ QUBO_PARAM_NUM_REPLICAS, QUBO_TYPE_INT, 1, 4096, 0,
	  "rungs a factor 1 + 5.8/sqrt(n) apart, within 4..64",
	  "replicas per read, one per rung of the ladder" },
	{ QUBO_PARAM_BETA_HOT, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 1, "from the model",
	  "inverse temperature of the hottest rung; set with beta_cold" },
	{ QUBO_PARAM_BETA_COLD, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 1, "from the model",
	  "inverse temperature of the coldest rung; set with beta_hot" },
	{ QUBO_PARAM_KEEP_LOWEST, QUBO_TYPE_INT, 0, 1, 0, "1",
	  "1: a read returns the lowest state of its replicas; 0: the coldest one's final "
	  "state" },
};

static int pt_kernel(const qubo_model *m, const void *params, const qubo__run *run,
		     const uint8_t *initial, uint8_t *samples, double *energies,
		     qubo__result *res)
{
	return qubo__pt_sample(m, params, run, initial, samples, energies, res);
}

static int pt_run(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		  const qubo_sampleset *initial)
{
	qubo__pt_params p;
	qubo__run run;
	int rc;

	qubo__builtin_run(ctx, o, &run);
	memset(&p, 0, sizeof p);
	p.num_sweeps = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_SWEEPS, 1000);
	p.num_replicas = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_REPLICAS, 0);
	p.keep_lowest = (int)qubo__builtin_int(o, QUBO_PARAM_KEEP_LOWEST, 1);
	rc = qubo__builtin_betas(ctx, o, "the ladder runs from hot to cold", &p.beta_hot,
				 &p.beta_cold);
	if (rc)
		return rc;
	return qubo__builtin_sample(ctx, m, &run, initial, pt_kernel, &p);
}

static int pt_sample(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		     void *user_data)
{
	(void)user_data;
	return pt_run(ctx, m, o, NULL);
}

static int pt_sample_from(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
			  const qubo_sampleset *initial, void *user_data)
{
	(void)user_data;
	return pt_run(ctx, m, o, initial);
}

const qubo_backend_vtable qubo__pt_backend = {
	sizeof(qubo_backend_vtable),
	"pt",
	pt_sample,
	pt_sample_from,
	qubo__builtin_set_param,
	qubo__builtin_describe,
};

qubo__builtin qubo__pt_builtin = {
	&qubo__pt_backend,
	"parallel tempering: replicas on a ladder of temperatures, Metropolis sweeps and "
	"exchanges between neighbouring rungs",
	pt_params,
	sizeof pt_params / sizeof pt_params[0],
};
