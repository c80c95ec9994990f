/*
 * The qbsolv `.qubo` parser (doc/formats.md states the rules; every
 * rejection below is listed there).
 *
 * One pass over the lines of a memory buffer. Linear lines go straight into
 * the model; couplers are staged in chunks of at most QBS_CHUNK and
 * appended to the model's pending pairs, so the declared line counts never
 * size an allocation (maxNodes does size the
 * model: it is bounded by QUBO_MAX_VARIABLES and the allocator, as a model
 * made by qubo_model_new() is). A long list of coupler lines is read in
 * two halves at once, the second on a thread of the pool's (half_run()),
 * with the same result and errors as in one pass. Once the coupler lines
 * have begun, a plain coupler line is read in one scan (fast_coupler());
 * anything else goes the general way from the same place. Numbers are
 * parsed in the C locale (number.h). Couplers go to the model in the order
 * of their lines, so a file listed by rows gives a log in order, which the
 * compile takes as it is.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "pool.h"
#include "qbsolv_fields.h"
#include "qbsolv_impl.h"

/* Above this many declared variables, the input must hold one byte per
 * QBSOLV_NODES_PER_BYTE variables (doc/formats.md). */
#define QBSOLV_FREE_NODES (1u << 24)
#define QBSOLV_NODES_PER_BYTE 16u

/* Couplers staged per append to the model. */
#define QBS_CHUNK 65536
/* Every entry line takes at least this many bytes ("0 0 0\n"). */
#define QBS_MIN_LINE 6
/* The indices of coupler lines are read 8 bytes at a time where the bytes
 * of a word are little-endian and GCC's builtins are there (swar_digits()). */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define QBS_SWAR 1
#define qbs_ctz64(x) ((unsigned)__builtin_ctzll(x))
#else
#define QBS_SWAR 0
#define qbs_ctz64(x) 0u
#endif
/* Coupler text from which a thread of the pool's reads the second half. */
#define QBS_HALF_MIN ((size_t)1 << 20)

/* ------------------------------------------------------------------ */
/* Integers. */

/* The run of decimal digits that starts the 8 bytes at p (8 readable
 * bytes): its length, 0 to 8, and in *val its value when that is 1 to 7
 * (a run of 8 may go on, and its caller reads it byte by byte). Bytes are
 * taken as digits by (b - '0') <= 9 in 8 lanes at once; only the lanes up
 * to the first other byte count, so the borrow that this byte may pass to
 * later lanes does not matter. */
static inline unsigned swar_digits(const char *p, uint64_t *val)
{
	uint64_t x, t, other;
	unsigned len;

	memcpy(&x, p, 8);
	t = x - UINT64_C(0x3030303030303030);
	other = (t | (t + UINT64_C(0x7676767676767676))) & UINT64_C(0x8080808080808080);
	if (!other)
		return 8;
	/* the first byte is the lowest lane (little-endian) */
	len = (unsigned)qbs_ctz64(other) >> 3;
	if (!len)
		return 0;
	t <<= 8 * (8 - len); /* the run as the last len digits of 8 */
	t = (t * 10 + (t >> 8)) & UINT64_C(0x00ff00ff00ff00ff);	 /* pairs */
	t = (t * 100 + (t >> 16)) & UINT64_C(0x0000ffff0000ffff); /* quads */
	*val = (t * 10000 + (t >> 32)) & UINT64_C(0xffffffff);
	return len;
}

/* ------------------------------------------------------------------ */
/* Reader state. */

/* Makes the line at r->pos, whose content ends at le, the current one; the
 * next starts at next. */
static void take_line(rd *r, const char *le, const char *next)
{
	r->ls = r->pos;
	r->le = le;
	r->pos = next;
	r->line++;
}

/* Advances to the next line. 0 at the end of the input, -1 on a NUL byte
 * (error set), 1 otherwise. */
