/* Chess pieces whose conflicts lie along lines: the model of every random
 * board (mixed and custom pieces, pre-placed pieces, regions or weights and
 * λ, small and medium boards, every reduction level) equals, bit for bit, a
 * reference built here from the plain conflict pairs of the referee's own
 * attack rule, and every conflicting pair is coupled exactly once with its
 * weight; a weight whose sum over all conflict pairs overflows fails as it
 * would with the pairs alone. */
#include <float.h>

#include "puzzle/chess_oracle.h"

#define CL_MAX_CELLS 196 /* 14 × 14 */
#define CL_MAX_SETS 4
#define CL_MAX_MOVES 40

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };

typedef struct cl {
	uint32_t w, h;
	size_t n;
	int32_t mode;
	int32_t pieces[CL_MAX_CELLS];
	size_t nsets;
	size_t start[CL_MAX_SETS + 1];
	qubo_puzzle_chess_move moves[CL_MAX_MOVES];
	int has_regions;
	int32_t regions[CL_MAX_CELLS];
	int has_weights;
	double weights[CL_MAX_CELLS];
	double lambda;
	uint32_t placed[CL_MAX_CELLS];
	size_t nplaced;
} cl;

/* The referee's conflict: either piece attacks the other's cell. */
static int cl_conflict(const cl *I, size_t a, size_t b)
{
	const qubo_puzzle_chess_move *custom[CL_MAX_SETS];
	size_t ncustom[CL_MAX_SETS], k;

	if (I->pieces[a] == QUBO_PUZZLE_CHESS_NONE || I->pieces[b] == QUBO_PUZZLE_CHESS_NONE)
		return 0;
	for (k = 0; k < I->nsets; k++) {
		custom[k] = I->moves + I->start[k];
		ncustom[k] = I->start[k + 1] - I->start[k];
	}
	return co_attacks(I->w, I->pieces[a], custom, ncustom, a, b) ||
	       co_attacks(I->w, I->pieces[b], custom, ncustom, b, a);
}

static void cl_spec(const cl *I, qubo_puzzle_chess_spec *s)
{
	qubo_puzzle_chess_spec z = QUBO_PUZZLE_CHESS_SPEC_INIT;

	*s = z;
	s->width = I->w;
	s->height = I->h;
	s->mode = I->mode;
	s->pieces = I->pieces;
	s->num_move_sets = I->nsets;
	s->move_set_start = I->nsets ? I->start : NULL;
	s->moves = I->moves;
	s->regions = I->has_regions ? I->regions : NULL;
	s->weights = I->has_weights ? I->weights : NULL;
	s->lambda = I->lambda;
	s->placed = I->placed;
	s->num_placed = I->nplaced;
}

/* Custom moves that make lines: slides both ways, slides one way only,
 * parallel slides of different lengths (a pair on two lines), long
 * slides, and leaps. */
static void cl_random_move(qubo_puzzle_chess_move *m, tu_rng *r)
{
	static const int32_t steps[][2] = { { 1, 0 },  { 0, 1 },  { 1, 1 },   { 1, -1 },
					    { 2, 2 },  { 2, 0 },  { 1, 2 },   { 2, -1 },
					    { -1, 0 }, { 0, -1 }, { -1, -1 }, { 3, 3 } };
	size_t k = (size_t)tu_below(r, sizeof steps / sizeof steps[0]);

	m->drow = steps[k][0];
	m->dcol = steps[k][1];
	if (tu_below(r, 2)) {
		m->drow = -m->drow;
		m->dcol = -m->dcol;
	}
	m->slide = tu_below(r, 4) != 0;
}

