/**
 * @file qubo/puzzle.h
 * @brief The puzzle layer (libqubo-puzzle): puzzle instances, their exact
 *        QUBOs, decoding and an independent rule checker.
 *
 * A puzzle object holds one instance: its family, its board, the reduced
 * QUBO model, the map from board cells to model literals, and statistics. It
 * comes from text (qubo_puzzle_parse(); the formats are in doc/formats.md) or
 * from a family's spec struct (qubo/puzzle/queens.h and friends).
 *
 * Boards are arrays of width × height bytes in row-major order. For the
 * queens and chess families a byte is 1 where a piece stands; for Tents 1
 * where a tent stands; for Takuzu and Tango the digit (0 or 1). Cells that
 * are not on the board (irregular shapes) are 0.
 *
 * The model is exact: its minimisers, decoded, are exactly the solutions,
 * and qubo_puzzle_ground_energy() gives their energy, so a solver may stop
 * the moment a read reaches it. Every solution shown to a user should still
 * be confirmed by qubo_puzzle_check(), which never looks at the model.
 *
 * Link with libqubo-puzzle (pkg-config module libqubo-puzzle). Every symbol
 * starts with qubo_puzzle_.
 */
#ifndef QUBO_PUZZLE_H
#define QUBO_PUZZLE_H

#include "alloc.h"
#include "common.h"
#include "literal.h"
#include "model.h"

QUBO_BEGIN_DECLS

/** An opaque puzzle instance with its model. */
typedef struct qubo_puzzle qubo_puzzle;

/** Puzzle families. */
enum qubo_puzzle_family {
	/** LinkedIn Queens and Star Battle (`queens N [stars K]`). */
	QUBO_PUZZLE_QUEENS = 1,
	/** Classic N-Queens, also on a cylinder or torus (`nqueens N`). */
	QUBO_PUZZLE_NQUEENS = 2,
	/** Generalised queens built from a spec (qubo/puzzle/queens.h). */
	QUBO_PUZZLE_GENERAL_QUEENS = 3,
	/** Coloured chess pieces: one piece per region, no attacks. */
	QUBO_PUZZLE_CHESS_COLOURED = 4,
	/** Max chess pieces: most (weighted) pieces, no attacks. */
	QUBO_PUZZLE_CHESS_MAX = 5,
	/** Minimum dominating queens. */
	QUBO_PUZZLE_DOMINATION = 6,
	/** Tents & Trees. */
	QUBO_PUZZLE_TENTS = 7,
	/** Takuzu, Binairo, Unruly. */
	QUBO_PUZZLE_TAKUZU = 8,
	/** LinkedIn Tango. */
	QUBO_PUZZLE_TANGO = 9
};

/** How far the model is reduced before it is built. */
enum qubo_puzzle_reduce {
	/** The default: #QUBO_REDUCE_FULL. */
	QUBO_REDUCE_DEFAULT = 0,
	/** Every cell is a variable; clues are constraints of the model. */
	QUBO_REDUCE_NONE = 1,
	/** Clues and their direct consequences are fixed (seeds/003 Prop. 2.1). */
	QUBO_REDUCE_CLUES = 2,
	/** Propagation to a fixpoint that keeps exactly the same solutions. */
	QUBO_REDUCE_FULL = 3
};

/** Options for building a puzzle's model; zero fields mean the defaults. */
typedef struct qubo_puzzle_options {
	/** Set to sizeof(qubo_puzzle_options). */
	size_t struct_size;
	/** An enum qubo_puzzle_reduce value; 0 is #QUBO_REDUCE_DEFAULT. The
	 *  level decides which fixed cells become constants; contradictions
	 *  are looked for at every level. */
	int32_t reduce;
	/** Penalty weight P of the constraints; 0 means 1. */
	double penalty;
	/** Queens: 1 to leave out the last region's term, which the others
	 *  imply. Ignored by puzzles without regions; a spec whose regions do
	 *  not imply it is #QUBO_ERR_INVALID_ARG (qubo/puzzle/queens.h). */
	int32_t drop_region;
	/** Optional allocator for every object the puzzle makes. */
	const qubo_allocator *allocator;
} qubo_puzzle_options;

