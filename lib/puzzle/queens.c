/*
 * The queens family: LinkedIn Queens, Star Battle, N-Queens and generalised
 * queens (§2 of the second paper cited in doc/formulations.md). Every
 * instance is a struct qz (queens_impl.h): this file checks and copies a
 * spec, derives the count constraints and the conflict graph, holds the
 * rule checker and the family tables. The model is built in
 * queens_model.c, propagation and the exact search are in queens_reduce.c,
 * the text forms in queens_text.c.
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "queens_impl.h"

const int qubo__pz_qz_dr[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
const int qubo__pz_qz_dc[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

/* Walk steps the conflict graph may take before the board counts as too
 * large (about a second of work and a few hundred MB at most). */
#define QZ_MAX_WALK ((uint64_t)1 << 27)

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

	qubo__free(a, q->on);
	qubo__free(a, q->given);
	qubo__free(a, q->row_cnt);
	qubo__free(a, q->col_cnt);
	qubo__free(a, q->reg_start);
	qubo__free(a, q->reg_cells);
	qubo__free(a, q->reg_q);
	qubo__free(a, q->reg_t);
	qubo__free(a, q->cell_reach);
	qubo__free(a, q->con);
	qubo__free(a, q->con_cells);
	qubo__free(a, q->memb_start);
	qubo__free(a, q->memb);
	qubo__free(a, q->adj_start);
	qubo__free(a, q->adj);
	qubo__free(a, q);
}

/* ---- checking and copying a spec ---- */

static int check_counts(const int32_t *counts, uint32_t len, const char *what, const char *fn)
{
	uint32_t i;

	for (i = 0; counts && i < len; i++)
		if (counts[i] < QUBO_PUZZLE_QUEENS_ANY)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.%s[%u] is %d, expected a count >= 0 or "
					   "QUBO_PUZZLE_QUEENS_ANY (-1)",
					   fn, what, (unsigned)i, (int)counts[i]);
	return QUBO_OK;
}

static const char *off_board_why(const void *spec, uint32_t cell)
{
	const qubo_puzzle_queens_spec *s = spec;

	return s->off_board && s->off_board[cell] ? "is not on the board" : NULL;
}

static int check_spec(const qubo_puzzle_queens_spec *s, const char *fn)
{
	size_t n, k, i;
	int rc;

	rc = qubo__check_struct(s, s->struct_size, QUBO_PUZZLE_QUEENS_SPEC_SIZE_V1, sizeof *s,
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
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.num_regions is %zu but spec.%s is NULL", fn,
					   s->num_regions,
					   s->region_start ? "region_counts" : "region_start");
		if (s->num_regions > n * 64 + 1024)
			return qubo__too_large(
				QUBO_LIMIT_REGIONS, n * 64 + 1024,
				"%s: spec.num_regions is %zu, at most %zu for this board", fn,
				s->num_regions, n * 64 + 1024);
		if (s->region_start[0] != 0)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.region_start[0] is %zu, expected 0", fn,
					   s->region_start[0]);
		for (k = 0; k < s->num_regions; k++) {
			if (s->region_start[k + 1] < s->region_start[k])
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: spec.region_start[%zu] = %zu is below "
						   "region_start[%zu] = %zu",
						   fn, k + 1, s->region_start[k + 1], k,
						   s->region_start[k]);
			if (s->region_start[k + 1] - s->region_start[k] > n)
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: region %zu lists %zu cells, the board has "
						   "%zu",
						   fn, k + 1,
						   s->region_start[k + 1] - s->region_start[k], n);
			if (s->region_counts[k] < 0)
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: spec.region_counts[%zu] is %d, expected a "
						   "count >= 0",
						   fn, k, (int)s->region_counts[k]);
			if (s->region_plus_one && s->region_plus_one[k] != 0 &&
			    s->region_plus_one[k] != 1)
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: spec.region_plus_one[%zu] is %d, expected "
						   "0 or 1",
						   fn, k, (int)s->region_plus_one[k]);
			if (s->region_counts[k] == INT32_MAX && s->region_plus_one &&
			    s->region_plus_one[k])
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: region %zu needs %d or one more queens", fn,
						   k + 1, (int)INT32_MAX);
		}
		if (s->region_start[s->num_regions] && !s->region_cells)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: the regions list %zu cells but spec.region_cells "
					   "is NULL",
					   fn, s->region_start[s->num_regions]);
		for (i = 0; i < s->region_start[s->num_regions]; i++)
			if (s->region_cells[i] >= n)
				return qubo__error(
					QUBO_ERR_INVALID_ARG,
					"%s: spec.region_cells[%zu] is %u, the board has "
					"%zu cells",
					fn, i, (unsigned)s->region_cells[i], n);
	}
	if (s->wrap < QUBO_PUZZLE_WRAP_NONE || s->wrap > QUBO_PUZZLE_WRAP_TORUS)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.wrap is %d, expected 0 (plane), 1 (cylinder) or 2 "
				   "(torus)",
				   fn, (int)s->wrap);
	if (s->region_form != QUBO_PUZZLE_QUEENS_REGION_COUNT &&
	    s->region_form != QUBO_PUZZLE_QUEENS_REGION_PAIRWISE)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.region_form is %d, expected 0 or 1", fn,
				   (int)s->region_form);
	if (s->k_or_k1_form != QUBO_K_OR_K1_ZERO_BASED &&
	    s->k_or_k1_form != QUBO_K_OR_K1_FRACTIONAL)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.k_or_k1_form is %d, expected 0 (zero-based) or 1 "
				   "(fractional)",
				   fn, (int)s->k_or_k1_form);
	return qubo__pz_check_cell_list(s->queens, s->num_queens, "queens", s->width, n,
					off_board_why, s, fn);
}

