/*
 * Struct versioning in libqubo: every public size-first struct has a frozen
 * ..._SIZE_V1, and one rule (doc/abi.md, "Structs that carry their size")
 * holds for each, with the same messages everywhere: an older caller
 * (struct_size V1), a newer caller (a larger size: input structs need a zero
 * tail, output structs get it zeroed), a size below V1 (refused). Output
 * structs are written up to the caller's size only.
 */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_qbsolv_read(_file), until they are removed */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <qubo/backend.h>

#include "structs.h"
#include "util.h"

/* A compiled model x0 + x1 - 2 x0 x1 with one pending pair. */
static qubo_model *small_model(void)
{
	qubo_model *m = NULL;

	cr_assert_eq(qubo_model_new(&m, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 0, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_linear(m, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(m, 0, 1, -2.0), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

/* The frozen sizes are the ends of the first layouts' last fields, and no
 * larger than today's structs. On LP64 (x86-64, aarch64) they are pinned:
 * a change here breaks old callers. */
Test(structs, v1_sizes_are_frozen)
{
	cr_assert_leq(QUBO_ALLOCATOR_SIZE_V1, sizeof(qubo_allocator));
	cr_assert_leq(QUBO_MODEL_STATS_SIZE_V1, sizeof(qubo_model_stats));
	cr_assert_leq(QUBO_PROGRESS_SIZE_V1, sizeof(qubo_progress));
	cr_assert_leq(QUBO_SAMPLE_INFO_SIZE_V1, sizeof(qubo_sample_info));
	cr_assert_leq(QUBO_BACKEND_VTABLE_SIZE_V1, sizeof(qubo_backend_vtable));
	if (sizeof(void *) == 8 && sizeof(size_t) == 8) {
		cr_assert_eq(QUBO_ALLOCATOR_SIZE_V1, 40);
		cr_assert_eq(QUBO_MODEL_STATS_SIZE_V1, 64);
		cr_assert_eq(QUBO_PROGRESS_SIZE_V1, 48);
		cr_assert_eq(QUBO_SAMPLE_INFO_SIZE_V1, 56);
		cr_assert_eq(QUBO_SAMPLE_INFO_SIZE_V2, 76);
		cr_assert_eq(QUBO_BACKEND_VTABLE_SIZE_V1, 48);
		cr_assert_eq(QUBO_BACKEND_VTABLE_SIZE_MIN, 24);
	}
}

/* ---- qubo_allocator (input), the same rule through every constructor ---- */

static int use_model_new(void *ctx, const void *in)
{
	qubo_model *m = NULL;
	int rc = qubo_model_new(&m, 2, in);

	(void)ctx;
	qubo_model_free(m);
	return rc;
}

static int use_parity_new(void *ctx, const void *in)
{
	qubo_parity *p = NULL;
	int rc = qubo_parity_new(&p, 2, in);

	(void)ctx;
	qubo_parity_free(p);
	return rc;
}

static int use_solver_new(void *ctx, const void *in)
{
	qubo_solver *s = NULL;
	int rc = qubo_solver_new(&s, "sa", in);

	(void)ctx;
	qubo_solver_free(s);
	return rc;
}

static int use_qbsolv_read(void *ctx, const void *in)
{
	static const char text[] = "p qubo 0 2 1 0\n0 0 1\n";
	qubo_model *m = NULL;
	int rc = qubo_qbsolv_read(&m, text, sizeof text - 1, in);

	(void)ctx;
	qubo_model_free(m);
	return rc;
}

static int use_sampleset_from(void *ctx, const void *in)
{
	static const uint8_t x[3] = { 1, 0, 1 };
	qubo_sampleset *set = NULL;
	int rc = qubo_sampleset_from_samples(&set, ctx, x, 1, 3, in);

	qubo_sampleset_free(set);
	return rc;
}

Test(structs, allocator)
{
	static const struct {
		ts_use_fn use;
		const char *fn;
	} calls[] = {
		{ use_model_new, "qubo_model_new" },
		{ use_parity_new, "qubo_parity_new" },
		{ use_solver_new, "qubo_solver_new" },
		{ use_qbsolv_read, "qubo_qbsolv_read" },
		{ use_sampleset_from, "qubo_sampleset_from_samples" },
	};
	qubo_model *m = small_model();
	tu_failalloc fa;
	size_t i;

	tu_failalloc_init(&fa, 0);
	for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		ts_input_rule(calls[i].use, m, &fa.a, sizeof fa.a, QUBO_ALLOCATOR_SIZE_V1,
			      "qubo_allocator", calls[i].fn);
		cr_assert_eq(fa.live, 0, "%s leaked", calls[i].fn);
	}
	cr_assert_gt(fa.count, 0, "the caller's allocator was used");
	qubo_model_free(m);
}

/* An older caller's allocator is used, not just accepted. */
Test(structs, allocator_at_v1_is_used)
{
	tu_failalloc fa;
	ts_buf buf;
	qubo_model *m = NULL;

	tu_failalloc_init(&fa, 0);
	memset(buf.b, TS_POISON, sizeof buf.b);
	memcpy(buf.b, &fa.a, QUBO_ALLOCATOR_SIZE_V1);
	ts_set_size(&buf, QUBO_ALLOCATOR_SIZE_V1);
	cr_assert_eq(qubo_model_new(&m, 4, (const qubo_allocator *)(const void *)buf.b), QUBO_OK);
	cr_assert_gt(fa.live, 0);
	qubo_model_free(m);
	cr_assert_eq(fa.live, 0);
}

/* ---- qubo_model_stats (output) ---- */

static int fill_model_stats(void *ctx, void *out)
{
	return qubo_model_get_stats(ctx, out);
}

Test(structs, model_stats)
{
	qubo_model *m = small_model();
	qubo_model_stats st;

	cr_assert_eq(qubo_model_add_quadratic(m, 1, 2, 1.0), QUBO_OK); /* one pending pair */
	ts_output_rule(fill_model_stats, m, sizeof(qubo_model_stats), QUBO_MODEL_STATS_SIZE_V1,
		       "qubo_model_stats", "qubo_model_get_stats");
	memset(&st, 0, sizeof st);
	st.struct_size = QUBO_MODEL_STATS_SIZE_V1;
	cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK);
	cr_assert_eq(st.num_variables, 3);
	cr_assert_eq(st.num_couplers, 1);
	cr_assert_eq(st.pending_pairs, 1);
	cr_assert_eq(st.compiled, 0);
	qubo_model_free(m);
}

/* ---- qubo_sample_info (output of qubo_sampleset_get_info) ---- */

static int fill_sample_info(void *ctx, void *out)
{
	return qubo_sampleset_get_info(ctx, out);
}

Test(structs, sample_info_out)
{
	qubo_model *m = small_model();
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;

	cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_SEED, 5), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK);
	ts_output_rule(fill_sample_info, set, sizeof(qubo_sample_info), QUBO_SAMPLE_INFO_SIZE_V1,
		       "qubo_sample_info", "qubo_sampleset_get_info");
	info.struct_size = QUBO_SAMPLE_INFO_SIZE_V1;
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.seed, 5);
	cr_assert_gt(info.flip_attempts, 0);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* ---- qubo_sample_info (input of qubo_backend_report) and qubo_progress
 * (what the library passes to a progress callback) ---- */

