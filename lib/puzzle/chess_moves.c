/*
 * Chess moves: the built-in pieces, custom move sets, the walk over the
 * cells a piece reaches on an empty board, and the attack lists (CSR) the
 * chess and domination builders share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_impl.h"

static const qubo_chess_move queen_moves[8] = {
	{ -1, 0, 1 }, { -1, 1, 1 }, { 0, 1, 1 },  { 1, 1, 1 },
	{ 1, 0, 1 },  { 1, -1, 1 }, { 0, -1, 1 }, { -1, -1, 1 },
};
static const qubo_chess_move rook_moves[4] = {
	{ -1, 0, 1 },
	{ 0, 1, 1 },
	{ 1, 0, 1 },
	{ 0, -1, 1 },
};
static const qubo_chess_move bishop_moves[4] = {
	{ -1, 1, 1 },
	{ 1, 1, 1 },
	{ 1, -1, 1 },
	{ -1, -1, 1 },
};
static const qubo_chess_move knight_moves[8] = {
	{ -2, 1, 0 }, { -1, 2, 0 }, { 1, 2, 0 },   { 2, 1, 0 },
	{ 2, -1, 0 }, { 1, -2, 0 }, { -1, -2, 0 }, { -2, -1, 0 },
};
static const qubo_chess_move king_moves[8] = {
	{ -1, 0, 0 }, { -1, 1, 0 }, { 0, 1, 0 },  { 1, 1, 0 },
	{ 1, 0, 0 },  { 1, -1, 0 }, { 0, -1, 0 }, { -1, -1, 0 },
};

static const struct {
	const qubo_chess_move *moves;
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

void qubo__pz_cz_moves(const struct cz_sets *sets, int32_t code, const qubo_chess_move **moves,
		       size_t *count)
{
	*moves = NULL;
	*count = 0;
	if (code >= 0 && code < QUBO__CZ_BUILTINS) {
		*moves = builtins[code].moves;
		*count = builtins[code].count;
	} else if (code >= QUBO_CHESS_CUSTOM && sets &&
		   (size_t)(code - QUBO_CHESS_CUSTOM) < sets->n) {
		size_t k = (size_t)(code - QUBO_CHESS_CUSTOM);

		*moves = sets->moves + sets->start[k];
		*count = sets->start[k + 1] - sets->start[k];
	}
}

void qubo__pz_cz_walk_init(struct cz_walk *wk, uint32_t w, uint32_t h, const qubo_chess_move *mv,
			   size_t nmv, size_t cell)
{
	wk->mv = mv;
	wk->nmv = nmv;
	wk->m = 0;
	wk->w = w;
	wk->h = h;
	wk->r0 = wk->r = (int64_t)(cell / w);
	wk->c0 = wk->c = (int64_t)(cell % w);
}

int qubo__pz_cz_walk_next(struct cz_walk *wk, size_t *cell)
{
	while (wk->m < wk->nmv) {
		const qubo_chess_move *mv = &wk->mv[wk->m];
		int first = wk->r == wk->r0 && wk->c == wk->c0;
		int64_t nr = wk->r + mv->drow, nc = wk->c + mv->dcol;

		if ((first || mv->slide) && nr >= 0 && nr < wk->h && nc >= 0 && nc < wk->w) {
			wk->r = nr;
			wk->c = nc;
			*cell = (size_t)nr * (size_t)wk->w + (size_t)nc;
			return 1;
		}
		wk->m++;
		wk->r = wk->r0;
		wk->c = wk->c0;
	}
	return 0;
}

int qubo__pz_cz_reaches(uint32_t w, uint32_t h, const struct cz_sets *sets, int32_t code, size_t a,
			size_t b)
{
	const qubo_chess_move *mv;
	struct cz_walk wk;
	size_t nmv, x;

	qubo__pz_cz_moves(sets, code, &mv, &nmv);
	qubo__pz_cz_walk_init(&wk, w, h, mv, nmv, a);
	while (qubo__pz_cz_walk_next(&wk, &x))
		if (x == b)
			return 1;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts list[0..len) and drops repeats; returns the new length. */
static size_t sort_unique(uint32_t *list, size_t len)
{
	size_t i, m = 0;

	if (len > 1)
		qsort(list, len, sizeof *list, cmp_u32);
	for (i = 0; i < len; i++)
		if (m == 0 || list[m - 1] != list[i])
			list[m++] = list[i];
	return m;
}

static int too_large(const char *fn)
{
	return qubo__pz_error(QUBO_ERR_TOO_LARGE,
			      "%s: the attack graph of this board is too large (more than %zu "
			      "entries or %llu steps to find)",
			      fn, QUBO__CZ_MAX_ENTRIES, (unsigned long long)QUBO__CZ_MAX_WORK);
}

