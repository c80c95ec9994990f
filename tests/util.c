#include "util.h"

#include <stdlib.h>

uint64_t tu_next(tu_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint64_t tu_below(tu_rng *r, uint64_t bound)
{
	return bound ? tu_next(r) % bound : 0;
}

int64_t tu_range(tu_rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)tu_below(r, (uint64_t)(hi - lo) + 1);
}

double tu_unit(tu_rng *r)
{
	return (double)(tu_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static int should_fail(tu_failalloc *f)
{
	f->count++;
	if (f->fail_at && f->count == f->fail_at) {
		f->failed = 1;
		return 1;
	}
	return 0;
}

static void *fa_malloc(size_t size, void *ud)
{
	tu_failalloc *f = ud;
	void *p;
	if (should_fail(f))
		return NULL;
	p = malloc(size);
	if (p)
		f->live++;
	return p;
}

static void *fa_realloc(void *ptr, size_t size, void *ud)
{
	tu_failalloc *f = ud;
	if (should_fail(f))
		return NULL;
	return realloc(ptr, size);
}

static void fa_free(void *ptr, void *ud)
{
	tu_failalloc *f = ud;
	f->live--;
	free(ptr);
}

void tu_failalloc_init(tu_failalloc *f, size_t fail_at)
{
	f->a.struct_size = sizeof f->a;
	f->a.malloc_fn = fa_malloc;
	f->a.realloc_fn = fa_realloc;
	f->a.free_fn = fa_free;
	f->a.user_data = f;
	f->count = 0;
	f->fail_at = fail_at;
	f->live = 0;
	f->failed = 0;
}
