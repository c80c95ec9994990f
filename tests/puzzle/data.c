/* The shared puzzle collection ($QUBO_PUZZLES_DIR/queens, read in place):
 * every queens file parses and builds; its published solution parses,
 * passes the rule checker and has exactly the ground energy in the model,
 * unreduced and reduced (and the reduction never fixes a cell against it);
 * qubo_puzzle_solve() solves it (the checker accepts the board, which is
 * the published one) and qubo_puzzle_count() with a limit of 2 finds
 * exactly one solution where the file says it is unique. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <qubo/puzzle.h>

#include "util.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* The solution board as a model sample: constant cells must agree. */
static void solution_energy(const qubo_puzzle *p, const uint8_t *board, size_t cells,
			    const char *name)
{
	const qubo_model *m;
	qubo_lit lits[1024];
	uint8_t sample[1024];
	size_t nv, c;
	double e, g;

	cr_assert(cells <= 1024);
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, cells), QUBO_OK);
	nv = qubo_model_num_variables(m);
	memset(sample, 0, sizeof sample);
	for (c = 0; c < cells; c++) {
		if (QUBO_LIT_IS_CONST(lits[c]))
			cr_assert_eq(board[c], lits[c] == QUBO_LIT_TRUE,
				     "%s: the reduction fixed cell %zu against the solution", name,
				     c);
		else
			sample[QUBO_LIT_VAR(lits[c])] =
				(uint8_t)(board[c] ^ QUBO_LIT_IS_NEG(lits[c]));
	}
	cr_assert_eq(qubo_model_energy(m, sample, nv, &e), QUBO_OK);
	cr_assert_eq(qubo_puzzle_ground_energy(p, &g), QUBO_OK);
	cr_assert_eq(e, g, "%s: the published solution has energy %g, ground %g", name, e, g);
	{
		uint8_t back[1024];
		cr_assert_eq(qubo_puzzle_decode(p, sample, nv, back, cells), QUBO_OK);
		cr_assert_eq(memcmp(back, board, cells), 0, "%s: decode(encode(board)) differs",
			     name);
	}
}

