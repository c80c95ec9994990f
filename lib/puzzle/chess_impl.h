/*
 * Private interface of the chess piece families (chess_moves.c, chess.c,
 * chess_lines.c, chess_text.c, domination.c): move sets, the cells a piece
 * reaches, the attack graph, and the family entry points.
 *
 * Attacks are reach on an empty board (qubo/puzzle/chess.h): a slide goes
 * on to the board's edge whatever stands on the cells it crosses, so the
 * attack relation depends on the pieces' types and positions only.
 */
#ifndef QUBO_PUZZLE_CHESS_IMPL_H
#define QUBO_PUZZLE_CHESS_IMPL_H

#include "puzzle_impl.h"
#include "qubo/puzzle/chess.h"

/* Entries the attack lists may hold before a board counts as too large
 * (4 bytes each). */
#define QUBO__CZ_MAX_ENTRIES ((size_t)1 << 26)
/* Walk steps (cells visited plus moves tried) allowed while finding them. */
#define QUBO__CZ_MAX_WORK ((uint64_t)1 << 28)

/* Number of built-in pieces (codes 0 … QUBO__CZ_BUILTINS − 1). */
#define QUBO__CZ_BUILTINS 5

/* Custom move sets (copied from a spec or read from text). */
struct cz_sets {
	size_t n;
	size_t *start;		       /* n + 1 */
	qubo_puzzle_chess_move *moves; /* start[n] */
	char *letters;		       /* n letters (text form) or NULL */
};

/* The moves of a piece code (built-in or custom); 0 moves for NONE. */
void qubo__pz_cz_moves(const struct cz_sets *sets, int32_t code,
		       const qubo_puzzle_chess_move **moves, size_t *count);

/* Attack lists in CSR form: for every cell a with codes[a] != NONE, the
 * sorted distinct cells b != a with target[b] nonzero that a's piece
 * reaches. Linear in the entries for the built-in pieces (no sort).
 * QUBO_OK, QUBO_ERR_NOMEM or QUBO_ERR_TOO_LARGE (message set, naming
 * `fn`), or QUBO_TIME_LIMIT / QUBO_CANCELLED when ctl (the build's, NULL:
 * none) stopped it. */
int qubo__pz_cz_reach_lists(const qubo_allocator *a, uint32_t w, uint32_t h, const int32_t *codes,
			    const struct cz_sets *sets, const uint8_t *target,
			    struct qubo__pz_ctl *ctl, size_t **start_out, uint32_t **list_out,
			    const char *fn);

/* Checks, before anything proportional to them is allocated, that the
 * lists qubo__pz_cz_reach_lists would make stay within the limits: the walk
 * within QUBO__CZ_MAX_WORK steps (worked out from the board) and the lists
 * within max_entries entries (QUBO__CZ_MAX_ENTRIES, or half of it for lists
 * whose symmetric closure is made too). Where the board alone does not
 * settle it, the targets are counted, with a stamp per cell; with in_count
 * (n zeroed counters) always, and every target's distinct attackers are
 * added to in_count. The walks poll ctl (NULL: never stopped). QUBO_OK,
 * QUBO_ERR_TOO_LARGE (the message of qubo__pz_cz_reach_lists), the stop of
 * ctl or QUBO_ERR_NOMEM. */
int qubo__pz_cz_reach_check(const qubo_allocator *a, uint32_t w, uint32_t h, const int32_t *codes,
			    const struct cz_sets *sets, const uint8_t *target, size_t max_entries,
			    uint32_t *in_count, struct qubo__pz_ctl *ctl, const char *fn);

/* The transpose (or, with `sym`, the symmetric closure) of CSR lists over n
 * cells whose rows are sorted and distinct (as the reach lists are):
 * sorted, distinct, in time linear in n and the entries; ctl as above. */
int qubo__pz_cz_transpose(const qubo_allocator *a, size_t n, const size_t *start,
			  const uint32_t *list, int sym, struct qubo__pz_ctl *ctl,
			  size_t **start_out, uint32_t **list_out, const char *fn);

/* Checks move sets of a spec and copies them (letters NULL). */
int qubo__pz_cz_check_moves(const qubo_puzzle_chess_move *moves, size_t count, const char *what,
			    const char *fn);
int qubo__pz_cz_sets_copy(struct cz_sets *dst, const qubo_allocator *a, size_t nsets,
			  const size_t *start, const qubo_puzzle_chess_move *moves, const char *fn);
void qubo__pz_cz_sets_free(struct cz_sets *s, const qubo_allocator *a);

/* The piece's name for messages ("queen", "piece A", "piece of move set
 * 2") and its letter in solution grids ('Q', 'A', …). */
void qubo__pz_cz_piece_name(const struct cz_sets *sets, int32_t code, char *buf, size_t cap);
char qubo__pz_cz_piece_letter(const struct cz_sets *sets, int32_t code);
/* The built-in piece of a letter (Q R B N K), or NONE. */
int32_t qubo__pz_cz_builtin_of_letter(unsigned char ch);
/* The built-in piece of a word ("queen" …), or NONE. */
int32_t qubo__pz_cz_builtin_of_word(const struct qubo__pz_token *tok);
/* The word of a built-in piece ("queen" …). */
const char *qubo__pz_cz_builtin_word(int32_t code);

