/* Energy, flip deltas, batches and the Ising form. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "util.h"

#define N 9

static qubo_model *random_model(tu_rng *r, uint32_t n, int integer)
{
	qubo_model *m;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, integer ? 3.0 : 0.3), QUBO_OK);
	for (i = 0; i < n; i++) {
		double w = integer ? (double)tu_range(r, -5, 5) : tu_unit(r) - 0.5;
		cr_assert_eq(qubo_model_add_linear(m, i, w), QUBO_OK);
		for (j = i + 1; j < n; j++)
			if (tu_below(r, 2))
				cr_assert_eq(qubo_model_add_quadratic(m, i, j,
						integer ? (double)tu_range(r, -5, 5) : tu_unit(r) - 0.5),
					     QUBO_OK);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static void set_bits(uint8_t *x, uint32_t n, uint64_t bits)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		x[i] = (uint8_t)((bits >> i) & 1u);
}

Test(energy, delta_equals_energy_difference)
{
	tu_rng r = { 5 };
	int round;

	for (round = 0; round < 20; round++) {
		qubo_model *m = random_model(&r, N, 1);
		uint8_t x[N];
		uint64_t bits;
		uint32_t v;

		for (bits = 0; bits < (1u << N); bits++) {
			double e0, e1, d;
			set_bits(x, N, bits);
			cr_assert_eq(qubo_model_energy(m, x, N, &e0), QUBO_OK);
			for (v = 0; v < N; v++) {
				cr_assert_eq(qubo_model_delta(m, x, N, v, &d), QUBO_OK);
				x[v] ^= 1;
				cr_assert_eq(qubo_model_energy(m, x, N, &e1), QUBO_OK);
				x[v] ^= 1;
				cr_assert_eq(e1 - e0, d);
			}
		}
		qubo_model_free(m);
	}
}

Test(energy, batch_equals_single)
{
	tu_rng r = { 6 };
	qubo_model *m = random_model(&r, N, 0);
	uint8_t xs[(1u << N) * N];
	double e[1u << N], one;
	uint64_t bits;

	for (bits = 0; bits < (1u << N); bits++)
		set_bits(xs + bits * N, N, bits);
	cr_assert_eq(qubo_model_energy_batch(m, xs, 1u << N, N, e), QUBO_OK);
	for (bits = 0; bits < (1u << N); bits++) {
		cr_assert_eq(qubo_model_energy(m, xs + bits * N, N, &one), QUBO_OK);
		cr_assert_eq(memcmp(&one, &e[bits], sizeof one), 0);
	}
	xs[3 * N + 2] = 2;
	cr_assert_eq(qubo_model_energy_batch(m, xs, 1u << N, N, e), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "sample 3"), "%s", qubo_error_message());
	cr_assert_eq(qubo_model_energy(m, xs, N - 1, &one), QUBO_ERR_INVALID_ARG);
	qubo_model_free(m);
}

/* A model of no variables takes NULL samples of length 0: each energy is
 * the offset (clang's UBSan reported the sample address formed from NULL). */
Test(energy, empty_model_takes_null_samples)
{
	qubo_model *m;
	double e[3] = { 0, 0, 0 };

	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, 2.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_energy(m, NULL, 0, e), QUBO_OK);
	cr_assert_eq(e[0], 2.5);
	cr_assert_eq(qubo_model_energy_batch(m, NULL, 3, 0, e), QUBO_OK);
	cr_assert(e[0] == 2.5 && e[1] == 2.5 && e[2] == 2.5);
	qubo_model_free(m);
}

/* The Ising form gives the same energy for s = 2x − 1, and converting back
 * gives the same model (exactly, for integer weights). */
Test(energy, ising_round_trip)
{
	tu_rng r = { 8 };
	int round;

	for (round = 0; round < 20; round++) {
		qubo_model *m = random_model(&r, N, 1), *back;
		double h[N], J[N * N], off, e, ei;
		uint32_t ri[N * N], ci[N * N];
		size_t cnt, k, c2;
		uint8_t x[N];
		uint64_t bits;
		double h2[N], J2[N * N];
		uint32_t ri2[N * N], ci2[N * N];

		cr_assert_eq(qubo_model_to_ising(m, h, N, ri, ci, J, N * N, &cnt, &off), QUBO_OK);
		for (bits = 0; bits < (1u << N); bits++) {
			set_bits(x, N, bits);
			cr_assert_eq(qubo_model_energy(m, x, N, &e), QUBO_OK);
			ei = off;
			for (k = 0; k < N; k++)
				ei += h[k] * (2.0 * x[k] - 1.0);
			for (k = 0; k < cnt; k++)
				ei += J[k] * (2.0 * x[ri[k]] - 1.0) * (2.0 * x[ci[k]] - 1.0);
			cr_assert_eq(e, ei, "bits %llx", (unsigned long long)bits);
		}
		cr_assert_eq(qubo_model_from_ising(&back, N, h, cnt, ri, ci, J, off, NULL), QUBO_OK);
		cr_assert_eq(qubo_model_offset(back), qubo_model_offset(m));
		cr_assert_eq(qubo_model_export_linear(back, h2, N), QUBO_OK);
		cr_assert_eq(qubo_model_export_linear(m, h, N), QUBO_OK);
		cr_assert_eq(memcmp(h, h2, sizeof h), 0);
		cr_assert_eq(qubo_model_export_coo(back, ri2, ci2, J2, N * N, &c2), QUBO_OK);
		cr_assert_eq(qubo_model_export_coo(m, ri, ci, J, N * N, &cnt), QUBO_OK);
		cr_assert_eq(c2, cnt);
		cr_assert_eq(memcmp(J, J2, cnt * sizeof *J), 0);
		cr_assert_eq(memcmp(ri, ri2, cnt * sizeof *ri), 0);
		cr_assert_eq(memcmp(ci, ci2, cnt * sizeof *ci), 0);
		qubo_model_free(back);
		qubo_model_free(m);
	}
}

Test(energy, ising_errors)
{
	qubo_model *m;
	uint32_t i = 1, j = 1;
	double w = 1.0, h[2] = { 0.0, 0.0 }, off;
	size_t cnt;

	cr_assert_eq(qubo_model_from_ising(&m, 2, h, 1, &i, &j, &w, 0.0, NULL),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_null(m);
	h[1] = (double)NAN;
	cr_assert_eq(qubo_model_from_ising(&m, 2, h, 0, NULL, NULL, NULL, 0.0, NULL),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_model_new(&m, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_model_to_ising(m, h, 1, &i, &j, &w, 1, &cnt, &off),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(qubo_model_to_ising(m, h, 2, NULL, NULL, NULL, 0, &cnt, &off),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(cnt, 1);
	qubo_model_free(m);
}
