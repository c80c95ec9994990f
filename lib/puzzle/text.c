/*
 * Text helpers shared by every puzzle family: a line reader with positions,
 * header words and numbers, grids, and the writers behind the public
 * format and check functions. The general rules (doc/formats.md): '#'
 * comment lines only outside grids, blank lines around blocks ignored,
 * trailing spaces optional, CRLF accepted, a leading UTF-8 byte-order mark
 * skipped, NUL bytes rejected, positions 1-based and counted in bytes.
 */
#include <stdio.h>
#include <string.h>

#include "puzzle_impl.h"

int qubo__pz_reader_init(struct qubo__pz_reader *r, const char *text, size_t length)
{
	const char *nul = length ? memchr(text, '\0', length) : NULL;

	r->text = text;
	r->length = length;
	r->pos = 0;
	r->line_no = 0;
	if (nul) {
		size_t line = 1, col = 1, i, at = (size_t)(nul - text);

		for (i = 0; i < at; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		return qubo__error_at(QUBO_ERR_PARSE, line, col, "NUL byte in the input");
	}
	/* a UTF-8 byte-order mark some editors write first: skipped, so the
	 * first line starts (column 1) after it */
	if (length >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		r->pos = 3;
	return QUBO_OK;
}

static size_t line_at(const struct qubo__pz_reader *r, size_t pos, struct qubo__pz_line *line)
{
	const char *s = r->text + pos;
	size_t rest = r->length - pos;
	const char *nl = memchr(s, '\n', rest);
	size_t len = nl ? (size_t)(nl - s) : rest;

	line->s = s;
	line->len = len;
	if (len > 0 && s[len - 1] == '\r')
		line->len--;
	line->no = r->line_no + 1;
	return nl ? len + 1 : len;
}

int qubo__pz_reader_next(struct qubo__pz_reader *r, struct qubo__pz_line *line)
{
	if (r->pos >= r->length)
		return 0;
	r->pos += line_at(r, r->pos, line);
	r->line_no++;
	return 1;
}

int qubo__pz_reader_peek(const struct qubo__pz_reader *r, struct qubo__pz_line *line)
{
	if (r->pos >= r->length)
		return 0;
	line_at(r, r->pos, line);
	return 1;
}

int qubo__pz_error_eof(const struct qubo__pz_reader *r, const char *fmt, ...)
{
	char msg[400];
	size_t line, col, i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->length == 0) {
		line = col = 1;
	} else if (r->text[r->length - 1] == '\n') {
		line = r->line_no + 1;
		col = 1;
	} else {
		i = r->length;
		while (i > 0 && r->text[i - 1] != '\n')
			i--;
		line = r->line_no ? r->line_no : 1; /* 0 when nothing but a BOM was read */
		col = r->length - i + 1;
		if (r->text[r->length - 1] == '\r')
			col--;
	}
	return qubo__error_at(QUBO_ERR_PARSE, line, col, "%s", msg);
}

int qubo__pz_line_blank(const struct qubo__pz_line *line)
{
	size_t i;

	for (i = 0; i < line->len; i++)
		if (line->s[i] != ' ' && line->s[i] != '\t')
			return 0;
	return 1;
}

int qubo__pz_line_comment(const struct qubo__pz_line *line)
{
	size_t i = 0;

	while (i < line->len && (line->s[i] == ' ' || line->s[i] == '\t'))
		i++;
	return i < line->len && line->s[i] == '#';
}

size_t qubo__pz_line_trimmed(const struct qubo__pz_line *line)
{
	size_t n = line->len;

	while (n > 0 && (line->s[n - 1] == ' ' || line->s[n - 1] == '\t'))
		n--;
	return n;
}

int qubo__pz_next_content(struct qubo__pz_reader *r, struct qubo__pz_line *line, int comments)
{
	while (qubo__pz_reader_next(r, line)) {
		if (qubo__pz_line_blank(line))
			continue;
		if (comments && qubo__pz_line_comment(line))
			continue;
		return 1;
	}
	return 0;
}

int qubo__pz_expect_end(struct qubo__pz_reader *r, int comments, const char *what)
{
	struct qubo__pz_line line;
	size_t col = 1;

	if (!qubo__pz_next_content(r, &line, comments))
		return QUBO_OK;
	while (col <= line.len && (line.s[col - 1] == ' ' || line.s[col - 1] == '\t'))
		col++;
	return qubo__error_at(QUBO_ERR_PARSE, line.no, col, "unexpected text %s", what);
}

size_t qubo__pz_tokens(const struct qubo__pz_line *line, struct qubo__pz_token *toks, size_t max)
{
	size_t i = 0, n = 0;

	for (;;) {
		size_t start;

		while (i < line->len && (line->s[i] == ' ' || line->s[i] == '\t'))
			i++;
		if (i >= line->len)
			return n;
		start = i;
		while (i < line->len && line->s[i] != ' ' && line->s[i] != '\t')
			i++;
		if (n < max) {
			toks[n].s = line->s + start;
			toks[n].len = i - start;
			toks[n].column = start + 1;
		}
		n++;
	}
}

int qubo__pz_token_is(const struct qubo__pz_token *tok, const char *word)
{
	size_t n = strlen(word);

	return tok->len == n && memcmp(tok->s, word, n) == 0;
}

/* The token as a printable string for messages: cut, non-ASCII bytes as '?'. */
static void token_text(const struct qubo__pz_token *tok, char *dst, size_t cap)
{
	size_t i, n = tok->len < cap - 4 ? tok->len : cap - 4;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)tok->s[i];
		dst[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n < tok->len) {
		memcpy(dst + n, "...", 3);
		n += 3;
	}
	dst[n] = '\0';
}

