/* Error reporting: format a message, take the function it names as a part,
 * and record it with the other parts through qubo_error_set_parts(), whose
 * state lives in libqubo alone (error_state.c says why). */
#include <stdio.h>
#include <string.h>

#include "common_impl.h"

int qubo__verror_parts(qubo_error_parts *parts, const char *fmt, va_list ap)
{
	char msg[QUBO__ERRMSG_SIZE], fn[QUBO__ERRFN_SIZE];
	int k = vsnprintf(msg, sizeof msg, fmt, ap);
	size_t n;

	if (k < 0)
		msg[0] = '\0';
	else if ((size_t)k >= sizeof msg)
		qubo__utf8_cut(msg, sizeof msg - 1);
	n = qubo__error_function_length(msg);
	memcpy(fn, msg, n);
	fn[n] = '\0';
	parts->function = fn;
	parts->detail = msg + (n ? n + 2 : 0);
	return qubo_error_set_parts(parts);
}

int qubo__verror_at(int code, size_t line, size_t column, const char *fmt, va_list ap)
{
	qubo_error_parts parts = QUBO_ERROR_PARTS_INIT;

	parts.code = code;
	parts.line = line;
	parts.column = column;
	return qubo__verror_parts(&parts, fmt, ap);
}

int qubo__error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	qubo__verror_at(code, 0, 0, fmt, ap);
	va_end(ap);
	return code;
}

int qubo__error_at(int code, size_t line, size_t column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	qubo__verror_at(code, line, column, fmt, ap);
	va_end(ap);
	return code;
}

int qubo__error_cell(int code, size_t row, size_t column, const char *fmt, ...)
{
	qubo_error_parts parts = QUBO_ERROR_PARTS_INIT;
	va_list ap;

	parts.code = code;
	parts.cell_row = row;
	parts.cell_column = column;
	va_start(ap, fmt);
	qubo__verror_parts(&parts, fmt, ap);
	va_end(ap);
	return code;
}

int qubo__error_limit_at(int code, int limit, uint64_t value, size_t line, size_t column,
			 const char *fmt, ...)
{
	qubo_error_parts parts = QUBO_ERROR_PARTS_INIT;
	va_list ap;

	parts.code = code;
	parts.limit = limit;
	parts.limit_value = value;
	parts.line = line;
	parts.column = column;
	va_start(ap, fmt);
	qubo__verror_parts(&parts, fmt, ap);
	va_end(ap);
	return code;
}

int qubo__nomem(const char *what)
{
	return qubo__error(QUBO_ERR_NOMEM, "out of memory allocating %s", what);
}
