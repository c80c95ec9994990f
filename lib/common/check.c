/* Argument checks and the size-first struct rule (common_impl.h; doc/abi.md,
 * "Structs that carry their size"). */
#include <string.h>

#include "common_impl.h"

int qubo__null_arg(const char *fn, const char *what)
{
	return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL", fn, what);
}

/* "fn: " before a message, or nothing without a function name. */
#define FN_FMT "%s%s"
#define FN_ARGS(fn) (fn) ? (fn) : "", (fn) ? ": " : ""

int qubo__struct_too_small(int code, size_t size, size_t min, const char *name, const char *fn)
{
	return qubo__error(code,
			   FN_FMT "%s.struct_size is %zu, below the smallest size accepted, %zu",
			   FN_ARGS(fn), name, size, min);
}

int qubo__check_struct(const void *s, size_t size, size_t v1, size_t known, const char *name,
		       const char *fn)
{
	const unsigned char *b = s;
	size_t i;

	if (size < v1)
		return qubo__struct_too_small(QUBO_ERR_UNSUPPORTED_VERSION, size, v1, name, fn);
	for (i = known; i < size; i++)
		if (b[i])
			return qubo__error(QUBO_ERR_UNSUPPORTED_VERSION,
					   FN_FMT "%s.struct_size is %zu and byte %zu is not zero; "
						  "this library knows %zu bytes of it",
					   FN_ARGS(fn), name, size, i, known);
	return QUBO_OK;
}

int qubo__struct_read(void *dst, size_t known, const void *src, size_t v1, const char *name,
		      const char *fn)
{
	size_t size = *(const size_t *)src;
	int rc = qubo__check_struct(src, size, v1, known, name, fn);

	if (rc)
		return rc;
	memcpy(dst, src, size < known ? size : known);
	*(size_t *)dst = known;
	return QUBO_OK;
}

int qubo__struct_write(void *dst, const void *src, size_t known, size_t v1, const char *name,
		       const char *fn)
{
	size_t size = *(const size_t *)dst, off = sizeof size;

	if (size < v1)
		return qubo__struct_too_small(QUBO_ERR_UNSUPPORTED_VERSION, size, v1, name, fn);
	memcpy((unsigned char *)dst + off, (const unsigned char *)src + off,
	       (size < known ? size : known) - off);
	if (size > known)
		memset((unsigned char *)dst + known, 0, size - known);
	return QUBO_OK;
}
