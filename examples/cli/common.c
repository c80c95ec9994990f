/* Helpers shared by the verbs: messages, strict number parsing, reading
 * inputs (models and puzzles), printing samples, and progress with Ctrl-C. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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

int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* digits, after at most a '+': strtoull would wrap "-1" around */
	if (!(s[s[0] == '+'] >= '0' && s[s[0] == '+'] <= '9'))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_seed(const char *s, int64_t *out)
{
	uint64_t u;

	if (s[0] == '-')
		return cli_parse_int(s, INT64_MIN, -1, out);
	if (cli_parse_u64(s, &u))
		return -1;
	*out = (int64_t)u; /* the same 64 bits */
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

/* ---- input files ---- */

double cli_now(void)
{
	static struct timespec t0;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!t0.tv_sec && !t0.tv_nsec)
		t0 = ts;
	return (double)(ts.tv_sec - t0.tv_sec) + (double)(ts.tv_nsec - t0.tv_nsec) * 1e-9;
}

/* ---- input limits ---- */

cli_limits cli_input_limits;

const char cli_limits_help[] =
	"input limits (0 or absent: the defaults, which real inputs stay far below):\n"
	"  --max-input BYTES            largest input read (default 256 MiB)\n"
	"  --max-input-variables N      most variables a model's header, or cells a\n"
	"                               puzzle's header, may declare (default 4194304)\n"
	"  --max-input-couplers N       most couplers a model's header may declare or\n"
	"                               a puzzle's board need (default 67108864)\n";

static const char *const limit_flags[] = { "--max-input", "--max-input-variables",
					   "--max-input-couplers" };

int cli_is_limit_flag(const char *flag)
{
	size_t i;

	for (i = 0; i < sizeof limit_flags / sizeof limit_flags[0]; i++)
		if (!strcmp(flag, limit_flags[i]))
			return 1;
	return 0;
}

int cli_limit_option(const char *flag, const char *val)
{
	int64_t v;
	size_t *dst = !strcmp(flag, "--max-input")	     ? &cli_input_limits.max_input
		      : !strcmp(flag, "--max-input-variables") ? &cli_input_limits.max_variables
							      : &cli_input_limits.max_couplers;

	if (cli_parse_int(val, 0, (int64_t)(SIZE_MAX / 4 < INT64_MAX ? SIZE_MAX / 4 : INT64_MAX),
			  &v)) {
		cli_error("%s: '%s' is not a count of at least 0", flag, val);
		return -1;
	}
	*dst = (size_t)v;
	return 0;
}

int cli_limit_flag(int argc, char **argv, int *k)
{
	const char *val;
	size_t i;
	int rc;

	for (i = 0; i < sizeof limit_flags / sizeof limit_flags[0]; i++) {
		rc = cli_flag(argc, argv, k, limit_flags[i], &val);
		if (rc)
			return rc < 0 || cli_limit_option(limit_flags[i], val) ? -1 : 1;
	}
	return 0;
}

static size_t max_input(void)
{
	return cli_input_limits.max_input ? cli_input_limits.max_input : CLI_DEFAULT_MAX_INPUT;
}

/* The limits ran out: the message, with the options that raise them. */
static int too_large(const char *what, const char *msg)
{
	if (msg)
		cli_error("%s: %s", what, msg);
	cli_error("(--max-input, --max-input-variables and --max-input-couplers raise the "
		  "input limits)");
	return CLI_TOO_LARGE;
}

/* Reads all of @p f into a malloc'd buffer (one byte more for a NUL), in
 * chunks, and stops at max + 1 bytes: a stream without end costs at most
 * the limit. Past it, returns -1 with errno EFBIG and the first max bytes
 * in *text_out (the caller frees them). */
