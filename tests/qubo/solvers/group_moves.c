/* Simulated annealing with group moves (doc/solvers-sa.md, "Group moves"):
 * the exhaustive minimum is reached on small models with groups of every
 * kind (slack of ranges, arbitrary coupled groups, groups too large to
 * enumerate), the samples' groups are at their best, results do not depend
 * on the thread count, and the option switches the moves off. */
#include "helpers.h"

static qubo_sampleset *run_sweeps(const qubo_model *m, int64_t reads, int64_t seed, int threads,
				  int group_moves, int64_t sweeps)
{
	qubo_solver *s = th_solver("sa");
	qubo_sampleset *set = NULL;

	th_set_int(s, QUBO_PARAM_NUM_READS, reads);
	th_set_int(s, QUBO_PARAM_NUM_SWEEPS, sweeps);
	th_set_int(s, QUBO_PARAM_SEED, seed);
	th_set_int(s, QUBO_PARAM_THREADS, threads);
	if (group_moves >= 0)
		th_set_int(s, QUBO_PARAM_GROUP_MOVES, group_moves);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	qubo_solver_free(s);
	return set;
}

static qubo_sampleset *run_sa(const qubo_model *m, int64_t reads, int64_t seed, int threads,
			      int group_moves)
{
	return run_sweeps(m, reads, seed, threads, group_moves, 1000);
}

/* A random objective over nx variables plus range constraints over random
 * literals of them, each adding its slack bits as a group. */
