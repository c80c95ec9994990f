/*
 * Simulated annealing with group moves (doc/solvers-sa.md, "Group moves").
 *
 * A model's groups (qubo_model_add_group) hold auxiliary variables, such as
 * the slack bits of a range, whose best values follow from the others. Here
 * they are never flipped on their own: a move flips one ungrouped variable
 * and sets every group it touches to that group's best values given the
 * rest, and the Metropolis test sees the energy change of the whole move. A
 * one-flip annealer must instead climb over the penalty of stale slack bits
 * (for a cover constraint, once for every cell whose count changes).
 *
 * The best values of a group of k variables come from all 2^k patterns:
 * E(s) = Q[s] + Σ_{i ∈ s} lin_i, with Q[s] the group's internal couplings
 * (a table built once) and lin_i the field on variable i from outside the
 * group. Groups of more than GROUP_EXACT_MAX variables, and groups past a
 * budget for the tables, are not enumerated: their variables move one at a
 * time like ungrouped ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "localsearch.h"
#include "runner.h"

#define GROUP_EXACT_MAX 10
/* Entries of all groups' Q tables together (8 bytes each); groups past it
 * move one variable at a time. */
#define TABLE_BUDGET ((size_t)1 << 24)
#define NONE UINT32_MAX
/* Sweeps between recomputations of the fields from scratch. */
#define RESYNC 64

/* The positions pos … pos + len − 1 of a variable's CSR row that belong to
 * group g. */
typedef struct seg {
	size_t pos;
	uint32_t g, len;
} seg;

typedef struct gm_job {
	const qubo_model *m;
	uint64_t first_read; /* read r draws from the stream of first_read + r */
	size_t sweeps;
	double beta_hot, log_ratio, beta_cold;
	int keep_lowest;
	uint8_t *samples;
	double *energies;
	/* variables that move, and the groups each touches */
	size_t nmov;
	uint32_t *mov;
	size_t *seg_start; /* nmov + 1 */
	seg *segs;
	size_t max_segs;
	/* enumerated groups */
	size_t ng;
	uint32_t *gfirst, *gk;
	size_t *qoff;
	double *q;
	/* per worker */
	uint8_t *x, *best;
	double *f;
	uint32_t *cur;  /* ng patterns */
	uint32_t *cand; /* max_segs patterns */
	double *lsum;   /* 2^GROUP_EXACT_MAX */
	uint64_t *flips;
} gm_job;

static inline unsigned ctz32(uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_ctz(v);
#else
	unsigned b = 0;
	while (!(v & 1u)) {
		v >>= 1;
		b++;
	}
	return b;
#endif
}

/* The change of energy when group g goes from pattern cur to its best
 * pattern (*pick) under fields f, after the variable whose row holds s
 * (NULL: none) changes by sigma. */
static double group_best(const gm_job *job, uint32_t g, uint32_t cur, const double *f,
			 const seg *s, double sigma, double *lsum, uint32_t *pick)
{
	const qubo_model *m = job->m;
	const double *q = job->q + job->qoff[g];
	uint32_t k = job->gk[g], first = job->gfirst[g], b, p, top = 1u << k, at;
	double lin[GROUP_EXACT_MAX], emin, ecur;
	size_t t;

	for (b = 0; b < k; b++) {
		uint32_t bit = 1u << b;
		lin[b] = f[first + b] - (q[cur | bit] - q[cur & ~bit]);
	}
	if (s)
		for (t = s->pos; t < s->pos + s->len; t++)
			lin[m->col[t] - first] += sigma * m->val[t];
	/* lsum[p] = Σ_{i ∈ p} lin_i, from p without its lowest variable */
	lsum[0] = 0.0;
	emin = q[0];
	at = 0;
	for (p = 1; p < top; p++) {
		double e;
		lsum[p] = lsum[p & (p - 1)] + lin[ctz32(p)];
		e = lsum[p] + q[p];
		if (e < emin) {
			emin = e;
			at = p;
		}
	}
	ecur = lsum[cur] + q[cur];
	if (ecur <= emin) { /* a tie keeps the current pattern */
		*pick = cur;
		return 0.0;
	}
	*pick = at;
	return emin - ecur;
}

/* Flips the variables of group g that differ between patterns; returns the
 * exact energy change. */
static double group_set(const gm_job *job, uint8_t *x, double *f, uint32_t g, uint32_t from,
			uint32_t to)
{
	uint32_t diff = from ^ to;
	double d = 0.0;

	while (diff) {
		uint32_t v = job->gfirst[g] + ctz32(diff);
		d += qubo__ls_delta(x, f, v);
		qubo__ls_flip(job->m, x, f, v);
		diff &= diff - 1;
	}
	return d;
}

