/*
 * The binary-grid families: Takuzu (Binairo, Unruly) and LinkedIn Tango
 * (§3 of the second paper cited in doc/formulations.md). Every instance is
 * a struct bn (binary_impl.h): this file checks and copies it, folds the
 * relations into parity classes, runs the reduction (binary_reduce.c) and
 * the checks it cannot make, builds the exact QUBO at the chosen reduction
 * level, and holds the rule checker and the search slots. The text forms
 * are in binary_text.c.
 *
 * The model over literals (one per cell: a variable, its complement for a
 * cell that differs from its parity class's representative, or a constant
 * for a fixed cell), weight P:
 *   every line with a count k:          P (Σ x − k)²               (exactly)
 *   every window (a, b, c):             P (1 − a − b − c + ab + bc + ca)
 *   at level NONE, each clue v:         P (x − v)²
 *                  each '=' / 'x':      P (x_a − x_b)² / P (x_a + x_b − 1)²
 *   rows (and columns) pairwise distinct, for each pair (r, s) of lines
 *   that the fixed cells do not already tell apart, witnesses a_j
 *   (x_rj = 1, x_sj = 0) and b_j (x_rj = 0, x_sj = 1) over the columns j
 *   where they can hold:
 *     P (Σ_j (a_j + b_j) − 1)² + P Σ_j [a_j (1 − x_rj) + a_j x_sj
 *                                      + b_j x_rj + b_j (1 − x_sj)]
 * Every term is 0 exactly when its rule holds (for the witnesses: at some
 * setting of them) and at least P otherwise, so the minimisers are the
 * solutions and the ground energy is 0 (doc/formulations.md).
 */
#include <stdio.h>
#include <string.h>

#include "binary_impl.h"

/* Classical Takuzu needs w·h·(h − 1) + h·w·(w − 1) witness variables in its
 * unreduced model; boards that would need more are QUBO_ERR_TOO_LARGE. */
#define BN_MAX_WITNESSES ((uint64_t)1 << 22)

/* ---- names for messages ---- */

void qubo__pz_bn_line_name(const struct bn *b, size_t k, char *buf, size_t cap)
{
	if (k < b->h)
		snprintf(buf, cap, "row %zu", k + 1);
	else if (k < (size_t)b->h + b->w)
		snprintf(buf, cap, "column %zu", k - b->h + 1);
	else
		snprintf(buf, cap, "region %zu", k - b->h - b->w);
}

void qubo__pz_bn_cell_name(const struct bn *b, size_t c, char *buf, size_t cap)
{
	snprintf(buf, cap, "row %zu, column %zu", c / b->w + 1, c % b->w + 1);
}

void qubo__pz_bn_window_name(const struct bn *b, size_t k, char *buf, size_t cap)
{
	const uint32_t *t = &b->win[3 * k];
	char c0[48], c1[48], c2[48];

	if (t[1] == t[0] + 1 && t[2] == t[1] + 1 && t[0] / b->w == t[2] / b->w) {
		snprintf(buf, cap, "row %zu, columns %zu to %zu", (size_t)t[0] / b->w + 1,
			 (size_t)t[0] % b->w + 1, (size_t)t[2] % b->w + 1);
	} else if (t[1] == t[0] + b->w && t[2] == t[1] + b->w) {
		snprintf(buf, cap, "column %zu, rows %zu to %zu", (size_t)t[0] % b->w + 1,
			 (size_t)t[0] / b->w + 1, (size_t)t[2] / b->w + 1);
	} else {
		qubo__pz_bn_cell_name(b, t[0], c0, sizeof c0);
		qubo__pz_bn_cell_name(b, t[1], c1, sizeof c1);
		qubo__pz_bn_cell_name(b, t[2], c2, sizeof c2);
		snprintf(buf, cap, "the cells at %s; %s and %s", c0, c1, c2);
	}
}

/* ---- the instance ---- */

static void bn_destroy(const qubo_allocator *a, void *data)
{
	struct bn *b = data;

	qubo__free(a, b->clue);
	qubo__free(a, b->need);
	qubo__free(a, b->region);
	qubo__free(a, b->rstart);
	qubo__free(a, b->rmemb);
	qubo__free(a, b->win);
	qubo__free(a, b->rel);
	qubo__free(a, b->hsign);
	qubo__free(a, b->vsign);
	qubo__free(a, b->next);
	qubo__free(a, b->flip);
	qubo__free(a, b->wstart);
	qubo__free(a, b->wmemb);
	qubo__free(a, b);
}

