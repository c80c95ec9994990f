/*
 * Exact search of the coloured and max chess pieces (the slots of struct
 * qubo__pz_search_ops, puzzle_impl.h).
 *
 * Coloured pieces, a feasibility family: propagate is the FULL reduction
 * of chess.c started from the caller's decisions (qubo__pz_cz_propagate:
 * a piece empties the cells it conflicts with and the rest of its region, a
 * region left with one free cell takes its piece there); branch picks the
 * first free cell of the region without a piece that has the fewest free
 * cells (after propagation every such region has at least two), or the
 * first free cell once every region has its piece (cells in no region may
 * still hold pieces). The generic branch and reduce (search.c) does the
 * rest.
 *
 * Max pieces, an optimisation family: branch and bound for a maximum
 * weight independent set of the conflict graph, from the FULL reduction
 * (pre-placed pieces, the cells they conflict with, lone cells). A node is
 * the set P of free cells, the pieces placed and their weight. It places a
 * piece on every free cell with no free neighbour (such a cell is in every
 * optimum of the node, since weights are positive), bounds the weight left
 * to gain by a greedy clique cover of P (an independent set takes at most
 * one cell of a clique, so the sum of each clique's largest weight bounds
 * it), and branches on the free cell with the most free neighbours: a piece
 * there (a child node), then none (the node goes on without the cell). The
 * two branches part the placements, so every placement is reached at most
 * once. The first pass finds the largest weight, from an incumbent (a
 * greedy placement, or the hint when heavier); with o->all a second pass
 * enumerates every placement of that weight. Weights are floating point:
 * placements within a relative 1e-9 of the largest weight count as
 * optimal, which is exact for the integer and dyadic weights of practice.
 *
 * Energy: the model (chess.c) gives a valid placement the energy −(its
 * total weight, pre-placed and reduced pieces included), so o->energy is
 * minus the largest weight.
 */
#include <string.h>

#include "chess_impl.h"

/* The stop callback is polled when the node count is a multiple of 256. */
#define POLL_MASK 255u
#define NO_CELL UINT32_MAX
#define REL_TOL 1e-9

#define WORD(c) ((c) >> 6)
#define BIT(c) ((uint64_t)1 << ((c)&63))

/* ---- coloured pieces: propagate and branch ---- */

/* The coloured search needs no scratch; the work space only marks that a
 * search is on. */
struct cw {
	size_t n;
};

static int cw_new(const qubo_puzzle *p, void **ws)
{
	const struct cz *z = p->data;
	struct cw *w = qubo__malloc_array(&p->alloc, 1, sizeof *w);

	*ws = NULL;
	if (!w)
		return qubo__nomem("the search's work space");
	w->n = z->n;
	*ws = w;
	return QUBO_OK;
}

static void cw_free(const qubo_puzzle *p, void *ws)
{
	qubo__free(&p->alloc, ws);
}

static int cw_propagate(const qubo_puzzle *p, void *ws, int8_t *val)
{
	(void)ws;
	return qubo__pz_cz_propagate(p->data, val);
}

static size_t cw_branch(const qubo_puzzle *p, void *ws, const int8_t *val)
{
	const struct cz *z = p->data;
	size_t k, j, best = z->n, bestfree = SIZE_MAX;

	(void)ws;
	/* two free cells is the fewest a region can have after propagation */
	for (k = 0; k < z->nreg && bestfree > 2; k++) {
		size_t nfree = 0, first = z->n;

		for (j = z->reg_start[k]; j < z->reg_start[k + 1]; j++) {
			size_t c = z->reg_cells[j];

			if (val[c] == 1) {
				nfree = 0;
				break;
			}
			if (val[c] < 0 && nfree++ == 0)
				first = c;
		}
		if (nfree && nfree < bestfree) {
			bestfree = nfree;
			best = first;
		}
	}
	if (best < z->n)
		return best;
	for (j = 0; j < z->n; j++)
		if (val[j] < 0)
			return j;
	return 0; /* not reached: val has a free cell */
}

