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
 * (the starts count), or that a greedy descent from the coldest replica
 * reached: every PT_QUENCH rounds a copy of it is taken down to a local
 * minimum of single flips, which removes the few excitations a cold rung
 * keeps in equilibrium (on sparse graphs with unit weights they hid the
 * best state from the end-of-sweep check).
 *
 * Replicas sweep 8 at a time, one per lane: states as masks (0 or −1)
 * and fields interleaved by variable, x[8 i + l] and f[8 i + l] for lane l,
 * so that one step of the lane generator draws for the 8 replicas, 8 moves
 * are decided at once, and an accepted move updates the 8 fields of each
 * neighbour with one masked add. A replica keeps its lane; exchanges swap
 * rungs, that is which threshold row or β a lane uses.
 *
 * Two engines make the sweeps, with the same decisions (a move of change
 * ΔE > 0 is taken when the lane's draw u < ⌊exp(−β ΔE) 2^32⌋). On a model
 * whose weights are multiples of one power of two and whose flips change
 * the energy by at most PT_MAX_DE of those units (Max-Cut graphs, puzzle
 * models), fields and energies are exact integers and each rung looks its
 * thresholds up in a table, with AVX2 where the CPU has it. Other models
 * keep double fields, recomputed every PT_RESYNC rounds. */
#include <math.h>
#include <string.h>

#include "lane_rng.h"
#include "localsearch.h"
#include "runner.h"
#include "solver_impl.h"

#define PT_LANES QUBO__LANES
#define PT_MAX_DE 4096   /* integer engine: largest |ΔE| in units (a table row) */
#define PT_RESYNC 64     /* real engine: rounds between recomputed fields */
#define PT_QUENCH 8      /* rounds between descents from the coldest replica */
#define PT_MIN_RUNGS 4   /* default ladders: fewest and most rungs */
#define PT_MAX_RUNGS 64
#define PT_MAX_BYTES ((size_t)4 << 30) /* replicas' states and fields, all workers */

typedef struct pt_job {
	const qubo_model *m;
	const uint8_t *initial;
	uint64_t first_read; /* read r draws from the streams of first_read + r */
	uint8_t *samples;
	double *energies;
	size_t replicas;     /* R rungs; lanes L = 8 ceil(R / 8), the rest idle */
	size_t lanes, rounds;
	int keep_lowest;     /* 0: a read returns the coldest rung's final state */
	int avx2;            /* the integer engine's sweeps use AVX2 */
	double *beta;        /* the ladder, hot to cold */
	/* the integer engine (ih != NULL) */
	int32_t *ih, *ival;  /* h and the CSR weights in units of 2^−shift */
	int shift;
	int32_t maxde;       /* largest |ΔE| in units; rows of thr have maxde + 1 */
	uint32_t *thr;       /* thr[t (maxde + 1) + d]: take ΔE = d at rung t when u < it */
	/* per worker */
	int32_t *x;          /* L × n state masks, 8 lanes at a time */
	void *f;             /* L × n fields alike: int32_t or double */
	uint8_t *bx;         /* n: the read's lowest state */
	uint8_t *qx;         /* n: a descent's state */
	double *qf;          /* n: its fields */
	double eps;          /* real engine: smallest change a descent takes */
	double *e;           /* L: tracked energies (units on the integer engine) */
	size_t *at, *rung;   /* R: the replica at each rung; L: the rung of each
				(0 for the idle lanes) */
	qubo__lane_rng *gs;  /* L / 8: the lanes' generators */
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

/* Fields of lane l of lanes (x, f) from its state, and its energy without
 * the offset (in units on the integer engine). */
static double lane_init(const pt_job *job, const int32_t *x, void *f, size_t l)
{
	const qubo_model *m = job->m;
	double e = 0.0;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		double fi = job->ih ? job->ih[i] : m->h[i], up = 0;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			double w = job->ih ? job->ival[k] : m->val[k];
			if (!x[PT_LANES * m->col[k] + l])
				continue;
			fi += w;
			if (k >= m->upper[i])
				up += w;
		}
		if (job->ih)
			((int32_t *)f)[PT_LANES * i + l] = (int32_t)fi;
		else
			((double *)f)[PT_LANES * i + l] = fi;
		if (x[PT_LANES * i + l])
			e += (job->ih ? job->ih[i] : m->h[i]) + up;
	}
	return e;
}

