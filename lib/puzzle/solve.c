/*
 * qubo_puzzle_solve(): the library's strategy for one puzzle.
 *
 * Feasibility puzzles (every solution has the ground energy):
 *  - a reduction that decided every cell has solved the puzzle;
 *  - boards with regions (queens, coloured chess pieces), binary grids
 *    (Takuzu, Tango) and Tents & Trees are searched by branch and reduce at
 *    once: a decision on such a board fixes many cells through the family's
 *    propagation, so the search ends in a handful of nodes (the full
 *    reduction alone solves most Takuzu and Tents); so are puzzles whose
 *    model is only a relaxation (relaxed Tents), whose ground states need not
 *    be solutions;
 *  - other boards are annealed in rounds of a few reads that stop the
 *    moment one reaches the ground energy, each round four times longer
 *    than the last (128 sweeps first); when the first round fails, the
 *    exact search settles the puzzle (N-Queens up to 12 × 12, where the
 *    annealer is faster on larger boards; there the search takes over once
 *    an anneal of the longest length has failed, so that the run always
 *    ends), or, without a search, the exhaustive solver settles models of
 *    up to 24 variables.
 * Optimisation puzzles (dominating sets, max chess pieces): branch and
 * bound proves the optimum; when a short first try does not end, one
 * annealing run gives it a good board to bound the search with, and that
 * board is the answer (best found, not proven) if the time runs out.
 *
 * The verdict is exact: an optimisation puzzle is never SOLVED; it is
 * OPTIMAL only when the optimum is proven (an exact search or enumeration
 * that ended, the reduction, or a board at qubo_puzzle_ground_energy(),
 * which gives only proven optima), else BEST_FOUND with a checked board.
 *
 * The default run is made for speed on small puzzles: one thread while the
 * reads are short (starting threads costs more than the anneal). Every
 * board reported is confirmed by the rule checker.
 */
#include <math.h>
#include <string.h>

#include "puzzle_impl.h"

#define DEFAULT_READS 4	     /* reads per round (sa) */
#define FIRST_SWEEPS 128     /* sweeps per read in the first round (sa) */
#define SWEEP_GROWTH 4	     /* factor per round */
#define MAX_SWEEPS (1 << 22) /* the growth stops here */
#define EXACT_FALLBACK_VARS 24 /* enumerate models up to this size */
#define NQUEENS_SEARCH_CELLS 144 /* N-Queens: search boards up to 12 x 12 */
#define OPT_READS 16	     /* optimisation puzzles: one run of this many */
#define OPT_SWEEPS 1000	     /* reads and sweeps */
#define OPT_FIRST_TRY 0.25   /* seconds of branch and bound before annealing */
/* Work (sweeps × (variables + couplers)) below which one thread is used. */
#define ONE_THREAD_WORK 4e6
/* Models up to 2^this states are enumerated on one thread. */
#define ONE_THREAD_STATES_LOG2 20

struct run {
	const qubo_puzzle *p;
	const qubo_model *m;
	size_t n, cells, couplers;
	qubo_puzzle_solve_options o;
	struct qubo__pz_ctl ctl;
	int has_ground, has_target, target_given, optimisation;
	double ground, target;
	/* the lowest sample so far */
	uint8_t *best;
	double best_e;
	int have_best;
	/* a board from an exact search, already checked */
	uint8_t *board;
	int found;
	double found_e;
	int proven_infeasible, optimum_proven;
	int search_when_long; /* sampling gives way to the search at MAX_SWEEPS */
	qubo_puzzle_result res;
	int64_t sweeps_now;
};

/* ---- options on the sampling solver ---- */

static int is_set(const qubo_solver *s, const char *key)
{
	const qubo_options *opts = NULL;

	qubo_solver_options(s, &opts);
	return qubo_options_type(opts, key) != QUBO_TYPE_NONE;
}

/* ---- sampling ---- */

