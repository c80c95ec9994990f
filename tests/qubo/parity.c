/*
 * Parity: random relation systems, consistent and inconsistent, agree with
 * brute force.
 *
 * The referee enumerates all 2^n assignments of up to 14 elements: a
 * relation is accepted exactly when some assignment satisfies it together
 * with every relation accepted before, and the structure must then describe
 * exactly the satisfying assignments of the accepted relations.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

#define MAXN 14
#define MAXOPS (4 * MAXN)

/* A relation x_a = x_b / x_a ≠ x_b (fix = 0) or a fix x_a = v (fix = 1). */
struct op {
	int fix;
	uint32_t a, b;
	int v; /* differ flag for a relation, the value for a fix */
};

static int op_holds(const struct op *o, uint32_t x)
{
	unsigned xa = (x >> o->a) & 1u;

	if (o->fix)
		return xa == (unsigned)o->v;
	return (xa ^ ((x >> o->b) & 1u)) == (unsigned)(o->v != 0);
}

static int op_apply(qubo_parity *p, const struct op *o)
{
	if (o->fix)
		return qubo_parity_fix(p, o->a, o->v);
	return qubo_parity_relate(p, o->a, o->b, o->v);
}

static qubo_lit lit_xor(qubo_lit l, int bit)
{
	return bit ? QUBO_LIT_NOT(l) : l;
}

/* The value of literal l under the assignment y of the reduced variables. */
static unsigned lit_eval(qubo_lit l, uint32_t y)
{
	if (l == QUBO_LIT_FALSE)
		return 0;
	if (l == QUBO_LIT_TRUE)
		return 1;
	return ((y >> QUBO_LIT_VAR(l)) & 1u) ^ QUBO_LIT_IS_NEG(l);
}

/*
 * Checks everything the structure reports against the brute-force set sat[]
 * (the satisfying assignments of the accepted ops) and against the
 * connectivity of the accepted relations, computed without union-find.
 */
