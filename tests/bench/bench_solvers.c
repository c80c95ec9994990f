/*
 * Thread scaling of the built-in local-search solvers (tabu, descent) and
 * of exhaustive enumeration: reads (or states) per second with 1 and with 2
 * threads, the ratio, and the process CPU time, which tells a loaded machine
 * (wall time up, CPU time flat) from poor scaling (CPU time up). The goal
 * (issue 3): two threads give at least 1.8 times the reads per second of one.
 *
 *   bench_solvers [runs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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

/* n variables, each coupled to about degree others. */
static qubo_model *sparse_model(size_t n, size_t degree)
{
	qubo_model *m = NULL;
	uint64_t s = 99;
	size_t i, k;

	if (qubo_model_new(&m, n, NULL))
		return NULL;
	for (i = 0; i < n; i++) {
		qubo_model_add_linear(m, (uint32_t)i, weight(&s));
		for (k = 0; k < degree / 2; k++) {
			uint32_t j = (uint32_t)(next(&s) % n);
			if (j != i)
				qubo_model_add_quadratic(m, (uint32_t)i, j, weight(&s));
		}
	}
	if (qubo_model_compile(m)) {
		qubo_model_free(m);
		return NULL;
	}
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median wall seconds of runs samples; *cpu_out gets the matching CPU time. */
static double measure(const char *name, const qubo_model *m, int threads, int64_t reads,
		      int runs, double *cpu_out)
{
	double w[32], c[32], med;
	qubo_solver *s = NULL;
	int i;

	if (qubo_solver_new(&s, name, NULL) ||
	    qubo_solver_set_int(s, QUBO_PARAM_THREADS, threads) ||
	    qubo_solver_set_int(s, QUBO_PARAM_SEED, 1) ||
	    (reads && qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, reads))) {
		fprintf(stderr, "bench_solvers: %s\n", qubo_error_message());
		exit(1);
	}
	if (!strcmp(name, "tabu"))
		qubo_solver_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 2000);
	for (i = 0; i < runs; i++) {
		qubo_sampleset *set = NULL;
		double w0 = wall(), c0 = cpu();
		if (qubo_solver_sample(&set, s, m) != QUBO_OK) {
			fprintf(stderr, "bench_solvers: %s\n", qubo_error_message());
			exit(1);
		}
		w[i] = wall() - w0;
		c[i] = cpu() - c0;
		qubo_sampleset_free(set);
	}
	qsort(w, (size_t)runs, sizeof w[0], cmp_double);
	qsort(c, (size_t)runs, sizeof c[0], cmp_double);
	med = w[runs / 2];
	*cpu_out = c[runs / 2];
	qubo_solver_free(s);
	return med;
}

static void scaling(const char *name, const qubo_model *m, int64_t reads, double units,
		    const char *unit, int runs)
{
	double c1, c2, t1 = measure(name, m, 1, reads, runs, &c1);
	double t2 = measure(name, m, 2, reads, runs, &c2);

	printf("%-10s 1 thread: %10.1f %s/s (%.3f s, cpu %.3f s)   2 threads: %10.1f %s/s "
	       "(%.3f s, cpu %.3f s)   ratio %.2f\n",
	       name, units / t1, unit, t1, c1, units / t2, unit, t2, c2, t1 / t2);
}

/* Latency of one call on a 4-variable model (one read, one thread): the
 * fixed cost of a solve, without a time limit (the read runs on the calling
 * thread) and with one (a worker thread runs it while the caller watches
 * the clock). Median of runs batches of 2000 calls. */
static void latency(const char *name, const qubo_model *m, int limit, int runs)
{
	enum { CALLS = 2000 };
	double t[32];
	qubo_solver *s = NULL;
	int i, k;

	if (qubo_solver_new(&s, name, NULL) ||
	    qubo_solver_set_int(s, QUBO_PARAM_THREADS, 1) ||
	    (limit && qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, 60.0)) ||
	    (strcmp(name, "exhaustive") && qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 1)) ||
	    (!strcmp(name, "sa") && qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, 10)) ||
	    (!strcmp(name, "tabu") && qubo_solver_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 10))) {
		fprintf(stderr, "bench_solvers: %s\n", qubo_error_message());
		exit(1);
	}
	for (k = 0; k < runs; k++) {
		double t0 = wall();
		for (i = 0; i < CALLS; i++) {
			qubo_sampleset *set = NULL;
			if (qubo_solver_sample(&set, s, m) != QUBO_OK) {
				fprintf(stderr, "bench_solvers: %s\n", qubo_error_message());
				exit(1);
			}
			qubo_sampleset_free(set);
		}
		t[k] = (wall() - t0) / CALLS;
	}
	qsort(t, (size_t)runs, sizeof t[0], cmp_double);
	printf("%-10s one call on 4 variables, %s: %8.2f us\n", name,
	       limit ? "with a time limit (worker thread)" : "no limit (calling thread)     ",
	       1e6 * t[runs / 2]);
	qubo_solver_free(s);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 5;
	qubo_model *big = sparse_model(1000, 10), *dense = NULL;
	uint64_t s = 5;
	int i, j;

	if (runs < 1 || runs > 32 || !big || qubo_model_new(&dense, 28, NULL))
		return 2;
	for (i = 0; i < 28; i++)
		for (j = i; j < 28; j++)
			qubo_model_add_quadratic(dense, (uint32_t)i, (uint32_t)j, weight(&s));
	qubo_model_compile(dense);
	printf("median of %d runs; model: n=1000, degree ~10 (tabu, descent), dense n=28 "
	       "(exhaustive)\n", runs);
	scaling("tabu", big, 16, 16, "reads", runs);
	scaling("descent", big, 400, 400, "reads", runs);
	scaling("exhaustive", dense, 0, (double)(1 << 28), "states", runs);
	{
		static const char *const names[] = { "sa", "tabu", "descent", "exhaustive" };
		qubo_model *tiny = NULL;
		size_t k;

		if (qubo_model_new(&tiny, 4, NULL) || qubo_model_add_quadratic(tiny, 0, 1, 1.0) ||
		    qubo_model_add_linear(tiny, 2, -1.0) || qubo_model_compile(tiny))
			return 2;
		for (k = 0; k < 4; k++) {
			latency(names[k], tiny, 0, runs);
			latency(names[k], tiny, 1, runs);
		}
		qubo_model_free(tiny);
	}
	qubo_model_free(big);
	qubo_model_free(dense);
	return 0;
}
