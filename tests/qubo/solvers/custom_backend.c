/* Drives examples/custom_backend.c (compiled in without its main) through the
 * public interface, as a third party's backend would be used. */
#define CUSTOM_BACKEND_NO_MAIN
#include "../../../examples/custom_backend.c"

#include "helpers.h"

static qubo_solver *make(void)
{
	qubo_solver *s = NULL;

	cr_assert_eq(random_search_new(&s, 200), QUBO_OK, "%s", qubo_error_message());
	return s;
}

Test(custom_backend, finds_the_minimum_of_small_models)
{
	uint64_t seed;

	for (seed = 1; seed <= 5; seed++) {
		qubo_model *m = th_random_model(seed, 10, 0.5, 3, 1);
		qubo_solver *s = make();
		qubo_sampleset *set = NULL;

		th_set_int(s, QUBO_PARAM_NUM_READS, 10);
		th_set_int(s, QUBO_PARAM_SEED, (int64_t)seed);
		th_set_int(s, "num_tries", 2000);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(th_lowest(set), th_naive_min(m, NULL));
		qubo_sampleset_free(set);
		qubo_solver_free(s);
		qubo_model_free(m);
	}
}

Test(custom_backend, same_seed_same_samples)
{
	qubo_model *m = th_random_model(9, 16, 0.5, 3, 0);
	qubo_solver *s = make();
	qubo_sampleset *a = NULL, *b = NULL;

	th_set_int(s, QUBO_PARAM_SEED, 3);
	cr_assert_eq(qubo_solver_sample(&a, s, m), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&b, s, m), QUBO_OK);
	cr_assert(th_same_sets(a, b));
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(custom_backend, checks_its_own_options)
{
	qubo_solver *s = make();
	char text[256];

	cr_assert_eq(qubo_solver_set_int(s, "num_tries", 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_str_eq(qubo_error_message(), "random: num_tries must be at least 1");
	cr_assert_eq(qubo_solver_set_double(s, "num_tries", 2.0), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_int(s, "tenure", 2), QUBO_ERR_NOT_SUPPORTED);
	cr_assert(strstr(qubo_error_message(), "random: unknown option"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_describe(s, text, sizeof text, NULL), QUBO_OK);
	cr_assert(strstr(text, "default 200"), "%s", text);
	qubo_solver_free(s);
}

static int stop_now(const qubo_progress *p, void *user_data)
{
	(void)p;
	(void)user_data;
	return 1;
}

Test(custom_backend, stops_when_the_progress_callback_asks)
{
	qubo_model *m = th_random_model(2, 12, 0.5, 3, 1);
	qubo_solver *s = make();
	qubo_sampleset *set = NULL;

	th_set_int(s, QUBO_PARAM_NUM_READS, 1000);
	cr_assert_eq(qubo_solver_set_progress(s, stop_now, NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_CANCELLED);
	cr_assert_eq(qubo_sampleset_size(set), 1);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(custom_backend, stops_at_the_time_limit)
{
	qubo_model *m = th_random_model(2, 20, 0.5, 3, 1);
	qubo_solver *s = make();
	qubo_sampleset *set = NULL;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;

	th_set_int(s, QUBO_PARAM_NUM_READS, 2000000000);
	th_set_int(s, "num_tries", 100000);
	th_set_double(s, QUBO_PARAM_TIME_LIMIT, 0.2);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_TIME_LIMIT);
	cr_assert_gt(qubo_sampleset_size(set), 0);
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_lt(info.seconds, 2.0);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(custom_backend, polishing_its_samples_with_descent)
{
	qubo_model *m = th_random_model(4, 20, 0.4, 3, 0);
	qubo_solver *s = make(), *d = th_solver("descent");
	qubo_sampleset *rough = NULL, *polished = NULL;

	th_set_int(s, "num_tries", 3);
	cr_assert_eq(qubo_solver_sample(&rough, s, m), QUBO_OK);
	cr_assert_eq(qubo_solver_sample_from(&polished, d, m, rough), QUBO_OK);
	cr_assert_leq(th_lowest(polished), th_lowest(rough));
	qubo_sampleset_free(rough);
	qubo_sampleset_free(polished);
	qubo_solver_free(s);
	qubo_solver_free(d);
	qubo_model_free(m);
}