const struct qubo__pz_search_ops qubo__pz_chess_coloured_search = {
	cw_new, cw_free, cw_propagate, cw_branch, NULL,
};

/* ---- max pieces: branch and bound ---- */

struct mw {
	size_t n, words;
	uint64_t *adj;	 /* n × words: the cells each cell conflicts with */
	double *w;	 /* n weights (1 without weights) */
	int8_t *val;	 /* n: the root's propagation */
	uint8_t *board;	 /* n: a board for o->found */
	uint64_t *bits;	 /* 5 × words, the following */
	uint64_t *q, *c; /* scratch of the bound */
	uint64_t *root_p, *root_b;
	uint64_t *best;
	double root_w, best_w;
	/* levels of the search: free cells, pieces, their weight, and the cell
	 * whose piece the child level holds (NO_CELL while there is none) */
	size_t cap;
	uint64_t *lp, *lb;
	double *lw;
	uint32_t *lv;
};

static void mw_free(const qubo_puzzle *p, void *ws)
{
	const qubo_allocator *a = &p->alloc;
	struct mw *m = ws;

	if (!m)
		return;
	qubo__free(a, m->adj);
	qubo__free(a, m->w);
	qubo__free(a, m->val);
	qubo__free(a, m->board);
	qubo__free(a, m->bits);
	qubo__free(a, m->lp);
	qubo__free(a, m->lb);
	qubo__free(a, m->lw);
	qubo__free(a, m->lv);
	qubo__free(a, m);
}

/* Room for `need` levels. */
static int mw_grow(const qubo_allocator *a, struct mw *m, size_t need)
{
	const struct qubo__grow_array levels[] = {
		{ (void **)&m->lp, m->words, sizeof *m->lp },
		{ (void **)&m->lb, m->words, sizeof *m->lb },
		{ (void **)&m->lw, 1, sizeof *m->lw },
		{ (void **)&m->lv, 1, sizeof *m->lv },
	};

	if (need <= m->cap) /* the search asks at every level */
		return QUBO_OK;
	return qubo__grow_arrays(a, &m->cap, need, 16, levels, 4, "the search's levels");
}

static int mw_new(const qubo_puzzle *p, void **ws)
{
	const qubo_allocator *a = &p->alloc;
	const struct cz *z = p->data;
	size_t n = z->n, W = (n + 63) / 64, i, k;
	struct mw *m;
	int rc;

	*ws = NULL;
	if (n > QUBO__CZ_MAX_SEARCH_WORDS / W)
		return qubo__too_large(QUBO_LIMIT_SEARCH_WORDS, QUBO__CZ_MAX_SEARCH_WORDS,
				       "max chess pieces: the exact search supports boards of up "
				       "to about 16,000 cells; this one has %zu",
				       n);
	m = qubo__calloc_array(a, 1, sizeof *m);
	if (!m)
		return qubo__nomem("the search's work space");
	m->n = n;
	m->words = W;
	m->adj = qubo__calloc_array(a, n * W, sizeof *m->adj);
	m->w = qubo__malloc_array(a, n, sizeof *m->w);
	m->val = qubo__malloc_array(a, n, 1);
	m->board = qubo__malloc_array(a, n, 1);
	m->bits = qubo__malloc_array(a, 5 * W, sizeof *m->bits);
	if (!m->adj || !m->w || !m->val || !m->board || !m->bits) {
		mw_free(p, m);
		return qubo__nomem("the search's work space");
	}
	rc = mw_grow(a, m, n + 1 < 64 ? n + 1 : 64);
	if (rc) {
		mw_free(p, m);
		return rc;
	}
	m->q = m->bits;
	m->c = m->bits + W;
	m->root_p = m->bits + 2 * W;
	m->root_b = m->bits + 3 * W;
	m->best = m->bits + 4 * W;
	for (i = 0; i < n; i++) {
		m->w[i] = z->weight ? z->weight[i] : 1.0;
		for (k = z->adj_start[i]; k < z->adj_start[i + 1]; k++)
			m->adj[i * W + WORD(z->adj[k])] |= BIT(z->adj[k]);
	}
	*ws = m;
	return QUBO_OK;
}

