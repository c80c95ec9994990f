/* Text formats of the queens family: malformed files rejected with the
 * right status and position, contradictory ones reported infeasible, the
 * general rules (comments, blank lines, CRLF, trailing spaces), round trips
 * through qubo_puzzle_format(), and solution files. */
#include <unistd.h>

#include <qubo/puzzle/chess.h>

#include "puzzle/helpers.h"

typedef struct bad_case {
	const char *text;
	size_t len; /* 0: strlen */
	int status;
	size_t line, column;
	const char *needle;
} bad_case;

static const bad_case bad[] = {
	{ "", 0, QUBO_ERR_PARSE, 1, 1, "no header" },
	{ "# only a comment\n", 0, QUBO_ERR_PARSE, 2, 1, "no header" },
	{ "\n  \n# c\n\t\n", 0, QUBO_ERR_PARSE, 5, 1, "no header" },
	{ "queen 8\n", 0, QUBO_ERR_PARSE, 1, 1, "unknown puzzle family 'queen'" },
	{ "queens\n", 0, QUBO_ERR_PARSE, 1, 7, "board size" },
	{ "queens x\n", 0, QUBO_ERR_PARSE, 1, 8, "must be a number" },
	{ "queens 0\n", 0, QUBO_ERR_PARSE, 1, 8, "between 1 and" },
	{ "queens 4x3\nabc\n", 0, QUBO_ERR_PARSE, 1, 9, "must be a number" },
	{ "queens 99999999999999999999999\n", 0, QUBO_ERR_TOO_LARGE, 1, 8, "is above the largest the library takes, 4096" },
	{ "queens 27\n", 0, QUBO_ERR_PARSE, 1, 8, "a to z" },
	{ "queens 3 stars\nabc\nabc\nabc\n", 0, QUBO_ERR_PARSE, 1, 15, "needs a count" },
	{ "queens 3 star 2\nabc\nabc\nabc\n", 0, QUBO_ERR_PARSE, 1, 10, "expected 'stars K'" },
	{ "queens 3 stars 0\nabc\nabc\nabc\n", 0, QUBO_ERR_PARSE, 1, 16, "between 1 and" },
	{ "queens 3 stars -1\nabc\nabc\nabc\n", 0, QUBO_ERR_PARSE, 1, 16, "must be a number" },
	{ "queens 3 stars 1 more\nabc\nabc\nabc\n", 0, QUBO_ERR_PARSE, 1, 18, "unexpected word" },
	{ "queens 3\n", 0, QUBO_ERR_PARSE, 2, 1, "not followed by" },
	{ "queens 3", 0, QUBO_ERR_PARSE, 1, 9, "not followed by" },
	{ "queens 3\nabc\nabc\n", 0, QUBO_ERR_PARSE, 4, 1, "ends after 2 of its 3 rows" },
	{ "queens 3\nabc\nab\nabc\n", 0, QUBO_ERR_PARSE, 3, 3, "row 2 has 2 of the board's 3" },
	{ "queens 3\nabc\nabcc\nabc\n", 0, QUBO_ERR_PARSE, 3, 4, "row 2 is longer" },
	{ "queens 3\nabc\nabd\nabc\n", 0, QUBO_ERR_PARSE, 3, 3, "'d' in row 2 is beyond" },
	{ "queens 3\nabc\nAbZ\nabc\n", 0, QUBO_ERR_PARSE, 3, 3, "'Z' in row 2 is beyond" },
	{ "queens 3\nabc\na?c\nabc\n", 0, QUBO_ERR_PARSE, 3, 2, "unexpected '?' in row 2" },
	{ "queens 3\nabc\na c\nabc\n", 0, QUBO_ERR_PARSE, 3, 2, "unexpected a space" },
	{ "queens 3\nabc\na\tc\nabc\n", 0, QUBO_ERR_PARSE, 3, 2, "unexpected a tab" },
	{ "queens 3\nabc\n\nabc\nabc\n", 0, QUBO_ERR_PARSE, 3, 1, "blank line inside the grid" },
	{ "queens 3\nabc\n# note\nabc\nabc\n", 0, QUBO_ERR_PARSE, 3, 1, "unexpected '#'" },
	{ "queens 3\nabc\nabc\nabc\nabc\n", 0, QUBO_ERR_PARSE, 5, 1, "after the grid" },
	{ "queens 3\nabc\nabc\nabc\n\n  x\n", 0, QUBO_ERR_PARSE, 6, 3, "after the grid" },
	{ "queens 3\nabc\na\0c\nabc\n", 25, QUBO_ERR_PARSE, 3, 2, "NUL byte" },
	{ "queens 3\nabc\nab\xc3\xa9\nabc\n", 0, QUBO_ERR_PARSE, 3, 3, "byte 0xC3" },
	{ "nqueens\n", 0, QUBO_ERR_PARSE, 1, 8, "board size" },
	{ "nqueens 5000\n", 0, QUBO_ERR_TOO_LARGE, 1, 9, "the board size 5000 is above the largest" },
	{ "nqueens 4 sphere\n", 0, QUBO_ERR_PARSE, 1, 11, "expected 'torus'" },
	{ "nqueens 4 torus cylinder\n", 0, QUBO_ERR_PARSE, 1, 17, "unexpected word after" },
	{ "nqueens 4\n....\n.Q.\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 4, "row 2 has 3" },
	{ "nqueens 4\n....\n..x.\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 3, "unexpected 'x'" },
	{ "nqueens 4\n# a comment\n....\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected a space" },
	{ "nqueens 4\n....\n....\n....\n....\n#\n", 0, QUBO_ERR_PARSE, 6, 1, "after the grid" },
	{ "nqueens 3\n...\r\n...\r\n..", 0, QUBO_ERR_PARSE, 4, 3, "row 3 has 2" },
	/* well formed, no solution: infeasible, not a parse error */
	{ "queens 3\nAAb\nabc\nbcc\n", 0, QUBO_ERR_INFEASIBLE, 0, 0, "row 1 has 2 pre-placed" },
	{ "queens 3\naab\naAb\nbbb\n", 0, QUBO_ERR_INFEASIBLE, 0, 0, "region c has no cells" },
	{ "queens 2\nab\nab\n", 0, QUBO_ERR_INFEASIBLE, 0, 0, "no solution" },
	{ "nqueens 4\n.Q..\n..Q.\n....\n....\n", 0, QUBO_ERR_INFEASIBLE, 0, 0,
	  "attack each other" },
	{ "nqueens 3\n###\n...\n...\n", 0, QUBO_ERR_INFEASIBLE, 0, 0, "row 1 has no cells" },
	{ "queens 6 stars 4\naaabbb\naaabbb\ncccddd\ncccddd\neeefff\neeefff\n", 0,
	  QUBO_ERR_INFEASIBLE, 0, 0, "no solution" },
};

Test(puzzle_text, malformed_and_contradictory_input)
{
	size_t i;

	cr_assert_geq(sizeof bad / sizeof bad[0], 40);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const bad_case *b = &bad[i];
		size_t len = b->len ? b->len : strlen(b->text);
		qubo_puzzle *p = (qubo_puzzle *)&len;
		int rc = qubo_puzzle_parse(&p, b->text, len, NULL);

		cr_expect_eq(rc, b->status, "case %zu: status %s, expected %s (%s)", i,
			     qubo_status_name(rc), qubo_status_name(b->status),
			     qubo_error_message());
		cr_expect_null(p, "case %zu", i);
		cr_expect_eq(qubo_error_code(), b->status, "case %zu", i);
		cr_expect_eq(qubo_error_line(), b->line, "case %zu: line %zu, expected %zu (%s)", i,
			     qubo_error_line(), b->line, qubo_error_message());
		cr_expect_eq(qubo_error_column(), b->column,
			     "case %zu: column %zu, expected %zu (%s)", i, qubo_error_column(),
			     b->column, qubo_error_message());
		cr_expect(strstr(qubo_error_message(), b->needle), "case %zu: '%s' lacks '%s'", i,
			  qubo_error_message(), b->needle);
		if (b->line) {
			char prefix[48];
			snprintf(prefix, sizeof prefix, "line %zu, column %zu: ", b->line,
				 b->column);
			cr_expect_eq(strncmp(qubo_error_message(), prefix, strlen(prefix)), 0,
				     "case %zu: %s", i, qubo_error_message());
		}
	}
}

static void format_of(const char *text, char *out, size_t cap)
{
	qubo_puzzle *p = NULL;
	size_t len = 0;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s\n%s",
		     qubo_error_message(), text);
	cr_assert_eq(qubo_puzzle_format(p, out, cap, &len), QUBO_OK);
	cr_assert_eq(len, strlen(out));
	qubo_puzzle_free(p);
}

