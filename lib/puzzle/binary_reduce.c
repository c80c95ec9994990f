/*
 * Propagation for the binary-grid families (Takuzu, Tango): cells whose
 * value is the same in every solution that agrees with the clues (and a
 * search's decisions) are fixed. Each rule fixes a cell only to the value
 * it has in every such solution, or proves there is none, so the solution
 * set never changes (doc/formulations.md gives the proofs):
 *
 *   GIVEN     a clue (or a decision) fixes its cell;
 *   PARITY    a fixed cell fixes its whole parity class (the relations
 *             '=' and 'x'): x_m = x_c XOR flip_c XOR flip_m;
 *   COUNT     a line with all the ones it needs has 0 in its other cells;
 *             one with all its zeros has 1 there; more ones or zeros than
 *             that: no solution;
 *   WINDOW    two cells of a window with the same value force the third
 *             to the other value; three equal: no solution;
 *   LINE      a row or column (of at most BN_LINE_MAX cells) whose every
 *             completion that keeps its own count, its windows and the
 *             signs between its cells gives a cell the same value fixes
 *             that cell; no completion: no solution;
 *   DISTINCT  (rows and columns pairwise distinct) two complete lines of
 *             one direction that are equal: no solution; a line with two
 *             free cells that need one 1 between them, whose fixed cells
 *             agree with a complete line, takes the values that make it
 *             differ from that line.
 *
 * The work space is made once; a propagation allocates nothing, so that a
 * search's nodes are cheap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary_impl.h"

/* Longest line the LINE rule completes. */
#define BN_LINE_MAX 64

/* A rule inside one line, at positions of the line: a window (kind 0) or
 * two cells of one parity class, equal (1) or different (2). Each line's
 * rules are sorted by their last position. */
struct bn_lrule {
	uint16_t p[3];
	uint8_t kind;
};

struct qubo__pz_bn_ws {
	const struct bn *b;
	/* the LINE rule: per row and column, rules at [lstart[k], lstart[k+1])
	 * and per position j the first rule ending at j or later,
	 * lpos[lpos_start[k] + j] */
	size_t *lstart, *lpos_start, *lpos;
	struct bn_lrule *lr;
	int8_t lval[BN_LINE_MAX];
	uint8_t seen[BN_LINE_MAX]; /* bit v: a completion has value v there */
	uint32_t lfree, lboth;	   /* free positions; those seen with both */
	int8_t *val;	 /* the vector being propagated (the caller's) */
	int8_t *dec;	 /* n: a copy of the caller's decisions */
	int32_t *ones;	 /* per line: cells fixed to 1 */
	int32_t *zeros;	 /* per line: cells fixed to 0 */
	uint32_t *queue; /* n: fixed cells whose consequences are pending */
	size_t qhead, qtail;
	int quiet;
	size_t *counts;
};

/* Position of cell c in line k (rows and columns only). */
static uint32_t line_pos(const struct bn *b, size_t k, size_t c)
{
	return (uint32_t)(k < b->h ? c % b->w : c / b->w);
}

/* Whether the three cells lie in line k. */
static int in_line(const struct bn *b, size_t k, size_t c)
{
	return k < b->h ? c / b->w == k : c % b->w == k - b->h;
}

static int cmp_lrule(const void *x, const void *y)
{
	const struct bn_lrule *a = x, *b = y;
	unsigned ma = a->p[a->kind ? 1 : 2], mb = b->p[b->kind ? 1 : 2];

	return (ma > mb) - (ma < mb);
}

/* Collects (count = 1) or fills (0) line k's rules from r on; returns the
 * number. Windows of three cells of the line; for the signs, each cell and
 * the next cell of its class in the line. */
