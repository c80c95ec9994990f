/*
 * Branch and reduce for the queens families (queens, nqueens): the library's
 * reduction is the propagation, this file only branches.
 *
 * A node is the puzzle's grid with some cells decided: a queen is written as
 * a pre-placed queen (the region's capital letter, or 'Q'), an empty cell as
 * a cell that is not on the board ('.' in queens, '#' in nqueens: such a
 * cell never holds a queen, and attacks pass over it, so the two puzzles
 * have the same solutions). Parsing the node's text with the full reduction
 * either proves it has no solution (QUBO_ERR_INFEASIBLE), decides every cell
 * (a solution), or leaves cells open: the search then takes the first open
 * cell of the row, column or region with the fewest open cells and tries a
 * queen there, then no queen. Each child starts from its parent's fixpoint,
 * as the cells the reduction decided are written into its text.
 *
 * The search is complete: when every branch is refuted the puzzle has no
 * solution, and going on past each solution counts them all (qubo count).
 * Each node costs one parse and reduction, without a model
 * (qubo_puzzle_parse_cells(); about 0.02 ms on a LinkedIn board); the open cells run out fast because a queen on a board of
 * regions decides many cells.
 */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* uses qubo_puzzle_parse_cells */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct search {
	int family;
	size_t w, h, cells;
	char *header;       /* the header line with its '\n' */
	size_t header_len;
	uint8_t *region;    /* queens: each cell's region index */
	size_t num_units;   /* rows, columns, then regions */
	char *text;         /* scratch: header and grid */
	qubo_lit *lits;     /* scratch: the node's cell literals */
	double t_end;       /* 0: no limit */
	cli_progress *prog;
	uint64_t nodes;
	const qubo_puzzle *root;
	int count_all;      /* count every solution instead of stopping at one */
	uint64_t solutions; /* count_all: solutions found, each checked */
	uint64_t invalid;   /* count_all: leaves the checker rejected */
	int stop;           /* time limit or Ctrl-C */
	int error;          /* a message was printed */
} search;

static char queen_char(const search *s, size_t i)
{
	return s->family == QUBO_PUZZLE_QUEENS ? (char)('A' + s->region[i]) : 'Q';
}

static char empty_char(const search *s)
{
	return s->family == QUBO_PUZZLE_QUEENS ? '.' : '#';
}

/* The unit numbers of cell i: its row, its column, and its region. */
static size_t units_of(const search *s, size_t i, size_t u[3])
{
	u[0] = i / s->w;
	u[1] = s->h + i % s->w;
	if (s->family != QUBO_PUZZLE_QUEENS)
		return 2;
	u[2] = s->h + s->w + s->region[i];
	return 3;
}

/* Writes the node's text: the header and the grid. */
static size_t node_text(const search *s, const char *grid)
{
	char *t = s->text;
	size_t r;

	memcpy(t, s->header, s->header_len);
	t += s->header_len;
	for (r = 0; r < s->h; r++) {
		memcpy(t, grid + r * s->w, s->w);
		t += s->w;
		*t++ = '\n';
	}
	return (size_t)(t - s->text);
}

/* 1: a solution in @p board; 0: none below this node (or, counting, all
 * counted); -1: stopped or error. */
static int node(search *s, char *grid, uint8_t *board)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	size_t i, k, u[3], nu, open = 0, best_unit = 0, best = SIZE_MAX;
	size_t *count;
	double now = cli_now();
	char *child;
	int rc;

	if (cli_interrupted() || (s->t_end > 0 && now >= s->t_end)) {
		s->stop = 1;
		return -1;
	}
	s->nodes++;
	if (!s->prog->quiet && now >= 1.0 && now - s->prog->last >= 1.0) {
		s->prog->last = now;
		fprintf(stderr, "%squbo: search, %llu nodes, %.0f s%s", s->prog->tty ? "\r" : "",
			(unsigned long long)s->nodes, now, s->prog->tty ? "   " : "\n");
		s->prog->shown = 1;
	}
	o.reduce = QUBO_REDUCE_FULL;
	rc = qubo_puzzle_parse_cells(s->text, node_text(s, grid), &o, s->lits, s->cells);
	if (rc == QUBO_ERR_INFEASIBLE)
		return 0;
	if (rc) {
		cli_error("search: %s", qubo_error_message());
		s->error = 1;
		return -1;
	}
	/* write the fixpoint into the grid; count open cells per unit */
	count = calloc(s->num_units, sizeof *count);
	child = malloc(s->cells);
	if (!count || !child) {
		free(count);
		free(child);
		cli_error("out of memory");
		s->error = 1;
		return -1;
	}
	for (i = 0; i < s->cells; i++) {
		if (s->lits[i] == QUBO_LIT_TRUE) {
			grid[i] = queen_char(s, i);
		} else if (s->lits[i] == QUBO_LIT_FALSE) {
			grid[i] = empty_char(s);
		} else {
			open++;
			nu = units_of(s, i, u);
			for (k = 0; k < nu; k++)
				count[u[k]]++;
		}
	}
	if (!open) {
		for (i = 0; i < s->cells; i++)
			board[i] = s->lits[i] == QUBO_LIT_TRUE;
		free(count);
		free(child);
		if (!s->count_all)
			return 1;
		if (qubo_puzzle_check(s->root, board, s->cells, NULL, 0, &k)) {
			cli_error("search: %s", qubo_error_message());
			s->error = 1;
			return -1;
		}
		if (k)
			s->invalid++;
		else
			s->solutions++;
		return 0;
	}
	/* the unit with the fewest open cells */
	for (k = 0; k < s->num_units; k++) {
		if (count[k] && count[k] < best) {
			best = count[k];
			best_unit = k;
		}
	}
	/* the first open cell of that unit */
	for (i = 0; i < s->cells; i++) {
		if (QUBO_LIT_IS_CONST(s->lits[i]))
			continue;
		nu = units_of(s, i, u);
		for (k = 0; k < nu && u[k] != best_unit; k++)
			;
		if (k < nu)
			break;
	}
	free(count);
	memcpy(child, grid, s->cells);
	child[i] = queen_char(s, i);
	rc = node(s, child, board);
	if (rc == 0) {
		memcpy(child, grid, s->cells);
		child[i] = empty_char(s);
		rc = node(s, child, board);
	}
	free(child);
	return rc;
}

