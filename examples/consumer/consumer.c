/*
 * A pkg-config consumer of libqubo: builds a tiny model with the public API,
 * compiles it and prints its energies. Build it against an installed libqubo:
 *
 *	cc -o consumer consumer.c $(pkg-config --cflags --libs libqubo)
 *
 * The model is "exactly one of x0, x1, x2", written out by hand as
 * (x0 + x1 + x2 - 1)^2 = 1 - x0 - x1 - x2 + 2 x0 x1 + 2 x0 x2 + 2 x1 x2,
 * so its three ground states are the one-hot samples, with energy 0.
 * The program exits with status 1 if anything disagrees with that.
 */
#include <stdio.h>

#include <qubo.h>

#define N 3

static int fail(const char *what, int status)
{
	fprintf(stderr, "consumer: %s: %s (%s)\n", what, qubo_status_name(status),
		qubo_error_message());
	return 1;
}

int main(void)
{
	qubo_model *model = NULL;
	uint8_t sample[N];
	double energy, best = 0.0;
	unsigned ground = 0, bits;
	uint32_t i, j;
	int rc;

	if (qubo_version_number() != QUBO_VERSION_NUMBER) {
		fprintf(stderr, "consumer: headers %s, library %s\n", QUBO_VERSION_STRING,
			qubo_version_string());
		return 1;
	}
	rc = qubo_model_new(&model, N, NULL);
	if (rc != QUBO_OK)
		return fail("qubo_model_new", rc);
	rc = qubo_model_add_offset(model, 1.0);
	for (i = 0; i < N && rc == QUBO_OK; i++)
		rc = qubo_model_add_linear(model, i, -1.0);
	for (i = 0; i < N && rc == QUBO_OK; i++)
		for (j = i + 1; j < N && rc == QUBO_OK; j++)
			rc = qubo_model_add_quadratic(model, i, j, 2.0);
	if (rc == QUBO_OK)
		rc = qubo_model_compile(model);
	if (rc != QUBO_OK) {
		qubo_model_free(model);
		return fail("building the model", rc);
	}

	for (bits = 0; bits < (1u << N); bits++) {
		for (i = 0; i < N; i++)
			sample[i] = (uint8_t)((bits >> i) & 1u);
		rc = qubo_model_energy(model, sample, N, &energy);
		if (rc != QUBO_OK) {
			qubo_model_free(model);
			return fail("qubo_model_energy", rc);
		}
		printf("E(%u%u%u) = %g\n", (unsigned)sample[0], (unsigned)sample[1],
		       (unsigned)sample[2], energy);
		if (bits == 0 || energy < best) {
			best = energy;
			ground = 0;
		}
		if (energy == best)
			ground++;
	}
	qubo_model_free(model);

	printf("libqubo %s: %u ground states with energy %g\n", qubo_version_string(), ground,
	       best);
	if (ground != N || best != 0.0) {
		fprintf(stderr, "consumer: expected %d ground states with energy 0\n", N);
		return 1;
	}
	return 0;
}