static int check_spec(const struct bn_spec *s, const char *fn)
{
	size_t n, i;
	uint32_t k;
	int rc = qubo__pz_check_board(s->width, s->height, fn);

	if (rc)
		return rc;
	n = (size_t)s->width * s->height;
	for (i = 0; s->clues && i < n; i++)
		if (s->clues[i] < -1 || s->clues[i] > 1)
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: clue %zu is %d", fn, i,
					   (int)s->clues[i]);
	for (k = 0; s->row_ones && k < s->height; k++)
		if (s->row_ones[k] < -1 || s->row_ones[k] > (int32_t)s->width)
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: row %u needs %d ones", fn,
					   (unsigned)k + 1, (int)s->row_ones[k]);
	for (k = 0; s->col_ones && k < s->width; k++)
		if (s->col_ones[k] < -1 || s->col_ones[k] > (int32_t)s->height)
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: column %u needs %d ones", fn,
					   (unsigned)k + 1, (int)s->col_ones[k]);
	for (i = 0; s->windows && i < s->num_windows; i++) {
		const uint32_t *t = &s->windows[3 * i];

		if (t[0] >= n || t[1] >= n || t[2] >= n || t[0] == t[1] || t[1] == t[2] ||
		    t[0] == t[2])
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: window %zu is not three cells of the board", fn, i);
	}
	for (i = 0; i < s->num_rels; i++)
		if (s->rels[i].a >= s->rels[i].b || s->rels[i].b >= n)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: relation %zu is not two cells a < b of the board",
					   fn, i);
	if (s->distinct &&
	    (uint64_t)s->width * s->height * (s->height - 1) +
			    (uint64_t)s->height * s->width * (s->width - 1) >
		    BN_MAX_WITNESSES)
		return qubo__too_large(QUBO_LIMIT_WITNESS_VARIABLES, BN_MAX_WITNESSES,
				       "%s: distinct rows and columns on a %u x %u board need more "
				       "than %llu witness variables",
				       fn, (unsigned)s->width, (unsigned)s->height,
				       (unsigned long long)BN_MAX_WITNESSES);
	return QUBO_OK;
}

/* The horizontal and vertical windows of three. */
static size_t standard_windows(uint32_t w, uint32_t h, uint32_t *win)
{
	size_t k = 0;
	uint32_t r, c;

	for (r = 0; r < h; r++)
		for (c = 0; c + 2 < w; c++, k++) {
			if (win) {
				win[3 * k] = r * w + c;
				win[3 * k + 1] = r * w + c + 1;
				win[3 * k + 2] = r * w + c + 2;
			}
		}
	for (c = 0; c < w; c++)
		for (r = 0; r + 2 < h; r++, k++) {
			if (win) {
				win[3 * k] = r * w + c;
				win[3 * k + 1] = (r + 1) * w + c;
				win[3 * k + 2] = (r + 2) * w + c;
			}
		}
	return k;
}

static int copy_spec(struct bn *b, const qubo_allocator *a, const struct bn_spec *s)
{
	size_t i, k;

	b->nwin = s->windows ? s->num_windows : standard_windows(b->w, b->h, NULL);
	b->nrel = s->num_rels;
	b->nreg = s->regions ? s->num_regions : 0;
	b->region = qubo__malloc_array(a, b->n, sizeof *b->region);
	b->rstart = qubo__calloc_array(a, b->nreg + 1, sizeof *b->rstart);
	b->rmemb = qubo__malloc_array(a, b->n, sizeof *b->rmemb);
	if (!b->region || !b->rstart || !b->rmemb)
		return qubo__nomem("the puzzle's regions");
	/* the cells of each region, row-major */
	for (i = 0; i < b->n; i++) {
		b->region[i] = s->regions ? s->regions[i] : -1;
		if (b->region[i] >= 0)
			b->rstart[b->region[i] + 1]++;
	}
	for (k = 0; k < b->nreg; k++)
		b->rstart[k + 1] += b->rstart[k];
	for (i = 0; i < b->n; i++)
		if (b->region[i] >= 0)
			b->rmemb[b->rstart[b->region[i]]++] = (uint32_t)i;
	for (k = b->nreg; k > 0; k--)
		b->rstart[k] = b->rstart[k - 1];
	b->rstart[0] = 0;
	b->maxlen = b->w > b->h ? b->w : b->h;
	for (k = 0; k < b->nreg; k++)
		if (bn_line_len(b, (size_t)b->h + b->w + k) > b->maxlen)
			b->maxlen = bn_line_len(b, (size_t)b->h + b->w + k);
	b->clue = qubo__malloc_array(a, b->n, 1);
	b->need = qubo__malloc_array(a, bn_nlines(b), sizeof *b->need);
	b->win = qubo__malloc_array(a, 3 * b->nwin, sizeof *b->win);
	b->rel = qubo__malloc_array(a, b->nrel, sizeof *b->rel);
	b->next = qubo__malloc_array(a, b->n, sizeof *b->next);
	b->flip = qubo__calloc_array(a, b->n, 1);
	b->wstart = qubo__calloc_array(a, b->n + 1, sizeof *b->wstart);
	b->wmemb = qubo__malloc_array(a, 3 * b->nwin, sizeof *b->wmemb);
	if (s->hsign) {
		b->hsign = qubo__malloc_array(a, b->n, 1);
		b->vsign = qubo__malloc_array(a, b->n, 1);
	}
	if (!b->clue || !b->need || !b->win || !b->rel || !b->next || !b->flip || !b->wstart ||
	    !b->wmemb || (s->hsign && (!b->hsign || !b->vsign)))
		return qubo__nomem("the puzzle's instance");
	for (i = 0; i < b->n; i++)
		b->clue[i] = s->clues ? s->clues[i] : -1;
	for (k = 0; k < (size_t)b->h + b->w; k++) {
		const int32_t *given = k < b->h ? s->row_ones : s->col_ones;
		size_t at = k < b->h ? k : k - b->h;

		b->need[k] = given ? given[at] : (int32_t)bn_line_len(b, k) / 2;
	}
	for (k = 0; k < b->nreg; k++)
		b->need[(size_t)b->h + b->w + k] = s->region_ones ? s->region_ones[k] : -1;
	if (s->windows)
		memcpy(b->win, s->windows, 3 * b->nwin * sizeof *b->win);
	else
		standard_windows(b->w, b->h, b->win);
	if (b->nrel)
		memcpy(b->rel, s->rels, b->nrel * sizeof *b->rel);
	if (s->hsign) {
		memcpy(b->hsign, s->hsign, b->n);
		memcpy(b->vsign, s->vsign, b->n);
	}
	/* the windows of each cell */
	for (k = 0; k < 3 * b->nwin; k++)
		b->wstart[b->win[k] + 1]++;
	for (i = 0; i < b->n; i++)
		b->wstart[i + 1] += b->wstart[i];
	for (k = 0; k < 3 * b->nwin; k++) {
		uint32_t c = b->win[k];

		b->wmemb[b->wstart[c]++] = (uint32_t)(k / 3);
	}
	for (i = b->n; i > 0; i--)
		b->wstart[i] = b->wstart[i - 1];
	b->wstart[0] = 0;
	return QUBO_OK;
}

