/*
 * qubo_puzzle_solve() called in a loop from C, without a process start:
 * per puzzle of the shared queens collection ($QUBO_PUZZLES_DIR/queens), the
 * median of R solves of the parsed puzzle, and of R parse + solve + free
 * cycles; then the median and worst over each set (LinkedIn Queens and its
 * bonus levels, Star Battle with 1 and 2 stars). Every board is confirmed
 * by the rule checker.
 *
 * usage: bench_puzzle_solve [REPEATS]     (default 5)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>
#include <qubo/puzzle.h>

#include "util.h"

#define MAX_FILES 4096

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One solve, checked; returns the seconds, or a negative value on failure. */
static double solve_once(const qubo_puzzle *p, const char *name)
{
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r;
	static uint8_t board[1 << 16];
	size_t viol = 1, cells;
	qubo_puzzle_stats st;
	double t0, t1;

	memset(&r, 0, sizeof r);
	r.struct_size = sizeof r;
	o.seed = 1;
	t0 = tu_now();
	if (qubo_puzzle_solve(p, &o, board, sizeof board, &r) != QUBO_OK ||
	    r.verdict != QUBO_PUZZLE_SOLVED) {
		fprintf(stderr, "%s: not solved: %s\n", name, qubo_error_message());
		return -1;
	}
	t1 = tu_now();
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	qubo_puzzle_get_stats(p, &st);
	cells = st.width * st.height;
	if (qubo_puzzle_check(p, board, cells, NULL, 0, &viol) || viol) {
		fprintf(stderr, "%s: the board breaks a rule\n", name);
		return -1;
	}
	return t1 - t0;
}

struct set {
	const char *label;
	const char *prefix;
	double *solve, *cycle;
	size_t n;
	const char *worst;
	double worst_t;
};

int main(int argc, char **argv)
{
	const char *root = getenv("QUBO_PUZZLES_DIR");
	struct set sets[] = {
		{ "LinkedIn Queens", "samimsu-", NULL, NULL, 0, NULL, 0 },
		{ "Star Battle, 1 star", "janko-starbattle-", NULL, NULL, 0, NULL, 0 },
		{ "Star Battle, 2 stars", "janko-starbattle2-", NULL, NULL, 0, NULL, 0 },
	};
	int repeats = argc > 1 ? atoi(argv[1]) : 5, k;
	char dir[1024], path[2048];
	char **names;
	size_t nnames = 0, i, s;
	double *t;
	DIR *d;
	struct dirent *ent;

	if (repeats < 1)
		repeats = 1;
	if (!root) {
		printf("QUBO_PUZZLES_DIR is not set: nothing to measure\n");
		return 0;
	}
	snprintf(dir, sizeof dir, "%s/queens", root);
	d = opendir(dir);
	if (!d) {
		printf("no shared queens puzzles at %s: nothing to measure\n", dir);
		return 0;
	}
	names = malloc(MAX_FILES * sizeof *names);
	t = malloc((size_t)repeats * sizeof *t);
	for (s = 0; s < 3; s++) {
		sets[s].solve = malloc(MAX_FILES * sizeof(double));
		sets[s].cycle = malloc(MAX_FILES * sizeof(double));
	}
	while ((ent = readdir(d)) && nnames < MAX_FILES) {
		size_t n = strlen(ent->d_name);

		if (n > 4 && !strcmp(ent->d_name + n - 4, ".txt"))
			names[nnames++] = strdup(ent->d_name);
	}
	closedir(d);
	qsort(names, nnames, sizeof *names, cmp_str);
	for (i = 0; i < nnames; i++) {
		struct set *S = NULL;
		qubo_puzzle *p = NULL;
		size_t len = 0;
		char *text;
		double med;

		for (s = 3; s-- > 0;)
			if (!strncmp(names[i], sets[s].prefix, strlen(sets[s].prefix))) {
				S = &sets[s];
				break;
			}
		if (!S)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		text = tu_read_file(path, &len);
		if (!text || qubo_puzzle_parse(&p, text, len, NULL)) {
			fprintf(stderr, "%s: %s\n", names[i], qubo_error_message());
			return 1;
		}
		for (k = 0; k < repeats; k++)
			if ((t[k] = solve_once(p, names[i])) < 0)
				return 1;
		qsort(t, (size_t)repeats, sizeof *t, tu_cmp_double);
		med = t[repeats / 2];
		S->solve[S->n] = med;
		if (med > S->worst_t) {
			S->worst_t = med;
			S->worst = names[i];
		}
		qubo_puzzle_free(p);
		for (k = 0; k < repeats; k++) {
			double t0 = tu_now();

			if (qubo_puzzle_parse(&p, text, len, NULL) || solve_once(p, names[i]) < 0)
				return 1;
			qubo_puzzle_free(p);
			t[k] = tu_now() - t0;
		}
		qsort(t, (size_t)repeats, sizeof *t, tu_cmp_double);
		S->cycle[S->n++] = t[repeats / 2];
		free(text);
	}
	printf("qubo_puzzle_solve in a loop, median of %d per puzzle (ms)\n", repeats);
	printf("%-22s %6s %10s %10s %10s %12s  %s\n", "set", "files", "median", "p90", "worst",
	       "parse+solve", "worst file");
	for (s = 0; s < 3; s++) {
		struct set *S = &sets[s];

		if (!S->n)
			continue;
		qsort(S->solve, S->n, sizeof(double), tu_cmp_double);
		qsort(S->cycle, S->n, sizeof(double), tu_cmp_double);
		printf("%-22s %6zu %10.4f %10.4f %10.4f %12.4f  %s\n", S->label, S->n,
		       1e3 * S->solve[S->n / 2], 1e3 * S->solve[S->n * 9 / 10],
		       1e3 * S->solve[S->n - 1], 1e3 * S->cycle[S->n / 2], S->worst);
	}
	return 0;
}
