"""libqubo and libqubo-puzzle from Python, through ctypes (standard library only).

It covers a useful subset of the C API: models (with the qbsolv format, in
memory and in files), the penalty "exactly k", built-in solvers (options of
any type, progress callbacks), sample sets, the QAOA simulator (Qaoa,
qasm()), puzzles (from text or a file, with the library's own solve and
count, and the cells of a board), and solver backends written in Python and
plugged into the library through qubo_backend_vtable.

    import qubo
    with qubo.Model(3) as m:
        m.add_linear(0, -1.0)
        m.add_quadratic(0, 1, 2.0)
        m.compile()
        with qubo.Solver("exhaustive") as s, s.sample(m) as samples:
            print(samples.lowest())

The libraries are loaded at the first call that needs them, or by load().
An installed package knows where `meson install` put them (qubo/_config.py,
written at configure time) and loads them from there by absolute path;
load() tells where else to look.

Every C function used here is declared with its exact argtypes and restype,
and the structs (qubo_sample_info, qubo_progress, qubo_puzzle_options,
qubo_puzzle_stats, qubo_puzzle_cell, qubo_puzzle_progress,
qubo_puzzle_solve_options, qubo_puzzle_result, qubo_puzzle_count_options,
qubo_puzzle_count_result, qubo_backend_vtable) mirror the headers field by
field, struct_size first. A negative status raises QuboError, which carries
the status, qubo_status_name() and qubo_error_message(). Positive statuses
(QUBO_CANCELLED, QUBO_TIME_LIMIT) are successes that stopped early: sampling
returns them with the results.

Objects own C handles: free them with close() or a with block (the
garbage collector frees them too, but not at a predictable time). No object
reaches freed C memory: one that borrows another (a puzzle's model) keeps it
alive and keeps close() from freeing it until the borrower is closed too; a
close() called while a call that runs Python code (a progress callback, a
backend) is under way takes effect when the call returns; and any use of a
closed object, or of one whose owner was closed, raises ClosedError (a
QuboError and a ValueError). An int
that does not fit the C type it is passed as raises OverflowError. An
exception raised in a callback or a backend (KeyboardInterrupt included)
stops the call and is raised again, with its traceback, when the call
returns; so does Ctrl-C during Solver.sample(), Puzzle.solve() and
Puzzle.count(), within about 0.1 s.
"""
import ctypes
import ctypes.util
import os
import signal
import threading
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_char_p, c_double, c_int,
                    c_int32, c_int64, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p)

try:
    # Written by meson at configure time and installed beside this file:
    # LIBDIR (the absolute install libdir) and SONAMES. Absent in the source
    # tree.
    from . import _config
except ImportError:
    _config = None

# --- Status codes (qubo/status.h) -------------------------------------------

QUBO_OK = 0
QUBO_CANCELLED = 1
QUBO_TIME_LIMIT = 2
QUBO_ERR_NOMEM = -1
QUBO_ERR_INVALID_ARG = -2
QUBO_ERR_MISUSE = -3
QUBO_ERR_OUT_OF_RANGE = -4
QUBO_ERR_BUFFER_TOO_SMALL = -5
QUBO_ERR_NOT_SUPPORTED = -6
QUBO_ERR_UNSUPPORTED_VERSION = -7
QUBO_ERR_CALLBACK = -8
QUBO_ERR_INTERNAL = -9
QUBO_ERR_PARSE = -10
QUBO_ERR_IO = -11
QUBO_ERR_INFEASIBLE = -12
QUBO_ERR_TOO_LARGE = -13

# --- Option value types (qubo/solver.h) -------------------------------------

QUBO_TYPE_NONE = 0
QUBO_TYPE_INT = 1
QUBO_TYPE_DOUBLE = 2
QUBO_TYPE_STRING = 3

# --- QAOA (qubo/qaoa.h) -----------------------------------------------------

QUBO_QAOA_DEFAULT_MAX_QUBITS = 26
QUBO_QAOA_MAX_QUBITS = 40
QUBO_QAOA_MAX_DEPTH = 64
QUBO_QASM_2 = 2
QUBO_QASM_3 = 3

# --- Literals (qubo/literal.h): 2v, 2v + 1 for the complement ---------------

LIT_FALSE = 0xFFFFFFFE
LIT_TRUE = 0xFFFFFFFF


def _var(v):
    """v, a variable a literal can name (0 to 2**31 - 2); OverflowError
    otherwise."""
    if not 0 <= v <= 0x7FFFFFFE:
        raise OverflowError("variable %d: a literal names 0 to %d" % (v, 0x7FFFFFFE))
    return v


def lit(v):
    """QUBO_LIT(v): the positive literal of variable v."""
    return _var(v) << 1


def lit_neg(v):
    """QUBO_LIT_NEG(v): the complement 1 - x_v."""
    return (_var(v) << 1) | 1


def lit_not(l):
    """QUBO_LIT_NOT(l): the complement of a literal (constants swap)."""
    return l ^ 1


# --- Puzzle enums (qubo/puzzle.h) -------------------------------------------

QUBO_PUZZLE_QUEENS = 1
QUBO_PUZZLE_NQUEENS = 2
QUBO_PUZZLE_GENERAL_QUEENS = 3
QUBO_PUZZLE_CHESS_COLOURED = 4
QUBO_PUZZLE_CHESS_MAX = 5
QUBO_PUZZLE_DOMINATION = 6
QUBO_PUZZLE_TENTS = 7
QUBO_PUZZLE_TAKUZU = 8
QUBO_PUZZLE_TANGO = 9
QUBO_REDUCE_DEFAULT = 0
QUBO_REDUCE_NONE = 1
QUBO_REDUCE_CLUES = 2
QUBO_REDUCE_FULL = 3

# enum qubo_puzzle_verdict
QUBO_PUZZLE_UNKNOWN = 0
QUBO_PUZZLE_SOLVED = 1
QUBO_PUZZLE_OPTIMAL = 2
QUBO_PUZZLE_BEST_FOUND = 3
QUBO_PUZZLE_INFEASIBLE = 4
QUBO_PUZZLE_STOPPED = 5
QUBO_PUZZLE_NOT_FOUND = 6
VERDICT_NAMES = {0: "unknown", 1: "solved", 2: "optimal", 3: "best found", 4: "infeasible",
                 5: "stopped", 6: "not found"}

# enum qubo_puzzle_strategy
QUBO_PUZZLE_STRATEGY_AUTO = 0
QUBO_PUZZLE_STRATEGY_SAMPLE = 1
QUBO_PUZZLE_STRATEGY_SEARCH = 2

# enum qubo_puzzle_phase
QUBO_PUZZLE_PHASE_SAMPLE = 1
QUBO_PUZZLE_PHASE_SEARCH = 2
QUBO_PUZZLE_PHASE_ENUMERATE = 3
QUBO_PUZZLE_PHASE_BUILD = 4

# enum qubo_puzzle_count_method
QUBO_PUZZLE_COUNT_AUTO = 0
QUBO_PUZZLE_COUNT_ENUMERATE = 1
QUBO_PUZZLE_COUNT_SEARCH = 2

# --- Opaque handles: distinct pointer types catch mix-ups -------------------


class _Opaque(Structure):
    pass


class qubo_model(_Opaque):
    pass


class qubo_solver(_Opaque):
    pass


class qubo_sampleset(_Opaque):
    pass


class qubo_options(_Opaque):
    pass


class qubo_backend_ctx(_Opaque):
    pass


class qubo_puzzle(_Opaque):
    pass


class qubo_qaoa(_Opaque):
    pass


ModelP = POINTER(qubo_model)
SolverP = POINTER(qubo_solver)
SampleSetP = POINTER(qubo_sampleset)
OptionsP = POINTER(qubo_options)
BackendCtxP = POINTER(qubo_backend_ctx)
PuzzleP = POINTER(qubo_puzzle)
QaoaP = POINTER(qubo_qaoa)

# --- Structs, field by field as in the headers ------------------------------


