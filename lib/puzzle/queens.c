/*
 * The queens family: LinkedIn Queens, Star Battle, N-Queens and generalised
 * queens (seeds/003 §2). Every instance is a struct qz (queens_impl.h):
 * this file checks and copies a spec, derives the count constraints and the
 * conflict graph, builds the exact QUBO at the chosen reduction level, and
 * holds the rule checker. Propagation is in queens_reduce.c, the text forms
 * in queens_text.c.
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
#include <stdio.h>
#include <string.h>

#include "queens_impl.h"

const int qubo__pz_qz_dr[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
const int qubo__pz_qz_dc[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

/* Walk steps the conflict graph may take before the board counts as too
 * large (about a second of work and a few hundred MB at most). */
#define QZ_MAX_WALK ((uint64_t)1 << 27)

int qubo__pz_qz_step(const struct qz *q, int d, uint32_t *r, uint32_t *c)
{
	int64_t nr = (int64_t)*r + qubo__pz_qz_dr[d];
	int64_t nc = (int64_t)*c + qubo__pz_qz_dc[d];

	if (q->wrap != QUBO_QUEENS_PLANE) {
		nc = (nc + q->w) % q->w;
		if (q->wrap == QUBO_QUEENS_TORUS)
			nr = (nr + q->h) % q->h;
	}
	if (nr < 0 || nr >= q->h || nc < 0 || nc >= q->w)
		return 0;
	*r = (uint32_t)nr;
	*c = (uint32_t)nc;
	return 1;
}

void qubo__pz_qz_con_name(const struct qz *q, const struct qz_con *con, char *buf, size_t cap)
{
	if (con->kind == QZ_ROW)
		snprintf(buf, cap, "row %u", (unsigned)con->index + 1);
	else if (con->kind == QZ_COL)
		snprintf(buf, cap, "column %u", (unsigned)con->index + 1);
	else if (q->kind == QZ_QUEENS)
		snprintf(buf, cap, "region %c", 'a' + (int)con->index);
	else
		snprintf(buf, cap, "region %u", (unsigned)con->index + 1);
}

static void qz_destroy(const qubo_allocator *a, void *data)
{
	struct qz *q = data;

	qubo__pz_free(a, q->on);
	qubo__pz_free(a, q->given);
	qubo__pz_free(a, q->row_cnt);
	qubo__pz_free(a, q->col_cnt);
	qubo__pz_free(a, q->reg_start);
	qubo__pz_free(a, q->reg_cells);
	qubo__pz_free(a, q->reg_q);
	qubo__pz_free(a, q->reg_t);
	qubo__pz_free(a, q->cell_reach);
	qubo__pz_free(a, q->con);
	qubo__pz_free(a, q->con_cells);
	qubo__pz_free(a, q->memb_start);
	qubo__pz_free(a, q->memb);
	qubo__pz_free(a, q->adj_start);
	qubo__pz_free(a, q->adj);
	qubo__pz_free(a, q);
}

/* ---- checking and copying a spec ---- */

static int check_counts(const int32_t *counts, uint32_t len, const char *what, const char *fn)
{
	uint32_t i;

	for (i = 0; counts && i < len; i++)
		if (counts[i] < QUBO_QUEENS_ANY)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.%s[%u] is %d, expected a count >= 0 or "
					      "QUBO_QUEENS_ANY (-1)",
					      fn, what, (unsigned)i, (int)counts[i]);
	return QUBO_OK;
}

