/*
 * qubo: the command-line program of libqubo.
 *
 *   qubo solve FILE            solve a puzzle, or sample a QUBO model
 *   qubo export FILE -o OUT    a puzzle's QUBO model in qbsolv format
 *   qubo verify PUZZLE SOL     check a solution against the rules
 *   qubo info FILE             figures of a puzzle or a model
 *   qubo count FILE            number of solutions, by exhaustive search
 *   qubo render FILE [SOL]     a readable board
 *   qubo solvers               the built-in solvers and their options
 *
 * Each verb lives in its own file; this one dispatches and prints the help.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_verb verbs[] = {
	{ "solve", cli_solve, "solve a puzzle or sample a QUBO model: qubo solve FILE" },
	{ "export", cli_export, "write a puzzle's QUBO model: qubo export FILE -o MODEL.qubo" },
	{ "verify", cli_verify, "check a solution: qubo verify PUZZLE SOLUTION" },
	{ "info", cli_info, "figures of a puzzle or a model: qubo info FILE" },
	{ "count", cli_count, "count a puzzle's solutions: qubo count FILE" },
	{ "render", cli_render, "show a puzzle as a board: qubo render FILE [SOLUTION]" },
	{ "solvers", cli_solvers, "list the built-in solvers and their options" },
};
#define NUM_VERBS (sizeof verbs / sizeof verbs[0])

const char cli_exit_help[] =
	"exit status:\n"
	"  0  success: solved and verified, optimal and proven, solution valid,\n"
	"     count complete, file written\n"
	"  1  no proven answer within the limits: stopped by the time limit or\n"
	"     Ctrl-C, best found but not proven optimal, not found by sampling, or\n"
	"     the solver failed (what was found is still printed); or (verify) the\n"
	"     solution breaks a rule\n"
	"  2  usage error: bad command line or option value, wrong kind of input\n"
	"  3  parse error: the input is malformed (FILE:LINE:COLUMN on stderr)\n"
	"  4  I/O error: a file could not be read or written, or standard output\n"
	"     could not be written\n"
	"  5  the puzzle has no solution (proven infeasible)\n"
	"  6  too large: the input (see --max-input and friends), its model or the\n"
	"     run is beyond a size limit\n";

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: qubo <command> [options] [arguments]\n\ncommands:\n");
	for (i = 0; i < NUM_VERBS; i++)
		fprintf(f, "  %-8s %s\n", verbs[i].name, verbs[i].summary);
	fprintf(f, "\n"
		"  qubo <command> --help    help on one command\n"
		"  qubo --version           the program's and library's version\n"
		"\n"
		"FILE is a puzzle (doc/formats.md: its first line is a family word and a\n"
		"size, such as 'queens 8') or a QUBO model in qbsolv format (its first\n"
		"line is a 'c' comment or the 'p qubo' header); '-' reads standard input.\n"
		"Results go to standard output, messages to standard error.\n"
		"\n%s", cli_exit_help);
}

static int run(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (cli_is_help(argv[1]) || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (i = 0; i < NUM_VERBS; i++) {
				char help[] = "--help";
				char *args[] = { argv[2], help, NULL };
				if (!strcmp(argv[2], verbs[i].name))
					return verbs[i].run(2, args);
			}
			cli_error("unknown command '%s'", argv[2]);
			return CLI_USAGE;
		}
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("qubo %s\n", qubo_version_string());
		return CLI_OK;
	}
	for (i = 0; i < NUM_VERBS; i++)
		if (!strcmp(argv[1], verbs[i].name))
			return verbs[i].run(argc - 1, argv + 1);
	cli_error("unknown command '%s' (try 'qubo --help')", argv[1]);
	return CLI_USAGE;
}

int main(int argc, char **argv)
{
	cli_now(); /* the program's clock starts here */
	/* every verb's results, --help's too, are checked once written */
	return cli_finish(run(argc, argv));
}
