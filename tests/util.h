/* Helpers shared by the test suites: a seeded random generator and a
 * fault-injecting allocator. */
#ifndef QUBO_TEST_UTIL_H
#define QUBO_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <qubo.h>

/* splitmix64: reproducible across platforms. */
typedef struct tu_rng {
	uint64_t s;
} tu_rng;

uint64_t tu_next(tu_rng *r);
/* Uniform in [0, bound). */
uint64_t tu_below(tu_rng *r, uint64_t bound);
/* Uniform integer in [lo, hi]. */
int64_t tu_range(tu_rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1). */
double tu_unit(tu_rng *r);

/* An allocator that fails the allocation numbered fail_at (1-based; 0 never)
 * and counts allocations and live blocks. */
typedef struct tu_failalloc {
	qubo_allocator a;
	size_t count;   /* allocations and reallocations attempted */
	size_t fail_at; /* 0: never fail */
	size_t live;    /* blocks currently allocated */
	int failed;     /* set once a failure was injected */
} tu_failalloc;

void tu_failalloc_init(tu_failalloc *f, size_t fail_at);

/* The whole file, NUL-terminated, its length in *len; the caller frees it
 * with free(). NULL when it cannot be read. */
char *tu_read_file(const char *path, size_t *len);

/* The names of the files in dir ending in suffix, sorted (strcmp), each and
 * the array allocated with malloc(); *count receives how many. NULL (and 0)
 * when dir cannot be read or holds none. tu_free_names frees them. */
char **tu_list_files(const char *dir, const char *suffix, size_t *count);
void tu_free_names(char **names, size_t count);

/* Sets the process locale (LC_ALL) to one whose decimal point is a comma,
 * de_DE.UTF-8 or a like one from the system, or else compiled once with
 * localedef (Debian's `locales` sources) into $QUBO_TEST_TMPDIR/locale,
 * which later runs and other suites reuse. Returns 1 when printf("%.1f",
 * 0.5) now gives "0,5", 0 when no such locale could be had (the caller
 * skips). Not under valgrind, which would trace localedef. */
int tu_set_comma_locale(void);

/* Seconds on CLOCK_MONOTONIC (benchmarks). */
double tu_now(void);

/* Processor seconds the process has used, all its threads
 * (CLOCK_PROCESS_CPUTIME_ID): what a run that does not stop runs up even on
 * a loaded machine, where its wall time stretches. */
double tu_cpu(void);

/* A model of n variables with linear weights h (NULL: none), the offset,
 * and couplers (i, i + 1) of weight j (0: none), not compiled; NULL when
 * a call fails (its message is set). */
qubo_model *tu_chain(size_t n, const double *h, double offset, double j);

/* qsort order of doubles, ascending. */
int tu_cmp_double(const void *a, const void *b);

/* The median of v[0..n) (sorted in place; n >= 1): the mean of the two
 * middle values when n is even. */
double tu_median(double *v, size_t n);

#endif
