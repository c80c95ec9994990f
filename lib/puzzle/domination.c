/*
 * Minimum domination (the minimum dominating set of queens, generalised to
 * every piece): place as few pieces as possible so that every cell on the
 * board holds one or is attacked by one. The spec, the model, the rule
 * checker and the text form
 *
 *   domination N [PIECE]        or  domination WxH [PIECE]
 *   ..#.                        optional: height lines of width characters,
 *   ...                         '.' on the board, '#' not on the board
 *
 * with PIECE one of queen (the default), rook, bishop, knight, king.
 *
 * The model (doc/formulations.md): with N[c] the cell c and every cell
 * whose piece attacks c, and g the size of a dominating set found greedily,
 *   Σ_c x_c + (1 + P) Σ_c (Σ_{c' ∈ N[c]} x_c' − 1 − s_c)²
 * where s_c, a binary slack number, ranges over 0 … min(|N[c]|, g) − 1
 * (tight, the default) or 0 … |N[c]| − 1 (full); qubo_penalty_range() adds
 * each cover term. Over the best slack, a board x costs |x| + (1 + P) ×
 * (number of cells it leaves uncovered, plus for the tight form the squared
 * excess of cells covered more than g times). A smallest dominating set
 * (size γ ≤ g) covers no cell more than γ times, so it costs γ; any other
 * dominating set costs more than γ; a board leaving u > 0 cells uncovered
 * with |x| < γ covers no cell more than g times and costs
 * |x| + (1 + P) u ≥ γ + P u (adding one piece per uncovered cell gives a
 * dominating set, so |x| + u ≥ γ), and with |x| ≥ γ it costs more than γ.
 * So the minimisers are exactly the smallest dominating sets.
 */
#include <stdio.h>
#include <string.h>

#include "chess_impl.h"

/* Steps the greedy search may take over all cells before it falls back to
 * choosing among the neighbours of the first uncovered cell. */
#define GREEDY_BUDGET ((uint64_t)1 << 26)

/* Pairwise terms the cover cliques may expand to (Σ_c C(|N[c]| + slack, 2))
 * before a board counts as too large: dense attack graphs (queens on a
 * 50 x 50 board) give models no solver could hold. */
#define MAX_PAIRS ((uint64_t)1 << 25)

static void dz_destroy(const qubo_allocator *a, void *data)
{
	struct dz *d = data;

	if (!d)
		return;
	qubo__free(a, d->on);
	qubo__pz_cz_sets_free(&d->sets, a);
	qubo__free(a, d->out_start);
	qubo__free(a, d->out);
	qubo__free(a, d->in_start);
	qubo__free(a, d->in);
	qubo__free(a, d);
}

static int check_spec(const qubo_puzzle_domination_spec *s, const char *fn)
{
	int rc = qubo__check_struct(s, s->struct_size, QUBO_PUZZLE_DOMINATION_SPEC_SIZE_V1,
				    sizeof *s, "qubo_puzzle_domination_spec", fn);

	if (rc)
		return rc;
	rc = qubo__pz_check_board(s->width, s->height, fn);
	if (rc)
		return rc;
	if (!((s->piece >= 0 && s->piece < QUBO__CZ_BUILTINS) ||
	      s->piece == QUBO_PUZZLE_CHESS_CUSTOM))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.piece is %d, expected 0-4 (queen, rook, bishop, "
				   "knight, king) or QUBO_PUZZLE_CHESS_CUSTOM (%d)",
				   fn, (int)s->piece, QUBO_PUZZLE_CHESS_CUSTOM);
	if (s->piece != QUBO_PUZZLE_CHESS_CUSTOM && (s->num_moves || s->moves))
		return qubo__error(
			QUBO_ERR_INVALID_ARG,
			"%s: spec.moves and spec.num_moves are for QUBO_PUZZLE_CHESS_CUSTOM "
			"only; spec.piece is %d",
			fn, (int)s->piece);
	if (s->piece == QUBO_PUZZLE_CHESS_CUSTOM) {
		rc = qubo__pz_cz_check_moves(s->moves, s->num_moves, "spec.moves", fn);
		if (rc)
			return rc;
	}
	if (s->slack != QUBO_PUZZLE_DOMINATION_SLACK_TIGHT &&
	    s->slack != QUBO_PUZZLE_DOMINATION_SLACK_FULL)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.slack is %d, expected 0 (tight) or 1 (full)", fn,
				   (int)s->slack);
	return QUBO_OK;
}

