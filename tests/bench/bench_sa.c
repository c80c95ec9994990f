/*
 * Benchmark of the simulated annealing kernel (lib/qubo/solvers/sa.c).
 *
 * Models, built with the public model API:
 *   queens32, queens64  N-Queens (doc/formulations.md): per cell linear −2
 *                       (row and column exactly-one, P = 1), 2 per pair in a
 *                       row or column, 1 per pair on a common diagonal,
 *                       offset 2N. Integer weights, ground energy 0.
 *   sparse1000          n = 1000, 5000 random distinct couplers (average
 *                       degree 10), linear and coupler weights uniform in
 *                       [−1, 1]. Real weights.
 *
 * Measures, one thread unless said otherwise, median of --reps runs in this
 * process (each run with a different seed):
 *   ns/flip   seconds / flip attempts, where the kernel's attempt count is
 *             checked against reads × sweeps × n; wall (the kernel's sampling
 *             time) and CPU (the process, including the kernel's setup);
 *   TTS       (queens) ms per read / fraction of reads with energy 0;
 *   speedup   reads per second with 2 threads over 1 thread.
 * It also prints a checksum of the first run's samples: builds and flags
 * (--portable, --no-lanes, -DQUBO_SA_NO_SIMD) must agree on it.
 *
 * Usage: bench_sa [--model NAME]... [--sweeps S] [--reads R] [--reps K]
 *                 [--beta HOT COLD] [--threads T] [--no-tts] [--no-speedup]
 *                 [--portable] [--no-lanes] [--no-f32] [--write DIR]
 *                 [--quick]
 * --portable, --no-lanes and --no-f32 set the kernel flags of the same names
 * (lib/qubo/solvers/kernel.h); --write DIR also writes each model to
 * DIR/NAME.qubo, to time the same model with the qubo command-line tool.
 * Reads run 8 at a time in lanes (see doc/solvers-sa.md): use multiples of 8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/kernel.h"
#include "util.h"

static void die(const char *what, int rc)
{
	fprintf(stderr, "bench_sa: %s failed: %s (%s)\n", what, qubo_status_name(rc),
		qubo_error_message());
	exit(1);
}

static qubo_model *queens(uint32_t N)
{
	qubo_model *m;
	uint32_t r, c, r2, c2;
	int rc = qubo_model_new(&m, (size_t)N * N, NULL);

	if (rc)
		die("qubo_model_new", rc);
	qubo_model_add_offset(m, 2.0 * N);
	for (r = 0; r < N; r++)
		for (c = 0; c < N; c++) {
			uint32_t v = r * N + c;
			qubo_model_add_linear(m, v, -2.0);
			for (r2 = 0; r2 < N; r2++)
				for (c2 = 0; c2 < N; c2++) {
					uint32_t u = r2 * N + c2;
					int dr = (int)r2 - (int)r, dc = (int)c2 - (int)c;
					if (u <= v)
						continue;
					if (r2 == r || c2 == c)
						rc = qubo_model_add_quadratic(m, v, u, 2.0);
					else if (dr == dc || dr == -dc)
						rc = qubo_model_add_quadratic(m, v, u, 1.0);
					if (rc)
						die("qubo_model_add_quadratic", rc);
				}
		}
	rc = qubo_model_compile(m);
	if (rc)
		die("qubo_model_compile", rc);
	return m;
}

static qubo_model *sparse(size_t n, size_t edges, uint64_t seed)
{
	qubo_model *m;
	tu_rng g = { seed };
	size_t i, k = 0;
	uint8_t *seen;
	int rc = qubo_model_new(&m, n, NULL);

	if (rc)
		die("qubo_model_new", rc);
	seen = calloc(n * n, 1);
	if (!seen)
		die("calloc", QUBO_ERR_NOMEM);
	for (i = 0; i < n; i++)
		qubo_model_add_linear(m, (uint32_t)i, 2 * tu_unit(&g) - 1);
	while (k < edges) {
		uint32_t a = (uint32_t)tu_below(&g, n), b = (uint32_t)tu_below(&g, n);
		if (a == b || seen[a * n + b])
			continue;
		seen[a * n + b] = seen[b * n + a] = 1;
		rc = qubo_model_add_quadratic(m, a, b, 2 * tu_unit(&g) - 1);
		if (rc)
			die("qubo_model_add_quadratic", rc);
		k++;
	}
	free(seen);
	rc = qubo_model_compile(m);
	if (rc)
		die("qubo_model_compile", rc);
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int k)
{
	qsort(v, (size_t)k, sizeof *v, cmp_double);
	return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

typedef struct cfg {
	size_t sweeps, reads;
	int reps, threads;
	double bh, bc;
	int tts, speedup;
	unsigned flags;
} cfg;

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t checksum; /* FNV-1a over the samples of the first run */

