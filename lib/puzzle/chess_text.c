/*
 * Text form of the chess piece families (doc/formats.md):
 *
 *   chess WxH coloured|max       (or `chess N …` for N × N; `colored` too)
 *   piece A 1,2 -1,2 0,1* …      optional: custom pieces, one line each
 *   QQR.N                        height lines of width characters: the
 *   ...                          piece of each cell (Q R B N K or a custom
 *                                letter), lowercase for a pre-placed piece,
 *                                '.' where no piece may stand
 *   aabbc                        coloured only: the region grid, a-z, A-Z,
 *   ...                          0-9 (one region per character), '.' none
 *
 * A move is `drow,dcol` (one step, a leap) or `drow,dcol*` (a slide);
 * rows grow downwards. Everything becomes a qubo_puzzle_chess_spec and goes
 * through the common builder.
 */
#include <stdio.h>
#include <string.h>

#include "chess_impl.h"

/* Region characters, in the order that numbers the regions. */
static const char region_alphabet[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
#define NUM_REGION_CHARS (sizeof region_alphabet - 1)

/* Custom pieces of a text file: at most one per letter. */
#define MAX_TEXT_PIECES 26
#define MAX_TEXT_MOVES 64

struct text_piece {
	char letter;
	size_t nmoves;
	qubo_puzzle_chess_move moves[MAX_TEXT_MOVES];
};

struct chess_ctx {
	uint32_t w;
	int32_t *pieces;
	uint32_t *placed;
	size_t nplaced;
	int32_t *regions; /* region characters' alphabet index until numbered */
	const struct text_piece *custom;
	size_t ncustom;
};

static int32_t letter_code(const struct chess_ctx *g, unsigned char up)
{
	size_t k;
	int32_t b = qubo__pz_cz_builtin_of_letter(up);

	if (b != QUBO_PUZZLE_CHESS_NONE)
		return b;
	for (k = 0; k < g->ncustom; k++)
		if ((unsigned char)g->custom[k].letter == up)
			return QUBO_PUZZLE_CHESS_CUSTOM + (int32_t)k;
	return QUBO_PUZZLE_CHESS_NONE;
}

static int piece_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct chess_ctx *g = ctx;
	size_t i = (size_t)row * g->w + col;
	unsigned char up = ch >= 'a' && ch <= 'z' ? (unsigned char)(ch - 'a' + 'A') : ch;
	int32_t code;

	if (ch == '.') {
		g->pieces[i] = QUBO_PUZZLE_CHESS_NONE;
		return 0;
	}
	if (!(up >= 'A' && up <= 'Z'))
		return 1;
	code = letter_code(g, up);
	if (code == QUBO_PUZZLE_CHESS_NONE)
		return qubo__error_at(QUBO_ERR_PARSE, line_no, (size_t)col + 1,
				      "piece letter '%c' in row %u is not defined (Q R B N K "
				      "are built in; define others with a line 'piece %c "
				      "MOVES' before the grid)",
				      ch, (unsigned)row + 1, up);
	g->pieces[i] = code;
	if (ch != up)
		g->placed[g->nplaced++] = (uint32_t)i;
	return 0;
}

static int region_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct chess_ctx *g = ctx;
	const char *at;

	(void)line_no;
	if (ch == '.') {
		g->regions[(size_t)row * g->w + col] = -1;
		return 0;
	}
	at = ch ? strchr(region_alphabet, ch) : NULL;
	if (!at)
		return 1;
	g->regions[(size_t)row * g->w + col] = (int32_t)(at - region_alphabet);
	return 0;
}

/* A signed decimal number of a move, at s[*pos]; its column for messages. */
static int read_int(const struct qubo__pz_line *line, const struct qubo__pz_token *tok, size_t *pos,
		    const char *what, int32_t *out)
{
	size_t i = *pos, start;
	int neg = 0;
	int64_t v = 0;

	if (i < tok->len && (tok->s[i] == '-' || tok->s[i] == '+')) {
		neg = tok->s[i] == '-';
		i++;
	}
	start = i;
	while (i < tok->len && tok->s[i] >= '0' && tok->s[i] <= '9') {
		if (v <= (int64_t)QUBO__PZ_MAX_SIDE)
			v = v * 10 + (tok->s[i] - '0');
		i++;
	}
	if (i == start)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column + i,
				      "a move is ROW,COLUMN (with '*' after it for a slide); "
				      "expected the %s step here",
				      what);
	if (v > (int64_t)QUBO__PZ_MAX_SIDE)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column + *pos,
				      "the %s step of a move must be between -%u and %u", what,
				      QUBO__PZ_MAX_SIDE, QUBO__PZ_MAX_SIDE);
	*out = (int32_t)(neg ? -v : v);
	*pos = i;
	return QUBO_OK;
}

