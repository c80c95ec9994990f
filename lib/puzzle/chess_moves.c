/*
 * Chess moves: the built-in pieces, custom move sets, and the attack lists
 * (CSR) of the cells pieces reach on an empty board, which the chess and
 * domination builders share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_impl.h"

static const qubo_puzzle_chess_move queen_moves[8] = {
	{ -1, 0, 1 }, { -1, 1, 1 }, { 0, 1, 1 },  { 1, 1, 1 },
	{ 1, 0, 1 },  { 1, -1, 1 }, { 0, -1, 1 }, { -1, -1, 1 },
};
static const qubo_puzzle_chess_move rook_moves[4] = {
	{ -1, 0, 1 },
	{ 0, 1, 1 },
	{ 1, 0, 1 },
	{ 0, -1, 1 },
};
static const qubo_puzzle_chess_move bishop_moves[4] = {
	{ -1, 1, 1 },
	{ 1, 1, 1 },
	{ 1, -1, 1 },
	{ -1, -1, 1 },
};
static const qubo_puzzle_chess_move knight_moves[8] = {
	{ -2, 1, 0 }, { -1, 2, 0 }, { 1, 2, 0 },   { 2, 1, 0 },
	{ 2, -1, 0 }, { 1, -2, 0 }, { -1, -2, 0 }, { -2, -1, 0 },
};
static const qubo_puzzle_chess_move king_moves[8] = {
	{ -1, 0, 0 }, { -1, 1, 0 }, { 0, 1, 0 },  { 1, 1, 0 },
	{ 1, 0, 0 },  { 1, -1, 0 }, { 0, -1, 0 }, { -1, -1, 0 },
};

static const struct {
	const qubo_puzzle_chess_move *moves;
	size_t count;
	const char *word;
	char letter;
} builtins[QUBO__CZ_BUILTINS] = {
	{ queen_moves, 8, "queen", 'Q' },   { rook_moves, 4, "rook", 'R' },
	{ bishop_moves, 4, "bishop", 'B' }, { knight_moves, 8, "knight", 'N' },
	{ king_moves, 8, "king", 'K' },
};

/* Letters for custom pieces of a spec (none of Q R B N K). */
static const char spec_letters[] = "ACDEFGHIJLMOPSTUVWXYZ";

void qubo__pz_cz_moves(const struct cz_sets *sets, int32_t code,
		       const qubo_puzzle_chess_move **moves, size_t *count)
{
	*moves = NULL;
	*count = 0;
	if (code >= 0 && code < QUBO__CZ_BUILTINS) {
		*moves = builtins[code].moves;
		*count = builtins[code].count;
	} else if (code >= QUBO_PUZZLE_CHESS_CUSTOM && sets &&
		   (size_t)(code - QUBO_PUZZLE_CHESS_CUSTOM) < sets->n) {
		size_t k = (size_t)(code - QUBO_PUZZLE_CHESS_CUSTOM);

		*moves = sets->moves + sets->start[k];
		*count = sets->start[k + 1] - sets->start[k];
	}
}

/* Merges the ascending runs x[0..nx) and y[0..ny) into out. */
static void merge2(const uint32_t *x, size_t nx, const uint32_t *y, size_t ny, uint32_t *out)
{
	size_t i = 0, j = 0, o = 0;

	while (i < nx && j < ny) {
		uint32_t a = x[i], b = y[j];
		int take_y = b < a;

		out[o++] = take_y ? b : a;
		j += (size_t)take_y;
		i += (size_t)!take_y;
	}
	if (i < nx)
		memcpy(out + o, x + i, (nx - i) * sizeof *out);
	if (j < ny)
		memcpy(out + o, y + j, (ny - j) * sizeof *out);
}

/* The end of the ascending run of v[0..len) that starts at s < len. */
static size_t run_end(const uint32_t *v, size_t s, size_t len)
{
	while (++s < len && v[s - 1] <= v[s])
		;
	return s;
}

/* Lists this short are sorted by insertion, which costs less than merge
 * passes (and no scratch buffer): a custom leaper's few cells, say. */
#define SHORT_LIST 16