/* ---- the integer engine ---- */

/* One sweep of 8 lanes; off[l] is lane l's threshold row, de[l] gets the
 * lane's energy change. */
static void int_sweep(const pt_job *job, int32_t *x, int32_t *f, qubo__lane_rng *g,
		      const uint32_t *off, int64_t *de)
{
	const qubo_model *m = job->m;
	const size_t *row = m->row;
	const uint32_t *col = m->col;
	const int32_t *w = job->ival;
	size_t i, k, l, n = m->n;

	for (i = 0; i < n; i++) {
		int32_t *xi = x + PT_LANES * i, take[PT_LANES], any = 0;
		uint32_t u[PT_LANES];
		qubo__lane_block(g, u);
		for (l = 0; l < PT_LANES; l++) {
			int32_t d = (f[PT_LANES * i + l] ^ xi[l]) - xi[l];
			take[l] = d <= 0 || u[l] < job->thr[off[l] + (uint32_t)d] ? -1 : 0;
			de[l] += d & take[l];
			any |= take[l];
		}
		if (!any)
			continue;
		for (k = row[i]; k < row[i + 1]; k++) {
			int32_t *fj = f + PT_LANES * (size_t)col[k];
			for (l = 0; l < PT_LANES; l++)
				fj[l] += ((w[k] ^ xi[l]) - xi[l]) & take[l];
		}
		for (l = 0; l < PT_LANES; l++)
			xi[l] ^= take[l];
	}
}

#if QUBO__LANE_AVX2
QUBO__TARGET_AVX2 static void int_sweep_avx2(const pt_job *job, int32_t *x, int32_t *f,
					      qubo__lane_rng *g, const uint32_t *off, int64_t *de)
{
	const qubo_model *m = job->m;
	const size_t *row = m->row;
	const uint32_t *col = m->col;
	const int32_t *w = job->ival;
	const int *thr = (const int *)job->thr;
	const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
	const __m256i sign = _mm256_set1_epi32(INT32_MIN);
	const __m256i voff = _mm256_loadu_si256((const __m256i *)off);
	/* the lanes' sums stay within int32 for this many variables */
	const size_t chunk = (size_t)INT32_MAX / ((size_t)job->maxde + 1);
	size_t i = 0, k, l, n = m->n, end;
	__m256i s[4];
	int32_t part[PT_LANES];

	for (k = 0; k < 4; k++)
		s[k] = _mm256_loadu_si256((const __m256i *)g->s[k]);
	while (i < n) {
		__m256i sum = zero;
		for (end = n - i > chunk ? i + chunk : n; i < end; i++) {
			__m256i u = qubo__lane_avx2(s);
			__m256i xi = _mm256_loadu_si256((const __m256i *)(x + PT_LANES * i));
			__m256i fi = _mm256_loadu_si256((const __m256i *)(f + PT_LANES * i));
			__m256i d = _mm256_sub_epi32(_mm256_xor_si256(fi, xi), xi);
			__m256i idx = _mm256_add_epi32(voff, _mm256_max_epi32(d, zero));
			__m256i t = _mm256_i32gather_epi32(thr, idx, 4);
			__m256i take = _mm256_or_si256(
				_mm256_cmpgt_epi32(one, d),
				_mm256_cmpgt_epi32(_mm256_xor_si256(t, sign),
						   _mm256_xor_si256(u, sign)));
			if (_mm256_testz_si256(take, take))
				continue;
			sum = _mm256_add_epi32(sum, _mm256_and_si256(d, take));
			/* +1 where a lane sets x_i, −1 where it clears it, 0 where
			 * it keeps it: one sign instruction per neighbour */
			__m256i st = _mm256_and_si256(_mm256_or_si256(xi, one), take);
			for (k = row[i]; k < row[i + 1]; k++) {
				__m256i *fj = (__m256i *)(f + PT_LANES * (size_t)col[k]);
				__m256i step = _mm256_sign_epi32(_mm256_set1_epi32(w[k]), st);
				_mm256_storeu_si256(fj, _mm256_add_epi32(_mm256_loadu_si256(fj), step));
			}
			_mm256_storeu_si256((__m256i *)(x + PT_LANES * i), _mm256_xor_si256(xi, take));
		}
		_mm256_storeu_si256((__m256i *)part, sum);
		for (l = 0; l < PT_LANES; l++)
			de[l] += part[l];
	}
	for (k = 0; k < 4; k++)
		_mm256_storeu_si256((__m256i *)g->s[k], s[k]);
}
#endif

