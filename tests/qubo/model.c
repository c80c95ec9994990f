/* The model: building, compilation and energy against an independent
 * referee that evaluates the recorded operations directly on each sample. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "util.h"

#define MAXV 10
#define MAXOPS 64

/* One recorded operation, evaluated on x without any QUBO expansion. */
typedef struct op {
	int kind; /* 0 offset, 1 linear, 2 quadratic, 3 lit, 4 lit product, 5 clique */
	uint32_t i, j;
	qubo_lit lits[8];
	size_t count;
	double w;
} op;

static double lit_value(qubo_lit l, const uint8_t *x)
{
	if (l == QUBO_LIT_TRUE)
		return 1.0;
	if (l == QUBO_LIT_FALSE)
		return 0.0;
	return QUBO_LIT_IS_NEG(l) ? 1.0 - x[QUBO_LIT_VAR(l)] : x[QUBO_LIT_VAR(l)];
}

static double op_value(const op *o, const uint8_t *x)
{
	double s = 0.0;
	size_t a, b;

	switch (o->kind) {
	case 0:
		return o->w;
	case 1:
		return o->w * x[o->i];
	case 2:
		return o->w * x[o->i] * x[o->j];
	case 3:
		return o->w * lit_value(o->lits[0], x);
	case 4:
		return o->w * lit_value(o->lits[0], x) * lit_value(o->lits[1], x);
	default:
		for (a = 0; a < o->count; a++)
			for (b = a + 1; b < o->count; b++)
				s += lit_value(o->lits[a], x) * lit_value(o->lits[b], x);
		return o->w * s;
	}
}

static qubo_lit random_lit(tu_rng *r, uint32_t n)
{
	uint64_t k = tu_below(r, 10);
	if (k == 0)
		return QUBO_LIT_TRUE;
	if (k == 1)
		return QUBO_LIT_FALSE;
	return qubo_lit_make((uint32_t)tu_below(r, n), k < 5);
}

static void random_op(tu_rng *r, uint32_t n, op *o)
{
	size_t k;

	memset(o, 0, sizeof *o);
	o->kind = (int)tu_below(r, 6);
	o->w = (double)tu_range(r, -4, 4);
	o->i = (uint32_t)tu_below(r, n);
	o->j = (uint32_t)tu_below(r, n);
	o->count = o->kind == 5 ? (size_t)tu_below(r, 9) : 2;
	for (k = 0; k < 8; k++)
		o->lits[k] = random_lit(r, n);
}

static int apply(qubo_model *m, const op *o)
{
	switch (o->kind) {
	case 0:
		return qubo_model_add_offset(m, o->w);
	case 1:
		return qubo_model_add_linear(m, o->i, o->w);
	case 2:
		return qubo_model_add_quadratic(m, o->i, o->j, o->w);
	case 3:
		return qubo_model_add_lit(m, o->lits[0], o->w);
	case 4:
		return qubo_model_add_lit_product(m, o->lits[0], o->lits[1], o->w);
	default:
		return qubo_model_add_clique(m, o->lits, o->count, o->w);
	}
}

static void set_bits(uint8_t *x, uint32_t n, uint64_t bits)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		x[i] = (uint8_t)((bits >> i) & 1u);
}

