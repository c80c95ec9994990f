/* Tabu search: one-flip moves, a tenure, aspiration, and restarts from an
 * elite pool of the best states found, perturbed or relinked.
 *
 * Two engines pick the moves. On a model whose weights are all multiples
 * of one power of two, with every flip's change within 2^20 of those units
 * (Max-Cut graphs, puzzle models), the variables sit in bucket lists by
 * their exact energy change, the tabu ones in lists of their own, so the
 * best move is found in amortised constant time and a flip costs its row.
 * On other models each iteration scans the energy change of every
 * variable. */
#include <math.h>
#include <string.h>

#include "localsearch.h"
#include "runner.h"
#include "solver_impl.h"

#define TB_ELITE 8           /* elite states kept per read */
#define TB_MAX_DELTA (1 << 20) /* largest |ΔE|, in those units, it takes */
#define TB_NONE UINT32_MAX

typedef struct tb_node { /* a variable of the bucket engine */
	uint32_t next, prev; /* in its list */
	uint32_t key;        /* its list */
	int32_t f;           /* its field in units */
} tb_node;

typedef struct tabu_ws { /* one worker's arrays */
	uint8_t *x, *best, *elite;
	double *f;              /* real engine: fields */
	tb_node *nd;            /* bucket engine: n variables, then nkeys heads */
	uint32_t n;
	uint32_t nkeys;         /* bucket engine: lists, 2 (2 off + 1) */
	uint32_t lo;            /* bucket engine: no nonempty list below */
	uint32_t *ring;         /* the last tenure + 1 moves, by iteration */
	uint64_t *until;        /* iteration before which a variable is tabu */
	uint32_t *diff;         /* relinking: the variables two states differ in */
	double elite_e[TB_ELITE];
	size_t nelite;
	uint64_t flips;
} tabu_ws;

typedef struct tabu_job {
	const qubo_model *m;
	const uint8_t *initial;
	uint64_t first_read; /* read r draws from the stream of first_read + r */
	uint8_t *samples;
	double *energies;
	double eps;
	size_t tenure, iterations, restarts;
	/* the bucket engine, when the model allows it (ih != NULL) */
	int32_t *ih, *ival;  /* h and the CSR weights in units of 2^−shift */
	int shift;
	uint32_t nkeys;      /* lists: 2 (2 off + 1) */
	int64_t off;
	tabu_ws *ws;
} tabu_job;

/* ---- the bucket engine ---- */

/* Every variable sits in one circular list, by its energy change d in
 * units: list 2 (d + off) while it is free, 2 (d + off) + 1 while it is
 * tabu, so that the lists run by d, a free one before the tabu one of the
 * same d. Node n + k heads list k. */
static inline uint32_t tb_key(const tabu_job *job, const tabu_ws *s, uint32_t i, uint32_t tabu)
{
	const int32_t f = s->nd[i].f, neg = -(int32_t)s->x[i];

	return 2 * (uint32_t)(((f ^ neg) - neg) + job->off) + tabu;
}

static inline int64_t tb_d(const tabu_job *job, uint32_t key)
{
	return (int64_t)(key >> 1) - job->off;
}

static inline void tb_insert(tabu_ws *s, uint32_t i, uint32_t k)
{
	tb_node *v = &s->nd[i];
	const uint32_t h = s->n + k, t = s->nd[h].next;

	v->key = k;
	v->prev = h;
	v->next = t;
	s->nd[t].prev = i;
	s->nd[h].next = i;
	if (k < s->lo)
		s->lo = k;
}

static inline void tb_remove(tabu_ws *s, uint32_t i)
{
	const tb_node *v = &s->nd[i];

	s->nd[v->prev].next = v->next;
	s->nd[v->next].prev = v->prev;
}

/* Fields of x in units; every variable free. Returns E − offset in units. */
static int64_t tb_init(const tabu_job *job, tabu_ws *s)
{
	const qubo_model *m = job->m;
	int64_t e = 0;
	size_t i, k;

	for (k = s->n; k < s->n + (size_t)s->nkeys; k++)
		s->nd[k].next = s->nd[k].prev = (uint32_t)k;
	s->lo = s->nkeys;
	for (i = 0; i < m->n; i++) {
		int32_t v = job->ih[i];
		for (k = m->row[i]; k < m->row[i + 1]; k++)
			if (s->x[m->col[k]])
				v += job->ival[k];
		s->nd[i].f = v;
		if (s->x[i])
			e += (int64_t)v + job->ih[i];
	}
	for (i = m->n; i-- > 0;)
		tb_insert(s, (uint32_t)i, tb_key(job, s, (uint32_t)i, 0));
	return e / 2; /* Σ x_i (f_i + h_i) = 2 (E − offset) */
}

