/*
 * The helpers both shared libraries need (allocation through a
 * qubo_allocator, error reporting, argument checks, the size-first struct
 * rule, file reading, a monotonic clock), built once as the static library
 * qubo-common and linked into libqubo and libqubo-puzzle. The worker pool is
 * in pool.h. Never installed.
 *
 * Everything here is hidden (qubo__ names, -fvisibility=hidden): linking it
 * into a shared library exports nothing new. The code uses only libqubo's
 * public API, so that the copy inside libqubo-puzzle works against any
 * libqubo of the same SONAME. In particular the per-thread error has one
 * home, error_state.c, which is built into libqubo alone: the error helpers
 * below format a message and hand it with its parts to the public
 * qubo_error_set_parts(), and no copy of this library keeps an error of its
 * own.
 */
#ifndef QUBO_COMMON_IMPL_H
#define QUBO_COMMON_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "qubo/alloc.h"
#include "qubo/status.h"

#if defined(__GNUC__) || defined(__clang__)
#define QUBO__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define QUBO__LIKELY(x) __builtin_expect(!!(x), 1)
#define QUBO__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define QUBO__PRINTF(f, a)
#define QUBO__LIKELY(x) (x)
#define QUBO__UNLIKELY(x) (x)
#endif

/* ---- allocation (alloc.c) ---- */

/* Fills *dst from a caller's allocator (NULL: the C library). The caller's
 * struct follows the size-first rule (qubo__struct_read). Returns QUBO_OK,
 * or QUBO_ERR_INVALID_ARG / QUBO_ERR_UNSUPPORTED_VERSION with the error
 * message set, naming fn (the public function; may be NULL). */
int qubo__alloc_init(qubo_allocator *dst, const qubo_allocator *src, const char *fn);

/* Allocation through an allocator. Sizes of 0 allocate 1 byte. They do not
 * set the error message: callers report QUBO_ERR_NOMEM with context. */
void *qubo__malloc(const qubo_allocator *a, size_t size);
void *qubo__realloc(const qubo_allocator *a, void *ptr, size_t size);
void qubo__free(const qubo_allocator *a, void *ptr);
/* count * size with overflow check: NULL when it overflows or fails. */
void *qubo__malloc_array(const qubo_allocator *a, size_t count, size_t size);
/* The same, zeroed (at least the one byte a size of 0 allocates). */
void *qubo__calloc_array(const qubo_allocator *a, size_t count, size_t size);
void *qubo__realloc_array(const qubo_allocator *a, void *ptr, size_t count, size_t size);

/* Grows *ptr (holding *cap elements of elem bytes) so that it holds at least
 * need elements; geometric growth. QUBO_OK or QUBO_ERR_NOMEM (message set);
 * on failure *ptr and *cap are unchanged. */
int qubo__grow(const qubo_allocator *a, void **ptr, size_t *cap, size_t need, size_t elem);

/* ---- arrays that grow together (grow.c) ---- */

/* One of several arrays under one capacity: *ptr holds per × elem bytes for
 * each unit of the capacity (per 0 counts as 1). */
struct qubo__grow_array {
	void **ptr;
	size_t per;
	size_t elem;
};

/* Grows the `count` arrays so that each holds `need` units, when *cap (the
 * units each holds now) is smaller: the capacity doubles from *cap, or from
 * `first` when *cap is 0, until it reaches need, so a deepening search
 * reallocates a few times in all. QUBO_OK, or QUBO_ERR_NOMEM naming `what`
 * (message set); on failure *cap is unchanged and each array still holds at
 * least *cap units with its contents (those already grown are larger), so
 * the owner stays valid and frees them as usual. */
int qubo__grow_arrays(const qubo_allocator *a, size_t *cap, size_t need, size_t first,
		      const struct qubo__grow_array *arrays, size_t count, const char *what);

/* ---- errors (error.c; the state is error_state.c's) ---- */

/* Size of the per-thread message buffer, terminating NUL included. */
#define QUBO__ERRMSG_SIZE 512
/* Size of the per-thread function name buffer, terminating NUL included. */
#define QUBO__ERRFN_SIZE 64

/* Each helper sets this thread's error and returns its code. A message that
 * starts with "qubo_name: " (the public function, as every argument error
 * does) gives qubo_error_function() that name; the rest is the detail. */

/* An error without a position. */
int qubo__error(int code, const char *fmt, ...) QUBO__PRINTF(2, 3);
/* An error at an input position (1-based line and column). */
int qubo__error_at(int code, size_t line, size_t column, const char *fmt, ...) QUBO__PRINTF(4, 5);
/* The va_list form of qubo__error_at. */
int qubo__verror_at(int code, size_t line, size_t column, const char *fmt, va_list ap)
	QUBO__PRINTF(4, 0);
/* An error about one board cell (1-based row and column). */
int qubo__error_cell(int code, size_t row, size_t column, const char *fmt, ...) QUBO__PRINTF(4, 5);
/* An error naming the limit hit (enum qubo_limit; QUBO_LIMIT_NONE: none)
 * and its value in force (the largest figure it allows), at an input
 * position (line 0: none). */
