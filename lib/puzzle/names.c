/* The names of the puzzle layer's enums (qubo/puzzle.h): families, reduction
 * levels and a solve's methods, for programs and bindings that show or read
 * them. */
#include <string.h>

#include "puzzle_impl.h"

const char *qubo_puzzle_family_name(int family)
{
	switch (family) {
	case QUBO_PUZZLE_QUEENS:
		return "queens (LinkedIn Queens, Star Battle)";
	case QUBO_PUZZLE_NQUEENS:
		return "nqueens (N-Queens)";
	case QUBO_PUZZLE_GENERAL_QUEENS:
		return "generalised queens";
	case QUBO_PUZZLE_CHESS_COLOURED:
		return "coloured chess pieces";
	case QUBO_PUZZLE_CHESS_MAX:
		return "max chess pieces";
	case QUBO_PUZZLE_DOMINATION:
		return "dominating queens";
	case QUBO_PUZZLE_TENTS:
		return "tents (Tents & Trees)";
	case QUBO_PUZZLE_TAKUZU:
		return "takuzu (Takuzu, Binairo, Unruly)";
	case QUBO_PUZZLE_TANGO:
		return "tango (LinkedIn Tango)";
	default:
		return "unknown";
	}
}

static const struct {
	const char *name;
	int32_t value;
} reduce_levels[] = {
	{ "none", QUBO_REDUCE_NONE },
	{ "clues", QUBO_REDUCE_CLUES },
	{ "full", QUBO_REDUCE_FULL },
	{ "default", QUBO_REDUCE_DEFAULT },
};

const char *qubo_puzzle_reduce_name(int32_t reduce)
{
	size_t i;

	if (reduce == QUBO_REDUCE_DEFAULT)
		reduce = QUBO_REDUCE_FULL;
	for (i = 0; i < sizeof reduce_levels / sizeof reduce_levels[0]; i++)
		if (reduce_levels[i].value == reduce)
			return reduce_levels[i].name;
	return "unknown";
}

int qubo_puzzle_reduce_parse(const char *name, int32_t *reduce_out)
{
	static const char fn[] = "qubo_puzzle_reduce_parse";
	size_t i;

	if (!name)
		return qubo__null_arg(fn, "name");
	if (!reduce_out)
		return qubo__null_arg(fn, "reduce_out");
	for (i = 0; i < sizeof reduce_levels / sizeof reduce_levels[0]; i++) {
		if (!strcmp(name, reduce_levels[i].name)) {
			*reduce_out = reduce_levels[i].value;
			return QUBO_OK;
		}
	}
	return qubo__error(QUBO_ERR_INVALID_ARG,
			   "%s: '%.40s' is not a reduction level (none, clues, full or default)",
			   fn, name);
}

const char *qubo_puzzle_method_name(int method)
{
	static const char *const names[] = {
		[QUBO_PUZZLE_METHOD_NONE] = "none",
		[QUBO_PUZZLE_METHOD_REDUCTION] = "reduction",
		[QUBO_PUZZLE_METHOD_BRANCH_AND_REDUCE] = "branch_and_reduce",
		[QUBO_PUZZLE_METHOD_BRANCH_AND_BOUND] = "branch_and_bound",
		[QUBO_PUZZLE_METHOD_EXHAUSTIVE] = "exhaustive",
		[QUBO_PUZZLE_METHOD_SOLVER] = "solver",
		[QUBO_PUZZLE_METHOD_OTHER_SOLVER] = "other_solver",
		[QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_REDUCE] =
			"sampling_then_branch_and_reduce",
		[QUBO_PUZZLE_METHOD_SAMPLING_THEN_EXHAUSTIVE] = "sampling_then_exhaustive",
		[QUBO_PUZZLE_METHOD_SAMPLING_THEN_BRANCH_AND_BOUND] =
			"sampling_then_branch_and_bound",
	};

	if (method < 0 || (size_t)method >= sizeof names / sizeof names[0])
		return "unknown";
	return names[method];
}