class SampleInfo(Structure):
    """struct qubo_sample_info (qubo/solver.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("status", c_int32),
        ("reached_target", c_int32),
        ("seconds", c_double),
        ("num_samples", c_uint64),
        ("flip_attempts", c_uint64),
        ("num_ground_states", c_uint64),
        ("seed", c_uint64),
        # the second layout (QUBO_SAMPLE_INFO_SIZE_V2)
        ("expectation", c_double),
        ("lowest_probability", c_double),
        ("has_expectation", c_int32),
    ]


class Progress(Structure):
    """struct qubo_progress (qubo/solver.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("done", c_uint64),
        ("total", c_uint64),
        ("best_energy", c_double),
        ("has_best", c_int32),
        ("seconds", c_double),
    ]


# qubo_progress_cb
SOLVER_PROGRESS_FN = CFUNCTYPE(c_int, POINTER(Progress), c_void_p)


class PuzzleStats(Structure):
    """struct qubo_puzzle_stats (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("width", c_size_t),
        ("height", c_size_t),
        ("variables_before", c_size_t),
        ("couplers_before", c_size_t),
        ("variables_after", c_size_t),
        ("couplers_after", c_size_t),
        ("cells_fixed", c_size_t),
        ("solved_by_reduction", c_int32),
    ]


class PuzzleCell(Structure):
    """struct qubo_puzzle_cell (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("on_board", c_int32),
        ("region", c_int32),
        ("given", c_int32),
        ("piece", c_int32),
        ("literal", c_uint32),  # qubo_lit
    ]


class PuzzleProgress(Structure):
    """struct qubo_puzzle_progress (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("phase", c_int32),
        ("rounds", c_uint32),
        ("reads", c_uint64),
        ("sweeps", c_int64),
        ("nodes", c_uint64),
        ("solutions", c_uint64),
        ("best_energy", c_double),
        ("has_best", c_int32),
        ("has_target", c_int32),
        ("target_energy", c_double),
        ("seconds", c_double),
    ]


# qubo_puzzle_progress_cb and qubo_puzzle_solution_cb
PROGRESS_FN = CFUNCTYPE(c_int, POINTER(PuzzleProgress), c_void_p)
SOLUTION_FN = CFUNCTYPE(c_int, POINTER(c_uint8), c_size_t, c_void_p)


class PuzzleOptions(Structure):
    """struct qubo_puzzle_options (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("reduce", c_int32),
        ("penalty", c_double),
        ("drop_region", c_int32),
        ("allocator", c_void_p),  # const qubo_allocator *; NULL here
        ("max_input_bytes", c_size_t),
        ("max_cells", c_size_t),
        ("max_couplers", c_size_t),
        ("time_limit", c_double),
        ("progress", PROGRESS_FN),
        ("progress_data", c_void_p),
    ]


class PuzzleSolveOptions(Structure):
    """struct qubo_puzzle_solve_options (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("strategy", c_int32),
        ("threads", c_int32),
        ("seed", c_uint64),
        ("time_limit", c_double),
        ("solver", SolverP),  # borrowed; NULL for the built-in "sa"
        ("progress", PROGRESS_FN),
        ("user_data", c_void_p),
    ]


class PuzzleResult(Structure):
    """struct qubo_puzzle_result (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("verdict", c_int32),
        ("has_board", c_int32),
        ("has_energy", c_int32),
        ("reserved", c_int32),
        ("violations", c_uint64),
        ("energy", c_double),
        ("method", c_char_p),  # a static string
        ("rounds", c_uint32),
        ("reads", c_uint64),
        ("sweeps_first", c_int64),
        ("sweeps_last", c_int64),
        ("seed", c_uint64),
        ("nodes", c_uint64),
        ("seconds", c_double),
        ("method_id", c_int32),  # enum qubo_puzzle_method
    ]


class PuzzleCountOptions(Structure):
    """struct qubo_puzzle_count_options (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("method", c_int32),
        ("threads", c_int32),
        ("limit", c_uint64),
        ("time_limit", c_double),
        ("max_variables", c_int32),
        ("reserved", c_int32),
        ("on_solution", SOLUTION_FN),
        ("progress", PROGRESS_FN),
        ("user_data", c_void_p),
    ]


class PuzzleCountResult(Structure):
    """struct qubo_puzzle_count_result (qubo/puzzle.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("complete", c_int32),
        ("optimal_only", c_int32),
        ("count", c_uint64),
        ("energy", c_double),
        ("method", c_char_p),  # a static string
        ("nodes", c_uint64),
        ("seconds", c_double),
    ]


def size_through(struct, last_field):
    """The size of one layout of a versioned struct, as the headers' _SIZE_V1
    and _SIZE_V2 macros compute it: the offset of the layout's last field plus
    that field's size."""
    field = getattr(struct, last_field)
    return field.offset + field.size


# The _SIZE_V1 and _SIZE_V2 macros of qubo/solver.h and qubo/puzzle.h, from
# the Python layouts.
SAMPLE_INFO_SIZE_V1 = size_through(SampleInfo, "seed")
SAMPLE_INFO_SIZE_V2 = size_through(SampleInfo, "has_expectation")
PROGRESS_SIZE_V1 = size_through(Progress, "seconds")
PUZZLE_CELL_SIZE_V1 = size_through(PuzzleCell, "literal")
PUZZLE_OPTIONS_SIZE_V1 = size_through(PuzzleOptions, "allocator")
PUZZLE_SOLVE_OPTIONS_SIZE_V1 = size_through(PuzzleSolveOptions, "user_data")
PUZZLE_RESULT_SIZE_V1 = size_through(PuzzleResult, "seconds")
PUZZLE_COUNT_OPTIONS_SIZE_V1 = size_through(PuzzleCountOptions, "user_data")
PUZZLE_COUNT_RESULT_SIZE_V1 = size_through(PuzzleCountResult, "seconds")


# The slots of struct qubo_backend_vtable (qubo/backend.h).
SAMPLE_FN = CFUNCTYPE(c_int, BackendCtxP, ModelP, OptionsP, c_void_p)
SAMPLE_FROM_FN = CFUNCTYPE(c_int, BackendCtxP, ModelP, OptionsP, SampleSetP, c_void_p)
SET_PARAM_FN = CFUNCTYPE(c_int, BackendCtxP, c_char_p, OptionsP, c_void_p)
DESCRIBE_FN = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p)
DESTROY_FN = CFUNCTYPE(None, c_void_p)


