/*
 * qubo: the command-line program of libqubo.
 *
 *   qubo solve MODEL.qubo      sample a QUBO model (qbsolv format)
 *   qubo info MODEL.qubo       figures of a model
 *   qubo solvers               the built-in solvers and their options
 *
 * Each verb lives in its own file; this one dispatches and prints the help.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_verb verbs[] = {
	{ "solve", cli_solve, "sample a model: qubo solve [options] MODEL.qubo" },
	{ "info", cli_info, "figures of a model: qubo info MODEL.qubo" },
	{ "solvers", cli_solvers, "list the built-in solvers and their options" },
};
#define NUM_VERBS (sizeof verbs / sizeof verbs[0])

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: qubo <command> [options] [arguments]\n\ncommands:\n");
	for (i = 0; i < NUM_VERBS; i++)
		fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
	fprintf(f, "\n"
		"  qubo <command> --help    help on one command\n"
		"  qubo --version           the program's and library's version\n"
		"\n"
		"Results go to standard output, messages to standard error.\n"
		"\n"
		"exit status:\n"
		"  0  success (also a run stopped early by --time-limit or Ctrl-C that\n"
		"     found samples)\n"
		"  1  no solution, or the solver failed\n"
		"  2  usage error: bad command line or option value\n"
		"  3  the input could not be read or parsed\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
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