/* ---- the real engine ---- */

static void real_sweep(const pt_job *job, int32_t *x, double *f, qubo__lane_rng *g,
		       const double *beta, double *de)
{
	const qubo_model *m = job->m;
	size_t i, k, l, n = m->n;

	for (i = 0; i < n; i++) {
		int32_t *xi = x + PT_LANES * i, take[PT_LANES], any = 0;
		uint32_t u[PT_LANES];
		qubo__lane_block(g, u);
		for (l = 0; l < PT_LANES; l++) {
			double d = xi[l] ? -f[PT_LANES * i + l] : f[PT_LANES * i + l];
			take[l] = d <= 0 || u[l] < threshold(beta[l] * d) ? -1 : 0;
			if (take[l])
				de[l] += d;
			any |= take[l];
		}
		if (!any)
			continue;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			double *fj = f + PT_LANES * (size_t)m->col[k];
			for (l = 0; l < PT_LANES; l++)
				if (take[l])
					fj[l] += xi[l] ? -m->val[k] : m->val[k];
		}
		for (l = 0; l < PT_LANES; l++)
			xi[l] ^= take[l];
	}
}

/* ---- a read ---- */

/* Energy in real units of a tracked energy. */
static double real_energy(const pt_job *job, double e)
{
	return job->m->offset + (job->ih ? ldexp(e, -job->shift) : e);
}

/* Swaps the replicas at rungs t and t + 1 when the Metropolis rule for the
 * exchange says so. The difference of their energies leaves the offset out,
 * which would round it away (exact on the integer engine). */
static void exchange(const pt_job *job, size_t *at, size_t *rung, const double *e, size_t t,
		     qubo__rng *g)
{
	double de = e[at[t]] - e[at[t + 1]];
	double d = (job->beta[t] - job->beta[t + 1]) * (job->ih ? ldexp(de, -job->shift) : de);
	size_t tmp;

	if (d < 0 && (double)(qubo__rng_next(g) >> 11) * 0x1p-53 >= exp(d))
		return;
	tmp = at[t];
	at[t] = at[t + 1];
	at[t + 1] = tmp;
	rung[at[t]] = t;
	rung[at[t + 1]] = t + 1;
}

/* The fields of lanes 8 gi … 8 gi + 7 within f. */
static void *lanes_fields(const pt_job *job, void *f, size_t gi)
{
	size_t at = gi * PT_LANES * job->m->n;

	return job->ih ? (void *)((int32_t *)f + at) : (void *)((double *)f + at);
}

/* Copies replica q's state out of its lanes. */
static void lane_state(const int32_t *x, size_t n, size_t q, uint8_t *out)
{
	const int32_t *xg = x + (q / PT_LANES) * PT_LANES * n;
	size_t i, l = q % PT_LANES;

	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(xg[PT_LANES * i + l] & 1);
}

