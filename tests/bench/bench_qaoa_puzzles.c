/*
 * QAOA on reduced puzzles: for each puzzle whose model, at the least
 * reducing level (none, clues, full) that leaves 1 to MAX variables, fits
 * the simulator, the probability of measuring a ground state and the
 * expectation <C> of the energy after qubo_qaoa_optimize() at each depth
 * p = 1..P (each depth optimised on its own call, which runs the INTERP
 * schedule from depth 1), with the seconds of each call; then whether the
 * lowest of R reads of the depth-P state is a ground state and decodes to
 * a board the rule checker accepts.
 *
 * Puzzles: the shared LinkedIn Queens levels (samimsu-*, the daily and the
 * bonus levels), the shared 6 x 6 Tango levels (rntango-*), read in place
 * from $QUBO_PUZZLES_DIR, and small hand-made Takuzu written here. A shared
 * level that no reduction brings to 1 to MAX variables gets a line that
 * says how many its clue-level and full models have.
 *
 * Summary per set and over all: the median ground-state probability and the
 * median <C> / <C>_uniform (the expectation relative to the uniform state's,
 * depth 0) at each p, and how many lowest reads were valid boards.
 *
 * usage: bench_qaoa_puzzles [--all] [--max-vars N] [--max-p P] [--reads R]
 *                           [--iterations K] [--threads T] [--seed S]
 *   default: a quick run, the hand-made Takuzu and the two smallest levels
 *   of each shared set, with at most 16 variables; --all: every level,
 *   with at most 20 variables unless --max-vars says otherwise (at most 26).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>
#include <qubo/puzzle.h>
#include <qubo/qaoa.h>

#include "util.h"

#define MAX_FILES 4096
#define MAX_P 16
#define MAX_CELLS 1024
#define MAX_VARS 26

static double median(double *v, size_t n)
{
	if (!n)
		return (double)NAN;
	qsort(v, n, sizeof *v, tu_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Small Takuzu, hand-made: without distinct lines (every variable a cell)
 * and one classic, whose witnesses of distinct lines are variables too. */
static const struct {
	const char *name;
	const char *text;
} takuzu[] = {
	{ "takuzu-4-nounique-empty", "takuzu 4 nounique\n....\n....\n....\n....\n" },
	{ "takuzu-4-nounique-a", "takuzu 4 nounique\n.0..\n1.1.\n...1\n..0.\n" },
	{ "takuzu-4-nounique-b", "takuzu 4 nounique\n1...\n....\n..0.\n....\n" },
	{ "takuzu-6-nounique-a",
	  "takuzu 6 nounique\n1.0...\n001...\n...1.0\n010..1\n.0....\n1..100\n" },
	{ "takuzu-6-nounique-b",
	  "takuzu 6 nounique\n11001.\n0.10..\n.1.1.0\n.1....\n...1.1\n.0.1..\n" },
	{ "takuzu-6-distinct", "takuzu 6\n11001.\n0.10..\n.1.1.0\n.1....\n...1.1\n.0.1..\n" },
};

struct config {
	int all;
	size_t max_vars, max_p, reads, iterations;
	int threads;
	uint64_t seed;
};

/* One set's figures, for the summary. */
struct set {
	const char *label;
	size_t runs, skipped, ground, valid;
	double *prob[MAX_P], *ratio[MAX_P];
	double seconds;
};

static int set_init(struct set *s, const char *label, size_t cap)
{
	size_t k;

	memset(s, 0, sizeof *s);
	s->label = label;
	for (k = 0; k < MAX_P; k++) {
		s->prob[k] = malloc(cap * sizeof(double));
		s->ratio[k] = malloc(cap * sizeof(double));
		if (!s->prob[k] || !s->ratio[k])
			return -1;
	}
	return 0;
}

static void set_free(struct set *s)
{
	size_t k;

	for (k = 0; k < MAX_P; k++) {
		free(s->prob[k]);
		free(s->ratio[k]);
	}
}

static const char *level_name(int32_t level)
{
	return level == QUBO_REDUCE_NONE ? "none" : level == QUBO_REDUCE_CLUES ? "clues" : "full";
}

static size_t model_vars(const qubo_puzzle *p)
{
	const qubo_model *m = NULL;

	qubo_puzzle_model(p, &m);
	return qubo_model_num_variables(m);
}

/* The puzzle at the least reducing level whose model has 1 to max_vars
 * variables; NULL (and the clue-level and full counts) when there is none. */
