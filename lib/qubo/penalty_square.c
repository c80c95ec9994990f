/*
 * Weighted squares (qubo_penalty_weighted_equal, qubo_penalty_range):
 * the rules of penalty.c's first comment hold.
 */
#include <stdlib.h>
#include <string.h>

#include "penalty_impl.h"

/* ------------------------------------------------------------------ */
/* Weighted squares: P (Σ a_i ℓ_i − b)² over free literals, optionally with
 * new slack variables. With ℓ = c + s·x (c = 1, s = −1 for a complement):
 *   P Σ a_i² ℓ_i − 2 P b Σ a_i ℓ_i + P b²   (ℓ² = ℓ)
 *   + Σ_{i<j} 2 P a_i a_j ℓ_i ℓ_j,
 * and ℓ_i ℓ_j = c_i c_j + s_i c_j x_i + c_i s_j x_j + s_i s_j x_i x_j for
 * distinct variables (ℓ·ℓ = ℓ, ℓ·ℓ̄ = 0 within one variable). The pairs go
 * into one batch; when the first nc literals share one coefficient (the
 * usual Σ ℓ over a neighbourhood) their pairs form one clique instead, so
 * they stay O(nc) to store. */

typedef struct square {
	const qubo_lit *lits; /* all literals: free ones, then slack */
	const double *a;
	size_t count;
	size_t nc;            /* lits[0..nc) have equal coefficients: clique */
	double b;
	double weight;
	size_t new_vars;      /* slack variables to append first */
} square;

static int add_square(qubo_model *model, const square *q, const char *fn)
{
	const qubo_allocator *al = &model->alloc;
	size_t n = q->count, nc = q->nc, i, j, maxp;
	double *lin;
	qubo__pen_batch pb;
	double P = q->weight, b = q->b, off, cl = 0.0, bound = 0.0;
	int rc = QUBO_OK, finite = 1;

	if (n > UINT32_MAX)
		return qubo__too_large(QUBO_LIMIT_TERM_LITERALS, UINT32_MAX, "%s: %zu literals", fn,
				       n);
	/* P (Σ |a_i| + |b|)² bounds every partial sum below. */
	for (i = 0; i < n; i++)
		bound += q->a[i] < 0 ? -q->a[i] : q->a[i];
	bound += b < 0 ? -b : b;
	if (!qubo__is_finite(4.0 * P * bound * bound))
		return qubo__pen_overflow_error(fn);
	maxp = n * (n - (n > 0)) / 2 - nc * (nc - (nc > 0)) / 2;
	if (maxp > SIZE_MAX / (2 * sizeof(uint32_t) + sizeof(double)))
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
				       "%s: %zu literals need too many pairs", fn, n);
	lin = qubo__calloc_array(al, n, sizeof *lin);
	if (!qubo__pen_batch_init(al, &pb, maxp) || !lin) {
		rc = qubo__nomem("a penalty's pairwise terms");
		goto out;
	}

	off = P * (b * b);
	if (nc >= 2)
		cl = 2.0 * P * (q->a[0] * q->a[0]);
	for (i = 0; i < n; i++) {
		double ci, si, wl = P * (q->a[i] * q->a[i] - 2.0 * b * q->a[i]);
		qubo__pen_lit_parts(q->lits[i], &ci, &si);
		off += wl * ci;
		lin[i] += wl * si;
	}
	for (i = 0; i < n; i++) {
		double ci, si;
		qubo__pen_lit_parts(q->lits[i], &ci, &si);
		for (j = i < nc ? nc : i + 1; j < n; j++) {
			double cj, sj, wq, w = 2.0 * P * (q->a[i] * q->a[j]);
			if (w == 0.0)
				continue;
			qubo__pen_lit_parts(q->lits[j], &cj, &sj);
			if (QUBO_LIT_VAR(q->lits[i]) == QUBO_LIT_VAR(q->lits[j])) {
				if (q->lits[i] == q->lits[j]) { /* ℓ·ℓ = ℓ */
					off += w * ci;
					lin[i] += w * si;
				} /* ℓ·ℓ̄ = 0 */
				continue;
			}
			wq = w * si * sj;
			finite &= qubo__is_finite(wq);
			qubo__pen_batch_push(&pb, q->lits[i], q->lits[j], wq);
			off += w * ci * cj;
			lin[i] += w * si * cj;
			lin[j] += w * ci * sj;
		}
	}
	finite &= qubo__is_finite(off) && qubo__is_finite(cl);
	for (i = 0; i < n; i++)
		finite &= qubo__is_finite(lin[i]);
	if (!finite) {
		rc = qubo__pen_overflow_error(fn);
		goto out;
	}

	/* Commit. After the reservation only add_variables can fail, and it
	 * is the first change. */
	rc = qubo__model_reserve(model, pb.n, cl != 0.0, cl != 0.0 ? nc : 0);
	if (!rc && q->new_vars)
		rc = qubo_model_add_variables(model, q->new_vars, NULL);
	if (rc)
		goto out;
	if (cl != 0.0)
		rc = qubo_model_add_clique(model, q->lits, nc, cl);
	if (!rc && pb.n)
		rc = qubo__pen_batch_commit(model, &pb);
	for (i = 0; i < n && !rc; i++)
		if (lin[i] != 0.0)
			rc = qubo_model_add_linear(model, QUBO_LIT_VAR(q->lits[i]), lin[i]);
	if (!rc && off != 0.0)
		rc = qubo_model_add_offset(model, off);