static int sample_progress(const qubo_progress *progress, void *user_data)
{
	struct run *r = user_data;
	qubo_puzzle_progress *pr = &r->ctl.pr;

	pr->phase = QUBO_PUZZLE_PHASE_SAMPLE;
	pr->rounds = r->res.rounds;
	pr->reads = r->res.reads + progress->done;
	pr->sweeps = r->sweeps_now;
	pr->has_best = r->have_best || progress->has_best;
	pr->best_energy = r->best_e;
	if (progress->has_best && (!r->have_best || progress->best_energy < r->best_e))
		pr->best_energy = progress->best_energy;
	pr->has_target = r->has_target;
	pr->target_energy = r->target_given ? r->target : r->ground;
	pr->seconds = qubo__now() - r->ctl.t0;
	r->ctl.last = qubo__now();
	return r->ctl.progress(pr, r->ctl.user_data) != 0;
}

static void keep_best(struct run *r, const qubo_sampleset *set)
{
	double e = 0;

	if (!qubo_sampleset_size(set))
		return;
	qubo_sampleset_get(set, 0, NULL, 0, &e, NULL);
	if (r->have_best && e >= r->best_e)
		return;
	memcpy(r->best, qubo_sampleset_sample_data(set, 0), r->n);
	r->best_e = e;
	r->have_best = 1;
}

static int reached(const struct run *r)
{
	return r->have_best && r->has_target && r->best_e <= r->target;
}

/* One sampling run on the run's own solver s. */
static int one_run(struct run *r, qubo_solver *s)
{
	qubo_sample_info info;
	qubo_sampleset *set = NULL;
	int rc;

	if (r->ctl.t_end) {
		double left = r->ctl.t_end - qubo__now();

		if (left <= 0) {
			r->ctl.stopped = QUBO_TIME_LIMIT;
			return QUBO_OK;
		}
		rc = qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, left);
		if (rc)
			return rc;
	}
	rc = qubo_solver_sample(&set, s, r->m);
	if (rc < 0)
		return rc;
	memset(&info, 0, sizeof info);
	info.struct_size = sizeof info;
	qubo_sampleset_get_info(set, &info);
	r->res.reads += info.num_samples;
	r->res.rounds++;
	keep_best(r, set);
	if (rc == QUBO_CANCELLED || rc == QUBO_TIME_LIMIT)
		r->ctl.stopped = rc;
	qubo_sampleset_free(set);
	return QUBO_OK;
}

/* Threads when nobody said: starting threads costs more than a short
 * anneal or a small enumeration. */
static int64_t threads_for(const struct run *r, int is_sa, int exhaustive, int64_t sweeps)
{
	if (r->o.threads > 0)
		return r->o.threads;
	if (is_sa)
		return (double)sweeps * (double)(r->n + r->couplers) < ONE_THREAD_WORK ? 1 : 0;
	if (exhaustive)
		return r->n <= ONE_THREAD_STATES_LOG2 ? 1 : 0;
	return 1;
}

/* Rounds of solver s, the run's own, until a read reaches the target (one
 * run for an optimisation puzzle or an exact solver). first_only: stop
 * after the first round, which the caller follows with an exact method. */
static int sample_rounds(struct run *r, qubo_solver *s, int first_only)
{
	const char *name = qubo_solver_name(s);
	int is_sa = !strcmp(name, "sa"), exhaustive = !strcmp(name, "exhaustive");
	int user_sweeps = is_set(s, QUBO_PARAM_NUM_SWEEPS);
	int user_reads = is_set(s, QUBO_PARAM_NUM_READS);
	int user_threads = is_set(s, QUBO_PARAM_THREADS);
	int64_t sweeps = r->optimisation ? OPT_SWEEPS : FIRST_SWEEPS;
	uint32_t round;
	int rc = QUBO_OK;

	if (r->has_target && !r->target_given)
		rc = qubo_solver_set_double(s, QUBO_PARAM_TARGET_ENERGY, r->target);
	if (!rc && is_sa && !user_reads)
		rc = qubo_solver_set_int(s, QUBO_PARAM_NUM_READS,
					 r->optimisation ? OPT_READS : DEFAULT_READS);
	if (!rc && r->ctl.progress)
		qubo_solver_set_progress(s, sample_progress, r);
	if (is_sa && user_sweeps) {
		const qubo_options *opts = NULL;

		qubo_solver_options(s, &opts);
		qubo_options_get_int(opts, QUBO_PARAM_NUM_SWEEPS, 0, &sweeps);
		r->sweeps_now = sweeps;
		if (!r->res.sweeps_first)
			r->res.sweeps_first = sweeps;
		r->res.sweeps_last = sweeps;
	}
	for (round = 0; !rc && !r->ctl.stopped; round++) {
		rc = qubo_solver_set_int(s, QUBO_PARAM_SEED, (int64_t)(r->o.seed + round));
		if (!rc && is_sa && !user_sweeps) {
			rc = qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, sweeps);
			r->sweeps_now = sweeps;
			if (!r->res.sweeps_first)
				r->res.sweeps_first = sweeps;
			r->res.sweeps_last = sweeps;
		}
		if (!rc && !user_threads)
			rc = qubo_solver_set_int(s, QUBO_PARAM_THREADS,
						 threads_for(r, is_sa, exhaustive, sweeps));
		if (!rc)
			rc = one_run(r, s);
		if (rc || reached(r))
			break;
		if (exhaustive) {
			/* exact: the lowest energy is the model's minimum */
			if (!r->ctl.stopped) {
				if (r->optimisation)
					r->optimum_proven = 1;
				else if (!r->target_given &&
					 (!r->have_best ||
					  r->best_e > r->ground + 1e-9 * (1.0 + fabs(r->ground))))
					r->proven_infeasible = 1;
			}
			break;
		}
		if (r->optimisation || first_only)
			break;
		if (is_sa && !user_sweeps && sweeps >= MAX_SWEEPS && r->search_when_long)
			break; /* the longest anneal failed: the exact search settles it */
		if (is_sa && !user_sweeps && sweeps < MAX_SWEEPS)
			sweeps *= SWEEP_GROWTH;
	}
	return rc;
}

