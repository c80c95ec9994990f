/*
 * The qubo command-line program: shared declarations.
 *
 * stdout carries results only (samples, solutions, model figures); every
 * message goes to stderr as "qubo: ...". The exit codes are part of the
 * program's interface (see `qubo --help`).
 */
#ifndef QUBO_CLI_H
#define QUBO_CLI_H

#include <stddef.h>
#include <stdint.h>

#include <qubo.h>

/* Exit codes. */
enum {
	CLI_OK = 0,      /* success (also when stopped early with samples) */
	CLI_FAILURE = 1, /* no solution, or the solver failed */
	CLI_USAGE = 2,   /* bad command line or option value */
	CLI_INPUT = 3    /* the input could not be read or parsed */
};

/* One verb: `qubo <name> ...`. argv[0] is the verb. */
typedef struct cli_verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} cli_verb;

int cli_solve(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_solvers(int argc, char **argv);

/* "qubo: <formatted message>\n" on stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Strict number parsing: the whole string, in range. Return 0 or -1. */
int cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
int cli_parse_double(const char *s, double *out);

/* Reads a .qubo model from path ("-" is standard input). On failure prints
 * the reason and returns the exit code to use. */
int cli_read_model(const char *path, qubo_model **out);

/* Writes a double with the fewest digits that read back to the same value. */
void cli_format_energy(char *buf, size_t size, double e);

/* Prints samples one per line as "<energy> <count> <bits>", lowest first. */
int cli_print_samples(const qubo_sampleset *set);

/* Progress on stderr for runs longer than a second, and Ctrl-C to stop a run
 * early (the results so far are printed). */
typedef struct cli_progress {
	const char *unit;  /* "reads", "blocks" */
	int quiet;
	int shown;         /* a progress line is on the screen */
	int tty;
	double last;       /* seconds at the last line */
} cli_progress;

void cli_progress_init(cli_progress *p, const char *unit, int quiet);
int cli_progress_cb(const qubo_progress *progress, void *user_data);
void cli_progress_done(cli_progress *p);

#endif /* QUBO_CLI_H */
