/*
 * The penalty algebra against brute force.
 *
 * Every penalty kind is built on seeded random instances over up to 12
 * literals that mix variables, complements, constants and repeats. A plain
 * checker in this file (no QUBO) says which assignments satisfy the
 * constraint and what the documented polynomial is worth; every assignment
 * is enumerated and its energy (qubo_model_energy) must equal that value.
 * From this: the minimisers are exactly the satisfying assignments, the
 * minimum and the gap are the documented ones, and the gap is attained when
 * the documentation says so. Infeasible instances must be rejected with
 * QUBO_ERR_INFEASIBLE and leave the model untouched; so must bad arguments
 * and every injected allocation failure.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAXV 12 /* variables in a random instance */
#define MAXL 12 /* literals in a random instance */
#define MAXE 8  /* edges in a random conflict graph */

/* ------------------------------------------------------------------ */
/* Model helpers */

static qubo_model *new_model(size_t n)
{
	qubo_model *m = NULL;
	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	return m;
}

static void compile(qubo_model *m)
{
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
}

/* Energy of the assignment whose bit v is variable v. */
static double energy_of(const qubo_model *m, uint32_t x)
{
	uint8_t s[32];
	size_t n = qubo_model_num_variables(m), i;
	double e = 0.0;

	cr_assert(n <= 32);
	for (i = 0; i < n; i++)
		s[i] = (uint8_t)((x >> i) & 1u);
	cr_assert_eq(qubo_model_energy(m, s, n, &e), QUBO_OK, "%s", qubo_error_message());
	return e;
}

static int lit_value(qubo_lit l, uint32_t x)
{
	int v;

	if (l == QUBO_LIT_TRUE)
		return 1;
	if (l == QUBO_LIT_FALSE)
		return 0;
	v = (int)((x >> QUBO_LIT_VAR(l)) & 1u);
	return QUBO_LIT_IS_NEG(l) ? !v : v;
}

/* Everything observable about a model's terms. */
typedef struct snap {
	size_t n, count, pending;
	int compiled;
	double offset;
	double *h;
	uint32_t *rows, *cols;
	double *w;
} snap;

static void snap_take(const qubo_model *m, snap *s)
{
	qubo_model_stats st;

	memset(s, 0, sizeof *s);
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
	s->n = st.num_variables;
	s->pending = st.pending_pairs;
	s->compiled = qubo_model_is_compiled(m);
	s->offset = qubo_model_offset(m);
	s->h = calloc(s->n + 1, sizeof *s->h);
	cr_assert(s->h);
	cr_assert_eq(qubo_model_export_linear(m, s->h, s->n), QUBO_OK);
	if (s->compiled) {
		int rc = qubo_model_export_coo(m, NULL, NULL, NULL, 0, &s->count);
		cr_assert(rc == QUBO_OK || rc == QUBO_ERR_BUFFER_TOO_SMALL);
		s->rows = calloc(s->count + 1, sizeof *s->rows);
		s->cols = calloc(s->count + 1, sizeof *s->cols);
		s->w = calloc(s->count + 1, sizeof *s->w);
		cr_assert(s->rows && s->cols && s->w);
		cr_assert_eq(qubo_model_export_coo(m, s->rows, s->cols, s->w, s->count,
						   &s->count), QUBO_OK);
	}
}

static void snap_free(snap *s)
{
	free(s->h);
	free(s->rows);
	free(s->cols);
	free(s->w);
}

/* The model's terms are bit for bit those of the snapshot. */
static void snap_check(const qubo_model *m, const snap *before, const char *what)
{
	snap now;
	size_t i;

	snap_take(m, &now);
	cr_assert_eq(now.n, before->n, "%s: variable count changed", what);
	cr_assert_eq(now.compiled, before->compiled, "%s: compiled state changed", what);
	cr_assert_eq(now.pending, before->pending, "%s: pending terms changed", what);
	cr_assert(now.offset == before->offset, "%s: offset changed", what);
	for (i = 0; i < now.n; i++)
		cr_assert(now.h[i] == before->h[i], "%s: h[%zu] changed", what, i);
	cr_assert_eq(now.count, before->count, "%s: coupler count changed", what);
	for (i = 0; i < now.count; i++)
		cr_assert(now.rows[i] == before->rows[i] && now.cols[i] == before->cols[i] &&
				  now.w[i] == before->w[i], "%s: coupler %zu changed", what, i);
	snap_free(&now);
}

/* Some unrelated integer terms, then compile: penalties must add to them. */
static void add_prior_terms(qubo_model *m, uint64_t seed)
{
	tu_rng r = { seed };
	size_t n = qubo_model_num_variables(m), i;

	cr_assert_eq(qubo_model_add_offset(m, 3.0), QUBO_OK);
	for (i = 0; i < n; i++)
		cr_assert_eq(qubo_model_add_linear(m, (uint32_t)i, (double)tu_range(&r, -3, 3)),
			     QUBO_OK);
	for (i = 0; n >= 2 && i < n; i++)
		cr_assert_eq(qubo_model_add_quadratic(m, (uint32_t)tu_below(&r, n),
						      (uint32_t)tu_below(&r, n),
						      (double)tu_range(&r, -2, 2)),
			     QUBO_OK);
	compile(m);
}

static void expect_error(int rc, int code, const char *what)
{
	cr_assert_eq(rc, code, "%s: got %s (%s), expected %s", what, qubo_status_name(rc),
		     qubo_error_message(), qubo_status_name(code));
	cr_assert(qubo_error_message()[0] != '\0', "%s: empty error message", what);
	cr_assert_eq(qubo_error_code(), code, "%s: qubo_error_code", what);
}

/* ------------------------------------------------------------------ */
/* Instances and the plain checker */

enum kind {
	K_EXACTLY,
	K_AT_MOST_ONE,
	K_K1_ZERO,
	K_K1_FRAC,
	K_WEIGHTED,
	K_EQUAL,
	K_DIFFER,
	K_NO_THREE,
	K_CONFLICTS,
	K_KINDS
};

static const char *const kind_name[K_KINDS] = {
	"exactly", "at_most_one", "k_or_k1 zero-based", "k_or_k1 fractional",
	"weighted_equal", "equal", "differ", "no_three_equal", "conflicts",
};

typedef struct inst {
	enum kind kind;
	uint32_t nvars;
	size_t count; /* literals; 2 × edges for conflicts */
	qubo_lit lits[2 * MAXE > MAXL ? 2 * MAXE : MAXL];
	double coeffs[MAXL];
	int64_t k;
	double b;
	double P;
} inst;

static int64_t sum_lits(const inst *t, uint32_t x)
{
	int64_t s = 0;
	size_t i;

	for (i = 0; i < t->count; i++)
		s += lit_value(t->lits[i], x);
	return s;
}

static double weighted_sum(const inst *t, uint32_t x)
{
	double s = 0.0;
	size_t i;

	for (i = 0; i < t->count; i++)
		s += t->coeffs[i] * lit_value(t->lits[i], x);
	return s;
}

static int broken_edges(const inst *t, uint32_t x)
{
	size_t e;
	int c = 0;

	for (e = 0; e < t->count / 2; e++)
		c += lit_value(t->lits[2 * e], x) && lit_value(t->lits[2 * e + 1], x);
	return c;
}

