/**
 * @file qubo/model.h
 * @brief The QUBO model: variables, terms, compilation, energy and export.
 *
 * A model holds the energy
 *   E(x) = offset + Σ_i h_i x_i + Σ_{i<j} J_ij x_i x_j,   x ∈ {0,1}^n,
 * in double precision. Building appends terms cheaply (duplicates allowed);
 * qubo_model_compile() merges duplicate pairs, drops couplers whose weight
 * sums to exactly zero and stores the couplings as a symmetric adjacency in
 * compressed sparse rows (CSR) with each row sorted by column. Energy, export
 * and the solvers read the compiled form. A compiled model is read-only and
 * may be shared by any number of threads. Adding terms after compilation is
 * allowed; the model is then "dirty" until compiled again.
 *
 * Linear terms and the offset take effect at once; only pairwise terms wait
 * for compilation. Weights must be finite: a NaN or infinite weight is
 * rejected with #QUBO_ERR_INVALID_ARG and the model is left unchanged.
 *
 * Energies are finite too. The weight sum of a model, |offset| + Σ_i |h_i|
 * + Σ_{i<j} |J_ij| over its merged terms, bounds every energy and every
 * change of energy; it must not exceed #QUBO_MODEL_MAX_WEIGHT_SUM. A model
 * above it is refused with #QUBO_ERR_OUT_OF_RANGE by qubo_model_compile(),
 * which leaves it unchanged, and by everything that computes energies: the
 * energy functions, qubo_model_to_ising(), the sample sets, the solvers and
 * the QAOA functions (they find it when linear terms added after the
 * compilation take the sum above the limit). Exporting it still works.
 */
#ifndef QUBO_MODEL_H
#define QUBO_MODEL_H

#include "alloc.h"
#include "common.h"
#include "literal.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** An opaque QUBO model. */
typedef struct qubo_model qubo_model;

/** Summary figures of a model, filled by qubo_model_get_stats(). */
typedef struct qubo_model_stats {
	/** Set to sizeof(qubo_model_stats) before the call. */
	size_t struct_size;
	/** Number of variables n. */
	size_t num_variables;
	/** Distinct nonzero couplers i < j in the compiled form. */
	size_t num_couplers;
	/** Largest number of couplers at one variable. */
	size_t max_degree;
	/** Variables with a nonzero linear term. */
	size_t num_linear;
	/** Pairwise terms appended since the last compilation (clique members count as pairs). */
	size_t pending_pairs;
	/** 1 when the model is compiled and clean, 0 otherwise. */
	int32_t compiled;
	/** Bytes held by the compiled form (row pointers, columns, weights). */
	size_t compiled_bytes;
} qubo_model_stats;

/** Size of the first layout of qubo_model_stats (through
 *  @c compiled_bytes), frozen: the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_MODEL_STATS_SIZE_V1 (offsetof(qubo_model_stats, compiled_bytes) + sizeof(size_t))

/** Initialiser of a qubo_model_stats with @c struct_size set and every
 *  other field zero, which compiles without warnings under -Wextra
 *  (unlike `{sizeof st}`): `qubo_model_stats st = QUBO_MODEL_STATS_INIT;`
 *  @since 0.1 */
#define QUBO_MODEL_STATS_INIT { sizeof(qubo_model_stats), 0, 0, 0, 0, 0, 0, 0 }

/** Most variables a model may have: 67108864 (2^26). Each variable costs
 *  24 bytes of per-variable arrays (linear weight, two row pointers), which
 *  are allocated for every variable, used or not: 1.5 GiB at the limit, so
 *  that a size alone never makes the library touch more. More is
 *  #QUBO_ERR_TOO_LARGE, reported before anything is allocated.
 *  @since 0.1 */
#define QUBO_MODEL_MAX_VARIABLES (QUBO_CAST(size_t, 1) << 26)

/** The largest weight sum |offset| + Σ_i |h_i| + Σ_{i<j} |J_ij| (merged
 *  terms) of a model that energies are computed for: 2^1000, about
 *  1.07e301. Every energy lies within ± the weight sum and every difference
 *  of two within twice it, so the sums and differences of energies that
 *  solvers and sample sets form (up to 2^22 of them) stay finite. The sum
 *  is computed in an order fixed by the merged terms alone (the offset and
 *  the linear weights by variable, then the couplers by row and column):
 *  the verdict is the same at any number of threads.
 *  @since 0.2 */
