/*
 * The qbsolv reader's second thread and the compile's threads, as a plain
 * program (no Criterion, so that it also runs under ThreadSanitizer, which
 * cannot run Criterion's workers): long texts listed by rows and shuffled
 * are read, and their models compiled at 1, 2 and 4 threads; every model
 * must be the same bit for bit as the one read and compiled on one
 * thread. Exit status 0 when all agree, 1 otherwise (with a message).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "util.h"

#define VARS 4000u
#define LINES 120000u /* about 2 MB of coupler lines: two halves */

static int failures;

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "read_threads: %s: %s\n", what, detail);
	failures++;
}

/* The upper triangle and the linear weights, bit patterns folded. */
static uint64_t digest(const qubo_model *m)
{
	uint64_t x = 1469598103934665603u;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		for (k = m->upper[i]; k < m->row[i + 1]; k++) {
			uint64_t b;
			memcpy(&b, &m->val[k], sizeof b);
			x = (x ^ ((uint64_t)i << 32 | m->col[k])) * 1099511628211u;
			x = (x ^ b) * 1099511628211u;
		}
	}
	for (i = 0; i < m->n; i++) {
		uint64_t b;
		memcpy(&b, &m->h[i], sizeof b);
		x = (x ^ b) * 1099511628211u;
	}
	return x ^ m->nnz;
}

/* LINES coupler lines over VARS variables: by rows (i ascending, j
 * ascending within a row, with repeats) or in random order. */
static char *make_text(int by_rows, size_t *len)
{
	char *t = malloc(64 + (size_t)LINES * 40);
	tu_rng r = { by_rows ? 5u : 6u };
	size_t n, k;
	uint32_t i = 0, j = 1;

	if (!t)
		exit(2);
	n = (size_t)sprintf(t, "p qubo 0 %u 0 %u\n", VARS, LINES);
	for (k = 0; k < LINES; k++) {
		double w = (double)tu_range(&r, -4000, 4000) / 1000.0;
		uint32_t a, b;

		if (by_rows) {
			if (tu_below(&r, 4) != 0) /* else a repeat of the last pair */
				j += 1 + (uint32_t)tu_below(&r, 80);
			while (j >= VARS) {
				i = (i + 1) % (VARS - 1);
				j = i + 1 + (uint32_t)tu_below(&r, 50);
			}
			a = i;
			b = j;
		} else {
			a = (uint32_t)tu_below(&r, VARS);
			b = (uint32_t)tu_below(&r, VARS - 1);
			if (b >= a)
				b++;
			if (a > b) {
				uint32_t c = a;
				a = b;
				b = c;
			}
		}
		n += (size_t)sprintf(t + n, "%u %u %.3f\n", a, b, w);
	}
	*len = n;
	return t;
}

static void check(int by_rows)
{
	static const int threads[] = { 1, 2, 4 };
	const char *what = by_rows ? "by rows" : "shuffled";
	size_t len, k;
	char *text = make_text(by_rows, &len);
	qubo_model *m;
	uint64_t ref = 0;

	if (len < (size_t)3 << 19)
		fail(what, "the text is too short for the reader's second thread");
	for (k = 0; k < sizeof threads / sizeof *threads; k++) {
		uint64_t d;

		if (qubo__qbsolv_read_pending(&m, text, len, NULL)) {
			fail(what, qubo_error_message());
			break;
		}
		if (m->pairs_unsorted != !by_rows)
			fail(what, "the log's order is not as listed");
		qubo__model_set_compile_threads(m, threads[k]);
		if (qubo_model_compile(m)) {
			fail(what, qubo_error_message());
			qubo_model_free(m);
			break;
		}
		d = digest(m);
		if (k == 0)
			ref = d;
		else if (d != ref)
			fail(what, "the model differs from the one compiled on one thread");
		qubo_model_free(m);
	}
	if (qubo_qbsolv_read_ex(&m, text, len, NULL)) {
		fail(what, qubo_error_message());
	} else {
		if (digest(m) != ref)
			fail(what, "qubo_qbsolv_read_ex() differs from the model compiled on "
				   "one thread");
		qubo_model_free(m);
	}
	free(text);
}

int main(void)
{
	check(1);
	check(0);
	if (failures)
		return 1;
	printf("read_threads: the models agree at 1, 2 and 4 threads\n");
	return 0;
}
