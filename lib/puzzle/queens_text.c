/*
 * Text forms of the queens family (doc/formats.md):
 *
 *   queens N [stars K]     N lines of N region letters; the N regions are
 *                          the letters a, b, … (the N-th letter last); an
 *                          uppercase letter is a pre-placed queen (star) in
 *                          its lowercase region; '.' is not on the board.
 *                          K queens ("stars") per row, column and region
 *                          (default 1); with K = 1 no two are diagonal
 *                          neighbours, with K ≥ 2 no two are neighbours in
 *                          any of the eight directions (Star Battle).
 *   nqueens N [torus|cylinder]
 *                          optionally N lines of '.', 'Q' (pre-placed) and
 *                          '#' (not on the board). One queen per row and
 *                          column, none on a common diagonal.
 *
 * Both become a qubo_puzzle_queens_spec and go through the common builder.
 */
#include <stdio.h>
#include <string.h>

#include "queens_impl.h"

/* Letters name regions, so a queens board has at most 26 rows. */
#define QUEENS_MAX_SIZE 26u

struct grid_ctx {
	uint32_t n;
	uint8_t *cells; /* the character of each cell */
};

static int queens_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct grid_ctx *g = ctx;
	unsigned char lower = ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch - 'A' + 'a') : ch;

	if (ch != '.' && !(lower >= 'a' && lower <= 'z'))
		return 1;
	if (ch != '.' && (unsigned)(lower - 'a') >= g->n)
		return qubo__error_at(QUBO_ERR_PARSE, line_no, (size_t)col + 1,
				      "region letter '%c' in row %u is beyond the %u regions "
				      "(a-%c) of a size-%u board",
				      ch, (unsigned)row + 1, (unsigned)g->n, 'a' + (int)g->n - 1,
				      (unsigned)g->n);
	g->cells[(size_t)row * g->n + col] = ch;
	return 0;
}

static int nqueens_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct grid_ctx *g = ctx;

	(void)line_no;
	if (ch != '.' && ch != 'Q' && ch != '#')
		return 1;
	g->cells[(size_t)row * g->n + col] = ch;
	return 0;
}

/* Builds the spec of a queens or nqueens grid and creates the puzzle. */
static int create_from_grid(qubo_puzzle **out, const uint8_t *cells, uint32_t n, int32_t kind,
			    int32_t stars, int32_t wrap, const struct qubo__pz_opts *opts)
{
	qubo_puzzle_queens_spec s = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_allocator a;
	size_t nc = (size_t)n * n, i, k, nq = 0;
	uint8_t *off = NULL;
	int32_t *rc_counts = NULL, *reg_counts = NULL;
	size_t *reg_start = NULL;
	uint32_t *reg_cells = NULL, *queens = NULL;
	const char *fn = kind == QZ_QUEENS ? "queens" : "nqueens";
	int d, rc = qubo__alloc_init(&a, opts->allocator, NULL);

	if (rc)
		return rc;
	off = qubo__malloc_array(&a, nc, 1);
	rc_counts = qubo__malloc_array(&a, n, sizeof *rc_counts);
	queens = qubo__malloc_array(&a, nc, sizeof *queens);
	if (kind == QZ_QUEENS) {
		reg_counts = qubo__malloc_array(&a, n, sizeof *reg_counts);
		reg_start = qubo__malloc_array(&a, (size_t)n + 1, sizeof *reg_start);
		reg_cells = qubo__malloc_array(&a, nc, sizeof *reg_cells);
	}
	if (!off || !rc_counts || !queens ||
	    (kind == QZ_QUEENS && (!reg_counts || !reg_start || !reg_cells))) {
		rc = qubo__nomem("the puzzle's grid");
		goto done;
	}
	for (i = 0; i < n; i++)
		rc_counts[i] = stars;
	for (i = 0; i < nc; i++) {
		unsigned char ch = cells ? cells[i] : '.';

		off[i] = kind == QZ_QUEENS ? ch == '.' : ch == '#';
		if ((kind == QZ_QUEENS && ch >= 'A' && ch <= 'Z') ||
		    (kind == QZ_NQUEENS && ch == 'Q'))
			queens[nq++] = (uint32_t)i;
	}
	s.width = s.height = n;
	s.off_board = off;
	s.row_counts = rc_counts;
	s.col_counts = rc_counts;
	s.queens = queens;
	s.num_queens = nq;
	s.wrap = wrap;
	if (kind == QZ_QUEENS) {
		size_t used = 0;

		for (k = 0; k < n; k++) {
			reg_start[k] = used;
			reg_counts[k] = stars;
			for (i = 0; i < nc; i++) {
				unsigned char ch = cells[i];

				if (ch != '.' && ((ch | 0x20) - 'a') == (int)k)
					reg_cells[used++] = (uint32_t)i;
			}
		}
		reg_start[n] = used;
		s.num_regions = n;
		s.region_start = reg_start;
		s.region_cells = reg_cells;
		s.region_counts = reg_counts;
		for (d = 0; d < 8; d++)
			s.reach[d] = (d % 2 == 1 || stars > 1) ? 1 : 0;
	} else {
		for (d = 1; d < 8; d += 2)
			s.reach[d] = QUBO_PUZZLE_QUEENS_UNLIMITED;
	}
	rc = qubo__pz_qz_create(out, &s, kind, stars, opts, fn);
done:
	qubo__free(&a, off);
	qubo__free(&a, rc_counts);
	qubo__free(&a, queens);
	qubo__free(&a, reg_counts);
	qubo__free(&a, reg_start);
	qubo__free(&a, reg_cells);
	return rc;
}