#define QUBO_MODEL_MAX_WEIGHT_SUM 1.0715086071862673e+301

/**
 * Creates an empty model.
 * @param[out] out receives the new model; set to NULL on failure.
 * @param[in] num_variables initial number of variables (may be 0), at most
 *            #QUBO_MODEL_MAX_VARIABLES.
 * @param[in] allocator optional allocator, copied; NULL for the C library's.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_TOO_LARGE,
 *         #QUBO_ERR_INVALID_ARG or #QUBO_ERR_UNSUPPORTED_VERSION (a malformed
 *         allocator), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_new(qubo_model **out, size_t num_variables,
			    const qubo_allocator *allocator);

/**
 * Frees a model. NULL is a no-op.
 * @param[in] model the model to free.
 * @since 0.1
 */
QUBO_API void qubo_model_free(qubo_model *model);

/**
 * Deep-copies a model, compiled form and pending terms included. The copy
 * uses the same allocator.
 * @param[out] out receives the copy.
 * @param[in] model the model to copy.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_copy(qubo_model **out, const qubo_model *model);

/**
 * Appends variables with zero weights.
 * @param[in,out] model the model.
 * @param[in] count how many variables to add.
 * @param[out] first_out optional; receives the index of the first new variable.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_TOO_LARGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_variables(qubo_model *model, size_t count, uint32_t *first_out);

/**
 * Number of variables. Never fails.
 * @param[in] model the model; NULL gives 0.
 * @return n.
 * @since 0.1
 */
QUBO_API size_t qubo_model_num_variables(const qubo_model *model);

/** Most variables one group may hold (qubo_model_add_group()). */
#define QUBO_MAX_GROUP_SIZE 64

/**
 * Marks the variables first … first + count − 1 as a group: auxiliary
 * variables, such as the slack bits of a range, whose best values for a given
 * setting of the other variables a solver may choose jointly. A group is a
 * hint to solvers; it never changes the energy of any sample. The simulated
 * annealing solver uses groups (doc/solvers-sa.md, "Group moves"):
 * qubo_penalty_range() marks its slack bits as one.
 *
 * Groups do not overlap and are kept sorted by their first variable. They
 * may be added before or after qubo_model_compile() and are copied by
 * qubo_model_copy(); the qbsolv writer and reader carry them in
 * `c group <first> <count>` comment lines (doc/formats.md).
 * @param[in,out] model the model.
 * @param[in] first the group's first variable.
 * @param[in] count its number of variables, 1 … #QUBO_MAX_GROUP_SIZE.
 * @return #QUBO_OK; #QUBO_ERR_OUT_OF_RANGE when the variables do not exist or
 *         @p count is 0 or above #QUBO_MAX_GROUP_SIZE; #QUBO_ERR_INVALID_ARG
 *         when they overlap a group already marked; #QUBO_ERR_NOMEM (the
 *         model is unchanged); #QUBO_ERR_MISUSE when @p model is NULL.
 * @since 0.1
 */
QUBO_API int qubo_model_add_group(qubo_model *model, uint32_t first, uint32_t count);

/**
 * Number of groups (qubo_model_add_group()). Never fails.
 * @param[in] model the model; NULL gives 0.
 * @return the number of groups.
 * @since 0.1
 */
QUBO_API size_t qubo_model_num_groups(const qubo_model *model);

/**
 * Reads one group; groups are numbered by their first variable, ascending.
 * @param[in] model the model.
 * @param[in] index the group, below qubo_model_num_groups().
 * @param[out] first_out optional; receives the group's first variable.
 * @param[out] count_out optional; receives its number of variables.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_get_group(const qubo_model *model, size_t index, uint32_t *first_out,
				  uint32_t *count_out);

/**
 * Adds @p weight to the constant offset.
 * @param[in,out] model the model.
 * @param[in] weight a finite value.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_offset(qubo_model *model, double weight);

/**
 * Adds @p weight · x_var.
 * @param[in,out] model the model.
 * @param[in] var a variable index below qubo_model_num_variables().
 * @param[in] weight a finite value.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_linear(qubo_model *model, uint32_t var, double weight);

/**
 * Adds @p weight · x_i · x_j. When i == j this is the linear term
 * @p weight · x_i (x² = x).
 * @param[in,out] model the model.
 * @param[in] i a variable index.
 * @param[in] j a variable index.
 * @param[in] weight a finite value.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG,
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_quadratic(qubo_model *model, uint32_t i, uint32_t j, double weight);

/**
 * Adds many pairwise terms at once, all or nothing.
 * @param[in,out] model the model.
 * @param[in] count number of terms.
 * @param[in] rows first indices, @p count of them.
 * @param[in] cols second indices, @p count of them.
 * @param[in] weights finite weights, @p count of them.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG,
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE; #QUBO_CANCELLED when the
 *         model's interrupt function stopped it (nothing added;
 *         qubo_model_set_interrupt()).
 * @since 0.1
 */
