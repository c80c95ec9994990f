/* Reading a whole file into a buffer from an allocator. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common_impl.h"

#define READ_CHUNK 65536 /* first buffer when the size is not known (pipes) */

const char *qubo__errstr(int err, char *buf, size_t size)
{
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
	return strerror_r(err, buf, size);
#else
	if (strerror_r(err, buf, size))
		snprintf(buf, size, "error %d", err);
	return buf;
#endif
}

int qubo__read_file(const qubo_allocator *a, const char *path, const char *fn, char **data_out,
		    size_t *length_out)
{
	struct stat st;
	char *buf, eb[128];
	size_t len = 0, cap;
	ssize_t k;
	int fd, err;

	*data_out = NULL;
	*length_out = 0;
	if (!path)
		return qubo__null_arg(fn, "path");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		return qubo__error(QUBO_ERR_IO, "%s: cannot open '%s': %s", fn, path,
				   qubo__errstr(err, eb, sizeof eb));
	}
	/* A regular file's size sizes the buffer (one byte more, to see the
	 * end at once); pipes grow it. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < SIZE_MAX)
		cap = (size_t)st.st_size + 1;
	else
		cap = READ_CHUNK;
	buf = qubo__malloc(a, cap);
	if (!buf) {
		close(fd);
		return qubo__nomem("the file's contents");
	}
	for (;;) {
		if (len == cap && qubo__grow(a, (void **)&buf, &cap, len + 1, 1)) {
			close(fd);
			qubo__free(a, buf);
			return qubo__nomem("the file's contents");
		}
		k = read(fd, buf + len, cap - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			err = errno;
			close(fd);
			qubo__free(a, buf);
			return qubo__error(QUBO_ERR_IO, "%s: cannot read '%s': %s", fn, path,
					   qubo__errstr(err, eb, sizeof eb));
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	close(fd);
	*data_out = buf;
	*length_out = len;
	return QUBO_OK;
}
