/*
 * Status: the status list, its strings and its documentation agree; the
 * per-thread error message behaves as documented; the version and literal
 * functions agree with their macros.
 */
#define QUBO_DISABLE_DEPRECATION_WARNINGS /* qubo_qbsolv_read(_file), until they are removed */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct status_entry {
	int code;        /* the enum constant */
	long listed;     /* the number written in the list */
	const char *name;
	const char *text;
};

#define STATUS_ENTRY(name, value, text) { name, value, #name, text },
static const struct status_entry status_list[] = { QUBO_STATUS_LIST(STATUS_ENTRY) };
#undef STATUS_ENTRY
#define NSTATUS (sizeof status_list / sizeof status_list[0])

static const struct status_entry *lookup(int code)
{
	size_t i;

	for (i = 0; i < NSTATUS; i++)
		if (status_list[i].code == code)
			return &status_list[i];
	return NULL;
}

Test(status, list_values_are_distinct_and_pinned)
{
	/* The numeric values are ABI: they never change. */
	static const struct {
		int code;
		int value;
	} pinned[] = {
		{ QUBO_OK, 0 },
		{ QUBO_CANCELLED, 1 },
		{ QUBO_TIME_LIMIT, 2 },
		{ QUBO_ERR_NOMEM, -1 },
		{ QUBO_ERR_INVALID_ARG, -2 },
		{ QUBO_ERR_MISUSE, -3 },
		{ QUBO_ERR_OUT_OF_RANGE, -4 },
		{ QUBO_ERR_BUFFER_TOO_SMALL, -5 },
		{ QUBO_ERR_NOT_SUPPORTED, -6 },
		{ QUBO_ERR_UNSUPPORTED_VERSION, -7 },
		{ QUBO_ERR_CALLBACK, -8 },
		{ QUBO_ERR_INTERNAL, -9 },
		{ QUBO_ERR_PARSE, -10 },
		{ QUBO_ERR_IO, -11 },
		{ QUBO_ERR_INFEASIBLE, -12 },
		{ QUBO_ERR_TOO_LARGE, -13 },
	};
	size_t i, j;
	int most_negative = 0;

	cr_assert_geq(NSTATUS, sizeof pinned / sizeof pinned[0]);
	for (i = 0; i < sizeof pinned / sizeof pinned[0]; i++)
		cr_assert_eq(pinned[i].code, pinned[i].value, "code %zu moved", i);

	for (i = 0; i < NSTATUS; i++) {
		const struct status_entry *e = &status_list[i];
		cr_assert_eq((long)e->code, e->listed, "%s", e->name);
		cr_assert_eq(strncmp(e->name, "QUBO_", 5), 0, "%s", e->name);
		/* Errors, and only errors, are negative and named QUBO_ERR_. */
		cr_assert_eq(e->code < 0, strncmp(e->name, "QUBO_ERR_", 9) == 0, "%s", e->name);
		cr_assert_gt(e->code, QUBO_STATUS_MIN_, "%s", e->name);
		if (e->code < most_negative)
			most_negative = e->code;
		for (j = i + 1; j < NSTATUS; j++) {
			cr_assert_neq(e->code, status_list[j].code, "%s and %s share a value",
				      e->name, status_list[j].name);
			cr_assert_str_neq(e->name, status_list[j].name);
		}
	}
	cr_assert_eq(QUBO_OK, 0);
	cr_assert_not_null(lookup(QUBO_OK));
	/* QUBO_STATUS_MIN_ is one past the most negative code. */
	cr_assert_eq(most_negative, QUBO_STATUS_MIN_ + 1);
	/* Codes are never reused or skipped: -1 … most_negative all exist, and the
	 * positive codes are 1, 2, … without gaps. */
	for (i = 1; (int)i <= -most_negative; i++)
		cr_assert_not_null(lookup(-(int)i), "no status with value -%zu", i);
	for (i = 0, j = 0; i < NSTATUS; i++)
		if (status_list[i].code > 0)
			j++;
	for (i = 1; i <= j; i++)
		cr_assert_not_null(lookup((int)i), "no status with value %zu", i);
}

Test(status, strings_agree_with_the_list)
{
	size_t i, j;

	for (i = 0; i < NSTATUS; i++) {
		const struct status_entry *e = &status_list[i];
		const char *s = qubo_status_str(e->code), *n = qubo_status_name(e->code);
		cr_assert_not_null(s);
		cr_assert_not_null(n);
		cr_assert_str_eq(s, e->text, "%s", e->name);
		cr_assert_str_eq(n, e->name);
		cr_assert_gt(strlen(e->text), 0, "%s has no description", e->name);
		cr_assert_str_neq(s, "unknown status", "%s", e->name);
		for (j = i + 1; j < NSTATUS; j++)
			cr_assert_str_neq(e->text, status_list[j].text, "%s and %s read the same",
					  e->name, status_list[j].name);
	}
}

