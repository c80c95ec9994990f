/* Keyed typed options: each kind of error gives its code and a clear
 * message, and a failed set leaves the previous value in place. */
#include <math.h>

#include "helpers.h"

#define MSG_HAS(s) cr_assert(strstr(qubo_error_message(), s), "message: %s", qubo_error_message())

Test(options, unknown_key_is_not_supported_and_lists_accepted_keys)
{
	const char *names[] = { "sa", "tabu", "descent", "exhaustive", "pt" };
	size_t k;

	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		qubo_solver *s = th_solver(names[k]);
		cr_assert_eq(qubo_solver_set_int(s, "num_sweepz", 10), QUBO_ERR_NOT_SUPPORTED);
		MSG_HAS("num_sweepz");
		MSG_HAS(names[k]);
		MSG_HAS("threads");
		cr_assert_eq(qubo_error_code(), QUBO_ERR_NOT_SUPPORTED);
		cr_assert_eq(qubo_solver_set_double(s, "bogus", 1.0), QUBO_ERR_NOT_SUPPORTED);
		cr_assert_eq(qubo_solver_set_string(s, "bogus", "x"), QUBO_ERR_NOT_SUPPORTED);
		cr_assert_eq(qubo_options_count(NULL), 0);
		{
			const qubo_options *o;
			cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
			cr_assert_eq(qubo_options_count(o), 0);
		}
		qubo_solver_free(s);
	}
}

Test(options, sa_lists_its_own_keys)
{
	qubo_solver *s = th_solver("sa");

	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_TENURE, 3), QUBO_ERR_NOT_SUPPORTED);
	MSG_HAS("num_sweeps");
	MSG_HAS("beta_hot");
	MSG_HAS("beta_cold");
	qubo_solver_free(s);
}

Test(options, pt_lists_its_own_keys)
{
	qubo_solver *s = th_solver("pt");

	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_TENURE, 3), QUBO_ERR_NOT_SUPPORTED);
	MSG_HAS("num_replicas");
	MSG_HAS("beta_hot");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_REPLICAS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_REPLICAS, 4097), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_BETA_HOT, 0.0), QUBO_ERR_OUT_OF_RANGE);
	th_set_int(s, QUBO_PARAM_NUM_REPLICAS, 4096);
	qubo_solver_free(s);
}

Test(options, wrong_type_is_invalid_arg)
{
	qubo_solver *s = th_solver("sa");

	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_NUM_READS, 10.0), QUBO_ERR_INVALID_ARG);
	MSG_HAS("num_reads");
	MSG_HAS("integer");
	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_NUM_READS, "10"), QUBO_ERR_INVALID_ARG);
	MSG_HAS("option num_reads takes an integer, got '10'");
	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_TIME_LIMIT, "1"), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_NUM_SWEEPS, 5.0), QUBO_ERR_INVALID_ARG);
	MSG_HAS("num_sweeps");
	/* an integer is accepted where a double is expected */
	th_set_int(s, QUBO_PARAM_TIME_LIMIT, 3);
	th_set_int(s, QUBO_PARAM_BETA_HOT, 1);
	qubo_solver_free(s);
}

/* What a program shows its users: the option and the value, never the C
 * function that was called. */
Test(options, value_messages_name_the_option_not_the_function)
{
	qubo_solver *s = th_solver("sa");

	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_NUM_READS, "abc"), QUBO_ERR_INVALID_ARG);
	cr_assert_str_eq(qubo_error_message(), "option num_reads takes an integer, got 'abc'");
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_NUM_READS, 2.5), QUBO_ERR_INVALID_ARG);
	cr_assert_str_eq(qubo_error_message(), "option num_reads takes an integer, got 2.5");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, -3), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_str_eq(qubo_error_message(), "option num_reads is -3, outside [1, 2147483647]");
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, -1.0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_str_eq(qubo_error_message(), "option time_limit is -1, outside [0, inf]");
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, (double)INFINITY),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_str_eq(qubo_error_message(), "option time_limit takes a finite number, got inf");
	cr_assert_eq(qubo_solver_set_int(s, "a b", 1), QUBO_ERR_INVALID_ARG);
	cr_assert(!strstr(qubo_error_message(), "qubo_"), "%s", qubo_error_message());
	MSG_HAS("option key \"a b\"");
	qubo_solver_free(s);
}

