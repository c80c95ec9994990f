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
#include "compile_impl.h"
#include "pool.h"

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
unsigned qubo__compile_pair_workers(const qubo_model *m)
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
	w->nparts = qubo__compile_pair_workers(m);
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
			qubo__compile_sort_pairs(w->col + pstart, w->val + pstart, pn, p->tcol,
						 p->tval);
			o = qubo__compile_sum_sorted(w->col + pstart, w->val + pstart, pn, w->col,
						     w->val, out, p, a);
			if (o == SIZE_MAX)
				break;
			len = o - out;
		} else if (w->flag[a]) {
			uint32_t bad = 0;
			memcpy(p->tcol, w->col + pstart, pn * sizeof *p->tcol);
			memcpy(p->tval, w->val + pstart, pn * sizeof *p->tval);
			qubo__compile_sort_pairs(p->tcol, p->tval, pn, p->scol, p->sval);
			len = qubo__compile_merge_row(w->col + ostart, w->val + ostart, on,
						      w->col + start, w->val + start, cend - start,
						      p->tcol, p->tval, pn, p->scol, p->sval, &bad);
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
		return qubo__compile_pairs(m);
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
	qubo__compile_split_by_entries(m, &w, w.nrow);
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
	qubo__compile_advise_huge(w.col, total * sizeof *w.col);
	qubo__compile_advise_huge(w.val, total * sizeof *w.val);
	rc = index_members(m, &w);
	if (!rc)
		rc = fill_cliques(m, &w);
	if (!rc)
		rc = fill_old(m, &w);
	if (!rc)
		rc = qubo__compile_run_parts(m, &w, scatter_pairs);
	if (rc)
		goto fail;
	rc = qubo__compile_check_linear(m, &w);
	if (!rc)
		rc = qubo__compile_run_parts(m, &w, merge_rows);
	if (!rc)
		rc = qubo__compile_check_sums(&w);
	if (!rc)
		rc = qubo__compile_check_total(m, &w);
	if (rc)
		goto fail;
	nnz = join_parts(m, &w, &maxdeg);
	if (nnz < total)
		qubo__compile_shrink(al, &w, nnz);
	qubo__compile_commit(m, &w, nnz, maxdeg);
	return QUBO_OK;

too_large:
	rc = qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
			     "qubo_model_compile: the adjacency would exceed the address space");
fail:
	qubo__compile_work_free(al, &w);
	return rc;
}