Test(status, unknown_codes)
{
	static const int extreme[] = { INT_MIN, INT_MIN + 1, -1000000, QUBO_STATUS_MIN_,
				       1000000, INT_MAX };
	int c;
	size_t i, unknown = 0;

	for (c = -1000; c <= 1000; c++) {
		const char *s = qubo_status_str(c), *n = qubo_status_name(c);
		cr_assert_not_null(s);
		cr_assert_not_null(n);
		if (lookup(c))
			continue;
		unknown++;
		cr_assert_str_eq(s, "unknown status", "code %d", c);
		cr_assert_str_eq(n, "QUBO_UNKNOWN", "code %d", c);
	}
	cr_assert_eq(unknown, 2001 - NSTATUS);
	for (i = 0; i < sizeof extreme / sizeof extreme[0]; i++) {
		cr_assert_str_eq(qubo_status_str(extreme[i]), "unknown status");
		cr_assert_str_eq(qubo_status_name(extreme[i]), "QUBO_UNKNOWN");
	}
}

/* include/qubo/ of the source tree: QUBO_SOURCE_ROOT, set by meson. */
static void header_dir(char *buf, size_t size)
{
	const char *root = getenv("QUBO_SOURCE_ROOT");

	cr_assert_not_null(root, "QUBO_SOURCE_ROOT is not set (run through meson test)");
	cr_assert_lt(strlen(root) + sizeof "/include/qubo/", size);
	snprintf(buf, size, "%s/include/qubo/", root);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long len;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	cr_assert_geq(len, 0);
	rewind(f);
	text = malloc((size_t)len + 1);
	cr_assert_not_null(text);
	cr_assert_eq(fread(text, 1, (size_t)len, f), (size_t)len);
	text[len] = '\0';
	fclose(f);
	return text;
}

static int is_status_name(const char *s, size_t len)
{
	static const char *const plain[] = { "QUBO_OK", "QUBO_CANCELLED", "QUBO_TIME_LIMIT" };
	size_t i;

	if (len > 9 && strncmp(s, "QUBO_ERR_", 9) == 0)
		return 1;
	for (i = 0; i < sizeof plain / sizeof plain[0]; i++)
		if (len == strlen(plain[i]) && strncmp(s, plain[i], len) == 0)
			return 1;
	return 0;
}

Test(status, the_header_list_is_the_documentation)
{
	char dir[4096], path[4096 + 512], *text, *p;
	size_t i, xlines = 0, refs = 0, headers = 0;
	DIR *d;
	struct dirent *ent;

	header_dir(dir, sizeof dir);

	/* status.h: one X(NAME, value, "description") line per code, in the list. */
	snprintf(path, sizeof path, "%sstatus.h", dir);
	text = slurp(path);
	for (p = text; (p = strstr(p, "X(QUBO_")) != NULL; p++)
		xlines++;
	cr_assert_eq(xlines, NSTATUS, "status.h has %zu X(...) lines, the list %zu", xlines,
		     NSTATUS);
	for (i = 0; i < NSTATUS; i++) {
		char line[256];
		snprintf(line, sizeof line, "X(%s, %ld, \"%s\")", status_list[i].name,
			 status_list[i].listed, status_list[i].text);
		cr_assert_not_null(strstr(text, line), "status.h does not document %s as %s",
				   status_list[i].name, line);
	}
	free(text);

	/* Every status code that any public header's documentation names (#QUBO_ERR_…)
	 * exists in the list. */
	d = opendir(dir);
	cr_assert_not_null(d, "cannot list %s", dir);
	while ((ent = readdir(d)) != NULL) {
		size_t len = strlen(ent->d_name);
		if (len < 3 || strcmp(ent->d_name + len - 2, ".h") != 0)
			continue;
		headers++;
		snprintf(path, sizeof path, "%s%s", dir, ent->d_name);
		text = slurp(path);
		for (p = text; (p = strstr(p, "#QUBO_")) != NULL;) {
			const char *name = ++p;
			size_t n = 0;
			int known = 0;
			while (isupper((unsigned char)name[n]) || isdigit((unsigned char)name[n]) ||
			       name[n] == '_')
				n++;
			p += n;
			if (!is_status_name(name, n))
				continue;
			refs++;
			for (i = 0; i < NSTATUS; i++)
				if (strlen(status_list[i].name) == n &&
				    strncmp(status_list[i].name, name, n) == 0)
					known = 1;
			cr_assert(known, "%s names #%.*s, which is not a status code", ent->d_name,
				  (int)n, name);
		}
		free(text);
	}
	closedir(d);
	cr_assert_geq(headers, 5);
	cr_assert_gt(refs, 20, "only %zu references to status codes found", refs);
}