static int check_spec(const qubo_puzzle_queens_spec *s, const char *fn)
{
	size_t n, k, i;
	int rc;

	rc = qubo__pz_check_struct(s, s->struct_size, sizeof *s, sizeof *s,
				   "qubo_puzzle_queens_spec", fn);
	if (rc)
		return rc;
	rc = qubo__pz_check_board(s->width, s->height, fn);
	if (rc)
		return rc;
	n = (size_t)s->width * s->height;
	if ((rc = check_counts(s->row_counts, s->height, "row_counts", fn)) ||
	    (rc = check_counts(s->col_counts, s->width, "col_counts", fn)))
		return rc;
	if (s->num_regions) {
		if (!s->region_start || !s->region_counts)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.num_regions is %zu but spec.%s is NULL", fn,
					      s->num_regions,
					      s->region_start ? "region_counts" : "region_start");
		if (s->num_regions > n * 64 + 1024)
			return qubo__pz_error(
				QUBO_ERR_TOO_LARGE,
				"%s: spec.num_regions is %zu, at most %zu for this board", fn,
				s->num_regions, n * 64 + 1024);
		if (s->region_start[0] != 0)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.region_start[0] is %zu, expected 0", fn,
					      s->region_start[0]);
		for (k = 0; k < s->num_regions; k++) {
			if (s->region_start[k + 1] < s->region_start[k])
				return qubo__pz_error(QUBO_ERR_INVALID_ARG,
						      "%s: spec.region_start[%zu] = %zu is below "
						      "region_start[%zu] = %zu",
						      fn, k + 1, s->region_start[k + 1], k,
						      s->region_start[k]);
			if (s->region_start[k + 1] - s->region_start[k] > n)
				return qubo__pz_error(
					QUBO_ERR_INVALID_ARG,
					"%s: region %zu lists %zu cells, the board has "
					"%zu",
					fn, k + 1, s->region_start[k + 1] - s->region_start[k], n);
			if (s->region_counts[k] < 0)
				return qubo__pz_error(
					QUBO_ERR_INVALID_ARG,
					"%s: spec.region_counts[%zu] is %d, expected a "
					"count >= 0",
					fn, k, (int)s->region_counts[k]);
			if (s->region_plus_one && s->region_plus_one[k] != 0 &&
			    s->region_plus_one[k] != 1)
				return qubo__pz_error(
					QUBO_ERR_INVALID_ARG,
					"%s: spec.region_plus_one[%zu] is %d, expected "
					"0 or 1",
					fn, k, (int)s->region_plus_one[k]);
			if (s->region_counts[k] == INT32_MAX && s->region_plus_one &&
			    s->region_plus_one[k])
				return qubo__pz_error(QUBO_ERR_INVALID_ARG,
						      "%s: region %zu needs %d or one more queens",
						      fn, k + 1, (int)INT32_MAX);
		}
		if (s->region_start[s->num_regions] && !s->region_cells)
			return qubo__pz_error(
				QUBO_ERR_INVALID_ARG,
				"%s: the regions list %zu cells but spec.region_cells "
				"is NULL",
				fn, s->region_start[s->num_regions]);
		for (i = 0; i < s->region_start[s->num_regions]; i++)
			if (s->region_cells[i] >= n)
				return qubo__pz_error(
					QUBO_ERR_INVALID_ARG,
					"%s: spec.region_cells[%zu] is %u, the board has "
					"%zu cells",
					fn, i, (unsigned)s->region_cells[i], n);
	}
	if (s->wrap < QUBO_QUEENS_PLANE || s->wrap > QUBO_QUEENS_TORUS)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.wrap is %d, expected 0 (plane), 1 (cylinder) or 2 "
				      "(torus)",
				      fn, (int)s->wrap);
	if (s->region_form != QUBO_QUEENS_REGION_COUNT &&
	    s->region_form != QUBO_QUEENS_REGION_PAIRWISE)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.region_form is %d, expected 0 or 1", fn,
				      (int)s->region_form);
	if (s->k_or_k1_form != QUBO_K_OR_K1_ZERO_BASED &&
	    s->k_or_k1_form != QUBO_K_OR_K1_FRACTIONAL)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.k_or_k1_form is %d, expected 0 (zero-based) or 1 "
				      "(fractional)",
				      fn, (int)s->k_or_k1_form);
	if (s->num_queens && !s->queens)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.num_queens is %zu but spec.queens is NULL", fn,
				      s->num_queens);
	if (s->num_queens > n)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.num_queens is %zu, the board has %zu cells", fn,
				      s->num_queens, n);
	for (i = 0; i < s->num_queens; i++) {
		uint32_t c = s->queens[i];

		if (c >= n)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.queens[%zu] is %u, the board has %zu cells",
					      fn, i, (unsigned)c, n);
		if (s->off_board && s->off_board[c])
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.queens[%zu] (row %u, column %u) is not on "
					      "the board",
					      fn, i, (unsigned)(c / s->width) + 1,
					      (unsigned)(c % s->width) + 1);
	}
	return QUBO_OK;
}

