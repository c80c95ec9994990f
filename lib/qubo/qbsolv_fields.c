/*
 * The qbsolv reader's field checks and failures (qbsolv_fields.h): each
 * records the first failure in the reader's state with its position, and
 * the parse reports it.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "number.h"
#include "qbsolv_fields.h"

int qubo__rd_vfail(rd *r, int code, size_t line, size_t col, const char *fmt, va_list ap)
{
	r->code = code;
	r->err_line = line;
	r->err_col = col;
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	return code;
}

int qubo__rd_fail(rd *r, int code, size_t line, size_t col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	qubo__rd_vfail(r, code, line, col, fmt, ap);
	va_end(ap);
	return code;
}

/* QUBO_ERR_TOO_LARGE naming the limit and its value. */
int qubo__rd_too_large(rd *r, int limit, uint64_t value, size_t line, size_t col, const char *fmt,
			...)
{
	va_list ap;

	r->limit = limit;
	r->limit_value = value;
	va_start(ap, fmt);
	qubo__rd_vfail(r, QUBO_ERR_TOO_LARGE, line, col, fmt, ap);
	va_end(ap);
	return QUBO_ERR_TOO_LARGE;
}

/* Position just past the last byte of the input. */
void qubo__rd_eof_pos(const rd *r, size_t *line, size_t *col)
{
	if (r->line == 0) {
		*line = 1;
		*col = 1;
	} else if (r->end[-1] == '\n') {
		*line = r->line + 1;
		*col = 1;
	} else {
		*line = r->line;
		*col = (size_t)(r->end - r->ls) + 1;
	}
}

/* A token as text for messages: at most 24 bytes, control bytes as '?'. */
const char *qubo__rd_show(const tok *t, char buf[32])
{
	size_t i, n = t->n > 24 ? 24 : t->n;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->s[i];
		buf[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (t->n > n) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* Reads a weight-like number token: finite double. */
int qubo__rd_number(rd *r, const tok *t, const char *what, double *out)
{
	char b[32];
	int k = qubo__number_parse(t->s, t->n, out, r->a, &r->scratch, &r->cap_scratch);

	if (k < 0)
		return qubo__rd_fail(r, QUBO_ERR_NOMEM, 0, 0, "out of memory reading a long number");
	if (k == 0)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t->s),
			       "%s '%s' is not a decimal number", what, qubo__rd_show(t, b));
	if (!qubo__is_finite(*out))
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t->s),
			       "%s '%s' is beyond the range of double", what, qubo__rd_show(t, b));
	return QUBO_OK;
}

/* Reads a non-negative integer token. */
int qubo__rd_uint(rd *r, const tok *t, const char *what, uint64_t *out)
{
	char b[32];
	size_t col = col_of(r, t->s);

	switch (parse_u64(t->s, t->n, out)) {
	case 0:
		return QUBO_OK;
	case 2:
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col, "%s '%s' is negative", what,
			       qubo__rd_show(t, b));
	case 3:
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col,
			       "%s '%s' is too large for a 64-bit integer", what, qubo__rd_show(t, b));
	default:
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col,
			       "%s '%s' is not a non-negative decimal integer", what,
			       qubo__rd_show(t, b));
	}
}

/* Requires the end of the line after the fields read. */
int qubo__rd_line_end(rd *r, const char *cur, const char *what)
{
	tok t;
	char b[32];

	if (next_tok(&cur, r->le, &t))
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t.s),
			       "unexpected '%s' after %s", qubo__rd_show(&t, b), what);
	return QUBO_OK;
}

/* Requires another field. */
int qubo__rd_field(rd *r, const char **cur, tok *t, const char *what)
{
	if (next_tok(cur, r->le, t))
		return QUBO_OK;
	return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, r->le), "missing %s", what);
}