/* The domination number when it is known without search, or 0 (with *known
 * cleared). */
static size_t known_gamma(const struct dz *d, int *known)
{
	static const uint8_t queens[13] = { 0, 1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6 };
	size_t i, on = 0;

	*known = 0;
	for (i = 0; i < d->n; i++)
		on += d->on[i];
	if (on == 0) {
		*known = 1;
		return 0;
	}
	if (on != d->n)
		return 0;
	if (d->piece == QUBO_PUZZLE_CHESS_QUEEN && d->w == d->h && d->w <= 12) {
		*known = 1;
		return queens[d->w];
	}
	if (d->piece == QUBO_PUZZLE_CHESS_ROOK) {
		*known = 1;
		return d->w < d->h ? d->w : d->h;
	}
	if (d->piece == QUBO_PUZZLE_CHESS_KING) {
		*known = 1;
		return (size_t)((d->w + 2) / 3) * ((d->h + 2) / 3);
	}
	return 0;
}

/* Newly covered cells if a piece stood on a. */
static size_t gain(const struct dz *d, const uint8_t *cov, size_t a)
{
	size_t k, g = !cov[a];

	for (k = d->out_start[a]; k < d->out_start[a + 1]; k++)
		g += !cov[d->out[k]];
	return g;
}

/* The size of a dominating set chosen greedily: the cell that covers most
 * uncovered cells (ties: the first), while the budget lasts; then, for the
 * first uncovered cell, the best of it and its attackers. */
static int greedy(struct dz *d, const qubo_allocator *a, struct qubo__pz_ctl *ctl)
{
	uint8_t *cov = qubo__malloc_array(a, d->n, 1);
	size_t i, left = 0, scan = 0, count = 0;
	uint64_t work = 0, step = (uint64_t)d->n + d->out_start[d->n], pending = 0;
	int rc = QUBO_OK;

	if (!cov)
		return qubo__nomem("the greedy dominating set");
	for (i = 0; i < d->n; i++) {
		cov[i] = !d->on[i];
		left += d->on[i];
	}
	while (left && !rc) {
		size_t best = d->n, bg = 0, k;

		if (work + step <= GREEDY_BUDGET) {
			work += step;
			for (i = 0; i < d->n; i++) {
				size_t g;

				if (!d->on[i])
					continue;
				g = gain(d, cov, i);
				if (g > bg) {
					bg = g;
					best = i;
				}
			}
		} else {
			while (cov[scan])
				scan++;
			best = scan;
			bg = gain(d, cov, scan);
			for (k = d->in_start[scan]; k < d->in_start[scan + 1]; k++) {
				size_t g = gain(d, cov, d->in[k]);

				if (g > bg) {
					bg = g;
					best = d->in[k];
				}
			}
		}
		count++;
		left -= !cov[best];
		cov[best] = 1;
		for (k = d->out_start[best]; k < d->out_start[best + 1]; k++) {
			left -= !cov[d->out[k]];
			cov[d->out[k]] = 1;
		}
		rc = qubo__pz_build_tick(ctl, &pending, step);
	}
	qubo__free(a, cov);
	d->greedy = count;
	return rc;
}

/* The pairwise terms the cover term of a cell that `in` cells attack
 * expands to: its |N[c]| = in + 1 pieces and at most log2 of that in
 * slack. */
static uint64_t cover_pairs(uint64_t in)
{
	uint64_t len = in + 1, bits = 0;

	while (((uint64_t)1 << bits) < len)
		bits++;
	len += bits;
	return len * (len - 1) / 2;
}

/* Refuses, before the attack graph is listed, a board whose graph or cover
 * terms pass the limits: the attackers of every cell are counted from the
 * board (qubo__pz_cz_reach_check). */