static int read_stream(FILE *f, size_t hint, size_t max, char **text_out, size_t *len_out)
{
	size_t cap = hint + 2 > 4096 ? hint + 2 : 4096, len = 0, got, want;
	char *buf, *p;

	*text_out = NULL;
	*len_out = 0;
	if (cap > max + 2)
		cap = max + 2;
	buf = malloc(cap);
	if (!buf)
		return -1;
	for (;;) {
		want = cap - 1 - len;
		if (want > max + 1 - len)
			want = max + 1 - len;
		got = fread(buf + len, 1, want, f);
		len += got;
		if (len > max) {
			*text_out = buf;
			*len_out = max;
			errno = EFBIG;
			return -1;
		}
		if (len < cap - 1) {
			if (ferror(f) || feof(f))
				break;
			continue;
		}
		if (cap > SIZE_MAX / 2) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
		p = realloc(buf, cap * 2 < max + 2 ? cap * 2 : max + 2);
		if (!p) {
			free(buf);
			return -1;
		}
		buf = p;
		cap = cap * 2 < max + 2 ? cap * 2 : max + 2;
	}
	if (ferror(f)) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*text_out = buf;
	*len_out = len;
	return 0;
}

/* The first @p length bytes of an input longer than the limit: when its
 * complete lines already hold a parse error, that error is the one to
 * report ("queens 4" and then endless junk is malformed on line 6, not
 * only too long). Returns the exit code after reporting it, or -1 when the
 * prefix shows no error before its end. */
static int prefix_error(const char *what, const char *text, size_t length)
{
	qubo_puzzle_options po = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_qbsolv_options mo = QUBO_QBSOLV_OPTIONS_INIT;
	qubo_puzzle *p = NULL;
	qubo_model *m = NULL;
	cli_input in;
	size_t lines = 0, i;
	int rc;

	while (length && text[length - 1] != '\n')
		length--;
	for (i = 0; i < length; i++)
		lines += text[i] == '\n';
	if (!lines)
		return -1;
	memset(&in, 0, sizeof in);
	in.text = (char *)(uintptr_t)text;
	in.length = length;
	if (cli_input_kind(&in) == CLI_KIND_MODEL) {
		mo.max_input_bytes = length;
		mo.max_variables = cli_input_limits.max_variables;
		mo.max_couplers = cli_input_limits.max_couplers;
		rc = qubo_qbsolv_read_ex(&m, text, length, &mo);
		qubo_model_free(m);
	} else {
		po.reduce = QUBO_REDUCE_NONE;
		po.max_input_bytes = length;
		po.max_cells = cli_input_limits.max_variables;
		po.max_couplers = cli_input_limits.max_couplers;
		rc = qubo_puzzle_parse(&p, text, length, &po);
		qubo_puzzle_free(p);
	}
	if (rc != QUBO_ERR_PARSE || !qubo_error_line() || qubo_error_line() > lines)
		return -1;
	rc = cli_report(what, rc);
	cli_error("(and the input is longer than the limit of %zu bytes)", max_input());
	return rc;
}

/* A read that failed with errno err: the message and the exit code. */
static int read_failed(const char *what, int err)
{
	char msg[160];

	if (err != EFBIG) {
		cli_error("%s: %s", what, strerror(err));
		return CLI_IO;
	}
	snprintf(msg, sizeof msg, "the input is larger than the limit of %zu bytes", max_input());
	return too_large(what, msg);
}

/* read_stream() failed for @p in: reports why, frees what was read. A
 * puzzle or model read in part may show its own parse error first. */
static int stream_failed(cli_input *in, int whole)
{
	int err = errno, rc = -1;

	if (whole && err == EFBIG && in->text)
		rc = prefix_error(in->name, in->text, in->length);
	cli_input_free(in);
	return rc >= 0 ? rc : read_failed(in->name, err);
}

static int input_read(cli_input *in, const char *path, int whole);

int cli_input_read(cli_input *in, const char *path)
{
	return input_read(in, path, 1);
}

int cli_input_read_solution(cli_input *in, const char *path)
{
	return input_read(in, path, 0);
}

