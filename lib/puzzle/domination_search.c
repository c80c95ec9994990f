/*
 * Exact search of minimum domination (the optimum slot of struct
 * qubo__pz_search_ops, puzzle_impl.h): the smallest dominating sets of the
 * board's cells, one or all of them.
 *
 * For k = a lower bound, k + 1, …, the search enumerates the dominating
 * sets of at most k pieces; the first k that has one is the domination
 * number γ, proven by the exhausted searches below it. A node holds the
 * chosen pieces, the cells they dominate (a bit set) and the forbidden
 * cells. It takes an undominated cell u (the one with the fewest cells
 * left that dominate it), and tries the cells v that dominate u in
 * increasing order; choosing v forbids, below it, every v tried before.
 * That generates each set once: the branch taken is the first of its cells
 * in that order, and a forbidden cell is never chosen again. (Which cell u
 * is taken does not matter for this, only that it is undominated.)
 *
 * Pruning: with r pieces left and U cells undominated, the r largest
 * numbers of undominated cells one allowed piece would dominate must add
 * up to U at least. The same bound at the root gives the first k. The
 * greedy dominating set of the model (struct dz) bounds γ from above, and
 * a valid hint from above as well: when k reaches the hint's size it is γ,
 * and without o->all the hint is the answer.
 *
 * Energy: the model (domination.c) gives a smallest dominating set the
 * energy γ, its number of pieces, with the best slack; so o->energy = γ.
 */
#include <string.h>

#include "chess_impl.h"

/* The stop callback is polled when the node count is a multiple of 256. */
#define POLL_MASK 255u
#define NO_CELL UINT32_MAX

#define WORD(c) ((c) >> 6)
#define BIT(c) ((uint64_t)1 << ((c)&63))

struct dw {
	size_t n, words;
	uint64_t *dom;	/* n × words: the cells a piece on each cell dominates */
	uint64_t *by;	/* n × words: the cells that dominate each cell (dom itself
			* when every attack goes both ways) */
	uint64_t *on;	/* words: the board's cells */
	size_t non;	/* how many */
	size_t maxgain; /* the most cells one piece dominates */
	size_t *hist;	/* maxgain + 1 counters of the bound */
	uint8_t *board; /* n: a board for o->found */
	/* levels: dominated and forbidden cells, the cell being dominated
	 * (NO_CELL on entry) and the piece chosen for it */
	size_t cap;
	uint64_t *cov, *forb;
	uint32_t *u, *pick;
};

static void dw_free(const qubo_puzzle *p, void *ws)
{
	const qubo_allocator *a = &p->alloc;
	struct dw *m = ws;

	if (!m)
		return;
	if (m->by != m->dom)
		qubo__free(a, m->by);
	qubo__free(a, m->dom);
	qubo__free(a, m->on);
	qubo__free(a, m->hist);
	qubo__free(a, m->board);
	qubo__free(a, m->cov);
	qubo__free(a, m->forb);
	qubo__free(a, m->u);
	qubo__free(a, m->pick);
	qubo__free(a, m);
}

/* Room for `need` levels. */
static int dw_grow(const qubo_allocator *a, struct dw *m, size_t need)
{
	const struct qubo__grow_array levels[] = {
		{ (void **)&m->cov, m->words, sizeof *m->cov },
		{ (void **)&m->forb, m->words, sizeof *m->forb },
		{ (void **)&m->u, 1, sizeof *m->u },
		{ (void **)&m->pick, 1, sizeof *m->pick },
	};

	if (need <= m->cap) /* the search asks at every level */
		return QUBO_OK;
	return qubo__grow_arrays(a, &m->cap, need, 8, levels, 4, "the search's levels");
}