static int check_sizes(const struct dz *d, const qubo_allocator *a, const int32_t *codes,
		       struct qubo__pz_ctl *ctl, const char *fn)
{
	uint32_t *in = qubo__calloc_array(a, d->n, sizeof *in);
	uint64_t pairs = 0;
	size_t i;
	int rc;

	if (!in)
		return qubo__nomem("the attack graph");
	rc = qubo__pz_cz_reach_check(a, d->w, d->h, codes, &d->sets, d->on, QUBO__CZ_MAX_ENTRIES,
				     in, ctl, fn);
	for (i = 0; !rc && i < d->n; i++)
		if (d->on[i])
			pairs += cover_pairs(in[i]);
	qubo__free(a, in);
	if (!rc && pairs > MAX_PAIRS)
		rc = qubo__too_large(QUBO_LIMIT_PAIRWISE_TERMS, MAX_PAIRS,
				     "%s: the cover terms of this board expand to about %llu "
				     "pairwise terms, more than the %llu supported",
				     fn, (unsigned long long)pairs, (unsigned long long)MAX_PAIRS);
	return rc;
}

static int build_model(const struct dz *d, const qubo_allocator *a, struct qubo__pz_ctl *ctl,
		       double P, size_t bound, qubo_model **model_out, qubo_lit *lits)
{
	qubo_model *m = NULL;
	qubo_lit *buf = NULL;
	int64_t *ones = NULL;
	double *cost = NULL;
	size_t nv = 0, i, k, maxin = 0;
	uint64_t pending = 0;
	int rc;

	*model_out = NULL;
	for (i = 0; i < d->n; i++) {
		lits[i] = d->on[i] ? QUBO_LIT(nv++) : QUBO_LIT_FALSE;
		if (d->in_start[i + 1] - d->in_start[i] > maxin)
			maxin = d->in_start[i + 1] - d->in_start[i];
	}
	rc = qubo_model_new(&m, nv, a);
	qubo__pz_build_watch(m, ctl);
	if (rc)
		return rc;
	buf = qubo__malloc_array(a, maxin + 1 > nv ? maxin + 1 : nv, sizeof *buf);
	ones = qubo__malloc_array(a, maxin + 1, sizeof *ones);
	cost = qubo__malloc_array(a, nv, sizeof *cost);
	if (!buf || !ones || !cost) {
		rc = qubo__nomem("the model's terms");
		goto fail;
	}
	/* one per piece: a reward of -1 */
	for (i = 0; i < nv; i++) {
		buf[i] = QUBO_LIT(i);
		cost[i] = -1.0;
	}
	rc = qubo_penalty_reward(m, buf, cost, nv);
	if (rc)
		goto fail;
	for (i = 0; i <= maxin; i++)
		ones[i] = 1;
	for (i = 0; i < d->n; i++) {
		size_t cnt = 0, hi;

		if (!d->on[i])
			continue;
		buf[cnt++] = lits[i];
		for (k = d->in_start[i]; k < d->in_start[i + 1]; k++)
			buf[cnt++] = lits[d->in[k]];
		hi = cnt;
		if (d->slack == QUBO_PUZZLE_DOMINATION_SLACK_TIGHT && bound < hi)
			hi = bound;
		rc = qubo_penalty_range(m, buf, ones, cnt, 1, (int64_t)hi, 1.0 + P, NULL, NULL);
		/* a cover term of cnt literals and its slack: about cnt² / 2 pairs */
		if (!rc)
			rc = qubo__pz_build_tick(ctl, &pending, (uint64_t)cnt * cnt / 2);
		if (rc)
			goto fail;
	}
	rc = qubo_model_compile(m);
	if (rc)
		goto fail;
	qubo__free(a, buf);
	qubo__free(a, ones);
	qubo__free(a, cost);
	*model_out = m;
	return QUBO_OK;
fail:
	qubo__free(a, buf);
	qubo__free(a, ones);
	qubo__free(a, cost);
	qubo_model_free(m);
	return rc;
}

/* ---- the rule checker (never looks at the model) ---- */