/* Copies the spec into q (all arrays through the allocator). */
static int copy_spec(struct qz *q, const qubo_allocator *a, const qubo_puzzle_queens_spec *s,
		     const char *fn)
{
	size_t n = q->n, k, i, total = 0;

	q->on = qubo__pz_alloc(a, n, 1);
	q->given = qubo__pz_zalloc(a, n, 1);
	q->row_cnt = qubo__pz_alloc(a, q->h, sizeof *q->row_cnt);
	q->col_cnt = qubo__pz_alloc(a, q->w, sizeof *q->col_cnt);
	q->reg_start = qubo__pz_alloc(a, s->num_regions + 1, sizeof *q->reg_start);
	q->reg_q = qubo__pz_alloc(a, s->num_regions, sizeof *q->reg_q);
	q->reg_t = qubo__pz_alloc(a, s->num_regions, sizeof *q->reg_t);
	if (s->num_regions)
		total = s->region_start[s->num_regions];
	q->reg_cells = qubo__pz_alloc(a, total, sizeof *q->reg_cells);
	if (s->cell_reach)
		q->cell_reach = qubo__pz_alloc(a, n, 8 * sizeof *q->cell_reach);
	if (!q->on || !q->given || !q->row_cnt || !q->col_cnt || !q->reg_start || !q->reg_q ||
	    !q->reg_t || !q->reg_cells || (s->cell_reach && !q->cell_reach))
		return qubo__pz_nomem("the queens instance");
	for (i = 0; i < n; i++)
		q->on[i] = !(s->off_board && s->off_board[i]);
	for (i = 0; i < q->h; i++)
		q->row_cnt[i] = s->row_counts ? s->row_counts[i] : QUBO_QUEENS_ANY;
	for (i = 0; i < q->w; i++)
		q->col_cnt[i] = s->col_counts ? s->col_counts[i] : QUBO_QUEENS_ANY;
	memcpy(q->reach, s->reach, sizeof q->reach);
	if (s->cell_reach)
		memcpy(q->cell_reach, s->cell_reach, n * 8 * sizeof *q->cell_reach);
	q->wrap = s->wrap;
	q->region_form = s->region_form;
	q->kform = s->k_or_k1_form;
	q->drop = -1;

	/* Regions keep their on-board cells; a cell listed twice is an error. */
	q->nreg = s->num_regions;
	q->reg_start[0] = 0;
	total = 0;
	for (k = 0; k < s->num_regions; k++) {
		for (i = s->region_start[k]; i < s->region_start[k + 1]; i++) {
			uint32_t c = s->region_cells[i];

			if (q->given[c] & 2) {
				size_t j;

				for (j = q->reg_start[k]; j < total; j++)
					q->given[q->reg_cells[j]] &= 1;
				return qubo__pz_error(
					QUBO_ERR_INVALID_ARG,
					"%s: region %zu lists cell %u (row %u, column "
					"%u) twice",
					fn, k + 1, (unsigned)c, (unsigned)(c / q->w) + 1,
					(unsigned)(c % q->w) + 1);
			}
			if (q->on[c]) {
				q->given[c] |= 2; /* scratch mark: listed in region k */
				q->reg_cells[total++] = c;
			}
		}
		for (i = q->reg_start[k]; i < total; i++)
			q->given[q->reg_cells[i]] &= 1;
		q->reg_start[k + 1] = total;
		q->reg_q[k] = s->region_counts[k];
		q->reg_t[k] = s->region_plus_one ? s->region_plus_one[k] : 0;
	}
	for (i = 0; i < s->num_queens; i++) {
		uint32_t c = s->queens[i];

		if (q->given[c])
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.queens lists cell %u (row %u, column %u) "
					      "twice",
					      fn, (unsigned)c, (unsigned)(c / q->w) + 1,
					      (unsigned)(c % q->w) + 1);
		q->given[c] = 1;
	}
	q->ngiven = s->num_queens;
	return QUBO_OK;
}

/* ---- derived structures ---- */

/* The count constraints and each cell's memberships. */
static int build_constraints(struct qz *q, const qubo_allocator *a)
{
	size_t ncon = 0, ncells = 0, i, k, r, c;
	struct qz_con *con;

	for (r = 0; r < q->h; r++)
		if (q->row_cnt[r] >= 0) {
			ncon++;
			for (c = 0; c < q->w; c++)
				ncells += q->on[r * q->w + c];
		}
	for (c = 0; c < q->w; c++)
		if (q->col_cnt[c] >= 0) {
			ncon++;
			for (r = 0; r < q->h; r++)
				ncells += q->on[r * q->w + c];
		}
	ncon += q->nreg;
	ncells += q->reg_start[q->nreg];
	q->con = qubo__pz_alloc(a, ncon, sizeof *q->con);
	q->con_cells = qubo__pz_alloc(a, ncells, sizeof *q->con_cells);
	q->memb_start = qubo__pz_zalloc(a, q->n + 1, sizeof *q->memb_start);
	q->memb = qubo__pz_alloc(a, ncells, sizeof *q->memb);
	if (!q->con || !q->con_cells || !q->memb_start || !q->memb)
		return qubo__pz_nomem("the queens constraints");
	con = q->con;
	ncon = ncells = 0;
	for (r = 0; r < q->h; r++) {
		if (q->row_cnt[r] < 0)
			continue;
		con[ncon].kind = QZ_ROW;
		con[ncon].index = (uint32_t)r;
		con[ncon].lo = con[ncon].hi = q->row_cnt[r];
		con[ncon].start = ncells;
		for (c = 0; c < q->w; c++)
			if (q->on[r * q->w + c])
				q->con_cells[ncells++] = (uint32_t)(r * q->w + c);
		con[ncon].count = ncells - con[ncon].start;
		ncon++;
	}
	for (c = 0; c < q->w; c++) {
		if (q->col_cnt[c] < 0)
			continue;
		con[ncon].kind = QZ_COL;
		con[ncon].index = (uint32_t)c;
		con[ncon].lo = con[ncon].hi = q->col_cnt[c];
		con[ncon].start = ncells;
		for (r = 0; r < q->h; r++)
			if (q->on[r * q->w + c])
				q->con_cells[ncells++] = (uint32_t)(r * q->w + c);
		con[ncon].count = ncells - con[ncon].start;
		ncon++;
	}
	for (k = 0; k < q->nreg; k++) {
		con[ncon].kind = QZ_REGION;
		con[ncon].index = (uint32_t)k;
		con[ncon].lo = q->reg_q[k];
		con[ncon].hi = q->reg_q[k] + q->reg_t[k];
		con[ncon].start = ncells;
		for (i = q->reg_start[k]; i < q->reg_start[k + 1]; i++)
			q->con_cells[ncells++] = q->reg_cells[i];
		con[ncon].count = ncells - con[ncon].start;
		ncon++;
	}
	q->ncon = ncon;
	for (i = 0; i < ncells; i++)
		q->memb_start[q->con_cells[i] + 1]++;
	for (i = 0; i < q->n; i++)
		q->memb_start[i + 1] += q->memb_start[i];
	/* fill in constraint order; memb_start[i] runs ahead and is restored */
	for (k = 0; k < ncon; k++)
		for (i = con[k].start; i < con[k].start + con[k].count; i++)
			q->memb[q->memb_start[q->con_cells[i]]++] = (uint32_t)k;
	for (i = q->n; i > 0; i--)
		q->memb_start[i] = q->memb_start[i - 1];
	q->memb_start[0] = 0;
	return QUBO_OK;
}