QUBO_API int qubo_model_add_quadratic_batch(qubo_model *model, size_t count,
					    const uint32_t *rows, const uint32_t *cols,
					    const double *weights);

/**
 * Adds @p weight · ℓ, expanding a complement as 1 − x and a constant as a
 * number.
 * @param[in,out] model the model.
 * @param[in] lit a literal.
 * @param[in] weight a finite value.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_lit(qubo_model *model, qubo_lit lit, double weight);

/**
 * Adds @p weight · ℓ_a · ℓ_b, expanded over complements and constants
 * (x̄·y = y − xy; ℓ·ℓ = ℓ; ℓ·ℓ̄ = 0).
 * @param[in,out] model the model.
 * @param[in] a a literal.
 * @param[in] b a literal.
 * @param[in] weight a finite value.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG,
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_lit_product(qubo_model *model, qubo_lit a, qubo_lit b, double weight);

/**
 * Adds @p weight · Σ_{a<b} ℓ_a ℓ_b over all unordered pairs of positions of
 * @p lits. Stored as one record of O(count) size and expanded only at
 * compilation, so dense penalties (exactly-k over a row of a board) cost
 * little to build. Literals may repeat and may be constants.
 * @param[in,out] model the model.
 * @param[in] lits the literals.
 * @param[in] count how many.
 * @param[in] weight a finite value.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_INVALID_ARG,
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_add_clique(qubo_model *model, const qubo_lit *lits, size_t count,
				   double weight);

/**
 * Merges all pending pairwise terms into the compiled form.
 *
 * Duplicate pairs are summed in the order they were added, couplers whose sum
 * is exactly zero are dropped, and each adjacency row is sorted by column.
 * On failure the model is unchanged (still dirty, pending terms kept).
 * A model whose weight sum is above #QUBO_MODEL_MAX_WEIGHT_SUM is refused.
 * Compiling a clean model only checks its weight sum again, in O(n).
 *
 * With 65536 or more pending single pairs (qubo_model_add_quadratic() and
 * the like), the compile spreads its work over up to one thread per online
 * CPU, at most 4, started and joined within the call; the calling thread
 * takes a share and is the only one that calls the allocator and the
 * interrupt function. The compiled form is the same bit for bit whatever the
 * number of threads.
 *
 * Single pairs added in order of (smaller index, larger index), with the
 * repeats of a pair next to each other and no pair of a variable with
 * itself, onto a model with nothing compiled and no clique, compile fastest
 * and with the least memory: they already are the rows of the compiled
 * form. The qbsolv reader gives them so when the file lists its couplers by
 * rows, as qubo_qbsolv_write() does.
 * @param[in,out] model the model.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_OUT_OF_RANGE (a sum overflowed
 *         to infinity, or the weight sum is above
 *         #QUBO_MODEL_MAX_WEIGHT_SUM), #QUBO_ERR_MISUSE; #QUBO_CANCELLED when the model's
 *         interrupt function stopped it (qubo_model_set_interrupt()).
 * @since 0.1
 */
QUBO_API int qubo_model_compile(qubo_model *model);

/**
 * A function that may interrupt a long model call (qubo_model_set_interrupt()).
 * @param[in] user_data as given to qubo_model_set_interrupt().
 * @return 0 to go on, nonzero to stop the running call.
 * @since 0.2 (under this name; the type is 0.1's #qubo_model_interrupt_fn)
 */
typedef int (*qubo_model_interrupt_cb)(void *user_data);

