/*
 * Dominating queens with simulated annealing, with and without group moves
 * (doc/solvers-sa.md, "Group moves"): for n x n boards, the share of reads
 * that reach the domination number γ, the wall time per read (one thread),
 * and the expected time to a first read at γ (time per read / share).
 *
 *   bench_domination [reads] [n ...]      defaults: 64 reads, n = 4 … 10
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>
#include <qubo/puzzle.h>

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(const char *what)
{
	fprintf(stderr, "bench_domination: %s: %s\n", what, qubo_error_message());
	return 1;
}

/* One run of reads anneals; prints reads at γ, the best energy, time/read. */
static int run(const qubo_puzzle *p, int n, int group_moves, int64_t reads, double gamma)
{
	const qubo_model *m;
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	uint64_t hits = 0, occ;
	size_t i;
	double t0, t, e, best = 0;
	char to[32] = "-";

	if (qubo_puzzle_model(p, &m) || qubo_solver_new(&s, "sa", NULL) ||
	    qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, reads) ||
	    qubo_solver_set_int(s, QUBO_PARAM_THREADS, 1) ||
	    qubo_solver_set_int(s, QUBO_PARAM_SEED, 1) ||
	    qubo_solver_set_int(s, QUBO_PARAM_GROUP_MOVES, group_moves))
		return fail("solver");
	t0 = wall();
	if (qubo_solver_sample(&set, s, m))
		return fail("sample");
	t = wall() - t0;
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		qubo_sampleset_get(set, i, NULL, 0, &e, &occ);
		if (!i)
			best = e;
		if (e <= gamma + 1e-9)
			hits += occ;
	}
	if (hits)
		snprintf(to, sizeof to, "%.1f", 1e3 * t / (double)hits);
	printf("%3d x %-3d %-12s %6zu %6llu/%-6lld %6g %10.3f %10s\n", n, n,
	       group_moves ? "group moves" : "single flips", qubo_model_num_variables(m),
	       (unsigned long long)hits, (long long)reads, best, 1e3 * t / (double)reads, to);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	static const int def[] = { 4, 5, 6, 7, 8, 9, 10 };
	int64_t reads = argc > 1 ? atoll(argv[1]) : 64;
	int k, count = argc > 2 ? argc - 2 : (int)(sizeof def / sizeof def[0]);

	if (reads < 1)
		return 2;
	printf("sa defaults (1000 sweeps, default β range), 1 thread, seed 1, %lld reads\n"
	       "board     moves         vars  reads at γ    best   ms/read   ms to γ\n",
	       (long long)reads);
	for (k = 0; k < count; k++) {
		int n = argc > 2 ? atoi(argv[k + 2]) : def[k];
		char text[32];
		qubo_puzzle *p = NULL;
		double gamma;

		snprintf(text, sizeof text, "domination %d\n", n);
		if (qubo_puzzle_parse(&p, text, strlen(text), NULL))
			return fail(text);
		if (qubo_puzzle_ground_energy(p, &gamma))
			return fail("the domination number is not known");
		if (run(p, n, 1, reads, gamma) || run(p, n, 0, reads, gamma))
			return 1;
		qubo_puzzle_free(p);
	}
	return 0;
}
