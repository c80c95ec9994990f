/*
 * Coloured and max chess pieces (§2.6 of the second paper cited in
 * doc/formulations.md): checking and copying a spec, the attack graph,
 * propagation from pre-placed pieces, the model, and the rule checker. The
 * text form is in chess_text.c.
 *
 * The model over literals (one per cell: a variable, or a constant for
 * cells without a piece and fixed cells):
 *   coloured, weight P:  P (Σ_{R} x − 1)² for every region R
 *                        + P x_a x_b for every conflicting pair a, b
 *   max:                 −Σ w_c x_c + λ x_a x_b for every conflicting pair
 * (the conflict terms of a line whose cells all attack each other as one
 * at-most-one clique: chess_lines.c)
 * Coloured: every term is 0 exactly when its rule holds and at least P
 * otherwise, so the minimisers are the solutions, at energy 0. Max: with
 * λ > max w, removing a piece from a conflicting pair lowers the energy by
 * at least λ − w > 0, so a minimiser has no conflict, and among
 * conflict-free boards the energy is −(total weight) (the second paper, Prop. 2.3;
 * doc/formulations.md).
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "chess_impl.h"

static void cz_destroy(const qubo_allocator *a, void *data)
{
	struct cz *z = data;

	if (!z)
		return;
	qubo__free(a, z->code);
	qubo__pz_cz_sets_free(&z->sets, a);
	qubo__free(a, z->region);
	qubo__free(a, z->reg_start);
	qubo__free(a, z->reg_cells);
	qubo__free(a, z->weight);
	qubo__free(a, z->placed);
	qubo__free(a, z->out_start);
	qubo__free(a, z->out);
	qubo__free(a, z->adj_start);
	qubo__free(a, z->adj);
	qubo__free(a, z->reg_char);
	qubo__free(a, z);
}

/* ---- names for messages ---- */

static void cell_name(const struct cz *z, size_t i, char *buf, size_t cap)
{
	char piece[48];

	qubo__pz_cz_piece_name(&z->sets, z->code[i], piece, sizeof piece);
	snprintf(buf, cap, "%s at row %zu, column %zu", piece, i / z->w + 1, i % z->w + 1);
}

static void region_name(const struct cz *z, size_t k, char *buf, size_t cap)
{
	if (z->reg_char)
		snprintf(buf, cap, "region '%c'", z->reg_char[k]);
	else
		snprintf(buf, cap, "region %zu", k);
}

/* ---- checking and copying a spec ---- */

static const char *no_piece_why(const void *spec, uint32_t cell)
{
	const qubo_puzzle_chess_spec *s = spec;

	return s->pieces && s->pieces[cell] == QUBO_PUZZLE_CHESS_NONE ?
		       "is a cell where no piece may stand" :
		       NULL;
}

