/* The backend table: registration by size, optional slots, errors reported
 * by backends, the host functions, and options passed through. */
#include <float.h>
#include <stddef.h>
#include <stdio.h>

#include "helpers.h"

typedef struct stub {
	int destroyed;
	int set_param_calls;
	int mode;            /* what sample does, see stub_sample */
	int add_rc;          /* last qubo_backend_add_samples status */
	int progress_rc;
	int64_t seed_seen;
	double weight_seen;
	const char *label_seen;
	char label_copy[32];
	size_t loops;
} stub;

enum { ADD_TWO, FAIL_REPORTED, FAIL_SILENT, FAIL_POSITIVE, BAD_LENGTH, BAD_BYTE, ZERO_OCC,
       PROGRESS, WAIT_TIME, RETURN_CANCELLED, READ_OPTIONS, REPORT };

static int stub_sample(qubo_backend_ctx *ctx, const qubo_model *m, const qubo_options *o,
		       void *user_data)
{
	stub *st = user_data;
	size_t n = qubo_model_num_variables(m);
	uint8_t rows[2 * 8] = { 0 }, bad[8] = { 0 };
	uint64_t occ[2] = { 3, 4 };
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;

	cr_assert_leq(n, 8);
	rows[n] = 1; /* second row: x0 = 1 */
	switch (st->mode) {
	case ADD_TWO:
		return qubo_backend_add_samples(ctx, rows, 2, n, occ);
	case FAIL_REPORTED:
		qubo_backend_add_samples(ctx, rows, 2, n, NULL);
		return qubo_backend_set_error(ctx, QUBO_ERR_INVALID_ARG, "the device is offline");
	case FAIL_SILENT:
		return 17;
	case FAIL_POSITIVE:
		return qubo_backend_set_error(ctx, 5, "odd code");
	case BAD_LENGTH:
		st->add_rc = qubo_backend_add_samples(ctx, rows, 1, n + 1, NULL);
		return 0;
	case BAD_BYTE:
		bad[1] = 2;
		st->add_rc = qubo_backend_add_samples(ctx, bad, 1, n, NULL);
		return 0;
	case ZERO_OCC:
		occ[1] = 0;
		st->add_rc = qubo_backend_add_samples(ctx, rows, 2, n, occ);
		return 0;
	case PROGRESS:
		qubo_backend_add_samples(ctx, rows, 1, n, NULL);
		st->progress_rc = qubo_backend_progress(ctx, 1, 10, -2.5);
		if (st->progress_rc)
			return 0; /* stop, keeping the sample; the host knows why */
		qubo_backend_add_samples(ctx, rows + n, 1, n, NULL);
		return 0;
	case WAIT_TIME:
		qubo_backend_add_samples(ctx, rows, 1, n, NULL);
		while (qubo_backend_should_stop(ctx) == QUBO_OK)
			st->loops++;
		return qubo_backend_should_stop(ctx);
	case RETURN_CANCELLED:
		qubo_backend_add_samples(ctx, rows, 1, n, NULL);
		return QUBO_CANCELLED;
	case READ_OPTIONS:
		cr_assert_eq(qubo_options_get_int(o, QUBO_PARAM_SEED, -1, &st->seed_seen), QUBO_OK);
		cr_assert_eq(qubo_options_get_double(o, "weight", 0, &st->weight_seen), QUBO_OK);
		cr_assert_eq(qubo_options_get_string(o, "label", NULL, &st->label_seen), QUBO_OK);
		if (st->label_seen)
			snprintf(st->label_copy, sizeof st->label_copy, "%s", st->label_seen);
		return qubo_backend_add_samples(ctx, rows, 1, n, NULL);
	case REPORT:
		info.flip_attempts = 1234;
		info.num_ground_states = 7;
		cr_assert_eq(qubo_backend_report(ctx, &info), QUBO_OK);
		info.struct_size = 8;
		cr_assert_eq(qubo_backend_report(ctx, &info), QUBO_ERR_UNSUPPORTED_VERSION);
		return qubo_backend_add_samples(ctx, rows, 1, n, NULL);
	}
	return 0;
}

