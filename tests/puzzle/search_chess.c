/* White-box tests of the exact search slots of the chess families
 * (struct qubo__pz_search_ops; links the static library). The referee is
 * brute force over every board of small random instances, judged by the
 * rule checker qubo_puzzle_check(), never by the model (doc/formulations.md
 * §7):
 * - coloured pieces: propagate keeps exactly the solutions that agree with
 *   the caller's decisions, and a branch and reduce run here with the
 *   family's propagate and branch finds every solution once;
 * - max pieces and domination: optimum with all = 1 gives every optimal
 *   board once, with all = 0 one of them, at the optimum's energy in the
 *   puzzle's model (the model's energy of an optimal board, its auxiliary
 *   variables at their best, and the model's minimum by enumeration);
 * - the domination numbers of n × n queens, n = 4 … 7, and their optimal
 *   boards counted by brute force, and the 4,860 optimal boards of 8 × 8
 *   (from the dominating-queens literature; doc/formulations.md), fast;
 * - stop and found stop a search; hints; the cell slots; out of memory. */
#include <time.h>

#include "chess_impl.h"
#include "puzzle/chess_oracle.h"

#define MAXC 20	   /* cells of a random board */
#define MAX_ON 14  /* cells that may hold a piece, for brute force */
#define MAX_AUX 20 /* auxiliary variables of one coupled group */

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

static const int32_t levels[3] = { QUBO_REDUCE_NONE, QUBO_REDUCE_CLUES, QUBO_REDUCE_FULL };

/* ---- brute force with the rule checker ---- */

static int checker_accepts(const qubo_puzzle *p, const uint8_t *board, size_t n)
{
	size_t viol = 99;

	cr_assert_eq(qubo_puzzle_check(p, board, n, NULL, 0, &viol), QUBO_OK, "%s",
		     qubo_error_message());
	return viol == 0;
}

/* Every board over the cells `cells` (the others empty) that the checker
 * accepts; with `weights`, only those of the largest total weight (added
 * in cell order), returned. */
static double brute(const qubo_puzzle *p, size_t n, const size_t *cells, size_t nc,
		    const double *weights, co_set *out)
{
	uint8_t board[MAXC];
	uint64_t s, top = (uint64_t)1 << nc;
	double best = 0.0;
	size_t k;
	int any = 0;

	cr_assert(nc <= MAX_ON && n <= MAXC);
	out->n = 0;
	for (s = 0; s < top; s++) {
		memset(board, 0, n);
		for (k = 0; k < nc; k++)
			board[cells[k]] = (uint8_t)((s >> k) & 1);
		if (!checker_accepts(p, board, n))
			continue;
		if (weights) {
			double wt = 0.0;

			for (k = 0; k < n; k++)
				wt += board[k] ? weights[k] : 0.0;
			if (any && wt < best)
				continue;
			if (!any || wt > best) {
				best = wt;
				out->n = 0;
			}
			any = 1;
		}
		co_add(out, co_key(board, n));
	}
	co_sort(out);
	return best;
}

/* A piece on a cell where none may stand is always refused. */
static void off_board_refused(const qubo_puzzle *p, size_t n, const uint8_t *off)
{
	uint8_t board[MAXC];
	size_t c;

	for (c = 0; c < n; c++) {
		if (!off[c])
			continue;
		memset(board, 0, n);
		board[c] = 1;
		cr_assert(!checker_accepts(p, board, n), "a piece off the board at %zu accepted",
			  c);
	}
}

/* ---- the model's energy of a board ---- */

static size_t uf_find(size_t *parent, size_t x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

/* The model's energy of a board, the auxiliary variables (those of no
 * cell) at their best: groups of auxiliary variables coupled to each other
 * are independent once the cells are set, so each is minimised alone by
 * trying all its values. Constant cells must agree with the board. */
static double board_energy(const qubo_puzzle *p, const uint8_t *board, size_t n)
{
	const qubo_model *m;
	qubo_lit lits[CO_MAX_CELLS];
	size_t nv, ncp = 0, i, c, *parent, *members;
	uint32_t *rows, *cols;
	double *w, e;
	uint8_t *x, *iscell;
	int rc;

	cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
	nv = qubo_model_num_variables(m);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, n), QUBO_OK);
	x = calloc(nv + 1, 1);
	iscell = calloc(nv + 1, 1);
	parent = malloc((nv + 1) * sizeof *parent);
	members = malloc((nv + 1) * sizeof *members);
	cr_assert(x && iscell && parent && members);
	for (c = 0; c < n; c++) {
		qubo_lit l = lits[c];

		if (QUBO_LIT_IS_CONST(l)) {
			cr_assert_eq(l == QUBO_LIT_TRUE, board[c] != 0,
				     "cell %zu is fixed to %d, the board has %d", c,
				     l == QUBO_LIT_TRUE, board[c]);
			continue;
		}
		x[QUBO_LIT_VAR(l)] = (uint8_t)((board[c] != 0) ^ QUBO_LIT_IS_NEG(l));
		iscell[QUBO_LIT_VAR(l)] = 1;
	}
	rc = qubo_model_export_coo(m, NULL, NULL, NULL, 0, &ncp);
	cr_assert(rc == QUBO_OK || rc == QUBO_ERR_BUFFER_TOO_SMALL);
	rows = malloc((ncp + 1) * sizeof *rows);
	cols = malloc((ncp + 1) * sizeof *cols);
	w = malloc((ncp + 1) * sizeof *w);
	cr_assert(rows && cols && w);
	cr_assert_eq(qubo_model_export_coo(m, rows, cols, w, ncp, &ncp), QUBO_OK);
	for (i = 0; i < nv; i++)
		parent[i] = i;
	for (i = 0; i < ncp; i++)
		if (!iscell[rows[i]] && !iscell[cols[i]])
			parent[uf_find(parent, rows[i])] = uf_find(parent, cols[i]);
	for (i = 0; i < nv; i++) {
		size_t g = 0, j;
		uint64_t s, best_s = 0;
		double best = 0.0;

		if (iscell[i] || uf_find(parent, i) != i)
			continue;
		for (j = 0; j < nv; j++)
			if (!iscell[j] && uf_find(parent, j) == i)
				members[g++] = j;
		cr_assert(g <= MAX_AUX, "a group of %zu auxiliary variables", g);
		for (s = 0; s < (uint64_t)1 << g; s++) {
			for (j = 0; j < g; j++)
				x[members[j]] = (uint8_t)((s >> j) & 1);
			cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
			if (s == 0 || e < best) {
				best = e;
				best_s = s;
			}
		}
		for (j = 0; j < g; j++)
			x[members[j]] = (uint8_t)((best_s >> j) & 1);
	}
	cr_assert_eq(qubo_model_energy(m, x, nv, &e), QUBO_OK);
	free(x);
	free(iscell);
	free(parent);
	free(members);
	free(rows);
	free(cols);
	free(w);
	return e;
}

