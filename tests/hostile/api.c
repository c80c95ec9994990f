/*
 * Hostile input through the API: sizes, headers and streams that used to
 * make the library allocate or touch gigabytes. Every call goes through a
 * capped allocator that records the peak of live bytes, so each case checks
 * its status, its message and a bound on the memory it took, and CASE bounds
 * the time of each (Criterion's per-test .timeout is not used: its runner
 * leaks under LeakSanitizer when timed tests run in parallel).
 */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_qbsolv_read(_file), until they are removed */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qubo.h>
#include <qubo/puzzle.h>
#include <qubo/puzzle/chess.h>

/* Live bytes are tracked in a header before each block. */
typedef struct capped {
	qubo_allocator a;
	size_t cap;  /* live bytes allowed */
	size_t live; /* live bytes now */
	size_t peak; /* most live bytes seen */
	size_t refused;
} capped;

#define HDR 16

static void *cap_malloc(size_t size, void *ud)
{
	capped *c = ud;
	unsigned char *p;

	if (size > c->cap - c->live) {
		c->refused++;
		return NULL;
	}
	p = malloc(size + HDR);
	if (!p)
		return NULL;
	memcpy(p, &size, sizeof size);
	c->live += size;
	if (c->live > c->peak)
		c->peak = c->live;
	return p + HDR;
}

static void cap_free(void *ptr, void *ud)
{
	capped *c = ud;
	unsigned char *p = (unsigned char *)ptr - HDR;
	size_t size;

	memcpy(&size, p, sizeof size);
	c->live -= size;
	free(p);
}

static void *cap_realloc(void *ptr, size_t size, void *ud)
{
	capped *c = ud;
	unsigned char *p = (unsigned char *)ptr - HDR, *q;
	size_t old;

	memcpy(&old, p, sizeof old);
	if (size > old && size - old > c->cap - c->live) {
		c->refused++;
		return NULL;
	}
	q = realloc(p, size + HDR);
	if (!q)
		return NULL;
	memcpy(q, &size, sizeof size);
	c->live = c->live - old + size;
	if (c->live > c->peak)
		c->peak = c->live;
	return q + HDR;
}

static void capped_init(capped *c, size_t cap)
{
	memset(c, 0, sizeof *c);
	c->a.struct_size = sizeof c->a;
	c->a.malloc_fn = cap_malloc;
	c->a.realloc_fn = cap_realloc;
	c->a.free_fn = cap_free;
	c->a.user_data = c;
	c->cap = cap;
}

#define MiB ((size_t)1 << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every case must end within this many seconds (ten times more under valgrind). */
#define CASE_SECONDS 10.0

static void check_clock(double start)
{
	const char *vg = getenv("QUBO_TEST_VALGRIND");
	double limit = CASE_SECONDS * (vg && *vg == '1' ? 10.0 : 1.0);

	cr_assert_lt(now() - start, limit, "the case took %.1f s, more than %.0f s", now() - start,
		     limit);
}

/* A case: its body, then the clock. */
#define CASE(name)                          \
	static void name##_body(void);      \
	Test(hostile, name)                 \
	{                                   \
		double start_ = now();      \
		name##_body();              \
		check_clock(start_);        \
	}                                   \
	static void name##_body(void)

static void expect_msg(const char *needle)
{
	const char *msg = qubo_error_message();

	cr_assert(strstr(msg, needle), "message '%s' lacks '%s'", msg, needle);
}

/* ---- the model ---- */

