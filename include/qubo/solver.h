/**
 * @file qubo/solver.h
 * @brief Using a solver: built-in solvers by name, keyed options, sampling
 *        and sample sets.
 *
 * A solver is an opaque object around a table of functions (a backend, see
 * qubo/backend.h). The built-in solvers ("sa", "exhaustive", "tabu",
 * "descent", "qaoa", "pt") are backends like any other: qubo_solver_new() only picks their
 * table by name.
 *
 * Options are keyed typed values (integers, doubles, strings) set with
 * qubo_solver_set_int(), qubo_solver_set_double() and
 * qubo_solver_set_string(). The common keys (#QUBO_PARAM_NUM_READS,
 * #QUBO_PARAM_SEED, #QUBO_PARAM_THREADS, #QUBO_PARAM_TIME_LIMIT,
 * #QUBO_PARAM_TARGET_ENERGY) have the same type and range for every solver
 * and are checked by the library. Every other key is checked by the backend
 * as it is set: the built-in solvers reject a key they do not use with
 * #QUBO_ERR_NOT_SUPPORTED and a message listing the keys they accept. A
 * backend without a check accepts any key and reads what it knows.
 *
 * Sampling returns a sample set: distinct samples (one byte per variable, 0
 * or 1), their energies as computed by qubo_model_energy() (never the
 * solver's own figures), and how often each occurred. Samples are sorted by
 * energy, then lexicographically by their bytes, so a sample set is the same
 * whatever the order in which a solver found its samples.
 *
 * A run can stop early: the progress callback asked to stop
 * (#QUBO_CANCELLED), or the time limit passed (#QUBO_TIME_LIMIT). Both are
 * positive statuses: the sample set holds what was found until then.
 *
 * Threads: a solver is used by one thread at a time. The progress callback
 * and every backend slot run on the thread that called qubo_solver_sample();
 * built-in solvers run their own worker threads (option #QUBO_PARAM_THREADS)
 * and give the same samples for a seed whatever the number of threads.
 */
#ifndef QUBO_SOLVER_H
#define QUBO_SOLVER_H

#include "alloc.h"
#include "common.h"
#include "model.h"
#include "qaoa.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** An opaque solver: a backend table, its user data and its options. */
typedef struct qubo_solver qubo_solver;

/** An opaque set of samples with energies, occurrences and run figures. */
typedef struct qubo_sampleset qubo_sampleset;

/** An opaque, read-only view of a solver's options. */
typedef struct qubo_options qubo_options;

/** @name Option value types (qubo_options_type())
 * @{ */
/** No value under the key. */
#define QUBO_TYPE_NONE 0
/** A 64-bit signed integer. */
#define QUBO_TYPE_INT 1
/** A finite double. */
#define QUBO_TYPE_DOUBLE 2
/** A NUL-terminated UTF-8 string. */
#define QUBO_TYPE_STRING 3
/** @} */

/** @name Common option keys, understood by every solver
 * @{ */
/** int, 1 to 2^31 − 1: independent reads (runs) to make. Default 16 for
 *  "sa" and 10 for "tabu", "descent", "pt" and "qaoa" (QAOA measurements);
 *  "exhaustive" accepts it and ignores it. The built-in solvers keep every
 *  read until the run ends (n bytes and an energy each): a count whose
 *  samples would take more than #QUBO_MAX_SAMPLE_BYTES makes
 *  qubo_solver_sample() fail with #QUBO_ERR_TOO_LARGE before anything is
 *  allocated. */
#define QUBO_PARAM_NUM_READS "num_reads"
/** Most bytes the built-in solvers spend on the samples of one run: 256 MiB
 *  (about 14 million reads of a 10-variable model, 266 thousand of a
 *  1000-variable one); the host's copy of the distinct samples comes on
 *  top. @since 0.1 */
#define QUBO_MAX_SAMPLE_BYTES (QUBO_CAST(size_t, 256) << 20)
/** int, any value (used as 64 unsigned bits): the random seed. When unset, a
 *  seed is drawn from the clock; qubo_sample_info::seed tells which. */
