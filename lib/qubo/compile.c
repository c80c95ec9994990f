/*
 * Compilation: merges the pending logs (and the previous compiled form) into
 * a fresh symmetric CSR with sorted rows, duplicates summed, exact zeros
 * dropped.
 *
 * Clique records are expanded row by row: row a is the merge of the sorted
 * member lists of the cliques containing a, so each row is written once,
 * sequentially and in column order, with duplicates summed as they meet;
 * the clique part needs no sorting. Single pairs and the previous compiled
 * form go into their own regions of each row and are merged with the clique
 * part only in the rows they touch. A final pass compacts the rows.
 *
 * Summation order for a coupler: previous compiled value, then clique
 * contributions by ascending source variable, then single pairs in the order
 * they were added.
 *
 * The passes over single pairs that write rows (scattering into rows, and
 * the sort and merge of each row) run on several threads when there are enough
 * pairs (pair_workers()). Each thread owns a range of rows: it reads the
 * whole pair log in order and handles only the entries of its rows, so
 * every row receives its pairs in the order they were added, whatever the
 * number of threads, and the merged sums are the same bit for bit. The
 * ranges of the merge pass are compacted each in place and then moved down
 * behind one another.
 *
 * Single pairs alone, with no clique record and nothing compiled before,
 * take a path of their own (compile_pairs()) that writes each pair once,
 * into the upper row of its smaller variable, through buckets of rows
 * that keep the writing in cache, with the same sums, and needs less
 * memory. There each thread counts and scatters a chunk of the log of its
 * own, at offsets that keep every bucket in the order of the log, and
 * then sorts and mirrors a range of buckets. When those pairs were added
 * in order of (i, j), as a file listed by rows gives them, the log
 * already is the sorted upper rows and compile_sorted() only sums,
 * counts, places and mirrors them.
 *
 * Every path also adds up the magnitudes of each merged row's entries above
 * the diagonal into rsum (one double a variable), in the row's own part, in
 * the order of abs_sum(); check_total() then adds the rows' sums the same
 * way, in order of row, so the weight sum (qubo/model.h) and the verdict on
 * it are the same at any number of threads.
 *
 * Everything is allocated before the model is touched, so a failure leaves
 * the model exactly as it was; so does a stop asked by the interrupt
 * function, which every pass polls as it goes (poll()). In the threaded
 * passes the calling thread runs the first range and polls it; the other
 * threads check a stop flag as often.
 */
#include <math.h>
#include <string.h>
#include <sys/mman.h>

#include <pthread.h>
#include <stdatomic.h>

#include "model_impl.h"
#include "pool.h"

/* Fewest single pairs for which the pair passes use more than one thread,
 * the most threads they use by default, and at all. */
#define PAR_MIN_PAIRS ((size_t)1 << 16)
#define PAR_DEFAULT_MAX 4
#define MAX_PARTS 64

/* The most chunks of the log counted and scattered at once (pairs in random
 * order): the counts of all but the first live in the work space that
 * waits for the layout, which holds three. */
#define MAX_CHUNKS 4

/* Most entries of a bucket of upper rows (pairs in random order), unless a
 * row is longer. Larger buckets are fewer, so the scatter into them writes
 * at fewer places at once, and are slower to spread into their rows, in
 * scratch that leaves the core's cache: 2^17 (128 buckets for 13 M pairs)
 * was the fastest of 2^12 to 2^18 on bench_compile (2^18 as fast). */
#define BUCKET_ENTRIES ((size_t)1 << 17)

/* Asks for transparent huge pages on a large fresh array: the compiled form
 * of a big model is written once, in a scattered order, and 4 KiB page
 * faults would otherwise cost as much as the writing. Advisory only. */
static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);

	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

/* A range of rows [r0, r1) handled by one worker in the pair passes, with
 * its own scratch rows and results. */
typedef struct part {
	size_t r0, r1;
	size_t b0, b1;      /* pairs in random order: its buckets of upper rows */
	size_t base, end;   /* first and past-the-last reserved entry of the range */
	size_t out;         /* past the last compacted entry, after the merge pass */
	size_t maxrow;      /* longest reserved row (or bucket) of the range */
	size_t maxdeg;
	size_t tick;        /* entries gone through since the last check */
	size_t bad_row;     /* first row with a sum that is not finite, or SIZE_MAX */
	uint32_t bad_col;
	int diag;           /* the range has a pair (i, i) */
	int on_caller;      /* runs on the calling thread */
	uint32_t *tcol;     /* scratch for one row: pairs, then merged output */
	double *tval;
	uint32_t *scol;
	double *sval;
	uint32_t *lo;       /* pairs in order: lower entries per row (n) */
	uint32_t *bcol;     /* pairs in random order: a bucket spread into its */
	double *bval;       /* rows (in w->lcur, not freed on their own) */
	uint32_t *rcnt;     /* pairs in random order: its chunk's entries per row,
			       then its offset in each bucket (in nupper or nrow) */
	uint32_t *lcnt;     /* pairs in random order, two parts at most: the
			       lower entries its rows give each row (in nupper),
			       then where the next of them goes (in lcur) */
} part;

typedef struct work {
	size_t *nrow;     /* reserved row starts, then final row starts (cap_n + 1) */
	size_t *nupper;   /* clique cursors, then upper starts (cap_n) */
	size_t *clq;      /* clique entries reserved per row (n) */
	size_t *pcur;     /* pair counts, then pair cursors (n) */
	uint8_t *flag;    /* row needs merging (n) */
	size_t *mstart;   /* members per variable (n + 1) */
	size_t *mpos;     /* member positions grouped by variable */
	size_t *mrec;     /* record of each member position */
	double *hnew;     /* h with diagonal pairs folded in, or NULL */
	double *rsum;     /* Σ|J| of each merged row's upper entries (n) */
	double lin;       /* |offset| + Σ|h| (check_linear) */
	double quad;      /* Σ of rsum (check_total) */
	struct head *heads; /* one per clique of the row being filled */
	uint32_t *col;
	double *val;
	size_t *ustart;   /* pairs only: upper row starts (n + 1) */
	size_t *lcur;     /* pairs only: cursors of the mirrored entries (n) */
	unsigned char *sbuf; /* pairs only: weights, then columns of the upper rows */
	double *sval;     /* into sbuf */
	uint32_t *scol;   /* into sbuf, behind the weights */
	unsigned ushift;  /* pairs only: 2^ushift upper rows a bucket */
	unsigned cbits;   /* pairs only: the bits of a column */
	part *parts;      /* nparts ranges of rows for the pair passes */
	unsigned nparts;
	atomic_int stop;  /* a part failed or the interrupt asked to stop */
	/* entries gone through since the last poll: written by the calling
	 * thread all the time, so in a cache line of its own, where no other
	 * thread reads the fields above it */
	_Alignas(64) size_t tick;
} work;

/* Counts `done` more entries; about every QUBO__INTERRUPT_EVERY of them asks
 * the interrupt function. Nonzero: stop (QUBO_CANCELLED). */
static int poll(const qubo_model *m, work *w, size_t done)
{
	w->tick += done + 1;
	if (w->tick < QUBO__INTERRUPT_EVERY)
		return 0;
	w->tick = 0;
	return qubo__model_interrupted(m);
}

/* poll() for a part: on another thread than the caller's, checks the stop
 * flag that the calling thread raises instead. */
static int part_poll(const qubo_model *m, work *w, part *p, size_t done)
{
	if (p->on_caller)
		return poll(m, w, done);
	p->tick += done + 1;
	if (p->tick < QUBO__INTERRUPT_EVERY)
		return 0;
	p->tick = 0;
	return atomic_load_explicit(&w->stop, memory_order_relaxed);
}

static void work_free(const qubo_allocator *a, work *w)
{
	unsigned k;

	qubo__free(a, w->nrow);
	qubo__free(a, w->nupper);
	qubo__free(a, w->clq);
	qubo__free(a, w->pcur);
	qubo__free(a, w->flag);
	qubo__free(a, w->mstart);
	qubo__free(a, w->mpos);
	qubo__free(a, w->mrec);
	qubo__free(a, w->hnew);
	qubo__free(a, w->rsum);
	qubo__free(a, w->heads);
	qubo__free(a, w->col);
	qubo__free(a, w->val);
	qubo__free(a, w->ustart);
	qubo__free(a, w->lcur);
	qubo__free(a, w->sbuf);
	for (k = 0; w->parts && k < w->nparts; k++) {
		qubo__free(a, w->parts[k].tcol);
		qubo__free(a, w->parts[k].tval);
		qubo__free(a, w->parts[k].scol);
		qubo__free(a, w->parts[k].sval);
		qubo__free(a, w->parts[k].lo);
	}
	qubo__free(a, w->parts);
}

static int add_ok(size_t *acc, size_t x)
{
	if (*acc + x < x)
		return 0;
	*acc += x;
	return 1;
}

/* The total of abs_sum()'s four partial sums. */
static double lanes_sum(const double *s)
{
	return (s[0] + s[1]) + (s[2] + s[3]);
}

/* Σ|v[k]| in a fixed order: entry k into partial sum k mod 4, each in
 * order of k, then lanes_sum(). Four chains of additions, where one would
 * wait on each addition. */
