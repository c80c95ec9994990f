/*
 * The hot loops of a QAOA layer (kernels.h). This file is compiled once per
 * instruction set with QUBO__QAOA_ISA naming the version; the loops are
 * written for the compiler to vectorise (real and imaginary parts in
 * separate arrays, unit strides, no aliasing).
 */
#include "kernels.h"

#ifndef QUBO__QAOA_ISA
#define QUBO__QAOA_ISA base
#endif
#define QUBO__CAT2(a, b) a##b
#define QUBO__CAT(a, b) QUBO__CAT2(a, b)
#define QUBO__NAME(x) QUBO__CAT(x, QUBO__QAOA_ISA)
#define QUBO__STR2(x) #x
#define QUBO__STR(x) QUBO__STR2(x)

static void QUBO__NAME(phase_)(double *restrict re, double *restrict im,
			       const double *restrict pr, const double *restrict pi,
			       const double *restrict tr, const double *restrict ti, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++) {
		double ur = pr[k] * tr[k] - pi[k] * ti[k];
		double ui = pr[k] * ti[k] + pi[k] * tr[k];
		double xr = re[k], xi = im[k];
		re[k] = xr * ur - xi * ui;
		im[k] = xr * ui + xi * ur;
	}
}

/* One butterfly: (a, b) -> (a + i d b, b + i d a), swapped when SWAP. */
#define BF(ar, ai, br, bi, d, SWAP)                              \
	do {                                                     \
		double nar_ = ar - d * bi, nai_ = ai + d * br;   \
		double nbr_ = br - d * ai, nbi_ = bi + d * ar;   \
		if (SWAP) {                                      \
			ar = nbr_, ai = nbi_, br = nar_, bi = nai_; \
		} else {                                         \
			ar = nar_, ai = nai_, br = nbr_, bi = nbi_; \
		}                                                \
	} while (0)

/* The three lowest qubits (strides 1, 2, 4) of each group of 8. */
static inline void mix8(double *restrict re, double *restrict im, size_t len, double d,
			const int swap)
{
	size_t g;

	for (g = 0; g < len; g += 8) {
		double r[8], m[8];
		int k;
		for (k = 0; k < 8; k++) {
			r[k] = re[g + k];
			m[k] = im[g + k];
		}
		for (k = 0; k < 8; k += 2)
			BF(r[k], m[k], r[k + 1], m[k + 1], d, swap);
		for (k = 0; k < 8; k += (k & 1) ? 3 : 1)
			BF(r[k], m[k], r[k + 2], m[k + 2], d, swap);
		for (k = 0; k < 4; k++)
			BF(r[k], m[k], r[k + 4], m[k + 4], d, swap);
		for (k = 0; k < 8; k++) {
			re[g + k] = r[k];
			im[g + k] = m[k];
		}
	}
}

/* One qubit of stride s (any s). */
static inline void mix1(double *restrict re, double *restrict im, size_t len, size_t s, double d,
			const int swap)
{
	size_t b, i;

	for (b = 0; b < len; b += 2 * s)
		for (i = b; i < b + s; i++) {
			double ar = re[i], ai = im[i], br = re[i + s], bi = im[i + s];
			BF(ar, ai, br, bi, d, swap);
			re[i] = ar, im[i] = ai, re[i + s] = br, im[i + s] = bi;
		}
}

/* Two qubits of strides s and 2s at once (s >= 8: the inner loop runs over
 * whole vectors), one load and store per amplitude. */
static inline void mix2(double *restrict re, double *restrict im, size_t len, size_t s, double d,
			const int swap)
{
	size_t b, i;

	for (b = 0; b < len; b += 4 * s)
		for (i = b; i < b + s; i++) {
			double r0 = re[i], r1 = re[i + s], r2 = re[i + 2 * s], r3 = re[i + 3 * s];
			double m0 = im[i], m1 = im[i + s], m2 = im[i + 2 * s], m3 = im[i + 3 * s];
			BF(r0, m0, r1, m1, d, swap);
			BF(r2, m2, r3, m3, d, swap);
			BF(r0, m0, r2, m2, d, swap);
			BF(r1, m1, r3, m3, d, swap);
			re[i] = r0, re[i + s] = r1, re[i + 2 * s] = r2, re[i + 3 * s] = r3;
			im[i] = m0, im[i + s] = m1, im[i + 2 * s] = m2, im[i + 3 * s] = m3;
		}
}

static inline void mix_all(double *restrict re, double *restrict im, size_t len, size_t s,
			   unsigned count, double d, const int swap)
{
	/* strides below 8 first, as whole groups of 8 when all three are due */
	if (s == 1 && count >= 3 && len >= 8) {
		mix8(re, im, len, d, swap);
		s = 8;
		count -= 3;
	}
	while (count && s < 8) {
		mix1(re, im, len, s, d, swap);
		s *= 2;
		count--;
	}
	while (count >= 2) {
		mix2(re, im, len, s, d, swap);
		s *= 4;
		count -= 2;
	}
	if (count)
		mix1(re, im, len, s, d, swap);
}

static void QUBO__NAME(mix_)(double *restrict re, double *restrict im, size_t len, size_t s,
			     unsigned count, const qubo__qaoa_mixer *mx)
{
	if (mx->swap)
		mix_all(re, im, len, s, count, mx->d, 1);
	else
		mix_all(re, im, len, s, count, mx->d, 0);
}

const qubo__qaoa_kernels QUBO__NAME(qubo__qaoa_kernels_) = {
	QUBO__STR(QUBO__QAOA_ISA), QUBO__NAME(phase_), QUBO__NAME(mix_)
};
