/*
 * qubo_puzzle_binary_new(): the generalised binary grid puzzles of
 * qubo/puzzle/binary.h. The public spec is checked field by field, then
 * turned into the common instance (struct bn_spec): the windows become
 * explicit cell triples, the signs, equality groups and differing pairs
 * become relations between cells (a group is a chain of '=' from its first
 * cell; a differing pair one 'x' between the groups' first cells), and the
 * regions stay count groups.
 */
#include <stdlib.h>
#include <string.h>

#include "binary_impl.h"
#include "qubo/puzzle/binary.h"

static int bad(const char *fn, const char *what)
{
	return qubo__error(QUBO_ERR_INVALID_ARG, "%s: %s", fn, what);
}

static int check_counts(const int32_t *ones, uint32_t count, uint32_t len, const char *field,
			const char *fn)
{
	uint32_t k;

	for (k = 0; k < count; k++)
		if (ones[k] < -1 || ones[k] > (int32_t)len)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.%s[%u] is %d, expected -1 (no count) or 0 "
					   "to %u",
					   fn, field, (unsigned)k, (int)ones[k], (unsigned)len);
	return QUBO_OK;
}

/* A width × height map of numbers in [-1, limit). */
static int check_map(const int32_t *map, size_t n, size_t limit, const char *field,
		     const char *count_field, const char *fn)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (map[i] < -1 || (map[i] >= 0 && (size_t)map[i] >= limit))
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.%s[%zu] is %d, expected -1 or 0 to "
					   "spec.%s - 1 (%zu)",
					   fn, field, i, (int)map[i], count_field, limit);
	return QUBO_OK;
}

static int check_spec(const qubo_puzzle_binary_spec *s, const char *fn)
{
	size_t n, i;
	int rc;

	rc = qubo__check_struct(s, s->struct_size, QUBO_PUZZLE_BINARY_SPEC_SIZE_V1, sizeof *s,
				"qubo_puzzle_binary_spec", fn);
	if (!rc)
		rc = qubo__pz_check_board(s->width, s->height, fn);
	if (rc)
		return rc;
	n = (size_t)s->width * s->height;
	for (i = 0; s->clues && i < n; i++)
		if (s->clues[i] < -1 || s->clues[i] > 1)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.clues[%zu] is %d, expected -1, 0 or 1", fn, i,
					   (int)s->clues[i]);
	if (!s->row_ones && s->width % 2)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.row_ones is NULL (balanced rows) but the width %u "
				   "is odd",
				   fn, (unsigned)s->width);
	if (!s->col_ones && s->height % 2)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.col_ones is NULL (balanced columns) but the "
				   "height %u is odd",
				   fn, (unsigned)s->height);
	if ((s->row_ones && (rc = check_counts(s->row_ones, s->height, s->width, "row_ones", fn))) ||
	    (s->col_ones && (rc = check_counts(s->col_ones, s->width, s->height, "col_ones", fn))))
		return rc;
	if (s->windows & ~(int32_t)(QUBO_PUZZLE_WINDOWS_ROWS | QUBO_PUZZLE_WINDOWS_COLUMNS |
				    QUBO_PUZZLE_WINDOWS_DIAGONALS))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.windows is %d, expected flags of "
				   "QUBO_PUZZLE_WINDOWS_ROWS (1), _COLUMNS (2) and _DIAGONALS (4)",
				   fn, (int)s->windows);
	if (s->wrap < QUBO_PUZZLE_WRAP_NONE || s->wrap > QUBO_PUZZLE_WRAP_TORUS)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: spec.wrap is %d, expected 0 (none), 1 (cylinder) or 2 "
				   "(torus)",
				   fn, (int)s->wrap);
	if (s->distinct != 0 && s->distinct != 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: spec.distinct is %d, expected 0 or 1",
				   fn, (int)s->distinct);
	if (s->num_signs && !s->signs)
		return bad(fn, "spec.signs is NULL but spec.num_signs is not 0");
	for (i = 0; i < s->num_signs; i++) {
		const qubo_puzzle_binary_sign *g = &s->signs[i];

		if (g->a >= n || g->b >= n || g->a == g->b || (g->differ != 0 && g->differ != 1))
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.signs[%zu] is (%u, %u, %d): expected two "
					   "different cells below %zu and differ 0 or 1",
					   fn, i, (unsigned)g->a, (unsigned)g->b, (int)g->differ,
					   n);
	}
	if (s->num_regions && !s->regions)
		return bad(fn, "spec.regions is NULL but spec.num_regions is not 0");
	if (s->regions && (rc = check_map(s->regions, n, s->num_regions, "regions", "num_regions",
					  fn)))
		return rc;
	for (i = 0; s->region_ones && i < s->num_regions; i++)
		if (s->region_ones[i] < -1)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.region_ones[%zu] is %d, expected -1 (no "
					   "count) or at least 0",
					   fn, i, (int)s->region_ones[i]);
	if (s->num_equal_groups && !s->equal_groups)
		return bad(fn, "spec.equal_groups is NULL but spec.num_equal_groups is not 0");
	if (s->equal_groups && (rc = check_map(s->equal_groups, n, s->num_equal_groups,
					       "equal_groups", "num_equal_groups", fn)))
		return rc;
	if (s->num_differ_pairs && !s->differ_pairs)
		return bad(fn, "spec.differ_pairs is NULL but spec.num_differ_pairs is not 0");
	for (i = 0; i < 2 * s->num_differ_pairs; i++)
		if (s->differ_pairs[i] >= s->num_equal_groups ||
		    (i % 2 && s->differ_pairs[i] == s->differ_pairs[i - 1]))
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: spec.differ_pairs[%zu] is %u, expected a group "
					   "below spec.num_equal_groups (%zu), other than its "
					   "pair's first",
					   fn, i, (unsigned)s->differ_pairs[i],
					   s->num_equal_groups);
	return QUBO_OK;
}

