/* The QAOA simulator computes the right states: every amplitude against a
 * dense-matrix reference built by the test, the depth-1 figures of Ising
 * models against their closed form, reads against the probabilities with the
 * seed contract, and the optimiser's results against fresh evolutions.
 * Limits, allocation, options and bad arguments are in qaoa_api.c. */
#include "qaoa/qaoa_impl.h"
#include "qaoa_helpers.h"

/* ------------------------------------------------------------------------
 * 1. Against the dense reference (qh_reference_state in qaoa_helpers.h)
 * ------------------------------------------------------------------------ */

/* Mixer angles where an implementation may switch numerical forms (exact
 * zero, a quarter and half turn of Rx(2b), and their neighbours). */
static const double special_betas[] = {
	0.0,
	QH_PI / 2,
	-QH_PI / 2,
	QH_PI / 4,
	-QH_PI / 4,
	QH_PI / 2 - 1e-9,
	QH_PI / 2 + 3e-13,
	QH_PI / 4 + 1e-12,
	QH_PI / 4 - 2e-10,
	1e-300,
	QH_PI,
	3 * QH_PI / 4,
};
#define NUM_SPECIAL (sizeof special_betas / sizeof special_betas[0])

/* gamma: ordinary, negative, or large enough that gamma * E wraps 10 to 20
 * times around the circle for the largest |E| of the model. */
static double draw_gamma(tu_rng *r, double max_abs_energy)
{
	switch (tu_below(r, 4)) {
	case 0:
		return (2 * tu_unit(r) - 1) * 1.5;
	case 1:
		return -(0.05 + tu_unit(r));
	default: {
		double turns = 10 + 10 * tu_unit(r);
		double g = turns * 2 * QH_PI / fmax(1.0, max_abs_energy);
		return tu_unit(r) < 0.5 ? -g : g;
	}
	}
}

static double draw_beta(tu_rng *r)
{
	if (tu_unit(r) < 0.4)
		return special_betas[tu_below(r, NUM_SPECIAL)];
	return (2 * tu_unit(r) - 1) * QH_PI;
}

/* Evolves q with the angles and checks every figure of the state against the
 * reference: amplitudes, probabilities, expectation, lowest-energy
 * probability, lowest energy and its count. */
static void check_state(qubo_qaoa *q, const double *e, size_t p, const double *g, const double *b,
			const char *what)
{
	size_t n = qubo_qaoa_num_qubits(q), dim = (size_t)1 << n, x;
	double complex *ref = malloc(dim * sizeof *ref), *amp;
	double *pr, sum = 0, ref_exp = 0, ref_low = 0, emin, ex = 0, lo = 0, scale, le = 0;
	uint64_t count, lcount = 0;

	cr_assert(ref);
	qh_reference_state(n, e, p, g, b, ref);
	qh_evolve(q, p, g, b);
	amp = qh_amplitudes(q);
	for (x = 0; x < dim; x++)
		cr_assert(cabs(amp[x] - ref[x]) <= 1e-12,
			  "%s: n %zu p %zu g0 %.17g b0 %.17g: amplitude %zu is %.17g%+.17gi, the "
			  "reference %.17g%+.17gi",
			  what, n, p, p ? g[0] : 0.0, p ? b[0] : 0.0, x, creal(amp[x]),
			  cimag(amp[x]), creal(ref[x]), cimag(ref[x]));
	pr = qh_probabilities(q);
	emin = qh_min(e, dim, &count);
	for (x = 0; x < dim; x++) {
		double r2 = creal(ref[x]) * creal(ref[x]) + cimag(ref[x]) * cimag(ref[x]);
		double a2 = creal(amp[x]) * creal(amp[x]) + cimag(amp[x]) * cimag(amp[x]);
		cr_assert(fabs(pr[x] - a2) <= 1e-15, "%s: probability %zu is %.17g, |amp|^2 %.17g",
			  what, x, pr[x], a2);
		cr_assert(fabs(pr[x] - r2) <= 1e-12, "%s: probability %zu is %.17g, reference %.17g",
			  what, x, pr[x], r2);
		sum += pr[x];
		ref_exp += r2 * e[x];
		if (e[x] <= emin + 1e-9 * fmax(1.0, fabs(emin)))
			ref_low += r2;
	}
	cr_assert(fabs(sum - 1) <= 1e-12, "%s: probabilities sum to %.17g", what, sum);
	scale = fmax(1.0, qh_max_abs(e, dim));
	cr_assert_eq(qubo_qaoa_expectation(q, &ex, &lo), QUBO_OK, "%s", qubo_error_message());
	cr_assert(fabs(ex - ref_exp) <= 1e-12 * scale, "%s: expectation %.17g, reference %.17g",
		  what, ex, ref_exp);
	cr_assert(fabs(lo - ref_low) <= 1e-12,
		  "%s: lowest-energy probability %.17g, reference %.17g", what, lo, ref_low);
	cr_assert_eq(qubo_qaoa_lowest_energy(q, &le, &lcount), QUBO_OK);
	cr_assert(fabs(le - emin) <= 1e-12 * fmax(1.0, fabs(emin)),
		  "%s: lowest energy %.17g, brute force %.17g", what, le, emin);
	cr_assert_eq(lcount, count, "%s: %" PRIu64 " lowest states, brute force %" PRIu64, what,
		     lcount, count);
	free(ref);
	free(amp);
	free(pr);
}

Test(qaoa_reference, random_models_n1_to_n8)
{
	unsigned trials = th_trials(5, 2), t;
	size_t n;

	for (n = 1; n <= 8; n++)
		for (t = 0; t < trials; t++) {
			uint64_t seed = 1000 * n + t;
			tu_rng r = { seed };
			int integer = (t % 2) == 1;
			qubo_model *m = qh_random_model(seed, n, 0.2 + 0.8 * tu_unit(&r),
							integer ? 3 : 2.5, integer);
			double *e = qh_energies(m), g[3], b[3];
			double scale = qh_max_abs(e, (size_t)1 << n);
			qubo_qaoa *q = qh_new(m);
			size_t p = 1 + (t + n) % 3, k;
			char what[64];
			for (k = 0; k < 3; k++) {
				g[k] = draw_gamma(&r, scale);
				b[k] = draw_beta(&r);
			}
			snprintf(what, sizeof what, "seed %" PRIu64, seed);
			check_state(q, e, p, g, b, what);
			/* evolve starts again from |+>: another depth on the same object */
			check_state(q, e, 1 + (p % 3), g, b, what);
			qubo_qaoa_free(q);
			qubo_model_free(m);
			free(e);
		}
}

