/* Slices of a seeded run (QUBO_PARAM_FIRST_READ) and merged sample sets:
 * runs over [0, a), [a, b), [b, R), merged, give the run of R reads bit for
 * bit, at any thread count; bad values are refused. */
#include <stdio.h>

#include "helpers.h"

#define READS 37

/* Bit for bit: samples, energies (their bytes), occurrences, read count;
 * and with run 1 the run's seed and status. */
static void assert_same(const qubo_sampleset *want, const qubo_sampleset *got, int run,
			const char *what)
{
	size_t i, n = qubo_sampleset_num_variables(want);
	qubo_sample_info iw = QUBO_SAMPLE_INFO_INIT, ig = QUBO_SAMPLE_INFO_INIT;

	cr_assert_eq(qubo_sampleset_num_variables(got), n, "%s", what);
	cr_assert_eq(qubo_sampleset_size(got), qubo_sampleset_size(want), "%s: %zu samples, "
		     "want %zu", what, qubo_sampleset_size(got), qubo_sampleset_size(want));
	for (i = 0; i < qubo_sampleset_size(want); i++) {
		double ew, eg;
		uint64_t ow, og;
		cr_assert_eq(qubo_sampleset_get(want, i, NULL, 0, &ew, &ow), QUBO_OK);
		cr_assert_eq(qubo_sampleset_get(got, i, NULL, 0, &eg, &og), QUBO_OK);
		cr_assert_eq(memcmp(&ew, &eg, sizeof ew), 0, "%s: energy of row %zu", what, i);
		cr_assert_eq(ow, og, "%s: occurrences of row %zu", what, i);
		cr_assert_eq(memcmp(qubo_sampleset_sample_data(want, i),
				    qubo_sampleset_sample_data(got, i), n),
			     0, "%s: bits of row %zu", what, i);
	}
	cr_assert_eq(qubo_sampleset_get_info(want, &iw), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(got, &ig), QUBO_OK);
	cr_assert_eq(ig.num_samples, iw.num_samples, "%s", what);
	if (!run)
		return;
	cr_assert_eq(ig.seed, iw.seed, "%s", what);
	cr_assert_eq(ig.status, iw.status, "%s", what);
}

static void assert_identical(const qubo_sampleset *want, const qubo_sampleset *got,
			     const char *what)
{
	assert_same(want, got, 1, what);
}

/* A solver with the options of every run of a test. */
static qubo_solver *make(const char *name, int threads)
{
	qubo_solver *s = th_solver(name);

	th_set_int(s, QUBO_PARAM_SEED, 20261124);
	th_set_int(s, QUBO_PARAM_THREADS, threads);
	if (!strcmp(name, "sa"))
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 3); /* short: many distinct samples */
	if (!strcmp(name, "pt")) {
		th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 1);
		th_set_int(s, QUBO_PARAM_NUM_REPLICAS, 2);
	}
	if (!strcmp(name, "tabu")) {
		th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 4);
		th_set_int(s, QUBO_PARAM_NUM_RESTARTS, 1);
	}
	return s;
}

static qubo_sampleset *run(const char *name, const qubo_model *m, int threads, int64_t first,
			   int64_t count)
{
	qubo_solver *s = make(name, threads);
	qubo_sampleset *set = NULL;

	if (first >= 0)
		th_set_int(s, QUBO_PARAM_FIRST_READ, first);
	th_set_int(s, QUBO_PARAM_NUM_READS, count);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s: %s", name,
		     qubo_error_message());
	qubo_solver_free(s);
	return set;
}

/* The run of READS reads against slices cut at a and b, merged in a
 * scrambled order, at 1, 2 and 3 threads; and the slices are not all the
 * same (a slice that ignored first_read would repeat the first reads). */
