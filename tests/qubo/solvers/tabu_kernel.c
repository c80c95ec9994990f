/* The "tabu" solver's two engines (doc/solvers.md): which models take the
 * bucket lists, both against brute force, the target against the exact
 * energy, the elite restarts, and a tenure that leaves every move tabu. */
#include <math.h>

#include "helpers.h"
#include "solvers/kernel.h"

enum { W_INT, W_QUARTER, W_REAL };

/* A compiled random model with weights of one kind: integers in [−5, 5],
 * multiples of 1/4 in [−2, 2] (both take the buckets) or reals in [−1, 1)
 * (a scan), each pair present with probability density. */
static qubo_model *model_of(uint64_t seed, size_t n, double density, int kind)
{
	tu_rng g = { seed };
	qubo_model *m;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++) {
		for (j = i; j < n; j++) {
			double w = kind == W_INT ? (double)tu_range(&g, -5, 5)
				 : kind == W_QUARTER ? (double)tu_range(&g, -8, 8) / 4
						     : 2 * tu_unit(&g) - 1;
			if (j == i)
				cr_assert_eq(qubo_model_add_linear(m, i, w), QUBO_OK);
			else if (tu_unit(&g) < density)
				cr_assert_eq(qubo_model_add_quadratic(m, i, j, w), QUBO_OK);
		}
	}
	cr_assert_eq(qubo_model_add_offset(m, 1.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static qubo_model *one_weight(double h, double j)
{
	qubo_model *m;

	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 0, h), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, j), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

typedef struct run_out {
	size_t reads;
	uint8_t *samples;
	double *energies;
	qubo_sample_info info;
} run_out;

/* reads reads of "tabu" (one thread unless threads), as exported. */
static run_out run(const qubo_model *m, int64_t reads, uint64_t seed, int64_t iterations,
		   int64_t restarts, int64_t tenure, const double *target)
{
	size_t n = qubo_model_num_variables(m), k, i;
	qubo_solver *s = th_solver("tabu");
	qubo_sampleset *set;
	run_out o;

	th_set_int(s, QUBO_PARAM_NUM_READS, reads);
	th_set_int(s, QUBO_PARAM_SEED, (int64_t)seed);
	th_set_int(s, QUBO_PARAM_THREADS, 1);
	th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, iterations);
	th_set_int(s, QUBO_PARAM_NUM_RESTARTS, restarts);
	if (tenure >= 0)
		th_set_int(s, QUBO_PARAM_TENURE, tenure);
	if (target)
		th_set_double(s, QUBO_PARAM_TARGET_ENERGY, *target);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	o.info.struct_size = sizeof o.info;
	cr_assert_eq(qubo_sampleset_get_info(set, &o.info), QUBO_OK);
	o.reads = qubo_sampleset_size(set);
	o.samples = malloc(o.reads * n + 1);
	o.energies = malloc(o.reads * sizeof *o.energies + 1);
	cr_assert(o.samples && o.energies);
	cr_assert_eq(qubo_sampleset_export(set, o.samples, o.energies, NULL, o.reads), QUBO_OK);
	/* every energy is the exact energy of its sample */
	for (k = 0; k < o.reads; k++) {
		double e;
		cr_assert_eq(qubo_model_energy(m, o.samples + k * n, n, &e), QUBO_OK);
		cr_assert_eq(e, o.energies[k], "sample %zu: %.17g, reported %.17g", k, e,
			     o.energies[k]);
		for (i = 0; i < n; i++)
			cr_assert_leq(o.samples[k * n + i], 1);
	}
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return o;
}

static void out_free(run_out *o)
{
	free(o->samples);
	free(o->energies);
}

Test(tabu_kernel, integer_and_dyadic_models_take_the_buckets)
{
	static const struct {
		double h, j;
		int buckets;
	} cases[] = {
		{ -3, 5, 1 },
		{ 0.375, -1.25, 1 },           /* multiples of 1/8 */
		{ 0x1p-30, 0x1p-12, 1 },       /* the finest unit taken */
		{ 0x1p-31, 0x1p-12, 0 },       /* one finer */
		{ 0.1, 1, 0 },                 /* not dyadic */
		{ 0x1p20, 0, 1 },              /* |h| at the limit of 2^20 units */
		{ 0x1p20, 0.5, 0 },            /* 2^21 halves */
		{ 1e300, 1, 0 },
		{ 0, 0, 1 },
	};
	size_t c;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		qubo_model *m = one_weight(cases[c].h, cases[c].j);
		cr_assert_eq(qubo__tabu_buckets(m), cases[c].buckets, "case %zu", c);
		qubo_model_free(m);
	}
	for (c = W_INT; c <= W_REAL; c++) {
		qubo_model *m = model_of(5, 30, 0.3, (int)c);
		cr_assert_eq(qubo__tabu_buckets(m), c != W_REAL, "kind %zu", c);
		qubo_model_free(m);
	}
}