/* Comments, blank lines, CRLF, trailing blanks and a missing final newline
 * are accepted; the result is the same puzzle. */
Test(puzzle_text, general_rules_accepted)
{
	static const char *canon = "queens 4\n"
				   "aabb\n"
				   "acbB\n"
				   "dccb\n"
				   "ddc.\n";
	static const char *variants[] = {
		"# a comment\n\n# another\nqueens 4\naabb\nacbB\ndccb\nddc.\n",
		"queens 4\r\naabb\r\nacbB\r\ndccb\r\nddc.\r\n",
		"  queens \t 4  \naabb  \nacbB\t\ndccb \nddc.",
		("queens 4\n\n# between the header and the grid\n\naabb\nacbB\ndccb\nddc.\n"
		 "\n# end\n\n"),
		"queens 4 stars 1\naabb\nacbB\ndccb\nddc.\n",
	};
	char a[256], b[256];
	size_t i;

	format_of(canon, a, sizeof a);
	cr_assert_str_eq(a, canon);
	for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		format_of(variants[i], b, sizeof b);
		cr_assert_str_eq(b, a, "variant %zu", i);
	}
	/* N-Queens: a grid only when it says something */
	format_of("nqueens 5 torus\n", a, sizeof a);
	cr_assert_str_eq(a, "nqueens 5 torus\n");
	format_of("nqueens 4\n\n....\n..#.\nQ...\n....\n", a, sizeof a);
	cr_assert_str_eq(a, "nqueens 4\n....\n..#.\nQ...\n....\n");
	format_of("nqueens 5 cylinder\n", a, sizeof a);
	cr_assert_str_eq(a, "nqueens 5 cylinder\n");
	format_of("nqueens 4\n....\n....\n....\n....\n", a, sizeof a);
	cr_assert_str_eq(a, "nqueens 4\n");
	/* regions = rows: every 2-star placement is a solution */
	format_of("queens 8  stars  2\naaaaaaaa\nbbbbbbbb\ncccccccc\ndddddddd\neeeeeeee\n"
		  "ffffffff\ngggggggg\nhhhhhhhh\n",
		  a, sizeof a);
	cr_assert_str_eq(a, "queens 8 stars 2\naaaaaaaa\nbbbbbbbb\ncccccccc\ndddddddd\neeeeeeee\n"
			    "ffffffff\ngggggggg\nhhhhhhhh\n");
}

