/* Helpers shared by the puzzle suites. Header-only (static inline) so that
 * each suite stays one file.
 *
 *  - ph_inst: a small queens instance owned by the test (the "oracle"), with
 *    its own rule evaluation written from the rules, not from the library:
 *    the brute-force referee of doc/formulations.md. It fills a
 *    qubo_puzzle_queens_spec and can write itself as a queens/nqueens file.
 *  - ph_solutions(): every valid board by backtracking over the cells
 *    (pruned only by monotone count bounds and attacks between placed
 *    queens), each leaf confirmed by the library's rule checker too.
 *  - ph_minimisers(): every assignment of a model's variables by Gray code,
 *    the minimum energy and the minimisers decoded to boards.
 *  - ph_exact(): the two compared, plus the documented ground energy.
 */
#ifndef QUBO_TEST_PUZZLE_HELPERS_H
#define QUBO_TEST_PUZZLE_HELPERS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/puzzle.h>
#include <qubo/puzzle/queens.h>

#include "util.h"

#define PH_MAX_CELLS 64
#define PH_MAX_REGIONS 12
#define PH_MAX_VARS 26

typedef struct ph_inst {
	uint32_t w, h;
	uint8_t off[PH_MAX_CELLS];
	int has_rows, has_cols;
	int32_t rows[16], cols[16];
	size_t nreg;
	uint8_t in_reg[PH_MAX_REGIONS][PH_MAX_CELLS];
	int32_t q[PH_MAX_REGIONS], t[PH_MAX_REGIONS];
	uint32_t reach[8];
	int per_cell;
	uint32_t cell_reach[8 * PH_MAX_CELLS];
	int32_t wrap;
	uint8_t given[PH_MAX_CELLS];
	int32_t region_form, kform;
	/* spec storage */
	size_t reg_start[PH_MAX_REGIONS + 1];
	uint32_t reg_cells[PH_MAX_REGIONS * PH_MAX_CELLS];
	uint32_t queens[PH_MAX_CELLS];
	/* the oracle's conflict matrix */
	uint8_t conflict[PH_MAX_CELLS][PH_MAX_CELLS];
} ph_inst;