/* Copies the spec into q (all arrays through the allocator). */
static int copy_spec(struct qz *q, const qubo_allocator *a, const qubo_puzzle_queens_spec *s,
		     const char *fn)
{
	size_t n = q->n, k, i, total = 0;

	q->on = qubo__malloc_array(a, n, 1);
	q->given = qubo__calloc_array(a, n, 1);
	q->row_cnt = qubo__malloc_array(a, q->h, sizeof *q->row_cnt);
	q->col_cnt = qubo__malloc_array(a, q->w, sizeof *q->col_cnt);
	q->reg_start = qubo__malloc_array(a, s->num_regions + 1, sizeof *q->reg_start);
	q->reg_q = qubo__malloc_array(a, s->num_regions, sizeof *q->reg_q);
	q->reg_t = qubo__malloc_array(a, s->num_regions, sizeof *q->reg_t);
	if (s->num_regions)
		total = s->region_start[s->num_regions];
	q->reg_cells = qubo__malloc_array(a, total, sizeof *q->reg_cells);
	if (s->cell_reach)
		q->cell_reach = qubo__malloc_array(a, n, 8 * sizeof *q->cell_reach);
	if (!q->on || !q->given || !q->row_cnt || !q->col_cnt || !q->reg_start || !q->reg_q ||
	    !q->reg_t || !q->reg_cells || (s->cell_reach && !q->cell_reach))
		return qubo__nomem("the queens instance");
	for (i = 0; i < n; i++)
		q->on[i] = !(s->off_board && s->off_board[i]);
	for (i = 0; i < q->h; i++)
		q->row_cnt[i] = s->row_counts ? s->row_counts[i] : QUBO_PUZZLE_QUEENS_ANY;
	for (i = 0; i < q->w; i++)
		q->col_cnt[i] = s->col_counts ? s->col_counts[i] : QUBO_PUZZLE_QUEENS_ANY;
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
				return qubo__error_cell(
					QUBO_ERR_INVALID_ARG, c / q->w + 1, c % q->w + 1,
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
	q->ngiven = s->num_queens;
	return qubo__pz_mark_cells(q->given, s->queens, s->num_queens, "queens", q->w, fn);
}

/* ---- derived structures ---- */

/* Row k (k < h) or column k − h as a line of cells start, start + stride,
 * ... (len cells), with its count (negative: none). */
struct qz_line {
	int32_t kind;
	uint32_t index;
	int32_t count;
	size_t start, stride, len;
};

static struct qz_line line_at(const struct qz *q, size_t k)
{
	struct qz_line l;

	if (k < q->h) {
		l.kind = QZ_ROW;
		l.count = q->row_cnt[k];
		l.start = k * q->w;
		l.stride = 1;
		l.len = q->w;
	} else {
		k -= q->h;
		l.kind = QZ_COL;
		l.count = q->col_cnt[k];
		l.start = k;
		l.stride = q->w;
		l.len = q->h;
	}
	l.index = (uint32_t)k;
	return l;
}

/* The sum of v (one byte a cell) over the line. */
static int64_t line_sum(const uint8_t *v, const struct qz_line *l)
{
	int64_t sum = 0;
	size_t i;

	for (i = l->start; i < l->start + l->len * l->stride; i += l->stride)
		sum += v[i];
	return sum;
}

/* Appends a constraint over con_cells[start, end). */
static void con_push(struct qz *q, int32_t kind, size_t index, int32_t lo, int32_t hi,
		     size_t start, size_t end)
{
	struct qz_con *con = &q->con[q->ncon++];

	con->kind = kind;
	con->index = (uint32_t)index;
	con->lo = lo;
	con->hi = hi;
	con->start = start;
	con->count = end - start;
}

/* Each cell's constraints, in constraint order; the build's ctl stops it
 * (a column's cells lie far apart: on the largest boards these passes take
 * seconds). */
static int build_memberships(struct qz *q, size_t ncells, struct qubo__pz_ctl *ctl)
{
	uint64_t pending = 0;
	size_t i, k;
	int rc;

	for (i = 0; i < ncells; i++)
		q->memb_start[q->con_cells[i] + 1]++;
	for (i = 0; i < q->n; i++)
		q->memb_start[i + 1] += q->memb_start[i];
	/* memb_start[i] runs ahead while filling and is restored after */
	for (k = 0; k < q->ncon; k++) {
		if ((rc = qubo__pz_build_tick(ctl, &pending, q->con[k].count)))
			return rc;
		for (i = q->con[k].start; i < q->con[k].start + q->con[k].count; i++)
			q->memb[q->memb_start[q->con_cells[i]]++] = (uint32_t)k;
	}
	for (i = q->n; i > 0; i--)
		q->memb_start[i] = q->memb_start[i - 1];
	q->memb_start[0] = 0;
	return QUBO_OK;
}

/* The count constraints (rows, columns, regions) and each cell's
 * memberships. */
static int build_constraints(struct qz *q, const qubo_allocator *a, struct qubo__pz_ctl *ctl)
{
	size_t nlines = (size_t)q->h + q->w, ncon = q->nreg, ncells = q->reg_start[q->nreg];
	size_t i, k, start;
	struct qz_line l;
	uint64_t pending = 0;
	int rc;

	for (k = 0; k < nlines; k++) {
		l = line_at(q, k);
		if ((rc = qubo__pz_build_tick(ctl, &pending, l.len)))
			return rc;
		if (l.count >= 0) {
			ncon++;
			ncells += (size_t)line_sum(q->on, &l);
		}
	}
	q->con = qubo__malloc_array(a, ncon, sizeof *q->con);
	q->con_cells = qubo__malloc_array(a, ncells, sizeof *q->con_cells);
	q->memb_start = qubo__calloc_array(a, q->n + 1, sizeof *q->memb_start);
	q->memb = qubo__malloc_array(a, ncells, sizeof *q->memb);
	if (!q->con || !q->con_cells || !q->memb_start || !q->memb)
		return qubo__nomem("the queens constraints");
	q->ncon = 0;
	ncells = 0;
	for (k = 0; k < nlines; k++) {
		l = line_at(q, k);
		if ((rc = qubo__pz_build_tick(ctl, &pending, l.len)))
			return rc;
		if (l.count < 0)
			continue;
		start = ncells;
		for (i = l.start; i < l.start + l.len * l.stride; i += l.stride)
			if (q->on[i])
				q->con_cells[ncells++] = (uint32_t)i;
		con_push(q, l.kind, l.index, l.count, l.count, start, ncells);
	}
	for (k = 0; k < q->nreg; k++) {
		start = ncells;
		for (i = q->reg_start[k]; i < q->reg_start[k + 1]; i++)
			q->con_cells[ncells++] = q->reg_cells[i];
		con_push(q, QZ_REGION, k, q->reg_q[k], q->reg_q[k] + q->reg_t[k], start, ncells);
	}
	return build_memberships(q, ncells, ctl);
}

/* A walk from cell `from` in direction d; k counts the steps taken. */
struct qz_walk {
	size_t from;
	int d;
	uint32_t r, c;
	uint64_t k;
};

static struct qz_walk walk_start(const struct qz *q, size_t from, int d)
{
	struct qz_walk w = { from, d, (uint32_t)(from / q->w), (uint32_t)(from % q->w), 0 };

	return w;
}

/* Takes the next step into *cell; 0 when the walk ends instead: after lim
 * (or n) steps, at the edge of a flat board, or back at its start. */
static inline int walk_next(const struct qz *q, struct qz_walk *w, uint64_t lim, size_t *cell)
{
	if (w->k >= lim || w->k >= q->n || !qz_step(q, w->d, &w->r, &w->c))
		return 0;
	w->k++;
	*cell = (size_t)w->r * q->w + w->c;
	return *cell != w->from;
}

/* How far a walk from any cell in direction d can go before it leaves the
 * board or comes back: a bound used to size the work. */
static uint64_t line_bound(const struct qz *q, int d)
{
	uint64_t w = q->w, h = q->h;

	if (q->wrap == QUBO_PUZZLE_WRAP_TORUS)
		return w * h;
	if (q->wrap == QUBO_PUZZLE_WRAP_CYLINDER && qubo__pz_qz_dr[d] == 0)
		return w;
	if (qubo__pz_qz_dr[d] == 0)
		return w;
	if (qubo__pz_qz_dc[d] == 0)
		return h;
	return q->wrap == QUBO_PUZZLE_WRAP_CYLINDER ? h : (w < h ? w : h);
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
static int build_conflicts(struct qz *q, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
			   const char *fn)
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
		return qubo__too_large(QUBO_LIMIT_ATTACK_STEPS, QZ_MAX_WALK,
				       "%s: the attack lines of this %u x %u board need about %llu "
				       "steps to list, more than the limit of %llu",
				       fn, (unsigned)q->w, (unsigned)q->h, (unsigned long long)work,
				       (unsigned long long)QZ_MAX_WALK);
	q->adj_start = qubo__calloc_array(a, q->n + 1, sizeof *q->adj_start);
	stamp = qubo__calloc_array(a, q->n, sizeof *stamp);
	if (!q->adj_start || !stamp) {
		qubo__free(a, stamp);
		return qubo__nomem("the conflict graph");
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < q->n; i++) {
			size_t fill = pass ? q->adj_start[i] : 0, deg = 0;
			int stop = qubo__pz_build_poll(ctl, q->w);

			if (stop) {
				qubo__free(a, stamp);
				return stop;
			}
			if (!q->on[i])
				continue;
			for (d = 0; d < 8; d++) {
				uint32_t ra = qz_reach(q, i, d), opp = (uint32_t)(d + 4) % 8;
				uint64_t lim = ra > maxrev[opp] ? ra : maxrev[opp];
				struct qz_walk w = walk_start(q, i, d);
				size_t b;

				while (walk_next(q, &w, lim, &b)) {
					if (!q->on[b] || stamp[b] == i + 1)
						continue;
					if (ra < w.k && qz_reach(q, b, (int)opp) < w.k)
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
			q->adj = qubo__malloc_array(a, (size_t)total, sizeof *q->adj);
			if (!q->adj) {
				qubo__free(a, stamp);
				return qubo__nomem("the conflict graph");
			}
			memset(stamp, 0, q->n * sizeof *stamp);
		}
	}
	qubo__free(a, stamp);
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
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: drop_region needs a count on every row; row %zu "
					   "has none",
					   fn, i + 1);
		rows += q->row_cnt[i];
	}
	for (k = 0; k < q->nreg; k++) {
		if (q->reg_t[k])
			return qubo__error(QUBO_ERR_INVALID_ARG,
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
			return qubo__error_cell(QUBO_ERR_INVALID_ARG, i / q->w + 1, i % q->w + 1,
						"%s: drop_region needs regions that partition the "
						"board; the cell at row %zu, column %zu is in %zu",
						fn, i / q->w + 1, i % q->w + 1, nreg);
	}
	if (rows != regs)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: drop_region needs the row counts (sum %lld) and the "
				   "region counts (sum %lld) to agree",
				   fn, (long long)rows, (long long)regs);
	q->drop = (int32_t)(q->nreg - 1);
	return QUBO_OK;
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
		struct qz_walk w = walk_start(q, a, d);
		uint64_t lim = qz_reach(q, a, d);
		size_t x;

		while (walk_next(q, &w, lim, &x))
			if (x == b)
				return 8 * w.k + (uint64_t)d;
	}
	return 0;
}

