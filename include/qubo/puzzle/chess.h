/**
 * @file qubo/puzzle/chess.h
 * @brief Chess piece problems: coloured chess pieces, max chess pieces
 *        and minimum domination, built from a spec struct.
 *
 * Coloured and max chess pieces are the chess piece problems of §2.6 of
 * the second QUBO paper, "A QUBO Formulation for the Generalized LinkedIn
 * Queens and Takuzu/Tango Game".
 * Minimum domination is the minimum dominating set of queens, known from
 * its formulation as a mixed integer program (8 × 8 needs 5 queens, in
 * 4860 optimal placements), generalised here to every piece.
 *
 * The text forms (`chess WxH coloured|max` and `domination N [PIECE]`) are
 * in doc/formats.md; this header describes everything, including what the
 * text forms cannot say (per-cell weights, the conflict weight λ, move sets
 * given as numbers, the domination slack form).
 *
 * Cells are numbered row-major: cell (r, c), 0-based, is r × width + c.
 * Rows grow downwards, columns to the right.
 *
 * Pieces and attacks. Every cell has a piece code (enum qubo_chess_piece):
 * the piece that may stand there, or #QUBO_CHESS_NONE when no piece may
 * (such a cell is effectively not on the board). A piece moves along a
 * list of moves (qubo_chess_move): a move is an offset (row step, column
 * step) taken once (a leap, like the knight's) or repeated (a slide, like
 * the rook's). The built-in pieces: the queen slides in the 8 directions,
 * the rook in the 4 orthogonal ones, the bishop in the 4 diagonal ones, the
 * king steps once in the 8 directions, the knight leaps by (±1, ±2) and
 * (±2, ±1). A piece attacks every cell its moves reach **on an empty
 * board**: other pieces and cells without a piece never block a slide
 * (the second paper treats attacks as reach; this also keeps the attack relation
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
 * - domination: Σ x_c + (1 + P) Σ_c (Σ_{c' ∈ N[c]} x_c' − 1 − s_c)², with
 *   N[c] the cell c and every cell whose piece attacks c, and s_c a binary
 *   slack number. Exact: its minimisers, with the slack dropped, are
 *   exactly the smallest dominating sets.
 *
 * The rule checker (qubo_puzzle_check()) says whether a board is a valid
 * placement: for coloured pieces a solution; for max pieces a non-attacking
 * placement (of any weight); for domination a dominating set (of any size).
 * Whether a valid placement is also optimal is not the checker's business:
 * compare its objective (total weight, or number of pieces) with the best
 * known, e.g. the model's energy, which for a valid placement equals
 * −(total weight) (max) or the number of pieces (domination, with the best
 * slack).
 */
#ifndef QUBO_PUZZLE_CHESS_H
#define QUBO_PUZZLE_CHESS_H

#include "../puzzle.h"

QUBO_BEGIN_DECLS

/** Piece codes. Zero is the queen, so a zeroed piece array is a board of
 *  queens. Custom move set k (0-based) has the code #QUBO_CHESS_CUSTOM + k. */
enum qubo_chess_piece {
	/** No piece may stand on the cell (it is not on the board). */
	QUBO_CHESS_NONE = -1,
	/** Slides in the 8 directions. */
	QUBO_CHESS_QUEEN = 0,
	/** Slides up, down, left and right. */
	QUBO_CHESS_ROOK = 1,
	/** Slides along the 4 diagonals. */
	QUBO_CHESS_BISHOP = 2,
	/** Leaps by (±1, ±2) and (±2, ±1). */
	QUBO_CHESS_KNIGHT = 3,
	/** Steps once in the 8 directions. */
	QUBO_CHESS_KING = 4
};

/** The piece code of custom move set 0; set k has code QUBO_CHESS_CUSTOM + k. */
#define QUBO_CHESS_CUSTOM 16

/** Which chess piece problem a spec describes. */
enum qubo_chess_mode {
	/** Exactly one piece per region, no two pieces attacking. */
	QUBO_CHESS_COLOURED = 0,
	/** As many pieces (as much total weight) as possible, none attacking. */
	QUBO_CHESS_MAX = 1
};

/** How the domination model encodes "at least one". */
enum qubo_domination_slack {
	/** The default: the slack of cell c counts up to min(|N[c]|, g) − 1,
	 *  where g is the size of a dominating set found greedily when the
	 *  model is built (no smallest dominating set covers a cell more than
	 *  g times); fewer slack variables, still exact. */
	QUBO_DOMINATION_SLACK_TIGHT = 0,
	/** The slack of cell c counts up to |N[c]| − 1 (the plain range
	 *  1 ≤ Σ ≤ |N[c]|). */
	QUBO_DOMINATION_SLACK_FULL = 1
};