/* A random state with every group at its best; returns its energy. */
static double gm_start(const gm_job *job, uint8_t *x, double *f, uint32_t *cur, double *lsum,
		       qubo__rng *g, size_t r)
{
	const qubo_model *m = job->m;
	size_t k;

	qubo__ls_start(x, m->n, NULL, r, g);
	qubo__ls_init(m, x, f);
	for (k = 0; k < job->ng; k++) {
		uint32_t b, p = 0, pick;
		for (b = 0; b < job->gk[k]; b++)
			p |= (uint32_t)x[job->gfirst[k] + b] << b;
		group_best(job, (uint32_t)k, p, f, NULL, 0.0, lsum, &pick);
		group_set(job, x, f, (uint32_t)k, p, pick);
		cur[k] = pick;
	}
	return qubo__ls_init(m, x, f);
}

/* The change of energy of the move of job->mov[k]; leaves the groups' best
 * patterns in cand. */
static double gm_move_delta(const gm_job *job, size_t k, const uint8_t *x, const double *f,
			    const uint32_t *cur, uint32_t *cand, double *lsum)
{
	uint32_t j = job->mov[k];
	double sigma = x[j] ? -1.0 : 1.0, d = qubo__ls_delta(x, f, j);
	size_t t, s0 = job->seg_start[k], s1 = job->seg_start[k + 1];

	for (t = s0; t < s1; t++) {
		const seg *s = &job->segs[t];
		d += group_best(job, s->g, cur[s->g], f, s, sigma, lsum, &cand[t - s0]);
	}
	return d;
}

/* Makes the move of job->mov[k] whose group patterns gm_move_delta left in
 * cand; returns the exact energy change. */