static double abs_sum(const double *v, size_t len)
{
	double s[4] = { 0.0, 0.0, 0.0, 0.0 };
	size_t k;

	for (k = 0; k + 4 <= len; k += 4) {
		s[0] += fabs(v[k]);
		s[1] += fabs(v[k + 1]);
		s[2] += fabs(v[k + 2]);
		s[3] += fabs(v[k + 3]);
	}
	for (; k < len; k++)
		s[k & 3] += fabs(v[k]);
	return lanes_sum(s);
}

/* Stable merge sort of (col, val) by col, using scratch of the same size. */
static void sort_pairs(uint32_t *c, double *v, size_t len, uint32_t *sc, double *sv)
{
	size_t width, i;

	for (i = 1; i < len && c[i - 1] <= c[i]; i++)
		; /* terms often arrive in order (files written by row) */
	if (i >= len)
		return;
	if (len <= 32) { /* insertion sort for short rows */
		for (i = 1; i < len; i++) {
			uint32_t kc = c[i];
			double kv = v[i];
			size_t j = i;
			while (j > 0 && c[j - 1] > kc) {
				c[j] = c[j - 1];
				v[j] = v[j - 1];
				j--;
			}
			c[j] = kc;
			v[j] = kv;
		}
		return;
	}
	for (width = 1; width < len; width *= 2) {
		for (i = 0; i < len; i += 2 * width) {
			size_t lo = i, mid = i + width < len ? i + width : len;
			size_t hi = i + 2 * width < len ? i + 2 * width : len;
			size_t x = lo, y = mid, o = lo;
			while (x < mid && y < hi) {
				if (c[y] < c[x]) {
					sc[o] = c[y];
					sv[o++] = v[y++];
				} else {
					sc[o] = c[x];
					sv[o++] = v[x++];
				}
			}
			while (x < mid) {
				sc[o] = c[x];
				sv[o++] = v[x++];
			}
			while (y < hi) {
				sc[o] = c[y];
				sv[o++] = v[y++];
			}
		}
		memcpy(c, sc, len * sizeof *c);
		memcpy(v, sv, len * sizeof *v);
	}
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define RANK_SSE2 1
#else
#define RANK_SSE2 0
#endif

/* Rows this short are sorted by rank (rank_pairs), longer ones by digits;
 * an entry's place in its row takes the 6 bits under its column in a key. */
#define RANK_MAX 64

/* Stable sort of (c, v)[0, len) by c into (oc, ov), len <= RANK_MAX, every
 * column below 2^26: each entry goes to its rank, the number of entries
 * with a smaller key, where the key is the column and then the entry's
 * place. Quadratic, but without a branch that depends on the columns
 * (an insertion sort of random columns mispredicts about once an entry),
 * and with SSE2 four ranks at a time: for short rows it is the fastest. */
static void rank_pairs(const uint32_t *c, const double *v, size_t len, uint32_t *oc,
		       double *ov)
{
	uint32_t n = (uint32_t)len, i;

	if (n < 2) { /* most rows over many variables */
		if (n) {
			oc[0] = c[0];
			ov[0] = v[0];
		}
		return;
	}
#if RANK_SSE2
	/* the keys with the sign bit flipped compare as signed numbers in
	 * the order of the keys; the rows are padded to 16 with the largest,
	 * whose ranks are not used */
	int32_t key[RANK_MAX + 16], rank[RANK_MAX + 16];
	uint32_t j, b;

	for (i = 0; i < n; i++)
		key[i] = (int32_t)((c[i] << 6 | i) ^ 0x80000000u);
	for (; i % 16; i++)
		key[i] = INT32_MAX;
	for (b = 0; b < n; b += 16) {
		__m128i k0 = _mm_loadu_si128((const __m128i *)(const void *)(key + b));
		__m128i k1 = _mm_loadu_si128((const __m128i *)(const void *)(key + b + 4));
		__m128i k2 = _mm_loadu_si128((const __m128i *)(const void *)(key + b + 8));
		__m128i k3 = _mm_loadu_si128((const __m128i *)(const void *)(key + b + 12));
		__m128i r0 = _mm_setzero_si128(), r1 = r0, r2 = r0, r3 = r0;
		for (j = 0; j < n; j++) {
			__m128i x = _mm_set1_epi32(key[j]);
			/* a true comparison is −1: subtracting it counts */
			r0 = _mm_sub_epi32(r0, _mm_cmpgt_epi32(k0, x));
			r1 = _mm_sub_epi32(r1, _mm_cmpgt_epi32(k1, x));
			r2 = _mm_sub_epi32(r2, _mm_cmpgt_epi32(k2, x));
			r3 = _mm_sub_epi32(r3, _mm_cmpgt_epi32(k3, x));
		}
		_mm_storeu_si128((__m128i *)(void *)(rank + b), r0);
		_mm_storeu_si128((__m128i *)(void *)(rank + b + 4), r1);
		_mm_storeu_si128((__m128i *)(void *)(rank + b + 8), r2);
		_mm_storeu_si128((__m128i *)(void *)(rank + b + 12), r3);
	}
	for (i = 0; i < n; i++) {
		oc[rank[i]] = c[i];
		ov[rank[i]] = v[i];
	}
#else
	for (i = 0; i < n; i++) {
		uint32_t k = c[i], j, r = 0;
		for (j = 0; j < i; j++)
			r += c[j] <= k;
		for (j = i + 1; j < n; j++)
			r += c[j] < k;
		oc[r] = k;
		ov[r] = v[i];
	}
#endif
}

/* The most bits of a digit of radix_pairs: 2^11 counts of 4 bytes stay in
 * the core's first cache. */
#define RADIX_BITS 11

/* Stable sort of (c, v)[0, len) by c, len < 2^32, columns of cb bits, by
 * counting sorts of one digit at a time from the lowest up (each stable,
 * so the order of addition holds among equal columns), between (c, v) and
 * (oc, ov); the digits are as many as RADIX_BITS needs, of equal width.
 * Returns 1 when the sorted row ends in (oc, ov), 0 in (c, v). For the
 * rows too long to rank: its time grows as the row's length, where merging
 * adds a pass over the row for every doubling of it. */
static int radix_pairs(uint32_t *c, double *v, size_t len, uint32_t *oc, double *ov,
		       unsigned cb)
{
	uint32_t cnt[1u << RADIX_BITS], *fc = c, *tc = oc, *xc;
	double *fv = v, *tv = ov, *xv;
	unsigned digits = (cb + RADIX_BITS - 1) / RADIX_BITS, bits, shift;
	size_t i;

	bits = digits ? (cb + digits - 1) / digits : 0;
	for (shift = 0; shift < cb; shift += bits) {
		uint32_t mask = (1u << bits) - 1, at = 0;
		memset(cnt, 0, (mask + 1) * sizeof *cnt);
		for (i = 0; i < len; i++)
			cnt[fc[i] >> shift & mask]++;
		for (i = 0; i <= mask; i++) {
			uint32_t k = cnt[i];
			cnt[i] = at;
			at += k;
		}
		for (i = 0; i < len; i++) {
			uint32_t d = cnt[fc[i] >> shift & mask]++;
			tc[d] = fc[i];
			tv[d] = fv[i];
		}
		xc = fc;
		fc = tc;
		tc = xc;
		xv = fv;
		fv = tv;
		tv = xv;
	}
	return fc == oc;
}

/* Sums the runs of equal columns of the sorted row (c, v)[0, len), in order,
 * and writes the nonzero sums to (oc, ov) from index o on, never past the
 * entry being read (the output may be the row itself). Returns the end of
 * the output, or SIZE_MAX after noting in p a sum that is not finite. */
static size_t sum_sorted(const uint32_t *c, const double *v, size_t len, uint32_t *oc,
			 double *ov, size_t o, part *p, size_t row)
{
	size_t x = 0;

	while (x < len) {
		uint32_t k = c[x];
		double sum = v[x++];
		while (x < len && c[x] == k)
			sum += v[x++];
		if (!qubo__is_finite(sum)) {
			p->bad_row = row;
			p->bad_col = k;
			return SIZE_MAX;
		}
		if (sum != 0.0) {
			oc[o] = k;
			ov[o++] = sum;
		}
	}
	return o;
}

/* Merges the old (O), clique (C) and pair (P) parts of one row into out,
 * summing equal columns in the order O, C, P and dropping zeros. Returns the
 * merged length, or SIZE_MAX when a sum is not finite (*bad_col set). */
static size_t merge_row(const uint32_t *oc, const double *ov, size_t on, const uint32_t *cc,
			const double *cv, size_t cn, const uint32_t *pc, const double *pv,
			size_t pn, uint32_t *outc, double *outv, uint32_t *bad_col)
{
	size_t io = 0, ic = 0, ip = 0, o = 0;

	while (io < on || ic < cn || ip < pn) {
		uint32_t k = UINT32_MAX;
		double s = 0.0;
		int have = 0;
		if (io < on && oc[io] <= k)
			k = oc[io];
		if (ic < cn && cc[ic] < k)
			k = cc[ic];
		if (ip < pn && pc[ip] < k)
			k = pc[ip];
		if (io < on && oc[io] == k) {
			s = ov[io++];
			have = 1;
		}
		if (ic < cn && cc[ic] == k) {
			s = have ? s + cv[ic] : cv[ic];
			ic++;
			have = 1;
		}
		while (ip < pn && pc[ip] == k) {
			s = have ? s + pv[ip] : pv[ip];
			ip++;
			have = 1;
		}
		if (!qubo__is_finite(s)) {
			*bad_col = k;
			return SIZE_MAX;
		}
		if (s != 0.0) {
			outc[o] = k;
			outv[o++] = s;
		}
	}
	return o;
}

/* One clique seen from the row being filled: its sorted members and the
 * row variable's weight w·σ_a in it. */
typedef struct head {
	const qubo_lit *p, *end;
	uint32_t v; /* the variable of *p, or UINT32_MAX past the end */
	double w;
} head;

#if defined(__GNUC__) || defined(__clang__)
#define FILL_INLINE inline __attribute__((always_inline))
#else
#define FILL_INLINE inline
#endif

/* Merges the nh heads of row a into its clique region from *out on (*out
 * advances). Each entry scans every head, so a variable in many cliques
 * costs nh a step: with long_row (a constant in each call, so that the
 * short rows' loop has no test for it) the scans are counted and polled
 * within the row. QUBO_OK or QUBO_CANCELLED. */
static FILL_INLINE int merge_heads(const qubo_model *m, work *w, size_t a, size_t nh,
				   const int long_row, size_t *out)
{
	head *hd = w->heads;
	uint32_t last = UINT32_MAX;
	size_t scanned = 0;

	for (;;) {
		size_t best = nh, k;
		uint32_t b = UINT32_MAX, next = UINT32_MAX;

		/* the first head with the lowest member, and the lowest member
		 * of the others: the best head's members below it come next,
		 * one after another, with no scan between */
		for (k = 0; k < nh; k++) {
			uint32_t v = hd[k].v;
			if (v < b) {
				next = b;
				b = v;
				best = k;
			} else if (v < next) {
				next = v;
			}
		}
		if (long_row && (scanned += nh) >= QUBO__INTERRUPT_EVERY) {
			if (poll(m, w, scanned))
				return QUBO_CANCELLED;
			scanned = 0;
		}
		if (best == nh)
			return QUBO_OK;
		do {
			head *h = &hd[best];
			qubo_lit l = *h->p++;
			double wt = QUBO_LIT_IS_NEG(l) ? -h->w : h->w;

			h->v = h->p < h->end ? QUBO_LIT_VAR(*h->p) : UINT32_MAX;
			if (b == a) {
				/* the row's own variable */
			} else if (b == last) {
				w->val[*out - 1] += wt;
				if (w->val[*out - 1] == 0.0)
					w->flag[a] = 1;
			} else {
				w->col[*out] = b;
				w->val[(*out)++] = wt;
				last = b;
			}
		} while ((b = hd[best].v) < next);
	}
}

/* Fills the clique region of every row: row a is the merge of the member
 * lists of the cliques that contain a (each sorted by variable), so it is
 * written sequentially, in column order, with duplicates summed as they
 * meet. A sum that cancels to zero flags the row for the merge pass. */
static int fill_cliques(const qubo_model *m, work *w)
{
	const qubo_lit *mem = m->members;
	head *hd = w->heads;
	size_t a;

	for (a = 0; a < m->n; a++) {
		size_t t, nh = 0, out = w->nrow[a];
		int rc;

		for (t = w->mstart[a]; t < w->mstart[a + 1]; t++) {
			size_t p = w->mpos[t];
			const qubo__clique *r = &m->cliques[w->mrec[p]];
			hd[nh].p = mem + r->start;
			hd[nh].end = mem + r->start + r->size;
			hd[nh].v = QUBO_LIT_VAR(mem[r->start]);
			hd[nh].w = QUBO_LIT_IS_NEG(mem[p]) ? -r->w : r->w;
			nh++;
		}
		/* the scans of a row that could take 64 polls' worth are polled
		 * within it; the others count them at its end */
		if (nh * (w->nrow[a + 1] - w->nrow[a] + nh) >= 64 * QUBO__INTERRUPT_EVERY)
			rc = merge_heads(m, w, a, nh, 1, &out);
		else
			rc = merge_heads(m, w, a, nh, 0, &out);
		if (rc)
			return rc;
		w->nupper[a] = out;
		if (poll(m, w, (out - w->nrow[a]) * (nh + 1)))
			return QUBO_CANCELLED;
	}
	return QUBO_OK;
}

/* Counts the clique entries each row will receive into clq and the members
 * of each variable into mstart; returns 0 when a count overflows, -1 when
 * interrupted. */
static int count_rows(const qubo_model *m, work *w)
{
	size_t k;

	for (k = 0; k < m->num_cliques; k++) {
		const qubo__clique *r = &m->cliques[k];
		size_t p = r->start, end = r->start + r->size;
		while (p < end) {
			uint32_t v = QUBO_LIT_VAR(m->members[p]);
			size_t g = p + 1, others;
			while (g < end && QUBO_LIT_VAR(m->members[g]) == v)
				g++;
			/* each occurrence of v sees every member of another variable */
			others = r->size - (g - p);
			for (; p < g; p++)
				if (!add_ok(&w->clq[v], others))
					return 0;
		}
		if (poll(m, w, r->size))
			return -1;
	}
	for (k = 0; k < m->num_members; k++)
		w->mstart[QUBO_LIT_VAR(m->members[k]) + 1]++;
	return 1;
}

/* Counts the pairs each row of p's range will receive into pcur. */
static int count_pairs(const qubo_model *m, work *w, part *p)
{
	size_t k, r0 = p->r0, span = p->r1 - p->r0;

	for (k = 0; k < m->num_pairs; k++) {
		const qubo__pair *q = &m->pairs[k];
		if (part_poll(m, w, p, 0))
			return QUBO_CANCELLED;
		if (q->i == q->j) {
			if ((size_t)q->i - r0 < span)
				p->diag = 1;
			continue;
		}
		if ((size_t)q->i - r0 < span)
			w->pcur[q->i]++;
		if ((size_t)q->j - r0 < span)
			w->pcur[q->j]++;
	}
	return QUBO_OK;
}

/* Workers for the pair passes: the model's setting (0: one per online CPU,
 * at most PAR_DEFAULT_MAX), one when there are few pairs, never more than
 * the rows. */
static unsigned pair_workers(const qubo_model *m)
{
	unsigned t;

	if (m->num_pairs < PAR_MIN_PAIRS || m->n < 2)
		return 1;
	t = qubo__pool_workers_for(m->compile_threads);
	if (m->compile_threads <= 0 && t > PAR_DEFAULT_MAX)
		t = PAR_DEFAULT_MAX;
	if (t > MAX_PARTS)
		t = MAX_PARTS;
	return t > m->n ? (unsigned)m->n : t;
}

static int alloc_work(const qubo_model *m, work *w)
{
	const qubo_allocator *a = &m->alloc;
	size_t n = m->n, cap = m->cap_n;

	memset(w, 0, sizeof *w);
	w->nrow = qubo__calloc_array(a, cap + 1, sizeof *w->nrow);
	w->nupper = qubo__malloc_array(a, cap, sizeof *w->nupper);
	w->clq = qubo__calloc_array(a, n, sizeof *w->clq);
	w->pcur = qubo__calloc_array(a, n, sizeof *w->pcur);
	w->flag = qubo__calloc_array(a, n, sizeof *w->flag);
	w->rsum = qubo__malloc_array(a, n, sizeof *w->rsum);
	w->mstart = qubo__calloc_array(a, n + 1, sizeof *w->mstart);
	w->mpos = qubo__malloc_array(a, m->num_members, sizeof *w->mpos);
	w->mrec = qubo__malloc_array(a, m->num_members, sizeof *w->mrec);
	w->nparts = pair_workers(m);
	w->parts = qubo__calloc_array(a, w->nparts, sizeof *w->parts);
	if (!w->nrow || !w->nupper || !w->clq || !w->pcur || !w->flag || !w->rsum ||
	    !w->mstart || !w->mpos || !w->mrec || !w->parts)
		return qubo__nomem("compilation work space");
	return QUBO_OK;
}

/* Groups member positions by variable (counting sort over the counts that
 * count_rows left in mstart), in position order. */
static int index_members(const qubo_model *m, work *w)
{
	size_t k, p, v, *cur = w->nupper; /* free until the sweep */

	for (v = 0; v < m->n; v++) {
		w->mstart[v + 1] += w->mstart[v];
		cur[v] = w->mstart[v];
	}
	for (k = 0; k < m->num_cliques; k++) {
		const qubo__clique *r = &m->cliques[k];
		for (p = r->start; p < r->start + r->size; p++) {
			w->mpos[cur[QUBO_LIT_VAR(m->members[p])]++] = p;
			w->mrec[p] = k;
		}
		if (poll(m, w, r->size))
			return QUBO_CANCELLED;
	}
	return QUBO_OK;
}

/* Copies the previous compiled form into its region of each row. */
static int fill_old(const qubo_model *m, work *w)
{
	size_t a;

	for (a = 0; a < m->n; a++) {
		size_t on = m->row[a + 1] - m->row[a];
		size_t at = w->nrow[a] + w->clq[a];
		if (poll(m, w, on))
			return QUBO_CANCELLED;
		if (!on)
			continue;
		memcpy(w->col + at, m->col + m->row[a], on * sizeof *w->col);
		memcpy(w->val + at, m->val + m->row[a], on * sizeof *w->val);
		if (w->clq[a] || w->nrow[a + 1] != at + on)
			w->flag[a] = 1;
	}
	return QUBO_OK;
}

/* Writes the single pairs of p's rows into their regions, in the order they
 * were added; folds the diagonal ones into hnew. */
static int scatter_pairs(const qubo_model *m, work *w, part *p)
{
	size_t k, r0 = p->r0, span = p->r1 - p->r0;

	for (k = 0; k < m->num_pairs; k++) {
		const qubo__pair *q = &m->pairs[k];
		size_t c;
		if (part_poll(m, w, p, 1))
			return QUBO_CANCELLED;
		if (q->i == q->j) {
			if ((size_t)q->i - r0 < span)
				w->hnew[q->i] += q->w;
			continue;
		}
		if ((size_t)q->i - r0 < span) {
			c = w->pcur[q->i]++;
			w->col[c] = q->j;
			w->val[c] = q->w;
			w->flag[q->i] = 1;
		}
		if ((size_t)q->j - r0 < span) {
			c = w->pcur[q->j]++;
			w->col[c] = q->i;
			w->val[c] = q->w;
			w->flag[q->j] = 1;
		}
	}
	return QUBO_OK;
}

/* Merges the flagged rows of p's range and compacts the range from its
 * first entry on: sets the rows' starts and upper starts, p->out and
 * p->maxdeg. A sum that is not finite ends the range with p->bad_row set. */
static int merge_rows(const qubo_model *m, work *w, part *p)
{
	size_t a, out = p->base, maxdeg = 0;

	for (a = p->r0; a < p->r1; a++) {
		size_t start = w->nrow[a], cend = w->nupper[a];
		size_t next = a + 1 < p->r1 ? w->nrow[a + 1] : p->end;
		size_t on = m->row[a + 1] - m->row[a];
		size_t ostart = start + w->clq[a], pstart = ostart + on;
		size_t pn = next - pstart, len, lo, hi;

		if (w->flag[a] && on == 0 && cend == start) {
			/* pairs only: sorted in place, merged down to out (never
			 * past the entry being read) */
			size_t o;
			sort_pairs(w->col + pstart, w->val + pstart, pn, p->tcol, p->tval);
			o = sum_sorted(w->col + pstart, w->val + pstart, pn, w->col, w->val, out,
				       p, a);
			if (o == SIZE_MAX)
				break;
			len = o - out;
		} else if (w->flag[a]) {
			uint32_t bad = 0;
			memcpy(p->tcol, w->col + pstart, pn * sizeof *p->tcol);
			memcpy(p->tval, w->val + pstart, pn * sizeof *p->tval);
			sort_pairs(p->tcol, p->tval, pn, p->scol, p->sval);
			len = merge_row(w->col + ostart, w->val + ostart, on, w->col + start,
					w->val + start, cend - start, p->tcol, p->tval, pn,
					p->scol, p->sval, &bad);
			if (len == SIZE_MAX) {
				p->bad_row = a;
				p->bad_col = bad;
				break;
			}
			memcpy(w->col + out, p->scol, len * sizeof *w->col);
			memcpy(w->val + out, p->sval, len * sizeof *w->val);
		} else {
			/* only one of the regions is used; it is sorted and merged */
			size_t from = cend > start ? start : ostart;
			len = cend > start ? cend - start : on;
			if (from != out) {
				memmove(w->col + out, w->col + from, len * sizeof *w->col);
				memmove(w->val + out, w->val + from, len * sizeof *w->val);
			}
		}
		w->nrow[a] = out;
		lo = out;
		hi = out + len;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (w->col[mid] <= a)
				lo = mid + 1;
			else
				hi = mid;
		}
		w->nupper[a] = lo;
		w->rsum[a] = abs_sum(w->val + lo, out + len - lo);
		if (len > maxdeg)
			maxdeg = len;
		out += len;
		if (part_poll(m, w, p, len + pn))
			return QUBO_CANCELLED;
	}
	p->out = out;
	p->maxdeg = maxdeg;
	return QUBO_OK;
}

