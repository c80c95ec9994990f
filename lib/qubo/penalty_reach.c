/*
 * Can a weighted sum of free literals reach a range? Exact subset sums
 * (penalty_impl.h).
 */
#include <stdlib.h>
#include <string.h>

#include "penalty_impl.h"

/* ------------------------------------------------------------------ */
/* Feasibility: can T = Σ a_i ℓ_i over free literals reach [lo, hi]? */

typedef struct term {
	qubo_lit lit;
	int64_t a;
} term;

static int cmp_term(const void *pa, const void *pb)
{
	qubo_lit a = ((const term *)pa)->lit, b = ((const term *)pb)->lit;
	return (a > b) - (a < b);
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
				ws[nz++] = qubo__pen_abs64(w[i]);
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
		int64_t x = qubo__pen_abs64(w[i]);
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
	if (qubo__pen_abs64(d) > *dmax)
		*dmax = qubo__pen_abs64(d);
}

/* Decides whether T = Σ a_i ℓ_i over m free literals (a NULL: all ones) can
 * take a value in [lo, hi], and gives T's exact range. The caller guarantees
 * Σ |a_i| <= 2^62. Returns QUBO_OK or QUBO_ERR_NOMEM. */
int qubo__pen_reach_window(const qubo_allocator *al, const qubo_lit *lits, const int64_t *a,
			   size_t m, int64_t lo, int64_t hi, qubo__pen_reach *out)
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