int qubo__pz_queens_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			  const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			  size_t ntoks, const struct qubo__pz_opts *opts)
{
	struct qubo__pz_grid g;
	struct grid_ctx ctx;
	struct qubo__pz_line first;
	qubo_allocator a;
	uint32_t w, h;
	uint64_t stars = 1;
	char expected[96];
	int rc;

	if (ntoks < 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, header->len + 1,
				      "the header needs the board size: queens N");
	rc = qubo__pz_token_size(header, &toks[1], 1, &w, &h);
	if (!rc)
		rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 1);
	if (rc)
		return rc;
	if (w > QUEENS_MAX_SIZE)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[1].column,
				      "a queens board of size %u needs %u regions, but region "
				      "letters go from a to z (at most 26)",
				      (unsigned)w, (unsigned)w);
	if (ntoks >= 3) {
		if (!qubo__pz_token_is(&toks[2], "stars"))
			return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[2].column,
					      "unexpected word in the header (expected 'stars "
					      "K' or the end of the line)");
		if (ntoks == 3)
			return qubo__error_at(QUBO_ERR_PARSE, header->no,
					      qubo__pz_line_trimmed(header) + 1,
					      "'stars' needs a count: queens N stars K");
		rc = qubo__pz_token_uint(header, &toks[3], 1, QUBO__PZ_MAX_SIDE,
					 "the number of stars", &stars);
		if (rc)
			return rc;
		if (ntoks > 4)
			return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[4].column,
					      "unexpected word after 'stars %u'", (unsigned)stars);
	}
	if (!qubo__pz_next_content(r, &first, 1))
		return qubo__pz_error_eof(r, "the header is not followed by the %u x %u grid",
					  (unsigned)w, (unsigned)w);
	rc = qubo__alloc_init(&a, opts->allocator, NULL);
	if (rc)
		return rc;
	ctx.n = w;
	ctx.cells = qubo__malloc_array(&a, (size_t)w * w, 1);
	if (!ctx.cells)
		return qubo__nomem("the puzzle's grid");
	snprintf(expected, sizeof expected,
		 "a region letter a-%c, A-%c for a pre-placed %s, or '.'", 'a' + (int)w - 1,
		 'A' + (int)w - 1, stars > 1 ? "star" : "queen");
	g.width = g.height = w;
	g.expected = expected;
	g.pad = 0;
	g.cell = queens_cell;
	g.ctx = &ctx;
	rc = qubo__pz_read_grid(r, &first, &g);
	if (!rc)
		rc = qubo__pz_expect_end(r, 1, "after the grid");
	if (!rc)
		rc = create_from_grid(out, ctx.cells, w, QZ_QUEENS, (int32_t)stars,
				      QUBO_PUZZLE_WRAP_NONE, opts);
	qubo__free(&a, ctx.cells);
	return rc;
}