/* ---- running the optimum slot ---- */

typedef struct run {
	const qubo_puzzle *p;
	co_set boards;	   /* boards of at most 64 cells */
	size_t calls;	   /* found calls */
	size_t stop_after; /* found: stop at this call (0: never) */
	uint64_t stop_at;  /* stop: stop once nodes reach this (0: never) */
	uint64_t polls, last_poll;
	size_t n;
} run;

static int on_found(void *ctx, const uint8_t *board)
{
	run *r = ctx;
	size_t i;

	for (i = 0; i < r->n; i++)
		cr_assert(board[i] <= 1);
	if (r->p) /* not with a failing allocator: the checker allocates */
		cr_assert(checker_accepts(r->p, board, r->n), "found a board the checker refuses");
	if (r->n <= CO_MAX_CELLS)
		co_add(&r->boards, co_key(board, r->n));
	r->calls++;
	return r->stop_after && r->calls >= r->stop_after;
}

static int on_stop(void *ctx, uint64_t nodes)
{
	run *r = ctx;

	r->polls++;
	r->last_poll = nodes;
	return r->stop_at && nodes >= r->stop_at;
}

/* Runs optimum on a fresh work space; the boards found are in r->boards,
 * sorted (r->calls counts them before duplicates were merged). */
static int optimum(const qubo_puzzle *p, int all, const uint8_t *hint, run *r,
		   struct qubo__pz_opt *o)
{
	const struct qubo__pz_search_ops *ops = p->fam->search;
	void *ws = NULL;
	int rc;

	cr_assert_not_null(ops);
	cr_assert_not_null(ops->optimum);
	r->p = p;
	r->n = (size_t)p->width * p->height;
	memset(o, 0, sizeof *o);
	o->all = all;
	o->hint = hint;
	o->stop = on_stop;
	o->found = on_found;
	o->ctx = r;
	rc = ops->ws_new(p, &ws);
	cr_assert_eq(rc, QUBO_OK, "ws_new: %s", qubo_error_message());
	rc = ops->optimum(p, ws, o);
	ops->ws_free(p, ws);
	co_sort(&r->boards);
	return rc;
}

/* optimum(all = 1) gives exactly the optimal boards `want`, each once, and
 * optimum(all = 0) one of them, at energy `energy`; hints change nothing. */
static void optimum_agrees(const qubo_puzzle *p, const co_set *want, double energy,
			   const uint8_t *worse, const char *what)
{
	struct qubo__pz_opt o;
	run r;
	uint8_t hint[CO_MAX_CELLS];
	size_t n = (size_t)p->width * p->height, h;
	int all;

	for (all = 1; all >= 0; all--) {
		/* no hint, an optimal one, a worse valid one, an invalid one */
		for (h = 0; h < 4; h++) {
			const uint8_t *hp = NULL;
			int rc;

			if (h == 1) {
				co_board(want->keys[want->n / 2], n, hint);
				hp = hint;
			} else if (h == 2) {
				if (!worse)
					continue;
				hp = worse;
			} else if (h == 3) {
				memset(hint, 1, n);
				hint[0] = 2;
				hp = hint;
			}
			memset(&r, 0, sizeof r);
			rc = optimum(p, all, hp, &r, &o);
			cr_assert_eq(rc, QUBO_OK, "%s (all %d, hint %zu): %d %s", what, all, h, rc,
				     qubo_error_message());
			cr_assert(o.has_energy, "%s: no energy", what);
			cr_assert_eq(o.energy, energy,
				     "%s (all %d, hint %zu): energy %g, expected %g", what, all, h,
				     o.energy, energy);
			if (h == 0)
				cr_assert_gt(o.nodes, 0, "%s: no nodes counted", what);
			if (all) {
				cr_assert_eq(r.calls, r.boards.n,
					     "%s (hint %zu): %zu boards, %zu distinct", what, h,
					     r.calls, r.boards.n);
				co_assert_same(&r.boards, want, what);
			} else {
				cr_assert_eq(r.calls, 1, "%s: found called %zu times", what,
					     r.calls);
				cr_assert(bsearch(&r.boards.keys[0], want->keys, want->n,
						  sizeof *want->keys, co_cmp_u64),
					  "%s (hint %zu): board %#llx is not optimal", what, h,
					  (unsigned long long)r.boards.keys[0]);
			}
			co_clear(&r.boards);
		}
	}
}

/* ---- random chess instances ---- */

typedef struct ci {
	uint32_t w, h;
	size_t n;
	int32_t mode;
	int32_t pieces[MAXC];
	size_t nsets;
	size_t start[3];
	qubo_puzzle_chess_move moves[8];
	int has_regions;
	int32_t regions[MAXC];
	int has_weights;
	double weights[MAXC];
	uint32_t placed[MAXC];
	size_t nplaced;
} ci;

