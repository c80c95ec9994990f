/*
 * White-box tests of the simulated annealing kernel (lib/qubo/solvers/sa.c):
 * brute force as the referee on small models, exact energies, determinism
 * across thread counts, the SIMD and grouped sweeps against the portable
 * ones (identical samples), run control (cancel, time limit, target), the
 * default β rule on extreme models, argument checks and allocation failures.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/kernel.h"
#include "util.h"

/* ---------------------------------------------------------------------------
 * Helpers.
 */

enum { W_INT, W_REAL, W_HALF };

/* A random compiled model: n variables, each pair present with probability
 * density, weights integers in [−5, 5], reals in [−1, 1) or multiples of
 * 1/4 in [−2, 2]. */
static qubo_model *random_model(tu_rng *g, size_t n, double density, int kind,
				const qubo_allocator *a)
{
	qubo_model *m;
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, n, a), QUBO_OK);
	for (i = 0; i < n; i++) {
		double w = kind == W_INT ? (double)tu_range(g, -5, 5)
			 : kind == W_REAL ? 2 * tu_unit(g) - 1
					  : (double)tu_range(g, -8, 8) / 4;
		cr_assert_eq(qubo_model_add_linear(m, i, w), QUBO_OK);
		for (j = i + 1; j < n; j++) {
			if (tu_unit(g) >= density)
				continue;
			w = kind == W_INT ? (double)tu_range(g, -5, 5)
			  : kind == W_REAL ? 2 * tu_unit(g) - 1 : (double)tu_range(g, -8, 8) / 4;
			cr_assert_eq(qubo_model_add_quadratic(m, i, j, w), QUBO_OK);
		}
	}
	cr_assert_eq(qubo_model_add_offset(m, kind == W_REAL ? 0.25 : 3), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static qubo_model *seeded_model(uint64_t seed, size_t n, double density, int kind)
{
	tu_rng g = { seed };

	return random_model(&g, n, density, kind, NULL);
}

static double brute_min(const qubo_model *m)
{
	size_t n = qubo_model_num_variables(m), s, i;
	uint8_t x[20];
	double best = HUGE_VAL, e;

	cr_assert(n <= 20);
	for (s = 0; s < ((size_t)1 << n); s++) {
		for (i = 0; i < n; i++)
			x[i] = (uint8_t)((s >> i) & 1);
		cr_assert_eq(qubo_model_energy(m, x, n, &e), QUBO_OK);
		if (e < best)
			best = e;
	}
	return best;
}

typedef struct sa_out {
	uint8_t *samples;
	double *energies;
	qubo__result res;
	int rc;
} sa_out;

static void out_free(sa_out *o)
{
	free(o->samples);
	free(o->energies);
}

static qubo__run run_init(size_t reads, uint64_t seed, int threads)
{
	qubo__run run;

	memset(&run, 0, sizeof run);
	run.num_reads = reads;
	run.seed = seed;
	run.threads = threads;
	return run;
}

/* keep: the kernel's keep_lowest, or -1 for the "sa" backend's default (the
 * lowest state when the schedule cools, the final one at constant β). */
static sa_out sample_keep(const qubo_model *m, size_t sweeps, double bh, double bc,
			  const qubo__run *run, unsigned flags, int keep)
{
	qubo__sa_params p = { sweeps, bh, bc, flags,
			      keep >= 0 ? keep : (bh == 0 && bc == 0) || bc > bh };
	size_t n = qubo_model_num_variables(m);
	sa_out o;

	o.samples = malloc(run->num_reads * n + 1);
	o.energies = malloc(run->num_reads * sizeof *o.energies);
	cr_assert(o.samples && o.energies);
	memset(&o.res, 0, sizeof o.res);
	o.rc = qubo__sa_sample(m, &p, run, o.samples, o.energies, &o.res);
	return o;
}

static sa_out sample_flags(const qubo_model *m, size_t sweeps, double bh, double bc,
			   const qubo__run *run, unsigned flags)
{
	return sample_keep(m, sweeps, bh, bc, run, flags, -1);
}

static sa_out sample(const qubo_model *m, size_t sweeps, double bh, double bc,
		     const qubo__run *run)
{
	return sample_flags(m, sweeps, bh, bc, run, 0);
}

static double min_energy(const sa_out *o)
{
	double best = HUGE_VAL;
	size_t r;

	for (r = 0; r < o->res.reads_done; r++)
		if (o->energies[r] < best)
			best = o->energies[r];
	return best;
}

/* Every valid row is a 0/1 sample whose energy is exactly the one returned. */
static void check_rows(const qubo_model *m, const sa_out *o)
{
	size_t n = qubo_model_num_variables(m), r, i;
	double e;

	for (r = 0; r < o->res.reads_done; r++) {
		for (i = 0; i < n; i++)
			cr_assert_leq(o->samples[r * n + i], 1);
		cr_assert_eq(qubo_model_energy(m, o->samples + r * n, n, &e), QUBO_OK);
		cr_assert_eq(e, o->energies[r], "read %zu: energy %.17g returned %.17g", r, e,
			     o->energies[r]);
	}
}

/* Case i of what succeeded and ended for reason stop (enum qubo__stop), and
 * every row it kept is exact. */
static void check_stop(const qubo_model *m, const sa_out *o, int stop, const char *what, int i)
{
	cr_assert_eq(o->rc, QUBO_OK, "%s %d: rc %d: %s", what, i, o->rc, qubo_error_message());
	cr_assert_eq(o->res.stop, stop, "%s %d: stop %d, expected %d", what, i, o->res.stop,
		     stop);
	check_rows(m, o);
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A chain-free model with n variables: only linear terms, half of them
 * negative, so the ground state is known and sweeps are cheap. */
static qubo_model *linear_model(size_t n)
{
	qubo_model *m;
	uint32_t i;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++)
		cr_assert_eq(qubo_model_add_linear(m, i, i % 2 ? 1.0 : -1.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

/* ---------------------------------------------------------------------------
 * Brute force is the referee.
 */

static void brute_force_family(int kind, uint64_t seed0)
{
	/* 12 models under valgrind, where 24 took 0.9 s per family */
	int t, models = getenv("QUBO_TEST_VALGRIND") ? 12 : 24;

	for (t = 0; t < models; t++) {
		tu_rng g = { seed0 + (uint64_t)t };
		size_t n = 1 + (size_t)tu_below(&g, 14);
		qubo_model *m = random_model(&g, n, 0.5, kind, NULL);
		qubo__run run = run_init(32, 100 + (uint64_t)t, 2);
		sa_out o = sample(m, 200, 0, 0, &run);
		double bf = brute_min(m);

		check_stop(m, &o, QUBO__STOP_DONE, "brute force model", t);
		cr_assert_eq(o.res.reads_done, 32, "model %d", t);
		cr_assert_eq(min_energy(&o), bf, "model %d (n=%zu, kind %d): SA %.17g, brute %.17g",
			     t, n, kind, min_energy(&o), bf);
		out_free(&o);
		qubo_model_free(m);
	}
}

Test(sa_kernel, integer_models_reach_brute_force_minimum)
{
	brute_force_family(W_INT, 1000);
}

Test(sa_kernel, real_models_reach_brute_force_minimum)
{
	brute_force_family(W_REAL, 2000);
}

Test(sa_kernel, quarter_weights_reach_brute_force_minimum)
{
	brute_force_family(W_HALF, 3000);
}

Test(sa_kernel, large_integer_weights_use_the_real_path_correctly)
{
	int t;

	for (t = 0; t < 8; t++) {
		tu_rng g = { 4000 + (uint64_t)t };
		size_t n = 8 + (size_t)tu_below(&g, 6);
		qubo_model *m;
		uint32_t i, j;
		qubo__run run = run_init(32, 5, 1);
		sa_out o;

		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (i = 0; i < n; i++) {
			qubo_model_add_linear(m, i, (double)tu_range(&g, -100000, 100000));
			for (j = i + 1; j < n; j++)
				qubo_model_add_quadratic(m, i, j,
							 (double)tu_range(&g, -100000, 100000));
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		o = sample(m, 300, 0, 0, &run);
		check_stop(m, &o, QUBO__STOP_DONE, "large weights, model", t);
		cr_assert_eq(min_energy(&o), brute_min(m), "model %d", t);
		out_free(&o);
		qubo_model_free(m);
	}
}

/* ---------------------------------------------------------------------------
 * Energies, counts, determinism.
 */

Test(sa_kernel, energies_are_exact_and_attempts_counted)
{
	int kind;

	for (kind = W_INT; kind <= W_HALF; kind++) {
		qubo_model *m = seeded_model(77 + (uint64_t)kind, 150, 0.05, kind);
		qubo__run run = run_init(5, 9, 2);
		sa_out o = sample(m, 400, 0, 0, &run);

		check_stop(m, &o, QUBO__STOP_DONE, "energies, kind", kind);
		cr_assert_eq(o.res.reads_done, 5, "kind %d", kind);
		cr_assert_eq(o.res.flips, (uint64_t)5 * 400 * 150, "kind %d", kind);
		cr_assert(o.res.seconds >= 0, "kind %d", kind);
		out_free(&o);
		qubo_model_free(m);
	}
}

Test(sa_kernel, same_seed_same_samples_whatever_the_thread_count)
{
	int kind, th;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		qubo_model *m = seeded_model(500 + (uint64_t)kind, 203, 0.04, kind);
		size_t n = 203;
		qubo__run run = run_init(12, 42, 1);
		sa_out ref = sample(m, 150, 0, 0, &run);

		cr_assert_eq(ref.rc, QUBO_OK);
		for (th = 2; th <= 3; th++) {
			sa_out o;
			run.threads = th;
			o = sample(m, 150, 0, 0, &run);
			cr_assert_eq(o.rc, QUBO_OK);
			cr_assert_eq(o.res.reads_done, 12);
			cr_assert(!memcmp(o.samples, ref.samples, 12 * n), "threads=%d differ", th);
			cr_assert(!memcmp(o.energies, ref.energies, 12 * sizeof(double)));
			out_free(&o);
		}
		out_free(&ref);
		qubo_model_free(m);
	}
}

Test(sa_kernel, read_r_depends_only_on_seed_and_r)
{
	qubo_model *m = seeded_model(8, 64, 0.1, W_INT);
	qubo__run run = run_init(3, 1234, 1);
	sa_out a = sample(m, 50, 0, 0, &run), b;

	run.num_reads = 7;
	run.threads = 3;
	b = sample(m, 50, 0, 0, &run);
	cr_assert_eq(a.rc, QUBO_OK);
	cr_assert_eq(b.rc, QUBO_OK);
	cr_assert(!memcmp(a.samples, b.samples, 3 * 64));
	out_free(&a);
	out_free(&b);
	qubo_model_free(m);
}

/* Compares a run with the given flags against the portable single-read
 * sweeps: samples and energies must be identical. */
static void same_as_portable(const qubo_model *m, size_t reads, size_t sweeps, double bh,
			     double bc, unsigned flags, const char *what)
{
	size_t n = qubo_model_num_variables(m);
	qubo__run run = run_init(reads, 77, 2);
	sa_out ref = sample_flags(m, sweeps, bh, bc, &run, QUBO__SA_PORTABLE | flags);
	sa_out o = sample_flags(m, sweeps, bh, bc, &run, flags);

	cr_assert_eq(ref.rc, QUBO_OK, "%s", what);
	cr_assert_eq(o.rc, QUBO_OK, "%s", what);
	cr_assert_eq(o.res.reads_done, reads, "%s", what);
	cr_assert_eq(o.res.flips, (uint64_t)reads * sweeps * n, "%s", what);
	cr_assert(!memcmp(o.samples, ref.samples, reads * n), "%s: samples differ", what);
	cr_assert(!memcmp(o.energies, ref.energies, reads * sizeof(double)), "%s", what);
	check_rows(m, &o);
	out_free(&ref);
	out_free(&o);
}

Test(sa_kernel, grouped_and_simd_reads_equal_portable_reads)
{
	static const size_t sizes[] = { 203, 64, 9 };
	int kind;
	size_t s;

	/* 19 reads: two groups of 8 and 3 single reads. Integer, dyadic and
	 * real weights (float32 fields), and real weights in double. */
	for (kind = W_INT; kind <= W_HALF + 1; kind++) {
		for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			int wk = kind > W_HALF ? W_REAL : kind;
			unsigned flags = kind > W_HALF ? QUBO__SA_NO_F32 : 0;
			qubo_model *m = seeded_model(900 + (uint64_t)kind * 10 + s, sizes[s],
						     8.0 / (double)sizes[s], wk);
			char what[64];

			snprintf(what, sizeof what, "kind %d, n %zu", kind, sizes[s]);
			same_as_portable(m, 19, 60, 0, 0, flags, what);
			/* a hot schedule: many accepted flips, many re-decisions */
			same_as_portable(m, 8, 20, 0.01, 0.5, flags, what);
			/* past three float32 resynchronisations of the fields */
			if (s == 0)
				same_as_portable(m, 19, 200, 0, 0, flags, what);
			qubo_model_free(m);
		}
	}
}

/* |ΔE| = 4096, the integer path's largest: a group sums its accepted ΔE in
 * int16 per half block there (8 × 4096 does not fit), and a hot schedule
 * accepts 8 rises of 4096 in a row often enough to show it. */
Test(sa_kernel, largest_integer_steps_equal_portable_reads)
{
	tu_rng g = { 47 };
	qubo_model *m;
	uint32_t i;

	cr_assert_eq(qubo_model_new(&m, 1024, NULL), QUBO_OK);
	for (i = 0; i < 1024; i++)
		cr_assert_eq(qubo_model_add_linear(m, i, tu_below(&g, 2) ? 4096.0 : -4096.0),
			     QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	same_as_portable(m, 16, 40, 1e-7, 1e-6, 0, "ΔE 4096");
	qubo_model_free(m);
}

Test(sa_kernel, wide_models_equal_portable_reads)
{
	/* 65600 variables: 32-bit columns, unpadded rows. */
	const uint32_t n = 65600;
	tu_rng g = { 31 };
	qubo_model *m;
	uint32_t i;
	int kind;

	for (kind = W_INT; kind <= W_REAL; kind++) {
		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (i = 0; i < n; i++) {
			double w = kind == W_INT ? (double)tu_range(&g, -3, 3) : 2 * tu_unit(&g) - 1;
			cr_assert_eq(qubo_model_add_linear(m, i, w), QUBO_OK);
			uint32_t j = (uint32_t)tu_below(&g, n);
			w = kind == W_INT ? (double)tu_range(&g, -3, 3) : 2 * tu_unit(&g) - 1;
			cr_assert_eq(qubo_model_add_quadratic(m, i, j == i ? (i + 1) % n : j,
							      w == 0 ? 1 : w), QUBO_OK);
		}
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		same_as_portable(m, 8, 2, 0.5, 2, 0, "wide");
		qubo_model_free(m);
	}
}

/* A model of 32-bit columns and no couplers has no column or weight arrays:
 * every field type sweeps its empty rows (clang's UBSan reported the row
 * address formed from the missing arrays). */
Test(sa_kernel, wide_models_without_couplers)
{
	const size_t n = 65600;
	qubo_model *m;
	uint32_t i;
	int kind;

	for (kind = 0; kind < 3; kind++) {
		qubo__run run = run_init(2, 3, 1);
		sa_out o;

		cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
		for (i = 0; i < n; i++)
			cr_assert_eq(qubo_model_add_linear(m, i, (i % 2 ? 1.0 : -1.0) *
								    (kind ? 0.3 : 1.0)), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		/* an unreachable target keeps the fields in double */
		run.has_target = kind == 2;
		run.target = -1e300;
		o = sample(m, 3, 0, 0, &run);
		check_stop(m, &o, QUBO__STOP_DONE, "no couplers", kind);
		out_free(&o);
		qubo_model_free(m);
	}
}

Test(sa_kernel, grouped_reads_keep_their_state_when_stopped)
{
	const size_t n = 100000;
	qubo_model *m = linear_model(n);
	qubo__run run = run_init(16, 5, 2);
	sa_out o;

	run.time_limit = 0.2;
	o = sample(m, 100000000, 0, 0, &run);
	check_stop(m, &o, QUBO__STOP_TIME, "grouped", 0);
	/* each thread took a group of 8 reads, and all of them ran; without
	 * SIMD groups, each thread ran one read */
	cr_assert(o.res.reads_done == 16 || o.res.reads_done == 2, "%zu reads",
		  o.res.reads_done);
	cr_assert_eq(o.res.flips % n, 0);
	out_free(&o);
	qubo_model_free(m);
}

Test(sa_kernel, different_seeds_differ)
{
	qubo_model *m = seeded_model(9, 100, 0.05, W_REAL);
	qubo__run run = run_init(4, 1, 1);
	sa_out a = sample(m, 5, 0.01, 0.02, &run), b;

	run.seed = 2;
	b = sample(m, 5, 0.01, 0.02, &run);
	cr_assert_eq(a.rc, QUBO_OK);
	cr_assert_eq(b.rc, QUBO_OK);
	cr_assert(memcmp(a.samples, b.samples, 4 * 100) != 0);
	/* and the reads of one run differ from each other */
	cr_assert(memcmp(a.samples, a.samples + 100, 100) != 0);
	out_free(&a);
	out_free(&b);
	qubo_model_free(m);
}

Test(sa_kernel, explicit_beta_range_and_one_sweep)
{
	qubo_model *m = seeded_model(10, 12, 0.5, W_INT);
	qubo__run run = run_init(64, 3, 2);
	sa_out o = sample(m, 1, 5, 5, &run); /* one sweep: a quench at β = 5 */

	check_stop(m, &o, QUBO__STOP_DONE, "one sweep", 0);
	cr_assert_eq(o.res.flips, (uint64_t)64 * 12);
	out_free(&o);
	o = sample(m, 300, 0.05, 20, &run);
	cr_assert_eq(o.rc, QUBO_OK);
	cr_assert_eq(min_energy(&o), brute_min(m));
	out_free(&o);
	qubo_model_free(m);
}

Test(sa_kernel, empty_model_gives_the_offset)
{
	qubo_model *m;
	qubo__run run = run_init(3, 1, 2);
	sa_out o;

	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, 2.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	o = sample(m, 10, 0, 0, &run);
	check_stop(m, &o, QUBO__STOP_DONE, "empty", 0);
	cr_assert_eq(o.res.reads_done, 3);
	cr_assert_eq(o.energies[0], 2.5);
	cr_assert_eq(o.energies[2], 2.5);
	cr_assert_eq(o.res.flips, 0);
	out_free(&o);
	qubo_model_free(m);
}

/* ---------------------------------------------------------------------------
 * Run control.
 */

typedef struct prog {
	pthread_t caller;
	int calls, stop_at, wrong_thread;
	double t_stop;
	size_t last_done, last_total;
	double last_best;
} prog;

static int on_progress(size_t done, size_t total, double best, void *ud)
{
	prog *p = ud;

	p->calls++;
	if (!pthread_equal(pthread_self(), p->caller))
		p->wrong_thread = 1;
	p->last_done = done;
	p->last_total = total;
	p->last_best = best;
	if (p->stop_at && p->calls >= p->stop_at) {
		p->t_stop = now_mono();
		return 1;
	}
	return 0;
}

Test(sa_kernel, progress_stop_ends_the_run_within_a_sweep)
{
	const size_t n = 50000;
	qubo_model *m = linear_model(n);
	qubo__run run = run_init(1, 5, 1);
	prog pr = { pthread_self(), 0, 2, 0, 0, 0, 0, 0 };
	sa_out o;
	double t_end, sweep_time;
	uint64_t sweeps_done;

	run.progress = on_progress;
	run.user_data = &pr;
	o = sample(m, 100000000, 0, 0, &run);
	t_end = now_mono();
	check_stop(m, &o, QUBO__STOP_CANCEL, "progress stop", 0);
	cr_assert_eq(o.res.reads_done, 1); /* the interrupted read keeps its state */
	cr_assert(!pr.wrong_thread);
	cr_assert_geq(pr.calls, 3); /* two ticks and the final call */
	cr_assert_eq(pr.last_done, 1);
	cr_assert_eq(pr.last_total, 1);
	cr_assert_eq(pr.last_best, o.energies[0]);
	/* whole sweeps only, and not many of them */
	cr_assert_eq(o.res.flips % n, 0);
	sweeps_done = o.res.flips / n;
	cr_assert_gt(sweeps_done, 0);
	cr_assert_lt(sweeps_done, 100000000);
	sweep_time = o.res.seconds / (double)sweeps_done;
	cr_assert_leq(t_end - pr.t_stop, 2 * sweep_time + 0.1,
		      "stopped %.3f s after the callback; a sweep takes %.4f s",
		      t_end - pr.t_stop, sweep_time);
	out_free(&o);
	qubo_model_free(m);
}

Test(sa_kernel, progress_is_called_at_the_end)
{
	qubo_model *m = seeded_model(11, 10, 0.5, W_INT);
	qubo__run run = run_init(6, 5, 2);
	prog pr = { pthread_self(), 0, 0, 0, 0, 0, 0, 0 };
	sa_out o;

	run.progress = on_progress;
	run.user_data = &pr;
	o = sample(m, 20, 0, 0, &run);
	check_stop(m, &o, QUBO__STOP_DONE, "progress at the end", 0);
	cr_assert_geq(pr.calls, 1);
	cr_assert_eq(pr.last_done, 6);
	cr_assert_eq(pr.last_best, min_energy(&o));
	cr_assert(!pr.wrong_thread);
	out_free(&o);
	qubo_model_free(m);
}

Test(sa_kernel, time_limit_is_honoured)
{
	const size_t n = 100000;
	qubo_model *m = linear_model(n);
	qubo__run run = run_init(5, 5, 2);
	sa_out o;
	double sweep_time, slack;

	run.time_limit = 0.3;
	o = sample(m, 100000000, 0, 0, &run);
	check_stop(m, &o, QUBO__STOP_TIME, "time limit", 0);
	/* the two reads that started are kept, the three others never ran */
	cr_assert_eq(o.res.reads_done, 2);
	sweep_time = o.res.seconds / ((double)o.res.flips / (double)n / 2);
	cr_assert_geq(o.res.seconds, 0.3);
	/* valgrind slows thread wake-ups and the clock checks far more than the sweeps */
	slack = getenv("QUBO_TEST_VALGRIND") ? 2.0 : 0.2;
	cr_assert_leq(o.res.seconds, 0.3 + 2 * sweep_time + slack, "took %.3f s", o.res.seconds);
	out_free(&o);
	qubo_model_free(m);
}

/* Whether the kernel can run reads in groups of 8 (AVX2 and FMA). */
static int have_groups(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
	return 0;
#endif
}

/* Single reads stop at once, mid-sweep: the last read reached the target.
 * Groups of 8 check at the end of each sweep: one of the last group did. */
Test(sa_kernel, target_stops_the_run_early)
{
	int kind, groups;

	for (groups = 0; groups < 2; groups++)
	for (kind = W_INT; kind <= W_REAL; kind++) {
		qubo_model *m = seeded_model(12 + (uint64_t)kind, 12, 0.5, kind);
		double bf = brute_min(m);
		qubo__run run = run_init(100000, 5, 1);
		size_t r, last = groups && have_groups() ? 8 : 1, hit = 0;
		sa_out o;

		run.has_target = 1;
		run.target = bf;
		o = sample_flags(m, 200, 0, 0, &run, groups ? 0 : QUBO__SA_NO_LANES);
		check_stop(m, &o, QUBO__STOP_TARGET, "target, kind", kind);
		cr_assert_lt(o.res.reads_done, 100000, "kind %d", kind);
		cr_assert_eq(o.res.reads_done % last, 0, "kind %d", kind);
		for (r = o.res.reads_done - last; r < o.res.reads_done; r++)
			hit += o.energies[r] <= bf;
		cr_assert_geq(hit, 1, "kind %d, groups %d", kind, groups);
		cr_assert_lt(o.res.flips, (uint64_t)o.res.reads_done * 200 * 12, "kind %d", kind);
		out_free(&o);
		qubo_model_free(m);
	}
}

Test(sa_kernel, unreachable_target_runs_every_read)
{
	qubo_model *m = seeded_model(14, 10, 0.5, W_INT);
	qubo__run run = run_init(20, 5, 2);
	sa_out o;

	run.has_target = 1;
	run.target = brute_min(m) - 0.5;
	o = sample(m, 50, 0, 0, &run);
	check_stop(m, &o, QUBO__STOP_DONE, "unreachable target", 0);
	cr_assert_eq(o.res.reads_done, 20);
	cr_assert_eq(o.res.flips, (uint64_t)20 * 50 * 10);
	out_free(&o);
	qubo_model_free(m);
}

Test(sa_kernel, infinite_target_is_met_by_the_first_state)
{
	qubo_model *m = seeded_model(15, 10, 0.5, W_REAL);
	qubo__run run = run_init(50, 5, 1);
	sa_out o;

	run.has_target = 1;
	run.target = HUGE_VAL;
	o = sample_flags(m, 50, 0, 0, &run, QUBO__SA_NO_LANES);
	check_stop(m, &o, QUBO__STOP_TARGET, "infinite target", 0);
	cr_assert_eq(o.res.reads_done, 1);
	cr_assert_eq(o.res.flips, 0);
	out_free(&o);
	/* a group starts its 8 reads, and all meet it */
	o = sample(m, 50, 0, 0, &run);
	check_stop(m, &o, QUBO__STOP_TARGET, "infinite target, groups", 0);
	cr_assert_eq(o.res.reads_done, have_groups() ? 8 : 1);
	cr_assert_eq(o.res.flips, 0);
	out_free(&o);
	qubo_model_free(m);
}

/* ---------------------------------------------------------------------------
 * Default β rule.
 */

static void check_betas(const qubo_model *m, const char *what)
{
	double bh = -1, bc = -1;

	cr_assert_eq(qubo__sa_default_betas(m, &bh, &bc), QUBO_OK, "%s", what);
	cr_assert(isfinite(bh) && isfinite(bc), "%s: [%g, %g]", what, bh, bc);
	cr_assert_gt(bh, 0, "%s: [%g, %g]", what, bh, bc);
	cr_assert_lt(bh, bc, "%s: [%g, %g]", what, bh, bc);
}

static qubo_model *two_var(double h0, double h1, double j)
{
	qubo_model *m;

	cr_assert_eq(qubo_model_new(&m, 2, NULL), QUBO_OK);
	qubo_model_add_linear(m, 0, h0);
	qubo_model_add_linear(m, 1, h1);
	if (j != 0)
		qubo_model_add_quadratic(m, 0, 1, j);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static void check_two_var_betas(double h0, double h1, double j, const char *what)
{
	qubo_model *m = two_var(h0, h1, j);

	check_betas(m, what);
	qubo_model_free(m);
}

/* Weights from the smallest subnormal to the largest the weight sum allows
 * (three of 2^998: 3 * 2^998 < 2^1000, QUBO_MODEL_MAX_WEIGHT_SUM). */
Test(sa_kernel, default_betas_on_extreme_models)
{
	static const double scales[] = { 1, 1e-300, 1e-310, 4.9e-324, 1e300, 0x1p998 };
	qubo_model *m;
	char what[64];
	size_t s;

	for (s = 0; s < sizeof scales / sizeof *scales; s++) {
		snprintf(what, sizeof what, "scaled %g", scales[s]);
		check_two_var_betas(scales[s], -scales[s], scales[s], what);
		snprintf(what, sizeof what, "single linear %g", scales[s]);
		check_two_var_betas(scales[s], 0, 0, what);
	}
	check_two_var_betas(0, 0, 0, "zero");
	check_two_var_betas(0, 0, 2, "coupler only");
	check_two_var_betas(1, -1, 0, "no couplers");
	m = two_var(1, 1e-300, -1e-300); /* tiny weights beside normal ones */
	check_betas(m, "mixed");
	{
		double bh, bc;
		qubo__sa_default_betas(m, &bh, &bc);
		cr_assert_leq(bc, 1e4 * bh, "tiny weights must not set the cold end");
	}
	qubo_model_free(m);
	cr_assert_eq(qubo_model_new(&m, 1, NULL), QUBO_OK); /* single variable */
	qubo_model_add_linear(m, 0, -3);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	check_betas(m, "one variable");
	qubo_model_free(m);
	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK); /* no variables */
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	check_betas(m, "no variables");
	qubo_model_free(m);
}

Test(sa_kernel, default_betas_scale_inversely_with_weights)
{
	qubo_model *m = seeded_model(16, 30, 0.2, W_REAL), *m4;
	uint32_t i;
	double bh, bc, bh4, bc4, h[30];
	uint32_t rows[500], cols[500];
	double w[500];
	size_t cnt;

	cr_assert_eq(qubo_model_export_linear(m, h, 30), QUBO_OK);
	cr_assert_eq(qubo_model_export_coo(m, rows, cols, w, 500, &cnt), QUBO_OK);
	cr_assert_eq(qubo_model_new(&m4, 30, NULL), QUBO_OK);
	for (i = 0; i < 30; i++)
		qubo_model_add_linear(m4, i, 4 * h[i]);
	for (i = 0; i < cnt; i++)
		qubo_model_add_quadratic(m4, rows[i], cols[i], 4 * w[i]);
	cr_assert_eq(qubo_model_compile(m4), QUBO_OK);
	cr_assert_eq(qubo__sa_default_betas(m, &bh, &bc), QUBO_OK);
	cr_assert_eq(qubo__sa_default_betas(m4, &bh4, &bc4), QUBO_OK);
	cr_assert_eq(bh4, bh / 4);
	cr_assert_eq(bc4, bc / 4);
	qubo_model_free(m);
	qubo_model_free(m4);
}

Test(sa_kernel, default_betas_of_a_penalty_model)
{
	/* exactly-one over 4 variables: linear −1, pairs 2. The largest
	 * low-energy excitation is Δ_hot = max(|−1|, |−1 + 2|) = 1; the hot end
	 * accepts it with probability 1/16 and the cold end ΔE = 1 on any of
	 * the 4 variables with probability 1/100 in all. */
	qubo_model *m;
	uint32_t i, j;
	double bh, bc;

	cr_assert_eq(qubo_model_new(&m, 4, NULL), QUBO_OK);
	for (i = 0; i < 4; i++) {
		qubo_model_add_linear(m, i, -1);
		for (j = i + 1; j < 4; j++)
			qubo_model_add_quadratic(m, i, j, 2);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo__sa_default_betas(m, &bh, &bc), QUBO_OK);
	cr_assert_float_eq(bh, log(16.0) / 1, 1e-12);
	cr_assert_float_eq(bc, log(400.0) / 1, 1e-12);
	qubo_model_free(m);
}

Test(sa_kernel, a_hub_does_not_hide_the_unit_weights_from_the_cold_end)
{
	/* Max-Cut of a wheel, E = −cut: a hub joined to a cycle of 400 leaves.
	 * The hub's field, 400, is 200 times every coupler (2); the mean Δ_i is
	 * about 4 (in the model's units), so the couplers still set the cold
	 * end, on all 401 variables (the G-set unions of planar graphs have
	 * such hubs). */
	enum { L = 400 };
	qubo_model *m;
	uint32_t i;
	double bh, bc;

	cr_assert_eq(qubo_model_new(&m, L + 1, NULL), QUBO_OK);
	for (i = 0; i < L; i++) {
		cr_assert_eq(qubo_model_add_linear(m, i, -3), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, i, (i + 1) % L, 2), QUBO_OK);
		cr_assert_eq(qubo_model_add_quadratic(m, i, L, 2), QUBO_OK);
	}
	cr_assert_eq(qubo_model_add_linear(m, L, -L), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo__sa_default_betas(m, &bh, &bc), QUBO_OK);
	cr_assert_float_eq(bh, log(16.0) / L, 1e-12);
	cr_assert_float_eq(bc, log(100.0 * (L + 1)) / 2, 1e-12);
	cr_assert_eq(qubo__pt_default_betas(m, &bh, &bc), QUBO_OK);
	cr_assert_float_eq(bc, log(1000.0) / 2, 1e-12);
	qubo_model_free(m);
}

/* ---------------------------------------------------------------------------
 * Arguments and allocation failures.
 */

/* Samples m into scratch rows sized for bad_arguments_are_rejected. */
static int try_sample(const qubo_model *m, const qubo__sa_params *p, const qubo__run *run)
{
	uint8_t s[10];
	double e[2];
	qubo__result res;

	return qubo__sa_sample(m, p, run, s, e, &res);
}

Test(sa_kernel, bad_arguments_are_rejected)
{
	qubo_model *m = seeded_model(17, 5, 0.5, W_INT);
	qubo__sa_params p = { 10, 0, 0, 0, 1 };
	qubo__run run = run_init(2, 1, 1);
	qubo__result res;
	uint8_t s[10];
	double e[2], bh, bc;

	cr_assert_eq(qubo__sa_sample(NULL, &p, &run, s, e, &res), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo__sa_sample(m, NULL, &run, s, e, &res), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo__sa_sample(m, &p, NULL, s, e, &res), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo__sa_sample(m, &p, &run, NULL, e, &res), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo__sa_sample(m, &p, &run, s, e, NULL), QUBO_ERR_MISUSE);
	run.num_reads = 0;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "num_reads 0");
	run.num_reads = 2;
	run.threads = 0;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "threads 0");
	cr_assert(strstr(qubo_error_message(), "threads"));
	run.threads = 1;
	p.num_sweeps = 0;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "num_sweeps 0");
	p.num_sweeps = 10;
	p.beta_hot = 1; /* one of the two zero */
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "beta_cold 0");
	p.beta_cold = -1;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "beta_cold -1");
	p.beta_cold = (double)NAN;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "beta_cold NaN");
	p.beta_cold = HUGE_VAL;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "beta_cold inf");
	p.beta_hot = p.beta_cold = 0;
	run.time_limit = (double)NAN;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "time_limit NaN");
	run.time_limit = 0;
	run.has_target = 1;
	run.target = (double)NAN;
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_INVALID_ARG, "target NaN");
	run.has_target = 0;
	cr_assert_eq(qubo__sa_default_betas(NULL, &bh, &bc), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo__sa_default_betas(m, NULL, &bc), QUBO_ERR_MISUSE);
	/* a dirty model */
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, 1), QUBO_OK);
	cr_assert_eq(try_sample(m, &p, &run), QUBO_ERR_MISUSE, "dirty model");
	cr_assert_eq(qubo__sa_default_betas(m, &bh, &bc), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(try_sample(m, &p, &run), QUBO_OK, "recompiled");
	qubo_model_free(m);
}

