/*
 * qubo_model_compile() on long lists of single pairs, white-box: the
 * compile's thread count is set through the internal setter.
 *
 * The compiled form must equal a reference merge written here (a stable
 * qsort by key, duplicates summed in the order they were added, zeros
 * dropped) bit for bit, at 1, 2 and 4 threads, and so must the weight sum's
 * parts (qubo/model.h); allocation failures and the interrupt function must
 * leave the model as it was.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "util.h"

/* More pairs than the compile's threshold for threads (PAR_MIN_PAIRS). */
#define NPAIRS 150000

typedef struct term {
	uint32_t i, j; /* as added */
	double w;
	size_t order;
} term;

/* Weights over many magnitudes, and some pairs that cancel exactly, so
 * that a change in the order of the additions changes some sums. */
static double weight(tu_rng *r)
{
	double w = tu_unit(r) * 2.0 - 1.0;
	int e = (int)tu_below(r, 40) - 20;

	while (e > 0) {
		w *= 2.0;
		e--;
	}
	while (e < 0) {
		w /= 2.0;
		e++;
	}
	return w == 0.0 ? 1.0 : w;
}

/* n terms over v variables, heavily duplicated, in both orders, with some
 * self-pairs (i, i) and some cancelling repeats. */
static term *make_terms(uint64_t seed, size_t n, uint32_t v)
{
	term *t = malloc(n * sizeof *t);
	tu_rng r = { seed };
	size_t k;

	cr_assert_not_null(t);
	for (k = 0; k < n; k++) {
		uint64_t kind = tu_below(&r, 100);
		if (k > 0 && kind < 10) { /* the negation of an earlier term */
			t[k] = t[tu_below(&r, k)];
			t[k].w = -t[k].w;
		} else if (k > 0 && kind < 20) { /* an earlier pair, swapped */
			const term *o = &t[tu_below(&r, k)];
			t[k].i = o->j;
			t[k].j = o->i;
			t[k].w = weight(&r);
		} else {
			t[k].i = (uint32_t)tu_below(&r, v);
			t[k].j = kind < 22 ? t[k].i : (uint32_t)tu_below(&r, v);
			t[k].w = weight(&r);
		}
		t[k].order = k;
	}
	return t;
}