/* ---- parity classes ---- */

static char sign_char(const struct bn_rel *r)
{
	return r->differ ? 'x' : '=';
}

/* Relation k closes a cycle with an odd number of 'x'. */
static int sign_cycle(const struct bn *b, size_t k)
{
	char ca[48], cb[48];

	qubo__pz_bn_cell_name(b, b->rel[k].a, ca, sizeof ca);
	qubo__pz_bn_cell_name(b, b->rel[k].b, cb, sizeof cb);
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: the '%c' between %s and %s closes a "
			   "cycle of signs with an odd number of 'x'",
			   sign_char(&b->rel[k]), ca, cb);
}

/* The clue of cell i contradicts an earlier clue of its class. */
static int clue_clash(const struct bn *b, qubo_parity *par, size_t i)
{
	uint32_t ri, rj;
	int f;
	size_t j;
	char ci[48], cj[48];

	qubo__pz_bn_cell_name(b, i, ci, sizeof ci);
	if (qubo_parity_find(par, (uint32_t)i, &ri, &f))
		ri = UINT32_MAX;
	for (j = 0; j < i; j++) {
		if (b->clue[j] < 0 || qubo_parity_find(par, (uint32_t)j, &rj, &f) || rj != ri)
			continue;
		qubo__pz_bn_cell_name(b, j, cj, sizeof cj);
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: the clue %d at %s and the clue "
				   "%d at %s contradict the signs that link them",
				   (int)b->clue[j], cj, (int)b->clue[i], ci);
	}
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: the clue at %s contradicts the signs", ci);
}

/* Folds the relations and clues into classes: b->next and b->flip, and the
 * CLUES-level literals (one variable per free class). */
static int make_classes(struct bn *b, const qubo_allocator *a, qubo_lit *lits, size_t *nv)
{
	qubo_parity *par = NULL;
	size_t i;
	int rc = qubo_parity_new(&par, b->n, a);

	for (i = 0; !rc && i < b->nrel; i++) {
		rc = qubo_parity_relate(par, b->rel[i].a, b->rel[i].b, b->rel[i].differ);
		if (rc == QUBO_ERR_INFEASIBLE)
			rc = sign_cycle(b, i);
	}
	for (i = 0; !rc && i < b->n; i++) {
		if (b->clue[i] < 0)
			continue;
		rc = qubo_parity_fix(par, (uint32_t)i, b->clue[i]);
		if (rc == QUBO_ERR_INFEASIBLE)
			rc = clue_clash(b, par, i);
	}
	for (i = 0; !rc && i < b->n; i++) {
		uint32_t rep;
		int f;

		b->next[i] = (uint32_t)i;
		rc = qubo_parity_find(par, (uint32_t)i, &rep, &f);
		if (rc)
			break;
		b->flip[i] = (uint8_t)f;
		if (rep != i) { /* the representative is the class's smallest cell */
			b->next[i] = b->next[rep];
			b->next[rep] = (uint32_t)i;
		}
	}
	if (!rc)
		rc = qubo_parity_literals(par, lits, b->n, nv);
	qubo_parity_free(par);
	return rc;
}

