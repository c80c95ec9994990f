/*
 * Prints the layout of the versioned structs of qubo/solver.h and
 * qubo/puzzle.h as the C compiler sees it, for test_ctypes.py to compare with
 * its ctypes Structures: one line per struct ("struct NAME SIZEOF SIZE_V1",
 * followed by SIZE_V2 for a struct with a second layout) followed by one line
 * per field ("field NAME OFFSET SIZE").
 */
#include <stddef.h>
#include <stdio.h>

#include <qubo/puzzle.h>
#include <qubo/solver.h>

#define STRUCT(type, v1) printf("struct %s %zu %zu\n", #type, sizeof(type), (size_t)(v1))
#define STRUCT2(type, v1, v2) \
	printf("struct %s %zu %zu %zu\n", #type, sizeof(type), (size_t)(v1), (size_t)(v2))
#define FIELD(type, name) \
	printf("field %s %zu %zu\n", #name, offsetof(type, name), sizeof(((type *)0)->name))

int main(void)
{
	STRUCT2(qubo_sample_info, QUBO_SAMPLE_INFO_SIZE_V1, QUBO_SAMPLE_INFO_SIZE_V2);
	FIELD(qubo_sample_info, struct_size);
	FIELD(qubo_sample_info, status);
	FIELD(qubo_sample_info, reached_target);
	FIELD(qubo_sample_info, seconds);
	FIELD(qubo_sample_info, num_samples);
	FIELD(qubo_sample_info, flip_attempts);
	FIELD(qubo_sample_info, num_ground_states);
	FIELD(qubo_sample_info, seed);
	FIELD(qubo_sample_info, expectation);
	FIELD(qubo_sample_info, lowest_probability);
	FIELD(qubo_sample_info, has_expectation);

	STRUCT(qubo_puzzle_cell, QUBO_PUZZLE_CELL_SIZE_V1);
	FIELD(qubo_puzzle_cell, struct_size);
	FIELD(qubo_puzzle_cell, on_board);
	FIELD(qubo_puzzle_cell, region);
	FIELD(qubo_puzzle_cell, given);
	FIELD(qubo_puzzle_cell, piece);
	FIELD(qubo_puzzle_cell, literal);

	STRUCT(qubo_puzzle_progress, sizeof(qubo_puzzle_progress));
	FIELD(qubo_puzzle_progress, struct_size);
	FIELD(qubo_puzzle_progress, phase);
	FIELD(qubo_puzzle_progress, rounds);
	FIELD(qubo_puzzle_progress, reads);
	FIELD(qubo_puzzle_progress, sweeps);
	FIELD(qubo_puzzle_progress, nodes);
	FIELD(qubo_puzzle_progress, solutions);
	FIELD(qubo_puzzle_progress, best_energy);
	FIELD(qubo_puzzle_progress, has_best);
	FIELD(qubo_puzzle_progress, has_target);
	FIELD(qubo_puzzle_progress, target_energy);
	FIELD(qubo_puzzle_progress, seconds);

	STRUCT(qubo_puzzle_options, QUBO_PUZZLE_OPTIONS_SIZE_V1);
	FIELD(qubo_puzzle_options, struct_size);
	FIELD(qubo_puzzle_options, reduce);
	FIELD(qubo_puzzle_options, penalty);
	FIELD(qubo_puzzle_options, drop_region);
	FIELD(qubo_puzzle_options, allocator);
	FIELD(qubo_puzzle_options, max_input_bytes);
	FIELD(qubo_puzzle_options, max_cells);
	FIELD(qubo_puzzle_options, max_couplers);
	FIELD(qubo_puzzle_options, time_limit);
	FIELD(qubo_puzzle_options, progress);
	FIELD(qubo_puzzle_options, progress_data);

	STRUCT(qubo_puzzle_solve_options, QUBO_PUZZLE_SOLVE_OPTIONS_SIZE_V1);
	FIELD(qubo_puzzle_solve_options, struct_size);
	FIELD(qubo_puzzle_solve_options, strategy);
	FIELD(qubo_puzzle_solve_options, threads);
	FIELD(qubo_puzzle_solve_options, seed);
	FIELD(qubo_puzzle_solve_options, time_limit);
	FIELD(qubo_puzzle_solve_options, solver);
	FIELD(qubo_puzzle_solve_options, progress);
	FIELD(qubo_puzzle_solve_options, user_data);

	STRUCT(qubo_puzzle_result, QUBO_PUZZLE_RESULT_SIZE_V1);
	FIELD(qubo_puzzle_result, struct_size);
	FIELD(qubo_puzzle_result, verdict);
	FIELD(qubo_puzzle_result, has_board);
	FIELD(qubo_puzzle_result, has_energy);
	FIELD(qubo_puzzle_result, reserved);
	FIELD(qubo_puzzle_result, violations);
	FIELD(qubo_puzzle_result, energy);
	FIELD(qubo_puzzle_result, method);
	FIELD(qubo_puzzle_result, rounds);
	FIELD(qubo_puzzle_result, reads);
	FIELD(qubo_puzzle_result, sweeps_first);
	FIELD(qubo_puzzle_result, sweeps_last);
	FIELD(qubo_puzzle_result, seed);
	FIELD(qubo_puzzle_result, nodes);
	FIELD(qubo_puzzle_result, seconds);
	FIELD(qubo_puzzle_result, method_id);

	STRUCT(qubo_puzzle_count_options, QUBO_PUZZLE_COUNT_OPTIONS_SIZE_V1);
	FIELD(qubo_puzzle_count_options, struct_size);
	FIELD(qubo_puzzle_count_options, method);
	FIELD(qubo_puzzle_count_options, threads);
	FIELD(qubo_puzzle_count_options, limit);
	FIELD(qubo_puzzle_count_options, time_limit);
	FIELD(qubo_puzzle_count_options, max_variables);
	FIELD(qubo_puzzle_count_options, reserved);
	FIELD(qubo_puzzle_count_options, on_solution);
	FIELD(qubo_puzzle_count_options, progress);
	FIELD(qubo_puzzle_count_options, user_data);

	STRUCT(qubo_puzzle_count_result, QUBO_PUZZLE_COUNT_RESULT_SIZE_V1);
	FIELD(qubo_puzzle_count_result, struct_size);
	FIELD(qubo_puzzle_count_result, complete);
	FIELD(qubo_puzzle_count_result, optimal_only);
	FIELD(qubo_puzzle_count_result, count);
	FIELD(qubo_puzzle_count_result, energy);
	FIELD(qubo_puzzle_count_result, method);
	FIELD(qubo_puzzle_count_result, nodes);
	FIELD(qubo_puzzle_count_result, seconds);
	return 0;
}
