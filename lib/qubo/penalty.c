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
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "qubo/penalty.h"

/* 2^52: integers up to this size, and their sums, are exact doubles. */
#define EXACT_LIMIT ((int64_t)1 << 52)

/* Exact subset-sum search limits (feasibility of weighted sums). */
#define ENUM_SMALL 16     /* always enumerate up to 2^16 subsets */
#define ENUM_LARGE 20     /* enumerate up to 2^20 subsets if the DP is too big */
#define DP_MAX_WORDS ((size_t)1 << 16)  /* bitset of at most 512 KiB */
#define DP_MAX_WORK ((size_t)1 << 24)   /* words × items */

enum { REACH_NO = 0, REACH_YES = 1, REACH_UNKNOWN = 2 };

/* ------------------------------------------------------------------ */
/* Validation */

static int check_model(const qubo_model *m, const char *fn)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	return QUBO_OK;
}

static int check_penalty_weight(double w, const char *fn)
{
	if (w != w)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: weight is NaN; it must be finite and > 0", fn);
	if (!qubo__is_finite(w) || !(w > 0.0))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: weight is %g; it must be finite and > 0", fn, w);
	return QUBO_OK;
}

static int check_lit_at(const qubo_model *m, qubo_lit l, const char *fn, const char *name,
			size_t pos)
{
	if (QUBO_LIT_IS_CONST(l) || QUBO_LIT_VAR(l) < m->n)
		return QUBO_OK;
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: %s[%zu] names variable %u, but the model has %zu variables", fn,
			   name, pos, QUBO_LIT_VAR(l), m->n);
}

static int check_lit_named(const qubo_model *m, qubo_lit l, const char *fn, const char *name)
{
	if (QUBO_LIT_IS_CONST(l) || QUBO_LIT_VAR(l) < m->n)
		return QUBO_OK;
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: literal %s names variable %u, but the model has %zu variables",
			   fn, name, QUBO_LIT_VAR(l), m->n);
}

static int check_array(const void *p, size_t count, const char *fn, const char *name)
{
	if (count && !p)
		return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL with count %zu", fn, name,
				   count);
	return QUBO_OK;
}

static int check_lits(const qubo_model *m, const qubo_lit *lits, size_t count, const char *fn,
		      const char *name)
{
	size_t i;
	int rc = check_array(lits, count, fn, name);

	for (i = 0; i < count && !rc; i++)
		rc = check_lit_at(m, lits[i], fn, name, i);
	return rc;
}

static const char *nan_or_inf(double x)
{
	return x != x ? "NaN" : "infinite";
}

static int check_finite(const double *x, size_t count, const char *fn, const char *name)
{
	size_t i;
	int rc = QUBO_OK;

	for (i = 0; i < count && !rc; i++)
		if (!qubo__is_finite(x[i]))
			rc = qubo__error(QUBO_ERR_INVALID_ARG, "%s: %s[%zu] is %s", fn, name, i,
					 nan_or_inf(x[i]));
	return rc;
}

static int check_model_weight(const qubo_model *m, double weight, const char *fn)
{
	int rc = check_model(m, fn);

	return rc ? rc : check_penalty_weight(weight, fn);
}

/* The usual prologue: the model, the weight, then lits[0..count). */
static int check_penalty_args(const qubo_model *m, double weight, const qubo_lit *lits,
			      size_t count, const char *fn)
{
	int rc = check_model_weight(m, weight, fn);

	return rc ? rc : check_lits(m, lits, count, fn, "lits");
}

/* The prologue of a weighted sum: as above, then coeffs[0..count). */
static int check_weighted_args(const qubo_model *m, double weight, const qubo_lit *lits,
			       const void *coeffs, size_t count, const char *fn)
{
	int rc = check_penalty_args(m, weight, lits, count, fn);

	return rc ? rc : check_array(coeffs, count, fn, "coeffs");
}

/* The model, the weight, then the literals a and b. */
static int check_pair_args(const qubo_model *m, double weight, qubo_lit a, qubo_lit b,
			   const char *fn)
{
	int rc = check_model_weight(m, weight, fn);

	if (!rc)
		rc = check_lit_named(m, a, fn, "a");
	return rc ? rc : check_lit_named(m, b, fn, "b");
}

