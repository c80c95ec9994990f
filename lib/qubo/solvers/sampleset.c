/* Sample sets: energies from the model, sorted by (energy, bits), duplicates
 * merged, with copying accessors. */
#include <string.h>

#include "solver_impl.h"

typedef struct sort_ctx {
	const uint8_t *rows;
	const double *e;
	size_t n;
} sort_ctx;

/* Energy ascending, then the bytes lexicographically. */
static int before(const sort_ctx *c, size_t a, size_t b)
{
	if (c->e[a] < c->e[b])
		return 1;
	if (c->e[a] > c->e[b])
		return 0;
	return c->n && memcmp(c->rows + a * c->n, c->rows + b * c->n, c->n) < 0;
}

/* Rows may be NULL when n is 0: never hand memcmp a NULL pointer. */
static int same_row(const uint8_t *rows, size_t a, size_t b, size_t n)
{
	return !n || !memcmp(rows + a * n, rows + b * n, n);
}

/* Stable bottom-up merge sort of idx (count entries) using tmp. */
static void sort_indices(const sort_ctx *c, size_t *idx, size_t *tmp, size_t count)
{
	size_t width, i, *src = idx, *dst = tmp;

	for (width = 1; width < count; width *= 2) {
		for (i = 0; i < count; i += 2 * width) {
			size_t lo = i, mid = i + width, hi = i + 2 * width, a, b, k;
			if (mid > count)
				mid = count;
			if (hi > count)
				hi = count;
			a = lo;
			b = mid;
			for (k = lo; k < hi; k++) {
				if (a < mid && (b >= hi || !before(c, src[b], src[a])))
					dst[k] = src[a++];
				else
					dst[k] = src[b++];
			}
		}
		{
			size_t *t = src;
			src = dst;
			dst = t;
		}
	}
	if (src != idx)
		memcpy(idx, src, count * sizeof *idx);
}

static void free_set(qubo_sampleset *s)
{
	qubo_allocator a = s->alloc;

	qubo__free(&a, s->bits);
	qubo__free(&a, s->energies);
	qubo__free(&a, s->occ);
	qubo__free(&a, s);
}

int qubo__sampleset_build(qubo_sampleset **out, const qubo_allocator *a, const qubo_model *m,
			  const uint8_t *rows, const uint64_t *occ, size_t num, size_t n)
{
	qubo_sampleset *s = NULL;
	double *e = NULL;
	size_t *idx = NULL, *tmp = NULL, distinct = 0, i, k;
	uint64_t total = 0;
	sort_ctx c;
	int rc;

	*out = NULL;
	if (n && num > SIZE_MAX / n)
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
				       "%zu samples of %zu variables overflow", num, n);
	e = qubo__malloc_array(a, num, sizeof *e);
	idx = qubo__malloc_array(a, num, sizeof *idx);
	tmp = qubo__malloc_array(a, num, sizeof *tmp);
	s = qubo__malloc(a, sizeof *s);
	if (s)
		memset(s, 0, sizeof *s);
	if (!e || !idx || !tmp || !s) {
		rc = qubo__nomem("a sample set");
		goto fail;
	}
	s->alloc = *a;
	rc = qubo_model_energy_batch(m, rows, num, n, e);
	if (rc)
		goto fail;
	for (i = 0; i < num; i++)
		idx[i] = i;
	c.rows = rows;
	c.e = e;
	c.n = n;
	sort_indices(&c, idx, tmp, num);
	for (i = 0; i < num; i++)
		if (!i || !same_row(rows, idx[i], idx[i - 1], n))
			distinct++;
	s->bits = qubo__malloc_array(a, distinct, n);
	s->energies = qubo__malloc_array(a, distinct, sizeof *s->energies);
	s->occ = qubo__malloc_array(a, distinct, sizeof *s->occ);
	if (!s->bits || !s->energies || !s->occ) {
		rc = qubo__nomem("a sample set");
		goto fail;
	}
	for (i = 0, k = 0; i < num; i++) {
		size_t r = idx[i];
		uint64_t w = occ ? occ[r] : 1;
		if (i && same_row(rows, r, idx[i - 1], n)) {
			uint64_t *o = &s->occ[k - 1];
			*o = *o > UINT64_MAX - w ? UINT64_MAX : *o + w;
		} else {
			if (n)
				memcpy(s->bits + k * n, rows + r * n, n);
			s->energies[k] = e[r];
			s->occ[k] = w;
			k++;
		}
		total = total > UINT64_MAX - w ? UINT64_MAX : total + w;
	}
	s->n = n;
	s->size = distinct;
	s->info.struct_size = sizeof s->info;
	s->info.status = QUBO_OK;
	s->info.num_samples = total;
	qubo__free(a, e);
	qubo__free(a, idx);
	qubo__free(a, tmp);
	*out = s;
	return QUBO_OK;
