/*
 * `qubo solve PUZZLE`: builds the puzzle's reduced model, samples it until a
 * read reaches the energy of a solution, decodes the lowest sample, has the
 * rule checker confirm it, and prints the solution (FORMATS.md layout) on
 * stdout. Figures go to stderr.
 *
 * The default run is made for speed on small puzzles: one thread while the
 * reads are short (starting threads costs more than the anneal), rounds of
 * a few reads that stop the moment one reaches the target energy, and
 * anneals that start short (128 sweeps) and grow 4-fold each round until the
 * time limit. When the default solver fails its first round on a model small
 * enough to enumerate, the exhaustive solver settles it: it finds a solution
 * or proves there is none.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define DEFAULT_READS 4         /* reads per round (sa) */
#define FIRST_SWEEPS 128        /* sweeps per read in the first round (sa) */
#define SWEEP_GROWTH 4          /* factor per round */
#define MAX_SWEEPS (1 << 22)    /* the growth stops here */
#define DEFAULT_SEED 1
#define DEFAULT_TIME_LIMIT 60.0 /* seconds */
#define EXACT_FALLBACK_VARS 24  /* enumerate models up to this size */
#define SEARCH_MAX_CELLS 144    /* N-Queens: search boards up to 12 x 12 */
#define OPT_READS 16            /* optimisation puzzles (no known optimum): */
#define OPT_SWEEPS 1000         /* one run of this many reads and sweeps */
/* Work (sweeps × (variables + couplers)) below which one thread is used. */
#define ONE_THREAD_WORK 4e6
/* Models up to 2^this states are enumerated on one thread. */
#define ONE_THREAD_STATES_LOG2 20

typedef struct run_state {
	const cli_solve_args *a;
	const char *name;
	qubo_puzzle *p;
	const qubo_model *m;
	qubo_puzzle_stats st;
	size_t n, cells;
	int has_ground;
	double ground, target;
	int has_target;
	/* the best sample so far */
	uint8_t *best;
	double best_e;
	int have_best;
	/* what was done */
	const char *solver;
	unsigned rounds;
	uint64_t reads;
	int64_t sweeps_lo, sweeps_hi;
	uint64_t seed;
	int proven_infeasible; /* an exhaustive run or the search found none */
	double limit, t_end;   /* the time limit (0: none) and its end */
	int search;            /* branch and reduce instead of sampling */
	int search_after;      /* branch and reduce after one round */
	int optimum;           /* optimisation puzzle: the optimum is proven */
	int target_given;      /* --target */
	uint64_t nodes;        /* search nodes */
	int stopped;           /* time limit or Ctrl-C */
	int interrupted;
	/* progress */
	cli_progress prog;
	int64_t sweeps_now;
} run_state;

static int progress_cb(const qubo_progress *progress, void *user_data)
{
	run_state *r = user_data;
	cli_progress *p = &r->prog;
	double now = cli_now(), best_e = r->best_e;
	char best[40] = "none", target[40];

	if (cli_interrupted())
		return 1;
	if (p->quiet || now < 1.0 || now - p->last < 1.0)
		return 0;
	p->last = now;
	if (progress->has_best && (!r->have_best || progress->best_energy < best_e))
		best_e = progress->best_energy;
	if (r->have_best || progress->has_best)
		cli_format_energy(best, sizeof best, best_e);
	fprintf(stderr, "%squbo: round %u, %llu reads", p->tty ? "\r" : "", r->rounds + 1,
		(unsigned long long)(r->reads + progress->done));
	if (r->sweeps_now > 0)
		fprintf(stderr, " of %lld sweeps", (long long)r->sweeps_now);
	fprintf(stderr, ", best energy %s", best);
	if (r->has_target) {
		cli_format_energy(target, sizeof target, r->target_given ? r->target : r->ground);
		fprintf(stderr, " (target %s)", target);
	}
	fprintf(stderr, ", %.0f s%s", now, p->tty ? "   " : "\n");
	p->shown = 1;
	return 0;
}