static int cmp_key(const void *pa, const void *pb)
{
	const term *a = pa, *b = pb;
	uint32_t ai = a->i < a->j ? a->i : a->j, aj = a->i < a->j ? a->j : a->i;
	uint32_t bi = b->i < b->j ? b->i : b->j, bj = b->i < b->j ? b->j : b->i;

	if (ai != bi)
		return ai < bi ? -1 : 1;
	if (aj != bj)
		return aj < bj ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* make_terms() without the self-pairs, in order of (min, max) and, among
 * repeats, of addition, renumbered in that order: the order of a file
 * listed by rows, as the compile's path for pairs in order takes them.
 * Some pairs keep their (j, i) form. *n_out receives the count. */
static term *in_order(uint64_t seed, size_t n, uint32_t v, size_t *n_out)
{
	term *t = make_terms(seed, n, v);
	size_t k, m = 0;

	for (k = 0; k < n; k++)
		if (t[k].i != t[k].j)
			t[m++] = t[k];
	qsort(t, m, sizeof *t, cmp_key);
	for (k = 0; k < m; k++)
		t[k].order = k;
	*n_out = m;
	return t;
}

typedef struct coo {
	size_t count;
	uint32_t *r, *c;
	double *w;
	double *h;
} coo;

static void coo_free(coo *x)
{
	free(x->r);
	free(x->c);
	free(x->w);
	free(x->h);
}

/* The reference: sorted by (min, max) and then by the order of addition,
 * each run summed from its first term on; self-pairs go to h. With
 * `reverse`, each run is summed from its last term instead. */
static coo reference(const term *terms, size_t n, uint32_t v, int reverse)
{
	term *t = malloc(n * sizeof *t);
	coo x;
	size_t k, g;

	cr_assert_not_null(t);
	memcpy(t, terms, n * sizeof *t);
	qsort(t, n, sizeof *t, cmp_key);
	x.count = 0;
	x.r = malloc(n * sizeof *x.r);
	x.c = malloc(n * sizeof *x.c);
	x.w = malloc(n * sizeof *x.w);
	x.h = calloc(v, sizeof *x.h);
	cr_assert(x.r && x.c && x.w && x.h);
	for (k = 0; k < n; k = g) {
		uint32_t i = t[k].i < t[k].j ? t[k].i : t[k].j;
		uint32_t j = t[k].i < t[k].j ? t[k].j : t[k].i;
		double s;
		for (g = k + 1; g < n && (t[g].i < t[g].j ? t[g].i : t[g].j) == i &&
				(t[g].i < t[g].j ? t[g].j : t[g].i) == j;
		     g++)
			;
		if (reverse) {
			size_t q = g - 1;
			s = t[q].w;
			while (q-- > k)
				s += t[q].w;
		} else {
			size_t q = k;
			s = t[q].w;
			while (++q < g)
				s += t[q].w;
		}
		if (i == j) {
			x.h[i] = s;
			continue;
		}
		if (s != 0.0) {
			x.r[x.count] = i;
			x.c[x.count] = j;
			x.w[x.count++] = s;
		}
	}
	free(t);
	return x;
}

static qubo_model *build(const term *t, size_t n, uint32_t v, const qubo_allocator *a)
{
	qubo_model *m;
	size_t k;

	cr_assert_eq(qubo_model_new(&m, v, a), QUBO_OK);
	for (k = 0; k < n; k++)
		cr_assert_eq(qubo_model_add_quadratic(m, t[k].i, t[k].j, t[k].w), QUBO_OK);
	return m;
}

/* The first `split` terms compiled, the others added after: the compile
 * that follows merges pairs into a previous form (the general path; with
 * split 0, pairs alone take their own). */
static qubo_model *build_on_compiled(const term *t, size_t n, size_t split, uint32_t v,
				     const qubo_allocator *a)
{
	qubo_model *m = build(t, split, v, a);
	size_t k;

	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	for (k = split; k < n; k++)
		cr_assert_eq(qubo_model_add_quadratic(m, t[k].i, t[k].j, t[k].w), QUBO_OK);
	return m;
}

static coo exported(const qubo_model *m)
{
	size_t v = qubo_model_num_variables(m);
	coo x;

	cr_assert_eq(qubo_model_export_coo(m, NULL, NULL, NULL, 0, &x.count), QUBO_OK);
	x.r = malloc((x.count + 1) * sizeof *x.r);
	x.c = malloc((x.count + 1) * sizeof *x.c);
	x.w = malloc((x.count + 1) * sizeof *x.w);
	x.h = malloc(v * sizeof *x.h);
	cr_assert(x.r && x.c && x.w && x.h);
	cr_assert_eq(qubo_model_export_coo(m, x.r, x.c, x.w, x.count + 1, &x.count), QUBO_OK);
	cr_assert_eq(qubo_model_export_linear(m, x.h, v), QUBO_OK);
	return x;
}

/* Bit-for-bit equality; the index of the first difference, or SIZE_MAX. */
static size_t first_difference(const coo *a, const coo *b, uint32_t v)
{
	size_t k;

	for (k = 0; k < a->count && k < b->count; k++)
		if (a->r[k] != b->r[k] || a->c[k] != b->c[k] ||
		    memcmp(&a->w[k], &b->w[k], sizeof a->w[k]) != 0)
			return k;
	if (a->count != b->count)
		return k;
	for (k = 0; k < v; k++)
		if (memcmp(&a->h[k], &b->h[k], sizeof a->h[k]) != 0)
			return a->count + k;
	return SIZE_MAX;
}

/* The whole symmetric form, which the export does not show (it gives the
 * upper triangle): each row sorted, split at its diagonal by upper, every
 * entry mirrored with the same bits, nnz and the largest degree right. */
static void check_symmetric(const qubo_model *m)
{
	size_t a, k, maxdeg = 0;

	cr_assert_eq(m->row[0], 0);
	cr_assert_eq(m->row[m->n], m->nnz);
	for (a = 0; a < m->n; a++) {
		size_t lo = m->row[a], hi = m->row[a + 1];

		cr_assert(lo <= m->upper[a] && m->upper[a] <= hi, "row %zu", a);
		if (hi - lo > maxdeg)
			maxdeg = hi - lo;
		for (k = lo; k < hi; k++) {
			uint32_t c = m->col[k];
			size_t x = m->row[c], y = m->row[c + 1];

			cr_assert(k == lo || m->col[k - 1] < c, "row %zu is not sorted", a);
			cr_assert_eq(k < m->upper[a], c < a, "row %zu: upper is wrong", a);
			cr_assert_neq(m->val[k], 0.0);
			while (x < y) { /* (c, a) in row c */
				size_t mid = x + (y - x) / 2;
				if (m->col[mid] < a)
					x = mid + 1;
				else
					y = mid;
			}
			cr_assert(x < m->row[c + 1] && m->col[x] == a, "(%u, %zu) is missing", c,
				  a);
			cr_assert_eq(memcmp(&m->val[x], &m->val[k], sizeof m->val[k]), 0,
				     "(%zu, %u) and (%u, %zu) differ", a, c, c, a);
		}
	}
	cr_assert_eq(m->max_degree, maxdeg);
}

/* Σ|v[k]| as the compile adds magnitudes: v[k] into partial sum k mod 4,
 * then (s0 + s1) + (s2 + s3). */
static double lanes(const double *v, size_t len)
{
	double s[4] = { 0.0, 0.0, 0.0, 0.0 };
	size_t k;

	for (k = 0; k < len; k++)
		s[k % 4] += fabs(v[k]);
	return (s[0] + s[1]) + (s[2] + s[3]);
}

/* The weight sum's parts of a compiled model are those of its export,
 * bit for bit: the offset and the linear weights in order; each row's
 * couplers by lanes() in order of column, then the rows' sums, every row
 * counted, by lanes() in order of row. */
static void check_weight_sum(const qubo_model *m, const coo *x)
{
	double lin = fabs(qubo_model_offset(m)), quad, *rows = calloc(m->n + 1, sizeof *rows);
	size_t k, g;

	cr_assert_not_null(rows);
	for (k = 0; k < m->n; k++)
		lin += fabs(x->h[k]);
	for (k = 0; k < x->count; k = g) {
		for (g = k; g < x->count && x->r[g] == x->r[k]; g++)
			;
		rows[x->r[k]] = lanes(x->w + k, g - k);
	}
	quad = lanes(rows, m->n);
	free(rows);
	cr_assert_eq(memcmp(&m->coupler_sum, &quad, sizeof quad), 0, "coupler sum %a, expected %a",
		     m->coupler_sum, quad);
	cr_assert_eq(memcmp(&m->linear_bound, &lin, sizeof lin), 0, "linear sum %a, expected %a",
		     m->linear_bound, lin);
}

/* Compiles m on the given number of threads, checks it against ref and
 * frees it. */
static void expect_compiled(qubo_model *m, int threads, const coo *ref, uint32_t v)
{
	coo got;
	size_t d;

	qubo__model_set_compile_threads(m, threads);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	check_symmetric(m);
	got = exported(m);
	d = first_difference(&got, ref, v);
	cr_assert_eq(d, SIZE_MAX, "v = %u, %d threads: differs at %zu (%zu couplers, expected %zu)",
		     v, threads, d, got.count, ref->count);
	check_weight_sum(m, &got);
	coo_free(&got);
	qubo_model_free(m);
}

/* The compiled form equals the reference bit for bit at 1, 2 and 4
 * threads, over few variables (long rows) and many (short rows); the
 * reference summed in the other order differs, so the check sees order. */
Test(compile, pairs_equal_a_reference_merge_bit_for_bit_at_any_thread_count)
{
	static const uint32_t vars[] = { 40, 700, 60000 };
	static const int threads[] = { 1, 2, 4 };
	size_t a, b;

	for (a = 0; a < sizeof vars / sizeof *vars; a++) {
		uint32_t v = vars[a];
		term *t = make_terms(1000 + a, NPAIRS, v);
		coo ref = reference(t, NPAIRS, v, 0), rev = reference(t, NPAIRS, v, 1);

		if (v <= 700) /* enough repeats that the order shows */
			cr_assert_neq(first_difference(&ref, &rev, v), SIZE_MAX,
				      "v = %u: the data does not depend on the order", v);
		for (b = 0; b < sizeof threads / sizeof *threads; b++)
			expect_compiled(build(t, NPAIRS, v, NULL), threads[b], &ref, v);
		coo_free(&ref);
		coo_free(&rev);
		free(t);
	}
}

/* Pairs on top of a compiled form and of cliques: the same result at 1, 2
 * and 4 threads, and as a second compile of the same terms. */
Test(compile, pairs_cliques_and_a_previous_form_merge_the_same_at_any_thread_count)
{
	static const int threads[] = { 1, 2, 4 };
	const uint32_t v = 500;
	term *t = make_terms(77, NPAIRS, v);
	coo first = { 0, NULL, NULL, NULL, NULL };
	size_t b, k;

	for (b = 0; b < sizeof threads / sizeof *threads; b++) {
		qubo_model *m = build(t, NPAIRS / 2, v, NULL);
		qubo_lit lits[60];
		coo got;

		qubo__model_set_compile_threads(m, threads[b]);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		for (k = 0; k < 60; k++)
			lits[k] = k % 3 ? QUBO_LIT((uint32_t)(k * 7)) : QUBO_LIT_NEG((uint32_t)(k * 7));
		cr_assert_eq(qubo_model_add_clique(m, lits, 60, 0.375), QUBO_OK);
		for (k = NPAIRS / 2; k < NPAIRS; k++)
			cr_assert_eq(qubo_model_add_quadratic(m, t[k].i, t[k].j, t[k].w), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		got = exported(m);
		check_weight_sum(m, &got);
		if (b == 0) {
			first = got;
			cr_assert_gt(first.count, 1000);
		} else {
			cr_assert_eq(first_difference(&got, &first, v), SIZE_MAX, "%d threads",
				     threads[b]);
			coo_free(&got);
		}
		qubo_model_free(m);
	}
	coo_free(&first);
	free(t);
}

/* The terms of the tests below: make_terms(), or in_order() when ordered;
 * *n receives their count. */
static term *test_terms(uint64_t seed, size_t count, uint32_t v, int ordered, size_t *n)
{
	*n = count;
	return ordered ? in_order(seed, count, v, n) : make_terms(seed, count, v);
}

/* Allocation k of the compile fails, for every k: QUBO_ERR_NOMEM, the
 * model unchanged (uncompiled, compiling later to the reference), nothing
 * leaked. split: as in build_on_compiled; ordered: the terms in order (the
 * compile's path for them); on the given threads. Returns the failures
 * seen. */
static size_t allocation_failures(size_t split, int ordered, int threads)
{
	const uint32_t v = 300;
	size_t n;
	term *t = test_terms(5, NPAIRS / 2, v, ordered, &n);
	coo ref = reference(t, n, v, 0);
	size_t k, failures = 0;

	for (k = 1; k < 1000; k++) {
		tu_failalloc fa;
		qubo_model *m;
		size_t before;
		int rc;
		coo got;

		tu_failalloc_init(&fa, 0);
		m = build_on_compiled(t, n, split, v, &fa.a);
		cr_assert_eq(m->pairs_unsorted, !ordered);
		qubo__model_set_compile_threads(m, threads);
		before = fa.count;
		fa.fail_at = before + k;
		rc = qubo_model_compile(m);
		fa.fail_at = 0;
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
		} else {
			/* a failed shrink at the end is absorbed */
			if (rc != QUBO_OK) {
				cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %s", k,
					     qubo_status_name(rc));
				cr_assert_eq(qubo_model_is_compiled(m), 0);
				failures++;
			}
			if (!qubo_model_is_compiled(m))
				cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		}
		got = exported(m);
		cr_assert_eq(first_difference(&got, &ref, v), SIZE_MAX, "allocation %zu", k);
		coo_free(&got);
		qubo_model_free(m);
		cr_assert_eq(fa.live, 0, "allocation %zu leaked %zu blocks", k, fa.live);
		if (!fa.failed)
			break;
	}
	coo_free(&ref);
	free(t);
	return failures;
}

