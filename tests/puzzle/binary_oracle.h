/* Helpers of the binary-grid suites (tests/puzzle/binary*.c): an instance
 * owned by the test and a rule checker written from the rules of
 * qubo/puzzle/binary.h (never from the library), the brute-force referee of
 * doc/formulations.md:
 *
 *  - bo_inst: a small Takuzu / Tango / generalised instance; bo_spec() fills
 *    a qubo_puzzle_binary_spec from it, bo_text() writes it as a `takuzu`
 *    or `tango` file when it has that shape;
 *  - bo_valid(): the oracle's verdict on a full board;
 *  - bo_solutions(): every valid board, by backtracking over the cells in
 *    row-major order, pruned only by rules whose cells are all set (and
 *    count bounds), every leaf confirmed by bo_valid();
 *  - bo_proj: the minimisers of a puzzle's model projected to the board.
 *    The variables that no cell literal names (the witnesses of distinct
 *    lines) fall into connected components; for each component and each
 *    setting of the board variables it touches, the minimum over its own
 *    variables is tabulated, and the board variables are enumerated by
 *    Gray code. This is exact for any QUBO, whatever the auxiliary
 *    variables mean.
 * Header-only (static inline) so that each suite stays one file.
 */
#ifndef QUBO_TEST_BINARY_ORACLE_H
#define QUBO_TEST_BINARY_ORACLE_H

#include <math.h>

#include <qubo/puzzle/binary.h>

#include "puzzle/helpers.h"

#define BO_MAX_CELLS 64
#define BO_MAX_SIDE 16
#define BO_MAX_SIGNS 96
#define BO_MAX_REGIONS 16
#define BO_MAX_GROUPS 16
#define BO_MAX_PAIRS 16
#define BO_MAX_WINDOWS (4 * BO_MAX_CELLS)

static inline int bo_valgrind(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");
	return v && *v == '1';
}

typedef struct bo_inst {
	uint32_t w, h;
	int8_t clue[BO_MAX_CELLS]; /* -1 free, 0, 1 */
	int has_rows, has_cols;	   /* 0: balanced (NULL counts) */
	int32_t rows[BO_MAX_SIDE], cols[BO_MAX_SIDE];
	int32_t windows, wrap, distinct;
	size_t nsigns;
	qubo_puzzle_binary_sign signs[BO_MAX_SIGNS];
	int has_regions, has_region_ones;
	int32_t region[BO_MAX_CELLS];
	size_t nreg;
	int32_t region_ones[BO_MAX_REGIONS];
	int has_groups;
	int32_t group[BO_MAX_CELLS];
	size_t ngroups, npairs;
	uint32_t pairs[2 * BO_MAX_PAIRS];
	/* derived by bo_prepare(): the windows as sorted cell triples */
	size_t nwin;
	uint32_t win[BO_MAX_WINDOWS][3];
} bo_inst;

/* n, with the bound the arrays have made visible to the compiler (its
 * array-bounds warnings at -O2 under the sanitizers). */
static inline size_t bo_n(size_t n)
{
	return n < BO_MAX_CELLS ? n : BO_MAX_CELLS;
}

static inline size_t bo_cells(const bo_inst *I)
{
	return bo_n((size_t)I->w * I->h);
}

/* A plain balanced Takuzu without distinct lines: rows and columns windows. */
static inline void bo_init(bo_inst *I, uint32_t w, uint32_t h)
{
	memset(I, 0, sizeof *I);
	cr_assert(w >= 1 && h >= 1 && w <= BO_MAX_SIDE && h <= BO_MAX_SIDE &&
		  (size_t)w * h <= BO_MAX_CELLS);
	I->w = w;
	I->h = h;
	memset(I->clue, -1, sizeof I->clue);
	I->windows = QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS;
	for (size_t c = 0; c < BO_MAX_CELLS; c++)
		I->region[c] = I->group[c] = -1;
}

static inline long bo_mod(long a, long m)
{
	return ((a % m) + m) % m;
}

/* The windows, from the rules: every run of three cells along a direction
 * that `windows` names, continued across the edges `wrap` joins (a
 * cylinder joins the left and right edges, a torus also the top and
 * bottom), made of three different cells; each triple once. */
