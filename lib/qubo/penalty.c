/*
 * The penalty algebra (qubo/penalty.h): constraints over literals as
 * QUBO terms.
 *
 * Every function follows the same three steps:
 *   1. validate every argument (nothing touches the model yet);
 *   2. fold the constant literals and decide feasibility exactly where that
 *      is cheap (scratch memory only, through the model's allocator);
 *   3. commit: at most one model call that can allocate comes first (or the
 *      logs are reserved beforehand), then only calls that cannot fail after
 *      step 1 (qubo_model_add_lit / _add_linear / _add_offset, which write
 *      into the dense linear array and the offset).
 * So a failure at any point leaves the model exactly as it was.
 *
 * Penalties are written over the multiset of literals: ℓ² = ℓ and ℓ·ℓ̄ = 0
 * hold for every literal, constants included, so the expansions below are
 * exact even when a variable repeats or meets its own complement. Only the
 * feasibility decision needs to group literals by variable: with
 * ℓ = x or 1 − x, a sum T = Σ a_i ℓ_i is base + Σ_v d_v x_v, where d_v sums
 * +a_i over the positive and −a_i over the complemented occurrences of v.
 */
#include <stdlib.h>
#include <string.h>

#include "penalty_impl.h"

/* ------------------------------------------------------------------ */
/* Constant folding */

typedef struct folded {
	const qubo_lit *lits; /* the free literals: the caller's array or buf */
	size_t m;             /* how many */
	size_t ones;          /* constants equal to 1 */
	qubo_lit *buf;        /* owned copy when constants had to be removed */
} folded;

static int fold(const qubo_model *model, const qubo_lit *lits, size_t count, folded *f)
{
	size_t i, k = 0;

	f->lits = lits;
	f->m = count;
	f->ones = 0;
	f->buf = NULL;
	for (i = 0; i < count; i++) {
		if (!qubo__pen_is_free(lits[i])) {
			f->m--;
			f->ones += lits[i] == QUBO_LIT_TRUE;
		}
	}
	if (f->m == count)
		return QUBO_OK;
	f->buf = qubo__malloc_array(&model->alloc, f->m, sizeof *f->buf);
	if (!f->buf)
		return qubo__nomem("a penalty's literals");
	for (i = 0; i < count; i++)
		if (qubo__pen_is_free(lits[i]))
			f->buf[k++] = lits[i];
	f->lits = f->buf;
	return QUBO_OK;
}

/* ------------------------------------------------------------------ */
/* Count constraints: exactly k, at most one, k or k + 1. With S = c + S_f
 * (c constants equal to 1, S_f over the m free literals) each is
 *   pair · Σ_{i<j free} ℓ_i ℓ_j + lin · Σ_free ℓ_i + off,
 * which add_clique stores in O(m). */

enum count_kind { COUNT_EXACTLY, COUNT_AT_MOST_ONE, COUNT_K_OR_K1 };

