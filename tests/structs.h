/* Helpers of the struct-versioning suites (tests/common/structs.c,
 * tests/qubo/structs.c, tests/puzzle/structs.c): the size-first rule of doc/abi.md ("Structs that
 * carry their size") acted out by an older caller (struct_size at the frozen
 * ..._SIZE_V1), a newer caller (a larger struct_size) and a size below V1,
 * with the messages both libraries must give word for word. Header-only
 * (static inline) so that each suite stays one file. */
#ifndef QUBO_TEST_STRUCTS_H
#define QUBO_TEST_STRUCTS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <qubo.h>

/* Room for any public struct and a newer caller's tail, then poison. */
#define TS_BYTES 512
#define TS_POISON 0xAB
#define TS_TAIL 16 /* a newer caller's extra bytes */

typedef union ts_buf {
	max_align_t align;
	unsigned char b[TS_BYTES];
} ts_buf;

static inline void ts_set_size(ts_buf *buf, size_t size)
{
	memcpy(buf->b, &size, sizeof size);
}

static inline size_t ts_get_size(const ts_buf *buf)
{
	size_t size;

	memcpy(&size, buf->b, sizeof size);
	return size;
}

/* The message for a struct_size below the smallest accepted. */
static inline void ts_expect_too_small(const char *fn, const char *name, size_t size, size_t min)
{
	char want[512];

	snprintf(want, sizeof want,
		 "%s: %s.struct_size is %zu, below the smallest size accepted, %zu", fn, name,
		 size, min);
	cr_assert_str_eq(qubo_error_message(), want);
}

/* The message for a newer caller's input struct whose unknown tail is not
 * zero (byte is the first nonzero one). */
static inline void ts_expect_tail(const char *fn, const char *name, size_t size, size_t byte,
				  size_t known)
{
	char want[512];

	snprintf(want, sizeof want,
		 "%s: %s.struct_size is %zu and byte %zu is not zero; this library knows %zu "
		 "bytes of it",
		 fn, name, size, byte, known);
	cr_assert_str_eq(qubo_error_message(), want);
}

static inline void ts_expect_poison(const ts_buf *buf, size_t from, const char *what)
{
	size_t i;

	for (i = from; i < TS_BYTES; i++)
		cr_assert_eq(buf->b[i], TS_POISON, "%s: byte %zu past the caller's size written", what,
			     i);
}

/* Uses an input struct (the first bytes of in) in a call of the library; 0
 * or a status. Frees whatever the call made. */
typedef int (*ts_use_fn)(void *ctx, const void *in);

/*
 * The rule for an input struct: tmpl is a valid struct of `known` bytes
 * (sizeof in the test's headers, which are the library's), v1 its frozen
 * first size.
 *  - an older caller (struct_size v1) is accepted;
 *  - a newer caller (struct_size known + TS_TAIL) is accepted with a zero
 *    tail and refused with QUBO_ERR_UNSUPPORTED_VERSION otherwise;
 *  - a size below v1 is refused with small_rc (QUBO_ERR_UNSUPPORTED_VERSION
 *    but for backend tables).
 * Messages name the struct and fn.
 */
static inline void ts_input_rule_ex(ts_use_fn use, void *ctx, const void *tmpl, size_t known,
				    size_t v1, const char *name, const char *fn, int small_rc)
{
	ts_buf buf;
	int rc;

	cr_assert_leq(v1, known, "%s: V1 is past sizeof", name);
	cr_assert_geq(v1, sizeof(size_t) + 1);

	/* an older caller: exactly the first layout, bytes beyond it poisoned
	 * (they are not the caller's and must not be read as fields) */
	memset(buf.b, TS_POISON, sizeof buf.b);
	memcpy(buf.b, tmpl, v1);
	ts_set_size(&buf, v1);
	rc = use(ctx, buf.b);
	cr_assert_eq(rc, QUBO_OK, "%s, V1 size %zu: %s: %s", name, v1, qubo_status_name(rc),
		     qubo_error_message());

	/* a newer caller with nothing set in the fields this library lacks */
	memset(buf.b, 0, sizeof buf.b);
	memcpy(buf.b, tmpl, known);
	ts_set_size(&buf, known + TS_TAIL);
	rc = use(ctx, buf.b);
	cr_assert_eq(rc, QUBO_OK, "%s, newer size, zero tail: %s: %s", name, qubo_status_name(rc),
		     qubo_error_message());

	/* ... and with one of them set */
	buf.b[known + 5] = 1;
	rc = use(ctx, buf.b);
	cr_assert_eq(rc, QUBO_ERR_UNSUPPORTED_VERSION, "%s, newer size, tail set: %s", name,
		     qubo_status_name(rc));
	ts_expect_tail(fn, name, known + TS_TAIL, known + 5, known);

	/* a size below the first layout */
	memset(buf.b, 0, sizeof buf.b);
	memcpy(buf.b, tmpl, known);
	ts_set_size(&buf, v1 - 1);
	rc = use(ctx, buf.b);
	cr_assert_eq(rc, small_rc, "%s, size V1 - 1: %s", name, qubo_status_name(rc));
	ts_expect_too_small(fn, name, v1 - 1, v1);
	ts_set_size(&buf, sizeof(size_t));
	cr_assert_eq(use(ctx, buf.b), small_rc);
	ts_set_size(&buf, 0);
	cr_assert_eq(use(ctx, buf.b), small_rc);
	ts_expect_too_small(fn, name, 0, v1);
}

