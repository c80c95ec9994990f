/*
 * One QAOA layer, e^{−iβB} e^{−iγC}, in two or three passes over memory.
 *
 * The state is seen as a matrix of 2^(n−b) rows of 2^b contiguous
 * amplitudes (b = min(n, 15): a row of real and imaginary parts, 512 KiB,
 * stays in the core's L2 cache). Pass 1 takes one row at a time: the cost
 * phase of its runs with the mixer on qubits 0..2 in the same loop, then
 * the mixer on qubits 3 .. b−1. The remaining qubits are taken in as few
 * groups of at most 9 as they need, of even sizes: a group's pass gathers
 * tiles of 2^g rows (the amplitudes that differ in the group's qubits) by C
 * contiguous columns (2^15 amplitudes in all, so C >= 64: whole cache lines
 * and runs of them) into a buffer, mixes them there and writes them back.
 * Every pass is a set of independent units on the worker pool, and no
 * amplitude's result depends on which thread computed it.
 *
 * The mixer Rx(2β) = cos β (I − i tan β X) when |cos β| >= |sin β|, and
 * −i sin β (X + i cot β I) otherwise: the butterflies of kernels.h with
 * d = −tan β, or d = cot β with the outputs swapped, so that |d| <= 1 and
 * each output costs one multiply-add; the scalar goes into z.
 */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "kernels.h"
#include "pool.h"
#include "qaoa_impl.h"

#define ROW_BITS 15
#define GROUP_BITS 9
#define TILE_AMPS (1u << 15)

/* The kernels for this CPU, chosen once. */
static const qubo__qaoa_kernels *kernels(void)
{
#if defined(QUBO__QAOA_X86)
	static const qubo__qaoa_kernels *_Atomic chosen;
	const qubo__qaoa_kernels *k = chosen;

	if (!k) {
		__builtin_cpu_init();
		if (__builtin_cpu_supports("avx512f"))
			k = &qubo__qaoa_kernels_avx512;
		else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
			k = &qubo__qaoa_kernels_avx2;
		else
			k = &qubo__qaoa_kernels_base;
		chosen = k;
	}
	return k;
#else
	return &qubo__qaoa_kernels_base;
#endif
}

const char *qubo__qaoa_isa(void)
{
	return kernels()->name;
}

struct qubo__qaoa_layer {
	qubo_qaoa *q;
	const qubo__qaoa_kernels *k;
	double gamma;
	qubo__qaoa_mixer mx;
	double ar, ai;         /* the factor z folded into the cost phase */
	double *tr, *ti;       /* e^{−iγT[l]}, 2^L */
	unsigned row_bits;     /* b */
	/* the current group pass */
	unsigned q0, g;        /* first qubit and count */
	size_t cols;           /* C */
	/* per worker: run phases (2 × 2^L), couplings (L), a tile (2 × TILE_AMPS) */
	double *scratch;
	size_t scratch_per;
};

/* A run's tables, rounded up to whole vectors of 8 (zero past 2^L). */
static size_t run_doubles(unsigned L)
{
	return L < 3 ? 8 : (size_t)1 << L;
}

/* A run's couplings, rounded up to whole vectors so that the tile after them stays aligned. */
#define COUPLING_DOUBLES ((QUBO__QAOA_RUN_BITS + 7) & ~7)

static size_t scratch_doubles(unsigned L)
{
	return 2 * run_doubles(L) + COUPLING_DOUBLES + 2 * (size_t)TILE_AMPS;
}

uint64_t qubo__qaoa_bytes(size_t n, unsigned workers)
{
	unsigned L = n < QUBO__QAOA_RUN_BITS ? (unsigned)n : QUBO__QAOA_RUN_BITS;
	uint64_t amps, run = (uint64_t)1 << L, pairs, fixed, opt, layer, scan, mass, most;
	uint64_t dim = 2 * QUBO_QAOA_MAX_DEPTH;

	if (n >= 58)
		return UINT64_MAX;
	amps = n < 6 ? QUBO__QAOA_MIN_AMPS : (uint64_t)1 << n;
	pairs = (uint64_t)n * (n - (n > 0)) / 2 + 1;
	/* always there: the object, the state, the energy split, the Ising form */
	fixed = sizeof(struct qubo_qaoa) + 2 * (sizeof(double) * amps + QUBO__QAOA_ALIGN) +
		sizeof(double) * (run + (n - L + 1) + (n + 1) + ((uint64_t)n * n + 1)) +
		2 * sizeof(qubo__qaoa_term) * pairs;
	/* the optimiser's simplex at the deepest p, live while it evaluates */
	opt = sizeof(double) * (3 * dim + (dim + 1) * (dim + 1) + 3 * dim);
	/* one at a time: a layer's scratch, a scan's, the reads' chunk sums */
	layer = sizeof(double) * (2 * run_doubles(L) + scratch_doubles(L) * (uint64_t)workers) +
		QUBO__QAOA_ALIGN;
	scan = sizeof(double) * ((uint64_t)workers * (run + QUBO__QAOA_RUN_BITS) + 3 * 64);
	mass = sizeof(double) * ((amps >> 10) + 2);
	most = layer > scan ? layer : scan;
	most = most > mass ? most : mass;
	return fixed + opt + most;
}