static void nomem_family(int kind, int threads, size_t reads)
{
	tu_failalloc fa;
	tu_rng g = { 18 + (uint64_t)kind };
	qubo_model *m;
	size_t k, base_live, base_count;
	int ok = 0;

	tu_failalloc_init(&fa, 0);
	m = random_model(&g, 40, 0.2, kind, &fa.a);
	base_live = fa.live;
	for (k = 1; k < 100 && !ok; k++) {
		qubo__run run = run_init(reads, 1, threads);
		sa_out o;

		base_count = fa.count;
		fa.fail_at = base_count + k;
		fa.failed = 0;
		o = sample(m, 20, 0, 0, &run);
		cr_assert_eq(fa.live, base_live, "leak after failing allocation %zu", k);
		if (fa.failed) {
			cr_assert_eq(o.rc, QUBO_ERR_NOMEM, "allocation %zu failed, rc %d", k, o.rc);
			cr_assert_eq(qubo_error_code(), QUBO_ERR_NOMEM);
		} else {
			cr_assert_eq(o.rc, QUBO_OK);
			cr_assert_eq(o.res.reads_done, reads);
			ok = 1;
		}
		out_free(&o);
	}
	cr_assert(ok);
	cr_assert_gt(k, 4, "expected several allocations, got %zu", k - 1);
	fa.fail_at = 0;
	qubo_model_free(m);
	cr_assert_eq(fa.live, 0);
}

