/* The "pt" solver's kernel (doc/solvers.md, "pt"): which models take the
 * integer engine, the two engines' identical decisions, exact tracked
 * energies, and the coldest rung's final states against the Boltzmann
 * distribution, which a wrong sweep or exchange rule would skew. */
#include <math.h>

#include "helpers.h"
#include "solvers/kernel.h"

enum { W_INT, W_QUARTER, W_REAL };

/* A compiled random model: integers in [−5, 5], multiples of 1/4 in
 * [−2, 2] (both integer-engine models) or reals in [−1, 1). */
static qubo_model *model_of(uint64_t seed, size_t n, double density, int kind)
{
	tu_rng g = { seed };
	qubo_model *m;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++) {
		for (j = i; j < n; j++) {
			double w = kind == W_INT ? (double)tu_range(&g, -5, 5)
				 : kind == W_QUARTER ? (double)tu_range(&g, -8, 8) / 4
						     : 2 * tu_unit(&g) - 1;
			if (j == i)
				cr_assert_eq(qubo_model_add_linear(m, i, w), QUBO_OK);
			else if (tu_unit(&g) < density)
				cr_assert_eq(qubo_model_add_quadratic(m, i, j, w), QUBO_OK);
		}
	}
	cr_assert_eq(qubo_model_add_offset(m, -2.75), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static qubo_model *one_weight(double h, double j)
{
	qubo_model *m;

	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 0, h), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, j), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

typedef struct pt_out {
	uint8_t *samples;
	double *energies;
	qubo__result res;
} pt_out;

/* reads reads of the kernel on one thread unless threads says otherwise. */
static pt_out sample(const qubo_model *m, size_t reads, uint64_t seed, int threads,
		     const qubo__pt_params *p)
{
	size_t n = qubo_model_num_variables(m);
	qubo__run run;
	pt_out o;
	int rc;

	memset(&run, 0, sizeof run);
	run.num_reads = reads;
	run.seed = seed;
	run.threads = threads;
	run.alloc = &m->alloc;
	o.samples = malloc(reads * n + 1);
	o.energies = malloc(reads * sizeof *o.energies);
	cr_assert(o.samples && o.energies);
	rc = qubo__pt_sample(m, p, &run, NULL, o.samples, o.energies, &o.res);
	cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(o.res.reads_done, reads);
	return o;
}

static void out_free(pt_out *o)
{
	free(o->samples);
	free(o->energies);
}

static qubo__pt_params params(size_t sweeps, size_t replicas, double bh, double bc, int keep,
			      unsigned flags)
{
	qubo__pt_params p;

	memset(&p, 0, sizeof p);
	p.num_sweeps = sweeps;
	p.num_replicas = replicas;
	p.beta_hot = bh;
	p.beta_cold = bc;
	p.keep_lowest = keep;
	p.flags = flags;
	return p;
}

Test(pt_kernel, integer_and_dyadic_models_take_the_integer_engine)
{
	static const struct {
		double h, j;
		int integer;
	} cases[] = {
		{ -3, 5, 1 },
		{ 0.375, -1.25, 1 },       /* multiples of 1/8 */
		{ 0x1p-30, 0x1p-19, 1 },   /* the finest unit, 2049 of them */
		{ 0x1p-31, 0x1p-19, 0 },   /* one finer */
		{ 0.1, 1, 0 },             /* not dyadic */
		{ 4096, 0, 1 },            /* |ΔE| at the limit of 4096 units */
		{ 4096, 0.5, 0 },          /* 8193 halves */
		{ 0, 4097, 0 },
		{ 1e300, 1, 0 },
		{ 0, 0, 1 },
	};
	size_t c;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		qubo_model *m = one_weight(cases[c].h, cases[c].j);
		cr_assert_eq(qubo__pt_integer(m), cases[c].integer, "case %zu", c);
		qubo_model_free(m);
	}
	for (c = W_INT; c <= W_REAL; c++) {
		qubo_model *m = model_of(5, 30, 0.3, (int)c);
		cr_assert_eq(qubo__pt_integer(m), c != W_REAL, "kind %zu", c);
		qubo_model_free(m);
	}
}

/* On a model the integer engine takes, the double fields of the other are
 * exact too: all three sweeps (AVX2 and portable integers, doubles) make the
 * same decisions from the same numbers, so their samples are equal byte for
 * byte, whatever the threads, with idle lanes (3, 9 rungs) or none. */