typedef int (*part_fn)(const qubo_model *m, work *w, part *p);

typedef struct part_job {
	const qubo_model *m;
	work *w;
	part_fn fn;
	part *p;
	int rc;
} part_job;

static void *part_thread(void *arg)
{
	part_job *j = arg;

	j->rc = j->fn(j->m, j->w, j->p);
	if (j->rc)
		atomic_store_explicit(&j->w->stop, 1, memory_order_relaxed);
	return NULL;
}

/* Runs fn on every part: part 0 on the calling thread, which polls the
 * interrupt function as it goes, the others on threads of their own (a part
 * whose thread could not be started runs on the calling thread afterwards:
 * the same result, later). QUBO_OK or QUBO_CANCELLED. */
static int run_parts(const qubo_model *m, work *w, part_fn fn)
{
	part_job job[MAX_PARTS];
	pthread_t tid[MAX_PARTS];
	int started[MAX_PARTS];
	unsigned k;
	int rc;

	atomic_store(&w->stop, 0);
	for (k = 0; k < w->nparts; k++) {
		job[k].m = m;
		job[k].w = w;
		job[k].fn = fn;
		job[k].p = &w->parts[k];
		job[k].rc = QUBO_OK;
		w->parts[k].on_caller = k == 0;
		w->parts[k].tick = 0;
		started[k] = k > 0 && !pthread_create(&tid[k], NULL, part_thread, &job[k]);
	}
	rc = fn(m, w, &w->parts[0]);
	if (rc)
		atomic_store(&w->stop, 1);
	for (k = 1; k < w->nparts; k++) {
		if (started[k]) {
			pthread_join(tid[k], NULL);
		} else if (!rc) {
			w->parts[k].on_caller = 1;
			job[k].rc = fn(m, w, &w->parts[k]);
		}
		if (!rc)
			rc = job[k].rc;
	}
	return rc;
}

