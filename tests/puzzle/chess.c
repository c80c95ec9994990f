/* Coloured and max chess pieces: exactness by brute force (doc/formulations.md
 * §7) on random small boards with every piece type, custom move sets,
 * regions, weights and pre-placed pieces, at every reduction level; the λ
 * rule of the second paper's Prop. 2.3; the rule checker and its messages; the text
 * form (round trips, solution files, a table of bad inputs with line and
 * column); and a few boards solved with the built-in solvers. */
#include <math.h>

#include "puzzle/chess_oracle.h"

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };

/* ---- a random instance and its referee ---- */

typedef struct ci {
	uint32_t w, h;
	size_t n;
	int32_t mode;
	int32_t pieces[CO_MAX_CELLS];
	size_t nsets;
	size_t start[4];
	qubo_puzzle_chess_move moves[12];
	int has_regions;
	int32_t regions[CO_MAX_CELLS];
	int has_weights;
	double weights[CO_MAX_CELLS];
	double lambda;
	uint32_t placed[CO_MAX_CELLS];
	size_t nplaced;
	/* referee data */
	uint64_t conflict[CO_MAX_CELLS]; /* cells in conflict with each cell */
	uint64_t can;			 /* cells that may hold a piece */
} ci;

static int ci_attacks(const ci *I, size_t a, size_t b)
{
	const qubo_puzzle_chess_move *custom[3];
	size_t ncustom[3], k;

	for (k = 0; k < I->nsets; k++) {
		custom[k] = I->moves + I->start[k];
		ncustom[k] = I->start[k + 1] - I->start[k];
	}
	return co_attacks(I->w, I->pieces[a], custom, ncustom, a, b);
}

static void ci_prepare(ci *I)
{
	size_t a, b;

	I->can = 0;
	for (a = 0; a < I->n; a++) {
		I->conflict[a] = 0;
		if (I->pieces[a] != QUBO_PUZZLE_CHESS_NONE)
			I->can |= (uint64_t)1 << a;
	}
	for (a = 0; a < I->n; a++)
		for (b = 0; b < I->n; b++)
			if (a != b && I->pieces[a] != QUBO_PUZZLE_CHESS_NONE &&
			    I->pieces[b] != QUBO_PUZZLE_CHESS_NONE &&
			    (ci_attacks(I, a, b) || ci_attacks(I, b, a)))
				I->conflict[a] |= (uint64_t)1 << b;
}

static void ci_spec(const ci *I, qubo_puzzle_chess_spec *s)
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

static int ci_nregions(const ci *I)
{
	size_t i;
	int r = 0;

	for (i = 0; I->has_regions && i < I->n; i++)
		if (I->regions[i] + 1 > r)
			r = I->regions[i] + 1;
	return r;
}

/* The referee's verdict: a valid placement (coloured: a solution). */
static int ci_valid(const ci *I, uint64_t x)
{
	size_t a, k;
	int r, nreg = ci_nregions(I);

	if (x & ~I->can)
		return 0;
	for (k = 0; k < I->nplaced; k++)
		if (!((x >> I->placed[k]) & 1))
			return 0;
	for (a = 0; a < I->n; a++)
		if (((x >> a) & 1) && (I->conflict[a] & x))
			return 0;
	for (r = 0; r < nreg; r++) {
		int cnt = 0;

		for (a = 0; a < I->n; a++)
			cnt += I->regions[a] == r && ((I->can >> a) & 1) && ((x >> a) & 1);
		if (cnt != 1)
			return 0;
	}
	return 1;
}

static double ci_weight(const ci *I, uint64_t x)
{
	double t = 0;
	size_t a;

	for (a = 0; a < I->n; a++)
		if ((x >> a) & 1)
			t += I->has_weights ? I->weights[a] : 1.0;
	return t;
}

/* Every valid placement (coloured), or every one of largest weight (max),
 * by enumerating the subsets of the cells that may hold a piece. */
static double ci_referee(const ci *I, co_set *out)
{
	size_t cells[CO_MAX_CELLS], nc = 0, a;
	uint64_t s, top;
	double best = -1;

	out->n = 0;
	for (a = 0; a < I->n; a++)
		if ((I->can >> a) & 1)
			cells[nc++] = a;
	cr_assert(nc <= 20);
	top = (uint64_t)1 << nc;
	for (s = 0; s < top; s++) {
		uint64_t x = 0;
		size_t k;

		for (k = 0; k < nc; k++)
			if ((s >> k) & 1)
				x |= (uint64_t)1 << cells[k];
		if (!ci_valid(I, x))
			continue;
		if (I->mode == QUBO_PUZZLE_CHESS_MODE_MAX) {
			double wt = ci_weight(I, x);

			if (wt > best) {
				best = wt;
				out->n = 0;
			}
			if (wt < best)
				continue;
		}
		co_add(out, x);
	}
	co_sort(out);
	return best;
}

static const double weight_values[] = { 0.5, 1, 1.5, 2, 3 };

