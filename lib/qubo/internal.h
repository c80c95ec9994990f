/*
 * Private helpers shared by libqubo's sources: allocation through the
 * object's allocator, and the per-thread error state. Never installed.
 */
#ifndef QUBO_INTERNAL_H
#define QUBO_INTERNAL_H

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

/* Fills *dst from a caller's allocator (NULL: the C library). Returns
 * QUBO_OK, or QUBO_ERR_INVALID_ARG / QUBO_ERR_UNSUPPORTED_VERSION with the
 * error message set. */
int qubo__alloc_init(qubo_allocator *dst, const qubo_allocator *src);

/* Allocation through an allocator. Sizes of 0 allocate 1 byte. They do not
 * set the error message: callers report QUBO_ERR_NOMEM with context. */
void *qubo__malloc(const qubo_allocator *a, size_t size);
void *qubo__realloc(const qubo_allocator *a, void *ptr, size_t size);
void qubo__free(const qubo_allocator *a, void *ptr);
/* count * size with overflow check: NULL when it overflows or fails. */
void *qubo__malloc_array(const qubo_allocator *a, size_t count, size_t size);
void *qubo__calloc_array(const qubo_allocator *a, size_t count, size_t size);
void *qubo__realloc_array(const qubo_allocator *a, void *ptr, size_t count, size_t size);

/* Grows *ptr (holding *cap elements of elem bytes) so that it holds at least
 * need elements; geometric growth. QUBO_OK or QUBO_ERR_NOMEM (message set);
 * on failure *ptr and *cap are unchanged. */
int qubo__grow(const qubo_allocator *a, void **ptr, size_t *cap, size_t need, size_t elem);

/* Sets this thread's error (code, message) and returns code. */
int qubo__error(int code, const char *fmt, ...) QUBO__PRINTF(2, 3);
/* The same with an input position (1-based line and column). */
int qubo__error_at(int code, size_t line, size_t column, const char *fmt, ...)
	QUBO__PRINTF(4, 5);
/* Out-of-memory error naming what was being allocated. */
int qubo__nomem(const char *what);

/* Nonzero when x is finite (not NaN, not ±inf), without <math.h> macros
 * that differ between compilers' fast-math modes. */
static inline int qubo__is_finite(double x)
{
	return x - x == 0.0; /* NaN for NaN and ±inf */
}

#endif /* QUBO_INTERNAL_H */
