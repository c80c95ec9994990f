/*
 * The hot loops of a QAOA layer (kernels.h). This file is compiled once per
 * instruction set with QUBO__QAOA_ISA naming the version. The loops work on
 * vectors of 8 doubles (GCC/Clang vector extensions: one AVX-512 register,
 * two AVX2 registers or four SSE2 ones), real and imaginary parts in
 * separate arrays. Arrays need not be aligned; lengths are multiples of 8.
 *
 * A butterfly takes the amplitudes a and b of a pair that differ in one
 * qubit to (a + i d b, b + i d a), stored swapped when the mixer says so:
 *   re' = re − d · im_partner,  im' = im + d · re_partner          (no swap)
 *   re' = re_partner − d · im,  im' = im_partner + d · re          (swap)
 * one multiply-add per output.
 */
#include <string.h>

#include "kernels.h"

#ifndef QUBO__QAOA_ISA
#define QUBO__QAOA_ISA base
#endif
#define QUBO__CAT2(a, b) a##b
#define QUBO__CAT(a, b) QUBO__CAT2(a, b)
#define QUBO__NAME(x) QUBO__CAT(x, QUBO__QAOA_ISA)
#define QUBO__STR2(x) #x
#define QUBO__STR(x) QUBO__STR2(x)

typedef double v8 __attribute__((vector_size(64)));

