/*
 * The model's private layout, shared by the model sources and the solvers.
 *
 * Pending pairwise terms are kept in two logs until qubo_model_compile():
 * single pairs (i, j, w) and clique records (a run of literals over distinct
 * positions and one weight w, meaning w · Σ_{a<b} ℓ_a ℓ_b restricted to the
 * quadratic part: the pair (a, b) gets w · σ_a · σ_b where σ = −1 for a
 * complemented member; the linear and constant parts are added at once).
 *
 * The compiled form is a symmetric CSR: row i holds every j with J_ij != 0,
 * sorted by j; upper[i] is the first position in row i with column > i.
 */
#ifndef QUBO_MODEL_IMPL_H
#define QUBO_MODEL_IMPL_H

#include "internal.h"
#include "qubo/model.h"
#include "qubo/qbsolv.h"

typedef struct qubo__pair {
	uint32_t i, j;
	double w;
} qubo__pair;

/* Nonzero when (i, j) comes before the pair prev in order of (i, j): a log
 * that appends it leaves that order. */
static inline int qubo__pair_before(const qubo__pair *prev, uint32_t i, uint32_t j)
{
	return prev->i > i || (prev->i == i && prev->j > j);
}

/* A group of auxiliary variables (qubo_model_add_group). */
typedef struct qubo__group {
	uint32_t first, count;
} qubo__group;

typedef struct qubo__clique {
	size_t start;  /* first member in qubo_model.members */
	uint32_t size; /* number of members (>= 2) */
	uint32_t same; /* nonzero when some variable appears twice */
	double w;
} qubo__clique;

struct qubo_model {
	qubo_allocator alloc;
	size_t n, cap_n;
	double *h; /* linear weights, cap_n of them */
	double offset;

	/* pending terms */
	qubo__pair *pairs;
	size_t num_pairs, cap_pairs;
	qubo__clique *cliques;
	size_t num_cliques, cap_cliques;
	qubo_lit *members;
	size_t num_members, cap_members;
	size_t pending_pairs; /* ordered pairs / 2 that the logs expand to */
	/* 0 while the pair log is in order of (i, j) with i < j, as a file
	 * listed by rows gives it: the compile then takes its pairs as the
	 * rows they already are (compile_sorted in compile.c) */
	int pairs_unsorted;

	/* compiled form; row has n + 1 entries whenever it is non-NULL */
	size_t *row;
	size_t *upper;
	uint32_t *col;
	double *val;
	size_t nnz;        /* entries of the symmetric form = 2 × couplers */
	size_t max_degree;
	int dirty;         /* pending logs are not empty */

	/* workers of the compile's pair passes (0: one per online CPU, at
	 * most 4); the result does not depend on it */
	int compile_threads;
	/* most entries of a bucket of upper rows beyond the longest row, for
	 * pairs in random order (0: the default); nor does the result */
	size_t compile_bucket;

	/* qubo_model_set_interrupt(); not copied */
	qubo_model_interrupt_cb interrupt;
	void *interrupt_data;

	/* groups, disjoint and sorted by first */
	qubo__group *groups;
	size_t num_groups, cap_groups;

	/* The weight sum (qubo/model.h, QUBO_MODEL_MAX_WEIGHT_SUM) in two
	 * parts. linear_bound is at least |offset| + Σ|h_i|: exact after a
	 * compile, then grown by the magnitude of every change to h or the
	 * offset, so that a check costs O(1) until it comes near the limit.
	 * coupler_sum is Σ|J_ij| of the compiled form: each row's entries
	 * above the diagonal added in a fixed order (abs_sum() in compile.c:
	 * four interleaved sums in order of column), then the rows' sums the
	 * same way in order of row, so the same at any number of threads. */
	double linear_bound;
	double coupler_sum;
};

/* Grows the pending logs so that the next `pairs` single pairs, `cliques`
 * clique records and `members` clique members can be appended without
 * allocating (and so without failing). Capacity is not observable: on
 * failure the model is unchanged. QUBO_OK or QUBO_ERR_NOMEM. */