static const int ph_dr[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
static const int ph_dc[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static inline uint32_t ph_reach(const ph_inst *I, size_t c, int d)
{
	return I->per_cell ? I->cell_reach[8 * c + (size_t)d] : I->reach[d];
}

/* Does a reach b? Walk from a in each direction, one step at a time. */
static inline int ph_reaches(const ph_inst *I, size_t a, size_t b)
{
	int d;

	for (d = 0; d < 8; d++) {
		long r = (long)(a / I->w), c = (long)(a % I->w);
		uint64_t k;

		for (k = 1; k <= ph_reach(I, a, d) && k <= 4 * PH_MAX_CELLS; k++) {
			r += ph_dr[d];
			c += ph_dc[d];
			if (I->wrap >= QUBO_PUZZLE_WRAP_CYLINDER)
				c = (c + (long)I->w) % (long)I->w;
			if (I->wrap == QUBO_PUZZLE_WRAP_TORUS)
				r = (r + (long)I->h) % (long)I->h;
			if (r < 0 || c < 0 || r >= (long)I->h || c >= (long)I->w)
				break;
			if ((size_t)(r * (long)I->w + c) == a)
				break;
			if ((size_t)(r * (long)I->w + c) == b)
				return 1;
		}
	}
	return 0;
}

static inline void ph_prepare(ph_inst *I)
{
	size_t n = (size_t)I->w * I->h, a, b;

	cr_assert(n <= PH_MAX_CELLS);
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			I->conflict[a][b] = a != b && !I->off[a] && !I->off[b] &&
					    (ph_reaches(I, a, b) || ph_reaches(I, b, a));
}

/* Fills a spec pointing into I. */
static inline void ph_spec(ph_inst *I, qubo_puzzle_queens_spec *s)
{
	size_t n = (size_t)I->w * I->h, k, c, m = 0, nq = 0;
	qubo_puzzle_queens_spec z = QUBO_PUZZLE_QUEENS_SPEC_INIT;

	*s = z;
	s->width = I->w;
	s->height = I->h;
	s->off_board = I->off;
	s->row_counts = I->has_rows ? I->rows : NULL;
	s->col_counts = I->has_cols ? I->cols : NULL;
	for (k = 0; k < I->nreg; k++) {
		I->reg_start[k] = m;
		for (c = 0; c < n; c++)
			if (I->in_reg[k][c])
				I->reg_cells[m++] = (uint32_t)c;
	}
	I->reg_start[I->nreg] = m;
	s->num_regions = I->nreg;
	s->region_start = I->nreg ? I->reg_start : NULL;
	s->region_cells = I->reg_cells;
	s->region_counts = I->q;
	s->region_plus_one = I->t;
	memcpy(s->reach, I->reach, sizeof s->reach);
	s->cell_reach = I->per_cell ? I->cell_reach : NULL;
	s->wrap = I->wrap;
	for (c = 0; c < n; c++)
		if (I->given[c])
			I->queens[nq++] = (uint32_t)c;
	s->queens = I->queens;
	s->num_queens = nq;
	s->region_form = I->region_form;
	s->k_or_k1_form = I->kform;
}

/* The oracle's verdict on a full board. */
static inline int ph_valid(const ph_inst *I, const uint8_t *x)
{
	size_t n = (size_t)I->w * I->h, a, b, k;
	uint32_t r, c;

	for (a = 0; a < n; a++) {
		if (x[a] && I->off[a])
			return 0;
		if (I->given[a] && !x[a])
			return 0;
		for (b = a + 1; b < n; b++)
			if (x[a] && x[b] && I->conflict[a][b])
				return 0;
	}
	for (r = 0; I->has_rows && r < I->h; r++) {
		int cnt = 0;
		for (c = 0; c < I->w; c++)
			cnt += x[r * I->w + c];
		if (I->rows[r] >= 0 && cnt != I->rows[r])
			return 0;
	}
	for (c = 0; I->has_cols && c < I->w; c++) {
		int cnt = 0;
		for (r = 0; r < I->h; r++)
			cnt += x[r * I->w + c];
		if (I->cols[c] >= 0 && cnt != I->cols[c])
			return 0;
	}
	for (k = 0; k < I->nreg; k++) {
		int cnt = 0;
		for (a = 0; a < n; a++)
			cnt += I->in_reg[k][a] && !I->off[a] && x[a];
		if (cnt < I->q[k] || cnt > I->q[k] + I->t[k])
			return 0;
	}
	return 1;
}

static inline uint64_t ph_key(const uint8_t *x, size_t n)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		k |= (uint64_t)(x[i] & 1) << i;
	return k;
}

static inline int ph_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

typedef struct ph_set {
	uint64_t *keys;
	size_t n, cap;
	int overflow;
} ph_set;

static inline void ph_set_add(ph_set *s, uint64_t k)
{
	if (s->n == s->cap) {
		if (s->cap >= ((size_t)1 << 20)) {
			s->overflow = 1;
			return;
		}
		s->cap = s->cap ? 2 * s->cap : 64;
		s->keys = realloc(s->keys, s->cap * sizeof *s->keys);
		cr_assert(s->keys);
	}
	s->keys[s->n++] = k;
}

static inline void ph_set_sort(ph_set *s)
{
	size_t i, m = 0;

	if (s->n)
		qsort(s->keys, s->n, sizeof *s->keys, ph_cmp_u64);
	for (i = 0; i < s->n; i++)
		if (!m || s->keys[m - 1] != s->keys[i])
			s->keys[m++] = s->keys[i];
	s->n = m;
}

/* Count bounds of the oracle's constraints for pruning: for each cell, the
 * constraints it is in. */
typedef struct ph_bt {
	const ph_inst *I;
	const qubo_puzzle *p; /* confirms every leaf with the library checker */
	size_t n;
	int ncon;
	int lo[64], hi[64];
	int ones[64], left[64];
	uint8_t member[64][PH_MAX_CELLS];
	uint8_t x[PH_MAX_CELLS];
	ph_set *out;
	size_t leaves;
} ph_bt;

static inline void ph_bt_rec(ph_bt *B, size_t i)
{
	int v, j;

	if (i == B->n) {
		size_t viol = 99;
		char rep[512];

		cr_assert(ph_valid(B->I, B->x), "backtracking reached an invalid board");
		if (B->p) {
			cr_assert_eq(qubo_puzzle_check(B->p, B->x, B->n, rep, sizeof rep, &viol),
				     QUBO_OK);
			cr_assert_eq(viol, 0, "the checker rejects a valid board: %s", rep);
		}
		ph_set_add(B->out, ph_key(B->x, B->n));
		B->leaves++;
		return;
	}
	for (v = 0; v <= 1; v++) {
		int ok = 1;
		size_t b;

		if (v == 1 && B->I->off[i])
			continue;
		if (v == 0 && B->I->given[i])
			continue;
		if (v == 1)
			for (b = 0; b < i && ok; b++)
				ok = !(B->x[b] && B->I->conflict[b][i]);
		if (!ok)
			continue;
		B->x[i] = (uint8_t)v;
		for (j = 0; j < B->ncon; j++)
			if (B->member[j][i]) {
				B->left[j]--;
				B->ones[j] += v;
				if (B->ones[j] > B->hi[j] || B->ones[j] + B->left[j] < B->lo[j])
					ok = 0;
			}
		if (ok)
			ph_bt_rec(B, i + 1);
		for (j = 0; j < B->ncon; j++)
			if (B->member[j][i]) {
				B->left[j]++;
				B->ones[j] -= v;
			}
		B->x[i] = 0;
	}
}

/* Every valid board of I, as sorted keys. */
static inline void ph_solutions(const ph_inst *I, const qubo_puzzle *p, ph_set *out)
{
	static ph_bt B;
	size_t n = (size_t)I->w * I->h, c, k;
	uint32_t r;

	memset(&B, 0, sizeof B);
	B.I = I;
	B.p = p;
	B.n = n;
	B.out = out;
	for (r = 0; I->has_rows && r < I->h; r++) {
		if (I->rows[r] < 0)
			continue;
		for (c = 0; c < I->w; c++)
			B.member[B.ncon][r * I->w + c] = 1;
		B.lo[B.ncon] = B.hi[B.ncon] = I->rows[r];
		B.ncon++;
	}
	for (c = 0; I->has_cols && c < I->w; c++) {
		if (I->cols[c] < 0)
			continue;
		for (r = 0; r < I->h; r++)
			B.member[B.ncon][r * I->w + c] = 1;
		B.lo[B.ncon] = B.hi[B.ncon] = I->cols[c];
		B.ncon++;
	}
	for (k = 0; k < I->nreg; k++) {
		for (c = 0; c < n; c++)
			B.member[B.ncon][c] = I->in_reg[k][c] && !I->off[c];
		B.lo[B.ncon] = I->q[k];
		B.hi[B.ncon] = I->q[k] + I->t[k];
		B.ncon++;
	}
	for (k = 0; k < (size_t)B.ncon; k++)
		for (c = 0; c < n; c++)
			B.left[k] += B.member[k][c];
	for (k = 0; k < (size_t)B.ncon; k++)
		if (B.left[k] < B.lo[k])
			return; /* no board can satisfy it */
	ph_bt_rec(&B, 0);
	ph_set_sort(out);
}

/* All 2^n assignments of a compiled model by Gray code (exact for the
 * integer and quarter weights the tests use): the minimum and the
 * minimisers decoded to boards. */
static inline double ph_minimisers(const qubo_puzzle *p, ph_set *out)
{
	const qubo_model *m;
	size_t nv, ncp, i, cells;
	double h[PH_MAX_VARS], field[PH_MAX_VARS], e, best;
	uint32_t rows[1024], cols[1024];
	double w[1024];
	uint8_t x[PH_MAX_VARS] = { 0 }, board[PH_MAX_CELLS];
	int deg[PH_MAX_VARS] = { 0 }, nb[PH_MAX_VARS][PH_MAX_VARS];
	double wt[PH_MAX_VARS][PH_MAX_VARS];
	uint64_t s, top;
	qubo_puzzle_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0, 0 };

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
	cells = st.width * st.height;
	cr_assert(cells <= PH_MAX_CELLS);
	if (cells > PH_MAX_CELLS)
		cells = PH_MAX_CELLS; /* (unreachable) keeps the bounds visible */
	nv = qubo_model_num_variables(m);
	cr_assert(nv <= PH_MAX_VARS, "model too large to enumerate: %zu", nv);
	cr_assert_eq(qubo_model_export_linear(m, h, PH_MAX_VARS), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(m, rows, cols, w, 1024, &ncp), QUBO_OK);
	for (i = 0; i < ncp; i++) {
		uint32_t a = rows[i], b = cols[i];
		nb[a][deg[a]] = (int)b;
		wt[a][deg[a]++] = w[i];
		nb[b][deg[b]] = (int)a;
		wt[b][deg[b]++] = w[i];
	}
	for (i = 0; i < nv; i++)
		field[i] = h[i];
	e = best = qubo_model_offset(m);
	top = (uint64_t)1 << nv;
	for (s = 0;;) {
		if (e < best) {
			best = e;
			out->n = 0;
			out->overflow = 0;
		}
		if (e == best) {
			cr_assert_eq(qubo_puzzle_decode(p, x, nv, board, sizeof board), QUBO_OK);
			ph_set_add(out, ph_key(board, cells));
		}
		if (++s == top)
			break;
		{
			int k = __builtin_ctzll(s), j;
			double sg;

			e += x[k] ? -field[k] : field[k];
			x[k] ^= 1;
			sg = x[k] ? 1.0 : -1.0;
			for (j = 0; j < deg[k]; j++)
				field[nb[k][j]] += sg * wt[k][j];
		}
	}
	cr_assert(!out->overflow, "too many minimisers to compare");
	ph_set_sort(out);
	/* spot check: the library's energy of the last minimiser */
	return best;
}