/* A model with no couplers and one with every pair coupled (no zero). */
static qubo_model *structured_model(size_t n, int all_pairs)
{
	qubo_model *m = NULL;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++) {
		cr_assert_eq(qubo_model_add_linear(m, i, (i % 2 ? -1.0 : 1.0) * (0.5 + 0.3 * i)),
			     QUBO_OK);
		if (all_pairs)
			for (j = i + 1; j < n; j++)
				cr_assert_eq(qubo_model_add_quadratic(m, i, j,
								      ((i + j) % 3 ? 0.7 : -1.1) +
									      0.05 * j),
					     QUBO_OK);
	}
	cr_assert_eq(qubo_model_add_offset(m, -1.25), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

Test(qaoa_reference, no_couplers_and_all_pairs_at_special_angles)
{
	static const size_t sizes[] = { 1, 4, 7, 8 };
	int all_pairs;
	size_t s, k;

	for (all_pairs = 0; all_pairs < 2; all_pairs++)
		for (s = 0; s < 4; s++) {
			qubo_model *m = structured_model(sizes[s], all_pairs);
			double *e = qh_energies(m);
			qubo_qaoa *q = qh_new(m);
			size_t count = 0;
			cr_assert_eq(qubo_model_export_coo(m, NULL, NULL, NULL, 0, &count), QUBO_OK);
			cr_assert_eq(count, all_pairs ? sizes[s] * (sizes[s] - 1) / 2 : 0);
			/* every special mixer angle, alone and inside three layers */
			for (k = 0; k < NUM_SPECIAL; k++) {
				double g1[1] = { 0.83 }, b1[1] = { special_betas[k] };
				double g3[3] = { -0.4, 23.0, 0.61 };
				double b3[3] = { special_betas[k], -0.3,
						 special_betas[(k + 1) % NUM_SPECIAL] };
				check_state(q, e, 1, g1, b1, all_pairs ? "all pairs" : "no couplers");
				check_state(q, e, 3, g3, b3, all_pairs ? "all pairs" : "no couplers");
			}
			qubo_qaoa_free(q);
			qubo_model_free(m);
			free(e);
		}
}

/* A state that is not finite (the checks of the model and the angles keep
 * it from being made; here an amplitude is set by hand) gives no figures
 * and no reads: QUBO_ERR_INTERNAL, with the outputs untouched. */
Test(qaoa_reference, a_state_that_is_not_finite_gives_no_answer)
{
	qubo_model *m = qh_random_model(78, 4, 0.6, 2.0, 0);
	qubo_qaoa *q = qh_new(m);
	double e = 7.0, l = 7.0;
	uint8_t rows[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	size_t k;

	q->re[5] = (double)NAN;
	cr_assert_eq(qubo_qaoa_expectation(q, &e, &l), QUBO_ERR_INTERNAL);
	cr_assert(strstr(qubo_error_message(), "is not finite"), "%s", qubo_error_message());
	cr_assert(e == 7.0 && l == 7.0);
	cr_assert_eq(qubo_qaoa_sample(q, 1, 2, rows, 8), QUBO_ERR_INTERNAL);
	for (k = 0; k < 8; k++)
		cr_assert_eq(rows[k], 9);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_reference, mixer_at_zero_and_half_turn)
{
	qubo_model *m = qh_random_model(77, 6, 0.6, 2.0, 0);
	double *e = qh_energies(m);
	qubo_qaoa *q = qh_new(m);
	double g[2] = { 0.9, -2.3 }, b0[2] = { 0.0, 0.0 }, bh[2] = { QH_PI / 2, QH_PI / 2 };
	double *pr;
	size_t x;

	/* beta = 0: only phases, so the probabilities stay uniform */
	check_state(q, e, 2, g, b0, "beta 0");
	pr = qh_probabilities(q);
	for (x = 0; x < 64; x++)
		cr_assert(fabs(pr[x] - 1.0 / 64) <= 1e-15, "state %zu: %.17g", x, pr[x]);
	free(pr);
	/* beta = pi/2: Rx(pi) = -iX on every qubit, twice: the identity up to
	 * (-i)^(2n) = (-1)^n; still uniform */
	check_state(q, e, 2, g, bh, "beta pi/2");
	pr = qh_probabilities(q);
	for (x = 0; x < 64; x++)
		cr_assert(fabs(pr[x] - 1.0 / 64) <= 1e-15, "state %zu: %.17g", x, pr[x]);
	free(pr);
	qubo_qaoa_free(q);
	qubo_model_free(m);
	free(e);
}

Test(qaoa_reference, depth_zero_is_the_uniform_state)
{
	qubo_model *m = qh_random_model(5, 7, 0.5, 3, 1);
	double *e = qh_energies(m), g[2] = { 0.4, 1.1 }, b[2] = { 0.2, -0.7 };
	qubo_qaoa *q = qh_new(m);
	size_t dim = 128, x;
	double mean = 0, ex, lo, *pr;
	double complex *a;
	uint64_t count;

	qh_min(e, dim, &count);
	for (x = 0; x < dim; x++)
		mean += e[x] / (double)dim;
	/* a new simulator is at depth 0, and so is evolve(0) after depth 2 */
	for (x = 0; x < 2; x++) {
		size_t y;
		if (x == 1) {
			qh_evolve(q, 2, g, b);
			qh_evolve(q, 0, NULL, NULL);
		}
		a = qh_amplitudes(q);
		pr = qh_probabilities(q);
		for (y = 0; y < dim; y++) {
			cr_assert(fabs(creal(a[y]) - 1 / sqrt((double)dim)) <= 1e-15);
			cr_assert(fabs(cimag(a[y])) <= 1e-15);
			cr_assert(fabs(pr[y] - 1 / (double)dim) <= 1e-15);
		}
		cr_assert_eq(qubo_qaoa_expectation(q, &ex, &lo), QUBO_OK);
		cr_assert(fabs(ex - mean) <= 1e-12 * fmax(1.0, qh_max_abs(e, dim)), "%.17g %.17g",
			  ex, mean);
		cr_assert(fabs(lo - (double)count / (double)dim) <= 1e-14);
		free(a);
		free(pr);
	}
	check_state(q, e, 0, NULL, NULL, "p 0");
	qubo_qaoa_free(q);
	qubo_model_free(m);
	free(e);
}

Test(qaoa_reference, the_model_is_copied)
{
	qubo_model *m = qh_random_model(31, 6, 0.7, 2.0, 0);
	double *e = qh_energies(m), g[2] = { 0.7, -1.3 }, b[2] = { 0.35, 1.2 };
	qubo_qaoa *q = qh_new(m);

	cr_assert_eq(qubo_model_add_linear(m, 0, 5.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, -4.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	check_state(q, e, 2, g, b, "changed model");
	qubo_model_free(m);
	check_state(q, e, 2, g, b, "freed model");
	qubo_qaoa_free(q);
	free(e);
}

Test(qaoa_reference, ties_and_a_flat_model)
{
	qubo_model *m = NULL;
	double *e, g[1] = { 1.3 }, b[1] = { 0.4 }, lo = 0, le = 0;
	qubo_qaoa *q;
	uint64_t count = 0;
	uint32_t i;

	/* -x_i + 2 x_i x_{i+1} on a ring of 6: the two alternating states are
	 * the ground states (E = -3) */
	cr_assert_eq(qubo_model_new(&m, 6, NULL), QUBO_OK);
	for (i = 0; i < 6; i++) {
		cr_assert_eq(qubo_model_add_linear(m, i, -1.0), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, i, (i + 1) % 6, 2.0), QUBO_OK);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	e = qh_energies(m);
	q = qh_new(m);
	check_state(q, e, 1, g, b, "ring");
	qh_min(e, 64, &count);
	cr_assert_eq(count, 2);
	qubo_qaoa_free(q);
	qubo_model_free(m);
	free(e);

	/* energies near 1e7: the tie tolerance is relative (1e-9 * |E|, 1e-2
	 * here), so x_0 = 1 (1e-3 above the minimum) ties with the minimum and
	 * x_1 = 1 (0.1 above) does not */
	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, 1e7), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 0, 1e-3), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 1, 0.1), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 2, 5.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	e = qh_energies(m);
	q = qh_new(m);
	{
		/* gamma * E of a few radians: 1e7 * 1.3 rad would be beyond double
		 * precision for any two ways of computing the phase */
		double gs[1] = { 3.1e-7 };
		check_state(q, e, 1, gs, b, "relative ties");
	}
	cr_assert_eq(qubo_qaoa_lowest_energy(q, &le, &count), QUBO_OK);
	cr_assert_eq(count, 2);
	qubo_qaoa_free(q);
	qubo_model_free(m);
	free(e);

	/* an offset only: every state is a ground state */
	cr_assert_eq(qubo_model_new(&m, 5, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, 2.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	e = qh_energies(m);
	q = qh_new(m);
	check_state(q, e, 1, g, b, "flat");
	cr_assert_eq(qubo_qaoa_lowest_energy(q, &le, &count), QUBO_OK);
	cr_assert_eq(le, 2.5);
	cr_assert_eq(count, 32);
	cr_assert_eq(qubo_qaoa_expectation(q, NULL, &lo), QUBO_OK);
	cr_assert(fabs(lo - 1) <= 1e-14);
	qubo_qaoa_free(q);
	qubo_model_free(m);
	free(e);
}

/* A second, cheaper reference for the sizes where the dense matrices are
 * too large: the cost phase per basis state and Rx(2b) applied one qubit at
 * a time (the same Kronecker product, factor by factor). It is itself
 * checked against the dense reference below. */
static void factor_reference(size_t n, const double *e, size_t p, const double *g,
			     const double *b, double complex *psi)
{
	size_t dim = (size_t)1 << n, x, k, qb;

	for (x = 0; x < dim; x++)
		psi[x] = 1 / sqrt((double)dim);
	for (k = 0; k < p; k++) {
		double c = cos(b[k]), s = sin(b[k]);
		for (x = 0; x < dim; x++)
			psi[x] *= CMPLX(cos(g[k] * e[x]), -sin(g[k] * e[x]));
		for (qb = 0; qb < n; qb++)
			for (x = 0; x < dim; x++)
				if (!((x >> qb) & 1)) {
					size_t y = x | ((size_t)1 << qb);
					double complex a0 = psi[x], a1 = psi[y];
					psi[x] = c * a0 + CMPLX(0, -s) * a1;
					psi[y] = CMPLX(0, -s) * a0 + c * a1;
				}
	}
}

Test(qaoa_reference, larger_states_at_several_thread_counts)
{
	/* around the simulator's blocks of 2^10 (runs), 2^13 (rows) and 2^14
	 * amplitudes (threads), whatever they are */
	static const size_t sizes[] = { 5, 10, 11, 13, 14, 16 };
	size_t s;

	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		size_t n = sizes[s], dim = (size_t)1 << n, x;
		qubo_model *m = qh_random_model(900 + n, n, n > 12 ? 0.15 : 0.5, 2.0, 0);
		double *e = qh_energies(m), g[3] = { 0.45, -1.7, 31.0 / qh_max_abs(e, dim) };
		double b[3] = { 0.6, QH_PI / 4, -0.25 };
		double complex *ref = malloc(dim * sizeof *ref);
		qubo_qaoa *q = qh_new(m);
		int threads;
		cr_assert(ref);
		factor_reference(n, e, 3, g, b, ref);
		if (n <= 8) { /* the factor reference is the dense one */
			double complex *dense = malloc(dim * sizeof *dense);
			cr_assert(dense);
			qh_reference_state(n, e, 3, g, b, dense);
			for (x = 0; x < dim; x++)
				cr_assert(cabs(dense[x] - ref[x]) <= 1e-13);
			free(dense);
		}
		for (threads = 1; threads <= 3; threads++) {
			double complex *a;
			cr_assert_eq(qubo_qaoa_set_threads(q, threads), QUBO_OK);
			qh_evolve(q, 3, g, b);
			a = qh_amplitudes(q);
			for (x = 0; x < dim; x++)
				cr_assert(cabs(a[x] - ref[x]) <= 1e-12,
					  "n %zu threads %d amplitude %zu: %.17g%+.17gi, reference "
					  "%.17g%+.17gi",
					  n, threads, x, creal(a[x]), cimag(a[x]), creal(ref[x]),
					  cimag(ref[x]));
			free(a);
		}
		qubo_qaoa_free(q);
		qubo_model_free(m);
		free(ref);
		free(e);
	}
}

/* ------------------------------------------------------------------------
 * 2. The closed form of depth 1 on Ising models
 *
 * Derivation for this library's conventions. E = c + sum_i h_i s_i +
 * sum_{i<j} J_ij s_i s_j with s_i = 2x_i - 1 = -Z_i, so in Pauli form
 * C = c + sum_i h'_i Z_i + sum_{i<j} J_ij Z_i Z_j with h' = -h. The state is
 * e^{-ibB} e^{-igC}|+>^n, B = sum X_i. In the Heisenberg picture:
 *
 *  (a) e^{ibX} Z e^{-ibX} = Z e^{-2ibX} = cos(2b) Z + sin(2b) Y, since X
 *      anticommutes with Z and ZX = iY.
 *  (b) Write the terms of C that touch qubit u as Z_u A_u with
 *      A_u = h'_u + sum_{k!=u} J_uk Z_k. Y_u anticommutes with Z_u, so
 *      e^{igC} Y_u e^{-igC} = Y_u e^{-2ig Z_u A_u}
 *                           = Y_u cos(2g A_u) + X_u sin(2g A_u).
 *  (c) On |+>: <X> = 1, <Y> = <Z> = 0, <e^{i t Z}> = cos t and
 *      <Z e^{i t Z}> = i sin t, qubit by qubit.
 *
 * <Z_u>: by (a), cos(2b) <Z_u> (which commutes with C, so 0) plus
 * sin(2b) <Y_u> after the cost layer; by (b) and (c),
 *   <Z_u> = sin(2b) sin(2g h'_u) prod_{k!=u} cos(2g J_uk)
 *         = -sin(2b) sin(2g h_u) prod_{k!=u} cos(2g J_uk).
 * The field term flips sign with h' = -h (so <s_u> = -<Z_u> has the plus).
 *
 * <Z_u Z_v>: by (a) the product gives cos^2(2b) Z_u Z_v (0 on |+>),
 * cos(2b) sin(2b) (Z_u Y_v + Y_u Z_v) and sin^2(2b) Y_u Y_v.
 *  - Z_u Y_v: by (b) only Z_u X_v sin(2g A_v) survives on |+>, and by (c),
 *    with A_v = h'_v + J_uv Z_u + sum_{k!=u,v} J_vk Z_k, its value is
 *    cos(2g h'_v) sin(2g J_uv) prod_{k!=u,v} cos(2g J_vk).
 *  - Y_u Y_v commutes with Z_u Z_v, so J_uv drops out; what remains is
 *    (Y_u cos(2g A'_u) + X_u sin(2g A'_u)) (Y_v cos(2g A'_v) + X_v sin(2g A'_v))
 *    with A'_u = h'_u + sum_{k!=u,v} J_uk Z_k; on |+> only
 *    <sin(2g A'_u) sin(2g A'_v)> survives, and sin a sin b =
 *    (cos(a - b) - cos(a + b)) / 2 gives, by (c),
 *    1/2 [cos(2g(h'_u - h'_v)) prod_{k!=u,v} cos(2g(J_uk - J_vk))
 *         - cos(2g(h'_u + h'_v)) prod_{k!=u,v} cos(2g(J_uk + J_vk))].
 * A common neighbour k of u and v (a triangle) enters through J_uk +- J_vk.
 * Every h' appears in a cosine of a sum or difference of both, so the ZZ
 * terms are the same with h as with h' = -h, and <s_u s_v> = <Z_u Z_v>:
 *   <Z_u Z_v> = 1/2 sin(4b) sin(2g J_uv) [cos(2g h_u) prod_{k!=u,v} cos(2g J_uk)
 *                                      + cos(2g h_v) prod_{k!=u,v} cos(2g J_vk)]
 *             + 1/2 sin^2(2b) [cos(2g(h_u - h_v)) prod_{k!=u,v} cos(2g(J_uk - J_vk))
 *                              - cos(2g(h_u + h_v)) prod_{k!=u,v} cos(2g(J_uk + J_vk))].
 * This is the single-layer formula of Ozaeta, van Dam and McMahon,
 * "Expectation values from the single-layer quantum approximate optimization
 * algorithm on Ising problems" (2022; arXiv:2012.03421), its analytical
 * formula for <Z_u> and <Z_u Z_v>, written here for s = -Z; with h = 0 it is
 * the depth-1 MaxCut formula of Wang, Hadfield, Jiang and Rieffel, "Quantum
 * approximate optimization algorithm for MaxCut: A fermionic view" (Phys.
 * Rev. A 97, 022304, 2018).
 * The test checks the formula itself against the dense reference first.
 * ------------------------------------------------------------------------ */

#define CF_MAX 10

typedef struct cf_ising {
	size_t n;
	double h[CF_MAX];
	double jm[CF_MAX][CF_MAX]; /* symmetric, zero diagonal */
	uint32_t rows[CF_MAX * CF_MAX], cols[CF_MAX * CF_MAX];
	double w[CF_MAX * CF_MAX];
	size_t count;
	double offset;
} cf_ising;

static void cf_random(cf_ising *is, uint64_t seed, size_t n, double edge_prob, double hscale,
		      double jscale)
{
	tu_rng r = { seed };
	uint32_t i, j;

	cr_assert(n <= CF_MAX);
	memset(is, 0, sizeof *is);
	is->n = n;
	for (i = 0; i < n; i++)
		is->h[i] = (2 * tu_unit(&r) - 1) * hscale;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double w;
			if (tu_unit(&r) >= edge_prob)
				continue;
			w = (2 * tu_unit(&r) - 1) * jscale;
			if (w == 0)
				w = jscale;
			is->rows[is->count] = i;
			is->cols[is->count] = j;
			is->w[is->count++] = w;
			is->jm[i][j] = is->jm[j][i] = w;
		}
	is->offset = 0.5 - tu_unit(&r);
}

static qubo_model *cf_model(const cf_ising *is)
{
	qubo_model *m = NULL;

	cr_assert_eq(qubo_model_from_ising(&m, is->n, is->h, is->count, is->rows, is->cols, is->w,
					   is->offset, NULL),
		     QUBO_OK, "%s", qubo_error_message());
	return m;
}

static double cf_z(const cf_ising *is, size_t u, double g, double b)
{
	double prod = 1;
	size_t k;

	for (k = 0; k < is->n; k++)
		if (k != u)
			prod *= cos(2 * g * is->jm[u][k]);
	return -sin(2 * b) * sin(2 * g * is->h[u]) * prod;
}

/* tree != 0: the same formula with the triangle terms left out (as if u and
 * v had no common neighbour), to show that the test can tell them apart. */
static double cf_zz(const cf_ising *is, size_t u, size_t v, double g, double b, int tree)
{
	double pu = 1, pv = 1, pm = 1, pp = 1;
	size_t k;

	for (k = 0; k < is->n; k++) {
		if (k == u || k == v)
			continue;
		pu *= cos(2 * g * is->jm[u][k]);
		pv *= cos(2 * g * is->jm[v][k]);
		pm *= cos(2 * g * (is->jm[u][k] - is->jm[v][k]));
		pp *= cos(2 * g * (is->jm[u][k] + is->jm[v][k]));
	}
	if (tree)
		pm = pp = pu * pv;
	return 0.5 * sin(4 * b) * sin(2 * g * is->jm[u][v]) *
		       (cos(2 * g * is->h[u]) * pu + cos(2 * g * is->h[v]) * pv) +
	       0.5 * sin(2 * b) * sin(2 * b) *
		       (cos(2 * g * (is->h[u] - is->h[v])) * pm -
			cos(2 * g * (is->h[u] + is->h[v])) * pp);
}

/* <Z_u> and <Z_u Z_v> from probabilities: Z = +1 on |0>, -1 on |1>. */
static double prob_z(const double *pr, size_t n, size_t u)
{
	size_t x;
	double s = 0;

	for (x = 0; x < ((size_t)1 << n); x++)
		s += ((x >> u) & 1) ? -pr[x] : pr[x];
	return s;
}

static double prob_zz(const double *pr, size_t n, size_t u, size_t v)
{
	size_t x;
	double s = 0;

	for (x = 0; x < ((size_t)1 << n); x++)
		s += (((x >> u) ^ (x >> v)) & 1) ? -pr[x] : pr[x];
	return s;
}

/* Checks every <Z_u> and every <Z_u Z_v> (all pairs, coupled or not) of the
 * probabilities pr against the closed form, and <C> assembled from them
 * against expectation (when not NaN). Returns the largest difference between
 * the simulator's ZZ and the tree formula. */
static double cf_check(const cf_ising *is, const double *pr, double g, double b,
		       double expectation, const char *what)
{
	size_t u, v, n = is->n;
	double c = is->offset, tree_gap = 0;

	for (u = 0; u < n; u++) {
		double got = prob_z(pr, n, u), want = cf_z(is, u, g, b);
		cr_assert(fabs(got - want) <= 1e-12, "%s: g %.17g b %.17g <Z_%zu> %.17g, closed form %.17g",
			  what, g, b, u, got, want);
		c -= is->h[u] * got; /* s_u = -Z_u */
	}
	for (u = 0; u < n; u++)
		for (v = u + 1; v < n; v++) {
			double got = prob_zz(pr, n, u, v), want = cf_zz(is, u, v, g, b, 0);
			cr_assert(fabs(got - want) <= 1e-12,
				  "%s: g %.17g b %.17g <Z_%zu Z_%zu> %.17g, closed form %.17g", what, g,
				  b, u, v, got, want);
			tree_gap = fmax(tree_gap, fabs(got - cf_zz(is, u, v, g, b, 1)));
			c += is->jm[u][v] * got;
		}
	if (!isnan(expectation))
		cr_assert(fabs(c - expectation) <= 1e-11, "%s: <C> %.17g, from the terms %.17g", what,
			  expectation, c);
	return tree_gap;
}

static const double cf_angles[][2] = {
	{ 0.37, 0.41 },   { -0.52, 0.23 }, { 1.9, -0.66 }, { 0.11, QH_PI / 4 },
	{ 7.3, 1.2 },     { -3.05, 2.9 },  { 0.8, QH_PI / 2 }, { 0.6, 0.0 },
};
#define CF_NUM_ANGLES (sizeof cf_angles / sizeof cf_angles[0])

/* The derivation itself against the dense reference, no simulator. */
Test(qaoa_closed_form, the_formula_matches_the_dense_reference)
{
	size_t n, a;

	for (n = 2; n <= 6; n++) {
		cf_ising is;
		qubo_model *m;
		double *e, *pr;
		double complex *psi = malloc(((size_t)1 << n) * sizeof *psi);
		size_t x;
		cf_random(&is, 40 + n, n, 0.8, 1.0, 1.0);
		m = cf_model(&is);
		e = qh_energies(m);
		pr = malloc(((size_t)1 << n) * sizeof *pr);
		cr_assert(psi && pr);
		for (a = 0; a < CF_NUM_ANGLES; a++) {
			double g = cf_angles[a][0], b = cf_angles[a][1];
			qh_reference_state(n, e, 1, &g, &b, psi);
			for (x = 0; x < ((size_t)1 << n); x++)
				pr[x] = creal(psi[x]) * creal(psi[x]) + cimag(psi[x]) * cimag(psi[x]);
			cf_check(&is, pr, g, b, (double)NAN, "dense reference");
		}
		free(psi);
		free(pr);
		free(e);
		qubo_model_free(m);
	}
}

static double cf_run(const cf_ising *is, const char *what)
{
	qubo_model *m = cf_model(is);
	qubo_qaoa *q = qh_new(m);
	double gap = 0;
	size_t a;

	for (a = 0; a < CF_NUM_ANGLES; a++) {
		double g = cf_angles[a][0], b = cf_angles[a][1], ex, *pr;
		qh_evolve(q, 1, &g, &b);
		pr = qh_probabilities(q);
		cr_assert_eq(qubo_qaoa_expectation(q, &ex, NULL), QUBO_OK);
		gap = fmax(gap, cf_check(is, pr, g, b, ex, what));
		free(pr);
	}
	qubo_qaoa_free(q);
	qubo_model_free(m);
	return gap;
}

Test(qaoa_closed_form, field_free_random_graphs)
{
	unsigned t, trials = th_trials(3, 1);

	for (t = 0; t < trials; t++) {
		cf_ising is;
		cf_random(&is, 100 + t, 10, 0.35, 0.0, 1.3);
		cf_run(&is, "field free");
	}
}

Test(qaoa_closed_form, fields_only)
{
	cf_ising is;

	cf_random(&is, 7, 10, 0.0, 1.7, 1.0);
	cr_assert_eq(is.count, 0);
	cf_run(&is, "fields only");
}

Test(qaoa_closed_form, dense_graphs_with_triangles)
{
	cf_ising is;
	double gap;

	/* the complete graph on 9 vertices, with fields */
	cf_random(&is, 9, 9, 1.1, 0.8, 0.9);
	cr_assert_eq(is.count, 36);
	gap = cf_run(&is, "K9");
	cr_assert_gt(gap, 1e-3, "the triangle terms should matter here (gap %g)", gap);
	/* a dense random graph of 10, field free */
	cf_random(&is, 10, 10, 0.85, 0.0, 1.1);
	gap = cf_run(&is, "dense, field free");
	cr_assert_gt(gap, 1e-3, "the triangle terms should matter here (gap %g)", gap);
}

Test(qaoa_closed_form, random_sizes_and_densities)
{
	unsigned t, trials = th_trials(8, 3);

	for (t = 0; t < trials; t++) {
		tu_rng r = { 555 + t };
		cf_ising is;
		size_t n = 2 + (size_t)tu_below(&r, 9);
		cf_random(&is, 600 + t, n, tu_unit(&r), 2 * tu_unit(&r), 0.3 + 2 * tu_unit(&r));
		cf_run(&is, "random");
	}
}

/* ------------------------------------------------------------------------
 * 4. Reads, frequencies and the seed contract
 * ------------------------------------------------------------------------ */

/* Pearson's chi-square of counts against N * prob, with the bins expected
 * below 5 pooled into one; df receives bins - 1. */
static double chi_square(const uint64_t *counts, const double *prob, size_t dim, uint64_t total,
			 size_t *df)
{
	double chi = 0, pool_e = 0;
	uint64_t pool_c = 0;
	size_t bins = 0, x;

	for (x = 0; x < dim; x++) {
		double ex = (double)total * prob[x];
		if (ex < 5) {
			pool_e += ex;
			pool_c += counts[x];
		} else {
			double d = (double)counts[x] - ex;
			chi += d * d / ex;
			bins++;
		}
	}
	if (pool_c || pool_e > 0) {
		double d = (double)pool_c - pool_e;
		chi += d * d / fmax(pool_e, 1e-300);
		bins++;
	}
	*df = bins ? bins - 1 : 0;
	return chi;
}

/* A bound a correct sampler exceeds with probability far below 1e-6. */
static double chi_bound(size_t df)
{
	return (double)df + 8 * sqrt(2.0 * (double)df) + 25;
}

static void count_rows(const uint8_t *rows, size_t reads, size_t n, uint64_t *counts)
{
	size_t r, i;

	memset(counts, 0, ((size_t)1 << n) * sizeof *counts);
	for (r = 0; r < reads; r++) {
		size_t x = 0;
		for (i = 0; i < n; i++) {
			cr_assert(rows[r * n + i] <= 1, "read %zu byte %zu is %u", r, i,
				  rows[r * n + i]);
			x |= (size_t)rows[r * n + i] << i;
		}
		counts[x]++;
	}
}

static size_t reverse_bits(size_t x, size_t n)
{
	size_t y = 0, i;

	for (i = 0; i < n; i++)
		y |= ((x >> i) & 1) << (n - 1 - i);
	return y;
}

Test(qaoa_sampling, frequencies_match_the_probabilities)
{
	enum { N = 5, DIM = 32, READS = 20000 };
	qubo_model *m = qh_random_model(2024, N, 0.8, 2.0, 0);
	qubo_qaoa *q = qh_new(m);
	double g[2] = { 0.55, 0.9 }, b[2] = { 0.5, 0.3 }, *pr, rev[DIM];
	uint8_t *rows = malloc((size_t)READS * N);
	uint64_t counts[DIM], ucounts[DIM];
	tu_rng r = { 99 };
	size_t df, x, i;
	double chi;

	cr_assert(rows);
	qh_evolve(q, 2, g, b);
	pr = qh_probabilities(q);
	cr_assert_eq(qubo_qaoa_sample(q, 4242, READS, rows, (size_t)READS * N), QUBO_OK, "%s",
		     qubo_error_message());
	count_rows(rows, READS, N, counts);
	chi = chi_square(counts, pr, DIM, READS, &df);
	cr_assert_lt(chi, chi_bound(df), "chi-square %g with %zu degrees of freedom", chi, df);
	for (x = 0; x < DIM; x++) {
		double ex = READS * pr[x];
		cr_assert(fabs((double)counts[x] - ex) <= 6 * sqrt(ex * (1 - pr[x])) + 3,
			  "state %zu: %" PRIu64 " reads, %g expected", x, counts[x], ex);
	}
	/* the check can fail: reads of the uniform distribution, and the
	 * right reads against the probabilities with the bit order reversed */
	for (x = 0; x < DIM; x++)
		rev[x] = pr[reverse_bits(x, N)];
	for (i = 0; i < (size_t)READS * N; i++)
		rows[i] = (uint8_t)tu_below(&r, 2);
	count_rows(rows, READS, N, ucounts);
	chi = chi_square(ucounts, pr, DIM, READS, &df);
	cr_assert_gt(chi, chi_bound(df), "uniform reads pass: chi-square %g", chi);
	chi = chi_square(counts, rev, DIM, READS, &df);
	cr_assert_gt(chi, chi_bound(df), "reversed bit order passes: chi-square %g", chi);
	free(rows);
	free(pr);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

/* The same at 12 qubits, where a sampler may search blocks of states: the
 * counts of every state (pooled where few are expected) and of the 64
 * values of the high six bits and of the low six bits. */
static void coarse_counts(const uint64_t *counts, const double *pr, size_t dim, int high,
			  uint64_t *cc, double *cp)
{
	size_t x;

	memset(cc, 0, 64 * sizeof *cc);
	memset(cp, 0, 64 * sizeof *cp);
	for (x = 0; x < dim; x++) {
		size_t bin = high ? x >> 6 : x & 63;
		cc[bin] += counts[x];
		cp[bin] += pr[x];
	}
}

Test(qaoa_sampling, frequencies_at_12_qubits)
{
	enum { N = 12, DIM = 4096, READS = 20000 };
	qubo_model *m = qh_random_model(1212, N, 0.4, 1.5, 0);
	qubo_qaoa *q = qh_new(m);
	double g[2] = { 0.8, 0.45 }, b[2] = { 0.45, 0.25 }, *pr, cp[64], chi, far = 0;
	uint8_t *rows = malloc((size_t)READS * N);
	uint64_t *counts = malloc(DIM * sizeof *counts), cc[64];
	size_t df, x;
	int high;

	cr_assert(rows && counts);
	qh_evolve(q, 2, g, b);
	pr = qh_probabilities(q);
	for (x = 0; x < DIM; x++)
		far = fmax(far, fabs(pr[x] * DIM - 1));
	cr_assert_gt(far, 1.0, "the state should be far from uniform");
	cr_assert_eq(qubo_qaoa_sample(q, 31337, READS, rows, (size_t)READS * N), QUBO_OK);
	count_rows(rows, READS, N, counts);
	chi = chi_square(counts, pr, DIM, READS, &df);
	cr_assert_lt(chi, chi_bound(df), "all states: chi-square %g, %zu degrees of freedom", chi,
		     df);
	for (high = 0; high < 2; high++) {
		coarse_counts(counts, pr, DIM, high, cc, cp);
		chi = chi_square(cc, cp, 64, READS, &df);
		cr_assert_lt(chi, chi_bound(df), "%s bits: chi-square %g, %zu degrees of freedom",
			     high ? "high" : "low", chi, df);
	}
	free(rows);
	free(counts);
	free(pr);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_sampling, same_reads_and_amplitudes_at_any_thread_count)
{
	enum { N = 16, READS = 300 };
	size_t dim = (size_t)1 << N;
	qubo_model *m = qh_random_model(16, N, 0.2, 1.5, 0);
	qubo_qaoa *q = qh_new(m);
	double g[2] = { 0.31, -0.72 }, b[2] = { 0.44, 1.01 };
	double *amp0 = malloc(2 * dim * sizeof *amp0), *amp = malloc(2 * dim * sizeof *amp);
	uint8_t *rows0 = malloc(READS * N), *rows = malloc(READS * N);
	double ex0 = 0, lo0 = 0;
	static const int threads[] = { 1, 2, 3, 0 };
	size_t t;

	cr_assert(amp0 && amp && rows0 && rows);
	for (t = 0; t < 4; t++) {
		double ex, lo;
		cr_assert_eq(qubo_qaoa_set_threads(q, threads[t]), QUBO_OK);
		qh_evolve(q, 2, g, b);
		cr_assert_eq(qubo_qaoa_amplitudes(q, t ? amp : amp0, 2 * dim), QUBO_OK);
		cr_assert_eq(qubo_qaoa_expectation(q, &ex, &lo), QUBO_OK);
		cr_assert_eq(qubo_qaoa_sample(q, 0x5eed, READS, t ? rows : rows0, READS * N), QUBO_OK);
		if (!t) {
			ex0 = ex;
			lo0 = lo;
			continue;
		}
		cr_assert_eq(memcmp(amp, amp0, 2 * dim * sizeof *amp), 0, "threads %d: amplitudes",
			     threads[t]);
		cr_assert_eq(memcmp(&ex, &ex0, sizeof ex), 0, "threads %d: expectation", threads[t]);
		cr_assert_eq(memcmp(&lo, &lo0, sizeof lo), 0, "threads %d: lowest probability",
			     threads[t]);
		cr_assert_eq(memcmp(rows, rows0, READS * N), 0, "threads %d: reads", threads[t]);
	}
	/* read r depends only on (seed, r): fewer reads are a prefix */
	cr_assert_eq(qubo_qaoa_sample(q, 0x5eed, 40, rows, READS * N), QUBO_OK);
	cr_assert_eq(memcmp(rows, rows0, 40 * N), 0);
	/* and another seed gives other reads */
	cr_assert_eq(qubo_qaoa_sample(q, 0x5eee, READS, rows, READS * N), QUBO_OK);
	cr_assert_neq(memcmp(rows, rows0, READS * N), 0);
	free(amp0);
	free(amp);
	free(rows0);
	free(rows);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

static qubo_solver *qaoa_solver(int threads, const char *angles, int64_t reads)
{
	qubo_solver *s = th_solver("qaoa");

	th_set_int(s, QUBO_PARAM_THREADS, threads);
	th_set_int(s, QUBO_PARAM_SEED, 77);
	th_set_int(s, QUBO_PARAM_NUM_READS, reads);
	if (angles)
		cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, angles), QUBO_OK, "%s",
			     qubo_error_message());
	return s;
}

static qubo_sampleset *solve(qubo_solver *s, const qubo_model *m, qubo_sample_info *info)
{
	qubo_sampleset *set = NULL;

	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_sampleset_get_info(set, info), QUBO_OK);
	return set;
}

