/*
 * Text form of Tents & Trees (doc/formats.md):
 *
 *   tents WxH                 (or `tents N` for N × N)
 *   cols c1 … cW              the tents of each column, left to right
 *   rows r1 … rH              the tents of each row, top to bottom
 *   ..T.                      height lines of width characters: '.' a cell
 *   ...                       without a tree, 'T' a tree
 *
 * Comments and blank lines may stand before the header, between the header
 * and the count lines, between those and the grid, and after the grid.
 * Counts are decimal numbers up to 4096 (a parse error otherwise); a count
 * larger than its line has cells is well formed and infeasible. Everything
 * becomes a qubo_puzzle_tents_spec and goes through the common builder.
 *
 * A solution is the puzzle's header line, its cols and rows lines, and the
 * grid with 'A' for a tent, 'T' for a tree and '.' for an empty cell;
 * readers also accept the grid alone (and the count lines without the
 * header). A spec-built puzzle has no text form; its solution is the grid
 * alone.
 */
#include <stdio.h>
#include <string.h>

#include "tents_impl.h"

/* ---- reading a puzzle ---- */

struct tree_ctx {
	uint32_t w;
	uint32_t *trees;
	size_t ntrees;
};

static int tree_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct tree_ctx *g = ctx;

	if (ch == 'T') {
		g->trees[g->ntrees++] = row * g->w + col;
		return 0;
	}
	if (ch == 'A')
		return qubo__error_at(QUBO_ERR_PARSE, line_no, (size_t)col + 1,
				      "unexpected 'A' (a tent) in row %u: a puzzle grid has "
				      "only '.' and 'T'; tents belong in solutions",
				      (unsigned)row + 1);
	return ch == '.' ? 0 : 1;
}

/* The `cols` or `rows` line (`word`): exactly `len` counts, each a decimal
 * number up to 4096 (a count above its line's length is checked later, as
 * infeasible, once the grid has been read). With `want` (a solution's
 * line), each count must be the puzzle's. The words are walked one by one:
 * a line may hold 4096 of them. */
static int read_counts(const struct qubo__pz_line *line, const char *word, const char *what,
		       int32_t *counts, uint32_t len, const int32_t *want)
{
	struct qubo__pz_token first, t;
	size_t nt = qubo__pz_tokens(line, &first, 1), i, k;
	const char *s = line->s;
	const char *each = word[0] == 'c' ? "column" : "row";
	int rc;

	if (!nt || !qubo__pz_token_is(&first, word))
		return qubo__error_at(QUBO_ERR_PARSE, line->no, nt ? first.column : 1,
				      "expected the '%s' line: '%s' and the tent count of each "
				      "of the %u %s",
				      word, word, (unsigned)len, what);
	i = first.column - 1 + first.len;
	for (k = 0;; k++) {
		uint64_t v;
		char name[40];

		while (i < line->len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= line->len) {
			if (k < len)
				return qubo__error_at(
					QUBO_ERR_PARSE, line->no, qubo__pz_line_trimmed(line) + 1,
					"the '%s' line has %zu count%s, the board "
					"has %u %s",
					word, k, qubo__pz_tt_s((int64_t)k), (unsigned)len, what);
			return QUBO_OK;
		}
		t.s = s + i;
		t.column = i + 1;
		while (i < line->len && s[i] != ' ' && s[i] != '\t')
			i++;
		t.len = i - (t.column - 1);
		if (k >= len)
			return qubo__error_at(QUBO_ERR_PARSE, line->no, t.column,
					      "the '%s' line has more than the board's %u %s", word,
					      (unsigned)len, what);
		snprintf(name, sizeof name, "the tent count of %s %zu", each, k + 1);
		rc = qubo__pz_token_uint(line, &t, 0, QUBO__PZ_MAX_SIDE, name, &v);
		if (rc)
			return rc;
		if (want && (int64_t)v != want[k])
			return qubo__error_at(QUBO_ERR_PARSE, line->no, t.column,
					      "the solution's '%s' line gives %s %zu %llu "
					      "tent%s, the puzzle %d",
					      word, each, k + 1, (unsigned long long)v,
					      qubo__pz_tt_s((int64_t)v), (int)want[k]);
		counts[k] = (int32_t)v;
	}
}

/* The line after the counts of `word`, with the comments and blank lines
 * before it skipped; a parse error at the end of the input. */
static int next_line(struct qubo__pz_reader *r, struct qubo__pz_line *line, const char *what)
{
	if (qubo__pz_next_content(r, line, 1))
		return QUBO_OK;
	return qubo__pz_error_eof(r, "the puzzle ends before %s", what);
}

