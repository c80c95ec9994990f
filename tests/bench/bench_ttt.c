/*
 * Time to target (TTT) of a solver on instances with a best-known energy:
 * Beasley's OR-Library UBQP instances (bqp50, bqp100, bqp250) and the G-set
 * Max-Cut graphs G1-G3, G43-G45, as qbsolv files whose comments carry
 * `c best <energy>` (doc/benchmarks.md defines the figures and gives them).
 *
 * Measures, per instance, with the public solver API only:
 *   for each setting S of a grid (sa: num_sweeps; tabu: num_iterations),
 *   one qubo_solver_sample() of R reads on one thread, timed with
 *   CLOCK_MONOTONIC:
 *     t(S)     = wall / R                       time per read
 *     p(S)     = reads at the best-known energy / R
 *                (E <= best + 1e-6 max(1, |best|), energies here are
 *                integers; a read below best - that is flagged as a new best)
 *     TTT(S)   = t(S) / p(S)                    (inf when p(S) = 0)
 *   The repetition's TTT is the least TTT(S) over the grid. K repetitions
 *   (different seeds) give the median TTT, with its min and max; p, t,
 *   the setting and TTT99 = t * max(1, ceil(ln 0.01 / ln(1 - p))) are
 *   those of the median repetition (for even K the lower middle one).
 *   With --direct, then: for K seeds, one run at the chosen setting with
 *   target_energy = best-known (same tolerance), num_reads = 64 / p (at
 *   least 256, at most --direct-reads) and a time limit; its wall time when
 *   it stops because a read reached the target ("time to first hit"); the
 *   median, inf when half or more of the runs did not reach it. Runs with
 *   a target anneal single reads, not 8 in lanes (doc/solvers-sa.md), so
 *   their reads are slower than the TTT's. --direct-only skips the grid:
 *   the direct runs use the grid's last setting and --direct-reads reads
 *   (e.g. pt: one read of many rounds until it hits, on each of K seeds).
 * The last line gives the medians (lower middle) over the instances. An
 * instance whose reads never reached the target shows p = 0 and TTT inf.
 *
 * Usage: bench_ttt [--solver NAME] [--reads R] [--reps K] [--sweeps S1,S2,...]
 *                  [--key KEY] [--set KEY=VALUE]... [--threads T] [--seed N]
 *                  [--direct] [--direct-only] [--time-limit SEC] [--direct-reads N]
 *                  [--quick]
 *                  FILE_OR_DIR...
 * Defaults: sa, R = 64, K = 3, T = 1 (the definition's one thread; T applies
 * to both measurements), seed 1, time limit 10 s, 65536 direct reads, the grid
 * 250,500,...,16000 sweeps for sa and pt (its rounds) and 1000,2000,...,64000
 * iterations for tabu (--sweeps sets the grid of any; other solvers run their defaults,
 * or a grid over --key). --set passes an option to the solver (an integer,
 * a double or else a string). A directory means its *.qubo files, sorted by
 * name. When QUBO_SHARED_DIR is set, a relative FILE_OR_DIR is taken under
 * it (the meson benchmarks ttt_bqp and ttt_gset pass `bqp` and `gset` with
 * QUBO_SHARED_DIR at the shared data beside the repository); a missing one
 * there is reported and the program exits 77 (skipped), any other missing
 * operand is an error (exit 1). --quick: R = 16, K = 1
 * and three settings of the default grid.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <qubo.h>

#include "util.h"

#define MAX_GRID 32
#define MAX_SETS 16

/* The lower middle of v[0..k) (sorted in place); inf sorts last. */
static double lower_median(double *v, size_t k)
{
	qsort(v, k, sizeof *v, tu_cmp_double);
	return v[(k - 1) / 2];
}

static void die(const char *what, int rc)
{
	fprintf(stderr, "bench_ttt: %s failed: %s (%s)\n", what, qubo_status_name(rc),
		qubo_error_message());
	exit(1);
}

