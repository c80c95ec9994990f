/* Sample sets built from raw samples: energies, order, merging, accessors
 * and fault injection. */
#include "helpers.h"

static qubo_model *tiny(void)
{
	qubo_model *m = NULL;

	/* E = x0 + x1 - 3 x0 x1 + 0.5 x2 */
	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 0, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 2, 0.5), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, -3.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static const uint8_t raw[] = {
	0, 0, 1, /* 0.5 */
	1, 1, 0, /* -1 */
	0, 0, 0, /* 0 */
	1, 1, 0, /* -1, duplicate */
	0, 1, 0, /* 1 */
	1, 0, 0, /* 1, after 010 */
	0, 0, 1, /* 0.5, duplicate */
	1, 1, 0, /* -1, duplicate */
};

Test(sampleset, sorted_merged_with_exact_energies)
{
	qubo_model *m = tiny();
	qubo_sampleset *set = NULL;
	const double want_e[] = { -1, 0, 0.5, 1, 1 };
	const uint64_t want_occ[] = { 3, 1, 2, 1, 1 };
	const uint8_t want_x[] = { 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0 };
	uint8_t x[3], all[15];
	double e[5];
	uint64_t occ[5];
	size_t i;

	cr_assert_eq(qubo_sampleset_from_samples(&set, m, raw, 8, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(set), 5);
	cr_assert_eq(qubo_sampleset_num_variables(set), 3);
	for (i = 0; i < 5; i++) {
		double ei;
		uint64_t oi;
		cr_assert_eq(qubo_sampleset_get(set, i, x, sizeof x, &ei, &oi), QUBO_OK);
		cr_assert_eq(ei, want_e[i], "row %zu", i);
		cr_assert_eq(oi, want_occ[i], "row %zu", i);
		cr_assert_eq(memcmp(x, want_x + 3 * i, 3), 0, "row %zu", i);
	}
	cr_assert_eq(qubo_sampleset_export(set, all, e, occ, 5), QUBO_OK);
	cr_assert_eq(memcmp(all, want_x, 15), 0);
	cr_assert_eq(e[4], 1.0);
	cr_assert_eq(occ[0], 3);
	cr_assert_eq(qubo_sampleset_export(set, all, e, occ, 4), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_sampleset_export(set, NULL, NULL, NULL, 5), QUBO_OK);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(sampleset, lowest_and_capacity_checks)
{
	qubo_model *m = tiny();
	qubo_sampleset *set = NULL;
	uint8_t x[3], small[2];
	double e;

	cr_assert_eq(qubo_sampleset_from_samples(&set, m, raw, 8, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_lowest(set, x, sizeof x, &e), QUBO_OK);
	cr_assert_eq(e, -1.0);
	cr_assert_eq(x[0] + x[1] + x[2], 2);
	cr_assert_eq(qubo_sampleset_lowest(set, small, sizeof small, &e),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_sampleset_get(set, 0, small, sizeof small, NULL, NULL),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_sampleset_get(set, 5, NULL, 0, NULL, NULL), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_null(qubo_sampleset_sample_data(set, 5));
	cr_assert_not_null(qubo_sampleset_sample_data(set, 4));
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(sampleset, truncate_keeps_the_lowest)
{
	qubo_model *m = tiny();
	qubo_sampleset *set = NULL;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	double e;

	cr_assert_eq(qubo_sampleset_from_samples(&set, m, raw, 8, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_truncate(set, 2), QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(set), 2);
	cr_assert_eq(qubo_sampleset_get(set, 1, NULL, 0, &e, NULL), QUBO_OK);
	cr_assert_eq(e, 0.0);
	cr_assert_eq(qubo_sampleset_truncate(set, 10), QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(set), 2);
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.num_samples, 8);
	cr_assert_eq(qubo_sampleset_truncate(set, 0), QUBO_OK);
	cr_assert_eq(qubo_sampleset_lowest(set, NULL, 0, &e), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_sampleset_truncate(NULL, 0), QUBO_ERR_MISUSE);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

typedef struct visit {
	size_t calls;
	double sum;
	size_t stop_at;
} visit;

static int visit_cb(size_t index, const uint8_t *sample, size_t length, double energy,
		    uint64_t occurrences, void *user_data)
{
	visit *v = user_data;

	cr_assert_eq(index, v->calls);
	cr_assert_eq(length, 3);
	cr_assert_not_null(sample);
	v->calls++;
	v->sum += energy * (double)occurrences;
	return v->calls == v->stop_at ? 42 : 0;
}

Test(sampleset, foreach_visits_in_order_and_can_stop)
{
	qubo_model *m = tiny();
	qubo_sampleset *set = NULL;
	visit v = { 0, 0.0, 0 };

	cr_assert_eq(qubo_sampleset_from_samples(&set, m, raw, 8, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_foreach(set, visit_cb, &v), QUBO_OK);
	cr_assert_eq(v.calls, 5);
	cr_assert_eq(v.sum, -3.0 + 0 + 1.0 + 1 + 1);
	v.calls = 0;
	v.stop_at = 2;
	cr_assert_eq(qubo_sampleset_foreach(set, visit_cb, &v), 42);
	cr_assert_eq(v.calls, 2);
	cr_assert_eq(qubo_sampleset_foreach(set, NULL, NULL), QUBO_ERR_MISUSE);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(sampleset, info_struct_sizes)
{
	qubo_model *m = tiny();
	qubo_sampleset *set = NULL;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	struct {
		qubo_sample_info v1;
		uint64_t future;
	} big;

	cr_assert_eq(qubo_sampleset_from_samples(&set, m, raw, 8, 3, NULL), QUBO_OK);
	info.struct_size = QUBO_SAMPLE_INFO_SIZE_V1 - 1;
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_ERR_UNSUPPORTED_VERSION);
	/* a caller of the first layout gets that layout, and nothing past it */
	memset(&big, 0xff, sizeof big);
	big.v1.struct_size = QUBO_SAMPLE_INFO_SIZE_V1;
	cr_assert_eq(qubo_sampleset_get_info(set, &big.v1), QUBO_OK);
	cr_assert_eq(big.v1.num_samples, 8);
	cr_assert_eq(big.v1.has_expectation, -1);
	memset(&big, 0xff, sizeof big);
	big.v1.struct_size = sizeof big;
	cr_assert_eq(qubo_sampleset_get_info(set, &big.v1), QUBO_OK);
	cr_assert_eq(big.future, 0);
	cr_assert_eq(big.v1.struct_size, sizeof big);
	cr_assert_eq(big.v1.status, QUBO_OK);
	cr_assert_eq(big.v1.num_samples, 8);
	cr_assert_eq(qubo_sampleset_get_info(NULL, &info), QUBO_ERR_MISUSE);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(sampleset, bad_input)
{
	qubo_model *m = tiny();
	qubo_sampleset *set = (qubo_sampleset *)1;
	uint8_t bad[3] = { 0, 2, 0 };

	cr_assert_eq(qubo_sampleset_from_samples(&set, m, raw, 2, 4, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert_null(set);
	cr_assert_eq(qubo_sampleset_from_samples(&set, m, bad, 1, 3, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "byte 2"), "%s", qubo_error_message());
	cr_assert_eq(qubo_sampleset_from_samples(&set, m, NULL, 1, 3, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_from_samples(&set, NULL, raw, 1, 3, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_from_samples(NULL, m, raw, 1, 3, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_from_samples(&set, m, NULL, 0, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(set), 0);
	qubo_sampleset_free(set);
	cr_assert_eq(qubo_sampleset_size(NULL), 0);
	cr_assert_eq(qubo_sampleset_num_variables(NULL), 0);
	qubo_sampleset_free(NULL);
	qubo_model_free(m);
}

/* Failing allocation k of the construction, for every k: a clean NOMEM, no
 * set, nothing leaked; once no failure is injected, success. */
Test(sampleset, fault_injection_on_creation)
{
	qubo_model *m = tiny();
	size_t k;

	for (k = 1;; k++) {
		tu_failalloc fa;
		qubo_sampleset *set = (qubo_sampleset *)1;
		int rc;
		tu_failalloc_init(&fa, k);
		rc = qubo_sampleset_from_samples(&set, m, raw, 8, 3, &fa.a);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
			cr_assert_eq(qubo_sampleset_size(set), 5);
			qubo_sampleset_free(set);
			cr_assert_eq(fa.live, 0);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %d", k, rc);
		cr_assert_null(set);
		cr_assert_eq(fa.live, 0, "allocation %zu leaked", k);
		cr_assert(strstr(qubo_error_message(), "sample set"), "%s", qubo_error_message());
	}
	cr_assert_gt(k, 3);
	qubo_model_free(m);
}
