/*
 * Text forms of the binary-grid families (doc/formats.md):
 *
 *   takuzu N [nounique]      N lines of N characters: '.' free, '0' or '1'
 *   takuzu WxH [nounique]    a clue; W columns by H rows. Each row and
 *                            column holds as many 0s as 1s, no three equal
 *                            cells are adjacent in a row or a column, and
 *                            unless `nounique` no two rows and no two
 *                            columns are equal.
 *   tango N                  2N − 1 lines (2H − 1 of 2W − 1 characters for
 *   tango WxH                `tango WxH`): rows of cells written cell, sign,
 *                            cell, …, where a sign is ' ', '=' (the two
 *                            cells are equal) or 'x' (they differ), and
 *                            between them lines of the signs between each
 *                            cell and the one below it, at the cells'
 *                            positions (spaces between). The Takuzu rules
 *                            without distinct lines, plus the signs.
 *
 * Both sides must be even (a row of odd length cannot hold as many 0s as
 * 1s): an odd size is a parse error at the size. Both become a struct
 * bn_spec and go through the common builder.
 */
#include <stdio.h>
#include <string.h>

#include "binary_impl.h"

/* ---- reading ---- */

static void shown_char(unsigned char c, char *dst, size_t cap)
{
	if (c >= 0x21 && c < 0x7f)
		snprintf(dst, cap, "'%c'", c);
	else if (c == ' ')
		snprintf(dst, cap, "a space");
	else if (c == '\t')
		snprintf(dst, cap, "a tab");
	else
		snprintf(dst, cap, "byte 0x%02X", (unsigned)c);
}

/* The size after the family word: N or WxH, both even. */
static int read_size(const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
		     size_t ntoks, const char *word, uint32_t *w, uint32_t *h)
{
	int rc;

	if (ntoks < 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, header->len + 1,
				      "the header needs the board size: %s N or %s WxH", word,
				      word);
	rc = qubo__pz_token_size(header, &toks[1], 0, w, h);
	if (rc)
		return rc;
	if (*w % 2 || *h % 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[1].column,
				      "a %s board needs even sides, so that every row and "
				      "column can hold as many 0s as 1s (this one is %u x %u)",
				      word, (unsigned)*w, (unsigned)*h);
	return QUBO_OK;
}

/* The words after the size of a takuzu header: `nounique` or nothing. */
static int read_takuzu_words(const struct qubo__pz_line *line, const struct qubo__pz_token *toks,
			     size_t ntoks, int32_t *distinct)
{
	*distinct = 1;
	if (ntoks >= 3) {
		if (!qubo__pz_token_is(&toks[2], "nounique"))
			return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
					      "unexpected word in the header (expected "
					      "'nounique' or the end of the line)");
		if (ntoks > 3)
			return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[3].column,
					      "unexpected word after 'nounique'");
		*distinct = 0;
	}
	return QUBO_OK;
}

struct takuzu_ctx {
	uint32_t w;
	int8_t *clues;
};

static int takuzu_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct takuzu_ctx *t = ctx;

	(void)line_no;
	if (ch != '.' && ch != '0' && ch != '1')
		return 1;
	t->clues[(size_t)row * t->w + col] = (int8_t)(ch == '.' ? -1 : ch - '0');
	return 0;
}

int qubo__pz_takuzu_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			  const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			  size_t ntoks, const struct qubo__pz_opts *opts)
{
	struct bn_spec s;
	struct qubo__pz_grid g;
	struct qubo__pz_line first;
	struct takuzu_ctx ctx;
	qubo_allocator a;
	uint32_t w, h;
	int32_t distinct;
	int rc;

	if ((rc = read_size(header, toks, ntoks, "takuzu", &w, &h)) ||
	    (rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 1)) ||
	    (rc = read_takuzu_words(header, toks, ntoks, &distinct)))
		return rc;
	if (!qubo__pz_next_content(r, &first, 1))
		return qubo__pz_error_eof(r, "the header is not followed by the %u x %u grid",
					  (unsigned)w, (unsigned)h);
	rc = qubo__alloc_init(&a, opts->allocator, NULL);
	if (rc)
		return rc;
	ctx.w = w;
	ctx.clues = qubo__malloc_array(&a, (size_t)w * h, 1);
	if (!ctx.clues)
		return qubo__nomem("the puzzle's grid");
	g.width = w;
	g.height = h;
	g.expected = "'.', '0' or '1'";
	g.pad = 0;
	g.cell = takuzu_cell;
	g.ctx = &ctx;
	rc = qubo__pz_read_grid(r, &first, &g);
	if (!rc)
		rc = qubo__pz_expect_end(r, 1, "after the grid");
	if (!rc) {
		memset(&s, 0, sizeof s);
		s.width = w;
		s.height = h;
		s.kind = BN_TAKUZU;
		s.distinct = distinct;
		s.clues = ctx.clues;
		rc = qubo__pz_bn_create(out, &s, opts, "takuzu");
	}
	qubo__free(&a, ctx.clues);
	return rc;
}

