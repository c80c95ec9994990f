/*
 * The puzzle object: options, parsing dispatch by header word, statistics,
 * the cell → literal map, decoding, and the buffer conventions of the
 * public check and format functions. Families plug in through
 * struct qubo__pz_family (puzzle_impl.h).
 */
#include <float.h>
#include <string.h>

#include "chess_impl.h"
#include "puzzle_impl.h"

/* ---- options ---- */

int qubo__pz_opts_read(struct qubo__pz_opts *dst, const qubo_puzzle_options *src, const char *fn)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_allocator a;
	int rc;

	dst->reduce = QUBO_REDUCE_FULL;
	dst->penalty = 1.0;
	dst->drop_region = 0;
	dst->allocator = NULL;
	dst->cells_only = 0;
	dst->max_input_bytes = QUBO_PUZZLE_DEFAULT_MAX_INPUT_BYTES;
	dst->max_cells = QUBO_PUZZLE_DEFAULT_MAX_CELLS;
	dst->max_couplers = QUBO_PUZZLE_DEFAULT_MAX_COUPLERS;
	dst->ctl = NULL;
	if (!src)
		return QUBO_OK;
	/* an older caller's options lack fields: they keep the defaults of o */
	rc = qubo__struct_read(&o, sizeof o, src, QUBO_PUZZLE_OPTIONS_SIZE_V1,
			       "qubo_puzzle_options", fn);
	if (rc)
		return rc;
	/* the allocator is checked here, where the message can name fn */
	if (o.allocator && (rc = qubo__alloc_init(&a, o.allocator, fn)))
		return rc;
	if (o.reduce < QUBO_REDUCE_DEFAULT || o.reduce > QUBO_REDUCE_FULL)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.reduce is %d, expected 0 to 3 (enum "
				   "qubo_puzzle_reduce)",
				   fn, (int)o.reduce);
	if (o.reduce != QUBO_REDUCE_DEFAULT)
		dst->reduce = o.reduce;
	if (o.penalty != 0.0) {
		/* finite and positive; written so that NaN fails too */
		if (!(o.penalty > 0.0 && o.penalty <= DBL_MAX))
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: options.penalty is %g, expected a finite "
					   "positive weight (or 0 for 1)",
					   fn, o.penalty);
		dst->penalty = o.penalty;
	}
	if (o.drop_region != 0 && o.drop_region != 1)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.drop_region is %d, expected 0 or 1", fn,
				   (int)o.drop_region);
	dst->drop_region = o.drop_region;
	dst->allocator = o.allocator;
	if (o.max_input_bytes)
		dst->max_input_bytes = o.max_input_bytes;
	if (o.max_cells)
		dst->max_cells = o.max_cells;
	if (o.max_couplers)
		dst->max_couplers = o.max_couplers;
	rc = qubo__pz_check_time_limit(o.time_limit, fn);
	if (rc)
		return rc;
	if (o.time_limit > 0 || o.progress) {
		qubo__pz_ctl_init(&dst->ctl_state, o.time_limit, o.progress, o.progress_data);
		dst->ctl_state.pr.phase = QUBO_PUZZLE_PHASE_BUILD;
		dst->ctl = &dst->ctl_state;
	}
	return QUBO_OK;
}

int qubo__pz_build_poll(struct qubo__pz_ctl *c, uint64_t work)
{
	if (!c)
		return QUBO_OK;
	c->pr.nodes += work;
	return qubo__pz_ctl_poll(c, 0) ? c->stopped : QUBO_OK;
}

int qubo__pz_build_tick(struct qubo__pz_ctl *c, uint64_t *pending, uint64_t work)
{
	*pending += work;
	if (!c || *pending < QUBO__PZ_TICK)
		return QUBO_OK;
	work = *pending;
	*pending = 0;
	return qubo__pz_build_poll(c, work);
}

int qubo__pz_conflict_sum_check(double weight, size_t npairs)
{
	if (2.0 * weight * (double)npairs <= DBL_MAX)
		return QUBO_OK;
	return qubo__error(QUBO_ERR_OUT_OF_RANGE,
			   "qubo_penalty_conflicts: the terms' weights overflow a double "
			   "(weight or coefficients too large)");
}