static int count_penalty(qubo_model *model, const qubo_lit *lits, size_t count, int64_t k,
			 double weight, enum count_kind kind, int form, const char *fn)
{
	folded f;
	qubo__pen_reach r;
	int64_t kf = 0, lo, hi;
	double pair, lin, off, kd;
	size_t i;
	int rc;

	rc = qubo__pen_check_penalty_args(model, weight, lits, count, fn);
	if (rc)
		return rc;
	if (kind == COUNT_K_OR_K1 && form != QUBO_K_OR_K1_ZERO_BASED &&
	    form != QUBO_K_OR_K1_FRACTIONAL)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: form is %d, not a value of enum qubo_k_or_k1_form", fn,
				   form);
	if (count >= (size_t)1 << 62)
		return qubo__too_large(QUBO_LIMIT_TERM_LITERALS, ((uint64_t)1 << 62) - 1,
				       "%s: %zu literals", fn, count);
	/* S is in [0, count]: reject hopeless k before any arithmetic on it. */
	if (kind == COUNT_EXACTLY && (k < 0 || (uint64_t)k > count))
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "%s: exactly %" PRId64 " of %zu literals can never hold", fn, k,
				   count);
	if (kind == COUNT_K_OR_K1 && (k < -1 || (k >= 0 && (uint64_t)k > count)))
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "%s: %" PRId64 " or %" PRId64 " of %zu literals can never hold",
				   fn, k, k + 1, count);

	rc = fold(model, lits, count, &f);
	if (rc)
		return rc;
	if (kind == COUNT_AT_MOST_ONE) {
		if (f.ones >= 2) {
			rc = qubo__error(QUBO_ERR_INFEASIBLE,
					 "%s: %zu of the literals are the constant 1, at most "
					 "one may be true", fn, f.ones);
			goto out;
		}
		lo = INT64_MIN / 2;
		hi = 1 - (int64_t)f.ones;
	} else {
		kf = k - (int64_t)f.ones;
		lo = kf;
		hi = kind == COUNT_EXACTLY ? kf : kf + 1;
	}
	rc = qubo__pen_reach_window(&model->alloc, f.lits, NULL, f.m, lo, hi, &r);
	if (rc)
		goto out;
	if (r.verdict == REACH_NO) {
		if (kind == COUNT_AT_MOST_ONE)
			rc = qubo__error(QUBO_ERR_INFEASIBLE,
					 "%s: at least %" PRId64 " of the literals are true in "
					 "every assignment (a variable meets its complement)",
					 fn, r.min + (int64_t)f.ones);
		else if (kind == COUNT_EXACTLY)
			rc = qubo__error(QUBO_ERR_INFEASIBLE,
					 "%s: the number of true literals can never be %" PRId64
					 " (%zu are the constant 1; the %zu free ones give %"
					 PRId64 " to %" PRId64 "%s)", fn, k, f.ones, f.m, r.min,
					 r.max, r.max - r.min < (int64_t)f.m ? ", with gaps" : "");
		else
			rc = qubo__error(QUBO_ERR_INFEASIBLE,
					 "%s: the number of true literals can never be %" PRId64
					 " or %" PRId64 " (%zu are the constant 1; the %zu free "
					 "ones give %" PRId64 " to %" PRId64 "%s)", fn, k, k + 1,
					 f.ones, f.m, r.min, r.max,
					 r.max - r.min < (int64_t)f.m ? ", with gaps" : "");
		goto out;
	}

	kd = (double)kf;
	switch (kind) {
	case COUNT_EXACTLY: /* P (S_f − k')² */
		pair = 2.0 * weight;
		lin = weight * (1.0 - 2.0 * kd);
		off = weight * (kd * kd);
		break;
	case COUNT_AT_MOST_ONE: /* P Σ_{i<j} ℓ_i ℓ_j, the constant 1 (if any) included */
		pair = weight;
		lin = weight * (double)f.ones;
		off = 0.0;
		break;
	default: /* P (S_f − k')(S_f − k' − 1) [+ P/4] */
		pair = 2.0 * weight;
		lin = -2.0 * weight * kd;
		off = weight * (kd * (kd + 1.0));
		if (form == QUBO_K_OR_K1_FRACTIONAL)
			off += weight / 4.0;
		break;
	}
	/* |S_f − k'| <= 2m + 1 bounds every partial sum, here and in the
	 * model's expansion of the clique. */
	if (!qubo__is_finite(pair) || !qubo__is_finite(lin) || !qubo__is_finite(off) ||
	    !qubo__is_finite(4.0 * weight * ((double)f.m + 2.0) * ((double)f.m + 2.0))) {
		rc = qubo__pen_overflow_error(fn);
		goto out;
	}
	if (f.m > UINT32_MAX) {
		rc = qubo__too_large(QUBO_LIMIT_TERM_LITERALS, UINT32_MAX, "%s: %zu free literals",
				     fn, f.m);
		goto out;
	}

	/* Commit: the clique is the only call that can fail. */
	if (f.m >= 2) {
		rc = qubo_model_add_clique(model, f.lits, f.m, pair);
		if (rc)
			goto out;
	}
	for (i = 0; i < f.m && lin != 0.0 && !rc; i++)
		rc = qubo_model_add_lit(model, f.lits[i], lin);
	if (!rc && off != 0.0)
		rc = qubo_model_add_offset(model, off);
out:
	qubo__free(&model->alloc, f.buf);
	return rc;
}

int qubo_penalty_exactly(qubo_model *model, const qubo_lit *lits, size_t count, int64_t k,
			 double weight)
{
	return count_penalty(model, lits, count, k, weight, COUNT_EXACTLY, 0,
			     "qubo_penalty_exactly");
}

