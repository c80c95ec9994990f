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
#include "sink.h"
#include "qubo/qbsolv.h"

static void emit(const qubo_model *m, qubo__sink *s)
{
	char line[160];
	size_t i, k, n = m->n, nlin = 0, ncoup = m->nnz / 2, len;

	for (i = 0; i < n; i++)
		nlin += m->h[i] != 0.0;
	len = (size_t)snprintf(line, sizeof line,
			       "c qbsolv QUBO written by libqubo: %zu variables, %zu linear "
			       "terms, %zu couplers\n", n, nlin, ncoup);
	qubo__sink_put(s, line, len);
	if (m->offset != 0.0) {
		memcpy(line, "c offset ", 9);
		len = 9 + qubo__number_format(line + 9, m->offset);
		line[len++] = '\n';
		qubo__sink_put(s, line, len);
	}
	for (k = 0; k < m->num_groups; k++) {
		memcpy(line, "c group ", 8);
		len = 8 + qubo__number_u64(line + 8, m->groups[k].first);
		line[len++] = ' ';
		len += qubo__number_u64(line + len, m->groups[k].count);
		line[len++] = '\n';
		qubo__sink_put(s, line, len);
	}
	len = (size_t)snprintf(line, sizeof line, "p qubo 0 %zu %zu %zu\n", n, nlin, ncoup);
	qubo__sink_put(s, line, len);
	for (i = 0; i < n; i++) {
		if (m->h[i] == 0.0)
			continue;
		len = qubo__number_u64(line, i);
		line[len++] = ' ';
		len += qubo__number_u64(line + len, i);
		line[len++] = ' ';
		len += qubo__number_format(line + len, m->h[i]);
		line[len++] = '\n';
		qubo__sink_put(s, line, len);
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
			qubo__sink_put(s, line, len);
		}
	}
}

int qubo_qbsolv_write(const qubo_model *model, char *buffer, size_t capacity,
		      size_t *length_out)
{
	static const char fn[] = "qubo_qbsolv_write";
	qubo__sink s;
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
	qubo__sink_buffer(&s, buffer, capacity);
	emit(model, &s);
	return qubo__sink_finish(&s, fn, "text", length_out);
}

int qubo_qbsolv_write_file(const qubo_model *model, const char *path)
{
	static const char fn[] = "qubo_qbsolv_write_file";
	char eb[128];
	qubo__sink s;
	int rc;

	if ((rc = qubo__model_require_compiled(model, fn)))
		return rc;
	if (!path)
		return qubo__error(QUBO_ERR_MISUSE, "%s: path is NULL", fn);
	if ((rc = qubo__c_locale(fn)))
		return rc;
	if ((rc = qubo__sink_file(&s, &model->alloc)))
		return rc;
	s.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (s.fd < 0) {
		int err = errno;

		qubo__sink_close(&s, &model->alloc);
		return qubo__error(QUBO_ERR_IO, "%s: cannot open '%s' for writing: %s", fn,
				   path, qubo__errstr(err, eb, sizeof eb));
	}
	emit(model, &s);
	s.err = qubo__sink_close(&s, &model->alloc);
	if (close(s.fd) != 0 && !s.err)
		s.err = errno;
	if (s.err)
		return qubo__error(QUBO_ERR_IO, "%s: cannot write '%s': %s", fn, path,
				   qubo__errstr(s.err, eb, sizeof eb));
	return QUBO_OK;
}
