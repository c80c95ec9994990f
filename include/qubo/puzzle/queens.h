/**
 * @file qubo/puzzle/queens.h
 * @brief Generalised queens: a board, counts per row, column and region,
 *        attack reach per cell and direction, wrap-around and pre-placed
 *        queens, built from a spec struct.
 *
 * The text formats cover LinkedIn Queens, Star Battle and N-Queens
 * (`queens N [stars K]`, `nqueens N [torus|cylinder]`; see doc/formats.md).
 * Everything else in the queens family of §2.3–2.4 of the second QUBO
 * paper, "A QUBO Formulation for the Generalized LinkedIn Queens and
 * Takuzu/Tango Game" (rectangular and irregular boards, per-row and per-column counts, overlapping regions
 * needing q or q+1 queens, per-cell attack reach, N-Queens with regions or
 * soft regions) is described by a qubo_puzzle_queens_spec and built with
 * qubo_puzzle_queens_new(). The result is an ordinary puzzle object
 * (family #QUBO_PUZZLE_GENERAL_QUEENS): decode, check and format work as for
 * the text families.
 *
 * Cells are numbered row-major: cell (r, c), 0-based, is r × width + c.
 *
 * Attacks: two on-board cells a and b conflict when one of them reaches the
 * other, that is when b lies in direction d of a at a distance (in steps) of
 * at most a's reach in direction d, or the same with a and b swapped. The
 * conflict graph is the union of both cells' reach (the second paper, §2.3.2).
 * Cells that are not on the board do not block an attack: an attack is
 * reach on an empty board, and an off-board cell is a cell that can never
 * hold a queen (the second paper, §2.3, makes irregular boards exactly that
 * way).
 * On a cylinder the columns wrap around (left and right edges are glued),
 * on a torus the rows wrap too; a walk that comes back to its start ends.
 *
 * The model (doc/formulations.md): every row and column with a count gets
 * P (Σ x − r)², every region P (Σ x − q)² or, for a q-or-q+1 region, the
 * zero-based P (Σ x − q)(Σ x − q − 1) (or the fractional P (Σ x − q − ½)²
 * when chosen), every conflicting pair P x_a x_b (pairs inside a row or
 * column that may hold at most one queen are left out: that term already
 * forbids them). Its minimisers are exactly the solutions, with the energy
 * given by qubo_puzzle_ground_energy(): 0, plus P/4 for each fractional
 * q-or-q+1 region term.
 */
#ifndef QUBO_PUZZLE_QUEENS_H
#define QUBO_PUZZLE_QUEENS_H

#include "../puzzle.h"

QUBO_BEGIN_DECLS

/** Unlimited attack reach: the whole line (up to the board's edge, or once
 *  around a wrapped board). */
#define QUBO_PUZZLE_QUEENS_UNLIMITED 0xFFFFFFFFu

/** A row or column count meaning "no constraint on this line". */
#define QUBO_PUZZLE_QUEENS_ANY (-1)

/** The eight attack directions, the index into the reach arrays:
 *  clockwise from up. Rows grow downwards, columns to the right. */
enum qubo_puzzle_queens_direction {
	/** Up: row − 1. */
	QUBO_PUZZLE_QUEENS_N = 0,
	/** Up and right: row − 1, column + 1. */
	QUBO_PUZZLE_QUEENS_NE = 1,
	/** Right: column + 1. */
	QUBO_PUZZLE_QUEENS_E = 2,
	/** Down and right: row + 1, column + 1. */
	QUBO_PUZZLE_QUEENS_SE = 3,
	/** Down: row + 1. */
	QUBO_PUZZLE_QUEENS_S = 4,
	/** Down and left: row + 1, column − 1. */
	QUBO_PUZZLE_QUEENS_SW = 5,
	/** Left: column − 1. */
	QUBO_PUZZLE_QUEENS_W = 6,
	/** Up and left: row − 1, column − 1. */
	QUBO_PUZZLE_QUEENS_NW = 7
};

/** How a region that may hold 0 or 1 queens (q = 0, plus_one = 1) enters
 *  the model. */
enum qubo_puzzle_queens_region_form {
	/** The q-or-q+1 count term, like every other region. */
	QUBO_PUZZLE_QUEENS_REGION_COUNT = 0,
	/** A pairwise at-most-one term P Σ_{a<b} x_a x_b (the second paper,
	 *  §2.4.2, eq. 29):
	 *  half the weight on the same couplers, no linear terms. */
	QUBO_PUZZLE_QUEENS_REGION_PAIRWISE = 1
};