int qubo__pz_cz_reach_lists(const qubo_allocator *a, uint32_t w, uint32_t h, const int32_t *codes,
			    const struct cz_sets *sets, const uint8_t *target, size_t **start_out,
			    uint32_t **list_out, const char *fn)
{
	size_t n = (size_t)w * h, cap = n < 1024 ? 1024 : n, len = 0, i;
	size_t *start = qubo__pz_alloc(a, n + 1, sizeof *start);
	uint32_t *list = qubo__pz_alloc(a, cap, sizeof *list);
	uint64_t work = 0;

	*start_out = NULL;
	*list_out = NULL;
	if (!start || !list)
		goto nomem;
	for (i = 0; i < n; i++) {
		const qubo_chess_move *mv;
		struct cz_walk wk;
		size_t nmv, b, first = len;

		start[i] = len;
		if (codes[i] == QUBO_CHESS_NONE)
			continue;
		qubo__pz_cz_moves(sets, codes[i], &mv, &nmv);
		work += nmv;
		qubo__pz_cz_walk_init(&wk, w, h, mv, nmv, i);
		while (qubo__pz_cz_walk_next(&wk, &b)) {
			if (++work > QUBO__CZ_MAX_WORK)
				goto large;
			if (b == i || !target[b])
				continue;
			if (len == cap) {
				uint32_t *nl;

				if (cap >= QUBO__CZ_MAX_ENTRIES)
					goto large;
				nl = qubo__pz_realloc(a, list, 2 * cap, sizeof *list);
				if (!nl)
					goto nomem;
				list = nl;
				cap *= 2;
			}
			list[len++] = (uint32_t)b;
		}
		if (work > QUBO__CZ_MAX_WORK)
			goto large;
		len = first + sort_unique(list + first, len - first);
	}
	start[n] = len;
	*start_out = start;
	*list_out = list;
	return QUBO_OK;
large:
	qubo__pz_free(a, start);
	qubo__pz_free(a, list);
	return too_large(fn);
nomem:
	qubo__pz_free(a, start);
	qubo__pz_free(a, list);
	return qubo__pz_nomem("the attack graph");
}

int qubo__pz_cz_transpose(const qubo_allocator *a, size_t n, const size_t *start,
			  const uint32_t *list, int sym, size_t **start_out, uint32_t **list_out,
			  const char *fn)
{
	size_t total = start[n] * (sym ? 2 : 1), i, k, m;
	size_t *ts, *fill;
	uint32_t *tl;

	*start_out = NULL;
	*list_out = NULL;
	if (total > QUBO__CZ_MAX_ENTRIES)
		return too_large(fn);
	ts = qubo__pz_zalloc(a, n + 1, sizeof *ts);
	fill = qubo__pz_alloc(a, n + 1, sizeof *fill);
	tl = qubo__pz_alloc(a, total, sizeof *tl);
	if (!ts || !fill || !tl) {
		qubo__pz_free(a, ts);
		qubo__pz_free(a, fill);
		qubo__pz_free(a, tl);
		return qubo__pz_nomem("the attack graph");
	}
	for (i = 0; i < n; i++) {
		for (k = start[i]; k < start[i + 1]; k++)
			ts[list[k] + 1]++;
		if (sym)
			ts[i + 1] += start[i + 1] - start[i];
	}
	for (i = 0; i < n; i++)
		ts[i + 1] += ts[i];
	memcpy(fill, ts, (n + 1) * sizeof *fill);
	for (i = 0; i < n; i++) {
		for (k = start[i]; k < start[i + 1]; k++) {
			tl[fill[list[k]]++] = (uint32_t)i;
			if (sym)
				tl[fill[i]++] = list[k];
		}
	}
	/* sort and compact every row */
	m = 0;
	for (i = 0; i < n; i++) {
		size_t s = ts[i], len = ts[i + 1] - s, kept;

		kept = sort_unique(tl + s, len);
		memmove(tl + m, tl + s, kept * sizeof *tl);
		ts[i] = m;
		m += kept;
	}
	ts[n] = m;
	qubo__pz_free(a, fill);
	*start_out = ts;
	*list_out = tl;
	return QUBO_OK;
}

int qubo__pz_cz_check_moves(const qubo_chess_move *moves, size_t count, const char *what,
			    const char *fn)
{
	size_t i;

	if (count && !moves)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG, "%s: %s lists %zu moves but is NULL",
				      fn, what, count);
	for (i = 0; i < count; i++) {
		if (moves[i].drow == 0 && moves[i].dcol == 0)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: %s[%zu] is the move (0, 0), which goes nowhere",
					      fn, what, i);
		if (moves[i].slide != 0 && moves[i].slide != 1)
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: %s[%zu].slide is %d, expected 0 (one step) or 1 "
					      "(a slide)",
					      fn, what, i, (int)moves[i].slide);
	}
	return QUBO_OK;
}