int qubo__pz_clique_fits(double weight, size_t k)
{
	return 4.0 * weight * ((double)k + 2.0) * ((double)k + 2.0) <= DBL_MAX;
}

int qubo__pz_push_pair(const qubo_allocator *a, struct qubo__pz_pairs *p, qubo_lit u, qubo_lit v)
{
	if (p->n == p->cap) {
		size_t ncap = p->cap ? 2 * p->cap : 1024;
		qubo_lit *np = qubo__realloc_array(a, p->lits, 2 * ncap, sizeof *np);

		if (!np)
			return qubo__nomem("the model's terms");
		p->lits = np;
		p->cap = ncap;
	}
	p->lits[2 * p->n] = u;
	p->lits[2 * p->n + 1] = v;
	p->n++;
	return QUBO_OK;
}

/* The model's interrupt function: the model polls about every 65536
 * entries (qubo_model_set_interrupt()), counted as that much work. */
static int build_interrupt(void *user_data)
{
	return qubo__pz_build_poll(user_data, 65536) != QUBO_OK;
}

void qubo__pz_build_watch(qubo_model *m, struct qubo__pz_ctl *c)
{
	if (m && c)
		qubo_model_set_interrupt(m, build_interrupt, c);
}

int qubo__pz_build_end(qubo_puzzle **out, const struct qubo__pz_opts *opts, int rc)
{
	if (!opts->ctl || !opts->ctl->stopped)
		return rc;
	if (out) {
		qubo__pz_destroy(*out);
		*out = NULL;
	}
	return opts->ctl->stopped;
}

int qubo__pz_check_size(const struct qubo__pz_opts *opts, const struct qubo__pz_line *line,
			const struct qubo__pz_token *tok, uint32_t width, uint32_t height,
			int lines)
{
	uint64_t cells = (uint64_t)width * height, couplers;

	if (cells > opts->max_cells)
		return qubo__too_large_at(QUBO_LIMIT_MAX_CELLS, opts->max_cells, line->no,
					  tok->column,
					  "the board has %llu cells, more than the limit of %zu "
					  "(options.max_cells raises it)",
					  (unsigned long long)cells, opts->max_cells);
	if (!lines)
		return QUBO_OK;
	/* every pair in a row and every pair in a column: a lower bound of
	 * what queens, nqueens, takuzu and tango build before any reduction */
	couplers = cells * ((uint64_t)(width - 1) + (height - 1)) / 2;
	if (couplers > opts->max_couplers)
		return qubo__too_large_at(QUBO_LIMIT_MAX_COUPLERS, opts->max_couplers, line->no,
					  tok->column,
					  "a %u x %u board needs at least %llu couplers, more than "
					  "the limit of %zu (options.max_couplers raises it)",
					  (unsigned)width, (unsigned)height,
					  (unsigned long long)couplers, opts->max_couplers);
	return QUBO_OK;
}

int qubo__pz_spec_args(qubo_puzzle **out, const void *spec, const qubo_puzzle_options *options,
		       struct qubo__pz_opts *opts, const char *fn)
{
	if (!out)
		return qubo__null_arg(fn, "out");
	*out = NULL;
	if (!spec)
		return qubo__null_arg(fn, "spec");
	return qubo__pz_opts_read(opts, options, fn);
}

int qubo__pz_check_board(uint32_t width, uint32_t height, const char *fn)
{
	if (width == 0 || height == 0)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: the board is %u x %u; both sides must be at least 1", fn,
				   (unsigned)width, (unsigned)height);
	if ((uint64_t)width * height > QUBO__PZ_MAX_CELLS)
		return qubo__too_large(QUBO_LIMIT_BOARD_CELLS, QUBO__PZ_MAX_CELLS,
				       "%s: the board has %llu cells, at most %zu are supported",
				       fn, (unsigned long long)width * height, QUBO__PZ_MAX_CELLS);
	return QUBO_OK;
}

