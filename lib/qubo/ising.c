/* Conversion between the QUBO form and the Ising form (s = 2x − 1). */
#include <string.h>

#include "model_impl.h"

int qubo_model_to_ising(const qubo_model *m, double *h, size_t h_capacity, uint32_t *rows,
			uint32_t *cols, double *couplings, size_t capacity, size_t *count_out,
			double *offset_out)
{
	static const char fn[] = "qubo_model_to_ising";
	double off;
	size_t i, k, out = 0;
	int rc = qubo__model_require_bounded(m, fn);

	if (rc)
		return rc;
	if (!count_out || !offset_out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: count_out or offset_out is NULL", fn);
	*count_out = m->nnz / 2;
	/* both capacities 0 is the size query: it succeeds (an empty model
	 * needs no array and goes on to its offset) */
	if (!h_capacity && !capacity && m->n)
		return QUBO_OK;
	if (h_capacity < m->n || (m->n && !h))
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: h_capacity %zu, need %zu", fn,
				   h_capacity, m->n);
	if (capacity < m->nnz / 2 || (m->nnz && (!rows || !cols || !couplings)))
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: capacity %zu, need %zu", fn,
				   capacity, m->nnz / 2);
	/* x = (1 + s)/2: h_i x_i = h_i/2 + (h_i/2) s_i and
	 * J x_i x_j = J/4 (1 + s_i + s_j + s_i s_j). */
	off = m->offset;
	for (i = 0; i < m->n; i++) {
		double f = m->h[i] / 2.0, quarter = 0.0;
		off += m->h[i] / 2.0;
		for (k = m->row[i]; k < m->row[i + 1]; k++)
			quarter += m->val[k];
		h[i] = f + quarter / 4.0;
	}
	for (i = 0; i < m->n; i++)
		for (k = m->upper[i]; k < m->row[i + 1]; k++, out++) {
			rows[out] = (uint32_t)i;
			cols[out] = m->col[k];
			couplings[out] = m->val[k] / 4.0;
			off += m->val[k] / 4.0;
		}
	*offset_out = off;
	return QUBO_OK;
}

int qubo_model_from_ising(qubo_model **out, size_t n, const double *h, size_t count,
			  const uint32_t *rows, const uint32_t *cols, const double *couplings,
			  double offset, const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_model_from_ising";
	qubo_model *m;
	size_t k;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	if (count && (!rows || !cols || !couplings))
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL coupling array with count %zu", fn,
				   count);
	if (!qubo__is_finite(offset))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: offset is not finite", fn);
	for (k = 0; h && k < n; k++)
		if (!qubo__is_finite(h[k]))
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: h[%zu] is not finite", fn, k);
	for (k = 0; k < count; k++)
		if (rows[k] == cols[k])
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: coupling %zu joins variable %u to itself", fn, k,
					   rows[k]);
	rc = qubo_model_new(&m, n, allocator);
	if (rc)
		return rc;
	/* s = 2x − 1: h s = 2h x − h; J s_i s_j = 4J x_i x_j − 2J x_i − 2J x_j + J. */
	m->offset = offset;
	for (k = 0; h && k < n; k++) {
		m->h[k] += 2.0 * h[k];
		m->offset -= h[k];
	}
	rc = qubo_model_add_quadratic_batch(m, count, rows, cols, couplings);
	if (rc)
		goto fail;
	for (k = 0; k < m->num_pairs; k++) {
		double j = m->pairs[k].w;
		m->pairs[k].w = 4.0 * j;
		m->h[m->pairs[k].i] -= 2.0 * j;
		m->h[m->pairs[k].j] -= 2.0 * j;
		m->offset += j;
	}
	rc = qubo_model_compile(m);
	if (rc)
		goto fail;
	for (k = 0; k < n; k++)
		if (!qubo__is_finite(m->h[k]))
			break;
	if (k < n || !qubo__is_finite(m->offset)) {
		rc = qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: the converted weights overflow", fn);
		goto fail;
	}
	*out = m;
	return QUBO_OK;
fail:
	qubo_model_free(m);
	return rc;
}