/* 14 qubits (12 under valgrind, where 14 take 4 s), past a run's 2^10
 * amplitudes, with the simulator's worker threads from 10 qubits on (18 by
 * default), so that threads 2 takes the threaded passes. */
Test(qaoa_solver, same_sets_at_threads_1_and_2_and_the_simulator_figures)
{
	size_t n = th_trials(14, 12);
	qubo_model *m;

	qubo__qaoa_set_mt_min_bits(10);
	cr_assert_eq(qubo__qaoa_workers_for(n, 2), 2, "the passes stay on one thread");
	m = qh_random_model(321, n, 0.3, 2.0, 0);
	double g[2] = { 0.42, -0.9 }, b[2] = { 0.61, 0.27 }, ex, lo, scale;
	char angles[256];
	qubo_sample_info i1 = QUBO_SAMPLE_INFO_INIT, i2 = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *s1, *s2;
	qubo_solver *a, *c;
	qubo_qaoa *q = qh_new(m);
	double *e = qh_energies(m);

	scale = fmax(1.0, qh_max_abs(e, (size_t)1 << n));
	qh_angles_string(angles, sizeof angles, 2, g, b);
	a = qaoa_solver(1, angles, 3000);
	c = qaoa_solver(2, angles, 3000);
	s1 = solve(a, m, &i1);
	s2 = solve(c, m, &i2);
	cr_assert(th_same_sets(s1, s2), "threads 1 and 2 give different sample sets");
	qh_evolve(q, 2, g, b);
	cr_assert_eq(qubo_qaoa_expectation(q, &ex, &lo), QUBO_OK);
	cr_assert_eq(i1.has_expectation, 1);
	cr_assert_eq(i2.has_expectation, 1);
	cr_assert(fabs(i1.expectation - ex) <= 1e-12 * scale, "solver %.17g, simulator %.17g",
		  i1.expectation, ex);
	cr_assert(fabs(i1.lowest_probability - lo) <= 1e-12, "solver %.17g, simulator %.17g",
		  i1.lowest_probability, lo);
	cr_assert_eq(memcmp(&i1.expectation, &i2.expectation, sizeof ex), 0);
	cr_assert_eq(memcmp(&i1.lowest_probability, &i2.lowest_probability, sizeof lo), 0);
	cr_assert_eq(i1.num_samples, 3000);
	cr_assert_eq(i1.seed, 77);
	cr_assert_eq(i1.status, QUBO_OK);
	/* "p" set to the count of the angles changes nothing */
	th_set_int(a, QUBO_PARAM_P, 2);
	qubo_sampleset_free(s2);
	s2 = solve(a, m, &i2);
	cr_assert(th_same_sets(s1, s2));
	qubo_sampleset_free(s1);
	qubo_sampleset_free(s2);
	/* optimised angles: the same at 1 and 2 threads too */
	cr_assert_eq(qubo_solver_unset(a, QUBO_PARAM_ANGLES), QUBO_OK);
	cr_assert_eq(qubo_solver_unset(c, QUBO_PARAM_ANGLES), QUBO_OK);
	th_set_int(a, QUBO_PARAM_NUM_ITERATIONS, 3);
	th_set_int(c, QUBO_PARAM_NUM_ITERATIONS, 3);
	th_set_int(c, QUBO_PARAM_P, 2);
	s1 = solve(a, m, &i1);
	s2 = solve(c, m, &i2);
	cr_assert(th_same_sets(s1, s2), "optimised: threads 1 and 2 give different sample sets");
	cr_assert_eq(memcmp(&i1.expectation, &i2.expectation, sizeof ex), 0);
	qubo_sampleset_free(s1);
	qubo_sampleset_free(s2);
	qubo_solver_free(a);
	qubo_solver_free(c);
	qubo_qaoa_free(q);
	qubo_model_free(m);
	free(e);
}

