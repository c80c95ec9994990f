/* The shared Tents collection ($QUBO_PUZZLES_DIR/tents, read in place:
 * janko.at and Simon Tatham's puzzles, 8 x 8 to 24 x 14): every file
 * parses and builds at every level; qubo_puzzle_solve() solves it, the
 * checker accepts the board, and it is the published solution;
 * qubo_puzzle_count() finds exactly one solution where the file says it is
 * unique; the published solution has energy 0 in the unreduced model (with
 * the assignments of a tree–tent matching found here, in the variable
 * order qubo/puzzle/tents.h documents) and agrees with every cell the
 * reduction fixed. Under valgrind every 8th puzzle is read, with the same
 * checks. PH_DEBUG=1 prints the figures (solve times, variables). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <qubo/puzzle.h>

#include "util.h"

#define MAX_CELLS 1024

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- the published solution as a sample of the unreduced model ---- */

static const int step_r[4] = { -1, 0, 0, 1 }, step_c[4] = { 0, -1, 1, 0 }; /* up left right down */

struct board {
	uint32_t w, h;
	size_t n;
	uint8_t tree[MAX_CELLS], tent[MAX_CELLS];
	size_t mate_tree[MAX_CELLS]; /* the tent cell of each tree (by cell) */
	size_t mate_tent[MAX_CELLS]; /* the tree cell of each tent */
	uint8_t seen[MAX_CELLS];
};

/* The tents beside tree t (cell), in step order; SIZE_MAX where none. */
static size_t beside(const struct board *b, size_t t, int k)
{
	long r = (long)(t / b->w) + step_r[k], c = (long)(t % b->w) + step_c[k];

	if (r < 0 || c < 0 || r >= (long)b->h || c >= (long)b->w)
		return SIZE_MAX;
	return (size_t)r * b->w + (size_t)c;
}

static int augment(struct board *b, size_t t)
{
	int k;

	for (k = 0; k < 4; k++) {
		size_t c = beside(b, t, k);

		if (c == SIZE_MAX || !b->tent[c] || b->seen[c])
			continue;
		b->seen[c] = 1;
		if (b->mate_tent[c] == SIZE_MAX || augment(b, b->mate_tent[c])) {
			b->mate_tent[c] = t;
			b->mate_tree[t] = c;
			return 1;
		}
	}
	return 0;
}

/* Energy 0 in the NONE model: cells without a tree first (row-major), then
 * each tree's assignments (trees row-major; up, left, right, down; cells
 * without a tree only), 1 for the matched tent. */
static void published_energy(const qubo_puzzle *raw, struct board *b, const char *name)
{
	const qubo_model *m;
	static uint8_t x[8 * MAX_CELLS];
	size_t c, v = 0, nv;
	double e;
	int k;

	for (c = 0; c < b->n; c++)
		b->mate_tent[c] = b->mate_tree[c] = SIZE_MAX;
	for (c = 0; c < b->n; c++)
		if (b->tree[c]) {
			memset(b->seen, 0, sizeof b->seen);
			cr_assert(augment(b, c), "%s: the published solution has no matching", name);
		}
	memset(x, 0, sizeof x);
	for (c = 0; c < b->n; c++)
		if (!b->tree[c])
			x[v++] = b->tent[c];
	for (c = 0; c < b->n; c++) {
		if (!b->tree[c])
			continue;
		for (k = 0; k < 4; k++) {
			size_t d = beside(b, c, k);

			if (d != SIZE_MAX && !b->tree[d])
				x[v++] = b->mate_tree[c] == d;
		}
	}
	cr_assert_eq(qubo_puzzle_model(raw, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	cr_assert_eq(nv, v, "%s: the unreduced model has %zu variables, the documented order "
			    "%zu", name, nv, v);
	cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
	cr_assert_eq(e, 0.0, "%s: the published solution has energy %g in the exact model", name,
		     e);
}

/* Every cell the reduction fixed agrees with the board. */
static void fixed_agree(const qubo_puzzle *p, const uint8_t *board, size_t cells,
			const char *name)
{
	static qubo_lit lits[MAX_CELLS];
	size_t c;

	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, cells), QUBO_OK);
	for (c = 0; c < cells; c++)
		if (QUBO_LIT_IS_CONST(lits[c]))
			cr_assert_eq(board[c], lits[c] == QUBO_LIT_TRUE,
				     "%s: the reduction fixed cell %zu against the solution", name, c);
}

