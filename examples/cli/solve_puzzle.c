/*
 * `qubo solve PUZZLE`: builds the puzzle's reduced model, has
 * qubo_puzzle_solve() solve it, and prints the solution (the layout of doc/formats.md)
 * on stdout. Figures go to stderr.
 *
 * The strategy is the library's (qubo/puzzle.h, "Solving and counting"):
 * the reduction, branch and reduce on boards with regions, annealing rounds
 * of growing length that stop at a solution's energy, and exact fallbacks.
 * This file maps the command line onto its options and its verdict onto the
 * program's statuses:
 *  - no --solver and no solver options: the library's own annealer;
 *  - solver options without --solver (--reads, --sweeps, --threads, --set):
 *    an "sa" solver with those options, in the default strategy;
 *  - --solver NAME or a target energy: that solver only, in rounds until a
 *    read reaches the target or the time limit passes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_SEED 1
#define DEFAULT_TIME_LIMIT 60.0 /* seconds */

/* What the progress lines need besides the library's figures. */
typedef struct progress_state {
	cli_progress prog;
	int has_ground;
	double ground;    /* the solutions' energy, shown as the target */
	int target_given; /* --target or --set target_energy */
} progress_state;

static int progress_cb(const qubo_puzzle_progress *pr, void *user_data)
{
	progress_state *ps = user_data;
	cli_progress *p = &ps->prog;
	double now = cli_now();
	char best[40] = "none", target[40];

	if (cli_interrupted())
		return 1;
	if (p->quiet || now < 1.0 || now - p->last < 1.0)
		return 0;
	p->last = now;
	if (pr->phase == QUBO_PUZZLE_PHASE_SEARCH) {
		fprintf(stderr, "%squbo: search, %llu nodes, %.0f s%s", p->tty ? "\r" : "",
			(unsigned long long)pr->nodes, now, p->tty ? "   " : "\n");
		p->shown = 1;
		return 0;
	}
	if (pr->has_best)
		cli_format_energy(best, sizeof best, pr->best_energy);
	fprintf(stderr, "%squbo: round %u, %llu reads", p->tty ? "\r" : "", pr->rounds + 1,
		(unsigned long long)pr->reads);
	if (pr->sweeps > 0)
		fprintf(stderr, " of %lld sweeps", (long long)pr->sweeps);
	fprintf(stderr, ", best energy %s", best);
	if (pr->has_target && (ps->target_given || ps->has_ground)) {
		/* the library stops a hair above the solutions' energy: show
		 * that energy itself, or the user's target */
		cli_format_energy(target, sizeof target,
				  ps->target_given ? pr->target_energy : ps->ground);
		fprintf(stderr, " (target %s)", target);
	}
	fprintf(stderr, ", %.0f s%s", now, p->tty ? "   " : "\n");
	p->shown = 1;
	return 0;
}

static int print_solution(const qubo_puzzle *p, const uint8_t *board, size_t cells,
			  const char *name)
{
	size_t len = 0;
	char *text;
	int rc, code;

	qubo_puzzle_format_solution(p, board, cells, NULL, 0, &len);
	text = malloc(len + 1);
	if (!text) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	rc = qubo_puzzle_format_solution(p, board, cells, text, len + 1, &len);
	if (rc) {
		cli_error("%s: %s", name, cli_library_message());
		free(text);
		return CLI_FAILURE;
	}
	code = cli_write_stdout(text, len);
	free(text);
	return code;
}

static void ms(char *buf, size_t size, double seconds)
{
	if (seconds < 1.0)
		snprintf(buf, size, "%.2f ms", seconds * 1e3);
	else
		snprintf(buf, size, "%.2f s", seconds);
}

/* Whether the method's exact search was branch and bound. */
static int bounded(int32_t method)
{
	return method == QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND ||
	       method == QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND;
}

/* The exact search the method names. */
static const char *search_name(int32_t method)
{
	return bounded(method) ? "branch and bound" : "branch and reduce";
}

typedef struct figures {
	const cli_input *in;
	const qubo_puzzle *p;
	const qubo_puzzle_stats *st;
	const qubo_puzzle_result *res;
	int32_t reduce;
	int has_ground;
	double ground;
	const char *solver;  /* the solver's name, for a method the library does not name */
	const uint8_t *board; /* the result's board, when it has one */
	size_t cells;
} figures;