static int next_line(rd *r)
{
	const char *nl, *z;

	if (r->pos == r->end)
		return 0;
	nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
	take_line(r, nl ? nl : r->end, nl ? nl + 1 : r->end);
	z = memchr(r->ls, '\0', (size_t)(r->le - r->ls));
	if (z) {
		qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, z), "NUL byte in the input");
		return -1;
	}
	if (r->le > r->ls && r->le[-1] == '\r')
		r->le--;
	return 1;
}

static int tok_is(const tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->n == n && memcmp(t->s, word, n) == 0;
}

/* An index of fast_coupler(): 1 to 9 digits (so below 2^32) and a blank;
 * returns the start of the next field, or NULL. */
static const char *fast_index(const char *p, const char *end, uint32_t *out)
{
	const char *s = p, *lim = end - p > 9 ? p + 9 : end;
	uint64_t run = 0;
	unsigned len = QBS_SWAR && end - p > 8 ? swar_digits(p, &run) : 8, d;
	uint32_t v = 0;

	if (len < 8) { /* the whole run: 0 to 7 digits */
		v = (uint32_t)run;
		p += len;
	} else {
		for (; p < lim && (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
			v = v * 10 + d;
	}
	if (p == s || p == end || (*p != ' ' && *p != '\t'))
		return NULL; /* no digit, a tenth digit, or no blank after */
	*out = v;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * The common coupler line, "<i> <j> <weight>" with indices of at most 9
 * digits, blanks between, and nothing but a line end after the weight,
 * read in one scan. p is the start of a line. When the line is that and
 * the reader would take it as it is (i < j < max_nodes, a finite weight
 * that needs no buffer for long numbers), sets *i, *j, *w and *le (the end
 * of the content, before a '\r') and returns the start of the next line;
 * else NULL, and the general code reads the line (and reports what is
 * wrong, from the same position). The values are those of the general
 * code: the same digits, and qubo__number_plain() or qubo__number_parse() for the
 * weight. No line with a NUL byte is taken: no field accepts one.
 */
static const char *fast_coupler(const char *p, const char *end, uint64_t max_nodes,
				uint32_t *i, uint32_t *j, double *w, const char **le)
{
	const char *t;
	int plain;

	if (!(p = fast_index(p, end, i)) || !(p = fast_index(p, end, j)))
		return NULL;
	t = p;
	plain = qubo__number_plain(t, end, w, &p);
	if (!plain || (p < end && *p != '\r' && *p != '\n')) {
		/* an exponent, or a longer number: the whole token */
		for (p = t; p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n'; p++)
			;
		plain = 0;
	}
	*le = p;
	if (p < end && *p == '\r')
		p++;
	if (p < end && *p++ != '\n')
		return NULL;
	if (*le == t || *i >= max_nodes || *j >= max_nodes || *i >= *j ||
	    (!plain && (qubo__number_parse(t, (size_t)(*le - t), w, NULL, NULL, NULL) != 1 ||
			!qubo__is_finite(*w))))
		return NULL;
	return p;
}

/* ------------------------------------------------------------------ */
/* The parse. */

typedef struct parse {
	rd r;
	qubo_model *m;
	int have_header;
	uint64_t max_nodes, n_nodes, n_couplers;
	uint64_t diag_read, coup_read;
	size_t max_variables, max_couplers; /* the caller's limits, resolved */
	int pending;      /* leave the terms pending (qubo__qbsolv_read_pending) */
	double offset;
	/* coupler staging: pairs with nonzero weights, and whether they left
	 * the order of (i, j) among themselves */
	qubo__pair *stage;
	size_t staged, cap_stage;
	int stage_unordered;
	/* `c group` lines, applied once the model exists */
	struct qbs_group {
		uint32_t first, count;
		size_t line, col;
	} *groups;
	size_t num_groups, cap_groups;
	qubo__pool half_pool; /* the second half's run, one unit (half_start()) */
} parse;

/* Stages the coupler of a line (i < j, room for it at *n) unless its
 * weight is zero, which adds nothing, as qubo_model_add_quadratic() leaves
 * it out; notes when it comes before the pair staged last. */
static inline void stage_pair(qubo__pair *buf, size_t *n, int *unordered, uint32_t i,
			      uint32_t j, double w)
{
	qubo__pair *q = buf + *n;

	if (w == 0.0)
		return;
	if (*n && qubo__pair_before(&q[-1], i, j))
		*unordered = 1;
	q->i = i;
	q->j = j;
	q->w = w;
	++*n;
}

/* Appends couplers the reader has checked to the model's pending pairs, as
 * qubo_model_add_quadratic_batch() would without checking them again. */
static int append_couplers(parse *p, size_t n, const qubo__pair *src, int in_order)
{
	int rc = qubo__model_reserve(p->m, n, 0, 0);

	if (rc) {
		p->r.code = rc;
		p->r.api_error = 1;
		return rc;
	}
	qubo__model_push_log(p->m, src, n, in_order);
	return QUBO_OK;
}

static int flush_stage(parse *p)
{
	int rc;

	if (!p->staged)
		return QUBO_OK;
	rc = append_couplers(p, p->staged, p->stage, !p->stage_unordered);
	if (rc)
		return rc;
	p->staged = 0;
	p->stage_unordered = 0;
	return QUBO_OK;
}

/* `c offset <value>`: cur is just past "offset". */
static int do_offset(parse *p, const char *cur)
{
	rd *r = &p->r;
	tok t;
	double v, s;
	int rc;

	if ((rc = qubo__rd_field(r, &cur, &t, "the value after 'c offset'")) ||
	    (rc = qubo__rd_number(r, &t, "offset", &v)) ||
	    (rc = qubo__rd_line_end(r, cur, "the offset value")))
		return rc;
	s = p->offset + v;
	if (!qubo__is_finite(s))
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t.s),
			       "the offsets add up to a value beyond the range of double");
	p->offset = s;
	return QUBO_OK;
}

/* `c group <first> <count>`: cur is just past "group". The variables are
 * checked against the header once it has been read. */
static int do_group(parse *p, const char *cur)
{
	rd *r = &p->r;
	tok tf, tc;
	uint64_t first, count;
	struct qbs_group *g;
	int rc;

	if ((rc = qubo__rd_field(r, &cur, &tf, "the first variable after 'c group'")) ||
	    (rc = qubo__rd_uint(r, &tf, "group start", &first)) ||
	    (rc = qubo__rd_field(r, &cur, &tc, "the variable count after 'c group <first>'")) ||
	    (rc = qubo__rd_uint(r, &tc, "group size", &count)) ||
	    (rc = qubo__rd_line_end(r, cur, "the group size")))
		return rc;
	if (count == 0 || count > QUBO_MAX_GROUP_SIZE)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, tc.s),
			       "group size %llu is not between 1 and %d", (unsigned long long)count,
			       QUBO_MAX_GROUP_SIZE);
	if (first >= QUBO_MAX_VARIABLES)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, tf.s),
			       "group start %llu is beyond the variable limit",
			       (unsigned long long)first);
	if (qubo__grow(r->a, (void **)&p->groups, &p->cap_groups, p->num_groups + 1,
		       sizeof *p->groups)) {
		r->code = QUBO_ERR_NOMEM;
		r->api_error = 1;
		return QUBO_ERR_NOMEM;
	}
	g = &p->groups[p->num_groups++];
	g->first = (uint32_t)first;
	g->count = (uint32_t)count;
	g->line = r->line;
	g->col = col_of(r, tf.s);
	return QUBO_OK;
}

