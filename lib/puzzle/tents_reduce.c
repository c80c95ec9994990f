/*
 * Reduction of Tents & Trees: cells whose value is the same in every
 * solution are fixed, and assignments (tree t takes the tent on its
 * candidate c) that no solution uses are ruled out. Every rule only fixes a
 * cell to the value it has in every solution that agrees with the cells
 * already fixed, or finds that there is none, so the reduction keeps
 * exactly the solution set (doc/formulations.md gives the one-line
 * argument for each rule).
 *
 * Level CLUES: cells next to no tree, and the cells of lines that need no
 * tent, are 0.
 *
 * Level FULL, to a fixpoint:
 *   TOUCH   the eight neighbours of a tent are 0 (two touching tents: no
 *           solution).
 *   COUNT   in a line needing k more tents whose free cells form runs of
 *           lengths L_i (free cells between cells that cannot hold one),
 *           at most Σ ⌈L_i/2⌉ fit: fewer than k means no solution, k = 0
 *           makes every free cell 0, and k = Σ ⌈L_i/2⌉ fills every run to
 *           the brim: an odd run alternates 1 0 1 … 1, and next to an even
 *           run every cell of the two neighbouring lines alongside it is 0
 *           (each of them touches a tent of every such filling).
 *   TREE    the assignment masks: tree t may take candidate c while c is not
 *           0 and no other tree owns c. A tree with one possible candidate
 *           owns it (the cell is 1); a tent with one possible tree belongs
 *           to it (the tree's other candidates are ruled out for it); a tree
 *           or a tent with none means no solution; a free cell no tree may
 *           take is 0.
 *   COMMON  a cell that touches every possible candidate of some tree (and
 *           is not one of them) is 0: that tree's tent would touch it.
 *   MATCH   a matching between the trees and the cells they may take must
 *           exist that covers every tree and every tent (augmenting paths,
 *           first from the tents, then from the trees); otherwise no
 *           solution.
 * When every cell is decided, these rules have checked every rule of the
 * puzzle, so the board is a solution.
 */
#include <stdio.h>
#include <string.h>

#include "tents_impl.h"

#define NONE UINT32_MAX
#define MATCH_POLL 64 /* augmenting path searches between two looks at the clock */

struct qubo__pz_tt_ws {
	const struct tt *t;
	struct qubo__pz_ctl *ctl; /* the build's time limit and progress, or NULL */
	int8_t *val;
	uint8_t *ymask;	      /* ntrees: possible candidates */
	uint32_t *mate_tree;  /* ntrees: the cell matched to each tree, or NONE */
	uint32_t *mate_cell;  /* n: the tree matched to each cell, or NONE */
	uint32_t *seen_tree;  /* ntrees: DFS stamps */
	uint32_t *seen_cell;  /* n */
	uint32_t stamp;
	uint32_t *stk_v;      /* DFS stack: vertices, */
	uint32_t *stk_u;      /* the neighbour taken at each level, */
	uint8_t *stk_i;	      /* and the next neighbour to try */
	size_t *counts;
	int quiet;
	int changed;  /* a cell was fixed */
	int ychanged; /* a mask lost a bit */
};

const int qubo__pz_tt_dr[4] = { -1, 0, 0, 1 };
const int qubo__pz_tt_dc[4] = { 0, -1, 1, 0 };

void qubo__pz_tt_where(const struct tt *t, size_t cell, char *buf, size_t cap)
{
	snprintf(buf, cap, "row %zu, column %zu", cell / t->w + 1, cell % t->w + 1);
}

const char *qubo__pz_tt_s(int64_t n)
{
	return n == 1 ? "" : "s";
}

int qubo__pz_tt_popcount(unsigned m)
{
	return (int)(m & 1) + (int)(m >> 1 & 1) + (int)(m >> 2 & 1) + (int)(m >> 3 & 1);
}

/* ---- work space ---- */

void qubo__pz_tt_ws_free(const qubo_allocator *a, struct qubo__pz_tt_ws *ws)
{
	if (!ws)
		return;
	qubo__free(a, ws->ymask);
	qubo__free(a, ws->mate_tree);
	qubo__free(a, ws->mate_cell);
	qubo__free(a, ws->seen_tree);
	qubo__free(a, ws->seen_cell);
	qubo__free(a, ws->stk_v);
	qubo__free(a, ws->stk_u);
	qubo__free(a, ws->stk_i);
	qubo__free(a, ws);
}