typedef struct option_kv {
	const char *key, *value;
} option_kv;

typedef struct cfg {
	const char *solver, *key; /* key: the grid's option, NULL for none */
	long grid[MAX_GRID];
	size_t ngrid;
	int64_t reads, direct_reads;
	int reps, threads, direct, direct_only;
	uint64_t seed;
	double time_limit;
	option_kv sets[MAX_SETS];
	size_t nsets;
} cfg;

/* The tolerance of "equals the best-known energy". */
static double tolerance(double best)
{
	return 1e-6 * (fabs(best) > 1 ? fabs(best) : 1);
}

/* The `c best <energy>` comment of a qbsolv file; 0 when it has none. */
static int read_best(const char *path, double *best)
{
	size_t len;
	char *text = tu_read_file(path, &len), *line;
	int found = 0;

	if (!text)
		return 0;
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *end;

		if (strncmp(line, "c best ", 7) != 0)
			continue;
		*best = strtod(line + 7, &end);
		if (end != line + 7 && isfinite(*best)) {
			found = 1;
			break;
		}
	}
	free(text);
	return found;
}

/* KEY=VALUE: an integer, else a double, else a string; a double key given
 * an integer gets it as a double. */
static int set_option(qubo_solver *s, const char *key, const char *value)
{
	char *end;
	long long i;
	double d;
	int rc;

	errno = 0;
	i = strtoll(value, &end, 10);
	if (*value && !*end && !errno) {
		rc = qubo_solver_set_int(s, key, (int64_t)i);
		if (rc != QUBO_ERR_INVALID_ARG)
			return rc;
	}
	d = strtod(value, &end);
	if (*value && !*end)
		return qubo_solver_set_double(s, key, d);
	return qubo_solver_set_string(s, key, value);
}

static qubo_solver *make_solver(const cfg *c)
{
	qubo_solver *s;
	size_t i;
	int rc = qubo_solver_new(&s, c->solver, NULL);

	if (rc)
		die("qubo_solver_new", rc);
	if ((rc = qubo_solver_set_int(s, QUBO_PARAM_THREADS, c->threads)))
		die("setting threads", rc);
	for (i = 0; i < c->nsets; i++) {
		rc = set_option(s, c->sets[i].key, c->sets[i].value);
		if (rc) {
			fprintf(stderr, "bench_ttt: --set %s=%s: %s (%s)\n", c->sets[i].key,
				c->sets[i].value, qubo_status_name(rc), qubo_error_message());
			exit(2);
		}
	}
	return s;
}

/* Reads of @p set at or below the best-known energy (with the tolerance);
 * *below is set when one is lower than it (a new best). */
static uint64_t hits(const qubo_sampleset *set, double best, int *below)
{
	size_t i, n = qubo_sampleset_size(set);
	double tol = tolerance(best);
	uint64_t h = 0;

	for (i = 0; i < n; i++) {
		double e;
		uint64_t occ;

		if (qubo_sampleset_get(set, i, NULL, 0, &e, &occ))
			die("qubo_sampleset_get", QUBO_ERR_INTERNAL);
		if (e > best + tol)
			break; /* sorted by energy */
		if (e < best - tol)
			*below = 1;
		h += occ;
	}
	return h;
}

/* One setting of one repetition: *t the seconds per read, *p the success
 * fraction. */
static void measure(qubo_solver *s, const qubo_model *m, const cfg *c, uint64_t seed,
		    double best, double *t, double *p, int *below)
{
	qubo_sampleset *set;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	double t0, wall;
	int rc;

	if ((rc = qubo_solver_set_int(s, QUBO_PARAM_SEED, (int64_t)seed)))
		die("setting the seed", rc);
	t0 = tu_now();
	rc = qubo_solver_sample(&set, s, m);
	wall = tu_now() - t0;
	if (rc)
		die("qubo_solver_sample", rc);
	if (qubo_sampleset_get_info(set, &info) || info.num_samples != (uint64_t)c->reads) {
		fprintf(stderr, "bench_ttt: %llu reads returned, %lld asked\n",
			(unsigned long long)info.num_samples, (long long)c->reads);
		exit(1);
	}
	*t = wall / (double)c->reads;
	*p = (double)hits(set, best, below) / (double)c->reads;
	qubo_sampleset_free(set);
}

