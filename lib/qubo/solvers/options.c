/* Keyed typed options: storage with all-or-nothing updates, the readers a
 * backend uses, and the checked key tables of the built-in solvers. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "solver_impl.h"

#define KEY_MAX 64

const qubo__param qubo__common_params[] = {
	QUBO__P_NUM_READS("independent reads"),
	QUBO__P_SEED,
	QUBO__P_THREADS,
	QUBO__P_TIME_LIMIT,
	QUBO__P_TARGET_ENERGY,
};
const size_t qubo__num_common_params = sizeof qubo__common_params / sizeof qubo__common_params[0];

void qubo__options_init(qubo_options *o, const qubo_allocator *a)
{
	o->alloc = a;
	o->items = NULL;
	o->count = o->cap = 0;
}

static void free_opt(const qubo_allocator *a, qubo__opt *it)
{
	qubo__free(a, it->key);
	qubo__free(a, it->s);
}

void qubo__options_dispose(qubo_options *o)
{
	size_t i;

	for (i = 0; i < o->count; i++)
		free_opt(o->alloc, &o->items[i]);
	qubo__free(o->alloc, o->items);
	o->items = NULL;
	o->count = o->cap = 0;
}

static char *dup_string(const qubo_allocator *a, const char *s)
{
	size_t len = strlen(s);
	char *d = qubo__malloc(a, len + 1);

	if (d)
		memcpy(d, s, len + 1);
	return d;
}

int qubo__options_copy(qubo_options *dst, const qubo_options *src)
{
	size_t i;

	if (!src->count)
		return QUBO_OK;
	dst->items = qubo__calloc_array(dst->alloc, src->count, sizeof *dst->items);
	if (!dst->items)
		return qubo__nomem("a copy of the options");
	dst->cap = src->count;
	for (i = 0; i < src->count; i++) {
		qubo__opt *d = &dst->items[i];
		*d = src->items[i];
		d->key = dup_string(dst->alloc, src->items[i].key);
		d->s = src->items[i].s ? dup_string(dst->alloc, src->items[i].s) : NULL;
		dst->count = i + 1;
		if (!d->key || (src->items[i].s && !d->s)) {
			qubo__options_dispose(dst);
			return qubo__nomem("a copy of the options");
		}
	}
	return QUBO_OK;
}

qubo__opt *qubo__options_find(const qubo_options *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->count; i++)
		if (!strcmp(o->items[i].key, key))
			return &o->items[i];
	return NULL;
}

int qubo__options_check_key(const char *func, const char *key)
{
	size_t i;

	if (!key)
		return qubo__error(QUBO_ERR_MISUSE, "%s: key is NULL", func);
	for (i = 0; key[i]; i++) {
		char c = key[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
		if (!ok)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "option key \"%.*s\" has character %zu (byte 0x%02x) "
					   "outside [A-Za-z0-9_.-]", KEY_MAX, key, i + 1,
					   (unsigned)(unsigned char)c);
		if (i >= KEY_MAX)
			return qubo__error(QUBO_ERR_INVALID_ARG,
					   "option key \"%.*s...\" is longer than %d characters",
					   KEY_MAX, key, KEY_MAX);
	}
	if (!i)
		return qubo__error(QUBO_ERR_INVALID_ARG, "option key is empty");
	return QUBO_OK;
}

int qubo__options_put(qubo_options *o, const char *key, const qubo__opt *value,
		      qubo__opt_change *change)
{
	qubo__opt *it = qubo__options_find(o, key);
	char *kcopy = NULL, *scopy = NULL;

	if (value->type == QUBO_TYPE_STRING) {
		scopy = dup_string(o->alloc, value->s);
		if (!scopy)
			return qubo__nomem("an option's string value");
	}
	if (!it) {
		kcopy = dup_string(o->alloc, key);
		if (!kcopy || qubo__grow(o->alloc, (void **)&o->items, &o->cap, o->count + 1,
					 sizeof *o->items)) {
			qubo__free(o->alloc, kcopy);
			qubo__free(o->alloc, scopy);
			return qubo__nomem("an option");
		}
		change->existed = 0;
		change->index = o->count;
		it = &o->items[o->count++];
		it->key = kcopy;
	} else {
		change->existed = 1;
		change->index = (size_t)(it - o->items);
		change->old = *it;
	}
	it->type = value->type;
	it->i = value->i;
	it->d = value->d;
	it->s = scopy;
	return QUBO_OK;
}

void qubo__options_undo(qubo_options *o, qubo__opt_change *change)
{
	qubo__opt *it = &o->items[change->index];

	qubo__free(o->alloc, it->s);
	if (change->existed) {
		*it = change->old;
	} else {
		/* the new key was appended last */
		qubo__free(o->alloc, it->key);
		o->count--;
	}
}