static void cl_random(cl *I, tu_rng *r, int32_t mode, uint32_t max_side)
{
	/* sliders most of the time: they make the lines */
	static const int32_t builtin[] = { QUBO_PUZZLE_CHESS_QUEEN,  QUBO_PUZZLE_CHESS_QUEEN,
					   QUBO_PUZZLE_CHESS_QUEEN,  QUBO_PUZZLE_CHESS_ROOK,
					   QUBO_PUZZLE_CHESS_ROOK,   QUBO_PUZZLE_CHESS_BISHOP,
					   QUBO_PUZZLE_CHESS_BISHOP, QUBO_PUZZLE_CHESS_KNIGHT,
					   QUBO_PUZZLE_CHESS_KING };
	size_t a, k, j, nb = sizeof builtin / sizeof builtin[0];
	int32_t style = (int32_t)tu_below(r, 4); /* 0 mixed, 1 one piece, 2 sparse, 3 custom */
	int32_t one = builtin[tu_below(r, nb)];
	double maxw = 0;

	memset(I, 0, sizeof *I);
	I->mode = mode;
	I->w = (uint32_t)tu_range(r, 1, max_side);
	I->h = (uint32_t)tu_range(r, 1, max_side);
	I->n = (size_t)I->w * I->h;
	I->nsets = (size_t)tu_below(r, CL_MAX_SETS + 1);
	for (k = 0; k < I->nsets; k++) {
		I->start[k + 1] = I->start[k] + (size_t)tu_below(r, 9);
		for (a = I->start[k]; a < I->start[k + 1]; a++)
			cl_random_move(&I->moves[a], r);
	}
	for (a = 0; a < I->n; a++) {
		uint64_t roll = tu_below(r, 10);

		if (style == 1)
			I->pieces[a] = roll == 0 ? QUBO_PUZZLE_CHESS_NONE : one;
		else if (roll == 0 || (style == 2 && roll < 5))
			I->pieces[a] = QUBO_PUZZLE_CHESS_NONE;
		else if (I->nsets && (style == 3 || roll == 1))
			I->pieces[a] = QUBO_PUZZLE_CHESS_CUSTOM + (int32_t)tu_below(r, I->nsets);
		else
			I->pieces[a] = builtin[tu_below(r, nb)];
	}
	if (mode == QUBO_PUZZLE_CHESS_MODE_COLOURED && tu_below(r, 3)) {
		int32_t nreg = (int32_t)tu_range(r, 1, I->n < 6 ? (int64_t)I->n : 6);

		I->has_regions = 1;
		for (a = 0; a < I->n; a++)
			I->regions[a] = tu_below(r, 4) ? (int32_t)tu_below(r, (uint64_t)nreg) : -1;
	}
	if (mode == QUBO_PUZZLE_CHESS_MODE_MAX) {
		static const double wv[] = { 0.3, 1, 1.7, 2, 5.5 };

		I->has_weights = (int)tu_below(r, 2);
		for (a = 0; a < I->n; a++) {
			I->weights[a] = I->has_weights ? wv[tu_below(r, 5)] : 1.0;
			if (I->pieces[a] != QUBO_PUZZLE_CHESS_NONE && I->weights[a] > maxw)
				maxw = I->weights[a];
		}
		if (tu_below(r, 2))
			I->lambda = maxw + wv[tu_below(r, 5)];
	}
	/* pre-placed pieces, mostly not in conflict with one another */
	for (k = tu_below(r, 4); k > 0; k--) {
		a = (size_t)tu_below(r, I->n);
		if (I->pieces[a] == QUBO_PUZZLE_CHESS_NONE)
			continue;
		for (j = 0; j < I->nplaced && a < I->n; j++)
			if (I->placed[j] == a ||
			    (cl_conflict(I, a, I->placed[j]) && tu_below(r, 8)))
				a = I->n;
		if (a < I->n)
			I->placed[I->nplaced++] = (uint32_t)a;
	}
}

/* The reference: the puzzle's terms over its own cell literals, with the
 * conflicts as plain pairs from the referee's attack rule, in the order the
 * builder adds its terms (regions or rewards, then conflicts by cell). */
