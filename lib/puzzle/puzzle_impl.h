/*
 * Private interface of the puzzle layer (libqubo-puzzle): the puzzle object,
 * the per-family function table, and the shared text reading and writing
 * helpers (text.c). Never installed.
 *
 * The puzzle layer uses only libqubo's public API, and the helpers of
 * lib/common (allocation, errors, struct checks, file reading), which are
 * linked into both libraries and report through libqubo's public
 * qubo_error_set(). Its own internal names start with qubo__pz_ so that they
 * never clash with libqubo's hidden qubo__ helpers when both are compiled
 * into one program (the fuzz targets).
 *
 * Adding a family: write lib/puzzle/<family>.c with a parse function
 * (header already read) and a qubo__pz_family table, and list it in
 * `families` (puzzle.c) under its header word. A spec builder starts with
 * qubo__pz_spec_args and qubo__pz_check_board, creates the object with
 * qubo__pz_new, fills the model sizes of the stats with qubo__pz_model_sizes
 * and, when it reduces, ends with qubo__pz_confirm_solved. The object code
 * (puzzle.c) does the rest: options, decode, the cell map and the buffer
 * conventions of the public functions.
 */
#ifndef QUBO_PUZZLE_IMPL_H
#define QUBO_PUZZLE_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "common_impl.h"
#include "sink.h"
#include "qubo.h"
#include "qubo/puzzle.h"

/* Largest board side a text format accepts, and the most cells of any
 * board (text or spec): QUBO_ERR_TOO_LARGE beyond. */
#define QUBO__PZ_MAX_SIDE 4096u
#define QUBO__PZ_MAX_CELLS ((size_t)1 << 24)

/* Allocation (through the puzzle's allocator) and errors: the helpers of
 * lib/common (common_impl.h), called by their own names (qubo__malloc_array,
 * qubo__free, qubo__error, qubo__nomem, ...). Errors go to libqubo's
 * per-thread message through qubo_error_set(). */

/* ---- text reading (text.c), shared by every family's parser ---- */

/* One line of the input: its bytes without the '\n' (a '\r' just before the
 * '\n' or at the very end is dropped), and its 1-based number. */
struct qubo__pz_line {
	const char *s;
	size_t len;
	size_t no;
};

/* A cursor over the input text. */
struct qubo__pz_reader {
	const char *text;
	size_t length;
	size_t pos;
	size_t line_no; /* number of the last line returned */
};

/* A blank-separated word of a line, with its 1-based column. */
struct qubo__pz_token {
	const char *s;
	size_t len;
	size_t column;
};

/* Checks the whole input for NUL bytes (an error at the byte's position)
 * and sets up the reader. */
int qubo__pz_reader_init(struct qubo__pz_reader *r, const char *text, size_t length);
/* The next line: 1, or 0 at the end of the input. */
int qubo__pz_reader_next(struct qubo__pz_reader *r, struct qubo__pz_line *line);
/* The next line without consuming it. */
int qubo__pz_reader_peek(const struct qubo__pz_reader *r, struct qubo__pz_line *line);
/* A parse error at the end of the input (after the last line's last
 * character, or at the start of the empty line after a final '\n'); the
 * reader must have reached the end. */
int qubo__pz_error_eof(const struct qubo__pz_reader *r, const char *fmt, ...) QUBO__PRINTF(2, 3);
/* Nonzero when the line has only spaces and tabs. */
int qubo__pz_line_blank(const struct qubo__pz_line *line);
/* Nonzero when the line's first non-blank character is '#'. */
int qubo__pz_line_comment(const struct qubo__pz_line *line);
/* The line's length without trailing spaces and tabs. */
size_t qubo__pz_line_trimmed(const struct qubo__pz_line *line);
/* Skips blank lines, and comment lines when `comments`; returns the next
 * other line (consumed) or 0 at the end of the input. */
int qubo__pz_next_content(struct qubo__pz_reader *r, struct qubo__pz_line *line, int comments);
/* Checks that only blank lines (and comment lines when `comments`) are
 * left; otherwise a parse error naming the first other line, with `what`
 * ("after the grid"). */
