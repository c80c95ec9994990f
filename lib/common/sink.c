/* The bounded output sink (sink.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sink.h"

void qubo__sink_buffer(qubo__sink *s, char *buf, size_t cap)
{
	memset(s, 0, sizeof *s);
	s->buf = buf;
	s->cap = cap;
}

int qubo__sink_file(qubo__sink *s, const qubo_allocator *a)
{
	memset(s, 0, sizeof *s);
	s->file = 1;
	s->fd = -1;
	s->cap = QUBO__SINK_CHUNK;
	s->buf = qubo__malloc(a, s->cap);
	return s->buf ? QUBO_OK : qubo__nomem("the output buffer");
}

static void write_all(qubo__sink *s, const char *p, size_t n)
{
	ssize_t k;

	while (n && !s->err) {
		k = write(s->fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			s->err = k < 0 ? errno : EIO;
			return;
		}
		p += k;
		n -= (size_t)k;
	}
}

static void flush(qubo__sink *s)
{
	if (s->used) {
		write_all(s, s->buf, s->used);
		s->used = 0;
	}
}

void qubo__sink_put(qubo__sink *s, const char *p, size_t n)
{
	if (s->file) {
		if (s->used + n > s->cap)
			flush(s);
		if (n > s->cap)
			write_all(s, p, n);
		else {
			memcpy(s->buf + s->used, p, n);
			s->used += n;
		}
	} else if (s->len < s->cap) {
		memcpy(s->buf + s->len, p, s->cap - s->len < n ? s->cap - s->len : n);
	}
	s->len += n;
}

void qubo__sink_putc(qubo__sink *s, char c)
{
	qubo__sink_put(s, &c, 1);
}

void qubo__sink_puts(qubo__sink *s, const char *str)
{
	qubo__sink_put(s, str, strlen(str));
}

void qubo__sink_printf(qubo__sink *s, const char *fmt, ...)
{
	char tmp[QUBO__SINK_LINE];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0)
		qubo__sink_put(s, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

int qubo__sink_finish(qubo__sink *s, const char *fn, const char *what, size_t *length_out)
{
	if (length_out)
		*length_out = s->len;
	/* capacity 0 is the size query: it succeeds */
	if (s->len > s->cap && s->cap)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "%s: the %s takes %zu bytes (%zu with its NUL), capacity is %zu",
				   fn, what, s->len, s->len + 1, s->cap);
	if (s->len < s->cap)
		s->buf[s->len] = '\0';
	return QUBO_OK;
}

int qubo__sink_close(qubo__sink *s, const qubo_allocator *a)
{
	flush(s);
	qubo__free(a, s->buf);
	s->buf = NULL;
	return s->err;
}
