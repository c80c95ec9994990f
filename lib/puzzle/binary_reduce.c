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
 *             that cell; no completion: no solution. The completions are
 *             never listed (a wide open line of 64 cells has billions): a
 *             dynamic program over the line's positions decides for each
 *             cell and value whether some completion has it, in time
 *             linear in the line's length. A sign between cells so far
 *             apart that the program would have to remember more than
 *             BN_FRONT_MAX earlier cells at once is left out of the line;
 *             the rule then completes a relaxation of the line, fixing
 *             fewer cells, still soundly;
 *   DISTINCT  (rows and columns pairwise distinct) two complete lines of
 *             one direction that are equal: no solution; a line with two
 *             free cells that need one 1 between them, whose fixed cells
 *             agree with a complete line, takes the values that make it
 *             differ from that line.
 *
 * The work space is made once; a propagation allocates nothing, so that a
 * search's nodes are cheap. A build's propagation polls the build's time
 * limit and progress between lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary_impl.h"

/* Longest line the LINE rule completes. */
#define BN_LINE_MAX 64
/* Most earlier positions of a line that the LINE rule's state remembers
 * (its frontier): 2^BN_FRONT_MAX states per position at most. */
#define BN_FRONT_MAX 8

/* A rule inside one line, at positions of the line: a window (kind 0) or
 * two cells of one parity class, equal (1) or different (2). */
struct bn_lrule {
	uint16_t p[3];
	uint8_t kind;
};

/* A rule as the LINE rule checks it at its last position j: a and b are
 * bits of the state at j, which holds the frontier's values and then j's
 * (a window: the other two cells; a sign: the other cell). */
struct bn_check {
	uint8_t kind, a, b;
};

/* One position j of a line: the frontier before it (the earlier positions
 * that a rule ending at j or later still needs) has `width` cells; the
 * checks of the rules ending at j are check[check0 …], those of j + 1
 * start where they end; the frontier after j is gather[gather0 …]: for
 * each of its width(j + 1) cells, its bit in the state at j. */
struct bn_step {
	uint32_t check0, gather0;
	uint8_t width;
};

