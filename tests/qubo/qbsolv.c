/*
 * The qbsolv format: round trips of random models are bit-identical, every
 * malformation is rejected with its status and line:column, numbers are read
 * exactly and independently of the locale, and failures leak nothing.
 *
 * The referees: the model the text was written from (round trips), the C
 * library's strtod in the C locale (number parsing) and hand-computed
 * positions (the malformed-file table).
 */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_qbsolv_read(_file), until they are removed */
#include <criterion/criterion.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* ------------------------------------------------------------------ */
/* Helpers. */

/* Positive zero for either zero: signed zeros are not carried by the format
 * (zero linear terms and a zero offset are not written). */
static double unsign_zero(double x)
{
	return x == 0.0 ? 0.0 : x;
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static void tmp_path(char *buf, size_t size, const char *tag)
{
	static unsigned counter;
	const char *dir = getenv("QUBO_TEST_TMPDIR");

	snprintf(buf, size, "%s/qbsolv-test-%ld-%u-%s.qubo", dir ? dir : "/tmp", (long)getpid(),
		 counter++, tag);
}

/* The whole text of a model; the caller frees it. */
static char *write_text(const qubo_model *m, size_t *len_out)
{
	size_t len = 0, len2 = 0;
	char *buf;
	int rc = qubo_qbsolv_write(m, NULL, 0, &len);

	cr_assert_eq(rc, QUBO_OK, "size query: %s", qubo_error_message());
	buf = malloc(len + 1);
	cr_assert_not_null(buf);
	rc = qubo_qbsolv_write(m, buf, len + 1, &len2);
	cr_assert_eq(rc, QUBO_OK, "write: %s", qubo_error_message());
	cr_assert_eq(len2, len);
	cr_assert_eq(strlen(buf), len);
	if (len_out)
		*len_out = len;
	return buf;
}

static qubo_model *read_text(const char *text, size_t len)
{
	qubo_model *m = NULL;
	int rc = qubo_qbsolv_read(&m, text, len, NULL);

	cr_assert_eq(rc, QUBO_OK, "read failed: %s\n--- text ---\n%.*s", qubo_error_message(),
		     (int)(len > 2000 ? 2000 : len), text);
	cr_assert_not_null(m);
	cr_assert(qubo_model_is_compiled(m));
	return m;
}

static qubo_model *read_str(const char *text)
{
	return read_text(text, strlen(text));
}

/* Asserts a and b have the same variables, linear terms, couplers and
 * offset, bit for bit (zeros compared without sign). */
static void expect_same(const qubo_model *a, const qubo_model *b, const char *ctx)
{
	size_t n = qubo_model_num_variables(a), na = 0, nb = 0, k;
	double *ha, *hb, *wa, *wb;
	uint32_t *ra, *ca, *rb, *cb;

	cr_assert_eq(qubo_model_num_variables(b), n, "%s: variables %zu vs %zu", ctx, n,
		     qubo_model_num_variables(b));
	cr_assert(same_bits(unsign_zero(qubo_model_offset(a)), unsign_zero(qubo_model_offset(b))),
		  "%s: offset %.17g vs %.17g", ctx, qubo_model_offset(a), qubo_model_offset(b));
	cr_assert_eq(qubo_model_num_groups(b), qubo_model_num_groups(a), "%s: groups", ctx);
	for (k = 0; k < qubo_model_num_groups(a); k++) {
		uint32_t fa, ca2, fb, cb2;
		cr_assert_eq(qubo_model_get_group(a, k, &fa, &ca2), QUBO_OK);
		cr_assert_eq(qubo_model_get_group(b, k, &fb, &cb2), QUBO_OK);
		cr_assert(fa == fb && ca2 == cb2, "%s: group %zu", ctx, k);
	}
	ha = calloc(n + 1, sizeof *ha);
	hb = calloc(n + 1, sizeof *hb);
	cr_assert_eq(qubo_model_export_linear(a, ha, n), QUBO_OK);
	cr_assert_eq(qubo_model_export_linear(b, hb, n), QUBO_OK);
	for (k = 0; k < n; k++)
		cr_assert(same_bits(unsign_zero(ha[k]), unsign_zero(hb[k])),
			  "%s: h[%zu] %a vs %a", ctx, k, ha[k], hb[k]);
	qubo_model_export_coo(a, NULL, NULL, NULL, 0, &na);
	qubo_model_export_coo(b, NULL, NULL, NULL, 0, &nb);
	cr_assert_eq(na, nb, "%s: couplers %zu vs %zu", ctx, na, nb);
	ra = malloc((na + 1) * sizeof *ra);
	ca = malloc((na + 1) * sizeof *ca);
	wa = malloc((na + 1) * sizeof *wa);
	rb = malloc((na + 1) * sizeof *rb);
	cb = malloc((na + 1) * sizeof *cb);
	wb = malloc((na + 1) * sizeof *wb);
	cr_assert_eq(qubo_model_export_coo(a, ra, ca, wa, na, &na), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(b, rb, cb, wb, nb, &nb), QUBO_OK);
	cr_assert(memcmp(ra, rb, na * sizeof *ra) == 0, "%s: coupler rows differ", ctx);
	cr_assert(memcmp(ca, cb, na * sizeof *ca) == 0, "%s: coupler columns differ", ctx);
	for (k = 0; k < na; k++)
		cr_assert(same_bits(wa[k], wb[k]), "%s: J(%u,%u) %a vs %a", ctx, ra[k], ca[k],
			  wa[k], wb[k]);
	free(ha);
	free(hb);
	free(ra);
	free(ca);
	free(wa);
	free(rb);
	free(cb);
	free(wb);
}

static double get_linear(const qubo_model *m, uint32_t v)
{
	size_t n = qubo_model_num_variables(m);
	double *h = calloc(n + 1, sizeof *h), x;

	cr_assert_eq(qubo_model_export_linear(m, h, n), QUBO_OK);
	cr_assert_lt(v, n);
	x = h[v];
	free(h);
	return x;
}

static double get_coupler(const qubo_model *m, uint32_t i, uint32_t j)
{
	double w = -1.0;

	cr_assert_eq(qubo_model_get_quadratic(m, i, j, &w), QUBO_OK, "%s", qubo_error_message());
	return w;
}

static size_t num_couplers(const qubo_model *m)
{
	size_t n = 0;

	qubo_model_export_coo(m, NULL, NULL, NULL, 0, &n);
	return n;
}

/* The largest magnitude of the random weights: a few thousand of them stay
 * below the weight sum's limit (QUBO_MODEL_MAX_WEIGHT_SUM, about 1.07e301),
 * above which the reader refuses a file. */
#define BIG 1e296

/* A weight from a mix of the awkward cases. */
static double rnd_weight(tu_rng *r)
{
	uint64_t bits;
	double x;

	switch (tu_below(r, 13)) {
	case 0:
		return (double)tu_range(r, -100, 100);
	case 1:
		return 0.1 * (double)tu_range(r, -9, 9);
	case 2:
		return tu_below(r, 2) ? 0.1 : -0.3;
	case 3: /* BIG, and a full mantissa just below it */
		return tu_below(r, 2) ? BIG : -0x1.fffffffffffffp981;
	case 4: /* subnormal */
		bits = (tu_next(r) & ((UINT64_C(1) << 52) - 1)) | 1u;
		bits |= tu_below(r, 2) ? UINT64_C(1) << 63 : 0;
		memcpy(&x, &bits, sizeof x);
		return x;
	case 5:
		return tu_below(r, 2) ? 4.9406564584124654e-324 : -2.2250738585072014e-308;
	case 6: /* any finite bit pattern up to BIG */
		do {
			bits = tu_next(r);
			memcpy(&x, &bits, sizeof x);
		} while (x - x != 0.0 || fabs(x) > BIG);
		return x;
	case 7:
		return tu_unit(r) * 2.0 - 1.0;
	case 8: /* integers beyond 2^53 */
		return (double)(int64_t)tu_next(r);
	case 9:
		return -0.0;
	case 10:
		return 1e-300 * tu_unit(r);
	case 11:
		return (tu_unit(r) - 0.5) * 1e6;
	default:
		return (double)tu_range(r, -3, 3) / 3.0;
	}
}

/* A random compiled model with distinct pairs (so no sum can overflow). */
static qubo_model *random_model(tu_rng *r)
{
	size_t n, i, j;
	uint64_t pct;
	qubo_model *m = NULL;

	n = tu_below(r, 10) == 0 ? (size_t)tu_range(r, 100, 300) : (size_t)tu_below(r, 41);
	switch (tu_below(r, 4)) {
	case 0:
		pct = 0;
		break;
	case 1:
		pct = n > 50 ? 5 : 70; /* dense */
		break;
	default:
		pct = n > 50 ? 1 : 15; /* sparse */
		break;
	}
	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++)
		if (tu_below(r, 2))
			cr_assert_eq(qubo_model_add_linear(m, (uint32_t)i, rnd_weight(r)), QUBO_OK);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (tu_below(r, 100) < pct)
				cr_assert_eq(qubo_model_add_quadratic(m, (uint32_t)i, (uint32_t)j,
								      rnd_weight(r)),
					     QUBO_OK);
	if (tu_below(r, 4))
		cr_assert_eq(qubo_model_add_offset(m, rnd_weight(r)), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	/* sometimes groups, added from the last variable down */
	for (j = n; j > 0 && tu_below(r, 3) == 0;) {
		size_t cnt = 1 + (size_t)tu_below(r, 3);
		if (cnt > j)
			break;
		j -= cnt + (size_t)tu_below(r, 2);
		if (j > n)
			break;
		cr_assert_eq(qubo_model_add_group(m, (uint32_t)j, (uint32_t)cnt), QUBO_OK);
	}
	return m;
}

/* ------------------------------------------------------------------ */
/* Round trips. */

Test(qbsolv, random_models_round_trip_bit_identical)
{
	tu_rng r = {20261122};
	int t;

	for (t = 0; t < 150; t++) {
		qubo_model *m = random_model(&r), *back;
		char ctx[64], *text, *text2;
		size_t len, len2;

		snprintf(ctx, sizeof ctx, "model %d", t);
		text = write_text(m, &len);
		back = read_text(text, len);
		expect_same(m, back, ctx);
		/* writing what was read gives the same text */
		text2 = write_text(back, &len2);
		cr_assert_eq(len2, len, "%s: rewritten length", ctx);
		cr_assert(memcmp(text, text2, len) == 0, "%s: rewritten text differs", ctx);
		free(text);
		free(text2);
		qubo_model_free(back);
		qubo_model_free(m);
	}
}

/* Groups travel in `c group` lines: written in order after the offset, read
 * back wherever they stand, and lines that only look alike are comments. */
Test(qbsolv, groups_round_trip)
{
	static const char text[] = "c group 4 2\np qubo 0 8 1 1\n0 0 1\nc group 0 3\n0 1 -2\n"
				   "c groups 5 1\nc group: 6 1\n  c group 7 1\n";
	static const uint32_t want[][2] = { { 0, 3 }, { 4, 2 }, { 7, 1 } };
	qubo_model *m = read_str(text), *back;
	char *out;
	size_t len, k;

	cr_assert_eq(qubo_model_num_groups(m), 3);
	for (k = 0; k < 3; k++) {
		uint32_t first, count;
		cr_assert_eq(qubo_model_get_group(m, k, &first, &count), QUBO_OK);
		cr_assert(first == want[k][0] && count == want[k][1], "group %zu: %u %u", k, first,
			  count);
	}
	out = write_text(m, &len);
	cr_assert(strstr(out, "c group 0 3\nc group 4 2\nc group 7 1\np qubo 0 8 1 1\n"), "%s",
		  out);
	back = read_text(out, len);
	cr_assert_eq(qubo_model_num_groups(back), 3);
	expect_same(m, back, "groups");
	free(out);
	qubo_model_free(back);
	qubo_model_free(m);
}

Test(qbsolv, random_models_round_trip_through_files)
{
	tu_rng r = {777};
	char path[512];
	int t;

	for (t = 0; t < 40; t++) {
		qubo_model *m = random_model(&r), *back = NULL;
		char ctx[64], *text, *ftext;
		size_t len;
		FILE *f;
		long flen;

		snprintf(ctx, sizeof ctx, "file model %d", t);
		tmp_path(path, sizeof path, "rt");
		cr_assert_eq(qubo_qbsolv_write_file(m, path), QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(qubo_qbsolv_read_file(&back, path, NULL), QUBO_OK, "%s",
			     qubo_error_message());
		expect_same(m, back, ctx);
		/* the file holds exactly the buffer's text */
		text = write_text(m, &len);
		f = fopen(path, "rb");
		cr_assert_not_null(f);
		fseek(f, 0, SEEK_END);
		flen = ftell(f);
		rewind(f);
		cr_assert_eq((size_t)flen, len, "%s: file has %ld bytes, text %zu", ctx, flen, len);
		ftext = malloc(len + 1);
		cr_assert_eq(fread(ftext, 1, len, f), len);
		fclose(f);
		cr_assert(memcmp(ftext, text, len) == 0, "%s: file differs from buffer", ctx);
		free(ftext);
		free(text);
		remove(path);
		qubo_model_free(back);
		qubo_model_free(m);
	}
}

Test(qbsolv, writes_the_documented_layout)
{
	static const char expected[] =
		"c qbsolv QUBO written by libqubo: 4 variables, 2 linear terms, 3 couplers\n"
		"c offset 0.25\n"
		"p qubo 0 4 2 3\n"
		"0 0 1.5\n"
		"2 2 -2\n"
		"0 1 0.1\n"
		"0 3 -7\n"
		"1 2 3e+100\n";
	qubo_model *m = NULL;
	char *text;
	size_t len;

	cr_assert_eq(qubo_model_new(&m, 4, NULL), QUBO_OK);
	qubo_model_add_linear(m, 2, -2.0);
	qubo_model_add_linear(m, 0, 1.5);
	qubo_model_add_quadratic(m, 2, 1, 3e100);
	qubo_model_add_quadratic(m, 3, 0, -7.0);
	qubo_model_add_quadratic(m, 0, 1, 0.1);
	qubo_model_add_offset(m, 0.25);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	text = write_text(m, &len);
	cr_assert_str_eq(text, expected);
	free(text);
	qubo_model_free(m);
}

Test(qbsolv, zero_offset_and_empty_model)
{
	qubo_model *m = NULL, *back;
	char *text;

	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	text = write_text(m, NULL);
	cr_assert_str_eq(text, "c qbsolv QUBO written by libqubo: 0 variables, 0 linear terms, "
			       "0 couplers\np qubo 0 0 0 0\n");
	back = read_str(text);
	cr_assert_eq(qubo_model_num_variables(back), 0);
	free(text);
	qubo_model_free(back);
	qubo_model_free(m);
}

/* The shortest digits in %.17g's layout; the extremes through printf. */
Test(qbsolv, weights_use_the_shortest_round_trip_form)
{
	static const struct {
		double w;
		const char *text;
	} cases[] = {
		{0.1, "0.1"},
		{-0.3, "-0.3"},
		{1.0 / 3.0, "0.3333333333333333"},
		{0.30000000000000004, "0.30000000000000004"},
		{1e308, "1e+308"},
		{-1.7976931348623157e308, "-1.7976931348623157e+308"},
		{4.9406564584124654e-324, "4.94065645841247e-324"},
		{2.5, "2.5"},
		{-42.0, "-42"},
		{9007199254740991.0, "9007199254740991"},
		{9007199254740992.0, "9007199254740992"},
		{1e22, "1e+22"},
		{123456789.125, "123456789.125"},
		{1e-5, "1e-05"},
		{0.001, "0.001"},
		{-1.5e-10, "-1.5e-10"},
		{1e16 + 2, "10000000000000002"},
		{1.5e17, "1.5e+17"},
		{123.456, "123.456"},
		{0x1p-60, "8.673617379884035e-19"},
		{5e-310, "4.99999999999998e-310"},
	};
	size_t k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		qubo_model *m = NULL;
		char *text, expect[128];

		cr_assert_eq(qubo_model_new(&m, 1, NULL), QUBO_OK);
		qubo_model_add_linear(m, 0, cases[k].w);
		qubo_model_compile(m);
		text = write_text(m, NULL);
		snprintf(expect, sizeof expect, "p qubo 0 1 1 0\n0 0 %s\n", cases[k].text);
		cr_assert(strstr(text, expect) != NULL, "%.17g: got\n%s", cases[k].w, text);
		free(text);
		qubo_model_free(m);
	}
}

/* Significant digits of a written weight: the mantissa's digits without
 * leading and trailing zeros. */
static int sig_digits(const char *t)
{
	int n = 0, zeros = 0, started = 0;

	for (; *t && *t != 'e' && *t != '\n'; t++) {
		if (*t < '0' || *t > '9')
			continue;
		if (*t == '0') {
			if (started)
				zeros++;
			continue;
		}
		started = 1;
		n += zeros + 1;
		zeros = 0;
	}
	return n;
}

/* The referee: the fewest significant digits p for which the correctly
 * rounded p-digit decimal (%.{p-1}e) reads back as w. */
static int brute_shortest(double w)
{
	char b[64];
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(b, sizeof b, "%.*e", p - 1, w);
		if (strtod(b, NULL) == w)
			return p;
	}
	return 17;
}

