/*
 * qubo_qaoa_qasm(): the OpenQASM programs of the QAOA circuit.
 *
 * The referees:
 * - a hand-derived program of a three-variable model (the Ising fields and
 *   couplings worked out in the comment), in both versions;
 * - a strict reader in this file of the statements the programs may use
 *   (each version's own declarations, measurement and literal grammar), and
 *   the gate list expected from the Ising form that this file computes from
 *   the model's coefficients itself (small dyadic weights, so every value
 *   is exact and every printed angle must read back to the same double);
 * - a small state-vector simulator in this file that runs the program read
 *   back (qelib1's rz = u1 for version 2, stdgates' rz for version 3),
 *   compared with the QAOA state computed directly: e^{−iγE(x)} on each
 *   basis state, with E from qubo_model_energy(), and e^{−iβX} on each
 *   qubit. They must agree up to a global phase, to 1e-12.
 */
#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/qaoa.h>

#include "util.h"

/* ------------------------------------------------------------------ */
/* Models. */

#define MAXN 7

/* A model's coefficients, kept by the test: linear a_i, couplers b_ij
 * (i < j), offset. */
typedef struct coeffs {
	size_t n;
	double a[MAXN];
	double b[MAXN][MAXN];
	double offset;
} coeffs;

static qubo_model *build(const coeffs *c)
{
	qubo_model *m = NULL;
	size_t i, j;

	cr_assert_eq(qubo_model_new(&m, c->n, NULL), QUBO_OK);
	for (i = 0; i < c->n; i++)
		if (c->a[i] != 0.0)
			cr_assert_eq(qubo_model_add_linear(m, (uint32_t)i, c->a[i]), QUBO_OK);
	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n; j++)
			if (c->b[i][j] != 0.0)
				cr_assert_eq(qubo_model_add_quadratic(m, (uint32_t)i, (uint32_t)j,
								      c->b[i][j]),
					     QUBO_OK);
	if (c->offset != 0.0)
		qubo_model_add_offset(m, c->offset);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK, "%s", qubo_error_message());
	return m;
}

/* The Ising form with s = 2x − 1, by this file's own formula:
 * a x_i = a/2 + (a/2) s_i and b x_i x_j = b/4 (1 + s_i + s_j + s_i s_j). */
static void ising_of(const coeffs *c, double *h, double J[MAXN][MAXN])
{
	size_t i, j;

	for (i = 0; i < c->n; i++) {
		h[i] = c->a[i] / 2.0;
		for (j = 0; j < c->n; j++) {
			double b = i < j ? c->b[i][j] : c->b[j][i];

			if (i != j)
				h[i] += b / 4.0;
		}
	}
	for (i = 0; i < c->n; i++)
		for (j = 0; j < c->n; j++)
			J[i][j] = i < j ? c->b[i][j] / 4.0 : 0.0;
}

/* ------------------------------------------------------------------ */
/* Programs. */

static char *qasm(const qubo_model *m, size_t p, const double *g, const double *b, int32_t ver)
{
	size_t len = 0, len2 = 0;
	char *text;
	int rc = qubo_qaoa_qasm(m, p, g, b, ver, NULL, 0, &len);

	cr_assert_eq(rc, QUBO_OK, "size query: %d %s", rc,
		     qubo_error_message());
	cr_assert_gt(len, 0);
	text = malloc(len + 1);
	cr_assert_not_null(text);
	rc = qubo_qaoa_qasm(m, p, g, b, ver, text, len + 1, &len2);
	cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(len2, len);
	cr_assert_eq(strlen(text), len);
	return text;
}

enum { OP_H, OP_RZ, OP_RX, OP_CX };

typedef struct op {
	int kind;
	size_t a, b; /* qubits: a (target of one-qubit gates), cx a -> b */
	double angle;
} op;

typedef struct prog {
	size_t nq;
	op *ops;
	size_t num_ops;
	size_t measured; /* measurements read, in order q[i] -> c[i] */
	size_t comments;
} prog;

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A non-negative integer literal (0 or no leading zero) at *s; advances. */
static int read_index(const char **s, size_t *out)
{
	const char *p = *s;
	size_t v = 0;

	if (!is_digit(*p) || (p[0] == '0' && is_digit(p[1])))
		return 0;
	for (; is_digit(*p); p++)
		v = v * 10 + (size_t)(*p - '0');
	*out = v;
	*s = p;
	return 1;
}

/* An angle: '-'? then OpenQASM 2's real, [0-9]+ '.' [0-9]* ([eE][-+]?[0-9]+)?,
 * which OpenQASM 3's float literals accept as well. At most 17 significant
 * digits. Advances past it and sets *out with strtod in the C locale. */
