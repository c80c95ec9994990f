/*
 * Simulated annealing kernel: single-flip Metropolis sweeps over a geometric
 * β schedule, reads spread over a pthread pool. doc/solvers-sa.md describes
 * the schedule, the default β rule, the fast paths, threads and determinism.
 *
 * State of one read (per-thread buffers): x (one byte per variable) and the
 * local fields f_i = h_i + Σ_j J_ij x_j. Flipping i changes the energy by
 * ΔE_i = (1 − 2 x_i) f_i; an accepted flip adds ±J_ij to the fields of the
 * neighbours (O(degree), no branch on the sign), a rejected one costs O(1).
 * A sweep visits the variables in index order, one 32-bit random number r
 * per attempt.
 *
 * Field types: int32 when every weight times 2^s (s <= SA_INT_MAX_SHIFT) is
 * an integer and |ΔE| · 2^s stays below SA_INT_MAX_DE (weights then int16);
 * otherwise float32 when that loses nothing measurable at the coldest β
 * (see pick_kind), else double. With fewer than 65536 variables the columns
 * are uint16 and the rows are padded to a multiple of SA_ROW_PAD.
 *
 * Metropolis test: with t = β ΔE (β scaled by 2^−s on the integer path),
 * computed in double, and L(r) = −ln((r + ½) 2^−32), accept iff t < L(r).
 * That exact rule is the whole definition; the decision for attempt i is a
 * function of (ΔE_i, r_i) only. Two ways to evaluate it, always agreeing:
 *  - portable: two tables bracket L over the top SA_LOG_BITS bits of r; ln()
 *    runs only when t falls inside the bracket;
 *  - AVX2+FMA: 8 attempts at once. t in float32 and a polynomial L̃(r) with
 *    |L̃ − L| <= 1.2e−5 for every r (checked exhaustively), so t_f < L̃ − M
 *    proves acceptance and t_f > L̃ + M rejection (M = SA_MARGIN = 2^−13);
 *    the rare lanes in between take the exact test.
 * The random numbers come from 8 interleaved xoshiro128** lanes, one block
 * of 8 per 8 variables. The accepted lanes of a block are walked in order;
 * after a flip that changed the field of a later variable of the same block,
 * the rest of the block is re-decided with the same r: exactly the
 * sequential result. Samples are identical with and without AVX2.
 *
 * Groups (run_group, gsweep_*): with at least SA_GROUP reads, reads run 8
 * at a time in the lanes of AVX2 registers, variable by
 * variable: lane g is read g, with its own generator and the same arithmetic
 * as alone (f += w · a, a in {−1, 0, +1}, an exact product), so the samples
 * are those of single reads, without a branch per accepted flip.
 *
 * Reads: read r seeds its stream from (seed, r) only, so its result does not
 * depend on the thread that runs it. The reads run on the worker pool of
 * every kernel (lib/common/pool.h): a unit is a group of 8 reads while 8 are
 * left, then a single read, and workers take units in order and check the
 * pool's stop flag once per sweep; the calling thread waits, calls the
 * progress callback about every 100 ms and at the end (counting reads), and
 * watches the time limit. A unit taken after a stop runs no read. A read
 * interrupted by a stop ends as if its last sweep were the last one (its
 * lowest or its current state, see keep_lowest). A single read that reaches
 * the target stops at once, mid-sweep; a group checks at the end of each
 * sweep (each read tracks its energy), and its reads stop there. Rows of
 * the reads that ran are compacted to the front in read order; energies are
 * recomputed with qubo_model_energy.
 */
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
#define SA_GROUP 8           /* reads per group: one per AVX2 lane */

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
	const void *gcol;  /* grouped reads: byte offset of col_k's lane vector, */
	int gnarrow;       /* uint16_t (rows padded, offsets < 2^16) or uint32_t */
	const void *h;     /* int32_t, float or double: the fields of x = 0 */
	const uint8_t *touch; /* flipping i changes a field later in its block */
	int groups;        /* reads may run in groups of SA_GROUP (AVX2) */
	void *own[6];      /* what prep allocated (freed by prep_free) */
	double unit;       /* integer path: 2^−shift; else 1 */
	double scale;      /* bound on |ΔE| in real units, for tolerances */
	const double *lo; /* L over each bracket, lower end (log_lo) */
	const double *up; /* upper end (log_up) */
} sa_prep;

/* Fractional binary digits of a finite nonzero w (0 for integers). */
static int frac_bits(double w)
{
	int e, tz = 0;
	double mant = frexp(fabs(w), &e); /* |w| = mant · 2^e, mant in [0.5, 1) */
	uint64_t m = (uint64_t)ldexp(mant, 53);

#if defined(__GNUC__) || defined(__clang__)
	tz = __builtin_ctzll(m);
#else
	while (!(m & 1)) {
		m >>= 1;
		tz++;
	}
#endif
	return 53 - e - tz > 0 ? 53 - e - tz : 0;
}

/* Bound on |ΔE_i| over all states, max(|h_i + Σ J⁻|, |h_i + Σ J⁺|),
 * maximised over i, in units of norm > 0 (so that sums cannot overflow). */
static double max_delta(const qubo_model *m, double norm)
{
	double best = 0;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		double hh = m->h[i] / norm, pos = 0, neg = 0;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			double v = m->val[k] / norm;
			if (v > 0)
				pos += v;
			else
				neg += v;
		}
		best = fmax(best, fmax(fabs(hh + pos), fabs(hh + neg)));
	}
	return best;
}

/* The integer path: returns 1 and sets *shift and *maxde when it applies. */
static int int_scale(const qubo_model *m, int *shift_out, int32_t *maxde_out)
{
	int shift = 0;
	size_t i, k;
	int64_t maxde = 0;
	double mul;

	for (i = 0; i < m->n; i++)
		if (m->h[i] != 0 && frac_bits(m->h[i]) > shift)
			shift = frac_bits(m->h[i]);
	for (k = 0; k < m->nnz; k++)
		if (frac_bits(m->val[k]) > shift)
			shift = frac_bits(m->val[k]);
	if (shift > SA_INT_MAX_SHIFT)
		return 0;
	mul = ldexp(1.0, shift);
	/* Every scaled weight must be small before summing in int64. */
	for (i = 0; i < m->n; i++)
		if (fabs(m->h[i]) * mul > 2.0 * SA_INT_MAX_DE)
			return 0;
	for (k = 0; k < m->nnz; k++)
		if (fabs(m->val[k]) * mul > 2.0 * SA_INT_MAX_DE)
			return 0;
	for (i = 0; i < m->n; i++) {
		int64_t h = (int64_t)(m->h[i] * mul), pos = 0, neg = 0, a, b;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			int64_t v = (int64_t)(m->val[k] * mul);
			if (v > 0)
				pos += v;
			else
				neg += v;
			if (pos - neg > 2 * SA_INT_MAX_DE)
				return 0;
		}
		a = h + pos < 0 ? -(h + pos) : h + pos;
		b = h + neg < 0 ? -(h + neg) : h + neg;
		maxde = a > maxde ? a : maxde;
		maxde = b > maxde ? b : maxde;
	}
	if (maxde > SA_INT_MAX_DE)
		return 0;
	*shift_out = shift;
	*maxde_out = (int32_t)maxde;
	return 1;
}

/* The bracket tables depend on nothing: filled once per process. */
static double log_lo[SA_LOG_SIZE], log_up[SA_LOG_SIZE];
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void fill_log_tables(void)
{
	const uint32_t w = 1u << (32 - SA_LOG_BITS);
	uint32_t b;

	for (b = 0; b < SA_LOG_SIZE; b++) {
		double rlo = (double)b * w, rhi = (double)b * w + (w - 1);
		log_up[b] = -log((rlo + 0.5) * 0x1p-32);
		log_lo[b] = -log((rhi + 0.5) * 0x1p-32);
	}
}

static void prep_log_tables(sa_prep *p)
{
	pthread_once(&log_once, fill_log_tables);
	p->lo = log_lo;
	p->up = log_up;
}

/*
 * Field types. Integer when int_scale applies. Float32 fields round each
 * update to 2^−24 of the field's magnitude, at most scale · 2^−24 (scale: the
 * bound on |ΔE|). They are used when that is below 2^−12 / β_max, i.e. one
 * rounding moves β ΔE, hence an acceptance probability, by at most 2^−12
 * relatively (fields are recomputed exactly every SA_RESYNC sweeps, so errors
 * cannot pile up), when the weights fit float comfortably, and when no target
 * is set (the target check relies on the tracked energy). Else double.
 */