/* Each pair of attacking queens once, found from a queen's own walks. */
static void check_attacks(const struct qz *q, const uint8_t *board, struct qubo__pz_report *rep)
{
	const char *verb = q->kind == QZ_QUEENS ? "touch" : "attack each other";
	size_t i, b;
	int d;

	for (i = 0; i < q->n; i++) {
		if (!board[i] || !q->on[i])
			continue;
		for (d = 0; d < 8; d++) {
			struct qz_walk w = walk_start(q, i, d);
			uint64_t lim = qz_reach(q, i, d);

			while (walk_next(q, &w, lim, &b)) {
				if (!board[b] || !q->on[b])
					continue;
				if (q->wrap == QUBO_PUZZLE_WRAP_NONE) {
					/* one walk from i meets b; the walk back from b
					 * is the opposite direction, same length */
					if (b < i && qz_reach(q, b, (d + 4) % 8) >= w.k)
						continue; /* found from b */
				} else {
					if (first_reach(q, i, b) != 8 * w.k + (uint64_t)d)
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

static void qz_check(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep)
{
	const struct qz *q = p->data;
	const char *Noun = q->kind == QZ_QUEENS && q->stars > 1 ? "Star" : "Queen";
	size_t i, k;
	char need[32];

	for (i = 0; i < q->n; i++) {
		if (board[i] && !q->on[i])
			qubo__pz_violation(rep, "%s at row %zu, column %zu is not on the board",
					   Noun, i / q->w + 1, i % q->w + 1);
		if (q->given[i] && !board[i])
			qubo__pz_violation(rep, "pre-placed %s at row %zu, column %zu is missing",
					   q->noun, i / q->w + 1, i % q->w + 1);
	}
	for (k = 0; k < (size_t)q->h + q->w; k++) {
		struct qz_line l = line_at(q, k);
		int64_t cnt = line_sum(board, &l);

		if (l.count >= 0 && cnt != l.count)
			qubo__pz_violation(rep, "%s %zu has %lld %s%s, needs %d",
					   l.kind == QZ_ROW ? "row" : "column", (size_t)l.index + 1,
					   (long long)cnt, q->noun, plural(cnt), (int)l.count);
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
	check_attacks(q, board, rep);
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
	rc = qubo__pz_new(&p, family_of(kind), opts, spec->width, spec->height, sizeof *q,
			  "the queens instance");
	if (rc)
		return rc;
	a = &p->alloc;
	q = p->data;
	q->w = spec->width;
	q->h = spec->height;
	q->n = (size_t)q->w * q->h;
	q->kind = kind;
	q->stars = stars;
	q->noun = kind == QZ_QUEENS && stars > 1 ? "star" : "queen";
	rc = copy_spec(q, a, spec, fn);
	if (!rc)
		rc = qubo__pz_build_poll(opts->ctl, q->n);
	if (!rc)
		rc = build_constraints(q, a, opts->ctl);
	if (!rc)
		rc = build_conflicts(q, a, opts->ctl, fn);
	if (!rc && opts->drop_region)
		rc = check_drop(q, fn);
	if (rc)
		goto out;
	p->cell_lits = qubo__malloc_array(a, q->n, sizeof *p->cell_lits);
	full = qubo__malloc_array(a, q->n, 1);
	if (opts->reduce == QUBO_REDUCE_CLUES)
		clues = qubo__malloc_array(a, q->n, 1);
	if (!p->cell_lits || !full || (opts->reduce == QUBO_REDUCE_CLUES && !clues)) {
		rc = qubo__nomem("the cell map");
		goto out;
	}
	/* Full propagation always runs: it finds contradictions whatever the
	 * level; the level only decides which fixed cells become constants. */
	rc = qubo__pz_build_poll(opts->ctl, 0);
	if (!rc)
		rc = qubo__pz_qz_propagate(q, a, QUBO_REDUCE_FULL, full, q->rule_fixes, opts->ctl);
	if (!rc && clues)
		rc = qubo__pz_qz_propagate(q, a, QUBO_REDUCE_CLUES, clues, NULL, opts->ctl);
	if (!rc)
		rc = qubo__pz_build_poll(opts->ctl, q->n);
	if (rc)
		goto out;
	fixed = opts->reduce == QUBO_REDUCE_NONE  ? NULL :
		opts->reduce == QUBO_REDUCE_CLUES ? clues :
						    full;
	rc = qubo__pz_qz_build_model(q, a, opts->ctl, opts->penalty, fixed, opts->cells_only ? NULL : &p->model,
			 p->cell_lits, &ground);
	if (rc)
		goto out;
	p->ground_energy = ground;
	p->has_ground_energy = 1;
	for (i = 0; i < q->n; i++)
		nfixed += q->on[i] && QUBO_LIT_IS_CONST(p->cell_lits[i]);
	p->stats.cells_fixed = nfixed;
	if (opts->cells_only) {
		/* no model: its variables would be the open cells */
		for (i = 0; i < q->n; i++)
			p->stats.variables_after += !QUBO_LIT_IS_CONST(p->cell_lits[i]);
	} else if (fixed && nfixed) {
		/* The unreduced model, for its size only. With no cell fixed it
		 * is the model itself (no clue either: the reduction fixes every
		 * clue), and qubo__pz_model_sizes() takes its sizes from that. */
		qubo_lit *tmp = qubo__malloc_array(a, q->n, sizeof *tmp);
		double g2;

		if (!tmp) {
			rc = qubo__nomem("the unreduced model");
			goto out;
		}
		rc = qubo__pz_qz_build_model(q, a, opts->ctl, opts->penalty, NULL, &before, tmp, &g2);
		qubo__free(a, tmp);
		if (rc)
			goto out;
	}
	if (!opts->cells_only)
		qubo__pz_model_sizes(p, before);
	qubo_model_free(before);
	/* If every cell is fixed, propagation checked every rule, so the
	 * fixed board is the one solution: confirm it with the checker. */
	rc = qubo__pz_confirm_solved(p, fn);
	if (!rc) {
		*out = p;
		p = NULL;
	}
out:
	qubo__free(a, full);
	qubo__free(a, clues);
	qubo__pz_destroy(p);
	return rc;
}

/* The public builder under either of its names: messages name the one
 * called. */
static int queens_new(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec,
		      const qubo_puzzle_options *options, const char *fn)
{
	struct qubo__pz_opts opts;
	int rc = qubo__pz_spec_args(out, spec, options, &opts, fn);

	if (rc)
		return rc;
	return qubo__pz_build_end(out, &opts, qubo__pz_qz_create(out, spec, QZ_SPEC, 1, &opts, fn));
}

int qubo_puzzle_queens_new(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec,
			   const qubo_puzzle_options *options)
{
	return queens_new(out, spec, options, "qubo_puzzle_queens_new");
}

int qubo_puzzle_queens_build(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec,
			     const qubo_puzzle_options *options)
{
	return queens_new(out, spec, options, "qubo_puzzle_queens_build");
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

/* ---- cells ---- */

static int qz_on_board(const qubo_puzzle *p, size_t i)
{
	const struct qz *q = p->data;

	return q->on[i];
}

static void qz_cell(const qubo_puzzle *p, size_t i, qubo_puzzle_cell *out)
{
	const struct qz *q = p->data;
	size_t k;

	out->region = -1;
	out->given = q->given[i] ? 1 : -1;
	if (!q->on[i])
		return;
	for (k = q->memb_start[i]; k < q->memb_start[i + 1]; k++)
		if (q->con[q->memb[k]].kind == QZ_REGION)
			out->region = (int32_t)q->con[q->memb[k]].index;
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
	qz_cell,
	qz_on_board,
	&qubo__pz_qz_search_ops,
	NULL,
	NULL,
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
	qz_cell,
	qz_on_board,
	&qubo__pz_qz_search_ops,
	NULL,
	NULL,
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
	qz_cell,
	qz_on_board,
	&qubo__pz_qz_search_ops,
	NULL,
	NULL,
};