/* ---- windows ---- */

/* The cell k steps from (r, c) along (dr, dc), or UINT32_MAX off the board.
 * On a wrapped side of fewer than 3 cells a window may meet a cell twice
 * (make_windows drops it) or repeat another (kept once). */
static uint32_t step(const qubo_puzzle_binary_spec *s, uint32_t r, uint32_t c, int dr, int dc,
		     int k)
{
	int hw = s->wrap >= QUBO_PUZZLE_WRAP_CYLINDER;
	int vw = s->wrap == QUBO_PUZZLE_WRAP_TORUS;
	int64_t rr = (int64_t)r + (int64_t)dr * k, cc = (int64_t)c + (int64_t)dc * k;

	if (hw)
		cc = ((cc % s->width) + s->width) % s->width;
	if (vw)
		rr = ((rr % s->height) + s->height) % s->height;
	if (rr < 0 || cc < 0 || rr >= s->height || cc >= s->width)
		return UINT32_MAX;
	return (uint32_t)(rr * s->width + cc);
}

/* Fills win (room for 4 × n triples) with the windows, each a sorted
 * triple, in increasing order and without repeats (*count of them): those
 * whose smallest cell is x, for x = 0, 1, …, so that no sort of the whole
 * list is needed. The build's ctl stops it. */
static int make_windows(const qubo_puzzle_binary_spec *s, uint32_t *win, struct qubo__pz_ctl *ctl,
			size_t *count)
{
	static const int dirs[4][3] = {
		{ 0, 1, QUBO_PUZZLE_WINDOWS_ROWS },
		{ 1, 0, QUBO_PUZZLE_WINDOWS_COLUMNS },
		{ 1, 1, QUBO_PUZZLE_WINDOWS_DIAGONALS },
		{ 1, -1, QUBO_PUZZLE_WINDOWS_DIAGONALS },
	};
	size_t n = (size_t)s->width * s->height, m = 0, x;
	uint64_t pending = 0;
	int d, k, rc;

	for (x = 0; x < n; x++) {
		uint32_t r = (uint32_t)(x / s->width), c = (uint32_t)(x % s->width);
		size_t first = m;

		if ((rc = qubo__pz_build_tick(ctl, &pending, 1)))
			return rc;
		/* the windows through x: x at position k of the run from its start */
		for (d = 0; d < 4; d++) {
			if (!(s->windows & dirs[d][2]))
				continue;
			for (k = 0; k < 3; k++) {
				uint32_t t[3], y;
				size_t i;

				t[0] = step(s, r, c, dirs[d][0], dirs[d][1], -k);
				t[1] = step(s, r, c, dirs[d][0], dirs[d][1], 1 - k);
				t[2] = step(s, r, c, dirs[d][0], dirs[d][1], 2 - k);
				if (t[0] == UINT32_MAX || t[1] == UINT32_MAX ||
				    t[2] == UINT32_MAX || t[0] == t[1] || t[1] == t[2] ||
				    t[0] == t[2])
					continue;
				if (t[0] > t[1])
					y = t[0], t[0] = t[1], t[1] = y;
				if (t[1] > t[2])
					y = t[1], t[1] = t[2], t[2] = y;
				if (t[0] > t[1])
					y = t[0], t[0] = t[1], t[1] = y;
				if (t[0] != x)
					continue;
				/* into its place among x's windows (at most 12), once */
				for (i = m; i > first &&
					    (win[3 * i - 2] > t[1] ||
					     (win[3 * i - 2] == t[1] && win[3 * i - 1] > t[2]));
				     i--)
					;
				if (i > first && win[3 * i - 2] == t[1] && win[3 * i - 1] == t[2])
					continue;
				memmove(&win[3 * i + 3], &win[3 * i], 3 * (m - i) * sizeof *win);
				memcpy(&win[3 * i], t, sizeof t);
				m++;
			}
		}
	}
	*count = m;
	return QUBO_OK;
}