static int pick_kind(const qubo_model *m, const qubo__sa_params *par, const qubo__run *run,
		     double beta_max, double scale, int *shift, int32_t *maxde)
{
	double wmax = qubo__max_weight(m);

	if (int_scale(m, shift, maxde))
		return SA_INT;
	if ((par->flags & QUBO__SA_NO_F32) || run->has_target)
		return SA_F64;
	if (!(wmax <= 0x1p60 && scale <= 0x1p60 && beta_max * scale <= SA_F32_LIMIT))
		return SA_F64;
	return SA_F32;
}

static void prep_free(const qubo_allocator *a, sa_prep *p)
{
	size_t k;

	if (!p)
		return;
	for (k = 0; k < sizeof p->own / sizeof p->own[0]; k++)
		qubo__free(a, p->own[k]);
	qubo__free(a, p);
}

/* Stands for the columns and weights of a model without couplers. */
static const double no_entries[1];

/* Builds the sweep layout: rows, columns, weights, initial fields, touch. */
static int prep_build(const qubo_model *m, sa_prep *p, int shift)
{
	const qubo_allocator *a = &m->alloc;
	const size_t n = m->n;
	const size_t wsize = p->kind == SA_INT ? sizeof(int16_t)
			   : p->kind == SA_F32 ? sizeof(float) : sizeof(double);
	const size_t hsize = p->kind == SA_INT ? sizeof(int32_t)
			   : p->kind == SA_F32 ? sizeof(float) : sizeof(double);
	const double mul = ldexp(1.0, shift);
	const int own_w = p->narrow || p->kind != SA_F64;
	size_t nnz = m->nnz, i, k, q;
	size_t *rp = NULL;
	void *col = NULL, *w = NULL, *h = NULL;
	void *gcol = NULL;
	const uint32_t gstride = SA_GROUP * (p->kind == SA_F64 ? sizeof(double)
					     : p->kind == SA_F32 ? sizeof(float) : sizeof(int16_t));
	uint8_t *touch;

	if (p->narrow) {
		nnz = 0;
		for (i = 0; i < n; i++) {
			size_t d = m->row[i + 1] - m->row[i];
			nnz += (d + SA_ROW_PAD - 1) / SA_ROW_PAD * SA_ROW_PAD;
		}
		rp = qubo__malloc_array(a, n + 1, sizeof *rp);
		col = qubo__malloc_array(a, nnz ? nnz : 1, sizeof(uint16_t));
	}
	if (own_w)
		w = qubo__malloc_array(a, nnz ? nnz : 1, wsize);
	p->gnarrow = p->narrow && (uint64_t)n * gstride <= 65536;
	if (p->groups)
		gcol = qubo__malloc_array(a, nnz ? nnz : 1,
					  p->gnarrow ? sizeof(uint16_t) : sizeof(uint32_t));
	if (p->kind != SA_F64)
		h = qubo__malloc_array(a, n ? n : 1, hsize);
	touch = qubo__malloc(a, n ? n : 1);
	p->own[0] = rp;
	p->own[1] = col;
	p->own[2] = w;
	p->own[3] = h;
	p->own[4] = touch;
	p->own[5] = gcol;
	if ((p->narrow && (!rp || !col)) || (own_w && !w) ||
	    (p->groups && !gcol) ||
	    (p->kind != SA_F64 && !h) || !touch)
		return qubo__nomem("simulated annealing: problem data");

	/* Rows: the model's, or padded copies with uint16 columns. Padding
	 * entries add 0 to slot n, which is never decided. */
	q = 0;
	for (i = 0; i < n; i++) {
		size_t end = m->row[i + 1];
		if (p->narrow)
			rp[i] = q;
		for (k = m->row[i]; k < end || (p->narrow && q % SA_ROW_PAD); k++, q++) {
			int pad = k >= end;
			double v = pad ? 0.0 : m->val[k];
			if (p->narrow)
				((uint16_t *)col)[q] = (uint16_t)(pad ? n : m->col[k]);
			if (p->kind == SA_INT)
				((int16_t *)w)[q] = (int16_t)(v * mul);
			else if (p->kind == SA_F32)
				((float *)w)[q] = (float)v;
			else if (own_w)
				((double *)w)[q] = v;
			/* groups: padding adds 0 to variable i's own lanes */
			if (gcol && p->gnarrow)
				((uint16_t *)gcol)[q] = (uint16_t)((pad ? i : m->col[k]) * gstride);
			else if (gcol)
				((uint32_t *)gcol)[q] = (uint32_t)(pad ? i : m->col[k]) * gstride;
		}
	}
	if (p->narrow)
		rp[n] = q;
	for (i = 0; i < n; i++) {
		if (p->kind == SA_INT)
			((int32_t *)h)[i] = (int32_t)(m->h[i] * mul);
		else if (p->kind == SA_F32)
			((float *)h)[i] = (float)m->h[i];
	}
	for (i = 0; i < n; i++) {
		size_t u = m->upper[i], blk_end = (i / SA_LANES + 1) * SA_LANES;
		touch[i] = (uint8_t)(u < m->row[i + 1] && m->col[u] < blk_end);
	}
	p->rp = p->narrow ? rp : m->row;
	/* A compiled model without couplers has no column or weight arrays
	 * (NULL); the sweeps still form the address of each empty row's start,
	 * to prefetch it, so they get one of no entries. */
	p->col = p->narrow ? (const void *)col : m->col ? (const void *)m->col : no_entries;
	p->w = w ? (const void *)w : m->val ? (const void *)m->val : no_entries;
	p->gcol = gcol;
	p->h = h ? (const void *)h : (const void *)m->h;
	p->touch = touch;
	return QUBO_OK;
}

/* ---------------------------------------------------------------------------
 * Shared run state.
 */

typedef struct sa_shared sa_shared;
typedef struct sa_worker sa_worker;

/* A sweep at t = bu · ΔE (bu: β, times 2^−shift on the integer path):
 * returns the attempts made (n, or fewer when the read reached the target,
 * then *hit is set). */
typedef size_t (*sa_sweep_fn)(sa_worker *wk, double bu, int *hit);

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
	void (*gsweep)(sa_worker *wk, double bu); /* grouped reads, or NULL */
	size_t num_groups; /* units 0 .. num_groups - 1 are groups of SA_GROUP reads */
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
	/* A group of SA_GROUP reads (see run_group): gx[SA_GROUP i + g] is x_i of
	 * read g as a byte mask (0x00 or 0xFF; gbx alike), gf the fields in the same layout (float, or double for the
	 * SA_F64 kind), gs[(4 j + k) SA_GROUP + g] word k of lane j of read g's
	 * generator. NULL when groups are not used. */
	uint8_t *gx;
	void *gf;
	uint32_t *gs;
	void *gmem;
	/* The group's tracked energies, as ei and er are for a single read
	 * (gei on the integer path, ger on the real ones), and the lowest state
	 * of each read seen at the end of a sweep: gbx in gx's layout, its
	 * tracked energies in gbi and gbr. */
	int64_t gei[SA_GROUP], gbi[SA_GROUP];
	double ger[SA_GROUP], gbr[SA_GROUP];
	uint8_t *gbx;
	uint64_t flips; /* attempts made by this worker */
	char pad1[64];
};

static inline int stopped(sa_shared *sh)
{
	return qubo__pool_stopped(sh->pool);
}

static double beta_at(const sa_shared *sh, size_t k)
{
	if (k + 1 >= sh->num_sweeps)
		return sh->beta_cold;
	return sh->beta_hot * exp(sh->log_ratio * (double)k / (double)(sh->num_sweeps - 1));
}

/* Exact energy of x as the front end computes it. */
static double exact_energy(const qubo_model *m, const uint8_t *x)
{
	double e = 0;

	(void)qubo_model_energy(m, x, m->n, &e);
	return e;
}

/* After a flip brought the tracked energy to the trigger: decides exactly
 * whether the state reached the target (resynchronising the real paths). */
static int confirm_target(sa_worker *wk)
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
 * The group sweeps sum each read's block the same way, so both track the
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

/* ---------------------------------------------------------------------------
 * Portable sweeps.
 */

