/*
 * Private interface of the binary-grid families (binary.c, binary_reduce.c,
 * binary_text.c): Takuzu (Binairo, Unruly) and LinkedIn Tango
 * (§3 of the second paper cited in doc/formulations.md). Both become one
 * instance, a board of 0/1 cells with
 *  - a count per row and per column (the ones it needs, or none);
 *  - windows: cell triples that may not be all equal (the horizontal and
 *    vertical windows of three for the text formats; any triple, so that
 *    diagonal or wrapped windows need no new code);
 *  - relations: "equal" or "differ" between any two cells (Tango's signs);
 *  - clues: cells given as 0 or 1;
 *  - optionally, rows pairwise distinct and columns pairwise distinct
 *    (classical Takuzu).
 * The relations are folded into parity classes (qubo/parity.h): every cell
 * is its class representative or its complement, so the reduced model has
 * one variable per free class.
 */
#ifndef QUBO_PUZZLE_BINARY_IMPL_H
#define QUBO_PUZZLE_BINARY_IMPL_H

#include "puzzle_impl.h"

/* Where the instance came from (and so how it is written back). */
enum {
	BN_TAKUZU = 0, /* a `takuzu` file */
	BN_TANGO = 1,  /* a `tango` file */
	BN_SPEC = 2    /* qubo_puzzle_binary_new(): no text form */
};

/* x_a = x_b (differ 0) or x_a ≠ x_b (differ 1), a < b. */
struct bn_rel {
	uint32_t a, b;
	int32_t differ;
};

/* Propagation rules, for the white-box tests' counters. */
enum {
	BN_RULE_GIVEN = 0,    /* a clue (or a search's decision) */
	BN_RULE_PARITY = 1,   /* the class of a fixed cell */
	BN_RULE_COUNT = 2,    /* a row or column with all its ones or zeros */
	BN_RULE_WINDOW = 3,   /* two equal cells of a window force the third */
	BN_RULE_DISTINCT = 4, /* a line that would equal a complete one */
	BN_RULE_LINE = 5,     /* the same value in every completion of a line */
	BN_NUM_RULES = 6
};

/* What an instance is made from (the text parsers fill one). */
struct bn_spec {
	uint32_t width, height;
	int32_t kind;		 /* BN_TAKUZU or BN_TANGO */
	int32_t distinct;	 /* 1: rows and columns pairwise distinct */
	const int8_t *clues;	 /* width × height: -1, 0 or 1; NULL: none */
	const int32_t *row_ones; /* height counts (-1: none); NULL: width / 2 each */
	const int32_t *col_ones; /* width counts; NULL: height / 2 each */
	const uint32_t *windows; /* 3 × num_windows cells; NULL: rows and columns */
	size_t num_windows;
	const struct bn_rel *rels;
	size_t num_rels;
	/* regions with counts: width × height region numbers (-1: none) and
	 * num_regions counts (-1: none); NULL / 0: no regions */
	const int32_t *regions;
	const int32_t *region_ones;
	size_t num_regions;
	/* Tango's text form: the sign right of each cell and below it (' ',
	 * '=' or 'x'); NULL for Takuzu */
	const uint8_t *hsign, *vsign;
};

struct bn {
	uint32_t w, h;
	size_t n; /* w × h */
	int32_t kind;
	int32_t distinct;
	int8_t *clue; /* n: -1, 0 or 1 */
	/* Lines: the rows, the columns, then the regions. */
	int32_t *need; /* per line: ones needed, or -1 */
	size_t nreg;
	int32_t *region; /* n: each cell's region, or -1 */
	size_t *rstart;	 /* nreg + 1, into rmemb: the cells of each region */
	uint32_t *rmemb;
	uint32_t maxlen; /* the longest line */
	size_t nwin;
	uint32_t *win; /* 3 nwin cells */
	size_t nrel;
	struct bn_rel *rel;
	uint8_t *hsign, *vsign; /* Tango: n each; NULL for Takuzu */

	/* derived: parity classes, and the windows of each cell */
	uint32_t *next; /* n: the next cell of the same class (a cycle) */
	uint8_t *flip;	/* n: x_c XOR x_(representative of c's class) */
	size_t *wstart; /* n + 1, into wmemb */
	uint32_t *wmemb;