#define QUBO_PARAM_SEED "seed"
/** int, 0 to 1024: worker threads; 0 (the default) means one per online CPU. */
#define QUBO_PARAM_THREADS "threads"
/** double (an int is accepted), seconds ≥ 0: stop after this long and keep
 *  what was found (#QUBO_TIME_LIMIT); 0 (the default) means no limit, and so
 *  does a limit above 10^18 s, too long for the clock. Any finite value ≥ 0
 *  is accepted, as by every time limit of the puzzle layer; a negative one
 *  is #QUBO_ERR_OUT_OF_RANGE, NaN or an infinity #QUBO_ERR_INVALID_ARG. */
#define QUBO_PARAM_TIME_LIMIT "time_limit"
/** double (an int is accepted): stop as soon as a sample reaches this energy
 *  or lower. Unset by default. */
#define QUBO_PARAM_TARGET_ENERGY "target_energy"
/** @} */

/** @name Option keys of the built-in solvers (see doc/solvers.md)
 * @{ */
/** int, 0 to 2^31 − 2, "sa", "tabu", "descent" and "pt": the index of the first
 *  read. Read i of a run draws its random numbers from a stream that depends
 *  only on the seed and i, so a run with this key set to a and
 *  #QUBO_PARAM_NUM_READS set to k makes reads a to a + k − 1 of the run of
 *  the same seed and options: runs over slices [0, a), [a, b), ..., [z, R)
 *  on any number of processes, merged with qubo_sampleset_merge(), give the
 *  sample set of one run of R reads, bit for bit, whatever the thread
 *  counts (as long as no run stops early: time limit, target energy,
 *  cancel). Default 0. first_read + num_reads must not exceed 2^31 − 1
 *  (qubo_solver_sample() fails with #QUBO_ERR_OUT_OF_RANGE);
 *  qubo_solver_sample_from() refuses a nonzero value with
 *  #QUBO_ERR_NOT_SUPPORTED (its reads are the given starts). "exhaustive"
 *  and "qaoa" refuse the key with #QUBO_ERR_NOT_SUPPORTED; a backend of
 *  your own accepts any key and may ignore it. @since 0.2 */
#define QUBO_PARAM_FIRST_READ "first_read"
/** int ≥ 1, "sa": sweeps per read. "pt": rounds per read, each a sweep of
 *  every replica and an exchange. Default 1000. */
#define QUBO_PARAM_NUM_SWEEPS "num_sweeps"
/** double > 0, "sa": inverse temperature at the start (hot end). "pt": that
 *  of the hottest replica. Set together with #QUBO_PARAM_BETA_COLD; both
 *  unset means the default rule (the same for both solvers). */
#define QUBO_PARAM_BETA_HOT "beta_hot"
/** double > 0, "sa": inverse temperature at the end (cold end). "pt": that
 *  of the coldest replica. */
#define QUBO_PARAM_BETA_COLD "beta_cold"
/** int 0 or 1, "sa": with 1 (the default) and a model with groups
 *  (qubo_model_add_group()), every move flips one ungrouped variable and
 *  sets the groups it touches to their best values; 0 flips every variable
 *  on its own. Models without groups are annealed the same either way. */
#define QUBO_PARAM_GROUP_MOVES "group_moves"
/** int 0 or 1, "sa": with 1, a read returns the lowest state it was in at
 *  the end of a sweep (its start counts; the final state on ties); with 0,
 *  its final state. Unset means 1 when the schedule cools and 0 at constant β
 *  (beta_hot = beta_cold), where the final states are Metropolis samples.
 *  "pt": with 1 (the default), a read returns the lowest state any of its
 *  replicas was in at the end of a sweep; with 0, the final state of the
 *  coldest replica, a sample of the Boltzmann distribution at beta_cold.
 *  @since 0.2 */
#define QUBO_PARAM_KEEP_LOWEST "keep_lowest"
/** int 1 to 4096, "pt": replicas per read, on a geometric ladder of inverse
 *  temperatures from #QUBO_PARAM_BETA_HOT to #QUBO_PARAM_BETA_COLD. Unset
 *  means enough rungs that neighbours are at most a factor 1 + 5.8/sqrt(n)
 *  apart, within 4 to 64, rounded up to a multiple of 8: replicas sweep in
 *  groups of 8 (doc/solvers.md). @since 0.2 */
