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
 * and where (which argument, or which line and column of an input). The same
 * error is also available in parts, so that a program never takes the text
 * apart: the message's own words (qubo_error_detail()), the public function
 * that failed (qubo_error_function()), the input position (qubo_error_line(),
 * qubo_error_column()) or the board cell (qubo_error_cell_row(),
 * qubo_error_cell_column()) it names, and for #QUBO_ERR_TOO_LARGE the limit
 * (qubo_error_limit(), a value of enum qubo_limit) and its value
 * (qubo_error_limit_value()). Every part is per thread and always defined:
 * an empty string or 0 when the error has no such part.
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
 * Clears this thread's error: its message, code and every part.
 * @since 0.1
 */
QUBO_API void qubo_error_clear(void);

/**
 * The limits that #QUBO_ERR_TOO_LARGE names: L(name, value, "stable name",
 * "what it bounds"). It generates enum qubo_limit and the names of
 * qubo_limit_name(). The values and the names are part of the ABI and never
 * change meaning; new limits are appended. Values 1 to 5 are raised by an
 * option of the call that refused the input (the name is that option's
 * field); the others are fixed by the library or by the address space,
 * apart from a count's enumeration, which
 * qubo_puzzle_count_options.max_variables sets up to
 * #QUBO_EXHAUSTIVE_MAX_VARIABLES.
 */
#define QUBO_LIMIT_LIST(L)                                                                      \
	L(QUBO_LIMIT_NONE, 0, "none", "no limit (the error is not QUBO_ERR_TOO_LARGE)")         \
	L(QUBO_LIMIT_MAX_INPUT_BYTES, 1, "max_input_bytes",                                     \
	  "bytes of input (options.max_input_bytes)")                                           \
	L(QUBO_LIMIT_MAX_VARIABLES, 2, "max_variables",                                         \
	  "variables a qbsolv header may declare (qubo_qbsolv_options.max_variables)")          \
	L(QUBO_LIMIT_MAX_COUPLERS, 3, "max_couplers",                                           \
	  "couplers a qbsolv header may declare or a puzzle board need (options.max_couplers)") \
	L(QUBO_LIMIT_MAX_CELLS, 4, "max_cells",                                                 \
	  "cells of a puzzle board read from text (qubo_puzzle_options.max_cells)")             \
	L(QUBO_LIMIT_MAX_QUBITS, 5, "max_qubits", "qubits of a QAOA state (max_qubits)")        \
	L(QUBO_LIMIT_ENUMERATION_VARIABLES, 6, "enumeration_variables",                         \
	  "variables of a model enumerated state by state")                                     \
	L(QUBO_LIMIT_MODEL_VARIABLES, 7, "model_variables",                                     \
	  "variables of a model (QUBO_MODEL_MAX_VARIABLES)")                                    \
	L(QUBO_LIMIT_VARIABLE_INDEX, 8, "variable_index",                                       \
	  "variables a literal can name (indices below QUBO_MAX_VARIABLES)")                    \
	L(QUBO_LIMIT_TERM_LITERALS, 9, "term_literals", "literals of one term or penalty")      \
	L(QUBO_LIMIT_SAMPLE_BYTES, 10, "sample_bytes",                                          \
	  "bytes of a run's samples (QUBO_MAX_SAMPLE_BYTES)")                                   \
	L(QUBO_LIMIT_REPLICA_BYTES, 11, "replica_bytes",                                        \
	  "bytes of the replicas of parallel tempering")                                        \
	L(QUBO_LIMIT_ADDRESS_SPACE, 12, "address_space",                                        \
	  "bytes a size_t can count: a size that would overflow it")                            \
	L(QUBO_LIMIT_INPUT_VARIABLES, 13, "input_variables",                                    \
	  "variables a qbsolv header may declare for the length of its input")                  \
	L(QUBO_LIMIT_INPUT_LINES, 14, "input_lines",                                            \
	  "lines a qbsolv header may declare for the length of its input")                      \
	L(QUBO_LIMIT_BOARD_SIDE, 15, "board_side", "a side of a puzzle board read from text")   \
	L(QUBO_LIMIT_BOARD_CELLS, 16, "board_cells", "cells of any puzzle board")               \
	L(QUBO_LIMIT_REGIONS, 17, "regions", "regions of a queens board")                       \
	L(QUBO_LIMIT_ATTACK_STEPS, 18, "attack_steps",                                          \
	  "steps that listing a board's attack lines or moves may take")                        \
	L(QUBO_LIMIT_ATTACK_ENTRIES, 19, "attack_entries",                                      \
	  "entries of a chess board's attack graph or move sets")                               \
	L(QUBO_LIMIT_PAIRWISE_TERMS, 20, "pairwise_terms",                                      \
	  "pairwise terms that a domination board's cover terms expand to")                     \
	L(QUBO_LIMIT_WITNESS_VARIABLES, 21, "witness_variables",                                \
	  "witness variables that distinct rows and columns need")                              \
	L(QUBO_LIMIT_SEARCH_WORDS, 22, "search_words",                                          \
	  "64-bit words of an exact search's work space")                                       \
	L(QUBO_LIMIT_GROUND_STATES, 23, "ground_states",                                        \
	  "ground states that enumeration decodes one by one")

