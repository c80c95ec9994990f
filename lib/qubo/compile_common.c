/*
 * The passes every compile path shares (compile_impl.h): running the parts,
 * the checks of the sums, and committing the new compiled form.
 */
#include <sys/mman.h>

#include "compile_impl.h"
#include "pool.h"

/* Asks for transparent huge pages on a large fresh array: the compiled form
 * of a big model is written once, in a scattered order, and 4 KiB page
 * faults would otherwise cost as much as the writing. Advisory only. */
void qubo__compile_advise_huge(void *p, size_t bytes)
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

void qubo__compile_work_free(const qubo_allocator *a, work *w)
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

typedef struct parts_job {
	const qubo_model *m;
	work *w;
	part_fn fn;
} parts_job;

/* Unit u of the pool: part u + 1, on a thread of the pool's. */
static int part_unit(qubo__pool *pl, unsigned wk, size_t u)
{
	const parts_job *j = pl->arg;
	int rc = j->fn(j->m, j->w, &j->w->parts[u + 1]);

	(void)wk;
	if (rc)
		atomic_store_explicit(&j->w->stop, 1, memory_order_relaxed);
	return rc;
}

/* Runs fn on every part: part 0 on the calling thread, which polls the
 * interrupt function as it goes, the others on the pool's threads, one
 * each (when no thread can be started, the calling thread runs them
 * afterwards: the same result, later). QUBO_OK or QUBO_CANCELLED. */
int qubo__compile_run_parts(const qubo_model *m, work *w, part_fn fn)
{
	parts_job job = { m, w, fn };
	qubo__pool pl;
	unsigned k;
	int rc, started;

	atomic_store(&w->stop, 0);
	for (k = 0; k < w->nparts; k++) {
		w->parts[k].on_caller = k == 0;
		w->parts[k].tick = 0;
	}
	started = 0;
	if (w->nparts > 1) {
		qubo__pool_init(&pl, w->nparts - 1, (int)w->nparts - 1, part_unit, &job);
		started = qubo__pool_start(&pl);
	}
	rc = fn(m, w, &w->parts[0]);
	if (rc)
		atomic_store(&w->stop, 1);
	if (started) {
		int prc;

		if (rc)
			qubo__pool_request_stop(&pl, QUBO__STOP_CANCEL);
		prc = qubo__pool_wait(&pl);
		return rc ? rc : prc;
	}
	for (k = 1; k < w->nparts && !rc; k++) {
		w->parts[k].on_caller = 1;
		rc = fn(m, w, &w->parts[k]);
	}
	return rc;
}

/* Splits the rows into nparts ranges of about equal numbers of reserved
 * entries (starts: the reserved start of every row, and the total). */
void qubo__compile_split_by_entries(const qubo_model *m, work *w, const size_t *starts)
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

/* QUBO_ERR_OUT_OF_RANGE when the offset or a linear weight (with the
 * diagonal pairs folded in) is not finite; sets w->lin. */
int qubo__compile_check_linear(const qubo_model *m, work *w)
{
	return qubo__model_linear_sum(m->offset, w->hnew ? w->hnew : m->h, m->n,
				      "qubo_model_compile", &w->lin);
}

/* QUBO_ERR_OUT_OF_RANGE when the weight sum, w->lin and the rows' sums in
 * order of row, is above the limit; sets w->quad. */
int qubo__compile_check_total(const qubo_model *m, work *w)
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
int qubo__compile_check_sums(const work *w)
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
void qubo__compile_shrink(const qubo_allocator *al, work *w, size_t nnz)
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
void qubo__compile_commit(qubo_model *m, work *w, size_t nnz, size_t maxdeg)
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
	qubo__compile_work_free(al, w);
}
