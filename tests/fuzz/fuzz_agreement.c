/*
 * libFuzzer target for the agreement of the three ways to an answer, on
 * puzzles of at most 36 cells read from the input: the family's exact
 * search (qubo_puzzle_solve, #QUBO_PUZZLE_STRATEGY_SEARCH), the counts by
 * enumeration of the model's states and by search (qubo_puzzle_count), and
 * the default solve.
 *
 * A board that a solve or the search returns is accepted by the checker;
 * the two counts are equal when both complete; a feasibility puzzle has a
 * count of at least 1 exactly when the search finds a board, and a solve
 * that proves it infeasible has a count of 0; a unique solution is the
 * board of the search, of the solve and of the enumeration alike. For the
 * optimisation families the counts are of the optimal boards, whose energy
 * is the search's. Every call runs on one thread with a time limit; one
 * that stops leaves nothing to compare.
 */
#define FUZZ_NAME "fuzz_agreement"
#include "fuzz_common.h"

#define LIMIT 2.0 /* seconds for each solve and count */

/* The first board a count reports, and how many. */
typedef struct seen {
	uint8_t board[36];
	size_t cells;
	uint64_t n;
} seen;

static int on_solution(const uint8_t *board, size_t length, void *user_data)
{
	seen *s = user_data;

	check(length == s->cells, "a counted board of another size");
	if (s->n++ == 0)
		memcpy(s->board, board, length);
	return 0;
}

static int valid(const qubo_puzzle *p, const uint8_t *board, size_t cells)
{
	size_t viol = 1;

	check(qubo_puzzle_check(p, board, cells, NULL, 0, &viol) == QUBO_OK, "check");
	return viol == 0;
}

/* A solve with the strategy; 0 when it stopped. */
static int solve(const qubo_puzzle *p, int32_t strategy, uint8_t *board, size_t cells,
		 qubo_puzzle_result *r)
{
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result z = QUBO_PUZZLE_RESULT_INIT;
	int rc;

	o.strategy = strategy;
	o.threads = 1;
	o.seed = 1;
	o.time_limit = LIMIT;
	*r = z;
	rc = qubo_puzzle_solve(p, &o, board, cells, r);
	if (rc == QUBO_TIME_LIMIT || rc == QUBO_ERR_NOMEM)
		return 0;
	check(rc == QUBO_OK, "a solve failed");
	if (r->has_board && r->verdict != QUBO_PUZZLE_STOPPED &&
	    r->verdict != QUBO_PUZZLE_NOT_FOUND)
		check(valid(p, board, cells), "a solve returned a board the checker refuses");
	return 1;
}

/* A complete count by the method; 0 when it stopped or cannot run. */
static int count(const qubo_puzzle *p, int32_t method, seen *s, qubo_puzzle_count_result *r)
{
	qubo_puzzle_count_options o = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result z = QUBO_PUZZLE_COUNT_RESULT_INIT;
	int rc;

	o.method = method;
	o.threads = 1;
	o.time_limit = LIMIT;
	o.max_variables = 20;
	o.on_solution = on_solution;
	o.user_data = s;
	s->n = 0;
	*r = z;
	rc = qubo_puzzle_count(p, &o, r);
	if (rc == QUBO_TIME_LIMIT || rc == QUBO_ERR_TOO_LARGE || rc == QUBO_ERR_NOMEM)
		return 0;
	check(rc == QUBO_OK && r->complete, "a count failed");
	check(r->count == s->n, "a count that differs from the boards it reported");
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	qubo_puzzle_options o = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle_stats st = QUBO_PUZZLE_STATS_INIT;
	qubo_puzzle_result rs, rv;
	qubo_puzzle_count_result ce, cs;
	uint8_t sboard[36], vboard[36];
	seen se, ss;
	qubo_puzzle *p = NULL;
	size_t cells;
	int opt, fam, enumerated;

	o.allocator = &fuzz_alloc;
	o.max_cells = 36;
	o.time_limit = FUZZ_BUILD_LIMIT;
	if (qubo_puzzle_parse(&p, (const char *)data, size, &o) != QUBO_OK)
		return 0; /* fuzz_puzzle looks at puzzles */
	check(qubo_puzzle_get_stats(p, &st) == QUBO_OK, "stats");
	cells = st.width * st.height;
	se.cells = ss.cells = cells;
	fam = qubo_puzzle_family(p);
	opt = fam == QUBO_PUZZLE_DOMINATION || fam == QUBO_PUZZLE_CHESS_MAX;
	if (!solve(p, QUBO_PUZZLE_STRATEGY_SEARCH, sboard, cells, &rs) ||
	    !count(p, QUBO_PUZZLE_COUNT_SEARCH, &ss, &cs) ||
	    !solve(p, QUBO_PUZZLE_STRATEGY_AUTO, vboard, cells, &rv)) {
		qubo_puzzle_free(p);
		return 0;
	}
	enumerated = count(p, QUBO_PUZZLE_COUNT_ENUMERATE, &se, &ce);
	if (enumerated)
		check(ce.count == cs.count, "enumeration and search count differently");
	if (opt) {
		check(rs.verdict == QUBO_PUZZLE_OPTIMAL && rs.has_board && rs.has_energy,
		      "the search of an optimisation puzzle ended without an optimum");
		check(cs.count >= 1 && cs.optimal_only, "no optimal board counted");
		check(cs.energy == rs.energy, "the count's optimum differs from the search's");
		if (rv.verdict == QUBO_PUZZLE_OPTIMAL)
			check(rv.has_energy && rv.energy == rs.energy,
			      "a proven optimum that is not the search's");
		if (rv.has_energy)
			check(rv.energy >= rs.energy, "a solve below the proven optimum");
	} else {
		check(rs.verdict == QUBO_PUZZLE_SOLVED || rs.verdict == QUBO_PUZZLE_INFEASIBLE,
		      "the search ended without a verdict");
		check((cs.count >= 1) == (rs.verdict == QUBO_PUZZLE_SOLVED),
		      "the count and the search disagree on whether there is a solution");
		check(rv.verdict != QUBO_PUZZLE_SOLVED || cs.count >= 1,
		      "a solve solved a puzzle with no solution");
		check(rv.verdict != QUBO_PUZZLE_INFEASIBLE || cs.count == 0,
		      "a solve proved infeasible a puzzle with a solution");
	}
	if (cs.count == 1) {
		check(memcmp(ss.board, sboard, cells) == 0, "the search found another board");
		if (rv.verdict == QUBO_PUZZLE_SOLVED || rv.verdict == QUBO_PUZZLE_OPTIMAL)
			check(memcmp(vboard, sboard, cells) == 0,
			      "the solve and the search found different unique boards");
		if (enumerated)
			check(memcmp(se.board, sboard, cells) == 0,
			      "the enumeration found another unique board");
	}
	qubo_puzzle_free(p);
	return 0;
}