static void ci_random(ci *I, tu_rng *r, int32_t mode, size_t max_pieces)
{
	size_t a, k, npieces = 0;
	uint64_t plant = 0;

	memset(I, 0, sizeof *I);
	I->mode = mode;
	do {
		I->w = (uint32_t)tu_range(r, 1, 5);
		I->h = (uint32_t)tu_range(r, 1, 5);
	} while ((size_t)I->w * I->h > 25);
	I->n = (size_t)I->w * I->h;
	I->nsets = (size_t)tu_below(r, 3);
	for (k = 0; k < I->nsets; k++) {
		size_t m = (size_t)tu_below(r, 4);

		I->start[k + 1] = I->start[k] + m;
		for (a = I->start[k]; a < I->start[k + 1]; a++) {
			do {
				I->moves[a].drow = (int32_t)tu_range(r, -2, 2);
				I->moves[a].dcol = (int32_t)tu_range(r, -2, 2);
			} while (I->moves[a].drow == 0 && I->moves[a].dcol == 0);
			I->moves[a].slide = tu_below(r, 2) == 0;
		}
	}
	for (a = 0; a < I->n; a++) {
		if (tu_below(r, 5) == 0 || npieces >= max_pieces) {
			I->pieces[a] = QUBO_PUZZLE_CHESS_NONE;
			continue;
		}
		k = (size_t)tu_below(r, 5 + I->nsets);
		I->pieces[a] = k < 5 ? (int32_t)k : QUBO_PUZZLE_CHESS_CUSTOM + (int32_t)(k - 5);
		npieces++;
	}
	ci_prepare(I);
	/* plant a non-attacking placement */
	for (k = 0; k < 2 * I->n; k++) {
		a = (size_t)tu_below(r, I->n);
		if (((I->can >> a) & 1) && !(I->conflict[a] & plant) && tu_below(r, 2))
			plant |= (uint64_t)1 << a;
	}
	if (mode == QUBO_PUZZLE_CHESS_MODE_COLOURED && tu_below(r, 5) != 0) {
		/* regions grow from the planted pieces (sometimes at random) */
		int nreg = 0, planted = tu_below(r, 4) != 0;

		I->has_regions = 1;
		for (a = 0; a < I->n; a++)
			I->regions[a] = -2;
		for (a = 0; a < I->n && nreg < 4; a++)
			if (planted ? (plant >> a) & 1 : tu_below(r, 3) == 0)
				I->regions[a] = nreg++;
		for (a = 0; a < I->n; a++) {
			if (I->regions[a] != -2)
				continue;
			I->regions[a] = nreg == 0 || tu_below(r, 6) == 0 ?
						-1 :
						(int32_t)tu_below(r, (uint64_t)nreg);
			if (planted && I->regions[a] >= 0 && ((plant >> a) & 1))
				I->regions[a] = -1; /* keep the plant a solution */
		}
	}
	if (mode == QUBO_PUZZLE_CHESS_MODE_MAX) {
		double maxw = 1;

		if (tu_below(r, 2)) {
			I->has_weights = 1;
			maxw = 0;
			for (a = 0; a < I->n; a++) {
				I->weights[a] = weight_values[tu_below(r, 5)];
				if (((I->can >> a) & 1) && I->weights[a] > maxw)
					maxw = I->weights[a];
			}
		}
		if (tu_below(r, 2))
			I->lambda = maxw + weight_values[tu_below(r, 5)];
	}
	/* pre-placed pieces: from the plant, now and then one that is not */
	for (k = tu_below(r, 3); k > 0; k--) {
		a = (size_t)tu_below(r, I->n);
		if (!((I->can >> a) & 1) || (!((plant >> a) & 1) && tu_below(r, 4)))
			continue;
		for (size_t j = 0; j < I->nplaced; j++)
			if (I->placed[j] == a)
				a = I->n;
		if (a < I->n)
			I->placed[I->nplaced++] = (uint32_t)a;
	}
}

