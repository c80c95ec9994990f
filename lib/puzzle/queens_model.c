/*
 * The QUBO of a queens instance (struct qz, queens_impl.h) at the chosen
 * reduction level, and its ground energy.
 *
 * The model over literals (one per cell: a variable, or a constant for
 * off-board and fixed cells), weight P:
 *   rows and columns with a count r:     P (Σ x − r)²            (exactly)
 *   regions with q (t = 0):              P (Σ x − q)²            (exactly)
 *   regions with q or q+1 (t = 1):       P (Σ x − q)(Σ x − q − 1) (zero-based),
 *                                        or P (Σ x − q − ½)² (fractional),
 *                                        or P Σ_{a<b} x_a x_b when q = 0 and
 *                                        the pairwise form is chosen
 *   every conflicting pair a, b:         P x_a x_b, except pairs that share
 *                                        a row, column or region term
 *                                        allowing at most one queen
 *   at level NONE, each pre-placed queen P (1 − x)
 * Every term is 0 (P/4 for a fractional one) exactly when its rule holds
 * and at least P above otherwise, so the minimisers are the solutions.
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "queens_impl.h"

/* Nonzero when a and b share a constraint in the model that allows at most
 * one queen: its term already penalises both. */
static int share_tight(const struct qz *q, size_t a, size_t b)
{
	size_t i, j;

	for (i = q->memb_start[a]; i < q->memb_start[a + 1]; i++) {
		const struct qz_con *con = &q->con[q->memb[i]];

		if (con->hi > 1 || (con->kind == QZ_REGION && (int32_t)con->index == q->drop))
			continue;
		for (j = q->memb_start[b]; j < q->memb_start[b + 1]; j++)
			if (q->memb[j] == q->memb[i])
				return 1;
	}
	return 0;
}

/* Maps a penalty's infeasible status to a message naming the constraint. */
static int penalty_status(const struct qz *q, int rc, const struct qz_con *con)
{
	char name[48];

	if (rc != QUBO_ERR_INFEASIBLE)
		return rc;
	if (!con)
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: two pre-placed %ss attack each "
				   "other",
				   q->noun);
	qubo__pz_qz_con_name(q, con, name, sizeof name);
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: %s cannot hold "
			   "the %ss it needs",
			   name, q->noun);
}

/* Whether constraint con adds a fractional "k or k+1" term, whose
 * solutions have energy P/4 (and not 0). */
static int quarter_term(const struct qz *q, const struct qz_con *con)
{
	if (con->kind == QZ_REGION && (int32_t)con->index == q->drop)
		return 0;
	if (con->lo == con->hi ||
	    (con->lo == 0 && q->region_form == QUBO_PUZZLE_QUEENS_REGION_PAIRWISE))
		return 0;
	return q->kform == QUBO_K_OR_K1_FRACTIONAL;
}

/* The energy of a solution: P/4 for each fractional term. */
static double ground_energy(const struct qz *q, double P)
{
	double ground = 0.0;
	size_t k;

	for (k = 0; k < q->ncon; k++)
		if (quarter_term(q, &q->con[k]))
			ground += P / 4;
	return ground;
}

/* The count terms (and with `clues` the clue terms) through buf, which has
 * room for the largest constraint. */
static int add_count_terms(const struct qz *q, qubo_model *m, const qubo_lit *lits, qubo_lit *buf,
			   double P, int clues, struct qubo__pz_ctl *ctl)
{
	size_t i, k;
	int rc = QUBO_OK;

	for (i = 0; clues && i < q->n && !rc; i++)
		if (q->given[i])
			rc = qubo_penalty_exactly(m, &lits[i], 1, 1, P);
	for (k = 0; k < q->ncon && !rc; k++) {
		const struct qz_con *con = &q->con[k];

		if (con->kind == QZ_REGION && (int32_t)con->index == q->drop)
			continue;
		if ((rc = qubo__pz_build_poll(ctl, con->count)))
			break;
		for (i = 0; i < con->count; i++)
			buf[i] = lits[q->con_cells[con->start + i]];
		if (con->lo == con->hi)
			rc = qubo_penalty_exactly(m, buf, con->count, con->lo, P);
		else if (con->lo == 0 && q->region_form == QUBO_PUZZLE_QUEENS_REGION_PAIRWISE)
			rc = qubo_penalty_at_most_one(m, buf, con->count, P);
		else
			rc = qubo_penalty_k_or_k1(m, buf, con->count, con->lo, P, q->kform);
		rc = penalty_status(q, rc, con);
	}
	return rc;
}

/* Whether the pair (a, b) of the conflict graph needs its own term (each
 * pair counted once, from its smaller cell). */
static int conflict_term(const qubo_lit *lits, size_t a, size_t b)
{
	return b > a && lits[a] != QUBO_LIT_FALSE && lits[b] != QUBO_LIT_FALSE;
}