out:
	qubo__free(al, lin);
	qubo__pen_batch_free(al, &pb);
	return rc;
}

/* Nonzero when x is an integer of magnitude at most 2^52. */
static int is_small_int(double x)
{
	return x >= -(double)EXACT_LIMIT && x <= (double)EXACT_LIMIT && (double)(int64_t)x == x;
}

/* Integer data (small integer coefficients and rhs, Σ |a_i| <= 2^52):
 * every sum below is then an exact integer. */
static int integer_data(const double *a, size_t count, double rhs)
{
	double total = 0.0;
	size_t i;
	int integer = is_small_int(rhs);

	for (i = 0; i < count; i++) {
		integer = integer && is_small_int(a[i]);
		total += a[i] < 0 ? -a[i] : a[i];
	}
	return integer && total <= (double)EXACT_LIMIT;
}

/* The free terms of a weighted sum, in scratch arrays with room for extra
 * (slack) terms after them; ia mirrors a when the data are integers. */
typedef struct terms {
	qubo_lit *lits;
	double *a;
	int64_t *ia; /* NULL unless integer */
	size_t m;
} terms;

static int terms_init(const qubo_allocator *al, terms *t, size_t count, size_t extra,
		      int integer)
{
	t->m = 0;
	t->lits = qubo__malloc_array(al, count + extra, sizeof *t->lits);
	t->a = qubo__malloc_array(al, count + extra, sizeof *t->a);
	t->ia = integer ? qubo__malloc_array(al, count, sizeof *t->ia) : NULL;
	if (!t->lits || !t->a || (integer && !t->ia))
		return qubo__nomem("a penalty's literals");
	return QUBO_OK;
}

/* Appends a free term; with ia, a is an integer of magnitude <= 2^52. */
static void terms_push(terms *t, qubo_lit l, double a)
{
	t->lits[t->m] = l;
	t->a[t->m] = a;
	if (t->ia)
		t->ia[t->m] = (int64_t)a;
	t->m++;
}

static void terms_free(const qubo_allocator *al, terms *t)
{
	qubo__free(al, t->lits);
	qubo__free(al, t->a);
	qubo__free(al, t->ia);
}

