/**
 * @file qubo/puzzle/pieces.h
 * @brief Chess pieces and their moves: the piece codes and the custom moves
 *        of the chess piece problems (qubo/puzzle/chess.h) and of minimum
 *        domination (qubo/puzzle/domination.h).
 *
 * A piece moves along a list of moves (qubo_puzzle_chess_move): a move is an
 * offset (row step, column step) taken once (a leap, like the knight's) or
 * repeated (a slide, like the rook's). The built-in pieces: the queen slides
 * in the 8 directions, the rook in the 4 orthogonal ones, the bishop in the
 * 4 diagonal ones, the king steps once in the 8 directions, the knight leaps
 * by (±1, ±2) and (±2, ±1). A piece attacks every cell its moves reach on an
 * empty board (qubo/puzzle/chess.h says why); a slide stops at the board's
 * edge.
 */
#ifndef QUBO_PUZZLE_PIECES_H
#define QUBO_PUZZLE_PIECES_H

#include "../puzzle.h"

QUBO_BEGIN_DECLS

/** Piece codes. Zero is the queen, so a zeroed piece array is a board of
 *  queens. Custom move set k (0-based) has the code #QUBO_PUZZLE_CHESS_CUSTOM + k. */
enum qubo_puzzle_chess_piece {
	/** No piece may stand on the cell (it is not on the board). */
	QUBO_PUZZLE_CHESS_NONE = -1,
	/** Slides in the 8 directions. */
	QUBO_PUZZLE_CHESS_QUEEN = 0,
	/** Slides up, down, left and right. */
	QUBO_PUZZLE_CHESS_ROOK = 1,
	/** Slides along the 4 diagonals. */
	QUBO_PUZZLE_CHESS_BISHOP = 2,
	/** Leaps by (±1, ±2) and (±2, ±1). */
	QUBO_PUZZLE_CHESS_KNIGHT = 3,
	/** Steps once in the 8 directions. */
	QUBO_PUZZLE_CHESS_KING = 4
};

/** The piece code of custom move set 0; set k has code QUBO_PUZZLE_CHESS_CUSTOM + k. */
#define QUBO_PUZZLE_CHESS_CUSTOM 16

/** One move of a custom piece. The struct keeps its 0.1 tag, `struct
 *  qubo_chess_move`, which is part of the ABI's type names; write the type as
 *  qubo_puzzle_chess_move. */
typedef struct qubo_chess_move {
	/** Row step: negative up, positive down. */
	int32_t drow;
	/** Column step: negative left, positive right. */
	int32_t dcol;
	/** 0: the piece reaches the one cell at this offset (a leap); 1: it
	 *  reaches every cell at k × offset, k = 1, 2, … up to the board's
	 *  edge (a slide). */
	int32_t slide;
} qubo_puzzle_chess_move;

/* The names of 0.1 (doc/abi.md, "Deprecation"). */
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_NONE, the same value. */
#define QUBO_CHESS_NONE QUBO_PUZZLE_CHESS_NONE
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_QUEEN, the same value. */
#define QUBO_CHESS_QUEEN QUBO_PUZZLE_CHESS_QUEEN
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_ROOK, the same value. */
#define QUBO_CHESS_ROOK QUBO_PUZZLE_CHESS_ROOK
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_BISHOP, the same value. */
#define QUBO_CHESS_BISHOP QUBO_PUZZLE_CHESS_BISHOP
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_KNIGHT, the same value. */
#define QUBO_CHESS_KNIGHT QUBO_PUZZLE_CHESS_KNIGHT
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_KING, the same value. */
#define QUBO_CHESS_KING QUBO_PUZZLE_CHESS_KING
/** @deprecated since 0.2: #QUBO_PUZZLE_CHESS_CUSTOM, the same value. */
#define QUBO_CHESS_CUSTOM QUBO_PUZZLE_CHESS_CUSTOM
/** @deprecated since 0.2: enum #qubo_puzzle_chess_piece
 *  (`enum qubo_chess_piece` names it). */
#define qubo_chess_piece qubo_puzzle_chess_piece
/** @deprecated since 0.2: #qubo_puzzle_chess_move, the same type. */
typedef struct qubo_chess_move qubo_chess_move;

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_PIECES_H */