#define QUBO_PARAM_NUM_REPLICAS "num_replicas"
/** int ≥ 0, "tabu": iterations a flipped variable stays tabu; unset means
 *  min(20, n / 4), or n / 20 when that is larger, and the value must be
 *  below the number of variables. */
#define QUBO_PARAM_TENURE "tenure"
/** int ≥ 1, "tabu": iterations per restart; unset means max(1000, 10 n).
 *  "qaoa": Nelder–Mead iterations per depth when optimising the angles
 *  (qubo_qaoa_optimize()); default 100, at most 1000000. */
#define QUBO_PARAM_NUM_ITERATIONS "num_iterations"
/** int ≥ 0, "tabu": restarts per read after the first run. Default 3. */
#define QUBO_PARAM_NUM_RESTARTS "num_restarts"
/** int ≥ 0, "exhaustive": return the k lowest states instead of the ground
 *  states; 0 (the default) means ground states. At most 2^20. */
#define QUBO_PARAM_NUM_LOWEST "num_lowest"
/** int ≥ 1, "exhaustive": ground states stored (all are counted). Default
 *  65536, at most 2^24. */
#define QUBO_PARAM_MAX_GROUND_STATES "max_ground_states"
/** int 1 to #QUBO_QAOA_MAX_DEPTH, "qaoa": the depth p. Default 1, or the
 *  depth of #QUBO_PARAM_ANGLES when those are set. */
#define QUBO_PARAM_P "p"
/** string, "qaoa": the angles "γ_1,...,γ_p,β_1,...,β_p" (2p finite numbers
 *  separated by commas); unset means optimised (qubo_qaoa_optimize()). */
#define QUBO_PARAM_ANGLES "angles"
/** int 1 to #QUBO_QAOA_MAX_QUBITS, "qaoa": the largest model, in variables,
 *  accepted; a larger one is refused with #QUBO_ERR_TOO_LARGE before
 *  anything is allocated. Default #QUBO_QAOA_DEFAULT_MAX_QUBITS (26). */
#define QUBO_PARAM_MAX_QUBITS "max_qubits"
/** @} */

/** The largest model, in variables, that the "exhaustive" solver accepts. */
#define QUBO_EXHAUSTIVE_MAX_VARIABLES 40

/** What a progress callback is told. Read only the fields within
 *  @c struct_size: later versions may append fields. */
typedef struct qubo_progress {
	/** sizeof(qubo_progress) of the library that filled it. */
	size_t struct_size;
	/** Units of work finished: reads, or blocks of states for "exhaustive". */
	uint64_t done;
	/** Units of work in the run. */
	uint64_t total;
	/** Lowest energy found so far, as the solver computes it; valid when
	 *  @c has_best is 1. */
	double best_energy;
	/** 1 when @c best_energy is valid, 0 before any result. */
	int32_t has_best;
	/** Seconds since sampling began. */
	double seconds;
} qubo_progress;

/** Size of the first layout of qubo_progress (through @c seconds), frozen:
 *  the library never passes a smaller @c struct_size. @since 0.1 */
#define QUBO_PROGRESS_SIZE_V1 (offsetof(qubo_progress, seconds) + sizeof(double))

/**
 * Progress callback: called on the thread that called qubo_solver_sample(),
 * about every 100 ms for the built-in solvers, and once at the end.
 * @param[in] progress the figures; valid during the call only.
 * @param[in] user_data as given to qubo_solver_set_progress().
 * @return 0 to continue, nonzero to stop (the run then ends within one sweep
 *         with #QUBO_CANCELLED and keeps what it found).
 */
typedef int (*qubo_progress_cb)(const qubo_progress *progress, void *user_data);

/** Figures of the run that produced a sample set (qubo_sampleset_get_info()).
 *  Fields marked "backend" are reported by the solver and 0 when it did not. */
