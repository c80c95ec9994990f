/* Minimum domination: exactness by brute force (the minimisers of the
 * model, with the slack projected away, are exactly the smallest
 * dominating sets) on random small boards with every piece, custom move
 * sets, holes and both slack forms; the documented domination numbers and
 * the 4860 optimal 8 x 8 queen placements recounted by an independent
 * search; the checker; the text form; and boards solved with the built-in
 * solvers. */
#include "puzzle/chess_oracle.h"

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

/* ---- the referee ---- */

typedef struct di {
	uint32_t w, h;
	size_t n;
	uint8_t off[CO_MAX_CELLS];
	int32_t piece;
	size_t nmoves;
	qubo_puzzle_chess_move moves[6];
	int32_t slack;
	uint64_t dom[CO_MAX_CELLS]; /* the cells a piece on each cell dominates */
	uint64_t on;
} di;

static void di_prepare(di *I)
{
	const qubo_puzzle_chess_move *custom[1] = { I->moves };
	size_t ncustom[1] = { I->nmoves }, a, b;
	int32_t code = I->piece == QUBO_PUZZLE_CHESS_CUSTOM ? QUBO_PUZZLE_CHESS_CUSTOM : I->piece;

	I->on = 0;
	for (a = 0; a < I->n; a++)
		if (!I->off[a])
			I->on |= (uint64_t)1 << a;
	for (a = 0; a < I->n; a++) {
		I->dom[a] = 0;
		if (I->off[a])
			continue;
		I->dom[a] = (uint64_t)1 << a;
		for (b = 0; b < I->n; b++)
			if (!I->off[b] && co_attacks(I->w, code, custom, ncustom, a, b))
				I->dom[a] |= (uint64_t)1 << b;
	}
}

static int di_dominates(const di *I, uint64_t x)
{
	uint64_t cov = 0;
	size_t a;

	if (x & ~I->on)
		return 0;
	for (a = 0; a < I->n; a++)
		if ((x >> a) & 1)
			cov |= I->dom[a];
	return (cov & I->on) == I->on;
}

/* The smallest dominating sets, by enumerating every subset of the
 * on-board cells; returns their size. */
static size_t di_referee(const di *I, co_set *out)
{
	size_t cells[CO_MAX_CELLS], nc = 0, a, best = CO_MAX_CELLS + 1;
	uint64_t s, top;

	out->n = 0;
	for (a = 0; a < I->n; a++)
		if (!I->off[a])
			cells[nc++] = a;
	cr_assert(nc <= 20);
	top = (uint64_t)1 << nc;
	for (s = 0; s < top; s++) {
		uint64_t x = 0;
		size_t k, size = (size_t)__builtin_popcountll(s);

		if (size > best)
			continue;
		for (k = 0; k < nc; k++)
			if ((s >> k) & 1)
				x |= (uint64_t)1 << cells[k];
		if (!di_dominates(I, x))
			continue;
		if (size < best) {
			best = size;
			out->n = 0;
		}
		co_add(out, x);
	}
	co_sort(out);
	return best;
}

static void di_spec(const di *I, qubo_puzzle_domination_spec *s)
{
	qubo_puzzle_domination_spec z = QUBO_PUZZLE_DOMINATION_SPEC_INIT;

	*s = z;
	s->width = I->w;
	s->height = I->h;
	s->off_board = I->off;
	s->piece = I->piece;
	s->num_moves = I->piece == QUBO_PUZZLE_CHESS_CUSTOM ? I->nmoves : 0;
	s->moves = I->piece == QUBO_PUZZLE_CHESS_CUSTOM ? I->moves : NULL;
	s->slack = I->slack;
}