/* Exactness of one built puzzle against the oracle's solution set `sols`:
 * the minimisers decode to exactly the solutions, at the documented ground
 * energy; with no solutions the minimum lies above it. */
static inline void ph_exact(const qubo_puzzle *p, const ph_set *sols, const char *what)
{
	ph_set mins = { 0 };
	double ground, best;
	size_t i;

	cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
	best = ph_minimisers(p, &mins);
	if (sols->n == 0) {
		cr_assert_gt(best, ground, "%s: no solutions, but the model reaches %g (ground %g)",
			     what, best, ground);
	} else {
		cr_assert_eq(best, ground, "%s: minimum %g, documented ground energy %g", what,
			     best, ground);
		cr_assert_eq(mins.n, sols->n, "%s: %zu minimisers, %zu solutions", what, mins.n,
			     sols->n);
		for (i = 0; i < mins.n; i++)
			cr_assert_eq(mins.keys[i], sols->keys[i],
				     "%s: minimiser %zu differs from the solutions", what, i);
	}
	free(mins.keys);
}

/* For models too large to enumerate: every solution of the oracle is a
 * sample at the ground energy (its fixed cells agree with the reduction),
 * every single flip away from it costs energy unless it lands on another
 * solution, and greedy descents from random samples that reach the ground
 * energy decode to valid boards. */
