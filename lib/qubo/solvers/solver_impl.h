/*
 * Private layout of solvers, options, sample sets and the backend context,
 * and the helpers the built-in adapters share. Never installed.
 */
#ifndef QUBO_SOLVERS_SOLVER_IMPL_H
#define QUBO_SOLVERS_SOLVER_IMPL_H

#include <float.h>

#include "../internal.h"
#include "kernel.h"
#include "qubo/backend.h"
#include "qubo/solver.h"

/* ---- options (options.c) ---- */

typedef struct qubo__opt {
	char *key;
	int32_t type; /* QUBO_TYPE_INT, _DOUBLE or _STRING */
	int64_t i;
	double d;
	char *s;
} qubo__opt;

struct qubo_options {
	const qubo_allocator *alloc; /* the owner's */
	qubo__opt *items;
	size_t count, cap;
};

/* A pending change made by qubo__options_put, undone or committed. */
typedef struct qubo__opt_change {
	size_t index;
	int existed;
	qubo__opt old;
} qubo__opt_change;

void qubo__options_init(qubo_options *o, const qubo_allocator *a);
void qubo__options_dispose(qubo_options *o);
/* Deep copy into an initialised, empty dst. */
int qubo__options_copy(qubo_options *dst, const qubo_options *src);
qubo__opt *qubo__options_find(const qubo_options *o, const char *key);
/* Checks a key's spelling; message names func. */
int qubo__options_check_key(const char *func, const char *key);
/* Stores a value (allocating first: on failure nothing changed). */
int qubo__options_put(qubo_options *o, const char *key, const qubo__opt *value,
		      qubo__opt_change *change);
void qubo__options_undo(qubo_options *o, qubo__opt_change *change);
void qubo__options_commit(qubo_options *o, qubo__opt_change *change);
/* Removes a key if present (never fails). */
void qubo__options_remove(qubo_options *o, const char *key);
/* The type name for messages: "an integer", "a double", "a string". */
const char *qubo__type_name(int32_t type);

/* A typed, ranged key of the built-in solvers and of the common set. */
typedef struct qubo__param {
	const char *key;
	int32_t type;       /* QUBO_TYPE_INT or QUBO_TYPE_DOUBLE */
	double lo, hi;      /* inclusive range */
	int lo_open;        /* nonzero: lo itself is excluded */
	const char *deflt;  /* the default, as text for descriptions */
	const char *help;
} qubo__param;

/* Table rows of the common keys, shared by the host and the built-ins. */
#define QUBO__P_NUM_READS(help) \
	{ QUBO_PARAM_NUM_READS, QUBO_TYPE_INT, 1, 2147483647.0, 0, "10", help }
#define QUBO__P_SEED \
	{ QUBO_PARAM_SEED, QUBO_TYPE_INT, -9223372036854775808.0, 9223372036854775807.0, 0, \
	  "from the clock", "random seed" }
#define QUBO__P_THREADS \
	{ QUBO_PARAM_THREADS, QUBO_TYPE_INT, 0, 1024, 0, "0 (one per CPU)", "worker threads" }
#define QUBO__P_TIME_LIMIT \
	{ QUBO_PARAM_TIME_LIMIT, QUBO_TYPE_DOUBLE, 0, DBL_MAX, 0, "0 (none)", \
	  "seconds before stopping with the results so far" }
#define QUBO__P_TARGET_ENERGY \
	{ QUBO_PARAM_TARGET_ENERGY, QUBO_TYPE_DOUBLE, -DBL_MAX, DBL_MAX, 0, "unset", \
	  "stop once a sample reaches this energy" }

/* The most reads of a run, and the range of first_read + num_reads. */
#define QUBO__MAX_READS 2147483647ul

/* The slice key of the solvers whose reads are independent (sa, tabu,
 * descent, pt): checked against num_reads when sampling. */
#define QUBO__P_FIRST_READ \
	{ QUBO_PARAM_FIRST_READ, QUBO_TYPE_INT, 0, 2147483646.0, 0, "0", \
	  "index of the first read: these num_reads are reads first_read.. of a run of the seed" }

/* The common keys; checked by the host for every backend. */
extern const qubo__param qubo__common_params[];
extern const size_t qubo__num_common_params;

/* Checks the value under key against the params table (type, range).
 * Unknown key: NOT_SUPPORTED listing the accepted keys. Messages start with
 * "prefix: " unless prefix is NULL. Sets the thread's error message. */