Test(compile, every_allocation_failure_of_a_threaded_compile_is_clean)
{
	/* work space, parts, the row starts, the linear weights, the upper
	 * rows, the mirror's cursors (the buckets' scratch) */
	size_t failures = allocation_failures(0, 0, 2);

	cr_assert_geq(failures, 8, "only %zu allocations could fail", failures);
}

Test(compile, every_allocation_failure_of_a_threaded_compile_of_pairs_in_order_is_clean)
{
	/* work space, parts, the lower counts of each of two parts, the
	 * columns */
	size_t failures = allocation_failures(0, 1, 2);

	cr_assert_geq(failures, 7, "only %zu allocations could fail", failures);
}

Test(compile, every_allocation_failure_of_a_threaded_merge_into_a_previous_form_is_clean)
{
	/* work space, parts, scratch of each of two parts, the adjacency */
	size_t failures = allocation_failures(NPAIRS / 4, 0, 2);

	cr_assert_geq(failures, 12, "only %zu allocations could fail", failures);
}

typedef struct stopper {
	size_t calls, stop_at;
} stopper;

static int stop_fn(void *user_data)
{
	stopper *s = user_data;

	s->calls++;
	return s->stop_at && s->calls >= s->stop_at;
}

/* The interrupt function is polled by a threaded compile too, and a stop
 * at any of its polls returns QUBO_CANCELLED with the model unchanged.
 * split and ordered: as in allocation_failures. */