static double tolerance(double w)
{
	return w * REL_TOL;
}

/* An upper bound on the weight an independent subset of P can add: a greedy
 * clique cover (the lowest cell of what is left, then every next lowest
 * cell adjacent to the clique so far), summing each clique's largest
 * weight. */
static double mw_bound(const struct mw *m, const uint64_t *P)
{
	const size_t W = m->words;
	uint64_t *q = m->q, *c = m->c;
	double ub = 0.0;
	size_t i, j, t;

	memcpy(q, P, W * sizeof *q);
	for (i = 0; i < W; i++) {
		while (q[i]) {
			size_t u = i * 64 + qubo__pz_ctz64(q[i]);
			const uint64_t *au = m->adj + u * W;
			double top = m->w[u];

			q[i] &= q[i] - 1;
			for (t = i; t < W; t++)
				c[t] = q[t] & au[t];
			for (j = i; j < W; j++) {
				while (c[j]) {
					size_t x = j * 64 + qubo__pz_ctz64(c[j]);
					const uint64_t *ax = m->adj + x * W;

					if (m->w[x] > top)
						top = m->w[x];
					q[j] &= ~BIT(x);
					for (t = j; t < W; t++)
						c[t] &= ax[t];
				}
			}
			ub += top;
		}
	}
	return ub;
}

static int mw_emit(struct mw *m, const uint64_t *B, struct qubo__pz_opt *o)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		m->board[i] = (B[WORD(i)] & BIT(i)) != 0;
	return o->found && o->found(o->ctx, m->board) ? QUBO_CANCELLED : QUBO_OK;
}

enum {
	MW_FIND = 0,
	MW_ENUMERATE = 1
};

/* One pass of the branch and bound from the root. MW_FIND: improves the
 * incumbent (best, best_w) while anything heavier may exist. MW_ENUMERATE:
 * gives o->found every placement of weight at least thr. */
static int mw_search(const qubo_puzzle *p, struct mw *m, struct qubo__pz_opt *o, int mode,
		     double thr)
{
	const size_t W = m->words;
	size_t d = 0, i, j;
	int rc;

	memcpy(m->lp, m->root_p, W * sizeof *m->lp);
	memcpy(m->lb, m->root_b, W * sizeof *m->lb);
	m->lw[0] = m->root_w;
	m->lv[0] = NO_CELL;
	for (;;) {
		uint64_t *P = m->lp + d * W, *B = m->lb + d * W;
		size_t v = NO_CELL;
		unsigned maxdeg = 0;
		double ub, wt;

		if (m->lv[d] != NO_CELL) {
			/* back from the piece on lv[d]: now without it */
			P[WORD(m->lv[d])] &= ~BIT(m->lv[d]);
			m->lv[d] = NO_CELL;
		}
		if ((++o->nodes & POLL_MASK) == 0 && o->stop && o->stop(o->ctx, o->nodes))
			return QUBO_CANCELLED;
		/* lone cells take their piece; the busiest cell is the branch */
		for (i = 0; i < W; i++) {
			uint64_t x = P[i];

			while (x) {
				size_t c = i * 64 + qubo__pz_ctz64(x);
				const uint64_t *ac = m->adj + c * W;
				unsigned deg = 0;

				x &= x - 1;
				for (j = 0; j < W; j++)
					deg += qubo__pz_popcount64(ac[j] & P[j]);
				if (deg == 0) {
					P[i] &= ~BIT(c);
					B[i] |= BIT(c);
					m->lw[d] += m->w[c];
				} else if (deg > maxdeg) {
					maxdeg = deg;
					v = c;
				}
			}
		}
		wt = m->lw[d];
		if (v == NO_CELL) {
			/* a placement: nothing is free */
			if (mode == MW_FIND) {
				if (wt > m->best_w + tolerance(m->best_w)) {
					m->best_w = wt;
					memcpy(m->best, B, W * sizeof *B);
				}
			} else if (wt >= thr && (rc = mw_emit(m, B, o))) {
				return rc;
			}
			goto pop;
		}
		ub = mw_bound(m, P);
		if (mode == MW_FIND ? wt + ub <= m->best_w + tolerance(m->best_w) : wt + ub < thr)
			goto pop;
		rc = mw_grow(&p->alloc, m, d + 2);
		if (rc)
			return rc;
		P = m->lp + d * W;
		B = m->lb + d * W;
		{
			const uint64_t *av = m->adj + v * W;
			uint64_t *P1 = P + W, *B1 = B + W;

			for (j = 0; j < W; j++) {
				P1[j] = P[j] & ~av[j];
				B1[j] = B[j];
			}
			P1[WORD(v)] &= ~BIT(v);
			B1[WORD(v)] |= BIT(v);
		}
		m->lv[d] = (uint32_t)v;
		m->lw[d + 1] = wt + m->w[v];
		m->lv[d + 1] = NO_CELL;
		d++;
		continue;
pop:
		if (d == 0)
			return QUBO_OK;
		d--;
	}
}