static int add_counts(size_t index, const uint8_t *sample, size_t length, double energy,
		      uint64_t occurrences, void *user_data)
{
	uint64_t *counts = user_data;
	size_t x = 0, i;

	(void)index;
	(void)energy;
	for (i = 0; i < length; i++)
		x |= (size_t)sample[i] << i;
	counts[x] += occurrences;
	return 0;
}

Test(qaoa_solver, frequencies_match_the_probabilities)
{
	enum { N = 5, DIM = 32, READS = 20000 };
	qubo_model *m = qh_random_model(4096, N, 0.8, 2.0, 0);
	double g[1] = { 0.7 }, b[1] = { -0.45 }, *pr, chi;
	char angles[128];
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	uint64_t counts[DIM] = { 0 };
	qubo_qaoa *q = qh_new(m);
	qubo_solver *s;
	qubo_sampleset *set;
	size_t df;

	qh_angles_string(angles, sizeof angles, 1, g, b);
	s = qaoa_solver(2, angles, READS);
	set = solve(s, m, &info);
	cr_assert_eq(qubo_sampleset_foreach(set, add_counts, counts), QUBO_OK);
	qh_evolve(q, 1, g, b);
	pr = qh_probabilities(q);
	chi = chi_square(counts, pr, DIM, READS, &df);
	cr_assert_lt(chi, chi_bound(df), "chi-square %g with %zu degrees of freedom", chi, df);
	free(pr);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_solver, unset_angles_are_those_of_qubo_qaoa_optimize)
{
	qubo_model *m = qh_random_model(55, 6, 0.7, 2.0, 0);
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	double g[2], b[2], ex = 0, lo = 0;
	qubo_qaoa *q = qh_new(m);
	qubo_solver *s = qaoa_solver(2, NULL, 100);
	qubo_sampleset *set;

	th_set_int(s, QUBO_PARAM_P, 2);
	th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 30);
	set = solve(s, m, &info);
	cr_assert_eq(qubo_qaoa_optimize(q, 2, 30, g, b, &ex), QUBO_OK);
	cr_assert_eq(qubo_qaoa_expectation(q, NULL, &lo), QUBO_OK);
	cr_assert_eq(info.has_expectation, 1);
	cr_assert(fabs(info.expectation - ex) <= 1e-12 * fmax(1.0, fabs(ex)),
		  "solver %.17g, optimiser %.17g", info.expectation, ex);
	cr_assert(fabs(info.lowest_probability - lo) <= 1e-12, "solver %.17g, optimiser %.17g",
		  info.lowest_probability, lo);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