static int read_real(const char **s, double *out)
{
	const char *p = *s, *start = *s;
	char buf[64];
	size_t sig = 0, len;
	int leading = 1;

	if (*p == '-')
		p++;
	if (!is_digit(*p))
		return 0;
	for (; is_digit(*p) || *p == '.'; p++) {
		if (*p == '.') {
			if (strchr(start, '.') != p)
				return 0;
			continue;
		}
		if (*p != '0')
			leading = 0;
		if (!leading)
			sig++;
	}
	if (!memchr(start, '.', (size_t)(p - start)))
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!is_digit(*p))
			return 0;
		while (is_digit(*p))
			p++;
	}
	cr_assert_leq(sig, 17, "more than 17 significant digits: %.*s", (int)(p - start), start);
	len = (size_t)(p - start);
	cr_assert_lt(len, sizeof buf);
	memcpy(buf, start, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	*s = p;
	return 1;
}

/* The literal word w at *s; advances. */
static int lit(const char **s, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*s, w, n))
		return 0;
	*s += n;
	return 1;
}

/* "q[I]" with I < nq (reg is "q" or "c"). */
static int reg_index(const char **s, const char *reg, size_t nq, size_t *out)
{
	return lit(s, reg) && lit(s, "[") && read_index(s, out) && lit(s, "]") && *out < nq;
}

/*
 * Reads a program strictly: the version line, the include, the two register
 * declarations (absent only when there are no qubits), then gates, then one
 * measurement per qubit in order, q[i] into c[i]. Comments are whole lines
 * starting with "//". Every statement is on a line of its own. Fails the
 * test on anything else.
 */
static void parse(const char *text, int32_t ver, prog *out)
{
	const char *line = text;
	size_t lineno = 0, cap = 0, stage = 0;

	memset(out, 0, sizeof *out);
	cr_assert(setlocale(LC_NUMERIC, NULL) && !strcmp(setlocale(LC_NUMERIC, NULL), "C"));
	while (*line) {
		const char *end = strchr(line, '\n'), *s = line;
		char st[256];
		size_t len, i, j;
		double a;

		cr_assert_not_null(end, "the program ends without a newline");
		len = (size_t)(end - line);
		lineno++;
		cr_assert_lt(len, sizeof st, "line %zu is too long", lineno);
		memcpy(st, line, len);
		st[len] = '\0';
		line = end + 1;
		s = st;
		for (i = 0; i < len; i++)
			cr_assert((unsigned char)st[i] >= 32 && (unsigned char)st[i] < 127,
				  "line %zu: not printable ASCII: %s", lineno, st);
		if (lit(&s, "//")) {
			out->comments++;
			continue;
		}
		cr_assert(len > 0 && st[len - 1] == ';', "line %zu: no ';': %s", lineno, st);
		st[len - 1] = '\0';
		if (stage == 0) {
			cr_assert_str_eq(st, ver == QUBO_QASM_2 ? "OPENQASM 2.0" : "OPENQASM 3.0");
			stage = 1;
			continue;
		}
		if (stage == 1) {
			cr_assert_str_eq(st, ver == QUBO_QASM_2 ? "include \"qelib1.inc\""
								: "include \"stdgates.inc\"");
			stage = 2;
			continue;
		}
		if (stage == 2) {
			/* the quantum register, then the classical one */
			if (ver == QUBO_QASM_2) {
				cr_assert(lit(&s, "qreg q[") && read_index(&s, &out->nq) &&
						  lit(&s, "]") && !*s,
					  "line %zu: %s", lineno, st);
			} else {
				cr_assert(lit(&s, "qubit[") && read_index(&s, &out->nq) &&
						  lit(&s, "] q") && !*s,
					  "line %zu: %s", lineno, st);
			}
			cr_assert_gt(out->nq, 0, "an empty register");
			stage = 3;
			continue;
		}
		if (stage == 3) {
			if (ver == QUBO_QASM_2)
				cr_assert(lit(&s, "creg c[") && read_index(&s, &i) && lit(&s, "]") &&
						  !*s && i == out->nq,
					  "line %zu: %s", lineno, st);
			else
				cr_assert(lit(&s, "bit[") && read_index(&s, &i) && lit(&s, "] c") &&
						  !*s && i == out->nq,
					  "line %zu: %s", lineno, st);
			stage = 4;
			continue;
		}
		/* stage 4: gates and measurements */
		if (ver == QUBO_QASM_2 ? lit(&s, "measure ") : lit(&s, "c[")) {
			if (ver == QUBO_QASM_2)
				cr_assert(reg_index(&s, "q", out->nq, &i) && lit(&s, " -> ") &&
						  reg_index(&s, "c", out->nq, &j) && !*s,
					  "line %zu: %s", lineno, st);
			else
				cr_assert(read_index(&s, &j) && lit(&s, "] = measure ") &&
						  reg_index(&s, "q", out->nq, &i) && !*s && j < out->nq,
					  "line %zu: %s", lineno, st);
			cr_assert(i == out->measured && j == i,
				  "line %zu: measurement out of order: %s", lineno, st);
			out->measured++;
			continue;
		}
		cr_assert_eq(out->measured, 0, "line %zu: a gate after a measurement: %s", lineno,
			     st);
		if (out->num_ops == cap) {
			cap = cap ? 2 * cap : 64;
			out->ops = realloc(out->ops, cap * sizeof *out->ops);
			cr_assert_not_null(out->ops);
		}
		{
			op *o = &out->ops[out->num_ops++];

			memset(o, 0, sizeof *o);
			if (lit(&s, "h ")) {
				o->kind = OP_H;
				cr_assert(reg_index(&s, "q", out->nq, &o->a) && !*s, "line %zu: %s",
					  lineno, st);
			} else if (lit(&s, "rz(") || lit(&s, "rx(")) {
				o->kind = st[1] == 'z' ? OP_RZ : OP_RX;
				cr_assert(read_real(&s, &a) && lit(&s, ") ") &&
						  reg_index(&s, "q", out->nq, &o->a) && !*s,
					  "line %zu: %s", lineno, st);
				o->angle = a;
			} else if (lit(&s, "cx ")) {
				o->kind = OP_CX;
				cr_assert(reg_index(&s, "q", out->nq, &o->a) && lit(&s, ",") &&
						  reg_index(&s, "q", out->nq, &o->b) && !*s &&
						  o->a != o->b,
					  "line %zu: %s", lineno, st);
			} else {
				cr_assert_fail("line %zu: not a statement of these programs: %s",
					       lineno, st);
			}
		}
	}
	cr_assert_geq(stage, 2, "no version line or include");
	cr_assert_eq(out->measured, out->nq, "%zu of %zu qubits measured", out->measured,
		     out->nq);
}