int qubo__pz_expect_end(struct qubo__pz_reader *r, int comments, const char *what);
/* Splits a line into at most `max` words; returns how many there are
 * (possibly more than `max`: the rest are not stored). */
size_t qubo__pz_tokens(const struct qubo__pz_line *line, struct qubo__pz_token *toks, size_t max);
/* Nonzero when the token is exactly `word`. */
int qubo__pz_token_is(const struct qubo__pz_token *tok, const char *word);
/* Reads a decimal count (digits only) in [lo, hi]; a parse error naming
 * `what` and the token's position otherwise. */
int qubo__pz_token_uint(const struct qubo__pz_line *line, const struct qubo__pz_token *tok,
			uint64_t lo, uint64_t hi, const char *what, uint64_t *out);
/* Reads a board size "N" (N × N) or "WxH" (width W, height H), each side in
 * [1, QUBO__PZ_MAX_SIDE]. `square_only` rejects "WxH". */
int qubo__pz_token_size(const struct qubo__pz_line *line, const struct qubo__pz_token *tok,
			int square_only, uint32_t *width, uint32_t *height);

/* Called for each grid character (row and column 0-based, the line's
 * number for the callback's own messages, whose column is col + 1):
 * returns 0 when it is accepted, 1 when it is not allowed there (the reader
 * reports it, with `expected` naming what is), or a negative status after
 * setting its own error. */
typedef int (*qubo__pz_cell_fn)(void *ctx, uint32_t row, uint32_t col, unsigned char ch,
				size_t line_no);

/* A grid of `height` lines of `width` characters. */
struct qubo__pz_grid {
	uint32_t width;
	uint32_t height;
	/* Describes the allowed characters in messages ("a region letter a-h,
	 * A-H or '.'"). */
	const char *expected;
	/* Nonzero: a row shorter than `width` is padded with this character
	 * (formats whose trailing spaces may be missing); 0: short rows are an
	 * error. Trailing spaces and tabs beyond the width are always ignored. */
	char pad;
	qubo__pz_cell_fn cell;
	void *ctx;
};

/* Reads the grid's rows from the next lines (no blank or comment lines
 * inside a grid). `first` is the first row's line when the caller already
 * consumed it, else NULL. Errors name the line and column: a short or long
 * row, an unexpected character, the input ending early. */
int qubo__pz_read_grid(struct qubo__pz_reader *r, const struct qubo__pz_line *first,
		       const struct qubo__pz_grid *grid);

/* ---- text writing ---- */

/* Text is written through the common sink (sink.h) with the caller-buffer
 * convention of the public format functions: everything is measured, bytes
 * are stored while they fit, qubo__sink_finish() ends it. */

/* A rule checker's report: one line per broken rule, cut to the capacity
 * (always NUL-terminated when the capacity is nonzero), and the count. */
struct qubo__pz_report {
	char *buf;
	size_t cap;
	size_t len;
	size_t violations;
};

void qubo__pz_violation(struct qubo__pz_report *rep, const char *fmt, ...) QUBO__PRINTF(2, 3);

/* ---- exact search (search.c) ---- */

/* Cell values during a search: -1 free, 0 empty, 1 holds the family's
 * piece (a queen, a chess piece, a tent) or the digit 1. */

/* What an optimisation family's exact search is asked (in) and reports
 * (out). */
struct qubo__pz_opt {
	/* in: 0 finds one optimal board, 1 enumerates every optimal board */
	int all;
	/* in: optional, a valid board (n bytes) whose energy bounds the
	 * search from above (an annealer's best) */
	const uint8_t *hint;
	/* in: polled every few hundred nodes; nonzero stops the search */
	int (*stop)(void *ctx, uint64_t nodes);
	/* in: called with each optimal board (all = 1), or once with the
	 * optimum (all = 0), after the search has proven the board optimal;
	 * nonzero stops the search */
	int (*found)(void *ctx, const uint8_t *board);
	void *ctx;
	/* out: the optimum's energy in the puzzle's model (valid once found
	 * was called, or when the search completed) */
	double energy;
	int has_energy;
	/* out: nodes visited */
	uint64_t nodes;
};

