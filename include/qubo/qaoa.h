/**
 * @file qubo/qaoa.h
 * @brief QAOA: an exact state-vector simulator of the Quantum Approximate
 *        Optimization Algorithm on a model, its angle optimiser, and the
 *        circuit as OpenQASM.
 *
 * Conventions (doc/qaoa.md has them in full):
 * - Qubit i is variable i, and the basis state |1⟩ of a qubit is the value
 *   1 of its variable. A basis state is an index x in [0, 2^n): bit i of x
 *   is x_i, so qubit 0 is the least significant bit.
 * - The cost operator C is diagonal with the model's energies: C|x⟩ = E(x)|x⟩,
 *   offset included. With the spins s_i = 2x_i − 1 of qubo_model_to_ising(),
 *   s_i is −Z_i.
 * - The state of depth p with angles γ_1..γ_p and β_1..β_p is
 *   |γ,β⟩ = e^{−iβ_p B} e^{−iγ_p C} ⋯ e^{−iβ_1 B} e^{−iγ_1 C} |+⟩^{⊗n},
 *   with the mixer B = Σ_i X_i, so that e^{−iβ B} is Rx(2β) on every qubit.
 *   The simulator keeps every phase; the OpenQASM circuit drops the global
 *   phase (e^{−iγ_k·offset} and the phases of its gate decompositions), which
 *   no measurement can see.
 *
 * A simulator (qubo_qaoa) holds the state of a model of n variables as 2^n
 * complex amplitudes: 16 · 2^n bytes, 1 GiB at 26 qubits. It is refused
 * before anything is allocated when n is above its max_qubits.
 *
 * Threads: a simulator is used by one thread at a time; it runs its own
 * worker threads (qubo_qaoa_set_threads()), and its results are the same,
 * bit for bit, at any thread count. The built-in solver "qaoa"
 * (qubo_solver_new()) is this simulator behind the solver table.
 */
#ifndef QUBO_QAOA_H
#define QUBO_QAOA_H

#include "alloc.h"
#include "common.h"
#include "model.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** An opaque state-vector simulator for one model. */
typedef struct qubo_qaoa qubo_qaoa;

/** The default largest model, in variables (qubits), that a simulator and
 *  the "qaoa" solver accept: 26, a 1 GiB state. */
#define QUBO_QAOA_DEFAULT_MAX_QUBITS 26

/** The largest max_qubits that can be asked for. */
#define QUBO_QAOA_MAX_QUBITS 40

/** The largest depth p. */
#define QUBO_QAOA_MAX_DEPTH 64

/** The largest cost phase accepted, in radians: 2^52, about 4.5e15. A cost
 *  angle γ_k is accepted when it is finite and |γ_k| · W is at most this,
 *  W being the model's weight sum |offset| + Σ|h_i| + Σ|J_ij|
 *  (qubo/model.h), which bounds |E(x)|, so every phase γ_k E(x) the
 *  simulator computes and every cost gate angle of the circuit (at most
 *  2|γ_k| W). A double holds a larger phase to no better than half a
 *  radian, and soon not at all. A mixer angle β_k is accepted when it is
 *  finite and so is 2β_k, the angle of its gates. qubo_qaoa_evolve(), the
 *  "qaoa" solver's "angles" and qubo_qaoa_qasm() check their angles with
 *  this one rule and name the first one refused; the optimiser never
 *  tries one. @since 0.2 */
#define QUBO_QAOA_MAX_PHASE 4503599627370496.0

/** OpenQASM 2.0, with the gates of qelib1.inc only (qubo_qaoa_qasm()). */
#define QUBO_QASM_2 2
/** OpenQASM 3 (qubo_qaoa_qasm()). */
#define QUBO_QASM_3 3

/**
 * The bytes a simulator of @p num_qubits qubits allocates, at most: the
 * peak of what it holds at once (the state, the model's terms for any
 * number of couplers, the optimiser at any depth, and scratch for
 * @p threads worker threads; 0 means one per CPU), not counting the
 * allocator's own overhead.
 * @param[in] num_qubits n.
 * @param[in] threads worker threads, as for qubo_qaoa_set_threads().
 * @param[out] bytes_out receives the size; UINT64_MAX when it does not fit.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE (@p threads not in 0..1024),
 *         #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_memory(size_t num_qubits, int threads, uint64_t *bytes_out);

/**
 * Creates a simulator of a compiled model, in the state |+⟩^{⊗n} (depth 0).
 *
 * The model is copied (its Ising form); it may be changed or freed after the
 * call. A model of more than @p max_qubits variables is refused with
 * #QUBO_ERR_TOO_LARGE before anything is allocated, with the memory its
 * state would need in the message.
 * @param[out] out receives the simulator; NULL on failure.
 * @param[in] model a compiled model.
 * @param[in] max_qubits the largest number of variables accepted, 1 to
 *            #QUBO_QAOA_MAX_QUBITS; 0 means #QUBO_QAOA_DEFAULT_MAX_QUBITS.
 * @param[in] allocator optional allocator, copied; NULL for the C library's.
 * @return #QUBO_OK, #QUBO_ERR_TOO_LARGE, #QUBO_ERR_OUT_OF_RANGE
 *         (@p max_qubits, or the model's weight sum is above
 *         #QUBO_MODEL_MAX_WEIGHT_SUM), #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE
 *         (NULL, model not compiled).
 * @since 0.1
 */