int qubo__pz_tt_ws_new(const struct tt *t, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       struct qubo__pz_tt_ws **out)
{
	struct qubo__pz_tt_ws *ws = qubo__calloc_array(a, 1, sizeof *ws);
	size_t depth = t->ntrees + 1;

	*out = NULL;
	if (!ws)
		return qubo__nomem("the reduction's work space");
	ws->t = t;
	ws->ctl = ctl;
	ws->ymask = qubo__calloc_array(a, t->ntrees, 1);
	ws->mate_tree = qubo__malloc_array(a, t->ntrees, sizeof *ws->mate_tree);
	ws->mate_cell = qubo__malloc_array(a, t->n, sizeof *ws->mate_cell);
	ws->seen_tree = qubo__calloc_array(a, t->ntrees, sizeof *ws->seen_tree);
	ws->seen_cell = qubo__calloc_array(a, t->n, sizeof *ws->seen_cell);
	ws->stk_v = qubo__malloc_array(a, depth, sizeof *ws->stk_v);
	ws->stk_u = qubo__malloc_array(a, depth, sizeof *ws->stk_u);
	ws->stk_i = qubo__malloc_array(a, depth, 1);
	if (!ws->ymask || !ws->mate_tree || !ws->mate_cell || !ws->seen_tree || !ws->seen_cell ||
	    !ws->stk_v || !ws->stk_u || !ws->stk_i) {
		qubo__pz_tt_ws_free(a, ws);
		return qubo__nomem("the reduction's work space");
	}
	*out = ws;
	return QUBO_OK;
}

/* ---- fixing cells ---- */

/* QUBO_ERR_INFEASIBLE, with "the puzzle has no solution: WHAT at row R,
 * column C WHY" unless quiet. */
static int infeasible(const struct qubo__pz_tt_ws *ws, const char *what, size_t cell,
		      const char *why)
{
	char where[64];

	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	qubo__pz_tt_where(ws->t, cell, where, sizeof where);
	return qubo__error(QUBO_ERR_INFEASIBLE, "the puzzle has no solution: %s at %s %s", what,
			   where, why);
}

static int fix(struct qubo__pz_tt_ws *ws, size_t c, int v, int rule)
{
	if (ws->val[c] == v)
		return QUBO_OK;
	if (ws->val[c] >= 0)
		return infeasible(ws, "the cell", c,
				  "can neither hold a tent nor stay empty (found by the "
				  "reduction)");
	ws->val[c] = (int8_t)v;
	ws->changed = 1;
	if (ws->counts)
		ws->counts[rule]++;
	return QUBO_OK;
}

/* ---- TOUCH ---- */

static int touch_rule(struct qubo__pz_tt_ws *ws)
{
	const struct tt *t = ws->t;
	size_t c;
	int dr, dc, rc;

	for (c = 0; c < t->n; c++) {
		int64_t r0 = (int64_t)(c / t->w), c0 = (int64_t)(c % t->w);

		if (ws->val[c] != 1)
			continue;
		for (dr = -1; dr <= 1; dr++) {
			for (dc = -1; dc <= 1; dc++) {
				int64_t r = r0 + dr, cc = c0 + dc;
				size_t b;

				if ((!dr && !dc) || r < 0 || cc < 0 || r >= t->h || cc >= t->w)
					continue;
				b = (size_t)r * t->w + (size_t)cc;
				if (ws->val[b] == 1)
					return infeasible(ws, "the tent the reduction forces",
							  c < b ? c : b,
							  "touches another it forces");
				if (ws->val[b] < 0 && (rc = fix(ws, b, 0, TT_RULE_TOUCH)))
					return rc;
			}
		}
	}
	return QUBO_OK;
}

/* ---- COUNT ---- */

/* Line k: row k for k < h, else column k − h, as cells start + i·stride. */
struct line {
	size_t start, stride, len;
	int32_t count;
	int row;
	size_t index;
	/* the step to the neighbouring lines' cells alongside */
	size_t side;
	size_t nsides; /* how many lines there are across: h for a row */
};

static struct line line_at(const struct tt *t, size_t k)
{
	struct line l;

	if (k < t->h) {
		l.start = k * t->w;
		l.stride = 1;
		l.len = t->w;
		l.count = t->rows[k];
		l.row = 1;
		l.index = k;
		l.side = t->w;
		l.nsides = t->h;
	} else {
		k -= t->h;
		l.start = k;
		l.stride = t->w;
		l.len = t->h;
		l.count = t->cols[k];
		l.row = 0;
		l.index = k;
		l.side = 1;
		l.nsides = t->w;
	}
	return l;
}

