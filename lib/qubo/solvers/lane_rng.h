/*
 * Random numbers in 8 lanes (sa.c, pt.c): 8 xoshiro128** generators kept as
 * a structure of arrays, so that one AVX2 step gives the 8 outputs that one
 * portable step gives, and seeded through splitmix64 from (seed, stream)
 * only, so that results do not depend on threads.
 */
#ifndef QUBO_SOLVERS_LANE_RNG_H
#define QUBO_SOLVERS_LANE_RNG_H

#include <stdint.h>

#define QUBO__LANES 8

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
	!defined(QUBO_SA_NO_SIMD)
#define QUBO__LANE_AVX2 1
#include <immintrin.h>
#define QUBO__TARGET_AVX2 __attribute__((target("avx2,fma")))
#else
#define QUBO__LANE_AVX2 0
#endif

typedef struct qubo__lane_rng {
	uint32_t s[4][QUBO__LANES];
} qubo__lane_rng;

static inline uint64_t qubo__lane_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* The lanes of stream number `stream` under seed. */
static inline void qubo__lane_seed(qubo__lane_rng *g, uint64_t seed, uint64_t stream)
{
	uint64_t st = seed, base = qubo__lane_splitmix(&st);
	int l, k;

	st = base + (stream + 1) * 0xD1B54A32D192ED03ull;
	base = qubo__lane_splitmix(&st);
	st = base;
	for (l = 0; l < QUBO__LANES; l++) {
		for (k = 0; k < 4; k += 2) {
			uint64_t v = qubo__lane_splitmix(&st);
			g->s[k][l] = (uint32_t)v;
			g->s[k + 1][l] = (uint32_t)(v >> 32);
		}
		if (!(g->s[0][l] | g->s[1][l] | g->s[2][l] | g->s[3][l]))
			g->s[0][l] = 1; /* the all-zero state is a fixed point */
	}
}

static inline uint32_t qubo__lane_rotl(uint32_t v, int k)
{
	return (v << k) | (v >> (32 - k));
}

/* The next output of every lane (portable). */
static inline void qubo__lane_block(qubo__lane_rng *g, uint32_t *out)
{
	int l;

	for (l = 0; l < QUBO__LANES; l++) {
		uint32_t s0 = g->s[0][l], s1 = g->s[1][l], s2 = g->s[2][l], s3 = g->s[3][l];
		uint32_t t = s1 << 9;
		out[l] = qubo__lane_rotl(s1 * 5, 7) * 9;
		s2 ^= s0;
		s3 ^= s1;
		s1 ^= s2;
		s0 ^= s3;
		s2 ^= t;
		s3 = qubo__lane_rotl(s3, 11);
		g->s[0][l] = s0;
		g->s[1][l] = s1;
		g->s[2][l] = s2;
		g->s[3][l] = s3;
	}
}

/* 1 when the CPU runs the QUBO__TARGET_AVX2 code (AVX2 and FMA). */
static inline int qubo__lane_have_avx2(void)
{
#if QUBO__LANE_AVX2
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
	return 0;
#endif
}

#if QUBO__LANE_AVX2
/* The same step on the lanes loaded as s[k] = word k of the 8 lanes. */
QUBO__TARGET_AVX2 static inline __attribute__((always_inline)) __m256i
qubo__lane_avx2(__m256i *s)
{
	__m256i s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
	__m256i m5 = _mm256_add_epi32(_mm256_slli_epi32(s1, 2), s1);
	__m256i rot = _mm256_or_si256(_mm256_slli_epi32(m5, 7), _mm256_srli_epi32(m5, 25));
	__m256i out = _mm256_add_epi32(_mm256_slli_epi32(rot, 3), rot);
	__m256i t = _mm256_slli_epi32(s1, 9);

	s2 = _mm256_xor_si256(s2, s0);
	s3 = _mm256_xor_si256(s3, s1);
	s1 = _mm256_xor_si256(s1, s2);
	s0 = _mm256_xor_si256(s0, s3);
	s2 = _mm256_xor_si256(s2, t);
	s3 = _mm256_or_si256(_mm256_slli_epi32(s3, 11), _mm256_srli_epi32(s3, 21));
	s[0] = s0;
	s[1] = s1;
	s[2] = s2;
	s[3] = s3;
	return out;
}
#endif

#endif /* QUBO_SOLVERS_LANE_RNG_H */
