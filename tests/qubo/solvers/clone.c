/* qubo_solver_clone(): a copy of the options, in order, and of the progress
 * callback; independence afterwards; the same samples for a seed; a
 * caller's backend shared, with its destroy callback run once by the last
 * free, in either order; every allocation failing in turn; bad arguments. */
#include <pthread.h>

#include "probe.h"
#include "helpers.h"

static qubo_solver *clone_of(const qubo_solver *s)
{
	qubo_solver *c = NULL;

	cr_assert_eq(qubo_solver_clone(&c, s), QUBO_OK, "%s", qubo_error_message());
	cr_assert_not_null(c);
	cr_assert_neq(c, s);
	return c;
}

/* Options of each type, and a progress callback. */
static void configure(qubo_solver *s, tp_watch *w)
{
	th_set_int(s, QUBO_PARAM_NUM_READS, 5);
	th_set_double(s, QUBO_PARAM_TIME_LIMIT, 30.0);
	th_set_int(s, QUBO_PARAM_SEED, 11);
	cr_assert_eq(qubo_solver_set_progress(s, tp_watch_cb, w), QUBO_OK);
}

Test(solver_clone, copies_the_options_in_order_and_the_progress_callback)
{
	qubo_model *m = th_random_model(1, 10, 0.5, 3, 1);
	qubo_solver *s = th_solver("qaoa"), *c;
	qubo_sampleset *set = NULL;
	tp_state a, b;
	tp_watch w = { 0, 0 };

	configure(s, &w);
	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, "0.5,0.25"), QUBO_OK);
	c = clone_of(s);
	tp_snap(s, &a);
	tp_snap(c, &b);
	cr_assert_eq(a.count, 4);
	tp_assert_same(&a, &b, "the clone");
	/* the clone calls the same callback with the same user data */
	cr_assert_eq(qubo_solver_sample(&set, c, m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_gt(w.calls, 0);
	qubo_sampleset_free(set);
	qubo_solver_free(c);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(solver_clone, is_independent_of_its_original)
{
	qubo_model *m = th_random_model(2, 10, 0.5, 3, 1);
	qubo_solver *s = th_solver("sa"), *c;
	qubo_sampleset *set = NULL;
	tp_state a, b, after;
	tp_watch w = { 0, 0 }, v = { 0, 0 };

	configure(s, &w);
	c = clone_of(s);
	tp_snap(s, &a);
	/* the clone changed every way: the original stays */
	th_set_int(c, QUBO_PARAM_SEED, 12);
	th_set_int(c, QUBO_PARAM_NUM_SWEEPS, 20);
	cr_assert_eq(qubo_solver_unset(c, QUBO_PARAM_TIME_LIMIT), QUBO_OK);
	cr_assert_eq(qubo_solver_set_progress(c, tp_watch_cb, &v), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, c, m), QUBO_OK);
	qubo_sampleset_free(set);
	cr_assert_gt(v.calls, 0);
	cr_assert_eq(w.calls, 0);
	tp_snap(s, &after);
	tp_assert_same(&a, &after, "the original after changes to its clone");
	/* and the other way round */
	tp_snap(c, &b);
	th_set_int(s, QUBO_PARAM_NUM_READS, 6);
	cr_assert_eq(qubo_solver_set_progress(s, NULL, NULL), QUBO_OK);
	tp_snap(c, &after);
	tp_assert_same(&b, &after, "the clone after changes to its original");
	v.calls = 0;
	cr_assert_eq(qubo_solver_sample(&set, c, m), QUBO_OK);
	qubo_sampleset_free(set);
	cr_assert_gt(v.calls, 0);
	/* freed first, the original leaves the clone working */
	qubo_solver_free(s);
	cr_assert_eq(qubo_solver_sample(&set, c, m), QUBO_OK);
	qubo_sampleset_free(set);
	qubo_solver_free(c);
	qubo_model_free(m);
}

Test(solver_clone, same_seed_same_samples)
{
	const char *names[] = { "sa", "tabu", "descent", "pt", "exhaustive" };
	qubo_model *m = th_random_model(3, 14, 0.4, 3, 0);
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		qubo_solver *s = th_solver(names[i]), *c;
		qubo_sampleset *a = NULL, *b = NULL;

		th_set_int(s, QUBO_PARAM_SEED, 7);
		th_set_int(s, QUBO_PARAM_THREADS, 1);
		c = clone_of(s);
		cr_assert_str_eq(qubo_solver_name(c), names[i]);
		cr_assert_eq(qubo_solver_sample(&a, s, m), QUBO_OK);
		cr_assert_eq(qubo_solver_sample(&b, c, m), QUBO_OK);
		cr_assert(th_same_sets(a, b), "%s", names[i]);
		qubo_sampleset_free(a);
		qubo_sampleset_free(b);
		qubo_solver_free(c);
		qubo_solver_free(s);
	}
	qubo_model_free(m);
}

