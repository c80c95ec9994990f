/*
 * The bounded output sink of lib/common (sink.h): the caller's-buffer
 * convention of the public format functions, and writing to a file.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sink.h"
#include "util.h"

/* Writes "hello, world" (12 bytes) in three calls. */
static void hello(qubo__sink *s)
{
	qubo__sink_puts(s, "hello");
	qubo__sink_printf(s, "%c %s", ',', "wor");
	qubo__sink_put(s, "ldXX", 2);
}

Test(sink, size_query)
{
	qubo__sink s;
	size_t len = 99;

	qubo__sink_buffer(&s, NULL, 0);
	hello(&s);
	cr_assert_eq(qubo__sink_finish(&s, "f", "text", &len), QUBO_OK);
	cr_assert_eq(len, 12);
}

Test(sink, fits_with_its_nul)
{
	char buf[13];
	qubo__sink s;
	size_t len = 0;

	memset(buf, 'z', sizeof buf);
	qubo__sink_buffer(&s, buf, sizeof buf);
	hello(&s);
	cr_assert_eq(qubo__sink_finish(&s, "f", "text", &len), QUBO_OK);
	cr_assert_eq(len, 12);
	cr_assert_str_eq(buf, "hello, world");
}

Test(sink, exact_fit_has_no_nul)
{
	char buf[13];
	qubo__sink s;
	size_t len = 0;

	memset(buf, 'z', sizeof buf);
	qubo__sink_buffer(&s, buf, 12);
	hello(&s);
	cr_assert_eq(qubo__sink_finish(&s, "f", "text", &len), QUBO_OK);
	cr_assert_eq(len, 12);
	cr_assert_eq(memcmp(buf, "hello, worldz", 13), 0);
}

Test(sink, truncation)
{
	char buf[8];
	qubo__sink s;
	size_t len = 0;

	memset(buf, 'z', sizeof buf);
	qubo__sink_buffer(&s, buf, 5);
	hello(&s);
	cr_assert_eq(qubo__sink_finish(&s, "qubo_f", "program", &len), QUBO_ERR_BUFFER_TOO_SMALL);
	cr_assert_eq(len, 12);
	cr_assert_eq(memcmp(buf, "hellozzz", 8), 0);
	cr_assert_str_eq(qubo_error_message(),
			 "qubo_f: the program takes 12 bytes (13 with its NUL), capacity is 5");
	/* a NULL length_out is allowed */
	cr_assert_eq(qubo__sink_finish(&s, "f", "text", NULL), QUBO_ERR_BUFFER_TOO_SMALL);
}

Test(sink, printf_cuts_long_lines)
{
	char buf[600];
	qubo__sink s;
	size_t len = 0;

	qubo__sink_buffer(&s, buf, sizeof buf);
	qubo__sink_printf(&s, "%0400d", 7);
	cr_assert_eq(qubo__sink_finish(&s, "f", "text", &len), QUBO_OK);
	cr_assert_eq(len, QUBO__SINK_LINE - 1);
}

/* The whole file at path. */
static char *slurp(const char *path, size_t *len)
{
	char *text = tu_read_file(path, len);

	cr_assert_not_null(text, "%s", path);
	return text;
}

Test(sink, file)
{
	char path[512], *text, big[70000];
	const char *dir = getenv("QUBO_TEST_TMPDIR");
	qubo__sink s;
	qubo_allocator a;
	size_t len, i;
	int fd;

	memset(&a, 0, sizeof a);
	a.struct_size = sizeof a;
	cr_assert_eq(qubo__alloc_init(&a, NULL, "test"), QUBO_OK);
	snprintf(path, sizeof path, "%s/sink-%ld.txt", dir ? dir : "/tmp", (long)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	cr_assert_eq(qubo__sink_file(&s, &a), QUBO_OK);
	s.fd = fd;
	hello(&s);
	/* longer than the chunk: written through */
	for (i = 0; i < sizeof big; i++)
		big[i] = (char)('a' + i % 26);
	qubo__sink_put(&s, big, sizeof big);
	qubo__sink_putc(&s, '!');
	cr_assert_eq(qubo__sink_close(&s, &a), 0);
	close(fd);
	text = slurp(path, &len);
	cr_assert_eq(len, 12 + sizeof big + 1);
	cr_assert_eq(memcmp(text, "hello, world", 12), 0);
	cr_assert_eq(memcmp(text + 12, big, sizeof big), 0);
	cr_assert_eq(text[len - 1], '!');
	free(text);
	unlink(path);
}

Test(sink, file_errors)
{
	qubo_allocator a;
	qubo__sink s;
	tu_failalloc fa;
	int fd;

	cr_assert_eq(qubo__alloc_init(&a, NULL, "test"), QUBO_OK);
	/* a full device: the first failed write is kept */
	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		cr_assert_eq(qubo__sink_file(&s, &a), QUBO_OK);
	s.fd = fd;
		hello(&s);
		cr_assert_eq(qubo__sink_close(&s, &a), ENOSPC);
		close(fd);
	}
	/* a descriptor that is not open */
	cr_assert_eq(qubo__sink_file(&s, &a), QUBO_OK);
	s.fd = 1000000;
	hello(&s);
	cr_assert_eq(qubo__sink_close(&s, &a), EBADF);
	/* no memory for the chunk */
	tu_failalloc_init(&fa, 1);
	cr_assert_eq(qubo__sink_file(&s, &fa.a), QUBO_ERR_NOMEM);
	cr_assert_eq(fa.live, 0);
}