static int check_spec(const qubo_puzzle_chess_spec *s, const char *fn)
{
	size_t n, i;
	int rc;

	rc = qubo__check_struct(s, s->struct_size, QUBO_PUZZLE_CHESS_SPEC_SIZE_V1, sizeof *s,
				"qubo_puzzle_chess_spec", fn);
	if (rc)
		return rc;
	rc = qubo__pz_check_board(s->width, s->height, fn);
	if (rc)
		return rc;
	n = (size_t)s->width * s->height;
	if (s->mode != QUBO_PUZZLE_CHESS_MODE_COLOURED && s->mode != QUBO_PUZZLE_CHESS_MODE_MAX)
		return qubo__error(
			QUBO_ERR_INVALID_ARG,
			"%s: spec.mode is %d, expected 0 (QUBO_PUZZLE_CHESS_MODE_COLOURED) or 1 "
			"(QUBO_PUZZLE_CHESS_MODE_MAX)",
			fn, (int)s->mode);
	for (i = 0; s->pieces && i < n; i++) {
		int32_t c = s->pieces[i];

		if (c == QUBO_PUZZLE_CHESS_NONE || (c >= 0 && c < QUBO__CZ_BUILTINS) ||
		    (c >= QUBO_PUZZLE_CHESS_CUSTOM &&
		     (size_t)(c - QUBO_PUZZLE_CHESS_CUSTOM) < s->num_move_sets))
			continue;
		if (c >= QUBO_CHESS_CUSTOM)
			return qubo__error_cell(QUBO_ERR_INVALID_ARG, i / s->width + 1,
						i % s->width + 1,
						"%s: spec.pieces[%zu] (row %zu, column %zu) is %d, "
						"move set %d, but there are %zu move sets",
						fn, i, i / s->width + 1, i % s->width + 1, (int)c,
						(int)(c - QUBO_CHESS_CUSTOM), s->num_move_sets);
		return qubo__error_cell(
			QUBO_ERR_INVALID_ARG, i / s->width + 1, i % s->width + 1,
			"%s: spec.pieces[%zu] (row %zu, column %zu) is %d, expected "
			"-1 (none), 0-4 (queen, rook, bishop, knight, king) or "
			"QUBO_CHESS_CUSTOM + k",
			fn, i, i / s->width + 1, i % s->width + 1, (int)c);
	}
	if (s->mode == QUBO_PUZZLE_CHESS_MODE_MAX && s->regions)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.regions must be NULL for max chess pieces", fn);
	if (s->mode == QUBO_PUZZLE_CHESS_MODE_COLOURED && s->weights)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.weights must be NULL for coloured chess pieces", fn);
	if (s->mode == QUBO_PUZZLE_CHESS_MODE_COLOURED && s->lambda != 0.0)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.lambda is %g; it must be 0 for coloured chess "
				   "pieces",
				   fn, s->lambda);
	for (i = 0; s->regions && i < n; i++)
		if (s->regions[i] < -1 || (size_t)s->regions[i] + 1 > n)
			return qubo__error_cell(
				QUBO_ERR_INVALID_ARG, i / s->width + 1, i % s->width + 1,
				"%s: spec.regions[%zu] (row %zu, column %zu) is %d, "
				"expected -1 (no region) or a region number 0 to %zu",
				fn, i, i / s->width + 1, i % s->width + 1, (int)s->regions[i],
				n - 1);
	return qubo__pz_check_cell_list(s->placed, s->num_placed, "placed", s->width, n,
					no_piece_why, s, fn);
}

/* Weights and λ (max pieces), after the codes are copied. */
static int check_weights(struct cz *z, const qubo_puzzle_chess_spec *s, double P, const char *fn)
{
	size_t i, argmax = z->n;

	z->maxw = 0.0;
	for (i = 0; i < z->n; i++) {
		double w = s->weights ? s->weights[i] : 1.0;

		if (z->code[i] == QUBO_PUZZLE_CHESS_NONE)
			continue;
		if (!(w > 0.0 && w <= DBL_MAX))
			return qubo__error_cell(
				QUBO_ERR_INVALID_ARG, i / z->w + 1, i % z->w + 1,
				"%s: spec.weights[%zu] (row %zu, column %zu) is %g, "
				"expected a finite positive weight (a cell that must "
				"stay empty is QUBO_CHESS_NONE)",
				fn, i, i / z->w + 1, i % z->w + 1, w);
		if (argmax == z->n || w > z->maxw) {
			z->maxw = w;
			argmax = i;
		}
	}
	if (s->lambda == 0.0) {
		z->lambda = z->maxw + P;
		if (!(z->lambda <= DBL_MAX))
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s: the largest weight %g plus the penalty %g "
					   "overflows",
					   fn, z->maxw, P);
		return QUBO_OK;
	}
	if (!(s->lambda <= DBL_MAX && s->lambda > -DBL_MAX))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.lambda is %g, expected a finite weight (or 0 to "
				   "choose one)",
				   fn, s->lambda);
	if (!(s->lambda > z->maxw)) {
		if (argmax == z->n)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.lambda is %g; a conflict weight must be "
					      "positive",
					      fn, s->lambda);
		return qubo__error_cell(
			QUBO_ERR_INVALID_ARG, argmax / z->w + 1, argmax % z->w + 1,
			"%s: spec.lambda is %g, but the model is exact only when it "
			"exceeds every weight (doc/formulations.md, the λ rule); the "
			"weight at "
			"row %zu, column %zu is %g",
			fn, s->lambda, argmax / z->w + 1, argmax % z->w + 1, z->maxw);
	}
	z->lambda = s->lambda;
	return QUBO_OK;
}