int qubo__pz_check_cell_list(const uint32_t *cells, size_t count, const char *name,
			     uint32_t width, size_t n, qubo__pz_cell_why why, const void *spec,
			     const char *fn)
{
	const char *reason;
	size_t i;

	if (count && !cells)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.num_%s is %zu but spec.%s is NULL", fn, name, count,
				   name);
	if (count > n)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.num_%s is %zu, the board has %zu cells", fn, name,
				   count, n);
	for (i = 0; i < count; i++) {
		uint32_t c = cells[i];

		if (c >= n)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.%s[%zu] is %u, the board has %zu cells", fn,
					   name, i, (unsigned)c, n);
		reason = why(spec, c);
		if (reason)
			return qubo__error_cell(QUBO_ERR_INVALID_ARG, c / width + 1, c % width + 1,
						"%s: spec.%s[%zu] (row %u, column %u) %s", fn, name,
						i, (unsigned)(c / width) + 1,
						(unsigned)(c % width) + 1, reason);
	}
	return QUBO_OK;
}

int qubo__pz_mark_cells(uint8_t *mark, const uint32_t *cells, size_t count, const char *name,
			uint32_t width, const char *fn)
{
	size_t i;

	for (i = 0; i < count; i++) {
		uint32_t c = cells[i];

		if (mark[c])
			return qubo__error_cell(
				QUBO_ERR_INVALID_ARG, c / width + 1, c % width + 1,
				"%s: spec.%s lists cell %u (row %u, column %u) twice", fn, name,
				(unsigned)c, (unsigned)(c / width) + 1, (unsigned)(c % width) + 1);
		mark[c] = 1;
	}
	return QUBO_OK;
}

/* ---- the object ---- */

int qubo__pz_new(qubo_puzzle **out, const struct qubo__pz_family *fam,
		 const struct qubo__pz_opts *opts, uint32_t width, uint32_t height,
		 size_t data_size, const char *what)
{
	qubo_allocator a;
	qubo_puzzle *p;
	int rc = qubo__alloc_init(&a, opts->allocator, NULL);

	*out = NULL;
	if (rc)
		return rc;
	p = qubo__calloc_array(&a, 1, sizeof *p);
	if (!p)
		return qubo__nomem("the puzzle");
	p->fam = fam;
	p->alloc = a;
	p->width = width;
	p->height = height;
	p->stats.struct_size = sizeof p->stats;
	p->stats.width = width;
	p->stats.height = height;
	p->data = qubo__calloc_array(&a, 1, data_size);
	if (!p->data) {
		qubo__free(&a, p);
		return qubo__nomem(what);
	}
	*out = p;
	return QUBO_OK;
}

void qubo__pz_destroy(qubo_puzzle *p)
{
	qubo_allocator a;

	if (!p)
		return;
	a = p->alloc;
	if (p->data && p->fam && p->fam->destroy)
		p->fam->destroy(&a, p->data);
	qubo_model_free(p->model);
	qubo__free(&a, p->cell_lits);
	qubo__free(&a, p);
}

static size_t model_couplers(const qubo_model *m)
{
	qubo_model_stats st;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	if (qubo_model_get_stats(m, &st))
		return 0;
	return st.num_couplers;
}

void qubo__pz_model_sizes(qubo_puzzle *p, const qubo_model *before)
{
	p->stats.variables_after = qubo_model_num_variables(p->model);
	p->stats.couplers_after = model_couplers(p->model);
	p->stats.variables_before =
		before ? qubo_model_num_variables(before) : p->stats.variables_after;
	p->stats.couplers_before = before ? model_couplers(before) : p->stats.couplers_after;
}

int qubo__pz_confirm_solved(qubo_puzzle *p, const char *fn)
{
	struct qubo__pz_report rep = { NULL, 0, 0, 0 };
	size_t i, n = (size_t)p->width * p->height;
	uint8_t *board;

	if (p->stats.variables_after != 0)
		return QUBO_OK;
	board = qubo__malloc_array(&p->alloc, n, 1);
	if (!board)
		return qubo__nomem("the board");
	for (i = 0; i < n; i++)
		board[i] = p->cell_lits[i] == QUBO_LIT_TRUE;
	p->fam->check(p, board, &rep);
	qubo__free(&p->alloc, board);
	/* The reduction only fixes cells in ways that keep the solutions, so
	 * a broken rule here is a bug in the family's reduction. */
	if (rep.violations)
		return qubo__error(QUBO_ERR_INTERNAL,
				   "%s: the reduction fixed every cell but the board breaks "
				   "%zu rules",
				   fn, rep.violations);
	p->stats.solved_by_reduction = 1;
	return QUBO_OK;
}