static qubo_puzzle *pick_level(const char *name, const char *text, size_t len, size_t max_vars,
			       int32_t *level_out, size_t *clues_out, size_t *full_out, int *err)
{
	static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };
	size_t l;

	*err = 0;
	for (l = 0; l < 3; l++) {
		qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
		qubo_puzzle *p = NULL;
		size_t n;
		int rc;

		o.reduce = levels[l];
		rc = qubo_puzzle_parse(&p, text, len, &o);
		if (rc != QUBO_OK) {
			fprintf(stderr, "%s: %s: %s\n", name, qubo_status_name(rc),
				qubo_error_message());
			*err = 1;
			return NULL;
		}
		n = model_vars(p);
		if (levels[l] == QUBO_REDUCE_CLUES)
			*clues_out = n;
		if (levels[l] == QUBO_REDUCE_FULL)
			*full_out = n;
		if (n >= 1 && n <= max_vars) {
			*level_out = levels[l];
			return p;
		}
		qubo_puzzle_free(p);
	}
	return NULL;
}

/* Runs one puzzle and prints its line; returns -1 on an error. */
static int run_puzzle(const struct config *cfg, struct set *s, const char *name, const char *text,
		      size_t len)
{
	qubo_puzzle *p;
	const qubo_model *m = NULL;
	qubo_qaoa *q = NULL;
	qubo_puzzle_stats st;
	double gammas[MAX_P], betas[MAX_P], ground, uniform_mean, t_all, best = (double)INFINITY;
	uint8_t *reads = NULL, board[MAX_CELLS];
	size_t clues = 0, full = 0, n, k, r, lowest = 0, cells, viol = 1;
	uint64_t count = 0;
	int32_t level = 0;
	int err, rc;

	p = pick_level(name, text, len, cfg->max_vars, &level, &clues, &full, &err);
	if (err)
		return -1;
	if (!p) {
		printf("%-30s  -    n > %zu (clues %zu, full %zu): not run\n", name, cfg->max_vars,
		       clues, full);
		fflush(stdout);
		s->skipped++;
		return 0;
	}
	t_all = tu_now();
	qubo_puzzle_model(p, &m);
	n = qubo_model_num_variables(m);
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	qubo_puzzle_get_stats(p, &st);
	cells = st.width * st.height;
	rc = qubo_qaoa_new(&q, m, 0, NULL);
	if (rc == QUBO_OK)
		rc = qubo_qaoa_set_threads(q, cfg->threads);
	if (rc == QUBO_OK)
		rc = qubo_qaoa_lowest_energy(q, &ground, &count);
	if (rc == QUBO_OK)
		rc = qubo_qaoa_expectation(q, &uniform_mean, NULL); /* depth 0 */
	if (rc != QUBO_OK || cells > MAX_CELLS) {
		fprintf(stderr, "%s: %s: %s\n", name, qubo_status_name(rc), qubo_error_message());
		qubo_qaoa_free(q);
		qubo_puzzle_free(p);
		return -1;
	}
	printf("%-30s %-5s %2zu %5llu %8.2e", name, level_name(level), n, (unsigned long long)count,
	       (double)count / ldexp(1.0, (int)n));
	for (k = 1; k <= cfg->max_p; k++) {
		double e = 0.0, prob = 0.0, t0 = tu_now();

		rc = qubo_qaoa_optimize(q, k, cfg->iterations, gammas, betas, &e);
		if (rc == QUBO_OK)
			rc = qubo_qaoa_expectation(q, NULL, &prob);
		if (rc != QUBO_OK) {
			fprintf(stderr, "\n%s: p = %zu: %s: %s\n", name, k, qubo_status_name(rc),
				qubo_error_message());
			qubo_qaoa_free(q);
			qubo_puzzle_free(p);
			return -1;
		}
		printf("  %6.4f %7.3f %6.2fs", prob, e, tu_now() - t0);
		fflush(stdout);
		s->prob[k - 1][s->runs] = prob;
		s->ratio[k - 1][s->runs] = uniform_mean != 0.0 ? e / uniform_mean : (double)NAN;
	}

	/* The lowest of R reads of the depth-P state. */
	reads = malloc(cfg->reads * n);
	if (!reads || qubo_qaoa_sample(q, cfg->seed, cfg->reads, reads, cfg->reads * n)) {
		fprintf(stderr, "\n%s: reads: %s\n", name, qubo_error_message());
		free(reads);
		qubo_qaoa_free(q);
		qubo_puzzle_free(p);
		return -1;
	}
	for (r = 0; r < cfg->reads; r++) {
		double e;

		qubo_model_energy(m, reads + r * n, n, &e);
		if (e < best) {
			best = e;
			lowest = r;
		}
	}
	if (qubo_puzzle_decode(p, reads + lowest * n, n, board, cells) == QUBO_OK)
		qubo_puzzle_check(p, board, cells, NULL, 0, &viol);
	{
		int at_ground = fabs(best - ground) <= 1e-9 * fmax(1.0, fabs(ground));

		s->ground += (size_t)at_ground;
		s->valid += viol == 0;
		printf("  %s %s %6.2fs\n", at_ground ? "ground" : "above ",
		       viol ? "INVALID" : "valid", tu_now() - t_all);
		fflush(stdout);
	}
	s->seconds += tu_now() - t_all;
	s->runs++;
	free(reads);
	qubo_qaoa_free(q);
	qubo_puzzle_free(p);
	return 0;
}