/* Marks the groups of the `c group` lines, in file order. */
static int apply_groups(parse *p)
{
	size_t k;

	for (k = 0; k < p->num_groups; k++) {
		const struct qbs_group *g = &p->groups[k];
		const char *why;
		int rc;

		if ((uint64_t)g->first + g->count > p->max_nodes)
			return qubo__rd_fail(&p->r, QUBO_ERR_PARSE, g->line, g->col,
				       "c group %u %u: variables %u to %llu do not exist; the "
				       "header declares %llu", g->first, g->count, g->first,
				       (unsigned long long)g->first + g->count - 1,
				       (unsigned long long)p->max_nodes);
		rc = qubo_model_add_group(p->m, g->first, g->count);
		if (rc == QUBO_ERR_INVALID_ARG) {
			/* an overlap; the model's message says with which group */
			why = qubo_error_detail();
			return qubo__rd_fail(&p->r, QUBO_ERR_PARSE, g->line, g->col, "c group %u %u: %s",
				       g->first, g->count, *why ? why : "overlaps another group");
		}
		if (rc) {
			p->r.code = rc;
			p->r.api_error = 1;
			return rc;
		}
	}
	return QUBO_OK;
}

/* The most variables a header may declare in `length` bytes of input. */
static uint64_t max_nodes_for(size_t length)
{
	uint64_t most =
		(uint64_t)length > (UINT64_MAX - QBSOLV_NODES_PER_BYTE) / QBSOLV_NODES_PER_BYTE ?
			UINT64_MAX :
			(uint64_t)length * QBSOLV_NODES_PER_BYTE + QBSOLV_NODES_PER_BYTE - 1;

	return most > QBSOLV_FREE_NODES ? most : QBSOLV_FREE_NODES;
}