/* A Tango layout being read: 2h − 1 lines of 2w − 1 characters. */
struct layout {
	uint32_t w, h;
	int solution;	  /* cells must be '0' or '1' */
	uint8_t *cell;	  /* n: each cell's character */
	uint8_t *hs, *vs; /* n: the signs right of and below each cell, or NULL */
	const uint8_t *want_hs, *want_vs; /* a solution's signs must be these */
};

static int is_sign(unsigned char ch)
{
	return ch == ' ' || ch == '=' || ch == 'x';
}

/* One character of a row of cells: a cell (even i) or the sign right of
 * one. */
static int layout_row_char(struct layout *L, const struct qubo__pz_line *line, uint32_t row,
			   size_t i)
{
	unsigned char ch = (unsigned char)line->s[i];
	size_t c = (size_t)row * L->w + i / 2;
	char shown[16];

	shown_char(ch, shown, sizeof shown);
	if (i % 2 == 0) {
		if (ch == '.' && L->solution)
			return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
					      "row %u, column %zu of the solution is not filled "
					      "(expected '0' or '1')",
					      (unsigned)row + 1, i / 2 + 1);
		if (ch != '.' && ch != '0' && ch != '1')
			return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
					      "unexpected %s at row %u, column %zu (expected %s)",
					      shown, (unsigned)row + 1, i / 2 + 1,
					      L->solution ? "'0' or '1'" : "'.', '0' or '1'");
		L->cell[c] = ch;
		return QUBO_OK;
	}
	if (!is_sign(ch))
		return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
				      "unexpected %s between columns %zu and %zu of row %u "
				      "(expected ' ', '=' or 'x')",
				      shown, i / 2 + 1, i / 2 + 2, (unsigned)row + 1);
	if (L->want_hs && L->want_hs[c] != ch)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
				      "the sign between columns %zu and %zu of row %u is '%c', "
				      "the puzzle's is '%c'",
				      i / 2 + 1, i / 2 + 2, (unsigned)row + 1, ch, L->want_hs[c]);
	if (L->hs)
		L->hs[c] = ch;
	return QUBO_OK;
}

/* One character of a line of signs below row `row`: a sign at even i, a
 * space between. */
static int layout_sign_char(struct layout *L, const struct qubo__pz_line *line, uint32_t row,
			    size_t i)
{
	unsigned char ch = (unsigned char)line->s[i];
	size_t c = (size_t)row * L->w + i / 2;
	char shown[16];

	shown_char(ch, shown, sizeof shown);
	if (i % 2 == 1) {
		if (ch != ' ')
			return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
					      "unexpected %s between the signs below row %u "
					      "(expected a space)",
					      shown, (unsigned)row + 1);
		return QUBO_OK;
	}
	if (!is_sign(ch))
		return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
				      "unexpected %s below row %u, column %zu (expected ' ', "
				      "'=' or 'x')",
				      shown, (unsigned)row + 1, i / 2 + 1);
	if (L->want_vs && L->want_vs[c] != ch)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, i + 1,
				      "the sign below row %u, column %zu is '%c', the "
				      "puzzle's is '%c'",
				      (unsigned)row + 1, i / 2 + 1, ch, L->want_vs[c]);
	if (L->vs)
		L->vs[c] = ch;
	return QUBO_OK;
}

/* Reads the layout's lines from `first` on (no comment or extra blank
 * lines inside). Trailing spaces may be missing; an all-blank line of signs
 * may be empty. */
static int read_layout(struct qubo__pz_reader *r, const struct qubo__pz_line *first,
		       struct layout *L)
{
	size_t width = 2 * (size_t)L->w - 1, lines = 2 * (size_t)L->h - 1, k, i;
	int rc;