Test(sa_kernel, allocation_failures_integer_path)
{
	nomem_family(W_INT, 2, 4);
	nomem_family(W_INT, 2, 16); /* grouped reads */
}

Test(sa_kernel, allocation_failures_real_path)
{
	nomem_family(W_REAL, 3, 4);
	nomem_family(W_REAL, 3, 17);
}

/* ---------------------------------------------------------------------------
 * Metropolis at constant β samples the Boltzmann distribution: the fixed-scan
 * single-flip chain keeps it stationary, and 3 variables mix in a few sweeps.
 */

static void boltzmann_family(double scale, double beta)
{
	static const double h[3] = { 1, -1, 2 }, j01 = -2, j12 = 1, j02 = 1;
	const size_t reads = 6000;
	qubo_model *m;
	qubo__run run = run_init(reads, 99, 2);
	sa_out o;
	double p[8], z = 0, e;
	size_t count[8] = { 0 }, r, s;
	uint8_t x[3];
	uint32_t i;

	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	for (i = 0; i < 3; i++)
		qubo_model_add_linear(m, i, scale * h[i]);
	qubo_model_add_quadratic(m, 0, 1, scale * j01);
	qubo_model_add_quadratic(m, 1, 2, scale * j12);
	qubo_model_add_quadratic(m, 0, 2, scale * j02);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	for (s = 0; s < 8; s++) {
		for (i = 0; i < 3; i++)
			x[i] = (uint8_t)((s >> i) & 1);
		qubo_model_energy(m, x, 3, &e);
		p[s] = exp(-beta * e);
		z += p[s];
	}
	o = sample(m, 40, beta, beta, &run);
	cr_assert_eq(o.rc, QUBO_OK);
	for (r = 0; r < reads; r++) {
		const uint8_t *y = o.samples + 3 * r;
		count[y[0] | y[1] << 1 | y[2] << 2]++;
	}
	for (s = 0; s < 8; s++) {
		double ps = p[s] / z, got = (double)count[s] / (double)reads;
		double tol = 5 * sqrt(ps * (1 - ps) / (double)reads) + 1e-3;
		cr_assert(fabs(got - ps) <= tol, "state %zu: %.4f, Boltzmann %.4f (scale %g)", s,
			  got, ps, scale);
	}
	out_free(&o);
	qubo_model_free(m);
}