/* The gate list the program must have, from this file's Ising form. */
static op *expected_ops(const coeffs *c, size_t p, const double *g, const double *b,
			size_t *count)
{
	double h[MAXN], J[MAXN][MAXN];
	size_t n = c->n, cap = n + p * (n + 3 * n * n + n), k, i, j, t = 0;
	op *ops = calloc(cap ? cap : 1, sizeof *ops);

	cr_assert_not_null(ops);
	ising_of(c, h, J);
	for (i = 0; i < n; i++)
		ops[t++] = (op){OP_H, i, 0, 0.0};
	for (k = 0; k < p; k++) {
		for (i = 0; i < n; i++)
			if (h[i] != 0.0)
				ops[t++] = (op){OP_RZ, i, 0, -2.0 * g[k] * h[i]};
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				if (J[i][j] == 0.0)
					continue;
				ops[t++] = (op){OP_CX, i, j, 0.0};
				ops[t++] = (op){OP_RZ, j, 0, 2.0 * g[k] * J[i][j]};
				ops[t++] = (op){OP_CX, i, j, 0.0};
			}
		for (i = 0; i < n; i++)
			ops[t++] = (op){OP_RX, i, 0, 2.0 * b[k]};
	}
	*count = t;
	return ops;
}

static void expect_ops(const prog *pr, const op *want, size_t count)
{
	size_t t;

	cr_assert_eq(pr->num_ops, count, "%zu gates, expected %zu", pr->num_ops, count);
	for (t = 0; t < count; t++) {
		const op *a = &pr->ops[t], *w = &want[t];

		cr_assert(a->kind == w->kind && a->a == w->a && a->b == w->b,
			  "gate %zu: kind %d on %zu,%zu, expected kind %d on %zu,%zu", t, a->kind,
			  a->a, a->b, w->kind, w->a, w->b);
		/* the printed angle reads back to the same double (zero of
		 * either sign prints as 0.0) */
		cr_assert(a->angle == w->angle, "gate %zu: angle %.17g, expected %.17g", t,
			  a->angle, w->angle);
	}
}

/* ------------------------------------------------------------------ */
/* State vectors: re, im pairs. */

typedef struct cplx {
	double re, im;
} cplx;

