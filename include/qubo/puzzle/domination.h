/**
 * @file qubo/puzzle/domination.h
 * @brief Minimum domination: as few pieces as possible so that every cell
 *        holds one or is attacked by one, built from a spec struct.
 *
 * Minimum domination is the minimum dominating set of queens, known from
 * its formulation as a mixed integer program (8 × 8 needs 5 queens, in
 * 4860 optimal placements), generalised here to every piece
 * (qubo/puzzle/pieces.h). The text form (`domination N [PIECE]`) is in
 * doc/formats.md; this header describes everything, including what the
 * text form cannot say (off-board cells, move sets given as numbers, the
 * slack form).
 *
 * Cells are numbered row-major: cell (r, c), 0-based, is r × width + c.
 * Attacks are those of the chess piece problems (qubo/puzzle/chess.h): a
 * piece attacks every cell its moves reach on an empty board.
 *
 * The model (doc/formulations.md has the proof):
 * Σ x_c + (1 + P) Σ_c (Σ_{c' ∈ N[c]} x_c' − 1 − s_c)², with N[c] the cell
 * c and every cell whose piece attacks c, and s_c a binary slack number.
 * Exact: its minimisers, with the slack dropped, are exactly the smallest
 * dominating sets. The rule checker (qubo_puzzle_check()) accepts every
 * dominating set, of any size.
 */
#ifndef QUBO_PUZZLE_DOMINATION_H
#define QUBO_PUZZLE_DOMINATION_H

#include "../puzzle.h"
#include "pieces.h"

QUBO_BEGIN_DECLS

/** How the domination model encodes "at least one". */
enum qubo_puzzle_domination_slack {
	/** The default: the slack of cell c counts up to min(|N[c]|, g) − 1,
	 *  where g is the size of a dominating set found greedily when the
	 *  model is built (no smallest dominating set covers a cell more than
	 *  g times); fewer slack variables, still exact. */
	QUBO_PUZZLE_DOMINATION_SLACK_TIGHT = 0,
	/** The slack of cell c counts up to |N[c]| − 1 (the plain range
	 *  1 ≤ Σ ≤ |N[c]|). */
	QUBO_PUZZLE_DOMINATION_SLACK_FULL = 1
};

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
	/** The piece of every cell: #QUBO_PUZZLE_CHESS_QUEEN (0) … #QUBO_PUZZLE_CHESS_KING,
	 *  or #QUBO_PUZZLE_CHESS_CUSTOM for the moves below. */
	int32_t piece;
	/** #QUBO_PUZZLE_CHESS_CUSTOM only: the number of moves. */
	size_t num_moves;
	/** #QUBO_PUZZLE_CHESS_CUSTOM only: the moves; no move is (0, 0). */
	const qubo_puzzle_chess_move *moves;
	/** An enum qubo_puzzle_domination_slack value. */
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

/* The names of 0.1 (doc/abi.md, "Deprecation"). */
/** @deprecated since 0.2: #QUBO_PUZZLE_DOMINATION_SLACK_TIGHT, the same value. */
#define QUBO_DOMINATION_SLACK_TIGHT QUBO_PUZZLE_DOMINATION_SLACK_TIGHT
/** @deprecated since 0.2: #QUBO_PUZZLE_DOMINATION_SLACK_FULL, the same value. */
#define QUBO_DOMINATION_SLACK_FULL QUBO_PUZZLE_DOMINATION_SLACK_FULL
/** @deprecated since 0.2: enum #qubo_puzzle_domination_slack
 *  (`enum qubo_domination_slack` names it). */
#define qubo_domination_slack qubo_puzzle_domination_slack

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_DOMINATION_H */
