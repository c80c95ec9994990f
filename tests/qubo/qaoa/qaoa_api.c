/* The QAOA simulator and the "qaoa" solver at their edges: models too large
 * for max_qubits are refused before any large allocation, with the memory in
 * the message; qubo_qaoa_memory(); every allocation failing in turn; the
 * solver's options; bad arguments of every qubo_qaoa_ function. The states
 * themselves are checked in qaoa.c. */
#include <stddef.h>

#include "qaoa_helpers.h"

#define MSG_HAS(s) cr_assert(strstr(qubo_error_message(), s), "message: %s", qubo_error_message())
/* A message says who speaks once ("qaoa: option ...", not "qaoa: qaoa: ..."). */
#define MSG_ONE_PREFIX()                                                               \
	cr_assert(!strstr(qubo_error_message(), "qaoa: qaoa:"), "message: %s",         \
		  qubo_error_message())

/* ------------------------------------------------------------------------
 * A counting allocator: every request's size, the largest, the total, the
 * live bytes and their peak; it can refuse requests above a size.
 * ------------------------------------------------------------------------ */

typedef union blk_header {
	max_align_t align;
	size_t size;
} blk_header;

typedef struct counting {
	qubo_allocator a;
	size_t requests;     /* malloc and realloc calls */
	size_t largest;      /* largest single request, in bytes */
	uint64_t total;      /* sum of the requests */
	size_t live_blocks;
	size_t live_bytes;
	size_t peak_bytes;
	size_t refuse_above; /* 0: refuse nothing */
	size_t refused;      /* largest refused request */
} counting;

static void note(counting *c, size_t size)
{
	c->requests++;
	c->total += size;
	if (size > c->largest)
		c->largest = size;
}

static int refuse(counting *c, size_t size)
{
	if (c->refuse_above && size > c->refuse_above) {
		if (size > c->refused)
			c->refused = size;
		return 1;
	}
	return size > SIZE_MAX - sizeof(blk_header);
}

static void *cnt_malloc(size_t size, void *ud)
{
	counting *c = ud;
	blk_header *h;

	note(c, size);
	if (refuse(c, size) || !(h = malloc(sizeof *h + size)))
		return NULL;
	h->size = size;
	c->live_blocks++;
	c->live_bytes += size;
	if (c->live_bytes > c->peak_bytes)
		c->peak_bytes = c->live_bytes;
	return h + 1;
}

static void *cnt_realloc(void *ptr, size_t size, void *ud)
{
	counting *c = ud;
	blk_header *h = (blk_header *)ptr - 1, *nh;
	size_t old = h->size;

	note(c, size);
	if (refuse(c, size) || !(nh = realloc(h, sizeof *nh + size)))
		return NULL;
	nh->size = size;
	c->live_bytes = c->live_bytes - old + size;
	if (c->live_bytes > c->peak_bytes)
		c->peak_bytes = c->live_bytes;
	return nh + 1;
}

static void cnt_free(void *ptr, void *ud)
{
	counting *c = ud;
	blk_header *h = (blk_header *)ptr - 1;

	c->live_blocks--;
	c->live_bytes -= h->size;
	free(h);
}

static void counting_init(counting *c, size_t refuse_above)
{
	memset(c, 0, sizeof *c);
	c->a.struct_size = sizeof c->a;
	c->a.malloc_fn = cnt_malloc;
	c->a.realloc_fn = cnt_realloc;
	c->a.free_fn = cnt_free;
	c->a.user_data = c;
	c->refuse_above = refuse_above;
}

/* Forget the figures so far (live blocks stay counted). */
static void counting_reset(counting *c)
{
	c->requests = 0;
	c->largest = 0;
	c->total = 0;
	c->peak_bytes = c->live_bytes;
	c->refused = 0;
}

/* "A few KiB": no request of a refused call may come near a state. */
#define SMALL_REQUEST 4096
#define SMALL_TOTAL 16384

/* A compiled model of n variables: a chain of couplers and fields. */
static qubo_model *chain_model(size_t n)
{
	qubo_model *m = NULL;
	uint32_t i;

	cr_assert_eq(qubo_model_new(&m, n, NULL), QUBO_OK);
	for (i = 0; i < n; i++) {
		cr_assert_eq(qubo_model_add_linear(m, i, i % 3 ? 1.0 : -2.0), QUBO_OK);
		if (i + 1 < n)
			cr_assert_eq(qubo_model_add_quadratic(m, i, i + 1, i % 2 ? 1.5 : -0.5),
				     QUBO_OK);
	}
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	return m;
}

/* The largest memory figure in the message ("2 GiB", "16.0 KiB", "1024
 * bytes"...), in bytes; 0 when there is none. */
static double message_bytes(const char *msg)
{
	static const struct {
		const char *unit;
		double bytes;
	} units[] = {
		{ "TiB", 1099511627776.0 }, { "GiB", 1073741824.0 }, { "MiB", 1048576.0 },
		{ "KiB", 1024.0 },          { "kiB", 1024.0 },       { "bytes", 1.0 },
		{ "TB", 1e12 },             { "GB", 1e9 },           { "MB", 1e6 },
		{ "kB", 1e3 },              { "B", 1.0 },
	};
	const char *p = msg;
	double best = 0;

	while (*p) {
		if (*p >= '0' && *p <= '9' && (p == msg || !(p[-1] >= '0' && p[-1] <= '9') ||
					       p[-1] == '.')) {
			char *end;
			double v = strtod(p, &end);
			const char *u = end;
			size_t k;
			while (*u == ' ')
				u++;
			for (k = 0; k < sizeof units / sizeof units[0]; k++)
				if (!strncmp(u, units[k].unit, strlen(units[k].unit))) {
					best = fmax(best, v * units[k].bytes);
					break;
				}
			p = end > p ? end : p + 1;
		} else {
			p++;
		}
	}
	return best;
}

/* The refusal's message names the model's qubits, the limit and a memory
 * figure of at least the state's 16 * 2^n bytes, and at most what
 * qubo_qaoa_memory() gives with its thread scratch (give or take the
 * rounding of a figure printed with a few digits). */