Test(sa_kernel, constant_beta_samples_boltzmann_integer_path)
{
	boltzmann_family(1, 0.6);
}

Test(sa_kernel, constant_beta_samples_boltzmann_real_path)
{
	boltzmann_family(0.1, 6); /* 0.1 is not dyadic: real path, same β·E */
}

/* keep_lowest, against an oracle: at constant β a run of S sweeps is the
 * first S sweeps of a longer run (same β, same stream per read), so the
 * lowest state a read of K sweeps saw at a sweep's end has the lowest of the
 * final energies of the runs of 1 … K sweeps (a random start is far above
 * them at this β). Every kernel path must return it. */
static void keep_lowest_oracle(int kind)
{
	enum { K = 12, READS = 19 }; /* two groups of 8 and three single reads */
	static const unsigned paths[] = { 0, QUBO__SA_PORTABLE, QUBO__SA_NO_LANES,
					  QUBO__SA_NO_F32 };
	qubo_model *m = seeded_model(kind == W_INT ? 91 : 92, 90, 0.08, kind);
	qubo__run run = run_init(READS, 7, 2);
	double lowest[READS], beta = kind == W_INT ? 0.6 : 2.0;
	size_t r, s, q, strict = 0;

	for (r = 0; r < READS; r++)
		lowest[r] = HUGE_VAL;
	for (s = 1; s <= K; s++) {
		sa_out o = sample_keep(m, s, beta, beta, &run, 0, 0);
		cr_assert_eq(o.rc, QUBO_OK);
		for (r = 0; r < READS; r++) {
			if (s == K && o.energies[r] > lowest[r])
				strict++;
			lowest[r] = fmin(lowest[r], o.energies[r]);
		}
		out_free(&o);
	}
	cr_assert(strict > 0, "no read ended above its lowest: the test shows nothing");
	for (q = 0; q < sizeof paths / sizeof paths[0]; q++) {
		sa_out o = sample_keep(m, K, beta, beta, &run, paths[q], 1);
		cr_assert_eq(o.rc, QUBO_OK);
		for (r = 0; r < READS; r++) {
			double e;
			cr_assert_eq(qubo_model_energy(m, o.samples + r * 90, 90, &e), QUBO_OK);
			cr_assert_eq(e, o.energies[r]);
			cr_assert_eq(o.energies[r], lowest[r], "path %u, read %zu: %.17g, lowest %.17g",
				     paths[q], r, o.energies[r], lowest[r]);
		}
		out_free(&o);
	}
	qubo_model_free(m);
}