int qubo__pz_cz_sets_copy(struct cz_sets *dst, const qubo_allocator *a, size_t nsets,
			  const size_t *start, const qubo_chess_move *moves, const char *fn)
{
	size_t k, total;
	char what[64];
	int rc;

	memset(dst, 0, sizeof *dst);
	if (nsets == 0)
		return QUBO_OK;
	if (!start)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.num_move_sets is %zu but spec.move_set_start is "
				      "NULL",
				      fn, nsets);
	if (nsets > (size_t)INT32_MAX - QUBO_CHESS_CUSTOM)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.num_move_sets is %zu, at most %d", fn, nsets,
				      (int)(INT32_MAX - QUBO_CHESS_CUSTOM));
	if (start[0] != 0)
		return qubo__pz_error(QUBO_ERR_INVALID_ARG,
				      "%s: spec.move_set_start[0] is %zu, expected 0", fn,
				      start[0]);
	for (k = 0; k < nsets; k++) {
		if (start[k + 1] < start[k])
			return qubo__pz_error(QUBO_ERR_INVALID_ARG,
					      "%s: spec.move_set_start[%zu] = %zu is below "
					      "move_set_start[%zu] = %zu",
					      fn, k + 1, start[k + 1], k, start[k]);
	}
	total = start[nsets];
	if (total > QUBO__CZ_MAX_ENTRIES)
		return qubo__pz_error(QUBO_ERR_TOO_LARGE,
				      "%s: the move sets hold %zu moves, at most %zu", fn, total,
				      QUBO__CZ_MAX_ENTRIES);
	for (k = 0; k < nsets; k++) {
		snprintf(what, sizeof what, "the moves of set %zu: spec.moves", k);
		rc = qubo__pz_cz_check_moves(moves ? moves + start[k] : NULL,
					     start[k + 1] - start[k], what, fn);
		if (rc)
			return rc;
	}
	dst->start = qubo__pz_alloc(a, nsets + 1, sizeof *dst->start);
	dst->moves = qubo__pz_alloc(a, total, sizeof *dst->moves);
	if (!dst->start || !dst->moves) {
		qubo__pz_cz_sets_free(dst, a);
		return qubo__pz_nomem("the move sets");
	}
	memcpy(dst->start, start, (nsets + 1) * sizeof *start);
	if (total)
		memcpy(dst->moves, moves, total * sizeof *moves);
	dst->n = nsets;
	return QUBO_OK;
}

void qubo__pz_cz_sets_free(struct cz_sets *s, const qubo_allocator *a)
{
	qubo__pz_free(a, s->start);
	qubo__pz_free(a, s->moves);
	qubo__pz_free(a, s->letters);
	memset(s, 0, sizeof *s);
}

void qubo__pz_cz_piece_name(const struct cz_sets *sets, int32_t code, char *buf, size_t cap)
{
	if (code >= 0 && code < QUBO__CZ_BUILTINS)
		snprintf(buf, cap, "%s", builtins[code].word);
	else if (code >= QUBO_CHESS_CUSTOM && sets && sets->letters &&
		 (size_t)(code - QUBO_CHESS_CUSTOM) < sets->n)
		snprintf(buf, cap, "piece %c", sets->letters[code - QUBO_CHESS_CUSTOM]);
	else if (code >= QUBO_CHESS_CUSTOM)
		snprintf(buf, cap, "piece of move set %d", (int)(code - QUBO_CHESS_CUSTOM));
	else
		snprintf(buf, cap, "piece");
}

char qubo__pz_cz_piece_letter(const struct cz_sets *sets, int32_t code)
{
	size_t k;

	if (code >= 0 && code < QUBO__CZ_BUILTINS)
		return builtins[code].letter;
	if (code < QUBO_CHESS_CUSTOM)
		return '.';
	k = (size_t)(code - QUBO_CHESS_CUSTOM);
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
	return QUBO_CHESS_NONE;
}

int32_t qubo__pz_cz_builtin_of_word(const struct qubo__pz_token *tok)
{
	int32_t k;

	for (k = 0; k < QUBO__CZ_BUILTINS; k++)
		if (qubo__pz_token_is(tok, builtins[k].word))
			return k;
	return QUBO_CHESS_NONE;
}

const char *qubo__pz_cz_builtin_word(int32_t code)
{
	return code >= 0 && code < QUBO__CZ_BUILTINS ? builtins[code].word : "piece";
}
