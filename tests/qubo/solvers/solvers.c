/* Every built-in solver against the exhaustive minimum on small random
 * models, and the reproducibility promises: same seed, same sample set for
 * any thread count; different seeds, different sets. */
#include "helpers.h"

static const char *const sampling[] = { "sa", "tabu", "descent", "pt" };

static qubo_sampleset *sample(qubo_solver *s, const qubo_model *m)
{
	qubo_sampleset *set = NULL;
	int rc = qubo_solver_sample(&set, s, m);

	cr_assert_eq(rc, QUBO_OK, "%s: %s", qubo_solver_name(s), qubo_error_message());
	cr_assert_not_null(set);
	return set;
}

static double exhaustive_min(const qubo_model *m)
{
	qubo_solver *s = th_solver("exhaustive");
	qubo_sampleset *set = sample(s, m);
	double e = th_lowest(set);

	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return e;
}

static void check_reaches_minimum(const char *name, int64_t reads, int integer)
{
	/* under valgrind 2 seeds, 13 and 20 variables (the largest size):
	 * 4 took 5 s there over the four solvers */
	uint64_t seed, seeds = th_trials(12, 2);

	for (seed = 1; seed <= seeds; seed++) {
		size_t n = 6 + (size_t)((seed * 7) % 15); /* 13, 20, 12, 19, ... 6 .. 20 */
		qubo_model *m = th_random_model(seed * 31 + (uint64_t)integer, n, 0.5, 4, integer);
		double min = exhaustive_min(m);
		qubo_solver *s = th_solver(name);
		qubo_sampleset *set;

		th_set_int(s, QUBO_PARAM_NUM_READS, reads);
		th_set_int(s, QUBO_PARAM_SEED, (int64_t)seed);
		th_set_int(s, QUBO_PARAM_THREADS, 2);
		set = sample(s, m);
		cr_assert_eq(th_lowest(set), min, "%s, n=%zu, seed %llu: %.17g vs minimum %.17g",
			     name, n, (unsigned long long)seed, th_lowest(set), min);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
		qubo_model_free(m);
	}
}

Test(solvers, sa_reaches_exhaustive_minimum)
{
	check_reaches_minimum("sa", 50, 1);
	check_reaches_minimum("sa", 50, 0);
}

Test(solvers, tabu_reaches_exhaustive_minimum)
{
	check_reaches_minimum("tabu", 10, 1);
	check_reaches_minimum("tabu", 10, 0);
}

Test(solvers, pt_reaches_exhaustive_minimum)
{
	check_reaches_minimum("pt", 4, 1);
	check_reaches_minimum("pt", 4, 0);
}

/* Steepest descent is a local method: with many random starts on models
 * this small, one start lies in the global minimum's basin. */
Test(solvers, descent_reaches_exhaustive_minimum_with_many_starts)
{
	check_reaches_minimum("descent", 3000, 1);
	check_reaches_minimum("descent", 3000, 0);
}

/* Every sample descent returns is a local minimum: no single flip lowers it. */
Test(solvers, descent_returns_local_minima)
{
	qubo_model *m = th_random_model(4, 30, 0.3, 5, 0);
	qubo_solver *s = th_solver("descent");
	qubo_sampleset *set;
	size_t i, v;

	th_set_int(s, QUBO_PARAM_NUM_READS, 40);
	th_set_int(s, QUBO_PARAM_SEED, 1);
	set = sample(s, m);
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		for (v = 0; v < 30; v++) {
			double d;
			cr_assert_eq(qubo_model_delta(m, x, 30, (uint32_t)v, &d), QUBO_OK);
			cr_assert_geq(d, -1e-9, "sample %zu, variable %zu: delta %g", i, v, d);
		}
	}
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

static qubo_sampleset *seeded(const char *name, const qubo_model *m, int64_t seed, int threads)
{
	qubo_solver *s = th_solver(name);
	qubo_sampleset *set;

	th_set_int(s, QUBO_PARAM_NUM_READS, 24);
	th_set_int(s, QUBO_PARAM_SEED, seed);
	th_set_int(s, QUBO_PARAM_THREADS, threads);
	if (!strcmp(name, "sa"))
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 20);
	if (!strcmp(name, "pt")) { /* short, or every read finds the same state */
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 2);
		th_set_int(s, QUBO_PARAM_NUM_REPLICAS, 2);
	}
	if (!strcmp(name, "tabu"))
		th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 30);
	set = sample(s, m);
	qubo_solver_free(s);
	return set;
}

Test(solvers, same_seed_same_set_for_one_and_two_threads)
{
	qubo_model *m = th_random_model(11, 60, 0.2, 3, 0);
	size_t k;

	for (k = 0; k < sizeof sampling / sizeof sampling[0]; k++) {
		qubo_sampleset *a = seeded(sampling[k], m, 42, 1);
		qubo_sampleset *b = seeded(sampling[k], m, 42, 2);
		qubo_sampleset *c = seeded(sampling[k], m, 42, 3);
		cr_assert(th_same_sets(a, b), "%s: 1 vs 2 threads", sampling[k]);
		cr_assert(th_same_sets(a, c), "%s: 1 vs 3 threads", sampling[k]);
		qubo_sampleset_free(a);
		qubo_sampleset_free(b);
		qubo_sampleset_free(c);
	}
	qubo_model_free(m);
}