/* Checks every assignment's energy against the referee. */
static void check_all(const qubo_model *m, const op *ops, size_t nops, uint32_t n)
{
	uint8_t x[MAXV];
	uint64_t bits;
	size_t k;

	for (bits = 0; bits < (1ull << n); bits++) {
		double want = 0.0, got;
		set_bits(x, n, bits);
		for (k = 0; k < nops; k++)
			want += op_value(&ops[k], x);
		cr_assert_eq(qubo_model_energy(m, x, n, &got), QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(got, want, "bits %llx: energy %.17g, referee %.17g",
			     (unsigned long long)bits, got, want);
	}
}

Test(model, random_operations_match_referee)
{
	tu_rng r = { 42 };
	int round;

	for (round = 0; round < 300; round++) {
		uint32_t n = 1 + (uint32_t)tu_below(&r, MAXV);
		size_t nops = 1 + (size_t)tu_below(&r, MAXOPS), k;
		op ops[MAXOPS];
		qubo_model *m;

		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (k = 0; k < nops; k++) {
			random_op(&r, n, &ops[k]);
			cr_assert_eq(apply(m, &ops[k]), QUBO_OK, "%s", qubo_error_message());
			/* compile now and then, so later terms merge into a compiled form */
			if (tu_below(&r, 8) == 0)
				cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
		check_all(m, ops, nops, n);
		qubo_model_free(m);
	}
}

/* The compiled form: rows sorted, no duplicates, no zeros, stats agree. */
Test(model, compiled_form_is_canonical)
{
	tu_rng r = { 7 };
	int round;

	for (round = 0; round < 200; round++) {
		uint32_t n = 2 + (uint32_t)tu_below(&r, 30), i, j;
		double dense[32][32];
		qubo_model *m;
		qubo_model_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0 };
		size_t k, terms = tu_below(&r, 200), count, want = 0, deg, maxdeg = 0;
		uint32_t rows[600], cols[600];
		double w[600];

		memset(dense, 0, sizeof dense);
		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (k = 0; k < terms; k++) {
			i = (uint32_t)tu_below(&r, n);
			j = (uint32_t)tu_below(&r, n);
			double wt = (double)tu_range(&r, -2, 2);
			if (i == j)
				continue;
			cr_assert_eq(qubo_model_add_quadratic(m, i, j, wt), QUBO_OK);
			dense[i < j ? i : j][i < j ? j : i] += wt;
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
		for (i = 0; i < n; i++) {
			for (j = i + 1; j < n; j++)
				want += dense[i][j] != 0.0;
			for (j = 0, deg = 0; j < n; j++)
				deg += i != j && dense[i < j ? i : j][i < j ? j : i] != 0.0;
			maxdeg = deg > maxdeg ? deg : maxdeg;
		}
		cr_assert_eq(st.num_couplers, want);
		cr_assert_eq(st.max_degree, maxdeg);
		cr_assert_eq(st.compiled, 1);
		cr_assert_eq(qubo_model_export_coo(m, rows, cols, w, 600, &count), QUBO_OK);
		cr_assert_eq(count, want);
		for (k = 0; k < count; k++) {
			double g;
			cr_assert_lt(rows[k], cols[k]);
			if (k)
				cr_assert(rows[k - 1] < rows[k] ||
					  (rows[k - 1] == rows[k] && cols[k - 1] < cols[k]));
			cr_assert_eq(w[k], dense[rows[k]][cols[k]]);
			cr_assert_eq(qubo_model_get_quadratic(m, cols[k], rows[k], &g), QUBO_OK);
			cr_assert_eq(g, w[k]);
		}
		qubo_model_free(m);
	}
}

Test(model, dirty_model_refuses_energy)
{
	qubo_model *m;
	uint8_t x[2] = { 1, 1 };
	double e;

	cr_assert_eq(qubo_model_new(&m, 2, NULL), QUBO_OK);
	cr_assert(qubo_model_is_compiled(m));
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 3.0), QUBO_OK);
	cr_assert_not(qubo_model_is_compiled(m));
	cr_assert_eq(qubo_model_energy(m, x, 2, &e), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "qubo_model_compile"));
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x, 2, &e), QUBO_OK);
	cr_assert_eq(e, 3.0);
	qubo_model_free(m);
}