static int stub_set_param(qubo_backend_ctx *ctx, const char *key, const qubo_options *o,
			  void *user_data)
{
	stub *st = user_data;
	uint8_t x = 0;

	(void)o;
	st->set_param_calls++;
	cr_assert_eq(qubo_backend_add_samples(ctx, &x, 1, 1, NULL), QUBO_ERR_MISUSE);
	if (!strcmp(key, "reject_me"))
		return qubo_backend_set_error(ctx, QUBO_ERR_OUT_OF_RANGE,
					      "reject_me is never right");
	return 0;
}

static int stub_describe(char *buffer, size_t capacity, void *user_data)
{
	(void)user_data;
	snprintf(buffer, capacity, "stub: a test backend");
	return 0;
}

static void stub_destroy(void *user_data)
{
	((stub *)user_data)->destroyed++;
}

static int must_not_be_called(char *buffer, size_t capacity, void *user_data)
{
	(void)buffer;
	(void)capacity;
	(void)user_data;
	cr_assert_fail("a slot beyond struct_size was called");
	return 0;
}

static qubo_backend_vtable stub_table(void)
{
	qubo_backend_vtable vt;

	memset(&vt, 0, sizeof vt);
	vt.struct_size = sizeof vt;
	vt.name = "stub";
	vt.sample = stub_sample;
	vt.set_param = stub_set_param;
	vt.describe = stub_describe;
	return vt;
}

static qubo_solver *stub_solver(stub *st)
{
	qubo_backend_vtable vt = stub_table();
	qubo_solver *s = NULL;

	cr_assert_eq(qubo_solver_new_backend(&s, &vt, st, stub_destroy, NULL), QUBO_OK, "%s",
		     qubo_error_message());
	return s;
}

static qubo_model *model3(void)
{
	return th_random_model(3, 3, 1.0, 2, 1);
}

/* Most tests drive one stub solver over model3(). The rig must stay where it
 * was opened: the solver holds &st. */
typedef struct rig {
	stub st;
	qubo_solver *s;
	qubo_model *m;
	qubo_sampleset *set;
	qubo_sample_info info;
} rig;

static void rig_open(rig *r)
{
	memset(r, 0, sizeof *r);
	r->s = stub_solver(&r->st);
	r->m = model3();
}

/* One run with the stub in mode, expecting status rc. The previous run's set
 * is freed; the new one is poisoned first, since even a failed run must write
 * it (NULL). */
static void rig_run(rig *r, int mode, int rc)
{
	qubo_sampleset_free(r->set);
	r->set = (qubo_sampleset *)1;
	r->st.mode = mode;
	cr_assert_eq(qubo_solver_sample(&r->set, r->s, r->m), rc, "mode %d: %s", mode,
		     qubo_error_message());
	cr_assert_neq(r->set, (qubo_sampleset *)1, "mode %d: the set was not written", mode);
}

static void rig_info(rig *r)
{
	r->info = (qubo_sample_info)QUBO_SAMPLE_INFO_INIT;
	cr_assert_eq(qubo_sampleset_get_info(r->set, &r->info), QUBO_OK);
}

static void rig_close(rig *r)
{
	qubo_sampleset_free(r->set);
	qubo_solver_free(r->s);
	qubo_model_free(r->m);
}

/* The table is refused with rc, *s is set to NULL and the message names word. */
static void expect_refused(const qubo_backend_vtable *vt, stub *st, int rc, const char *word)
{
	qubo_solver *s = (qubo_solver *)1;

	cr_assert_eq(qubo_solver_new_backend(&s, vt, st, st ? stub_destroy : NULL, NULL), rc,
		     "%s: %s", word, qubo_error_message());
	cr_assert_null(s, "%s", word);
	cr_assert(strstr(qubo_error_message(), word), "%s", qubo_error_message());
}