static double ttt99(double t, double p)
{
	double k;

	if (p <= 0)
		return HUGE_VAL;
	if (p >= 1)
		return t;
	k = ceil(log(0.01) / log1p(-p));
	return t * (k > 1 ? k : 1);
}

static void print_ms(double seconds)
{
	if (isinf(seconds))
		printf("%9s", "inf");
	else
		printf("%9.4g", seconds * 1e3);
}

/* Results of one instance for the summary line. */
typedef struct result {
	double ttt, ttt99, direct;
} result;

static void bench_file(const char *path, const cfg *c, result *out)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[64];
	size_t g, ng = c->key ? c->ngrid : 1, n;
	double best, *t, *p, rep_ttt[4096], sorted[4096], med;
	long *chosen;
	int k, below = 0, mid = 0;
	qubo_model *m;
	qubo_solver *s;
	int rc;

	snprintf(name, sizeof name, "%.*s", strlen(base) > 5 &&
		 !strcmp(base + strlen(base) - 5, ".qubo") ? (int)strlen(base) - 5 :
		 (int)strlen(base), base);
	out->ttt = out->ttt99 = out->direct = HUGE_VAL;
	if (!read_best(path, &best)) {
		printf("%-12s no `c best` line: skipped\n", name);
		out->ttt = nan("");
		return;
	}
	if ((rc = qubo_qbsolv_read_file_ex(&m, path, NULL)))
		die(path, rc);
	n = qubo_model_num_variables(m);
	s = make_solver(c);
	if ((rc = qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, c->reads)))
		die("setting num_reads", rc);
	t = malloc((size_t)c->reps * ng * sizeof *t);
	p = malloc((size_t)c->reps * ng * sizeof *p);
	chosen = malloc((size_t)c->reps * sizeof *chosen);
	if (!t || !p || !chosen)
		die("malloc", QUBO_ERR_NOMEM);
	for (k = 0; k < c->reps; k++) {
		size_t bestg = 0;

		rep_ttt[k] = HUGE_VAL;
		for (g = 0; g < ng && !c->direct_only; g++) {
			double *tk = &t[(size_t)k * ng + g], *pk = &p[(size_t)k * ng + g], v;

			if (c->key && (rc = qubo_solver_set_int(s, c->key, c->grid[g])))
				die(c->key, rc);
			measure(s, m, c, c->seed + 1000 * (uint64_t)k + g, best, tk, pk, &below);
			v = *pk > 0 ? *tk / *pk : HUGE_VAL;
			if (v < rep_ttt[k]) {
				rep_ttt[k] = v;
				bestg = g;
			}
		}
		chosen[k] = (long)bestg;
	}
	memcpy(sorted, rep_ttt, (size_t)c->reps * sizeof *sorted);
	med = lower_median(sorted, (size_t)c->reps);
	for (k = 0; k < c->reps; k++)
		if (rep_ttt[k] == med || (isinf(med) && isinf(rep_ttt[k]))) {
			mid = k;
			break;
		}
	g = (size_t)chosen[mid];
	if (c->direct_only)
		printf("%-12s %5zu %10.0f\n", name, n, best);
	else {
		double tm = t[(size_t)mid * ng + g], pm = p[(size_t)mid * ng + g];
		char setting[32];

		if (c->key && isinf(med))
			snprintf(setting, sizeof setting, "-");
		else if (c->key)
			snprintf(setting, sizeof setting, "%ld", c->grid[g]);
		else
			snprintf(setting, sizeof setting, "default");
		out->ttt = med;
		out->ttt99 = ttt99(tm, pm);
		if (isinf(med))
			printf("%-12s %5zu %10.0f %7s %6s %9s ", name, n, best, setting, "0", "-");
		else
			printf("%-12s %5zu %10.0f %7s %6.3f %9.4f ", name, n, best, setting, pm,
			       tm * 1e3);
		print_ms(med);
		printf(" [");
		print_ms(sorted[0]);
		printf(", ");
		print_ms(sorted[c->reps - 1]);
		printf("] ");
		print_ms(out->ttt99);
		printf("%s\n", below ? "  (a read went below the best-known energy)" : "");
		fflush(stdout);
	}
	if (c->direct) {
		/* The setting of the median repetition; the grid's largest when no
		 * repetition reached the target. */
		long setting = c->key ? c->grid[isinf(med) ? c->ngrid - 1 : g] : 0;
		int64_t reads = c->direct_reads;
		double pm = isinf(med) ? 0 : p[(size_t)mid * ng + g], dt[4096];
		int reached = 0;

		/* 64 / p reads miss the target with probability about e^-64;
		 * more would only cost their allocation (the built-in solvers
		 * allocate every read's sample up front). */
		if (pm > 0 && (double)reads > 64 / pm)
			reads = (int64_t)ceil(64 / pm) < 256 ? 256 : (int64_t)ceil(64 / pm);
		if (reads > c->direct_reads)
			reads = c->direct_reads;
		if (reads * (int64_t)(n + 8) > (int64_t)(QUBO_MAX_SAMPLE_BYTES / 2))
			reads = (int64_t)(QUBO_MAX_SAMPLE_BYTES / 2 / (n + 8));
		if (c->key && (rc = qubo_solver_set_int(s, c->key, setting)))
			die(c->key, rc);
		if ((rc = qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, reads)) ||
		    (rc = qubo_solver_set_double(s, QUBO_PARAM_TARGET_ENERGY,
						 best + tolerance(best))) ||
		    (rc = qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, c->time_limit)))
			die("setting the direct run's options", rc);
		for (k = 0; k < c->reps; k++) {
			qubo_sampleset *set;
			qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
			double t0;

			if ((rc = qubo_solver_set_int(s, QUBO_PARAM_SEED,
						      (int64_t)(c->seed + 777777 + (uint64_t)k))))
				die("setting the seed", rc);
			t0 = tu_now();
			rc = qubo_solver_sample(&set, s, m);
			dt[k] = tu_now() - t0;
			if (rc < 0)
				die("qubo_solver_sample", rc);
			if (qubo_sampleset_get_info(set, &info))
				die("qubo_sampleset_get_info", QUBO_ERR_INTERNAL);
			if (info.reached_target)
				reached++;
			else
				dt[k] = HUGE_VAL;
			qubo_sampleset_free(set);
		}
		out->direct = lower_median(dt, (size_t)c->reps);
		if (c->key)
			printf("%-12s   direct, %s %ld, %lld reads, limit %g s: first hit ", name,
			       c->key, setting, (long long)reads, c->time_limit);
		else
			printf("%-12s   direct, %lld reads, limit %g s: first hit ", name,
			       (long long)reads, c->time_limit);
		print_ms(out->direct);
		printf(" ms [");
		print_ms(dt[0]);
		printf(", ");
		print_ms(dt[c->reps - 1]);
		printf("], reached %d/%d\n", reached, c->reps);
		fflush(stdout);
	}
	free(t);
	free(p);
	free(chosen);
	qubo_solver_free(s);
	qubo_model_free(m);
}