Test(qbsolv, weights_are_shortest_by_brute_force)
{
	enum { N = 4000 };
	tu_rng r = {99};
	qubo_model *m = NULL, *back;
	double *w = malloc(N * sizeof *w), *h = malloc(N * sizeof *h);
	char *text, *line;
	size_t k;

	cr_assert_eq(qubo_model_new(&m, N, NULL), QUBO_OK);
	for (k = 0; k < N; k++) {
		uint64_t bits = tu_next(&r) & ((UINT64_C(1) << 52) - 1);
		int be;

		switch (tu_below(&r, 4)) {
		case 0: /* anywhere up to 2^983 (about BIG), subnormals included */
			be = (int)tu_below(&r, 1023 + 983);
			break;
		case 1: /* short decimals */
			w[k] = (double)tu_range(&r, -99999, 99999) / 1000.0;
			goto have;
		default: /* the usual magnitudes, 1e-21 .. 1e36 */
			be = 1023 + (int)tu_range(&r, -70, 120);
			break;
		}
		bits |= (uint64_t)be << 52;
		bits |= tu_below(&r, 2) ? UINT64_C(1) << 63 : 0;
		memcpy(&w[k], &bits, sizeof bits);
have:
		if (w[k] == 0.0)
			w[k] = 0.5;
		cr_assert_eq(qubo_model_add_linear(m, (uint32_t)k, w[k]), QUBO_OK);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	text = write_text(m, NULL);
	back = read_str(text);
	cr_assert_eq(qubo_model_export_linear(back, h, N), QUBO_OK);
	line = strstr(text, "\np qubo") + 1;
	for (k = 0; k < N; k++) {
		double a = fabs(w[k]);
		char *t;

		cr_assert(same_bits(h[k], w[k]), "%a read back as %a", w[k], h[k]);
		line = strchr(line, '\n') + 1;
		t = strchr(strchr(line, ' ') + 1, ' ') + 1; /* the weight */
		/* exact shortest digits in this range, printf's beyond it */
		if (a >= 1e-20 && a <= 1e35)
			cr_assert_leq(sig_digits(t), brute_shortest(w[k]), "%a written as %.*s",
				      w[k], (int)(strchr(t, '\n') - t), t);
		else
			cr_assert_leq(sig_digits(t), 17);
	}
	free(text);
	free(w);
	free(h);
	qubo_model_free(back);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* What the reader accepts. */

Test(qbsolv, accepts_comments_blank_lines_crlf_and_spacing)
{
	static const char text[] =
		"c leading comment\r\n"
		"\r\n"
		"comment without a space is a comment too\n"
		"  \t\n"
		"  p\tqubo  0 4 2 2   \r\n"
		"c between\n"
		"\t0 0 +1.5\t\r\n"
		"\n"
		"c offset -2.5\n"
		"  3   3  .5  \n"
		"c  offsetX 7 is just a comment\n"
		"cx\n"
		"0 3 5.\r\n"
		"c\n"
		"0002 003 1E+2\r"; /* last line: leading zeros, a final CR, no LF */
	qubo_model *m = read_str(text);

	cr_assert_eq(qubo_model_num_variables(m), 4);
	cr_assert_eq(get_linear(m, 0), 1.5);
	cr_assert_eq(get_linear(m, 1), 0.0);
	cr_assert_eq(get_linear(m, 3), 0.5);
	cr_assert_eq(get_coupler(m, 0, 3), 5.0);
	cr_assert_eq(get_coupler(m, 2, 3), 100.0);
	cr_assert_eq(num_couplers(m), 2);
	cr_assert_eq(qubo_model_offset(m), -2.5);
	qubo_model_free(m);
}

Test(qbsolv, accepts_unconstrained_topology_and_zero_counts)
{
	qubo_model *m = read_str("p qubo unconstrained 5 0 0");

	cr_assert_eq(qubo_model_num_variables(m), 5);
	cr_assert_eq(num_couplers(m), 0);
	qubo_model_free(m);
}

Test(qbsolv, duplicates_are_summed)
{
	qubo_model *m = read_str("c offset 1\n"
				 "p qubo 0 3 3 4\n"
				 "c offset 2.5\n"
				 "0 0 1\n"
				 "0 0 2\n"
				 "2 2 -1\n"
				 "0 1 1.5\n"
				 "1 2 4\n"
				 "0 1 2.5\n"
				 "1 2 -4\n"
				 "c offset -0.25\n");

	cr_assert_eq(get_linear(m, 0), 3.0);
	cr_assert_eq(get_linear(m, 2), -1.0);
	cr_assert_eq(get_coupler(m, 0, 1), 4.0);
	/* a sum of exactly zero drops the coupler */
	cr_assert_eq(get_coupler(m, 1, 2), 0.0);
	cr_assert_eq(num_couplers(m), 1);
	cr_assert_eq(qubo_model_offset(m), 3.25);
	qubo_model_free(m);
}

/* Random decimal strings, short and long, read exactly as strtod does in
 * the C locale (the test runs in the C locale). */
/* A random decimal of up to 21 + 21 digits, with a sign, leading zeros
 * and an exponent or not, that strtod() reads as a finite value. */
static void random_decimal(tu_rng *r, char *num)
{
	char *q = num;
	int id = (int)tu_below(r, 22), fd = (int)tu_below(r, 22), i;
	double v;

	if (tu_below(r, 2))
		*q++ = tu_below(r, 2) ? '-' : '+';
	if (id + fd == 0)
		id = 1;
	for (i = 0; i < id; i++)
		*q++ = (char)('0' + (i == 0 && tu_below(r, 3) ? 0 : tu_below(r, 10)));
	if (fd || tu_below(r, 4) == 0)
		*q++ = '.';
	for (i = 0; i < fd; i++)
		*q++ = (char)('0' + tu_below(r, 10));
	if (tu_below(r, 2))
		q += sprintf(q, "%c%s%d", tu_below(r, 2) ? 'e' : 'E',
			     tu_below(r, 2) ? "-" : (tu_below(r, 2) ? "+" : ""),
			     (int)tu_below(r, tu_below(r, 2) ? 30 : 330));
	*q = '\0';
	v = strtod(num, NULL);
	if (!(fabs(v) <= BIG)) /* overflow or beyond BIG: a plain number instead */
		strcpy(num, "1.5");
}

Test(qbsolv, numbers_are_read_exactly)
{
	enum { N = 6000 };
	tu_rng r = {42};
	static char num[N][96];
	char *text, *p;
	size_t k, len;
	qubo_model *m;
	double *h;

	text = malloc((size_t)N * 128 + 64);
	p = text + sprintf(text, "p qubo 0 %d %d 0\n", N, N);
	for (k = 0; k < N; k++) {
		random_decimal(&r, num[k]);
		p += sprintf(p, "%zu %zu %s\n", k, k, num[k]);
	}
	len = (size_t)(p - text);
	m = read_text(text, len);
	h = malloc(N * sizeof *h);
	cr_assert_eq(qubo_model_export_linear(m, h, N), QUBO_OK);
	for (k = 0; k < N; k++) {
		double expect = 0.0 + strtod(num[k], NULL);

		cr_assert(same_bits(h[k], expect), "'%s': read %a, strtod %a", num[k], h[k],
			  expect);
	}
	free(h);
	free(text);
	qubo_model_free(m);
}

/* The same numbers as coupler weights, which after the first line the
 * reader scans its own way (short decimals without the general parse). */
Test(qbsolv, coupler_weights_are_read_exactly)
{
	enum { N = 6000 };
	tu_rng r = {43};
	static char num[N][96];
	static uint32_t ri[N], ci[N];
	static double w[N];
	char *text, *p;
	size_t k, len, cnt, nz = 0;
	qubo_model *m;

	text = malloc((size_t)N * 128 + 64);
	p = text + sprintf(text, "p qubo 0 %d 0 %d\n", N + 1, N);
	for (k = 0; k < N; k++) {
		random_decimal(&r, num[k]);
		if (k % 5 == 0) /* short decimals, the usual case */
			sprintf(num[k], "%s%u.%0*u", tu_below(&r, 2) ? "-" : "",
				(unsigned)tu_below(&r, 100), (int)(k % 7),
				(unsigned)tu_below(&r, 9999));
		p += sprintf(p, "0 %zu %s\n", k + 1, num[k]);
	}
	len = (size_t)(p - text);
	m = read_text(text, len);
	cr_assert_eq(qubo_model_export_coo(m, ri, ci, w, N, &cnt), QUBO_OK);
	for (k = 0; k < N; k++) {
		double expect = strtod(num[k], NULL);

		if (expect == 0.0)
			continue; /* no coupler */
		cr_assert(nz < cnt && ci[nz] == k + 1, "'%s': missing", num[k]);
		cr_assert(same_bits(w[nz], expect), "'%s': read %a, strtod %a", num[k], w[nz],
			  expect);
		nz++;
	}
	cr_assert_eq(nz, cnt);
	free(text);
	qubo_model_free(m);
}

Test(qbsolv, long_numbers_are_read_exactly)
{
	char text[2048], *p;
	qubo_model *m;
	int i;

	p = text + sprintf(text, "p qubo 0 3 3 0\n0 0 0.");
	for (i = 0; i < 300; i++)
		*p++ = '0';
	p += sprintf(p, "125\n1 1 ");
	for (i = 0; i < 400; i++)
		*p++ = (char)('1' + i % 9);
	p += sprintf(p, "e-100\n2 2 ");
	for (i = 0; i < 200; i++)
		*p++ = '9';
	*p = '\0'; /* last token at the very end of the input, no newline */
	m = read_text(text, strlen(text));
	{
		char b[1024];
		const char *s2 = strstr(text, "\n1 1 ") + 5;
		const char *s3 = strstr(text, "\n2 2 ") + 5;

		cr_assert_eq(get_linear(m, 0), 1.25e-301);
		memcpy(b, s2, 405);
		b[405] = '\0';
		cr_assert(same_bits(get_linear(m, 1), strtod(b, NULL)));
		cr_assert(same_bits(get_linear(m, 2), strtod(s3, NULL)));
	}
	qubo_model_free(m);
}

/* Exponents of any length, and long fractions that cancel them. */
Test(qbsolv, huge_exponents_are_exact)
{
	size_t cap = 120000;
	char *text = malloc(cap), *p;
	qubo_model *m;
	int rc;

	/* 10^-100006 · 10^100010 */
	p = text + sprintf(text, "p qubo 0 4 4 0\n0 0 0.");
	memset(p, '0', 100005);
	p += 100005;
	p += sprintf(p, "1e100010\n1 1 1e-99999999999999999999\n2 2 -0e999999999999\n"
			"3 3 12345678901234567890123e-00000000000000000000000000000020\n");
	m = read_text(text, (size_t)(p - text));
	cr_assert_eq(get_linear(m, 0), 1e4);
	cr_assert_eq(get_linear(m, 1), 0.0);
	cr_assert_eq(get_linear(m, 2), 0.0);
	cr_assert_eq(get_linear(m, 3), 123.45678901234567890123);
	qubo_model_free(m);
	m = (qubo_model *)&m;
	rc = qubo_qbsolv_read(&m, "p qubo 0 1 1 0\n0 0 1e99999999999999999999\n", 42, NULL);
	cr_assert_eq(rc, QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 2);
	cr_assert_eq(qubo_error_column(), 5);
	cr_assert_null(m);
	/* 10^-100000 · 10^1000000 overflows, however long the exponent */
	p = text + sprintf(text, "p qubo 0 1 1 0\n0 0 0.");
	memset(p, '0', 99999);
	p += 99999;
	p += sprintf(p, "1e1000000\n");
	rc = qubo_qbsolv_read(&m, text, (size_t)(p - text), NULL);
	cr_assert_eq(rc, QUBO_ERR_PARSE, "%s", qubo_error_message());
	cr_assert_eq(qubo_error_column(), 5);
	free(text);
}

/* A decimal comma locale (tu_set_comma_locale()) must change nothing. */
Test(qbsolv, independent_of_the_decimal_comma_locale)
{
	qubo_model *m = NULL, *back;
	char *text;
	size_t k;
	int rc;

	if (!tu_set_comma_locale())
		cr_skip_test("no locale with a decimal comma (de_DE.UTF-8) is available");
	back = read_str("c offset 0.25\np qubo 0 2 1 1\n0 0 0.5\n0 1 -1.25e-3\n");
	cr_assert_eq(get_linear(back, 0), 0.5);
	cr_assert_eq(get_coupler(back, 0, 1), -1.25e-3);
	cr_assert_eq(qubo_model_offset(back), 0.25);
	qubo_model_free(back);
	rc = qubo_qbsolv_read(&back, "p qubo 0 1 1 0\n0 0 0,5\n", 23, NULL);
	cr_assert_eq(rc, QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_column(), 5);

	cr_assert_eq(qubo_model_new(&m, 2, NULL), QUBO_OK);
	qubo_model_add_linear(m, 0, 0.5);
	qubo_model_add_linear(m, 1, 1.0 / 3.0);
	qubo_model_add_quadratic(m, 0, 1, 1e-300);
	qubo_model_add_offset(m, -1.75);
	qubo_model_compile(m);
	text = write_text(m, NULL);
	cr_assert(strstr(text, "c offset -1.75\n") != NULL, "%s", text);
	cr_assert(strstr(text, "0 0 0.5\n1 1 0.3333333333333333\n0 1 1e-300\n") != NULL, "%s",
		  text);
	for (k = 1; text[k]; k++)
		cr_assert(text[k] != ',' || text[k - 1] < '0' || text[k - 1] > '9', "%s", text);
	back = read_str(text);
	expect_same(m, back, "comma locale");
	/* the process locale is left as it was */
	{
		char probe[32];

		snprintf(probe, sizeof probe, "%.1f", 0.5);
		cr_assert_str_eq(probe, "0,5");
	}
	free(text);
	qubo_model_free(back);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* What the reader rejects: status and position. */

struct bad {
	const char *name;
	const char *text;
	size_t len;
	int status;
	size_t line, column;
};

#define BAD(name, text, status, line, col) {name, text, sizeof(text) - 1, status, line, col}
#define PARSE QUBO_ERR_PARSE
#define TOOBIG QUBO_ERR_TOO_LARGE

static const struct bad bad_files[] = {
	BAD("empty input", "", PARSE, 1, 1),
	BAD("comments only", "c hello\n", PARSE, 2, 1),
	BAD("comments only, no final newline", "c hello", PARSE, 1, 8),
	BAD("entry before the header", "0 0 1\np qubo 0 1 1 0\n", PARSE, 1, 1),
	BAD("header after entries (indented)", "  0 0 1\np qubo 0 1 1 0\n", PARSE, 1, 3),
	BAD("uppercase P is no header", "P qubo 0 1 0 0\n", PARSE, 1, 1),
	BAD("duplicate header", "p qubo 0 2 1 0\np qubo 0 2 1 0\n0 0 1\n", PARSE, 2, 1),
	BAD("duplicate header after entries", "p qubo 0 2 1 0\n0 0 1\n p qubo 0 2 1 0\n", PARSE,
	    3, 2),
	BAD("wrong format word", "p qubx 0 2 0 0\n", PARSE, 1, 3),
	BAD("unsupported topology", "p qubo chimera 2 0 0\n", PARSE, 1, 8),
	BAD("header with too few fields", "p qubo 0 2 0\n", PARSE, 1, 13),
	BAD("header with only p", "p\n", PARSE, 1, 2),
	BAD("header with an extra field", "p qubo 0 2 0 0 7\n", PARSE, 1, 16),
	BAD("negative maxNodes", "p qubo 0 -2 0 0\n", PARSE, 1, 10),
	BAD("non-integer nNodes", "p qubo 0 2 1.0 0\n", PARSE, 1, 12),
	BAD("integer beyond 64 bits", "p qubo 0 99999999999999999999 0 0\n", PARSE, 1, 10),
	BAD("maxNodes beyond the variable limit", "p qubo 0 2147483647 0 0\n", TOOBIG, 1, 10),
	BAD("maxNodes not backed by input", "p qubo 0 1000000000 0 0\n", TOOBIG, 1, 10),
	BAD("nNodes beyond what the input holds", "p qubo 0 10 1000 0\n0 0 1\n", TOOBIG, 1, 13),
	BAD("nCouplers beyond what the input holds", "p qubo 0 10 0 1000000\n0 1 1\n", TOOBIG,
	    1, 15),
	BAD("nCouplers near 2^64", "p qubo 0 10 1 18446744073709551615\n0 0 1\n", TOOBIG, 1, 15),
	BAD("index i not below maxNodes", "p qubo 0 2 1 0\n2 2 1\n", PARSE, 2, 1),
	BAD("index j not below maxNodes", "p qubo 0 3 0 1\n0 3 1\n", PARSE, 2, 3),
	BAD("negative index", "p qubo 0 2 1 0\n-1 -1 1\n", PARSE, 2, 1),
	BAD("non-integer index", "p qubo 0 2 1 0\n0.0 0 1\n", PARSE, 2, 1),
	BAD("index beyond 64 bits", "p qubo 0 2 1 0\n99999999999999999999999 0 1\n", PARSE, 2,
	    1),
	BAD("coupler with i > j", "p qubo 0 3 0 1\n2 1 1\n", PARSE, 2, 3),
	BAD("diagonal line after a coupler line", "p qubo 0 3 1 2\n0 0 1\n0 1 1\n1 1 1\n", PARSE,
	    4, 1),
	BAD("i != j in the diagonal section", "p qubo 0 3 2 1\n0 0 1\n0 1 1\n1 2 1\n", PARSE, 3,
	    3),
	BAD("more diagonal lines than declared", "p qubo 0 3 1 1\n0 0 1\n1 1 1\n0 1 1\n", PARSE,
	    3, 1),
	BAD("more coupler lines than declared", "p qubo 0 3 1 1\n0 0 1\n0 1 1\n1 2 1\n", PARSE, 4,
	    1),
	BAD("more lines than declared, none declared", "p qubo 0 3 0 0\n0 0 1\n", PARSE, 2, 1),
	BAD("fewer coupler lines (ends with newline)", "p qubo 0 3 1 2\n0 0 1.5\n0 1 2.5\n",
	    PARSE, 4, 1),
	BAD("fewer coupler lines (no final newline)", "p qubo 0 3 1 2\n0 0 1.5\n0 1 2.5", PARSE,
	    3, 8),
	BAD("fewer diagonal lines", "p qubo 0 3 2 0\n0 0 1.5\nc the end\n", PARSE, 4, 1),
	BAD("truncated inside a line", "p qubo 0 3 1 1\n0 0 1\n0 1", PARSE, 3, 4),
	BAD("missing weight", "p qubo 0 2 1 0\n0 0\n", PARSE, 2, 4),
	BAD("missing j", "p qubo 0 2 1 0\n0   \n", PARSE, 2, 5),
	BAD("trailing garbage", "p qubo 0 2 1 0\n0 0 1 x\n", PARSE, 2, 7),
	BAD("garbage glued to the weight", "p qubo 0 2 1 0\n0 0 1x\n", PARSE, 2, 5),
	BAD("NaN weight", "p qubo 0 2 1 0\n0 0 nan\n", PARSE, 2, 5),
	BAD("Inf weight", "p qubo 0 2 1 0\n0 0 -inf\n", PARSE, 2, 5),
	BAD("weight overflowing double", "p qubo 0 2 1 0\n0 0 1e309\n", PARSE, 2, 5),
	BAD("hex float weight", "p qubo 0 2 1 0\n0 0 0x1p3\n", PARSE, 2, 5),
	BAD("two decimal points", "p qubo 0 2 1 0\n0 0 1.2.3\n", PARSE, 2, 5),
	BAD("exponent without digits", "p qubo 0 2 1 0\n0 0 1e\n", PARSE, 2, 5),
	BAD("decimal comma", "p qubo 0 2 1 0\n0 0 1,5\n", PARSE, 2, 5),
	BAD("lone dot", "p qubo 0 2 1 0\n0 0 .\n", PARSE, 2, 5),
	BAD("stray carriage return", "p qubo 0 2 1 0\n0 0 1\r\r\n", PARSE, 2, 5),
	BAD("NUL byte in an entry", "p qubo 0 2 1 0\n0 0\0 1\n", PARSE, 2, 4),
	BAD("NUL byte in a comment", "c a\0b\np qubo 0 1 0 0\n", PARSE, 1, 4),
	BAD("offset that is no number", "c offset abc\np qubo 0 1 0 0\n", PARSE, 1, 10),
	BAD("offset without a value", "p qubo 0 1 0 0\nc offset\n", PARSE, 2, 9),
	BAD("offset with two values", "p qubo 0 1 0 0\nc offset 1 2\n", PARSE, 2, 12),
	BAD("NaN offset", "p qubo 0 1 0 0\n\tc offset NaN\n", PARSE, 2, 11),
	BAD("offsets summing beyond double", "c offset 1e308\nc offset 1e308\np qubo 0 1 0 0\n",
	    PARSE, 2, 10),
	BAD("group without a size", "p qubo 0 4 0 0\nc group 1\n", PARSE, 2, 10),
	BAD("group start that is no integer", "c group x 2\np qubo 0 4 0 0\n", PARSE, 1, 9),
	BAD("group of size 0", "p qubo 0 4 0 0\nc group 1 0\n", PARSE, 2, 11),
	BAD("group of 65 variables", "p qubo 0 99 0 0\nc group 1 65\n", PARSE, 2, 11),
	BAD("group with a third field", "p qubo 0 4 0 0\nc group 1 2 3\n", PARSE, 2, 13),
	BAD("group beyond maxNodes (before the header)", "c group 3 2\np qubo 0 4 0 0\n",
	    PARSE, 1, 9),
	BAD("group start beyond the variable limit", "c group 4294967295 1\np qubo 0 4 0 0\n",
	    PARSE, 1, 9),
	BAD("overlapping groups", "p qubo 0 6 0 0\nc group 1 3\nc group 0 2\n", PARSE, 3, 9),
	BAD("diagonal sums beyond double", "p qubo 0 1 2 0\n0 0 1e308\n0 0 1e308\n", PARSE, 3, 5),
	BAD("couplers summing beyond double", "p qubo 0 2 0 2\n0 1 1e308\n0 1 1e308\n", PARSE, 4,
	    1),
	BAD("weights whose magnitudes sum beyond the limit",
	    "p qubo 0 2 2 0\n0 0 1e308\n1 1 -1e308\n", PARSE, 4, 1),
	BAD("one weight beyond the limit", "p qubo 0 2 0 1\n0 1 2e301\n", PARSE, 3, 1),
	BAD("an offset beyond the limit", "c offset -1.1e301\np qubo 0 1 0 0\n", PARSE, 3, 1),
	BAD("many moderate weights beyond the limit",
	    "p qubo 0 4 0 3\n0 1 4e300\n0 2 4e300\n1 2 -4e300\n", PARSE, 5, 1),
};

Test(qbsolv, malformed_files_report_status_and_position)
{
	size_t k, n = sizeof bad_files / sizeof bad_files[0];

	cr_assert_geq(n, 25);
	for (k = 0; k < n; k++) {
		const struct bad *b = &bad_files[k];
		qubo_model *m = (qubo_model *)&m; /* any non-NULL value */
		int rc;

		qubo_error_clear();
		rc = qubo_qbsolv_read(&m, b->text, b->len, NULL);
		cr_expect_eq(rc, b->status, "%s: status %s, expected %s (%s)", b->name,
			     qubo_status_name(rc), qubo_status_name(b->status),
			     qubo_error_message());
		cr_expect_null(m, "%s: out not NULL", b->name);
		cr_expect_eq(qubo_error_code(), b->status, "%s: error code", b->name);
		cr_expect_eq(qubo_error_line(), b->line, "%s: line %zu, expected %zu (%s)", b->name,
			     qubo_error_line(), b->line, qubo_error_message());
		cr_expect_eq(qubo_error_column(), b->column, "%s: column %zu, expected %zu (%s)",
			     b->name, qubo_error_column(), b->column, qubo_error_message());
		cr_expect_gt(strlen(qubo_error_message()), 20, "%s: message '%s'", b->name,
			     qubo_error_message());
		if (rc == QUBO_OK)
			qubo_model_free(m);
	}
}

/* Coupler lines after the first take a quicker way through the reader
 * (plain lines in one scan) than the first: each of these lines, as the
 * second coupler line, reads as it does as the first one (the same model,
 * or the same status at the same column of the next line). */
Test(qbsolv, later_coupler_lines_read_as_the_first)
{
	static const char *const lines[] = {
		"1 2 0.5", "1 2 -0.5", "1\t2\t0.5", "1  2   0.5", "1 2 0.5 ", "1 2 0.5\t",
		"1 2 0.5\r", "0000000001 000000002 0.5", "000000001 2 .5", "1 2 5e-1",
		"1 2 1e-400", "1 2 -0", "1 2 1.7976931348623157e296",
		"1 2 0.1000000000000000055511151231257827021181583404541015625",
		("1 2 1000000000000000000000000000000000000000000000000000000000000000000000"
		 "000000000000000000000000000000000000000000000000000000000000000000000"),
		"1 2 1x", "1 2 nan", "1 2 -inf", "1 2 1e309", "1 2 0x1p3", "1 2 1.2.3", "1 2 1e",
		"1 2 1,5", "1 2 .", "1 2 0.5\r\r", "1 2 0.5 x", "1 2", "1 2 ", "1", "1 ",
		"2 1 0.5", "1 1 0.5", "1 5 0.5", "5 6 0.5", "4294967297 2 0.5",
		"99999999999999999999999 2 0.5", "-1 2 0.5", "+1 2 0.5", "1 -2 0.5", "1 +2 0.5",
		"1 2 +0.5", "1 2 --0.5", "1,2 0.5", "1 2.0 0.5", "x 1 2",
	};
	size_t k, ok = 0, bad = 0;

	for (k = 0; k < sizeof lines / sizeof *lines; k++) {
		char first[512], later[512];
		int n1, n2, rc1, rc2;
		size_t line1, col1;
		qubo_model *m1 = NULL, *m2 = NULL;

		n1 = snprintf(first, sizeof first, "p qubo 0 5 0 3\n%s\n0 4 1\n3 4 1\n", lines[k]);
		n2 = snprintf(later, sizeof later, "p qubo 0 5 0 3\n0 4 1\n%s\n3 4 1\n", lines[k]);
		cr_assert(n1 > 0 && (size_t)n1 < sizeof first && n2 == n1);
		rc1 = qubo_qbsolv_read(&m1, first, (size_t)n1, NULL);
		line1 = qubo_error_line();
		col1 = qubo_error_column();
		rc2 = qubo_qbsolv_read(&m2, later, (size_t)n2, NULL);
		cr_assert_eq(rc2, rc1, "'%s': %s later, %s first (%s)", lines[k],
			     qubo_status_name(rc2), qubo_status_name(rc1), qubo_error_message());
		if (rc1 == QUBO_OK) {
			expect_same(m2, m1, lines[k]);
			qubo_model_free(m1);
			qubo_model_free(m2);
			ok++;
			continue;
		}
		cr_assert_eq(line1, 2, "'%s'", lines[k]);
		cr_assert_eq(qubo_error_line(), 3, "'%s': line %zu", lines[k],
			     (size_t)qubo_error_line());
		cr_assert_eq(qubo_error_column(), col1, "'%s': column %zu, first %zu", lines[k],
			     (size_t)qubo_error_column(), col1);
		bad++;
	}
	cr_assert_geq(ok, 14);
	cr_assert_geq(bad, 25);
}

/* Runs of digits of every length up to 30, whole or cut by a byte that is
 * no digit (some of them differ from digits in one bit or nibble), as the
 * weight and as index i of a later coupler line (the reader takes an index
 * 8 bytes at a time): whole runs read as strtod() and as their
 * value, cut ones fail at the field. */
Test(qbsolv, digit_runs_of_every_length_read_exactly)
{
	static const char stops[] = { ':', '/', (char)0xb5, (char)0x39 ^ 0x40 };
	tu_rng r = { 8 };
	size_t len, cut, si;

	for (len = 1; len <= 30; len++) {
		for (cut = 0; cut <= len; cut++) {
			for (si = 0; si < (cut < len ? sizeof stops : 1); si++) {
				char tok[40], idx[40], text[160];
				qubo_model *m = NULL;
				size_t k, n;
				double w;
				int rc;

				for (k = 0; k < len; k++) {
					tok[k] = (char)('0' + tu_below(&r, 10));
					idx[k] = k + 1 == len ? '1' : '0';
				}
				if (len > 2 && tu_below(&r, 2))
					tok[tu_below(&r, len)] = '.';
				if (cut < len) {
					tok[cut] = stops[si];
					idx[cut] = stops[si];
				}
				tok[len] = idx[len] = '\0';
				/* the weight */
				n = (size_t)snprintf(text, sizeof text, "p qubo 0 5 0 2\n0 4 1\n1 2 %s\n",
						     tok);
				rc = qubo_qbsolv_read(&m, text, n, NULL);
				if (cut == len) {
					cr_assert_eq(rc, QUBO_OK, "'%s': %s", tok, qubo_error_message());
					w = strtod(tok, NULL);
					cr_assert(same_bits(get_coupler(m, 1, 2), w) || w == 0.0,
						  "'%s': read %a, strtod %a", tok, get_coupler(m, 1, 2),
						  w);
					qubo_model_free(m);
				} else {
					cr_assert_eq(rc, QUBO_ERR_PARSE, "'%s'", tok);
					cr_assert_eq(qubo_error_line(), 3);
					cr_assert_eq(qubo_error_column(), 5, "'%s'", tok);
				}
				/* index i */
				n = (size_t)snprintf(text, sizeof text, "p qubo 0 5 0 2\n0 4 1\n%s 4 1\n",
						     idx);
				rc = qubo_qbsolv_read(&m, text, n, NULL);
				if (cut == len) {
					cr_assert_eq(rc, QUBO_OK, "'%s': %s", idx, qubo_error_message());
					cr_assert_eq(get_coupler(m, 1, 4), 1.0, "'%s'", idx);
					qubo_model_free(m);
				} else {
					cr_assert_eq(rc, QUBO_ERR_PARSE, "'%s'", idx);
					cr_assert_eq(qubo_error_column(), 1, "'%s'", idx);
				}
			}
		}
	}
}

/* A NUL byte anywhere in a later coupler line is reported where it is. */
Test(qbsolv, nul_bytes_in_later_coupler_lines)
{
	static const char base[] = "p qubo 0 5 0 3\n0 4 1\n1 2 0.5\n3 4 1\n";
	size_t at, start = sizeof "p qubo 0 5 0 3\n0 4 1\n" - 1;

	for (at = start; at < start + 7; at++) {
		char t[sizeof base];
		qubo_model *m = NULL;

		memcpy(t, base, sizeof base);
		t[at] = '\0';
		cr_assert_eq(qubo_qbsolv_read(&m, t, sizeof base - 1, NULL), QUBO_ERR_PARSE,
			     "NUL at %zu", at);
		cr_assert_eq(qubo_error_line(), 3);
		cr_assert_eq(qubo_error_column(), at - start + 1, "NUL at %zu: %s", at,
			     qubo_error_message());
	}
}

/* Every prefix of a valid file either reads or fails with a position inside
 * the prefix; cutting anywhere never crashes or misreports. */
Test(qbsolv, every_prefix_fails_cleanly_or_reads)
{
	static const char text[] = "c offset 1.5\np qubo 0 3 2 2\n0 0 1.25\n2 2 -3\n"
				   "0 1 0.5\n1 2 -2.75e-3\n";
	size_t len = sizeof text - 1, k;
	/* the last weight starts here: shorter prefixes cannot be complete */
	size_t last = (size_t)(strstr(text, "\n1 2 ") + 5 - text);

	for (k = 0; k <= len; k++) {
		qubo_model *m = NULL;
		int rc = qubo_qbsolv_read(&m, text, k, NULL);

		if (rc == QUBO_OK) {
			/* only the full text, or the text cut inside its last weight */
			cr_assert_gt(k, last, "prefix %zu read", k);
			qubo_model_free(m);
			continue;
		}
		cr_assert(rc == QUBO_ERR_PARSE || rc == QUBO_ERR_TOO_LARGE, "prefix %zu: %s", k,
			  qubo_status_name(rc));
		cr_assert_null(m);
		cr_assert_geq(qubo_error_line(), 1, "prefix %zu", k);
		cr_assert_geq(qubo_error_column(), 1, "prefix %zu", k);
	}
}

/* ------------------------------------------------------------------ */
/* Buffers and arguments. */

Test(qbsolv, buffer_capacity_rules)
{
	qubo_model *m = read_str("p qubo 0 2 1 1\n0 0 1\n0 1 -2\n");
	size_t len = 0, got = 0;
	char *buf;
	int rc;

	rc = qubo_qbsolv_write(m, NULL, 0, &len);
	cr_assert_eq(rc, QUBO_OK);
	cr_assert_gt(len, 0);
	buf = malloc(len + 8);

	/* one byte short: too small, the length still reported */
	memset(buf, 'X', len + 8);
	rc = qubo_qbsolv_write(m, buf, len - 1, &got);
	cr_assert_eq(rc, QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(got, len);
	cr_assert_eq(buf[len - 1], 'X', "wrote past the capacity");

	/* exactly the text: success without a terminator */
	memset(buf, 'X', len + 8);
	got = 0;
	rc = qubo_qbsolv_write(m, buf, len, &got);
	cr_assert_eq(rc, QUBO_OK);
	cr_assert_eq(got, len);
	cr_assert_eq(buf[len], 'X', "wrote past the capacity");
	cr_assert_eq(buf[len - 1], '\n');

	/* room for the terminator */
	memset(buf, 'X', len + 8);
	rc = qubo_qbsolv_write(m, buf, len + 8, &got);
	cr_assert_eq(rc, QUBO_OK);
	cr_assert_eq(got, len);
	cr_assert_eq(buf[len], '\0');
	cr_assert_eq(buf[len + 1], 'X');
	free(buf);
	qubo_model_free(m);
}

Test(qbsolv, null_arguments_and_misuse)
{
	qubo_model *m = NULL, *dirty = NULL;
	qubo_allocator bad;
	char buf[64];
	size_t len = 7;

	cr_assert_eq(qubo_qbsolv_read(NULL, "p qubo 0 0 0 0", 14, NULL), QUBO_ERR_MISUSE);
	cr_assert_gt(strlen(qubo_error_message()), 0);
	m = (qubo_model *)&m;
	cr_assert_eq(qubo_qbsolv_read(&m, NULL, 5, NULL), QUBO_ERR_MISUSE);
	cr_assert_null(m);
	cr_assert_eq(qubo_qbsolv_read(&m, NULL, 0, NULL), QUBO_ERR_PARSE); /* empty input */
	memset(&bad, 0, sizeof bad);
	cr_assert_eq(qubo_qbsolv_read(&m, "p qubo 0 0 0 0", 14, &bad),
		     QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert_eq(qubo_qbsolv_read_file(NULL, "x", NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qbsolv_read_file(&m, NULL, NULL), QUBO_ERR_MISUSE);

	cr_assert_eq(qubo_qbsolv_write(NULL, buf, sizeof buf, &len), QUBO_ERR_MISUSE);
	cr_assert_gt(strlen(qubo_error_message()), 0);
	m = read_str("p qubo 0 2 1 0\n0 0 1\n");
	cr_assert_eq(qubo_qbsolv_write(m, buf, sizeof buf, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qbsolv_write(m, NULL, 10, &len), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qbsolv_write_file(NULL, "x"), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qbsolv_write_file(m, NULL), QUBO_ERR_MISUSE);

	/* a model with pending terms is not written */
	cr_assert_eq(qubo_model_new(&dirty, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(dirty, 0, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_qbsolv_write(dirty, buf, sizeof buf, &len), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "qubo_qbsolv_write") != NULL, "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_qbsolv_write_file(dirty, "/nonexistent/never-written"),
		     QUBO_ERR_MISUSE);
	qubo_model_free(dirty);
	qubo_model_free(m);
}

Test(qbsolv, io_errors_name_the_path)
{
	qubo_model *m = (qubo_model *)&m, *ok;
	const char *dir = getenv("QUBO_TEST_TMPDIR");
	struct stat st;
	int rc;

	rc = qubo_qbsolv_read_file(&m, "/nonexistent/dir/model.qubo", NULL);
	cr_assert_eq(rc, QUBO_ERR_IO);
	cr_assert_null(m);
	cr_assert(strstr(qubo_error_message(), "/nonexistent/dir/model.qubo") != NULL, "%s",
		  qubo_error_message());
	cr_assert(strstr(qubo_error_message(), strerror(ENOENT)) != NULL, "%s",
		  qubo_error_message());

	/* a directory opens but cannot be read */
	rc = qubo_qbsolv_read_file(&m, dir ? dir : "/tmp", NULL);
	cr_assert_eq(rc, QUBO_ERR_IO, "%s", qubo_error_message());

	ok = read_str("p qubo 0 1 1 0\n0 0 1\n");
	rc = qubo_qbsolv_write_file(ok, "/nonexistent/dir/out.qubo");
	cr_assert_eq(rc, QUBO_ERR_IO);
	cr_assert(strstr(qubo_error_message(), "/nonexistent/dir/out.qubo") != NULL);
	if (stat("/dev/full", &st) == 0) {
		rc = qubo_qbsolv_write_file(ok, "/dev/full");
		cr_assert_eq(rc, QUBO_ERR_IO, "%s", qubo_error_message());
		cr_assert(strstr(qubo_error_message(), strerror(ENOSPC)) != NULL, "%s",
			  qubo_error_message());
	}
	qubo_model_free(ok);
}

Test(qbsolv, parse_errors_in_files_name_the_path)
{
	char path[512];
	FILE *f;
	qubo_model *m = NULL;

	tmp_path(path, sizeof path, "bad");
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	fputs("p qubo 0 2 1 0\n0 0 zz\n", f);
	fclose(f);
	cr_assert_eq(qubo_qbsolv_read_file(&m, path, NULL), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 2);
	cr_assert_eq(qubo_error_column(), 5);
	cr_assert(strstr(qubo_error_message(), path) != NULL, "%s", qubo_error_message());
	remove(path);
}

/* ------------------------------------------------------------------ */
/* Allocation failures. */

static void oom_read(const char *text, size_t len)
{
	size_t k;

	for (k = 1;; k++) {
		tu_failalloc f;
		qubo_model *m = (qubo_model *)&m;
		int rc;

		tu_failalloc_init(&f, k);
		rc = qubo_qbsolv_read(&m, text, len, &f.a);
		if (rc == QUBO_OK) {
			cr_assert_not_null(m);
			qubo_model_free(m);
			cr_assert_eq(f.live, 0, "fail at %zu: %zu blocks leaked", k, f.live);
			if (!f.failed)
				break;
			continue;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "fail at %zu: %s (%s)", k, qubo_status_name(rc),
			     qubo_error_message());
		cr_assert(f.failed);
		cr_assert_null(m, "fail at %zu: out not NULL", k);
		cr_assert_eq(f.live, 0, "fail at %zu: %zu blocks leaked", k, f.live);
	}
	cr_assert_gt(k, 3, "too few allocations to test");
}

Test(qbsolv, out_of_memory_while_reading)
{
	char text[4096], *p = text;
	int i;

	p += sprintf(p, "c offset 2\np qubo 0 30 5 40\n");
	for (i = 0; i < 5; i++)
		p += sprintf(p, "%d %d %d.5\n", i, i, i);
	for (i = 0; i < 40; i++)
		p += sprintf(p, "%d %d -%d\n", i % 10, 10 + i % 20, i + 1);
	/* an error after allocations also frees everything */
	oom_read(text, (size_t)(p - text));
	/* a number too long for the stack buffer */
	p = text + sprintf(text, "p qubo 0 2 1 1\n0 0 1.");
	for (i = 0; i < 300; i++)
		*p++ = '0';
	p += sprintf(p, "1\n0 1 2\n");
	oom_read(text, (size_t)(p - text));
}

Test(qbsolv, out_of_memory_reading_and_writing_files)
{
	char path[512];
	qubo_model *m = NULL;
	tu_failalloc f;
	size_t k;
	int rc;

	tu_failalloc_init(&f, 0);
	cr_assert_eq(qubo_model_new(&m, 3, &f.a), QUBO_OK);
	qubo_model_add_linear(m, 1, 2.0);
	qubo_model_add_quadratic(m, 0, 2, -1.0);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	tmp_path(path, sizeof path, "oom");
	f.fail_at = f.count + 1;
	rc = qubo_qbsolv_write_file(m, path);
	cr_assert_eq(rc, QUBO_ERR_NOMEM);
	f.fail_at = 0;
	cr_assert_eq(qubo_qbsolv_write_file(m, path), QUBO_OK, "%s", qubo_error_message());
	qubo_model_free(m);
	cr_assert_eq(f.live, 0);

	for (k = 1;; k++) {
		qubo_model *r = (qubo_model *)&r;

		tu_failalloc_init(&f, k);
		rc = qubo_qbsolv_read_file(&r, path, &f.a);
		if (rc == QUBO_OK) {
			qubo_model_free(r);
			cr_assert_eq(f.live, 0);
			if (!f.failed)
				break;
			continue;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "fail at %zu: %s", k, qubo_error_message());
		cr_assert_null(r);
		cr_assert_eq(f.live, 0, "fail at %zu: leak", k);
	}
	remove(path);
}

/* The size query (capacity 0, NULL buffer) is a success, so that `rc < 0`
 * checks accept the documented idiom; a nonzero capacity below the length
 * is still QUBO_ERR_BUFFER_TOO_SMALL and writes nothing past it. */
Test(qbsolv, size_query_returns_ok)
{
	qubo_model *m = read_str("p qubo 0 2 1 1\n0 0 1\n0 1 -2\n");
	size_t len = 0, got = 0;
	char one = 'X';

	cr_assert_eq(qubo_qbsolv_write(m, NULL, 0, &len), QUBO_OK, "%s", qubo_error_message());
	cr_assert_gt(len, 1);
	cr_assert_eq(qubo_qbsolv_write(m, &one, 0, &got), QUBO_OK);
	cr_assert_eq(got, len);
	cr_assert_eq(one, 'X', "the size query wrote into the buffer");
	cr_assert_eq(qubo_qbsolv_write(m, &one, 1, &got), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(got, len);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Long inputs, whose second half another thread reads. */

#define BIG_VARS 3000u
#define BIG_LINES 150000u /* about 2 MB of coupler lines */

/* Coupler k of the long inputs: i < j, with repeats, weights in 1/8. */
static void big_coupler(size_t k, uint32_t *i, uint32_t *j, double *w)
{
	uint64_t x = (uint64_t)k * 6364136223846793005u + 1442695040888963407u;
	uint32_t a, b;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 32;
	a = (uint32_t)(x % BIG_VARS);
	b = (uint32_t)((x >> 20) % (BIG_VARS - 1));
	if (b >= a)
		b++;
	*i = a < b ? a : b;
	*j = a < b ? b : a;
	*w = (double)((int)((x >> 40) % 64) - 32) / 8.0;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* Which coupler each line of a long input holds: coupler k on line k, or,
 * when ordered, the couplers in order of (i, j), repeats in order of k (a
 * file listed by rows). */
static uint32_t *big_order(int ordered)
{
	uint32_t *o = malloc(BIG_LINES * sizeof *o), k;
	uint64_t *key;

	cr_assert_not_null(o);
	if (!ordered) {
		for (k = 0; k < BIG_LINES; k++)
			o[k] = k;
		return o;
	}
	key = malloc(BIG_LINES * sizeof *key);
	cr_assert_not_null(key);
	for (k = 0; k < BIG_LINES; k++) {
		uint32_t i, j;
		double w;

		big_coupler(k, &i, &j, &w);
		key[k] = ((uint64_t)i * BIG_VARS + j) << 32 | k;
	}
	qsort(key, BIG_LINES, sizeof *key, cmp_u64);
	for (k = 0; k < BIG_LINES; k++)
		o[k] = (uint32_t)key[k];
	free(key);
	return o;
}

/* The header declaring `declared` couplers, then BIG_LINES coupler lines,
 * line k holding coupler o[k]; `extra` (with its newline), when not NULL,
 * is written before coupler line `at` (0-based), on line at + 2. Returns
 * the malloc'ed text. */
static char *big_text_of(const uint32_t *o, size_t declared, size_t at, const char *extra,
			 size_t *len)
{
	size_t cap = 64 + (size_t)BIG_LINES * 32 + (extra ? strlen(extra) : 0), n, k;
	char *t = malloc(cap);

	cr_assert_not_null(t);
	n = (size_t)sprintf(t, "p qubo 0 %u 0 %zu\n", BIG_VARS, declared);
	for (k = 0; k < BIG_LINES; k++) {
		uint32_t i, j;
		double w;

		if (extra && k == at)
			n += (size_t)sprintf(t + n, "%s", extra);
		big_coupler(o[k], &i, &j, &w);
		n += (size_t)sprintf(t + n, "%u %u %g\n", i, j, w);
	}
	*len = n;
	return t;
}

/* big_text_of() with the lines in the order big_order(ordered) gives. */
static char *big_text(size_t declared, size_t at, const char *extra, int ordered, size_t *len)
{
	uint32_t *o = big_order(ordered);
	char *t = big_text_of(o, declared, at, extra, len);

	free(o);
	return t;
}

/* The model of the BIG_LINES couplers o[0], o[1], ..., added one by one. */
static qubo_model *big_reference_of(const uint32_t *o, double offset)
{
	qubo_model *m;
	size_t k;

	cr_assert_eq(qubo_model_new(&m, BIG_VARS, NULL), QUBO_OK);
	for (k = 0; k < BIG_LINES; k++) {
		uint32_t i, j;
		double w;

		big_coupler(o[k], &i, &j, &w);
		cr_assert_eq(qubo_model_add_quadratic(m, i, j, w), QUBO_OK);
	}
	cr_assert_eq(qubo_model_add_offset(m, offset), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

/* The model of the lines in the order big_order(ordered) gives. */
static qubo_model *big_reference(double offset, int ordered)
{
	uint32_t *o = big_order(ordered);
	qubo_model *m = big_reference_of(o, offset);

	free(o);
	return m;
}

/* Where the tests put a line of their own: in the first half and in the
 * second (the second only under valgrind, which is slow at this size). */
static size_t first_at(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");

	return v && *v == '1' ? BIG_LINES * 9 / 10 : BIG_LINES / 10;
}

/* Reads a long text that must fail at `line`. */
static void big_fails(const char *text, size_t len, int status, size_t line, const char *what)
{
	qubo_model *m = (qubo_model *)&m;

	cr_assert_eq(qubo_qbsolv_read(&m, text, len, NULL), status, "%s: %s", what,
		     qubo_error_message());
	cr_assert_null(m);
	cr_assert_eq(qubo_error_line(), line, "%s: line %zu, expected %zu (%s)", what,
		     (size_t)qubo_error_line(), line, qubo_error_message());
}

/* Reads the long text with extra inserted at line at (NULL: none) and
 * checks the model against ref. */
static void expect_big(size_t at, const char *extra, int ordered, const qubo_model *ref,
		       const char *what)
{
	size_t len;
	char *t = big_text(BIG_LINES, at, extra, ordered, &len);
	qubo_model *m;

	cr_assert_eq(qubo_qbsolv_read(&m, t, len, NULL), QUBO_OK, "%s: %s", what,
		     qubo_error_message());
	expect_same(m, ref, what);
	qubo_model_free(m);
	free(t);
}

/* In the order of the couplers' numbers and in order of (i, j) (the
 * compile's path for pairs in order). */
Test(qbsolv, long_inputs_read_as_in_order)
{
	size_t at;
	int ordered;

	for (ordered = 0; ordered < 2; ordered++) {
		qubo_model *ref = big_reference(0.0, ordered);
		qubo_model *ref_off = big_reference(2.5, ordered);

		/* plain, and with blank and comment lines in either half */
		expect_big(0, NULL, ordered, ref, "plain");
		for (at = first_at(); at < BIG_LINES; at += BIG_LINES * 8 / 10) {
			expect_big(at, "\n  \nc a comment\n", ordered, ref, "comments");
			/* an offset line, which the second thread leaves to the first */
			expect_big(at, "c offset 2.5\n", ordered, ref_off, "offset");
		}
		qubo_model_free(ref);
		qubo_model_free(ref_off);
	}
}

/* In both orders (the order matters to the compile only, which an error
 * never reaches: under valgrind, which is slow at this size, the order of
 * the couplers' numbers alone). */
Test(qbsolv, long_inputs_report_the_first_error)
{
	size_t len, at;
	char *t;
	int ordered, orders = first_at() == BIG_LINES / 10 ? 2 : 1;

	for (ordered = 0; ordered < orders; ordered++) {
		for (at = first_at(); at < BIG_LINES; at += BIG_LINES * 8 / 10) {
			t = big_text(BIG_LINES, at, "7 3 1\n", ordered, &len);
			big_fails(t, len, QUBO_ERR_PARSE, at + 2, "i > j");
			free(t);
			t = big_text(BIG_LINES, at, "7 7 1\n", ordered, &len);
			big_fails(t, len, QUBO_ERR_PARSE, at + 2, "a diagonal line");
			free(t);
			t = big_text(BIG_LINES, at, "1 2 1x\n", ordered, &len);
			big_fails(t, len, QUBO_ERR_PARSE, at + 2, "a bad weight");
			free(t);
			t = big_text(BIG_LINES, at, "p qubo 0 3 0 0\n", ordered, &len);
			big_fails(t, len, QUBO_ERR_PARSE, at + 2, "a second header");
			free(t);
			t = big_text(BIG_LINES, at, "1 2 1\r\r\n", ordered, &len);
			big_fails(t, len, QUBO_ERR_PARSE, at + 2, "a stray carriage return");
			cr_assert_eq(qubo_error_column(), 5);
			free(t);
			t = big_text(BIG_LINES, at, "1 4294967298 1\n", ordered, &len);
			big_fails(t, len, QUBO_ERR_PARSE, at + 2, "a ten-digit index");
			cr_assert_eq(qubo_error_column(), 3);
			free(t);
		}
		/* two errors: the first one counts */
		t = big_text(BIG_LINES, BIG_LINES / 4, "7 3 1\n", ordered, &len);
		strstr(t + len * 3 / 4, "\n")[1] = 'x';
		big_fails(t, len, QUBO_ERR_PARSE, BIG_LINES / 4 + 2, "two errors");
		free(t);
		/* one coupler line more than declared: the last line */
		t = big_text(BIG_LINES - 1, 0, NULL, ordered, &len);
		big_fails(t, len, QUBO_ERR_PARSE, BIG_LINES + 1, "more lines than declared");
		free(t);
		/* one fewer: the end of the input */
		t = big_text(BIG_LINES + 1, 0, NULL, ordered, &len);
		big_fails(t, len, QUBO_ERR_PARSE, BIG_LINES + 2, "fewer lines than declared");
		free(t);
	}
}

/* The coupler line on which the second half begins: the first line that
 * starts after the middle of the text behind the first coupler line. */
static size_t half_line(const char *t, size_t len)
{
	const char *first = strchr(t, '\n') + 1, *pos = strchr(first, '\n') + 1, *mid, *c;
	size_t line = 0;

	mid = memchr(pos + (size_t)(t + len - pos) / 2, '\n', (size_t)(t + len - pos) / 2 + 1);
	cr_assert_not_null(mid);
	for (c = first; c <= mid; c++)
		line += *c == '\n';
	return line;
}

/* Coupler lines in order of (i, j) but for two neighbouring pairs of the
 * log swapped where the reader joins what it read in pieces: its first
 * pairs, the end of its first chunk of staged pairs (65536 with nonzero
 * weights) and where the second half begins (a zero weight adds no pair,
 * so the pairs of lines a < b are neighbours when the lines between hold
 * zeros). A reader that took such a log for one in order would hand the
 * compile rows that are not sorted. */
Test(qbsolv, long_inputs_out_of_order_where_pieces_join)
{
	const size_t chunk = 65536;
	uint32_t *o = big_order(1);
	size_t *nz = malloc(BIG_LINES * sizeof *nz), len, place, q, a, b, mid, half = 0, k;
	char *t = big_text_of(o, BIG_LINES, 0, NULL, &len);

	/* the lines of the pairs (nonzero weights; a swap of two keeps them),
	 * and the pair that the second half begins with */
	cr_assert_not_null(nz);
	for (k = 0, q = 0; k < BIG_LINES; k++) {
		uint32_t i, j;
		double w;

		big_coupler(o[k], &i, &j, &w);
		if (w != 0.0)
			nz[q++] = k;
	}
	mid = half_line(t, len);
	free(t);
	while (nz[half] < mid)
		half++;
	for (place = 0; place < 3; place++) {
		for (q = place == 0 ? 1 : place == 1 ? chunk : half;; q++) {
			uint32_t ia, ja, ib, jb, tmp;
			double wa, wb;
			qubo_model *ref, *m;
			char what[80];

			a = nz[q - 1];
			b = nz[q];
			big_coupler(o[a], &ia, &ja, &wa);
			big_coupler(o[b], &ib, &jb, &wb);
			if (ia == ib && ja == jb)
				continue; /* a repeat: swapped, still in order */
			tmp = o[a];
			o[a] = o[b];
			o[b] = tmp;
			t = big_text_of(o, BIG_LINES, 0, NULL, &len);
			if (place == 2 && !(a < half_line(t, len) && half_line(t, len) <= b)) {
				/* the lengths of the swapped lines moved the middle */
				o[b] = o[a];
				o[a] = tmp;
				free(t);
				cr_assert_lt(q, half + 100, "no pair found across the middle");
				continue;
			}
			snprintf(what, sizeof what, "lines %zu and %zu swapped (pairs %zu, %zu)", a,
				 b, q - 1, q);
			ref = big_reference_of(o, 0.0);
			cr_assert_eq(qubo_qbsolv_read(&m, t, len, NULL), QUBO_OK, "%s: %s", what,
				     qubo_error_message());
			expect_same(m, ref, what);
			qubo_model_free(m);
			qubo_model_free(ref);
			free(t);
			o[b] = o[a];
			o[a] = tmp;
			break;
		}
	}
	free(nz);
	free(o);
}

Test(qbsolv, out_of_memory_while_reading_a_long_input)
{
	size_t len;
	char *t = big_text(BIG_LINES, BIG_LINES * 3 / 4, "c comment\n", 0, &len);

	oom_read(t, len);
	free(t);
	/* in order: the compile's path for pairs in order */
	t = big_text(BIG_LINES, BIG_LINES * 3 / 4, "c comment\n", 1, &len);
	oom_read(t, len);
	free(t);
}
