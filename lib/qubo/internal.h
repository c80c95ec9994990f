/*
 * Private helpers shared by libqubo's sources. Allocation, error reporting,
 * argument and struct-size checks, file reading and the clock come from the
 * helper library linked into both shared libraries (lib/common); this adds
 * what only libqubo needs. Never installed.
 */
#ifndef QUBO_INTERNAL_H
#define QUBO_INTERNAL_H

#include "common_impl.h"

/* Nonzero when x is finite (not NaN, not ±inf), without <math.h> macros
 * that differ between compilers' fast-math modes. */
static inline int qubo__is_finite(double x)
{
	return x - x == 0.0; /* NaN for NaN and ±inf */
}

#endif /* QUBO_INTERNAL_H */