/**
 * The former name of #qubo_model_interrupt_cb (callback types end in
 * `_cb`): the same type.
 * @deprecated since 0.2: use #qubo_model_interrupt_cb. Kept for the life of
 * the SONAME (doc/abi.md, "Deprecation").
 * @since 0.1
 */
typedef qubo_model_interrupt_cb qubo_model_interrupt_fn;

/**
 * Lets a caller stop the model's long calls: qubo_model_compile() and
 * qubo_model_add_quadratic_batch() call @p fn on the calling thread about
 * every 65536 entries they go through (a short call may never call it; a
 * compile's last pass, which starts once nothing can fail, does not).
 *
 * When @p fn returns nonzero the running call stops and returns
 * #QUBO_CANCELLED (without setting the thread's error), and the model is
 * exactly as before that call: a compile leaves the pending terms in place
 * and the model uncompiled (compiling again finishes the work), a batch adds
 * none of its terms. The model stays valid and can be used, compiled or
 * freed as usual. A penalty function (qubo/penalty.h) whose terms go through
 * an interrupted batch returns #QUBO_CANCELLED too, and the model may then
 * hold part of that penalty's terms.
 *
 * The setting stays until it is replaced; qubo_model_copy() does not copy
 * it. @p fn must not call functions on the same model.
 * @param[in,out] model the model.
 * @param[in] fn the function; NULL removes it.
 * @param[in] user_data passed to @p fn.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_set_interrupt(qubo_model *model, qubo_model_interrupt_cb fn,
				      void *user_data);

/**
 * Whether the model is compiled and has no pending terms.
 * @param[in] model the model; NULL gives 0.
 * @return 1 or 0.
 * @since 0.1
 */
QUBO_API int qubo_model_is_compiled(const qubo_model *model);

/**
 * Fills @p stats. Works on dirty models too (coupler figures then describe
 * the last compiled form).
 * @param[in] model the model.
 * @param[in,out] stats the struct, with @c struct_size set.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE, #QUBO_ERR_UNSUPPORTED_VERSION.
 * @since 0.1
 */
QUBO_API int qubo_model_get_stats(const qubo_model *model, qubo_model_stats *stats);

/**
 * The constant offset.
 * @param[in] model the model; NULL gives 0.
 * @return the offset.
 * @since 0.1
 */
QUBO_API double qubo_model_offset(const qubo_model *model);

/**
 * Copies the linear weights h_0 … h_{n−1} into @p h.
 * @param[in] model the model.
 * @param[out] h destination of @p capacity doubles.
 * @param[in] capacity must be at least n.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_export_linear(const qubo_model *model, double *h, size_t capacity);

/**
 * Exports the couplers as coordinates, upper triangle (i < j), sorted by
 * (i, j). Call with @p capacity 0 (arrays may be NULL) to learn the count:
 * that call writes no coupler and returns #QUBO_OK with the count in
 * @p count_out.
 * @param[in] model a compiled model.
 * @param[out] rows receives i for each coupler.
 * @param[out] cols receives j for each coupler.
 * @param[out] weights receives J_ij for each coupler.
 * @param[in] capacity length of each array.
 * @param[out] count_out receives the number of couplers (also on
 *             #QUBO_ERR_BUFFER_TOO_SMALL).
 * @return #QUBO_OK (also for the count query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         nonzero @p capacity below the count), #QUBO_ERR_MISUSE (not
 *         compiled).
 * @since 0.1
 */
QUBO_API int qubo_model_export_coo(const qubo_model *model, uint32_t *rows, uint32_t *cols,
				   double *weights, size_t capacity, size_t *count_out);

/**
 * Looks up one compiled coupler J_ij (0 when absent). O(log degree).
 * @param[in] model a compiled model.
 * @param[in] i a variable index.
 * @param[in] j a variable index, different from @p i.
 * @param[out] weight_out receives the weight.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_get_quadratic(const qubo_model *model, uint32_t i, uint32_t j,
				      double *weight_out);

/**
 * Energy of one sample.
 *
 * E = offset + Σ_i x_i (h_i + Σ_{j>i} J_ij x_j), with the rows added in
 * ascending order and each row's sum taken in a fixed order that depends only
 * on the compiled model, so results are reproducible to the last bit on
 * every machine.
 * @param[in] model a compiled model.
 * @param[in] sample n bytes, each 0 or 1.
 * @param[in] length must equal n.
 * @param[out] energy_out receives E(sample).
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (length or a byte not 0/1),
 *         #QUBO_ERR_OUT_OF_RANGE (the weight sum is above
 *         #QUBO_MODEL_MAX_WEIGHT_SUM), #QUBO_ERR_MISUSE (not compiled).
 * @since 0.1
 */
