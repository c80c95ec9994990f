/* Code shared by the built-in adapters (sa, exhaustive, tabu, descent): they
 * are ordinary backends that read their options through the public readers
 * and hand samples to the host, with the run control filled from the common
 * keys. */
#include <string.h>

#include "runner.h"
#include "solver_impl.h"

#define DEFAULT_NUM_READS 10

int64_t qubo__builtin_int(const qubo_options *o, const char *key, int64_t fallback)
{
	int64_t v = fallback;

	(void)qubo_options_get_int(o, key, fallback, &v);
	return v;
}

double qubo__builtin_double(const qubo_options *o, const char *key, double fallback)
{
	double v = fallback;

	(void)qubo_options_get_double(o, key, fallback, &v);
	return v;
}

static int report_progress(size_t done, size_t total, double best, void *user_data)
{
	return qubo_backend_progress(user_data, done, total, best) != QUBO_OK;
}

int qubo__builtin_run(qubo_backend_ctx *ctx, const qubo_options *o, qubo__run *run)
{
	memset(run, 0, sizeof *run);
	run->num_reads = (size_t)qubo__builtin_int(o, QUBO_PARAM_NUM_READS, DEFAULT_NUM_READS);
	run->seed = (uint64_t)qubo__builtin_int(o, QUBO_PARAM_SEED, 0);
	run->first_read = (uint64_t)qubo__builtin_int(o, QUBO_PARAM_FIRST_READ, 0);
	/* 0 means one per online CPU; kernels get the resolved count */
	run->threads =
		(int)qubo__pool_workers_for((int)qubo__builtin_int(o, QUBO_PARAM_THREADS, 0));
	run->time_limit = qubo__builtin_double(o, QUBO_PARAM_TIME_LIMIT, 0.0);
	run->has_target = qubo_options_type(o, QUBO_PARAM_TARGET_ENERGY) != QUBO_TYPE_NONE;
	run->target = qubo__builtin_double(o, QUBO_PARAM_TARGET_ENERGY, 0.0);
	/* The hook forwards progress to the caller's callback and enforces
	 * the host's deadline; with neither, kernels need not call it (and may
	 * then run a single worker on this thread). */
	run->progress = ctx->solver->progress || ctx->deadline > 0 ? report_progress : NULL;
	run->user_data = ctx;
	run->alloc = &ctx->solver->alloc;
	return QUBO_OK;
}

int qubo__builtin_betas(qubo_backend_ctx *ctx, const qubo_options *o, const char *order,
			double *beta_hot, double *beta_cold)
{
	int hot_set = qubo_options_type(o, QUBO_PARAM_BETA_HOT) != QUBO_TYPE_NONE;
	int cold_set = qubo_options_type(o, QUBO_PARAM_BETA_COLD) != QUBO_TYPE_NONE;

	*beta_hot = *beta_cold = 0.0;
	if (hot_set != cold_set)
		return qubo_backend_set_error(ctx, QUBO_ERR_INVALID_ARG,
					      hot_set ? "beta_hot is set but beta_cold is not; set "
							"both or neither"
						      : "beta_cold is set but beta_hot is not; set "
							"both or neither");
	if (!hot_set)
		return QUBO_OK;
	*beta_hot = qubo__builtin_double(o, QUBO_PARAM_BETA_HOT, 0.0);
	*beta_cold = qubo__builtin_double(o, QUBO_PARAM_BETA_COLD, 0.0);
	if (*beta_hot > *beta_cold) {
		qubo__error(QUBO_ERR_OUT_OF_RANGE, "beta_hot (%.17g) exceeds beta_cold (%.17g): %s",
			    *beta_hot, *beta_cold, order);
		return qubo__builtin_fail(ctx, QUBO_ERR_OUT_OF_RANGE);
	}
	return QUBO_OK;
}

int qubo__builtin_fail(qubo_backend_ctx *ctx, int code)
{
	int rc = qubo_backend_set_error(ctx, code, qubo_error_message());

	ctx->err_limit = qubo_error_limit();
	ctx->err_limit_value = qubo_error_limit_value();
	return rc;
}

int qubo__builtin_status(const qubo_backend_ctx *ctx, int stop)
{
	switch (stop) {
	case QUBO__STOP_TIME:
		return QUBO_TIME_LIMIT;
	case QUBO__STOP_CANCEL:
		/* the progress hook said stop: the host knows whether the user
		 * asked or the host's clock ran out */
		return ctx->stop ? ctx->stop : QUBO_CANCELLED;
	}
	return QUBO_OK;
}

int qubo__builtin_emit(qubo_backend_ctx *ctx, const uint8_t *rows, const uint64_t *occ,
		       size_t num, size_t n, uint64_t flips, uint64_t ground_states)
{
	qubo_sample_info info;
	int rc;

	memset(&info, 0, sizeof info);
	info.struct_size = sizeof info;
	info.flip_attempts = flips;
	info.num_ground_states = ground_states;
	rc = qubo_backend_report(ctx, &info);
	if (!rc)
		rc = qubo_backend_add_samples(ctx, rows, num, n, occ);
	return rc ? qubo__builtin_fail(ctx, rc) : QUBO_OK;
}