Test(tabu_kernel, both_engines_reach_the_brute_force_minimum)
{
	unsigned t, trials = th_trials(10, 3);
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		for (t = 0; t < trials; t++) {
			size_t n = 6 + (t * 5) % 11;
			qubo_model *m = model_of(100 + t * 3 + (uint64_t)kind, n, 0.5, kind);
			double min = th_naive_min(m, NULL);
			run_out o = run(m, 4, t + 1, 200, 3, -1, NULL);
			cr_assert_eq(o.energies[0], min, "kind %d, n %zu: %.17g, minimum %.17g",
				     kind, n, o.energies[0], min);
			out_free(&o);
			qubo_model_free(m);
		}
	}
}

/* The engines track the energy (in integers, or in doubles within a
 * tolerance) and a target stops the run on it: a stop must come with a
 * sample at the target, and the target must stop the run. */
Test(tabu_kernel, target_stops_the_run_at_a_true_hit)
{
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		qubo_model *m = model_of(77 + (uint64_t)kind, 16, 0.4, kind);
		double min = th_naive_min(m, NULL), above = min + 1e-9;
		run_out o = run(m, 100000, 3, 100, 0, -1, &above);
		cr_assert_eq(o.info.reached_target, 1, "kind %d", kind);
		cr_assert_lt(o.info.num_samples, 100000, "kind %d", kind);
		cr_assert_eq(o.energies[0], min, "kind %d", kind);
		out_free(&o);
		qubo_model_free(m);
	}
}

/* The first round of a read draws the same numbers whatever the restarts,
 * so more rounds never return a higher energy; on these models they find
 * lower ones. */
Test(tabu_kernel, elite_restarts_never_lose_the_first_round)
{
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		qubo_model *m = model_of(900 + (uint64_t)kind, 120, 0.1, kind);
		qubo_solver *s[2];
		qubo_sampleset *set[2];
		size_t r, n = 120, better = 0, reads = th_trials(16, 6);
		uint8_t *x = malloc(n);
		int q;

		cr_assert_not_null(x);
		for (q = 0; q < 2; q++) {
			s[q] = th_solver("tabu");
			th_set_int(s[q], QUBO_PARAM_NUM_READS, 1);
			th_set_int(s[q], QUBO_PARAM_SEED, 11);
			th_set_int(s[q], QUBO_PARAM_NUM_ITERATIONS, 150);
			th_set_int(s[q], QUBO_PARAM_NUM_RESTARTS, q ? 8 : 0);
			th_set_int(s[q], QUBO_PARAM_TENURE, 5);
		}
		for (r = 0; r < reads; r++) {
			double e[2];
			for (q = 0; q < 2; q++) {
				th_set_int(s[q], QUBO_PARAM_FIRST_READ, (int64_t)r);
				cr_assert_eq(qubo_solver_sample(&set[q], s[q], m), QUBO_OK);
				cr_assert_eq(qubo_sampleset_lowest(set[q], x, n, &e[q]), QUBO_OK);
				qubo_sampleset_free(set[q]);
			}
			cr_assert_leq(e[1], e[0], "kind %d, read %zu: %.17g after restarts, %.17g",
				      kind, r, e[1], e[0]);
			better += e[1] < e[0];
		}
		cr_assert_gt(better, 0, "kind %d: restarts never helped: the test shows nothing",
			     kind);
		for (q = 0; q < 2; q++)
			qubo_solver_free(s[q]);
		free(x);
		qubo_model_free(m);
	}
}

/* tenure n − 1 leaves one free move at most: every iteration after the
 * first n − 1 takes the best tabu one or the one free one, and the read
 * still ends at a local minimum of the rounds it saw. */
Test(tabu_kernel, longest_tenure_still_searches)
{
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		qubo_model *m = model_of(40 + (uint64_t)kind, 9, 0.6, kind);
		double min = th_naive_min(m, NULL);
		run_out o = run(m, 8, 5, 300, 4, 8, NULL);
		cr_assert_eq(o.energies[0], min, "kind %d: %.17g, minimum %.17g", kind,
			     o.energies[0], min);
		out_free(&o);
		qubo_model_free(m);
	}
}

/* A model of 2^16 variables in one ring of integer couplings: far from the
 * brute-force sizes, so the check is the exact energies (in run()) and that
 * the search made its iterations and lowered the energy of its start. */
Test(tabu_kernel, large_integer_model)
{
	const uint32_t n = 1u << 16;
	qubo_model *m;
	uint32_t i;
	run_out o;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++) {
		cr_assert_eq(qubo_model_add_linear(m, i, (double)(i % 7) - 3), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, i, (i + 1) % n, (i % 3) ? 2 : -1),
			     QUBO_OK);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert(qubo__tabu_buckets(m));
	o = run(m, 2, 9, 20000, 1, -1, NULL);
	cr_assert_eq(o.info.flip_attempts, 2 * 2 * 20000);
	cr_assert_lt(o.energies[0], -1000.0);
	out_free(&o);
	qubo_model_free(m);
}
