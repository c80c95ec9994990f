/*
 * `qubo solve FILE`: the command line, and the QUBO-model half. A model is
 * sampled with a built-in solver and its samples are printed, lowest energy
 * first, as "<energy> <count> <bits>" (doc/formats.md, "Solutions and sample
 * sets"); a puzzle goes to solve_puzzle.c. The input's content decides
 * which it is (cli_input_kind()).
 *
 * Every solver option travels through the keyed setters, so the command line
 * maps onto the library's option keys one to one (--set reaches any key).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define MAX_OPTIONS CLI_MAX_OPTIONS

typedef cli_solve_option solve_option;
typedef cli_solve_args solve_args;

static void solve_usage(FILE *f)
{
	const char *name;
	size_t i;

	fprintf(f,
		"usage: qubo solve [options] FILE\n"
		"\n"
		"Solves a puzzle, or samples a QUBO model in qbsolv format. '-' reads\n"
		"standard input. The content decides: a model starts with 'c' comment lines\n"
		"or its 'p qubo' header, a puzzle with its family word ('queens 8').\n"
		"\n"
		"A puzzle's solution is printed on standard output in the solution layout\n"
		"of doc/formats.md (so 'qubo solve p.txt > p.solution' gives a solution\n"
		"file), and only once the rule checker has accepted it; figures (family,\n"
		"size, variables and couplers before and after the reduction, solver,\n"
		"reads, time) go to standard error. The model is reduced first (--reduce);\n"
		"when the reduction leaves cells open, the library's strategy solves it\n"
		"(qubo_puzzle_solve(), doc/cli.md): an exact search on queens boards with\n"
		"regions, else rounds of the sa solver that stop the moment a read reaches\n"
		"the solutions' energy, with longer anneals each round, until the time limit,\n"
		"and exact fallbacks. --solver or --target keep to sampling with that solver.\n"
		"\n"
		"A model's distinct samples are printed lowest energy first, one per line:\n"
		"  <energy> <count> <bits>\n"
		"\n"
		"options:\n"
		"  --solver NAME         the solver (default sa):");
	for (i = 0; qubo_solver_builtin_name(i, &name) == QUBO_OK; i++)
		fprintf(f, " %s", name);
	fprintf(f, "\n"
		"  --reads N             reads (num_reads); puzzles: reads per round\n"
		"                        (default 4 with sa)\n"
		"  --sweeps N            sweeps per read, sa and pt (num_sweeps); puzzles: fixed\n"
		"                        instead of 128 growing 4-fold each round\n"
		"  --seed N              random seed, 0 to 2^64 - 1 (a negative N is 2^64 + N);\n"
		"                        runs with the same seed are identical (puzzles:\n"
		"                        default 1, so the output is reproducible)\n"
		"  --threads N           worker threads; 0 means one per CPU (the default\n"
		"                        for models; puzzles use one thread for small models)\n"
		"  --time-limit SECONDS  stop after this long (any finite number >= 0; 0 or\n"
		"                        more than 1e18 means no limit); what was found is\n"
		"                        printed and the exit status is 1. Puzzles: default\n"
		"                        60; reading and building count in it\n"
		"  --reduce LEVEL        puzzles: none, clues or full (default): how far the\n"
		"                        puzzle is reduced before its model is built\n"
		"  --target ENERGY       stop once a sample reaches this energy (puzzles:\n"
		"                        default the energy of a solution)\n"
		"  --beta-range HOT,COLD inverse temperatures: the sa schedule's, the pt ladder's\n"
		"  --set KEY=VALUE       any solver option, e.g. --set tenure=10\n"
		"                        (see 'qubo solvers' for each solver's keys)\n"
		"  --top K               models: print only the K lowest samples\n"
		"  --stats               models: print variables, couplers, sampling time and\n"
		"                        time per flip attempt on standard error\n"
		"  --quiet               no progress messages (puzzles: and no figures)\n"
		"  -h, --help            this help\n"
		"\n"
		"A puzzle's status line on standard error is one of: solved and verified;\n"
		"optimal and proven; best found, not proven optimal (the board is printed,\n"
		"exit status 1); proven infeasible (5); stopped (1); not found (1).\n"
		"\n"
		"Progress goes to standard error for runs longer than a second; Ctrl-C stops\n"
		"the run and prints what was found so far, with exit status 1 (a second\n"
		"Ctrl-C quits).\n"
		"\n%s\n%s", cli_limits_help, cli_exit_help);
}

static int add_option(solve_args *a, const char *flag, const char *key, int32_t type)
{
	if (a->num_opts == MAX_OPTIONS) {
		cli_error("too many options");
		return -1;
	}
	memset(&a->opts[a->num_opts], 0, sizeof a->opts[0]);
	a->opts[a->num_opts].flag = flag;
	a->opts[a->num_opts].key = key;
	a->opts[a->num_opts].type = type;
	a->num_opts++;
	return 0;
}

/* A value that does not parse: names the option and what it takes. A value
 * that names a file is most likely the input, taken as the value of an
 * option that was given none (qubo solve --reads FILE). */
