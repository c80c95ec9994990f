/* Energy of samples and the change of one flip, from the compiled form. */
#include <string.h>

#include "model_impl.h"

/* v when b is 1, +0.0 when b is 0 (b is 0 or 1). */
static inline double qubo__masked(double v, uint8_t b)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	u &= (uint64_t)0 - b;
	memcpy(&v, &u, sizeof v);
	return v;
}

static int check_sample(const qubo_model *m, const uint8_t *x, size_t length, const char *fn,
			size_t index)
{
	uint8_t bad = 0;
	size_t i;

	if (length != m->n)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: length is %zu, the model has %zu "
				   "variables", fn, length, m->n);
	for (i = 0; i < length; i++)
		bad |= x[i];
	if (bad & 0xfe)
		for (i = 0; i < length; i++)
			if (x[i] > 1)
				return qubo__error(QUBO_ERR_INVALID_ARG,
						   "%s: sample %zu has byte %u at variable %zu; "
						   "samples hold 0 or 1", fn, index, x[i], i);
	return QUBO_OK;
}

/* Σ_k val[k] · x[col[k]] over one row segment, in four interleaved partial
 * sums (a fixed order, so results are reproducible). The selection is a bit
 * mask rather than a branch: x is random in general, and a mispredicted
 * branch per coupler would cost more than the addition. */
static double row_dot(const uint32_t *col, const double *val, size_t len, const uint8_t *x)
{
	double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
	size_t k = 0;

#define QUBO__PICK(k) qubo__masked(val[k], x[col[k]])
	for (; k + 4 <= len; k += 4) {
		s0 += QUBO__PICK(k);
		s1 += QUBO__PICK(k + 1);
		s2 += QUBO__PICK(k + 2);
		s3 += QUBO__PICK(k + 3);
	}
	for (; k < len; k++)
		s0 += QUBO__PICK(k);
#undef QUBO__PICK
	return (s0 + s1) + (s2 + s3);
}

/* E = offset + Σ_i x_i (h_i + Σ_{j>i} J_ij x_j), rows ascending. */
static double energy(const qubo_model *m, const uint8_t *x)
{
	double e = m->offset;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (x[i])
			e += m->h[i] + (m->row[i + 1] == m->upper[i]
						? 0.0 /* no couplers: col may be NULL */
						: row_dot(m->col + m->upper[i], m->val + m->upper[i],
							  m->row[i + 1] - m->upper[i], x));
	return e;
}

int qubo_model_energy(const qubo_model *m, const uint8_t *x, size_t length, double *out)
{
	return qubo_model_energy_batch(m, x, 1, length, out);
}

int qubo_model_energy_batch(const qubo_model *m, const uint8_t *samples, size_t num_samples,
			    size_t length, double *energies)
{
	static const char fn[] = "qubo_model_energy";
	size_t s;
	int rc = qubo__model_require_bounded(m, fn);

	if (rc)
		return rc;
	if (num_samples && ((!samples && length) || !energies))
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL sample or energy array", fn);
	for (s = 0; s < num_samples; s++) {
		/* samples may be NULL when the model has no variables */
		const uint8_t *x = length ? samples + s * length : samples;
		rc = check_sample(m, x, length, fn, s);
		if (rc)
			return rc;
		energies[s] = energy(m, x);
	}
	return QUBO_OK;
}

int qubo_model_delta(const qubo_model *m, const uint8_t *x, size_t length, uint32_t var,
		     double *delta_out)
{
	static const char fn[] = "qubo_model_delta";
	double f;
	int rc = qubo__model_require_bounded(m, fn);

	if (rc)
		return rc;
	if (!x || !delta_out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL sample or output", fn);
	rc = check_sample(m, x, length, fn, 0);
	if (rc)
		return rc;
	if (var >= m->n)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: var = %u, but the model has %zu "
				   "variables", fn, var, m->n);
	f = m->h[var] + (m->row[var + 1] == m->row[var]
				 ? 0.0 /* no couplers: col may be NULL */
				 : row_dot(m->col + m->row[var], m->val + m->row[var],
					   m->row[var + 1] - m->row[var], x));
	*delta_out = x[var] ? -f : f;
	return QUBO_OK;
}