/* One run; returns wall seconds (the kernel's), *cpu the process CPU seconds,
 * *hits the reads with energy <= 1e-9. */
static double run_once(const qubo_model *m, const cfg *c, size_t reads, int threads,
		       uint64_t seed, size_t *hits, double *mean_e, double *cpu)
{
	size_t n = qubo_model_num_variables(m), r;
	/* keep_lowest: the "sa" backend's default (on when the schedule cools) */
	qubo__sa_params p = { c->sweeps, c->bh, c->bc, c->flags,
			      (c->bh == 0 && c->bc == 0) || c->bc > c->bh };
	qubo__run run;
	qubo__result res;
	uint8_t *s = malloc(reads * n);
	double *e = malloc(reads * sizeof *e);
	int rc;

	memset(&run, 0, sizeof run);
	run.num_reads = reads;
	run.seed = seed;
	run.threads = threads;
	if (!s || !e)
		die("malloc", QUBO_ERR_NOMEM);
	*cpu = cpu_now();
	rc = qubo__sa_sample(m, &p, &run, s, e, &res);
	*cpu = cpu_now() - *cpu;
	if (rc)
		die("qubo__sa_sample", rc);
	if (res.reads_done != reads || res.flips != (uint64_t)reads * c->sweeps * n) {
		fprintf(stderr, "bench_sa: attempt count %llu, expected %llu\n",
			(unsigned long long)res.flips,
			(unsigned long long)((uint64_t)reads * c->sweeps * n));
		exit(1);
	}
	if (!checksum) {
		size_t i;
		checksum = 0xCBF29CE484222325ull;
		for (i = 0; i < reads * n; i++)
			checksum = (checksum ^ s[i]) * 0x100000001B3ull;
	}
	*hits = 0;
	*mean_e = 0;
	for (r = 0; r < reads; r++) {
		if (e[r] <= 1e-9)
			(*hits)++;
		*mean_e += e[r] / (double)reads;
	}
	free(s);
	free(e);
	return res.seconds;
}