/* Family entry points (text). */
int qubo__pz_chess_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			 const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			 size_t ntoks, const struct qubo__pz_opts *opts);
int qubo__pz_domination_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			      const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			      size_t ntoks, const struct qubo__pz_opts *opts);

/* ---- coloured and max chess pieces (chess.c, chess_text.c) ---- */

struct cz {
	uint32_t w, h;
	size_t n;
	int32_t mode;  /* QUBO_PUZZLE_CHESS_MODE_COLOURED or QUBO_PUZZLE_CHESS_MODE_MAX */
	int32_t *code; /* n piece codes */
	struct cz_sets sets;
	/* coloured: regions over the cells that may hold a piece */
	int32_t *region; /* n region numbers (-1: none); NULL without regions */
	size_t nreg;
	size_t *reg_start; /* nreg + 1, into reg_cells */
	uint32_t *reg_cells;
	/* max: weights (NULL: all 1), the largest, and the conflict weight */
	double *weight;
	double maxw;
	double lambda;
	uint8_t *placed; /* n: 1 for a pre-placed piece */
	size_t nplaced;
	/* derived: who attacks whom (directed), and the conflict graph
	 * (symmetric); both sorted, over cells that may hold a piece */
	size_t *out_start;
	uint32_t *out;
	size_t *adj_start;
	uint32_t *adj;
	/* text form */
	int text;	/* 1 when read from a `chess` file */
	char *reg_char; /* nreg region characters (text) */
};

/* The conflict terms of z over the cells' literals, weight P (coloured)
 * or λ (max), into m (chess_lines.c): the lines whose model cells all
 * attack each other as at-most-one cliques, every other conflicting pair
 * once through qubo_penalty_conflicts(). The model is the one of that call
 * over every pair, and so are the errors (INFEASIBLE for two pieces fixed
 * to 1 that conflict, OUT_OF_RANGE when the weights of all the pairs
 * overflow), with NOMEM and the build's stops besides. */
int qubo__pz_cz_add_conflicts(const struct cz *z, const qubo_allocator *a, qubo_model *m,
			      const qubo_lit *lits, double weight, struct qubo__pz_ctl *ctl);

/* Checks a spec and builds the puzzle. `letters` (text form: one letter per
 * custom move set) and `reg_chars` (text form: one character per region)
 * are NULL for a spec-built puzzle. */
int qubo__pz_cz_create(qubo_puzzle **out, const qubo_puzzle_chess_spec *spec, const char *letters,
		       const char *reg_chars, const struct qubo__pz_opts *opts, const char *fn);

extern const struct qubo__pz_family qubo__pz_chess_coloured_family;
extern const struct qubo__pz_family qubo__pz_chess_max_family;

int qubo__pz_cz_format(const qubo_puzzle *p, qubo__sink *o);
void qubo__pz_cz_solution_header(const qubo_puzzle *p, qubo__sink *o);
int qubo__pz_cz_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line);

/* The search's propagation: applies the puzzle's clues (no piece where none
 * may stand, the pre-placed pieces) to the decisions in val (n cells, -1
 * free, 0, 1) and runs the FULL reduction of chess.c to its fixpoint, with
 * no message. QUBO_OK, or QUBO_ERR_INFEASIBLE when no solution (coloured)
 * or no optimal placement (max) agrees with val. */
int qubo__pz_cz_propagate(const struct cz *z, int8_t *val);

/* ---- minimum domination (domination.c) ---- */

struct dz {
	uint32_t w, h;
	size_t n;
	uint8_t *on;
	int32_t piece; /* builtin code, or QUBO_PUZZLE_CHESS_CUSTOM (set 0 of sets) */
	struct cz_sets sets;
	int32_t slack;
	size_t *out_start; /* cells each on-board cell's piece attacks */
	uint32_t *out;
	size_t *in_start; /* cells whose piece attacks each cell */
	uint32_t *in;
	size_t greedy; /* size of the greedy dominating set */
	int text;
};

/* ---- exact search (chess_search.c, domination_search.c) ---- */

/* The search slots of the families (struct qubo__pz_search_ops):
 * coloured pieces give propagate and branch, max pieces and domination
 * give optimum. */
extern const struct qubo__pz_search_ops qubo__pz_chess_coloured_search;
extern const struct qubo__pz_search_ops qubo__pz_chess_max_search;
extern const struct qubo__pz_search_ops qubo__pz_domination_search;

/* The branch and bound searches keep one bit set of `words` 64-bit words
 * per cell (its neighbours), so a board of n cells costs n × words words;
 * beyond this many they return QUBO_ERR_TOO_LARGE (about 16,000 cells). */
#define QUBO__CZ_MAX_SEARCH_WORDS ((size_t)1 << 22)

static inline unsigned qubo__pz_popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555u);
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (unsigned)((x * 0x0101010101010101u) >> 56);
#endif
}

/* The index of the lowest set bit of x (x nonzero). */
static inline unsigned qubo__pz_ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_ctzll(x);
#else
	return qubo__pz_popcount64((x & (~x + 1)) - 1);
#endif
}

#endif /* QUBO_PUZZLE_CHESS_IMPL_H */
