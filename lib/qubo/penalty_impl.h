/*
 * The penalty algebra's shared parts (penalty.c has the rules every
 * function follows): argument checks, the batch of quadratic terms and the
 * literal helpers (penalty_literal.c), the feasibility of a weighted sum
 * (penalty_reach.c).
 */
#ifndef QUBO_PENALTY_IMPL_H
#define QUBO_PENALTY_IMPL_H

#include <inttypes.h>

#include "model_impl.h"
#include "qubo/penalty.h"

/* 2^52: integers up to this size, and their sums, are exact doubles. */
#define EXACT_LIMIT ((int64_t)1 << 52)

/* Exact subset-sum search limits (feasibility of weighted sums). */
#define ENUM_SMALL 16     /* always enumerate up to 2^16 subsets */
#define ENUM_LARGE 20     /* enumerate up to 2^20 subsets if the DP is too big */
#define DP_MAX_WORDS ((size_t)1 << 16)  /* bitset of at most 512 KiB */
#define DP_MAX_WORK ((size_t)1 << 24)   /* words × items */

enum { REACH_NO = 0, REACH_YES = 1, REACH_UNKNOWN = 2 };

static inline int qubo__pen_is_free(qubo_lit l)
{
	return !QUBO_LIT_IS_CONST(l);
}

static inline int64_t qubo__pen_abs64(int64_t x)
{
	return x < 0 ? -x : x;
}

static inline void qubo__pen_lit_parts(qubo_lit l, double *c, double *s)
{
	*c = QUBO_LIT_IS_NEG(l) ? 1.0 : 0.0;
	*s = QUBO_LIT_IS_NEG(l) ? -1.0 : 1.0;
}

typedef struct qubo__pen_reach {
	int64_t min, max; /* exact range of T over all assignments */
	int verdict;      /* REACH_NO, REACH_YES or REACH_UNKNOWN */
} qubo__pen_reach;

/* Quadratic terms gathered for one qubo_model_add_quadratic_batch call. */
typedef struct qubo__pen_batch {
	uint32_t *rows, *cols;
	double *ws;
	size_t n;
} qubo__pen_batch;

/* ---- argument checks (penalty_literal.c) ---- */

int qubo__pen_check_model(const qubo_model *m, const char *fn);

int qubo__pen_check_penalty_weight(double w, const char *fn);

int qubo__pen_check_lit_at(const qubo_model *m, qubo_lit l, const char *fn, const char *name,
			   size_t pos);

int qubo__pen_check_lit_named(const qubo_model *m, qubo_lit l, const char *fn, const char *name);

int qubo__pen_check_array(const void *p, size_t count, const char *fn, const char *name);

int qubo__pen_check_lits(const qubo_model *m, const qubo_lit *lits, size_t count, const char *fn,
			 const char *name);

const char *qubo__pen_nan_or_inf(double x);

int qubo__pen_check_finite(const double *x, size_t count, const char *fn, const char *name);

int qubo__pen_check_model_weight(const qubo_model *m, double weight, const char *fn);

/* The usual prologue: the model, the weight, then lits[0..count). */
int qubo__pen_check_penalty_args(const qubo_model *m, double weight, const qubo_lit *lits,
				 size_t count, const char *fn);

/* The prologue of a weighted sum: as above, then coeffs[0..count). */
int qubo__pen_check_weighted_args(const qubo_model *m, double weight, const qubo_lit *lits,
				  const void *coeffs, size_t count, const char *fn);

/* The model, the weight, then the literals a and b. */
int qubo__pen_check_pair_args(const qubo_model *m, double weight, qubo_lit a, qubo_lit b,
			      const char *fn);

/* Reports a derived weight that overflowed. */
int qubo__pen_overflow_error(const char *fn);

/* ---- the batch of quadratic terms (penalty_literal.c) ---- */

/* Nonzero when room for cap terms could be allocated (all three arrays are
 * tried either way; qubo__pen_batch_free releases them). */
int qubo__pen_batch_init(const qubo_allocator *al, qubo__pen_batch *pb, size_t cap);

/* Appends w x_u x_v over the variables of the literals u and v. */
static inline void qubo__pen_batch_push(qubo__pen_batch *pb, qubo_lit u, qubo_lit v, double w)
{
	pb->rows[pb->n] = QUBO_LIT_VAR(u);
	pb->cols[pb->n] = QUBO_LIT_VAR(v);
	pb->ws[pb->n++] = w;
}

int qubo__pen_batch_commit(qubo_model *model, const qubo__pen_batch *pb);

void qubo__pen_batch_free(const qubo_allocator *al, qubo__pen_batch *pb);

/* ---- feasibility (penalty_reach.c) ---- */

/* Decides whether T = Σ a_i ℓ_i over m free literals (a NULL: all ones) can
 * take a value in [lo, hi], and gives T's exact range. The caller guarantees
 * Σ |a_i| <= 2^62. Returns QUBO_OK or QUBO_ERR_NOMEM. */
int qubo__pen_reach_window(const qubo_allocator *al, const qubo_lit *lits, const int64_t *a,
			   size_t m, int64_t lo, int64_t hi, qubo__pen_reach *out);

#endif /* QUBO_PENALTY_IMPL_H */