/*
 * Sorts v[0..len) and drops repeats; returns the new length. v is a few
 * ascending runs laid end to end (qubo__pz_cz_reach_lists appends one run
 * per group of moves), so neighbouring runs are merged pass after pass,
 * each pass halving their number: O(len log runs), where a comparison sort
 * would pay O(len log len) and a call per comparison. tmp holds at least
 * len entries unless len is at most SHORT_LIST (then it is not touched).
 */
static size_t sort_runs(uint32_t *v, size_t len, uint32_t *tmp)
{
	uint32_t *src = v, *dst = tmp, *t;
	size_t i, k, kept = 0;

	if (len <= SHORT_LIST) {
		for (i = 1; i < len; i++) {
			uint32_t x = v[i];

			for (k = i; k > 0 && v[k - 1] > x; k--)
				v[k] = v[k - 1];
			v[k] = x;
		}
	} else {
		for (;;) {
			size_t merged = 0, m, e;

			for (i = 0; i < len; i = e) {
				m = run_end(src, i, len);
				if (i == 0 && m == len)
					break; /* one run: sorted where it is */
				e = m < len ? run_end(src, m, len) : len;
				merge2(src + i, m - i, src + m, e - m, dst + i);
				merged++;
			}
			if (merged == 0)
				break;
			t = src;
			src = dst;
			dst = t;
			if (merged == 1)
				break;
		}
	}
	/* Repeats are neighbours now; copy back into v without them (in
	 * place when the result is in v already: kept <= i). */
	for (i = 0; i < len; i++)
		if (kept == 0 || v[kept - 1] != src[i])
			v[kept++] = src[i];
	return kept;
}

/* The limit hit is QUBO_LIMIT_ATTACK_ENTRIES or QUBO_LIMIT_ATTACK_STEPS. */
static int too_large(const char *fn, int limit, uint64_t value)
{
	return qubo__too_large(limit, value,
			       "%s: the attack graph of this board is too large (more than %zu "
			       "entries or %llu steps to find)",
			       fn, QUBO__CZ_MAX_ENTRIES, (unsigned long long)QUBO__CZ_MAX_WORK);
}

/* How many steps of d from pos stay inside [0, size); INT64_MAX for d = 0. */
static int64_t steps_inside(int64_t pos, int64_t d, int64_t size)
{
	if (d > 0)
		return (size - 1 - pos) / d;
	if (d < 0)
		return pos / -d;
	return INT64_MAX;
}

/* How many steps of the move from column c0 stay on a board w wide, kr
 * being the number its row step allows (steps_inside of the row): at most 1
 * for a leap. */
static int64_t move_steps(const qubo_puzzle_chess_move *mv, int64_t kr, int64_t c0, uint32_t w)
{
	int64_t kc = steps_inside(c0, mv->dcol, w), k = kc < kr ? kc : kr;

	if (!mv->slide && k > 1)
		k = 1;
	return k < 0 ? 0 : k;
}

static int cmp_move(const void *pa, const void *pb)
{
	const qubo_puzzle_chess_move *x = pa, *y = pb;

	if (x->drow != y->drow)
		return x->drow < y->drow ? -1 : 1;
	if (x->dcol != y->dcol)
		return x->dcol < y->dcol ? -1 : 1;
	return (x->slide > y->slide) - (x->slide < y->slide);
}

/* Every piece's moves, sorted by row step, then column step (see
 * qubo__pz_cz_reach_lists): piece code k < QUBO__CZ_BUILTINS and custom set
 * k − QUBO__CZ_BUILTINS have mv[at[k]] … mv[at[k + 1]]. */
struct cz_order {
	qubo_puzzle_chess_move *mv;
	size_t *at;
};

/* The piece code of entry k of struct cz_order: built-ins, then sets. */
static int32_t order_code(size_t k)
{
	return k < QUBO__CZ_BUILTINS ? (int32_t)k :
				       QUBO_PUZZLE_CHESS_CUSTOM + (int32_t)(k - QUBO__CZ_BUILTINS);
}