static double gm_apply(const gm_job *job, size_t k, uint8_t *x, double *f, uint32_t *cur,
		       const uint32_t *cand)
{
	uint32_t j = job->mov[k];
	size_t t, s0 = job->seg_start[k], s1 = job->seg_start[k + 1];
	double d = qubo__ls_delta(x, f, j);

	qubo__ls_flip(job->m, x, f, j);
	for (t = s0; t < s1; t++) {
		uint32_t gi = job->segs[t].g;
		d += group_set(job, x, f, gi, cur[gi], cand[t - s0]);
		cur[gi] = cand[t - s0];
	}
	return d;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Default β range for group moves, from the uphill moves out of a few local
 * minima (random states, the same for every seed, improved by moves until
 * none lowers the energy): the hot end accepts the 10th percentile of them
 * with probability 1/2, the cold end the smallest (not below 1e-3 of the
 * largest) with probability 1/100. */
static int gm_default_betas(const gm_job *job, const qubo_allocator *a, double *bh, double *bc)
{
	enum { STATES = 4, PASSES = 100 };
	size_t cnt = 0, i, k, pass;
	double *up, lo = HUGE_VAL, hi, e, e0;
	qubo__rng g;

	*bh = 0.1;
	*bc = 1.0;
	if (!job->nmov)
		return QUBO_OK;
	up = qubo__malloc_array(a, job->nmov * STATES, sizeof *up);
	if (!up)
		return qubo__nomem("group moves: the default β range");
	for (i = 0; i < STATES; i++) {
		qubo__rng_stream(&g, 0x5eed, i);
		e = gm_start(job, job->x, job->f, job->cur, job->lsum, &g, i);
		for (pass = 0; pass < PASSES; pass++) {
			e0 = e;
			for (k = 0; k < job->nmov; k++)
				if (gm_move_delta(job, k, job->x, job->f, job->cur, job->cand,
						  job->lsum) < -1e-9 * (1.0 + fabs(e)))
					e += gm_apply(job, k, job->x, job->f, job->cur, job->cand);
			if (!(e < e0 - 1e-9 * (1.0 + fabs(e0))))
				break;
		}
		for (k = 0; k < job->nmov; k++) {
			double d = gm_move_delta(job, k, job->x, job->f, job->cur, job->cand,
						 job->lsum);
			if (d > 0 && qubo__is_finite(d))
				up[cnt++] = d;
		}
	}
	if (cnt) {
		qsort(up, cnt, sizeof *up, cmp_double);
		hi = up[(cnt - 1) / 10];
		for (i = 0; i < cnt; i++)
			if (up[i] >= 1e-3 * up[cnt - 1]) {
				lo = up[i];
				break;
			}
		*bh = log(2.0) / hi;
		*bc = log(100.0) / lo;
		if (*bc < 2.0 * *bh)
			*bc = 2.0 * *bh;
	}
	qubo__free(a, up);
	return QUBO_OK;
}

static inline double uniform01(qubo__rng *g)
{
	return (double)(qubo__rng_next(g) >> 11) * 0x1p-53;
}

static int gm_unit(qubo__pool *rn, unsigned w, size_t r)
{
	gm_job *job = rn->arg;
	const qubo_model *m = job->m;
	size_t n = m->n, k, sweep;
	uint8_t *x = job->x + (size_t)w * n, *best = job->best + (size_t)w * n;
	double *f = job->f + (size_t)w * n;
	uint32_t *cur = job->cur + (size_t)w * job->ng, *cand = job->cand + (size_t)w * job->max_segs;
	double *lsum = job->lsum + ((size_t)w << GROUP_EXACT_MAX);
	uint64_t flips = 0;
	double e, best_e;
	qubo__rng g;

	qubo__rng_stream(&g, rn->seed, job->first_read + r);
	e = best_e = gm_start(job, x, f, cur, lsum, &g, r);
	memcpy(best, x, n);
	qubo__pool_found(rn, e);
	for (sweep = 0; sweep < job->sweeps && !qubo__pool_stopped(rn); sweep++) {
		double beta = sweep + 1 >= job->sweeps
				      ? job->beta_cold
				      : job->beta_hot * exp(job->log_ratio * (double)sweep /
							    (double)(job->sweeps - 1));
		for (k = 0; k < job->nmov; k++) {
			double d = gm_move_delta(job, k, x, f, cur, cand, lsum);

			flips++;
			if (d > 0.0 && (beta * d > 40.0 || uniform01(&g) >= exp(-beta * d)))
				continue;
			e += gm_apply(job, k, x, f, cur, cand);
		}
		if (e < best_e || sweep % RESYNC == RESYNC - 1) {
			/* exact fields and energy, now and then and for an improved
			 * state: rounding cannot pile up */
			e = qubo__ls_init(m, x, f);
			if (e < best_e) {
				best_e = e;
				memcpy(best, x, n);
				qubo__pool_found(rn, e);
			}
		}
	}
	if (!job->keep_lowest) { /* the final state, exactly */
		best_e = qubo__ls_init(m, x, f);
		best = x;
	}
	memcpy(job->samples + r * n, best, n);
	job->energies[r] = best_e;
	job->flips[w] += flips;
	qubo__pool_report(rn, 1, best_e);
	return QUBO_OK;
}

/* Whether a group is enumerated, given nq table entries so far (the same
 * answer in both passes of gm_prepare: nq grows the same way). */
static int enumerated(const qubo__group *g, size_t nq)
{
	return g->count <= GROUP_EXACT_MAX && nq + ((size_t)1 << g->count) <= TABLE_BUDGET;
}

/* Group tables: which variables move, which groups each touches, and the
 * internal couplings Q of every enumerated group. */
static int gm_prepare(gm_job *job, const qubo_allocator *a)
{
	const qubo_model *m = job->m;
	size_t n = m->n, i, k, nq = 0, nsegs = 0, gi;
	uint32_t *gid;
	int rc = QUBO_OK;

	gid = qubo__malloc_array(a, n ? n : 1, sizeof *gid);
	if (!gid)
		return qubo__nomem("group moves: the variable map");
	for (i = 0; i < n; i++)
		gid[i] = NONE;
	for (i = 0; i < m->num_groups; i++)
		if (enumerated(&m->groups[i], nq)) {
			job->ng++;
			nq += (size_t)1 << m->groups[i].count;
		}
	job->gfirst = qubo__malloc_array(a, job->ng ? job->ng : 1, sizeof *job->gfirst);
	job->gk = qubo__malloc_array(a, job->ng ? job->ng : 1, sizeof *job->gk);
	job->qoff = qubo__malloc_array(a, job->ng ? job->ng : 1, sizeof *job->qoff);
	job->q = qubo__calloc_array(a, nq ? nq : 1, sizeof *job->q);
	job->mov = qubo__malloc_array(a, n ? n : 1, sizeof *job->mov);
	job->seg_start = qubo__malloc_array(a, n + 1, sizeof *job->seg_start);
	if (!job->gfirst || !job->gk || !job->qoff || !job->q || !job->mov || !job->seg_start) {
		rc = qubo__nomem("group moves: the group tables");
		goto out;
	}
	for (i = 0, gi = 0, nq = 0; i < m->num_groups; i++) {
		uint32_t first = m->groups[i].first, cnt = m->groups[i].count, b;
		double *q;
		if (!enumerated(&m->groups[i], nq))
			continue;
		job->gfirst[gi] = first;
		job->gk[gi] = cnt;
		job->qoff[gi] = nq;
		q = job->q + nq;
		for (b = 0; b < cnt; b++)
			gid[first + b] = (uint32_t)gi;
		/* Q[p] = Q[p without its lowest variable b] + Σ J_bl over the
		 * others l of p */
		for (uint32_t p = 1; p < (1u << cnt); p++) {
			uint32_t lo = ctz32(p), v = first + lo;
			double add = 0.0;
			for (k = m->row[v]; k < m->row[v + 1]; k++) {
				uint32_t c = m->col[k];
				if (c > v && c < first + cnt && (p >> (c - first) & 1u))
					add += m->val[k];
			}
			q[p] = q[p & (p - 1)] + add;
		}
		nq += (size_t)1 << cnt;
		gi++;
	}
	/* movable variables and their segments (two passes: count, fill) */
	for (i = 0; i < n; i++) {
		uint32_t last = NONE;
		if (gid[i] != NONE)
			continue;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			uint32_t gg = gid[m->col[k]];
			if (gg != NONE && gg != last)
				nsegs++;
			last = gg;
		}
	}
	job->segs = qubo__malloc_array(a, nsegs ? nsegs : 1, sizeof *job->segs);
	if (!job->segs) {
		rc = qubo__nomem("group moves: the move lists");
		goto out;
	}
	nsegs = 0;
	for (i = 0; i < n; i++) {
		uint32_t last = NONE;
		size_t s0 = nsegs;
		if (gid[i] != NONE)
			continue;
		job->seg_start[job->nmov] = nsegs;
		job->mov[job->nmov++] = (uint32_t)i;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			uint32_t gg = gid[m->col[k]];
			if (gg != NONE && gg == last) {
				job->segs[nsegs - 1].len++;
			} else if (gg != NONE) {
				job->segs[nsegs].pos = k;
				job->segs[nsegs].g = gg;
				job->segs[nsegs].len = 1;
				nsegs++;
			}
			last = gg;
		}
		if (nsegs - s0 > job->max_segs)
			job->max_segs = nsegs - s0;
	}
	job->seg_start[job->nmov] = nsegs;