void qubo_puzzle_free(qubo_puzzle *puzzle)
{
	qubo__pz_destroy(puzzle);
}

/* ---- parsing ---- */

typedef int (*parse_fn)(qubo_puzzle **out, struct qubo__pz_reader *r,
			const struct qubo__pz_line *header, const struct qubo__pz_token *toks,
			size_t ntoks, const struct qubo__pz_opts *opts);

/* Header words and their parsers. */
static const struct {
	const char *word;
	parse_fn parse;
} families[] = {
	{ "queens", qubo__pz_queens_parse },
	{ "nqueens", qubo__pz_nqueens_parse },
	{ "takuzu", qubo__pz_takuzu_parse },
	{ "tango", qubo__pz_tango_parse },
	{ "chess", qubo__pz_chess_parse },
	{ "domination", qubo__pz_domination_parse },
	{ "tents", qubo__pz_tents_parse },
};

#define MAX_HEADER_TOKENS 8

static int parse_text(qubo_puzzle **out, const char *text, size_t length,
		      const struct qubo__pz_opts *opts);

/* A game ID on its own line (comments and blank lines around it): its
 * translation into the family's text format is parsed instead. */
static int parse_gameid(qubo_puzzle **out, struct qubo__pz_reader *r,
			const struct qubo__pz_line *line, const struct qubo__pz_opts *opts)
{
	qubo_allocator a;
	char *text = NULL;
	size_t len = 0;
	int rc = qubo__pz_expect_end(r, 1, "after the game ID");

	if (!rc)
		rc = qubo__alloc_init(&a, opts->allocator, NULL);
	if (!rc)
		rc = qubo__pz_gameid_text(&a, line, &text, &len);
	if (!rc)
		rc = parse_text(out, text, len, opts);
	if (text)
		qubo__free(&a, text);
	return rc;
}

/* Text beyond options.max_input_bytes is refused before it is looked at. */
static int check_length(size_t length, const struct qubo__pz_opts *opts, const char *fn)
{
	if (length > opts->max_input_bytes)
		return qubo__too_large(QUBO_LIMIT_MAX_INPUT_BYTES, opts->max_input_bytes,
				       "%s: the text is %zu bytes, more than the limit of %zu "
				       "(options.max_input_bytes raises it)",
				       fn, length, opts->max_input_bytes);
	return QUBO_OK;
}

