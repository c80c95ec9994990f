/*
 * The simulated-annealing kernel's parts (sa.c: the reads and the driver;
 * sa_prep.c: the problem as the sweeps see it; sa_sweep.c: the sweeps of a
 * single read; sa_lanes.c: the sweeps of 8 reads in the lanes of
 * AVX2 registers). sa.c's first comment describes the kernel. The helpers
 * of the sweeps are static inline here, so that each sweep keeps them
 * inlined.
 */
#ifndef QUBO_SOLVERS_SA_IMPL_H
#define QUBO_SOLVERS_SA_IMPL_H

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "lane_rng.h"
#include "runner.h"

/* AVX2 sweeps where lane_rng.h has its AVX2 step (x86-64, GCC or clang) */
#define SA_AVX2 QUBO__LANE_AVX2
#define SA_TARGET_AVX2 QUBO__TARGET_AVX2

#if defined(__GNUC__) || defined(__clang__)
#define SA_INLINE inline __attribute__((always_inline))
#define SA_PREFETCH(a) __builtin_prefetch(a)
#else
#define SA_INLINE inline
#define SA_PREFETCH(a) ((void)(a))
#endif

#define SA_INT_MAX_SHIFT 20  /* largest power-of-two scale for the integer path */
#define SA_INT_MAX_DE 4096   /* largest |ΔE| (scaled) for the integer path */
#define SA_LOG_BITS 10       /* bracket tables of the portable test: 2^SA_LOG_BITS */
#define SA_LOG_SIZE (1u << SA_LOG_BITS)
#define SA_LANES 8           /* random numbers per block = variables per block */
#define SA_ROW_PAD 4         /* narrow rows are padded to a multiple of this */
#define SA_RESYNC 64         /* float32 fields are recomputed every this many sweeps */
#define SA_F32_LIMIT 4096.0  /* float32 fields when β_cold · max|ΔE| <= this */
#define SA_LANE_READS 8      /* reads in lanes: one per AVX2 lane */

_Static_assert(SA_LANES == QUBO__LANES, "a block of draws is one step of the lane generator");

enum { SA_INT, SA_F32, SA_F64 };

/* ---------------------------------------------------------------------------
 * The problem as the sweeps see it (shared, read-only during the run).
 */

typedef struct sa_prep {
	const qubo_model *m;
	size_t n;
	int kind;          /* SA_INT, SA_F32 or SA_F64 */
	int narrow;        /* columns are uint16_t (n < 65536), rows padded */
	int wide_de;       /* SA_INT: some |ΔE| above 4095, so that 8 of them
			      may not sum within int16 */
	const size_t *rp;  /* n + 1 row starts into col and w */
	const void *col;   /* uint16_t or uint32_t; padding entries name slot n */
	const void *w;     /* int16_t (J × 2^shift), float or double; padding 0 */
	const void *gcol;  /* reads in lanes: byte offset of col_k's lane vector, */
	int gnarrow;       /* uint16_t (rows padded, offsets < 2^16) or uint32_t */
	const void *h;     /* int32_t, float or double: the fields of x = 0 */
	const uint8_t *touch; /* flipping i changes a field later in its block */
	int lanes;         /* reads may run SA_LANE_READS at a time in SIMD lanes (AVX2) */
	void *own[6];      /* what prep allocated (freed by prep_free) */
	double unit;       /* integer path: 2^−shift; else 1 */
	double scale;      /* bound on |ΔE| in real units, for tolerances */
	const double *lo; /* L over each bracket, lower end (log_lo) */
	const double *up; /* upper end (log_up) */
} sa_prep;

/* Bound on |ΔE_i| over all states, max(|h_i + Σ J⁻|, |h_i + Σ J⁺|),
 * maximised over i, in units of norm > 0 (so that sums cannot overflow). */
double qubo__sa_max_delta(const qubo_model *m, double norm);
/* The field type of a run (SA_INT, SA_F32 or SA_F64), with the integer
 * path's shift and largest scaled |ΔE| (see pick_kind in sa_prep.c). */
int qubo__sa_pick_kind(const qubo_model *m, const qubo__sa_params *par, const qubo__run *run,
		       double beta_max, double scale, int *shift, int32_t *maxde);
/* Builds p's rows, columns, weights and fields for the kind chosen, scaled by
 * 2^shift on the integer path. QUBO_OK or QUBO_ERR_NOMEM (message set). */