static int order_moves(struct cz_order *o, const qubo_allocator *a, const struct cz_sets *sets)
{
	size_t nsets = sets ? sets->n : 0, ncodes = QUBO__CZ_BUILTINS + nsets, total = 0, k;

	for (k = 0; k < ncodes; k++) {
		const qubo_puzzle_chess_move *mv;
		size_t nmv;

		qubo__pz_cz_moves(sets, order_code(k), &mv, &nmv);
		total += nmv;
	}
	o->at = qubo__malloc_array(a, ncodes + 1, sizeof *o->at);
	o->mv = qubo__malloc_array(a, total, sizeof *o->mv);
	if (!o->at || !o->mv)
		return QUBO_ERR_NOMEM;
	o->at[0] = 0;
	for (k = 0; k < ncodes; k++) {
		const qubo_puzzle_chess_move *mv;
		size_t nmv;

		qubo__pz_cz_moves(sets, order_code(k), &mv, &nmv);
		if (nmv)
			memcpy(o->mv + o->at[k], mv, nmv * sizeof *mv);
		if (nmv > 1)
			qsort(o->mv + o->at[k], nmv, sizeof *mv, cmp_move);
		o->at[k + 1] = o->at[k] + nmv;
	}
	return QUBO_OK;
}

/* A bound on the walk's steps from any one cell: the most of any piece's
 * moves, each one step, and each slide across the board's longer side. */
static uint64_t cell_bound(const struct cz_sets *sets, uint32_t w, uint32_t h)
{
	uint64_t side = w > h ? w : h, most = 0;
	size_t k, m, nmv;

	for (k = 0; k < QUBO__CZ_BUILTINS + (sets ? sets->n : 0); k++) {
		const qubo_puzzle_chess_move *mv;
		uint64_t steps = 0;

		qubo__pz_cz_moves(sets, order_code(k), &mv, &nmv);
		for (m = 0; m < nmv; m++)
			steps += 1 + (mv[m].slide ? side : 1);
		if (steps > most)
			most = steps;
	}
	return most;
}

int qubo__pz_cz_reach_check(const qubo_allocator *a, uint32_t w, uint32_t h, const int32_t *codes,
			    const struct cz_sets *sets, const uint8_t *target, size_t max_entries,
			    uint32_t *in_count, struct qubo__pz_ctl *ctl, const char *fn)
{
	size_t n = (size_t)w * h, i, m, nmv;
	uint64_t work = 0, steps = 0, entries = 0, pending = 0, before;
	const qubo_puzzle_chess_move *mv;
	uint32_t *stamp;
	int rc = QUBO_OK;

	/* most boards are settled by their size */
	if (!in_count && cell_bound(sets, w, h) <= max_entries / n)
		return QUBO_OK;
	/* the walk's steps (a step per move and per cell it crosses), from the
	 * board alone: every cell the lists could hold is one of them */
	for (i = 0; i < n; i++) {
		qubo__pz_cz_moves(sets, codes[i], &mv, &nmv);
		work += nmv;
		for (m = 0; m < nmv; m++)
			steps += (uint64_t)move_steps(&mv[m],
						      steps_inside((int64_t)(i / w), mv[m].drow, h),
						      (int64_t)(i % w), w);
		if (work + steps > QUBO__CZ_MAX_WORK)
			return too_large(fn, QUBO_LIMIT_ATTACK_STEPS, QUBO__CZ_MAX_WORK);
		if ((rc = qubo__pz_build_tick(ctl, &pending, 1 + nmv)))
			return rc;
	}
	if (steps <= max_entries && !in_count)
		return QUBO_OK;
	/* the distinct targets each piece reaches, counted without listing
	 * them: a stamp per cell keeps each once */
	stamp = qubo__calloc_array(a, n, sizeof *stamp);
	if (!stamp)
		return qubo__nomem("the attack graph");
	for (i = 0; !rc && i < n; i++) {
		before = entries;
		qubo__pz_cz_moves(sets, codes[i], &mv, &nmv);
		for (m = 0; m < nmv; m++) {
			int64_t k, kmax = move_steps(&mv[m],
						     steps_inside((int64_t)(i / w), mv[m].drow, h),
						     (int64_t)(i % w), w);
			int64_t delta = (int64_t)mv[m].drow * (int64_t)w + mv[m].dcol;

			for (k = 1; k <= kmax; k++) {
				size_t b = (size_t)((int64_t)i + k * delta);

				if (!target[b] || stamp[b] == i + 1)
					continue;
				stamp[b] = (uint32_t)(i + 1);
				entries++;
				if (in_count)
					in_count[b]++;
			}
		}
		rc = qubo__pz_build_tick(ctl, &pending, 1 + nmv + entries - before);
	}
	qubo__free(a, stamp);
	if (rc)
		return rc;
	return entries > max_entries ? too_large(fn, QUBO_LIMIT_ATTACK_ENTRIES, max_entries) :
				       QUBO_OK;
}