static int dw_new(const qubo_puzzle *p, void **ws)
{
	const qubo_allocator *a = &p->alloc;
	const struct dz *d = p->data;
	size_t n = d->n, W = (n + 63) / 64, i, k;
	struct dw *m;
	int rc;

	*ws = NULL;
	if (n > QUBO__CZ_MAX_SEARCH_WORDS / W / 2)
		return qubo__too_large(QUBO_LIMIT_SEARCH_WORDS, QUBO__CZ_MAX_SEARCH_WORDS,
				       "domination: the exact search supports boards of up to "
				       "about 11,000 cells; this one has %zu",
				       n);
	m = qubo__calloc_array(a, 1, sizeof *m);
	if (!m)
		return qubo__nomem("the search's work space");
	m->n = n;
	m->words = W;
	m->dom = qubo__calloc_array(a, n * W, sizeof *m->dom);
	m->by = qubo__calloc_array(a, n * W, sizeof *m->by);
	m->on = qubo__calloc_array(a, W, sizeof *m->on);
	m->board = qubo__malloc_array(a, n, 1);
	if (!m->dom || !m->by || !m->on || !m->board) {
		dw_free(p, m);
		return qubo__nomem("the search's work space");
	}
	for (i = 0; i < n; i++) {
		size_t deg;

		if (!d->on[i])
			continue;
		m->on[WORD(i)] |= BIT(i);
		m->non++;
		m->dom[i * W + WORD(i)] |= BIT(i);
		m->by[i * W + WORD(i)] |= BIT(i);
		for (k = d->out_start[i]; k < d->out_start[i + 1]; k++)
			m->dom[i * W + WORD(d->out[k])] |= BIT(d->out[k]);
		for (k = d->in_start[i]; k < d->in_start[i + 1]; k++)
			m->by[i * W + WORD(d->in[k])] |= BIT(d->in[k]);
		deg = d->out_start[i + 1] - d->out_start[i] + 1;
		if (deg > m->maxgain)
			m->maxgain = deg;
	}
	if (memcmp(m->dom, m->by, n * W * sizeof *m->dom) == 0) {
		qubo__free(a, m->by);
		m->by = m->dom;
	}
	m->hist = qubo__calloc_array(a, m->maxgain + 1, sizeof *m->hist);
	if (!m->hist) {
		dw_free(p, m);
		return qubo__nomem("the search's work space");
	}
	rc = dw_grow(a, m, d->greedy + 2);
	if (rc) {
		dw_free(p, m);
		return rc;
	}
	*ws = m;
	return QUBO_OK;
}

/* The most cells r pieces of `allowed` (NULL: any on-board cell) could
 * dominate beyond `cov` (NULL: nothing dominated yet): the sum of the r
 * largest gains, by counting. */
static size_t dw_reach(struct dw *m, const uint64_t *cov, const uint64_t *forb, size_t r)
{
	const size_t W = m->words;
	size_t i, j, g, sum = 0;

	for (i = 0; i < W; i++) {
		uint64_t x = m->on[i] & (forb ? ~forb[i] : ~(uint64_t)0);

		while (x) {
			size_t c = i * 64 + qubo__pz_ctz64(x);
			const uint64_t *dc = m->dom + c * W;
			size_t gain = 0;

			x &= x - 1;
			if (cov)
				for (j = 0; j < W; j++)
					gain += qubo__pz_popcount64(dc[j] & ~cov[j]);
			else
				for (j = 0; j < W; j++)
					gain += qubo__pz_popcount64(dc[j]);
			m->hist[gain]++;
		}
	}
	for (g = m->maxgain; g > 0; g--) {
		size_t take = m->hist[g] < r ? m->hist[g] : r;

		sum += take * g;
		r -= take;
		m->hist[g] = 0;
	}
	m->hist[0] = 0;
	return sum;
}

static int dw_emit(struct dw *m, size_t count, struct qubo__pz_opt *o, size_t k)
{
	size_t i;

	memset(m->board, 0, m->n);
	for (i = 0; i < count; i++)
		m->board[m->pick[i]] = 1;
	if (!o->has_energy) {
		o->energy = (double)k;
		o->has_energy = 1;
	}
	return o->found && o->found(o->ctx, m->board) ? QUBO_CANCELLED : QUBO_OK;
}

/* The search for dominating sets of at most k pieces: QUBO_OK when it is
 * exhausted (or, without o->all, when it found one), QUBO_CANCELLED, or an
 * error; *found counts the sets given to o->found. */