static void check_structure(qubo_parity *p, uint32_t n, const struct op *acc, size_t nacc,
			    const unsigned char *sat, const char *ctx)
{
	uint32_t rep[MAXN], comp[MAXN], a, x, y;
	int flip[MAXN], value[MAXN], changed;
	qubo_lit lits[MAXN];
	static unsigned char image[1u << MAXN];
	size_t classes = 0, free_classes = 0, got_classes, got_free, num_vars, i;
	uint32_t next_var = 0;

	for (a = 0; a < n; a++) {
		cr_assert_eq(qubo_parity_find(p, a, &rep[a], &flip[a]), QUBO_OK, "%s", ctx);
		cr_assert_eq(qubo_parity_value(p, a, &value[a]), QUBO_OK, "%s", ctx);
		cr_assert(flip[a] == 0 || flip[a] == 1, "%s: flip %d", ctx, flip[a]);
		cr_assert(value[a] >= -1 && value[a] <= 1, "%s: value %d", ctx, value[a]);
	}

	/* Connected components of the accepted relations, labelled by their minimum. */
	for (a = 0; a < n; a++)
		comp[a] = a;
	do {
		changed = 0;
		for (i = 0; i < nacc; i++) {
			uint32_t ca, cb;
			if (acc[i].fix)
				continue;
			ca = comp[acc[i].a];
			cb = comp[acc[i].b];
			if (ca != cb) {
				uint32_t lo = ca < cb ? ca : cb;
				for (a = 0; a < n; a++)
					if (comp[a] == ca || comp[a] == cb)
						comp[a] = lo;
				changed = 1;
			}
		}
	} while (changed);

	for (a = 0; a < n; a++) {
		int seen0 = 0, seen1 = 0;
		cr_assert_eq(rep[a], comp[a],
			     "%s: find(%" PRIu32 ") gave rep %" PRIu32 ", smallest element of "
			     "the class is %" PRIu32, ctx, a, rep[a], comp[a]);
		for (x = 0; x < (1u << n); x++) {
			if (!sat[x])
				continue;
			if ((x >> a) & 1u)
				seen1 = 1;
			else
				seen0 = 1;
		}
		if (comp[a] == a) {
			classes++;
			if (seen0 && seen1)
				free_classes++;
		}
		/* value() is the brute-force forced value, or -1. */
		cr_assert_eq(value[a], seen0 && seen1 ? -1 : seen1, "%s: value(%" PRIu32 ")",
			     ctx, a);
	}

	/* The set described by find()/value() equals the satisfying set. */
	for (x = 0; x < (1u << n); x++) {
		int ok = 1;
		for (a = 0; a < n && ok; a++) {
			unsigned xa = (x >> a) & 1u;
			if (xa != (((x >> rep[a]) & 1u) ^ (unsigned)flip[a]))
				ok = 0;
			else if (value[a] >= 0 && xa != (unsigned)value[a])
				ok = 0;
		}
		cr_assert_eq(ok, sat[x], "%s: assignment 0x%" PRIx32 " is %s by the structure "
			     "but %s by brute force", ctx, x, ok ? "allowed" : "excluded",
			     sat[x] ? "allowed" : "excluded");
	}

	cr_assert_eq(qubo_parity_count(p, &got_classes, &got_free), QUBO_OK, "%s", ctx);
	cr_assert_eq(got_classes, classes, "%s: classes %zu, expected %zu", ctx, got_classes,
		     classes);
	cr_assert_eq(got_free, free_classes, "%s: free classes %zu, expected %zu", ctx, got_free,
		     free_classes);

	/* Literals: free classes numbered by smallest element; image = sat. */
	num_vars = 12345;
	cr_assert_eq(qubo_parity_literals(p, lits, n, &num_vars), QUBO_OK, "%s", ctx);
	cr_assert_eq(num_vars, free_classes, "%s: num_vars", ctx);
	for (a = 0; a < n; a++) {
		qubo_lit l = lits[a];
		if (value[a] >= 0) {
			cr_assert_eq(l, value[a] ? QUBO_LIT_TRUE : QUBO_LIT_FALSE,
				     "%s: lits[%" PRIu32 "]", ctx, a);
		} else if (comp[a] == a) {
			cr_assert_eq(l, QUBO_LIT(next_var), "%s: lits[%" PRIu32 "] = %" PRIu32
				     ", expected variable %" PRIu32, ctx, a, l, next_var);
			next_var++;
		} else {
			cr_assert_eq(l, lit_xor(lits[comp[a]], flip[a]), "%s: lits[%" PRIu32 "]",
				     ctx, a);
		}
	}
	memset(image, 0, (size_t)1 << n);
	for (y = 0; y < (1u << num_vars); y++) {
		x = 0;
		for (a = 0; a < n; a++)
			x |= lit_eval(lits[a], y) << a;
		cr_assert_eq(image[x], 0, "%s: two reduced assignments map to 0x%" PRIx32, ctx, x);
		image[x] = 1;
	}
	for (x = 0; x < (1u << n); x++)
		cr_assert_eq(image[x], sat[x], "%s: literal map image differs at 0x%" PRIx32, ctx,
			     x);
}

static void random_op(tu_rng *r, uint32_t n, struct op *o)
{
	o->fix = tu_below(r, 5) == 0;
	o->a = (uint32_t)tu_below(r, n);
	o->b = (uint32_t)tu_below(r, n);
	o->v = (int)tu_below(r, 2);
	/* Any nonzero differ means "differ". */
	if (!o->fix && o->v && tu_below(r, 4) == 0)
		o->v = (int)tu_range(r, 2, 1000);
}

