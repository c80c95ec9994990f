/* A solver backend written as a caller would write one, which records in its
 * user data what the host did with it, and a snapshot of everything a
 * caller can see of a solver. Shared by the clone tests
 * (tests/qubo/solvers) and the tests of a solver lent to the puzzle layer
 * (tests/puzzle). Header-only (static inline) so that each suite stays one
 * file.
 *
 *  - tp_probe: the backend's user data. Its sample slot reports progress
 *    (so that the progress callback in force is called and can stop it),
 *    then solves by enumeration through an "exhaustive" solver of its own
 *    and hands over the lowest state (or, told to, the state of all zeros).
 *    @c magic is never written by the host.
 *  - tp_state: the name, the description and the whole option bag (keys in
 *    order, types, values) of a solver, compared field by field.
 *  - tp_watch: a progress callback's user data; the callback counts its calls
 *    and asks to stop when told to.
 */
#ifndef QUBO_TEST_PROBE_H
#define QUBO_TEST_PROBE_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo.h>

#define TP_MAGIC 0x5EEDF00DCAFEF00Dull
#define TP_MAX_OPTIONS 16

typedef struct tp_probe {
	uint64_t magic;
	qubo_solver *inner; /* "exhaustive", one thread */
	unsigned sample_calls, set_param_calls, describe_calls, destroy_calls;
	int64_t last_seed; /* the seed its last sample slot was given */
	int fail;	   /* nonzero: the sample slot fails with QUBO_ERR_INVALID_ARG */
	int zeros;	   /* nonzero: it hands over the state of all zeros */
} tp_probe;

static inline int tp_probe_sample(qubo_backend_ctx *ctx, const qubo_model *m,
				  const qubo_options *o, void *user_data)
{
	tp_probe *p = user_data;
	qubo_sampleset *set = NULL;
	double e = 0;
	int rc;

	p->sample_calls++;
	qubo_options_get_int(o, QUBO_PARAM_SEED, 0, &p->last_seed);
	if (p->fail)
		return qubo_backend_set_error(ctx, QUBO_ERR_INVALID_ARG, "told to fail");
	rc = qubo_backend_progress(ctx, 0, 1, (double)NAN);
	if (rc)
		return rc > 0 ? rc : qubo_backend_set_error(ctx, rc, qubo_error_message());
	rc = qubo_solver_sample(&set, p->inner, m);
	if (rc < 0)
		return qubo_backend_set_error(ctx, rc, qubo_error_message());
	if (p->zeros) {
		uint8_t *zero = calloc(qubo_model_num_variables(m) + 1, 1);

		cr_assert_not_null(zero);
		rc = qubo_backend_add_samples(ctx, zero, 1, qubo_model_num_variables(m), NULL);
		free(zero);
	} else {
		rc = qubo_backend_add_samples(ctx, qubo_sampleset_sample_data(set, 0), 1,
					      qubo_model_num_variables(m), NULL);
		qubo_sampleset_get(set, 0, NULL, 0, &e, NULL);
	}
	qubo_sampleset_free(set);
	if (!rc)
		rc = qubo_backend_progress(ctx, 1, 1, e);
	return rc < 0 ? qubo_backend_set_error(ctx, rc, qubo_error_message()) : rc;
}

static inline int tp_probe_set_param(qubo_backend_ctx *ctx, const char *key,
				     const qubo_options *o, void *user_data)
{
	tp_probe *p = user_data;

	(void)ctx;
	(void)key;
	(void)o;
	p->set_param_calls++;
	return 0;
}

static inline int tp_probe_describe(char *buffer, size_t capacity, void *user_data)
{
	tp_probe *p = user_data;

	p->describe_calls++;
	snprintf(buffer, capacity, "probe: a backend of the test's own");
	return 0;
}

static inline void tp_probe_destroy(void *user_data)
{
	tp_probe *p = user_data;

	p->destroy_calls++;
}

static inline qubo_backend_vtable tp_probe_table(void)
{
	qubo_backend_vtable t;

	memset(&t, 0, sizeof t);
	t.struct_size = sizeof t;
	t.name = "probe";
	t.sample = tp_probe_sample;
	t.set_param = tp_probe_set_param;
	t.describe = tp_probe_describe;
	return t;
}

