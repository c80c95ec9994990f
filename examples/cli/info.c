/* `qubo info MODEL.qubo`: figures of a model on standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void info_usage(FILE *f)
{
	fprintf(f, "usage: qubo info MODEL.qubo\n"
		"\n"
		"Prints the figures of a QUBO model in qbsolv format ('-' reads standard\n"
		"input): variables, couplers, degrees, weight ranges and the offset.\n");
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
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		info_usage(stdout);
		return CLI_OK;
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1])) {
		info_usage(stderr);
		return CLI_USAGE;
	}
	rc = cli_read_model(argv[1], &m);
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
		cli_error("%s: %s", argv[1], rc ? "out of memory" : qubo_error_message());
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
	rc = CLI_OK;
out:
	free(h);
	free(w);
	free(rows);
	free(cols);
	qubo_model_free(m);
	return rc;
}