static void dz_check(const qubo_puzzle *p, const uint8_t *board, struct qubo__pz_report *rep)
{
	const struct dz *d = p->data;
	char piece[48];
	size_t i, k;
	uint8_t *cov = qubo__calloc_array(&p->alloc, d->n, 1);

	qubo__pz_cz_piece_name(&d->sets, d->piece, piece, sizeof piece);
	for (i = 0; i < d->n; i++)
		if (board[i] && !d->on[i])
			qubo__pz_violation(rep, "%s at row %zu, column %zu is not on the board",
					   piece, i / d->w + 1, i % d->w + 1);
	for (i = 0; i < d->n; i++) {
		int covered;

		if (!d->on[i])
			continue;
		if (cov) {
			if (board[i]) {
				cov[i] = 1;
				for (k = d->out_start[i]; k < d->out_start[i + 1]; k++)
					cov[d->out[k]] = 1;
			}
			continue;
		}
		/* out of memory: the slower way, cell by cell */
		covered = board[i];
		for (k = d->in_start[i]; !covered && k < d->in_start[i + 1]; k++)
			covered = board[d->in[k]];
		if (!covered)
			qubo__pz_violation(rep,
					   "row %zu, column %zu is not dominated: no %s stands on "
					   "it or attacks it",
					   i / d->w + 1, i % d->w + 1, piece);
	}
	if (!cov)
		return;
	for (i = 0; i < d->n; i++)
		if (d->on[i] && !cov[i])
			qubo__pz_violation(rep,
					   "row %zu, column %zu is not dominated: no %s stands on "
					   "it or attacks it",
					   i / d->w + 1, i % d->w + 1, piece);
	qubo__free(&p->alloc, cov);
}

/* ---- text ---- */

static void header_line(const struct dz *d, qubo__sink *o)
{
	if (d->w == d->h)
		qubo__sink_printf(o, "domination %u", (unsigned)d->w);
	else
		qubo__sink_printf(o, "domination %ux%u", (unsigned)d->w, (unsigned)d->h);
	if (d->piece != QUBO_PUZZLE_CHESS_QUEEN)
		qubo__sink_printf(o, " %s", qubo__pz_cz_builtin_word(d->piece));
	qubo__sink_putc(o, '\n');
}

static int dz_format(const qubo_puzzle *p, qubo__sink *o)
{
	const struct dz *d = p->data;
	size_t i;
	int full = 1;

	if (!d->text)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "qubo_puzzle_format: a domination puzzle built from a spec "
				   "has no text form");
	header_line(d, o);
	for (i = 0; i < d->n; i++)
		full &= d->on[i];
	if (full)
		return QUBO_OK;
	for (i = 0; i < d->n; i++) {
		qubo__sink_putc(o, d->on[i] ? '.' : '#');
		if (i % d->w == d->w - 1)
			qubo__sink_putc(o, '\n');
	}
	return QUBO_OK;
}

static void dz_solution_header(const qubo_puzzle *p, qubo__sink *o)
{
	const struct dz *d = p->data;

	if (d->text)
		header_line(d, o);
}

static char dz_solution_char(const qubo_puzzle *p, size_t cell, uint8_t value)
{
	const struct dz *d = p->data;

	if (value)
		return qubo__pz_cz_piece_letter(&d->sets, d->piece);
	return d->on[cell] ? '.' : '#';
}

static int dz_solution_value(const qubo_puzzle *p, size_t cell, unsigned char ch)
{
	const struct dz *d = p->data;

	if (ch == (unsigned char)qubo__pz_cz_piece_letter(&d->sets, d->piece))
		return 1;
	if (ch == '.')
		return 0;
	if (ch == '#' && !d->on[cell])
		return 0;
	return -1;
}

