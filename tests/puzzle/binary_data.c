/* The shared puzzle collection ($QUBO_PUZZLES_DIR/takuzu and /tango, read in
 * place): every file parses into its family and formats back to its own
 * text without the comments; qubo_puzzle_solve() solves it, the rule
 * checker accepts the board, which is the published `.solution` (read with
 * qubo_puzzle_parse_solution()); the solution has energy 0 in the model
 * (without distinct lines, where no witness is needed), and the reduction
 * never fixes a cell against it; qubo_puzzle_count() with a limit of 2
 * finds exactly one solution, as the file's `# solutions:` comment says for
 * the file's own rules. Under valgrind every 10th file. */

#include "puzzle/binary_oracle.h"

#define MAX_CELLS 256

/* The .txt files of a folder, sorted; a skip when there are none. */
static char **list_puzzles(const char *family, char *dir, size_t dircap, size_t *count)
{
	const char *root = getenv("QUBO_PUZZLES_DIR");
	char **names;

	if (!root || !*root)
		cr_skip_test("QUBO_PUZZLES_DIR is not set: no shared %s puzzles to read", family);
	snprintf(dir, dircap, "%s/%s", root, family);
	names = tu_list_files(dir, ".txt", count);
	if (!names)
		cr_skip_test("no shared %s puzzles at %s (the collection is optional)", family, dir);
	return names;
}

/* The file without its comment lines: what qubo_puzzle_format() gives. */
static void strip_comments(const char *text, char *out, size_t cap)
{
	size_t o = 0;
	const char *s = text;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);

		if (*s != '#') {
			cr_assert_lt(o + len, cap);
			memcpy(out + o, s, len);
			o += len;
		}
		s += len;
	}
	out[o] = '\0';
}

/* Does the file say its puzzle is unique under its own rules? */
static int unique_by_comment(const char *text, int nounique)
{
	const char *s = strstr(text, "\n# solutions: ");

	if (!s && !strncmp(text, "# solutions: ", 13))
		s = text - 1;
	cr_assert(s, "no '# solutions:' comment");
	s += 14;
	if (!strncmp(s, "1 (unique", 9))
		return 1; /* tango */
	if (nounique)
		return strstr(s, "rule, 1 without it") != NULL;
	return !strncmp(s, "1 with the distinct", 19);
}

/* The board as a sample of the model (no witness variables): the constant
 * cells agree with it and its energy is the ground energy. */
static void solution_energy(const qubo_puzzle *p, const uint8_t *board, size_t cells,
			    const char *name)
{
	const qubo_model *m;
	qubo_lit lits[MAX_CELLS];
	uint8_t sample[MAX_CELLS], back[MAX_CELLS];
	size_t nv, c;
	double e;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, cells), QUBO_OK);
	nv = qubo_model_num_variables(m);
	cr_assert_leq(nv, MAX_CELLS);
	memset(sample, 0, sizeof sample);
	for (c = 0; c < cells; c++) {
		if (QUBO_LIT_IS_CONST(lits[c]))
			cr_assert_eq(board[c], lits[c] == QUBO_LIT_TRUE,
				     "%s: the reduction fixed cell %zu against the solution", name,
				     c);
		else
			sample[QUBO_LIT_VAR(lits[c])] = (uint8_t)(board[c] ^ QUBO_LIT_IS_NEG(lits[c]));
	}
	cr_assert_eq(qubo_model_energy(m, sample, nv, &e), QUBO_OK);
	cr_assert_eq(e, 0.0, "%s: the published solution has energy %g", name, e);
	cr_assert_eq(qubo_puzzle_decode(p, sample, nv, back, cells), QUBO_OK);
	cr_assert_eq(memcmp(back, board, cells), 0, "%s: decode(encode(board)) differs", name);
}