Test(parity, random_systems_agree_with_brute_force)
{
	static unsigned char sat[1u << MAXN], cand[1u << MAXN];
	struct op acc[MAXOPS], o;
	tu_rng r = { 0x9a217e5eedull };
	size_t accepted = 0, rejected = 0, nacc, s, k, nops;
	char ctx[160];
	uint32_t n, x;

	for (s = 0; s < 420; s++) {
		qubo_parity *p = NULL;
		n = 1 + (uint32_t)(s % MAXN);
		nops = (size_t)tu_range(&r, 0, 3 * (int64_t)n);
		cr_assert_eq(qubo_parity_new(&p, n, NULL), QUBO_OK);
		memset(sat, 1, (size_t)1 << n);
		nacc = 0;
		for (k = 0; k < nops; k++) {
			int rc, feasible = 0;
			random_op(&r, n, &o);
			for (x = 0; x < (1u << n); x++) {
				cand[x] = sat[x] && op_holds(&o, x);
				feasible |= cand[x];
			}
			snprintf(ctx, sizeof ctx, "system %zu (n=%" PRIu32 "), op %zu: %s(%" PRIu32
				 ", %" PRIu32 ", %d)", s, n, k, o.fix ? "fix" : "relate", o.a,
				 o.fix ? 0 : o.b, o.v);
			qubo_error_clear();
			rc = op_apply(p, &o);
			if (feasible) {
				cr_assert_eq(rc, QUBO_OK, "%s: got %s (%s)", ctx,
					     qubo_status_name(rc), qubo_error_message());
				memcpy(sat, cand, (size_t)1 << n);
				acc[nacc++] = o;
				accepted++;
			} else {
				char want[32];
				cr_assert_eq(rc, QUBO_ERR_INFEASIBLE, "%s: got %s", ctx,
					     qubo_status_name(rc));
				cr_assert_eq(qubo_error_code(), QUBO_ERR_INFEASIBLE, "%s", ctx);
				snprintf(want, sizeof want, "x_%" PRIu32, o.a);
				cr_assert(strstr(qubo_error_message(), want), "%s: message '%s'",
					  ctx, qubo_error_message());
				snprintf(want, sizeof want, "x_%" PRIu32, o.b);
				cr_assert(o.fix || strstr(qubo_error_message(), want),
					  "%s: message '%s'", ctx, qubo_error_message());
				rejected++;
			}
			if (n <= 10 || k % 4 == 3 || k + 1 == nops)
				check_structure(p, n, acc, nacc, sat, ctx);
		}
		snprintf(ctx, sizeof ctx, "system %zu (n=%" PRIu32 "), end", s, n);
		check_structure(p, n, acc, nacc, sat, ctx);
		qubo_parity_free(p);
	}
	cr_log_info("%zu ops accepted, %zu rejected as infeasible", accepted, rejected);
	/* The generator must exercise both outcomes substantially. */
	cr_assert_gt(accepted, 1000, "accepted %zu", accepted);
	cr_assert_gt(rejected, 1000, "rejected %zu", rejected);
}

/* find(), value() and literals() of a structure built from ops[0..nops). */
struct outcome {
	uint32_t rep[64];
	int flip[64], value[64];
	qubo_lit lits[64];
};

static void build_outcome(uint32_t n, const struct op *ops, size_t nops, int reverse,
			  struct outcome *out)
{
	qubo_parity *p;
	uint32_t a;
	size_t i;

	cr_assert_eq(qubo_parity_new(&p, n, NULL), QUBO_OK);
	for (i = 0; i < nops; i++) {
		struct op o = ops[reverse ? nops - 1 - i : i];
		if (reverse && !o.fix) {
			/* Arguments swapped too. */
			uint32_t t = o.a;
			o.a = o.b;
			o.b = t;
		}
		cr_assert_eq(op_apply(p, &o), QUBO_OK, "%s", qubo_error_message());
	}
	for (a = 0; a < n; a++) {
		cr_assert_eq(qubo_parity_find(p, a, &out->rep[a], &out->flip[a]), QUBO_OK);
		cr_assert_eq(qubo_parity_value(p, a, &out->value[a]), QUBO_OK);
	}
	cr_assert_eq(qubo_parity_literals(p, out->lits, 64, NULL), QUBO_OK);
	qubo_parity_free(p);
}

