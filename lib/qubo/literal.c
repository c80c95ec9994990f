/* Function forms of the literal macros, for bindings. */
#include "qubo/literal.h"

qubo_lit qubo_lit_make(uint32_t var, int negated)
{
	if (var >= QUBO_MAX_VARIABLES)
		return QUBO_LIT_FALSE;
	return negated ? QUBO_LIT_NEG(var) : QUBO_LIT(var);
}

qubo_lit qubo_lit_const(int value)
{
	return value ? QUBO_LIT_TRUE : QUBO_LIT_FALSE;
}
