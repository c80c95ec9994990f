/*
 * The default β ranges of the sa and pt solvers (doc/solvers-sa.md,
 * "Default β range"): one rule from the model's weights, with the hot end
 * of pt raised towards a spin glass's freezing point.
 */
#include <float.h>
#include <math.h>

#include "kernel.h"

/* Largest |weight| (linear or coupler); 0 for a model without weights. */
double qubo__max_weight(const qubo_model *m)
{
	double w = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (fabs(m->h[i]) > w)
			w = fabs(m->h[i]);
	for (i = 0; i < m->nnz; i++)
		if (fabs(m->val[i]) > w)
			w = fabs(m->val[i]);
	return w;
}

/* The rule of both solvers: β_hot = hot / Δ_hot and β_cold = log(cold) /
 * gap, with cold = 100 × (variables at the gap) when cold is 0. */
static int beta_rule(const qubo_model *m, double hot, double cold, double *beta_hot,
		     double *beta_cold, const char *fn)
{
	/* Weights below rel_floor · Δ_hot, or below mean_floor · Δ_mean when
	 * that is lower, do not set the cold end; the ratio β_cold / β_hot
	 * stays within [2, max_ratio]. */
	static const double rel_floor = 1e-2, mean_floor = 0.1, max_ratio = 1e4;
	double wmax, dhot = 0, dsum = 0, wfloor, gap = HUGE_VAL, bh, bc, ratio;
	size_t i, k, ngap = 0, nd = 0;
	int rc = qubo__model_require_bounded(m, fn);

	if (rc)
		return rc;
	if (!beta_hot || !beta_cold)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL output", fn);
	wmax = qubo__max_weight(m);
	if (wmax == 0) { /* no weights: every state has the same energy */
		*beta_hot = 0.1;
		*beta_cold = 1.0;
		return QUBO_OK;
	}
	/* Hot end, in units of wmax: Δ_i = max(|h_i + max_j J⁺_ij|, |h_i| +
	 * sqrt(Σ_j (J⁻_ij)²)): at most one repelling (J > 0) neighbour of i is
	 * set in a low-energy state, and attracting (J < 0) ones add up like a
	 * random subset of them, in quadrature. */
	for (i = 0; i < m->n; i++) {
		double hh = m->h[i] / wmax, neg2 = 0, pmax = 0, d;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			double v = m->val[k] / wmax;
			if (v < 0)
				neg2 += v * v;
			else if (v > pmax)
				pmax = v;
		}
		d = fmax(fabs(hh + pmax), fabs(hh) + sqrt(neg2));
		dhot = fmax(dhot, d);
		if (d > 0) {
			dsum += d;
			nd++;
		}
	}
	if (dhot == 0)
		dhot = 1; /* every ΔE_i cancels exactly; any scale will do */
	/* Cold end: the smallest weight not below that floor, and how many
	 * variables have it as their smallest such weight. The floor's second
	 * bound, from the mean of the nonzero Δ_i, binds only where a few hubs
	 * raise Δ_hot above 10 Δ_mean: a hub of degree 200 among variables of
	 * degree 10 must not hide the unit weights all of them share. */
	wfloor = nd ? fmin(rel_floor * dhot, mean_floor * dsum / (double)nd) : rel_floor * dhot;
	for (i = 0; i < m->n; i++) {
		double mine = HUGE_VAL, a = fabs(m->h[i]) / wmax;
		if (a >= wfloor)
			mine = a;
		for (k = m->row[i]; k < m->row[i + 1]; k++) {
			a = fabs(m->val[k]) / wmax;
			if (a >= wfloor && a < mine)
				mine = a;
		}
		if (mine < gap) {
			gap = mine;
			ngap = 0;
		}
		if (mine == gap)
			ngap++;
	}
	if (!(gap < HUGE_VAL)) { /* only tiny weights: take the floor itself */
		gap = wfloor;
		ngap = 1;
	}
	bh = hot / dhot;
	bc = log(cold > 0 ? cold : 100.0 * (double)ngap) / gap;
	ratio = bc / bh;
	if (!(ratio >= 2))
		ratio = 2;
	if (ratio > max_ratio)
		ratio = max_ratio;
	/* Back to real units, both finite and positive even for weights near
	 * the ends of the double range. */
	bh /= wmax;
	if (!(bh > 0))
		bh = DBL_MIN;
	if (!(bh <= DBL_MAX / (2 * ratio)))
		bh = DBL_MAX / (2 * ratio);
	*beta_hot = bh;
	*beta_cold = bh * ratio;
	return QUBO_OK;
}

int qubo__sa_default_betas(const qubo_model *m, double *beta_hot, double *beta_cold)
{
	return beta_rule(m, log(16.0), 0, beta_hot, beta_cold, "qubo__sa_default_betas");
}

int qubo__pt_default_betas(const qubo_model *m, double *beta_hot, double *beta_cold)
{
	double bh, bc, wmax, s2 = 0, hot;
	size_t k;
	int rc = beta_rule(m, log(16.0), 1000.0, &bh, &bc, "qubo__pt_default_betas");

	if (rc)
		return rc;
	/* Near the freezing point of a spin glass with these couplings:
	 * 4 / s, s² the mean over variables of Σ_j J_ij², in units of wmax so
	 * that the squares cannot overflow. */
	wmax = qubo__max_weight(m);
	for (k = 0; k < m->nnz; k++)
		s2 += (m->val[k] / wmax) * (m->val[k] / wmax);
	hot = s2 > 0 ? 4.0 / (wmax * sqrt(s2 / (double)m->n)) : bh;
	if (hot > bh) /* never hotter than annealing starts */
		bh = hot;
	if (bh > bc / 2)
		bh = bc / 2;
	*beta_hot = bh;
	*beta_cold = bc;
	return QUBO_OK;
}