static void bad_value(const char *flag, const char *wants, const char *text)
{
	struct stat st;

	if (!stat(text, &st))
		cli_error("%s takes %s, got '%s', a file: is the value of %s missing?", flag,
			  wants, text, flag);
	else
		cli_error("%s takes %s, got '%s'", flag, wants, text);
}

/* An integer option's value: the seed's 64 bits, or any int64. */
static int int_value(const char *key, const char *text, int64_t *out)
{
	return strcmp(key, QUBO_PARAM_SEED) ? cli_parse_int(text, INT64_MIN, INT64_MAX, out)
					    : cli_parse_seed(text, out);
}

/* A value of a typed flag: parsed now, so that typos are usage errors. */
static int typed_value(solve_args *a, const char *flag, const char *key, int32_t type,
		       const char *text, const char *wants)
{
	solve_option *o;

	if (add_option(a, flag, key, type))
		return -1;
	o = &a->opts[a->num_opts - 1];
	if (type == QUBO_TYPE_INT && int_value(key, text, &o->i)) {
		bad_value(flag, wants, text);
		return -1;
	}
	if (type == QUBO_TYPE_DOUBLE && cli_parse_double(text, &o->d)) {
		bad_value(flag, wants, text);
		return -1;
	}
	return 0;
}

static int beta_range(solve_args *a, const char *text)
{
	const char *comma = strchr(text, ',');
	char hot[64];
	size_t len = comma ? (size_t)(comma - text) : 0;
	double h, c;

	if (!comma || len >= sizeof hot) {
		bad_value("--beta-range", "HOT,COLD (two inverse temperatures)", text);
		return -1;
	}
	memcpy(hot, text, len);
	hot[len] = '\0';
	if (typed_value(a, "--beta-range", QUBO_PARAM_BETA_HOT, QUBO_TYPE_DOUBLE, hot,
			"HOT,COLD with HOT a finite number") ||
	    typed_value(a, "--beta-range", QUBO_PARAM_BETA_COLD, QUBO_TYPE_DOUBLE, comma + 1,
			"HOT,COLD with COLD a finite number"))
		return -1;
	h = a->opts[a->num_opts - 2].d;
	c = a->opts[a->num_opts - 1].d;
	if (!(h > 0) || h > c) {
		cli_error("--beta-range: HOT,COLD are inverse temperatures with 0 < HOT <= COLD "
			  "(the schedule cools from HOT to COLD), got '%s'", text);
		return -1;
	}
	return 0;
}

/* Keeps the values that the puzzle solver's rounds build on, given by a
 * flag or by --set: the seed and the time limit are the run's (round k
 * samples with seed + k), the others the solver's. */