/* A run stopped by its time limit while the angles are being optimised
 * still measures a state: QUBO_TIME_LIMIT, every read, and figures of that
 * state within the model's range. */
Test(qaoa_solver, a_time_limit_during_the_optimisation)
{
	qubo_model *m = qh_random_model(66, 8, 0.6, 2.0, 0);
	double *e = qh_energies(m), emin = qh_min(e, 256, NULL), emax = -(double)INFINITY;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_solver *s = qaoa_solver(1, NULL, 50);
	qubo_sampleset *set = NULL;
	int rc;
	size_t x;

	for (x = 0; x < 256; x++)
		emax = fmax(emax, e[x]);
	th_set_int(s, QUBO_PARAM_P, 3);
	th_set_double(s, QUBO_PARAM_TIME_LIMIT, 1e-9);
	rc = qubo_solver_sample(&set, s, m);
	cr_assert_eq(rc, QUBO_TIME_LIMIT, "%s %s", qubo_status_name(rc), qubo_error_message());
	cr_assert_not_null(set);
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.status, QUBO_TIME_LIMIT);
	cr_assert_eq(info.num_samples, 50);
	cr_assert_eq(info.has_expectation, 1);
	cr_assert(info.expectation >= emin - 1e-9 && info.expectation <= emax + 1e-9, "%.17g",
		  info.expectation);
	cr_assert(info.lowest_probability >= 0 && info.lowest_probability <= 1 + 1e-12);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
	free(e);
}