/*
 * Conflict lines. The line of a cell in direction d (N, NE, E or SE) is the
 * set of cells a walk in direction d meets from the line's first cell: a
 * segment of a flat board, or a cycle around a wrapped one. When every two
 * model cells of a line conflict (each reaches the rest of its line), no
 * two of them share a term of a constraint and no two share an earlier
 * line taken as a clique, the line's conflict terms P x_a x_b are exactly
 * one clique's (qubo_penalty_at_most_one), which the compile expands row
 * by row without sorting, instead of one single pair each. The model is
 * the same: each of these couplers has the one term P either way.
 */
struct qz_lines {
	uint32_t *id;	  /* 4 n: the line of each cell, per direction */
	uint8_t *clique;  /* 4 n: per line, taken as a clique */
	uint32_t *seen;	  /* 4 n: per line, the stamp of the line being checked */
	uint32_t *cstamp; /* per constraint, the same */
	uint32_t *cells;  /* n: one line's cells in walk order */
	qubo_lit *lits;	  /* n: its model cells' literals */
};

static void lines_free(const qubo_allocator *a, struct qz_lines *L)
{
	qubo__free(a, L->id);
	qubo__free(a, L->clique);
	qubo__free(a, L->seen);
	qubo__free(a, L->cstamp);
	qubo__free(a, L->cells);
	qubo__free(a, L->lits);
}

/* The cells of cell i's line in direction d, from its first cell, into
 * L->cells; returns their number. A step is one-to-one, so a walk back
 * from i reaches an edge or comes back to i (a cycle, which starts at i). */
static size_t line_cells(const struct qz *q, const struct qz_lines *L, size_t i, int d)
{
	uint32_t r = (uint32_t)(i / q->w), c = (uint32_t)(i % q->w);
	size_t s = i, len = 0;

	while (qz_step(q, d + 4, &r, &c)) {
		size_t x = (size_t)r * q->w + c;
		if (x == i)
			break;
		s = x;
	}
	r = (uint32_t)(s / q->w);
	c = (uint32_t)(s % q->w);
	L->cells[len++] = (uint32_t)s;
	while (qz_step(q, d, &r, &c) && (size_t)r * q->w + c != s)
		L->cells[len++] = (uint32_t)((size_t)r * q->w + c);
	return len;
}

/* Whether the pair (a, b) lies on a line taken as a clique. */
static int on_clique_line(const struct qz *q, const struct qz_lines *L, size_t a, size_t b)
{
	int d;

	for (d = 0; d < 4; d++) {
		uint32_t la = L->id[(size_t)d * q->n + a];
		if (la == L->id[(size_t)d * q->n + b] && L->clique[(size_t)d * q->n + la])
			return 1;
	}
	return 0;
}

/* Finds the lines, adds the terms of those that are cliques and marks
 * them in L->clique. */
static int add_line_cliques(const struct qz *q, qubo_model *m, const qubo_lit *lits, double P,
			    struct qz_lines *L, struct qubo__pz_ctl *ctl)
{
	uint32_t stamp = 0;
	size_t i, t, n = q->n;
	int d, rc;

	memset(L->id, 0xff, 4 * n * sizeof *L->id);
	for (d = 0; d < 4; d++) {
		uint32_t *id = L->id + (size_t)d * n, nl = 0;

		for (i = 0; i < n; i++) {
			size_t len, k = 0;
			int ok = 1;

			if (id[i] != UINT32_MAX)
				continue;
			len = line_cells(q, L, i, d);
			if ((rc = qubo__pz_build_poll(ctl, len)))
				return rc;
			stamp++;
			for (t = 0; t < len; t++) {
				size_t x = L->cells[t], j;
				int e;

				id[x] = nl;
				if (!ok || lits[x] == QUBO_LIT_FALSE)
					continue;
				if (lits[x] == QUBO_LIT_TRUE || qz_reach(q, x, d) < len - 1)
					ok = 0;
				for (j = q->memb_start[x]; j < q->memb_start[x + 1]; j++) {
					const struct qz_con *con = &q->con[q->memb[j]];
					if (con->kind == QZ_REGION && (int32_t)con->index == q->drop)
						continue;
					if (L->cstamp[q->memb[j]] == stamp)
						ok = 0;
					L->cstamp[q->memb[j]] = stamp;
				}
				for (e = 0; e < d; e++) {
					uint32_t l = L->id[(size_t)e * n + x];
					if (!L->clique[(size_t)e * n + l])
						continue;
					if (L->seen[(size_t)e * n + l] == stamp)
						ok = 0;
					L->seen[(size_t)e * n + l] = stamp;
				}
				L->lits[k++] = lits[x];
			}
			if (ok && k >= 2 && qubo__pz_clique_fits(P, k)) {
				L->clique[(size_t)d * n + nl] = 1;
				rc = qubo_penalty_at_most_one(m, L->lits, k, P);
				if (rc)
					return penalty_status(q, rc, NULL);
			}
			nl++;
		}
	}
	return QUBO_OK;
}

