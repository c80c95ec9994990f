/*
 * The qbsolv reader's lines and fields (qbsolv_parse.c reads, qbsolv_fields.c
 * checks a field and records the first failure): the reader's state, the
 * token, the small scans both use (inline), and the field readers.
 */
#ifndef QUBO_QBSOLV_FIELDS_H
#define QUBO_QBSOLV_FIELDS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "common_impl.h"
#include "number.h"
#include "qubo/alloc.h"

typedef struct tok {
	const char *s;
	size_t n;
} tok;

typedef struct rd {
	const char *end;
	const char *pos; /* start of the next line */
	const char *ls;  /* start of the current line */
	const char *le;  /* end of its content (a final '\r' removed) */
	size_t line;     /* current line, 1-based; 0 before the first */
	const qubo_allocator *a;
	char *scratch;
	size_t cap_scratch;

	/* the failure, reported by the caller */
	int code;
	int api_error; /* message already set by a model function */
	int limit;     /* the enum qubo_limit of a QUBO_ERR_TOO_LARGE */
	uint64_t limit_value;
	size_t err_line, err_col;
	char msg[320];
} rd;

/* Overflow-checked unsigned decimal. 0: ok, 1: not an integer, 2: negative,
 * 3: too large for 64 bits. */
static inline int parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n && s[0] == '-') {
		for (i = 1; i < n && qubo__is_digit(s[i]); i++)
			;
		return i == n && n > 1 ? 2 : 1;
	}
	if (!n)
		return 1;
	for (i = 0; i < n; i++) {
		unsigned d;

		if (!qubo__is_digit(s[i]))
			return 1;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10) {
			for (; i < n && qubo__is_digit(s[i]); i++)
				;
			return i == n ? 3 : 1;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Position of a byte of the current line. */
static inline size_t col_of(const rd *r, const char *p)
{
	return (size_t)(p - r->ls) + 1;
}

static inline int next_tok(const char **cur, const char *le, tok *t)
{
	const char *p = *cur;

	while (p < le && (*p == ' ' || *p == '\t'))
		p++;
	if (p == le) {
		*cur = p;
		return 0;
	}
	t->s = p;
	while (p < le && *p != ' ' && *p != '\t')
		p++;
	t->n = (size_t)(p - t->s);
	*cur = p;
	return 1;
}

/* Records the failure (code, position, message) and returns code; the
 * caller reports it. */
int qubo__rd_fail(rd *r, int code, size_t line, size_t col, const char *fmt, ...)
	QUBO__PRINTF(5, 6);
int qubo__rd_vfail(rd *r, int code, size_t line, size_t col, const char *fmt, va_list ap)
	QUBO__PRINTF(5, 0);
/* QUBO_ERR_TOO_LARGE naming the limit and its value. */
int qubo__rd_too_large(rd *r, int limit, uint64_t value, size_t line, size_t col,
		       const char *fmt, ...) QUBO__PRINTF(6, 7);
/* Position just past the last byte of the input. */
void qubo__rd_eof_pos(const rd *r, size_t *line, size_t *col);
/* A token as text for messages: at most 24 bytes, control bytes as '?'. */
const char *qubo__rd_show(const tok *t, char buf[32]);
/* A weight-like number token: a finite double. */
int qubo__rd_number(rd *r, const tok *t, const char *what, double *out);
/* A non-negative integer token. */
int qubo__rd_uint(rd *r, const tok *t, const char *what, uint64_t *out);
/* The end of the line after the fields read. */
int qubo__rd_line_end(rd *r, const char *cur, const char *what);
/* Another field. */
int qubo__rd_field(rd *r, const char **cur, tok *t, const char *what);

#endif /* QUBO_QBSOLV_FIELDS_H */