static qubo_model *cl_reference(const cl *I, const qubo_lit *lits, size_t nv, double P,
				double *weight_out)
{
	qubo_model *m = NULL;
	qubo_lit buf[CL_MAX_CELLS], *pairs;
	double w[CL_MAX_CELLS], maxw = 0, weight = P;
	size_t a, b, cnt, np = 0;
	int32_t k, nreg = 0;

	cr_assert_eq(qubo_model_new(&m, nv, NULL), QUBO_OK);
	for (a = 0; a < I->n; a++)
		if (I->has_regions && I->regions[a] + 1 > nreg)
			nreg = I->regions[a] + 1;
	for (k = 0; k < nreg; k++) {
		cnt = 0;
		for (a = 0; a < I->n; a++)
			if (I->regions[a] == k && I->pieces[a] != QUBO_PUZZLE_CHESS_NONE)
				buf[cnt++] = lits[a];
		cr_assert_eq(qubo_penalty_exactly(m, buf, cnt, 1, P), QUBO_OK);
	}
	if (I->mode == QUBO_PUZZLE_CHESS_MODE_MAX) {
		cnt = 0;
		for (a = 0; a < I->n; a++) {
			if (I->pieces[a] == QUBO_PUZZLE_CHESS_NONE)
				continue;
			w[cnt] = I->has_weights ? I->weights[a] : 1.0;
			if (w[cnt] > maxw)
				maxw = w[cnt];
			if (lits[a] == QUBO_LIT_FALSE)
				continue;
			buf[cnt++] = lits[a];
		}
		cr_assert_eq(qubo_penalty_reward(m, buf, w, cnt), QUBO_OK);
		weight = I->lambda != 0.0 ? I->lambda : maxw + P;
	}
	pairs = malloc(I->n * I->n * sizeof *pairs + 1);
	cr_assert(pairs);
	for (a = 0; a < I->n; a++)
		for (b = a + 1; b < I->n; b++) {
			if (lits[a] == QUBO_LIT_FALSE || lits[b] == QUBO_LIT_FALSE ||
			    !cl_conflict(I, a, b))
				continue;
			pairs[2 * np] = lits[a];
			pairs[2 * np + 1] = lits[b];
			np++;
		}
	cr_assert_eq(qubo_penalty_conflicts(m, pairs, np, weight), QUBO_OK);
	free(pairs);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	*weight_out = weight;
	return m;
}

/* Bit for bit: the same variables, offset, linear terms and couplers. */
static void cl_same_model(const qubo_model *got, const qubo_model *want, const char *what)
{
	size_t nv = qubo_model_num_variables(want), nc = 0, nw = 0, k;
	double og = qubo_model_offset(got), ow = qubo_model_offset(want);
	double *hg, *hw, *vg, *vw;
	uint32_t *rg, *cg, *rw, *cw;

	cr_assert_eq(qubo_model_num_variables(got), nv, "%s", what);
	cr_assert(memcmp(&og, &ow, sizeof og) == 0, "%s: offset %a, want %a", what, og, ow);
	hg = calloc(nv + 1, sizeof *hg);
	hw = calloc(nv + 1, sizeof *hw);
	cr_assert(hg && hw);
	cr_assert_eq(qubo_model_export_linear(got, hg, nv), QUBO_OK);
	cr_assert_eq(qubo_model_export_linear(want, hw, nv), QUBO_OK);
	for (k = 0; k < nv; k++)
		cr_assert(memcmp(&hg[k], &hw[k], sizeof hg[k]) == 0, "%s: h[%zu] %a, want %a", what,
			  k, hg[k], hw[k]);
	cr_assert_eq(qubo_model_export_coo(got, NULL, NULL, NULL, 0, &nc), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(want, NULL, NULL, NULL, 0, &nw), QUBO_OK);
	cr_assert_eq(nc, nw, "%s: %zu couplers, want %zu", what, nc, nw);
	rg = malloc((nc + 1) * sizeof *rg);
	cg = malloc((nc + 1) * sizeof *cg);
	rw = malloc((nc + 1) * sizeof *rw);
	cw = malloc((nc + 1) * sizeof *cw);
	vg = malloc((nc + 1) * sizeof *vg);
	vw = malloc((nc + 1) * sizeof *vw);
	cr_assert(rg && cg && rw && cw && vg && vw);
	cr_assert_eq(qubo_model_export_coo(got, rg, cg, vg, nc, &nc), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(want, rw, cw, vw, nw, &nw), QUBO_OK);
	for (k = 0; k < nc; k++)
		cr_assert(rg[k] == rw[k] && cg[k] == cw[k] &&
				  memcmp(&vg[k], &vw[k], sizeof vg[k]) == 0,
			  "%s: coupler %zu is (%u, %u) %a, want (%u, %u) %a", what, k,
			  (unsigned)rg[k], (unsigned)cg[k], vg[k], (unsigned)rw[k], (unsigned)cw[k],
			  vw[k]);
	free(hg);
	free(hw);
	free(rg);
	free(cg);
	free(rw);
	free(cw);
	free(vg);
	free(vw);
}