static const char header_form[] = "'p qubo 0 <maxNodes> <nNodes> <nCouplers>'";

/* `p qubo 0 <maxNodes> <nNodes> <nCouplers>`: cur is just past "p". */
static int do_header(parse *p, const tok *ptok, const char *cur, size_t length)
{
	rd *r = &p->r;
	tok t, tm, tn, tc;
	char b[32];
	uint64_t lines_max = length / QBS_MIN_LINE;
	size_t cap;
	int rc;

	if (p->have_header)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, ptok->s),
			       "second header line (the header must appear once)");
	if ((rc = qubo__rd_field(r, &cur, &t, "the word 'qubo' in the header")))
		return rc;
	if (!tok_is(&t, "qubo"))
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t.s),
			       "header: expected 'qubo' after 'p', found '%s'", qubo__rd_show(&t, b));
	if ((rc = qubo__rd_field(r, &cur, &t, "the topology in the header")))
		return rc;
	if (!tok_is(&t, "0") && !tok_is(&t, "unconstrained"))
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t.s),
			       "header: topology '%s' is not supported (only '0' or "
			       "'unconstrained')", qubo__rd_show(&t, b));
	if ((rc = qubo__rd_field(r, &cur, &tm, "maxNodes in the header")) ||
	    (rc = qubo__rd_uint(r, &tm, "maxNodes", &p->max_nodes)) ||
	    (rc = qubo__rd_field(r, &cur, &tn, "nNodes in the header")) ||
	    (rc = qubo__rd_uint(r, &tn, "nNodes", &p->n_nodes)) ||
	    (rc = qubo__rd_field(r, &cur, &tc, "nCouplers in the header")) ||
	    (rc = qubo__rd_uint(r, &tc, "nCouplers", &p->n_couplers)) ||
	    (rc = qubo__rd_line_end(r, cur, "the header")))
		return rc;
	if (p->max_nodes > p->max_variables)
		return qubo__rd_too_large(r, QUBO_LIMIT_MAX_VARIABLES, p->max_variables, r->line,
				    col_of(r, tm.s),
				    "maxNodes %llu exceeds the limit of %zu variables "
				    "(qubo_qbsolv_options.max_variables raises it)",
				    (unsigned long long)p->max_nodes, p->max_variables);
	if (p->n_couplers > p->max_couplers)
		return qubo__rd_too_large(r, QUBO_LIMIT_MAX_COUPLERS, p->max_couplers, r->line,
				    col_of(r, tc.s),
				    "nCouplers %llu exceeds the limit of %zu couplers "
				    "(qubo_qbsolv_options.max_couplers raises it)",
				    (unsigned long long)p->n_couplers, p->max_couplers);
	/* Variables without terms cost memory too (about 24 bytes each): a huge
	 * declared count must be backed by input, so that a few bytes of a hostile
	 * file cannot make the reader touch gigabytes. */
	if (p->max_nodes > QBSOLV_FREE_NODES && p->max_nodes / QBSOLV_NODES_PER_BYTE > length)
		return qubo__rd_too_large(r, QUBO_LIMIT_INPUT_VARIABLES, max_nodes_for(length), r->line,
				    col_of(r, tm.s),
				    "maxNodes %llu in %zu bytes of input: above %u variables the "
				    "reader needs one byte of input per %u variables",
				    (unsigned long long)p->max_nodes, length, QBSOLV_FREE_NODES,
				    QBSOLV_NODES_PER_BYTE);
	if (p->n_nodes > lines_max)
		return qubo__rd_too_large(r, QUBO_LIMIT_INPUT_LINES, lines_max, r->line, col_of(r, tn.s),
				    "nNodes %llu: %zu bytes of input cannot hold that many lines",
				    (unsigned long long)p->n_nodes, length);
	if (p->n_couplers > lines_max - p->n_nodes)
		return qubo__rd_too_large(r, QUBO_LIMIT_INPUT_LINES, lines_max, r->line, col_of(r, tc.s),
				    "nNodes %llu + nCouplers %llu: %zu bytes of input cannot hold "
				    "that many lines",
				    (unsigned long long)p->n_nodes,
				    (unsigned long long)p->n_couplers, length);
	p->have_header = 1;
	rc = qubo_model_new(&p->m, (size_t)p->max_nodes, r->a);
	if (rc) {
		r->code = rc;
		r->api_error = 1;
		return rc;
	}
	if (p->n_couplers) {
		cap = p->n_couplers < QBS_CHUNK ? (size_t)p->n_couplers : QBS_CHUNK;
		p->stage = qubo__malloc_array(r->a, cap, sizeof *p->stage);
		if (!p->stage)
			return qubo__rd_fail(r, QUBO_ERR_NOMEM, 0, 0,
				       "out of memory allocating the coupler buffer");
		p->cap_stage = cap;
	}
	return QUBO_OK;
}