/* `domination SIZE [PIECE]`: the size and piece; toks[0] is the word. */
static int read_header(const struct qubo__pz_line *line, const struct qubo__pz_token *toks,
		       size_t ntoks, uint32_t *w, uint32_t *h, int32_t *piece)
{
	int rc;

	if (ntoks < 2)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, qubo__pz_line_trimmed(line) + 1,
				      "the header needs the board size: domination N or "
				      "domination WxH");
	rc = qubo__pz_token_size(line, &toks[1], 0, w, h);
	if (rc)
		return rc;
	*piece = QUBO_PUZZLE_CHESS_QUEEN;
	if (ntoks >= 3) {
		*piece = qubo__pz_cz_builtin_of_word(&toks[2]);
		if (*piece == QUBO_PUZZLE_CHESS_NONE)
			return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[2].column,
					      "unknown piece (expected queen, rook, bishop, "
					      "knight or king)");
	}
	if (ntoks > 3)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[3].column,
				      "unexpected word after the piece");
	return QUBO_OK;
}

static int dz_solution_header_check(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	const struct dz *d = p->data;
	struct qubo__pz_token toks[4];
	size_t nt = qubo__pz_tokens(line, toks, 4);
	uint32_t w, h;
	int32_t piece = 0;
	int rc = read_header(line, toks, nt, &w, &h, &piece);

	if (rc)
		return rc;
	if (w != d->w || h != d->h)
		return qubo__error_at(QUBO_ERR_PARSE, line->no, toks[1].column,
				      "the solution is for a %u x %u board, the puzzle's is "
				      "%u x %u",
				      (unsigned)w, (unsigned)h, (unsigned)d->w, (unsigned)d->h);
	if (piece != d->piece)
		return qubo__error_at(QUBO_ERR_PARSE, line->no,
				      nt >= 3 ? toks[2].column : qubo__pz_line_trimmed(line) + 1,
				      "the solution is for %ss, the puzzle's pieces are %ss",
				      qubo__pz_cz_builtin_word(piece),
				      qubo__pz_cz_builtin_word(d->piece));
	return QUBO_OK;
}

/* ---- cells ---- */

static void dz_cell(const qubo_puzzle *p, size_t i, qubo_puzzle_cell *out)
{
	const struct dz *d = p->data;

	out->region = -1;
	out->given = -1;
	out->piece = d->on[i] ? d->piece : QUBO_PUZZLE_CHESS_NONE;
}

static int dz_on_board(const qubo_puzzle *p, size_t i)
{
	const struct dz *d = p->data;

	return d->on[i] != 0;
}

static const struct qubo__pz_family domination_family = {
	QUBO_PUZZLE_DOMINATION,
	"domination",
	dz_destroy,
	dz_check,
	dz_format,
	dz_solution_header,
	dz_solution_char,
	dz_solution_value,
	dz_solution_header_check,
	"the piece's letter (a piece stands there), '.', or '#' at a cell that is not on "
	"the board",
	"domination",
	dz_cell,
	dz_on_board,
	&qubo__pz_domination_search,
	NULL,
	NULL,
};

/* ---- the object ---- */

static int create(qubo_puzzle **out, const qubo_puzzle_domination_spec *spec, int text,
		  const struct qubo__pz_opts *opts, const char *fn)
{
	qubo_puzzle *p = NULL;
	struct dz *d;
	const qubo_allocator *a;
	int32_t *codes = NULL;
	size_t i, bound, gamma;
	int rc, known;

	*out = NULL;
	rc = check_spec(spec, fn);
	if (rc)
		return rc;
	rc = qubo__pz_new(&p, &domination_family, opts, spec->width, spec->height, sizeof *d,
			  "the domination instance");
	if (rc)
		return rc;
	a = &p->alloc;
	d = p->data;
	d->w = spec->width;
	d->h = spec->height;
	d->n = (size_t)d->w * d->h;
	d->piece = spec->piece;
	d->slack = spec->slack;
	d->text = text;
	if (spec->piece == QUBO_PUZZLE_CHESS_CUSTOM) {
		size_t start[2] = { 0, spec->num_moves };

		rc = qubo__pz_cz_sets_copy(&d->sets, a, 1, start, spec->moves, fn);
		if (rc)
			goto fail;
	}
	d->on = qubo__malloc_array(a, d->n, 1);
	codes = qubo__malloc_array(a, d->n, sizeof *codes);
	p->cell_lits = qubo__malloc_array(a, d->n, sizeof *p->cell_lits);
	if (!d->on || !codes || !p->cell_lits) {
		rc = qubo__nomem("the domination instance");
		goto fail;
	}
	for (i = 0; i < d->n; i++) {
		d->on[i] = !(spec->off_board && spec->off_board[i]);
		codes[i] = d->on[i] ? d->piece : QUBO_PUZZLE_CHESS_NONE;
	}
	rc = check_sizes(d, a, codes, opts->ctl, fn);
	if (!rc)
		rc = qubo__pz_cz_reach_lists(a, d->w, d->h, codes, &d->sets, d->on, opts->ctl,
					     &d->out_start, &d->out, fn);
	if (!rc)
		rc = qubo__pz_cz_transpose(a, d->n, d->out_start, d->out, 0, opts->ctl,
					   &d->in_start, &d->in, fn);
	if (!rc)
		rc = greedy(d, a, opts->ctl);
	if (rc)
		goto fail;
	gamma = known_gamma(d, &known);
	bound = known && gamma < d->greedy ? gamma : d->greedy;
	rc = build_model(d, a, opts->ctl, opts->penalty, bound, &p->model, p->cell_lits);
	if (rc)
		goto fail;
	p->has_ground_energy = known;
	p->ground_energy = (double)gamma;
	qubo__pz_model_sizes(p, NULL);
	qubo__free(a, codes);
	*out = p;
	return QUBO_OK;
fail:
	qubo__free(a, codes);
	qubo__pz_destroy(p);
	return rc;
}

