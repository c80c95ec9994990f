/* Energies are finite (qubo/model.h, QUBO_MODEL_MAX_WEIGHT_SUM): a model
 * whose weights' magnitudes add up beyond the limit is refused by the
 * compile and by everything that computes energies, and a weight that is
 * not finite is refused by every function that takes one. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "util.h"

#define LIMIT_TEXT "QUBO_MODEL_MAX_WEIGHT_SUM"

static void expect_beyond(int rc, const char *what)
{
	cr_assert_eq(rc, QUBO_ERR_OUT_OF_RANGE, "%s: %s (%s)", what, qubo_status_name(rc),
		     qubo_error_message());
	cr_assert(strstr(qubo_error_message(), LIMIT_TEXT), "%s: %s", what,
		  qubo_error_message());
}

/* tu_chain(), which must succeed. */
static qubo_model *chain(size_t n, const double *h, double offset, double j)
{
	qubo_model *m = tu_chain(n, h, offset, j);

	cr_assert_not_null(m, "%s", qubo_error_message());
	return m;
}

/* The models of the report: energies 1e308 and -1e308 apart, and -2e308
 * (an energy that overflows); the offset alone; many moderate terms. Each
 * is refused by the compile, with the total and the limit named, and a
 * model with couplers stays as it was (dirty, its terms pending). */
Test(finite, compile_refuses_weights_beyond_the_limit)
{
	static const double apart[2] = { 1e308, -1e308 }, low[2] = { -1e308, -1e308 };
	double many[3000];
	qubo_model *m;
	qubo_model_stats st = QUBO_MODEL_STATS_INIT;
	size_t k;

	m = chain(2, apart, 0, 0);
	expect_beyond(qubo_model_compile(m), "h = 1e308, -1e308");
	cr_assert(strstr(qubo_error_message(), "more than the largest double"), "%s",
		  qubo_error_message());
	qubo_model_free(m);
	m = chain(2, low, 0, 0);
	expect_beyond(qubo_model_compile(m), "h = -1e308 twice");
	qubo_model_free(m);
	m = chain(2, NULL, -1.1e301, 0);
	expect_beyond(qubo_model_compile(m), "the offset alone");
	cr_assert(strstr(qubo_error_message(), "add up to 1.1e+301"), "%s",
		  qubo_error_message());
	qubo_model_free(m);
	for (k = 0; k < 3000; k++)
		many[k] = k % 2 ? 4e297 : -4e297;
	m = chain(3000, many, 0, 0);
	expect_beyond(qubo_model_compile(m), "3000 linear weights of 4e297");
	qubo_model_free(m);
	/* couplers: the compile's three ways (pairs in order, in random order,
	 * and with a clique), each refusing before it touches the model */
	for (k = 0; k < 3; k++) {
		qubo_lit c[3] = { QUBO_LIT(0), QUBO_LIT(1), QUBO_LIT(2) };

		m = chain(40, NULL, 0, 3e299);
		if (k == 1)
			cr_assert_eq(qubo_model_add_quadratic(m, 5, 2, 1.0), QUBO_OK);
		if (k == 2)
			cr_assert_eq(qubo_model_add_clique(m, c, 3, 1.0), QUBO_OK);
		expect_beyond(qubo_model_compile(m), "39 couplers of 3e299");
		cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
		cr_assert_eq(st.compiled, 0);
		cr_assert_eq(st.pending_pairs, 39 + (k > 0) * (k == 1 ? 1 : 3));
		qubo_model_free(m);
	}
	/* at the limit: 2^1000 exactly is accepted, one step (2^948) more is not */
	m = chain(3, NULL, 0x1p999, 0x1p998);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_model_add_linear(m, 2, 0x1p948), QUBO_OK);
	expect_beyond(qubo_model_compile(m), "2^1000 and one step");
	cr_assert_eq(qubo_model_add_linear(m, 2, -0x1p948), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	qubo_model_free(m);
}

/* Linear terms take effect at once, so a compiled model can be taken past
 * the limit: everything that computes energies refuses it then, exporting
 * still works, and it is accepted again once back under the limit. */
