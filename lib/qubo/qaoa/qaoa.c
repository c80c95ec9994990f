/* The QAOA simulator object (qubo/qaoa.h): creation, the energy split, the
 * figures of a state and reads drawn from it. The layers are in layer.c,
 * the optimiser in optimize.c. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "../solvers/rng.h"
#include "pool.h"
#include "qaoa_impl.h"

#define MAX_ITERATIONS 1000000

static size_t low_bits(size_t n)
{
	return n < QUBO__QAOA_RUN_BITS ? n : QUBO__QAOA_RUN_BITS;
}

void qubo__qaoa_run_terms(const qubo_qaoa *q, uint64_t h, double *ehigh, double *c)
{
	double e = q->offset;
	size_t k;
	unsigned i;

	for (i = 0; i < q->L; i++)
		c[i] = 0.0;
	for (i = 0; i + q->L < q->n; i++)
		if ((h >> i) & 1)
			e += q->hd[i];
	for (k = 0; k < q->num_hh; k++) {
		const qubo__qaoa_term *t = &q->hh[k];
		if ((h >> t->a) & (h >> t->b) & 1)
			e += t->w;
	}
	for (k = 0; k < q->num_lh; k++) {
		const qubo__qaoa_term *t = &q->lh[k];
		if ((h >> t->b) & 1)
			c[t->a] += t->w;
	}
	*ehigh = e;
}

void qubo__qaoa_run_energies(const qubo_qaoa *q, uint64_t h, double *e, double *c)
{
	double eh;
	size_t run = (size_t)1 << q->L, k;
	unsigned i;

	qubo__qaoa_run_terms(q, h, &eh, c);
	/* e[l] = E_high + Σ_{i: l_i} c_i by doubling, then + T[l] */
	e[0] = eh;
	for (i = 0; i < q->L; i++) {
		size_t half = (size_t)1 << i;
		for (k = 0; k < half; k++)
			e[half + k] = e[k] + c[i];
	}
	for (k = 0; k < run; k++)
		e[k] += q->T[k];
}

void qubo__qaoa_reset(qubo_qaoa *q)
{
	size_t x;

	for (x = 0; x < q->cap; x++) {
		q->re[x] = x < q->N ? 1.0 : 0.0;
		q->im[x] = 0.0;
	}
	q->zr = 1.0 / sqrt((double)q->N);
	q->zi = 0.0;
}

/* ---- enumeration of the energies: lowest energy, figures of a state ---- */

enum { SCAN_MIN, SCAN_COUNT, SCAN_FIGURES };

typedef struct scan_job {
	qubo_qaoa *q;
	int what;
	double *e;          /* per worker: 2^L energies + L couplings */
	double *unit_a;     /* per unit: min, or Σ p E */
	double *unit_b;     /* per unit: Σ p over the lowest states */
	uint64_t *unit_n;   /* per unit: lowest states */
	size_t runs_per_unit;
} scan_job;

static int scan_unit(qubo__pool *pl, unsigned w, size_t u)
{
	scan_job *j = pl->arg;
	qubo_qaoa *q = j->q;
	size_t run = (size_t)1 << q->L, r, k;
	double *e = j->e + w * (run + QUBO__QAOA_RUN_BITS), *c = e + run;
	double a = j->what == SCAN_MIN ? (double)INFINITY : 0.0, b = 0.0;
	double lim = q->emin + q->tol;
	uint64_t cnt = 0;
	double s2 = q->zr * q->zr + q->zi * q->zi;

	for (r = u * j->runs_per_unit; r < (u + 1) * j->runs_per_unit; r++) {
		qubo__qaoa_run_energies(q, r, e, c);
		if (j->what == SCAN_MIN) {
			for (k = 0; k < run; k++)
				a = e[k] < a ? e[k] : a;
		} else if (j->what == SCAN_COUNT) {
			for (k = 0; k < run; k++)
				cnt += e[k] <= lim;
		} else {
			const double *re = q->re + r * run, *im = q->im + r * run;
			for (k = 0; k < run; k++) {
				double pr = s2 * (re[k] * re[k] + im[k] * im[k]);
				a += pr * e[k];
				b += e[k] <= lim ? pr : 0.0;
			}
		}
	}
	j->unit_a[u] = a;
	j->unit_b[u] = b;
	j->unit_n[u] = cnt;
	return QUBO_OK;
}

