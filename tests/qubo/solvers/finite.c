/* Energies and answers are finite, through every solver: a model whose
 * weights' magnitudes add up beyond QUBO_MODEL_MAX_WEIGHT_SUM is refused
 * before any backend runs, a model at the limit is solved with finite
 * energies, and a NaN is an error, never an answer (QAOA's angles, its
 * figures, a backend's report). */
#include <math.h>
#include <stdio.h>

#include "helpers.h"

/* ---- the models ---- */

/* tu_chain(), compiled. The compile's status is not looked at: it fails
 * for a model beyond the limit, and one without couplers stays clean all
 * the same. */
static qubo_model *model(size_t n, const double *h, double offset, double j)
{
	qubo_model *m = tu_chain(n, h, offset, j);

	cr_assert_not_null(m, "%s", qubo_error_message());
	(void)qubo_model_compile(m);
	return m;
}

enum { NUM_BEYOND = 5 };

/* Models whose every energy but whose weight sum is not safely finite: the
 * report's two (energies 1e308 and -1e308 apart; -2e308, which overflows),
 * the offset alone, 1000 moderate weights, and a compiled model that linear
 * terms added afterwards take past the limit. */
static qubo_model *beyond(int k)
{
	static const double apart[2] = { 1e308, -1e308 }, low[2] = { -1e308, -1e308 };
	static double many[1000];
	qubo_model *m;
	size_t i;

	switch (k) {
	case 0:
		return model(2, apart, 0, 0);
	case 1:
		return model(2, low, 0, 0);
	case 2:
		return model(2, NULL, 2e301, 0);
	case 3:
		for (i = 0; i < 1000; i++)
			many[i] = i % 3 ? 1.1e298 : -1.1e298;
		return model(1000, many, 0, 0);
	default:
		m = model(4, NULL, 0, 3e300);
		cr_assert(qubo_model_is_compiled(m));
		cr_assert_eq(qubo_model_add_linear(m, 3, -2e300), QUBO_OK);
		return m;
	}
}

/* Near the limit: weights of 2^995 .. 2^997 whose magnitudes add up to
 * 0.66 * 2^1000, so that the differences of energies a solver forms come
 * near the top of the double range. The lowest energy, 2^995 - 2^998 -
 * 2^996 = -9 * 2^995, is had by one state (x = 0110). */
static qubo_model *at_limit(void)
{
	static const double h[4] = { 0x1p997, -0x1p997, -0x1p997, 0x1p997 };
	qubo_model *m = model(4, h, 0x1p995, 0);

	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, -0x1p996), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 3, -0x1p996), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	return m;
}

/* ---- every solver ---- */

/* A custom backend that counts its calls and returns a fixed sample. */
static int counting_sample(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
			   void *user_data)
{
	uint8_t x[4] = { 0, 1, 1, 0 };

	(void)o;
	++*(int *)user_data;
	cr_assert_eq(qubo_model_num_variables(m), 4);
	return qubo_backend_add_samples(ctx, x, 1, 4, NULL);
}

typedef int (*sample_fn)(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
			 void *user_data);

/* A solver of a backend with only a sample slot. */
static qubo_solver *backend(const char *name, sample_fn sample, void *user_data)
{
	qubo_backend_vtable vt;
	qubo_solver *s = NULL;

	memset(&vt, 0, sizeof vt);
	vt.struct_size = sizeof vt;
	vt.name = name;
	vt.sample = sample;
	cr_assert_eq(qubo_solver_new_backend(&s, &vt, user_data, NULL, NULL), QUBO_OK);
	return s;
}

static qubo_solver *solver(const char *name, int *calls)
{
	return strcmp(name, "custom") ? th_solver(name) : backend("counting", counting_sample, calls);
}

/* The solver refuses every model beyond the limit (no samples, the limit
 * named, a custom backend never called) and solves the model at the limit
 * with finite energies, the lowest of them found. */