/* Rounds of a solver of the run's own: a clone of the caller's solver
 * (lent), whose options and progress callback the run never touches, or
 * else a built-in by name (the annealer, or the exhaustive fallback) with
 * the puzzle's allocator. */
static int sample_with(struct run *r, const qubo_solver *lent, const char *name, int first_only)
{
	qubo_solver *s = NULL;
	int rc = lent ? qubo_solver_clone(&s, lent) : qubo_solver_new(&s, name, &r->p->alloc);

	if (!rc)
		rc = sample_rounds(r, s, first_only);
	qubo_solver_free(s);
	return rc;
}

/* Records how the answer was reached: qubo_puzzle_result's text and enum. */
static void set_method(struct run *r, int32_t id, const char *text)
{
	r->res.method = text;
	r->res.method_id = id;
}

/* Rounds of the caller's solver or the built-in annealer. */
static int sample(struct run *r, int first_only)
{
	const char *name = r->o.solver ? qubo_solver_name(r->o.solver) : "sa";

	/* a static string: the built-ins' names, or a word for the others */
	static const char *const builtin[] = { "sa", "exhaustive", "tabu", "descent" };
	size_t k;

	set_method(r, QUBO_PUZZLE_METHOD_OTHER_SOLVER, "a caller's solver");
	for (k = 0; k < sizeof builtin / sizeof builtin[0]; k++)
		if (!strcmp(name, builtin[k]))
			set_method(r,
				   k == 1 ? QUBO_PUZZLE_METHOD_EXHAUSTIVE :
					    QUBO_PUZZLE_METHOD_SOLVER,
				   builtin[k]);
	return sample_with(r, r->o.solver, "sa", first_only);
}

/* ---- exact searches ---- */

static int search(struct run *r)
{
	struct qubo__pz_bnr b;
	int rc;

	memset(&b, 0, sizeof b);
	b.ctl = &r->ctl;
	b.board = r->board;
	r->ctl.pr.phase = QUBO_PUZZLE_PHASE_SEARCH;
	rc = qubo__pz_branch_reduce(r->p, &b);
	r->res.nodes += b.nodes;
	if (rc < 0)
		return rc;
	if (b.solutions) {
		r->found = 1;
		r->found_e = r->ground;
	} else if (rc == QUBO_OK) {
		r->proven_infeasible = 1;
	}
	return QUBO_OK;
}

static int opt_found(void *ctx, const uint8_t *board)
{
	struct run *r = ctx;

	memcpy(r->board, board, r->cells);
	r->found = 1;
	return 0;
}

/* Branch and bound, with the lowest sample's board as a bound when it is
 * valid. A slice > 0 limits this try to that many seconds (a stop by the
 * slice is not the caller's stop). */
