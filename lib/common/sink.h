/*
 * One bounded output sink for the text writers (the puzzle formats, the
 * QASM writer, the qbsolv writer): text appended to a caller's buffer of a
 * given capacity, every byte counted and those that fit stored (the size
 * query and the truncation of the public format functions), or written to
 * a file descriptor through a buffer of its own, keeping the first I/O
 * error.
 */
#ifndef QUBO_COMMON_SINK_H
#define QUBO_COMMON_SINK_H

#include <stddef.h>

#include "common_impl.h"

typedef struct qubo__sink {
	char *buf;   /* the caller's buffer, or the file's chunk */
	size_t cap;  /* its size */
	size_t len;  /* bytes written so far, stored or not */
	int file;    /* 0: the caller's buffer; 1: the file fd */
	int fd;
	size_t used; /* file: bytes of the chunk not yet written */
	int err;     /* file: errno of the first failed write, 0 if none */
} qubo__sink;

/* Room for one qubo__sink_printf() call: longer output is cut to 255
 * bytes. */
#define QUBO__SINK_LINE 256

/* A sink into buf, which holds cap bytes (buf may be NULL when cap is 0:
 * the size query). */
void qubo__sink_buffer(qubo__sink *s, char *buf, size_t cap);
/* A sink to a file, written through a chunk of QUBO__SINK_CHUNK bytes from
 * a (allocated first, so that a caller can fail before it creates the
 * file): the caller sets s->fd before the first write. A zeroed sink is
 * an empty buffer sink (the size query). QUBO_OK, or
 * QUBO_ERR_NOMEM (message set). */
#define QUBO__SINK_CHUNK 65536
int qubo__sink_file(qubo__sink *s, const qubo_allocator *a);

void qubo__sink_put(qubo__sink *s, const char *p, size_t n);
void qubo__sink_putc(qubo__sink *s, char c);
void qubo__sink_puts(qubo__sink *s, const char *str);
void qubo__sink_printf(qubo__sink *s, const char *fmt, ...) QUBO__PRINTF(2, 3);

/* Ends a buffer sink: sets *length_out (when not NULL) to the length of the
 * whole text, and NUL-terminates it when it fits. QUBO_OK when the text
 * fits, exactly or with its NUL, or when the capacity is 0 (the size
 * query); else QUBO_ERR_BUFFER_TOO_SMALL with "<fn>: the <what> takes N
 * bytes (N + 1 with its NUL), capacity is C". */
int qubo__sink_finish(qubo__sink *s, const char *fn, const char *what, size_t *length_out);

/* Ends a file sink: writes what is left and frees the chunk. Returns the
 * errno of the first failed write, 0 if none. The caller closes fd. */
int qubo__sink_close(qubo__sink *s, const qubo_allocator *a);

#endif /* QUBO_COMMON_SINK_H */
