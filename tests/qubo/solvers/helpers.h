/* Helpers shared by the solver suites: seeded random models and a brute-force
 * referee. Header-only (static inline) so that each suite stays one file. */
#ifndef QUBO_TEST_SOLVER_HELPERS_H
#define QUBO_TEST_SOLVER_HELPERS_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A compiled random model: n variables, each pair coupled with probability
 * density, weights uniform integers in [-w, w] (integer: ties are common) or
 * uniform reals in [-w, w]. */
static inline qubo_model *th_random_model(uint64_t seed, size_t n, double density, int w,
					  int integer)
{
	tu_rng r = { seed };
	qubo_model *m = NULL;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++) {
		double h = integer ? (double)tu_range(&r, -w, w) : (2 * tu_unit(&r) - 1) * w;
		cr_assert_eq(qubo_model_add_linear(m, i, h), QUBO_OK);
		for (j = i + 1; j < n; j++) {
			double q;
			if (tu_unit(&r) >= density)
				continue;
			q = integer ? (double)tu_range(&r, -w, w) : (2 * tu_unit(&r) - 1) * w;
			cr_assert_eq(qubo_model_add_quadratic(m, i, j, q), QUBO_OK);
		}
	}
	cr_assert_eq(qubo_model_add_offset(m, integer ? 3.0 : 0.25), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

/* Brute force over all 2^n states: the minimum energy and how many states
 * have exactly that energy. */
static inline double th_naive_min(const qubo_model *m, uint64_t *count_out)
{
	size_t n = qubo_model_num_variables(m), i;
	uint8_t x[64];
	double best = 0;
	uint64_t s, count = 0;

	cr_assert(n <= 24);
	for (s = 0; s < ((uint64_t)1 << n); s++) {
		double e;
		for (i = 0; i < n; i++)
			x[i] = (uint8_t)((s >> i) & 1);
		cr_assert_eq(qubo_model_energy(m, x, n, &e), QUBO_OK);
		if (!s || e < best) {
			best = e;
			count = 0;
		}
		if (e == best)
			count++;
	}
	if (count_out)
		*count_out = count;
	return best;
}

/* Fewer random trials under valgrind (QUBO_TEST_VALGRIND=1), never fewer
 * checks per trial. */
static inline unsigned th_trials(unsigned normal, unsigned under_valgrind)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");

	return v && v[0] == '1' ? under_valgrind : normal;
}

static inline qubo_solver *th_solver(const char *name)
{
	qubo_solver *s = NULL;

	cr_assert_eq(qubo_solver_new(&s, name, NULL), QUBO_OK, "%s", qubo_error_message());
	return s;
}

static inline void th_set_int(qubo_solver *s, const char *key, int64_t v)
{
	cr_assert_eq(qubo_solver_set_int(s, key, v), QUBO_OK, "%s: %s", key,
		     qubo_error_message());
}

static inline void th_set_double(qubo_solver *s, const char *key, double v)
{
	cr_assert_eq(qubo_solver_set_double(s, key, v), QUBO_OK, "%s: %s", key,
		     qubo_error_message());
}

static inline double th_lowest(const qubo_sampleset *set)
{
	double e = 0;

	cr_assert_eq(qubo_sampleset_lowest(set, NULL, 0, &e), QUBO_OK);
	return e;
}

/* Two sample sets are equal: same samples, energies and occurrences. */
static inline int th_same_sets(const qubo_sampleset *a, const qubo_sampleset *b)
{
	size_t i, n = qubo_sampleset_num_variables(a);

	if (qubo_sampleset_size(a) != qubo_sampleset_size(b) ||
	    qubo_sampleset_num_variables(b) != n)
		return 0;
	for (i = 0; i < qubo_sampleset_size(a); i++) {
		double ea, eb;
		uint64_t oa, ob;
		cr_assert_eq(qubo_sampleset_get(a, i, NULL, 0, &ea, &oa), QUBO_OK);
		cr_assert_eq(qubo_sampleset_get(b, i, NULL, 0, &eb, &ob), QUBO_OK);
		if (ea != eb || oa != ob ||
		    memcmp(qubo_sampleset_sample_data(a, i), qubo_sampleset_sample_data(b, i), n))
			return 0;
	}
	return 1;
}

#endif
