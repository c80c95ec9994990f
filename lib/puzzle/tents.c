/*
 * The Tents & Trees family (the second QUBO paper, "A QUBO Formulation for
 * the Generalized LinkedIn Queens and Takuzu/Tango Game", §2.5 and
 * Prop. 2.2; the relaxation without assignments is its §2.5 too). Every
 * instance is a struct tt (tents_impl.h): this file checks and copies a
 * spec, derives each tree's candidates, builds the exact (or the relaxed)
 * QUBO at the chosen reduction level, and holds the rule checker and the
 * search's slots. Propagation and the matching are in tents_reduce.c, the
 * text form in tents_text.c.
 *
 * The exact model over literals (a cell: a variable, or a constant for a
 * tree and for fixed cells; y_tc for each tree t and candidate c: a
 * variable, or a constant the reduction decided), weight P:
 *   every tree t:               P (Σ_c y_tc − 1)²
 *   every cell c without tree:  P (Σ_t y_tc + x̄_c − 1)² = P (Σ_t y_tc − x_c)²
 *   every king-adjacent pair:   P x_a x_b
 *   every row and column:       P (Σ x − count)²
 * Every term is 0 when its rule holds (with the y of a matching that shows
 * the board valid) and at least P otherwise, so the minimisers, decoded, are
 * exactly the solutions and the ground energy is 0. The relaxed model has no
 * y: every tree t gets P (S_t − 1)(S_t − 2) over its candidates' cells
 * ("one or two tents"), with the same pair and count terms.
 */
#include <stdio.h>
#include <string.h>

#include "tents_impl.h"

static void tt_destroy(const qubo_allocator *a, void *data)
{
	struct tt *t = data;

	qubo__free(a, t->tree);
	qubo__free(a, t->rows);
	qubo__free(a, t->cols);
	qubo__free(a, t->tree_cell);
	qubo__free(a, t->cand);
	qubo__free(a, t->cand_mask);
	qubo__free(a, t->own);
	qubo__free(a, t->own_n);
	qubo__pz_tt_ws_free(a, t->check_ws);
	qubo__free(a, t);
}

/* ---- checking and copying a spec ---- */

static const char *any_cell(const void *spec, uint32_t cell)
{
	(void)spec;
	(void)cell;
	return NULL;
}

static int check_counts(const int32_t *counts, uint32_t len, uint32_t most, const char *what,
			const char *fn)
{
	uint32_t i;

	if (!counts)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: spec.%s is NULL", fn, what);
	for (i = 0; i < len; i++)
		if (counts[i] < 0 || (uint32_t)counts[i] > most)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.%s[%u] is %d, expected a count from 0 to %u",
					   fn, what, (unsigned)i, (int)counts[i], (unsigned)most);
	return QUBO_OK;
}

static int check_spec(const qubo_puzzle_tents_spec *s, const char *fn)
{
	int rc = qubo__check_struct(s, s->struct_size, QUBO_PUZZLE_TENTS_SPEC_SIZE_V1, sizeof *s,
				    "qubo_puzzle_tents_spec", fn);

	if (rc || (rc = qubo__pz_check_board(s->width, s->height, fn)) ||
	    (rc = check_counts(s->row_counts, s->height, s->width, "row_counts", fn)) ||
	    (rc = check_counts(s->col_counts, s->width, s->height, "col_counts", fn)))
		return rc;
	if (s->relaxed != 0 && s->relaxed != 1)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.relaxed is %d, expected 0 (exact) or 1 (relaxed)", fn,
				   (int)s->relaxed);
	return qubo__pz_check_cell_list(s->trees, s->num_trees, "trees", s->width,
					(size_t)s->width * s->height, any_cell, s, fn);
}

/* Copies the spec and derives the candidates (everything through the
 * allocator). */
static int copy_spec(struct tt *t, const qubo_allocator *a, const qubo_puzzle_tents_spec *s,
		     struct qubo__pz_ctl *ctl, const char *fn)
{
	size_t i, k, tr;
	uint64_t pending = 0;
	int rc;