Test(finite, energies_are_refused_beyond_the_limit)
{
	static const uint8_t x[4] = { 1, 1, 1, 1 };
	double e = 0, hi[4], jv[3], off;
	uint32_t rows[3], cols[3];
	uint64_t occ = 1;
	size_t cnt;
	qubo_model *m = chain(4, NULL, 0, 0x1p998);
	qubo_sampleset *set = NULL;
	const qubo_sampleset *sets[1];
	int step;

	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_model_energy(m, x, 4, &e), QUBO_OK);
	cr_assert_eq(e, 0x3p998);
	cr_assert_eq(qubo_sampleset_from_samples(&set, m, x, 1, 4, NULL), QUBO_OK);
	sets[0] = set;
	/* 3 * 2^998 + 2^998 + 2^997: 2^997 past the limit */
	for (step = 0; step < 2; step++)
		cr_assert_eq(qubo_model_add_linear(m, (uint32_t)step, step ? 0x1p997 : 0x1p998),
			     QUBO_OK);
	expect_beyond(qubo_model_energy(m, x, 4, &e), "energy");
	expect_beyond(qubo_model_energy_batch(m, x, 1, 4, &e), "energy batch");
	expect_beyond(qubo_model_delta(m, x, 4, 0, &e), "delta");
	expect_beyond(qubo_model_to_ising(m, hi, 4, rows, cols, jv, 3, &cnt, &off), "Ising");
	{
		qubo_sampleset *out = NULL;
		expect_beyond(qubo_sampleset_from_samples(&out, m, x, 1, 4, NULL), "samples");
		cr_assert_null(out);
		expect_beyond(qubo_sampleset_from_counts(&out, m, x, &occ, 1, 4, NULL), "counts");
		expect_beyond(qubo_sampleset_merge(&out, m, sets, 1, NULL), "merge");
		cr_assert_null(out);
	}
	expect_beyond(qubo_model_compile(m), "compile of the clean model");
	cr_assert_eq(qubo_model_export_linear(m, hi, 4), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(m, rows, cols, jv, 3, &cnt), QUBO_OK);
	cr_assert_eq(hi[1], 0x1p997);
	/* back to the limit, 2^1000 */
	cr_assert_eq(qubo_model_add_linear(m, 1, -0x1p997), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x, 4, &e), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(e, 0x1p1000);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

/* Terms that overflow a linear weight or the offset to infinity through the
 * literal and clique functions, which do not check each sum: the compile
 * names the weight, and no energy is computed. */
Test(finite, overflow_through_literals_is_refused)
{
	qubo_lit pos = QUBO_LIT(0), neg = QUBO_LIT_NEG(1);
	qubo_lit many[4] = { QUBO_LIT_TRUE, QUBO_LIT_TRUE, QUBO_LIT_TRUE, QUBO_LIT(0) };
	uint8_t x[2] = { 1, 0 };
	double e;
	int k;

	for (k = 0; k < 3; k++) {
		qubo_model *m = chain(2, NULL, 0, 0);

		if (k == 0) {
			cr_assert_eq(qubo_model_add_lit(m, pos, 1e308), QUBO_OK);
			cr_assert_eq(qubo_model_add_lit(m, pos, 1e308), QUBO_OK);
		} else if (k == 1) {
			cr_assert_eq(qubo_model_add_lit_product(m, neg, neg, -1e308), QUBO_OK);
			cr_assert_eq(qubo_model_add_lit(m, neg, -1e308), QUBO_OK);
		} else {
			cr_assert_eq(qubo_model_add_clique(m, many, 4, 1e308), QUBO_OK);
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_ERR_OUT_OF_RANGE, "case %d", k);
		cr_assert(strstr(qubo_error_message(), "not finite") ||
			  strstr(qubo_error_message(), LIMIT_TEXT), "case %d: %s", k,
			  qubo_error_message());
		cr_assert_eq(qubo_model_energy(m, x, 2, &e), QUBO_ERR_OUT_OF_RANGE, "case %d",
			     k);
		qubo_model_free(m);
	}
}

