/**
 * @file qubo/puzzle/binary.h
 * @brief Binary grid puzzles (Takuzu, Binairo, Unruly, Tango and their
 *        generalisations) built from a spec struct.
 *
 * The text forms (`takuzu` and `tango`, doc/formats.md) read through
 * qubo_puzzle_parse(); this header builds the same puzzles from numbers,
 * and the generalisations that have no text form: unbalanced counts,
 * diagonal windows, wrap-around boards, regions with counts, signs between
 * any two cells, and groups of cells that must be equal or must differ.
 *
 * Cells are numbered row-major: cell (r, c), 0-based, is r × width + c.
 * Every cell holds 0 or 1 (Tango: 0 a sun, 1 a moon). The rules:
 *  - a clue fixes its cell;
 *  - row r holds row_ones[r] ones, column c holds col_ones[c] ones, region
 *    k holds region_ones[k] ones (−1: no count);
 *  - no window of three cells holds three equal values; the windows are
 *    the runs of three adjacent cells in the directions @c windows names,
 *    continued across the edges that @c wrap joins;
 *  - with @c distinct, no two rows are equal and no two columns are equal
 *    (classical Takuzu);
 *  - a sign makes two cells equal ('=') or different ('x');
 *  - all cells of an equality group are equal; the two groups of a
 *    differing pair hold different values.
 * qubo_puzzle_check() checks exactly these rules, never the model.
 *
 * The model (doc/formulations.md; "A QUBO Formulation for the Generalized
 * LinkedIn Queens and Takuzu/Tango Game", §3): signs and groups become
 * parity classes (qubo/parity.h), so the variables are the classes'
 * representatives; counts are exactly-k penalties, windows the
 * no-three-equal penalty, and distinct rows and columns use witness
 * variables, which make the model exact where the local one is only a
 * relaxation. Every term is 0 exactly when its rule holds and at least P
 * otherwise, so the minimisers are the solutions and
 * qubo_puzzle_ground_energy() is 0.
 */
#ifndef QUBO_PUZZLE_BINARY_H
#define QUBO_PUZZLE_BINARY_H

#include "../puzzle.h"

QUBO_BEGIN_DECLS

/** Directions of the no-three-equal windows (flags for
 *  qubo_puzzle_binary_spec::windows). */
enum qubo_puzzle_windows {
	/** Three horizontally adjacent cells. */
	QUBO_PUZZLE_WINDOWS_ROWS = 1,
	/** Three vertically adjacent cells. */
	QUBO_PUZZLE_WINDOWS_COLUMNS = 2,
	/** Three cells along a diagonal, both directions. */
	QUBO_PUZZLE_WINDOWS_DIAGONALS = 4
};

/** A sign between two cells. */
typedef struct qubo_puzzle_binary_sign {
	/** A cell. */
	uint32_t a;
	/** Another cell (any two distinct cells, in either order). */
	uint32_t b;
	/** 0: the cells are equal ('='); 1: they differ ('x'). */
	int32_t differ;
} qubo_puzzle_binary_sign;

/**
 * A binary grid instance. Arrays are read during qubo_puzzle_binary_new()
 * only; the puzzle keeps what it needs. Start from
 * #QUBO_PUZZLE_BINARY_SPEC_INIT: a balanced board with row and column
 * windows and nothing else, which is Takuzu without distinct lines.
 */