static int read_move(const struct qubo__pz_line *line, const struct qubo__pz_token *tok,
		     qubo_puzzle_chess_move *mv)
{
	size_t pos = 0;
	int rc = read_int(line, tok, &pos, "row", &mv->drow);

	if (rc)
		return rc;
	if (pos >= tok->len || tok->s[pos] != ',')
		return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column + pos,
				      "a move is ROW,COLUMN (with '*' after it for a slide); "
				      "expected ',' here");
	pos++;
	rc = read_int(line, tok, &pos, "column", &mv->dcol);
	if (rc)
		return rc;
	mv->slide = 0;
	if (pos < tok->len && tok->s[pos] == '*') {
		mv->slide = 1;
		pos++;
	}
	if (pos < tok->len)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column + pos,
				      "unexpected character after the move (a move is "
				      "ROW,COLUMN or ROW,COLUMN*)");
	if (mv->drow == 0 && mv->dcol == 0)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, tok->column,
				      "the move 0,0 goes nowhere");
	return QUBO_OK;
}

/* `piece X MOVE …` */
static int read_piece(const struct qubo__pz_line *line, struct text_piece *pcs, size_t *npcs)
{
	struct qubo__pz_token toks[MAX_TEXT_MOVES + 3];
	size_t nt = qubo__pz_tokens(line, toks, MAX_TEXT_MOVES + 3), k;
	struct text_piece *pc;
	unsigned char ch;
	int rc;

	ch = (unsigned char)toks[1].s[0];
	if (toks[1].len != 1 || !(ch >= 'A' && ch <= 'Z') ||
	    qubo__pz_cz_builtin_of_letter(ch) != QUBO_PUZZLE_CHESS_NONE)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
				      "a custom piece is named by one uppercase letter other "
				      "than Q, R, B, N and K");
	for (k = 0; k < *npcs; k++)
		if ((unsigned char)pcs[k].letter == ch)
			return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
					      "piece %c is defined twice", ch);
	if (nt - 2 > MAX_TEXT_MOVES)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[MAX_TEXT_MOVES + 2].column,
				      "a piece has at most %d moves", MAX_TEXT_MOVES);
	pc = &pcs[*npcs];
	pc->letter = (char)ch;
	pc->nmoves = 0;
	for (k = 2; k < nt; k++) {
		rc = read_move(line, &toks[k], &pc->moves[pc->nmoves]);
		if (rc)
			return rc;
		pc->nmoves++;
	}
	(*npcs)++;
	return QUBO_OK;
}

/* Nonzero when the line defines a piece: `piece` and at least one word. */
static int is_piece_line(const struct qubo__pz_line *line)
{
	struct qubo__pz_token toks[2];

	return qubo__pz_tokens(line, toks, 2) >= 2 && qubo__pz_token_is(&toks[0], "piece");
}

static int read_mode(const struct qubo__pz_token *tok, int32_t *mode)
{
	if (qubo__pz_token_is(tok, "coloured") || qubo__pz_token_is(tok, "colored"))
		*mode = QUBO_PUZZLE_CHESS_MODE_COLOURED;
	else if (qubo__pz_token_is(tok, "max"))
		*mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	else
		return 0;
	return 1;
}

struct chess_buf {
	qubo_allocator a;
	struct text_piece *pcs;
	int32_t *pieces, *regions;
	uint32_t *placed;
	size_t *set_start;
	qubo_puzzle_chess_move *moves;
};

static void buf_free(struct chess_buf *b)
{
	qubo__free(&b->a, b->pcs);
	qubo__free(&b->a, b->pieces);
	qubo__free(&b->a, b->regions);
	qubo__free(&b->a, b->placed);
	qubo__free(&b->a, b->set_start);
	qubo__free(&b->a, b->moves);
}

/* Numbers the regions used, in alphabet order; fills their characters. */
static size_t number_regions(int32_t *regions, size_t n, char *chars)
{
	int32_t map[NUM_REGION_CHARS];
	size_t i, k, nreg = 0;

	for (k = 0; k < NUM_REGION_CHARS; k++)
		map[k] = -1;
	for (i = 0; i < n; i++)
		if (regions[i] >= 0)
			map[regions[i]] = 0;
	for (k = 0; k < NUM_REGION_CHARS; k++)
		if (map[k] == 0) {
			map[k] = (int32_t)nreg;
			chars[nreg++] = region_alphabet[k];
		}
	for (i = 0; i < n; i++)
		if (regions[i] >= 0)
			regions[i] = map[regions[i]];
	return nreg;
}

