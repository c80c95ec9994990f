/*
 * The tutorial (doc/tutorial.md) as a program: a LinkedIn Queens puzzle
 * becomes a QUBO, a solver samples it, and the lowest sample becomes the
 * board, checked by the library's rule checker and printed.
 *
 *   cc tutorial.c $(pkg-config --cflags --libs libqubo-puzzle) -o tutorial
 *   ./tutorial examples/puzzles/queens8.txt
 *
 * Every call returns a status: negative is an error, explained by
 * qubo_error_message(); positive (QUBO_CANCELLED, QUBO_TIME_LIMIT) is a
 * run that stopped early with what it found.
 */
#include <stdio.h>
#include <stdlib.h>

#include <qubo.h>
#include <qubo/puzzle.h>

static int fail(const char *what)
{
	fprintf(stderr, "tutorial: %s: %s\n", what, qubo_error_message());
	return 1;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "examples/puzzles/queens8.txt";
	qubo_puzzle_options options = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle *puzzle = NULL;
	const qubo_model *model = NULL;
	qubo_solver *solver = NULL;
	qubo_sampleset *samples = NULL;
	qubo_puzzle_stats ps = QUBO_PUZZLE_STATS_INIT;
	qubo_model_stats ms = QUBO_MODEL_STATS_INIT;
	uint8_t *sample = NULL, *board = NULL;
	char *text = NULL;
	size_t n, cells, len = 0, violations = 0;
	double energy, ground;
	int rc = 1;

	/* 1. The puzzle: parsed and turned into its QUBO model in one call.
	 *    By default the library first fixes every cell the rules decide,
	 *    which solves this puzzle outright; the tutorial keeps every cell
	 *    a variable, to give the solver the whole problem. */
	options.reduce = QUBO_REDUCE_NONE;
	if (qubo_puzzle_parse_file(&puzzle, path, &options) < 0)
		return fail(path);
	if (qubo_puzzle_get_stats(puzzle, &ps) < 0)
		goto out;
	cells = ps.width * ps.height;
	printf("%zu x %zu board, %zu cells fixed by the reduction\n", ps.width, ps.height,
	       ps.cells_fixed);

	/* 2. The QUBO: borrowed from the puzzle, already compiled. Its
	 *    solutions all have the ground energy. */
	if (qubo_puzzle_model(puzzle, &model) < 0 || qubo_model_get_stats(model, &ms) < 0 ||
	    qubo_puzzle_ground_energy(puzzle, &ground) < 0)
		goto out;
	n = ms.num_variables;
	printf("QUBO: %zu variables, %zu couplers, ground energy %g\n", n, ms.num_couplers,
	       ground);

	/* 3. A solver: simulated annealing, 64 reads, a fixed seed so that
	 *    every run gives the same samples. */
	if (qubo_solver_new(&solver, "sa", NULL) < 0 ||
	    qubo_solver_set_int(solver, QUBO_PARAM_NUM_READS, 64) < 0 ||
	    qubo_solver_set_int(solver, QUBO_PARAM_SEED, 1) < 0 ||
	    qubo_solver_sample(&samples, solver, model) < 0)
		goto out;
	sample = malloc(n ? n : 1);
	board = malloc(cells);
	if (!sample || !board)
		goto out;
	if (qubo_sampleset_lowest(samples, sample, n, &energy) < 0)
		goto out;
	printf("lowest energy found: %g (%s)\n", energy,
	       energy <= ground ? "a solution" : "not a solution");

	/* 4. The board: the sample decoded cell by cell, checked against the
	 *    puzzle's rules (not the model), and printed in the solution
	 *    format. Capacity 0 asks for the text's length. */
	if (qubo_puzzle_decode(puzzle, sample, n, board, cells) < 0 ||
	    qubo_puzzle_check(puzzle, board, cells, NULL, 0, &violations) < 0 ||
	    qubo_puzzle_format_solution(puzzle, board, cells, NULL, 0, &len) < 0)
		goto out;
	text = malloc(len + 1);
	if (!text || qubo_puzzle_format_solution(puzzle, board, cells, text, len + 1, &len) < 0)
		goto out;
	printf("%s", text);
	if (violations) {
		fprintf(stderr, "tutorial: the board breaks %zu rules\n", violations);
		rc = 2;
	} else {
		printf("the board keeps every rule\n");
		rc = 0;
	}
out:
	if (rc == 1)
		fail(path);
	free(text);
	free(board);
	free(sample);
	qubo_sampleset_free(samples);
	qubo_solver_free(solver);
	qubo_puzzle_free(puzzle);
	return rc;
}
