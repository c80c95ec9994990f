/*
 * The angle optimiser of qubo_qaoa_optimize().
 *
 * Depth 1 starts from a grid. Its expectation has a closed form for Ising
 * models (Ozaeta, van Dam and McMahon, "Expectation values from the
 * single-layer quantum approximate optimization algorithm on Ising
 * problems", 2022, Theorem 1): with s = 2x − 1,
 *
 *   ⟨s_u⟩     = sin 2β · sin 2γh_u · Π_{w≠u} cos 2γJ_uw,
 *   ⟨s_u s_v⟩ = ½ sin 4β · sin 2γJ_uv · (cos 2γh_u Π_{w≠u,v} cos 2γJ_uw
 *                                        + cos 2γh_v Π_{w≠u,v} cos 2γJ_vw)
 *             − ½ sin² 2β · (cos 2γ(h_u + h_v) Π_{w≠u,v} cos 2γ(J_uw + J_vw)
 *                            − cos 2γ(h_u − h_v) Π_{w≠u,v} cos 2γ(J_uw − J_vw)).
 *
 * (With s = −Z the fields change sign against the paper's Z form; the
 * formulas are odd in the fields where they are odd in ⟨s_u⟩, so they read
 * the same.) For a fixed γ the expectation is offset + S1 sin 2β
 * + ½ S2 sin 4β − ½ S3 sin² 2β, so a grid over γ costs one pass over the
 * couplings per γ, and β is searched on a fine grid for free.
 *
 * Each depth is then refined by the Nelder–Mead simplex method on the
 * simulated expectation; depth d > 1 starts from the interpolation of the
 * optimised angles of depth d − 1 (INTERP: Zhou, Wang, Choi, Pichler and
 * Lukin, "Quantum Approximate Optimization Algorithm: Performance,
 * Mechanism, and Implementation on Near-Term Devices", PRX 2020, App. B):
 *   x_i^{(d)} = (i − 1)/(d − 1) · x_{i−1}^{(d−1)} + (d − i)/(d − 1) · x_i^{(d−1)},
 * i = 1..d, with x_0 = x_d = 0 at depth d − 1.
 */
#include <math.h>
#include <string.h>

#include "qaoa_impl.h"

#define DEFAULT_ITERATIONS 100
#define GAMMA_POINTS 64
#define BETA_POINTS 128
#define PI 3.14159265358979323846

/* Σ-terms of the depth-1 closed form at γ: *s1, *s2, *s3 as above. */
static void closed_terms(const qubo_qaoa *q, double g, double *s1, double *s2, double *s3)
{
	size_t n = q->n, u, v, w;
	const double *h = q->ising_h, *J = q->ising_j;
	double a = 0.0, b = 0.0, c = 0.0;

	for (u = 0; u < n; u++) {
		double pu = 1.0;
		if (h[u] == 0.0)
			continue;
		for (w = 0; w < n; w++)
			if (w != u && J[u * n + w] != 0.0)
				pu *= cos(2 * g * J[u * n + w]);
		a += h[u] * sin(2 * g * h[u]) * pu;
	}
	for (u = 0; u < n; u++)
		for (v = u + 1; v < n; v++) {
			double juv = J[u * n + v], pu = 1.0, pv = 1.0, pp = 1.0, pm = 1.0;
			if (juv == 0.0)
				continue;
			for (w = 0; w < n; w++) {
				double x = J[u * n + w], y = J[v * n + w];
				if (w == u || w == v || (x == 0.0 && y == 0.0))
					continue;
				pu *= cos(2 * g * x);
				pv *= cos(2 * g * y);
				pp *= cos(2 * g * (x + y));
				pm *= cos(2 * g * (x - y));
			}
			b += juv * sin(2 * g * juv) * (cos(2 * g * h[u]) * pu + cos(2 * g * h[v]) * pv);
			c += juv * (cos(2 * g * (h[u] + h[v])) * pp - cos(2 * g * (h[u] - h[v])) * pm);
		}
	*s1 = a;
	*s2 = b;
	*s3 = c;
}

/* The scale of γ: the median over the variables of Σ|h| + Σ|J| (0 for a
 * constant model). */
static double gamma_scale(const qubo_qaoa *q)
{
	size_t n = q->n, u, w, k = 0, i, j;
	double v[QUBO_QAOA_MAX_QUBITS];

	for (u = 0; u < n; u++) {
		double s = fabs(q->ising_h[u]);
		for (w = 0; w < n; w++)
			s += fabs(q->ising_j[u * n + w]);
		if (s > 0.0)
			v[k++] = s;
	}
	if (!k)
		return 0.0;
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[k / 2];
}

