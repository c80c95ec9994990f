/*
 * `qubo count FILE`: the number of solutions of a puzzle, by
 * qubo_puzzle_count(); for an optimisation puzzle (dominating sets, max
 * chess pieces), the number of optimal solutions.
 *
 * Exhaustive: every state of the reduced model is enumerated; the model is
 * exact, so the solutions are its ground states, and each one is decoded,
 * confirmed by the rule checker and counted once per distinct board.
 * Search: the family's exact search, run to the end. Either way the count
 * is exact (or, with --limit, a lower bound).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_MAX_VARIABLES 36 /* 2^36 states: about half a minute on 2 cores */

static void count_usage(FILE *f)
{
	fprintf(f, "usage: qubo count [options] PUZZLE\n"
		"\n"
		"Counts the solutions of a puzzle and prints the number on standard output;\n"
		"for an optimisation puzzle (domination, chess max) the number of optimal\n"
		"solutions. Every solution found is confirmed by the rule checker. '-' reads\n"
		"standard input.\n"
		"\n"
		"Methods: 'exhaustive' enumerates every state of the reduced QUBO model\n"
		"(2^n states for n variables, about 0.5 ns each on 2 cores; models of more\n"
		"than --max-variables variables are refused with exit status 6). 'search'\n"
		"(queens and nqueens puzzles) branches over the library's reduction and\n"
		"visits every solution. 'auto' (the default) searches where the family has a\n"
		"search and enumerates the other puzzles.\n"
		"\n"
		"options:\n"
		"  --method METHOD        auto, exhaustive or search\n"
		"  --reduce LEVEL         none, clues or full (the default); full leaves the\n"
		"                         fewest variables\n"
		"  --max-variables N      refuse larger models (default %d, at most %d)\n"
		"  --limit N              stop after N solutions (0, the default: no limit);\n"
		"                         the count printed is then at least N\n"
		"  --threads N            worker threads; 0 (the default) chooses: one for\n"
		"                         small models, else one per CPU\n"
		"  --time-limit SECONDS   give up after this long, reading and building\n"
		"                         included (exit status 1); any finite number >= 0,\n"
		"                         0 (the default) or more than 1e18 for no limit\n"
		"  --quiet                no progress messages or notes\n"
		"  -h, --help             this help\n"
		"\n"
		"A count of 0 exits with status 5 (the puzzle has no solution).\n"
		"\n%s\n%s",
		DEFAULT_MAX_VARIABLES, QUBO_EXHAUSTIVE_MAX_VARIABLES, cli_limits_help, cli_exit_help);
}

typedef struct count_args {
	const char *path;
	int32_t method;
	int32_t reduce;
	int64_t max_vars, threads;
	uint64_t limit;
	double time_limit;
	int quiet;
} count_args;