/* Splits the rows into nparts ranges of about equal numbers of reserved
 * entries (starts: the reserved start of every row, and the total). */
static void split_by_entries(const qubo_model *m, work *w, const size_t *starts)
{
	size_t total = starts[m->n], a = 0;
	unsigned k;

	for (k = 0; k < w->nparts; k++) {
		part *p = &w->parts[k];
		size_t goal = k + 1 == w->nparts ? SIZE_MAX :
			(size_t)((double)total * (k + 1) / w->nparts);
		p->r0 = a;
		while (a < m->n && starts[a + 1] <= goal)
			a++;
		if (k + 1 == w->nparts)
			a = m->n;
		p->r1 = a;
		p->base = starts[p->r0];
		p->end = starts[p->r1];
		p->maxrow = 0;
		for (a = p->r0; a < p->r1; a++)
			if (starts[a + 1] - starts[a] > p->maxrow)
				p->maxrow = starts[a + 1] - starts[a];
		a = p->r1;
		p->bad_row = SIZE_MAX;
	}
}

/* Moves the compacted ranges down behind one another (a no-op for one
 * part), shifting their row starts; returns the number of entries. */
static size_t join_parts(const qubo_model *m, work *w, size_t *maxdeg_out)
{
	size_t out = 0, maxdeg = 0, a;
	unsigned k;

	for (k = 0; k < w->nparts; k++) {
		part *p = &w->parts[k];
		size_t len = p->out - p->base, shift = p->base - out;
		if (shift) {
			memmove(w->col + out, w->col + p->base, len * sizeof *w->col);
			memmove(w->val + out, w->val + p->base, len * sizeof *w->val);
			for (a = p->r0; a < p->r1; a++) {
				w->nrow[a] -= shift;
				w->nupper[a] -= shift;
			}
		}
		if (p->maxdeg > maxdeg)
			maxdeg = p->maxdeg;
		out += len;
	}
	w->nrow[m->n] = out;
	*maxdeg_out = maxdeg;
	return out;
}

/* QUBO_ERR_OUT_OF_RANGE when the offset or a linear weight (with the
 * diagonal pairs folded in) is not finite; sets w->lin. */
static int check_linear(const qubo_model *m, work *w)
{
	return qubo__model_linear_sum(m->offset, w->hnew ? w->hnew : m->h, m->n,
				      "qubo_model_compile", &w->lin);
}

/* QUBO_ERR_OUT_OF_RANGE when the weight sum, w->lin and the rows' sums in
 * order of row, is above the limit; sets w->quad. */
static int check_total(const qubo_model *m, work *w)
{
	w->quad = abs_sum(w->rsum, m->n);
	return qubo__model_check_weight_sum(w->lin + w->quad, "qubo_model_compile");
}

static int sum_error(size_t i, uint32_t j)
{
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "qubo_model_compile: the weights of coupler (%zu, %u) sum to a "
			   "value that is not finite", i, j);
}

/* The first range's sum that is not finite, reported for its coupler
 * (ranges hold ascending rows, so it is the lowest row's). */
static int check_sums(const work *w)
{
	unsigned k;

	for (k = 0; k < w->nparts; k++) {
		const part *p = &w->parts[k];
		if (p->bad_row != SIZE_MAX) {
			size_t r = p->bad_row;
			uint32_t c = p->bad_col;
			return sum_error(r < c ? r : (size_t)c, r < c ? c : (uint32_t)r);
		}
	}
	return QUBO_OK;
}

/* Gives back the room of the columns and weights past nnz entries; a
 * failure is harmless (the larger blocks are kept). */
static void shrink(const qubo_allocator *al, work *w, size_t nnz)
{
	uint32_t *c = qubo__realloc_array(al, w->col, nnz, sizeof *c);
	double *v;

	if (c)
		w->col = c;
	v = qubo__realloc_array(al, w->val, nnz, sizeof *v);
	if (v)
		w->val = v;
}

/* Replaces the compiled form with w's (w->nrow, w->nupper, w->col, w->val,
 * and w->hnew when set), empties the pending logs and frees the rest of
 * the work space. Cannot fail. */