typedef struct qubo_sample_info {
	/** Set to sizeof(qubo_sample_info) before the call. */
	size_t struct_size;
	/** #QUBO_OK, #QUBO_CANCELLED or #QUBO_TIME_LIMIT. */
	int32_t status;
	/** 1 when #QUBO_PARAM_TARGET_ENERGY was set and the lowest sample reaches it. */
	int32_t reached_target;
	/** Wall-clock seconds spent in the solver's sample function (excludes
	 *  building the sample set). */
	double seconds;
	/** Samples the solver returned, duplicates included (the sum of
	 *  occurrences before any truncation). */
	uint64_t num_samples;
	/** backend: single-variable flip attempts made (states visited for
	 *  "exhaustive"), for time-per-flip figures. */
	uint64_t flip_attempts;
	/** backend: "exhaustive" in ground-state mode: how many states share the
	 *  lowest energy, counted even beyond the ones stored. */
	uint64_t num_ground_states;
	/** The seed the run used (#QUBO_PARAM_SEED, or the one drawn when unset). */
	uint64_t seed;
	/** backend, since 0.1 (#QUBO_SAMPLE_INFO_SIZE_V2): the expectation of the
	 *  energy in the state the reads were measured from ("qaoa": ⟨C⟩ of the
	 *  final state); valid when @c has_expectation is 1. */
	double expectation;
	/** backend (V2): the probability that a read has the lowest energy
	 *  ("qaoa": the model's exact lowest energy, found by enumeration);
	 *  valid when @c has_expectation is 1. */
	double lowest_probability;
	/** backend (V2): 1 when @c expectation and @c lowest_probability were
	 *  reported, 0 otherwise. */
	int32_t has_expectation;
} qubo_sample_info;

/** Size of the first layout of qubo_sample_info (through @c seed), frozen:
 *  the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_SAMPLE_INFO_SIZE_V1 (offsetof(qubo_sample_info, seed) + sizeof(uint64_t))

/** Size of the second layout of qubo_sample_info (through
 *  @c has_expectation), frozen. @since 0.1 */
#define QUBO_SAMPLE_INFO_SIZE_V2 \
	(offsetof(qubo_sample_info, has_expectation) + sizeof(int32_t))

/** Initialiser of a qubo_sample_info with @c struct_size set and every
 *  other field zero: `qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;` */
#define QUBO_SAMPLE_INFO_INIT { sizeof(qubo_sample_info), 0, 0, 0.0, 0, 0, 0, 0, 0.0, 0.0, 0 }

/**
 * A sample-set iteration callback.
 * @param[in] index position in the set, from 0.
 * @param[in] sample @p length bytes, 0 or 1; valid during the call only.
 * @param[in] length number of variables.
 * @param[in] energy the sample's energy.
 * @param[in] occurrences how many times it occurred (≥ 1).
 * @param[in] user_data as given to qubo_sampleset_foreach().
 * @return 0 to continue; any other value stops the iteration and is returned
 *         by qubo_sampleset_foreach().
 */
typedef int (*qubo_sample_cb)(size_t index, const uint8_t *sample, size_t length, double energy,
			      uint64_t occurrences, void *user_data);