static void check_refusal_message(size_t n, size_t limit)
{
	char num[32];
	double need = 16.0 * (double)((uint64_t)1 << n), said, most;
	uint64_t m0 = 0, m1 = 0;

	cr_assert_eq(qubo_error_code(), QUBO_ERR_TOO_LARGE);
	snprintf(num, sizeof num, "%zu", n);
	MSG_HAS(num);
	snprintf(num, sizeof num, "%zu", limit);
	MSG_HAS(num);
	MSG_HAS("qubit");
	said = message_bytes(qubo_error_message());
	cr_assert_geq(said, need * 0.999, "message gives %.0f bytes, the state needs %.0f: %s", said,
		      need, qubo_error_message());
	cr_assert_eq(qubo_qaoa_memory(n, 0, &m0), QUBO_OK);
	cr_assert_eq(qubo_qaoa_memory(n, 1, &m1), QUBO_OK);
	most = (double)(m0 > m1 ? m0 : m1) * 1.05 + 1024;
	cr_assert_leq(said, most, "message gives %.0f bytes, qubo_qaoa_memory at most %.0f: %s",
		      said, most, qubo_error_message());
}

Test(qaoa_limits, the_memory_parser_of_this_suite)
{
	cr_assert_eq(message_bytes("2 GiB for 27 qubits"), 2147483648.0);
	cr_assert_eq(message_bytes("needs 16.0 KiB (16384 bytes)"), 16384.0);
	cr_assert_eq(message_bytes("27 qubits"), 0.0);
	cr_assert_eq(message_bytes("1.5MiB"), 1572864.0);
}

Test(qaoa_limits, refused_before_any_large_allocation)
{
	qubo_model *m27 = chain_model(27), *m10 = chain_model(10);
	qubo_qaoa *q = (qubo_qaoa *)1;
	counting c;

	/* 27 variables, the default limit (26): a 2 GiB state. The allocator
	 * refuses anything above 1 MiB, so that a simulator that allocates
	 * before it checks fails this test without taking the memory. */
	counting_init(&c, (size_t)1 << 20);
	qubo_error_clear();
	cr_assert_eq(qubo_qaoa_new(&q, m27, 0, &c.a), QUBO_ERR_TOO_LARGE);
	cr_assert_null(q);
	cr_assert_leq(c.largest, SMALL_REQUEST, "a request of %zu bytes", c.largest);
	cr_assert_leq(c.total, SMALL_TOTAL, "%" PRIu64 " bytes requested", c.total);
	cr_assert_eq(c.live_blocks, 0);
	check_refusal_message(27, QUBO_QAOA_DEFAULT_MAX_QUBITS);

	/* 10 variables, limit 9: a 16 KiB state */
	counting_init(&c, 0);
	q = (qubo_qaoa *)1;
	cr_assert_eq(qubo_qaoa_new(&q, m10, 9, &c.a), QUBO_ERR_TOO_LARGE);
	cr_assert_null(q);
	cr_assert_lt(c.largest, 16 * 1024, "a request of %zu bytes", c.largest);
	cr_assert_leq(c.largest, SMALL_REQUEST, "a request of %zu bytes", c.largest);
	cr_assert_leq(c.total, SMALL_TOTAL);
	cr_assert_eq(c.live_blocks, 0);
	check_refusal_message(10, 9);

	/* the check can fail: at limit 10 the state (two arrays of 8 * 2^n
	 * bytes, or one of 16 * 2^n) goes through the allocator */
	counting_init(&c, 0);
	cr_assert_eq(qubo_qaoa_new(&q, m10, 10, &c.a), QUBO_OK, "%s", qubo_error_message());
	{
		double g = 0.3, b = 0.2;
		qh_evolve(q, 1, &g, &b);
	}
	cr_assert_geq(c.largest, 8 * 1024, "the state did not go through the allocator");
	cr_assert_geq(c.total, 16 * 1024, "the state did not go through the allocator");
	qubo_qaoa_free(q);
	cr_assert_eq(c.live_blocks, 0);
	qubo_model_free(m27);
	qubo_model_free(m10);
}

Test(qaoa_limits, the_solver_refuses_before_any_large_allocation)
{
	qubo_model *m13 = chain_model(13);
	const char *angles[] = { "0.4,0.3", NULL };
	size_t k;

	for (k = 0; k < 2; k++) {
		counting c;
		qubo_solver *s = NULL;
		qubo_sampleset *set = (qubo_sampleset *)1;
		qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
		counting_init(&c, (size_t)1 << 20);
		cr_assert_eq(qubo_solver_new(&s, "qaoa", &c.a), QUBO_OK);
		th_set_int(s, QUBO_PARAM_MAX_QUBITS, 12);
		th_set_int(s, QUBO_PARAM_SEED, 3);
		th_set_int(s, QUBO_PARAM_NUM_READS, 20);
		th_set_int(s, QUBO_PARAM_THREADS, 2);
		if (angles[k])
			cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, angles[k]),
				     QUBO_OK);
		else
			th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 3);
		counting_reset(&c);
		qubo_error_clear();
		cr_assert_eq(qubo_solver_sample(&set, s, m13), QUBO_ERR_TOO_LARGE, "%s",
			     qubo_error_message());
		cr_assert_null(set);
		cr_assert_leq(c.largest, SMALL_REQUEST, "a request of %zu bytes", c.largest);
		cr_assert_leq(c.total, SMALL_TOTAL);
		check_refusal_message(13, 12);
		/* the check can fail: at 13 the state goes through the allocator */
		th_set_int(s, QUBO_PARAM_MAX_QUBITS, 13);
		counting_reset(&c);
		cr_assert_eq(qubo_solver_sample(&set, s, m13), QUBO_OK, "%s", qubo_error_message());
		cr_assert_geq(c.largest, 8 << 13, "the state did not go through the allocator");
		cr_assert_eq(qubo_sampleset_get_info(set, &info), QUBO_OK);
		cr_assert_eq(info.has_expectation, 1);
		qubo_sampleset_free(set);
		qubo_solver_free(s);
		cr_assert_eq(c.live_blocks, 0);
	}
	qubo_model_free(m13);
}

