/* The puzzle object's API contract: NULL handles, option and stats structs,
 * caller buffers, decode, and out-of-memory at every allocation. */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_puzzle_parse_cells is tested until it is removed */
#include <math.h>

#include "puzzle/helpers.h"

static const char linkedin[] = "# comment\nqueens 4\naabb\nacbB\ndccb\nddc.\n";

static qubo_puzzle_options opts(int32_t reduce)
{
	qubo_puzzle_options o;

	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.reduce = reduce;
	return o;
}

Test(puzzle_api, null_handles_are_misuse)
{
	qubo_puzzle *p = NULL;
	const qubo_model *m;
	double e;
	uint8_t b[16] = { 0 };
	qubo_lit l[16];
	qubo_puzzle_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0, 0 };
	size_t v;
	char buf[8];

	cr_assert_eq(qubo_puzzle_parse(NULL, "nqueens 4", 9, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_parse(&p, NULL, 9, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_parse(&p, NULL, 0, NULL), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_puzzle_parse_file(NULL, "x", NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_parse_file(&p, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_family(NULL), 0);
	cr_assert_eq(qubo_puzzle_get_stats(NULL, &st), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_model(NULL, &m), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_ground_energy(NULL, &e), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_cell_literals(NULL, l, 16), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_decode(NULL, b, 0, b, 16), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_check(NULL, b, 16, NULL, 0, &v), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_format(NULL, buf, 8, &v), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_format_solution(NULL, b, 16, buf, 8, &v), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_parse_solution(NULL, "x", 1, b, 16), QUBO_ERR_MISUSE);
	qubo_puzzle_free(NULL);

	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_model(p, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_ground_energy(p, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_cell_literals(p, NULL, 16), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_check(p, NULL, 16, NULL, 0, &v), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_check(p, b, 16, NULL, 5, &v), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_format(p, NULL, 5, &v), QUBO_ERR_MISUSE);
	qubo_puzzle_free(p);
}

Test(puzzle_api, options_are_checked)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_options o = opts(0);
	struct {
		qubo_puzzle_options o;
		uint64_t tail;
	} big;

	o.struct_size = 4;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert(strstr(qubo_error_message(), "qubo_puzzle_options"), "%s", qubo_error_message());
	o = opts(4);
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	o = opts(-1);
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	o = opts(0);
	o.penalty = -1;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	o.penalty = (double)NAN;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	o.penalty = (double)INFINITY;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	o = opts(0);
	o.drop_region = 2;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	/* a larger struct from a newer header: accepted when the tail is zero */
	memset(&big, 0, sizeof big);
	big.o.struct_size = sizeof big;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &big.o), QUBO_OK);
	qubo_puzzle_free(p);
	big.tail = 1;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &big.o),
		     QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert_null(p);
	/* drop_region is ignored without regions, and fine with them */
	o = opts(0);
	o.drop_region = 1;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_OK);
	qubo_puzzle_free(p);
	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, &o), QUBO_OK);
	qubo_puzzle_free(p);
	/* a bad allocator */
	{
		qubo_allocator a;
		memset(&a, 0, sizeof a);
		a.struct_size = sizeof a;
		o = opts(0);
		o.allocator = &a;
		cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 4\n", 10, &o), QUBO_ERR_INVALID_ARG);
	}
}

/* The penalty weight scales every term, so the model's energies scale. */
Test(puzzle_api, penalty_weight_scales_the_model)
{
	qubo_puzzle *a = NULL, *b = NULL;
	qubo_puzzle_options o = opts(QUBO_REDUCE_NONE);
	const qubo_model *ma, *mb;
	uint8_t x[16];
	tu_rng r = { 3 };
	int t;
	size_t i;

	cr_assert_eq(qubo_puzzle_parse(&a, "nqueens 4\n", 10, &o), QUBO_OK);
	o.penalty = 2.5;
	cr_assert_eq(qubo_puzzle_parse(&b, "nqueens 4\n", 10, &o), QUBO_OK);
	cr_assert_eq(qubo_puzzle_model(a, &ma), QUBO_OK);
	cr_assert_eq(qubo_puzzle_model(b, &mb), QUBO_OK);
	cr_assert(qubo_model_is_compiled(ma));
	for (t = 0; t < 50; t++) {
		double ea, eb;
		for (i = 0; i < 16; i++)
			x[i] = (uint8_t)tu_below(&r, 2);
		cr_assert_eq(qubo_model_energy(ma, x, 16, &ea), QUBO_OK);
		cr_assert_eq(qubo_model_energy(mb, x, 16, &eb), QUBO_OK);
		cr_assert_float_eq(eb, 2.5 * ea, 1e-9);
	}
	qubo_puzzle_free(a);
	qubo_puzzle_free(b);
}