/** Options with only @c struct_size set (the defaults):
 *  `qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;` */
#define QUBO_PUZZLE_OPTIONS_INIT {sizeof(qubo_puzzle_options), 0, 0.0, 0, NULL}

/** Figures about a puzzle's model, filled by qubo_puzzle_get_stats(). */
typedef struct qubo_puzzle_stats {
	/** Set to sizeof(qubo_puzzle_stats) before the call. */
	size_t struct_size;
	/** Board width (columns). */
	size_t width;
	/** Board height (rows). */
	size_t height;
	/** Variables of the unreduced model (cells plus auxiliary variables). */
	size_t variables_before;
	/** Couplers of the unreduced model. */
	size_t couplers_before;
	/** Variables of the reduced model. */
	size_t variables_after;
	/** Couplers of the reduced model. */
	size_t couplers_after;
	/** Cells fixed by the reduction. */
	size_t cells_fixed;
	/** 1 when the reduction alone found the unique solution (no free cell). */
	int32_t solved_by_reduction;
} qubo_puzzle_stats;

/**
 * Parses a puzzle from text and builds its model.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] text the puzzle text (need not be NUL-terminated).
 * @param[in] length its length in bytes.
 * @param[in] options optional; NULL for the defaults.
 * @return #QUBO_OK; #QUBO_ERR_PARSE with qubo_error_line() and
 *         qubo_error_column() set; #QUBO_ERR_INFEASIBLE when the puzzle is
 *         well formed but contradictory (the message says why);
 *         #QUBO_ERR_TOO_LARGE; #QUBO_ERR_NOMEM; #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_parse(qubo_puzzle **out, const char *text, size_t length,
			       const qubo_puzzle_options *options);

/**
 * Parses a puzzle and reduces it, for its cell → literal map only: the same
 * literals qubo_puzzle_cell_literals() gives for the puzzle
 * qubo_puzzle_parse() would make, without keeping the puzzle. The queens
 * families then build no model, which makes this several times cheaper; a
 * search that reduces many boards (as `qubo solve` does) wants it.
 * @param[in] text the puzzle text (FORMATS.md).
 * @param[in] length length of @p text in bytes.
 * @param[in] options optional; NULL for the defaults.
 * @param[out] lits receives width × height literals; a cell that is neither
 *             fixed nor off the board gets the variable it would have in
 *             the model.
 * @param[in] capacity length of @p lits.
 * @return as qubo_puzzle_parse() (#QUBO_ERR_INFEASIBLE when the reduction
 *         proves there is no solution), and #QUBO_ERR_BUFFER_TOO_SMALL.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_parse_cells(const char *text, size_t length,
				     const qubo_puzzle_options *options, qubo_lit *lits,
				     size_t capacity);

/**
 * Parses a puzzle file.
 * @param[out] out receives the puzzle.
 * @param[in] path the file.
 * @param[in] options optional.
 * @return as qubo_puzzle_parse(), and #QUBO_ERR_IO.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_parse_file(qubo_puzzle **out, const char *path,
				    const qubo_puzzle_options *options);

/**
 * Frees a puzzle and its model. NULL is a no-op.
 * @param[in] puzzle the puzzle.
 * @since 0.1
 */
QUBO_API void qubo_puzzle_free(qubo_puzzle *puzzle);