struct qubo__pz_bn_ws {
	const struct bn *b;
	struct qubo__pz_ctl *ctl; /* the build's time limit and progress, or NULL */
	/* the LINE rule: per row and column k (of at most BN_LINE_MAX cells),
	 * len + 1 steps from step[sstart[k]] */
	size_t *sstart;
	struct bn_step *step;
	struct bn_check *check;
	uint8_t *gather;
	uint64_t *fwd;		   /* per position and state, the counts a prefix reaches */
	uint16_t *to;		   /* per position, state and value, the state after
			   * (NO_STATE: a rule breaks, or the cell has the other) */
	uint64_t *bwd[2];	   /* 2^BN_FRONT_MAX: the counts a suffix completes */
	uint8_t seen[BN_LINE_MAX]; /* bit v: a completion has value v there */
	int8_t *val;	 /* the vector being propagated (the caller's) */
	int8_t *dec;	 /* n: a copy of the caller's decisions */
	int32_t *ones;	 /* per line: cells fixed to 1 */
	int32_t *zeros;	 /* per line: cells fixed to 0 */
	int32_t *lined;	 /* per row and column: its fixed cells when LINE last ran
			  * on it in this propagation (-1: never) */
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

static unsigned last_pos(const struct bn_lrule *r)
{
	return r->p[r->kind ? 1 : 2];
}

/* Shorter rules first (they are kept first), then by their last position. */
static int cmp_lrule(const void *x, const void *y)
{
	const struct bn_lrule *a = x, *b = y;
	unsigned sa = last_pos(a) - a->p[0], sb = last_pos(b) - b->p[0];

	if (sa != sb)
		return (sa > sb) - (sa < sb);
	return (last_pos(a) > last_pos(b)) - (last_pos(a) < last_pos(b));
}

/* Collects (r NULL) or fills line k's rules; returns the number. Windows
 * of three cells of the line; for the signs, each cell and the next cell
 * of its class in the line. */
static size_t collect(const struct bn *b, size_t k, struct bn_lrule *r)
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
			if (r) {
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
			if (r) {
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

/* Keeps rule r when the frontiers stay within BN_FRONT_MAX cells: last[p]
 * is the last position of the kept rules that need p (p: none), width[j]
 * the frontier before j. Nonzero when kept. */
static int keep_rule(const struct bn_lrule *r, uint8_t *last, uint8_t *width)
{
	unsigned e = last_pos(r), i, j, n = r->kind ? 1 : 2;

	for (j = r->p[0] + 1u; j <= e; j++) {
		unsigned add = 0;

		for (i = 0; i < n; i++)
			add += r->p[i] < j && last[r->p[i]] < j;
		if (width[j] + add > BN_FRONT_MAX)
			return 0;
	}
	for (i = 0; i < n; i++) {
		for (j = last[r->p[i]] + 1u; j <= e; j++)
			width[j]++;
		if (last[r->p[i]] < e)
			last[r->p[i]] = (uint8_t)e;
	}
	return 1;
}

/* The steps of a line of len cells (len + 1 of them) from its rules r
 * (m of them, in keeping order), their checks from check[*nchecks] and
 * their gather entries from gather[*ngather] on (both counts advance). A
 * rule that would make a frontier wider than BN_FRONT_MAX is left out: the
 * LINE rule then completes a relaxation of the line, still sound, fixing
 * fewer cells. */
static void plan_line(uint32_t len, struct bn_lrule *r, size_t m, struct bn_step *steps,
		      struct bn_check *check, uint8_t *gather, size_t *nchecks, size_t *ngather)
{
	uint8_t last[BN_LINE_MAX], width[BN_LINE_MAX + 1], at[BN_LINE_MAX];
	uint32_t ends[BN_LINE_MAX + 1], j, p;
	size_t i, kept = 0;

	for (j = 0; j < len; j++)
		last[j] = (uint8_t)j;
	memset(width, 0, sizeof width);
	memset(ends, 0, sizeof ends);
	for (i = 0; i < m; i++)
		if (keep_rule(&r[i], last, width)) {
			r[kept++] = r[i];
			ends[last_pos(&r[i]) + 1]++;
		}
	/* the kept rules' checks grouped by their last position, with
	 * positions of the line for now */
	for (j = 0; j < len; j++)
		ends[j + 1] += ends[j];
	for (i = 0; i < kept; i++) {
		struct bn_check *q = &check[*nchecks + ends[last_pos(&r[i])]++];

		q->kind = r[i].kind;
		q->a = (uint8_t)r[i].p[0];
		q->b = (uint8_t)r[i].p[1];
	}
	for (j = len; j > 0; j--) /* back to the starts */
		ends[j] = ends[j - 1];
	ends[0] = 0;
	for (j = 0; j <= len; j++) {
		uint8_t w = 0;
		size_t c;

		steps[j].check0 = (uint32_t)(*nchecks + ends[j]);
		steps[j].gather0 = (uint32_t)*ngather;
		steps[j].width = width[j];
		if (j == len)
			break;
		/* the frontier before j, in order of position */
		for (p = 0; p < j; p++)
			if (last[p] >= j)
				at[p] = w++;
		for (c = *nchecks + ends[j]; c < *nchecks + ends[j + 1]; c++) {
			check[c].a = at[check[c].a];
			check[c].b = check[c].kind ? 0 : at[check[c].b];
		}
		/* the frontier after j: its cells' bits in the state at j */
		for (p = 0; p <= j; p++)
			if (last[p] > j)
				gather[(*ngather)++] = p == j ? w : at[p];
	}
	*nchecks += kept;
}

/* The LINE rule's tables (lines longer than BN_LINE_MAX get none):
 * QUBO_OK, QUBO_ERR_NOMEM, or the ctl's stop. */
static int line_rules(struct qubo__pz_bn_ws *ws, const qubo_allocator *a)
{
	const struct bn *b = ws->b;
	size_t nl = (size_t)b->h + b->w, k, nsteps = 0, maxr = 0, total = 0, maxfwd = 0;
	size_t nc = 0, ng = 0;
	uint64_t pending = 0;
	struct bn_lrule *r;
	uint8_t *g;
	int rc = QUBO_OK;

	ws->sstart = qubo__malloc_array(a, nl + 1, sizeof *ws->sstart);
	if (!ws->sstart)
		return qubo__nomem("the propagation's work space");
	for (k = 0; k < nl; k++) {
		ws->sstart[k] = nsteps;
		if (bn_line_len(b, k) <= BN_LINE_MAX) {
			size_t m = collect(b, k, NULL);

			nsteps += bn_line_len(b, k) + 1;
			total += m;
			maxr = m > maxr ? m : maxr;
		}
	}
	ws->sstart[nl] = nsteps;
	r = qubo__malloc_array(a, maxr, sizeof *r);
	ws->step = qubo__malloc_array(a, nsteps, sizeof *ws->step);
	ws->check = qubo__malloc_array(a, total, sizeof *ws->check);
	/* at most BN_FRONT_MAX a step; made to fit below */
	ws->gather = qubo__malloc_array(a, nsteps, BN_FRONT_MAX);
	if (!r || !ws->step || !ws->check || !ws->gather) {
		qubo__free(a, r);
		return qubo__nomem("the propagation's work space");
	}
	for (k = 0; k < nl && !rc; k++) {
		uint32_t len = bn_line_len(b, k), j;
		size_t m, f = 0;

		if (len > BN_LINE_MAX || (rc = qubo__pz_build_tick(ws->ctl, &pending, 8 * len)))
			continue;
		m = collect(b, k, r);
		qsort(r, m, sizeof *r, cmp_lrule);
		plan_line(len, r, m, ws->step + ws->sstart[k], ws->check, ws->gather, &nc, &ng);
		for (j = 0; j <= len; j++)
			f += (size_t)1 << ws->step[ws->sstart[k] + j].width;
		maxfwd = f > maxfwd ? f : maxfwd;
	}
	qubo__free(a, r);
	if (rc)
		return rc;
	if (ng && (g = qubo__realloc_array(a, ws->gather, ng, 1)) != NULL)
		ws->gather = g;
	ws->fwd = qubo__malloc_array(a, maxfwd, sizeof *ws->fwd);
	ws->to = qubo__malloc_array(a, 2 * maxfwd, sizeof *ws->to);
	ws->bwd[0] = qubo__malloc_array(a, (size_t)1 << BN_FRONT_MAX, sizeof *ws->bwd[0]);
	ws->bwd[1] = qubo__malloc_array(a, (size_t)1 << BN_FRONT_MAX, sizeof *ws->bwd[1]);
	if (!ws->fwd || !ws->to || !ws->bwd[0] || !ws->bwd[1])
		return qubo__nomem("the propagation's work space");
	return QUBO_OK;
}

int qubo__pz_bn_ws_new(const struct bn *b, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       struct qubo__pz_bn_ws **out)
{
	struct qubo__pz_bn_ws *ws = qubo__calloc_array(a, 1, sizeof *ws);
	int rc;

	*out = NULL;
	if (!ws)
		return qubo__nomem("the propagation's work space");
	ws->b = b;
	ws->ctl = ctl;
	ws->dec = qubo__malloc_array(a, b->n, 1);
	ws->ones = qubo__malloc_array(a, bn_nlines(b), sizeof *ws->ones);
	ws->zeros = qubo__malloc_array(a, bn_nlines(b), sizeof *ws->zeros);
	ws->queue = qubo__malloc_array(a, b->n, sizeof *ws->queue);
	ws->lined = qubo__malloc_array(a, (size_t)b->h + b->w, sizeof *ws->lined);
	rc = !ws->dec || !ws->ones || !ws->zeros || !ws->queue || !ws->lined ?
		     qubo__nomem("the propagation's work space") :
		     line_rules(ws, a);
	if (rc) {
		qubo__pz_bn_ws_free(a, ws);
		return rc;
	}
	*out = ws;
	return QUBO_OK;
}

void qubo__pz_bn_ws_free(const qubo_allocator *a, struct qubo__pz_bn_ws *ws)
{
	if (!ws)
		return;
	qubo__free(a, ws->dec);
	qubo__free(a, ws->ones);
	qubo__free(a, ws->zeros);
	qubo__free(a, ws->queue);
	qubo__free(a, ws->lined);
	qubo__free(a, ws->sstart);
	qubo__free(a, ws->step);
	qubo__free(a, ws->check);
	qubo__free(a, ws->gather);
	qubo__free(a, ws->fwd);
	qubo__free(a, ws->to);
	qubo__free(a, ws->bwd[0]);
	qubo__free(a, ws->bwd[1]);
	qubo__free(a, ws);
}

/* ---- contradictions ---- */

static int conflict(const struct qubo__pz_bn_ws *ws, size_t c)
{
	char cell[48];

	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	qubo__pz_bn_cell_name(ws->b, c, cell, sizeof cell);
	return qubo__error(QUBO_ERR_INFEASIBLE,
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
	return qubo__error(QUBO_ERR_INFEASIBLE,
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
	return qubo__error(QUBO_ERR_INFEASIBLE,
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
	return qubo__error(QUBO_ERR_INFEASIBLE,
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

/* The LINE rule's counts: at position j of a line of len cells needing
 * need ones (-1: none), a prefix's ones lie in [lo(j), hi(j)], a range of
 * at most len / 2 + 1 ≤ 33 values; bit i of a count set is lo(j) + i. */
static int32_t count_lo(int32_t need, uint32_t len, uint32_t j)
{
	return need > (int32_t)(len - j) ? need - (int32_t)(len - j) : 0;
}

static uint64_t count_mask(int32_t need, uint32_t len, uint32_t j)
{
	int32_t hi = need < 0 ? 0 : need < (int32_t)j ? need : (int32_t)j;

	return need < 0 ? 1 : (2ull << (hi - count_lo(need, len, j))) - 1;
}

#define NO_STATE 0xffffu

/* The state after value v at a step with state m (the frontier's values):
 * NO_STATE when a rule ending there breaks, else the next frontier's. */
static uint16_t next_state(const struct qubo__pz_bn_ws *ws, const struct bn_step *st, uint32_t m,
			   int v)
{
	uint32_t e = m | (uint32_t)v << st->width, i, nm = 0;
	uint32_t c, ce = st[1].check0, ge = st[1].gather0;

	for (c = st->check0; c < ce; c++) {
		const struct bn_check *q = &ws->check[c];
		int x = (int)(e >> q->a & 1);

		if (q->kind == 0 ? x == v && (int)(e >> q->b & 1) == v : (x != v) != (q->kind == 2))
			return NO_STATE;
	}
	for (i = 0; st->gather0 + i < ge; i++)
		nm |= (e >> ws->gather[st->gather0 + i] & 1) << i;
	return (uint16_t)nm;
}

/* LINE on line k (not complete), by dynamic programming over its
 * positions: the state before position j is the values of the frontier
 * (at most BN_FRONT_MAX cells) and the set of counts of ones the prefix can
 * have with them. A forward pass finds what each prefix reaches, a
 * backward pass what each suffix completes; value v at j is in some
 * completion when a state before j reaches, through v, a state after j
 * that completes. Time O(len 2^width), whatever the number of completions.
 * *changed is set when a cell was fixed. */
static int line_complete_rule(struct qubo__pz_bn_ws *ws, size_t k, int *changed)
{
	const struct bn *b = ws->b;
	const struct bn_step *st = ws->step + ws->sstart[k];
	uint32_t len = bn_line_len(b, k), j, m;
	int32_t need = b->need[k];
	uint64_t *fwd = ws->fwd, *cur = ws->bwd[0], *prev = ws->bwd[1];
	uint16_t *to = ws->to;
	size_t off = 0;
	int v, rc;

	/* forward: fwd holds the states of every position, one after the
	 * other, and `to` their moves */
	fwd[0] = 1;
	for (j = 0; j < len; j++) {
		size_t noff = off + ((size_t)1 << st[j].width);
		uint64_t mask = count_mask(need, len, j + 1);
		unsigned d = (unsigned)(count_lo(need, len, j + 1) - count_lo(need, len, j));
		int8_t fixed = ws->val[bn_line_cell(b, k, j)];

		memset(fwd + noff, 0, ((size_t)1 << st[j + 1].width) * sizeof *fwd);
		for (m = 0; m < (1u << st[j].width); m++) {
			if (!fwd[off + m])
				continue;
			for (v = 0; v <= 1; v++) {
				uint16_t nm = fixed >= 0 && fixed != v ?
						      NO_STATE :
						      next_state(ws, &st[j], m, v);

				to[2 * (off + m) + (size_t)v] = nm;
				if (nm != NO_STATE)
					fwd[noff + nm] |=
						(fwd[off + m] << (need >= 0 && v)) >> d & mask;
			}
		}
		off = noff;
	}
	/* backward, from the one state after the last position (no frontier,
	 * the count need at bit 0) */
	cur[0] = fwd[off] & 1;
	for (j = len; j-- > 0;) {
		uint64_t mask = count_mask(need, len, j + 1), pmask = count_mask(need, len, j);
		unsigned d = (unsigned)(count_lo(need, len, j + 1) - count_lo(need, len, j));
		uint64_t *t;

		off -= (size_t)1 << st[j].width;
		ws->seen[j] = 0;
		for (m = 0; m < (1u << st[j].width); m++) {
			prev[m] = 0;
			if (!fwd[off + m])
				continue;
			for (v = 0; v <= 1; v++) {
				unsigned inc = need >= 0 && v;
				uint16_t nm = to[2 * (off + m) + (size_t)v];

				if (nm == NO_STATE || !cur[nm])
					continue;
				if (((fwd[off + m] << inc) >> d & mask & cur[nm]) != 0)
					ws->seen[j] |= (uint8_t)(1u << v);
				prev[m] |= (cur[nm] << d) >> inc & pmask;
			}
		}
		t = cur;
		cur = prev;
		prev = t;
	}
	for (j = 0; j < len; j++) {
		size_t c = bn_line_cell(b, k, j);

		if (ws->seen[j] == 0) {
			char name[32];

			if (ws->quiet)
				return QUBO_ERR_INFEASIBLE;
			qubo__pz_bn_line_name(b, k, name, sizeof name);
			if (need < 0)
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: %s cannot be "
						   "completed (its windows and the signs between "
						   "its cells exclude every filling)",
						   name);
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: %s needs %d ones, and no "
					   "filling of it with %d ones keeps its windows and the "
					   "signs between its cells",
					   name, (int)need, (int)need);
		}
		if (ws->val[c] < 0 && ws->seen[j] != 3) {
			if ((rc = fix(ws, c, ws->seen[j] == 2, BN_RULE_LINE)))
				return rc;
			*changed = 1;
		}
	}
	return QUBO_OK;
}

/* The build's time limit and progress, polled between lines and rounds
 * (work: the cells looked at since the last poll). */
static int poll_ctl(const struct qubo__pz_bn_ws *ws, uint64_t work)
{
	return qubo__pz_build_poll(ws->ctl, work);
}

/* LINE on every row and column that is neither complete nor too long. */
static int line_complete_all(struct qubo__pz_bn_ws *ws, int *changed)
{
	const struct bn *b = ws->b;
	size_t k;
	int rc;

	for (k = 0; k < (size_t)b->h + b->w; k++) {
		int32_t fixed = ws->ones[k] + ws->zeros[k];

		/* a line whose cells are as they were when LINE last ran on it
		 * has nothing new to give */
		if (bn_line_len(b, k) > BN_LINE_MAX || fixed == (int32_t)bn_line_len(b, k) ||
		    fixed == ws->lined[k])
			continue;
		ws->lined[k] = fixed;
		if ((rc = poll_ctl(ws, bn_line_len(b, k))) ||
		    (rc = line_complete_rule(ws, k, changed)))
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

		if ((rc = poll_ctl(ws, (uint64_t)count * len)))
			return rc;
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
	memset(ws->lined, 0xff, ((size_t)b->h + b->w) * sizeof *ws->lined);
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