/* Does x satisfy the constraint? (The rule, not the polynomial.) */
static int satisfies(const inst *t, uint32_t x)
{
	int64_t s;
	int a, b, c;

	switch (t->kind) {
	case K_EXACTLY:
		return sum_lits(t, x) == t->k;
	case K_AT_MOST_ONE:
		return sum_lits(t, x) <= 1;
	case K_K1_ZERO:
	case K_K1_FRAC:
		s = sum_lits(t, x);
		return s == t->k || s == t->k + 1;
	case K_WEIGHTED:
		return weighted_sum(t, x) == t->b;
	case K_EQUAL:
		return lit_value(t->lits[0], x) == lit_value(t->lits[1], x);
	case K_DIFFER:
		return lit_value(t->lits[0], x) != lit_value(t->lits[1], x);
	case K_NO_THREE:
		a = lit_value(t->lits[0], x);
		b = lit_value(t->lits[1], x);
		c = lit_value(t->lits[2], x);
		return !(a == b && b == c);
	case K_CONFLICTS:
		return broken_edges(t, x) == 0;
	default:
		cr_assert_fail("bad kind");
	}
	return 0;
}

/* The documented polynomial, evaluated on x with plain arithmetic. */
static double documented_energy(const inst *t, uint32_t x)
{
	double s, d;
	int a, b, c;

	switch (t->kind) {
	case K_EXACTLY:
		d = (double)(sum_lits(t, x) - t->k);
		return t->P * d * d;
	case K_AT_MOST_ONE:
		s = (double)sum_lits(t, x);
		return t->P * s * (s - 1.0) / 2.0;
	case K_K1_ZERO:
		d = (double)(sum_lits(t, x) - t->k);
		return t->P * d * (d - 1.0);
	case K_K1_FRAC:
		d = (double)(sum_lits(t, x) - t->k) - 0.5;
		return t->P * d * d;
	case K_WEIGHTED:
		d = weighted_sum(t, x) - t->b;
		return t->P * d * d;
	case K_EQUAL:
		d = lit_value(t->lits[0], x) - lit_value(t->lits[1], x);
		return t->P * d * d;
	case K_DIFFER:
		d = lit_value(t->lits[0], x) + lit_value(t->lits[1], x) - 1;
		return t->P * d * d;
	case K_NO_THREE:
		a = lit_value(t->lits[0], x);
		b = lit_value(t->lits[1], x);
		c = lit_value(t->lits[2], x);
		return t->P * (1 - a - b - c + a * b + b * c + c * a);
	case K_CONFLICTS:
		return t->P * broken_edges(t, x);
	default:
		cr_assert_fail("bad kind");
	}
	return 0.0;
}

static double documented_min(const inst *t)
{
	return t->kind == K_K1_FRAC ? t->P / 4.0 : 0.0;
}

/* The documented gap; for weighted equality P·δ² with δ the smallest
 * nonzero |Σ a ℓ − b| over all assignments (found by enumeration). */
static double documented_gap(const inst *t)
{
	uint32_t x;
	double delta = -1.0;

	switch (t->kind) {
	case K_K1_ZERO:
	case K_K1_FRAC:
		return 2.0 * t->P;
	case K_WEIGHTED:
		for (x = 0; x < (1u << t->nvars); x++) {
			double d = weighted_sum(t, x) - t->b;
			d = d < 0 ? -d : d;
			if (d != 0.0 && (delta < 0 || d < delta))
				delta = d;
		}
		return delta < 0 ? t->P : t->P * delta * delta;
	default:
		return t->P;
	}
}

/* Does the documentation promise that the gap is attained? */
static int gap_is_tight(const inst *t)
{
	uint32_t seen = 0;
	size_t i, j;

	if (t->kind == K_WEIGHTED)
		return 1; /* δ is attained by definition */
	if (t->kind == K_CONFLICTS) {
		/* Without complements, constants 1 and repeated edges. */
		for (i = 0; i < t->count; i++)
			if (t->lits[i] == QUBO_LIT_TRUE ||
			    (t->lits[i] != QUBO_LIT_FALSE && QUBO_LIT_IS_NEG(t->lits[i])))
				return 0;
		for (i = 0; i < t->count / 2; i++)
			for (j = 0; j < i; j++) {
				qubo_lit a = t->lits[2 * i], b = t->lits[2 * i + 1];
				qubo_lit c = t->lits[2 * j], d = t->lits[2 * j + 1];
				if ((a == c && b == d) || (a == d && b == c))
					return 0;
			}
		return 1;
	}
	/* No variable occurs twice. */
	for (i = 0; i < t->count; i++) {
		qubo_lit l = t->lits[i];
		if (QUBO_LIT_IS_CONST(l))
			continue;
		if (seen & (1u << QUBO_LIT_VAR(l)))
			return 0;
		seen |= 1u << QUBO_LIT_VAR(l);
	}
	return 1;
}

static int call_penalty(qubo_model *m, const inst *t)
{
	switch (t->kind) {
	case K_EXACTLY:
		return qubo_penalty_exactly(m, t->lits, t->count, t->k, t->P);
	case K_AT_MOST_ONE:
		return qubo_penalty_at_most_one(m, t->lits, t->count, t->P);
	case K_K1_ZERO:
		return qubo_penalty_k_or_k1(m, t->lits, t->count, t->k, t->P,
					    QUBO_K_OR_K1_ZERO_BASED);
	case K_K1_FRAC:
		return qubo_penalty_k_or_k1(m, t->lits, t->count, t->k, t->P,
					    QUBO_K_OR_K1_FRACTIONAL);
	case K_WEIGHTED:
		return qubo_penalty_weighted_equal(m, t->lits, t->coeffs, t->count, t->b, t->P);
	case K_EQUAL:
		return qubo_penalty_equal(m, t->lits[0], t->lits[1], t->P);
	case K_DIFFER:
		return qubo_penalty_differ(m, t->lits[0], t->lits[1], t->P);
	case K_NO_THREE:
		return qubo_penalty_no_three_equal(m, t->lits[0], t->lits[1], t->lits[2], t->P);
	case K_CONFLICTS:
		return qubo_penalty_conflicts(m, t->lits, t->count / 2, t->P);
	default:
		cr_assert_fail("bad kind");
	}
	return QUBO_ERR_INTERNAL;
}

/* A random literal: a constant (about 1 in 7), else a variable or its
 * complement. With distinct set, variables come from *perm without repeats
 * (a constant once it runs out). */
static qubo_lit random_lit(tu_rng *r, uint32_t nvars, const uint32_t *perm, uint32_t *used,
			   int distinct)
{
	uint32_t v;

	if (tu_below(r, 7) == 0 || (distinct && *used == nvars))
		return qubo_lit_const((int)tu_below(r, 2));
	v = distinct ? perm[(*used)++] : (uint32_t)tu_below(r, nvars);
	return qubo_lit_make(v, (int)tu_below(r, 2));
}

static const double weights[] = { 1.0, 2.0, 0.5, 3.0, 0.25, 1.7 };

