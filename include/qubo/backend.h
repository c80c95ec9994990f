/**
 * @file qubo/backend.h
 * @brief Implementing a solver: the backend table and the host functions a
 *        backend calls.
 *
 * A backend is a table of functions (qubo_backend_vtable) plus user data.
 * qubo_solver_new_backend() copies the table into the solver, so the caller's
 * table may be temporary. The table starts with its own size and grows only
 * by appending slots: a backend compiled against an older header keeps
 * working, and a table from a newer header works as long as the slots this
 * library does not know are NULL.
 *
 * Slots:
 * - REQUIRED: @c sample.
 * - OPTIONAL: @c sample_from (without it qubo_solver_sample_from() returns
 *   #QUBO_ERR_NOT_SUPPORTED), @c set_param (without it every key is
 *   accepted), @c describe (without it the description is the name).
 *
 * Every slot returns an int status and takes its @c user_data last. Slots
 * are called on the thread that called the qubo_solver function, never
 * concurrently for one solver; the clones of a solver share its user data
 * (qubo_solver_clone() says when their slots may run at once). A slot reports a failure with
 * qubo_backend_set_error() and a nonzero return; a nonzero return without a
 * reported error becomes #QUBO_ERR_CALLBACK. A sample slot may return
 * #QUBO_CANCELLED or #QUBO_TIME_LIMIT after an early stop: the samples it
 * added are kept.
 *
 * A backend reads the model through the public model API (for instance
 * qubo_model_export_linear() and qubo_model_export_coo() into its own
 * arrays), reads its options through the qubo_options functions, and hands
 * samples to the host with qubo_backend_add_samples(). The host computes
 * energies, sorts and merges duplicates: a backend never reports energies.
 *
 * Fallback policy: the library never substitutes another solver when a
 * backend fails; the error is returned to the caller as reported.
 */
#ifndef QUBO_BACKEND_H
#define QUBO_BACKEND_H

#include "alloc.h"
#include "common.h"
#include "model.h"
#include "solver.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** The host side of one slot call: options, results, progress and errors.
 *  Valid only during the call it was passed to. */
typedef struct qubo_backend_ctx qubo_backend_ctx;

/** A backend's table of functions. Zero every slot you do not provide. */
typedef struct qubo_backend_vtable {
	/** sizeof(qubo_backend_vtable), or #QUBO_BACKEND_VTABLE_SIZE_V1. */
	size_t struct_size;
	/** The backend's name (copied); must be non-empty. */
	const char *name;

	/**
	 * REQUIRED. Samples @p model: adds samples with
	 * qubo_backend_add_samples(), calls qubo_backend_progress() now and
	 * then, and stops early when that says so.
	 * @param[in] ctx the host context.
	 * @param[in] model a compiled model, read-only.
	 * @param[in] options the solver's options, plus #QUBO_PARAM_SEED always
	 *            set (drawn by the host when the user did not set it).
	 * @param[in] user_data the backend's user data.
	 * @return 0, #QUBO_CANCELLED, #QUBO_TIME_LIMIT, or nonzero on failure.
	 */
	int (*sample)(qubo_backend_ctx *ctx, const qubo_model *model, const qubo_options *options,
		      void *user_data);

	/**
	 * OPTIONAL. Like @c sample, starting from the distinct samples of
	 * @p initial (same number of variables as @p model).
	 * @param[in] ctx the host context.
	 * @param[in] model a compiled model.
	 * @param[in] options as for @c sample.
	 * @param[in] initial the start states, read-only.
	 * @param[in] user_data the backend's user data.
	 * @return as @c sample.
	 */
	int (*sample_from)(qubo_backend_ctx *ctx, const qubo_model *model,
			   const qubo_options *options, const qubo_sampleset *initial,
			   void *user_data);

	/**
	 * OPTIONAL. Checks an option just set: @p options already holds the new
	 * value under @p key. A nonzero return rejects it and the host restores
	 * the previous value. Called for the common keys too, after the host's
	 * own checks.
	 * @param[in] ctx the host context (for qubo_backend_set_error()).
	 * @param[in] key the key being set.
	 * @param[in] options the options including the new value.
	 * @param[in] user_data the backend's user data.
	 * @return 0 to accept, nonzero to reject.
	 */
	int (*set_param)(qubo_backend_ctx *ctx, const char *key, const qubo_options *options,
			 void *user_data);

	/**
	 * OPTIONAL. Writes a NUL-terminated description of the backend and its
	 * options into @p buffer, truncated to @p capacity bytes.
	 * @param[out] buffer destination.
	 * @param[in] capacity its size (at least 1).
	 * @param[in] user_data the backend's user data.
	 * @return 0, or nonzero on failure.
	 */
	int (*describe)(char *buffer, size_t capacity, void *user_data);
} qubo_backend_vtable;

/** The size of the version-1 table: the end of its last slot, @c describe.
 *  A table may be smaller down to #QUBO_BACKEND_VTABLE_SIZE_MIN; the slots it
 *  lacks count as NULL. */