Test(options, out_of_range_is_reported_with_the_range)
{
	qubo_solver *s = th_solver("sa");
	qubo_solver *e = th_solver("exhaustive");

	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 0), QUBO_ERR_OUT_OF_RANGE);
	MSG_HAS("num_reads is 0");
	MSG_HAS("[1, 2147483647]");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, -4), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_THREADS, 5000), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, -1.0),
		     QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_BETA_HOT, 0.0), QUBO_ERR_OUT_OF_RANGE);
	MSG_HAS("(0,");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(e, QUBO_PARAM_NUM_LOWEST, -1), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(e, QUBO_PARAM_MAX_GROUND_STATES, 0),
		     QUBO_ERR_OUT_OF_RANGE);
	qubo_solver_free(s);
	qubo_solver_free(e);
}

Test(options, non_finite_doubles_are_rejected)
{
	qubo_solver *s = th_solver("sa");

	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, (double)NAN),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TARGET_ENERGY, (double)INFINITY),
		     QUBO_ERR_INVALID_ARG);
	MSG_HAS("target_energy");
	qubo_solver_free(s);
}

Test(options, malformed_keys)
{
	qubo_solver *s = th_solver("sa");
	char longkey[80];

	memset(longkey, 'a', sizeof longkey - 1);
	longkey[sizeof longkey - 1] = '\0';
	cr_assert_eq(qubo_solver_set_int(s, "", 1), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_int(s, "num reads", 1), QUBO_ERR_INVALID_ARG);
	MSG_HAS("character 4");
	cr_assert_eq(qubo_solver_set_int(s, longkey, 1), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_int(s, NULL, 1), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_unset(s, "a b"), QUBO_ERR_INVALID_ARG);
	qubo_solver_free(s);
}

Test(options, failed_set_keeps_previous_value)
{
	qubo_solver *s = th_solver("tabu");
	const qubo_options *o;
	int64_t v;

	th_set_int(s, QUBO_PARAM_NUM_READS, 7);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_NUM_READS, 3.0), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
	cr_assert_eq(qubo_options_get_int(o, QUBO_PARAM_NUM_READS, -1, &v), QUBO_OK);
	cr_assert_eq(v, 7);
	cr_assert_eq(qubo_options_count(o), 1);
	/* a rejected new key is not added */
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_TENURE, -1), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_options_type(o, QUBO_PARAM_TENURE), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_count(o), 1);
	qubo_solver_free(s);
}

Test(options, getters_fallbacks_types_and_enumeration)
{
	qubo_solver *s = th_solver("sa");
	const qubo_options *o;
	const char *key, *str;
	int64_t i;
	double d;
	int32_t type;

	th_set_int(s, QUBO_PARAM_SEED, -5);
	th_set_double(s, QUBO_PARAM_TIME_LIMIT, 2.5);
	th_set_int(s, QUBO_PARAM_TARGET_ENERGY, -3);
	cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
	cr_assert_eq(qubo_options_count(o), 3);
	cr_assert_eq(qubo_options_type(o, QUBO_PARAM_SEED), QUBO_TYPE_INT);
	cr_assert_eq(qubo_options_type(o, QUBO_PARAM_TIME_LIMIT), QUBO_TYPE_DOUBLE);
	cr_assert_eq(qubo_options_type(o, "absent"), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_type(o, NULL), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_get_int(o, QUBO_PARAM_SEED, 0, &i), QUBO_OK);
	cr_assert_eq(i, -5);
	cr_assert_eq(qubo_options_get_int(o, "absent", 99, &i), QUBO_OK);
	cr_assert_eq(i, 99);
	cr_assert_eq(qubo_options_get_double(o, QUBO_PARAM_TARGET_ENERGY, 0, &d), QUBO_OK);
	cr_assert_eq(d, -3.0);
	cr_assert_eq(qubo_options_get_int(o, QUBO_PARAM_TIME_LIMIT, 0, &i), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_options_get_string(o, QUBO_PARAM_SEED, NULL, &str),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_options_get_string(o, "absent", "fb", &str), QUBO_OK);
	cr_assert_str_eq(str, "fb");
	cr_assert_eq(qubo_options_key(o, 1, &key, &type), QUBO_OK);
	cr_assert_str_eq(key, QUBO_PARAM_TIME_LIMIT);
	cr_assert_eq(type, QUBO_TYPE_DOUBLE);
	cr_assert_eq(qubo_options_key(o, 3, &key, &type), QUBO_ERR_OUT_OF_RANGE);
	/* replacing keeps the position; unset removes */
	th_set_int(s, QUBO_PARAM_SEED, 8);
	cr_assert_eq(qubo_options_key(o, 0, &key, NULL), QUBO_OK);
	cr_assert_str_eq(key, QUBO_PARAM_SEED);
	cr_assert_eq(qubo_solver_unset(s, QUBO_PARAM_SEED), QUBO_OK);
	cr_assert_eq(qubo_solver_unset(s, QUBO_PARAM_SEED), QUBO_OK);
	cr_assert_eq(qubo_options_count(o), 2);
	cr_assert_eq(qubo_options_type(o, QUBO_PARAM_SEED), QUBO_TYPE_NONE);
	cr_assert_eq(qubo_options_get_int(NULL, "x", 0, &i), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_options_get_int(o, "x", 0, NULL), QUBO_ERR_MISUSE);
	qubo_solver_free(s);
}