static inline void ph_check_large(const qubo_puzzle *p, const ph_inst *I, const ph_set *sols,
				  tu_rng *r, const char *what)
{
	const qubo_model *m;
	size_t nv, n = (size_t)I->w * I->h, i, c, v;
	qubo_lit lits[PH_MAX_CELLS];
	uint8_t x[PH_MAX_CELLS], board[PH_MAX_CELLS];
	double ground, e, e2;
	int t;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, n), QUBO_OK);
	nv = qubo_model_num_variables(m);
	cr_assert(nv <= PH_MAX_CELLS);
	for (i = 0; i < sols->n && i < 64; i++) {
		memset(x, 0, sizeof x);
		for (c = 0; c < n; c++) {
			uint8_t b = (uint8_t)((sols->keys[i] >> c) & 1);
			if (QUBO_LIT_IS_CONST(lits[c]))
				cr_assert_eq(b, lits[c] == QUBO_LIT_TRUE,
					     "%s: the reduction fixed cell %zu against a solution",
					     what, c);
			else
				x[QUBO_LIT_VAR(lits[c])] = (uint8_t)(b ^ QUBO_LIT_IS_NEG(lits[c]));
		}
		cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
		cr_assert_eq(e, ground, "%s: a solution has energy %g, ground %g", what, e, ground);
		for (v = 0; v < nv; v++) {
			x[v] ^= 1;
			cr_assert_eq(qubo_model_energy(m, x, nv, &e2), QUBO_OK);
			cr_assert_eq(qubo_puzzle_decode(p, x, nv, board, n), QUBO_OK);
			if (ph_valid(I, board))
				cr_assert_eq(e2, ground, "%s", what);
			else
				cr_assert_gt(e2, ground, "%s: a non-solution at the ground energy",
					     what);
			x[v] ^= 1;
		}
	}
	for (t = 0; t < 40 && nv > 0; t++) {
		int improved = 1;

		for (v = 0; v < nv; v++)
			x[v] = tu_below(r, 4) == 0;
		cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
		while (improved) {
			size_t best = nv;
			double bd = 0, d;

			improved = 0;
			for (v = 0; v < nv; v++) {
				cr_assert_eq(qubo_model_delta(m, x, nv, (uint32_t)v, &d), QUBO_OK);
				if (d < bd) {
					bd = d;
					best = v;
				}
			}
			if (best < nv) {
				x[best] ^= 1;
				e += bd;
				improved = 1;
			}
		}
		cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
		cr_assert_geq(e, ground, "%s: below the ground energy", what);
		if (e == ground) {
			cr_assert_eq(qubo_puzzle_decode(p, x, nv, board, n), QUBO_OK);
			cr_assert(ph_valid(I, board), "%s: a descent found an invalid ground state",
				  what);
		}
	}
}