static int ci_attack(const ci *I, size_t a, size_t b)
{
	const qubo_puzzle_chess_move *custom[2];
	size_t ncustom[2], k;

	for (k = 0; k < I->nsets; k++) {
		custom[k] = I->moves + I->start[k];
		ncustom[k] = I->start[k + 1] - I->start[k];
	}
	return co_attacks(I->w, I->pieces[a], custom, ncustom, a, b) ||
	       co_attacks(I->w, I->pieces[b], custom, ncustom, b, a);
}

static const double weight_values[] = { 0.5, 1, 1.5, 2, 3 };

static void ci_random(ci *I, tu_rng *r, int32_t mode)
{
	size_t a, k, on = 0;
	uint8_t plant[MAXC] = { 0 };

	memset(I, 0, sizeof *I);
	I->mode = mode;
	do {
		I->w = (uint32_t)tu_range(r, 1, 5);
		I->h = (uint32_t)tu_range(r, 1, 5);
	} while ((size_t)I->w * I->h > MAXC);
	I->n = (size_t)I->w * I->h;
	I->nsets = (size_t)tu_below(r, 3);
	for (k = 0; k < I->nsets; k++) {
		I->start[k + 1] = I->start[k] + (size_t)tu_below(r, 5);
		for (a = I->start[k]; a < I->start[k + 1]; a++) {
			do {
				I->moves[a].drow = (int32_t)tu_range(r, -2, 2);
				I->moves[a].dcol = (int32_t)tu_range(r, -2, 2);
			} while (I->moves[a].drow == 0 && I->moves[a].dcol == 0);
			I->moves[a].slide = tu_below(r, 2) == 0;
		}
	}
	for (a = 0; a < I->n; a++) {
		if (tu_below(r, 5) == 0 || on >= MAX_ON) {
			I->pieces[a] = QUBO_PUZZLE_CHESS_NONE;
			continue;
		}
		k = (size_t)tu_below(r, 5 + I->nsets);
		I->pieces[a] = k < 5 ? (int32_t)k : QUBO_PUZZLE_CHESS_CUSTOM + (int32_t)(k - 5);
		on++;
	}
	/* a non-attacking placement, for regions and pre-placed pieces that
	 * leave a solution now and then */
	for (k = 0; k < 2 * I->n; k++) {
		size_t b;
		int ok;

		a = (size_t)tu_below(r, I->n);
		ok = I->pieces[a] != QUBO_PUZZLE_CHESS_NONE && tu_below(r, 2);
		for (b = 0; ok && b < I->n; b++)
			ok = !(plant[b] && (b == a || ci_attack(I, a, b)));
		if (ok)
			plant[a] = 1;
	}
	if (mode == QUBO_PUZZLE_CHESS_MODE_COLOURED && tu_below(r, 5) != 0) {
		int nreg = 0;

		I->has_regions = 1;
		for (a = 0; a < I->n; a++)
			I->regions[a] = plant[a] && nreg < 4 ? nreg++ : -2;
		for (a = 0; a < I->n; a++)
			if (I->regions[a] == -2)
				I->regions[a] = nreg == 0 || tu_below(r, 5) == 0 || plant[a] ?
							-1 :
							(int32_t)tu_below(r, (uint64_t)nreg);
		if (tu_below(r, 8) == 0 && (size_t)nreg + 1 < I->n) /* a region with no cell */
			I->regions[tu_below(r, I->n)] = nreg + 1;
	}
	if (mode == QUBO_PUZZLE_CHESS_MODE_MAX && tu_below(r, 2)) {
		I->has_weights = 1;
		for (a = 0; a < I->n; a++)
			I->weights[a] = weight_values[tu_below(r, 5)];
	}
	for (k = tu_below(r, 3); k > 0; k--) {
		size_t j;

		a = (size_t)tu_below(r, I->n);
		if (I->pieces[a] == QUBO_PUZZLE_CHESS_NONE || (!plant[a] && tu_below(r, 4)))
			continue;
		for (j = 0; j < I->nplaced; j++)
			if (I->placed[j] == a)
				a = I->n;
		if (a < I->n)
			I->placed[I->nplaced++] = (uint32_t)a;
	}
}

static int ci_build(const ci *I, int32_t reduce, qubo_puzzle **p)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle_options o = co_opts(reduce, 0);

	s.width = I->w;
	s.height = I->h;
	s.mode = I->mode;
	s.pieces = I->pieces;
	s.num_move_sets = I->nsets;
	s.move_set_start = I->nsets ? I->start : NULL;
	s.moves = I->moves;
	s.regions = I->has_regions ? I->regions : NULL;
	s.weights = I->has_weights ? I->weights : NULL;
	s.placed = I->placed;
	s.num_placed = I->nplaced;
	*p = NULL;
	return qubo_puzzle_chess_new(p, &s, &o);
}

/* The on-board cells (from the spec) and the off-board mask. */
static size_t ci_cells(const ci *I, size_t *cells, uint8_t *off)
{
	size_t a, nc = 0;

	for (a = 0; a < I->n; a++) {
		off[a] = I->pieces[a] == QUBO_PUZZLE_CHESS_NONE;
		if (!off[a])
			cells[nc++] = a;
	}
	return nc;
}

/* ---- coloured pieces: propagate and branch ---- */

typedef struct bnr {
	const qubo_puzzle *p;
	void *ws;
	size_t n;
	co_set found;
	size_t leaves;
} bnr;

