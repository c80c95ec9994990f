/*
 * qubo_puzzle_count(): the number of distinct solutions of a puzzle (the
 * optimal ones for an optimisation puzzle), each confirmed by the rule
 * checker.
 *
 * Search: the family's branch and reduce visits every solution once
 * (search.c); an optimisation family's branch and bound enumerates every
 * optimal board once. Enumeration: every state of the reduced model is
 * visited by the exhaustive solver; the model is exact, so the solutions
 * are its ground states (at the ground energy, or for an optimisation
 * puzzle at the minimum), and each one is decoded, checked, and counted
 * once per distinct board (auxiliary variables could give one board several
 * ground states).
 */
#include <math.h>
#include <string.h>

#include "puzzle_impl.h"

#define DEFAULT_MAX_VARIABLES 36 /* 2^36 states: about half a minute on 2 cores */
#define MAX_STORED 65536	 /* ground states decoded one by one */

struct count_run {
	const qubo_puzzle *p;
	qubo_puzzle_count_options o;
	struct qubo__pz_ctl ctl;
	qubo_puzzle_count_result res;
	size_t cells;
	int limited;
};

/* A solution: the caller's callback, and the limit. Nonzero stops. */
static int counted(struct count_run *c, const uint8_t *board)
{
	c->res.count++;
	c->ctl.pr.solutions = c->res.count;
	if (c->o.on_solution && c->o.on_solution(board, c->cells, c->o.user_data)) {
		c->ctl.stopped = QUBO_CANCELLED;
		return 1;
	}
	if (c->o.limit && c->res.count >= c->o.limit) {
		c->limited = 1;
		return 1;
	}
	return 0;
}

static int bnr_solution(void *ctx, const uint8_t *board)
{
	struct count_run *c = ctx;

	/* the limit is the search's own; the callback's stop is ours */
	c->res.count++;
	c->ctl.pr.solutions = c->res.count;
	return c->o.on_solution && c->o.on_solution(board, c->cells, c->o.user_data);
}

static int count_search(struct count_run *c)
{
	struct qubo__pz_bnr b;
	int rc;

	memset(&b, 0, sizeof b);
	b.all = 1;
	b.limit = c->o.limit;
	b.on_solution = bnr_solution;
	b.ctx = c;
	b.ctl = &c->ctl;
	b.board = qubo__malloc_array(&c->p->alloc, c->cells, 1);
	if (!b.board)
		return qubo__nomem("a board");
	c->res.method = "search";
	c->res.energy = c->p->ground_energy;
	c->ctl.pr.phase = QUBO_PUZZLE_PHASE_SEARCH;
	rc = qubo__pz_branch_reduce(c->p, &b);
	qubo__free(&c->p->alloc, b.board);
	c->res.nodes = b.nodes;
	c->res.count = b.solutions;
	c->limited = b.limited;
	return rc;
}

static int opt_solution(void *ctx, const uint8_t *board)
{
	return counted(ctx, board);
}

static int count_optimum(struct count_run *c)
{
	struct qubo__pz_opt o;
	int rc;

	memset(&o, 0, sizeof o);
	o.all = 1;
	o.found = opt_solution;
	o.ctx = c;
	c->res.method = "branch and bound";
	c->ctl.pr.phase = QUBO_PUZZLE_PHASE_SEARCH;
	rc = qubo__pz_optimum(c->p, &o, &c->ctl);
	c->res.nodes = o.nodes;
	if (o.has_energy)
		c->res.energy = o.energy;
	if (rc == QUBO_CANCELLED && c->limited)
		rc = QUBO_OK;
	return rc;
}

/* ---- enumeration ---- */

static int enum_progress(const qubo_progress *progress, void *user_data)
{
	struct count_run *c = user_data;

	c->ctl.pr.phase = QUBO_PUZZLE_PHASE_ENUMERATE;
	c->ctl.pr.reads = progress->done;
	c->ctl.pr.seconds = qubo__now() - c->ctl.t0;
	return c->ctl.progress(&c->ctl.pr, c->ctl.user_data) != 0;
}

/* Sorts boards[lo, hi) (each c->cells bytes, reached through idx) with
 * tmp as scratch: a merge sort, as qsort has no context for the length. */