int qubo_penalty_at_most_one(qubo_model *model, const qubo_lit *lits, size_t count,
			     double weight)
{
	return count_penalty(model, lits, count, 0, weight, COUNT_AT_MOST_ONE, 0,
			     "qubo_penalty_at_most_one");
}

int qubo_penalty_k_or_k1(qubo_model *model, const qubo_lit *lits, size_t count, int64_t k,
			 double weight, int form)
{
	return count_penalty(model, lits, count, k, weight, COUNT_K_OR_K1, form,
			     "qubo_penalty_k_or_k1");
}

/* ------------------------------------------------------------------ */
/* Two literals and three literals */

static int equal_penalty(qubo_model *model, qubo_lit a, qubo_lit b, double weight, int differ,
			 const char *fn)
{
	qubo_lit bb;
	int rc;

	rc = qubo__pen_check_pair_args(model, weight, a, b, fn);
	if (rc)
		return rc;
	/* differ(a, b) = equal(a, b̄), the same polynomial. */
	bb = differ ? QUBO_LIT_NOT(b) : b;
	if (a == bb)
		return QUBO_OK; /* always holds: the terms cancel */
	if (a == QUBO_LIT_NOT(bb))
		return qubo__error(QUBO_ERR_INFEASIBLE, "%s: a and b %s", fn,
				   differ ? (QUBO_LIT_IS_CONST(a) ? "are the same constant"
							  : "are the same literal")
					  : (QUBO_LIT_IS_CONST(a) ? "are different constants"
								  : "are complements"));
	if (!qubo__is_finite(2.0 * weight))
		return qubo__pen_overflow_error(fn);
	/* P ℓa + P ℓb − 2P ℓa ℓb; the product is the only call that allocates. */
	rc = qubo_model_add_lit_product(model, a, bb, -2.0 * weight);
	if (!rc)
		rc = qubo_model_add_lit(model, a, weight);
	if (!rc)
		rc = qubo_model_add_lit(model, bb, weight);
	return rc;
}

int qubo_penalty_equal(qubo_model *model, qubo_lit a, qubo_lit b, double weight)
{
	return equal_penalty(model, a, b, weight, 0, "qubo_penalty_equal");
}

int qubo_penalty_differ(qubo_model *model, qubo_lit a, qubo_lit b, double weight)
{
	return equal_penalty(model, a, b, weight, 1, "qubo_penalty_differ");
}

int qubo_penalty_no_three_equal(qubo_model *model, qubo_lit a, qubo_lit b, qubo_lit c,
				double weight)
{
	static const char fn[] = "qubo_penalty_no_three_equal";
	qubo_lit l[3];
	int rc, i;

	rc = qubo__pen_check_pair_args(model, weight, a, b, fn);
	if (!rc)
		rc = qubo__pen_check_lit_named(model, c, fn, "c");
	if (rc)
		return rc;
	/* Two different literals can always be made to differ. */
	if (a == b && b == c)
		return qubo__error(QUBO_ERR_INFEASIBLE, "%s: a, b and c are the same %s", fn,
				   QUBO_LIT_IS_CONST(a) ? "constant" : "literal");
	if (!qubo__is_finite(4.0 * weight))
		return qubo__pen_overflow_error(fn);
	/* P (1 − a − b − c + ab + bc + ca); the clique is the only call that
	 * allocates. */
	l[0] = a;
	l[1] = b;
	l[2] = c;
	rc = qubo_model_add_clique(model, l, 3, weight);
	for (i = 0; i < 3 && !rc; i++)
		rc = qubo_model_add_lit(model, l[i], -weight);
	if (!rc)
		rc = qubo_model_add_offset(model, weight);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Rewards */

int qubo_penalty_reward(qubo_model *model, const qubo_lit *lits, const double *weights,
			size_t count)
{
	static const char fn[] = "qubo_penalty_reward";
	size_t i;
	int rc;

	rc = qubo__pen_check_model(model, fn);
	if (!rc)
		rc = qubo__pen_check_lits(model, lits, count, fn, "lits");
	if (!rc)
		rc = qubo__pen_check_array(weights, count, fn, "weights");
	if (!rc)
		rc = qubo__pen_check_finite(weights, count, fn, "weights");
	if (rc)
		return rc;
	/* Linear terms only: nothing here can fail any more. */
	for (i = 0; i < count && !rc; i++)
		rc = qubo_model_add_lit(model, lits[i], -weights[i]);
	return rc;
}
