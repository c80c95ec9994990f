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
#include "solver.h"
#include "status.h"

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
	/** Clues and their direct consequences are fixed (Proposition 2.1 of the
	 *  second QUBO paper, "A QUBO Formulation for the Generalized LinkedIn
	 *  Queens and Takuzu/Tango Game"). */
	QUBO_REDUCE_CLUES = 2,
	/** Propagation to a fixpoint that keeps exactly the same solutions. */
	QUBO_REDUCE_FULL = 3
};

/** Which edges of a board are joined: the wrap field of the binary grid
 *  and generalised queens specs (qubo_puzzle_binary_spec::wrap,
 *  qubo_puzzle_queens_spec::wrap). The queens names of 0.1
 *  (qubo/puzzle/queens.h) are deprecated aliases of these values. */
enum qubo_puzzle_wrap {
	/** A plain board: nothing runs on across an edge. */
	QUBO_PUZZLE_WRAP_NONE = 0,
	/** A cylinder: the last column is next to the first (the left and
	 *  right edges are glued), so windows and attacks run on across them. */
	QUBO_PUZZLE_WRAP_CYLINDER = 1,
	/** A torus: the cylinder, and the last row is next to the first. */
	QUBO_PUZZLE_WRAP_TORUS = 2
};

/** What a long solve or count is doing (qubo_puzzle_progress.phase). */
enum qubo_puzzle_phase {
	/** Sampling the model. */
	QUBO_PUZZLE_PHASE_SAMPLE = 1,
	/** Exact search over the board (branch and reduce, or branch and bound). */
	QUBO_PUZZLE_PHASE_SEARCH = 2,
	/** Enumerating the model's states (the "exhaustive" solver). */
	QUBO_PUZZLE_PHASE_ENUMERATE = 3,
	/** Parsing and building a puzzle (qubo_puzzle_options.progress):
	 *  reading the board, the reduction, the model's terms and its
	 *  compilation. Only @c seconds and @c nodes are set. @since 0.1 */
	QUBO_PUZZLE_PHASE_BUILD = 4
};

/** What a progress callback of qubo_puzzle_solve() or qubo_puzzle_count()
 *  is told. Read only the fields within @c struct_size. */
typedef struct qubo_puzzle_progress {
	/** sizeof(qubo_puzzle_progress) of the library that filled it. */
	size_t struct_size;
	/** An enum qubo_puzzle_phase value. */
	int32_t phase;
	/** Sampling rounds finished. */
	uint32_t rounds;
	/** Reads finished (all rounds), or blocks of states when enumerating. */
	uint64_t reads;
	/** Sweeps per read of the current round (0 when not annealing). */
	int64_t sweeps;
	/** Search nodes visited; while building (#QUBO_PUZZLE_PHASE_BUILD),
	 *  the steps of work done so far (cells walked, terms added and
	 *  compiled), a figure that only grows and says that the build goes on. */
	uint64_t nodes;
	/** Solutions found so far (counting). */
	uint64_t solutions;
	/** Lowest energy found so far; valid when @c has_best is 1. */
	double best_energy;
	/** 1 when @c best_energy is valid. */
	int32_t has_best;
	/** 1 when @c target_energy is valid. */
	int32_t has_target;
	/** The energy of a solution (or the caller's target energy), which
	 *  sampling stops at. */
	double target_energy;
	/** Seconds since the call began. */
	double seconds;
} qubo_puzzle_progress;

/** Size of the first layout of qubo_puzzle_progress (through @c seconds),
 *  frozen: the library never passes a smaller @c struct_size. @since 0.1 */
#define QUBO_PUZZLE_PROGRESS_SIZE_V1 (offsetof(qubo_puzzle_progress, seconds) + sizeof(double))

/**
 * Progress callback of qubo_puzzle_solve() and qubo_puzzle_count(): called
 * on the calling thread, about every 100 ms while sampling and every few
 * thousand nodes while searching; also of the build
 * (qubo_puzzle_options.progress), about every 100 ms.
 * @param[in] progress the figures; valid during the call only.
 * @param[in] user_data as given in the options.
 * @return 0 to go on, nonzero to stop (the call then returns
 *         #QUBO_CANCELLED with what it has).
 */