static size_t collect(const struct bn *b, size_t k, struct bn_lrule *r, int count)
{
	uint32_t len = bn_line_len(b, k), j;
	size_t m = 0, w;

	for (j = 0; j < len; j++) {
		size_t c = bn_line_cell(b, k, j), x;

		for (w = b->wstart[c]; w < b->wstart[c + 1]; w++) {
			const uint32_t *t = &b->win[3 * (size_t)b->wmemb[w]];
			uint32_t q0, q1, q2, lo;

			if (!in_line(b, k, t[0]) || !in_line(b, k, t[1]) || !in_line(b, k, t[2]))
				continue;
			q0 = line_pos(b, k, t[0]);
			q1 = line_pos(b, k, t[1]);
			q2 = line_pos(b, k, t[2]);
			lo = q0 < q1 ? (q0 < q2 ? q0 : q2) : (q1 < q2 ? q1 : q2);
			if (lo != j) /* each window once, from its first position */
				continue;
			if (!count) {
				uint32_t hi = q0 > q1 ? (q0 > q2 ? q0 : q2) : (q1 > q2 ? q1 : q2);

				r[m].p[0] = (uint16_t)lo;
				r[m].p[1] = (uint16_t)(q0 + q1 + q2 - lo - hi);
				r[m].p[2] = (uint16_t)hi;
				r[m].kind = 0;
			}
			m++;
		}
		/* the next cell of c's class in the line, after c */
		for (x = b->next[c]; x != c; x = b->next[x]) {
			if (!in_line(b, k, x) || line_pos(b, k, x) <= j)
				continue;
			if (!count) {
				r[m].p[0] = (uint16_t)j;
				r[m].p[1] = (uint16_t)line_pos(b, k, x);
				r[m].p[2] = 0;
				r[m].kind = (uint8_t)(1 + (b->flip[c] != b->flip[x]));
			}
			m++;
			break;
		}
	}
	return m;
}

/* The LINE rule's tables (lines longer than BN_LINE_MAX get none). */
static int line_rules(struct qubo__pz_bn_ws *ws, const qubo_allocator *a)
{
	const struct bn *b = ws->b;
	size_t nl = (size_t)b->h + b->w, k, total = 0, tpos = 0;

	ws->lstart = qubo__pz_alloc(a, nl + 1, sizeof *ws->lstart);
	ws->lpos_start = qubo__pz_alloc(a, nl + 1, sizeof *ws->lpos_start);
	if (!ws->lstart || !ws->lpos_start)
		return 1;
	for (k = 0; k < nl; k++) {
		ws->lstart[k] = total;
		ws->lpos_start[k] = tpos;
		if (bn_line_len(b, k) <= BN_LINE_MAX) {
			total += collect(b, k, NULL, 1);
			tpos += bn_line_len(b, k) + 1;
		}
	}
	ws->lstart[nl] = total;
	ws->lpos_start[nl] = tpos;
	ws->lr = qubo__pz_alloc(a, total, sizeof *ws->lr);
	ws->lpos = qubo__pz_alloc(a, tpos, sizeof *ws->lpos);
	if (!ws->lr || !ws->lpos)
		return 1;
	for (k = 0; k < nl; k++) {
		struct bn_lrule *r = ws->lr + ws->lstart[k];
		size_t m = ws->lstart[k + 1] - ws->lstart[k], i = 0;
		uint32_t j, len = bn_line_len(b, k);

		if (len > BN_LINE_MAX)
			continue;
		collect(b, k, r, 0);
		qsort(r, m, sizeof *r, cmp_lrule);
		for (j = 0; j <= len; j++) {
			while (i < m && r[i].p[r[i].kind ? 1 : 2] < j)
				i++;
			ws->lpos[ws->lpos_start[k] + j] = ws->lstart[k] + i;
		}
	}
	return 0;
}

int qubo__pz_bn_ws_new(const struct bn *b, const qubo_allocator *a, struct qubo__pz_bn_ws **out)
{
	struct qubo__pz_bn_ws *ws = qubo__pz_zalloc(a, 1, sizeof *ws);

	*out = NULL;
	if (!ws)
		return qubo__pz_nomem("the propagation's work space");
	ws->b = b;
	ws->dec = qubo__pz_alloc(a, b->n, 1);
	ws->ones = qubo__pz_alloc(a, bn_nlines(b), sizeof *ws->ones);
	ws->zeros = qubo__pz_alloc(a, bn_nlines(b), sizeof *ws->zeros);
	ws->queue = qubo__pz_alloc(a, b->n, sizeof *ws->queue);
	if (!ws->dec || !ws->ones || !ws->zeros || !ws->queue || line_rules(ws, a)) {
		qubo__pz_bn_ws_free(a, ws);
		return qubo__pz_nomem("the propagation's work space");
	}
	*out = ws;
	return QUBO_OK;
}