Test(sa_kernel, keep_lowest_returns_the_lowest_sweep_end_integer_path)
{
	keep_lowest_oracle(W_INT);
}

Test(sa_kernel, keep_lowest_returns_the_lowest_sweep_end_real_path)
{
	keep_lowest_oracle(W_REAL);
}

/* With keep_lowest 0 an anneal returns its final states: the same reads
 * with keep_lowest 1 are never higher, and the default is 1 when cooling. */
Test(sa_kernel, keep_lowest_off_returns_final_states)
{
	qubo_model *m = seeded_model(93, 120, 0.05, W_REAL);
	qubo__run run = run_init(24, 11, 2);
	sa_out fin = sample_keep(m, 30, 0.05, 3.0, &run, 0, 0);
	sa_out low = sample_keep(m, 30, 0.05, 3.0, &run, 0, 1);
	sa_out def = sample(m, 30, 0.05, 3.0, &run);
	size_t r;

	cr_assert_eq(fin.rc, QUBO_OK);
	cr_assert_eq(low.rc, QUBO_OK);
	cr_assert_eq(def.rc, QUBO_OK);
	for (r = 0; r < 24; r++) {
		cr_assert_leq(low.energies[r], fin.energies[r], "read %zu", r);
		cr_assert_eq(def.energies[r], low.energies[r], "read %zu", r);
	}
	out_free(&fin);
	out_free(&low);
	out_free(&def);
	qubo_model_free(m);
}
