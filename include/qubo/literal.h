/**
 * @file qubo/literal.h
 * @brief Literals: a variable, its complement, or a constant, in 32 bits.
 *
 * A literal is the value 2·v for variable v, 2·v + 1 for its complement
 * 1 − x_v, and the two top values #QUBO_LIT_FALSE and #QUBO_LIT_TRUE for the
 * constants. Complementing is always an XOR with 1, constants included.
 * Every penalty takes literals, so fixed cells, parity classes and
 * complements need no special cases. Variable indices are below
 * #QUBO_MAX_VARIABLES.
 */
#ifndef QUBO_LITERAL_H
#define QUBO_LITERAL_H

#include "common.h"

QUBO_BEGIN_DECLS

/** A literal; see the file description for the encoding. */
typedef uint32_t qubo_lit;

/** The constant 0. */
#define QUBO_LIT_FALSE QUBO_CAST(qubo_lit, 0xFFFFFFFEu)
/** The constant 1. */
#define QUBO_LIT_TRUE QUBO_CAST(qubo_lit, 0xFFFFFFFFu)
/** Variable indices are strictly below this bound. */
#define QUBO_MAX_VARIABLES 0x7FFFFFFFu
/** The positive literal of variable @p v. */
#define QUBO_LIT(v) QUBO_CAST(qubo_lit, QUBO_CAST(uint32_t, v) << 1)
/** The complemented literal of variable @p v (1 − x_v). */
#define QUBO_LIT_NEG(v) QUBO_CAST(qubo_lit, (QUBO_CAST(uint32_t, v) << 1) | 1u)
/** The complement of literal @p l (constants swap). */
#define QUBO_LIT_NOT(l) QUBO_CAST(qubo_lit, (l) ^ 1u)
/** Nonzero when @p l is a constant. */
#define QUBO_LIT_IS_CONST(l) ((l) >= QUBO_LIT_FALSE)
/** The variable of a non-constant literal. */
#define QUBO_LIT_VAR(l) (QUBO_CAST(uint32_t, l) >> 1)
/** Nonzero when a non-constant literal is complemented. */
#define QUBO_LIT_IS_NEG(l) ((l) & 1u)

/**
 * Function form of #QUBO_LIT and #QUBO_LIT_NEG, for bindings without macros.
 * @param[in] var a variable index below #QUBO_MAX_VARIABLES.
 * @param[in] negated nonzero for the complement.
 * @return the literal, or #QUBO_LIT_FALSE when @p var is out of range.
 * @since 0.1
 */
QUBO_API qubo_lit qubo_lit_make(uint32_t var, int negated);

/**
 * The constant literal of a truth value.
 * @param[in] value zero for #QUBO_LIT_FALSE, nonzero for #QUBO_LIT_TRUE.
 * @return the constant literal.
 * @since 0.1
 */
QUBO_API qubo_lit qubo_lit_const(int value);

QUBO_END_DECLS

#endif /* QUBO_LITERAL_H */