	t->tree = qubo__calloc_array(a, t->n, 1);
	t->rows = qubo__malloc_array(a, t->h, sizeof *t->rows);
	t->cols = qubo__malloc_array(a, t->w, sizeof *t->cols);
	t->tree_cell = qubo__malloc_array(a, s->num_trees, sizeof *t->tree_cell);
	t->cand = qubo__malloc_array(a, s->num_trees, 4 * sizeof *t->cand);
	t->cand_mask = qubo__calloc_array(a, s->num_trees, 1);
	t->own = qubo__malloc_array(a, t->n, 4 * sizeof *t->own);
	t->own_n = qubo__calloc_array(a, t->n, 1);
	if (!t->tree || !t->rows || !t->cols || !t->tree_cell || !t->cand || !t->cand_mask ||
	    !t->own || !t->own_n)
		return qubo__nomem("the tents instance");
	memcpy(t->rows, s->row_counts, t->h * sizeof *t->rows);
	memcpy(t->cols, s->col_counts, t->w * sizeof *t->cols);
	rc = qubo__pz_mark_cells(t->tree, s->trees, s->num_trees, "trees", t->w, fn);
	if (rc)
		return rc;
	t->ntrees = s->num_trees;
	for (i = 0, tr = 0; i < t->n; i++)
		if (t->tree[i])
			t->tree_cell[tr++] = (uint32_t)i;
	for (tr = 0; tr < t->ntrees; tr++) {
		int64_t r0 = t->tree_cell[tr] / t->w, c0 = t->tree_cell[tr] % t->w;

		if ((rc = qubo__pz_build_tick(ctl, &pending, 4)))
			return rc;
		for (k = 0; k < 4; k++) {
			int64_t r = r0 + qubo__pz_tt_dr[k], c = c0 + qubo__pz_tt_dc[k];
			size_t cell;

			t->cand[4 * tr + k] = UINT32_MAX;
			if (r < 0 || c < 0 || r >= t->h || c >= t->w)
				continue;
			cell = (size_t)r * t->w + (size_t)c;
			if (t->tree[cell])
				continue;
			t->cand[4 * tr + k] = (uint32_t)cell;
			t->cand_mask[tr] |= (uint8_t)(1u << k);
			t->own[4 * cell + t->own_n[cell]++] = (uint32_t)(4 * tr + k);
		}
	}
	t->relaxed = s->relaxed;
	return QUBO_OK;
}

/* What can be said before any reduction, with messages that name it: the
 * counts must add up to the number of trees, every tree needs a cell beside
 * it. */
static int plain_contradictions(const struct tt *t)
{
	int64_t rows = 0, cols = 0;
	size_t i;
	char where[64];

	for (i = 0; i < t->h; i++)
		rows += t->rows[i];
	for (i = 0; i < t->w; i++)
		cols += t->cols[i];
	if (rows != (int64_t)t->ntrees || cols != (int64_t)t->ntrees)
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: there %s %zu tree%s, so as many "
				   "tents, but the rows ask for %lld and the columns for %lld",
				   t->ntrees == 1 ? "is" : "are", t->ntrees,
				   qubo__pz_tt_s((int64_t)t->ntrees), (long long)rows,
				   (long long)cols);
	for (i = 0; i < t->ntrees; i++) {
		if (t->cand_mask[i])
			continue;
		qubo__pz_tt_where(t, t->tree_cell[i], where, sizeof where);
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: the tree at %s has no free "
				   "cell beside it for its tent",
				   where);
	}
	return QUBO_OK;
}

/* ---- the model ---- */

/* Maps a penalty's infeasible status to a message naming the term. */
static int term_status(const struct tt *t, int rc, const char *what, size_t index)
{
	if (rc != QUBO_ERR_INFEASIBLE)
		return rc;
	if (!strcmp(what, "tree") || !strcmp(what, "cell")) {
		char where[64];

		qubo__pz_tt_where(t, index, where, sizeof where);
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: the %s at %s cannot be matched",
				   what, where);
	}
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: %s %zu cannot hold its tents", what,
			   index + 1);
}