/* whole: the input is a puzzle or a model (not a solution) */
static int input_read(cli_input *in, const char *path, int whole)
{
	struct stat st;
	FILE *f;
	int rc;

	memset(in, 0, sizeof *in);
	in->path = path;
	if (!strcmp(path, "-")) {
		in->name = "(standard input)";
		if (read_stream(stdin, 0, max_input(), &in->text, &in->length))
			return stream_failed(in, whole);
		return CLI_OK;
	}
	in->name = path;
	f = fopen(path, "rb");
	if (!f && errno == ENOENT && strchr(path, ':')) {
		/* no such file, but a game ID (8x8:...): the library parses it */
		size_t len = strlen(path);

		in->name = "(game ID)";
		in->text = malloc(len + 2);
		if (!in->text) {
			cli_error("out of memory");
			return CLI_IO;
		}
		memcpy(in->text, path, len);
		in->text[len] = '\n';
		in->text[len + 1] = '\0';
		in->length = len + 1;
		return CLI_OK;
	}
	if (!f) {
		cli_error("%s: %s", path, strerror(errno));
		return CLI_IO;
	}
	if (fstat(fileno(f), &st) != 0)
		memset(&st, 0, sizeof st);
	if (S_ISDIR(st.st_mode)) {
		fclose(f);
		cli_error("%s: is a directory", path);
		return CLI_IO;
	}
	/* a regular file beyond the limit is refused by its size, unread */
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max_input()) {
		fclose(f);
		return read_failed(path, EFBIG);
	}
	rc = read_stream(f, S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0,
			 max_input(), &in->text, &in->length);
	fclose(f);
	return rc ? stream_failed(in, whole) : CLI_OK;
}

void cli_input_free(cli_input *in)
{
	free(in->text);
	in->text = NULL;
	in->length = 0;
}

/* The first line that is neither blank nor a '#' comment: start and length. */
static const char *first_line(const cli_input *in, size_t *len_out)
{
	const char *s = in->text, *end = in->text + in->length;

	/* a UTF-8 byte-order mark first is skipped, as the library does */
	if (in->length >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		s += 3;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end, *t = s;
		while (t < e && (*t == ' ' || *t == '\t' || *t == '\r'))
			t++;
		if (t < e && *t != '#') {
			while (e > t && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			*len_out = (size_t)(e - t);
			return t;
		}
		s = nl ? nl + 1 : end;
	}
	*len_out = 0;
	return NULL;
}

int cli_input_kind(const cli_input *in)
{
	size_t len;
	const char *s = first_line(in, &len);

	/* qbsolv: "c ..." comment lines, then "p qubo ...". No family word is
	 * one letter long. */
	if (s && (s[0] == 'c' || s[0] == 'p') && (len == 1 || s[1] == ' ' || s[1] == '\t'))
		return CLI_KIND_MODEL;
	return CLI_KIND_PUZZLE;
}

void cli_input_header(const cli_input *in, char *buf, size_t size)
{
	size_t len, i;
	const char *s = first_line(in, &len);

	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)s[i] >= 0x20 ? s[i] : ' ';
	buf[len] = '\0';
}

int cli_exit_code(int rc)
{
	switch (rc) {
	case QUBO_OK:
		return CLI_OK;
	case QUBO_ERR_PARSE:
		return CLI_PARSE;
	case QUBO_ERR_IO:
		return CLI_IO;
	case QUBO_ERR_INFEASIBLE:
		return CLI_INFEASIBLE;
	case QUBO_ERR_TOO_LARGE:
		return CLI_TOO_LARGE;
	case QUBO_ERR_INVALID_ARG:
	case QUBO_ERR_OUT_OF_RANGE:
	case QUBO_ERR_NOT_SUPPORTED:
		return CLI_USAGE;
	default:
		return CLI_FAILURE;
	}
}

