/* The model object: variables, linear terms, the pending-term logs, export,
 * and the weight sum's checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

int qubo__model_require_compiled(const qubo_model *m, const char *func)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", func);
	if (m->dirty)
		return qubo__error(QUBO_ERR_MISUSE,
				   "%s: the model has %zu pending pairwise terms; call "
				   "qubo_model_compile first", func, m->pending_pairs);
	return QUBO_OK;
}

/* |offset| + Σ|h_i|, in order of i. */
static double linear_abs(double offset, const double *h, size_t n)
{
	double s = fabs(offset);
	size_t i;

	for (i = 0; i < n; i++)
		s += fabs(h[i]);
	return s;
}

int qubo__model_linear_sum(double offset, const double *h, size_t n, const char *func,
			   double *sum)
{
	size_t i;

	*sum = linear_abs(offset, h, n);
	if (qubo__is_finite(*sum))
		return QUBO_OK;
	/* finite weights whose sum overflows are for the weight sum's check */
	if (!qubo__is_finite(offset))
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: the offset is not finite", func);
	for (i = 0; i < n; i++)
		if (!qubo__is_finite(h[i]))
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s: the linear weight of variable %zu sums to a value "
					   "that is not finite", func, i);
	return QUBO_OK;
}

int qubo__model_check_weight_sum(double total, const char *func)
{
	char got[40];

	if (total <= QUBO_MODEL_MAX_WEIGHT_SUM)
		return QUBO_OK;
	if (qubo__is_finite(total))
		snprintf(got, sizeof got, "%.6g", total);
	else
		snprintf(got, sizeof got, "more than the largest double");
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: the weights' magnitudes, |offset| + sum |h_i| + sum |J_ij|, add "
			   "up to %s: above 2^1000 (about 1.07e+301, QUBO_MODEL_MAX_WEIGHT_SUM), "
			   "the limit that keeps energies finite", func, got);
}

double qubo__model_weight_sum(const qubo_model *m)
{
	return linear_abs(m->offset, m->h, m->n) + m->coupler_sum;
}

int qubo__model_check_bounded(const qubo_model *m, const char *func, double *lin)
{
	int rc = qubo__model_linear_sum(m->offset, m->h, m->n, func, lin);

	return rc ? rc : qubo__model_check_weight_sum(*lin + m->coupler_sum, func);
}

int qubo__model_require_bounded(const qubo_model *m, const char *func)
{
	double lin;
	int rc = qubo__model_require_compiled(m, func);

	/* half the limit leaves room for the rounding of the bound's sums */
	if (rc || m->linear_bound + m->coupler_sum <= 0.5 * QUBO_MODEL_MAX_WEIGHT_SUM)
		return rc;
	return qubo__model_check_bounded(m, func, &lin);
}

/* Adds w to *slot, the offset or a linear weight of m, and its magnitude
 * to the bound of their sum. */
static void add_weight(qubo_model *m, double *slot, double w)
{
	*slot += w;
	m->linear_bound += fabs(w);
}

/* Grows the per-variable arrays (h, row, upper) to hold at least need
 * variables. On failure the arrays that did grow keep their contents. */
static int reserve_vars(qubo_model *m, size_t need)
{
	size_t cap = m->cap_n ? m->cap_n : 16;
	double *h;
	size_t *row, *upper;

	if (need <= m->cap_n)
		return QUBO_OK;
	while (cap < need)
		cap = cap > SIZE_MAX / 4 ? need : cap * 2;
	/* doubling never reserves past the documented maximum */
	if (cap > QUBO_MODEL_MAX_VARIABLES && need <= QUBO_MODEL_MAX_VARIABLES)
		cap = QUBO_MODEL_MAX_VARIABLES;
	h = qubo__realloc_array(&m->alloc, m->h, cap, sizeof *h);
	if (!h)
		return qubo__nomem("linear weights");
	m->h = h;
	row = qubo__realloc_array(&m->alloc, m->row, cap + 1, sizeof *row);
	if (!row)
		return qubo__nomem("adjacency row pointers");
	m->row = row;
	upper = qubo__realloc_array(&m->alloc, m->upper, cap, sizeof *upper);
	if (!upper)
		return qubo__nomem("adjacency row pointers");
	m->upper = upper;
	m->cap_n = cap;
	return QUBO_OK;
}

