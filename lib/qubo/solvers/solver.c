/* The solver object and the backend host: table registration, option
 * setting with checks, sampling through the table, and the functions a
 * backend calls back. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runner.h"
#include "solver_impl.h"

#define DESCRIBE_SIZE 4096

static qubo__builtin *const builtins[] = {
	&qubo__sa_builtin,
	&qubo__exhaustive_builtin,
	&qubo__tabu_builtin,
	&qubo__descent_builtin,
	&qubo__qaoa_builtin,
	&qubo__pt_builtin,
};
#define NUM_BUILTINS (sizeof builtins / sizeof builtins[0])

/* The destroy callback of a backend's user data runs once, when the last
 * solver sharing it (the first one and its clones) is freed. */
struct qubo__backend_data {
	atomic_size_t solvers;
	qubo_destroy_cb destroy;
};

/* ---- creation ---- */

static int new_solver(qubo_solver **out, const qubo_backend_vtable *vt, size_t copy_size,
		      void *user_data, qubo_destroy_cb destroy, const qubo_allocator *allocator,
		      const char *fn)
{
	qubo_allocator a;
	qubo_solver *s;
	size_t len;
	int rc = qubo__alloc_init(&a, allocator, fn);

	if (rc)
		return rc;
	s = qubo__malloc(&a, sizeof *s);
	len = strlen(vt->name);
	if (s) {
		s->name = qubo__malloc(&a, len + 1);
		s->data = destroy ? qubo__malloc(&a, sizeof *s->data) : NULL;
	}
	if (!s || !s->name || (destroy && !s->data)) {
		if (s) {
			qubo__free(&a, s->name);
			qubo__free(&a, s->data);
		}
		qubo__free(&a, s);
		return qubo__nomem("a solver");
	}
	if (destroy) {
		atomic_init(&s->data->solvers, 1);
		s->data->destroy = destroy;
	}
	memcpy(s->name, vt->name, len + 1);
	s->alloc = a;
	memset(&s->vt, 0, sizeof s->vt);
	memcpy(&s->vt, vt, copy_size);
	s->vt.struct_size = sizeof s->vt;
	s->vt.name = s->name;
	s->user_data = user_data;
	qubo__options_init(&s->options, &s->alloc);
	s->progress = NULL;
	s->progress_data = NULL;
	*out = s;
	return QUBO_OK;
}

int qubo_solver_new_backend(qubo_solver **out, const qubo_backend_vtable *vtable,
			    void *user_data, qubo_destroy_cb destroy,
			    const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_solver_new_backend";
	size_t size, copy;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	if (!vtable)
		return qubo__error(QUBO_ERR_MISUSE, "%s: vtable is NULL", fn);
	/* The shared rule, except that a table may stop after its required
	 * slot (QUBO_BACKEND_VTABLE_SIZE_MIN, below V1: the slots it lacks are
	 * NULL), and a smaller one is misuse. */
	size = vtable->struct_size;
	if (size < QUBO_BACKEND_VTABLE_SIZE_MIN)
		return qubo__struct_too_small(QUBO_ERR_MISUSE, size, QUBO_BACKEND_VTABLE_SIZE_MIN,
					      "qubo_backend_vtable", fn);
	rc = qubo__check_struct(vtable, size, QUBO_BACKEND_VTABLE_SIZE_MIN, sizeof *vtable,
				"qubo_backend_vtable", fn);
	if (rc)
		return rc;
	copy = size < sizeof *vtable ? size : sizeof *vtable;
	if (!vtable->name || !vtable->name[0])
		return qubo__error(QUBO_ERR_MISUSE, "%s: qubo_backend_vtable.name is %s", fn,
				   vtable->name ? "empty" : "NULL");
	if (!vtable->sample)
		return qubo__error(QUBO_ERR_MISUSE, "%s: backend \"%s\" has no sample slot, "
				   "which is required", fn, vtable->name);
	return new_solver(out, vtable, copy, user_data, destroy, allocator, fn);
}

int qubo_solver_new(qubo_solver **out, const char *name, const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_solver_new";
	size_t i;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	if (!name)
		return qubo__error(QUBO_ERR_MISUSE, "%s: name is NULL", fn);
	for (i = 0; i < NUM_BUILTINS; i++)
		if (!strcmp(builtins[i]->vtable->name, name))
			return new_solver(out, builtins[i]->vtable, sizeof *builtins[i]->vtable,
					  builtins[i], NULL, allocator, fn);
	return qubo__error(QUBO_ERR_NOT_SUPPORTED, "%s: no built-in solver is named \"%.64s\"; "
			   "the built-in solvers are sa, exhaustive, tabu, descent, qaoa and pt", fn, name);
}

