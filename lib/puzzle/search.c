/*
 * Exact search over a family's own state: the clock and progress of a run,
 * the generic branch and reduce of the feasibility families, and the entry
 * to the optimisation families' branch and bound.
 *
 * Branch and reduce: a node is a vector of cell values (-1 free, 0, 1) the
 * search has decided. The family's propagate applies its clues and those
 * decisions and runs its reduction to the fixpoint; a contradiction closes
 * the node, a vector with no free cell is a solution (confirmed by the rule
 * checker), and otherwise the family names a free cell and the search tries
 * 1 there, then 0. Every rule of a reduction keeps exactly the solutions
 * that agree with the decisions, so the search is complete: it finds a
 * solution when there is one, and visits each solution exactly once (the
 * two children of a node differ at the branching cell).
 */
#include <float.h>
#include <string.h>

#include "puzzle_impl.h"

#define PROGRESS_INTERVAL 0.1 /* seconds between progress calls */

int qubo__pz_check_run(int32_t threads, double time_limit, const char *fn)
{
	if (threads < 0 || threads > 4096)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.threads is %d, expected 0 (automatic) to 4096", fn,
				   (int)threads);
	return qubo__pz_check_time_limit(time_limit, fn);
}

int qubo__pz_check_time_limit(double time_limit, const char *fn)
{
	/* written so that NaN fails too */
	if (!(time_limit >= 0 && time_limit <= DBL_MAX))
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.time_limit is %g, expected a finite number of "
				   "seconds >= 0 (0: no limit)",
				   fn, time_limit);
	return QUBO_OK;
}

void qubo__pz_ctl_init(struct qubo__pz_ctl *c, double time_limit, qubo_puzzle_progress_cb progress,
		       void *user_data)
{
	memset(c, 0, sizeof *c);
	c->t0 = qubo__now();
	c->t_end = qubo__deadline(c->t0, time_limit);
	c->progress = progress;
	c->user_data = user_data;
	c->last = c->t0;
	c->pr.struct_size = sizeof c->pr;
}

int qubo__pz_ctl_poll(struct qubo__pz_ctl *c, int force)
{
	double now;

	if (c->stopped)
		return 1;
	if (!c->t_end && !c->progress)
		return 0;
	now = qubo__now();
	if (c->t_end && now >= c->t_end) {
		c->stopped = QUBO_TIME_LIMIT;
		return 1;
	}
	if (c->progress && (force || now - c->last >= PROGRESS_INTERVAL)) {
		c->last = now;
		c->pr.seconds = now - c->t0;
		if (c->progress(&c->pr, c->user_data)) {
			c->stopped = QUBO_CANCELLED;
			return 1;
		}
	}
	return 0;
}

int qubo__pz_optimisation(const qubo_puzzle *p)
{
	return p->fam->family == QUBO_PUZZLE_DOMINATION || p->fam->family == QUBO_PUZZLE_CHESS_MAX;
}

int qubo__pz_board_valid(const qubo_puzzle *p, const uint8_t *board)
{
	struct qubo__pz_report rep = { NULL, 0, 0, 0 };

	p->fam->check(p, board, &rep);
	return rep.violations == 0;
}

/* ---- branch and reduce ---- */

enum { GO = 0, DONE = 1, STOP = 2 };

struct bnr_run {
	const qubo_puzzle *p;
	const struct qubo__pz_search_ops *ops;
	void *ws;
	struct qubo__pz_bnr *b;
	size_t n;
	int8_t **levels; /* one value vector per depth, made as the search deepens */
	size_t nlevels;
	size_t cap;
};

static int8_t *level(struct bnr_run *r, size_t depth)
{
	if (depth >= r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		int8_t **nl = qubo__realloc_array(&r->p->alloc, r->levels, cap, sizeof *nl);

		if (!nl)
			return NULL;
		r->levels = nl;
		r->cap = cap;
	}
	while (r->nlevels <= depth) {
		int8_t *v = qubo__malloc_array(&r->p->alloc, r->n, 1);

		if (!v)
			return NULL;
		r->levels[r->nlevels++] = v;
	}
	return r->levels[depth];
}

static int leaf(struct bnr_run *r, const int8_t *val)
{
	struct qubo__pz_bnr *b = r->b;
	size_t i;

	for (i = 0; i < r->n; i++)
		b->board[i] = val[i] == 1;
	if (!qubo__pz_board_valid(r->p, b->board))
		return qubo__error(QUBO_ERR_INTERNAL,
				   "the search decided a %s board that breaks a rule (a bug of "
				   "the family's reduction)",
				   r->p->fam->name);
	b->solutions++;
	if (b->ctl)
		b->ctl->pr.solutions = b->solutions;
	if (!b->all)
		return DONE;
	if (b->on_solution && b->on_solution(b->ctx, b->board)) {
		if (b->ctl)
			b->ctl->stopped = QUBO_CANCELLED;
		return STOP;
	}
	if (b->limit && b->solutions >= b->limit) {
		b->limited = 1;
		return DONE;
	}
	return GO;
}