/* The library's checker agrees with the referee on a board. */
static void ci_check_agrees(const ci *I, const qubo_puzzle *p, uint64_t x)
{
	uint8_t board[CO_MAX_CELLS];
	size_t viol = 99;
	char rep[1024];

	co_board(x, I->n, board);
	cr_assert_eq(qubo_puzzle_check(p, board, I->n, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol == 0, ci_valid(I, x), "checker (%zu violations: %s) disagrees on %#llx",
		     viol, rep, (unsigned long long)x);
}

static void ci_exact(const ci *I, int trial)
{
	co_set want = { 0 }, got = { 0 };
	double best = ci_referee(I, &want);
	int lv, pen;

	for (lv = 0; lv < 3; lv++) {
		for (pen = 1; pen <= 2; pen++) {
			qubo_puzzle_chess_spec s;
			qubo_puzzle_options o = co_opts(levels[lv], pen);
			qubo_puzzle *p = NULL;
			double min, ground;
			char what[96];
			int rc;
			size_t k;

			snprintf(what, sizeof what, "trial %d (%s, level %d, P %d)", trial,
				 I->mode == QUBO_PUZZLE_CHESS_MODE_MAX ? "max" : "coloured",
				 (int)levels[lv], pen);
			ci_spec(I, &s);
			rc = qubo_puzzle_chess_new(&p, &s, &o);
			if (rc == QUBO_ERR_INFEASIBLE) {
				cr_assert_eq(want.n, 0,
					     "%s: infeasible (%s), but the referee has %zu", what,
					     qubo_error_message(), want.n);
				cr_assert_null(p);
				continue;
			}
			cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
			cr_assert_eq(qubo_puzzle_family(p), I->mode == QUBO_PUZZLE_CHESS_MODE_MAX ?
								    QUBO_PUZZLE_CHESS_MAX :
								    QUBO_PUZZLE_CHESS_COLOURED);
			min = co_minimisers(p, I->n, &got);
			if (I->mode == QUBO_PUZZLE_CHESS_MODE_COLOURED) {
				cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
				cr_assert_eq(ground, 0.0);
				if (want.n == 0) {
					cr_assert_gt(min, 0.0, "%s: no solution, minimum %g", what,
						     min);
				} else {
					cr_assert_eq(min, 0.0, "%s: minimum %g", what, min);
					co_assert_same(&got, &want, what);
				}
			} else {
				cr_assert_eq(qubo_puzzle_ground_energy(p, &ground),
					     QUBO_ERR_NOT_SUPPORTED);
				cr_assert_gt(want.n, 0, "%s: the referee found nothing", what);
				cr_assert_eq(min, -best, "%s: minimum %g, best weight %g", what,
					     min, best);
				co_assert_same(&got, &want, what);
			}
			/* the checker: every solution, and random boards */
			for (k = 0; k < want.n && k < 16; k++)
				ci_check_agrees(I, p, want.keys[k]);
			for (k = 0; k < 24; k++) {
				uint64_t x = 0;
				size_t a;

				for (a = 0; a < I->n; a++)
					if (rand() % 3 == 0)
						x |= (uint64_t)1 << a;
				ci_check_agrees(I, p, k % 2 ? x & I->can : x);
			}
			qubo_puzzle_free(p);
		}
	}
	co_clear(&want);
	co_clear(&got);
}

Test(chess, coloured_exact_on_random_boards)
{
	tu_rng r = { 0xC0105ED };
	int t, trials = valgrind_run() ? 12 : 120;

	srand(1);
	for (t = 0; t < trials; t++) {
		ci I;

		ci_random(&I, &r, QUBO_PUZZLE_CHESS_MODE_COLOURED, 16);
		ci_exact(&I, t);
	}
}

Test(chess, max_exact_on_random_boards)
{
	tu_rng r = { 0x3A8 };
	int t, trials = valgrind_run() ? 12 : 120;

	srand(2);
	for (t = 0; t < trials; t++) {
		ci I;

		ci_random(&I, &r, QUBO_PUZZLE_CHESS_MODE_MAX, 16);
		ci_exact(&I, t);
	}
}

/* ---- the λ rule ---- */

static int max_with(double lambda, const double *weights, qubo_puzzle **p)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	int32_t pieces[4] = { QUBO_PUZZLE_CHESS_ROOK, QUBO_PUZZLE_CHESS_ROOK,
			      QUBO_PUZZLE_CHESS_KNIGHT, QUBO_PUZZLE_CHESS_NONE };

	s.width = 2;
	s.height = 2;
	s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	s.pieces = pieces;
	s.weights = weights;
	s.lambda = lambda;
	return qubo_puzzle_chess_new(p, &s, NULL);
}