static void commit(qubo_model *m, work *w, size_t nnz, size_t maxdeg)
{
	const qubo_allocator *al = &m->alloc;

	qubo__free(al, m->row);
	qubo__free(al, m->upper);
	qubo__free(al, m->col);
	qubo__free(al, m->val);
	m->row = w->nrow;
	m->upper = w->nupper;
	m->col = w->col;
	m->val = w->val;
	w->nrow = w->nupper = NULL;
	w->col = NULL;
	w->val = NULL;
	if (w->hnew) {
		qubo__free(al, m->h);
		m->h = w->hnew;
		w->hnew = NULL;
	}
	m->nnz = nnz;
	m->max_degree = maxdeg;
	m->linear_bound = w->lin;
	m->coupler_sum = w->quad;
	qubo__free(al, m->pairs);
	qubo__free(al, m->cliques);
	qubo__free(al, m->members);
	m->pairs = NULL;
	m->cliques = NULL;
	m->members = NULL;
	m->num_pairs = m->cap_pairs = m->num_cliques = m->cap_cliques = 0;
	m->num_members = m->cap_members = 0;
	m->pending_pairs = 0;
	m->pairs_unsorted = 0;
	m->dirty = 0;
	work_free(al, w);
}

/*
 * Single pairs alone (no clique record, no coupler compiled before): the
 * path of a caller who adds terms one by one and of the qbsolv reader, and
 * the one with the most entries. Each pair goes only into the upper row of
 * its smaller variable, where the row is sorted and summed as in
 * merge_rows, so the sums are the same bit for bit. Only after the last
 * step that can fail (an allocation, a sum that is not finite, a stop) is
 * the symmetric form written (mirror), into the memory it is made from:
 * the weights over the pair log, no longer needed, and the columns over
 * the upper rows' weights. The log (16 bytes a pair), the upper rows (12)
 * and the compiled form (24 bytes a coupler) are so never all three in
 * memory.
 *
 * A counting sort straight into the rows, as merge_rows does, is slow on
 * a large model whose pairs come in random order: with a million rows,
 * each pair is written to a place of its own far from the last, a cache
 * miss for its column and another for its weight, and those misses cost
 * more than all the rest. So the pairs go first into buckets of 2^ushift
 * consecutive rows (scatter_chunk), few enough that the places being
 * written stay in cache, in the order they were added, every column
 * tagged with its row in the bucket in the high bits it leaves free. A
 * bucket, small enough to stay in cache itself, is then spread into its
 * rows (sort_buckets), in the order of the bucket, so still of addition,
 * and each row sorted by column (stably) and summed into its place. The
 * rows are the same, and so are their sums.
 */

/* Counts the upper entries of each row in p's chunk of the log: part 0
 * into ustart[a + 1], the others into p->rcnt[a]; sets p->diag when some
 * pair is (i, i). */
static int count_chunk(const qubo_model *m, work *w, part *p)
{
	size_t k, *u = w->ustart + 1;
	uint32_t *r = p->rcnt;

	for (k = p->base; k < p->end; k++) {
		const qubo__pair *q = &m->pairs[k];
		uint32_t lo = q->i < q->j ? q->i : q->j;
		if (part_poll(m, w, p, 0))
			return QUBO_CANCELLED;
		if (q->i == q->j)
			p->diag = 1;
		else if (r)
			r[lo]++;
		else
			u[lo]++;
	}
	return QUBO_OK;
}

/* Where chunk k of nchunks of a log of n pairs starts (n for k >= nchunks):
 * the chunks differ in length by one at most. */
static size_t chunk_start(size_t n, unsigned k, unsigned nchunks)
{
	if (k >= nchunks)
		return n;
	return n / nchunks * k + (n % nchunks < k ? n % nchunks : k);
}

/* Folds the pairs (i, i) into hnew, in the order they were added. */
static int fold_diagonal(const qubo_model *m, work *w)
{
	size_t k;

	for (k = 0; k < m->num_pairs; k++) {
		const qubo__pair *q = &m->pairs[k];
		if (poll(m, w, 0))
			return QUBO_CANCELLED;
		if (q->i == q->j)
			w->hnew[q->i] += q->w;
	}
	return QUBO_OK;
}

/* Picks the buckets of the upper rows: 2^ushift consecutive rows each,
 * as many rows as the bits that a column leaves free in its 32 can number
 * (cbits: the bits of a column), and no bucket with more entries than the
 * longest row and BUCKET_ENTRIES (or the model's compile_bucket, set by
 * tests) together: so a long row has a bucket of its own only when its
 * neighbours are long too, and the scratch is never much more than a
 * row's, as when rows were sorted one by one. */
static void choose_buckets(const qubo_model *m, work *w)
{
	size_t n = m->n, maxrow = 0, a;
	size_t cap = m->compile_bucket ? m->compile_bucket : BUCKET_ENTRIES;
	unsigned cb = 0, k = 0;

	while (cb < 32 && ((size_t)1 << cb) < n)
		cb++;
	for (a = 0; a < n; a++)
		if (w->ustart[a + 1] - w->ustart[a] > maxrow)
			maxrow = w->ustart[a + 1] - w->ustart[a];
	/* twice as many rows a bucket at each step: the most entries of a
	 * bucket only grows, so the first step past the cap ends it */
	while (k + cb < 32 && ((size_t)1 << k) < n) {
		size_t span = (size_t)2 << k, big = 0, b;
		for (b = 0; b < n; b += span) {
			size_t e = n - b > span ? b + span : n;
			if (w->ustart[e] - w->ustart[b] > big)
				big = w->ustart[e] - w->ustart[b];
		}
		if (big - maxrow > cap)
			break;
		k++;
	}
	w->ushift = k;
	w->cbits = cb;
}

/* Splits the buckets into nparts ranges of about equal numbers of entries;
 * each part's maxrow is its largest bucket. */
static void split_buckets(const qubo_model *m, work *w)
{
	size_t n = m->n, total = w->ustart[n], b = 0;
	size_t nb = n ? ((n - 1) >> w->ushift) + 1 : 0;
	unsigned k;

	for (k = 0; k < w->nparts; k++) {
		part *p = &w->parts[k];
		size_t goal = k + 1 == w->nparts ? SIZE_MAX :
			(size_t)((double)total * (k + 1) / w->nparts);
		p->b0 = b;
		p->maxrow = 0;
		while (b < nb) {
			size_t r0 = b << w->ushift, r1 = (b + 1) << w->ushift;
			if (r1 > n)
				r1 = n;
			if (w->ustart[r1] > goal)
				break;
			if (w->ustart[r1] - w->ustart[r0] > p->maxrow)
				p->maxrow = w->ustart[r1] - w->ustart[r0];
			b++;
		}
		p->b1 = b;
		p->r0 = p->b0 << w->ushift < n ? p->b0 << w->ushift : n;
		p->r1 = p->b1 << w->ushift < n ? p->b1 << w->ushift : n;
		p->bad_row = SIZE_MAX;
	}
}

/* Writes the pairs of p's chunk of the log into their buckets, in the order
 * they were added, each column tagged in its free high bits with its row's
 * place in the bucket; leaves out the pairs (i, i). Part 0 writes bucket b
 * at pcur[b] on; part k at the bucket's start plus p->rcnt[b] (the entries
 * of the chunks before k), so every bucket holds its pairs in the order of
 * the log. */
static int scatter_chunk(const qubo_model *m, work *w, part *p)
{
	unsigned sh = w->ushift, cb = w->cbits;
	uint32_t low = ((uint32_t)1 << sh) - 1, *r = p->rcnt;
	size_t k, c;

	for (k = p->base; k < p->end; k++) {
		const qubo__pair *q = &m->pairs[k];
		uint32_t lo = q->i < q->j ? q->i : q->j, hi = q->i < q->j ? q->j : q->i;
		if (part_poll(m, w, p, 0))
			return QUBO_CANCELLED;
		if (lo == hi)
			continue;
		if (r)
			c = w->ustart[(size_t)(lo >> sh) << sh] + r[lo >> sh]++;
		else
			c = w->pcur[lo >> sh]++;
		w->scol[c] = hi | (uint32_t)((uint64_t)(lo & low) << cb);
		w->sval[c] = q->w;
	}
	return QUBO_OK;
}

/* Turns each chunk's row counts (rcnt of parts 1 to nchunks − 1, and for
 * part 0 the totals in ustart less theirs) into where the chunk's entries
 * start in each bucket, counted from the bucket's start, in rcnt[b]: the
 * entries of the chunks before it. A bucket's index is never above its
 * first row's, so rcnt[b] is written after the rows it sums are read. Sets
 * part 0's cursors, pcur[b], to the buckets' starts. */
static void chunk_offsets(const qubo_model *m, work *w, unsigned nchunks)
{
	size_t n = m->n, b, r, r0, r1, sum[MAX_CHUNKS];
	unsigned sh = w->ushift, k;

	for (b = 0, r0 = 0; r0 < n; b++, r0 = r1) {
		size_t at;
		r1 = n - r0 > ((size_t)1 << sh) ? r0 + ((size_t)1 << sh) : n;
		at = w->ustart[r1] - w->ustart[r0];
		for (k = 1; k < nchunks; k++) {
			uint32_t *c = w->parts[k].rcnt;
			for (sum[k] = 0, r = r0; r < r1; r++)
				sum[k] += c[r];
			at -= sum[k];
		}
		/* at: part 0's entries in the bucket */
		for (k = 1; k < nchunks; k++) {
			w->parts[k].rcnt[b] = (uint32_t)at;
			at += sum[k];
		}
		w->pcur[b] = w->ustart[r0];
	}
}