static SA_INLINE size_t sweep_portable(sa_worker *wk, double bu, int *hit, const int kind,
				       const int narrow)
{
	const sa_prep *p = wk->sh->p;
	const size_t n = p->n;
	sa_ctx c = ctx_load(wk);
	qubo__lane_rng g = wk->g;
	uint32_t r[SA_LANES];
	size_t i0, j;

	for (i0 = 0; i0 < n; i0 += SA_LANES) {
		size_t lim = n - i0 < SA_LANES ? n - i0 : SA_LANES;
		qubo__lane_block(&g, r);
		for (j = 0; j < lim; j++) {
			double de = delta_of(&c, i0 + j, kind);
			if (!accept_exact(p, bu * de, r[j]))
				continue;
			flip(&c, i0 + j, de, kind, narrow);
			if (QUBO__UNLIKELY(reached(wk, &c, kind))) {
				wk->g = g;
				ctx_store(wk, &c);
				*hit = 1;
				return i0 + j + 1;
			}
		}
		block_end(&c, kind);
	}
	wk->g = g;
	ctx_store(wk, &c);
	return n;
}

#define SA_PORTABLE(name, kind, narrow)                                 \
	static size_t name(sa_worker *wk, double bu, int *hit)          \
	{                                                               \
		return sweep_portable(wk, bu, hit, kind, narrow);       \
	}
SA_PORTABLE(sweep_int_n, SA_INT, 1)
SA_PORTABLE(sweep_int_w, SA_INT, 0)
SA_PORTABLE(sweep_f32_n, SA_F32, 1)
SA_PORTABLE(sweep_f32_w, SA_F32, 0)
SA_PORTABLE(sweep_f64_n, SA_F64, 1)
SA_PORTABLE(sweep_f64_w, SA_F64, 0)

/* ---------------------------------------------------------------------------
 * AVX2 sweeps: 8 decisions at once, accepted lanes walked in order.
 */

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

/* t = bu · ΔE for the 8 variables of the block at i0, in float. */
SA_TARGET_AVX2 static SA_INLINE __m256 t_avx2(const void *f, const uint8_t *x, size_t i0,
					      __m256 bf, __m256d bd, const int kind)
{
	__m128i xb = _mm_loadl_epi64((const __m128i *)(const void *)(x + i0));

	if (kind == SA_INT) {
		__m256i fi = _mm256_loadu_si256((const __m256i *)(const void *)
						((const int32_t *)f + i0));
		__m256i xi = _mm256_cvtepu8_epi32(xb);
		__m256i de = _mm256_add_epi32(_mm256_xor_si256(fi, _mm256_sub_epi32(
						      _mm256_setzero_si256(), xi)), xi);
		return _mm256_mul_ps(_mm256_cvtepi32_ps(de), bf);
	}
	if (kind == SA_F32) {
		__m256 fv = _mm256_loadu_ps((const float *)f + i0);
		__m256i sg = _mm256_slli_epi32(_mm256_cvtepu8_epi32(xb), 31);
		return _mm256_mul_ps(_mm256_xor_ps(fv, _mm256_castsi256_ps(sg)), bf);
	} else {
		const double *fd = (const double *)f + i0;
		__m256i xa = _mm256_slli_epi64(_mm256_cvtepu8_epi64(xb), 63);
		__m256i xc = _mm256_slli_epi64(_mm256_cvtepu8_epi64(_mm_srli_si128(xb, 4)), 63);
		__m256d ta = _mm256_mul_pd(bd, _mm256_xor_pd(_mm256_loadu_pd(fd),
							     _mm256_castsi256_pd(xa)));
		__m256d tc = _mm256_mul_pd(bd, _mm256_xor_pd(_mm256_loadu_pd(fd + 4),
							     _mm256_castsi256_pd(xc)));
		return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(ta)),
					    _mm256_cvtpd_ps(tc), 1);
	}
}

/* Lanes proven accepted; *amb gets the lanes that need the exact test. */
SA_TARGET_AVX2 static SA_INLINE unsigned decide_avx2(__m256 t, __m256i r, unsigned *amb)
{
	const __m256 tiny = _mm256_set1_ps(SA_TINY), margin = _mm256_set1_ps(SA_MARGIN);
	unsigned acc = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(t, tiny, _CMP_LT_OQ));
	unsigned rej = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(t, _mm256_set1_ps(SA_LMAX),
								  _CMP_GT_OQ));
	__m256 l;

	if ((acc | rej) == 0xFFu) { /* nothing depends on r: the cold sweeps */
		*amb = 0;
		return acc;
	}
	l = approx_l(r);
	acc = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(
		t, _mm256_max_ps(_mm256_sub_ps(l, margin), tiny), _CMP_LT_OQ));
	rej = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(t, _mm256_add_ps(l, margin),
							 _CMP_GT_OQ));
	*amb = ~(acc | rej) & 0xFFu;
	return acc;
}

/* The row of the next accepted lane, while this one's flip runs. */
static SA_INLINE void prefetch_row(const sa_ctx *c, size_t i, const int kind, const int narrow)
{
	size_t k = c->rp[i];

	SA_PREFETCH(narrow ? (const void *)((const uint16_t *)c->col + k)
			   : (const void *)((const uint32_t *)c->col + k));
	SA_PREFETCH(kind == SA_INT ? (const void *)((const int16_t *)c->w + k)
		    : kind == SA_F32 ? (const void *)((const float *)c->w + k)
				     : (const void *)((const double *)c->w + k));
}

SA_TARGET_AVX2 static SA_INLINE size_t sweep_avx2(sa_worker *wk, double bu, int *hit,
						   const int kind, const int narrow)
{
	const sa_prep *p = wk->sh->p;
	const size_t n = p->n;
	const uint8_t *touch = p->touch;
	sa_ctx c = ctx_load(wk);
	const __m256 bf = _mm256_set1_ps((float)bu);
	const __m256d bd = _mm256_set1_pd(bu);
	__m256i s[4];
	uint32_t rs[SA_LANES];
	size_t i0, done = n;
	int l;

	for (l = 0; l < 4; l++)
		s[l] = _mm256_loadu_si256((const __m256i *)(const void *)wk->g.s[l]);
	for (i0 = 0; i0 < n; i0 += SA_LANES) {
		__m256i r = qubo__lane_avx2(s);
		unsigned lim = n - i0 >= SA_LANES ? 0xFFu : (1u << (n - i0)) - 1;
		unsigned amb, acc = decide_avx2(t_avx2(c.f, c.x, i0, bf, bd, kind), r, &amb);
		unsigned mask = (acc | amb) & lim;

		if (amb)
			_mm256_storeu_si256((__m256i *)(void *)rs, r);
		while (mask) {
			unsigned j = (unsigned)__builtin_ctz(mask);
			size_t i = i0 + j;
			double de = delta_of(&c, i, kind);

			mask &= mask - 1;
			if (QUBO__UNLIKELY((amb >> j) & 1) && !accept_exact(p, bu * de, rs[j]))
				continue;
			/* the next accepted lane's row (this one's when none is left) */
			prefetch_row(&c, i0 + (unsigned)__builtin_ctz(mask | 1u << j), kind, narrow);
			flip(&c, i, de, kind, narrow);
			if (QUBO__UNLIKELY(reached(wk, &c, kind))) {
				*hit = 1;
				done = i + 1;
				goto out;
			}
			if (touch[i]) {
				acc = decide_avx2(t_avx2(c.f, c.x, i0, bf, bd, kind), r, &amb);
				mask = (acc | amb) & lim & (~0u << (j + 1));
				if (amb)
					_mm256_storeu_si256((__m256i *)(void *)rs, r);
			}
		}
		block_end(&c, kind);
	}
out:
	for (l = 0; l < 4; l++)
		_mm256_storeu_si256((__m256i *)(void *)wk->g.s[l], s[l]);
	ctx_store(wk, &c);
	return done;
}

#define SA_FAST(name, kind, narrow)                                     \
	SA_TARGET_AVX2 static size_t name(sa_worker *wk, double bu, int *hit) \
	{                                                               \
		return sweep_avx2(wk, bu, hit, kind, narrow);           \
	}
SA_FAST(sweep_int_n_avx2, SA_INT, 1)
SA_FAST(sweep_int_w_avx2, SA_INT, 0)
SA_FAST(sweep_f32_n_avx2, SA_F32, 1)
SA_FAST(sweep_f32_w_avx2, SA_F32, 0)
SA_FAST(sweep_f64_n_avx2, SA_F64, 1)
SA_FAST(sweep_f64_w_avx2, SA_F64, 0)