static inline v8 ld(const double *p)
{
	v8 v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline void st(double *p, v8 v)
{
	memcpy(p, &v, sizeof v);
}

static inline v8 splat(double d)
{
	v8 v = { d, d, d, d, d, d, d, d };
	return v;
}

/* The partner of each lane for the qubits of stride 1, 2 and 4. */
#define SHUF1(x) __builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6)
#define SHUF2(x) __builtin_shufflevector(x, x, 2, 3, 0, 1, 6, 7, 4, 5)
#define SHUF4(x) __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3)

/* In-vector butterfly of one qubit (SHUF the partner). */
#define BFV(r, m, d, SWAP, SHUF)                     \
	do {                                         \
		v8 pr_ = SHUF(r), pm_ = SHUF(m);     \
		if (SWAP) {                          \
			v8 nr_ = pr_ - d * m;        \
			m = pm_ + d * r;             \
			r = nr_;                     \
		} else {                             \
			v8 nr_ = r - d * pm_;        \
			m = m + d * pr_;             \
			r = nr_;                     \
		}                                    \
	} while (0)

/* Butterfly of two vectors of partners. */
#define BF(ar, am, br, bm, d, SWAP)                          \
	do {                                                 \
		v8 nar_ = ar - d * bm, nam_ = am + d * br;   \
		v8 nbr_ = br - d * am, nbm_ = bm + d * ar;   \
		if (SWAP) {                                  \
			ar = nbr_, am = nbm_, br = nar_, bm = nam_; \
		} else {                                     \
			ar = nar_, am = nam_, br = nbr_, bm = nbm_; \
		}                                            \
	} while (0)

/* The lowest `count` (<= 3) qubits, inside each vector. */
static inline void mix_lanes(double *re, double *im, size_t len, unsigned count, v8 d,
			     const int swap)
{
	size_t i;

	for (i = 0; i < len; i += 8) {
		v8 r = ld(re + i), m = ld(im + i);
		BFV(r, m, d, swap, SHUF1);
		if (count > 1)
			BFV(r, m, d, swap, SHUF2);
		if (count > 2)
			BFV(r, m, d, swap, SHUF4);
		st(re + i, r);
		st(im + i, m);
	}
}

/* One qubit of stride s >= 8. */
static inline void mix1(double *re, double *im, size_t len, size_t s, v8 d, const int swap)
{
	size_t b, i;

	for (b = 0; b < len; b += 2 * s)
		for (i = b; i < b + s; i += 8) {
			v8 ar = ld(re + i), am = ld(im + i), br = ld(re + i + s), bm = ld(im + i + s);
			BF(ar, am, br, bm, d, swap);
			st(re + i, ar), st(im + i, am), st(re + i + s, br), st(im + i + s, bm);
		}
}

/* Two qubits of strides s and 2s (s >= 8) with one load and store each. */
static inline void mix2(double *re, double *im, size_t len, size_t s, v8 d, const int swap)
{
	size_t b, i;

	for (b = 0; b < len; b += 4 * s)
		for (i = b; i < b + s; i += 8) {
			double *r = re + i, *m = im + i;
			v8 r0 = ld(r), r1 = ld(r + s), r2 = ld(r + 2 * s), r3 = ld(r + 3 * s);
			v8 m0 = ld(m), m1 = ld(m + s), m2 = ld(m + 2 * s), m3 = ld(m + 3 * s);
			BF(r0, m0, r1, m1, d, swap);
			BF(r2, m2, r3, m3, d, swap);
			BF(r0, m0, r2, m2, d, swap);
			BF(r1, m1, r3, m3, d, swap);
			st(r, r0), st(r + s, r1), st(r + 2 * s, r2), st(r + 3 * s, r3);
			st(m, m0), st(m + s, m1), st(m + 2 * s, m2), st(m + 3 * s, m3);
		}
}

static inline void mix_all(double *re, double *im, size_t len, size_t s, unsigned count,
			   double dd, const int swap)
{
	v8 d = splat(dd);

	if (s < 8) {
		/* strides 1, 2, 4 are in-vector; this version starts at 1 */
		unsigned in = count < 3 ? count : 3;
		mix_lanes(re, im, len, in, d, swap);
		s = 8;
		count -= in;
	}
	while (count >= 2) {
		mix2(re, im, len, s, d, swap);
		s *= 4;
		count -= 2;
	}
	if (count)
		mix1(re, im, len, s, d, swap);
}

static void QUBO__NAME(mix_)(double *re, double *im, size_t len, size_t s, unsigned count,
			     const qubo__qaoa_mixer *mx)
{
	if (mx->swap)
		mix_all(re, im, len, s, count, mx->d, 1);
	else
		mix_all(re, im, len, s, count, mx->d, 0);
}

static inline void phase_lanes(double *re, double *im, const double *pr, const double *pi,
			       const double *tr, const double *ti, size_t len, unsigned lanes,
			       v8 d, const int swap)
{
	size_t k;

	for (k = 0; k < len; k += 8) {
		v8 a = ld(pr + k), b = ld(pi + k), c = ld(tr + k), e = ld(ti + k);
		v8 ur = a * c - b * e, ui = a * e + b * c;
		v8 xr = ld(re + k), xi = ld(im + k);
		v8 r = xr * ur - xi * ui, m = xr * ui + xi * ur;
		if (lanes > 0)
			BFV(r, m, d, swap, SHUF1);
		if (lanes > 1)
			BFV(r, m, d, swap, SHUF2);
		if (lanes > 2)
			BFV(r, m, d, swap, SHUF4);
		st(re + k, r);
		st(im + k, m);
	}
}

static void QUBO__NAME(phase_lanes_)(double *re, double *im, const double *pr, const double *pi,
				     const double *tr, const double *ti, size_t len,
				     unsigned lanes, const qubo__qaoa_mixer *mx)
{
	v8 d = splat(mx->d);

	if (lanes == 3 && mx->swap)
		phase_lanes(re, im, pr, pi, tr, ti, len, 3, d, 1);
	else if (lanes == 3)
		phase_lanes(re, im, pr, pi, tr, ti, len, 3, d, 0);
	else if (mx->swap)
		phase_lanes(re, im, pr, pi, tr, ti, len, lanes, d, 1);
	else
		phase_lanes(re, im, pr, pi, tr, ti, len, lanes, d, 0);
}

static void QUBO__NAME(spread_)(double *pr, double *pi, size_t half, double er, double ei)
{
	v8 vr = splat(er), vi = splat(ei);
	size_t k;

	for (k = 0; k < half; k += 8) {
		v8 a = ld(pr + k), b = ld(pi + k);
		st(pr + half + k, a * vr - b * vi);
		st(pi + half + k, a * vi + b * vr);
	}
}

static void QUBO__NAME(gather_)(double *tre, double *tim, const double *re, const double *im,
				size_t rows, size_t stride, size_t C)
{
	size_t r, k;

	for (r = 0; r < rows; r++)
		for (k = 0; k < C; k += 8) {
			if (r + 8 < rows) {
				__builtin_prefetch(re + (r + 8) * stride + k);
				__builtin_prefetch(im + (r + 8) * stride + k);
			}
			st(tre + r * C + k, ld(re + r * stride + k));
			st(tim + r * C + k, ld(im + r * stride + k));
		}
}

static void QUBO__NAME(scatter_)(double *re, double *im, const double *tre, const double *tim,
				 size_t rows, size_t stride, size_t C)
{
	size_t r, k;

	for (r = 0; r < rows; r++)
		for (k = 0; k < C; k += 8) {
			st(re + r * stride + k, ld(tre + r * C + k));
			st(im + r * stride + k, ld(tim + r * C + k));
		}
}

const qubo__qaoa_kernels QUBO__NAME(qubo__qaoa_kernels_) = {
	QUBO__STR(QUBO__QAOA_ISA), QUBO__NAME(phase_lanes_), QUBO__NAME(mix_), QUBO__NAME(spread_),
	QUBO__NAME(gather_),
	QUBO__NAME(scatter_)
};