CASE(model_new_huge_is_refused_without_allocating)
{
	capped c;
	qubo_model *m = (qubo_model *)&c;
	double t = now();

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qubo_model_new(&m, 0x7FFFFFFE, &c.a), QUBO_ERR_TOO_LARGE);
	cr_assert_null(m);
	cr_assert_eq(c.peak, 0);
	expect_msg("QUBO_MODEL_MAX_VARIABLES");
	/* the C library's allocator: refused as quickly, nothing touched */
	cr_assert_eq(qubo_model_new(&m, 0x7FFFFFFE, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_lt(now() - t, 1.0);
}

CASE(model_new_one_past_the_maximum)
{
	capped c;
	qubo_model *m;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qubo_model_new(&m, QUBO_MODEL_MAX_VARIABLES + 1, &c.a), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(c.peak, 0);
	/* within the maximum, the cap is what refuses it: a clean NOMEM */
	cr_assert_eq(qubo_model_new(&m, QUBO_MODEL_MAX_VARIABLES, &c.a), QUBO_ERR_NOMEM);
	cr_assert_null(m);
	cr_assert_eq(c.live, 0);
}

CASE(model_add_variables_past_the_maximum)
{
	capped c;
	qubo_model *m;
	uint32_t first = 7;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qubo_model_new(&m, 10, &c.a), QUBO_OK);
	cr_assert_eq(qubo_model_add_variables(m, QUBO_MODEL_MAX_VARIABLES, &first),
		     QUBO_ERR_TOO_LARGE);
	expect_msg("QUBO_MODEL_MAX_VARIABLES");
	cr_assert_eq(first, 7);
	cr_assert_eq(qubo_model_num_variables(m), 10);
	cr_assert_lt(c.peak, MiB);
	qubo_model_free(m);
	cr_assert_eq(c.live, 0);
}

/* ---- the qbsolv reader ---- */

static int qbs(const char *text, size_t max_in, size_t max_vars, size_t max_coup, capped *c,
	       qubo_model **m)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;

	o.allocator = &c->a;
	o.max_input_bytes = max_in;
	o.max_variables = max_vars;
	o.max_couplers = max_coup;
	return qubo_qbsolv_read_ex(m, text, strlen(text), &o);
}

CASE(qbsolv_tiny_header_huge_maxnodes)
{
	static const char text[] = "p qubo 0 16777216 0 0\n";
	capped c;
	qubo_model *m;
	double t = now();

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qbs(text, 0, 0, 0, &c, &m), QUBO_ERR_TOO_LARGE);
	cr_assert_null(m);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 10);
	expect_msg("limit of 4194304 variables");
	expect_msg("max_variables");
	cr_assert_lt(c.peak, MiB);
	cr_assert_lt(now() - t, 1.0);
	/* the old entry point has the same defaults */
	cr_assert_eq(qubo_qbsolv_read(&m, text, sizeof text - 1, &c.a), QUBO_ERR_TOO_LARGE);
	cr_assert_lt(c.peak, MiB);
}

CASE(qbsolv_raised_limit_meets_the_allocator)
{
	capped c;
	qubo_model *m;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qbs("p qubo 0 16777216 0 0\n", 0, (size_t)1 << 24, 0, &c, &m),
		     QUBO_ERR_NOMEM);
	cr_assert_null(m);
	cr_assert_eq(c.live, 0);
	cr_assert_leq(c.peak, 64 * MiB);
}

CASE(qbsolv_max_variables_is_the_caller_s)
{
	capped c;
	qubo_model *m;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qbs("p qubo 0 11 0 0\n", 0, 10, 0, &c, &m), QUBO_ERR_TOO_LARGE);
	expect_msg("maxNodes 11 exceeds the limit of 10 variables");
	cr_assert_eq(qbs("p qubo 0 10 0 0\n", 0, 10, 0, &c, &m), QUBO_OK);
	cr_assert_eq(qubo_model_num_variables(m), 10);
	qubo_model_free(m);
}

CASE(qbsolv_ncouplers_beyond_the_limit)
{
	capped c;
	qubo_model *m;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qbs("p qubo 0 3 0 2\n0 1 1\n1 2 1\n", 0, 0, 1, &c, &m), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 14);
	expect_msg("nCouplers 2 exceeds the limit of 1 couplers");
	cr_assert_eq(qbs("p qubo 0 10 0 99999999999\n", 0, 0, 0, &c, &m), QUBO_ERR_TOO_LARGE);
	expect_msg("max_couplers");
	cr_assert_lt(c.peak, MiB);
}

