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

/* The limit exceeded: nothing proportional to the input was kept. */
static int too_large(const char *fn, const char *path, size_t max_bytes)
{
	return qubo__too_large(QUBO_LIMIT_MAX_INPUT_BYTES, max_bytes,
			       "%s: '%s' is larger than the limit of %zu bytes of input "
			       "(options.max_input_bytes raises it)",
			       fn, path, max_bytes);
}

int qubo__read_file(const qubo_allocator *a, const char *path, const char *fn, size_t max_bytes,
		    char **data_out, size_t *length_out)
{
	struct stat st;
	char *buf, eb[128];
	size_t len = 0, cap;
	ssize_t k;
	int fd, err;

	*data_out = NULL;
	*length_out = 0;
	if (max_bytes > SIZE_MAX - 2)
		max_bytes = SIZE_MAX - 2;
	if (!path)
		return qubo__null_arg(fn, "path");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		return qubo__error(QUBO_ERR_IO, "%s: cannot open '%s': %s", fn, path,
				   qubo__errstr(err, eb, sizeof eb));
	}
	/* A regular file's size sizes the buffer (one byte more, to see the
	 * end at once) once it is known to be within the limit; pipes and
	 * devices grow it in chunks, and reading stops at max_bytes + 1. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uintmax_t)st.st_size > max_bytes) {
			close(fd);
			return too_large(fn, path, max_bytes);
		}
		cap = (size_t)st.st_size + 1;
	} else {
		cap = max_bytes < READ_CHUNK ? max_bytes + 1 : READ_CHUNK;
	}
	buf = qubo__malloc(a, cap);
	if (!buf) {
		close(fd);
		return qubo__nomem("the file's contents");
	}
	for (;;) {
		if (len > max_bytes) {
			close(fd);
			qubo__free(a, buf);
			return too_large(fn, path, max_bytes);
		}
		if (len == cap && qubo__grow(a, (void **)&buf, &cap, len + 1, 1)) {
			close(fd);
			qubo__free(a, buf);
			return qubo__nomem("the file's contents");
		}
		/* never more than max_bytes + 1 in all */
		k = read(fd, buf + len, cap - len < max_bytes + 1 - len ? cap - len
									  : max_bytes + 1 - len);
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