static void stops_at_any_poll(size_t split, int ordered)
{
	const uint32_t v = 2000;
	size_t n;
	/* in order, only the count polls: more pairs, for as many polls */
	term *t = test_terms(9, ordered ? 4 * NPAIRS : NPAIRS, v, ordered, &n);
	coo ref = reference(t, n, v, 0);
	stopper s = { 0, 0 };
	size_t total, k;

	{
		qubo_model *m = build_on_compiled(t, n, split, v, NULL);
		cr_assert_eq(m->pairs_unsorted, !ordered);
		qubo__model_set_compile_threads(m, 2);
		cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		qubo_model_free(m);
	}
	total = s.calls;
	/* the count of NPAIRS pairs and the calling thread's share of the two
	 * threaded passes poll */
	cr_assert_geq(total, 3, "polled %zu times", total);
	for (k = 1; k <= total; k++) {
		qubo_model *m = build_on_compiled(t, n, split, v, NULL);
		coo got;

		qubo__model_set_compile_threads(m, 2);
		s.calls = 0;
		s.stop_at = k;
		cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_CANCELLED, "stop at poll %zu of %zu", k,
			     total);
		cr_assert_eq(s.calls, k, "the compile went on after the stop");
		cr_assert_eq(qubo_model_is_compiled(m), 0);
		cr_assert_eq(qubo_model_set_interrupt(m, NULL, NULL), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		got = exported(m);
		cr_assert_eq(first_difference(&got, &ref, v), SIZE_MAX, "stop at poll %zu", k);
		coo_free(&got);
		qubo_model_free(m);
	}
	coo_free(&ref);
	free(t);
}

Test(compile, interrupt_stops_a_threaded_compile_at_any_poll)
{
	stops_at_any_poll(0, 0);
}

Test(compile, interrupt_stops_a_threaded_compile_of_pairs_in_order_at_any_poll)
{
	stops_at_any_poll(0, 1);
}

Test(compile, interrupt_stops_a_threaded_merge_into_a_previous_form_at_any_poll)
{
	stops_at_any_poll(NPAIRS / 4, 0);
}

/* Pairs added to a compiled form sum after its values, in the order they
 * were added: the reference of all the terms, at 1, 2 and 4 threads. */
Test(compile, pairs_on_a_previous_form_equal_the_reference_at_any_thread_count)
{
	static const int threads[] = { 1, 2, 4 };
	const uint32_t v = 700;
	term *t = make_terms(31, NPAIRS, v);
	coo ref = reference(t, NPAIRS, v, 0);
	size_t b;

	for (b = 0; b < sizeof threads / sizeof *threads; b++) {
		expect_compiled(build_on_compiled(t, NPAIRS, NPAIRS / 3, v, NULL), threads[b], &ref,
				v);
	}
	coo_free(&ref);
	free(t);
}

/* A sum that overflows is reported for the same (lowest) coupler at any
 * thread count. */