int qubo__model_reserve(qubo_model *m, size_t pairs, size_t cliques, size_t members);

/* Appends count pairs that are known to be valid (i < j < n, finite and
 * nonzero weights) as qubo_model_add_quadratic() would one by one, with
 * one copy. in_order: nonzero when each pair's (i, j) is at or after the
 * one before it in lexicographic order, so that only the first is checked
 * against the log's last (0 marks the log out of order). Room for them must
 * have been reserved (qubo__model_reserve). */
void qubo__model_push_log(qubo_model *m, const qubo__pair *src, size_t count, int in_order);

/* Room for `extra` more groups, so that qubo__model_push_group cannot fail.
 * QUBO_OK or QUBO_ERR_NOMEM (the model unchanged). */
int qubo__model_reserve_groups(qubo_model *m, size_t extra);

/* Appends a group after every existing one (first at or past the end of the
 * last group); capacity must have been reserved. */
void qubo__model_push_group(qubo_model *m, uint32_t first, uint32_t count);

/* Entries a long call goes through between calls of the interrupt
 * function (a power of two). */
#define QUBO__INTERRUPT_EVERY ((size_t)1 << 16)

/* Nonzero when the interrupt function asks the running call to stop. */
static inline int qubo__model_interrupted(const qubo_model *m)
{
	return m->interrupt && m->interrupt(m->interrupt_data) != 0;
}

/* Sets the workers qubo_model_compile() may use for single pairs (0: the
 * default). For tests and benchmarks: the compiled form is the same at any
 * setting. */
void qubo__model_set_compile_threads(qubo_model *m, int threads);

/* Sets how many entries a bucket of upper rows may hold beyond the longest
 * row when qubo_model_compile() sorts pairs in random order (0: the
 * default). For tests, which make many buckets of few pairs: the compiled
 * form is the same at any setting. */
void qubo__model_set_compile_bucket(qubo_model *m, size_t entries);

/* qubo_qbsolv_read_ex() without the compile: the model keeps the terms
 * pending, in the order the lines give them (the first line's error and
 * its position are reported as by the reader; an error of the compile is
 * not). For tests and benchmarks: they time the parse alone and compile
 * the result at chosen thread counts. data is not NULL. */
int qubo__qbsolv_read_pending(qubo_model **out, const char *data, size_t length,
			      const qubo_qbsolv_options *options);

/* Reports QUBO_ERR_MISUSE unless m is compiled and clean. */
int qubo__model_require_compiled(const qubo_model *m, const char *func);

/* qubo__model_require_compiled, then QUBO_ERR_OUT_OF_RANGE when the weight
 * sum is above QUBO_MODEL_MAX_WEIGHT_SUM: what every function that
 * computes energies asks of its model. O(1), or O(n) when linear_bound
 * comes near the limit. */
int qubo__model_require_bounded(const qubo_model *m, const char *func);

/* |offset| + Σ|h_i| in order of i into *sum. QUBO_ERR_OUT_OF_RANGE, in
 * func's name, when the offset or a weight is not finite. */
int qubo__model_linear_sum(double offset, const double *h, size_t n, const char *func,
			   double *sum);

/* QUBO_ERR_OUT_OF_RANGE, in func's name, unless the weight sum total is at
 * most QUBO_MODEL_MAX_WEIGHT_SUM. */
int qubo__model_check_weight_sum(double total, const char *func);

/* The weight sum's check of a clean model, in O(n): the linear part is
 * summed again (into *lin), the couplers' part is coupler_sum. */
int qubo__model_check_bounded(const qubo_model *m, const char *func, double *lin);

/* The weight sum of a compiled model whose weights are finite. O(n). */
double qubo__model_weight_sum(const qubo_model *m);

#endif /* QUBO_MODEL_IMPL_H */