typedef struct report_backend {
	int ran;
	size_t progress_size;
} report_backend;

static int use_report(void *ctx, const void *in)
{
	return qubo_backend_report(ctx, in);
}

static int report_sample(qubo_backend_ctx *ctx, const qubo_model *model,
			 const qubo_options *options, void *user_data)
{
	report_backend *rb = user_data;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	uint8_t x[3] = { 0, 0, 0 };

	(void)options;
	cr_assert_eq(qubo_model_num_variables(model), 3);
	info.flip_attempts = 77;
	info.num_ground_states = 3;
	ts_input_rule(use_report, ctx, &info, sizeof info, QUBO_SAMPLE_INFO_SIZE_V1,
		      "qubo_sample_info", "qubo_backend_report");
	rb->ran = 1;
	cr_assert_eq(qubo_backend_progress(ctx, 1, 1, 0.0), QUBO_OK);
	return qubo_backend_add_samples(ctx, x, 1, 3, NULL);
}

static int note_progress(const qubo_progress *p, void *user_data)
{
	report_backend *rb = user_data;

	rb->progress_size = p->struct_size;
	return 0;
}

Test(structs, sample_info_in_and_progress)
{
	qubo_backend_vtable vt;
	qubo_model *m = small_model();
	qubo_solver *s = NULL;
	qubo_sampleset *set = NULL;
	qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
	report_backend rb = { 0, 0 };

	memset(&vt, 0, sizeof vt);
	vt.struct_size = sizeof vt;
	vt.name = "reporter";
	vt.sample = report_sample;
	cr_assert_eq(qubo_solver_new_backend(&s, &vt, &rb, NULL, NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_progress(s, note_progress, &rb), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(rb.ran, 1);
	/* the reports that were accepted were read (the last one wins) */
	cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
	cr_assert_eq(info.flip_attempts, 77);
	cr_assert_eq(info.num_ground_states, 3);
	/* the progress struct is the library's whole current layout */
	cr_assert_eq(rb.progress_size, sizeof(qubo_progress));
	cr_assert_geq(rb.progress_size, QUBO_PROGRESS_SIZE_V1);
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

/* ---- qubo_backend_vtable (input) ---- */

static int vt_sample(qubo_backend_ctx *ctx, const qubo_model *model, const qubo_options *options,
		     void *user_data)
{
	uint8_t x[3] = { 0, 0, 0 };

	(void)model;
	(void)options;
	(void)user_data;
	return qubo_backend_add_samples(ctx, x, 1, 3, NULL);
}

static int use_vtable(void *ctx, const void *in)
{
	qubo_solver *s = NULL;
	int rc = qubo_solver_new_backend(&s, in, NULL, NULL, NULL);

	(void)ctx;
	qubo_solver_free(s);
	return rc;
}

/* The shared rule, counted from the smallest table accepted, which stops
 * after the required sample slot (below V1: the documented allowance of
 * tables); a smaller one is QUBO_ERR_MISUSE, in the same words. */
Test(structs, backend_vtable)
{
	static const char fn[] = "qubo_solver_new_backend";
	qubo_backend_vtable vt;
	ts_buf buf;

	memset(&vt, 0, sizeof vt);
	vt.struct_size = sizeof vt;
	vt.name = "plain";
	vt.sample = vt_sample;
	ts_input_rule_ex(use_vtable, NULL, &vt, sizeof vt, QUBO_BACKEND_VTABLE_SIZE_MIN,
			 "qubo_backend_vtable", fn, QUBO_ERR_MISUSE);
	/* an older caller with the first release's whole table */
	memset(buf.b, TS_POISON, sizeof buf.b);
	memcpy(buf.b, &vt, QUBO_BACKEND_VTABLE_SIZE_V1);
	ts_set_size(&buf, QUBO_BACKEND_VTABLE_SIZE_V1);
	cr_assert_eq(use_vtable(NULL, buf.b), QUBO_OK, "%s", qubo_error_message());
}

/* QUBO_MODEL_STATS_INIT: the caller's size and every other field zero,
 * accepted as it is by qubo_model_get_stats(). */
Test(structs, model_stats_init)
{
	qubo_model *m = small_model();
	qubo_model_stats st = QUBO_MODEL_STATS_INIT;

	cr_assert_eq(st.struct_size, sizeof st);
	cr_assert_eq(st.num_variables + st.num_couplers + st.max_degree + st.num_linear +
			     st.pending_pairs + st.compiled_bytes,
		     0);
	cr_assert_eq(st.compiled, 0);
	cr_assert_eq(qubo_model_get_stats(m, &st), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(st.num_variables, 3);
	cr_assert_eq(st.num_couplers, 1);
	qubo_model_free(m);
}
