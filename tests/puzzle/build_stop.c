/* Builds that stop: wide open binary boards (up to 64 columns or rows, and
 * 40 x 40) build at once, and a long build of every family and every spec
 * builder ends within its time limit plus 0.2 s, or as soon after its
 * progress callback asks to stop. Times are read on CLOCK_MONOTONIC, the
 * clock of the library's time limits (tu_now). On a loaded machine a prompt
 * stop's wall time stretches while its processor time does not, so a stop
 * is on time when either stays within the bound (stopped_in_time), and
 * always within 10 s. Under valgrind, about 30 times slower, the boards are
 * smaller and the slack is larger; every check still runs. */
#include <qubo/puzzle/binary.h>
#include <qubo/puzzle/chess.h>
#include <qubo/puzzle/queens.h>
#include <qubo/puzzle/tents.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "puzzle/helpers.h"

static int valgrind(void)
{
	const char *v = getenv("QUBO_TEST_VALGRIND");

	return v && *v == '1';
}

/* Seconds a stopped build may run past its limit or its callback's stop:
 * 0.2 s, and far more under valgrind, whose clock runs 30 times slower. */
static double slack(void)
{
	return valgrind() ? 6.0 : 0.2;
}

/* A run that took `wall` seconds and `cpu` processor seconds stopped in
 * time when either is within `bound`: a build that does not poll runs up
 * both, a loaded machine only the first. Never over 10 s more (30 s under
 * valgrind). */
#define stopped_in_time(wall, cpu, bound)                                               \
	((wall) <= (bound) + (valgrind() ? 30.0 : 10.0) &&                                  \
	 ((wall) <= (bound) || (cpu) <= (bound)))

/* meson sets MALLOC_PERTURB_ for every test, and glibc then fills each
 * block it hands out: a build's largest arrays (the attack graph of
 * domination 48, the windows of a 400 x 400 board) cost half a second of
 * page faults inside one malloc, between two polls, that a real run spreads
 * over the polls as it fills them. The timing tests run without it. */
static void no_perturb(void)
{
#ifdef __GLIBC__
	mallopt(M_PERTURB, 0);
#endif
}

/* ---- puzzle texts, made here ---- */

/* A grid of h rows of w copies of `cell`, under `header`; freed by the
 * caller. */
static char *grid_text(const char *header, uint32_t w, uint32_t h, char cell)
{
	size_t hl = strlen(header), len = hl + (size_t)h * (w + 1) + 1, at = hl;
	char *s = malloc(len);
	uint32_t r;

	cr_assert_not_null(s);
	memcpy(s, header, hl);
	for (r = 0; r < h; r++) {
		memset(s + at, cell, w);
		at += w;
		s[at++] = '\n';
	}
	s[at] = '\0';
	return s;
}

/* An open Tango board: rows of cells with blank signs between them, and
 * blank lines of signs between the rows. */
static char *tango_text(uint32_t w, uint32_t h)
{
	size_t len = 32 + (size_t)h * 2 * (2 * w + 1), at;
	char *s = malloc(len);
	uint32_t r, c;

	cr_assert_not_null(s);
	at = (size_t)snprintf(s, len, "tango %ux%u\n", (unsigned)w, (unsigned)h);
	for (r = 0; r < h; r++) {
		for (c = 0; c < w; c++) {
			s[at++] = '.';
			if (c + 1 < w)
				s[at++] = ' ';
		}
		s[at++] = '\n';
		if (r + 1 < h)
			s[at++] = '\n';
	}
	s[at] = '\0';
	return s;
}

/* An open Unruly board as a game ID: 'z' skips 25 cells, and the last
 * letter puts a clue one past the last cell. */
static char *unruly_id(uint32_t w, uint32_t h)
{
	size_t n = (size_t)w * h, at;
	char *s = malloc(32 + n / 25 + 2);

	cr_assert_not_null(s);
	at = (size_t)sprintf(s, "%ux%u:", (unsigned)w, (unsigned)h);
	for (; n >= 25; n -= 25)
		s[at++] = 'z';
	s[at++] = (char)('a' + n);
	s[at] = '\0';
	return s;
}

/* Tents on an n x n board: a tent at every other cell of every other row
 * (half of them, at random), its tree below it, the counts from those
 * tents; the FULL reduction runs many rounds over it. */