static inline void bo_prepare(bo_inst *I)
{
	static const int dirs[4][3] = {
		{ 0, 1, QUBO_PUZZLE_WINDOWS_ROWS },
		{ 1, 0, QUBO_PUZZLE_WINDOWS_COLUMNS },
		{ 1, 1, QUBO_PUZZLE_WINDOWS_DIAGONALS },
		{ 1, -1, QUBO_PUZZLE_WINDOWS_DIAGONALS },
	};
	int d;
	long r, c;

	I->nwin = 0;
	for (d = 0; d < 4; d++) {
		if (!(I->windows & dirs[d][2]))
			continue;
		for (r = 0; r < (long)I->h; r++)
			for (c = 0; c < (long)I->w; c++) {
				uint32_t t[3], x;
				int k, ok = 1;
				size_t i;

				for (k = 0; k < 3 && ok; k++) {
					long rr = r + k * dirs[d][0], cc = c + k * dirs[d][1];

					if (I->wrap >= QUBO_PUZZLE_WRAP_CYLINDER)
						cc = bo_mod(cc, (long)I->w);
					if (I->wrap == QUBO_PUZZLE_WRAP_TORUS)
						rr = bo_mod(rr, (long)I->h);
					ok = rr >= 0 && cc >= 0 && rr < (long)I->h && cc < (long)I->w;
					t[k] = (uint32_t)(rr * (long)I->w + cc);
				}
				if (!ok || t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
					continue;
				if (t[0] > t[1])
					x = t[0], t[0] = t[1], t[1] = x;
				if (t[1] > t[2])
					x = t[1], t[1] = t[2], t[2] = x;
				if (t[0] > t[1])
					x = t[0], t[0] = t[1], t[1] = x;
				for (i = 0; i < I->nwin; i++)
					if (!memcmp(I->win[i], t, sizeof t))
						break;
				if (i < I->nwin)
					continue;
				cr_assert(I->nwin < BO_MAX_WINDOWS);
				memcpy(I->win[I->nwin++], t, sizeof t);
			}
	}
}

static inline void bo_add_sign(bo_inst *I, uint32_t a, uint32_t b, int differ)
{
	cr_assert(I->nsigns < BO_MAX_SIGNS);
	I->signs[I->nsigns].a = a;
	I->signs[I->nsigns].b = b;
	I->signs[I->nsigns++].differ = differ;
}

/* A spec pointing into I. */
static inline void bo_spec(const bo_inst *I, qubo_puzzle_binary_spec *s)
{
	qubo_puzzle_binary_spec z = QUBO_PUZZLE_BINARY_SPEC_INIT;
	size_t c;
	int any = 0;

	*s = z;
	s->width = I->w;
	s->height = I->h;
	for (c = 0; c < bo_cells(I); c++)
		any |= I->clue[c] >= 0;
	s->clues = any ? I->clue : NULL;
	s->row_ones = I->has_rows ? I->rows : NULL;
	s->col_ones = I->has_cols ? I->cols : NULL;
	s->windows = I->windows;
	s->wrap = I->wrap;
	s->distinct = I->distinct;
	s->signs = I->nsigns ? I->signs : NULL;
	s->num_signs = I->nsigns;
	s->regions = I->has_regions ? I->region : NULL;
	s->region_ones = I->has_regions && I->has_region_ones ? I->region_ones : NULL;
	s->num_regions = I->has_regions ? I->nreg : 0;
	s->equal_groups = I->has_groups ? I->group : NULL;
	s->num_equal_groups = I->has_groups ? I->ngroups : 0;
	s->differ_pairs = I->npairs ? I->pairs : NULL;
	s->num_differ_pairs = I->npairs;
}

static inline int32_t bo_row_need(const bo_inst *I, uint32_t r)
{
	return I->has_rows ? I->rows[r] : (int32_t)(I->w / 2);
}

static inline int32_t bo_col_need(const bo_inst *I, uint32_t c)
{
	return I->has_cols ? I->cols[c] : (int32_t)(I->h / 2);
}

/* The oracle: does the full board x keep every rule of binary.h? */
static inline int bo_valid(const bo_inst *I, const uint8_t *x)
{
	size_t n = bo_cells(I), a, i, k;
	uint32_t r, c, r2, c2;

	for (a = 0; a < n; a++)
		if (x[a] > 1 || (I->clue[a] >= 0 && x[a] != (uint8_t)I->clue[a]))
			return 0;
	for (r = 0; r < I->h; r++) {
		int32_t ones = 0;
		for (c = 0; c < I->w; c++)
			ones += x[r * I->w + c];
		if (bo_row_need(I, r) >= 0 && ones != bo_row_need(I, r))
			return 0;
	}
	for (c = 0; c < I->w; c++) {
		int32_t ones = 0;
		for (r = 0; r < I->h; r++)
			ones += x[r * I->w + c];
		if (bo_col_need(I, c) >= 0 && ones != bo_col_need(I, c))
			return 0;
	}
	for (k = 0; k < I->nwin; k++)
		if (x[I->win[k][0]] == x[I->win[k][1]] && x[I->win[k][1]] == x[I->win[k][2]])
			return 0;
	for (i = 0; i < I->nsigns; i++)
		if ((x[I->signs[i].a] != x[I->signs[i].b]) != (I->signs[i].differ != 0))
			return 0;
	if (I->has_regions && I->has_region_ones)
		for (k = 0; k < I->nreg; k++) {
			int32_t ones = 0;
			for (a = 0; a < n; a++)
				ones += I->region[a] == (int32_t)k && x[a];
			if (I->region_ones[k] >= 0 && ones != I->region_ones[k])
				return 0;
		}
	if (I->has_groups) {
		int val[BO_MAX_GROUPS];
		for (k = 0; k < I->ngroups; k++)
			val[k] = -1;
		for (a = 0; a < n; a++) {
			int32_t g = I->group[a];
			if (g < 0)
				continue;
			if (val[g] >= 0 && val[g] != x[a])
				return 0;
			val[g] = x[a];
		}
		for (k = 0; k < I->npairs; k++)
			if (val[I->pairs[2 * k]] == val[I->pairs[2 * k + 1]])
				return 0;
	}
	if (I->distinct) {
		for (r = 0; r < I->h; r++)
			for (r2 = r + 1; r2 < I->h; r2++)
				if (!memcmp(x + r * I->w, x + r2 * I->w, I->w))
					return 0;
		for (c = 0; c < I->w; c++)
			for (c2 = c + 1; c2 < I->w; c2++) {
				for (r = 0; r < I->h; r++)
					if (x[r * I->w + c] != x[r * I->w + c2])
						break;
				if (r == I->h)
					return 0;
			}
	}
	return 1;
}

/* ---- every valid board, by backtracking ---- */

/* A check that becomes decidable when its last cell is set. */
enum { BO_EQ, BO_NE, BO_WIN, BO_ROW, BO_COL };

typedef struct bo_chk {
	int kind;
	uint32_t a, b, c;
} bo_chk;

#define BO_MAX_CHECKS (BO_MAX_SIGNS + BO_MAX_CELLS + BO_MAX_PAIRS + BO_MAX_WINDOWS + 2 * BO_MAX_SIDE)

typedef struct bo_bt {
	const bo_inst *I;
	size_t n;
	/* per cell: the checks whose largest cell it is */
	size_t cstart[BO_MAX_CELLS + 1];
	bo_chk chk[BO_MAX_CHECKS];
	size_t nchk;
	/* count lines: rows, columns, regions; each cell's lines */
	int nline;
	int32_t need[2 * BO_MAX_SIDE + BO_MAX_REGIONS], len[2 * BO_MAX_SIDE + BO_MAX_REGIONS];
	int32_t ones[2 * BO_MAX_SIDE + BO_MAX_REGIONS], seen[2 * BO_MAX_SIDE + BO_MAX_REGIONS];
	int cl[BO_MAX_CELLS][3], ncl[BO_MAX_CELLS];
	uint8_t x[BO_MAX_CELLS];
	ph_set *out;
	size_t limit; /* stop after this many solutions (0: none) */
	uint64_t nodes, max_nodes;
	int aborted;
	tu_rng *pick; /* reservoir sampling of one solution, when set */
	uint8_t *picked;
	uint64_t found;
	int first_only; /* values in random order (pick), stop at the first solution */
} bo_bt;

static inline int bo_bt_ok(const bo_bt *B, size_t i)
{
	const bo_inst *I = B->I;
	size_t k;
	uint32_t r, r2, c, c2;

	for (k = B->cstart[i]; k < B->cstart[i + 1]; k++) {
		const uint8_t *x = B->x;
		uint32_t a = B->chk[k].a, b = B->chk[k].b, cc = B->chk[k].c;

		switch (B->chk[k].kind) {
		case BO_EQ:
			if (x[a] != x[b])
				return 0;
			break;
		case BO_NE:
			if (x[a] == x[b])
				return 0;
			break;
		case BO_WIN:
			if (x[a] == x[b] && x[b] == x[cc])
				return 0;
			break;
		case BO_ROW: /* row a complete: distinct from the rows above */
			for (r2 = 0; r2 < a; r2++)
				if (!memcmp(x + a * I->w, x + r2 * I->w, I->w))
					return 0;
			break;
		case BO_COL: /* column a complete (last row) */
			c = a;
			for (c2 = 0; c2 < c; c2++) {
				for (r = 0; r < I->h; r++)
					if (x[r * I->w + c] != x[r * I->w + c2])
						break;
				if (r == I->h)
					return 0;
			}
			break;
		}
	}
	return 1;
}

static inline void bo_bt_rec(bo_bt *B, size_t i)
{
	int v, j;

	if (B->aborted)
		return;
	if (++B->nodes > B->max_nodes) {
		B->aborted = 1;
		return;
	}
	if (i == B->n) {
		cr_assert(bo_valid(B->I, B->x), "backtracking reached an invalid board");
		B->found++;
		if (B->first_only) {
			memcpy(B->picked, B->x, B->n);
			B->aborted = 1;
			return;
		}
		if (B->pick && tu_below(B->pick, B->found) == 0)
			memcpy(B->picked, B->x, B->n);
		if (B->out)
			ph_set_add(B->out, ph_key(B->x, bo_n(B->n)));
		if (B->limit && B->found > B->limit)
			B->aborted = 1;
		return;
	}
	for (int vi = 0, v0 = B->first_only ? (int)tu_below(B->pick, 2) : 0; vi <= 1; vi++) {
		int ok = 1;

		v = vi ^ v0;
		if (B->I->clue[i] >= 0 && B->I->clue[i] != v)
			continue;
		B->x[i] = (uint8_t)v;
		for (j = 0; j < B->ncl[i]; j++) {
			int l = B->cl[i][j];
			B->ones[l] += v;
			B->seen[l]++;
			if (B->need[l] >= 0 &&
			    (B->ones[l] > B->need[l] || B->ones[l] + B->len[l] - B->seen[l] < B->need[l]))
				ok = 0;
		}
		if (ok && bo_bt_ok(B, i))
			bo_bt_rec(B, i + 1);
		for (j = 0; j < B->ncl[i]; j++) {
			B->ones[B->cl[i][j]] -= v;
			B->seen[B->cl[i][j]]--;
		}
		B->x[i] = 0;
	}
}

static inline void bo_bt_add(bo_bt *B, uint32_t *at, int kind, uint32_t a, uint32_t b, uint32_t c,
			     uint32_t last)
{
	cr_assert(B->nchk < BO_MAX_CHECKS);
	at[B->nchk] = last;
	B->chk[B->nchk].kind = kind;
	B->chk[B->nchk].a = a;
	B->chk[B->nchk].b = b;
	B->chk[B->nchk].c = c;
	B->nchk++;
}

static inline uint32_t bo_max3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a > b ? a : b;
	return m > c ? m : c;
}