/* Runs a scan over every state; the units (and so the sums) do not depend
 * on the number of threads. */
static int scan(qubo_qaoa *q, int what, double *a_out, double *b_out, uint64_t *n_out)
{
	size_t runs = q->N >> q->L, units, u, run = (size_t)1 << q->L;
	unsigned workers = qubo__qaoa_workers(q);
	double a, b;
	uint64_t cnt = 0;
	qubo__pool pl;
	scan_job j;
	int rc;

	memset(&j, 0, sizeof j);
	j.q = q;
	j.what = what;
	j.runs_per_unit = runs < 64 ? 1 : runs / 64;
	units = runs / j.runs_per_unit;
	j.e = qubo__malloc_array(&q->alloc, (size_t)workers * (run + QUBO__QAOA_RUN_BITS) +
						    3 * units,
				 sizeof(double));
	if (!j.e)
		return qubo__nomem("the QAOA scan");
	j.unit_a = j.e + (size_t)workers * (run + QUBO__QAOA_RUN_BITS);
	j.unit_b = j.unit_a + units;
	j.unit_n = (uint64_t *)(void *)(j.unit_b + units);
	qubo__pool_init(&pl, units, (int)workers, scan_unit, &j);
	rc = qubo__pool_exec(&pl);
	if (!rc) {
		a = what == SCAN_MIN ? (double)INFINITY : 0.0;
		b = 0.0;
		for (u = 0; u < units; u++) {
			if (what == SCAN_MIN)
				a = j.unit_a[u] < a ? j.unit_a[u] : a;
			else
				a += j.unit_a[u];
			b += j.unit_b[u];
			cnt += j.unit_n[u];
		}
		*a_out = a;
		*b_out = b;
		*n_out = cnt;
	}
	qubo__free(&q->alloc, j.e);
	return rc;
}

int qubo__qaoa_figures(qubo_qaoa *q, double *expectation, double *lowest)
{
	double e, l;
	uint64_t unused;
	int rc = scan(q, SCAN_FIGURES, &e, &l, &unused);

	if (rc)
		return rc;
	if (!qubo__is_finite(e) || !qubo__is_finite(l))
		return qubo__error(QUBO_ERR_INTERNAL, "the QAOA state's expectation %g or "
				   "lowest-energy probability %g is not finite", e, l);
	*expectation = e;
	*lowest = l;
	return QUBO_OK;
}

/* ---- creation ---- */

static int split_model(qubo_qaoa *q, const qubo_model *m)
{
	size_t n = q->n, L = q->L, run = (size_t)1 << L, i, k, l;
	const qubo_allocator *a = &q->alloc;

	q->T = qubo__malloc_array(a, run, sizeof(double));
	q->hd = qubo__malloc_array(a, n - L + 1, sizeof(double));
	q->lh = qubo__malloc_array(a, m->nnz / 2 + 1, sizeof(qubo__qaoa_term));
	q->hh = qubo__malloc_array(a, m->nnz / 2 + 1, sizeof(qubo__qaoa_term));
	q->ising_h = qubo__malloc_array(a, n + 1, sizeof(double));
	q->ising_j = qubo__calloc_array(a, n * n + 1, sizeof(double));
	if (!q->T || !q->hd || !q->lh || !q->hh || !q->ising_h || !q->ising_j)
		return qubo__nomem("the QAOA energy tables");
	q->offset = m->offset;
	for (i = L; i < n; i++)
		q->hd[i - L] = m->h[i];
	for (l = 0; l < run; l++) {
		double e = 0.0;
		for (i = 0; i < L; i++) {
			if (!((l >> i) & 1))
				continue;
			e += m->h[i];
			for (k = m->upper[i]; k < m->row[i + 1] && m->col[k] < L; k++)
				if ((l >> m->col[k]) & 1)
					e += m->val[k];
		}
		q->T[l] = e;
	}
	for (i = 0; i < n; i++)
		for (k = m->upper[i]; k < m->row[i + 1]; k++) {
			uint32_t j = m->col[k];
			if (j < L)
				continue;
			if (i < L) {
				q->lh[q->num_lh].a = (uint32_t)i;
				q->lh[q->num_lh].b = (uint32_t)(j - L);
				q->lh[q->num_lh++].w = m->val[k];
			} else {
				q->hh[q->num_hh].a = (uint32_t)(i - L);
				q->hh[q->num_hh].b = (uint32_t)(j - L);
				q->hh[q->num_hh++].w = m->val[k];
			}
		}
	/* the Ising form: s = 2x − 1 (qubo_model_to_ising) */
	q->ising_offset = m->offset;
	for (i = 0; i < n; i++) {
		double quarter = 0.0;
		q->ising_offset += m->h[i] / 2.0;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			quarter += m->val[k];
			q->ising_j[i * n + m->col[k]] = m->val[k] / 4.0;
		}
		for (k = m->upper[i]; k < m->row[i + 1]; k++)
			q->ising_offset += m->val[k] / 4.0;
		q->ising_h[i] = m->h[i] / 2.0 + quarter / 4.0;
	}
	return QUBO_OK;
}