/* Flips x_k, which becomes tabu or free, and moves each neighbour to the
 * list of its new energy change. (Locals throughout: the list stores could
 * otherwise alias s->n.) */
static void tb_flip(const tabu_job *job, tabu_ws *s, uint32_t k, uint32_t tabu)
{
	const qubo_model *m = job->m;
	const int32_t sg = s->x[k] ? -1 : 1, off = (int32_t)job->off;
	const uint32_t *col = m->col, n = s->n;
	const int32_t *w = job->ival;
	const uint8_t *x = s->x;
	tb_node *nd = s->nd;
	size_t p, end = m->row[k + 1];
	uint32_t lo;

	tb_remove(s, k);
	s->x[k] ^= 1;
	tb_insert(s, k, tb_key(job, s, k, tabu));
	lo = s->lo;
	for (p = m->row[k]; p < end; p++) {
		const uint32_t j = col[p];
		tb_node *v = nd + j;
		const int32_t f = v->f + sg * w[p];
		const int32_t neg = -(int32_t)x[j]; /* no branch on a random bit */
		const uint32_t key = 2 * (uint32_t)(((f ^ neg) - neg) + off) + (v->key & 1);
		const uint32_t h = n + key, t = nd[h].next;
		nd[v->prev].next = v->next;
		nd[v->next].prev = v->prev;
		v->f = f;
		v->key = key;
		v->prev = h;
		v->next = t;
		nd[t].prev = j;
		nd[h].next = j;
		lo = key < lo ? key : lo;
	}
	s->lo = lo;
}

/* The move: the best free one, unless a tabu one lowers the energy below
 * be and below what the best free one would (aspiration); when every
 * variable is tabu, the best tabu move. Ties among free moves go to the
 * r-th of the list (cyclically) for a random r < 8. Returns TB_NONE for
 * n = 0; sets *key to the move's list. */
static uint32_t tb_choose(const tabu_job *job, tabu_ws *s, int64_t e, int64_t be, qubo__rng *g,
			  uint32_t *key)
{
	const uint32_t n = s->n, end = s->nkeys;
	uint32_t k = s->lo, tk = TB_NONE, h, pick, r;

	while (k < end && s->nd[n + k].next == n + k)
		k++;
	s->lo = k; /* nothing below */
	for (; k < end; k++) {
		if (s->nd[n + k].next == n + k)
			continue;
		if (!(k & 1))
			break; /* the best free move */
		if (tk == TB_NONE && e + tb_d(job, k) < be)
			tk = k; /* aspiration */
	}
	if (tk == TB_NONE && k == end)
		tk = s->lo; /* every variable tabu: the best, if any */
	if (tk != TB_NONE && tk < end) {
		*key = tk;
		return s->nd[n + tk].next;
	}
	if (k == end)
		return TB_NONE;
	h = n + k;
	pick = s->nd[h].next;
	for (r = qubo__rng_below(g, 8); r > 0; r--) {
		pick = s->nd[pick].next;
		if (pick == h)
			pick = s->nd[h].next;
	}
	*key = k;
	return pick;
}

/* One round of job->iterations moves from s->x. Leaves its lowest state
 * in s->best and returns its energy, E − offset in units. */