/* nvars 0: a random count; exact_only: no P = 1.7. */
static void random_instance(tu_rng *r, enum kind kind, uint32_t nvars, int exact_only, inst *t)
{
	uint32_t perm[MAXV], used = 0, i, x;
	int distinct = (int)tu_below(r, 2);
	size_t nw = sizeof weights / sizeof weights[0] - (exact_only ? 1 : 0);

	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->nvars = nvars ? nvars : 1 + (uint32_t)tu_below(r, MAXV);
	t->P = weights[tu_below(r, nw)];
	for (i = 0; i < t->nvars; i++)
		perm[i] = i;
	for (i = t->nvars; i > 1; i--) {
		uint32_t j = (uint32_t)tu_below(r, i), tmp = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = tmp;
	}
	switch (kind) {
	case K_EQUAL:
	case K_DIFFER:
		t->count = 2;
		break;
	case K_NO_THREE:
		t->count = 3;
		break;
	case K_CONFLICTS:
		t->count = 2 * tu_below(r, MAXE + 1);
		break;
	default:
		t->count = tu_below(r, MAXL + 1);
	}
	for (i = 0; i < t->count; i++)
		t->lits[i] = random_lit(r, t->nvars, perm, &used, distinct && kind != K_CONFLICTS);
	if (kind == K_CONFLICTS && distinct) /* positive literals only */
		for (i = 0; i < t->count; i++)
			if (t->lits[i] == QUBO_LIT_TRUE || !QUBO_LIT_IS_CONST(t->lits[i]))
				t->lits[i] = t->lits[i] == QUBO_LIT_TRUE
						     ? QUBO_LIT_FALSE
						     : QUBO_LIT(QUBO_LIT_VAR(t->lits[i]));
	t->k = tu_range(r, -2, (int64_t)t->count + 1);
	if (kind == K_WEIGHTED) {
		for (i = 0; i < t->count; i++)
			t->coeffs[i] = (double)tu_range(r, -4, 4);
		/* Mostly a reachable right-hand side, sometimes any. */
		x = (uint32_t)tu_below(r, (uint64_t)1 << t->nvars);
		t->b = tu_below(r, 3) ? weighted_sum(t, x) : (double)tu_range(r, -12, 12);
	}
}

/* Builds the instance on a fresh model and checks everything. */
static void check_instance(const inst *t, uint64_t seed)
{
	uint32_t x, nx = 1u << t->nvars;
	double min = documented_min(t), gap, tol, lowest_bad = -1.0;
	int any_ok = 0, exact = t->P != 1.7, rc;
	qubo_model *m;

	for (x = 0; x < nx; x++)
		any_ok |= satisfies(t, x);
	m = new_model(t->nvars);
	qubo_error_clear();
	rc = call_penalty(m, t);
	if (!any_ok) {
		snap s;
		qubo_model *m2 = new_model(t->nvars);

		expect_error(rc, QUBO_ERR_INFEASIBLE, kind_name[t->kind]);
		/* Unchanged: an empty model stays empty... */
		cr_assert_eq(qubo_model_is_compiled(m), 1);
		cr_assert(qubo_model_offset(m) == 0.0);
		for (x = 0; x < nx; x++)
			cr_assert(energy_of(m, x) == 0.0,
				  "%s seed %llu: infeasible call left terms",
				  kind_name[t->kind], (unsigned long long)seed);
		/* ...and a model with terms keeps them bit for bit. */
		add_prior_terms(m2, seed);
		snap_take(m2, &s);
		expect_error(call_penalty(m2, t), QUBO_ERR_INFEASIBLE, kind_name[t->kind]);
		snap_check(m2, &s, kind_name[t->kind]);
		snap_free(&s);
		qubo_model_free(m2);
		qubo_model_free(m);
		return;
	}
	cr_assert_eq(rc, QUBO_OK, "%s seed %llu: %s (%s)", kind_name[t->kind],
		     (unsigned long long)seed, qubo_status_name(rc), qubo_error_message());
	compile(m);
	gap = documented_gap(t);
	tol = exact ? 0.0 : 1e-9 * (1.0 + t->P * 64.0);
	for (x = 0; x < nx; x++) {
		double e = energy_of(m, x), want = documented_energy(t, x);
		int ok = satisfies(t, x);
		double diff = e > want ? e - want : want - e;

		cr_assert(diff <= tol, "%s seed %llu x=%#x: energy %.17g, documented %.17g",
			  kind_name[t->kind], (unsigned long long)seed, x, e, want);
		if (ok) {
			cr_assert(diff <= tol && (exact ? e == min : e - min <= tol &&
						  min - e <= tol),
				  "%s seed %llu x=%#x: feasible energy %.17g != minimum %.17g",
				  kind_name[t->kind], (unsigned long long)seed, x, e, min);
		} else {
			cr_assert(e >= min + gap - tol,
				  "%s seed %llu x=%#x: violating energy %.17g below min+gap %.17g",
				  kind_name[t->kind], (unsigned long long)seed, x, e, min + gap);
			if (lowest_bad < 0 || e < lowest_bad)
				lowest_bad = e;
		}
	}
	if (lowest_bad >= 0 && gap_is_tight(t)) {
		double d = lowest_bad - (min + gap);
		cr_assert((d < 0 ? -d : d) <= tol,
			  "%s seed %llu: gap not attained (lowest violation %.17g, min+gap %.17g)",
			  kind_name[t->kind], (unsigned long long)seed, lowest_bad, min + gap);
	}
	qubo_model_free(m);
}

static void run_kind(enum kind kind, uint64_t seed, int instances)
{
	int i, feasible = 0, infeasible = 0;

	for (i = 0; i < instances; i++) {
		tu_rng r = { seed + (uint64_t)i * 1000003u };
		inst t;
		uint32_t x;
		int any = 0;

		random_instance(&r, kind, 0, 0, &t);
		for (x = 0; x < (1u << t.nvars) && !any; x++)
			any = satisfies(&t, x);
		feasible += any;
		infeasible += !any;
		check_instance(&t, seed + (uint64_t)i * 1000003u);
	}
	/* The generator must exercise both outcomes. */
	cr_assert(feasible > instances / 10, "%s: only %d feasible instances", kind_name[kind],
		  feasible);
	cr_assert(infeasible > 0, "%s: no infeasible instance", kind_name[kind]);
}

Test(penalty, exactly_matches_brute_force)
{
	run_kind(K_EXACTLY, 0x1001, 250);
}

Test(penalty, at_most_one_matches_brute_force)
{
	run_kind(K_AT_MOST_ONE, 0x2002, 250);
}

Test(penalty, k_or_k1_zero_based_matches_brute_force)
{
	run_kind(K_K1_ZERO, 0x3003, 250);
}

Test(penalty, k_or_k1_fractional_matches_brute_force)
{
	run_kind(K_K1_FRAC, 0x4004, 250);
}

Test(penalty, weighted_equal_matches_brute_force)
{
	run_kind(K_WEIGHTED, 0x5005, 250);
}

Test(penalty, equal_matches_brute_force)
{
	run_kind(K_EQUAL, 0x6006, 200);
}

Test(penalty, differ_matches_brute_force)
{
	run_kind(K_DIFFER, 0x7007, 200);
}

Test(penalty, no_three_equal_matches_brute_force)
{
	run_kind(K_NO_THREE, 0x8008, 200);
}

Test(penalty, conflicts_match_brute_force)
{
	run_kind(K_CONFLICTS, 0x9009, 250);
}

/* A 2-SAT-heavy variant: few variables, many edges with complements. */
Test(penalty, conflicts_with_complements_match_brute_force)
{
	int i, infeasible = 0;

	for (i = 0; i < 400; i++) {
		uint64_t seed = 0xA00A + (uint64_t)i * 7919u;
		tu_rng r = { seed };
		inst t;
		uint32_t x, e;
		int any = 0;

		memset(&t, 0, sizeof t);
		t.kind = K_CONFLICTS;
		t.nvars = 1 + (uint32_t)tu_below(&r, 4);
		t.P = weights[tu_below(&r, 5)];
		t.count = 2 * (1 + tu_below(&r, MAXE));
		for (e = 0; e < t.count; e++) {
			uint64_t u = tu_below(&r, 12);
			t.lits[e] = u == 0 && (e % 2 == 0 || t.lits[e - 1] != QUBO_LIT_TRUE)
					    ? QUBO_LIT_TRUE
					    : qubo_lit_make((uint32_t)tu_below(&r, t.nvars),
							    (int)tu_below(&r, 2));
		}
		for (x = 0; x < (1u << t.nvars) && !any; x++)
			any = satisfies(&t, x);
		infeasible += !any;
		check_instance(&t, seed);
	}
	cr_assert(infeasible > 20, "only %d unsatisfiable 2-SAT instances", infeasible);
}