Test(vtable, sample_through_the_table_with_occurrences)
{
	rig r;

	rig_open(&r);
	cr_assert_str_eq(qubo_solver_name(r.s), "stub");
	rig_run(&r, ADD_TWO, QUBO_OK);
	cr_assert_eq(qubo_sampleset_size(r.set), 2);
	rig_info(&r);
	cr_assert_eq(r.info.num_samples, 7);
	rig_close(&r);
	cr_assert_eq(r.st.destroyed, 1);
}

Test(vtable, destroy_is_called_once_and_only_on_success)
{
	stub st = { 0 };
	qubo_backend_vtable vt = stub_table();

	vt.sample = NULL;
	expect_refused(&vt, &st, QUBO_ERR_MISUSE, "sample");
	cr_assert_eq(st.destroyed, 0);
	qubo_solver_free(stub_solver(&st));
	cr_assert_eq(st.destroyed, 1);
}

/* An older, smaller table: the slots it lacks are NULL even if the memory
 * after it holds pointers. */
Test(vtable, smaller_table_treats_missing_slots_as_null)
{
	qubo_backend_vtable vt = stub_table();
	qubo_solver *s = NULL;
	qubo_model *m = model3();
	qubo_sampleset *set = NULL, *init = NULL;
	uint8_t x[3] = { 0 };
	char buf[64];
	stub st = { 0 };

	vt.struct_size = QUBO_BACKEND_VTABLE_SIZE_MIN;
	vt.describe = must_not_be_called;
	vt.set_param = (int (*)(qubo_backend_ctx *, const char *, const qubo_options *,
				void *))(void (*)(void))must_not_be_called;
	cr_assert_eq(qubo_solver_new_backend(&s, &vt, &st, NULL, NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_string(s, "anything", "goes"), QUBO_OK);
	cr_assert_eq(st.set_param_calls, 0);
	cr_assert_eq(qubo_solver_describe(s, buf, sizeof buf, NULL), QUBO_OK);
	cr_assert_str_eq(buf, "stub");
	cr_assert_eq(qubo_sampleset_from_samples(&init, m, x, 1, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_sample_from(&set, s, m, init), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK);
	qubo_sampleset_free(set);
	qubo_sampleset_free(init);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(vtable, size_one_below_the_minimum_is_misuse)
{
	qubo_backend_vtable vt = stub_table();
	qubo_solver *s = NULL;

	vt.struct_size = QUBO_BACKEND_VTABLE_SIZE_MIN - 1;
	expect_refused(&vt, NULL, QUBO_ERR_MISUSE, "struct_size");
	cr_assert_eq(qubo_solver_new_backend(&s, NULL, NULL, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_solver_new_backend(NULL, &vt, NULL, NULL, NULL), QUBO_ERR_MISUSE);
	vt = stub_table();
	vt.name = "";
	expect_refused(&vt, NULL, QUBO_ERR_MISUSE, "name");
	vt.name = NULL;
	expect_refused(&vt, NULL, QUBO_ERR_MISUSE, "name");
}

/* A newer, larger table: accepted when the unknown tail is zero, refused
 * with UNSUPPORTED_VERSION otherwise. */
Test(vtable, larger_table_needs_a_zero_tail)
{
	struct {
		qubo_backend_vtable v1;
		int (*future_slot)(void *);
		void *future_data;
	} big;
	qubo_solver *s = NULL;
	stub st = { 0 };

	memset(&big, 0, sizeof big);
	big.v1 = stub_table();
	big.v1.struct_size = sizeof big;
	cr_assert_eq(qubo_solver_new_backend(&s, &big.v1, &st, stub_destroy, NULL), QUBO_OK);
	qubo_solver_free(s);
	cr_assert_eq(st.destroyed, 1);
	big.future_data = &st;
	expect_refused(&big.v1, &st, QUBO_ERR_UNSUPPORTED_VERSION, "qubo_backend_vtable");
	cr_assert_eq(st.destroyed, 1);
	cr_assert_eq(QUBO_BACKEND_VTABLE_SIZE_V1, sizeof(qubo_backend_vtable));
}

Test(vtable, table_and_name_are_copied)
{
	qubo_backend_vtable vt = stub_table();
	char name[8] = "mine";
	qubo_solver *s = NULL;
	stub st = { 0 };

	vt.name = name;
	cr_assert_eq(qubo_solver_new_backend(&s, &vt, &st, NULL, NULL), QUBO_OK);
	memset(&vt, 0, sizeof vt);
	name[0] = 'X';
	cr_assert_str_eq(qubo_solver_name(s), "mine");
	cr_assert_eq(qubo_solver_set_int(s, "x", 1), QUBO_OK);
	cr_assert_eq(st.set_param_calls, 1);
	qubo_solver_free(s);
}

Test(vtable, reported_error_keeps_code_and_message)
{
	rig r;

	rig_open(&r);
	rig_run(&r, FAIL_REPORTED, QUBO_ERR_INVALID_ARG);
	cr_assert_null(r.set);
	cr_assert_str_eq(qubo_error_message(), "stub: the device is offline");
	rig_run(&r, FAIL_SILENT, QUBO_ERR_CALLBACK);
	cr_assert(strstr(qubo_error_message(), "17"), "%s", qubo_error_message());
	rig_run(&r, FAIL_POSITIVE, QUBO_ERR_CALLBACK);
	cr_assert(strstr(qubo_error_message(), "odd code"), "%s", qubo_error_message());
	cr_assert_eq(qubo_backend_set_error(NULL, QUBO_ERR_INVALID_ARG, "x"), QUBO_ERR_MISUSE);
	rig_close(&r);
}

Test(vtable, add_samples_checks_its_input)
{
	int modes[] = { BAD_LENGTH, BAD_BYTE, ZERO_OCC };
	size_t k;
	rig r;

	rig_open(&r);
	for (k = 0; k < 3; k++) {
		rig_run(&r, modes[k], QUBO_OK);
		cr_assert_eq(r.st.add_rc, QUBO_ERR_INVALID_ARG, "mode %d", modes[k]);
		cr_assert_eq(qubo_sampleset_size(r.set), 0, "mode %d", modes[k]);
	}
	cr_assert_eq(qubo_backend_add_samples(NULL, NULL, 0, 0, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_backend_progress(NULL, 0, 0, 0), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_backend_should_stop(NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_backend_report(NULL, NULL), QUBO_ERR_MISUSE);
	rig_close(&r);
}

Test(vtable, backend_keys_pass_through_and_seed_is_always_set)
{
	rig r;

	rig_open(&r);
	cr_assert_eq(qubo_solver_set_double(r.s, "weight", 0.75), QUBO_OK);
	cr_assert_eq(qubo_solver_set_string(r.s, "label", "hello"), QUBO_OK);
	cr_assert_eq(r.st.set_param_calls, 2);
	rig_run(&r, READ_OPTIONS, QUBO_OK);
	cr_assert_eq(r.st.weight_seen, 0.75);
	cr_assert_str_eq(r.st.label_copy, "hello");
	rig_info(&r);
	cr_assert_eq((uint64_t)r.st.seed_seen, r.info.seed);
	/* the common keys are checked by the host for every backend */
	cr_assert_eq(qubo_solver_set_int(r.s, QUBO_PARAM_NUM_READS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_string(r.s, QUBO_PARAM_SEED, "1"), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(r.st.set_param_calls, 2);
	th_set_int(r.s, QUBO_PARAM_SEED, 99);
	rig_run(&r, READ_OPTIONS, QUBO_OK);
	cr_assert_eq(r.st.seed_seen, 99);
	rig_close(&r);
}

Test(vtable, set_param_rejection_restores_the_previous_value)
{
	stub st = { 0 };
	qubo_solver *s = stub_solver(&st);
	const qubo_options *o;
	const char *v;

	cr_assert_eq(qubo_solver_set_string(s, "reject_me", "x"), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_str_eq(qubo_error_message(), "stub: reject_me is never right");
	cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
	cr_assert_eq(qubo_options_count(o), 0);
	cr_assert_eq(qubo_solver_set_string(s, "keep", "old"), QUBO_OK);
	cr_assert_eq(qubo_options_get_string(o, "keep", NULL, &v), QUBO_OK);
	cr_assert_str_eq(v, "old");
	qubo_solver_free(s);
}

typedef struct progress_log {
	int calls;
	int stop;
	qubo_progress last;
} progress_log;

static int on_progress(const qubo_progress *p, void *user_data)
{
	progress_log *log = user_data;

	log->calls++;
	log->last = *p;
	return log->stop;
}

Test(vtable, progress_reaches_the_callback_and_can_cancel)
{
	progress_log log = { 0, 0, { 0, 0, 0, 0.0, 0, 0.0 } };
	rig r;

	rig_open(&r);
	cr_assert_eq(qubo_solver_set_progress(r.s, on_progress, &log), QUBO_OK);
	rig_run(&r, PROGRESS, QUBO_OK);
	cr_assert_eq(log.calls, 1);
	cr_assert_eq(log.last.struct_size, sizeof(qubo_progress));
	cr_assert_eq(log.last.done, 1);
	cr_assert_eq(log.last.total, 10);
	cr_assert_eq(log.last.has_best, 1);
	cr_assert_eq(log.last.best_energy, -2.5);
	cr_assert_eq(qubo_sampleset_size(r.set), 2);

	log.stop = 1;
	rig_run(&r, PROGRESS, QUBO_CANCELLED);
	cr_assert_eq(r.st.progress_rc, QUBO_CANCELLED);
	cr_assert_not_null(r.set);
	cr_assert_eq(qubo_sampleset_size(r.set), 1);
	rig_info(&r);
	cr_assert_eq(r.info.status, QUBO_CANCELLED);
	rig_close(&r);
}

Test(vtable, time_limit_is_visible_to_backends)
{
	rig r;

	rig_open(&r);
	th_set_double(r.s, QUBO_PARAM_TIME_LIMIT, 0.05);
	rig_run(&r, WAIT_TIME, QUBO_TIME_LIMIT);
	cr_assert_gt(r.st.loops, 0);
	rig_info(&r);
	cr_assert_eq(r.info.status, QUBO_TIME_LIMIT);
	cr_assert_geq(r.info.seconds, 0.05);
	cr_assert_lt(r.info.seconds, 5.0);
	cr_assert_eq(qubo_sampleset_size(r.set), 1);
	rig_close(&r);
}

Test(vtable, backend_may_return_cancelled_itself)
{
	rig r;

	rig_open(&r);
	rig_run(&r, RETURN_CANCELLED, QUBO_CANCELLED);
	cr_assert_eq(qubo_sampleset_size(r.set), 1);
	rig_close(&r);
}

Test(vtable, report_fills_the_backend_fields)
{
	rig r;

	rig_open(&r);
	rig_run(&r, REPORT, QUBO_OK);
	rig_info(&r);
	cr_assert_eq(r.info.flip_attempts, 1234);
	cr_assert_eq(r.info.num_ground_states, 7);
	rig_close(&r);
}

Test(vtable, describe_slot)
{
	stub st = { 0 };
	qubo_solver *s = stub_solver(&st);
	char buf[64];

	cr_assert_eq(qubo_solver_describe(s, buf, sizeof buf, NULL), QUBO_OK);
	cr_assert_str_eq(buf, "stub: a test backend");
	qubo_solver_free(s);
}

/* Every slot failing in turn is reported, and the solver stays usable. */
Test(vtable, each_slot_failing_in_turn)
{
	rig r;

	rig_open(&r);
	cr_assert_eq(qubo_solver_set_int(r.s, "reject_me", 1), QUBO_ERR_OUT_OF_RANGE);
	rig_run(&r, FAIL_SILENT, QUBO_ERR_CALLBACK);
	rig_run(&r, ADD_TWO, QUBO_OK);
	rig_close(&r);
}
