/*
 * What the libFuzzer targets share: an allocator that refuses blocks above
 * 64 MiB (so that huge declared sizes exercise the out-of-memory paths
 * instead of libFuzzer's malloc limit), a check that aborts (allowed here,
 * never in the library), the position check of parse errors, the clock of
 * the time budgets, a reader of structured input bytes, and the checks of
 * a puzzle built.
 *
 * Each target defines FUZZ_NAME before including this header.
 * Header-only (static inline functions), so that each target stays one file.
 */
#ifndef QUBO_FUZZ_COMMON_H
#define QUBO_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>
#include <qubo/puzzle.h>

#define FUZZ_ALLOC_LIMIT ((size_t)64 << 20)

/* A build's time limit in the targets that build puzzles (short, so that
 * the large boards do not slow the fuzzing down), and how far past it the
 * call may return: the library promises 0.2 s; the rest is for the
 * sanitizers' slowdown and a loaded machine. libFuzzer's -timeout (10 s in
 * tools/run-fuzz.sh) catches whatever else runs long. */
#define FUZZ_BUILD_LIMIT 0.25
#define FUZZ_BUILD_SLACK 1.0

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void *fuzz_malloc(size_t size, void *ud)
{
	(void)ud;
	return size > FUZZ_ALLOC_LIMIT ? NULL : malloc(size);
}

static inline void *fuzz_realloc(void *ptr, size_t size, void *ud)
{
	(void)ud;
	return size > FUZZ_ALLOC_LIMIT ? NULL : realloc(ptr, size);
}

static inline void fuzz_free(void *ptr, void *ud)
{
	(void)ud;
	free(ptr);
}

static const qubo_allocator fuzz_alloc = { sizeof(qubo_allocator), fuzz_malloc, fuzz_realloc,
					   fuzz_free, NULL };

static inline void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "%s: check failed: %s (%s)\n", FUZZ_NAME, what,
			qubo_error_message());
		abort();
	}
}

/* A failed call's contract: the status is an error, the thread's message
 * is set and names the same code. */
static inline void check_failure(int rc)
{
	check(rc < 0, "a failure with a status that is no error");
	check(qubo_error_code() == rc, "the error code differs from the status");
	check(qubo_error_message()[0] != '\0', "an error without a message");
}

/* A parse error's position lies inside the text (or just past its end). */
static inline void check_position(const char *s, size_t n)
{
	size_t line = qubo_error_line(), col = qubo_error_column(), l = 1, i = 0, len;

	check(line >= 1 && col >= 1, "parse error without a position");
	while (l < line) {
		const char *nl = memchr(s + i, '\n', n - i);

		check(nl != NULL, "error line beyond the input");
		i = (size_t)(nl - s) + 1;
		l++;
	}
	len = 0;
	while (i + len < n && s[i + len] != '\n')
		len++;
	check(col <= len + 1, "error column beyond its line");
}

static inline double fuzz_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A build that began at t0 returned rc and p within its limit and the
 * slack; a failure leaves p NULL and, unless the limit stopped it, sets a
 * message, never for QUBO_ERR_INTERNAL. Nonzero when it failed. */
static inline int check_build(double t0, int rc, const qubo_puzzle *p)
{
	check(fuzz_now() - t0 <= FUZZ_BUILD_LIMIT + FUZZ_BUILD_SLACK,
	      "a build ran past its time limit");
	if (rc == QUBO_OK)
		return 0;
	check(p == NULL, "out set on failure");
	if (rc != QUBO_TIME_LIMIT) { /* a stop sets no message */
		check_failure(rc);
		check(rc != QUBO_ERR_INTERNAL, "an internal error");
	}
	return 1;
}

/* Structured input: bytes taken from the front; 0 once they run out. */
typedef struct fuzz_in {
	const uint8_t *p;
	size_t n, at;
} fuzz_in;

static inline unsigned fuzz_byte(fuzz_in *in)
{
	return in->at < in->n ? in->p[in->at++] : 0;
}

/* An integer in [0, bound) from as many bytes as it needs (0 when bound
 * is 0 or 1). */
static inline uint64_t fuzz_below(fuzz_in *in, uint64_t bound)
{
	uint64_t v = 0, span = 1;

	if (bound <= 1)
		return 0;
	while (span < bound) {
		v = v << 8 | fuzz_byte(in);
		span <<= 8;
		if (span >> 56)
			break;
	}
	return v % bound;
}

/* Any 32-bit value, now and then (one input byte in 16) instead of one in
 * [lo, hi] (lo when the range is empty): so that the range checks see what
 * lies outside. */
static inline int64_t fuzz_int(fuzz_in *in, int64_t lo, int64_t hi)
{
	if (fuzz_byte(in) % 16 == 15)
		return (int32_t)(uint32_t)fuzz_below(in, (uint64_t)1 << 32);
	return hi < lo ? lo : lo + (int64_t)fuzz_below(in, (uint64_t)(hi - lo) + 1);
}

/* A puzzle built: its model is compiled with the reduced variables; the
 * checker judges a board made from the data's bytes (its report fits) and
 * the all-zero sample decoded (no rule broken when the reduction solved the
 * puzzle); that board's solution text parses back to it. */
static inline void fuzz_exercise(const qubo_puzzle *p, const uint8_t *data, size_t size)
{
	qubo_puzzle_stats st;
	const qubo_model *m;
	size_t cells, nv, i, viol = 0, len = 0;
	uint8_t *board, *back, *zero;
	char report[256], *sol;
	int rc;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	check(qubo_puzzle_get_stats(p, &st) == QUBO_OK, "stats");
	check(st.variables_after <= st.variables_before, "the reduction added variables");
	cells = st.width * st.height;
	check(qubo_puzzle_model(p, &m) == QUBO_OK && qubo_model_is_compiled(m), "model");
	nv = qubo_model_num_variables(m);
	check(nv == st.variables_after, "variables_after");
	board = malloc(cells + 1);
	back = malloc(cells + 1);
	zero = calloc(nv + 1, 1);
	check(board && back && zero, "malloc");
	/* a board from the input's bytes */
	for (i = 0; i < cells; i++)
		board[i] = size ? (data[i % size] >> (i % 8)) & 1 : 0;
	rc = qubo_puzzle_check(p, board, cells, report, sizeof report, &viol);
	check(rc == QUBO_OK && strlen(report) < sizeof report, "check");
	/* the all-zero sample, decoded, checked */
	check(qubo_puzzle_decode(p, zero, nv, board, cells) == QUBO_OK, "decode");
	check(qubo_puzzle_check(p, board, cells, NULL, 0, &viol) == QUBO_OK, "check");
	if (st.solved_by_reduction)
		check(viol == 0, "a puzzle solved by reduction decodes to an invalid board");
	/* a solution file round trip */
	rc = qubo_puzzle_format_solution(p, board, cells, NULL, 0, &len);
	check(rc == QUBO_OK && len > 0, "solution size query");
	sol = malloc(len + 1);
	check(sol != NULL, "malloc");
	check(qubo_puzzle_format_solution(p, board, cells, sol, len + 1, &len) == QUBO_OK,
	      "format_solution");
	check(qubo_puzzle_parse_solution(p, sol, len, back, cells) == QUBO_OK, "parse_solution");
	check(memcmp(board, back, cells) == 0, "solution round trip differs");
	free(sol);
	free(board);
	free(back);
	free(zero);
}

#endif /* QUBO_FUZZ_COMMON_H */