static void check_solver(const char *name, const qubo_model *m)
{
	static const size_t cuts[][2] = { { 5, 21 }, { 1, 36 }, { 16, 24 }, { 8, 9 } };
	size_t c, num_cuts = th_trials(4, 2); /* fewer under valgrind */
	int threads;

	for (threads = 1; threads <= 3; threads++) {
		qubo_sampleset *whole = run(name, m, threads, -1, READS);
		qubo_sampleset *zero = run(name, m, threads, 0, READS);
		char what[96];

		cr_assert_gt(qubo_sampleset_size(whole), 3, "%s: %zu distinct samples, too few to "
			     "tell slices apart", name, qubo_sampleset_size(whole));
		snprintf(what, sizeof what, "%s, first_read 0, %d threads", name, threads);
		assert_identical(whole, zero, what);
		for (c = 0; c < num_cuts && c < sizeof cuts / sizeof cuts[0]; c++) {
			size_t a = cuts[c][0], b = cuts[c][1];
			/* each slice at another thread count than the whole run */
			qubo_sampleset *p0 = run(name, m, 1 + threads % 3, 0, (int64_t)a);
			qubo_sampleset *p1 = run(name, m, 1 + (threads + 1) % 3, (int64_t)a,
						 (int64_t)(b - a));
			qubo_sampleset *p2 = run(name, m, threads, (int64_t)b,
						 (int64_t)(READS - b));
			const qubo_sampleset *parts[] = { p2, p0, p1 };
			qubo_sampleset *merged = NULL;

			cr_assert_eq(qubo_sampleset_merge(&merged, m, parts, 3, NULL), QUBO_OK,
				     "%s", qubo_error_message());
			snprintf(what, sizeof what, "%s, slices [0,%zu) [%zu,%zu) [%zu,%d), "
				 "%d threads", name, a, a, b, b, READS, threads);
			assert_identical(whole, merged, what);
			qubo_sampleset_free(merged);
			qubo_sampleset_free(p0);
			qubo_sampleset_free(p1);
			qubo_sampleset_free(p2);
		}
		qubo_sampleset_free(whole);
		qubo_sampleset_free(zero);
	}
}

/* Real weights: ties are rare, so distinct reads give distinct samples. */
static qubo_model *real_model(void)
{
	return th_random_model(7, 40, 0.5, 4, 0);
}

Test(slices, sa_single_flips)
{
	qubo_model *m = real_model();

	check_solver("sa", m);
	qubo_model_free(m);
}

/* Integer weights take SA's integer path (and, with AVX2, 8 reads a sweep). */
Test(slices, sa_integer_weights)
{
	qubo_model *m = th_random_model(11, 60, 0.1, 5, 1);

	check_solver("sa", m);
	qubo_model_free(m);
}

