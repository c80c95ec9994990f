/*
 * Exhaustive enumeration speed: a dense random model of n variables (default
 * 30, so 2^30 states), sampled RUNS times on THREADS threads; prints each
 * time, the median and ns per state. The goal (issue 3): 2^30 states in under
 * 5 s on 2 cores.
 *
 *   bench_exhaustive [n [runs [threads]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <qubo.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double weight(uint64_t *s)
{
	return (double)(next(s) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30;
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	int threads = argc > 3 ? atoi(argv[3]) : 2;
	double times[64], med;
	qubo_model *m = NULL;
	qubo_solver *s = NULL;
	uint64_t seed = 12345;
	int i, j, rc;

	if (n < 1 || n > 40 || runs < 1 || runs > 64 || threads < 1) {
		fprintf(stderr, "usage: bench_exhaustive [n<=40 [runs<=64 [threads]]]\n");
		return 2;
	}
	rc = qubo_model_new(&m, (size_t)n, NULL);
	for (i = 0; !rc && i < n; i++) {
		rc = qubo_model_add_linear(m, (uint32_t)i, weight(&seed));
		for (j = i + 1; !rc && j < n; j++)
			rc = qubo_model_add_quadratic(m, (uint32_t)i, (uint32_t)j, weight(&seed));
	}
	if (!rc)
		rc = qubo_model_compile(m);
	if (!rc)
		rc = qubo_solver_new(&s, "exhaustive", NULL);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_THREADS, threads);
	if (rc) {
		fprintf(stderr, "bench_exhaustive: %s\n", qubo_error_message());
		return 1;
	}
	printf("exhaustive: n=%d (2^%d states, dense), %d thread(s)\n", n, n, threads);
	for (i = 0; i < runs; i++) {
		qubo_sampleset *set = NULL;
		double t0 = now(), e = 0;
		rc = qubo_solver_sample(&set, s, m);
		times[i] = now() - t0;
		if (rc != QUBO_OK || qubo_sampleset_lowest(set, NULL, 0, &e) != QUBO_OK) {
			fprintf(stderr, "bench_exhaustive: %s\n", qubo_error_message());
			return 1;
		}
		printf("  run %d: %.3f s, ground energy %.17g\n", i + 1, times[i], e);
		qubo_sampleset_free(set);
	}
	qsort(times, (size_t)runs, sizeof times[0], cmp_double);
	med = times[runs / 2];
	printf("median %.3f s, %.3f ns per state (%.3f ns per state-thread)\n", med,
	       med * 1e9 / (double)((uint64_t)1 << n),
	       med * 1e9 * threads / (double)((uint64_t)1 << n));
	qubo_solver_free(s);
	qubo_model_free(m);
	return 0;
}