Test(pt_kernel, every_engine_gives_the_same_samples)
{
	static const size_t sizes[] = { 1, 7, 40 }, ladders[] = { 1, 3, 8, 9, 16 },
			    sweeps[] = { 1, 5, 60 };
	static const unsigned flags[] = { 0, QUBO__PT_PORTABLE, QUBO__PT_REAL };
	size_t a, b, c, v;
	int kind, keep;

	for (kind = W_INT; kind <= W_QUARTER; kind++)
		for (a = 0; a < 3; a++)
			for (b = 0; b < 5; b++)
				for (c = 0; c < 3; c++)
					for (keep = 0; keep <= 1; keep++) {
		size_t n = sizes[a], reads = 5, r;
		qubo_model *m = model_of(31 * a + 7 * b + c + 100 * (size_t)kind, n, 0.4, kind);
		pt_out o[3];
		cr_assert(qubo__pt_integer(m));
		for (v = 0; v < 3; v++) {
			qubo__pt_params p = params(sweeps[c], ladders[b], 0.05, 2.0, keep, flags[v]);
			o[v] = sample(m, reads, 9 + c, (int)v + 1, &p);
			cr_assert_eq(o[v].res.flips, (uint64_t)reads * sweeps[c] * ladders[b] * n);
		}
		for (v = 1; v < 3; v++) {
			cr_assert_eq(memcmp(o[0].samples, o[v].samples, reads * n), 0,
				     "flags %u: kind %d, n %zu, %zu replicas, %zu sweeps, keep %d",
				     flags[v], kind, n, ladders[b], sweeps[c], keep);
			for (r = 0; r < reads; r++)
				cr_assert_eq(o[0].energies[r], o[v].energies[r]);
		}
		for (v = 0; v < 3; v++)
			out_free(&o[v]);
		qubo_model_free(m);
					}
}

/* The energy a read reports is the one it tracked: exactly the sample's on
 * the integer engine, within rounding on doubles. */
Test(pt_kernel, tracked_energies_are_the_samples_energies)
{
	int kind, keep;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		for (keep = 0; keep <= 1; keep++) {
			size_t n = 50, r, reads = 8;
			qubo_model *m = model_of(40 + (uint64_t)kind, n, 0.2, kind);
			/* 200 rounds: the real engine resynchronises three times */
			qubo__pt_params p = params(200, 5, 0.1, 3.0, keep, 0);
			pt_out o = sample(m, reads, 3, 2, &p);
			for (r = 0; r < reads; r++) {
				double e;
				cr_assert_eq(qubo_model_energy(m, o.samples + r * n, n, &e), QUBO_OK);
				if (kind == W_REAL)
					cr_assert(fabs(e - o.energies[r]) <= 1e-9, "%.17g vs %.17g",
						  e, o.energies[r]);
				else
					cr_assert_eq(e, o.energies[r], "read %zu: %.17g vs %.17g", r,
						     e, o.energies[r]);
			}
			out_free(&o);
			qubo_model_free(m);
		}
	}
}

/* The lowest state of a read is never above its coldest rung's final state,
 * and on a model of 60 variables 20 reads of 300 rounds find the minimum
 * that steepest descent from 3000 starts cannot beat. */
Test(pt_kernel, lowest_states_are_kept)
{
	qubo_model *m = model_of(61, 60, 0.15, W_INT);
	qubo__pt_params lo = params(300, 8, 0, 0, 1, 0), fin = params(300, 8, 0, 0, 0, 0);
	pt_out a = sample(m, 20, 5, 2, &lo), b = sample(m, 20, 5, 2, &fin);
	qubo_solver *d = th_solver("descent");
	qubo_sampleset *set;
	double best = HUGE_VAL;
	size_t r;

	for (r = 0; r < 20; r++) {
		cr_assert_leq(a.energies[r], b.energies[r], "read %zu", r);
		best = fmin(best, a.energies[r]);
	}
	th_set_int(d, QUBO_PARAM_NUM_READS, 3000);
	th_set_int(d, QUBO_PARAM_SEED, 1);
	cr_assert_eq(qubo_solver_sample(&set, d, m), QUBO_OK);
	cr_assert_leq(best, th_lowest(set));
	qubo_sampleset_free(set);
	qubo_solver_free(d);
	out_free(&a);
	out_free(&b);
	qubo_model_free(m);
}