Test(slices, sa_group_moves)
{
	qubo_model *m = NULL;
	tu_rng r = { 5 };
	uint32_t i, j;

	cr_assert_eq(qubo_model_new(&m, 48, NULL), QUBO_OK);
	for (i = 0; i < 48; i++) {
		cr_assert_eq(qubo_model_add_linear(m, i, 2 * tu_unit(&r) - 1), QUBO_OK);
		for (j = i + 1; j < 48; j++)
			if (tu_unit(&r) < 0.1)
				cr_assert_eq(qubo_model_add_quadratic(m, i, j, 2 * tu_unit(&r) - 1),
					     QUBO_OK);
	}
	cr_assert_eq(qubo_model_add_group(m, 0, 3), QUBO_OK);
	cr_assert_eq(qubo_model_add_group(m, 5, 4), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	check_solver("sa", m);
	qubo_model_free(m);
}

Test(slices, tabu)
{
	qubo_model *m = real_model();

	check_solver("tabu", m);
	qubo_model_free(m);
}

Test(slices, pt)
{
	qubo_model *m = real_model();

	check_solver("pt", m);
	qubo_model_free(m);
}

Test(slices, descent)
{
	qubo_model *m = real_model();

	check_solver("descent", m);
	qubo_model_free(m);
}

/* One read as a slice of its own is that read of the whole run: the slices
 * of single reads, merged, are the whole run too. */
Test(slices, single_reads)
{
	qubo_model *m = real_model();
	qubo_sampleset *whole = run("sa", m, 2, -1, 12), *merged = NULL;
	qubo_sampleset *parts[12];
	size_t i;

	for (i = 0; i < 12; i++)
		parts[i] = run("sa", m, 1, (int64_t)i, 1);
	cr_assert_eq(qubo_sampleset_merge(&merged, m, (const qubo_sampleset *const *)parts, 12,
					  NULL),
		     QUBO_OK);
	assert_identical(whole, merged, "sa, 12 single reads");
	for (i = 0; i < 12; i++)
		qubo_sampleset_free(parts[i]);
	qubo_sampleset_free(merged);
	qubo_sampleset_free(whole);
	qubo_model_free(m);
}

Test(slices, bad_values_refused)
{
	static const char *const takers[] = { "sa", "tabu", "descent", "pt" };
	qubo_model *m = real_model();
	qubo_sampleset *set = NULL, *init = NULL;
	qubo_solver *s;
	size_t i;
	int64_t v;

	for (i = 0; i < sizeof takers / sizeof takers[0]; i++) {
		s = th_solver(takers[i]);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_FIRST_READ, -1),
			     QUBO_ERR_OUT_OF_RANGE, "%s", takers[i]);
		cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_FIRST_READ, 2147483647),
			     QUBO_ERR_OUT_OF_RANGE, "%s", takers[i]);
		cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_FIRST_READ, 1.0),
			     QUBO_ERR_INVALID_ARG, "%s", takers[i]);
		cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_FIRST_READ, "1"),
			     QUBO_ERR_INVALID_ARG, "%s", takers[i]);
		/* refused values leave the option unset */
		{
			const qubo_options *o = NULL;
			cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
			cr_assert_eq(qubo_options_type(o, QUBO_PARAM_FIRST_READ), QUBO_TYPE_NONE);
		}
		th_set_int(s, QUBO_PARAM_FIRST_READ, 2147483646);
		th_set_int(s, QUBO_PARAM_NUM_READS, 2);
		th_set_int(s, QUBO_PARAM_SEED, 1);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_OUT_OF_RANGE, "%s",
			     takers[i]);
		cr_assert_null(set);
		cr_assert(strstr(qubo_error_message(), "first_read"), "%s", qubo_error_message());
		th_set_int(s, QUBO_PARAM_NUM_READS, 1);
		cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s: %s", takers[i],
			     qubo_error_message());
		qubo_sampleset_free(set);
		set = NULL;
		qubo_solver_free(s);
	}
	/* starting from given states: the reads are the starts */
	set = run("sa", m, 1, -1, 4);
	for (i = 1; i < sizeof takers / sizeof takers[0]; i++) {
		const qubo_options *o = NULL;
		s = th_solver(takers[i]);
		th_set_int(s, QUBO_PARAM_FIRST_READ, 3);
		cr_assert_eq(qubo_solver_sample_from(&init, s, m, set), QUBO_ERR_NOT_SUPPORTED,
			     "%s", takers[i]);
		cr_assert_null(init);
		th_set_int(s, QUBO_PARAM_FIRST_READ, 0);
		cr_assert_eq(qubo_solver_sample_from(&init, s, m, set), QUBO_OK, "%s",
			     takers[i]);
		qubo_sampleset_free(init);
		init = NULL;
		cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
		cr_assert_eq(qubo_options_get_int(o, QUBO_PARAM_FIRST_READ, -1, &v), QUBO_OK);
		cr_assert_eq(v, 0);
		qubo_solver_free(s);
	}
	qubo_sampleset_free(set);
	/* solvers whose reads are not a seeded sequence refuse the key */
	s = th_solver("exhaustive");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_FIRST_READ, 0), QUBO_ERR_NOT_SUPPORTED);
	qubo_solver_free(s);
	s = th_solver("qaoa");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_FIRST_READ, 0), QUBO_ERR_NOT_SUPPORTED);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* ---- qubo_sampleset_from_counts and qubo_sampleset_merge ---- */