Test(qaoa_limits, max_qubits_zero_is_the_default_and_41_is_refused)
{
	qubo_model *m3 = chain_model(3);
	qubo_qaoa *q = (qubo_qaoa *)1;
	qubo_solver *s = th_solver("qaoa");
	size_t big[] = { QUBO_QAOA_MAX_QUBITS + 1, 64, SIZE_MAX };
	size_t k;

	cr_assert_eq(qubo_qaoa_new(&q, m3, 0, NULL), QUBO_OK, "%s", qubo_error_message());
	cr_assert_eq(qubo_qaoa_num_qubits(q), 3);
	qubo_qaoa_free(q);
	cr_assert_eq(qubo_qaoa_new(&q, m3, QUBO_QAOA_MAX_QUBITS, NULL), QUBO_OK);
	qubo_qaoa_free(q);
	cr_assert_eq(qubo_qaoa_new(&q, m3, 3, NULL), QUBO_OK);
	qubo_qaoa_free(q);
	q = (qubo_qaoa *)1;
	cr_assert_eq(qubo_qaoa_new(&q, m3, 2, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_null(q);
	for (k = 0; k < 3; k++) {
		q = (qubo_qaoa *)1;
		cr_assert_eq(qubo_qaoa_new(&q, m3, big[k], NULL), QUBO_ERR_OUT_OF_RANGE,
			     "max_qubits %zu", big[k]);
		cr_assert_null(q);
		MSG_HAS("max_qubits");
	}
	/* the solver's key takes 1 to 40 */
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_MAX_QUBITS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_MAX_QUBITS, 41), QUBO_ERR_OUT_OF_RANGE);
	MSG_HAS("max_qubits");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_MAX_QUBITS, -1), QUBO_ERR_OUT_OF_RANGE);
	th_set_int(s, QUBO_PARAM_MAX_QUBITS, 1);
	th_set_int(s, QUBO_PARAM_MAX_QUBITS, 40);
	qubo_solver_free(s);
	qubo_model_free(m3);
}

/* 26 variables pass the default limit: with an allocator that refuses the
 * 1 GiB state (in one block or two) the simulator fails for memory, not for
 * size. */
Test(qaoa_limits, the_default_limit_is_26)
{
	qubo_model *m26 = chain_model(26);
	qubo_qaoa *q = NULL;
	counting c;
	int rc;

	counting_init(&c, (size_t)64 << 20);
	rc = qubo_qaoa_new(&q, m26, 0, &c.a);
	cr_assert(rc == QUBO_ERR_NOMEM || rc == QUBO_OK, "%s: %s", qubo_status_name(rc),
		  qubo_error_message());
	if (rc == QUBO_ERR_NOMEM)
		cr_assert_geq(c.refused, (size_t)8 << 26);
	qubo_qaoa_free(q);
	cr_assert_eq(c.live_blocks, 0);
	counting_init(&c, (size_t)1 << 20);
	cr_assert_eq(qubo_qaoa_new(&q, m26, 25, &c.a), QUBO_ERR_TOO_LARGE);
	cr_assert_leq(c.largest, SMALL_REQUEST);
	check_refusal_message(26, 25);
	qubo_model_free(m26);
}

Test(qaoa_limits, memory_figures)
{
	uint64_t prev = 0, b = 0, b2 = 0;
	size_t n;
	static const size_t absurd[] = { 60, 63, 64, 65, 100, 1000, SIZE_MAX };

	for (n = 0; n <= QUBO_QAOA_MAX_QUBITS; n++) {
		cr_assert_eq(qubo_qaoa_memory(n, 1, &b), QUBO_OK);
		cr_assert_geq(b, (uint64_t)16 << n, "n %zu: %" PRIu64, n, b);
		cr_assert_neq(b, UINT64_MAX);
		cr_assert_geq(b, prev, "n %zu: %" PRIu64 " after %" PRIu64, n, b, prev);
		prev = b;
		cr_assert_eq(qubo_qaoa_memory(n, 8, &b2), QUBO_OK);
		cr_assert_geq(b2, b, "n %zu: 8 threads %" PRIu64 ", 1 thread %" PRIu64, n, b2, b);
		cr_assert_eq(qubo_qaoa_memory(n, 0, &b2), QUBO_OK);
		cr_assert_geq(b2, (uint64_t)16 << n);
	}
	cr_assert_eq(qubo_qaoa_memory(59, 1, &b), QUBO_OK);
	cr_assert_geq(b, (uint64_t)1 << 63);
	for (n = 0; n < sizeof absurd / sizeof absurd[0]; n++) {
		b = 0;
		cr_assert_eq(qubo_qaoa_memory(absurd[n], 1, &b), QUBO_OK);
		cr_assert_eq(b, UINT64_MAX, "n %zu: %" PRIu64, absurd[n], b);
	}
	cr_assert_eq(qubo_qaoa_memory(5, 1, NULL), QUBO_ERR_MISUSE);
}

/* qubo_qaoa_memory() bounds what the simulator really allocates ("at most",
 * include/qubo/qaoa.h): the peak of the live bytes through creation,
 * evolution, figures and reads, and through the optimiser at depth 1 and at
 * the deepest depth. */
