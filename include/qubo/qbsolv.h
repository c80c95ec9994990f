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
 * #QUBO_ERR_TOO_LARGE for counts beyond what can be allocated) with the line
 * and column in qubo_error_line() and qubo_error_column(). Duplicate entries
 * are summed. Numbers are read and written in the C locale whatever the
 * process locale is.
 */
#ifndef QUBO_QBSOLV_H
#define QUBO_QBSOLV_H

#include "alloc.h"
#include "common.h"
#include "model.h"

QUBO_BEGIN_DECLS

/**
 * Reads a model from a memory buffer (need not be NUL-terminated). The model
 * returned is compiled.
 * @param[out] out receives the model; NULL on failure.
 * @param[in] data the text.
 * @param[in] length its length in bytes.
 * @param[in] allocator optional allocator for the model, copied.
 * @return #QUBO_OK, #QUBO_ERR_PARSE, #QUBO_ERR_TOO_LARGE, #QUBO_ERR_NOMEM,
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_read(qubo_model **out, const char *data, size_t length,
			      const qubo_allocator *allocator);

/**
 * Reads a model from a file.
 * @param[out] out receives the model; NULL on failure.
 * @param[in] path the file's path.
 * @param[in] allocator optional allocator, copied.
 * @return as qubo_qbsolv_read(), and #QUBO_ERR_IO when the file cannot be read.
 * @since 0.1
 */
QUBO_API int qubo_qbsolv_read_file(qubo_model **out, const char *path,
				   const qubo_allocator *allocator);

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