Test(compile, an_infinite_sum_names_the_same_coupler_at_any_thread_count)
{
	static const int threads[] = { 1, 2, 4 };
	const uint32_t v = 1000;
	term *t = make_terms(3, NPAIRS, v);
	size_t b;

	for (b = 0; b < sizeof threads / sizeof *threads; b++) {
		qubo_model *m = build(t, NPAIRS, v, NULL);

		qubo__model_set_compile_threads(m, threads[b]);
		/* rows 600 and 900 overflow; 600 is reported */
		cr_assert_eq(qubo_model_add_quadratic(m, 900, 950, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, 950, 900, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, 601, 600, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, 600, 601, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_ERR_OUT_OF_RANGE);
		cr_assert(strstr(qubo_error_message(), "(600, 601)"), "%d threads: %s",
			  threads[b], qubo_error_message());
		cr_assert_eq(qubo_model_is_compiled(m), 0);
		qubo_model_free(m);
	}
	free(t);
}

/* ------------------------------------------------------------------ */
/* Pairs in random order go through buckets of upper rows; the internal
 * setter makes the buckets small, so that few pairs fill many. The thread
 * counts: 1 and 2 (the mirror by the parts' own rows), 3 and 4 (by ranges
 * of rows, with as many chunks of the log), 6 (chunks for four parts, none
 * for the last two). */

/* More pairs than PAR_MIN_PAIRS: the parts run on threads. */
#define BPAIRS 70000

static const int bucket_threads[] = { 1, 2, 3, 4, 6 };

#define BUCKET_THREADS (sizeof bucket_threads / sizeof *bucket_threads)

/* Many buckets (1, 64 or 2048 entries beyond the longest row: 1 makes a
 * bucket of each row) over rows of
 * about 25 entries and over rows of less than one: the reference bit for
 * bit at every thread count. Repeats lie all over the log, so in other
 * chunks than their first, and cancel or round differently in another
 * order. */
Test(compile, pairs_through_many_buckets_equal_the_reference_at_any_thread_count)
{
	static const uint32_t vars[] = { 3000, 300000 };
	static const size_t caps[] = { 1, 64, 2048 };
	size_t a, b;

	for (a = 0; a < sizeof vars / sizeof *vars; a++) {
		uint32_t v = vars[a];
		term *t = make_terms(4000 + a, BPAIRS, v);
		coo ref = reference(t, BPAIRS, v, 0), rev = reference(t, BPAIRS, v, 1);

		if (v <= 3000)
			cr_assert_neq(first_difference(&ref, &rev, v), SIZE_MAX,
				      "v = %u: the data does not depend on the order", v);
		for (b = 0; b < BUCKET_THREADS; b++) {
			qubo_model *m = build(t, BPAIRS, v, NULL);
			qubo__model_set_compile_bucket(m, caps[(a + b) % 3]);
			expect_compiled(m, bucket_threads[b], &ref, v);
		}
		coo_free(&ref);
		coo_free(&rev);
		free(t);
	}
}

/* Rows of every kind a bucket holds: row 7 with a quarter of the pairs,
 * longer than a bucket may be beyond it (so its bucket is it and a few
 * rows around it, sorted by digits), 250 rows of 56 to 84 entries each
 * side of RANK_MAX (64: ranked up to it, sorted by digits past it), and
 * short random rows; a fifth of the pairs repeat an earlier one, swapped
 * or negated. */
Test(compile, rows_longer_than_a_bucket_or_than_a_ranked_row_at_any_thread_count)
{
	const uint32_t v = 20000;
	term *t = malloc(BPAIRS * sizeof *t);
	tu_rng r = { 29 };
	coo ref;
	size_t k, b;

	cr_assert_not_null(t);
	for (k = 0; k < BPAIRS; k++) {
		uint64_t kind = tu_below(&r, 20);
		if (k > 0 && kind < 4) {
			const term *o = &t[tu_below(&r, k)];
			t[k].i = kind < 2 ? o->j : o->i;
			t[k].j = kind < 2 ? o->i : o->j;
			t[k].w = kind < 2 ? weight(&r) : -o->w;
		} else if (kind < 9) {
			t[k].i = 7;
			t[k].j = 8 + (uint32_t)tu_below(&r, v - 8);
			t[k].w = weight(&r);
		} else if (kind < 14) {
			uint32_t row = 100 + (uint32_t)(k % 250);
			t[k].i = row + 1 + (uint32_t)tu_below(&r, v - row - 1);
			t[k].j = row; /* given as (j, i) */
			t[k].w = weight(&r);
		} else {
			t[k].i = (uint32_t)tu_below(&r, v);
			t[k].j = (uint32_t)tu_below(&r, v);
			t[k].w = weight(&r);
		}
		t[k].order = k;
	}
	ref = reference(t, BPAIRS, v, 0);
	for (b = 0; b < BUCKET_THREADS; b++) {
		qubo_model *m = build(t, BPAIRS, v, NULL);
		qubo__model_set_compile_bucket(m, 2048);
		expect_compiled(m, bucket_threads[b], &ref, v);
	}
	coo_free(&ref);
	free(t);
}

/* A linear weight that overflows through pairs (i, i) is reported before a
 * coupler that does, and the lowest such coupler is named, at every thread
 * count; the model is left as it was. */
Test(compile, an_infinite_linear_weight_is_reported_before_an_infinite_coupler)
{
	const uint32_t v = 1000;
	term *t = make_terms(41, BPAIRS, v);
	size_t b;

	for (b = 0; b < 2 * BUCKET_THREADS; b++) {
		int linear = b < BUCKET_THREADS;
		qubo_model *m = build(t, BPAIRS, v, NULL);

		qubo__model_set_compile_threads(m, bucket_threads[b % BUCKET_THREADS]);
		qubo__model_set_compile_bucket(m, 256);
		cr_assert_eq(qubo_model_add_quadratic(m, 990, 800, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, 800, 990, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, 901, 31, 1e308), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, 31, 901, 1e308), QUBO_OK);
		if (linear) {
			cr_assert_eq(qubo_model_add_quadratic(m, 950, 950, 1e308), QUBO_OK);
			cr_assert_eq(qubo_model_add_quadratic(m, 950, 950, 1e308), QUBO_OK);
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_ERR_OUT_OF_RANGE);
		cr_assert(strstr(qubo_error_message(),
				 linear ? "linear weight of variable 950" : "(31, 901)"),
			  "%d threads: %s", bucket_threads[b % BUCKET_THREADS],
			  qubo_error_message());
		cr_assert_eq(qubo_model_is_compiled(m), 0);
		qubo_model_free(m);
	}
	free(t);
}

/* Every allocation failure on four threads (four chunks of the log, their
 * counts in nupper and nrow, the mirror by ranges of rows) is clean too. */