static void memory_bound(size_t n, int threads, size_t opt_p)
{
	qubo_model *m = qh_random_model(3 + n, n, 0.3, 2.0, 0);
	double g[QUBO_QAOA_MAX_DEPTH] = { 0.3, 0.9 }, b[QUBO_QAOA_MAX_DEPTH] = { 0.5, 0.1 }, ex;
	uint8_t *rows = malloc(100 * n + 1);
	uint64_t figure = 0;
	qubo_qaoa *q = NULL;
	counting c;

	cr_assert(rows);
	cr_assert_eq(qubo_qaoa_memory(n, threads, &figure), QUBO_OK);
	counting_init(&c, 0);
	cr_assert_eq(qubo_qaoa_new(&q, m, 0, &c.a), QUBO_OK);
	cr_assert_eq(qubo_qaoa_set_threads(q, threads), QUBO_OK);
	qh_evolve(q, 2, g, b);
	cr_assert_eq(qubo_qaoa_expectation(q, &ex, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_sample(q, 1, 100, rows, 100 * n), QUBO_OK);
	cr_assert_leq(c.peak_bytes, figure,
		      "n %zu, threads %d: %zu bytes live at the peak of new, evolve, expectation "
		      "and sample; qubo_qaoa_memory says %" PRIu64,
		      n, threads, c.peak_bytes, figure);
	if (opt_p) {
		cr_assert_eq(qubo_qaoa_optimize(q, opt_p, 1, g, b, NULL), QUBO_OK);
		cr_assert_leq(c.peak_bytes, figure,
			      "n %zu, threads %d: %zu bytes live at the peak of qubo_qaoa_optimize "
			      "at p %zu; qubo_qaoa_memory says %" PRIu64,
			      n, threads, c.peak_bytes, opt_p, figure);
	}
	qubo_qaoa_free(q);
	cr_assert_eq(c.live_blocks, 0);
	qubo_model_free(m);
	free(rows);
}

Test(qaoa_limits, the_memory_figure_bounds_the_allocations)
{
	static const size_t sizes[] = { 1, 3, 12, 14 };
	size_t k;
	int threads;

	for (k = 0; k < 4; k++)
		for (threads = 1; threads <= 3; threads++)
			memory_bound(sizes[k], threads, 0);
}

Test(qaoa_limits, the_memory_figure_bounds_the_optimiser)
{
	static const size_t sizes[] = { 1, 3, 12 };
	size_t k;

	for (k = 0; k < 3; k++) {
		/* the deepest depth costs Σ (2d + 1) d layers: small n only, and
		 * under valgrind n = 1 alone (n = 3 has as many amplitudes, the
		 * padded 64, and takes 4.5 s there) */
		int deepest = sizes[k] < th_trials(12, 3);

		memory_bound(sizes[k], 1, 1);
		memory_bound(sizes[k], 2, deepest ? QUBO_QAOA_MAX_DEPTH : 4);
	}
}

/* ------------------------------------------------------------------------
 * 3b. Every allocation failing in turn
 * ------------------------------------------------------------------------ */

static const double oom_g[2] = { 0.5, -0.8 }, oom_b[2] = { 0.3, 1.1 };

Test(qaoa_oom, creation)
{
	qubo_model *m = qh_random_model(1, 6, 0.5, 2.0, 0);
	size_t k;

	for (k = 1;; k++) {
		tu_failalloc fa;
		qubo_qaoa *q = (qubo_qaoa *)1;
		int rc;
		tu_failalloc_init(&fa, k);
		rc = qubo_qaoa_new(&q, m, 0, &fa.a);
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK);
			qubo_qaoa_free(q);
			cr_assert_eq(fa.live, 0);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %s", k, qubo_status_name(rc));
		cr_assert_null(q);
		cr_assert_eq(fa.live, 0, "allocation %zu leaked", k);
	}
	cr_assert_gt(k, 1, "qubo_qaoa_new allocated nothing through the allocator");
	qubo_model_free(m);
}

enum oom_call { OOM_EVOLVE, OOM_EXPECTATION, OOM_SAMPLE, OOM_OPTIMIZE };

/* Makes the call once with each of its allocations failing, on a simulator
 * at 2 threads already evolved; each failure is QUBO_ERR_NOMEM, holds no more
 * memory than success does, and leaves the simulator usable: the final
 * successful call matches a simulator that never failed, bit for bit. */
static void oom_call(enum oom_call call, size_t n)
{
	qubo_model *m = qh_random_model(40 + call, n, 0.6, 2.0, 0);
	size_t dim = (size_t)1 << n, k, worst_live = 0;
	qubo_qaoa *ref = qh_new(m), *q = NULL;
	double *ramp = malloc(2 * dim * sizeof *ramp), *amp = malloc(2 * dim * sizeof *amp);
	uint8_t rrows[50 * 8] = { 0 }, rows[50 * 8] = { 0 };
	double rg[2], rb[2], rex = 0, rlo = 0;
	tu_failalloc fa;

	cr_assert(ramp && amp && n <= 8);
	cr_assert_eq(qubo_qaoa_set_threads(ref, 2), QUBO_OK);
	tu_failalloc_init(&fa, 0);
	cr_assert_eq(qubo_qaoa_new(&q, m, 0, &fa.a), QUBO_OK);
	cr_assert_eq(qubo_qaoa_set_threads(q, 2), QUBO_OK);
	qh_evolve(ref, 2, oom_g, oom_b);
	if (call != OOM_EVOLVE)
		qh_evolve(q, 2, oom_g, oom_b);
	switch (call) {
	case OOM_EVOLVE:
		break;
	case OOM_EXPECTATION:
		cr_assert_eq(qubo_qaoa_expectation(ref, &rex, &rlo), QUBO_OK);
		break;
	case OOM_SAMPLE:
		cr_assert_eq(qubo_qaoa_sample(ref, 17, 50, rrows, sizeof rrows), QUBO_OK);
		break;
	case OOM_OPTIMIZE:
		cr_assert_eq(qubo_qaoa_optimize(ref, 2, 3, rg, rb, &rex), QUBO_OK);
		break;
	}
	cr_assert_eq(qubo_qaoa_amplitudes(ref, ramp, 2 * dim), QUBO_OK);
	for (k = 1;; k++) {
		double g[2], b[2], ex = 0, lo = 0;
		int rc = QUBO_OK;
		fa.failed = 0;
		fa.fail_at = fa.count + k;
		switch (call) {
		case OOM_EVOLVE:
			rc = qubo_qaoa_evolve(q, 2, oom_g, oom_b);
			break;
		case OOM_EXPECTATION:
			rc = qubo_qaoa_expectation(q, &ex, &lo);
			break;
		case OOM_SAMPLE:
			rc = qubo_qaoa_sample(q, 17, 50, rows, sizeof rows);
			break;
		case OOM_OPTIMIZE:
			rc = qubo_qaoa_optimize(q, 2, 3, g, b, &ex);
			break;
		}
		fa.fail_at = 0;
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
			cr_assert_eq(qubo_qaoa_amplitudes(q, amp, 2 * dim), QUBO_OK);
			cr_assert_eq(memcmp(amp, ramp, 2 * dim * sizeof *amp), 0);
			if (call == OOM_EXPECTATION) {
				cr_assert_eq(memcmp(&ex, &rex, sizeof ex), 0);
				cr_assert_eq(memcmp(&lo, &rlo, sizeof lo), 0);
			} else if (call == OOM_SAMPLE) {
				cr_assert_eq(memcmp(rows, rrows, sizeof rows), 0);
			} else if (call == OOM_OPTIMIZE) {
				cr_assert_eq(memcmp(g, rg, sizeof g), 0);
				cr_assert_eq(memcmp(b, rb, sizeof b), 0);
				cr_assert_eq(memcmp(&ex, &rex, sizeof ex), 0);
			}
			cr_assert_leq(worst_live, fa.live,
				      "a failure held %zu blocks, success holds %zu", worst_live,
				      fa.live);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "call %d, allocation %zu: %s %s", (int)call, k,
			     qubo_status_name(rc), qubo_error_message());
		if (fa.live > worst_live)
			worst_live = fa.live;
		if (call == OOM_EVOLVE) { /* documented: the state is then |+> */
			size_t x;
			cr_assert_eq(qubo_qaoa_amplitudes(q, amp, 2 * dim), QUBO_OK);
			for (x = 0; x < dim; x++)
				cr_assert(fabs(amp[2 * x] - 1 / sqrt((double)dim)) <= 1e-15 &&
						  fabs(amp[2 * x + 1]) <= 1e-15,
					  "allocation %zu: after NOMEM amplitude %zu is %g%+gi", k,
					  x, amp[2 * x], amp[2 * x + 1]);
		} else if (call != OOM_OPTIMIZE) { /* the state is untouched */
			cr_assert_eq(qubo_qaoa_amplitudes(q, amp, 2 * dim), QUBO_OK);
			cr_assert_eq(memcmp(amp, ramp, 2 * dim * sizeof *amp), 0,
				     "allocation %zu changed the state", k);
		}
		cr_assert_lt(k, 100000);
	}
	qubo_qaoa_free(q);
	cr_assert_eq(fa.live, 0, "blocks left after qubo_qaoa_free");
	qubo_qaoa_free(ref);
	qubo_model_free(m);
	free(ramp);
	free(amp);
}