class BackendVtable(Structure):
    """struct qubo_backend_vtable (qubo/backend.h). Unused slots stay NULL."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("name", c_char_p),
        ("sample", SAMPLE_FN),
        ("sample_from", SAMPLE_FROM_FN),
        ("set_param", SET_PARAM_FN),
        ("describe", DESCRIBE_FN),
    ]


# --- Loading and prototypes -------------------------------------------------

class _NotLoaded:
    """Stands for a library before load(): the first function looked up on
    it loads both libraries from the default places (see load())."""

    def __init__(self, which):
        self._which = which

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        load()
        return getattr(globals()[self._which], name)


_core = _NotLoaded("_core")      # libqubo
_puzzle = _NotLoaded("_puzzle")  # libqubo-puzzle
_paths = None                    # what load() opened

_U8P = POINTER(c_uint8)
_U32P = POINTER(c_uint32)
_DP = POINTER(c_double)
_SZP = POINTER(c_size_t)

# name: (restype, argtypes), for every function this module calls.
_CORE_PROTOTYPES = {
    "qubo_version_string": (c_char_p, []),
    "qubo_status_name": (c_char_p, [c_int]),
    "qubo_error_message": (c_char_p, []),
    "qubo_error_line": (c_size_t, []),
    "qubo_error_column": (c_size_t, []),
    "qubo_error_detail": (c_char_p, []),
    "qubo_error_function": (c_char_p, []),
    "qubo_error_cell_row": (c_size_t, []),
    "qubo_error_cell_column": (c_size_t, []),
    "qubo_error_limit": (c_int, []),
    "qubo_error_limit_value": (c_uint64, []),
    "qubo_limit_name": (c_char_p, [c_int]),
    "qubo_model_new": (c_int, [POINTER(ModelP), c_size_t, c_void_p]),
    "qubo_model_free": (None, [ModelP]),
    "qubo_model_num_variables": (c_size_t, [ModelP]),
    "qubo_model_offset": (c_double, [ModelP]),
    "qubo_model_add_offset": (c_int, [ModelP, c_double]),
    "qubo_model_add_linear": (c_int, [ModelP, c_uint32, c_double]),
    "qubo_model_add_quadratic": (c_int, [ModelP, c_uint32, c_uint32, c_double]),
    "qubo_model_compile": (c_int, [ModelP]),
    "qubo_model_energy": (c_int, [ModelP, _U8P, c_size_t, _DP]),
    "qubo_model_export_linear": (c_int, [ModelP, _DP, c_size_t]),
    "qubo_model_export_coo": (c_int, [ModelP, _U32P, _U32P, _DP, c_size_t, _SZP]),
    "qubo_qbsolv_read": (c_int, [POINTER(ModelP), c_char_p, c_size_t, c_void_p]),
    "qubo_qbsolv_read_file": (c_int, [POINTER(ModelP), c_char_p, c_void_p]),
    "qubo_qbsolv_write": (c_int, [ModelP, ctypes.c_char_p, c_size_t, _SZP]),
    "qubo_qbsolv_write_file": (c_int, [ModelP, c_char_p]),
    "qubo_penalty_exactly": (c_int, [ModelP, _U32P, c_size_t, c_int64, c_double]),
    "qubo_solver_new": (c_int, [POINTER(SolverP), c_char_p, c_void_p]),
    "qubo_solver_new_backend": (c_int, [POINTER(SolverP), POINTER(BackendVtable), c_void_p,
                                        DESTROY_FN, c_void_p]),
    "qubo_solver_free": (None, [SolverP]),
    "qubo_solver_name": (c_char_p, [SolverP]),
    "qubo_solver_describe": (c_int, [SolverP, ctypes.c_char_p, c_size_t, _SZP]),
    "qubo_solver_set_int": (c_int, [SolverP, c_char_p, c_int64]),
    "qubo_solver_set_double": (c_int, [SolverP, c_char_p, c_double]),
    "qubo_solver_set_string": (c_int, [SolverP, c_char_p, c_char_p]),
    "qubo_solver_unset": (c_int, [SolverP, c_char_p]),
    "qubo_solver_set_progress": (c_int, [SolverP, SOLVER_PROGRESS_FN, c_void_p]),
    "qubo_solver_sample": (c_int, [POINTER(SampleSetP), SolverP, ModelP]),
    "qubo_options_get_int": (c_int, [OptionsP, c_char_p, c_int64, POINTER(c_int64)]),
    "qubo_options_get_double": (c_int, [OptionsP, c_char_p, c_double, _DP]),
    "qubo_options_get_string": (c_int, [OptionsP, c_char_p, c_char_p, POINTER(c_char_p)]),
    "qubo_options_type": (c_int32, [OptionsP, c_char_p]),
    "qubo_sampleset_free": (None, [SampleSetP]),
    "qubo_sampleset_size": (c_size_t, [SampleSetP]),
    "qubo_sampleset_num_variables": (c_size_t, [SampleSetP]),
    "qubo_sampleset_get": (c_int, [SampleSetP, c_size_t, _U8P, c_size_t, _DP,
                                   POINTER(c_uint64)]),
    "qubo_sampleset_lowest": (c_int, [SampleSetP, _U8P, c_size_t, _DP]),
    "qubo_sampleset_get_info": (c_int, [SampleSetP, POINTER(SampleInfo)]),
    "qubo_backend_set_error": (c_int, [BackendCtxP, c_int, c_char_p]),
    "qubo_backend_add_samples": (c_int, [BackendCtxP, _U8P, c_size_t, c_size_t,
                                         POINTER(c_uint64)]),
    "qubo_backend_progress": (c_int, [BackendCtxP, c_uint64, c_uint64, c_double]),
    "qubo_backend_should_stop": (c_int, [BackendCtxP]),
    "qubo_backend_report": (c_int, [BackendCtxP, POINTER(SampleInfo)]),
    "qubo_qaoa_memory": (c_int, [c_size_t, c_int, POINTER(c_uint64)]),
    "qubo_qaoa_new": (c_int, [POINTER(QaoaP), ModelP, c_size_t, c_void_p]),
    "qubo_qaoa_free": (None, [QaoaP]),
    "qubo_qaoa_num_qubits": (c_size_t, [QaoaP]),
    "qubo_qaoa_set_threads": (c_int, [QaoaP, c_int]),
    "qubo_qaoa_evolve": (c_int, [QaoaP, c_size_t, _DP, _DP]),
    "qubo_qaoa_expectation": (c_int, [QaoaP, _DP, _DP]),
    "qubo_qaoa_lowest_energy": (c_int, [QaoaP, _DP, POINTER(c_uint64)]),
    "qubo_qaoa_amplitudes": (c_int, [QaoaP, _DP, c_size_t]),
    "qubo_qaoa_probabilities": (c_int, [QaoaP, _DP, c_size_t]),
    "qubo_qaoa_sample": (c_int, [QaoaP, c_uint64, c_size_t, _U8P, c_size_t]),
    "qubo_qaoa_optimize": (c_int, [QaoaP, c_size_t, c_size_t, _DP, _DP, _DP]),
    "qubo_qaoa_qasm": (c_int, [ModelP, c_size_t, _DP, _DP, c_int32, ctypes.c_char_p, c_size_t,
                               _SZP]),
}

_PUZZLE_PROTOTYPES = {
    "qubo_puzzle_method_name": (c_char_p, [c_int]),
    "qubo_puzzle_parse": (c_int, [POINTER(PuzzleP), c_char_p, c_size_t,
                                  POINTER(PuzzleOptions)]),
    "qubo_puzzle_parse_file": (c_int, [POINTER(PuzzleP), c_char_p, POINTER(PuzzleOptions)]),
    "qubo_puzzle_free": (None, [PuzzleP]),
    "qubo_puzzle_family": (c_int, [PuzzleP]),
    "qubo_puzzle_get_stats": (c_int, [PuzzleP, POINTER(PuzzleStats)]),
    "qubo_puzzle_model": (c_int, [PuzzleP, POINTER(ModelP)]),
    "qubo_puzzle_ground_energy": (c_int, [PuzzleP, _DP]),
    "qubo_puzzle_decode": (c_int, [PuzzleP, _U8P, c_size_t, _U8P, c_size_t]),
    "qubo_puzzle_check": (c_int, [PuzzleP, _U8P, c_size_t, ctypes.c_char_p, c_size_t, _SZP]),
    "qubo_puzzle_format_solution": (c_int, [PuzzleP, _U8P, c_size_t, ctypes.c_char_p,
                                            c_size_t, _SZP]),
    "qubo_puzzle_get_cell": (c_int, [PuzzleP, c_uint32, c_uint32, POINTER(PuzzleCell)]),
    "qubo_puzzle_solve": (c_int, [PuzzleP, POINTER(PuzzleSolveOptions), _U8P, c_size_t,
                                  POINTER(PuzzleResult)]),
    "qubo_puzzle_count": (c_int, [PuzzleP, POINTER(PuzzleCountOptions),
                                  POINTER(PuzzleCountResult)]),
}


_INT_CODES = "bBhHiIlLqQ"  # the ctypes integer types, by their _type_


def _int_bounds(ctype):
    """(lowest, highest) of a ctypes integer type, or None for other types."""
    if getattr(ctype, "_type_", None) not in tuple(_INT_CODES):
        return None
    bits = 8 * ctypes.sizeof(ctype)
    if ctype(-1).value < 0:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _fit(value, ctype, what):
    """value, when it is not an int or fits ctype; OverflowError otherwise
    (ctypes would keep its low bits without a word)."""
    bounds = _int_bounds(ctype)
    if bounds is not None and isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
        raise OverflowError("%s: %d does not fit %s (%d to %d)"
                            % (what, value, ctype.__name__, bounds[0], bounds[1]))
    return value


def _struct(cls, **fields):
    """A ctypes struct with struct_size set and fields checked by _fit()."""
    for name, value in fields.items():
        _fit(value, dict(cls._fields_)[name], "%s.%s" % (cls.__name__, name))
    return cls(struct_size=ctypes.sizeof(cls), **fields)


def _checked(fn, name, argtypes):
    """fn, with every int argument checked against its C type by _fit()."""
    ints = [(k, t) for k, t in enumerate(argtypes) if _int_bounds(t) is not None]

    def call(*args):
        for k, t in ints:
            _fit(args[k], t, "%s() argument %d" % (name, k + 1))
        return fn(*args)
    call.__name__ = name
    return call


def _declare(dll, prototypes):
    for name, (restype, argtypes) in prototypes.items():
        fn = getattr(dll, name)
        fn.restype = restype
        fn.argtypes = argtypes
        if any(_int_bounds(t) is not None for t in argtypes):
            setattr(dll, name, _checked(fn, name, argtypes))


def _soname(stem):
    """The SONAME of lib<stem>: the configured one when installed."""
    if _config is not None:
        for name in _config.SONAMES:
            if name.startswith("lib%s.so." % stem):
                return name
    return "lib%s.so.0" % stem


def _in_places(stem, places):
    """The first lib<stem> among places: a directory holding its SONAME (or
    the lib<stem>.so link), or the library file itself."""
    names = [_soname(stem), "lib%s.so" % stem]
    for place in places:
        if os.path.isfile(place):
            if os.path.basename(place).startswith("lib%s.so" % stem):
                return place
            continue
        for name in names:
            path = os.path.join(place, name)
            if os.path.exists(path):
                return path
    raise OSError("lib%s.so not found in %s" % (stem, os.pathsep.join(places)))


def _by_default(stem):
    """The installed library by absolute path (the libdir meson configured),
    else what the system's search finds: ctypes.util.find_library(), then
    the bare SONAME for the dynamic loader."""
    if _config is not None:
        path = os.path.join(_config.LIBDIR, _soname(stem))
        if os.path.exists(path):
            return path
    return ctypes.util.find_library(stem) or _soname(stem)


def load(*places):
    """Loads libqubo and libqubo-puzzle; returns the two ctypes.CDLL.

    Each place is a directory or a library file. With none, the directories
    of QUBO_LIBDIR (separated by ':'; meant for tests of a build tree) are
    used when it is set; otherwise the libraries `meson install` put in the
    configured libdir, by absolute path; and when they are not there, the
    system's search path. libqubo is loaded first, so that libqubo-puzzle
    finds it, already loaded, by its SONAME.

    Functions called before load() call it without places. Load once, before
    anything else: objects made with other libraries must not meet these."""
    global _core, _puzzle, _paths
    if not places and os.environ.get("QUBO_LIBDIR"):
        places = tuple(os.environ["QUBO_LIBDIR"].split(os.pathsep))
    places = [os.fspath(p) for p in places if p]
    if places:
        paths = (_in_places("qubo", places), _in_places("qubo-puzzle", places))
    else:
        paths = (_by_default("qubo"), _by_default("qubo-puzzle"))
    puzzle = None
    try:
        core = ctypes.CDLL(paths[0])
        _declare(core, _CORE_PROTOTYPES)
        puzzle = ctypes.CDLL(paths[1])
    except OSError as e:
        if places:
            raise
        raise OSError("%s (no lib%s where this package looks: pass its directory to "
                      "qubo.load() or set QUBO_LIBDIR)"
                      % (e, "qubo" if puzzle is None else "qubo-puzzle")) from e
    _declare(puzzle, _PUZZLE_PROTOTYPES)
    _core, _puzzle, _paths = core, puzzle, paths
    return core, puzzle


def library_paths():
    """The (libqubo, libqubo-puzzle) that load() opened: paths, or bare
    names the dynamic loader searched for; None before loading."""
    return _paths


def version():
    """The library's version string (qubo_version_string())."""
    return _core.qubo_version_string().decode()


