/*
 * A custom solver backend, written against the public interface only
 * (<qubo.h>, which includes qubo/backend.h): random search. Each read draws
 * num_tries random states and keeps the best one.
 *
 * It shows what a third-party annealer or QAOA backend does:
 *  - reads the model through exporters into its own arrays,
 *  - reads its options (common keys and its own "num_tries") through the
 *    options handle, and checks its own keys as they are set,
 *  - hands samples to the host, which computes energies, sorts and merges,
 *  - reports progress and stops when asked (progress callback, time limit),
 *  - owns its state and frees it in the destroy callback.
 *
 * The program solves a small random model with it, checks the result against
 * the built-in exhaustive solver and prints the best samples:
 *   example_custom_backend [num_variables]
 * It exits 0 when random search found the minimum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo.h>

/* The backend's own state: defaults that a caller may change per solver. */
typedef struct random_search {
	int64_t default_tries;
} random_search;

/* The model in the backend's own layout. */
typedef struct dense_model {
	size_t n, count;
	double *h, *w, offset;
	uint32_t *rows, *cols;
} dense_model;

static uint64_t rs_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rs_energy(const dense_model *d, const uint8_t *x)
{
	double e = d->offset;
	size_t i;

	for (i = 0; i < d->n; i++)
		e += d->h[i] * x[i];
	for (i = 0; i < d->count; i++)
		e += d->w[i] * x[d->rows[i]] * x[d->cols[i]];
	return e;
}

static void rs_free_model(dense_model *d)
{
	free(d->h);
	free(d->w);
	free(d->rows);
	free(d->cols);
}

static int rs_load_model(qubo_backend_ctx *ctx, const qubo_model *m, dense_model *d)
{
	memset(d, 0, sizeof *d);
	d->n = qubo_model_num_variables(m);
	d->offset = qubo_model_offset(m);
	/* capacity 0 asks for the coupler count */
	if (qubo_model_export_coo(m, NULL, NULL, NULL, 0, &d->count) == QUBO_ERR_MISUSE)
		return qubo_backend_set_error(ctx, QUBO_ERR_MISUSE, "the model is not compiled");
	d->h = malloc((d->n ? d->n : 1) * sizeof *d->h);
	d->w = malloc((d->count ? d->count : 1) * sizeof *d->w);
	d->rows = malloc((d->count ? d->count : 1) * sizeof *d->rows);
	d->cols = malloc((d->count ? d->count : 1) * sizeof *d->cols);
	if (!d->h || !d->w || !d->rows || !d->cols ||
	    qubo_model_export_linear(m, d->h, d->n) != QUBO_OK ||
	    qubo_model_export_coo(m, d->rows, d->cols, d->w, d->count, &d->count) != QUBO_OK) {
		rs_free_model(d);
		return qubo_backend_set_error(ctx, QUBO_ERR_NOMEM, "cannot copy the model");
	}
	return QUBO_OK;
}

/* REQUIRED slot: sample. */
static int rs_sample(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		     void *user_data)
{
	random_search *rs = user_data;
	int64_t reads, tries, seed, r, t;
	dense_model d;
	uint8_t *x, *best;
	int rc, stop = QUBO_OK;

	if (qubo_options_get_int(o, QUBO_PARAM_NUM_READS, 10, &reads) ||
	    qubo_options_get_int(o, QUBO_PARAM_SEED, 0, &seed) ||
	    qubo_options_get_int(o, "num_tries", rs->default_tries, &tries))
		return qubo_backend_set_error(ctx, qubo_error_code(), qubo_error_message());
	rc = rs_load_model(ctx, m, &d);
	if (rc)
		return rc;
	x = malloc(d.n ? d.n : 1);
	best = malloc(d.n ? d.n : 1);
	if (!x || !best) {
		free(x);
		free(best);
		rs_free_model(&d);
		return qubo_backend_set_error(ctx, QUBO_ERR_NOMEM, "no memory for states");
	}
	for (r = 0; r < reads && stop == QUBO_OK; r++) {
		/* one stream per read: results do not depend on timing */
		uint64_t state = (uint64_t)seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(r + 1));
		double best_e = 0;
		size_t i;
		for (t = 0; t < tries; t++) {
			double e;
			for (i = 0; i < d.n; i++)
				x[i] = (uint8_t)(rs_next(&state) & 1);
			e = rs_energy(&d, x);
			if (!t || e < best_e) {
				best_e = e;
				memcpy(best, x, d.n);
			}
			if (t % 256 == 255 && (stop = qubo_backend_should_stop(ctx)) != QUBO_OK)
				break;
		}
		rc = qubo_backend_add_samples(ctx, best, 1, d.n, NULL);
		if (rc)
			break;
		if (stop == QUBO_OK)
			stop = qubo_backend_progress(ctx, (uint64_t)r + 1, (uint64_t)reads, best_e);
	}
	free(x);
	free(best);
	rs_free_model(&d);
	if (rc)
		return qubo_backend_set_error(ctx, rc, qubo_error_message());
	return stop > 0 ? stop : QUBO_OK; /* QUBO_CANCELLED or QUBO_TIME_LIMIT */
}