/* Sets an int option the run needs (never one the user gave). */
static int set_int(qubo_solver *s, const char *key, int64_t v)
{
	if (qubo_solver_set_int(s, key, v)) {
		cli_error("%s: %s", key, qubo_error_message());
		return -1;
	}
	return 0;
}

/* Takes the lowest sample of @p set if it beats the best so far. */
static void keep_best(run_state *r, const qubo_sampleset *set)
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

static int reached(const run_state *r)
{
	return r->have_best && r->has_target && r->best_e <= r->target;
}

/* One sampling run; returns an exit code (CLI_OK to go on). */
static int one_run(run_state *r, qubo_solver *s, double limit, double t_end)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *set = NULL;
	int rc;

	if (limit > 0) {
		double left = t_end - cli_now();
		if (left <= 0) {
			r->stopped = 1;
			return CLI_OK;
		}
		if (qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, left)) {
			cli_error("--time-limit: %s", qubo_error_message());
			return CLI_USAGE;
		}
	}
	rc = qubo_solver_sample(&set, s, r->m);
	if (rc < 0) {
		cli_error("%s: %s", r->name, qubo_error_message());
		return cli_exit_code(rc) == CLI_USAGE ? CLI_USAGE : CLI_FAILURE;
	}
	qubo_sampleset_get_info(set, &info);
	r->reads += info.num_samples;
	r->rounds++;
	keep_best(r, set);
	if (rc == QUBO_CANCELLED || rc == QUBO_TIME_LIMIT)
		r->stopped = 1;
	if (rc == QUBO_CANCELLED)
		r->interrupted = 1;
	qubo_sampleset_free(set);
	return CLI_OK;
}

/* Threads when the user did not say: starting threads costs more than a
 * short anneal or a small enumeration. */
static int64_t threads_for(const run_state *r, int is_sa, int64_t sweeps)
{
	double terms = (double)(r->n + r->st.couplers_after);

	if (is_sa)
		return (double)sweeps * terms < ONE_THREAD_WORK ? 1 : 0;
	if (!strcmp(r->a->solver, "exhaustive"))
		return r->n <= ONE_THREAD_STATES_LOG2 ? 1 : 0;
	return 1;
}