/* format, parse, format: the same text, for random instances. */
Test(puzzle_text, format_round_trip)
{
	tu_rng r = { 1234 };
	int i, done = 0;

	for (i = 0; i < 200; i++) {
		ph_inst I;
		char text[1024], a[1024], b[1024];
		int32_t k = i % 2 ? 2 : 1;
		qubo_puzzle *p = NULL, *q = NULL;
		size_t la, lb;
		qubo_puzzle_options o;

		memset(&o, 0, sizeof o);
		o.struct_size = sizeof o;
		o.reduce = QUBO_REDUCE_NONE;
		ph_random_regions(&I, &r, k == 2 ? 8 : (uint32_t)tu_range(&r, 4, 6), k,
				  (int)tu_below(&r, 3), (int)tu_range(&r, 0, 2));
		ph_queens_text(&I, k, text, sizeof text);
		if (qubo_puzzle_parse(&p, text, strlen(text), &o) != QUBO_OK) {
			if (getenv("PH_DEBUG"))
				fprintf(stderr, "%s\n%s\n", qubo_error_message(), text);
			cr_assert_eq(qubo_error_code(), QUBO_ERR_INFEASIBLE, "%s",
				     qubo_error_message());
			continue;
		}
		cr_assert_eq(qubo_puzzle_format(p, a, sizeof a, &la), QUBO_OK);
		cr_assert_str_eq(a, strstr(text, "queens"), "the text comes back without comments");
		cr_assert_eq(qubo_puzzle_parse(&q, a, la, &o), QUBO_OK);
		cr_assert_eq(qubo_puzzle_format(q, b, sizeof b, &lb), QUBO_OK);
		cr_assert_str_eq(a, b);
		qubo_puzzle_free(p);
		qubo_puzzle_free(q);
		done++;
	}
	cr_assert_gt(done, 100);
}