static int copy_spec(struct cz *z, const qubo_allocator *a, const qubo_puzzle_chess_spec *s,
		     const char *letters, const char *reg_chars, double P, const char *fn)
{
	size_t n = z->n, i, k, total = 0;
	int rc;

	z->mode = s->mode;
	rc = qubo__pz_cz_sets_copy(&z->sets, a, s->num_move_sets, s->move_set_start, s->moves, fn);
	if (rc)
		return rc;
	z->code = qubo__malloc_array(a, n, sizeof *z->code);
	z->placed = qubo__calloc_array(a, n, 1);
	if (!z->code || !z->placed)
		return qubo__nomem("the chess instance");
	for (i = 0; i < n; i++)
		z->code[i] = s->pieces ? s->pieces[i] : QUBO_PUZZLE_CHESS_QUEEN;
	if (letters && z->sets.n) {
		z->sets.letters = qubo__malloc_array(a, z->sets.n, 1);
		if (!z->sets.letters)
			return qubo__nomem("the chess instance");
		memcpy(z->sets.letters, letters, z->sets.n);
	}
	rc = qubo__pz_mark_cells(z->placed, s->placed, s->num_placed, "placed", z->w, fn);
	if (rc)
		return rc;
	z->nplaced = s->num_placed;
	if (z->mode == QUBO_PUZZLE_CHESS_MODE_MAX) {
		if (s->weights) {
			z->weight = qubo__malloc_array(a, n, sizeof *z->weight);
			if (!z->weight)
				return qubo__nomem("the chess instance");
		}
		rc = check_weights(z, s, P, fn);
		if (rc)
			return rc;
		for (i = 0; z->weight && i < n; i++)
			z->weight[i] = z->code[i] == QUBO_PUZZLE_CHESS_NONE ? 0.0 : s->weights[i];
	}
	if (!s->regions)
		return QUBO_OK;
	/* Regions: numbers 0 … max, each listing its cells that may hold a piece. */
	z->region = qubo__malloc_array(a, n, sizeof *z->region);
	if (!z->region)
		return qubo__nomem("the chess regions");
	for (i = 0; i < n; i++) {
		z->region[i] = s->regions[i];
		if (s->regions[i] >= 0 && (size_t)s->regions[i] + 1 > z->nreg)
			z->nreg = (size_t)s->regions[i] + 1;
	}
	z->reg_start = qubo__calloc_array(a, z->nreg + 1, sizeof *z->reg_start);
	for (i = 0; i < n; i++)
		total += z->region[i] >= 0 && z->code[i] != QUBO_PUZZLE_CHESS_NONE;
	z->reg_cells = qubo__malloc_array(a, total, sizeof *z->reg_cells);
	if (reg_chars)
		z->reg_char = qubo__malloc_array(a, z->nreg, 1);
	if (!z->reg_start || !z->reg_cells || (reg_chars && !z->reg_char))
		return qubo__nomem("the chess regions");
	if (reg_chars)
		memcpy(z->reg_char, reg_chars, z->nreg);
	for (i = 0; i < n; i++)
		if (z->region[i] >= 0 && z->code[i] != QUBO_PUZZLE_CHESS_NONE)
			z->reg_start[z->region[i] + 1]++;
	for (k = 0; k < z->nreg; k++)
		z->reg_start[k + 1] += z->reg_start[k];
	{
		size_t *fill = qubo__malloc_array(a, z->nreg + 1, sizeof *fill);

		if (!fill)
			return qubo__nomem("the chess regions");
		memcpy(fill, z->reg_start, (z->nreg + 1) * sizeof *fill);
		for (i = 0; i < n; i++)
			if (z->region[i] >= 0 && z->code[i] != QUBO_PUZZLE_CHESS_NONE)
				z->reg_cells[fill[z->region[i]]++] = (uint32_t)i;
		qubo__free(a, fill);
	}
	return QUBO_OK;
}