/* A family's exact search. Feasibility families give propagate and branch
 * (the generic branch and reduce of search.c does the rest); optimisation
 * families give optimum. Everything runs on one work space, made once per
 * search from the puzzle's allocator. */
struct qubo__pz_search_ops {
	int (*ws_new)(const qubo_puzzle *p, void **ws);
	void (*ws_free)(const qubo_puzzle *p, void *ws);
	/* Applies the puzzle's own clues and the caller's decisions in val (n
	 * cells; off-board cells are 0 on return) and propagates to the
	 * fixpoint of the family's FULL reduction. Keeps exactly the solutions
	 * that agree with val. QUBO_OK, QUBO_ERR_INFEASIBLE (no solution agrees
	 * with val; the message need not be set), QUBO_ERR_NOMEM. */
	int (*propagate)(const qubo_puzzle *p, void *ws, int8_t *val);
	/* A free cell of val to branch on (val has one). The search tries 1
	 * there first, then 0. */
	size_t (*branch)(const qubo_puzzle *p, void *ws, const int8_t *val);
	/* Optimisation families: QUBO_OK when the search completed,
	 * QUBO_CANCELLED when stop or found stopped it, or an error. */
	int (*optimum)(const qubo_puzzle *p, void *ws, struct qubo__pz_opt *o);
};

/* A run's clock, time limit and progress reports, shared by solve, count
 * and the searches. */
struct qubo__pz_ctl {
	double t0;    /* qubo__pz_now() at the start */
	double t_end; /* 0: no time limit */
	qubo_puzzle_progress_cb progress;
	void *user_data;
	double last;	       /* when progress was last called */
	qubo_puzzle_progress pr; /* the figures reported */
	int stopped;	       /* QUBO_TIME_LIMIT or QUBO_CANCELLED once stopped */
};

/* Checks the options every run has: threads (0 automatic, at most 4096)
 * and a time limit (qubo__pz_check_time_limit). */
int qubo__pz_check_run(int32_t threads, double time_limit, const char *fn);
/* A time limit in seconds, of a build or a run: finite and not negative
 * (QUBO_ERR_INVALID_ARG, naming options.time_limit); 0 is none, and so is a
 * limit too long for the clock (qubo__deadline()). */
int qubo__pz_check_time_limit(double time_limit, const char *fn);

/* Starts a run: the clock, the time limit (seconds; 0 none), progress. */
void qubo__pz_ctl_init(struct qubo__pz_ctl *c, double time_limit, qubo_puzzle_progress_cb progress,
		       void *user_data);
/* Nonzero, with c->stopped set, when the run must stop: the time limit
 * has passed, or the progress callback (called at most every 100 ms, and
 * always when force is set) asked to stop. */
int qubo__pz_ctl_poll(struct qubo__pz_ctl *c, int force);

/* Branch and reduce over a feasibility family's propagate and branch. */
struct qubo__pz_bnr {
	/* in */
	int all;	/* 0: stop at the first solution; 1: visit every one */
	uint64_t limit; /* all: stop after this many (0: no limit) */
	/* all: each solution, after the checker accepted it; nonzero stops
	 * the search (QUBO_CANCELLED) */
	int (*on_solution)(void *ctx, const uint8_t *board);
	void *ctx;
	struct qubo__pz_ctl *ctl;
	uint8_t *board; /* n bytes: the last solution found */
	/* out */
	uint64_t solutions;
	uint64_t nodes;
	int limited; /* stopped at the limit */
};

/* Runs the search. QUBO_OK when it ended (b->solutions says what it found;
 * with all = 0 it ends at the first solution), QUBO_TIME_LIMIT or
 * QUBO_CANCELLED when stopped, QUBO_ERR_NOT_SUPPORTED for a family without
 * a search, QUBO_ERR_INTERNAL when a board the search decided breaks a rule
 * (a bug of the family's propagation), QUBO_ERR_NOMEM. */
