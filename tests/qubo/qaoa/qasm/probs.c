/*
 * qasm_probs: our side of the independent-simulator check (compare.js).
 *
 *   qasm_probs MODEL.qubo G1,...,GP,B1,...,BP CIRCUIT.qasm
 *
 * Reads a qbsolv model, writes its QAOA circuit with these angles as an
 * OpenQASM 2.0 program (qubo_qaoa_qasm()) to CIRCUIT.qasm, and prints the
 * outcome probabilities of the same state from the library's simulator
 * (qubo_qaoa_evolve(), qubo_qaoa_probabilities()) on standard output: 2^n
 * lines, line x being the probability of the basis state x (bit i of x is
 * variable i), with 17 significant digits. An empty angle list is depth 0.
 * Exit status 0, or 1 with a message on standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo.h>

static int fail(const char *what)
{
	fprintf(stderr, "qasm_probs: %s: %s\n", what, qubo_error_message());
	return 1;
}

/* "g1,...,gp,b1,...,bp" into gammas and betas; returns p, or -1. */
static long parse_angles(const char *s, double *gammas, double *betas)
{
	double v[2 * QUBO_QAOA_MAX_DEPTH];
	size_t count = 0, k;
	char *end;

	while (*s) {
		if (count == 2 * QUBO_QAOA_MAX_DEPTH)
			return -1;
		v[count++] = strtod(s, &end);
		if (end == s || (*end && *end != ','))
			return -1;
		s = *end ? end + 1 : end;
	}
	if (count % 2)
		return -1;
	for (k = 0; k < count / 2; k++) {
		gammas[k] = v[k];
		betas[k] = v[count / 2 + k];
	}
	return (long)(count / 2);
}

int main(int argc, char **argv)
{
	double gammas[QUBO_QAOA_MAX_DEPTH], betas[QUBO_QAOA_MAX_DEPTH], *probs;
	qubo_model *m = NULL;
	qubo_qaoa *q = NULL;
	size_t n, dim, len = 0, x;
	long p;
	char *text;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: qasm_probs MODEL.qubo G1,...,GP,B1,...,BP CIRCUIT.qasm\n");
		return 2;
	}
	p = parse_angles(argv[2], gammas, betas);
	if (p < 0) {
		fprintf(stderr, "qasm_probs: '%s' is not a list of 2p numbers\n", argv[2]);
		return 2;
	}
	if (qubo_qbsolv_read_file_ex(&m, argv[1], NULL))
		return fail(argv[1]);
	n = qubo_model_num_variables(m);

	if (qubo_qaoa_qasm(m, (size_t)p, gammas, betas, QUBO_QASM_2, NULL, 0, &len))
		return fail("qubo_qaoa_qasm");
	text = malloc(len + 1);
	if (!text || qubo_qaoa_qasm(m, (size_t)p, gammas, betas, QUBO_QASM_2, text, len + 1,
				    NULL))
		return fail("qubo_qaoa_qasm");
	f = fopen(argv[3], "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "qasm_probs: cannot write %s\n", argv[3]);
		return 1;
	}
	free(text);

	if (qubo_qaoa_new(&q, m, 0, NULL))
		return fail("qubo_qaoa_new");
	if (qubo_qaoa_evolve(q, (size_t)p, gammas, betas))
		return fail("qubo_qaoa_evolve");
	dim = (size_t)1 << n;
	probs = malloc(dim * sizeof *probs);
	if (!probs || qubo_qaoa_probabilities(q, probs, dim))
		return fail("qubo_qaoa_probabilities");
	for (x = 0; x < dim; x++)
		printf("%.17g\n", probs[x]);
	free(probs);
	qubo_qaoa_free(q);
	qubo_model_free(m);
	return fflush(stdout) ? 1 : 0;
}