typedef int (*qubo_puzzle_progress_cb)(const qubo_puzzle_progress *progress, void *user_data);

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
	/** Largest input qubo_puzzle_parse_file() reads and qubo_puzzle_parse()
	 *  accepts, in bytes; 0 means #QUBO_PUZZLE_DEFAULT_MAX_INPUT_BYTES.
	 *  Larger input is #QUBO_ERR_TOO_LARGE before anything is parsed.
	 *  @since 0.1 */
	size_t max_input_bytes;
	/** Most cells a board read from text may have; 0 means
	 *  #QUBO_PUZZLE_DEFAULT_MAX_CELLS. Checked on the header's size before
	 *  anything proportional to it is allocated. @since 0.1 */
	size_t max_cells;
	/** Most couplers the unreduced model of a board read from text may
	 *  need, as estimated from the header (queens, nqueens, takuzu and
	 *  tango couple every row and column); 0 means
	 *  #QUBO_PUZZLE_DEFAULT_MAX_COUPLERS. @since 0.1 */
	size_t max_couplers;
	/** Seconds that parsing and building (the reduction and the model's
	 *  compilation included) may take. As every time limit of both
	 *  libraries: any finite number of seconds ≥ 0; 0 means no limit, and so
	 *  does a limit above 10^18 s, too long for the clock; NaN, a negative
	 *  or an infinite value is #QUBO_ERR_INVALID_ARG. Past it the call
	 *  (qubo_puzzle_parse(), qubo_puzzle_parse_file(),
	 *  qubo_puzzle_parse_cells() or a family's build function) stops within
	 *  a fraction of a second, frees what it made and returns
	 *  #QUBO_TIME_LIMIT with @c *out NULL. qubo_puzzle_parse_file() counts
	 *  the reading of the file in it. The builders check the clock in
	 *  every loop whose work grows with the board (the reductions, the
	 *  attack graphs, the model's terms) and, through
	 *  qubo_model_set_interrupt(), while the model compiles: on boards of up
	 *  to a million cells the call returns within 0.2 s of the limit, on
	 *  larger ones within one pass over the board; a short build may end
	 *  before its first check. The binary grids' line reduction takes time
	 *  linear in each line: a wide open 64 x 64 Unruly board builds in
	 *  milliseconds. @since 0.1 */
	double time_limit;
	/** Optional progress callback of the build, called on the calling
	 *  thread about every 100 ms with @c phase #QUBO_PUZZLE_PHASE_BUILD
	 *  (see qubo_puzzle_progress); a nonzero return stops the build, which
	 *  frees what it made and returns #QUBO_CANCELLED with @c *out NULL.
	 *  @since 0.1 */
	qubo_puzzle_progress_cb progress;
	/** Passed to @c progress. @since 0.1 */
	void *progress_data;
} qubo_puzzle_options;

/** Default of qubo_puzzle_options.max_input_bytes: 256 MiB. @since 0.1 */
#define QUBO_PUZZLE_DEFAULT_MAX_INPUT_BYTES (QUBO_CAST(size_t, 256) << 20)
/** Default of qubo_puzzle_options.max_cells: 4194304 cells (a 2048 x 2048
 *  board); the builders never accept more than 16777216. @since 0.1 */
#define QUBO_PUZZLE_DEFAULT_MAX_CELLS (QUBO_CAST(size_t, 1) << 22)
/** Default of qubo_puzzle_options.max_couplers: 67108864 couplers, about
 *  2 GiB of model while it is built (nqueens 300 needs 40 million).
 *  @since 0.1 */
#define QUBO_PUZZLE_DEFAULT_MAX_COUPLERS (QUBO_CAST(size_t, 1) << 26)

/** Size of the first layout of qubo_puzzle_options (through @c allocator),
 *  frozen: the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_PUZZLE_OPTIONS_SIZE_V1 \
	(offsetof(qubo_puzzle_options, allocator) + sizeof(const qubo_allocator *))

/** Options with only @c struct_size set (the defaults):
 *  `qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;` */
#define QUBO_PUZZLE_OPTIONS_INIT \
	{ sizeof(qubo_puzzle_options), 0, 0.0, 0, NULL, 0, 0, 0, 0.0, NULL, NULL }

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

/** Size of the first layout of qubo_puzzle_stats (through
 *  @c solved_by_reduction), frozen: the smallest @c struct_size accepted.
 *  @since 0.1 */
#define QUBO_PUZZLE_STATS_SIZE_V1 \
	(offsetof(qubo_puzzle_stats, solved_by_reduction) + sizeof(int32_t))

/** Initialiser of a qubo_puzzle_stats with @c struct_size set and every
 *  other field zero, which compiles without warnings under -Wextra:
 *  `qubo_puzzle_stats st = QUBO_PUZZLE_STATS_INIT;` @since 0.1 */
