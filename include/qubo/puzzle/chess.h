/**
 * @file qubo/puzzle/chess.h
 * @brief Chess piece problems: coloured chess pieces and max chess pieces,
 *        built from a spec struct.
 *
 * Coloured and max chess pieces are the chess piece problems of §2.6 of
 * the second QUBO paper, "A QUBO Formulation for the Generalized LinkedIn
 * Queens and Takuzu/Tango Game". Minimum domination, which uses the same
 * pieces, has its own header, qubo/puzzle/domination.h; this one includes
 * it, as it declared domination in 0.1.
 *
 * The text form (`chess WxH coloured|max`) is in doc/formats.md; this
 * header describes everything, including what the text form cannot say
 * (per-cell weights, the conflict weight λ, move sets given as numbers).
 *
 * Cells are numbered row-major: cell (r, c), 0-based, is r × width + c.
 * Rows grow downwards, columns to the right.
 *
 * Pieces and attacks. Every cell has a piece code (enum
 * qubo_puzzle_chess_piece, qubo/puzzle/pieces.h): the piece that may stand
 * there, or #QUBO_PUZZLE_CHESS_NONE when no piece may (such a cell is
 * effectively not on the board). A piece moves along a list of moves
 * (qubo_puzzle_chess_move): a move is an offset (row step, column step)
 * taken once (a leap, like the knight's) or repeated (a slide, like the
 * rook's). A piece attacks every cell its moves reach **on an empty
 * board**: other pieces and cells without a piece never block a slide (the
 * second paper treats attacks as reach; this also keeps the attack relation
 * independent of the placement, which a QUBO needs). A slide stops at the
 * board's edge; there is no wrap-around.
 *
 * Two occupied cells conflict when either piece attacks the other. The
 * conflict graph is the union of both directions, each pair once (the
 * papers' sum over ordered pairs counts a mutual attack twice).
 *
 * The models (doc/formulations.md has the proofs):
 * - coloured: P (Σ_{R} x − 1)² for every region R, plus P x_a x_b for every
 *   conflicting pair. Exact, ground energy 0.
 * - max: −Σ w_c x_c + λ Σ_{conflicts} x_a x_b. Exact (its minimisers are
 *   exactly the non-attacking placements of largest total weight) whenever
 *   λ > max w (the second paper, Proposition 2.3); smaller λ is rejected.
 *
 * The rule checker (qubo_puzzle_check()) says whether a board is a valid
 * placement: for coloured pieces a solution; for max pieces a non-attacking
 * placement (of any weight). Whether a valid placement is also optimal is
 * not the checker's business: compare its total weight with the best
 * known, e.g. the model's energy, which for a valid placement equals
 * −(total weight).
 */
#ifndef QUBO_PUZZLE_CHESS_H
#define QUBO_PUZZLE_CHESS_H

#include "../puzzle.h"
#include "domination.h"
#include "pieces.h"

QUBO_BEGIN_DECLS

/** Which chess piece problem a spec describes. */
enum qubo_puzzle_chess_mode {
	/** Exactly one piece per region, no two pieces attacking. */
	QUBO_PUZZLE_CHESS_MODE_COLOURED = 0,
	/** As many pieces (as much total weight) as possible, none attacking. */
	QUBO_PUZZLE_CHESS_MODE_MAX = 1
};

/**
 * A coloured or max chess pieces instance. Zero everywhere (besides
 * @c struct_size, @c width and @c height) is a coloured board of queens
 * without regions. Arrays are read during qubo_puzzle_chess_new() only; the
 * puzzle keeps copies.
 */
