/*
 * Sorting and summing the entries of one row (compile_impl.h): a stable
 * merge sort, a rank sort for short rows and a radix sort for long ones,
 * and the sums of equal columns.
 */
#include "compile_impl.h"

/* Stable merge sort of (col, val) by col, using scratch of the same size. */
void qubo__compile_sort_pairs(uint32_t *c, double *v, size_t len, uint32_t *sc, double *sv)
{
	size_t width, i;

	for (i = 1; i < len && c[i - 1] <= c[i]; i++)
		; /* terms often arrive in order (files written by row) */
	if (i >= len)
		return;
	if (len <= 32) { /* insertion sort for short rows */
		for (i = 1; i < len; i++) {
			uint32_t kc = c[i];
			double kv = v[i];
			size_t j = i;
			while (j > 0 && c[j - 1] > kc) {
				c[j] = c[j - 1];
				v[j] = v[j - 1];
				j--;
			}
			c[j] = kc;
			v[j] = kv;
		}
		return;
	}
	for (width = 1; width < len; width *= 2) {
		for (i = 0; i < len; i += 2 * width) {
			size_t lo = i, mid = i + width < len ? i + width : len;
			size_t hi = i + 2 * width < len ? i + 2 * width : len;
			size_t x = lo, y = mid, o = lo;
			while (x < mid && y < hi) {
				if (c[y] < c[x]) {
					sc[o] = c[y];
					sv[o++] = v[y++];
				} else {
					sc[o] = c[x];
					sv[o++] = v[x++];
				}
			}
			while (x < mid) {
				sc[o] = c[x];
				sv[o++] = v[x++];
			}
			while (y < hi) {
				sc[o] = c[y];
				sv[o++] = v[y++];
			}
		}
		memcpy(c, sc, len * sizeof *c);
		memcpy(v, sv, len * sizeof *v);
	}
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define RANK_SSE2 1
#else
#define RANK_SSE2 0
#endif

/* Stable sort of (c, v)[0, len) by c into (oc, ov), len <= RANK_MAX, every
 * column below 2^26: each entry goes to its rank, the number of entries
 * with a smaller key, where the key is the column and then the entry's
 * place. Quadratic, but without a branch that depends on the columns
 * (an insertion sort of random columns mispredicts about once an entry),
 * and with SSE2 four ranks at a time: for short rows it is the fastest. */
void qubo__compile_rank_pairs(const uint32_t *c, const double *v, size_t len, uint32_t *oc,
			      double *ov)
{
	uint32_t n = (uint32_t)len, i;

	if (n < 2) { /* most rows over many variables */
		if (n) {
			oc[0] = c[0];
			ov[0] = v[0];
		}
		return;
	}
#if RANK_SSE2
	/* the keys with the sign bit flipped compare as signed numbers in
	 * the order of the keys; the rows are padded to 16 with the largest,
	 * whose ranks are not used */
	int32_t key[RANK_MAX + 16], rank[RANK_MAX + 16];
	uint32_t j, b;

	for (i = 0; i < n; i++)
		key[i] = (int32_t)((c[i] << 6 | i) ^ 0x80000000u);
	for (; i % 16; i++)
		key[i] = INT32_MAX;
	for (b = 0; b < n; b += 16) {
		__m128i k0 = _mm_loadu_si128((const __m128i *)(const void *)(key + b));
		__m128i k1 = _mm_loadu_si128((const __m128i *)(const void *)(key + b + 4));
		__m128i k2 = _mm_loadu_si128((const __m128i *)(const void *)(key + b + 8));
		__m128i k3 = _mm_loadu_si128((const __m128i *)(const void *)(key + b + 12));
		__m128i r0 = _mm_setzero_si128(), r1 = r0, r2 = r0, r3 = r0;
		for (j = 0; j < n; j++) {
			__m128i x = _mm_set1_epi32(key[j]);
			/* a true comparison is −1: subtracting it counts */
			r0 = _mm_sub_epi32(r0, _mm_cmpgt_epi32(k0, x));
			r1 = _mm_sub_epi32(r1, _mm_cmpgt_epi32(k1, x));
			r2 = _mm_sub_epi32(r2, _mm_cmpgt_epi32(k2, x));
			r3 = _mm_sub_epi32(r3, _mm_cmpgt_epi32(k3, x));
		}
		_mm_storeu_si128((__m128i *)(void *)(rank + b), r0);
		_mm_storeu_si128((__m128i *)(void *)(rank + b + 4), r1);
		_mm_storeu_si128((__m128i *)(void *)(rank + b + 8), r2);
		_mm_storeu_si128((__m128i *)(void *)(rank + b + 12), r3);
	}
	for (i = 0; i < n; i++) {
		oc[rank[i]] = c[i];
		ov[rank[i]] = v[i];
	}
#else
	for (i = 0; i < n; i++) {
		uint32_t k = c[i], j, r = 0;
		for (j = 0; j < i; j++)
			r += c[j] <= k;
		for (j = i + 1; j < n; j++)
			r += c[j] < k;
		oc[r] = k;
		ov[r] = v[i];
	}
#endif
}

/* The most bits of a digit of radix_pairs: 2^11 counts of 4 bytes stay in
 * the core's first cache. */
#define RADIX_BITS 11

/* Stable sort of (c, v)[0, len) by c, len < 2^32, columns of cb bits, by
 * counting sorts of one digit at a time from the lowest up (each stable,
 * so the order of addition holds among equal columns), between (c, v) and
 * (oc, ov); the digits are as many as RADIX_BITS needs, of equal width.
 * Returns 1 when the sorted row ends in (oc, ov), 0 in (c, v). For the
 * rows too long to rank: its time grows as the row's length, where merging
 * adds a pass over the row for every doubling of it. */
int qubo__compile_radix_pairs(uint32_t *c, double *v, size_t len, uint32_t *oc, double *ov,
			      unsigned cb)
{
	uint32_t cnt[1u << RADIX_BITS], *fc = c, *tc = oc, *xc;
	double *fv = v, *tv = ov, *xv;
	unsigned digits = (cb + RADIX_BITS - 1) / RADIX_BITS, bits, shift;
	size_t i;

	bits = digits ? (cb + digits - 1) / digits : 0;
	for (shift = 0; shift < cb; shift += bits) {
		uint32_t mask = (1u << bits) - 1, at = 0;
		memset(cnt, 0, (mask + 1) * sizeof *cnt);
		for (i = 0; i < len; i++)
			cnt[fc[i] >> shift & mask]++;
		for (i = 0; i <= mask; i++) {
			uint32_t k = cnt[i];
			cnt[i] = at;
			at += k;
		}
		for (i = 0; i < len; i++) {
			uint32_t d = cnt[fc[i] >> shift & mask]++;
			tc[d] = fc[i];
			tv[d] = fv[i];
		}
		xc = fc;
		fc = tc;
		tc = xc;
		xv = fv;
		fv = tv;
		tv = xv;
	}
	return fc == oc;
}

/* Sums the runs of equal columns of the sorted row (c, v)[0, len), in order,
 * and writes the nonzero sums to (oc, ov) from index o on, never past the
 * entry being read (the output may be the row itself). Returns the end of
 * the output, or SIZE_MAX after noting in p a sum that is not finite. */
size_t qubo__compile_sum_sorted(const uint32_t *c, const double *v, size_t len, uint32_t *oc,
				double *ov, size_t o, part *p, size_t row)
{
	size_t x = 0;

	while (x < len) {
		uint32_t k = c[x];
		double sum = v[x++];
		while (x < len && c[x] == k)
			sum += v[x++];
		if (!qubo__is_finite(sum)) {
			p->bad_row = row;
			p->bad_col = k;
			return SIZE_MAX;
		}
		if (sum != 0.0) {
			oc[o] = k;
			ov[o++] = sum;
		}
	}
	return o;
}

/* Merges the old (O), clique (C) and pair (P) parts of one row into out,
 * summing equal columns in the order O, C, P and dropping zeros. Returns the
 * merged length, or SIZE_MAX when a sum is not finite (*bad_col set). */
size_t qubo__compile_merge_row(const uint32_t *oc, const double *ov, size_t on, const uint32_t *cc,
			       const double *cv, size_t cn, const uint32_t *pc, const double *pv,
			       size_t pn, uint32_t *outc, double *outv, uint32_t *bad_col)
{
	size_t io = 0, ic = 0, ip = 0, o = 0;

	while (io < on || ic < cn || ip < pn) {
		uint32_t k = UINT32_MAX;
		double s = 0.0;
		int have = 0;
		if (io < on && oc[io] <= k)
			k = oc[io];
		if (ic < cn && cc[ic] < k)
			k = cc[ic];
		if (ip < pn && pc[ip] < k)
			k = pc[ip];
		if (io < on && oc[io] == k) {
			s = ov[io++];
			have = 1;
		}
		if (ic < cn && cc[ic] == k) {
			s = have ? s + cv[ic] : cv[ic];
			ic++;
			have = 1;
		}
		while (ip < pn && pc[ip] == k) {
			s = have ? s + pv[ip] : pv[ip];
			ip++;
			have = 1;
		}
		if (!qubo__is_finite(s)) {
			*bad_col = k;
			return SIZE_MAX;
		}
		if (s != 0.0) {
			outc[o] = k;
			outv[o++] = s;
		}
	}
	return o;
}
