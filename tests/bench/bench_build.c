/*
 * Benchmark: build and compile the N-Queens QUBO (doc/formulations.md)
 * through the public penalty API, then evaluate energies in batches.
 *
 *   bench_build N [REPS]
 *
 * Prints one line per repetition and a summary with medians: build and
 * compile seconds, couplers per second, bytes per coupler of the compiled
 * form, peak RSS of the process (getrusage), and nanoseconds per coupler of
 * batch energy evaluation (random samples, about 2·10⁹ coupler visits;
 * every coupler of the model counts once per sample).
 */
#include <qubo.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "util.h"

#define CHECK(call)                                                                  \
	do {                                                                         \
		int rc_ = (call);                                                    \
		if (rc_ != QUBO_OK) {                                                \
			fprintf(stderr, "%s: %s\n", #call, qubo_error_message());    \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

/* Rows and columns: exactly one queen (P = 1); diagonals: at most one. */
static qubo_model *build(int n)
{
	qubo_model *m;
	qubo_lit *l = malloc(sizeof *l * (size_t)n);
	int r, c, d, k;

	if (!l)
		exit(1);
	CHECK(qubo_model_new(&m, (size_t)n * (size_t)n, NULL));
	for (r = 0; r < n; r++) {
		for (c = 0; c < n; c++)
			l[c] = QUBO_LIT((uint32_t)(r * n + c));
		CHECK(qubo_penalty_exactly(m, l, (size_t)n, 1, 1.0));
	}
	for (c = 0; c < n; c++) {
		for (r = 0; r < n; r++)
			l[r] = QUBO_LIT((uint32_t)(r * n + c));
		CHECK(qubo_penalty_exactly(m, l, (size_t)n, 1, 1.0));
	}
	for (d = -(n - 1); d <= n - 1; d++) {
		for (r = 0, k = 0; r < n; r++)
			if (r - d >= 0 && r - d < n)
				l[k++] = QUBO_LIT((uint32_t)(r * n + r - d));
		CHECK(qubo_penalty_at_most_one(m, l, (size_t)k, 1.0));
	}
	for (d = 0; d <= 2 * n - 2; d++) {
		for (r = 0, k = 0; r < n; r++)
			if (d - r >= 0 && d - r < n)
				l[k++] = QUBO_LIT((uint32_t)(r * n + d - r));
		CHECK(qubo_penalty_at_most_one(m, l, (size_t)k, 1.0));
	}
	free(l);
	return m;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	int reps = argc > 2 ? atoi(argv[2]) : 5, i;
	double tb[64], tc[64], tt[64], te[64], bpc = 0.0;
	size_t couplers = 0;
	struct rusage ru;

	if (n < 1 || reps < 1 || reps > 64) {
		fprintf(stderr, "usage: bench_build N [REPS <= 64]\n");
		return 2;
	}
	for (i = 0; i < reps; i++) {
		qubo_model_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0 };
		double t0 = tu_now(), t1, t2;
		qubo_model *m = build(n);
		t1 = tu_now();
		CHECK(qubo_model_compile(m));
		t2 = tu_now();
		CHECK(qubo_model_get_stats(m, &st));
		couplers = st.num_couplers;
		bpc = (double)st.compiled_bytes / (double)st.num_couplers;
		tb[i] = t1 - t0;
		tc[i] = t2 - t1;
		tt[i] = t2 - t0;
		{
			size_t ns = 1 + 2000000000u / (st.num_couplers + 1), nv = st.num_variables, k;
			uint8_t *xs = malloc(ns * nv);
			double *e = malloc(ns * sizeof *e), t3;
			uint64_t s = 12345u + (uint64_t)i;
			if (!xs || !e)
				return 1;
			for (k = 0; k < ns * nv; k++) {
				s = s * 6364136223846793005u + 1442695040888963407u;
				xs[k] = (uint8_t)(s >> 63);
			}
			t3 = tu_now();
			CHECK(qubo_model_energy_batch(m, xs, ns, nv, e));
			te[i] = (tu_now() - t3) * 1e9 / ((double)ns * (double)couplers);
			free(xs);
			free(e);
		}
		printf("rep %d: build %.4f s, compile %.4f s, total %.4f s, energy %.3f ns/coupler\n",
		       i + 1, tb[i], tc[i], tt[i], te[i]);
		qubo_model_free(m);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("nqueens N=%d: %zu couplers; median over %d: build %.4f s, compile %.4f s, "
	       "total %.4f s, %.1f M couplers/s; %.2f bytes/coupler; peak RSS %.1f MiB; "
	       "batch energy %.3f ns/coupler\n",
	       n, couplers, reps, tu_median(tb, (size_t)reps), tu_median(tc, (size_t)reps),
	       tu_median(tt, (size_t)reps), (double)couplers / tu_median(tt, (size_t)reps) / 1e6,
	       bpc, (double)ru.ru_maxrss / 1024.0, tu_median(te, (size_t)reps));
	return 0;
}