#define QUBO_PUZZLE_STATS_INIT { sizeof(qubo_puzzle_stats), 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Parses a puzzle from text and builds its model.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] text the puzzle text (need not be NUL-terminated).
 * @param[in] length its length in bytes.
 * @param[in] options optional; NULL for the defaults.
 * @return #QUBO_OK; #QUBO_ERR_PARSE with qubo_error_line() and
 *         qubo_error_column() set; #QUBO_ERR_INFEASIBLE when the puzzle is
 *         well formed but contradictory (the message says why);
 *         #QUBO_ERR_TOO_LARGE; #QUBO_ERR_NOMEM; #QUBO_ERR_INVALID_ARG (bad
 *         options); #QUBO_ERR_MISUSE; #QUBO_TIME_LIMIT or #QUBO_CANCELLED
 *         when options.time_limit or options.progress stopped the build:
 *         nothing is kept and @p out is NULL.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_parse(qubo_puzzle **out, const char *text, size_t length,
			       const qubo_puzzle_options *options);

/**
 * Deprecated: qubo_puzzle_solve() and qubo_puzzle_count() search the
 * families' own state, which is what this function was for. It stays
 * exported, working as before, for the life of the SONAME (doc/abi.md,
 * "Deprecation").
 *
 * Parses a puzzle and reduces it, for its cell → literal map only: the same
 * literals qubo_puzzle_cell_literals() gives for the puzzle
 * qubo_puzzle_parse() would make, without keeping the puzzle. The queens
 * families then build no model, which makes this several times cheaper; a
 * search that reduces many boards (as `qubo solve` does) wants it.
 * @param[in] text the puzzle text (doc/formats.md).
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
				     size_t capacity)
	QUBO_DEPRECATED("use qubo_puzzle_solve() or qubo_puzzle_count()");

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
 * A family's name for people, such as "queens (LinkedIn Queens, Star
 * Battle)": the word of its text format, then the puzzles it covers.
 * @param[in] family any int; values outside enum qubo_puzzle_family give
 *            "unknown".
 * @return a static NUL-terminated string, never NULL.
 * @since 0.2
 */
QUBO_API const char *qubo_puzzle_family_name(int family);

/**
 * The name of a reduction level: "none", "clues" or "full" (which
 * #QUBO_REDUCE_DEFAULT is).
 * @param[in] reduce any int32_t; values outside enum qubo_puzzle_reduce give
 *            "unknown".
 * @return a static NUL-terminated string, never NULL.
 * @since 0.2
 */
QUBO_API const char *qubo_puzzle_reduce_name(int32_t reduce);

/**
 * Reads a reduction level's name: "none", "clues", "full" or "default" (the
 * names of qubo_puzzle_reduce_name() and the default's), as the `qubo`
 * program's --reduce takes them.
 * @param[in] name NUL-terminated, compared exactly.
 * @param[out] reduce_out receives an enum qubo_puzzle_reduce value; unchanged
 *             on failure.
 * @return #QUBO_OK; #QUBO_ERR_INVALID_ARG (another name);
 *         #QUBO_ERR_MISUSE (a NULL argument).
 * @since 0.2
 */
QUBO_API int qubo_puzzle_reduce_parse(const char *name, int32_t *reduce_out);

/**
 * The stable name of a solve's method (enum qubo_puzzle_method), such as
 * "branch_and_bound": the constant's name after QUBO_PUZZLE_METHOD_, in
 * lower case.
 * @param[in] method any int; values outside the enum give "unknown".
 * @return a static NUL-terminated string, never NULL.
 * @since 0.2
 */
