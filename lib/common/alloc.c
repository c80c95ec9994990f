/* Allocation through per-object allocators. */
#include <stdlib.h>
#include <string.h>

#include "common_impl.h"

static void *std_malloc(size_t size, void *ud)
{
	(void)ud;
	return malloc(size);
}

static void *std_realloc(void *ptr, size_t size, void *ud)
{
	(void)ud;
	return realloc(ptr, size);
}

static void std_free(void *ptr, void *ud)
{
	(void)ud;
	free(ptr);
}

int qubo__alloc_init(qubo_allocator *dst, const qubo_allocator *src, const char *fn)
{
	int rc;

	memset(dst, 0, sizeof *dst);
	dst->struct_size = sizeof *dst;
	if (!src) {
		dst->malloc_fn = std_malloc;
		dst->realloc_fn = std_realloc;
		dst->free_fn = std_free;
		return QUBO_OK;
	}
	rc = qubo__struct_read(dst, sizeof *dst, src, QUBO_ALLOCATOR_SIZE_V1, "qubo_allocator", fn);
	if (rc)
		return rc;
	if (!dst->malloc_fn || !dst->realloc_fn || !dst->free_fn)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s%squbo_allocator needs malloc_fn, realloc_fn and free_fn",
				   fn ? fn : "", fn ? ": " : "");
	return QUBO_OK;
}

void *qubo__malloc(const qubo_allocator *a, size_t size)
{
	return a->malloc_fn(size ? size : 1, a->user_data);
}

void *qubo__realloc(const qubo_allocator *a, void *ptr, size_t size)
{
	if (!ptr)
		return qubo__malloc(a, size);
	return a->realloc_fn(ptr, size ? size : 1, a->user_data);
}

void qubo__free(const qubo_allocator *a, void *ptr)
{
	if (ptr)
		a->free_fn(ptr, a->user_data);
}

void *qubo__malloc_array(const qubo_allocator *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return qubo__malloc(a, count * size);
}

void *qubo__calloc_array(const qubo_allocator *a, size_t count, size_t size)
{
	void *p = qubo__malloc_array(a, count, size);
	size_t bytes = count * size; /* no overflow once allocated */

	if (p)
		memset(p, 0, bytes ? bytes : 1);
	return p;
}

void *qubo__realloc_array(const qubo_allocator *a, void *ptr, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return qubo__realloc(a, ptr, count * size);
}

int qubo__grow(const qubo_allocator *a, void **ptr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return QUBO_OK;
	ncap = *cap < 16 ? 16 : *cap;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	p = qubo__realloc_array(a, *ptr, ncap, elem);
	if (!p)
		return qubo__nomem("a growing array");
	*ptr = p;
	*cap = ncap;
	return QUBO_OK;
}