/* One sweep of all lanes, each lane at its replica's rung. */
static void sweep_lanes(const pt_job *job, int32_t *x, void *f, qubo__lane_rng *gs,
			 const size_t *rung, double *e, int resync)
{
	const size_t n = job->m->n, row = (size_t)job->maxde + 1;
	size_t gi, l;

	for (gi = 0; gi < job->lanes / PT_LANES; gi++) {
		const size_t q0 = gi * PT_LANES;
		int32_t *xg = x + q0 * n;
		if (job->ih) {
			int32_t *fg = lanes_fields(job, f, gi);
			uint32_t off[PT_LANES];
			int64_t de[PT_LANES] = { 0 };
			for (l = 0; l < PT_LANES; l++)
				off[l] = (uint32_t)(rung[q0 + l] * row);
#if QUBO__LANE_AVX2
			if (job->avx2)
				int_sweep_avx2(job, xg, fg, &gs[gi], off, de);
			else
#endif
				int_sweep(job, xg, fg, &gs[gi], off, de);
			for (l = 0; l < PT_LANES; l++)
				e[q0 + l] += (double)de[l];
		} else {
			double *fg = lanes_fields(job, f, gi), beta[PT_LANES], de[PT_LANES] = { 0 };
			for (l = 0; l < PT_LANES; l++)
				beta[l] = job->beta[rung[q0 + l]];
			real_sweep(job, xg, fg, &gs[gi], beta, de);
			for (l = 0; l < PT_LANES; l++)
				e[q0 + l] = resync ? lane_init(job, xg, fg, l) : e[q0 + l] + de[l];
		}
	}
}

/* Takes a copy of replica q (tracked energy e) down to a local minimum of
 * single flips, each variable in index order flipped while that lowers
 * the energy, from the replica's own fields: the copy costs O(n), a pass n
 * tests and the row of each variable it flips. Returns the copy's tracked
 * energy (exact in units on the integer engine). */
static double quench(const pt_job *job, const int32_t *x, void *f, size_t q, double e,
		     uint8_t *qx, double *qf)
{
	const qubo_model *m = job->m;
	const size_t n = m->n, l = q % PT_LANES;
	const void *fg = lanes_fields(job, f, q / PT_LANES);
	const double eps = job->eps;
	size_t i, k, moved = 1;

	lane_state(x, n, q, qx);
	for (i = 0; i < n; i++)
		qf[i] = job->ih ? (double)((const int32_t *)fg)[PT_LANES * i + l]
				: ((const double *)fg)[PT_LANES * i + l];
	while (moved) {
		moved = 0;
		for (i = 0; i < n; i++) {
			const double d = qx[i] ? -qf[i] : qf[i];
			if (!(d < -eps))
				continue;
			qx[i] ^= 1;
			e += d;
			moved = 1;
			for (k = m->row[i]; k < m->row[i + 1]; k++) {
				const double w = job->ih ? (double)job->ival[k] : m->val[k];
				qf[m->col[k]] += qx[i] ? w : -w;
			}
		}
	}
	return e;
}