/* The best depth-1 point of the grid. */
static void depth1_start(const qubo_qaoa *q, double gmax, double *g_out, double *b_out)
{
	double best = (double)INFINITY;
	int i, j;

	*g_out = 0.0;
	*b_out = 0.0;
	for (i = 1; i <= GAMMA_POINTS; i++) {
		double g = gmax * i / GAMMA_POINTS, s1, s2, s3;
		closed_terms(q, g, &s1, &s2, &s3);
		for (j = 0; j < BETA_POINTS; j++) {
			double b = -PI / 2 + PI * (j + 0.5) / BETA_POINTS;
			double s = sin(2 * b), e = s1 * s + 0.5 * s2 * sin(4 * b) - 0.5 * s3 * s * s;
			if (e < best) {
				best = e;
				*g_out = g;
				*b_out = b;
			}
		}
	}
}

typedef struct nm_ctx {
	qubo_qaoa *q;
	size_t p;
	qubo__qaoa_stop_fn stop;
	void *user_data;
	double best;
	int rc; /* first failure, or QUBO_CANCELLED */
} nm_ctx;

/* ⟨C⟩ at x = (γ_1..γ_p, β_1..β_p); +inf after a failure, and at a point
 * with an angle the rule refuses (qubo__qaoa_bad_angle), which the
 * simplex then leaves. */
static double evaluate(nm_ctx *cx, const double *x)
{
	double e, l;
	int rc;

	if (cx->rc || qubo__qaoa_bad_angle(cx->q->weight_sum, cx->p, x, x + cx->p) < 2 * cx->p)
		return (double)INFINITY;
	rc = qubo__qaoa_evolve(cx->q, "qubo_qaoa_optimize", cx->p, x, x + cx->p);
	if (!rc)
		rc = qubo__qaoa_figures(cx->q, &e, &l);
	if (rc) {
		cx->rc = rc;
		return (double)INFINITY;
	}
	if (e < cx->best)
		cx->best = e;
	if (cx->stop && cx->stop(cx->user_data, cx->best))
		cx->rc = QUBO_CANCELLED;
	return e;
}

/* Nelder–Mead from x (2p values, steps per coordinate), at most iters
 * iterations; the best point is left in x, its value returned. */
static double nelder_mead(nm_ctx *cx, double *x, const double *step, size_t iters, double *sp)
{
	size_t d = 2 * cx->p, m = d + 1, i, j, it;
	double *f = sp, *pts = f + m, *cen = pts + m * d, *xr = cen + d, *xe = xr + d;

	for (i = 0; i < m; i++) {
		memcpy(pts + i * d, x, d * sizeof(double));
		if (i)
			pts[i * d + i - 1] += step[i - 1];
		f[i] = evaluate(cx, pts + i * d);
	}
	for (it = 0; it < iters && !cx->rc; it++) {
		double fr, fe, fc, spread;
		size_t lo = 0, hi = 0, nh = 0;
		for (i = 1; i < m; i++) {
			if (f[i] < f[lo])
				lo = i;
			if (f[i] > f[hi])
				hi = i;
		}
		/* the second worst: the largest value but the worst's */
		nh = hi == 0 ? 1 : 0;
		for (i = 0; i < m; i++)
			if (i != hi && f[i] > f[nh])
				nh = i;
		spread = f[hi] - f[lo];
		if (spread <= 1e-12 * (1.0 + fabs(f[lo])))
			break;
		for (j = 0; j < d; j++) {
			double s = 0.0;
			for (i = 0; i < m; i++)
				if (i != hi)
					s += pts[i * d + j];
			cen[j] = s / (double)d;
		}
		for (j = 0; j < d; j++)
			xr[j] = cen[j] + (cen[j] - pts[hi * d + j]);
		fr = evaluate(cx, xr);
		if (fr < f[lo]) {
			for (j = 0; j < d; j++)
				xe[j] = cen[j] + 2.0 * (cen[j] - pts[hi * d + j]);
			fe = evaluate(cx, xe);
			if (fe < fr) {
				memcpy(pts + hi * d, xe, d * sizeof(double));
				f[hi] = fe;
			} else {
				memcpy(pts + hi * d, xr, d * sizeof(double));
				f[hi] = fr;
			}
			continue;
		}
		if (fr < f[nh]) {
			memcpy(pts + hi * d, xr, d * sizeof(double));
			f[hi] = fr;
			continue;
		}
		/* contraction, outside or inside */
		if (fr < f[hi]) {
			for (j = 0; j < d; j++)
				xe[j] = cen[j] + 0.5 * (xr[j] - cen[j]);
		} else {
			for (j = 0; j < d; j++)
				xe[j] = cen[j] + 0.5 * (pts[hi * d + j] - cen[j]);
		}
		fc = evaluate(cx, xe);
		if (fc < (fr < f[hi] ? fr : f[hi])) {
			memcpy(pts + hi * d, xe, d * sizeof(double));
			f[hi] = fc;
			continue;
		}
		/* shrink towards the best */
		for (i = 0; i < m; i++) {
			if (i == lo)
				continue;
			for (j = 0; j < d; j++)
				pts[i * d + j] = pts[lo * d + j] + 0.5 * (pts[i * d + j] - pts[lo * d + j]);
			f[i] = evaluate(cx, pts + i * d);
		}
	}
	j = 0;
	for (i = 1; i < m; i++)
		if (f[i] < f[j])
			j = i;
	memcpy(x, pts + j * d, d * sizeof(double));
	return f[j];
}