/**
 * Creates a built-in solver by name: "sa" (simulated annealing),
 * "exhaustive", "tabu", "descent" (steepest descent), "qaoa" (QAOA on a
 * state-vector simulator, qubo/qaoa.h) or "pt" (parallel tempering; since
 * 0.2).
 * @param[out] out receives the solver; NULL on failure.
 * @param[in] name the solver's name.
 * @param[in] allocator optional allocator for the solver and its sample
 *            sets, copied; NULL for the C library's.
 * @return #QUBO_OK, #QUBO_ERR_NOT_SUPPORTED (unknown name; the message lists
 *         the built-in names), #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_new(qubo_solver **out, const char *name, const qubo_allocator *allocator);

/**
 * The name of the built-in solver number @p index, for listing them.
 * @param[in] index from 0.
 * @param[out] name_out receives a static string.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE past the last one, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_builtin_name(size_t index, const char **name_out);

/**
 * Makes a second solver like @p solver: the same backend, a copy of every
 * option (the same keys, types and values, in the same order) and the same
 * progress callback and user data. Afterwards the two are independent:
 * setting or removing an option, or the progress callback, of one leaves
 * the other as it was, and each is freed with qubo_solver_free(), in either
 * order. The clone allocates through @p solver's allocator.
 *
 * Use it to run a solver you were lent with options of your own:
 * qubo_puzzle_solve() samples with a clone of the caller's solver, so the
 * caller's solver is never changed.
 *
 * A solver made by qubo_solver_new_backend() shares the backend's user data
 * with its clones rather than copying it (the library cannot copy what it
 * does not know): the slots of every clone receive the same pointer, and
 * the destroy callback runs once, when the last of them is freed. The
 * built-in solvers keep nothing in theirs, so their clones may be used on
 * other threads at the same time. A backend of your own may be used that
 * way only when its slots allow concurrent calls with the same user data;
 * otherwise use a solver and its clones from one thread at a time. A
 * backend that keeps what its @c set_param slot was shown in its user data
 * sees the options set on a clone too; keep options in the options instead
 * (the slots receive them), as the built-in solvers do.
 * @param[out] out receives the clone; NULL on failure.
 * @param[in] solver the solver; not changed.
 * @return #QUBO_OK, #QUBO_ERR_NOMEM (nothing allocated is kept and
 *         @p solver is unchanged), #QUBO_ERR_MISUSE.
 * @since 0.2
 */
QUBO_API int qubo_solver_clone(qubo_solver **out, const qubo_solver *solver);

/**
 * Frees a solver. The backend's destroy callback is called once, by the
 * call that frees the last of a solver and its clones (qubo_solver_clone()):
 * here, for a solver that was never cloned. NULL is a no-op.
 * @param[in] solver the solver.
 * @since 0.1
 */
QUBO_API void qubo_solver_free(qubo_solver *solver);

/**
 * The solver's name (its backend table's name).
 * @param[in] solver the solver; NULL gives "".
 * @return a string owned by @p solver, never NULL.
 * @since 0.1
 */
QUBO_API const char *qubo_solver_name(const qubo_solver *solver);

/**
 * A human-readable description of the solver and its options, from the
 * backend's describe slot (or the name alone). The text is NUL-terminated
 * when it fits with its terminator; call with @p capacity 0 to learn the size:
 * that call writes nothing and returns #QUBO_OK with the length in
 * @p length_out.
 * @param[in] solver the solver.
 * @param[out] buffer destination (may be NULL when @p capacity is 0).
 * @param[in] capacity its size in bytes.
 * @param[out] length_out optional; receives the length without the NUL.
 * @return #QUBO_OK (also for the size query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         nonzero @p capacity that does not hold the text and its NUL),
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_describe(const qubo_solver *solver, char *buffer, size_t capacity,
				  size_t *length_out);

/**
 * Sets an integer option, replacing any value under @p key.
 *
 * Keys are 1 to 64 characters from [A-Za-z0-9_.-]. The value is checked now:
 * common keys by the library, other keys by the backend. On failure the
 * previous value (or its absence) is kept.
 * @param[in,out] solver the solver.
 * @param[in] key the option's name, such as #QUBO_PARAM_NUM_READS.
 * @param[in] value the value.
 * @return #QUBO_OK, #QUBO_ERR_NOT_SUPPORTED (a key the solver does not use),
 *         #QUBO_ERR_INVALID_ARG (wrong type or malformed key),
 *         #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_set_int(qubo_solver *solver, const char *key, int64_t value);

/**
 * Sets a double option. Non-finite values are rejected. An integer key does
 * not take a double (#QUBO_ERR_INVALID_ARG), even an integral one.
 * @param[in,out] solver the solver.
 * @param[in] key the option's name.
 * @param[in] value a finite value.
 * @return as qubo_solver_set_int().
 * @since 0.1
 */
QUBO_API int qubo_solver_set_double(qubo_solver *solver, const char *key, double value);

