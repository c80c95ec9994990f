/**
 * @file qubo/qbsolv.h
 * @brief Reading and writing the qbsolv `.qubo` format.
 *
 * The format (see doc/formats.md):
 * @code
 * c comment
 * p qubo 0 <maxNodes> <nNodes> <nCouplers>
 * <i> <i> <weight>      nNodes diagonal lines
 * <i> <j> <weight>      nCouplers coupler lines, i < j
 * @endcode
 * The model's offset travels in a comment line `c offset <value>`, and its
 * variable groups (qubo_model_add_group()) in `c group <first> <count>`
 * lines, which other readers take for comments. Weights
 * are written with the fewest digits that read back to the same double.
 * Reading is strict: every malformation is reported as #QUBO_ERR_PARSE (or
 * #QUBO_ERR_TOO_LARGE for counts beyond the limits) with the line
 * and column in qubo_error_line() and qubo_error_column(). Duplicate entries
 * are summed. Numbers are read and written in the C locale whatever the
 * process locale is. A UTF-8 byte-order mark at the start is skipped.
 *
 * The reader's limits (qubo_qbsolv_options) bound what a hostile input can
 * cost: input larger than @c max_input_bytes is refused (a file is read in
 * chunks and abandoned one byte past the limit), and a header whose
 * maxNodes or nCouplers exceed @c max_variables or @c max_couplers is
 * refused before the model is allocated.
 *
 * The readers are qubo_qbsolv_read_ex() (a buffer) and
 * qubo_qbsolv_read_file_ex() (a file); qubo_qbsolv_read() and
 * qubo_qbsolv_read_file(), from 0.1, are deprecated aliases that take only
 * an allocator.
 */
#ifndef QUBO_QBSOLV_H
#define QUBO_QBSOLV_H

#include "alloc.h"
#include "common.h"
#include "model.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** Default of qubo_qbsolv_options.max_input_bytes: 256 MiB. @since 0.1 */
#define QUBO_QBSOLV_DEFAULT_MAX_INPUT_BYTES (QUBO_CAST(size_t, 256) << 20)
/** Default of qubo_qbsolv_options.max_variables: 4194304, about 100 MiB of
 *  per-variable arrays. @since 0.1 */
#define QUBO_QBSOLV_DEFAULT_MAX_VARIABLES (QUBO_CAST(size_t, 1) << 22)
/** Default of qubo_qbsolv_options.max_couplers: 67108864, about 2 GiB of
 *  model while it is compiled. @since 0.1 */
#define QUBO_QBSOLV_DEFAULT_MAX_COUPLERS (QUBO_CAST(size_t, 1) << 26)

/** Options of qubo_qbsolv_read_ex() and qubo_qbsolv_read_file_ex(); zero
 *  fields mean the defaults. @since 0.1 */
typedef struct qubo_qbsolv_options {
	/** Set to sizeof(qubo_qbsolv_options). */
	size_t struct_size;
	/** Optional allocator for the model and the reader's buffers, copied. */
	const qubo_allocator *allocator;
	/** Largest input accepted, in bytes; 0 means
	 *  #QUBO_QBSOLV_DEFAULT_MAX_INPUT_BYTES. */
	size_t max_input_bytes;
	/** Largest maxNodes accepted in the header; 0 means
	 *  #QUBO_QBSOLV_DEFAULT_MAX_VARIABLES. At most #QUBO_MODEL_MAX_VARIABLES
	 *  is ever accepted. */
	size_t max_variables;
	/** Largest nCouplers accepted in the header; 0 means
	 *  #QUBO_QBSOLV_DEFAULT_MAX_COUPLERS. */
	size_t max_couplers;
} qubo_qbsolv_options;

/** Size of the first layout of qubo_qbsolv_options (through
 *  @c max_couplers), frozen: the smallest @c struct_size accepted.
 *  @since 0.1 */
#define QUBO_QBSOLV_OPTIONS_SIZE_V1 (offsetof(qubo_qbsolv_options, max_couplers) + sizeof(size_t))

/** Options with only @c struct_size set (the defaults):
 *  `qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;` @since 0.1 */