static inline void tp_probe_init(tp_probe *p)
{
	memset(p, 0, sizeof *p);
	p->magic = TP_MAGIC;
	cr_assert_eq(qubo_solver_new(&p->inner, "exhaustive", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(p->inner, QUBO_PARAM_THREADS, 1), QUBO_OK);
}

static inline void tp_probe_dispose(tp_probe *p)
{
	cr_assert_eq(p->magic, TP_MAGIC);
	qubo_solver_free(p->inner);
}

/* ---- what a caller sees of a solver ---- */

typedef struct tp_state {
	char name[64];
	char description[4096];
	size_t count;
	struct {
		char key[72];
		int32_t type;
		int64_t i;
		double d;
		char s[128];
	} opt[TP_MAX_OPTIONS];
} tp_state;

static inline void tp_snap(const qubo_solver *s, tp_state *st)
{
	const qubo_options *o = NULL;
	size_t k;

	memset(st, 0, sizeof *st);
	snprintf(st->name, sizeof st->name, "%s", qubo_solver_name(s));
	cr_assert_eq(qubo_solver_describe(s, st->description, sizeof st->description, NULL),
		     QUBO_OK);
	cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
	st->count = qubo_options_count(o);
	cr_assert_leq(st->count, TP_MAX_OPTIONS);
	for (k = 0; k < st->count; k++) {
		const char *key = NULL, *str = NULL;

		cr_assert_eq(qubo_options_key(o, k, &key, &st->opt[k].type), QUBO_OK);
		snprintf(st->opt[k].key, sizeof st->opt[k].key, "%s", key);
		if (st->opt[k].type == QUBO_TYPE_INT)
			cr_assert_eq(qubo_options_get_int(o, key, 0, &st->opt[k].i), QUBO_OK);
		else if (st->opt[k].type == QUBO_TYPE_DOUBLE)
			cr_assert_eq(qubo_options_get_double(o, key, 0, &st->opt[k].d), QUBO_OK);
		else if (st->opt[k].type == QUBO_TYPE_STRING)
			cr_assert_eq(qubo_options_get_string(o, key, NULL, &str), QUBO_OK);
		if (str)
			snprintf(st->opt[k].s, sizeof st->opt[k].s, "%s", str);
	}
}

/* a (before) and b (after) agree on everything; what names the call. */
static inline void tp_assert_same(const tp_state *a, const tp_state *b, const char *what)
{
	size_t k;

	cr_assert_str_eq(b->name, a->name, "%s: the name changed", what);
	cr_assert_str_eq(b->description, a->description, "%s: the description changed", what);
	cr_assert_eq(b->count, a->count, "%s: %zu options before, %zu after", what, a->count,
		     b->count);
	for (k = 0; k < a->count; k++) {
		cr_assert_str_eq(b->opt[k].key, a->opt[k].key, "%s: option %zu was %s, is %s",
				 what, k, a->opt[k].key, b->opt[k].key);
		cr_assert_eq(b->opt[k].type, a->opt[k].type, "%s: %s changed type", what,
			     a->opt[k].key);
		cr_assert_eq(b->opt[k].i, a->opt[k].i, "%s: %s was %lld, is %lld", what,
			     a->opt[k].key, (long long)a->opt[k].i, (long long)b->opt[k].i);
		cr_assert(memcmp(&b->opt[k].d, &a->opt[k].d, sizeof(double)) == 0,
			  "%s: %s was %.17g, is %.17g", what, a->opt[k].key, a->opt[k].d,
			  b->opt[k].d);
		cr_assert_str_eq(b->opt[k].s, a->opt[k].s, "%s: %s changed", what, a->opt[k].key);
	}
}

/* ---- a progress callback ---- */

typedef struct tp_watch {
	unsigned calls;
	int stop; /* returned: nonzero stops the run */
} tp_watch;

static inline int tp_watch_cb(const qubo_progress *progress, void *user_data)
{
	tp_watch *w = user_data;

	(void)progress;
	w->calls++;
	return w->stop;
}

#endif
