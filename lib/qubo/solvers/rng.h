/*
 * The random streams of the built-in solvers (descent, tabu, exhaustive has
 * none). Read r of a run draws from a stream that depends only on the seed
 * and r, so results do not depend on the number of threads or on which
 * thread ran the read. The generator is splitmix64: one 64-bit word of
 * state, full period, and good enough for choosing starts and tie breaks.
 */
#ifndef QUBO_SOLVERS_RNG_H
#define QUBO_SOLVERS_RNG_H

#include <stdint.h>

typedef struct qubo__rng {
	uint64_t s;
} qubo__rng;

static inline uint64_t qubo__mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* The stream of read (or unit) r under seed. */
static inline void qubo__rng_stream(qubo__rng *g, uint64_t seed, uint64_t r)
{
	g->s = qubo__mix64(seed ^ qubo__mix64(r * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull));
}

static inline uint64_t qubo__rng_next(qubo__rng *g)
{
	g->s += 0x9E3779B97F4A7C15ull;
	return qubo__mix64(g->s);
}

/* Uniform in [0, bound) for bound >= 1 (multiply-shift; the bias is below
 * 2^-32 for the bounds used here). */
static inline uint32_t qubo__rng_below(qubo__rng *g, uint32_t bound)
{
	return (uint32_t)(((qubo__rng_next(g) >> 32) * (uint64_t)bound) >> 32);
}

#endif /* QUBO_SOLVERS_RNG_H */