int qubo_solver_builtin_name(size_t index, const char **name_out)
{
	if (!name_out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_solver_builtin_name: name_out is NULL");
	if (index >= NUM_BUILTINS)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "qubo_solver_builtin_name: index %zu, "
				   "there are %zu built-in solvers", index, NUM_BUILTINS);
	*name_out = builtins[index]->vtable->name;
	return QUBO_OK;
}

int qubo_solver_clone(qubo_solver **out, const qubo_solver *solver)
{
	static const char fn[] = "qubo_solver_clone";
	qubo_solver *s = NULL;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	if (!solver)
		return qubo__error(QUBO_ERR_MISUSE, "%s: solver is NULL", fn);
	rc = new_solver(&s, &solver->vt, sizeof solver->vt, solver->user_data, NULL,
			&solver->alloc, fn);
	if (!rc)
		rc = qubo__options_copy(&s->options, &solver->options);
	if (rc) {
		qubo_solver_free(s);
		return rc;
	}
	s->progress = solver->progress;
	s->progress_data = solver->progress_data;
	s->data = solver->data;
	if (s->data)
		atomic_fetch_add(&s->data->solvers, 1);
	*out = s;
	return QUBO_OK;
}

void qubo_solver_free(qubo_solver *s)
{
	qubo_allocator a;

	if (!s)
		return;
	a = s->alloc;
	if (s->data && atomic_fetch_sub(&s->data->solvers, 1) == 1) {
		s->data->destroy(s->user_data);
		qubo__free(&a, s->data);
	}
	qubo__options_dispose(&s->options);
	qubo__free(&a, s->name);
	qubo__free(&a, s);
}

const char *qubo_solver_name(const qubo_solver *s)
{
	return s ? s->name : "";
}

int qubo_solver_describe(const qubo_solver *s, char *buffer, size_t capacity, size_t *length_out)
{
	static const char fn[] = "qubo_solver_describe";
	char text[DESCRIBE_SIZE];
	size_t len;

	if (!s || (!buffer && capacity))
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL %s", fn, !s ? "solver" : "buffer");
	text[0] = '\0';
	if (!s->vt.describe || s->vt.describe(text, sizeof text, s->user_data) || !text[0])
		snprintf(text, sizeof text, "%s", s->name);
	text[sizeof text - 1] = '\0';
	len = strlen(text);
	if (length_out)
		*length_out = len;
	/* capacity 0 is the size query: it succeeds */
	if (!capacity)
		return QUBO_OK;
	if (capacity <= len)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: the description needs %zu "
				   "bytes, capacity is %zu", fn, len + 1, capacity);
	memcpy(buffer, text, len + 1);
	return QUBO_OK;
}

/* ---- options ---- */

static void ctx_init(qubo_backend_ctx *ctx, qubo_solver *s, const qubo_model *m, int phase)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->solver = s;
	ctx->model = m;
	ctx->phase = phase;
	ctx->report.struct_size = sizeof ctx->report;
}

/* Turns a slot's nonzero return into the status the caller sees, with the
 * message "<name>: <reported message>". */
static int slot_failure(const qubo_backend_ctx *ctx, const char *slot, int rc)
{
	const char *name = ctx->solver->name;

	if (ctx->err_code)
		return qubo__error_limit_at(
			ctx->err_code, ctx->err_limit, ctx->err_limit_value, 0, 0, "%s: %s", name,
			ctx->err_msg[0] ? ctx->err_msg : qubo_status_str(ctx->err_code));
	return qubo__error(QUBO_ERR_CALLBACK, "%s: the %s slot returned %d without reporting "
			   "an error", name, slot, rc);
}

/* The host's own checks of the common keys. Their messages name the option
 * and the value, not the function: they reach users of programs. */
static int check_common(const qubo_options *o, const char *key)
{
	size_t i;

	for (i = 0; i < qubo__num_common_params; i++)
		if (!strcmp(qubo__common_params[i].key, key))
			return qubo__params_check(&qubo__common_params[i], 1, NULL, o, key);
	return QUBO_OK;
}