/* The literals of the cells (lits, n) and of the assignments (ylits, 4 per
 * tree, where a candidate exists). fixed: NULL (every cell without a tree
 * is a variable) or the reduction's values; ymask: NULL (every assignment
 * to a cell not fixed to 0 is a variable) or the reduction's masks, where a
 * tree with one possible candidate has that assignment fixed to 1. */
static size_t assign_literals(const struct tt *t, const int8_t *fixed, const uint8_t *ymask,
			      qubo_lit *lits, qubo_lit *ylits)
{
	size_t nv = 0, i, tr, k;

	for (i = 0; i < t->n; i++) {
		if (t->tree[i])
			lits[i] = QUBO_LIT_FALSE;
		else if (fixed && fixed[i] >= 0)
			lits[i] = fixed[i] ? QUBO_LIT_TRUE : QUBO_LIT_FALSE;
		else
			lits[i] = QUBO_LIT(nv++);
	}
	if (t->relaxed)
		return nv;
	for (tr = 0; tr < t->ntrees; tr++) {
		unsigned m = ymask ? ymask[tr] : t->cand_mask[tr];

		for (k = 0; k < 4; k++) {
			qubo_lit *y = &ylits[4 * tr + k];

			if (!(t->cand_mask[tr] >> k & 1))
				continue;
			if (!(m >> k & 1) || lits[t->cand[4 * tr + k]] == QUBO_LIT_FALSE)
				*y = QUBO_LIT_FALSE;
			else if (ymask && qubo__pz_tt_popcount(m) == 1)
				*y = QUBO_LIT_TRUE;
			else
				*y = QUBO_LIT(nv++);
		}
	}
	return nv;
}

/* The assignment terms (exact) or the neighbourhood terms (relaxed). */
static int add_tree_terms(const struct tt *t, qubo_model *m, const qubo_lit *lits,
			  const qubo_lit *ylits, double P)
{
	qubo_lit buf[5];
	size_t tr, k, c, j, nb;
	int rc = QUBO_OK;

	for (tr = 0; tr < t->ntrees && !rc; tr++) {
		nb = 0;
		for (k = 0; k < 4; k++)
			if (t->cand_mask[tr] >> k & 1)
				buf[nb++] = t->relaxed ? lits[t->cand[4 * tr + k]] : ylits[4 * tr + k];
		if (t->relaxed)
			rc = qubo_penalty_k_or_k1(m, buf, nb, 1, P, QUBO_K_OR_K1_ZERO_BASED);
		else
			rc = qubo_penalty_exactly(m, buf, nb, 1, P);
		rc = term_status(t, rc, "tree", t->tree_cell[tr]);
	}
	for (c = 0; c < t->n && !rc && !t->relaxed; c++) {
		if (t->tree[c])
			continue;
		nb = 0;
		for (j = 0; j < t->own_n[c]; j++)
			buf[nb++] = ylits[t->own[4 * c + j]];
		buf[nb++] = QUBO_LIT_NOT(lits[c]);
		rc = term_status(t, qubo_penalty_exactly(m, buf, nb, 1, P), "cell", c);
	}
	return rc;
}

/* The row and column terms, through buf (room for the longer side). */
static int add_count_terms(const struct tt *t, qubo_model *m, const qubo_lit *lits, qubo_lit *buf,
			   double P)
{
	size_t r, c, nb;
	int rc = QUBO_OK;

	for (r = 0; r < t->h && !rc; r++) {
		for (c = 0, nb = 0; c < t->w; c++)
			if (!t->tree[r * t->w + c])
				buf[nb++] = lits[r * t->w + c];
		rc = term_status(t, qubo_penalty_exactly(m, buf, nb, t->rows[r], P), "row", r);
	}
	for (c = 0; c < t->w && !rc; c++) {
		for (r = 0, nb = 0; r < t->h; r++)
			if (!t->tree[r * t->w + c])
				buf[nb++] = lits[r * t->w + c];
		rc = term_status(t, qubo_penalty_exactly(m, buf, nb, t->cols[c], P), "column", c);
	}
	return rc;
}