/* The generic branch and reduce, as search.c runs it. */
static void bnr_rec(bnr *B, const int8_t *in)
{
	const struct qubo__pz_search_ops *ops = B->p->fam->search;
	int8_t val[MAXC];
	size_t c, nfree = 0;
	int rc;

	cr_assert(B->n <= MAXC);
	memcpy(val, in, B->n);
	rc = ops->propagate(B->p, B->ws, val);
	if (rc == QUBO_ERR_INFEASIBLE)
		return;
	cr_assert_eq(rc, QUBO_OK);
	for (c = 0; c < B->n; c++)
		nfree += val[c] < 0;
	if (nfree == 0) {
		uint64_t key = 0;

		for (c = 0; c < B->n && c < MAXC; c++)
			key |= (uint64_t)(val[c] == 1) << c;
		co_add(&B->found, key);
		B->leaves++;
		return;
	}
	c = ops->branch(B->p, B->ws, val);
	cr_assert(c < B->n && val[c] < 0, "branch on cell %zu, not free", c);
	val[c] = 1;
	bnr_rec(B, val);
	val[c] = 0;
	bnr_rec(B, val);
}

/* propagate's contract on random decisions: decisions kept (off-board
 * cells 0), no solution that agrees with them lost, INFEASIBLE only when
 * none agrees. */
static void propagate_contract(const qubo_puzzle *p, void *ws, const co_set *sols,
			       const uint8_t *off, tu_rng *r, const char *what)
{
	size_t n = (size_t)p->width * p->height, t, c, i;

	for (t = 0; t < 12; t++) {
		int8_t in[MAXC], val[MAXC];
		int rc;

		for (c = 0; c < n; c++)
			in[c] = tu_below(r, 3) == 0 ? (int8_t)tu_below(r, 2) : -1;
		if (t == 0)
			memset(in, 0xff, n);
		memcpy(val, in, n);
		rc = p->fam->search->propagate(p, ws, val);
		for (i = 0; i < sols->n; i++) {
			uint64_t k = sols->keys[i];
			int ok = 1;

			for (c = 0; c < n && ok; c++)
				ok = in[c] < 0 || in[c] == (int)((k >> c) & 1);
			if (!ok)
				continue;
			cr_assert_eq(rc, QUBO_OK,
				     "%s: propagate says infeasible, solution %#llx agrees", what,
				     (unsigned long long)k);
			for (c = 0; c < n; c++)
				cr_assert(val[c] < 0 || val[c] == (int)((k >> c) & 1),
					  "%s: propagate fixed cell %zu against solution %#llx",
					  what, c, (unsigned long long)k);
		}
		if (rc == QUBO_ERR_INFEASIBLE)
			continue;
		cr_assert_eq(rc, QUBO_OK, "%s: %d", what, rc);
		for (c = 0; c < n; c++) {
			if (off[c])
				cr_assert_eq(val[c], 0, "%s: off-board cell %zu is %d", what, c,
					     val[c]);
			else if (in[c] >= 0)
				cr_assert_eq(val[c], in[c], "%s: decision on cell %zu changed",
					     what, c);
		}
	}
}

Test(search_chess, coloured_branch_and_reduce_finds_every_solution)
{
	tu_rng r = { 20261124 };
	/* under valgrind 20: each trial checks up to 2^14 boards, 0.35 s there */
	int trials = valgrind_run() ? 20 : 200, t, feasible = 0, several = 0, infeasible = 0;

	for (t = 0; t < trials; t++) {
		ci I;
		qubo_puzzle *p;
		size_t cells[MAXC], nc;
		uint8_t off[MAXC];
		co_set want = { 0 };
		bnr B;
		int8_t root[MAXC];
		char what[64];
		int rc;

		ci_random(&I, &r, QUBO_PUZZLE_CHESS_MODE_COLOURED);
		snprintf(what, sizeof what, "coloured trial %d", t);
		rc = ci_build(&I, levels[t % 3], &p);
		if (rc == QUBO_ERR_INFEASIBLE) {
			/* the builder's own proof (tests/puzzle/chess.c checks it) */
			infeasible++;
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
		nc = ci_cells(&I, cells, off);
		brute(p, I.n, cells, nc, NULL, &want);
		off_board_refused(p, I.n, off);
		memset(&B, 0, sizeof B);
		B.p = p;
		B.n = I.n;
		cr_assert_eq(p->fam->search->ws_new(p, &B.ws), QUBO_OK);
		propagate_contract(p, B.ws, &want, off, &r, what);
		memset(root, 0xff, sizeof root);
		bnr_rec(&B, root);
		p->fam->search->ws_free(p, B.ws);
		co_sort(&B.found);
		cr_assert_eq(B.leaves, B.found.n, "%s: %zu leaves, %zu distinct boards", what,
			     B.leaves, B.found.n);
		co_assert_same(&B.found, &want, what);
		feasible += want.n > 0;
		several += want.n > 1;
		co_clear(&want);
		co_clear(&B.found);
		qubo_puzzle_free(p);
	}
	cr_assert_gt(feasible, trials / 4, "only %d feasible instances", feasible);
	cr_assert_gt(several, trials / 8, "only %d instances with several solutions", several);
	cr_assert_gt(infeasible, 0);
}

/* A hand-made board: regions in columns of a 4 x 4 rook board, so the
 * solutions are the 24 permutation matrices; one pre-placed rook leaves 6. */
Test(search_chess, coloured_rooks_in_columns)
{
	int32_t pieces[16], regions[16];
	uint32_t placed[1] = { 5 };
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	size_t i, np;

	for (i = 0; i < 16; i++) {
		pieces[i] = QUBO_PUZZLE_CHESS_ROOK;
		regions[i] = (int32_t)(i % 4);
	}
	s.width = s.height = 4;
	s.pieces = pieces;
	s.regions = regions;
	s.placed = placed;
	for (np = 0; np <= 1; np++) {
		qubo_puzzle *p = NULL;
		bnr B;
		int8_t root[16];

		s.num_placed = np;
		cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK);
		memset(&B, 0, sizeof B);
		B.p = p;
		B.n = 16;
		cr_assert_eq(p->fam->search->ws_new(p, &B.ws), QUBO_OK);
		memset(root, 0xff, sizeof root);
		bnr_rec(&B, root);
		p->fam->search->ws_free(p, B.ws);
		co_sort(&B.found);
		cr_assert_eq(B.found.n, np ? 6 : 24);
		cr_assert_eq(B.leaves, B.found.n);
		co_clear(&B.found);
		qubo_puzzle_free(p);
	}
}

