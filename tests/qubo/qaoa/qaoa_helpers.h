/* Helpers of the QAOA suites (qaoa.c, qaoa_api.c): random models of mixed
 * sign, the energies of all 2^n states computed from the model's exported
 * terms (never through qubo_model_energy() or the simulator), and a dense
 * reference simulation with explicit 2^n x 2^n matrices.
 *
 * Conventions checked (include/qubo/qaoa.h): bit i of a basis index x is
 * variable x_i (qubit 0 is the least significant bit), |1> is the value 1,
 * the state of depth p is
 *   e^{-i b_p B} e^{-i g_p C} ... e^{-i b_1 B} e^{-i g_1 C} |+>^n
 * with C|x> = E(x)|x> (offset included) and B = sum_i X_i, so that
 * e^{-i b B} = Rx(2b) on every qubit, Rx(2b) = [[cos b, -i sin b],
 * [-i sin b, cos b]]. */
#ifndef QUBO_TEST_QAOA_HELPERS_H
#define QUBO_TEST_QAOA_HELPERS_H

#include <complex.h>

/* glibc defines CMPLX for GCC only; the values here are finite, so the sum is exact. */
#ifndef CMPLX
#define CMPLX(x, y) ((double)(x) + (double complex)I * (double)(y))
#endif
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "qubo/solvers/helpers.h"

#define QH_PI 3.14159265358979323846

/* A compiled random model of n variables with mixed-sign weights: each
 * linear weight is zero with probability 1/5, each pair is coupled with
 * probability density (some couplers are zero, some pairs are added twice,
 * once in reverse order, and some linear weight goes in as a diagonal
 * quadratic term), plus an offset. Weights are integers in [-w, w] (ties,
 * hence several ground states, are common) or reals in [-w, w]. */