static int optimum(struct run *r, double slice)
{
	struct qubo__pz_opt o;
	uint8_t *hint = NULL;
	double t_end = r->ctl.t_end;
	int rc;

	memset(&o, 0, sizeof o);
	if (r->have_best) {
		hint = qubo__malloc_array(&r->p->alloc, r->cells, 1);
		if (!hint)
			return qubo__nomem("a board");
		rc = qubo_puzzle_decode(r->p, r->best, r->n, hint, r->cells);
		if (rc || !qubo__pz_board_valid(r->p, hint)) {
			qubo__free(&r->p->alloc, hint);
			hint = NULL;
		}
	}
	o.hint = hint;
	o.found = opt_found;
	o.ctx = r;
	if (slice > 0 && (!t_end || r->ctl.t0 + slice < t_end))
		r->ctl.t_end = qubo__now() + slice;
	r->ctl.pr.phase = QUBO_PUZZLE_PHASE_SEARCH;
	rc = qubo__pz_optimum(r->p, &o, &r->ctl);
	r->res.nodes += o.nodes;
	if (r->ctl.t_end != t_end) {
		/* the slice, not the caller, ended this try */
		r->ctl.t_end = t_end;
		if (r->ctl.stopped == QUBO_TIME_LIMIT && (!t_end || qubo__now() < t_end))
			r->ctl.stopped = 0;
	}
	qubo__free(&r->p->alloc, hint);
	if (rc == QUBO_ERR_TOO_LARGE && r->o.strategy != QUBO_PUZZLE_STRATEGY_SEARCH)
		return QUBO_OK; /* too large to search: the annealer's board stands */
	if (rc < 0)
		return rc;
	if (rc == QUBO_OK) {
		r->optimum_proven = 1;
		if (!r->found)
			r->proven_infeasible = 1; /* no valid board at all */
	}
	if (o.has_energy)
		r->found_e = o.energy;
	return QUBO_OK;
}

/* ---- the strategies ---- */

static int has_search(const struct run *r)
{
	return r->p->fam->search && r->p->fam->search->propagate;
}

static int has_optimum(const struct run *r)
{
	return r->p->fam->search && r->p->fam->search->optimum;
}

static int solve_feasibility(struct run *r)
{
	int family = r->p->fam->family, first, after, rc;

	if (r->o.strategy == QUBO_PUZZLE_STRATEGY_SEARCH) {
		set_method(r, QUBO_PUZZLE_METHOD_BRANCH_AND_REDUCE, "branch and reduce");
		return search(r);
	}
	if (r->o.strategy == QUBO_PUZZLE_STRATEGY_SAMPLE || r->target_given)
		return sample(r, 0);
	first = has_search(r) &&
		(family == QUBO_PUZZLE_QUEENS || family == QUBO_PUZZLE_CHESS_COLOURED ||
		 family == QUBO_PUZZLE_TAKUZU || family == QUBO_PUZZLE_TANGO ||
		 family == QUBO_PUZZLE_TENTS);
	/* a relaxed model's ground states need not be solutions */
	first = first || (has_search(r) && r->p->relaxed);
	after = has_search(r) && !first &&
		(family != QUBO_PUZZLE_NQUEENS || r->cells <= NQUEENS_SEARCH_CELLS);
	if (first) {
		set_method(r, QUBO_PUZZLE_METHOD_BRANCH_AND_REDUCE, "branch and reduce");
		return search(r);
	}
	r->search_when_long = has_search(r);
	rc = sample(r, after || r->n <= EXACT_FALLBACK_VARS);
	if (rc || reached(r) || r->ctl.stopped || r->proven_infeasible)
		return rc;
	if (has_search(r)) {
		set_method(r, QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_REDUCE,
			   !strcmp(r->res.method, "sa") ? "sa, then branch and reduce" :
							  "sampling, then branch and reduce");
		return search(r);
	}
	if (r->n <= EXACT_FALLBACK_VARS) {
		set_method(r, QUBO_PUZZLE_METHOD_SAMPLING_THEN_EXHAUSTIVE,
			   !strcmp(r->res.method, "sa") ? "sa, then exhaustive" :
							  "sampling, then exhaustive");
		rc = sample_with(r, NULL, "exhaustive", 0);
	}
	return rc;
}