	if (L->hs)
		memset(L->hs, ' ', (size_t)L->w * L->h);
	if (L->vs)
		memset(L->vs, ' ', (size_t)L->w * L->h);
	for (k = 0; k < lines; k++) {
		struct qubo__pz_line line;
		uint32_t row = (uint32_t)(k / 2);
		size_t eff;

		if (k == 0)
			line = *first;
		else if (!qubo__pz_reader_next(r, &line))
			return qubo__pz_error_eof(r, "the grid ends after %zu of its %zu lines", k,
						  lines);
		eff = qubo__pz_line_trimmed(&line);
		if (k % 2 == 0 && eff == 0)
			return qubo__error_at(QUBO_ERR_PARSE, line.no, 1,
					      "blank line where row %u of the cells should be",
					      (unsigned)row + 1);
		for (i = 0; i < eff && i < width; i++) {
			rc = k % 2 == 0 ? layout_row_char(L, &line, row, i)
					: layout_sign_char(L, &line, row, i);
			if (rc)
				return rc;
		}
		/* a solution's line of signs may be short only where the
		 * puzzle has no sign */
		for (i = eff + (eff % 2); k % 2 == 1 && L->want_vs && i < width; i += 2) {
			size_t c = (size_t)row * L->w + i / 2;

			if (L->want_vs[c] != ' ')
				return qubo__error_at(QUBO_ERR_PARSE, line.no, i + 1,
						      "the sign below row %u, column %zu is "
						      "missing, the puzzle's is '%c'",
						      (unsigned)row + 1, i / 2 + 1, L->want_vs[c]);
		}
		if (k % 2 == 0 && eff < width)
			return qubo__error_at(QUBO_ERR_PARSE, line.no, eff + 1,
					      "row %u has %zu of the %zu characters of a "
					      "%u-wide board (cell, sign, cell, ...)",
					      (unsigned)row + 1, eff, width, (unsigned)L->w);
		if (eff > width)
			return qubo__error_at(QUBO_ERR_PARSE, line.no, width + 1,
					      "%s %u is longer than the %zu characters of a "
					      "%u-wide board",
					      k % 2 == 0 ? "row" : "the line of signs below row",
					      (unsigned)row + 1, width, (unsigned)L->w);
	}
	return QUBO_OK;
}

int qubo__pz_tango_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			 const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			 size_t ntoks, const struct qubo__pz_opts *opts)
{
	struct bn_spec s;
	struct layout L;
	struct qubo__pz_line first;
	qubo_allocator a;
	struct bn_rel *rels = NULL;
	int8_t *clues = NULL;
	size_t n, i, nrel = 0;
	uint32_t w, h;
	int rc;

	if ((rc = read_size(header, toks, ntoks, "tango", &w, &h)) ||
	    (rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 1)))
		return rc;
	if (ntoks > 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[2].column,
				      "unexpected word in the header (expected the end of the "
				      "line)");
	if (!qubo__pz_next_content(r, &first, 1))
		return qubo__pz_error_eof(r, "the header is not followed by the %u x %u grid",
					  (unsigned)w, (unsigned)h);
	rc = qubo__alloc_init(&a, opts->allocator, NULL);
	if (rc)
		return rc;
	n = (size_t)w * h;
	memset(&L, 0, sizeof L);
	L.w = w;
	L.h = h;
	L.cell = qubo__malloc_array(&a, n, 1);
	L.hs = qubo__malloc_array(&a, n, 1);
	L.vs = qubo__malloc_array(&a, n, 1);
	clues = qubo__malloc_array(&a, n, 1);
	rels = qubo__malloc_array(&a, 2 * n, sizeof *rels);
	if (!L.cell || !L.hs || !L.vs || !clues || !rels)
		rc = qubo__nomem("the puzzle's grid");
	if (!rc)
		rc = read_layout(r, &first, &L);
	if (!rc)
		rc = qubo__pz_expect_end(r, 1, "after the grid");
	if (!rc) {
		for (i = 0; i < n; i++) {
			clues[i] = (int8_t)(L.cell[i] == '.' ? -1 : L.cell[i] - '0');
			if (L.hs[i] != ' ') {
				rels[nrel].a = (uint32_t)i;
				rels[nrel].b = (uint32_t)i + 1;
				rels[nrel++].differ = L.hs[i] == 'x';
			}
			if (L.vs[i] != ' ') {
				rels[nrel].a = (uint32_t)i;
				rels[nrel].b = (uint32_t)(i + w);
				rels[nrel++].differ = L.vs[i] == 'x';
			}
		}
		memset(&s, 0, sizeof s);
		s.width = w;
		s.height = h;
		s.kind = BN_TANGO;
		s.clues = clues;
		s.rels = rels;
		s.num_rels = nrel;
		s.hsign = L.hs;
		s.vsign = L.vs;
		rc = qubo__pz_bn_create(out, &s, opts, "tango");
	}
	qubo__free(&a, L.cell);
	qubo__free(&a, L.hs);
	qubo__free(&a, L.vs);
	qubo__free(&a, clues);
	qubo__free(&a, rels);
	return rc;
}

/* ---- writing ---- */