void qubo__pz_bn_ws_free(const qubo_allocator *a, struct qubo__pz_bn_ws *ws)
{
	if (!ws)
		return;
	qubo__pz_free(a, ws->dec);
	qubo__pz_free(a, ws->ones);
	qubo__pz_free(a, ws->zeros);
	qubo__pz_free(a, ws->queue);
	qubo__pz_free(a, ws->lstart);
	qubo__pz_free(a, ws->lpos_start);
	qubo__pz_free(a, ws->lpos);
	qubo__pz_free(a, ws->lr);
	qubo__pz_free(a, ws);
}

/* ---- contradictions ---- */

static int conflict(const struct qubo__pz_bn_ws *ws, size_t c)
{
	char cell[48];

	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	qubo__pz_bn_cell_name(ws->b, c, cell, sizeof cell);
	return qubo__pz_error(QUBO_ERR_INFEASIBLE,
			      "the puzzle has no solution: the reduction needs %s to be both 0 "
			      "and 1",
			      cell);
}

/* Line k holds more cells of value v than it may. */
static int line_full(const struct qubo__pz_bn_ws *ws, size_t k, int v)
{
	const struct bn *b = ws->b;
	uint32_t j, len = bn_line_len(b, k), shown = 0;
	int32_t have = v ? ws->ones[k] : ws->zeros[k];
	char name[32], list[160];
	size_t used = 0;

	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	qubo__pz_bn_line_name(b, k, name, sizeof name);
	list[0] = '\0';
	for (j = 0; j < len && used < sizeof list - 16; j++) {
		if (ws->val[bn_line_cell(b, k, j)] != v)
			continue;
		if (k < (size_t)b->h + b->w)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%u",
						 shown ? ", " : "", (unsigned)j + 1);
		else /* a region's cells as (row, column) */
			used += (size_t)snprintf(list + used, sizeof list - used, "%s(%zu, %zu)",
						 shown ? ", " : "", bn_line_cell(b, k, j) / b->w + 1,
						 bn_line_cell(b, k, j) % b->w + 1);
		shown++;
	}
	if (j < len)
		snprintf(list + used, sizeof list - used, ", ...");
	return qubo__pz_error(QUBO_ERR_INFEASIBLE,
			      "the puzzle has no solution: %s needs %d ones and %d zeros, but "
			      "%d of its cells must be %d (%s %s)",
			      name, (int)b->need[k], (int)len - (int)b->need[k], (int)have, v,
			      k < b->h ? "columns" : "rows", list);
}

static int window_equal(const struct qubo__pz_bn_ws *ws, size_t k, int v)
{
	char name[160];

	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	qubo__pz_bn_window_name(ws->b, k, name, sizeof name);
	return qubo__pz_error(QUBO_ERR_INFEASIBLE,
			      "the puzzle has no solution: %s must all be %d, and no three "
			      "equal cells may stand there",
			      name, v);
}

static int lines_equal_error(const struct qubo__pz_bn_ws *ws, size_t k1, size_t k2)
{
	const struct bn *b = ws->b;
	int rows = k1 < b->h;

	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	return qubo__pz_error(QUBO_ERR_INFEASIBLE,
			      "the puzzle has no solution: %s %zu and %zu must be equal, and "
			      "no two %s may be",
			      rows ? "rows" : "columns", (rows ? k1 : k1 - b->h) + 1,
			      (rows ? k2 : k2 - b->h) + 1, rows ? "rows" : "columns");
}

/* ---- fixing cells ---- */

