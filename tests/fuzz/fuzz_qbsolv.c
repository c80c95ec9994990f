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
 * Allocations go through an allocator that refuses blocks above 64 MiB
 * (fuzz_common.h), so huge declared sizes (maxNodes up to 2^31) exercise
 * the out-of-memory path instead of libFuzzer's malloc limit.
 *
 * With FUZZ_QBSOLV_CAPS (fuzz_qbsolv_caps.c), the reader runs under tight
 * limits taken from the input's first three bytes: at most 1 to 64
 * variables, 1 to 128 couplers, and (unless the byte is 0) 16 to 4080
 * bytes of input. A model read must keep within them, a refusal by size
 * names the input's size or the header's position, and the written model
 * reads back under the same limits (the input-size one aside: the written
 * text may be longer).
 */
#ifndef FUZZ_NAME
#define FUZZ_NAME "fuzz_qbsolv"
#endif
#include "fuzz_common.h"

static qubo_qbsolv_options caps = QUBO_QBSOLV_OPTIONS_INIT;

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

static int read_model(qubo_model **m, const char *text, size_t size)
{
	return qubo_qbsolv_read_ex(m, text, size, &caps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	qubo_model *m = NULL, *back = NULL;
	char *out, *out2;
	size_t len, len2;
	int rc;

	caps.allocator = &fuzz_alloc;
#ifdef FUZZ_QBSOLV_CAPS
	if (size < 3)
		return 0;
	caps.max_variables = 1 + (size_t)data[0] % 64;
	caps.max_couplers = 1 + (size_t)data[1] % 128;
	caps.max_input_bytes = 16 * (size_t)data[2];
	text += 3;
	size -= 3;
#endif
	rc = read_model(&m, text, size);
	if (rc != QUBO_OK) {
		check(m == NULL, "out set on failure");
		check_failure(rc);
		if (rc == QUBO_ERR_TOO_LARGE && caps.max_input_bytes && size > caps.max_input_bytes &&
		    !qubo_error_line())
			return 0; /* refused by its size, before any line is read */
		if (rc == QUBO_ERR_PARSE || rc == QUBO_ERR_TOO_LARGE)
			check_position(text, size);
		else
			check(rc == QUBO_ERR_NOMEM, "unexpected status");
		return 0;
	}
	check(m != NULL && qubo_model_is_compiled(m), "model not compiled");
	if (caps.max_variables) {
		size_t nc = 0;

		check(qubo_model_num_variables(m) <= caps.max_variables,
		      "more variables than the limit");
		qubo_model_export_coo(m, NULL, NULL, NULL, 0, &nc);
		check(nc <= caps.max_couplers, "more couplers than the limit");
	}
	caps.max_input_bytes = 0;
	out = write_all(m, &len);
	rc = read_model(&back, out, len);
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