# --- Errors -----------------------------------------------------------------


class QuboError(Exception):
    """A failed libqubo call: status (int, a QUBO_ERR_ code), name
    ("QUBO_ERR_..."), the library's message naming what went wrong
    (qubo_error_message()) and its parts, so that nothing needs to take the
    message apart: detail (the message without its prefixes,
    qubo_error_detail()), function (the public function that failed, or ""),
    line and column (the 1-based position in an input, or 0), cell (the
    1-based (row, column) of a puzzle board's cell, or None), limit (for
    QUBO_ERR_TOO_LARGE the stable name of the limit hit, such as
    "max_cells", else "none") and limit_value (its value, or 0)."""

    def __init__(self, status, message, line=0, detail=None, function="", column=0,
                 cell=None, limit="none", limit_value=0):
        self.status = status
        self.name = _core.qubo_status_name(status).decode()
        self.message = message
        self.line = line
        self.detail = message if detail is None else detail
        self.function = function
        self.column = column
        self.cell = cell
        self.limit = limit
        self.limit_value = limit_value
        super().__init__("%s: %s" % (self.name, message))


class ClosedError(QuboError, ValueError):
    """The use of a closed object, or of one whose owner is closed (status
    QUBO_ERR_MISUSE, as the library's for a NULL handle); also a
    ValueError, as for a closed file."""

    def __init__(self, message):
        super().__init__(QUBO_ERR_MISUSE, message)


def _text(s):
    return s.decode("utf-8", "replace")


def check(status):
    """Raises QuboError on a negative status; returns the status otherwise."""
    if status < 0:
        # Read the parts before any other call can replace them.
        row, col = _core.qubo_error_cell_row(), _core.qubo_error_cell_column()
        raise QuboError(status, _text(_core.qubo_error_message()), _core.qubo_error_line(),
                        detail=_text(_core.qubo_error_detail()),
                        function=_text(_core.qubo_error_function()),
                        column=_core.qubo_error_column(),
                        cell=(row, col) if row else None,
                        limit=_core.qubo_limit_name(_core.qubo_error_limit()).decode(),
                        limit_value=_core.qubo_error_limit_value())
    return status


def _path_arg(path):
    """A file path (str, bytes or os.PathLike) as the C string the library
    opens."""
    return os.fsencode(path)


def _bytes_arg(sample):
    """A sample (bytes, bytearray or a list of 0/1) as a C uint8 array."""
    data = bytes(sample)
    return (c_uint8 * len(data)).from_buffer_copy(data), len(data)


# --- Models -----------------------------------------------------------------