static int fix(struct qubo__pz_bn_ws *ws, size_t c, int v, int rule)
{
	const struct bn *b = ws->b;
	size_t row = c / b->w, col = b->h + c % b->w;
	size_t reg = b->region[c] < 0 ? 0 : (size_t)b->h + b->w + (size_t)b->region[c];

	if (ws->val[c] == v)
		return QUBO_OK;
	if (ws->val[c] >= 0)
		return conflict(ws, c);
	ws->val[c] = (int8_t)v;
	if (v) {
		ws->ones[row]++;
		ws->ones[col]++;
		ws->ones[reg] += reg != 0;
	} else {
		ws->zeros[row]++;
		ws->zeros[col]++;
		ws->zeros[reg] += reg != 0;
	}
	ws->queue[ws->qtail++] = (uint32_t)c;
	if (ws->counts)
		ws->counts[rule]++;
	return QUBO_OK;
}

/* COUNT on line k. */
static int line_rule(struct qubo__pz_bn_ws *ws, size_t k)
{
	const struct bn *b = ws->b;
	int32_t need = b->need[k], len = (int32_t)bn_line_len(b, k);
	uint32_t j;
	int v, rc;

	if (need < 0)
		return QUBO_OK;
	if (ws->ones[k] > need)
		return line_full(ws, k, 1);
	if (ws->zeros[k] > len - need)
		return line_full(ws, k, 0);
	if (ws->ones[k] + ws->zeros[k] == len)
		return QUBO_OK;
	if (ws->ones[k] == need)
		v = 0;
	else if (ws->zeros[k] == len - need)
		v = 1;
	else
		return QUBO_OK;
	for (j = 0; j < (uint32_t)len; j++) {
		size_t c = bn_line_cell(b, k, j);

		if (ws->val[c] < 0 && (rc = fix(ws, c, v, BN_RULE_COUNT)) != QUBO_OK)
			return rc;
	}
	return QUBO_OK;
}

/* WINDOW on the windows of the fixed cell c. */
static int window_rule(struct qubo__pz_bn_ws *ws, size_t c)
{
	const struct bn *b = ws->b;
	int v = ws->val[c];
	size_t k;

	for (k = b->wstart[c]; k < b->wstart[c + 1]; k++) {
		const uint32_t *t = &b->win[3 * (size_t)b->wmemb[k]];
		uint32_t o1 = t[0] == c ? t[1] : t[0];
		uint32_t o2 = t[2] == c ? t[1] : t[2];
		int rc = QUBO_OK;

		if (ws->val[o1] == v && ws->val[o2] == v)
			return window_equal(ws, b->wmemb[k], v);
		if (ws->val[o1] == v)
			rc = fix(ws, o2, !v, BN_RULE_WINDOW);
		else if (ws->val[o2] == v)
			rc = fix(ws, o1, !v, BN_RULE_WINDOW);
		if (rc)
			return rc;
	}
	return QUBO_OK;
}

/* Runs the queue empty: each fixed cell's class, lines and windows. */
static int drain(struct qubo__pz_bn_ws *ws)
{
	const struct bn *b = ws->b;
	int rc;

	while (ws->qhead < ws->qtail) {
		size_t c = ws->queue[ws->qhead++], m;
		int v = ws->val[c];

		for (m = b->next[c]; m != c; m = b->next[m])
			if ((rc = fix(ws, m, v ^ b->flip[c] ^ b->flip[m], BN_RULE_PARITY)) != QUBO_OK)
				return rc;
		if ((rc = line_rule(ws, c / b->w)) != QUBO_OK ||
		    (rc = line_rule(ws, b->h + c % b->w)) != QUBO_OK ||
		    (b->region[c] >= 0 &&
		     (rc = line_rule(ws, (size_t)b->h + b->w + (size_t)b->region[c])) != QUBO_OK) ||
		    (rc = window_rule(ws, c)) != QUBO_OK)
			return rc;
	}
	return QUBO_OK;
}

/* Completions of line k from position j on, with `ones` ones so far;
 * returns 1 to stop (every free position seen with both values). */