/* ---- derived structures ---- */

static int build_graph(struct cz *z, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       const char *fn)
{
	uint8_t *can = qubo__malloc_array(a, z->n, 1);
	size_t i;
	int rc;

	if (!can)
		return qubo__nomem("the attack graph");
	for (i = 0; i < z->n; i++)
		can[i] = z->code[i] != QUBO_PUZZLE_CHESS_NONE;
	/* the conflict graph holds each attack twice, once each way */
	rc = qubo__pz_cz_reach_check(a, z->w, z->h, z->code, &z->sets, can,
				     QUBO__CZ_MAX_ENTRIES / 2, NULL, ctl, fn);
	if (!rc)
		rc = qubo__pz_cz_reach_lists(a, z->w, z->h, z->code, &z->sets, can, ctl,
					     &z->out_start, &z->out, fn);
	qubo__free(a, can);
	if (rc)
		return rc;
	return qubo__pz_cz_transpose(a, z->n, z->out_start, z->out, 1, ctl, &z->adj_start, &z->adj,
				     fn);
}

/* Nonzero when the piece at a attacks cell b (binary search). */
static int attacks(const struct cz *z, size_t a, size_t b)
{
	size_t lo = z->out_start[a], hi = z->out_start[a + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->out[mid] == b)
			return 1;
		if (z->out[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* ---- propagation ---- */

/* The consequences of a piece at c: its conflicting cells and the rest of
 * its region become empty. A piece already there is a contradiction (with
 * a message naming the pre-placed pieces, unless `quiet`). */
static int place(const struct cz *z, int8_t *val, size_t c, int quiet)
{
	char x[96], y[96], rn[48];
	size_t k;

	for (k = z->adj_start[c]; k < z->adj_start[c + 1]; k++) {
		size_t b = z->adj[k];

		if (val[b] == 1) {
			size_t u = c < b ? c : b, v = c < b ? b : c;

			if (quiet)
				return QUBO_ERR_INFEASIBLE;
			cell_name(z, u, x, sizeof x);
			cell_name(z, v, y, sizeof y);
			if (attacks(z, u, v) && attacks(z, v, u))
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: the pre-placed "
						   "%s and the pre-placed %s attack each other",
						   x, y);
			if (attacks(z, v, u))
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: the pre-placed "
						   "%s attacks the pre-placed %s",
						   y, x);
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "the puzzle has no solution: the pre-placed %s "
					   "attacks the pre-placed %s",
					   x, y);
		}
		val[b] = 0;
	}
	if (z->region && z->region[c] >= 0) {
		size_t r = (size_t)z->region[c];

		for (k = z->reg_start[r]; k < z->reg_start[r + 1]; k++) {
			size_t b = z->reg_cells[k];

			if (b == c)
				continue;
			if (val[b] == 1) {
				size_t u = c < b ? c : b, v = c < b ? b : c;

				if (quiet)
					return QUBO_ERR_INFEASIBLE;
				region_name(z, r, rn, sizeof rn);
				cell_name(z, u, x, sizeof x);
				cell_name(z, v, y, sizeof y);
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: %s holds two "
						   "pre-placed pieces, the %s and the %s",
						   rn, x, y);
			}
			val[b] = 0;
		}
	}
	return QUBO_OK;
}

/*
 * The reduction from cells already fixed in val (-1 free, 0, 1; cells
 * without a piece 0, pre-placed pieces 1). CLUES adds the consequences of
 * the pieces; FULL repeats them with forced pieces (coloured: a region with
 * one free cell left) and, for max pieces, puts a piece on every free cell
 * whose conflicting cells are all empty (it is in every optimum, since
 * weights are positive). Every rule keeps exactly the solutions (coloured)
 * or the optima (max) that agree with val. The messages of a contradiction
 * speak of pre-placed pieces (the only pieces at parse time); `quiet`
 * (the search) sets none. ctl (a build's, or NULL) is polled once a round
 * of the forced regions: a chain of regions each forcing the next takes as
 * many rounds as regions.
 */
