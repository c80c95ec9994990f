/* `qubo verify PUZZLE SOLUTION`: the rule checker's verdict on a solution. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define REPORT_SIZE (64 * 1024)

static void verify_usage(FILE *f)
{
	fprintf(f, "usage: qubo verify PUZZLE SOLUTION\n"
		"\n"
		"Checks a solution file (doc/formats.md: the puzzle's header line and the\n"
		"filled grid, or the grid alone) against the puzzle's rules, without its\n"
		"QUBO model, and prints the verdict on standard output: 'valid', or\n"
		"'invalid' and each broken rule on its own line. One of the two may be '-'\n"
		"(standard input), as in 'qubo solve p.txt | qubo verify p.txt -'.\n"
		"\n"
		"The exit status is 0 only when the solution is valid; 1 when it breaks a\n"
		"rule.\n"
		"\n%s\n%s", cli_limits_help, cli_exit_help);
}

int cli_verify(int argc, char **argv)
{
	const char *paths[2] = { NULL, NULL };
	cli_input pin, sin;
	qubo_puzzle *p = NULL;
	qubo_puzzle_stats st;
	size_t cells, violations = 0;
	uint8_t *board = NULL;
	char *report = NULL;
	int k, rc, code;

	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k])) {
			verify_usage(stdout);
			return CLI_OK;
		}
		if ((rc = cli_limit_flag(argc, argv, &k)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
		} else if (cli_operand(argv[k], "verify", paths, 2)) {
			return CLI_USAGE;
		}
	}
	if (!paths[1]) {
		cli_error("verify needs a puzzle and a solution (try 'qubo verify --help')");
		return CLI_USAGE;
	}
	if (!strcmp(paths[0], "-") && !strcmp(paths[1], "-")) {
		cli_error("only one of the puzzle and the solution can be standard input");
		return CLI_USAGE;
	}
	code = cli_input_read(&pin, paths[0]);
	if (code)
		return code;
	code = cli_input_read_solution(&sin, paths[1]);
	if (code) {
		cli_input_free(&pin);
		return code;
	}
	if (cli_input_kind(&pin) == CLI_KIND_MODEL || cli_input_kind(&sin) == CLI_KIND_MODEL) {
		cli_error("%s is a QUBO model, not a %s",
			  cli_input_kind(&pin) == CLI_KIND_MODEL ? pin.name : sin.name,
			  cli_input_kind(&pin) == CLI_KIND_MODEL ? "puzzle" : "solution");
		code = CLI_USAGE;
		goto out;
	}
	/* The checker never looks at the model: build the cheapest one. */
	code = cli_input_puzzle(&pin, QUBO_REDUCE_NONE, &p);
	if (code)
		goto out;
	cells = cli_puzzle_stats(p, &st);
	board = malloc(cells ? cells : 1);
	report = malloc(REPORT_SIZE);
	if (!board || !report) {
		cli_error("out of memory");
		code = CLI_FAILURE;
		goto out;
	}
	rc = qubo_puzzle_parse_solution(p, sin.text, sin.length, board, cells);
	if (rc) {
		code = cli_report(sin.name, rc);
		if (code == CLI_USAGE)
			code = CLI_PARSE;
		goto out;
	}
	rc = qubo_puzzle_check(p, board, cells, report, REPORT_SIZE, &violations);
	if (rc) {
		code = cli_report(sin.name, rc);
		goto out;
	}
	if (violations == 0) {
		printf("valid\n");
	} else {
		printf("invalid: %zu rule%s broken\n%s", violations, violations == 1 ? "" : "s",
		       report);
		if (report[0] && report[strlen(report) - 1] != '\n')
			printf("...\n");
	}
	code = cli_flush_stdout();
	if (!code && violations)
		code = CLI_FAILURE;
out:
	free(board);
	free(report);
	qubo_puzzle_free(p);
	cli_input_free(&pin);
	cli_input_free(&sin);
	return code;
}