/**
 * A generalised queens instance. Zero everywhere (besides @c struct_size,
 * @c width and @c height) is a board with no constraint at all. Arrays are
 * read during qubo_puzzle_queens_new() only; the puzzle keeps copies.
 *
 * Examples. N-Queens: row and column counts 1, @c reach 0 for N, E, S, W and
 * #QUBO_PUZZLE_QUEENS_UNLIMITED for the diagonals. LinkedIn Queens: counts
 * 1, the N regions with count 1, diagonal reach 1. Star Battle with k stars:
 * counts k and reach 1 in all eight directions. N-Queens with regions: the
 * N-Queens spec plus regions with count 1; with soft regions: count 0 and
 * @c region_plus_one 1 (at most one queen per region).
 */
typedef struct qubo_puzzle_queens_spec {
	/** Set to sizeof(qubo_puzzle_queens_spec). */
	size_t struct_size;
	/** Number of columns M, at least 1. */
	uint32_t width;
	/** Number of rows N, at least 1. */
	uint32_t height;
	/** NULL (every cell is on the board) or width × height bytes, nonzero
	 *  for a cell that is not on the board (it never holds a queen). */
	const uint8_t *off_board;
	/** NULL (rows unconstrained) or @c height counts: row r must hold
	 *  exactly row_counts[r] queens, or any number for
	 *  #QUBO_PUZZLE_QUEENS_ANY. */
	const int32_t *row_counts;
	/** NULL or @c width counts, as @c row_counts for the columns. */
	const int32_t *col_counts;
	/** Number of regions (they may overlap and need not cover the board). */
	size_t num_regions;
	/** @c num_regions + 1 offsets into @c region_cells: region k is
	 *  region_cells[region_start[k]] … region_cells[region_start[k+1] − 1].
	 *  region_start[0] is 0. NULL when @c num_regions is 0. */
	const size_t *region_start;
	/** Cell indices of all regions, one after the other. A region lists a
	 *  cell at most once; off-board cells in a region are ignored. */
	const uint32_t *region_cells;
	/** @c num_regions counts q_k ≥ 0. */
	const int32_t *region_counts;
	/** NULL (all 0) or @c num_regions flags t_k: 1 when region k may hold
	 *  q_k or q_k + 1 queens, 0 when exactly q_k. */
	const int32_t *region_plus_one;
	/** Attack reach of every cell by direction (enum
	 *  qubo_puzzle_queens_direction): 0 none, d the cells up to d steps
	 *  away, #QUBO_PUZZLE_QUEENS_UNLIMITED. */
	uint32_t reach[8];
	/** NULL (every cell uses @c reach) or 8 × width × height values: the
	 *  reach of cell i in direction d is cell_reach[8 i + d]. */
	const uint32_t *cell_reach;
	/** An enum qubo_puzzle_wrap value (qubo/puzzle.h). */
	int32_t wrap;
	/** Pre-placed queens: @c num_queens distinct on-board cell indices.
	 *  Their rows, columns and regions count them (the second paper, §2.3: the
	 *  counts left for the free cells are corrected). */
	const uint32_t *queens;
	/** Number of pre-placed queens. */
	size_t num_queens;
	/** An enum qubo_puzzle_queens_region_form value. */
	int32_t region_form;
	/** Form of the q-or-q+1 region terms, an enum qubo_k_or_k1_form value
	 *  (qubo/penalty.h): 0 zero-based (each feasible term 0), 1 fractional
	 *  (each term P/4 at its minimum; the ground energy counts them). */
	int32_t k_or_k1_form;
} qubo_puzzle_queens_spec;

/** Size of the first layout of qubo_puzzle_queens_spec (through
 *  @c k_or_k1_form), frozen: the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_PUZZLE_QUEENS_SPEC_SIZE_V1 \
	(offsetof(qubo_puzzle_queens_spec, k_or_k1_form) + sizeof(int32_t))

/** A spec with only @c struct_size set:
 *  `qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;` */
#define QUBO_PUZZLE_QUEENS_SPEC_INIT {sizeof(qubo_puzzle_queens_spec), 0, 0, NULL, NULL, NULL, \
				      0, NULL, NULL, NULL, NULL, {0, 0, 0, 0, 0, 0, 0, 0},    \
				      NULL, 0, NULL, 0, 0, 0}