int qubo_qaoa_memory(size_t num_qubits, int threads, uint64_t *bytes_out)
{
	if (!bytes_out)
		return qubo__null_arg("qubo_qaoa_memory", "bytes_out");
	if (threads < 0 || threads > 1024)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "qubo_qaoa_memory: threads %d is not in 0..1024", threads);
	*bytes_out = qubo__qaoa_bytes(num_qubits, qubo__qaoa_workers_for(num_qubits, threads));
	return QUBO_OK;
}

/* "16.0 GiB" and the like. */
static void format_bytes(uint64_t b, char *buf, size_t size)
{
	static const char *unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024.0 && u < 6) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%llu bytes", (unsigned long long)b);
	else
		snprintf(buf, size, "%.1f %s", v, unit[u]);
}

/* Asks for transparent huge pages on the 2 MiB pages inside a large array:
 * the passes over the higher qubits jump by 64 KiB and more, and 4 KiB
 * pages would cost a TLB miss per row. Advice only: nothing changes if the
 * kernel ignores it, or where the memory is not mapped by mmap. */
static void advise_huge(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)1 << 21;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);

	if (bytes >= 4 * huge && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

/* The first 64-byte boundary in an allocation of QUBO__QAOA_ALIGN bytes more than an array
 * needs: a vector load then never straddles two cache lines. */
double *qubo__qaoa_align(void *mem)
{
	uintptr_t a = ((uintptr_t)mem + QUBO__QAOA_ALIGN - 1) & ~(uintptr_t)(QUBO__QAOA_ALIGN - 1);
	return (double *)((char *)mem + (a - (uintptr_t)mem));
}

void qubo_qaoa_free(qubo_qaoa *q)
{
	qubo_allocator a;

	if (!q)
		return;
	a = q->alloc;
	qubo__free(&a, q->re_mem);
	qubo__free(&a, q->im_mem);
	qubo__free(&a, q->T);
	qubo__free(&a, q->hd);
	qubo__free(&a, q->lh);
	qubo__free(&a, q->hh);
	qubo__free(&a, q->ising_h);
	qubo__free(&a, q->ising_j);
	qubo__free(&a, q);
}

int qubo_qaoa_new(qubo_qaoa **out, const qubo_model *model, size_t max_qubits,
		  const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_qaoa_new";
	qubo_allocator a;
	qubo_qaoa *q;
	double unused;
	size_t n;
	int rc;

	if (!out)
		return qubo__null_arg(fn, "out");
	*out = NULL;
	rc = qubo__model_require_bounded(model, fn);
	if (rc)
		return rc;
	if (max_qubits > QUBO_QAOA_MAX_QUBITS)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "%s: max_qubits %zu is above the ceiling %d", fn, max_qubits,
				   QUBO_QAOA_MAX_QUBITS);
	if (!max_qubits)
		max_qubits = QUBO_QAOA_DEFAULT_MAX_QUBITS;
	n = model->n;
	if (n > max_qubits) {
		char state[32], all[32];
		format_bytes(n < 60 ? 16 * ((uint64_t)1 << n) : UINT64_MAX, state, sizeof state);
		format_bytes(qubo__qaoa_bytes(n, 1), all, sizeof all);
		return qubo__too_large(QUBO_LIMIT_MAX_QUBITS, max_qubits,
				       "%s: the model has %zu variables, more than max_qubits %zu: "
				       "its state of 2^%zu amplitudes would need %s (the simulator "
				       "%s in all)",
				       fn, n, max_qubits, n, state, all);
	}
	rc = qubo__alloc_init(&a, allocator, fn);
	if (rc)
		return rc;
	q = qubo__calloc_array(&a, 1, sizeof *q);
	if (!q)
		return qubo__nomem("the QAOA simulator");
	q->alloc = a;
	q->n = (unsigned)n;
	q->L = (unsigned)low_bits(n);
	q->N = (size_t)1 << n;
	q->cap = q->N < QUBO__QAOA_MIN_AMPS ? QUBO__QAOA_MIN_AMPS : q->N;
	q->re_mem = qubo__malloc_array(&a, q->cap + QUBO__QAOA_ALIGN / sizeof(double),
				       sizeof(double));
	q->im_mem = qubo__malloc_array(&a, q->cap + QUBO__QAOA_ALIGN / sizeof(double),
				       sizeof(double));
	if (!q->re_mem || !q->im_mem) {
		char need[32];
		format_bytes(2 * sizeof(double) * (uint64_t)q->cap, need, sizeof need);
		qubo_qaoa_free(q);
		return qubo__error(QUBO_ERR_NOMEM, "%s: out of memory for the state of %zu qubits "
				   "(%s)", fn, n, need);
	}
	q->weight_sum = qubo__model_weight_sum(model);
	q->re = qubo__qaoa_align(q->re_mem);
	q->im = qubo__qaoa_align(q->im_mem);
	advise_huge(q->re, q->cap * sizeof(double));
	advise_huge(q->im, q->cap * sizeof(double));
	rc = split_model(q, model);
	if (!rc) {
		qubo__qaoa_reset(q);
		q->tol = 0.0;
		rc = scan(q, SCAN_MIN, &q->emin, &unused, &q->nmin);
	}
	if (!rc) {
		q->tol = 1e-9 * (fabs(q->emin) > 1.0 ? fabs(q->emin) : 1.0);
		rc = scan(q, SCAN_COUNT, &unused, &unused, &q->nmin);
	}
	if (rc) {
		qubo_qaoa_free(q);
		return rc;
	}
	*out = q;
	return QUBO_OK;
}

