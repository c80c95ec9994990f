/* `qubo export FILE -o MODEL.qubo`: a puzzle's QUBO model in qbsolv format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void export_usage(FILE *f)
{
	fprintf(f, "usage: qubo export [--reduce LEVEL] FILE [-o MODEL.qubo]\n"
		"\n"
		"Writes the QUBO model of a puzzle in qbsolv format (doc/formats.md), as\n"
		"'qubo solve' would sample it: its variables are the cells the reduction\n"
		"left open (and any auxiliary variables), in the order of the puzzle's\n"
		"cell map; its offset is on a 'c offset' line. The model's minimum is the\n"
		"energy of a solution ('qubo info' prints it). A QUBO model given as FILE\n"
		"is written back in normal form. '-' reads standard input.\n"
		"\n"
		"options:\n"
		"  -o, --output PATH  the file to write; '-' (the default) is standard output\n"
		"  --reduce LEVEL     none, clues or full (the default)\n"
		"  -h, --help         this help\n"
		"\n%s", cli_exit_help);
}

static int write_model(const qubo_model *m, const char *out)
{
	size_t len = 0;
	char *text;
	int rc;

	if (strcmp(out, "-")) {
		rc = qubo_qbsolv_write_file(m, out);
		if (rc)
			return cli_report(out, rc);
		return CLI_OK;
	}
	qubo_qbsolv_write(m, NULL, 0, &len);
	text = malloc(len + 1);
	if (!text) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	rc = qubo_qbsolv_write(m, text, len + 1, &len);
	if (rc) {
		free(text);
		return cli_report("the model", rc);
	}
	rc = cli_write_all(stdout, text, len, "the model");
	free(text);
	return rc;
}

int cli_export(int argc, char **argv)
{
	const char *path = NULL, *out = "-", *val;
	int32_t reduce = QUBO_REDUCE_DEFAULT;
	int reduce_given = 0, k, rc;
	qubo_puzzle *p = NULL;
	qubo_model *m = NULL;
	const qubo_model *pm;
	cli_input in;

	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k])) {
			export_usage(stdout);
			return CLI_OK;
		}
		if ((rc = cli_flag(argc, argv, &k, "-o", &val)) != 0 ||
		    (rc = cli_flag(argc, argv, &k, "--output", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			out = val;
		} else if ((rc = cli_flag(argc, argv, &k, "--reduce", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			if (cli_parse_reduce(val, &reduce)) {
				cli_error("--reduce: '%s' is not none, clues or full", val);
				return CLI_USAGE;
			}
			reduce_given = 1;
		} else if (cli_operand(argv[k], "export", &path, 1)) {
			return CLI_USAGE;
		}
	}
	if (!path) {
		cli_error("no puzzle given (try 'qubo export --help')");
		return CLI_USAGE;
	}
	if (!*out) {
		cli_error("-o: empty path");
		return CLI_USAGE;
	}
	rc = cli_input_read(&in, path);
	if (rc)
		return rc;
	if (cli_input_kind(&in) == CLI_KIND_MODEL) {
		if (reduce_given) {
			cli_error("--reduce applies to puzzles; %s is a QUBO model", in.name);
			rc = CLI_USAGE;
		} else {
			rc = cli_input_model(&in, &m);
			if (!rc)
				rc = write_model(m, out);
		}
	} else {
		rc = cli_input_puzzle(&in, reduce, &p);
		if (!rc) {
			qubo_puzzle_model(p, &pm);
			rc = write_model(pm, out);
		}
	}
	qubo_model_free(m);
	qubo_puzzle_free(p);
	cli_input_free(&in);
	return rc;
}