int qubo__pz_nqueens_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			   const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			   size_t ntoks, const struct qubo__pz_opts *opts)
{
	struct qubo__pz_grid g;
	struct grid_ctx ctx;
	struct qubo__pz_line first;
	qubo_allocator a;
	uint32_t w, h;
	int32_t wrap = QUBO_PUZZLE_WRAP_NONE;
	int rc;

	if (ntoks < 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, header->len + 1,
				      "the header needs the board size: nqueens N");
	rc = qubo__pz_token_size(header, &toks[1], 1, &w, &h);
	if (!rc)
		rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 1);
	if (rc)
		return rc;
	if (ntoks >= 3) {
		if (qubo__pz_token_is(&toks[2], "torus"))
			wrap = QUBO_PUZZLE_WRAP_TORUS;
		else if (qubo__pz_token_is(&toks[2], "cylinder"))
			wrap = QUBO_PUZZLE_WRAP_CYLINDER;
		else
			return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[2].column,
					      "unexpected word in the header (expected 'torus', "
					      "'cylinder' or the end of the line)");
		if (ntoks > 3)
			return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[3].column,
					      "unexpected word after '%s'",
					      wrap == QUBO_PUZZLE_WRAP_TORUS ? "torus" :
									       "cylinder");
	}
	/* '#' is a cell here, so no comment lines after the header. */
	if (!qubo__pz_next_content(r, &first, 0))
		return create_from_grid(out, NULL, w, QZ_NQUEENS, 1, wrap, opts);
	rc = qubo__alloc_init(&a, opts->allocator, NULL);
	if (rc)
		return rc;
	ctx.n = w;
	ctx.cells = qubo__malloc_array(&a, (size_t)w * w, 1);
	if (!ctx.cells)
		return qubo__nomem("the puzzle's grid");
	g.width = g.height = w;
	g.expected = "'.', 'Q' (a pre-placed queen) or '#' (not on the board)";
	g.pad = 0;
	g.cell = nqueens_cell;
	g.ctx = &ctx;
	rc = qubo__pz_read_grid(r, &first, &g);
	if (!rc)
		rc = qubo__pz_expect_end(r, 0, "after the grid");
	if (!rc)
		rc = create_from_grid(out, ctx.cells, w, QZ_NQUEENS, 1, wrap, opts);
	qubo__free(&a, ctx.cells);
	return rc;
}

/* ---- writing ---- */

static void header_line(const struct qz *q, qubo__sink *o)
{
	if (q->kind == QZ_QUEENS) {
		qubo__sink_printf(o, "queens %u", (unsigned)q->w);
		if (q->stars != 1)
			qubo__sink_printf(o, " stars %d", (int)q->stars);
	} else {
		qubo__sink_printf(o, "nqueens %u", (unsigned)q->w);
		if (q->wrap == QUBO_PUZZLE_WRAP_TORUS)
			qubo__sink_printf(o, " torus");
		else if (q->wrap == QUBO_PUZZLE_WRAP_CYLINDER)
			qubo__sink_printf(o, " cylinder");
	}
	qubo__sink_putc(o, '\n');
}