Test(status, message_lifecycle)
{
	qubo_parity *p;
	const char *m;
	char saved[600];

	/* A fresh process (each test runs in its own) has no error. */
	cr_assert_not_null(qubo_error_message());
	cr_assert_str_empty(qubo_error_message());
	cr_assert_eq(qubo_error_code(), QUBO_OK);
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_column(), 0);

	cr_assert_eq(qubo_parity_new(&p, (size_t)QUBO_MAX_VARIABLES + 5, NULL),
		     QUBO_ERR_TOO_LARGE);
	m = qubo_error_message();
	cr_assert_not_null(m);
	cr_assert_str_not_empty(m);
	cr_assert(strstr(m, "qubo_parity_new"), "'%s'", m);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_line(), 0);
	snprintf(saved, sizeof saved, "%s", m);

	/* Successful calls keep the message. */
	cr_assert_eq(qubo_parity_new(&p, 3, NULL), QUBO_OK);
	cr_assert_str_eq(qubo_error_message(), saved);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_TOO_LARGE);

	/* A later failure replaces it. */
	cr_assert_eq(qubo_parity_relate(p, 0, 3, 0), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_OUT_OF_RANGE);
	cr_assert_str_neq(qubo_error_message(), saved);
	cr_assert(strstr(qubo_error_message(), "b is 3"), "'%s'", qubo_error_message());
	qubo_parity_free(p);

	qubo_error_clear();
	cr_assert_not_null(qubo_error_message());
	cr_assert_str_empty(qubo_error_message());
	cr_assert_eq(qubo_error_code(), QUBO_OK);
	qubo_error_clear();
	cr_assert_str_empty(qubo_error_message());
}

struct thread_report {
	int start_code;
	char start_message[64];
	int code;
	char message[600];
};

static void *other_thread(void *arg)
{
	struct thread_report *r = arg;
	qubo_parity *p;

	r->start_code = qubo_error_code();
	snprintf(r->start_message, sizeof r->start_message, "%s", qubo_error_message());
	/* An error of this thread's own. */
	if (qubo_parity_new(&p, 2, NULL) == QUBO_OK) {
		(void)qubo_parity_fix(p, 1, 7);
		qubo_parity_free(p);
	}
	r->code = qubo_error_code();
	snprintf(r->message, sizeof r->message, "%s", qubo_error_message());
	return NULL;
}

Test(status, message_is_thread_local)
{
	struct thread_report rep;
	char mine[600];
	pthread_t t;

	cr_assert_eq(qubo_parity_relate(NULL, 0, 0, 0), QUBO_ERR_MISUSE);
	snprintf(mine, sizeof mine, "%s", qubo_error_message());
	cr_assert_str_not_empty(mine);

	memset(&rep, 0x55, sizeof rep);
	cr_assert_eq(pthread_create(&t, NULL, other_thread, &rep), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);

	/* The other thread did not see this thread's error ... */
	cr_assert_eq(rep.start_code, QUBO_OK);
	cr_assert_str_empty(rep.start_message);
	/* ... had its own ... */
	cr_assert_eq(rep.code, QUBO_ERR_INVALID_ARG);
	cr_assert(strstr(rep.message, "value is 7"), "'%s'", rep.message);
	/* ... which did not reach this thread. */
	cr_assert_eq(qubo_error_code(), QUBO_ERR_MISUSE);
	cr_assert_str_eq(qubo_error_message(), mine);
}

Test(status, long_messages_are_truncated_safely)
{
	enum { LONG = 6000 };
	char *path = malloc(LONG + 1);
	qubo_model *m = (qubo_model *)&m;
	const char *msg;
	size_t len;
	int rc;

	cr_assert_not_null(path);
	memcpy(path, "/nonexistent-qubo-test-dir/", 27);
	memset(path + 27, 'q', LONG - 27);
	path[LONG] = '\0';
	rc = qubo_qbsolv_read_file(&m, path, NULL);
	free(path);
	cr_assert_eq(rc, QUBO_ERR_IO, "got %s: %s", qubo_status_name(rc), qubo_error_message());
	cr_assert_null(m);
	msg = qubo_error_message();
	cr_assert_not_null(msg);
	len = strlen(msg);
	cr_assert_gt(len, 0);
	/* The message names the path, so it had to be cut: bounded, whatever the
	 * input's length, and still a string. */
	cr_assert(strstr(msg, "/nonexistent-qubo-test-dir/qqqq"), "'%.100s'", msg);
	cr_assert_lt(len, 4096, "message of %zu bytes", len);

	/* The state still works afterwards. */
	cr_assert_eq(qubo_parity_fix(NULL, 0, 0), QUBO_ERR_MISUSE);
	cr_assert(strstr(qubo_error_message(), "qubo_parity_fix"), "'%s'", qubo_error_message());
}

