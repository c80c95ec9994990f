/* Helpers shared by the verbs: messages, strict number parsing, reading a
 * model, printing samples, and progress with Ctrl-C. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("qubo: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || v != v || v - v != 0)
		return -1;
	*out = v;
	return 0;
}

static char *read_stdin(size_t *len_out)
{
	size_t cap = 1 << 16, len = 0, got;
	char *buf = malloc(cap), *p;

	while (buf && (got = fread(buf + len, 1, cap - len, stdin)) > 0) {
		len += got;
		if (len == cap) {
			p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
	}
	if (buf && ferror(stdin)) {
		free(buf);
		return NULL;
	}
	*len_out = len;
	return buf;
}

int cli_read_model(const char *path, qubo_model **out)
{
	int rc;

	if (!strcmp(path, "-")) {
		size_t len = 0;
		char *text = read_stdin(&len);
		if (!text) {
			cli_error("cannot read standard input");
			return CLI_INPUT;
		}
		rc = qubo_qbsolv_read(out, text, len, NULL);
		free(text);
		path = "(standard input)";
	} else {
		rc = qubo_qbsolv_read_file(out, path, NULL);
	}
	if (rc == QUBO_OK)
		return CLI_OK;
	cli_error("%s: %s", path, qubo_error_message());
	return rc == QUBO_ERR_NOMEM ? CLI_FAILURE : CLI_INPUT;
}

void cli_format_energy(char *buf, size_t size, double e)
{
	int digits;

	for (digits = 15; digits <= 17; digits++) {
		snprintf(buf, size, "%.*g", digits, e);
		if (strtod(buf, NULL) == e)
			return;
	}
}

int cli_print_samples(const qubo_sampleset *set)
{
	size_t n = qubo_sampleset_num_variables(set), i, v;
	char *bits = malloc(n + 1), energy[40];

	if (!bits) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		double e = 0;
		uint64_t count = 0;
		qubo_sampleset_get(set, i, NULL, 0, &e, &count);
		for (v = 0; v < n; v++)
			bits[v] = (char)('0' + x[v]);
		bits[n] = '\0';
		cli_format_energy(energy, sizeof energy, e);
		printf("%s %llu %s\n", energy, (unsigned long long)count, bits);
	}
	free(bits);
	if (fflush(stdout) || ferror(stdout)) {
		cli_error("cannot write the samples: %s", strerror(errno));
		return CLI_FAILURE;
	}
	return CLI_OK;
}

/* ---- progress and Ctrl-C ---- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1; /* SA_RESETHAND: a second Ctrl-C ends the program */
}

void cli_progress_init(cli_progress *p, const char *unit, int quiet)
{
	struct sigaction sa;

	p->unit = unit;
	p->quiet = quiet;
	p->shown = 0;
	p->tty = isatty(STDERR_FILENO);
	p->last = 0;
	interrupted = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

int cli_progress_cb(const qubo_progress *progress, void *user_data)
{
	cli_progress *p = user_data;
	char best[40] = "none";

	if (interrupted)
		return 1;
	if (p->quiet || progress->seconds < 1.0 || progress->seconds - p->last < 1.0)
		return 0;
	p->last = progress->seconds;
	if (progress->has_best)
		cli_format_energy(best, sizeof best, progress->best_energy);
	fprintf(stderr, "%squbo: %llu/%llu %s, best %s, %.0f s%s", p->tty ? "\r" : "",
		(unsigned long long)progress->done, (unsigned long long)progress->total, p->unit,
		best, progress->seconds, p->tty ? "   " : "\n");
	p->shown = 1;
	return 0;
}

void cli_progress_done(cli_progress *p)
{
	signal(SIGINT, SIG_DFL);
	if (p->shown && p->tty)
		fputc('\n', stderr);
	if (interrupted)
		cli_error("interrupted; printing the samples found so far");
}
