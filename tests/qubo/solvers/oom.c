/* Fault injection: every allocation of solver creation, option setting and
 * sampling fails in turn; each failure is a clean QUBO_ERR_NOMEM that leaks
 * nothing and leaves the solver usable. */
#include "helpers.h"

Test(solver_oom, creation)
{
	const char *names[] = { "sa", "exhaustive", "tabu", "descent", "qaoa", "pt" };
	size_t i, k;

	for (i = 0; i < sizeof names / sizeof *names; i++) {
		for (k = 1;; k++) {
			tu_failalloc fa;
			qubo_solver *s = (qubo_solver *)1;
			int rc;
			tu_failalloc_init(&fa, k);
			rc = qubo_solver_new(&s, names[i], &fa.a);
			if (!fa.failed) {
				cr_assert_eq(rc, QUBO_OK);
				qubo_solver_free(s);
				cr_assert_eq(fa.live, 0);
				break;
			}
			cr_assert_eq(rc, QUBO_ERR_NOMEM);
			cr_assert_null(s);
			cr_assert_eq(fa.live, 0, "%s: allocation %zu leaked", names[i], k);
		}
		cr_assert_gt(k, 1);
	}
}

Test(solver_oom, setting_options_keeps_the_old_value)
{
	tu_failalloc fa;
	qubo_solver *s = NULL;
	const qubo_options *o;
	size_t k, live;

	tu_failalloc_init(&fa, 0);
	cr_assert_eq(qubo_solver_new(&s, "tabu", &fa.a), QUBO_OK);
	cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
	th_set_int(s, QUBO_PARAM_NUM_READS, 3);
	live = fa.live;
	for (k = 1;; k++) {
		int64_t v;
		int rc;
		fa.failed = 0;
		fa.fail_at = fa.count + k;
		rc = qubo_solver_set_int(s, QUBO_PARAM_TENURE, 4);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM);
		cr_assert_eq(fa.live, live);
		cr_assert_eq(qubo_options_count(o), 1);
		cr_assert_eq(qubo_options_get_int(o, QUBO_PARAM_NUM_READS, 0, &v), QUBO_OK);
		cr_assert_eq(v, 3);
	}
	fa.fail_at = 0;
	qubo_solver_free(s);
	cr_assert_eq(fa.live, 0);
}

static void sample_under_failures(const char *name, const qubo_model *m)
{
	tu_failalloc fa;
	qubo_solver *s = NULL;
	size_t k, live;

	tu_failalloc_init(&fa, 0);
	cr_assert_eq(qubo_solver_new(&s, name, &fa.a), QUBO_OK);
	th_set_int(s, QUBO_PARAM_THREADS, 2);
	th_set_int(s, QUBO_PARAM_SEED, 1);
	if (strcmp(name, "exhaustive"))
		th_set_int(s, QUBO_PARAM_NUM_READS, 4);
	if (!strcmp(name, "sa") || !strcmp(name, "pt"))
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 10);
	live = fa.live;
	for (k = 1;; k++) {
		qubo_sampleset *set = (qubo_sampleset *)1;
		int rc;
		fa.failed = 0;
		fa.fail_at = fa.count + k;
		rc = qubo_solver_sample(&set, s, m);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK, "%s: %s", name, qubo_error_message());
			fa.fail_at = 0;
			qubo_sampleset_free(set);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "%s, allocation %zu: %d %s", name, k, rc,
			     qubo_error_message());
		cr_assert_null(set);
		cr_assert_eq(fa.live, live, "%s: allocation %zu leaked", name, k);
	}
	cr_assert_gt(k, 3, "%s", name);
	cr_assert_eq(fa.live, live);
	qubo_solver_free(s);
	cr_assert_eq(fa.live, 0);
}

Test(solver_oom, sampling_with_each_builtin)
{
	qubo_model *m = th_random_model(1, 12, 0.4, 3, 1);

	sample_under_failures("sa", m);
	sample_under_failures("exhaustive", m);
	sample_under_failures("tabu", m);
	sample_under_failures("descent", m);
	sample_under_failures("pt", m);
	qubo_model_free(m);
	/* real weights: tabu scans instead of keeping bucket lists, pt keeps
	 * double fields */
	m = th_random_model(3, 12, 0.4, 3, 0);
	sample_under_failures("tabu", m);
	sample_under_failures("pt", m);
	qubo_model_free(m);
	/* group moves: their own tables and work arrays */
	m = th_random_model(2, 12, 0.4, 3, 1);
	cr_assert_eq(qubo_model_add_group(m, 3, 3), QUBO_OK);
	cr_assert_eq(qubo_model_add_group(m, 8, 2), QUBO_OK);
	sample_under_failures("sa", m);
	qubo_model_free(m);
}

static int many_rows(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		     void *user_data)
{
	uint8_t x[4] = { 0, 1, 0, 1 };
	int i, rc = 0;

	(void)m;
	(void)o;
	(void)user_data;
	for (i = 0; i < 100 && !rc; i++)
		rc = qubo_backend_add_samples(ctx, x, 1, 4, NULL);
	return 0; /* even if the backend ignores the failure, the host does not */
}

Test(solver_oom, backend_samples_that_cannot_be_stored)
{
	qubo_model *m = th_random_model(2, 4, 1.0, 1, 1);
	qubo_backend_vtable vt;
	tu_failalloc fa;
	qubo_solver *s = NULL;
	size_t k;

	memset(&vt, 0, sizeof vt);
	vt.struct_size = sizeof vt;
	vt.name = "rows";
	vt.sample = many_rows;
	tu_failalloc_init(&fa, 0);
	cr_assert_eq(qubo_solver_new_backend(&s, &vt, NULL, NULL, &fa.a), QUBO_OK);
	for (k = 1;; k++) {
		qubo_sampleset *set = (qubo_sampleset *)1;
		int rc;
		fa.failed = 0;
		fa.fail_at = fa.count + k;
		rc = qubo_solver_sample(&set, s, m);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
			cr_assert_eq(qubo_sampleset_size(set), 1);
			qubo_sampleset_free(set);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %d", k, rc);
		cr_assert_null(set);
	}
	fa.fail_at = 0;
	qubo_solver_free(s);
	cr_assert_eq(fa.live, 0);
	qubo_model_free(m);
}
