/*
 * `qubo count FILE`: the number of solutions of a puzzle.
 *
 * Exhaustive: every state of the reduced model is enumerated by the
 * exhaustive solver. The model is exact, so the solutions are its ground
 * states at the energy given by qubo_puzzle_ground_energy(); each one found
 * is decoded and confirmed by the rule checker, and distinct boards are
 * counted (a formulation with auxiliary variables could give one board
 * several ground states). Search (queens boards with regions): the branch
 * and reduce of search.c, run to the end. Either way the count is exact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_MAX_VARIABLES 36 /* 2^36 states: about half a minute on 2 cores */
#define AUTO_EXHAUSTIVE 24       /* auto: enumerate up to 2^24 states */
#define MAX_STORED 65536         /* ground states decoded one by one */

static void count_usage(FILE *f)
{
	fprintf(f, "usage: qubo count [options] PUZZLE\n"
		"\n"
		"Counts the solutions of a puzzle and prints the number on standard output.\n"
		"Every solution found is confirmed by the rule checker. '-' reads standard\n"
		"input.\n"
		"\n"
		"Methods: 'exhaustive' enumerates every state of the reduced QUBO model\n"
		"(2^n states for n variables, about 0.5 ns each on 2 cores; models of more\n"
		"than --max-variables variables are refused with exit status 6). 'search'\n"
		"(queens and nqueens puzzles) branches over the library's reduction and\n"
		"visits every solution. 'auto' (the default) enumerates models of up to %d\n"
		"variables and searches larger queens boards.\n"
		"\n"
		"options:\n"
		"  --method METHOD        auto, exhaustive or search\n"
		"  --reduce LEVEL         none, clues or full (the default); full leaves the\n"
		"                         fewest variables\n"
		"  --max-variables N      refuse larger models (default %d, at most %d)\n"
		"  --threads N            worker threads; 0 (default) means one per CPU\n"
		"  --time-limit SECONDS   give up after this long (exit status 1)\n"
		"  --quiet                no progress messages\n"
		"  -h, --help             this help\n"
		"\n"
		"A count of 0 exits with status 5 (the puzzle has no solution).\n"
		"\n%s",
		AUTO_EXHAUSTIVE, DEFAULT_MAX_VARIABLES, QUBO_EXHAUSTIVE_MAX_VARIABLES,
		cli_exit_help);
}

typedef struct count_args {
	const char *path;
	const char *method;
	int32_t reduce;
	int64_t max_vars, threads;
	double time_limit;
	int quiet;
} count_args;