/* The rounds of the chosen solver. */
static int sample_rounds(run_state *r)
{
	const cli_solve_args *a = r->a;
	int is_sa = !strcmp(a->solver, "sa");
	int exhaustive = !strcmp(a->solver, "exhaustive");
	double limit = r->limit, t_end = r->t_end;
	qubo_solver *s = NULL;
	int64_t sweeps = a->sweeps > 0 ? a->sweeps : r->has_target ? FIRST_SWEEPS : OPT_SWEEPS;
	int code = CLI_OK, rc;
	unsigned round;

	r->solver = a->solver;
	rc = qubo_solver_new(&s, a->solver, NULL);
	if (rc) {
		cli_error("--solver: %s", qubo_error_message());
		return cli_exit_code(rc) == CLI_USAGE ? CLI_USAGE : CLI_FAILURE;
	}
	code = cli_apply_options(s, a);
	if (code)
		goto out;
	if (r->has_target && qubo_solver_set_double(s, QUBO_PARAM_TARGET_ENERGY, r->target)) {
		cli_error("target: %s", qubo_error_message());
		code = CLI_FAILURE;
		goto out;
	}
	if (is_sa && a->reads < 0 &&
	    set_int(s, QUBO_PARAM_NUM_READS, r->has_target ? DEFAULT_READS : OPT_READS)) {
		code = CLI_FAILURE;
		goto out;
	}
	qubo_solver_set_progress(s, progress_cb, r);
	for (round = 0; !r->stopped; round++) {
		if (set_int(s, QUBO_PARAM_SEED, (int64_t)(r->seed + round))) {
			code = CLI_FAILURE;
			break;
		}
		if (is_sa) {
			if (set_int(s, QUBO_PARAM_NUM_SWEEPS, sweeps)) {
				code = CLI_FAILURE;
				break;
			}
			r->sweeps_now = sweeps;
			if (!round)
				r->sweeps_lo = sweeps;
			r->sweeps_hi = sweeps;
		}
		if (a->threads < 0 && set_int(s, QUBO_PARAM_THREADS, threads_for(r, is_sa, sweeps))) {
			code = CLI_FAILURE;
			break;
		}
		code = one_run(r, s, limit, t_end);
		if (code || reached(r))
			break;
		if (exhaustive) {
			/* exact: the lowest energy is the model's minimum */
			if (!r->stopped && r->has_ground &&
			    (!r->have_best || r->best_e > r->ground + 1e-9 * (1.0 + fabs(r->ground))))
				r->proven_infeasible = 1;
			break;
		}
		if (!r->has_target)
			break; /* an optimisation puzzle: one run */
		if (round == 0 && !a->solver_given &&
		    (r->n <= EXACT_FALLBACK_VARS || r->search_after))
			break; /* settled by the exhaustive solver or the search */
		if (is_sa && a->sweeps <= 0 && sweeps < MAX_SWEEPS)
			sweeps *= SWEEP_GROWTH;
	}
out:
	qubo_solver_free(s);
	if (!code && !reached(r) && !r->stopped && !exhaustive && !a->solver_given &&
	    r->n <= EXACT_FALLBACK_VARS && r->has_target && !r->search_after &&
	    !r->target_given) {
		/* settle a small model exactly */
		cli_solve_args b = *a;
		b.solver = "exhaustive";
		b.solver_given = 1;
		b.num_opts = 0;
		b.threads = a->threads;
		r->a = &b;
		code = sample_rounds(r);
		r->a = a;
		r->solver = "sa, then exhaustive";
	}
	return code;
}