static void check_collection(const char *family, int fam_id)
{
	char dir[1024], path[1400];
	size_t n, i, checked = 0, unique = 0, solved_by_reduction = 0, with_solution = 0;
	char **names = list_puzzles(family, dir, sizeof dir, &n);
	size_t step = bo_valgrind() ? 10 : 1;

	for (i = 0; i < n; i += step) {
		qubo_puzzle *p = NULL, *q = NULL;
		qubo_puzzle_options clues = QUBO_PUZZLE_OPTIONS_INIT;
		qubo_puzzle_solve_options so = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
		qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
		qubo_puzzle_count_result cr;
		qubo_puzzle_result res;
		qubo_puzzle_stats st;
		char *text, *sol, *canon, *fmt;
		size_t len, slen, cells, flen, viol = 9;
		uint8_t board[MAX_CELLS], published[MAX_CELLS];
		char report[512];
		int nounique, is_unique, rc;
		const char *name = names[i];

		snprintf(path, sizeof path, "%s/%s", dir, name);
		text = tu_read_file(path, &len);
		cr_assert(text, "%s: cannot read", path);
		rc = qubo_puzzle_parse(&p, text, len, NULL);
		cr_assert_eq(rc, QUBO_OK, "%s: %s: %s", name, qubo_status_name(rc),
			     qubo_error_message());
		cr_assert_eq(qubo_puzzle_family(p), fam_id, "%s", name);
		memset(&st, 0, sizeof st);
		st.struct_size = sizeof st;
		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		cells = st.width * st.height;
		cr_assert_leq(cells, MAX_CELLS, "%s", name);
		solved_by_reduction += (size_t)st.solved_by_reduction;

		/* the text comes back without its comments */
		canon = malloc(len + 1);
		cr_assert(canon);
		strip_comments(text, canon, len + 1);
		cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &flen), QUBO_OK);
		fmt = malloc(flen + 1);
		cr_assert(fmt);
		cr_assert_eq(qubo_puzzle_format(p, fmt, flen + 1, &flen), QUBO_OK);
		cr_assert_str_eq(fmt, canon, "%s: qubo_puzzle_format differs from the file", name);
		nounique = strstr(canon, "nounique\n") != NULL;
		/* the unreduced model: a variable per cell, and for distinct
		 * (balanced) lines one witness per position of each pair of rows
		 * and of columns */
		cr_assert_eq(st.variables_before,
			     cells + (fam_id == QUBO_PUZZLE_TAKUZU && !nounique
					      ? (st.width * st.height * (st.height - 1) +
						 st.height * st.width * (st.width - 1)) / 2
					      : 0),
			     "%s: variables_before %zu", name, st.variables_before);
		is_unique = unique_by_comment(text, nounique);
		unique += (size_t)is_unique;

		/* solve */
		memset(&res, 0, sizeof res);
		res.struct_size = sizeof res;
		so.seed = 1;
		so.time_limit = 60;
		rc = qubo_puzzle_solve(p, &so, board, sizeof board, &res);
		cr_assert_eq(rc, QUBO_OK, "%s: solve: %s", name, qubo_error_message());
		cr_assert_eq(res.verdict, QUBO_PUZZLE_SOLVED, "%s: verdict %d", name, res.verdict);
		cr_assert(res.has_board, "%s", name);
		cr_assert_eq(res.energy, 0.0, "%s", name);
		cr_assert_eq(qubo_puzzle_check(p, board, cells, report, sizeof report, &viol),
			     QUBO_OK);
		cr_assert_eq(viol, 0, "%s: the solved board breaks %zu rules: %s", name, viol,
			     report);

		/* count, limit 2 */
		memset(&cr, 0, sizeof cr);
		cr.struct_size = sizeof cr;
		co.limit = 2;
		cr_assert_eq(qubo_puzzle_count(p, &co, &cr), QUBO_OK, "%s: %s", name,
			     qubo_error_message());
		cr_assert_geq(cr.count, 1, "%s", name);
		if (is_unique) {
			cr_assert_eq(cr.count, 1, "%s: %llu solutions of a unique puzzle", name,
				     (unsigned long long)cr.count);
			cr_assert(cr.complete, "%s: the count did not end", name);
		}

		/* the published solution */
		memcpy(path + strlen(path) - 4, ".solution", 10);
		sol = tu_read_file(path, &slen);
		if (sol) {
			rc = qubo_puzzle_parse_solution(p, sol, slen, published, sizeof published);
			cr_assert_eq(rc, QUBO_OK, "%s: %s", path, qubo_error_message());
			cr_assert_eq(qubo_puzzle_check(p, published, cells, report, sizeof report,
						       &viol),
				     QUBO_OK);
			cr_assert_eq(viol, 0, "%s: the checker rejects the published solution: %s",
				     path, report);
			if (is_unique)
				cr_assert_eq(memcmp(board, published, cells), 0,
					     "%s: qubo_puzzle_solve found another board", name);
			/* it formats back to its own text */
			{
				char *sc = malloc(slen + 1), *sf;
				size_t sl;

				cr_assert(sc);
				strip_comments(sol, sc, slen + 1);
				cr_assert_eq(qubo_puzzle_format_solution(p, published, cells, NULL, 0,
									 &sl),
					     QUBO_OK);
				sf = malloc(sl + 1);
				cr_assert(sf);
				cr_assert_eq(qubo_puzzle_format_solution(p, published, cells, sf,
									 sl + 1, &sl),
					     QUBO_OK);
				cr_assert_str_eq(sf, sc, "%s: format_solution differs", path);
				free(sc);
				free(sf);
			}
			if (!strstr(canon, "takuzu") || nounique) {
				/* no witnesses: the board is a sample; also at level CLUES and
				 * unreduced (read with qubo_puzzle_parse_file) */
				solution_energy(p, published, cells, name);
				clues.reduce = QUBO_REDUCE_CLUES;
				cr_assert_eq(qubo_puzzle_parse(&q, text, len, &clues), QUBO_OK);
				solution_energy(q, published, cells, name);
				qubo_puzzle_free(q);
				clues.reduce = QUBO_REDUCE_NONE;
				memcpy(path + strlen(path) - 9, ".txt", 5);
				cr_assert_eq(qubo_puzzle_parse_file(&q, path, &clues), QUBO_OK, "%s: %s",
					     path, qubo_error_message());
				solution_energy(q, published, cells, name);
				qubo_puzzle_free(q);
			}
			with_solution++;
			free(sol);
		}
		checked++;
		qubo_puzzle_free(p);
		free(text);
		free(canon);
		free(fmt);
	}
	fprintf(stderr,
		"[binary_data] %s: %zu files checked (%zu with a .solution), %zu unique by their "
		"comment, %zu solved by the reduction alone\n",
		family, checked, with_solution, unique, solved_by_reduction);
	cr_assert_geq(checked, (n + step - 1) / step);
	cr_assert_gt(unique, 0, "no %s file says it is unique", family);
	tu_free_names(names, n);
}

Test(binary_data, shared_takuzu_collection)
{
	check_collection("takuzu", QUBO_PUZZLE_TAKUZU);
}

Test(binary_data, shared_tango_collection)
{
	check_collection("tango", QUBO_PUZZLE_TANGO);
}