/* ------------------------------------------------------------------ */
/* Range with slack */

typedef struct rinst {
	uint32_t nvars;
	size_t count;
	qubo_lit lits[MAXL];
	int64_t a[MAXL];
	int64_t lo, hi;
	double P;
} rinst;

static int64_t range_sum(const rinst *t, uint32_t x)
{
	int64_t s = 0;
	size_t i;

	for (i = 0; i < t->count; i++)
		s += t->a[i] * lit_value(t->lits[i], x);
	return s;
}

static int64_t dist_to(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo - v : v > hi ? v - hi : 0;
}

/* Returns the number of slack bits, or -1 when infeasible. */
static int check_range(const rinst *t, uint64_t seed)
{
	uint32_t x, nx = 1u << t->nvars, first = 12345, nslack = 12345, K, k, z;
	int64_t tmin = INT64_MAX, tmax = INT64_MIN, L, H, R, c[64];
	int any = 0, rc, exact = t->P != 1.7, attained = 0;
	double tol = exact ? 0.0 : 1e-9 * (1.0 + t->P * 4096.0);
	qubo_model *m = new_model(t->nvars);

	for (x = 0; x < nx; x++) {
		int64_t v = range_sum(t, x);
		tmin = v < tmin ? v : tmin;
		tmax = v > tmax ? v : tmax;
		any |= v >= t->lo && v <= t->hi;
	}
	qubo_error_clear();
	rc = qubo_penalty_range(m, t->lits, t->a, t->count, t->lo, t->hi, t->P, &first, &nslack);
	if (!any) {
		snap s;
		qubo_model *m2 = new_model(t->nvars);

		expect_error(rc, QUBO_ERR_INFEASIBLE, "range");
		cr_assert_eq(first, 12345, "outputs written on failure");
		cr_assert_eq(qubo_model_num_variables(m), t->nvars);
		add_prior_terms(m2, seed);
		snap_take(m2, &s);
		expect_error(qubo_penalty_range(m2, t->lits, t->a, t->count, t->lo, t->hi, t->P,
						NULL, NULL),
			     QUBO_ERR_INFEASIBLE, "range");
		snap_check(m2, &s, "range");
		snap_free(&s);
		qubo_model_free(m2);
		qubo_model_free(m);
		return -1;
	}
	cr_assert_eq(rc, QUBO_OK, "range seed %llu: %s (%s)", (unsigned long long)seed,
		     qubo_status_name(rc), qubo_error_message());
	L = t->lo > tmin ? t->lo : tmin;
	H = t->hi < tmax ? t->hi : tmax;
	R = H - L;
	cr_assert_eq(first, t->nvars);
	if (L == tmin && H == tmax) { /* always satisfied: nothing added */
		cr_assert_eq(nslack, 0);
		cr_assert_eq(qubo_model_num_variables(m), t->nvars);
		cr_assert(qubo_model_is_compiled(m) && qubo_model_offset(m) == 0.0);
		for (x = 0; x < nx; x++)
			cr_assert(energy_of(m, x) == 0.0);
		qubo_model_free(m);
		return 0;
	}
	/* ⌈log2(R + 1)⌉ bits: 1, 2, 4, …, the last cut so the total is R. */
	for (K = 0; ((int64_t)1 << K) - 1 < R; K++)
		;
	cr_assert_eq(nslack, K, "range seed %llu: %u slack bits for R = %lld",
		     (unsigned long long)seed, nslack, (long long)R);
	cr_assert_eq(qubo_model_num_variables(m), t->nvars + K);
	for (k = 0; k < K; k++)
		c[k] = k + 1 < K ? (int64_t)1 << k : R - (((int64_t)1 << k) - 1);
	compile(m);
	for (x = 0; x < nx; x++) {
		int64_t v = range_sum(t, x), d = dist_to(v, t->lo, t->hi);
		double best = 1e300;
		int zeros = 0;

		for (z = 0; z < (1u << K); z++) {
			int64_t sv = 0;
			double e, want, diff;

			for (k = 0; k < K; k++)
				sv += ((z >> k) & 1u) ? c[k] : 0;
			e = energy_of(m, x | (z << t->nvars));
			want = t->P * (double)(v - L - sv) * (double)(v - L - sv);
			diff = e > want ? e - want : want - e;
			cr_assert(diff <= tol,
				  "range seed %llu x=%#x z=%#x: energy %.17g, want %.17g",
				  (unsigned long long)seed, x, z, e, want);
			if (e < best)
				best = e;
			if (e <= tol) {
				zeros++;
				/* The slack value is forced to Σ a ℓ − L. */
				cr_assert_eq(sv, v - L);
			}
			if (e > tol && (e - t->P <= tol && t->P - e <= tol))
				attained = 1;
		}
		if (d == 0) {
			cr_assert(zeros >= 1 && best <= tol,
				  "range seed %llu x=%#x: feasible but no zero-energy slack",
				  (unsigned long long)seed, x);
		} else {
			double want = t->P * (double)d * (double)d;
			cr_assert_eq(zeros, 0);
			cr_assert(best >= t->P - tol, "below the gap");
			cr_assert(best - want <= tol && want - best <= tol,
				  "range seed %llu x=%#x: min over slack %.17g, P·dist² %.17g",
				  (unsigned long long)seed, x, best, want);
		}
	}
	if (R >= 1)
		cr_assert(attained, "range seed %llu: gap P not attained",
			  (unsigned long long)seed);
	qubo_model_free(m);
	return (int)K;
}

Test(penalty, range_matches_brute_force)
{
	int i, feasible = 0, infeasible = 0, slack = 0, none = 0, ns;

	for (i = 0; i < 300; i++) {
		uint64_t seed = 0xB00B + (uint64_t)i * 104729u;
		tu_rng r = { seed };
		rinst t;
		uint32_t j, x;
		int64_t v;
		int any = 0;

		memset(&t, 0, sizeof t);
		t.nvars = 1 + (uint32_t)tu_below(&r, 8);
		t.count = tu_below(&r, 9);
		t.P = weights[tu_below(&r, sizeof weights / sizeof weights[0])];
		for (j = 0; j < t.count; j++) {
			t.lits[j] = tu_below(&r, 7) == 0
					    ? qubo_lit_const((int)tu_below(&r, 2))
					    : qubo_lit_make((uint32_t)tu_below(&r, t.nvars),
							    (int)tu_below(&r, 2));
			t.a[j] = tu_range(&r, -3, 3);
		}
		x = (uint32_t)tu_below(&r, (uint64_t)1 << t.nvars);
		v = range_sum(&t, x);
		switch (tu_below(&r, 5)) {
		case 0:
			t.lo = v - tu_range(&r, 0, 4);
			t.hi = v + tu_range(&r, 0, 4);
			break;
		case 1:
			t.lo = tu_range(&r, -12, 12);
			t.hi = t.lo + tu_range(&r, 0, 6);
			break;
		case 2:
			t.lo = INT64_MIN;
			t.hi = v + tu_range(&r, -2, 2);
			break;
		case 3:
			t.lo = v + tu_range(&r, -2, 2);
			t.hi = INT64_MAX;
			break;
		default:
			t.lo = v + tu_range(&r, -1, 1);
			t.hi = t.lo;
		}
		for (x = 0; x < (1u << t.nvars) && !any; x++)
			any = range_sum(&t, x) >= t.lo && range_sum(&t, x) <= t.hi;
		feasible += any;
		infeasible += !any;
		ns = check_range(&t, seed);
		slack += ns > 0;
		none += ns == 0;
	}
	cr_assert(feasible > 100 && infeasible > 5, "feasible %d, infeasible %d", feasible,
		  infeasible);
	cr_assert(slack > 50 && none > 20, "with slack %d, without %d", slack, none);
}