static cplx cmul(cplx a, cplx b)
{
	return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/* The 2 x 2 matrix u on qubit q. */
static void apply1(cplx *psi, size_t n, size_t q, cplx u[2][2])
{
	size_t x, bit = (size_t)1 << q;

	for (x = 0; x < ((size_t)1 << n); x++) {
		cplx a0, a1;

		if (x & bit)
			continue;
		a0 = psi[x];
		a1 = psi[x | bit];
		psi[x] = (cplx){cmul(u[0][0], a0).re + cmul(u[0][1], a1).re,
				cmul(u[0][0], a0).im + cmul(u[0][1], a1).im};
		psi[x | bit] = (cplx){cmul(u[1][0], a0).re + cmul(u[1][1], a1).re,
				      cmul(u[1][0], a0).im + cmul(u[1][1], a1).im};
	}
}

static void apply_rx(cplx *psi, size_t n, size_t q, double theta)
{
	double c = cos(theta / 2.0), s = sin(theta / 2.0);
	cplx u[2][2] = {{{c, 0.0}, {0.0, -s}}, {{0.0, -s}, {c, 0.0}}};

	apply1(psi, n, q, u);
}

/* Runs the program read back from |0...0>. */
static cplx *run_program(const prog *pr, int32_t ver)
{
	size_t n = pr->nq, dim = (size_t)1 << n, t, x;
	cplx *psi = calloc(dim, sizeof *psi);
	const double r = sqrt(0.5);
	cplx hm[2][2] = {{{r, 0.0}, {r, 0.0}}, {{r, 0.0}, {-r, 0.0}}};

	cr_assert_not_null(psi);
	psi[0].re = 1.0;
	for (t = 0; t < pr->num_ops; t++) {
		const op *o = &pr->ops[t];

		switch (o->kind) {
		case OP_H:
			apply1(psi, n, o->a, hm);
			break;
		case OP_RX:
			apply_rx(psi, n, o->a, o->angle);
			break;
		case OP_RZ: {
			/* qelib1.inc: rz(φ) = u1(φ) = diag(1, e^{iφ});
			 * stdgates.inc: diag(e^{−iφ/2}, e^{iφ/2}) */
			double l = o->angle;
			cplx u[2][2] = {{{1.0, 0.0}, {0.0, 0.0}}, {{0.0, 0.0}, {cos(l), sin(l)}}};

			if (ver == QUBO_QASM_3) {
				u[0][0] = (cplx){cos(l / 2), -sin(l / 2)};
				u[1][1] = (cplx){cos(l / 2), sin(l / 2)};
			}
			apply1(psi, n, o->a, u);
			break;
		}
		case OP_CX:
			for (x = 0; x < dim; x++) {
				size_t ca = (size_t)1 << o->a, tb = (size_t)1 << o->b;

				if ((x & ca) && !(x & tb)) {
					cplx tmp = psi[x];

					psi[x] = psi[x | tb];
					psi[x | tb] = tmp;
				}
			}
			break;
		default:
			cr_assert_fail("unknown gate");
		}
	}
	return psi;
}

/* The QAOA state by its definition: |+>^n, then per layer e^{−iγE(x)} on
 * each basis state and e^{−iβX} = Rx(2β) on each qubit. */
static cplx *qaoa_direct(const qubo_model *m, size_t n, size_t p, const double *g,
			 const double *b)
{
	size_t dim = (size_t)1 << n, x, i, k;
	cplx *psi = calloc(dim, sizeof *psi);
	double *e = calloc(dim, sizeof *e);
	uint8_t bits[MAXN];

	cr_assert(psi && e);
	for (x = 0; x < dim; x++) {
		for (i = 0; i < n; i++)
			bits[i] = (uint8_t)((x >> i) & 1);
		cr_assert_eq(qubo_model_energy(m, bits, n, &e[x]), QUBO_OK);
		psi[x].re = 1.0 / sqrt((double)dim);
	}
	for (k = 0; k < p; k++) {
		for (x = 0; x < dim; x++)
			psi[x] = cmul(psi[x], (cplx){cos(g[k] * e[x]), -sin(g[k] * e[x])});
		for (i = 0; i < n; i++)
			apply_rx(psi, n, i, 2.0 * b[k]);
	}
	free(e);
	return psi;
}

/* The two states are equal up to a global phase: |<a|b>| = 1 and equal
 * probabilities. */
static void expect_same_state(const cplx *a, const cplx *b, size_t n, const char *what)
{
	size_t x, dim = (size_t)1 << n;
	double re = 0.0, im = 0.0, worst = 0.0;

	for (x = 0; x < dim; x++) {
		double pa = a[x].re * a[x].re + a[x].im * a[x].im;
		double pb = b[x].re * b[x].re + b[x].im * b[x].im;

		if (fabs(pa - pb) > worst)
			worst = fabs(pa - pb);
		re += a[x].re * b[x].re + a[x].im * b[x].im;
		im += a[x].re * b[x].im - a[x].im * b[x].re;
	}
	cr_assert_lt(worst, 1e-12, "%s: probabilities differ by %g", what, worst);
	cr_assert_lt(fabs(sqrt(re * re + im * im) - 1.0), 1e-12, "%s: |<a|b>| = %.15g", what,
		     sqrt(re * re + im * im));
}

/* ------------------------------------------------------------------ */
/* The tiny model, by hand. */

/*
 * E = x0 − x1 + 2 x0 x1 − x1 x2 + 3. With x = (1 + s)/2:
 *   h_0 = 1/2 + 2/4 = 1, h_1 = −1/2 + (2 − 1)/4 = −1/4, h_2 = −1/4,
 *   J_01 = 2/4 = 1/2, J_12 = −1/4.
 * Layer 1 (γ = 1/2, β = 1/8): rz(−2γh) = −1, 1/4, 1/4; rz(2γJ) = 1/2, −1/4;
 * rx(2β) = 1/4. Layer 2 (γ = 1e-5, β = −3e20): −2e-5, 5e-6, 5e-6; 1e-5,
 * −5e-6; rx(−6e20).
 */
static qubo_model *tiny(void)
{
	coeffs c;

	memset(&c, 0, sizeof c);
	c.n = 3;
	c.a[0] = 1.0;
	c.a[1] = -1.0;
	c.b[0][1] = 2.0;
	c.b[1][2] = -1.0;
	c.offset = 3.0;
	return build(&c);
}

static const double tiny_g[2] = {0.5, 1e-5}, tiny_b[2] = {0.125, -3e20};

#define TINY_HEAD(v, inc)                                                                          \
	"OPENQASM " v ";\n"                                                                        \
	"include \"" inc "\";\n"                                                                   \
	"// QAOA circuit written by libqubo: a model of 3 variables (qubits), 3 Ising fields "    \
	"and 2 couplings, depth p = 2\n"                                                           \
	"// gamma = [0.5, 1.0e-05]\n"                                                              \
	"// beta = [0.125, -3.0e+20]\n"                                                            \
	"// Qubit q[i] is variable x_i (|1> is x_i = 1) and bit c[i] receives x_i.\n"             \
	"// Tools print c[n-1] first: the rightmost character of a bit string is x_0.\n"          \
	"// The global phase is dropped: e^(-i gamma offset) per layer and the phases of the "    \
	"gate definitions.\n"

#define TINY_GATES                                                                                 \
	"h q[0];\nh q[1];\nh q[2];\n"                                                              \
	"// layer 1: cost, gamma = 0.5\n"                                                          \
	"rz(-1.0) q[0];\nrz(0.25) q[1];\nrz(0.25) q[2];\n"                                         \
	"cx q[0],q[1];\nrz(0.5) q[1];\ncx q[0],q[1];\n"                                            \
	"cx q[1],q[2];\nrz(-0.25) q[2];\ncx q[1],q[2];\n"                                          \
	"// layer 1: mixer, beta = 0.125\n"                                                        \
	"rx(0.25) q[0];\nrx(0.25) q[1];\nrx(0.25) q[2];\n"                                         \
	"// layer 2: cost, gamma = 1.0e-05\n"                                                      \
	"rz(-2.0e-05) q[0];\nrz(5.0e-06) q[1];\nrz(5.0e-06) q[2];\n"                               \
	"cx q[0],q[1];\nrz(1.0e-05) q[1];\ncx q[0],q[1];\n"                                        \
	"cx q[1],q[2];\nrz(-5.0e-06) q[2];\ncx q[1],q[2];\n"                                       \
	"// layer 2: mixer, beta = -3.0e+20\n"                                                     \
	"rx(-6.0e+20) q[0];\nrx(-6.0e+20) q[1];\nrx(-6.0e+20) q[2];\n"

static const char tiny_qasm2[] = TINY_HEAD("2.0", "qelib1.inc") "qreg q[3];\ncreg c[3];\n" TINY_GATES
	"measure q[0] -> c[0];\nmeasure q[1] -> c[1];\nmeasure q[2] -> c[2];\n";

static const char tiny_qasm3[] = TINY_HEAD("3.0", "stdgates.inc") "qubit[3] q;\nbit[3] c;\n" TINY_GATES
	"c[0] = measure q[0];\nc[1] = measure q[1];\nc[2] = measure q[2];\n";

Test(qasm, tiny_model_exact_text_version_2)
{
	qubo_model *m = tiny();
	char *text = qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2);

	cr_assert_str_eq(text, tiny_qasm2);
	free(text);
	qubo_model_free(m);
}

