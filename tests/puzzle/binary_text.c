/* Text forms of the binary-grid families (doc/formats.md "Takuzu / Binairo /
 * Unruly", "Tango", "Solutions"): malformed `takuzu` and `tango` files
 * rejected with the right status and the line and column the message names;
 * the general rules; round trips through qubo_puzzle_format(); solution
 * files, which for Tango keep the signs; the spec-built puzzle, which has no
 * text form and whose solution is a bare grid. */
#include "puzzle/binary_oracle.h"

typedef struct bad_case {
	const char *text;
	size_t len; /* 0: strlen */
	int status;
	size_t line, column;
	const char *needle;
} bad_case;

static const bad_case bad_takuzu[] = {
	{ "takuzu\n", 0, QUBO_ERR_PARSE, 1, 7, "needs the board size: takuzu N or takuzu WxH" },
	{ "takuzu   \n", 0, QUBO_ERR_PARSE, 1, 10, "needs the board size" },
	{ "takuzu 5\n", 0, QUBO_ERR_PARSE, 1, 8, "needs even sides" },
	{ "takuzu 4x3\n....\n....\n....\n", 0, QUBO_ERR_PARSE, 1, 8, "this one is 4 x 3" },
	{ "takuzu 3x4\n", 0, QUBO_ERR_PARSE, 1, 8, "this one is 3 x 4" },
	{ "takuzu 4 unique\n", 0, QUBO_ERR_PARSE, 1, 10, "expected 'nounique' or the end" },
	{ "takuzu 4 4\n", 0, QUBO_ERR_PARSE, 1, 10, "unexpected word in the header" },
	{ "takuzu 4 nounique extra\n", 0, QUBO_ERR_PARSE, 1, 19, "unexpected word after 'nounique'" },
	{ "takuzu y\n", 0, QUBO_ERR_PARSE, 1, 8, "must be a number, not 'y'" },
	{ "takuzu x\n", 0, QUBO_ERR_PARSE, 1, 8, "board width must be between 1 and 4096" },
	{ "takuzu -4\n", 0, QUBO_ERR_PARSE, 1, 8, "must be a number" },
	{ "takuzu 4y\n", 0, QUBO_ERR_PARSE, 1, 9, "must be a number, not '4y'" },
	{ "takuzu 0\n", 0, QUBO_ERR_PARSE, 1, 8, "between 1 and 4096, not 0" },
	{ "takuzu 5000\n", 0, QUBO_ERR_TOO_LARGE, 1, 8, "board size 5000 is above the largest the library takes, 4096" },
	{ "takuzu 4096x4098\n", 0, QUBO_ERR_TOO_LARGE, 1, 13, "board height 4098 is above the largest" },
	{ "takuzu 4x\n", 0, QUBO_ERR_PARSE, 1, 10, "board height must be between" },
	{ "takuzu x4\n", 0, QUBO_ERR_PARSE, 1, 8, "board width must be between" },
	{ "takuzu 4\n", 0, QUBO_ERR_PARSE, 2, 1, "not followed by the 4 x 4 grid" },
	{ "takuzu 4", 0, QUBO_ERR_PARSE, 1, 9, "not followed by the 4 x 4 grid" },
	{ "takuzu 4\n# only comments\n\n", 0, QUBO_ERR_PARSE, 4, 1, "not followed by" },
	{ "takuzu 4\n....\n...\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 4, "row 2 has 3 of the board's 4" },
	{ "takuzu 4\n....\n.....\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 5, "row 2 is longer" },
	{ "takuzu 4\n....\n.2..\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 2, "unexpected '2' in row 2 (expected '.', '0' or '1')" },
	{ "takuzu 2\n.x\n..\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected 'x' in row 1" },
	{ "takuzu 4\n. ..\n....\n....\n....\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected a space" },
	{ "takuzu 4\n.\t..\n....\n....\n....\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected a tab" },
	{ "takuzu 4\n..\xc3\xa9\n....\n....\n....\n", 0, QUBO_ERR_PARSE, 2, 3, "byte 0xC3" },
	{ "takuzu 4\n....\n....\n", 0, QUBO_ERR_PARSE, 4, 1, "ends after 2 of its 4 rows" },
	{ "takuzu 4\n....\n....", 0, QUBO_ERR_PARSE, 3, 5, "ends after 2 of its 4 rows" },
	{ "takuzu 4\n....\n\n....\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 1, "blank line inside the grid" },
	{ "takuzu 4\n....\n# c\n....\n....\n", 0, QUBO_ERR_PARSE, 3, 1, "unexpected '#'" },
	{ "takuzu 4\n....\n....\n....\n....\n1010\n", 0, QUBO_ERR_PARSE, 6, 1, "unexpected text after the grid" },
	{ "takuzu 4\n....\n....\n....\n....\n\n  # late\n", 0, QUBO_ERR_PARSE, 0, 0, NULL }, /* a comment: fine */
	{ "takuzu 4\n....\n....\n....\n....\n\n   x\n", 0, QUBO_ERR_PARSE, 7, 4, "after the grid" },
	{ "takuzu 4\n....\n.\0..\n....\n....\n", 29, QUBO_ERR_PARSE, 3, 2, "NUL byte" },
	{ "\0takuzu 4\n", 10, QUBO_ERR_PARSE, 1, 1, "NUL byte" },
	{ "takuzu 2\r\n..\r\n.\r\n", 0, QUBO_ERR_PARSE, 3, 2, "row 2 has 1 of the board's 2" },
	{ "Takuzu 4\n....\n....\n....\n....\n", 0, QUBO_ERR_PARSE, 1, 1, "unknown puzzle family 'Takuzu'" },
	{ "takuzu4\n", 0, QUBO_ERR_PARSE, 1, 1, "unknown puzzle family" },
};

static const bad_case bad_tango[] = {
	{ "tango\n", 0, QUBO_ERR_PARSE, 1, 6, "needs the board size: tango N or tango WxH" },
	{ "tango 5\n", 0, QUBO_ERR_PARSE, 1, 7, "needs even sides" },
	{ "tango 4x5\n", 0, QUBO_ERR_PARSE, 1, 7, "this one is 4 x 5" },
	{ "tango 0\n", 0, QUBO_ERR_PARSE, 1, 7, "between 1 and 4096" },
	{ "tango 4098\n", 0, QUBO_ERR_TOO_LARGE, 1, 7, "the board size 4098 is above the largest" },
	{ "tango six\n", 0, QUBO_ERR_PARSE, 1, 7, "must be a number" },
	{ "tango 6 nounique\n", 0, QUBO_ERR_PARSE, 1, 9, "unexpected word in the header (expected the end of the line)" },
	{ "tango 2 2\n", 0, QUBO_ERR_PARSE, 1, 9, "unexpected word" },
	{ "tango 4\n", 0, QUBO_ERR_PARSE, 2, 1, "not followed by the 4 x 4 grid" },
	{ "tango 4\n. . .\n", 0, QUBO_ERR_PARSE, 2, 6, "row 1 has 5 of the 7 characters" },
	{ "tango 4\n....\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected '.' between columns 1 and 2 of row 1" },
	{ "tango 4\n. . . .=\n", 0, QUBO_ERR_PARSE, 2, 8, "row 1 is longer than the 7 characters" },
	{ "tango 4\n. . . .\n= = = = =\n", 0, QUBO_ERR_PARSE, 3, 8, "the line of signs below row 1 is longer" },
	{ "tango 4\n. 2 . .\n", 0, QUBO_ERR_PARSE, 2, 3, "unexpected '2' at row 1, column 2 (expected '.', '0' or '1')" },
	{ "tango 4\n= . . .\n", 0, QUBO_ERR_PARSE, 2, 1, "unexpected '=' at row 1, column 1" },
	{ "tango 4\n.-. . .\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected '-' between columns 1 and 2 of row 1 (expected ' ', '=' or 'x')" },
	{ "tango 4\n. . .X.\n", 0, QUBO_ERR_PARSE, 2, 6, "unexpected 'X' between columns 3 and 4" },
	{ "tango 4\n.\t. . .\n", 0, QUBO_ERR_PARSE, 2, 2, "unexpected a tab between columns 1 and 2" },
	{ "tango 4\n. . . .\n  + \n", 0, QUBO_ERR_PARSE, 3, 3, "unexpected '+' below row 1, column 2" },
	{ "tango 4\n. . . .\n=x\n", 0, QUBO_ERR_PARSE, 3, 2, "unexpected 'x' between the signs below row 1 (expected a space)" },
	{ "tango 4\n. . . .\n     x\n", 0, QUBO_ERR_PARSE, 3, 6, "between the signs below row 1" },
	{ "tango 4\n. . . .\n. . . .\n", 0, QUBO_ERR_PARSE, 3, 1, "unexpected '.' below row 1, column 1" },
	{ "tango 4\n. . . .\n# c\n", 0, QUBO_ERR_PARSE, 3, 1, "unexpected '#' below row 1, column 1" },
	{ "tango 4\n. . . .\n\n\n", 0, QUBO_ERR_PARSE, 4, 1, "blank line where row 2 of the cells should be" },
	{ "tango 4\n. . . .\n\n= = = =\n", 0, QUBO_ERR_PARSE, 4, 1, "unexpected '=' at row 2, column 1" },
	{ "tango 4\n. . . .\n\n. . . .\n", 0, QUBO_ERR_PARSE, 5, 1, "the grid ends after 3 of its 7 lines" },
	{ "tango 4\n. . . .\n\n. . . .\n\n. . . .\n\n. . . .", 0, QUBO_OK, 0, 0, NULL },
	{ "tango 4\n. . . .\n\n. . . .\n\n. . . .\n\n. . . .\n. . . .\n", 0, QUBO_ERR_PARSE, 9, 1, "unexpected text after the grid" },
	{ "tango 4\n. . . .\n\n. . . .\n\n. . . .\n\n. . . .\n\n\n  =\n", 0, QUBO_ERR_PARSE, 11, 3, "unexpected text after the grid" },
	{ "tango 2\n.\0.\n\n. .\n", 17, QUBO_ERR_PARSE, 2, 2, "NUL byte" },
	{ "tango 2\r\n. .\r\n\r\n. \r\n", 0, QUBO_ERR_PARSE, 4, 2, "row 2 has 1 of the 3 characters" },
	{ "tango 2\n. .\n\n.\xe2\x80\x94.\n", 0, QUBO_ERR_PARSE, 4, 2, "unexpected byte 0xE2 between columns 1 and 2 of row 2" },
	/* well formed, no solution: infeasible, not a parse error */
	{ "tango 4\n0=1 . .\n\n. . . .\n\n. . . .\n\n. . . .\n", 0, QUBO_ERR_INFEASIBLE, 0, 0, "contradict the signs" },
	{ "tango 4\n1 1 1 .\n\n. . . .\n\n. . . .\n\n. . . .\n", 0, QUBO_ERR_INFEASIBLE, 0, 0, "no solution" },
};

static size_t run_cases(const bad_case *cases, size_t count, const char *family)
{
	size_t i, errors = 0;

	for (i = 0; i < count; i++) {
		const bad_case *b = &cases[i];
		size_t len = b->len ? b->len : strlen(b->text);
		qubo_puzzle *p = (qubo_puzzle *)&len;
		int rc = qubo_puzzle_parse(&p, b->text, len, NULL);

		if (b->status == QUBO_ERR_PARSE && !b->needle) {
			/* a control: this one is well formed */
			cr_expect_eq(rc, QUBO_OK, "%s case %zu: %s", family, i, qubo_error_message());
			qubo_puzzle_free(rc == QUBO_OK ? p : NULL);
			continue;
		}
		if (b->status == QUBO_OK) {
			cr_expect_eq(rc, QUBO_OK, "%s case %zu: %s", family, i, qubo_error_message());
			qubo_puzzle_free(rc == QUBO_OK ? p : NULL);
			continue;
		}
		errors += b->status == QUBO_ERR_PARSE;
		cr_expect_eq(rc, b->status, "%s case %zu: status %s, expected %s (%s)", family, i,
			     qubo_status_name(rc), qubo_status_name(b->status), qubo_error_message());
		if (rc == QUBO_OK) {
			qubo_puzzle_free(p);
			continue;
		}
		cr_expect_null(p, "%s case %zu", family, i);
		cr_expect_eq(qubo_error_code(), b->status, "%s case %zu", family, i);
		cr_expect_eq(qubo_error_line(), b->line, "%s case %zu: line %zu, expected %zu (%s)",
			     family, i, qubo_error_line(), b->line, qubo_error_message());
		cr_expect_eq(qubo_error_column(), b->column,
			     "%s case %zu: column %zu, expected %zu (%s)", family, i,
			     qubo_error_column(), b->column, qubo_error_message());
		cr_expect(strstr(qubo_error_message(), b->needle), "%s case %zu: '%s' lacks '%s'",
			  family, i, qubo_error_message(), b->needle);
		if (b->line) {
			char prefix[48];
			snprintf(prefix, sizeof prefix, "line %zu, column %zu: ", b->line,
				 b->column);
			cr_expect_eq(strncmp(qubo_error_message(), prefix, strlen(prefix)), 0,
				     "%s case %zu: the message does not start with '%s': %s",
				     family, i, prefix, qubo_error_message());
		}
	}
	return errors;
}

Test(binary_text, malformed_takuzu)
{
	size_t n = run_cases(bad_takuzu, sizeof bad_takuzu / sizeof bad_takuzu[0], "takuzu");
	cr_assert_geq(n, 20, "only %zu malformed takuzu files", n);
}

Test(binary_text, malformed_tango)
{
	size_t n = run_cases(bad_tango, sizeof bad_tango / sizeof bad_tango[0], "tango");
	cr_assert_geq(n, 20, "only %zu malformed tango files", n);
}

/* ---- the general rules and round trips ---- */

static void format_of(const char *text, char *out, size_t cap, int family)
{
	qubo_puzzle *p = NULL;
	size_t len = 0;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s\n%s",
		     qubo_error_message(), text);
	cr_assert_eq(qubo_puzzle_family(p), family, "%s", text);
	cr_assert_eq(qubo_puzzle_format(p, out, cap, &len), QUBO_OK);
	cr_assert_eq(len, strlen(out));
	qubo_puzzle_free(p);
}

Test(binary_text, takuzu_general_rules_and_canonical_form)
{
	static const char *canon = "takuzu 6\n"
				   "1..0..\n"
				   "......\n"
				   "..1...\n"
				   ".0....\n"
				   "......\n"
				   "0....1\n";
	static const char *variants[] = {
		"# a comment\n\n# another\ntakuzu 6\n1..0..\n......\n..1...\n.0....\n......\n0....1\n",
		"takuzu 6\r\n1..0..\r\n......\r\n..1...\r\n.0....\r\n......\r\n0....1\r\n",
		"  takuzu \t 6  \n1..0..  \n......\t\n..1...\n.0....\n......\n0....1",
		("takuzu 6x6\n\n# between the header and the grid\n\n1..0..\n......\n..1...\n.0....\n"
		 "......\n0....1\n\n# end\n\n"),
	};
	char a[512], b[512];
	size_t i;

	format_of(canon, a, sizeof a, QUBO_PUZZLE_TAKUZU);
	cr_assert_str_eq(a, canon);
	for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		format_of(variants[i], b, sizeof b, QUBO_PUZZLE_TAKUZU);
		cr_assert_str_eq(b, canon, "variant %zu", i);
	}
	/* nounique and rectangular boards keep their header words */
	format_of("takuzu 6x4 nounique\n......\n......\n......\n......\n", a, sizeof a,
		  QUBO_PUZZLE_TAKUZU);
	cr_assert_str_eq(a, "takuzu 6x4 nounique\n......\n......\n......\n......\n");
	format_of("takuzu 2x4\n..\n..\n..\n..\n", a, sizeof a, QUBO_PUZZLE_TAKUZU);
	cr_assert_str_eq(a, "takuzu 2x4\n..\n..\n..\n..\n");
	format_of("takuzu  4x4  nounique \n....\n....\n....\n....\n", a, sizeof a,
		  QUBO_PUZZLE_TAKUZU);
	cr_assert_str_eq(a, "takuzu 4 nounique\n....\n....\n....\n....\n");
}

Test(binary_text, tango_general_rules_and_canonical_form)
{
	/* rows at full width, sign lines at full width (doc/formats.md) */
	static const char *canon = "tango 4\n"
				   "0 .x. .\n"
				   "      =\n"
				   ". . . 1\n"
				   "x      \n"
				   ". .=. .\n"
				   "       \n"
				   ". . . .\n";
	static const char *variants[] = {
		/* trailing spaces missing, empty sign lines */
		"tango 4\n0 .x. .\n      =\n. . . 1\nx\n. .=. .\n\n. . . .\n",
		/* comments before, CRLF */
		"# c\n\ntango 4\r\n0 .x. .\r\n      =\r\n. . . 1\r\nx\r\n. .=. .\r\n\r\n. . . .\r\n",
		/* 4x4 header, trailing blanks and comments after */
		"tango 4x4 \n\n0 .x. .  \n      =\n. . . 1\nx      \t\n. .=. .\n       \n. . . .\n\n# end\n",
	};
	char a[512], b[512];
	size_t i;

	format_of(canon, a, sizeof a, QUBO_PUZZLE_TANGO);
	cr_assert_str_eq(a, canon);
	for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		format_of(variants[i], b, sizeof b, QUBO_PUZZLE_TANGO);
		cr_assert_str_eq(b, canon, "variant %zu", i);
	}
	format_of("tango 6x2\n. . . . . .\n\n. . . . . .\n", a, sizeof a, QUBO_PUZZLE_TANGO);
	cr_assert_str_eq(a, "tango 6x2\n. . . . . .\n           \n. . . . . .\n");
}

/* format, parse, format: the same text, and the same puzzle (the same
 * model and cell literals), for random instances of both forms. */
Test(binary_text, format_round_trip)
{
	tu_rng r = { 4711 };
	int i, done = 0, trials = bo_valgrind() ? 40 : 200;

	for (i = 0; i < trials; i++) {
		static const uint32_t sizes[][2] = { { 4, 4 }, { 6, 6 }, { 8, 8 }, { 6, 4 },
						     { 2, 6 }, { 10, 10 }, { 8, 2 } };
		bo_inst I;
		uint8_t x[BO_MAX_CELLS];
		char text[1024], a[1024], b[1024];
		qubo_puzzle *p = NULL, *q = NULL;
		size_t la, lb, k = (size_t)tu_below(&r, sizeof sizes / sizeof sizes[0]), c;
		qubo_lit lp[BO_MAX_CELLS], lq[BO_MAX_CELLS];
		int tango = i % 2;
		qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;

		o.reduce = QUBO_REDUCE_CLUES;
		if (sizes[k][0] * sizes[k][1] > BO_MAX_CELLS)
			k = 0;
		bo_init(&I, sizes[k][0], sizes[k][1]);
		I.distinct = !tango && tu_below(&r, 2);
		bo_prepare(&I);
		if (!bo_random_solution(&I, &r, x))
			continue;
		if (tango)
			bo_signs_from(&I, x, &r, (size_t)tu_range(&r, 0, 12), 1, 0);
		bo_clues_from(&I, x, &r, (int)tu_range(&r, 2, 8), 0);
		bo_text(&I, tango, text, sizeof text);
		cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK, "%s\n%s",
			     qubo_error_message(), text);
		cr_assert_eq(qubo_puzzle_format(p, a, sizeof a, &la), QUBO_OK);
		if (!tango)
			cr_assert_str_eq(a, text, "a takuzu file comes back as written");
		cr_assert_eq(qubo_puzzle_parse(&q, a, la, &o), QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(qubo_puzzle_format(q, b, sizeof b, &lb), QUBO_OK);
		cr_assert_str_eq(a, b);
		cr_assert_eq(qubo_puzzle_cell_literals(p, lp, bo_cells(&I)), QUBO_OK);
		cr_assert_eq(qubo_puzzle_cell_literals(q, lq, bo_cells(&I)), QUBO_OK);
		for (c = 0; c < bo_cells(&I); c++)
			cr_assert_eq(lp[c], lq[c], "cell %zu", c);
		qubo_puzzle_free(p);
		qubo_puzzle_free(q);
		done++;
	}
	cr_assert_geq(done, trials * 3 / 4);
}

/* The buffer conventions of qubo_puzzle_format(). */
Test(binary_text, format_buffers)
{
	static const char text[] = "takuzu 4\n1...\n....\n..0.\n....\n";
	qubo_puzzle *p = NULL;
	char buf[64];
	size_t len = 0;

	cr_assert_eq(qubo_puzzle_parse(&p, text, sizeof text - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &len), QUBO_OK);
	cr_assert_eq(len, sizeof text - 1);
	memset(buf, 'x', sizeof buf);
	cr_assert_eq(qubo_puzzle_format(p, buf, len, &len), QUBO_OK);
	cr_assert_eq(buf[len], 'x', "no NUL when the text fills the buffer exactly");
	cr_assert_eq(qubo_puzzle_format(p, buf, 5, &len), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_puzzle_format(p, buf, len + 1, NULL), QUBO_OK);
	cr_assert_str_eq(buf, text);
	qubo_puzzle_free(p);
}

/* ---- solutions ---- */

typedef struct sol_case {
	const char *sol;
	int status;
	size_t line, column;
	const char *needle;
} sol_case;

static void run_solution_cases(const char *puzzle, const sol_case *cases, size_t count,
			       const uint8_t *want, size_t cells)
{
	qubo_puzzle *p = NULL;
	uint8_t board[64];
	size_t i, viol = 9;

	cr_assert_eq(qubo_puzzle_parse(&p, puzzle, strlen(puzzle), NULL), QUBO_OK, "%s",
		     qubo_error_message());
	for (i = 0; i < count; i++) {
		int rc;

		memset(board, 7, sizeof board);
		rc = qubo_puzzle_parse_solution(p, cases[i].sol, strlen(cases[i].sol), board,
						cells);
		cr_expect_eq(rc, cases[i].status, "case %zu: %s: %s", i, qubo_status_name(rc),
			     qubo_error_message());
		if (rc == QUBO_OK) {
			cr_assert_eq(memcmp(board, want, cells), 0, "case %zu: another board", i);
			cr_assert_eq(qubo_puzzle_check(p, board, cells, NULL, 0, &viol), QUBO_OK);
			cr_expect_eq(viol, 0, "case %zu", i);
		} else {
			cr_expect_eq(qubo_error_line(), cases[i].line, "case %zu: %s", i,
				     qubo_error_message());
			cr_expect_eq(qubo_error_column(), cases[i].column, "case %zu: %s", i,
				     qubo_error_message());
			if (cases[i].needle)
				cr_expect(strstr(qubo_error_message(), cases[i].needle),
					  "case %zu: '%s' lacks '%s'", i, qubo_error_message(),
					  cases[i].needle);
		}
	}
	cr_assert_eq(qubo_puzzle_parse_solution(p, cases[0].sol, strlen(cases[0].sol), board,
						cells - 1),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	/* format_solution gives the first case back, without its comments */
	{
		char out[256];
		size_t len;
		const char *body = strstr(cases[0].sol, qubo_puzzle_family(p) == QUBO_PUZZLE_TANGO
								 ? "tango"
								 : "takuzu");

		cr_assert_eq(qubo_puzzle_format_solution(p, want, cells, NULL, 0, &len), QUBO_OK);
		cr_assert_eq(len, strlen(body));
		cr_assert_eq(qubo_puzzle_format_solution(p, want, cells, out, sizeof out, &len),
			     QUBO_OK);
		cr_assert_str_eq(out, body);
		cr_assert_eq(qubo_puzzle_parse_solution(p, out, len, board, cells), QUBO_OK);
		cr_assert_eq(memcmp(board, want, cells), 0);
		memcpy(board, want, cells);
		board[1] = 2;
		cr_assert_eq(qubo_puzzle_format_solution(p, board, cells, out, sizeof out, &len),
			     QUBO_ERR_INVALID_ARG);
		cr_assert_eq(qubo_puzzle_format_solution(p, want, cells - 1, out, sizeof out, &len),
			     QUBO_ERR_INVALID_ARG);
	}
	qubo_puzzle_free(p);
}

Test(binary_text, takuzu_solutions)
{
	static const char puzzle[] = "takuzu 4\n.0..\n1.1.\n...1\n..0.\n";
	static const uint8_t want[16] = { 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0 };
	static const sol_case cases[] = {
		{ "# solved\ntakuzu 4\n0011\n1010\n0101\n1100\n", QUBO_OK, 0, 0, NULL },
		{ "0011\n1010\n0101\n1100\n", QUBO_OK, 0, 0, NULL },
		{ "takuzu 4x4\r\n0011\r\n1010\r\n0101\r\n1100", QUBO_OK, 0, 0, NULL },
		{ "takuzu 4\n0011\n1010\n0101\n1100\n\n# end\n", QUBO_OK, 0, 0, NULL },
		{ "takuzu 4 nounique\n0011\n1010\n0101\n1100\n", QUBO_ERR_PARSE, 1, 10,
		  "has 'nounique', the puzzle's does not" },
		{ "takuzu 6\n0011\n1010\n0101\n1100\n", QUBO_ERR_PARSE, 1, 8,
		  "for a 6 x 6 board, the puzzle's is 4 x 4" },
		{ "takuzu 4x2\n0011\n1010\n", QUBO_ERR_PARSE, 1, 8, "4 x 2" },
		{ "takuzu 4\n0011\n1.10\n0101\n1100\n", QUBO_ERR_PARSE, 3, 2, "unexpected '.'" },
		{ "takuzu 4\n0011\n1010\n0102\n1100\n", QUBO_ERR_PARSE, 4, 4, "unexpected '2'" },
		{ "takuzu 4\n0011\n101\n0101\n1100\n", QUBO_ERR_PARSE, 3, 4, "row 2 has 3" },
		{ "takuzu 4\n0011\n1010\n0101\n", QUBO_ERR_PARSE, 5, 1, "ends after 3 of its 4 rows" },
		{ "takuzu 4\n0011\n1010\n0101\n1100\n1100\n", QUBO_ERR_PARSE, 6, 1,
		  "after the solution grid" },
		{ "tango 4\n0011\n1010\n0101\n1100\n", QUBO_ERR_PARSE, 1, 1, NULL },
		{ "takuzu 4\n", QUBO_ERR_PARSE, 2, 1, "not followed by a grid" },
		{ "", QUBO_ERR_PARSE, 1, 1, "no solution grid" },
	};

	run_solution_cases(puzzle, cases, sizeof cases / sizeof cases[0], want, 16);
}

Test(binary_text, takuzu_nounique_solution_header)
{
	static const char puzzle[] = "takuzu 4 nounique\n.0..\n1.1.\n...1\n..0.\n";
	static const uint8_t want[16] = { 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1 };
	static const sol_case cases[] = {
		{ "takuzu 4 nounique\n1010\n1010\n0101\n0101\n", QUBO_OK, 0, 0, NULL },
		{ "takuzu 4\n1010\n1010\n0101\n0101\n", QUBO_ERR_PARSE, 1, 9,
		  "lacks 'nounique', the puzzle's has it" },
		{ "takuzu 4 nounique x\n1010\n1010\n0101\n0101\n", QUBO_ERR_PARSE, 1, 19,
		  "unexpected word after 'nounique'" },
	};

	run_solution_cases(puzzle, cases, sizeof cases / sizeof cases[0], want, 16);
}

static const char tango_puzzle[] = "tango 4\n"
				   ".x. . .\n"
				   "=      \n"
				   ". . . 0\n"
				   "       \n"
				   "0 . . .\n"
				   "      x\n"
				   ". .=.x.\n";
/* 1001 / 1010 / 0101 / 0110 */
static const uint8_t tango_want[16] = { 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0 };

Test(binary_text, tango_solutions_keep_the_signs)
{
	static const sol_case cases[] = {
		{ "# c\ntango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_OK, 0, 0, NULL },
		/* the grid alone, trailing spaces dropped where no sign stands */
		{ "1x0 0 1\n=\n1 0 1 0\n\n0 1 0 1\n      x\n0 1=1x0\n", QUBO_OK, 0, 0, NULL },
		{ "tango 4x4\r\n1x0 0 1\r\n=\r\n1 0 1 0\r\n\r\n0 1 0 1\r\n      x\r\n0 1=1x0\r\n",
		  QUBO_OK, 0, 0, NULL },
		/* a sign changed */
		{ "tango 4\n1=0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 2, 2,
		  "the sign between columns 1 and 2 of row 1 is '=', the puzzle's is 'x'" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n      =\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 7, 7, "the sign below row 3, column 4 is '=', the puzzle's is 'x'" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n      x\n0 1 1x0\n",
		  QUBO_ERR_PARSE, 8, 4,
		  "the sign between columns 2 and 3 of row 4 is ' ', the puzzle's is '='" },
		/* a sign added */
		{ "tango 4\n1x0 0 1\n= x    \n1 0 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 3, 3, "the sign below row 1, column 2 is 'x', the puzzle's is ' '" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1=0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 4, 6, "the puzzle's is ' '" },
		/* the signs of the rows left out */
		{ "tango 4\n1 0 0 1\n=\n1 0 1 0\n\n0 1 0 1\n      x\n0 1 1 0\n", QUBO_ERR_PARSE, 2, 2,
		  "the puzzle's is 'x'" },
		/* a cell not filled, a bad cell */
		{ "tango 4\n1x0 0 1\n=      \n1 . 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 4, 3, "row 2, column 2 of the solution is not filled" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 2\n      x\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 6, 7, "unexpected '2' at row 3, column 4 (expected '0' or '1')" },
		/* a Takuzu-style grid */
		{ "tango 4\n1001\n1010\n0101\n0110\n", QUBO_ERR_PARSE, 2, 2, "between columns 1 and 2" },
		{ "tango 6\n1x0 0 1\n", QUBO_ERR_PARSE, 1, 7, "the puzzle's is 4 x 4" },
		{ "tango 4 x\n1x0 0 1\n", QUBO_ERR_PARSE, 1, 9, "unexpected word" },
		{ "takuzu 4\n1x0 0 1\n", QUBO_ERR_PARSE, 1, 1, "unexpected 't'" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n", QUBO_ERR_PARSE, 5, 1, "ends after 3 of its 7" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n1\n",
		  QUBO_ERR_PARSE, 9, 1, "after the solution grid" },
	};

	run_solution_cases(tango_puzzle, cases, sizeof cases / sizeof cases[0], tango_want, 16);
}

/* A line of signs below a row is compared with the puzzle's only up to its
 * last non-blank character: a solution that leaves out the signs at the end
 * of such a line (or the whole line) is read without complaint, though the
 * puzzle has a sign there (doc/formats.md: "A solution is the same layout with
 * every cell filled and the signs kept"). */
Test(binary_text, tango_solution_missing_vertical_sign_is_an_error)
{
	static const sol_case cases[] = {
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_OK, 0, 0, NULL },
		/* the 'x' below row 3, column 4 left out */
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 7, 7, "the puzzle's is 'x'" },
		{ "tango 4\n1x0 0 1\n=      \n1 0 1 0\n       \n0 1 0 1\n       \n0 1=1x0\n",
		  QUBO_ERR_PARSE, 7, 7, "the puzzle's is 'x'" },
		/* the '=' below row 1, column 1 left out */
		{ "tango 4\n1x0 0 1\n\n1 0 1 0\n       \n0 1 0 1\n      x\n0 1=1x0\n",
		  QUBO_ERR_PARSE, 3, 1, "the puzzle's is '='" },
	};

	run_solution_cases(tango_puzzle, cases, sizeof cases / sizeof cases[0], tango_want, 16);
}

/* format_solution then parse_solution: the same board, for random
 * instances of both forms and every board of small ones. */
Test(binary_text, solution_round_trip)
{
	tu_rng r = { 99 };
	int i, trials = bo_valgrind() ? 30 : 120;

	for (i = 0; i < trials; i++) {
		bo_inst I;
		uint8_t x[BO_MAX_CELLS], y[BO_MAX_CELLS];
		char text[1024], out[1024];
		qubo_puzzle *p = NULL;
		size_t len, n, c;
		int tango = i % 2, t;

		bo_init(&I, 2 * (uint32_t)tu_range(&r, 1, 4), 2 * (uint32_t)tu_range(&r, 1, 4));
		bo_prepare(&I);
		cr_assert(bo_random_solution(&I, &r, x));
		if (tango)
			bo_signs_from(&I, x, &r, (size_t)tu_range(&r, 0, 10), 1, 0);
		else
			I.distinct = 0;
		bo_text(&I, tango, text, sizeof text);
		cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s\n%s",
			     qubo_error_message(), text);
		n = bo_cells(&I);
		for (t = 0; t < 6; t++) {
			/* any board, valid or not, comes back */
			if (t)
				for (c = 0; c < n; c++)
					x[c] = (uint8_t)tu_below(&r, 2);
			cr_assert_eq(qubo_puzzle_format_solution(p, x, n, out, sizeof out, &len),
				     QUBO_OK);
			cr_assert_eq(strncmp(out, text, strcspn(text, "\n") + 1), 0,
				     "the solution starts with the puzzle's header");
			memset(y, 9, sizeof y);
			cr_assert_eq(qubo_puzzle_parse_solution(p, out, len, y, n), QUBO_OK,
				     "%s\n%s", qubo_error_message(), out);
			cr_assert_eq(memcmp(x, y, n), 0);
			/* the grid alone */
			cr_assert_eq(qubo_puzzle_parse_solution(p, strchr(out, '\n') + 1,
								len - (size_t)(strchr(out, '\n') + 1 - out),
								y, n),
				     QUBO_OK, "%s", qubo_error_message());
			cr_assert_eq(memcmp(x, y, n), 0);
		}
		qubo_puzzle_free(p);
	}
}

/* ---- the spec-built puzzle ---- */

Test(binary_text, spec_built_has_no_text_form)
{
	qubo_puzzle_binary_spec s = QUBO_PUZZLE_BINARY_SPEC_INIT;
	static const int8_t clues[12] = { -1, 0, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1 };
	static const uint8_t board[12] = { 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0 };
	static const int32_t rows[3] = { 2, 2, 2 }, cols[4] = { -1, 1, 2, -1 };
	qubo_puzzle *p = NULL;
	char out[128];
	uint8_t back[12];
	size_t len = 99, viol = 9;

	s.width = 4;
	s.height = 3;
	s.clues = clues;
	s.row_ones = rows;
	s.col_ones = cols;
	cr_assert_eq(qubo_puzzle_binary_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_TAKUZU);
	cr_assert_eq(qubo_puzzle_check(p, board, 12, NULL, 0, &viol), QUBO_OK);
	cr_assert_eq(viol, 0);
	cr_assert_eq(qubo_puzzle_format(p, out, sizeof out, &len), QUBO_ERR_NOT_SUPPORTED);
	cr_assert(strstr(qubo_error_message(), "no text form"), "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &len), QUBO_ERR_NOT_SUPPORTED);
	/* its solution is the bare grid */
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 12, out, sizeof out, &len), QUBO_OK);
	cr_assert_str_eq(out, "1001\n1010\n0110\n");
	cr_assert_eq(len, 15);
	memset(back, 9, sizeof back);
	cr_assert_eq(qubo_puzzle_parse_solution(p, out, len, back, 12), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(memcmp(back, board, 12), 0);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "# c\n\n1001\n1010\n0110", 19, back, 12),
		     QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(memcmp(back, board, 12), 0);
	/* a header is refused: the puzzle has none */
	cr_assert_eq(qubo_puzzle_parse_solution(p, "takuzu 4x3\n1001\n1010\n0110\n", 26, back, 12),
		     QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 1);
	cr_assert(strstr(qubo_error_message(), "no header"), "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_parse_solution(p, "1001\n1020\n0110\n", 15, back, 12),
		     QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 2);
	cr_assert_eq(qubo_error_column(), 3);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "1001\n1010\n", 10, back, 12), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3);
	cr_assert_eq(qubo_error_column(), 1);
	qubo_puzzle_free(p);
}
