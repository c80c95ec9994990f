/*
 * lib/common's arrays that grow together (qubo__grow_arrays): the shared
 * capacity doubles from its first value, contents survive, and a failed
 * allocation at any step leaves the capacity and every array as valid as
 * before, with QUBO_ERR_NOMEM naming what was being grown.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "common_impl.h"
#include "util.h"

struct three {
	size_t cap;
	uint64_t *wide; /* 3 per unit */
	double *val;
	uint8_t *flag;
};

static int grow(const qubo_allocator *a, struct three *t, size_t need)
{
	const struct qubo__grow_array arrays[] = {
		{ (void **)&t->wide, 3, sizeof *t->wide },
		{ (void **)&t->val, 1, sizeof *t->val },
		{ (void **)&t->flag, 0, sizeof *t->flag },
	};

	return qubo__grow_arrays(a, &t->cap, need, 4, arrays, 3, "the test's levels");
}

static void fill(struct three *t, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		t->wide[3 * i] = i;
		t->wide[3 * i + 1] = 2 * i;
		t->wide[3 * i + 2] = 3 * i;
		t->val[i] = 0.5 * (double)i;
		t->flag[i] = (uint8_t)(i & 0xff);
	}
}

static void check(const struct three *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		cr_assert_eq(t->wide[3 * i + 2], 3 * i);
		cr_assert_eq(t->wide[3 * i + 1], 2 * i);
		cr_assert_eq(t->val[i], 0.5 * (double)i);
		cr_assert_eq(t->flag[i], (uint8_t)(i & 0xff));
	}
}

static void release(const qubo_allocator *a, struct three *t)
{
	qubo__free(a, t->wide);
	qubo__free(a, t->val);
	qubo__free(a, t->flag);
}

Test(common_grow, doubles_from_first_and_keeps_contents)
{
	struct three t = { 0, NULL, NULL, NULL };
	qubo_allocator a;

	cr_assert_eq(qubo__alloc_init(&a, NULL, NULL), QUBO_OK);
	cr_assert_eq(grow(&a, &t, 0), QUBO_OK);
	cr_assert_eq(t.cap, 0);
	cr_assert_null(t.wide);
	cr_assert_eq(grow(&a, &t, 3), QUBO_OK);
	cr_assert_eq(t.cap, 4);
	fill(&t, 0, 4);
	cr_assert_eq(grow(&a, &t, 4), QUBO_OK); /* enough: nothing moves */
	cr_assert_eq(t.cap, 4);
	cr_assert_eq(grow(&a, &t, 9), QUBO_OK);
	cr_assert_eq(t.cap, 16);
	check(&t, 4);
	fill(&t, 4, 16);
	cr_assert_eq(grow(&a, &t, 100), QUBO_OK);
	cr_assert_eq(t.cap, 128);
	check(&t, 16);
	fill(&t, 16, 128); /* every unit of every array is there */
	check(&t, 128);
	release(&a, &t);
}

/* Every allocation failing in turn: NOMEM with the message, the capacity
 * as before, the arrays holding it with their contents; a retry then
 * succeeds; nothing leaks. */
Test(common_grow, every_failure_leaves_the_arrays_valid)
{
	size_t fail_at;

	for (fail_at = 1;; fail_at++) {
		struct three t = { 0, NULL, NULL, NULL };
		tu_failalloc f;
		qubo_allocator a;
		int rc;

		tu_failalloc_init(&f, 0);
		cr_assert_eq(qubo__alloc_init(&a, &f.a, NULL), QUBO_OK);
		cr_assert_eq(grow(&a, &t, 5), QUBO_OK);
		fill(&t, 0, 8);
		f.count = 0;
		f.fail_at = fail_at;
		rc = grow(&a, &t, 20);
		if (!f.failed) {
			cr_assert_eq(rc, QUBO_OK);
			cr_assert_eq(t.cap, 32);
			check(&t, 8);
			release(&a, &t);
			cr_assert_eq(f.live, 0);
			cr_assert_geq(fail_at, 4, "all three arrays grew with %zu allocations",
				      fail_at - 1);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM);
		cr_assert(strstr(qubo_error_message(), "the test's levels"), "%s",
			  qubo_error_message());
		cr_assert_eq(t.cap, 8);
		check(&t, 8);
		f.fail_at = 0;
		cr_assert_eq(grow(&a, &t, 20), QUBO_OK);
		check(&t, 8);
		release(&a, &t);
		cr_assert_eq(f.live, 0);
	}
}

/* A capacity whose bytes overflow size_t is NOMEM, not a short array. */
Test(common_grow, overflow_is_nomem)
{
	struct three t = { 0, NULL, NULL, NULL };
	qubo_allocator a;

	cr_assert_eq(qubo__alloc_init(&a, NULL, NULL), QUBO_OK);
	cr_assert_eq(grow(&a, &t, SIZE_MAX / 2), QUBO_ERR_NOMEM);
	cr_assert_eq(t.cap, 0);
	cr_assert_eq(grow(&a, &t, SIZE_MAX / 24 + 1), QUBO_ERR_NOMEM);
	cr_assert_eq(t.cap, 0);
	release(&a, &t);
}