size_t qubo_qaoa_num_qubits(const qubo_qaoa *q)
{
	return q ? q->n : 0;
}

int qubo_qaoa_set_threads(qubo_qaoa *q, int threads)
{
	static const char fn[] = "qubo_qaoa_set_threads";

	if (!q)
		return qubo__null_arg(fn, "qaoa");
	if (threads < 0 || threads > 1024)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: threads %d is not in 0..1024", fn,
				   threads);
	q->threads = threads;
	return QUBO_OK;
}

size_t qubo__qaoa_bad_angle(double w, size_t p, const double *gammas, const double *betas)
{
	size_t k;

	/* written so that NaN fails: an infinite γ with w = 0 gives NaN */
	for (k = 0; k < p; k++)
		if (!(fabs(gammas[k]) * w <= QUBO_QAOA_MAX_PHASE) || !qubo__is_finite(gammas[k]))
			return k;
	for (k = 0; k < p; k++)
		if (!(fabs(betas[k]) <= DBL_MAX / 2))
			return p + k;
	return 2 * p;
}

int qubo__qaoa_check_angles(const char *fn, double w, size_t p, const double *gammas,
			    const double *betas)
{
	const char *what = "gammas";
	size_t k;
	double v;

	if (p && !gammas)
		return qubo__null_arg(fn, "gammas");
	if (p && !betas)
		return qubo__null_arg(fn, "betas");
	k = qubo__qaoa_bad_angle(w, p, gammas, betas);
	if (k == 2 * p)
		return QUBO_OK;
	v = k < p ? gammas[k] : betas[k - p];
	if (k >= p) {
		what = "betas";
		k -= p;
	}
	if (!qubo__is_finite(v))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: %s[%zu] (layer %zu) is %s", fn,
				   what, k, k + 1, v != v ? "NaN" : v > 0 ? "+inf" : "-inf");
	if (what[0] == 'b')
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: betas[%zu] (layer %zu) is %g: twice it, the angle of the "
				   "mixer's gates, overflows", fn, k, k + 1, v);
	if (!qubo__is_finite(fabs(v) * w))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: gammas[%zu] (layer %zu) is %g: its phases overflow (the "
				   "angle times the model's weight sum %g)", fn, k, k + 1, v, w);
	return qubo__error(QUBO_ERR_INVALID_ARG,
			   "%s: gammas[%zu] (layer %zu) is %g: its phases reach %g (the angle "
			   "times the model's weight sum %g), beyond the largest phase, 2^52 "
			   "(QUBO_QAOA_MAX_PHASE)", fn, k, k + 1, v, fabs(v) * w, w);
}