static int solve_optimisation(struct run *r)
{
	int rc;

	if (r->o.strategy == QUBO_PUZZLE_STRATEGY_SEARCH) {
		set_method(r, QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND, "branch and bound");
		return optimum(r, 0);
	}
	if (r->o.strategy == QUBO_PUZZLE_STRATEGY_SAMPLE) {
		rc = sample(r, 0);
		if (!rc && reached(r) && r->has_ground && !r->target_given)
			r->optimum_proven = 1; /* the known optimum */
		return rc;
	}
	if (!has_optimum(r)) {
		if (r->n > EXACT_FALLBACK_VARS) {
			rc = sample(r, 0);
			if (!rc && reached(r) && r->has_ground && !r->target_given)
				r->optimum_proven = 1; /* the known optimum */
			return rc;
		}
		set_method(r, QUBO_PUZZLE_METHOD_EXHAUSTIVE, "exhaustive");
		return sample_with(r, NULL, "exhaustive", 0);
	}
	set_method(r, QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND, "branch and bound");
	rc = optimum(r, OPT_FIRST_TRY);
	if (rc || r->optimum_proven || r->ctl.stopped)
		return rc;
	rc = sample(r, 0);
	/* the first try of branch and bound ran, whatever stops the run now */
	set_method(r, QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND,
		   r->o.solver ? "sampling, then branch and bound" : "sa, then branch and bound");
	if (!rc && reached(r) && r->has_ground && !r->target_given)
		r->optimum_proven = 1; /* the known optimum */
	if (rc || r->ctl.stopped || r->optimum_proven)
		return rc;
	return optimum(r, 0);
}

/* ---- the verdict ---- */

static int conclude(struct run *r, uint8_t *board)
{
	qubo_puzzle_result *res = &r->res;
	struct qubo__pz_report rep = { NULL, 0, 0, 0 };
	int optimisation = r->optimisation;
	int rc;

	if (r->found) {
		memcpy(board, r->board, r->cells);
		res->has_board = 1;
		res->has_energy = 1;
		res->energy = r->found_e;
		res->verdict = !optimisation	   ? QUBO_PUZZLE_SOLVED :
			       r->optimum_proven ? QUBO_PUZZLE_OPTIMAL :
						   QUBO_PUZZLE_BEST_FOUND;
		return QUBO_OK;
	}
	if (r->have_best) {
		res->has_energy = 1;
		res->energy = r->best_e;
	}
	if (r->proven_infeasible) {
		res->verdict = QUBO_PUZZLE_INFEASIBLE;
		return QUBO_OK;
	}
	if (!r->have_best) {
		res->verdict = r->ctl.stopped ? QUBO_PUZZLE_STOPPED : QUBO_PUZZLE_NOT_FOUND;
		return QUBO_OK;
	}
	rc = qubo_puzzle_decode(r->p, r->best, r->n, board, r->cells);
	if (rc)
		return rc;
	res->has_board = 1;
	r->p->fam->check(r->p, board, &rep);
	res->violations = rep.violations;
	if (!rep.violations) {
		/* a valid board at a known optimum (a proven value) is optimal,
		 * whatever target the run sampled for */
		if (optimisation && r->has_ground &&
		    r->best_e <= r->ground + 1e-9 * (1.0 + fabs(r->ground)))
			r->optimum_proven = 1;
		res->verdict = !optimisation	   ? QUBO_PUZZLE_SOLVED :
			       r->optimum_proven ? QUBO_PUZZLE_OPTIMAL :
						   QUBO_PUZZLE_BEST_FOUND;
		return QUBO_OK;
	}
	if (reached(r) && !r->target_given && !r->p->relaxed)
		/* a sample at a solution's energy that breaks a rule: the model
		 * and the checker disagree (a relaxed model may do that) */
		return qubo__error(QUBO_ERR_INTERNAL,
				   "qubo_puzzle_solve: a sample at the energy of a solution "
				   "decodes to a %s board that breaks %zu rules",
				   r->p->fam->name, rep.violations);
	res->verdict = r->ctl.stopped ? QUBO_PUZZLE_STOPPED : QUBO_PUZZLE_NOT_FOUND;
	return QUBO_OK;
}

/* ---- the entry point ---- */