/* ------------------------------------------------------------------------
 * 5. The optimiser
 * ------------------------------------------------------------------------ */

static double mean_energy(const double *e, size_t dim)
{
	double s = 0;
	size_t x;

	for (x = 0; x < dim; x++)
		s += e[x];
	return s / (double)dim;
}

/* The returned angles give the returned expectation, and q is left at them. */
static void check_optimum(qubo_qaoa *q, const qubo_model *m, size_t p, const double *g,
			  const double *b, double ex)
{
	qubo_qaoa *fresh = qh_new(m);
	size_t dim = (size_t)1 << qubo_qaoa_num_qubits(q), x;
	double again = 0, here = 0;
	double complex *a, *f;

	qh_evolve(fresh, p, g, b);
	cr_assert_eq(qubo_qaoa_expectation(fresh, &again, NULL), QUBO_OK);
	cr_assert(fabs(again - ex) <= 1e-12 * fmax(1.0, fabs(ex)),
		  "p %zu: optimize says %.17g, its angles give %.17g", p, ex, again);
	cr_assert_eq(qubo_qaoa_expectation(q, &here, NULL), QUBO_OK);
	cr_assert(fabs(here - ex) <= 1e-12 * fmax(1.0, fabs(ex)),
		  "p %zu: state left at %.17g, result %.17g", p, here, ex);
	a = qh_amplitudes(q);
	f = qh_amplitudes(fresh);
	for (x = 0; x < dim; x++)
		cr_assert(cabs(a[x] - f[x]) <= 1e-12, "p %zu: amplitude %zu", p, x);
	free(a);
	free(f);
	qubo_qaoa_free(fresh);
}