/* Builds I at one level and penalty and compares; returns the conflicting
 * pairs of free cells checked, or 0 when the instance has no solution. */
static size_t cl_check(const cl *I, int32_t level, double P, const char *what)
{
	qubo_puzzle_chess_spec s;
	qubo_puzzle_options o = co_opts(level, P);
	qubo_puzzle *p = NULL;
	const qubo_model *m;
	qubo_model *ref;
	qubo_lit lits[CL_MAX_CELLS];
	size_t nv, a, b, checked = 0;
	double weight;
	int rc;

	cl_spec(I, &s);
	rc = qubo_puzzle_chess_new(&p, &s, &o);
	if (rc == QUBO_ERR_INFEASIBLE)
		return 0;
	cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, I->n), QUBO_OK);
	nv = qubo_model_num_variables(m);
	ref = cl_reference(I, lits, nv, P, &weight);
	cl_same_model(m, ref, what);
	/* and directly: a conflict gets its weight once, plus 2P within a region */
	for (a = 0; a < I->n; a++)
		for (b = a + 1; b < I->n; b++) {
			double got = -1.0, want = 0.0;

			if (QUBO_LIT_IS_CONST(lits[a]) || QUBO_LIT_IS_CONST(lits[b]))
				continue;
			if (I->has_regions && I->regions[a] >= 0 && I->regions[a] == I->regions[b])
				want = 2.0 * P;
			if (cl_conflict(I, a, b)) {
				want += weight;
				checked++;
			}
			cr_assert_eq(qubo_model_get_quadratic(m, QUBO_LIT_VAR(lits[a]),
							      QUBO_LIT_VAR(lits[b]), &got),
				     QUBO_OK);
			cr_assert_eq(got, want, "%s: cells %zu and %zu coupled by %a, want %a",
				     what, a, b, got, want);
		}
	qubo_model_free(ref);
	qubo_puzzle_free(p);
	return checked;
}

static size_t cl_trials(int32_t mode, size_t trials, uint64_t seed)
{
	static const double pens[] = { 1.0, 0.3, 2.5, 7.0 };
	tu_rng r = { seed };
	size_t t, checked = 0, built = 0;
	int lv;

	for (t = 0; t < trials; t++) {
		cl I;
		double P = pens[tu_below(&r, 4)];

		/* mostly small boards, a quarter medium (up to 14 × 14) */
		cl_random(&I, &r, mode, tu_below(&r, 4) ? 6 : 14);
		for (lv = 0; lv < 3; lv++) {
			char what[96];
			size_t c;

			snprintf(what, sizeof what, "%s trial %zu (%ux%u), level %d, P %g",
				 mode == QUBO_PUZZLE_CHESS_MODE_MAX ? "max" : "coloured", t,
				 (unsigned)I.w, (unsigned)I.h, (int)levels[lv], P);
			c = cl_check(&I, levels[lv], P, what);
			checked += c;
			built += c > 0;
		}
	}
	cr_assert_geq(built, trials / 2, "only %zu of %zu builds had a conflict", built,
		      3 * trials);
	return checked;
}

