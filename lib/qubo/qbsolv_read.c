/*
 * The public qbsolv readers: from a buffer or a file, with the caller's
 * limits (qubo_qbsolv_options) or the defaults; the parser is
 * qbsolv_parse.c.
 */
#include <string.h>

#include "number.h"
#include "qbsolv_impl.h"

static int limits_init(qubo__qbsolv_limits *l, const qubo_qbsolv_options *src, const char *fn)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;
	int rc;

	if (src && (rc = qubo__struct_read(&o, sizeof o, src, QUBO_QBSOLV_OPTIONS_SIZE_V1,
					   "qubo_qbsolv_options", fn)))
		return rc;
	if ((rc = qubo__alloc_init(&l->a, o.allocator, fn)))
		return rc;
	l->max_input_bytes = o.max_input_bytes ? o.max_input_bytes
					       : QUBO_QBSOLV_DEFAULT_MAX_INPUT_BYTES;
	l->max_variables = o.max_variables ? o.max_variables : QUBO_QBSOLV_DEFAULT_MAX_VARIABLES;
	if (l->max_variables > QUBO_MODEL_MAX_VARIABLES)
		l->max_variables = QUBO_MODEL_MAX_VARIABLES;
	l->max_couplers = o.max_couplers ? o.max_couplers : QUBO_QBSOLV_DEFAULT_MAX_COUPLERS;
	return QUBO_OK;
}

static int read_mem(qubo_model **out, const char *data, size_t length,
		    const qubo_qbsolv_options *options, const char *fn)
{
	qubo__qbsolv_limits l;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "%s: out is NULL", fn);
	*out = NULL;
	if (!data && length)
		return qubo__error(QUBO_ERR_MISUSE, "%s: data is NULL with length %zu", fn,
				   length);
	if ((rc = limits_init(&l, options, fn)) || (rc = qubo__c_locale(fn)))
		return rc;
	if (length > l.max_input_bytes)
		return qubo__too_large(QUBO_LIMIT_MAX_INPUT_BYTES, l.max_input_bytes,
				       "%s: the input is %zu bytes, more than the limit of %zu "
				       "(qubo_qbsolv_options.max_input_bytes raises it)",
				       fn, length, l.max_input_bytes);
	return qubo__qbsolv_parse(out, data ? data : "", length, &l, fn, NULL, 0);
}

static int read_path(qubo_model **out, const char *path, const qubo_qbsolv_options *options,
		     const char *fn)
{
	qubo__qbsolv_limits l;
	char *buf;
	size_t len;
	int rc;

	if (!out)
		return qubo__null_arg(fn, "out");
	*out = NULL;
	if ((rc = limits_init(&l, options, fn)) || (rc = qubo__c_locale(fn)) ||
	    (rc = qubo__read_file(&l.a, path, fn, l.max_input_bytes, &buf, &len)))
		return rc;
	rc = qubo__qbsolv_parse(out, buf, len, &l, fn, path, 0);
	qubo__free(&l.a, buf);
	return rc;
}

int qubo_qbsolv_read(qubo_model **out, const char *data, size_t length,
		     const qubo_allocator *allocator)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;

	o.allocator = allocator;
	return read_mem(out, data, length, &o, "qubo_qbsolv_read");
}

int qubo_qbsolv_read_ex(qubo_model **out, const char *data, size_t length,
			const qubo_qbsolv_options *options)
{
	return read_mem(out, data, length, options, "qubo_qbsolv_read_ex");
}

int qubo__qbsolv_read_pending(qubo_model **out, const char *data, size_t length,
			      const qubo_qbsolv_options *options)
{
	static const char fn[] = "qubo__qbsolv_read_pending";
	qubo__qbsolv_limits l;
	int rc;

	*out = NULL;
	if ((rc = limits_init(&l, options, fn)) || (rc = qubo__c_locale(fn)))
		return rc;
	return qubo__qbsolv_parse(out, data, length, &l, fn, NULL, 1);
}

int qubo_qbsolv_read_file(qubo_model **out, const char *path, const qubo_allocator *allocator)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;

	o.allocator = allocator;
	return read_path(out, path, &o, "qubo_qbsolv_read_file");
}

int qubo_qbsolv_read_file_ex(qubo_model **out, const char *path,
			     const qubo_qbsolv_options *options)
{
	return read_path(out, path, options, "qubo_qbsolv_read_file_ex");
}
