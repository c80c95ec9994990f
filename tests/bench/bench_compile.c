/*
 * Benchmark: general coupler lists, the path of a caller who adds terms one
 * by one and of the qbsolv reader.
 *
 *   bench_compile pairs         N V DUP REPS [THREADS]
 *   bench_compile qbsolv        N V DUP REPS [THREADS]
 *   bench_compile qbsolv-sorted N V DUP REPS [THREADS]
 *
 * pairs: N random pairs (i, j), i != j, over V variables, a fraction DUP of
 * them repeating an earlier pair (in either order), are added with
 * qubo_model_add_quadratic() and compiled. The pairs are generated on the
 * fly, so the peak RSS is the library's. Prints the add and compile seconds,
 * compiled couplers per second (N / compile time) and the peak RSS.
 *
 * qbsolv: the same N couplers (i < j) as qbsolv text in memory, in the
 * order they are made (random), read with qubo_qbsolv_read_ex() (which
 * compiles); prints the read seconds and couplers per second. The text
 * itself counts in the peak RSS (its size is printed). qbsolv-sorted: the
 * same lines sorted by (i, j), repeats in the order they are made (as a
 * writer that lists its couplers by row gives them; the same model bit for
 * bit, so the same checksum). In the internal build each run also reads
 * the text without the compile first (the parse alone) and compiles that
 * model (the compile alone), and prints both times.
 *
 * Every repetition runs in a child process, so each has its own peak RSS;
 * the summary gives medians. Each line ends with a checksum of the compiled
 * model (CSR upper triangle, linear weights, bit patterns), the same for
 * any build that compiles the same sums. THREADS sets the compile's
 * workers (builds with QUBO_BENCH_INTERNAL only; 0 or absent: the default).
 */
#include <qubo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#ifdef QUBO_BENCH_INTERNAL
#include "model_impl.h"
#endif

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Pair k of the list: a fresh random pair, or (with probability dup) a
 * repeat of an earlier pair, in a random order. The weight is k's own, a
 * multiple of 1/1024 in [-1, 1), so the qbsolv text holds it exactly. */
static void pair_at(uint64_t k, uint32_t v, double dup, uint32_t *i, uint32_t *j, double *w)
{
	uint64_t r = mix(k), src = k;
	uint32_t a, b;

	*w = (double)((int64_t)(mix(k ^ 0x5555ull) % 2048) - 1024) / 1024.0;
	if (*w == 0.0)
		*w = 1.0 / 1024.0;
	if (k > 0 && (double)(r >> 11) * 0x1.0p-53 < dup)
		src = mix(r) % k;
	/* a repeat of a repeat is a repeat: follow to the fresh pair */
	for (;;) {
		uint64_t s = mix(src);
		if (src == 0 || !((double)(s >> 11) * 0x1.0p-53 < dup))
			break;
		src = mix(s) % src;
	}
	a = (uint32_t)(mix(src * 2 + 1) % v);
	b = (uint32_t)(mix(src * 2 + 2) % (v - 1));
	if (b >= a)
		b++;
	if (r & 1) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	*i = a;
	*j = b;
}

#ifdef QUBO_BENCH_INTERNAL
/* The checksum below, read straight from the compiled form in the order of
 * qubo_model_export_coo(), so that it adds no copy of the model to the
 * peak RSS. */
static uint64_t checksum(const qubo_model *m)
{
	uint64_t x = 1469598103934665603ull;
	size_t i, k;

	for (i = 0; i < m->n; i++)
		for (k = m->upper[i]; k < m->row[i + 1]; k++) {
			uint64_t b;
			memcpy(&b, &m->val[k], sizeof b);
			x = mix(x ^ ((uint64_t)i << 32 | m->col[k])) ^ b;
		}
	for (k = 0; k < m->n; k++) {
		uint64_t b;
		memcpy(&b, &m->h[k], sizeof b);
		x = mix(x ^ b);
	}
	return x ^ (m->nnz / 2);
}
#else
static uint64_t checksum(const qubo_model *m)
{
	size_t n = qubo_model_num_variables(m), cnt = 0, k;
	uint32_t *r, *c;
	double *w, *h;
	uint64_t x = 1469598103934665603ull;

	if (qubo_model_export_coo(m, NULL, NULL, NULL, 0, &cnt))
		return 0;
	r = malloc((cnt ? cnt : 1) * sizeof *r);
	c = malloc((cnt ? cnt : 1) * sizeof *c);
	w = malloc((cnt ? cnt : 1) * sizeof *w);
	h = malloc((n ? n : 1) * sizeof *h);
	if (!r || !c || !w || !h || qubo_model_export_coo(m, r, c, w, cnt ? cnt : 1, &cnt) ||
	    qubo_model_export_linear(m, h, n))
		exit(1);
	for (k = 0; k < cnt; k++) {
		uint64_t b;
		memcpy(&b, &w[k], sizeof b);
		x = mix(x ^ ((uint64_t)r[k] << 32 | c[k])) ^ b;
	}
	for (k = 0; k < n; k++) {
		uint64_t b;
		memcpy(&b, &h[k], sizeof b);
		x = mix(x ^ b);
	}
	free(r);
	free(c);
	free(w);
	free(h);
	return x ^ cnt;
}
#endif

