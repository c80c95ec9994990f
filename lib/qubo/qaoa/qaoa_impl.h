/*
 * The QAOA state-vector simulator's private layout, shared by its sources
 * (qaoa.c: the object, energies, figures and reads; layer.c: one layer of
 * cost phase and mixer; optimize.c: the angle optimiser) and the "qaoa"
 * solver. Never installed.
 *
 * The state is kept as z · (re + i·im): two arrays of 2^n doubles (real
 * and imaginary parts apart, so that every loop over amplitudes is a plain
 * vector loop) and one complex factor z that collects the scalars the
 * layers leave (the mixer's cos^n or (−i sin)^n, the 2^{−n/2} of |+⟩).
 *
 * Energies are never stored. A basis state x splits into its low L bits l
 * and its high bits h = x >> L:
 *
 *   E(x) = E_high(h) + T[l] + Σ_{i<L} c_i(h) l_i,
 *
 * where T (2^L entries, computed once) is the energy of the low variables
 * among themselves, c_i(h) the coupling of low variable i to the high
 * variables set in h, and E_high(h) the energy of the high variables with
 * the offset. One "run" of 2^L states shares E_high and c, which cost O(m)
 * to compute; the run's energies (and phases e^{−iγE}) follow by doubling
 * over the L low bits, so a layer calls sin and cos L + 1 times per 2^L
 * amplitudes.
 */
#ifndef QUBO_QAOA_IMPL_H
#define QUBO_QAOA_IMPL_H

#include "../model_impl.h"
#include "qubo/qaoa.h"

/* Low bits of a run (at most). */
#define QUBO__QAOA_RUN_BITS 10
/* Qubits below which everything runs on the calling thread. */
#define QUBO__QAOA_MT_MIN_BITS 18
/* The state is allocated with at least this many amplitudes (so that the
 * vector loops need no remainder); the padding stays zero. */
#define QUBO__QAOA_MIN_AMPS 64u

/* A coupling between a low variable (lo < L) and a high one (hi >= L, kept
 * as hi − L), or between two high ones. */
typedef struct qubo__qaoa_term {
	uint32_t a, b;
	double w;
} qubo__qaoa_term;

/* The alignment of the state and the layer's scratch: a vector of 8 doubles is one cache line. */
#define QUBO__QAOA_ALIGN 64

struct qubo_qaoa {
	qubo_allocator alloc;
	unsigned n;        /* qubits */
	unsigned L;        /* low bits of a run: min(n, QUBO__QAOA_RUN_BITS) */
	size_t N;          /* 2^n */
	size_t cap;        /* amplitudes allocated: max(N, QUBO__QAOA_MIN_AMPS) */
	double *re, *im;   /* the state, z · (re + i im), 64-byte aligned */
	void *re_mem, *im_mem; /* as allocated, QUBO__QAOA_ALIGN bytes more */
	double zr, zi;
	int threads;       /* as set: 0 means one per CPU */

	/* the energy split */
	double *T;                /* 2^L */
	double *hd;               /* linear weights of the high variables (n − L) */
	qubo__qaoa_term *lh;      /* low–high couplings: a = low, b = high − L */
	size_t num_lh;
	qubo__qaoa_term *hh;      /* high–high couplings, both − L */
	size_t num_hh;
	double offset;

	/* the Ising form, for the depth-1 closed form of the optimiser */
	double *ising_h;          /* n */
	double *ising_j;          /* n × n, symmetric, zero diagonal */
	double ising_offset;

	/* the model's weight sum, which bounds |E(x)| (the phases' scale) */
	double weight_sum;

	/* the lowest energy over all states, and how many states have it */
	double emin;
	uint64_t nmin;
	double tol;               /* energies within tol of emin count as lowest */
};

/* E_high and c_0 .. c_{L−1} of the run with high bits h. */
void qubo__qaoa_run_terms(const qubo_qaoa *q, uint64_t h, double *ehigh, double *c);

/* The energies of the run with high bits h (2^L of them) into e. */
void qubo__qaoa_run_energies(const qubo_qaoa *q, uint64_t h, double *e, double *c);

/* Resets the state to |+⟩^n. */
void qubo__qaoa_reset(qubo_qaoa *q);

/* The first QUBO__QAOA_ALIGN boundary in mem (allocated that many bytes longer). */
double *qubo__qaoa_align(void *mem);

/* The angle rule of qubo/qaoa.h (QUBO_QAOA_MAX_PHASE), for a model of
 * weight sum w: |γ| · w at most QUBO_QAOA_MAX_PHASE, 2β finite. The index
 * of the first of p gammas and p betas it refuses (gammas first, betas at
 * p + k), or 2p when it accepts them all. */
size_t qubo__qaoa_bad_angle(double w, size_t p, const double *gammas, const double *betas);

/* The rule's check, the one every way in takes: QUBO_ERR_MISUSE for a
 * NULL array with p > 0, QUBO_ERR_INVALID_ARG naming the first angle
 * refused, in fn's name. */
int qubo__qaoa_check_angles(const char *fn, double w, size_t p, const double *gammas,
			    const double *betas);

/* Evolves from |+⟩ through p layers. Angles the rule refuses are reported
 * in fn's name (qubo__qaoa_check_angles) and leave the state as it was;
 * after any other failure the state is |+⟩. */
int qubo__qaoa_evolve(qubo_qaoa *q, const char *fn, size_t p, const double *gammas,
		      const double *betas);

/* ⟨C⟩ and the lowest-energy probability of the current state;
 * QUBO_ERR_INTERNAL, with nothing written, when one is not finite. */
int qubo__qaoa_figures(qubo_qaoa *q, double *expectation, double *lowest);

/* Worker threads for a state of q's size, and for n qubits at a setting. */
unsigned qubo__qaoa_workers(const qubo_qaoa *q);
unsigned qubo__qaoa_workers_for(size_t n, int threads);

/* Sets the qubits from which the passes use worker threads, for the whole
 * process (0: QUBO__QAOA_MT_MIN_BITS again). For tests, which check the
 * threaded passes on states small enough for valgrind: the results are the
 * same at any setting. */
void qubo__qaoa_set_mt_min_bits(unsigned bits);

/* A stop test for the optimiser: nonzero stops it (it then returns the
 * best point so far with QUBO_CANCELLED). */
typedef int (*qubo__qaoa_stop_fn)(void *user_data, double best);

/* qubo_qaoa_optimize with a stop test (may be NULL). */
int qubo__qaoa_optimize(qubo_qaoa *q, size_t p, size_t iterations, double *gammas,
			double *betas, double *expectation, qubo__qaoa_stop_fn stop,
			void *user_data);

/* The name of the kernels in use: "base", "avx2" or "avx512". */
const char *qubo__qaoa_isa(void);

/* At most the bytes a simulator of n qubits with w workers allocates: the
 * peak of what is live at once, whatever the model's couplers and the
 * depth (qubo_qaoa_memory()). */
uint64_t qubo__qaoa_bytes(size_t n, unsigned workers);

#endif /* QUBO_QAOA_IMPL_H */