/* An index field: below maxNodes. */
static int rd_index(parse *p, const tok *t, const char *what, uint32_t *out)
{
	rd *r = &p->r;
	char b[32];
	uint64_t v;
	int rc = qubo__rd_uint(r, t, what, &v);

	if (rc)
		return rc;
	if (v >= p->max_nodes)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, t->s),
			       "%s %s is not below maxNodes %llu", what, qubo__rd_show(t, b),
			       (unsigned long long)p->max_nodes);
	*out = (uint32_t)v;
	return QUBO_OK;
}

/* `<i> <j> <weight>`: first is the first field, cur just past it. */
static int do_entry(parse *p, const tok *first, const char *cur)
{
	rd *r = &p->r;
	tok tj, tw;
	uint32_t i = 0, j = 0; /* set by rd_index before use; gcc -O3 cannot see it */
	double w = 0.0, s;
	int rc;

	if (!p->have_header)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, first->s),
			       "expected the header %s before any entry line", header_form);
	if (p->diag_read == p->n_nodes && p->coup_read == p->n_couplers)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, first->s),
			       "more entry lines than the header declares (%llu diagonal, "
			       "%llu coupler lines)", (unsigned long long)p->n_nodes,
			       (unsigned long long)p->n_couplers);
	if ((rc = rd_index(p, first, "index i", &i)) ||
	    (rc = qubo__rd_field(r, &cur, &tj, "index j")) ||
	    (rc = rd_index(p, &tj, "index j", &j)) ||
	    (rc = qubo__rd_field(r, &cur, &tw, "the weight")) ||
	    (rc = qubo__rd_number(r, &tw, "weight", &w)) ||
	    (rc = qubo__rd_line_end(r, cur, "the weight")))
		return rc;
	if (p->diag_read < p->n_nodes) {
		if (i != j)
			return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, tj.s),
				       "diagonal line %llu of %llu must have i == j, found "
				       "%u %u", (unsigned long long)p->diag_read + 1,
				       (unsigned long long)p->n_nodes, i, j);
		s = p->m->h[i] + w;
		if (!qubo__is_finite(s))
			return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, tw.s),
				       "the diagonal weights of variable %u add up to a value "
				       "beyond the range of double", i);
		rc = qubo_model_add_linear(p->m, i, w);
		if (rc) {
			r->code = rc;
			r->api_error = 1;
			return rc;
		}
		p->diag_read++;
		return QUBO_OK;
	}
	if (i == j) {
		if (p->coup_read)
			return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, first->s),
				       "diagonal line after the coupler lines (all diagonal "
				       "lines come first)");
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, first->s),
			       "more diagonal lines than the %llu the header declares",
			       (unsigned long long)p->n_nodes);
	}
	if (i > j)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, r->line, col_of(r, tj.s),
			       "coupler line needs i < j, found %u %u", i, j);
	if (p->staged == p->cap_stage && (rc = flush_stage(p)))
		return rc;
	stage_pair(p->stage, &p->staged, &p->stage_unordered, i, j, w);
	p->coup_read++;
	return QUBO_OK;
}

