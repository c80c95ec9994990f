/*
 * Reduction of queens puzzles: cells whose value is the same in every
 * solution are fixed, so that the model needs variables for the other cells
 * only. Every rule below only fixes a cell to the value it has in every
 * solution (or proves that there is none), so the reduced model has exactly
 * the solutions of the puzzle (doc/formulations.md gives the proofs).
 *
 * A count constraint j (a row, column or region) needs lo_j ≤ Σ x ≤ hi_j
 * over its on-board cells; ones_j and free_j count its cells fixed to 1 and
 * not yet fixed.
 *
 * Level CLUES (the second paper's Prop. 2.1, generalised to counts above one): a
 * pre-placed queen is 1; every cell it attacks is 0; every other cell of a
 * constraint that its pre-placed queens already fill (their number equals
 * hi_j) is 0.
 *
 * Level FULL, to a fixpoint:
 *   COUNT   ones_j = hi_j: the free cells of j are 0;
 *           ones_j + free_j = lo_j: they are 1;
 *           ones_j > hi_j or ones_j + free_j < lo_j: no solution.
 *   ATTACK  a cell attacked by a cell fixed to 1 is 0 (both 1: no solution).
 *   SUBSET  when the free cells of A all belong to B, the free cells of B
 *           outside A hold between (lo_B − ones_B) − (hi_A − ones_A) and
 *           (hi_B − ones_B) − (lo_A − ones_A) queens: an upper bound of 0
 *           makes them 0, a lower bound equal to their number makes them 1,
 *           and bounds that cannot be met mean no solution. (A region inside
 *           one row, with one queen each, empties the rest of the row.)
 *   PROBE   a queen on free cell c would force to 0 every free cell it
 *           attacks and every other free cell of a constraint that c fills
 *           (hi_j − ones_j = 1). If some constraint is then left with fewer
 *           possible cells than it needs, c is 0.
 *
 * The family's exact search (the last section) is built on the same
 * propagation: it reduces at level FULL after every decision and branches
 * on a free cell of the tightest constraint.
 */
#include <stdio.h>
#include <string.h>

#include "queens_impl.h"

struct prop {
	const struct qz *q;
	const qubo_allocator *a;
	int8_t *val;
	int32_t *ones;	 /* per constraint */
	int32_t *freec;	 /* per constraint */
	uint8_t *queued; /* per constraint */
	uint32_t *cq;	 /* constraint stack */
	size_t ncq;
	uint32_t *oq; /* cells fixed to 1, their attacks not yet applied */
	size_t noq;
	uint32_t *stamp; /* per cell */
	uint32_t stamp_now;
	uint32_t *list;	   /* scratch list of cells */
	int32_t *hit;	   /* per constraint */
	uint32_t *touched; /* constraints with hits */
	size_t *counts;
	int changed;
	int quiet; /* a search's node: no messages */
	struct qubo__pz_ctl *ctl; /* a build's time limit and progress, or NULL */
};

static void cell_pos(const struct qz *q, size_t c, unsigned *r, unsigned *col)
{
	*r = (unsigned)(c / q->w) + 1;
	*col = (unsigned)(c % q->w) + 1;
}

/* "1 queen", "2 queens", "1 or 2 queens". */
static void needs_text(const struct qz *q, const struct qz_con *con, char *buf, size_t cap)
{
	if (con->lo == con->hi)
		snprintf(buf, cap, "%d %s%s", (int)con->lo, q->noun, con->lo == 1 ? "" : "s");
	else
		snprintf(buf, cap, "%d or %d %ss", (int)con->lo, (int)con->hi, q->noun);
}

static int infeasible_con(const struct prop *p, uint32_t j)
{
	const struct qz *q = p->q;
	const struct qz_con *con = &q->con[j];
	char name[48], need[32];

	if (p->quiet)
		return QUBO_ERR_INFEASIBLE;
	qubo__pz_qz_con_name(q, con, name, sizeof name);
	needs_text(q, con, need, sizeof need);
	if (p->ones[j] > con->hi)
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: %s needs %s, but the "
				   "reduction forces %d there",
				   name, need, (int)p->ones[j]);
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: %s needs %s, but at most %d of "
			   "its cells can hold one",
			   name, need, (int)(p->ones[j] + p->freec[j]));
}