int qubo__pz_branch_reduce(const qubo_puzzle *p, struct qubo__pz_bnr *b);

/* Runs an optimisation family's search (o->stop is filled from ctl). */
int qubo__pz_optimum(const qubo_puzzle *p, struct qubo__pz_opt *o, struct qubo__pz_ctl *ctl);

/* Nonzero for the optimisation families (dominating sets, max chess
 * pieces), whose solutions are the optimal boards; their ground energy is
 * known only for some instances. */
int qubo__pz_optimisation(const qubo_puzzle *p);

/* Nonzero when the board breaks none of the puzzle's rules. */
int qubo__pz_board_valid(const qubo_puzzle *p, const uint8_t *board);

/* ---- the puzzle object ---- */

/* A family's functions. `data` is the family's own instance. */
struct qubo__pz_family {
	int family;	  /* enum qubo_puzzle_family */
	const char *name; /* for messages: "queens" */
	void (*destroy)(const qubo_allocator *a, void *data);
	/* Rule checker: never looks at the model. The board is valid 0/1. */
	void (*check)(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep);
	/* The puzzle in its text format; NULL when it has none. */
	int (*format)(const qubo_puzzle *p, qubo__sink *o);
	/* The header line of a solution file (with its '\n'); nothing for
	 * spec-built puzzles. */
	void (*solution_header)(const qubo_puzzle *p, qubo__sink *o);
	/* The character of a cell in a solution grid; '\0' for a value the
	 * layout cannot show (the board is refused). */
	char (*solution_char)(const qubo_puzzle *p, size_t cell, uint8_t value);
	/* Parses a solution grid character: the cell value, or -1. */
	int (*solution_value)(const qubo_puzzle *p, size_t cell, unsigned char ch);
	/* Checks a solution file's header line against the puzzle: QUBO_OK or
	 * a parse error; NULL when the family has no header. */
	int (*solution_header_check)(const qubo_puzzle *p, const struct qubo__pz_line *line);
	/* What solution_value accepts, for messages. */
	const char *solution_expected;
	/* The family's header word, for telling a header from a grid row. */
	const char *word;
	/* Fills region, given and piece of cell i (the object code fills the
	 * rest of qubo_puzzle_get_cell()'s answer and sets on_board from
	 * on_board below). */
	void (*cell)(const qubo_puzzle *p, size_t i, qubo_puzzle_cell *out);
	/* Nonzero when cell i is on the board. */
	int (*on_board)(const qubo_puzzle *p, size_t i);
	/* The exact search; NULL where the family has none. */
	const struct qubo__pz_search_ops *search;
	/* Optional, for solution layouts that are not one character per cell
	 * (Tango's signs between the cells, the count lines of Tents); NULL:
	 * rows of solution_char and solution_value. solution_grid writes what
	 * follows the solution header; solution_read reads it from its first
	 * line `first` on into board (all zero on entry), with parse errors
	 * naming the line and column. */
	void (*solution_grid)(const qubo_puzzle *p, const uint8_t *board, qubo__sink *o);
	int (*solution_read)(const qubo_puzzle *p, struct qubo__pz_reader *r,
			     const struct qubo__pz_line *first, uint8_t *board);
};

struct qubo_puzzle {
	const struct qubo__pz_family *fam;
	void *data;
	qubo_allocator alloc;
	uint32_t width;
	uint32_t height;
	qubo_model *model;   /* the reduced model, compiled */
	qubo_lit *cell_lits; /* width × height */
	double ground_energy;
	int has_ground_energy;
	qubo_puzzle_stats stats;
	/* 1 when the model is only a relaxation (the relaxed Tents model):
	 * some of its ground states break a rule, so solve and count check
	 * them and pass over those, rather than report a disagreement */
	int relaxed;
};