CASE(qbsolv_buffer_beyond_max_input)
{
	capped c;
	qubo_model *m;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qbs("p qubo 0 1 0 0\nc padding\n", 10, 0, 0, &c, &m), QUBO_ERR_TOO_LARGE);
	expect_msg("more than the limit of 10");
	expect_msg("max_input_bytes");
	cr_assert_eq(c.peak, 0);
}

CASE(qbsolv_file_dev_zero_stops_at_the_limit)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;
	capped c;
	qubo_model *m;

	capped_init(&c, 64 * MiB);
	o.allocator = &c.a;
	o.max_input_bytes = MiB;
	cr_assert_eq(qubo_qbsolv_read_file_ex(&m, "/dev/zero", &o), QUBO_ERR_TOO_LARGE);
	expect_msg("'/dev/zero' is larger than the limit of 1048576 bytes");
	/* the buffer grew to the limit and no further */
	cr_assert_leq(c.peak, 2 * MiB + 2);
	cr_assert_eq(c.live, 0);
}

CASE(qbsolv_regular_file_refused_by_its_size)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;
	const char *dir = getenv("QUBO_TEST_TMPDIR");
	char path[512];
	capped c;
	qubo_model *m;
	FILE *f;
	int i;

	snprintf(path, sizeof path, "%s/hostile_big.qubo", dir ? dir : ".");
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("p qubo 0 1 0 0\n", f);
	for (i = 0; i < 1000; i++)
		fputs("c a comment line of padding\n", f);
	fclose(f);
	capped_init(&c, 64 * MiB);
	o.allocator = &c.a;
	o.max_input_bytes = 1000;
	cr_assert_eq(qubo_qbsolv_read_file_ex(&m, path, &o), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(c.peak, 0, "read before refusing: %zu bytes", c.peak);
	o.max_input_bytes = 0;
	cr_assert_eq(qubo_qbsolv_read_file_ex(&m, path, &o), QUBO_OK);
	qubo_model_free(m);
	remove(path);
}

CASE(qbsolv_byte_order_mark)
{
	static const char text[] = "\xEF\xBB\xBF"
				   "p qubo 0 2 1 1\r\n0 0 1.5\r\n0 1 -2\r\n";
	static const char bad[] = "\xEF\xBB\xBF"
				  "p qubo 0 2 0 0\n\xEF\xBB\xBF";
	capped c;
	qubo_model *m;
	double h[2];

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qbs(text, 0, 0, 0, &c, &m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_model_num_variables(m), 2);
	cr_assert_eq(qubo_model_export_linear(m, h, 2), QUBO_OK);
	cr_assert_eq(h[0], 1.5);
	qubo_model_free(m);
	/* only at the very start: elsewhere it is an unexpected field */
	cr_assert_eq(qbs(bad, 0, 0, 0, &c, &m), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 2);
}

CASE(qbsolv_options_struct_checked)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;
	qubo_model *m;

	o.struct_size = 3;
	cr_assert_neq(qubo_qbsolv_read_ex(&m, "p qubo 0 1 0 0\n", 15, &o), QUBO_OK);
	expect_msg("qubo_qbsolv_options");
	cr_assert_eq(qubo_qbsolv_read_ex(&m, "p qubo 0 1 0 0\n", 15, NULL), QUBO_OK);
	qubo_model_free(m);
}

/* ---- puzzles ---- */

static int pz(const char *text, size_t len, size_t max_in, size_t max_cells, size_t max_coup,
	      capped *c, qubo_puzzle **p)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;

	o.allocator = &c->a;
	o.max_input_bytes = max_in;
	o.max_cells = max_cells;
	o.max_couplers = max_coup;
	return qubo_puzzle_parse(p, text, len, &o);
}