static int reduce(const struct cz *z, int32_t level, int8_t *val, int quiet,
		  struct qubo__pz_ctl *ctl)
{
	size_t i, k;
	int rc, changed;
	char rn[48];

	if (level == QUBO_REDUCE_NONE)
		return QUBO_OK;
	for (k = 0; k < z->nreg; k++) {
		if (z->reg_start[k] < z->reg_start[k + 1])
			continue;
		if (quiet)
			return QUBO_ERR_INFEASIBLE;
		region_name(z, k, rn, sizeof rn);
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: %s has no cell where a piece "
				   "may stand",
				   rn);
	}
	for (i = 0; i < z->n; i++)
		if (val[i] == 1 && (rc = place(z, val, i, quiet)))
			return rc;
	if (level != QUBO_REDUCE_FULL)
		return QUBO_OK;
	do {
		changed = 0;
		if ((rc = qubo__pz_build_poll(ctl, z->n)))
			return rc;
		for (k = 0; k < z->nreg; k++) {
			size_t nfree = 0, last = 0, ones = 0, j;

			for (j = z->reg_start[k]; j < z->reg_start[k + 1]; j++) {
				size_t c = z->reg_cells[j];

				ones += val[c] == 1;
				if (val[c] < 0) {
					nfree++;
					last = c;
				}
			}
			if (ones || nfree > 1)
				continue;
			if (nfree == 0) {
				if (quiet)
					return QUBO_ERR_INFEASIBLE;
				region_name(z, k, rn, sizeof rn);
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: every cell of "
						   "%s conflicts with a pre-placed or forced "
						   "piece",
						   rn);
			}
			val[last] = 1;
			rc = place(z, val, last, quiet);
			if (rc)
				return rc;
			changed = 1;
		}
	} while (changed);
	if (z->mode == QUBO_PUZZLE_CHESS_MODE_MAX) {
		for (i = 0; i < z->n; i++) {
			int alone = val[i] < 0;

			for (k = z->adj_start[i]; alone && k < z->adj_start[i + 1]; k++)
				alone = val[z->adj[k]] == 0;
			if (alone)
				val[i] = 1;
		}
	}
	return QUBO_OK;
}

/* Fixes cells from the puzzle alone: val (n bytes) receives -1 (free), 0
 * or 1. Cells without a piece are 0 and pre-placed pieces 1 at every
 * level; then the reduction of the level, which ctl stops. */
static int propagate(const struct cz *z, int32_t level, int8_t *val, struct qubo__pz_ctl *ctl)
{
	size_t i;

	for (i = 0; i < z->n; i++)
		val[i] = z->code[i] == QUBO_PUZZLE_CHESS_NONE ? 0 : z->placed[i] ? 1 : -1;
	return reduce(z, level, val, 0, ctl);
}

int qubo__pz_cz_propagate(const struct cz *z, int8_t *val)
{
	size_t i;

	for (i = 0; i < z->n; i++) {
		if (z->code[i] == QUBO_PUZZLE_CHESS_NONE) {
			if (val[i] == 1)
				return QUBO_ERR_INFEASIBLE;
			val[i] = 0;
		} else if (z->placed[i]) {
			if (val[i] == 0)
				return QUBO_ERR_INFEASIBLE;
			val[i] = 1;
		}
	}
	return reduce(z, QUBO_REDUCE_FULL, val, 1, NULL);
}

/* ---- the model ---- */

/* The literal of each cell for the propagation's values val: the constant
 * of a fixed cell, else the next variable. Returns the variables. */
static size_t assign_lits(const struct cz *z, const int8_t *val, qubo_lit *lits)
{
	size_t i, nv = 0;

	for (i = 0; i < z->n; i++)
		lits[i] = val[i] == 0 ? QUBO_LIT_FALSE :
			  val[i] == 1 ? QUBO_LIT_TRUE :
					QUBO_LIT(nv++);
	return nv;
}

