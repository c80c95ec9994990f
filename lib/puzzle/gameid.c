/*
 * Game IDs of Simon Tatham's Portable Puzzle Collection for Tents and
 * Unruly, as its generators print them (`sgt-tents --generate 1` gives
 * `8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0`), translated into the
 * puzzle text formats of doc/formats.md, which the families then parse.
 *
 *   ID      = [ "tents:" | "unruly:" ] PARAMS ":" DESC
 *   PARAMS  = W [ "x" H ] [ "u" ] [ "d" LETTER ]     ('u': Unruly's unique rows)
 *
 * Tents DESC: the grid in row-major order as runs, then the tent count of
 * every column and every row, each after a ','. '_' is a tree right after
 * the previous one, 'a' … 'y' a tree after 1 … 25 empty cells, 'z' 25 empty
 * cells and no tree; the runs end with a tree one past the last cell. '!'
 * and '-' (a player's tent or non-tent on the cell before) carry no clue
 * and are skipped.
 * Unruly DESC: 'a' … 'y' skip 0 … 24 cells and put a 0, 'A' … 'Y' the same
 * with a 1, 'z' or 'Z' skip 25 cells; the last letter puts its digit one
 * past the last cell. Unruly rows need not be distinct unless PARAMS has
 * 'u' (the text gets `nounique` when they need not).
 * Without a prefix, a DESC with a ',' is Tents, one without is Unruly.
 */
#include <string.h>

#include "number.h"
#include "puzzle_impl.h"

/* A game ID's parts and where it is (for messages). */
struct gid {
	const char *s; /* the ID, without the prefix */
	size_t len;
	size_t line, col0; /* position of s[0] */
	int family;	   /* QUBO_PUZZLE_TENTS or QUBO_PUZZLE_TAKUZU */
	uint32_t w, h;
	int unique;
	size_t desc; /* index of DESC in s */
};

static int gid_error(const struct gid *g, size_t at, const char *what)
{
	return qubo__error_at(QUBO_ERR_PARSE, g->line, g->col0 + at, "game ID: %s", what);
}

/* A decimal number at s[*i] in [lo, hi]. */
static int gid_number(const struct gid *g, size_t *i, uint32_t lo, uint32_t hi, const char *what,
		      uint32_t *out)
{
	size_t start = *i;
	uint64_t v = 0;

	while (*i < g->len && qubo__is_digit(g->s[*i])) {
		v = v * 10 + (uint64_t)(g->s[*i] - '0');
		if (v > hi)
			break;
		(*i)++;
	}
	if (*i == start || v < lo || v > hi)
		return qubo__error_at(QUBO_ERR_PARSE, g->line, g->col0 + start,
				      "game ID: %s must be a number from %u to %u", what,
				      (unsigned)lo, (unsigned)hi);
	*out = (uint32_t)v;
	return QUBO_OK;
}

int qubo__pz_is_gameid(const char *s, size_t len)
{
	size_t i = 0;

	if (len >= 6 && !memcmp(s, "tents:", 6))
		return 1;
	if (len >= 7 && !memcmp(s, "unruly:", 7))
		return 1;
	if (!len || !qubo__is_digit(s[0]))
		return 0;
	while (i < len && s[i] != ':' && s[i] != ' ' && s[i] != '\t')
		i++;
	return i < len && s[i] == ':';
}

/* PARAMS up to the ':' (the prefix, if any, already taken). */
static int gid_params(struct gid *g)
{
	size_t i = 0;
	int rc = gid_number(g, &i, 1, QUBO__PZ_MAX_SIDE, "the width", &g->w);

	if (rc)
		return rc;
	g->h = g->w;
	if (i < g->len && g->s[i] == 'x') {
		i++;
		rc = gid_number(g, &i, 1, QUBO__PZ_MAX_SIDE, "the height", &g->h);
		if (rc)
			return rc;
	}
	if (i < g->len && g->s[i] == 'u') {
		g->unique = 1;
		i++;
	}
	if (i < g->len && g->s[i] == 'd') {
		i++;
		if (i >= g->len || g->s[i] < 'a' || g->s[i] > 'z')
			return gid_error(g, i, "'d' must be followed by a difficulty letter");
		i++;
	}
	if (i >= g->len || g->s[i] != ':')
		return gid_error(g, i, "expected ':' after the size (as in 8x8:...)");
	g->desc = i + 1;
	return QUBO_OK;
}

/* Tents: the grid ('.' and 'T') and the counts, as text. */
static int gid_tents(const struct gid *g, qubo__sink *o, char *grid)
{
	size_t n = (size_t)g->w * g->h, pos = 0, i = g->desc, k;
	uint32_t v = 0;
	int ended = 0, rc;

	memset(grid, '.', n);
	for (; i < g->len && g->s[i] != ','; i++) {
		char c = g->s[i];
		size_t run;

		if (ended)
			return gid_error(g, i, "the grid runs past its last cell");
		if (c == '!' || c == '-')
			continue; /* a player's mark, not a clue */
		if (c == 'z') {
			pos += 25;
			if (pos > n)
				return gid_error(g, i, "the grid runs past its last cell");
			continue;
		}
		if (c != '_' && (c < 'a' || c > 'y'))
			return gid_error(g, i, "a tents grid has only '_', 'a' to 'z', '!' and '-'");
		run = c == '_' ? 0 : (size_t)(c - 'a') + 1;
		pos += run;
		if (pos > n)
			return gid_error(g, i, "the grid runs past its last cell");
		if (pos == n)
			ended = 1; /* the closing tree one past the last cell */
		else
			grid[pos++] = 'T';
	}
	if (!ended)
		return gid_error(g, i, "the grid ends before its last cell");
	qubo__sink_printf(o, "tents %ux%u\ncols", (unsigned)g->w, (unsigned)g->h);
	for (k = 0; k < (size_t)g->w + g->h; k++) {
		if (k == g->w)
			qubo__sink_printf(o, "\nrows");
		if (i >= g->len || g->s[i] != ',')
			return gid_error(g, i, "expected ',' and a tent count for every column and row");
		i++;
		/* a column holds at most h tents, a row at most w */
		rc = gid_number(g, &i, 0, k < g->w ? g->h : g->w,
				k < g->w ? "a column's tent count" : "a row's tent count", &v);
		if (rc)
			return rc;
		qubo__sink_printf(o, " %u", (unsigned)v);
	}
	if (i < g->len)
		return gid_error(g, i, "unexpected data after the last tent count");
	qubo__sink_putc(o, '\n');
	for (k = 0; k < g->h; k++) {
		qubo__sink_put(o, grid + k * g->w, g->w);
		qubo__sink_putc(o, '\n');
	}
	return QUBO_OK;
}