/* Rays of one row step followed in step: a group of moves with the same
 * row step is cut into pieces of at most this many. */
#define LOCKSTEP 8

/*
 * The cells a piece on cell i = (r, c) reaches: a move (dr, dc) reaches
 * i + k·delta, delta = dr·w + dc, for k = 1 … kmax, where kmax is the
 * number of its steps that stay on the board (at most 1 for a leap). With
 * the moves sorted by row step, then column step, the moves of one row
 * step dr ≠ 0 are followed together, k after k, so that at each k they
 * stand on one row (r + k·dr), left to right; k runs downwards when dr < 0
 * so that the rows go downwards. Each such group gives one ascending run of
 * cell indices, and so does each move along the piece's own row (k
 * downwards to the left). For the built-in pieces the runs follow each
 * other in order (rows above, the own row left then right, rows below):
 * the list comes out sorted and distinct with no sort. Otherwise (two row
 * steps of one sign, say) sort_runs() merges the runs.
 *
 * The work counted (a step per move and per cell reached) and the entries
 * appended before repeats are dropped do not depend on the order, and are
 * those of the walk, move by move and step by step, that these lists came
 * from before: the limits fail where they did.
 */
int qubo__pz_cz_reach_lists(const qubo_allocator *a, uint32_t w, uint32_t h, const int32_t *codes,
			    const struct cz_sets *sets, const uint8_t *target,
			    struct qubo__pz_ctl *ctl, size_t **start_out, uint32_t **list_out,
			    const char *fn)
{
	size_t n = (size_t)w * h, cap = n < 1024 ? 1024 : n, len = 0, tcap = 0, i;
	size_t *start = qubo__malloc_array(a, n + 1, sizeof *start);
	uint32_t *list = qubo__malloc_array(a, cap, sizeof *list), *tmp = NULL;
	struct cz_order ord = { NULL, NULL };
	uint64_t work = 0, pending = 0;
	int rc;

	*start_out = NULL;
	*list_out = NULL;
	if (!start || !list || order_moves(&ord, a, sets))
		goto nomem;
	for (i = 0; i < n; i++) {
		const qubo_puzzle_chess_move *mv;
		size_t nmv, m, g, first = len, code;
		int64_t r0 = (int64_t)(i / w), c0 = (int64_t)(i % w), last = -1;
		int sorted = 1;

		/* the cells and the entries so far: the work since the last cell */
		if ((rc = qubo__pz_build_tick(ctl, &pending, 1 + len - (i ? start[i - 1] : 0))))
			goto fail;
		start[i] = len;
		if (codes[i] == QUBO_PUZZLE_CHESS_NONE)
			continue;
		if (codes[i] >= 0 && codes[i] < QUBO__CZ_BUILTINS)
			code = (size_t)codes[i];
		else if (codes[i] >= QUBO_PUZZLE_CHESS_CUSTOM && sets &&
			 (size_t)(codes[i] - QUBO_PUZZLE_CHESS_CUSTOM) < sets->n)
			code = QUBO__CZ_BUILTINS + (size_t)(codes[i] - QUBO_PUZZLE_CHESS_CUSTOM);
		else
			continue; /* no moves (qubo__pz_cz_moves) */
		mv = ord.mv + ord.at[code];
		nmv = ord.at[code + 1] - ord.at[code];
		work += nmv;
		for (m = 0; m < nmv; m = g) {
			int64_t dr = mv[m].drow, kmax[LOCKSTEP], ktop = 0, kr, k, kend, kstep;
			int64_t delta[LOCKSTEP];
			size_t j, cnt;

			/* the group: m … g, one row step (along the own row:
			 * one move) */
			for (g = m + 1; g < nmv && g - m < LOCKSTEP && dr != 0 && mv[g].drow == dr;
			     g++)
				;
			cnt = g - m;
			kr = steps_inside(r0, dr, h);
			for (j = 0; j < cnt; j++) {
				kmax[j] = move_steps(&mv[m + j], kr, c0, w);
				delta[j] = dr * (int64_t)w + mv[m + j].dcol;
				work += (uint64_t)kmax[j];
				if (kmax[j] > ktop)
					ktop = kmax[j];
			}
			if (work > QUBO__CZ_MAX_WORK)
				goto steps;
			if (ktop == 0)
				continue;
			/* k downwards when the cells lie before i: rows
			 * above, or to the left on the own row */
			if (dr < 0 || (dr == 0 && mv[m].dcol < 0)) {
				k = ktop;
				kend = 0;
				kstep = -1;
			} else {
				k = 1;
				kend = ktop + 1;
				kstep = 1;
			}
			for (; k != kend; k += kstep) {
				for (j = 0; j < cnt; j++) {
					size_t b;

					if (k > kmax[j])
						continue;
					b = (size_t)((int64_t)i + k * delta[j]);
					if (!target[b])
						continue;
					if (len == cap) {
						uint32_t *nl;

						if (cap >= QUBO__CZ_MAX_ENTRIES)
							goto large;
						nl = qubo__realloc_array(a, list, 2 * cap,
									 sizeof *list);
						if (!nl)
							goto nomem;
						list = nl;
						cap *= 2;
					}
					sorted &= (int64_t)b > last;
					last = (int64_t)b;
					list[len++] = (uint32_t)b;
				}
			}
		}
		if (sorted)
			continue;
		if (len - first > SHORT_LIST && len - first > tcap) {
			size_t want = 2 * tcap > len - first ? 2 * tcap : len - first;
			uint32_t *nt = qubo__realloc_array(a, tmp, want, sizeof *tmp);

			if (!nt)
				goto nomem;
			tmp = nt;
			tcap = want;
		}
		len = first + sort_runs(list + first, len - first, tmp);
	}
	start[n] = len;
	/* The doubling leaves up to half the capacity unused. */
	if (len < cap) {
		uint32_t *shrunk = qubo__realloc_array(a, list, len, sizeof *list);

		if (shrunk)
			list = shrunk;
	}
	qubo__free(a, tmp);
	qubo__free(a, ord.mv);
	qubo__free(a, ord.at);
	*start_out = start;
	*list_out = list;
	return QUBO_OK;
steps:
	rc = too_large(fn, QUBO_LIMIT_ATTACK_STEPS, QUBO__CZ_MAX_WORK);
	goto fail;
large:
	rc = too_large(fn, QUBO_LIMIT_ATTACK_ENTRIES, QUBO__CZ_MAX_ENTRIES);
	goto fail;
nomem:
	rc = qubo__nomem("the attack graph");
fail:
	qubo__free(a, start);
	qubo__free(a, list);
	qubo__free(a, tmp);
	qubo__free(a, ord.mv);
	qubo__free(a, ord.at);
	return rc;
}

