/*
 * Solving and counting a puzzle with the library alone: parse a LinkedIn
 * Queens board, solve it with the default strategy, confirm the board with
 * the rule checker, print it, and count its solutions (stopping at 2, which
 * is enough to know it is unique).
 *
 *   cc puzzle.c $(pkg-config --cflags --libs libqubo-puzzle)
 */
#include <stdio.h>
#include <string.h>

#include <qubo.h>
#include <qubo/puzzle.h>

static const char text[] = "queens 6\n"
			   "aaabbb\n"
			   "acccdb\n"
			   "acedd.\n"
			   "ffeddd\n"
			   "ffeeed\n"
			   "fffffd\n";

int main(void)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_count_options co = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_result r = QUBO_PUZZLE_RESULT_INIT;
	qubo_puzzle_count_result c = QUBO_PUZZLE_COUNT_RESULT_INIT;
	uint8_t board[36];
	char out[256];
	size_t len = 0, violations = 1;
	int rc;

	o.time_limit = 10;
	co.limit = 2;
	rc = qubo_puzzle_parse(&p, text, sizeof text - 1, NULL);
	if (!rc)
		rc = qubo_puzzle_solve(p, &o, board, sizeof board, &r);
	if (rc < 0 || r.verdict != QUBO_PUZZLE_SOLVED) {
		fprintf(stderr, "puzzle: %s (verdict %d)\n", qubo_error_message(), r.verdict);
		qubo_puzzle_free(p);
		return 1;
	}
	rc = qubo_puzzle_check(p, board, sizeof board, NULL, 0, &violations);
	if (!rc)
		rc = qubo_puzzle_format_solution(p, board, sizeof board, out, sizeof out, &len);
	if (!rc)
		rc = qubo_puzzle_count(p, &co, &c);
	if (rc < 0 || violations) {
		fprintf(stderr, "puzzle: %s\n", qubo_error_message());
		qubo_puzzle_free(p);
		return 1;
	}
	printf("%s", out);
	printf("solved by %s in %.3f ms; %s\n", r.method, r.seconds * 1e3,
	       c.count == 1 && c.complete ? "the solution is unique" : "not unique");
	qubo_puzzle_free(p);
	return c.count == 1 && c.complete ? 0 : 1;
}