/* ---- max pieces ---- */

Test(search_chess, max_optimum_finds_every_optimal_board)
{
	tu_rng r = { 31415926 };
	/* under valgrind 20: each trial checks up to 2^14 boards, 0.35 s there */
	int trials = valgrind_run() ? 20 : 200, t, several = 0, small = 0;

	for (t = 0; t < trials; t++) {
		ci I;
		qubo_puzzle *p;
		size_t cells[MAXC], nc, i;
		uint8_t off[MAXC], worse[MAXC];
		double wts[MAXC], best, e;
		co_set want = { 0 }, mins = { 0 };
		char what[64];
		int rc, have_worse = 0;

		ci_random(&I, &r, QUBO_PUZZLE_CHESS_MODE_MAX);
		snprintf(what, sizeof what, "max trial %d", t);
		rc = ci_build(&I, levels[t % 3], &p);
		nc = ci_cells(&I, cells, off);
		for (i = 0; i < I.n; i++)
			wts[i] = I.has_weights ? I.weights[i] : 1.0;
		if (rc == QUBO_ERR_INFEASIBLE) {
			/* pre-placed pieces that attack each other: nothing valid */
			size_t a, b;
			int clash = 0;

			for (a = 0; a < I.nplaced; a++)
				for (b = a + 1; b < I.nplaced; b++)
					clash |= ci_attack(&I, I.placed[a], I.placed[b]);
			cr_assert(clash, "%s: infeasible: %s", what, qubo_error_message());
			continue;
		}
		cr_assert_eq(rc, QUBO_OK, "%s: %s", what, qubo_error_message());
		best = brute(p, I.n, cells, nc, wts, &want);
		cr_assert_gt(want.n, 0, "%s: the checker accepts nothing", what);
		off_board_refused(p, I.n, off);
		/* a worse valid hint: the pre-placed pieces alone, when worse */
		memset(worse, 0, sizeof worse);
		for (i = 0; i < I.nplaced; i++)
			worse[I.placed[i]] = 1;
		if (checker_accepts(p, worse, I.n)) {
			double wt = 0.0;

			for (i = 0; i < I.n; i++)
				wt += worse[i] ? wts[i] : 0.0;
			have_worse = wt < best;
		}
		optimum_agrees(p, &want, -best, have_worse ? worse : NULL, what);
		/* the energy is the model's: an optimal board's, and the minimum */
		co_board(want.keys[0], I.n, worse);
		e = board_energy(p, worse, I.n);
		cr_assert_eq(e, -best, "%s: model energy %g of an optimal board, optimum %g", what,
			     e, -best);
		if (co_vars(p) <= 18) {
			cr_assert_eq(co_minimisers(p, I.n, &mins), -best, "%s: model minimum",
				     what);
			small++;
		}
		several += want.n > 1;
		co_clear(&want);
		co_clear(&mins);
		qubo_puzzle_free(p);
	}
	cr_assert_gt(several, trials / 8, "only %d instances with several optima", several);
	cr_assert_gt(small, trials / 4);
}

/* Known figures: 8 queens (92 boards), 8 rooks (8!), 14 bishops (256), 32
 * knights (2) on 8 × 8; a weighted board; pre-placed pieces. */
Test(search_chess, max_known_boards)
{
	static const struct {
		int32_t piece;
		double weight;
		size_t count;
	} known[] = {
		{ QUBO_PUZZLE_CHESS_QUEEN, 8, 92 },
		{ QUBO_PUZZLE_CHESS_ROOK, 8, 40320 },
		{ QUBO_PUZZLE_CHESS_BISHOP, 14, 256 },
		{ QUBO_PUZZLE_CHESS_KNIGHT, 32, 2 },
	};
	int32_t pieces[64];
	double weights[64];
	size_t k, i;

	for (k = 0; k < sizeof known / sizeof known[0]; k++) {
		qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
		qubo_puzzle *p = NULL;
		struct qubo__pz_opt o;
		run r;
		uint8_t board[64];

		for (i = 0; i < 64; i++)
			pieces[i] = known[k].piece;
		s.width = s.height = 8;
		s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
		s.pieces = pieces;
		cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK);
		memset(&r, 0, sizeof r);
		cr_assert_eq(optimum(p, 1, NULL, &r, &o), QUBO_OK);
		cr_assert_eq(o.energy, -known[k].weight);
		cr_assert_eq(r.calls, known[k].count, "piece %d: %zu boards", (int)known[k].piece,
			     r.calls);
		cr_assert_eq(r.boards.n, known[k].count);
		co_board(r.boards.keys[0], 64, board);
		cr_assert(checker_accepts(p, board, 64));
		cr_assert_eq(board_energy(p, board, 64), o.energy);
		co_clear(&r.boards);
		qubo_puzzle_free(p);
	}
	/* kings on 4 x 4, the corner cells weighing 3: the four corners */
	{
		qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
		qubo_puzzle *p = NULL;
		struct qubo__pz_opt o;
		run r;

		for (i = 0; i < 16; i++) {
			pieces[i] = QUBO_PUZZLE_CHESS_KING;
			weights[i] = (i == 0 || i == 3 || i == 12 || i == 15) ? 3.0 : 1.0;
		}
		s.width = s.height = 4;
		s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
		s.pieces = pieces;
		s.weights = weights;
		cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK);
		memset(&r, 0, sizeof r);
		cr_assert_eq(optimum(p, 1, NULL, &r, &o), QUBO_OK);
		cr_assert_eq(o.energy, -12.0);
		cr_assert_eq(r.boards.n, 1);
		cr_assert_eq(r.boards.keys[0], 0x9009);
		co_clear(&r.boards);
		qubo_puzzle_free(p);
	}
}