/* OPTIONAL slot: check options as they are set. */
static int rs_set_param(qubo_backend_ctx *ctx, const char *key, const qubo_options *o,
			void *user_data)
{
	int64_t v;

	(void)user_data;
	if (!strcmp(key, "num_tries")) {
		if (qubo_options_get_int(o, key, 1, &v))
			return qubo_backend_set_error(ctx, QUBO_ERR_INVALID_ARG,
						      "num_tries takes an integer");
		if (v < 1)
			return qubo_backend_set_error(ctx, QUBO_ERR_OUT_OF_RANGE,
						      "num_tries must be at least 1");
		return 0;
	}
	if (!strcmp(key, QUBO_PARAM_NUM_READS) || !strcmp(key, QUBO_PARAM_SEED) ||
	    !strcmp(key, QUBO_PARAM_TIME_LIMIT))
		return 0; /* common keys: the host has checked them */
	return qubo_backend_set_error(ctx, QUBO_ERR_NOT_SUPPORTED,
				      "unknown option; the options are num_reads, seed, "
				      "time_limit and num_tries");
}

/* OPTIONAL slot: describe. */
static int rs_describe(char *buffer, size_t capacity, void *user_data)
{
	random_search *rs = user_data;

	snprintf(buffer, capacity, "random: best of num_tries random states per read "
		 "(num_tries default %lld)", (long long)rs->default_tries);
	return 0;
}

static void rs_destroy(void *user_data)
{
	free(user_data);
}

/* Creates a solver around the random-search backend. */
static int random_search_new(qubo_solver **out, int64_t default_tries)
{
	qubo_backend_vtable vt;
	random_search *rs = malloc(sizeof *rs);
	int rc;

	if (!rs)
		return QUBO_ERR_NOMEM;
	rs->default_tries = default_tries;
	memset(&vt, 0, sizeof vt); /* slots left out stay NULL */
	vt.struct_size = sizeof vt;
	vt.name = "random";
	vt.sample = rs_sample;
	vt.set_param = rs_set_param;
	vt.describe = rs_describe;
	rc = qubo_solver_new_backend(out, &vt, rs, rs_destroy, NULL);
	if (rc)
		free(rs); /* on failure the backend's data stays ours */
	return rc;
}

#ifndef CUSTOM_BACKEND_NO_MAIN
static int fail(const char *what)
{
	fprintf(stderr, "example_custom_backend: %s: %s\n", what, qubo_error_message());
	return 1;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 12, i, j;
	qubo_model *m = NULL;
	qubo_solver *random = NULL, *exact = NULL;
	qubo_sampleset *found = NULL, *truth = NULL;
	uint64_t seed = 7;
	double e_found = 0, e_min = 0;
	char text[256];

	if (n < 1 || n > 20)
		n = 12;
	if (qubo_model_new(&m, n, NULL))
		return fail("model");
	for (i = 0; i < n; i++) {
		qubo_model_add_linear(m, (uint32_t)i, (double)(rs_next(&seed) % 7) - 3.0);
		for (j = i + 1; j < n; j++)
			if (rs_next(&seed) % 3 == 0)
				qubo_model_add_quadratic(m, (uint32_t)i, (uint32_t)j,
							 (double)(rs_next(&seed) % 9) - 4.0);
	}
	if (qubo_model_compile(m))
		return fail("compile");

	if (random_search_new(&random, 1000))
		return fail("random_search_new");
	if (qubo_solver_set_int(random, QUBO_PARAM_NUM_READS, 20) ||
	    qubo_solver_set_int(random, QUBO_PARAM_SEED, 1) ||
	    qubo_solver_set_int(random, "num_tries", 5000))
		return fail("options");
	if (qubo_solver_describe(random, text, sizeof text, NULL) == QUBO_OK)
		printf("%s\n", text);
	if (qubo_solver_sample(&found, random, m) < 0)
		return fail("random search");
	if (qubo_solver_new(&exact, "exhaustive", NULL) || qubo_solver_sample(&truth, exact, m))
		return fail("exhaustive");
	qubo_sampleset_lowest(found, NULL, 0, &e_found);
	qubo_sampleset_lowest(truth, NULL, 0, &e_min);

	printf("random search: %zu distinct samples; exhaustive minimum %g\n",
	       qubo_sampleset_size(found), e_min);
	for (i = 0; i < qubo_sampleset_size(found) && i < 5; i++) {
		const uint8_t *x = qubo_sampleset_sample_data(found, i);
		double e;
		uint64_t count;
		qubo_sampleset_get(found, i, NULL, 0, &e, &count);
		printf("%g %llu ", e, (unsigned long long)count);
		for (j = 0; j < n; j++)
			putchar('0' + x[j]);
		putchar('\n');
	}
	qubo_sampleset_free(found);
	qubo_sampleset_free(truth);
	qubo_solver_free(random);
	qubo_solver_free(exact);
	qubo_model_free(m);
	return e_found == e_min ? 0 : 1;
}
#endif