/* Solves the puzzle with the library's strategy and counts it. */
static void solve_and_count(const qubo_puzzle *p, const char *text, size_t cells,
			    const char *name, uint8_t *board)
{
	qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_result r;
	qubo_puzzle_count_result c;
	size_t viol = 1;

	memset(&r, 0, sizeof r);
	r.struct_size = sizeof r;
	so.seed = 1;
	so.time_limit = 60;
	cr_assert_eq(qubo_puzzle_solve(p, &so, board, 1024, &r), QUBO_OK, "%s: %s", name,
		     qubo_error_message());
	cr_assert_eq(r.verdict, QUBO_PUZZLE_SOLVED, "%s: verdict %d", name, r.verdict);
	cr_assert_eq(qubo_puzzle_check(p, board, cells, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s: the solved board breaks %zu rules", name, viol);
	memset(&c, 0, sizeof c);
	c.struct_size = sizeof c;
	co.limit = 2;
	cr_assert_eq(qubo_puzzle_count(p, &co, &c), QUBO_OK, "%s: %s", name,
		     qubo_error_message());
	cr_assert_geq(c.count, 1, "%s: no solution counted", name);
	if (strstr(text, "\n# solutions: 1 ")) {
		cr_assert_eq(c.count, 1, "%s: counted %llu solutions of a unique puzzle", name,
			     (unsigned long long)c.count);
		cr_assert(c.complete, "%s: the count did not end", name);
	}
}

Test(puzzle_data, shared_queens_collection)
{
	const char *root = getenv("QUBO_PUZZLES_DIR");
	char dir[1024], path[1200];
	DIR *d;
	struct dirent *ent;
	char **names = NULL;
	size_t nnames = 0, cap = 0, i, checked = 0, solved = 0;
	size_t *before, *after;
	qubo_puzzle_options none;

	if (!root || !*root)
		cr_skip_test("QUBO_PUZZLES_DIR is not set: no shared puzzles to read");
	snprintf(dir, sizeof dir, "%s/queens", root);
	d = opendir(dir);
	if (!d)
		cr_skip_test("no shared queens puzzles at %s (the collection is optional)", dir);
	while ((ent = readdir(d))) {
		size_t n = strlen(ent->d_name);

		if (n < 5 || strcmp(ent->d_name + n - 4, ".txt") != 0)
			continue;
		if (nnames == cap) {
			cap = cap ? 2 * cap : 256;
			names = realloc(names, cap * sizeof *names);
			cr_assert(names);
		}
		names[nnames] = malloc(n + 1);
		cr_assert(names[nnames]);
		memcpy(names[nnames++], ent->d_name, n + 1);
	}
	closedir(d);
	if (nnames == 0)
		cr_skip_test("the folder %s holds no .txt puzzles", dir);
	qsort(names, nnames, sizeof *names, cmp_str);
	before = calloc(nnames, sizeof *before);
	after = calloc(nnames, sizeof *after);
	cr_assert(before && after);
	memset(&none, 0, sizeof none);
	none.struct_size = sizeof none;
	none.reduce = QUBO_REDUCE_NONE;

	for (i = 0; i < nnames; i++) {
		qubo_puzzle *full = NULL, *raw = NULL;
		qubo_puzzle_stats st;
		char *text, *sol;
		size_t len, slen, cells, viol = 1;
		uint8_t board[1024], solved_board[1024];
		char report[256];

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		text = tu_read_file(path, &len);
		cr_assert(text, "%s: cannot read", path);
		cr_assert_eq(qubo_puzzle_parse(&full, text, len, NULL), QUBO_OK, "%s: %s", names[i],
			     qubo_error_message());
		cr_assert_eq(qubo_puzzle_parse_file(&raw, path, &none), QUBO_OK, "%s: %s", names[i],
			     qubo_error_message());
		cr_assert_eq(qubo_puzzle_family(full), QUBO_PUZZLE_QUEENS);
		memset(&st, 0, sizeof st);
		st.struct_size = sizeof st;
		cr_assert_eq(qubo_puzzle_get_stats(full, &st), QUBO_OK);
		cells = st.width * st.height;
		before[i] = st.variables_before;
		after[i] = st.variables_after;
		solved += (size_t)st.solved_by_reduction;

		solve_and_count(full, text, cells, names[i], solved_board);

		memcpy(path + strlen(path) - 4, ".solution", 10);
		sol = tu_read_file(path, &slen);
		if (sol) {
			cr_assert_eq(
				qubo_puzzle_parse_solution(full, sol, slen, board, sizeof board),
				QUBO_OK, "%s: %s", path, qubo_error_message());
			cr_assert_eq(
				qubo_puzzle_check(full, board, cells, report, sizeof report, &viol),
				QUBO_OK);
			cr_assert_eq(viol, 0, "%s: the checker rejects the published solution: %s",
				     path, report);
			solution_energy(full, board, cells, names[i]);
			if (strstr(text, "\n# solutions: 1 "))
				cr_assert_eq(memcmp(board, solved_board, cells), 0,
					     "%s: qubo_puzzle_solve found another board", names[i]);
			solution_energy(raw, board, cells, names[i]);
			checked++;
			free(sol);
		}
		qubo_puzzle_free(full);
		qubo_puzzle_free(raw);
		free(text);
		free(names[i]);
	}
	qsort(before, nnames, sizeof *before, cmp_size);
	qsort(after, nnames, sizeof *after, cmp_size);
	if (getenv("PH_DEBUG"))
		fprintf(stderr,
			"%zu queens puzzles, %zu solutions checked; variables before: median %zu, "
			"max %zu; after full reduction: median %zu, max %zu; %zu solved by the "
			"reduction alone\n",
			nnames, checked, before[nnames / 2], before[nnames - 1], after[nnames / 2],
			after[nnames - 1], solved);
	cr_assert_gt(checked, nnames / 2, "only %zu of %zu puzzles have a solution file", checked,
		     nnames);
	free(before);
	free(after);
	free(names);
}