/*
 * The second half. When the coupler lines start and more than QBS_HALF_MIN
 * bytes are left, a thread of the pool's reads the second half of them
 * (from a line start) while the calling thread reads the first. It takes
 * plain coupler lines, blank lines and comments only, into arrays allocated
 * for it beforehand, and gives up at anything else (a line the reader would
 * reject, `c offset` or `c group`, a long number): the calling thread then
 * reads that half itself. So the model, and the first error and its
 * position, are those of reading the lines in order.
 */
typedef struct half {
	rd r;		  /* over the second half; line counts its lines */
	uint64_t max_nodes;
	qubo__pair *pairs; /* the couplers with nonzero weights */
	size_t n;
	size_t lines, cap; /* coupler lines read, cap at most */
	int unordered;	  /* pairs left the order of (i, j) */
	int done;	  /* read to its end */
} half;

static int half_run(qubo__pool *pl, unsigned wk, size_t u)
{
	half *h = pl->arg;
	rd *r = &h->r;
	tok t, t2, tj, tw;
	const char *cur;
	uint64_t i, j;
	double w;
	int k;

	for (;;) {
		uint32_t fi, fj;
		const char *next;

		if (h->lines < h->cap &&
		    (next = fast_coupler(r->pos, r->end, h->max_nodes, &fi, &fj, &w, &cur))) {
			take_line(r, cur, next);
			stage_pair(h->pairs, &h->n, &h->unordered, fi, fj, w);
			h->lines++;
			continue;
		}
		if ((k = next_line(r)) <= 0)
			break;
		cur = r->ls;
		if (!next_tok(&cur, r->le, &t))
			continue;
		if (t.s[0] == 'c') {
			const char *c2 = cur;

			if (tok_is(&t, "c") && next_tok(&c2, r->le, &t2) &&
			    (tok_is(&t2, "offset") || tok_is(&t2, "group")))
				return QUBO_OK;
			continue;
		}
		if (h->lines == h->cap || parse_u64(t.s, t.n, &i) || i >= h->max_nodes ||
		    !next_tok(&cur, r->le, &tj) || parse_u64(tj.s, tj.n, &j) ||
		    j >= h->max_nodes || i >= j || !next_tok(&cur, r->le, &tw) ||
		    qubo__number_parse(tw.s, tw.n, &w, NULL, NULL, NULL) != 1 || !qubo__is_finite(w) ||
		    next_tok(&cur, r->le, &t2))
			return QUBO_OK;
		stage_pair(h->pairs, &h->n, &h->unordered, (uint32_t)i, (uint32_t)j, w);
		h->lines++;
	}
	h->done = k == 0;
	(void)wk;
	(void)u;
	return QUBO_OK;
}