struct tt_buf {
	qubo_allocator a;
	int32_t *rows, *cols;
	uint32_t *trees;
};

/* A count larger than its line: infeasible, named. */
static int over_full(const char *what, uint32_t index, int32_t count, uint32_t len)
{
	return qubo__error(QUBO_ERR_INFEASIBLE,
			   "the puzzle has no solution: %s %u needs %d tents, but it has "
			   "only %u cell%s",
			   what, (unsigned)index, (int)count, (unsigned)len, qubo__pz_tt_s(len));
}

int qubo__pz_tents_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			 const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			 size_t ntoks, const struct qubo__pz_opts *opts)
{
	qubo_puzzle_tents_spec s = QUBO_PUZZLE_TENTS_SPEC_INIT;
	struct qubo__pz_line line;
	struct qubo__pz_grid g;
	struct tree_ctx ctx;
	struct tt_buf b;
	uint32_t w, h;
	size_t n;
	int rc;

	if (ntoks < 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, qubo__pz_line_trimmed(header) + 1,
				      "the header needs the board size: tents WxH");
	rc = qubo__pz_token_size(header, &toks[1], 0, &w, &h);
	if (!rc)
		rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 0);
	if (rc)
		return rc;
	if (ntoks > 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[2].column,
				      "unexpected word after the board size");
	/* sides of at most 4096 make at most QUBO__PZ_MAX_CELLS cells */
	n = (size_t)w * h;
	memset(&b, 0, sizeof b);
	rc = qubo__alloc_init(&b.a, opts->allocator, NULL);
	if (rc)
		return rc;
	b.cols = qubo__malloc_array(&b.a, w, sizeof *b.cols);
	b.rows = qubo__malloc_array(&b.a, h, sizeof *b.rows);
	b.trees = qubo__malloc_array(&b.a, n, sizeof *b.trees);
	if (!b.cols || !b.rows || !b.trees) {
		rc = qubo__nomem("the puzzle's grid");
		goto done;
	}
	if ((rc = next_line(r, &line, "its 'cols' line")) ||
	    (rc = read_counts(&line, "cols", "columns", b.cols, w, NULL)) ||
	    (rc = next_line(r, &line, "its 'rows' line")) ||
	    (rc = read_counts(&line, "rows", "rows", b.rows, h, NULL)) ||
	    (rc = next_line(r, &line, "its grid")))
		goto done;
	ctx.w = w;
	ctx.trees = b.trees;
	ctx.ntrees = 0;
	g.width = w;
	g.height = h;
	g.expected = "'.' (no tree) or 'T' (a tree)";
	g.pad = 0;
	g.cell = tree_cell;
	g.ctx = &ctx;
	rc = qubo__pz_read_grid(r, &line, &g);
	if (!rc)
		rc = qubo__pz_expect_end(r, 1, "after the grid");
	if (rc)
		goto done;
	for (n = 0; n < w && !rc; n++)
		if ((uint32_t)b.cols[n] > h)
			rc = over_full("column", (uint32_t)n + 1, b.cols[n], h);
	for (n = 0; n < h && !rc; n++)
		if ((uint32_t)b.rows[n] > w)
			rc = over_full("row", (uint32_t)n + 1, b.rows[n], w);
	if (rc)
		goto done;
	s.width = w;
	s.height = h;
	s.trees = b.trees;
	s.num_trees = ctx.ntrees;
	s.row_counts = b.rows;
	s.col_counts = b.cols;
	rc = qubo__pz_tt_create(out, &s, TT_TEXT, opts, "tents");
done:
	qubo__free(&b.a, b.cols);
	qubo__free(&b.a, b.rows);
	qubo__free(&b.a, b.trees);
	return rc;
}

/* ---- writing ---- */

static void count_line(qubo__sink *o, const char *word, const int32_t *counts, uint32_t len)
{
	uint32_t i;

	qubo__sink_put(o, word, strlen(word));
	for (i = 0; i < len; i++)
		qubo__sink_printf(o, " %d", (int)counts[i]);
	qubo__sink_putc(o, '\n');
}

static void head(const struct tt *t, qubo__sink *o)
{
	qubo__sink_printf(o, "tents %ux%u\n", (unsigned)t->w, (unsigned)t->h);
}

static void counts(const struct tt *t, qubo__sink *o)
{
	count_line(o, "cols", t->cols, t->w);
	count_line(o, "rows", t->rows, t->h);
}

/* The grid: 'A' where board (optional) has a tent (even on a tree, a board
 * the checker rejects, so that it reads back the same), 'T' at the other
 * trees, '.' elsewhere. */