/* "At least one of n" with hi = INT64_MAX: slack encodes 0 … n − 1. */
Test(penalty, range_at_least_one_uses_tightened_slack)
{
	qubo_lit l[5];
	int64_t a[5] = { 1, 1, 1, 1, 1 };
	uint32_t first = 0, ns = 0, x, z;
	qubo_model *m = new_model(5);
	int i;

	for (i = 0; i < 5; i++)
		l[i] = QUBO_LIT((uint32_t)i);
	cr_assert_eq(qubo_penalty_range(m, l, a, 5, 1, INT64_MAX, 1.0, &first, &ns), QUBO_OK);
	cr_assert_eq(first, 5);
	/* L = 1, H = 5: slack 0 … 4 in 3 bits with coefficients 1, 2, 1. */
	cr_assert_eq(ns, 3);
	compile(m);
	for (x = 0; x < 32; x++) {
		double best = 1e300;
		int s = (int)(x & 1u) + (int)((x >> 1) & 1u) + (int)((x >> 2) & 1u) +
			(int)((x >> 3) & 1u) + (int)((x >> 4) & 1u);
		for (z = 0; z < 8; z++) {
			int sv = (int)(z & 1u) + 2 * (int)((z >> 1) & 1u) + (int)((z >> 2) & 1u);
			double e = energy_of(m, x | (z << 5));
			cr_assert(e == (double)((s - 1 - sv) * (s - 1 - sv)));
			best = e < best ? e : best;
		}
		cr_assert(best == (s >= 1 ? 0.0 : 1.0));
	}
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Reward */

Test(penalty, reward_is_minus_the_weighted_sum)
{
	int i;

	for (i = 0; i < 200; i++) {
		tu_rng r = { 0xC00C + (uint64_t)i };
		uint32_t nv = 1 + (uint32_t)tu_below(&r, 10), x;
		size_t count = tu_below(&r, MAXL + 1), j;
		qubo_lit l[MAXL];
		double w[MAXL];
		qubo_model *m = new_model(nv);

		for (j = 0; j < count; j++) {
			l[j] = tu_below(&r, 6) == 0
				       ? qubo_lit_const((int)tu_below(&r, 2))
				       : qubo_lit_make((uint32_t)tu_below(&r, nv),
						       (int)tu_below(&r, 2));
			w[j] = (double)tu_range(&r, -20, 20) / 4.0;
		}
		cr_assert_eq(qubo_penalty_reward(m, l, w, count), QUBO_OK);
		compile(m);
		for (x = 0; x < (1u << nv); x++) {
			double want = 0.0;
			for (j = 0; j < count; j++)
				want -= w[j] * lit_value(l[j], x);
			cr_assert(energy_of(m, x) == want, "reward %d x=%#x: %.17g != %.17g", i, x,
				  energy_of(m, x), want);
		}
		qubo_model_free(m);
	}
}

/* ------------------------------------------------------------------ */
/* Several penalties in one model */

Test(penalty, sum_of_penalties_matches_brute_force)
{
	int i, solvable = 0, unsolvable = 0;

	for (i = 0; i < 150; i++) {
		uint64_t seed = 0xD00D + (uint64_t)i * 15485863u;
		tu_rng r = { seed };
		uint32_t nv = 4 + (uint32_t)tu_below(&r, 9), x;
		inst cons[8];
		int nc = 0, j, tries = 2 + (int)tu_below(&r, 7), any = 0;
		double min = 0.0, lowest_bad = 1e300;
		qubo_model *m = new_model(nv);

		for (j = 0; j < tries; j++) {
			inst *t = &cons[nc];
			int rc;
			random_instance(&r, (enum kind)tu_below(&r, K_KINDS), nv, 1, t);
			rc = call_penalty(m, t);
			cr_assert(rc == QUBO_OK || rc == QUBO_ERR_INFEASIBLE, "%s",
				  qubo_error_message());
			if (rc == QUBO_OK) {
				min += documented_min(t);
				nc++;
			}
		}
		compile(m);
		for (x = 0; x < (1u << nv); x++) {
			double e = energy_of(m, x), want = 0.0;
			int ok = 1;
			for (j = 0; j < nc; j++) {
				want += documented_energy(&cons[j], x);
				ok &= satisfies(&cons[j], x);
			}
			cr_assert(e == want, "mixed seed %llu x=%#x: %.17g != %.17g",
				  (unsigned long long)seed, x, e, want);
			if (ok)
				cr_assert(e == min);
			else if (e < lowest_bad)
				lowest_bad = e;
			any |= ok;
		}
		/* The minimisers are the assignments that satisfy every term. */
		if (any)
			cr_assert(lowest_bad > min);
		solvable += any;
		unsolvable += !any;
		qubo_model_free(m);
	}
	cr_assert(solvable > 20 && unsolvable > 5, "solvable %d, unsolvable %d", solvable,
		  unsolvable);
}

/* ------------------------------------------------------------------ */
/* Documented edge cases, one by one */

static qubo_model *fresh(void)
{
	return new_model(4);
}

Test(penalty, edge_cases_count_constraints)
{
	qubo_lit xx[2] = { QUBO_LIT(0), QUBO_LIT_NEG(0) };
	qubo_lit same[2] = { QUBO_LIT(0), QUBO_LIT(0) };
	qubo_lit tt[3] = { QUBO_LIT_TRUE, QUBO_LIT(1), QUBO_LIT_TRUE };
	qubo_lit four[4] = { QUBO_LIT(0), QUBO_LIT_NEG(0), QUBO_LIT(1), QUBO_LIT_NEG(1) };
	qubo_lit three[3] = { QUBO_LIT(0), QUBO_LIT(1), QUBO_LIT(2) };
	qubo_model *m = fresh();
	uint32_t x;

	/* count 0: k = 0 holds and adds nothing; NULL is fine with count 0. */
	cr_assert_eq(qubo_penalty_exactly(m, NULL, 0, 0, 1.0), QUBO_OK);
	expect_error(qubo_penalty_exactly(m, NULL, 0, 1, 1.0), QUBO_ERR_INFEASIBLE, "0 of 0");
	expect_error(qubo_penalty_exactly(m, three, 3, -1, 1.0), QUBO_ERR_INFEASIBLE, "k < 0");
	expect_error(qubo_penalty_exactly(m, three, 3, 4, 1.0), QUBO_ERR_INFEASIBLE, "k > n");
	cr_assert_eq(qubo_penalty_at_most_one(m, NULL, 0, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_at_most_one(m, three, 1, 1.0), QUBO_OK);
	cr_assert(qubo_model_is_compiled(m) && qubo_model_offset(m) == 0.0);

	/* x + x̄ = 1 always: exactly 1 adds nothing, exactly 0 or 2 is infeasible. */
	cr_assert_eq(qubo_penalty_exactly(m, xx, 2, 1, 1.0), QUBO_OK);
	compile(m);
	for (x = 0; x < 16; x++)
		cr_assert(energy_of(m, x) == 0.0);
	expect_error(qubo_penalty_exactly(m, xx, 2, 0, 1.0), QUBO_ERR_INFEASIBLE, "x + x̄ = 0");
	expect_error(qubo_penalty_exactly(m, xx, 2, 2, 1.0), QUBO_ERR_INFEASIBLE, "x + x̄ = 2");
	/* x + x = 2x: exactly 1 is infeasible, exactly 2 forces x, with gap 4P. */
	expect_error(qubo_penalty_exactly(m, same, 2, 1, 1.0), QUBO_ERR_INFEASIBLE, "2x = 1");
	cr_assert_eq(qubo_penalty_exactly(m, same, 2, 2, 1.0), QUBO_OK);
	compile(m);
	cr_assert(energy_of(m, 1) == 0.0 && energy_of(m, 0) == 4.0);
	qubo_model_free(m);

	/* At most one: two constants 1, or two forced pairs, are infeasible. */
	m = fresh();
	expect_error(qubo_penalty_at_most_one(m, tt, 3, 1.0), QUBO_ERR_INFEASIBLE, "1 + 1");
	expect_error(qubo_penalty_at_most_one(m, four, 4, 1.0), QUBO_ERR_INFEASIBLE,
		     "x x̄ y ȳ");
	cr_assert_eq(qubo_penalty_at_most_one(m, four, 3, 1.0), QUBO_OK); /* forces y = 0 */
	compile(m);
	for (x = 0; x < 16; x++)
		cr_assert(energy_of(m, x) == ((x & 2u) ? 1.0 : 0.0));
	qubo_model_free(m);

	/* k or k + 1 with k = −1 means S = 0; k < −1 or k > count is infeasible. */
	m = fresh();
	cr_assert_eq(qubo_penalty_k_or_k1(m, three, 3, -1, 1.0, QUBO_K_OR_K1_ZERO_BASED),
		     QUBO_OK);
	expect_error(qubo_penalty_k_or_k1(m, three, 3, -2, 1.0, QUBO_K_OR_K1_ZERO_BASED),
		     QUBO_ERR_INFEASIBLE, "k = -2");
	expect_error(qubo_penalty_k_or_k1(m, three, 3, 4, 1.0, QUBO_K_OR_K1_FRACTIONAL),
		     QUBO_ERR_INFEASIBLE, "k = 4 of 3");
	compile(m);
	for (x = 0; x < 8; x++)
		cr_assert_eq(energy_of(m, x) == 0.0, x == 0);
	qubo_model_free(m);

	/* The fractional form keeps its minimum P/4 even over constants only. */
	m = fresh();
	cr_assert_eq(qubo_penalty_k_or_k1(m, tt, 1, 1, 2.0, QUBO_K_OR_K1_FRACTIONAL), QUBO_OK);
	cr_assert(qubo_model_offset(m) == 0.5);
	qubo_model_free(m);
}

Test(penalty, edge_cases_pairs_and_triples)
{
	qubo_lit x = QUBO_LIT(0), nx = QUBO_LIT_NEG(0), y = QUBO_LIT(1);
	qubo_lit T = QUBO_LIT_TRUE, F = QUBO_LIT_FALSE;
	qubo_model *m = fresh();
	uint32_t a;

	cr_assert_eq(qubo_penalty_equal(m, x, x, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_equal(m, T, T, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_differ(m, x, nx, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_differ(m, T, F, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_no_three_equal(m, x, x, nx, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_no_three_equal(m, T, F, y, 1.0), QUBO_OK);
	compile(m);
	for (a = 0; a < 16; a++)
		cr_assert(energy_of(m, a) == 0.0, "always-true constraints cost something");
	expect_error(qubo_penalty_equal(m, x, nx, 1.0), QUBO_ERR_INFEASIBLE, "x = x̄");
	expect_error(qubo_penalty_equal(m, T, F, 1.0), QUBO_ERR_INFEASIBLE, "1 = 0");
	expect_error(qubo_penalty_differ(m, y, y, 1.0), QUBO_ERR_INFEASIBLE, "y ≠ y");
	expect_error(qubo_penalty_differ(m, F, F, 1.0), QUBO_ERR_INFEASIBLE, "0 ≠ 0");
	expect_error(qubo_penalty_no_three_equal(m, y, y, y, 1.0), QUBO_ERR_INFEASIBLE, "yyy");
	expect_error(qubo_penalty_no_three_equal(m, T, T, T, 1.0), QUBO_ERR_INFEASIBLE, "111");
	cr_assert(qubo_model_is_compiled(m));
	/* A constant fixes the other literal. */
	cr_assert_eq(qubo_penalty_equal(m, T, y, 2.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_no_three_equal(m, F, F, x, 2.0), QUBO_OK);
	compile(m);
	for (a = 0; a < 4; a++)
		cr_assert(energy_of(m, a) == ((a & 2u) ? 0.0 : 2.0) + ((a & 1u) ? 0.0 : 2.0));
	qubo_model_free(m);
}

Test(penalty, edge_cases_conflicts_and_sums)
{
	qubo_lit T = QUBO_LIT_TRUE, F = QUBO_LIT_FALSE;
	qubo_lit e1[4] = { QUBO_LIT(0), F, QUBO_LIT(1), QUBO_LIT_NEG(1) }; /* both void */
	qubo_lit e2[2] = { T, T };
	qubo_lit e3[4] = { QUBO_LIT(2), QUBO_LIT(2), T, QUBO_LIT_NEG(3) }; /* x2 = 0, x3 = 1 */
	qubo_lit l2[2] = { QUBO_LIT(0), QUBO_LIT(1) };
	double c2[2] = { 2.0, 4.0 };
	qubo_model *m = fresh();
	uint32_t a;

	cr_assert_eq(qubo_penalty_conflicts(m, NULL, 0, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_conflicts(m, e1, 2, 1.0), QUBO_OK);
	expect_error(qubo_penalty_conflicts(m, e2, 1, 1.0), QUBO_ERR_INFEASIBLE, "1-1 edge");
	cr_assert_eq(qubo_penalty_conflicts(m, e3, 2, 1.0), QUBO_OK);
	compile(m);
	for (a = 0; a < 16; a++)
		cr_assert(energy_of(m, a) == (double)(((a >> 2) & 1u) + !((a >> 3) & 1u)));
	qubo_model_free(m);

	/* Weighted equality: empty sums, parity, fractional data. */
	m = fresh();
	cr_assert_eq(qubo_penalty_weighted_equal(m, NULL, NULL, 0, 0.0, 1.0), QUBO_OK);
	expect_error(qubo_penalty_weighted_equal(m, NULL, NULL, 0, 3.0, 1.0),
		     QUBO_ERR_INFEASIBLE, "empty sum = 3");
	expect_error(qubo_penalty_weighted_equal(m, l2, c2, 2, 3.0, 1.0), QUBO_ERR_INFEASIBLE,
		     "2x + 4y = 3");
	expect_error(qubo_penalty_weighted_equal(m, l2, c2, 2, 8.0, 1.0), QUBO_ERR_INFEASIBLE,
		     "2x + 4y = 8");
	/* Fractional data are accepted even when infeasible (documented). */
	c2[0] = 0.5;
	cr_assert_eq(qubo_penalty_weighted_equal(m, l2, c2, 2, 0.25, 1.0), QUBO_OK);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Feasibility decisions beyond brute force */

Test(penalty, feasibility_of_large_sums_is_decided)
{
	enum { N = 60 };
	qubo_lit l[2 * N];
	double c[2 * N];
	int64_t ic[2 * N];
	const double odd = 3.0 * (double)((int64_t)1 << 40) + 1.0;
	uint32_t first, ns;
	qubo_model *m = new_model(N);
	int i;

	/* Every variable twice: S is even, so odd k is infeasible (DP path). */
	for (i = 0; i < 2 * N; i++)
		l[i] = QUBO_LIT((uint32_t)(i % N));
	expect_error(qubo_penalty_exactly(m, l, 2 * N, 31, 1.0), QUBO_ERR_INFEASIBLE, "odd");
	expect_error(qubo_penalty_k_or_k1(m, l, 2 * N, 121, 1.0, 0), QUBO_ERR_INFEASIBLE,
		     "121 of 120");
	cr_assert_eq(qubo_penalty_exactly(m, l, 2 * N, 30, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_k_or_k1(m, l, 2 * N, 31, 1.0, 0), QUBO_OK);
	qubo_model_free(m);

	/* Even coefficients, odd target: infeasible by a bitset DP (small sums)... */
	m = new_model(N);
	for (i = 0; i < N; i++) {
		l[i] = qubo_lit_make((uint32_t)i, i % 3 == 0);
		c[i] = (double)(2 * (i % 7) + 2);
		ic[i] = (int64_t)c[i];
	}
	expect_error(qubo_penalty_weighted_equal(m, l, c, N, 101.0, 1.0), QUBO_ERR_INFEASIBLE,
		     "even = odd");
	expect_error(qubo_penalty_range(m, l, ic, N, 101, 101, 1.0, NULL, NULL),
		     QUBO_ERR_INFEASIBLE, "range even = odd");
	cr_assert_eq(qubo_penalty_weighted_equal(m, l, c, N, 102.0, 1.0), QUBO_OK);
	cr_assert_eq(qubo_penalty_range(m, l, ic, N, 101, 102, 1.0, &first, &ns), QUBO_OK);
	cr_assert_eq(first, N);
	cr_assert_eq(ns, 1);
	qubo_model_free(m);

	/* ...by enumeration (18 huge coefficients: no bitset)... */
	m = new_model(N);
	for (i = 0; i < 18; i++)
		c[i] = (double)(((int64_t)1 << 40) + 2 * (int64_t)i * 1000003);
	expect_error(qubo_penalty_weighted_equal(m, l, c, 18, odd, 1.0),
		     QUBO_ERR_INFEASIBLE, "enumeration");
	qubo_model_free(m);

	/* ...and accepted, as documented, when no cheap exact search exists. */
	m = new_model(N);
	for (i = 0; i < 40; i++)
		c[i] = (double)(((int64_t)1 << 40) + 2 * (int64_t)i * 1000003);
	cr_assert_eq(qubo_penalty_weighted_equal(m, l, c, 40, odd, 1.0), QUBO_OK);
	qubo_model_free(m);
}

/* A long implication chain x0 → x1 → … → x_{n−1} with x0 = 1 and
 * x_{n−1} = 0 forced: unsatisfiable only through the whole chain. */
Test(penalty, conflicts_two_sat_long_chain)
{
	enum { N = 30000 };
	qubo_lit *e = malloc(sizeof *e * 2 * (N + 1));
	qubo_model *m = new_model(N);
	snap s;
	size_t i;

	cr_assert(e);
	for (i = 0; i + 1 < N; i++) { /* ¬(x_i ∧ x̄_{i+1}) */
		e[2 * i] = QUBO_LIT((uint32_t)i);
		e[2 * i + 1] = QUBO_LIT_NEG((uint32_t)(i + 1));
	}
	e[2 * (N - 1)] = QUBO_LIT_NEG(0); /* x̄0 with 1: x0 = 1 */
	e[2 * (N - 1) + 1] = QUBO_LIT_TRUE;
	e[2 * N] = QUBO_LIT_TRUE; /* x_{n−1} with 1: x_{n−1} = 0 */
	e[2 * N + 1] = QUBO_LIT((uint32_t)(N - 1));
	snap_take(m, &s);
	expect_error(qubo_penalty_conflicts(m, e, N + 1, 1.0), QUBO_ERR_INFEASIBLE, "chain");
	snap_check(m, &s, "chain");
	snap_free(&s);
	cr_assert_eq(qubo_penalty_conflicts(m, e, N, 1.0), QUBO_OK);
	qubo_model_free(m);
	free(e);
}

/* ------------------------------------------------------------------ */
/* Bad arguments */

Test(penalty, bad_arguments_are_rejected_and_change_nothing)
{
	const double v_nan = (double)NAN, v_inf = (double)INFINITY;
	qubo_lit l[3] = { QUBO_LIT(0), QUBO_LIT_NEG(1), QUBO_LIT(2) };
	qubo_lit bad[3] = { QUBO_LIT(0), QUBO_LIT(7), QUBO_LIT(2) };
	double c[3] = { 1.0, 2.0, 3.0 }, cn[3] = { 1.0, v_nan, 3.0 };
	int64_t ic[3] = { 1, 2, 3 }, big[3] = { 1, ((int64_t)1 << 52) + 1, 1 };
	int64_t sum[3] = { (int64_t)1 << 51, (int64_t)1 << 51, 1 };
	const double badw[] = { v_nan, 0.0, -1.0, v_inf, -v_inf };
	qubo_model *m = new_model(4);
	snap s;
	size_t i;

	add_prior_terms(m, 77);
	snap_take(m, &s);
#define BAD(call, code)                                        \
	do {                                                   \
		qubo_error_clear();                            \
		expect_error((call), (code), #call);           \
		snap_check(m, &s, #call);                      \
	} while (0)
	BAD(qubo_penalty_exactly(NULL, l, 3, 1, 1.0), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_exactly(m, NULL, 3, 1, 1.0), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_exactly(m, bad, 3, 1, 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_exactly(m, l, 3, 1, 1e308), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_at_most_one(NULL, l, 3, 1.0), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_at_most_one(m, bad, 3, 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_k_or_k1(m, l, 3, 1, 1.0, 7), QUBO_ERR_INVALID_ARG);
	BAD(qubo_penalty_k_or_k1(m, bad, 3, 1, 1.0, 0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_weighted_equal(m, l, NULL, 3, 1.0, 1.0), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_weighted_equal(m, l, cn, 3, 1.0, 1.0), QUBO_ERR_INVALID_ARG);
	BAD(qubo_penalty_weighted_equal(m, l, c, 3, v_inf, 1.0), QUBO_ERR_INVALID_ARG);
	BAD(qubo_penalty_weighted_equal(m, bad, c, 3, 1.0, 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_weighted_equal(m, l, c, 3, 1.0, 1e307), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_equal(NULL, l[0], l[1], 1.0), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_equal(m, l[0], bad[1], 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_differ(m, bad[1], l[0], 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_no_three_equal(m, l[0], l[1], bad[1], 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_conflicts(m, NULL, 2, 1.0), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_conflicts(m, bad, 1, 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_reward(NULL, l, c, 3), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_reward(m, l, NULL, 3), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_reward(m, l, cn, 3), QUBO_ERR_INVALID_ARG);
	BAD(qubo_penalty_reward(m, bad, c, 3), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_range(NULL, l, ic, 3, 0, 1, 1.0, NULL, NULL), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_range(m, l, NULL, 3, 0, 1, 1.0, NULL, NULL), QUBO_ERR_MISUSE);
	BAD(qubo_penalty_range(m, l, ic, 3, 2, 1, 1.0, NULL, NULL), QUBO_ERR_INVALID_ARG);
	BAD(qubo_penalty_range(m, l, big, 3, 0, 1, 1.0, NULL, NULL), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_range(m, l, sum, 3, 0, 1, 1.0, NULL, NULL), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_range(m, bad, ic, 3, 0, 1, 1.0, NULL, NULL), QUBO_ERR_OUT_OF_RANGE);
	for (i = 0; i < sizeof badw / sizeof badw[0]; i++) {
		BAD(qubo_penalty_exactly(m, l, 3, 1, badw[i]), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_at_most_one(m, l, 3, badw[i]), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_k_or_k1(m, l, 3, 1, badw[i], 1), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_weighted_equal(m, l, c, 3, 1.0, badw[i]), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_equal(m, l[0], l[1], badw[i]), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_differ(m, l[0], l[1], badw[i]), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_no_three_equal(m, l[0], l[1], l[2], badw[i]),
		    QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_conflicts(m, l, 1, badw[i]), QUBO_ERR_INVALID_ARG);
		BAD(qubo_penalty_range(m, l, ic, 3, 0, 1, badw[i], NULL, NULL),
		    QUBO_ERR_INVALID_ARG);
	}
	/* Arguments are checked before feasibility. */
	BAD(qubo_penalty_exactly(m, bad, 3, 9, 1.0), QUBO_ERR_OUT_OF_RANGE);
	BAD(qubo_penalty_exactly(m, l, 3, 9, v_nan), QUBO_ERR_INVALID_ARG);
#undef BAD
	snap_free(&s);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Allocation failures */

enum { OOM_VARS = 10, OOM_CASES = 16 };

static int oom_call(int id, qubo_model *m)
{
	static const qubo_lit unsorted[7] = { QUBO_LIT(3), QUBO_LIT_TRUE, QUBO_LIT_NEG(1),
					      QUBO_LIT(3), QUBO_LIT(0), QUBO_LIT_FALSE,
					      QUBO_LIT(7) };
	static const qubo_lit row[6] = { QUBO_LIT(0), QUBO_LIT(1), QUBO_LIT(2),
					 QUBO_LIT(3), QUBO_LIT(4), QUBO_LIT(5) };
	static const qubo_lit mixed[5] = { QUBO_LIT(4), QUBO_LIT_NEG(2), QUBO_LIT_TRUE,
					   QUBO_LIT(8), QUBO_LIT_NEG(6) };
	static const double wc[5] = { 3.0, -2.0, 1.0, 5.0, 2.0 };
	static const double eq[5] = { 2.0, 2.0, 2.0, 2.0, 2.0 };
	static const int64_t rc1[5] = { 1, 1, 1, 1, 1 };
	static const int64_t rc2[5] = { 3, -1, 2, 1, 2 };
	static const qubo_lit sat[8] = { QUBO_LIT(0), QUBO_LIT_NEG(1), QUBO_LIT(1),
					 QUBO_LIT(2), QUBO_LIT_NEG(2), QUBO_LIT_TRUE,
					 QUBO_LIT(5), QUBO_LIT(6) };
	static const qubo_lit unsat[6] = { QUBO_LIT(0), QUBO_LIT_TRUE, QUBO_LIT_NEG(0),
					   QUBO_LIT(1), QUBO_LIT_NEG(1), QUBO_LIT_TRUE };
	static const qubo_lit twice[8] = { QUBO_LIT(5), QUBO_LIT(6), QUBO_LIT(5), QUBO_LIT(6),
					   QUBO_LIT(7), QUBO_LIT(8), QUBO_LIT(7), QUBO_LIT(8) };
	static const double even[4] = { 2.0, 4.0, 6.0, 10.0 };
	uint32_t first, ns;

	switch (id) {
	case 0:
		return qubo_penalty_exactly(m, unsorted, 7, 2, 1.0);
	case 1:
		return qubo_penalty_exactly(m, row, 6, 2, 1.0);
	case 2:
		return qubo_penalty_at_most_one(m, mixed, 5, 1.0);
	case 3:
		return qubo_penalty_k_or_k1(m, unsorted, 7, 2, 1.0, QUBO_K_OR_K1_FRACTIONAL);
	case 4:
		return qubo_penalty_weighted_equal(m, mixed, wc, 5, 4.0, 1.0);
	case 5:
		return qubo_penalty_weighted_equal(m, mixed, eq, 5, 4.0, 1.0);
	case 6:
		return qubo_penalty_range(m, mixed, rc1, 5, 1, 3, 1.0, &first, &ns);
	case 7:
		return qubo_penalty_range(m, mixed, rc2, 5, -1, 4, 2.0, &first, &ns);
	case 8:
		return qubo_penalty_conflicts(m, sat, 4, 1.0);
	case 9:
		return qubo_penalty_conflicts(m, unsat, 3, 1.0);
	case 10:
		return qubo_penalty_equal(m, QUBO_LIT(2), QUBO_LIT_NEG(5), 1.0);
	case 11:
		return qubo_penalty_no_three_equal(m, QUBO_LIT(2), QUBO_LIT_NEG(5), QUBO_LIT(9),
						   1.0);
	case 12:
		return qubo_penalty_exactly(m, twice, 8, 3, 1.0);
	case 13:
		return qubo_penalty_weighted_equal(m, twice, even, 4, 5.0, 1.0);
	case 14:
		return qubo_penalty_differ(m, QUBO_LIT(2), QUBO_LIT(5), 1.0);
	default:
		return qubo_penalty_reward(m, mixed, wc, 5);
	}
}

static qubo_model *oom_model(tu_failalloc *fa)
{
	qubo_model *m = NULL;

	tu_failalloc_init(fa, 0);
	cr_assert_eq(qubo_model_new(&m, OOM_VARS, &fa->a), QUBO_OK);
	add_prior_terms(m, 99);
	return m;
}

Test(penalty, allocation_failures_leave_the_model_unchanged)
{
	int id, cases_with_failures = 0;

	for (id = 0; id < OOM_CASES; id++) {
		tu_failalloc ref_fa;
		qubo_model *ref = oom_model(&ref_fa);
		int want = oom_call(id, ref), rc;
		size_t k;
		snap after;

		cr_assert(want == QUBO_OK || want == QUBO_ERR_INFEASIBLE, "case %d: %s", id,
			  qubo_error_message());
		cr_assert_eq(want == QUBO_ERR_INFEASIBLE, id == 9 || id == 12 || id == 13,
			     "case %d", id);
		compile(ref);
		snap_take(ref, &after);
		for (k = 1;; k++) {
			tu_failalloc fa;
			qubo_model *m = oom_model(&fa);
			snap before;

			snap_take(m, &before);
			fa.count = 0;
			fa.fail_at = k;
			qubo_error_clear();
			rc = oom_call(id, m);
			if (!fa.failed) {
				cr_assert_eq(rc, want, "case %d, fail_at %zu", id, k);
				snap_free(&before);
				qubo_model_free(m);
				cr_assert_eq(fa.live, 0);
				break;
			}
			cases_with_failures += k == 1;
			/* Either the failure hit the penalty (NOMEM, unchanged)... */
			if (rc == QUBO_ERR_NOMEM) {
				cr_assert(qubo_error_message()[0] != '\0');
				snap_check(m, &before, "after NOMEM");
				/* ...and the model still works: retry without failures. */
				fa.fail_at = 0;
				cr_assert_eq(oom_call(id, m), want);
			} else {
				/* ...or it was not needed for the answer. */
				cr_assert_eq(rc, want, "case %d, fail_at %zu: %s", id, k,
					     qubo_status_name(rc));
			}
			fa.fail_at = 0;
			compile(m);
			snap_check(m, &after, "retried model differs from the reference");
			snap_free(&before);
			qubo_model_free(m);
			cr_assert_eq(fa.live, 0, "case %d, fail_at %zu: leak", id, k);
		}
		snap_free(&after);
		qubo_model_free(ref);
		cr_assert_eq(ref_fa.live, 0);
	}
	/* Most penalties allocate: the injection must have bitten. */
	cr_assert(cases_with_failures >= 12, "only %d cases allocate", cases_with_failures);
}