Test(options, unknown_builtin_name)
{
	qubo_solver *s = (qubo_solver *)1;

	cr_assert_eq(qubo_solver_new(&s, "annealer", NULL), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_null(s);
	MSG_HAS("annealer");
	MSG_HAS("exhaustive");
	cr_assert_eq(qubo_solver_new(NULL, "sa", NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_new(&s, NULL, NULL), QUBO_ERR_MISUSE);
}

Test(options, null_handles)
{
	qubo_model *m = th_random_model(1, 3, 1.0, 1, 1);
	qubo_sampleset *set = (qubo_sampleset *)1;
	const qubo_options *o;
	qubo_solver *s = th_solver("sa");

	cr_assert_eq(qubo_solver_set_int(NULL, "seed", 1), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_set_double(NULL, "time_limit", 1), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_set_string(NULL, "x", "y"), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_set_string(s, "x", NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_unset(NULL, "x"), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_options(NULL, &o), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_set_progress(NULL, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_sample(&set, NULL, m), QUBO_ERR_MISUSE);
	cr_assert_null(set);
	cr_assert_eq(qubo_solver_sample(&set, s, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_sample(NULL, s, m), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_sample_from(&set, s, m, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_describe(NULL, NULL, 0, NULL), QUBO_ERR_MISUSE);
	cr_assert_str_eq(qubo_solver_name(NULL), "");
	qubo_solver_free(NULL);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(options, dirty_model_is_misuse)
{
	qubo_model *m = th_random_model(2, 4, 1.0, 1, 1);
	qubo_solver *s = th_solver("descent");
	qubo_sampleset *set = NULL;

	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_MISUSE);
	MSG_HAS("compile");
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(options, describe_buffer_sizes)
{
	qubo_solver *s = th_solver("tabu");
	char small[8], big[4096];
	size_t len = 0, len2 = 0;

	cr_assert_eq(qubo_solver_describe(s, NULL, 0, &len), QUBO_OK);
	cr_assert_gt(len, 20);
	cr_assert_eq(qubo_solver_describe(s, small, sizeof small, NULL), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_solver_describe(s, big, len + 1, &len2), QUBO_OK);
	cr_assert_eq(len2, len);
	cr_assert_eq(strlen(big), len);
	cr_assert(strstr(big, "tenure"));
	qubo_solver_free(s);
}

/* The size query of qubo_solver_describe() (capacity 0) succeeds with the
 * length, so that `rc < 0` checks accept it, for every built-in solver. */
Test(options, describe_size_query_returns_ok)
{
	const char *names[] = { "sa", "tabu", "descent", "exhaustive", "qaoa", "pt" };
	size_t k;

	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		qubo_solver *s = th_solver(names[k]);
		size_t len = 0, len2 = 0;
		char one = 'X', *text;

		cr_assert_eq(qubo_solver_describe(s, NULL, 0, &len), QUBO_OK, "%s: %s", names[k],
			     qubo_error_message());
		cr_assert_gt(len, 0);
		cr_assert_eq(qubo_solver_describe(s, &one, 0, NULL), QUBO_OK);
		cr_assert_eq(one, 'X', "the size query wrote into the buffer");
		cr_assert_eq(qubo_solver_describe(s, &one, 1, &len2), QUBO_ERR_BUFFER_TOO_SMALL);
		cr_assert_eq(len2, len);
		text = malloc(len + 1);
		cr_assert_not_null(text);
		cr_assert_eq(qubo_solver_describe(s, text, len + 1, &len2), QUBO_OK);
		cr_assert_eq(strlen(text), len);
		free(text);
		qubo_solver_free(s);
	}
}