static void remember(solve_args *a, const solve_option *o)
{
	if (o->type == QUBO_TYPE_INT && !strcmp(o->key, QUBO_PARAM_NUM_READS))
		a->reads = o->i;
	else if (o->type == QUBO_TYPE_INT && !strcmp(o->key, QUBO_PARAM_NUM_SWEEPS))
		a->sweeps = o->i;
	else if (o->type == QUBO_TYPE_INT && !strcmp(o->key, QUBO_PARAM_THREADS))
		a->threads = o->i;
	else if (o->type == QUBO_TYPE_INT && !strcmp(o->key, QUBO_PARAM_SEED)) {
		a->seed = o->i;
		a->seed_given = 1;
	} else if (o->type != QUBO_TYPE_STRING && !strcmp(o->key, QUBO_PARAM_TIME_LIMIT))
		a->time_limit = o->type == QUBO_TYPE_INT ? (double)o->i : o->d;
}

/* --set KEY=VALUE: an integer if VALUE reads as one, else a number, else a
 * string. */
static int set_value(solve_args *a, const char *text)
{
	const char *eq = strchr(text, '=');
	size_t len = eq ? (size_t)(eq - text) : 0;
	solve_option *o;
	char *key;

	if (!eq || !len || len >= sizeof a->keys[0]) {
		cli_error("--set: expected KEY=VALUE, got '%s'", text);
		return -1;
	}
	if (add_option(a, "--set", NULL, QUBO_TYPE_STRING))
		return -1;
	o = &a->opts[a->num_opts - 1];
	key = a->keys[a->num_opts - 1];
	memcpy(key, text, len);
	key[len] = '\0';
	o->key = key;
	o->s = eq + 1;
	if (!int_value(key, eq + 1, &o->i))
		o->type = QUBO_TYPE_INT;
	else if (!cli_parse_double(eq + 1, &o->d))
		o->type = QUBO_TYPE_DOUBLE;
	remember(a, o);
	return 0;
}

/* Parses argv; returns -1 on a usage error, 1 for --help, 0 otherwise. */
static int parse_args(int argc, char **argv, solve_args *a)
{
	static const struct {
		const char *flag, *key;
		int32_t type;
		const char *wants;
	} typed[] = {
		{ "--reads", QUBO_PARAM_NUM_READS, QUBO_TYPE_INT, "a number of reads, an integer" },
		{ "--sweeps", QUBO_PARAM_NUM_SWEEPS, QUBO_TYPE_INT,
		  "a number of sweeps, an integer" },
		{ "--seed", QUBO_PARAM_SEED, QUBO_TYPE_INT,
		  "a seed, an integer from 0 to 18446744073709551615 (or from "
		  "-9223372036854775808 to -1 for the same 64 bits)" },
		{ "--threads", QUBO_PARAM_THREADS, QUBO_TYPE_INT,
		  "a number of threads, an integer" },
		{ "--time-limit", QUBO_PARAM_TIME_LIMIT, QUBO_TYPE_DOUBLE,
		  "a number of seconds" },
		{ "--target", QUBO_PARAM_TARGET_ENERGY, QUBO_TYPE_DOUBLE,
		  "an energy, a finite number" },
	};
	int i, only_paths = 0;
	size_t k;

	memset(a, 0, sizeof *a);
	a->solver = "sa";
	a->top = -1;
	a->reads = a->sweeps = a->threads = -1;
	a->time_limit = -1;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		char flag[32];
		int takes = 0;

		if (only_paths || arg[0] != '-' || !strcmp(arg, "-")) {
			if (a->path) {
				cli_error("more than one input given ('%s' and '%s')", a->path,
					  arg);
				return -1;
			}
			a->path = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_paths = 1;
			continue;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return 1;
		if (!strcmp(arg, "--stats")) {
			a->stats = 1;
			continue;
		}
		if (!strcmp(arg, "--quiet")) {
			a->quiet = 1;
			continue;
		}
		/* --flag VALUE or --flag=VALUE */
		eq = strchr(arg, '=');
		snprintf(flag, sizeof flag, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		for (k = 0; k < sizeof typed / sizeof typed[0]; k++)
			takes |= !strcmp(flag, typed[k].flag);
		takes |= !strcmp(flag, "--solver") || !strcmp(flag, "--beta-range") ||
			 !strcmp(flag, "--set") || !strcmp(flag, "--top") ||
			 !strcmp(flag, "--reduce") || cli_is_limit_flag(flag);
		if (!takes) {
			cli_error("unknown option '%s' (try 'qubo solve --help')", arg);
			return -1;
		}
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			cli_error("%s needs a value", flag);
			return -1;
		}
		if (cli_is_limit_flag(flag)) {
			if (cli_limit_option(flag, val))
				return -1;
		} else if (!strcmp(flag, "--solver")) {
			a->solver = val;
			a->solver_given = 1;
		} else if (!strcmp(flag, "--reduce")) {
			if (qubo_puzzle_reduce_parse(val, &a->reduce)) {
				bad_value("--reduce", "none, clues or full", val);
				return -1;
			}
			a->reduce_given = 1;
		} else if (!strcmp(flag, "--top")) {
			if (cli_parse_int(val, 1, INT64_MAX, &a->top)) {
				bad_value("--top", "a positive integer", val);
				return -1;
			}
		} else if (!strcmp(flag, "--beta-range")) {
			if (beta_range(a, val))
				return -1;
		} else if (!strcmp(flag, "--set")) {
			if (set_value(a, val))
				return -1;
		} else {
			for (k = 0; strcmp(flag, typed[k].flag); k++)
				;
			if (typed_value(a, typed[k].flag, typed[k].key, typed[k].type, val,
					typed[k].wants))
				return -1;
			remember(a, &a->opts[a->num_opts - 1]);
		}
	}
	if (!a->path) {
		cli_error("no puzzle or model given (try 'qubo solve --help')");
		return -1;
	}
	return 0;
}