static void grid(const struct tt *t, const uint8_t *board, qubo__sink *o)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		qubo__sink_putc(o, board && board[i] ? 'A' : t->tree[i] ? 'T' : '.');
		if (i % t->w == t->w - 1)
			qubo__sink_putc(o, '\n');
	}
}

int qubo__pz_tt_format(const qubo_puzzle *p, qubo__sink *o)
{
	const struct tt *t = p->data;

	if (t->kind != TT_TEXT)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "qubo_puzzle_format: a tents puzzle built from a spec has no "
				   "text form");
	head(t, o);
	counts(t, o);
	grid(t, NULL, o);
	return QUBO_OK;
}

void qubo__pz_tt_solution_header(const qubo_puzzle *p, qubo__sink *o)
{
	const struct tt *t = p->data;

	if (t->kind == TT_TEXT)
		head(t, o);
}

void qubo__pz_tt_solution_grid(const qubo_puzzle *p, const uint8_t *board, qubo__sink *o)
{
	const struct tt *t = p->data;

	if (t->kind == TT_TEXT)
		counts(t, o);
	grid(t, board, o);
}

/* ---- reading a solution ---- */

int qubo__pz_tt_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	const struct tt *t = p->data;
	struct qubo__pz_token toks[3];
	size_t nt = qubo__pz_tokens(line, toks, 3);
	uint32_t w, h;
	int rc;

	if (nt < 2)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, qubo__pz_line_trimmed(line) + 1,
				      "the solution's header has no board size");
	rc = qubo__pz_token_size(line, &toks[1], 0, &w, &h);
	if (rc)
		return rc;
	if (w != t->w || h != t->h)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
				      "the solution is for a %u x %u board, the puzzle's is "
				      "%u x %u",
				      (unsigned)w, (unsigned)h, (unsigned)t->w, (unsigned)t->h);
	if (nt > 2)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
				      "unexpected word in the solution's header");
	return QUBO_OK;
}

struct sol_ctx {
	const qubo_puzzle *p;
	uint8_t *board;
};

static int sol_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct sol_ctx *s = ctx;
	const struct tt *t = s->p->data;
	size_t i = (size_t)row * t->w + col;

	if (ch == 'A') {
		/* on a tree too: read, and left to the checker */
		s->board[i] = 1;
		return 0;
	}
	if (t->tree[i] && ch != 'T')
		return qubo__error_at(QUBO_ERR_PARSE, line_no, (size_t)col + 1,
				      "row %u has no 'T' at column %u, where the puzzle has a "
				      "tree",
				      (unsigned)row + 1, (unsigned)col + 1);
	if (!t->tree[i] && ch == 'T')
		return qubo__error_at(QUBO_ERR_PARSE, line_no, (size_t)col + 1,
				      "unexpected 'T' in row %u: the puzzle has no tree at "
				      "column %u",
				      (unsigned)row + 1, (unsigned)col + 1);
	return ch == '.' || ch == 'T' ? 0 : 1;
}

int qubo__pz_tt_solution_read(const qubo_puzzle *p, struct qubo__pz_reader *r,
			      const struct qubo__pz_line *first, uint8_t *board)
{
	const struct tt *t = p->data;
	struct qubo__pz_line line = *first;
	struct qubo__pz_token tok;
	struct qubo__pz_grid g;
	struct sol_ctx ctx;
	int32_t *buf;
	int rc = QUBO_OK;

	/* a comment right after the header */
	if (qubo__pz_line_comment(&line) && (rc = next_line(r, &line, "the solution grid")))
		return rc;
	if (qubo__pz_tokens(&line, &tok, 1) >= 1 && qubo__pz_token_is(&tok, "cols")) {
		buf = qubo__malloc_array(&p->alloc, t->w > t->h ? t->w : t->h, sizeof *buf);
		if (!buf)
			return qubo__nomem("the solution's counts");
		if (!(rc = read_counts(&line, "cols", "columns", buf, t->w, t->cols)) &&
		    !(rc = next_line(r, &line, "its 'rows' line")) &&
		    !(rc = read_counts(&line, "rows", "rows", buf, t->h, t->rows)))
			rc = next_line(r, &line, "the solution grid");
		qubo__free(&p->alloc, buf);
		if (rc)
			return rc;
	}
	ctx.p = p;
	ctx.board = board;
	g.width = t->w;
	g.height = t->h;
	g.expected = "'A' (a tent), '.' (empty) or 'T' (a tree)";
	g.pad = 0;
	g.cell = sol_cell;
	g.ctx = &ctx;
	return qubo__pz_read_grid(r, &line, &g);
}
