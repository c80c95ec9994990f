/* White-box tests of the attack lists the chess and domination builders
 * share (lib/puzzle/chess_moves.c; links the static library): the reach
 * lists of qubo__pz_cz_reach_lists() and their transpose and symmetric
 * closure (qubo__pz_cz_transpose()), array for array, against two
 * references written here:
 * - the referee's arithmetic (co_attacks(), no walk), cell after cell in
 *   index order, so its lists are sorted and distinct by construction;
 * - a walk over every move's cells, then a comparison sort and the repeats
 *   dropped, and a transpose from sorted (row, cell) pairs.
 * The boards are random, 1 × 1 to 20 × 20 and mostly not square, with the
 * built-in pieces mixed with custom move sets (leaps, slides, moves with no
 * opposite, parallel slides such as (1,1)* and (2,2)*, repeated moves,
 * moves longer than the board, many moves of one row step) and cells where
 * no piece stands. Puzzles built through the public API with pre-placed
 * pieces carry the same attack and conflict lists, and their models couple
 * exactly the conflicting free cells; domination keeps its lists too. Out
 * of memory fails cleanly or keeps the lists right. */
#include "chess_impl.h"
#include "puzzle/chess_oracle.h"

#define MW 20	       /* largest side */
#define MAXN (MW * MW) /* cells */
#define MAXSETS 3      /* custom move sets */
#define MAXMOVES 16    /* moves of one set */

