/* Error reporting: format a message and hand it to libqubo's per-thread
 * error state (qubo_error_set(), status.c), the only place it lives. */
#include <stdio.h>

#include "common_impl.h"

size_t qubo__utf8_cut(char *s, size_t len)
{
	size_t lead = len;

	/* back over continuation bytes to the sequence's lead byte */
	while (lead > 0 && ((unsigned char)s[lead - 1] & 0xC0) == 0x80)
		lead--;
	if (lead > 0 && ((unsigned char)s[lead - 1] & 0x80)) {
		unsigned char c = (unsigned char)s[lead - 1];
		size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;

		if (len - (lead - 1) < need)
			len = lead - 1;
	}
	s[len] = '\0';
	return len;
}

int qubo__verror_at(int code, size_t line, size_t column, const char *fmt, va_list ap)
{
	char msg[QUBO__ERRMSG_SIZE];
	int k = vsnprintf(msg, sizeof msg, fmt, ap);

	if (k < 0)
		msg[0] = '\0';
	else if ((size_t)k >= sizeof msg)
		qubo__utf8_cut(msg, sizeof msg - 1);
	return qubo_error_set(code, line, column, msg);
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

int qubo__nomem(const char *what)
{
	return qubo__error(QUBO_ERR_NOMEM, "out of memory allocating %s", what);
}