/* The Ising constructor compiles: its converted weights obey the limit. */
Test(finite, from_ising_obeys_the_limit)
{
	static const double h[2] = { 2e300, -2e300 };
	static const uint32_t r[1] = { 0 }, c[1] = { 1 };
	static const double j[1] = { 1e300 };
	qubo_model *m = (qubo_model *)&m;

	/* Q_00 = 2e300, Q_11 = -6e300, Q_01 = 4e300, c = 1e300: 1.3e301 */
	expect_beyond(qubo_model_from_ising(&m, 2, h, 1, r, c, j, 0, NULL), "from_ising");
	cr_assert_null(m);
	/* without the fields: 2e300 + 2e300 + 4e300 + 1e300 */
	cr_assert_eq(qubo_model_from_ising(&m, 2, NULL, 1, r, c, j, 0, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	qubo_model_free(m);
}

/* NaN and the infinities through every function that takes a weight:
 * refused, and the model unchanged (its energy, its pending terms). */
Test(finite, every_weight_argument_refuses_nan_and_inf)
{
	static const double bad[3] = { (double)NAN, (double)INFINITY, -(double)INFINITY };
	static const double ones[3] = { 1, 1, 1 };
	qubo_lit l[3] = { QUBO_LIT(0), QUBO_LIT_NEG(1), QUBO_LIT(2) };
	uint32_t ri[1] = { 0 }, ci[1] = { 1 };
	int64_t k64[3] = { 1, 1, 1 };
	uint8_t x[3] = { 1, 1, 0 };
	double v[3], e0, e1;
	qubo_model *m = chain(3, NULL, 1, 2), *out = NULL;
	qubo_model_stats st = QUBO_MODEL_STATS_INIT;
	size_t b, f;

	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x, 3, &e0), QUBO_OK);
	for (b = 0; b < 3; b++) {
		double w = bad[b];
		int rc[24];

		v[0] = v[1] = v[2] = 1.0;
		v[b] = w;
		f = 0;
		rc[f++] = qubo_model_add_offset(m, w);
		rc[f++] = qubo_model_add_linear(m, 0, w);
		rc[f++] = qubo_model_add_quadratic(m, 0, 1, w);
		rc[f++] = qubo_model_add_quadratic_batch(m, 1, ri, ci, &w);
		rc[f++] = qubo_model_add_lit(m, l[1], w);
		rc[f++] = qubo_model_add_lit_product(m, l[0], l[1], w);
		rc[f++] = qubo_model_add_clique(m, l, 3, w);
		rc[f++] = qubo_penalty_exactly(m, l, 3, 1, w);
		rc[f++] = qubo_penalty_at_most_one(m, l, 3, w);
		rc[f++] = qubo_penalty_k_or_k1(m, l, 3, 1, w, 0);
		rc[f++] = qubo_penalty_equal(m, l[0], l[1], w);
		rc[f++] = qubo_penalty_differ(m, l[0], l[1], w);
		rc[f++] = qubo_penalty_no_three_equal(m, l[0], l[1], l[2], w);
		rc[f++] = qubo_penalty_conflicts(m, l, 1, w);
		rc[f++] = qubo_penalty_weighted_equal(m, l, v, 3, 1.0, 1.0);
		rc[f++] = qubo_penalty_weighted_equal(m, l, ones, 3, w, 1.0);
		rc[f++] = qubo_penalty_weighted_equal(m, l, ones, 3, 1.0, w);
		rc[f++] = qubo_penalty_reward(m, l, v, 3);
		rc[f++] = qubo_penalty_range(m, l, k64, 3, 0, 1, w, NULL, NULL);
		rc[f++] = qubo_model_from_ising(&out, 3, v, 1, ri, ci, ones, 0, NULL);
		rc[f++] = qubo_model_from_ising(&out, 2, NULL, 1, ri, ci, &w, 0, NULL);
		rc[f++] = qubo_model_from_ising(&out, 2, NULL, 0, NULL, NULL, NULL, w, NULL);
		while (f--)
			cr_assert(rc[f] == QUBO_ERR_INVALID_ARG || rc[f] == QUBO_ERR_OUT_OF_RANGE,
				  "%g, call %zu: %s", w, f, qubo_status_name(rc[f]));
		cr_assert_null(out);
	}
	cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
	cr_assert_eq(st.compiled, 1);
	cr_assert_eq(qubo_model_energy(m, x, 3, &e1), QUBO_OK);
	cr_assert_eq(e1, e0);
	qubo_model_free(m);
}