Test(status, line_and_column)
{
	static const char bad[] = "c a comment\np qubo 0 3 1 0\n0 0 zebra\n";
	qubo_model *m = (qubo_model *)&m;
	qubo_parity *p;
	int rc;

	rc = qubo_qbsolv_read(&m, bad, sizeof bad - 1, NULL);
	cr_assert_eq(rc, QUBO_ERR_PARSE, "got %s", qubo_status_name(rc));
	cr_assert_null(m);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3, "line %zu: %s", qubo_error_line(),
		     qubo_error_message());
	cr_assert_geq(qubo_error_column(), 1);
	cr_assert_leq(qubo_error_column(), 5, "column %zu: %s", qubo_error_column(),
		      qubo_error_message());
	cr_assert(strstr(qubo_error_message(), "line 3"), "'%s'", qubo_error_message());

	/* An error without a position resets them. */
	cr_assert_eq(qubo_parity_new(&p, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_parity_find(p, 2, NULL, NULL), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_column(), 0);
	qubo_parity_free(p);

	/* And so does clearing. */
	rc = qubo_qbsolv_read(&m, bad, sizeof bad - 1, NULL);
	cr_assert_eq(rc, QUBO_ERR_PARSE);
	cr_assert_gt(qubo_error_line(), 0);
	qubo_error_clear();
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_column(), 0);
}

Test(status, version_functions_agree_with_macros)
{
	char buf[64];

	cr_assert_eq(qubo_version_number(), QUBO_VERSION_NUMBER);
	cr_assert_not_null(qubo_version_string());
	cr_assert_str_eq(qubo_version_string(), QUBO_VERSION_STRING);
	cr_assert_eq(QUBO_VERSION_NUMBER,
		     QUBO_VERSION_MAJOR * 10000 + QUBO_VERSION_MINOR * 100 + QUBO_VERSION_PATCH);
	cr_assert_lt(QUBO_VERSION_MINOR, 100);
	cr_assert_lt(QUBO_VERSION_PATCH, 100);
	snprintf(buf, sizeof buf, "%d.%d.%d", QUBO_VERSION_MAJOR, QUBO_VERSION_MINOR,
		 QUBO_VERSION_PATCH);
	cr_assert_str_eq(QUBO_VERSION_STRING, buf);
}

Test(status, literal_functions_agree_with_macros)
{
	static const uint32_t vars[] = { 0, 1, 2, 3, 1000, 65535, 65536, 0x12345678u,
					 QUBO_MAX_VARIABLES - 1 };
	tu_rng r = { 1234 };
	size_t i;

	for (i = 0; i < sizeof vars / sizeof vars[0] + 1000; i++) {
		uint32_t v = i < sizeof vars / sizeof vars[0]
				     ? vars[i]
				     : (uint32_t)tu_below(&r, QUBO_MAX_VARIABLES);
		qubo_lit pos = qubo_lit_make(v, 0), neg = qubo_lit_make(v, 1);
		cr_assert_eq(pos, QUBO_LIT(v), "var %u", (unsigned)v);
		cr_assert_eq(neg, QUBO_LIT_NEG(v), "var %u", (unsigned)v);
		cr_assert_eq(qubo_lit_make(v, -3), neg);
		cr_assert_eq(QUBO_LIT_NOT(pos), neg);
		cr_assert(!QUBO_LIT_IS_CONST(pos) && !QUBO_LIT_IS_CONST(neg));
		cr_assert_eq(QUBO_LIT_VAR(pos), v);
		cr_assert_eq(QUBO_LIT_VAR(neg), v);
		cr_assert(!QUBO_LIT_IS_NEG(pos) && QUBO_LIT_IS_NEG(neg));
	}
	/* Out of range variables give the constant 0. */
	cr_assert_eq(qubo_lit_make(QUBO_MAX_VARIABLES, 0), QUBO_LIT_FALSE);
	cr_assert_eq(qubo_lit_make(UINT32_MAX, 1), QUBO_LIT_FALSE);
	cr_assert_eq(qubo_lit_const(0), QUBO_LIT_FALSE);
	cr_assert_eq(qubo_lit_const(1), QUBO_LIT_TRUE);
	cr_assert_eq(qubo_lit_const(-1), QUBO_LIT_TRUE);
	cr_assert_eq(qubo_lit_const(42), QUBO_LIT_TRUE);
	cr_assert_eq(QUBO_LIT_NOT(QUBO_LIT_FALSE), QUBO_LIT_TRUE);
	cr_assert_eq(QUBO_LIT_NOT(QUBO_LIT_TRUE), QUBO_LIT_FALSE);
	cr_assert(QUBO_LIT_IS_CONST(QUBO_LIT_FALSE) && QUBO_LIT_IS_CONST(QUBO_LIT_TRUE));
	/* The largest variable's literals stay below the constants. */
	cr_assert_lt(QUBO_LIT_NEG(QUBO_MAX_VARIABLES - 1), QUBO_LIT_FALSE);
}

/* ---- the parts of an error ---- */

/* Every part of this thread's error is defined: never NULL. */
static void assert_parts_defined(void)
{
	cr_assert_not_null(qubo_error_message());
	cr_assert_not_null(qubo_error_detail());
	cr_assert_not_null(qubo_error_function());
}