#define PZ(text, in, cells, coup, c, p) pz(text, strlen(text), in, cells, coup, c, p)

CASE(puzzle_nqueens_4096_refused_at_the_header)
{
	capped c;
	qubo_puzzle *p;
	double t = now();

	capped_init(&c, 64 * MiB);
	cr_assert_eq(PZ("nqueens 4096\n", 0, 0, 0, &c, &p), QUBO_ERR_TOO_LARGE);
	cr_assert_null(p);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 9);
	expect_msg("16777216 cells, more than the limit of 4194304");
	expect_msg("max_cells");
	cr_assert_lt(c.peak, MiB);
	cr_assert_lt(now() - t, 1.0);
}

CASE(puzzle_couplers_estimate_refused)
{
	static const char *const texts[] = { "nqueens 2048\n", "takuzu 2048\n", "tango 2048\n" };
	capped c;
	qubo_puzzle *p;
	size_t i;

	capped_init(&c, 64 * MiB);
	for (i = 0; i < 3; i++) {
		cr_assert_eq(PZ(texts[i], 0, 0, 0, &c, &p), QUBO_ERR_TOO_LARGE, "%s", texts[i]);
		expect_msg("max_couplers");
	}
	/* the caller's limit: 4 x 4 rows and columns need 48 couplers */
	cr_assert_eq(PZ("nqueens 4\n", 0, 0, 47, &c, &p), QUBO_ERR_TOO_LARGE);
	expect_msg("at least 48 couplers, more than the limit of 47");
	cr_assert_eq(PZ("nqueens 4\n", 0, 0, 48, &c, &p), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
	cr_assert_lt(c.peak, MiB);
}

CASE(puzzle_cells_limit_every_family)
{
	static const char *const texts[] = {
		"tents 4096x4096\n", "chess 4096x4096 max\n", "domination 4096\n",
		"takuzu 4096\n",     "tango 4096\n",	    "nqueens 3000 torus\n",
	};
	capped c;
	qubo_puzzle *p;
	size_t i;

	capped_init(&c, 64 * MiB);
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		double t = now();

		cr_assert_eq(PZ(texts[i], 0, 0, 0, &c, &p), QUBO_ERR_TOO_LARGE, "%s: %s", texts[i],
			     qubo_error_message());
		cr_assert_eq(qubo_error_line(), 1, "%s", texts[i]);
		cr_assert_lt(now() - t, 1.0, "%s", texts[i]);
	}
	/* a small caller limit applies to small boards too */
	cr_assert_eq(PZ("tents 4x4\n", 0, 15, 0, &c, &p), QUBO_ERR_TOO_LARGE);
	expect_msg("16 cells, more than the limit of 15");
	cr_assert_lt(c.peak, MiB);
	cr_assert_eq(c.live, 0);
}

CASE(puzzle_text_beyond_max_input)
{
	static const char text[] = "queens 4\naabb\naabb\nccdd\nccdd\n";
	capped c;
	qubo_puzzle *p;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(PZ(text, 10, 0, 0, &c, &p), QUBO_ERR_TOO_LARGE);
	expect_msg("more than the limit of 10");
	cr_assert_eq(c.peak, 0);
	cr_assert_eq(PZ(text, strlen(text), 0, 0, &c, &p), QUBO_OK, "%s", qubo_error_message());
	qubo_puzzle_free(p);
}

CASE(puzzle_file_dev_zero_stops_at_the_limit)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	capped c;
	qubo_puzzle *p;

	capped_init(&c, 64 * MiB);
	o.allocator = &c.a;
	o.max_input_bytes = MiB;
	cr_assert_eq(qubo_puzzle_parse_file(&p, "/dev/zero", &o), QUBO_ERR_TOO_LARGE);
	expect_msg("larger than the limit of 1048576 bytes");
	cr_assert_leq(c.peak, 2 * MiB + 2);
	cr_assert_eq(c.live, 0);
}