/* Every 8 rounds a copy of the coldest replica descends to a local minimum,
 * which a read keeps when it is lower. On 64 independent variables that
 * all want to be 1, a ladder so hot that a sweep leaves about half of them
 * at 0 has reached the minimum after round 8 (the descent sets them all),
 * and not after round 7, nor with keep_lowest 0; on both engines. */
Test(pt_kernel, a_descent_from_the_coldest_replica_joins_the_lowest_states)
{
	static const double h[] = { -1, -0.3 }; /* the integer and the real engine */
	size_t v, r, n = 64, reads = 4;

	for (v = 0; v < 2; v++) {
		qubo_model *m;
		size_t i;
		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (i = 0; i < n; i++)
			cr_assert_eq(qubo_model_add_linear(m, (uint32_t)i, h[v]), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		{
			qubo__pt_params p8 = params(8, 4, 1e-3, 2e-3, 1, 0),
					p7 = params(7, 4, 1e-3, 2e-3, 1, 0),
					fin = params(8, 4, 1e-3, 2e-3, 0, 0);
			pt_out a = sample(m, reads, 9, 1, &p8), b = sample(m, reads, 9, 1, &p7),
			       c = sample(m, reads, 9, 1, &fin);
			for (r = 0; r < reads; r++) {
				const double lowest = h[v] * (double)n;
				cr_assert(fabs(a.energies[r] - lowest) <= 1e-9, "read %zu: %.17g", r,
					  a.energies[r]);
				for (i = 0; i < n; i++)
					cr_assert_eq(a.samples[r * n + i], 1);
				cr_assert_gt(b.energies[r], 0.75 * lowest, "read %zu", r);
				cr_assert_gt(c.energies[r], 0.75 * lowest, "read %zu", r);
			}
			out_free(&a);
			out_free(&b);
			out_free(&c);
		}
		qubo_model_free(m);
	}
}

/* On coupled models, with a ladder so hot that the sweeps' states are far
 * from any minimum, what a read returns after 8 rounds is a descent's
 * state: no single flip lowers it, and its energy is the one reported. */
Test(pt_kernel, a_descent_returns_a_local_minimum_with_its_energy)
{
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		size_t n = 40, r, i, reads = 6;
		qubo_model *m = model_of(70 + (uint64_t)kind, n, 0.3, kind);
		qubo__pt_params p = params(8, 4, 1e-3, 2e-3, 1, 0);
		pt_out o = sample(m, reads, 4, 2, &p);
		for (r = 0; r < reads; r++) {
			uint8_t *x = o.samples + r * n;
			double e, e1;
			cr_assert_eq(qubo_model_energy(m, x, n, &e), QUBO_OK);
			cr_assert(fabs(e - o.energies[r]) <= (kind == W_REAL ? 1e-9 : 0),
				  "read %zu: %.17g vs %.17g", r, e, o.energies[r]);
			for (i = 0; i < n; i++) {
				x[i] ^= 1;
				cr_assert_eq(qubo_model_energy(m, x, n, &e1), QUBO_OK);
				x[i] ^= 1;
				cr_assert_geq(e1, e - 1e-9, "read %zu: flipping %zu lowers it", r, i);
			}
		}
		out_free(&o);
		qubo_model_free(m);
	}
}

/* With keep_lowest 0 a read returns the coldest rung's final state: after
 * enough rounds, a sample of exp(−β_cold E) / Z. Sweeps keep every rung's
 * distribution and exchanges keep the product of them, so any error in
 * either rule (a swap always taken, a wrong sign, a stale energy) shows here
 * as a distribution at another temperature. A chi-square test over the 16
 * states of a 4-variable model, with the seeds fixed. */