Test(chess, lambda_rule)
{
	static const double w[4] = { 1, 3, 2, 100 }; /* 100 is on a cell without a piece */
	qubo_puzzle *p = NULL;
	const qubo_model *m;
	double coupler;

	/* unweighted: λ must exceed 1 */
	cr_assert_eq(max_with(1.0, NULL, &p), QUBO_ERR_INVALID_ARG);
	cr_assert_null(p);
	cr_assert(strstr(qubo_error_message(), "the λ rule"), "%s", qubo_error_message());
	cr_assert_null(strstr(qubo_error_message(), "seeds/"), "%s", qubo_error_message());
	cr_assert_eq(max_with(0.5, NULL, &p), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(max_with(-2.0, NULL, &p), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(max_with(HUGE_VAL, NULL, &p), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(max_with(nan(""), NULL, &p), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(max_with(1.0000001, NULL, &p), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
	/* weighted: above the largest weight of a cell that may hold a piece */
	cr_assert_eq(max_with(3.0, w, &p), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "row 1, column 2 is 3"), "%s", qubo_error_message());
	cr_assert_eq(max_with(3.5, w, &p), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
	/* 0 chooses λ = max w + P: the two rooks' coupler */
	cr_assert_eq(max_with(0.0, w, &p), QUBO_OK);
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_model_get_quadratic(m, 0, 1, &coupler), QUBO_OK);
	cr_assert_eq(coupler, 4.0);
	qubo_puzzle_free(p);
	cr_assert_eq(max_with(0.0, NULL, &p), QUBO_OK);
	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	cr_assert_eq(qubo_model_get_quadratic(m, 0, 1, &coupler), QUBO_OK);
	cr_assert_eq(coupler, 2.0, "unweighted boards get λ = 2");
	qubo_puzzle_free(p);
	/* λ and weights belong to max pieces only; weights are positive */
	{
		qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
		static const double bad[4] = { 1, 0, 1, 1 };

		s.width = s.height = 2;
		s.lambda = 3;
		cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
		s.lambda = 0;
		s.weights = w;
		cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
		s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
		s.weights = bad;
		cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
		cr_assert(strstr(qubo_error_message(), "weights[1]"), "%s", qubo_error_message());
	}
}

/* Why the rule: with λ = max w (built by hand, since the builder refuses),
 * a board with two attacking pieces reaches the minimum. */
Test(chess, lambda_rule_is_needed)
{
	qubo_model *m = NULL;
	qubo_lit lits[2] = { QUBO_LIT(0), QUBO_LIT(1) };
	double w[2] = { 1, 1 }, both, one;
	uint8_t x11[2] = { 1, 1 }, x10[2] = { 1, 0 };

	cr_assert_eq(qubo_model_new(&m, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_penalty_reward(m, lits, w, 2), QUBO_OK);
	cr_assert_eq(qubo_penalty_conflicts(m, lits, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x11, 2, &both), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x10, 2, &one), QUBO_OK);
	cr_assert_eq(both, one, "λ = 1 ties the attacking pair with a single piece");
	qubo_model_free(m);
}

/* ---- spec checks ---- */

Test(chess, bad_specs)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle *p = NULL;
	int32_t pieces[4] = { 0, 0, 0, 0 }, regions[4] = { 0, 0, 0, 0 };
	size_t start[2] = { 0, 1 };
	qubo_puzzle_chess_move mv[1] = { { 0, 0, 0 } };
	uint32_t placed[2] = { 0, 0 };

	cr_assert_eq(qubo_puzzle_chess_new(NULL, &s, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_chess_new(&p, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG); /* 0 x 0 */
	s.width = s.height = 2;
	s.struct_size = 8;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_UNSUPPORTED_VERSION);
	s.struct_size = sizeof s;
	s.mode = 2;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.mode = QUBO_PUZZLE_CHESS_MODE_COLOURED;
	s.pieces = pieces;
	pieces[3] = 5;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "row 2, column 2"), "%s", qubo_error_message());
	pieces[3] = QUBO_PUZZLE_CHESS_CUSTOM;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.num_move_sets = 1;
	s.move_set_start = start;
	s.moves = mv;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG); /* (0, 0) */
	cr_assert(strstr(qubo_error_message(), "(0, 0)"), "%s", qubo_error_message());
	mv[0].dcol = 1;
	mv[0].slide = 2;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	mv[0].slide = 1;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
	s.regions = regions;
	regions[2] = -3;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	regions[2] = 4;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	regions[2] = 2; /* region 1 has no cell: no solution */
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INFEASIBLE);
	cr_assert(strstr(qubo_error_message(), "region 1 has no cell"), "%s", qubo_error_message());
	regions[2] = 0;
	s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.mode = QUBO_PUZZLE_CHESS_MODE_COLOURED;
	s.placed = placed;
	s.num_placed = 2;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG); /* twice */
	placed[1] = 9;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	pieces[1] = QUBO_PUZZLE_CHESS_NONE;
	placed[1] = 1;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	pieces[1] = QUBO_PUZZLE_CHESS_KNIGHT;
	placed[0] = 1;
	placed[1] = 3; /* the knight and the custom piece: both in region 0 */
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INFEASIBLE);
	cr_assert(strstr(qubo_error_message(), "region 0 holds two pre-placed pieces"), "%s",
		  qubo_error_message());
	s.regions = NULL;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
	placed[0] = 0; /* the queen attacks the custom piece, which slides right: not back */
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_ERR_INFEASIBLE);
	cr_assert(strstr(qubo_error_message(), "the pre-placed queen at row 1, column 1 attacks "
					       "the pre-placed piece of move set 0 at row 2, "
					       "column 2"),
		  "%s", qubo_error_message());
	cr_assert_null(p);
}

/* ---- the checker's words ---- */