int qubo__error_limit_at(int code, int limit, uint64_t value, size_t line, size_t column,
			 const char *fmt, ...) QUBO__PRINTF(6, 7);
/* QUBO_ERR_TOO_LARGE naming its limit, at a position and without one. */
#define qubo__too_large_at(limit, value, line, column, ...) \
	qubo__error_limit_at(QUBO_ERR_TOO_LARGE, limit, value, line, column, __VA_ARGS__)
#define qubo__too_large(limit, value, ...) \
	qubo__error_limit_at(QUBO_ERR_TOO_LARGE, limit, value, 0, 0, __VA_ARGS__)
/* The general form: the parts other than the function and the detail are
 * set in *parts; the message is formatted, split and recorded. */
int qubo__verror_parts(qubo_error_parts *parts, const char *fmt, va_list ap) QUBO__PRINTF(2, 0);
/* Out-of-memory error naming what was being allocated. */
int qubo__nomem(const char *what);

/* The length of the function name a message starts with ("qubo_name: "),
 * or 0 when it starts with none (message.c). */
size_t qubo__error_function_length(const char *msg);

/* Drops a UTF-8 sequence left incomplete at the end of s[0..len) (a message
 * cut to fit a buffer) and NUL-terminates there. Returns the new length
 * (message.c). */
size_t qubo__utf8_cut(char *s, size_t len);

/* ---- argument checks (check.c) ---- */

/* QUBO_ERR_MISUSE with "<fn>: <what> is NULL". */
int qubo__null_arg(const char *fn, const char *what);

/*
 * The size-first struct rule (doc/abi.md, "Structs that carry their size").
 * A public struct begins with size_t struct_size; v1 is its frozen first
 * size (the header's ..._SIZE_V1) and known the size this library was built
 * with (sizeof). A caller's size
 *  - below v1 is rejected (QUBO_ERR_UNSUPPORTED_VERSION);
 *  - from v1 up to known is an older caller: the fields it lacks take their
 *    defaults (input) or are not written (output);
 *  - above known is a newer caller: accepted when every byte past known is
 *    zero (input; an output struct's unknown tail is zeroed instead), else
 *    QUBO_ERR_UNSUPPORTED_VERSION.
 * Messages name the struct and the function, in the same words everywhere.
 */

/* The message (and code) for a size below the smallest accepted, min. Most
 * structs use QUBO_ERR_UNSUPPORTED_VERSION; a backend table without its
 * required slot is QUBO_ERR_MISUSE. */
int qubo__struct_too_small(int code, size_t size, size_t min, const char *name, const char *fn);

/* Checks an input struct s of `size` bytes (its struct_size) against the
 * rule. */
int qubo__check_struct(const void *s, size_t size, size_t v1, size_t known, const char *name,
		       const char *fn);

/* Reads an input struct: checks src against the rule, then copies its first
 * min(src->struct_size, known) bytes over dst, which holds the defaults
 * (known bytes). dst->struct_size becomes known. */
int qubo__struct_read(void *dst, size_t known, const void *src, size_t v1, const char *name,
		      const char *fn);

/* Writes an output struct: checks dst->struct_size against v1, copies the
 * fields of src (known bytes) that fit in it, zeroes dst's bytes past known
 * (a newer caller's fields this library does not fill) and keeps
 * dst->struct_size. Nothing past dst->struct_size is touched. */
int qubo__struct_write(void *dst, const void *src, size_t known, size_t v1, const char *name,
		       const char *fn);

/* ---- files (file.c) ---- */

/* strerror_r's text for err in buf. */
const char *qubo__errstr(int err, char *buf, size_t size);

/* Reads the whole file at path into a buffer from a (freed by the caller
 * with qubo__free). QUBO_OK; QUBO_ERR_MISUSE (path NULL), QUBO_ERR_IO
 * ("<fn>: cannot open/read '<path>': <reason>"), QUBO_ERR_TOO_LARGE (more
 * than max_bytes: a regular file is refused by its size before any read,
 * anything else is read in chunks and abandoned at max_bytes + 1 bytes) or
 * QUBO_ERR_NOMEM with the message set, *data_out NULL. */
int qubo__read_file(const qubo_allocator *a, const char *path, const char *fn, size_t max_bytes,
		    char **data_out, size_t *length_out);

/* ---- time (clock.c) ---- */

/* Monotonic clock in seconds. */
double qubo__now(void);

/* Time limits, in seconds, are finite and >= 0; 0 means none, and so does a
 * limit longer than this (3e10 years): its deadline would be beyond what a
 * timespec's seconds can hold. */
#define QUBO__TIME_LIMIT_NONE_ABOVE 1e18
/* The deadline on qubo__now()'s clock of a limit that starts at t0, or 0 for
 * none (a limit of 0, or above QUBO__TIME_LIMIT_NONE_ABOVE). */
double qubo__deadline(double t0, double limit);

#endif /* QUBO_COMMON_IMPL_H */