static int dw_search(const qubo_puzzle *p, struct dw *m, struct qubo__pz_opt *o, size_t k,
		     uint64_t *found)
{
	const size_t W = m->words;
	size_t d = 0, i, j;
	int rc;

	memset(m->cov, 0, W * sizeof *m->cov);
	memset(m->forb, 0, W * sizeof *m->forb);
	m->u[0] = NO_CELL;
	for (;;) {
		uint64_t *cov = m->cov + d * W, *forb = m->forb + d * W;
		size_t u = m->u[d], c = NO_CELL;

		if (u == NO_CELL) {
			size_t left = 0, r = k - d, fewest = SIZE_MAX;

			if ((++o->nodes & POLL_MASK) == 0 && o->stop && o->stop(o->ctx, o->nodes))
				return QUBO_CANCELLED;
			for (i = 0; i < W; i++)
				left += qubo__pz_popcount64(m->on[i] & ~cov[i]);
			if (left == 0) {
				rc = dw_emit(m, d, o, k);
				if (rc)
					return rc;
				++*found;
				if (!o->all)
					return QUBO_OK;
				goto pop;
			}
			if (r == 0 || r * m->maxgain < left || dw_reach(m, cov, forb, r) < left)
				goto pop;
			/* the undominated cell with the fewest allowed dominators */
			for (i = 0; i < W && fewest > 1; i++) {
				uint64_t x = m->on[i] & ~cov[i];

				while (x && fewest > 1) {
					size_t x0 = i * 64 + qubo__pz_ctz64(x), cnt = 0;
					const uint64_t *bx = m->by + x0 * W;

					x &= x - 1;
					for (j = 0; j < W; j++)
						cnt += qubo__pz_popcount64(bx[j] & ~forb[j]);
					if (cnt < fewest) {
						fewest = cnt;
						u = x0;
					}
				}
			}
			if (fewest == 0)
				goto pop;
			m->u[d] = (uint32_t)u;
		}
		/* the next cell that dominates u, in increasing order */
		{
			const uint64_t *bu = m->by + u * W;

			for (i = 0; i < W; i++) {
				uint64_t x = bu[i] & ~forb[i];

				if (x) {
					c = i * 64 + qubo__pz_ctz64(x);
					break;
				}
			}
		}
		if (c == NO_CELL)
			goto pop;
		forb[WORD(c)] |= BIT(c);
		m->pick[d] = (uint32_t)c;
		rc = dw_grow(&p->alloc, m, d + 2);
		if (rc)
			return rc;
		cov = m->cov + d * W;
		forb = m->forb + d * W;
		{
			const uint64_t *dc = m->dom + c * W;

			for (j = 0; j < W; j++) {
				cov[W + j] = cov[j] | dc[j];
				forb[W + j] = forb[j];
			}
		}
		m->u[d + 1] = NO_CELL;
		d++;
		continue;
pop:
		m->u[d] = NO_CELL;
		if (d == 0)
			return QUBO_OK;
		d--;
	}
}

/* The size of a valid hint (a dominating set), or SIZE_MAX. */
static size_t hint_size(const struct dw *m, const uint8_t *h)
{
	const size_t W = m->words;
	size_t i, j, size = 0, left = 0;
	uint64_t *cov = m->cov;

	memset(cov, 0, W * sizeof *cov);
	for (i = 0; i < m->n; i++) {
		if (h[i] > 1 || (h[i] && !(m->on[WORD(i)] & BIT(i))))
			return SIZE_MAX;
		if (!h[i])
			continue;
		size++;
		for (j = 0; j < W; j++)
			cov[j] |= m->dom[i * W + j];
	}
	for (j = 0; j < W; j++)
		left += qubo__pz_popcount64(m->on[j] & ~cov[j]);
	return left ? SIZE_MAX : size;
}

static int dw_optimum(const qubo_puzzle *p, void *ws, struct qubo__pz_opt *o)
{
	const struct dz *d = p->data;
	struct dw *m = ws;
	size_t k, hint = o->hint ? hint_size(m, o->hint) : SIZE_MAX, top = d->greedy;
	uint64_t found = 0;
	int rc;

	o->nodes = 0;
	o->has_energy = 0;
	if (hint < top)
		top = hint;
	/* the first k whose pieces could dominate the board at all */
	for (k = 0; k < top && dw_reach(m, NULL, NULL, k) < m->non; k++)
		;
	for (; k <= top; k++) {
		if (k == hint && !o->all) {
			o->energy = (double)k;
			o->has_energy = 1;
			return o->found && o->found(o->ctx, o->hint) ? QUBO_CANCELLED : QUBO_OK;
		}
		rc = dw_grow(&p->alloc, m, k + 2);
		if (rc)
			return rc;
		rc = dw_search(p, m, o, k, &found);
		if (rc || found)
			return rc;
	}
	return qubo__error(QUBO_ERR_INTERNAL,
			   "domination: no dominating set of %zu pieces found, but the greedy "
			   "one has that many",
			   top);
}

const struct qubo__pz_search_ops qubo__pz_domination_search = {
	dw_new, dw_free, NULL, NULL, dw_optimum,
};