int qubo__params_check(const qubo__param *params, size_t count, const char *prefix,
		       const qubo_options *o, const char *key);
/* Writes "name: summary\n" and a line per key into buffer (truncating). */
void qubo__params_describe(char *buffer, size_t capacity, const char *name, const char *summary,
			   const qubo__param *params, size_t count);

/* ---- sample sets (sampleset.c) ---- */

struct qubo_sampleset {
	qubo_allocator alloc;
	size_t n;
	size_t size;
	uint8_t *bits;     /* size × n */
	double *energies;  /* size */
	uint64_t *occ;     /* size */
	qubo_sample_info info;
};

/* Builds a set from num rows of n bytes (checked by the energy function),
 * with optional occurrences (NULL: 1 each). info gets struct_size, status
 * QUBO_OK and num_samples; the caller fills the rest. */
int qubo__sampleset_build(qubo_sampleset **out, const qubo_allocator *a, const qubo_model *m,
			  const uint8_t *rows, const uint64_t *occ, size_t num, size_t n);

/* ---- solvers and the backend context (solver.c) ---- */

/* A backend's user data with a destroy callback, shared by a solver and its
 * clones (solver.c). */
typedef struct qubo__backend_data qubo__backend_data;

struct qubo_solver {
	qubo_allocator alloc;
	qubo_backend_vtable vt; /* zero-extended copy */
	char *name;
	void *user_data;
	qubo__backend_data *data; /* NULL: no destroy callback */
	qubo_options options;
	qubo_progress_cb progress;
	void *progress_data;
};

#define QUBO__BACKEND_MSG_SIZE 400

enum qubo__phase {
	QUBO__PHASE_NONE = 0,
	QUBO__PHASE_SAMPLE = 1,
	QUBO__PHASE_SET_PARAM = 2
};

struct qubo_backend_ctx {
	qubo_solver *solver;
	const qubo_model *model;
	int phase;
	/* collected samples */
	uint8_t *rows;
	uint64_t *occ;
	size_t num, cap_rows, cap_occ;
	int add_error; /* first failure of qubo_backend_add_samples */
	/* reported error */
	int err_code;
	int err_limit; /* enum qubo_limit, from a built-in solver */
	uint64_t err_limit_value;
	char err_msg[QUBO__BACKEND_MSG_SIZE];
	/* run control */
	double t0, deadline; /* deadline 0: none */
	int stop;            /* QUBO_OK, QUBO_CANCELLED or QUBO_TIME_LIMIT */
	qubo_sample_info report;
};

/* ---- built-in solvers ---- */

extern const qubo_backend_vtable qubo__sa_backend;
extern const qubo_backend_vtable qubo__exhaustive_backend;
extern const qubo_backend_vtable qubo__tabu_backend;
extern const qubo_backend_vtable qubo__descent_backend;
extern const qubo_backend_vtable qubo__qaoa_backend;
extern const qubo_backend_vtable qubo__pt_backend;

/* A built-in solver's own part: reads its keys from o and runs it, from
 * random starts (initial NULL) or from the states of initial; failures are
 * reported through ctx. */
typedef int (*qubo__builtin_run_fn)(qubo_backend_ctx *ctx, const qubo_model *m,
				    const qubo_options *o, const qubo_sampleset *initial);

/* A built-in solver: its table, and what its slots
 * (qubo__builtin_sample_slot, qubo__builtin_sample_from_slot, qubo__builtin_set_param,
 * qubo__builtin_describe) read. It is the solver's user_data; never written
 * after load (not const only because user_data is a plain pointer). */
typedef struct qubo__builtin {
	const qubo_backend_vtable *vtable;
	const char *summary;
	const qubo__param *params;
	size_t num_params;
	qubo__builtin_run_fn run;
} qubo__builtin;

/* Defines the table qubo__<id>_backend and the built-in qubo__<id>_builtin
 * of the solver called name: params is its key table, run its own part;
 * from is qubo__builtin_sample_from_slot, or NULL when it takes no start states. */
#define QUBO__BUILTIN(id, name, from, summary, params, run)                         \
	const qubo_backend_vtable qubo__##id##_backend = {                           \
		sizeof(qubo_backend_vtable), name, qubo__builtin_sample_slot, from,  \
		qubo__builtin_set_param, qubo__builtin_describe,                     \
	};                                                                           \
	qubo__builtin qubo__##id##_builtin = { &qubo__##id##_backend, summary,       \
					       params, sizeof params / sizeof params[0], run }