typedef struct result {
	double t_add, t_compile, rss_mb, text_mb;
	double t_parse, t_pcompile; /* the parse and the compile alone, or 0 */
	uint64_t sum;
	size_t couplers;
} result;

static void set_threads(qubo_model *m, int threads)
{
#ifdef QUBO_BENCH_INTERNAL
	if (threads > 0)
		qubo__model_set_compile_threads(m, threads);
#else
	(void)m;
	(void)threads;
#endif
}

static void run_pairs(size_t n, uint32_t v, double dup, int threads, result *res)
{
	qubo_model *m;
	qubo_model_stats st = QUBO_MODEL_STATS_INIT;
	double t0, t1, t2;
	size_t k;

	if (qubo_model_new(&m, v, NULL))
		exit(1);
	set_threads(m, threads);
	t0 = tu_now();
	for (k = 0; k < n; k++) {
		uint32_t i, j;
		double w;
		pair_at(k, v, dup, &i, &j, &w);
		if (qubo_model_add_quadratic(m, i, j, w))
			exit(1);
	}
	t1 = tu_now();
	if (qubo_model_compile(m)) {
		fprintf(stderr, "compile: %s\n", qubo_error_message());
		exit(1);
	}
	t2 = tu_now();
	res->t_add = t1 - t0;
	res->t_compile = t2 - t1;
	qubo_model_get_stats(m, &st);
	res->couplers = st.num_couplers;
	res->sum = checksum(m);
	qubo_model_free(m);
}

typedef struct keyed {
	uint64_t key; /* i << 32 | j */
	uint32_t k;   /* the pair's number, the order among repeats */
} keyed;

static int cmp_keyed(const void *pa, const void *pb)
{
	const keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->k > b->k) - (a->k < b->k);
}

/* The numbers of the N pairs in the order of their lines: as made, or
 * sorted by (i, j) and then by number. NULL: as made. The sort's keys are
 * freed before the text is written, so that they do not count in the peak
 * RSS of the read. */
static uint32_t *line_order(size_t n, uint32_t v, double dup, int sorted)
{
	keyed *t;
	uint32_t *order;
	size_t k;

	if (!sorted)
		return NULL;
	t = malloc((n ? n : 1) * sizeof *t);
	if (!t)
		exit(1);
	for (k = 0; k < n; k++) {
		uint32_t i, j;
		double w;
		pair_at(k, v, dup, &i, &j, &w);
		t[k].key = (uint64_t)(i < j ? i : j) << 32 | (i < j ? j : i);
		t[k].k = (uint32_t)k;
	}
	qsort(t, n, sizeof *t, cmp_keyed);
	order = malloc((n ? n : 1) * sizeof *order);
	if (!order)
		exit(1);
	for (k = 0; k < n; k++)
		order[k] = t[k].k;
	free(t);
	return order;
}

static void run_qbsolv(size_t n, uint32_t v, double dup, int sorted, int threads, result *res)
{
	size_t cap = 64 + n * 40, len = 0, k;
	uint32_t *order = line_order(n, v, dup, sorted);
	char *text = malloc(cap);
	qubo_qbsolv_options o;
	qubo_model *m;
	qubo_model_stats st = QUBO_MODEL_STATS_INIT;
	double t0, t1;

	if (!text)
		exit(1);
	len += (size_t)sprintf(text, "p qubo 0 %u 0 %zu\n", v, n);
	for (k = 0; k < n; k++) {
		uint32_t i, j;
		double w;
		pair_at(order ? order[k] : k, v, dup, &i, &j, &w);
		len += (size_t)sprintf(text + len, "%u %u %.10g\n", i < j ? i : j, i < j ? j : i,
				       w);
	}
	free(order);
	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.max_input_bytes = len + 1;
	o.max_couplers = n;
	o.max_variables = v;
#ifdef QUBO_BENCH_INTERNAL
	t0 = tu_now();
	if (qubo__qbsolv_read_pending(&m, text, len, &o)) {
		fprintf(stderr, "read: %s\n", qubo_error_message());
		exit(1);
	}
	t1 = tu_now();
	set_threads(m, threads);
	if (qubo_model_compile(m)) {
		fprintf(stderr, "compile: %s\n", qubo_error_message());
		exit(1);
	}
	res->t_parse = t1 - t0;
	res->t_pcompile = tu_now() - t1;
	qubo_model_free(m);
#else
	(void)threads;
#endif
	t0 = tu_now();
	if (qubo_qbsolv_read_ex(&m, text, len, &o)) {
		fprintf(stderr, "read: %s\n", qubo_error_message());
		exit(1);
	}
	t1 = tu_now();
	res->t_add = 0;
	res->t_compile = t1 - t0;
	res->text_mb = (double)len / 1048576.0;
	qubo_model_get_stats(m, &st);
	res->couplers = st.num_couplers;
	res->sum = checksum(m);
	qubo_model_free(m);
	free(text);
}