static void sort_boards(size_t *idx, size_t *tmp, size_t count, const uint8_t *boards, size_t len)
{
	size_t width, i;

	for (width = 1; width < count; width *= 2) {
		for (i = 0; i < count; i += 2 * width) {
			size_t a = i, am = i + width < count ? i + width : count;
			size_t b = am, bm = i + 2 * width < count ? i + 2 * width : count, k = i;

			while (a < am || b < bm) {
				if (b >= bm ||
				    (a < am && memcmp(boards + idx[a] * len, boards + idx[b] * len, len) <= 0))
					tmp[k++] = idx[a++];
				else
					tmp[k++] = idx[b++];
			}
		}
		memcpy(idx, tmp, count * sizeof *idx);
	}
}

/* Decodes, checks and counts the distinct boards of the stored ground
 * states. */
static int count_boards(struct count_run *c, const qubo_sampleset *set)
{
	const qubo_allocator *a = &c->p->alloc;
	size_t size = qubo_sampleset_size(set), n = qubo_sampleset_num_variables(set), i, k = 0;
	size_t len = c->cells ? c->cells : 1;
	uint8_t *boards = qubo__malloc_array(a, size ? size : 1, len), dummy = 0;
	size_t *idx = qubo__malloc_array(a, size ? size : 1, sizeof *idx);
	size_t *tmp = qubo__malloc_array(a, size ? size : 1, sizeof *tmp);
	int rc = QUBO_OK;

	if (!boards || !idx || !tmp) {
		rc = qubo__nomem("the ground states' boards");
		goto out;
	}
	for (i = 0; i < size && !rc; i++) {
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		uint8_t *b = boards + k * len;

		rc = qubo_puzzle_decode(c->p, n ? x : &dummy, n, b, c->cells);
		if (rc)
			break;
		if (!qubo__pz_board_valid(c->p, b)) {
			if (c->p->relaxed)
				continue; /* a relaxation's ground state: no solution */
			rc = qubo__error(QUBO_ERR_INTERNAL,
					 "qubo_puzzle_count: a ground state of the model decodes "
					 "to a %s board that breaks a rule",
					 c->p->fam->name);
		}
		idx[k] = k;
		k++;
	}
	if (rc)
		goto out;
	sort_boards(idx, tmp, k, boards, len);
	for (i = 0; i < k; i++) {
		if (i && !memcmp(boards + idx[i - 1] * len, boards + idx[i] * len, len))
			continue;
		if (counted(c, boards + idx[i] * len))
			break;
	}
out:
	qubo__free(a, boards);
	qubo__free(a, idx);
	qubo__free(a, tmp);
	return rc;
}

static int count_enumerate(struct count_run *c)
{
	qubo_sample_info info;
	qubo_sampleset *set = NULL;
	qubo_solver *s = NULL;
	const qubo_model *m = c->p->model;
	size_t n = qubo_model_num_variables(m);
	int32_t max = c->o.max_variables ? c->o.max_variables : DEFAULT_MAX_VARIABLES;
	double lowest = 0, ground = c->p->ground_energy;
	int rc;

	c->res.method = "enumeration";
	if (n > (size_t)max)
		return qubo__too_large(
			QUBO_LIMIT_ENUMERATION_VARIABLES, (uint64_t)max,
			"qubo_puzzle_count: the reduced model has %zu variables, too "
			"many to enumerate (2^%zu states; the limit is %d)",
			n, n, (int)max);
	rc = qubo_solver_new(&s, "exhaustive", &c->p->alloc);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_MAX_GROUND_STATES, MAX_STORED);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_THREADS,
					 c->o.threads ? c->o.threads : n <= 20 ? 1 : 0);
	if (!rc && c->ctl.t_end)
		rc = qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, c->ctl.t_end - qubo__now());
	if (!rc && c->ctl.progress)
		rc = qubo_solver_set_progress(s, enum_progress, c);
	c->ctl.pr.phase = QUBO_PUZZLE_PHASE_ENUMERATE;
	if (!rc)
		rc = qubo_solver_sample(&set, s, m);
	if (rc < 0)
		goto out;
	if (rc != QUBO_OK) {
		c->ctl.stopped = rc;
		goto out;
	}
	memset(&info, 0, sizeof info);
	info.struct_size = sizeof info;
	qubo_sampleset_get_info(set, &info);
	c->res.nodes = info.flip_attempts;
	if (qubo_sampleset_size(set))
		qubo_sampleset_get(set, 0, NULL, 0, &lowest, NULL);
	c->res.energy = qubo__pz_optimisation(c->p) ? lowest : ground;
	if (!qubo_sampleset_size(set) || (!qubo__pz_optimisation(c->p) &&
					   lowest > ground + 1e-9 * (1.0 + fabs(ground))))
		goto out; /* no solution */
	if (info.num_ground_states > qubo_sampleset_size(set)) {
		rc = qubo__too_large(QUBO_LIMIT_GROUND_STATES, MAX_STORED,
				     "qubo_puzzle_count: the model has %llu ground states, more "
				     "than the %d that enumeration decodes one by one; count with "
				     "the search",
				     (unsigned long long)info.num_ground_states, MAX_STORED);
		goto out;
	}
	rc = count_boards(c, set);