extern qubo__builtin qubo__sa_builtin;
extern qubo__builtin qubo__exhaustive_builtin;
extern qubo__builtin qubo__tabu_builtin;
extern qubo__builtin qubo__descent_builtin;
extern qubo__builtin qubo__qaoa_builtin;
extern qubo__builtin qubo__pt_builtin;

/* The sample and sample_from slots of the built-ins: the run of the
 * solver's qubo__builtin (user_data). */
int qubo__builtin_sample_slot(qubo_backend_ctx *ctx, const qubo_model *m,
			      const qubo_options *o, void *user_data);
int qubo__builtin_sample_from_slot(qubo_backend_ctx *ctx, const qubo_model *m,
				   const qubo_options *o, const qubo_sampleset *initial,
				   void *user_data);
/* The set_param slot of the built-ins: checks the key against the
 * solver's table (user_data: its qubo__builtin). */
int qubo__builtin_set_param(qubo_backend_ctx *ctx, const char *key, const qubo_options *o,
			    void *user_data);
/* The describe slot of the built-ins: the name, summary and keys. */
int qubo__builtin_describe(char *buffer, size_t capacity, void *user_data);

/* Fills run from the options (common keys; num_reads default 10) with the
 * progress hook reporting to ctx. */
int qubo__builtin_run(qubo_backend_ctx *ctx, const qubo_options *o, qubo__run *run);
/* Reads an int option known to be an in-range integer (checked when set). */
int64_t qubo__builtin_int(const qubo_options *o, const char *key, int64_t fallback);
double qubo__builtin_double(const qubo_options *o, const char *key, double fallback);
/* Reads beta_hot and beta_cold (both 0 when both are unset). One without
 * the other, or beta_hot above beta_cold (order says why that is wrong), is
 * reported through ctx and returned. */
int qubo__builtin_betas(qubo_backend_ctx *ctx, const qubo_options *o, const char *order,
			double *beta_hot, double *beta_cold);
/* Reports the thread's current error (code, message) through ctx. */
int qubo__builtin_fail(qubo_backend_ctx *ctx, int code);

/* QUBO_ERR_TOO_LARGE (message set; the host prefixes the solver's name)
 * when reads samples of n variables, with extra bytes besides the n bits of
 * each, would take more than QUBO_MAX_SAMPLE_BYTES; QUBO_OK otherwise. */
int qubo__check_reads(size_t reads, size_t n, size_t extra);
/* Maps a kernel's stop reason to the slot's return value. */
int qubo__builtin_status(const qubo_backend_ctx *ctx, int stop);
/* Hands a kernel's rows to the host and reports the flip count. */
int qubo__builtin_emit(qubo_backend_ctx *ctx, const uint8_t *rows, const uint64_t *occ,
		       size_t num, size_t n, uint64_t flips, uint64_t ground_states);
/* Rows of the distinct samples of initial and their occurrences, allocated
 * from a (the caller frees both). */
int qubo__builtin_starts(const qubo_allocator *a, const qubo_sampleset *initial,
			 const qubo_model *m, uint8_t **rows_out, uint64_t **occ_out,
			 size_t *num_out);

/* A kernel (qubo__descent_sample, qubo__tabu_sample, the two SA kernels) behind an
 * adapter: params is the kernel's own parameter struct (or NULL); samples
 * and energies hold run->num_reads rows; initial is NULL for random starts. */
typedef int (*qubo__builtin_kernel)(const qubo_model *m, const void *params, const qubo__run *run,
				    const uint8_t *initial, uint8_t *samples, double *energies,
				    qubo__result *res);
/* The sample and sample_from slots of a local-search adapter: the starts
 * of initial (NULL: random ones; its size replaces run->num_reads), the
 * kernel's run, its rows handed to the host, its stop reason mapped.
 * Failures are reported through ctx. */
int qubo__builtin_sample(qubo_backend_ctx *ctx, const qubo_model *m, qubo__run *run,
			 const qubo_sampleset *initial, qubo__builtin_kernel kernel,
			 const void *params);

#endif /* QUBO_SOLVERS_SOLVER_IMPL_H */
