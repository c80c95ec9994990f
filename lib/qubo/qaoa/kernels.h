/*
 * The hot loops of a QAOA layer, compiled once per instruction set
 * (kernels.c with QUBO__QAOA_ISA set to base, avx2 or avx512) and chosen at
 * run time by layer.c. Every version computes the same operations in the
 * same order; only the vector width (and fused multiply-adds) differ.
 */
#ifndef QUBO_QAOA_KERNELS_H
#define QUBO_QAOA_KERNELS_H

#include <stddef.h>

/* The mixer of one layer in the form the butterflies use: the pair (a, b)
 * of amplitudes that differ in one qubit becomes (a + i d b, b + i d a),
 * stored swapped when swap is 1; the scalar left over goes into z. */
typedef struct qubo__qaoa_mixer {
	double d;
	int swap;
} qubo__qaoa_mixer;

typedef struct qubo__qaoa_kernels {
	const char *name;
	/* Multiplies the len amplitudes of a run by (pr + i pi) · (tr + i ti),
	 * then applies the mixer to its lowest `lanes` (<= 3) qubits. */
	void (*phase_lanes)(double *re, double *im, const double *pr, const double *pi,
			    const double *tr, const double *ti, size_t len, unsigned lanes,
			    const qubo__qaoa_mixer *mx);
	/* Applies the mixer to the qubits with strides s, 2s, ..., 2^(count−1) s
	 * (in elements) of an array of len elements (a multiple of 2^count s). */
	void (*mix)(double *re, double *im, size_t len, size_t s, unsigned count,
		    const qubo__qaoa_mixer *mx);
	/* Doubles a run's phase table: p[half + k] = p[k] · (er + i ei) for
	 * k < half (a multiple of 8). */
	void (*spread)(double *pr, double *pi, size_t half, double er, double ei);
	/* Copies rows of C (a multiple of 8) amplitudes at a stride into a
	 * dense tile, and back. */
	void (*gather)(double *tre, double *tim, const double *re, const double *im,
		       size_t rows, size_t stride, size_t C);
	void (*scatter)(double *re, double *im, const double *tre, const double *tim,
			size_t rows, size_t stride, size_t C);
} qubo__qaoa_kernels;

extern const qubo__qaoa_kernels qubo__qaoa_kernels_base;
#if defined(QUBO__QAOA_X86)
extern const qubo__qaoa_kernels qubo__qaoa_kernels_avx2;
extern const qubo__qaoa_kernels qubo__qaoa_kernels_avx512;
#endif

#endif /* QUBO_QAOA_KERNELS_H */