Test(qasm, tiny_model_exact_text_version_3)
{
	qubo_model *m = tiny();
	char *text = qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_3);

	cr_assert_str_eq(text, tiny_qasm3);
	free(text);
	qubo_model_free(m);
}

/* Depth 0: the Hadamards and the measurements only. */
Test(qasm, depth_zero)
{
	qubo_model *m = tiny();
	char *text = qasm(m, 0, NULL, NULL, QUBO_QASM_2);
	prog pr;

	cr_assert(strstr(text, "// gamma = []\n// beta = []\n") != NULL, "%s", text);
	parse(text, QUBO_QASM_2, &pr);
	cr_assert_eq(pr.nq, 3);
	cr_assert_eq(pr.num_ops, 3);
	cr_assert(pr.ops[0].kind == OP_H && pr.ops[2].kind == OP_H && pr.ops[2].a == 2);
	free(pr.ops);
	free(text);
	qubo_model_free(m);
}

/* Angles: the fewest digits that read back, a point always, no locale. */
Test(qasm, angle_literals)
{
	static const struct {
		double beta;
		const char *rx;
	} cases[] = {
		{1.0, "rx(2.0) q[0];\n"},
		{0.05, "rx(0.1) q[0];\n"},
		{1.0 / 6.0, "rx(0.3333333333333333) q[0];\n"},
		{5e20, "rx(1.0e+21) q[0];\n"},
		{-1.25e-301, "rx(-2.5e-301) q[0];\n"},
		{0.0, "rx(0.0) q[0];\n"},
		{-0.0, "rx(0.0) q[0];\n"},
		{0.1 / 3.0, "rx(0.06666666666666667) q[0];\n"},
		{1e15, "rx(2.0e+15) q[0];\n"},
		{123456.5, "rx(246913.0) q[0];\n"},
	};
	coeffs c;
	qubo_model *m;
	size_t k;

	memset(&c, 0, sizeof c);
	c.n = 1;
	m = build(&c);
	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		double g = 0.0;
		char *text = qasm(m, 1, &g, &cases[k].beta, QUBO_QASM_2);
		prog pr;

		cr_assert(strstr(text, cases[k].rx) != NULL, "case %zu: want %s in\n%s", k,
			  cases[k].rx, text);
		parse(text, QUBO_QASM_2, &pr);
		cr_assert_eq(pr.num_ops, 2);
		cr_assert(pr.ops[1].angle == 2.0 * cases[k].beta, "case %zu", k);
		free(pr.ops);
		free(text);
	}
	qubo_model_free(m);
}