/* Bytes 0x00/0xFF from the bits of a lane mask (gx's encoding of x). */
#define SA_SP1(b) (0xFFu * ((uint64_t)((b) & 1) | (uint64_t)(((b) >> 1) & 1) << 8 |     \
		   (uint64_t)(((b) >> 2) & 1) << 16 | (uint64_t)(((b) >> 3) & 1) << 24 |  \
		   (uint64_t)(((b) >> 4) & 1) << 32 | (uint64_t)(((b) >> 5) & 1) << 40 |  \
		   (uint64_t)(((b) >> 6) & 1) << 48 | (uint64_t)(((b) >> 7) & 1) << 56))
#define SA_SP4(b) SA_SP1(b), SA_SP1((b) + 1), SA_SP1((b) + 2), SA_SP1((b) + 3)
#define SA_SP16(b) SA_SP4(b), SA_SP4((b) + 4), SA_SP4((b) + 8), SA_SP4((b) + 12)
#define SA_SP64(b) SA_SP16(b), SA_SP16((b) + 16), SA_SP16((b) + 32), SA_SP16((b) + 48)
static const uint64_t sa_spread[256] = { SA_SP64(0), SA_SP64(64), SA_SP64(128), SA_SP64(192) };

/* The random numbers of a block (lane j: variable 8 b + j) for the 8 reads
 * of a group, and the bounds of the fast test for each: accept when
 * t < lacc = max(L̃ − M, SA_TINY), reject when t > lrej = L̃ + M (see
 * decide_avx2). They do not depend on the state, so they are computed
 * ahead, off the path from a flip to the next decision. */
typedef struct sa_gblock {
	__m256i r[SA_LANES];
	__m256 lacc[SA_LANES];
	__m256 lrej[SA_LANES];
} sa_gblock;

SA_TARGET_AVX2 static SA_INLINE void gblock_avx2(__m256i *gs, sa_gblock *b)
{
	const __m256 tiny = _mm256_set1_ps(SA_TINY), margin = _mm256_set1_ps(SA_MARGIN);
	unsigned j;

	for (j = 0; j < SA_LANES; j++) {
		__m256i r = qubo__lane_avx2(gs + 4 * j);
		__m256 l = approx_l(r);
		b->r[j] = r;
		b->lacc[j] = _mm256_max_ps(_mm256_sub_ps(l, margin), tiny);
		b->lrej[j] = _mm256_add_ps(l, margin);
	}
}

SA_TARGET_AVX2 static SA_INLINE unsigned gdecide_avx2(__m256 t, const sa_gblock *b, unsigned j,
						     unsigned *amb)
{
	unsigned acc = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(t, b->lacc[j], _CMP_LT_OQ));
	unsigned rej = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(t, b->lrej[j], _CMP_GT_OQ));

	*amb = ~(acc | rej) & 0xFFu;
	return acc;
}

/* The exact test for the lanes in amb (variable i of each read). */
SA_TARGET_AVX2 static unsigned group_resolve(const sa_prep *p, const void *gf, const uint8_t *gx,
					     size_t i, double bu, __m256i r, unsigned amb)
{
	uint32_t rs[SA_GROUP];
	unsigned acc = 0, g;

	_mm256_storeu_si256((__m256i *)(void *)rs, r);
	for (g = 0; g < SA_GROUP; g++) {
		size_t c = SA_GROUP * i + g;
		double v;
		if (!((amb >> g) & 1))
			continue;
		v = p->kind == SA_F64 ? ((const double *)gf)[c]
		  : p->kind == SA_F32 ? (double)((const float *)gf)[c]
				      : (double)((const int16_t *)gf)[c];
		if (accept_exact(p, bu * (gx[c] ? -v : v), rs[g]))
			acc |= 1u << g;
	}
	return acc;
}

/*
 * One sweep of a group: variable by variable, the 8 reads decide at once
 * (lane g = read g, with lane j of its own generator for variable 8 b + j, as
 * in the single-read sweeps) and the accepted ones update their fields with
 * one masked FMA per neighbour, f += w · a with a in {−1, 0, +1}: exactly
 * the single-read arithmetic, without a branch per read.
 */
SA_TARGET_AVX2 static SA_INLINE void gsweep_avx2(sa_worker *wk, double bu, const int kind,
						 const int narrow)
{
	const sa_prep *p = wk->sh->p;
	const size_t n = p->n;
	const size_t *rp = p->rp;
	const void *gcol = p->gcol;
	uint8_t *gx = wk->gx;
	__m256i *gs = (__m256i *)(void *)wk->gs;
	const __m256 bf = _mm256_set1_ps((float)bu);
	const __m256d bd = _mm256_set1_pd(bu);
	const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
	const __m256i bits_lo = _mm256_setr_epi64x(1, 2, 4, 8);
	const __m256i bits_hi = _mm256_setr_epi64x(16, 32, 64, 128);
	const __m256 one = _mm256_set1_ps(1.0f);
	/* the tracked energies, each read's accepted ΔE added in its order, as
	 * the single-read sweeps add them */
	__m256d elo = _mm256_loadu_pd(wk->ger), ehi = _mm256_loadu_pd(wk->ger + 4);
	size_t i0;

	for (i0 = 0; i0 < n; i0 += SA_LANES) {
		__m256 eb = _mm256_setzero_ps(); /* float32: block_end's sums */
		sa_gblock blk;
		unsigned j;

		gblock_avx2(gs, &blk);
		for (j = 0; j < SA_LANES && i0 + j < n; j++) {
			const size_t i = i0 + j;
			__m256i sg, accv;
			__m128i xb;
			__m256 t, a, dv = _mm256_setzero_ps();
			__m256d dlo = _mm256_setzero_pd(), dhi = _mm256_setzero_pd();
			unsigned amb, acc;
			uint64_t xw;
			size_t k, end;

			xb = _mm_loadl_epi64((const __m128i *)(const void *)(gx + SA_GROUP * i));
			sg = _mm256_slli_epi32(_mm256_cvtepu8_epi32(xb), 31);
			if (kind == SA_F64) {
				const double *fd = (const double *)wk->gf + SA_GROUP * i;
				__m256i xa = _mm256_slli_epi64(_mm256_cvtepu8_epi64(xb), 63);
				__m256i xc = _mm256_slli_epi64(_mm256_cvtepu8_epi64(
								_mm_srli_si128(xb, 4)), 63);
				__m256d ta, tc;
				dlo = _mm256_xor_pd(_mm256_load_pd(fd), _mm256_castsi256_pd(xa));
				dhi = _mm256_xor_pd(_mm256_load_pd(fd + 4), _mm256_castsi256_pd(xc));
				ta = _mm256_mul_pd(bd, dlo);
				tc = _mm256_mul_pd(bd, dhi);
				t = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(ta)),
							 _mm256_cvtpd_ps(tc), 1);
			} else {
				__m256 fv = _mm256_load_ps((const float *)wk->gf + SA_GROUP * i);
				dv = _mm256_xor_ps(fv, _mm256_castsi256_ps(sg));
				t = _mm256_mul_ps(dv, bf);
			}
			acc = gdecide_avx2(t, &blk, j, &amb);
			if (QUBO__UNLIKELY(amb))
				acc |= group_resolve(p, wk->gf, gx, i, bu, blk.r[j], amb);
			if (!acc)
				continue;
			accv = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)acc),
								   bits), bits);
			a = _mm256_and_ps(_mm256_castsi256_ps(accv),
					  _mm256_or_ps(one, _mm256_castsi256_ps(sg)));
			if (kind == SA_F64) { /* rejected lanes add +0, which changes nothing */
				const __m256i av = _mm256_set1_epi64x((long long)acc);
				elo = _mm256_add_pd(elo, _mm256_and_pd(dlo, _mm256_castsi256_pd(
					_mm256_cmpeq_epi64(_mm256_and_si256(av, bits_lo), bits_lo))));
				ehi = _mm256_add_pd(ehi, _mm256_and_pd(dhi, _mm256_castsi256_pd(
					_mm256_cmpeq_epi64(_mm256_and_si256(av, bits_hi), bits_hi))));
			} else {
				eb = _mm256_add_ps(eb, _mm256_and_ps(dv, _mm256_castsi256_ps(accv)));
			}
			memcpy(&xw, gx + SA_GROUP * i, sizeof xw);
			xw ^= sa_spread[acc];
			memcpy(gx + SA_GROUP * i, &xw, sizeof xw);
			k = rp[i];
			end = rp[i + 1];
			if (kind == SA_F64) {
				char *F = wk->gf;
				const double *w = p->w;
				const __m256d alo = _mm256_cvtps_pd(_mm256_castps256_ps128(a));
				const __m256d ahi = _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1));
				for (; k < end; k++) {
					double *d = (double *)(void *)(F + col_at(gcol, k, narrow));
					__m256d wv = _mm256_broadcast_sd(w + k);
					_mm256_store_pd(d, _mm256_fmadd_pd(wv, alo, _mm256_load_pd(d)));
					_mm256_store_pd(d + 4, _mm256_fmadd_pd(wv, ahi,
									       _mm256_load_pd(d + 4)));
				}
			} else {
				char *F = wk->gf;
				const float *w = p->w;
#define SA_GUPD(u)                                                                      \
	do {                                                                            \
		float *d_ = (float *)(void *)(F + col_at(gcol, k + (u), narrow));       \
		_mm256_store_ps(d_, _mm256_fmadd_ps(_mm256_broadcast_ss(w + k + (u)), a,  \
						    _mm256_load_ps(d_)));               \
	} while (0)
				if (narrow) { /* rows padded to SA_ROW_PAD = 4 */
					for (; k < end; k += 4) {
						SA_GUPD(0);
						SA_GUPD(1);
						SA_GUPD(2);
						SA_GUPD(3);
					}
				} else {
					for (; k < end; k++)
						SA_GUPD(0);
				}
#undef SA_GUPD
			}
		}
		if (kind == SA_F32) {
			elo = _mm256_add_pd(elo, _mm256_cvtps_pd(_mm256_castps256_ps128(eb)));
			ehi = _mm256_add_pd(ehi, _mm256_cvtps_pd(_mm256_extractf128_ps(eb, 1)));
		}
	}
	_mm256_storeu_pd(wk->ger, elo);
	_mm256_storeu_pd(wk->ger + 4, ehi);
}

