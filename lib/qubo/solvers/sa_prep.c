/*
 * The problem as the sweeps see it (sa_impl.h): the field type (integer
 * with a power-of-two scale, float32 or double), the rows padded for the
 * narrow columns, and the bracket tables of the portable Metropolis test.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "sa_impl.h"

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
double qubo__sa_max_delta(const qubo_model *m, double norm)
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

void qubo__sa_prep_log_tables(sa_prep *p)
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
int qubo__sa_pick_kind(const qubo_model *m, const qubo__sa_params *par, const qubo__run *run,
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

void qubo__sa_prep_free(const qubo_allocator *a, sa_prep *p)
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
int qubo__sa_prep_build(const qubo_model *m, sa_prep *p, int shift)
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
	const uint32_t gstride = SA_LANE_READS * (p->kind == SA_F64 ? sizeof(double)
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
	if (p->lanes)
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
	    (p->lanes && !gcol) ||
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
			/* lanes: padding adds 0 to variable i's own lanes */
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