QUBO_API int qubo_qaoa_new(qubo_qaoa **out, const qubo_model *model, size_t max_qubits,
			   const qubo_allocator *allocator);

/**
 * Frees a simulator. NULL is a no-op.
 * @param[in] qaoa the simulator.
 * @since 0.1
 */
QUBO_API void qubo_qaoa_free(qubo_qaoa *qaoa);

/**
 * The number of qubits (the model's variables).
 * @param[in] qaoa the simulator; NULL gives 0.
 * @return n.
 * @since 0.1
 */
QUBO_API size_t qubo_qaoa_num_qubits(const qubo_qaoa *qaoa);

/**
 * Sets the worker threads of the simulator's later calls. Results do not
 * depend on it.
 * @param[in,out] qaoa the simulator.
 * @param[in] threads 0 (the default: one per online CPU) to 1024.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_set_threads(qubo_qaoa *qaoa, int threads);

/**
 * Prepares the state of depth @p p with the given angles, from |+⟩^{⊗n}.
 * @param[in,out] qaoa the simulator.
 * @param[in] p the depth, 0 to #QUBO_QAOA_MAX_DEPTH (0 gives |+⟩^{⊗n}).
 * @param[in] gammas the p cost angles γ_1..γ_p, finite, with |γ_k| times the
 *            model's weight sum at most #QUBO_QAOA_MAX_PHASE (NULL when p is 0).
 * @param[in] betas the p mixer angles β_1..β_p, finite, and 2β_k too (NULL
 *            when p is 0).
 * @return #QUBO_OK, #QUBO_ERR_INVALID_ARG (an angle not finite, or above
 *         its bound; the state is then left as it was),
 *         #QUBO_ERR_OUT_OF_RANGE (@p p), #QUBO_ERR_NOMEM (thread scratch;
 *         the state is then |+⟩^{⊗n}), #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_evolve(qubo_qaoa *qaoa, size_t p, const double *gammas,
			      const double *betas);

/**
 * Figures of the current state: the expectation of the energy ⟨C⟩ and the
 * probability of measuring a state of the lowest energy. Each output is
 * optional.
 * @param[in] qaoa the simulator.
 * @param[out] expectation_out receives Σ_x |ψ_x|² E(x).
 * @param[out] lowest_probability_out receives Σ |ψ_x|² over the states x
 *             whose energy is the model's lowest (qubo_qaoa_lowest_energy()).
 * @return #QUBO_OK, #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE; #QUBO_ERR_INTERNAL,
 *         with nothing written, should a figure not be finite (the checks
 *         of the model and the angles are meant to make that impossible).
 * @since 0.1
 */
QUBO_API int qubo_qaoa_expectation(qubo_qaoa *qaoa, double *expectation_out,
				   double *lowest_probability_out);

/**
 * The model's lowest energy over all 2^n states, and how many states have
 * it (energies within 1e-9 · max(1, |E|) of it count as equal). Found by
 * enumeration when the simulator is created.
 * @param[in] qaoa the simulator.
 * @param[out] energy_out optional; receives the lowest energy.
 * @param[out] count_out optional; receives the number of lowest states.
 * @return #QUBO_OK, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_lowest_energy(const qubo_qaoa *qaoa, double *energy_out,
				     uint64_t *count_out);

/**
 * Copies the amplitudes of the current state: entry x is ⟨x|ψ⟩, as its real
 * and imaginary parts (numpy's complex128 layout).
 * @param[in] qaoa the simulator.
 * @param[out] amplitudes receives 2 · 2^n doubles: re_0, im_0, re_1, ...
 * @param[in] capacity the length of @p amplitudes in doubles.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_amplitudes(const qubo_qaoa *qaoa, double *amplitudes, size_t capacity);

/**
 * Copies the outcome probabilities |⟨x|ψ⟩|² of the current state.
 * @param[in] qaoa the simulator.
 * @param[out] probabilities receives 2^n doubles.
 * @param[in] capacity the length of @p probabilities.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_probabilities(const qubo_qaoa *qaoa, double *probabilities,
				     size_t capacity);

/**
 * Measures the current state @p num_reads times: read r is drawn from
 * |⟨x|ψ⟩|² with a random stream that depends only on (@p seed, r), so the
 * reads are the same at any thread count.
 * @param[in] qaoa the simulator.
 * @param[in] seed the random seed.
 * @param[in] num_reads how many reads.
 * @param[out] samples receives @p num_reads rows of n bytes (x_0 .. x_{n−1},
 *             0 or 1).
 * @param[in] capacity the length of @p samples; at least num_reads · n.
 * @return #QUBO_OK, #QUBO_ERR_BUFFER_TOO_SMALL, #QUBO_ERR_OUT_OF_RANGE
 *         (num_reads · n overflows), #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE;
 *         #QUBO_ERR_INTERNAL, as qubo_qaoa_expectation().
 * @since 0.1
 */
