/*
 * Private interface of the Tents & Trees family (tents.c, tents_reduce.c,
 * tents_text.c). A puzzle from a `tents WxH` file or from a spec becomes one
 * instance: the board, its trees, the row and column counts, and for every
 * tree the cells without a tree orthogonally next to it (its candidates).
 */
#ifndef QUBO_PUZZLE_TENTS_IMPL_H
#define QUBO_PUZZLE_TENTS_IMPL_H

#include "puzzle_impl.h"
#include "qubo/puzzle/tents.h"

/* Where the instance came from. */
enum {
	TT_SPEC = 0, /* qubo_puzzle_tents_new() */
	TT_TEXT = 1  /* a `tents WxH` file */
};

/* Propagation rules, for the white-box counters (cells each one fixed). */
enum {
	TT_RULE_CLUE = 0,   /* next to no tree, or in a line that needs no tent */
	TT_RULE_COUNT = 1,  /* saturated line, or a line that needs every run full */
	TT_RULE_TOUCH = 2,  /* next to a tent */
	TT_RULE_TREE = 3,   /* a tree with one possible cell, or a cell no tree can own */
	TT_RULE_COMMON = 4, /* touches every possible cell of some tree */
	TT_NUM_RULES = 5
};

/* The four orthogonal steps, in row-major order of the neighbour: up, left,
 * right, down. A tree's candidate k (bit k of its masks) is its step k. */
extern const int qubo__pz_tt_dr[4];
extern const int qubo__pz_tt_dc[4];

struct qubo__pz_tt_ws;

struct tt {
	uint32_t w, h;
	size_t n;	 /* w × h */
	uint8_t *tree;	 /* n: 1 on a tree */
	int32_t *rows;	 /* h counts */
	int32_t *cols;	 /* w counts */
	size_t ntrees;
	uint32_t *tree_cell; /* ntrees: the trees' cells, row-major */
	/* ntrees × 4: the cell of each candidate (UINT32_MAX where the step
	 * leaves the board or lands on a tree) */
	uint32_t *cand;
	uint8_t *cand_mask; /* ntrees: the bits of the existing candidates */
	/* per cell: up to 4 (tree, step) entries of the trees it is a
	 * candidate of, as tree × 4 + step; count in own_n */
	uint32_t *own;
	uint8_t *own_n;
	int32_t relaxed;
	int32_t kind; /* TT_SPEC or TT_TEXT */
	size_t rule_fixes[TT_NUM_RULES];
	/* the checker's matching lives with the instance, so that a check
	 * cannot fail for want of memory (a puzzle is used from one thread at
	 * a time) */
	struct qubo__pz_tt_ws *check_ws;
};

/* "row 3, column 5" for messages (1-based). */
void qubo__pz_tt_where(const struct tt *t, size_t cell, char *buf, size_t cap);
/* "s" unless n is 1, for "%lld tent%s". */
const char *qubo__pz_tt_s(int64_t n);
/* The bits set in a 4-bit candidate mask. */
int qubo__pz_tt_popcount(unsigned m);

/* A propagation's work space, made once and reused (a search's nodes).
 * ctl (NULL: none) is the build's time limit and progress, which its
 * propagations poll once a round and during the matching. */
int qubo__pz_tt_ws_new(const struct tt *t, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       struct qubo__pz_tt_ws **out);
void qubo__pz_tt_ws_free(const qubo_allocator *a, struct qubo__pz_tt_ws *ws);

/*
 * Fixes cells by propagation. val (n bytes) holds -1 (free), 0 or 1 for
 * every cell on entry (the caller's decisions; tree cells may only be -1 or
 * 0) and the fixpoint on return; tree cells are 0. Level QUBO_REDUCE_CLUES
 * fixes the cells next to no tree and those of lines that need no tent;
 * QUBO_REDUCE_FULL runs every rule to a fixpoint, and when every cell is
 * decided it checks the whole board (counts, no touching, the matching), so
 * a complete val on QUBO_OK is a solution. Both keep exactly the solutions
 * that agree with val. QUBO_ERR_INFEASIBLE (a message naming the place
 * unless quiet), QUBO_TIME_LIMIT or QUBO_CANCELLED when the work space's
 * ctl stopped it, QUBO_ERR_NOMEM never (the work space holds everything).
 * counts (optional) receives the cells each rule fixed. ymask (optional,
 * ntrees bytes, FULL only) receives each tree's possible candidates at the
 * fixpoint: a bit cleared is an assignment that no solution agreeing with
 * val needs. When every cell is decided, each tree keeps only the candidate
 * of one matching that shows the board valid (a board may have several).
 */
int qubo__pz_tt_propagate(struct qubo__pz_tt_ws *ws, int32_t level, int8_t *val, int quiet,
			  size_t counts[TT_NUM_RULES], uint8_t *ymask);

/* A maximum matching between the trees and the tents of a board (1 on a
 * cell without a tree): afterwards qubo__pz_tt_mate_tree (a tree's cell) and
 * qubo__pz_tt_mate_cell (a cell's tree) give each one's partner, or
 * UINT32_MAX for those left unpaired. */
void qubo__pz_tt_match_board(struct qubo__pz_tt_ws *ws, const uint8_t *board);
uint32_t qubo__pz_tt_mate_tree(const struct qubo__pz_tt_ws *ws, size_t tree);
uint32_t qubo__pz_tt_mate_cell(const struct qubo__pz_tt_ws *ws, size_t cell);

/* After a FULL propagation that left free cells: the free cell to branch
 * on. */
size_t qubo__pz_tt_branch(struct qubo__pz_tt_ws *ws, const int8_t *val);

/* The family table (tents.c) and the text functions (tents_text.c; the
 * parser qubo__pz_tents_parse is declared in puzzle_impl.h). */
extern const struct qubo__pz_family qubo__pz_tents_family;

/* Creates the puzzle from a spec (checked here; fn names the caller). */
int qubo__pz_tt_create(qubo_puzzle **out, const qubo_puzzle_tents_spec *spec, int32_t kind,
		       const struct qubo__pz_opts *opts, const char *fn);

int qubo__pz_tt_format(const qubo_puzzle *p, qubo__sink *o);
void qubo__pz_tt_solution_header(const qubo_puzzle *p, qubo__sink *o);
int qubo__pz_tt_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line);
void qubo__pz_tt_solution_grid(const qubo_puzzle *p, const uint8_t *board, qubo__sink *o);
int qubo__pz_tt_solution_read(const qubo_puzzle *p, struct qubo__pz_reader *r,
			      const struct qubo__pz_line *first, uint8_t *board);

/* Per-rule fix counts of a tents puzzle's FULL propagation at creation (for
 * white-box tests): QUBO_OK, or QUBO_ERR_INVALID_ARG for another family. */
int qubo__pz_tents_rule_counts(const qubo_puzzle *p, size_t counts[TT_NUM_RULES]);

#endif /* QUBO_PUZZLE_TENTS_IMPL_H */