static int build_model(const struct cz *z, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       double P, const int8_t *val, qubo_model **model_out, qubo_lit *lits)
{
	qubo_model *m = NULL;
	qubo_lit *buf = NULL;
	double *w = NULL;
	size_t nv = 0, i, k, maxreg = 0, nlit = 0;
	int rc;

	*model_out = NULL;
	nv = assign_lits(z, val, lits);
	for (k = 0; k < z->nreg; k++)
		if (z->reg_start[k + 1] - z->reg_start[k] > maxreg)
			maxreg = z->reg_start[k + 1] - z->reg_start[k];
	rc = qubo_model_new(&m, nv, a);
	qubo__pz_build_watch(m, ctl);
	if (rc)
		return rc;
	buf = qubo__malloc_array(a, z->mode == QUBO_PUZZLE_CHESS_MODE_MAX ? z->n : maxreg,
				 sizeof *buf);
	if (z->mode == QUBO_PUZZLE_CHESS_MODE_MAX)
		w = qubo__malloc_array(a, z->n, sizeof *w);
	if (!buf || (z->mode == QUBO_PUZZLE_CHESS_MODE_MAX && !w)) {
		rc = qubo__nomem("the model's terms");
		goto fail;
	}
	if (z->mode == QUBO_PUZZLE_CHESS_MODE_COLOURED) {
		for (k = 0; k < z->nreg; k++) {
			size_t cnt = 0;

			for (i = z->reg_start[k]; i < z->reg_start[k + 1]; i++)
				buf[cnt++] = lits[z->reg_cells[i]];
			rc = qubo_penalty_exactly(m, buf, cnt, 1, P);
			if (rc) {
				if (rc == QUBO_ERR_INFEASIBLE) {
					char rn[48];

					region_name(z, k, rn, sizeof rn);
					rc = qubo__error(QUBO_ERR_INFEASIBLE,
							 "the puzzle has no solution: %s cannot "
							 "hold its piece",
							 rn);
				}
				goto fail;
			}
		}
	} else {
		for (i = 0; i < z->n; i++) {
			if (z->code[i] == QUBO_PUZZLE_CHESS_NONE || lits[i] == QUBO_LIT_FALSE)
				continue;
			buf[nlit] = lits[i];
			w[nlit++] = z->weight ? z->weight[i] : 1.0;
		}
		rc = qubo_penalty_reward(m, buf, w, nlit);
		if (rc)
			goto fail;
	}
	rc = qubo__pz_cz_add_conflicts(z, a, m, lits,
				       z->mode == QUBO_PUZZLE_CHESS_MODE_MAX ? z->lambda : P, ctl);
	if (rc == QUBO_ERR_INFEASIBLE)
		rc = qubo__error(QUBO_ERR_INFEASIBLE,
				 "the puzzle has no solution: two pre-placed pieces attack "
				 "each other");
	if (!rc)
		rc = qubo_model_compile(m);
	if (rc)
		goto fail;
	qubo__free(a, buf);
	qubo__free(a, w);
	*model_out = m;
	return QUBO_OK;
fail:
	qubo__free(a, buf);
	qubo__free(a, w);
	qubo_model_free(m);
	return rc;
}

/* ---- the rule checker (never looks at the model) ---- */

static void cz_check(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep)
{
	const struct cz *z = p->data;
	char x[96], y[96], rn[48];
	size_t i, k;

	for (i = 0; i < z->n; i++) {
		if (board[i] && z->code[i] == QUBO_PUZZLE_CHESS_NONE)
			qubo__pz_violation(rep,
					   "piece at row %zu, column %zu, where no piece may stand",
					   i / z->w + 1, i % z->w + 1);
		if (z->placed[i] && !board[i]) {
			cell_name(z, i, x, sizeof x);
			qubo__pz_violation(rep, "pre-placed %s is missing", x);
		}
	}
	for (k = 0; k < z->nreg; k++) {
		size_t cnt = 0;

		for (i = z->reg_start[k]; i < z->reg_start[k + 1]; i++)
			cnt += board[z->reg_cells[i]];
		if (cnt != 1) {
			region_name(z, k, rn, sizeof rn);
			qubo__pz_violation(rep, "%s has %zu piece%s, needs 1", rn, cnt,
					   cnt == 1 ? "" : "s");
		}
	}
	/* Attacks, each pair once. */
	for (i = 0; i < z->n; i++) {
		if (!board[i] || z->code[i] == QUBO_PUZZLE_CHESS_NONE)
			continue;
		for (k = z->out_start[i]; k < z->out_start[i + 1]; k++) {
			size_t b = z->out[k];
			int back;

			if (!board[b])
				continue;
			back = attacks(z, b, i);
			if (back && b < i)
				continue; /* reported from b */
			cell_name(z, i, x, sizeof x);
			cell_name(z, b, y, sizeof y);
			if (back)
				qubo__pz_violation(rep, "%s and %s attack each other", x, y);
			else
				qubo__pz_violation(rep, "%s attacks the %s", x, y);
		}
	}
}

