/*
 * Private interface of the queens family (queens.c, queens_model.c,
 * queens_reduce.c, queens_text.c). Every queens puzzle, whether read from a
 * `queens` or `nqueens` file or built from a spec, becomes one general
 * instance: a board with on-board cells, pre-placed queens, count
 * constraints (rows, columns, regions) and attack reach per cell and
 * direction.
 */
#ifndef QUBO_PUZZLE_QUEENS_IMPL_H
#define QUBO_PUZZLE_QUEENS_IMPL_H

#include "puzzle_impl.h"
#include "qubo/puzzle/queens.h"

/* Where the instance came from (and so how it is written back). */
enum {
	QZ_SPEC = 0,   /* qubo_puzzle_queens_new() */
	QZ_QUEENS = 1, /* a `queens N [stars K]` file */
	QZ_NQUEENS = 2 /* an `nqueens N [torus|cylinder]` file */
};

/* Constraint kinds. */
enum {
	QZ_ROW = 0,
	QZ_COL = 1,
	QZ_REGION = 2
};

/* A count constraint over on-board cells: lo ≤ Σ x ≤ hi. */
struct qz_con {
	int32_t kind;
	uint32_t index; /* row, column or region number, 0-based */
	int32_t lo, hi;
	size_t start; /* into qz.con_cells */
	size_t count;
};

/* Propagation rules, for the white-box tests' counters. */
enum {
	QZ_RULE_CLUE = 0,   /* a pre-placed queen */
	QZ_RULE_COUNT = 1,  /* saturated or exhausted count */
	QZ_RULE_ATTACK = 2, /* attacked by a placed queen */
	QZ_RULE_SUBSET = 3, /* nested constraints */
	QZ_RULE_PROBE = 4,  /* a queen here would empty a constraint */
	QZ_NUM_RULES = 5
};

struct qz {
	uint32_t w, h;
	size_t n;	/* w × h */
	uint8_t *on;	/* n: 1 when the cell is on the board */
	uint8_t *given; /* n: 1 for a pre-placed queen */
	size_t ngiven;
	int32_t *row_cnt; /* h: count or QUBO_PUZZLE_QUEENS_ANY */
	int32_t *col_cnt; /* w */
	size_t nreg;
	size_t *reg_start;   /* nreg + 1, into reg_cells */
	uint32_t *reg_cells; /* on-board cells only */
	int32_t *reg_q;
	int32_t *reg_t;
	uint32_t reach[8];    /* every cell's reach, unless cell_reach */
	uint32_t *cell_reach; /* NULL or 8 n */
	int32_t wrap;
	int32_t region_form;
	int32_t kform;
	int32_t drop; /* index of the region left out of the model, or -1 */

	/* text form */
	int32_t kind;	  /* QZ_SPEC, QZ_QUEENS, QZ_NQUEENS */
	int32_t stars;	  /* `queens N stars K`: K (1 for plain queens) */
	const char *noun; /* "queen" or "star", for reports */

	/* derived: count constraints and cell membership */
	size_t ncon;
	struct qz_con *con;
	uint32_t *con_cells;
	size_t *memb_start; /* n + 1 */
	uint32_t *memb;	    /* constraint ids of each cell */
	/* derived: the conflict graph over on-board cells, both directions */
	size_t *adj_start; /* n + 1 */
	uint32_t *adj;

	size_t rule_fixes[QZ_NUM_RULES];
};

/* The reach of cell i in direction d. */
static inline uint32_t qz_reach(const struct qz *q, size_t i, int d)
{
	return q->cell_reach ? q->cell_reach[8 * i + (size_t)d] : q->reach[d];
}

/* Row and column steps of the eight directions. */
extern const int qubo__pz_qz_dr[8];
extern const int qubo__pz_qz_dc[8];

/* One step from (r, c) in direction d on the instance's board: 1 and the new
 * position, or 0 when the step leaves a board without wrap-around. */
static inline int qz_step(const struct qz *q, int d, uint32_t *r, uint32_t *c)
{
	int64_t nr = (int64_t)*r + qubo__pz_qz_dr[d];
	int64_t nc = (int64_t)*c + qubo__pz_qz_dc[d];

	if (q->wrap != QUBO_PUZZLE_WRAP_NONE) {
		nc = (nc + q->w) % q->w;
		if (q->wrap == QUBO_PUZZLE_WRAP_TORUS)
			nr = (nr + q->h) % q->h;
	}
	if (nr < 0 || nr >= q->h || nc < 0 || nc >= q->w)
		return 0;
	*r = (uint32_t)nr;
	*c = (uint32_t)nc;
	return 1;
}

