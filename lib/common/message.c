/* The rules of an error message's text, shared by the error helpers
 * (error.c) and the error state (error_state.c): where a message is cut,
 * and the function name it starts with. */
#include <string.h>

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

size_t qubo__error_function_length(const char *msg)
{
	size_t n = 5;

	if (strncmp(msg, "qubo_", 5))
		return 0;
	while ((msg[n] >= 'a' && msg[n] <= 'z') || (msg[n] >= '0' && msg[n] <= '9') ||
	       msg[n] == '_')
		n++;
	return n > 5 && n < QUBO__ERRFN_SIZE && msg[n] == ':' && msg[n + 1] == ' ' ? n : 0;
}