CASE(puzzle_byte_order_mark)
{
	static const char text[] = "\xEF\xBB\xBF"
				   "nqueens 4\n";
	static const char sol[] = "\xEF\xBB\xBF"
				  ".Q..\n...Q\nQ...\n..Q.\n";
	capped c;
	qubo_puzzle *p;
	uint8_t board[16];

	capped_init(&c, 64 * MiB);
	cr_assert_eq(PZ(text, 0, 0, 0, &c, &p), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_puzzle_family(p), QUBO_PUZZLE_NQUEENS);
	cr_assert_eq(qubo_puzzle_parse_solution(p, sol, strlen(sol), board, 16), QUBO_OK, "%s",
		     qubo_error_message());
	cr_assert_eq(board[1], 1);
	qubo_puzzle_free(p);
	/* a mark that is not first is not skipped */
	cr_assert_eq(PZ("# c\n\xEF\xBB\xBFnqueens 4\n", 0, 0, 0, &c, &p), QUBO_ERR_PARSE);
	expect_msg("unknown puzzle family");	/* nothing but the mark: a parse error on line 1, just past the mark */
	cr_assert_eq(PZ("\xEF\xBB\xBF", 0, 0, 0, &c, &p), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 4);
	expect_msg("no header line");
}

CASE(puzzle_gameid_huge_board)
{
	capped c;
	qubo_puzzle *p;

	capped_init(&c, 64 * MiB);
	cr_assert_neq(PZ("4096x4096:a\n", 0, 0, 0, &c, &p), QUBO_OK);
	cr_assert_null(p);
	cr_assert_lt(c.peak, 64 * MiB);
	cr_assert_eq(c.live, 0);
}

/* Boards whose attack graph or cover terms pass the documented limits are
 * refused from the board, before anything proportional to the graph is
 * allocated: under a cap of 64 MiB, a refusal that came after the graph
 * (hundreds of MiB at these sizes) would be QUBO_ERR_NOMEM instead. */
CASE(puzzle_attack_graphs_refused_before_they_are_built)
{
	static const struct {
		const char *header, *row; /* a grid of `row` repeated, or none */
		size_t rows;
		const char *msg;
	} cases[] = {
		/* 2.7e9 steps to list the attacks */
		{ "domination 1000\n", NULL, 0, "attack graph" },
		/* 2.6e7 attacks, cover terms of 4e9 pairs */
		{ "domination 250\n", NULL, 0, "cover terms" },
		{ "domination 300 rook\n", NULL, 0, "cover terms" },
		/* 4.5e7 attacks, a conflict graph of twice as many entries */
		{ "chess 300x300 max\n", "Q", 300, "attack graph" },
		{ "chess 600x600 max\n", "R", 600, "attack graph" },
	};
	capped c;
	qubo_puzzle *p;
	size_t i, r;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len = strlen(cases[i].header), w = cases[i].rows;
		char *text = malloc(len + w * (w + 1) + 1);

		cr_assert_not_null(text);
		memcpy(text, cases[i].header, len);
		for (r = 0; r < w; r++) {
			memset(text + len, cases[i].row ? cases[i].row[0] : '.', w);
			text[len + w] = '\n';
			len += w + 1;
		}
		capped_init(&c, 64 * MiB);
		cr_assert_eq(pz(text, len, 0, 0, 0, &c, &p), QUBO_ERR_TOO_LARGE, "%s: %s",
			     cases[i].header, qubo_error_message());
		cr_assert_null(p);
		expect_msg(cases[i].msg);
		cr_assert_lt(c.peak, 32 * MiB, "%s: %zu bytes before the refusal", cases[i].header,
			     c.peak);
		cr_assert_eq(c.live, 0);
		free(text);
	}
}

