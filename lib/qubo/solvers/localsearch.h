/*
 * Local fields for one-flip local search (descent.c, tabu.c), read from the
 * compiled CSR. The field of variable i is f_i = h_i + Σ_j J_ij x_j, and
 * flipping i changes the energy by (1 − 2 x_i) f_i.
 */
#ifndef QUBO_SOLVERS_LOCALSEARCH_H
#define QUBO_SOLVERS_LOCALSEARCH_H

#include <math.h>

#include "kernel.h"
#include "rng.h"

/* Fills f from x and returns E(x). */
static inline double qubo__ls_init(const qubo_model *m, const uint8_t *x, double *f)
{
	double e = m->offset;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		double fi = m->h[i], up = 0.0;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			if (!x[m->col[k]])
				continue;
			fi += m->val[k];
			if (k >= m->upper[i])
				up += m->val[k];
		}
		f[i] = fi;
		if (x[i])
			e += m->h[i] + up;
	}
	return e;
}

static inline double qubo__ls_delta(const uint8_t *x, const double *f, size_t i)
{
	return x[i] ? -f[i] : f[i];
}

/* Flips x_k and updates the fields of its neighbours. */
static inline void qubo__ls_flip(const qubo_model *m, uint8_t *x, double *f, size_t k)
{
	double s = x[k] ? -1.0 : 1.0;
	size_t p;

	x[k] ^= 1;
	for (p = m->row[k]; p < m->row[k + 1]; p++)
		f[m->col[p]] += s * m->val[p];
}

/* A tolerance below which an energy change counts as none: 1e-12 of the
 * largest possible single-flip change, so rounding never makes a search
 * cycle. */
static inline double qubo__ls_eps(const qubo_model *m)
{
	double big = 0.0;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		double s = m->h[i] < 0 ? -m->h[i] : m->h[i];
		for (k = m->row[i]; k < m->row[i + 1]; k++)
			s += m->val[k] < 0 ? -m->val[k] : m->val[k];
		if (s > big)
			big = s;
	}
	return 1e-12 * big;
}

/* Every weight of m a multiple of 2^−shift for some shift <= 30, each
 * variable's |h_i| + Σ_j |J_ij| at most max_units of those units, and n
 * times the largest such sum within 2^52 (so energies in units are exact
 * in an int64 and in a double): sets *shift_out and *big_out (that largest
 * sum, in units) and returns 1; returns 0 when m is not of that kind. The
 * integer engines of tabu.c and pt.c run on these units. */
static inline int qubo__ls_units(const qubo_model *m, double max_units, int *shift_out,
				 int64_t *big_out)
{
	double big = 0.0;
	int shift = 0;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		double s = fabs(m->h[i]);
		for (k = m->row[i]; k <= m->row[i + 1]; k++) {
			double w = k < m->row[i + 1] ? m->val[k] : m->h[i];
			while (shift <= 30 && ldexp(w, shift) != floor(ldexp(w, shift)))
				shift++;
			if (shift > 30)
				return 0;
			if (k < m->row[i + 1])
				s += fabs(w);
		}
		if (s > big)
			big = s;
	}
	big = ldexp(big, shift);
	if (!(big <= max_units) || !((double)m->n * big <= 0x1p52))
		return 0;
	*shift_out = shift;
	*big_out = (int64_t)big;
	return 1;
}

/* Start state of read r: row r of initial, or uniform random bits. */
static inline void qubo__ls_start(uint8_t *x, size_t n, const uint8_t *initial, size_t r,
				  qubo__rng *g)
{
	size_t i;

	if (initial) {
		for (i = 0; i < n; i++)
			x[i] = initial[r * n + i];
		return;
	}
	for (i = 0; i < n; i += 64) {
		uint64_t bits = qubo__rng_next(g);
		size_t j;
		for (j = i; j < n && j < i + 64; j++, bits >>= 1)
			x[j] = (uint8_t)(bits & 1);
	}
}

#endif /* QUBO_SOLVERS_LOCALSEARCH_H */
