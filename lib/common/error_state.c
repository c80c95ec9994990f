/*
 * The per-thread error: its one home, and its public functions (the
 * accessors of qubo/status.h, qubo_error_set(), qubo_error_set_parts(),
 * qubo_error_clear()).
 *
 * Both shared libraries link the helpers of lib/common, but this file is
 * built into libqubo alone (lib/common/meson.build keeps it out of the
 * static library qubo-common and lib/meson.build adds it to libqubo's
 * sources). libqubo exports its functions; the error helpers of the copy of
 * lib/common inside libqubo-puzzle (error.c) call qubo_error_set_parts(),
 * which the dynamic linker resolves to libqubo's definition. So there is
 * exactly one thread-local error state in a process, whichever library sets
 * an error, and qubo_error_message() from libqubo reads what the puzzle layer
 * set. Had this file gone into qubo-common, each shared library would hold a
 * state of its own and the puzzle layer's errors would be invisible.
 *
 * This file is the bottom of the error path: it calls only the message
 * rules of message.c and nothing of lib/qubo (error.c formats messages and
 * calls down into it; check.c and the rest call error.c), so no circle runs
 * through it.
 *
 * The message is stored whole, as qubo_error_message() returns it:
 * [position prefix][function ": "]detail. The detail is a suffix of it, so
 * the parts and the text can never disagree.
 */
#include <stdio.h>
#include <string.h>

#include "common_impl.h"

static _Thread_local struct {
	int code;
	int limit;
	size_t line, column;
	size_t cell_row, cell_column;
	uint64_t limit_value;
	size_t detail; /* offset of the detail in message */
	char function[QUBO__ERRFN_SIZE];
	char message[QUBO__ERRMSG_SIZE];
} tls_error;

/* Appends s[0..n) to the message at *used, as much as fits; returns 0 when
 * some of it did not. */
static int append(size_t *used, const char *s, size_t n)
{
	size_t room = QUBO__ERRMSG_SIZE - 1 - *used;

	memcpy(tls_error.message + *used, s, n < room ? n : room);
	*used += n < room ? n : room;
	return n <= room;
}

/* Records an error whose parts are checked: fn and detail are the caller's
 * copies, never the state's own buffers. */
static int store(const qubo_error_parts *p, const char *fn, const char *detail)
{
	char *m = tls_error.message;
	size_t used = 0, fn_len = strlen(fn);
	int fits = 1, k;

	tls_error.code = p->code;
	tls_error.line = p->line;
	tls_error.column = p->line ? p->column : 0;
	tls_error.cell_row = p->cell_row && p->cell_column ? p->cell_row : 0;
	tls_error.cell_column = tls_error.cell_row ? p->cell_column : 0;
	tls_error.limit = p->limit;
	tls_error.limit_value = p->limit ? p->limit_value : 0;
	if (fn_len >= QUBO__ERRFN_SIZE)
		fn_len = QUBO__ERRFN_SIZE - 1;
	memcpy(tls_error.function, fn, fn_len);
	fn_len = qubo__utf8_cut(tls_error.function, fn_len);
	if (p->line) {
		k = snprintf(m, QUBO__ERRMSG_SIZE, "line %zu, column %zu: ", p->line,
			     tls_error.column);
		used = k > 0 ? (size_t)k : 0;
		if (used >= QUBO__ERRMSG_SIZE)
			used = QUBO__ERRMSG_SIZE - 1;
	}
	if (fn_len)
		fits = append(&used, tls_error.function, fn_len) && append(&used, ": ", 2);
	tls_error.detail = used;
	if (fits)
		fits = append(&used, detail, strlen(detail));
	m[used] = '\0';
	if (!fits) /* cut: drop a UTF-8 sequence left incomplete at the end */
		used = qubo__utf8_cut(m, used);
	if (tls_error.detail > used)
		tls_error.detail = used;
	return p->code;
}

/* An error of qubo_error_set_parts() itself, in the words of the argument
 * checks of lib/common (check.c). */
static int parts_error(int code, const char *detail)
{
	qubo_error_parts p = QUBO_ERROR_PARTS_INIT;

	p.code = code;
	return store(&p, "qubo_error_set_parts", detail);
}

int qubo_error_set_parts(const qubo_error_parts *parts)
{
	qubo_error_parts p = QUBO_ERROR_PARTS_INIT;
	char fn[QUBO__ERRFN_SIZE] = "", detail[QUBO__ERRMSG_SIZE] = "";
	const unsigned char *b = (const unsigned char *)parts;
	size_t size, i;

	if (!parts)
		return parts_error(QUBO_ERR_MISUSE, "parts is NULL");
	size = parts->struct_size;
	if (size < QUBO_ERROR_PARTS_SIZE_V1) {
		snprintf(
			detail, sizeof detail,
			"qubo_error_parts.struct_size is %zu, below the smallest size accepted, %zu",
			size, QUBO_ERROR_PARTS_SIZE_V1);
		return parts_error(QUBO_ERR_UNSUPPORTED_VERSION, detail);
	}
	for (i = sizeof p; i < size; i++) {
		if (b[i]) {
			snprintf(detail, sizeof detail,
				 "qubo_error_parts.struct_size is %zu and byte %zu is not zero; "
				 "this library knows %zu bytes of it",
				 size, i, sizeof p);
			return parts_error(QUBO_ERR_UNSUPPORTED_VERSION, detail);
		}
	}
	memcpy(&p, parts, size < sizeof p ? size : sizeof p);
	/* copies first: the strings may be the current error's own */
	if (p.function && (size_t)snprintf(fn, sizeof fn, "%s", p.function) >= sizeof fn)
		qubo__utf8_cut(fn, sizeof fn - 1);
	if (p.detail && (size_t)snprintf(detail, sizeof detail, "%s", p.detail) >= sizeof detail)
		qubo__utf8_cut(detail, sizeof detail - 1);
	return store(&p, fn, detail);
}

int qubo_error_set(int code, size_t line, size_t column, const char *message)
{
	qubo_error_parts p = QUBO_ERROR_PARTS_INIT;
	char fn[QUBO__ERRFN_SIZE];
	size_t n;

	if (!message)
		message = "";
	n = qubo__error_function_length(message);
	memcpy(fn, message, n);
	fn[n] = '\0';
	p.code = code;
	p.line = line;
	p.column = column;
	p.function = fn;
	p.detail = message + (n ? n + 2 : 0);
	return qubo_error_set_parts(&p);
}

void qubo_error_clear(void)
{
	memset(&tls_error, 0, sizeof tls_error);
}

const char *qubo_error_message(void)
{
	return tls_error.message;
}

const char *qubo_error_detail(void)
{
	return tls_error.message + tls_error.detail;
}

const char *qubo_error_function(void)
{
	return tls_error.function;
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

size_t qubo_error_cell_row(void)
{
	return tls_error.cell_row;
}

size_t qubo_error_cell_column(void)
{
	return tls_error.cell_column;
}

int qubo_error_limit(void)
{
	return tls_error.limit;
}

uint64_t qubo_error_limit_value(void)
{
	return tls_error.limit_value;
}