static int read_options(qubo_puzzle_solve_options *dst, const qubo_puzzle_solve_options *src,
			const char *fn)
{
	int rc;

	memset(dst, 0, sizeof *dst);
	if (!src)
		return QUBO_OK;
	rc = qubo__struct_read(dst, sizeof *dst, src, QUBO_PUZZLE_SOLVE_OPTIONS_SIZE_V1, "qubo_puzzle_solve_options", fn);
	if (rc)
		return rc;
	if (dst->strategy < QUBO_PUZZLE_STRATEGY_AUTO || dst->strategy > QUBO_PUZZLE_STRATEGY_SEARCH)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: options.strategy is %d, expected 0 to 2 (enum "
				   "qubo_puzzle_strategy)",
				   fn, (int)dst->strategy);
	return qubo__pz_check_run(dst->threads, dst->time_limit, fn);
}

static int solve(struct run *r, uint8_t *board)
{
	int rc;

	if (r->n == 0) {
		/* the reduction decided every cell */
		size_t i;

		for (i = 0; i < r->cells; i++)
			r->board[i] = r->p->cell_lits[i] == QUBO_LIT_TRUE;
		set_method(r, QUBO_PUZZLE_METHOD_REDUCTION, "reduction");
		if (qubo__pz_board_valid(r->p, r->board)) {
			r->found = 1;
			r->found_e = qubo_model_offset(r->m);
			r->optimum_proven = 1;
		} else {
			r->proven_infeasible = 1;
		}
		return conclude(r, board);
	}
	rc = r->optimisation ? solve_optimisation(r) : solve_feasibility(r);
	return rc ? rc : conclude(r, board);
}

int qubo_puzzle_solve(const qubo_puzzle *puzzle, const qubo_puzzle_solve_options *options,
		      uint8_t *board, size_t capacity, qubo_puzzle_result *result)
{
	static const char fn[] = "qubo_puzzle_solve";
	struct run r;
	size_t size;
	int rc;

	if (!puzzle || !result || (!board && capacity))
		return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL", fn,
				   !puzzle ? "puzzle" :
				   !result ? "result" :
					     "board");
	size = result->struct_size;
	rc = qubo__check_struct(result, size, QUBO_PUZZLE_RESULT_SIZE_V1, size,
				"qubo_puzzle_result", fn);
	if (rc)
		return rc;
	memset(&r, 0, sizeof r);
	rc = read_options(&r.o, options, fn);
	if (rc)
		return rc;
	r.p = puzzle;
	r.m = puzzle->model;
	r.n = qubo_model_num_variables(r.m);
	r.cells = (size_t)puzzle->width * puzzle->height;
	r.couplers = puzzle->stats.couplers_after;
	if (capacity < r.cells)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "%s: the board has %zu cells, capacity is %zu", fn, r.cells,
				   capacity);
	qubo__pz_ctl_init(&r.ctl, r.o.time_limit, r.o.progress, r.o.user_data);
	r.res.struct_size = sizeof r.res;
	r.res.seed = r.o.seed;
	r.has_ground = puzzle->has_ground_energy;
	r.optimisation = qubo__pz_optimisation(puzzle);
	r.ground = puzzle->ground_energy;
	r.has_target = r.has_ground;
	r.target = r.ground + 1e-9 * (1.0 + fabs(r.ground));
	if (r.o.solver && r.o.strategy != QUBO_PUZZLE_STRATEGY_SEARCH &&
	    is_set(r.o.solver, QUBO_PARAM_TARGET_ENERGY)) {
		const qubo_options *opts = NULL;

		qubo_solver_options(r.o.solver, &opts);
		qubo_options_get_double(opts, QUBO_PARAM_TARGET_ENERGY, 0, &r.target);
		r.target_given = 1;
		r.has_target = 1;
	}
	r.best = qubo__malloc_array(&puzzle->alloc, r.n, 1);
	r.board = qubo__malloc_array(&puzzle->alloc, r.cells, 1);
	if (!r.best || !r.board)
		rc = qubo__nomem("the solve's boards");
	else
		rc = solve(&r, board);
	qubo__free(&puzzle->alloc, r.best);
	qubo__free(&puzzle->alloc, r.board);
	if (rc)
		return rc;
	r.res.seconds = qubo__now() - r.ctl.t0;
	rc = qubo__struct_write(result, &r.res, sizeof r.res, QUBO_PUZZLE_RESULT_SIZE_V1,
				"qubo_puzzle_result", fn);
	return rc ? rc : r.ctl.stopped;
}