/* Reports a derived weight that overflowed. */
static int overflow_error(const char *fn)
{
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: the terms' weights overflow a double (weight or coefficients "
			   "too large)", fn);
}

static int is_free(qubo_lit l)
{
	return !QUBO_LIT_IS_CONST(l);
}

/* ------------------------------------------------------------------ */
/* Feasibility: can T = Σ a_i ℓ_i over free literals reach [lo, hi]? */

typedef struct reach {
	int64_t min, max; /* exact range of T over all assignments */
	int verdict;      /* REACH_NO, REACH_YES or REACH_UNKNOWN */
} reach;

typedef struct term {
	qubo_lit lit;
	int64_t a;
} term;

static int cmp_term(const void *pa, const void *pb)
{
	qubo_lit a = ((const term *)pa)->lit, b = ((const term *)pb)->lit;
	return (a > b) - (a < b);
}

static int64_t abs64(int64_t x)
{
	return x < 0 ? -x : x;
}

/* Is some subset sum of |w_i| (g items, total W) inside [lo, hi], with
 * 0 <= lo <= hi <= W? Sets *verdict; returns QUBO_OK or QUBO_ERR_NOMEM. */
static int subset_hits(const qubo_allocator *al, const int64_t *w, size_t g, int64_t total,
		       int64_t lo, int64_t hi, int *verdict)
{
	int64_t ws[ENUM_LARGE];
	size_t nz = 0, i, words;
	uint64_t *bits;
	int big;

	if (lo == 0) {
		*verdict = REACH_YES;
		return QUBO_OK;
	}
	for (i = 0; i < g; i++)
		if (w[i])
			nz++;
	words = (size_t)(total / 64) + 1;
	big = words > DP_MAX_WORDS || nz > DP_MAX_WORK / words;
	if (nz <= ENUM_SMALL || (nz <= ENUM_LARGE && big)) {
		/* Gray-code walk over all subsets. */
		uint8_t on[ENUM_LARGE] = { 0 };
		uint64_t s, total_sets;
		int64_t sum = 0;

		for (i = 0, nz = 0; i < g; i++)
			if (w[i])
				ws[nz++] = abs64(w[i]);
		total_sets = (uint64_t)1 << nz;
		for (s = 1; s < total_sets; s++) {
			unsigned b = 0;
			while (!((s >> b) & 1u))
				b++;
			sum += on[b] ? -ws[b] : ws[b];
			on[b] ^= 1u;
			if (sum >= lo && sum <= hi) {
				*verdict = REACH_YES;
				return QUBO_OK;
			}
		}
		*verdict = REACH_NO;
		return QUBO_OK;
	}
	if (big) {
		*verdict = REACH_UNKNOWN;
		return QUBO_OK;
	}
	/* Bitset DP: bit t set when some subset sums to t. */
	bits = qubo__calloc_array(al, words, sizeof *bits);
	if (!bits)
		return qubo__nomem("a feasibility check");
	bits[0] = 1;
	for (i = 0; i < g; i++) {
		int64_t x = abs64(w[i]);
		size_t q = (size_t)(x / 64), r = (size_t)(x % 64), j;

		if (!x)
			continue;
		for (j = words; j-- > q;) {
			uint64_t v = bits[j - q] << r;
			if (r && j - q > 0)
				v |= bits[j - q - 1] >> (64 - r);
			bits[j] |= v;
		}
	}
	*verdict = REACH_NO;
	for (; lo <= hi; lo++)
		if ((bits[lo / 64] >> (lo % 64)) & 1u) {
			*verdict = REACH_YES;
			break;
		}
	qubo__free(al, bits);
	return QUBO_OK;
}

/* Adds a variable's net coefficient d to T's range [mn, mx] and step bound. */
static void add_delta(int64_t d, int64_t *mn, int64_t *mx, int64_t *dmax)
{
	if (d < 0)
		*mn += d;
	else
		*mx += d;
	if (abs64(d) > *dmax)
		*dmax = abs64(d);
}

/* Decides whether T = Σ a_i ℓ_i over m free literals (a NULL: all ones) can
 * take a value in [lo, hi], and gives T's exact range. The caller guarantees
 * Σ |a_i| <= 2^62. Returns QUBO_OK or QUBO_ERR_NOMEM. */
