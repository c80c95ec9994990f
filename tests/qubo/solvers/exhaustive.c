/* The exhaustive solver against a naive loop over all states. */
#include "helpers.h"

static qubo_sampleset *run_exhaustive(const qubo_model *m, int threads, int64_t num_lowest)
{
	qubo_solver *s = th_solver("exhaustive");
	qubo_sampleset *set = NULL;
	int rc;

	th_set_int(s, QUBO_PARAM_THREADS, threads);
	if (num_lowest)
		th_set_int(s, QUBO_PARAM_NUM_LOWEST, num_lowest);
	rc = qubo_solver_sample(&set, s, m);
	cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
	qubo_solver_free(s);
	return set;
}

static uint64_t ground_count(const qubo_sampleset *set)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;

	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	return info.num_ground_states;
}

Test(exhaustive, ground_states_and_counts_equal_naive_loop)
{
	size_t n, max_n = th_trials(20, 16);
	uint64_t seed, seeds = th_trials(3, 1);

	for (n = 1; n <= max_n; n++) {
		for (seed = 1; seed <= seeds; seed++) {
			/* small integer weights: many ties */
			qubo_model *m = th_random_model(seed * 100 + n, n, 0.4, 2, 1);
			uint64_t count, i;
			double min = th_naive_min(m, &count);
			qubo_sampleset *set = run_exhaustive(m, 2, 0);

			cr_assert_eq(th_lowest(set), min, "n=%zu seed=%llu", n,
				     (unsigned long long)seed);
			cr_assert_eq(ground_count(set), count, "n=%zu: %llu vs naive %llu", n,
				     (unsigned long long)ground_count(set),
				     (unsigned long long)count);
			cr_assert_eq(qubo_sampleset_size(set), count);
			for (i = 0; i < count; i++) {
				double e;
				uint64_t occ;
				cr_assert_eq(qubo_sampleset_get(set, i, NULL, 0, &e, &occ),
					     QUBO_OK);
				cr_assert_eq(e, min);
				cr_assert_eq(occ, 1);
			}
			qubo_sampleset_free(set);
			qubo_model_free(m);
		}
	}
}

Test(exhaustive, real_weights_minimum)
{
	uint64_t seed, seeds = th_trials(10, 3);

	for (seed = 1; seed <= seeds; seed++) {
		qubo_model *m = th_random_model(seed, 14 + seed % 5, 0.6, 3, 0);
		double min = th_naive_min(m, NULL);
		qubo_sampleset *set = run_exhaustive(m, 1, 0);

		cr_assert_eq(th_lowest(set), min);
		qubo_sampleset_free(set);
		qubo_model_free(m);
	}
}

/* The k lowest states equal the first k of a full sort by (energy, bytes). */
typedef struct state {
	double e;
	uint8_t x[24];
} state;

static size_t g_n;

static int cmp_states(const void *pa, const void *pb)
{
	const state *a = pa, *b = pb;

	if (a->e != b->e)
		return a->e < b->e ? -1 : 1;
	return memcmp(a->x, b->x, g_n);
}

Test(exhaustive, k_lowest_equal_sorted_naive_list)
{
	const size_t n = 13;
	const size_t total = (size_t)1 << n;
	qubo_model *m = th_random_model(77, n, 0.5, 2, 1);
	state *all = calloc(total, sizeof *all);
	size_t s, i, k;

	cr_assert_not_null(all);
	g_n = n;
	for (s = 0; s < total; s++) {
		for (i = 0; i < n; i++)
			all[s].x[i] = (uint8_t)((s >> i) & 1);
		cr_assert_eq(qubo_model_energy(m, all[s].x, n, &all[s].e), QUBO_OK);
	}
	qsort(all, total, sizeof *all, cmp_states);
	for (k = 1; k <= 300; k += 37) {
		qubo_sampleset *set = run_exhaustive(m, 2, (int64_t)k);
		cr_assert_eq(qubo_sampleset_size(set), k);
		for (i = 0; i < k; i++) {
			double e;
			cr_assert_eq(qubo_sampleset_get(set, i, NULL, 0, &e, NULL), QUBO_OK);
			cr_assert_eq(e, all[i].e, "k=%zu i=%zu", k, i);
			cr_assert_eq(memcmp(qubo_sampleset_sample_data(set, i), all[i].x, n), 0,
				     "k=%zu i=%zu", k, i);
		}
		qubo_sampleset_free(set);
	}
	free(all);
	qubo_model_free(m);
}