int qubo__pz_chess_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			 const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			 size_t ntoks, const struct qubo__pz_opts *opts)
{
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	struct chess_buf b;
	struct chess_ctx ctx;
	struct qubo__pz_grid g;
	struct qubo__pz_line line;
	uint32_t w, h;
	int32_t mode;
	size_t n, k, m, npcs = 0;
	char letters[MAX_TEXT_PIECES + 1], reg_chars[NUM_REGION_CHARS + 1], expected[160];
	int rc;

	if (ntoks < 2)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, header->len + 1,
				      "the header needs the board size and the problem: chess "
				      "WxH coloured|max");
	rc = qubo__pz_token_size(header, &toks[1], 0, &w, &h);
	if (!rc)
		rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 0);
	if (rc)
		return rc;
	if (ntoks < 3)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, qubo__pz_line_trimmed(header) + 1,
				      "the header needs the problem after the size: 'coloured' "
				      "or 'max'");
	if (!read_mode(&toks[2], &mode))
		return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[2].column,
				      "unknown chess problem (expected 'coloured' or 'max')");
	if (ntoks > 3)
		return qubo__error_at(QUBO_ERR_PARSE, header->no, toks[3].column,
				      "unexpected word after '%s'",
				      mode == QUBO_PUZZLE_CHESS_MODE_MAX ? "max" : "coloured");
	if ((uint64_t)w * h > QUBO__PZ_MAX_CELLS)
		return qubo__too_large(QUBO_LIMIT_BOARD_CELLS, QUBO__PZ_MAX_CELLS,
				       "chess: the board has %llu cells, at most %zu are supported",
				       (unsigned long long)w * h, QUBO__PZ_MAX_CELLS);
	n = (size_t)w * h;
	memset(&b, 0, sizeof b);
	rc = qubo__alloc_init(&b.a, opts->allocator, NULL);
	if (rc)
		return rc;
	b.pcs = qubo__malloc_array(&b.a, MAX_TEXT_PIECES, sizeof *b.pcs);
	b.pieces = qubo__malloc_array(&b.a, n, sizeof *b.pieces);
	b.placed = qubo__malloc_array(&b.a, n, sizeof *b.placed);
	if (mode == QUBO_PUZZLE_CHESS_MODE_COLOURED)
		b.regions = qubo__malloc_array(&b.a, n, sizeof *b.regions);
	if (!b.pcs || !b.pieces || !b.placed ||
	    (mode == QUBO_PUZZLE_CHESS_MODE_COLOURED && !b.regions)) {
		rc = qubo__nomem("the puzzle's grid");
		goto done;
	}
	/* custom pieces, then the piece grid */
	for (;;) {
		if (!qubo__pz_next_content(r, &line, 1)) {
			rc = qubo__pz_error_eof(r,
						"the header is not followed by the %u x %u piece "
						"grid",
						(unsigned)w, (unsigned)h);
			goto done;
		}
		if (!is_piece_line(&line))
			break;
		if (npcs == MAX_TEXT_PIECES) {
			rc = qubo__error_at(QUBO_ERR_PARSE, line.no, 1,
					    "too many custom pieces (at most %d)", MAX_TEXT_PIECES);
			goto done;
		}
		rc = read_piece(&line, b.pcs, &npcs);
		if (rc)
			goto done;
	}
	ctx.w = w;
	ctx.pieces = b.pieces;
	ctx.placed = b.placed;
	ctx.nplaced = 0;
	ctx.regions = b.regions;
	ctx.custom = b.pcs;
	ctx.ncustom = npcs;
	snprintf(expected, sizeof expected,
		 "a piece letter (Q R B N K%s), lowercase for a pre-placed piece, or '.'",
		 npcs ? " or a custom piece's" : "");
	g.width = w;
	g.height = h;
	g.expected = expected;
	g.pad = 0;
	g.cell = piece_cell;
	g.ctx = &ctx;
	rc = qubo__pz_read_grid(r, &line, &g);
	if (rc)
		goto done;
	s.num_move_sets = npcs;
	if (mode == QUBO_PUZZLE_CHESS_MODE_COLOURED) {
		if (!qubo__pz_next_content(r, &line, 1)) {
			rc = qubo__pz_error_eof(r,
						"a coloured puzzle needs the %u x %u region "
						"grid after the piece grid",
						(unsigned)w, (unsigned)h);
			goto done;
		}
		g.expected = "a region character a-z, A-Z, 0-9, or '.' (no region)";
		g.cell = region_cell;
		rc = qubo__pz_read_grid(r, &line, &g);
		if (rc)
			goto done;
		s.regions = b.regions;
		reg_chars[number_regions(b.regions, n, reg_chars)] = '\0';
	}
	rc = qubo__pz_expect_end(r, 1, "after the grid");
	if (rc)
		goto done;
	/* the custom move sets */
	b.set_start = qubo__malloc_array(&b.a, npcs + 1, sizeof *b.set_start);
	b.moves = qubo__malloc_array(&b.a, npcs * MAX_TEXT_MOVES, sizeof *b.moves);
	if (!b.set_start || !b.moves) {
		rc = qubo__nomem("the puzzle's pieces");
		goto done;
	}
	m = 0;
	for (k = 0; k < npcs; k++) {
		b.set_start[k] = m;
		memcpy(b.moves + m, b.pcs[k].moves, b.pcs[k].nmoves * sizeof *b.moves);
		m += b.pcs[k].nmoves;
		letters[k] = b.pcs[k].letter;
	}
	b.set_start[npcs] = m;
	letters[npcs] = '\0';
	s.width = w;
	s.height = h;
	s.mode = mode;
	s.pieces = b.pieces;
	s.move_set_start = b.set_start;
	s.moves = b.moves;
	s.placed = b.placed;
	s.num_placed = ctx.nplaced;
	rc = qubo__pz_cz_create(out, &s, letters,
				mode == QUBO_PUZZLE_CHESS_MODE_COLOURED ? reg_chars : NULL, opts,
				"chess");
