/**
 * @file qubo/puzzle/tents.h
 * @brief Tents & Trees built from a spec struct, with the choice between the
 *        exact model and the neighbourhood-only relaxation.
 *
 * The text form (`tents WxH`, then the `cols` and `rows` lines and the grid)
 * is in doc/formats.md and reads through qubo_puzzle_parse(); this header
 * builds the same puzzles from numbers, and is the only way to ask for the
 * relaxed model, which the text format has no word for.
 *
 * Cells are numbered row-major: cell (r, c), 0-based, is r × width + c.
 * Rows grow downwards, columns to the right.
 *
 * Rules: tents stand on cells without a tree; every tree gets exactly one
 * tent orthogonally next to it and every tent belongs to exactly one such
 * tree (a perfect matching between trees and tents along orthogonal
 * adjacency); no two tents touch, not even diagonally; row r holds exactly
 * row_counts[r] tents and column c exactly col_counts[c]. A board is 1 where
 * a tent stands. qubo_puzzle_check() checks exactly these rules, the
 * matching included, whichever model was built.
 *
 * The exact model (the default; doc/formulations.md, and "A QUBO
 * Formulation for the Generalized LinkedIn Queens and Takuzu/Tango Game",
 * §2.5, Prop. 2.2): a variable x_c for every cell without a tree and an
 * assignment variable y_tc for every tree t and every cell c without a tree
 * orthogonally next to it, after the cell variables:
 *   P Σ_t (Σ_c y_tc − 1)²   every tree is given exactly one tent,
 *   P Σ_c (Σ_t y_tc − x_c)²  a tent is given to exactly one tree, an empty
 *                            cell to none,
 *   P Σ x_a x_b              over king-adjacent pairs (tents never touch),
 *   P (Σ x − R)² per row and P (Σ x − C)² per column.
 * Every term is 0 exactly when its rule holds and at least P otherwise, so
 * the minimisers are exactly the solutions (with a matching that shows it)
 * and qubo_puzzle_ground_energy() is 0. With #QUBO_REDUCE_NONE the
 * variables are, in this order: the cells without a tree, row-major; then
 * the y_tc tree by tree (trees row-major), each tree's cells in the order
 * up, left, right, down. The reduced models keep this order and leave out
 * what the reduction fixed.
 *
 * The relaxed model (@c relaxed = 1) has no y: every tree's orthogonal
 * neighbourhood holds one or two tents, P (S_t − 1)(S_t − 2), plus the same
 * no-touch and count terms. Every solution is one of its minimisers (a tree
 * has its own tent beside it, and no-touch leaves room for at most two),
 * at energy 0, but so are boards where two trees share one tent and
 * another tree has two: the matching is not enforced, so the model is only a
 * relaxation, kept for comparing formulations. It has fewer variables and
 * couplers. The puzzle's rules and its checker stay those of Tents & Trees;
 * see qubo_puzzle_tents_new() for what that means for solving and counting.
 */
#ifndef QUBO_PUZZLE_TENTS_H
#define QUBO_PUZZLE_TENTS_H

#include "../puzzle.h"

QUBO_BEGIN_DECLS

/**
 * A Tents & Trees instance. Arrays are read during qubo_puzzle_tents_new()
 * only; the puzzle keeps copies.
 */
typedef struct qubo_puzzle_tents_spec {
	/** Set to sizeof(qubo_puzzle_tents_spec) (or
	 *  #QUBO_PUZZLE_TENTS_SPEC_SIZE_V1). */
	size_t struct_size;
	/** Number of columns, at least 1. */
	uint32_t width;
	/** Number of rows, at least 1. */
	uint32_t height;
	/** The trees: @c num_trees distinct cell indices. */
	const uint32_t *trees;
	/** Number of trees. */
	size_t num_trees;
	/** @c height counts: row r must hold exactly row_counts[r] tents, from
	 *  0 to @c width. */
	const int32_t *row_counts;
	/** @c width counts: column c must hold exactly col_counts[c] tents,
	 *  from 0 to @c height. */
	const int32_t *col_counts;
	/** 0: the exact model with assignment variables; 1: the relaxed model
	 *  without them (see the top of this file). */
	int32_t relaxed;
} qubo_puzzle_tents_spec;

