/*
 * The conflict terms of the chess pieces (chess.c): the lines along which
 * every two model cells attack each other, each as one at-most-one clique,
 * then every other conflicting pair on its own.
 *
 * The line of a cell in direction v = (Δrow, Δcolumn) is the set of board
 * cells c + t v for every integer t. Attacks are reach on an empty board,
 * so for cells a before b on such a line (b = a + t v, t ≥ 1) the piece on
 * a reaches b when it slides by v, and the piece on b reaches a when it
 * slides by −v, whatever stands between. A run of model cells in which
 * each cell slides by −v, or every cell before it in the run slides by v,
 * is therefore a set of cells that all conflict: its
 * conflict terms w x_a x_b are exactly one clique's
 * (qubo_penalty_at_most_one with the same weight w, P or λ), which the
 * compile expands row by row without sorting and which the model stores in
 * O(run) instead of one entry per pair. The model is the same: each of
 * these couplers gets the one term w either way, and a region term (the
 * only other coupler of coloured pieces) adds to it in the same sum.
 *
 * Every conflicting pair is coupled once:
 *  - two lines of directions that are not parallel share at most one
 *    cell, so a pair can lie on two clique lines only when their
 *    directions are parallel ((1, 1) and (2, 2) from custom move sets);
 *    of every class of parallel directions, only the first one met gives
 *    cliques;
 *  - along one line the runs do not overlap;
 *  - a pair on a clique is left out of the pair list, and every other
 *    conflicting pair goes into it.
 * Only free cells join a run. A cell fixed to 0 has no term, and one fixed
 * to 1 (a pre-placed piece at level NONE) turns its pairs into linear terms
 * whose order of summation the pair list keeps as it was; neither ends a
 * run, since nothing blocks a slide.
 */
#include <float.h>
#include <string.h>

#include "chess_impl.h"

/* Classes of parallel directions taken as lines at most: each costs a pass
 * over the board and 4 bytes per variable; the classes met after these
 * keep their single pairs (custom move sets only: a queen has 4). */
#define LINE_DIRS 16

#define NO_CLIQUE UINT32_MAX

struct lines {
	size_t ndir;
	int64_t dr[LINE_DIRS], dc[LINE_DIRS]; /* the direction, dr > 0 or dr = 0 < dc */
	int64_t pr[LINE_DIRS], pc[LINE_DIRS]; /* its class: divided by the gcd */
	uint32_t *clique;		      /* ndir × variables: a clique's number */
	uint32_t *cells;		      /* the run being gathered */
	qubo_lit *lits;			      /* its literals */
};

