/*
 * The qubo command-line program: shared declarations.
 *
 * stdout carries results only (samples, solutions, model figures); every
 * message goes to stderr as "qubo: ...". The exit codes are part of the
 * program's interface (see `qubo --help` and doc/cli.md).
 */
#ifndef QUBO_CLI_H
#define QUBO_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <qubo.h>
#include <qubo/puzzle.h>

/* Exit codes, as doc/cli.md's table gives them. 0-3 keep their meaning from
 * the first release of the program (which used 3 for unreadable files too;
 * those are 4 now). */
enum {
	CLI_OK = 0,         /* success: solved and verified, optimal and proven,
			     * valid, written, counted */
	CLI_FAILURE = 1,    /* no proven answer within the limits: stopped by the
			     * time limit or Ctrl-C, best found but not proven
			     * optimal, not found by sampling, the solver failed;
			     * or (verify) the solution breaks a rule */
	CLI_USAGE = 2,      /* bad command line or option value, wrong kind of input */
	CLI_PARSE = 3,      /* the input is malformed (position on stderr) */
	CLI_IO = 4,         /* a file could not be read or written, or standard
			     * output could not be written */
	CLI_INFEASIBLE = 5, /* proven: the puzzle has no solution */
	CLI_TOO_LARGE = 6   /* an input, its model or a run beyond a size limit
			     * (the library's QUBO_ERR_TOO_LARGE) */
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
int cli_export(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_count(int argc, char **argv);
int cli_render(int argc, char **argv);

/* The exit-status table, as printed by every --help. */
extern const char cli_exit_help[];

/* "qubo: <formatted message>\n" on stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* The library's last message without the name of the C function that
 * some messages start with ("qubo_puzzle_parse_solution: "). */
const char *cli_library_message(void);

/* Reports the library's last error for input @p what: "qubo: FILE:LINE:COL:
 * message" when it has a position. Returns the exit code for status @p rc. */
int cli_report(const char *what, int rc);

/* The exit code for a library status (parse, I/O, infeasible, ...). */
int cli_exit_code(int rc);

/* Whether @p arg is -h or --help. */
int cli_is_help(const char *arg);

/* argv[*k] is @p flag ("--flag VALUE" or "--flag=VALUE"): sets *val (and
 * moves *k past the value) and returns 1; 0 when it is not; -1 (message
 * printed) when the value is missing. */
int cli_flag(int argc, char **argv, int *k, const char *flag, const char **val);

/* An operand: stored in the first empty one of @p count slots. An unknown
 * option or one operand too many prints a message and returns -1. */
int cli_operand(const char *arg, const char *verb, const char **slots, size_t count);

/* Strict number parsing: the whole string, in range. Return 0 or -1. */
int cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* 0 to 2^64 - 1, decimal digits after an optional '+'. */
int cli_parse_u64(const char *s, uint64_t *out);
/* A seed, 64 bits: 0 to 2^64 - 1, or -2^63 to -1 for the same bits
 * (2^64 + value); *out holds the bits. */
int cli_parse_seed(const char *s, int64_t *out);
/* A finite number. */
int cli_parse_double(const char *s, double *out);

/* An input file read whole ("-" is standard input). */
typedef struct cli_input {
	const char *path; /* as given */
	const char *name; /* for messages: the path, or "(standard input)" */
	char *text;
	size_t length;
} cli_input;

/* What an input holds, decided by its content: a qbsolv model starts (after
 * blank lines) with a 'c' comment line or its 'p qubo' header; anything
 * else is read as a puzzle, whose header is a family word ("queens 8"). */
enum { CLI_KIND_MODEL = 1, CLI_KIND_PUZZLE = 2 };

/* Limits on what an input may cost, set by --max-input,
 * --max-input-variables and --max-input-couplers (every verb that reads an
 * input takes them); 0 means the default (the library's for the counts). */
typedef struct cli_limits {
	size_t max_input;     /* bytes read of one input */
	size_t max_variables; /* a model's maxNodes, a puzzle board's cells */
	size_t max_couplers;  /* a model's nCouplers, a board's estimate */
} cli_limits;

#define CLI_DEFAULT_MAX_INPUT ((size_t)256 << 20)

extern cli_limits cli_input_limits;
/* The options' lines for the verbs' --help. */
extern const char cli_limits_help[];

/* Whether @p flag (without "=VALUE") is one of the limit options. */
int cli_is_limit_flag(const char *flag);
/* Sets the limit of @p flag from @p val; -1 (message printed) when @p val
 * is not a count. */
int cli_limit_option(const char *flag, const char *val);
/* argv[*k] is a limit option: as cli_flag(), and the value is stored. */
int cli_limit_flag(int argc, char **argv, int *k);

/* Reads the input; on failure prints why and returns CLI_IO, or
 * CLI_TOO_LARGE when it is larger than the --max-input limit (a stream is
 * abandoned one byte past it). */
int cli_input_read(cli_input *in, const char *path);
/* As cli_input_read(), for a solution file: an input beyond the limit is
 * not parsed as a puzzle to look for an earlier error. */
int cli_input_read_solution(cli_input *in, const char *path);
void cli_input_free(cli_input *in);
int cli_input_kind(const cli_input *in);

/* Parses a .qubo model from an input read by cli_input_read(). */
int cli_input_model(const cli_input *in, qubo_model **out);

/* Reads a .qubo model from path ("-" is standard input). On failure prints
 * the reason and returns the exit code to use. */
int cli_read_model(const char *path, qubo_model **out);

/* Parses a puzzle from an input; on failure prints the reason (with the
 * position) and returns the exit code (CLI_PARSE, CLI_INFEASIBLE, ...).
 * Ctrl-C stops the build: a message, and CLI_FAILURE. */
int cli_input_puzzle(const cli_input *in, int32_t reduce, qubo_puzzle **out);
/* The same, showing progress on stderr for builds over a second (unless
 * @p quiet) and stopping at Ctrl-C or at @p deadline seconds of cli_now()
 * (0: none): a stopped build prints its `status:` line (unless @p quiet)
 * and a message, and returns CLI_FAILURE. */
int cli_build_puzzle(const cli_input *in, int32_t reduce, double deadline, int quiet,
		     qubo_puzzle **out);

/* Fills *st with the puzzle's statistics and returns its number of cells. */
size_t cli_puzzle_stats(const qubo_puzzle *p, qubo_puzzle_stats *st);

/* The header line of a puzzle input (its first line that is neither blank
 * nor a '#' comment), copied into @p buf without its line end. */
void cli_input_header(const cli_input *in, char *buf, size_t size);

/* Seconds on a monotonic clock, from the program's start. */
double cli_now(void);

/* Writes a double with the fewest digits that read back to the same value. */
void cli_format_energy(char *buf, size_t size, double e);

/* Prints samples one per line as "<energy> <count> <bits>", lowest first. */
int cli_print_samples(const qubo_sampleset *set);

/* Standard output carries the results. Every write to it is checked:
 * cli_flush_stdout() flushes it and returns CLI_IO when a write failed,
 * then or before (a closed descriptor, a full disk, a pipe whose reader has
 * gone), reporting the failure once ("qubo: cannot write to standard
 * output: REASON"), however often it is called; CLI_OK otherwise.
 * cli_write_stdout() writes all of @p text first. main() ends with
 * cli_finish(), so that no verb's output goes unchecked (--help included). */
int cli_flush_stdout(void);
int cli_write_stdout(const char *text, size_t length);
/* The exit status of a run that ended with @p code: CLI_IO if standard
 * output could not be written, else @p code. */
int cli_finish(int code);

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
/* Ctrl-C was pressed since cli_progress_init(). */
int cli_interrupted(void);

/* ---- qubo solve ---- */

#define CLI_MAX_OPTIONS 64

/* One option to set on the solver, in command-line order. */
typedef struct cli_solve_option {
	const char *flag; /* as typed, for messages */
	const char *key;
	int32_t type;
	int64_t i;
	double d;
	const char *s;
} cli_solve_option;

typedef struct cli_solve_args {
	const char *solver;
	int solver_given;
	const char *path;
	int stats, quiet;
	int64_t top; /* -1: print all */
	int32_t reduce;
	int reduce_given;
	/* puzzles: the values given on the command line (-1: not given) */
	int64_t reads, sweeps, threads;
	int64_t seed;
	int seed_given;
	double time_limit; /* < 0: not given */
	cli_solve_option opts[CLI_MAX_OPTIONS];
	size_t num_opts;
	char keys[CLI_MAX_OPTIONS][65]; /* keys given with --set */
} cli_solve_args;

/* Sets the options of @p a on @p s (in command-line order). */
int cli_apply_options(qubo_solver *s, const cli_solve_args *a);

/* Solves a puzzle input (solve_puzzle.c). */
int cli_solve_puzzle(const cli_solve_args *a, const cli_input *in);

#endif /* QUBO_CLI_H */