static void di_random(di *I, tu_rng *r)
{
	size_t a, on = 0;

	memset(I, 0, sizeof *I);
	do {
		I->w = (uint32_t)tu_range(r, 1, 5);
		I->h = (uint32_t)tu_range(r, 1, 4);
	} while ((size_t)I->w * I->h > 16);
	I->n = (size_t)I->w * I->h;
	for (a = 0; a < I->n; a++) {
		I->off[a] = tu_below(r, 6) == 0;
		on += !I->off[a];
	}
	for (a = I->n; a > 0 && on > 12; a--)
		if (!I->off[a - 1]) {
			I->off[a - 1] = 1;
			on--;
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
	di_prepare(I);
}

static void di_check_agrees(const di *I, const qubo_puzzle *p, uint64_t x)
{
	uint8_t board[CO_MAX_CELLS];
	size_t viol = 99;
	char rep[2048];

	co_board(x, I->n, board);
	cr_assert_eq(qubo_puzzle_check(p, board, I->n, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol == 0, di_dominates(I, x), "checker (%zu: %s) disagrees on %#llx", viol,
		     rep, (unsigned long long)x);
}

Test(domination, exact_on_random_boards)
{
	static const double penalties[3] = { 1, 0.5, 3 };
	tu_rng r = { 0xD0111 };
	int t, trials = valgrind_run() ? 15 : 150;
	size_t tested = 0, skipped = 0;

	srand(3);
	for (t = 0; t < trials; t++) {
		di I;
		co_set want = { 0 }, got = { 0 };
		size_t gamma, k;
		int form, pi;

		di_random(&I, &r);
		gamma = di_referee(&I, &want);
		for (form = 0; form < 2; form++) {
			for (pi = 0; pi < 3; pi++) {
				qubo_puzzle_domination_spec s;
				qubo_puzzle_options o = co_opts(0, penalties[pi]);
				qubo_puzzle *p = NULL;
				double min, ground;
				char what[96];
				int rc;

				I.slack = form;
				di_spec(&I, &s);
				snprintf(what, sizeof what,
					 "trial %d (%ux%u, piece %d, slack %d, P %g)", t,
					 (unsigned)I.w, (unsigned)I.h, (int)I.piece, form,
					 penalties[pi]);
				cr_assert_eq(qubo_puzzle_domination_new(&p, &s, &o), QUBO_OK,
					     "%s: %s", what, qubo_error_message());
				cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_DOMINATION);
				rc = qubo_puzzle_ground_energy(p, &ground);
				if (rc == QUBO_OK)
					cr_assert_eq(ground, (double)gamma,
						     "%s: ground %g, gamma %zu", what, ground,
						     gamma);
				else
					cr_assert_eq(rc, QUBO_ERR_NOT_SUPPORTED);
				if (co_vars(p) > 20) {
					skipped++;
					qubo_puzzle_free(p);
					continue;
				}
				min = co_minimisers(p, I.n, &got);
				cr_assert_eq(min, (double)gamma, "%s: minimum %g, gamma %zu", what,
					     min, gamma);
				co_assert_same(&got, &want, what);
				tested++;
				for (k = 0; k < want.n && k < 8; k++)
					di_check_agrees(&I, p, want.keys[k]);
				for (k = 0; k < 16; k++) {
					uint64_t x = 0;
					size_t a;

					for (a = 0; a < I.n; a++)
						if (rand() % 3 == 0)
							x |= (uint64_t)1 << a;
					di_check_agrees(&I, p, k % 2 ? x & I.on : x);
				}
				qubo_puzzle_free(p);
			}
		}
		co_clear(&want);
		co_clear(&got);
	}
	cr_assert_gt(tested, 2 * skipped, "%zu models enumerated, %zu too large", tested, skipped);
}

/* The tight slack needs fewer variables than the full one, never more. */
Test(domination, slack_forms)
{
	static const struct {
		uint32_t n;
		size_t tight, full;
	} cases[] = {
		{ 3, 9, 9 + 8 * 3 + 4 }, /* γ = 1: the tight form is exactly-one, no slack */
		{ 8, 64 + 64 * 3, 64 + 64 * 5 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
		qubo_puzzle *p = NULL;

		s.width = s.height = cases[i].n;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(co_vars(p), cases[i].tight, "%u: %zu", cases[i].n, co_vars(p));
		qubo_puzzle_free(p);
		s.slack = QUBO_PUZZLE_DOMINATION_SLACK_FULL;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(co_vars(p), cases[i].full, "%u: %zu", cases[i].n, co_vars(p));
		qubo_puzzle_free(p);
	}
}

/* ---- domination numbers, recounted ---- */

/* Queens on an n x n board (n ≤ 8): dominated-cell masks. */
static void queen_masks(uint32_t n, uint64_t *dom)
{
	size_t a, b, N = (size_t)n * n;

	for (a = 0; a < N; a++) {
		dom[a] = 0;
		for (b = 0; b < N; b++)
			if (a == b || co_attacks(n, QUBO_PUZZLE_CHESS_QUEEN, NULL, NULL, a, b))
				dom[a] |= (uint64_t)1 << b;
	}
}

/* The number of dominating sets of size k (cells in increasing order). */
static uint64_t count_k(const uint64_t *dom, size_t N, uint64_t all, size_t k, size_t from,
			uint64_t cov, uint8_t *pick, size_t depth, uint64_t *first)
{
	uint64_t total = 0;
	size_t a;

	if (depth == k) {
		if (cov == all) {
			if (*first == 0)
				for (a = 0; a < depth; a++)
					*first |= (uint64_t)1 << pick[a];
			return 1;
		}
		return 0;
	}
	for (a = from; a + (k - depth) <= N; a++) {
		pick[depth] = (uint8_t)a;
		total += count_k(dom, N, all, k, a + 1, cov | dom[a], pick, depth + 1, first);
	}
	return total;
}

Test(domination, queen_domination_numbers)
{
	static const uint64_t gammas[13] = { 0, 1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6 };
	uint32_t n;

	for (n = 1; n <= 12; n++) {
		qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
		qubo_puzzle *p = NULL;
		double ground;

		s.width = s.height = n;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
		cr_assert_eq(ground, (double)gammas[n], "n = %u", n);
		qubo_puzzle_free(p);
	}
	/* n ≤ 7 by search: no dominating set below γ, at least one at γ */
	for (n = 1; n <= 7; n++) {
		uint64_t dom[64], first = 0,
				  all = n == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (n * n)) - 1;
		uint8_t pick[8];

		queen_masks(n, dom);
		if (gammas[n] > 1)
			cr_assert_eq(count_k(dom, (size_t)n * n, all, gammas[n] - 1, 0, 0, pick, 0,
					     &first),
				     0, "n = %u", n);
		cr_assert_gt(count_k(dom, (size_t)n * n, all, gammas[n], 0, 0, pick, 0, &first), 0,
			     "n = %u", n);
	}
	/* 13 x 13 and wider boards: not known to the library */
	{
		qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
		qubo_puzzle *p = NULL;
		double ground;

		s.width = s.height = 13;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_ERR_NOT_SUPPORTED);
		qubo_puzzle_free(p);
		s.width = 5;
		s.height = 4;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_ERR_NOT_SUPPORTED);
		qubo_puzzle_free(p);
	}
}

