/*
 * `qubo render FILE [SOLUTION]`: a puzzle as a readable board, with its
 * solution's pieces when one is given. Queens boards show one letter per
 * region, coloured by region when standard output is a terminal; other
 * families are shown in their text layout. What each cell is (on the board,
 * its region, a pre-placed queen) comes from qubo_puzzle_get_cell(), never
 * from the puzzle's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Light 256-colour backgrounds, one per region letter. */
static const unsigned char palette[26] = {
	217, 153, 157, 229, 183, 216, 159, 250, 187, 151, 225, 195, 223,
	189, 194, 210, 117, 120, 228, 177, 215, 123, 248, 180, 114, 147,
};

static void render_usage(FILE *f)
{
	fprintf(f, "usage: qubo render [--color WHEN] PUZZLE [SOLUTION]\n"
		"\n"
		"Shows a puzzle as a board, with the pieces of SOLUTION (a solution file,\n"
		"or the grid alone) when given. A queens board shows each cell's region\n"
		"letter and 'Q' for a queen ('#' for a cell not on the board); on a\n"
		"terminal the regions are coloured. Either file may be '-' (standard\n"
		"input), as in 'qubo solve p.txt | qubo render p.txt -'. A solution that\n"
		"breaks a rule is still shown, with a note on standard error.\n"
		"\n"
		"options:\n"
		"  --color WHEN   auto (the default: colours when standard output is a\n"
		"                 terminal and NO_COLOR is not set), always or never\n"
		"  -h, --help     this help\n"
		"\n%s\n%s", cli_limits_help, cli_exit_help);
}

static int render_queens(const qubo_puzzle *p, const char *text, const uint8_t *board,
			 size_t width, size_t height, int colour)
{
	const char *nl = strchr(text, '\n');
	size_t r, c;

	printf("%.*s\n", nl ? (int)(nl - text) : (int)strlen(text), text);
	for (r = 0; r < height; r++) {
		for (c = 0; c < width; c++) {
			qubo_puzzle_cell cell;
			int queen, region, off, rc;
			char shown;
			int bg;

			memset(&cell, 0, sizeof cell);
			cell.struct_size = sizeof cell;
			rc = qubo_puzzle_get_cell(p, (uint32_t)r, (uint32_t)c, &cell);
			if (rc)
				return cli_report("the board", rc);
			queen = board ? board[r * width + c] != 0 : cell.given == 1;
			region = cell.region;
			off = !cell.on_board;
			shown = off ? '#' : queen ? 'Q' : region >= 0 ? (char)('a' + region % 26) : '.';
			if (!colour) {
				printf("%s%c", c ? " " : "", shown);
				continue;
			}
			if (off) {
				fputs("   ", stdout);
				continue;
			}
			/* regions in their colours; without regions a chessboard */
			bg = region >= 0 ? palette[region % 26] : (r + c) % 2 ? 250 : 255;
			if (queen)
				printf("\033[48;5;%dm\033[38;5;16m\033[1m Q \033[0m", bg);
			else
				printf("\033[48;5;%dm\033[38;5;240m %c \033[0m", bg,
				       region >= 0 ? shown : ' ');
		}
		putchar('\n');
	}
	return cli_flush_stdout();
}

/* Other families: their solution layout, or the puzzle's own text. */
static int render_text(const qubo_puzzle *p, const char *text, const uint8_t *board,
		       size_t cells)
{
	size_t len = 0;
	char *buf;
	int rc;

	if (!board)
		return cli_write_stdout(text, strlen(text));
	qubo_puzzle_format_solution(p, board, cells, NULL, 0, &len);
	buf = malloc(len + 1);
	if (!buf) {
		cli_error("out of memory");
		return CLI_FAILURE;
	}
	rc = qubo_puzzle_format_solution(p, board, cells, buf, len + 1, &len);
	rc = rc ? cli_report("the solution", rc) : cli_write_stdout(buf, len);
	free(buf);
	return rc;
}