fail:
	qubo__free(a, e);
	qubo__free(a, idx);
	qubo__free(a, tmp);
	if (s) {
		qubo__free(a, s->bits);
		qubo__free(a, s->energies);
		qubo__free(a, s->occ);
		qubo__free(a, s);
	}
	return rc;
}

/* The checks of the two builders from caller rows. */
static int check_rows(const char *fn, qubo_sampleset **out, const qubo_model *model,
		      const uint8_t *samples, size_t num_samples, size_t length)
{
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	rc = qubo__model_require_bounded(model, fn);
	if (rc)
		return rc;
	if (num_samples && length && !samples)
		return qubo__error(QUBO_ERR_MISUSE, "%s: samples is NULL", fn);
	if (length != qubo_model_num_variables(model))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: length is %zu, the model has %zu "
				   "variables", fn, length, qubo_model_num_variables(model));
	return QUBO_OK;
}

int qubo_sampleset_from_samples(qubo_sampleset **out, const qubo_model *model,
				const uint8_t *samples, size_t num_samples, size_t length,
				const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_sampleset_from_samples";
	qubo_allocator a;
	int rc = check_rows(fn, out, model, samples, num_samples, length);

	if (rc)
		return rc;
	rc = qubo__alloc_init(&a, allocator, fn);
	if (rc)
		return rc;
	return qubo__sampleset_build(out, &a, model, samples, NULL, num_samples, length);
}

int qubo_sampleset_from_counts(qubo_sampleset **out, const qubo_model *model,
			       const uint8_t *samples, const uint64_t *occurrences,
			       size_t num_samples, size_t length, const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_sampleset_from_counts";
	qubo_allocator a;
	size_t i;
	int rc = check_rows(fn, out, model, samples, num_samples, length);

	if (rc)
		return rc;
	if (num_samples && !occurrences)
		return qubo__error(QUBO_ERR_MISUSE, "%s: occurrences is NULL", fn);
	for (i = 0; i < num_samples; i++)
		if (!occurrences[i])
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: occurrences[%zu] is 0; a "
					   "sample occurs at least once", fn, i);
	rc = qubo__alloc_init(&a, allocator, fn);
	if (rc)
		return rc;
	return qubo__sampleset_build(out, &a, model, samples, occurrences, num_samples, length);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int qubo_sampleset_merge(qubo_sampleset **out, const qubo_model *model,
			 const qubo_sampleset *const *sets, size_t num_sets,
			 const qubo_allocator *allocator)
{
	static const char fn[] = "qubo_sampleset_merge";
	qubo_allocator a;
	qubo_sample_info info;
	uint8_t *rows = NULL;
	uint64_t *occ = NULL;
	size_t n, total = 0, i, k;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	rc = qubo__model_require_bounded(model, fn);
	if (rc)
		return rc;
	if (num_sets && !sets)
		return qubo__error(QUBO_ERR_MISUSE, "%s: sets is NULL", fn);
	n = qubo_model_num_variables(model);
	for (i = 0; i < num_sets; i++) {
		if (!sets[i])
			return qubo__error(QUBO_ERR_MISUSE, "%s: sets[%zu] is NULL", fn, i);
		if (sets[i]->n != n)
			return qubo__error(QUBO_ERR_INVALID_ARG, "%s: sets[%zu] has %zu variables, "
					   "the model %zu", fn, i, sets[i]->n, n);
		if (sets[i]->size > SIZE_MAX - total)
			return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
					       "%s: too many samples", fn);
		total += sets[i]->size;
	}
	rc = qubo__alloc_init(&a, allocator, fn);
	if (rc)
		return rc;
	if (n && total > SIZE_MAX / n)
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
				       "%s: %zu samples of %zu variables "
				       "overflow",
				       fn, total, n);
	rows = qubo__malloc_array(&a, total, n ? n : 1);
	occ = qubo__malloc_array(&a, total, sizeof *occ);
	if (!rows || !occ) {
		rc = qubo__nomem("the merged samples");
		goto out;
	}
	memset(&info, 0, sizeof info);
	for (i = 0, k = 0; i < num_sets; i++) {
		const qubo_sampleset *s = sets[i];
		if (s->size && n)
			memcpy(rows + k * n, s->bits, s->size * n);
		if (s->size)
			memcpy(occ + k, s->occ, s->size * sizeof *occ);
		k += s->size;
		if (!i)
			info.seed = s->info.seed;
		if (info.status == QUBO_OK)
			info.status = s->info.status;
		if (s->info.reached_target)
			info.reached_target = 1;
		if (s->info.seconds > info.seconds)
			info.seconds = s->info.seconds;
		info.num_samples = add_sat(info.num_samples, s->info.num_samples);
		info.flip_attempts = add_sat(info.flip_attempts, s->info.flip_attempts);
		info.num_ground_states = add_sat(info.num_ground_states,
						 s->info.num_ground_states);
	}
	rc = qubo__sampleset_build(out, &a, model, rows, occ, total, n);
	if (!rc) {
		info.struct_size = sizeof info;
		(*out)->info = info;
	}