int qubo_puzzle_domination_new(qubo_puzzle **out, const qubo_puzzle_domination_spec *spec,
			       const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_domination_new";
	struct qubo__pz_opts opts;
	int rc = qubo__pz_spec_args(out, spec, options, &opts, fn);

	return rc ? rc : qubo__pz_build_end(out, &opts, create(out, spec, 0, &opts, fn));
}

struct grid_ctx {
	uint32_t w;
	uint8_t *off;
};

static int grid_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct grid_ctx *g = ctx;

	(void)line_no;
	if (ch != '.' && ch != '#')
		return 1;
	g->off[(size_t)row * g->w + col] = ch == '#';
	return 0;
}

int qubo__pz_domination_parse(qubo_puzzle **out, struct qubo__pz_reader *r,
			      const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			      size_t ntoks, const struct qubo__pz_opts *opts)
{
	qubo_puzzle_domination_spec s = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	struct qubo__pz_line first;
	struct qubo__pz_grid g;
	struct grid_ctx ctx;
	qubo_allocator a;
	uint32_t w, h;
	int32_t piece = 0;
	int rc = read_header(header, toks, ntoks, &w, &h, &piece);

	if (!rc)
		rc = qubo__pz_check_size(opts, header, &toks[1], w, h, 0);
	if (rc)
		return rc;
	if ((uint64_t)w * h > QUBO__PZ_MAX_CELLS)
		return qubo__too_large(QUBO_LIMIT_BOARD_CELLS, QUBO__PZ_MAX_CELLS,
				       "domination: the board has %llu cells, at most %zu are "
				       "supported",
				       (unsigned long long)w * h, QUBO__PZ_MAX_CELLS);
	s.width = w;
	s.height = h;
	s.piece = piece;
	/* '#' is a cell here, so no comment lines after the header. */
	if (!qubo__pz_next_content(r, &first, 0))
		return create(out, &s, 1, opts, "domination");
	rc = qubo__alloc_init(&a, opts->allocator, NULL);
	if (rc)
		return rc;
	ctx.w = w;
	ctx.off = qubo__malloc_array(&a, (size_t)w * h, 1);
	if (!ctx.off)
		return qubo__nomem("the puzzle's grid");
	g.width = w;
	g.height = h;
	g.expected = "'.' (a cell on the board) or '#' (not on the board)";
	g.pad = 0;
	g.cell = grid_cell;
	g.ctx = &ctx;
	rc = qubo__pz_read_grid(r, &first, &g);
	if (!rc)
		rc = qubo__pz_expect_end(r, 0, "after the grid");
	if (!rc) {
		s.off_board = ctx.off;
		rc = create(out, &s, 1, opts, "domination");
	}
	qubo__free(&a, ctx.off);
	return rc;
}