/* Free cell i of a line can take a tent as far as the line can see: free,
 * with no tent on either side along the line. */
static int open_at(const struct qubo__pz_tt_ws *ws, const struct line *l, size_t i)
{
	size_t c = l->start + i * l->stride;

	return ws->val[c] < 0 && !(i > 0 && ws->val[c - l->stride] == 1) &&
	       !(i + 1 < l->len && ws->val[c + l->stride] == 1);
}

static int line_infeasible(const struct qubo__pz_tt_ws *ws, const struct line *l, int64_t ones,
			   int64_t most)
{
	if (ws->quiet)
		return QUBO_ERR_INFEASIBLE;
	if (ones > l->count)
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: %s %zu needs %d tent%s, but the "
				   "reduction forces %lld there",
				   l->row ? "row" : "column", l->index + 1, (int)l->count,
				   qubo__pz_tt_s(l->count), (long long)ones);
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: %s %zu needs %d tent%s, but at most "
			   "%lld fit%s there",
			   l->row ? "row" : "column", l->index + 1, (int)l->count,
			   qubo__pz_tt_s(l->count), (long long)most, most == 1 ? "s" : "");
}

/* Fills the run [i0, i0 + len) of line l to the brim. */
static int fill_run(struct qubo__pz_tt_ws *ws, const struct line *l, size_t i0, size_t len)
{
	size_t i;
	int rc;

	if (len % 2) {
		for (i = 0; i < len; i++)
			if ((rc = fix(ws, l->start + (i0 + i) * l->stride, i % 2 == 0,
				      TT_RULE_COUNT)))
				return rc;
		return QUBO_OK;
	}
	for (i = 0; i < len; i++) {
		size_t c = l->start + (i0 + i) * l->stride;

		if (l->index > 0 && ws->val[c - l->side] != 0 &&
		    (rc = fix(ws, c - l->side, 0, TT_RULE_COUNT)))
			return rc;
		if (l->index + 1 < l->nsides && ws->val[c + l->side] != 0 &&
		    (rc = fix(ws, c + l->side, 0, TT_RULE_COUNT)))
			return rc;
	}
	return QUBO_OK;
}

static int count_rule(struct qubo__pz_tt_ws *ws, int level)
{
	const struct tt *t = ws->t;
	uint64_t pending = 0;
	size_t k, i;
	int rc;

	for (k = 0; k < (size_t)t->h + t->w; k++) {
		struct line l = line_at(t, k);
		int64_t ones = 0, most = 0, need;

		if ((rc = qubo__pz_build_tick(ws->ctl, &pending, l.len)))
			return rc;
		if (level == QUBO_REDUCE_CLUES) {
			if (l.count == 0)
				for (i = 0; i < l.len; i++)
					if (ws->val[l.start + i * l.stride] < 0 &&
					    (rc = fix(ws, l.start + i * l.stride, 0, TT_RULE_CLUE)))
						return rc;
			continue;
		}
		for (i = 0; i < l.len;) {
			size_t run = 0;

			ones += ws->val[l.start + i * l.stride] == 1;
			while (i + run < l.len && open_at(ws, &l, i + run))
				run++;
			most += (int64_t)(run + 1) / 2;
			i += run ? run : 1;
		}
		need = l.count - ones;
		if (need < 0 || need > most)
			return line_infeasible(ws, &l, ones, ones + most);
		if (need == 0) {
			for (i = 0; i < l.len; i++)
				if (ws->val[l.start + i * l.stride] < 0 &&
				    (rc = fix(ws, l.start + i * l.stride, 0, TT_RULE_COUNT)))
					return rc;
			continue;
		}
		if (need < most)
			continue;
		for (i = 0; i < l.len;) {
			size_t run = 0;

			while (i + run < l.len && open_at(ws, &l, i + run))
				run++;
			if (run && (rc = fill_run(ws, &l, i, run)))
				return rc;
			i += run ? run : 1;
		}
	}
	return QUBO_OK;
}

/* ---- TREE ---- */

/* Rules tree `tr`'s candidate c out for every other tree. */
static void own_cell(struct qubo__pz_tt_ws *ws, size_t tr, size_t c)
{
	const struct tt *t = ws->t;
	size_t j;

	for (j = 0; j < t->own_n[c]; j++) {
		uint32_t e = t->own[4 * c + j];

		if (e / 4 != tr && ws->ymask[e / 4] >> (e % 4) & 1) {
			ws->ymask[e / 4] &= (uint8_t) ~(1u << (e % 4));
			ws->ychanged = 1;
		}
	}
}