Test(compile, every_allocation_failure_of_a_compile_on_four_threads_is_clean)
{
	size_t failures = allocation_failures(0, 0, 4);

	cr_assert_geq(failures, 8, "only %zu allocations could fail", failures);
}

/* ------------------------------------------------------------------ */
/* Pairs added in order of (i, j): the compile takes them as rows. */

/* The model notes when its log leaves that order: a descent, a pair
 * (i, i); not a repeat or a pair given as (j, i); a compile or an empty
 * log starts over. */
Test(compile, the_log_notes_when_it_leaves_the_order_of_rows)
{
	static const uint32_t rows[] = { 4, 5 }, cols[] = { 5, 4 };
	static const double w[] = { 1.0, 0.0 };
	qubo_model *m;

	cr_assert_eq(qubo_model_new(&m, 8, NULL), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 0);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 3, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 3, 2.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic_batch(m, 2, rows, cols, w), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 0);
	cr_assert_eq(qubo_model_add_quadratic(m, 2, 7, 1.0), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 1, "(2, 7) after (4, 5)");
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 0);
	cr_assert_eq(qubo_model_add_quadratic(m, 6, 6, 1.0), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 1, "a pair (i, i)");
	qubo_model_free(m);
	cr_assert_eq(qubo_model_new(&m, 8, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 2, 3, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 2, 1, 1.0), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 1, "(1, 2) after (2, 3)");
	qubo_model_free(m);
	cr_assert_eq(qubo_model_new(&m, 8, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 2, 5, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 2, 4, 1.0), QUBO_OK);
	cr_assert_eq(m->pairs_unsorted, 1, "(2, 4) after (2, 5)");
	qubo_model_free(m);
}

/* Pairs in order compile to the reference bit for bit at 1, 2 and 4
 * threads, over long rows and short ones, with repeats (whose order shows
 * in the sums) and repeats that cancel; the general way, made to take
 * them, gives the same. */
Test(compile, pairs_in_order_equal_a_reference_merge_bit_for_bit_at_any_thread_count)
{
	static const uint32_t vars[] = { 40, 700, 60000 };
	static const int threads[] = { 1, 2, 4 };
	size_t a, b, n;

	for (a = 0; a < sizeof vars / sizeof *vars; a++) {
		uint32_t v = vars[a];
		term *t = in_order(2000 + a, NPAIRS, v, &n);
		coo ref = reference(t, n, v, 0), rev = reference(t, n, v, 1);
		qubo_model *m;

		if (v <= 700)
			cr_assert_neq(first_difference(&ref, &rev, v), SIZE_MAX,
				      "v = %u: the data does not depend on the order", v);
		for (b = 0; b < sizeof threads / sizeof *threads; b++) {
			m = build(t, n, v, NULL);
			cr_assert_eq(m->pairs_unsorted, 0);
			expect_compiled(m, threads[b], &ref, v);
		}
		m = build(t, n, v, NULL);
		m->pairs_unsorted = 1; /* white-box: the general way */
		expect_compiled(m, 2, &ref, v);
		coo_free(&ref);
		coo_free(&rev);
		free(t);
	}
}

/* All pairs in one row (0, j): the ranges of the parts after the first are
 * empty; and a row of its own for each pair. */
Test(compile, pairs_in_order_in_one_row_or_one_per_row_at_any_thread_count)
{
	static const int threads[] = { 1, 2, 4, 7 };
	const uint32_t v = 5000;
	term *t = malloc(NPAIRS * sizeof *t);
	tu_rng r = { 17 };
	size_t k, b, shape;

	cr_assert_not_null(t);
	for (shape = 0; shape < 2; shape++) {
		coo ref;

		for (k = 0; k < NPAIRS; k++) {
			if (shape == 0) {
				t[k].i = 0;
				t[k].j = 1 + (uint32_t)tu_below(&r, v - 1);
			} else {
				t[k].i = (uint32_t)(k % (v - 1));
				t[k].j = t[k].i + 1 + (uint32_t)tu_below(&r, v - 1 - t[k].i);
			}
			t[k].w = weight(&r);
			t[k].order = k;
		}
		qsort(t, NPAIRS, sizeof *t, cmp_key);
		for (k = 0; k < NPAIRS; k++)
			t[k].order = k;
		ref = reference(t, NPAIRS, v, 0);
		for (b = 0; b < sizeof threads / sizeof *threads; b++) {
			qubo_model *m = build(t, NPAIRS, v, NULL);
			cr_assert_eq(m->pairs_unsorted, 0);
			expect_compiled(m, threads[b], &ref, v);
		}
		coo_free(&ref);
	}
	free(t);
}

/* A sum that overflows among pairs in order names the same coupler as the
 * general way, at any thread count, and leaves the model as it was. */
Test(compile, an_infinite_sum_of_pairs_in_order_names_the_same_coupler)
{
	static const int threads[] = { 1, 2, 4 };
	const uint32_t v = 1000;
	size_t b, n;
	term *t = in_order(3, NPAIRS, v, &n);
	term *u = malloc((n + 4) * sizeof *u);
	static const uint32_t bad[4][2] = {
		{ 900, 950 }, { 950, 900 }, { 601, 600 }, { 600, 601 }
	};

	cr_assert_not_null(u);
	memcpy(u, t, n * sizeof *t);
	for (b = 0; b < 4; b++) {
		u[n + b].i = bad[b][0];
		u[n + b].j = bad[b][1];
		u[n + b].w = 1e308;
		u[n + b].order = n + b;
	}
	qsort(u, n + 4, sizeof *u, cmp_key);
	for (b = 0; b <= sizeof threads / sizeof *threads; b++) {
		qubo_model *m = build(u, n + 4, v, NULL);

		if (b == sizeof threads / sizeof *threads)
			m->pairs_unsorted = 1; /* the general way */
		else
			qubo__model_set_compile_threads(m, threads[b]);
		cr_assert_eq(qubo_model_compile(m), QUBO_ERR_OUT_OF_RANGE);
		cr_assert(strstr(qubo_error_message(), "(600, 601)"), "%zu: %s", b,
			  qubo_error_message());
		cr_assert_eq(qubo_model_is_compiled(m), 0);
		qubo_model_free(m);
	}
	free(u);
	free(t);
}

