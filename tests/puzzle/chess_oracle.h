/* The referee of the chess and domination suites, written from the rules
 * and not from the library: when a piece attacks a cell (arithmetic on the
 * offset, not a walk), and an enumerator of every assignment of a small
 * model's variables (Gray code) that returns the minimum energy and the
 * minimisers decoded to boards (distinct boards: slack is projected away).
 * Header-only (static inline), shared by tests/puzzle/chess.c and
 * tests/puzzle/domination.c. */
#ifndef QUBO_TEST_CHESS_ORACLE_H
#define QUBO_TEST_CHESS_ORACLE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo.h>
#include <qubo/puzzle.h>
#include <qubo/puzzle/chess.h>

#include "util.h"

#define CO_MAX_CELLS 64
#define CO_MAX_VARS 24

static inline long co_abs(long v)
{
	return v < 0 ? -v : v;
}

/* Does the move (mr, mc, slide) take a piece by the offset (dr, dc)? A
 * slide reaches every multiple k ≥ 1 of its step that stays on the board;
 * a rectangle is convex, so all of them between do too. */
static inline int co_move_hits(const qubo_puzzle_chess_move *m, long dr, long dc)
{
	long k;

	if (!m->slide)
		return dr == m->drow && dc == m->dcol;
	if (m->dcol != 0)
		k = dc / m->dcol;
	else
		k = dr / m->drow;
	return k >= 1 && k * m->drow == dr && k * m->dcol == dc;
}

/* Does the piece `code` on cell a attack cell b of a w-wide board?
 * custom[k] and ncustom[k] are the moves of custom set k. */
static inline int co_attacks(uint32_t w, int32_t code, const qubo_puzzle_chess_move *const *custom,
			     const size_t *ncustom, size_t a, size_t b)
{
	long dr = (long)(b / w) - (long)(a / w), dc = (long)(b % w) - (long)(a % w);
	size_t k;

	if (a == b || code == QUBO_PUZZLE_CHESS_NONE)
		return 0;
	switch (code) {
	case QUBO_PUZZLE_CHESS_QUEEN:
		return dr == 0 || dc == 0 || co_abs(dr) == co_abs(dc);
	case QUBO_PUZZLE_CHESS_ROOK:
		return dr == 0 || dc == 0;
	case QUBO_PUZZLE_CHESS_BISHOP:
		return co_abs(dr) == co_abs(dc);
	case QUBO_PUZZLE_CHESS_KNIGHT:
		return (co_abs(dr) == 1 && co_abs(dc) == 2) || (co_abs(dr) == 2 && co_abs(dc) == 1);
	case QUBO_PUZZLE_CHESS_KING:
		return co_abs(dr) <= 1 && co_abs(dc) <= 1;
	default:
		break;
	}
	code -= QUBO_PUZZLE_CHESS_CUSTOM;
	for (k = 0; k < ncustom[code]; k++)
		if (co_move_hits(&custom[code][k], dr, dc))
			return 1;
	return 0;
}

static inline int co_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A sorted set of boards (bit c of a key is cell c). */
typedef struct co_set {
	uint64_t *keys;
	size_t n, cap;
} co_set;

static inline void co_add(co_set *s, uint64_t k)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->keys = realloc(s->keys, s->cap * sizeof *s->keys);
		cr_assert(s->keys);
	}
	s->keys[s->n++] = k;
}

static inline void co_sort(co_set *s)
{
	size_t i, m = 0;

	if (s->n > 1)
		qsort(s->keys, s->n, sizeof *s->keys, co_cmp_u64);
	for (i = 0; i < s->n; i++)
		if (m == 0 || s->keys[m - 1] != s->keys[i])
			s->keys[m++] = s->keys[i];
	s->n = m;
}

static inline void co_clear(co_set *s)
{
	free(s->keys);
	memset(s, 0, sizeof *s);
}

static inline uint64_t co_key(const uint8_t *board, size_t n)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		k |= (uint64_t)(board[i] & 1) << i;
	return k;
}

static inline void co_board(uint64_t key, size_t n, uint8_t *board)
{
	size_t i;

	for (i = 0; i < n; i++)
		board[i] = (uint8_t)((key >> i) & 1);
}

static inline void co_assert_same(const co_set *got, const co_set *want, const char *what)
{
	size_t i;

	cr_assert_eq(got->n, want->n, "%s: %zu minimisers (boards), %zu expected", what, got->n,
		     want->n);
	for (i = 0; i < got->n; i++)
		cr_assert_eq(got->keys[i], want->keys[i],
			     "%s: minimiser %zu is board %#llx, expected %#llx", what, i,
			     (unsigned long long)got->keys[i], (unsigned long long)want->keys[i]);
}