static inline void ts_input_rule(ts_use_fn use, void *ctx, const void *tmpl, size_t known,
				 size_t v1, const char *name, const char *fn)
{
	ts_input_rule_ex(use, ctx, tmpl, known, v1, name, fn, QUBO_ERR_UNSUPPORTED_VERSION);
}

/* Fills an output struct (out, with struct_size set) by a call of the
 * library; 0 or a status. */
typedef int (*ts_fill_fn)(void *ctx, void *out);

/*
 * The rule for an output struct of `known` bytes, first size v1:
 *  - an older caller (struct_size v1) gets the first v1 bytes the library
 *    would write, and nothing past them is touched;
 *  - a newer caller (struct_size known + TS_TAIL) gets every field, its
 *    fields this library does not know read 0, and nothing past its size is
 *    touched;
 *  - a size below v1 is refused with QUBO_ERR_UNSUPPORTED_VERSION and nothing
 *    is written.
 * struct_size is never changed. Messages name the struct and fn.
 */
static inline void ts_output_rule(ts_fill_fn fill, void *ctx, size_t known, size_t v1,
				  const char *name, const char *fn)
{
	ts_buf ref, buf;
	size_t i;
	int rc;

	cr_assert_leq(v1, known, "%s: V1 is past sizeof", name);
	cr_assert_geq(v1, sizeof(size_t) + 1);

	/* what the current layout gets */
	memset(ref.b, 0, sizeof ref.b);
	ts_set_size(&ref, known);
	rc = fill(ctx, ref.b);
	cr_assert_eq(rc, QUBO_OK, "%s: %s: %s", name, qubo_status_name(rc), qubo_error_message());
	cr_assert_eq(ts_get_size(&ref), known);

	/* an older caller */
	memset(buf.b, TS_POISON, sizeof buf.b);
	ts_set_size(&buf, v1);
	rc = fill(ctx, buf.b);
	cr_assert_eq(rc, QUBO_OK, "%s, V1 size: %s: %s", name, qubo_status_name(rc),
		     qubo_error_message());
	cr_assert_eq(ts_get_size(&buf), v1, "%s: struct_size was changed", name);
	cr_assert_eq(memcmp(buf.b + sizeof(size_t), ref.b + sizeof(size_t), v1 - sizeof(size_t)),
		     0, "%s: the V1 fields differ from the current layout's", name);
	ts_expect_poison(&buf, v1, name);

	/* a newer caller: whatever its tail held, the library's unknown fields
	 * read 0 */
	memset(buf.b, TS_POISON, sizeof buf.b);
	ts_set_size(&buf, known + TS_TAIL);
	rc = fill(ctx, buf.b);
	cr_assert_eq(rc, QUBO_OK, "%s, newer size: %s: %s", name, qubo_status_name(rc),
		     qubo_error_message());
	cr_assert_eq(ts_get_size(&buf), known + TS_TAIL, "%s: struct_size was changed", name);
	cr_assert_eq(memcmp(buf.b + sizeof(size_t), ref.b + sizeof(size_t),
			    known - sizeof(size_t)),
		     0, "%s: the fields differ from the current layout's", name);
	for (i = known; i < known + TS_TAIL; i++)
		cr_assert_eq(buf.b[i], 0, "%s: unknown byte %zu not zeroed", name, i);
	ts_expect_poison(&buf, known + TS_TAIL, name);

	/* a size below the first layout: refused, nothing written */
	memset(buf.b, TS_POISON, sizeof buf.b);
	ts_set_size(&buf, v1 - 1);
	rc = fill(ctx, buf.b);
	cr_assert_eq(rc, QUBO_ERR_UNSUPPORTED_VERSION, "%s, size V1 - 1: %s", name,
		     qubo_status_name(rc));
	ts_expect_too_small(fn, name, v1 - 1, v1);
	ts_expect_poison(&buf, sizeof(size_t), name);
}

#endif