static int pt_unit(qubo__pool *rn, unsigned w, size_t r)
{
	pt_job *job = rn->arg;
	const qubo_model *m = job->m;
	const size_t n = m->n, R = job->replicas, L = job->lanes, nn = n ? n : 1;
	int32_t *x = job->x + (size_t)w * L * nn;
	void *f = lanes_fields(job, job->f, (size_t)w * (L / PT_LANES));
	uint8_t *bx = job->bx + (size_t)w * nn, *qx = job->qx + (size_t)w * nn;
	double *qf = job->qf + (size_t)w * nn;
	double *e = job->e + (size_t)w * L, best = HUGE_VAL;
	size_t *at = job->at + (size_t)w * R, *rung = job->rung + (size_t)w * L, q, k, i;
	qubo__lane_rng *gs = job->gs + (size_t)w * (L / PT_LANES);
	uint64_t flips = 0;
	qubo__rng g;

	qubo__rng_stream(&g, rn->seed, job->first_read + r);
	/* streams of the lanes: (read, lanes index), distinct for every read */
	for (k = 0; k < L / PT_LANES; k++)
		qubo__lane_seed(&gs[k], rn->seed, ((job->first_read + r) << 10) | k);
	for (q = 0; q < L; q++) {
		int32_t *xg = x + (q / PT_LANES) * PT_LANES * n;
		size_t l = q % PT_LANES;
		qubo__ls_start(bx, n, job->initial, r, &g);
		for (i = 0; i < n; i++)
			xg[PT_LANES * i + l] = -(int32_t)bx[i];
		e[q] = lane_init(job, xg, lanes_fields(job, f, q / PT_LANES), l);
		rung[q] = q < R ? q : 0; /* idle lanes sweep at the hottest rung */
		if (q < R)
			at[q] = q;
	}
	for (q = 0; q < R; q++)
		if (e[q] < best) {
			best = e[q];
			lane_state(x, n, q, bx);
		}
	qubo__pool_found(rn, real_energy(job, best));
	for (k = 0; n && k < job->rounds && !qubo__pool_stopped(rn); k++) {
		sweep_lanes(job, x, f, gs, rung, e, !job->ih && (k + 1) % PT_RESYNC == 0);
		flips += (uint64_t)R * n;
		for (q = 0; q < R; q++)
			if (e[q] < best) {
				best = e[q];
				lane_state(x, n, q, bx);
				qubo__pool_found(rn, real_energy(job, best));
			}
		if (job->keep_lowest && (k + 1) % PT_QUENCH == 0) {
			const double eq = quench(job, x, f, at[R - 1], e[at[R - 1]], qx, qf);
			if (eq < best) {
				best = eq;
				memcpy(bx, qx, n);
				qubo__pool_found(rn, real_energy(job, best));
			}
		}
		for (q = k & 1; q + 1 < R; q += 2)
			exchange(job, at, rung, e, q, &g);
	}
	if (!job->keep_lowest) { /* a Boltzmann sample at beta_cold */
		best = e[at[R - 1]];
		lane_state(x, n, at[R - 1], bx);
	}
	if (n) /* samples may be NULL when n is 0 */
		memcpy(job->samples + r * n, bx, n);
	job->energies[r] = real_energy(job, best);
	job->flips[w] += flips;
	qubo__pool_report(rn, 1, job->energies[r]);
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

double qubo__pt_rung(double beta_hot, double beta_cold, size_t t, size_t R)
{
	double s, ratio = beta_cold / beta_hot, b;

	if (t + 1 >= R)
		return beta_cold;
	if (t == 0)
		return beta_hot;
	s = (double)t / (double)(R - 1);
	/* past the range of double, the ratio's power is taken in logarithms */
	b = qubo__is_finite(ratio) ? beta_hot * pow(ratio, s)
			    : exp(log(beta_hot) + s * (log(beta_cold) - log(beta_hot)));
	return b < beta_hot ? beta_hot : b < beta_cold ? b : beta_cold;
}

size_t qubo__pt_default_replicas(size_t n, double beta_hot, double beta_cold)
{
	/* Neighbouring rungs a factor 1 + 5.8 / sqrt(n) apart at most: the
	 * energy's spread grows as sqrt(n). Rounded up to whole sets of
	 * lanes, which cost the same as fewer. */
	double step = log1p(5.8 / sqrt((double)(n ? n : 1)));
	double r = 1 + ceil(log(beta_cold / beta_hot) / step);
	size_t k = r < PT_MIN_RUNGS ? PT_MIN_RUNGS : r > PT_MAX_RUNGS ? PT_MAX_RUNGS : (size_t)r;

	return (k + PT_LANES - 1) / PT_LANES * PT_LANES;
}

int qubo__pt_sample(const qubo_model *m, const qubo__pt_params *p, const qubo__run *run,
		    const uint8_t *initial, uint8_t *samples, double *energies,
		    qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__pool rn;
	pt_job job;
	size_t n = m->n ? m->n : 1, t, R, L;
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
	qubo__pool_init_run(&rn, run, run->num_reads, pt_unit, &job);
	job.m = m;
	job.initial = initial;
	job.first_read = run->first_read;
	job.samples = samples;
	job.energies = energies;
	job.replicas = R;
	job.lanes = L = (R + PT_LANES - 1) / PT_LANES * PT_LANES;
	job.avx2 = !(p->flags & QUBO__PT_PORTABLE) && qubo__lane_have_avx2();
	job.rounds = p->num_sweeps;
	job.keep_lowest = p->keep_lowest;
	job.beta = qubo__malloc_array(a, R, sizeof *job.beta);
	if (!job.beta) {
		rc = qubo__nomem("parallel tempering's ladder");
		goto out;
	}
	for (t = 0; t < R; t++)
		job.beta[t] = qubo__pt_rung(bh, bc, t, R);
	rc = (p->flags & QUBO__PT_REAL) ? QUBO_OK : prepare_units(a, &job);
	if (rc)
		goto out;
	/* states and fields of every replica of every worker */
	if ((double)rn.num_workers * (double)L * (double)n *
		    (double)(sizeof(int32_t) + (job.ih ? sizeof(int32_t) : sizeof(double))) >
	    (double)PT_MAX_BYTES) {
		rc = qubo__too_large(
			QUBO_LIMIT_REPLICA_BYTES, PT_MAX_BYTES,
			"%zu replicas of %zu variables on %u "
			"threads need more than the %.0f GiB parallel tempering allows; "
			"lower num_replicas or threads",
			R, m->n, rn.num_workers, ldexp((double)PT_MAX_BYTES, -30));
		goto out;
	}
	job.x = qubo__malloc_array(a, (size_t)rn.num_workers * L, n * sizeof(int32_t));
	job.f = qubo__malloc_array(a, (size_t)rn.num_workers * L,
				   n * (job.ih ? sizeof(int32_t) : sizeof(double)));
	job.eps = job.ih ? 0 : qubo__ls_eps(m);
	job.bx = qubo__malloc_array(a, rn.num_workers, n);
	job.qx = qubo__malloc_array(a, rn.num_workers, n);
	job.qf = qubo__malloc_array(a, rn.num_workers, n * sizeof *job.qf);
	job.e = qubo__malloc_array(a, (size_t)rn.num_workers * L, sizeof *job.e);
	job.at = qubo__malloc_array(a, (size_t)rn.num_workers * R, sizeof *job.at);
	job.rung = qubo__malloc_array(a, (size_t)rn.num_workers * L, sizeof *job.rung);
	job.gs = qubo__malloc_array(a, (size_t)rn.num_workers * (L / PT_LANES), sizeof *job.gs);
	job.flips = qubo__calloc_array(a, rn.num_workers, sizeof *job.flips);
	if (!job.x || !job.f || !job.bx || !job.qx || !job.qf || !job.e || !job.at || !job.rung ||
	    !job.gs || !job.flips) {
		rc = qubo__nomem("parallel tempering's replicas");
		goto out;
	}
	rc = qubo__pool_exec_run(&rn, res);
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
	qubo__free(a, job.qx);
	qubo__free(a, job.qf);
	qubo__free(a, job.e);
	qubo__free(a, job.at);
	qubo__free(a, job.rung);
	qubo__free(a, job.gs);
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
	  "rungs a factor 1 + 5.8/sqrt(n) apart, within 4..64, a multiple of 8",
	  "replicas per read, one per rung of the ladder" },
	{ QUBO_PARAM_BETA_HOT, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 1, "from the model",
	  "inverse temperature of the hottest rung; set with beta_cold" },
	{ QUBO_PARAM_BETA_COLD, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 1, "from the model",
	  "inverse temperature of the coldest rung; set with beta_hot" },
	{ QUBO_PARAM_KEEP_LOWEST, QUBO_TYPE_INT, 0, 1, 0, "1",
	  "1: a read returns the lowest state of its replicas or of a descent from the "
	  "coldest one; 0: the coldest one's final state" },
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

QUBO__BUILTIN(pt, "pt", qubo__builtin_sample_from_slot,
	      "parallel tempering: replicas on a ladder of temperatures, Metropolis sweeps and "
	      "exchanges between neighbouring rungs",
	      pt_params, pt_run);