Test(chess, checker_messages)
{
	static const char text[] = "chess 6x6 max\n"
				   "piece P -1,-2\n"
				   "......\n"
				   "..Q...\n"
				   "....P.\n"
				   "......\n"
				   ".....R\n"
				   "N.....\n";
	qubo_puzzle *p = NULL;
	uint8_t board[36] = { 0 };
	char rep[1024];
	size_t viol;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_CHESS_MAX);
	board[8] = board[16] = board[29] = 1; /* Q (2,3), P (3,5), R (5,6) */
	cr_assert_eq(qubo_puzzle_check(p, board, 36, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "queen at row 2, column 3 attacks the rook at row 5, column 6\n"),
		  "%s", rep);
	cr_assert(strstr(rep, "queen at row 2, column 3 and piece P at row 3, column 5 attack "
			      "each other\n") == NULL,
		  "%s", rep);
	cr_assert(strstr(rep, "piece P at row 3, column 5 attacks the queen"), "%s", rep);
	cr_assert_eq(viol, 2, "%s", rep);
	board[16] = 0;
	board[30] = 1; /* knight (6,1): nobody attacks it and it attacks nobody */
	board[0] = 1;  /* no piece may stand at (1,1) */
	cr_assert_eq(qubo_puzzle_check(p, board, 36, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "piece at row 1, column 1, where no piece may stand"), "%s", rep);
	cr_assert_eq(viol, 2, "%s", rep);
	board[0] = 0;
	board[29] = 0;
	cr_assert_eq(qubo_puzzle_check(p, board, 36, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s", rep);
	cr_assert_eq(rep[0], '\0');
	qubo_puzzle_free(p);
}

Test(chess, checker_mutual_and_regions)
{
	static const char text[] = "chess 3x2 coloured\n"
				   "Qkn\n"
				   "BRK\n"
				   "\n"
				   "aab\n"
				   "c.b\n";
	qubo_puzzle *p = NULL;
	uint8_t board[6] = { 1, 0, 0, 1, 0, 0 };
	char rep[1024];
	size_t viol;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_ERR_INFEASIBLE);
	cr_assert(strstr(qubo_error_message(), "the pre-placed king at row 1, column 2 attacks "
					       "the pre-placed knight at row 1, column 3"),
		  "%s", qubo_error_message());
	{
		static const char ok[] = "chess 3x2 coloured\n"
					 "QKN\n"
					 "BRK\n"
					 "aab\n"
					 "..b\n";

		cr_assert_eq(qubo_puzzle_parse(&p, ok, strlen(ok), NULL), QUBO_OK, "%s",
			     qubo_error_message());
	}
	cr_assert_eq(qubo_puzzle_check(p, board, 6, rep, sizeof rep, &viol), QUBO_OK);
	/* queen (1,1) and bishop (2,1): the queen attacks, the bishop does not */
	cr_assert(strstr(rep, "queen at row 1, column 1 attacks the bishop at row 2, column 1"),
		  "%s", rep);
	cr_assert(strstr(rep, "region 'a' has 1 piece") == NULL, "%s", rep);
	cr_assert(strstr(rep, "region 'b' has 0 pieces, needs 1"), "%s", rep);
	cr_assert_eq(viol, 2, "%s", rep);
	board[3] = 0; /* leaves region 'a' with its queen only */
	board[0] = 0;
	board[1] = board[2] = 1; /* the king attacks the knight, not the other way */
	cr_assert_eq(qubo_puzzle_check(p, board, 6, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "king at row 1, column 2 attacks the knight at row 1, column 3"),
		  "%s", rep);
	cr_assert_eq(viol, 1, "%s", rep);
	board[0] = 1;
	board[2] = 0;
	cr_assert_eq(qubo_puzzle_check(p, board, 6, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "region 'a' has 2 pieces, needs 1"), "%s", rep);
	cr_assert(strstr(rep, "queen at row 1, column 1 and king at row 1, column 2 attack each "
			      "other"),
		  "%s", rep);
	qubo_puzzle_free(p);
}

/* ---- text ---- */

typedef struct bad_case {
	const char *text;
	int status;
	size_t line, column;
	const char *needle;
} bad_case;