static int want_colour(const char *when)
{
	const char *no = getenv("NO_COLOR");

	if (!strcmp(when, "always"))
		return 1;
	if (!strcmp(when, "never"))
		return 0;
	return isatty(STDOUT_FILENO) && !(no && *no);
}

int cli_render(int argc, char **argv)
{
	const char *paths[2] = { NULL, NULL }, *when = "auto", *val;
	cli_input pin, sin;
	qubo_puzzle *p = NULL;
	qubo_puzzle_stats st;
	uint8_t *board = NULL;
	char *text = NULL;
	size_t cells, len = 0, violations = 0;
	int k, rc, code, family;

	memset(&sin, 0, sizeof sin);
	for (k = 1; k < argc; k++) {
		if (cli_is_help(argv[k])) {
			render_usage(stdout);
			return CLI_OK;
		}
		if ((rc = cli_flag(argc, argv, &k, "--color", &val)) != 0 ||
		    (rc = cli_flag(argc, argv, &k, "--colour", &val)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
			if (strcmp(val, "auto") && strcmp(val, "always") && strcmp(val, "never")) {
				cli_error("--color: '%s' is not auto, always or never", val);
				return CLI_USAGE;
			}
			when = val;
		} else if ((rc = cli_limit_flag(argc, argv, &k)) != 0) {
			if (rc < 0)
				return CLI_USAGE;
		} else if (cli_operand(argv[k], "render", paths, 2)) {
			return CLI_USAGE;
		}
	}
	if (!paths[0]) {
		cli_error("no puzzle given (try 'qubo render --help')");
		return CLI_USAGE;
	}
	if (paths[1] && !strcmp(paths[0], "-") && !strcmp(paths[1], "-")) {
		cli_error("only one of the puzzle and the solution can be standard input");
		return CLI_USAGE;
	}
	code = cli_input_read(&pin, paths[0]);
	if (code)
		return code;
	if (paths[1] && (code = cli_input_read_solution(&sin, paths[1])) != 0)
		goto out;
	if (cli_input_kind(&pin) == CLI_KIND_MODEL) {
		cli_error("%s is a QUBO model, not a puzzle", pin.name);
		code = CLI_USAGE;
		goto out;
	}
	code = cli_input_puzzle(&pin, QUBO_REDUCE_NONE, &p);
	if (code)
		goto out;
	cells = cli_puzzle_stats(p, &st);
	qubo_puzzle_format(p, NULL, 0, &len);
	text = malloc(len + 1);
	board = malloc(cells ? cells : 1);
	if (!text || !board) {
		cli_error("out of memory");
		code = CLI_FAILURE;
		goto out;
	}
	rc = qubo_puzzle_format(p, text, len + 1, &len);
	if (rc) {
		code = cli_report(pin.name, rc);
		goto out;
	}
	if (paths[1]) {
		rc = qubo_puzzle_parse_solution(p, sin.text, sin.length, board, cells);
		if (!rc)
			rc = qubo_puzzle_check(p, board, cells, NULL, 0, &violations);
		if (rc) {
			code = cli_report(sin.name, rc);
			if (code == CLI_USAGE)
				code = CLI_PARSE;
			goto out;
		}
	}
	family = qubo_puzzle_family(p);
	if (family == QUBO_PUZZLE_QUEENS || family == QUBO_PUZZLE_NQUEENS)
		code = render_queens(p, text, paths[1] ? board : NULL, st.width, st.height,
				     want_colour(when));
	else
		code = render_text(p, text, paths[1] ? board : NULL, cells);
	if (!code && violations)
		cli_error("note: the solution breaks %zu rule%s (see 'qubo verify')", violations,
			  violations == 1 ? "" : "s");
out:
	free(text);
	free(board);
	qubo_puzzle_free(p);
	cli_input_free(&pin);
	cli_input_free(&sin);
	return code;
}
