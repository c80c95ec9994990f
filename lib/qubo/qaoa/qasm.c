/*
 * The QAOA circuit of a model as an OpenQASM 2.0 or 3 program
 * (qubo_qaoa_qasm(); doc/qaoa.md has the conventions and the derivation).
 *
 * With the spins s_i = 2x_i − 1 = −Z_i of qubo_model_to_ising(), the cost
 * operator is C = offset − Σ h_i Z_i + Σ_{i<j} J_ij Z_i Z_j, so that
 *
 *   e^{−iγC} = e^{−iγ·offset} · Π_i Rz(−2γ h_i)_i · Π_{i<j} e^{−iγ J_ij Z_i Z_j},
 *
 * with Rz(θ) = e^{−iθZ/2}, and e^{−iγ J Z_i Z_j} = CX_ij · Rz(2γJ)_j · CX_ij
 * (the CX maps Z_j to Z_i Z_j and back). The mixer e^{−iβ Σ X_i} is Rx(2β)
 * on every qubit. The program is written in one pass into the caller's
 * buffer: the bytes that fit are stored and all of them are counted.
 *
 * Angles are printed with the fewest significant digits (15 to 17) that
 * read back to the same double, always with a decimal point (OpenQASM 2's
 * real literals need one before an exponent: 1.0e-05), in the C locale
 * whatever the caller's locale (number.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "sink.h"
#include "qaoa_impl.h"

/* Room for one formatted angle: sign, 17 digits, point, exponent. */
#define NUM_SIZE 40

/* ------------------------------------------------------------------ */
/* Output. */

/*
 * v (finite) with the fewest significant digits from 15 to 17 that read back
 * to the same double (qubo__number_format_g()), with a decimal point before
 * any exponent: 0.5, -2.0, 1.0e-05, 2.5e+20. Zero of either sign is "0.0".
 * Returns the length.
 */
static size_t fmt_angle(char *out, double v)
{
	char tmp[QUBO__NUMBER_SIZE];
	size_t len, i, e;

	if (v == 0.0) {
		memcpy(out, "0.0", 4);
		return 3;
	}
	qubo__number_format_g(tmp, v);
	len = strlen(tmp);
	if (strchr(tmp, '.')) {
		memcpy(out, tmp, len + 1);
		return len;
	}
	/* no point: "2" -> "2.0", "1e-05" -> "1.0e-05" */
	for (e = 0; e < len && tmp[e] != 'e'; e++)
		;
	for (i = 0; i < e; i++)
		out[i] = tmp[i];
	out[e] = '.';
	out[e + 1] = '0';
	memcpy(out + e + 2, tmp + e, len - e + 1);
	return len + 2;
}

static void put_angle(qubo__sink *s, double v)
{
	char num[NUM_SIZE];

	qubo__sink_put(s, num, fmt_angle(num, v));
}

/* The angle list of the header comment: "a, b, c". */
static void put_angles(qubo__sink *s, const double *a, size_t p)
{
	size_t k;

	for (k = 0; k < p; k++) {
		if (k)
			qubo__sink_puts(s, ", ");
		put_angle(s, a[k]);
	}
}

/* The model in its Ising form. */
typedef struct ising {
	size_t n, count, fields;
	double *h, *j, offset;
	uint32_t *rows, *cols;
} ising;