static int parse_args(int argc, char **argv, count_args *a)
{
	const char *val;
	int k, rc;

	memset(a, 0, sizeof *a);
	a->max_vars = DEFAULT_MAX_VARIABLES;
	a->method = QUBO_PUZZLE_COUNT_AUTO;
	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k]))
			return 1;
		if (!strcmp(argv[k], "--quiet")) {
			a->quiet = 1;
			continue;
		}
		if ((rc = cli_limit_flag(argc, argv, &k)) != 0) {
			if (rc < 0)
				return -1;
		} else if ((rc = cli_flag(argc, argv, &k, "--method", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (!strcmp(val, "auto")) {
				a->method = QUBO_PUZZLE_COUNT_AUTO;
			} else if (!strcmp(val, "exhaustive")) {
				a->method = QUBO_PUZZLE_COUNT_ENUMERATE;
			} else if (!strcmp(val, "search")) {
				a->method = QUBO_PUZZLE_COUNT_SEARCH;
			} else {
				cli_error("--method: '%s' is not auto, exhaustive or search", val);
				return -1;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--reduce", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (qubo_puzzle_reduce_parse(val, &a->reduce)) {
				cli_error("--reduce: '%s' is not none, clues or full", val);
				return -1;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--max-variables", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (cli_parse_int(val, 1, QUBO_EXHAUSTIVE_MAX_VARIABLES, &a->max_vars)) {
				cli_error("--max-variables: '%s' is not between 1 and %d", val,
					  QUBO_EXHAUSTIVE_MAX_VARIABLES);
				return -1;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--limit", &val)) != 0) {
			if (rc < 0)
				return -1;
			if (cli_parse_u64(val, &a->limit)) {
				cli_error("--limit: '%s' is not a count of solutions (0 to "
					  "18446744073709551615)",
					  val);
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
				cli_error("--time-limit: '%s' is not a number of seconds (finite, "
					  "at least 0)",
					  val);
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

static int progress_cb(const qubo_puzzle_progress *pr, void *user_data)
{
	cli_progress *p = user_data;
	double now = cli_now();

	if (cli_interrupted())
		return 1;
	if (p->quiet || now < 1.0 || now - p->last < 1.0)
		return 0;
	p->last = now;
	if (pr->phase == QUBO_PUZZLE_PHASE_ENUMERATE)
		fprintf(stderr, "%squbo: enumeration, %llu blocks, %.0f s%s", p->tty ? "\r" : "",
			(unsigned long long)pr->reads, now, p->tty ? "   " : "\n");
	else
		fprintf(stderr, "%squbo: search, %llu nodes, %llu solutions, %.0f s%s",
			p->tty ? "\r" : "", (unsigned long long)pr->nodes,
			(unsigned long long)pr->solutions, now, p->tty ? "   " : "\n");
	p->shown = 1;
	return 0;
}

int cli_count(int argc, char **argv)
{
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result res;
	qubo_puzzle *p = NULL;
	const qubo_model *m;
	cli_progress prog;
	count_args a;
	cli_input in;
	size_t n;
	int rc, code;

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
	/* the time limit counts reading and building; the count gets the rest */
	code = cli_build_puzzle(&in, a.reduce, a.time_limit, a.quiet, &p);
	if (code) {
		if (code == CLI_INFEASIBLE)
			printf("0\n");
		goto out;
	}
	qubo_puzzle_model(p, &m);
	n = qubo_model_num_variables(m);
	o.method = a.method;
	o.threads = (int32_t)a.threads;
	o.limit = a.limit;
	o.time_limit = a.time_limit > 0 ? a.time_limit - cli_now() : 0;
	if (a.time_limit > 0 && o.time_limit < 1e-3)
		o.time_limit = 1e-3; /* the build took it all: a last look */
	o.max_variables = (int32_t)a.max_vars;
	o.progress = progress_cb;
	o.user_data = &prog;
	memset(&res, 0, sizeof res);
	res.struct_size = sizeof res;
	cli_progress_init(&prog, "nodes", a.quiet);
	rc = qubo_puzzle_count(p, &o, &res);
	cli_progress_done(&prog);
	if (rc == QUBO_ERR_TOO_LARGE && (int64_t)n > a.max_vars) {
		cli_error("%s: the reduced model has %zu variables, too many to enumerate "
			  "(2^%zu states; the limit is %lld%s)", in.name, n, n,
			  (long long)a.max_vars,
			  a.max_vars < QUBO_EXHAUSTIVE_MAX_VARIABLES
				  ? ", raise it with --max-variables up to 40"
				  : ", the exhaustive solver's");
		code = CLI_TOO_LARGE;
		goto out;
	}
	if (rc < 0) {
		cli_error("%s: %s", in.name, cli_library_message());
		code = rc == QUBO_ERR_TOO_LARGE ? CLI_TOO_LARGE : cli_exit_code(rc);
		goto out;
	}
	if (rc != QUBO_OK) {
		cli_error("%s: stopped (%s) after %llu solution%s; no count", in.name,
			  rc == QUBO_TIME_LIMIT ? "time limit" : "interrupted",
			  (unsigned long long)res.count, res.count == 1 ? "" : "s");
		code = CLI_FAILURE;
		goto out;
	}
	printf("%llu\n", (unsigned long long)res.count);
	code = cli_flush_stdout();
	if (!a.quiet && !code && !res.complete)
		cli_error("%s: stopped at the limit of %llu solutions; there may be more", in.name,
			  (unsigned long long)a.limit);
	if (!a.quiet && !code && res.optimal_only && res.count) {
		char e[40];

		cli_format_energy(e, sizeof e, res.energy);
		cli_error("%s: the optimal solutions (energy %s in the model) were counted",
			  in.name, e);
	}
	if (!code && res.count == 0)
		code = CLI_INFEASIBLE;
out:
	qubo_puzzle_free(p);
	cli_input_free(&in);
	return code;
}