int qubo__pz_token_uint(const struct qubo__pz_line *line, const struct qubo__pz_token *tok,
			uint64_t lo, uint64_t hi, const char *what, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	char text[40];

	token_text(tok, text, sizeof text);
	for (i = 0; i < tok->len; i++) {
		unsigned char c = (unsigned char)tok->s[i];

		if (c < '0' || c > '9')
			return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column + i,
					      "%s must be a number, not '%s'", what, text);
		if (v > (UINT64_MAX - 9) / 10)
			v = UINT64_MAX - 9; /* saturate: reported as out of range */
		else
			v = v * 10 + (uint64_t)(c - '0');
	}
	if (tok->len == 0 || v < lo || v > hi)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column,
				      "%s must be between %llu and %llu, not %s", what,
				      (unsigned long long)lo, (unsigned long long)hi, text);
	*out = v;
	return QUBO_OK;
}

/* A board side: a number from 1 to QUBO__PZ_MAX_SIDE; a larger number is well formed but
 * too large, which is not a parse error. */
static int token_side(const struct qubo__pz_line *line, const struct qubo__pz_token *tok,
		      const char *what, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < tok->len && tok->s[i] >= '0' && tok->s[i] <= '9'; i++)
		if (v <= QUBO__PZ_MAX_SIDE)
			v = v * 10 + (uint64_t)(tok->s[i] - '0');
	if (tok->len && i == tok->len && v > QUBO__PZ_MAX_SIDE)
		return qubo__too_large_at(
			QUBO_LIMIT_BOARD_SIDE, QUBO__PZ_MAX_SIDE, line->no, tok->column,
			"%s %.*s is above the largest the library takes, %u", what,
			(int)(tok->len < 40 ? tok->len : 40), tok->s, (unsigned)QUBO__PZ_MAX_SIDE);
	return qubo__pz_token_uint(line, tok, 1, QUBO__PZ_MAX_SIDE, what, out);
}

int qubo__pz_token_size(const struct qubo__pz_line *line, const struct qubo__pz_token *tok,
			int square_only, uint32_t *width, uint32_t *height)
{
	const char *x = memchr(tok->s, 'x', tok->len);
	uint64_t w, h;
	int rc;

	if (!x || square_only) {
		rc = token_side(line, tok, "the board size", &w);
		if (rc)
			return rc;
		*width = *height = (uint32_t)w;
		return QUBO_OK;
	} else {
		struct qubo__pz_token a = *tok, b = *tok;

		a.len = (size_t)(x - tok->s);
		b.s = x + 1;
		b.len = tok->len - a.len - 1;
		b.column = tok->column + a.len + 1;
		rc = token_side(line, &a, "the board width", &w);
		if (!rc)
			rc = token_side(line, &b, "the board height", &h);
		if (rc)
			return rc;
		*width = (uint32_t)w;
		*height = (uint32_t)h;
		return QUBO_OK;
	}
}

static void char_text(unsigned char c, char *dst, size_t cap)
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

int qubo__pz_read_grid(struct qubo__pz_reader *r, const struct qubo__pz_line *first,
		       const struct qubo__pz_grid *g)
{
	uint32_t row;

	for (row = 0; row < g->height; row++) {
		struct qubo__pz_line line;
		size_t eff, c, n;

		if (row == 0 && first) {
			line = *first;
		} else if (!qubo__pz_reader_next(r, &line)) {
			return qubo__pz_error_eof(r, "the grid ends after %u of its %u rows",
						  (unsigned)row, (unsigned)g->height);
		}
		eff = qubo__pz_line_trimmed(&line);
		if (eff == 0 && !g->pad)
			return qubo__error_at(QUBO_ERR_PARSE, line.no, 1,
					      "blank line inside the grid (row %u of %u)",
					      (unsigned)row + 1, (unsigned)g->height);
		n = eff < g->width ? eff : g->width;
		for (c = 0; c < g->width; c++) {
			unsigned char ch;
			char shown[16];
			int v;

			if (c < n)
				ch = (unsigned char)line.s[c];
			else if (!g->pad)
				break;
			else
				ch = (unsigned char)(c < line.len ? line.s[c] : g->pad);
			v = g->cell(g->ctx, row, (uint32_t)c, ch, line.no);
			if (v == 0)
				continue;
			if (v < 0)
				return v;
			char_text(ch, shown, sizeof shown);
			return qubo__error_at(QUBO_ERR_PARSE, line.no, c + 1,
					      "unexpected %s in row %u (expected %s)", shown,
					      (unsigned)row + 1, g->expected);
		}
		if (eff < g->width && !g->pad)
			return qubo__error_at(QUBO_ERR_PARSE, line.no, eff + 1,
					      "row %u has %zu of the board's %u columns",
					      (unsigned)row + 1, eff, (unsigned)g->width);
		if (eff > g->width)
			return qubo__error_at(QUBO_ERR_PARSE, line.no, (size_t)g->width + 1,
					      "row %u is longer than the board's %u columns",
					      (unsigned)row + 1, (unsigned)g->width);
	}
	return QUBO_OK;
}

void qubo__pz_violation(struct qubo__pz_report *rep, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	rep->violations++;
	if (!rep->buf || rep->cap == 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof tmp)
		n = sizeof tmp - 1;
	tmp[n++] = '\n';
	if (rep->len + 1 < rep->cap) {
		size_t room = rep->cap - 1 - rep->len;
		size_t k = (size_t)n < room ? (size_t)n : room;

		memcpy(rep->buf + rep->len, tmp, k);
		rep->len += k;
	}
	rep->buf[rep->len] = '\0';
}