/* The energy line. The model's energy of an optimisation puzzle counts
 * what the board optimises: the pieces of a dominating set (whose fewest is
 * the domination number, when known), minus the total weight of a max chess
 * placement. */
static void print_energy(const figures *f, const qubo_puzzle_result *res)
{
	int family = qubo_puzzle_family(f->p);
	char e[40], g[40];
	size_t i, pieces = 0;

	if (!res->has_energy)
		return;
	cli_format_energy(e, sizeof e, res->energy);
	cli_format_energy(g, sizeof g, f->ground);
	if (family == QUBO_PUZZLE_DOMINATION && res->has_board && !res->violations) {
		for (i = 0; i < f->cells; i++)
			pieces += f->board[i] != 0;
		fprintf(stderr, "energy: %s (%zu piece%s", e, pieces, pieces == 1 ? "" : "s");
		if (f->has_ground)
			fprintf(stderr, "; the domination number is %s", g);
		fprintf(stderr, ")\n");
	} else if (family == QUBO_PUZZLE_CHESS_MAX && res->has_board && !res->violations) {
		fprintf(stderr, "energy: %s (minus the pieces' total weight)\n", e);
	} else if (f->has_ground && family != QUBO_PUZZLE_DOMINATION) {
		fprintf(stderr, "energy: %s (a solution's is %s)\n", e, g);
	} else if (f->has_ground) {
		fprintf(stderr, "energy: %s (the optimum's is %s)\n", e, g);
	} else {
		fprintf(stderr, "energy: %s\n", e);
	}
}

static void print_figures(const figures *f, const char *status, double t_built,
			  double t_solved, double t_end)
{
	const qubo_puzzle_stats *st = f->st;
	const qubo_puzzle_result *res = f->res;
	const char *method = res->method ? res->method : "none";
	int64_t lo = res->sweeps_first, hi = res->sweeps_last;
	char header[80], t1[24], t2[24], t3[24], t4[24];

	cli_input_header(f->in, header, sizeof header);
	fprintf(stderr, "puzzle: %s: %s, %zux%zu\n", header,
		qubo_puzzle_family_name(qubo_puzzle_family(f->p)), st->width, st->height);
	fprintf(stderr, "variables: %zu -> %zu (reduce %s, %zu cells fixed)\n",
		st->variables_before, st->variables_after, qubo_puzzle_reduce_name(f->reduce),
		st->cells_fixed);
	fprintf(stderr, "couplers: %zu -> %zu\n", st->couplers_before, st->couplers_after);
	if (res->rounds) {
		if (res->method_id == QUBO_PUZZLE_METHOD_OTHER_SOLVER)
			method = f->solver;
		fprintf(stderr, "solver: %s, %u round%s, %llu sample%s", method, res->rounds,
			res->rounds == 1 ? "" : "s", (unsigned long long)res->reads,
			res->reads == 1 ? "" : "s");
		if (lo > 0 && lo != hi)
			fprintf(stderr, " of %lld to %lld sweeps", (long long)lo, (long long)hi);
		else if (lo > 0)
			fprintf(stderr, " of %lld sweeps", (long long)lo);
		fprintf(stderr, ", seed %llu\n", (unsigned long long)res->seed);
		print_energy(f, res);
	} else if (res->nodes) {
		fprintf(stderr, "solver: %s (no sampling)\n", search_name(res->method_id));
		/* branch and bound finds an optimum's energy */
		if (bounded(res->method_id))
			print_energy(f, res);
	} else {
		fprintf(stderr, "solver: none (the reduction fixed every cell)\n");
	}
	if (res->nodes)
		fprintf(stderr, "search: %llu node%s of %s\n", (unsigned long long)res->nodes,
			res->nodes == 1 ? "" : "s", search_name(res->method_id));
	fprintf(stderr, "status: %s\n", status);
	ms(t1, sizeof t1, t_end);
	ms(t2, sizeof t2, t_built);
	ms(t3, sizeof t3, t_solved - t_built);
	ms(t4, sizeof t4, t_end - t_solved);
	fprintf(stderr, "time: %s (read and build %s, solve %s, check and print %s)\n", t1, t2,
		t3, t4);
}