/* The king neighbours b > a of cell a (right, and the three below); returns
 * how many there are. Each touching pair is met once, from its first cell. */
static size_t later_neighbours(const struct tt *t, size_t a, size_t out[4])
{
	static const int dr[4] = { 0, 1, 1, 1 }, dc[4] = { 1, -1, 0, 1 };
	int64_t r0 = (int64_t)(a / t->w), c0 = (int64_t)(a % t->w);
	size_t nb = 0;
	int d;

	for (d = 0; d < 4; d++) {
		int64_t r = r0 + dr[d], c = c0 + dc[d];

		if (r < t->h && c >= 0 && c < t->w)
			out[nb++] = (size_t)r * t->w + (size_t)c;
	}
	return nb;
}

/* The king-adjacent pairs a < b of cells whose literals are not the
 * constant 0 (trees are), stored in pairs unless NULL; returns how many. */
static size_t touching_pairs(const struct tt *t, const qubo_lit *lits, qubo_lit *pairs)
{
	size_t a, np = 0, nb[4], k, m;

	for (a = 0; a < t->n; a++) {
		if (lits[a] == QUBO_LIT_FALSE)
			continue;
		m = later_neighbours(t, a, nb);
		for (k = 0; k < m; k++) {
			if (lits[nb[k]] == QUBO_LIT_FALSE)
				continue;
			if (pairs) {
				pairs[2 * np] = lits[a];
				pairs[2 * np + 1] = lits[nb[k]];
			}
			np++;
		}
	}
	return np;
}

/*
 * Builds the model with the cells of `fixed` as constants (see
 * assign_literals). With model_out NULL only lits is filled and the number
 * of variables returned through *nv_out.
 */
static int build_model(const struct tt *t, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       double P, const int8_t *fixed, const uint8_t *ymask, qubo_model **model_out,
		       qubo_lit *lits, size_t *nv_out)
{
	qubo_model *m = NULL;
	qubo_lit *ylits, *buf = NULL, *pairs = NULL;
	size_t nv, np;
	int rc;

	ylits = qubo__malloc_array(a, t->ntrees, 4 * sizeof *ylits);
	if (!ylits)
		return qubo__nomem("the model's assignment literals");
	nv = assign_literals(t, fixed, ymask, lits, ylits);
	*nv_out = nv;
	if (!model_out) {
		qubo__free(a, ylits);
		return QUBO_OK;
	}
	*model_out = NULL;
	np = touching_pairs(t, lits, NULL);
	rc = qubo_model_new(&m, nv, a);
	qubo__pz_build_watch(m, ctl);
	if (!rc) {
		buf = qubo__malloc_array(a, t->w > t->h ? t->w : t->h, sizeof *buf);
		pairs = qubo__malloc_array(a, 2 * np, sizeof *pairs);
		if (!buf || !pairs)
			rc = qubo__nomem("the model's terms");
	}
	if (!rc)
		rc = add_tree_terms(t, m, lits, ylits, P);
	if (!rc)
		rc = add_count_terms(t, m, lits, buf, P);
	if (!rc) {
		touching_pairs(t, lits, pairs);
		rc = term_status(t, qubo_penalty_conflicts(m, pairs, np, P), "touch", 0);
	}
	if (!rc)
		rc = qubo_model_compile(m);
	qubo__free(a, ylits);
	qubo__free(a, buf);
	qubo__free(a, pairs);
	if (rc) {
		qubo_model_free(m);
		return rc;
	}
	*model_out = m;
	return QUBO_OK;
}

/* ---- the rule checker (never looks at the model) ---- */