Test(model, bad_arguments)
{
	qubo_model *m;
	uint32_t first;
	qubo_lit l[2];

	cr_assert_eq(qubo_model_new(NULL, 1, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_new(&m, QUBO_MAX_VARIABLES, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_null(m);
	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 3, 1.0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "3 variables"));
	cr_assert_eq(qubo_model_add_linear(m, 0, (double)NAN), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "NaN"));
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, (double)INFINITY), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_model_add_offset(m, -(double)INFINITY), QUBO_ERR_INVALID_ARG);
	l[0] = QUBO_LIT(0);
	l[1] = QUBO_LIT(7);
	cr_assert_eq(qubo_model_add_clique(m, l, 2, 1.0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "lits[1]"));
	cr_assert_eq(qubo_model_add_clique(m, NULL, 2, 1.0), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_add_lit_product(m, QUBO_LIT(9), l[0], 1.0),
		     QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_model_add_variables(m, 2, &first), QUBO_OK);
	cr_assert_eq(first, 3);
	cr_assert_eq(qubo_model_num_variables(m), 5);
	cr_assert_eq(qubo_model_add_linear(m, 4, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(NULL, 0, 1.0), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_compile(NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_num_variables(NULL), 0);
	qubo_model_free(NULL);
	qubo_model_free(m);
}

Test(model, overflowing_sum_is_reported_and_model_kept)
{
	qubo_model *m;
	qubo_model_stats st = { sizeof st, 0, 0, 0, 0, 0, 0, 0 };

	cr_assert_eq(qubo_model_new(&m, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 1e308), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 0, 1e308), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "(0, 1)"), "%s", qubo_error_message());
	cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
	cr_assert_eq(st.pending_pairs, 2);
	cr_assert_eq(st.compiled, 0);
	qubo_model_free(m);
}

Test(model, copy_is_deep_and_equal)
{
	tu_rng r = { 99 };
	qubo_model *m, *c;
	uint8_t x[MAXV];
	uint64_t bits;
	size_t k;

	cr_assert_eq(qubo_model_new(&m, MAXV, NULL), QUBO_OK);
	for (k = 0; k < 40; k++) {
		op o;
		random_op(&r, MAXV, &o);
		cr_assert_eq(apply(m, &o), QUBO_OK);
		if (k == 20)
			cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	}
	cr_assert_eq(qubo_model_copy(&c, m), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_compile(c), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 0, 5.0), QUBO_OK); /* must not affect c */
	for (bits = 0; bits < (1u << MAXV); bits++) {
		double a, b;
		set_bits(x, MAXV, bits);
		cr_assert_eq(qubo_model_energy(m, x, MAXV, &a), QUBO_OK);
		cr_assert_eq(qubo_model_energy(c, x, MAXV, &b), QUBO_OK);
		cr_assert_eq(a, b + 5.0 * x[0]);
	}
	qubo_model_free(m);
	qubo_model_free(c);
}

/* Every allocation of building and compiling fails once in turn: each
 * failure is reported, and the model stays usable and unchanged. */
Test(model, compile_out_of_memory_keeps_model)
{
	size_t k;

	for (k = 1;; k++) {
		tu_failalloc fa;
		qubo_model *m = NULL;
		qubo_lit row[6] = { QUBO_LIT(0), QUBO_LIT_NEG(1), QUBO_LIT(2), QUBO_LIT(3),
				    QUBO_LIT_TRUE, QUBO_LIT(1) };
		uint8_t x[6] = { 1, 0, 1, 1, 0, 1 };
		double e;
		int rc;

		tu_failalloc_init(&fa, k);
		rc = qubo_model_new(&m, 6, &fa.a);
		if (rc == QUBO_OK)
			rc = qubo_model_add_clique(m, row, 6, 2.0);
		if (rc == QUBO_OK)
			rc = qubo_model_add_quadratic(m, 4, 5, -1.0);
		if (rc == QUBO_OK)
			rc = qubo_model_compile(m);
		if (rc == QUBO_OK)
			rc = qubo_model_add_quadratic(m, 0, 5, 1.5);
		if (rc == QUBO_OK)
			rc = qubo_model_compile(m);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
			qubo_model_free(m);
			cr_assert_eq(fa.live, 0);
			break;
		}
		/* a failed shrink is harmless and may succeed; anything else fails */
		cr_assert(rc == QUBO_ERR_NOMEM || rc == QUBO_OK, "allocation %zu: %s", k,
			  qubo_status_name(rc));
		if (m) { /* still usable: finish the job with a working allocator */
			fa.fail_at = 0;
			cr_assert_eq(qubo_model_compile(m), QUBO_OK);
			cr_assert_eq(qubo_model_energy(m, x, 6, &e), QUBO_OK);
			qubo_model_free(m);
		}
		cr_assert_eq(fa.live, 0, "allocation %zu leaked %zu blocks", k, fa.live);
	}
}