/**
 * Builds a generalised queens puzzle and its model.
 *
 * The spec is checked first (every problem is named in the message). A
 * spec that is well formed but has no solution that the reduction can see
 * (two pre-placed queens attacking each other, a row needing more queens
 * than it has cells, a region needing queens but with no cell on the
 * board, counts that contradict each other) gives #QUBO_ERR_INFEASIBLE with
 * a message naming the row, column or region (1-based). Other instances
 * without solutions still build: their model's minimum is then above
 * qubo_puzzle_ground_energy().
 *
 * The option @c drop_region leaves out the last region's term when the
 * others imply it: the regions must partition the on-board cells, every
 * region must need exactly q_k queens, every row must have a count, and
 * the counts must sum to the same total; otherwise #QUBO_ERR_INVALID_ARG.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] spec the instance, with @c struct_size set.
 * @param[in] options optional; NULL for the defaults.
 * @return #QUBO_OK; #QUBO_ERR_INVALID_ARG (a malformed spec);
 *         #QUBO_ERR_INFEASIBLE; #QUBO_ERR_TOO_LARGE (more than 2^24 cells);
 *         #QUBO_ERR_UNSUPPORTED_VERSION (struct sizes); #QUBO_ERR_NOMEM;
 *         #QUBO_ERR_MISUSE (NULL @p out or @p spec).
 * @since 0.2
 */
QUBO_API int qubo_puzzle_queens_new(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec,
				    const qubo_puzzle_options *options);

/**
 * The former name of qubo_puzzle_queens_new(), which every other family's
 * builder already follows (`qubo_puzzle_<family>_new`): the same function
 * under its 0.1 name, whose messages name qubo_puzzle_queens_build.
 * @deprecated since 0.2: use qubo_puzzle_queens_new(). Kept exported for
 * the life of the SONAME (doc/abi.md, "Deprecation").
 * @param[out] out as qubo_puzzle_queens_new().
 * @param[in] spec as qubo_puzzle_queens_new().
 * @param[in] options as qubo_puzzle_queens_new().
 * @return as qubo_puzzle_queens_new().
 * @since 0.1
 */
QUBO_API int qubo_puzzle_queens_build(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec,
				      const qubo_puzzle_options *options)
	QUBO_DEPRECATED("use qubo_puzzle_queens_new()");

/* The names of 0.1 (doc/abi.md, "Deprecation"). */
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_UNLIMITED, the same value. */
#define QUBO_QUEENS_UNLIMITED QUBO_PUZZLE_QUEENS_UNLIMITED
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_ANY, the same value. */
#define QUBO_QUEENS_ANY QUBO_PUZZLE_QUEENS_ANY
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_N, the same value. */
#define QUBO_QUEENS_N QUBO_PUZZLE_QUEENS_N
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_NE, the same value. */
#define QUBO_QUEENS_NE QUBO_PUZZLE_QUEENS_NE
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_E, the same value. */
#define QUBO_QUEENS_E QUBO_PUZZLE_QUEENS_E
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_SE, the same value. */
#define QUBO_QUEENS_SE QUBO_PUZZLE_QUEENS_SE
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_S, the same value. */
#define QUBO_QUEENS_S QUBO_PUZZLE_QUEENS_S
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_SW, the same value. */
#define QUBO_QUEENS_SW QUBO_PUZZLE_QUEENS_SW
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_W, the same value. */
#define QUBO_QUEENS_W QUBO_PUZZLE_QUEENS_W
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_NW, the same value. */
#define QUBO_QUEENS_NW QUBO_PUZZLE_QUEENS_NW
/** @deprecated since 0.2: enum #qubo_puzzle_queens_direction
 *  (`enum qubo_queens_direction` names it). */
#define qubo_queens_direction qubo_puzzle_queens_direction
/** @deprecated since 0.2: #QUBO_PUZZLE_WRAP_NONE, the same value: enum
 *  qubo_puzzle_wrap is the one wrap enum of every family. */
#define QUBO_QUEENS_PLANE QUBO_PUZZLE_WRAP_NONE
/** @deprecated since 0.2: #QUBO_PUZZLE_WRAP_CYLINDER, the same value. */
#define QUBO_QUEENS_CYLINDER QUBO_PUZZLE_WRAP_CYLINDER
/** @deprecated since 0.2: #QUBO_PUZZLE_WRAP_TORUS, the same value. */
#define QUBO_QUEENS_TORUS QUBO_PUZZLE_WRAP_TORUS
/** @deprecated since 0.2: enum #qubo_puzzle_wrap
 *  (`enum qubo_queens_wrap` names it). */
#define qubo_queens_wrap qubo_puzzle_wrap
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_REGION_COUNT, the same value. */
#define QUBO_QUEENS_REGION_COUNT QUBO_PUZZLE_QUEENS_REGION_COUNT
/** @deprecated since 0.2: #QUBO_PUZZLE_QUEENS_REGION_PAIRWISE, the same value. */
#define QUBO_QUEENS_REGION_PAIRWISE QUBO_PUZZLE_QUEENS_REGION_PAIRWISE
/** @deprecated since 0.2: enum #qubo_puzzle_queens_region_form
 *  (`enum qubo_queens_region_form` names it). */
#define qubo_queens_region_form qubo_puzzle_queens_region_form

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_QUEENS_H */