Test(puzzle_api, stats_cells_and_decode)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_options o = opts(QUBO_REDUCE_CLUES);
	qubo_puzzle_stats st;
	struct {
		qubo_puzzle_stats s;
		uint32_t extra;
	} big;
	qubo_lit lits[16];
	uint8_t sample[16], board[16];
	const qubo_model *m;
	size_t nv, i;

	cr_assert_eq(qubo_puzzle_parse(&p, linkedin, sizeof linkedin - 1, &o), QUBO_OK);
	memset(&st, 0, sizeof st);
	st.struct_size = 8;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_ERR_UNSUPPORTED_VERSION);
	memset(&big, 0xAB, sizeof big);
	big.s.struct_size = sizeof big;
	cr_assert_eq(qubo_puzzle_get_stats(p, &big.s), QUBO_OK);
	cr_assert_eq(big.s.struct_size, sizeof big);
	cr_assert_eq(big.s.width, 4);
	cr_assert_eq(big.extra, 0, "a newer caller's unknown field reads 0");
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 15), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 16), QUBO_OK);
	cr_assert_eq(lits[15], QUBO_LIT_FALSE, "the off-board cell is the constant 0");
	cr_assert_eq(lits[7], QUBO_LIT_TRUE, "the pre-placed queen is the constant 1");
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	for (i = 0; i < nv; i++)
		sample[i] = (uint8_t)(i % 2);
	cr_assert_eq(qubo_puzzle_decode(p, sample, nv + 1, board, 16), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_puzzle_decode(p, sample, nv, board, 15), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_puzzle_decode(p, sample, nv, board, 16), QUBO_OK);
	for (i = 0; i < 16; i++) {
		uint8_t want = QUBO_LIT_IS_CONST(lits[i]) ? lits[i] == QUBO_LIT_TRUE :
							    sample[QUBO_LIT_VAR(lits[i])];
		cr_assert_eq(board[i], want, "cell %zu", i);
	}
	if (nv) {
		sample[0] = 2;
		cr_assert_eq(qubo_puzzle_decode(p, sample, nv, board, 16), QUBO_ERR_INVALID_ARG);
	}
	board[0] = 3;
	cr_assert_eq(qubo_puzzle_check(p, board, 16, NULL, 0, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_puzzle_check(p, board, 17, NULL, 0, NULL), QUBO_ERR_INVALID_ARG);
	qubo_puzzle_free(p);
}

/* Out of memory at each allocation in turn: a clean NOMEM (or success),
 * nothing leaked, the next attempt works. */
static int build_queens(qubo_puzzle **out, const void *spec, const qubo_puzzle_options *o)
{
	return qubo_puzzle_queens_new(out, spec, o);
}

static void oom_sweep(const char *text, const qubo_puzzle_queens_spec *spec, int32_t reduce)
{
	cr_assert_gt(ph_oom_sweep(text, build_queens, spec, reduce), 10);
}

Test(puzzle_api, out_of_memory_everywhere)
{
	ph_inst I;
	qubo_puzzle_queens_spec s;
	tu_rng r = { 11 };

	oom_sweep(linkedin, NULL, QUBO_REDUCE_FULL);
	oom_sweep(linkedin, NULL, QUBO_REDUCE_CLUES);
	oom_sweep("nqueens 5 torus\n", NULL, QUBO_REDUCE_NONE);
	for (;;) {
		qubo_puzzle *p = NULL;

		ph_random_inst(&I, &r, 16);
		ph_spec(&I, &s);
		if (I.per_cell && I.nreg && qubo_puzzle_queens_new(&p, &s, NULL) == QUBO_OK) {
			qubo_puzzle_free(p);
			break;
		}
	}
	oom_sweep(NULL, &s, QUBO_REDUCE_FULL);
}

/* qubo_puzzle_parse_cells under the same failures: NOMEM or the map, no
 * leak either way. */
Test(puzzle_api, parse_cells_out_of_memory)
{
	static const char *const texts[] = { linkedin, "nqueens 6\n", "domination 3\n" };
	size_t t, k, fails = 0;

	for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		qubo_lit want[64], got[64];

		memset(want, 0, sizeof want);
		cr_assert_eq(qubo_puzzle_parse_cells(texts[t], strlen(texts[t]), NULL, want, 64),
			     QUBO_OK);
		for (k = 1; k < 100000; k++) {
			tu_failalloc fa;
			qubo_puzzle_options o = opts(QUBO_REDUCE_FULL);
			int rc;

			tu_failalloc_init(&fa, k);
			o.allocator = &fa.a;
			memset(got, 0, sizeof got);
			rc = qubo_puzzle_parse_cells(texts[t], strlen(texts[t]), &o, got, 64);
			cr_assert_eq(fa.live, 0, "%s, allocation %zu: %zu blocks leaked", texts[t],
				     k, fa.live);
			if (rc == QUBO_OK) {
				cr_assert_eq(memcmp(got, want, sizeof got), 0);
				if (!fa.failed)
					break;
				continue;
			}
			cr_assert_eq(rc, QUBO_ERR_NOMEM, "%s, allocation %zu: %s", texts[t], k,
				     qubo_error_message());
			fails++;
		}
	}
	cr_assert_gt(fails, 20);
}