QUBO_API const char *qubo_puzzle_method_name(int method);

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
 * domination, where it is the energy of an optimum only when known). A
 * domination number is known only where it is proven: the empty board,
 * rooks (the shorter side), kings (⌈w/3⌉ × ⌈h/3⌉) and queens on square
 * boards up to 12 × 12 (values established by complete computer searches);
 * so a valid board at this energy is optimal.
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
 * line (for Tents & Trees also its `cols` and `rows` lines) and the filled
 * grid (the grid alone for a puzzle built from a spec, which has no header).
 * Call with @p capacity 0 (@p buffer may be NULL) to learn the size: that
 * call writes nothing and returns #QUBO_OK with the length in @p length_out.
 *
 * qubo_puzzle_parse_solution() reads the text back as the same board, rules
 * it breaks included (a queen on a cell off the board, a tent on a tree), or
 * the board is refused here: a chess piece on a cell where no piece may
 * stand has no letter in the layout, and would read back as an empty cell.
 * @param[in] puzzle the puzzle.
 * @param[in] board width × height bytes.
 * @param[in] length must equal width × height.
 * @param[out] buffer destination, NUL-terminated when it fits.
 * @param[in] capacity its size.
 * @param[out] length_out receives the text length without the NUL.
 * @return #QUBO_OK (also for the size query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         nonzero @p capacity below the length), #QUBO_ERR_INVALID_ARG (a
 *         value other than 0 or 1, a board the layout cannot show: the
 *         message names the cell), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_format_solution(const qubo_puzzle *puzzle, const uint8_t *board,
					 size_t length, char *buffer, size_t capacity,
					 size_t *length_out);

/**
 * Formats the puzzle itself back in its text format (doc/formats.md), so
 * that parsing the result gives the same puzzle. Call with @p capacity 0
 * (@p buffer may be NULL) to learn the size: that call writes nothing and
 * returns #QUBO_OK with the length in @p length_out.
 * @param[in] puzzle the puzzle.
 * @param[out] buffer destination, NUL-terminated when it fits.
 * @param[in] capacity its size.
 * @param[out] length_out receives the text length without the NUL.
 * @return #QUBO_OK (also for the size query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         nonzero @p capacity below the length), #QUBO_ERR_NOT_SUPPORTED (a
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

/**
 * @name Cells
 * What a board cell is, for renderers and bindings that must not read the
 * text format.
 * @{
 */

/** One cell of a puzzle's board, filled by qubo_puzzle_get_cell(). */
typedef struct qubo_puzzle_cell {
	/** Set to sizeof(qubo_puzzle_cell) (or #QUBO_PUZZLE_CELL_SIZE_V1)
	 *  before the call. */
	size_t struct_size;
	/** 1 when the cell is on the board; 0 for a hole of an irregular board. */
	int32_t on_board;
	/** The cell's region, from 0 (queens: the letter's index, a = 0), or -1
	 *  when the family has no regions or the cell is in none. */
	int32_t region;
	/** The value the puzzle gives for the cell (a pre-placed queen or
	 *  piece: 1; a Takuzu clue: its digit; a tree of Tents & Trees: 0, no
	 *  tent stands there), or -1 when it gives none. */
	int32_t given;
	/** Chess pieces and dominating sets: the piece that may stand on the
	 *  cell, an enum qubo_puzzle_chess_piece value of qubo/puzzle/pieces.h
	 *  (#QUBO_PUZZLE_CHESS_NONE, -1, where none may); -1 for the other families. */
	int32_t piece;
	/** The cell's literal in the puzzle's model (qubo_puzzle_cell_literals()). */
	qubo_lit literal;
} qubo_puzzle_cell;

/** Size of the first layout of qubo_puzzle_cell. */
#define QUBO_PUZZLE_CELL_SIZE_V1 (offsetof(qubo_puzzle_cell, literal) + sizeof(qubo_lit))

/** Initialiser of a qubo_puzzle_cell with @c struct_size set and every
 *  other field zero: `qubo_puzzle_cell c = QUBO_PUZZLE_CELL_INIT;` @since 0.1 */
#define QUBO_PUZZLE_CELL_INIT { sizeof(qubo_puzzle_cell), 0, 0, 0, 0, 0 }

/**
 * Describes one cell of the board.
 * @param[in] puzzle the puzzle.
 * @param[in] row the cell's row, from 0.
 * @param[in] column the cell's column, from 0.
 * @param[in,out] cell with @c struct_size set; written up to that size.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE (no such cell),
 *         #QUBO_ERR_UNSUPPORTED_VERSION, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_get_cell(const qubo_puzzle *puzzle, uint32_t row, uint32_t column,
				  qubo_puzzle_cell *cell);

/** @} */

/**
 * @name Solving and counting
 * The library's own strategy for a puzzle: reduction, exact search where
 * the family has one, annealing rounds that stop at a solution's energy,
 * exact fallbacks, and the rule checker's confirmation of every board it
 * reports.
 * @{
 */

