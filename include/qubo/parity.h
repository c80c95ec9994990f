/**
 * @file qubo/parity.h
 * @brief Parity classes: union-find with parity bits.
 *
 * Elements 0 … n−1 are boolean unknowns related by "equal" and "differ"
 * relations and fixed values. A system is consistent iff every cycle of
 * relations has even parity and no class is fixed both ways; the structure
 * decides this incrementally. A relation or fix that contradicts what is
 * already known returns #QUBO_ERR_INFEASIBLE and is not recorded, so the
 * structure stays consistent and usable.
 *
 * After the relations are in, qubo_parity_literals() maps every element to a
 * literal over one fresh variable per free class (or to a constant for a
 * fixed class): that is the reduced model's variable map.
 */
#ifndef QUBO_PARITY_H
#define QUBO_PARITY_H

#include "alloc.h"
#include "common.h"
#include "literal.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** An opaque union-find with parity bits. */
typedef struct qubo_parity qubo_parity;

/**
 * Creates a structure of @p num_elements singleton classes, all free.
 * @param[out] out receives the new object.
 * @param[in] num_elements n, below #QUBO_MAX_VARIABLES.
 * @param[in] allocator optional allocator, copied; NULL for the C library's.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_TOO_LARGE,
 *         #QUBO_ERR_INVALID_ARG or #QUBO_ERR_UNSUPPORTED_VERSION (a malformed
 *         allocator), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_new(qubo_parity **out, size_t num_elements,
			     const qubo_allocator *allocator);

/**
 * Frees the structure. NULL is a no-op.
 * @param[in] parity the structure.
 * @since 0.1
 */
QUBO_API void qubo_parity_free(qubo_parity *parity);

/**
 * Records x_a = x_b (differ = 0) or x_a ≠ x_b (differ != 0).
 * @param[in,out] parity the structure.
 * @param[in] a an element.
 * @param[in] b an element.
 * @param[in] differ zero for equal, nonzero for differ.
 * @return #QUBO_OK, #QUBO_ERR_INFEASIBLE (contradiction, not recorded),
 *         #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_relate(qubo_parity *parity, uint32_t a, uint32_t b, int differ);

/**
 * Records x_a = value, fixing a's whole class.
 * @param[in,out] parity the structure.
 * @param[in] a an element.
 * @param[in] value 0 or 1.
 * @return #QUBO_OK, #QUBO_ERR_INFEASIBLE (contradiction, not recorded),
 *         #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_fix(qubo_parity *parity, uint32_t a, int value);

/**
 * Finds a's class: x_a = x_rep XOR flip. The representative is the
 * smallest element of the class, so it does not depend on the order of the
 * relations. Compresses paths (hence the non-const structure).
 * @param[in,out] parity the structure.
 * @param[in] a an element.
 * @param[out] rep_out receives the representative.
 * @param[out] flip_out receives 0 or 1.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_find(qubo_parity *parity, uint32_t a, uint32_t *rep_out, int *flip_out);

/**
 * The value of a, if its class is fixed.
 * @param[in,out] parity the structure.
 * @param[in] a an element.
 * @param[out] value_out receives 0 or 1, or −1 when the class is free.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_value(qubo_parity *parity, uint32_t a, int *value_out);

/**
 * Counts the classes.
 * @param[in,out] parity the structure.
 * @param[out] classes_out optional; receives the number of classes.
 * @param[out] free_out optional; receives the number of classes not fixed.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_count(qubo_parity *parity, size_t *classes_out, size_t *free_out);

/**
 * Maps every element to a literal: free classes are numbered 0, 1, … in
 * order of their smallest element, element a gets the literal of its class's
 * variable (complemented when a differs from the representative), and
 * elements of fixed classes get #QUBO_LIT_FALSE or #QUBO_LIT_TRUE.
 * @param[in,out] parity the structure.
 * @param[out] lits receives n literals.
 * @param[in] capacity length of @p lits; at least n.
 * @param[out] num_vars_out optional; receives the number of free classes.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_parity_literals(qubo_parity *parity, qubo_lit *lits, size_t capacity,
				  size_t *num_vars_out);

QUBO_END_DECLS

#endif /* QUBO_PARITY_H */