static void header(const struct config *cfg)
{
	size_t k;

	printf("%-30s %-5s %2s %5s %8s", "puzzle", "level", "n", "g", "g/2^n");
	for (k = 1; k <= cfg->max_p; k++)
		printf("  %6s %7s %7s", "P0", "<C>", "");
	printf("  lowest of %zu reads, total\n", cfg->reads);
	printf("%-30s %-5s %2s %5s %8s", "", "", "", "", "");
	for (k = 1; k <= cfg->max_p; k++)
		printf("  p = %-2zu %16s", k, "");
	printf("\n");
}

static void summary(const struct config *cfg, struct set *s)
{
	size_t k;

	if (!s->runs) {
		printf("%-16s  no puzzle run (%zu over %zu variables)\n", s->label, s->skipped,
		       cfg->max_vars);
		return;
	}
	printf("%-16s %4zu run, %3zu not run; median P0", s->label, s->runs, s->skipped);
	for (k = 0; k < cfg->max_p; k++)
		printf(" %7.4f", median(s->prob[k], s->runs));
	printf("; median <C>/<C>_0");
	for (k = 0; k < cfg->max_p; k++)
		printf(" %5.3f", median(s->ratio[k], s->runs));
	printf("; lowest read a ground state %zu/%zu, valid board %zu/%zu; %.1f s\n", s->ground,
	       s->runs, s->valid, s->runs, s->seconds);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_qaoa_puzzles [--all] [--max-vars N] [--max-p P] [--reads R] "
			"[--iterations K] [--threads T] [--seed S]\n");
	return 2;
}

/* The files of dir whose names start with prefix and end in .txt, sorted,
 * at most MAX_FILES. */