/* As the mixed-integer formulation of dominating queens found: 8 x 8 needs
 * 5 queens and has 4860 optimal placements. Every one passes the checker;
 * no 4 queens dominate. */
Test(domination, eight_queens_4860_placements, .timeout = 120)
{
	static const char text[] = "domination 8\n";
	uint64_t dom[64], first = 0;
	uint8_t pick[8], board[64];
	qubo_puzzle *p = NULL;
	size_t viol = 1, i;
	char rep[4096];

	queen_masks(8, dom);
	cr_assert_eq(count_k(dom, 64, ~(uint64_t)0, 4, 0, 0, pick, 0, &first), 0);
	cr_assert_eq(count_k(dom, 64, ~(uint64_t)0, 5, 0, 0, pick, 0, &first), 4860);
	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK);
	co_board(first, 64, board);
	cr_assert_eq(qubo_puzzle_check(p, board, 64, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s", rep);
	/* and one queen less leaves cells uncovered, each named */
	for (i = 0; i < 64 && !board[i]; i++)
		;
	board[i] = 0;
	cr_assert_eq(qubo_puzzle_check(p, board, 64, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_gt(viol, 0);
	cr_assert(strstr(rep, "is not dominated: no queen stands on it or attacks it\n"), "%s",
		  rep);
	qubo_puzzle_free(p);
}

/* Rooks: min(w, h); kings: ⌈w/3⌉ ⌈h/3⌉ (the ground energies the library
 * documents), confirmed by the referee on boards up to 16 cells. */
Test(domination, rook_and_king_numbers)
{
	uint32_t w, h;
	int piece;

	for (piece = QUBO_PUZZLE_CHESS_ROOK; piece <= QUBO_PUZZLE_CHESS_KING; piece += 3) {
		for (w = 1; w <= 5; w++) {
			for (h = 1; h <= 4 && w * h <= 16; h++) {
				qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
				qubo_puzzle *p = NULL;
				co_set want = { 0 };
				di I;
				double ground;
				size_t gamma;

				memset(&I, 0, sizeof I);
				I.w = w;
				I.h = h;
				I.n = (size_t)w * h;
				I.piece = piece;
				di_prepare(&I);
				gamma = di_referee(&I, &want);
				s.width = w;
				s.height = h;
				s.piece = piece;
				cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
				cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
				cr_assert_eq(ground, (double)gamma, "piece %d, %ux%u: %g vs %zu",
					     piece, (unsigned)w, (unsigned)h, ground, gamma);
				qubo_puzzle_free(p);
				co_clear(&want);
			}
		}
	}
}

/* ---- spec checks, text, checker ---- */

Test(domination, bad_specs)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle_chess_move mv[2] = { { 1, 2, 0 }, { 0, 0, 1 } };
	qubo_puzzle *p = NULL;

	cr_assert_eq(qubo_puzzle_domination_new(NULL, &s, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_domination_new(&p, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.width = s.height = 3;
	s.piece = QUBO_PUZZLE_CHESS_NONE;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.piece = QUBO_PUZZLE_CHESS_KING;
	s.moves = mv;
	s.num_moves = 1;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.piece = QUBO_PUZZLE_CHESS_CUSTOM;
	s.num_moves = 2;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "spec.moves[1]"), "%s", qubo_error_message());
	s.num_moves = 1;
	s.slack = 2;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_ERR_INVALID_ARG);
	s.slack = QUBO_PUZZLE_DOMINATION_SLACK_FULL;
	{
		struct {
			qubo_puzzle_domination_spec s;
			uint64_t tail;
		} big;

		memset(&big, 0, sizeof big);
		big.s = s;
		big.s.struct_size = sizeof big;
		big.tail = 1;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &big.s, NULL),
			     QUBO_ERR_UNSUPPORTED_VERSION);
		big.tail = 0;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &big.s, NULL), QUBO_OK);
		qubo_puzzle_free(p);
		s.struct_size = 8;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL),
			     QUBO_ERR_UNSUPPORTED_VERSION);
	}
	s.struct_size = sizeof s;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
	/* queens on 60 x 60: the cover terms would be too dense */
	{
		qubo_puzzle_domination_spec q = QUBO_PUZZLE_DOMINATION_SPEC_INIT;

		q.width = q.height = 60;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &q, NULL), QUBO_ERR_TOO_LARGE);
		cr_assert_null(p);
	}
	/* a board with no cell: dominated by nothing */
	{
		uint8_t off[4] = { 1, 1, 1, 1 };
		double ground;

		s.width = s.height = 2;
		s.off_board = off;
		cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
		cr_assert_eq(co_vars(p), 0);
		cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
		cr_assert_eq(ground, 0.0);
		qubo_puzzle_free(p);
	}
}