/* Every assignment of the puzzle's model by Gray code: returns the minimum
 * energy; `out` receives the distinct boards of the minimisers. The model's
 * weights in these tests are dyadic, so the running sums are exact. */
static inline double co_minimisers(const qubo_puzzle *p, size_t cells, co_set *out)
{
	const qubo_model *m;
	size_t nv, ncp, i, *deg, *start;
	double h[CO_MAX_VARS], field[CO_MAX_VARS], e, best;
	uint32_t *rows, *cols, *nb;
	double *w, *nw;
	uint8_t x[CO_MAX_VARS] = { 0 }, board[CO_MAX_CELLS];
	uint64_t s, top;
	int rc;

	cr_assert(cells <= CO_MAX_CELLS);
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	cr_assert(nv <= CO_MAX_VARS, "model too large to enumerate: %zu variables", nv);
	cr_assert_eq(qubo_model_export_linear(m, h, CO_MAX_VARS), QUBO_OK);
	ncp = 0;
	rc = qubo_model_export_coo(m, NULL, NULL, NULL, 0, &ncp);
	cr_assert(rc == QUBO_OK || rc == QUBO_ERR_BUFFER_TOO_SMALL, "%s", qubo_error_message());
	rows = malloc((ncp + 1) * sizeof *rows);
	cols = malloc((ncp + 1) * sizeof *cols);
	w = malloc((ncp + 1) * sizeof *w);
	nb = malloc((2 * ncp + 1) * sizeof *nb);
	nw = malloc((2 * ncp + 1) * sizeof *nw);
	deg = calloc(nv + 1, sizeof *deg);
	start = calloc(nv + 2, sizeof *start);
	cr_assert(rows && cols && w && nb && nw && deg && start);
	cr_assert_eq(qubo_model_export_coo(m, rows, cols, w, ncp, &ncp), QUBO_OK);
	for (i = 0; i < ncp; i++) {
		start[rows[i] + 1]++;
		start[cols[i] + 1]++;
	}
	for (i = 0; i < nv; i++)
		start[i + 1] += start[i];
	for (i = 0; i < ncp; i++) {
		size_t a = rows[i], b = cols[i];

		nb[start[a] + deg[a]] = (uint32_t)b;
		nw[start[a] + deg[a]++] = w[i];
		nb[start[b] + deg[b]] = (uint32_t)a;
		nw[start[b] + deg[b]++] = w[i];
	}
	for (i = 0; i < nv; i++)
		field[i] = h[i];
	e = best = qubo_model_offset(m);
	top = (uint64_t)1 << nv;
	out->n = 0;
	for (s = 0;;) {
		if (e <= best) {
			if (e < best) {
				best = e;
				out->n = 0;
			}
			cr_assert_eq(qubo_puzzle_decode(p, x, nv, board, cells), QUBO_OK);
			co_add(out, co_key(board, cells));
		}
		if (++s == top)
			break;
		{
			size_t v = (size_t)__builtin_ctzll(s), k;
			double d = x[v] ? -field[v] : field[v];
			double sign = x[v] ? -1.0 : 1.0;

			e += d;
			x[v] ^= 1;
			for (k = start[v]; k < start[v + 1]; k++)
				field[nb[k]] += sign * nw[k];
		}
	}
	co_sort(out);
	free(rows);
	free(cols);
	free(w);
	free(nb);
	free(nw);
	free(deg);
	free(start);
	return best;
}

static inline size_t co_vars(const qubo_puzzle *p)
{
	const qubo_model *m;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	return qubo_model_num_variables(m);
}

static inline qubo_puzzle_options co_opts(int32_t reduce, double penalty)
{
	qubo_puzzle_options o;

	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.reduce = reduce;
	o.penalty = penalty;
	return o;
}

/* Runs the named built-in solver and returns the lowest sample decoded to a
 * board, with its energy. */
static inline double co_solve(const qubo_puzzle *p, const char *solver, int64_t reads,
			      int64_t sweeps, uint64_t seed, uint8_t *board, size_t cells,
			      int has_target, double target)
{
	const qubo_model *m;
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	uint8_t *x;
	size_t nv;
	double e;
	int rc;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	x = malloc(nv + 1);
	cr_assert(x);
	cr_assert_eq(qubo_solver_new(&s, solver, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, reads), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_SEED, (int64_t)seed), QUBO_OK);
	if (sweeps > 0)
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, sweeps), QUBO_OK);
	if (has_target)
		cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_TARGET_ENERGY, target), QUBO_OK);
	rc = qubo_solver_sample(&set, s, m);
	cr_assert(rc >= 0, "sampling failed: %s", qubo_error_message());
	cr_assert_eq(qubo_sampleset_lowest(set, x, nv, &e), QUBO_OK);
	cr_assert_eq(qubo_puzzle_decode(p, x, nv, board, cells), QUBO_OK);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	free(x);
	return e;
}

#endif