/* ---- domination ---- */

typedef struct di {
	uint32_t w, h;
	size_t n;
	uint8_t off[MAXC];
	int32_t piece;
	size_t nmoves;
	qubo_puzzle_chess_move moves[6];
	int32_t slack;
} di;

static void di_random(di *I, tu_rng *r)
{
	size_t a, on = 0;

	memset(I, 0, sizeof *I);
	do {
		I->w = (uint32_t)tu_range(r, 1, 5);
		I->h = (uint32_t)tu_range(r, 1, 5);
	} while ((size_t)I->w * I->h > MAXC);
	I->n = (size_t)I->w * I->h;
	for (a = 0; a < I->n; a++) {
		I->off[a] = tu_below(r, 6) == 0 || on >= MAX_ON;
		on += !I->off[a];
	}
	I->piece = (int32_t)tu_below(r, 6);
	if (I->piece == 5) {
		I->piece = QUBO_PUZZLE_CHESS_CUSTOM;
		I->nmoves = (size_t)tu_range(r, 0, 4);
		for (a = 0; a < I->nmoves; a++) {
			do {
				I->moves[a].drow = (int32_t)tu_range(r, -2, 2);
				I->moves[a].dcol = (int32_t)tu_range(r, -2, 2);
			} while (I->moves[a].drow == 0 && I->moves[a].dcol == 0);
			I->moves[a].slide = tu_below(r, 2) == 0;
		}
	}
	I->slack = (int32_t)tu_below(r, 2);
}

static qubo_puzzle *di_build(const di *I)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle *p = NULL;

	s.width = I->w;
	s.height = I->h;
	s.off_board = I->off;
	s.piece = I->piece;
	s.num_moves = I->piece == QUBO_PUZZLE_CHESS_CUSTOM ? I->nmoves : 0;
	s.moves = I->piece == QUBO_PUZZLE_CHESS_CUSTOM ? I->moves : NULL;
	s.slack = I->slack;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	return p;
}

Test(search_chess, domination_optimum_finds_every_smallest_set)
{
	tu_rng r = { 2718281828 };
	int trials = valgrind_run() ? 40 : 200, t, several = 0, small = 0;

	for (t = 0; t < trials; t++) {
		di I;
		qubo_puzzle *p;
		size_t cells[MAXC], nc = 0, a;
		uint8_t board[MAXC], all[MAXC];
		double ones[MAXC], e;
		co_set want = { 0 }, mins = { 0 };
		char what[64];
		int pieces;

		di_random(&I, &r);
		snprintf(what, sizeof what, "domination trial %d", t);
		p = di_build(&I);
		for (a = 0; a < I.n; a++) {
			ones[a] = -1.0; /* the largest "weight" is the fewest pieces */
			all[a] = !I.off[a];
			if (!I.off[a])
				cells[nc++] = a;
		}
		pieces = (int)-brute(p, I.n, cells, nc, ones, &want);
		cr_assert_gt(want.n, 0, "%s", what);
		off_board_refused(p, I.n, I.off);
		cr_assert(checker_accepts(p, all, I.n));
		optimum_agrees(p, &want, (double)pieces, (size_t)pieces < nc ? all : NULL, what);
		co_board(want.keys[want.n - 1], I.n, board);
		e = board_energy(p, board, I.n);
		cr_assert_eq(e, (double)pieces, "%s: model energy %g of a smallest set of %d", what,
			     e, pieces);
		if (co_vars(p) <= 18) {
			cr_assert_eq(co_minimisers(p, I.n, &mins), (double)pieces,
				     "%s: model minimum", what);
			small++;
		}
		several += want.n > 1;
		co_clear(&want);
		co_clear(&mins);
		qubo_puzzle_free(p);
	}
	cr_assert_gt(several, trials / 4);
	cr_assert_gt(small, trials / 10);
}

/* Brute force over the k-subsets of the n × n board, k = 1, 2, …: the
 * first k with sets the checker accepts, and their number. */
static size_t queens_brute(const qubo_puzzle *p, size_t N, size_t *count)
{
	size_t idx[8], k, i;
	uint8_t board[64];

	for (k = 1;; k++) {
		size_t cnt = 0;

		cr_assert(k <= 8);
		for (i = 0; i < k; i++)
			idx[i] = i;
		for (;;) {
			memset(board, 0, N);
			for (i = 0; i < k; i++)
				board[idx[i]] = 1;
			cnt += checker_accepts(p, board, N);
			/* the next k-subset in lexicographic order */
			for (i = k; i > 0 && idx[i - 1] == N - k + i - 1; i--)
				;
			if (i == 0)
				break;
			idx[i - 1]++;
			for (; i < k; i++)
				idx[i] = idx[i - 1] + 1;
		}
		if (cnt) {
			*count = cnt;
			return k;
		}
	}
}

static qubo_puzzle *queens_board(uint32_t n)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle *p = NULL;

	s.width = s.height = n;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
	return p;
}