/* ---- what the reduction cannot see ---- */

/* A window whose three cells are one literal (all equal by the signs). */
static int check_windows(const struct bn *b, const qubo_lit *lits)
{
	size_t k;
	char name[160];

	for (k = 0; k < b->nwin; k++) {
		const uint32_t *t = &b->win[3 * k];

		if (QUBO_LIT_IS_CONST(lits[t[0]]) || lits[t[0]] != lits[t[1]] ||
		    lits[t[1]] != lits[t[2]])
			continue;
		qubo__pz_bn_window_name(b, k, name, sizeof name);
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "the puzzle has no solution: the signs make %s equal, and "
				   "no three equal cells may stand there",
				   name);
	}
	return QUBO_OK;
}

/* Whether line k can hold its count over its literals, where a variable may
 * stand several times, complemented or not: Σ = base + Σ_v d_v x_v, a
 * subset sum (pos and neg are zero on entry and on return; reach has
 * room for the line's length + 1). */
static int line_possible(const struct bn *b, size_t k, const qubo_lit *lits, int32_t *pos,
			 int32_t *neg, uint32_t *vars, uint8_t *reach)
{
	uint32_t j, len = bn_line_len(b, k);
	size_t nvars = 0, nfree = 0, v, s;
	int32_t base = 0, need = b->need[k];
	int ok;

	for (j = 0; j < len; j++) {
		qubo_lit l = lits[bn_line_cell(b, k, j)];

		if (l == QUBO_LIT_TRUE) {
			base++;
		} else if (l != QUBO_LIT_FALSE) {
			uint32_t x = QUBO_LIT_VAR(l);

			if (!pos[x] && !neg[x])
				vars[nvars++] = x;
			if (QUBO_LIT_IS_NEG(l))
				neg[x]++;
			else
				pos[x]++;
			nfree++;
		}
	}
	if (nvars == nfree) { /* no repeats: any count from base to base + nfree */
		ok = need >= base && need <= base + (int32_t)nfree;
	} else {
		for (v = 0; v < nvars; v++)
			base += neg[vars[v]];
		memset(reach, 0, (size_t)len + 1);
		reach[base] = 1;
		for (v = 0; v < nvars; v++) {
			int32_t d = pos[vars[v]] - neg[vars[v]];

			if (d > 0) {
				for (s = len + 1; s-- > 0;)
					if (reach[s] && s + (size_t)d <= len)
						reach[s + (size_t)d] = 1;
			} else if (d < 0) {
				for (s = 0; s <= len; s++)
					if (reach[s] && s >= (size_t)-d)
						reach[s - (size_t)-d] = 1;
			}
		}
		ok = need >= 0 && need <= (int32_t)len && reach[need];
	}
	for (v = 0; v < nvars; v++)
		pos[vars[v]] = neg[vars[v]] = 0;
	return ok;
}

/* Every line can reach its count over the FULL-level literals; the build's
 * ctl stops it. */
static int check_lines(const struct bn *b, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       const qubo_lit *lits, size_t nv)
{
	size_t k, maxlen = b->maxlen;
	int32_t *pos = qubo__calloc_array(a, nv, sizeof *pos);
	int32_t *neg = qubo__calloc_array(a, nv, sizeof *neg);
	uint32_t *vars = qubo__malloc_array(a, maxlen, sizeof *vars);
	uint8_t *reach = qubo__malloc_array(a, maxlen + 1, 1);
	uint64_t pending = 0;
	int rc = QUBO_OK;
	char name[32];

	if (!pos || !neg || !vars || !reach)
		rc = qubo__nomem("the line checks");
	for (k = 0; !rc && k < bn_nlines(b); k++) {
		if ((rc = qubo__pz_build_tick(ctl, &pending, bn_line_len(b, k))) ||
		    b->need[k] < 0 || line_possible(b, k, lits, pos, neg, vars, reach))
			continue;
		qubo__pz_bn_line_name(b, k, name, sizeof name);
		rc = qubo__error(QUBO_ERR_INFEASIBLE,
				 "the puzzle has no solution: the signs and clues leave %s no "
				 "way to hold %d ones",
				 name, (int)b->need[k]);
	}
	qubo__free(a, pos);
	qubo__free(a, neg);
	qubo__free(a, vars);
	qubo__free(a, reach);
	return rc;
}

/* Distinct lines: no two of the lines first … first + count − 1 (all rows
 * or all columns) with the same literal in every cell, which would make
 * them equal in every completion. */