/* ---- random instances ---- */

static inline uint32_t ph_random_reach(tu_rng *r)
{
	static const uint32_t v[] = { 0, 0, 1, 1, 2, QUBO_PUZZLE_QUEENS_UNLIMITED };
	return v[tu_below(r, 6)];
}

/* A random generalised instance with at most max_cells on-board cells. */
static inline void ph_random_inst(ph_inst *I, tu_rng *r, size_t max_cells)
{
	size_t n, c, k, on = 0;
	int d;

	memset(I, 0, sizeof *I);
	do {
		I->w = (uint32_t)tu_range(r, 1, 5);
		I->h = (uint32_t)tu_range(r, 1, 5);
	} while ((size_t)I->w * I->h > max_cells + 4);
	n = (size_t)I->w * I->h;
	for (c = 0; c < n; c++) {
		I->off[c] = tu_below(r, 7) == 0;
		on += !I->off[c];
	}
	for (c = n; c > 0 && on > max_cells; c--)
		if (!I->off[c - 1]) {
			I->off[c - 1] = 1;
			on--;
		}
	I->has_rows = tu_below(r, 4) != 0;
	I->has_cols = tu_below(r, 3) != 0;
	for (c = 0; c < I->h; c++)
		I->rows[c] = tu_below(r, 5) == 0 ?
				     QUBO_PUZZLE_QUEENS_ANY :
				     (int32_t)tu_range(r, 0, 2) % 2 + (tu_below(r, 4) == 0);
	for (c = 0; c < I->w; c++)
		I->cols[c] = tu_below(r, 5) == 0 ?
				     QUBO_PUZZLE_QUEENS_ANY :
				     (int32_t)tu_range(r, 0, 2) % 2 + (tu_below(r, 4) == 0);
	I->nreg = (size_t)tu_below(r, 4);
	for (k = 0; k < I->nreg; k++) {
		for (c = 0; c < n; c++)
			I->in_reg[k][c] = tu_below(r, 3) == 0;
		I->q[k] = (int32_t)tu_range(r, 0, 2);
		I->t[k] = tu_below(r, 2) == 0;
	}
	if (tu_below(r, 3) == 0) {
		I->per_cell = 1;
		for (c = 0; c < 8 * n; c++)
			I->cell_reach[c] = ph_random_reach(r);
	} else {
		for (d = 0; d < 8; d++)
			I->reach[d] = ph_random_reach(r);
	}
	I->wrap = (int32_t)tu_below(r, 3);
	for (k = tu_below(r, 3); k > 0; k--) {
		c = (size_t)tu_below(r, n);
		if (!I->off[c])
			I->given[c] = 1;
	}
	I->region_form = (int32_t)tu_below(r, 2);
	I->kform = (int32_t)tu_below(r, 2);
	ph_prepare(I);
	if (tu_below(r, 4) != 0) {
		/* Plant a solution: a random set of pairwise non-attacking cells,
		 * then counts that it meets and clues taken from it. */
		uint8_t x[PH_MAX_CELLS] = { 0 };
		size_t b;
		uint32_t rr, cc;

		for (c = 0; c < n; c++)
			I->given[c] = 0;
		for (k = 0; k < 2 * n; k++) {
			int ok = 1;

			c = (size_t)tu_below(r, n);
			if (I->off[c] || x[c] || tu_below(r, 3) == 0)
				continue;
			for (b = 0; b < n && ok; b++)
				ok = !(x[b] && I->conflict[b][c]);
			x[c] = (uint8_t)ok;
		}
		for (rr = 0; rr < I->h; rr++) {
			int cnt = 0;
			for (cc = 0; cc < I->w; cc++)
				cnt += x[rr * I->w + cc];
			I->rows[rr] = tu_below(r, 5) == 0 ? QUBO_PUZZLE_QUEENS_ANY : cnt;
		}
		for (cc = 0; cc < I->w; cc++) {
			int cnt = 0;
			for (rr = 0; rr < I->h; rr++)
				cnt += x[rr * I->w + cc];
			I->cols[cc] = tu_below(r, 5) == 0 ? QUBO_PUZZLE_QUEENS_ANY : cnt;
		}
		for (k = 0; k < I->nreg; k++) {
			int cnt = 0;
			for (c = 0; c < n; c++)
				cnt += I->in_reg[k][c] && !I->off[c] && x[c];
			I->q[k] = I->t[k] && cnt > 0 && tu_below(r, 2) ? cnt - 1 : cnt;
		}
		for (c = 0; c < n; c++)
			I->given[c] = x[c] && tu_below(r, 4) == 0;
	}
}