/* Copies the bytes of lane g of gx into gbx where mb[g] is 0xFF, for
 * variables 0 … n − 1 rounded up to a multiple of 4. */
SA_TARGET_AVX2 static void group_blend(uint8_t *gbx, const uint8_t *gx, const uint8_t *mb,
				       size_t n)
{
	uint64_t m64;
	__m256i mask;
	size_t i;

	memcpy(&m64, mb, sizeof m64);
	mask = _mm256_set1_epi64x((long long)m64);
	for (i = 0; i < n; i += 4) {
		__m256i *d = (__m256i *)(void *)(gbx + SA_GROUP * i);
		const __m256i x = _mm256_load_si256((const __m256i *)(const void *)(gx + SA_GROUP * i));
		_mm256_store_si256(d, _mm256_blendv_epi8(_mm256_load_si256(d), x, mask));
	}
}

/* The float32 group's fields and tracked energies recomputed from gx, for
 * the 8 reads at once: per read the arithmetic of init_fields (the same
 * products, sums and order, in double), so the reads stay as they would be
 * resynchronised one by one. */
SA_TARGET_AVX2 static void group_resync(sa_worker *wk)
{
	const qubo_model *m = wk->sh->m;
	const uint8_t *gx = wk->gx;
	float *gf = wk->gf;
	const __m256d half = _mm256_set1_pd(0.5);
	const __m128i one = _mm_set1_epi8(1);
	__m256d elo = _mm256_setzero_pd(), ehi = _mm256_setzero_pd();
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		const __m256d h = _mm256_set1_pd(m->h[i]);
		__m256d vlo = h, vhi = h;
		__m128i xi;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			const __m128i xb = _mm_and_si128(_mm_loadl_epi64((const __m128i *)(const void *)
						(gx + SA_GROUP * (size_t)m->col[k])), one);
			const __m256d w = _mm256_set1_pd(m->val[k]);
			vlo = _mm256_add_pd(vlo, _mm256_mul_pd(w, _mm256_cvtepi32_pd(
						_mm_cvtepu8_epi32(xb))));
			vhi = _mm256_add_pd(vhi, _mm256_mul_pd(w, _mm256_cvtepi32_pd(
						_mm_cvtepu8_epi32(_mm_srli_si128(xb, 4)))));
		}
		_mm256_store_ps(gf + SA_GROUP * i, _mm256_insertf128_ps(
			_mm256_castps128_ps256(_mm256_cvtpd_ps(vlo)), _mm256_cvtpd_ps(vhi), 1));
		/* the reads with x_i = 1 add 0.5 (v + h_i); the others +0 */
		xi = _mm_loadl_epi64((const __m128i *)(const void *)(gx + SA_GROUP * i));
		elo = _mm256_add_pd(elo, _mm256_and_pd(_mm256_mul_pd(half, _mm256_add_pd(vlo, h)),
			_mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(xi),
							       _mm256_setzero_si256()))));
		ehi = _mm256_add_pd(ehi, _mm256_and_pd(_mm256_mul_pd(half, _mm256_add_pd(vhi, h)),
			_mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(
				_mm_srli_si128(xi, 4)), _mm256_setzero_si256()))));
	}
	_mm256_storeu_pd(wk->ger, elo);
	_mm256_storeu_pd(wk->ger + 4, ehi);
}

/* Adds the group's accepted ΔE summed in esum to its tracked energies;
 * returns a zero sum. */
SA_TARGET_AVX2 static __m256i gflush_int(sa_worker *wk, __m256i esum)
{
	int32_t d[SA_GROUP];
	unsigned g;

	_mm256_storeu_si256((__m256i *)(void *)d, esum);
	for (g = 0; g < SA_GROUP; g++)
		wk->gei[g] += d[g];
	return _mm256_setzero_si256();
}

/* The integer kind in groups: int16 fields (|f| <= SA_INT_MAX_DE), so that
 * a row costs what it costs a single read (int16 weights, uint16 columns);
 * a flip adds sign(a) · w with a in {−1, 0, +1} per lane. */
SA_TARGET_AVX2 static SA_INLINE void gsweep_int_avx2(sa_worker *wk, double bu, const int narrow)
{
	const sa_prep *p = wk->sh->p;
	const size_t n = p->n;
	const size_t *rp = p->rp;
	const void *gcol = p->gcol;
	const int16_t *w = p->w;
	uint8_t *gx = wk->gx;
	char *F = wk->gf;
	__m256i *gs = (__m256i *)(void *)wk->gs;
	const __m256 bf = _mm256_set1_ps((float)bu);
	const __m128i bits = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
	const __m128i one = _mm_set1_epi16(1);
	const int wide = p->wide_de;
	__m256i esum = _mm256_setzero_si256(); /* ΔE accepted since the last flush */
	size_t i0, c0;

	/* |ΔE| <= SA_INT_MAX_DE: chunks of 2^16 variables cannot overflow esum */
	for (c0 = 0; c0 < n; c0 += 0x10000, esum = gflush_int(wk, esum))
	for (i0 = c0; i0 < n && i0 < c0 + 0x10000; i0 += SA_LANES) {
		/* the block's accepted ΔE in int16: 8 of |ΔE| <= 4095 fit, and
		 * half a block of any */
		__m128i eb = _mm_setzero_si128();
		sa_gblock blk;
		unsigned j;

		gblock_avx2(gs, &blk);
		for (j = 0; j < SA_LANES && i0 + j < n; j++) {
			const size_t i = i0 + j;
			__m128i xm, de, accv, a16;
			unsigned amb, acc;
			uint64_t xw;
			size_t k, end;

			if (j == SA_LANES / 2 && wide) {
				esum = _mm256_add_epi32(esum, _mm256_cvtepi16_epi32(eb));
				eb = _mm_setzero_si128();
			}

			/* x as 16-bit masks (0 or −1): ΔE = (f ^ xm) − xm = ±f */
			xm = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)
							       (gx + SA_GROUP * i)));
			de = _mm_load_si128((const __m128i *)(const void *)(F + 16 * i));
			de = _mm_sub_epi16(_mm_xor_si128(de, xm), xm);
			acc = gdecide_avx2(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(de)),
							 bf), &blk, j, &amb);
			if (QUBO__UNLIKELY(amb))
				acc |= group_resolve(p, wk->gf, gx, i, bu, blk.r[j], amb);
			if (!acc)
				continue;
			accv = _mm_cmpeq_epi16(_mm_and_si128(_mm_set1_epi16((short)acc), bits), bits);
			eb = _mm_add_epi16(eb, _mm_and_si128(de, accv));
			a16 = _mm_and_si128(accv, _mm_or_si128(xm, one)); /* 1 − 2 x, or 0 */
			memcpy(&xw, gx + SA_GROUP * i, sizeof xw);
			xw ^= sa_spread[acc];
			memcpy(gx + SA_GROUP * i, &xw, sizeof xw);
			k = rp[i];
			end = rp[i + 1];