int qubo_qaoa_evolve(qubo_qaoa *q, size_t p, const double *gammas, const double *betas)
{
	static const char fn[] = "qubo_qaoa_evolve";

	if (!q)
		return qubo__null_arg(fn, "qaoa");
	if (p > QUBO_QAOA_MAX_DEPTH)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: p %zu is above %d", fn, p,
				   QUBO_QAOA_MAX_DEPTH);
	return qubo__qaoa_evolve(q, fn, p, gammas, betas);
}

int qubo_qaoa_expectation(qubo_qaoa *q, double *expectation_out, double *lowest_out)
{
	double e = 0.0, l = 0.0; /* set on success; gcc -O3 cannot tell */
	int rc;

	if (!q)
		return qubo__null_arg("qubo_qaoa_expectation", "qaoa");
	rc = qubo__qaoa_figures(q, &e, &l);
	if (rc)
		return rc;
	if (expectation_out)
		*expectation_out = e;
	if (lowest_out)
		*lowest_out = l;
	return QUBO_OK;
}

int qubo_qaoa_lowest_energy(const qubo_qaoa *q, double *energy_out, uint64_t *count_out)
{
	if (!q)
		return qubo__null_arg("qubo_qaoa_lowest_energy", "qaoa");
	if (energy_out)
		*energy_out = q->emin;
	if (count_out)
		*count_out = q->nmin;
	return QUBO_OK;
}

static int check_capacity(const char *fn, const void *buf, size_t capacity, size_t need)
{
	if (capacity < need)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: capacity %zu, need %zu", fn,
				   capacity, need);
	if (need && !buf)
		return qubo__null_arg(fn, "the output array");
	return QUBO_OK;
}

int qubo_qaoa_amplitudes(const qubo_qaoa *q, double *amps, size_t capacity)
{
	static const char fn[] = "qubo_qaoa_amplitudes";
	size_t x;
	int rc;

	if (!q)
		return qubo__null_arg(fn, "qaoa");
	rc = check_capacity(fn, amps, capacity, 2 * q->N);
	if (rc)
		return rc;
	for (x = 0; x < q->N; x++) {
		amps[2 * x] = q->zr * q->re[x] - q->zi * q->im[x];
		amps[2 * x + 1] = q->zr * q->im[x] + q->zi * q->re[x];
	}
	return QUBO_OK;
}

int qubo_qaoa_probabilities(const qubo_qaoa *q, double *probs, size_t capacity)
{
	static const char fn[] = "qubo_qaoa_probabilities";
	double s2;
	size_t x;
	int rc;

	if (!q)
		return qubo__null_arg(fn, "qaoa");
	rc = check_capacity(fn, probs, capacity, q->N);
	if (rc)
		return rc;
	s2 = q->zr * q->zr + q->zi * q->zi;
	for (x = 0; x < q->N; x++)
		probs[x] = s2 * (q->re[x] * q->re[x] + q->im[x] * q->im[x]);
	return QUBO_OK;
}