static void check_solver(const char *name)
{
	qubo_sampleset *set;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	int calls = 0, k;
	qubo_solver *s = solver(name, &calls);
	qubo_model *m;
	double e;
	size_t i;

	th_set_int(s, QUBO_PARAM_SEED, 5);
	for (k = 0; k < NUM_BEYOND; k++) {
		int rc;

		m = beyond(k);
		set = (qubo_sampleset *)&set;
		rc = qubo_solver_sample(&set, s, m);
		cr_assert_eq(rc, QUBO_ERR_OUT_OF_RANGE, "%s, model %d: %s (%s)", name, k,
			     qubo_status_name(rc), qubo_error_message());
		cr_assert(strstr(qubo_error_message(), "QUBO_MODEL_MAX_WEIGHT_SUM"), "%s: %s",
			  name, qubo_error_message());
		cr_assert_null(set);
		qubo_model_free(m);
	}
	cr_assert_eq(calls, 0);
	m = at_limit();
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s: %s", name,
		     qubo_error_message());
	cr_assert_gt(qubo_sampleset_size(set), 0);
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		cr_assert_eq(qubo_sampleset_get(set, i, NULL, 0, &e, NULL), QUBO_OK);
		cr_assert(isfinite(e), "%s: energy %g", name, e);
	}
	cr_assert_eq(th_lowest(set), -0x9p995, "%s: lowest %a", name, th_lowest(set));
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	if (!strcmp(name, "exhaustive"))
		cr_assert_eq(info.num_ground_states, 1);
	if (info.has_expectation)
		cr_assert(isfinite(info.expectation) && info.lowest_probability >= 0 &&
			  info.lowest_probability <= 1, "%s: %g, %g", name, info.expectation,
			  info.lowest_probability);
	qubo_sampleset_free(set);
	qubo_model_free(m);
	qubo_solver_free(s);
	if (!strcmp(name, "custom"))
		cr_assert_eq(calls, 1);
}

Test(finite, sa)
{
	check_solver("sa");
}

Test(finite, pt)
{
	check_solver("pt");
}

Test(finite, tabu)
{
	check_solver("tabu");
}

Test(finite, descent)
{
	check_solver("descent");
}

Test(finite, exhaustive)
{
	check_solver("exhaustive");
}

Test(finite, qaoa)
{
	check_solver("qaoa");
}

Test(finite, custom_backend)
{
	check_solver("custom");
}

/* ---- QAOA's angles: one rule, in every way in ---- */

/* A model of weight sum 4: E = x0 - x1 + 2 x0 x1. */
static qubo_model *small(void)
{
	static const double h[2] = { 1, -1 };
	qubo_model *m = model(2, h, 0, 2);

	cr_assert(qubo_model_is_compiled(m));
	return m;
}

static void expect_angle(int rc, const char *needle, const char *what)
{
	cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "%s: %s (%s)", what, qubo_status_name(rc),
		     qubo_error_message());
	cr_assert(strstr(qubo_error_message(), needle), "%s: '%s' not in '%s'", what, needle,
		  qubo_error_message());
}

/* γ = 1e308 is refused by the simulator as by the circuit, with the same
 * words, and so are NaN, the infinities, and the first γ whose phases pass
 * 2^52 (QUBO_QAOA_MAX_PHASE / 4 is the last accepted here); the state stays
 * as it was and its figures finite. */