static int print_solution(run_state *r, const uint8_t *board)
{
	size_t len = 0;
	char *text;
	int rc, code;

	qubo_puzzle_format_solution(r->p, board, r->cells, NULL, 0, &len);
	text = malloc(len + 1);
	if (!text) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	rc = qubo_puzzle_format_solution(r->p, board, r->cells, text, len + 1, &len);
	if (rc) {
		cli_error("%s: %s", r->name, qubo_error_message());
		free(text);
		return CLI_FAILURE;
	}
	code = cli_write_all(stdout, text, len, "the solution");
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

static void print_figures(const run_state *r, const cli_input *in, const char *status,
			  double t_built, double t_solved, double t_end)
{
	char header[80], e[40], t1[24], t2[24], t3[24], t4[24];

	cli_input_header(in, header, sizeof header);
	fprintf(stderr, "puzzle: %s: %s, %zux%zu\n", header,
		cli_family_name(qubo_puzzle_family(r->p)), r->st.width, r->st.height);
	fprintf(stderr, "variables: %zu -> %zu (reduce %s, %zu cells fixed)\n",
		r->st.variables_before, r->st.variables_after, cli_reduce_name(r->a->reduce),
		r->st.cells_fixed);
	fprintf(stderr, "couplers: %zu -> %zu\n", r->st.couplers_before, r->st.couplers_after);
	if (r->rounds) {
		fprintf(stderr, "solver: %s, %u round%s, %llu sample%s", r->solver, r->rounds,
			r->rounds == 1 ? "" : "s", (unsigned long long)r->reads,
			r->reads == 1 ? "" : "s");
		if (r->sweeps_lo > 0 && r->sweeps_lo != r->sweeps_hi)
			fprintf(stderr, " of %lld to %lld sweeps", (long long)r->sweeps_lo,
				(long long)r->sweeps_hi);
		else if (r->sweeps_lo > 0)
			fprintf(stderr, " of %lld sweeps", (long long)r->sweeps_lo);
		fprintf(stderr, ", seed %llu\n", (unsigned long long)r->seed);
		if (r->have_best) {
			cli_format_energy(e, sizeof e, r->best_e);
			fprintf(stderr, "energy: %s", e);
			if (r->has_ground) {
				cli_format_energy(e, sizeof e, r->ground);
				fprintf(stderr, " (solutions: %s)", e);
			}
			fputc('\n', stderr);
		}
	}
	if (!r->rounds)
		fprintf(stderr, "solver: %s\n", r->nodes ? "branch and reduce (no sampling)"
							  : "none (the reduction fixed every cell)");
	if (r->nodes)
		fprintf(stderr, "search: %llu node%s of branch and reduce\n",
			(unsigned long long)r->nodes, r->nodes == 1 ? "" : "s");
	fprintf(stderr, "status: %s\n", status);
	ms(t1, sizeof t1, t_end);
	ms(t2, sizeof t2, t_built);
	ms(t3, sizeof t3, t_solved - t_built);
	ms(t4, sizeof t4, t_end - t_solved);
	fprintf(stderr, "time: %s (read and build %s, solve %s, check and print %s)\n", t1, t2,
		t3, t4);
}

int cli_solve_puzzle(const cli_solve_args *a, const cli_input *in)
{
	run_state r;
	uint8_t *board = NULL, dummy = 0;
	size_t violations = 0;
	double t_built, t_solved;
	const char *status;
	char report[1024] = "";
	size_t k;
	int rc, code, family, found = 0, have_board, target_given = 0;

	if (a->top >= 0) {
		cli_error("--top applies to QUBO models; %s is a puzzle", in->name);
		return CLI_USAGE;
	}
	if (a->solver_given || a->num_opts) {
		/* check the solver and its options now, even if the reduction
		 * leaves nothing to sample */
		qubo_solver *s = NULL;
		rc = qubo_solver_new(&s, a->solver, NULL);
		if (rc) {
			cli_error("--solver: %s", qubo_error_message());
			return cli_exit_code(rc) == CLI_USAGE ? CLI_USAGE : CLI_FAILURE;
		}
		code = cli_apply_options(s, a);
		qubo_solver_free(s);
		if (code)
			return code;
	}
	memset(&r, 0, sizeof r);
	r.a = a;
	r.name = in->name;
	r.seed = a->seed_given ? (uint64_t)a->seed : DEFAULT_SEED;
	code = cli_input_puzzle(in, a->reduce, &r.p);
	if (code)
		return code;
	r.st.struct_size = sizeof r.st;
	qubo_puzzle_get_stats(r.p, &r.st);
	qubo_puzzle_model(r.p, &r.m);
	r.n = qubo_model_num_variables(r.m);
	r.cells = r.st.width * r.st.height;
	rc = qubo_puzzle_ground_energy(r.p, &r.ground);
	r.has_ground = rc == QUBO_OK;
	/* Stop at a solution's energy (a little slack for rounding: the next
	 * energy above it is a penalty weight away). A --target wins. */
	r.has_target = r.has_ground;
	r.target = r.ground + 1e-9 * (1.0 + fabs(r.ground));
	for (k = 0; k < a->num_opts; k++) {
		if (a->opts[k].key && !strcmp(a->opts[k].key, QUBO_PARAM_TARGET_ENERGY)) {
			target_given = 1;
			r.target_given = 1;
			r.has_target = 1;
			r.target = a->opts[k].type == QUBO_TYPE_INT ? (double)a->opts[k].i
								    : a->opts[k].d;
		}
	}
	board = malloc(r.cells ? r.cells : 1);
	r.best = malloc(r.n ? r.n : 1);
	if (!board || !r.best) {
		cli_error("out of memory");
		code = CLI_FAILURE;
		goto out;
	}
	t_built = cli_now();
	r.limit = a->time_limit >= 0 ? a->time_limit : DEFAULT_TIME_LIMIT;
	r.t_end = r.limit > 0 ? t_built + r.limit : 0;
	family = qubo_puzzle_family(r.p);
	/* Boards with regions: branch and reduce. N-Queens: sampling, which
	 * finds one of their many solutions fast; small boards are then
	 * searched, to settle those without one. */
	r.search = !a->solver_given && !target_given && family == QUBO_PUZZLE_QUEENS;
	r.search_after = !a->solver_given && !target_given && family == QUBO_PUZZLE_NQUEENS &&
			 r.cells <= SEARCH_MAX_CELLS;
	if (r.n == 0) {
		/* the reduction decided every cell */
		r.have_best = 1;
		r.best_e = qubo_model_offset(r.m);
	} else {
		cli_progress_init(&r.prog, "reads", a->quiet);
		if (r.search) {
			rc = cli_queens_search(r.p, r.t_end, board, &r.prog, &r.nodes);
			if (rc == -2)
				code = CLI_FAILURE;
			else if (rc == 0)
				r.proven_infeasible = 1;
			else if (rc < 0)
				r.stopped = 1;
			found = rc == 1;
		} else if (!r.has_target && !a->solver_given && r.n <= EXACT_FALLBACK_VARS) {
			/* an optimisation puzzle small enough to enumerate: the
			 * exhaustive solver gives a proven optimum */
			cli_solve_args b = *a;
			b.solver = "exhaustive";
			b.num_opts = 0;
			r.a = &b;
			code = sample_rounds(&r);
			r.a = a;
			r.optimum = !r.stopped;
		} else {
			code = sample_rounds(&r);
		}
		if (!code && r.search_after && !reached(&r) && !r.stopped) {
			rc = cli_queens_search(r.p, r.t_end, board, &r.prog, &r.nodes);
			if (rc == -2)
				code = CLI_FAILURE;
			else if (rc == 0)
				r.proven_infeasible = 1;
			else if (rc < 0)
				r.stopped = 1;
			found = rc == 1;
		}
		r.interrupted |= cli_interrupted();
		cli_progress_done(&r.prog);
		if (code)
			goto out;
	}
	t_solved = cli_now();
	/* the board to check: the search's, or the lowest sample's */
	rc = QUBO_OK;
	have_board = found;
	if (!found && r.have_best && !r.proven_infeasible) {
		rc = qubo_puzzle_decode(r.p, r.n ? r.best : &dummy, r.n, board, r.cells);
		have_board = 1;
	}
	if (!rc && have_board)
		rc = qubo_puzzle_check(r.p, board, r.cells, report, sizeof report, &violations);
	if (rc) {
		code = cli_report(in->name, rc);
		goto out;
	}
	if (have_board && violations == 0) {
		code = print_solution(&r, board);
		status = code              ? "solved and verified, but not written"
			 : r.has_ground    ? "solved and verified"
			 : r.optimum       ? "solved and verified; optimum proven by exhaustive search"
					   : "solved and verified; the best found, not proven optimal";
	} else if (r.n == 0 || r.proven_infeasible) {
		status = "no solution: the puzzle has none";
		code = CLI_INFEASIBLE;
	} else if (found || reached(&r)) {
		/* a board of the search, or a sample at a solution's energy,
		 * that breaks a rule: the model and the checker disagree */
		status = "the model's minimum breaks a rule (an internal error)";
		code = CLI_FAILURE;
	} else {
		status = r.interrupted ? "no solution found before the interrupt"
				       : "no solution found within the time limit";
		code = CLI_FAILURE;
	}
	if (!a->quiet)
		print_figures(&r, in, status, t_built, t_solved, cli_now());
	if (code == CLI_INFEASIBLE)
		cli_error("%s: the puzzle has no solution", in->name);
	else if (code == CLI_FAILURE && have_board && violations)
		cli_error("%s: %s; the best board found breaks %zu rule%s:\n%.*s", in->name,
			  status, violations, violations == 1 ? "" : "s",
			  (int)(strlen(report) - (report[0] ? 1 : 0)), report);
	else if (code == CLI_FAILURE)
		cli_error("%s: %s", in->name, status);
out:
	free(board);
	free(r.best);
	qubo_puzzle_free(r.p);
	return code;
}
