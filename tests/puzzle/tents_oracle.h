/* The Tents & Trees referee of the tests, written from the rules and not
 * from the library (doc/formulations.md): a small instance, its validity
 * check (counts, no touching in the eight directions, every tree matched to
 * its own tent orthogonally beside it by plain backtracking), and every
 * valid board by backtracking over the cells. Header-only, as helpers.h. */
#ifndef QUBO_TEST_TENTS_ORACLE_H
#define QUBO_TEST_TENTS_ORACLE_H

#include <qubo/puzzle/tents.h>

#include "puzzle/helpers.h"

#define TO_MAX 64

typedef struct to_inst {
	uint32_t w, h;
	size_t n;
	uint8_t tree[TO_MAX];
	int32_t rows[TO_MAX], cols[TO_MAX];
	uint32_t trees[TO_MAX];
	size_t ntrees;
} to_inst;

static inline long to_abs(long v)
{
	return v < 0 ? -v : v;
}

static inline long to_dr(const to_inst *I, size_t a, size_t b)
{
	return to_abs((long)(a / I->w) - (long)(b / I->w));
}

static inline long to_dc(const to_inst *I, size_t a, size_t b)
{
	return to_abs((long)(a % I->w) - (long)(b % I->w));
}

/* a and b share a side */
static inline int to_beside(const to_inst *I, size_t a, size_t b)
{
	return to_dr(I, a, b) + to_dc(I, a, b) == 1;
}

/* a and b touch, diagonals included */
static inline int to_touch(const to_inst *I, size_t a, size_t b)
{
	return a != b && to_dr(I, a, b) <= 1 && to_dc(I, a, b) <= 1;
}

/* Trees k, k+1, ... each take an unused tent beside them. */
static inline int to_match(const to_inst *I, const uint8_t *x, size_t k, uint8_t *used)
{
	size_t c;

	if (k == I->ntrees)
		return 1;
	for (c = 0; c < I->n; c++) {
		if (!x[c] || used[c] || !to_beside(I, I->trees[k], c))
			continue;
		used[c] = 1;
		if (to_match(I, x, k + 1, used))
			return 1;
		used[c] = 0;
	}
	return 0;
}

/* The referee's verdict on a full board (1 = tent). */
static inline int to_valid(const to_inst *I, const uint8_t *x)
{
	size_t a, b, tents = 0;
	uint8_t used[TO_MAX] = { 0 };
	uint32_t r, c;

	for (a = 0; a < I->n; a++) {
		if (!x[a])
			continue;
		if (I->tree[a])
			return 0;
		tents++;
		for (b = a + 1; b < I->n; b++)
			if (x[b] && to_touch(I, a, b))
				return 0;
	}
	for (r = 0; r < I->h; r++) {
		int32_t cnt = 0;

		for (c = 0; c < I->w; c++)
			cnt += x[r * I->w + c];
		if (cnt != I->rows[r])
			return 0;
	}
	for (c = 0; c < I->w; c++) {
		int32_t cnt = 0;

		for (r = 0; r < I->h; r++)
			cnt += x[r * I->w + c];
		if (cnt != I->cols[c])
			return 0;
	}
	return tents == I->ntrees && to_match(I, x, 0, used);
}

typedef struct to_bt {
	const to_inst *I;
	uint8_t x[TO_MAX];
	int32_t row_cnt[TO_MAX], col_cnt[TO_MAX];
	ph_set *out;
} to_bt;

static inline void to_bt_rec(to_bt *B, size_t i)
{
	const to_inst *I = B->I;
	uint32_t r, c;
	int v;

	if (i == I->n) {
		if (to_valid(I, B->x))
			ph_set_add(B->out, ph_key(B->x, I->n));
		return;
	}
	r = (uint32_t)(i / I->w);
	c = (uint32_t)(i % I->w);
	for (v = 0; v <= 1; v++) {
		size_t b;
		int ok = 1;

		if (v && I->tree[i])
			continue;
		for (b = 0; v && b < i && ok; b++)
			ok = !(B->x[b] && to_touch(I, b, i));
		if (!ok || B->row_cnt[r] + v > I->rows[r] || B->col_cnt[c] + v > I->cols[c])
			continue;
		/* a row is complete at its last cell, a column at the last row */
		if (c == I->w - 1 && B->row_cnt[r] + v != I->rows[r])
			continue;
		if (r == I->h - 1 && B->col_cnt[c] + v != I->cols[c])
			continue;
		B->x[i] = (uint8_t)v;
		B->row_cnt[r] += v;
		B->col_cnt[c] += v;
		to_bt_rec(B, i + 1);
		B->row_cnt[r] -= v;
		B->col_cnt[c] -= v;
		B->x[i] = 0;
	}
}

/* Lists the trees of I->tree in I->trees. */
static inline void to_index(to_inst *I)
{
	size_t c;

	I->ntrees = 0;
	for (c = 0; c < I->n; c++)
		if (I->tree[c])
			I->trees[I->ntrees++] = (uint32_t)c;
}