done:
	buf_free(&b);
	return rc;
}

/* ---- writing ---- */

static void header_line(const struct cz *z, qubo__sink *o)
{
	qubo__sink_printf(o, "chess %ux%u %s\n", (unsigned)z->w, (unsigned)z->h,
			z->mode == QUBO_PUZZLE_CHESS_MODE_MAX ? "max" : "coloured");
}

int qubo__pz_cz_format(const qubo_puzzle *p, qubo__sink *o)
{
	const struct cz *z = p->data;
	size_t i, k, j;

	if (!z->text)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "qubo_puzzle_format: a chess puzzle built from a spec has no "
				   "text form");
	header_line(z, o);
	for (k = 0; k < z->sets.n; k++) {
		qubo__sink_printf(o, "piece %c", z->sets.letters[k]);
		for (j = z->sets.start[k]; j < z->sets.start[k + 1]; j++) {
			const qubo_puzzle_chess_move *mv = &z->sets.moves[j];

			qubo__sink_printf(o, " %d,%d%s", (int)mv->drow, (int)mv->dcol,
					  mv->slide ? "*" : "");
		}
		qubo__sink_putc(o, '\n');
	}
	for (i = 0; i < z->n; i++) {
		char ch = '.';

		if (z->code[i] != QUBO_PUZZLE_CHESS_NONE) {
			ch = qubo__pz_cz_piece_letter(&z->sets, z->code[i]);
			if (z->placed[i])
				ch = (char)(ch - 'A' + 'a');
		}
		qubo__sink_putc(o, ch);
		if (i % z->w == z->w - 1)
			qubo__sink_putc(o, '\n');
	}
	if (z->mode != QUBO_PUZZLE_CHESS_MODE_COLOURED)
		return QUBO_OK;
	qubo__sink_putc(o, '\n');
	for (i = 0; i < z->n; i++) {
		qubo__sink_putc(o,
				z->region && z->region[i] >= 0 ? z->reg_char[z->region[i]] : '.');
		if (i % z->w == z->w - 1)
			qubo__sink_putc(o, '\n');
	}
	return QUBO_OK;
}

void qubo__pz_cz_solution_header(const qubo_puzzle *p, qubo__sink *o)
{
	const struct cz *z = p->data;

	if (z->text)
		header_line(z, o);
}

int qubo__pz_cz_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	const struct cz *z = p->data;
	struct qubo__pz_token toks[4];
	size_t nt = qubo__pz_tokens(line, toks, 4);
	uint32_t w, h;
	int32_t mode;
	int rc;

	if (nt < 2)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, line->len + 1,
				      "the solution's header has no board size");
	rc = qubo__pz_token_size(line, &toks[1], 0, &w, &h);
	if (rc)
		return rc;
	if (w != z->w || h != z->h)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
				      "the solution is for a %u x %u board, the puzzle's is "
				      "%u x %u",
				      (unsigned)w, (unsigned)h, (unsigned)z->w, (unsigned)z->h);
	if (nt < 3)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, qubo__pz_line_trimmed(line) + 1,
				      "the solution's header needs 'coloured' or 'max'");
	if (!read_mode(&toks[2], &mode) || mode != z->mode)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
				      "the solution's header does not name the puzzle's "
				      "problem ('%s')",
				      z->mode == QUBO_PUZZLE_CHESS_MODE_MAX ? "max" : "coloured");
	if (nt > 3)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[3].column,
				      "unexpected word in the solution's header");
	return QUBO_OK;
}