/* Random models, both versions: the statements, the gate list with every
 * angle exact, and the state the program prepares. */
Test(qasm, random_models_read_back_and_run)
{
	tu_rng r = {0x9a5e};
	size_t trial, trials = getenv("QUBO_TEST_VALGRIND") ? 40 : 300;

	for (trial = 0; trial < trials; trial++) {
		coeffs c;
		qubo_model *m;
		double g[4], b[4];
		size_t p = (size_t)tu_range(&r, 0, 3), n = (size_t)tu_range(&r, 1, 6), i, j, k;
		int32_t ver = trial % 2 ? QUBO_QASM_3 : QUBO_QASM_2;
		char *text, what[64];
		op *want;
		size_t count;
		prog pr;
		cplx *a, *d;

		memset(&c, 0, sizeof c);
		c.n = n;
		for (i = 0; i < n; i++)
			c.a[i] = tu_below(&r, 3) ? (double)tu_range(&r, -6, 6) / 2.0 : 0.0;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				c.b[i][j] = tu_below(&r, 2) ? (double)tu_range(&r, -8, 8) / 4.0 : 0.0;
		c.offset = (double)tu_range(&r, -10, 10) / 8.0;
		m = build(&c);
		for (k = 0; k < p; k++) {
			g[k] = (tu_unit(&r) - 0.5) * 4.0;
			b[k] = tu_below(&r, 4) ? (tu_unit(&r) - 0.5) * 4.0
					       : 1.5707963267948966 - tu_unit(&r) * 1e-6;
		}
		text = qasm(m, p, g, b, ver);
		parse(text, ver, &pr);
		cr_assert_eq(pr.nq, n);
		cr_assert_geq(pr.comments, 5, "the header comment");
		want = expected_ops(&c, p, g, b, &count);
		expect_ops(&pr, want, count);
		a = run_program(&pr, ver);
		d = qaoa_direct(m, n, p, g, b);
		snprintf(what, sizeof what, "trial %zu (n %zu, p %zu, version %d)", trial, n, p,
			 (int)ver);
		expect_same_state(a, d, n, what);
		free(a);
		free(d);
		free(want);
		free(pr.ops);
		free(text);
		qubo_model_free(m);
	}
}

/* A model of no variables: a valid program without registers or gates. */
Test(qasm, no_variables)
{
	coeffs c;
	qubo_model *m;
	double g = 0.5, b = 0.25;
	int32_t ver;

	memset(&c, 0, sizeof c);
	c.offset = 2.0;
	m = build(&c);
	for (ver = QUBO_QASM_2; ver <= QUBO_QASM_3; ver++) {
		char *text = qasm(m, 1, &g, &b, ver);
		prog pr;

		parse(text, ver, &pr);
		cr_assert_eq(pr.nq, 0);
		cr_assert_eq(pr.num_ops, 0);
		cr_assert(strstr(text, "no variables") != NULL, "%s", text);
		cr_assert(strstr(text, "gamma = [0.5]") != NULL, "%s", text);
		cr_assert_null(strstr(text, "reg"), "%s", text);
		cr_assert_null(strstr(text, "measure"), "%s", text);
		free(pr.ops);
		free(text);
	}
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* The buffer protocol. */

Test(qasm, buffer_sizes)
{
	qubo_model *m = tiny();
	size_t len = (size_t)-1, full = sizeof tiny_qasm2 - 1, got;
	char *buf = malloc(full + 8);

	cr_assert_not_null(buf);
	/* capacity 0 learns the length; NULL buffer allowed; length_out optional */
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, NULL, 0, &len), QUBO_OK);
	cr_assert_eq(len, full);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, NULL, 0, NULL), QUBO_OK);
	/* one byte short: the prefix that fits, nothing past capacity */
	memset(buf, '#', full + 8);
	len = 0;
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, buf, full - 1, &len),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(len, full);
	cr_assert(strstr(qubo_error_message(), "bytes") != NULL, "%s", qubo_error_message());
	cr_assert_eq(memcmp(buf, tiny_qasm2, full - 1), 0);
	cr_assert_eq(buf[full - 1], '#');
	/* exactly the text: written, no room for the terminator */
	memset(buf, '#', full + 8);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, buf, full, &got), QUBO_OK);
	cr_assert_eq(got, full);
	cr_assert_eq(memcmp(buf, tiny_qasm2, full), 0);
	cr_assert_eq(buf[full], '#');
	/* with the terminator, and a larger buffer */
	memset(buf, '#', full + 8);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, buf, full + 8, NULL),
		     QUBO_OK);
	cr_assert_str_eq(buf, tiny_qasm2);
	cr_assert_eq(buf[full + 1], '#');
	free(buf);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Bad arguments. */

