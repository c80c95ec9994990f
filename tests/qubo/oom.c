/*
 * Out of memory: a scenario that builds, penalises, compiles, writes and
 * reads back a model is rerun with allocation k failing, for k = 1, 2, …
 * until a run succeeds. Every failing run must return QUBO_ERR_NOMEM, leave
 * the objects it has usable, and leak nothing.
 */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_qbsolv_read(_file), until they are removed */
#include <criterion/criterion.h>
#include <string.h>

#include "util.h"

#define NV 12

static int scenario(const qubo_allocator *a, qubo_model **mp, qubo_model **rp, char *buf,
		    size_t cap)
{
	qubo_lit row[4], col[3], pairs[4];
	int64_t coef[4] = { 1, 2, -1, 3 };
	size_t len;
	uint32_t first, nslack;
	int rc, i;

	rc = qubo_model_new(mp, NV, a);
	if (rc)
		return rc;
	for (i = 0; i < 4; i++)
		row[i] = QUBO_LIT((uint32_t)i);
	col[0] = QUBO_LIT(4);
	col[1] = QUBO_LIT_NEG(5);
	col[2] = QUBO_LIT_TRUE;
	pairs[0] = QUBO_LIT(6);
	pairs[1] = QUBO_LIT(7);
	pairs[2] = QUBO_LIT_NEG(8);
	pairs[3] = QUBO_LIT(9);
	if ((rc = qubo_penalty_exactly(*mp, row, 4, 1, 2.0)) ||
	    (rc = qubo_penalty_at_most_one(*mp, col, 3, 1.5)) ||
	    (rc = qubo_model_compile(*mp)) ||
	    (rc = qubo_penalty_conflicts(*mp, pairs, 2, 1.0)) ||
	    (rc = qubo_model_add_group(*mp, 10, 2)) ||
	    (rc = qubo_penalty_range(*mp, row, coef, 4, 0, 4, 1.0, &first, &nslack)) ||
	    (rc = qubo_model_add_quadratic(*mp, 10, 11, -0.5)) ||
	    (rc = qubo_model_compile(*mp)))
		return rc;
	rc = qubo_qbsolv_write(*mp, buf, cap, &len);
	if (rc)
		return rc;
	return qubo_qbsolv_read(rp, buf, len, a);
}

Test(oom, every_allocation_failure_is_clean)
{
	static char buf[1 << 16];
	size_t k, failures = 0;

	for (k = 1; k < 100000; k++) {
		tu_failalloc fa;
		qubo_model *m = NULL, *r = NULL;
		int rc;

		tu_failalloc_init(&fa, k);
		rc = scenario(&fa.a, &m, &r, buf, sizeof buf);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
			cr_assert_not_null(r);
			qubo_model_free(m);
			qubo_model_free(r);
			cr_assert_eq(fa.live, 0);
			break;
		}
		failures++;
		/* a failed shrink may be absorbed; every other failure is NOMEM */
		if (rc != QUBO_OK) {
			cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu gave %s: %s", k,
				     qubo_status_name(rc), qubo_error_message());
			cr_assert_neq(qubo_error_message()[0], '\0');
			cr_assert_null(r);
		}
		if (m) { /* the model must still be usable */
			uint8_t *x;
			size_t n = qubo_model_num_variables(m);
			double e;
			fa.fail_at = 0;
			cr_assert_eq(qubo_model_compile(m), QUBO_OK, "allocation %zu", k);
			x = calloc(n, 1);
			cr_assert_eq(qubo_model_energy(m, x, n, &e), QUBO_OK);
			free(x);
		}
		qubo_model_free(m);
		qubo_model_free(r);
		cr_assert_eq(fa.live, 0, "allocation %zu leaked %zu blocks", k, fa.live);
	}
	cr_assert_gt(failures, 10, "the scenario should allocate more than 10 times");
}