Test(qaoa_oom, evolve)
{
	oom_call(OOM_EVOLVE, 6);
}

Test(qaoa_oom, expectation)
{
	oom_call(OOM_EXPECTATION, 6);
}

Test(qaoa_oom, sample)
{
	oom_call(OOM_SAMPLE, 6);
}

Test(qaoa_oom, optimize)
{
	oom_call(OOM_OPTIMIZE, 5);
}

static void solver_oom(const qubo_model *m, const char *angles)
{
	tu_failalloc fa;
	qubo_solver *s = NULL, *ref = th_solver("qaoa");
	qubo_sampleset *rset = NULL;
	size_t k, live;

	tu_failalloc_init(&fa, 0);
	cr_assert_eq(qubo_solver_new(&s, "qaoa", &fa.a), QUBO_OK);
	for (k = 0; k < 2; k++) {
		qubo_solver *t = k ? ref : s;
		th_set_int(t, QUBO_PARAM_THREADS, 2);
		th_set_int(t, QUBO_PARAM_SEED, 5);
		th_set_int(t, QUBO_PARAM_NUM_READS, 30);
		if (angles)
			cr_assert_eq(qubo_solver_set_string(t, QUBO_PARAM_ANGLES, angles), QUBO_OK);
		else
			th_set_int(t, QUBO_PARAM_NUM_ITERATIONS, 3);
	}
	cr_assert_eq(qubo_solver_sample(&rset, ref, m), QUBO_OK);
	live = fa.live;
	for (k = 1;; k++) {
		qubo_sampleset *set = (qubo_sampleset *)1;
		int rc;
		fa.failed = 0;
		fa.fail_at = fa.count + k;
		rc = qubo_solver_sample(&set, s, m);
		fa.fail_at = 0;
		if (!fa.failed) {
			cr_assert_eq(rc, QUBO_OK, "%s", qubo_error_message());
			cr_assert(th_same_sets(set, rset));
			qubo_sampleset_free(set);
			break;
		}
		cr_assert_eq(rc, QUBO_ERR_NOMEM, "allocation %zu: %s %s", k, qubo_status_name(rc),
			     qubo_error_message());
		cr_assert_null(set);
		cr_assert_eq(fa.live, live, "allocation %zu leaked", k);
	}
	cr_assert_gt(k, 2);
	qubo_solver_free(s);
	cr_assert_eq(fa.live, 0);
	qubo_sampleset_free(rset);
	qubo_solver_free(ref);
}

Test(qaoa_oom, the_solver)
{
	/* (creation under failing allocations: solver_oom.creation) */
	qubo_model *m = qh_random_model(9, 5, 0.6, 2.0, 0);

	solver_oom(m, "0.6,-0.2,0.4,0.9");
	solver_oom(m, NULL);
	qubo_model_free(m);
}

/* ------------------------------------------------------------------------
 * 6. The solver's options
 * ------------------------------------------------------------------------ */

/* A malformed "angles" is refused with QUBO_ERR_INVALID_ARG and a message
 * naming the key, when set or else when sampling. */
static void angles_refused(const char *text, const qubo_model *m)
{
	qubo_solver *s = th_solver("qaoa");
	const qubo_options *o;
	const char *kept = NULL;
	int rc;

	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, "0.25,0.5"), QUBO_OK);
	cr_assert_eq(qubo_solver_options(s, &o), QUBO_OK);
	qubo_error_clear();
	rc = qubo_solver_set_string(s, QUBO_PARAM_ANGLES, text);
	if (rc == QUBO_OK) {
		qubo_sampleset *set = (qubo_sampleset *)1;
		rc = qubo_solver_sample(&set, s, m);
		cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "angles \"%s\": %s at sample time", text,
			     qubo_status_name(rc));
		cr_assert_null(set);
	} else {
		cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "angles \"%s\": %s", text,
			     qubo_status_name(rc));
		cr_assert_eq(qubo_options_get_string(o, QUBO_PARAM_ANGLES, NULL, &kept), QUBO_OK);
		cr_assert_str_eq(kept, "0.25,0.5", "a refused set changed the value");
	}
	cr_assert(strstr(qubo_error_message(), "angles"), "angles \"%s\": message \"%s\"", text,
		  qubo_error_message());
	MSG_ONE_PREFIX();
	qubo_solver_free(s);
}