/* A random placement of k per row and column on an N × N board with no
 * two touching (diagonally for k = 1, in any direction for k > 1), by
 * randomised backtracking over the valid row patterns; 0 when none was
 * found within the budget. */
static inline int ph_plant_rows(tu_rng *r, uint32_t N, int32_t k, uint8_t *x, uint32_t row,
				int *colcnt, long *budget)
{
	uint32_t pats[64][2], np = 0, a, b, i, order[64];

	if (row == N) {
		for (a = 0; a < N; a++)
			if (colcnt[a] != k)
				return 0;
		return 1;
	}
	if (--*budget < 0)
		return 0;
	for (a = 0; a < N; a++) {
		if (k == 1) {
			pats[np][0] = a;
			pats[np++][1] = a;
			continue;
		}
		for (b = a + 2; b < N && np < 64; b++) {
			pats[np][0] = a;
			pats[np++][1] = b;
		}
	}
	for (i = 0; i < np; i++)
		order[i] = i;
	for (i = np; i > 1; i--) {
		uint32_t j = (uint32_t)tu_below(r, i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < np; i++) {
		uint32_t *pt = pats[order[i]], j, c;
		int ok = 1;

		for (j = 0; j < (uint32_t)k && ok; j++) {
			c = pt[j];
			ok &= colcnt[c] < k;
			if (row > 0) {
				ok &= !(c > 0 && x[(row - 1) * N + c - 1]);
				ok &= !(c + 1 < N && x[(row - 1) * N + c + 1]);
				if (k > 1)
					ok &= !x[(row - 1) * N + c];
			}
		}
		if (!ok)
			continue;
		for (j = 0; j < (uint32_t)k; j++) {
			x[row * N + pt[j]] = 1;
			colcnt[pt[j]]++;
		}
		/* every column can still get its k: at most one in any two
		 * consecutive rows when k > 1 */
		for (c = 0; c < N && ok; c++) {
			uint32_t rest = N - row - 1;
			uint32_t room = k > 1 ? (rest + 1 - x[row * N + c]) / 2 : rest;
			ok = (uint32_t)(k - colcnt[c]) <= room;
		}
		if (ok && ph_plant_rows(r, N, k, x, row + 1, colcnt, budget))
			return 1;
		for (j = 0; j < (uint32_t)k; j++) {
			x[row * N + pt[j]] = 0;
			colcnt[pt[j]]--;
		}
	}
	return 0;
}

/* A LinkedIn-like or Star Battle instance: N × N, N regions partitioning
 * the board, k per row, column and region, no two touching (diagonally for
 * k = 1, in all 8 directions for k > 1). Usually a solution is planted
 * first and the regions grow from its queens (so the instance is
 * feasible), with clues taken from it; sometimes everything is random. */
static inline void ph_random_regions(ph_inst *I, tu_rng *r, uint32_t N, int32_t k, int holes,
				     int queens)
{
	size_t n = (size_t)N * N, c, placed = 0, reg;
	int owner[PH_MAX_CELLS], d, colcnt[16] = { 0 }, spoil;
	uint8_t x[PH_MAX_CELLS] = { 0 };
	long budget = 200000;
	int planted = tu_below(r, 5) != 0 && ph_plant_rows(r, N, k, x, 0, colcnt, &budget);

	memset(I, 0, sizeof *I);
	I->w = I->h = N;
	for (c = 0; c < n; c++)
		owner[c] = -1;
	if (planted) {
		/* region j starts from the j-th planted queen(s) */
		size_t j = 0;

		for (c = 0; c < n; c++)
			if (x[c]) {
				owner[c] = (int)(j / (size_t)k);
				j++;
				placed++;
			}
	} else {
		for (reg = 0; reg < N; reg++) {
			do
				c = (size_t)tu_below(r, n);
			while (owner[c] >= 0);
			owner[c] = (int)reg;
			placed++;
		}
	}
	while (placed < n) {
		c = (size_t)tu_below(r, n);
		if (owner[c] >= 0)
			continue;
		d = (int)tu_below(r, 4) * 2;
		{
			long rr = (long)(c / N) + ph_dr[d], cc = (long)(c % N) + ph_dc[d];
			if (rr < 0 || cc < 0 || rr >= (long)N || cc >= (long)N)
				continue;
			if (owner[rr * (long)N + cc] < 0)
				continue;
			owner[c] = owner[rr * (long)N + cc];
			placed++;
		}
	}
	I->has_rows = I->has_cols = 1;
	for (c = 0; c < N; c++)
		I->rows[c] = I->cols[c] = k;
	I->nreg = N;
	for (c = 0; c < n; c++)
		I->in_reg[owner[c]][c] = 1;
	for (reg = 0; reg < N; reg++)
		I->q[reg] = k;
	for (d = 0; d < 8; d++)
		I->reach[d] = (d % 2 == 1 || k > 1) ? 1 : 0;
	for (c = (size_t)holes; c > 0; c--) {
		size_t h = (size_t)tu_below(r, n);
		if (!planted || !x[h])
			I->off[h] = 1;
	}
	/* clues from the planted solution; now and then one that is not */
	spoil = tu_below(r, 6) == 0;
	for (c = (size_t)queens; c > 0; c--) {
		size_t g = (size_t)tu_below(r, n);
		if (planted && !x[g]) {
			if (!spoil)
				continue;
			spoil = 0;
		}
		if (!I->off[g])
			I->given[g] = 1;
	}
	ph_prepare(I);
}

/* Writes I as a `queens N [stars K]` file (I from ph_random_regions). */
static inline size_t ph_queens_text(const ph_inst *I, int32_t k, char *buf, size_t cap)
{
	size_t len = 0, c, reg;

	len += (size_t)snprintf(buf + len, cap - len, "# generated\nqueens %u", (unsigned)I->w);
	if (k > 1)
		len += (size_t)snprintf(buf + len, cap - len, " stars %d", (int)k);
	buf[len++] = '\n';
	for (c = 0; c < (size_t)I->w * I->h; c++) {
		char ch = '.';
		for (reg = 0; reg < I->nreg; reg++)
			if (I->in_reg[reg][c] && !I->off[c])
				ch = (char)((I->given[c] ? 'A' : 'a') + (int)reg);
		buf[len++] = ch;
		if (c % I->w == I->w - 1)
			buf[len++] = '\n';
	}
	buf[len] = '\0';
	return len;
}

/* A spec builder of the public API, through a const void * spec (each suite
 * wraps its family's builder). */
typedef int (*ph_spec_fn)(qubo_puzzle **out, const void *spec, const qubo_puzzle_options *o);

/* Out of memory at each allocation in turn while the puzzle is built at the
 * given level, from text or (text NULL) by build(spec): a clean NOMEM with
 * out NULL (or success, for a failure the library lives with, such as a
 * shrinking realloc), nothing leaked, until a run meets no failure. Returns
 * how many runs failed with NOMEM. */
static inline size_t ph_oom_sweep(const char *text, ph_spec_fn build, const void *spec,
				  int32_t reduce)
{
	size_t k, fails = 0;

	for (k = 1; k < 100000; k++) {
		tu_failalloc fa;
		qubo_puzzle_options o;
		qubo_puzzle *p = (qubo_puzzle *)&fa;
		int rc;

		memset(&o, 0, sizeof o);
		o.struct_size = sizeof o;
		o.reduce = reduce;
		tu_failalloc_init(&fa, k);
		o.allocator = &fa.a;
		rc = text ? qubo_puzzle_parse(&p, text, strlen(text), &o) : build(&p, spec, &o);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
			cr_assert_gt(fa.live, 0);
			qubo_puzzle_free(p);
			cr_assert_eq(fa.live, 0, "leak after success");
			break;
		}
		if (rc == QUBO_OK) {
			qubo_puzzle_free(p);
			cr_assert_eq(fa.live, 0, "allocation %zu: leak after success", k);
			continue;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %s %s", k, qubo_status_name(rc),
			     qubo_error_message());
		cr_assert_null(p);
		cr_assert_eq(fa.live, 0, "allocation %zu: %zu blocks leaked", k, fa.live);
		fails++;
	}
	return fails;
}

#endif