static int complete_from(struct qubo__pz_bn_ws *ws, size_t k, uint32_t j, int32_t ones,
			 int32_t left)
{
	const struct bn *b = ws->b;
	uint32_t len = bn_line_len(b, k);
	int32_t need = b->need[k];
	int v;

	if (need >= 0 && (ones > need || ones + left < need))
		return 0;
	if (j == len) {
		uint32_t i;

		for (i = 0; i < len; i++) {
			uint8_t bit = (uint8_t)(1u << ws->lval[i]);

			if (ws->seen[i] != 3 && (ws->seen[i] |= bit) == 3 &&
			    ws->val[bn_line_cell(b, k, i)] < 0)
				ws->lboth++;
		}
		return ws->lboth == ws->lfree;
	}
	for (v = 0; v <= 1; v++) {
		int8_t fixed = ws->val[bn_line_cell(b, k, j)];
		size_t r, end = ws->lpos[ws->lpos_start[k] + j + 1];
		int ok = 1;

		if (fixed >= 0 && fixed != v)
			continue;
		ws->lval[j] = (int8_t)v;
		for (r = ws->lpos[ws->lpos_start[k] + j]; r < end && ok; r++) {
			const struct bn_lrule *q = &ws->lr[r];

			if (q->kind == 0)
				ok = !(ws->lval[q->p[0]] == v && ws->lval[q->p[1]] == v);
			else
				ok = (ws->lval[q->p[0]] != v) == (q->kind == 2);
		}
		if (ok && complete_from(ws, k, j + 1, ones + v, left - 1))
			return 1;
	}
	return 0;
}

/* LINE on line k (not complete). *changed is set when a cell was fixed. */
static int line_complete_rule(struct qubo__pz_bn_ws *ws, size_t k, int *changed)
{
	const struct bn *b = ws->b;
	uint32_t len = bn_line_len(b, k), j;
	int rc;

	ws->lfree = 0;
	ws->lboth = 0;
	for (j = 0; j < len; j++) {
		ws->seen[j] = 0;
		ws->lfree += ws->val[bn_line_cell(b, k, j)] < 0;
	}
	if (complete_from(ws, k, 0, 0, (int32_t)len))
		return QUBO_OK;
	for (j = 0; j < len; j++) {
		size_t c = bn_line_cell(b, k, j);

		if (ws->seen[j] == 0) {
			char name[32];

			if (ws->quiet)
				return QUBO_ERR_INFEASIBLE;
			qubo__pz_bn_line_name(b, k, name, sizeof name);
			if (b->need[k] < 0)
				return qubo__pz_error(QUBO_ERR_INFEASIBLE,
						      "the puzzle has no solution: %s cannot be "
						      "completed (its windows and the signs between "
						      "its cells exclude every filling)",
						      name);
			return qubo__pz_error(QUBO_ERR_INFEASIBLE,
					      "the puzzle has no solution: %s needs %d ones, and no "
					      "filling of it with %d ones keeps its windows and the "
					      "signs between its cells",
					      name, (int)b->need[k], (int)b->need[k]);
		}
		if (ws->val[c] < 0 && ws->seen[j] != 3) {
			if ((rc = fix(ws, c, ws->seen[j] == 2, BN_RULE_LINE)))
				return rc;
			*changed = 1;
		}
	}
	return QUBO_OK;
}

/* LINE on every row and column that is neither complete nor too long. */
static int line_complete_all(struct qubo__pz_bn_ws *ws, int *changed)
{
	const struct bn *b = ws->b;
	size_t k;
	int rc;

	for (k = 0; k < (size_t)b->h + b->w; k++) {
		if (bn_line_len(b, k) > BN_LINE_MAX ||
		    ws->ones[k] + ws->zeros[k] == (int32_t)bn_line_len(b, k))
			continue;
		if ((rc = line_complete_rule(ws, k, changed)))
			return rc;
		if (*changed && (rc = drain(ws)))
			return rc;
	}
	return QUBO_OK;
}

static int complete(const struct qubo__pz_bn_ws *ws, size_t k)
{
	return ws->ones[k] + ws->zeros[k] == (int32_t)bn_line_len(ws->b, k);
}

/* Nonzero when every fixed cell of line k has the value of complete line
 * k2 (same length). */
static int agrees(const struct qubo__pz_bn_ws *ws, size_t k, size_t k2)
{
	const struct bn *b = ws->b;
	uint32_t j, len = bn_line_len(b, k);

	for (j = 0; j < len; j++) {
		int v = ws->val[bn_line_cell(b, k, j)];

		if (v >= 0 && v != ws->val[bn_line_cell(b, k2, j)])
			return 0;
	}
	return 1;
}