/* Status of a library call to exit code: bad values are usage errors. */
static int exit_code(int rc)
{
	if (rc == QUBO_ERR_INVALID_ARG || rc == QUBO_ERR_OUT_OF_RANGE ||
	    rc == QUBO_ERR_NOT_SUPPORTED)
		return CLI_USAGE;
	if (rc == QUBO_ERR_TOO_LARGE)
		return CLI_TOO_LARGE;
	return CLI_FAILURE;
}

int cli_apply_options(qubo_solver *s, const solve_args *a)
{
	size_t k;

	for (k = 0; k < a->num_opts; k++) {
		const solve_option *o = &a->opts[k];
		int rc;
		if (o->type == QUBO_TYPE_INT)
			rc = qubo_solver_set_int(s, o->key, o->i);
		else if (o->type == QUBO_TYPE_DOUBLE)
			rc = qubo_solver_set_double(s, o->key, o->d);
		else
			rc = qubo_solver_set_string(s, o->key, o->s);
		if (rc) {
			cli_error("%s: %s", o->flag, cli_library_message());
			return exit_code(rc);
		}
	}
	return CLI_OK;
}

static void print_stats(const qubo_model *m, const qubo_solver *s, const qubo_sampleset *set,
			size_t distinct)
{
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_model_stats st;
	const char *status = "ok";

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	qubo_model_get_stats(m, &st);
	qubo_sampleset_get_info(set, &info);
	if (info.status == QUBO_CANCELLED)
		status = "cancelled";
	else if (info.status == QUBO_TIME_LIMIT)
		status = "time limit";
	fprintf(stderr, "variables: %zu\n", st.num_variables);
	fprintf(stderr, "couplers: %zu\n", st.num_couplers);
	fprintf(stderr, "solver: %s\n", qubo_solver_name(s));
	fprintf(stderr, "status: %s%s\n", status, info.reached_target ? ", target reached" : "");
	fprintf(stderr, "seed: %llu\n", (unsigned long long)info.seed);
	fprintf(stderr, "samples: %llu (%zu distinct)\n", (unsigned long long)info.num_samples,
		distinct);
	if (info.num_ground_states)
		fprintf(stderr, "ground states: %llu\n",
			(unsigned long long)info.num_ground_states);
	if (info.has_expectation)
		fprintf(stderr, "expectation: %.17g\nlowest-energy probability: %.17g\n",
			info.expectation, info.lowest_probability);
	fprintf(stderr, "sampling time: %.6f s\n", info.seconds);
	if (info.flip_attempts)
		fprintf(stderr, "ns per flip attempt: %.3f\n",
			info.seconds * 1e9 / (double)info.flip_attempts);
	else
		fprintf(stderr, "ns per flip attempt: n/a\n");
}