Test(exhaustive, k_larger_than_state_space_returns_every_state)
{
	qubo_model *m = th_random_model(5, 4, 1.0, 3, 1);
	qubo_sampleset *set = run_exhaustive(m, 1, 1000);

	cr_assert_eq(qubo_sampleset_size(set), 16);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(exhaustive, results_do_not_depend_on_thread_count)
{
	qubo_model *m = th_random_model(9, 22, 0.3, 1, 1);
	qubo_sampleset *a = run_exhaustive(m, 1, 0), *b = run_exhaustive(m, 2, 0);
	qubo_sampleset *c = run_exhaustive(m, 3, 50), *d = run_exhaustive(m, 1, 50);

	cr_assert(th_same_sets(a, b));
	cr_assert_eq(ground_count(a), ground_count(b));
	cr_assert(th_same_sets(c, d));
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_sampleset_free(c);
	qubo_sampleset_free(d);
	qubo_model_free(m);
}

/* All weights zero: every state is a ground state; the cap limits how many
 * are stored, not how many are counted. */
Test(exhaustive, cap_stores_some_and_counts_all)
{
	qubo_model *m = NULL;
	qubo_solver *s = th_solver("exhaustive");
	qubo_sampleset *set = NULL;
	uint8_t first[16], zero[16] = { 0 };

	cr_assert_eq(qubo_model_new(&m, 16, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	th_set_int(s, QUBO_PARAM_MAX_GROUND_STATES, 100);
	th_set_int(s, QUBO_PARAM_THREADS, 2);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK);
	cr_assert_eq(ground_count(set), 65536);
	cr_assert_eq(qubo_sampleset_size(set), 100);
	/* the stored ones are the lexicographically smallest */
	cr_assert_eq(qubo_sampleset_get(set, 0, first, sizeof first, NULL, NULL), QUBO_OK);
	cr_assert_eq(memcmp(first, zero, 16), 0);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(exhaustive, refuses_models_above_the_limit)
{
	qubo_model *m = NULL;
	qubo_solver *s = th_solver("exhaustive");
	qubo_sampleset *set = (qubo_sampleset *)1;

	cr_assert_eq(qubo_model_new(&m, QUBO_EXHAUSTIVE_MAX_VARIABLES + 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_TOO_LARGE);
	cr_assert_null(set);
	cr_assert(strstr(qubo_error_message(), "41 variables"), "%s", qubo_error_message());
	cr_assert(strstr(qubo_error_message(), "40"), "%s", qubo_error_message());
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(exhaustive, empty_model_has_one_state)
{
	qubo_model *m = NULL;
	qubo_sampleset *set;

	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, -2.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	set = run_exhaustive(m, 1, 0);
	cr_assert_eq(qubo_sampleset_size(set), 1);
	cr_assert_eq(th_lowest(set), -2.5);
	cr_assert_eq(ground_count(set), 1);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(exhaustive, accepts_common_keys_and_rejects_other_solvers_keys)
{
	qubo_solver *s = th_solver("exhaustive");

	th_set_int(s, QUBO_PARAM_NUM_READS, 5);
	th_set_int(s, QUBO_PARAM_SEED, 5);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, 5), QUBO_ERR_NOT_SUPPORTED);
	cr_assert(strstr(qubo_error_message(), "num_sweeps"), "%s", qubo_error_message());
	cr_assert(strstr(qubo_error_message(), "max_ground_states"), "%s", qubo_error_message());
	qubo_solver_free(s);
}

Test(exhaustive, reports_states_visited)
{
	qubo_model *m = th_random_model(3, 18, 0.3, 2, 1);
	qubo_sampleset *set = run_exhaustive(m, 2, 0);
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;

	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.flip_attempts, (uint64_t)1 << 18);
	cr_assert_eq(info.status, QUBO_OK);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}