/*
 * Every valid board of I into out (sorted keys; out may be NULL), or, with
 * pick set, one of them drawn uniformly into picked. Returns the number of
 * solutions, or -1 when there are more than limit (or the search took more
 * than max_nodes nodes).
 */
static inline long bo_search_ex(const bo_inst *I, ph_set *out, size_t limit, tu_rng *pick,
				uint8_t *picked, int first_only)
{
	static bo_bt B;
	static uint32_t last[BO_MAX_CHECKS];
	static bo_chk tmp[BO_MAX_CHECKS];
	size_t n = bo_cells(I), k, a;
	uint32_t r, c, first[BO_MAX_GROUPS];
	int l;

	memset(&B, 0, sizeof B);
	B.I = I;
	B.n = n;
	B.out = out;
	B.limit = limit;
	B.max_nodes = 40000000;
	B.pick = pick;
	B.picked = picked;
	B.first_only = first_only;
	for (k = 0; k < I->nsigns; k++) {
		uint32_t x = I->signs[k].a, y = I->signs[k].b;
		bo_bt_add(&B, last, I->signs[k].differ ? BO_NE : BO_EQ, x, y, 0,
			  x > y ? x : y);
	}
	for (k = 0; k < I->nwin; k++)
		bo_bt_add(&B, last, BO_WIN, I->win[k][0], I->win[k][1], I->win[k][2],
			  bo_max3(I->win[k][0], I->win[k][1], I->win[k][2]));
	if (I->has_groups) {
		for (k = 0; k < I->ngroups; k++)
			first[k] = UINT32_MAX;
		for (a = 0; a < n; a++) {
			int32_t g = I->group[a];
			if (g < 0)
				continue;
			if (first[g] == UINT32_MAX)
				first[g] = (uint32_t)a;
			else
				bo_bt_add(&B, last, BO_EQ, first[g], (uint32_t)a, 0, (uint32_t)a);
		}
		for (k = 0; k < I->npairs; k++) {
			uint32_t x = first[I->pairs[2 * k]], y = first[I->pairs[2 * k + 1]];
			cr_assert(x != UINT32_MAX && y != UINT32_MAX, "a group without cells");
			bo_bt_add(&B, last, BO_NE, x, y, 0, x > y ? x : y);
		}
	}
	if (I->distinct) {
		for (r = 0; r < I->h; r++)
			bo_bt_add(&B, last, BO_ROW, r, 0, 0, r * I->w + I->w - 1);
		for (c = 0; c < I->w; c++)
			bo_bt_add(&B, last, BO_COL, c, 0, 0, (I->h - 1) * I->w + c);
	}
	/* bucket the checks by their last cell */
	for (k = 0; k < B.nchk; k++)
		B.cstart[last[k] + 1]++;
	for (a = 0; a < n; a++)
		B.cstart[a + 1] += B.cstart[a];
	{
		size_t pos[BO_MAX_CELLS + 1];
		memcpy(pos, B.cstart, sizeof pos);
		for (k = 0; k < B.nchk; k++)
			tmp[pos[last[k]]++] = B.chk[k];
		memcpy(B.chk, tmp, B.nchk * sizeof tmp[0]);
	}
	/* count lines */
	for (r = 0; r < I->h; r++) {
		l = B.nline++;
		B.need[l] = bo_row_need(I, r);
		B.len[l] = (int32_t)I->w;
		for (c = 0; c < I->w; c++)
			B.cl[r * I->w + c][B.ncl[r * I->w + c]++] = l;
	}
	for (c = 0; c < I->w; c++) {
		l = B.nline++;
		B.need[l] = bo_col_need(I, c);
		B.len[l] = (int32_t)I->h;
		for (r = 0; r < I->h; r++)
			B.cl[r * I->w + c][B.ncl[r * I->w + c]++] = l;
	}
	if (I->has_regions && I->has_region_ones)
		for (k = 0; k < I->nreg; k++) {
			l = B.nline++;
			B.need[l] = I->region_ones[k];
			for (a = 0; a < n; a++)
				if (I->region[a] == (int32_t)k) {
					B.len[l]++;
					B.cl[a][B.ncl[a]++] = l;
				}
		}
	for (l = 0; l < B.nline; l++)
		if (B.need[l] > B.len[l])
			return 0;
	bo_bt_rec(&B, 0);
	if (out)
		ph_set_sort(out);
	if (first_only)
		return (long)B.found;
	if (B.aborted)
		return -1;
	return (long)B.found;
}