static int parse_text(qubo_puzzle **out, const char *text, size_t length,
		      const struct qubo__pz_opts *opts)
{
	struct qubo__pz_reader r;
	struct qubo__pz_line header;
	struct qubo__pz_token toks[MAX_HEADER_TOKENS];
	size_t ntoks, i;
	int rc = qubo__pz_reader_init(&r, text, length);
	char word[24];

	if (rc)
		return rc;
	if (!qubo__pz_next_content(&r, &header, 1))
		return qubo__pz_error_eof(&r, "no puzzle: the input has no header line (e.g. "
					      "\"queens 8\")");
	ntoks = qubo__pz_tokens(&header, toks, MAX_HEADER_TOKENS);
	if (qubo__pz_is_gameid(toks[0].s, header.len - (size_t)(toks[0].s - header.s)))
		return parse_gameid(out, &r, &header, opts);
	if (ntoks > MAX_HEADER_TOKENS)
		return qubo__error_at(QUBO_ERR_PARSE, header.no, 1,
				      "the header line has %zu words, at most %d are known", ntoks,
				      MAX_HEADER_TOKENS);
	for (i = 0; i < sizeof families / sizeof families[0]; i++)
		if (qubo__pz_token_is(&toks[0], families[i].word))
			return families[i].parse(out, &r, &header, toks, ntoks, opts);
	for (i = 0; i < toks[0].len && i + 4 < sizeof word; i++) {
		unsigned char c = (unsigned char)toks[0].s[i];
		word[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (i < toks[0].len) {
		memcpy(word + i, "...", 3);
		i += 3;
	}
	word[i] = '\0';
	return qubo__error_at(QUBO_ERR_PARSE, header.no, toks[0].column,
			      "unknown puzzle family '%s' (known: queens, nqueens, chess, "
			      "domination, takuzu, tango, tents)",
			      word);
}

int qubo_puzzle_parse(qubo_puzzle **out, const char *text, size_t length,
		      const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_parse";
	struct qubo__pz_opts opts;
	int rc;

	if (!out)
		return qubo__null_arg(fn, "out");
	*out = NULL;
	if (!text && length)
		return qubo__error(QUBO_ERR_MISUSE, "%s: text is NULL with length %zu", fn, length);
	rc = qubo__pz_opts_read(&opts, options, fn);
	if (!rc)
		rc = check_length(length, &opts, fn);
	if (rc)
		return rc;
	rc = parse_text(out, text ? text : "", length, &opts);
	return qubo__pz_build_end(out, &opts, rc);
}

int qubo_puzzle_parse_cells(const char *text, size_t length, const qubo_puzzle_options *options,
			    qubo_lit *lits, size_t capacity)
{
	static const char fn[] = "qubo_puzzle_parse_cells";
	struct qubo__pz_opts opts;
	qubo_puzzle *p = NULL;
	size_t n;
	int rc;

	if (!text && length)
		return qubo__error(QUBO_ERR_MISUSE, "%s: text is NULL with length %zu", fn, length);
	if (!lits && capacity)
		return qubo__error(QUBO_ERR_MISUSE, "%s: lits is NULL with capacity %zu", fn,
				   capacity);
	rc = qubo__pz_opts_read(&opts, options, fn);
	if (!rc)
		rc = check_length(length, &opts, fn);
	if (rc)
		return rc;
	opts.cells_only = 1;
	rc = parse_text(&p, text ? text : "", length, &opts);
	rc = qubo__pz_build_end(&p, &opts, rc);
	if (rc)
		return rc;
	n = (size_t)p->width * p->height;
	if (capacity < n)
		rc = qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				 "%s: the board has %zu cells, capacity is %zu", fn, n, capacity);
	else
		memcpy(lits, p->cell_lits, n * sizeof *lits);
	qubo__pz_destroy(p);
	return rc;
}

int qubo_puzzle_parse_file(qubo_puzzle **out, const char *path, const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_parse_file";
	struct qubo__pz_opts opts;
	char *text;
	size_t length;
	qubo_allocator a;
	int rc;

	if (!out)
		return qubo__null_arg(fn, "out");
	*out = NULL;
	if ((rc = qubo__pz_opts_read(&opts, options, fn)) ||
	    (rc = qubo__alloc_init(&a, opts.allocator, fn)) ||
	    (rc = qubo__read_file(&a, path, fn, opts.max_input_bytes, &text, &length)))
		return rc;
	rc = qubo__pz_build_poll(opts.ctl, length);
	if (!rc)
		rc = parse_text(out, text, length, &opts);
	qubo__free(&a, text);
	return qubo__pz_build_end(out, &opts, rc);
}

/* ---- accessors ---- */

int qubo_puzzle_family(const qubo_puzzle *puzzle)
{
	return puzzle ? puzzle->fam->family : 0;
}

int qubo_puzzle_get_stats(const qubo_puzzle *puzzle, qubo_puzzle_stats *stats)
{
	static const char fn[] = "qubo_puzzle_get_stats";

	if (!puzzle || !stats)
		return qubo__null_arg(fn, puzzle ? "stats" : "puzzle");
	return qubo__struct_write(stats, &puzzle->stats, sizeof *stats, QUBO_PUZZLE_STATS_SIZE_V1,
				  "qubo_puzzle_stats", fn);
}

int qubo_puzzle_model(const qubo_puzzle *puzzle, const qubo_model **model_out)
{
	if (!puzzle || !model_out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_puzzle_model: %s is NULL",
				   puzzle ? "model_out" : "puzzle");
	*model_out = puzzle->model;
	return QUBO_OK;
}

int qubo_puzzle_ground_energy(const qubo_puzzle *puzzle, double *energy_out)
{
	if (!puzzle || !energy_out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_puzzle_ground_energy: %s is NULL",
				   puzzle ? "energy_out" : "puzzle");
	if (!puzzle->has_ground_energy)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "qubo_puzzle_ground_energy: the %s family is an "
				   "optimisation problem without a known optimum",
				   puzzle->fam->name);
	*energy_out = puzzle->ground_energy;
	return QUBO_OK;
}