/* The buffer conventions of the format functions. */
Test(puzzle_text, format_buffers)
{
	static const char text[] = "queens 4\naabb\nacbB\ndccb\nddc.\n";
	qubo_puzzle *p = NULL;
	char buf[64];
	size_t len = 0;
	uint8_t board[16] = { 0 };

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &len), QUBO_OK);
	cr_assert_eq(len, sizeof text - 1);
	memset(buf, 'x', sizeof buf);
	cr_assert_eq(qubo_puzzle_format(p, buf, len, &len), QUBO_OK);
	cr_assert_eq(buf[len - 1], '\n');
	cr_assert_eq(buf[len], 'x', "no NUL when the text fills the buffer exactly");
	cr_assert_eq(qubo_puzzle_format(p, buf, 5, &len), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_puzzle_format(p, buf, len + 1, NULL), QUBO_OK);
	cr_assert_str_eq(buf, text);
	board[1] = board[7] = board[8] = board[14] = 1;
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, NULL, 0, &len), QUBO_OK);
	cr_assert_eq(len, 29);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, buf, sizeof buf, &len), QUBO_OK);
	cr_assert_str_eq(buf, "queens 4\n.Q..\n...Q\nQ...\n..Q.\n");
	board[3] = 2;
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, buf, sizeof buf, &len),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 15, buf, sizeof buf, &len),
		     QUBO_ERR_INVALID_ARG);
	qubo_puzzle_free(p);

	/* a spec-built puzzle has no text form, but its solutions do */
	{
		qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
		uint8_t off[4] = { 0, 1, 0, 0 }, b4[4] = { 1, 0, 0, 1 };

		s.width = s.height = 2;
		s.off_board = off;
		cr_assert_eq(qubo_puzzle_queens_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_GENERAL_QUEENS);
		cr_assert_eq(qubo_puzzle_format(p, buf, sizeof buf, &len), QUBO_ERR_NOT_SUPPORTED);
		cr_assert_eq(qubo_puzzle_format_solution(p, b4, 4, buf, sizeof buf, &len), QUBO_OK);
		cr_assert_str_eq(buf, "Q#\n.Q\n");
		memset(b4, 9, sizeof b4);
		cr_assert_eq(qubo_puzzle_parse_solution(p, buf, len, b4, 4), QUBO_OK);
		cr_assert_eq(b4[0], 1);
		cr_assert_eq(b4[1], 0);
		cr_assert_eq(b4[3], 1);
		qubo_puzzle_free(p);
	}
}

/* Solution files: with or without comments and header; header mismatches
 * and bad cells are parse errors with positions. */