/** What qubo_puzzle_solve() concluded (qubo_puzzle_result.verdict): exactly
 *  one of these. A feasibility puzzle (every family but dominating sets and
 *  max chess pieces) ends #QUBO_PUZZLE_SOLVED, #QUBO_PUZZLE_INFEASIBLE,
 *  #QUBO_PUZZLE_STOPPED or #QUBO_PUZZLE_NOT_FOUND; an optimisation puzzle
 *  ends #QUBO_PUZZLE_OPTIMAL, #QUBO_PUZZLE_BEST_FOUND,
 *  #QUBO_PUZZLE_INFEASIBLE, #QUBO_PUZZLE_STOPPED or #QUBO_PUZZLE_NOT_FOUND,
 *  never #QUBO_PUZZLE_SOLVED. */
enum qubo_puzzle_verdict {
	/** Nothing concluded (only after an error). */
	QUBO_PUZZLE_UNKNOWN = 0,
	/** Feasibility puzzle: the board is a solution, confirmed by the rule
	 *  checker. */
	QUBO_PUZZLE_SOLVED = 1,
	/** Optimisation puzzle: the board is checked and its optimality is
	 *  proven: by an exact search (branch and bound) or an enumeration of
	 *  the model (the "exhaustive" solver) that ran to its end, by the
	 *  reduction, or because the board reaches qubo_puzzle_ground_energy(),
	 *  which the library gives only for proven optima (the domination
	 *  numbers of the literature, established by complete searches). */
	QUBO_PUZZLE_OPTIMAL = 2,
	/** Optimisation puzzle: the board is checked, the best the run found,
	 *  and not proven optimal: the run was stopped (the call returns
	 *  #QUBO_TIME_LIMIT or #QUBO_CANCELLED), or it only sampled and no
	 *  sample reached a known optimum. */
	QUBO_PUZZLE_BEST_FOUND = 3,
	/** Proven: the puzzle has no solution (no valid board at all). No board. */
	QUBO_PUZZLE_INFEASIBLE = 4,
	/** Stopped by the time limit or the progress callback before a valid
	 *  board was found (the call returns #QUBO_TIME_LIMIT or
	 *  #QUBO_CANCELLED). The board, when @c has_board is 1, is the lowest
	 *  sample's, which breaks @c violations rules. */
	QUBO_PUZZLE_STOPPED = 5,
	/** The run ended without a valid board and without proof that none
	 *  exists (a sampling-only run whose reads found none). The board, when
	 *  @c has_board is 1, is the lowest sample's, which breaks
	 *  @c violations rules. */
	QUBO_PUZZLE_NOT_FOUND = 6
};

/** How qubo_puzzle_solve() goes about it (qubo_puzzle_solve_options.strategy). */
enum qubo_puzzle_strategy {
	/** The default: whatever suits the family (exact search, sampling
	 *  rounds, exact fallbacks); the verdict is proven wherever it can be. */
	QUBO_PUZZLE_STRATEGY_AUTO = 0,
	/** Sampling only, with the options' solver: rounds until a read
	 *  reaches a solution's energy (one run for optimisation puzzles). */
	QUBO_PUZZLE_STRATEGY_SAMPLE = 1,
	/** Exact search only (families with one; #QUBO_ERR_NOT_SUPPORTED
	 *  otherwise). */
	QUBO_PUZZLE_STRATEGY_SEARCH = 2
};

/** Options of qubo_puzzle_solve(); zero fields mean the defaults. */
typedef struct qubo_puzzle_solve_options {
	/** Set to sizeof(qubo_puzzle_solve_options) or
	 *  #QUBO_PUZZLE_SOLVE_OPTIONS_SIZE_V1. */
	size_t struct_size;
	/** An enum qubo_puzzle_strategy value; 0 is #QUBO_PUZZLE_STRATEGY_AUTO. */
	int32_t strategy;
	/** Threads for sampling and enumeration; 0 chooses (one thread for
	 *  short runs, where starting threads costs more than the run). */
	int32_t threads;
	/** Seed of the first sampling round; round k uses seed + k. On one
	 *  thread (what the default chooses for short runs) the same seed
	 *  gives the same result; on several, a round stops when any read
	 *  reaches a solution, so which solution is returned may vary. */
	uint64_t seed;
	/** Seconds the solve may take: any finite number ≥ 0, 0 (or above
	 *  10^18) for no limit, as qubo_puzzle_options::time_limit. */
	double time_limit;
	/** The solver to sample with, borrowed and never changed; NULL for a
	 *  built-in "sa". The run samples with a clone of it
	 *  (qubo_solver_clone()): the caller's options, its progress callback
	 *  (called while the run samples, unless @c progress is set) and its
	 *  backend are used, and on the clone each round sets its seed
	 *  (@c seed + round) and, with a time limit, its time limit; the target
	 *  energy (a solution's energy), the threads and for "sa" the reads and
	 *  sweeps are set only where the caller did not set them. When the call
	 *  returns, whether it succeeded, stopped or failed, the solver is as
	 *  the caller left it. A target energy set by the caller makes the run
	 *  sample only, stopping at that energy. */
	qubo_solver *solver;
	/** Optional progress callback; it can stop the run. */
	qubo_puzzle_progress_cb progress;
	/** Passed to @c progress. */
	void *user_data;
} qubo_puzzle_solve_options;