/* len: the length_out of the call, which must have been reset to 0. */
static void expect_fail(int rc, int want, const char *needle, const size_t *len)
{
	cr_assert_eq(rc, want, "status %d (%s), expected %d", rc, qubo_error_message(), want);
	cr_assert_eq(qubo_error_code(), want);
	cr_assert(strstr(qubo_error_message(), needle) != NULL, "'%s' not in '%s'", needle,
		  qubo_error_message());
	cr_assert_eq(*len, 0, "length_out is %zu on failure", *len);
}

Test(qasm, bad_arguments)
{
	qubo_model *m = tiny(), *raw = NULL;
	double g[2] = {0.5, 0.25}, b[2] = {0.125, 0.5};
	char buf[64];
	size_t len;

	len = 9;
	expect_fail(qubo_qaoa_qasm(NULL, 1, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_ERR_MISUSE,
		    "qubo_qaoa_qasm", &len);
	/* a pairwise term not compiled yet */
	cr_assert_eq(qubo_model_new(&raw, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(raw, 0, 1, 1.0), QUBO_OK);
	len = 9;
	expect_fail(qubo_qaoa_qasm(raw, 1, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_ERR_MISUSE,
		    "qubo_model_compile", &len);
	qubo_model_free(raw);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 1, g, b, QUBO_QASM_2, NULL, 10, &len), QUBO_ERR_MISUSE,
		    "buffer is NULL", &len);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 1, g, b, 1, buf, sizeof buf, &len), QUBO_ERR_INVALID_ARG,
		    "version 1", &len);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 1, g, b, 4, buf, sizeof buf, &len), QUBO_ERR_INVALID_ARG,
		    "version 4", &len);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, QUBO_QAOA_MAX_DEPTH + 1, g, b, QUBO_QASM_2, buf, sizeof buf,
				   &len),
		    QUBO_ERR_OUT_OF_RANGE, "65", &len);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 1, NULL, b, QUBO_QASM_2, buf, sizeof buf, &len),
		    QUBO_ERR_MISUSE, "gammas is NULL", &len);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 1, g, NULL, QUBO_QASM_3, buf, sizeof buf, &len),
		    QUBO_ERR_MISUSE, "betas is NULL", &len);

	/* angles that are not finite, named */
	g[1] = nan("");
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_ERR_INVALID_ARG,
		    "gammas[1] (layer 2) is NaN", &len);
	/* only the first p angles are read */
	cr_assert_eq(qubo_qaoa_qasm(m, 1, g, b, QUBO_QASM_2, NULL, 0, NULL), QUBO_OK);
	g[1] = 0.25;
	b[0] = -HUGE_VAL;
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_3, NULL, 0, &len), QUBO_ERR_INVALID_ARG,
		    "betas[0] (layer 1) is -inf", &len);
	b[0] = HUGE_VAL;
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_3, NULL, 0, &len), QUBO_ERR_INVALID_ARG,
		    "betas[0] (layer 1) is +inf", &len);
	/* finite angles beyond the rule of QUBO_QAOA_MAX_PHASE */
	b[0] = 1e308;
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_ERR_INVALID_ARG,
		    "betas[0] (layer 1) is 1e+308: twice it", &len);
	b[0] = 0.125;
	g[1] = 1e308;
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_ERR_INVALID_ARG,
		    "gammas[1] (layer 2) is 1e+308", &len);
	/* p = 0 needs no angles */
	cr_assert_eq(qubo_qaoa_qasm(m, 0, NULL, NULL, QUBO_QASM_3, buf, 0, NULL), QUBO_OK);
	qubo_model_free(m);
}

/* One rule for the cost angles: |γ| times the weight sum (64 + 32 + 32 =
 * 128 here) at most 2^52. At the bound every gate angle is finite and
 * printed; a step past it is refused, named with the phase it reaches. The
 * simulator takes the same rule. */
