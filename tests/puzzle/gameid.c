/*
 * Game IDs of Simon Tatham's Tents and Unruly: their translation into the
 * text formats (white-box: the text itself), and malformed IDs, each with
 * its status, line and column. Solving IDs end to end is tested with the
 * families and by .ci/run with freshly generated puzzles.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "puzzle_impl.h"

static qubo_allocator std_alloc(void)
{
	qubo_allocator a;

	cr_assert_eq(qubo__alloc_init(&a, NULL, NULL), QUBO_OK);
	return a;
}

static int translate(const char *id, char **text, size_t *len)
{
	qubo_allocator a = std_alloc();
	struct qubo__pz_line line = { id, strlen(id), 1 };

	return qubo__pz_gameid_text(&a, &line, text, len);
}

static void expect_text(const char *id, const char *want)
{
	qubo_allocator a = std_alloc();
	char *text = NULL;
	size_t len = 0;
	int rc = translate(id, &text, &len);

	cr_assert_eq(rc, QUBO_OK, "%s: %s", id, qubo_error_message());
	cr_assert_eq(len, strlen(want), "%s: length %zu, want %zu:\n%s", id, len, strlen(want),
		     text);
	cr_assert_eq(memcmp(text, want, len), 0, "%s gives\n%.*s\nwant\n%s", id, (int)len, text,
		     want);
	qubo__free(&a, text);
}

Test(puzzle_gameid, recognised)
{
	cr_assert(qubo__pz_is_gameid("8x8:abc", 7));
	cr_assert(qubo__pz_is_gameid("10:abc", 6));
	cr_assert(qubo__pz_is_gameid("tents:x", 7));
	cr_assert(qubo__pz_is_gameid("unruly:", 7));
	cr_assert_not(qubo__pz_is_gameid("queens 8", 8));
	cr_assert_not(qubo__pz_is_gameid("8 x:", 4));
	cr_assert_not(qubo__pz_is_gameid("tents 8x8", 9));
	cr_assert_not(qubo__pz_is_gameid("", 0));
}

Test(puzzle_gameid, tents)
{
	/* 3 x 2: a tree at (1,1) [after 1 empty cell: 'a'], one at (2,3)
	 * [after 3 more: 'c'], then the closing tree one past the end: '_' */
	expect_text("3x2:ac_,1,0,1,1,1", "tents 3x2\ncols 1 0 1\nrows 1 1\n"
					  ".T.\n"
					  "..T\n");
	/* a tree first ('_'), 25 empty cells ('z'), 2 more and the end ('b');
	 * player marks '!' and '-' carry no clue */
	expect_text("4x7:_!z-b,0,0,0,0,0,0,0,0,0,0,0", "tents 4x7\ncols 0 0 0 0\nrows 0 0 0 0 0 0 0\n"
							   "T...\n"
							   "....\n"
							   "....\n"
							   "....\n"
							   "....\n"
							   "....\n"
							   "....\n");
	expect_text("tents:2:_aa,1,0,0,1", "tents 2x2\ncols 1 0\nrows 0 1\nT.\nT.\n");
	/* trees at cells 0 and 26, then 25 + 12 empty cells to the end */
	expect_text("8x8dt:_yzl,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
		    "tents 8x8\ncols 0 0 0 0 0 0 0 0\nrows 0 0 0 0 0 0 0 0\n"
		    "T.......\n........\n........\n..T.....\n"
		    "........\n........\n........\n........\n");
}

Test(puzzle_gameid, unruly)
{
	/* 'a' a 0 at once, 'B' skip 1 and a 1, 'b' skip 1 to the end */
	expect_text("2x2:aBb", "takuzu 2x2 nounique\n0.\n1.\n");
	expect_text("2x2u:Abb", "takuzu 2x2\n1.\n0.\n");
	expect_text("unruly:2:dA", "takuzu 2x2 nounique\n..\n.0\n");
	/* 'z' skips 25, 'K' 10 more and puts a 1 on the last cell */
	expect_text("6x6dn:zKa",
		    "takuzu 6x6 nounique\n......\n......\n......\n......\n......\n.....1\n");
}

struct bad {
	const char *id;
	int status;
	size_t column;
	const char *words;
};