static int tree_rule(struct qubo__pz_tt_ws *ws)
{
	const struct tt *t = ws->t;
	size_t tr, c, j, k;
	int rc;

	for (tr = 0; tr < t->ntrees; tr++) {
		unsigned m = t->cand_mask[tr];

		for (k = 0; k < 4; k++)
			if (m >> k & 1 && ws->val[t->cand[4 * tr + k]] == 0)
				m &= ~(1u << k);
		ws->ymask[tr] = (uint8_t)m;
	}
	do {
		ws->ychanged = 0;
		if ((rc = qubo__pz_build_poll(ws->ctl, t->ntrees + t->n)))
			return rc;
		for (tr = 0; tr < t->ntrees; tr++) {
			unsigned m = ws->ymask[tr];

			if (m == 0)
				return infeasible(ws, "the tree", t->tree_cell[tr],
						  "has no cell left for its tent");
			if (qubo__pz_tt_popcount(m) != 1)
				continue;
			for (k = 0; !(m >> k & 1); k++)
				;
			c = t->cand[4 * tr + k];
			if ((rc = fix(ws, c, 1, TT_RULE_TREE)))
				return rc;
			own_cell(ws, tr, c);
		}
		for (c = 0; c < t->n; c++) {
			size_t owners = 0, last = 0;

			if (ws->val[c] != 1)
				continue;
			for (j = 0; j < t->own_n[c]; j++) {
				uint32_t e = t->own[4 * c + j];

				if (ws->ymask[e / 4] >> (e % 4) & 1) {
					owners++;
					last = e;
				}
			}
			if (owners == 0)
				return infeasible(ws, "the tent", c,
						  "has no tree left to belong to");
			if (owners == 1 && ws->ymask[last / 4] != 1u << (last % 4)) {
				ws->ymask[last / 4] = (uint8_t)(1u << (last % 4));
				ws->ychanged = 1;
			}
		}
	} while (ws->ychanged);
	/* free cells no tree may take */
	for (c = 0; c < t->n; c++) {
		int any = 0;

		if (ws->val[c] >= 0)
			continue;
		for (j = 0; j < t->own_n[c] && !any; j++) {
			uint32_t e = t->own[4 * c + j];

			any = ws->ymask[e / 4] >> (e % 4) & 1;
		}
		if (!any && (rc = fix(ws, c, 0, TT_RULE_TREE)))
			return rc;
	}
	return QUBO_OK;
}

/* ---- COMMON ---- */