static int set_value(const char *fn, qubo_solver *s, const char *key, const qubo__opt *value)
{
	qubo__opt_change change;
	qubo_backend_ctx ctx;
	int rc;

	if (!s)
		return qubo__error(QUBO_ERR_MISUSE, "%s: solver is NULL", fn);
	rc = qubo__options_check_key(fn, key);
	if (rc)
		return rc;
	rc = qubo__options_put(&s->options, key, value, &change);
	if (rc)
		return rc;
	rc = check_common(&s->options, key);
	if (!rc && s->vt.set_param) {
		ctx_init(&ctx, s, NULL, QUBO__PHASE_SET_PARAM);
		rc = s->vt.set_param(&ctx, key, &s->options, s->user_data);
		if (rc)
			rc = slot_failure(&ctx, "set_param", rc);
	}
	if (rc) {
		qubo__options_undo(&s->options, &change);
		return rc;
	}
	qubo__options_commit(&s->options, &change);
	return QUBO_OK;
}

int qubo_solver_set_int(qubo_solver *s, const char *key, int64_t value)
{
	qubo__opt v = { NULL, QUBO_TYPE_INT, value, 0.0, NULL };

	return set_value("qubo_solver_set_int", s, key, &v);
}

int qubo_solver_set_double(qubo_solver *s, const char *key, double value)
{
	static const char fn[] = "qubo_solver_set_double";
	qubo__opt v = { NULL, QUBO_TYPE_DOUBLE, 0, value, NULL };

	if (!qubo__is_finite(value))
		return qubo__error(QUBO_ERR_INVALID_ARG, "option %.64s takes a finite number, got %g",
				   key ? key : "(NULL)", value);
	return set_value(fn, s, key, &v);
}

int qubo_solver_set_string(qubo_solver *s, const char *key, const char *value)
{
	static const char fn[] = "qubo_solver_set_string";
	qubo__opt v = { NULL, QUBO_TYPE_STRING, 0, 0.0, NULL };

	if (!value)
		return qubo__error(QUBO_ERR_MISUSE, "%s: value is NULL", fn);
	v.s = (char *)(uintptr_t)value; /* copied by qubo__options_put */
	return set_value(fn, s, key, &v);
}

int qubo_solver_unset(qubo_solver *s, const char *key)
{
	static const char fn[] = "qubo_solver_unset";
	int rc;

	if (!s)
		return qubo__error(QUBO_ERR_MISUSE, "%s: solver is NULL", fn);
	rc = qubo__options_check_key(fn, key);
	if (rc)
		return rc;
	qubo__options_remove(&s->options, key);
	return QUBO_OK;
}

int qubo_solver_options(const qubo_solver *s, const qubo_options **options_out)
{
	if (!s || !options_out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_solver_options: NULL %s",
				   !s ? "solver" : "options_out");
	*options_out = &s->options;
	return QUBO_OK;
}

int qubo_solver_set_progress(qubo_solver *s, qubo_progress_cb callback, void *user_data)
{
	if (!s)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_solver_set_progress: solver is NULL");
	s->progress = callback;
	s->progress_data = user_data;
	return QUBO_OK;
}

/* ---- sampling ---- */