Test(qaoa_optimize, results_are_consistent_and_improve_with_depth)
{
	unsigned t, trials = th_trials(40, 3);

	for (t = 0; t < trials; t++) {
		size_t n = 5 + t % 4, dim = (size_t)1 << n;
		qubo_model *m = qh_random_model(70 + t, n, 0.6, 2.0, t % 2);
		double *e = qh_energies(m), g1[1], b1[1], g2[2], b2[2], g3[3], b3[3];
		double e1 = 0, e2 = 0, e3 = 0, mean = mean_energy(e, dim), emin;
		double scale = fmax(1.0, qh_max_abs(e, dim));
		qubo_qaoa *q = qh_new(m);
		emin = qh_min(e, dim, NULL);
		cr_assert_lt(emin, mean - 1e-6, "trivial model");
		cr_assert_eq(qubo_qaoa_optimize(q, 1, 0, g1, b1, &e1), QUBO_OK, "%s",
			     qubo_error_message());
		check_optimum(q, m, 1, g1, b1, e1);
		cr_assert_lt(e1, mean - 1e-6 * scale, "p 1: %.17g, average %.17g", e1, mean);
		cr_assert_geq(e1, emin - 1e-9 * scale);
		cr_assert_eq(qubo_qaoa_optimize(q, 2, 0, g2, b2, &e2), QUBO_OK);
		check_optimum(q, m, 2, g2, b2, e2);
		cr_assert_leq(e2, e1 + 1e-9, "model %u: p 2 gives %.17g, p 1 %.17g", t, e2, e1);
		cr_assert_eq(qubo_qaoa_optimize(q, 3, 0, g3, b3, &e3), QUBO_OK);
		check_optimum(q, m, 3, g3, b3, e3);
		cr_assert_leq(e3, e2 + 1e-9, "model %u: p 3 gives %.17g, p 2 %.17g", t, e3, e2);
		cr_assert_geq(e3, emin - 1e-9 * scale);
		qubo_qaoa_free(q);
		qubo_model_free(m);
		free(e);
	}
}