int qubo_model_new(qubo_model **out, size_t num_variables, const qubo_allocator *allocator)
{
	qubo_allocator a;
	qubo_model *m;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_new: out is NULL");
	*out = NULL;
	rc = qubo__alloc_init(&a, allocator, "qubo_model_new");
	if (rc)
		return rc;
	if (num_variables > QUBO_MODEL_MAX_VARIABLES)
		return qubo__too_large(QUBO_LIMIT_MODEL_VARIABLES, QUBO_MODEL_MAX_VARIABLES,
				       "qubo_model_new: %zu variables requested, the limit is %zu "
				       "(QUBO_MODEL_MAX_VARIABLES)",
				       num_variables, QUBO_MODEL_MAX_VARIABLES);
	m = qubo__malloc(&a, sizeof *m);
	if (!m)
		return qubo__nomem("a model");
	memset(m, 0, sizeof *m);
	m->alloc = a;
	rc = reserve_vars(m, num_variables ? num_variables : 1);
	if (rc) {
		qubo_model_free(m);
		return rc;
	}
	m->n = num_variables;
	memset(m->h, 0, num_variables * sizeof *m->h);
	memset(m->row, 0, (num_variables + 1) * sizeof *m->row);
	memset(m->upper, 0, num_variables * sizeof *m->upper);
	*out = m;
	return QUBO_OK;
}

static void free_logs(qubo_model *m)
{
	qubo__free(&m->alloc, m->pairs);
	qubo__free(&m->alloc, m->cliques);
	qubo__free(&m->alloc, m->members);
	m->pairs = NULL;
	m->cliques = NULL;
	m->members = NULL;
	m->num_pairs = m->cap_pairs = 0;
	m->num_cliques = m->cap_cliques = 0;
	m->num_members = m->cap_members = 0;
	m->pending_pairs = 0;
	m->pairs_unsorted = 0;
	m->dirty = 0;
}

void qubo_model_free(qubo_model *m)
{
	if (!m)
		return;
	free_logs(m);
	qubo__free(&m->alloc, m->groups);
	qubo__free(&m->alloc, m->h);
	qubo__free(&m->alloc, m->row);
	qubo__free(&m->alloc, m->upper);
	qubo__free(&m->alloc, m->col);
	qubo__free(&m->alloc, m->val);
	qubo__free(&m->alloc, m);
}

/* Copies count elements of size bytes into a new block (NULL when count is
 * 0); returns nonzero on allocation failure. */
static int dup_array(const qubo_allocator *a, void **dst, const void *src, size_t count,
		     size_t size)
{
	*dst = NULL;
	if (!count)
		return 0;
	*dst = qubo__malloc_array(a, count, size);
	if (!*dst)
		return 1;
	memcpy(*dst, src, count * size);
	return 0;
}

int qubo_model_copy(qubo_model **out, const qubo_model *m)
{
	qubo_model *c;
	int fail;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_copy: out is NULL");
	*out = NULL;
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_copy: model is NULL");
	c = qubo__malloc(&m->alloc, sizeof *c);
	if (!c)
		return qubo__nomem("a model copy");
	*c = *m;
	c->h = NULL;
	c->row = c->upper = NULL;
	c->col = NULL;
	c->val = NULL;
	c->pairs = NULL;
	c->cliques = NULL;
	c->members = NULL;
	c->groups = NULL;
	c->interrupt = NULL;
	c->interrupt_data = NULL;
	c->cap_n = 0;
	fail = reserve_vars(c, m->n ? m->n : 1) != QUBO_OK;
	if (!fail) {
		memcpy(c->h, m->h, m->n * sizeof *c->h);
		memcpy(c->row, m->row, (m->n + 1) * sizeof *c->row);
		memcpy(c->upper, m->upper, m->n * sizeof *c->upper);
	}
	fail = fail || dup_array(&m->alloc, (void **)&c->col, m->col, m->nnz, sizeof *c->col);
	fail = fail || dup_array(&m->alloc, (void **)&c->val, m->val, m->nnz, sizeof *c->val);
	fail = fail || dup_array(&m->alloc, (void **)&c->pairs, m->pairs, m->num_pairs,
				 sizeof *c->pairs);
	fail = fail || dup_array(&m->alloc, (void **)&c->cliques, m->cliques, m->num_cliques,
				 sizeof *c->cliques);
	fail = fail || dup_array(&m->alloc, (void **)&c->members, m->members, m->num_members,
				 sizeof *c->members);
	fail = fail || dup_array(&m->alloc, (void **)&c->groups, m->groups, m->num_groups,
				 sizeof *c->groups);
	c->cap_groups = c->groups ? m->num_groups : 0;
	c->cap_pairs = c->pairs ? m->num_pairs : 0;
	c->cap_cliques = c->cliques ? m->num_cliques : 0;
	c->cap_members = c->members ? m->num_members : 0;
	if (fail) {
		if (!c->col)
			c->nnz = 0;
		qubo_model_free(c);
		return qubo__nomem("a model copy");
	}
	*out = c;
	return QUBO_OK;
}