/** @cond QUBO_INTERNAL */
#define QUBO_LIMIT_ENUM_ITEM(name, value, id, text) name = value,
/** @endcond */

/**
 * Which limit a #QUBO_ERR_TOO_LARGE error hit (qubo_error_limit()). An enum
 * rather than a name, so that a C program switches on it and the compiler
 * checks the spelling; qubo_limit_name() gives the stable name, for messages
 * and for bindings.
 */
enum qubo_limit {
	QUBO_LIMIT_LIST(QUBO_LIMIT_ENUM_ITEM)
	/** One past the largest value; for range checks only. */
	QUBO_LIMIT_END_
};

/**
 * The stable name of a limit, such as "max_cells": for a limit an option
 * raises, the name of that option's field.
 * @param[in] limit any int; values outside enum qubo_limit give "unknown".
 * @return a static NUL-terminated string, never NULL.
 * @since 0.2
 */
QUBO_API const char *qubo_limit_name(int limit);

/**
 * The message of the last failure on this thread without its prefixes: the
 * "line L, column C: " of an input position and the "qubo_name: " of the
 * function. qubo_error_message() is these parts put together:
 * [position prefix][function ": "]detail.
 *
 * Owned by the library, valid until the next libqubo call on this thread.
 * @return a NUL-terminated string, never NULL; "" when there is no error.
 * @since 0.2
 */
QUBO_API const char *qubo_error_detail(void);

/**
 * The public function that the last failure on this thread names, such as
 * "qubo_model_new", or "" when its message names none (out-of-memory
 * messages name what was being allocated instead, and some failures inside
 * a solve name the solver or the puzzle family).
 *
 * Owned by the library, valid until the next libqubo call on this thread.
 * @return a NUL-terminated string, never NULL.
 * @since 0.2
 */
QUBO_API const char *qubo_error_function(void);

/**
 * The 1-based row of the puzzle board cell that the last failure on this
 * thread names (a cell of a spec or a board the call was given, or the cell
 * a reduction proves cannot be filled), or 0 when it names no single cell.
 * A cell is a place on the board, not a place in an input text: an input
 * position is qubo_error_line() and qubo_error_column(). The cell's index
 * on a board of width W is (row - 1) × W + (column - 1).
 * @return the row or 0.
 * @since 0.2
 */
QUBO_API size_t qubo_error_cell_row(void);

/**
 * The 1-based column that goes with qubo_error_cell_row(), or 0.
 * @return the column or 0.
 * @since 0.2
 */
QUBO_API size_t qubo_error_cell_column(void);