Test(parity, representative_does_not_depend_on_order)
{
	tu_rng r = { 0x0dde12ull };
	struct outcome fwd, rev;
	struct op ops[80];
	int round;

	for (round = 0; round < 200; round++) {
		uint32_t n = 2 + (uint32_t)tu_below(&r, 40), a;
		size_t nops = (size_t)tu_range(&r, 0, 80), i;
		uint64_t hidden = tu_next(&r);

		/* Relations true of a hidden assignment: always consistent. */
		for (i = 0; i < nops; i++) {
			struct op *o = &ops[i];
			o->fix = tu_below(&r, 8) == 0;
			o->a = (uint32_t)tu_below(&r, n);
			o->b = (uint32_t)tu_below(&r, n);
			if (o->fix)
				o->v = (int)((hidden >> o->a) & 1u);
			else
				o->v = (int)(((hidden >> o->a) ^ (hidden >> o->b)) & 1u);
		}
		build_outcome(n, ops, nops, 0, &fwd);
		build_outcome(n, ops, nops, 1, &rev);
		for (a = 0; a < n; a++) {
			cr_assert_eq(fwd.rep[a], rev.rep[a], "round %d: rep of %" PRIu32, round, a);
			cr_assert_leq(fwd.rep[a], a);
			cr_assert_eq(fwd.flip[a], rev.flip[a], "round %d: flip of %" PRIu32, round,
				     a);
			/* The hidden assignment satisfies the description. */
			cr_assert_eq((hidden >> a) & 1u,
				     ((hidden >> fwd.rep[a]) & 1u) ^ (unsigned)fwd.flip[a]);
			cr_assert_eq(fwd.value[a], rev.value[a], "round %d: value of %" PRIu32,
				     round, a);
			cr_assert_eq(fwd.lits[a], rev.lits[a], "round %d: literal of %" PRIu32,
				     round, a);
		}
	}
}