/* Reads the root's grid from its own text (qubo_puzzle_format()). */
static int root_grid(search *s, const qubo_puzzle *root, char *grid)
{
	size_t len = 0, i, r, c;
	char *text, *line, *nl;
	int rc;

	qubo_puzzle_format(root, NULL, 0, &len);
	text = malloc(len + 1);
	if (!text)
		return -1;
	rc = qubo_puzzle_format(root, text, len + 1, &len);
	nl = rc ? NULL : strchr(text, '\n');
	if (!nl) {
		free(text);
		return -1;
	}
	s->header_len = (size_t)(nl - text) + 1;
	s->header = malloc(s->header_len);
	if (!s->header) {
		free(text);
		return -1;
	}
	memcpy(s->header, text, s->header_len);
	memset(grid, s->family == QUBO_PUZZLE_QUEENS ? '.' : '.', s->cells);
	line = nl + 1;
	for (r = 0; r < s->h && *line; r++) {
		for (c = 0; c < s->w && line[c] && line[c] != '\n'; c++)
			grid[r * s->w + c] = line[c];
		nl = strchr(line, '\n');
		line = nl ? nl + 1 : line + strlen(line);
	}
	for (i = 0; i < s->cells; i++)
		s->region[i] = (uint8_t)(isalpha((unsigned char)grid[i])
						 ? tolower((unsigned char)grid[i]) - 'a'
						 : 0);
	free(text);
	return 0;
}

static int run(const qubo_puzzle *root, double t_end, uint8_t *board, cli_progress *prog,
	       int count_all, uint64_t *solutions_out, uint64_t *nodes_out)
{
	qubo_puzzle_stats st;
	search s;
	char *grid = NULL;
	size_t i;
	int rc = -2;

	memset(&s, 0, sizeof s);
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	qubo_puzzle_get_stats(root, &st);
	s.family = qubo_puzzle_family(root);
	s.w = st.width;
	s.h = st.height;
	s.cells = s.w * s.h;
	s.t_end = t_end;
	s.prog = prog;
	s.root = root;
	s.count_all = count_all;
	s.num_units = s.w + s.h + (s.family == QUBO_PUZZLE_QUEENS ? 26 : 0);
	grid = malloc(s.cells + 1);
	s.region = malloc(s.cells + 1);
	s.lits = malloc((s.cells + 1) * sizeof *s.lits);
	s.text = malloc(s.cells + s.h + 256);
	if (!grid || !s.region || !s.lits || !s.text || root_grid(&s, root, grid) ||
	    s.header_len > 200 || qubo_puzzle_cell_literals(root, s.lits, s.cells)) {
		cli_error("search: out of memory");
		goto out;
	}
	/* start from the root's own reduction */
	for (i = 0; i < s.cells; i++) {
		if (s.lits[i] == QUBO_LIT_TRUE)
			grid[i] = queen_char(&s, i);
		else if (s.lits[i] == QUBO_LIT_FALSE)
			grid[i] = empty_char(&s);
	}
	rc = node(&s, grid, board);
	if (rc < 0 && s.error)
		rc = -2;
	if (s.invalid)
		cli_error("search: %llu board%s decided by the reduction broke a rule (an internal "
			  "error); not counted", (unsigned long long)s.invalid,
			  s.invalid == 1 ? "" : "s");
out:
	*nodes_out = s.nodes;
	if (solutions_out)
		*solutions_out = s.solutions;
	free(grid);
	free(s.region);
	free(s.lits);
	free(s.text);
	free(s.header);
	return rc;
}

int cli_queens_search(const qubo_puzzle *root, double t_end, uint8_t *board,
		      cli_progress *prog, uint64_t *nodes_out)
{
	return run(root, t_end, board, prog, 0, NULL, nodes_out);
}

int cli_queens_count(const qubo_puzzle *root, double t_end, cli_progress *prog,
		     uint64_t *solutions_out, uint64_t *nodes_out)
{
	qubo_puzzle_stats st;
	uint8_t *board;
	int rc;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	qubo_puzzle_get_stats(root, &st);
	board = malloc(st.width * st.height + 1);
	if (!board) {
		cli_error("search: out of memory");
		return -2;
	}
	rc = run(root, t_end, board, prog, 1, solutions_out, nodes_out);
	free(board);
	return rc;
}