static int check_distinct(const struct bn *b, struct qubo__pz_ctl *ctl, const qubo_lit *lits,
			  size_t first, size_t count)
{
	uint32_t j, len = bn_line_len(b, first);
	size_t k, k2;
	int rows = first == 0, rc;
	uint64_t pending = 0;

	for (k = first; k < first + count; k++)
		for (k2 = k + 1; k2 < first + count; k2++) {
			if ((rc = qubo__pz_build_tick(ctl, &pending, len)))
				return rc;
			for (j = 0; j < len; j++)
				if (lits[bn_line_cell(b, k, j)] != lits[bn_line_cell(b, k2, j)])
					break;
			if (j == len)
				return qubo__error(QUBO_ERR_INFEASIBLE,
						   "the puzzle has no solution: %s %zu and %zu "
						   "are equal in every completion, and no two "
						   "%s may be",
						   rows ? "rows" : "columns", k - first + 1,
						   k2 - first + 1, rows ? "rows" : "columns");
		}
	return QUBO_OK;
}

/* ---- the model ---- */

static int term_status(int rc, const char *what)
{
	/* The reduction's checks come first, so a penalty can only refuse a
	 * term when they missed something: still a proof of no solution. */
	if (rc != QUBO_ERR_INFEASIBLE)
		return rc;
	return qubo__error(QUBO_ERR_INFEASIBLE, "the puzzle has no solution: %s cannot be met",
			   what);
}

/* The witnesses of the pairs of lines first … first + count − 1 (wbuf has
 * room for two per cell of a line). */
static int add_witnesses(const struct bn *b, qubo_model *m, struct qubo__pz_ctl *ctl,
			 const qubo_lit *lits, size_t first, size_t count, qubo_lit *wbuf, double P)
{
	uint32_t j, len = bn_line_len(b, first);
	size_t k, k2;
	uint64_t pending = 0;
	int rc = QUBO_OK;

	for (k = first; k < first + count && !rc; k++) {
		for (k2 = k + 1; k2 < first + count && !rc; k2++) {
			uint32_t w0 = 0, nw = 0;
			/* Two lines with the same count that differ have a column
			 * where the first holds 1 and the second 0, and one the other
			 * way round: the witnesses of the first kind suffice. */
			int one_kind = b->need[k] >= 0 && b->need[k] == b->need[k2];

			for (j = 0; j < len; j++) {
				qubo_lit x = lits[bn_line_cell(b, k, j)];
				qubo_lit y = lits[bn_line_cell(b, k2, j)];

				if (x == QUBO_LIT_NOT(y))
					break; /* the lines always differ here */
				if (x == y)
					continue; /* never differ here: no witness */
				nw += x != QUBO_LIT_FALSE && y != QUBO_LIT_TRUE;
				nw += !one_kind && x != QUBO_LIT_TRUE && y != QUBO_LIT_FALSE;
			}
			if ((rc = qubo__pz_build_tick(ctl, &pending, len)) || j < len)
				continue;
			if (nw == 0)
				return term_status(QUBO_ERR_INFEASIBLE, "a pair of equal lines");
			rc = qubo_model_add_variables(m, nw, &w0);
			for (j = 0, nw = 0; j < len && !rc; j++) {
				qubo_lit x = lits[bn_line_cell(b, k, j)];
				qubo_lit y = lits[bn_line_cell(b, k2, j)];

				if (x == y)
					continue;
				if (x != QUBO_LIT_FALSE && y != QUBO_LIT_TRUE) {
					/* a: x = 1, y = 0 */
					qubo_lit a = QUBO_LIT(w0 + nw);

					wbuf[nw++] = a;
					rc = qubo_model_add_lit_product(m, a, QUBO_LIT_NOT(x), P);
					if (!rc)
						rc = qubo_model_add_lit_product(m, a, y, P);
				}
				if (!rc && !one_kind && x != QUBO_LIT_TRUE && y != QUBO_LIT_FALSE) {
					/* b: x = 0, y = 1 */
					qubo_lit w = QUBO_LIT(w0 + nw);

					wbuf[nw++] = w;
					rc = qubo_model_add_lit_product(m, w, x, P);
					if (!rc)
						rc = qubo_model_add_lit_product(m, w,
										QUBO_LIT_NOT(y), P);
				}
			}
			if (!rc)
				rc = qubo_penalty_exactly(m, wbuf, nw, 1, P);
			/* a hint for annealers: given the board, the pair's best
			 * witnesses are chosen jointly (group moves) */
			if (!rc && nw <= QUBO_MAX_GROUP_SIZE)
				rc = qubo_model_add_group(m, w0, nw);
		}
	}
	return rc;
}

/* Builds the compiled model over lits (nv variables before the
 * witnesses); the build's ctl stops it, between terms and in the model's
 * long calls. */
