/* `qubo info FILE`: figures of a puzzle or a model on standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void info_usage(FILE *f)
{
	fprintf(f, "usage: qubo info [--reduce LEVEL] FILE\n"
		"\n"
		"Prints the figures of a puzzle or of a QUBO model in qbsolv format ('-'\n"
		"reads standard input), one 'name: value' per line.\n"
		"\n"
		"A puzzle: its family, header and size, the variables and couplers of its\n"
		"model before and after the reduction, the cells the reduction fixed,\n"
		"whether the reduction alone solved it, and the energy of a solution.\n"
		"A model: variables, couplers, degrees, weight ranges and the offset.\n"
		"\n"
		"options:\n"
		"  --reduce LEVEL   puzzles: none, clues or full (the default)\n"
		"  -h, --help       this help\n"
		"\n%s\n%s", cli_limits_help, cli_exit_help);
}

static int puzzle_info(const cli_input *in, int32_t reduce)
{
	qubo_puzzle_stats st;
	qubo_puzzle *p = NULL;
	char header[128], e[40];
	double ground;
	int code = cli_build_puzzle(in, reduce, 0, 0, &p);

	if (code)
		return code;
	cli_puzzle_stats(p, &st);
	cli_input_header(in, header, sizeof header);
	printf("family: %s\n", qubo_puzzle_family_name(qubo_puzzle_family(p)));
	printf("header: %s\n", header);
	printf("size: %zux%zu\n", st.width, st.height);
	printf("reduction: %s\n", qubo_puzzle_reduce_name(reduce));
	printf("variables before reduction: %zu\n", st.variables_before);
	printf("couplers before reduction: %zu\n", st.couplers_before);
	printf("variables: %zu\n", st.variables_after);
	printf("couplers: %zu\n", st.couplers_after);
	printf("cells fixed: %zu\n", st.cells_fixed);
	printf("solved by reduction: %s\n", st.solved_by_reduction ? "yes" : "no");
	if (qubo_puzzle_ground_energy(p, &ground) == QUBO_OK) {
		cli_format_energy(e, sizeof e, ground);
		printf("solution energy: %s\n", e);
	} else {
		printf("solution energy: unknown (an optimisation puzzle)\n");
	}
	qubo_puzzle_free(p);
	return cli_flush_stdout();
}

static void print_range(const char *what, const double *w, size_t count)
{
	char lo[40], hi[40];
	double a, b;
	size_t i;

	if (!count) {
		printf("%s: none\n", what);
		return;
	}
	a = b = w[0];
	for (i = 1; i < count; i++) {
		if (w[i] < a)
			a = w[i];
		if (w[i] > b)
			b = w[i];
	}
	cli_format_energy(lo, sizeof lo, a);
	cli_format_energy(hi, sizeof hi, b);
	printf("%s: %s .. %s\n", what, lo, hi);
}

int cli_info(int argc, char **argv)
{
	qubo_model_stats st;
	qubo_model *m = NULL;
	double *h = NULL, *w = NULL, pairs;
	uint32_t *rows = NULL, *cols = NULL;
	size_t count = 0, n, nonzero = 0, i;
	char offset[40];
	const char *path = NULL, *val;
	int32_t reduce = QUBO_REDUCE_DEFAULT;
	int reduce_given = 0, k, rc;
	cli_input in;

	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k])) {
			info_usage(stdout);
			return CLI_OK;
		}
		rc = cli_limit_flag(argc, argv, &k);
		if (rc < 0)
			return CLI_USAGE;
		if (rc)
			continue;
		rc = cli_flag(argc, argv, &k, "--reduce", &val);
		if (rc < 0)
			return CLI_USAGE;
		if (rc) {
			if (qubo_puzzle_reduce_parse(val, &reduce)) {
				cli_error("--reduce: '%s' is not none, clues or full", val);
				return CLI_USAGE;
			}
			reduce_given = 1;
		} else if (cli_operand(argv[k], "info", &path, 1)) {
			return CLI_USAGE;
		}
	}
	if (!path) {
		cli_error("no puzzle or model given (try 'qubo info --help')");
		return CLI_USAGE;
	}
	rc = cli_input_read(&in, path);
	if (rc)
		return rc;
	if (cli_input_kind(&in) == CLI_KIND_PUZZLE) {
		rc = puzzle_info(&in, reduce);
		cli_input_free(&in);
		return rc;
	}
	if (reduce_given) {
		cli_error("--reduce applies to puzzles; %s is a QUBO model", in.name);
		cli_input_free(&in);
		return CLI_USAGE;
	}
	rc = cli_input_model(&in, &m);
	cli_input_free(&in);
	if (rc)
		return rc;
	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	n = qubo_model_num_variables(m);
	qubo_model_export_coo(m, NULL, NULL, NULL, 0, &count);
	h = malloc((n ? n : 1) * sizeof *h);
	w = malloc((count ? count : 1) * sizeof *w);
	rows = malloc((count ? count : 1) * sizeof *rows);
	cols = malloc((count ? count : 1) * sizeof *cols);
	rc = !h || !w || !rows || !cols;
	if (rc || qubo_model_get_stats(m, &st) || qubo_model_export_linear(m, h, n) ||
	    qubo_model_export_coo(m, rows, cols, w, count, &count)) {
		cli_error("%s: %s", path, rc ? "out of memory" : qubo_error_message());
		rc = CLI_FAILURE;
		goto out;
	}
	for (i = 0; i < n; i++)
		nonzero += h[i] != 0;
	pairs = (double)n * ((double)n - 1) / 2;
	cli_format_energy(offset, sizeof offset, qubo_model_offset(m));
	printf("variables: %zu\n", n);
	printf("couplers: %zu\n", count);
	printf("density: %.6g\n", pairs > 0 ? (double)count / pairs : 0.0);
	printf("max degree: %zu\n", st.max_degree);
	printf("linear terms: %zu\n", nonzero);
	print_range("linear weights", h, n);
	print_range("coupler weights", w, count);
	printf("offset: %s\n", offset);
	rc = cli_flush_stdout();
out:
	free(h);
	free(w);
	free(rows);
	free(cols);
	qubo_model_free(m);
	return rc;
}