/* Starts the second half's thread when enough coupler text is left: the
 * calling thread's reader then ends where the half begins. 1 when
 * started. Nothing here fails: without memory or a thread, the calling
 * thread reads everything. */
static int half_start(parse *p, half *h)
{
	rd *r = &p->r;
	const char *mid;
	size_t left = (size_t)(r->end - r->pos), cap;

	if (left < QBS_HALF_MIN || qubo__pool_workers_for(0) < 2 ||
	    p->coup_read >= p->n_couplers)
		return 0;
	mid = memchr(r->pos + left / 2, '\n', (size_t)(r->end - (r->pos + left / 2)));
	if (!mid || mid + 1 == r->end)
		return 0;
	mid++;
	cap = (size_t)(r->end - mid) / QBS_MIN_LINE + 1;
	if (cap > p->n_couplers - p->coup_read)
		cap = (size_t)(p->n_couplers - p->coup_read);
	memset(h, 0, sizeof *h);
	h->r.pos = mid;
	h->r.end = r->end;
	h->max_nodes = p->max_nodes;
	h->cap = cap;
	h->pairs = qubo__malloc_array(r->a, cap, sizeof *h->pairs);
	qubo__pool_init(&p->half_pool, 1, 1, half_run, h);
	if (!h->pairs || !qubo__pool_start(&p->half_pool)) {
		qubo__free(r->a, h->pairs);
		return 0;
	}
	r->end = mid;
	return 1;
}

/* Waits for the second half and frees its arrays; with `take` (the first
 * half read without error) appends its couplers as if the calling thread
 * had read them, or, when the half gave up or holds more coupler lines
 * than the header leaves, lets the calling thread read it. */
static int half_join(parse *p, half *h, int take)
{
	rd *r = &p->r;
	int rc = QUBO_OK;

	(void)qubo__pool_wait(&p->half_pool);
	r->end = h->r.end;
	if (take && h->done && h->lines <= p->n_couplers - p->coup_read) {
		rc = flush_stage(p);
		if (!rc)
			rc = append_couplers(p, h->n, h->pairs, !h->unordered);
		if (!rc) {
			p->coup_read += h->lines;
			if (h->r.line) {
				r->line += h->r.line;
				r->ls = h->r.ls;
				r->le = h->r.le;
			}
			r->pos = r->end;
		}
	}
	qubo__free(r->a, h->pairs);
	return rc;
}

static int parse_lines(parse *p, size_t length)
{
	rd *r = &p->r;
	const char *cur;
	half h;
	tok t, t2;
	int k, rc = QUBO_OK, halved = 0, tried = 0;

	for (;;) {
		for (;;) {
			uint32_t fi, fj;
			double fw;
			const char *next;

			/* a plain coupler line once the coupler lines have begun */
			if (tried && p->coup_read < p->n_couplers && p->staged < p->cap_stage &&
			    (next = fast_coupler(r->pos, r->end, p->max_nodes, &fi, &fj, &fw,
						 &cur))) {
				take_line(r, cur, next);
				stage_pair(p->stage, &p->staged, &p->stage_unordered, fi, fj, fw);
				p->coup_read++;
				continue;
			}
			if ((k = next_line(r)) <= 0)
				break;
			cur = r->ls;
			if (!next_tok(&cur, r->le, &t))
				continue; /* blank */
			if (t.s[0] == 'c') {
				const char *c2 = cur;

				if (tok_is(&t, "c") && next_tok(&c2, r->le, &t2)) {
					if (tok_is(&t2, "offset") && (rc = do_offset(p, c2)))
						break;
					if (tok_is(&t2, "group") && (rc = do_group(p, c2)))
						break;
				}
				continue;
			}
			if (!tried && p->have_header && p->diag_read == p->n_nodes &&
			    !tok_is(&t, "p")) {
				/* the first coupler line: the rest may be halved */
				tried = 1;
				halved = half_start(p, &h);
			}
			rc = tok_is(&t, "p") ? do_header(p, &t, cur, length) : do_entry(p, &t, cur);
			if (rc)
				break;
		}
		if (k < 0)
			rc = r->code;
		if (!halved)
			return rc;
		halved = 0;
		if (rc) {
			half_join(p, &h, 0);
			return rc;
		}
		if ((rc = half_join(p, &h, 1)))
			return rc;
	}
}