int qubo_model_add_variables(qubo_model *m, size_t count, uint32_t *first_out)
{
	size_t i;
	int rc;

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_add_variables: model is NULL");
	if (count > QUBO_MODEL_MAX_VARIABLES || m->n + count > QUBO_MODEL_MAX_VARIABLES)
		return qubo__too_large(QUBO_LIMIT_MODEL_VARIABLES, QUBO_MODEL_MAX_VARIABLES,
				       "qubo_model_add_variables: %zu + %zu variables exceed the "
				       "limit of %zu (QUBO_MODEL_MAX_VARIABLES)",
				       m->n, count, QUBO_MODEL_MAX_VARIABLES);
	rc = reserve_vars(m, m->n + count);
	if (rc)
		return rc;
	for (i = m->n; i < m->n + count; i++) {
		m->h[i] = 0.0;
		m->row[i + 1] = m->nnz;
		m->upper[i] = m->nnz;
	}
	if (first_out)
		*first_out = (uint32_t)m->n;
	m->n += count;
	return QUBO_OK;
}

size_t qubo_model_num_variables(const qubo_model *m)
{
	return m ? m->n : 0;
}

static int check_weight(double w, const char *func)
{
	if (!qubo__is_finite(w))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: weight is %s", func,
				   w != w ? "NaN" : "infinite");
	return QUBO_OK;
}

static int check_var(const qubo_model *m, uint32_t v, const char *func, const char *arg)
{
	if (v >= m->n)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "%s: %s = %u, but the model has %zu variables", func, arg, v,
				   m->n);
	return QUBO_OK;
}

static int check_lit(const qubo_model *m, qubo_lit l, const char *func, const char *arg)
{
	if (QUBO_LIT_IS_CONST(l) || QUBO_LIT_VAR(l) < m->n)
		return QUBO_OK;
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: %s names variable %u, but the model has %zu variables", func, arg,
			   QUBO_LIT_VAR(l), m->n);
}

int qubo_model_add_offset(qubo_model *m, double w)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_add_offset: model is NULL");
	if (check_weight(w, "qubo_model_add_offset"))
		return QUBO_ERR_INVALID_ARG;
	if (!qubo__is_finite(m->offset + w))
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "qubo_model_add_offset: the offset would overflow");
	add_weight(m, &m->offset, w);
	return QUBO_OK;
}

int qubo_model_add_linear(qubo_model *m, uint32_t v, double w)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_add_linear: model is NULL");
	if (check_var(m, v, "qubo_model_add_linear", "var"))
		return QUBO_ERR_OUT_OF_RANGE;
	if (check_weight(w, "qubo_model_add_linear"))
		return QUBO_ERR_INVALID_ARG;
	if (!qubo__is_finite(m->h[v] + w))
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "qubo_model_add_linear: the weight of variable %u would overflow",
				   v);
	add_weight(m, &m->h[v], w);
	return QUBO_OK;
}

static int reserve_log(const qubo_allocator *a, void **arr, size_t *cap, size_t num,
		       size_t extra, size_t elem)
{
	if (!extra)
		return QUBO_OK;
	if (num + extra < extra)
		return qubo__nomem("pending terms");
	return qubo__grow(a, arr, cap, num + extra, elem);
}

int qubo__model_reserve(qubo_model *m, size_t pairs, size_t cliques, size_t members)
{
	if (reserve_log(&m->alloc, (void **)&m->pairs, &m->cap_pairs, m->num_pairs, pairs,
			sizeof *m->pairs) ||
	    reserve_log(&m->alloc, (void **)&m->cliques, &m->cap_cliques, m->num_cliques,
			cliques, sizeof *m->cliques) ||
	    reserve_log(&m->alloc, (void **)&m->members, &m->cap_members, m->num_members,
			members, sizeof *m->members))
		return QUBO_ERR_NOMEM;
	return QUBO_OK;
}

