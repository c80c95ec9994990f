/* Status strings and the per-thread error state. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define QUBO__ERRMSG_SIZE 512

static _Thread_local struct {
	int code;
	size_t line, column;
	char message[QUBO__ERRMSG_SIZE];
} tls_error;

const char *qubo_status_str(int status)
{
	switch (status) {
#define QUBO__STR_CASE(name, value, text) \
	case value:                       \
		return text;
		QUBO_STATUS_LIST(QUBO__STR_CASE)
#undef QUBO__STR_CASE
	}
	return "unknown status";
}

const char *qubo_status_name(int status)
{
	switch (status) {
#define QUBO__NAME_CASE(name, value, text) \
	case value:                        \
		return #name;
		QUBO_STATUS_LIST(QUBO__NAME_CASE)
#undef QUBO__NAME_CASE
	}
	return "QUBO_UNKNOWN";
}

const char *qubo_error_message(void)
{
	return tls_error.message;
}

int qubo_error_code(void)
{
	return tls_error.code;
}

size_t qubo_error_line(void)
{
	return tls_error.line;
}

size_t qubo_error_column(void)
{
	return tls_error.column;
}

void qubo_error_clear(void)
{
	tls_error.code = QUBO_OK;
	tls_error.line = tls_error.column = 0;
	tls_error.message[0] = '\0';
}

static int set_error(int code, size_t line, size_t column, const char *fmt, va_list ap)
	QUBO__PRINTF(4, 0);

static int set_error(int code, size_t line, size_t column, const char *fmt, va_list ap)
{
	char *m = tls_error.message;
	size_t used = 0;
	int k;

	tls_error.code = code;
	tls_error.line = line;
	tls_error.column = column;
	if (line) {
		k = snprintf(m, QUBO__ERRMSG_SIZE, "line %zu, column %zu: ", line, column);
		used = k > 0 ? (size_t)k : 0;
		if (used >= QUBO__ERRMSG_SIZE)
			used = QUBO__ERRMSG_SIZE - 1;
	}
	k = vsnprintf(m + used, QUBO__ERRMSG_SIZE - used, fmt, ap);
	if (k > 0 && used + (size_t)k >= QUBO__ERRMSG_SIZE) {
		/* cut: drop a UTF-8 sequence left incomplete at the end */
		size_t end = QUBO__ERRMSG_SIZE - 1, lead = end;
		while (lead > 0 && ((unsigned char)m[lead - 1] & 0xC0) == 0x80)
			lead--;
		if (lead > 0 && ((unsigned char)m[lead - 1] & 0x80)) {
			unsigned char c = (unsigned char)m[lead - 1];
			size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
			if (end - (lead - 1) < need)
				m[lead - 1] = '\0';
		}
	}
	return code;
}

int qubo__error(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error(code, 0, 0, fmt, ap);
	va_end(ap);
	return code;
}

int qubo__error_at(int code, size_t line, size_t column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error(code, line, column, fmt, ap);
	va_end(ap);
	return code;
}

int qubo_error_set(int code, size_t line, size_t column, const char *message)
{
	return qubo__error_at(code, line, line ? column : 0, "%s", message ? message : "");
}

int qubo__nomem(const char *what)
{
	return qubo__error(QUBO_ERR_NOMEM, "out of memory allocating %s", what);
}