/* Spreads each bucket of p's range into its rows, in p's scratch (in the
 * order of the bucket, so of addition), sorts each row by column and sums
 * it back into its place in the upper rows, dropping zeros; pcur[a]
 * receives the row's merged length, and p->lcnt[c], when set, counts the
 * entries kept in column c. A sum that is not finite ends the range with
 * p->bad_row set. */
static int sort_buckets(const qubo_model *m, work *w, part *p)
{
	unsigned sh = w->ushift, cb = w->cbits;
	uint32_t colmask = cb < 32 ? ((uint32_t)1 << cb) - 1 : UINT32_MAX;
	size_t b;

	for (b = p->b0; b < p->b1; b++) {
		size_t r0 = b << sh, r1 = r0 + ((size_t)1 << sh), base, t, a;
		if (r1 > m->n)
			r1 = m->n;
		base = w->ustart[r0];
		for (a = r0; a < r1; a++)
			w->pcur[a] = w->ustart[a] - base;
		for (t = base; t < w->ustart[r1]; t++) {
			uint32_t x = w->scol[t];
			size_t c = w->pcur[r0 + (size_t)((uint64_t)x >> cb)]++;
			p->bcol[c] = x & colmask;
			p->bval[c] = w->sval[t];
		}
		for (a = r0; a < r1; a++) {
			size_t at = w->ustart[a], len = w->ustart[a + 1] - at, o;
			uint32_t *c = p->bcol + (at - base);
			double *v = p->bval + (at - base);
			if (len <= RANK_MAX && cb <= 26) {
				rank_pairs(c, v, len, w->scol + at, w->sval + at);
				o = sum_sorted(w->scol + at, w->sval + at, len, w->scol + at,
					       w->sval + at, 0, p, a);
			} else if (len <= UINT32_MAX) {
				/* the row's own place is the other buffer */
				if (radix_pairs(c, v, len, w->scol + at, w->sval + at, cb))
					o = sum_sorted(w->scol + at, w->sval + at, len,
						       w->scol + at, w->sval + at, 0, p, a);
				else
					o = sum_sorted(c, v, len, w->scol + at, w->sval + at, 0,
						       p, a);
			} else {
				/* the row's own place is free: the sort's scratch */
				sort_pairs(c, v, len, w->scol + at, w->sval + at);
				o = sum_sorted(c, v, len, w->scol + at, w->sval + at, 0, p, a);
			}
			if (o == SIZE_MAX)
				return QUBO_OK;
			w->pcur[a] = o;
			w->rsum[a] = abs_sum(w->sval + at, o);
			if (p->lcnt)
				for (t = 0; t < o; t++)
					p->lcnt[w->scol[at + t]]++;
		}
		if (part_poll(m, w, p, w->ustart[r1] - base))
			return QUBO_CANCELLED;
	}
	return QUBO_OK;
}

/* Lays out the symmetric form: row a has the mirrored entries of the upper
 * rows above it (nupper[a] − nrow[a] of them) and then its own merged upper
 * row. Sets nrow, nupper, lcur (the mirrored entries' cursors) and
 * *maxdeg; returns the number of entries. */
static int layout_upper(const qubo_model *m, work *w, size_t *nnz, size_t *maxdeg)
{
	size_t a, t, deg;

	memset(w->nupper, 0, m->n * sizeof *w->nupper);
	for (a = 0; a < m->n; a++) {
		const uint32_t *c = w->scol + w->ustart[a];
		for (t = 0; t < w->pcur[a]; t++)
			w->nupper[c[t]]++;
		if (poll(m, w, w->pcur[a]))
			return QUBO_CANCELLED;
	}
	*maxdeg = 0;
	w->nrow[0] = 0;
	for (a = 0; a < m->n; a++) {
		deg = w->nupper[a] + w->pcur[a];
		w->lcur[a] = w->nrow[a];
		w->nupper[a] += w->nrow[a];
		w->nrow[a + 1] = w->nrow[a] + deg;
		if (deg > *maxdeg)
			*maxdeg = deg;
	}
	*nnz = w->nrow[m->n];
	return QUBO_OK;
}

/* Writes the weights of the symmetric rows of p's range into w->val: each
 * row's merged upper row, and the mirrored entries of the upper rows above
 * it. w->val is the pair log's memory (16 bytes a pair, 8 an entry). Runs
 * after the last step that can fail: it never stops. */
static int mirror_vals(const qubo_model *m, work *w, part *p)
{
	size_t a, t, r0 = p->r0, span = p->r1 - p->r0;

	(void)m;
	for (a = 0; a < p->r1; a++) {
		const uint32_t *c = w->scol + w->ustart[a];
		const double *v = w->sval + w->ustart[a];
		if (a >= r0)
			memcpy(w->val + w->nupper[a], v, w->pcur[a] * sizeof *w->val);
		for (t = 0; t < w->pcur[a]; t++)
			if ((size_t)c[t] - r0 < span)
				w->val[w->lcur[c[t]]++] = v[t];
	}
	return QUBO_OK;
}

/* The same for the columns, into w->col: the upper rows' memory, over
 * their weights, which are no longer read (the 8 bytes a pair of the
 * weights hold the 4 bytes of two entries, and end where the upper rows'
 * columns, read meanwhile, begin). */
static int mirror_cols(const qubo_model *m, work *w, part *p)
{
	size_t a, t, r0 = p->r0, span = p->r1 - p->r0;

	(void)m;
	for (a = r0; a < p->r1; a++)
		w->lcur[a] = w->nrow[a];
	for (a = 0; a < p->r1; a++) {
		const uint32_t *c = w->scol + w->ustart[a];
		if (a >= r0)
			memcpy(w->col + w->nupper[a], c, w->pcur[a] * sizeof *w->col);
		for (t = 0; t < w->pcur[a]; t++)
			if ((size_t)c[t] - r0 < span)
				w->col[w->lcur[c[t]]++] = (uint32_t)a;
	}
	return QUBO_OK;
}

/*
 * With one or two parts, the mirror goes by the parts' own upper rows (the
 * ranges of buckets they sorted) instead of by ranges of the symmetric
 * rows: then a part reads only its rows, not every row above the end of
 * its range, and the lower entries each row receives were counted by the
 * parts as they summed (p->lcnt), where the layout counted them in a pass
 * of its own. Row c holds the lower entries from part 0's rows, then those
 * from part 1's, then its upper row; a part's cursor for row c is a 32-bit
 * place in the symmetric form, in lcur (8 bytes a variable: two of them),
 * so the compiled form must have fewer than 2^32 entries. More parts would
 * need more room: they take the way above.
 */

/* The layout from the parts' counts: nrow, nupper, *maxdeg and each part's
 * cursors (lcnt, moved from nupper to lcur). Returns the number of
 * entries. The counts lie in nupper, which is written once they are read. */
static size_t layout_counted(const qubo_model *m, work *w, size_t *maxdeg)
{
	uint32_t *c0 = w->parts[0].lcnt, *c1 = w->nparts > 1 ? w->parts[1].lcnt : NULL;
	uint32_t *d0 = (uint32_t *)(void *)w->lcur, *d1 = d0 + m->n;
	size_t a, deg;

	*maxdeg = 0;
	w->nrow[0] = 0;
	for (a = 0; a < m->n; a++) {
		size_t lo0 = c0[a], lo1 = c1 ? c1[a] : 0;
		d0[a] = (uint32_t)w->nrow[a];
		d1[a] = (uint32_t)(w->nrow[a] + lo0);
		deg = lo0 + lo1 + w->pcur[a];
		w->nrow[a + 1] = w->nrow[a] + deg;
		if (deg > *maxdeg)
			*maxdeg = deg;
	}
	for (a = 0; a < m->n; a++)
		w->nupper[a] = w->nrow[a + 1] - w->pcur[a];
	w->parts[0].lcnt = d0;
	if (c1)
		w->parts[1].lcnt = d1;
	return w->nrow[m->n];
}

/* mirror_vals by p's own upper rows: copies each into its place and writes
 * its entries into the rows of their columns at p's cursors. Cannot fail. */
static int mirror_own_vals(const qubo_model *m, work *w, part *p)
{
	size_t a, t;

	(void)m;
	for (a = p->r0; a < p->r1; a++) {
		const uint32_t *c = w->scol + w->ustart[a];
		const double *v = w->sval + w->ustart[a];
		memcpy(w->val + w->nupper[a], v, w->pcur[a] * sizeof *w->val);
		for (t = 0; t < w->pcur[a]; t++)
			w->val[p->lcnt[c[t]]++] = v[t];
	}
	return QUBO_OK;
}

/* The same for the columns, over the upper rows' weights (mirror_cols). */
static int mirror_own_cols(const qubo_model *m, work *w, part *p)
{
	size_t a, t;

	(void)m;
	for (a = p->r0; a < p->r1; a++) {
		const uint32_t *c = w->scol + w->ustart[a];
		memcpy(w->col + w->nupper[a], c, w->pcur[a] * sizeof *w->col);
		for (t = 0; t < w->pcur[a]; t++)
			w->col[p->lcnt[c[t]]++] = (uint32_t)a;
	}
	return QUBO_OK;
}

/* Sets the cursors back for the columns: part 0's ended where part 1's
 * began. */