static void check_pairing(const struct tt *t, const uint8_t *board, struct qubo__pz_report *rep)
{
	struct qubo__pz_tt_ws *ws = t->check_ws;
	size_t tr, c, k;
	char where[64];

	qubo__pz_tt_match_board(ws, board);
	for (tr = 0; tr < t->ntrees; tr++) {
		int beside = 0;

		if (qubo__pz_tt_mate_tree(ws, tr) != UINT32_MAX)
			continue;
		for (k = 0; k < 4; k++)
			beside |= t->cand_mask[tr] >> k & 1 && board[t->cand[4 * tr + k]];
		qubo__pz_tt_where(t, t->tree_cell[tr], where, sizeof where);
		if (beside)
			qubo__pz_violation(rep,
					   "tree at %s cannot be paired with a tent of its own (the "
					   "tents beside it belong to other trees)",
					   where);
		else
			qubo__pz_violation(rep, "tree at %s has no tent beside it", where);
	}
	for (c = 0; c < t->n; c++) {
		if (!board[c] || t->tree[c] || qubo__pz_tt_mate_cell(ws, c) != UINT32_MAX)
			continue;
		qubo__pz_tt_where(t, c, where, sizeof where);
		if (t->own_n[c])
			qubo__pz_violation(rep,
					   "tent at %s cannot be paired with a tree of its own (the "
					   "trees beside it have other tents)",
					   where);
		else
			qubo__pz_violation(rep, "tent at %s has no tree beside it", where);
	}
}

static void tt_check(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep)
{
	const struct tt *t = p->data;
	size_t i, k;
	char w1[64], w2[64];

	for (i = 0; i < t->n; i++)
		if (board[i] && t->tree[i]) {
			qubo__pz_tt_where(t, i, w1, sizeof w1);
			qubo__pz_violation(rep, "tent at %s stands on a tree", w1);
		}
	for (k = 0; k < (size_t)t->h + t->w; k++) {
		int row = k < t->h;
		size_t idx = row ? k : k - t->h, len = row ? t->w : t->h;
		size_t start = row ? idx * t->w : idx, stride = row ? 1 : t->w;
		int32_t need = row ? t->rows[idx] : t->cols[idx];
		int64_t cnt = 0;

		for (i = 0; i < len; i++)
			cnt += board[start + i * stride];
		if (cnt != need)
			qubo__pz_violation(rep, "%s %zu has %lld tent%s, needs %d",
					   row ? "row" : "column", idx + 1, (long long)cnt,
					   qubo__pz_tt_s(cnt), (int)need);
	}
	for (i = 0; i < t->n; i++) {
		size_t nb[4], m = board[i] ? later_neighbours(t, i, nb) : 0;

		for (k = 0; k < m; k++) {
			if (!board[nb[k]])
				continue;
			qubo__pz_tt_where(t, i, w1, sizeof w1);
			qubo__pz_tt_where(t, nb[k], w2, sizeof w2);
			qubo__pz_violation(rep, "tents at %s and %s touch", w1, w2);
		}
	}
	check_pairing(t, board, rep);
}

/* ---- the object ---- */

/*
 * The reduction: the FULL propagation always runs, since it finds the
 * contradictions whatever the level, which decides only which fixed cells
 * become constants. *fixed receives the values the model uses (NULL at
 * NONE; full or clues, both allocated here), ymask the FULL masks; ctl
 * (the build's) stops it.
 */
static int reduce(struct tt *t, const qubo_allocator *a, struct qubo__pz_ctl *ctl, int32_t level,
		  int8_t **full, int8_t **clues, uint8_t *ymask, const int8_t **fixed)
{
	struct qubo__pz_tt_ws *ws = NULL;
	int rc = qubo__pz_tt_ws_new(t, a, ctl, &ws);

	if (rc)
		return rc;
	*full = qubo__malloc_array(a, t->n, 1);
	if (level == QUBO_REDUCE_CLUES)
		*clues = qubo__malloc_array(a, t->n, 1);
	if (!*full || (level == QUBO_REDUCE_CLUES && !*clues)) {
		qubo__pz_tt_ws_free(a, ws);
		return qubo__nomem("the reduction's cells");
	}
	memset(*full, 0xff, t->n);
	rc = qubo__pz_tt_propagate(ws, QUBO_REDUCE_FULL, *full, 0, t->rule_fixes, ymask);
	if (!rc && *clues) {
		memset(*clues, 0xff, t->n);
		rc = qubo__pz_tt_propagate(ws, QUBO_REDUCE_CLUES, *clues, 0, NULL, NULL);
	}
	qubo__pz_tt_ws_free(a, ws);
	*fixed = level == QUBO_REDUCE_NONE ? NULL : level == QUBO_REDUCE_CLUES ? *clues : *full;
	return rc;
}