int qubo__sa_prep_build(const qubo_model *m, sa_prep *p, int shift);
/* Points p at the bracket tables of the portable test. */
void qubo__sa_prep_log_tables(sa_prep *p);
/* Frees what qubo__sa_prep_build allocated. */
void qubo__sa_prep_free(const qubo_allocator *a, sa_prep *p);

/* ---------------------------------------------------------------------------
 * Shared run state.
 */

typedef struct sa_shared sa_shared;
typedef struct sa_worker sa_worker;

/* A sweep at t = bu · ΔE (bu: β, times 2^−shift on the integer path):
 * returns the attempts made (n, or fewer when the read reached the target,
 * then *hit is set). */
typedef size_t (*sa_sweep_fn)(sa_worker *wk, double bu, int *hit);
/* A sweep of SA_LANE_READS reads in lanes at t = bu · ΔE. */
typedef void (*sa_lsweep_fn)(sa_worker *wk, double bu);

struct sa_shared {
	const qubo_model *m;
	const sa_prep *p;
	size_t num_reads, num_sweeps;
	uint64_t seed;
	uint64_t first_read; /* read r is read first_read + r of the seed's run */
	double beta_hot, log_ratio, beta_cold;
	int has_target;
	double target;
	int keep_lowest;      /* qubo__sa_params.keep_lowest */
	sa_sweep_fn sweep;    /* the fastest available */
	sa_sweep_fn portable; /* for β outside the range the fast one handles */
	sa_lsweep_fn lsweep;  /* reads in lanes, or NULL */
	size_t num_lane_units; /* units 0 .. num_lane_units - 1 run SA_LANE_READS reads in lanes */
	uint8_t *samples;
	double *energies;
	uint8_t *done;
	qubo__pool *pool; /* the run's worker pool */
	sa_worker *wk;    /* one per pool worker */
};

struct sa_worker {
	char pad0[64];  /* keeps the previous worker's fields off these lines */
	sa_shared *sh;
	uint8_t *x;     /* n + SA_LANES bytes; the padding stays 0 */
	void *f;        /* n + SA_LANES fields; the padding is huge and never read */
	void *mem;      /* the allocation holding x and f */
	qubo__lane_rng g;
	int64_t ei;     /* integer path: energy − offset, × 2^shift */
	int64_t trig_i;
	double er;      /* real paths: energy − offset, tracked with rounding */
	double trig_r;
	/* The lowest state seen at the end of a sweep (the start counts): bx,
	 * with its tracked energy in bei or ber. */
	uint8_t *bx;
	int64_t bei;
	double ber;
	/* SA_LANE_READS reads in lanes (see run_lanes): gx[SA_LANE_READS i + g] is x_i of
	 * read g as a byte mask (0x00 or 0xFF; gbx alike), gf the fields in the same layout (float, or double for the
	 * SA_F64 kind), gs[(4 j + k) SA_LANE_READS + g] word k of lane j of read g's
	 * generator. NULL when lanes are not used. */
	uint8_t *gx;
	void *gf;
	uint32_t *gs;
	void *gmem;
	/* The lanes' tracked energies, as ei and er are for a single read
	 * (gei on the integer path, ger on the real ones), and the lowest state
	 * of each read seen at the end of a sweep: gbx in gx's layout, its
	 * tracked energies in gbi and gbr. */
	int64_t gei[SA_LANE_READS], gbi[SA_LANE_READS];
	double ger[SA_LANE_READS], gbr[SA_LANE_READS];
	uint8_t *gbx;
	uint64_t flips; /* attempts made by this worker */
	char pad1[64];
};

static inline int stopped(sa_shared *sh)
{
	return qubo__pool_stopped(sh->pool);
}

static inline double beta_at(const sa_shared *sh, size_t k)
{
	if (k + 1 >= sh->num_sweeps)
		return sh->beta_cold;
	return sh->beta_hot * exp(sh->log_ratio * (double)k / (double)(sh->num_sweeps - 1));
}

/* Exact energy of x as the front end computes it. */
static inline double exact_energy(const qubo_model *m, const uint8_t *x)
{
	double e = 0;

	(void)qubo_model_energy(m, x, m->n, &e);
	return e;
}

/* After a flip brought the tracked energy to the trigger: decides exactly
 * whether the state reached the target (resynchronising the real paths). */
static inline int confirm_target(sa_worker *wk)
{
	const sa_shared *sh = wk->sh;
	double e = exact_energy(sh->m, wk->x);

	if (e <= sh->target)
		return 1;
	if (sh->p->kind != SA_INT)
		wk->er = e - sh->m->offset;
	return 0;
}

/* ---------------------------------------------------------------------------
 * The exact Metropolis test and the flips, shared by all sweeps.
 */