static size_t num_cells(const qubo_puzzle *p)
{
	return (size_t)p->width * p->height;
}

int qubo_puzzle_cell_literals(const qubo_puzzle *puzzle, qubo_lit *lits, size_t capacity)
{
	static const char fn[] = "qubo_puzzle_cell_literals";
	size_t n;

	if (!puzzle || (!lits && capacity))
		return qubo__null_arg(fn, puzzle ? "lits" : "puzzle");
	n = num_cells(puzzle);
	if (capacity < n)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "%s: the board has %zu cells, capacity is %zu", fn, n, capacity);
	memcpy(lits, puzzle->cell_lits, n * sizeof *lits);
	return QUBO_OK;
}

int qubo_puzzle_decode(const qubo_puzzle *puzzle, const uint8_t *sample, size_t length,
		       uint8_t *board, size_t capacity)
{
	static const char fn[] = "qubo_puzzle_decode";
	size_t n, nv, i;

	if (!puzzle || (!sample && length) || (!board && capacity))
		return qubo__null_arg(fn, !puzzle ? "puzzle" : !board ? "board" : "sample");
	n = num_cells(puzzle);
	nv = qubo_model_num_variables(puzzle->model);
	if (length != nv)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: the sample has %zu values, the model has %zu variables", fn,
				   length, nv);
	for (i = 0; i < length; i++)
		if (sample[i] > 1)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: sample[%zu] is %u, expected 0 or 1", fn, i,
					   (unsigned)sample[i]);
	if (capacity < n)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "%s: the board has %zu cells, capacity is %zu", fn, n, capacity);
	for (i = 0; i < n; i++) {
		qubo_lit l = puzzle->cell_lits[i];

		if (QUBO_LIT_IS_CONST(l))
			board[i] = l == QUBO_LIT_TRUE;
		else
			board[i] = (uint8_t)(sample[QUBO_LIT_VAR(l)] ^ QUBO_LIT_IS_NEG(l));
	}
	return QUBO_OK;
}

/* A board argument: the right length and only 0/1. */
static int check_board(const qubo_puzzle *p, const uint8_t *board, size_t length, const char *fn)
{
	size_t n = num_cells(p), i;

	if (length != n)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: the board has %zu values, expected %u x %u = %zu", fn,
				   length, (unsigned)p->width, (unsigned)p->height, n);
	for (i = 0; i < n; i++)
		if (board[i] > 1)
			return qubo__error_cell(
				QUBO_ERR_INVALID_ARG, i / p->width + 1, i % p->width + 1,
				"%s: board[%zu] (row %zu, column %zu) is %u, expected "
				"0 or 1",
				fn, i, i / p->width + 1, i % p->width + 1, (unsigned)board[i]);
	return QUBO_OK;
}

int qubo_puzzle_check(const qubo_puzzle *puzzle, const uint8_t *board, size_t length, char *report,
		      size_t capacity, size_t *violations_out)
{
	static const char fn[] = "qubo_puzzle_check";
	struct qubo__pz_report rep;
	int rc;

	if (!puzzle || (!board && length) || (!report && capacity))
		return qubo__null_arg(fn, !puzzle ? "puzzle" : !board ? "board" : "report");
	rc = check_board(puzzle, board, length, fn);
	if (rc)
		return rc;
	rep.buf = report;
	rep.cap = capacity;
	rep.len = 0;
	rep.violations = 0;
	if (capacity)
		report[0] = '\0';
	puzzle->fam->check(puzzle, board, &rep);
	if (violations_out)
		*violations_out = rep.violations;
	return QUBO_OK;
}