static void header_line(const struct bn *b, qubo__sink *o)
{
	qubo__sink_printf(o, "%s ", b->kind == BN_TANGO ? "tango" : "takuzu");
	if (b->w == b->h)
		qubo__sink_printf(o, "%u", (unsigned)b->w);
	else
		qubo__sink_printf(o, "%ux%u", (unsigned)b->w, (unsigned)b->h);
	if (b->kind == BN_TAKUZU && !b->distinct)
		qubo__sink_printf(o, " nounique");
	qubo__sink_putc(o, '\n');
}

/* The cells of a board (NULL: the clues, '.' where none) in the family's
 * layout. */
static void put_grid(const struct bn *b, const uint8_t *board, qubo__sink *o)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		size_t col = i % b->w, r;

		if (board)
			qubo__sink_putc(o, board[i] ? '1' : '0');
		else
			qubo__sink_putc(o, b->clue[i] < 0 ? '.' : (char)('0' + b->clue[i]));
		if (col + 1 < b->w) {
			if (b->kind == BN_TANGO)
				qubo__sink_putc(o, (char)b->hsign[i]);
			continue;
		}
		qubo__sink_putc(o, '\n');
		r = i / b->w;
		if (b->kind != BN_TANGO || r + 1 == b->h)
			continue;
		for (col = 0; col < b->w; col++) {
			qubo__sink_putc(o, (char)b->vsign[r * b->w + col]);
			if (col + 1 < b->w)
				qubo__sink_putc(o, ' ');
		}
		qubo__sink_putc(o, '\n');
	}
}

int qubo__pz_bn_format(const qubo_puzzle *p, qubo__sink *o)
{
	const struct bn *b = p->data;

	if (b->kind == BN_SPEC)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "qubo_puzzle_format: a binary puzzle built from a spec has no "
				   "text form");
	header_line(b, o);
	put_grid(b, NULL, o);
	return QUBO_OK;
}

void qubo__pz_bn_solution_header(const qubo_puzzle *p, qubo__sink *o)
{
	const struct bn *b = p->data;

	if (b->kind != BN_SPEC)
		header_line(b, o);
}

int qubo__pz_bn_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	const struct bn *b = p->data;
	struct qubo__pz_token toks[4];
	size_t nt = qubo__pz_tokens(line, toks, 4);
	const char *word = b->kind == BN_TANGO ? "tango" : "takuzu";
	uint32_t w, h;
	int32_t distinct = 0;
	int rc;

	if (b->kind == BN_SPEC)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[0].column,
				      "a puzzle built from a spec has no header: its solution "
				      "is the grid alone");
	if ((rc = read_size(line, toks, nt, word, &w, &h)))
		return rc;
	if (w != b->w || h != b->h)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
				      "the solution is for a %u x %u board, the puzzle's is "
				      "%u x %u",
				      (unsigned)w, (unsigned)h, (unsigned)b->w, (unsigned)b->h);
	if (b->kind == BN_TANGO) {
		if (nt > 2)
			return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
					      "unexpected word in the solution's header");
		return QUBO_OK;
	}
	if ((rc = read_takuzu_words(line, toks, nt, &distinct)))
		return rc;
	if (distinct != b->distinct)
		return qubo__error_at(QUBO_ERR_PARSE, line->no,
				      nt >= 3 ? toks[2].column : qubo__pz_line_trimmed(line) + 1,
				      "the solution's header %s 'nounique', the puzzle's %s",
				      distinct ? "lacks" : "has", distinct ? "has it" : "does not");
	return QUBO_OK;
}

char qubo__pz_bn_solution_char(const qubo_puzzle *p, size_t cell, uint8_t value)
{
	(void)p;
	(void)cell;
	return value ? '1' : '0';
}

int qubo__pz_bn_solution_value(const qubo_puzzle *p, size_t cell, unsigned char ch)
{
	(void)p;
	(void)cell;
	return ch == '0' ? 0 : ch == '1' ? 1 : -1;
}

void qubo__pz_tango_solution_grid(const qubo_puzzle *p, const uint8_t *board, qubo__sink *o)
{
	put_grid(p->data, board, o);
}

int qubo__pz_tango_solution_read(const qubo_puzzle *p, struct qubo__pz_reader *r,
				 const struct qubo__pz_line *first, uint8_t *board)
{
	const struct bn *b = p->data;
	struct layout L;
	size_t i;
	int rc;

	memset(&L, 0, sizeof L);
	L.w = b->w;
	L.h = b->h;
	L.solution = 1;
	L.cell = board;
	L.want_hs = b->hsign;
	L.want_vs = b->vsign;
	rc = read_layout(r, first, &L);
	for (i = 0; !rc && i < b->n; i++)
		board[i] = (uint8_t)(board[i] == '1');
	return rc;
}