Test(puzzle_tents_data, shared_tents_collection)
{
	const char *root = getenv("QUBO_PUZZLES_DIR"), *vg = getenv("QUBO_TEST_VALGRIND");
	size_t stride = vg && *vg == '1' ? 8 : 1;
	char dir[1024], path[1200];
	char **names;
	size_t nnames = 0, i, done = 0, unique = 0, reduced = 0, searched = 0, nopen = 0;
	size_t *before, *after;
	double *secs, *open_secs;
	qubo_puzzle_options none, clues;

	if (!root || !*root)
		cr_skip_test("QUBO_PUZZLES_DIR is not set: no shared puzzles to read");
	snprintf(dir, sizeof dir, "%s/tents", root);
	names = tu_list_files(dir, ".txt", &nnames);
	if (!names)
		cr_skip_test("no shared tents puzzles at %s (the collection is optional)", dir);
	before = calloc(nnames, sizeof *before);
	after = calloc(nnames, sizeof *after);
	secs = calloc(nnames, sizeof *secs);
	open_secs = calloc(nnames, sizeof *open_secs);
	cr_assert(before && after && secs && open_secs);
	memset(&none, 0, sizeof none);
	none.struct_size = sizeof none;
	none.reduce = QUBO_REDUCE_NONE;
	clues = none;
	clues.reduce = QUBO_REDUCE_CLUES;

	for (i = 0; i < nnames; i += stride) {
		qubo_puzzle *full = NULL, *raw = NULL, *mid = NULL;
		qubo_puzzle_stats st;
		qubo_puzzle_result res;
		qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
		qubo_puzzle_count_result cres;
		static struct board b;
		static uint8_t solved[MAX_CELLS], published[MAX_CELLS];
		char *text, *sol, report[256];
		size_t len, slen, cells, c, viol = 1;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		text = tu_read_file(path, &len);
		cr_assert(text, "%s: cannot read", path);
		cr_assert_eq(qubo_puzzle_parse(&full, text, len, NULL), QUBO_OK, "%s: %s", names[i],
			     qubo_error_message());
		cr_assert_eq(qubo_puzzle_parse(&raw, text, len, &none), QUBO_OK, "%s: %s", names[i],
			     qubo_error_message());
		cr_assert_eq(qubo_puzzle_parse(&mid, text, len, &clues), QUBO_OK, "%s: %s",
			     names[i], qubo_error_message());
		cr_assert_eq(qubo_puzzle_family(full), QUBO_PUZZLE_TENTS);
		memset(&st, 0, sizeof st);
		st.struct_size = sizeof st;
		cr_assert_eq(qubo_puzzle_get_stats(full, &st), QUBO_OK);
		cells = st.width * st.height;
		cr_assert_leq(cells, MAX_CELLS, "%s", names[i]);
		before[done] = st.variables_before;
		after[done] = st.variables_after;
		reduced += (size_t)st.solved_by_reduction;

		/* the library's own strategy */
		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		cr_assert_eq(qubo_puzzle_solve(full, NULL, solved, cells, &res), QUBO_OK, "%s: %s",
			     names[i], qubo_error_message());
		cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED, "%s: verdict %d", names[i],
			     res.verdict);
		cr_assert_eq(qubo_puzzle_check(full, solved, cells, report, sizeof report, &viol),
			     QUBO_OK);
		cr_assert_eq(viol, 0, "%s: the solved board breaks rules: %s", names[i], report);
		secs[done] = res.seconds;
		searched += res.nodes > 0;
		if (!st.solved_by_reduction)
			open_secs[nopen++] = res.seconds;
		memset(&cres, 0, sizeof cres);
		cres.struct_size = sizeof cres;
		co.limit = 2;
		cr_assert_eq(qubo_puzzle_count(full, &co, &cres), QUBO_OK, "%s: %s", names[i],
			     qubo_error_message());
		cr_assert_geq(cres.count, 1, "%s", names[i]);
		if (strstr(text, "\n# solutions: 1 ")) {
			cr_assert_eq(cres.count, 1, "%s: counted %llu solutions of a unique puzzle",
				     names[i], (unsigned long long)cres.count);
			cr_assert(cres.complete, "%s", names[i]);
			unique++;
		}

		/* the published solution */
		memcpy(path + strlen(path) - 4, ".solution", 10);
		sol = tu_read_file(path, &slen);
		if (sol) {
			cr_assert_eq(qubo_puzzle_parse_solution(full, sol, slen, published, cells),
				     QUBO_OK, "%s: %s", path, qubo_error_message());
			cr_assert_eq(qubo_puzzle_check(full, published, cells, report,
						       sizeof report, &viol),
				     QUBO_OK);
			cr_assert_eq(viol, 0, "%s: the checker rejects the published solution: %s",
				     path, report);
			if (strstr(text, "\n# solutions: 1 "))
				cr_assert_eq(memcmp(published, solved, cells), 0,
					     "%s: qubo_puzzle_solve found another board", names[i]);
			fixed_agree(full, published, cells, names[i]);
			fixed_agree(mid, published, cells, names[i]);
			memset(&b, 0, sizeof b);
			b.w = (uint32_t)st.width;
			b.h = (uint32_t)st.height;
			b.n = cells;
			for (c = 0; c < cells; c++) {
				qubo_puzzle_cell cell;

				memset(&cell, 0, sizeof cell);
				cell.struct_size = sizeof cell;
				cr_assert_eq(qubo_puzzle_get_cell(full, (uint32_t)(c / b.w),
								  (uint32_t)(c % b.w), &cell),
					     QUBO_OK);
				b.tree[c] = cell.given == 0;
				b.tent[c] = published[c];
			}
			published_energy(raw, &b, names[i]);
			/* the solution file is what format_solution writes */
			{
				static char out[8 * MAX_CELLS];
				size_t n;
				const char *body = strstr(sol, "tents ");

				cr_assert_eq(qubo_puzzle_format_solution(full, published, cells, out,
									 sizeof out, &n),
					     QUBO_OK);
				cr_assert(body);
				cr_assert_str_eq(out, body, "%s", names[i]);
			}
			free(sol);
		}
		qubo_puzzle_free(full);
		qubo_puzzle_free(raw);
		qubo_puzzle_free(mid);
		free(text);
		done++;
	}
	tu_free_names(names, nnames);
	qsort(before, done, sizeof *before, cmp_size);
	qsort(after, done, sizeof *after, cmp_size);
	qsort(secs, done, sizeof *secs, cmp_double);
	qsort(open_secs, nopen, sizeof *open_secs, cmp_double);
	if (getenv("PH_DEBUG"))
		fprintf(stderr,
			"%zu tents puzzles, %zu unique; variables before: median %zu, max %zu; after "
			"the full reduction: median %zu, max %zu; %zu solved by the reduction alone, "
			"%zu searched; qubo_puzzle_solve: median %.3f ms, worst %.3f ms; of the %zu "
			"left open by the reduction: median %.3f ms\n",
			done, unique, before[done / 2], before[done - 1], after[done / 2],
			after[done - 1], reduced, searched, 1e3 * secs[done / 2],
			1e3 * secs[done - 1], nopen, nopen ? 1e3 * open_secs[nopen / 2] : 0.0);
	cr_assert_geq(unique, done / 2, "only %zu of %zu puzzles are marked unique", unique, done);
	free(before);
	free(after);
	free(secs);
	free(open_secs);
}
