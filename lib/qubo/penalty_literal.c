/*
 * The penalty algebra's argument checks and its batch of quadratic terms
 * (penalty_impl.h).
 */
#include <stdlib.h>
#include <string.h>

#include "penalty_impl.h"

/* ------------------------------------------------------------------ */
/* Validation */

int qubo__pen_check_model(const qubo_model *m, const char *fn)
{
	if (!m)
		return qubo__error(QUBO_ERR_MISUSE, "%s: model is NULL", fn);
	return QUBO_OK;
}

int qubo__pen_check_penalty_weight(double w, const char *fn)
{
	if (w != w)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: weight is NaN; it must be finite and > 0", fn);
	if (!qubo__is_finite(w) || !(w > 0.0))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: weight is %g; it must be finite and > 0", fn, w);
	return QUBO_OK;
}

int qubo__pen_check_lit_at(const qubo_model *m, qubo_lit l, const char *fn, const char *name,
			   size_t pos)
{
	if (QUBO_LIT_IS_CONST(l) || QUBO_LIT_VAR(l) < m->n)
		return QUBO_OK;
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: %s[%zu] names variable %u, but the model has %zu variables", fn,
			   name, pos, QUBO_LIT_VAR(l), m->n);
}

int qubo__pen_check_lit_named(const qubo_model *m, qubo_lit l, const char *fn, const char *name)
{
	if (QUBO_LIT_IS_CONST(l) || QUBO_LIT_VAR(l) < m->n)
		return QUBO_OK;
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: literal %s names variable %u, but the model has %zu variables",
			   fn, name, QUBO_LIT_VAR(l), m->n);
}

int qubo__pen_check_array(const void *p, size_t count, const char *fn, const char *name)
{
	if (count && !p)
		return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL with count %zu", fn, name,
				   count);
	return QUBO_OK;
}

int qubo__pen_check_lits(const qubo_model *m, const qubo_lit *lits, size_t count, const char *fn,
			 const char *name)
{
	size_t i;
	int rc = qubo__pen_check_array(lits, count, fn, name);

	for (i = 0; i < count && !rc; i++)
		rc = qubo__pen_check_lit_at(m, lits[i], fn, name, i);
	return rc;
}

const char *qubo__pen_nan_or_inf(double x)
{
	return x != x ? "NaN" : "infinite";
}

int qubo__pen_check_finite(const double *x, size_t count, const char *fn, const char *name)
{
	size_t i;
	int rc = QUBO_OK;

	for (i = 0; i < count && !rc; i++)
		if (!qubo__is_finite(x[i]))
			rc = qubo__error(QUBO_ERR_INVALID_ARG, "%s: %s[%zu] is %s", fn, name, i,
					 qubo__pen_nan_or_inf(x[i]));
	return rc;
}

int qubo__pen_check_model_weight(const qubo_model *m, double weight, const char *fn)
{
	int rc = qubo__pen_check_model(m, fn);

	return rc ? rc : qubo__pen_check_penalty_weight(weight, fn);
}

/* The usual prologue: the model, the weight, then lits[0..count). */
int qubo__pen_check_penalty_args(const qubo_model *m, double weight, const qubo_lit *lits,
				 size_t count, const char *fn)
{
	int rc = qubo__pen_check_model_weight(m, weight, fn);

	return rc ? rc : qubo__pen_check_lits(m, lits, count, fn, "lits");
}

/* The prologue of a weighted sum: as above, then coeffs[0..count). */
int qubo__pen_check_weighted_args(const qubo_model *m, double weight, const qubo_lit *lits,
				  const void *coeffs, size_t count, const char *fn)
{
	int rc = qubo__pen_check_penalty_args(m, weight, lits, count, fn);

	return rc ? rc : qubo__pen_check_array(coeffs, count, fn, "coeffs");
}

/* The model, the weight, then the literals a and b. */
int qubo__pen_check_pair_args(const qubo_model *m, double weight, qubo_lit a, qubo_lit b,
			      const char *fn)
{
	int rc = qubo__pen_check_model_weight(m, weight, fn);

	if (!rc)
		rc = qubo__pen_check_lit_named(m, a, fn, "a");
	return rc ? rc : qubo__pen_check_lit_named(m, b, fn, "b");
}

/* Reports a derived weight that overflowed. */
int qubo__pen_overflow_error(const char *fn)
{
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "%s: the terms' weights overflow a double (weight or coefficients "
			   "too large)", fn);
}

/* Nonzero when room for cap terms could be allocated (all three arrays are
 * tried either way; batch_free releases them). */
int qubo__pen_batch_init(const qubo_allocator *al, qubo__pen_batch *pb, size_t cap)
{
	pb->n = 0;
	pb->rows = qubo__malloc_array(al, cap, sizeof *pb->rows);
	pb->cols = qubo__malloc_array(al, cap, sizeof *pb->cols);
	pb->ws = qubo__malloc_array(al, cap, sizeof *pb->ws);
	return pb->rows && pb->cols && pb->ws;
}

int qubo__pen_batch_commit(qubo_model *model, const qubo__pen_batch *pb)
{
	return qubo_model_add_quadratic_batch(model, pb->n, pb->rows, pb->cols, pb->ws);
}

void qubo__pen_batch_free(const qubo_allocator *al, qubo__pen_batch *pb)
{
	qubo__free(al, pb->rows);
	qubo__free(al, pb->cols);
	qubo__free(al, pb->ws);
}