static int fix(struct prop *p, size_t c, int v, int rule)
{
	const struct qz *q = p->q;
	size_t k;

	if (p->val[c] == v)
		return QUBO_OK;
	if (p->val[c] >= 0) {
		unsigned r, col;

		if (p->quiet)
			return QUBO_ERR_INFEASIBLE;
		cell_pos(q, c, &r, &col);
		return qubo__error_cell(QUBO_ERR_INFEASIBLE, r, col,
					"the puzzle has no solution: the reduction finds that the "
					"cell at row %u, column %u can neither hold a %s nor stay "
					"empty",
					r, col, q->noun);
	}
	p->val[c] = (int8_t)v;
	p->changed = 1;
	if (p->counts)
		p->counts[rule]++;
	for (k = q->memb_start[c]; k < q->memb_start[c + 1]; k++) {
		uint32_t j = q->memb[k];

		p->freec[j]--;
		p->ones[j] += v;
		if (!p->queued[j]) {
			p->queued[j] = 1;
			p->cq[p->ncq++] = j;
		}
	}
	if (v)
		p->oq[p->noq++] = (uint32_t)c;
	return QUBO_OK;
}

/* Fixes the free cells of constraint j (except those marked with the
 * current stamp) to v. */
static int fix_free_of(struct prop *p, uint32_t j, int v, int rule, int skip_marked)
{
	const struct qz_con *con = &p->q->con[j];
	size_t i;
	int rc;

	for (i = con->start; i < con->start + con->count; i++) {
		uint32_t c = p->q->con_cells[i];

		if (p->val[c] >= 0 || (skip_marked && p->stamp[c] == p->stamp_now))
			continue;
		if ((rc = fix(p, c, v, rule)))
			return rc;
	}
	return QUBO_OK;
}

static int count_rule(struct prop *p, uint32_t j)
{
	const struct qz_con *con = &p->q->con[j];

	if (p->ones[j] > con->hi || p->ones[j] + p->freec[j] < con->lo)
		return infeasible_con(p, j);
	if (p->freec[j] == 0)
		return QUBO_OK;
	if (p->ones[j] == con->hi)
		return fix_free_of(p, j, 0, QZ_RULE_COUNT, 0);
	if (p->ones[j] + p->freec[j] == con->lo)
		return fix_free_of(p, j, 1, QZ_RULE_COUNT, 0);
	return QUBO_OK;
}

static int attack_rule(struct prop *p, size_t c)
{
	const struct qz *q = p->q;
	size_t k;
	int rc;

	for (k = q->adj_start[c]; k < q->adj_start[c + 1]; k++) {
		uint32_t b = q->adj[k];

		if (p->val[b] == 1) {
			unsigned r1, c1, r2, c2;

			if (p->quiet)
				return QUBO_ERR_INFEASIBLE;
			cell_pos(q, c, &r1, &c1);
			cell_pos(q, b, &r2, &c2);
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: the %ss the reduction "
					   "forces at row %u, column %u and row %u, column %u "
					   "attack each other",
					   q->noun, r1, c1, r2, c2);
		}
		if (p->val[b] < 0 && (rc = fix(p, b, 0, QZ_RULE_ATTACK)))
			return rc;
	}
	return QUBO_OK;
}

/* Runs COUNT and ATTACK until nothing is queued. */
static int drain(struct prop *p)
{
	int rc;

	while (p->ncq || p->noq) {
		if (p->noq) {
			if ((rc = attack_rule(p, p->oq[--p->noq])))
				return rc;
			continue;
		}
		{
			uint32_t j = p->cq[--p->ncq];

			p->queued[j] = 0;
			if ((rc = count_rule(p, j)))
				return rc;
		}
	}
	return QUBO_OK;
}

static void next_stamp(struct prop *p)
{
	if (++p->stamp_now == 0) {
		memset(p->stamp, 0, p->q->n * sizeof *p->stamp);
		p->stamp_now = 1;
	}
}