/*
 * One counting pass over the entries, sources in increasing order, puts
 * every transposed row in ascending order with no repeat (the rows given
 * are distinct). For the symmetric closure the transpose is written into
 * the upper half of the output, and each of its rows merged with the row
 * given, repeats dropped, into the lower half: the merge never writes past
 * the transposed entries it has still to read (the output before row b is
 * at most the transposed rows before b plus start[b] ≤ start[n] entries).
 */
int qubo__pz_cz_transpose(const qubo_allocator *a, size_t n, const size_t *start,
			  const uint32_t *list, int sym, struct qubo__pz_ctl *ctl,
			  size_t **start_out, uint32_t **list_out, const char *fn)
{
	size_t total = start[n] * (sym ? 2 : 1), base = sym ? start[n] : 0, i, k, m, lo;
	size_t *ts, *fill;
	uint32_t *tl;
	uint64_t pending = 0;
	int rc;

	*start_out = NULL;
	*list_out = NULL;
	if (total > QUBO__CZ_MAX_ENTRIES)
		return too_large(fn, QUBO_LIMIT_ATTACK_ENTRIES, QUBO__CZ_MAX_ENTRIES);
	ts = qubo__calloc_array(a, n + 1, sizeof *ts);
	fill = qubo__malloc_array(a, n + 1, sizeof *fill);
	tl = qubo__malloc_array(a, total, sizeof *tl);
	if (!ts || !fill || !tl) {
		qubo__free(a, ts);
		qubo__free(a, fill);
		qubo__free(a, tl);
		return qubo__nomem("the attack graph");
	}
	/* three passes over the rows, each polling the build's clock */
	for (i = 0; i < n; i++) {
		if ((rc = qubo__pz_build_tick(ctl, &pending, 1 + start[i + 1] - start[i])))
			goto stop;
		for (k = start[i]; k < start[i + 1]; k++)
			ts[list[k] + 1]++;
	}
	for (i = 0; i < n; i++)
		ts[i + 1] += ts[i];
	memcpy(fill, ts, (n + 1) * sizeof *fill);
	for (i = 0; i < n; i++) {
		if ((rc = qubo__pz_build_tick(ctl, &pending, 1 + start[i + 1] - start[i])))
			goto stop;
		for (k = start[i]; k < start[i + 1]; k++)
			tl[base + fill[list[k]]++] = (uint32_t)i;
	}
	qubo__free(a, fill);
	fill = NULL;
	if (sym) {
		/* ts[b] … ts[b + 1] is row b of the transpose (at base);
		 * ts[b] becomes the start of merged row b once read. */
		m = 0;
		lo = 0;
		for (i = 0; i < n; i++) {
			size_t x = base + lo, xe = base + ts[i + 1];
			size_t y = start[i], ye = start[i + 1], row = m;

			if ((rc = qubo__pz_build_tick(ctl, &pending, 1 + (xe - x) + (ye - y))))
				goto stop;
			lo = ts[i + 1];
			/* a piece that attacks exactly the cells attacking
			 * it (all queens, all rooks …): one copy */
			if (xe - x == ye - y && xe > x &&
			    memcmp(tl + x, list + y, (xe - x) * sizeof *tl) == 0) {
				memmove(tl + m, tl + x, (xe - x) * sizeof *tl);
				m += xe - x;
				x = xe;
				y = ye;
			}
			while (x < xe || y < ye) {
				uint32_t v;

				if (y == ye || (x < xe && tl[x] < list[y]))
					v = tl[x++];
				else if (x == xe || list[y] < tl[x])
					v = list[y++];
				else {
					v = list[y++]; /* in both */
					x++;
				}
				tl[m++] = v;
			}
			ts[i] = row;
		}
		ts[n] = m;
		/* Give back the entries both directions shared (half of
		 * them for a board of queens): the model is built while
		 * these lists are alive. Kept as they are if refused. */
		if (m < total) {
			uint32_t *shrunk = qubo__realloc_array(a, tl, m, sizeof *tl);

			if (shrunk)
				tl = shrunk;
		}
	}
	*start_out = ts;
	*list_out = tl;
	return QUBO_OK;
stop:
	qubo__free(a, ts);
	qubo__free(a, fill);
	qubo__free(a, tl);
	return rc;
}