Test(solvers, different_seeds_differ)
{
	qubo_model *m = th_random_model(12, 60, 0.2, 3, 0);
	size_t k;

	for (k = 0; k < sizeof sampling / sizeof sampling[0]; k++) {
		qubo_sampleset *a = seeded(sampling[k], m, 1, 2);
		qubo_sampleset *b = seeded(sampling[k], m, 2, 2);
		cr_assert(!th_same_sets(a, b), "%s: seeds 1 and 2 gave the same set",
			  sampling[k]);
		qubo_sampleset_free(a);
		qubo_sampleset_free(b);
	}
	qubo_model_free(m);
}

/* Without a seed the host draws one and reports it; setting it reproduces. */
Test(solvers, unset_seed_is_reported_and_reproducible)
{
	qubo_model *m = th_random_model(13, 40, 0.2, 3, 0);
	qubo_solver *s = th_solver("tabu");
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *a, *b;

	th_set_int(s, QUBO_PARAM_NUM_READS, 8);
	th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 40);
	a = sample(s, m);
	cr_assert_eq(qubo_sampleset_get_info(a, &info), QUBO_OK);
	th_set_int(s, QUBO_PARAM_SEED, (int64_t)info.seed);
	b = sample(s, m);
	cr_assert(th_same_sets(a, b));
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* Energies in a sample set are the model's, sorted, and duplicates merged. */
Test(solvers, sample_sets_are_sorted_merged_and_exact)
{
	qubo_model *m = th_random_model(14, 8, 0.5, 3, 1);
	qubo_solver *s = th_solver("descent");
	qubo_sampleset *set;
	uint64_t total = 0;
	size_t i;

	th_set_int(s, QUBO_PARAM_NUM_READS, 500);
	th_set_int(s, QUBO_PARAM_SEED, 3);
	set = sample(s, m);
	cr_assert_lt(qubo_sampleset_size(set), 500);
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		double e, exact;
		uint64_t occ;
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		cr_assert_eq(qubo_sampleset_get(set, i, NULL, 0, &e, &occ), QUBO_OK);
		cr_assert_eq(qubo_model_energy(m, x, 8, &exact), QUBO_OK);
		cr_assert_eq(e, exact);
		total += occ;
		if (i) {
			double prev;
			cr_assert_eq(qubo_sampleset_get(set, i - 1, NULL, 0, &prev, NULL), QUBO_OK);
			cr_assert(prev < e || (prev == e &&
			    memcmp(qubo_sampleset_sample_data(set, i - 1), x, 8) < 0));
		}
	}
	cr_assert_eq(total, 500);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* Polishing: descent from SA's samples returns local minima no worse than the
 * starts, keeping their occurrences. */