/* Nonzero when every free cell of A is in constraint B. */
static int free_subset(const struct prop *p, uint32_t A, uint32_t B)
{
	const struct qz *q = p->q;
	const struct qz_con *ca = &q->con[A];
	size_t i, k;

	for (i = ca->start; i < ca->start + ca->count; i++) {
		uint32_t c = q->con_cells[i];
		int in = 0;

		if (p->val[c] >= 0)
			continue;
		for (k = q->memb_start[c]; k < q->memb_start[c + 1] && !in; k++)
			in = q->memb[k] == B;
		if (!in)
			return 0;
	}
	return 1;
}

static int subset_rule(struct prop *p)
{
	const struct qz *q = p->q;
	uint32_t A;
	int rc;

	for (A = 0; A < q->ncon; A++) {
		const struct qz_con *ca = &q->con[A];
		size_t i, k;
		uint32_t first = UINT32_MAX;

		if ((rc = qubo__pz_build_poll(p->ctl, ca->count)))
			return rc;
		if (p->freec[A] == 0)
			continue;
		for (i = ca->start; i < ca->start + ca->count && first == UINT32_MAX; i++)
			if (p->val[q->con_cells[i]] < 0)
				first = q->con_cells[i];
		for (k = q->memb_start[first]; k < q->memb_start[first + 1]; k++) {
			uint32_t B = q->memb[k];
			const struct qz_con *cb = &q->con[B];
			int64_t loA, hiA, loB, hiB, diff, maxBA, minBA;

			if (B == A || p->freec[B] < p->freec[A] || !free_subset(p, A, B))
				continue;
			loA = (int64_t)ca->lo - p->ones[A];
			hiA = (int64_t)ca->hi - p->ones[A];
			loB = (int64_t)cb->lo - p->ones[B];
			hiB = (int64_t)cb->hi - p->ones[B];
			diff = p->freec[B] - p->freec[A];
			maxBA = hiB - loA;
			minBA = loB - hiA;
			if (maxBA < 0 || minBA > diff) {
				char na[48], nb[48];

				if (p->quiet)
					return QUBO_ERR_INFEASIBLE;
				qubo__pz_qz_con_name(q, ca, na, sizeof na);
				qubo__pz_qz_con_name(q, cb, nb, sizeof nb);
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: the cells left "
						   "for %s all lie in %s, and their counts "
						   "cannot both be met",
						   na, nb);
			}
			if (diff == 0 || (maxBA > 0 && minBA < diff))
				continue;
			next_stamp(p);
			for (i = ca->start; i < ca->start + ca->count; i++)
				p->stamp[q->con_cells[i]] = p->stamp_now;
			rc = fix_free_of(p, B, maxBA == 0 ? 0 : 1, QZ_RULE_SUBSET, 1);
			if (rc)
				return rc;
			if ((rc = drain(p)))
				return rc;
		}
	}
	return QUBO_OK;
}