static size_t parse_grid(const char *text, long *grid)
{
	size_t k = 0;
	char *end;

	while (*text && k < MAX_GRID) {
		long v = strtol(text, &end, 10);

		if (end == text || v < 1 || (*end && *end != ','))
			return 0;
		grid[k++] = v;
		text = *end ? end + 1 : end;
	}
	return *text ? 0 : k;
}

/* $QUBO_SHARED_DIR when the operand @p arg is taken under it (it is set and
 * @p arg is relative), else NULL. */
static const char *shared_dir(const char *arg)
{
	const char *root = getenv("QUBO_SHARED_DIR");

	return root && *root && arg[0] != '/' ? root : NULL;
}

/* Where a FILE_OR_DIR operand is. */
static void resolve(const char *arg, char *path, size_t cap)
{
	if (shared_dir(arg))
		snprintf(path, cap, "%s/%s", shared_dir(arg), arg);
	else
		snprintf(path, cap, "%s", arg);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_ttt [--solver NAME] [--reads R] [--reps K] "
			"[--sweeps S1,S2,...] [--key KEY] [--set KEY=VALUE]... [--threads T] "
			"[--seed N] [--direct] [--direct-only] [--time-limit SEC] [--direct-reads N] "
			"[--quick] "
			"FILE_OR_DIR...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const long sa_grid[] = { 250, 500, 1000, 2000, 4000, 8000, 16000 };
	static const long tabu_grid[] = { 1000, 2000, 4000, 8000, 16000, 32000, 64000 };
	cfg c;
	const char *operands[256];
	size_t nops = 0, i, j, nres = 0, cap_res = 64;
	int quick = 0, grid_given = 0, key_given = 0, a;
	result *res;
	double *col;

	memset(&c, 0, sizeof c);
	c.solver = "sa";
	c.reads = 64;
	c.reps = 3;
	c.threads = 1;
	c.seed = 1;
	c.time_limit = 10;
	c.direct_reads = 65536;
	for (a = 1; a < argc; a++) {
		const char *o = argv[a];
		int more = a + 1 < argc;

		if (!strcmp(o, "--solver") && more)
			c.solver = argv[++a];
		else if (!strcmp(o, "--reads") && more)
			c.reads = atoll(argv[++a]);
		else if (!strcmp(o, "--reps") && more)
			c.reps = atoi(argv[++a]);
		else if (!strcmp(o, "--threads") && more)
			c.threads = atoi(argv[++a]);
		else if (!strcmp(o, "--seed") && more)
			c.seed = strtoull(argv[++a], NULL, 10);
		else if (!strcmp(o, "--sweeps") && more) {
			if (!(c.ngrid = parse_grid(argv[++a], c.grid))) {
				fprintf(stderr, "bench_ttt: --sweeps wants positive integers "
						"separated by commas (at most %d)\n", MAX_GRID);
				return 2;
			}
			grid_given = 1;
		} else if (!strcmp(o, "--key") && more) {
			c.key = argv[++a];
			key_given = 1;
		} else if (!strcmp(o, "--set") && more) {
			char *eq = strchr(argv[++a], '=');

			if (!eq || eq == argv[a] || c.nsets == MAX_SETS)
				usage();
			*eq = '\0';
			c.sets[c.nsets].key = argv[a];
			c.sets[c.nsets++].value = eq + 1;
		} else if (!strcmp(o, "--direct"))
			c.direct = 1;
		else if (!strcmp(o, "--direct-only"))
			c.direct = c.direct_only = 1;
		else if (!strcmp(o, "--time-limit") && more)
			c.time_limit = atof(argv[++a]);
		else if (!strcmp(o, "--direct-reads") && more)
			c.direct_reads = atoll(argv[++a]);
		else if (!strcmp(o, "--quick"))
			quick = 1;
		else if (o[0] == '-' && o[1])
			usage();
		else if (nops < sizeof operands / sizeof *operands)
			operands[nops++] = o;
	}
	if (!key_given) {
		if (!strcmp(c.solver, "sa") || !strcmp(c.solver, "pt"))
			c.key = QUBO_PARAM_NUM_SWEEPS;
		else if (!strcmp(c.solver, "tabu"))
			c.key = QUBO_PARAM_NUM_ITERATIONS;
	}
	if (!grid_given && c.key) {
		const long *d = !strcmp(c.solver, "tabu") ? tabu_grid : sa_grid;

		c.ngrid = 7;
		memcpy(c.grid, d, sizeof sa_grid);
	}
	if (quick) {
		c.reads = 16;
		c.reps = 1;
		if (!grid_given && c.key) {
			c.grid[1] = c.grid[3];
			c.grid[2] = c.grid[6];
			c.ngrid = 3;
		}
	}
	if (grid_given && !c.key) {
		fprintf(stderr, "bench_ttt: solver %s has no default grid option: give --key\n",
			c.solver);
		return 2;
	}
	if (!nops || c.reads < 1 || c.reps < 1 || c.reps > 4096 || c.threads < 0 ||
	    c.direct_reads < 1 || !(c.time_limit >= 0))
		usage();

	for (i = 0; i < nops; i++) {
		char path[4096];
		struct stat st;

		resolve(operands[i], path, sizeof path);
		if (!stat(path, &st))
			continue;
		if (shared_dir(operands[i])) {
			printf("bench_ttt: %s not found (%s): the shared instances are not "
			       "beside the repository; skipped\n", path, strerror(errno));
			return 77;
		}
		fprintf(stderr, "bench_ttt: %s: %s\n", path, strerror(errno));
		return 1;
	}
	qubo_solver_free(make_solver(&c)); /* the name and options, checked up front */
	res = malloc(cap_res * sizeof *res);
	if (!res)
		die("malloc", QUBO_ERR_NOMEM);
	printf("time to target: solver %s, %lld reads x %d repetitions, %d thread(s), "
	       "grid %s", c.solver, (long long)c.reads, c.reps, c.threads,
	       c.key ? c.key : "(none)");
	for (i = 0; c.key && i < c.ngrid; i++)
		printf("%c%ld", i ? ',' : ' ', c.grid[i]);
	printf("\n%-12s %5s %10s %7s %6s %9s %9s  %-21s %9s\n", "instance", "n", "best",
	       "setting", "p", "t (ms)", "TTT (ms)", "[min, max]", "TTT99");
	for (i = 0; i < nops; i++) {
		char path[4096], file[8192];
		struct stat st;
		char **names = NULL;
		size_t count = 1;

		resolve(operands[i], path, sizeof path);
		if (stat(path, &st)) {
			fprintf(stderr, "bench_ttt: %s: %s\n", path, strerror(errno));
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			names = tu_list_files(path, ".qubo", &count);
			if (!names) {
				printf("bench_ttt: no *.qubo file in %s: skipped\n", path);
				return 77;
			}
		}
		for (j = 0; j < count; j++) {
			if (nres == cap_res) {
				result *grown = realloc(res, (cap_res *= 2) * sizeof *res);

				if (!grown)
					die("realloc", QUBO_ERR_NOMEM);
				res = grown;
			}
			if (names)
				snprintf(file, sizeof file, "%s/%s", path, names[j]);
			else
				snprintf(file, sizeof file, "%s", path);
			bench_file(file, &c, &res[nres]);
			if (!isnan(res[nres].ttt))
				nres++;
		}
		tu_free_names(names, names ? count : 0);
	}
	if (!nres)
		return 0;
	col = malloc(nres * sizeof *col);
	if (!col)
		die("malloc", QUBO_ERR_NOMEM);
	printf("median over %zu instances: ", nres);
	if (c.direct_only)
		goto direct;
	printf("TTT ");
	for (i = 0; i < nres; i++)
		col[i] = res[i].ttt;
	print_ms(lower_median(col, nres));
	printf(" ms, TTT99 ");
	for (i = 0; i < nres; i++)
		col[i] = res[i].ttt99;
	print_ms(lower_median(col, nres));
	printf(" ms");
	printf(", ");
direct:
	if (c.direct) {
		printf("first hit (direct) ");
		for (i = 0; i < nres; i++)
			col[i] = res[i].direct;
		print_ms(lower_median(col, nres));
		printf(" ms");
	}
	printf("\n");
	free(col);
	free(res);
	return 0;
}