static void tents_spec(qubo_puzzle_tents_spec *s, uint32_t n, uint32_t *trees, int32_t *rows,
		       int32_t *cols)
{
	qubo_puzzle_tents_spec z = QUBO_PUZZLE_TENTS_SPEC_INIT;
	tu_rng rng = { 2211 };
	uint32_t r, c;
	size_t nt = 0;

	memset(rows, 0, n * sizeof *rows);
	memset(cols, 0, n * sizeof *cols);
	for (r = 0; r + 1 < n; r += 2)
		for (c = 0; c < n; c += 2)
			if (tu_below(&rng, 2)) {
				trees[nt++] = (r + 1) * n + c;
				rows[r]++;
				cols[c]++;
			}
	*s = z;
	s->width = s->height = n;
	s->trees = trees;
	s->num_trees = nt;
	s->row_counts = rows;
	s->col_counts = cols;
}

/* The same board as a `tents` file. */
static char *tents_text(const qubo_puzzle_tents_spec *s)
{
	uint32_t n = s->width, k;
	size_t len = 64 + 24 * (size_t)n + (size_t)n * (n + 1), at;
	char *t = malloc(len);

	cr_assert_not_null(t);
	at = (size_t)snprintf(t, len, "tents %u\ncols", (unsigned)n);
	for (k = 0; k < n; k++)
		at += (size_t)snprintf(t + at, len - at, " %d", (int)s->col_counts[k]);
	at += (size_t)snprintf(t + at, len - at, "\nrows");
	for (k = 0; k < n; k++)
		at += (size_t)snprintf(t + at, len - at, " %d", (int)s->row_counts[k]);
	t[at++] = '\n';
	for (k = 0; k < n; k++) {
		memset(t + at, '.', n);
		t[at + n] = '\n';
		at += n + 1;
	}
	t[at] = '\0';
	for (k = 0; k < s->num_trees; k++)
		t[at - (size_t)n * (n + 1) + s->trees[k] / n * (n + 1) + s->trees[k] % n] = 'T';
	return t;
}

/* ---- the builds ---- */

enum {
	TEXT,
	BINARY,
	QUEENS,
	CHESS,
	DOMINATION,
	TENTS
};

/* One build: a text, or a spec of one of the builders. */
typedef struct build {
	const char *name;
	int kind;
	const char *text;
	const void *spec;
} build;

static int run(const build *b, const qubo_puzzle_options *o)
{
	static int sentinel;
	qubo_puzzle *p = (qubo_puzzle *)(void *)&sentinel; /* set to NULL on failure */
	int rc;

	switch (b->kind) {
	case TEXT:
		rc = qubo_puzzle_parse(&p, b->text, strlen(b->text), o);
		break;
	case BINARY:
		rc = qubo_puzzle_binary_new(&p, b->spec, o);
		break;
	case QUEENS:
		rc = qubo_puzzle_queens_new(&p, b->spec, o);
		break;
	case CHESS:
		rc = qubo_puzzle_chess_new(&p, b->spec, o);
		break;
	case DOMINATION:
		rc = qubo_puzzle_domination_new(&p, b->spec, o);
		break;
	default:
		rc = qubo_puzzle_tents_new(&p, b->spec, o);
		break;
	}
	if (rc)
		cr_assert_null(p, "%s: %s left *out set", b->name, qubo_status_name(rc));
	qubo_puzzle_free(p);
	return rc;
}

/* The boards of the issue that hung the build (a 9-byte game ID took 35 s,
 * 64 columns did not finish), and others as open: every one builds, well
 * within a limit that the old reduction overran by far. */