static int probe_rule(struct prop *p)
{
	const struct qz *q = p->q;
	size_t c;
	int rc;

	for (c = 0; c < q->n; c++) {
		size_t nlist = 0, ntouched = 0, i, k, m;
		int dead = 0;

		if ((rc = qubo__pz_build_poll(p->ctl, q->adj_start[c + 1] - q->adj_start[c])))
			return rc;
		if (p->val[c] >= 0)
			continue;
		next_stamp(p);
		p->stamp[c] = p->stamp_now;
		/* the cells a queen on c would force to 0 */
		for (k = q->adj_start[c]; k < q->adj_start[c + 1]; k++) {
			uint32_t b = q->adj[k];

			if (p->val[b] < 0 && p->stamp[b] != p->stamp_now) {
				p->stamp[b] = p->stamp_now;
				p->list[nlist++] = b;
			}
		}
		for (k = q->memb_start[c]; k < q->memb_start[c + 1]; k++) {
			uint32_t j = q->memb[k];
			const struct qz_con *con = &q->con[j];

			if (con->hi - p->ones[j] != 1)
				continue;
			for (i = con->start; i < con->start + con->count; i++) {
				uint32_t b = q->con_cells[i];

				if (p->val[b] < 0 && p->stamp[b] != p->stamp_now) {
					p->stamp[b] = p->stamp_now;
					p->list[nlist++] = b;
				}
			}
		}
		/* how many cells each constraint loses */
		for (i = 0; i < nlist; i++) {
			uint32_t b = p->list[i];

			for (k = q->memb_start[b]; k < q->memb_start[b + 1]; k++) {
				uint32_t j = q->memb[k];

				if (p->hit[j]++ == 0)
					p->touched[ntouched++] = j;
			}
		}
		for (k = q->memb_start[c]; k < q->memb_start[c + 1]; k++) {
			uint32_t j = q->memb[k];

			if (p->hit[j] == 0) {
				p->touched[ntouched++] = j;
				p->hit[j] = 0; /* listed with no hits */
			}
		}
		for (m = 0; m < ntouched && !dead; m++) {
			uint32_t j = p->touched[m];
			int inc = 0;
			int64_t avail, need;

			for (k = q->memb_start[c]; k < q->memb_start[c + 1]; k++)
				inc |= q->memb[k] == j;
			avail = (int64_t)p->freec[j] - p->hit[j] - inc;
			need = (int64_t)q->con[j].lo - p->ones[j] - inc;
			if (avail < need)
				dead = 1;
		}
		for (m = 0; m < ntouched; m++)
			p->hit[p->touched[m]] = 0;
		if (dead) {
			if ((rc = fix(p, c, 0, QZ_RULE_PROBE)) || (rc = drain(p)))
				return rc;
		}
	}
	return QUBO_OK;
}

/* Contradictions among the pre-placed queens themselves, reported in their
 * own words before any propagation. */
static int check_clues(const struct prop *p)
{
	const struct qz *q = p->q;
	size_t j, i, k;
	char name[48], need[32];

	for (j = 0; j < q->ncon; j++) {
		const struct qz_con *con = &q->con[j];
		int64_t g = 0;

		for (i = con->start; i < con->start + con->count; i++)
			g += q->given[q->con_cells[i]];
		if (g <= con->hi && (int64_t)con->count >= con->lo)
			continue; /* the common case: no message to write */
		if (p->quiet)
			return QUBO_ERR_INFEASIBLE;
		qubo__pz_qz_con_name(q, con, name, sizeof name);
		needs_text(q, con, need, sizeof need);
		if (g > con->hi)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: %s has %lld pre-placed "
					   "%ss, needs %s",
					   name, (long long)g, q->noun, need);
		if (con->count == 0 && con->lo > 0)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: %s has no cells on the "
					   "board, needs %s",
					   name, need);
		if ((int64_t)con->count < con->lo)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: %s has only %zu cell%s on "
					   "the board, needs %s",
					   name, con->count, con->count == 1 ? "" : "s", need);
	}
	for (i = 0; i < q->n; i++) {
		if (!q->given[i])
			continue;
		for (k = q->adj_start[i]; k < q->adj_start[i + 1]; k++) {
			uint32_t b = q->adj[k];
			unsigned r1, c1, r2, c2;

			if (b < i || !q->given[b])
				continue;
			if (p->quiet)
				return QUBO_ERR_INFEASIBLE;
			cell_pos(q, i, &r1, &c1);
			cell_pos(q, b, &r2, &c2);
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: the pre-placed %ss at "
					   "row %u, column %u and row %u, column %u attack each "
					   "other",
					   q->noun, r1, c1, r2, c2);
		}
	}
	return QUBO_OK;
}

static void clues_only(const struct qz *q, int8_t *val)
{
	size_t i, j, k;

	for (i = 0; i < q->n; i++)
		if (q->given[i])
			val[i] = 1;
	for (i = 0; i < q->n; i++) {
		if (!q->given[i])
			continue;
		for (k = q->adj_start[i]; k < q->adj_start[i + 1]; k++)
			if (val[q->adj[k]] < 0)
				val[q->adj[k]] = 0;
	}
	for (j = 0; j < q->ncon; j++) {
		const struct qz_con *con = &q->con[j];
		int64_t g = 0;

		for (i = con->start; i < con->start + con->count; i++)
			g += q->given[q->con_cells[i]];
		if (g != con->hi)
			continue;
		for (i = con->start; i < con->start + con->count; i++)
			if (val[q->con_cells[i]] < 0)
				val[q->con_cells[i]] = 0;
	}
}

