/*
 * The compile's parts (compile.c's first comment describes them): the
 * general merge (compile.c), the passes every path shares
 * (compile_common.c), sorting and summing a row (compile_rows.c), single
 * pairs in random order through buckets (compile_pairs.c) and single pairs
 * in order (compile_sorted.c).
 */
#ifndef QUBO_COMPILE_IMPL_H
#define QUBO_COMPILE_IMPL_H

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "model_impl.h"

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

/* Rows this short are sorted by rank (qubo__compile_rank_pairs), longer
 * ones by digits; an entry's place in its row takes the 6 bits under its
 * column in a key. */
#define RANK_MAX 64

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
static inline int poll(const qubo_model *m, work *w, size_t done)
{
	w->tick += done + 1;
	if (w->tick < QUBO__INTERRUPT_EVERY)
		return 0;
	w->tick = 0;
	return qubo__model_interrupted(m);
}

/* poll() for a part: on another thread than the caller's, checks the stop
 * flag that the calling thread raises instead. */
static inline int part_poll(const qubo_model *m, work *w, part *p, size_t done)
{
	if (p->on_caller)
		return poll(m, w, done);
	p->tick += done + 1;
	if (p->tick < QUBO__INTERRUPT_EVERY)
		return 0;
	p->tick = 0;
	return atomic_load_explicit(&w->stop, memory_order_relaxed);
}

static inline int add_ok(size_t *acc, size_t x)
{
	if (*acc + x < x)
		return 0;
	*acc += x;
	return 1;
}

/* The total of abs_sum()'s four partial sums. */
static inline double lanes_sum(const double *s)
{
	return (s[0] + s[1]) + (s[2] + s[3]);
}

/* Σ|v[k]| in a fixed order: entry k into partial sum k mod 4, each in
 * order of k, then lanes_sum(). Four chains of additions, where one would
 * wait on each addition. */
static inline double abs_sum(const double *v, size_t len)
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

/* A pass over the rows of one part. */
typedef int (*part_fn)(const qubo_model *m, work *w, part *p);

/* Asks for transparent huge pages on a large fresh array: the compiled form
 * of a big model is written once, in a scattered order, and 4 KiB page
 * faults would otherwise cost as much as the writing. Advisory only. */
void qubo__compile_advise_huge(void *p, size_t bytes);

void qubo__compile_work_free(const qubo_allocator *a, work *w);

/* Runs fn on every part: part 0 on the calling thread, which polls the
 * interrupt function as it goes, the others on the pool's threads, one
 * each (when no thread can be started, the calling thread runs them
 * afterwards: the same result, later). QUBO_OK or QUBO_CANCELLED. */
int qubo__compile_run_parts(const qubo_model *m, work *w, part_fn fn);

/* Splits the rows into nparts ranges of about equal numbers of reserved
 * entries (starts: the reserved start of every row, and the total). */
void qubo__compile_split_by_entries(const qubo_model *m, work *w, const size_t *starts);

/* QUBO_ERR_OUT_OF_RANGE when the offset or a linear weight (with the
 * diagonal pairs folded in) is not finite; sets w->lin. */
int qubo__compile_check_linear(const qubo_model *m, work *w);

/* QUBO_ERR_OUT_OF_RANGE when the weight sum, w->lin and the rows' sums in
 * order of row, is above the limit; sets w->quad. */
int qubo__compile_check_total(const qubo_model *m, work *w);

/* The first range's sum that is not finite, reported for its coupler
 * (ranges hold ascending rows, so it is the lowest row's). */
int qubo__compile_check_sums(const work *w);

/* Gives back the room of the columns and weights past nnz entries; a
 * failure is harmless (the larger blocks are kept). */
void qubo__compile_shrink(const qubo_allocator *al, work *w, size_t nnz);

/* Replaces the compiled form with w's (w->nrow, w->nupper, w->col, w->val,
 * and w->hnew when set), empties the pending logs and frees the rest of
 * the work space. Cannot fail. */
void qubo__compile_commit(qubo_model *m, work *w, size_t nnz, size_t maxdeg);

/* Stable merge sort of (col, val) by col, using scratch of the same size. */
void qubo__compile_sort_pairs(uint32_t *c, double *v, size_t len, uint32_t *sc, double *sv);

/* Stable sort of (c, v)[0, len) by c into (oc, ov), len <= RANK_MAX, every
 * column below 2^26: each entry goes to its rank, the number of entries
 * with a smaller key, where the key is the column and then the entry's
 * place. Quadratic, but without a branch that depends on the columns
 * (an insertion sort of random columns mispredicts about once an entry),
 * and with SSE2 four ranks at a time: for short rows it is the fastest. */
void qubo__compile_rank_pairs(const uint32_t *c, const double *v, size_t len, uint32_t *oc,
			      double *ov);

/* Stable sort of (c, v)[0, len) by c, len < 2^32, columns of cb bits, by
 * counting sorts of one digit at a time from the lowest up (each stable,
 * so the order of addition holds among equal columns), between (c, v) and
 * (oc, ov); the digits are as many as RADIX_BITS needs, of equal width.
 * Returns 1 when the sorted row ends in (oc, ov), 0 in (c, v). For the
 * rows too long to rank: its time grows as the row's length, where merging
 * adds a pass over the row for every doubling of it. */
int qubo__compile_radix_pairs(uint32_t *c, double *v, size_t len, uint32_t *oc, double *ov,
			      unsigned cb);

/* Sums the runs of equal columns of the sorted row (c, v)[0, len), in order,
 * and writes the nonzero sums to (oc, ov) from index o on, never past the
 * entry being read (the output may be the row itself). Returns the end of
 * the output, or SIZE_MAX after noting in p a sum that is not finite. */
size_t qubo__compile_sum_sorted(const uint32_t *c, const double *v, size_t len, uint32_t *oc,
				double *ov, size_t o, part *p, size_t row);

/* Merges the old (O), clique (C) and pair (P) parts of one row into out,
 * summing equal columns in the order O, C, P and dropping zeros. Returns the
 * merged length, or SIZE_MAX when a sum is not finite (*bad_col set). */
size_t qubo__compile_merge_row(const uint32_t *oc, const double *ov, size_t on, const uint32_t *cc,
			       const double *cv, size_t cn, const uint32_t *pc, const double *pv,
			       size_t pn, uint32_t *outc, double *outv, uint32_t *bad_col);

/* Workers for the pair passes: the model's setting (0: one per online CPU,
 * at most PAR_DEFAULT_MAX), one when there are few pairs, never more than
 * the rows. */
unsigned qubo__compile_pair_workers(const qubo_model *m);

int qubo__compile_pairs(qubo_model *m);

/* The log into the compiled form when it is in order; w holds nrow,
 * nupper, pcur and the parts (compile_pairs). */
int qubo__compile_sorted(qubo_model *m, work *w);

#endif /* QUBO_COMPILE_IMPL_H */