int qubo__qaoa_optimize(qubo_qaoa *q, size_t p, size_t iterations, double *gammas,
			double *betas, double *expectation, qubo__qaoa_stop_fn stop,
			void *user_data)
{
	size_t d, i, dim = 2 * p, m = dim + 1;
	double gmax, g1, b1, e = 0.0, l;
	double *x, *prev, *step, *sp;
	nm_ctx cx;
	int rc;

	if (!iterations)
		iterations = DEFAULT_ITERATIONS;
	/* x, prev, step: 2p each; the simplex: m values, m points, 3 vectors */
	x = qubo__malloc_array(&q->alloc, 3 * dim + m + m * dim + 3 * dim, sizeof(double));
	if (!x)
		return qubo__nomem("the QAOA optimiser");
	prev = x + dim;
	step = prev + dim;
	sp = step + dim;
	memset(&cx, 0, sizeof cx);
	cx.q = q;
	cx.stop = stop;
	cx.user_data = user_data;
	cx.best = (double)INFINITY;

	gmax = gamma_scale(q);
	gmax = gmax > 0.0 ? PI / gmax : 0.0;
	/* the grid's angles within the rule, so that the start is accepted */
	if (gmax * q->weight_sum > QUBO_QAOA_MAX_PHASE)
		gmax = QUBO_QAOA_MAX_PHASE / q->weight_sum;
	if (gmax > 0.0)
		depth1_start(q, gmax, &g1, &b1);
	else
		g1 = b1 = 0.0;
	for (d = 1; d <= p && !cx.rc; d++) {
		cx.p = d;
		if (d == 1) {
			x[0] = g1;
			x[1] = b1;
		} else {
			/* INTERP from prev (depth d − 1: γ at 0..d−2, β at d−1..2d−3) */
			for (i = 0; i < d; i++) {
				double gl = i ? prev[i - 1] : 0.0, gr = i < d - 1 ? prev[i] : 0.0;
				double bl = i ? prev[d - 1 + i - 1] : 0.0;
				double br = i < d - 1 ? prev[d - 1 + i] : 0.0;
				x[i] = ((double)i * gl + (double)(d - 1 - i) * gr) / (double)(d - 1);
				x[d + i] = ((double)i * bl + (double)(d - 1 - i) * br) / (double)(d - 1);
			}
		}
		for (i = 0; i < d; i++) {
			step[i] = gmax > 0.0 ? 0.05 * gmax : 0.0;
			step[d + i] = gmax > 0.0 ? 0.05 * PI : 0.0;
		}
		if (gmax > 0.0)
			e = nelder_mead(&cx, x, step, iterations, sp);
		memcpy(prev, x, 2 * d * sizeof(double));
	}
	rc = cx.rc;
	if (rc && rc != QUBO_CANCELLED)
		goto out;
	/* a stop leaves the best point of the depth reached, padded to p with
	 * zero angles (identity layers) */
	d = cx.p ? cx.p : 1;
	for (i = 0; i < p; i++) {
		gammas[i] = i < d ? prev[i] : 0.0;
		betas[i] = i < d ? prev[d + i] : 0.0;
	}
	{
		int rc2 = qubo__qaoa_evolve(q, "qubo_qaoa_optimize", p, gammas, betas);
		if (!rc2)
			rc2 = qubo__qaoa_figures(q, &e, &l);
		if (rc2)
			rc = rc2;
	}
	if (!rc || rc == QUBO_CANCELLED)
		*expectation = e;
out:
	qubo__free(&q->alloc, x);
	return rc;
}