/* Whether option @p key is one of the run's own rather than the solver's:
 * the seed and the time limit go to qubo_puzzle_solve_options. */
static int run_option(const char *key)
{
	return !strcmp(key, QUBO_PARAM_SEED) || !strcmp(key, QUBO_PARAM_TIME_LIMIT);
}

/* The sampling solver for the options given, or NULL for the library's own:
 * checked now, even if the reduction leaves nothing to sample. Returns an
 * exit code. */
static int make_solver(const cli_solve_args *a, int target_given, qubo_solver **out)
{
	qubo_solver *s = NULL;
	size_t k;
	int rc, code, solver_opts = 0;

	*out = NULL;
	if (!a->solver_given && !a->num_opts)
		return CLI_OK;
	rc = qubo_solver_new(&s, a->solver, NULL);
	if (rc) {
		cli_error("--solver: %s", cli_library_message());
		return cli_exit_code(rc) == CLI_USAGE ? CLI_USAGE : CLI_FAILURE;
	}
	code = cli_apply_options(s, a);
	if (code) {
		qubo_solver_free(s);
		return code;
	}
	for (k = 0; k < a->num_opts; k++)
		solver_opts |= !run_option(a->opts[k].key);
	if (a->solver_given || target_given || solver_opts)
		*out = s;
	else
		qubo_solver_free(s); /* only --seed or --time-limit: the built-in one */
	return CLI_OK;
}