/* ------------------------------------------------------------------ */
/* The qbsolv reader's logs: texts in order, shuffled, partly in order,
 * with repeats, and with a run of one coupler across the middle, where the
 * reader's second thread takes over (more than 1 MiB of coupler lines). */

enum { TEXT_ORDERED, TEXT_SHUFFLED, TEXT_PARTLY, TEXT_TWICE, TEXT_ACROSS, TEXT_KINDS };

static const char *const text_kind[TEXT_KINDS] = {
	"in order", "shuffled", "partly in order", "listed twice", "a run across the halves"
};

/* Coupler lines of the texts below: over 1 MiB (the reader's threshold for
 * a second thread) with weights in %.17g. */
#define TEXT_LINES 70000

/* The couplers of a text of the given kind over v variables (i < j, as
 * coupler lines need), in the order of its lines; *n receives the count.
 * Weights are multiples of 1/64 (exact in %.17g and in any order of
 * their sums but those that cancel) and of 1e-3 (inexact: their sums show
 * the order). */
static term *text_terms(int kind, uint32_t v, size_t *n)
{
	size_t count = TEXT_LINES, k, half;
	term *t = in_order(40 + (uint64_t)kind, count, v, &count);
	tu_rng r = { 99 };

	for (k = 0; k < count; k++) { /* i < j on every line */
		uint32_t a = t[k].i, b = t[k].j;
		t[k].i = a < b ? a : b;
		t[k].j = a < b ? b : a;
		if (k % 3 == 0)
			t[k].w = (double)(tu_range(&r, -640, 639) | 1) / 1000.0;
		else if (t[k].w > -1e-3 && t[k].w < 1e-3)
			t[k].w = 1.0 / 64;
	}
	half = count / 2;
	switch (kind) {
	case TEXT_SHUFFLED:
		for (k = count; k > 1; k--) {
			size_t x = tu_below(&r, k);
			term tmp = t[k - 1];
			t[k - 1] = t[x];
			t[x] = tmp;
		}
		break;
	case TEXT_PARTLY: /* in order but for one line moved back */
		{
			term moved = t[half + 100];
			memmove(t + half / 2 + 1, t + half / 2,
				(half + 100 - half / 2) * sizeof *t);
			t[half / 2] = moved;
		}
		break;
	case TEXT_TWICE: /* the whole list, then again */
		t = realloc(t, 2 * count * sizeof *t);
		cr_assert_not_null(t);
		memcpy(t + count, t, count * sizeof *t);
		count *= 2;
		break;
	case TEXT_ACROSS: /* 4000 lines of one coupler around the middle byte */
		{
			size_t bytes = 0, at = 0, mid;

			for (k = 1; k < count; k++) /* after the first: the reader's cut */
				bytes += (size_t)snprintf(NULL, 0, "%u %u %.17g\n", t[k].i, t[k].j,
							  t[k].w);
			for (mid = bytes / 2, k = 1; k < count && at <= mid; k++)
				at += (size_t)snprintf(NULL, 0, "%u %u %.17g\n", t[k].i, t[k].j,
						       t[k].w);
			cr_assert(k > 2000 && k + 2000 < count);
			for (half = k, k = half - 2000; k < half + 2000; k++) {
				t[k].i = t[half].i;
				t[k].j = t[half].j;
			}
		}
		break;
	default:
		break;
	}
	for (k = 0; k < count; k++)
		t[k].order = k;
	*n = count;
	return t;
}

/* The text of the terms: the header, then one coupler line each. */
static char *text_of(const term *t, size_t n, uint32_t v, size_t *len)
{
	char *s = malloc(64 + n * 40);
	size_t k, at;

	cr_assert_not_null(s);
	at = (size_t)sprintf(s, "p qubo 0 %u 0 %zu\n", v, n);
	for (k = 0; k < n; k++)
		at += (size_t)sprintf(s + at, "%u %u %.17g\n", t[k].i, t[k].j, t[k].w);
	*len = at;
	return s;
}

/* Under valgrind, two threads only (the other counts run natively). */
static size_t thread_counts(const int **threads)
{
	static const int all[] = { 1, 2, 4 }, two[] = { 2 };
	const char *vg = getenv("QUBO_TEST_VALGRIND");

	if (vg && *vg == '1') {
		*threads = two;
		return 1;
	}
	*threads = all;
	return sizeof all / sizeof *all;
}

/* Each kind of text, read without the compile and compiled at 1, 2 and 4
 * threads, equals the reference merge of its lines bit for bit, and so do
 * the text read by qubo_qbsolv_read_ex() and the terms added one by one; the
 * texts in order (a run across the halves included) take the compile's
 * path for pairs in order, the others the general one. */