/* The library's message without the C function, which is of no use to the
 * program's users; a position stays in it (cli_report() gives it apart). */
const char *cli_library_message(void)
{
	return qubo_error_line() ? qubo_error_message() : qubo_error_detail();
}

int cli_report(const char *what, int rc)
{
	const char *msg = qubo_error_detail();
	size_t line = qubo_error_line(), col = qubo_error_column();

	if (line && col)
		cli_error("%s:%zu:%zu: %s", what, line, col, msg);
	else if (line)
		cli_error("%s:%zu: %s", what, line, msg);
	else
		cli_error("%s: %s", what, msg);
	return cli_exit_code(rc);
}

/* Whether the last error hit an input limit that the command line raises
 * (--max-input, --max-input-variables, --max-input-couplers), rather than
 * one fixed by the library. */
static int limit_raisable(void)
{
	switch (qubo_error_limit()) {
	case QUBO_LIMIT_MAX_INPUT_BYTES:
	case QUBO_LIMIT_MAX_VARIABLES:
	case QUBO_LIMIT_MAX_COUPLERS:
	case QUBO_LIMIT_MAX_CELLS:
		return 1;
	default:
		return 0;
	}
}

int cli_input_model(const cli_input *in, qubo_model **out)
{
	qubo_qbsolv_options o = QUBO_QBSOLV_OPTIONS_INIT;
	int rc;

	o.max_input_bytes = max_input();
	o.max_variables = cli_input_limits.max_variables;
	o.max_couplers = cli_input_limits.max_couplers;
	rc = qubo_qbsolv_read_ex(out, in->text, in->length, &o);
	if (rc == QUBO_OK)
		return CLI_OK;
	if (rc == QUBO_ERR_TOO_LARGE) {
		/* the hint only where an option raises the limit, not past a fixed one */
		int raisable = limit_raisable();

		cli_report(in->name, rc);
		return raisable ? too_large(in->name, NULL) : CLI_TOO_LARGE;
	}
	rc = cli_report(in->name, rc);
	return rc == CLI_USAGE ? CLI_PARSE : rc;
}

int cli_read_model(const char *path, qubo_model **out)
{
	cli_input in;
	int code = cli_input_read(&in, path);

	if (code)
		return code;
	code = cli_input_model(&in, out);
	cli_input_free(&in);
	return code;
}

/* Progress lines of a build (qubo_puzzle_options.progress); Ctrl-C stops it. */
static int build_progress(const qubo_puzzle_progress *pr, void *user_data)
{
	cli_progress *p = user_data;
	double now = cli_now();

	if (cli_interrupted())
		return 1;
	if (p->quiet || now < 1.0 || now - p->last < 1.0)
		return 0;
	p->last = now;
	fprintf(stderr, "%squbo: building the puzzle, %llu steps, %.0f s%s", p->tty ? "\r" : "",
		(unsigned long long)pr->nodes, now, p->tty ? "   " : "\n");
	p->shown = 1;
	return 0;
}

/* Parses in->text with the limits of the command line; the build shows
 * progress lines (unless quiet) and stops at Ctrl-C or at `deadline`
 * seconds of cli_now() (0: none). */