int main(int argc, char **argv)
{
	int qbsolv, sorted, reps, threads, r;
	size_t n;
	uint32_t v;
	double dup, ta[64], tc[64], rss[64], tp[64], tpc[64];
	result res;

	if (argc < 6 || (strcmp(argv[1], "pairs") && strcmp(argv[1], "qbsolv") &&
			 strcmp(argv[1], "qbsolv-sorted"))) {
		fprintf(stderr, "usage: %s pairs|qbsolv|qbsolv-sorted N V DUP REPS [THREADS]\n",
			argv[0]);
		return 2;
	}
	sorted = !strcmp(argv[1], "qbsolv-sorted");
	qbsolv = sorted || !strcmp(argv[1], "qbsolv");
	n = (size_t)strtod(argv[2], NULL);
	v = (uint32_t)strtod(argv[3], NULL);
	dup = strtod(argv[4], NULL);
	reps = atoi(argv[5]);
	threads = argc > 6 ? atoi(argv[6]) : 0;
	if (reps < 1 || reps > 64 || v < 2)
		return 2;
	printf("%s: %zu pairs over %u variables, duplicate fraction %.3g, threads %d\n",
	       argv[1], n, v, dup, threads);
	for (r = 0; r < reps; r++) {
		int fd[2], status;
		struct rusage ru;
		pid_t pid;

		if (pipe(fd))
			return 1;
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			close(fd[0]);
			memset(&res, 0, sizeof res);
			if (qbsolv)
				run_qbsolv(n, v, dup, sorted, threads, &res);
			else
				run_pairs(n, v, dup, threads, &res);
			if (write(fd[1], &res, sizeof res) != (ssize_t)sizeof res)
				_exit(1);
			_exit(0);
		}
		close(fd[1]);
		memset(&res, 0, sizeof res);
		if (read(fd[0], &res, sizeof res) != (ssize_t)sizeof res) {
			fprintf(stderr, "run %d failed\n", r);
			return 1;
		}
		close(fd[0]);
		if (wait4(pid, &status, 0, &ru) != pid || status)
			return 1;
		res.rss_mb = (double)ru.ru_maxrss / 1024.0;
		ta[r] = res.t_add;
		tc[r] = res.t_compile;
		rss[r] = res.rss_mb;
		tp[r] = res.t_parse;
		tpc[r] = res.t_pcompile;
		if (qbsolv)
			printf("run %d: read %.3f s (%.2f M couplers/s; parse alone %.3f s, "
			       "compile alone %.3f s), text %.0f MB, peak RSS %.0f MB, %zu "
			       "couplers, checksum %016llx\n",
			       r, res.t_compile, (double)n / res.t_compile / 1e6, res.t_parse,
			       res.t_pcompile, res.text_mb, res.rss_mb, res.couplers,
			       (unsigned long long)res.sum);
		else
			printf("run %d: add %.3f s, compile %.3f s (%.2f M pairs/s), peak RSS "
			       "%.0f MB, %zu couplers, checksum %016llx\n",
			       r, res.t_add, res.t_compile, (double)n / res.t_compile / 1e6,
			       res.rss_mb, res.couplers, (unsigned long long)res.sum);
		fflush(stdout);
	}
	if (qbsolv)
		printf("median: read %.3f s, %.2f M couplers/s, parse alone %.3f s (%.2f M "
		       "couplers/s), compile alone %.3f s, peak RSS %.0f MB\n",
		       tu_median(tc, (size_t)reps), (double)n / tu_median(tc, (size_t)reps) / 1e6,
		       tu_median(tp, (size_t)reps), (double)n / tu_median(tp, (size_t)reps) / 1e6,
		       tu_median(tpc, (size_t)reps), tu_median(rss, (size_t)reps));
	else
		printf("median: compile %.3f s, %.2f M couplers/s, add %.3f s, peak RSS %.0f MB\n",
		       tu_median(tc, (size_t)reps), (double)n / tu_median(tc, (size_t)reps) / 1e6,
		       tu_median(ta, (size_t)reps), tu_median(rss, (size_t)reps));
	return 0;
}