static int build_model(const struct bn *b, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       double P, const qubo_lit *lits, size_t nv, qubo_model **out)
{
	qubo_model *m = NULL;
	size_t k, maxlen = b->maxlen;
	qubo_lit *buf;
	uint32_t j;
	uint64_t pending = 0;
	int rc;

	*out = NULL;
	rc = qubo_model_new(&m, nv, a);
	qubo__pz_build_watch(m, ctl);
	if (rc)
		return rc;
	buf = qubo__malloc_array(a, 2 * maxlen, sizeof *buf);
	if (!buf)
		rc = qubo__nomem("the model's terms");
	/* clues and signs: nothing at the reduced levels, where they are in
	 * the literals already */
	for (k = 0; !rc && k < b->n; k++)
		if (!(rc = qubo__pz_build_tick(ctl, &pending, 1)) && b->clue[k] >= 0)
			rc = term_status(qubo_penalty_exactly(m, &lits[k], 1, b->clue[k], P),
					 "a clue");
	for (k = 0; !rc && k < b->nrel; k++) {
		qubo_lit x = lits[b->rel[k].a], y = lits[b->rel[k].b];

		rc = b->rel[k].differ ? qubo_penalty_differ(m, x, y, P)
				      : qubo_penalty_equal(m, x, y, P);
		rc = term_status(rc, "a sign");
		if (!rc)
			rc = qubo__pz_build_tick(ctl, &pending, 1);
	}
	for (k = 0; !rc && k < bn_nlines(b); k++) {
		if (b->need[k] < 0)
			continue;
		for (j = 0; j < bn_line_len(b, k); j++)
			buf[j] = lits[bn_line_cell(b, k, j)];
		rc = term_status(qubo_penalty_exactly(m, buf, j, b->need[k], P), "a line");
		if (!rc) /* a line of j cells: j² / 2 couplers */
			rc = qubo__pz_build_tick(ctl, &pending, (uint64_t)j * j / 2 + 1);
	}
	for (k = 0; !rc && k < b->nwin; k++) {
		const uint32_t *t = &b->win[3 * k];

		rc = term_status(qubo_penalty_no_three_equal(m, lits[t[0]], lits[t[1]], lits[t[2]],
							     P),
				 "a window");
		if (!rc)
			rc = qubo__pz_build_tick(ctl, &pending, 3);
	}
	if (!rc && b->distinct)
		rc = add_witnesses(b, m, ctl, lits, 0, b->h, buf, P);
	if (!rc && b->distinct)
		rc = add_witnesses(b, m, ctl, lits, b->h, b->w, buf, P);
	if (!rc)
		rc = qubo_model_compile(m);
	qubo__free(a, buf);
	if (rc) {
		qubo_model_free(m);
		return rc;
	}
	*out = m;
	return QUBO_OK;
}

/* ---- the rule checker (never looks at the model) ---- */

static void bn_check(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep)
{
	const struct bn *b = p->data;
	size_t i, k, k2;
	uint32_t j;
	char n1[160], n2[48];

	for (i = 0; i < b->n; i++)
		if (b->clue[i] >= 0 && board[i] != b->clue[i]) {
			qubo__pz_bn_cell_name(b, i, n1, sizeof n1);
			qubo__pz_violation(rep, "%s is %d, its clue is %d", n1, (int)board[i],
					   (int)b->clue[i]);
		}
	for (k = 0; k < bn_nlines(b); k++) {
		int32_t ones = 0;

		for (j = 0; j < bn_line_len(b, k); j++)
			ones += board[bn_line_cell(b, k, j)];
		if (b->need[k] >= 0 && ones != b->need[k]) {
			qubo__pz_bn_line_name(b, k, n1, sizeof n1);
			qubo__pz_violation(rep, "%s has %d ones, needs %d", n1, (int)ones,
					   (int)b->need[k]);
		}
	}
	for (k = 0; k < b->nwin; k++) {
		const uint32_t *t = &b->win[3 * k];

		if (board[t[0]] == board[t[1]] && board[t[1]] == board[t[2]]) {
			qubo__pz_bn_window_name(b, k, n1, sizeof n1);
			qubo__pz_violation(rep, "%s are three equal cells (%d)", n1,
					   (int)board[t[0]]);
		}
	}
	for (k = 0; k < b->nrel; k++) {
		const struct bn_rel *r = &b->rel[k];

		if ((board[r->a] != board[r->b]) == (r->differ != 0))
			continue;
		qubo__pz_bn_cell_name(b, r->a, n1, sizeof n1);
		qubo__pz_bn_cell_name(b, r->b, n2, sizeof n2);
		qubo__pz_violation(rep, "%s and %s are %s, the '%c' sign needs them %s", n1, n2,
				   r->differ ? "equal" : "different", sign_char(r),
				   r->differ ? "different" : "equal");
	}
	for (k = 0; b->distinct && k < (size_t)b->h + b->w; k++) {
		size_t last = k < b->h ? b->h : (size_t)b->h + b->w;

		for (k2 = k + 1; k2 < last; k2++) {
			for (j = 0; j < bn_line_len(b, k); j++)
				if (board[bn_line_cell(b, k, j)] != board[bn_line_cell(b, k2, j)])
					break;
			if (j == bn_line_len(b, k))
				qubo__pz_violation(rep, "%s %zu and %zu are equal",
						   k < b->h ? "rows" : "columns",
						   (k < b->h ? k : k - b->h) + 1,
						   (k < b->h ? k2 : k2 - b->h) + 1);
		}
	}
}