/**
 * Sets a string option; @p value is copied.
 * @param[in,out] solver the solver.
 * @param[in] key the option's name.
 * @param[in] value a NUL-terminated string.
 * @return as qubo_solver_set_int().
 * @since 0.1
 */
QUBO_API int qubo_solver_set_string(qubo_solver *solver, const char *key, const char *value);

/**
 * Removes an option, so that the solver's default applies again. Removing an
 * absent key is not an error.
 * @param[in,out] solver the solver.
 * @param[in] key the option's name.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (malformed key), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_unset(qubo_solver *solver, const char *key);

/**
 * The solver's options, for reading with the qubo_options_get functions.
 * @param[in] solver the solver.
 * @param[out] options_out receives a view owned by @p solver, valid until the
 *             solver is freed (it reflects later changes).
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_options(const qubo_solver *solver, const qubo_options **options_out);

/**
 * Installs (or with NULL removes) the progress callback.
 * @param[in,out] solver the solver.
 * @param[in] callback the callback, or NULL.
 * @param[in] user_data passed to it; not owned.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_solver_set_progress(qubo_solver *solver, qubo_progress_cb callback,
				      void *user_data);

/**
 * Samples a compiled model.
 *
 * On success and on an early stop *out holds the samples found; on failure
 * it is NULL. The model is only read and may be shared with other solvers.
 * @param[out] out receives the sample set, freed with qubo_sampleset_free().
 * @param[in,out] solver the solver.
 * @param[in] model a compiled model.
 * @return #QUBO_OK, #QUBO_CANCELLED, #QUBO_TIME_LIMIT; or an error:
 *         #QUBO_ERR_MISUSE (NULL argument, model not compiled),
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_TOO_LARGE (the model is too large for
 *         the solver), #QUBO_ERR_CALLBACK (a backend failed without saying
 *         why), or any code a backend reported.
 * @since 0.1
 */
QUBO_API int qubo_solver_sample(qubo_sampleset **out, qubo_solver *solver,
				const qubo_model *model);

/**
 * Samples starting from given states: each distinct sample of @p initial is
 * one start, and its result keeps the start's occurrences. "descent" and
 * "tabu" polish the samples of another solver this way.
 * @param[out] out receives the sample set.
 * @param[in,out] solver the solver.
 * @param[in] model a compiled model.
 * @param[in] initial start states over the model's variables.
 * @return as qubo_solver_sample(), and #QUBO_ERR_NOT_SUPPORTED when the
 *         solver cannot start from given states, #QUBO_ERR_INVALID_ARG when
 *         @p initial has a different number of variables.
 * @since 0.1
 */
QUBO_API int qubo_solver_sample_from(qubo_sampleset **out, qubo_solver *solver,
				     const qubo_model *model, const qubo_sampleset *initial);

/**
 * The type of the value under @p key.
 * @param[in] options the options; NULL gives #QUBO_TYPE_NONE.
 * @param[in] key the option's name; NULL gives #QUBO_TYPE_NONE.
 * @return #QUBO_TYPE_NONE, #QUBO_TYPE_INT, #QUBO_TYPE_DOUBLE or #QUBO_TYPE_STRING.
 * @since 0.1
 */
QUBO_API int32_t qubo_options_type(const qubo_options *options, const char *key);

/**
 * Reads an integer option.
 * @param[in] options the options.
 * @param[in] key the option's name.
 * @param[in] fallback stored in @p value_out when the key is absent.
 * @param[out] value_out receives the value.
 * @return #QUBO_OK (also when absent), #QUBO_ERR_INVALID_ARG (the value is
 *         not an integer), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_options_get_int(const qubo_options *options, const char *key, int64_t fallback,
				  int64_t *value_out);

/**
 * Reads a double option; an integer value is converted.
 * @param[in] options the options.
 * @param[in] key the option's name.
 * @param[in] fallback stored in @p value_out when the key is absent.
 * @param[out] value_out receives the value.
 * @return #QUBO_OK (also when absent), #QUBO_ERR_INVALID_ARG (a string),
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_options_get_double(const qubo_options *options, const char *key,
				     double fallback, double *value_out);

/**
 * Reads a string option.
 * @param[in] options the options.
 * @param[in] key the option's name.
 * @param[in] fallback stored in @p value_out when the key is absent (may be NULL).
 * @param[out] value_out receives the string, owned by @p options and valid
 *             until the key is next set or removed.
 * @return #QUBO_OK (also when absent), #QUBO_ERR_INVALID_ARG (not a
 *         string), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_options_get_string(const qubo_options *options, const char *key,
				     const char *fallback, const char **value_out);

/**
 * Number of options set.
 * @param[in] options the options; NULL gives 0.
 * @return the count.
 * @since 0.1
 */
