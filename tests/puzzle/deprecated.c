/*
 * The deprecated names of the public API: each still compiles, and each
 * means exactly what its replacement means (same function, same value, same
 * type). Every other test uses the current names only.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/puzzle.h>
#include <qubo/puzzle/queens.h>
#include <qubo/qbsolv.h>

#include "util.h"

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

/* The model of a puzzle as qbsolv text (caller frees). */
static char *model_text(const qubo_puzzle *p)
{
	const qubo_model *m = NULL;
	size_t len = 0;
	char *buf;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_qbsolv_write(m, NULL, 0, &len), QUBO_OK);
	buf = malloc(len + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(qubo_qbsolv_write(m, buf, len + 1, &len), QUBO_OK);
	return buf;
}

/* qubo_puzzle_queens_build() is qubo_puzzle_queens_new() under its 0.1
 * name: the same model, the same refusals, its own name in messages. */
Test(deprecated, queens_build)
{
	static const uint32_t given[1] = { 1 };
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle *a = NULL, *b = NULL;
	char *ta, *tb;
	int d;

	s.width = 5;
	s.height = 5;
	for (d = 0; d < 8; d++)
		s.reach[d] = 1;
	s.queens = given;
	s.num_queens = 1;
	cr_assert_eq(qubo_puzzle_queens_new(&a, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_build(&b, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(b), QUBO_PUZZLE_GENERAL_QUEENS);
	ta = model_text(a);
	tb = model_text(b);
	cr_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);

	s.width = 0;
	cr_assert_eq(qubo_puzzle_queens_build(&b, &s, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert_null(b);
	cr_assert(strstr(qubo_error_message(), "qubo_puzzle_queens_build"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_new(&a, &s, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "qubo_puzzle_queens_new"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_puzzle_queens_build(NULL, &s, NULL), QUBO_ERR_MISUSE);
}