Test(search_chess, queens_domination_numbers_by_brute_force, .timeout = 120)
{
	static const size_t gamma[8] = { 0, 0, 0, 0, 2, 3, 3, 4 };
	uint32_t n, top = valgrind_run() ? 6 : 7;

	for (n = 4; n <= top; n++) {
		qubo_puzzle *p = queens_board(n);
		struct qubo__pz_opt o;
		run r;
		size_t count = 0, k = queens_brute(p, (size_t)n * n, &count);
		uint8_t board[64];

		cr_assert_eq(k, gamma[n], "%u x %u: brute force gives %zu", n, n, k);
		memset(&r, 0, sizeof r);
		cr_assert_eq(optimum(p, 1, NULL, &r, &o), QUBO_OK);
		cr_assert_eq(o.energy, (double)k);
		cr_assert_eq(r.calls, count, "%u x %u: %zu sets, brute force %zu", n, n, r.calls,
			     count);
		cr_assert_eq(r.boards.n, count);
		co_board(r.boards.keys[0], (size_t)n * n, board);
		cr_assert_eq(board_energy(p, board, (size_t)n * n), (double)k);
		co_clear(&r.boards);
		qubo_puzzle_free(p);
	}
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* 4,860 smallest dominating sets of 5 queens on 8 × 8 (the literature's
 * figure; doc/formulations.md), well under a second. */
Test(search_chess, eight_queens_4860_sets_fast)
{
	qubo_puzzle *p = queens_board(8);
	struct qubo__pz_opt o;
	struct timespec t0;
	run r;
	uint8_t board[64];
	double secs;
	size_t i;

	memset(&r, 0, sizeof r);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cr_assert_eq(optimum(p, 1, NULL, &r, &o), QUBO_OK);
	secs = seconds_since(&t0);
	cr_assert_eq(o.energy, 5.0);
	cr_assert_eq(r.calls, 4860);
	cr_assert_eq(r.boards.n, 4860, "%zu distinct of %zu", r.boards.n, r.calls);
	if (!valgrind_run())
		cr_assert_lt(secs, 1.0, "%.3f s", secs);
	for (i = 0; i < r.boards.n; i += 97) {
		co_board(r.boards.keys[i], 64, board);
		cr_assert(checker_accepts(p, board, 64));
	}
	cr_assert_eq(board_energy(p, board, 64), 5.0);
	co_clear(&r.boards);
	/* one of them */
	memset(&r, 0, sizeof r);
	cr_assert_eq(optimum(p, 0, NULL, &r, &o), QUBO_OK);
	cr_assert_eq(r.calls, 1);
	cr_assert_eq(o.energy, 5.0);
	co_board(r.boards.keys[0], 64, board);
	cr_assert(checker_accepts(p, board, 64));
	co_clear(&r.boards);
	qubo_puzzle_free(p);
}

/* Rooks and kings, whose domination numbers chess.h documents. */
Test(search_chess, rooks_and_kings)
{
	static const struct {
		uint32_t w, h;
		int32_t piece;
		double gamma;
	} known[] = {
		{ 5, 3, QUBO_PUZZLE_CHESS_ROOK, 3 },
		{ 4, 4, QUBO_PUZZLE_CHESS_ROOK, 4 },
		{ 7, 5, QUBO_PUZZLE_CHESS_KING, 6 },
		{ 9, 9, QUBO_PUZZLE_CHESS_KING, 9 },
	};
	size_t k;

	for (k = 0; k < sizeof known / sizeof known[0]; k++) {
		qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
		qubo_puzzle *p = NULL;
		struct qubo__pz_opt o;
		double ground;
		run r;

		s.width = known[k].w;
		s.height = known[k].h;
		s.piece = known[k].piece;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		memset(&r, 0, sizeof r);
		cr_assert_eq(optimum(p, 0, NULL, &r, &o), QUBO_OK);
		cr_assert_eq(o.energy, known[k].gamma);
		cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
		cr_assert_eq(o.energy, ground);
		co_clear(&r.boards);
		qubo_puzzle_free(p);
	}
}

/* ---- stopping ---- */

static qubo_puzzle *max_queens(uint32_t n)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle *p = NULL;

	s.width = s.height = n;
	s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK);
	return p;
}

Test(search_chess, stop_and_found_stop_the_search)
{
	qubo_puzzle *ps[2] = { queens_board(8), max_queens(9) };
	size_t k;

	for (k = 0; k < 2; k++) {
		struct qubo__pz_opt o;
		run r;

		/* stop at the first poll */
		memset(&r, 0, sizeof r);
		r.stop_at = 1;
		cr_assert_eq(optimum(ps[k], 1, NULL, &r, &o), QUBO_CANCELLED);
		cr_assert_eq(r.polls, 1);
		cr_assert_eq(o.nodes, r.last_poll);
		cr_assert_geq(o.nodes, 1);
		cr_assert_leq(o.nodes, 1000, "first poll after %llu nodes",
			      (unsigned long long)o.nodes);
		co_clear(&r.boards);
		/* later: polled every few hundred nodes until then */
		memset(&r, 0, sizeof r);
		r.stop_at = 5000;
		cr_assert_eq(optimum(ps[k], 1, NULL, &r, &o), QUBO_CANCELLED);
		cr_assert_geq(o.nodes, 5000);
		cr_assert_eq(o.nodes, r.last_poll);
		cr_assert_geq(r.polls, 5);
		co_clear(&r.boards);
		/* found asks to stop at the third board */
		memset(&r, 0, sizeof r);
		r.stop_after = 3;
		cr_assert_eq(optimum(ps[k], 1, NULL, &r, &o), QUBO_CANCELLED);
		cr_assert_eq(r.calls, 3);
		cr_assert(o.has_energy);
		co_clear(&r.boards);
		/* and at the only board of all = 0 */
		memset(&r, 0, sizeof r);
		r.stop_after = 1;
		cr_assert_eq(optimum(ps[k], 0, NULL, &r, &o), QUBO_CANCELLED);
		cr_assert_eq(r.calls, 1);
		co_clear(&r.boards);
		/* the full run polls and completes */
		memset(&r, 0, sizeof r);
		cr_assert_eq(optimum(ps[k], 1, NULL, &r, &o), QUBO_OK);
		cr_assert_gt(r.polls, 0);
		cr_assert_eq(r.calls, k == 0 ? 4860 : 352);
		co_clear(&r.boards);
		qubo_puzzle_free(ps[k]);
	}
}

/* ---- cells ---- */