void qubo__options_commit(qubo_options *o, qubo__opt_change *change)
{
	if (change->existed)
		qubo__free(o->alloc, change->old.s);
}

void qubo__options_remove(qubo_options *o, const char *key)
{
	qubo__opt *it = qubo__options_find(o, key);
	size_t k;

	if (!it)
		return;
	k = (size_t)(it - o->items);
	free_opt(o->alloc, it);
	memmove(it, it + 1, (o->count - k - 1) * sizeof *it);
	o->count--;
}

const char *qubo__type_name(int32_t type)
{
	switch (type) {
	case QUBO_TYPE_INT:
		return "an integer";
	case QUBO_TYPE_DOUBLE:
		return "a double";
	case QUBO_TYPE_STRING:
		return "a string";
	}
	return "nothing";
}

/* ---- public readers ---- */

int32_t qubo_options_type(const qubo_options *o, const char *key)
{
	const qubo__opt *it;

	if (!o || !key)
		return QUBO_TYPE_NONE;
	it = qubo__options_find(o, key);
	return it ? it->type : QUBO_TYPE_NONE;
}

static int reader_args(const char *fn, const qubo_options *o, const char *key, const void *out)
{
	if (!o || !key || !out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL %s", fn,
				   !o ? "options" : !key ? "key" : "output");
	return QUBO_OK;
}

int qubo_options_get_int(const qubo_options *o, const char *key, int64_t fallback,
			 int64_t *value_out)
{
	static const char fn[] = "qubo_options_get_int";
	const qubo__opt *it;
	int rc = reader_args(fn, o, key, value_out);

	if (rc)
		return rc;
	it = qubo__options_find(o, key);
	if (!it) {
		*value_out = fallback;
		return QUBO_OK;
	}
	if (it->type != QUBO_TYPE_INT)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: option %s holds %s, not an integer",
				   fn, key, qubo__type_name(it->type));
	*value_out = it->i;
	return QUBO_OK;
}

int qubo_options_get_double(const qubo_options *o, const char *key, double fallback,
			    double *value_out)
{
	static const char fn[] = "qubo_options_get_double";
	const qubo__opt *it;
	int rc = reader_args(fn, o, key, value_out);

	if (rc)
		return rc;
	it = qubo__options_find(o, key);
	if (!it) {
		*value_out = fallback;
		return QUBO_OK;
	}
	if (it->type == QUBO_TYPE_INT) {
		*value_out = (double)it->i;
		return QUBO_OK;
	}
	if (it->type != QUBO_TYPE_DOUBLE)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: option %s holds %s, not a number",
				   fn, key, qubo__type_name(it->type));
	*value_out = it->d;
	return QUBO_OK;
}

int qubo_options_get_string(const qubo_options *o, const char *key, const char *fallback,
			    const char **value_out)
{
	static const char fn[] = "qubo_options_get_string";
	const qubo__opt *it;
	int rc = reader_args(fn, o, key, value_out);

	if (rc)
		return rc;
	it = qubo__options_find(o, key);
	if (!it) {
		*value_out = fallback;
		return QUBO_OK;
	}
	if (it->type != QUBO_TYPE_STRING)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: option %s holds %s, not a string",
				   fn, key, qubo__type_name(it->type));
	*value_out = it->s;
	return QUBO_OK;
}