Test(puzzle_build_stop, wide_open_binary_boards_build_at_once, .init = no_perturb, .timeout = 300)
{
	char *texts[10];
	qubo_puzzle_binary_spec torus = QUBO_PUZZLE_BINARY_SPEC_INIT;
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	build b[12];
	size_t nb = 0, i;

	texts[0] = unruly_id(44, 2);
	texts[1] = unruly_id(64, 2);
	texts[2] = unruly_id(40, 40);
	texts[3] = grid_text("takuzu 64x2 nounique\n", 64, 2, '.');
	texts[4] = grid_text("takuzu 2x64 nounique\n", 2, 64, '.');
	texts[5] = grid_text("takuzu 40\n", 40, 40, '.');
	texts[6] = grid_text("takuzu 64 nounique\n", 64, 64, '.');
	texts[7] = tango_text(40, 40);
	texts[8] = tango_text(64, 2);
	texts[9] = grid_text("takuzu 64x8\n", 64, 8, '.');
	for (i = 0; i < 10; i++) {
		b[nb].name = texts[i];
		b[nb].kind = TEXT;
		b[nb++].text = texts[i];
	}
	/* diagonal and wrapped windows, 64 x 64 */
	torus.width = torus.height = 64;
	torus.windows |= QUBO_PUZZLE_WINDOWS_DIAGONALS;
	torus.wrap = QUBO_PUZZLE_WRAP_TORUS;
	b[nb].name = "a 64 x 64 torus with diagonal windows";
	b[nb].kind = BINARY;
	b[nb++].spec = &torus;
	o.time_limit = valgrind() ? 120.0 : 5.0;
	for (i = 0; i < nb; i++) {
		double t0 = tu_now(), took;
		int rc = run(&b[i], &o);

		took = tu_now() - t0;
		cr_assert_eq(rc, QUBO_OK, "%.40s: %s after %.2f s (%s)", b[i].name,
			     qubo_status_name(rc), took, qubo_error_message());
		cr_assert_leq(took, o.time_limit + slack(), "%.40s: %.2f s", b[i].name, took);
	}
	for (i = 0; i < 10; i++)
		free(texts[i]);
}

/* Long builds of every family, text and spec: n x n boards of n cells a
 * side (smaller under valgrind). */
typedef struct long_builds {
	build b[16];
	size_t n;
	char *texts[8];
	size_t ntexts;
	qubo_puzzle_binary_spec bin;
	qubo_puzzle_queens_spec queens;
	qubo_puzzle_chess_spec chess, chain;
	qubo_puzzle_domination_spec dom;
	qubo_puzzle_tents_spec tents;
	int32_t *ones, *tent_rows, *tent_cols, *pieces, *links;
	uint32_t *trees;
} long_builds;

static void add(long_builds *L, const char *name, int kind, const char *text, const void *spec)
{
	L->b[L->n].name = name;
	L->b[L->n].kind = kind;
	L->b[L->n].text = text;
	L->b[L->n++].spec = spec;
}

static const char *add_text(long_builds *L, const char *name, char *text)
{
	L->texts[L->ntexts++] = text;
	add(L, name, TEXT, text, NULL);
	return text;
}

/* Each of these builds runs for a second or more on a 2-core machine;
 * none is allowed to finish within the 0.1 s the tests give them. */
static void long_builds_make(long_builds *L)
{
	qubo_puzzle_binary_spec bz = QUBO_PUZZLE_BINARY_SPEC_INIT;
	qubo_puzzle_queens_spec qz = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle_chess_spec cz = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle_domination_spec dz = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	uint32_t big = valgrind() ? 300 : 1000, chain = valgrind() ? 8001 : 32001, i, d;
	size_t cells = (size_t)big * big;

	memset(L, 0, sizeof *L);
	L->ones = malloc(big * sizeof *L->ones);
	L->tent_rows = malloc(big * sizeof *L->tent_rows);
	L->tent_cols = malloc(big * sizeof *L->tent_cols);
	L->trees = malloc(cells * sizeof *L->trees);
	L->pieces = malloc(cells * sizeof *L->pieces);
	L->links = malloc(chain * sizeof *L->links);
	cr_assert(L->ones && L->tent_rows && L->tent_cols && L->trees && L->pieces && L->links);
	for (i = 0; i < big; i++)
		L->ones[i] = 1;
	for (i = 0; i < cells; i++)
		L->pieces[i] = QUBO_PUZZLE_CHESS_KING;
	add_text(L, "nqueens", strdup(valgrind() ? "nqueens 100\n" : "nqueens 200\n"));
	add_text(L, "chess max",
		 grid_text(valgrind() ? "chess 60x60 max\n" : "chess 200x200 max\n",
			   valgrind() ? 60 : 200, valgrind() ? 60 : 200, 'Q'));
	add_text(L, "domination",
		 strdup(valgrind() ? "domination 60 knight\n" : "domination 200 knight\n"));
	add_text(L, "domination queens",
		 strdup(valgrind() ? "domination 20\n" : "domination 48\n"));
	add_text(L, "takuzu", grid_text("takuzu 64\n", 64, 64, '.'));
	add_text(L, "tango", valgrind() ? tango_text(200, 200) : tango_text(400, 400));
	tents_spec(&L->tents, big, L->trees, L->tent_rows, L->tent_cols);
	add_text(L, "tents", tents_text(&L->tents));
	add(L, "tents spec", TENTS, NULL, &L->tents);
	L->bin = bz;
	L->bin.width = L->bin.height = big;
	add(L, "binary spec", BINARY, NULL, &L->bin);
	L->queens = qz;
	L->queens.width = L->queens.height = big;
	L->queens.row_counts = L->queens.col_counts = L->ones;
	for (d = 0; d < 8; d++)
		L->queens.reach[d] = 1;
	add(L, "queens spec", QUEENS, NULL, &L->queens);
	L->chess = cz;
	L->chess.width = L->chess.height = big;
	L->chess.mode = QUBO_PUZZLE_CHESS_MODE_MAX;
	L->chess.pieces = L->pieces;
	add(L, "chess spec", CHESS, NULL, &L->chess);
	/* coloured kings in a row, region 0 the first cell and region k the
	 * cells 2k - 1 and 2k, numbered backwards: each forced king forces the
	 * next region, one a round of the reduction */
	for (i = 0; i < chain; i++)
		L->links[i] = (int32_t)((chain + 1) / 2 - 1 - (i + 1) / 2);
	L->chain = cz;
	L->chain.width = chain;
	L->chain.height = 1;
	L->chain.pieces = L->pieces;
	L->chain.regions = L->links;
	add(L, "chess chain", CHESS, NULL, &L->chain);
	L->dom = dz;
	L->dom.width = L->dom.height = big;
	L->dom.piece = QUBO_PUZZLE_CHESS_KING;
	add(L, "domination spec", DOMINATION, NULL, &L->dom);
}