/* No error at all: every part empty or 0. */
static void assert_no_error(void)
{
	assert_parts_defined();
	cr_assert_eq(qubo_error_code(), QUBO_OK);
	cr_assert_str_empty(qubo_error_message());
	cr_assert_str_empty(qubo_error_detail());
	cr_assert_str_empty(qubo_error_function());
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_column(), 0);
	cr_assert_eq(qubo_error_cell_row(), 0);
	cr_assert_eq(qubo_error_cell_column(), 0);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_NONE);
	cr_assert_eq(qubo_error_limit_value(), 0);
}

/* The message is its parts put together: [line L, column C: ][fn: ]detail. */
static void assert_message_is_its_parts(void)
{
	char whole[1200];
	size_t used = 0;
	const char *fn = qubo_error_function();

	assert_parts_defined();
	if (qubo_error_line())
		used = (size_t)snprintf(whole, sizeof whole,
					"line %zu, column %zu: ", qubo_error_line(),
					qubo_error_column());
	if (*fn)
		used += (size_t)snprintf(whole + used, sizeof whole - used, "%s: ", fn);
	snprintf(whole + used, sizeof whole - used, "%s", qubo_error_detail());
	cr_assert_str_eq(qubo_error_message(), whole);
}

Test(status, parts_are_empty_without_an_error)
{
	assert_no_error();
	cr_assert_eq(qubo_parity_fix(NULL, 0, 0), QUBO_ERR_MISUSE);
	qubo_error_clear();
	assert_no_error();
}

Test(status, parts_of_an_argument_error)
{
	qubo_parity *p;

	cr_assert_eq(qubo_parity_new(&p, 2, NULL), QUBO_OK);
	cr_assert_eq(qubo_parity_fix(p, 1, 7), QUBO_ERR_INVALID_ARG);
	qubo_parity_free(p);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_INVALID_ARG);
	cr_assert_str_eq(qubo_error_function(), "qubo_parity_fix");
	cr_assert_str_eq(qubo_error_detail(), "value is 7, expected 0 or 1");
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_cell_row(), 0);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_NONE);
	cr_assert_eq(qubo_error_limit_value(), 0);
	assert_message_is_its_parts();
}

Test(status, parts_of_a_parse_error)
{
	static const char bad[] = "c a comment\np qubo 0 3 1 0\n0 0 zebra\n";
	qubo_model *m = NULL;

	cr_assert_eq(qubo_qbsolv_read(&m, bad, sizeof bad - 1, NULL), QUBO_ERR_PARSE);
	cr_assert_eq(qubo_error_line(), 3);
	cr_assert_eq(qubo_error_column(), 5);
	cr_assert_str_eq(qubo_error_function(), "qubo_qbsolv_read");
	cr_assert_str_eq(qubo_error_detail(), "weight 'zebra' is not a decimal number");
	cr_assert_eq(qubo_error_cell_row(), 0);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_NONE);
	assert_message_is_its_parts();
}

Test(status, parts_of_an_out_of_memory_error)
{
	tu_failalloc f;
	qubo_model *m = NULL;

	tu_failalloc_init(&f, 1);
	cr_assert_eq(qubo_model_new(&m, 4, &f.a), QUBO_ERR_NOMEM);
	cr_assert_null(m);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_NOMEM);
	cr_assert_str_empty(qubo_error_function());
	cr_assert_eq(strncmp(qubo_error_detail(), "out of memory allocating ", 25), 0, "'%s'",
		     qubo_error_detail());
	cr_assert_eq(qubo_error_line(), 0);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_NONE);
	assert_message_is_its_parts();
}