#define QUBO_BACKEND_VTABLE_SIZE_V1 \
	(offsetof(qubo_backend_vtable, describe) + sizeof(int (*)(char *, size_t, void *)))

/** The smallest table accepted: up to and including the required @c sample slot. */
#define QUBO_BACKEND_VTABLE_SIZE_MIN                       \
	(offsetof(qubo_backend_vtable, sample) +            \
	 sizeof(int (*)(qubo_backend_ctx *, const qubo_model *, const qubo_options *, void *)))

/** Called once with the backend's user data when its solver, or the last of
 *  the solver and its clones (qubo_solver_clone()), is freed. */
typedef void (*qubo_destroy_cb)(void *user_data);

/**
 * Creates a solver from a backend table.
 *
 * The first @c struct_size bytes of @p vtable are copied into zeroed storage
 * and checked at once. On success @p destroy (if any) is called exactly once,
 * by the qubo_solver_free() that frees the last of the solver and its clones
 * (qubo_solver_clone(), which share @p user_data); on failure it is not
 * called and @p user_data stays the caller's.
 * @param[out] out receives the solver; NULL on failure.
 * @param[in] vtable the table; may be temporary.
 * @param[in] user_data passed last to every slot; owned by the backend.
 * @param[in] destroy optional; releases @p user_data.
 * @param[in] allocator optional allocator, copied.
 * @return #QUBO_OK; #QUBO_ERR_MISUSE (NULL table, @c struct_size below
 *         #QUBO_BACKEND_VTABLE_SIZE_MIN, no @c sample slot, empty name);
 *         #QUBO_ERR_UNSUPPORTED_VERSION (a larger table whose unknown slots
 *         are not NULL); #QUBO_ERR_NOMEM.
 * @since 0.1
 */
QUBO_API int qubo_solver_new_backend(qubo_solver **out, const qubo_backend_vtable *vtable,
				     void *user_data, qubo_destroy_cb destroy,
				     const qubo_allocator *allocator);

/**
 * Reports why a slot failed. The host copies @p message (up to 400 bytes)
 * and returns @p code to the caller with the message "<name>: <message>".
 * @param[in,out] ctx the host context.
 * @param[in] code a negative QUBO_ERR_ code; anything else is recorded as
 *            #QUBO_ERR_CALLBACK.
 * @param[in] message a NUL-terminated message (NULL means none).
 * @return the code recorded, so that a slot can `return
 *         qubo_backend_set_error(...)`; #QUBO_ERR_MISUSE when @p ctx is NULL.
 * @since 0.1
 */
QUBO_API int qubo_backend_set_error(qubo_backend_ctx *ctx, int code, const char *message);

/**
 * Hands samples to the host (sample slots only). They are copied and
 * checked; energies are computed later by the host.
 * @param[in,out] ctx the host context.
 * @param[in] samples @p num_samples × @p length bytes, 0 or 1.
 * @param[in] num_samples how many.
 * @param[in] length bytes per sample; must equal the model's variables.
 * @param[in] occurrences optional; how often each sample occurred (≥ 1).
 *            NULL means once each.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (length, a byte not 0/1, zero
 *         occurrences), #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE (NULL, or called
 *         outside a sample slot).
 * @since 0.1
 */
QUBO_API int qubo_backend_add_samples(qubo_backend_ctx *ctx, const uint8_t *samples,
				      size_t num_samples, size_t length,
				      const uint64_t *occurrences);

/**
 * Reports progress (sample slots only) and asks whether to stop. Calls the
 * user's progress callback, if any, every time: call it about every 100 ms.
 * @param[in,out] ctx the host context.
 * @param[in] done units of work finished (reads, say).
 * @param[in] total units in the run.
 * @param[in] best_energy lowest energy so far; NaN when none yet.
 * @return #QUBO_OK to continue; #QUBO_CANCELLED (the callback asked to stop)
 *         or #QUBO_TIME_LIMIT (#QUBO_PARAM_TIME_LIMIT has passed): stop soon,
 *         keep the samples added, and return; #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_backend_progress(qubo_backend_ctx *ctx, uint64_t done, uint64_t total,
				   double best_energy);

/**
 * Whether the run should stop, without calling the progress callback: cheap
 * enough to call every sweep.
 * @param[in] ctx the host context.
 * @return #QUBO_OK, #QUBO_CANCELLED (the callback asked to stop earlier),
 *         #QUBO_TIME_LIMIT, or #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_backend_should_stop(const qubo_backend_ctx *ctx);

/**
 * Reports the backend's own figures of the run (sample slots only): the
 * fields qubo_sample_info marks "backend" are taken from @p info, the others
 * are ignored. The last report wins. With @c has_expectation set, the
 * expectation and the probability must be finite: a report of a NaN or an
 * infinity is refused, and the run's figures stay as they were.
 * @param[in,out] ctx the host context.
 * @param[in] info the figures, with @c struct_size set.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (an expectation or a probability
 *         that is not finite), #QUBO_ERR_UNSUPPORTED_VERSION, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_backend_report(qubo_backend_ctx *ctx, const qubo_sample_info *info);

QUBO_END_DECLS

#endif /* QUBO_BACKEND_H */