/**
 * For #QUBO_ERR_TOO_LARGE: which limit the last failure on this thread hit,
 * a value of enum qubo_limit; #QUBO_LIMIT_NONE for other errors (and for a
 * #QUBO_ERR_TOO_LARGE set by a caller without a limit).
 * @return the limit.
 * @since 0.2
 */
QUBO_API int qubo_error_limit(void);

/**
 * The value of the limit that qubo_error_limit() names, as it was in force
 * for the call: the largest figure it allows, in the unit of the limit
 * (bytes, variables, cells, ...), or 0 when there is no limit.
 * @return the value or 0.
 * @since 0.2
 */
QUBO_API uint64_t qubo_error_limit_value(void);

/** The parts of an error, for qubo_error_set_parts(). */
typedef struct qubo_error_parts {
	/** Set to sizeof(qubo_error_parts) or #QUBO_ERROR_PARTS_SIZE_V1. */
	size_t struct_size;
	/** The status code to record (any value). */
	int32_t code;
	/** A value of enum qubo_limit; #QUBO_LIMIT_NONE for none. */
	int32_t limit;
	/** The public function that failed, or NULL (or "") for none; cut to
	 *  63 bytes. */
	const char *function;
	/** The message without prefixes (UTF-8), or NULL for "". */
	const char *detail;
	/** 1-based line of an input, or 0 for none. */
	size_t line;
	/** 1-based column that goes with @c line, or 0. */
	size_t column;
	/** 1-based row of a board cell, or 0 for none. */
	size_t cell_row;
	/** 1-based column that goes with @c cell_row, or 0. */
	size_t cell_column;
	/** The limit's value (see qubo_error_limit_value()), or 0. */
	uint64_t limit_value;
} qubo_error_parts;

/** Size of the first layout of qubo_error_parts. */
#define QUBO_ERROR_PARTS_SIZE_V1 (offsetof(qubo_error_parts, limit_value) + sizeof(uint64_t))

/** An empty set of parts with @c struct_size set:
 *  `qubo_error_parts e = QUBO_ERROR_PARTS_INIT;` */
#define QUBO_ERROR_PARTS_INIT                                             \
	{                                                                 \
		sizeof(qubo_error_parts), 0, 0, NULL, NULL, 0, 0, 0, 0, 0 \
	}

/**
 * Sets this thread's error from its parts, as libqubo's own functions and
 * the puzzle library do after a failure; qubo_error_message() then reads
 * [position prefix][function ": "]detail, where the position prefix is
 * "line L, column C: " when @c line is nonzero. Strings are copied, and may
 * be the current error's own (qubo_error_detail(), qubo_error_function()).
 * A cell is kept only with both its row and column, an input column only
 * with its line, and a limit's value only with a limit. The message is cut
 * as qubo_error_set() cuts it; the detail is what of it remains after the
 * prefixes.
 * @param[in] parts the parts; @c struct_size set.
 * @return @c parts->code, so that `return qubo_error_set_parts(&e);`
 *         reports and returns; #QUBO_ERR_MISUSE when @p parts is NULL and
 *         #QUBO_ERR_UNSUPPORTED_VERSION when its @c struct_size is not
 *         accepted, with that error set instead.
 * @since 0.2
 */
QUBO_API int qubo_error_set_parts(const qubo_error_parts *parts);

/**
 * Sets this thread's error code, position and message, as libqubo's own
 * functions do after a failure. For libraries built on libqubo (the puzzle
 * layer reports through it) and for callers that want their own failures
 * read back with qubo_error_message() like the library's.
 *
 * With @p line nonzero the message becomes "line L, column C: " followed by
 * @p message, as for parse errors. Messages longer than the library's buffer
 * (511 bytes) are cut at a UTF-8 character boundary. The parts are those of
 * qubo_error_set_parts(), where a message that starts with a function name
 * of the library's form, "qubo_name: ", gives qubo_error_function() that name
 * and qubo_error_detail() the rest; there is no cell and no limit.
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