static double tb_search(qubo__pool *rn, const tabu_job *job, tabu_ws *s, qubo__rng *g)
{
	const size_t T = job->tenure;
	const double unit = ldexp(1.0, -job->shift);
	int64_t e = tb_init(job, s), be = e;
	uint64_t it;
	size_t q;

	memcpy(s->best, s->x, job->m->n);
	for (q = 0; q <= T; q++)
		s->ring[q] = TB_NONE;
	for (it = 0; it < job->iterations; it++) {
		const size_t slot = (size_t)(it % (T + 1));
		uint32_t v = s->ring[slot], pick, key;

		if ((it & 255) == 0 && qubo__pool_stopped(rn))
			break;
		/* the move made tenure + 1 iterations ago is free again, unless
		 * the variable moved since (aspiration) */
		if (v != TB_NONE && (s->nd[v].key & 1) && s->until[v] <= it) {
			key = s->nd[v].key - 1;
			tb_remove(s, v);
			tb_insert(s, v, key);
		}
		pick = tb_choose(job, s, e, be, g, &key);
		if (pick == TB_NONE)
			break;
		tb_flip(job, s, pick, 1);
		e += tb_d(job, key);
		s->until[pick] = it + 1 + T;
		s->ring[slot] = pick;
		s->flips++;
		if (e < be) {
			be = e;
			memcpy(s->best, s->x, job->m->n);
			qubo__pool_found(rn, job->m->offset + (double)e * unit);
		}
	}
	return (double)be;
}

/* ---- the scanning engine ---- */

/* Picks the move: the best non-tabu flip, or a tabu flip that would beat the
 * best energy (aspiration); ties are broken at random. When every move is
 * tabu and none aspires, the best move overall. */
