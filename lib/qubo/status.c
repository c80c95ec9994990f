/* Status strings and the per-thread error state: the one home of the
 * message. libqubo's own code and the helper library (lib/common, in both
 * shared libraries) report through qubo_error_set(). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

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

int qubo_error_set(int code, size_t line, size_t column, const char *message)
{
	char *m = tls_error.message, copy[QUBO__ERRMSG_SIZE];
	size_t used = 0, len;
	int k;

	if (!message)
		message = "";
	if ((uintptr_t)message - (uintptr_t)m < QUBO__ERRMSG_SIZE) {
		/* the current message, passed back (it is overwritten below) */
		memcpy(copy, message, QUBO__ERRMSG_SIZE);
		message = copy;
	}
	if (!line)
		column = 0;
	tls_error.code = code;
	tls_error.line = line;
	tls_error.column = column;
	if (line) {
		k = snprintf(m, QUBO__ERRMSG_SIZE, "line %zu, column %zu: ", line, column);
		used = k > 0 ? (size_t)k : 0;
		if (used >= QUBO__ERRMSG_SIZE)
			used = QUBO__ERRMSG_SIZE - 1;
	}
	len = strlen(message);
	if (used + len < QUBO__ERRMSG_SIZE) {
		memcpy(m + used, message, len + 1);
	} else {
		/* cut: drop a UTF-8 sequence left incomplete at the end */
		memcpy(m + used, message, QUBO__ERRMSG_SIZE - 1 - used);
		qubo__utf8_cut(m, QUBO__ERRMSG_SIZE - 1);
	}
	return code;
}