QUBO_API size_t qubo_options_count(const qubo_options *options);

/**
 * The key and type of option number @p index, in the order they were first
 * set.
 * @param[in] options the options.
 * @param[in] index from 0.
 * @param[out] key_out receives the key, owned by @p options.
 * @param[out] type_out optional; receives the type.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_options_key(const qubo_options *options, size_t index, const char **key_out,
			      int32_t *type_out);

/**
 * Builds a sample set from raw samples: computes their energies, sorts them
 * and merges duplicates. Useful as the start states of
 * qubo_solver_sample_from().
 * @param[out] out receives the sample set; NULL on failure.
 * @param[in] model a compiled model.
 * @param[in] samples @p num_samples × @p length bytes, row after row, 0 or 1.
 * @param[in] num_samples number of samples (may be 0).
 * @param[in] length bytes per sample; must equal the number of variables.
 * @param[in] allocator optional allocator, copied.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (length, or a byte not 0/1),
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_from_samples(qubo_sampleset **out, const qubo_model *model,
					 const uint8_t *samples, size_t num_samples,
					 size_t length, const qubo_allocator *allocator);

/**
 * Builds a sample set from raw samples with their occurrences: as
 * qubo_sampleset_from_samples(), with sample i counted @p occurrences[i]
 * times. Rows may repeat (their occurrences add up, saturating at
 * UINT64_MAX). Exporting a set with qubo_sampleset_export() and building a
 * set from the rows and occurrences gives the same samples, energies and
 * occurrences, which is how sample sets travel between processes.
 * @param[out] out receives the sample set; NULL on failure.
 * @param[in] model a compiled model.
 * @param[in] samples @p num_samples × @p length bytes, row after row, 0 or 1.
 * @param[in] occurrences @p num_samples counts, each ≥ 1.
 * @param[in] num_samples number of samples (may be 0).
 * @param[in] length bytes per sample; must equal the number of variables.
 * @param[in] allocator optional allocator, copied.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (length, a byte not 0/1, an
 *         occurrence of 0), #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.2
 */
QUBO_API int qubo_sampleset_from_counts(qubo_sampleset **out, const qubo_model *model,
					const uint8_t *samples, const uint64_t *occurrences,
					size_t num_samples, size_t length,
					const qubo_allocator *allocator);

/**
 * Merges sample sets over the same model into one: the distinct samples of
 * all of them, occurrences added up, energies from @p model, sorted as every
 * sample set is. The runs of slices of one seeded run
 * (#QUBO_PARAM_FIRST_READ) merge into the sample set of the whole run: same
 * samples, energies and occurrences, in the same order, whatever the order
 * of @p sets.
 *
 * The merged figures (qubo_sampleset_get_info()): @c num_samples,
 * @c flip_attempts and @c num_ground_states are the sums (saturating);
 * @c seconds is the largest (the slices ran side by side); @c seed is the
 * first set's; @c status is the first status of the sets that is not
 * #QUBO_OK (#QUBO_OK when all are); @c reached_target is 1 when any set's
 * is; the expectation fields are left 0.
 * @param[out] out receives the sample set; NULL on failure.
 * @param[in] model a compiled model with as many variables as every set.
 * @param[in] sets @p num_sets sample sets (none NULL); not changed.
 * @param[in] num_sets number of sets (may be 0: an empty set).
 * @param[in] allocator optional allocator, copied.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (a set with another number of
 *         variables than the model), #QUBO_ERR_TOO_LARGE, #QUBO_ERR_NOMEM,
 *         #QUBO_ERR_MISUSE.
 * @since 0.2
 */