/* P (Σ t − b)² over the free terms and nslack slack terms after them. */
static void square_init(square *q, const terms *t, size_t nslack, double b, double weight)
{
	size_t i;

	q->lits = t->lits;
	q->a = t->a;
	q->count = t->m + nslack;
	q->nc = t->m;
	for (i = 1; i < t->m; i++)
		if (t->a[i] != t->a[0])
			q->nc = 0;
	q->b = b;
	q->weight = weight;
	q->new_vars = nslack;
}

int qubo_penalty_weighted_equal(qubo_model *model, const qubo_lit *lits, const double *coeffs,
				size_t count, double rhs, double weight)
{
	static const char fn[] = "qubo_penalty_weighted_equal";
	double b = rhs;
	size_t i;
	int rc;
	terms t;
	square q;
	qubo__pen_reach r;

	rc = qubo__pen_check_weighted_args(model, weight, lits, coeffs, count, fn);
	if (!rc)
		rc = qubo__pen_check_finite(coeffs, count, fn, "coeffs");
	if (!rc && !qubo__is_finite(rhs))
		rc = qubo__error(QUBO_ERR_INVALID_ARG, "%s: rhs is %s", fn,
				 qubo__pen_nan_or_inf(rhs));
	if (rc)
		return rc;

	rc = terms_init(&model->alloc, &t, count, 0, integer_data(coeffs, count, rhs));
	if (rc)
		goto out;
	for (i = 0; i < count; i++) {
		if (lits[i] == QUBO_LIT_TRUE)
			b -= coeffs[i];
		else if (qubo__pen_is_free(lits[i]) && coeffs[i] != 0.0)
			terms_push(&t, lits[i], coeffs[i]);
	}
	if (t.ia) {
		rc = qubo__pen_reach_window(&model->alloc, t.lits, t.ia, t.m, (int64_t)b,
					    (int64_t)b, &r);
		if (!rc && r.verdict == REACH_NO)
			rc = qubo__error(QUBO_ERR_INFEASIBLE,
					 "%s: no assignment makes the sum equal %.17g (after the "
					 "constants, the %zu free terms give %" PRId64 " to %"
					 PRId64 "%s)", fn, rhs, t.m, r.min, r.max,
					 r.min <= (int64_t)b && (int64_t)b <= r.max ?
					 ", but never this value" : "");
		if (rc)
			goto out;
	}
	square_init(&q, &t, 0, b, weight);
	rc = add_square(model, &q, fn);
out:
	terms_free(&model->alloc, &t);
	return rc;
}

/* Each |coeffs[i]| <= 2^52, and so is their sum. */
static int check_range_coeffs(const int64_t *coeffs, size_t count, const char *fn)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		if (coeffs[i] > EXACT_LIMIT || coeffs[i] < -EXACT_LIMIT)
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s: coeffs[%zu] = %" PRId64 " exceeds 2^52 in "
					   "magnitude", fn, i, coeffs[i]);
		total += (uint64_t)qubo__pen_abs64(coeffs[i]);
		if (total > (uint64_t)EXACT_LIMIT)
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s: the sum of |coeffs| exceeds 2^52 at coeffs[%zu]",
					   fn, i);
	}
	return QUBO_OK;
}

/* Adds P (Σ t − lo − Σ c_k s_k)² with slack bits s_k (Σ c_k = span) as new
 * variables, which form one group. */