static qubo_model *range_model(uint64_t seed, size_t nx, size_t ranges)
{
	tu_rng r = { seed };
	qubo_model *m = NULL;
	size_t i, k;

	cr_assert_eq(qubo_model_new(&m, nx, NULL), QUBO_OK);
	for (i = 0; i < nx; i++)
		cr_assert_eq(qubo_model_add_linear(m, (uint32_t)i, (double)tu_range(&r, -3, 3)),
			     QUBO_OK);
	for (i = 0; i + 1 < nx; i++)
		if (tu_unit(&r) < 0.3)
			cr_assert_eq(qubo_model_add_quadratic(m, (uint32_t)i, (uint32_t)i + 1,
							      (double)tu_range(&r, -2, 2)),
				     QUBO_OK);
	for (k = 0; k < ranges; k++) {
		qubo_lit lits[6];
		int64_t coef[6], lo, span;
		size_t cnt = 3 + (size_t)tu_below(&r, 4);
		for (i = 0; i < cnt; i++) {
			uint32_t v = (uint32_t)tu_below(&r, nx);
			lits[i] = tu_below(&r, 3) ? QUBO_LIT(v) : QUBO_LIT_NEG(v);
			coef[i] = tu_range(&r, 1, 3);
		}
		lo = tu_range(&r, 0, 3);
		span = tu_range(&r, 2, 6);
		cr_assert_eq(qubo_penalty_range(m, lits, coef, cnt, lo, lo + span, 5.0, NULL, NULL),
			     QUBO_OK, "%s", qubo_error_message());
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

static double exhaustive_min(const qubo_model *m)
{
	qubo_solver *s = th_solver("exhaustive");
	qubo_sampleset *set = NULL;
	double e;

	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	e = th_lowest(set);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	return e;
}

Test(group_moves, range_slack_models_reach_exhaustive_minimum)
{
	uint64_t seed, seeds = th_trials(12, 3);

	for (seed = 1; seed <= seeds; seed++) {
		qubo_model *m = range_model(seed, 6 + seed % 4, 2 + seed % 2);
		size_t n = qubo_model_num_variables(m);
		qubo_sampleset *set;

		if (n > 22) {
			qubo_model_free(m);
			continue;
		}
		cr_assert_gt(qubo_model_num_groups(m), 0);
		set = run_sa(m, 20, (int64_t)seed, 2, -1);
		cr_assert_eq(th_lowest(set), exhaustive_min(m), "seed %llu, n = %zu",
			     (unsigned long long)seed, n);
		qubo_sampleset_free(set);
		qubo_model_free(m);
	}
}

/* Groups marked on a dense random model couple with each other and with
 * everything else; a group of 13 variables is beyond enumeration and moves
 * one variable at a time. */
Test(group_moves, arbitrary_groups_reach_exhaustive_minimum)
{
	uint64_t seed, seeds = th_trials(10, 3);

	for (seed = 1; seed <= seeds; seed++) {
		size_t n = 10 + (size_t)(seed % 7);
		qubo_model *m = th_random_model(seed * 13, n, 0.5, 4, (int)(seed & 1));
		qubo_sampleset *set;

		if (seed % 5 == 0) {
			cr_assert_eq(qubo_model_add_group(m, 1, 13 < n - 1 ? 13 : (uint32_t)n - 1),
				     QUBO_OK);
		} else {
			cr_assert_eq(qubo_model_add_group(m, 0, 2), QUBO_OK);
			cr_assert_eq(qubo_model_add_group(m, 3, 3), QUBO_OK);
			cr_assert_eq(qubo_model_add_group(m, (uint32_t)n - 1, 1), QUBO_OK);
		}
		set = run_sa(m, 30, (int64_t)seed, 2, -1);
		cr_assert_eq(th_lowest(set), exhaustive_min(m), "seed %llu, n = %zu",
			     (unsigned long long)seed, n);
		qubo_sampleset_free(set);
		qubo_model_free(m);
	}
}

/* Slack groups never couple with each other, so after every move each is
 * at its best: no other pattern of a group's bits, the rest held, is lower.
 * Short anneals leave states far from the minimum, with varied patterns. */
static void check_groups_at_best(qubo_model *m, int64_t sweeps)
{
	size_t n = qubo_model_num_variables(m), i, g;
	qubo_sampleset *set = run_sweeps(m, 32, 5, 2, -1, sweeps);
	uint8_t *x = malloc(n);

	cr_assert_not_null(x);
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		for (g = 0; g < qubo_model_num_groups(m); g++) {
			uint32_t first, count, p, b;
			double e0, e;
			memcpy(x, qubo_sampleset_sample_data(set, i), n);
			cr_assert_eq(qubo_model_get_group(m, g, &first, &count), QUBO_OK);
			cr_assert_eq(qubo_model_energy(m, x, n, &e0), QUBO_OK);
			for (p = 0; p < (1u << count); p++) {
				for (b = 0; b < count; b++)
					x[first + b] = (uint8_t)(p >> b & 1u);
				cr_assert_eq(qubo_model_energy(m, x, n, &e), QUBO_OK);
				cr_assert_geq(e, e0, "%lld sweeps, sample %zu, group %zu, pattern "
					      "%u: %g < %g", (long long)sweeps, i, g, p, e, e0);
			}
		}
	}
	free(x);
	qubo_sampleset_free(set);
}

Test(group_moves, samples_have_every_group_at_its_best)
{
	static const int64_t sweeps[] = { 1, 2, 5, 1000 };
	qubo_model *m = range_model(77, 30, 12);
	size_t k;

	for (k = 0; k < sizeof sweeps / sizeof sweeps[0]; k++)
		check_groups_at_best(m, sweeps[k]);
	qubo_model_free(m);
}

/* Rewards force k of seven variables on under 1 ≤ Σ x ≤ 6, so the slack
 * (bits worth 1, 2 and 2) must hold exactly k − 1: every pattern of the
 * three bits is needed. */
Test(group_moves, forced_slack_takes_every_value)
{
	uint32_t k, i;

	for (k = 1; k <= 6; k++) {
		qubo_model *m = NULL;
		qubo_lit lits[7];
		int64_t ones[7] = { 1, 1, 1, 1, 1, 1, 1 };

		cr_assert_eq(qubo_model_new(&m, 7, NULL), QUBO_OK);
		for (i = 0; i < 7; i++) {
			lits[i] = QUBO_LIT(i);
			cr_assert_eq(qubo_model_add_linear(m, i, i < k ? -1.0 : 1.0), QUBO_OK);
		}
		cr_assert_eq(qubo_penalty_range(m, lits, ones, 7, 1, 6, 3.0, NULL, NULL), QUBO_OK);
		cr_assert_eq(qubo_model_compile(m), QUBO_OK);
		cr_assert_eq(qubo_model_num_variables(m), 10);
		check_groups_at_best(m, 1);
		check_groups_at_best(m, 1000);
		{
			qubo_sampleset *set = run_sa(m, 4, 1, 1, -1);
			const uint8_t *y = qubo_sampleset_sample_data(set, 0);
			cr_assert_eq(th_lowest(set), -(double)k, "k = %u", k);
			cr_assert_eq((uint32_t)(y[7] + 2 * y[8] + 2 * y[9]), k - 1, "k = %u", k);
			qubo_sampleset_free(set);
		}
		qubo_model_free(m);
	}
}

Test(group_moves, same_seed_same_set_for_any_thread_count)
{
	qubo_model *m = range_model(5, 40, 15);
	qubo_sampleset *a = run_sa(m, 12, 9, 1, -1);
	qubo_sampleset *b = run_sa(m, 12, 9, 2, -1);
	qubo_sampleset *c = run_sa(m, 12, 9, 3, -1);
	qubo_sampleset *d = run_sa(m, 12, 10, 2, -1);

	cr_assert(th_same_sets(a, b));
	cr_assert(th_same_sets(a, c));
	cr_assert(!th_same_sets(a, d), "another seed gave the same samples");
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_sampleset_free(c);
	qubo_sampleset_free(d);
	qubo_model_free(m);
}

/* group_moves = 1 proposes only ungrouped variables; 0 every variable. The
 * flip attempts tell the two apart. */
Test(group_moves, option_switches_the_moves)
{
	qubo_model *m = range_model(3, 20, 6);
	size_t n = qubo_model_num_variables(m), grouped = 0, g;
	qubo_sample_info on = QUBO_SAMPLE_INFO_INIT, off = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *a = run_sa(m, 3, 1, 1, 1), *b = run_sa(m, 3, 1, 1, 0);
	qubo_solver *s = th_solver("sa");

	for (g = 0; g < qubo_model_num_groups(m); g++) {
		uint32_t count;
		cr_assert_eq(qubo_model_get_group(m, g, NULL, &count), QUBO_OK);
		grouped += count;
	}
	cr_assert_eq(qubo_sampleset_get_info(a, &on), QUBO_OK);
	cr_assert_eq(qubo_sampleset_get_info(b, &off), QUBO_OK);
	cr_assert_eq(on.flip_attempts, 3 * 1000 * (uint64_t)(n - grouped));
	cr_assert_eq(off.flip_attempts, 3 * 1000 * (uint64_t)n);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_GROUP_MOVES, 2), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_GROUP_MOVES, 1.0),
		     QUBO_ERR_INVALID_ARG);
	qubo_solver_free(s);
	qubo_sampleset_free(a);
	qubo_sampleset_free(b);
	qubo_model_free(m);
}