static void emit(qubo__sink *s, const ising *is, size_t p, const double *gammas,
		 const double *betas, int32_t version)
{
	size_t n = is->n, i, k, c;

	if (version == QUBO_QASM_2)
		qubo__sink_puts(s, "OPENQASM 2.0;\ninclude \"qelib1.inc\";\n");
	else
		qubo__sink_puts(s, "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n");
	qubo__sink_printf(
		s,
		"// QAOA circuit written by libqubo: a model of %zu variable%s (qubit%s), %zu "
		"Ising field%s and %zu coupling%s, depth p = %zu\n",
		n, n == 1 ? "" : "s", n == 1 ? "" : "s", is->fields, is->fields == 1 ? "" : "s",
		is->count, is->count == 1 ? "" : "s", p);
	qubo__sink_puts(s, "// gamma = [");
	put_angles(s, gammas, p);
	qubo__sink_puts(s, "]\n// beta = [");
	put_angles(s, betas, p);
	qubo__sink_puts(s, "]\n");
	if (n == 0) {
		qubo__sink_puts(s, "// The model has no variables: the circuit has no qubits.\n");
	} else {
		qubo__sink_puts(
			s,
			"// Qubit q[i] is variable x_i (|1> is x_i = 1) and bit c[i] receives x_i.\n"
			"// Tools print c[n-1] first: the rightmost character of a bit string is "
			"x_0.\n");
	}
	qubo__sink_puts(
		s, "// The global phase is dropped: e^(-i gamma offset) per layer and the phases "
		   "of the gate definitions.\n");
	if (n == 0)
		return;
	if (version == QUBO_QASM_2)
		qubo__sink_printf(s, "qreg q[%zu];\ncreg c[%zu];\n", n, n);
	else
		qubo__sink_printf(s, "qubit[%zu] q;\nbit[%zu] c;\n", n, n);
	for (i = 0; i < n; i++)
		qubo__sink_printf(s, "h q[%zu];\n", i);
	for (k = 0; k < p; k++) {
		double g = gammas[k], b = betas[k];

		qubo__sink_printf(s, "// layer %zu: cost, gamma = ", k + 1);
		put_angle(s, g);
		qubo__sink_puts(s, "\n");
		for (i = 0; i < n; i++) {
			if (is->h[i] == 0.0)
				continue;
			qubo__sink_puts(s, "rz(");
			put_angle(s, -2.0 * g * is->h[i]);
			qubo__sink_printf(s, ") q[%zu];\n", i);
		}
		for (c = 0; c < is->count; c++) {
			if (is->j[c] == 0.0)
				continue;
			qubo__sink_printf(s, "cx q[%u],q[%u];\nrz(", (unsigned)is->rows[c],
					  (unsigned)is->cols[c]);
			put_angle(s, 2.0 * g * is->j[c]);
			qubo__sink_printf(s, ") q[%u];\ncx q[%u],q[%u];\n", (unsigned)is->cols[c],
					  (unsigned)is->rows[c], (unsigned)is->cols[c]);
		}
		qubo__sink_printf(s, "// layer %zu: mixer, beta = ", k + 1);
		put_angle(s, b);
		qubo__sink_puts(s, "\n");
		for (i = 0; i < n; i++) {
			qubo__sink_puts(s, "rx(");
			put_angle(s, 2.0 * b);
			qubo__sink_printf(s, ") q[%zu];\n", i);
		}
	}
	for (i = 0; i < n; i++) {
		if (version == QUBO_QASM_2)
			qubo__sink_printf(s, "measure q[%zu] -> c[%zu];\n", i, i);
		else
			qubo__sink_printf(s, "c[%zu] = measure q[%zu];\n", i, i);
	}
}

/* ------------------------------------------------------------------ */
/* The Ising form. */

static void ising_free(const qubo_allocator *a, ising *is)
{
	qubo__free(a, is->h);
	qubo__free(a, is->j);
	qubo__free(a, is->rows);
	qubo__free(a, is->cols);
}

static int ising_read(const qubo_model *m, ising *is)
{
	const qubo_allocator *a = &m->alloc;
	size_t count = m->nnz / 2, got = 0, i;
	int rc;

	memset(is, 0, sizeof *is);
	is->n = m->n;
	is->h = qubo__malloc_array(a, m->n, sizeof *is->h);
	is->j = qubo__malloc_array(a, count, sizeof *is->j);
	is->rows = qubo__malloc_array(a, count, sizeof *is->rows);
	is->cols = qubo__malloc_array(a, count, sizeof *is->cols);
	if (!is->h || !is->j || !is->rows || !is->cols) {
		ising_free(a, is);
		return qubo__nomem("the Ising form of the model");
	}
	rc = qubo_model_to_ising(m, is->h, m->n, is->rows, is->cols, is->j, count, &got,
				 &is->offset);
	if (rc) {
		ising_free(a, is);
		return rc;
	}
	is->count = got;
	for (i = 0; i < m->n; i++)
		is->fields += is->h[i] != 0.0;
	return QUBO_OK;
}

/* ------------------------------------------------------------------ */

int qubo_qaoa_qasm(const qubo_model *model, size_t p, const double *gammas, const double *betas,
		   int32_t version, char *buffer, size_t capacity, size_t *length_out)
{
	static const char fn[] = "qubo_qaoa_qasm";
	ising is;
	qubo__sink s;
	int rc;

	if (length_out)
		*length_out = 0;
	if ((rc = qubo__model_require_bounded(model, fn)))
		return rc;
	if (!buffer && capacity)
		return qubo__error(QUBO_ERR_MISUSE, "%s: buffer is NULL with capacity %zu", fn,
				   capacity);
	if (version != QUBO_QASM_2 && version != QUBO_QASM_3)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "%s: version %ld is neither QUBO_QASM_2 (2) nor QUBO_QASM_3 (3)",
				   fn, (long)version);
	if (p > QUBO_QAOA_MAX_DEPTH)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: depth p = %zu is above %d", fn, p,
				   QUBO_QAOA_MAX_DEPTH);
	if ((rc = qubo__qaoa_check_angles(fn, qubo__model_weight_sum(model), p, gammas,
					  betas)))
		return rc;
	if ((rc = qubo__c_locale(fn)))
		return rc;
	if ((rc = ising_read(model, &is)))
		return rc;
	qubo__sink_buffer(&s, buffer, capacity);
	emit(&s, &is, p, gammas, betas, version);
	ising_free(&model->alloc, &is);
	return qubo__sink_finish(&s, fn, "program", length_out);
}