typedef struct qubo_puzzle_chess_spec {
	/** Set to sizeof(qubo_puzzle_chess_spec). */
	size_t struct_size;
	/** Number of columns, at least 1. */
	uint32_t width;
	/** Number of rows, at least 1. */
	uint32_t height;
	/** An enum qubo_puzzle_chess_mode value. */
	int32_t mode;
	/** NULL (a queen on every cell) or width × height piece codes: an enum
	 *  qubo_puzzle_chess_piece value, or #QUBO_PUZZLE_CHESS_CUSTOM + k for
	 *  move set k. */
	const int32_t *pieces;
	/** Number of custom move sets. */
	size_t num_move_sets;
	/** @c num_move_sets + 1 offsets into @c moves: set k is
	 *  moves[move_set_start[k]] … moves[move_set_start[k+1] − 1]. Starts at
	 *  0; a set may be empty (a piece that attacks nothing). NULL when
	 *  @c num_move_sets is 0. */
	const size_t *move_set_start;
	/** The moves of all sets; no move is (0, 0). */
	const qubo_puzzle_chess_move *moves;
	/** Coloured only: NULL (no regions) or width × height region numbers,
	 *  −1 for a cell in no region. The regions are 0 … R − 1 with R − 1 the
	 *  largest number used; each needs exactly one piece. Messages name a
	 *  region by this number. Must be NULL for max pieces. */
	const int32_t *regions;
	/** Max only: NULL (every weight 1) or width × height finite positive
	 *  weights (read for cells that may hold a piece). Must be NULL for
	 *  coloured pieces. */
	const double *weights;
	/** Max only: the conflict weight λ. 0 chooses λ = max w + P (P the
	 *  options' penalty, 1 by default), so 2 for unweighted boards; any
	 *  other value must be finite and larger than every weight. Must be 0
	 *  for coloured pieces. */
	double lambda;
	/** Pre-placed pieces: @c num_placed distinct cell indices, each of a
	 *  cell that may hold a piece. Every solution keeps them. */
	const uint32_t *placed;
	/** Number of pre-placed pieces. */
	size_t num_placed;
} qubo_puzzle_chess_spec;

/** Size of the first layout of qubo_puzzle_chess_spec (through
 *  @c num_placed), frozen: the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_PUZZLE_CHESS_SPEC_SIZE_V1 \
	(offsetof(qubo_puzzle_chess_spec, num_placed) + sizeof(size_t))

/** A spec with only @c struct_size set:
 *  `qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;` */
#define QUBO_PUZZLE_CHESS_SPEC_INIT                                                            \
	{                                                                                      \
		sizeof(qubo_puzzle_chess_spec), 0, 0, 0, NULL, 0, NULL, NULL, NULL, NULL, 0.0, \
			NULL, 0                                                                \
	}

/**
 * Builds a coloured or max chess pieces puzzle and its model.
 *
 * The family is #QUBO_PUZZLE_CHESS_COLOURED or #QUBO_PUZZLE_CHESS_MAX.
 * Pre-placed pieces are constants at every reduction level. The level
 * #QUBO_REDUCE_CLUES also fixes to 0 every cell a pre-placed piece attacks
 * or is attacked from and, for coloured pieces, the rest of its region;
 * #QUBO_REDUCE_FULL repeats that with the piece forced into a region left
 * with one free cell (coloured), and places a piece on every free cell
 * that no free or placed piece conflicts with (max: it is in every
 * optimum). These keep exactly the same solutions (coloured) or optimal
 * placements (max). The option @c drop_region is ignored.
 *
 * qubo_puzzle_ground_energy() gives 0 for coloured pieces and
 * #QUBO_ERR_NOT_SUPPORTED for max pieces, whose optimum is not known in
 * advance.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] spec the instance, with @c struct_size set.
 * @param[in] options optional; NULL for the defaults.
 * @return #QUBO_OK; #QUBO_ERR_INVALID_ARG (a malformed spec, a weight that
 *         is not positive, λ not above the largest weight: the message
 *         names the field and the value); #QUBO_ERR_INFEASIBLE (pre-placed
 *         pieces that attack each other or share a region, a region with
 *         no cell left for its piece); #QUBO_ERR_TOO_LARGE (more than 2^24
 *         cells, or a conflict graph beyond 2^26 entries, 2^25 attacks each
 *         way: counted from the board before the graph is listed);
 *         #QUBO_ERR_UNSUPPORTED_VERSION; #QUBO_ERR_NOMEM; #QUBO_ERR_MISUSE
 *         (NULL @p out or @p spec).
 * @since 0.1
 */
QUBO_API int qubo_puzzle_chess_new(qubo_puzzle **out, const qubo_puzzle_chess_spec *spec,
				   const qubo_puzzle_options *options);

/* The names of 0.1 (doc/abi.md, "Deprecation"). */
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_MODE_COLOURED, the same value. */
#define QUBO_CHESS_COLOURED QUBO_PUZZLE_CHESS_MODE_COLOURED
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_MODE_MAX, the same value. */
#define QUBO_CHESS_MAX QUBO_PUZZLE_CHESS_MODE_MAX
/** @deprecated since 0.2: enum #qubo_puzzle_chess_mode
 *  (`enum qubo_chess_mode` names it). */
#define qubo_chess_mode qubo_puzzle_chess_mode

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_CHESS_H */