/* The target stops the run and the β options are honoured. */
Test(group_moves, target_and_beta_range)
{
	qubo_model *m = range_model(8, 12, 3);
	double min = exhaustive_min(m);
	qubo_solver *s = th_solver("sa");
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	qubo_sampleset *set = NULL;

	th_set_int(s, QUBO_PARAM_NUM_READS, 1000);
	th_set_int(s, QUBO_PARAM_THREADS, 1);
	th_set_int(s, QUBO_PARAM_SEED, 4);
	th_set_double(s, QUBO_PARAM_TARGET_ENERGY, min);
	th_set_double(s, QUBO_PARAM_BETA_HOT, 0.5);
	th_set_double(s, QUBO_PARAM_BETA_COLD, 5.0);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.reached_target, 1);
	cr_assert_lt(info.num_samples, 1000, "the target did not stop the run");
	cr_assert_eq(th_lowest(set), min);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* keep_lowest through the public options, with group moves: at constant β
 * the default is the final state; keep_lowest 1 returns a state at least as
 * low in every read (the same trajectory), lower in some. */
Test(group_moves, keep_lowest_option)
{
	qubo_model *m = range_model(5, 24, 6);
	int64_t r;
	int lower = 0;

	for (r = 0; r < 16; r++) {
		double e[2];
		int keep;
		for (keep = 0; keep < 2; keep++) {
			qubo_solver *s = th_solver("sa");
			qubo_sampleset *set = NULL;
			th_set_int(s, QUBO_PARAM_NUM_READS, 1);
			th_set_int(s, QUBO_PARAM_FIRST_READ, r);
			th_set_int(s, QUBO_PARAM_NUM_SWEEPS, 50);
			th_set_int(s, QUBO_PARAM_SEED, 4);
			cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_BETA_HOT, 0.3), QUBO_OK);
			cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_BETA_COLD, 0.3), QUBO_OK);
			if (keep)
				th_set_int(s, QUBO_PARAM_KEEP_LOWEST, 1);
			cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s",
				     qubo_error_message());
			cr_assert_eq(qubo_sampleset_get(set, 0, NULL, 0, &e[keep], NULL), QUBO_OK);
			qubo_sampleset_free(set);
			qubo_solver_free(s);
		}
		cr_assert_leq(e[1], e[0], "read %d", (int)r);
		lower += e[1] < e[0];
	}
	cr_assert(lower > 0, "keep_lowest changed no read: the test shows nothing");
	qubo_model_free(m);
}