/* ---- solution grids ---- */

/* A piece where no piece may stand has no letter: '.' would read back as
 * an empty cell. */
static char cz_solution_char(const qubo_puzzle *p, size_t cell, uint8_t value)
{
	const struct cz *z = p->data;

	if (!value)
		return '.';
	return z->code[cell] == QUBO_PUZZLE_CHESS_NONE ?
		       '\0' :
		       qubo__pz_cz_piece_letter(&z->sets, z->code[cell]);
}

static int cz_solution_value(const qubo_puzzle *p, size_t cell, unsigned char ch)
{
	const struct cz *z = p->data;

	if (ch == '.')
		return 0;
	if (z->code[cell] != QUBO_PUZZLE_CHESS_NONE &&
	    ch == (unsigned char)qubo__pz_cz_piece_letter(&z->sets, z->code[cell]))
		return 1;
	return -1;
}

/* ---- cells ---- */

/* A cell where no piece may stand is not on the board: its piece is
 * QUBO_PUZZLE_CHESS_NONE and its region -1 (whatever the spec said there). */
static void cz_cell(const qubo_puzzle *p, size_t i, qubo_puzzle_cell *out)
{
	const struct cz *z = p->data;
	int on = z->code[i] != QUBO_PUZZLE_CHESS_NONE;

	out->region = on && z->region ? z->region[i] : -1;
	out->given = z->placed[i] ? 1 : -1;
	out->piece = z->code[i];
}

static int cz_on_board(const qubo_puzzle *p, size_t i)
{
	const struct cz *z = p->data;

	return z->code[i] != QUBO_PUZZLE_CHESS_NONE;
}

/* ---- the object ---- */