static const struct bad bad_ids[] = {
	{ "8y8:abc", QUBO_ERR_PARSE, 2, "expected ':'" },
	{ "0x8:abc", QUBO_ERR_PARSE, 1, "width" },
	{ "8x0:abc", QUBO_ERR_PARSE, 3, "height" },
	{ "8x:abc", QUBO_ERR_PARSE, 3, "height" },
	{ "99999x8:a", QUBO_ERR_PARSE, 1, "width" },
	{ "8x8d:ab", QUBO_ERR_PARSE, 5, "difficulty" },
	{ "8x8dE:ab", QUBO_ERR_PARSE, 5, "difficulty" },
	{ "8x8q:ab", QUBO_ERR_PARSE, 4, "expected ':'" },
	{ "tents:8x8u:_,1", QUBO_ERR_PARSE, 7, "Unruly" },
	{ "3x2:ac_,1,0,1,1", QUBO_ERR_PARSE, 16, "every column and row" },
	{ "3x2:ac_,1,0,1,1,1,1", QUBO_ERR_PARSE, 18, "after the last tent count" },
	{ "3x2:ac_,1,0,1,1,x", QUBO_ERR_PARSE, 17, "tent count" },
	{ "3x2:ac_,1,3,1,1,1", QUBO_ERR_PARSE, 11, "column's tent count" },
	{ "3x2:ac_,1,0,1,1,4", QUBO_ERR_PARSE, 17, "row's tent count" },
	{ "3x2:ac,1,0,1,1,1", QUBO_ERR_PARSE, 7, "ends before" },
	{ "3x2:acc,1,0,1,1,1", QUBO_ERR_PARSE, 7, "past its last cell" },
	{ "3x2:ac__,1,0,1,1,1", QUBO_ERR_PARSE, 8, "past its last cell" },
	{ "3x2:aC_,1,0,1,1,1", QUBO_ERR_PARSE, 6, "only '_'" },
	{ "3x2:a c_,1,0,1,1,1", QUBO_ERR_PARSE, 6, "only '_'" },
	{ "3x2:z,1,0,1,1,1", QUBO_ERR_PARSE, 5, "past its last cell" },
	{ "2x2:aB", QUBO_ERR_PARSE, 7, "ends before" },
	{ "2x2:aBbA", QUBO_ERR_PARSE, 8, "past its last cell" },
	{ "2x2:aB1b", QUBO_ERR_PARSE, 7, "letters" },
	{ "2x2:aBz", QUBO_ERR_PARSE, 8, "past its last cell" },
	{ "3x2:aBb", QUBO_ERR_PARSE, 1, "even width" },
	{ "unruly:2x3:aBb", QUBO_ERR_PARSE, 8, "even width" },
};

Test(puzzle_gameid, malformed)
{
	size_t k;

	cr_assert_geq(sizeof bad_ids / sizeof bad_ids[0], 20);
	for (k = 0; k < sizeof bad_ids / sizeof bad_ids[0]; k++) {
		const struct bad *b = &bad_ids[k];
		char *text = NULL;
		size_t len = 0;
		int rc = translate(b->id, &text, &len);

		cr_assert_eq(rc, b->status, "%s: status %d (%s)", b->id, rc, qubo_error_message());
		cr_assert_null(text);
		cr_assert(strstr(qubo_error_message(), b->words), "%s: %s", b->id,
			  qubo_error_message());
		cr_assert_eq(qubo_error_line(), 1, "%s", b->id);
		cr_assert_eq(qubo_error_column(), b->column, "%s: column %zu, want %zu (%s)", b->id,
			     qubo_error_column(), b->column, qubo_error_message());
	}
}

/* Through qubo_puzzle_parse: the ID's own line and column, after comment
 * and blank lines, and nothing but comments after it. */
Test(puzzle_gameid, positions_in_a_file)
{
	static const char text[] = "# a comment\n\n  3x2:ac_,1,0,1,1,x\n";
	static const char after[] = "3x2:ac_,1,0,1,1,1\nqueens 8\n";
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3);
	cr_assert_eq(qubo_error_column(), 19, "%zu: %s", qubo_error_column(), qubo_error_message());
	cr_assert_eq(qubo_puzzle_parse(&p, after, strlen(after), NULL), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 2, "%s", qubo_error_message());
	cr_assert(strstr(qubo_error_message(), "after the game ID"), "%s", qubo_error_message());
}