/* ---- reads ---- */

#define SAMPLE_CHUNK_BITS 10

int qubo_qaoa_sample(qubo_qaoa *q, uint64_t seed, size_t num_reads, uint8_t *samples,
		     size_t capacity)
{
	static const char fn[] = "qubo_qaoa_sample";
	size_t chunk, chunks, c, r, x, lo, hi;
	double s2, *mass, total;
	int rc;

	if (!q)
		return qubo__null_arg(fn, "qaoa");
	if (q->n && num_reads > SIZE_MAX / q->n)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: %zu reads of %u bytes overflow",
				   fn, num_reads, q->n);
	rc = check_capacity(fn, samples, capacity, num_reads * q->n);
	if (rc || !num_reads)
		return rc;
	chunk = q->N < ((size_t)1 << SAMPLE_CHUNK_BITS) ? q->N : (size_t)1 << SAMPLE_CHUNK_BITS;
	chunks = q->N / chunk;
	/* cumulative masses of fixed chunks: the same at any thread count */
	mass = qubo__malloc_array(&q->alloc, chunks + 1, sizeof(double));
	if (!mass)
		return qubo__nomem("the QAOA reads");
	s2 = q->zr * q->zr + q->zi * q->zi;
	mass[0] = 0.0;
	for (c = 0; c < chunks; c++) {
		double m = 0.0;
		for (x = c * chunk; x < (c + 1) * chunk; x++)
			m += s2 * (q->re[x] * q->re[x] + q->im[x] * q->im[x]);
		mass[c + 1] = mass[c] + m;
	}
	total = mass[chunks];
	if (!qubo__is_finite(total)) {
		qubo__free(&q->alloc, mass);
		return qubo__error(QUBO_ERR_INTERNAL, "%s: the state's probabilities add up to "
				   "%g, not a finite number", fn, total);
	}
	for (r = 0; r < num_reads; r++) {
		qubo__rng g;
		double u, acc;
		size_t last;
		unsigned i;

		qubo__rng_stream(&g, seed, r);
		u = (double)(qubo__rng_next(&g) >> 11) * 0x1p-53 * total;
		/* the chunk: the last c with mass[c] <= u */
		lo = 0;
		hi = chunks;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (mass[mid] <= u)
				lo = mid;
			else
				hi = mid;
		}
		acc = mass[lo];
		last = lo * chunk;
		for (x = lo * chunk; x < (lo + 1) * chunk; x++) {
			double pr = s2 * (q->re[x] * q->re[x] + q->im[x] * q->im[x]);
			if (pr > 0.0)
				last = x;
			acc += pr;
			if (u < acc && pr > 0.0)
				break;
		}
		/* rounding can leave u past the chunk's sum: its last state */
		if (x == (lo + 1) * chunk)
			x = last;
		for (i = 0; i < q->n; i++)
			samples[r * q->n + i] = (uint8_t)((x >> i) & 1);
	}
	qubo__free(&q->alloc, mass);
	return QUBO_OK;
}

int qubo_qaoa_optimize(qubo_qaoa *q, size_t p, size_t iterations, double *gammas,
		       double *betas, double *expectation_out)
{
	static const char fn[] = "qubo_qaoa_optimize";
	double e;
	int rc;

	if (!q)
		return qubo__null_arg(fn, "qaoa");
	if (!gammas || !betas)
		return qubo__null_arg(fn, !gammas ? "gammas" : "betas");
	if (p < 1 || p > QUBO_QAOA_MAX_DEPTH)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: p %zu is not in 1..%d", fn, p,
				   QUBO_QAOA_MAX_DEPTH);
	if (iterations > MAX_ITERATIONS)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: iterations %zu is above %d", fn,
				   iterations, MAX_ITERATIONS);
	rc = qubo__qaoa_optimize(q, p, iterations, gammas, betas, &e, NULL, NULL);
	if (!rc && expectation_out)
		*expectation_out = e;
	return rc;
}