static int node(struct bnr_run *r, size_t depth)
{
	struct qubo__pz_bnr *b = r->b;
	int8_t *val = r->levels[depth], *child;
	size_t i, c;
	int v, rc;

	if (b->ctl && qubo__pz_ctl_poll(b->ctl, 0))
		return STOP;
	b->nodes++;
	if (b->ctl)
		b->ctl->pr.nodes = b->nodes;
	rc = r->ops->propagate(r->p, r->ws, val);
	if (rc == QUBO_ERR_INFEASIBLE)
		return GO;
	if (rc)
		return rc;
	for (i = 0; i < r->n && val[i] >= 0; i++)
		;
	if (i == r->n)
		return leaf(r, val);
	c = r->ops->branch(r->p, r->ws, val);
	for (v = 1; v >= 0; v--) {
		child = level(r, depth + 1);
		if (!child)
			return qubo__nomem("the search's stack");
		val = r->levels[depth];
		memcpy(child, val, r->n);
		child[c] = (int8_t)v;
		rc = node(r, depth + 1);
		if (rc != GO)
			return rc;
	}
	return GO;
}

int qubo__pz_branch_reduce(const qubo_puzzle *p, struct qubo__pz_bnr *b)
{
	struct bnr_run r;
	size_t i;
	int rc;

	b->solutions = 0;
	b->nodes = 0;
	b->limited = 0;
	if (!p->fam->search || !p->fam->search->propagate)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "the %s family has no branch and reduce search", p->fam->name);
	memset(&r, 0, sizeof r);
	r.p = p;
	r.ops = p->fam->search;
	r.b = b;
	r.n = (size_t)p->width * p->height;
	rc = r.ops->ws_new(p, &r.ws);
	if (rc)
		return rc;
	if (!level(&r, 0)) {
		rc = qubo__nomem("the search's stack");
	} else {
		memset(r.levels[0], 0xff, r.n); /* every cell free */
		rc = node(&r, 0);
	}
	if (rc == DONE || rc == GO)
		rc = QUBO_OK;
	else if (rc == STOP)
		rc = b->ctl && b->ctl->stopped ? b->ctl->stopped : QUBO_CANCELLED;
	for (i = 0; i < r.nlevels; i++)
		qubo__free(&p->alloc, r.levels[i]);
	qubo__free(&p->alloc, r.levels);
	r.ops->ws_free(p, r.ws);
	return rc;
}

/* ---- branch and bound (optimisation families) ---- */

/* The family's search sees one context; this one carries the run's
 * control and the caller's own found callback and context. */
struct opt_wrap {
	struct qubo__pz_ctl *ctl;
	int (*found)(void *ctx, const uint8_t *board);
	void *ctx;
};

static int opt_stop(void *ctx, uint64_t nodes)
{
	struct opt_wrap *w = ctx;

	w->ctl->pr.nodes = nodes;
	return qubo__pz_ctl_poll(w->ctl, 0);
}

static int opt_found(void *ctx, const uint8_t *board)
{
	struct opt_wrap *w = ctx;

	w->ctl->pr.solutions++;
	return w->found ? w->found(w->ctx, board) : 0;
}

int qubo__pz_optimum(const qubo_puzzle *p, struct qubo__pz_opt *o, struct qubo__pz_ctl *ctl)
{
	struct opt_wrap w;
	void *ws = NULL;
	int rc;

	if (!p->fam->search || !p->fam->search->optimum)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "the %s family has no branch and bound search", p->fam->name);
	w.ctl = ctl;
	w.found = o->found;
	w.ctx = o->ctx;
	o->stop = opt_stop;
	o->found = opt_found;
	o->ctx = &w;
	o->nodes = 0;
	o->has_energy = 0;
	rc = p->fam->search->ws_new(p, &ws);
	if (!rc)
		rc = p->fam->search->optimum(p, ws, o);
	if (ws)
		p->fam->search->ws_free(p, ws);
	o->found = w.found;
	o->ctx = w.ctx;
	o->stop = NULL;
	ctl->pr.nodes = o->nodes;
	if (rc == QUBO_CANCELLED && ctl->stopped)
		rc = ctl->stopped;
	return rc;
}