/**
 * The family of a puzzle.
 * @param[in] puzzle the puzzle; NULL gives 0.
 * @return an enum qubo_puzzle_family value.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_family(const qubo_puzzle *puzzle);

/**
 * Fills @p stats.
 * @param[in] puzzle the puzzle.
 * @param[in,out] stats with @c struct_size set.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE, #QUBO_ERR_UNSUPPORTED_VERSION.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_get_stats(const qubo_puzzle *puzzle, qubo_puzzle_stats *stats);

/**
 * The puzzle's compiled model, owned by the puzzle and valid until it is
 * freed. Its variables are the free cells and auxiliary variables.
 * @param[in] puzzle the puzzle.
 * @param[out] model_out receives the borrowed model.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_model(const qubo_puzzle *puzzle, const qubo_model **model_out);

/**
 * The energy of every solution in the puzzle's model (for the families
 * whose solutions all have one energy: all but max chess pieces and
 * domination, where it is the energy of an optimum only when known).
 * @param[in] puzzle the puzzle.
 * @param[out] energy_out receives the ground energy.
 * @return #QUBO_OK, #QUBO_ERR_NOT_SUPPORTED (optimisation families),
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_ground_energy(const qubo_puzzle *puzzle, double *energy_out);

/**
 * The cell → literal map: the literal of every cell in row-major order
 * (constants for cells fixed by the reduction or off the board).
 * @param[in] puzzle the puzzle.
 * @param[out] lits receives width × height literals.
 * @param[in] capacity length of @p lits.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_cell_literals(const qubo_puzzle *puzzle, qubo_lit *lits,
				       size_t capacity);

/**
 * Decodes a model sample into a board.
 * @param[in] puzzle the puzzle.
 * @param[in] sample one byte (0/1) per model variable.
 * @param[in] length must equal the model's variable count.
 * @param[out] board receives width × height bytes.
 * @param[in] capacity length of @p board.
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_decode(const qubo_puzzle *puzzle, const uint8_t *sample,
				size_t length, uint8_t *board, size_t capacity);

/**
 * Checks a board against the puzzle's rules, without the model.
 *
 * Writes a report naming each broken rule and where ("row 3 has 2 queens,
 * needs 1"), one per line, truncated to @p capacity (NUL-terminated when
 * @p capacity > 0).
 * @param[in] puzzle the puzzle.
 * @param[in] board width × height bytes.
 * @param[in] length must equal width × height.
 * @param[out] report optional text buffer.
 * @param[in] capacity its size.
 * @param[out] violations_out receives the number of broken rules (0: valid).
 * @return #QUBO_OK (whether or not the board is valid), #QUBO_ERR_INVALID_ARG,
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_check(const qubo_puzzle *puzzle, const uint8_t *board, size_t length,
			       char *report, size_t capacity, size_t *violations_out);

/**
 * Formats a board as a solution file (doc/formats.md): the puzzle's header
 * line and the filled grid (the grid alone for a puzzle built from a spec,
 * which has no header). Call with @p capacity 0 to learn the size.
 * @param[in] puzzle the puzzle.
 * @param[in] board width × height bytes.
 * @param[in] length must equal width × height.
 * @param[out] buffer destination, NUL-terminated when it fits.
 * @param[in] capacity its size.
 * @param[out] length_out receives the text length without the NUL.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_INVALID_ARG, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_format_solution(const qubo_puzzle *puzzle, const uint8_t *board,
					 size_t length, char *buffer, size_t capacity,
					 size_t *length_out);

/**
 * Formats the puzzle itself back in its text format (doc/formats.md), so
 * that parsing the result gives the same puzzle. Call with @p capacity 0 to
 * learn the size.
 * @param[in] puzzle the puzzle.
 * @param[out] buffer destination, NUL-terminated when it fits.
 * @param[in] capacity its size.
 * @param[out] length_out receives the text length without the NUL.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_NOT_SUPPORTED (a
 *         spec-built puzzle with no text form), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_format(const qubo_puzzle *puzzle, char *buffer, size_t capacity,
				size_t *length_out);

/**
 * Parses a solution file (or the grid alone) for this puzzle into a board.
 * @param[in] puzzle the puzzle.
 * @param[in] text the solution text.
 * @param[in] text_length its length.
 * @param[out] board receives width × height bytes.
 * @param[in] capacity length of @p board.
 * @return #QUBO_OK, #QUBO_ERR_PARSE (with line and column), #QUBO_ERR_BUFFER_TOO_SMALL,
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_parse_solution(const qubo_puzzle *puzzle, const char *text,
					size_t text_length, uint8_t *board, size_t capacity);

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_H */