/* The phases of one run: p[l] = a · Π_{i: l_i} e^{−iγ c_i} · e^{−iγ E_high}. */
static void run_phases(const struct qubo__qaoa_layer *ly, uint64_t h, double *restrict pr,
		       double *restrict pi, double *restrict c)
{
	const qubo_qaoa *q = ly->q;
	double eh, s, co;
	unsigned i;
	size_t k;

	qubo__qaoa_run_terms(q, h, &eh, c);
	s = sin(ly->gamma * eh);
	co = cos(ly->gamma * eh);
	/* a · e^{−iγE} = (ar + i ai)(co − i s) */
	pr[0] = ly->ar * co + ly->ai * s;
	pi[0] = ly->ai * co - ly->ar * s;
	for (i = 0; i < q->L; i++) {
		size_t half = (size_t)1 << i;
		double er = cos(ly->gamma * c[i]), ei = -sin(ly->gamma * c[i]);
		if (half >= 8) {
			ly->k->spread(pr, pi, half, er, ei);
			continue;
		}
		for (k = 0; k < half; k++) {
			pr[half + k] = pr[k] * er - pi[k] * ei;
			pi[half + k] = pr[k] * ei + pi[k] * er;
		}
	}
}

/* Pass 1, unit u: row u (2^b amplitudes): cost phase, then qubits 0..b−1. */
static int row_unit(qubo__pool *pl, unsigned w, size_t u)
{
	struct qubo__qaoa_layer *ly = pl->arg;
	qubo_qaoa *q = ly->q;
	size_t len = (size_t)1 << ly->row_bits, run = (size_t)1 << q->L, r;
	size_t runv = run_doubles(q->L);
	double *re = q->re + u * len, *im = q->im + u * len;
	double *pr = ly->scratch + w * ly->scratch_per, *pi = pr + runv, *c = pi + runv;
	uint64_t h0 = ((uint64_t)u * len) >> q->L;
	/* rows past 2^n are padding, which stays zero */
	size_t live = u * len < q->N ? (q->N - u * len < len ? q->N - u * len : len) : 0;

	unsigned qubits = q->n < ly->row_bits ? q->n : ly->row_bits;
	unsigned lanes = qubits < 3 ? qubits : 3;

	for (r = 0; r < live; r += run) {
		run_phases(ly, h0 + r / run, pr, pi, c);
		ly->k->phase_lanes(re + r, im + r, pr, pi, ly->tr, ly->ti, runv, lanes, &ly->mx);
	}
	if (qubits > lanes)
		ly->k->mix(re, im, len, 8, qubits - lanes, &ly->mx);
	return QUBO_OK;
}

/* A group pass, unit u: one tile of 2^g rows by C columns. */
static int tile_unit(qubo__pool *pl, unsigned w, size_t u)
{
	struct qubo__qaoa_layer *ly = pl->arg;
	qubo_qaoa *q = ly->q;
	size_t stride = (size_t)1 << ly->q0, rows = (size_t)1 << ly->g, C = ly->cols;
	size_t per_block = stride / C; /* tiles per block of 2^(q0+g) */
	size_t base = (u / per_block) * stride * rows + (u % per_block) * C;
	double *br = ly->scratch + w * ly->scratch_per + 2 * run_doubles(q->L) + COUPLING_DOUBLES;
	double *bi = br + TILE_AMPS;

	ly->k->gather(br, bi, q->re + base, q->im + base, rows, stride, C);
	ly->k->mix(br, bi, rows * C, C, ly->g, &ly->mx);
	ly->k->scatter(q->re + base, q->im + base, br, bi, rows, stride, C);
	return QUBO_OK;
}

static int run_pass(struct qubo__qaoa_layer *ly, size_t units, qubo__pool_fn fn,
		    unsigned workers)
{
	qubo__pool pl;

	qubo__pool_init(&pl, units, (int)workers, fn, ly);
	return qubo__pool_exec(&pl);
}

/* Qubits from which the passes use worker threads: QUBO__QAOA_MT_MIN_BITS,
 * or what a test set (qubo__qaoa_set_mt_min_bits). */