QUBO_API int qubo_model_energy(const qubo_model *model, const uint8_t *sample, size_t length,
			       double *energy_out);

/**
 * Energies of a batch of samples stored row after row.
 * @param[in] model a compiled model.
 * @param[in] samples @p num_samples × n bytes, each 0 or 1.
 * @param[in] num_samples number of samples.
 * @param[in] length bytes per sample; must equal n.
 * @param[out] energies receives @p num_samples values.
 * @return as qubo_model_energy().
 * @since 0.1
 */
QUBO_API int qubo_model_energy_batch(const qubo_model *model, const uint8_t *samples,
				     size_t num_samples, size_t length, double *energies);

/**
 * Energy change of flipping variable @p var in @p sample:
 * E(sample with x_var flipped) − E(sample).
 * @param[in] model a compiled model.
 * @param[in] sample n bytes, each 0 or 1.
 * @param[in] length must equal n.
 * @param[in] var the variable to flip.
 * @param[out] delta_out receives the change.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_OUT_OF_RANGE (@p var,
 *         or the weight sum is above #QUBO_MODEL_MAX_WEIGHT_SUM), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_delta(const qubo_model *model, const uint8_t *sample, size_t length,
			      uint32_t var, double *delta_out);

/**
 * The Ising form of a compiled model, with spins s = 2x − 1 ∈ {−1, +1}:
 * E = offset + Σ h_i s_i + Σ_{i<j} J_ij s_i s_j, where J_ij = Q_ij / 4,
 * h_i = Q_ii / 2 + Σ_j Q_ij / 4 and offset = c + Σ Q_ii / 2 + Σ_{i<j} Q_ij / 4.
 * The couplers come in the order and count of qubo_model_export_coo().
 * Call with @p h_capacity and @p capacity both 0 (arrays may be NULL) to
 * learn the count: that call writes no array and returns #QUBO_OK with the
 * count in @p count_out (@p h needs qubo_model_num_variables() doubles).
 * @param[in] model a compiled model.
 * @param[out] h receives n fields.
 * @param[in] h_capacity length of @p h; at least n.
 * @param[out] rows receives i of each coupling.
 * @param[out] cols receives j of each coupling.
 * @param[out] couplings receives J_ij.
 * @param[in] capacity length of each coupling array.
 * @param[out] count_out receives the number of couplings.
 * @param[out] offset_out receives the constant (not by the size query of a
 *             model with variables).
 * @return #QUBO_OK (also for the size query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         capacity below its count, not both 0), #QUBO_ERR_OUT_OF_RANGE (the
 *         weight sum is above #QUBO_MODEL_MAX_WEIGHT_SUM), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_model_to_ising(const qubo_model *model, double *h, size_t h_capacity,
				 uint32_t *rows, uint32_t *cols, double *couplings,
				 size_t capacity, size_t *count_out, double *offset_out);

/**
 * Builds a compiled model from an Ising form (the inverse of
 * qubo_model_to_ising()): Q_ij = 4 J_ij, Q_ii = 2 h_i − 2 Σ_j J_ij,
 * c = offset − Σ h_i + Σ_{i<j} J_ij. Duplicate couplings are summed.
 * @param[out] out receives the new model.
 * @param[in] num_variables n.
 * @param[in] h n fields (NULL means all zero).
 * @param[in] count number of couplings.
 * @param[in] rows i of each coupling (i != j).
 * @param[in] cols j of each coupling.
 * @param[in] couplings J_ij.
 * @param[in] offset the Ising constant.
 * @param[in] allocator optional allocator.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_OUT_OF_RANGE.
 * @since 0.1
 */
QUBO_API int qubo_model_from_ising(qubo_model **out, size_t num_variables, const double *h,
				   size_t count, const uint32_t *rows, const uint32_t *cols,
				   const double *couplings, double offset,
				   const qubo_allocator *allocator);

QUBO_END_DECLS

#endif /* QUBO_MODEL_H */