/* A seed for runs that did not set one: the clocks and a stack address. */
static uint64_t draw_seed(void)
{
	struct timespec a, b;
	uint64_t z;

	clock_gettime(CLOCK_REALTIME, &a);
	clock_gettime(CLOCK_MONOTONIC, &b);
	z = (uint64_t)a.tv_sec * 1000000007ull ^ (uint64_t)a.tv_nsec;
	z ^= ((uint64_t)b.tv_nsec << 32) ^ (uint64_t)(uintptr_t)&a;
	z += 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int run(const char *fn, qubo_sampleset **out, qubo_solver *s, const qubo_model *m,
	       const qubo_sampleset *initial)
{
	qubo_backend_ctx ctx;
	qubo_options opts;
	qubo__opt seed = { NULL, QUBO_TYPE_INT, 0, 0.0, NULL };
	qubo__opt_change change;
	qubo_sampleset *set = NULL;
	double limit = 0.0, target = 0.0;
	int64_t seed_value;
	int rc, status;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	if (!s)
		return qubo__error(QUBO_ERR_MISUSE, "%s: solver is NULL", fn);
	rc = qubo__model_require_bounded(m, fn);
	if (rc)
		return rc;
	if (initial) {
		if (!s->vt.sample_from)
			return qubo__error(QUBO_ERR_NOT_SUPPORTED, "%s: %s cannot start from given "
					   "samples", fn, s->name);
		if (initial->n != m->n)
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: the initial samples have %zu "
					   "variables, the model has %zu", fn, initial->n, m->n);
	}

	/* The backend sees the user's options plus the seed actually used. */
	qubo__options_init(&opts, &s->alloc);
	rc = qubo__options_copy(&opts, &s->options);
	if (rc)
		return rc;
	if (qubo_options_type(&opts, QUBO_PARAM_SEED) != QUBO_TYPE_INT) {
		seed.i = (int64_t)draw_seed();
		rc = qubo__options_put(&opts, QUBO_PARAM_SEED, &seed, &change);
		if (rc) {
			qubo__options_dispose(&opts);
			return rc;
		}
	}
	(void)qubo_options_get_int(&opts, QUBO_PARAM_SEED, 0, &seed_value);
	(void)qubo_options_get_double(&opts, QUBO_PARAM_TIME_LIMIT, 0.0, &limit);

	ctx_init(&ctx, s, m, QUBO__PHASE_SAMPLE);
	ctx.t0 = qubo__now();
	ctx.deadline = qubo__deadline(ctx.t0, limit);
	if (initial)
		rc = s->vt.sample_from(&ctx, m, &opts, initial, s->user_data);
	else
		rc = s->vt.sample(&ctx, m, &opts, s->user_data);
	ctx.report.seconds = qubo__now() - ctx.t0;
	ctx.phase = QUBO__PHASE_NONE;

	if (rc == QUBO_CANCELLED || rc == QUBO_TIME_LIMIT)
		status = rc;
	else if (rc)
		status = slot_failure(&ctx, initial ? "sample_from" : "sample", rc);
	else
		status = ctx.stop;
	if (status >= 0 && ctx.add_error)
		status = qubo__error(ctx.add_error, "%s: %s could not store its samples", fn,
				     s->name);
	if (status >= 0) {
		rc = qubo__sampleset_build(&set, &s->alloc, m, ctx.rows, ctx.occ, ctx.num, m->n);
		if (rc)
			status = rc;
	}
	if (status >= 0) {
		qubo_sample_info *info = &set->info;
		info->status = status;
		info->seconds = ctx.report.seconds;
		info->flip_attempts = ctx.report.flip_attempts;
		info->num_ground_states = ctx.report.num_ground_states;
		info->expectation = ctx.report.expectation;
		info->lowest_probability = ctx.report.lowest_probability;
		info->has_expectation = ctx.report.has_expectation;
		info->seed = (uint64_t)seed_value;
		if (qubo_options_type(&opts, QUBO_PARAM_TARGET_ENERGY) != QUBO_TYPE_NONE &&
		    set->size) {
			(void)qubo_options_get_double(&opts, QUBO_PARAM_TARGET_ENERGY, 0.0,
						      &target);
			info->reached_target = set->energies[0] <= target;
		}
		*out = set;
	}
	qubo__free(&s->alloc, ctx.rows);
	qubo__free(&s->alloc, ctx.occ);
	qubo__options_dispose(&opts);
	return status;
}

int qubo_solver_sample(qubo_sampleset **out, qubo_solver *solver, const qubo_model *model)
{
	return run("qubo_solver_sample", out, solver, model, NULL);
}

int qubo_solver_sample_from(qubo_sampleset **out, qubo_solver *solver, const qubo_model *model,
			    const qubo_sampleset *initial)
{
	if (!initial) {
		if (out)
			*out = NULL;
		return qubo__error(QUBO_ERR_MISUSE, "qubo_solver_sample_from: initial is NULL");
	}
	return run("qubo_solver_sample_from", out, solver, model, initial);
}

/* ---- the backend's side ---- */

int qubo_backend_set_error(qubo_backend_ctx *ctx, int code, const char *message)
{
	if (!ctx)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_backend_set_error: ctx is NULL");
	if (code >= 0 || code <= QUBO_STATUS_MIN_)
		code = QUBO_ERR_CALLBACK;
	ctx->err_code = code;
	ctx->err_limit = QUBO_LIMIT_NONE;
	snprintf(ctx->err_msg, sizeof ctx->err_msg, "%s", message ? message : "");
	return code;
}

static int sample_phase(const char *fn, const qubo_backend_ctx *ctx)
{
	if (!ctx)
		return qubo__error(QUBO_ERR_MISUSE, "%s: ctx is NULL", fn);
	if (ctx->phase != QUBO__PHASE_SAMPLE)
		return qubo__error(QUBO_ERR_MISUSE, "%s: only valid inside a sample slot", fn);
	return QUBO_OK;
}