int qubo__pz_qz_format(const qubo_puzzle *p, qubo__sink *o)
{
	const struct qz *q = p->data;
	size_t i, k;
	int plain = 1;

	header_line(q, o);
	if (q->kind == QZ_NQUEENS) {
		for (i = 0; i < q->n; i++)
			plain &= q->on[i] && !q->given[i];
		if (plain)
			return QUBO_OK;
	}
	for (i = 0; i < q->n; i++) {
		char ch;

		if (q->kind == QZ_NQUEENS) {
			ch = !q->on[i] ? '#' : q->given[i] ? 'Q' : '.';
		} else {
			ch = '.';
			for (k = q->memb_start[i]; k < q->memb_start[i + 1]; k++) {
				const struct qz_con *con = &q->con[q->memb[k]];

				if (con->kind == QZ_REGION)
					ch = (char)((q->given[i] ? 'A' : 'a') + (int)con->index);
			}
		}
		qubo__sink_putc(o, ch);
		if (i % q->w == q->w - 1)
			qubo__sink_putc(o, '\n');
	}
	return QUBO_OK;
}

void qubo__pz_qz_solution_header(const qubo_puzzle *p, qubo__sink *o)
{
	const struct qz *q = p->data;

	if (q->kind != QZ_SPEC)
		header_line(q, o);
}

char qubo__pz_qz_solution_char(const qubo_puzzle *p, size_t cell, uint8_t value)
{
	const struct qz *q = p->data;

	if (value)
		return 'Q';
	return q->kind != QZ_QUEENS && !q->on[cell] ? '#' : '.';
}

int qubo__pz_qz_solution_value(const qubo_puzzle *p, size_t cell, unsigned char ch)
{
	const struct qz *q = p->data;

	if (ch == 'Q')
		return 1;
	if (ch == '.')
		return 0;
	if (ch == '#' && q->kind != QZ_QUEENS && !q->on[cell])
		return 0;
	return -1;
}

int qubo__pz_qz_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	const struct qz *q = p->data;
	struct qubo__pz_token toks[5];
	size_t nt = qubo__pz_tokens(line, toks, 5), want = 2;
	uint32_t w, h;
	int rc;

	if (nt < 2)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, line->len + 1,
				      "the solution's header has no board size");
	rc = qubo__pz_token_size(line, &toks[1], 1, &w, &h);
	if (rc)
		return rc;
	if (w != q->w)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
				      "the solution is for a board of size %u, the puzzle's is "
				      "%u",
				      (unsigned)w, (unsigned)q->w);
	if (q->kind == QZ_QUEENS) {
		uint64_t k = 1;

		if (nt >= 3) {
			if (nt < 4 || !qubo__pz_token_is(&toks[2], "stars"))
				return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
						      "unexpected word in the solution's header");
			rc = qubo__pz_token_uint(line, &toks[3], 1, QUBO__PZ_MAX_SIDE,
						 "the number of stars", &k);
			if (rc)
				return rc;
			want = 4;
		}
		if (k != (uint64_t)q->stars)
			return qubo__error_at(QUBO_ERR_PARSE, line->no,
					      nt >= 4 ? toks[3].column : line->len + 1,
					      "the solution has %u stars per unit, the puzzle %d",
					      (unsigned)k, (int)q->stars);
	} else {
		int32_t wrap = QUBO_PUZZLE_WRAP_NONE;

		if (nt >= 3) {
			if (qubo__pz_token_is(&toks[2], "torus"))
				wrap = QUBO_PUZZLE_WRAP_TORUS;
			else if (qubo__pz_token_is(&toks[2], "cylinder"))
				wrap = QUBO_PUZZLE_WRAP_CYLINDER;
			else
				return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
						      "unexpected word in the solution's header");
			want = 3;
		}
		if (wrap != q->wrap)
			return qubo__error_at(QUBO_ERR_PARSE, line->no,
					      nt >= 3 ? toks[2].column : line->len + 1,
					      "the solution's board wraps differently from the "
					      "puzzle's");
	}
	if (nt > want)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[want].column,
				      "unexpected word in the solution's header");
	return QUBO_OK;
}