/** Size of the first layout of qubo_puzzle_solve_options. */
#define QUBO_PUZZLE_SOLVE_OPTIONS_SIZE_V1 \
	(offsetof(qubo_puzzle_solve_options, user_data) + sizeof(void *))

/** The defaults: `qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;` */
#define QUBO_PUZZLE_SOLVE_OPTIONS_INIT {sizeof(qubo_puzzle_solve_options), 0, 0, 0, 0.0, NULL, NULL, NULL}

/** How qubo_puzzle_solve() reached its answer (qubo_puzzle_result.method_id),
 *  with the text qubo_puzzle_result.method gives for each. A program
 *  switches on these rather than reading the text. @since 0.2 */
enum qubo_puzzle_method {
	/** No method: a result the call did not write. */
	QUBO_PUZZLE_METHOD_NONE = 0,
	/** The reduction decided every cell: "reduction". */
	QUBO_PUZZLE_METHOD_REDUCTION = 1,
	/** The exact search of a feasibility puzzle: "branch and reduce". */
	QUBO_PUZZLE_METHOD_BRANCH_AND_REDUCE = 2,
	/** The exact search of an optimisation puzzle: "branch and bound". */
	QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND = 3,
	/** Every state of the model, by the built-in "exhaustive" alone (the
	 *  solver lent, or the fallback for small models): "exhaustive". */
	QUBO_PUZZLE_METHOD_EXHAUSTIVE = 4,
	/** The samples of a built-in solver alone; the text is its name: "sa",
	 *  "tabu" or "descent". */
	QUBO_PUZZLE_METHOD_SOLVER = 5,
	/** The samples of any other solver alone (a caller's backend, "pt",
	 *  "qaoa"): "a caller's solver". */
	QUBO_PUZZLE_METHOD_OTHER_SOLVER = 6,
	/** Sampling, then the exact search: "sa, then branch and reduce" or
	 *  "sampling, then branch and reduce". */
	QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_REDUCE = 7,
	/** Sampling, then every state: "sa, then exhaustive" or "sampling, then
	 *  exhaustive". */
	QUBO_PUZZLE_METHOD_SAMPLING_THEN_EXHAUSTIVE = 8,
	/** A first try of branch and bound, sampling, then branch and bound
	 *  bounded by the best sample: "sa, then branch and bound" or
	 *  "sampling, then branch and bound". */
	QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND = 9
};

/** What qubo_puzzle_solve() found and did. Fields past the caller's
 *  @c struct_size are not written. */
typedef struct qubo_puzzle_result {
	/** Set to sizeof(qubo_puzzle_result) or #QUBO_PUZZLE_RESULT_SIZE_V1
	 *  before the call. */
	size_t struct_size;
	/** An enum qubo_puzzle_verdict value. */
	int32_t verdict;
	/** 1 when the board buffer holds a board (width × height bytes). */
	int32_t has_board;
	/** 1 when @c energy is valid. */
	int32_t has_energy;
	/** Reserved; 0. */
	int32_t reserved;
	/** Rules the board breaks (0 for every verdict but #QUBO_PUZZLE_STOPPED
	 *  and #QUBO_PUZZLE_NOT_FOUND). */
	uint64_t violations;
	/** The lowest energy the run found in the model: the board's when
	 *  @c has_board is 1 (for a solution, the ground energy), otherwise the
	 *  lowest sample's. */
	double energy;
	/** How the answer was reached, a static string: "reduction",
	 *  "branch and reduce", "branch and bound", "sa", "sa, then
	 *  exhaustive", "sa, then branch and reduce", "sa, then branch and
	 *  bound", the same three with "sampling" for a caller's solver,
	 *  "exhaustive", a built-in solver's name, or "a caller's solver". */
	const char *method;
	/** Sampling rounds run. */
	uint32_t rounds;
	/** Reads (samples) drawn over all rounds. */
	uint64_t reads;
	/** Sweeps per read of the first and the last annealing round (0 when
	 *  the solver is not "sa"; the caller's value when it set them). */
	int64_t sweeps_first;
	/** See @c sweeps_first. */
	int64_t sweeps_last;
	/** Seed of the first round. */
	uint64_t seed;
	/** Exact-search nodes visited. */
	uint64_t nodes;
	/** Wall-clock seconds of the call. */
	double seconds;
	/** How the answer was reached, an enum qubo_puzzle_method value: what
	 *  @c method says, without a solver's name (qubo_puzzle_method_name()
	 *  names it). @since 0.2 */
	int32_t method_id;
} qubo_puzzle_result;