Test(search_chess, cell_slots)
{
	/* 3 x 2: a hole, regions, a pre-placed knight, a custom piece */
	int32_t pieces[6] = { QUBO_PUZZLE_CHESS_KING,	QUBO_PUZZLE_CHESS_NONE,
			      QUBO_PUZZLE_CHESS_KNIGHT, QUBO_PUZZLE_CHESS_CUSTOM,
			      QUBO_PUZZLE_CHESS_ROOK,	QUBO_PUZZLE_CHESS_BISHOP };
	int32_t regions[6] = { 0, 1, 1, -1, 0, 2 };
	size_t start[2] = { 0, 1 };
	qubo_puzzle_chess_move mv[1] = { { 1, 1, 0 } };
	uint32_t placed[1] = { 2 };
	uint8_t off[6] = { 0, 0, 1, 0, 0, 0 };
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle_domination_spec ds = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle *p = NULL;
	size_t i;

	s.width = 3;
	s.height = 2;
	s.pieces = pieces;
	s.num_move_sets = 1;
	s.move_set_start = start;
	s.moves = mv;
	s.regions = regions;
	s.placed = placed;
	s.num_placed = 1;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(p->fam->search, &qubo__pz_chess_coloured_search);
	for (i = 0; i < 6; i++) {
		qubo_puzzle_cell c;

		memset(&c, 0x55, sizeof c);
		p->fam->cell(p, i, &c);
		cr_assert_eq(p->fam->on_board(p, i), i != 1, "cell %zu", i);
		cr_assert_eq(c.piece, pieces[i], "cell %zu", i);
		cr_assert_eq(c.region, i == 1 ? -1 : regions[i], "cell %zu", i);
		cr_assert_eq(c.given, i == 2 ? 1 : -1, "cell %zu", i);
	}
	qubo_puzzle_free(p);
	/* max pieces: no regions */
	s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	s.regions = NULL;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(p->fam->search, &qubo__pz_chess_max_search);
	cr_assert_null(p->fam->search->propagate);
	for (i = 0; i < 6; i++) {
		qubo_puzzle_cell c;

		p->fam->cell(p, i, &c);
		cr_assert_eq(p->fam->on_board(p, i), i != 1);
		cr_assert_eq(c.piece, pieces[i]);
		cr_assert_eq(c.region, -1);
		cr_assert_eq(c.given, i == 2 ? 1 : -1);
	}
	qubo_puzzle_free(p);
	/* domination: holes, the spec's piece */
	ds.width = 3;
	ds.height = 2;
	ds.off_board = off;
	ds.piece = QUBO_PUZZLE_CHESS_CUSTOM;
	ds.num_moves = 1;
	ds.moves = mv;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &ds, NULL), QUBO_OK);
	cr_assert_eq(p->fam->search, &qubo__pz_domination_search);
	for (i = 0; i < 6; i++) {
		qubo_puzzle_cell c;

		p->fam->cell(p, i, &c);
		cr_assert_eq(p->fam->on_board(p, i), !off[i]);
		cr_assert_eq(c.piece, off[i] ? QUBO_PUZZLE_CHESS_NONE : QUBO_PUZZLE_CHESS_CUSTOM);
		cr_assert_eq(c.region, -1);
		cr_assert_eq(c.given, -1);
	}
	qubo_puzzle_free(p);
}

/* ---- limits and out of memory ---- */

Test(search_chess, boards_too_large_for_the_search)
{
	qubo_puzzle_domination_spec ds = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle *p = NULL;
	void *ws = &ws;

	ds.width = ds.height = 110;
	ds.piece = QUBO_PUZZLE_CHESS_KING;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &ds, NULL), QUBO_OK);
	cr_assert_eq(p->fam->search->ws_new(p, &ws), QUBO_ERR_TOO_LARGE);
	cr_assert_null(ws);
	cr_assert(strstr(qubo_error_message(), "12100"), "%s", qubo_error_message());
	qubo_puzzle_free(p);
}

/* Every allocation of ws_new and optimum fails in turn: NOMEM and no
 * leak, or a complete run. */
static void oom_runs(qubo_puzzle *p, tu_failalloc *fa)
{
	size_t live = fa->live, k, nomem = 0, expect = 0;

	for (k = 0;; k++) {
		struct qubo__pz_opt o;
		run r;
		void *ws = NULL;
		int rc;

		fa->fail_at = k ? fa->count + k : 0;
		fa->failed = 0;
		memset(&r, 0, sizeof r);
		r.n = (size_t)p->width * p->height;
		memset(&o, 0, sizeof o);
		o.all = 1;
		o.found = on_found;
		o.ctx = &r;
		rc = p->fam->search->ws_new(p, &ws);
		if (rc == QUBO_OK) {
			rc = p->fam->search->optimum(p, ws, &o);
			p->fam->search->ws_free(p, ws);
		} else {
			cr_assert_null(ws);
		}
		cr_assert_eq(fa->live, live, "allocation %zu leaks", k);
		co_sort(&r.boards);
		co_clear(&r.boards);
		if (!fa->failed) {
			cr_assert_eq(rc, QUBO_OK);
			if (k == 0) {
				expect = r.calls;
				continue;
			}
			cr_assert_eq(r.calls, expect);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %d", k, rc);
		nomem++;
	}
	cr_assert_gt(nomem, 3);
	fa->fail_at = 0;
}

Test(search_chess, out_of_memory)
{
	tu_failalloc fa;
	qubo_puzzle_options o = co_opts(0, 0);
	qubo_puzzle_domination_spec ds = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle *p = NULL;

	tu_failalloc_init(&fa, 0);
	o.allocator = &fa.a;
	ds.width = ds.height = 5;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &ds, &o), QUBO_OK);
	oom_runs(p, &fa);
	qubo_puzzle_free(p);
	s.width = s.height = 6;
	s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, &o), QUBO_OK);
	oom_runs(p, &fa);
	qubo_puzzle_free(p);
	cr_assert_eq(fa.live, 0);
}