Test(chess_lines, conflicts_are_coupled_once_by_lines_or_pairs)
{
	size_t trials = valgrind_run() ? 40 : 300;
	size_t checked = cl_trials(QUBO_PUZZLE_CHESS_MODE_MAX, trials, 91) +
			 cl_trials(QUBO_PUZZLE_CHESS_MODE_COLOURED, trials, 92);

	cr_assert_geq(checked, 10000, "only %zu pairs checked", checked);
}

/* Full boards of one sliding piece: every row, column or diagonal is one
 * line, at every level and in both modes. */
Test(chess_lines, full_boards_of_sliders)
{
	static const int32_t kinds[3] = { QUBO_PUZZLE_CHESS_QUEEN, QUBO_PUZZLE_CHESS_ROOK,
					  QUBO_PUZZLE_CHESS_BISHOP };
	size_t checked = 0, a;
	int k, lv, mode;
	uint32_t side;

	for (side = 1; side <= 12; side++)
		for (k = 0; k < 3; k++)
			for (mode = 0; mode < 2; mode++)
				for (lv = 0; lv < 3; lv++) {
					cl I;
					char what[64];

					memset(&I, 0, sizeof I);
					I.w = I.h = side;
					I.n = (size_t)side * side;
					I.mode = mode ? QUBO_PUZZLE_CHESS_MODE_MAX :
							QUBO_PUZZLE_CHESS_MODE_COLOURED;
					for (a = 0; a < I.n; a++)
						I.pieces[a] = kinds[k];
					snprintf(what, sizeof what, "%u x %u of piece %d, mode %d",
						 (unsigned)side, (unsigned)side, (int)kinds[k],
						 mode);
					checked += cl_check(&I, levels[lv], 1.5, what);
				}
	cr_assert_geq(checked, 10000, "only %zu pairs checked", checked);
}

/* A conflict weight so large that its sum over all conflict pairs
 * overflows fails as it would with the pairs alone (every line, taken as a
 * clique, would fit): coloured pieces through the penalty, max pieces
 * through λ. An 8 × 8 board of queens has 728 conflicting pairs; each line
 * holds at most 8 cells. */
Test(chess_lines, penalty_overflow_counts_every_conflict_pair)
{
	/* as in queens: an overflow, the weight sum's limit, a penalty that fits */
	static const double div[3] = { 1000, 1e5, 1e12 };
	int k, mode, lv;

	for (mode = 0; mode < 2; mode++)
		for (lv = 0; lv < 3; lv++)
			for (k = 0; k < 3; k++) {
				qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
				qubo_puzzle_options o = co_opts(levels[lv], 1.0);
				qubo_puzzle *p = NULL;
				int rc;

				s.width = s.height = 8;
				s.mode = mode ? QUBO_PUZZLE_CHESS_MODE_MAX :
						QUBO_PUZZLE_CHESS_MODE_COLOURED;
				if (mode)
					s.lambda = DBL_MAX / div[k];
				else
					o.penalty = DBL_MAX / div[k];
				rc = qubo_puzzle_chess_new(&p, &s, &o);
				if (k == 0) {
					cr_assert_eq(rc, QUBO_ERR_OUT_OF_RANGE,
						     "mode %d level %d: %s", mode, lv,
						     qubo_error_message());
					cr_assert(strstr(qubo_error_message(),
							 "qubo_penalty_conflicts: the terms' "
							 "weights overflow"),
						  "%s", qubo_error_message());
					cr_assert_null(p);
				} else if (k == 1) {
					cr_assert_eq(rc, QUBO_ERR_OUT_OF_RANGE,
						     "mode %d level %d: %s", mode, lv,
						     qubo_error_message());
					cr_assert(strstr(qubo_error_message(),
							 "QUBO_MODEL_MAX_WEIGHT_SUM"),
						  "%s", qubo_error_message());
					cr_assert_null(p);
				} else {
					cr_assert_eq(rc, QUBO_OK, "mode %d level %d: %s", mode, lv,
						     qubo_error_message());
				}
				qubo_puzzle_free(p);
			}
}