static inline qubo_model *qh_random_model(uint64_t seed, size_t n, double density, double w,
					  int integer)
{
	tu_rng r = { seed * 0x9E3779B97F4A7C15ull + 12345 };
	qubo_model *m = NULL;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
#define QH_W() (integer ? (double)tu_range(&r, -(int64_t)w, (int64_t)w) : (2 * tu_unit(&r) - 1) * w)
	for (i = 0; i < n; i++) {
		double h = tu_unit(&r) < 0.2 ? 0.0 : QH_W();
		if (tu_unit(&r) < 0.2)
			cr_assert_eq(qubo_model_add_quadratic(m, i, i, h), QUBO_OK);
		else
			cr_assert_eq(qubo_model_add_linear(m, i, h), QUBO_OK);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double u = tu_unit(&r);
			if (u >= density)
				continue;
			if (u < density * 0.1) {
				cr_assert_eq(qubo_model_add_quadratic(m, i, j, 0.0), QUBO_OK);
			} else if (u < density * 0.25) {
				cr_assert_eq(qubo_model_add_quadratic(m, i, j, QH_W()), QUBO_OK);
				cr_assert_eq(qubo_model_add_quadratic(m, j, i, QH_W()), QUBO_OK);
			} else {
				cr_assert_eq(qubo_model_add_quadratic(m, i, j, QH_W()), QUBO_OK);
			}
		}
#undef QH_W
	cr_assert_eq(qubo_model_add_offset(m, integer ? 2.0 : 0.375 - tu_unit(&r)), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

/* E(x) for every x in [0, 2^n), by the test's own loops over the exported
 * terms: offset + sum_i h_i x_i + sum_k J_k x_{row_k} x_{col_k}. The caller
 * frees the array. */
static inline double *qh_energies(const qubo_model *m)
{
	size_t n = qubo_model_num_variables(m), count = 0, k, i;
	size_t dim = (size_t)1 << n;
	double *h = calloc(n + 1, sizeof *h), *e = malloc(dim * sizeof *e), *w;
	uint32_t *rows, *cols;
	size_t x;

	cr_assert(h && e);
	cr_assert_eq(qubo_model_export_linear(m, h, n), QUBO_OK);
	{
		int rc = qubo_model_export_coo(m, NULL, NULL, NULL, 0, &count);
		cr_assert(rc == QUBO_OK || rc == QUBO_ERR_BUFFER_TOO_SMALL);
	}
	rows = malloc((count + 1) * sizeof *rows);
	cols = malloc((count + 1) * sizeof *cols);
	w = malloc((count + 1) * sizeof *w);
	cr_assert(rows && cols && w);
	cr_assert_eq(qubo_model_export_coo(m, rows, cols, w, count, &k), QUBO_OK);
	cr_assert_eq(k, count);
	for (x = 0; x < dim; x++) {
		double s = qubo_model_offset(m);
		for (i = 0; i < n; i++)
			if ((x >> i) & 1)
				s += h[i];
		for (k = 0; k < count; k++)
			if (((x >> rows[k]) & 1) && ((x >> cols[k]) & 1))
				s += w[k];
		e[x] = s;
	}
	free(h);
	free(rows);
	free(cols);
	free(w);
	return e;
}

/* The test's own minimum of the energies and how many states are within the
 * library's tie tolerance of it (1e-9 * max(1, |E|), include/qubo/qaoa.h). */
static inline double qh_min(const double *e, size_t dim, uint64_t *count_out)
{
	double best = e[0], tol;
	uint64_t count = 0;
	size_t x;

	for (x = 1; x < dim; x++)
		if (e[x] < best)
			best = e[x];
	tol = 1e-9 * fmax(1.0, fabs(best));
	for (x = 0; x < dim; x++)
		if (e[x] <= best + tol)
			count++;
	if (count_out)
		*count_out = count;
	return best;
}

static inline double qh_max_abs(const double *e, size_t dim)
{
	double mx = 0;
	size_t x;

	for (x = 0; x < dim; x++)
		mx = fmax(mx, fabs(e[x]));
	return mx;
}

/* C = A (a x a) kron B (b x b), row-major: C[(ia b + ib), (ja b + jb)] =
 * A[ia, ja] B[ib, jb], so the factor on the left is the more significant
 * bit of the index. */
static inline void qh_kron(const double complex *a, size_t da, const double complex *b, size_t db,
			   double complex *c)
{
	size_t ia, ja, ib, jb, dc = da * db;

	for (ia = 0; ia < da; ia++)
		for (ja = 0; ja < da; ja++)
			for (ib = 0; ib < db; ib++)
				for (jb = 0; jb < db; jb++)
					c[(ia * db + ib) * dc + ja * db + jb] =
						a[ia * da + ja] * b[ib * db + jb];
}

/* y = M x for a dense dim x dim matrix. */
static inline void qh_matvec(const double complex *mat, size_t dim, const double complex *x,
			     double complex *y)
{
	size_t r, c;

	for (r = 0; r < dim; r++) {
		double complex s = 0;
		for (c = 0; c < dim; c++)
			s += mat[r * dim + c] * x[c];
		y[r] = s;
	}
}

/* The reference state: |+>^n, then for each layer the dense diagonal cost
 * matrix diag(e^{-i g E(x)}) and the dense mixer Rx(2b) kron ... kron Rx(2b)
 * (qubit n-1 on the left, qubit 0 on the right), applied by dense
 * matrix-vector products. psi receives 2^n amplitudes. */
static inline void qh_reference_state(size_t n, const double *energies, size_t p,
				      const double *gammas, const double *betas,
				      double complex *psi)
{
	size_t dim = (size_t)1 << n, x, k, q;
	double complex *mat = malloc(dim * dim * sizeof *mat);
	double complex *tmp = malloc(dim * dim * sizeof *tmp);
	double complex *v = malloc(dim * sizeof *v);

	cr_assert(mat && tmp && v);
	for (x = 0; x < dim; x++)
		psi[x] = 1.0 / sqrt((double)dim);
	for (k = 0; k < p; k++) {
		double complex rx[4];
		size_t d;
		/* cost layer */
		for (x = 0; x < dim * dim; x++)
			mat[x] = 0;
		for (x = 0; x < dim; x++) {
			double phase = gammas[k] * energies[x];
			mat[x * dim + x] = CMPLX(cos(phase), -sin(phase));
		}
		qh_matvec(mat, dim, psi, v);
		/* mixer layer: the Kronecker product, one factor per qubit */
		rx[0] = CMPLX(cos(betas[k]), 0.0);
		rx[1] = CMPLX(0.0, -sin(betas[k]));
		rx[2] = CMPLX(0.0, -sin(betas[k]));
		rx[3] = CMPLX(cos(betas[k]), 0.0);
		mat[0] = 1;
		d = 1;
		for (q = 0; q < n; q++) {
			double complex *t;
			qh_kron(mat, d, rx, 2, tmp);
			t = mat;
			mat = tmp;
			tmp = t;
			d *= 2;
		}
		cr_assert_eq(d, dim);
		qh_matvec(mat, dim, v, psi);
	}
	free(mat);
	free(tmp);
	free(v);
}

static inline qubo_qaoa *qh_new(const qubo_model *m)
{
	qubo_qaoa *q = NULL;

	cr_assert_eq(qubo_qaoa_new(&q, m, 0, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_not_null(q);
	return q;
}

/* The simulator's amplitudes as complex numbers (caller frees). */
static inline double complex *qh_amplitudes(const qubo_qaoa *q)
{
	size_t dim = (size_t)1 << qubo_qaoa_num_qubits(q), x;
	double *raw = malloc(2 * dim * sizeof *raw);
	double complex *a = malloc(dim * sizeof *a);

	cr_assert(raw && a);
	cr_assert_eq(qubo_qaoa_amplitudes(q, raw, 2 * dim), QUBO_OK, "%s", qubo_error_message());
	for (x = 0; x < dim; x++)
		a[x] = CMPLX(raw[2 * x], raw[2 * x + 1]);
	free(raw);
	return a;
}

static inline double *qh_probabilities(const qubo_qaoa *q)
{
	size_t dim = (size_t)1 << qubo_qaoa_num_qubits(q);
	double *pr = malloc(dim * sizeof *pr);

	cr_assert(pr);
	cr_assert_eq(qubo_qaoa_probabilities(q, pr, dim), QUBO_OK, "%s", qubo_error_message());
	return pr;
}

static inline void qh_evolve(qubo_qaoa *q, size_t p, const double *g, const double *b)
{
	cr_assert_eq(qubo_qaoa_evolve(q, p, g, b), QUBO_OK, "%s", qubo_error_message());
}

/* Writes "g_1,...,g_p,b_1,...,b_p" with every digit needed to read the same
 * doubles back. */
static inline void qh_angles_string(char *buf, size_t cap, size_t p, const double *g,
				    const double *b)
{
	size_t k, len = 0;

	buf[0] = '\0';
	for (k = 0; k < 2 * p; k++) {
		int w = snprintf(buf + len, cap - len, "%s%.17g", k ? "," : "",
				 k < p ? g[k] : b[k - p]);
		cr_assert(w > 0 && (size_t)w < cap - len);
		len += (size_t)w;
	}
}

#endif