/* Unruly: the grid of clues as takuzu text. */
static int gid_unruly(const struct gid *g, qubo__sink *o, char *grid)
{
	size_t n = (size_t)g->w * g->h, pos = 0, i, k;

	memset(grid, '.', n);
	for (i = g->desc; i < g->len; i++) {
		char c = g->s[i];

		if (pos > n)
			return gid_error(g, i, "the grid runs past its last cell");
		if (c == 'z' || c == 'Z') {
			pos += 25;
			continue;
		}
		if (c >= 'a' && c <= 'y')
			pos += (size_t)(c - 'a');
		else if (c >= 'A' && c <= 'Y')
			pos += (size_t)(c - 'A');
		else
			return gid_error(g, i, "an unruly grid has only the letters a to z and A to Z");
		if (pos < n)
			grid[pos] = c >= 'a' ? '0' : '1';
		else if (pos > n)
			return gid_error(g, i, "the grid runs past its last cell");
		pos++;
	}
	if (pos != n + 1)
		return gid_error(g, i, pos < n + 1 ? "the grid ends before its last cell"
						   : "the grid runs past its last cell");
	qubo__sink_printf(o, "takuzu %ux%u%s\n", (unsigned)g->w, (unsigned)g->h,
			  g->unique ? "" : " nounique");
	for (k = 0; k < g->h; k++) {
		qubo__sink_put(o, grid + k * g->w, g->w);
		qubo__sink_putc(o, '\n');
	}
	return QUBO_OK;
}

int qubo__pz_gameid_text(const qubo_allocator *a, const struct qubo__pz_line *line,
			 char **text_out, size_t *len_out)
{
	qubo__sink o = { 0 };
	struct gid g;
	char *grid, *text;
	size_t lead = 0, n;
	int rc, pass;

	*text_out = NULL;
	memset(&g, 0, sizeof g);
	while (lead < line->len && (line->s[lead] == ' ' || line->s[lead] == '\t'))
		lead++;
	g.s = line->s + lead;
	g.len = qubo__pz_line_trimmed(line) - lead;
	g.line = line->no;
	g.col0 = lead + 1;
	if (g.len >= 6 && !memcmp(g.s, "tents:", 6)) {
		g.family = QUBO_PUZZLE_TENTS;
		g.s += 6;
		g.len -= 6;
		g.col0 += 6;
	} else if (g.len >= 7 && !memcmp(g.s, "unruly:", 7)) {
		g.family = QUBO_PUZZLE_TAKUZU;
		g.s += 7;
		g.len -= 7;
		g.col0 += 7;
	}
	rc = gid_params(&g);
	if (rc)
		return rc;
	if (!g.family)
		g.family = memchr(g.s + g.desc, ',', g.len - g.desc) ? QUBO_PUZZLE_TENTS
								      : QUBO_PUZZLE_TAKUZU;
	if (g.family == QUBO_PUZZLE_TENTS && g.unique)
		return gid_error(&g, 0, "'u' (unique rows) belongs to Unruly, not Tents");
	if (g.family == QUBO_PUZZLE_TAKUZU && (g.w % 2 || g.h % 2))
		return gid_error(&g, 0, "an Unruly board has an even width and height");
	n = (size_t)g.w * g.h;
	if (n > QUBO__PZ_MAX_CELLS)
		return qubo__too_large_at(
			QUBO_LIMIT_BOARD_CELLS, QUBO__PZ_MAX_CELLS, g.line, g.col0,
			"game ID: the board has %zu cells, at most %zu are supported", n,
			(size_t)QUBO__PZ_MAX_CELLS);
	grid = qubo__malloc_array(a, n, 1);
	if (!grid)
		return qubo__nomem("the game ID's grid");
	/* measure, then write */
	for (pass = 0, text = NULL; pass < 2; pass++) {
		qubo__sink_buffer(&o, text, text ? o.len + 1 : 0);
		rc = g.family == QUBO_PUZZLE_TENTS ? gid_tents(&g, &o, grid) : gid_unruly(&g, &o, grid);
		if (rc)
			break;
		if (!pass && !(text = qubo__malloc_array(a, o.len + 1, 1))) {
			rc = qubo__nomem("the game ID's text");
			break;
		}
	}
	qubo__free(a, grid);
	if (rc) {
		qubo__free(a, text);
		return rc;
	}
	*text_out = text;
	*len_out = o.len;
	return QUBO_OK;
}