/* 14 qubits (12 under valgrind, where 14 take 11 s), with the simulator's
 * worker threads from 10 qubits on, as above. */
Test(qaoa_optimize, deterministic_at_any_thread_count)
{
	qubo_model *m;
	double g[3][2], b[3][2], ex[3];
	int k;

	qubo__qaoa_set_mt_min_bits(10);
	cr_assert_eq(qubo__qaoa_workers_for(th_trials(14, 12), 2), 2,
		     "the passes stay on one thread");
	m = qh_random_model(808, th_trials(14, 12), 0.3, 2.0, 0);

	for (k = 0; k < 3; k++) {
		qubo_qaoa *q = qh_new(m);
		cr_assert_eq(qubo_qaoa_set_threads(q, k == 2 ? 2 : 1), QUBO_OK);
		cr_assert_eq(qubo_qaoa_optimize(q, 2, 4, g[k], b[k], &ex[k]), QUBO_OK);
		if (k == 1) { /* the same object again, after another call */
			double g2[2], b2[2], e2;
			cr_assert_eq(qubo_qaoa_optimize(q, 2, 4, g2, b2, &e2), QUBO_OK);
			cr_assert_eq(memcmp(g2, g[k], sizeof g2), 0);
			cr_assert_eq(memcmp(b2, b[k], sizeof b2), 0);
			cr_assert_eq(memcmp(&e2, &ex[k], sizeof e2), 0);
		}
		qubo_qaoa_free(q);
	}
	for (k = 1; k < 3; k++) {
		cr_assert_eq(memcmp(g[k], g[0], sizeof g[0]), 0, "run %d: gammas differ", k);
		cr_assert_eq(memcmp(b[k], b[0], sizeof b[0]), 0, "run %d: betas differ", k);
		cr_assert_eq(memcmp(&ex[k], &ex[0], sizeof ex[0]), 0, "run %d: %.17g vs %.17g", k,
			     ex[k], ex[0]);
	}
	qubo_model_free(m);
}

Test(qaoa_optimize, few_iterations_and_a_flat_model)
{
	qubo_model *m = qh_random_model(12, 6, 0.5, 2.0, 1), *flat = NULL;
	qubo_qaoa *q = qh_new(m);
	double g[2], b[2], ex = 0;

	cr_assert_eq(qubo_qaoa_optimize(q, 2, 1, g, b, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_expectation(q, &ex, NULL), QUBO_OK);
	check_optimum(q, m, 2, g, b, ex);
	qubo_qaoa_free(q);
	/* an offset only: every angle gives the offset */
	cr_assert_eq(qubo_model_new(&flat, 4, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(flat, -3.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(flat), QUBO_OK);
	q = qh_new(flat);
	cr_assert_eq(qubo_qaoa_optimize(q, 2, 0, g, b, &ex), QUBO_OK);
	cr_assert(fabs(ex + 3.5) <= 1e-12, "%.17g", ex);
	cr_assert(isfinite(g[0]) && isfinite(g[1]) && isfinite(b[0]) && isfinite(b[1]));
	qubo_qaoa_free(q);
	qubo_model_free(flat);
	qubo_model_free(m);
}

/* Depth 1 reaches the best point of a fine grid over the whole (gamma,
 * beta) domain. With integer h and J the depth-1 expectation has period pi
 * in gamma and in beta, and (gamma, beta) -> (-gamma, -beta) leaves it
 * unchanged, so gamma in [0, pi) and beta in [-pi/2, pi/2) cover it. The
 * grid uses the closed form of section 2 (cf_z, cf_zz): at a fixed gamma,
 * <C> = offset + A sin 2b + (Zb - Zc / 2) sin 4b + Zc sin^2 2b with
 * A = sum_u h_u <s_u> and Zc = sum J_uv <s_u s_v> at b = pi/4, and
 * Zb = sum J_uv <s_u s_v> at b = pi/8. */
static double cf_expectation(const cf_ising *is, double g, double b)
{
	double e = is->offset;
	size_t u, v;

	for (u = 0; u < is->n; u++) {
		e -= is->h[u] * cf_z(is, u, g, b);
		for (v = u + 1; v < is->n; v++)
			e += is->jm[u][v] * cf_zz(is, u, v, g, b, 0);
	}
	return e;
}

static double cf_grid_best(const cf_ising *is, size_t gamma_points, size_t beta_points)
{
	double best = (double)INFINITY;
	size_t i, j;

	for (i = 0; i < gamma_points; i++) {
		double g = QH_PI * (double)i / (double)gamma_points;
		double a = cf_expectation(is, g, QH_PI / 4) - is->offset, zc = 0, zb = 0;
		size_t u, v;
		for (u = 0; u < is->n; u++)
			for (v = u + 1; v < is->n; v++) {
				zc += is->jm[u][v] * cf_zz(is, u, v, g, QH_PI / 4, 0);
				zb += is->jm[u][v] * cf_zz(is, u, v, g, QH_PI / 8, 0);
			}
		a -= zc; /* cf_expectation at pi/4 holds A + Zc */
		for (j = 0; j < beta_points; j++) {
			double b = -QH_PI / 2 + QH_PI * (double)j / (double)beta_points;
			double e = is->offset + a * sin(2 * b) + (zb - zc / 2) * sin(4 * b) +
				   zc * sin(2 * b) * sin(2 * b);
			if (i % 37 == 0 && j % 29 == 0) /* the decomposition is the formula */
				cr_assert(fabs(e - cf_expectation(is, g, b)) <= 1e-12);
			if (e < best)
				best = e;
		}
	}
	return best;
}

Test(qaoa_optimize, depth_one_reaches_the_best_of_a_fine_grid)
{
	unsigned t, trials = th_trials(12, 4);

	for (t = 0; t < trials; t++) {
		tu_rng r = { 4000 + t };
		size_t n = 3 + (size_t)tu_below(&r, 5), k;
		cf_ising is;
		qubo_model *m;
		qubo_qaoa *q;
		double g, b, e1 = 0, best;
		/* integer fields and couplings in [-2, 2] */
		cf_random(&is, 5000 + t, n, 0.6, 1.0, 1.0);
		for (k = 0; k < n; k++)
			is.h[k] = (double)tu_range(&r, -2, 2);
		for (k = 0; k < is.count; k++) {
			is.w[k] = (double)(tu_range(&r, 1, 2) * (tu_below(&r, 2) ? 1 : -1));
			is.jm[is.rows[k]][is.cols[k]] = is.jm[is.cols[k]][is.rows[k]] = is.w[k];
		}
		m = cf_model(&is);
		q = qh_new(m);
		best = cf_grid_best(&is, 256, 256);
		cr_assert_eq(qubo_qaoa_optimize(q, 1, 0, &g, &b, &e1), QUBO_OK);
		cr_assert_leq(e1, best + 1e-7 * fmax(1.0, fabs(best)),
			      "model %u (n %zu): the optimiser stops at %.17g (gamma %.6f, beta "
			      "%.6f), the grid has %.17g",
			      t, n, e1, g, b, best);
		qubo_qaoa_free(q);
		qubo_model_free(m);
	}
}