static int input_puzzle(const cli_input *in, int32_t reduce, double deadline,
			cli_progress *progress, qubo_puzzle **out)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	int rc;

	o.reduce = reduce;
	o.max_input_bytes = max_input();
	o.max_cells = cli_input_limits.max_variables;
	o.max_couplers = cli_input_limits.max_couplers;
	if (deadline > 0) {
		o.time_limit = deadline - cli_now();
		if (o.time_limit < 1e-6) /* spent on reading: stop at the first check */
			o.time_limit = 1e-6;
	}
	o.progress = build_progress;
	o.progress_data = progress;
	rc = qubo_puzzle_parse(out, in->text, in->length, &o);
	if (rc == QUBO_OK)
		return CLI_OK;
	if (rc == QUBO_TIME_LIMIT || rc == QUBO_CANCELLED) {
		const char *status =
			rc == QUBO_TIME_LIMIT ? "stopped (time limit)" : "stopped (interrupted)";

		if (!progress->quiet)
			fprintf(stderr, "status: %s\n", status);
		cli_error("%s: %s while reading and building the puzzle, after %.1f s; nothing "
			  "found",
			  in->name, status, cli_now());
		return CLI_FAILURE;
	}
	if (rc == QUBO_ERR_TOO_LARGE) {
		/* the hint only where an option raises the limit, not past a fixed one */
		int raisable = limit_raisable();

		cli_report(in->name, rc);
		return raisable ? too_large(in->name, NULL) : CLI_TOO_LARGE;
	}
	rc = cli_report(in->name, rc);
	return rc == CLI_USAGE ? CLI_PARSE : rc;
}

int cli_input_puzzle(const cli_input *in, int32_t reduce, qubo_puzzle **out)
{
	return cli_build_puzzle(in, reduce, 0, 1, out);
}

int cli_build_puzzle(const cli_input *in, int32_t reduce, double deadline, int quiet,
		     qubo_puzzle **out)
{
	cli_progress prog;
	int code;

	cli_progress_init(&prog, "steps", quiet);
	code = input_puzzle(in, reduce, deadline, &prog, out);
	signal(SIGINT, SIG_DFL);
	if (prog.shown && prog.tty)
		fputc('\n', stderr);
	return code;
}

/* ---- standard output ---- */

static int stdout_failed; /* a failed write was reported */

int cli_flush_stdout(void)
{
	int err;

	if (stdout_failed)
		return CLI_IO;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return CLI_OK;
	/* the write that failed set errno: in this flush, or in the printf
	 * that found the buffer full (stdio drops what it could not write) */
	err = errno ? errno : EIO;
	stdout_failed = 1;
	cli_error("cannot write to standard output: %s", strerror(err));
	return CLI_IO;
}

int cli_write_stdout(const char *text, size_t length)
{
	if (length)
		fwrite(text, 1, length, stdout);
	return cli_flush_stdout();
}

int cli_finish(int code)
{
	return cli_flush_stdout() ? CLI_IO : code;
}

int cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int cli_flag(int argc, char **argv, int *k, const char *flag, const char **val)
{
	const char *arg = argv[*k];
	size_t len = strlen(flag);

	if (strncmp(arg, flag, len) || (arg[len] && arg[len] != '='))
		return 0;
	if (arg[len] == '=') {
		*val = arg + len + 1;
		return 1;
	}
	if (*k + 1 >= argc) {
		cli_error("%s needs a value", flag);
		return -1;
	}
	*val = argv[++*k];
	return 1;
}

int cli_operand(const char *arg, const char *verb, const char **slots, size_t count)
{
	size_t i;

	if (arg[0] == '-' && arg[1]) {
		cli_error("unknown option '%s' (try 'qubo %s --help')", arg, verb);
		return -1;
	}
	for (i = 0; i < count; i++) {
		if (!slots[i]) {
			slots[i] = arg;
			return 0;
		}
	}
	cli_error("too many arguments ('%s'; try 'qubo %s --help')", arg, verb);
	return -1;
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
	return cli_flush_stdout();
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

int cli_interrupted(void)
{
	return interrupted != 0;
}

void cli_progress_done(cli_progress *p)
{
	signal(SIGINT, SIG_DFL);
	if (p->shown && p->tty)
		fputc('\n', stderr);
	if (interrupted)
		cli_error("interrupted; printing what was found so far");
}

size_t cli_puzzle_stats(const qubo_puzzle *p, qubo_puzzle_stats *st)
{
	memset(st, 0, sizeof *st);
	st->struct_size = sizeof *st;
	qubo_puzzle_get_stats(p, st);
	return st->width * st->height;
}