/* How far a walk from any cell in direction d can go before it leaves the
 * board or comes back: a bound used to size the work. */
static uint64_t line_bound(const struct qz *q, int d)
{
	uint64_t w = q->w, h = q->h;

	if (q->wrap == QUBO_QUEENS_TORUS)
		return w * h;
	if (q->wrap == QUBO_QUEENS_CYLINDER && qubo__pz_qz_dr[d] == 0)
		return w;
	if (qubo__pz_qz_dr[d] == 0)
		return w;
	if (qubo__pz_qz_dc[d] == 0)
		return h;
	return q->wrap == QUBO_QUEENS_CYLINDER ? h : (w < h ? w : h);
}

/*
 * The conflict graph: a and b conflict when a reaches b or b reaches a.
 * From each on-board cell a, walk every direction e; at step k the cell b
 * conflicts with a when reach_a[e] >= k or reach_b[opposite e] >= k (b
 * reaches a in k steps the other way: the walks are reversible). A walk
 * ends at the edge of a flat board or when it comes back to a; off-board
 * cells are walked through (they do not block). A stamp per cell keeps
 * each neighbour once (on a wrapped board two walks can meet the same
 * cell). Two passes: count, then fill.
 */
static int build_conflicts(struct qz *q, const qubo_allocator *a, const char *fn)
{
	uint32_t maxrev[8] = { 0 };
	uint32_t *stamp;
	uint64_t work = 0, total = 0;
	size_t i;
	int d, pass;

	for (d = 0; d < 8; d++) {
		if (q->cell_reach) {
			for (i = 0; i < q->n; i++)
				if (q->on[i] && q->cell_reach[8 * i + (size_t)d] > maxrev[d])
					maxrev[d] = q->cell_reach[8 * i + (size_t)d];
		} else {
			maxrev[d] = q->reach[d];
		}
	}
	for (d = 0; d < 8; d++) {
		uint64_t lim = maxrev[d] > maxrev[(d + 4) % 8] ? maxrev[d] : maxrev[(d + 4) % 8];
		uint64_t lb = line_bound(q, d);

		work += (lim < lb ? lim : lb) * (uint64_t)q->n;
	}
	if (work > QZ_MAX_WALK)
		return qubo__pz_error(QUBO_ERR_TOO_LARGE,
				      "%s: the attack lines of this %u x %u board need about %llu "
				      "steps to list, more than the limit of %llu",
				      fn, (unsigned)q->w, (unsigned)q->h, (unsigned long long)work,
				      (unsigned long long)QZ_MAX_WALK);
	q->adj_start = qubo__pz_zalloc(a, q->n + 1, sizeof *q->adj_start);
	stamp = qubo__pz_zalloc(a, q->n, sizeof *stamp);
	if (!q->adj_start || !stamp) {
		qubo__pz_free(a, stamp);
		return qubo__pz_nomem("the conflict graph");
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < q->n; i++) {
			size_t fill = pass ? q->adj_start[i] : 0, deg = 0;

			if (!q->on[i])
				continue;
			for (d = 0; d < 8; d++) {
				uint32_t ra = qz_reach(q, i, d), opp = (uint32_t)(d + 4) % 8;
				uint64_t lim = ra > maxrev[opp] ? ra : maxrev[opp], k;
				uint32_t r = (uint32_t)(i / q->w), c = (uint32_t)(i % q->w);

				for (k = 1; k <= lim && k <= q->n; k++) {
					size_t b;

					if (!qubo__pz_qz_step(q, d, &r, &c))
						break;
					b = (size_t)r * q->w + c;
					if (b == i)
						break;
					if (!q->on[b] || stamp[b] == i + 1)
						continue;
					if (ra < k && qz_reach(q, b, (int)opp) < k)
						continue;
					stamp[b] = (uint32_t)(i + 1);
					if (pass)
						q->adj[fill++] = (uint32_t)b;
					deg++;
				}
			}
			if (!pass) {
				q->adj_start[i + 1] = deg;
				total += deg;
			}
			/* a fresh stamp value per cell and pass */
		}
		if (!pass) {
			for (i = 0; i < q->n; i++)
				q->adj_start[i + 1] += q->adj_start[i];
			q->adj = qubo__pz_alloc(a, (size_t)total, sizeof *q->adj);
			if (!q->adj) {
				qubo__pz_free(a, stamp);
				return qubo__pz_nomem("the conflict graph");
			}
			memset(stamp, 0, q->n * sizeof *stamp);
		}
	}
	qubo__pz_free(a, stamp);
	return QUBO_OK;
}

