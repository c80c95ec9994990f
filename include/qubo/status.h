/**
 * @file qubo/status.h
 * @brief Status codes and the per-thread error message.
 *
 * Every fallible function returns an int status: #QUBO_OK (0) on success, a
 * negative QUBO_ERR_ code on failure, or a positive code for a success that
 * stopped early (a solver cancelled or out of time, with the results found so
 * far). The numeric values are part of the ABI and are never reused.
 *
 * After a failure, qubo_error_message() gives a message naming what went wrong
 * and where (which argument, or which line and column of an input).
 */
#ifndef QUBO_STATUS_H
#define QUBO_STATUS_H

#include "common.h"

QUBO_BEGIN_DECLS

/**
 * The status list: X(name, value, description). It generates the enum below
 * and the strings of qubo_status_str(), so the two never disagree.
 */
#define QUBO_STATUS_LIST(X)                                                        \
	X(QUBO_OK, 0, "success")                                                   \
	X(QUBO_CANCELLED, 1, "stopped by the progress callback; results so far kept") \
	X(QUBO_TIME_LIMIT, 2, "stopped by the time limit; results so far kept")      \
	X(QUBO_ERR_NOMEM, -1, "out of memory")                                     \
	X(QUBO_ERR_INVALID_ARG, -2, "invalid argument")                            \
	X(QUBO_ERR_MISUSE, -3, "API misuse")                                       \
	X(QUBO_ERR_OUT_OF_RANGE, -4, "value out of range")                         \
	X(QUBO_ERR_BUFFER_TOO_SMALL, -5, "buffer too small")                       \
	X(QUBO_ERR_NOT_SUPPORTED, -6, "not supported")                             \
	X(QUBO_ERR_UNSUPPORTED_VERSION, -7, "unsupported struct version")          \
	X(QUBO_ERR_CALLBACK, -8, "callback failed")                                \
	X(QUBO_ERR_INTERNAL, -9, "internal error")                                 \
	X(QUBO_ERR_PARSE, -10, "malformed input")                                  \
	X(QUBO_ERR_IO, -11, "input/output error")                                  \
	X(QUBO_ERR_INFEASIBLE, -12, "infeasible: the constraints have no solution") \
	X(QUBO_ERR_TOO_LARGE, -13, "size exceeds a limit")

/** @cond QUBO_INTERNAL */
#define QUBO_STATUS_ENUM_ITEM(name, value, text) name = value,
/** @endcond */

/** Status codes returned by libqubo functions. */
enum qubo_status {
	QUBO_STATUS_LIST(QUBO_STATUS_ENUM_ITEM)
	/** One past the most negative code; for range checks only. */
	QUBO_STATUS_MIN_ = -14
};

/**
 * A short, static description of a status code.
 * @param[in] status any int; unknown values give "unknown status".
 * @return a static NUL-terminated string, never NULL.
 * @since 0.1
 */
QUBO_API const char *qubo_status_str(int status);

/**
 * The symbolic name of a status code, such as "QUBO_ERR_PARSE".
 * @param[in] status any int; unknown values give "QUBO_UNKNOWN".
 * @return a static NUL-terminated string, never NULL.
 * @since 0.1
 */
QUBO_API const char *qubo_status_name(int status);

/**
 * The detailed message of the last failure on this thread.
 *
 * The string is owned by the library and stays valid until the next libqubo
 * call on the same thread. It is never NULL; an empty string means no message.
 * Successful calls do not clear it (use qubo_error_clear()).
 * @return a NUL-terminated string, never NULL.
 * @since 0.1
 */
QUBO_API const char *qubo_error_message(void);

/**
 * The status code of the last failure on this thread, or #QUBO_OK.
 * @return the code that goes with qubo_error_message().
 * @since 0.1
 */
QUBO_API int qubo_error_code(void);

/**
 * The 1-based line of the input position named by the last failure on this
 * thread (parse errors), or 0 when it named none.
 * @return the line number or 0.
 * @since 0.1
 */
QUBO_API size_t qubo_error_line(void);

/**
 * The 1-based column that goes with qubo_error_line(), or 0.
 * @return the column number or 0.
 * @since 0.1
 */
QUBO_API size_t qubo_error_column(void);

/**
 * Clears this thread's error message and code.
 * @since 0.1
 */
QUBO_API void qubo_error_clear(void);

/**
 * Sets this thread's error code, position and message, as libqubo's own
 * functions do after a failure. For libraries built on libqubo (the puzzle
 * layer reports through it) and for callers that want their own failures
 * read back with qubo_error_message() like the library's.
 *
 * With @p line nonzero the message becomes "line L, column C: " followed by
 * @p message, as for parse errors. Messages longer than the library's buffer
 * (511 bytes) are cut at a UTF-8 character boundary.
 * @param[in] code the status code to record (any value).
 * @param[in] line 1-based input line, or 0 for none.
 * @param[in] column 1-based column that goes with @p line, or 0.
 * @param[in] message NUL-terminated UTF-8, copied; NULL means "".
 * @return @p code, so that `return qubo_error_set(...)` reports and returns.
 * @since 0.1
 */
QUBO_API int qubo_error_set(int code, size_t line, size_t column, const char *message);

QUBO_END_DECLS

#endif /* QUBO_STATUS_H */