Test(pt_kernel, coldest_rung_samples_the_boltzmann_distribution)
{
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind += W_REAL - W_INT) {
		const size_t n = 4, reads = (size_t)th_trials(40000, 3000);
		const double beta = 0.6;
		qubo_model *m = model_of(3 + (uint64_t)kind, n, 1.0, kind);
		/* rungs 0.05, 0.17, 0.6, far apart so that a wrong exchange
		 * brings a much hotter state to the cold end */
		qubo__pt_params p = params(60, 3, 0.05, beta, 0, 0);
		pt_out o = sample(m, reads, 77, 2, &p);
		double z = 0, prob[16], chi2 = 0;
		size_t count[16] = { 0 }, s, r, i;

		for (s = 0; s < 16; s++) {
			uint8_t x[4];
			double e;
			for (i = 0; i < n; i++)
				x[i] = (uint8_t)((s >> i) & 1);
			cr_assert_eq(qubo_model_energy(m, x, n, &e), QUBO_OK);
			prob[s] = exp(-beta * e);
			z += prob[s];
		}
		for (r = 0; r < reads; r++) {
			size_t k = 0;
			for (i = 0; i < n; i++)
				k |= (size_t)o.samples[r * n + i] << i;
			count[k]++;
		}
		for (s = 0; s < 16; s++) {
			double want = (double)reads * prob[s] / z;
			if (want < 5) /* too rare to test; counted in no cell */
				continue;
			chi2 += ((double)count[s] - want) * ((double)count[s] - want) / want;
		}
		/* 15 degrees of freedom at most: P(chi2 > 45) < 1e-4 */
		cr_assert_lt(chi2, 45.0, "kind %d: chi-square %.1f", kind, chi2);
		out_free(&o);
		qubo_model_free(m);
	}
}

/* Results do not depend on the number of threads, nor on which worker ran a
 * read; a read is the same as a slice of its own. */
Test(pt_kernel, threads_and_slices_do_not_change_reads)
{
	qubo_model *m = model_of(8, 30, 0.3, W_REAL);
	qubo__pt_params p = params(20, 4, 0.2, 2.0, 1, 0);
	pt_out one = sample(m, 9, 4, 1, &p), three = sample(m, 9, 4, 3, &p);
	size_t n = 30, r;

	cr_assert_eq(memcmp(one.samples, three.samples, 9 * n), 0);
	for (r = 0; r < 9; r++) {
		qubo__run run;
		uint8_t x[30];
		double e;
		qubo__result res;
		memset(&run, 0, sizeof run);
		run.num_reads = 1;
		run.seed = 4;
		run.first_read = r;
		run.threads = 1;
		run.alloc = &m->alloc;
		cr_assert_eq(qubo__pt_sample(m, &p, &run, NULL, x, &e, &res), QUBO_OK);
		cr_assert_eq(memcmp(x, one.samples + r * n, n), 0, "read %zu", r);
		cr_assert_eq(e, one.energies[r]);
	}
	out_free(&one);
	out_free(&three);
	qubo_model_free(m);
}

/* The default ladder (doc/solvers.md): a Max-Cut ring (h_i = −2, J = 2 on
 * each edge) has s² = 8, so β_hot = 4/√8; its gap is 2, so β_cold =
 * log(1000)/2; rungs a factor 1 + 5.8/√n apart, at least 4, in multiples of 8. Without
 * couplers the hot end is the "sa" rule's, at most β_cold / 2. */