static char **list(const char *dir, const char *prefix, size_t *count)
{
	size_t n, i, kept = 0;
	char **names = tu_list_files(dir, ".txt", &n);

	for (i = 0; i < n; i++) {
		if (kept < MAX_FILES && !strncmp(names[i], prefix, strlen(prefix)))
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	*count = kept;
	return names;
}

/* A quick run takes the two smallest levels of a shared set. */
struct small {
	char *name;
	size_t vars;
};

static int cmp_small(const void *a, const void *b)
{
	const struct small *x = a, *y = b;

	if (x->vars != y->vars)
		return x->vars < y->vars ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int run_shared(const struct config *cfg, struct set *s, const char *dir, const char *prefix)
{
	char path[2048];
	char **names;
	size_t count, i, quick = 0;
	struct small *smalls = NULL;
	int rc = 0;

	names = list(dir, prefix, &count);
	if (!names || !count) {
		printf("no %s* puzzles at %s\n", prefix, dir);
		free(names);
		return 0;
	}
	if (!cfg->all) {
		smalls = malloc(count * sizeof *smalls);
		for (i = 0; smalls && i < count; i++) {
			size_t len = 0, clues = 0, full = 0;
			char *text;
			qubo_puzzle *p;
			int32_t level;
			int err;

			snprintf(path, sizeof path, "%s/%s", dir, names[i]);
			text = tu_read_file(path, &len);
			if (!text)
				continue;
			p = pick_level(names[i], text, len, cfg->max_vars, &level, &clues, &full,
				       &err);
			if (p) {
				smalls[quick].name = names[i];
				smalls[quick++].vars = model_vars(p);
			}
			qubo_puzzle_free(p);
			free(text);
		}
		if (smalls)
			qsort(smalls, quick, sizeof *smalls, cmp_small);
		if (quick > 2)
			quick = 2;
	}
	for (i = 0; rc == 0 && i < (cfg->all ? count : quick); i++) {
		const char *name = cfg->all ? names[i] : smalls[i].name;
		size_t len = 0;
		char *text;

		snprintf(path, sizeof path, "%s/%s", dir, name);
		text = tu_read_file(path, &len);
		if (!text) {
			fprintf(stderr, "%s: cannot read\n", path);
			rc = -1;
			break;
		}
		rc = run_puzzle(cfg, s, name, text, len);
		free(text);
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	free(smalls);
	return rc;
}

int main(int argc, char **argv)
{
	const char *root = getenv("QUBO_PUZZLES_DIR");
	struct config cfg = { 0, 16, 5, 100, 0, 0, 1 };
	struct set sets[3], all;
	char dir[1024];
	int i, max_vars_given = 0;
	size_t j, k;
	double t0 = tu_now();

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--all")) {
			cfg.all = 1;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--max-vars")) {
			cfg.max_vars = strtoul(v, NULL, 10);
			max_vars_given = 1;
		} else if (!strcmp(a, "--max-p"))
			cfg.max_p = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--reads"))
			cfg.reads = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--iterations"))
			cfg.iterations = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--threads"))
			cfg.threads = atoi(v);
		else if (!strcmp(a, "--seed"))
			cfg.seed = strtoull(v, NULL, 10);
		else
			return usage();
	}
	if (cfg.all && !max_vars_given)
		cfg.max_vars = 20;
	if (cfg.max_vars < 1 || cfg.max_vars > MAX_VARS || cfg.max_p < 1 || cfg.max_p > MAX_P ||
	    cfg.reads < 1) {
		fprintf(stderr, "out of range: --max-vars 1..%d, --max-p 1..%d, --reads >= 1\n",
			MAX_VARS, MAX_P);
		return 2;
	}
	if (set_init(&sets[0], "LinkedIn Queens", MAX_FILES) ||
	    set_init(&sets[1], "Tango 6 x 6", MAX_FILES) ||
	    set_init(&sets[2], "Takuzu (hand)", MAX_FILES) ||
	    set_init(&all, "all", 3 * MAX_FILES)) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	printf("QAOA on reduced puzzles: %s, at most %zu variables, p = 1..%zu, %zu Nelder-Mead "
	       "iterations per depth%s, %zu reads (seed %llu), threads %d\n",
	       cfg.all ? "every level" : "quick run (--all for every level)", cfg.max_vars,
	       cfg.max_p, cfg.iterations ? cfg.iterations : 100, cfg.iterations ? "" : " (default)",
	       cfg.reads, (unsigned long long)cfg.seed, cfg.threads);
	printf("n variables, g ground states, P0 ground-state probability, <C> expectation, "
	       "seconds of qubo_qaoa_optimize() at that p\n");
	header(&cfg);
	if (!root || !*root) {
		printf("QUBO_PUZZLES_DIR is not set: the hand-made Takuzu only\n");
	} else {
		snprintf(dir, sizeof dir, "%s/queens", root);
		if (run_shared(&cfg, &sets[0], dir, "samimsu-"))
			return 1;
		snprintf(dir, sizeof dir, "%s/tango", root);
		if (run_shared(&cfg, &sets[1], dir, "rntango-"))
			return 1;
	}
	for (j = 0; j < sizeof takuzu / sizeof takuzu[0]; j++)
		if (run_puzzle(&cfg, &sets[2], takuzu[j].name, takuzu[j].text,
			       strlen(takuzu[j].text)))
			return 1;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < sets[i].runs; j++)
			for (k = 0; k < cfg.max_p; k++) {
				all.prob[k][all.runs + j] = sets[i].prob[k][j];
				all.ratio[k][all.runs + j] = sets[i].ratio[k][j];
			}
		all.runs += sets[i].runs;
		all.skipped += sets[i].skipped;
		all.ground += sets[i].ground;
		all.valid += sets[i].valid;
		all.seconds += sets[i].seconds;
	}
	printf("\nsummary (P0 and <C>/<C>_0 at p = 1..%zu)\n", cfg.max_p);
	for (i = 0; i < 3; i++)
		summary(&cfg, &sets[i]);
	summary(&cfg, &all);
	printf("wall time %.1f s\n", tu_now() - t0);
	for (i = 0; i < 3; i++)
		set_free(&sets[i]);
	set_free(&all);
	return 0;
}
