/*
 * Exhaustive enumeration of all 2^n states.
 *
 * Variables are split in three: the low L (<= 12) variables, the middle ones
 * and the top t (<= 6) ones. The top bits fix a block; the 2^t blocks are
 * the units handed to worker threads (the split depends only on n, so the
 * results do not depend on the number of threads). Within a block the middle
 * bits run through a Gray code, one flip per step with an incremental energy
 * change read from the CSR row of the flipped variable. For each middle
 * state the 2^L low states are scanned at two additions each:
 *
 *   E(x) = T[low] + Σ_{i low} c_i x_i + E_high,
 *
 * where T (shared, computed once) is the energy of the low variables among
 * themselves, c_i the coupling of low variable i to the set high variables,
 * and E_high the energy of the high variables with the offset. The linear
 * part Σ c_i x_i is split into two tables of 2^(L/2) entries each. E_high
 * and c are recomputed exactly every 64 middle steps, so rounding does not
 * accumulate.
 *
 * Ground-state mode keeps, per worker, the lowest energy level seen, how
 * many states lie within a tolerance of it, and the lexicographically
 * smallest of them up to a cap. k-lowest mode keeps the k smallest states in
 * the order (energy, bytes). Both are total orders over states, so merging
 * the workers' results gives the same answer however blocks were shared.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "solver_impl.h"

#define LOW_BITS 12
#define TOP_BITS 6
#define RESYNC_MASK 63u
#define DEFAULT_MAX_GROUND 65536

typedef struct exh_pair {
	double e;
	uint64_t key;
} exh_pair;

typedef struct exh_worker {
	/* results */
	int has;
	double ref;      /* ground mode: the lowest level seen */
	double best;     /* lowest energy seen */
	uint64_t count;  /* ground mode: states within tol of ref */
	uint64_t *keys;  /* ground mode: max-heap of keys */
	exh_pair *pairs; /* k mode: max-heap of (energy, key) */
	size_t size;
	uint64_t visited;
	/* scratch */
	double c[LOW_BITS];
	double da[1u << (LOW_BITS / 2)];
	double db[1u << (LOW_BITS - LOW_BITS / 2)];
	char pad[64]; /* keeps workers' hot fields on separate cache lines */
} exh_worker;

typedef struct exh_job {
	const qubo_model *m;
	unsigned n, low, a, b, mid, top;
	size_t cap;     /* heap capacity per worker */
	size_t k;       /* k mode: k; 0: ground mode */
	double tol;
	double *t;      /* 2^low energies of the low variables */
	exh_worker *w;
} exh_job;

/* The lexicographic key of a state: x_0 is the most significant bit. */
static uint64_t lex_key(uint64_t state, unsigned n)
{
	uint64_t r = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		r |= ((state >> i) & 1) << (n - 1 - i);
	return r;
}

static int pair_less(const exh_pair *x, const exh_pair *y)
{
	return x->e < y->e || (x->e == y->e && x->key < y->key);
}

static void key_sift_down(uint64_t *h, size_t size)
{
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, big = i;
		if (l < size && h[l] > h[big])
			big = l;
		if (r < size && h[r] > h[big])
			big = r;
		if (big == i)
			return;
		{
			uint64_t t = h[i];
			h[i] = h[big];
			h[big] = t;
		}
		i = big;
	}
}