static int add_range_square(qubo_model *model, terms *t, int64_t lo, int64_t span, double weight,
			    uint32_t *nslack_out, const char *fn)
{
	size_t nv = model->n;
	uint32_t nslack = 0, k;
	square q;
	int rc;

	while (nslack < 63 && ((int64_t)1 << nslack) - 1 < span)
		nslack++;
	if (nv + nslack >= QUBO_MAX_VARIABLES)
		return qubo__too_large(QUBO_LIMIT_VARIABLE_INDEX, QUBO_MAX_VARIABLES - 1,
				       "%s: %u slack variables would exceed the variable limit", fn,
				       nslack);
	for (k = 0; k < nslack; k++) {
		int64_t ck = k + 1 < nslack ? (int64_t)1 << k
					     : span - (((int64_t)1 << k) - 1);
		t->lits[t->m + k] = QUBO_LIT((uint32_t)(nv + k));
		t->a[t->m + k] = -(double)ck;
	}
	square_init(&q, t, nslack, (double)lo, weight);
	/* the slack bits form a group (qubo_model_add_group): room first, so
	 * that nothing can fail once the square is in */
	rc = qubo__model_reserve_groups(model, 1);
	if (!rc)
		rc = add_square(model, &q, fn);
	if (rc)
		return rc;
	if (nslack)
		qubo__model_push_group(model, (uint32_t)nv, nslack);
	*nslack_out = nslack;
	return QUBO_OK;
}

int qubo_penalty_range(qubo_model *model, const qubo_lit *lits, const int64_t *coeffs,
		       size_t count, int64_t lo, int64_t hi, double weight,
		       uint32_t *first_slack_out, uint32_t *num_slack_out)
{
	static const char fn[] = "qubo_penalty_range";
	int64_t c = 0, l2, h2;
	uint32_t nslack = 0;
	size_t i, nv;
	int rc;
	terms t;
	qubo__pen_reach r;

	rc = qubo__pen_check_weighted_args(model, weight, lits, coeffs, count, fn);
	if (rc)
		return rc;
	if (hi < lo)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: hi = %" PRId64 " is below lo = %" PRId64, fn, hi, lo);
	rc = check_range_coeffs(coeffs, count, fn);
	if (rc)
		return rc;

	rc = terms_init(&model->alloc, &t, count, 64, 1);
	if (rc)
		goto out;
	for (i = 0; i < count; i++) {
		if (lits[i] == QUBO_LIT_TRUE)
			c += coeffs[i];
		else if (qubo__pen_is_free(lits[i]) && coeffs[i] != 0)
			terms_push(&t, lits[i], (double)coeffs[i]);
	}
	/* |T| <= 2^52, so clamping the bounds to ±2^53 keeps the feasible set
	 * and makes the subtraction safe. */
	l2 = lo < -2 * EXACT_LIMIT ? -2 * EXACT_LIMIT : lo;
	h2 = hi > 2 * EXACT_LIMIT ? 2 * EXACT_LIMIT : hi;
	if (l2 > h2) { /* both beyond the same side */
		l2 = h2 = hi < 0 ? -2 * EXACT_LIMIT : 2 * EXACT_LIMIT;
	}
	rc = qubo__pen_reach_window(&model->alloc, t.lits, t.ia, t.m, l2 - c, h2 - c, &r);
	if (rc)
		goto out;
	if (r.verdict == REACH_NO) {
		rc = qubo__error(QUBO_ERR_INFEASIBLE,
				 "%s: no assignment puts the sum in [%" PRId64 ", %" PRId64 "] "
				 "(it ranges over %" PRId64 " to %" PRId64 "%s)", fn, lo, hi,
				 r.min + c, r.max + c,
				 r.min + c <= hi && lo <= r.max + c ? ", but misses the range"
								      : "");
		goto out;
	}
	/* Tighten to the reachable range: same feasible set, fewer slack bits. */
	l2 = l2 - c > r.min ? l2 - c : r.min;
	h2 = h2 - c < r.max ? h2 - c : r.max;
	nv = model->n;
	/* When every assignment satisfies the bounds there is nothing to add. */
	if (l2 != r.min || h2 != r.max)
		rc = add_range_square(model, &t, l2, h2 - l2, weight, &nslack, fn);
	if (rc)
		goto out;
	if (first_slack_out)
		*first_slack_out = (uint32_t)nv;
	if (num_slack_out)
		*num_slack_out = nslack;
out:
	terms_free(&model->alloc, &t);
	return rc;
}