out:
	qubo__free(&a, rows);
	qubo__free(&a, occ);
	return rc;
}

void qubo_sampleset_free(qubo_sampleset *set)
{
	if (set)
		free_set(set);
}

size_t qubo_sampleset_size(const qubo_sampleset *set)
{
	return set ? set->size : 0;
}

size_t qubo_sampleset_num_variables(const qubo_sampleset *set)
{
	return set ? set->n : 0;
}

static int check_index(const char *fn, const qubo_sampleset *set, size_t index)
{
	if (!set)
		return qubo__error(QUBO_ERR_MISUSE, "%s: sample set is NULL", fn);
	if (index >= set->size)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: index %zu, but the set holds %zu "
				   "samples", fn, index, set->size);
	return QUBO_OK;
}

static int copy_row(const char *fn, const qubo_sampleset *set, size_t index, uint8_t *sample,
		    size_t capacity)
{
	if (!sample)
		return QUBO_OK;
	if (capacity < set->n)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: capacity is %zu, a sample has "
				   "%zu variables", fn, capacity, set->n);
	if (set->n)
		memcpy(sample, set->bits + index * set->n, set->n);
	return QUBO_OK;
}

int qubo_sampleset_get(const qubo_sampleset *set, size_t index, uint8_t *sample, size_t capacity,
		       double *energy_out, uint64_t *occurrences_out)
{
	static const char fn[] = "qubo_sampleset_get";
	int rc = check_index(fn, set, index);

	if (!rc)
		rc = copy_row(fn, set, index, sample, capacity);
	if (rc)
		return rc;
	if (energy_out)
		*energy_out = set->energies[index];
	if (occurrences_out)
		*occurrences_out = set->occ[index];
	return QUBO_OK;
}

const uint8_t *qubo_sampleset_sample_data(const qubo_sampleset *set, size_t index)
{
	if (!set || index >= set->size)
		return NULL;
	return set->bits + index * set->n;
}

int qubo_sampleset_lowest(const qubo_sampleset *set, uint8_t *sample, size_t capacity,
			  double *energy_out)
{
	static const char fn[] = "qubo_sampleset_lowest";
	int rc;

	if (!set)
		return qubo__error(QUBO_ERR_MISUSE, "%s: sample set is NULL", fn);
	if (!set->size)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: the sample set is empty", fn);
	rc = copy_row(fn, set, 0, sample, capacity);
	if (rc)
		return rc;
	if (energy_out)
		*energy_out = set->energies[0];
	return QUBO_OK;
}

int qubo_sampleset_export(const qubo_sampleset *set, uint8_t *samples, double *energies,
			  uint64_t *occurrences, size_t capacity)
{
	static const char fn[] = "qubo_sampleset_export";

	if (!set)
		return qubo__error(QUBO_ERR_MISUSE, "%s: sample set is NULL", fn);
	if (capacity < set->size)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL, "%s: capacity is %zu rows, the set "
				   "holds %zu", fn, capacity, set->size);
	if (samples && set->size && set->n)
		memcpy(samples, set->bits, set->size * set->n);
	if (energies && set->size)
		memcpy(energies, set->energies, set->size * sizeof *energies);
	if (occurrences && set->size)
		memcpy(occurrences, set->occ, set->size * sizeof *occurrences);
	return QUBO_OK;
}

int qubo_sampleset_truncate(qubo_sampleset *set, size_t count)
{
	if (!set)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_sampleset_truncate: sample set is NULL");
	if (count < set->size)
		set->size = count;
	return QUBO_OK;
}

int qubo_sampleset_foreach(const qubo_sampleset *set, qubo_sample_cb callback, void *user_data)
{
	size_t i;

	if (!set || !callback)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_sampleset_foreach: NULL %s",
				   !set ? "sample set" : "callback");
	for (i = 0; i < set->size; i++) {
		int rc = callback(i, set->bits + i * set->n, set->n, set->energies[i], set->occ[i],
				  user_data);
		if (rc)
			return rc;
	}
	return QUBO_OK;
}

int qubo_sampleset_get_info(const qubo_sampleset *set, qubo_sample_info *info)
{
	static const char fn[] = "qubo_sampleset_get_info";

	if (!set || !info)
		return qubo__null_arg(fn, !set ? "sample set" : "info");
	return qubo__struct_write(info, &set->info, sizeof *info, QUBO_SAMPLE_INFO_SIZE_V1,
				  "qubo_sample_info", fn);
}