QUBO_API int qubo_sampleset_merge(qubo_sampleset **out, const qubo_model *model,
				  const qubo_sampleset *const *sets, size_t num_sets,
				  const qubo_allocator *allocator);

/**
 * Frees a sample set. NULL is a no-op.
 * @param[in] set the sample set.
 * @since 0.1
 */
QUBO_API void qubo_sampleset_free(qubo_sampleset *set);

/**
 * Number of distinct samples.
 * @param[in] set the sample set; NULL gives 0.
 * @return the count.
 * @since 0.1
 */
QUBO_API size_t qubo_sampleset_size(const qubo_sampleset *set);

/**
 * Number of variables of each sample.
 * @param[in] set the sample set; NULL gives 0.
 * @return n.
 * @since 0.1
 */
QUBO_API size_t qubo_sampleset_num_variables(const qubo_sampleset *set);

/**
 * Reads sample number @p index (0 is the lowest energy). Each output is
 * optional.
 * @param[in] set the sample set.
 * @param[in] index below qubo_sampleset_size().
 * @param[out] sample receives n bytes; may be NULL.
 * @param[in] capacity size of @p sample; at least n when @p sample is given.
 * @param[out] energy_out optional; receives the energy.
 * @param[out] occurrences_out optional; receives the occurrences.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_BUFFER_TOO_SMALL,
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_get(const qubo_sampleset *set, size_t index, uint8_t *sample,
				size_t capacity, double *energy_out, uint64_t *occurrences_out);

/**
 * A pointer to sample number @p index, owned by @p set and valid until the
 * set is truncated or freed.
 * @param[in] set the sample set.
 * @param[in] index below qubo_sampleset_size().
 * @return n bytes, or NULL when @p set is NULL or @p index is out of range.
 * @since 0.1
 */
QUBO_API const uint8_t *qubo_sampleset_sample_data(const qubo_sampleset *set, size_t index);

/**
 * The lowest-energy sample (number 0).
 * @param[in] set the sample set.
 * @param[out] sample receives n bytes; may be NULL.
 * @param[in] capacity size of @p sample.
 * @param[out] energy_out optional; receives its energy.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE (the set is empty),
 *         #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_lowest(const qubo_sampleset *set, uint8_t *sample, size_t capacity,
				   double *energy_out);

/**
 * Copies the whole set into caller arrays (row after row). Each array is
 * optional.
 * @param[in] set the sample set.
 * @param[out] samples receives size × n bytes.
 * @param[out] energies receives size doubles.
 * @param[out] occurrences receives size counts.
 * @param[in] capacity rows each array holds; at least qubo_sampleset_size().
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_export(const qubo_sampleset *set, uint8_t *samples, double *energies,
				   uint64_t *occurrences, size_t capacity);

/**
 * Keeps only the @p count lowest samples (all when @p count is larger).
 * qubo_sample_info is left as it was.
 * @param[in,out] set the sample set.
 * @param[in] count how many to keep.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_truncate(qubo_sampleset *set, size_t count);

/**
 * Calls @p callback for each sample, lowest energy first.
 * @param[in] set the sample set.
 * @param[in] callback the callback.
 * @param[in] user_data passed to it.
 * @return #QUBO_OK after the last sample, the callback's nonzero return when
 *         it stopped the iteration, or #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_foreach(const qubo_sampleset *set, qubo_sample_cb callback,
				    void *user_data);

/**
 * Figures of the run that produced the set (all zero but @c status for a set
 * built by qubo_sampleset_from_samples()).
 * @param[in] set the sample set.
 * @param[in,out] info the struct, with @c struct_size set; fields beyond it
 *                are not written.
 * @return #QUBO_OK, #QUBO_ERR_UNSUPPORTED_VERSION (@c struct_size too small),
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_sampleset_get_info(const qubo_sampleset *set, qubo_sample_info *info);

QUBO_END_DECLS

#endif /* QUBO_SOLVER_H */