out:
	qubo__free(a, gid);
	return rc;
}

int qubo__sa_groups_sample(const qubo_model *m, const qubo__sa_params *p, const qubo__run *run,
			   uint8_t *samples, double *energies, qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__pool rn;
	gm_job job;
	size_t n = m->n, nn = n ? n : 1;
	double bh = p->beta_hot, bc = p->beta_cold;
	unsigned w;
	int rc;

	memset(res, 0, sizeof *res);
	rc = qubo__model_require_bounded(m, "simulated annealing");
	if (rc)
		return rc;
	qubo__pool_init_run(&rn, run, run->num_reads, gm_unit, &job);
	memset(&job, 0, sizeof job);
	job.m = m;
	job.first_read = run->first_read;
	job.sweeps = p->num_sweeps;
	job.keep_lowest = p->keep_lowest;
	job.samples = samples;
	job.energies = energies;
	rc = gm_prepare(&job, a);
	if (rc)
		goto out;
	w = rn.num_workers;
	job.x = qubo__malloc_array(a, w, nn);
	job.best = qubo__malloc_array(a, w, nn);
	job.f = qubo__malloc_array(a, (size_t)w * nn, sizeof *job.f);
	job.cur = qubo__malloc_array(a, (size_t)w * (job.ng ? job.ng : 1), sizeof *job.cur);
	job.cand = qubo__malloc_array(a, (size_t)w * (job.max_segs ? job.max_segs : 1),
				      sizeof *job.cand);
	job.lsum = qubo__malloc_array(a, (size_t)w << GROUP_EXACT_MAX, sizeof *job.lsum);
	job.flips = qubo__calloc_array(a, w, sizeof *job.flips);
	if (!job.x || !job.best || !job.f || !job.cur || !job.cand || !job.lsum || !job.flips) {
		rc = qubo__nomem("simulated annealing with group moves: work arrays");
		goto out;
	}
	if (bh == 0 && bc == 0)
		rc = gm_default_betas(&job, a, &bh, &bc);
	if (rc)
		goto out;
	job.beta_hot = bh;
	job.beta_cold = bc;
	job.log_ratio = bh > 0 ? log(bc / bh) : 0.0;
	rc = qubo__pool_exec_run(&rn, res);
	for (w = 0; w < rn.num_workers; w++)
		res->flips += job.flips[w];
out:
	qubo__free(a, job.gfirst);
	qubo__free(a, job.gk);
	qubo__free(a, job.qoff);
	qubo__free(a, job.q);
	qubo__free(a, job.mov);
	qubo__free(a, job.seg_start);
	qubo__free(a, job.segs);
	qubo__free(a, job.x);
	qubo__free(a, job.best);
	qubo__free(a, job.f);
	qubo__free(a, job.cur);
	qubo__free(a, job.cand);
	qubo__free(a, job.lsum);
	qubo__free(a, job.flips);
	return rc;
}