/* Writes pair (i, j) with i <= j as the next entry of the log (room
 * reserved), noting when the log leaves the order of (i, j) with i < j. */
static void log_pair(qubo_model *m, uint32_t i, uint32_t j, double w)
{
	qubo__pair *p = &m->pairs[m->num_pairs];

	if (i == j || (m->num_pairs && qubo__pair_before(&p[-1], i, j)))
		m->pairs_unsorted = 1;
	p->i = i;
	p->j = j;
	p->w = w;
	m->num_pairs++;
	m->pending_pairs++;
	m->dirty = 1;
}

/* Appends one pair to the log; i == j is folded into h at compilation. */
static int push_pair(qubo_model *m, uint32_t i, uint32_t j, double w)
{
	if (qubo__grow(&m->alloc, (void **)&m->pairs, &m->cap_pairs, m->num_pairs + 1,
		       sizeof *m->pairs))
		return QUBO_ERR_NOMEM;
	log_pair(m, i < j ? i : j, i < j ? j : i, w);
	return QUBO_OK;
}

void qubo__model_push_log(qubo_model *m, const qubo__pair *src, size_t count, int in_order)
{
	qubo__pair *end = m->pairs + m->num_pairs;

	if (!count)
		return;
	if (!in_order || (m->num_pairs && qubo__pair_before(&end[-1], src[0].i, src[0].j)))
		m->pairs_unsorted = 1;
	memcpy(end, src, count * sizeof *src);
	m->num_pairs += count;
	m->pending_pairs += count;
	m->dirty = 1;
}

int qubo_model_add_quadratic(qubo_model *m, uint32_t i, uint32_t j, double w)
{
	static const char fn[] = "qubo_model_add_quadratic";

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	if (check_var(m, i, fn, "i") || check_var(m, j, fn, "j"))
		return QUBO_ERR_OUT_OF_RANGE;
	if (check_weight(w, fn))
		return QUBO_ERR_INVALID_ARG;
	if (w == 0.0)
		return QUBO_OK;
	return push_pair(m, i, j, w);
}

int qubo_model_add_quadratic_batch(qubo_model *m, size_t count, const uint32_t *rows,
				   const uint32_t *cols, const double *weights)
{
	static const char fn[] = "qubo_model_add_quadratic_batch";
	size_t k;

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	if (!count)
		return QUBO_OK;
	if (!rows || !cols || !weights)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL array with count %zu", fn, count);
	for (k = 0; k < count; k++) {
		if ((k & (QUBO__INTERRUPT_EVERY - 1)) == QUBO__INTERRUPT_EVERY - 1 &&
		    qubo__model_interrupted(m))
			return QUBO_CANCELLED;
		if (rows[k] >= m->n || cols[k] >= m->n)
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s: term %zu is (%u, %u), but the model has %zu "
					   "variables", fn, k, rows[k], cols[k], m->n);
		if (!qubo__is_finite(weights[k]))
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: weights[%zu] is not finite",
					   fn, k);
	}
	if (m->num_pairs + count < count ||
	    qubo__grow(&m->alloc, (void **)&m->pairs, &m->cap_pairs, m->num_pairs + count,
		       sizeof *m->pairs))
		return qubo__nomem("pairwise terms");
	for (k = 0; k < count; k++)
		if (weights[k] != 0.0)
			push_pair(m, rows[k], cols[k], weights[k]);
	return QUBO_OK;
}

int qubo_model_set_interrupt(qubo_model *m, qubo_model_interrupt_cb fn, void *user_data)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_set_interrupt: model is NULL");
	m->interrupt = fn;
	m->interrupt_data = fn ? user_data : NULL;
	return QUBO_OK;
}

void qubo__model_set_compile_threads(qubo_model *m, int threads)
{
	m->compile_threads = threads < 0 ? 0 : threads;
}

void qubo__model_set_compile_bucket(qubo_model *m, size_t entries)
{
	m->compile_bucket = entries;
}