/** One move of a custom piece. */
typedef struct qubo_chess_move {
	/** Row step: negative up, positive down. */
	int32_t drow;
	/** Column step: negative left, positive right. */
	int32_t dcol;
	/** 0: the piece reaches the one cell at this offset (a leap); 1: it
	 *  reaches every cell at k × offset, k = 1, 2, … up to the board's
	 *  edge (a slide). */
	int32_t slide;
} qubo_chess_move;

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
	/** An enum qubo_chess_mode value. */
	int32_t mode;
	/** NULL (a queen on every cell) or width × height piece codes: an enum
	 *  qubo_chess_piece value, or #QUBO_CHESS_CUSTOM + k for move set k. */
	const int32_t *pieces;
	/** Number of custom move sets. */
	size_t num_move_sets;
	/** @c num_move_sets + 1 offsets into @c moves: set k is
	 *  moves[move_set_start[k]] … moves[move_set_start[k+1] − 1]. Starts at
	 *  0; a set may be empty (a piece that attacks nothing). NULL when
	 *  @c num_move_sets is 0. */
	const size_t *move_set_start;
	/** The moves of all sets; no move is (0, 0). */
	const qubo_chess_move *moves;
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

/**
 * A minimum domination instance: place as few pieces as possible so that
 * every cell on the board holds one or is attacked by one. Zero everywhere
 * (besides @c struct_size, @c width and @c height) is the classic problem
 * of dominating queens.
 */
typedef struct qubo_puzzle_domination_spec {
	/** Set to sizeof(qubo_puzzle_domination_spec). */
	size_t struct_size;
	/** Number of columns, at least 1. */
	uint32_t width;
	/** Number of rows, at least 1. */
	uint32_t height;
	/** NULL (every cell is on the board) or width × height bytes, nonzero
	 *  for a cell that is not on the board: it holds no piece and needs no
	 *  cover, and it does not block a slide. */
	const uint8_t *off_board;
	/** The piece of every cell: #QUBO_CHESS_QUEEN (0) … #QUBO_CHESS_KING,
	 *  or #QUBO_CHESS_CUSTOM for the moves below. */
	int32_t piece;
	/** #QUBO_CHESS_CUSTOM only: the number of moves. */
	size_t num_moves;
	/** #QUBO_CHESS_CUSTOM only: the moves; no move is (0, 0). */
	const qubo_chess_move *moves;
	/** An enum qubo_domination_slack value. */
	int32_t slack;
} qubo_puzzle_domination_spec;

/** Size of the first layout of qubo_puzzle_domination_spec (through
 *  @c slack), frozen: the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_PUZZLE_DOMINATION_SPEC_SIZE_V1 \
	(offsetof(qubo_puzzle_domination_spec, slack) + sizeof(int32_t))

/** A spec with only @c struct_size set:
 *  `qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;` */
#define QUBO_PUZZLE_DOMINATION_SPEC_INIT                                       \
	{                                                                      \
		sizeof(qubo_puzzle_domination_spec), 0, 0, NULL, 0, 0, NULL, 0 \
	}

/**
 * Builds a minimum domination puzzle (family #QUBO_PUZZLE_DOMINATION) and
 * its model.
 *
 * Every on-board cell is a variable, followed by the slack variables of
 * each cell's cover term (qubo_penalty_range()); the reduction level and
 * @c drop_region are ignored. The cover terms have weight 1 + P (P the
 * options' penalty, 1 by default) against a cost of 1 per piece, so that
 * every board that leaves a cell uncovered has energy at least γ + P, γ
 * the domination number, while a smallest dominating set has energy γ.
 *
 * qubo_puzzle_ground_energy() gives γ when it is known without search:
 * queens on a full n × n board with n ≤ 12 (1, 1, 1, 2, 3, 3, 4, 5, 5, 5,
 * 5, 6), rooks on a full board (min(width, height)), kings on a full board
 * (⌈width/3⌉ × ⌈height/3⌉), and 0 for a board without cells;
 * #QUBO_ERR_NOT_SUPPORTED otherwise.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] spec the instance, with @c struct_size set.
 * @param[in] options optional; NULL for the defaults.
 * The model is exact but hard for single-flip solvers: every piece that
 * moves disturbs the slack of every cell it covers. The built-in "sa" finds
 * the smallest sets of queens up to 5 × 5 and dominating sets of a few
 * more queens beyond (measurements in doc/formulations.md).
 *
 * A board with no cell on it is dominated by no piece (γ = 0); no instance
 * is infeasible, since a piece on every cell dominates the board.
 * @return #QUBO_OK; #QUBO_ERR_INVALID_ARG (a malformed spec);
 *         #QUBO_ERR_TOO_LARGE (more than 2^24 cells, an attack graph
 *         beyond 2^26 entries, or cover terms that would expand to more
 *         than 2^25 pairwise terms, as queens on a 49 × 49 board do; both
 *         counted from the board before the graph is listed);
 *         #QUBO_ERR_UNSUPPORTED_VERSION; #QUBO_ERR_NOMEM;
 *         #QUBO_ERR_MISUSE (NULL @p out or @p spec).
 * @since 0.1
 */
QUBO_API int qubo_puzzle_domination_new(qubo_puzzle **out, const qubo_puzzle_domination_spec *spec,
					const qubo_puzzle_options *options);

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_CHESS_H */