static atomic_uint mt_min_bits = QUBO__QAOA_MT_MIN_BITS;

void qubo__qaoa_set_mt_min_bits(unsigned bits)
{
	atomic_store(&mt_min_bits, bits ? bits : QUBO__QAOA_MT_MIN_BITS);
}

unsigned qubo__qaoa_workers_for(size_t n, int threads)
{
	return n < atomic_load(&mt_min_bits) ? 1 : qubo__pool_workers_for(threads);
}

unsigned qubo__qaoa_workers(const qubo_qaoa *q)
{
	return qubo__qaoa_workers_for(q->n, q->threads);
}

/* The mixer's form and scalar for angle β: z is multiplied by the scalar. */
static void mixer_form(const qubo_qaoa *q, double beta, qubo__qaoa_mixer *mx, double *sr,
		       double *si)
{
	double c = cos(beta), s = sin(beta), mag;
	unsigned i;

	if (fabs(c) >= fabs(s)) {
		mx->d = -s / c;
		mx->swap = 0;
		mag = 1.0;
		for (i = 0; i < q->n; i++)
			mag *= c;
		*sr = mag;
		*si = 0.0;
	} else {
		/* (−i s)^n = s^n (−i)^n, and (−i)^n cycles 1, −i, −1, i */
		mx->d = c / s;
		mx->swap = 1;
		mag = 1.0;
		for (i = 0; i < q->n; i++)
			mag *= s;
		switch (q->n & 3u) {
		case 0: *sr = mag, *si = 0.0; break;
		case 1: *sr = 0.0, *si = -mag; break;
		case 2: *sr = -mag, *si = 0.0; break;
		default: *sr = 0.0, *si = mag; break;
		}
	}
}

int qubo__qaoa_evolve(qubo_qaoa *q, const char *fn, size_t p, const double *gammas,
		      const double *betas)
{
	struct qubo__qaoa_layer ly;
	void *mem;
	unsigned workers = qubo__qaoa_workers(q), nb;
	size_t run = (size_t)1 << q->L, runv = run_doubles(q->L), len, k, l;
	int rc = qubo__qaoa_check_angles(fn, q->weight_sum, p, gammas, betas);

	if (rc)
		return rc;
	qubo__qaoa_reset(q);
	if (!p)
		return QUBO_OK;
	memset(&ly, 0, sizeof ly);
	ly.q = q;
	ly.k = kernels();
	ly.scratch_per = scratch_doubles(q->L);
	/* the tables e^{−iγT} first, then the workers' scratch */
	mem = qubo__calloc_array(&q->alloc, 2 * runv + ly.scratch_per * workers +
					   QUBO__QAOA_ALIGN / sizeof(double), sizeof(double));
	if (!mem)
		return qubo__nomem("the QAOA layer's scratch");
	ly.tr = qubo__qaoa_align(mem);
	ly.ti = ly.tr + runv;
	ly.scratch = ly.ti + runv;
	nb = 0;
	while (((size_t)1 << nb) < q->cap)
		nb++;
	ly.row_bits = nb < ROW_BITS ? nb : ROW_BITS;
	len = (size_t)1 << ly.row_bits;

	for (k = 0; k < p && !rc; k++) {
		double sr, si, zr;
		unsigned q0;

		for (l = 0; l < run; l++) {
			ly.tr[l] = cos(gammas[k] * q->T[l]);
			ly.ti[l] = -sin(gammas[k] * q->T[l]);
		}
		ly.gamma = gammas[k];
		ly.ar = q->zr;
		ly.ai = q->zi;
		mixer_form(q, betas[k], &ly.mx, &sr, &si);
		rc = run_pass(&ly, q->cap / len, row_unit, workers);
		for (q0 = ly.row_bits; !rc && q0 < q->n; q0 += ly.g) {
			size_t rows, stride = (size_t)1 << q0;
			unsigned left = q->n - q0, groups = (left + GROUP_BITS - 1) / GROUP_BITS;
			ly.q0 = q0;
			ly.g = (left + groups - 1) / groups;
			rows = (size_t)1 << ly.g;
			ly.cols = TILE_AMPS / rows;
			if (ly.cols > stride)
				ly.cols = stride;
			rc = run_pass(&ly, q->cap / (rows * ly.cols), tile_unit, workers);
		}
		/* z was folded into the cost phase; what is left is the mixer's */
		zr = sr;
		q->zr = zr;
		q->zi = si;
	}
	qubo__free(&q->alloc, mem);
	if (rc)
		qubo__qaoa_reset(q);
	return rc;
}
