/*
 * libFuzzer target for the qbsolv reader and writer.
 *
 * Any input: the reader must return a status without crashing; on failure
 * out stays NULL, the message is set, and a parse error names a line and
 * column inside the input. When the input parses, the model is written,
 * read back and must be identical bit for bit (variables, offset, linear
 * terms, couplers), and writing it again must give the same text. A
 * mismatch aborts (allowed here, never in the library).
 *
 * Allocations go through an allocator that refuses blocks above 64 MiB, so
 * huge declared sizes (maxNodes up to 2^31) exercise the out-of-memory
 * path instead of libFuzzer's malloc limit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo.h>

#define FUZZ_ALLOC_LIMIT ((size_t)64 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void *lim_malloc(size_t size, void *ud)
{
	(void)ud;
	return size > FUZZ_ALLOC_LIMIT ? NULL : malloc(size);
}

static void *lim_realloc(void *ptr, size_t size, void *ud)
{
	(void)ud;
	return size > FUZZ_ALLOC_LIMIT ? NULL : realloc(ptr, size);
}

static void lim_free(void *ptr, void *ud)
{
	(void)ud;
	free(ptr);
}

static const qubo_allocator lim = {sizeof(qubo_allocator), lim_malloc, lim_realloc, lim_free,
				   NULL};

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_qbsolv: check failed: %s (%s)\n", what,
			qubo_error_message());
		abort();
	}
}

/* A parse error's position lies inside the input (or just past its end). */
static void check_position(const char *s, size_t n)
{
	size_t line = qubo_error_line(), col = qubo_error_column(), l = 1, i = 0, len;

	check(line >= 1 && col >= 1, "parse error without a position");
	while (l < line) {
		const char *nl = memchr(s + i, '\n', n - i);

		check(nl != NULL, "error line beyond the input");
		i = (size_t)(nl - s) + 1;
		l++;
	}
	len = 0;
	while (i + len < n && s[i + len] != '\n')
		len++;
	check(col <= len + 1, "error column beyond its line");
}

static char *write_all(const qubo_model *m, size_t *len_out)
{
	size_t len = 0, len2 = 0;
	char *buf;
	int rc = qubo_qbsolv_write(m, NULL, 0, &len);

	check(rc == QUBO_OK && len > 0, "size query");
	buf = malloc(len + 1);
	check(buf != NULL, "malloc");
	rc = qubo_qbsolv_write(m, buf, len + 1, &len2);
	check(rc == QUBO_OK && len2 == len && buf[len] == '\0', "write");
	*len_out = len;
	return buf;
}

static void compare(const qubo_model *a, const qubo_model *b)
{
	size_t n = qubo_model_num_variables(a), na = 0, nb = 0;
	double oa = qubo_model_offset(a), ob = qubo_model_offset(b);
	double *ha, *hb, *wa, *wb;
	uint32_t *ra, *rb, *ca, *cb;

	check(qubo_model_num_variables(b) == n, "variables differ");
	check(memcmp(&oa, &ob, sizeof oa) == 0, "offset differs");
	ha = malloc((n + 1) * sizeof *ha);
	hb = malloc((n + 1) * sizeof *hb);
	check(ha && hb, "malloc");
	check(qubo_model_export_linear(a, ha, n) == QUBO_OK, "export_linear");
	check(qubo_model_export_linear(b, hb, n) == QUBO_OK, "export_linear");
	check(memcmp(ha, hb, n * sizeof *ha) == 0, "linear terms differ");
	free(ha);
	free(hb);
	qubo_model_export_coo(a, NULL, NULL, NULL, 0, &na);
	qubo_model_export_coo(b, NULL, NULL, NULL, 0, &nb);
	check(na == nb, "coupler counts differ");
	ra = malloc((na + 1) * sizeof *ra);
	rb = malloc((na + 1) * sizeof *rb);
	ca = malloc((na + 1) * sizeof *ca);
	cb = malloc((na + 1) * sizeof *cb);
	wa = malloc((na + 1) * sizeof *wa);
	wb = malloc((na + 1) * sizeof *wb);
	check(ra && rb && ca && cb && wa && wb, "malloc");
	check(qubo_model_export_coo(a, ra, ca, wa, na, &na) == QUBO_OK, "export_coo");
	check(qubo_model_export_coo(b, rb, cb, wb, nb, &nb) == QUBO_OK, "export_coo");
	check(memcmp(ra, rb, na * sizeof *ra) == 0, "coupler rows differ");
	check(memcmp(ca, cb, na * sizeof *ca) == 0, "coupler columns differ");
	check(memcmp(wa, wb, na * sizeof *wa) == 0, "coupler weights differ");
	free(ra);
	free(rb);
	free(ca);
	free(cb);
	free(wa);
	free(wb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	qubo_model *m = NULL, *back = NULL;
	char *out, *out2;
	size_t len, len2;
	int rc;

	rc = qubo_qbsolv_read(&m, text, size, &lim);
	if (rc != QUBO_OK) {
		check(m == NULL, "out set on failure");
		check(qubo_error_message()[0] != '\0', "empty message");
		check(qubo_error_code() == rc, "error code");
		if (rc == QUBO_ERR_PARSE || rc == QUBO_ERR_TOO_LARGE)
			check_position(text, size);
		else
			check(rc == QUBO_ERR_NOMEM, "unexpected status");
		return 0;
	}
	check(m != NULL && qubo_model_is_compiled(m), "model not compiled");
	out = write_all(m, &len);
	rc = qubo_qbsolv_read(&back, out, len, &lim);
	if (rc == QUBO_ERR_NOMEM) { /* the limit allocator, not a bug */
		free(out);
		qubo_model_free(m);
		return 0;
	}
	check(rc == QUBO_OK, "written text does not read back");
	compare(m, back);
	out2 = write_all(back, &len2);
	check(len2 == len && memcmp(out, out2, len) == 0, "rewritten text differs");
	free(out);
	free(out2);
	qubo_model_free(back);
	qubo_model_free(m);
	return 0;
}