Test(finite, qaoa_angles_are_checked_alike)
{
	static const struct {
		double g, b;
		const char *needle;
	} bad[] = {
		{ 1e308, 0.5, "gammas[0] (layer 1) is 1e+308: its phases overflow" },
		{ (double)NAN, 0.5, "gammas[0] (layer 1) is NaN" },
		{ -(double)INFINITY, 0.5, "gammas[0] (layer 1) is -inf" },
		{ 0x1.0000000000001p50, 0.5, "gammas[0] (layer 1) is 1.1259e+15: its phases "
					     "reach 4.5036e+15" },
		{ 0.5, 1e308, "betas[0] (layer 1) is 1e+308: twice it" },
		{ 0.5, (double)NAN, "betas[0] (layer 1) is NaN" },
	};
	qubo_model *m = small();
	qubo_qaoa *q = NULL;
	double g = 0.3, b = 0.2, e0, l0, e, l, amp[8];
	size_t k, len;

	cr_assert_eq(qubo_qaoa_new(&q, m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_evolve(q, 1, &g, &b), QUBO_OK);
	cr_assert_eq(qubo_qaoa_expectation(q, &e0, &l0), QUBO_OK);
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char what[32];

		snprintf(what, sizeof what, "case %zu", k);
		expect_angle(qubo_qaoa_evolve(q, 1, &bad[k].g, &bad[k].b), bad[k].needle, what);
		cr_assert(!strncmp(qubo_error_message(), "qubo_qaoa_evolve: ", 18));
		expect_angle(qubo_qaoa_qasm(m, 1, &bad[k].g, &bad[k].b, QUBO_QASM_3, NULL, 0, &len),
			     bad[k].needle, what);
		cr_assert(!strncmp(qubo_error_message(), "qubo_qaoa_qasm: ", 16));
		cr_assert_eq(qubo_qaoa_expectation(q, &e, &l), QUBO_OK);
		cr_assert(e == e0 && l == l0, "%s: the state changed", what);
	}
	g = QUBO_QAOA_MAX_PHASE / 4;
	b = 1e300;
	cr_assert_eq(qubo_qaoa_evolve(q, 1, &g, &b), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_qaoa_expectation(q, &e, &l), QUBO_OK);
	cr_assert(isfinite(e) && isfinite(l), "%g %g", e, l);
	cr_assert_eq(qubo_qaoa_amplitudes(q, amp, 8), QUBO_OK);
	for (k = 0; k < 8; k++)
		cr_assert(isfinite(amp[k]));
	cr_assert_eq(qubo_qaoa_qasm(m, 1, &g, &b, QUBO_QASM_3, NULL, 0, &len), QUBO_OK);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

/* The solver's "angles" take the same rule: refused when the run starts,
 * with no samples; the report's command gave NaN figures and a wrong
 * answer. */
Test(finite, qaoa_solver_refuses_angles_whose_phases_overflow)
{
	qubo_model *m = small();
	qubo_solver *s = th_solver("qaoa");
	qubo_sampleset *set = (qubo_sampleset *)&set;

	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, "1e308,1"), QUBO_OK);
	expect_angle(qubo_solver_sample(&set, s, m),
		     "option angles: gammas[0] (layer 1) is 1e+308", "solver");
	cr_assert_null(set);
	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, "0.3,0.2"), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* The optimiser's grid is scaled by the median weight of a variable: with
 * one weight 10^17 times the others, its first γ would take the phases
 * past 2^52. It keeps within the rule, and its angles are accepted. */
Test(finite, qaoa_optimiser_keeps_within_the_rule)
{
	static const double h[4] = { 1e17, -1, 1, -1 };
	qubo_model *m = model(4, h, 0, 1);
	qubo_qaoa *q = NULL;
	double g[2], b[2], e, l;
	size_t len;

	cr_assert_eq(qubo_qaoa_new(&q, m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_optimize(q, 2, 30, g, b, &e), QUBO_OK, "%s", qubo_error_message());
	cr_assert(isfinite(e));
	cr_assert_leq(fabs(g[0]) * (1e17 + 6), QUBO_QAOA_MAX_PHASE, "%g", g[0]);
	cr_assert_leq(fabs(g[1]) * (1e17 + 6), QUBO_QAOA_MAX_PHASE, "%g", g[1]);
	cr_assert_eq(qubo_qaoa_evolve(q, 2, g, b), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_qaoa_expectation(q, &e, &l), QUBO_OK);
	cr_assert(isfinite(e) && isfinite(l));
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_OK);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

/* ---- a backend's report ---- */

static int nan_report(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		      void *user_data)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	uint8_t x[2] = { 0, 1 };
	int *mode = user_data, rc;

	(void)o;
	info.has_expectation = 1;
	info.expectation = *mode == 1 ? -1.0 : (double)NAN;
	info.lowest_probability = *mode == 1 ? (double)INFINITY : 0.5;
	rc = qubo_backend_report(ctx, &info);
	cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "mode %d", *mode);
	cr_assert(strstr(qubo_error_message(), "not finite"), "%s", qubo_error_message());
	if (*mode == 2) /* a backend that goes on: the report is not kept */
		return qubo_backend_add_samples(ctx, x, 1, qubo_model_num_variables(m), NULL);
	return qubo_backend_set_error(ctx, rc, qubo_error_message());
}

/* A figure that is not finite is refused by qubo_backend_report(): a
 * backend that passes the failure on fails the run, one that goes on has
 * its samples and no figures. */
Test(finite, backend_report_refuses_nan)
{
	qubo_model *m = small();
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *set;
	int mode;
	qubo_solver *s = backend("nan", nan_report, &mode);

	for (mode = 0; mode < 2; mode++) {
		set = (qubo_sampleset *)&set;
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_INVALID_ARG);
		cr_assert_null(set);
	}
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.has_expectation, 0);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}
