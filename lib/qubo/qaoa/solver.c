/*
 * The built-in solver "qaoa": the state-vector simulator of qubo/qaoa.h
 * behind the backend table. The angles are given ("angles") or optimised
 * (qubo_qaoa_optimize() at depth "p"); the reads are drawn from the final
 * state with the run's seed (read r from the stream (seed, r), as every
 * built-in solver), and the run reports the final expectation and the
 * probability of the lowest energy in qubo_sample_info.
 */
#include <stdio.h>
#include <string.h>

#include "number.h"
#include "qaoa_impl.h"
#include "solvers/solver_impl.h"

#define PROGRESS_PERIOD 0.1

static const qubo__param qaoa_params[] = {
	QUBO__P_NUM_READS("reads measured from the final state"),
	QUBO__P_SEED,
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
	{ QUBO_PARAM_P, QUBO_TYPE_INT, 1, QUBO_QAOA_MAX_DEPTH, 0, "1 (or as many as the angles)",
	  "the depth: layers of cost phase and mixer" },
	{ QUBO_PARAM_ANGLES, QUBO_TYPE_STRING, 0, 0, 0, "optimised",
	  "\"g1,...,gp,b1,...,bp\": the cost and mixer angles" },
	{ QUBO_PARAM_NUM_ITERATIONS, QUBO_TYPE_INT, 1, 1000000, 0, "100",
	  "Nelder-Mead iterations per depth when optimising" },
	{ QUBO_PARAM_MAX_QUBITS, QUBO_TYPE_INT, 1, QUBO_QAOA_MAX_QUBITS, 0, "26",
	  "larger models are refused before anything is allocated" },
};

/* Parses "g1,...,gp,b1,...,bp" into v (capacity 2 · QUBO_QAOA_MAX_DEPTH);
 * *count_out gets the number of values. Messages name the value. */
static int parse_angles(const char *s, double *v, size_t *count_out)
{
	static const char fn[] = "option angles";
	size_t count = 0;
	const char *p = s;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int r;

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (count == 2 * QUBO_QAOA_MAX_DEPTH)
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: more than %d values (p is at "
					   "most %d)", fn, 2 * QUBO_QAOA_MAX_DEPTH,
					   QUBO_QAOA_MAX_DEPTH);
		r = len ? qubo__parse_double(p, len, &v[count]) : 0;
		if (r != 1 || !qubo__is_finite(v[count]))
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: value %zu (\"%.*s\") is not a finite number", fn,
					   count + 1, (int)(len > 40 ? 40 : len), p);
		count++;
		if (!end)
			break;
		p = end + 1;
	}
	if (count % 2)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: %zu values; it takes 2p: p gammas, "
				   "then p betas", fn, count);
	*count_out = count;
	return QUBO_OK;
}

/* The depth and angles of a run; *given is 0 when they are to be optimised. */
static int read_angles(const qubo_options *o, size_t *p_out, double *v, int *given)
{
	const char *s = NULL;
	int64_t p = 0;
	size_t count = 0;
	int rc;

	(void)qubo_options_get_string(o, QUBO_PARAM_ANGLES, NULL, &s);
	(void)qubo_options_get_int(o, QUBO_PARAM_P, 0, &p);
	*given = s != NULL;
	if (!s) {
		*p_out = p ? (size_t)p : 1;
		return QUBO_OK;
	}
	rc = parse_angles(s, v, &count);
	if (rc)
		return rc;
	if (p && (size_t)p != count / 2)
		return qubo__error(QUBO_ERR_INVALID_ARG, "option p is %lld but angles holds "
				   "%zu values, the angles of depth %zu", (long long)p, count,
				   count / 2);
	*p_out = count / 2;
	return QUBO_OK;
}

static int qaoa_set_param(qubo_backend_ctx *ctx, const char *key, const qubo_options *o,
			  void *user_data)
{
	double v[2 * QUBO_QAOA_MAX_DEPTH];
	size_t p;
	int given, rc;

	if (!strcmp(key, QUBO_PARAM_ANGLES)) {
		if (qubo_options_type(o, key) != QUBO_TYPE_STRING) {
			rc = qubo__error(QUBO_ERR_INVALID_ARG, "option angles takes a string "
					 "\"g1,...,gp,b1,...,bp\"");
			return qubo__builtin_fail(ctx, rc);
		}
	} else {
		rc = qubo__builtin_set_param(ctx, key, o, user_data);
		if (rc)
			return rc;
	}
	/* p and angles must agree whichever is set last */
	if (!strcmp(key, QUBO_PARAM_ANGLES) || !strcmp(key, QUBO_PARAM_P)) {
		rc = read_angles(o, &p, v, &given);
		if (rc)
			return qubo__builtin_fail(ctx, rc);
	}
	return QUBO_OK;
}