int qubo_model_add_lit(qubo_model *m, qubo_lit l, double w)
{
	static const char fn[] = "qubo_model_add_lit";

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	if (check_lit(m, l, fn, "lit"))
		return QUBO_ERR_OUT_OF_RANGE;
	if (check_weight(w, fn))
		return QUBO_ERR_INVALID_ARG;
	if (l == QUBO_LIT_TRUE) {
		add_weight(m, &m->offset, w);
	} else if (l != QUBO_LIT_FALSE) {
		if (QUBO_LIT_IS_NEG(l)) {
			add_weight(m, &m->offset, w);
			add_weight(m, &m->h[QUBO_LIT_VAR(l)], -w);
		} else {
			add_weight(m, &m->h[QUBO_LIT_VAR(l)], w);
		}
	}
	return QUBO_OK;
}

int qubo_model_add_lit_product(qubo_model *m, qubo_lit a, qubo_lit b, double w)
{
	static const char fn[] = "qubo_model_add_lit_product";
	double ca, cb, sa, sb;
	uint32_t va, vb;

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	if (check_lit(m, a, fn, "a") || check_lit(m, b, fn, "b"))
		return QUBO_ERR_OUT_OF_RANGE;
	if (check_weight(w, fn))
		return QUBO_ERR_INVALID_ARG;
	if (QUBO_LIT_IS_CONST(a) || QUBO_LIT_IS_CONST(b)) {
		qubo_lit c = QUBO_LIT_IS_CONST(a) ? a : b;
		qubo_lit other = QUBO_LIT_IS_CONST(a) ? b : a;
		if (c == QUBO_LIT_TRUE)
			return qubo_model_add_lit(m, other, w);
		return QUBO_OK;
	}
	va = QUBO_LIT_VAR(a);
	vb = QUBO_LIT_VAR(b);
	if (va == vb)
		return a == b ? qubo_model_add_lit(m, a, w) : QUBO_OK;
	/* ℓ = c + s·x: (c_a + s_a x_a)(c_b + s_b x_b). */
	ca = QUBO_LIT_IS_NEG(a) ? 1.0 : 0.0;
	cb = QUBO_LIT_IS_NEG(b) ? 1.0 : 0.0;
	sa = 1.0 - 2.0 * ca;
	sb = 1.0 - 2.0 * cb;
	if (w != 0.0 && push_pair(m, va, vb, w * sa * sb))
		return QUBO_ERR_NOMEM;
	add_weight(m, &m->offset, w * ca * cb);
	add_weight(m, &m->h[va], w * cb * sa);
	add_weight(m, &m->h[vb], w * ca * sb);
	return QUBO_OK;
}

static int cmp_lit(const void *pa, const void *pb)
{
	qubo_lit a = *(const qubo_lit *)pa, b = *(const qubo_lit *)pb;
	return (a > b) - (a < b);
}

