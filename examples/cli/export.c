/*
 * `qubo export FILE -o MODEL.qubo`: a puzzle's QUBO model in qbsolv format.
 * `qubo export --qasm2|--qasm3 FILE`: the QAOA circuit of that model as an
 * OpenQASM program (qubo_qaoa_qasm()), with angles given or optimised by the
 * library's simulator (qubo_qaoa_optimize()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/qaoa.h>

#include "cli.h"

static void export_usage(FILE *f)
{
	fprintf(f, "usage: qubo export [--reduce LEVEL] FILE [-o MODEL.qubo]\n"
		"       qubo export --qasm2|--qasm3 [--p P] [--angles G1,...,GP,B1,...,BP]\n"
		"                   [--reduce LEVEL] FILE [-o CIRCUIT.qasm]\n"
		"\n"
		"Writes the QUBO model of a puzzle in qbsolv format (doc/formats.md), as\n"
		"'qubo solve' would sample it: its variables are the cells the reduction\n"
		"left open (and any auxiliary variables), in the order of the puzzle's\n"
		"cell map; its offset is on a 'c offset' line. The model's minimum is the\n"
		"energy of a solution ('qubo info' prints it). A QUBO model given as FILE\n"
		"is written back in normal form. '-' reads standard input.\n"
		"\n"
		"With --qasm2 or --qasm3 it writes instead the QAOA circuit of that model\n"
		"as an OpenQASM 2.0 or 3 program (doc/qaoa.md): qubit i is variable i and\n"
		"bit c[i] receives it, so the rightmost character of a measured bit string\n"
		"is variable 0. The angles are --angles (the depth is half their count), or\n"
		"else the library optimises those of depth --p on its state-vector\n"
		"simulator (at most %d variables; a larger model exits with status 6) and\n"
		"prints them on standard error. Either way the program's header comment\n"
		"lists them.\n"
		"\n"
		"options:\n"
		"  -o, --output PATH  the file to write; '-' (the default) is standard output\n"
		"  --reduce LEVEL     none, clues or full (the default)\n"
		"  --qasm2, --qasm3   the QAOA circuit in OpenQASM 2.0 or 3\n"
		"  --p P              the depth, 1 to %d (default 1, or half the angles)\n"
		"  --angles LIST      gamma_1,...,gamma_p,beta_1,...,beta_p: 2p finite numbers\n"
		"  -h, --help         this help\n"
		"\n%s\n%s", QUBO_QAOA_DEFAULT_MAX_QUBITS, QUBO_QAOA_MAX_DEPTH, cli_limits_help,
		cli_exit_help);
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
	rc = cli_write_stdout(text, len);
	free(text);
	return rc;
}

/* Writes text to the file at path; a failure is reported once, naming the
 * file. */
static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int ok, err;

	if (!f) {
		cli_error("cannot open %s for writing: %s", path, strerror(errno));
		return CLI_IO;
	}
	ok = fwrite(text, 1, len, f) == len && fflush(f) == 0;
	err = errno;
	if (fclose(f) && ok) {
		ok = 0;
		err = errno;
	}
	if (ok)
		return CLI_OK;
	cli_error("cannot write to %s: %s", path, strerror(err));
	return CLI_IO;
}

/* The options of a circuit export. */
typedef struct qasm_args {
	int32_t version; /* 0: a model export */
	int64_t p;       /* 0: not given */
	const char *angles;
} qasm_args;

/* --angles: 2p finite numbers separated by commas, the gammas first. */
static int parse_angles(const char *list, double *gammas, double *betas, size_t *p_out)
{
	double v[2 * QUBO_QAOA_MAX_DEPTH];
	size_t count = 0, k;
	const char *s = list;

	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		char num[64];

		if (count == 2 * QUBO_QAOA_MAX_DEPTH) {
			cli_error("--angles: more than %d numbers (depth %d at most)",
				  2 * QUBO_QAOA_MAX_DEPTH, QUBO_QAOA_MAX_DEPTH);
			return -1;
		}
		if (!len || len >= sizeof num) {
			cli_error("--angles: '%s' is not a list of numbers separated by commas",
				  list);
			return -1;
		}
		memcpy(num, s, len);
		num[len] = '\0';
		if (cli_parse_double(num, &v[count])) {
			cli_error("--angles: '%s' is not a finite number", num);
			return -1;
		}
		count++;
		if (!end)
			break;
		s = end + 1;
	}
	if (count % 2) {
		cli_error("--angles: %zu numbers; give 2p: gamma_1,...,gamma_p,beta_1,...,beta_p",
			  count);
		return -1;
	}
	*p_out = count / 2;
	for (k = 0; k < count / 2; k++) {
		gammas[k] = v[k];
		betas[k] = v[count / 2 + k];
	}
	return 0;
}

/* "a,b,c" with the fewest digits that read back. */
static void print_list(FILE *f, const double *v, size_t count)
{
	char buf[64];
	size_t k;

	for (k = 0; k < count; k++) {
		cli_format_energy(buf, sizeof buf, v[k]);
		fprintf(f, "%s%s", k ? "," : "", buf);
	}
}