typedef struct qaoa_watch {
	qubo_backend_ctx *ctx;
	double next;
} qaoa_watch;

/* The optimiser's stop test: progress about every 100 ms, and the host's
 * cancel and time limit. */
static int qaoa_stop(void *user_data, double best)
{
	qaoa_watch *w = user_data;
	double now = qubo__now();

	if (qubo_backend_should_stop(w->ctx))
		return 1;
	if (now >= w->next) {
		w->next = now + PROGRESS_PERIOD;
		return qubo_backend_progress(w->ctx, 0, 1, best) != QUBO_OK;
	}
	return 0;
}

static int qaoa_run(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		    const qubo_sampleset *initial)
{
	const qubo_allocator *a = &ctx->solver->alloc;
	double v[2 * QUBO_QAOA_MAX_DEPTH], e = 0.0, low = 0.0;
	int64_t max_qubits, iters;
	size_t p = 1, reads;
	qubo_sample_info info;
	qubo_qaoa *q = NULL;
	uint8_t *rows = NULL;
	qaoa_watch watch;
	qubo__run run;
	int given, rc, status = QUBO_OK;

	(void)initial;
	qubo__builtin_run(ctx, o, &run);
	max_qubits = qubo__builtin_int(o, QUBO_PARAM_MAX_QUBITS, QUBO_QAOA_DEFAULT_MAX_QUBITS);
	iters = qubo__builtin_int(o, QUBO_PARAM_NUM_ITERATIONS, 0);
	rc = read_angles(o, &p, v, &given);
	if (!rc)
		rc = qubo_qaoa_new(&q, m, (size_t)max_qubits, a);
	if (!rc)
		rc = qubo_qaoa_set_threads(q, (int)qubo__builtin_int(o, QUBO_PARAM_THREADS, 0));
	if (rc)
		goto fail;
	if (given) {
		rc = qubo__qaoa_evolve(q, "option angles", p, v, v + p);
		if (!rc)
			rc = qubo__qaoa_figures(q, &e, &low);
	} else {
		watch.ctx = ctx;
		watch.next = qubo__now() + PROGRESS_PERIOD;
		rc = qubo__qaoa_optimize(q, p, (size_t)iters, v, v + p, &e, qaoa_stop, &watch);
		if (rc == QUBO_CANCELLED) {
			/* the host knows whether the user or the clock stopped it */
			status = qubo_backend_should_stop(ctx);
			if (status == QUBO_OK)
				status = QUBO_CANCELLED;
			rc = QUBO_OK;
		}
		if (!rc)
			rc = qubo__qaoa_figures(q, &e, &low);
	}
	if (rc)
		goto fail;
	reads = run.num_reads;
	rc = qubo__check_reads(reads, m->n, 0);
	if (rc)
		goto fail;
	rows = qubo__malloc_array(a, reads, m->n ? m->n : 1);
	if (!rows) {
		rc = qubo__nomem("the QAOA reads");
		goto fail;
	}
	rc = qubo_qaoa_sample(q, run.seed, reads, rows, reads * m->n);
	if (rc)
		goto fail;
	memset(&info, 0, sizeof info);
	info.struct_size = sizeof info;
	info.expectation = e;
	info.lowest_probability = low;
	info.has_expectation = 1;
	rc = qubo_backend_report(ctx, &info);
	if (!rc)
		rc = qubo_backend_add_samples(ctx, rows, reads, m->n, NULL);
	if (!rc)
		(void)qubo_backend_progress(ctx, 1, 1, e);
	qubo__free(a, rows);
	qubo_qaoa_free(q);
	return rc ? qubo__builtin_fail(ctx, rc) : status;
fail:
	qubo__free(a, rows);
	qubo_qaoa_free(q);
	return qubo__builtin_fail(ctx, rc);
}

const qubo_backend_vtable qubo__qaoa_backend = {
	sizeof(qubo_backend_vtable),
	"qaoa",
	qubo__builtin_sample_slot,
	NULL,
	qaoa_set_param,
	qubo__builtin_describe,
};

qubo__builtin qubo__qaoa_builtin = {
	&qubo__qaoa_backend,
	"QAOA of depth p on an exact state-vector simulator (qubo/qaoa.h); reads measured "
	"from the final state",
	qaoa_params,
	sizeof qaoa_params / sizeof qaoa_params[0],
	qaoa_run,
};