/* Accept iff t < L(r) = −ln((r + ½) 2^−32). */
static inline int accept_exact(const sa_prep *p, double t, uint32_t r)
{
	uint32_t b = r >> (32 - SA_LOG_BITS);

	if (t < p->lo[b])
		return 1;
	if (!(t < p->up[b]))
		return 0;
	return t < -log(((double)r + 0.5) * 0x1p-32);
}

static SA_INLINE size_t col_at(const void *col, size_t k, const int narrow)
{
	return narrow ? (size_t)((const uint16_t *)col)[k] : (size_t)((const uint32_t *)col)[k];
}

/* Adds s · w_k (s = ±1: exact) to the fields named by col_k, k in [k, end). */
#define SA_ROW_UPDATE(FT, f, col, w, k, end, s, narrow)                                 \
	do {                                                                            \
		for (; (k) + 4 <= (end); (k) += 4) {                                    \
			(f)[col_at(col, (k), narrow)] += (FT)((s) * (w)[k]);            \
			(f)[col_at(col, (k) + 1, narrow)] += (FT)((s) * (w)[(k) + 1]);  \
			(f)[col_at(col, (k) + 2, narrow)] += (FT)((s) * (w)[(k) + 2]);  \
			(f)[col_at(col, (k) + 3, narrow)] += (FT)((s) * (w)[(k) + 3]);  \
		}                                                                       \
		if (!(narrow))                                                          \
			for (; (k) < (end); (k)++)                                      \
				(f)[col_at(col, (k), narrow)] += (FT)((s) * (w)[k]);    \
	} while (0)

/* What a sweep keeps at hand: the layout and the read's state, copied into
 * a local so that stores into x and f do not force reloads. */
typedef struct sa_ctx {
	const size_t *rp;
	const void *col;
	const void *w;
	void *f;
	uint8_t *x;
	int64_t ei, trig_i; /* integer path: tracked energy and trigger */
	double er, trig_r;  /* real paths */
	float eb;           /* float32 path: the ΔE accepted in the current block
			       of SA_LANES variables, added to er at its end */
} sa_ctx;

static SA_INLINE sa_ctx ctx_load(const sa_worker *wk)
{
	const sa_prep *p = wk->sh->p;
	sa_ctx c;

	c.rp = p->rp;
	c.col = p->col;
	c.w = p->w;
	c.f = wk->f;
	c.x = wk->x;
	c.ei = wk->ei;
	c.trig_i = wk->trig_i;
	c.er = wk->er;
	c.trig_r = wk->trig_r;
	c.eb = 0.0f;
	return c;
}

/* The end of a block of SA_LANES variables: the float32 path adds the
 * block's accepted ΔE, summed in float in the order of the flips, to er.
 * The lane sweeps sum each read's block the same way, so both track the
 * same energies. (Float32 runs have no target, which reads er mid-block.) */
static SA_INLINE void block_end(sa_ctx *c, const int kind)
{
	if (kind == SA_F32) {
		c->er += (double)c->eb;
		c->eb = 0.0f;
	}
}

/* ΔE of flipping i, exactly, as a double (no branch on x_i). */
static SA_INLINE double delta_of(const sa_ctx *c, size_t i, const int kind)
{
	uint32_t xi = c->x[i];

	if (kind == SA_INT) {
		int32_t v = ((const int32_t *)c->f)[i];
		return (double)((v ^ -(int32_t)xi) + (int32_t)xi);
	}
	if (kind == SA_F32) {
		float v = ((const float *)c->f)[i];
		uint32_t b;
		memcpy(&b, &v, sizeof b);
		b ^= xi << 31;
		memcpy(&v, &b, sizeof v);
		return (double)v;
	} else {
		double v = ((const double *)c->f)[i];
		uint64_t b;
		memcpy(&b, &v, sizeof b);
		b ^= (uint64_t)xi << 63;
		memcpy(&v, &b, sizeof v);
		return v;
	}
}

/* Flips i (whose ΔE is de) and updates the fields and the tracked energy. */
static SA_INLINE void flip(sa_ctx *c, size_t i, double de, const int kind, const int narrow)
{
	size_t k = c->rp[i], end = c->rp[i + 1];
	int s = 1 - 2 * (int)c->x[i];

	c->x[i] ^= 1;
	if (kind == SA_INT) {
		int32_t *restrict f = c->f;
		const int16_t *restrict w = c->w;
		c->ei += (int64_t)de;
		SA_ROW_UPDATE(int32_t, f, c->col, w, k, end, s, narrow);
	} else if (kind == SA_F32) {
		float *restrict f = c->f;
		const float *restrict w = c->w;
		const float fs = (float)s;
		c->eb += (float)de;
		SA_ROW_UPDATE(float, f, c->col, w, k, end, fs, narrow);
	} else {
		double *restrict f = c->f;
		const double *restrict w = c->w;
		const double ds = (double)s;
		c->er += de;
		SA_ROW_UPDATE(double, f, c->col, w, k, end, ds, narrow);
	}
}