#define SA_GUPD(u)                                                                      \
	do {                                                                            \
		__m128i *d_ = (__m128i *)(void *)(F + col_at(gcol, k + (u), narrow));  \
		_mm_store_si128(d_, _mm_add_epi16(_mm_load_si128(d_), _mm_sign_epi16(    \
					_mm_set1_epi16(w[k + (u)]), a16)));             \
	} while (0)
			if (narrow) { /* rows padded to SA_ROW_PAD = 4 */
				for (; k < end; k += 4) {
					SA_GUPD(0);
					SA_GUPD(1);
					SA_GUPD(2);
					SA_GUPD(3);
				}
			} else {
				for (; k < end; k++)
					SA_GUPD(0);
			}
#undef SA_GUPD
		}
		esum = _mm256_add_epi32(esum, _mm256_cvtepi16_epi32(eb));
	}
}

SA_TARGET_AVX2 static void gsweep_int_n(sa_worker *wk, double bu)
{
	gsweep_int_avx2(wk, bu, 1);
}

SA_TARGET_AVX2 static void gsweep_int_w(sa_worker *wk, double bu)
{
	gsweep_int_avx2(wk, bu, 0);
}

#define SA_GFAST(name, kind, narrow)                                    \
	SA_TARGET_AVX2 static void name(sa_worker *wk, double bu)      \
	{                                                               \
		gsweep_avx2(wk, bu, kind, narrow);                      \
	}
SA_GFAST(gsweep_f32_n, SA_F32, 1)
SA_GFAST(gsweep_f32_w, SA_F32, 0)
SA_GFAST(gsweep_f64_n, SA_F64, 1)
SA_GFAST(gsweep_f64_w, SA_F64, 0)
#endif

/* ---------------------------------------------------------------------------
 * One read.
 */

static void random_state(sa_worker *wk, size_t n)
{
	uint32_t r[SA_LANES];
	size_t i = 0;
	int l, k;

	while (i < n) {
		qubo__lane_block(&wk->g, r);
		for (l = 0; l < SA_LANES; l++)
			for (k = 0; k < 32 && i < n; k++, i++)
				wk->x[i] = (uint8_t)((r[l] >> k) & 1);
	}
}

/* Fields and tracked energy of the worker's x, computed exactly. */
static void init_fields(sa_worker *wk)
{
	const sa_prep *p = wk->sh->p;
	const qubo_model *m = p->m;
	const size_t n = p->n;
	const uint8_t *x = wk->x;
	size_t i, k;

	if (p->kind == SA_INT) {
		int32_t *f = wk->f;
		const int16_t *w = p->w;
		int64_t e = 0;
		memcpy(f, p->h, n * sizeof *f);
		for (i = 0; i < n; i++)
			if (x[i])
				for (k = p->rp[i]; k < p->rp[i + 1]; k++)
					f[col_at(p->col, k, p->narrow)] += w[k];
		for (i = 0; i < n; i++)
			if (x[i])
				e += (int64_t)f[i] + ((const int32_t *)p->h)[i];
		wk->ei = e / 2; /* Σ x_i (f_i + h_i) = 2 (E − offset) */
	} else {
		double *fd = p->kind == SA_F64 ? wk->f : NULL, e = 0;
		for (i = 0; i < n; i++) {
			double v = m->h[i];
			for (k = m->row[i]; k < m->row[i + 1]; k++) /* no branch on x */
				v += m->val[k] * (double)x[m->col[k]];
			if (fd)
				fd[i] = v;
			else
				((float *)wk->f)[i] = (float)v;
			if (x[i])
				e += 0.5 * (v + m->h[i]);
		}
		wk->er = e;
	}
}

/* After a sweep of a single read: keeps its state in bx if it is the lowest
 * seen at a sweep's end (the tracked energies decide, in the same way in
 * the group sweeps, so both keep the same states). */
static void keep_lowest(sa_worker *wk)
{
	if (wk->sh->p->kind == SA_INT ? wk->ei < wk->bei : wk->er < wk->ber) {
		wk->bei = wk->ei;
		wk->ber = wk->er;
		memcpy(wk->bx, wk->x, wk->sh->p->n);
	}
}

/* The tracked energy at or below which a read may have reached the target
 * (never, without a target): the scaled target with a little slack, and
 * the exact energy decides (confirm_target). */
static void set_trigger(sa_worker *wk)
{
	const sa_shared *sh = wk->sh;
	const sa_prep *p = sh->p;
	const qubo_model *m = sh->m;

	wk->trig_i = INT64_MIN;
	wk->trig_r = -HUGE_VAL;
	if (!sh->has_target)
		return;
	if (p->kind == SA_INT) {
		double t = (sh->target - m->offset) / p->unit;
		t += 1e-9 * (fabs(t) + 1);
		wk->trig_i = t >= 9e18 ? INT64_MAX : t <= -9e18 ? INT64_MIN : (int64_t)floor(t);
	} else { /* the tracked energy drifts by rounding */
		wk->trig_r = sh->target - m->offset +
			     1e-9 * (fabs(sh->target - m->offset) + p->scale);
	}
}

/* Runs read r in the worker's buffers. Returns the flip attempts made; *hit
 * is set when the read reached the target. */
static uint64_t run_read(sa_worker *wk, size_t r, int *hit)
{
	sa_shared *sh = wk->sh;
	const sa_prep *p = sh->p;
	const qubo_model *m = sh->m;
	const size_t n = p->n;
	uint64_t attempts = 0;
	size_t s;

	qubo__lane_seed(&wk->g, sh->seed, sh->first_read + r);
	random_state(wk, n);
	init_fields(wk);
	wk->bei = wk->ei;
	wk->ber = wk->er;
	if (sh->keep_lowest)
		memcpy(wk->bx, wk->x, n);
	set_trigger(wk);
	if (sh->has_target) {
		if (exact_energy(m, wk->x) <= sh->target) {
			*hit = 1;
			return 0;
		}
	}
	for (s = 0; n && s < sh->num_sweeps; s++) {
		double bu = beta_at(sh, s) * p->unit;
		if (stopped(sh))
			break;
		if (p->kind == SA_F32 && s % SA_RESYNC == 0 && s)
			init_fields(wk);
		/* The fast sweep handles bu in [2^−100, 2^100]: t in float32 is
		 * then exact enough (see decide_avx2). */
		if (bu >= 0x1p-100 && bu <= 0x1p100)
			attempts += sh->sweep(wk, bu, hit);
		else
			attempts += sh->portable(wk, bu, hit);
		if (*hit)
			break;
		if (sh->keep_lowest)
			keep_lowest(wk);
	}
	return attempts;
}

/* Lane g of the worker's group from its single-read buffers: x, fields and
 * the generator. */
static void group_put(sa_worker *wk, unsigned g)
{
	const sa_prep *p = wk->sh->p;
	size_t i;
	int j, k;

	for (i = 0; i < p->n; i++) {
		wk->gx[SA_GROUP * i + g] = (uint8_t)-wk->x[i]; /* 0x00 or 0xFF */
		if (p->kind == SA_F64)
			((double *)wk->gf)[SA_GROUP * i + g] = ((const double *)wk->f)[i];
		else if (p->kind == SA_F32)
			((float *)wk->gf)[SA_GROUP * i + g] = ((const float *)wk->f)[i];
		else /* |f| <= SA_INT_MAX_DE */
			((int16_t *)wk->gf)[SA_GROUP * i + g] = (int16_t)((const int32_t *)wk->f)[i];
	}
	for (j = 0; j < SA_LANES; j++)
		for (k = 0; k < 4; k++)
			wk->gs[(4 * j + k) * SA_GROUP + g] = wk->g.s[k][j];
}

/* x of read g of the group into the worker's single-read x. */
static void group_get_x(sa_worker *wk, unsigned g)
{
	size_t i;

	for (i = 0; i < wk->sh->p->n; i++)
		wk->x[i] = wk->gx[SA_GROUP * i + g] & 1;
}

/* keep_lowest for each read of the group: the reads whose tracked energy
 * went below their lowest get their bytes of gx copied into gbx (whole
 * 32-byte blocks: gx and gbx are padded to 64 bytes, and the padding is
 * never read). */