Test(parity, contradiction_messages_name_the_elements)
{
	qubo_parity *p;
	const char *m;

	cr_assert_eq(qubo_parity_new(&p, 10, NULL), QUBO_OK);
	cr_assert_eq(qubo_parity_relate(p, 3, 5, 1), QUBO_OK);
	cr_assert_eq(qubo_parity_relate(p, 5, 7, 0), QUBO_OK);
	cr_assert_eq(qubo_parity_relate(p, 3, 7, 0), QUBO_ERR_INFEASIBLE);
	m = qubo_error_message();
	cr_assert(strstr(m, "x_3 = x_7") && strstr(m, "x_3 \xe2\x89\xa0 x_7"), "'%s'", m);
	cr_assert(strstr(m, "qubo_parity_relate"), "'%s'", m);

	cr_assert_eq(qubo_parity_relate(p, 4, 4, 1), QUBO_ERR_INFEASIBLE);
	cr_assert(strstr(qubo_error_message(), "x_4"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_relate(p, 4, 4, 0), QUBO_OK);

	cr_assert_eq(qubo_parity_fix(p, 3, 1), QUBO_OK);
	cr_assert_eq(qubo_parity_fix(p, 7, 1), QUBO_ERR_INFEASIBLE);
	m = qubo_error_message();
	cr_assert(strstr(m, "x_7 = 1") && strstr(m, "x_7 = 0"), "'%s'", m);
	cr_assert(strstr(m, "qubo_parity_fix"), "'%s'", m);

	/* Two fixed classes related the wrong way. */
	cr_assert_eq(qubo_parity_fix(p, 8, 1), QUBO_OK);
	cr_assert_eq(qubo_parity_relate(p, 8, 7, 0), QUBO_ERR_INFEASIBLE);
	m = qubo_error_message();
	cr_assert(strstr(m, "x_8") && strstr(m, "x_7"), "'%s'", m);
	cr_assert_eq(qubo_parity_relate(p, 8, 7, 1), QUBO_OK);
	qubo_parity_free(p);
}

/* Parity of element i relative to element 0 along the chain. */
static unsigned char *chain_bits(uint32_t n, uint64_t seed)
{
	tu_rng r = { seed };
	unsigned char *bit = malloc(n);
	uint32_t i;

	cr_assert_not_null(bit);
	bit[0] = 0;
	for (i = 1; i < n; i++)
		bit[i] = (unsigned char)(bit[i - 1] ^ (tu_next(&r) >> 63));
	return bit;
}

static void check_chain(qubo_parity *p, uint32_t n, const unsigned char *bit)
{
	qubo_lit *lits = malloc((size_t)n * sizeof *lits);
	size_t classes, free_classes, nv;
	uint32_t i, rep;
	int flip;

	cr_assert_not_null(lits);
	/* Walk from the far end so that long paths are compressed first. */
	for (i = n; i-- > 0;) {
		cr_assert_eq(qubo_parity_find(p, i, &rep, &flip), QUBO_OK);
		if (rep != 0 || flip != bit[i])
			cr_assert_fail("find(%" PRIu32 ") = (%" PRIu32 ", %d), expected (0, %d)", i,
				       rep, flip, bit[i]);
	}
	cr_assert_eq(qubo_parity_count(p, &classes, &free_classes), QUBO_OK);
	cr_assert_eq(classes, 1);
	cr_assert_eq(free_classes, 1);
	cr_assert_eq(qubo_parity_literals(p, lits, n, &nv), QUBO_OK);
	cr_assert_eq(nv, 1);
	for (i = 0; i < n; i++)
		if (lits[i] != (bit[i] ? QUBO_LIT_NEG(0) : QUBO_LIT(0)))
			cr_assert_fail("lits[%" PRIu32 "] = %" PRIu32, i, lits[i]);
	free(lits);
}

Test(parity, million_element_chain)
{
	const uint32_t n = 1000000;
	unsigned char *bit = chain_bits(n, 77);
	qubo_parity *p;
	uint32_t i, w, rep;
	int flip, v;
	size_t free_classes;
	struct timespec t0, t1;
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Forward chain: relate(i, i + 1). */
	cr_assert_eq(qubo_parity_new(&p, n, NULL), QUBO_OK);
	for (i = 0; i + 1 < n; i++)
		if (qubo_parity_relate(p, i, i + 1, bit[i] ^ bit[i + 1]) != QUBO_OK)
			cr_assert_fail("relate(%" PRIu32 ") failed: %s", i, qubo_error_message());
	check_chain(p, n, bit);
	cr_assert_eq(qubo_parity_relate(p, 0, n - 1, !bit[n - 1]), QUBO_ERR_INFEASIBLE);
	cr_assert_eq(qubo_parity_fix(p, n - 1, 1), QUBO_OK);
	cr_assert_eq(qubo_parity_value(p, 0, &v), QUBO_OK);
	cr_assert_eq(v, 1 ^ bit[n - 1]);
	cr_assert_eq(qubo_parity_count(p, NULL, &free_classes), QUBO_OK);
	cr_assert_eq(free_classes, 0);
	qubo_parity_free(p);

	/* Backward chain: relate(i + 1, i), from the far end. */
	cr_assert_eq(qubo_parity_new(&p, n, NULL), QUBO_OK);
	for (i = n - 1; i > 0; i--)
		if (qubo_parity_relate(p, i, i - 1, bit[i] ^ bit[i - 1]) != QUBO_OK)
			cr_assert_fail("relate(%" PRIu32 ") failed: %s", i, qubo_error_message());
	check_chain(p, n, bit);
	qubo_parity_free(p);

	/*
	 * Tournament: merge blocks of equal size through their last elements,
	 * which builds trees as deep as union by rank allows, then find the
	 * deepest leaves first.
	 */
	cr_assert_eq(qubo_parity_new(&p, n, NULL), QUBO_OK);
	for (w = 1; w < n; w *= 2)
		for (i = 0; i + w < n; i += 2 * w) {
			uint32_t a = i + w - 1, b = (i + 2 * w - 1 < n ? i + 2 * w : n) - 1;
			if (qubo_parity_relate(p, b, a, bit[a] ^ bit[b]) != QUBO_OK)
				cr_assert_fail("relate(%" PRIu32 ", %" PRIu32 ") failed", b, a);
		}
	cr_assert_eq(qubo_parity_find(p, 0, &rep, &flip), QUBO_OK);
	cr_assert_eq(rep, 0);
	check_chain(p, n, bit);
	qubo_parity_free(p);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	cr_log_info("three 1e6-element chains built and checked in %.3f s", secs);
	free(bit);
}

Test(parity, zero_and_one_elements)
{
	qubo_parity *p;
	size_t c = 9, f = 9, nv = 9;
	uint32_t rep;
	int flip, v;
	qubo_lit lit;

	cr_assert_eq(qubo_parity_new(&p, 0, NULL), QUBO_OK);
	cr_assert_not_null(p);
	cr_assert_eq(qubo_parity_count(p, &c, &f), QUBO_OK);
	cr_assert_eq(c, 0);
	cr_assert_eq(f, 0);
	cr_assert_eq(qubo_parity_literals(p, NULL, 0, &nv), QUBO_OK);
	cr_assert_eq(nv, 0);
	cr_assert_eq(qubo_parity_find(p, 0, &rep, &flip), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_parity_fix(p, 0, 1), QUBO_ERR_OUT_OF_RANGE);
	qubo_parity_free(p);

	cr_assert_eq(qubo_parity_new(&p, 1, NULL), QUBO_OK);
	cr_assert_eq(qubo_parity_find(p, 0, &rep, &flip), QUBO_OK);
	cr_assert_eq(rep, 0);
	cr_assert_eq(flip, 0);
	cr_assert_eq(qubo_parity_value(p, 0, &v), QUBO_OK);
	cr_assert_eq(v, -1);
	cr_assert_eq(qubo_parity_literals(p, &lit, 1, &nv), QUBO_OK);
	cr_assert_eq(lit, QUBO_LIT(0));
	cr_assert_eq(nv, 1);
	cr_assert_eq(qubo_parity_fix(p, 0, 0), QUBO_OK);
	cr_assert_eq(qubo_parity_fix(p, 0, 0), QUBO_OK);
	cr_assert_eq(qubo_parity_literals(p, &lit, 1, &nv), QUBO_OK);
	cr_assert_eq(lit, QUBO_LIT_FALSE);
	cr_assert_eq(nv, 0);
	qubo_parity_free(p);
}

Test(parity, argument_errors)
{
	qubo_parity *p = (qubo_parity *)&p;
	qubo_lit lits[5];
	uint32_t rep = 77;
	int flip = 77, v = 77;
	size_t nv = 77;
	qubo_allocator bad;

	/* new(): size limit, NULL out. */
	cr_assert_eq(qubo_parity_new(&p, QUBO_MAX_VARIABLES, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_null(p);
	cr_assert(strstr(qubo_error_message(), "num_elements"), "'%s'", qubo_error_message());
	p = (qubo_parity *)&p;
	cr_assert_eq(qubo_parity_new(&p, SIZE_MAX, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_null(p);
	cr_assert_eq(qubo_parity_new(NULL, 4, NULL), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "out"), "'%s'", qubo_error_message());

	/* A malformed allocator is refused, and nothing is returned. */
	memset(&bad, 0, sizeof bad);
	p = (qubo_parity *)&p;
	cr_assert_lt(qubo_parity_new(&p, 4, &bad), 0);
	cr_assert_null(p);

	cr_assert_eq(qubo_parity_new(&p, 5, NULL), QUBO_OK);

	/* Out-of-range elements name the argument and the value. */
	cr_assert_eq(qubo_parity_relate(p, 5, 0, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "a is 5"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_relate(p, 0, 9, 1), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "b is 9"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_relate(p, UINT32_MAX, 0, 1), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_parity_fix(p, 5, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert(strstr(qubo_error_message(), "a is 5"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_find(p, 7, &rep, &flip), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(rep, 77);
	cr_assert_eq(qubo_parity_value(p, 7, &v), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(v, 77);

	/* Fix values other than 0 and 1. */
	cr_assert_eq(qubo_parity_fix(p, 1, 2), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "value is 2"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_fix(p, 1, -1), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_parity_value(p, 1, &v), QUBO_OK);
	cr_assert_eq(v, -1);

	/* Small buffers. */
	cr_assert_eq(qubo_parity_literals(p, lits, 4, &nv), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(nv, 5);
	cr_assert_eq(qubo_parity_literals(p, NULL, 0, NULL), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_parity_literals(p, NULL, 5, NULL), QUBO_ERR_MISUSE);

	/* Nothing above changed the structure. */
	cr_assert_eq(qubo_parity_count(p, &nv, NULL), QUBO_OK);
	cr_assert_eq(nv, 5);
	cr_assert_eq(qubo_parity_literals(p, lits, 5, &nv), QUBO_OK);
	cr_assert_eq(nv, 5);
	for (rep = 0; rep < 5; rep++)
		cr_assert_eq(lits[rep], QUBO_LIT(rep));
	qubo_parity_free(p);
}

Test(parity, null_handles)
{
	uint32_t rep;
	int flip, v;
	size_t c;
	qubo_lit lit;
	qubo_parity *p;

	cr_assert_eq(qubo_parity_relate(NULL, 0, 0, 0), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "parity"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_fix(NULL, 0, 0), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_parity_find(NULL, 0, &rep, &flip), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_parity_value(NULL, 0, &v), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_parity_count(NULL, &c, &c), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_parity_literals(NULL, &lit, 1, &c), QUBO_ERR_MISUSE);
	qubo_parity_free(NULL);

	cr_assert_eq(qubo_parity_new(&p, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_parity_find(p, 0, NULL, &flip), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "rep_out"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_find(p, 0, &rep, NULL), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "flip_out"), "'%s'", qubo_error_message());
	cr_assert_eq(qubo_parity_value(p, 0, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_parity_count(p, NULL, NULL), QUBO_OK);
	qubo_parity_free(p);
}

Test(parity, allocation_failures_in_new)
{
	size_t fail_at, injected = 0;
	int done = 0;

	for (fail_at = 1; fail_at < 20 && !done; fail_at++) {
		tu_failalloc fa;
		qubo_parity *p = (qubo_parity *)&fa;
		size_t before;
		uint32_t rep;
		int flip, rc;
		qubo_lit lits[50];

		tu_failalloc_init(&fa, fail_at);
		rc = qubo_parity_new(&p, 50, &fa.a);
		if (fa.failed) {
			injected++;
			cr_assert_eq(rc, QUBO_ERR_NOMEM, "fail_at %zu: %s", fail_at,
				     qubo_status_name(rc));
			cr_assert_null(p);
			cr_assert_eq(fa.live, 0, "fail_at %zu: %zu blocks leaked", fail_at,
				     fa.live);
			cr_assert(strstr(qubo_error_message(), "out of memory"), "'%s'",
				  qubo_error_message());
			continue;
		}
		cr_assert_eq(rc, QUBO_OK);
		/* Only new() allocates. */
		before = fa.count;
		cr_assert_eq(qubo_parity_relate(p, 1, 2, 1), QUBO_OK);
		cr_assert_eq(qubo_parity_relate(p, 2, 1, 0), QUBO_ERR_INFEASIBLE);
		cr_assert_eq(qubo_parity_fix(p, 1, 1), QUBO_OK);
		cr_assert_eq(qubo_parity_find(p, 2, &rep, &flip), QUBO_OK);
		cr_assert_eq(qubo_parity_literals(p, lits, 50, NULL), QUBO_OK);
		cr_assert_eq(fa.count, before, "operations allocated");
		qubo_parity_free(p);
		cr_assert_eq(fa.live, 0);
		done = 1;
	}
	cr_assert(done);
	cr_assert_geq(injected, 1);
}