static int reach_window(const qubo_allocator *al, const qubo_lit *lits, const int64_t *a,
			size_t m, int64_t lo, int64_t hi, reach *out)
{
	term *t = NULL;
	int64_t *ds = NULL;
	const int64_t *w;
	int64_t base = 0, mn, mx, dmax = 0, l2, h2;
	size_t i, j, g = 0;
	int sorted = 1, rc = QUBO_OK;

	for (i = 1; i < m && sorted; i++)
		sorted = QUBO_LIT_VAR(lits[i]) > QUBO_LIT_VAR(lits[i - 1]);
	mn = mx = 0;
	if (sorted) {
		/* Distinct variables: d_i = ±a_i. */
		for (i = 0; i < m; i++) {
			int64_t ai = a ? a[i] : 1;
			int64_t d = QUBO_LIT_IS_NEG(lits[i]) ? -ai : ai;
			if (QUBO_LIT_IS_NEG(lits[i]))
				base += ai;
			add_delta(d, &mn, &mx, &dmax);
		}
		w = a;
		g = m;
	} else {
		t = qubo__malloc_array(al, m, sizeof *t);
		ds = qubo__malloc_array(al, m, sizeof *ds);
		if (!t || !ds) {
			rc = qubo__nomem("a feasibility check");
			goto out;
		}
		for (i = 0; i < m; i++) {
			t[i].lit = lits[i];
			t[i].a = a ? a[i] : 1;
		}
		qsort(t, m, sizeof *t, cmp_term);
		for (i = 0; i < m; i = j) {
			uint32_t v = QUBO_LIT_VAR(t[i].lit);
			int64_t d = 0;
			for (j = i; j < m && QUBO_LIT_VAR(t[j].lit) == v; j++) {
				if (QUBO_LIT_IS_NEG(t[j].lit)) {
					base += t[j].a;
					d -= t[j].a;
				} else {
					d += t[j].a;
				}
			}
			add_delta(d, &mn, &mx, &dmax);
			ds[g++] = d;
		}
		w = ds;
	}
	out->min = base + mn;
	out->max = base + mx;
	l2 = lo > out->min ? lo : out->min;
	h2 = hi < out->max ? hi : out->max;
	if (l2 > h2)
		out->verdict = REACH_NO;
	else if (l2 == out->min || h2 == out->max || h2 - l2 + 1 >= dmax)
		/* Flipping one variable at a time from the minimum to the
		 * maximum moves T monotonically in steps of at most dmax, so a
		 * window of dmax consecutive values inside the range is hit. */
		out->verdict = REACH_YES;
	else if (!w)
		out->verdict = REACH_YES; /* unreachable: all ones means dmax <= 1 */
	else
		rc = subset_hits(al, w, g, out->max - out->min, l2 - out->min, h2 - out->min,
				 &out->verdict);
out:
	qubo__free(al, t);
	qubo__free(al, ds);
	return rc;
}

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
		if (!is_free(lits[i])) {
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
		if (is_free(lits[i]))
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
	reach r;
	int64_t kf = 0, lo, hi;
	double pair, lin, off, kd;
	size_t i;
	int rc;

	rc = check_penalty_args(model, weight, lits, count, fn);
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
	rc = reach_window(&model->alloc, f.lits, NULL, f.m, lo, hi, &r);
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
		rc = overflow_error(fn);
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

static void lit_parts(qubo_lit l, double *c, double *s)
{
	*c = QUBO_LIT_IS_NEG(l) ? 1.0 : 0.0;
	*s = QUBO_LIT_IS_NEG(l) ? -1.0 : 1.0;
}

/* Quadratic terms gathered for one qubo_model_add_quadratic_batch call. */
typedef struct batch {
	uint32_t *rows, *cols;
	double *ws;
	size_t n;
} batch;

/* Nonzero when room for cap terms could be allocated (all three arrays are
 * tried either way; batch_free releases them). */
static int batch_init(const qubo_allocator *al, batch *pb, size_t cap)
{
	pb->n = 0;
	pb->rows = qubo__malloc_array(al, cap, sizeof *pb->rows);
	pb->cols = qubo__malloc_array(al, cap, sizeof *pb->cols);
	pb->ws = qubo__malloc_array(al, cap, sizeof *pb->ws);
	return pb->rows && pb->cols && pb->ws;
}

/* Appends w x_u x_v over the variables of the literals u and v. */
static void batch_push(batch *pb, qubo_lit u, qubo_lit v, double w)
{
	pb->rows[pb->n] = QUBO_LIT_VAR(u);
	pb->cols[pb->n] = QUBO_LIT_VAR(v);
	pb->ws[pb->n++] = w;
}

static int batch_commit(qubo_model *model, const batch *pb)
{
	return qubo_model_add_quadratic_batch(model, pb->n, pb->rows, pb->cols, pb->ws);
}

static void batch_free(const qubo_allocator *al, batch *pb)
{
	qubo__free(al, pb->rows);
	qubo__free(al, pb->cols);
	qubo__free(al, pb->ws);
}

static int add_square(qubo_model *model, const square *q, const char *fn)
{
	const qubo_allocator *al = &model->alloc;
	size_t n = q->count, nc = q->nc, i, j, maxp;
	double *lin;
	batch pb;
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
		return overflow_error(fn);
	maxp = n * (n - (n > 0)) / 2 - nc * (nc - (nc > 0)) / 2;
	if (maxp > SIZE_MAX / (2 * sizeof(uint32_t) + sizeof(double)))
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
				       "%s: %zu literals need too many pairs", fn, n);
	lin = qubo__calloc_array(al, n, sizeof *lin);
	if (!batch_init(al, &pb, maxp) || !lin) {
		rc = qubo__nomem("a penalty's pairwise terms");
		goto out;
	}

	off = P * (b * b);
	if (nc >= 2)
		cl = 2.0 * P * (q->a[0] * q->a[0]);
	for (i = 0; i < n; i++) {
		double ci, si, wl = P * (q->a[i] * q->a[i] - 2.0 * b * q->a[i]);
		lit_parts(q->lits[i], &ci, &si);
		off += wl * ci;
		lin[i] += wl * si;
	}
	for (i = 0; i < n; i++) {
		double ci, si;
		lit_parts(q->lits[i], &ci, &si);
		for (j = i < nc ? nc : i + 1; j < n; j++) {
			double cj, sj, wq, w = 2.0 * P * (q->a[i] * q->a[j]);
			if (w == 0.0)
				continue;
			lit_parts(q->lits[j], &cj, &sj);
			if (QUBO_LIT_VAR(q->lits[i]) == QUBO_LIT_VAR(q->lits[j])) {
				if (q->lits[i] == q->lits[j]) { /* ℓ·ℓ = ℓ */
					off += w * ci;
					lin[i] += w * si;
				} /* ℓ·ℓ̄ = 0 */
				continue;
			}
			wq = w * si * sj;
			finite &= qubo__is_finite(wq);
			batch_push(&pb, q->lits[i], q->lits[j], wq);
			off += w * ci * cj;
			lin[i] += w * si * cj;
			lin[j] += w * ci * sj;
		}
	}
	finite &= qubo__is_finite(off) && qubo__is_finite(cl);
	for (i = 0; i < n; i++)
		finite &= qubo__is_finite(lin[i]);
	if (!finite) {
		rc = overflow_error(fn);
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
		rc = batch_commit(model, &pb);
	for (i = 0; i < n && !rc; i++)
		if (lin[i] != 0.0)
			rc = qubo_model_add_linear(model, QUBO_LIT_VAR(q->lits[i]), lin[i]);
	if (!rc && off != 0.0)
		rc = qubo_model_add_offset(model, off);
out:
	qubo__free(al, lin);
	batch_free(al, &pb);
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
	reach r;

	rc = check_weighted_args(model, weight, lits, coeffs, count, fn);
	if (!rc)
		rc = check_finite(coeffs, count, fn, "coeffs");
	if (!rc && !qubo__is_finite(rhs))
		rc = qubo__error(QUBO_ERR_INVALID_ARG, "%s: rhs is %s", fn, nan_or_inf(rhs));
	if (rc)
		return rc;

	rc = terms_init(&model->alloc, &t, count, 0, integer_data(coeffs, count, rhs));
	if (rc)
		goto out;
	for (i = 0; i < count; i++) {
		if (lits[i] == QUBO_LIT_TRUE)
			b -= coeffs[i];
		else if (is_free(lits[i]) && coeffs[i] != 0.0)
			terms_push(&t, lits[i], coeffs[i]);
	}
	if (t.ia) {
		rc = reach_window(&model->alloc, t.lits, t.ia, t.m, (int64_t)b, (int64_t)b, &r);
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
		total += (uint64_t)abs64(coeffs[i]);
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
	reach r;

	rc = check_weighted_args(model, weight, lits, coeffs, count, fn);
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
		else if (is_free(lits[i]) && coeffs[i] != 0)
			terms_push(&t, lits[i], (double)coeffs[i]);
	}
	/* |T| <= 2^52, so clamping the bounds to ±2^53 keeps the feasible set
	 * and makes the subtraction safe. */
	l2 = lo < -2 * EXACT_LIMIT ? -2 * EXACT_LIMIT : lo;
	h2 = hi > 2 * EXACT_LIMIT ? 2 * EXACT_LIMIT : hi;
	if (l2 > h2) { /* both beyond the same side */
		l2 = h2 = hi < 0 ? -2 * EXACT_LIMIT : 2 * EXACT_LIMIT;
	}
	rc = reach_window(&model->alloc, t.lits, t.ia, t.m, l2 - c, h2 - c, &r);
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

/* ------------------------------------------------------------------ */
/* Two literals and three literals */

static int equal_penalty(qubo_model *model, qubo_lit a, qubo_lit b, double weight, int differ,
			 const char *fn)
{
	qubo_lit bb;
	int rc;

	rc = check_pair_args(model, weight, a, b, fn);
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
		return overflow_error(fn);
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

	rc = check_pair_args(model, weight, a, b, fn);
	if (!rc)
		rc = check_lit_named(model, c, fn, "c");
	if (rc)
		return rc;
	/* Two different literals can always be made to differ. */
	if (a == b && b == c)
		return qubo__error(QUBO_ERR_INFEASIBLE, "%s: a, b and c are the same %s", fn,
				   QUBO_LIT_IS_CONST(a) ? "constant" : "literal");
	if (!qubo__is_finite(4.0 * weight))
		return overflow_error(fn);
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
/* Conflict graphs */

/* An edge that can be violated at all: no end is the constant 0 and the ends
 * are not x and x̄. */
static int edge_active(qubo_lit u, qubo_lit v)
{
	return u != QUBO_LIT_FALSE && v != QUBO_LIT_FALSE && u != QUBO_LIT_NOT(v);
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* The implication-graph node of a free literal: 2·(rank of its variable)
 * plus its sign. */
static uint32_t sat_node(const uint32_t *vars, size_t nv, qubo_lit l)
{
	size_t lo = 0, hi = nv;
	uint32_t v = QUBO_LIT_VAR(l);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (vars[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)(2 * lo) | QUBO_LIT_IS_NEG(l);
}

/* Each active edge forbids ℓu ∧ ℓv, the clause (¬ℓu ∨ ¬ℓv): a 2-SAT
 * instance, satisfiable iff no variable shares a strongly connected
 * component of the implication graph with its complement (Tarjan,
 * iterative). */
static int conflicts_satisfiable(const qubo_allocator *al, const qubo_lit *e, size_t ne,
				 int *sat)
{
	const uint32_t none = UINT32_MAX;
	uint32_t *vars = NULL, *src = NULL, *dst = NULL, *adj = NULL, *idx = NULL;
	uint32_t *low = NULL, *comp = NULL, *stk = NULL, *cnode = NULL;
	size_t *off = NULL, *cpos = NULL;
	size_t nv = 0, na = 0, nodes, i, j, sp = 0, cs = 0;
	uint32_t counter = 0, ncomp = 0, s;
	int rc = QUBO_OK;

	vars = qubo__malloc_array(al, 2 * ne, sizeof *vars);
	src = qubo__malloc_array(al, 2 * ne, sizeof *src);
	dst = qubo__malloc_array(al, 2 * ne, sizeof *dst);
	if (!vars || !src || !dst)
		goto nomem;
	for (i = 0; i < ne; i++) {
		if (!edge_active(e[2 * i], e[2 * i + 1]))
			continue;
		for (j = 0; j < 2; j++)
			if (is_free(e[2 * i + j]))
				vars[nv++] = QUBO_LIT_VAR(e[2 * i + j]);
	}
	qsort(vars, nv, sizeof *vars, cmp_u32);
	for (i = 0, j = 0; i < nv; i++)
		if (!j || vars[i] != vars[j - 1])
			vars[j++] = vars[i];
	nv = j;
	nodes = 2 * nv;
	for (i = 0; i < ne; i++) {
		qubo_lit u = e[2 * i], v = e[2 * i + 1];
		if (!edge_active(u, v))
			continue;
		if (u == QUBO_LIT_TRUE || v == QUBO_LIT_TRUE) { /* unit clause ¬ℓ */
			uint32_t x = sat_node(vars, nv, u == QUBO_LIT_TRUE ? v : u);
			src[na] = x;
			dst[na++] = x ^ 1u;
		} else {
			uint32_t x = sat_node(vars, nv, u), y = sat_node(vars, nv, v);
			src[na] = x;
			dst[na++] = y ^ 1u;
			src[na] = y;
			dst[na++] = x ^ 1u;
		}
	}
	off = qubo__calloc_array(al, nodes + 1, sizeof *off);
	adj = qubo__malloc_array(al, na, sizeof *adj);
	idx = qubo__malloc_array(al, nodes, sizeof *idx);
	low = qubo__malloc_array(al, nodes, sizeof *low);
	comp = qubo__malloc_array(al, nodes, sizeof *comp);
	stk = qubo__malloc_array(al, nodes, sizeof *stk);
	cnode = qubo__malloc_array(al, nodes, sizeof *cnode);
	cpos = qubo__malloc_array(al, nodes, sizeof *cpos);
	if (!off || !adj || !idx || !low || !comp || !stk || !cnode || !cpos)
		goto nomem;
	for (i = 0; i < na; i++)
		off[src[i] + 1]++;
	for (i = 0; i < nodes; i++)
		off[i + 1] += off[i];
	for (i = 0; i < nodes; i++) /* cpos: fill cursors, reused below */
		cpos[i] = off[i];
	for (i = 0; i < na; i++)
		adj[cpos[src[i]]++] = dst[i];
	for (i = 0; i < nodes; i++)
		idx[i] = comp[i] = none;
	for (s = 0; s < nodes; s++) {
		if (idx[s] != none)
			continue;
		idx[s] = low[s] = counter++;
		stk[sp++] = s;
		cnode[cs] = s;
		cpos[cs++] = off[s];
		while (cs) {
			uint32_t v = cnode[cs - 1];
			if (cpos[cs - 1] < off[v + 1]) {
				uint32_t w = adj[cpos[cs - 1]++];
				if (idx[w] == none) {
					idx[w] = low[w] = counter++;
					stk[sp++] = w;
					cnode[cs] = w;
					cpos[cs++] = off[w];
				} else if (comp[w] == none && idx[w] < low[v]) {
					low[v] = idx[w];
				}
			} else {
				cs--;
				if (low[v] == idx[v]) {
					uint32_t w;
					do {
						w = stk[--sp];
						comp[w] = ncomp;
					} while (w != v);
					ncomp++;
				}
				if (cs && low[v] < low[cnode[cs - 1]])
					low[cnode[cs - 1]] = low[v];
			}
		}
	}
	*sat = 1;
	for (i = 0; i < nv; i++)
		if (comp[2 * i] == comp[2 * i + 1])
			*sat = 0;
	goto out;
nomem:
	rc = qubo__nomem("a conflict graph's feasibility check");
out:
	qubo__free(al, vars);
	qubo__free(al, src);
	qubo__free(al, dst);
	qubo__free(al, off);
	qubo__free(al, adj);
	qubo__free(al, idx);
	qubo__free(al, low);
	qubo__free(al, comp);
	qubo__free(al, stk);
	qubo__free(al, cnode);
	qubo__free(al, cpos);
	return rc;
}

int qubo_penalty_conflicts(qubo_model *model, const qubo_lit *pairs, size_t num_edges,
			   double weight)
{
	static const char fn[] = "qubo_penalty_conflicts";
	const qubo_allocator *al;
	double off = 0.0;
	size_t i, np = 0;
	batch pb;
	int rc, has_pos = 0, has_neg = 0, sat = 1;

	rc = check_model_weight(model, weight, fn);
	if (rc)
		return rc;
	if (num_edges > SIZE_MAX / 2 / sizeof(uint32_t))
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX, "%s: %zu edges", fn,
				       num_edges);
	rc = check_lits(model, pairs, 2 * num_edges, fn, "pairs");
	if (rc)
		return rc;
	if (!qubo__is_finite(2.0 * weight * (double)num_edges))
		return overflow_error(fn);
	for (i = 0; i < num_edges; i++) {
		qubo_lit u = pairs[2 * i], v = pairs[2 * i + 1];
		if (u == QUBO_LIT_TRUE && v == QUBO_LIT_TRUE)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "%s: edge %zu joins two constants 1", fn, i);
		if (!edge_active(u, v))
			continue;
		if (is_free(u) && is_free(v) && QUBO_LIT_VAR(u) != QUBO_LIT_VAR(v))
			np++;
		has_pos |= (is_free(u) && !QUBO_LIT_IS_NEG(u)) ||
			   (is_free(v) && !QUBO_LIT_IS_NEG(v));
		has_neg |= (is_free(u) && QUBO_LIT_IS_NEG(u)) ||
			   (is_free(v) && QUBO_LIT_IS_NEG(v));
	}
	al = &model->alloc;
	/* With one polarity only, all 0 (or all 1) satisfies every edge. */
	if (has_pos && has_neg) {
		rc = conflicts_satisfiable(al, pairs, num_edges, &sat);
		if (rc)
			return rc;
		if (!sat)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "%s: the edges cannot all be respected (through "
					   "complements and constants they force some variable "
					   "both ways)", fn);
	}
	if (!batch_init(al, &pb, np)) {
		rc = qubo__nomem("a conflict graph's terms");
		goto out;
	}
	for (i = 0; i < num_edges; i++) {
		qubo_lit u = pairs[2 * i], v = pairs[2 * i + 1];
		double cu, su, cv, sv;
		if (!edge_active(u, v) || !is_free(u) || !is_free(v) ||
		    QUBO_LIT_VAR(u) == QUBO_LIT_VAR(v))
			continue;
		lit_parts(u, &cu, &su);
		lit_parts(v, &cv, &sv);
		batch_push(&pb, u, v, weight * su * sv);
		off += weight * cu * cv;
	}
	/* Commit: the batch is the only call that allocates. */
	rc = batch_commit(model, &pb);
	for (i = 0; i < num_edges && !rc; i++) {
		qubo_lit u = pairs[2 * i], v = pairs[2 * i + 1];
		double cu, su, cv, sv;
		if (!edge_active(u, v))
			continue;
		if (u == QUBO_LIT_TRUE || v == QUBO_LIT_TRUE) {
			rc = qubo_model_add_lit(model, u == QUBO_LIT_TRUE ? v : u, weight);
			continue;
		}
		if (u == v) { /* ℓ·ℓ = ℓ */
			rc = qubo_model_add_lit(model, u, weight);
			continue;
		}
		lit_parts(u, &cu, &su);
		lit_parts(v, &cv, &sv);
		if (cv != 0.0)
			rc = qubo_model_add_linear(model, QUBO_LIT_VAR(u), weight * su * cv);
		if (!rc && cu != 0.0)
			rc = qubo_model_add_linear(model, QUBO_LIT_VAR(v), weight * cu * sv);
	}
	if (!rc && off != 0.0)
		rc = qubo_model_add_offset(model, off);
out:
	batch_free(al, &pb);
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

	rc = check_model(model, fn);
	if (!rc)
		rc = check_lits(model, lits, count, fn, "lits");
	if (!rc)
		rc = check_array(weights, count, fn, "weights");
	if (!rc)
		rc = check_finite(weights, count, fn, "weights");
	if (rc)
		return rc;
	/* Linear terms only: nothing here can fail any more. */
	for (i = 0; i < count && !rc; i++)
		rc = qubo_model_add_lit(model, lits[i], -weights[i]);
	return rc;
}