/* The number of conflict pairs (those of add_conflict_terms, clique lines
 * included). */
static size_t conflict_pairs(const struct qz *q, const qubo_lit *lits)
{
	size_t i, k, count = 0;

	for (i = 0; i < q->n; i++)
		for (k = q->adj_start[i]; k < q->adj_start[i + 1]; k++)
			count += conflict_term(lits, i, q->adj[k]) && !share_tight(q, i, q->adj[k]);
	return count;
}

/* The conflict terms, except for pairs whose shared tight constraint
 * already penalises them: the lines that are cliques, then the other
 * pairs. */
static int add_conflict_terms(const struct qz *q, const qubo_allocator *a, qubo_model *m,
			      const qubo_lit *lits, double P, struct qubo__pz_ctl *ctl)
{
	struct qz_lines L;
	struct qubo__pz_pairs pairs = { NULL, 0, 0 };
	size_t i, k;
	int rc;

	memset(&L, 0, sizeof L);
	L.id = qubo__malloc_array(a, 4 * q->n, sizeof *L.id);
	L.clique = qubo__calloc_array(a, 4 * q->n, sizeof *L.clique);
	L.seen = qubo__calloc_array(a, 4 * q->n, sizeof *L.seen);
	L.cstamp = qubo__calloc_array(a, q->ncon, sizeof *L.cstamp);
	L.cells = qubo__malloc_array(a, q->n, sizeof *L.cells);
	L.lits = qubo__malloc_array(a, q->n, sizeof *L.lits);
	if (!L.id || !L.clique || !L.seen || !L.cstamp || !L.cells || !L.lits) {
		lines_free(a, &L);
		return qubo__nomem("the model's terms");
	}
	/* qubo_penalty_conflicts bounds the sum of the weights of all its pairs:
	 * the same bound over every conflict pair, cliques or not, so that the
	 * same puzzles fail with the same error as if no line were a clique. */
	if (!(P * (double)q->adj_start[q->n] <= DBL_MAX) &&
	    (rc = qubo__pz_conflict_sum_check(P, conflict_pairs(q, lits)))) {
		lines_free(a, &L);
		return rc;
	}
	rc = add_line_cliques(q, m, lits, P, &L, ctl);
	/* the other pairs, in one pass (often there are none) */
	for (i = 0; i < q->n && !rc; i++) {
		rc = qubo__pz_build_poll(ctl, q->adj_start[i + 1] - q->adj_start[i]);
		for (k = q->adj_start[i]; k < q->adj_start[i + 1] && !rc; k++) {
			size_t b = q->adj[k];

			if (!conflict_term(lits, i, b) || on_clique_line(q, &L, i, b) ||
			    share_tight(q, i, b))
				continue;
			rc = qubo__pz_push_pair(a, &pairs, lits[i], lits[b]);
		}
	}
	lines_free(a, &L);
	if (!rc)
		rc = penalty_status(q, qubo_penalty_conflicts(m, pairs.lits, pairs.n, P), NULL);
	qubo__free(a, pairs.lits);
	return rc;
}

int qubo__pz_qz_build_model(const struct qz *q, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
			    double P, const int8_t *fixed, qubo_model **model_out, qubo_lit *lits,
			    double *ground_out)
{
	qubo_model *m = NULL;
	qubo_lit *buf;
	size_t nv = 0, i, k, maxcon = 0;
	int rc;

	for (i = 0; i < q->n; i++) {
		if (!q->on[i])
			lits[i] = QUBO_LIT_FALSE;
		else if (fixed && fixed[i] >= 0)
			lits[i] = fixed[i] ? QUBO_LIT_TRUE : QUBO_LIT_FALSE;
		else
			lits[i] = QUBO_LIT(nv++);
	}
	if (!model_out) { /* the cell map and the ground energy only */
		*ground_out = ground_energy(q, P);
		return QUBO_OK;
	}
	*model_out = NULL;
	for (k = 0; k < q->ncon; k++)
		if (q->con[k].count > maxcon)
			maxcon = q->con[k].count;
	rc = qubo_model_new(&m, nv, a);
	qubo__pz_build_watch(m, ctl);
	if (rc)
		return rc;
	buf = qubo__malloc_array(a, maxcon, sizeof *buf);
	if (!buf)
		rc = qubo__nomem("the model's terms");
	if (!rc)
		rc = add_count_terms(q, m, lits, buf, P, !fixed, ctl);
	qubo__free(a, buf);
	if (!rc)
		rc = add_conflict_terms(q, a, m, lits, P, ctl);
	if (!rc)
		rc = qubo_model_compile(m);
	if (rc) {
		qubo_model_free(m);
		return rc;
	}
	*model_out = m;
	*ground_out = ground_energy(q, P);
	return QUBO_OK;
}