/** Size of the first layout of qubo_puzzle_result. */
#define QUBO_PUZZLE_RESULT_SIZE_V1 (offsetof(qubo_puzzle_result, seconds) + sizeof(double))

/** Initialiser of a qubo_puzzle_result with @c struct_size set and every
 *  other field zero: `qubo_puzzle_result r = QUBO_PUZZLE_RESULT_INIT;`
 *  @since 0.1 */
#define QUBO_PUZZLE_RESULT_INIT                                                                \
	{                                                                                      \
		sizeof(qubo_puzzle_result), 0, 0, 0, 0, 0, 0.0, NULL, 0, 0, 0, 0, 0, 0, 0.0, 0 \
	}

/**
 * Solves a puzzle: the default strategy is the `qubo solve` command's.
 *
 * The reduced model is searched exactly where the family has a search
 * (queens boards with regions first; other families after a first
 * annealing round fails), sampled in rounds of growing length until a read
 * reaches the energy of a solution, and settled exactly when small.
 * Optimisation puzzles (dominating sets, max chess pieces) are searched by
 * branch and bound, which proves the optimum when it ends; when a short
 * first try does not end, one annealing run gives the search a board to
 * bound it with, and the search goes on until the time limit. They are
 * never reported #QUBO_PUZZLE_SOLVED, and #QUBO_PUZZLE_OPTIMAL only when
 * the optimum is proven (see enum qubo_puzzle_verdict); a run stopped first
 * reports its best valid board as #QUBO_PUZZLE_BEST_FOUND.
 * Every board reported is confirmed by qubo_puzzle_check().
 *
 * @param[in] puzzle the puzzle; not modified.
 * @param[in] options optional; NULL for the defaults.
 * @param[out] board receives width × height bytes (see the top of this
 *             file) when @c result->has_board is 1.
 * @param[in] capacity length of @p board.
 * @param[in,out] result with @c struct_size set; written up to that size.
 * @return #QUBO_OK with the verdict in @p result; #QUBO_TIME_LIMIT or
 *         #QUBO_CANCELLED when the run was stopped (the verdict says what
 *         was found before); #QUBO_ERR_BUFFER_TOO_SMALL; #QUBO_ERR_INVALID_ARG
 *         (bad options); #QUBO_ERR_NOT_SUPPORTED (a search-only strategy for
 *         a family without one); the solver's errors; #QUBO_ERR_NOMEM;
 *         #QUBO_ERR_UNSUPPORTED_VERSION; #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_solve(const qubo_puzzle *puzzle, const qubo_puzzle_solve_options *options,
			       uint8_t *board, size_t capacity, qubo_puzzle_result *result);

/** How qubo_puzzle_count() counts (qubo_puzzle_count_options.method). */
enum qubo_puzzle_count_method {
	/** The default: the family's exact search where it has one (every
	 *  family does today), else enumeration. */
	QUBO_PUZZLE_COUNT_AUTO = 0,
	/** Every state of the reduced model (up to @c max_variables). */
	QUBO_PUZZLE_COUNT_ENUMERATE = 1,
	/** The family's exact search. */
	QUBO_PUZZLE_COUNT_SEARCH = 2
};

/**
 * Called by qubo_puzzle_count() for each distinct solution, in the order
 * found, after the rule checker has accepted it.
 * @param[in] board width × height bytes; valid during the call only.
 * @param[in] length width × height.
 * @param[in] user_data as given in the options.
 * @return 0 to go on, nonzero to stop (the call returns #QUBO_CANCELLED).
 */
typedef int (*qubo_puzzle_solution_cb)(const uint8_t *board, size_t length, void *user_data);