int qubo__builtin_starts(const qubo_allocator *a, const qubo_sampleset *initial,
			 const qubo_model *m, uint8_t **rows_out, uint64_t **occ_out,
			 size_t *num_out)
{
	size_t num = qubo_sampleset_size(initial), n = m->n;
	uint8_t *rows = qubo__malloc_array(a, num, n ? n : 1);
	uint64_t *occ = qubo__malloc_array(a, num, sizeof *occ);
	int rc;

	if (!rows || !occ) {
		qubo__free(a, rows);
		qubo__free(a, occ);
		return qubo__nomem("the start states");
	}
	rc = qubo_sampleset_export(initial, rows, NULL, occ, num);
	if (rc) {
		qubo__free(a, rows);
		qubo__free(a, occ);
		return rc;
	}
	*rows_out = rows;
	*occ_out = occ;
	*num_out = num;
	return QUBO_OK;
}

int qubo__check_reads(size_t reads, size_t n, size_t extra)
{
	size_t per = (n ? n : 1) + extra;

	if (per > QUBO_MAX_SAMPLE_BYTES || reads > QUBO_MAX_SAMPLE_BYTES / per)
		return qubo__too_large(
			QUBO_LIMIT_SAMPLE_BYTES, QUBO_MAX_SAMPLE_BYTES,
			"%zu reads of %zu variables need more than the %zu bytes "
			"allowed for the samples of a run (QUBO_MAX_SAMPLE_BYTES); ask "
			"for at most %zu reads",
			reads, n, QUBO_MAX_SAMPLE_BYTES,
			per > QUBO_MAX_SAMPLE_BYTES ? 0 : QUBO_MAX_SAMPLE_BYTES / per);
	return QUBO_OK;
}

int qubo__builtin_sample(qubo_backend_ctx *ctx, const qubo_model *m, qubo__run *run,
			 const qubo_sampleset *initial, qubo__builtin_kernel kernel,
			 const void *params)
{
	const qubo_allocator *a = &ctx->solver->alloc;
	uint8_t *starts = NULL, *samples = NULL;
	uint64_t *occ = NULL;
	double *energies = NULL;
	qubo__result res;
	size_t n = m->n;
	int rc;

	if (initial && run->first_read) {
		qubo__error(QUBO_ERR_NOT_SUPPORTED, "first_read (%llu) selects a slice of random "
			    "starts; starting from given states takes none",
			    (unsigned long long)run->first_read);
		return qubo__builtin_fail(ctx, QUBO_ERR_NOT_SUPPORTED);
	}
	if (run->first_read + run->num_reads > QUBO__MAX_READS) {
		qubo__error(QUBO_ERR_OUT_OF_RANGE, "first_read (%llu) + num_reads (%zu) exceeds "
			    "%lu, the most reads of a run", (unsigned long long)run->first_read,
			    run->num_reads, (unsigned long)QUBO__MAX_READS);
		return qubo__builtin_fail(ctx, QUBO_ERR_OUT_OF_RANGE);
	}
	if (initial) {
		rc = qubo__builtin_starts(a, initial, m, &starts, &occ, &run->num_reads);
		if (rc)
			return qubo__builtin_fail(ctx, rc);
		/* an empty set: nothing to improve, an empty result */
		if (!run->num_reads)
			goto out;
	}
	/* the samples, their energies, a flag each (sa) */
	rc = qubo__check_reads(run->num_reads, n, sizeof *energies + 1);
	if (rc) {
		rc = qubo__builtin_fail(ctx, rc);
		goto out;
	}
	samples = qubo__malloc_array(a, run->num_reads, n ? n : 1);
	energies = qubo__malloc_array(a, run->num_reads, sizeof *energies);
	if (!samples || !energies) {
		rc = qubo__builtin_fail(ctx, qubo__nomem("the samples"));
		goto out;
	}
	rc = kernel(m, params, run, starts, samples, energies, &res);
	if (rc) {
		rc = qubo__builtin_fail(ctx, rc);
		goto out;
	}
	rc = qubo__builtin_emit(ctx, samples, occ, res.reads_done, n, res.flips, 0);
	if (!rc)
		rc = qubo__builtin_status(ctx, res.stop);
out:
	qubo__free(a, starts);
	qubo__free(a, occ);
	qubo__free(a, samples);
	qubo__free(a, energies);
	return rc;
}

int qubo__builtin_sample_slot(qubo_backend_ctx *ctx, const qubo_model *m,
			      const qubo_options *o, void *user_data)
{
	const qubo__builtin *b = user_data;

	return b->run(ctx, m, o, NULL);
}

int qubo__builtin_sample_from_slot(qubo_backend_ctx *ctx, const qubo_model *m,
				   const qubo_options *o, const qubo_sampleset *initial,
				   void *user_data)
{
	const qubo__builtin *b = user_data;

	return b->run(ctx, m, o, initial);
}

int qubo__builtin_set_param(qubo_backend_ctx *ctx, const char *key, const qubo_options *o,
			    void *user_data)
{
	const qubo__builtin *b = user_data;
	int rc = qubo__params_check(b->params, b->num_params, NULL, o, key);

	return rc ? qubo__builtin_fail(ctx, rc) : QUBO_OK;
}

int qubo__builtin_describe(char *buffer, size_t capacity, void *user_data)
{
	const qubo__builtin *b = user_data;

	qubo__params_describe(buffer, capacity, b->vtable->name, b->summary, b->params,
			      b->num_params);
	return QUBO_OK;
}