/* The options a builder works with, checked and with defaults applied. */
struct qubo__pz_opts {
	int32_t reduce; /* QUBO_REDUCE_NONE, _CLUES or _FULL */
	double penalty; /* P > 0, finite */
	int32_t drop_region;
	const qubo_allocator *allocator; /* the caller's, or NULL */
	/* qubo_puzzle_parse_cells: only the cell map is wanted. A family may
	 * then skip its model (p->model NULL, no couplers counted); the puzzle
	 * never reaches the caller. */
	int cells_only;
	/* limits on text input, defaults resolved (never 0) */
	size_t max_input_bytes, max_cells, max_couplers;
	/* the build's time limit and progress: ctl points to ctl_state when
	 * either is set, else NULL (nothing to poll). Set by qubo__pz_opts_read;
	 * a copy of the struct still points to the original's ctl_state. */
	struct qubo__pz_ctl *ctl;
	struct qubo__pz_ctl ctl_state;
};

/* Counts `work` more steps of the build and polls its time limit and
 * progress (c NULL: nothing to do). QUBO_OK to go on, else QUBO_TIME_LIMIT
 * or QUBO_CANCELLED (c->stopped) for the build to give up with. */
int qubo__pz_build_poll(struct qubo__pz_ctl *c, uint64_t work);

/* The same for loops of many cheap steps: adds work to *pending and polls
 * only once QUBO__PZ_TICK steps have gathered, so that the clock is read
 * about every 50 microseconds rather than at every step. */
#define QUBO__PZ_TICK 65536
int qubo__pz_build_tick(struct qubo__pz_ctl *c, uint64_t *pending, uint64_t work);

/* Lets the build's time limit and progress stop m's long calls (they then
 * return QUBO_CANCELLED, c->stopped telling which); c NULL: nothing. */
void qubo__pz_build_watch(qubo_model *m, struct qubo__pz_ctl *c);

/* Conflict terms taken partly as at-most-one cliques (queens_model.c,
 * chess_lines.c). QUBO_OK when the conflict weight times 2 npairs, the
 * bound qubo_penalty_conflicts() puts on its pairs' weights, is finite,
 * else that call's overflow error: npairs counts every conflict pair,
 * those on cliques too, so that a puzzle fails or builds as it would with
 * no clique. */
int qubo__pz_conflict_sum_check(double weight, size_t npairs);

/* Nonzero when qubo_penalty_at_most_one() over k free literals with the
 * weight stays within its bound on partial sums, 4 weight (k + 2)²; a
 * line that does not keeps its single pairs. */
int qubo__pz_clique_fits(double weight, size_t k);

/* A growing list of literal pairs for qubo_penalty_conflicts(): lits holds
 * 2 n literals, room for 2 cap. Starts zeroed; freed with qubo__free. */
struct qubo__pz_pairs {
	qubo_lit *lits;
	size_t n, cap;
};

/* Appends the pair (u, v). QUBO_OK, or out of memory with the list as it
 * was. */
int qubo__pz_push_pair(const qubo_allocator *a, struct qubo__pz_pairs *p, qubo_lit u, qubo_lit v);

/* Ends a public build call: when the build was stopped, frees *out, sets it
 * to NULL and returns the stop's status; otherwise returns rc. */
int qubo__pz_build_end(qubo_puzzle **out, const struct qubo__pz_opts *opts, int rc);

/* Refuses a board read from text (header line, size token tok) whose
 * width x height cells exceed opts->max_cells, or whose unreduced model
 * would need more than opts->max_couplers couplers: `lines` is nonzero for
 * families that couple every pair of cells in a row and in a column.
 * QUBO_ERR_TOO_LARGE with the position and the option that raises it. */
int qubo__pz_check_size(const struct qubo__pz_opts *opts, const struct qubo__pz_line *line,
			const struct qubo__pz_token *tok, uint32_t width, uint32_t height,
			int lines);

/* Checks a caller's options (NULL: defaults); the function name is for
 * messages. */
int qubo__pz_opts_read(struct qubo__pz_opts *dst, const qubo_puzzle_options *src, const char *fn);