out:
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return rc;
}

/* ---- the entry point ---- */

static int read_options(qubo_puzzle_count_options *dst, const qubo_puzzle_count_options *src,
			const char *fn)
{
	int rc;

	memset(dst, 0, sizeof *dst);
	if (!src)
		return QUBO_OK;
	rc = qubo__struct_read(dst, sizeof *dst, src, QUBO_PUZZLE_COUNT_OPTIONS_SIZE_V1, "qubo_puzzle_count_options", fn);
	if (rc)
		return rc;
	if (dst->method < QUBO_PUZZLE_COUNT_AUTO || dst->method > QUBO_PUZZLE_COUNT_SEARCH)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.method is %d, expected 0 to 2 (enum "
				   "qubo_puzzle_count_method)",
				   fn, (int)dst->method);
	rc = qubo__pz_check_run(dst->threads, dst->time_limit, fn);
	if (rc)
		return rc;
	if (dst->max_variables < 0 || dst->max_variables > QUBO_EXHAUSTIVE_MAX_VARIABLES)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.max_variables is %d, expected 0 (36) to %d", fn,
				   (int)dst->max_variables, QUBO_EXHAUSTIVE_MAX_VARIABLES);
	if (dst->reserved)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: options.reserved must be 0", fn);
	return QUBO_OK;
}

static int count(struct count_run *c)
{
	const qubo_puzzle *p = c->p;
	const struct qubo__pz_search_ops *ops = p->fam->search;
	int optimisation = qubo__pz_optimisation(p);
	int searchable = ops && (optimisation ? ops->optimum != NULL : ops->propagate != NULL);

	c->res.optimal_only = optimisation;
	if (c->o.method == QUBO_PUZZLE_COUNT_SEARCH && !searchable)
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "qubo_puzzle_count: the %s family has no exact search; count "
				   "by enumeration",
				   p->fam->name);
	if (c->o.method == QUBO_PUZZLE_COUNT_ENUMERATE || !searchable)
		return count_enumerate(c);
	return optimisation ? count_optimum(c) : count_search(c);
}

int qubo_puzzle_count(const qubo_puzzle *puzzle, const qubo_puzzle_count_options *options,
		      qubo_puzzle_count_result *result)
{
	static const char fn[] = "qubo_puzzle_count";
	struct count_run c;
	size_t size;
	int rc;

	if (!puzzle || !result)
		return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL", fn,
				   puzzle ? "result" : "puzzle");
	size = result->struct_size;
	rc = qubo__check_struct(result, size, QUBO_PUZZLE_COUNT_RESULT_SIZE_V1, size,
				"qubo_puzzle_count_result", fn);
	if (rc)
		return rc;
	memset(&c, 0, sizeof c);
	rc = read_options(&c.o, options, fn);
	if (rc)
		return rc;
	c.p = puzzle;
	c.cells = (size_t)puzzle->width * puzzle->height;
	c.res.struct_size = sizeof c.res;
	qubo__pz_ctl_init(&c.ctl, c.o.time_limit, c.o.progress, c.o.user_data);
	rc = count(&c);
	if (rc < 0)
		return rc;
	c.res.complete = !c.ctl.stopped && !c.limited;
	c.res.seconds = qubo__now() - c.ctl.t0;
	rc = qubo__struct_write(result, &c.res, sizeof c.res, QUBO_PUZZLE_COUNT_RESULT_SIZE_V1,
				"qubo_puzzle_count_result", fn);
	return rc ? rc : c.ctl.stopped;
}