int cli_solve_puzzle(const cli_solve_args *a, const cli_input *in)
{
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result res;
	qubo_puzzle_stats st;
	qubo_puzzle *p = NULL;
	qubo_solver *s = NULL;
	progress_state ps;
	figures fig;
	uint8_t *board = NULL;
	size_t cells, violations = 0, k;
	double t_built, t_solved, limit;
	const char *status;
	char report[1024] = "";
	int32_t method;
	int rc, code, target_given = 0, interrupted, by_user, written = CLI_OK;

	if (a->top >= 0) {
		cli_error("--top applies to QUBO models; %s is a puzzle", in->name);
		return CLI_USAGE;
	}
	for (k = 0; k < a->num_opts; k++)
		target_given |= !strcmp(a->opts[k].key, QUBO_PARAM_TARGET_ENERGY);
	code = make_solver(a, target_given, &s);
	if (code)
		return code;
	/* the time limit counts from the program's start: reading and building
	 * are in it, and the solve gets what is left */
	limit = a->time_limit >= 0 ? a->time_limit : DEFAULT_TIME_LIMIT;
	code = cli_build_puzzle(in, a->reduce, limit, a->quiet, &p);
	if (code == CLI_INFEASIBLE && !a->quiet)
		fprintf(stderr, "status: proven infeasible (by the reduction)\n");
	if (code)
		goto out;
	cells = cli_puzzle_stats(p, &st);
	board = malloc(cells ? cells : 1);
	if (!board) {
		cli_error("out of memory");
		code = CLI_FAILURE;
		goto out;
	}
	memset(&ps, 0, sizeof ps);
	ps.has_ground = qubo_puzzle_ground_energy(p, &ps.ground) == QUBO_OK;
	ps.target_given = target_given;

	o.strategy = a->solver_given || target_given ? QUBO_PUZZLE_STRATEGY_SAMPLE
						     : QUBO_PUZZLE_STRATEGY_AUTO;
	o.threads = a->threads > 0 ? (int32_t)a->threads : 0;
	o.seed = a->seed_given ? (uint64_t)a->seed : DEFAULT_SEED;
	o.time_limit = limit > 0 ? limit - cli_now() : 0;
	if (limit > 0 && o.time_limit < 1e-3)
		o.time_limit = 1e-3; /* the build took it all: a last look */
	o.solver = s;
	o.progress = progress_cb;
	o.user_data = &ps;
	memset(&res, 0, sizeof res);
	res.struct_size = sizeof res;

	cli_progress_init(&ps.prog, "reads", a->quiet);
	t_built = cli_now();
	rc = qubo_puzzle_solve(p, &o, board, cells, &res);
	t_solved = cli_now();
	interrupted = rc == QUBO_CANCELLED || cli_interrupted();
	cli_progress_done(&ps.prog);
	if (rc < 0) {
		code = cli_exit_code(rc);
		if (code == CLI_USAGE || code == CLI_PARSE) {
			/* a value the solver refused only when it ran (beta_hot above
			 * beta_cold): the options are at fault, not the puzzle */
			cli_error("the solver's options: %s", cli_library_message());
			code = CLI_USAGE;
		} else {
			cli_error("%s: %s", in->name, cli_library_message());
			if (code != CLI_TOO_LARGE)
				code = CLI_FAILURE;
		}
		goto out;
	}
	if (res.has_board && res.violations) {
		rc = qubo_puzzle_check(p, board, cells, report, sizeof report, &violations);
		if (rc) {
			code = cli_report(in->name, rc);
			goto out;
		}
	}
	method = res.method_id;
	by_user = rc == QUBO_CANCELLED || interrupted; /* else the time limit */
	switch (res.verdict) {
	case QUBO_PUZZLE_SOLVED:
		status = "solved and verified";
		code = CLI_OK;
		break;
	case QUBO_PUZZLE_OPTIMAL:
		status = method == QUBO_PUZZLE_METHOD_EXHAUSTIVE ?
				 "optimal and proven (by exhaustive search)" :
			 method == QUBO_PUZZLE_METHOD_REDUCTION ?
				 "optimal and proven (by the reduction)" :
			 method == QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND ?
				 "optimal and proven (by exact search)" :
			 ps.has_ground && res.has_energy &&
					 res.energy <= ps.ground + 1e-9 * (1.0 + fabs(ps.ground)) ?
				 "optimal and proven (the known optimum reached)" :
			 bounded(method) ? "optimal and proven (by exact search)" :
					   "optimal and proven";
		code = CLI_OK;
		break;
	case QUBO_PUZZLE_BEST_FOUND:
		status = rc == QUBO_OK ? "best found, not proven optimal (sampling only)" :
			 by_user       ? "best found, not proven optimal (interrupted)" :
					 "best found, not proven optimal (time limit)";
		code = CLI_FAILURE;
		break;
	case QUBO_PUZZLE_INFEASIBLE:
		status = "proven infeasible";
		code = CLI_INFEASIBLE;
		break;
	case QUBO_PUZZLE_STOPPED:
		status = by_user ? "stopped (interrupted)" : "stopped (time limit)";
		code = CLI_FAILURE;
		break;
	default:
		status = "not found";
		code = CLI_FAILURE;
		break;
	}
	/* a valid board is printed, proven or not; the status says which */
	if (res.has_board && !res.violations &&
	    (res.verdict == QUBO_PUZZLE_SOLVED || res.verdict == QUBO_PUZZLE_OPTIMAL ||
	     res.verdict == QUBO_PUZZLE_BEST_FOUND)) {
		written = print_solution(p, board, cells, in->name);
		if (written)
			code = written;
	}
	if (!a->quiet) {
		fig.in = in;
		fig.p = p;
		fig.st = &st;
		fig.res = &res;
		fig.reduce = a->reduce;
		fig.has_ground = ps.has_ground;
		fig.ground = ps.ground;
		fig.solver = a->solver;
		fig.board = board;
		fig.cells = cells;
		print_figures(&fig, status, t_built, t_solved, cli_now());
	}
	if (written)
		; /* the write error is reported */
	else if (code == CLI_INFEASIBLE)
		cli_error("%s: the puzzle has no solution (proven)", in->name);
	else if (res.verdict == QUBO_PUZZLE_BEST_FOUND)
		cli_error("%s: %s; the board printed is valid, but may not be the optimum",
			  in->name, status);
	else if (code == CLI_FAILURE && res.has_board && violations)
		cli_error("%s: %s, no solution found; the best board found breaks %zu rule%s:\n%.*s",
			  in->name, status, violations, violations == 1 ? "" : "s",
			  (int)(strlen(report) - (report[0] ? 1 : 0)), report);
	else if (code == CLI_FAILURE)
		cli_error("%s: %s, no solution found", in->name, status);
out:
	free(board);
	qubo_puzzle_free(p);
	qubo_solver_free(s);
	return code;
}