Test(qaoa_options, malformed_angles)
{
	static const char *bad[] = {
		"",        " ",           ",",          "abc",         "0.1,x",
		"0.1,0.2,0.3", "0.1",     "nan,0.1",    "0.1,NAN",     "inf,0.1",
		"0.1,-inf", "infinity,1", "1e999,0.1",  "0.1,0.2,",    ",0.1,0.2",
		"0.1,,0.2", "0.1;0.2",    "0.1 0.2",    "0.1,0.2x",    "0.1,0.2,0.3,0.4,0.5",
	};
	qubo_model *m = chain_model(3);
	size_t k;

	for (k = 0; k < sizeof bad / sizeof bad[0]; k++)
		angles_refused(bad[k], m);
	qubo_model_free(m);
}

Test(qaoa_options, more_angles_than_the_deepest_depth)
{
	qubo_model *m = chain_model(3);
	char text[2 * (QUBO_QAOA_MAX_DEPTH + 1) * 4 + 1];
	qubo_solver *s = th_solver("qaoa");
	qubo_sampleset *set = NULL;
	size_t k;
	int rc;

	text[0] = '\0';
	for (k = 0; k < 2 * (QUBO_QAOA_MAX_DEPTH + 1); k++)
		strcat(text, k ? ",0.1" : "0.1");
	rc = qubo_solver_set_string(s, QUBO_PARAM_ANGLES, text);
	if (rc == QUBO_OK)
		rc = qubo_solver_sample(&set, s, m);
	cr_assert(rc == QUBO_ERR_INVALID_ARG || rc == QUBO_ERR_OUT_OF_RANGE, "%s",
		  qubo_status_name(rc));
	cr_assert_null(set);
	MSG_HAS("angles");
	/* the deepest depth itself is fine */
	text[0] = '\0';
	for (k = 0; k < 2 * QUBO_QAOA_MAX_DEPTH; k++)
		strcat(text, k ? ",0.1" : "0.1");
	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, text), QUBO_OK);
	th_set_int(s, QUBO_PARAM_NUM_READS, 2);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_OK, "%s", qubo_error_message());
	qubo_sampleset_free(set);
	qubo_solver_free(s);
	qubo_model_free(m);
}

Test(qaoa_options, p_range_and_types)
{
	qubo_solver *s = th_solver("qaoa");

	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_P, 0), QUBO_ERR_OUT_OF_RANGE);
	MSG_HAS("p");
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_P, QUBO_QAOA_MAX_DEPTH + 1),
		     QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_P, -1), QUBO_ERR_OUT_OF_RANGE);
	th_set_int(s, QUBO_PARAM_P, 1);
	th_set_int(s, QUBO_PARAM_P, QUBO_QAOA_MAX_DEPTH);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_P, 2.0), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_P, "2"), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_ANGLES, 2), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_MAX_QUBITS, 10.0), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 1000001),
		     QUBO_ERR_OUT_OF_RANGE);
	th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 1000000);
	th_set_int(s, QUBO_PARAM_NUM_ITERATIONS, 1);
	qubo_solver_free(s);
}

/* "p" and the count of the angles disagree: refused with a message naming
 * both keys, whichever is set first. */
Test(qaoa_options, p_disagreeing_with_the_angles)
{
	qubo_model *m = chain_model(4);
	int order;

	for (order = 0; order < 2; order++) {
		qubo_solver *s = th_solver("qaoa");
		qubo_sampleset *set = (qubo_sampleset *)1;
		int rc;
		if (order == 0) {
			th_set_int(s, QUBO_PARAM_P, 2);
			rc = qubo_solver_set_string(s, QUBO_PARAM_ANGLES, "0.1,0.2");
		} else {
			cr_assert_eq(qubo_solver_set_string(s, QUBO_PARAM_ANGLES, "0.1,0.2"),
				     QUBO_OK);
			rc = qubo_solver_set_int(s, QUBO_PARAM_P, 2);
		}
		if (rc == QUBO_OK) {
			rc = qubo_solver_sample(&set, s, m);
			cr_assert_null(set);
		}
		cr_assert_eq(rc, QUBO_ERR_INVALID_ARG, "order %d: %s %s", order,
			     qubo_status_name(rc), qubo_error_message());
		MSG_HAS("angles");
		MSG_HAS("p");
		MSG_ONE_PREFIX();
		qubo_solver_free(s);
	}
	qubo_model_free(m);
}

Test(qaoa_options, unknown_keys_and_the_description)
{
	static const char *keys[] = { "p", "angles", "max_qubits", "num_iterations", "threads",
				      "seed", "num_reads" };
	qubo_solver *s = th_solver("qaoa");
	char text[4096];
	size_t len = 0, k;

	cr_assert_eq(qubo_solver_set_int(s, "bogus", 1), QUBO_ERR_NOT_SUPPORTED);
	MSG_HAS("bogus");
	MSG_HAS("qaoa");
	MSG_ONE_PREFIX();
	for (k = 0; k < 4; k++)
		MSG_HAS(keys[k]);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, 10), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_TENURE, 3), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_eq(qubo_solver_set_double(s, QUBO_PARAM_BETA_HOT, 1.0), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_eq(qubo_solver_set_string(s, "gammas", "0.1"), QUBO_ERR_NOT_SUPPORTED);
	cr_assert_str_eq(qubo_solver_name(s), "qaoa");
	cr_assert_eq(qubo_solver_describe(s, text, sizeof text, &len), QUBO_OK);
	cr_assert_eq(strlen(text), len);
	cr_assert_eq(strncmp(text, "qaoa", 4), 0, "%s", text);
	for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
		cr_assert(strstr(text, keys[k]), "describe lacks %s: %s", keys[k], text);
	qubo_solver_free(s);
}