static void group_keep_lowest(sa_worker *wk)
{
	const int integer = wk->sh->p->kind == SA_INT;
	uint8_t mb[SA_GROUP]; /* 0xFF for the reads that improved */
	unsigned g, better = 0;

	for (g = 0; g < SA_GROUP; g++) {
		mb[g] = 0;
		if (integer ? wk->gei[g] < wk->gbi[g] : wk->ger[g] < wk->gbr[g]) {
			wk->gbi[g] = wk->gei[g];
			wk->gbr[g] = wk->ger[g];
			mb[g] = 0xFF;
			better = 1;
		}
	}
	if (!better)
		return;
#if SA_AVX2
	group_blend(wk->gbx, wk->gx, mb, wk->sh->p->n);
#else
	{
		uint64_t mask, x, y;
		size_t i;
		memcpy(&mask, mb, sizeof mask);
		for (i = 0; i < wk->sh->p->n; i++) {
			memcpy(&x, wk->gx + SA_GROUP * i, sizeof x);
			memcpy(&y, wk->gbx + SA_GROUP * i, sizeof y);
			y = (y & ~mask) | (x & mask);
			memcpy(wk->gbx + SA_GROUP * i, &y, sizeof y);
		}
	}
#endif
}

/* Read g of the group, final and lowest state, into the worker's single-read
 * buffers, with their tracked energies. */
static void group_get(sa_worker *wk, unsigned g)
{
	size_t i;

	for (i = 0; i < wk->sh->p->n; i++) {
		wk->x[i] = wk->gx[SA_GROUP * i + g] & 1;
		wk->bx[i] = wk->gbx[SA_GROUP * i + g] & 1;
	}
	wk->ei = wk->gei[g];
	wk->bei = wk->gbi[g];
	wk->er = wk->ger[g];
	wk->ber = wk->gbr[g];
}

/* The reads of the group whose state reached the target, checked at the
 * end of a sweep: the tracked energy triggers, the exact one decides (and
 * resynchronises a real read that only drifted below the trigger). */
static unsigned group_reached(sa_worker *wk)
{
	const sa_shared *sh = wk->sh;
	const int integer = sh->p->kind == SA_INT;
	unsigned g, hits = 0;

	for (g = 0; g < SA_GROUP; g++) {
		double e;
		if (integer ? wk->gei[g] > wk->trig_i : wk->ger[g] > wk->trig_r)
			continue;
		group_get_x(wk, g);
		e = exact_energy(sh->m, wk->x);
		if (e <= sh->target)
			hits |= 1u << g;
		else if (!integer)
			wk->ger[g] = e - sh->m->offset;
	}
	return hits;
}

/* Runs reads r0 … r0 + SA_GROUP − 1 together. Each read starts, draws its
 * random numbers and rounds exactly as run_read would; only the order of
 * the work differs. Returns the flip attempts made. */
static uint64_t run_group(sa_worker *wk, size_t r0, unsigned *hits)
{
	sa_shared *sh = wk->sh;
	const sa_prep *p = sh->p;
	const size_t n = p->n;
	uint64_t attempts = 0;
	unsigned g;
	size_t s;

	*hits = 0;
	set_trigger(wk);
	for (g = 0; g < SA_GROUP; g++) {
		qubo__lane_seed(&wk->g, sh->seed, sh->first_read + r0 + g);
		random_state(wk, n);
		if (sh->has_target && exact_energy(sh->m, wk->x) <= sh->target)
			*hits |= 1u << g;
		init_fields(wk);
		group_put(wk, g);
		wk->gei[g] = wk->gbi[g] = wk->ei;
		wk->ger[g] = wk->gbr[g] = wk->er;
	}
	if (sh->keep_lowest)
		memcpy(wk->gbx, wk->gx, SA_GROUP * n);
	for (s = 0; n && !*hits && s < sh->num_sweeps; s++) {
		if (stopped(sh))
			break;
#if SA_AVX2 /* groups run only with AVX2 */
		if (p->kind == SA_F32 && s % SA_RESYNC == 0 && s)
			group_resync(wk);
#endif
		sh->gsweep(wk, beta_at(sh, s) * p->unit);
		attempts += (uint64_t)SA_GROUP * n;
		if (sh->keep_lowest)
			group_keep_lowest(wk);
		if (sh->has_target)
			*hits = group_reached(wk);
	}
	return attempts;
}

/* Stores a finished read: its lowest state seen at a sweep's end (the final
 * one unless an earlier one is lower, exactly), exact energy, counters. */
static void finish_read(sa_worker *wk, size_t r, int hit)
{
	sa_shared *sh = wk->sh;
	const size_t n = sh->p->n;
	double e = exact_energy(sh->m, wk->x);

	if (sh->keep_lowest && (sh->p->kind == SA_INT ? wk->bei < wk->ei : wk->ber < wk->er)) {
		double eb = exact_energy(sh->m, wk->bx);
		if (eb < e) {
			memcpy(wk->x, wk->bx, n);
			e = eb;
		}
	}
	memcpy(sh->samples + r * n, wk->x, n);
	sh->energies[r] = e;
	sh->done[r] = 1;
	if (hit)
		qubo__pool_request_stop(sh->pool, QUBO__STOP_TARGET);
	qubo__pool_report(sh->pool, 1, e);
}

/* Unit u of the pool on worker w: reads SA_GROUP u .. SA_GROUP u + 7 while
 * u < num_groups, then one read each. This is the order in which reads were
 * always taken (8 at a time while 8 are left), and a read's result depends on
 * (seed, read) only. */
static int sa_unit(qubo__pool *pl, unsigned w, size_t u)
{
	sa_shared *sh = pl->arg;
	sa_worker *wk = &sh->wk[w];
	int hit = 0;

	if (stopped(sh))
		return QUBO_OK; /* taken after a stop: no read runs */
	if (u < sh->num_groups) {
		size_t r = u * SA_GROUP;
		unsigned g, hits;

		wk->flips += run_group(wk, r, &hits);
		for (g = 0; g < SA_GROUP; g++) {
			group_get(wk, g);
			finish_read(wk, r + g, (hits >> g) & 1);
		}
	} else {
		size_t r = sh->num_groups * SA_GROUP + (u - sh->num_groups);

		wk->flips += run_read(wk, r, &hit);
		finish_read(wk, r, hit);
	}
	return QUBO_OK;
}

/* ---------------------------------------------------------------------------
 * Driver.
 */

static int check_args(const qubo_model *m, const qubo__sa_params *p, const qubo__run *run,
		      const uint8_t *samples, const double *energies, const qubo__result *res)
{
	static const char fn[] = "simulated annealing";
	int rc = qubo__model_require_bounded(m, fn);

	if (rc)
		return rc;
	if (!p || !run || !res || !samples || !energies)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL parameters, run control or buffer",
				   fn);
	if (run->num_reads < 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: num_reads is 0", fn);
	if (p->num_sweeps < 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: num_sweeps is 0", fn);
	if (run->threads < 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: threads is %d, need at least 1", fn,
				   run->threads);
	if (!(p->beta_hot == 0 && p->beta_cold == 0) &&
	    !(qubo__is_finite(p->beta_hot) && p->beta_hot > 0 &&
	      qubo__is_finite(p->beta_cold) && p->beta_cold > 0))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: beta range [%g, %g] must be two "
				   "finite positive values, or both 0 for the default", fn,
				   p->beta_hot, p->beta_cold);
	if (run->time_limit != run->time_limit)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: time_limit is NaN", fn);
	if (run->has_target && run->target != run->target)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: target is NaN", fn);
	if (m->n && run->num_reads > SIZE_MAX / m->n)
		return qubo__error(QUBO_ERR_TOO_LARGE, "%s: %zu reads of %zu variables do not fit "
				   "in memory", fn, run->num_reads, m->n);
	if (m->n > SIZE_MAX / sizeof(double) / 2 - 64)
		return qubo__error(QUBO_ERR_TOO_LARGE, "%s: %zu variables", fn, m->n);
	return QUBO_OK;
}

static void free_workers(const qubo_allocator *a, sa_worker *w, size_t count)
{
	size_t t;

	if (!w)
		return;
	for (t = 0; t < count; t++) {
		qubo__free(a, w[t].mem);
		qubo__free(a, w[t].gmem);
	}
	qubo__free(a, w);
}

/* One worker's x and fields in one block, each on its own cache lines (no
 * line is shared with another allocation), padding filled. */