static size_t choose(const tabu_job *job, const tabu_ws *s, uint64_t it, double e,
		     double best_e, qubo__rng *g)
{
	size_t n = job->m->n, i, pick = 0, any = 0;
	double pick_d = 0.0, any_d = 0.0;
	uint32_t ties = 0, any_ties = 0;
	int found = 0;

	for (i = 0; i < n; i++) {
		double d = qubo__ls_delta(s->x, s->f, i);
		int allowed = s->until[i] <= it || e + d < best_e - job->eps;
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

/* tb_search's round by scanning; the energy it returns is E. */
static double scan_search(qubo__pool *rn, const tabu_job *job, tabu_ws *s, qubo__rng *g)
{
	const qubo_model *m = job->m;
	double e = qubo__ls_init(m, s->x, s->f), be = e;
	uint64_t it;

	memcpy(s->best, s->x, m->n);
	memset(s->until, 0, m->n * sizeof *s->until);
	for (it = 0; it < job->iterations; it++) {
		size_t k;
		if (qubo__pool_stopped(rn))
			break;
		k = choose(job, s, it, e, be, g);
		e += qubo__ls_delta(s->x, s->f, k);
		qubo__ls_flip(m, s->x, s->f, k);
		s->until[k] = it + 1 + job->tenure;
		s->flips++;
		if (e < be - job->eps) {
			be = e;
			memcpy(s->best, s->x, m->n);
			qubo__pool_found(rn, e);
		}
	}
	return be;
}

/* ---- restarts ---- */

/* Keeps s->best (energy e) among the read's elite states unless it is
 * there already or no better than all of a full pool. */
static void elite_add(tabu_ws *s, size_t n, double e)
{
	size_t i, worst = 0;

	for (i = 0; i < s->nelite; i++) {
		if (s->elite_e[i] == e && !memcmp(s->elite + i * n, s->best, n))
			return;
		if (s->elite_e[i] > s->elite_e[worst])
			worst = i;
	}
	if (s->nelite < TB_ELITE)
		worst = s->nelite++;
	else if (!(e < s->elite_e[worst]))
		return;
	memcpy(s->elite + worst * n, s->best, n);
	s->elite_e[worst] = e;
}

/* The start of a restart, in s->x: half of a greedy path from one elite
 * state to another (relinking), or an elite state with n/8 random flips. */
static void restart_state(const tabu_job *job, tabu_ws *s, qubo__rng *g)
{
	const size_t n = job->m->n;
	size_t a = qubo__rng_below(g, (uint32_t)s->nelite), i, nd = 0, steps;

	memcpy(s->x, s->elite + a * n, n);
	if (s->nelite >= 2 && qubo__rng_below(g, 2)) {
		size_t b = (a + 1 + qubo__rng_below(g, (uint32_t)s->nelite - 1)) % s->nelite;
		const uint8_t *y = s->elite + b * n;
		for (i = 0; i < n; i++)
			if (s->x[i] != y[i])
				s->diff[nd++] = (uint32_t)i;
		if (job->ih) /* the fields of x */
			(void)tb_init(job, s);
		else
			(void)qubo__ls_init(job->m, s->x, s->f);
		for (steps = nd / 2; steps > 0; steps--, nd--) {
			size_t j, k = 0;
			double dk = HUGE_VAL;
			for (j = 0; j < nd; j++) {
				uint32_t v = s->diff[j];
				double dv = job->ih ? (double)tb_d(job, tb_key(job, s, v, 0))
						    : qubo__ls_delta(s->x, s->f, v);
				if (dv < dk) {
					dk = dv;
					k = j;
				}
			}
			if (job->ih)
				tb_flip(job, s, s->diff[k], 0);
			else
				qubo__ls_flip(job->m, s->x, s->f, s->diff[k]);
			s->diff[k] = s->diff[nd - 1];
		}
		return;
	}
	for (i = n / 8 ? n / 8 : 1; i > 0; i--)
		s->x[qubo__rng_below(g, (uint32_t)n)] ^= 1;
}

static int tabu_unit(qubo__pool *rn, unsigned w, size_t r)
{
	tabu_job *job = rn->arg;
	tabu_ws *s = &job->ws[w];
	const size_t n = job->m->n;
	double e;
	size_t rs;
	qubo__rng g;

	qubo__rng_stream(&g, rn->seed, job->first_read + r);
	qubo__ls_start(s->x, n, job->initial, r, &g);
	s->nelite = 0;
	qubo__pool_found(rn, qubo__ls_init(job->m, s->x, s->f));
	for (rs = 0; n && rs <= job->restarts && !qubo__pool_stopped(rn); rs++) {
		if (rs)
			restart_state(job, s, &g);
		/* each round's lowest state joins the elite */
		e = job->ih ? tb_search(rn, job, s, &g) : scan_search(rn, job, s, &g);
		elite_add(s, n, e);
	}
	/* the read's answer: its lowest elite state (its start when stopped
	 * before a round), exactly */
	if (s->nelite) {
		size_t i, lo = 0;
		for (i = 1; i < s->nelite; i++)
			if (s->elite_e[i] < s->elite_e[lo])
				lo = i;
		memcpy(s->x, s->elite + lo * n, n);
	}
	if (n) /* samples may be NULL when n is 0 */
		memcpy(job->samples + r * n, s->x, n);
	e = qubo__ls_init(job->m, s->x, s->f);
	job->energies[r] = e;
	qubo__pool_report(rn, 1, e);
	return QUBO_OK;
}

/* The bucket engine's units (qubo__ls_units), with node numbers (variables,
 * then list heads) below TB_NONE. Returns 0 when the model is not of that
 * kind. */
static int bucket_units(const qubo_model *m, int *shift_out, int64_t *off_out)
{
	if (m->n > TB_NONE - 4 * (size_t)TB_MAX_DELTA - 2)
		return 0;
	return qubo__ls_units(m, TB_MAX_DELTA, shift_out, off_out);
}

int qubo__tabu_buckets(const qubo_model *m)
{
	int shift;
	int64_t off;

	return bucket_units(m, &shift, &off);
}

static void free_ws(const qubo_allocator *a, tabu_ws *ws, unsigned count)
{
	unsigned w;

	for (w = 0; ws && w < count; w++) {
		tabu_ws *s = &ws[w];
		void *p[] = { s->x, s->best, s->elite, s->f, s->nd, s->ring, s->until,
			      s->diff };
		size_t i;
		for (i = 0; i < sizeof p / sizeof p[0]; i++)
			qubo__free(a, p[i]);
	}
	qubo__free(a, ws);
}

static int alloc_ws(const qubo_allocator *a, const tabu_job *job, tabu_ws *s)
{
	const size_t n = job->m->n ? job->m->n : 1;

	s->x = qubo__malloc(a, n);
	s->best = qubo__malloc(a, n);
	s->elite = qubo__malloc_array(a, TB_ELITE, n);
	s->f = qubo__malloc_array(a, n, sizeof *s->f);
	s->ring = qubo__malloc_array(a, job->tenure + 1, sizeof *s->ring);
	s->until = qubo__malloc_array(a, n, sizeof *s->until);
	s->diff = qubo__malloc_array(a, n, sizeof *s->diff);
	if (!s->x || !s->best || !s->elite || !s->f || !s->ring || !s->until || !s->diff)
		return 0;
	if (!job->ih)
		return 1;
	s->nkeys = job->nkeys;
	s->n = (uint32_t)job->m->n;
	s->nd = qubo__malloc_array(a, job->m->n + (size_t)job->nkeys, sizeof *s->nd);
	return s->nd != NULL;
}

/* The weights in the bucket engine's units, or none when the model does
 * not allow it (job->ih stays NULL). Returns QUBO_OK or out of memory. */
static int prepare_units(const qubo_allocator *a, tabu_job *job)
{
	const qubo_model *m = job->m;
	size_t i, nnz = m->row[m->n];

	if (!bucket_units(m, &job->shift, &job->off))
		return QUBO_OK;
	job->nkeys = (uint32_t)(2 * (2 * job->off + 1));
	job->ih = qubo__malloc_array(a, m->n ? m->n : 1, sizeof *job->ih);
	job->ival = qubo__malloc_array(a, nnz ? nnz : 1, sizeof *job->ival);
	if (!job->ih || !job->ival)
		return qubo__nomem("tabu search's weights");
	for (i = 0; i < m->n; i++)
		job->ih[i] = (int32_t)ldexp(m->h[i], job->shift);
	for (i = 0; i < nnz; i++)
		job->ival[i] = (int32_t)ldexp(m->val[i], job->shift);
	return QUBO_OK;
}

int qubo__tabu_sample(const qubo_model *m, const qubo__tabu_params *p, const qubo__run *run,
		      const uint8_t *initial, uint8_t *samples, double *energies,
		      qubo__result *res)
{
	const qubo_allocator *a = run->alloc;
	qubo__pool rn;
	tabu_job job;
	size_t n = m->n;
	unsigned w;
	int rc;

	memset(res, 0, sizeof *res);
	if (p->tenure_set && n && p->tenure >= n)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "option tenure is %zu; it must be below "
				   "the number of variables, %zu", p->tenure, n);
	qubo__pool_init_run(&rn, run, run->num_reads, tabu_unit, &job);
	memset(&job, 0, sizeof job);
	job.m = m;
	job.initial = initial;
	job.first_read = run->first_read;
	job.samples = samples;
	job.energies = energies;
	job.eps = qubo__ls_eps(m);
	/* min(20, n/4), and n/20 on large models, where 20 is too short a
	 * memory to leave the basin of a local minimum (the G-set graphs) */
	job.tenure = p->tenure_set ? p->tenure : n / 4 < 20 ? n / 4 : n / 20 > 20 ? n / 20 : 20;
	job.iterations = p->num_iterations ? p->num_iterations : (n * 10 > 1000 ? n * 10 : 1000);
	job.restarts = p->num_restarts;
	rc = prepare_units(a, &job);
	if (rc)
		goto out;
	job.ws = qubo__calloc_array(a, rn.num_workers, sizeof *job.ws);
	if (!job.ws) {
		rc = qubo__nomem("tabu search's work arrays");
		goto out;
	}
	for (w = 0; w < rn.num_workers; w++) {
		if (!alloc_ws(a, &job, &job.ws[w])) {
			rc = qubo__nomem("tabu search's work arrays");
			goto out;
		}
	}
	rc = qubo__pool_exec_run(&rn, res);
	for (w = 0; w < rn.num_workers; w++)
		res->flips += job.ws[w].flips;
out:
	free_ws(a, job.ws, rn.num_workers);
	qubo__free(a, job.ih);
	qubo__free(a, job.ival);
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
	{ QUBO_PARAM_TENURE, QUBO_TYPE_INT, 0, 1e9, 0, "min(20, n/4), or n/20 if larger",
	  "iterations a flipped variable stays tabu; below n" },
	{ QUBO_PARAM_NUM_ITERATIONS, QUBO_TYPE_INT, 1, 1e15, 0, "max(1000, 10 n)",
	  "iterations per restart" },
	{ QUBO_PARAM_NUM_RESTARTS, QUBO_TYPE_INT, 0, 1e9, 0, "3",
	  "restarts per read from its elite states, perturbed or relinked" },
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

QUBO__BUILTIN(tabu, "tabu", qubo__builtin_sample_from_slot,
	      "one-flip tabu search with aspiration and restarts from elite states", tabu_params,
	      tabu_run);