/* ---- the object ---- */

/* The FULL-level literals: fixed cells are constants, the other classes
 * numbered again in the order of their first cell. */
static int full_literals(const struct bn *b, const qubo_allocator *a, const qubo_lit *clues,
			 size_t nv_clues, const int8_t *full, qubo_lit *lits, size_t *nv)
{
	uint32_t *map = qubo__malloc_array(a, nv_clues, sizeof *map);
	size_t i;

	if (!map)
		return qubo__nomem("the cell map");
	memset(map, 0xff, nv_clues * sizeof *map);
	*nv = 0;
	for (i = 0; i < b->n; i++) {
		qubo_lit l = clues[i];

		if (full[i] >= 0) {
			lits[i] = full[i] ? QUBO_LIT_TRUE : QUBO_LIT_FALSE;
		} else if (QUBO_LIT_IS_CONST(l)) {
			lits[i] = l;
		} else {
			uint32_t v = QUBO_LIT_VAR(l);

			if (map[v] == UINT32_MAX)
				map[v] = (uint32_t)(*nv)++;
			lits[i] = QUBO_LIT_IS_NEG(l) ? QUBO_LIT_NEG(map[v]) : QUBO_LIT(map[v]);
		}
	}
	qubo__free(a, map);
	return QUBO_OK;
}

/* Propagation at the FULL level from the clues alone, with messages; the
 * build's ctl stops it. */
static int reduce_full(struct bn *b, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       int8_t *full)
{
	struct qubo__pz_bn_ws *ws = NULL;
	int rc = qubo__pz_bn_ws_new(b, a, ctl, &ws);

	if (rc)
		return rc;
	memset(full, 0xff, b->n);
	rc = qubo__pz_bn_propagate(ws, full, 0, b->rule_fixes);
	qubo__pz_bn_ws_free(a, ws);
	return rc;
}

/* The cell map and the model at the options' level, and the stats. */
static int build_level(qubo_puzzle *p, const struct qubo__pz_opts *opts, const qubo_lit *clues,
		       size_t nv_clues, const qubo_lit *full, size_t nv_full)
{
	const struct bn *b = p->data;
	const qubo_allocator *a = &p->alloc;
	qubo_lit *none = qubo__malloc_array(a, b->n, sizeof *none);
	qubo_model *before = NULL;
	size_t i, nv;
	int rc = QUBO_OK;

	p->cell_lits = qubo__malloc_array(a, b->n, sizeof *p->cell_lits);
	if (!none || !p->cell_lits) {
		qubo__free(a, none);
		return qubo__nomem("the cell map");
	}
	for (i = 0; i < b->n; i++)
		none[i] = QUBO_LIT(i);
	if (opts->reduce == QUBO_REDUCE_NONE) {
		memcpy(p->cell_lits, none, b->n * sizeof *none);
		nv = b->n;
	} else if (opts->reduce == QUBO_REDUCE_CLUES) {
		memcpy(p->cell_lits, clues, b->n * sizeof *clues);
		nv = nv_clues;
	} else {
		memcpy(p->cell_lits, full, b->n * sizeof *full);
		nv = nv_full;
	}
	if (opts->cells_only) {
		p->stats.variables_after = nv; /* no model: one variable per free class */
	} else {
		rc = build_model(b, a, opts->ctl, opts->penalty, p->cell_lits, nv, &p->model);
		/* The unreduced model, for its size only; with every cell its
		 * own variable the reduced one is that model. */
		if (!rc && opts->reduce != QUBO_REDUCE_NONE &&
		    (nv != b->n || memcmp(p->cell_lits, none, b->n * sizeof *none) != 0))
			rc = build_model(b, a, opts->ctl, opts->penalty, none, b->n, &before);
		if (!rc)
			qubo__pz_model_sizes(p, before);
		qubo_model_free(before);
	}
	qubo__free(a, none);
	for (i = 0; !rc && i < b->n; i++)
		p->stats.cells_fixed += QUBO_LIT_IS_CONST(p->cell_lits[i]);
	return rc;
}