static int parse_all(parse *p, size_t length)
{
	rd *r = &p->r;
	size_t line, col;
	int rc;

	rc = parse_lines(p, length);
	if (rc)
		return rc;
	qubo__rd_eof_pos(r, &line, &col);
	if (!p->have_header)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, line, col, "missing header %s", header_form);
	if (p->diag_read < p->n_nodes)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, line, col,
			       "the input ends after %llu of the %llu diagonal lines the "
			       "header declares", (unsigned long long)p->diag_read,
			       (unsigned long long)p->n_nodes);
	if (p->coup_read < p->n_couplers)
		return qubo__rd_fail(r, QUBO_ERR_PARSE, line, col,
			       "the input ends after %llu of the %llu coupler lines the "
			       "header declares", (unsigned long long)p->coup_read,
			       (unsigned long long)p->n_couplers);
	if ((rc = flush_stage(p)) || (rc = apply_groups(p)))
		return rc;
	if (p->offset != 0.0 && (rc = qubo_model_add_offset(p->m, p->offset))) {
		r->code = rc;
		r->api_error = 1;
		return rc;
	}
	if (p->pending)
		return QUBO_OK;
	rc = qubo_model_compile(p->m);
	/* repeated couplers that add up beyond the range of double, or
	 * weights whose magnitudes do: the compile's message, which says
	 * which, without the compile's name */
	if (rc == QUBO_ERR_OUT_OF_RANGE) {
		return qubo__rd_fail(r, QUBO_ERR_PARSE, line, col, "%s", qubo_error_detail());
	}
	if (rc) {
		r->code = rc;
		r->api_error = 1;
	}
	return rc;
}

/* A UTF-8 byte-order mark some editors write first: skipped. */
static size_t bom_length(const char *data, size_t length)
{
	return length >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

int qubo__qbsolv_parse(qubo_model **out, const char *data, size_t length,
		       const qubo__qbsolv_limits *l, const char *func, const char *path,
		       int pending)
{
	const qubo_allocator *a = &l->a;
	parse p;
	size_t bom = bom_length(data, length);
	int rc;

	memset(&p, 0, sizeof p);
	p.max_variables = l->max_variables;
	p.max_couplers = l->max_couplers;
	p.pending = pending;
	data += bom;
	length -= bom;
	p.r.end = data + length;
	p.r.pos = data;
	p.r.a = a;
	rc = parse_all(&p, length);
	qubo__free(a, p.stage);
	qubo__free(a, p.groups);
	qubo__free(a, p.r.scratch);
	if (rc == QUBO_OK) {
		*out = p.m;
		return QUBO_OK;
	}
	qubo_model_free(p.m);
	if (p.r.api_error)
		return rc;
	if (path)
		return qubo__error_limit_at(rc, p.r.limit, p.r.limit_value, p.r.err_line,
					    p.r.err_col, "%s: %s (in '%s')", func, p.r.msg, path);
	return qubo__error_limit_at(rc, p.r.limit, p.r.limit_value, p.r.err_line, p.r.err_col,
				    "%s: %s", func, p.r.msg);
}