/* The work space of a propagation, reused by every node of a search. */
struct qubo__pz_qz_ws {
	struct prop p;
};

void qubo__pz_qz_ws_free(const qubo_allocator *a, struct qubo__pz_qz_ws *ws)
{
	if (!ws)
		return;
	qubo__free(a, ws->p.ones);
	qubo__free(a, ws->p.freec);
	qubo__free(a, ws->p.queued);
	qubo__free(a, ws->p.cq);
	qubo__free(a, ws->p.oq);
	qubo__free(a, ws->p.stamp);
	qubo__free(a, ws->p.list);
	qubo__free(a, ws->p.hit);
	qubo__free(a, ws->p.touched);
	qubo__free(a, ws);
}

int qubo__pz_qz_ws_new(const struct qz *q, const qubo_allocator *a, struct qubo__pz_qz_ws **out)
{
	struct qubo__pz_qz_ws *ws = qubo__calloc_array(a, 1, sizeof *ws);
	struct prop *p;

	*out = NULL;
	if (!ws)
		return qubo__nomem("the reduction's work space");
	p = &ws->p;
	p->q = q;
	p->a = a;
	p->ones = qubo__calloc_array(a, q->ncon, sizeof *p->ones);
	p->freec = qubo__malloc_array(a, q->ncon, sizeof *p->freec);
	p->queued = qubo__calloc_array(a, q->ncon, 1);
	p->cq = qubo__malloc_array(a, q->ncon, sizeof *p->cq);
	p->oq = qubo__malloc_array(a, q->n, sizeof *p->oq);
	p->stamp = qubo__calloc_array(a, q->n, sizeof *p->stamp);
	p->list = qubo__malloc_array(a, q->n, sizeof *p->list);
	p->hit = qubo__calloc_array(a, q->ncon, sizeof *p->hit);
	p->touched = qubo__malloc_array(a, q->ncon, sizeof *p->touched);
	if (!p->ones || !p->freec || !p->queued || !p->cq || !p->oq || !p->stamp || !p->list ||
	    !p->hit || !p->touched) {
		qubo__pz_qz_ws_free(a, ws);
		return qubo__nomem("the reduction's work space");
	}
	*out = ws;
	return QUBO_OK;
}

int qubo__pz_qz_propagate_ws(struct qubo__pz_qz_ws *ws, int32_t level, int8_t *val,
			     const int8_t *decided, int quiet, size_t counts[QZ_NUM_RULES])
{
	struct prop *p = &ws->p;
	const struct qz *q = p->q;
	size_t i;
	int rc;

	p->val = val;
	p->counts = counts;
	p->quiet = quiet;
	p->ncq = 0;
	p->noq = 0;
	p->changed = 0;
	if (counts)
		memset(counts, 0, QZ_NUM_RULES * sizeof *counts);
	for (i = 0; i < q->n; i++)
		val[i] = q->on[i] ? -1 : 0;
	rc = check_clues(p);
	if (rc)
		return rc;
	if (level == QUBO_REDUCE_CLUES && !decided) {
		clues_only(q, val);
		return QUBO_OK;
	}
	for (i = 0; i < q->ncon; i++) {
		p->ones[i] = 0;
		p->freec[i] = (int32_t)q->con[i].count;
		p->queued[i] = 1;
		p->cq[p->ncq++] = (uint32_t)i;
	}
	for (i = 0; i < q->n && !rc; i++)
		if (q->given[i])
			rc = fix(p, i, 1, QZ_RULE_CLUE);
	/* the caller's decisions: a queen on an off-board cell, or a decision
	 * against a clue, is a contradiction */
	for (i = 0; decided && i < q->n && !rc; i++) {
		if (decided[i] < 0)
			continue;
		if (!q->on[i] && decided[i] == 1)
			rc = QUBO_ERR_INFEASIBLE;
		else if (q->on[i])
			rc = fix(p, i, decided[i], QZ_RULE_CLUE);
	}
	while (!rc) {
		rc = drain(p);
		if (rc)
			break;
		p->changed = 0;
		rc = subset_rule(p);
		if (rc || p->changed)
			continue;
		rc = probe_rule(p);
		if (rc || !p->changed)
			break;
	}
	return rc;
}