int qubo_puzzle_format_solution(const qubo_puzzle *puzzle, const uint8_t *board, size_t length,
				char *buffer, size_t capacity, size_t *length_out)
{
	static const char fn[] = "qubo_puzzle_format_solution";
	qubo__sink o;
	size_t r, c;
	int rc;

	if (!puzzle || (!board && length) || (!buffer && capacity))
		return qubo__null_arg(fn, !puzzle ? "puzzle" : !board ? "board" : "buffer");
	rc = check_board(puzzle, board, length, fn);
	if (rc)
		return rc;
	/* a board the layout cannot show is refused, not written as another */
	for (r = 0; r < length && !puzzle->fam->solution_grid; r++)
		if (!puzzle->fam->solution_char(puzzle, r, board[r]))
			return qubo__error_cell(
				QUBO_ERR_INVALID_ARG, r / puzzle->width + 1, r % puzzle->width + 1,
				"%s: board[%zu] (row %zu, column %zu) is a piece where "
				"none may stand, which a solution cannot show",
				fn, r, r / puzzle->width + 1, r % puzzle->width + 1);
	qubo__sink_buffer(&o, buffer, capacity);
	if (puzzle->fam->solution_header)
		puzzle->fam->solution_header(puzzle, &o);
	if (puzzle->fam->solution_grid)
		puzzle->fam->solution_grid(puzzle, board, &o);
	for (r = 0; r < puzzle->height && !puzzle->fam->solution_grid; r++) {
		for (c = 0; c < puzzle->width; c++) {
			size_t i = r * puzzle->width + c;
			qubo__sink_putc(&o, puzzle->fam->solution_char(puzzle, i, board[i]));
		}
		qubo__sink_putc(&o, '\n');
	}
	return qubo__sink_finish(&o, fn, "text", length_out);
}

int qubo_puzzle_format(const qubo_puzzle *puzzle, char *buffer, size_t capacity, size_t *length_out)
{
	static const char fn[] = "qubo_puzzle_format";
	qubo__sink o;
	int rc;

	if (!puzzle || (!buffer && capacity))
		return qubo__null_arg(fn, puzzle ? "buffer" : "puzzle");
	if (!puzzle->fam->format)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "%s: a %s puzzle built from a spec has no text form", fn,
				   puzzle->fam->name);
	qubo__sink_buffer(&o, buffer, capacity);
	rc = puzzle->fam->format(puzzle, &o);
	if (rc)
		return rc;
	return qubo__sink_finish(&o, fn, "text", length_out);
}

/* Nonzero when the line is the family's header (its first word). */
static int is_header(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	struct qubo__pz_token tok;

	return p->fam->word && qubo__pz_tokens(line, &tok, 1) >= 1 &&
	       qubo__pz_token_is(&tok, p->fam->word);
}

struct sol_ctx {
	const qubo_puzzle *p;
	uint8_t *board;
};

static int sol_cell(void *ctx, uint32_t row, uint32_t col, unsigned char ch, size_t line_no)
{
	struct sol_ctx *s = ctx;
	size_t i = (size_t)row * s->p->width + col;
	int v = s->p->fam->solution_value(s->p, i, ch);

	(void)line_no;
	if (v < 0)
		return 1;
	s->board[i] = (uint8_t)v;
	return 0;
}

/* Nonzero when the puzzle's solutions start with a header line. */
static int writes_header(const qubo_puzzle *p)
{
	qubo__sink o = { 0 };

	if (p->fam->solution_header)
		p->fam->solution_header(p, &o);
	return o.len > 0;
}

/* Nonzero when the line is a whole first row of the board's grid. */
static int first_row(const qubo_puzzle *p, const struct qubo__pz_line *line)
{
	size_t c;

	if (p->fam->solution_read || qubo__pz_line_trimmed(line) != p->width)
		return 0;
	for (c = 0; c < p->width; c++)
		if (p->fam->solution_value(p, c, (unsigned char)line->s[c]) < 0)
			return 0;
	return 1;
}

/* The first line that is not blank or a comment. A grid row may start with
 * '#' (a cell off the board): in a solution with a header the header comes
 * first; in one without (a spec-built board's), a '#' line that is a whole
 * first row of the board is the grid. */
static int first_content(const qubo_puzzle *p, struct qubo__pz_reader *r,
			 struct qubo__pz_line *line)
{
	int headerless = !writes_header(p);

