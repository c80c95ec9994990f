/*
 * The QAOA simulator's layer against the memory: for each n, the time of
 * one layer (cost phase and mixer on every qubit) at 1 and 2 threads, in ns
 * per amplitude and in "passes": the time of one read-modify-write pass
 * over a state of the same size (two arrays of 2^n doubles), measured in
 * the same run at the same thread count. Medians of R repetitions.
 *
 * usage: bench_qaoa [R [n ...]]   (default: 5 repetitions, n = 16 20 24)
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>

#define LAYERS 4

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int r)
{
	qsort(v, (size_t)r, sizeof *v, cmp_double);
	return r % 2 ? v[r / 2] : 0.5 * (v[r / 2 - 1] + v[r / 2]);
}

typedef struct pass_arg {
	double *re, *im;
	size_t lo, hi;
} pass_arg;

/* A rotation of every amplitude: reads and writes both arrays once. */
static void *pass_part(void *p)
{
	pass_arg *a = p;
	const double c = 0.8, s = 0.6;
	size_t i;

	for (i = a->lo; i < a->hi; i++) {
		double x = a->re[i], y = a->im[i];
		a->re[i] = c * x - s * y;
		a->im[i] = s * x + c * y;
	}
	return NULL;
}

static double memory_pass(double *re, double *im, size_t N, int threads)
{
	pthread_t t[2];
	pass_arg a[2];
	double t0 = now();
	int k;

	for (k = 0; k < threads; k++) {
		a[k].re = re;
		a[k].im = im;
		a[k].lo = N / (size_t)threads * (size_t)k;
		a[k].hi = N / (size_t)threads * (size_t)(k + 1);
	}
	if (threads == 1) {
		pass_part(&a[0]);
	} else {
		for (k = 0; k < threads; k++)
			if (pthread_create(&t[k], NULL, pass_part, &a[k]))
				exit(1);
		for (k = 0; k < threads; k++)
			pthread_join(t[k], NULL);
	}
	return now() - t0;
}

/* A sparse random model: each variable coupled to about 3 others. */
static qubo_model *model_of(unsigned n)
{
	qubo_model *m = NULL;
	unsigned i, k;

	if (qubo_model_new(&m, n, NULL))
		return NULL;
	srand(n);
	for (i = 0; i < n; i++) {
		qubo_model_add_linear(m, i, (double)(rand() % 7 - 3));
		for (k = 0; k < 2; k++) {
			unsigned j = (unsigned)rand() % n;
			if (j != i)
				qubo_model_add_quadratic(m, i, j, (double)(rand() % 9 - 4));
		}
	}
	if (qubo_model_compile(m)) {
		qubo_model_free(m);
		return NULL;
	}
	return m;
}

int main(int argc, char **argv)
{
	static const unsigned defaults[] = { 16, 20, 24 };
	int reps = argc > 1 ? atoi(argv[1]) : 5, a, threads;
	double gam[LAYERS] = { 0.2, 0.3, 0.4, 0.5 }, bet[LAYERS] = { 0.6, 0.5, 0.3, 0.1 };
	double layer1 = 0.0;

	if (reps < 1 || reps > 1000) {
		fprintf(stderr, "usage: bench_qaoa [R [n ...]]\n");
		return 2;
	}
	printf("%-4s %-7s %12s %12s %10s %8s %9s\n", "n", "threads", "layer ms", "ns/amp",
	       "pass ms", "passes", "speedup");
	for (a = 2; a <= (argc > 2 ? argc - 1 : 4); a++) {
		unsigned n = argc > 2 ? (unsigned)atoi(argv[a]) : defaults[a - 2];
		size_t N = (size_t)1 << n, i;
		qubo_model *m = model_of(n);
		qubo_qaoa *q = NULL;
		double *re = malloc(N * sizeof *re), *im = malloc(N * sizeof *im);
		double *tl = malloc((size_t)reps * sizeof *tl), *tp = malloc((size_t)reps * sizeof *tp);
		int r;

		if (!m || !re || !im || !tl || !tp || qubo_qaoa_new(&q, m, 30, NULL)) {
			fprintf(stderr, "bench_qaoa: n = %u: %s\n", n, qubo_error_message());
			return 1;
		}
		for (i = 0; i < N; i++)
			re[i] = im[i] = 1.0 / (double)(i + 1);
		for (threads = 1; threads <= 2; threads++) {
			double ml, mp;
			qubo_qaoa_set_threads(q, threads);
			(void)qubo_qaoa_evolve(q, 1, gam, bet); /* warm up: pages, scratch */
			(void)memory_pass(re, im, N, threads);
			for (r = 0; r < reps; r++) {
				double t0 = now();
				if (qubo_qaoa_evolve(q, LAYERS, gam, bet)) {
					fprintf(stderr, "bench_qaoa: %s\n", qubo_error_message());
					return 1;
				}
				tl[r] = (now() - t0) / LAYERS;
				tp[r] = memory_pass(re, im, N, threads);
			}
			ml = median(tl, reps);
			mp = median(tp, reps);
			if (threads == 1)
				layer1 = ml;
			printf("%-4u %-7d %12.3f %12.3f %10.3f %8.2f %9.2f\n", n, threads, 1e3 * ml,
			       1e9 * ml / (double)N, 1e3 * mp, ml / mp, layer1 / ml);
		}
		qubo_qaoa_free(q);
		qubo_model_free(m);
		free(re);
		free(im);
		free(tl);
		free(tp);
	}
	return 0;
}