int qubo_model_add_clique(qubo_model *m, const qubo_lit *lits, size_t count, double w)
{
	static const char fn[] = "qubo_model_add_clique";
	size_t k, nf = 0, t = 0, neg = 0, g;
	qubo_lit *mem;
	int same = 0, reserved = 0;

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	if (count && !lits)
		return qubo__error(QUBO_ERR_MISUSE, "%s: lits is NULL with count %zu", fn, count);
	if (check_weight(w, fn))
		return QUBO_ERR_INVALID_ARG;
	for (k = 0; k < count; k++) {
		if (!QUBO_LIT_IS_CONST(lits[k]) && QUBO_LIT_VAR(lits[k]) >= m->n)
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s: lits[%zu] names variable %u, but the model has "
					   "%zu variables", fn, k, QUBO_LIT_VAR(lits[k]), m->n);
		if (lits[k] == QUBO_LIT_TRUE)
			t++;
		else if (lits[k] != QUBO_LIT_FALSE)
			nf++;
	}
	if (w == 0.0 || count < 2)
		return QUBO_OK;
	if (nf >= 2) {
		if (nf > UINT32_MAX)
			return qubo__too_large(QUBO_LIMIT_TERM_LITERALS, UINT32_MAX,
					       "%s: %zu literals", fn, nf);
		if (qubo__grow(&m->alloc, (void **)&m->members, &m->cap_members,
			       m->num_members + nf, sizeof *m->members) ||
		    qubo__grow(&m->alloc, (void **)&m->cliques, &m->cap_cliques,
			       m->num_cliques + 1, sizeof *m->cliques))
			return qubo__nomem("a clique term");
		reserved = 1;
	}
	/* Σ_{a<b} w ℓ_a ℓ_b = w·C(t,2) + w·t·Σ_free ℓ + w·Σ_{free a<b} ℓ_a ℓ_b. */
	add_weight(m, &m->offset, w * (double)t * (double)(t - (t > 0)) / 2.0);
	mem = reserved ? m->members + m->num_members : NULL;
	for (k = 0, nf = 0; k < count; k++) {
		qubo_lit l = lits[k];
		if (QUBO_LIT_IS_CONST(l))
			continue;
		if (reserved)
			mem[nf] = l;
		nf++;
		neg += QUBO_LIT_IS_NEG(l);
		if (t) {
			if (QUBO_LIT_IS_NEG(l)) {
				add_weight(m, &m->offset, w * (double)t);
				add_weight(m, &m->h[QUBO_LIT_VAR(l)], -w * (double)t);
			} else {
				add_weight(m, &m->h[QUBO_LIT_VAR(l)], w * (double)t);
			}
		}
	}
	if (nf < 2)
		return QUBO_OK;
	/* Free part, ℓ = c + s·x: constant w·C(neg,2); x_a gets w·s_a·(neg − c_a);
	 * each pair gets w·s_a·s_b (a pair within one variable folds into h). */
	for (k = 1; k < nf && mem[k - 1] <= mem[k]; k++)
		;
	if (k < nf)
		qsort(mem, nf, sizeof *mem, cmp_lit);
	add_weight(m, &m->offset, w * (double)neg * (double)(neg - (neg > 0)) / 2.0);
	for (k = 0; k < nf; k++) {
		int isneg = QUBO_LIT_IS_NEG(mem[k]);
		double s = isneg ? -1.0 : 1.0;
		add_weight(m, &m->h[QUBO_LIT_VAR(mem[k])], w * s * (double)(neg - (size_t)isneg));
	}
	for (k = 0; k < nf; k = g) {
		double sum = 0.0;
		size_t mult;
		for (g = k; g < nf && QUBO_LIT_VAR(mem[g]) == QUBO_LIT_VAR(mem[k]); g++)
			sum += QUBO_LIT_IS_NEG(mem[g]) ? -1.0 : 1.0;
		mult = g - k;
		if (mult > 1) {
			same = 1;
			/* Σ_{a<b} s_a s_b within the group = (sum² − mult) / 2. */
			add_weight(m, &m->h[QUBO_LIT_VAR(mem[k])],
				   w * (sum * sum - (double)mult) / 2.0);
		}
	}
	m->cliques[m->num_cliques].start = m->num_members;
	m->cliques[m->num_cliques].size = (uint32_t)nf;
	m->cliques[m->num_cliques].same = (uint32_t)same;
	m->cliques[m->num_cliques].w = w;
	m->num_cliques++;
	m->num_members += nf;
	m->pending_pairs += nf * (nf - 1) / 2;
	m->dirty = 1;
	return QUBO_OK;
}

int qubo_model_is_compiled(const qubo_model *m)
{
	return m && !m->dirty;
}

int qubo_model_get_stats(const qubo_model *m, qubo_model_stats *stats)
{
	static const char fn[] = "qubo_model_get_stats";
	qubo_model_stats st;
	size_t i, lin = 0;

	if (!m || !stats)
		return qubo__null_arg(fn, m ? "stats" : "model");
	for (i = 0; i < m->n; i++)
		lin += m->h[i] != 0.0;
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	st.num_variables = m->n;
	st.num_couplers = m->nnz / 2;
	st.max_degree = m->max_degree;
	st.num_linear = lin;
	st.pending_pairs = m->pending_pairs;
	st.compiled = !m->dirty;
	st.compiled_bytes = (m->n + 1) * sizeof *m->row + m->n * sizeof *m->upper +
			    m->nnz * (sizeof *m->col + sizeof *m->val);
	return qubo__struct_write(stats, &st, sizeof st, QUBO_MODEL_STATS_SIZE_V1,
				  "qubo_model_stats", fn);
}

double qubo_model_offset(const qubo_model *m)
{
	return m ? m->offset : 0.0;
}

int qubo_model_export_linear(const qubo_model *m, double *h, size_t capacity)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_export_linear: model is NULL");
	if (capacity < m->n || (m->n && !h))
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "qubo_model_export_linear: capacity %zu, need %zu", capacity,
				   m->n);
	if (m->n)
		memcpy(h, m->h, m->n * sizeof *h);
	return QUBO_OK;
}