Test(puzzle_text, solution_files)
{
	static const char text[] = "queens 4\naabb\nacbB\ndccb\nddc.\n";
	static const struct {
		const char *sol;
		int status;
		size_t line, column;
	} cases[] = {
		{ "# solution: by hand\nqueens 4\n.Q..\n...Q\nQ...\n..Q.\n", QUBO_OK, 0, 0 },
		{ ".Q..\n...Q\nQ...\n..Q.\n", QUBO_OK, 0, 0 },
		{ "queens 4 stars 1\n.Q..\n...Q\nQ...\n..Q.\n\n# done\n", QUBO_OK, 0, 0 },
		{ "queens 5\n.Q..\n...Q\nQ...\n..Q.\n", QUBO_ERR_PARSE, 1, 8 },
		{ "queens 4 stars 2\n.Q..\n...Q\nQ...\n..Q.\n", QUBO_ERR_PARSE, 1, 16 },
		{ "queens 4\n.Q..\n...Q\nQ..\n..Q.\n", QUBO_ERR_PARSE, 4, 4 },
		{ "queens 4\n.Q..\n...q\nQ...\n..Q.\n", QUBO_ERR_PARSE, 3, 4 },
		{ "queens 4\n.Q..\n...Q\nQ...\n..Q#\n", QUBO_ERR_PARSE, 5, 4 },
		{ "queens 4\n.Q..\n...Q\nQ...\n", QUBO_ERR_PARSE, 5, 1 },
		{ "queens 4\n", QUBO_ERR_PARSE, 2, 1 },
		{ "", QUBO_ERR_PARSE, 1, 1 },
		{ "queens 4\n.Q..\n...Q\nQ...\n..Q.\n.Q..\n", QUBO_ERR_PARSE, 6, 1 },
		/* a size beyond any board: not the puzzle's (not "too large") */
		{ "queens 40000\n.Q..\n...Q\nQ...\n..Q.\n", QUBO_ERR_PARSE, 1, 8 },
	};
	qubo_puzzle *p = NULL;
	uint8_t board[16];
	size_t i, viol = 9;

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = qubo_puzzle_parse_solution(p, cases[i].sol, strlen(cases[i].sol), board,
						    sizeof board);

		cr_expect_eq(rc, cases[i].status, "case %zu: %s", i, qubo_error_message());
		if (rc == QUBO_OK) {
			cr_assert_eq(qubo_puzzle_check(p, board, 16, NULL, 0, &viol), QUBO_OK);
			cr_expect_eq(viol, 0, "case %zu", i);
			cr_expect_eq(board[1] + board[7] + board[8] + board[14], 4);
		} else {
			cr_expect_eq(qubo_error_line(), cases[i].line, "case %zu: %s", i,
				     qubo_error_message());
			cr_expect_eq(qubo_error_column(), cases[i].column, "case %zu: %s", i,
				     qubo_error_message());
		}
	}
	cr_assert_eq(qubo_puzzle_parse_solution(p, cases[0].sol, strlen(cases[0].sol), board, 15),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	qubo_puzzle_free(p);

	/* nqueens: '#' marks the off-board cells in a solution */
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n....\n#...\n....\n....\n", 30, NULL),
		     QUBO_OK, "%s", qubo_error_message());
	{
		static const char good[] = "nqueens 4\n.Q..\n#..Q\nQ...\n..Q.\n";
		static const char wrap[] = "nqueens 4 torus\n.Q..\n#..Q\nQ...\n..Q.\n";
		static const char hash[] = "nqueens 4\n.Q.#\n#..Q\nQ...\n..Q.\n";
		char out[64];
		size_t len;

		cr_assert_eq(qubo_puzzle_parse_solution(p, good, sizeof good - 1, board, 16),
			     QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, out, sizeof out, &len),
			     QUBO_OK);
		cr_assert_str_eq(out, good);
		cr_assert_eq(qubo_puzzle_parse_solution(p, wrap, sizeof wrap - 1, board, 16),
			     QUBO_ERR_PARSE);
		cr_assert_eq(qubo_error_column(), 11);
		cr_assert_eq(qubo_puzzle_parse_solution(p, hash, sizeof hash - 1, board, 16),
			     QUBO_ERR_PARSE);
		cr_assert_eq(qubo_error_line(), 2);
		cr_assert_eq(qubo_error_column(), 4);
	}
	qubo_puzzle_free(p);
}

/* A spec-built board writes its solutions without a header, so a first row
 * that starts off the board ('#') must still read as the grid, and round
 * trip; a comment line before it is still a comment. */