/* Samples a QUBO model and prints its samples. */
static int solve_model(const solve_args *a, const cli_input *in)
{
	qubo_model *m = NULL;
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	cli_progress prog;
	size_t distinct;
	int rc, code;

	if (a->reduce_given) {
		cli_error("--reduce applies to puzzles; %s is a QUBO model", in->name);
		return CLI_USAGE;
	}
	code = cli_input_model(in, &m);
	if (code)
		return code;
	rc = qubo_solver_new(&s, a->solver, NULL);
	if (rc) {
		cli_error("--solver: %s", cli_library_message());
		qubo_model_free(m);
		return exit_code(rc);
	}
	code = cli_apply_options(s, a);
	if (code)
		goto out;

	cli_progress_init(&prog, strcmp(a->solver, "exhaustive") ? "reads" : "blocks", a->quiet);
	qubo_solver_set_progress(s, cli_progress_cb, &prog);
	rc = qubo_solver_sample(&set, s, m);
	cli_progress_done(&prog);
	if (rc < 0) {
		code = exit_code(rc);
		if (code == CLI_USAGE)
			/* a value the solver refused only when it ran (beta_hot
			 * above beta_cold): the options are at fault, not the model */
			cli_error("the solver's options: %s", cli_library_message());
		else
			cli_error("%s: %s", in->name, cli_library_message());
		goto out;
	}
	distinct = qubo_sampleset_size(set);
	if (a->top > 0 && (uint64_t)a->top < distinct)
		qubo_sampleset_truncate(set, (size_t)a->top);
	code = cli_print_samples(set);
	if (a->stats)
		print_stats(m, s, set, distinct);
	if (!code && !distinct) {
		cli_error("no samples");
		code = CLI_FAILURE;
	}
	/* a run that was stopped has not done what was asked: its samples are
	 * printed, and the status says it stopped */
	if (!code && (rc == QUBO_TIME_LIMIT || rc == QUBO_CANCELLED)) {
		cli_error("%s: stopped (%s); the samples found so far are printed", in->name,
			  rc == QUBO_TIME_LIMIT ? "time limit" : "interrupted");
		code = CLI_FAILURE;
	}
out:
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
	return code;
}

int cli_solve(int argc, char **argv)
{
	solve_args *a;
	cli_input in;
	int rc, code;

	/* The arguments hold 64 options: too large for a comfortable stack. */
	a = malloc(sizeof *a);
	if (!a) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	rc = parse_args(argc, argv, a);
	if (rc) {
		free(a);
		if (rc > 0) {
			solve_usage(stdout);
			return CLI_OK;
		}
		return CLI_USAGE;
	}
	code = cli_input_read(&in, a->path);
	if (!code) {
		if (cli_input_kind(&in) == CLI_KIND_MODEL)
			code = solve_model(a, &in);
		else
			code = cli_solve_puzzle(a, &in);
		cli_input_free(&in);
	}
	free(a);
	return code;
}

/* `qubo solvers`: each built-in solver's description and options. */
int cli_solvers(int argc, char **argv)
{
	const char *name;
	size_t i;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			printf("usage: qubo solvers\n\nLists the built-in solvers and their "
			       "option keys (set them with qubo solve --set KEY=VALUE).\n");
			return CLI_OK;
		}
		cli_error("solvers takes no arguments");
		return CLI_USAGE;
	}
	for (i = 0; qubo_solver_builtin_name(i, &name) == QUBO_OK; i++) {
		qubo_solver *s = NULL;
		char text[4096];
		if (qubo_solver_new(&s, name, NULL) ||
		    qubo_solver_describe(s, text, sizeof text, NULL)) {
			cli_error("%s: %s", name, cli_library_message());
			qubo_solver_free(s);
			return CLI_FAILURE;
		}
		printf("%s%s", i ? "\n" : "", text);
		qubo_solver_free(s);
	}
	return CLI_OK;
}