static int parse_args(int argc, char **argv, count_args *a)
{
	const char *val;
	int k, rc;

	memset(a, 0, sizeof *a);
	a->max_vars = DEFAULT_MAX_VARIABLES;
	a->method = "auto";
	a->threads = -1;
	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k]))
			return 1;
		if (!strcmp(argv[k], "--quiet")) {
			a->quiet = 1;
			continue;
		}
		if ((rc = cli_flag(argc, argv, &k, "--method", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (strcmp(val, "auto") && strcmp(val, "exhaustive") && strcmp(val, "search")) {
				cli_error("--method: '%s' is not auto, exhaustive or search", val);
				return -1;
			}
			a->method = val;
		} else if ((rc = cli_flag(argc, argv, &k, "--reduce", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (cli_parse_reduce(val, &a->reduce)) {
				cli_error("--reduce: '%s' is not none, clues or full", val);
				return -1;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--max-variables", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (cli_parse_int(val, 0, QUBO_EXHAUSTIVE_MAX_VARIABLES, &a->max_vars)) {
				cli_error("--max-variables: '%s' is not between 0 and %d", val,
					  QUBO_EXHAUSTIVE_MAX_VARIABLES);
				return -1;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--threads", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (cli_parse_int(val, 0, 1024, &a->threads)) {
				cli_error("--threads: '%s' is not between 0 and 1024", val);
				return -1;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--time-limit", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (cli_parse_double(val, &a->time_limit) || a->time_limit < 0) {
				cli_error("--time-limit: '%s' is not a number of seconds", val);
				return -1;
			}
		} else if (cli_operand(argv[k], "count", &a->path, 1)) {
			return -1;
		}
	}
	if (!a->path) {
		cli_error("no puzzle given (try 'qubo count --help')");
		return -1;
	}
	return 0;
}

static int cmp_boards_len;

static int cmp_boards(const void *x, const void *y)
{
	return memcmp(x, y, (size_t)cmp_boards_len);
}

/* Decodes, checks and deduplicates the stored ground states; returns the
 * number of distinct valid boards, or -1 on failure (message printed). */
static int64_t distinct_valid(const qubo_puzzle *p, const qubo_sampleset *set, size_t cells,
			      size_t *invalid)
{
	size_t size = qubo_sampleset_size(set), n = qubo_sampleset_num_variables(set), i, k = 0;
	uint8_t *boards = malloc((size ? size : 1) * (cells ? cells : 1)), dummy = 0;
	int64_t count = 0;

	*invalid = 0;
	if (!boards) {
		cli_error("out of memory");
		return -1;
	}
	for (i = 0; i < size; i++) {
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		size_t violations = 0;
		uint8_t *b = boards + k * cells;
		if (qubo_puzzle_decode(p, n ? x : &dummy, n, b, cells) ||
		    qubo_puzzle_check(p, b, cells, NULL, 0, &violations)) {
			cli_error("%s", qubo_error_message());
			free(boards);
			return -1;
		}
		if (violations)
			(*invalid)++;
		else
			k++;
	}
	if (k && cells) {
		cmp_boards_len = (int)cells;
		qsort(boards, k, cells, cmp_boards);
	}
	for (i = 0; i < k; i++)
		count += i == 0 || memcmp(boards + (i - 1) * cells, boards + i * cells, cells);
	free(boards);
	return count;
}

/* Counts by enumerating the model's states; returns an exit code. */
static int count_exhaustive(const count_args *a, const cli_input *in, qubo_puzzle *p,
			    double ground, int64_t *count_out)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *set = NULL;
	qubo_solver *s = NULL;
	const qubo_model *m;
	qubo_puzzle_stats st;
	cli_progress prog;
	double lowest = 0;
	size_t n, invalid = 0;
	int64_t count = 0;
	int rc, code = CLI_OK;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	qubo_puzzle_get_stats(p, &st);
	qubo_puzzle_model(p, &m);
	n = qubo_model_num_variables(m);
	if ((int64_t)n > a->max_vars) {
		cli_error("%s: the reduced model has %zu variables, too many to enumerate "
			  "(2^%zu states; the limit is %lld%s)", in->name, n, n,
			  (long long)a->max_vars,
			  a->max_vars < QUBO_EXHAUSTIVE_MAX_VARIABLES
				  ? ", raise it with --max-variables up to 40"
				  : ", the exhaustive solver's");
		return CLI_TOO_LARGE;
	}
	rc = qubo_solver_new(&s, "exhaustive", NULL);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_MAX_GROUND_STATES, MAX_STORED);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_THREADS,
					 a->threads >= 0 ? a->threads : n <= 20 ? 1 : 0);
	if (!rc && a->time_limit > 0)
		rc = qubo_solver_set_double(s, QUBO_PARAM_TIME_LIMIT, a->time_limit);
	if (rc) {
		code = cli_report("exhaustive", rc);
		goto out;
	}
	cli_progress_init(&prog, "blocks", a->quiet);
	qubo_solver_set_progress(s, cli_progress_cb, &prog);
	rc = qubo_solver_sample(&set, s, m);
	cli_progress_done(&prog);
	if (rc < 0) {
		code = cli_report(in->name, rc);
		goto out;
	}
	if (rc != QUBO_OK) {
		cli_error("%s: %s before the search ended; no count", in->name,
			  rc == QUBO_TIME_LIMIT ? "time limit reached" : "stopped");
		code = CLI_FAILURE;
		goto out;
	}
	qubo_sampleset_get_info(set, &info);
	if (qubo_sampleset_size(set))
		qubo_sampleset_get(set, 0, NULL, 0, &lowest, NULL);
	if (!qubo_sampleset_size(set) || lowest > ground + 1e-9 * (1.0 + fabs(ground))) {
		count = 0;
	} else if (info.num_ground_states > qubo_sampleset_size(set)) {
		/* too many to decode one by one: every ground state is a solution */
		count = (int64_t)info.num_ground_states;
		if (!a->quiet)
			cli_error("%s: counted %lld ground states of the model (more than %d, so "
				  "not decoded one by one)", in->name, (long long)count,
				  MAX_STORED);
	} else {
		count = distinct_valid(p, set, st.width * st.height, &invalid);
		if (count < 0) {
			code = CLI_FAILURE;
			goto out;
		}
		if (invalid)
			cli_error("%s: %zu ground state%s of the model break%s a rule (an internal "
				  "error); not counted", in->name, invalid, invalid == 1 ? "" : "s",
				  invalid == 1 ? "s" : "");
	}
	*count_out = count;