static void bench_model(const char *name, const qubo_model *m, const cfg *c, int is_queens)
{
	size_t n = qubo_model_num_variables(m), hits, tot_hits = 0;
	double ns[64], cns[64], t1[64], t2[64], mean_e, tot_e = 0, bh = c->bh, bc = c->bc;
	double cpu, wall_med, cpu_med, cpu_min;
	int k, reps = c->reps > 64 ? 64 : c->reps;

	if (bh == 0 && bc == 0)
		qubo__sa_default_betas(m, &bh, &bc);
	checksum = 0;
	for (k = 0; k < reps; k++) {
		double s = run_once(m, c, c->reads, c->threads, 1000 + (uint64_t)k, &hits,
				    &mean_e, &cpu);
		double att = (double)c->reads * (double)c->sweeps * (double)n;
		ns[k] = s * 1e9 / att;
		cns[k] = cpu * 1e9 / att;
		tot_hits += hits;
		tot_e += mean_e / reps;
	}
	wall_med = median(ns, reps);
	cpu_med = median(cns, reps);
	cpu_min = cns[0];
	printf("%-11s n=%-5zu sweeps=%zu reads=%zu threads=%d beta=[%.4g, %.4g]: "
	       "%.3f ns/flip wall (median of %d; min %.3f max %.3f), %.3f ns/flip CPU (min %.3f), "
	       "mean energy %.4f, samples %016llx\n",
	       name, n, c->sweeps, c->reads, c->threads, bh, bc, wall_med, reps,
	       ns[0], ns[reps - 1], cpu_med, cpu_min, tot_e, (unsigned long long)checksum);
	if (is_queens && c->tts) {
		double frac = (double)tot_hits / ((double)reps * (double)c->reads);
		double ms = wall_med * 1e-6 * (double)c->sweeps * (double)n;
		double cms = cpu_med * 1e-6 * (double)c->sweeps * (double)n;
		if (frac > 0)
			printf("%-11s   TTS %.3f ms wall, %.3f ms CPU (%.3f ms per read, %zu/%zu "
			       "reads at energy 0)\n", name, ms / frac, cms / frac, ms, tot_hits,
			       (size_t)reps * c->reads);
		else
			printf("%-11s   TTS inf (no read of %zu reached energy 0)\n", name,
			       (size_t)reps * c->reads);
	}
	if (c->speedup) {
		size_t reads = c->reads < 32 ? 32 : c->reads;
		for (k = 0; k < reps; k++) {
			t1[k] = run_once(m, c, reads, 1, 7, &hits, &mean_e, &cpu);
			t2[k] = run_once(m, c, reads, 2, 7, &hits, &mean_e, &cpu);
		}
		printf("%-11s   2 threads: %.2fx the reads/s of 1 (median %d runs, %zu reads)\n",
		       name, median(t1, reps) / median(t2, reps), reps, reads);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	cfg c = { 1000, 16, 5, 1, 0, 0, 1, 1, 0 };
	const char *models[8], *dir = NULL;
	int nm = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--model") && i + 1 < argc && nm < 8)
			models[nm++] = argv[++i];
		else if (!strcmp(argv[i], "--sweeps") && i + 1 < argc)
			c.sweeps = (size_t)atol(argv[++i]);
		else if (!strcmp(argv[i], "--reads") && i + 1 < argc)
			c.reads = (size_t)atol(argv[++i]);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			c.reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			c.threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--beta") && i + 2 < argc) {
			c.bh = atof(argv[++i]);
			c.bc = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--no-tts"))
			c.tts = 0;
		else if (!strcmp(argv[i], "--write") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--portable"))
			c.flags |= QUBO__SA_PORTABLE;
		else if (!strcmp(argv[i], "--no-f32"))
			c.flags |= QUBO__SA_NO_F32;
		else if (!strcmp(argv[i], "--no-lanes"))
			c.flags |= QUBO__SA_NO_LANES;
		else if (!strcmp(argv[i], "--no-speedup"))
			c.speedup = 0;
		else if (!strcmp(argv[i], "--quick")) {
			c.reads = 8;
			c.reps = 5;
			c.speedup = 0;
		} else {
			fprintf(stderr, "bench_sa: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	if (c.sweeps < 1 || c.reads < 1 || c.reps < 1 || c.threads < 1) {
		fprintf(stderr, "bench_sa: sweeps, reads, reps and threads must be positive\n");
		return 2;
	}
	if (!nm) {
		models[nm++] = "queens32";
		models[nm++] = "queens64";
		models[nm++] = "sparse1000";
	}
	for (i = 0; i < nm; i++) {
		qubo_model *m;
		int q = 1;
		if (!strcmp(models[i], "queens32"))
			m = queens(32);
		else if (!strcmp(models[i], "queens64"))
			m = queens(64);
		else if (!strcmp(models[i], "sparse1000")) {
			m = sparse(1000, 5000, 42);
			q = 0;
		} else {
			fprintf(stderr, "bench_sa: unknown model %s\n", models[i]);
			return 2;
		}
		if (dir) {
			char path[4096];
			int rc;
			snprintf(path, sizeof path, "%s/%s.qubo", dir, models[i]);
			rc = qubo_qbsolv_write_file(m, path);
			if (rc)
				die("qubo_qbsolv_write_file", rc);
		}
		bench_model(models[i], m, &c, q);
		qubo_model_free(m);
	}
	return 0;
}