static int64_t gcd64(int64_t a, int64_t b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Adds the slide directions of a piece code to L (first of each class). */
static void add_dirs(struct lines *L, const struct cz_sets *sets, int32_t code)
{
	const qubo_puzzle_chess_move *mv;
	size_t nmv, k, d;

	qubo__pz_cz_moves(sets, code, &mv, &nmv);
	for (k = 0; k < nmv && L->ndir < LINE_DIRS; k++) {
		int64_t dr = mv[k].drow, dc = mv[k].dcol, g;

		if (!mv[k].slide)
			continue;
		if (dr < 0 || (dr == 0 && dc < 0)) {
			dr = -dr;
			dc = -dc;
		}
		g = gcd64(dr, dc);
		for (d = 0; d < L->ndir; d++)
			if (L->pr[d] == dr / g && L->pc[d] == dc / g)
				break;
		if (d < L->ndir)
			continue;
		L->dr[d] = dr;
		L->dc[d] = dc;
		L->pr[d] = dr / g;
		L->pc[d] = dc / g;
		L->ndir++;
	}
}

/* The line directions of the free cells' pieces, each code looked at once. */
static int find_dirs(struct lines *L, const struct cz *z, const qubo_allocator *a,
		     const qubo_lit *lits)
{
	uint8_t builtin[QUBO__CZ_BUILTINS] = { 0 };
	uint8_t *custom = qubo__calloc_array(a, z->sets.n, 1);
	size_t i;

	if (!custom)
		return qubo__nomem("the model's terms");
	for (i = 0; i < z->n && L->ndir < LINE_DIRS; i++) {
		int32_t c = z->code[i];
		uint8_t *seen;

		if (QUBO_LIT_IS_CONST(lits[i]) || c == QUBO_PUZZLE_CHESS_NONE)
			continue;
		seen = c < QUBO__CZ_BUILTINS ? &builtin[c] : &custom[c - QUBO_PUZZLE_CHESS_CUSTOM];
		if (*seen)
			continue;
		*seen = 1;
		add_dirs(L, &z->sets, c);
	}
	qubo__free(a, custom);
	return QUBO_OK;
}

/* Whether the piece of code `code` slides by (dr, dc). */
static int slides(const struct cz_sets *sets, int32_t code, int64_t dr, int64_t dc)
{
	const qubo_puzzle_chess_move *mv;
	size_t nmv, k;

	qubo__pz_cz_moves(sets, code, &mv, &nmv);
	for (k = 0; k < nmv; k++)
		if (mv[k].slide && mv[k].drow == dr && mv[k].dcol == dc)
			return 1;
	return 0;
}

/* Ends the run of len cells: a clique when it has two cells or more (and
 * fits the weight), its cells then marked with the clique's number. */
static int close_run(struct lines *L, size_t d, size_t len, const qubo_lit *lits, qubo_model *m,
		     double weight, uint32_t *next)
{
	uint32_t *clique = L->clique + d * qubo_model_num_variables(m);
	size_t t;
	int rc;

	if (len < 2 || !qubo__pz_clique_fits(weight, len))
		return QUBO_OK;
	rc = qubo_penalty_at_most_one(m, L->lits, len, weight);
	if (rc)
		return rc;
	for (t = 0; t < len; t++)
		clique[QUBO_LIT_VAR(lits[L->cells[t]])] = *next;
	(*next)++;
	return QUBO_OK;
}

/* The cliques of direction d: every line from its first cell (the one
 * whose step back leaves the board), split greedily into runs. */
static int add_cliques(struct lines *L, size_t d, const struct cz *z, const qubo_lit *lits,
		       qubo_model *m, double weight, struct qubo__pz_ctl *ctl, uint32_t *next)
{
	int64_t dr = L->dr[d], dc = L->dc[d], w = z->w, h = z->h;
	size_t i;
	int rc;

	for (i = 0; i < z->n; i++) {
		int64_t r = (int64_t)(i / z->w), c = (int64_t)(i % z->w);
		/* nofwd: the run's cells whose piece does not slide by v */
		size_t len = 0, steps = 0, nofwd = 0;

		if (r - dr >= 0 && r - dr < h && c - dc >= 0 && c - dc < w)
			continue; /* not the first cell of its line */
		for (; r >= 0 && r < h && c >= 0 && c < w; r += dr, c += dc, steps++) {
			size_t x = (size_t)r * z->w + (size_t)c;

			if (QUBO_LIT_IS_CONST(lits[x]))
				continue;
			/* x joins when it reaches every run cell, or each of them
			 * reaches x */
			if (len && nofwd && !slides(&z->sets, z->code[x], -dr, -dc)) {
				rc = close_run(L, d, len, lits, m, weight, next);
				if (rc)
					return rc;
				len = nofwd = 0;
			}
			L->cells[len] = (uint32_t)x;
			L->lits[len++] = lits[x];
			nofwd += !slides(&z->sets, z->code[x], dr, dc);
		}
		rc = close_run(L, d, len, lits, m, weight, next);
		if (!rc)
			rc = qubo__pz_build_poll(ctl, steps);
		if (rc)
			return rc;
	}
	return QUBO_OK;
}

/* Whether free cells a and b lie on one clique. */
static int on_clique(const struct lines *L, size_t nv, qubo_lit la, qubo_lit lb)
{
	size_t d;

	for (d = 0; d < L->ndir; d++) {
		uint32_t k = L->clique[d * nv + QUBO_LIT_VAR(la)];

		if (k != NO_CLIQUE && k == L->clique[d * nv + QUBO_LIT_VAR(lb)])
			return 1;
	}
	return 0;
}

int qubo__pz_cz_add_conflicts(const struct cz *z, const qubo_allocator *a, qubo_model *m,
			      const qubo_lit *lits, double weight, struct qubo__pz_ctl *ctl)
{
	size_t nv = qubo_model_num_variables(m), npairs = 0, i, k, d;
	struct qubo__pz_pairs pairs = { NULL, 0, 0 };
	uint32_t next = 0;
	struct lines L;
	int rc;

	/* The bound of qubo_penalty_conflicts over every conflict pair,
	 * those of cliques too (adj holds each pair twice). */
	if (!(weight * (double)z->adj_start[z->n] <= DBL_MAX)) {
		for (i = 0; i < z->n; i++)
			for (k = z->adj_start[i]; k < z->adj_start[i + 1]; k++)
				npairs += z->adj[k] > i && lits[i] != QUBO_LIT_FALSE &&
					  lits[z->adj[k]] != QUBO_LIT_FALSE;
		if ((rc = qubo__pz_conflict_sum_check(weight, npairs)))
			return rc;
	}
	memset(&L, 0, sizeof L);
	rc = find_dirs(&L, z, a, lits);
	if (rc)
		return rc;
	if (L.ndir) {
		L.clique = qubo__malloc_array(a, L.ndir * nv, sizeof *L.clique);
		L.cells = qubo__malloc_array(a, z->n, sizeof *L.cells);
		L.lits = qubo__malloc_array(a, z->n, sizeof *L.lits);
		if (!L.clique || !L.cells || !L.lits)
			rc = qubo__nomem("the model's terms");
		else
			memset(L.clique, 0xff, L.ndir * nv * sizeof *L.clique);
	}
	for (d = 0; d < L.ndir && !rc; d++)
		rc = add_cliques(&L, d, z, lits, m, weight, ctl, &next);
	qubo__free(a, L.cells);
	qubo__free(a, L.lits);
	/* the other pairs, each once (from its smaller cell) */
	for (i = 0; i < z->n && !rc; i++) {
		if (lits[i] == QUBO_LIT_FALSE)
			continue;
		rc = qubo__pz_build_poll(ctl, z->adj_start[i + 1] - z->adj_start[i]);
		for (k = z->adj_start[i]; k < z->adj_start[i + 1] && !rc; k++) {
			size_t b = z->adj[k];

			if (b < i || lits[b] == QUBO_LIT_FALSE ||
			    (L.ndir && !QUBO_LIT_IS_CONST(lits[i]) && !QUBO_LIT_IS_CONST(lits[b]) &&
			     on_clique(&L, nv, lits[i], lits[b])))
				continue;
			rc = qubo__pz_push_pair(a, &pairs, lits[i], lits[b]);
		}
	}
	qubo__free(a, L.clique);
	if (!rc)
		rc = qubo_penalty_conflicts(m, pairs.lits, pairs.n, weight);
	qubo__free(a, pairs.lits);
	return rc;
}