static inline long bo_search(const bo_inst *I, ph_set *out, size_t limit, tu_rng *pick,
			     uint8_t *picked)
{
	return bo_search_ex(I, out, limit, pick, picked, 0);
}

/* One solution of I by a search in random value order: 1, or 0 when there
 * is none (or the search gave up). */
static inline int bo_random_solution(const bo_inst *I, tu_rng *r, uint8_t *x)
{
	return bo_search_ex(I, NULL, 0, r, x, 1) > 0;
}

static inline long bo_solutions(const bo_inst *I, ph_set *out, size_t limit)
{
	return bo_search(I, out, limit, NULL, NULL);
}

static inline void bo_board(uint64_t key, size_t n, uint8_t *x)
{
	size_t c;

	for (c = 0; c < n; c++)
		x[c] = (uint8_t)((key >> c) & 1);
}

static inline int bo_set_has(const ph_set *s, uint64_t key)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->keys[mid] == key)
			return 1;
		if (s->keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* ---- the model's minimisers projected to the board ---- */

#define BO_COMP_MAX 16 /* variables of a component, and board variables it touches */

typedef struct bo_comp {
	uint32_t nk, nm;
	uint32_t aux[BO_COMP_MAX]; /* model variables */
	uint32_t nbr[BO_COMP_MAX]; /* board variable indices (into bo_proj.bvar) */
	double h[BO_COMP_MAX];
	double J[BO_COMP_MAX][BO_COMP_MAX];  /* between aux i < j */
	double Jb[BO_COMP_MAX][BO_COMP_MAX]; /* aux i with board neighbour m */
	double *table;			     /* 2^nm minima */
} bo_comp;

typedef struct bo_proj {
	const qubo_puzzle *p;
	const qubo_model *m;
	size_t n, nv, nb, ncomp;
	qubo_lit lits[BO_MAX_CELLS];
	uint32_t bvar[BO_MAX_CELLS]; /* board variables (model indices) */
	int32_t *bidx;		     /* per model variable: its board index, or -1 */
	double offset;
	double hb[BO_MAX_CELLS];
	/* couplers between board variables */
	size_t bdeg[BO_MAX_CELLS];
	uint32_t bnb[BO_MAX_CELLS][BO_MAX_CELLS];
	double bw[BO_MAX_CELLS][BO_MAX_CELLS];
	/* per board variable: the (component, bit) pairs it feeds */
	size_t ncb[BO_MAX_CELLS];
	uint32_t cbc[BO_MAX_CELLS][64], cbb[BO_MAX_CELLS][64];
	bo_comp *comp;
} bo_proj;

static inline size_t bo_uf_find(size_t *par, size_t a)
{
	while (par[a] != a)
		a = par[a] = par[par[a]];
	return a;
}

/* A component's fields at board setting xb. */
static inline void bo_comp_fields(const bo_comp *C, const uint8_t *xb, double *f)
{
	uint32_t ia, im;

	for (ia = 0; ia < C->nk; ia++) {
		f[ia] = C->h[ia];
		for (im = 0; im < C->nm && im < BO_COMP_MAX; im++)
			if (xb[C->nbr[im]])
				f[ia] += C->Jb[ia][im];
	}
}

/* Minimum over the 2^nk settings of a component at fields f, by Gray code;
 * y (optional) receives a minimiser. */
static inline double bo_comp_min(const bo_comp *C, const double *f, uint8_t *y_out)
{
	double field[BO_COMP_MAX], e = 0, best = 0;
	uint8_t y[BO_COMP_MAX] = { 0 };
	uint64_t s, top = (uint64_t)1 << C->nk;
	uint32_t i, k = C->nk;

	for (i = 0; i < k; i++)
		field[i] = f[i];
	if (y_out)
		memset(y_out, 0, k);
	for (s = 1; s < top; s++) {
		uint32_t j = (uint32_t)__builtin_ctzll(s);
		double sg;

		e += y[j] ? -field[j] : field[j];
		y[j] ^= 1;
		sg = y[j] ? 1.0 : -1.0;
		for (i = 0; i < k; i++)
			if (i != j)
				field[i] += sg * (i < j ? C->J[i][j] : C->J[j][i]);
		if (e < best) {
			best = e;
			if (y_out)
				memcpy(y_out, y, k);
		}
	}
	return best;
}

static inline void bo_proj_init(bo_proj *P, const qubo_puzzle *p, size_t n)
{
	size_t ncp = 0, i, v, c;
	uint32_t *rows, *cols;
	double *w, *h;
	size_t *par;
	int32_t *cid;
	int rc;

	memset(P, 0, sizeof *P);
	P->p = p;
	P->n = n;
	cr_assert(n <= BO_MAX_CELLS);
	cr_assert_eq(qubo_puzzle_model(p, &P->m), QUBO_OK);
	cr_assert_eq(qubo_puzzle_cell_literals(p, P->lits, n), QUBO_OK);
	P->nv = qubo_model_num_variables(P->m);
	P->offset = qubo_model_offset(P->m);
	rc = qubo_model_export_coo(P->m, NULL, NULL, NULL, 0, &ncp);
	cr_assert(rc == QUBO_OK || rc == QUBO_ERR_BUFFER_TOO_SMALL);
	h = calloc(P->nv + 1, sizeof *h);
	rows = calloc(ncp + 1, sizeof *rows);
	cols = calloc(ncp + 1, sizeof *cols);
	w = calloc(ncp + 1, sizeof *w);
	par = calloc(P->nv + 1, sizeof *par);
	cid = calloc(P->nv + 1, sizeof *cid);
	P->bidx = calloc(P->nv + 1, sizeof *P->bidx);
	cr_assert(h && rows && cols && w && par && cid && P->bidx);
	cr_assert_eq(qubo_model_export_linear(P->m, h, P->nv + 1), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(P->m, rows, cols, w, ncp + 1, &ncp), QUBO_OK);
	for (v = 0; v < P->nv; v++) {
		P->bidx[v] = -1;
		par[v] = v;
		cid[v] = -1;
	}
	for (i = 0; i < n; i++) {
		qubo_lit l = P->lits[i];
		if (QUBO_LIT_IS_CONST(l))
			continue;
		v = QUBO_LIT_VAR(l);
		cr_assert(v < P->nv, "cell %zu names variable %zu of %zu", i, v, P->nv);
		if (P->bidx[v] < 0) {
			P->bidx[v] = (int32_t)P->nb;
			P->bvar[P->nb++] = (uint32_t)v;
		}
	}
	for (v = 0; v < P->nv; v++)
		if (P->bidx[v] >= 0)
			P->hb[P->bidx[v]] = h[v];
	/* components of the auxiliary variables */
	for (i = 0; i < ncp; i++)
		if (P->bidx[rows[i]] < 0 && P->bidx[cols[i]] < 0)
			par[bo_uf_find(par, rows[i])] = bo_uf_find(par, cols[i]);
	for (v = 0; v < P->nv; v++)
		if (P->bidx[v] < 0) {
			size_t root = bo_uf_find(par, v);
			if (cid[root] < 0)
				cid[root] = (int32_t)P->ncomp++;
			cid[v] = cid[root];
		}
	P->comp = calloc(P->ncomp + 1, sizeof *P->comp);
	cr_assert(P->comp);
	for (v = 0; v < P->nv; v++)
		if (P->bidx[v] < 0) {
			bo_comp *C = &P->comp[cid[v]];
			cr_assert(C->nk < BO_COMP_MAX,
				  "a component of more than %d auxiliary variables: instance too "
				  "large",
				  BO_COMP_MAX);
			C->h[C->nk] = h[v];
			C->aux[C->nk++] = (uint32_t)v;
		}
	for (i = 0; i < ncp; i++) {
		uint32_t a = rows[i], b = cols[i];
		int ab = P->bidx[a] >= 0, bb = P->bidx[b] >= 0;

		if (ab && bb) {
			uint32_t x = (uint32_t)P->bidx[a], y = (uint32_t)P->bidx[b];
			P->bnb[x][P->bdeg[x]] = y;
			P->bw[x][P->bdeg[x]++] = w[i];
			P->bnb[y][P->bdeg[y]] = x;
			P->bw[y][P->bdeg[y]++] = w[i];
		} else if (!ab && !bb) {
			bo_comp *C = &P->comp[cid[a]];
			uint32_t ia = 0, ib = 0;
			while (C->aux[ia] != a)
				ia++;
			while (C->aux[ib] != b)
				ib++;
			if (ia < ib)
				C->J[ia][ib] += w[i];
			else
				C->J[ib][ia] += w[i];
		} else {
			uint32_t aux = ab ? b : a, bv = (uint32_t)P->bidx[ab ? a : b], ia = 0, im = 0;
			bo_comp *C = &P->comp[cid[aux]];
			while (C->aux[ia] != aux)
				ia++;
			while (im < C->nm && C->nbr[im] != bv)
				im++;
			if (im == C->nm) {
				cr_assert(C->nm < BO_COMP_MAX,
					  "a component touches more than %d board variables",
					  BO_COMP_MAX);
				C->nbr[C->nm++] = bv;
				cr_assert(P->ncb[bv] < 64);
				P->cbc[bv][P->ncb[bv]] = (uint32_t)cid[aux];
				P->cbb[bv][P->ncb[bv]++] = im;
			}
			C->Jb[ia][im] += w[i];
		}
	}
	for (c = 0; c < P->ncomp; c++) {
		bo_comp *C = &P->comp[c];
		uint64_t ctx, top = (uint64_t)1 << C->nm;

		cr_assert(C->nk + C->nm <= 22, "a component of %u + %u variables: too large", C->nk,
			  C->nm);
		C->table = malloc(top * sizeof *C->table);
		cr_assert(C->table);
		for (ctx = 0; ctx < top; ctx++) {
			uint8_t xb[BO_MAX_CELLS] = { 0 };
			double f[BO_COMP_MAX];
			uint32_t im;

			for (im = 0; im < C->nm && im < BO_COMP_MAX; im++)
				xb[C->nbr[im]] = (uint8_t)((ctx >> im) & 1);
			bo_comp_fields(C, xb, f);
			C->table[ctx] = bo_comp_min(C, f, NULL);
		}
	}
	free(h);
	free(rows);
	free(cols);
	free(w);
	free(par);
	free(cid);
}

static inline void bo_proj_free(bo_proj *P)
{
	size_t c;

	for (c = 0; c < P->ncomp; c++)
		free(P->comp[c].table);
	free(P->comp);
	free(P->bidx);
	P->comp = NULL;
	P->bidx = NULL;
}

/* The board of a setting xb of the board variables. */
static inline void bo_proj_board(const bo_proj *P, const uint8_t *xb, uint8_t *board)
{
	size_t c;

	for (c = 0; c < P->n; c++) {
		qubo_lit l = P->lits[c];
		board[c] = QUBO_LIT_IS_CONST(l) ? (uint8_t)(l == QUBO_LIT_TRUE)
						: (uint8_t)(xb[P->bidx[QUBO_LIT_VAR(l)]] ^
							    QUBO_LIT_IS_NEG(l));
	}
}

/* min over the auxiliary variables of the energy at board-variable setting
 * xb, computed from scratch. */
static inline double bo_proj_energy(const bo_proj *P, const uint8_t *xb)
{
	double e = P->offset;
	size_t i, j, c;

	for (i = 0; i < P->nb; i++) {
		if (!xb[i])
			continue;
		e += P->hb[i];
		for (j = 0; j < P->bdeg[i]; j++)
			if (P->bnb[i][j] > i && xb[P->bnb[i][j]])
				e += P->bw[i][j];
	}
	for (c = 0; c < P->ncomp; c++) {
		const bo_comp *C = &P->comp[c];
		uint64_t ctx = 0;
		uint32_t im;
		for (im = 0; im < C->nm && im < BO_COMP_MAX; im++)
			ctx |= (uint64_t)xb[C->nbr[im]] << im;
		e += C->table[ctx];
	}
	return e;
}

/* A full model sample for xb with the best auxiliary variables; checks
 * that the library's energy of it is bo_proj_energy(). */
static inline void bo_proj_sample(const bo_proj *P, const uint8_t *xb, uint8_t *sample)
{
	size_t i, c;
	double e;

	memset(sample, 0, P->nv);
	for (i = 0; i < P->nb; i++)
		sample[P->bvar[i]] = xb[i];
	for (c = 0; c < P->ncomp; c++) {
		const bo_comp *C = &P->comp[c];
		double f[BO_COMP_MAX];
		uint8_t y[BO_COMP_MAX];
		uint32_t ia;

		bo_comp_fields(C, xb, f);
		bo_comp_min(C, f, y);
		for (ia = 0; ia < C->nk; ia++)
			sample[C->aux[ia]] = y[ia];
	}
	cr_assert_eq(qubo_model_energy(P->m, sample, P->nv, &e), QUBO_OK);
	cr_assert_eq(e, bo_proj_energy(P, xb),
		     "the projection's energy %g differs from the model's %g", bo_proj_energy(P, xb),
		     e);
}

/* The best energy of a board over the auxiliary variables: +inf when the
 * board contradicts a constant cell or two cells of one variable. */
static inline double bo_board_energy(const bo_proj *P, const uint8_t *board)
{
	uint8_t xb[BO_MAX_CELLS] = { 0 };
	int8_t set[BO_MAX_CELLS];
	size_t c;

	memset(set, -1, sizeof set);
	for (c = 0; c < P->n; c++) {
		qubo_lit l = P->lits[c];
		int v, bi;
		if (QUBO_LIT_IS_CONST(l)) {
			if (board[c] != (l == QUBO_LIT_TRUE))
				return HUGE_VAL;
			continue;
		}
		v = board[c] ^ (int)QUBO_LIT_IS_NEG(l);
		bi = P->bidx[QUBO_LIT_VAR(l)];
		if (set[bi] >= 0 && set[bi] != v)
			return HUGE_VAL;
		set[bi] = (int8_t)v;
		xb[bi] = (uint8_t)v;
	}
	return bo_proj_energy(P, xb);
}

/* Every setting of the board variables by Gray code: the minimum of the
 * projected energy and the boards that reach it. The first minimisers are
 * checked against the model's own energy (with their best auxiliary
 * variables) and the library's decode. */
static inline double bo_proj_minimisers_ex(const bo_proj *P, ph_set *out, double *second_out)
{
	uint8_t xb[BO_MAX_CELLS] = { 0 }, board[BO_MAX_CELLS], back[BO_MAX_CELLS];
	double field[BO_MAX_CELLS], e = P->offset, best = HUGE_VAL, second = HUGE_VAL, f;
	uint64_t ctx[256] = { 0 }, s, top;
	size_t i, c, shown = 0;
	uint8_t *sample = calloc(P->nv + 1, 1);

	cr_assert(sample);
	cr_assert(P->nb <= 24, "%zu board variables: too many to enumerate", P->nb);
	cr_assert(P->ncomp <= 256);
	top = (uint64_t)1 << P->nb;
	for (i = 0; i < P->nb; i++)
		field[i] = P->hb[i];
	out->n = 0;
	for (s = 0;;) {
		f = e;
		for (c = 0; c < P->ncomp; c++)
			f += P->comp[c].table[ctx[c]];
		if ((s & 4095) == 0)
			cr_assert_eq(f, bo_proj_energy(P, xb), "running energy drifted");
		if (f < best) {
			second = best;
			best = f;
			out->n = 0;
			out->overflow = 0;
			shown = 0;
		} else if (f > best && f < second) {
			second = f;
		}
		if (f == best) {
			bo_proj_board(P, xb, board);
			ph_set_add(out, ph_key(board, bo_n(P->n)));
			if (shown++ < 3) {
				bo_proj_sample(P, xb, sample);
				cr_assert_eq(qubo_puzzle_decode(P->p, sample, P->nv, back, P->n),
					     QUBO_OK);
				cr_assert_eq(memcmp(back, board, P->n), 0,
					     "qubo_puzzle_decode differs from the cell literals");
			}
		}
		if (++s == top)
			break;
		{
			uint32_t k = (uint32_t)__builtin_ctzll(s);
			double sg;

			e += xb[k] ? -field[k] : field[k];
			xb[k] ^= 1;
			sg = xb[k] ? 1.0 : -1.0;
			for (i = 0; i < P->bdeg[k]; i++)
				field[P->bnb[k][i]] += sg * P->bw[k][i];
			for (i = 0; i < P->ncb[k]; i++)
				ctx[P->cbc[k][i]] ^= (uint64_t)1 << P->cbb[k][i];
		}
	}
	free(sample);
	cr_assert(!out->overflow, "too many minimisers to compare");
	ph_set_sort(out);
	if (second_out)
		*second_out = second;
	return best;
}

static inline double bo_proj_minimisers(const bo_proj *P, ph_set *out)
{
	return bo_proj_minimisers_ex(P, out, NULL);
}

/* ---- random instances ---- */

/* A random board that keeps the windows (and distinct lines when asked),
 * by rejection; 0 when none was found. */
static inline int bo_random_board(const bo_inst *I, tu_rng *r, uint8_t *x)
{
	int t;
	size_t n = bo_cells(I), c, k;
	uint32_t rr, r2;

	for (t = 0; t < 2000; t++) {
		int ok = 1;
		for (c = 0; c < n; c++)
			x[c] = (uint8_t)tu_below(r, 2);
		for (k = 0; k < I->nwin && ok; k++)
			ok = !(x[I->win[k][0]] == x[I->win[k][1]] && x[I->win[k][1]] == x[I->win[k][2]]);
		for (rr = 0; ok && I->distinct && rr < I->h; rr++)
			for (r2 = rr + 1; ok && r2 < I->h; r2++)
				ok = memcmp(x + rr * I->w, x + r2 * I->w, I->w) != 0;
		if (ok)
			return 1;
	}
	return 0;
}

/* A planted board for I: a solution of I as it stands when it has one
 * (balanced counts, windows, distinct; drawn uniformly on small boards),
 * else a random board that keeps its windows. */
static inline void bo_plant(const bo_inst *I, tu_rng *r, uint8_t *x)
{
	if (bo_cells(I) <= 24 && bo_search(I, NULL, 1 << 16, r, x) > 0)
		return;
	if (bo_random_solution(I, r, x))
		return;
	if (!bo_random_board(I, r, x))
		for (size_t c = 0; c < bo_cells(I); c++)
			x[c] = (uint8_t)tu_below(r, 2);
}

/* Explicit counts from x: each line's count, now and then -1 (no count) or
 * a wrong count. */
static inline void bo_counts_from(bo_inst *I, const uint8_t *x, tu_rng *r, int none_in, int wrong_in)
{
	uint32_t a, b;

	I->has_rows = I->has_cols = 1;
	for (a = 0; a < I->h; a++) {
		int32_t ones = 0;
		for (b = 0; b < I->w; b++)
			ones += x[a * I->w + b];
		I->rows[a] = none_in && tu_below(r, (uint64_t)none_in) == 0 ? -1
			     : wrong_in && tu_below(r, (uint64_t)wrong_in) == 0
				     ? (int32_t)tu_range(r, 0, I->w)
				     : ones;
	}
	for (b = 0; b < I->w; b++) {
		int32_t ones = 0;
		for (a = 0; a < I->h; a++)
			ones += x[a * I->w + b];
		I->cols[b] = none_in && tu_below(r, (uint64_t)none_in) == 0 ? -1
			     : wrong_in && tu_below(r, (uint64_t)wrong_in) == 0
				     ? (int32_t)tu_range(r, 0, I->h)
				     : ones;
	}
}

/* Clues from x on about one cell in `every`; one in `wrong_in` instances
 * gets one clue against x. */
static inline void bo_clues_from(bo_inst *I, const uint8_t *x, tu_rng *r, int every, int wrong_in)
{
	size_t n = bo_cells(I), c;

	for (c = 0; c < n; c++)
		I->clue[c] = every && tu_below(r, (uint64_t)every) == 0 ? (int8_t)x[c] : -1;
	if (wrong_in && tu_below(r, (uint64_t)wrong_in) == 0) {
		c = (size_t)tu_below(r, n);
		I->clue[c] = (int8_t)!x[c];
	}
}

/* k signs that x keeps (one in `wrong_in` against it): between
 * orthogonally adjacent cells, or any two cells. */
static inline void bo_signs_from(bo_inst *I, const uint8_t *x, tu_rng *r, size_t k, int adjacent,
				 int wrong_in)
{
	size_t n = bo_cells(I), t;

	for (t = 0; t < k; t++) {
		uint32_t a = (uint32_t)tu_below(r, n), b;
		int differ;

		if (adjacent) {
			int right = (int)tu_below(r, 2);
			if (right && a % I->w + 1 < I->w)
				b = a + 1;
			else if (a / I->w + 1 < I->h)
				b = a + I->w;
			else if (a % I->w + 1 < I->w)
				b = a + 1;
			else
				continue;
		} else {
			do
				b = (uint32_t)tu_below(r, n);
			while (b == a);
		}
		{
			size_t u;
			for (u = 0; u < I->nsigns; u++)
				if ((I->signs[u].a == a && I->signs[u].b == b) ||
				    (I->signs[u].a == b && I->signs[u].b == a))
					break;
			if (u < I->nsigns)
				continue; /* each pair once */
		}
		differ = x[a] != x[b];
		if (wrong_in && tu_below(r, (uint64_t)wrong_in) == 0)
			differ = !differ;
		bo_add_sign(I, a, b, differ);
	}
}

/* Regions: a random map of nreg regions (some cells in none), counts from
 * x (now and then -1 or wrong). */
static inline void bo_regions_from(bo_inst *I, const uint8_t *x, tu_rng *r, size_t nreg, int none_in,
				   int wrong_in)
{
	size_t n = bo_cells(I), c, k;

	cr_assert(nreg <= BO_MAX_REGIONS);
	I->has_regions = 1;
	I->nreg = nreg;
	I->has_region_ones = tu_below(r, 8) != 0;
	for (c = 0; c < n; c++)
		I->region[c] = tu_below(r, 5) == 0 ? -1 : (int32_t)tu_below(r, nreg);
	for (k = 0; k < nreg; k++) {
		int32_t ones = 0, size = 0;
		for (c = 0; c < n; c++)
			if (I->region[c] == (int32_t)k) {
				ones += x[c];
				size++;
			}
		I->region_ones[k] = none_in && tu_below(r, (uint64_t)none_in) == 0 ? -1
				    : wrong_in && tu_below(r, (uint64_t)wrong_in) == 0
					    ? (int32_t)tu_range(r, 0, size)
					    : ones;
	}
}

/* Equality groups of cells equal in x (one in `wrong_in` instances gets a
 * cell of the other value), and differing pairs between groups of
 * different values (or, rarely, of the same value). */
static inline void bo_groups_from(bo_inst *I, const uint8_t *x, tu_rng *r, size_t ngroups,
				  size_t npairs, int wrong_in)
{
	size_t n = bo_cells(I), c, g, t;
	int gval[BO_MAX_GROUPS];

	cr_assert(ngroups <= BO_MAX_GROUPS && npairs <= BO_MAX_PAIRS);
	I->has_groups = 1;
	I->ngroups = ngroups;
	for (c = 0; c < n; c++)
		I->group[c] = -1;
	for (g = 0; g < ngroups; g++) {
		size_t size = (size_t)tu_range(r, 1, 3), placed, nfree = 0, pick;

		/* a free seed cell, then cells of the same value */
		for (c = 0; c < n; c++)
			nfree += I->group[c] < 0;
		if (nfree == 0) {
			I->ngroups = ngroups = g; /* the board is full */
			break;
		}
		pick = (size_t)tu_below(r, nfree);
		for (c = 0; c < n; c++)
			if (I->group[c] < 0 && pick-- == 0)
				break;
		I->group[c] = (int32_t)g;
		gval[g] = x[c];
		for (t = 0, placed = 1; t < 50 && placed < size; t++) {
			size_t d = (size_t)tu_below(r, n);
			if (I->group[d] < 0 && x[d] == gval[g]) {
				I->group[d] = (int32_t)g;
				placed++;
			}
		}
	}
	if (ngroups == 0) {
		I->has_groups = 0;
		return;
	}
	if (wrong_in && tu_below(r, (uint64_t)wrong_in) == 0) {
		g = (size_t)tu_below(r, ngroups);
		for (t = 0; t < 50; t++) {
			c = (size_t)tu_below(r, n);
			if (I->group[c] < 0 && x[c] != gval[g]) {
				I->group[c] = (int32_t)g;
				break;
			}
		}
	}
	I->npairs = 0;
	for (t = 0; t < npairs && ngroups >= 2; t++) {
		uint32_t a = (uint32_t)tu_below(r, ngroups), b;
		do
			b = (uint32_t)tu_below(r, ngroups);
		while (b == a);
		if (gval[a] == gval[b] && tu_below(r, 6) != 0)
			continue;
		I->pairs[2 * I->npairs] = a;
		I->pairs[2 * I->npairs + 1] = b;
		I->npairs++;
	}
}

/* ---- text forms ---- */

/* I as a `takuzu` file (balanced, rows and columns windows, no wrap, no
 * signs, regions or groups) or a `tango` file (the same with signs
 * between adjacent cells, each pair once, not distinct). */
static inline size_t bo_text(const bo_inst *I, int tango, char *buf, size_t cap)
{
	size_t len = 0, c, k;
	uint32_t r, col;
	char hs[BO_MAX_CELLS], vs[BO_MAX_CELLS];

	cr_assert(!I->has_rows && !I->has_cols && I->w % 2 == 0 && I->h % 2 == 0);
	cr_assert(I->windows == (QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS) &&
		  I->wrap == 0 && !I->has_regions && !I->has_groups);
	memset(hs, ' ', sizeof hs);
	memset(vs, ' ', sizeof vs);
	for (k = 0; k < I->nsigns; k++) {
		uint32_t a = I->signs[k].a < I->signs[k].b ? I->signs[k].a : I->signs[k].b;
		uint32_t b = I->signs[k].a ^ I->signs[k].b ^ a;
		char ch = I->signs[k].differ ? 'x' : '=';
		cr_assert(tango);
		if (b == a + 1 && b % I->w != 0)
			hs[a] = ch;
		else if (b == a + I->w)
			vs[a] = ch;
		else
			cr_assert(0, "sign %zu is not between adjacent cells", k);
	}
	len += (size_t)snprintf(buf + len, cap - len, "%s ", tango ? "tango" : "takuzu");
	if (I->w == I->h)
		len += (size_t)snprintf(buf + len, cap - len, "%u", (unsigned)I->w);
	else
		len += (size_t)snprintf(buf + len, cap - len, "%ux%u", (unsigned)I->w,
					(unsigned)I->h);
	if (!tango && !I->distinct)
		len += (size_t)snprintf(buf + len, cap - len, " nounique");
	cr_assert(tango ? !I->distinct : 1);
	buf[len++] = '\n';
	for (r = 0; r < I->h; r++) {
		for (col = 0; col < I->w; col++) {
			c = (size_t)r * I->w + col;
			buf[len++] = I->clue[c] < 0 ? '.' : (char)('0' + I->clue[c]);
			if (tango && col + 1 < I->w)
				buf[len++] = hs[c];
		}
		buf[len++] = '\n';
		if (tango && r + 1 < I->h) {
			for (col = 0; col < I->w; col++) {
				buf[len++] = vs[(size_t)r * I->w + col];
				if (col + 1 < I->w)
					buf[len++] = ' ';
			}
			buf[len++] = '\n';
		}
		cr_assert(len + 2 * BO_MAX_SIDE + 4 < cap);
	}
	buf[len] = '\0';
	return len;
}

#endif