/*
 * Leaving out the last region's term is sound when the other terms imply
 * it: the regions partition the on-board cells, each needs exactly q_k, and
 * the rows (all with counts) place Σ r_i = Σ q_k queens. Then any board
 * that satisfies the rows and the other regions puts Σ r_i − Σ_{k<last} q_k
 * = q_last queens in the last region.
 */
static int check_drop(struct qz *q, const char *fn)
{
	int64_t rows = 0, regs = 0;
	size_t k, i;

	if (q->nreg == 0)
		return QUBO_OK; /* nothing to drop */
	for (i = 0; i < q->h; i++) {
		if (q->row_cnt[i] < 0)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: drop_region needs a count on every row; row %zu "
					      "has none",
					      fn, i + 1);
		rows += q->row_cnt[i];
	}
	for (k = 0; k < q->nreg; k++) {
		if (q->reg_t[k])
			return qubo__pz_error(
				QUBO_ERR_INVALID_ARG,
				"%s: drop_region needs exact region counts; region %zu "
				"allows %d or %d",
				fn, k + 1, (int)q->reg_q[k], (int)q->reg_q[k] + 1);
		regs += q->reg_q[k];
	}
	/* Every on-board cell in exactly one region. */
	for (i = 0; i < q->n; i++) {
		size_t j, nreg = 0;

		for (j = q->memb_start[i]; j < q->memb_start[i + 1]; j++)
			nreg += q->con[q->memb[j]].kind == QZ_REGION;
		if (q->on[i] && nreg != 1)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: drop_region needs regions that partition the "
					      "board; the cell at row %zu, column %zu is in %zu",
					      fn, i / q->w + 1, i % q->w + 1, nreg);
	}
	if (rows != regs)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: drop_region needs the row counts (sum %lld) and the "
				      "region counts (sum %lld) to agree",
				      fn, (long long)rows, (long long)regs);
	q->drop = (int32_t)(q->nreg - 1);
	return QUBO_OK;
}

/* ---- the model ---- */

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
		return qubo__pz_error(QUBO_ERR_INFEASIBLE,
				      "the puzzle has no solution: two pre-placed %ss attack each "
				      "other",
				      q->noun);
	qubo__pz_qz_con_name(q, con, name, sizeof name);
	return qubo__pz_error(QUBO_ERR_INFEASIBLE,
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
	if (con->lo == con->hi || (con->lo == 0 && q->region_form == QUBO_QUEENS_REGION_PAIRWISE))
		return 0;
	return q->kform == QUBO_K_OR_K1_FRACTIONAL;
}

/*
 * Builds the model with the cells of `fixed` (NULL: none; else -1 free,
 * 0 or 1) as constants. At level NONE (fixed NULL) every on-board cell is a
 * variable and each pre-placed queen gets the clue term P (1 − x). With
 * model_out NULL only lits and *ground_out are filled.
 */