/* DISTINCT over the lines first … first + count − 1 (all rows or all
 * columns). *changed is set when a cell was fixed. */
static int distinct_rule(struct qubo__pz_bn_ws *ws, size_t first, size_t count, int *changed)
{
	const struct bn *b = ws->b;
	size_t k, k2;
	int rc;

	for (k = first; k < first + count; k++) {
		uint32_t len = bn_line_len(b, k), j, f[2], nf = 0;

		if (complete(ws, k)) {
			for (k2 = k + 1; k2 < first + count; k2++)
				if (complete(ws, k2) && agrees(ws, k, k2))
					return lines_equal_error(ws, k, k2);
			continue;
		}
		if (b->need[k] < 0 || b->need[k] - ws->ones[k] != 1 ||
		    (int32_t)len - ws->ones[k] - ws->zeros[k] != 2)
			continue;
		for (j = 0; j < len; j++)
			if (ws->val[bn_line_cell(b, k, j)] < 0)
				f[nf++] = j;
		for (k2 = first; k2 < first + count; k2++) {
			int u0, u1;

			if (k2 == k || !complete(ws, k2) || !agrees(ws, k, k2))
				continue;
			u0 = ws->val[bn_line_cell(b, k2, f[0])];
			u1 = ws->val[bn_line_cell(b, k2, f[1])];
			if (u0 == u1)
				continue; /* one 1 between them can never copy k2 */
			/* the one way of putting one 1 there that differs from k2 */
			if ((rc = fix(ws, bn_line_cell(b, k, f[0]), !u0, BN_RULE_DISTINCT)) ||
			    (rc = fix(ws, bn_line_cell(b, k, f[1]), !u1, BN_RULE_DISTINCT)))
				return rc;
			*changed = 1;
			break;
		}
	}
	return QUBO_OK;
}

int qubo__pz_bn_propagate(struct qubo__pz_bn_ws *ws, int8_t *val, int quiet,
			  size_t counts[BN_NUM_RULES])
{
	const struct bn *b = ws->b;
	size_t i;
	int rc = QUBO_OK, changed;

	memcpy(ws->dec, val, b->n);
	memset(val, 0xff, b->n);
	memset(ws->ones, 0, bn_nlines(b) * sizeof *ws->ones);
	memset(ws->zeros, 0, bn_nlines(b) * sizeof *ws->zeros);
	ws->val = val;
	ws->qhead = ws->qtail = 0;
	ws->quiet = quiet;
	ws->counts = counts;
	for (i = 0; i < b->n && !rc; i++)
		if (b->clue[i] >= 0)
			rc = fix(ws, i, b->clue[i], BN_RULE_GIVEN);
	for (i = 0; i < b->n && !rc; i++)
		if (ws->dec[i] >= 0)
			rc = fix(ws, i, ws->dec[i] != 0, BN_RULE_GIVEN);
	do {
		changed = 0;
		if (!rc)
			rc = drain(ws);
		if (!rc)
			rc = line_complete_all(ws, &changed);
		if (!rc && b->distinct)
			rc = distinct_rule(ws, 0, b->h, &changed);
		if (!rc && b->distinct)
			rc = distinct_rule(ws, b->h, b->w, &changed);
	} while (!rc && changed);
	ws->counts = NULL;
	return rc;
}

size_t qubo__pz_bn_branch(const struct qubo__pz_bn_ws *ws, const int8_t *val)
{
	const struct bn *b = ws->b;
	size_t k, best = bn_nlines(b), i;
	int32_t best_free = INT32_MAX;
	uint32_t j;

	for (k = 0; k < bn_nlines(b); k++) {
		int32_t f = (int32_t)bn_line_len(b, k) - ws->ones[k] - ws->zeros[k];

		if (f > 0 && f < best_free) {
			best_free = f;
			best = k;
		}
	}
	if (best < bn_nlines(b))
		for (j = 0; j < bn_line_len(b, best); j++)
			if (val[bn_line_cell(b, best, j)] < 0)
				return bn_line_cell(b, best, j);
	for (i = 0; i < b->n && val[i] >= 0; i++)
		;
	return i;
}