	size_t rule_fixes[BN_NUM_RULES];
};

/* Lines: rows 0 … h − 1, then the columns, then the regions. */
static inline size_t bn_nlines(const struct bn *b)
{
	return (size_t)b->h + b->w + b->nreg;
}

static inline uint32_t bn_line_len(const struct bn *b, size_t k)
{
	size_t g = k - b->h - b->w;

	return k < b->h ? b->w
	       : k < (size_t)b->h + b->w ? b->h
					: (uint32_t)(b->rstart[g + 1] - b->rstart[g]);
}

/* The j-th cell of line k. */
static inline size_t bn_line_cell(const struct bn *b, size_t k, uint32_t j)
{
	return k < b->h		       ? k * b->w + j
	       : k < (size_t)b->h + b->w ? (size_t)j * b->w + (k - b->h)
					: b->rmemb[b->rstart[k - b->h - b->w] + j];
}

/* "row 3" or "column 2" (1-based). */
void qubo__pz_bn_line_name(const struct bn *b, size_t k, char *buf, size_t cap);
/* "row 3, column 2". */
void qubo__pz_bn_cell_name(const struct bn *b, size_t c, char *buf, size_t cap);
/* Window k: "row 1, columns 2 to 4", "column 3, rows 1 to 3" or its three
 * cells. */
void qubo__pz_bn_window_name(const struct bn *b, size_t k, char *buf, size_t cap);

/* A propagation's work space, made once and reused by a search's nodes.
 * ctl (NULL: none) is the build's time limit and progress, which its
 * propagations poll between lines. */
struct qubo__pz_bn_ws;
int qubo__pz_bn_ws_new(const struct bn *b, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       struct qubo__pz_bn_ws **out);
void qubo__pz_bn_ws_free(const qubo_allocator *a, struct qubo__pz_bn_ws *ws);
/*
 * Applies the clues and the decisions in val (n cells: -1 free, 0 or 1) and
 * propagates every rule to the fixpoint (the FULL reduction); val receives
 * the result. Keeps exactly the solutions that agree with the decisions.
 * QUBO_OK, or QUBO_ERR_INFEASIBLE: with a message naming the cells unless
 * quiet; QUBO_TIME_LIMIT or QUBO_CANCELLED when the work space's ctl
 * stopped it (val is then partly propagated). counts (optional) receives
 * the cells each rule fixed.
 */
int qubo__pz_bn_propagate(struct qubo__pz_bn_ws *ws, int8_t *val, int quiet,
			  size_t counts[BN_NUM_RULES]);
/* After a propagation that left free cells: the first free cell of the
 * row or column with the fewest free cells. */
size_t qubo__pz_bn_branch(const struct qubo__pz_bn_ws *ws, const int8_t *val);

/* Checks and copies a spec, reduces and builds the model (binary.c). */
int qubo__pz_bn_create(qubo_puzzle **out, const struct bn_spec *s, const struct qubo__pz_opts *opts,
		       const char *fn);

/* The family tables (binary.c) and the text functions (binary_text.c). */
extern const struct qubo__pz_family qubo__pz_takuzu_family;
extern const struct qubo__pz_family qubo__pz_tango_family;

int qubo__pz_bn_format(const qubo_puzzle *p, qubo__sink *o);
void qubo__pz_bn_solution_header(const qubo_puzzle *p, qubo__sink *o);
int qubo__pz_bn_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line);
char qubo__pz_bn_solution_char(const qubo_puzzle *p, size_t cell, uint8_t value);
int qubo__pz_bn_solution_value(const qubo_puzzle *p, size_t cell, unsigned char ch);
void qubo__pz_tango_solution_grid(const qubo_puzzle *p, const uint8_t *board, qubo__sink *o);
int qubo__pz_tango_solution_read(const qubo_puzzle *p, struct qubo__pz_reader *r,
				 const struct qubo__pz_line *first, uint8_t *board);

/* Per-rule fix counts of the FULL reduction of a takuzu or tango puzzle
 * (white-box tests): QUBO_OK, or QUBO_ERR_INVALID_ARG for another family. */
int qubo__pz_binary_rule_counts(const qubo_puzzle *p, size_t counts[BN_NUM_RULES]);

#endif /* QUBO_PUZZLE_BINARY_IMPL_H */