/* Sets *same when the reduction's cells and masks give every cell and
 * assignment the literal it has unreduced: the model depends on the
 * literals alone, so the reduced model is then the unreduced one. */
static int same_literals(const struct tt *t, const qubo_allocator *a, const int8_t *fixed,
			 const uint8_t *ymask, int *same)
{
	qubo_lit *l0 = qubo__malloc_array(a, t->n, 2 * sizeof *l0);
	qubo_lit *y0 = qubo__calloc_array(a, t->ntrees, 2 * 4 * sizeof *y0); /* some unused */

	if (!l0 || !y0) {
		qubo__free(a, l0);
		qubo__free(a, y0);
		return qubo__nomem("the unreduced model");
	}
	*same = assign_literals(t, NULL, NULL, l0, y0) ==
			assign_literals(t, fixed, ymask, l0 + t->n, y0 + 4 * t->ntrees) &&
		memcmp(l0, l0 + t->n, t->n * sizeof *l0) == 0 &&
		memcmp(y0, y0 + 4 * t->ntrees, 4 * t->ntrees * sizeof *y0) == 0;
	qubo__free(a, l0);
	qubo__free(a, y0);
	return QUBO_OK;
}

/* The model of the reduction's `fixed` cells (and masks at FULL), its cell
 * map and the statistics: the sizes after, and before from the unreduced
 * model, built for its size only. */
static int make_model(qubo_puzzle *p, struct tt *t, const struct qubo__pz_opts *opts,
		      const int8_t *fixed, const uint8_t *ymask)
{
	const qubo_allocator *a = &p->alloc;
	qubo_model *before = NULL;
	qubo_lit *tmp;
	size_t i, nv = 0;
	int rc;

	rc = build_model(t, a, opts->ctl, opts->penalty, fixed,
			 opts->reduce == QUBO_REDUCE_FULL ? ymask : NULL,
			 opts->cells_only ? NULL : &p->model, p->cell_lits, &nv);
	if (rc)
		return rc;
	for (i = 0; i < t->n; i++)
		p->stats.cells_fixed += !t->tree[i] && QUBO_LIT_IS_CONST(p->cell_lits[i]);
	if (opts->cells_only) {
		p->stats.variables_after = nv; /* no model: the count it would have */
		return QUBO_OK;
	}
	if (fixed) {
		int same = 0;

		rc = same_literals(t, a, fixed, opts->reduce == QUBO_REDUCE_FULL ? ymask : NULL,
				   &same);
		if (!rc && !same) {
			tmp = qubo__malloc_array(a, t->n, sizeof *tmp);
			if (!tmp)
				return qubo__nomem("the unreduced model");
			rc = build_model(t, a, opts->ctl, opts->penalty, NULL, NULL, &before, tmp,
					 &nv);
			qubo__free(a, tmp);
		}
	}
	if (!rc)
		qubo__pz_model_sizes(p, before);
	qubo_model_free(before);
	return rc;
}