static const bad_case bad[] = {
	{ "chess\n", QUBO_ERR_PARSE, 1, 6, "board size and the problem" },
	{ "chess 3x2\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 1, 10, "'coloured' or 'max'" },
	{ "chess 3x2 most\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 1, 11, "unknown chess problem" },
	{ "chess 3x2 max more\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 1, 15, "unexpected word after 'max'" },
	{ "chess 3y2 max\n", QUBO_ERR_PARSE, 1, 8, "must be a number" },
	{ "chess 0x2 max\n", QUBO_ERR_PARSE, 1, 7, "between 1 and" },
	{ "chess 4096x4097 max\n", QUBO_ERR_TOO_LARGE, 1, 12, "the board height 4097 is above" },
	{ "chess 3x2 max\n", QUBO_ERR_PARSE, 2, 1, "not followed by the 3 x 2 piece grid" },
	{ "chess 3x2 max\nQQQ\n", QUBO_ERR_PARSE, 3, 1, "ends after 1 of its 2 rows" },
	{ "chess 3x2 max\nQQQ\nQQ\n", QUBO_ERR_PARSE, 3, 3, "row 2 has 2 of the board's 3" },
	{ "chess 3x2 max\nQQQ\nQQQQ\n", QUBO_ERR_PARSE, 3, 4, "row 2 is longer" },
	{ "chess 3x2 max\nQQQ\nQ#Q\n", QUBO_ERR_PARSE, 3, 2, "unexpected '#' in row 2" },
	{ "chess 3x2 max\nQQQ\nQAQ\n", QUBO_ERR_PARSE, 3, 2, "'A' in row 2 is not defined" },
	{ "chess 3x2 max\nQQQ\nQaQ\n", QUBO_ERR_PARSE, 3, 2, "'a' in row 2 is not defined" },
	{ "chess 3x2 max\nQQQ\nQQQ\n\nQQQ\n", QUBO_ERR_PARSE, 5, 1, "after the grid" },
	{ "chess 3x2 max\npiece Q 1,1\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 7, "other than Q, R" },
	{ "chess 3x2 max\npiece AB 1,1\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 7, "one uppercase letter" },
	{ "chess 3x2 max\npiece a 1,1\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 7, "one uppercase letter" },
	{ "chess 3x2 max\npiece A 1,1\npiece A 2,2\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 3, 7,
	  "defined twice" },
	{ "chess 3x2 max\npiece A 1\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 10, "expected ','" },
	{ "chess 3x2 max\npiece A 1;2\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 10, "expected ','" },
	{ "chess 3x2 max\npiece A x,2\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 9, "expected the row" },
	{ "chess 3x2 max\npiece A 1,\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 11, "expected the column" },
	{ "chess 3x2 max\npiece A 1,2+\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 12, "after the move" },
	{ "chess 3x2 max\npiece A 1,2 0,0*\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 13, "goes nowhere" },
	{ "chess 3x2 max\npiece A 1,-5000\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 2, 11, "between -4096" },
	{ "chess 3x2 coloured\nQQQ\nQQQ\n", QUBO_ERR_PARSE, 4, 1, "needs the 3 x 2 region grid" },
	{ "chess 3x2 coloured\nQQQ\nQQQ\n# regions\naab\nab-\n", QUBO_ERR_PARSE, 6, 3,
	  "unexpected '-' in row 2 (expected a region character" },
	{ "chess 3x2 coloured\nQQQ\nQQQ\naab\naab\naab\n", QUBO_ERR_PARSE, 6, 1, "after the grid" },
	{ "chess 3x2 colored\nQ.Q\n...\naab\nccb\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "region 'c' has no cell where a piece may stand" },
	{ "chess 3x2 colored\nqQq\n...\naab\n.ab\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "pre-placed queen at row 1, column 1 and the pre-placed queen at row 1, column 3" },
	{ "chess 3x3 coloured\nQ.Q\n...\nq..\naab\n.ab\nc..\n", QUBO_ERR_INFEASIBLE, 0, 0,
	  "every cell of region 'a' conflicts" },
	{ "domination\n", QUBO_ERR_PARSE, 1, 11, "board size" },
	{ "domination 8 ferz\n", QUBO_ERR_PARSE, 1, 14, "unknown piece" },
	{ "domination 8 king x\n", QUBO_ERR_PARSE, 1, 19, "unexpected word" },
	{ "domination 2x3\n..\n.Q\n..\n", QUBO_ERR_PARSE, 3, 2, "unexpected 'Q' in row 2" },
	{ "domination 2x3\n..\n# c\n..\n", QUBO_ERR_PARSE, 3, 2, "unexpected a space" },
	{ "domination 2x3\n..\n..\n", QUBO_ERR_PARSE, 4, 1, "ends after 2 of its 3 rows" },
	{ "domination 2x3\n..\n..\n..\n#\n", QUBO_ERR_PARSE, 5, 1, "after the grid" },
	{ "domination 5000\n", QUBO_ERR_TOO_LARGE, 1, 12, "the board size 5000 is above the largest" },
};

Test(chess, bad_inputs)
{
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		qubo_puzzle *p = (qubo_puzzle *)&p;
		int rc = qubo_puzzle_parse(&p, bad[i].text, strlen(bad[i].text), NULL);

		cr_assert_eq(rc, bad[i].status, "case %zu (%s): status %d, expected %d: %s", i,
			     bad[i].text, rc, bad[i].status, qubo_error_message());
		cr_assert_null(p, "case %zu", i);
		cr_assert(strstr(qubo_error_message(), bad[i].needle),
			  "case %zu: message '%s' lacks '%s'", i, qubo_error_message(),
			  bad[i].needle);
		if (bad[i].line) {
			cr_assert_eq(qubo_error_line(), bad[i].line, "case %zu: line %zu: %s", i,
				     qubo_error_line(), qubo_error_message());
			cr_assert_eq(qubo_error_column(), bad[i].column, "case %zu: column %zu: %s",
				     i, qubo_error_column(), qubo_error_message());
		}
	}
}

static void round_trip(const char *text, const char *canonical)
{
	qubo_puzzle *p = NULL, *q = NULL;
	char buf[2048];
	size_t len, n;
	qubo_puzzle_stats a = { sizeof a, 0, 0, 0, 0, 0, 0, 0, 0 }, b = a;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s: %s", text,
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_format(p, NULL, 0, &len), QUBO_OK);
	cr_assert_eq(qubo_puzzle_format(p, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_eq(n, len);
	cr_assert_str_eq(buf, canonical);
	cr_assert_eq(qubo_puzzle_parse(&q, buf, n, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_get_stats(p, &a), QUBO_OK);
	cr_assert_eq(qubo_puzzle_get_stats(q, &b), QUBO_OK);
	cr_assert_eq(a.variables_after, b.variables_after);
	cr_assert_eq(a.couplers_after, b.couplers_after);
	cr_assert_eq(qubo_puzzle_family(p), qubo_puzzle_family(q));
	qubo_puzzle_free(p);
	qubo_puzzle_free(q);
}

Test(chess, text_round_trips)
{
	round_trip("# a comment\n\nchess 3 max\r\n# pieces\n  piece Z 1,2 -2,-1* \nQRB  \nNKZ\n"
		   "..z\n# after\n",
		   "chess 3x3 max\npiece Z 1,2 -2,-1*\nQRB\nNKZ\n..z\n");
	round_trip("chess 4x2 colored\nNNNN\nNNNN\n# regions\n\nabbZ\n0.Zb\n",
		   "chess 4x2 coloured\nNNNN\nNNNN\n\nabbZ\n0.Zb\n");
	/* the example of doc/formats.md */
	round_trip("# coloured chess pieces: one piece per region, no piece attacks another\n"
		   "chess 5x4 coloured\npiece A 1,2 2,1 -1,2*\nKNKKk\nA.ABQ\nNNQAQ\nNNQNN\n\n"
		   "aabbc\naabcc\nddbc.\nddeee\n",
		   "chess 5x4 coloured\npiece A 1,2 2,1 -1,2*\nKNKKk\nA.ABQ\nNNQAQ\nNNQNN\n\n"
		   "aabbc\naabcc\nddbc.\nddeee\n");
	round_trip("domination 8\n", "domination 8\n");
	round_trip("domination 3x2 knight\n...\n#..\n", "domination 3x2 knight\n...\n#..\n");
	round_trip("domination 3x2 queen\n...\n...\n", "domination 3x2\n");
}

Test(chess, solution_files)
{
	static const char text[] = "chess 4x1 max\nQ.Nk\n";
	qubo_puzzle *p = NULL;
	uint8_t board[4] = { 1, 0, 0, 1 }, back[4];
	char buf[64];
	size_t n;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 4, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_str_eq(buf, "chess 4x1 max\nQ..K\n");
	cr_assert_eq(qubo_puzzle_parse_solution(p, buf, n, back, 4), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_arr_eq(back, board, 4);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "Q.N.\n", 5, back, 4), QUBO_OK);
	cr_assert_eq(back[2], 1);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "Q.R.\n", 5, back, 4), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_column(), 3);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "Q.Q.\n", 5, back, 4), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "chess 4x1 coloured\nQ...\n", 24, back, 4),
		     QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_column(), 11);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "chess 4x2 max\nQ...\n", 20, back, 4),
		     QUBO_ERR_PARSE);
	qubo_puzzle_free(p);
}

/* A spec-built puzzle: no text form, a bare solution grid, custom letters. */
Test(chess, spec_built_output)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	int32_t pieces[3] = { QUBO_PUZZLE_CHESS_CUSTOM, QUBO_PUZZLE_CHESS_NONE,
			      QUBO_PUZZLE_CHESS_CUSTOM + 1 };
	size_t start[3] = { 0, 1, 1 };
	qubo_puzzle_chess_move mv[1] = { { 0, 1, 1 } };
	uint8_t board[3] = { 1, 0, 1 };
	qubo_puzzle *p = NULL;
	char buf[64], rep[256];
	size_t n, viol;

	s.width = 3;
	s.height = 1;
	s.pieces = pieces;
	s.num_move_sets = 2;
	s.move_set_start = start;
	s.moves = mv;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_format(p, buf, sizeof buf, &n), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 3, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_str_eq(buf, "A.C\n");
	cr_assert_eq(qubo_puzzle_check(p, board, 3, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_str_eq(rep, "piece of move set 0 at row 1, column 1 attacks the piece of move "
			      "set 1 at row 1, column 3\n");
	qubo_puzzle_free(p);
}

/* ---- reduction ---- */

Test(chess, reduction_fixes_cells)
{
	/* a rook pre-placed in the corner of a 4 x 4 board of rooks, regions
	 * = rows: CLUES fixes its row and column; FULL then forces nothing
	 * more (every other row has 3 free cells) */
	static const char text[] = "chess 4 coloured\nrRRR\nRRRR\nRRRR\nRRRR\naaaa\nbbbb\ncccc\n"
				   "dddd\n";
	qubo_puzzle_options o[3];
	qubo_puzzle *p = NULL;
	qubo_puzzle_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const size_t want[3] = { 15, 9, 9 };
	int i;

	for (i = 0; i < 3; i++) {
		o[i] = co_opts(levels[i], 0);
		cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o[i]), QUBO_OK);
		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		cr_assert_eq(st.variables_after, want[i], "level %d: %zu", i, st.variables_after);
		cr_assert_eq(st.variables_before, 15);
		cr_assert_eq(st.cells_fixed, 16 - want[i]);
		qubo_puzzle_free(p);
	}
	/* a region left with one cell forces its piece, which fixes more */
	{
		static const char t2[] = "chess 3x1 coloured\nKKK\nabb\n";
		qubo_lit lits[3];

		o[0] = co_opts(QUBO_REDUCE_FULL, 0);
		cr_assert_eq(qubo_puzzle_parse(&p, t2, strlen(t2), &o[0]), QUBO_OK);
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 3), QUBO_OK);
		cr_assert_eq(lits[0], QUBO_LIT_TRUE);
		cr_assert_eq(lits[1], QUBO_LIT_FALSE);
		cr_assert_eq(lits[2], QUBO_LIT_TRUE);
		cr_assert_eq(qubo_puzzle_get_stats(p, &st), QUBO_OK);
		cr_assert_eq(st.solved_by_reduction, 1);
		qubo_puzzle_free(p);
	}
	/* max: a cell nothing conflicts with always holds a piece at FULL */
	{
		static const char t3[] = "chess 5x1 max\nKKK.K\n";
		qubo_lit lits[5];

		o[0] = co_opts(QUBO_REDUCE_FULL, 0);
		cr_assert_eq(qubo_puzzle_parse(&p, t3, strlen(t3), &o[0]), QUBO_OK);
		cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 5), QUBO_OK);
		cr_assert_eq(lits[4], QUBO_LIT_TRUE);
		cr_assert_eq(lits[3], QUBO_LIT_FALSE);
		cr_assert(!QUBO_LIT_IS_CONST(lits[0]));
		qubo_puzzle_free(p);
	}
}

/* ---- out of memory ---- */

Test(chess, out_of_memory)
{
	static const char text[] = "chess 4x3 coloured\npiece A 1,1* 0,2\nNRAB\na.BQ\nN.BQ\n"
				   "ccdd\naaca\nbaa.\n";
	size_t k, total, nomem = 0;
	tu_failalloc fa;
	qubo_puzzle_options o = co_opts(QUBO_REDUCE_CLUES, 0);
	qubo_puzzle *p = NULL;

	tu_failalloc_init(&fa, 0);
	o.allocator = &fa.a;
	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), &o), QUBO_OK, "%s",
		     qubo_error_message());
	qubo_puzzle_free(p);
	cr_assert_eq(fa.live, 0);
	total = fa.count;
	for (k = 1; k <= total; k++) {
		int rc;

		tu_failalloc_init(&fa, k);
		o.allocator = &fa.a;
		p = NULL;
		rc = qubo_puzzle_parse(&p, text, strlen(text), &o);
		/* a failure is NOMEM, or one the library lives with (libqubo's
		 * compile falls back when a scratch buffer is refused) */
		if (rc == QUBO_OK) {
			cr_assert_not_null(p);
		} else {
			cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %d", k, rc);
			cr_assert(fa.failed);
			cr_assert_null(p);
			nomem++;
		}
		qubo_puzzle_free(p);
		cr_assert_eq(fa.live, 0, "allocation %zu leaks %zu blocks", k, fa.live);
	}
	cr_assert_gt(nomem, total / 2, "%zu of %zu failures reported", nomem, total);
}