out:
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return code;
}

/* Counts with the branch and reduce search; returns an exit code. */
static int count_search(const count_args *a, const cli_input *in, const qubo_puzzle *p,
			int64_t *count_out)
{
	cli_progress prog;
	uint64_t solutions = 0, nodes = 0;
	double t_end = a->time_limit > 0 ? cli_now() + a->time_limit : 0;
	int rc;

	cli_progress_init(&prog, "nodes", a->quiet);
	rc = cli_queens_count(p, t_end, &prog, &solutions, &nodes);
	cli_progress_done(&prog);
	if (rc == -2)
		return CLI_FAILURE;
	if (rc < 0) {
		cli_error("%s: %s after %llu solutions; no count", in->name,
			  cli_interrupted() ? "stopped" : "time limit reached",
			  (unsigned long long)solutions);
		return CLI_FAILURE;
	}
	*count_out = (int64_t)solutions;
	return CLI_OK;
}

int cli_count(int argc, char **argv)
{
	qubo_puzzle *p = NULL;
	const qubo_model *m;
	count_args a;
	cli_input in;
	double ground;
	int64_t count = 0;
	size_t n;
	int rc, code, family, search;

	rc = parse_args(argc, argv, &a);
	if (rc) {
		if (rc > 0) {
			count_usage(stdout);
			return CLI_OK;
		}
		return CLI_USAGE;
	}
	code = cli_input_read(&in, a.path);
	if (code)
		return code;
	if (cli_input_kind(&in) == CLI_KIND_MODEL) {
		cli_error("%s is a QUBO model, not a puzzle", in.name);
		code = CLI_USAGE;
		goto out;
	}
	code = cli_input_puzzle(&in, a.reduce, &p);
	if (code) {
		if (code == CLI_INFEASIBLE)
			printf("0\n");
		goto out;
	}
	family = qubo_puzzle_family(p);
	if (qubo_puzzle_ground_energy(p, &ground)) {
		cli_error("%s: %s puzzles are optimisation problems: count counts the solutions "
			  "of puzzles whose solutions all have one energy", in.name,
			  cli_family_name(family));
		code = CLI_USAGE;
		goto out;
	}
	qubo_puzzle_model(p, &m);
	n = qubo_model_num_variables(m);
	if (!strcmp(a.method, "search") && family != QUBO_PUZZLE_QUEENS &&
	    family != QUBO_PUZZLE_NQUEENS) {
		cli_error("%s: --method search counts queens and nqueens puzzles only",
			  in.name);
		code = CLI_USAGE;
		goto out;
	}
	search = !strcmp(a.method, "search") ||
		 (!strcmp(a.method, "auto") && n > AUTO_EXHAUSTIVE &&
		  (family == QUBO_PUZZLE_QUEENS || family == QUBO_PUZZLE_NQUEENS));
	code = search ? count_search(&a, &in, p, &count)
		      : count_exhaustive(&a, &in, p, ground, &count);
	if (code)
		goto out;
	printf("%lld\n", (long long)count);
	code = cli_write_all(stdout, NULL, 0, "the count");
	if (!code && count == 0)
		code = CLI_INFEASIBLE;
out:
	qubo_puzzle_free(p);
	cli_input_free(&in);
	return code;
}