QUBO_API int qubo_qaoa_sample(qubo_qaoa *qaoa, uint64_t seed, size_t num_reads,
			      uint8_t *samples, size_t capacity);

/**
 * Optimises the angles of depth @p p to minimise the expectation ⟨C⟩, and
 * leaves the simulator in the state of the result.
 *
 * Depth 1 starts from the best point of a grid over (γ, β), evaluated with
 * the closed form of the depth-1 expectation. Every depth d > 1 starts from
 * the interpolation of the optimised angles of depth d − 1 (INTERP: Zhou,
 * Wang, Choi, Pichler and Lukin, "Quantum Approximate Optimization
 * Algorithm: Performance, Mechanism, and Implementation on Near-Term
 * Devices", Phys. Rev. X 10, 021067, 2020). Each depth is refined by the
 * Nelder–Mead simplex method, a derivative-free method, for at most
 * @p iterations iterations. The result depends only on the model, @p p and
 * @p iterations. A point with an angle that the rule of
 * #QUBO_QAOA_MAX_PHASE refuses counts as worse than any other, so the
 * result's angles are accepted by qubo_qaoa_evolve() and qubo_qaoa_qasm().
 * @param[in,out] qaoa the simulator.
 * @param[in] p the depth, 1 to #QUBO_QAOA_MAX_DEPTH.
 * @param[in] iterations Nelder–Mead iterations per depth, 0 for the default
 *            (100), at most 1000000.
 * @param[out] gammas receives the p cost angles.
 * @param[out] betas receives the p mixer angles.
 * @param[out] expectation_out optional; receives ⟨C⟩ at the result.
 * @return #QUBO_OK, #QUBO_ERR_OUT_OF_RANGE, #QUBO_ERR_NOMEM,
 *         #QUBO_ERR_MISUSE; #QUBO_ERR_INTERNAL, as qubo_qaoa_expectation().
 * @since 0.1
 */
QUBO_API int qubo_qaoa_optimize(qubo_qaoa *qaoa, size_t p, size_t iterations, double *gammas,
				double *betas, double *expectation_out);

/**
 * Writes the QAOA circuit of a model as an OpenQASM program: Hadamards on
 * every qubit, then for each layer k the cost layer (rz(−2γ_k h_i) on
 * qubit i for each Ising field h_i ≠ 0, and cx i,j; rz(2γ_k J_ij) j; cx i,j
 * for each coupling J_ij ≠ 0, in the order of qubo_model_to_ising()) and the
 * mixer (rx(2β_k) on every qubit), then a measurement of qubit i into bit
 * i. Version 2 uses only the gates of qelib1.inc. The global phase is
 * dropped. The text is NUL-terminated when it fits with its terminator (a
 * capacity of exactly its length holds it without the NUL, as
 * qubo_qbsolv_write() does); call with @p capacity 0 to learn the length:
 * that call writes nothing and returns #QUBO_OK with the length in
 * @p length_out.
 * @param[in] model a compiled model.
 * @param[in] p the depth, 0 to #QUBO_QAOA_MAX_DEPTH.
 * @param[in] gammas the p cost angles, finite, with |γ_k| times the model's
 *            weight sum at most #QUBO_QAOA_MAX_PHASE.
 * @param[in] betas the p mixer angles, finite, and 2β_k too.
 * @param[in] version #QUBO_QASM_2 or #QUBO_QASM_3.
 * @param[out] buffer destination (may be NULL when @p capacity is 0).
 * @param[in] capacity its size in bytes.
 * @param[out] length_out optional; receives the length without the NUL.
 * @return #QUBO_OK (also for the size query), #QUBO_ERR_BUFFER_TOO_SMALL (a
 *         nonzero @p capacity below the length), #QUBO_ERR_INVALID_ARG
 *         (version, an angle not finite or above its bound),
 *         #QUBO_ERR_OUT_OF_RANGE (@p p, or the model's weight sum),
 *         #QUBO_ERR_NOMEM, #QUBO_ERR_MISUSE.
 * @since 0.1
 */
QUBO_API int qubo_qaoa_qasm(const qubo_model *model, size_t p, const double *gammas,
			    const double *betas, int32_t version, char *buffer, size_t capacity,
			    size_t *length_out);

QUBO_END_DECLS

#endif /* QUBO_QAOA_H */