class _Owned:
    """An object that holds a C handle: close() frees it (_free()); a with
    block or the garbage collector calls close() too.

    The handle is freed only when nothing needs it any more: not while
    another object borrows it (_borrowers, set by the borrower's _borrow()),
    nor during a call that can run Python code (_busy, set by _Call). Until
    then close() only marks the object closed: every use of a closed object,
    or of one that borrows a closed object, raises ClosedError (_live())."""

    _h = None          # the handle; None once freed
    _closed = False    # close() was called
    _busy = 0          # calls under way that use the handle
    _borrowers = 0     # live objects that borrow this one
    _borrows = ()      # the objects this one borrows

    def _free(self, handle):
        """Frees the handle (objects that borrow theirs free nothing)."""

    def _borrow(self, *owners):
        self._borrows = owners
        for owner in owners:
            owner._borrowers += 1

    def _live(self):
        """The handle; ClosedError when this object, or one it borrows, is
        closed."""
        if self._closed or not self._h:
            raise ClosedError("the %s is closed" % type(self).__name__)
        for owner in self._borrows:
            if owner._closed:
                raise ClosedError("the %s borrows a %s that is closed"
                                 % (type(self).__name__, type(owner).__name__))
        return self._h

    @property
    def handle(self):
        """The C handle (ClosedError once closed)."""
        return self._live()

    @property
    def closed(self):
        """True once close() was called on this object or on one it borrows."""
        return self._closed or any(owner.closed for owner in self._borrows)

    def close(self):
        """Frees the handle, now or (while it is borrowed or in use by a
        call) as soon as nothing needs it; the object is unusable at once."""
        self._closed = True
        self._release()

    def _release(self):
        if self._busy or self._borrowers or self._h is None:
            return
        handle, self._h = self._h, None
        if handle:
            self._free(handle)
        owners, self._borrows = self._borrows, ()
        for owner in owners:
            owner._borrowers -= 1
            if owner._closed:
                owner._release()

    def __del__(self):
        # Not at interpreter exit (the module's globals may be gone).
        if isinstance(_core, ctypes.CDLL) and self._h is not None:
            self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Model(_Owned):
    """A QUBO model, E(x) = offset + sum h_i x_i + sum J_ij x_i x_j."""

    def __init__(self, num_variables=0, handle=None, owner=None):
        # handle/owner: a borrowed model (a puzzle's, or the one a backend is
        # given), which this object must not free; owner, when given, is the
        # object that frees it, kept alive and open while this one is.
        if handle is not None:
            self._h, self._borrowed = handle, True
            if owner is not None:
                self._borrow(owner)
            return
        self._borrowed = False
        h = ModelP()
        check(_core.qubo_model_new(byref(h), num_variables, None))
        self._h = h

    @classmethod
    def _adopt(cls, handle):
        """A Model that owns (and frees) a handle the library made."""
        self = cls.__new__(cls)
        self._h, self._borrowed = handle, False
        return self

    @classmethod
    def from_qbsolv(cls, text):
        """A compiled model read from qbsolv `.qubo` text (str or bytes)
        (qubo_qbsolv_read())."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        h = ModelP()
        check(_core.qubo_qbsolv_read(byref(h), data, len(data), None))
        return cls._adopt(h)

    @classmethod
    def from_qbsolv_file(cls, path):
        """A compiled model read from a qbsolv `.qubo` file
        (qubo_qbsolv_read_file(); QUBO_ERR_IO when it cannot be read)."""
        h = ModelP()
        check(_core.qubo_qbsolv_read_file(byref(h), _path_arg(path), None))
        return cls._adopt(h)

    def _free(self, handle):
        if not self._borrowed:
            _core.qubo_model_free(handle)

    def to_qbsolv(self):
        """The compiled model as qbsolv `.qubo` text (qubo_qbsolv_write())."""
        length = c_size_t()
        check(_core.qubo_qbsolv_write(self._live(), None, 0, byref(length)))
        buf = ctypes.create_string_buffer(length.value + 1)
        check(_core.qubo_qbsolv_write(self._live(), buf, len(buf), byref(length)))
        return buf.value.decode()

    def write_qbsolv_file(self, path):
        """Writes the compiled model to a qbsolv `.qubo` file, replacing it
        (qubo_qbsolv_write_file())."""
        check(_core.qubo_qbsolv_write_file(self._live(), _path_arg(path)))

    @property
    def num_variables(self):
        return _core.qubo_model_num_variables(self._live())

    @property
    def offset(self):
        return _core.qubo_model_offset(self._live())

    def add_offset(self, weight):
        check(_core.qubo_model_add_offset(self._live(), weight))

    def add_linear(self, var, weight):
        check(_core.qubo_model_add_linear(self._live(), var, weight))

    def add_quadratic(self, i, j, weight):
        check(_core.qubo_model_add_quadratic(self._live(), i, j, weight))

    def penalty_exactly(self, lits, k, weight):
        """Exactly k of the literals true: weight * (sum(lits) - k)^2."""
        arr = (c_uint32 * len(lits))(*[_fit(l, c_uint32, "literal") for l in lits])
        check(_core.qubo_penalty_exactly(self._live(), arr, len(lits), k, weight))

    def compile(self):
        check(_core.qubo_model_compile(self._live()))

    def energy(self, sample):
        arr, n = _bytes_arg(sample)
        e = c_double()
        check(_core.qubo_model_energy(self._live(), arr, n, byref(e)))
        return e.value

    def linear(self):
        """The linear weights h_0 ... h_{n-1}."""
        n = self.num_variables
        h = (c_double * max(n, 1))()
        check(_core.qubo_model_export_linear(self._live(), h, n))
        return list(h[:n])

    def couplers(self):
        """The compiled couplers as (i, j, J_ij), i < j, sorted."""
        count = c_size_t()
        # Capacity 0 asks for the count; a second call fills arrays of that size.
        check(_core.qubo_model_export_coo(self._live(), None, None, None, 0, byref(count)))
        n = count.value
        rows, cols = (c_uint32 * max(n, 1))(), (c_uint32 * max(n, 1))()
        weights = (c_double * max(n, 1))()
        check(_core.qubo_model_export_coo(self._live(), rows, cols, weights, n, byref(count)))
        return [(rows[k], cols[k], weights[k]) for k in range(n)]


# --- Sample sets ------------------------------------------------------------


class SampleSet(_Owned):
    """Distinct samples sorted by energy, with occurrences and run figures."""

    def __init__(self, handle, status):
        self._h = handle
        self.status = status  # QUBO_OK, QUBO_CANCELLED or QUBO_TIME_LIMIT

    def _free(self, handle):
        _core.qubo_sampleset_free(handle)

    def __len__(self):
        return _core.qubo_sampleset_size(self._live())

    @property
    def num_variables(self):
        return _core.qubo_sampleset_num_variables(self._live())

    def get(self, index):
        """(sample bytes, energy, occurrences) of sample number index."""
        n = self.num_variables
        buf = (c_uint8 * max(n, 1))()
        e, occ = c_double(), c_uint64()
        check(_core.qubo_sampleset_get(self._live(), index, buf, n, byref(e), byref(occ)))
        return bytes(buf[:n]), e.value, occ.value

    def __iter__(self):
        for k in range(len(self)):
            yield self.get(k)

    def lowest(self):
        """(sample bytes, energy) of the lowest-energy sample."""
        n = self.num_variables
        buf = (c_uint8 * max(n, 1))()
        e = c_double()
        check(_core.qubo_sampleset_lowest(self._live(), buf, n, byref(e)))
        return bytes(buf[:n]), e.value

    def info(self):
        """The run's figures (qubo_sample_info) as a dict."""
        info = SampleInfo(struct_size=ctypes.sizeof(SampleInfo))
        check(_core.qubo_sampleset_get_info(self._live(), byref(info)))
        return {name: getattr(info, name) for name, _ in SampleInfo._fields_
                if name != "struct_size"}


# --- Solvers ----------------------------------------------------------------


class Solver(_Owned):
    """A built-in solver by name ("sa", "exhaustive", "tabu", "descent",
    "qaoa", "pt"), or one around a Python backend (Solver.from_backend())."""

    def __init__(self, name=None, **options):
        """options: set with set() after the solver is made, e.g.
        Solver("sa", num_reads=100, beta_schedule="geometric")."""
        self._keep = None  # a Python backend's vtable and callbacks
        if name is not None:
            h = SolverP()
            check(_core.qubo_solver_new(byref(h), name.encode(), None))
            self._h = h
        for key, value in options.items():
            self.set(key, value)

    @classmethod
    def from_backend(cls, backend):
        """A solver whose slots call the Python object backend (see Backend)."""
        self = cls()
        table, keep = backend._vtable()
        h = SolverP()
        check(_core.qubo_solver_new_backend(byref(h), byref(table), None,
                                            keep["destroy"], None))
        # The library copied the table, but calls the callbacks until the
        # solver is freed: they must outlive it, so the solver holds them.
        self._h, self._keep = h, keep
        return self

    def _free(self, handle):
        _core.qubo_solver_free(handle)  # calls the destroy slot
        self._keep = None

    def _run(self, fn, *args):
        """fn(handle, *args), a call that may run a backend's Python code:
        the solver stays allocated until it returns, and an exception raised
        by the backend is raised again here."""
        if self._keep is None:  # a built-in solver runs no Python code
            return check(fn(self._live(), *args))
        with _Call(self) as (h,), _Callbacks() as callbacks:
            status = fn(h, *args)
        return callbacks.result(status)

    @property
    def name(self):
        return _core.qubo_solver_name(self._live()).decode()

    def describe(self):
        length = c_size_t()
        self._run(_core.qubo_solver_describe, None, 0, byref(length))
        buf = ctypes.create_string_buffer(length.value + 1)
        self._run(_core.qubo_solver_describe, buf, len(buf), byref(length))
        return buf.value.decode()

    def set_int(self, key, value):
        self._run(_core.qubo_solver_set_int, key.encode(), value)

    def set_double(self, key, value):
        self._run(_core.qubo_solver_set_double, key.encode(), value)

    def set_string(self, key, value):
        """value: str (sent as UTF-8) or bytes."""
        data = value.encode() if isinstance(value, str) else bytes(value)
        self._run(_core.qubo_solver_set_string, key.encode(), data)

    def set(self, key, value):
        """Sets an option by the type of value: int (and bool, as 0 or 1)
        through set_int(), float through set_double(), str or bytes through
        set_string(); None removes it (unset()). Other types raise
        TypeError. The solver checks the key and the value: a wrong one
        raises QuboError."""
        if value is None:
            self.unset(key)
        elif isinstance(value, int):
            self.set_int(key, int(value))
        elif isinstance(value, float):
            self.set_double(key, value)
        elif isinstance(value, (str, bytes)):
            self.set_string(key, value)
        else:
            raise TypeError("option %r: %s is not an int, float, str or bytes"
                            % (key, type(value).__name__))

    def unset(self, key):
        """Removes an option: the solver's default applies again."""
        self._run(_core.qubo_solver_unset, key.encode())

    def sample(self, model, progress=None):
        """Samples a compiled model; returns a SampleSet (its status says
        whether the run stopped early).

        progress: called during the run with a dict of its figures
        (qubo_progress: done, total, best_energy, has_best, seconds), about
        every 100 ms and once at the end; a true return stops the run
        (status QUBO_CANCELLED, with what was found). An exception raised in
        it stops the run too, and is raised again when sampling returns, as
        is Ctrl-C (KeyboardInterrupt) pressed during the run."""
        out = SampleSetP()
        with _Call(self, model) as (h, m), _Callbacks() as callbacks:
            progress_fn = callbacks.progress(SOLVER_PROGRESS_FN, progress)
            check(_core.qubo_solver_set_progress(h, progress_fn, None))
            try:
                status = _core.qubo_solver_sample(byref(out), h, m)
            finally:
                _core.qubo_solver_set_progress(h, SOLVER_PROGRESS_FN(), None)
        result = SampleSet(out, status) if status >= 0 else None
        try:
            callbacks.result(status)
        except BaseException:
            if result is not None:
                result.close()
            raise
        return result