int qubo__pz_cz_create(qubo_puzzle **out, const qubo_puzzle_chess_spec *spec, const char *letters,
		       const char *reg_chars, const struct qubo__pz_opts *opts, const char *fn)
{
	qubo_puzzle *p = NULL;
	qubo_model *before = NULL;
	int8_t *full = NULL, *val = NULL;
	qubo_lit *tmp = NULL;
	struct cz *z;
	const qubo_allocator *a;
	size_t i, nfixed = 0;
	int rc;

	*out = NULL;
	rc = check_spec(spec, fn);
	if (rc)
		return rc;
	rc = qubo__pz_new(&p,
			  spec->mode == QUBO_PUZZLE_CHESS_MODE_MAX ?
				  &qubo__pz_chess_max_family :
				  &qubo__pz_chess_coloured_family,
			  opts, spec->width, spec->height, sizeof *z, "the chess instance");
	if (rc)
		return rc;
	a = &p->alloc;
	z = p->data;
	z->w = spec->width;
	z->h = spec->height;
	z->n = (size_t)z->w * z->h;
	z->text = letters != NULL || reg_chars != NULL;
	rc = copy_spec(z, a, spec, letters, reg_chars, opts->penalty, fn);
	if (!rc)
		rc = qubo__pz_build_poll(opts->ctl, z->n);
	if (!rc)
		rc = build_graph(z, a, opts->ctl, fn);
	if (rc)
		goto fail;
	p->cell_lits = qubo__malloc_array(a, z->n, sizeof *p->cell_lits);
	full = qubo__malloc_array(a, z->n, 1);
	val = qubo__malloc_array(a, z->n, 1);
	if (!p->cell_lits || !full || !val) {
		rc = qubo__nomem("the cell map");
		goto fail;
	}
	/* Full propagation always runs, to find contradictions; the level
	 * decides which fixed cells become constants. */
	rc = propagate(z, QUBO_REDUCE_FULL, full, opts->ctl);
	if (!rc && opts->reduce != QUBO_REDUCE_FULL)
		rc = propagate(z, opts->reduce, val, opts->ctl);
	if (!rc)
		rc = build_model(z, a, opts->ctl, opts->penalty,
				 opts->reduce == QUBO_REDUCE_FULL ? full : val, &p->model,
				 p->cell_lits);
	if (rc)
		goto fail;
	p->has_ground_energy = z->mode == QUBO_PUZZLE_CHESS_MODE_COLOURED;
	p->ground_energy = 0.0;
	for (i = 0; i < z->n; i++)
		nfixed +=
			z->code[i] != QUBO_PUZZLE_CHESS_NONE && QUBO_LIT_IS_CONST(p->cell_lits[i]);
	p->stats.cells_fixed = nfixed;
	if (opts->reduce != QUBO_REDUCE_NONE) {
		/* The unreduced model (pre-placed pieces only), for its size. */
		tmp = qubo__malloc_array(a, z->n, sizeof *tmp);
		if (!tmp) {
			rc = qubo__nomem("the unreduced model");
			goto fail;
		}
		rc = propagate(z, QUBO_REDUCE_NONE, val, opts->ctl);
		/* The model depends on the cells' literals only: when the
		 * reduction fixed no more cells, it is the model itself. */
		if (!rc)
			assign_lits(z, val, tmp);
		if (!rc && memcmp(tmp, p->cell_lits, z->n * sizeof *tmp) != 0)
			rc = build_model(z, a, opts->ctl, opts->penalty, val, &before, tmp);
		if (rc)
			goto fail;
	}
	qubo__pz_model_sizes(p, before);
	qubo_model_free(before);
	before = NULL;
	/* If every cell is fixed, by rules that keep the solutions (optima),
	 * the fixed board is the only one: confirm it with the checker. */
	rc = qubo__pz_confirm_solved(p, fn);
	if (rc)
		goto fail;
	qubo__free(a, full);
	qubo__free(a, val);
	qubo__free(a, tmp);
	*out = p;
	return QUBO_OK;
fail:
	qubo__free(a, full);
	qubo__free(a, val);
	qubo__free(a, tmp);
	qubo_model_free(before);
	qubo__pz_destroy(p);
	return rc;
}

int qubo_puzzle_chess_new(qubo_puzzle **out, const qubo_puzzle_chess_spec *spec,
			  const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_chess_new";
	struct qubo__pz_opts opts;
	int rc = qubo__pz_spec_args(out, spec, options, &opts, fn);

	if (rc)
		return rc;
	return qubo__pz_build_end(out, &opts, qubo__pz_cz_create(out, spec, NULL, NULL, &opts, fn));
}

const struct qubo__pz_family qubo__pz_chess_coloured_family = {
	QUBO_PUZZLE_CHESS_COLOURED,
	"coloured chess pieces",
	cz_destroy,
	cz_check,
	qubo__pz_cz_format,
	qubo__pz_cz_solution_header,
	cz_solution_char,
	cz_solution_value,
	qubo__pz_cz_solution_header_check,
	"the cell's piece letter (a piece stands there) or '.'",
	"chess",
	cz_cell,
	cz_on_board,
	&qubo__pz_chess_coloured_search,
	NULL,
	NULL,
};

const struct qubo__pz_family qubo__pz_chess_max_family = {
	QUBO_PUZZLE_CHESS_MAX,
	"max chess pieces",
	cz_destroy,
	cz_check,
	qubo__pz_cz_format,
	qubo__pz_cz_solution_header,
	cz_solution_char,
	cz_solution_value,
	qubo__pz_cz_solution_header_check,
	"the cell's piece letter (a piece stands there) or '.'",
	"chess",
	cz_cell,
	cz_on_board,
	&qubo__pz_chess_max_search,
	NULL,
	NULL,
};