static int valgrind_run(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

/* Fewer random trials under valgrind, never fewer checks per trial. */
static unsigned trials(unsigned normal, unsigned under_valgrind)
{
	return valgrind_run() ? under_valgrind : normal;
}

typedef struct board {
	uint32_t w, h;
	size_t n;
	int32_t code[MAXN];
	uint8_t target[MAXN];
	size_t nsets;
	size_t start[MAXSETS + 1];
	qubo_puzzle_chess_move moves[MAXSETS * MAXMOVES];
	struct cz_sets sets; /* points into the above */
} board;

/* A CSR list over n cells, malloc'd. */
typedef struct csr {
	size_t n;
	size_t *start;
	uint32_t *list;
} csr;

static void csr_free(csr *c)
{
	free(c->start);
	free(c->list);
	c->start = NULL;
	c->list = NULL;
}

/* ---- random boards ---- */

static void add_move(board *B, size_t *m, int64_t dr, int64_t dc, int slide)
{
	if (*m >= MAXMOVES * (B->nsets + 1) || (dr == 0 && dc == 0))
		return;
	B->moves[*m].drow = (int32_t)dr;
	B->moves[*m].dcol = (int32_t)dc;
	B->moves[*m].slide = slide;
	(*m)++;
}

/* Set number B->nsets: up to MAXMOVES moves of every kind the walk meets. */
static void random_set(tu_rng *r, board *B)
{
	size_t m = B->start[B->nsets], first = m, count = (size_t)tu_below(r, MAXMOVES + 1);
	int64_t big[6];

	big[0] = B->w;
	big[1] = B->h;
	big[2] = (int64_t)B->w - 1;
	big[3] = (int64_t)B->h - 1;
	big[4] = 25;
	big[5] = 4096;
	while (m - first < count) {
		unsigned kind = (unsigned)tu_below(r, 10);
		int64_t dr = tu_range(r, -3, 3), dc = tu_range(r, -3, 3), k;
		int slide = (int)tu_below(r, 2);

		switch (kind) {
		case 0: /* longer than the board, or just as long */
			if (tu_below(r, 2))
				dr = big[tu_below(r, 6)] * (tu_below(r, 2) ? 1 : -1);
			else
				dc = big[tu_below(r, 6)] * (tu_below(r, 2) ? 1 : -1);
			add_move(B, &m, dr, dc, slide);
			break;
		case 1: /* parallel slides: (a,b)* and (2a,2b)* */
			add_move(B, &m, dr, dc, 1);
			add_move(B, &m, 2 * dr, 2 * dc, 1);
			break;
		case 2: /* a move again, as a leap or a slide */
			if (m > first) {
				qubo_puzzle_chess_move x = B->moves[first + tu_below(r, m - first)];

				add_move(B, &m, x.drow, x.dcol,
					 tu_below(r, 2) ? x.slide : !x.slide);
			}
			break;
		case 3: /* a fan of one row step, wider than the lockstep */
			for (k = -6; k <= 6 && m - first < MAXMOVES; k++)
				if (tu_below(r, 4))
					add_move(B, &m, dr ? dr : 1, k, (int)tu_below(r, 2));
			break;
		case 4: /* along the own row */
			add_move(B, &m, 0, dc ? dc : 2, slide);
			break;
		default:
			add_move(B, &m, dr, dc, slide);
			break;
		}
	}
	B->nsets++;
	B->start[B->nsets] = m;
}

static void random_board(tu_rng *r, board *B, uint32_t maxside)
{
	int32_t palette[8];
	size_t np = 0, i, k;
	unsigned tmode;

	memset(B, 0, sizeof *B);
	B->w = (uint32_t)tu_range(r, 1, maxside);
	B->h = tu_below(r, 4) ? (uint32_t)tu_range(r, 1, maxside) : B->w;
	B->n = (size_t)B->w * B->h;
	k = (size_t)tu_below(r, MAXSETS + 1);
	while (B->nsets < k)
		random_set(r, B);
	/* a few kinds of piece on this board, cells without one among them */
	palette[np++] = QUBO_PUZZLE_CHESS_NONE;
	for (k = 0; k < QUBO__CZ_BUILTINS; k++)
		if (tu_below(r, 3) == 0)
			palette[np++] = (int32_t)k;
	for (k = 0; k < B->nsets; k++)
		if (tu_below(r, 2))
			palette[np++] = QUBO_PUZZLE_CHESS_CUSTOM + (int32_t)k;
	if (np == 1)
		palette[np++] = (int32_t)tu_below(r, QUBO__CZ_BUILTINS);
	tmode = (unsigned)tu_below(r, 4);
	for (i = 0; i < B->n; i++) {
		/* one piece everywhere, or a mixture, a quarter of cells empty */
		if (tmode == 0)
			B->code[i] = palette[1];
		else if (tu_below(r, 4) == 0)
			B->code[i] = QUBO_PUZZLE_CHESS_NONE;
		else
			B->code[i] = palette[1 + tu_below(r, np - 1)];
		/* targets: the cells holding a piece (chess), all cells, or
		 * any cells */
		B->target[i] = tmode == 1 ? 1 :
			       tmode == 2 ? (uint8_t)tu_below(r, 2) :
					    B->code[i] != QUBO_PUZZLE_CHESS_NONE;
	}
	B->sets.n = B->nsets;
	B->sets.start = B->nsets ? B->start : NULL;
	B->sets.moves = B->moves;
	B->sets.letters = NULL;
}

/* ---- the references ---- */

static int ref_attacks(const board *B, size_t a, size_t b)
{
	const qubo_puzzle_chess_move *custom[MAXSETS];
	size_t ncustom[MAXSETS], k;

	for (k = 0; k < B->nsets; k++) {
		custom[k] = B->moves + B->start[k];
		ncustom[k] = B->start[k + 1] - B->start[k];
	}
	return co_attacks(B->w, B->code[a], custom, ncustom, a, b);
}

/* Every targeted cell b ≠ a that a's piece attacks, b in index order. */
static csr ref_arith(const board *B)
{
	csr c = { B->n, calloc(B->n + 1, sizeof(size_t)), malloc((B->n * B->n + 1) * 4) };
	size_t a, b, len = 0;

	cr_assert(c.start && c.list);
	for (a = 0; a < B->n; a++) {
		c.start[a] = len;
		for (b = 0; b < B->n; b++)
			if (B->target[b] && ref_attacks(B, a, b))
				c.list[len++] = (uint32_t)b;
	}
	c.start[B->n] = len;
	return c;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t x = *(const uint64_t *)pa, y = *(const uint64_t *)pb;

	return x < y ? -1 : x > y;
}

static const qubo_puzzle_chess_move ref_builtin[QUBO__CZ_BUILTINS][8] = {
	{ { -1, 0, 1 },
	  { 1, 0, 1 },
	  { 0, -1, 1 },
	  { 0, 1, 1 },
	  { -1, -1, 1 },
	  { -1, 1, 1 },
	  { 1, -1, 1 },
	  { 1, 1, 1 } },
	{ { -1, 0, 1 }, { 1, 0, 1 }, { 0, -1, 1 }, { 0, 1, 1 } },
	{ { -1, -1, 1 }, { -1, 1, 1 }, { 1, -1, 1 }, { 1, 1, 1 } },
	{ { -2, -1, 0 },
	  { -2, 1, 0 },
	  { -1, -2, 0 },
	  { -1, 2, 0 },
	  { 1, -2, 0 },
	  { 1, 2, 0 },
	  { 2, -1, 0 },
	  { 2, 1, 0 } },
	{ { -1, -1, 0 },
	  { -1, 0, 0 },
	  { -1, 1, 0 },
	  { 0, -1, 0 },
	  { 0, 1, 0 },
	  { 1, -1, 0 },
	  { 1, 0, 0 },
	  { 1, 1, 0 } },
};
static const size_t ref_nbuiltin[QUBO__CZ_BUILTINS] = { 8, 4, 4, 8, 8 };

/* Each move walked step by step to the edge (once for a leap), the cells
 * collected, sorted and made distinct. */
static csr ref_walk(const board *B)
{
	csr c = { B->n, calloc(B->n + 1, sizeof(size_t)), NULL };
	size_t a, k, len = 0, cap = 64;

	c.list = malloc(cap * 4);
	cr_assert(c.start && c.list);
	for (a = 0; a < B->n; a++) {
		const qubo_puzzle_chess_move *mv = NULL;
		size_t nmv = 0, first = len, kept = 0;
		int32_t code = B->code[a];

		c.start[a] = len;
		if (code >= 0 && code < QUBO__CZ_BUILTINS) {
			mv = ref_builtin[code];
			nmv = ref_nbuiltin[code];
		} else if (code >= QUBO_PUZZLE_CHESS_CUSTOM) {
			mv = B->moves + B->start[code - QUBO_PUZZLE_CHESS_CUSTOM];
			nmv = B->start[code - QUBO_PUZZLE_CHESS_CUSTOM + 1] -
			      B->start[code - QUBO_PUZZLE_CHESS_CUSTOM];
		}
		for (k = 0; k < nmv; k++) {
			long r = (long)(a / B->w), col = (long)(a % B->w);

			for (;;) {
				r += mv[k].drow;
				col += mv[k].dcol;
				if (r < 0 || col < 0 || r >= (long)B->h || col >= (long)B->w)
					break;
				if (B->target[(size_t)r * B->w + (size_t)col]) {
					if (len == cap) {
						cap *= 2;
						c.list = realloc(c.list, cap * 4);
						cr_assert(c.list);
					}
					c.list[len++] = (uint32_t)((size_t)r * B->w + (size_t)col);
				}
				if (!mv[k].slide)
					break;
			}
		}
		qsort(c.list + first, len - first, 4, cmp_u32);
		for (k = first; k < len; k++)
			if (k == first || c.list[first + kept - 1] != c.list[k])
				c.list[first + kept++] = c.list[k];
		len = first + kept;
	}
	c.start[B->n] = len;
	return c;
}

/* The transpose (sym: with the lists themselves) from sorted (row, cell)
 * pairs. */
static csr ref_transpose(const csr *f, int sym)
{
	size_t n = f->n, total = f->start[n] * (sym ? 2 : 1), np = 0, i, k, len = 0;
	uint64_t *pairs = malloc((total + 1) * sizeof *pairs);
	csr c = { n, calloc(n + 1, sizeof(size_t)), malloc((total + 1) * 4) };

	cr_assert(pairs && c.start && c.list);
	for (i = 0; i < n; i++)
		for (k = f->start[i]; k < f->start[i + 1]; k++) {
			pairs[np++] = (uint64_t)f->list[k] << 32 | i;
			if (sym)
				pairs[np++] = (uint64_t)i << 32 | f->list[k];
		}
	qsort(pairs, np, sizeof *pairs, cmp_u64);
	for (k = 0; k < np; k++) {
		if (k > 0 && pairs[k] == pairs[k - 1])
			continue;
		c.start[(pairs[k] >> 32) + 1]++;
		c.list[len++] = (uint32_t)pairs[k];
	}
	for (i = 0; i < n; i++)
		c.start[i + 1] += c.start[i];
	free(pairs);
	return c;
}

static void expect_same(size_t n, const size_t *start, const uint32_t *list, const csr *want,
			const char *what, uint64_t seed)
{
	size_t i, k;

	cr_assert_not_null(start, "%s, seed %llu", what, (unsigned long long)seed);
	for (i = 0; i <= n; i++)
		cr_assert_eq(start[i], want->start[i], "%s, seed %llu: start[%zu] is %zu, want %zu",
			     what, (unsigned long long)seed, i, start[i], want->start[i]);
	for (k = 0; k < want->start[n]; k++)
		cr_assert_eq(list[k], want->list[k], "%s, seed %llu: entry %zu is %u, want %u",
			     what, (unsigned long long)seed, k, list[k], want->list[k]);
}

/* ---- the lists against the references ---- */

/* The size check counts what the lists hold, exactly: it passes them at
 * their own size and refuses them one entry short, with or without the
 * counts of attackers, which are the rows of the transpose. */
static void check_sizes(const board *B, const qubo_allocator *al, const csr *arith, uint64_t seed)
{
	size_t entries = arith->start[B->n], i;
	uint32_t *in = calloc(B->n, sizeof *in);
	csr tr = ref_transpose(arith, 0);

	cr_assert_not_null(in);
	cr_assert_eq(qubo__pz_cz_reach_check(al, B->w, B->h, B->code, &B->sets, B->target, entries,
					     in, NULL, "test"),
		     QUBO_OK, "seed %llu: %s", (unsigned long long)seed, qubo_error_message());
	for (i = 0; i < B->n; i++)
		cr_assert_eq(in[i], tr.start[i + 1] - tr.start[i],
			     "seed %llu: cell %zu has %u attackers, want %zu",
			     (unsigned long long)seed, i, in[i], tr.start[i + 1] - tr.start[i]);
	cr_assert_eq(qubo__pz_cz_reach_check(al, B->w, B->h, B->code, &B->sets, B->target, entries,
					     NULL, NULL, "test"),
		     QUBO_OK);
	if (entries) {
		cr_assert_eq(qubo__pz_cz_reach_check(al, B->w, B->h, B->code, &B->sets, B->target,
						     entries - 1, NULL, NULL, "test"),
			     QUBO_ERR_TOO_LARGE, "seed %llu", (unsigned long long)seed);
		cr_assert(strstr(qubo_error_message(), "test: the attack graph"), "%s",
			  qubo_error_message());
		memset(in, 0, B->n * sizeof *in);
		cr_assert_eq(qubo__pz_cz_reach_check(al, B->w, B->h, B->code, &B->sets, B->target,
						     entries - 1, in, NULL, "test"),
			     QUBO_ERR_TOO_LARGE, "seed %llu", (unsigned long long)seed);
	}
	free(in);
	csr_free(&tr);
}

static void check_board(const board *B, const qubo_allocator *al, uint64_t seed)
{
	csr arith = ref_arith(B), walk = ref_walk(B), tr, sy;
	size_t *s = NULL, *ts = NULL;
	uint32_t *l = NULL, *tl = NULL;
	int sym;

	/* the two references agree, which checks them both */
	expect_same(B->n, walk.start, walk.list, &arith, "walk vs arithmetic", seed);
	check_sizes(B, al, &arith, seed);
	cr_assert_eq(qubo__pz_cz_reach_lists(al, B->w, B->h, B->code, &B->sets, B->target, NULL, &s,
					     &l, "test"),
		     QUBO_OK, "%s", qubo_error_message());
	expect_same(B->n, s, l, &arith, "reach lists", seed);
	for (sym = 0; sym <= 1; sym++) {
		tr = ref_transpose(&arith, sym);
		cr_assert_eq(qubo__pz_cz_transpose(al, B->n, s, l, sym, NULL, &ts, &tl, "test"),
			     QUBO_OK, "%s", qubo_error_message());
		expect_same(B->n, ts, tl, &tr, sym ? "symmetric closure" : "transpose", seed);
		qubo__free(al, ts);
		qubo__free(al, tl);
		csr_free(&tr);
	}
	/* the closure of the closure is itself */
	sy = ref_transpose(&arith, 1);
	cr_assert_eq(qubo__pz_cz_transpose(al, B->n, sy.start, sy.list, 1, NULL, &ts, &tl, "test"),
		     QUBO_OK);
	expect_same(B->n, ts, tl, &sy, "closure of the closure", seed);
	qubo__free(al, ts);
	qubo__free(al, tl);
	csr_free(&sy);
	qubo__free(al, s);
	qubo__free(al, l);
	csr_free(&arith);
	csr_free(&walk);
}

Test(chess_moves, reach_lists_match_the_references)
{
	qubo_allocator al;
	unsigned t, nt = trials(400, 25);
	board *B = malloc(sizeof *B);

	cr_assert_not_null(B);
	cr_assert_eq(qubo__alloc_init(&al, NULL, NULL), QUBO_OK);
	for (t = 0; t < nt; t++) {
		uint64_t seed = 0x5eed0000u + t;
		tu_rng r = { seed };

		random_board(&r, B, t % 5 == 0 ? 4 : MW);
		check_board(B, &al, seed);
	}
	free(B);
}

/* Full boards of one built-in piece, square and not: the sorted emission
 * with no merge, and the symmetric rows copied whole. */
Test(chess_moves, full_boards_of_one_piece)
{
	qubo_allocator al;
	static const uint32_t sides[][2] = { { 1, 1 }, { 1, 9 },   { 9, 1 },  { 2, 2 },
					     { 8, 8 }, { 20, 13 }, { 13, 20 } };
	board *B = calloc(1, sizeof *B);
	size_t s, i;
	int32_t piece;

	cr_assert_not_null(B);
	cr_assert_eq(qubo__alloc_init(&al, NULL, NULL), QUBO_OK);
	for (s = 0; s < sizeof sides / sizeof sides[0]; s++) {
		for (piece = 0; piece < QUBO__CZ_BUILTINS; piece++) {
			B->w = sides[s][0];
			B->h = sides[s][1];
			B->n = (size_t)B->w * B->h;
			for (i = 0; i < B->n; i++) {
				B->code[i] = piece;
				B->target[i] = 1;
			}
			check_board(B, &al, s * 16 + (size_t)piece);
		}
	}
	free(B);
}

/* ---- puzzles built through the public API ---- */

/* Max chess pieces with pre-placed pieces (none attacking another): the
 * puzzle's attack and conflict lists are the references', and at every
 * reduction level the model couples the variables of two cells exactly
 * when the cells conflict, with weight λ. */
Test(chess_moves, puzzles_keep_the_lists)
{
	unsigned t, nt = trials(120, 8);
	board *B = malloc(sizeof *B);
	uint32_t *placed = malloc(MAXN * sizeof *placed);
	uint32_t *rows = NULL, *cols = NULL;
	double *wts = NULL;

	cr_assert(B && placed);
	for (t = 0; t < nt; t++) {
		uint64_t seed = 0xc0ffee00u + t;
		qubo_puzzle_chess_spec spec = QUBO_PUZZLE_CHESS_SPEC_INIT;
		csr out, adj;
		size_t i, nplaced = 0, k;
		uint8_t *taken;
		int level;
		tu_rng r = { seed };

		random_board(&r, B, MW);
		for (i = 0; i < B->n; i++)
			B->target[i] = B->code[i] != QUBO_PUZZLE_CHESS_NONE;
		out = ref_arith(B);
		adj = ref_transpose(&out, 1);
		/* pre-placed pieces: random cells that conflict with none so
		 * far */
		taken = calloc(B->n, 1);
		cr_assert_not_null(taken);
		for (i = 0; i < B->n; i++) {
			int ok = B->code[i] != QUBO_PUZZLE_CHESS_NONE && tu_below(&r, 6) == 0;

			for (k = adj.start[i]; ok && k < adj.start[i + 1]; k++)
				ok = !taken[adj.list[k]];
			if (ok) {
				taken[i] = 1;
				placed[nplaced++] = (uint32_t)i;
			}
		}
		spec.width = B->w;
		spec.height = B->h;
		spec.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
		spec.pieces = B->code;
		spec.num_move_sets = B->nsets;
		spec.move_set_start = B->nsets ? B->start : NULL;
		spec.moves = B->moves;
		spec.placed = placed;
		spec.num_placed = nplaced;
		for (level = QUBO_REDUCE_NONE; level <= QUBO_REDUCE_FULL; level++) {
			qubo_puzzle_options o = co_opts(level, 0);
			qubo_puzzle *p = NULL;
			const qubo_model *m;
			const struct cz *z;
			size_t ncoo = 0, want = 0, c;

			cr_assert_eq(qubo_puzzle_chess_new(&p, &spec, &o), QUBO_OK, "seed %llu: %s",
				     (unsigned long long)seed, qubo_error_message());
			z = p->data;
			expect_same(B->n, z->out_start, z->out, &out, "puzzle attacks", seed);
			expect_same(B->n, z->adj_start, z->adj, &adj, "puzzle conflicts", seed);
			cr_assert_eq(qubo_puzzle_model(p, &m), QUBO_OK);
			cr_assert_eq(qubo_model_export_coo(m, NULL, NULL, NULL, 0, &ncoo), QUBO_OK);
			rows = realloc(rows, (ncoo + 1) * sizeof *rows);
			cols = realloc(cols, (ncoo + 1) * sizeof *cols);
			wts = realloc(wts, (ncoo + 1) * sizeof *wts);
			cr_assert(rows && cols && wts);
			cr_assert_eq(qubo_model_export_coo(m, rows, cols, wts, ncoo + 1, &ncoo),
				     QUBO_OK);
			/* the conflicting pairs of free cells, in (cell, cell)
			 * order, which is the variables' order */
			for (i = 0; i < B->n; i++) {
				qubo_lit li = p->cell_lits[i];

				if (QUBO_LIT_IS_CONST(li))
					continue;
				for (k = adj.start[i]; k < adj.start[i + 1]; k++) {
					qubo_lit lb = p->cell_lits[adj.list[k]];

					if (adj.list[k] < i || QUBO_LIT_IS_CONST(lb))
						continue;
					c = want++;
					cr_assert_lt(c, ncoo,
						     "seed %llu level %d: too few couplers",
						     (unsigned long long)seed, level);
					cr_assert_eq(rows[c], QUBO_LIT_VAR(li));
					cr_assert_eq(cols[c], QUBO_LIT_VAR(lb));
					cr_assert_eq(wts[c], z->lambda);
				}
			}
			cr_assert_eq(want, ncoo, "seed %llu level %d: %zu couplers, want %zu",
				     (unsigned long long)seed, level, ncoo, want);
			qubo_puzzle_free(p);
		}
		free(taken);
		csr_free(&out);
		csr_free(&adj);
	}
	free(rows);
	free(cols);
	free(wts);
	free(placed);
	free(B);
}

/* Minimum domination: the attack lists and who attacks each cell. */
Test(chess_moves, domination_keeps_the_lists)
{
	unsigned t, nt = trials(60, 6), built = 0;
	board *B = malloc(sizeof *B);
	uint8_t *off = malloc(MAXN);

	cr_assert(B && off);
	for (t = 0; t < nt; t++) {
		uint64_t seed = 0xd0d00000u + t;
		qubo_puzzle_domination_spec spec = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
		qubo_puzzle *p = NULL;
		int32_t piece;
		csr out, in;
		size_t i;
		int rc;
		tu_rng r = { seed };

		random_board(&r, B, 9);
		if (B->nsets == 0) {
			random_set(&r, B);
			B->sets.n = B->nsets;
			B->sets.start = B->start;
		}
		piece = tu_below(&r, 3) ? (int32_t)tu_below(&r, QUBO__CZ_BUILTINS) :
					  QUBO_PUZZLE_CHESS_CUSTOM;
		for (i = 0; i < B->n; i++) {
			off[i] = tu_below(&r, 5) == 0;
			B->code[i] = off[i] ? QUBO_PUZZLE_CHESS_NONE : piece;
			B->target[i] = !off[i];
		}
		spec.width = B->w;
		spec.height = B->h;
		spec.off_board = off;
		spec.piece = piece;
		spec.num_moves = piece == QUBO_PUZZLE_CHESS_CUSTOM ? B->start[1] : 0;
		spec.moves = piece == QUBO_PUZZLE_CHESS_CUSTOM ? B->moves : NULL;
		rc = qubo_puzzle_domination_new(&p, &spec, NULL);
		/* the cover terms of a dense board may be too large */
		cr_assert(rc == QUBO_OK || rc == QUBO_ERR_TOO_LARGE, "seed %llu: %s",
			  (unsigned long long)seed, qubo_error_message());
		if (rc != QUBO_OK)
			continue;
		built++;
		out = ref_arith(B);
		in = ref_transpose(&out, 0);
		{
			const struct dz *d = p->data;

			expect_same(B->n, d->out_start, d->out, &out, "domination attacks", seed);
			expect_same(B->n, d->in_start, d->in, &in, "domination attacked by", seed);
		}
		qubo_puzzle_free(p);
		csr_free(&out);
		csr_free(&in);
	}
	cr_assert_gt(built, nt / 2);
	free(off);
	free(B);
}

/* ---- out of memory ---- */

/* Failing each allocation in turn: NOMEM with nothing returned and nothing
 * leaked, or (a shrinking reallocation refused) the right lists all the
 * same. The board has queens, knights and a custom piece whose lists need
 * merging (two row steps of one sign), and enough entries to grow. */
Test(chess_moves, out_of_memory)
{
	board *B = calloc(1, sizeof *B);
	csr ref, tr[2];
	size_t k, i, total, nomem = 0;
	tu_failalloc fa;
	int sym;

	cr_assert_not_null(B);
	B->w = 12;
	B->h = 11;
	B->n = (size_t)B->w * B->h;
	B->nsets = 1;
	B->start[0] = 0;
	B->start[1] = 4;
	B->moves[0] = (qubo_puzzle_chess_move){ -1, 1, 1 };
	B->moves[1] = (qubo_puzzle_chess_move){ -2, 2, 1 };
	B->moves[2] = (qubo_puzzle_chess_move){ -2, -1, 1 };
	B->moves[3] = (qubo_puzzle_chess_move){ 3, 0, 0 };
	B->sets.n = 1;
	B->sets.start = B->start;
	B->sets.moves = B->moves;
	for (i = 0; i < B->n; i++) {
		B->code[i] = i % 3 == 0 ? QUBO_PUZZLE_CHESS_QUEEN :
			     i % 3 == 1 ? QUBO_PUZZLE_CHESS_CUSTOM :
					  QUBO_PUZZLE_CHESS_KNIGHT;
		B->target[i] = 1;
	}
	ref = ref_arith(B);
	tr[0] = ref_transpose(&ref, 0);
	tr[1] = ref_transpose(&ref, 1);
	for (sym = -1; sym <= 1; sym++) {
		/* sym −1: the reach lists; 0 and 1: the transposes */
		tu_failalloc_init(&fa, 0);
		total = 0;
		for (k = 0; k == 0 || k <= total; k++) {
			size_t *s = NULL;
			uint32_t *l = NULL;
			int rc;

			tu_failalloc_init(&fa, k);
			if (sym < 0)
				rc = qubo__pz_cz_reach_lists(&fa.a, B->w, B->h, B->code, &B->sets,
							     B->target, NULL, &s, &l, "test");
			else
				rc = qubo__pz_cz_transpose(&fa.a, B->n, ref.start, ref.list, sym,
							   NULL, &s, &l, "test");
			if (k == 0) {
				total = fa.count;
				cr_assert_gt(total, sym < 0 ? 4 : 2);
			}
			if (rc == QUBO_OK) {
				expect_same(B->n, s, l, sym < 0 ? &ref : &tr[sym],
					    "after a failure", k);
				qubo__free(&fa.a, s);
				qubo__free(&fa.a, l);
			} else {
				cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %d", k, rc);
				cr_assert(fa.failed);
				cr_assert_null(s);
				cr_assert_null(l);
				nomem++;
			}
			cr_assert_eq(fa.live, 0, "allocation %zu leaks %zu blocks", k, fa.live);
		}
	}
	cr_assert_gt(nomem, 6);
	/* the size check's one allocation, its stamps */
	for (k = 0; k <= 1; k++) {
		uint32_t in[MAXN] = { 0 };

		tu_failalloc_init(&fa, k);
		cr_assert_eq(qubo__pz_cz_reach_check(&fa.a, B->w, B->h, B->code, &B->sets,
						     B->target, ref.start[B->n], in, NULL, "test"),
			     k ? QUBO_ERR_NOMEM : QUBO_OK);
		cr_assert_eq(fa.count, 1);
		cr_assert_eq(fa.live, 0);
	}
	csr_free(&ref);
	csr_free(&tr[0]);
	csr_free(&tr[1]);
	free(B);
}