typedef struct qubo_puzzle_binary_spec {
	/** Set to sizeof(qubo_puzzle_binary_spec). */
	size_t struct_size;
	/** Number of columns, at least 1. */
	uint32_t width;
	/** Number of rows, at least 1. */
	uint32_t height;
	/** NULL (no clues) or width × height values: −1 free, 0 or 1. */
	const int8_t *clues;
	/** NULL: every row holds width / 2 ones (width must be even); or
	 *  @c height counts, each −1 (no count) or 0 … width. */
	const int32_t *row_ones;
	/** NULL: every column holds height / 2 ones (height must be even); or
	 *  @c width counts, each −1 (no count) or 0 … height. */
	const int32_t *col_ones;
	/** Flags of enum qubo_puzzle_windows; 0: no windows. */
	int32_t windows;
	/** An enum qubo_puzzle_wrap value. */
	int32_t wrap;
	/** 1: no two rows equal and no two columns equal; 0: no such rule. */
	int32_t distinct;
	/** @c num_signs signs. */
	const qubo_puzzle_binary_sign *signs;
	/** Number of signs. */
	size_t num_signs;
	/** NULL (no regions) or width × height region numbers in
	 *  0 … num_regions − 1, −1 for a cell in no region. */
	const int32_t *regions;
	/** @c num_regions counts: region k holds region_ones[k] ones (−1: no
	 *  count). NULL: no region has a count. */
	const int32_t *region_ones;
	/** Number of regions. */
	size_t num_regions;
	/** NULL (no groups) or width × height group numbers in
	 *  0 … num_equal_groups − 1, −1 for a cell in no group. The cells of a
	 *  group are all equal. */
	const int32_t *equal_groups;
	/** Number of equality groups; each must have a cell. */
	size_t num_equal_groups;
	/** 2 × num_differ_pairs group numbers: the groups of each pair hold
	 *  different values. */
	const uint32_t *differ_pairs;
	/** Number of differing pairs of groups. */
	size_t num_differ_pairs;
} qubo_puzzle_binary_spec;

/** Size of the first layout of qubo_puzzle_binary_spec (through
 *  @c num_differ_pairs), frozen: the smallest @c struct_size accepted.
 *  @since 0.1 */
#define QUBO_PUZZLE_BINARY_SPEC_SIZE_V1 \
	(offsetof(qubo_puzzle_binary_spec, num_differ_pairs) + sizeof(size_t))

/** A balanced spec with row and column windows:
 *  `qubo_puzzle_binary_spec s = QUBO_PUZZLE_BINARY_SPEC_INIT;` */
#define QUBO_PUZZLE_BINARY_SPEC_INIT                                                            \
	{                                                                                       \
		sizeof(qubo_puzzle_binary_spec), 0, 0, NULL, NULL, NULL,                        \
			QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS, 0, 0, NULL, 0, NULL, \
			NULL, 0, NULL, 0, NULL, 0                                               \
	}

/**
 * Builds a binary grid puzzle (family #QUBO_PUZZLE_TAKUZU) and its model.
 *
 * The spec is checked first, every problem named in the message. A spec
 * that is well formed but contradicts itself gives #QUBO_ERR_INFEASIBLE
 * with a message naming the cells, line or region: signs and groups that
 * close a cycle with an odd number of differences, clues against them, a
 * window the signs make all equal, a line or region that cannot hold its
 * count, a contradiction the full reduction finds (whatever the reduction
 * level: the level decides only which fixed cells become constants). Other
 * instances without solutions still build; their model's minimum is then
 * above 0.
 *
 * Reduction levels: #QUBO_REDUCE_NONE keeps one variable per cell, with
 * penalties for the clues and the signs; #QUBO_REDUCE_CLUES has one
 * variable per parity class without a clue; #QUBO_REDUCE_FULL (the
 * default) also fixes what the rules force, to a fixpoint (saturated lines
 * and regions, two equal cells of a window force the third, a line that
 * would copy a complete one), keeping exactly the solutions. The option
 * @c drop_region is ignored. The puzzle has no text form:
 * qubo_puzzle_format() gives #QUBO_ERR_NOT_SUPPORTED, and solutions are
 * written as bare grids of '0' and '1'.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] spec the instance, with @c struct_size set.
 * @param[in] options optional; NULL for the defaults.
 * @return #QUBO_OK; #QUBO_ERR_INVALID_ARG (a malformed spec: the message
 *         names the field, the index and the value); #QUBO_ERR_INFEASIBLE;
 *         #QUBO_ERR_TOO_LARGE (more than 2^24 cells, or distinct lines on
 *         a board that needs more than 2^22 witness variables);
 *         #QUBO_ERR_UNSUPPORTED_VERSION; #QUBO_ERR_NOMEM; #QUBO_ERR_MISUSE
 *         (NULL @p out or @p spec).
 * @since 0.1
 */
QUBO_API int qubo_puzzle_binary_new(qubo_puzzle **out, const qubo_puzzle_binary_spec *spec,
				    const qubo_puzzle_options *options);

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_BINARY_H */
