/*
 * The sweeps of SA_LANE_READS reads in lanes, read g in lane g of the AVX2
 * registers (sa_impl.h; sa.c's first comment, "Lanes").
 */
#include <math.h>
#include <string.h>

#include "sa_impl.h"

#if SA_AVX2
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
 * of the lanes, and the bounds of the fast test for each: accept when
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
SA_TARGET_AVX2 static unsigned lanes_resolve(const sa_prep *p, const void *gf, const uint8_t *gx,
					     size_t i, double bu, __m256i r, unsigned amb)
{
	uint32_t rs[SA_LANE_READS];
	unsigned acc = 0, g;

	_mm256_storeu_si256((__m256i *)(void *)rs, r);
	for (g = 0; g < SA_LANE_READS; g++) {
		size_t c = SA_LANE_READS * i + g;
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
 * One sweep of the lanes: variable by variable, the 8 reads decide at once
 * (lane g = read g, with lane j of its own generator for variable 8 b + j, as
 * in the single-read sweeps) and the accepted ones update their fields with
 * one masked FMA per neighbour, f += w · a with a in {−1, 0, +1}: exactly
 * the single-read arithmetic, without a branch per read.
 */
SA_TARGET_AVX2 static SA_INLINE void lsweep_avx2(sa_worker *wk, double bu, const int kind,
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

			xb = _mm_loadl_epi64((const __m128i *)(const void *)(gx + SA_LANE_READS * i));
			sg = _mm256_slli_epi32(_mm256_cvtepu8_epi32(xb), 31);
			if (kind == SA_F64) {
				const double *fd = (const double *)wk->gf + SA_LANE_READS * i;
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
				__m256 fv = _mm256_load_ps((const float *)wk->gf + SA_LANE_READS * i);
				dv = _mm256_xor_ps(fv, _mm256_castsi256_ps(sg));
				t = _mm256_mul_ps(dv, bf);
			}
			acc = gdecide_avx2(t, &blk, j, &amb);
			if (QUBO__UNLIKELY(amb))
				acc |= lanes_resolve(p, wk->gf, gx, i, bu, blk.r[j], amb);
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
			memcpy(&xw, gx + SA_LANE_READS * i, sizeof xw);
			xw ^= sa_spread[acc];
			memcpy(gx + SA_LANE_READS * i, &xw, sizeof xw);
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
SA_TARGET_AVX2 void qubo__sa_lanes_blend(uint8_t *gbx, const uint8_t *gx, const uint8_t *mb,
					 size_t n)
{
	uint64_t m64;
	__m256i mask;
	size_t i;

	memcpy(&m64, mb, sizeof m64);
	mask = _mm256_set1_epi64x((long long)m64);
	for (i = 0; i < n; i += 4) {
		__m256i *d = (__m256i *)(void *)(gbx + SA_LANE_READS * i);
		const __m256i x = _mm256_load_si256((const __m256i *)(const void *)(gx + SA_LANE_READS * i));
		_mm256_store_si256(d, _mm256_blendv_epi8(_mm256_load_si256(d), x, mask));
	}
}

/* The float32 lanes' fields and tracked energies recomputed from gx, for
 * the 8 reads at once: per read the arithmetic of init_fields (the same
 * products, sums and order, in double), so the reads stay as they would be
 * resynchronised one by one. */
SA_TARGET_AVX2 void qubo__sa_lanes_resync(sa_worker *wk)
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
						(gx + SA_LANE_READS * (size_t)m->col[k])), one);
			const __m256d w = _mm256_set1_pd(m->val[k]);
			vlo = _mm256_add_pd(vlo, _mm256_mul_pd(w, _mm256_cvtepi32_pd(
						_mm_cvtepu8_epi32(xb))));
			vhi = _mm256_add_pd(vhi, _mm256_mul_pd(w, _mm256_cvtepi32_pd(
						_mm_cvtepu8_epi32(_mm_srli_si128(xb, 4)))));
		}
		_mm256_store_ps(gf + SA_LANE_READS * i, _mm256_insertf128_ps(
			_mm256_castps128_ps256(_mm256_cvtpd_ps(vlo)), _mm256_cvtpd_ps(vhi), 1));
		/* the reads with x_i = 1 add 0.5 (v + h_i); the others +0 */
		xi = _mm_loadl_epi64((const __m128i *)(const void *)(gx + SA_LANE_READS * i));
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

/* Adds the lanes' accepted ΔE summed in esum to its tracked energies;
 * returns a zero sum. */
SA_TARGET_AVX2 static __m256i gflush_int(sa_worker *wk, __m256i esum)
{
	int32_t d[SA_LANE_READS];
	unsigned g;

	_mm256_storeu_si256((__m256i *)(void *)d, esum);
	for (g = 0; g < SA_LANE_READS; g++)
		wk->gei[g] += d[g];
	return _mm256_setzero_si256();
}

/* The integer kind in lanes: int16 fields (|f| <= SA_INT_MAX_DE), so that
 * a row costs what it costs a single read (int16 weights, uint16 columns);
 * a flip adds sign(a) · w with a in {−1, 0, +1} per lane. */
SA_TARGET_AVX2 static SA_INLINE void lsweep_int_avx2(sa_worker *wk, double bu, const int narrow)
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
							       (gx + SA_LANE_READS * i)));
			de = _mm_load_si128((const __m128i *)(const void *)(F + 16 * i));
			de = _mm_sub_epi16(_mm_xor_si128(de, xm), xm);
			acc = gdecide_avx2(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(de)),
							 bf), &blk, j, &amb);
			if (QUBO__UNLIKELY(amb))
				acc |= lanes_resolve(p, wk->gf, gx, i, bu, blk.r[j], amb);
			if (!acc)
				continue;
			accv = _mm_cmpeq_epi16(_mm_and_si128(_mm_set1_epi16((short)acc), bits), bits);
			eb = _mm_add_epi16(eb, _mm_and_si128(de, accv));
			a16 = _mm_and_si128(accv, _mm_or_si128(xm, one)); /* 1 − 2 x, or 0 */
			memcpy(&xw, gx + SA_LANE_READS * i, sizeof xw);
			xw ^= sa_spread[acc];
			memcpy(gx + SA_LANE_READS * i, &xw, sizeof xw);
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

SA_TARGET_AVX2 static void lsweep_int_n(sa_worker *wk, double bu)
{
	lsweep_int_avx2(wk, bu, 1);
}

SA_TARGET_AVX2 static void lsweep_int_w(sa_worker *wk, double bu)
{
	lsweep_int_avx2(wk, bu, 0);
}

#define SA_LFAST(name, kind, narrow)                                    \
	SA_TARGET_AVX2 static void name(sa_worker *wk, double bu)      \
	{                                                               \
		lsweep_avx2(wk, bu, kind, narrow);                      \
	}
SA_LFAST(lsweep_f32_n, SA_F32, 1)
SA_LFAST(lsweep_f32_w, SA_F32, 0)
SA_LFAST(lsweep_f64_n, SA_F64, 1)
SA_LFAST(lsweep_f64_w, SA_F64, 0)
#endif

sa_lsweep_fn qubo__sa_pick_lsweep(const sa_prep *p)
{
#if SA_AVX2
	static const sa_lsweep_fn gf[3][2] = {
		{ lsweep_int_w, lsweep_int_n }, { lsweep_f32_w, lsweep_f32_n },
		{ lsweep_f64_w, lsweep_f64_n } };
	if (p->lanes)
		return gf[p->kind][p->gnarrow];
#else
	(void)p;
#endif
	return NULL;
}