	while (qubo__pz_reader_next(r, line))
		if (!qubo__pz_line_blank(line) &&
		    (!qubo__pz_line_comment(line) || (headerless && first_row(p, line))))
			return 1;
	return 0;
}

int qubo_puzzle_parse_solution(const qubo_puzzle *puzzle, const char *text, size_t text_length,
			       uint8_t *board, size_t capacity)
{
	static const char fn[] = "qubo_puzzle_parse_solution";
	struct qubo__pz_reader r;
	struct qubo__pz_line line;
	struct qubo__pz_grid g;
	struct sol_ctx ctx;
	int rc;

	if (!puzzle || (!text && text_length) || (!board && capacity))
		return qubo__null_arg(fn, !puzzle ? "puzzle" : !board ? "board" : "text");
	if (capacity < num_cells(puzzle))
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "%s: the board has %zu cells, capacity is %zu", fn,
				   num_cells(puzzle), capacity);
	rc = qubo__pz_reader_init(&r, text ? text : "", text_length);
	if (rc)
		return rc;
	/* Comments and blank lines may come before the header. */
	if (!first_content(puzzle, &r, &line))
		return qubo__pz_error_eof(&r, "%s: no solution grid in the input", fn);
	if (is_header(puzzle, &line)) {
		if (puzzle->fam->solution_header_check) {
			rc = puzzle->fam->solution_header_check(puzzle, &line);
			/* a size beyond any board is still a header that is not
			 * the puzzle's, as a parse error */
			if (rc == QUBO_ERR_TOO_LARGE)
				rc = qubo__error_at(
					QUBO_ERR_PARSE, qubo_error_line(), qubo_error_column(),
					"the solution's header names a board larger "
					"than the library takes, the puzzle's is %u x %u",
					(unsigned)puzzle->width, (unsigned)puzzle->height);
			if (rc)
				return rc;
		}
		if (!qubo__pz_next_content(&r, &line, 0))
			return qubo__pz_error_eof(&r, "%s: the header is not followed by a grid",
						  fn);
	}
	memset(board, 0, num_cells(puzzle));
	ctx.p = puzzle;
	ctx.board = board;
	g.width = puzzle->width;
	g.height = puzzle->height;
	g.expected = puzzle->fam->solution_expected;
	g.pad = 0;
	g.cell = sol_cell;
	g.ctx = &ctx;
	rc = puzzle->fam->solution_read ? puzzle->fam->solution_read(puzzle, &r, &line, board)
					: qubo__pz_read_grid(&r, &line, &g);
	if (!rc)
		rc = qubo__pz_expect_end(&r, 1, "after the solution grid");
	return rc;
}

int qubo_puzzle_get_cell(const qubo_puzzle *puzzle, uint32_t row, uint32_t column,
			 qubo_puzzle_cell *cell)
{
	static const char fn[] = "qubo_puzzle_get_cell";
	qubo_puzzle_cell c;
	size_t size, i;
	int rc;

	if (!puzzle || !cell)
		return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL", fn,
				   puzzle ? "cell" : "puzzle");
	size = cell->struct_size;
	rc = qubo__check_struct(cell, size, QUBO_PUZZLE_CELL_SIZE_V1, size, "qubo_puzzle_cell", fn);
	if (rc)
		return rc;
	if (row >= puzzle->height || column >= puzzle->width)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "%s: row %u, column %u is not a cell of the %u x %u board", fn,
				   (unsigned)row, (unsigned)column, (unsigned)puzzle->width,
				   (unsigned)puzzle->height);
	i = (size_t)row * puzzle->width + column;
	memset(&c, 0, sizeof c);
	c.struct_size = sizeof c;
	c.region = -1;
	c.given = -1;
	c.piece = -1;
	c.on_board = puzzle->fam->on_board ? puzzle->fam->on_board(puzzle, i) != 0 : 1;
	if (puzzle->fam->cell)
		puzzle->fam->cell(puzzle, i, &c);
	c.literal = puzzle->cell_lits[i];
	return qubo__struct_write(cell, &c, sizeof c, QUBO_PUZZLE_CELL_SIZE_V1, "qubo_puzzle_cell",
				  fn);
}