/* Whether the read reached the target after a flip (rarely checked in full:
 * the tracked energy must first pass the trigger). */
static SA_INLINE int reached(sa_worker *wk, sa_ctx *c, const int kind)
{
	int hit;

	if (QUBO__LIKELY(kind == SA_INT ? c->ei > c->trig_i : c->er > c->trig_r))
		return 0;
	wk->ei = c->ei;
	wk->er = c->er;
	hit = confirm_target(wk);
	c->er = wk->er;
	return hit;
}

static SA_INLINE void ctx_store(sa_worker *wk, const sa_ctx *c)
{
	wk->ei = c->ei;
	wk->er = c->er;
}

#if SA_AVX2
#define SA_MARGIN 0x1p-13f  /* > |L̃ − L| + |t_f − t| wherever it matters */
#define SA_TINY 0x1p-40f    /* t_f below this: t < 2^−33 < L(r) for every r */
#define SA_LMAX 22.9f       /* L(r) <= 33 ln 2 < 22.87 for every r */

/* L̃(r) ≈ −ln((r + ½) 2^−32) = (32 − e) ln 2 − ln m, for r + ½ = 2^e m, m in
 * [1, 2): ln m by a degree-5 Chebyshev fit in m − 1 (error 1.1e−5). Over all
 * 2^32 values of r, |L̃ − L| <= 1.19e−5 (float rounding included). */
SA_TARGET_AVX2 static SA_INLINE __m256 approx_l(__m256i r)
{
	__m256 hi = _mm256_cvtepi32_ps(_mm256_srli_epi32(r, 16));
	__m256 lo = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_and_si256(r,
					_mm256_set1_epi32(0xFFFF))), _mm256_set1_ps(0.5f));
	__m256 v = _mm256_fmadd_ps(hi, _mm256_set1_ps(65536.0f), lo); /* r + ½, rounded once */
	__m256i b = _mm256_castps_si256(v);
	__m256 k = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_set1_epi32(127 + 32),
						       _mm256_srli_epi32(b, 23)));
	__m256 z = _mm256_sub_ps(_mm256_castsi256_ps(_mm256_or_si256(
					 _mm256_and_si256(b, _mm256_set1_epi32(0x7FFFFF)),
					 _mm256_set1_epi32(0x3F800000))), _mm256_set1_ps(1.0f));
	__m256 q = _mm256_fmadd_ps(_mm256_set1_ps(2.9808765244e-02f), z,
				   _mm256_set1_ps(-1.2995719766e-01f));

	q = _mm256_fmadd_ps(q, z, _mm256_set1_ps(2.8382318307e-01f));
	q = _mm256_fmadd_ps(q, z, _mm256_set1_ps(-4.8969909032e-01f));
	q = _mm256_fmadd_ps(q, z, _mm256_set1_ps(9.9916640101e-01f));
	q = _mm256_fmadd_ps(q, z, _mm256_set1_ps(1.1447097561e-05f));
	return _mm256_fmsub_ps(k, _mm256_set1_ps(0.693147180559945f), q);
}
#endif

/* The sweeps of a single read for p: *port the portable one, *fast the
 * fastest available (AVX2 unless portable_only). */
void qubo__sa_pick_sweeps(const sa_prep *p, int portable_only, sa_sweep_fn *fast,
			  sa_sweep_fn *port);
/* The sweep of reads in lanes for p, or NULL when lanes do not run. */
sa_lsweep_fn qubo__sa_pick_lsweep(const sa_prep *p);
#if SA_AVX2
/* gbx takes the bytes of gx where mb's lane is set (the lanes' lowest
 * states). */
SA_TARGET_AVX2 void qubo__sa_lanes_blend(uint8_t *gbx, const uint8_t *gx, const uint8_t *mb,
					 size_t n);
/* Recomputes the lanes' float fields from its state. */
SA_TARGET_AVX2 void qubo__sa_lanes_resync(sa_worker *wk);
#endif

#endif /* QUBO_SOLVERS_SA_IMPL_H */
