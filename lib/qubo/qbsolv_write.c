/*
 * The qbsolv writer (doc/formats.md): walks the compiled CSR's upper
 * triangle directly. Each weight is printed with the shortest decimal that
 * reads back to the same double (qubo__number_format()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "model_impl.h"
#include "number.h"
#include "qubo/qbsolv.h"

/* Bytes buffered by the file writer per write(2). */
#define QBS_FILE_CHUNK 65536

typedef struct sink {
	/* memory: bytes below cap are stored, len counts all */
	char *buf;
	size_t cap, len;
	/* file: fd >= 0, chunk of QBS_FILE_CHUNK bytes */
	int fd;
	char *chunk;
	size_t used;
	int err; /* errno of the first failed write */
} sink;

static void write_all(sink *s, const char *p, size_t n)
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

static void flush_sink(sink *s)
{
	if (s->fd >= 0 && s->used) {
		write_all(s, s->chunk, s->used);
		s->used = 0;
	}
}

static void put(sink *s, const char *p, size_t n)
{
	if (s->fd >= 0) {
		if (s->used + n > QBS_FILE_CHUNK)
			flush_sink(s);
		memcpy(s->chunk + s->used, p, n);
		s->used += n;
		return;
	}
	if (s->len < s->cap)
		memcpy(s->buf + s->len, p, s->cap - s->len < n ? s->cap - s->len : n);
	s->len += n;
}

static void emit(const qubo_model *m, sink *s)
{
	char line[160];
	size_t i, k, n = m->n, nlin = 0, ncoup = m->nnz / 2, len;

	for (i = 0; i < n; i++)
		nlin += m->h[i] != 0.0;
	len = (size_t)snprintf(line, sizeof line,
			       "c qbsolv QUBO written by libqubo: %zu variables, %zu linear "
			       "terms, %zu couplers\n", n, nlin, ncoup);
	put(s, line, len);
	if (m->offset != 0.0) {
		memcpy(line, "c offset ", 9);
		len = 9 + qubo__number_format(line + 9, m->offset);
		line[len++] = '\n';
		put(s, line, len);
	}
	for (k = 0; k < m->num_groups; k++) {
		memcpy(line, "c group ", 8);
		len = 8 + qubo__number_u64(line + 8, m->groups[k].first);
		line[len++] = ' ';
		len += qubo__number_u64(line + len, m->groups[k].count);
		line[len++] = '\n';
		put(s, line, len);
	}
	len = (size_t)snprintf(line, sizeof line, "p qubo 0 %zu %zu %zu\n", n, nlin, ncoup);
	put(s, line, len);
	for (i = 0; i < n; i++) {
		if (m->h[i] == 0.0)
			continue;
		len = qubo__number_u64(line, i);
		line[len++] = ' ';
		len += qubo__number_u64(line + len, i);
		line[len++] = ' ';
		len += qubo__number_format(line + len, m->h[i]);
		line[len++] = '\n';
		put(s, line, len);
	}
	if (!ncoup)
		return;
	for (i = 0; i < n; i++) {
		size_t head;

		if (m->upper[i] == m->row[i + 1])
			continue;
		head = qubo__number_u64(line, i);
		line[head++] = ' ';
		for (k = m->upper[i]; k < m->row[i + 1]; k++) {
			len = head + qubo__number_u64(line + head, m->col[k]);
			line[len++] = ' ';
			len += qubo__number_format(line + len, m->val[k]);
			line[len++] = '\n';
			put(s, line, len);
		}
	}
}

int qubo_qbsolv_write(const qubo_model *model, char *buffer, size_t capacity,
		      size_t *length_out)
{
	static const char fn[] = "qubo_qbsolv_write";
	sink s;
	int rc;

	if (!length_out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: length_out is NULL", fn);
	*length_out = 0;
	if ((rc = qubo__model_require_compiled(model, fn)))
		return rc;
	if (!buffer && capacity)
		return qubo__error(QUBO_ERR_MISUSE, "%s: buffer is NULL with capacity %zu", fn,
				   capacity);
	if ((rc = qubo__c_locale(fn)))
		return rc;
	memset(&s, 0, sizeof s);
	s.fd = -1;
	s.buf = buffer;
	s.cap = capacity;
	emit(model, &s);
	*length_out = s.len;
	/* capacity 0 is the size query: it succeeds */
	if (s.len > capacity && capacity)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "%s: the text takes %zu bytes (%zu with its NUL), capacity is "
				   "%zu", fn, s.len, s.len + 1, capacity);
	if (s.len < capacity)
		buffer[s.len] = '\0';
	return QUBO_OK;
}

int qubo_qbsolv_write_file(const qubo_model *model, const char *path)
{
	static const char fn[] = "qubo_qbsolv_write_file";
	char eb[128];
	sink s;
	int rc;

	if ((rc = qubo__model_require_compiled(model, fn)))
		return rc;
	if (!path)
		return qubo__error(QUBO_ERR_MISUSE, "%s: path is NULL", fn);
	if ((rc = qubo__c_locale(fn)))
		return rc;
	memset(&s, 0, sizeof s);
	s.chunk = qubo__malloc(&model->alloc, QBS_FILE_CHUNK);
	if (!s.chunk)
		return qubo__nomem("the output buffer");
	s.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (s.fd < 0) {
		s.err = errno;
		qubo__free(&model->alloc, s.chunk);
		return qubo__error(QUBO_ERR_IO, "%s: cannot open '%s' for writing: %s", fn,
				   path, qubo__errstr(s.err, eb, sizeof eb));
	}
	emit(model, &s);
	flush_sink(&s);
	if (close(s.fd) != 0 && !s.err)
		s.err = errno;
	qubo__free(&model->alloc, s.chunk);
	if (s.err)
		return qubo__error(QUBO_ERR_IO, "%s: cannot write '%s': %s", fn, path,
				   qubo__errstr(s.err, eb, sizeof eb));
	return QUBO_OK;
}