Test(domination, text_and_solutions)
{
	static const char text[] = "# five kings on a holed board\ndomination 5x3 king\n.....\n"
				   "..#..\n.....\n";
	qubo_puzzle *p = NULL;
	uint8_t board[15] = { 0 }, back[15];
	char buf[256], rep[1024];
	size_t n, viol;
	qubo_lit lits[15];

	cr_assert_eq(qubo_puzzle_parse(&p, text, strlen(text), NULL), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_DOMINATION);
	cr_assert_eq(qubo_puzzle_cell_literals(p, lits, 15), QUBO_OK);
	cr_assert_eq(lits[7], QUBO_LIT_FALSE);
	cr_assert_eq(co_vars(p) > 14, 1);
	board[6] = board[8] = 1; /* kings at (2,2) and (2,4) */
	cr_assert_eq(qubo_puzzle_check(p, board, 15, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert_eq(viol, 0, "%s", rep);
	cr_assert_eq(qubo_puzzle_format_solution(p, board, 15, buf, sizeof buf, &n), QUBO_OK);
	cr_assert_str_eq(buf, "domination 5x3 king\n.....\n.K#K.\n.....\n");
	cr_assert_eq(qubo_puzzle_parse_solution(p, buf, n, back, 15), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_arr_eq(back, board, 15);
	cr_assert_eq(qubo_puzzle_parse_solution(p, "domination 5x3\n", 15, back, 15),
		     QUBO_ERR_PARSE);
	cr_assert(strstr(qubo_error_message(), "for queens"), "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_parse_solution(p, ".....\nK...K\n.....\n", 18, back, 15), QUBO_OK);
	cr_assert_eq(qubo_puzzle_parse_solution(p, ".....\nK.#.K\n..#..\n", 18, back, 15),
		     QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3);
	cr_assert_eq(qubo_error_column(), 3);
	board[8] = 0;
	board[7] = 1; /* a king where there is no cell */
	cr_assert_eq(qubo_puzzle_check(p, board, 15, rep, sizeof rep, &viol), QUBO_OK);
	cr_assert(strstr(rep, "king at row 2, column 3 is not on the board\n"), "%s", rep);
	cr_assert(strstr(rep, "row 1, column 5 is not dominated: no king stands on it or "
			      "attacks it\n"),
		  "%s", rep);
	cr_assert_eq(viol, 7, "%s", rep); /* the hole, and columns 4 and 5 */
	qubo_puzzle_free(p);
}

Test(domination, out_of_memory)
{
	static const char text[] = "domination 4x3 knight\n....\n.#..\n....\n";
	size_t k, total, nomem = 0;
	tu_failalloc fa;
	qubo_puzzle_options o = co_opts(0, 0);
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

/* Solves a w x h board with the default settings of a solver (16 reads of
 * 1000 sweeps for "sa") and a target at the ground energy; returns the
 * pieces of the lowest sample, after the checker accepted it. */
static size_t solve_board(uint32_t w, uint32_t h, int32_t piece, int32_t slack,
			  const char *solver, uint64_t seed)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle *p = NULL;
	uint8_t board[CO_MAX_CELLS];
	size_t viol = 1, cnt = 0, c, cells = (size_t)w * h;
	char rep[4096];
	double e, ground;

	cr_assert_leq(cells, CO_MAX_CELLS);
	s.width = w;
	s.height = h;
	s.piece = piece;
	s.slack = slack;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &s, NULL), QUBO_OK);
	cr_assert_eq(qubo_puzzle_ground_energy(p, &ground), QUBO_OK);
	e = co_solve(p, solver, 16, 0, seed, board, cells, 1, ground);
	cr_assert_eq(qubo_puzzle_check(p, board, cells, rep, sizeof rep, &viol), QUBO_OK);
	for (c = 0; c < cells; c++)
		cnt += board[c];
	cr_assert_eq(viol, 0, "%u x %u: the lowest sample (%zu pieces, energy %g) is not "
		     "dominating: %s", w, h, cnt, e, rep);
	cr_assert_eq(e, (double)cnt, "%u x %u: energy %g for %zu pieces", w, h, e, cnt);
	cr_assert_geq(cnt, (size_t)ground);
	qubo_puzzle_free(p);
	return cnt;
}

/* The domination numbers of n x n queens boards, n = 4 … 8, are
 * 2, 3, 3, 4, 5. SA reaches each with its default settings: its moves set
 * the cover terms' slack bits (one group per cell) to their best values
 * (doc/solvers-sa.md, "Group moves"). Both slack forms, several seeds. */
Test(domination, queens_reach_the_domination_number)
{
	static const size_t gamma[9] = { 0, 1, 1, 1, 2, 3, 3, 4, 5 };
	uint32_t n;
	uint64_t seed, seeds = valgrind_run() ? 1 : 3;

	/* under valgrind only the smallest and largest boards: the sizes
	 * between take the same path and 6 s there */
	for (n = 4; n <= 8; n += valgrind_run() && n == 4 ? 4 : 1)
		for (seed = 1; seed <= seeds; seed++) {
			cr_assert_eq(solve_board(n, n, QUBO_PUZZLE_CHESS_QUEEN,
						 QUBO_PUZZLE_DOMINATION_SLACK_TIGHT, "sa", seed),
				     gamma[n], "%u x %u queens, seed %llu", n, n,
				     (unsigned long long)seed);
			cr_assert_eq(solve_board(n, n, QUBO_PUZZLE_CHESS_QUEEN,
						 QUBO_PUZZLE_DOMINATION_SLACK_FULL, "sa", seed),
				     gamma[n], "%u x %u queens, full slack, seed %llu", n, n,
				     (unsigned long long)seed);
		}
}

/* Rooks min(w, h), kings ⌈w/3⌉ ⌈h/3⌉ on boards a referee cannot enumerate. */
Test(domination, rooks_and_kings_reach_the_domination_number)
{
	cr_assert_eq(solve_board(8, 8, QUBO_PUZZLE_CHESS_KING, QUBO_PUZZLE_DOMINATION_SLACK_TIGHT,
				 "sa", 1),
		     9);
	cr_assert_eq(solve_board(7, 5, QUBO_PUZZLE_CHESS_ROOK, QUBO_PUZZLE_DOMINATION_SLACK_TIGHT,
				 "sa", 1),
		     5);
}