Test(qasm, cost_angle_bound)
{
	coeffs c;
	qubo_model *m;
	qubo_qaoa *q = NULL;
	double g = QUBO_QAOA_MAX_PHASE / 128, b = 0.0;
	size_t len = 9;
	char *buf;

	memset(&c, 0, sizeof c);
	c.n = 3;
	c.b[1][2] = 64.0; /* h = 16 for x1 and x2, J_12 = 16 */
	c.a[1] = -32.0;   /* h_1 = -16 + 16 = 0 */
	c.a[2] = -32.0;
	m = build(&c);
	cr_assert_eq(qubo_qaoa_qasm(m, 1, &g, &b, QUBO_QASM_2, NULL, 0, &len), QUBO_OK, "%s",
		     qubo_error_message());
	buf = malloc(len + 1);
	cr_assert_eq(qubo_qaoa_qasm(m, 1, &g, &b, QUBO_QASM_2, buf, len + 1, NULL), QUBO_OK);
	cr_assert(strstr(buf, "rz(1125899906842624.0) q[2];"), "%s", buf); /* 2^50 */
	cr_assert_null(strstr(buf, "inf"));
	free(buf);
	cr_assert_eq(qubo_qaoa_new(&q, m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_evolve(q, 1, &g, &b), QUBO_OK, "%s", qubo_error_message());
	g = nextafter(g, 1e300);
	len = 9;
	expect_fail(qubo_qaoa_qasm(m, 1, &g, &b, QUBO_QASM_2, NULL, 0, &len),
		    QUBO_ERR_INVALID_ARG, "gammas[0] (layer 1) is 3.51844e+13: its phases reach "
		    "4.5036e+15 (the angle times the model's weight sum 128)", &len);
	cr_assert_eq(qubo_qaoa_evolve(q, 1, &g, &b), QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(qubo_error_message(), "qubo_qaoa_evolve: gammas[0] (layer 1)"), "%s",
		  qubo_error_message());
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------ */
/* Locale and memory. */

Test(qasm, independent_of_the_decimal_comma_locale)
{
	qubo_model *m = tiny();
	size_t len = 0;
	char *text;

	if (!tu_set_comma_locale())
		cr_skip_test("no locale with a decimal comma (de_DE.UTF-8) is available");
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, NULL, 0, &len), QUBO_OK);
	text = malloc(len + 1);
	cr_assert_not_null(text);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_2, text, len + 1, NULL),
		     QUBO_OK);
	cr_assert_str_eq(text, tiny_qasm2);
	{
		char probe[32];

		snprintf(probe, sizeof probe, "%.1f", 0.5);
		cr_assert_str_eq(probe, "0,5", "the caller's locale is left as it was");
	}
	free(text);
	qubo_model_free(m);
}

Test(qasm, out_of_memory)
{
	tu_failalloc f;
	qubo_model *m = NULL;
	size_t k, len;
	int rc;

	tu_failalloc_init(&f, 0);
	cr_assert_eq(qubo_model_new(&m, 3, &f.a), QUBO_OK);
	qubo_model_add_linear(m, 0, 1.0);
	qubo_model_add_quadratic(m, 0, 1, 2.0);
	qubo_model_add_quadratic(m, 1, 2, -1.0);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	for (k = 1;; k++) {
		/* fail the k-th allocation of this call */
		f.fail_at = f.count + k;
		f.failed = 0;
		len = 9;
		rc = qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, QUBO_QASM_3, NULL, 0, &len);
		if (!f.failed) {
			cr_assert_eq(rc, QUBO_OK);
			cr_assert_gt(len, 0);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %s", k, qubo_error_message());
		cr_assert(strstr(qubo_error_message(), "Ising") != NULL, "%s",
			  qubo_error_message());
		cr_assert_eq(len, 0);
	}
	cr_assert_gt(k, 1, "the call allocates");
	qubo_model_free(m);
	cr_assert_eq(f.live, 0, "a block is leaked");
}

/* The size query (capacity 0, NULL buffer) is a success with the length, so
 * that `rc < 0` checks accept it; one byte of capacity is too small. */
Test(qasm, size_query_returns_ok)
{
	qubo_model *m = tiny();
	size_t len = 0, got = 0;
	char one = '#';
	int32_t ver;

	for (ver = QUBO_QASM_2; ver <= QUBO_QASM_3; ver++) {
		const char *want = ver == QUBO_QASM_2 ? tiny_qasm2 : tiny_qasm3;

		one = '#';

		cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, ver, NULL, 0, &len), QUBO_OK,
			     "%s", qubo_error_message());
		cr_assert_eq(len, strlen(want));
		cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, ver, &one, 0, &got), QUBO_OK);
		cr_assert_eq(got, len);
		cr_assert_eq(one, '#', "the size query wrote into the buffer");
		cr_assert_eq(qubo_qaoa_qasm(m, 2, tiny_g, tiny_b, ver, &one, 1, &got),
			     QUBO_ERR_BUFFER_TOO_SMALL);
		cr_assert_eq(got, len);
	}
	qubo_model_free(m);
}