int qubo_backend_add_samples(qubo_backend_ctx *ctx, const uint8_t *samples, size_t num_samples,
			     size_t length, const uint64_t *occurrences)
{
	static const char fn[] = "qubo_backend_add_samples";
	const qubo_allocator *a;
	size_t n, i, k;
	int rc = sample_phase(fn, ctx);

	if (rc)
		return rc;
	n = ctx->model->n;
	if (length != n)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: length is %zu, the model has %zu "
				   "variables", fn, length, n);
	if (!num_samples)
		return QUBO_OK;
	if (!samples && n)
		return qubo__error(QUBO_ERR_MISUSE, "%s: samples is NULL", fn);
	for (i = 0; i < num_samples; i++) {
		for (k = 0; k < n; k++)
			if (samples[i * n + k] > 1)
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: sample %zu has byte %u at variable %zu; "
						   "samples hold 0 or 1", fn, i,
						   samples[i * n + k], k);
		if (occurrences && !occurrences[i])
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: occurrences[%zu] is 0", fn,
					   i);
	}
	a = &ctx->solver->alloc;
	if (ctx->num > SIZE_MAX - num_samples ||
	    (n && ctx->num + num_samples > SIZE_MAX / n)) {
		rc = qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX, "%s: too many samples",
				     fn);
		goto fail;
	}
	rc = qubo__grow(a, (void **)&ctx->rows, &ctx->cap_rows, (ctx->num + num_samples) * n,
			1);
	if (!rc)
		rc = qubo__grow(a, (void **)&ctx->occ, &ctx->cap_occ, ctx->num + num_samples,
				sizeof *ctx->occ);
	if (rc)
		goto fail;
	if (n)
		memcpy(ctx->rows + ctx->num * n, samples, num_samples * n);
	for (i = 0; i < num_samples; i++)
		ctx->occ[ctx->num + i] = occurrences ? occurrences[i] : 1;
	ctx->num += num_samples;
	return QUBO_OK;
fail:
	if (!ctx->add_error)
		ctx->add_error = rc;
	return rc;
}

int qubo_backend_should_stop(const qubo_backend_ctx *ctx)
{
	int rc = sample_phase("qubo_backend_should_stop", ctx);

	if (rc)
		return rc;
	if (ctx->stop)
		return ctx->stop;
	if (ctx->deadline > 0 && qubo__now() >= ctx->deadline)
		return QUBO_TIME_LIMIT;
	return QUBO_OK;
}

int qubo_backend_progress(qubo_backend_ctx *ctx, uint64_t done, uint64_t total,
			  double best_energy)
{
	qubo_solver *s;
	qubo_progress p;
	int rc = qubo_backend_should_stop(ctx);

	if (rc < 0)
		return rc;
	if (rc) {
		ctx->stop = rc;
		return rc;
	}
	s = ctx->solver;
	if (!s->progress)
		return QUBO_OK;
	p.struct_size = sizeof p;
	p.done = done;
	p.total = total;
	p.has_best = best_energy == best_energy && qubo__is_finite(best_energy);
	p.best_energy = p.has_best ? best_energy : 0.0;
	p.seconds = qubo__now() - ctx->t0;
	if (s->progress(&p, s->progress_data))
		ctx->stop = QUBO_CANCELLED;
	return ctx->stop;
}

int qubo_backend_report(qubo_backend_ctx *ctx, const qubo_sample_info *info)
{
	static const char fn[] = "qubo_backend_report";
	qubo_sample_info in = QUBO_SAMPLE_INFO_INIT;
	int rc = sample_phase(fn, ctx);

	if (rc)
		return rc;
	if (!info)
		return qubo__null_arg(fn, "info");
	rc = qubo__struct_read(&in, sizeof in, info, QUBO_SAMPLE_INFO_SIZE_V1, "qubo_sample_info",
			       fn);
	if (rc)
		return rc;
	if (in.has_expectation &&
	    !(qubo__is_finite(in.expectation) && qubo__is_finite(in.lowest_probability)))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: the expectation %g or the "
				   "lowest-energy probability %g is not finite", fn,
				   in.expectation, in.lowest_probability);
	ctx->report.flip_attempts = in.flip_attempts;
	ctx->report.num_ground_states = in.num_ground_states;
	ctx->report.expectation = in.expectation;
	ctx->report.lowest_probability = in.lowest_probability;
	ctx->report.has_expectation = in.has_expectation != 0;
	return QUBO_OK;
}