/* ------------------------------------------------------------------------
 * 7. Bad arguments of every qubo_qaoa_ function
 * ------------------------------------------------------------------------ */

Test(qaoa_args, creation)
{
	qubo_model *m = chain_model(3), *dirty = NULL;
	qubo_qaoa *q = (qubo_qaoa *)1;

	cr_assert_eq(qubo_qaoa_new(NULL, m, 0, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_new(&q, NULL, 0, NULL), QUBO_ERR_MISUSE);
	cr_assert_null(q);
	cr_assert_eq(qubo_model_new(&dirty, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(dirty, 0, 1, 1.0), QUBO_OK);
	cr_assert(!qubo_model_is_compiled(dirty));
	q = (qubo_qaoa *)1;
	cr_assert_eq(qubo_qaoa_new(&q, dirty, 0, NULL), QUBO_ERR_MISUSE);
	cr_assert_null(q);
	MSG_HAS("compile");
	qubo_qaoa_free(NULL);
	cr_assert_eq(qubo_qaoa_num_qubits(NULL), 0);
	cr_assert_eq(qubo_qaoa_set_threads(NULL, 1), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_new(&q, m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_set_threads(q, -1), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_set_threads(q, 1025), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_set_threads(q, 1024), QUBO_OK);
	cr_assert_eq(qubo_qaoa_set_threads(q, 0), QUBO_OK);
	qubo_qaoa_free(q);
	qubo_model_free(dirty);
	qubo_model_free(m);
}

Test(qaoa_args, evolve)
{
	qubo_model *m = chain_model(4);
	qubo_qaoa *q = qh_new(m);
	double g[QUBO_QAOA_MAX_DEPTH + 1], b[QUBO_QAOA_MAX_DEPTH + 1];
	double bad[] = { (double)NAN, (double)INFINITY, -(double)INFINITY };
	size_t k;

	for (k = 0; k <= QUBO_QAOA_MAX_DEPTH; k++) {
		g[k] = 0.01 * (double)k;
		b[k] = 0.02;
	}
	cr_assert_eq(qubo_qaoa_evolve(NULL, 1, g, b), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_evolve(q, 1, NULL, b), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_evolve(q, 1, g, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_evolve(q, QUBO_QAOA_MAX_DEPTH + 1, g, b), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_evolve(q, SIZE_MAX, g, b), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_evolve(q, QUBO_QAOA_MAX_DEPTH, g, b), QUBO_OK);
	cr_assert_eq(qubo_qaoa_evolve(q, 0, NULL, NULL), QUBO_OK);
	for (k = 0; k < 3; k++) {
		double gg[2] = { 0.1, bad[k] }, bb[2] = { 0.1, 0.2 };
		cr_assert_eq(qubo_qaoa_evolve(q, 2, gg, bb), QUBO_ERR_INVALID_ARG);
		MSG_HAS("gamma");
		gg[1] = 0.3;
		bb[0] = bad[k];
		cr_assert_eq(qubo_qaoa_evolve(q, 2, gg, bb), QUBO_ERR_INVALID_ARG);
		MSG_HAS("beta");
	}
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_args, figures_and_copies)
{
	qubo_model *m = chain_model(3);
	qubo_qaoa *q = qh_new(m);
	double buf[17], ex, lo, e;
	uint64_t count;
	size_t k;

	cr_assert_eq(qubo_qaoa_expectation(NULL, &ex, &lo), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_expectation(q, NULL, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_lowest_energy(NULL, &e, &count), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_lowest_energy(q, NULL, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_lowest_energy(q, &e, NULL), QUBO_OK);
	cr_assert_eq(qubo_qaoa_lowest_energy(q, NULL, &count), QUBO_OK);
	/* amplitudes: 16 doubles; probabilities: 8 */
	cr_assert_eq(qubo_qaoa_amplitudes(NULL, buf, 16), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_amplitudes(q, NULL, 16), QUBO_ERR_MISUSE);
	for (k = 0; k < 17; k++)
		buf[k] = -7;
	cr_assert_eq(qubo_qaoa_amplitudes(q, buf, 15), QUBO_ERR_BUFFER_TOO_SMALL);
	for (k = 15; k < 17; k++)
		cr_assert_eq(buf[k], -7, "written past the capacity");
	{
		int rc = qubo_qaoa_amplitudes(q, NULL, 0);
		cr_assert(rc == QUBO_ERR_BUFFER_TOO_SMALL || rc == QUBO_ERR_MISUSE);
	}
	cr_assert_eq(qubo_qaoa_amplitudes(q, buf, 16), QUBO_OK);
	cr_assert_eq(buf[16], -7, "written past the state");
	cr_assert_eq(qubo_qaoa_probabilities(NULL, buf, 8), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_probabilities(q, NULL, 8), QUBO_ERR_MISUSE);
	for (k = 0; k < 17; k++)
		buf[k] = -7;
	cr_assert_eq(qubo_qaoa_probabilities(q, buf, 7), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(buf[7], -7, "written past the capacity");
	cr_assert_eq(qubo_qaoa_probabilities(q, buf, 8), QUBO_OK);
	cr_assert_eq(buf[8], -7, "written past the state");
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_args, sample)
{
	qubo_model *m = chain_model(3);
	qubo_qaoa *q = qh_new(m);
	uint8_t rows[40];
	size_t k, huge;

	cr_assert_eq(qubo_qaoa_sample(NULL, 1, 2, rows, 6), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_sample(q, 1, 2, NULL, 6), QUBO_ERR_MISUSE);
	memset(rows, 0xAB, sizeof rows);
	cr_assert_eq(qubo_qaoa_sample(q, 1, 2, rows, 5), QUBO_ERR_BUFFER_TOO_SMALL);
	for (k = 5; k < sizeof rows; k++)
		cr_assert_eq(rows[k], 0xAB);
	cr_assert_eq(qubo_qaoa_sample(q, 1, 0, NULL, 0), QUBO_OK);
	cr_assert_eq(qubo_qaoa_sample(q, 1, 2, rows, 6), QUBO_OK);
	for (k = 6; k < sizeof rows; k++)
		cr_assert_eq(rows[k], 0xAB, "written past the reads");
	/* num_reads * n wraps around to 2: refused (the buffer is too small for
	 * the true product, which does not fit a size_t), nothing written */
	huge = SIZE_MAX / 3 + 1;
	memset(rows, 0xAB, sizeof rows);
	{
		int rc = qubo_qaoa_sample(q, 1, huge, rows, sizeof rows);
		cr_assert(rc == QUBO_ERR_BUFFER_TOO_SMALL || rc == QUBO_ERR_OUT_OF_RANGE, "%s",
			  qubo_status_name(rc));
	}
	for (k = 0; k < sizeof rows; k++)
		cr_assert_eq(rows[k], 0xAB);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_args, optimize)
{
	qubo_model *m = chain_model(3);
	qubo_qaoa *q = qh_new(m);
	double g[QUBO_QAOA_MAX_DEPTH + 1], b[QUBO_QAOA_MAX_DEPTH + 1], ex;

	cr_assert_eq(qubo_qaoa_optimize(NULL, 1, 5, g, b, &ex), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_optimize(q, 1, 5, NULL, b, &ex), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_optimize(q, 1, 5, g, NULL, &ex), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_optimize(q, 0, 5, g, b, &ex), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_optimize(q, QUBO_QAOA_MAX_DEPTH + 1, 5, g, b, &ex),
		     QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_optimize(q, 1, 1000001, g, b, &ex), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_optimize(q, 1, 5, g, b, NULL), QUBO_OK);
	qubo_qaoa_free(q);
	qubo_model_free(m);
}

Test(qaoa_args, qasm)
{
	qubo_model *m, *dirty = NULL;
	double g[2] = { 0.1, 0.2 }, b[2] = { 0.3, 0.4 }, bad[2] = { 0.1, (double)NAN };
	char buf[4096];
	size_t len = 0, len2 = 0;
	m = chain_model(3);
	cr_assert_eq(qubo_model_new(&dirty, 3, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_quadratic(dirty, 0, 1, 1.0), QUBO_OK);
	cr_assert_eq(qubo_qaoa_qasm(NULL, 2, g, b, QUBO_QASM_2, buf, sizeof buf, &len),
		     QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_qasm(dirty, 2, g, b, QUBO_QASM_2, buf, sizeof buf, &len),
		     QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, NULL, b, QUBO_QASM_2, buf, sizeof buf, &len),
		     QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, NULL, QUBO_QASM_3, buf, sizeof buf, &len),
		     QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, NULL, 10, &len), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, 1, buf, sizeof buf, &len), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, 4, buf, sizeof buf, &len), QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, bad, b, QUBO_QASM_2, buf, sizeof buf, &len),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, bad, QUBO_QASM_3, buf, sizeof buf, &len),
		     QUBO_ERR_INVALID_ARG);
	cr_assert_eq(qubo_qaoa_qasm(m, QUBO_QAOA_MAX_DEPTH + 1, g, b, QUBO_QASM_2, buf, sizeof buf,
				    &len),
		     QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, NULL, 0, &len), QUBO_OK);
	cr_assert_gt(len, 0);
	/* as qubo_qbsolv_write(): a capacity of exactly the length holds the
	 * text without its NUL, and one byte less is too small */
	memset(buf, 'z', sizeof buf);
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, buf, len - 1, &len2),
		     QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(len2, len);
	cr_assert_eq(buf[len - 1], 'z', "written past the capacity");
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, buf, len, &len2), QUBO_OK);
	cr_assert_eq(len2, len);
	cr_assert_eq(buf[len], 'z', "written past the capacity");
	cr_assert_eq(qubo_qaoa_qasm(m, 2, g, b, QUBO_QASM_2, buf, len + 1, &len2), QUBO_OK);
	cr_assert_eq(len2, len);
	cr_assert_eq(strlen(buf), len);
	cr_assert_eq(qubo_qaoa_qasm(m, 0, NULL, NULL, QUBO_QASM_3, buf, sizeof buf, NULL),
		     QUBO_OK);
	qubo_model_free(dirty);
	qubo_model_free(m);
}