/* A larger board builds in reasonable time and the limits are reported. */
Test(puzzle_api, sizes_and_limits)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_stats st;

	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 40\n", 11, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cr_assert_eq(st.variables_after, 1600);
	/* rows and columns: 2 · 40 · C(40,2); diagonals: 2 · Σ C(len,2) */
	cr_assert_eq(st.couplers_after, 2 * 40 * 780 + 2 * (2 * 10660 - 780), "%zu couplers",
		     st.couplers_after);
	qubo_puzzle_free(p);
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 1000\n", 13, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert(strstr(qubo_error_message(), "limit"), "%s", qubo_error_message());
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_MAX_COUPLERS);
	cr_assert_eq(qubo_error_limit_value(), QUBO_PUZZLE_DEFAULT_MAX_COUPLERS);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 9);
}

/* A puzzle's QUBO_ERR_TOO_LARGE names its limit and the value in force. */
Test(puzzle_api, too_large_names_its_limit)
{
	qubo_puzzle_options o = opts(QUBO_REDUCE_DEFAULT);
	qubo_puzzle *p = NULL;

	o.max_cells = 99;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 10\n", 11, &o), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_MAX_CELLS, "%s", qubo_error_message());
	cr_assert_eq(qubo_error_limit_value(), 99);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_str_eq(qubo_limit_name(qubo_error_limit()), "max_cells");
	o.max_cells = 0;
	o.max_input_bytes = 5;
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 10\n", 11, &o), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_MAX_INPUT_BYTES, "%s", qubo_error_message());
	cr_assert_eq(qubo_error_limit_value(), 5);
	cr_assert_str_eq(qubo_error_function(), "qubo_puzzle_parse");
	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 5000\n", 13, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_BOARD_SIDE, "%s", qubo_error_message());
	cr_assert_eq(qubo_error_limit_value(), 4096);
	cr_assert_null(p);
}

/* An error the puzzle library sets is the one libqubo's accessors read: one
 * per-thread error for both libraries, with its parts. */
Test(puzzle_api, errors_are_read_through_libqubo)
{
	static const char nul[] = "queens 4\naabb\naxbb\ndccb\nddcc\n\0";
	qubo_puzzle *p = NULL;

	qubo_error_clear();
	cr_assert_eq(qubo_puzzle_parse(NULL, "nqueens 4", 9, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_MISUSE);
	cr_assert_str_eq(qubo_error_message(), "qubo_puzzle_parse: out is NULL");
	cr_assert_str_eq(qubo_error_function(), "qubo_puzzle_parse");
	cr_assert_str_eq(qubo_error_detail(), "out is NULL");
	cr_assert_eq(qubo_error_line(), 0);

	cr_assert_eq(qubo_puzzle_parse(&p, nul, sizeof nul - 1, NULL), QUBO_ERR_PARSE);
	cr_assert_null(p);
	cr_assert_str_eq(qubo_error_message(), "line 6, column 1: NUL byte in the input");
	cr_assert_str_empty(qubo_error_function());
	cr_assert_str_eq(qubo_error_detail(), "NUL byte in the input");
	cr_assert_eq(qubo_error_line(), 6);
	cr_assert_eq(qubo_error_column(), 1);
	cr_assert_eq(qubo_error_cell_row(), 0);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_NONE);
	qubo_error_clear();
	cr_assert_str_empty(qubo_error_message());
	cr_assert_str_empty(qubo_error_detail());
}

/* An error about one cell of a board names it: row and column, 1-based,
 * apart from any input position. */
Test(puzzle_api, errors_name_their_cell)
{
	qubo_puzzle *p = NULL;
	uint8_t board[25] = { 0 };
	char report[64];
	size_t violations;

	cr_assert_eq(qubo_puzzle_parse(&p, "nqueens 5\n", 10, NULL), QUBO_OK);
	board[7] = 2;
	cr_assert_eq(qubo_puzzle_check(p, board, sizeof board, report, sizeof report, &violations),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_str_eq(qubo_error_message(),
			 "qubo_puzzle_check: board[7] (row 2, column 3) is 2, expected 0 or 1");
	cr_assert_eq(qubo_error_cell_row(), 2);
	cr_assert_eq(qubo_error_cell_column(), 3);
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_column(), 0);
	/* an error about the board as a whole names no cell */
	cr_assert_eq(qubo_puzzle_check(p, board, 24, report, sizeof report, &violations),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_error_cell_row(), 0);
	cr_assert_eq(qubo_error_cell_column(), 0);
	qubo_puzzle_free(p);
}