Test(model, allocator_struct_size_rules)
{
	struct {
		qubo_allocator a;
		uint64_t future;
	} big;
	tu_failalloc fa;
	qubo_model *m;

	tu_failalloc_init(&fa, 0);
	big.a = fa.a;
	big.a.struct_size = sizeof big;
	big.future = 0;
	cr_assert_eq(qubo_model_new(&m, 2, &big.a), QUBO_OK);
	qubo_model_free(m);
	big.future = 1;
	cr_assert_eq(qubo_model_new(&m, 2, &big.a), QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert_null(m);
	big.a.struct_size = sizeof big.a - 1;
	cr_assert_eq(qubo_model_new(&m, 2, &big.a), QUBO_ERR_UNSUPPORTED_VERSION);
	big.a.struct_size = sizeof big.a;
	big.a.free_fn = NULL;
	cr_assert_eq(qubo_model_new(&m, 2, &big.a), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(fa.live, 0);
}

/* Groups: added in any order, kept sorted, never overlapping, copied, and
 * marked by qubo_penalty_range for its slack bits. */
Test(model, groups)
{
	qubo_model *m = NULL, *c = NULL;
	qubo_lit lits[3] = { QUBO_LIT(0), QUBO_LIT(1), QUBO_LIT(2) };
	int64_t ones[3] = { 1, 1, 1 };
	uint32_t first = 99, count = 99, slack, nslack;
	static const uint32_t want[][2] = { { 1, 2 }, { 4, 1 }, { 6, 3 }, { 10, 2 } };
	size_t i;

	cr_assert_eq(qubo_model_new(&m, 12, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_num_groups(m), 0);
	cr_assert_eq(qubo_model_num_groups(NULL), 0);
	cr_assert_eq(qubo_model_add_group(m, 6, 3), QUBO_OK);
	cr_assert_eq(qubo_model_add_group(m, 1, 2), QUBO_OK);
	cr_assert_eq(qubo_model_add_group(m, 10, 2), QUBO_OK);
	cr_assert_eq(qubo_model_add_group(m, 4, 1), QUBO_OK);
	/* overlaps on either side, containment, and bad sizes */
	cr_assert_eq(qubo_model_add_group(m, 2, 2), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "overlap group 0 (variables 1 to 2)"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_model_add_group(m, 5, 2), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "overlap group 2 (variables 6 to 8)"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_model_add_group(m, 7, 1), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_model_add_group(m, 0, 12), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_model_add_group(m, 9, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_model_add_group(m, 9, QUBO_MAX_GROUP_SIZE + 1), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_model_add_group(m, 11, 2), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "variables 11 to 12 do not exist"), "%s",
		  qubo_error_message());
	cr_assert_eq(qubo_model_add_group(m, 0xFFFFFFFFu, 2), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_model_add_group(NULL, 0, 1), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_num_groups(m), 4);
	for (i = 0; i < 4; i++) {
		cr_assert_eq(qubo_model_get_group(m, i, &first, &count), QUBO_OK);
		cr_assert_eq(first, want[i][0], "group %zu", i);
		cr_assert_eq(count, want[i][1], "group %zu", i);
	}
	cr_assert_eq(qubo_model_get_group(m, 4, &first, &count), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_model_get_group(NULL, 0, &first, &count), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_get_group(m, 0, NULL, NULL), QUBO_OK);
	/* the slack of a range is one more group, after the others */
	cr_assert_eq(qubo_penalty_range(m, lits, ones, 3, 1, 3, 2.0, &slack, &nslack), QUBO_OK);
	cr_assert_eq(nslack, 2);
	cr_assert_eq(qubo_model_num_groups(m), 5);
	cr_assert_eq(qubo_model_get_group(m, 4, &first, &count), QUBO_OK);
	cr_assert_eq(first, slack);
	cr_assert_eq(count, nslack);
	/* a range without slack (H = L) marks nothing */
	cr_assert_eq(qubo_penalty_range(m, lits, ones, 3, 2, 2, 2.0, NULL, &nslack), QUBO_OK);
	cr_assert_eq(nslack, 0);
	cr_assert_eq(qubo_model_num_groups(m), 5);
	/* groups live through compilation and copies, and change no energy */
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_add_group(m, 0, 1), QUBO_OK);
	cr_assert_eq(qubo_model_is_compiled(m), 1);
	cr_assert_eq(qubo_model_copy(&c, m), QUBO_OK);
	cr_assert_eq(qubo_model_num_groups(c), 6);
	for (i = 0; i < 6; i++) {
		uint32_t f2, c2;
		cr_assert_eq(qubo_model_get_group(m, i, &first, &count), QUBO_OK);
		cr_assert_eq(qubo_model_get_group(c, i, &f2, &c2), QUBO_OK);
		cr_assert(first == f2 && count == c2, "group %zu", i);
	}
	qubo_model_free(c);
	qubo_model_free(m);
}

/* A clique of constants and one free literal, added before any clique has
 * storage: only its offset and linear parts remain (a UBSan finding: no
 * pointer arithmetic on the empty member list). */
Test(model, clique_of_constants_first)
{
	qubo_model *m = NULL;
	qubo_lit l[3] = { QUBO_LIT_TRUE, QUBO_LIT_FALSE, QUBO_LIT(0) };
	uint8_t x[1] = { 1 };
	double e = 0.0;

	cr_assert_eq(qubo_model_new(&m, 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_clique(m, l, 3, 2.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_clique(m, l, 2, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x, 1, &e), QUBO_OK);
	cr_assert_eq(e, 2.0); /* 2 · (TRUE·x0) with x0 = 1; the second clique is 0 */
	x[0] = 0;
	cr_assert_eq(qubo_model_energy(m, x, 1, &e), QUBO_OK);
	cr_assert_eq(e, 0.0);
	qubo_model_free(m);
}

/* The count queries of qubo_model_export_coo() (capacity 0) and
 * qubo_model_to_ising() (both capacities 0) succeed with the count, so that
 * `rc < 0` checks accept them; a nonzero capacity below the count is still
 * QUBO_ERR_BUFFER_TOO_SMALL. */
Test(model, count_queries_return_ok)
{
	qubo_model *m;
	size_t count = 0;
	uint32_t r, c;
	double w = 7.0, h[3], off = 0.0;

	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 1.5), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, -2.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);

	cr_assert_eq(qubo_model_export_coo(m, NULL, NULL, NULL, 0, &count), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(count, 2);
	count = 0;
	cr_assert_eq(qubo_model_export_coo(m, &r, &c, &w, 0, &count), QUBO_OK);
	cr_assert_eq(count, 2);
	cr_assert_eq(w, 7.0, "the count query wrote a weight");
	cr_assert_eq(qubo_model_export_coo(m, &r, &c, &w, 1, &count), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(count, 2);

	count = 0;
	cr_assert_eq(qubo_model_to_ising(m, NULL, 0, NULL, NULL, NULL, 0, &count, &off), QUBO_OK,
		     "%s", qubo_error_message());
	cr_assert_eq(count, 2);
	cr_assert_eq(qubo_model_to_ising(m, h, 3, &r, &c, &w, 1, &count, &off),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_model_to_ising(m, NULL, 0, &r, &c, &w, 1, &count, &off),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	qubo_model_free(m);
}

/* ---- qubo_model_set_interrupt() ---- */

/* Counts its calls and asks to stop at call number stop_at (0: never). */
typedef struct stopper {
	size_t calls, stop_at;
} stopper;

static int stop_fn(void *user_data)
{
	stopper *s = user_data;

	s->calls++;
	return s->stop_at && s->calls >= s->stop_at;
}

#define INT_NV 1200

/* A model with a big clique and many single pairs, enough entries for the
 * compile to poll many times; with prior nonzero, one compile first. */
static qubo_model *interrupt_model(const qubo_allocator *a, int prior)
{
	qubo_lit lits[INT_NV];
	qubo_model *m;
	uint32_t i;

	cr_assert_eq(qubo_model_new(&m, INT_NV, a), QUBO_OK);
	if (prior) {
		cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 3.0), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	}
	for (i = 0; i < INT_NV; i++)
		lits[i] = i % 3 ? QUBO_LIT(i) : QUBO_LIT_NEG(i);
	cr_assert_eq(qubo_model_add_clique(m, lits, INT_NV, 0.5), QUBO_OK);
	for (i = 0; i + 7 < INT_NV; i++)
		cr_assert_eq(qubo_model_add_quadratic(m, i, i + 7, 0.25 * (i % 5)), QUBO_OK);
	return m;
}

/* A compile stopped at any of its polls returns QUBO_CANCELLED and leaves
 * the model as it was: uncompiled, the same energies once compiled, nothing
 * leaked; the same model compiles in full afterwards. */
Test(model, interrupt_stops_compile_and_leaves_the_model_valid)
{
	static uint8_t x[INT_NV];
	qubo_model *ref = interrupt_model(NULL, 1);
	stopper s = { 0, 0 };
	size_t total, k, stops[4];
	double e_ref, e;
	tu_rng rng = { 7 };

	for (k = 0; k < INT_NV; k++)
		x[k] = (uint8_t)tu_below(&rng, 2);
	cr_assert_eq(qubo_model_compile(ref), QUBO_OK);
	cr_assert_eq(qubo_model_energy(ref, x, INT_NV, &e_ref), QUBO_OK);

	{ /* a never-stopping interrupt is polled, and changes nothing */
		qubo_model *m = interrupt_model(NULL, 1);
		cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		cr_assert_eq(qubo_model_energy(m, x, INT_NV, &e), QUBO_OK);
		cr_assert_eq(e, e_ref);
		qubo_model_free(m);
	}
	total = s.calls;
	cr_assert_gt(total, 10, "the compile of %d variables polled %zu times", INT_NV, total);
	stops[0] = 1;
	stops[1] = total / 2;
	stops[2] = total - 1;
	stops[3] = total;
	for (k = 0; k < 4; k++) {
		tu_failalloc fa;
		qubo_model *m, *c;
		qubo_model_stats st = QUBO_MODEL_STATS_INIT;

		tu_failalloc_init(&fa, 0);
		m = interrupt_model(&fa.a, 1);
		s.calls = 0;
		s.stop_at = stops[k];
		cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_CANCELLED, "stop at poll %zu of %zu",
			     stops[k], total);
		cr_assert_eq(s.calls, stops[k], "the compile went on after the stop");
		cr_assert_eq(qubo_model_is_compiled(m), 0);
		/* the energy needs a compiled model; the copy does not keep the
		 * interrupt */
		cr_assert_eq(qubo_model_energy(m, x, INT_NV, &e), QUBO_ERR_MISUSE);
		cr_assert_eq(qubo_model_copy(&c, m), QUBO_OK);
		cr_assert_eq(qubo_model_compile(c), QUBO_OK, "the copy kept the interrupt");
		cr_assert_eq(qubo_model_energy(c, x, INT_NV, &e), QUBO_OK);
		cr_assert_eq(e, e_ref);
		qubo_model_free(c);
		/* the same model, the interrupt removed, compiles to the same */
		cr_assert_eq(qubo_model_set_interrupt(m, NULL, &s), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
		cr_assert_eq(qubo_model_energy(m, x, INT_NV, &e), QUBO_OK);
		cr_assert_eq(e, e_ref, "stop at poll %zu: energy %g, expected %g", stops[k], e,
			     e_ref);
		cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
		qubo_model_free(m);
		cr_assert_eq(fa.live, 0, "stop at poll %zu leaked %zu blocks", stops[k], fa.live);
	}
	qubo_model_free(ref);
}

/* Variable 0 in 3000 small cliques: its row gathers only about 6000
 * entries, but merging them scans the 3000 heads for each, some 9 million
 * steps that the compile polls about every 65536 (it polled none of them
 * when it counted entries only), and a stop there stops it. */
Test(model, interrupt_counts_the_heads_a_row_of_cliques_scans)
{
	enum {
		K = 3000
	};
	stopper s = { 0, 0 };
	qubo_model *m;
	uint32_t i;

	cr_assert_eq(qubo_model_new(&m, K + 2, NULL), QUBO_OK);
	for (i = 1; i <= K; i++) {
		qubo_lit lits[3] = { QUBO_LIT(0), QUBO_LIT(i), QUBO_LIT(i + 1) };

		cr_assert_eq(qubo_model_add_clique(m, lits, 3, 1.0), QUBO_OK);
	}
	cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_geq(s.calls, (size_t)K * K / 65536 / 2, "%zu polls", s.calls);
	qubo_model_free(m);
	cr_assert_eq(qubo_model_new(&m, K + 2, NULL), QUBO_OK);
	for (i = 1; i <= K; i++) {
		qubo_lit lits[3] = { QUBO_LIT(0), QUBO_LIT(i), QUBO_LIT(i + 1) };

		cr_assert_eq(qubo_model_add_clique(m, lits, 3, 1.0), QUBO_OK);
	}
	s.calls = 0;
	s.stop_at = 10;
	cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_CANCELLED);
	cr_assert_eq(s.calls, 10);
	cr_assert_eq(qubo_model_is_compiled(m), 0);
	qubo_model_free(m);
}

/* A batch stopped by the interrupt adds nothing: a compiled model stays
 * compiled with the same energy. */
Test(model, interrupt_stops_a_batch_adding_nothing)
{
	enum { COUNT = 300000 };
	static uint32_t rows[COUNT], cols[COUNT];
	static double ws[COUNT];
	static uint8_t x[INT_NV];
	qubo_model *m = interrupt_model(NULL, 0);
	stopper s = { 0, 1 };
	double e0, e1;
	size_t k;

	for (k = 0; k < COUNT; k++) {
		rows[k] = (uint32_t)(k % INT_NV);
		cols[k] = (uint32_t)((k * 7 + 1) % INT_NV);
		ws[k] = 1.0;
		x[k % INT_NV] = (uint8_t)(k % 2);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, x, INT_NV, &e0), QUBO_OK);
	cr_assert_eq(qubo_model_set_interrupt(m, stop_fn, &s), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic_batch(m, COUNT, rows, cols, ws), QUBO_CANCELLED);
	cr_assert_eq(s.calls, 1);
	cr_assert_eq(qubo_model_is_compiled(m), 1, "the stopped batch added terms");
	cr_assert_eq(qubo_model_energy(m, x, INT_NV, &e1), QUBO_OK);
	cr_assert_eq(e1, e0);
	/* a short batch may finish without a poll */
	cr_assert_eq(qubo_model_add_quadratic_batch(m, 10, rows, cols, ws), QUBO_OK);
	cr_assert_eq(qubo_model_set_interrupt(NULL, stop_fn, &s), QUBO_ERR_MISUSE);
	qubo_model_free(m);
}