/* A built-in solver and its clone sample at the same time on two threads. */
struct side {
	qubo_solver *s;
	const qubo_model *m;
	qubo_sampleset *set;
	int rc;
};

static void *sample_side(void *arg)
{
	struct side *d = arg;

	d->rc = qubo_solver_sample(&d->set, d->s, d->m);
	return NULL;
}

Test(solver_clone, a_builtin_and_its_clone_run_at_once)
{
	qubo_model *m = th_random_model(4, 40, 0.3, 3, 1);
	qubo_solver *s = th_solver("sa");
	struct side d[2];
	pthread_t t[2];
	int k;

	th_set_int(s, QUBO_PARAM_SEED, 5);
	th_set_int(s, QUBO_PARAM_NUM_READS, 8);
	th_set_int(s, QUBO_PARAM_THREADS, 2);
	memset(d, 0, sizeof d);
	d[0].s = s;
	d[1].s = clone_of(s);
	for (k = 0; k < 2; k++) {
		d[k].m = m;
		cr_assert_eq(pthread_create(&t[k], NULL, sample_side, &d[k]), 0);
	}
	for (k = 0; k < 2; k++) {
		cr_assert_eq(pthread_join(t[k], NULL), 0);
		cr_assert_eq(d[k].rc, QUBO_OK);
	}
	cr_assert(th_same_sets(d[0].set, d[1].set));
	for (k = 0; k < 2; k++) {
		qubo_sampleset_free(d[k].set);
		qubo_solver_free(d[k].s);
	}
	qubo_model_free(m);
}

/* A caller's backend: its user data is shared, never copied, and its
 * destroy callback runs once, when the last solver goes, whichever it is. */
Test(solver_clone, shares_a_callers_backend_and_destroys_it_once)
{
	qubo_model *m = th_random_model(5, 8, 0.5, 3, 1);
	qubo_backend_vtable table = tp_probe_table();
	int first;

	for (first = 0; first < 3; first++) {
		qubo_solver *s[3] = { NULL, NULL, NULL };
		qubo_sampleset *set = NULL;
		tp_probe p;
		int k;

		tp_probe_init(&p);
		cr_assert_eq(qubo_solver_new_backend(&s[0], &table, &p, tp_probe_destroy, NULL),
			     QUBO_OK);
		th_set_int(s[0], "anything", 1);
		s[1] = clone_of(s[0]);
		s[2] = clone_of(s[1]); /* a clone of a clone */
		cr_assert_str_eq(qubo_solver_name(s[2]), "probe");
		for (k = 0; k < 3; k++) {
			th_set_int(s[k], QUBO_PARAM_SEED, 100 + k);
			cr_assert_eq(qubo_solver_sample(&set, s[k], m), QUBO_OK);
			qubo_sampleset_free(set);
			cr_assert_eq(p.last_seed, 100 + k);
		}
		cr_assert_eq(p.sample_calls, 3);
		cr_assert_eq(p.set_param_calls, 4);
		/* free them in the orders 0 1 2, 1 2 0, 2 0 1 */
		for (k = 0; k < 3; k++) {
			qubo_solver_free(s[(first + k) % 3]);
			cr_assert_eq(p.destroy_calls, k == 2, "order %d, free %d", first, k);
		}
		tp_probe_dispose(&p);
	}
	qubo_model_free(m);
}