/* A model of no variables has one state; the simulator either handles it
 * (one amplitude, the phase of the offset) or refuses it cleanly. */
Test(qaoa_args, a_model_of_no_variables)
{
	qubo_model *m = NULL;
	qubo_qaoa *q = NULL;
	double g[2] = { 0.7, -0.2 }, b[2] = { 0.3, 0.1 }, amp[2], e = 0;
	uint64_t count = 0;
	int rc;

	cr_assert_eq(qubo_model_new(&m, 0, NULL), QUBO_OK);
	cr_assert_eq(qubo_model_add_offset(m, 1.5), QUBO_OK);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	rc = qubo_qaoa_new(&q, m, 0, NULL);
	if (rc == QUBO_OK) {
		uint8_t row[1] = { 0xAB };
		cr_assert_eq(qubo_qaoa_num_qubits(q), 0);
		qh_evolve(q, 2, g, b);
		cr_assert_eq(qubo_qaoa_amplitudes(q, amp, 2), QUBO_OK);
		cr_assert(fabs(amp[0] - cos(0.5 * 1.5)) <= 1e-15 &&
				  fabs(amp[1] + sin(0.5 * 1.5)) <= 1e-15,
			  "%g%+gi", amp[0], amp[1]);
		cr_assert_eq(qubo_qaoa_lowest_energy(q, &e, &count), QUBO_OK);
		cr_assert_eq(e, 1.5);
		cr_assert_eq(count, 1);
		cr_assert_eq(qubo_qaoa_sample(q, 1, 3, row, 0), QUBO_OK);
		cr_assert_eq(row[0], 0xAB);
		qubo_qaoa_free(q);
	} else {
		cr_assert_lt(rc, 0);
		cr_assert_null(q);
		cr_assert_neq(qubo_error_message()[0], '\0');
	}
	qubo_model_free(m);
}
