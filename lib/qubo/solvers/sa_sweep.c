/*
 * The sweeps of a single read (sa_impl.h): portable, and with AVX2 8
 * decisions at once, the accepted lanes walked in order.
 */
#include <math.h>
#include <string.h>

#include "sa_impl.h"

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
#endif

void qubo__sa_pick_sweeps(const sa_prep *p, int portable_only, sa_sweep_fn *fast, sa_sweep_fn *port)
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