Test(solver_clone, a_backend_without_destroy)
{
	qubo_backend_vtable table = tp_probe_table();
	qubo_solver *s = NULL, *c;
	tp_probe p;

	tp_probe_init(&p);
	cr_assert_eq(qubo_solver_new_backend(&s, &table, &p, NULL, NULL), QUBO_OK);
	c = clone_of(s);
	qubo_solver_free(s);
	qubo_solver_free(c);
	cr_assert_eq(p.destroy_calls, 0);
	tp_probe_dispose(&p);
}

/* Allocation k of a clone fails, for every k: QUBO_ERR_NOMEM, *out NULL,
 * nothing leaked, the original unchanged and its backend not destroyed. */
Test(solver_clone, out_of_memory)
{
	qubo_backend_vtable table = tp_probe_table();
	int backend;

	for (backend = 0; backend < 2; backend++) {
		tu_failalloc fa;
		qubo_solver *s = NULL;
		tp_probe p;
		tp_state before, after;
		tp_watch w = { 0, 0 };
		size_t k, live;

		tu_failalloc_init(&fa, 0);
		tp_probe_init(&p);
		if (backend)
			cr_assert_eq(qubo_solver_new_backend(&s, &table, &p, tp_probe_destroy, &fa.a),
				     QUBO_OK);
		else
			cr_assert_eq(qubo_solver_new(&s, "sa", &fa.a), QUBO_OK);
		configure(s, &w);
		tp_snap(s, &before);
		live = fa.live;
		for (k = 1;; k++) {
			qubo_solver *c = (qubo_solver *)1;
			int rc;

			fa.failed = 0;
			fa.fail_at = fa.count + k;
			rc = qubo_solver_clone(&c, s);
			fa.fail_at = 0;
			if (!fa.failed) {
				cr_assert_eq(rc, QUBO_OK);
				qubo_solver_free(c);
				break;
			}
			cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %d", k, rc);
			cr_assert_null(c);
			cr_assert_eq(fa.live, live, "allocation %zu leaked", k);
			tp_snap(s, &after);
			tp_assert_same(&before, &after, "a failed clone's original");
		}
		cr_assert_gt(k, 3, "each option is an allocation or two");
		cr_assert_eq(p.destroy_calls, 0);
		qubo_solver_free(s);
		cr_assert_eq(p.destroy_calls, (unsigned)backend);
		cr_assert_eq(fa.live, 0);
		tp_probe_dispose(&p);
	}
}

/* The count a backend's user data is shared by is allocated with the first
 * solver: allocation k of qubo_solver_new_backend() fails, for every k,
 * without calling destroy or leaking. */
Test(solver_clone, a_backend_solver_when_each_allocation_fails)
{
	qubo_backend_vtable table = tp_probe_table();
	tp_probe p;
	size_t k;

	tp_probe_init(&p);
	for (k = 1;; k++) {
		tu_failalloc fa;
		qubo_solver *s = (qubo_solver *)1;
		int rc;

		tu_failalloc_init(&fa, k);
		rc = qubo_solver_new_backend(&s, &table, &p, tp_probe_destroy, &fa.a);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
			qubo_solver_free(s);
			cr_assert_eq(p.destroy_calls, 1);
			cr_assert_eq(fa.live, 0);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM);
		cr_assert_null(s);
		cr_assert_eq(fa.live, 0, "allocation %zu leaked", k);
		cr_assert_eq(p.destroy_calls, 0);
	}
	cr_assert_eq(k, 4, "the solver, its name and the shared count");
	tp_probe_dispose(&p);
}

Test(solver_clone, bad_arguments)
{
	qubo_solver *s = th_solver("sa"), *c = (qubo_solver *)1;

	cr_assert_eq(qubo_solver_clone(NULL, s), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_clone(&c, NULL), QUBO_ERR_MISUSE);
	cr_assert_null(c);
	cr_assert(strstr(qubo_error_message(), "qubo_solver_clone"), "%s", qubo_error_message());
	qubo_solver_free(s);
}