Test(merge, export_and_rebuild_is_identity)
{
	qubo_model *m = real_model();
	qubo_sampleset *set = run("sa", m, 2, -1, 40), *back = NULL;
	size_t k = qubo_sampleset_size(set), n = qubo_model_num_variables(m);
	uint8_t *rows = malloc(k * n);
	uint64_t *occ = malloc(k * sizeof *occ);
	uint64_t saved;

	cr_assert(rows && occ);
	cr_assert_eq(qubo_sampleset_export(set, rows, NULL, occ, k), QUBO_OK);
	cr_assert_eq(qubo_sampleset_from_counts(&back, m, rows, occ, k, n, NULL), QUBO_OK);
	assert_same(set, back, 0, "rebuilt from counts");
	qubo_sampleset_free(back);
	back = NULL;
	/* repeated rows add up; an occurrence of 0 and a wrong length are refused */
	saved = occ[0];
	occ[0] = 0;
	cr_assert_eq(qubo_sampleset_from_counts(&back, m, rows, occ, k, n, NULL),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_null(back);
	occ[0] = saved;
	cr_assert_eq(qubo_sampleset_from_counts(&back, m, rows, occ, k, n - 1, NULL),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_sampleset_from_counts(&back, m, rows, NULL, k, n, NULL),
		     QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_from_counts(&back, m, rows, occ, 0, n, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(back), 0);
	qubo_sampleset_free(back);
	{
		uint8_t two[2 * 64];
		uint64_t c2[2] = { 3, 4 };
		double e;
		uint64_t o;
		cr_assert(n <= 64);
		memcpy(two, rows, n);
		memcpy(two + n, rows, n);
		cr_assert_eq(qubo_sampleset_from_counts(&back, m, two, c2, 2, n, NULL), QUBO_OK);
		cr_assert_eq(qubo_sampleset_size(back), 1);
		cr_assert_eq(qubo_sampleset_get(back, 0, NULL, 0, &e, &o), QUBO_OK);
		cr_assert_eq(o, 7);
		qubo_sampleset_free(back);
	}
	free(rows);
	free(occ);
	qubo_sampleset_free(set);
	qubo_model_free(m);
}

Test(merge, figures_and_errors)
{
	qubo_model *m = real_model(), *other = th_random_model(3, 5, 0.5, 2, 1);
	qubo_sampleset *a = run("descent", m, 1, 0, 5), *b = run("descent", m, 1, 5, 6);
	qubo_sampleset *small = run("descent", other, 1, -1, 3), *out = NULL;
	const qubo_sampleset *two[] = { a, b }, *bad[] = { a, small }, *holes[] = { a, NULL };
	qubo_sample_info ia = QUBO_SAMPLE_INFO_INIT, ib = QUBO_SAMPLE_INFO_INIT,
			 io = QUBO_SAMPLE_INFO_INIT;

	cr_assert_eq(qubo_sampleset_merge(&out, m, two, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(a, &ia), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(b, &ib), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(out, &io), QUBO_OK);
	cr_assert_eq(io.num_samples, 11);
	cr_assert_eq(io.flip_attempts, ia.flip_attempts + ib.flip_attempts);
	cr_assert_eq(io.seed, ia.seed);
	cr_assert_eq(io.status, QUBO_OK);
	cr_assert_eq(io.seconds, ia.seconds > ib.seconds ? ia.seconds : ib.seconds);
	qubo_sampleset_free(out);
	out = NULL;
	cr_assert_eq(qubo_sampleset_merge(&out, m, bad, 2, NULL), QUBO_ERR_INVALID_ARG);
	cr_assert_null(out);
	cr_assert_eq(qubo_sampleset_merge(&out, m, holes, 2, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_merge(&out, m, NULL, 2, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_merge(NULL, m, two, 2, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_sampleset_merge(&out, m, NULL, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(out), 0);
	qubo_sampleset_free(out);
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_sampleset_free(small);
	qubo_model_free(m);
	qubo_model_free(other);
}

/* An allocator that refuses every allocation after the first `left`. */
typedef struct failing {
	long left;
	long live;
} failing;

static void *f_malloc(size_t size, void *ud)
{
	failing *f = ud;
	void *p;

	if (f->left-- <= 0)
		return NULL;
	p = malloc(size);
	if (p)
		f->live++;
	return p;
}

static void *f_realloc(void *ptr, size_t size, void *ud)
{
	failing *f = ud;

	if (f->left-- <= 0)
		return NULL;
	return realloc(ptr, size);
}

static void f_free(void *ptr, void *ud)
{
	failing *f = ud;

	f->live--;
	free(ptr);
}

/* Out of memory at each allocation in turn: NOMEM, nothing left allocated,
 * until the merge succeeds. */
Test(merge, out_of_memory)
{
	qubo_model *m = real_model();
	qubo_sampleset *a = run("descent", m, 1, 0, 4), *b = run("descent", m, 1, 4, 4), *out;
	const qubo_sampleset *two[] = { a, b };
	long k;

	for (k = 0;; k++) {
		failing f = { k, 0 };
		qubo_allocator al = { sizeof al, f_malloc, f_realloc, f_free, &f };
		int rc;

		out = NULL;
		rc = qubo_sampleset_merge(&out, m, two, 2, &al);
		if (rc == QUBO_OK) {
			cr_assert_gt(f.live, 0);
			qubo_sampleset_free(out);
			cr_assert_eq(f.live, 0, "after %ld allocations", k);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "after %ld allocations: %s", k,
			     qubo_error_message());
		cr_assert_null(out);
		cr_assert_eq(f.live, 0, "after %ld allocations: %ld blocks leaked", k, f.live);
		cr_assert_lt(k, 100);
	}
	cr_assert_gt(k, 2);
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_model_free(m);
}