Test(puzzle_text, headerless_solutions_starting_off_the_board)
{
	static const uint8_t off[4] = { 1, 0, 0, 0 };
	static const char commented[] = "# by hand\n#Q\n..\n";
	qubo_puzzle_queens_spec qs = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle_domination_spec ds = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle *p[3] = { NULL, NULL, NULL };
	uint8_t board[4] = { 0, 1, 0, 0 }, back[4];
	char text[64];
	size_t k, len = 0;

	qs.width = qs.height = 2;
	qs.off_board = off;
	cr_assert_eq(qubo_puzzle_queens_new(&p[0], &qs, NULL), QUBO_OK, "%s", qubo_error_message());
	ds.width = ds.height = 2;
	ds.off_board = off;
	cr_assert_eq(qubo_puzzle_domination_new(&p[1], &ds, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	qs.width = qs.height = 1; /* every cell off the board */
	cr_assert_eq(qubo_puzzle_queens_new(&p[2], &qs, NULL), QUBO_OK, "%s", qubo_error_message());
	for (k = 0; k < 3; k++) {
		size_t cells = k == 2 ? 1 : 4;

		cr_assert_eq(qubo_puzzle_format_solution(p[k], k == 2 ? back : board, cells, text,
							 sizeof text, &len),
			     QUBO_OK);
		cr_assert_eq(text[0], '#', "puzzle %zu: %s", k, text);
		memset(back, 9, sizeof back);
		cr_assert_eq(qubo_puzzle_parse_solution(p[k], text, len, back, cells), QUBO_OK,
			     "puzzle %zu: %s: %s", k, text, qubo_error_message());
		if (k < 2)
			cr_assert_eq(memcmp(back, board, 4), 0, "puzzle %zu", k);
	}
	/* a comment that is no row of the board is still a comment */
	cr_assert_eq(qubo_puzzle_parse_solution(p[0], commented, sizeof commented - 1, back, 4),
		     QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(memcmp(back, board, 4), 0);
	for (k = 0; k < 3; k++)
		qubo_puzzle_free(p[k]);
}

/* parse_file reads a file; a missing file is an I/O error. */
Test(puzzle_text, parse_file)
{
	const char *dir = getenv("QUBO_TEST_TMPDIR");
	char path[512];
	FILE *f;
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_parse_file(&p, "/nonexistent/dir/q.txt", NULL), QUBO_ERR_IO);
	cr_assert(strstr(qubo_error_message(), "/nonexistent/dir/q.txt"), "%s",
		  qubo_error_message());
	cr_assert_null(p);
	snprintf(path, sizeof path, "%s/puzzle_text_%d.txt", dir ? dir : "/tmp", (int)getpid());
	f = fopen(path, "wb");
	cr_assert(f);
	fputs("# file\nnqueens 5 torus\n", f);
	fclose(f);
	cr_assert_eq(qubo_puzzle_parse_file(&p, path, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_NQUEENS);
	qubo_puzzle_free(p);
	f = fopen(path, "wb");
	cr_assert(f);
	fputs("nqueens 3\n...\n..\n", f);
	fclose(f);
	cr_assert_eq(qubo_puzzle_parse_file(&p, path, NULL), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3);
	cr_assert_eq(qubo_error_column(), 3);
	remove(path);
}

/* The size queries of qubo_puzzle_format() and qubo_puzzle_format_solution()
 * (capacity 0) succeed with the length, so that `rc < 0` checks accept
 * them; one byte of capacity is still QUBO_ERR_BUFFER_TOO_SMALL. */
Test(puzzle_text, size_queries_return_ok)
{
	static const char text[] = "queens 4\naabb\nacbB\ndccb\nddc.\n";
	qubo_puzzle *p = NULL;
	uint8_t board[16] = { 0 };
	size_t len = 0, got = 0;
	char one = 'x';

	board[1] = board[7] = board[8] = board[14] = 1;
	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &len), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(len, sizeof text - 1);
	cr_assert_eq(qubo_puzzle_format(p, &one, 0, &got), QUBO_OK);
	cr_assert_eq(got, len);
	cr_assert_eq(one, 'x', "the size query wrote into the buffer");
	cr_assert_eq(qubo_puzzle_format(p, &one, 1, &got), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(got, len);

	len = 0;
	one = 'x';
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, NULL, 0, &len), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(len, strlen("queens 4\n.Q..\n...Q\nQ...\n..Q.\n"));
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, &one, 0, &got), QUBO_OK);
	cr_assert_eq(got, len);
	cr_assert_eq(one, 'x', "the size query wrote into the buffer");
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 16, &one, 1, &got),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(got, len);
	qubo_puzzle_free(p);
}