# --- The QAOA simulator (qubo/qaoa.h) ---------------------------------------


def _doubles(values):
    """A list of floats as a C double array (None when empty)."""
    values = [float(v) for v in values]
    return (c_double * len(values))(*values) if values else None


class Qaoa(_Owned):
    """The library's exact state-vector simulator of QAOA on a compiled model.

    Basis state x is an int whose bit i is variable i (qubit 0 is the least
    significant bit; |1> is the value 1). The state of depth p is
    e^{-i b_p B} e^{-i g_p C} ... e^{-i b_1 B} e^{-i g_1 C} |+>^n, with C the
    model's energies (offset included) and B the sum of the X_i. The model
    is copied: it may be freed while the simulator lives."""

    def __init__(self, model, max_qubits=0):
        h = QaoaP()
        check(_core.qubo_qaoa_new(byref(h), model.handle, max_qubits, None))
        self._h = h

    def _free(self, handle):
        _core.qubo_qaoa_free(handle)

    @staticmethod
    def memory(num_qubits, threads=0):
        """The bytes a simulator of num_qubits qubits allocates at most
        (2**64 - 1 when that does not fit in 64 bits)."""
        out = c_uint64()
        check(_core.qubo_qaoa_memory(num_qubits, threads, byref(out)))
        return out.value

    @property
    def num_qubits(self):
        return _core.qubo_qaoa_num_qubits(self._live())

    def set_threads(self, threads):
        check(_core.qubo_qaoa_set_threads(self._live(), threads))

    def evolve(self, gammas, betas):
        """Prepares the state of depth len(gammas) from |+>^n."""
        if len(gammas) != len(betas):
            raise ValueError("%d gammas for %d betas" % (len(gammas), len(betas)))
        check(_core.qubo_qaoa_evolve(self._live(), len(gammas), _doubles(gammas), _doubles(betas)))

    def expectation(self):
        """(<C>, the probability of measuring a state of the lowest energy)."""
        e, low = c_double(), c_double()
        check(_core.qubo_qaoa_expectation(self._live(), byref(e), byref(low)))
        return e.value, low.value

    def lowest_energy(self):
        """(the model's lowest energy, how many states have it)."""
        e, count = c_double(), c_uint64()
        check(_core.qubo_qaoa_lowest_energy(self._live(), byref(e), byref(count)))
        return e.value, count.value

    def amplitudes(self):
        """The current state as a list of 2^n complex numbers."""
        size = 2 * (1 << self.num_qubits)
        buf = (c_double * size)()
        check(_core.qubo_qaoa_amplitudes(self._live(), buf, size))
        return [complex(buf[2 * x], buf[2 * x + 1]) for x in range(size // 2)]

    def probabilities(self):
        size = 1 << self.num_qubits
        buf = (c_double * size)()
        check(_core.qubo_qaoa_probabilities(self._live(), buf, size))
        return list(buf)

    def sample(self, seed, num_reads):
        """num_reads measurements of the current state, each as n bytes."""
        n = self.num_qubits
        size = num_reads * n
        buf = (c_uint8 * max(size, 1))()
        check(_core.qubo_qaoa_sample(self._live(), seed, num_reads, buf, size))
        return [bytes(buf[r * n:(r + 1) * n]) for r in range(num_reads)]

    def optimize(self, p, iterations=0):
        """Optimises the angles of depth p (grid, INTERP, Nelder-Mead) and
        leaves the simulator in their state: (gammas, betas, <C>)."""
        gammas, betas = (c_double * max(p, 1))(), (c_double * max(p, 1))()
        e = c_double()
        check(_core.qubo_qaoa_optimize(self._live(), p, iterations, gammas, betas, byref(e)))
        return list(gammas[:p]), list(betas[:p]), e.value


def qasm(model, gammas, betas, version=QUBO_QASM_3):
    """The QAOA circuit of a compiled model as OpenQASM text (version
    QUBO_QASM_2 or QUBO_QASM_3)."""
    model.handle  # ClosedError when closed
    if len(gammas) != len(betas):
        raise ValueError("%d gammas for %d betas" % (len(gammas), len(betas)))
    g, b = _doubles(gammas), _doubles(betas)
    length = c_size_t()
    check(_core.qubo_qaoa_qasm(model.handle, len(gammas), g, b, version, None, 0, byref(length)))
    buf = ctypes.create_string_buffer(length.value + 1)
    check(_core.qubo_qaoa_qasm(model.handle, len(gammas), g, b, version, buf, len(buf),
                               byref(length)))
    return buf.value.decode()


# --- Backends written in Python ---------------------------------------------


class Options(_Owned):
    """A solver's options as a backend slot sees them (borrowed: unusable,
    ClosedError, once the slot has returned)."""

    def __init__(self, handle):
        self._h = handle

    def get_int(self, key, fallback):
        v = c_int64()
        check(_core.qubo_options_get_int(self._live(), key.encode(), fallback, byref(v)))
        return v.value

    def get_double(self, key, fallback):
        v = c_double()
        check(_core.qubo_options_get_double(self._live(), key.encode(), fallback, byref(v)))
        return v.value

    def get_string(self, key, fallback=None):
        """The string under key (str), or fallback when the key is absent."""
        v = c_char_p()
        check(_core.qubo_options_get_string(self._live(), key.encode(), None, byref(v)))
        return fallback if v.value is None else v.value.decode("utf-8", "replace")

    def type(self, key):
        """QUBO_TYPE_NONE (absent), QUBO_TYPE_INT, _DOUBLE or _STRING."""
        return _core.qubo_options_type(self._live(), key.encode())


class BackendContext(_Owned):
    """The host side of one sample call (valid during that call only: any
    use after it raises ClosedError)."""

    def __init__(self, handle):
        self._h = handle

    def add_samples(self, samples, occurrences=None):
        """Hands samples (each bytes or a list of 0/1, all of one length) to
        the host, which computes their energies; occurrences, when given, says
        how often each occurred (each at least 1)."""
        samples = [bytes(s) for s in samples]
        if not samples:
            return
        data = b"".join(samples)
        arr = (c_uint8 * max(len(data), 1)).from_buffer_copy(data or b"\0")
        occ = None
        if occurrences is not None:
            if len(occurrences) != len(samples):
                raise ValueError("%d occurrences for %d samples"
                                 % (len(occurrences), len(samples)))
            occ = (c_uint64 * len(samples))(*occurrences)
        check(_core.qubo_backend_add_samples(self._live(), arr, len(samples), len(samples[0]),
                                             occ))

    def progress(self, done, total, best_energy=float("nan")):
        """Reports progress; returns nonzero (QUBO_CANCELLED or
        QUBO_TIME_LIMIT) when the run should stop."""
        status = check(_core.qubo_backend_progress(self._live(), done, total, best_energy))
        return status or _interrupted()

    def should_stop(self):
        """Nonzero (QUBO_CANCELLED or QUBO_TIME_LIMIT) when the run should
        stop: the caller cancelled, the time limit passed, or Ctrl-C."""
        return check(_core.qubo_backend_should_stop(self._live())) or _interrupted()

    def report(self, **fields):
        """Reports the backend's figures of the run (qubo_backend_report):
        keyword arguments named as the fields of qubo_sample_info that it
        marks "backend" (flip_attempts, num_ground_states, expectation,
        lowest_probability, has_expectation); the others stay 0."""
        info = SampleInfo(struct_size=ctypes.sizeof(SampleInfo))
        for name, value in fields.items():
            if name == "struct_size" or not hasattr(SampleInfo, name):
                raise TypeError("qubo_sample_info has no field %r" % name)
            setattr(info, name, value)
        check(_core.qubo_backend_report(self._live(), byref(info)))


class Backend:
    """Base class of a solver backend written in Python. Subclasses set name
    and implement sample(ctx, model, options); check_param(key, options) and
    describe() are optional. Exceptions raised by them are reported to the
    caller of Solver.sample() as QUBO_ERR_CALLBACK with the exception's text
    (an exception cannot cross the C frames of the library)."""

    name = "python"

    def sample(self, ctx, model, options):
        raise NotImplementedError

    def check_param(self, key, options):
        pass

    def describe(self):
        return self.name

    def _vtable(self):
        def run(ctx, fn, *views):
            # The views (the context, the model, the options) are the
            # library's for this call only: closed when it returns.
            try:
                if _interrupted():
                    raise KeyboardInterrupt
                return fn(*views) or QUBO_OK
            except BaseException as e:  # noqa: BLE001 - reported to the caller
                _keep_backend_error(e)
                if isinstance(e, QuboError):
                    return _core.qubo_backend_set_error(ctx, e.status, e.message.encode())
                message = "%s: %s" % (type(e).__name__, e)
                return _core.qubo_backend_set_error(ctx, QUBO_ERR_CALLBACK,
                                                    message.encode("utf-8", "replace"))
            finally:
                for view in views:
                    view.close()

        def sample_slot(ctx, model, options, user_data):
            return run(ctx, self.sample, BackendContext(ctx), Model(handle=model),
                       Options(options))

        def set_param_slot(ctx, key, options, user_data):
            return run(ctx, lambda o: self.check_param(key.decode(), o), Options(options))

        def describe_slot(buffer, capacity, user_data):
            try:
                text = self.describe().encode()[:capacity - 1] + b"\0"
            except BaseException as e:  # noqa: BLE001
                _keep_backend_error(e)
                return QUBO_ERR_CALLBACK
            ctypes.memmove(buffer, text, len(text))
            return QUBO_OK

        def destroy_slot(user_data):
            self.destroyed = True

        keep = {
            "name": self.name.encode(),
            "sample": SAMPLE_FN(sample_slot),
            "set_param": SET_PARAM_FN(set_param_slot),
            "describe": DESCRIBE_FN(describe_slot),
            "destroy": DESTROY_FN(destroy_slot),
            "backend": self,
        }
        table = BackendVtable(struct_size=ctypes.sizeof(BackendVtable), name=keep["name"],
                              sample=keep["sample"], set_param=keep["set_param"],
                              describe=keep["describe"])
        keep["table"] = table
        return table, keep


# --- Puzzles ----------------------------------------------------------------


class _Call:
    """The objects of one C call that can run Python code, marked busy for
    its length so that a close() from that code waits for its end. Entering
    gives their live handles."""

    def __init__(self, *objs):
        self._objs = [o for o in objs if o is not None]
        self._handles = [o._live() for o in self._objs]

    def __enter__(self):
        for o in self._objs:
            o._busy += 1
        return self._handles

    def __exit__(self, *exc):
        for o in self._objs:
            o._busy -= 1
            if o._closed:
                o._release()


_running = []  # the _Callbacks of the calls under way, innermost last


class _Callbacks:
    """Python functions behind the C callbacks of one call. An exception
    cannot cross the library's C frames: one raised in a callback or a
    backend (KeyboardInterrupt included) stops the run, as a nonzero return
    does, and reraise() raises it again once the C call has returned.

    While the call runs in the main thread, Ctrl-C does not raise: it is
    noticed by the next callback (through a wakeup file descriptor, so also
    on a worker thread), which asks the library to stop; the call then
    raises KeyboardInterrupt."""

    def __init__(self):
        self.error = None
        self.cause = None   # an Exception a backend raised (see result())
        self.interrupted = False
        self._watch = None  # (the wakeup fd it replaced, read end, write end)

    def __enter__(self):
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            r, w = os.pipe()
            os.set_blocking(r, False)
            os.set_blocking(w, False)
            self._watch = (signal.set_wakeup_fd(w, warn_on_full_buffer=False), r, w)
            signal.signal(signal.SIGINT, self._on_sigint)
        _running.append(self)
        return self

    def _on_sigint(self, signum, frame):
        self.interrupted = True

    def stopping(self):
        """True when the run should stop: an error was kept, or Ctrl-C."""
        if self._watch is not None and not self.interrupted:
            try:
                self.interrupted = signal.SIGINT in os.read(self._watch[1], 256)
            except BlockingIOError:
                pass
        return self.interrupted or self.error is not None

    def keep(self, error):
        """Keeps the first exception, for reraise()."""
        if self.error is None:
            self.error = error

    def __exit__(self, *exc):
        _running.remove(self)
        if self._watch is not None:
            self.stopping()
            old, r, w = self._watch
            self._watch = None
            try:
                signal.set_wakeup_fd(old)
                signal.signal(signal.SIGINT, signal.default_int_handler)
            finally:
                os.close(r)
                os.close(w)
        if self.interrupted:
            self.keep(KeyboardInterrupt())

    def wrap(self, fn):
        def call(*args):
            try:
                if self.stopping():
                    return 1
                return 1 if fn(*args) else 0
            except BaseException as e:  # noqa: BLE001 - raised again by reraise()
                self.keep(e)
                return 1
        return call

    def progress(self, fn_type, progress):
        """A C progress callback of type fn_type that calls progress with a
        dict of the figures (a true return stops the run); made also when
        progress is None, to notice Ctrl-C. The caller holds it until the C
        call returns."""
        if progress is None:
            return fn_type(self.wrap(lambda p, _: 0))
        return fn_type(self.wrap(lambda p, _: progress(_progress_dict(p))))

    def reraise(self):
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def result(self, status):
        """After the call: the exception kept, else check(status), a
        QuboError chained to the exception a backend raised, if any."""
        self.reraise()
        try:
            return check(status)
        except QuboError as e:
            if self.cause is not None:
                raise e from self.cause
            raise


def _interrupted():
    """QUBO_CANCELLED when the innermost call under way saw Ctrl-C, else 0."""
    return QUBO_CANCELLED if _running and _running[-1].stopping() else 0


def _keep_backend_error(error):
    """Keeps an exception raised in a backend's slot for the innermost call
    under way: an Exception becomes the cause of the QuboError that the
    call raises; another BaseException (KeyboardInterrupt, SystemExit) is
    raised itself."""
    if _running:
        if isinstance(error, Exception):
            if _running[-1].cause is None:
                _running[-1].cause = error
        else:
            _running[-1].keep(error)


def _as_dict(obj, known=None):
    """The fields of a ctypes struct as a dict, without struct_size; only
    those within known bytes when given (a struct the library filled)."""
    out = {}
    for name, _ in obj._fields_:
        field = getattr(type(obj), name)
        if name == "struct_size" or (known is not None and field.offset + field.size > known):
            continue
        value = getattr(obj, name)
        out[name] = value.decode() if isinstance(value, bytes) else value
    return out


def _progress_dict(pointer):
    progress = pointer.contents
    return _as_dict(progress, progress.struct_size)


class Puzzle(_Owned):
    """A puzzle parsed from text (doc/formats.md) with its exact model."""

    def __init__(self, text, reduce=QUBO_REDUCE_DEFAULT, penalty=0.0, time_limit=0.0,
                 progress=None):
        """A puzzle parsed from text (qubo_puzzle_parse()). time_limit (seconds, 0 for
        none) and progress (called with a dict of qubo_puzzle_progress, phase
        QUBO_PUZZLE_PHASE_BUILD; a true return stops) cover parsing and building; a
        stopped build raises QuboError with status QUBO_TIME_LIMIT or QUBO_CANCELLED."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        self._build(lambda h, opts: _puzzle.qubo_puzzle_parse(byref(h), data, len(data),
                                                              byref(opts)),
                    reduce, penalty, time_limit, progress)

    @classmethod
    def from_file(cls, path, reduce=QUBO_REDUCE_DEFAULT, penalty=0.0, time_limit=0.0,
                  progress=None):
        """A puzzle read from a file (qubo_puzzle_parse_file()): QUBO_ERR_IO
        when it cannot be read, QUBO_ERR_PARSE (with the line) when its text
        is wrong; time_limit and progress as for Puzzle()."""
        self = cls.__new__(cls)
        self._build(lambda h, opts: _puzzle.qubo_puzzle_parse_file(byref(h), _path_arg(path),
                                                                   byref(opts)),
                    reduce, penalty, time_limit, progress)
        return self

    def _build(self, call, reduce, penalty, time_limit, progress):
        opts = _struct(PuzzleOptions, reduce=reduce, penalty=penalty, time_limit=time_limit)
        h = PuzzleP()
        with _Callbacks() as callbacks:
            progress_fn = callbacks.progress(PROGRESS_FN, progress)
            opts.progress = progress_fn
            status = call(h, opts)
        if h:
            self._h = h
        callbacks.reraise()
        check(status)
        if status in (QUBO_TIME_LIMIT, QUBO_CANCELLED):
            raise QuboError(status, "the build was stopped (%s)" %
                            ("time limit" if status == QUBO_TIME_LIMIT else "cancelled"))

    def _free(self, handle):
        _puzzle.qubo_puzzle_free(handle)

    @property
    def family(self):
        return _puzzle.qubo_puzzle_family(self._live())

    def stats(self):
        s = PuzzleStats(struct_size=ctypes.sizeof(PuzzleStats))
        check(_puzzle.qubo_puzzle_get_stats(self._live(), byref(s)))
        return {name: getattr(s, name) for name, _ in PuzzleStats._fields_
                if name != "struct_size"}

    def model(self):
        """The puzzle's compiled model, borrowed: it keeps the puzzle alive,
        and the puzzle's close() frees nothing until the model is closed too;
        the model is unusable once the puzzle is closed."""
        m = ModelP()
        check(_puzzle.qubo_puzzle_model(self._live(), byref(m)))
        return Model(handle=m, owner=self)

    def ground_energy(self):
        e = c_double()
        check(_puzzle.qubo_puzzle_ground_energy(self._live(), byref(e)))
        return e.value

    def _cells(self):
        s = self.stats()
        return s["width"] * s["height"]

    def decode(self, sample):
        """A model sample as a board: width x height bytes, 1 for a queen."""
        arr, n = _bytes_arg(sample)
        cells = self._cells()
        board = (c_uint8 * cells)()
        check(_puzzle.qubo_puzzle_decode(self._live(), arr, n, board, cells))
        return bytes(board)

    def check(self, board):
        """(number of broken rules, report naming each one)."""
        arr, n = _bytes_arg(board)
        report = ctypes.create_string_buffer(4096)
        violations = c_size_t()
        check(_puzzle.qubo_puzzle_check(self._live(), arr, n, report, len(report),
                                        byref(violations)))
        return violations.value, report.value.decode()

    def cell(self, row, column):
        """What cell (row, column) is (qubo_puzzle_get_cell): a dict of
        on_board, region (-1: none), given (-1: none), piece and literal."""
        c = PuzzleCell(struct_size=ctypes.sizeof(PuzzleCell))
        check(_puzzle.qubo_puzzle_get_cell(self._live(), row, column, byref(c)))
        return _as_dict(c)

    def solve(self, strategy=QUBO_PUZZLE_STRATEGY_AUTO, seed=0, time_limit=0.0, threads=0,
              solver=None, progress=None):
        """qubo_puzzle_solve(): the library's strategy for the puzzle.

        solver: a Solver to sample with (borrowed for the call), or None for
        the built-in "sa". progress: called with a dict of the run's figures
        (qubo_puzzle_progress) about every 100 ms; a true return stops the
        run. Returns a dict: status (QUBO_OK, or QUBO_CANCELLED /
        QUBO_TIME_LIMIT when stopped), the fields of qubo_puzzle_result
        (verdict, has_board, has_energy, violations, energy, method, rounds,
        reads, sweeps_first, sweeps_last, seed, nodes, seconds, method_id),
        method_name (qubo_puzzle_method_name() of method_id), and board:
        width x height bytes, or None when has_board is 0."""
        cells = self._cells()
        board = (c_uint8 * max(cells, 1))()
        opts = _struct(PuzzleSolveOptions, strategy=strategy, threads=threads, seed=seed,
                       time_limit=time_limit)
        res = PuzzleResult(struct_size=ctypes.sizeof(PuzzleResult))
        with _Call(self, solver) as handles, _Callbacks() as callbacks:
            if solver is not None:
                opts.solver = handles[1]
            progress_fn = callbacks.progress(PROGRESS_FN, progress)
            opts.progress = progress_fn
            status = _puzzle.qubo_puzzle_solve(handles[0], byref(opts), board, cells,
                                               byref(res))
        callbacks.result(status)
        out = _as_dict(res)
        del out["reserved"]
        out["method_name"] = _puzzle.qubo_puzzle_method_name(res.method_id).decode()
        out["status"] = status
        out["board"] = bytes(board[:cells]) if res.has_board else None
        return out

    def count(self, method=QUBO_PUZZLE_COUNT_AUTO, limit=0, time_limit=0.0, threads=0,
              max_variables=0, on_solution=None, progress=None):
        """qubo_puzzle_count(): the distinct solutions (the optimal ones of an
        optimisation puzzle), each confirmed by the rule checker.

        on_solution: called with each solution's board (bytes); a true return
        stops the count. progress: as for solve(). Returns a dict: status
        (QUBO_OK; QUBO_CANCELLED or QUBO_TIME_LIMIT when stopped) and the
        fields of qubo_puzzle_count_result (complete, optimal_only, count,
        energy, method, nodes, seconds)."""
        opts = _struct(PuzzleCountOptions, method=method, threads=threads, limit=limit,
                       time_limit=time_limit, max_variables=max_variables)
        res = PuzzleCountResult(struct_size=ctypes.sizeof(PuzzleCountResult))
        with _Call(self) as (h,), _Callbacks() as callbacks:
            if on_solution is not None:
                solution_fn = SOLUTION_FN(
                    callbacks.wrap(lambda b, n, _: on_solution(bytes(b[:n]))))
                opts.on_solution = solution_fn
            progress_fn = callbacks.progress(PROGRESS_FN, progress)
            opts.progress = progress_fn
            status = _puzzle.qubo_puzzle_count(h, byref(opts), byref(res))
        callbacks.result(status)
        out = _as_dict(res)
        out["status"] = status
        return out

    def format_solution(self, board):
        arr, n = _bytes_arg(board)
        length = c_size_t()
        check(_puzzle.qubo_puzzle_format_solution(self._live(), arr, n, None, 0, byref(length)))
        buf = ctypes.create_string_buffer(length.value + 1)
        check(_puzzle.qubo_puzzle_format_solution(self._live(), arr, n, buf, len(buf),
                                                  byref(length)))
        return buf.value.decode()


def _demo(places):
    """A tiny demonstration (python3 -m qubo [LIBDIR ...]): the libraries
    loaded and the ground states of a two-variable model."""
    load(*places)
    print("libqubo %s: %s" % (version(), ", ".join(library_paths())))
    with Model(2) as m:
        m.add_linear(0, -1.0)
        m.add_linear(1, -1.0)
        m.add_quadratic(0, 1, 3.0)
        m.compile()
        with Solver("exhaustive") as s, s.sample(m) as res:
            for sample, energy, occ in res:
                print(list(sample), energy, occ)
