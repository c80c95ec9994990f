#include "compile_impl.h"

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
int qubo__compile_sorted(qubo_model *m, work *w)
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
	if ((rc = qubo__compile_run_parts(m, w, count_sorted)) ||
	    (rc = qubo__compile_check_linear(m, w)) || (rc = qubo__compile_check_sums(w)) ||
	    (rc = qubo__compile_check_total(m, w)))
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
	qubo__compile_advise_huge(w->col, nnz * sizeof *w->col);
	/* Nothing fails from here on: the log becomes the weights. */
	w->val = (double *)(void *)m->pairs;
	m->pairs = NULL;
	place_sorted(m, w);
	qubo__compile_run_parts(m, w, mirror_sorted);
	qubo__compile_shrink(al, w, nnz);
	qubo__compile_commit(m, w, nnz, maxdeg);
	return QUBO_OK;
}