Test(pt_kernel, default_ladder)
{
	static const size_t sizes[] = { 10, 1000, 100000 };
	size_t k, i;

	for (k = 0; k < 3; k++) {
		size_t n = sizes[k], want;
		qubo_model *m;
		double bh, bc, sh, sc, ratio;
		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (i = 0; i < n; i++) {
			cr_assert_eq(qubo_model_add_linear(m, (uint32_t)i, -2), QUBO_OK);
			cr_assert_eq(qubo_model_add_quadratic(m, (uint32_t)i, (uint32_t)((i + 1) % n),
							      2), QUBO_OK);
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		cr_assert_eq(qubo__pt_default_betas(m, &bh, &bc), QUBO_OK);
		cr_assert(fabs(bh - 4 / sqrt(8.0)) < 1e-12, "n %zu: beta_hot %.17g", n, bh);
		cr_assert(fabs(bc - log(1000.0) / 2) < 1e-12, "n %zu: beta_cold %.17g", n, bc);
		ratio = 1 + 5.8 / sqrt((double)n);
		want = 1 + (size_t)ceil(log(bc / bh) / log(ratio));
		want = want < 4 ? 4 : want > 64 ? 64 : want;
		want = (want + 7) / 8 * 8; /* a multiple of the 8 lanes */
		cr_assert_eq(qubo__pt_default_replicas(n, bh, bc), want, "n %zu", n);
		cr_assert_eq(qubo__sa_default_betas(m, &sh, &sc), QUBO_OK);
		cr_assert_geq(bh, sh);
		qubo_model_free(m);
	}
	/* linear weights only: the "sa" hot end, capped at half the cold one */
	{
		qubo_model *m = one_weight(-3, 0);
		double bh, bc, sh, sc;
		cr_assert_eq(qubo__pt_default_betas(m, &bh, &bc), QUBO_OK);
		cr_assert_eq(qubo__sa_default_betas(m, &sh, &sc), QUBO_OK);
		cr_assert_eq(bh, fmin(sh, bc / 2));
		cr_assert(fabs(bc - log(1000.0) / 3) < 1e-12, "%.17g", bc);
		qubo_model_free(m);
	}
	cr_assert_eq(qubo__pt_default_replicas(100000, 1e-6, 1e6), 64);
	cr_assert_eq(qubo__pt_default_replicas(1, 1, 1), 8);
}

/* The ladder's rungs: from beta_hot to beta_cold, never decreasing and
 * finite, the ordinary geometric rungs where the ratio of the ends is a
 * double, and in logarithms where it is not (1e-200 to 1e200, or the
 * smallest subnormal to 2), where a power of the ratio would be infinite. */
Test(pt_kernel, ladder_rungs_stay_within_their_ends)
{
	static const double ends[][2] = { { 0.05, 2.0 }, { 0.447, 3.45 }, { 1.0, 1.0 },
					  { 1e-200, 1e200 }, { 0x1p-1074, 2.0 },
					  { 1e-300, 0x1.fffffffffffffp+1023 } };
	static const size_t rungs[] = { 1, 2, 3, 24, 64 };
	size_t a, b, t;

	for (a = 0; a < sizeof ends / sizeof ends[0]; a++)
		for (b = 0; b < sizeof rungs / sizeof rungs[0]; b++) {
			double bh = ends[a][0], bc = ends[a][1], prev = bh, ratio = bc / bh;
			size_t R = rungs[b];

			for (t = 0; t < R; t++) {
				double r = qubo__pt_rung(bh, bc, t, R);

				cr_assert(isfinite(r) && r >= prev && r <= bc,
					  "[%g, %g], %zu rungs: rung %zu is %g after %g", bh, bc, R,
					  t, r, prev);
				if (t == 0 && R > 1)
					cr_assert_eq(r, bh);
				if (t + 1 < R && isfinite(ratio))
					cr_assert_eq(r, fmax(bh, fmin(bh * pow(ratio, (double)t /
									  (double)(R - 1)), bc)));
				prev = r;
			}
			cr_assert_eq(prev, bc);
		}
}

/* A large offset changes no decision: the exchanges compare the replicas'
 * energies without it, so the samples are those of the model without it,
 * on both engines (with the offset in the difference, 1e17 rounds away the
 * units of a difference and with them the rule's choices). */
Test(pt_kernel, an_offset_changes_no_decision)
{
	static const unsigned flags[] = { 0, QUBO__PT_REAL };
	size_t v, reads = 6, n = 40;
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++)
		for (v = 0; v < 2; v++) {
			qubo_model *m = model_of(77 + (size_t)kind, n, 0.3, kind);
			qubo_model *big = model_of(77 + (size_t)kind, n, 0.3, kind);
			qubo__pt_params p = params(200, 8, 0.05, 3.0, 1, flags[v]);
			pt_out a, b;

			if (kind == W_REAL && !flags[v]) {
				qubo_model_free(m);
				qubo_model_free(big);
				continue; /* reals take the real engine either way */
			}
			cr_assert_eq(qubo_model_add_offset(big, 1e17), QUBO_OK);
			cr_assert_eq(qubo_model_compile(big), QUBO_OK);
			a = sample(m, reads, 5, 1, &p);
			b = sample(big, reads, 5, 1, &p);
			cr_assert_eq(memcmp(a.samples, b.samples, reads * n), 0,
				     "kind %d, flags %u: the offset changed the samples", kind,
				     flags[v]);
			out_free(&a);
			out_free(&b);
			qubo_model_free(m);
			qubo_model_free(big);
		}
}
