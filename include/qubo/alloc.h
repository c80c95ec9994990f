/**
 * @file qubo/alloc.h
 * @brief Replaceable allocators, set per object.
 *
 * Every constructor takes an optional allocator; NULL means the C library's
 * malloc, realloc and free. The allocator is copied into the object, and every
 * allocation made for that object (and for objects it creates, such as a model
 * read from a file) goes through it. A NULL return from @c malloc_fn or
 * @c realloc_fn is reported as #QUBO_ERR_NOMEM and leaves every object valid
 * and unchanged, which makes allocators useful for fault injection.
 */
#ifndef QUBO_ALLOC_H
#define QUBO_ALLOC_H

#include "common.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** A caller-supplied allocator. All three functions are required. */
typedef struct qubo_allocator {
	/** Set to sizeof(qubo_allocator). */
	size_t struct_size;
	/** Allocates @p size bytes (never called with 0); NULL on failure. */
	void *(*malloc_fn)(size_t size, void *user_data);
	/** Resizes @p ptr (never NULL) to @p size bytes; NULL on failure, @p ptr kept. */
	void *(*realloc_fn)(void *ptr, size_t size, void *user_data);
	/** Frees @p ptr (never NULL). */
	void (*free_fn)(void *ptr, void *user_data);
	/** Passed to each function as its last argument. */
	void *user_data;
} qubo_allocator;

/** Size of the first layout of qubo_allocator (through @c user_data), frozen:
 *  the smallest @c struct_size accepted (doc/abi.md, "Structs that carry
 *  their size"). @since 0.1 */
#define QUBO_ALLOCATOR_SIZE_V1 (offsetof(qubo_allocator, user_data) + sizeof(void *))

QUBO_END_DECLS

#endif /* QUBO_ALLOC_H */