static void long_builds_free(long_builds *L)
{
	size_t i;

	for (i = 0; i < L->ntexts; i++)
		free(L->texts[i]);
	free(L->ones);
	free(L->tent_rows);
	free(L->tent_cols);
	free(L->trees);
	free(L->pieces);
	free(L->links);
}

Test(puzzle_build_stop, every_family_stops_at_its_time_limit, .init = no_perturb, .timeout = 300)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	long_builds L;
	size_t i;

	long_builds_make(&L);
	o.time_limit = valgrind() ? 0.5 : 0.1;
	for (i = 0; i < L.n; i++) {
		double t0 = tu_now(), c0 = tu_cpu(), took, cpu;
		int rc = run(&L.b[i], &o);

		took = tu_now() - t0;
		cpu = tu_cpu() - c0;
		cr_assert_eq(rc, QUBO_TIME_LIMIT, "%s: %s after %.3f s (%s)", L.b[i].name,
			     qubo_status_name(rc), took, qubo_error_message());
		cr_assert(stopped_in_time(took, cpu, o.time_limit + slack()),
			  "%s: stopped %.3f s (%.3f s of processor time) after its start",
			  L.b[i].name, took, cpu);
	}
	long_builds_free(&L);
}

/* A progress callback that asks to stop once `after` seconds have passed,
 * and notes when. */
typedef struct stopper {
	double t0, after, asked, cpu_asked;
} stopper;

static int stop_after(const qubo_puzzle_progress *pr, void *user_data)
{
	stopper *s = user_data;
	double now = tu_now();

	(void)pr;
	if (now - s->t0 < s->after)
		return 0;
	if (s->asked == 0) {
		s->asked = now;
		s->cpu_asked = tu_cpu();
	}
	return 1;
}

Test(puzzle_build_stop, every_family_stops_when_its_callback_asks, .init = no_perturb, .timeout = 300)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	long_builds L;
	stopper s;
	size_t i;

	long_builds_make(&L);
	o.progress = stop_after;
	o.progress_data = &s;
	for (i = 0; i < L.n; i++) {
		double took, late, cpu_late;
		int rc;

		s.t0 = tu_now();
		s.after = valgrind() ? 0.5 : 0.1;
		s.asked = 0;
		rc = run(&L.b[i], &o);
		took = tu_now() - s.t0;
		cr_assert_eq(rc, QUBO_CANCELLED, "%s: %s after %.3f s (%s)", L.b[i].name,
			     qubo_status_name(rc), took, qubo_error_message());
		cr_assert_gt(s.asked, 0, "%s", L.b[i].name);
		late = tu_now() - s.asked;
		cpu_late = tu_cpu() - s.cpu_asked;
		cr_assert(stopped_in_time(late, cpu_late, slack()),
			  "%s: stopped %.3f s (%.3f s of processor time) after the callback",
			  L.b[i].name, late, cpu_late);
	}
	long_builds_free(&L);
}
