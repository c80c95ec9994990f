/* Every *_INIT macro of the public headers initialises its struct with no
 * warning under -Wall -Wextra -Werror (-Wmissing-field-initializers among
 * them), as C99 and as C++11: a macro with a missing or an extra field fails
 * to compile. tests/meta/meson.build compiles it (suite 'meta'); the
 * structs suites check the values. */
#include <qubo.h>
#include <qubo/puzzle.h>
#include <qubo/puzzle/binary.h>
#include <qubo/puzzle/chess.h>
#include <qubo/puzzle/queens.h>
#include <qubo/puzzle/tents.h>

size_t qubo_meta_init_macros(void);

size_t qubo_meta_init_macros(void)
{
	qubo_model_stats model_stats = QUBO_MODEL_STATS_INIT;
	qubo_sample_info sample_info = QUBO_SAMPLE_INFO_INIT;
	qubo_puzzle_options options = QUBO_PUZZLE_OPTIONS_INIT;
	qubo_puzzle_stats puzzle_stats = QUBO_PUZZLE_STATS_INIT;
	qubo_puzzle_cell cell = QUBO_PUZZLE_CELL_INIT;
	qubo_puzzle_solve_options solve_options = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result result = QUBO_PUZZLE_RESULT_INIT;
	qubo_puzzle_count_options count_options = QUBO_PUZZLE_COUNT_OPTIONS_INIT;
	qubo_puzzle_count_result count_result = QUBO_PUZZLE_COUNT_RESULT_INIT;
	qubo_puzzle_queens_spec queens = QUBO_PUZZLE_QUEENS_SPEC_INIT;
	qubo_puzzle_chess_spec chess = QUBO_PUZZLE_CHESS_SPEC_INIT;
	qubo_puzzle_domination_spec domination = QUBO_PUZZLE_DOMINATION_SPEC_INIT;
	qubo_puzzle_binary_spec binary = QUBO_PUZZLE_BINARY_SPEC_INIT;
	qubo_puzzle_tents_spec tents = QUBO_PUZZLE_TENTS_SPEC_INIT;

	return model_stats.struct_size + sample_info.struct_size + options.struct_size +
	       puzzle_stats.struct_size + cell.struct_size + solve_options.struct_size +
	       result.struct_size + count_options.struct_size + count_result.struct_size +
	       queens.struct_size + chess.struct_size + domination.struct_size +
	       binary.struct_size + tents.struct_size;
}