/* "row 3", "column 2", "region c" or "region 4" (1-based, letters for
 * `queens` files). */
void qubo__pz_qz_con_name(const struct qz *q, const struct qz_con *con, char *buf, size_t cap);

/* Fixes cells by propagation. val (n bytes) receives -1 (free), 0 or 1 for
 * every cell; off-board cells are 0. level QUBO_REDUCE_CLUES applies the
 * pre-placed queens and their direct consequences (Prop. 2.1 of the second paper);
 * QUBO_REDUCE_FULL runs every rule to a fixpoint. Both keep exactly the
 * solution set. QUBO_ERR_INFEASIBLE (with a message naming the row, column
 * or region) when a contradiction shows up; QUBO_ERR_NOMEM. `counts`
 * (optional) receives the number of cells each rule fixed. ctl (optional)
 * is the build's: polled as the rules go, QUBO_TIME_LIMIT or QUBO_CANCELLED
 * when it stops them. */
int qubo__pz_qz_propagate(const struct qz *q, const qubo_allocator *a, int32_t level, int8_t *val,
			  size_t counts[QZ_NUM_RULES], struct qubo__pz_ctl *ctl);

/* A propagation's work space, made once and reused (a search's nodes). */
struct qubo__pz_qz_ws;
int qubo__pz_qz_ws_new(const struct qz *q, const qubo_allocator *a, struct qubo__pz_qz_ws **out);
void qubo__pz_qz_ws_free(const qubo_allocator *a, struct qubo__pz_qz_ws *ws);
/* qubo__pz_qz_propagate on a work space, from the caller's decisions:
 * decided (NULL: none) holds -1 or the value of each cell; off-board cells
 * may only be -1 or 0. quiet: QUBO_ERR_INFEASIBLE without a message. */
int qubo__pz_qz_propagate_ws(struct qubo__pz_qz_ws *ws, int32_t level, int8_t *val,
			     const int8_t *decided, int quiet, size_t counts[QZ_NUM_RULES]);
/* After a propagation that left free cells: the cell to branch on, the
 * first free cell of the constraint with the fewest free cells. */
size_t qubo__pz_qz_branch_ws(const struct qubo__pz_qz_ws *ws, const int8_t *val);

/* The model (queens_model.c), with the cells of `fixed` (NULL: none; else
 * -1 free, 0 or 1) as constants. At level NONE (fixed NULL) every on-board
 * cell is a variable and each pre-placed queen gets the clue term
 * P (1 − x). With model_out NULL only lits and *ground_out are filled. */
int qubo__pz_qz_build_model(const struct qz *q, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
			    double P, const int8_t *fixed, qubo_model **model_out, qubo_lit *lits,
			    double *ground_out);

/* queens_reduce.c: the exact search (branch and reduce). */
extern const struct qubo__pz_search_ops qubo__pz_qz_search_ops;

/* Creates the puzzle from a spec (checked here) and the text form. */
int qubo__pz_qz_create(qubo_puzzle **out, const qubo_puzzle_queens_spec *spec, int32_t kind,
		       int32_t stars, const struct qubo__pz_opts *opts, const char *fn);

/* The family tables (queens.c) and the text functions (queens_text.c). */
extern const struct qubo__pz_family qubo__pz_queens_family;
extern const struct qubo__pz_family qubo__pz_nqueens_family;
extern const struct qubo__pz_family qubo__pz_general_queens_family;

int qubo__pz_qz_format(const qubo_puzzle *p, qubo__sink *o);
void qubo__pz_qz_solution_header(const qubo_puzzle *p, qubo__sink *o);
int qubo__pz_qz_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line);
char qubo__pz_qz_solution_char(const qubo_puzzle *p, size_t cell, uint8_t value);
int qubo__pz_qz_solution_value(const qubo_puzzle *p, size_t cell, unsigned char ch);

/* Per-rule fix counts of a queens puzzle's propagation at FULL level (for
 * white-box tests): QUBO_OK, or QUBO_ERR_INVALID_ARG for another family. */
int qubo__pz_queens_rule_counts(const qubo_puzzle *p, size_t counts[QZ_NUM_RULES]);

#endif /* QUBO_PUZZLE_QUEENS_IMPL_H */