size_t qubo_options_count(const qubo_options *o)
{
	return o ? o->count : 0;
}

int qubo_options_key(const qubo_options *o, size_t index, const char **key_out,
		     int32_t *type_out)
{
	static const char fn[] = "qubo_options_key";

	if (!o || !key_out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL %s", fn, !o ? "options" : "key_out");
	if (index >= o->count)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE, "%s: index %zu, but %zu options are set",
				   fn, index, o->count);
	*key_out = o->items[index].key;
	if (type_out)
		*type_out = o->items[index].type;
	return QUBO_OK;
}

/* ---- checked key tables ---- */

static void list_keys(char *buf, size_t cap, const qubo__param *params, size_t count)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < count && used < cap; i++) {
		int k = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", params[i].key);
		if (k < 0)
			break;
		used += (size_t)k;
	}
}

static void format_bound(char *buf, size_t cap, double v)
{
	if (v >= DBL_MAX)
		snprintf(buf, cap, "inf");
	else if (v <= -DBL_MAX)
		snprintf(buf, cap, "-inf");
	else
		snprintf(buf, cap, "%.17g", v);
}

int qubo__params_check(const qubo__param *params, size_t count, const char *prefix,
		       const qubo_options *o, const char *key)
{
	const qubo__param *p = NULL;
	const qubo__opt *it = qubo__options_find(o, key);
	const char *sep = prefix ? ": " : "";
	char keys[512], lo[32], hi[32];
	double v;
	size_t i;

	if (!prefix)
		prefix = "";
	for (i = 0; i < count; i++)
		if (!strcmp(params[i].key, key))
			p = &params[i];
	if (!p) {
		list_keys(keys, sizeof keys, params, count);
		return qubo__error(QUBO_ERR_NOT_SUPPORTED,
				   "%s%sunknown option \"%s\"; the options are %s", prefix, sep,
				   key, keys);
	}
	if (!it)
		return QUBO_OK;
	if (it->type == QUBO_TYPE_STRING)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s%soption %s takes %s, got '%.64s'",
				   prefix, sep, key,
				   p->type == QUBO_TYPE_INT ? "an integer" : "a number", it->s);
	if (p->type == QUBO_TYPE_INT && it->type != p->type)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s%soption %s takes an integer, got %.17g",
				   prefix, sep, key, it->d);
	v = it->type == QUBO_TYPE_INT ? (double)it->i : it->d;
	if (v < p->lo || v > p->hi || (p->lo_open && v <= p->lo)) {
		format_bound(lo, sizeof lo, p->lo);
		format_bound(hi, sizeof hi, p->hi);
		if (it->type == QUBO_TYPE_INT)
			return qubo__error(QUBO_ERR_OUT_OF_RANGE,
					   "%s%soption %s is %lld, outside %c%s, %s]", prefix, sep,
					   key, (long long)it->i, p->lo_open ? '(' : '[', lo, hi);
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "%s%soption %s is %.17g, outside %c%s, %s]", prefix, sep, key,
				   it->d, p->lo_open ? '(' : '[', lo, hi);
	}
	return QUBO_OK;
}

void qubo__params_describe(char *buffer, size_t capacity, const char *name, const char *summary,
			   const qubo__param *params, size_t count)
{
	size_t i, used = 0;
	int k;

	if (!capacity)
		return;
	buffer[0] = '\0';
	k = snprintf(buffer, capacity, "%s: %s\noptions:\n", name, summary);
	for (i = 0; k >= 0 && i < count; i++) {
		used += (size_t)k;
		if (used >= capacity)
			return;
		k = snprintf(buffer + used, capacity - used, "  %-18s %-7s %s; default %s\n",
			     params[i].key,
			     params[i].type == QUBO_TYPE_INT	  ? "int"
			     : params[i].type == QUBO_TYPE_STRING ? "string"
								  : "double",
			     params[i].help, params[i].deflt);
	}
}