/* The same through the spec builders, with a custom piece. */
CASE(puzzle_spec_attack_graphs_refused_before_they_are_built)
{
	static const qubo_puzzle_chess_move slides[] = {
		{ 1, 0, 1 }, { -1, 0, 1 }, { 0, 1, 1 }, { 0, -1, 1 }, { 1, 1, 1 }, { -1, -1, 1 }
	};
	static const size_t start[] = { 0, 6 };
	qubo_puzzle_domination_spec d = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle_chess_spec s = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	int32_t *pieces = malloc(1000 * 1000 * sizeof *pieces);
	capped c;
	qubo_puzzle *p;
	size_t i;

	cr_assert_not_null(pieces);
	for (i = 0; i < 1000 * 1000; i++)
		pieces[i] = QUBO_PUZZLE_CHESS_CUSTOM;
	capped_init(&c, 64 * MiB);
	o.allocator = &c.a;
	d.width = d.height = 1000;
	d.piece = QUBO_PUZZLE_CHESS_CUSTOM;
	d.moves = slides;
	d.num_moves = 6;
	cr_assert_eq(qubo_puzzle_domination_new(&p, &d, &o), QUBO_ERR_TOO_LARGE, "%s",
		     qubo_error_message());
	cr_assert_lt(c.peak, 48 * MiB, "%zu bytes before the refusal", c.peak);
	s.width = s.height = 300;
	s.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, &o), QUBO_ERR_TOO_LARGE, "%s",
		     qubo_error_message());
	cr_assert_lt(c.peak, 48 * MiB, "%zu bytes before the refusal", c.peak);
	s.width = s.height = 1000;
	s.pieces = pieces;
	s.num_move_sets = 1;
	s.move_set_start = start;
	s.moves = slides;
	cr_assert_eq(qubo_puzzle_chess_new(&p, &s, &o), QUBO_ERR_TOO_LARGE, "%s",
		     qubo_error_message());
	cr_assert_lt(c.peak, 48 * MiB, "%zu bytes before the refusal", c.peak);
	cr_assert_eq(c.live, 0);
	free(pieces);
}

/* ---- solvers ---- */

/* 4096 replicas of 10^6 variables would take 20 GB: refused before any
 * replica is allocated. */
CASE(pt_replicas_beyond_the_memory_bound)
{
	capped c;
	qubo_model *m;
	qubo_solver *s;
	qubo_sampleset *set = NULL;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qubo_qbsolv_read(&m, "p qubo 0 1000000 0 0\n", 21, NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_new(&s, "pt", &c.a), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 1), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_THREADS, 1), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_REPLICAS, 4096), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_TOO_LARGE);
	cr_assert_null(set);
	expect_msg("4096 replicas of 1000000 variables");
	expect_msg("num_replicas");
	cr_assert_lt(c.peak, 32 * MiB);
	qubo_model_free(m);
	/* a group of 8 lanes of 10^5 variables fits */
	cr_assert_eq(qubo_qbsolv_read(&m, "p qubo 0 100000 0 0\n", 20, NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_REPLICAS, 2), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, 1), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
	cr_assert_eq(c.live, 0);
}

CASE(solver_reads_beyond_the_sample_budget)
{
	static const char *const names[] = { "sa", "tabu", "descent", "pt" };
	capped c;
	qubo_model *m;
	qubo_solver *s;
	qubo_sampleset *set = NULL;
	size_t i;

	capped_init(&c, 64 * MiB);
	cr_assert_eq(qubo_qbsolv_read(&m, "p qubo 0 10 0 0\n", 16, NULL), QUBO_OK);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		double t = now();

		cr_assert_eq(qubo_solver_new(&s, names[i], &c.a), QUBO_OK);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, 2147483647), QUBO_OK);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_TOO_LARGE, "%s", names[i]);
		expect_msg("QUBO_MAX_SAMPLE_BYTES");
		expect_msg("ask for at most");
		cr_assert_lt(now() - t, 1.0);
		qubo_sampleset_free(set);
		set = NULL;
		qubo_solver_free(s);
	}
	cr_assert_lt(c.peak, MiB);
	qubo_model_free(m);
}
