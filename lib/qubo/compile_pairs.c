#include "compile_impl.h"

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
				qubo__compile_rank_pairs(c, v, len, w->scol + at, w->sval + at);
				o = qubo__compile_sum_sorted(w->scol + at, w->sval + at, len,
							     w->scol + at, w->sval + at, 0, p, a);
			} else if (len <= UINT32_MAX) {
				/* the row's own place is the other buffer */
				if (qubo__compile_radix_pairs(c, v, len, w->scol + at, w->sval + at,
							      cb))
					o = qubo__compile_sum_sorted(w->scol + at, w->sval + at,
								     len, w->scol + at,
								     w->sval + at, 0, p, a);
				else
					o = qubo__compile_sum_sorted(c, v, len, w->scol + at,
								     w->sval + at, 0, p, a);
			} else {
				/* the row's own place is free: the sort's scratch */
				qubo__compile_sort_pairs(c, v, len, w->scol + at, w->sval + at);
				o = qubo__compile_sum_sorted(c, v, len, w->scol + at, w->sval + at,
							     0, p, a);
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

int qubo__compile_pairs(qubo_model *m)
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
	w.nparts = qubo__compile_pair_workers(m);
	w.parts = qubo__calloc_array(al, w.nparts, sizeof *w.parts);
	if (!w.nrow || !w.nupper || !w.pcur || !w.rsum || !w.parts) {
		rc = qubo__nomem("compilation work space");
		goto fail;
	}
	if (!m->pairs_unsorted) {
		rc = qubo__compile_sorted(m, &w);
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
	rc = qubo__compile_run_parts(m, &w, count_chunk);
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
	rc = qubo__compile_check_linear(m, &w);
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
	qubo__compile_advise_huge(w.sbuf, nup * (sizeof *w.sval + sizeof *w.scol));
	rc = qubo__compile_run_parts(m, &w, scatter_chunk);
	if (!rc && counted) {
		memset(w.nupper, 0, w.nparts * m->n * sizeof *w.parts[0].lcnt);
		for (k = 0; k < w.nparts; k++)
			w.parts[k].lcnt = (uint32_t *)(void *)w.nupper + k * m->n;
	}
	if (!rc)
		rc = qubo__compile_run_parts(m, &w, sort_buckets);
	if (!rc)
		rc = qubo__compile_check_sums(&w);
	if (!rc)
		rc = qubo__compile_check_total(m, &w);
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
		qubo__compile_run_parts(m, &w, mirror_own_vals);
		rewind_cursors(m, &w);
		qubo__compile_run_parts(m, &w, mirror_own_cols);
	} else {
		qubo__compile_split_by_entries(m, &w, w.nrow);
		qubo__compile_run_parts(m, &w, mirror_vals);
		qubo__compile_run_parts(m, &w, mirror_cols);
	}
	qubo__compile_shrink(al, &w, nnz);
	qubo__compile_commit(m, &w, nnz, maxdeg);
	return QUBO_OK;

fail:
	qubo__compile_work_free(al, &w);
	return rc;
}