Test(compile, qbsolv_texts_of_every_order_read_as_their_lines_at_any_thread_count)
{
	const uint32_t v = 3000;
	const int *threads;
	size_t nthreads = thread_counts(&threads), kind, b;

	for (kind = 0; kind < TEXT_KINDS; kind++) {
		size_t n, len;
		term *t = text_terms((int)kind, v, &n);
		char *text = text_of(t, n, v, &len);
		coo ref = reference(t, n, v, 0), rev = reference(t, n, v, 1);
		int ordered = kind == TEXT_ORDERED || kind == TEXT_ACROSS;
		qubo_model *m;
		coo got;

		cr_assert_gt(len, (size_t)5 << 18, "%s: the second thread must read",
			     text_kind[kind]);
		cr_assert_neq(first_difference(&ref, &rev, v), SIZE_MAX,
			      "%s: the data does not depend on the order", text_kind[kind]);
		for (b = 0; b < nthreads; b++) {
			cr_assert_eq(qubo__qbsolv_read_pending(&m, text, len, NULL), QUBO_OK, "%s",
				     qubo_error_message());
			cr_assert_eq(m->num_pairs, n, "%s", text_kind[kind]);
			cr_assert_eq(m->pairs_unsorted, !ordered, "%s", text_kind[kind]);
			expect_compiled(m, threads[b], &ref, v);
		}
		cr_assert_eq(qubo_qbsolv_read_ex(&m, text, len, NULL), QUBO_OK, "%s",
			     qubo_error_message());
		check_symmetric(m);
		got = exported(m);
		cr_assert_eq(first_difference(&got, &ref, v), SIZE_MAX, "%s: read",
			     text_kind[kind]);
		coo_free(&got);
		qubo_model_free(m);
		expect_compiled(build(t, n, v, NULL), 0, &ref, v);
		coo_free(&ref);
		coo_free(&rev);
		free(text);
		free(t);
	}
}

/* Repeats of a coupler in order that overflow are reported by the reader
 * as in any order: at the end of the input, naming the coupler. */
Test(compile, qbsolv_repeats_in_order_that_overflow_name_the_coupler)
{
	static const char *const texts[] = {
		"p qubo 0 9 0 4\n1 2 1\n3 4 1e308\n3 4 1e308\n5 6 1\n",
		"p qubo 0 9 0 4\n3 4 1e308\n5 6 1\n1 2 1\n3 4 1e308\n",
	};
	size_t k;

	for (k = 0; k < 2; k++) {
		qubo_model *m = (qubo_model *)&m;

		cr_assert_eq(qubo_qbsolv_read_ex(&m, texts[k], strlen(texts[k]), NULL),
			     QUBO_ERR_PARSE);
		cr_assert_null(m);
		cr_assert(strstr(qubo_error_message(), "(3, 4)"), "%s", qubo_error_message());
		cr_assert_eq(qubo_error_line(), 6, "text %zu", k);
		cr_assert_eq(qubo_error_column(), 1, "text %zu", k);
	}
}

static const qubo_lit three[3] = { QUBO_LIT(1), QUBO_LIT_NEG(2), QUBO_LIT(3) };

/* The model of terms t with every weight times 2^e, in order or not, with
 * a clique of three or not, compiled on the given threads: its status. */
static int compile_scaled(const term *t, size_t n, uint32_t v, int e, int clique, int threads)
{
	qubo_model *m;
	size_t k;
	int rc;

	cr_assert_eq(qubo_model_new(&m, v, NULL), QUBO_OK);
	for (k = 0; k < n; k++)
		cr_assert_eq(qubo_model_add_quadratic(m, t[k].i, t[k].j, ldexp(t[k].w, e)),
			     QUBO_OK);
	if (clique)
		cr_assert_eq(qubo_model_add_clique(m, three, 3, ldexp(1.0, e)), QUBO_OK);
	qubo__model_set_compile_threads(m, threads);
	rc = qubo_model_compile(m);
	cr_assert_eq(qubo_model_is_compiled(m), rc == QUBO_OK);
	qubo_model_free(m);
	return rc;
}

/* The weight sum's verdict does not depend on the threads: terms scaled
 * by a power of two so that their weight sum is just below 2^1000 compile
 * at 1, 2 and 4 threads, on each of the three ways (pairs in order, in any
 * order, with a clique), and the same terms times 2 are refused at each. */
Test(compile, the_weight_sums_verdict_is_the_same_at_any_thread_count)
{
	const uint32_t v = 700;
	const int *threads;
	size_t n, b, nt = thread_counts(&threads);
	int way;

	for (way = 0; way < 3; way++) {
		term *t = way == 0 ? in_order(91, NPAIRS, v, &n) : make_terms(91, NPAIRS, v);
		qubo_model *m;
		double total;
		int e;

		if (way)
			n = NPAIRS;
		m = build(t, n, v, NULL);
		if (way == 2)
			cr_assert_eq(qubo_model_add_clique(m, three, 3, 1.0), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		total = m->linear_bound + m->coupler_sum;
		qubo_model_free(m);
		(void)frexp(total, &e); /* total < 2^e */
		for (b = 0; b < nt; b++) {
			cr_assert_eq(compile_scaled(t, n, v, 1000 - e, way == 2, threads[b]),
				     QUBO_OK, "way %d, %d threads: %s", way, threads[b],
				     qubo_error_message());
			cr_assert_eq(compile_scaled(t, n, v, 1001 - e, way == 2, threads[b]),
				     QUBO_ERR_OUT_OF_RANGE, "way %d, %d threads", way, threads[b]);
			cr_assert(strstr(qubo_error_message(), "QUBO_MODEL_MAX_WEIGHT_SUM"));
		}
		free(t);
	}
}