int qubo__pz_tt_create(qubo_puzzle **out, const qubo_puzzle_tents_spec *spec, int32_t kind,
		       const struct qubo__pz_opts *opts, const char *fn)
{
	qubo_puzzle *p = NULL;
	int8_t *full = NULL, *clues = NULL;
	uint8_t *ymask = NULL;
	const int8_t *fixed = NULL;
	struct tt *t;
	const qubo_allocator *a;
	int rc;

	*out = NULL;
	rc = check_spec(spec, fn);
	if (!rc)
		rc = qubo__pz_new(&p, &qubo__pz_tents_family, opts, spec->width, spec->height,
				  sizeof *t, "the tents instance");
	if (rc)
		return rc;
	a = &p->alloc;
	t = p->data;
	t->w = spec->width;
	t->h = spec->height;
	t->n = (size_t)t->w * t->h;
	t->kind = kind;
	p->ground_energy = 0.0;
	p->has_ground_energy = 1;
	p->relaxed = spec->relaxed;
	if ((rc = copy_spec(t, a, spec, opts->ctl, fn)) || (rc = plain_contradictions(t)) ||
	    (rc = qubo__pz_tt_ws_new(t, a, NULL, &t->check_ws)) ||
	    (rc = qubo__pz_build_poll(opts->ctl, t->n)))
		goto out;
	p->cell_lits = qubo__malloc_array(a, t->n, sizeof *p->cell_lits);
	ymask = qubo__malloc_array(a, t->ntrees, 1);
	if (!p->cell_lits || !ymask) {
		rc = qubo__nomem("the cell map");
		goto out;
	}
	if ((rc = reduce(t, a, opts->ctl, opts->reduce, &full, &clues, ymask, &fixed)) ||
	    (rc = make_model(p, t, opts, fixed, ymask)))
		goto out;
	/* If every cell and assignment is fixed, propagation checked every
	 * rule, so the fixed board is the one solution: confirm it. */
	rc = qubo__pz_confirm_solved(p, fn);
out:
	qubo__free(a, full);
	qubo__free(a, clues);
	qubo__free(a, ymask);
	if (rc)
		qubo__pz_destroy(p);
	else
		*out = p;
	return rc;
}

int qubo_puzzle_tents_new(qubo_puzzle **out, const qubo_puzzle_tents_spec *spec,
			  const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_tents_new";
	struct qubo__pz_opts opts;
	int rc = qubo__pz_spec_args(out, spec, options, &opts, fn);

	if (rc)
		return rc;
	return qubo__pz_build_end(out, &opts, qubo__pz_tt_create(out, spec, TT_SPEC, &opts, fn));
}

int qubo__pz_tents_rule_counts(const qubo_puzzle *p, size_t counts[TT_NUM_RULES])
{
	const struct tt *t;

	if (!p || p->fam != &qubo__pz_tents_family)
		return QUBO_ERR_INVALID_ARG;
	t = p->data;
	memcpy(counts, t->rule_fixes, sizeof t->rule_fixes);
	return QUBO_OK;
}

/* ---- cells and the exact search ---- */

/* Trees are the puzzle's givens: no tent stands there. */
static void tt_cell(const qubo_puzzle *p, size_t i, qubo_puzzle_cell *out)
{
	const struct tt *t = p->data;

	if (t->tree[i])
		out->given = 0;
}

static void tt_ws_free(const qubo_puzzle *p, void *ws)
{
	qubo__pz_tt_ws_free(&p->alloc, ws);
}

static int tt_ws_new(const qubo_puzzle *p, void **out)
{
	struct qubo__pz_tt_ws *ws = NULL;
	int rc = qubo__pz_tt_ws_new(p->data, &p->alloc, NULL, &ws);

	*out = ws;
	return rc;
}

static int tt_search_propagate(const qubo_puzzle *p, void *ws, int8_t *val)
{
	(void)p;
	return qubo__pz_tt_propagate(ws, QUBO_REDUCE_FULL, val, 1, NULL, NULL);
}

static size_t tt_search_branch(const qubo_puzzle *p, void *ws, const int8_t *val)
{
	(void)p;
	return qubo__pz_tt_branch(ws, val);
}

static const struct qubo__pz_search_ops tt_search_ops = {
	tt_ws_new, tt_ws_free, tt_search_propagate, tt_search_branch, NULL,
};

const struct qubo__pz_family qubo__pz_tents_family = {
	QUBO_PUZZLE_TENTS,
	"tents",
	tt_destroy,
	tt_check,
	qubo__pz_tt_format,
	qubo__pz_tt_solution_header,
	NULL,
	NULL,
	qubo__pz_tt_solution_header_check,
	"'A' (a tent), '.' (empty) or 'T' (a tree)",
	"tents",
	tt_cell,
	NULL,
	&tt_search_ops,
	qubo__pz_tt_solution_grid,
	qubo__pz_tt_solution_read,
};