static void rewind_cursors(const qubo_model *m, work *w)
{
	size_t a;

	for (a = 0; a < m->n; a++) {
		if (w->nparts > 1)
			w->parts[1].lcnt[a] = w->parts[0].lcnt[a];
		w->parts[0].lcnt[a] = (uint32_t)w->nrow[a];
	}
}

/*
 * Pairs in order: when the log is in order of (i, j) with i < j
 * (m->pairs_unsorted is 0), as the qbsolv reader's log of a file listed by
 * rows is, the log already is the upper rows, sorted, with each coupler's
 * repeats next to each other in the order they were added. They need no
 * scatter and no sort.
 *
 * The log is cut into nparts ranges of about equal length at row starts;
 * part k owns the rows from the first of its range to the first of the
 * next. One pass per part (count_sorted) sums each run as merge_upper
 * would (the same sums, bit for bit) and counts its rows' upper entries
 * and, in an array of its own, the lower entries its couplers give each
 * row. Once nothing can fail, one pass over the whole log (place_sorted)
 * writes each sum into its upper place in the symmetric form, over the log
 * itself, and each part then mirrors its rows into their lower places
 * (mirror_sorted), behind those of the parts before it. Only the columns
 * are allocated (8 bytes a coupler, and 4 bytes a variable per part),
 * where the general way allocates 12 bytes a pair for the upper rows.
 *
 * place_sorted may write over the log it reads: the upper entry of the
 * u-th coupler kept, of row i, goes to u + (couplers kept with column at
 * most i), and those couplers all lie in rows below i, so before it: the
 * place is at most 2u, within the first 8 bytes of the 16 of log entry u
 * or of one before, and the run it sums starts at entry u or later. Its
 * reads and writes go through memcpy(), which may alias anything, so the
 * compiler keeps them in this order.
 */

/* One run of equal pairs from log entry k on (before end): its first pair,
 * its sum and its end. The log is read through memcpy() (see above). */
static size_t sorted_run(const unsigned char *log, size_t end, size_t k, qubo__pair *q,
			 double *sum)
{
	qubo__pair r;
	size_t g;

	memcpy(q, log + k * sizeof *q, sizeof *q);
	*sum = q->w;
	for (g = k + 1; g < end; g++) {
		memcpy(&r, log + g * sizeof r, sizeof r);
		if (r.i != q->i || r.j != q->j)
			break;
		*sum += r.w;
	}
	return g;
}

/* Cuts the log into the parts' ranges [base, end) at row starts and gives
 * each part the rows [r0, r1) from its first row to the next part's. */
static void split_sorted(const qubo_model *m, work *w)
{
	const qubo__pair *q = m->pairs;
	size_t n = m->num_pairs, b = 0;
	unsigned k;

	for (k = 0; k < w->nparts; k++) {
		part *p = &w->parts[k];
		size_t goal = (size_t)((double)n * k / w->nparts);

		if (goal > b)
			b = goal;
		while (b > 0 && b < n && q[b].i == q[b - 1].i)
			b++;
		p->base = b;
		p->r0 = k == 0 ? 0 : b < n ? q[b].i : m->n;
		if (k) {
			w->parts[k - 1].end = b;
			w->parts[k - 1].r1 = p->r0;
		}
		p->bad_row = SIZE_MAX;
	}
	w->parts[w->nparts - 1].end = n;
	w->parts[w->nparts - 1].r1 = m->n;
}

/* count_sorted for one part; p->bad_row notes the first sum that is not
 * finite (the part's lowest coupler with one). A row's runs are next to
 * each other, all in its part: its count and the partial sums of its
 * magnitudes (as abs_sum() takes them) are kept here and stored when the
 * next row begins. */
static int count_sorted(const qubo_model *m, work *w, part *p)
{
	const unsigned char *log = (const unsigned char *)m->pairs;
	size_t k = p->base, g, row = p->r0, count = 0;
	qubo__pair q;
	double s, mag[4] = { 0.0, 0.0, 0.0, 0.0 };

	while (k < p->end) {
		g = sorted_run(log, p->end, k, &q, &s);
		if (!qubo__is_finite(s)) {
			if (p->bad_row == SIZE_MAX) {
				p->bad_row = q.i;
				p->bad_col = q.j;
			}
		} else if (s != 0.0) {
			if (q.i != row) {
				w->pcur[row] = count;
				w->rsum[row] = lanes_sum(mag);
				row = q.i;
				count = 0;
				mag[0] = mag[1] = mag[2] = mag[3] = 0.0;
			}
			mag[count++ & 3] += fabs(s);
			p->lo[q.j]++;
		}
		if (part_poll(m, w, p, g - k))
			return QUBO_CANCELLED;
		k = g;
	}
	if (row < p->r1) {
		w->pcur[row] = count;
		w->rsum[row] = lanes_sum(mag);
	}
	return QUBO_OK;
}

/* Writes the sums into their upper places, over the log (w->val). Cannot
 * fail. */
static void place_sorted(const qubo_model *m, work *w)
{
	unsigned char *log = (unsigned char *)w->val;
	size_t k = 0, n = m->num_pairs, at;
	qubo__pair q;
	double s;

	while (k < n) {
		k = sorted_run(log, n, k, &q, &s);
		if (s != 0.0) {
			at = w->pcur[q.i]++;
			w->col[at] = q.j;
			memcpy(log + at * sizeof s, &s, sizeof s);
		}
	}
}

/* Mirrors the upper entries of p's rows into the lower places its couplers
 * have in every row (p->lo: the first of them, counted from the row's
 * start). Rows come in order, so each row's lower entries are sorted.
 * Cannot fail. */
static int mirror_sorted(const qubo_model *m, work *w, part *p)
{
	size_t a, t;

	(void)m;
	for (a = p->r0; a < p->r1; a++) {
		for (t = w->nupper[a]; t < w->nrow[a + 1]; t++) {
			uint32_t c = w->col[t];
			size_t at = w->nrow[c] + p->lo[c]++;
			w->col[at] = (uint32_t)a;
			w->val[at] = w->val[t];
		}
	}
	return QUBO_OK;
}

/* The log into the compiled form when it is in order; w holds nrow,
 * nupper, pcur and the parts (compile_pairs). */
static int compile_sorted(qubo_model *m, work *w)
{
	const qubo_allocator *al = &m->alloc;
	size_t a, deg, nnz, maxdeg = 0;
	unsigned k;
	int rc;

	for (k = 0; k < w->nparts; k++) {
		w->parts[k].lo = qubo__calloc_array(al, m->n, sizeof *w->parts[k].lo);
		if (!w->parts[k].lo)
			return qubo__nomem("compilation work space");
	}
	memset(w->pcur, 0, m->n * sizeof *w->pcur);
	split_sorted(m, w);
	if ((rc = run_parts(m, w, count_sorted)) || (rc = check_linear(m, w)) ||
	    (rc = check_sums(w)) || (rc = check_total(m, w)))
		return rc;
	/* Row a: its lower entries, part by part, then its upper ones; lo
	 * becomes where each part's lower entries start in the row. */
	w->nrow[0] = 0;
	for (a = 0; a < m->n; a++) {
		size_t lo = 0;

		for (k = 0; k < w->nparts; k++) {
			uint32_t c = w->parts[k].lo[a];
			w->parts[k].lo[a] = (uint32_t)lo;
			lo += c;
		}
		deg = lo + w->pcur[a];
		w->nupper[a] = w->nrow[a] + lo;
		w->pcur[a] = w->nupper[a];
		w->nrow[a + 1] = w->nrow[a] + deg;
		if (deg > maxdeg)
			maxdeg = deg;
	}
	nnz = w->nrow[m->n];
	w->col = qubo__malloc_array(al, nnz, sizeof *w->col);
	if (!w->col)
		return qubo__nomem("the compiled adjacency");
	advise_huge(w->col, nnz * sizeof *w->col);
	/* Nothing fails from here on: the log becomes the weights. */
	w->val = (double *)(void *)m->pairs;
	m->pairs = NULL;
	place_sorted(m, w);
	run_parts(m, w, mirror_sorted);
	shrink(al, w, nnz);
	commit(m, w, nnz, maxdeg);
	return QUBO_OK;
}

