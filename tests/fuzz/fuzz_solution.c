/*
 * libFuzzer target for solution files: the input is a puzzle text, a byte
 * 0, then a solution text for it; an input without a byte 0 is a solution
 * for one of the puzzles below, chosen by its first byte (the rest is the
 * solution). Puzzles of more than 256 cells are refused by the options.
 *
 * qubo_puzzle_parse_solution() returns a status with a message, and a
 * parse error names a line and column inside the solution text; a board
 * too small for the puzzle is refused. A board read is judged by the
 * checker (its report always fits and is terminated), formatted as a
 * solution that parses back to the same board, which the checker judges
 * the same.
 */
#define FUZZ_NAME "fuzz_solution"
#include "fuzz_common.h"

static const char *const puzzles[] = {
	"queens 4\naabb\nacbB\ndccb\nddc.\n",
	"nqueens 5 torus\n",
	"nqueens 4\n....\n..#.\nQ...\n....\n",
	("chess 5x4 coloured\npiece A 1,2 2,1 -1,2*\nKNKKk\nA.ABQ\nNNQAQ\nNNQNN\n\naabbc\n"
	 "aabcc\nddbc.\nddeee\n"),
	"chess 4 max\nQRBN\nK..Q\nQQQQ\nNNNN\n",
	"domination 5x3 king\n.....\n..#..\n.....\n",
	"takuzu 6\n1..0..\n......\n.1....\n...0.1\n......\n0.....\n",
	"takuzu 4x2 nounique\n1...\n..0.\n",
	"tango 4\n0=.x. .\n\n. . . .\n\n. . . .\n\n. . . .\n",
	"tents 4\ncols 1 0 1 0\nrows 1 0 0 1\n.T..\n....\n..T.\n....\n",
	"8x8:a_belefdfdaf_,3,0,2,2,1,1,1,2,3,0,2,1,2,0,4,0\n",
	"8x8u:cJABBgIdbBBCEBBGb\n",
};
#define NPUZZLES (sizeof puzzles / sizeof puzzles[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *ptext, *sol, *nul = memchr(data, 0, size);
	size_t plen, slen, cells, viol = 0, viol2 = 0, len = 0;
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle_stats st = QUBO_PUZZLE_STATS_INIT;
	qubo_puzzle *p = NULL;
	uint8_t *board, *back;
	char report[200], *text;
	int rc;

	if (nul) {
		ptext = (const char *)data;
		plen = (size_t)(nul - (const char *)data);
		sol = nul + 1;
		slen = size - plen - 1;
	} else {
		if (size == 0)
			return 0;
		ptext = puzzles[data[0] % NPUZZLES];
		plen = strlen(ptext);
		sol = (const char *)data + 1;
		slen = size - 1;
	}
	o.allocator = &fuzz_alloc;
	o.max_cells = 256;
	o.time_limit = FUZZ_BUILD_LIMIT;
	if (qubo_puzzle_parse(&p, ptext, plen, &o) != QUBO_OK)
		return 0; /* fuzz_puzzle looks at puzzles */
	check(qubo_puzzle_get_stats(p, &st) == QUBO_OK, "stats");
	cells = st.width * st.height;
	board = malloc(cells + 1);
	back = malloc(cells + 1);
	check(board && back, "malloc");
	if (cells)
		check(qubo_puzzle_parse_solution(p, sol, slen, board, cells - 1) ==
			      QUBO_ERR_BUFFER_TOO_SMALL,
		      "a board too small accepted");
	rc = qubo_puzzle_parse_solution(p, sol, slen, board, cells);
	if (rc != QUBO_OK) {
		check_failure(rc);
		check(rc == QUBO_ERR_PARSE, "parse_solution: a status other than a parse error");
		check_position(sol, slen);
		goto out;
	}
	memset(report, 'x', sizeof report);
	check(qubo_puzzle_check(p, board, cells, report, sizeof report, &viol) == QUBO_OK, "check");
	check(memchr(report, 0, sizeof report) != NULL, "a report without its end");
	check(qubo_puzzle_format_solution(p, board, cells, NULL, 0, &len) == QUBO_OK, "size query");
	text = malloc(len + 1);
	check(text != NULL, "malloc");
	check(qubo_puzzle_format_solution(p, board, cells, text, len + 1, &len) == QUBO_OK,
	      "format_solution");
	check(qubo_puzzle_parse_solution(p, text, len, back, cells) == QUBO_OK,
	      "a formatted solution does not parse");
	check(memcmp(board, back, cells) == 0, "a solution's round trip gives another board");
	check(qubo_puzzle_check(p, back, cells, NULL, 0, &viol2) == QUBO_OK && viol2 == viol,
	      "the round trip changed the checker's verdict");
	free(text);
out:
	free(board);
	free(back);
	qubo_puzzle_free(p);
	return 0;
}