int qubo__pz_cz_check_moves(const qubo_puzzle_chess_move *moves, size_t count, const char *what,
			    const char *fn)
{
	size_t i;

	if (count && !moves)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: %s lists %zu moves but is NULL", fn,
				   what, count);
	for (i = 0; i < count; i++) {
		if (moves[i].drow == 0 && moves[i].dcol == 0)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: %s[%zu] is the move (0, 0), which goes nowhere", fn,
					   what, i);
		if (moves[i].slide != 0 && moves[i].slide != 1)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: %s[%zu].slide is %d, expected 0 (one step) or 1 "
					   "(a slide)",
					   fn, what, i, (int)moves[i].slide);
	}
	return QUBO_OK;
}

int qubo__pz_cz_sets_copy(struct cz_sets *dst, const qubo_allocator *a, size_t nsets,
			  const size_t *start, const qubo_puzzle_chess_move *moves, const char *fn)
{
	size_t k, total;
	char what[64];
	int rc;

	memset(dst, 0, sizeof *dst);
	if (nsets == 0)
		return QUBO_OK;
	if (!start)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.num_move_sets is %zu but spec.move_set_start is "
				   "NULL",
				   fn, nsets);
	if (nsets > (size_t)INT32_MAX - QUBO_PUZZLE_CHESS_CUSTOM)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.num_move_sets is %zu, at most %d", fn, nsets,
				   (int)(INT32_MAX - QUBO_PUZZLE_CHESS_CUSTOM));
	if (start[0] != 0)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.move_set_start[0] is %zu, expected 0", fn, start[0]);
	for (k = 0; k < nsets; k++) {
		if (start[k + 1] < start[k])
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.move_set_start[%zu] = %zu is below "
					   "move_set_start[%zu] = %zu",
					   fn, k + 1, start[k + 1], k, start[k]);
	}
	total = start[nsets];
	if (total > QUBO__CZ_MAX_ENTRIES)
		return qubo__too_large(QUBO_LIMIT_ATTACK_ENTRIES, QUBO__CZ_MAX_ENTRIES,
				       "%s: the move sets hold %zu moves, at most %zu", fn, total,
				       QUBO__CZ_MAX_ENTRIES);
	for (k = 0; k < nsets; k++) {
		snprintf(what, sizeof what, "the moves of set %zu: spec.moves", k);
		rc = qubo__pz_cz_check_moves(moves ? moves + start[k] : NULL,
					     start[k + 1] - start[k], what, fn);
		if (rc)
			return rc;
	}
	dst->start = qubo__malloc_array(a, nsets + 1, sizeof *dst->start);
	dst->moves = qubo__malloc_array(a, total, sizeof *dst->moves);
	if (!dst->start || !dst->moves) {
		qubo__pz_cz_sets_free(dst, a);
		return qubo__nomem("the move sets");
	}
	memcpy(dst->start, start, (nsets + 1) * sizeof *start);
	if (total)
		memcpy(dst->moves, moves, total * sizeof *moves);
	dst->n = nsets;
	return QUBO_OK;
}