static int compile_pairs(qubo_model *m)
{
	const qubo_allocator *al = &m->alloc;
	size_t a, nup, spread, nnz = 0, maxdeg = 0;
	unsigned k, nchunks;
	int has_diag = 0, counted, rc;
	work w;

	memset(&w, 0, sizeof w);
	w.nrow = qubo__calloc_array(al, m->cap_n + 1, sizeof *w.nrow);
	w.nupper = qubo__malloc_array(al, m->cap_n, sizeof *w.nupper);
	w.pcur = qubo__malloc_array(al, m->n, sizeof *w.pcur);
	w.rsum = qubo__calloc_array(al, m->n, sizeof *w.rsum);
	w.nparts = pair_workers(m);
	w.parts = qubo__calloc_array(al, w.nparts, sizeof *w.parts);
	if (!w.nrow || !w.nupper || !w.pcur || !w.rsum || !w.parts) {
		rc = qubo__nomem("compilation work space");
		goto fail;
	}
	if (!m->pairs_unsorted) {
		rc = compile_sorted(m, &w);
		if (rc)
			goto fail;
		return QUBO_OK;
	}
	w.ustart = qubo__calloc_array(al, m->n + 1, sizeof *w.ustart);
	if (!w.ustart) {
		rc = qubo__nomem("compilation work space");
		goto fail;
	}
	/* The log in chunks, one a part, each counted and scattered by its
	 * part alone, so that no part reads the pairs of another (and skips
	 * them, a branch it would mispredict half the time). The counts of
	 * parts 1 to 3 go to work space that waits for the layout: nupper
	 * holds two arrays of them, nrow a third; a count of a chunk fits in
	 * 32 bits when the log does. */
	nchunks = w.nparts < MAX_CHUNKS ? w.nparts : MAX_CHUNKS;
	if (m->num_pairs > UINT32_MAX)
		nchunks = 1;
	for (k = 0; k < w.nparts; k++) {
		part *p = &w.parts[k];
		p->base = chunk_start(m->num_pairs, k, nchunks);
		p->end = chunk_start(m->num_pairs, k + 1, nchunks);
		if (k == 0 || k >= nchunks)
			continue;
		p->rcnt = k < 3 ? (uint32_t *)(void *)w.nupper + (k - 1) * m->n :
			(uint32_t *)(void *)w.nrow;
		memset(p->rcnt, 0, m->n * sizeof *p->rcnt);
	}
	rc = run_parts(m, &w, count_chunk);
	if (rc)
		goto fail;
	for (a = 0; a < m->n; a++) {
		size_t c = w.ustart[a + 1];
		for (k = 1; k < nchunks; k++)
			c += w.parts[k].rcnt[a];
		w.ustart[a + 1] = w.ustart[a] + c;
	}
	nup = w.ustart[m->n];
	for (k = 0; k < w.nparts; k++)
		has_diag |= w.parts[k].diag;
	if (has_diag) {
		w.hnew = qubo__malloc_array(al, m->cap_n, sizeof *w.hnew);
		if (!w.hnew) {
			rc = qubo__nomem("linear weights");
			goto fail;
		}
		memcpy(w.hnew, m->h, m->n * sizeof *w.hnew);
		rc = fold_diagonal(m, &w);
		if (rc)
			goto fail;
	}
	rc = check_linear(m, &w);
	if (rc)
		goto fail;
	choose_buckets(m, &w);
	split_buckets(m, &w);
	w.sbuf = qubo__malloc_array(al, nup, sizeof *w.sval + sizeof *w.scol);
	if (!w.sbuf) {
		rc = qubo__nomem("the compiled adjacency");
		goto fail;
	}
	w.sval = (double *)(void *)w.sbuf;
	w.scol = (uint32_t *)(void *)(w.sbuf + nup * sizeof *w.sval);
	/* The parts' scratch for their buckets lives in lcur, which waits
	 * for the layout: with short rows (many variables) it is larger than
	 * the scratch, and adds nothing to the memory. */
	for (k = 0, spread = 0; k < w.nparts; k++)
		spread += w.parts[k].maxrow;
	a = (spread * (sizeof *w.sval + sizeof *w.scol) + sizeof *w.lcur - 1) / sizeof *w.lcur;
	w.lcur = qubo__malloc_array(al, a > m->n ? a : m->n, sizeof *w.lcur);
	if (!w.lcur) {
		rc = qubo__nomem("compilation work space");
		goto fail;
	}
	for (k = 0, a = 0; k < w.nparts; k++) {
		part *p = &w.parts[k];
		p->bval = (double *)(void *)w.lcur + a;
		p->bcol = (uint32_t *)(void *)((double *)(void *)w.lcur + spread) + a;
		a += p->maxrow;
	}
	chunk_offsets(m, &w, nchunks);
	/* nupper is free again (the chunks' counts are offsets now, in rcnt
	 * of parts 1 and 2, read by the scatter): the parts' lower counts go
	 * there after it */
	counted = w.nparts <= 2 && nup <= UINT32_MAX / 2;
	advise_huge(w.sbuf, nup * (sizeof *w.sval + sizeof *w.scol));
	rc = run_parts(m, &w, scatter_chunk);
	if (!rc && counted) {
		memset(w.nupper, 0, w.nparts * m->n * sizeof *w.parts[0].lcnt);
		for (k = 0; k < w.nparts; k++)
			w.parts[k].lcnt = (uint32_t *)(void *)w.nupper + k * m->n;
	}
	if (!rc)
		rc = run_parts(m, &w, sort_buckets);
	if (!rc)
		rc = check_sums(&w);
	if (!rc)
		rc = check_total(m, &w);
	if (!rc && !counted)
		rc = layout_upper(m, &w, &nnz, &maxdeg);
	if (rc)
		goto fail;
	/* Nothing fails from here on: the log becomes the weights, the upper
	 * rows the columns, each written by the parts' own rows or by ranges
	 * of the symmetric rows. */
	w.val = (double *)(void *)m->pairs;
	w.col = (uint32_t *)(void *)w.sbuf;
	m->pairs = NULL;
	w.sbuf = NULL;
	if (counted) {
		nnz = layout_counted(m, &w, &maxdeg);
		run_parts(m, &w, mirror_own_vals);
		rewind_cursors(m, &w);
		run_parts(m, &w, mirror_own_cols);
	} else {
		split_by_entries(m, &w, w.nrow);
		run_parts(m, &w, mirror_vals);
		run_parts(m, &w, mirror_cols);
	}
	shrink(al, &w, nnz);
	commit(m, &w, nnz, maxdeg);
	return QUBO_OK;

fail:
	work_free(al, &w);
	return rc;
}

/* The weight sum's check of a clean model, whose linear part may have
 * changed since it was compiled; makes its bound exact again. */
static int check_clean(qubo_model *m)
{
	double lin;
	int rc = qubo__model_check_bounded(m, "qubo_model_compile", &lin);

	if (!rc)
		m->linear_bound = lin;
	return rc;
}

int qubo_model_compile(qubo_model *m)
{
	const qubo_allocator *al;
	size_t a, total = 0, nnz = 0, maxdeg = 0, maxheads = 0;
	unsigned k;
	int has_diag = 0, rc;
	work w;

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_compile: model is NULL");
	if (!m->dirty)
		return check_clean(m);
	if (m->num_cliques == 0 && m->nnz == 0 && m->num_pairs > 0)
		return compile_pairs(m);
	al = &m->alloc;
	rc = alloc_work(m, &w);
	if (rc)
		goto fail;
	switch (count_rows(m, &w)) {
	case 0:
		goto too_large;
	case -1:
		rc = QUBO_CANCELLED;
		goto fail;
	default:
		break;
	}
	{
		/* one pass on the calling thread: counting is bound by reading
		 * the log, which every extra thread would read again */
		part all;
		memset(&all, 0, sizeof all);
		all.r1 = m->n;
		all.on_caller = 1;
		rc = count_pairs(m, &w, &all);
		if (rc)
			goto fail;
		has_diag = all.diag;
	}
	for (a = 0; a < m->n; a++) {
		size_t on = m->row[a + 1] - m->row[a];
		size_t len = w.clq[a];
		if (!add_ok(&len, on) || !add_ok(&len, w.pcur[a]) || !add_ok(&total, len))
			goto too_large;
		w.nrow[a + 1] = total;
		w.pcur[a] = w.nrow[a] + w.clq[a] + on;
	}
	if (has_diag) {
		w.hnew = qubo__malloc_array(al, m->cap_n, sizeof *w.hnew);
		if (!w.hnew) {
			rc = qubo__nomem("linear weights");
			goto fail;
		}
		memcpy(w.hnew, m->h, m->n * sizeof *w.hnew);
	}
	for (a = 0; a < m->n; a++) /* mstart still holds counts per variable */
		if (w.mstart[a + 1] > maxheads)
			maxheads = w.mstart[a + 1];
	split_by_entries(m, &w, w.nrow);
	w.heads = qubo__malloc_array(al, maxheads, sizeof *w.heads);
	w.col = qubo__malloc_array(al, total, sizeof *w.col);
	w.val = qubo__malloc_array(al, total, sizeof *w.val);
	if (!w.heads || !w.col || !w.val) {
		rc = qubo__nomem("the compiled adjacency");
		goto fail;
	}
	for (k = 0; k < w.nparts; k++) {
		part *p = &w.parts[k];
		p->tcol = qubo__malloc_array(al, p->maxrow, sizeof *p->tcol);
		p->tval = qubo__malloc_array(al, p->maxrow, sizeof *p->tval);
		p->scol = qubo__malloc_array(al, p->maxrow, sizeof *p->scol);
		p->sval = qubo__malloc_array(al, p->maxrow, sizeof *p->sval);
		if (!p->tcol || !p->tval || !p->scol || !p->sval) {
			rc = qubo__nomem("the compiled adjacency");
			goto fail;
		}
	}
	advise_huge(w.col, total * sizeof *w.col);
	advise_huge(w.val, total * sizeof *w.val);
	rc = index_members(m, &w);
	if (!rc)
		rc = fill_cliques(m, &w);
	if (!rc)
		rc = fill_old(m, &w);
	if (!rc)
		rc = run_parts(m, &w, scatter_pairs);
	if (rc)
		goto fail;
	rc = check_linear(m, &w);
	if (!rc)
		rc = run_parts(m, &w, merge_rows);
	if (!rc)
		rc = check_sums(&w);
	if (!rc)
		rc = check_total(m, &w);
	if (rc)
		goto fail;
	nnz = join_parts(m, &w, &maxdeg);
	if (nnz < total)
		shrink(al, &w, nnz);
	commit(m, &w, nnz, maxdeg);
	return QUBO_OK;

too_large:
	rc = qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
			     "qubo_model_compile: the adjacency would exceed the address space");
fail:
	work_free(al, &w);
	return rc;
}
