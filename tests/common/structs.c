/*
 * The size-first struct rule itself (lib/common/check.c; doc/abi.md,
 * "Structs that carry their size"), on a struct of this file: a size below
 * V1 is refused, an older caller's missing fields keep their defaults (input)
 * or are not written (output), a newer caller's tail must be zero (input) or
 * is zeroed (output), and nothing past the caller's size is touched. The
 * public structs of each library go through the same rule in
 * tests/qubo/structs.c and tests/puzzle/structs.c, with the same messages
 * (tests/structs.h).
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common_impl.h"
#include "structs.h"

typedef struct demo {
	size_t struct_size;
	int a;
	int b; /* the first layout ends here */
	double c;
} demo;

#define DEMO_V1 (offsetof(demo, b) + sizeof(int))
#define KNOWN sizeof(demo)

static const demo defaults = { KNOWN, 1, 2, 3.0 };

static void put_size(ts_buf *buf, size_t size)
{
	memset(buf->b, TS_POISON, sizeof buf->b);
	ts_set_size(buf, size);
}

Test(struct_rule, below_v1_is_refused)
{
	ts_buf in;
	demo d = defaults;
	char want[128];

	put_size(&in, DEMO_V1 - 1);
	cr_assert_eq(qubo__check_struct(in.b, DEMO_V1 - 1, DEMO_V1, KNOWN, "demo", "demo_fn"),
		     QUBO_ERR_UNSUPPORTED_VERSION);
	ts_expect_too_small("demo_fn", "demo", DEMO_V1 - 1, DEMO_V1);
	cr_assert_eq(qubo__struct_read(&d, KNOWN, in.b, DEMO_V1, "demo", "demo_fn"),
		     QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert(!memcmp(&d, &defaults, sizeof d), "a refused read wrote its destination");
	cr_assert_eq(qubo__struct_write(in.b, &defaults, KNOWN, DEMO_V1, "demo", "demo_fn"),
		     QUBO_ERR_UNSUPPORTED_VERSION);
	ts_expect_too_small("demo_fn", "demo", DEMO_V1 - 1, DEMO_V1);
	cr_assert_eq(ts_get_size(&in), DEMO_V1 - 1);
	ts_expect_poison(&in, sizeof(size_t), "a refused write");
	/* without a function name the message has no "fn: " */
	cr_assert_eq(qubo__check_struct(in.b, 0, DEMO_V1, KNOWN, "demo", NULL),
		     QUBO_ERR_UNSUPPORTED_VERSION);
	snprintf(want, sizeof want, "demo.struct_size is 0, below the smallest size accepted, %zu",
		 DEMO_V1);
	cr_assert_str_eq(qubo_error_message(), want);
	/* a backend table without its required slot is misuse, same words */
	cr_assert_eq(qubo__struct_too_small(QUBO_ERR_MISUSE, 8, 24, "demo", "demo_fn"),
		     QUBO_ERR_MISUSE);
	ts_expect_too_small("demo_fn", "demo", 8, 24);
}

Test(struct_rule, older_input_keeps_the_defaults)
{
	demo src = { DEMO_V1, 10, 20, 30.0 }, d = defaults;

	cr_assert_eq(qubo__struct_read(&d, KNOWN, &src, DEMO_V1, "demo", "demo_fn"), QUBO_OK);
	cr_assert_eq(d.struct_size, KNOWN);
	cr_assert_eq(d.a, 10);
	cr_assert_eq(d.b, 20);
	cr_assert_eq(d.c, 3.0, "a field past the caller's size took its value, not the default");
}

Test(struct_rule, newer_input_needs_a_zero_tail)
{
	ts_buf in;
	demo d = defaults, src = { KNOWN + TS_TAIL, 10, 20, 30.0 };
	size_t i;

	memset(in.b, 0, sizeof in.b);
	memcpy(in.b, &src, sizeof src);
	cr_assert_eq(qubo__struct_read(&d, KNOWN, in.b, DEMO_V1, "demo", "demo_fn"), QUBO_OK);
	cr_assert_eq(d.struct_size, KNOWN);
	cr_assert_eq(d.c, 30.0);
	/* each nonzero byte of the tail is refused, the first one named */
	for (i = KNOWN; i < KNOWN + TS_TAIL; i++) {
		in.b[i] = 1;
		in.b[KNOWN + TS_TAIL - 1] = 1;
		d = defaults;
		cr_assert_eq(qubo__struct_read(&d, KNOWN, in.b, DEMO_V1, "demo", "demo_fn"),
			     QUBO_ERR_UNSUPPORTED_VERSION);
		ts_expect_tail("demo_fn", "demo", KNOWN + TS_TAIL, i, KNOWN);
		cr_assert(!memcmp(&d, &defaults, sizeof d), "a refused read wrote its destination");
		in.b[i] = 0;
		in.b[KNOWN + TS_TAIL - 1] = 0;
	}
	/* a byte past the caller's size is not the caller's: never read */
	in.b[KNOWN + TS_TAIL] = 1;
	cr_assert_eq(qubo__check_struct(in.b, KNOWN + TS_TAIL, DEMO_V1, KNOWN, "demo", "demo_fn"),
		     QUBO_OK);
}

Test(struct_rule, output_is_written_up_to_the_callers_size)
{
	const demo src = { KNOWN, 10, 20, 30.0 };
	ts_buf out;
	demo got;
	size_t i;

	/* an older caller: its fields written, nothing past its size */
	put_size(&out, DEMO_V1);
	cr_assert_eq(qubo__struct_write(out.b, &src, KNOWN, DEMO_V1, "demo", "demo_fn"), QUBO_OK);
	memcpy(&got, out.b, DEMO_V1);
	cr_assert_eq(got.struct_size, DEMO_V1, "the caller's struct_size is kept");
	cr_assert_eq(got.a, 10);
	cr_assert_eq(got.b, 20);
	ts_expect_poison(&out, DEMO_V1, "an older caller's write");

	/* a newer caller: every field, its unknown tail zeroed, nothing past it */
	put_size(&out, KNOWN + TS_TAIL);
	cr_assert_eq(qubo__struct_write(out.b, &src, KNOWN, DEMO_V1, "demo", "demo_fn"), QUBO_OK);
	memcpy(&got, out.b, sizeof got);
	cr_assert_eq(got.struct_size, KNOWN + TS_TAIL);
	cr_assert_eq(got.c, 30.0);
	for (i = KNOWN; i < KNOWN + TS_TAIL; i++)
		cr_assert_eq(out.b[i], 0, "byte %zu of a newer caller's tail", i);
	ts_expect_poison(&out, KNOWN + TS_TAIL, "a newer caller's write");
}