void qubo__pz_cz_sets_free(struct cz_sets *s, const qubo_allocator *a)
{
	qubo__free(a, s->start);
	qubo__free(a, s->moves);
	qubo__free(a, s->letters);
	memset(s, 0, sizeof *s);
}

void qubo__pz_cz_piece_name(const struct cz_sets *sets, int32_t code, char *buf, size_t cap)
{
	if (code >= 0 && code < QUBO__CZ_BUILTINS)
		snprintf(buf, cap, "%s", builtins[code].word);
	else if (code >= QUBO_PUZZLE_CHESS_CUSTOM && sets && sets->letters &&
		 (size_t)(code - QUBO_PUZZLE_CHESS_CUSTOM) < sets->n)
		snprintf(buf, cap, "piece %c", sets->letters[code - QUBO_PUZZLE_CHESS_CUSTOM]);
	else if (code >= QUBO_PUZZLE_CHESS_CUSTOM)
		snprintf(buf, cap, "piece of move set %d", (int)(code - QUBO_PUZZLE_CHESS_CUSTOM));
	else
		snprintf(buf, cap, "piece");
}

char qubo__pz_cz_piece_letter(const struct cz_sets *sets, int32_t code)
{
	size_t k;

	if (code >= 0 && code < QUBO__CZ_BUILTINS)
		return builtins[code].letter;
	if (code < QUBO_PUZZLE_CHESS_CUSTOM)
		return '.';
	k = (size_t)(code - QUBO_PUZZLE_CHESS_CUSTOM);
	if (sets && sets->letters && k < sets->n)
		return sets->letters[k];
	return k < sizeof spec_letters - 1 ? spec_letters[k] : '*';
}

int32_t qubo__pz_cz_builtin_of_letter(unsigned char ch)
{
	int32_t k;

	for (k = 0; k < QUBO__CZ_BUILTINS; k++)
		if ((unsigned char)builtins[k].letter == ch)
			return k;
	return QUBO_PUZZLE_CHESS_NONE;
}

int32_t qubo__pz_cz_builtin_of_word(const struct qubo__pz_token *tok)
{
	int32_t k;

	for (k = 0; k < QUBO__CZ_BUILTINS; k++)
		if (qubo__pz_token_is(tok, builtins[k].word))
			return k;
	return QUBO_PUZZLE_CHESS_NONE;
}

const char *qubo__pz_cz_builtin_word(int32_t code)
{
	return code >= 0 && code < QUBO__CZ_BUILTINS ? builtins[code].word : "piece";
}