/* Every valid board of I, as sorted keys. */
static inline void to_solutions(to_inst *I, ph_set *out)
{
	static to_bt B;

	to_index(I);
	memset(&B, 0, sizeof B);
	B.I = I;
	B.out = out;
	to_bt_rec(&B, 0);
	ph_set_sort(out);
}

/* The instance as a spec (pointing into I). */
static inline qubo_puzzle_tents_spec to_spec(to_inst *I, int32_t relaxed)
{
	qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;

	to_index(I);
	s.width = I->w;
	s.height = I->h;
	s.trees = I->trees;
	s.num_trees = I->ntrees;
	s.row_counts = I->rows;
	s.col_counts = I->cols;
	s.relaxed = relaxed;
	return s;
}

/* The instance as a `tents WxH` file. */
static inline size_t to_text(const to_inst *I, char *buf, size_t cap)
{
	size_t len, c;
	uint32_t k;

	len = (size_t)snprintf(buf, cap, "# generated\ntents %ux%u\ncols", (unsigned)I->w,
			       (unsigned)I->h);
	for (k = 0; k < I->w; k++)
		len += (size_t)snprintf(buf + len, cap - len, " %d", (int)I->cols[k]);
	len += (size_t)snprintf(buf + len, cap - len, "\nrows");
	for (k = 0; k < I->h; k++)
		len += (size_t)snprintf(buf + len, cap - len, " %d", (int)I->rows[k]);
	buf[len++] = '\n';
	for (c = 0; c < I->n; c++) {
		buf[len++] = I->tree[c] ? 'T' : '.';
		if (c % I->w == I->w - 1)
			buf[len++] = '\n';
	}
	buf[len] = '\0';
	return len;
}

/*
 * A random instance of at most max_cells cells. planted 1: tents placed
 * one by one where they touch no other, each with a tree put on a free cell
 * beside it, and the counts of that board (so there is a solution);
 * planted 2: the same with one tent of the row counts moved to another row
 * (the sums agree, solutions are rare); planted 3: as 1, as many tents as
 * fit (dense boards); 0: random trees and random counts
 * (mostly without solutions, sometimes with counts that add up to the
 * number of trees).
 */
static inline void to_random(to_inst *I, tu_rng *r, size_t max_cells, int planted)
{
	uint8_t tent[TO_MAX] = { 0 };
	size_t c, k, tries;

	memset(I, 0, sizeof *I);
	do {
		I->w = (uint32_t)tu_range(r, 1, 8);
		I->h = (uint32_t)tu_range(r, 1, 8);
	} while ((size_t)I->w * I->h > max_cells);
	I->n = (size_t)I->w * I->h;
	if (planted) {
		tries = planted == 3 ? 4 * I->n : (size_t)tu_range(r, 1, (int64_t)I->n);
		for (k = 0; k < tries; k++) {
			size_t nb[4], m = 0, b;
			int ok = 1;

			c = (size_t)tu_below(r, I->n);
			if (I->tree[c] || tent[c])
				continue;
			for (b = 0; b < I->n && ok; b++)
				ok = !(tent[b] && to_touch(I, b, c));
			for (b = 0; b < I->n && ok; b++)
				if (to_beside(I, b, c) && !I->tree[b] && !tent[b])
					nb[m++] = b;
			if (!ok || m == 0)
				continue;
			tent[c] = 1;
			I->tree[nb[tu_below(r, m)]] = 1;
		}
		for (c = 0; c < I->n; c++) {
			I->rows[c / I->w] += tent[c];
			I->cols[c % I->w] += tent[c];
		}
		if (planted == 2 && I->h > 1) {
			/* one tent moved to another row: the sums still agree */
			size_t a = (size_t)tu_below(r, I->h), b = (size_t)tu_below(r, I->h);

			if (a != b && I->rows[a] > 0 && (uint32_t)I->rows[b] < I->w) {
				I->rows[a]--;
				I->rows[b]++;
			}
		}
		return;
	}
	for (c = 0; c < I->n; c++)
		I->tree[c] = tu_below(r, 4) == 0;
	for (k = 0; k < I->h; k++)
		I->rows[k] = (int32_t)tu_below(r, (I->w + 1) / 2 + 1);
	for (k = 0; k < I->w; k++)
		I->cols[k] = (int32_t)tu_below(r, (I->h + 1) / 2 + 1);
	if (tu_below(r, 2)) {
		/* make both sums equal the number of trees, where they can */
		size_t nt = 0;
		int32_t *lines[2] = { I->rows, I->cols };
		uint32_t lens[2] = { I->h, I->w }, most[2] = { I->w, I->h };
		int s;

		for (c = 0; c < I->n; c++)
			nt += I->tree[c];
		for (s = 0; s < 2; s++) {
			size_t left = nt;

			for (k = 0; k < lens[s]; k++)
				lines[s][k] = 0;
			for (tries = 0; left && tries < 100; tries++) {
				k = (size_t)tu_below(r, lens[s]);
				if ((uint32_t)lines[s][k] < most[s]) {
					lines[s][k]++;
					left--;
				}
			}
		}
	}
}

#endif
