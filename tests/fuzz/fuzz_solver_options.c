/*
 * libFuzzer target for the solvers' options: a built-in solver, a small
 * model and a sequence of option calls (set an integer, a double or a
 * string, or unset), each key one the solvers know or any bytes, each value
 * from the input (any double, NaN and infinities included; strings such as
 * qaoa's angle lists).
 *
 * Every call returns a documented status, a refused one with a message and
 * the previous value kept; a value accepted reads back the same through
 * qubo_solver_options(); qubo_solver_describe() works at any point. Then
 * the solver samples the model on one thread with a time limit of 0.02 s:
 * whatever the options, it must return a documented status, and every
 * sample it returns has the energy the model gives it, a finite one; an
 * expectation it reports (qaoa) is finite too.
 */
#define FUZZ_NAME "fuzz_solver_options"
#include "fuzz_common.h"

#include <math.h>

#define MAX_OPS 12

static const char *const keys[] = {
	QUBO_PARAM_NUM_READS,
	QUBO_PARAM_SEED,
	QUBO_PARAM_THREADS,
	QUBO_PARAM_TIME_LIMIT,
	QUBO_PARAM_TARGET_ENERGY,
	QUBO_PARAM_FIRST_READ,
	QUBO_PARAM_NUM_SWEEPS,
	QUBO_PARAM_BETA_HOT,
	QUBO_PARAM_BETA_COLD,
	QUBO_PARAM_GROUP_MOVES,
	QUBO_PARAM_KEEP_LOWEST,
	QUBO_PARAM_NUM_REPLICAS,
	QUBO_PARAM_TENURE,
	QUBO_PARAM_NUM_ITERATIONS,
	QUBO_PARAM_NUM_RESTARTS,
	QUBO_PARAM_NUM_LOWEST,
	QUBO_PARAM_MAX_GROUND_STATES,
	QUBO_PARAM_P,
	QUBO_PARAM_ANGLES,
	QUBO_PARAM_MAX_QUBITS,
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* A NUL-terminated string of up to cap − 1 input bytes (a byte 0 ends it). */
static void text(fuzz_in *in, char *s, size_t cap)
{
	size_t len = fuzz_below(in, cap), i;

	for (i = 0; i < len; i++) {
		s[i] = (char)fuzz_byte(in);
		if (!s[i])
			break;
	}
	s[i] = '\0';
}

static double any_double(fuzz_in *in)
{
	uint64_t bits = 0;
	double d;
	int i;

	if (fuzz_byte(in) % 2) /* small, or a few round values */
		return (double)fuzz_int(in, -4, 64) / (double)(1 + fuzz_byte(in) % 8);
	for (i = 0; i < 8; i++)
		bits = bits << 8 | fuzz_byte(in);
	memcpy(&d, &bits, sizeof d);
	return d;
}

static int64_t any_int(fuzz_in *in)
{
	uint64_t v = 0;
	int i;

	if (fuzz_byte(in) % 2)
		return fuzz_int(in, -2, 100);
	for (i = 0; i < 8; i++)
		v = v << 8 | fuzz_byte(in);
	return (int64_t)v;
}

static void check_set_status(int rc)
{
	if (rc == QUBO_OK)
		return;
	check_failure(rc);
	check(rc == QUBO_ERR_NOT_SUPPORTED || rc == QUBO_ERR_INVALID_ARG ||
		      rc == QUBO_ERR_OUT_OF_RANGE || rc == QUBO_ERR_NOMEM,
	      "an option call with an undocumented status");
}

/* One option call; an accepted value must read back. */
static void option_call(fuzz_in *in, qubo_solver *s)
{
	const qubo_options *view = NULL;
	unsigned op = fuzz_byte(in) % 4;
	char key[80], str[80];
	const char *k = key;
	int rc;

	if (fuzz_byte(in) % 8)
		k = keys[fuzz_byte(in) % NKEYS];
	else
		text(in, key, sizeof key);
	check(qubo_solver_options(s, &view) == QUBO_OK, "options view");
	if (op == 0) {
		int64_t v = any_int(in), got = 0;

		rc = qubo_solver_set_int(s, k, v);
		check_set_status(rc);
		if (!rc)
			check(qubo_options_get_int(view, k, 0, &got) == QUBO_OK && got == v,
			      "an integer option reads back another value");
	} else if (op == 1) {
		double v = any_double(in), got = 0;

		rc = qubo_solver_set_double(s, k, v);
		check_set_status(rc);
		check(rc || isfinite(v), "a non-finite double accepted");
		if (!rc)
			check(qubo_options_get_double(view, k, 0, &got) == QUBO_OK && got == v,
			      "a double option reads back another value");
	} else if (op == 2) {
		const char *got = NULL;

		if (fuzz_byte(in) % 2) /* an angle list */
			snprintf(str, sizeof str, "%g,%g", any_double(in), any_double(in));
		else
			text(in, str, sizeof str);
		rc = qubo_solver_set_string(s, k, str);
		check_set_status(rc);
		if (!rc)
			check(qubo_options_get_string(view, k, NULL, &got) == QUBO_OK && got &&
				      !strcmp(got, str),
			      "a string option reads back another value");
	} else {
		rc = qubo_solver_unset(s, k);
		if (rc) {
			check_failure(rc);
			check(rc == QUBO_ERR_INVALID_ARG, "unset: an undocumented status");
		}
	}
}

static void check_samples(const qubo_sampleset *set, const qubo_model *m)
{
	size_t i, n = qubo_model_num_variables(m);
	uint8_t *x = malloc(n + 1);
	qubo_sample_info info;

	check(x != NULL, "malloc");
	check(qubo_sampleset_num_variables(set) == n, "samples of another size");
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		double e = 0, e2 = 0;
		uint64_t occ = 0;

		check(qubo_sampleset_get(set, i, x, n, &e, &occ) == QUBO_OK, "sampleset_get");
		check(qubo_model_energy(m, x, n, &e2) == QUBO_OK, "energy");
		check(isfinite(e) && e == e2, "a sample's energy is not the model's");
		check(occ >= 1, "a sample that never occurred");
	}
	memset(&info, 0, sizeof info);
	info.struct_size = sizeof info;
	check(qubo_sampleset_get_info(set, &info) == QUBO_OK, "sampleset info");
	if (info.has_expectation)
		check(isfinite(info.expectation) && info.lowest_probability >= 0 &&
			      info.lowest_probability <= 1,
		      "an expectation or probability that is not a number");
	free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_in in = { data, size, 0 };
	const char *name = NULL;
	qubo_solver *s = NULL;
	qubo_model *m = NULL;
	qubo_sampleset *set = NULL;
	size_t nsolvers = 0, n, i, len = 0;
	uint32_t a, b;
	int rc, ops;

	while (qubo_solver_builtin_name(nsolvers, &name) == QUBO_OK)
		nsolvers++;
	check(nsolvers > 0, "no built-in solver");
	check(qubo_solver_builtin_name(fuzz_byte(&in) % nsolvers, &name) == QUBO_OK, "name");
	check(qubo_solver_new(&s, name, &fuzz_alloc) == QUBO_OK, "solver_new");
	/* a model of 1 to 6 variables with small weights */
	n = 1 + fuzz_byte(&in) % 6;
	check(qubo_model_new(&m, n, NULL) == QUBO_OK, "model_new");
	for (i = 0; i < n; i++)
		check(qubo_model_add_linear(m, (uint32_t)i, (double)fuzz_int(&in, -4, 4)) ==
			      QUBO_OK,
		      "add_linear");
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			if (fuzz_byte(&in) % 2)
				check(qubo_model_add_quadratic(
					      m, a, b, (double)fuzz_int(&in, -4, 4)) == QUBO_OK,
				      "add_quadratic");
	check(qubo_model_compile(m) == QUBO_OK, "compile");
	ops = (int)(fuzz_byte(&in) % (MAX_OPS + 1));
	while (ops-- > 0) {
		option_call(&in, s);
		check(qubo_solver_describe(s, NULL, 0, &len) == QUBO_OK && len > 0, "describe");
	}
	/* one thread, 20 ms (the keys of every solver) */
	check(qubo_solver_set_int(s, QUBO_PARAM_THREADS, 1) == QUBO_OK, "threads");
	check(qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, 0.02) == QUBO_OK, "time_limit");
	rc = qubo_solver_sample(&set, s, m);
	if (rc == QUBO_OK || rc == QUBO_TIME_LIMIT) {
		check(set != NULL, "no sample set");
		check_samples(set, m);
	} else {
		check(set == NULL, "a sample set on failure");
		check_failure(rc);
		check(rc == QUBO_ERR_OUT_OF_RANGE || rc == QUBO_ERR_INVALID_ARG ||
			      rc == QUBO_ERR_NOMEM || rc == QUBO_ERR_TOO_LARGE ||
			      rc == QUBO_ERR_NOT_SUPPORTED,
		      "sample: an undocumented status");
	}
	qubo_sampleset_free(set);
	qubo_model_free(m);
	qubo_solver_free(s);
	return 0;
}