static int touches(const struct tt *t, size_t a, size_t b)
{
	int64_t dr = (int64_t)(a / t->w) - (int64_t)(b / t->w);
	int64_t dc = (int64_t)(a % t->w) - (int64_t)(b % t->w);

	return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

static int common_rule(struct qubo__pz_tt_ws *ws)
{
	const struct tt *t = ws->t;
	size_t tr, k, j;
	int rc;

	for (tr = 0; tr < t->ntrees; tr++) {
		unsigned m = ws->ymask[tr];
		size_t cells[4], nc = 0, first;
		int dr, dc;

		if (qubo__pz_tt_popcount(m) < 2)
			continue;
		for (k = 0; k < 4; k++)
			if (m >> k & 1)
				cells[nc++] = t->cand[4 * tr + k];
		first = cells[0];
		for (dr = -1; dr <= 1; dr++) {
			for (dc = -1; dc <= 1; dc++) {
				int64_t r = (int64_t)(first / t->w) + dr;
				int64_t cc = (int64_t)(first % t->w) + dc;
				size_t x;
				int all = 1;

				if ((!dr && !dc) || r < 0 || cc < 0 || r >= t->h || cc >= t->w)
					continue;
				x = (size_t)r * t->w + (size_t)cc;
				if (ws->val[x] != -1)
					continue;
				for (j = 0; j < nc && all; j++)
					all = touches(t, x, cells[j]);
				if (all && (rc = fix(ws, x, 0, TT_RULE_COMMON)))
					return rc;
			}
		}
	}
	return QUBO_OK;
}

/* ---- MATCH ---- */

/* Side 0: v is a tree and its neighbours are the candidate cells it may
 * take; side 1: v is a cell and its neighbours are the trees that may take
 * it. Neighbour i of v, or NONE. */
static uint32_t neighbour(const struct qubo__pz_tt_ws *ws, int side, size_t v, size_t i)
{
	const struct tt *t = ws->t;
	uint32_t e;

	if (side == 0)
		return ws->ymask[v] >> i & 1 ? t->cand[4 * v + i] : NONE;
	if (i >= t->own_n[v])
		return NONE;
	e = t->own[4 * v + i];
	return ws->ymask[e / 4] >> (e % 4) & 1 ? e / 4 : NONE;
}

static void next_stamp(struct qubo__pz_tt_ws *ws)
{
	if (++ws->stamp == 0) {
		memset(ws->seen_tree, 0, ws->t->ntrees * sizeof *ws->seen_tree);
		memset(ws->seen_cell, 0, ws->t->n * sizeof *ws->seen_cell);
		ws->stamp = 1;
	}
}

/* An augmenting path from the unmatched vertex root of `side`, by an
 * iterative depth-first search (paths are as long as the trees are many):
 * 1 when found (the matching grew by one), 0 when there is none. */
static int augment(struct qubo__pz_tt_ws *ws, int side, uint32_t root)
{
	uint32_t *mate_v = side == 0 ? ws->mate_tree : ws->mate_cell;
	uint32_t *mate_u = side == 0 ? ws->mate_cell : ws->mate_tree;
	uint32_t *seen_u = side == 0 ? ws->seen_cell : ws->seen_tree;
	size_t sp = 0;

	next_stamp(ws);
	ws->stk_v[0] = root;
	ws->stk_i[0] = 0;
	for (;;) {
		uint32_t v = ws->stk_v[sp], u;
		size_t i = ws->stk_i[sp]++;

		if (i >= 4) {
			if (sp == 0)
				return 0;
			sp--;
			continue;
		}
		u = neighbour(ws, side, v, i);
		if (u == NONE || seen_u[u] == ws->stamp)
			continue;
		seen_u[u] = ws->stamp;
		ws->stk_u[sp] = u;
		if (mate_u[u] == NONE) {
			size_t j;

			for (j = 0; j <= sp; j++) {
				mate_v[ws->stk_v[j]] = ws->stk_u[j];
				mate_u[ws->stk_u[j]] = ws->stk_v[j];
			}
			return 1;
		}
		ws->stk_v[++sp] = mate_u[u];
		ws->stk_i[sp] = 0;
	}
}

/* A matching that covers every tent (first) and every tree (then: an
 * augmenting path from a tree never uncovers a vertex), or no solution. */
static int match_rule(struct qubo__pz_tt_ws *ws)
{
	const struct tt *t = ws->t;
	size_t c, tr;
	int rc;

	for (tr = 0; tr < t->ntrees; tr++)
		ws->mate_tree[tr] = NONE;
	memset(ws->mate_cell, 0xff, t->n * sizeof *ws->mate_cell);
	/* a path can be as long as the trees are many: the clock is read
	 * every MATCH_POLL searches */
	for (c = 0; c < t->n; c++) {
		if (c % MATCH_POLL == 0 && (rc = qubo__pz_build_poll(ws->ctl, MATCH_POLL)))
			return rc;
		if (ws->val[c] == 1 && !augment(ws, 1, (uint32_t)c))
			return infeasible(ws, "the tent", c,
					  "cannot be given a tree of its own");
	}
	for (tr = 0; tr < t->ntrees; tr++) {
		if (tr % MATCH_POLL == 0 && (rc = qubo__pz_build_poll(ws->ctl, MATCH_POLL)))
			return rc;
		if (ws->mate_tree[tr] == NONE && !augment(ws, 0, (uint32_t)tr))
			return infeasible(ws, "the tree", t->tree_cell[tr],
					  "cannot be given a tent of its own");
	}
	return QUBO_OK;
}

/* ---- the fixpoint ---- */

/* Trees hold no tent; at CLUES and FULL, cells next to no tree and the
 * cells of lines that need no tent are 0. */
static int clues(struct qubo__pz_tt_ws *ws, int32_t level)
{
	const struct tt *t = ws->t;
	size_t c;
	int rc;

	for (c = 0; c < t->n; c++) {
		if (!t->tree[c])
			continue;
		if (ws->val[c] == 1)
			return infeasible(ws, "the tree", c, "is asked to hold a tent");
		ws->val[c] = 0;
	}
	if (level == QUBO_REDUCE_NONE)
		return QUBO_OK;
	for (c = 0; c < t->n; c++)
		if (!t->tree[c] && t->own_n[c] == 0 && ws->val[c] < 0 &&
		    (rc = fix(ws, c, 0, TT_RULE_CLUE)))
			return rc;
	return count_rule(ws, QUBO_REDUCE_CLUES);
}

int qubo__pz_tt_propagate(struct qubo__pz_tt_ws *ws, int32_t level, int8_t *val, int quiet,
			  size_t counts[TT_NUM_RULES], uint8_t *ymask)
{
	const struct tt *t = ws->t;
	int rc;

	ws->val = val;
	ws->quiet = quiet;
	ws->counts = counts;
	rc = clues(ws, level);
	if (rc || level != QUBO_REDUCE_FULL)
		return rc;
	for (;;) {
		ws->changed = 0;
		/* each round looks at every cell: the build's clock once a round */
		if ((rc = qubo__pz_build_poll(ws->ctl, t->n)) || (rc = touch_rule(ws)) ||
		    (rc = count_rule(ws, QUBO_REDUCE_FULL)) || (rc = tree_rule(ws)) ||
		    (rc = common_rule(ws)))
			return rc;
		if (ws->changed)
			continue;
		if ((rc = match_rule(ws)))
			return rc;
		break;
	}
	if (ymask) {
		size_t c, tr, k;

		for (c = 0; c < t->n && val[c] >= 0; c++)
			;
		/* a decided board: one matching is enough to show it valid */
		for (tr = 0; c == t->n && tr < t->ntrees; tr++)
			for (k = 0; k < 4; k++)
				if (t->cand[4 * tr + k] == ws->mate_tree[tr])
					ws->ymask[tr] = (uint8_t)(1u << k);
		memcpy(ymask, ws->ymask, t->ntrees);
	}
	return QUBO_OK;
}

void qubo__pz_tt_match_board(struct qubo__pz_tt_ws *ws, const uint8_t *board)
{
	const struct tt *t = ws->t;
	size_t tr, k;

	for (tr = 0; tr < t->ntrees; tr++) {
		unsigned m = 0;

		for (k = 0; k < 4; k++)
			if (t->cand_mask[tr] >> k & 1 && board[t->cand[4 * tr + k]])
				m |= 1u << k;
		ws->ymask[tr] = (uint8_t)m;
		ws->mate_tree[tr] = NONE;
	}
	memset(ws->mate_cell, 0xff, t->n * sizeof *ws->mate_cell);
	for (tr = 0; tr < t->ntrees; tr++)
		augment(ws, 0, (uint32_t)tr);
}

uint32_t qubo__pz_tt_mate_tree(const struct qubo__pz_tt_ws *ws, size_t tree)
{
	return ws->mate_tree[tree];
}

uint32_t qubo__pz_tt_mate_cell(const struct qubo__pz_tt_ws *ws, size_t cell)
{
	return ws->mate_cell[cell];
}

/* ---- branching ---- */

size_t qubo__pz_tt_branch(struct qubo__pz_tt_ws *ws, const int8_t *val)
{
	const struct tt *t = ws->t;
	size_t tr, k, best = SIZE_MAX, cell = SIZE_MAX, c;

	/* a candidate of the tree with the fewest free candidates and no tent
	 * beside it yet */
	for (tr = 0; tr < t->ntrees; tr++) {
		size_t nfree = 0, first = SIZE_MAX;
		int tent = 0;

		for (k = 0; k < 4; k++) {
			if (!(t->cand_mask[tr] >> k & 1))
				continue;
			c = t->cand[4 * tr + k];
			tent |= val[c] == 1;
			if (val[c] < 0) {
				if (first == SIZE_MAX)
					first = c;
				nfree++;
			}
		}
		if (!tent && nfree && nfree < best) {
			best = nfree;
			cell = first;
		}
	}
	if (cell != SIZE_MAX)
		return cell;
	/* the first free cell of the line with the fewest free cells */
	for (k = 0; k < (size_t)t->h + t->w; k++) {
		struct line l = line_at(t, k);
		size_t nfree = 0, first = SIZE_MAX, i;

		for (i = 0; i < l.len; i++)
			if (val[l.start + i * l.stride] < 0) {
				if (first == SIZE_MAX)
					first = l.start + i * l.stride;
				nfree++;
			}
		if (nfree && nfree < best) {
			best = nfree;
			cell = first;
		}
	}
	if (cell != SIZE_MAX)
		return cell;
	for (c = 0; c < t->n; c++)
		if (val[c] < 0)
			return c;
	return 0;
}