static void key_push(uint64_t *h, size_t *size, uint64_t key)
{
	size_t i = (*size)++;

	h[i] = key;
	while (i && h[(i - 1) / 2] < h[i]) {
		uint64_t t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void pair_sift_down(exh_pair *h, size_t size)
{
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, big = i;
		if (l < size && pair_less(&h[big], &h[l]))
			big = l;
		if (r < size && pair_less(&h[big], &h[r]))
			big = r;
		if (big == i)
			return;
		{
			exh_pair t = h[i];
			h[i] = h[big];
			h[big] = t;
		}
		i = big;
	}
}

static void pair_push(exh_pair *h, size_t *size, exh_pair p)
{
	size_t i = (*size)++;

	h[i] = p;
	while (i && pair_less(&h[(i - 1) / 2], &h[i])) {
		exh_pair t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* Records state with energy e; returns the new scan threshold. */
static double hit(const exh_job *job, exh_worker *w, qubo__pool *rn, uint64_t state, double e)
{
	uint64_t key = lex_key(state, job->n);

	if (!w->has || e < w->best) {
		w->best = e;
		qubo__pool_found(rn, e);
	}
	if (job->k) {
		exh_pair p = { e, key };
		if (w->size < job->cap) {
			pair_push(w->pairs, &w->size, p);
		} else if (pair_less(&p, &w->pairs[0])) {
			w->pairs[0] = p;
			pair_sift_down(w->pairs, w->size);
		}
		w->has = 1;
		return w->size < job->cap ? HUGE_VAL : w->pairs[0].e;
	}
	if (!w->has || e < w->ref - job->tol) {
		w->has = 1;
		w->ref = e;
		w->count = 0;
		w->size = 0;
	}
	w->count++;
	if (w->size < job->cap) {
		key_push(w->keys, &w->size, key);
	} else if (key < w->keys[0]) {
		w->keys[0] = key;
		key_sift_down(w->keys, w->size);
	}
	return w->ref + job->tol;
}

/* Exact E_high and c for the high part of state. */
static double exact_high(const exh_job *job, uint64_t state, double *c)
{
	const qubo_model *m = job->m;
	double e = m->offset;
	unsigned v;
	size_t p;

	memset(c, 0, job->low * sizeof *c);
	for (v = job->low; v < job->n; v++) {
		if (!((state >> v) & 1))
			continue;
		e += m->h[v];
		for (p = m->row[v]; p < m->row[v + 1]; p++) {
			uint32_t j = m->col[p];
			if (j < job->low)
				c[j] += m->val[p];
			else if (j > v && ((state >> j) & 1))
				e += m->val[p];
		}
	}
	return e;
}

/* Flips high variable v of *state; returns the energy change of the high
 * part and updates c. */
static double flip_high(const exh_job *job, uint64_t *state, unsigned v, double *c)
{
	const qubo_model *m = job->m;
	double s = ((*state >> v) & 1) ? -1.0 : 1.0, acc = m->h[v];
	size_t p;

	for (p = m->row[v]; p < m->row[v + 1]; p++) {
		uint32_t j = m->col[p];
		if (j < job->low)
			c[j] += s * m->val[p];
		else if ((*state >> j) & 1)
			acc += m->val[p];
	}
	*state ^= (uint64_t)1 << v;
	return s * acc;
}

static int exh_unit(qubo__pool *rn, unsigned wi, size_t u)
{
	const exh_job *job = rn->arg;
	exh_worker *w = &job->w[wi];
	const unsigned a = job->a, b = job->b;
	const size_t na = (size_t)1 << a, nb = (size_t)1 << b;
	const uint64_t steps = (uint64_t)1 << job->mid;
	uint64_t state = (uint64_t)u << (job->low + job->mid), s;
	double *c = w->c, *da = w->da, *db = w->db;
	double e_high = exact_high(job, state, c);
	double thr = HUGE_VAL;
	size_t i, xa, xb;

	if (w->has)
		thr = job->k ? (w->size < job->cap ? HUGE_VAL : w->pairs[0].e) : w->ref + job->tol;
	for (s = 0; s < steps; s++) {
		if (s && !(s & RESYNC_MASK))
			e_high = exact_high(job, state, c);
		/* da[xa] = Σ c_i over the set bits of xa; db adds E_high */
		da[0] = 0.0;
		for (i = 1; i < na; i++)
			da[i] = da[i & (i - 1)] + c[__builtin_ctzll(i)];
		db[0] = e_high;
		for (i = 1; i < nb; i++)
			db[i] = db[i & (i - 1)] + c[a + (unsigned)__builtin_ctzll(i)];
		for (xb = 0; xb < nb; xb++) {
			const double *t = job->t + (xb << a);
			const double base = db[xb];
			for (xa = 0; xa < na; xa++) {
				double e = t[xa] + da[xa] + base;
				if (e <= thr)
					thr = hit(job, w, rn, state | (xb << a) | xa, e);
			}
		}
		w->visited += (uint64_t)na * nb;
		if (s + 1 < steps) {
			if (qubo__pool_stopped(rn))
				break;
			e_high += flip_high(job, &state,
					    job->low + (unsigned)__builtin_ctzll(s + 1), c);
		}
	}
	qubo__pool_report(rn, 1, w->has ? w->best : HUGE_VAL);
	return QUBO_OK;
}

/* T[x]: energy of the low variables among themselves (no offset). */
static void low_table(const exh_job *job)
{
	const qubo_model *m = job->m;
	size_t x, p, count = (size_t)1 << job->low;

	job->t[0] = 0.0;
	for (x = 1; x < count; x++) {
		unsigned v = (unsigned)__builtin_ctzll(x);
		size_t rest = x & (x - 1);
		double e = m->h[v];
		for (p = m->row[v]; p < m->row[v + 1]; p++) {
			uint32_t j = m->col[p];
			if (j < job->low && ((rest >> j) & 1))
				e += m->val[p];
		}
		job->t[x] = job->t[rest] + e;
	}
}


static int cmp_key(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

static int cmp_pair(const void *pa, const void *pb)
{
	const exh_pair *a = pa, *b = pb;

	return pair_less(a, b) ? -1 : pair_less(b, a) ? 1 : 0;
}

/* Merges the workers' results into out (keys first, then rows). */
static int merge(const exh_job *job, unsigned workers, const qubo_allocator *a,
		 qubo__exh_output *out)
{
	size_t total = 0, num, i, k;
	uint64_t *keys;
	exh_pair *pairs = NULL;
	double ref = HUGE_VAL;
	unsigned w;
	int any = 0;

	for (w = 0; w < workers; w++) {
		const exh_worker *x = &job->w[w];
		if (!x->has)
			continue;
		if (!job->k && (!any || x->ref < ref))
			ref = x->ref;
		any = 1;
	}
	for (w = 0; w < workers; w++) {
		const exh_worker *x = &job->w[w];
		if (x->has && (job->k || x->ref <= ref + job->tol)) {
			total += x->size;
			if (!job->k)
				out->num_ground_states += x->count;
		}
	}
	keys = qubo__malloc_array(a, total, sizeof *keys);
	if (job->k)
		pairs = qubo__malloc_array(a, total, sizeof *pairs);
	if (!keys || (job->k && !pairs)) {
		qubo__free(a, keys);
		return qubo__nomem("the exhaustive results");
	}
	for (w = 0, k = 0; w < workers; w++) {
		const exh_worker *x = &job->w[w];
		if (!x->has || (!job->k && x->ref > ref + job->tol))
			continue;
		for (i = 0; i < x->size; i++, k++) {
			if (job->k)
				pairs[k] = x->pairs[i];
			else
				keys[k] = x->keys[i];
		}
	}
	num = total;
	if (job->k) {
		qsort(pairs, total, sizeof *pairs, cmp_pair);
		if (num > job->k)
			num = job->k;
		for (i = 0; i < num; i++)
			keys[i] = pairs[i].key;
		qubo__free(a, pairs);
	} else {
		qsort(keys, total, sizeof *keys, cmp_key);
		if (num > job->cap)
			num = job->cap;
	}
	out->states = qubo__malloc_array(a, num, job->n ? job->n : 1);
	if (!out->states) {
		qubo__free(a, keys);
		return qubo__nomem("the exhaustive results");
	}
	for (i = 0; i < num; i++)
		for (k = 0; k < job->n; k++)
			out->states[i * job->n + k] = (uint8_t)((keys[i] >> (job->n - 1 - k)) & 1);
	out->num_states = num;
	qubo__free(a, keys);
	return QUBO_OK;
}

int qubo__exhaustive_sample(const qubo_model *m, const qubo__exh_params *p, const qubo__run *run,
			    qubo__exh_output *out, qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__pool rn;
	exh_job job;
	unsigned w;
	uint64_t space;
	int rc;

	memset(res, 0, sizeof *res);
	memset(out, 0, sizeof *out);
	if (m->n > QUBO_EXHAUSTIVE_MAX_VARIABLES)
		return qubo__too_large(
			QUBO_LIMIT_ENUMERATION_VARIABLES, QUBO_EXHAUSTIVE_MAX_VARIABLES,
			"the model has %zu variables; exhaustive "
			"enumeration is limited to %d (2^%d states)",
			m->n, QUBO_EXHAUSTIVE_MAX_VARIABLES, QUBO_EXHAUSTIVE_MAX_VARIABLES);
	memset(&job, 0, sizeof job);
	job.m = m;
	job.n = (unsigned)m->n;
	job.low = job.n < LOW_BITS ? job.n : LOW_BITS;
	job.a = job.low / 2;
	job.b = job.low - job.a;
	job.top = job.n - job.low < TOP_BITS ? job.n - job.low : TOP_BITS;
	job.mid = job.n - job.low - job.top;
	job.k = p->num_lowest;
	space = (uint64_t)1 << job.n;
	job.cap = job.k ? job.k : (p->max_ground_states ? p->max_ground_states : 1);
	if (job.cap > space)
		job.cap = (size_t)space;
	if (job.k > space)
		job.k = (size_t)space;
	/* a fraction of the weight sum, which bounds every energy */
	job.tol = 1e-10 * qubo__model_weight_sum(m);

	qubo__pool_init_run(&rn, run, (size_t)1 << job.top, exh_unit, &job);

	job.t = qubo__malloc_array(a, (size_t)1 << job.low, sizeof *job.t);
	job.w = qubo__calloc_array(a, rn.num_workers, sizeof *job.w);
	rc = job.t && job.w ? QUBO_OK : qubo__nomem("the exhaustive tables");
	for (w = 0; !rc && w < rn.num_workers; w++) {
		if (job.k)
			job.w[w].pairs = qubo__malloc_array(a, job.cap, sizeof(exh_pair));
		else
			job.w[w].keys = qubo__malloc_array(a, job.cap, sizeof(uint64_t));
		if (!job.w[w].pairs && !job.w[w].keys)
			rc = qubo__nomem("the exhaustive result heaps");
	}
	if (!rc) {
		low_table(&job);
		rc = qubo__pool_exec_run(&rn, res);
	}
	if (!rc)
		rc = merge(&job, rn.num_workers, a, out);
	if (job.w) {
		for (w = 0; w < rn.num_workers; w++) {
			res->flips += job.w[w].visited;
			qubo__free(a, job.w[w].keys);
			qubo__free(a, job.w[w].pairs);
		}
	}
	out->states_visited = res->flips;
	res->reads_done = out->num_states;
	qubo__free(a, job.t);
	qubo__free(a, job.w);
	return rc;
}

/* ---- the backend ---- */

static const qubo__param exh_params[] = {
	{ QUBO_PARAM_NUM_READS, QUBO_TYPE_INT, 1, 2147483647.0, 0, "-",
	  "common key, ignored: one pass enumerates every state" },
	{ QUBO_PARAM_SEED, QUBO_TYPE_INT, -9223372036854775808.0, 9223372036854775807.0, 0,
	  "-", "common key, ignored: enumeration is deterministic" },
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
	{ QUBO_PARAM_NUM_LOWEST, QUBO_TYPE_INT, 0, 1048576.0, 0, "0 (ground states)",
	  "return the k lowest states instead of the ground states" },
	{ QUBO_PARAM_MAX_GROUND_STATES, QUBO_TYPE_INT, 1, 16777216.0, 0, "65536",
	  "ground states stored (all are counted)" },
};


static int exh_run(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		   const qubo_sampleset *initial)
{
	qubo__exh_params p;
	qubo__exh_output out;
	qubo__result res;
	qubo__run run;
	int rc;

	(void)initial;
	qubo__builtin_run(ctx, o, &run);
	p.num_lowest = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_LOWEST, 0);
	p.max_ground_states = (size_t)qubo__builtin_int(o, QUBO_PARAM_MAX_GROUND_STATES,
							DEFAULT_MAX_GROUND);
	rc = qubo__exhaustive_sample(m, &p, &run, &out, &res);
	if (rc)
		return qubo__builtin_fail(ctx, rc);
	rc = qubo__builtin_emit(ctx, out.states, NULL, out.num_states, m->n, out.states_visited,
				out.num_ground_states);
	qubo__free(run.alloc, out.states);
	return rc ? rc : qubo__builtin_status(ctx, res.stop);
}

QUBO__BUILTIN(exhaustive, "exhaustive", NULL,
	      "all 2^n states in Gray-code order (n <= 40); the ground states and their count, "
	      "or the k lowest states",
	      exh_params, exh_run);