/* ---- relations ---- */

static void relate(struct bn_rel *rel, size_t *nrel, uint32_t a, uint32_t b, int32_t differ)
{
	rel[*nrel].a = a < b ? a : b;
	rel[*nrel].b = a < b ? b : a;
	rel[(*nrel)++].differ = differ;
}

/* The signs, the groups' chains and the differing pairs as relations (rel
 * has room for num_signs + n + num_differ_pairs; first has room for
 * num_equal_groups). */
static int make_relations(const qubo_puzzle_binary_spec *s, struct bn_rel *rel, size_t *nrel,
			  uint32_t *first, const char *fn)
{
	size_t n = (size_t)s->width * s->height, i;

	*nrel = 0;
	for (i = 0; i < s->num_signs; i++)
		relate(rel, nrel, s->signs[i].a, s->signs[i].b, s->signs[i].differ);
	for (i = 0; i < s->num_equal_groups; i++)
		first[i] = UINT32_MAX;
	for (i = 0; s->equal_groups && i < n; i++) {
		int32_t g = s->equal_groups[i];

		if (g < 0)
			continue;
		if (first[g] == UINT32_MAX)
			first[g] = (uint32_t)i;
		else
			relate(rel, nrel, first[g], (uint32_t)i, 0);
	}
	for (i = 0; i < s->num_equal_groups; i++)
		if (first[i] == UINT32_MAX)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "%s: equality group %zu has no cell in "
					   "spec.equal_groups",
					   fn, i);
	for (i = 0; i < s->num_differ_pairs; i++)
		relate(rel, nrel, first[s->differ_pairs[2 * i]], first[s->differ_pairs[2 * i + 1]],
		       1);
	return QUBO_OK;
}

/* Regions whose count is beyond their size. */
static int check_region_sizes(const qubo_puzzle_binary_spec *s, size_t *size, const char *fn)
{
	size_t n = (size_t)s->width * s->height, i;

	for (i = 0; i < s->num_regions; i++)
		size[i] = 0;
	for (i = 0; s->regions && i < n; i++)
		if (s->regions[i] >= 0)
			size[s->regions[i]]++;
	for (i = 0; s->region_ones && i < s->num_regions; i++)
		if (s->region_ones[i] > 0 && (size_t)s->region_ones[i] > size[i])
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "%s: the puzzle has no solution: region %zu needs %d "
					   "ones and has %zu cells",
					   fn, i, (int)s->region_ones[i], size[i]);
	return QUBO_OK;
}

int qubo_puzzle_binary_new(qubo_puzzle **out, const qubo_puzzle_binary_spec *spec,
			   const qubo_puzzle_options *options)
{
	static const char fn[] = "qubo_puzzle_binary_new";
	struct qubo__pz_opts opts;
	struct bn_spec b;
	qubo_allocator a;
	uint32_t *win = NULL, *first = NULL;
	struct bn_rel *rel = NULL;
	size_t *size = NULL, n, nrel = 0, nwin = 0;
	int rc = qubo__pz_spec_args(out, spec, options, &opts, fn);

	if (!rc)
		rc = check_spec(spec, fn);
	if (!rc)
		rc = qubo__alloc_init(&a, opts.allocator, NULL);
	if (rc)
		return rc;
	n = (size_t)spec->width * spec->height;
	win = qubo__malloc_array(&a, 12 * n, sizeof *win);
	rel = qubo__malloc_array(&a, spec->num_signs + n + spec->num_differ_pairs, sizeof *rel);
	first = qubo__malloc_array(&a, spec->num_equal_groups, sizeof *first);
	size = qubo__malloc_array(&a, spec->num_regions, sizeof *size);
	if (!win || !rel || !first || !size)
		rc = qubo__nomem("the puzzle's spec");
	if (!rc)
		rc = make_relations(spec, rel, &nrel, first, fn);
	if (!rc)
		rc = check_region_sizes(spec, size, fn);
	if (!rc)
		rc = make_windows(spec, win, opts.ctl, &nwin);
	if (!rc) {
		memset(&b, 0, sizeof b);
		b.width = spec->width;
		b.height = spec->height;
		b.kind = BN_SPEC;
		b.distinct = spec->distinct;
		b.clues = spec->clues;
		b.row_ones = spec->row_ones;
		b.col_ones = spec->col_ones;
		b.windows = win;
		b.num_windows = nwin;
		b.rels = rel;
		b.num_rels = nrel;
		b.regions = spec->regions;
		b.region_ones = spec->region_ones;
		b.num_regions = spec->regions ? spec->num_regions : 0;
		rc = qubo__pz_build_end(out, &opts, qubo__pz_bn_create(out, &b, &opts, fn));
	}
	qubo__free(&a, win);
	qubo__free(&a, rel);
	qubo__free(&a, first);
	qubo__free(&a, size);
	return rc;
}