#define QUBO_QBSOLV_OPTIONS_INIT {sizeof(qubo_qbsolv_options), NULL, 0, 0, 0}

/**
 * Reads a model from a memory buffer (need not be NUL-terminated) with the
 * default limits. The model returned is compiled.
 * @param[out] out receives the model; NULL on failure.
 * @param[in] data the text.
 * @param[in] length its length in bytes.
 * @param[in] allocator optional allocator for the model, copied.
 * @return #QUBO_OK, #QUBO_ERR_PARSE, #QUBO_ERR_TOO_LARGE, #QUBO_ERR_NOMEM,
 *         #QUBO_ERR_MISUSE.
 * @deprecated since 0.2: an alias of qubo_qbsolv_read_ex() with only
 *             qubo_qbsolv_options.allocator set (messages name
 *             qubo_qbsolv_read); use qubo_qbsolv_read_ex().
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_read(qubo_model **out, const char *data, size_t length,
			      const qubo_allocator *allocator)
	QUBO_DEPRECATED("use qubo_qbsolv_read_ex()");

/**
 * Reads a model from a file.
 * @param[out] out receives the model; NULL on failure.
 * @param[in] path the file's path.
 * @param[in] allocator optional allocator, copied.
 * @return as qubo_qbsolv_read(), and #QUBO_ERR_IO when the file cannot be read.
 * @deprecated since 0.2: an alias of qubo_qbsolv_read_file_ex() with only
 *             qubo_qbsolv_options.allocator set (messages name
 *             qubo_qbsolv_read_file); use qubo_qbsolv_read_file_ex().
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_read_file(qubo_model **out, const char *path,
				   const qubo_allocator *allocator)
	QUBO_DEPRECATED("use qubo_qbsolv_read_file_ex()");

/**
 * Reads a model from a memory buffer within the limits of @p options.
 * @param[out] out receives the model; NULL on failure.
 * @param[in] data the text (need not be NUL-terminated).
 * @param[in] length its length in bytes.
 * @param[in] options optional; NULL for the defaults. Read during the call.
 * @return as qubo_qbsolv_read(); #QUBO_ERR_TOO_LARGE when @p length, maxNodes
 *         or nCouplers exceed a limit (the message names the option that
 *         raises it); #QUBO_ERR_UNSUPPORTED_VERSION for an unknown
 *         @c struct_size tail.
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_read_ex(qubo_model **out, const char *data, size_t length,
				 const qubo_qbsolv_options *options);

/**
 * Reads a model from a file within the limits of @p options: a regular file
 * larger than @c max_input_bytes is refused by its size, any other file
 * (a pipe, a device) is read in chunks and abandoned one byte past it.
 * @param[out] out receives the model; NULL on failure.
 * @param[in] path the file's path.
 * @param[in] options optional; NULL for the defaults.
 * @return as qubo_qbsolv_read_ex(), and #QUBO_ERR_IO when the file cannot be
 *         read.
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_read_file_ex(qubo_model **out, const char *path,
				      const qubo_qbsolv_options *options);

/**
 * Writes a compiled model into a caller buffer. The text is NUL-terminated
 * when it fits with its terminator. Call with @p capacity 0 (@p buffer may
 * be NULL) to learn the size: that call writes nothing and returns #QUBO_OK
 * with the length in @p length_out.
 * @param[in] model a compiled model.
 * @param[out] buffer destination.
 * @param[in] capacity its size in bytes.
 * @param[out] length_out receives the text's length without the NUL (also on
 *             #QUBO_ERR_BUFFER_TOO_SMALL).
 * @return #QUBO_OK (also for the size query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         nonzero @p capacity below the length), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_write(const qubo_model *model, char *buffer, size_t capacity,
			       size_t *length_out);

/**
 * Writes a compiled model to a file, replacing it.
 * @param[in] model a compiled model.
 * @param[in] path the file's path.
 * @return #QUBO_OK, #QUBO_ERR_IO, #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_write_file(const qubo_model *model, const char *path);

QUBO_END_DECLS

#endif /* QUBO_QBSOLV_H */