/** Options of qubo_puzzle_count(); zero fields mean the defaults. */
typedef struct qubo_puzzle_count_options {
	/** Set to sizeof(qubo_puzzle_count_options) or
	 *  #QUBO_PUZZLE_COUNT_OPTIONS_SIZE_V1. */
	size_t struct_size;
	/** An enum qubo_puzzle_count_method value. */
	int32_t method;
	/** Threads for enumeration; 0 chooses. */
	int32_t threads;
	/** Stop after this many solutions; 0 means no limit. */
	uint64_t limit;
	/** Seconds the count may take: any finite number ≥ 0, 0 (or above
	 *  10^18) for no limit, as qubo_puzzle_options::time_limit. */
	double time_limit;
	/** Enumeration refuses models with more variables
	 *  (#QUBO_ERR_TOO_LARGE); 0 means 36, at most
	 *  #QUBO_EXHAUSTIVE_MAX_VARIABLES. */
	int32_t max_variables;
	/** Reserved; must be 0. */
	int32_t reserved;
	/** Optional: called for each solution. */
	qubo_puzzle_solution_cb on_solution;
	/** Optional progress callback; it can stop the count. */
	qubo_puzzle_progress_cb progress;
	/** Passed to @c on_solution and @c progress. */
	void *user_data;
} qubo_puzzle_count_options;

/** Size of the first layout of qubo_puzzle_count_options. */
#define QUBO_PUZZLE_COUNT_OPTIONS_SIZE_V1 \
	(offsetof(qubo_puzzle_count_options, user_data) + sizeof(void *))

/** The defaults: `qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;` */
#define QUBO_PUZZLE_COUNT_OPTIONS_INIT {sizeof(qubo_puzzle_count_options), 0, 0, 0, 0.0, 0, 0, NULL, NULL, NULL}

/** What qubo_puzzle_count() found. Fields past the caller's @c struct_size
 *  are not written. */
typedef struct qubo_puzzle_count_result {
	/** Set to sizeof(qubo_puzzle_count_result) or
	 *  #QUBO_PUZZLE_COUNT_RESULT_SIZE_V1 before the call. */
	size_t struct_size;
	/** 1 when @c count is every solution there is; 0 when the count stopped
	 *  early (the limit, the time limit or a callback). */
	int32_t complete;
	/** 1 for an optimisation puzzle: the optimal solutions were counted. */
	int32_t optimal_only;
	/** Distinct solutions found, each accepted by the rule checker. */
	uint64_t count;
	/** The energy every counted solution has in the model. */
	double energy;
	/** "search", "branch and bound" or "enumeration" (static string). */
	const char *method;
	/** Search nodes visited, or model states enumerated. */
	uint64_t nodes;
	/** Wall-clock seconds of the call. */
	double seconds;
} qubo_puzzle_count_result;

/** Size of the first layout of qubo_puzzle_count_result. */
#define QUBO_PUZZLE_COUNT_RESULT_SIZE_V1 \
	(offsetof(qubo_puzzle_count_result, seconds) + sizeof(double))

/** Initialiser of a qubo_puzzle_count_result with @c struct_size set and
 *  every other field zero:
 *  `qubo_puzzle_count_result r = QUBO_PUZZLE_COUNT_RESULT_INIT;` @since 0.1 */
#define QUBO_PUZZLE_COUNT_RESULT_INIT \
	{ sizeof(qubo_puzzle_count_result), 0, 0, 0, 0.0, NULL, 0, 0.0 }

/**
 * Counts a puzzle's distinct solutions by exact search or enumeration,
 * each confirmed by the rule checker; for optimisation puzzles, the optimal
 * ones.
 * @param[in] puzzle the puzzle.
 * @param[in] options optional; NULL for the defaults.
 * @param[in,out] result with @c struct_size set; written up to that size.
 * @return #QUBO_OK (the count is complete, or stopped at the limit: see
 *         @c complete); #QUBO_TIME_LIMIT or #QUBO_CANCELLED (stopped; the
 *         count so far is in @p result); #QUBO_ERR_TOO_LARGE (a model too
 *         large to enumerate); #QUBO_ERR_NOT_SUPPORTED (a search for a family
 *         without one); #QUBO_ERR_INTERNAL (the model and the checker
 *         disagree); #QUBO_ERR_NOMEM; #QUBO_ERR_INVALID_ARG;
 *         #QUBO_ERR_UNSUPPORTED_VERSION; #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_puzzle_count(const qubo_puzzle *puzzle, const qubo_puzzle_count_options *options,
			       qubo_puzzle_count_result *result);

/** @} */

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_H */