size_t qubo__pz_qz_branch_ws(const struct qubo__pz_qz_ws *ws, const int8_t *val)
{
	const struct prop *p = &ws->p;
	const struct qz *q = p->q;
	size_t j, i, best = SIZE_MAX, best_j = 0;

	/* the first free cell of the constraint with the fewest free cells
	 * (rows, then columns, then regions on ties) */
	for (j = 0; j < q->ncon; j++) {
		size_t f = (size_t)p->freec[j];

		if (f && f < best) {
			best = f;
			best_j = j;
		}
	}
	if (best != SIZE_MAX) {
		const struct qz_con *con = &q->con[best_j];

		for (i = con->start; i < con->start + con->count; i++)
			if (val[q->con_cells[i]] < 0)
				return q->con_cells[i];
	}
	/* free cells outside every constraint */
	for (i = 0; i < q->n; i++)
		if (val[i] < 0)
			return i;
	return 0;
}

int qubo__pz_qz_propagate(const struct qz *q, const qubo_allocator *a, int32_t level, int8_t *val,
			  size_t counts[QZ_NUM_RULES], struct qubo__pz_ctl *ctl)
{
	struct qubo__pz_qz_ws *ws;
	int rc = qubo__pz_qz_ws_new(q, a, &ws);

	if (rc)
		return rc;
	ws->p.ctl = ctl;
	rc = qubo__pz_qz_propagate_ws(ws, level, val, NULL, 0, counts);
	qubo__pz_qz_ws_free(a, ws);
	return rc;
}

/* ---- the exact search: propagate, branch on a cell, repeat ---- */

/* A search's work space: the propagation's, and the decisions' copy. */
struct qz_search {
	struct qubo__pz_qz_ws *ws;
	int8_t *decided;
};

static void qz_ws_free(const qubo_puzzle *p, void *ws)
{
	struct qz_search *s = ws;

	if (!s)
		return;
	qubo__pz_qz_ws_free(&p->alloc, s->ws);
	qubo__free(&p->alloc, s->decided);
	qubo__free(&p->alloc, s);
}

static int qz_ws_new(const qubo_puzzle *p, void **out)
{
	const struct qz *q = p->data;
	struct qz_search *s = qubo__calloc_array(&p->alloc, 1, sizeof *s);
	int rc;

	*out = NULL;
	if (!s)
		return qubo__nomem("the search's work space");
	s->decided = qubo__malloc_array(&p->alloc, q->n, 1);
	if (!s->decided) {
		qz_ws_free(p, s);
		return qubo__nomem("the search's work space");
	}
	rc = qubo__pz_qz_ws_new(q, &p->alloc, &s->ws);
	if (rc) {
		qz_ws_free(p, s);
		return rc;
	}
	*out = s;
	return QUBO_OK;
}

static int qz_search_propagate(const qubo_puzzle *p, void *ws, int8_t *val)
{
	const struct qz *q = p->data;
	struct qz_search *s = ws;

	memcpy(s->decided, val, q->n);
	return qubo__pz_qz_propagate_ws(s->ws, QUBO_REDUCE_FULL, val, s->decided, 1, NULL);
}

static size_t qz_search_branch(const qubo_puzzle *p, void *ws, const int8_t *val)
{
	const struct qz_search *s = ws;

	(void)p;
	return qubo__pz_qz_branch_ws(s->ws, val);
}

const struct qubo__pz_search_ops qubo__pz_qz_search_ops = {
	qz_ws_new, qz_ws_free, qz_search_propagate, qz_search_branch, NULL,
};