/** Size of the first layout of qubo_puzzle_tents_spec (through
 *  @c relaxed), frozen: the smallest @c struct_size accepted. @since 0.1 */
#define QUBO_PUZZLE_TENTS_SPEC_SIZE_V1 \
	(offsetof(qubo_puzzle_tents_spec, relaxed) + sizeof(int32_t))

/** A spec with only @c struct_size set:
 *  `qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;` */
#define QUBO_PUZZLE_TENTS_SPEC_INIT {sizeof(qubo_puzzle_tents_spec), 0, 0, NULL, 0, NULL, NULL, 0}

/**
 * Builds a Tents & Trees puzzle (family #QUBO_PUZZLE_TENTS) and its model.
 *
 * The spec is checked first, every problem named in the message. A spec that
 * is well formed but has no solution that the reduction can see gives
 * #QUBO_ERR_INFEASIBLE with a message naming the row, column or tree
 * (1-based): row or column counts that do not add up to the number of trees,
 * a count more than its row or column can hold once the trees and the rule
 * that tents never stand side by side are taken into account (a count
 * beyond the line's length is a malformed spec), a tree with no free cell
 * beside it,
 * or a contradiction the full reduction finds (whatever the reduction level:
 * the level decides only which fixed cells become constants). Other
 * instances without solutions still build; their model's minimum is then
 * above 0.
 *
 * Reduction levels: #QUBO_REDUCE_NONE keeps every cell without a tree as a
 * variable; #QUBO_REDUCE_CLUES fixes to 0 the cells next to no tree and the
 * cells of rows and columns that need no tent; #QUBO_REDUCE_FULL (the
 * default) runs the rules of doc/formulations.md to a fixpoint (saturated
 * rows and columns, lines whose free cells are all needed, cells next to a
 * tent, a tree with one possible cell, cells no tree can take, cells that
 * touch every cell a tree may take, the tent–tree matching), each of
 * which keeps exactly the solutions, and fixes the assignment variables the
 * fixed cells decide. The option @c drop_region is ignored.
 *
 * The relaxed model: qubo_puzzle_ground_energy() is 0, the energy of every
 * solution, but a sample at that energy need not be a solution.
 * qubo_puzzle_solve() therefore searches a relaxed puzzle exactly at once
 * (#QUBO_PUZZLE_STRATEGY_AUTO); sampling it (#QUBO_PUZZLE_STRATEGY_SAMPLE)
 * stops at the first sample of that energy and reports
 * #QUBO_PUZZLE_NOT_FOUND, with the sample's board and the rules it breaks,
 * when that sample is no solution. qubo_puzzle_count() counts solutions
 * whichever its method: enumeration passes over the ground states that break
 * a rule.
 * @param[out] out receives the puzzle; NULL on failure.
 * @param[in] spec the instance, with @c struct_size set.
 * @param[in] options optional; NULL for the defaults.
 * @return #QUBO_OK; #QUBO_ERR_INVALID_ARG (a malformed spec: a NULL array,
 *         a count out of range, a tree listed twice or off the board, a
 *         @c relaxed flag other than 0 or 1); #QUBO_ERR_INFEASIBLE;
 *         #QUBO_ERR_TOO_LARGE (more than 2^24 cells);
 *         #QUBO_ERR_UNSUPPORTED_VERSION (struct sizes); #QUBO_ERR_NOMEM;
 *         #QUBO_ERR_MISUSE (NULL @p out or @p spec).
 * @since 0.1
 */
QUBO_API int qubo_puzzle_tents_new(qubo_puzzle **out, const qubo_puzzle_tents_spec *spec,
				   const qubo_puzzle_options *options);

QUBO_END_DECLS

#endif /* QUBO_PUZZLE_TENTS_H */