static int build_model(const struct qz *q, const qubo_allocator *a, double P, const int8_t *fixed,
		       qubo_model **model_out, qubo_lit *lits, double *ground_out)
{
	qubo_model *m = NULL;
	qubo_lit *buf = NULL, *pairs = NULL;
	size_t nv = 0, i, k, npairs = 0, maxcon = 0;
	double ground = 0.0;
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
		for (k = 0; k < q->ncon; k++)
			if (quarter_term(q, &q->con[k]))
				ground += P / 4;
		*ground_out = ground;
		return QUBO_OK;
	}
	*model_out = NULL;
	for (k = 0; k < q->ncon; k++)
		if (q->con[k].count > maxcon)
			maxcon = q->con[k].count;
	for (i = 0; i < q->n; i++)
		for (k = q->adj_start[i]; k < q->adj_start[i + 1]; k++)
			if (q->adj[k] > i && lits[i] != QUBO_LIT_FALSE &&
			    lits[q->adj[k]] != QUBO_LIT_FALSE)
				npairs++;
	rc = qubo_model_new(&m, nv, a);
	if (rc)
		return rc;
	buf = qubo__pz_alloc(a, maxcon, sizeof *buf);
	pairs = qubo__pz_alloc(a, 2 * npairs, sizeof *pairs);
	if (!buf || !pairs) {
		rc = qubo__pz_nomem("the model's terms");
		goto fail;
	}
	if (!fixed) {
		for (i = 0; i < q->n; i++)
			if (q->given[i] && (rc = qubo_penalty_exactly(m, &lits[i], 1, 1, P)))
				goto fail;
	}
	for (k = 0; k < q->ncon; k++) {
		const struct qz_con *con = &q->con[k];

		if (con->kind == QZ_REGION && (int32_t)con->index == q->drop)
			continue;
		for (i = 0; i < con->count; i++)
			buf[i] = lits[q->con_cells[con->start + i]];
		if (con->lo == con->hi) {
			rc = qubo_penalty_exactly(m, buf, con->count, con->lo, P);
		} else if (con->lo == 0 && q->region_form == QUBO_QUEENS_REGION_PAIRWISE) {
			rc = qubo_penalty_at_most_one(m, buf, con->count, P);
		} else {
			rc = qubo_penalty_k_or_k1(m, buf, con->count, con->lo, P, q->kform);
		}
		if (quarter_term(q, con))
			ground += P / 4;
		if (rc) {
			rc = penalty_status(q, rc, con);
			goto fail;
		}
	}
	npairs = 0;
	for (i = 0; i < q->n; i++) {
		for (k = q->adj_start[i]; k < q->adj_start[i + 1]; k++) {
			size_t b = q->adj[k];

			if (b < i || lits[i] == QUBO_LIT_FALSE || lits[b] == QUBO_LIT_FALSE ||
			    share_tight(q, i, b))
				continue;
			pairs[2 * npairs] = lits[i];
			pairs[2 * npairs + 1] = lits[b];
			npairs++;
		}
	}
	rc = qubo_penalty_conflicts(m, pairs, npairs, P);
	if (rc) {
		rc = penalty_status(q, rc, NULL);
		goto fail;
	}
	rc = qubo_model_compile(m);
	if (rc)
		goto fail;
	qubo__pz_free(a, buf);
	qubo__pz_free(a, pairs);
	*model_out = m;
	*ground_out = ground;
	return QUBO_OK;
fail:
	qubo__pz_free(a, buf);
	qubo__pz_free(a, pairs);
	qubo_model_free(m);
	return rc;
}

/* ---- the rule checker (never looks at the model) ---- */

static void needs_text(int32_t lo, int32_t hi, char *buf, size_t cap)
{
	if (lo == hi)
		snprintf(buf, cap, "%d", (int)lo);
	else
		snprintf(buf, cap, "%d or %d", (int)lo, (int)hi);
}

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* The first (direction, step) in walk order at which a reaches b within
 * its own reach: 8 × step + direction, or 0 when it never does. */
static uint64_t first_reach(const struct qz *q, size_t a, size_t b)
{
	int d;

	for (d = 0; d < 8; d++) {
		uint32_t r = (uint32_t)(a / q->w), c = (uint32_t)(a % q->w);
		uint64_t k, lim = qz_reach(q, a, d);

		for (k = 1; k <= lim && k <= q->n; k++) {
			size_t x;

			if (!qubo__pz_qz_step(q, d, &r, &c))
				break;
			x = (size_t)r * q->w + c;
			if (x == a)
				break;
			if (x == b)
				return 8 * k + (uint64_t)d;
		}
	}
	return 0;
}