static int alloc_worker(const qubo_allocator *a, const sa_prep *p, sa_worker *w)
{
	const size_t n = p->n, cells = n + SA_LANES;
	const size_t fsize = p->kind == SA_INT ? sizeof(int32_t)
			   : p->kind == SA_F32 ? sizeof(float) : sizeof(double);
	const size_t xbytes = (cells + 63) / 64 * 64;
	size_t t;
	uintptr_t base;

	w->mem = qubo__malloc(a, 64 + 2 * xbytes + cells * fsize + 64);
	if (!w->mem)
		return 0;
	base = ((uintptr_t)w->mem + 63) & ~(uintptr_t)63;
	w->x = (uint8_t *)w->mem + (base - (uintptr_t)w->mem);
	w->bx = w->x + xbytes;
	w->f = w->bx + xbytes;
	memset(w->x, 0, 2 * xbytes);
	for (t = n; t < cells; t++) {
		if (p->kind == SA_INT)
			((int32_t *)w->f)[t] = INT32_MAX / 2;
		else if (p->kind == SA_F32)
			((float *)w->f)[t] = HUGE_VALF;
		else
			((double *)w->f)[t] = HUGE_VAL;
	}
	if (p->groups) {
		const size_t gfsize = p->kind == SA_F64 ? sizeof(double)
				    : p->kind == SA_F32 ? sizeof(float) : sizeof(int16_t);
		const size_t gxbytes = (cells * SA_GROUP + 63) / 64 * 64;
		const size_t gfbytes = (cells * SA_GROUP * gfsize + 63) / 64 * 64;
		const size_t gsbytes = 4 * SA_LANES * SA_GROUP * sizeof(uint32_t);

		w->gmem = qubo__malloc(a, 64 + 2 * gxbytes + gfbytes + gsbytes + 64);
		if (!w->gmem)
			return 0;
		base = ((uintptr_t)w->gmem + 63) & ~(uintptr_t)63;
		w->gx = (uint8_t *)w->gmem + (base - (uintptr_t)w->gmem);
		/* gx, gf and gs, which every sweep reads, before gbx, which only
		 * the ends of some sweeps touch */
		w->gf = w->gx + gxbytes;
		w->gs = (uint32_t *)(void *)((uint8_t *)w->gf + gfbytes);
		w->gbx = (uint8_t *)w->gs + gsbytes;
		memset(w->gx, 0, 2 * gxbytes + gfbytes + gsbytes);
	}
	return 1;
}


static void pick_sweeps(const sa_prep *p, int portable_only, sa_sweep_fn *fast, sa_sweep_fn *port)
{
	static const sa_sweep_fn pf[3][2] = {
		{ sweep_int_w, sweep_int_n }, { sweep_f32_w, sweep_f32_n },
		{ sweep_f64_w, sweep_f64_n } };

	*port = pf[p->kind][p->narrow];
	*fast = *port;
#if SA_AVX2
	{
		static const sa_sweep_fn vf[3][2] = {
			{ sweep_int_w_avx2, sweep_int_n_avx2 },
			{ sweep_f32_w_avx2, sweep_f32_n_avx2 },
			{ sweep_f64_w_avx2, sweep_f64_n_avx2 } };
		if (!portable_only && qubo__lane_have_avx2())
			*fast = vf[p->kind][p->narrow];
	}
#else
	(void)portable_only;
#endif
}

static void (*pick_gsweep(const sa_prep *p))(sa_worker *, double)
{
#if SA_AVX2
	static void (*const gf[3][2])(sa_worker *, double) = {
		{ gsweep_int_w, gsweep_int_n }, { gsweep_f32_w, gsweep_f32_n },
		{ gsweep_f64_w, gsweep_f64_n } };
	if (p->groups)
		return gf[p->kind][p->gnarrow];
#else
	(void)p;
#endif
	return NULL;
}

int qubo__sa_sample(const qubo_model *m, const qubo__sa_params *params, const qubo__run *run,
		    uint8_t *samples, double *energies, qubo__result *res)
{
	const qubo_allocator *a;
	sa_prep *p = NULL;
	sa_shared sh;
	qubo__pool rn;
	size_t nworkers = 0, t, r, kept;
	double bh, bc;
	int rc, shift = 0;
	int32_t maxde = 0;

	rc = check_args(m, params, run, samples, energies, res);
	if (rc)
		return rc;
	memset(&sh, 0, sizeof sh);
	a = &m->alloc;
	bh = params->beta_hot;
	bc = params->beta_cold;
	if (bh == 0 && bc == 0) {
		rc = qubo__sa_default_betas(m, &bh, &bc);
		if (rc)
			return rc;
	}

	/* Everything is allocated here, on the calling thread. */
	p = qubo__malloc(a, sizeof *p);
	if (!p)
		return qubo__nomem("simulated annealing: problem data");
	memset(p, 0, sizeof *p);
	p->m = m;
	p->n = m->n;
	p->unit = 1.0;
	{
		double wmax = qubo__max_weight(m);
		p->scale = wmax > 0 ? wmax * max_delta(m, wmax) : 0;
	}
	p->kind = pick_kind(m, params, run, fmax(bh, bc), p->scale, &shift, &maxde);
	if (p->kind == SA_INT) {
		p->unit = ldexp(1.0, -shift);
		p->wide_de = maxde > 4095;
	}
	p->narrow = m->n < 65536;
	/* Groups: SIMD lanes across reads, when there are enough reads and
	 * every β of the schedule suits the float32 test (see run_read). A
	 * group checks the target at the end of each sweep. */
	p->groups = qubo__lane_have_avx2() && !(params->flags & (QUBO__SA_PORTABLE | QUBO__SA_NO_GROUPS)) &&
		    run->num_reads >= SA_GROUP &&
		    fmin(bh, bc) * p->unit >= 0x1p-100 && fmax(bh, bc) * p->unit <= 0x1p100 &&
		    m->n < UINT32_MAX / (SA_GROUP * sizeof(double)) - 1;
	rc = prep_build(m, p, shift);
	if (rc)
		goto out;
	prep_log_tables(p);
	sh.m = m;
	sh.p = p;
	sh.num_reads = run->num_reads;
	sh.num_sweeps = params->num_sweeps;
	sh.seed = run->seed;
	sh.first_read = run->first_read;
	sh.beta_hot = bh;
	sh.beta_cold = bc;
	sh.log_ratio = log(bc / bh);
	sh.keep_lowest = params->keep_lowest;
	sh.has_target = run->has_target;
	sh.target = run->has_target ? run->target : -HUGE_VAL;
	pick_sweeps(p, (params->flags & QUBO__SA_PORTABLE) != 0, &sh.sweep, &sh.portable);
	sh.gsweep = pick_gsweep(p);
	sh.num_groups = sh.gsweep ? run->num_reads / SA_GROUP : 0;
	sh.samples = samples;
	sh.energies = energies;

	/* The pool's units: the groups, then the single reads left; progress
	 * counts reads. */
	qubo__pool_init_run(&rn, run, sh.num_groups + (run->num_reads - sh.num_groups * SA_GROUP),
			  sa_unit, &sh);
	rn.total = run->num_reads;
	sh.pool = &rn;
	nworkers = rn.num_workers;
	sh.done = qubo__calloc_array(a, run->num_reads, 1);
	sh.wk = qubo__calloc_array(a, nworkers, sizeof *sh.wk);
	if (!sh.done || !sh.wk) {
		rc = qubo__nomem("simulated annealing: per-read flags");
		goto out;
	}
	for (t = 0; t < nworkers; t++) {
		sh.wk[t].sh = &sh;
		if (!alloc_worker(a, p, &sh.wk[t])) {
			rc = qubo__nomem("simulated annealing: per-thread buffers");
			goto out;
		}
	}

	rc = qubo__pool_exec_run(&rn, res);
	if (rc)
		goto out;

	/* Compact the rows of the reads that ran to the front, in read order. */
	kept = 0;
	for (r = 0; r < run->num_reads; r++) {
		if (!sh.done[r])
			continue;
		if (kept != r) {
			memmove(samples + kept * m->n, samples + r * m->n, m->n);
			energies[kept] = energies[r];
		}
		kept++;
	}
	res->reads_done = kept;
	res->flips = 0;
	for (t = 0; t < nworkers; t++)
		res->flips += sh.wk[t].flips;
	rc = QUBO_OK;
out:
	free_workers(a, sh.wk, nworkers);
	qubo__free(a, sh.done);
	prep_free(a, p);
	return rc;
}