/* The argument checks a public spec builder starts with: out not NULL (and
 * *out set to NULL), spec not NULL, the options read into *opts. */
int qubo__pz_spec_args(qubo_puzzle **out, const void *spec, const qubo_puzzle_options *options,
		       struct qubo__pz_opts *opts, const char *fn);

/* Checks a spec's board size: both sides at least 1, at most
 * QUBO__PZ_MAX_CELLS cells (QUBO_ERR_TOO_LARGE beyond). */
int qubo__pz_check_board(uint32_t width, uint32_t height, const char *fn);

/* Says why a listed cell may not be listed (NULL: it may). */
typedef const char *(*qubo__pz_cell_why)(const void *spec, uint32_t cell);

/* Checks a spec's list spec.<name> of count (spec.num_<name>) cells of a
 * board of n cells, width wide: not NULL when not empty, at most n long, and
 * each entry a cell of the board for which why(spec, cell) is NULL. Reports
 * the first mistake in that order. */
int qubo__pz_check_cell_list(const uint32_t *cells, size_t count, const char *name,
			     uint32_t width, size_t n, qubo__pz_cell_why why, const void *spec,
			     const char *fn);

/* Sets mark[c] = 1 for every cell c of a list that passed
 * qubo__pz_check_cell_list, reporting a cell listed twice (or already
 * marked) as QUBO_ERR_INVALID_ARG. */
int qubo__pz_mark_cells(uint8_t *mark, const uint32_t *cells, size_t count, const char *name,
			uint32_t width, const char *fn);

/* Creates an empty puzzle object with the allocator of `opts`, and its
 * family instance (data_size bytes, zeroed) in p->data; QUBO_ERR_NOMEM
 * names `what` ("the tents instance") when the instance does not fit. */
int qubo__pz_new(qubo_puzzle **out, const struct qubo__pz_family *fam,
		 const struct qubo__pz_opts *opts, uint32_t width, uint32_t height,
		 size_t data_size, const char *what);
/* Frees the object, its model, its map and (through fam->destroy) its data. */
void qubo__pz_destroy(qubo_puzzle *p);
/* Sets the stats' model sizes: after from p->model, before from the
 * unreduced model (NULL: no reduction, the same as after). */
void qubo__pz_model_sizes(qubo_puzzle *p, const qubo_model *before);
/* When the reduction left no variables (stats.variables_after is 0): checks
 * the fixed board (cell_lits) with the family's checker and sets
 * stats.solved_by_reduction; QUBO_ERR_INTERNAL if it breaks a rule. QUBO_OK
 * and nothing done otherwise. */
int qubo__pz_confirm_solved(qubo_puzzle *p, const char *fn);

/* Game IDs of Simon Tatham's collection (gameid.c). Nonzero when the line
 * (from its first non-blank character, `len` bytes) has the form of a
 * Tents or Unruly game ID. */
int qubo__pz_is_gameid(const char *s, size_t len);
/* Translates the game ID on `line` into the text of the family's format
 * (allocated with a; the caller frees it). QUBO_ERR_PARSE with the ID's
 * line and column, QUBO_ERR_TOO_LARGE, QUBO_ERR_NOMEM. */
int qubo__pz_gameid_text(const qubo_allocator *a, const struct qubo__pz_line *line,
			 char **text_out, size_t *len_out);

/* Family parsers: the header line has been read and split. */
int qubo__pz_takuzu_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			  const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			  size_t ntoks, const struct qubo__pz_opts *opts);
int qubo__pz_tango_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			 const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			 size_t ntoks, const struct qubo__pz_opts *opts);
int qubo__pz_queens_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			  const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			  size_t ntoks, const struct qubo__pz_opts *opts);
int qubo__pz_nqueens_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			   const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			   size_t ntoks, const struct qubo__pz_opts *opts);
int qubo__pz_tents_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			 const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			 size_t ntoks, const struct qubo__pz_opts *opts);

#endif /* QUBO_PUZZLE_IMPL_H */