static void qz_check(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep)
{
	const struct qz *q = p->data;
	const char *Noun = q->kind == QZ_QUEENS && q->stars > 1 ? "Star" : "Queen";
	const char *verb = q->kind == QZ_QUEENS ? "touch" : "attack each other";
	size_t i, k, r, c;
	char need[32];

	for (i = 0; i < q->n; i++) {
		if (board[i] && !q->on[i])
			qubo__pz_violation(rep, "%s at row %zu, column %zu is not on the board",
					   Noun, i / q->w + 1, i % q->w + 1);
		if (q->given[i] && !board[i])
			qubo__pz_violation(rep, "pre-placed %s at row %zu, column %zu is missing",
					   q->noun, i / q->w + 1, i % q->w + 1);
	}
	for (r = 0; r < q->h; r++) {
		int64_t cnt = 0;

		if (q->row_cnt[r] < 0)
			continue;
		for (c = 0; c < q->w; c++)
			cnt += board[r * q->w + c];
		if (cnt != q->row_cnt[r])
			qubo__pz_violation(rep, "row %zu has %lld %s%s, needs %d", r + 1,
					   (long long)cnt, q->noun, plural(cnt),
					   (int)q->row_cnt[r]);
	}
	for (c = 0; c < q->w; c++) {
		int64_t cnt = 0;

		if (q->col_cnt[c] < 0)
			continue;
		for (r = 0; r < q->h; r++)
			cnt += board[r * q->w + c];
		if (cnt != q->col_cnt[c])
			qubo__pz_violation(rep, "column %zu has %lld %s%s, needs %d", c + 1,
					   (long long)cnt, q->noun, plural(cnt),
					   (int)q->col_cnt[c]);
	}
	for (k = 0; k < q->nreg; k++) {
		int64_t cnt = 0;

		for (i = q->reg_start[k]; i < q->reg_start[k + 1]; i++)
			cnt += board[q->reg_cells[i]];
		if (cnt < q->reg_q[k] || cnt > (int64_t)q->reg_q[k] + q->reg_t[k]) {
			needs_text(q->reg_q[k], q->reg_q[k] + q->reg_t[k], need, sizeof need);
			if (q->kind == QZ_QUEENS)
				qubo__pz_violation(rep, "region %c has %lld %s%s, needs %s",
						   'a' + (int)k, (long long)cnt, q->noun,
						   plural(cnt), need);
			else
				qubo__pz_violation(rep, "region %zu has %lld %s%s, needs %s", k + 1,
						   (long long)cnt, q->noun, plural(cnt), need);
		}
	}
	/* Attacks: each pair once, found from a queen's own walks. */
	for (i = 0; i < q->n; i++) {
		int d;

		if (!board[i] || !q->on[i])
			continue;
		for (d = 0; d < 8; d++) {
			uint32_t rr = (uint32_t)(i / q->w), cc = (uint32_t)(i % q->w);
			uint64_t s, lim = qz_reach(q, i, d);

			for (s = 1; s <= lim && s <= q->n; s++) {
				size_t b;

				if (!qubo__pz_qz_step(q, d, &rr, &cc))
					break;
				b = (size_t)rr * q->w + cc;
				if (b == i)
					break;
				if (!board[b] || !q->on[b])
					continue;
				if (q->wrap == QUBO_QUEENS_PLANE) {
					/* one walk from i meets b; the walk back from b
					 * is the opposite direction, same length */
					if (b < i && qz_reach(q, b, (d + 4) % 8) >= s)
						continue; /* found from b */
				} else {
					if (first_reach(q, i, b) != 8 * s + (uint64_t)d)
						continue; /* already found from i */
					if (b < i && first_reach(q, b, i))
						continue; /* found from b */
				}
				qubo__pz_violation(rep,
						   "%ss at row %zu, column %zu and row %zu, column "
						   "%zu %s",
						   q->noun, (i < b ? i : b) / q->w + 1,
						   (i < b ? i : b) % q->w + 1,
						   (i < b ? b : i) / q->w + 1,
						   (i < b ? b : i) % q->w + 1, verb);
			}
		}
	}
}

/* ---- the object ---- */

static const struct qubo__pz_family *family_of(int32_t kind)
{
	if (kind == QZ_QUEENS)
		return &qubo__pz_queens_family;
	if (kind == QZ_NQUEENS)
		return &qubo__pz_nqueens_family;
	return &qubo__pz_general_queens_family;
}