/* The weight of a valid placement `h` (n bytes), or -1 when it is not one. */
static double hint_weight(const struct cz *z, const struct mw *m, const uint8_t *h)
{
	double wt = 0.0;
	size_t i, k;

	for (i = 0; i < z->n; i++) {
		if (h[i] > 1 || (h[i] && z->code[i] == QUBO_PUZZLE_CHESS_NONE) ||
		    (z->placed[i] && !h[i]))
			return -1.0;
		if (!h[i])
			continue;
		for (k = z->adj_start[i]; k < z->adj_start[i + 1]; k++)
			if (h[z->adj[k]])
				return -1.0;
		wt += m->w[i];
	}
	return wt;
}

static int mw_optimum(const qubo_puzzle *p, void *ws, struct qubo__pz_opt *o)
{
	const struct cz *z = p->data;
	struct mw *m = ws;
	const size_t W = m->words;
	size_t i;
	int rc;

	o->nodes = 0;
	o->has_energy = 0;
	memset(m->val, 0xff, m->n);
	rc = qubo__pz_cz_propagate(z, m->val);
	if (rc)
		return rc;
	memset(m->root_p, 0, W * sizeof *m->root_p);
	memset(m->root_b, 0, W * sizeof *m->root_b);
	m->root_w = 0.0;
	for (i = 0; i < m->n; i++) {
		if (m->val[i] < 0)
			m->root_p[WORD(i)] |= BIT(i);
		else if (m->val[i] == 1) {
			m->root_b[WORD(i)] |= BIT(i);
			m->root_w += m->w[i];
		}
	}
	/* the incumbent: pieces placed greedily in cell order */
	memcpy(m->q, m->root_p, W * sizeof *m->q);
	memcpy(m->best, m->root_b, W * sizeof *m->best);
	m->best_w = m->root_w;
	for (i = 0; i < m->n; i++) {
		size_t j;

		if (!(m->q[WORD(i)] & BIT(i)))
			continue;
		m->best[WORD(i)] |= BIT(i);
		m->best_w += m->w[i];
		for (j = 0; j < W; j++)
			m->q[j] &= ~m->adj[i * W + j];
	}
	if (o->hint) {
		double hw = hint_weight(z, m, o->hint);

		if (hw > m->best_w) {
			m->best_w = hw;
			memset(m->best, 0, W * sizeof *m->best);
			for (i = 0; i < m->n; i++)
				if (o->hint[i])
					m->best[WORD(i)] |= BIT(i);
		}
	}
	rc = mw_search(p, m, o, MW_FIND, 0.0);
	if (rc)
		return rc;
	o->energy = m->best_w > 0.0 ? -m->best_w : 0.0;
	o->has_energy = 1;
	if (!o->all)
		return mw_emit(m, m->best, o);
	return mw_search(p, m, o, MW_ENUMERATE, m->best_w - tolerance(m->best_w));
}

const struct qubo__pz_search_ops qubo__pz_chess_max_search = {
	mw_new, mw_free, NULL, NULL, mw_optimum,
};