Test(status, full_messages_are_unchanged)
{
	/* The text of qubo_error_message() as it was before the parts existed. */
	static const char bad[] = "p qubo 0 3 1 0\n0 0 zebra\n";
	qubo_model *m = NULL;
	qubo_parity *p;

	cr_assert_eq(qubo_parity_new(&p, (size_t)QUBO_MAX_VARIABLES + 5, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_str_eq(qubo_error_message(),
			 "qubo_parity_new: num_elements is 2147483652, but it must be below "
			 "2147483647");
	cr_assert_eq(qubo_parity_fix(NULL, 0, 0), QUBO_ERR_MISUSE);
	cr_assert_str_eq(qubo_error_message(), "qubo_parity_fix: parity is NULL");
	cr_assert_eq(qubo_qbsolv_read(&m, bad, sizeof bad - 1, NULL), QUBO_ERR_PARSE);
	cr_assert_str_eq(
		qubo_error_message(),
		"line 2, column 5: qubo_qbsolv_read: weight 'zebra' is not a decimal number");
	cr_assert_eq(qubo_model_new(&m, (size_t)QUBO_MODEL_MAX_VARIABLES + 1, NULL),
		     QUBO_ERR_TOO_LARGE);
	cr_assert_str_eq(qubo_error_message(),
			 "qubo_model_new: 67108865 variables requested, the limit is 67108864 "
			 "(QUBO_MODEL_MAX_VARIABLES)");
	qubo_error_set(QUBO_ERR_CALLBACK, 4, 2, "my_backend: it broke");
	cr_assert_str_eq(qubo_error_message(), "line 4, column 2: my_backend: it broke");
}

Test(status, a_callers_error_has_parts)
{
	cr_assert_eq(qubo_error_set(QUBO_ERR_CALLBACK, 0, 0, "qubo_solver_solve: the link is down"),
		     QUBO_ERR_CALLBACK);
	cr_assert_str_eq(qubo_error_function(), "qubo_solver_solve");
	cr_assert_str_eq(qubo_error_detail(), "the link is down");
	cr_assert_str_eq(qubo_error_message(), "qubo_solver_solve: the link is down");
	assert_message_is_its_parts();

	/* Not a function of the library's form: all of it is the detail. */
	qubo_error_set(QUBO_ERR_IO, 7, 3, "Qubo_x: y");
	cr_assert_str_empty(qubo_error_function());
	cr_assert_str_eq(qubo_error_detail(), "Qubo_x: y");
	cr_assert_eq(qubo_error_line(), 7);
	cr_assert_eq(qubo_error_column(), 3);
	cr_assert_str_eq(qubo_error_message(), "line 7, column 3: Qubo_x: y");
	qubo_error_set(QUBO_ERR_IO, 0, 0, "qubo_: y");
	cr_assert_str_empty(qubo_error_function());
	qubo_error_set(QUBO_ERR_IO, 0, 0, "qubo_a:y");
	cr_assert_str_empty(qubo_error_function());
	qubo_error_set(QUBO_ERR_IO, 0, 3, NULL);
	cr_assert_str_empty(qubo_error_message());
	cr_assert_eq(qubo_error_column(), 0);
	assert_message_is_its_parts();

	/* The current error's own text, passed back. */
	qubo_error_set(QUBO_ERR_IO, 0, 0, "qubo_x_y: first");
	qubo_error_set(QUBO_ERR_PARSE, 2, 1, qubo_error_message());
	cr_assert_str_eq(qubo_error_message(), "line 2, column 1: qubo_x_y: first");
	cr_assert_str_eq(qubo_error_function(), "qubo_x_y");
	cr_assert_str_eq(qubo_error_detail(), "first");
}

Test(status, set_parts_records_every_part)
{
	qubo_error_parts e = QUBO_ERROR_PARTS_INIT;

	e.code = QUBO_ERR_TOO_LARGE;
	e.function = "qubo_puzzle_parse";
	e.detail = "too many cells";
	e.line = 3;
	e.column = 9;
	e.cell_row = 2;
	e.cell_column = 5;
	e.limit = QUBO_LIMIT_MAX_CELLS;
	e.limit_value = 1000;
	cr_assert_eq(qubo_error_set_parts(&e), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_TOO_LARGE);
	cr_assert_str_eq(qubo_error_message(),
			 "line 3, column 9: qubo_puzzle_parse: too many cells");
	cr_assert_str_eq(qubo_error_function(), "qubo_puzzle_parse");
	cr_assert_str_eq(qubo_error_detail(), "too many cells");
	cr_assert_eq(qubo_error_cell_row(), 2);
	cr_assert_eq(qubo_error_cell_column(), 5);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_MAX_CELLS);
	cr_assert_eq(qubo_error_limit_value(), 1000);
	assert_message_is_its_parts();

	/* Half a cell is none; a limit's value needs a limit; a column needs a line. */
	e.line = 0;
	e.cell_column = 0;
	e.limit = QUBO_LIMIT_NONE;
	e.function = NULL;
	e.detail = NULL;
	cr_assert_eq(qubo_error_set_parts(&e), QUBO_ERR_TOO_LARGE);
	cr_assert_str_empty(qubo_error_message());
	cr_assert_eq(qubo_error_column(), 0);
	cr_assert_eq(qubo_error_cell_row(), 0);
	cr_assert_eq(qubo_error_cell_column(), 0);
	cr_assert_eq(qubo_error_limit_value(), 0);

	/* The current error's own strings, passed back. */
	qubo_error_set(QUBO_ERR_IO, 0, 0, "qubo_a_b: gone");
	e.function = qubo_error_function();
	e.detail = qubo_error_detail();
	e.line = 5;
	e.column = 1;
	qubo_error_set_parts(&e);
	cr_assert_str_eq(qubo_error_message(), "line 5, column 1: qubo_a_b: gone");

	qubo_error_clear();
	assert_no_error();
}

Test(status, set_parts_checks_its_argument)
{
	qubo_error_parts e = QUBO_ERROR_PARTS_INIT;
	unsigned char big[sizeof(qubo_error_parts) + 8];

	cr_assert_eq(qubo_error_set_parts(NULL), QUBO_ERR_MISUSE);
	cr_assert_str_eq(qubo_error_message(), "qubo_error_set_parts: parts is NULL");
	cr_assert_str_eq(qubo_error_function(), "qubo_error_set_parts");
	e.struct_size = QUBO_ERROR_PARTS_SIZE_V1 - 1;
	cr_assert_eq(qubo_error_set_parts(&e), QUBO_ERR_UNSUPPORTED_VERSION);
	cr_assert_eq(qubo_error_code(), QUBO_ERR_UNSUPPORTED_VERSION);
	/* A larger struct of a later version: zeros past this one's end are fine. */
	memset(big, 0, sizeof big);
	e.struct_size = sizeof big;
	e.code = QUBO_ERR_IO;
	e.detail = "later";
	memcpy(big, &e, sizeof e);
	cr_assert_eq(qubo_error_set_parts((const qubo_error_parts *)(void *)big), QUBO_ERR_IO);
	cr_assert_str_eq(qubo_error_message(), "later");
	big[sizeof e + 3] = 1;
	cr_assert_eq(qubo_error_set_parts((const qubo_error_parts *)(void *)big),
		     QUBO_ERR_UNSUPPORTED_VERSION);
}

Test(status, set_parts_cuts_long_text)
{
	char fn[200], detail[2000];
	qubo_error_parts e = QUBO_ERROR_PARTS_INIT;

	memset(fn, 'f', sizeof fn - 1);
	fn[sizeof fn - 1] = '\0';
	/* a detail of two-byte characters, so that a cut can split one */
	for (size_t i = 0; i + 2 < sizeof detail; i += 2)
		memcpy(detail + i, "\xc3\xa9", 2);
	detail[sizeof detail - 2] = '\0';
	e.code = QUBO_ERR_IO;
	e.function = fn;
	e.detail = detail;
	e.line = 12;
	e.column = 4;
	qubo_error_set_parts(&e);
	cr_assert_eq(strlen(qubo_error_function()), 63);
	cr_assert_lt(strlen(qubo_error_message()), 512);
	/* "line 12, column 4: " and the name are 84 bytes: whole characters
	 * after them keep the length even */
	cr_assert_eq(strlen(qubo_error_message()) % 2, 0, "a character cut in two");
	cr_assert_str_eq(qubo_error_message() + strlen(qubo_error_message()) -
				 strlen(qubo_error_detail()),
			 qubo_error_detail());
	assert_message_is_its_parts();
}

Test(status, limit_names)
{
#define LIMIT_ENTRY(name, value, id, text) { name, value, id, text },
	static const struct {
		int limit;
		int listed;
		const char *id, *text;
	} list[] = { QUBO_LIMIT_LIST(LIMIT_ENTRY) };
#undef LIMIT_ENTRY
	size_t n = sizeof list / sizeof list[0], i, j;

	cr_assert_eq(n, QUBO_LIMIT_END_);
	for (i = 0; i < n; i++) {
		cr_assert_eq(list[i].limit, (int)i);
		cr_assert_eq(list[i].listed, (int)i);
		cr_assert_str_eq(qubo_limit_name(list[i].limit), list[i].id);
		for (j = 0; j < strlen(list[i].id); j++)
			cr_assert(islower((unsigned char)list[i].id[j]) || list[i].id[j] == '_',
				  "'%s'", list[i].id);
		for (j = i + 1; j < n; j++)
			cr_assert_str_neq(list[i].id, list[j].id);
	}
	/* The names of the limits an option raises are its field's. */
	cr_assert_str_eq(qubo_limit_name(QUBO_LIMIT_NONE), "none");
	cr_assert_str_eq(qubo_limit_name(QUBO_LIMIT_MAX_INPUT_BYTES), "max_input_bytes");
	cr_assert_str_eq(qubo_limit_name(QUBO_LIMIT_MAX_VARIABLES), "max_variables");
	cr_assert_str_eq(qubo_limit_name(QUBO_LIMIT_MAX_COUPLERS), "max_couplers");
	cr_assert_str_eq(qubo_limit_name(QUBO_LIMIT_MAX_CELLS), "max_cells");
	cr_assert_str_eq(qubo_limit_name(-1), "unknown");
	cr_assert_str_eq(qubo_limit_name(QUBO_LIMIT_END_), "unknown");
	cr_assert_str_eq(qubo_limit_name(INT_MAX), "unknown");
}

struct parts_report {
	int code;
	size_t line, column;
	char function[64], detail[600], message[600];
};

static void read_parts(struct parts_report *r)
{
	r->code = qubo_error_code();
	r->line = qubo_error_line();
	r->column = qubo_error_column();
	snprintf(r->function, sizeof r->function, "%s", qubo_error_function());
	snprintf(r->detail, sizeof r->detail, "%s", qubo_error_detail());
	snprintf(r->message, sizeof r->message, "%s", qubo_error_message());
}

static void *parse_error_thread(void *arg)
{
	static const char bad[] = "p qubo 0 3 1 0\n0 0 zebra\n";
	qubo_model *m = NULL;

	(void)qubo_qbsolv_read(&m, bad, sizeof bad - 1, NULL);
	read_parts(arg);
	return NULL;
}

Test(status, parts_are_per_thread)
{
	struct parts_report theirs, mine;
	pthread_t t;

	cr_assert_eq(qubo_parity_fix(NULL, 0, 0), QUBO_ERR_MISUSE);
	cr_assert_eq(pthread_create(&t, NULL, parse_error_thread, &theirs), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
	read_parts(&mine);
	cr_assert_eq(theirs.code, QUBO_ERR_PARSE);
	cr_assert_eq(theirs.line, 2);
	cr_assert_eq(theirs.column, 5);
	cr_assert_str_eq(theirs.function, "qubo_qbsolv_read");
	cr_assert_str_eq(theirs.detail, "weight 'zebra' is not a decimal number");
	cr_assert_eq(mine.code, QUBO_ERR_MISUSE);
	cr_assert_eq(mine.line, 0);
	cr_assert_str_eq(mine.function, "qubo_parity_fix");
	cr_assert_str_eq(mine.detail, "parity is NULL");
}

/* QUBO_ERR_TOO_LARGE names the limit it hit and the value in force. */
static void assert_limit(int limit, uint64_t value)
{
	cr_assert_eq(qubo_error_code(), QUBO_ERR_TOO_LARGE, "%s", qubo_error_message());
	cr_assert_eq(qubo_error_limit(), limit, "%s, not %s: %s",
		     qubo_limit_name(qubo_error_limit()), qubo_limit_name(limit),
		     qubo_error_message());
	cr_assert_eq(qubo_error_limit_value(), value, "%s: %llu", qubo_limit_name(limit),
		     (unsigned long long)qubo_error_limit_value());
	assert_message_is_its_parts();
}

Test(status, too_large_names_its_limit)
{
	static const char header[] = "p qubo 0 100 0 0\n";
	static const char couplers[] = "p qubo 0 2 0 70\n";
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;
	qubo_model *m = NULL;
	qubo_parity *p;
	qubo_solver *s;
	qubo_sampleset *set = NULL;

	cr_assert_eq(qubo_parity_new(&p, (size_t)QUBO_MAX_VARIABLES + 5, NULL), QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_VARIABLE_INDEX, QUBO_MAX_VARIABLES - 1);
	cr_assert_str_eq(qubo_error_function(), "qubo_parity_new");

	cr_assert_eq(qubo_model_new(&m, (size_t)QUBO_MODEL_MAX_VARIABLES + 1, NULL),
		     QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_MODEL_VARIABLES, QUBO_MODEL_MAX_VARIABLES);

	/* the reader's options: the value is the one the call set */
	o.max_variables = 50;
	cr_assert_eq(qubo_qbsolv_read_ex(&m, header, sizeof header - 1, &o), QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_MAX_VARIABLES, 50);
	cr_assert_eq(qubo_error_line(), 1);
	cr_assert_eq(qubo_error_column(), 10);
	cr_assert_str_eq(qubo_error_function(), "qubo_qbsolv_read_ex");
	o.max_variables = 0;
	o.max_couplers = 60;
	cr_assert_eq(qubo_qbsolv_read_ex(&m, couplers, sizeof couplers - 1, &o),
		     QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_MAX_COUPLERS, 60);
	o.max_couplers = 0;
	o.max_input_bytes = 10;
	cr_assert_eq(qubo_qbsolv_read_ex(&m, header, sizeof header - 1, &o), QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_MAX_INPUT_BYTES, 10);
	cr_assert_eq(qubo_error_line(), 0);
	/* the lines a short input can hold */
	cr_assert_eq(qubo_qbsolv_read(&m, couplers, sizeof couplers - 1, NULL), QUBO_ERR_TOO_LARGE);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_INPUT_LINES, "%s", qubo_error_message());
	cr_assert_gt(qubo_error_limit_value(), 0);
	cr_assert_lt(qubo_error_limit_value(), 70);
	cr_assert_null(m);

	/* through a built-in solver, whose name the host puts in front */
	m = tu_chain(41, NULL, 0, 1.0);
	cr_assert_not_null(m);
	cr_assert_eq(qubo_model_compile(m), QUBO_OK);
	cr_assert_eq(qubo_solver_new(&s, "exhaustive", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_ENUMERATION_VARIABLES, QUBO_EXHAUSTIVE_MAX_VARIABLES);
	qubo_solver_free(s);
	cr_assert_eq(qubo_solver_new(&s, "sa", NULL), QUBO_OK);
	cr_assert_eq(qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, (int64_t)1 << 30), QUBO_OK);
	cr_assert_eq(qubo_solver_sample(&set, s, m), QUBO_ERR_TOO_LARGE);
	assert_limit(QUBO_LIMIT_SAMPLE_BYTES, QUBO_MAX_SAMPLE_BYTES);
	cr_assert_eq(strncmp(qubo_error_message(), "sa: ", 4), 0, "%s", qubo_error_message());
	qubo_solver_free(s);
	qubo_model_free(m);

	/* other errors name no limit */
	cr_assert_eq(qubo_parity_fix(NULL, 0, 0), QUBO_ERR_MISUSE);
	cr_assert_eq(qubo_error_limit(), QUBO_LIMIT_NONE);
	cr_assert_eq(qubo_error_limit_value(), 0);
}