int qubo_model_export_coo(const qubo_model *m, uint32_t *rows, uint32_t *cols,
			  double *weights, size_t capacity, size_t *count_out)
{
	static const char fn[] = "qubo_model_export_coo";
	size_t i, k, out = 0;
	int rc = qubo__model_require_compiled(m, fn);

	if (rc)
		return rc;
	if (!count_out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: count_out is NULL", fn);
	*count_out = m->nnz / 2;
	/* capacity 0 is the count query: it succeeds */
	if (!capacity)
		return QUBO_OK;
	if (capacity < m->nnz / 2 || (m->nnz && (!rows || !cols || !weights)))
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: capacity %zu, need %zu", fn,
				   capacity, m->nnz / 2);
	for (i = 0; i < m->n; i++)
		for (k = m->upper[i]; k < m->row[i + 1]; k++, out++) {
			rows[out] = (uint32_t)i;
			cols[out] = m->col[k];
			weights[out] = m->val[k];
		}
	return QUBO_OK;
}

int qubo_model_get_quadratic(const qubo_model *m, uint32_t i, uint32_t j, double *weight_out)
{
	static const char fn[] = "qubo_model_get_quadratic";
	size_t lo, hi;
	int rc = qubo__model_require_compiled(m, fn);

	if (rc)
		return rc;
	if (!weight_out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: weight_out is NULL", fn);
	if (check_var(m, i, fn, "i") || check_var(m, j, fn, "j"))
		return QUBO_ERR_OUT_OF_RANGE;
	if (i == j)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: i = j = %u is not a coupler", fn, i);
	lo = m->row[i];
	hi = m->row[i + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->col[mid] < j)
			lo = mid + 1;
		else
			hi = mid;
	}
	*weight_out = lo < m->row[i + 1] && m->col[lo] == j ? m->val[lo] : 0.0;
	return QUBO_OK;
}

/* ---- groups ---- */

int qubo__model_reserve_groups(qubo_model *m, size_t extra)
{
	if (m->num_groups + extra < extra)
		return qubo__nomem("the model's groups");
	return qubo__grow(&m->alloc, (void **)&m->groups, &m->cap_groups, m->num_groups + extra,
			  sizeof *m->groups);
}

void qubo__model_push_group(qubo_model *m, uint32_t first, uint32_t count)
{
	m->groups[m->num_groups].first = first;
	m->groups[m->num_groups].count = count;
	m->num_groups++;
}

int qubo_model_add_group(qubo_model *m, uint32_t first, uint32_t count)
{
	static const char fn[] = "qubo_model_add_group";
	size_t lo = 0, hi, at;
	int rc;

	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	if (count == 0 || count > QUBO_MAX_GROUP_SIZE)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: count is %u, expected 1 to %u", fn,
				   count, QUBO_MAX_GROUP_SIZE);
	if (first >= m->n || count > m->n - first)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "%s: variables %u to %llu do not exist; the model has %zu", fn,
				   first, (unsigned long long)first + count - 1, m->n);
	/* at = the number of groups that start before first */
	hi = m->num_groups;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->groups[mid].first < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	at = lo;
	if (at > 0 && m->groups[at - 1].first + m->groups[at - 1].count > first)
		at--;
	else if (at == m->num_groups || m->groups[at].first >= first + count)
		at = SIZE_MAX;
	if (at != SIZE_MAX)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: variables %u to %u overlap group %zu (variables %u to %u)",
				   fn, first, first + count - 1, at, m->groups[at].first,
				   m->groups[at].first + m->groups[at].count - 1);
	rc = qubo__model_reserve_groups(m, 1);
	if (rc)
		return rc;
	memmove(m->groups + lo + 1, m->groups + lo, (m->num_groups - lo) * sizeof *m->groups);
	m->groups[lo].first = first;
	m->groups[lo].count = count;
	m->num_groups++;
	return QUBO_OK;
}

size_t qubo_model_num_groups(const qubo_model *m)
{
	return m ? m->num_groups : 0;
}

int qubo_model_get_group(const qubo_model *m, size_t index, uint32_t *first_out,
			 uint32_t *count_out)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_model_get_group: model is NULL");
	if (index >= m->num_groups)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "qubo_model_get_group: index %zu, the model has %zu groups",
				   index, m->num_groups);
	if (first_out)
		*first_out = m->groups[index].first;
	if (count_out)
		*count_out = m->groups[index].count;
	return QUBO_OK;
}