Test(solvers, descent_polishes_another_solvers_samples)
{
	qubo_model *m = th_random_model(15, 40, 0.3, 4, 0);
	qubo_solver *sa = th_solver("sa"), *d = th_solver("descent"), *t = th_solver("tabu");
	qubo_sampleset *rough, *polished, *tabu_polished;
	qubo_sample_info a = QUBO_SAMPLE_INFO_INIT, b = QUBO_SAMPLE_INFO_INIT;

	th_set_int(sa, QUBO_PARAM_NUM_READS, 30);
	th_set_int(sa, QUBO_PARAM_NUM_SWEEPS, 3); /* deliberately rough */
	th_set_int(sa, QUBO_PARAM_SEED, 5);
	rough = sample(sa, m);
	cr_assert_eq(qubo_solver_sample_from(&polished, d, m, rough), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_leq(th_lowest(polished), th_lowest(rough));
	cr_assert_eq(qubo_sampleset_get_info(rough, &a), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(polished, &b), QUBO_OK);
	cr_assert_eq(a.num_samples, b.num_samples);
	th_set_int(t, QUBO_PARAM_SEED, 5);
	cr_assert_eq(qubo_solver_sample_from(&tabu_polished, t, m, rough), QUBO_OK);
	cr_assert_leq(th_lowest(tabu_polished), th_lowest(polished));
	qubo_sampleset_free(rough);
	qubo_sampleset_free(polished);
	qubo_sampleset_free(tabu_polished);
	qubo_solver_free(sa);
	qubo_solver_free(d);
	qubo_solver_free(t);
	qubo_model_free(m);
}

Test(solvers, sample_from_is_not_supported_by_sa_and_exhaustive)
{
	qubo_model *m = th_random_model(16, 5, 0.5, 2, 1);
	qubo_sampleset *init = NULL, *out = (qubo_sampleset *)1;
	uint8_t x[5] = { 0 };
	const char *names[] = { "sa", "exhaustive" };
	size_t k;

	cr_assert_eq(qubo_sampleset_from_samples(&init, m, x, 1, 5, NULL), QUBO_OK);
	for (k = 0; k < 2; k++) {
		qubo_solver *s = th_solver(names[k]);
		cr_assert_eq(qubo_solver_sample_from(&out, s, m, init), QUBO_ERR_NOT_SUPPORTED);
		cr_assert_null(out);
		out = (qubo_sampleset *)1;
		qubo_solver_free(s);
	}
	qubo_sampleset_free(init);
	qubo_model_free(m);
}

Test(solvers, target_energy_stops_early_and_is_reported)
{
	qubo_model *m = th_random_model(17, 16, 0.5, 3, 1);
	double min = exhaustive_min(m);
	size_t k;

	for (k = 0; k < sizeof sampling / sizeof sampling[0]; k++) {
		qubo_solver *s = th_solver(sampling[k]);
		qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
		qubo_sampleset *set;
		th_set_int(s, QUBO_PARAM_NUM_READS, 100000);
		th_set_int(s, QUBO_PARAM_SEED, 9);
		th_set_double(s, QUBO_PARAM_TARGET_ENERGY, min);
		set = sample(s, m);
		cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
		cr_assert_eq(info.reached_target, 1, "%s", sampling[k]);
		cr_assert_eq(th_lowest(set), min, "%s", sampling[k]);
		cr_assert_lt(info.num_samples, 100000, "%s did not stop early", sampling[k]);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
	}
	qubo_model_free(m);
}

Test(solvers, tabu_tenure_must_be_below_n)
{
	qubo_model *m = th_random_model(18, 6, 0.5, 3, 1);
	qubo_solver *s = th_solver("tabu");
	qubo_sampleset *set = (qubo_sampleset *)1;

	th_set_int(s, QUBO_PARAM_TENURE, 6);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_null(set);
	cr_assert(strstr(qubo_error_message(), "tenure"), "%s", qubo_error_message());
	th_set_int(s, QUBO_PARAM_TENURE, 5);
	set = sample(s, m);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(solvers, beta_range_checks)
{
	static const char *const names[] = { "sa", "pt" };
	qubo_model *m = th_random_model(19, 6, 0.5, 3, 1);
	size_t k;

	for (k = 0; k < 2; k++) {
		qubo_solver *s = th_solver(names[k]);
		qubo_sampleset *set = NULL;
		th_set_double(s, QUBO_PARAM_BETA_HOT, 0.1);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_INVALID_ARG, "%s", names[k]);
		cr_assert(strstr(qubo_error_message(), "beta_cold"), "%s", qubo_error_message());
		th_set_double(s, QUBO_PARAM_BETA_COLD, 0.05);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_OUT_OF_RANGE, "%s", names[k]);
		cr_assert(strstr(qubo_error_message(), "exceeds beta_cold"), "%s",
			  qubo_error_message());
		cr_assert_null(set);
		th_set_double(s, QUBO_PARAM_BETA_COLD, 5.0);
		set = sample(s, m);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
	}
	qubo_model_free(m);
}

Test(solvers, empty_model)
{
	qubo_model *m = NULL;
	size_t k;

	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, 1.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	for (k = 0; k < sizeof sampling / sizeof sampling[0]; k++) {
		qubo_solver *s = th_solver(sampling[k]);
		qubo_sampleset *set;
		uint64_t occ;
		th_set_int(s, QUBO_PARAM_NUM_READS, 7);
		set = sample(s, m);
		cr_assert_eq(qubo_sampleset_size(set), 1, "%s", sampling[k]);
		cr_assert_eq(qubo_sampleset_get(set, 0, NULL, 0, NULL, &occ), QUBO_OK);
		cr_assert_eq(occ, 7);
		cr_assert_eq(th_lowest(set), 1.5);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
	}
	qubo_model_free(m);
}

Test(solvers, reports_flip_attempts_and_time)
{
	qubo_model *m = th_random_model(20, 50, 0.2, 3, 0);
	size_t k;

	for (k = 0; k < sizeof sampling / sizeof sampling[0]; k++) {
		qubo_sampleset *set = seeded(sampling[k], m, 1, 2);
		qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
		cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
		cr_assert_gt(info.flip_attempts, 0, "%s", sampling[k]);
		cr_assert_gt(info.seconds, 0.0);
		cr_assert_eq(info.num_samples, 24);
		cr_assert_eq(info.seed, 1);
		cr_assert_eq(info.status, QUBO_OK);
		qubo_sampleset_free(set);
	}
	qubo_model_free(m);
}

Test(solvers, builtin_names)
{
	const char *name;
	size_t i;

	for (i = 0; qubo_solver_builtin_name(i, &name) == QUBO_OK; i++) {
		qubo_solver *s = th_solver(name);
		char buf[2048];
		size_t len;
		cr_assert_str_eq(qubo_solver_name(s), name);
		cr_assert_eq(qubo_solver_describe(s, buf, sizeof buf, &len), QUBO_OK);
		cr_assert_eq(strncmp(buf, name, strlen(name)), 0, "%s", buf);
		cr_assert(strstr(buf, "threads"), "%s", buf);
		qubo_solver_free(s);
	}
	cr_assert_eq(i, 6);
	cr_assert_eq(qubo_solver_builtin_name(6, &name), QUBO_ERR_OUT_OF_RANGE);
}