/* ---- solved by the built-in solvers ---- */

Test(chess, max_pieces_solved)
{
	static const struct {
		const char *text;
		size_t best;
	} cases[] = {
		{ "chess 6 max\nQQQQQQ\nQQQQQQ\nQQQQQQ\nQQQQQQ\nQQQQQQ\nQQQQQQ\n", 6 },
		{ "chess 6 max\nKKKKKK\nKKKKKK\nKKKKKK\nKKKKKK\nKKKKKK\nKKKKKK\n", 9 },
		{ "chess 6 max\nNNNNNN\nNNNNNN\nNNNNNN\nNNNNNN\nNNNNNN\nNNNNNN\n", 18 },
		{ "chess 6 max\nBBBBBB\nBBBBBB\nBBBBBB\nBBBBBB\nBBBBBB\nBBBBBB\n", 10 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		qubo_puzzle *p = NULL;
		uint8_t board[36];
		size_t viol = 1, cnt = 0, c;
		char rep[512];
		double e;

		cr_assert_eq(qubo_puzzle_parse(&p, cases[i].text, strlen(cases[i].text), NULL),
			     QUBO_OK);
		e = co_solve(p, "sa", 50, 2000, 7, board, 36, 1, -(double)cases[i].best);
		cr_assert_eq(qubo_puzzle_check(p, board, 36, rep, sizeof rep, &viol), QUBO_OK);
		cr_assert_eq(viol, 0, "case %zu: %s", i, rep);
		for (c = 0; c < 36; c++)
			cnt += board[c];
		cr_assert_eq(e, -(double)cnt, "case %zu: a valid board's energy is -pieces", i);
		cr_assert_eq(cnt, cases[i].best, "case %zu: %zu pieces, %zu known best", i, cnt,
			     cases[i].best);
		qubo_puzzle_free(p);
	}
}

/* The coloured example of doc/formats.md, solved and checked. */
Test(chess, coloured_example_solved)
{
	static const char text[] = "chess 5x4 coloured\npiece A 1,2 2,1 -1,2*\nKNKKk\nA.ABQ\n"
				   "NNQAQ\nNNQNN\n\naabbc\naabcc\nddbc.\nddeee\n";
	qubo_puzzle *p = NULL;
	uint8_t board[20];
	size_t viol = 1;
	char rep[512], sol[128];
	double e;

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s",
		     qubo_error_message());
	e = co_solve(p, "sa", 20, 500, 5, board, 20, 1, 0.0);
	cr_assert_eq(e, 0.0);
	cr_assert_eq(qubo_puzzle_check(p, board, 20, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s", rep);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 20, sol, sizeof sol, NULL), QUBO_OK);
	cr_assert_eq(board[4], 1, "the pre-placed king stays:\n%s", sol);
	qubo_puzzle_free(p);
}