int qubo__pz_qz_create(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec, int32_t kind,
		       int32_t stars, const struct qubo__pz_opts *opts, const char *fn)
{
	qubo_puzzle *p = NULL;
	qubo_model *before = NULL;
	int8_t *full = NULL, *clues = NULL;
	const int8_t *fixed;
	struct qz *q;
	const qubo_allocator *a;
	size_t i, nfixed = 0;
	double ground;
	int rc;

	*out = NULL;
	rc = check_spec(spec, fn);
	if (rc)
		return rc;
	rc = qubo__pz_new(&p, family_of(kind), opts, spec->width, spec->height);
	if (rc)
		return rc;
	a = &p->alloc;
	q = qubo__pz_zalloc(a, 1, sizeof *q);
	if (!q) {
		qubo__pz_destroy(p);
		return qubo__pz_nomem("the queens instance");
	}
	p->data = q;
	q->w = spec->width;
	q->h = spec->height;
	q->n = (size_t)q->w * q->h;
	q->kind = kind;
	q->stars = stars;
	q->noun = kind == QZ_QUEENS && stars > 1 ? "star" : "queen";
	rc = copy_spec(q, a, spec, fn);
	if (!rc)
		rc = build_constraints(q, a);
	if (!rc)
		rc = build_conflicts(q, a, fn);
	if (!rc && opts->drop_region)
		rc = check_drop(q, fn);
	if (rc)
		goto fail;
	p->cell_lits = qubo__pz_alloc(a, q->n, sizeof *p->cell_lits);
	full = qubo__pz_alloc(a, q->n, 1);
	if (opts->reduce == QUBO_REDUCE_CLUES)
		clues = qubo__pz_alloc(a, q->n, 1);
	if (!p->cell_lits || !full || (opts->reduce == QUBO_REDUCE_CLUES && !clues)) {
		rc = qubo__pz_nomem("the cell map");
		goto fail;
	}
	/* Full propagation always runs: it finds contradictions whatever the
	 * level; the level only decides which fixed cells become constants. */
	rc = qubo__pz_qz_propagate(q, a, QUBO_REDUCE_FULL, full, q->rule_fixes);
	if (!rc && clues)
		rc = qubo__pz_qz_propagate(q, a, QUBO_REDUCE_CLUES, clues, NULL);
	if (rc)
		goto fail;
	fixed = opts->reduce == QUBO_REDUCE_NONE  ? NULL :
		opts->reduce == QUBO_REDUCE_CLUES ? clues :
						    full;
	rc = build_model(q, a, opts->penalty, fixed, opts->cells_only ? NULL : &p->model,
			 p->cell_lits, &ground);
	if (rc)
		goto fail;
	p->ground_energy = ground;
	p->has_ground_energy = 1;
	for (i = 0; i < q->n; i++)
		nfixed += q->on[i] && QUBO_LIT_IS_CONST(p->cell_lits[i]);
	p->stats.cells_fixed = nfixed;
	if (opts->cells_only) {
		/* no model: its variables would be the open cells */
		for (i = 0; i < q->n; i++)
			p->stats.variables_after += !QUBO_LIT_IS_CONST(p->cell_lits[i]);
	} else if (fixed) {
		/* The unreduced model, for its size only. */
		qubo_lit *tmp = qubo__pz_alloc(a, q->n, sizeof *tmp);
		double g2;

		if (!tmp) {
			rc = qubo__pz_nomem("the unreduced model");
			goto fail;
		}
		rc = build_model(q, a, opts->penalty, NULL, &before, tmp, &g2);
		qubo__pz_free(a, tmp);
		if (rc)
			goto fail;
	}
	if (!opts->cells_only)
		qubo__pz_model_sizes(p, before);
	qubo_model_free(before);
	/* If every cell is fixed, propagation checked every rule, so the
	 * fixed board is the one solution: confirm it with the checker. */
	rc = qubo__pz_confirm_solved(p, fn);
	if (rc)
		goto fail;
	qubo__pz_free(a, full);
	qubo__pz_free(a, clues);
	*out = p;
	return QUBO_OK;
fail:
	qubo__pz_free(a, full);
	qubo__pz_free(a, clues);
	qubo__pz_destroy(p);
	return rc;
}

int qubo_puzzle_queens_build(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec,
			     const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_queens_build";
	struct qubo__pz_opts opts;
	int rc = qubo__pz_spec_args(out, spec, options, &opts, fn);

	return rc ? rc : qubo__pz_qz_create(out, spec, QZ_SPEC, 1, &opts, fn);
}

int qubo__pz_queens_rule_counts(const qubo_puzzle *p, size_t counts[QZ_NUM_RULES])
{
	const struct qz *q;

	if (!p || (p->fam != &qubo__pz_queens_family && p->fam != &qubo__pz_nqueens_family &&
		   p->fam != &qubo__pz_general_queens_family))
		return QUBO_ERR_INVALID_ARG;
	q = p->data;
	memcpy(counts, q->rule_fixes, sizeof q->rule_fixes);
	return QUBO_OK;
}

const struct qubo__pz_family qubo__pz_queens_family = {
	QUBO_PUZZLE_QUEENS,
	"queens",
	qz_destroy,
	qz_check,
	qubo__pz_qz_format,
	qubo__pz_qz_solution_header,
	qubo__pz_qz_solution_char,
	qubo__pz_qz_solution_value,
	qubo__pz_qz_solution_header_check,
	"'Q' (a queen) or '.'",
	"queens",
};

const struct qubo__pz_family qubo__pz_nqueens_family = {
	QUBO_PUZZLE_NQUEENS,
	"nqueens",
	qz_destroy,
	qz_check,
	qubo__pz_qz_format,
	qubo__pz_qz_solution_header,
	qubo__pz_qz_solution_char,
	qubo__pz_qz_solution_value,
	qubo__pz_qz_solution_header_check,
	"'Q' (a queen), '.', or '#' at a cell that is not on the board",
	"nqueens",
};

const struct qubo__pz_family qubo__pz_general_queens_family = {
	QUBO_PUZZLE_GENERAL_QUEENS,
	"generalised queens",
	qz_destroy,
	qz_check,
	NULL,
	NULL,
	qubo__pz_qz_solution_char,
	qubo__pz_qz_solution_value,
	NULL,
	"'Q' (a queen), '.', or '#' at a cell that is not on the board",
	NULL,
};