int qubo__pz_bn_create(qubo_puzzle **out, const struct bn_spec *s, const struct qubo__pz_opts *opts,
		       const char *fn)
{
	qubo_puzzle *p = NULL;
	qubo_lit *clues = NULL, *full = NULL;
	int8_t *fixed = NULL;
	const qubo_allocator *a;
	size_t nv_clues = 0, nv_full = 0;
	struct bn *b;
	int rc;

	*out = NULL;
	rc = check_spec(s, fn);
	if (!rc)
		rc = qubo__pz_new(&p, s->kind == BN_TANGO ? &qubo__pz_tango_family
							 : &qubo__pz_takuzu_family,
				  opts, s->width, s->height, sizeof *b, "the puzzle's instance");
	if (rc)
		return rc;
	a = &p->alloc;
	b = p->data;
	b->w = s->width;
	b->h = s->height;
	b->n = (size_t)b->w * b->h;
	b->kind = s->kind;
	b->distinct = s->distinct;
	rc = copy_spec(b, a, s);
	if (!rc)
		rc = qubo__pz_build_poll(opts->ctl, b->n);
	if (rc)
		goto out;
	clues = qubo__malloc_array(a, b->n, sizeof *clues);
	full = qubo__malloc_array(a, b->n, sizeof *full);
	fixed = qubo__malloc_array(a, b->n, 1);
	if (!clues || !full || !fixed) {
		rc = qubo__nomem("the cell map");
		goto out;
	}
	/* Every check runs whatever the level: the level only decides which
	 * cells the model keeps as variables. */
	if ((rc = make_classes(b, a, clues, &nv_clues)) || (rc = check_windows(b, clues)) ||
	    (rc = reduce_full(b, a, opts->ctl, fixed)) ||
	    (rc = full_literals(b, a, clues, nv_clues, fixed, full, &nv_full)) ||
	    (rc = check_lines(b, a, opts->ctl, full, nv_full)) ||
	    (b->distinct && ((rc = check_distinct(b, opts->ctl, full, 0, b->h)) ||
			     (rc = check_distinct(b, opts->ctl, full, b->h, b->w)))))
		goto out;
	rc = build_level(p, opts, clues, nv_clues, full, nv_full);
	if (rc)
		goto out;
	p->ground_energy = 0.0;
	p->has_ground_energy = 1;
	/* every cell fixed: the propagation checked every rule on the board */
	rc = qubo__pz_confirm_solved(p, fn);
	if (!rc) {
		*out = p;
		p = NULL;
	}
out:
	qubo__free(a, clues);
	qubo__free(a, full);
	qubo__free(a, fixed);
	qubo__pz_destroy(p);
	return rc;
}

int qubo__pz_binary_rule_counts(const qubo_puzzle *p, size_t counts[BN_NUM_RULES])
{
	const struct bn *b;

	if (!p || (p->fam != &qubo__pz_takuzu_family && p->fam != &qubo__pz_tango_family))
		return QUBO_ERR_INVALID_ARG;
	b = p->data;
	memcpy(counts, b->rule_fixes, sizeof b->rule_fixes);
	return QUBO_OK;
}

/* ---- cells and the exact search ---- */

static int bn_on_board(const qubo_puzzle *p, size_t i)
{
	(void)p;
	(void)i;
	return 1;
}

static void bn_cell(const qubo_puzzle *p, size_t i, qubo_puzzle_cell *out)
{
	const struct bn *b = p->data;

	out->region = b->region[i];
	out->piece = -1;
	out->given = b->clue[i];
}

static int bn_ws_new(const qubo_puzzle *p, void **out)
{
	struct qubo__pz_bn_ws *ws = NULL;
	int rc = qubo__pz_bn_ws_new(p->data, &p->alloc, NULL, &ws);

	*out = ws;
	return rc;
}

static void bn_ws_free(const qubo_puzzle *p, void *ws)
{
	qubo__pz_bn_ws_free(&p->alloc, ws);
}

static int bn_search_propagate(const qubo_puzzle *p, void *ws, int8_t *val)
{
	(void)p;
	return qubo__pz_bn_propagate(ws, val, 1, NULL);
}

static size_t bn_search_branch(const qubo_puzzle *p, void *ws, const int8_t *val)
{
	(void)p;
	return qubo__pz_bn_branch(ws, val);
}

static const struct qubo__pz_search_ops bn_search_ops = {
	bn_ws_new, bn_ws_free, bn_search_propagate, bn_search_branch, NULL,
};

const struct qubo__pz_family qubo__pz_takuzu_family = {
	QUBO_PUZZLE_TAKUZU,
	"takuzu",
	bn_destroy,
	bn_check,
	qubo__pz_bn_format,
	qubo__pz_bn_solution_header,
	qubo__pz_bn_solution_char,
	qubo__pz_bn_solution_value,
	qubo__pz_bn_solution_header_check,
	"'0' or '1'",
	"takuzu",
	bn_cell,
	bn_on_board,
	&bn_search_ops,
	NULL,
	NULL,
};

const struct qubo__pz_family qubo__pz_tango_family = {
	QUBO_PUZZLE_TANGO,
	"tango",
	bn_destroy,
	bn_check,
	qubo__pz_bn_format,
	qubo__pz_bn_solution_header,
	qubo__pz_bn_solution_char,
	qubo__pz_bn_solution_value,
	qubo__pz_bn_solution_header_check,
	"'0' (sun) or '1' (moon)",
	"tango",
	bn_cell,
	bn_on_board,
	&bn_search_ops,
	qubo__pz_tango_solution_grid,
	qubo__pz_tango_solution_read,
};