/* The angles of depth p optimised by the library's simulator. */
static int optimise_angles(const qubo_model *m, size_t p, double *gammas, double *betas)
{
	qubo_qaoa *q = NULL;
	double expectation = 0.0, lowest = 0.0, prob = 0.0;
	char e1[64], e2[64];
	int rc;

	rc = qubo_qaoa_new(&q, m, 0, NULL);
	if (rc) {
		cli_error("cannot optimise the angles: %s", cli_library_message());
		return rc == QUBO_ERR_TOO_LARGE ? CLI_TOO_LARGE : cli_exit_code(rc);
	}
	rc = qubo_qaoa_optimize(q, p, 0, gammas, betas, &expectation);
	if (!rc)
		rc = qubo_qaoa_expectation(q, NULL, &prob);
	if (!rc)
		rc = qubo_qaoa_lowest_energy(q, &lowest, NULL);
	qubo_qaoa_free(q);
	if (rc)
		return cli_report("optimising the angles", rc);
	cli_format_energy(e1, sizeof e1, expectation);
	cli_format_energy(e2, sizeof e2, lowest);
	fprintf(stderr, "qubo: angles optimised for p = %zu: --angles ", p);
	print_list(stderr, gammas, p);
	fputc(',', stderr);
	print_list(stderr, betas, p);
	fprintf(stderr, "\nqubo: expected energy %s (lowest %s), probability of a lowest state %.6g\n",
		e1, e2, prob);
	return CLI_OK;
}

static int write_qasm(const qubo_model *m, const qasm_args *qa, const char *out)
{
	double gammas[QUBO_QAOA_MAX_DEPTH], betas[QUBO_QAOA_MAX_DEPTH];
	size_t p = qa->p ? (size_t)qa->p : 1, len = 0;
	char *text;
	int rc;

	if (qa->angles) {
		if (parse_angles(qa->angles, gammas, betas, &p))
			return CLI_USAGE;
		if (qa->p && (size_t)qa->p != p) {
			cli_error("--p %lld does not match the %zu angles of --angles (depth %zu)",
				  (long long)qa->p, 2 * p, p);
			return CLI_USAGE;
		}
	} else if (qubo_model_num_variables(m) == 0) {
		/* nothing to optimise: the circuit has no qubits */
		memset(gammas, 0, sizeof gammas);
		memset(betas, 0, sizeof betas);
		fprintf(stderr, "qubo: the model has no variables: the circuit has no qubits\n");
	} else if ((rc = optimise_angles(m, p, gammas, betas)) != CLI_OK) {
		return rc;
	}
	rc = qubo_qaoa_qasm(m, p, gammas, betas, qa->version, NULL, 0, &len);
	if (rc)
		return cli_report("the circuit", rc);
	text = malloc(len + 1);
	if (!text) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	rc = qubo_qaoa_qasm(m, p, gammas, betas, qa->version, text, len + 1, &len);
	if (rc) {
		free(text);
		return cli_report("the circuit", rc);
	}
	rc = strcmp(out, "-") ? write_file(out, text, len) : cli_write_stdout(text, len);
	free(text);
	return rc;
}

int cli_export(int argc, char **argv)
{
	const char *path = NULL, *out = "-", *val;
	int32_t reduce = QUBO_REDUCE_DEFAULT;
	int reduce_given = 0, k, rc;
	qasm_args qa = {0, 0, NULL};
	qubo_puzzle *p = NULL;
	qubo_model *m = NULL;
	const qubo_model *pm;
	cli_input in;

	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k])) {
			export_usage(stdout);
			return CLI_OK;
		}
		if ((rc = cli_limit_flag(argc, argv, &k)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
		} else if ((rc = cli_flag(argc, argv, &k, "-o", &val)) != 0 ||
			   (rc = cli_flag(argc, argv, &k, "--output", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			out = val;
		} else if ((rc = cli_flag(argc, argv, &k, "--reduce", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			if (qubo_puzzle_reduce_parse(val, &reduce)) {
				cli_error("--reduce: '%s' is not none, clues or full", val);
				return CLI_USAGE;
			}
			reduce_given = 1;
		} else if (!strcmp(argv[k], "--qasm2") || !strcmp(argv[k], "--qasm3")) {
			int32_t v = argv[k][6] == '2' ? QUBO_QASM_2 : QUBO_QASM_3;

			if (qa.version && qa.version != v) {
				cli_error("--qasm2 and --qasm3 exclude each other");
				return CLI_USAGE;
			}
			qa.version = v;
		} else if ((rc = cli_flag(argc, argv, &k, "--p", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			if (cli_parse_int(val, 1, QUBO_QAOA_MAX_DEPTH, &qa.p)) {
				cli_error("--p: '%s' is not a depth from 1 to %d", val,
					  QUBO_QAOA_MAX_DEPTH);
				return CLI_USAGE;
			}
		} else if ((rc = cli_flag(argc, argv, &k, "--angles", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			qa.angles = val;
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
	if (!qa.version && (qa.p || qa.angles)) {
		cli_error("--p and --angles apply to the circuit: add --qasm2 or --qasm3");
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
				rc = qa.version ? write_qasm(m, &qa, out) : write_model(m, out);
		}
	} else {
		rc = cli_input_puzzle(&in, reduce, &p);
		if (!rc) {
			qubo_puzzle_model(p, &pm);
			rc = qa.version ? write_qasm(pm, &qa, out) : write_model(pm, out);
		}
	}
	qubo_model_free(m);
	qubo_puzzle_free(p);
	cli_input_free(&in);
	return rc;
}
