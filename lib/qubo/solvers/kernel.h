/*
 * The internal contract between the solver front end (the vtable, options
 * and sample sets in lib/qubo/solvers/solver.c and friends) and the built-in
 * solver kernels (sa.c, exhaustive.c, tabu.c, descent.c, pt.c). Never installed.
 *
 * A kernel reads a compiled model through model_impl.h, writes raw samples
 * (one byte per variable, 0/1) and their energies into caller buffers, and
 * honours the run control below. Energies a kernel returns are recomputed by
 * the front end with qubo_model_energy before they reach the user.
 */
#ifndef QUBO_SOLVERS_KERNEL_H
#define QUBO_SOLVERS_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "../model_impl.h"
#include "pool.h"

/* Run control shared by every kernel. Why a run ended (qubo__result.stop)
 * is an enum qubo__stop of the worker pool (pool.h). */
typedef struct qubo__run {
	size_t num_reads;      /* >= 1 */
	uint64_t seed;         /* read r uses a stream derived from (seed, first_read + r) only */
	uint64_t first_read;   /* index of the first read in the whole run (a slice) */
	int threads;           /* >= 1; results must not depend on it */
	double time_limit;     /* seconds; <= 0 means none */
	int has_target;        /* stop when a read reaches energy <= target */
	double target;
	/* Called on the calling thread only, about every 100 ms and at the end;
	 * a nonzero return stops the run within one sweep. May be NULL. */
	int (*progress)(size_t reads_done, size_t num_reads, double best_energy, void *user_data);
	void *user_data;
	/* Allocator for the kernel's scratch memory (the solver's). Added by the
	 * front end; a kernel may use m->alloc instead. Never NULL. */
	const qubo_allocator *alloc;
} qubo__run;

/* What a kernel reports back. */
typedef struct qubo__result {
	size_t reads_done; /* samples written (reads stopped early keep their best state) */
	int stop;          /* enum qubo__stop */
	double seconds;    /* wall time of the sampling itself */
	uint64_t flips;    /* flip attempts made, for ns-per-flip statistics */
} qubo__result;

/* Simulated annealing parameters (sa.c). */
typedef struct qubo__sa_params {
	size_t num_sweeps;   /* >= 1 */
	double beta_hot;     /* both 0: the default rule of qubo__sa_default_betas */
	double beta_cold;
	unsigned flags;      /* 0, or QUBO__SA_* below (tests and benchmarks) */
	int keep_lowest;     /* 1: a read returns its lowest state seen at the end
				of a sweep (the start counts); 0: its final state */
} qubo__sa_params;

/* Flags of qubo__sa_params: the samples are the same with or without them,
 * except that QUBO__SA_NO_F32 may change real-valued reads (double fields). */
#define QUBO__SA_PORTABLE 1u /* never the SIMD sweeps */
#define QUBO__SA_NO_F32 2u   /* never float32 fields */
#define QUBO__SA_NO_LANES 4u /* never several reads per SIMD sweep */

/* Default β range from the model (doc/solvers-sa.md, "Default β range"). */
int qubo__sa_default_betas(const qubo_model *m, double *beta_hot, double *beta_cold);
/* Largest |weight| (linear or coupler) of a compiled model; 0 for a model
 * without weights (schedule.c). */
double qubo__max_weight(const qubo_model *m);

/* Runs simulated annealing: samples has num_reads × n bytes, energies
 * num_reads doubles. Returns QUBO_OK (see res->stop) or an error. */
int qubo__sa_sample(const qubo_model *m, const qubo__sa_params *p, const qubo__run *run,
		    uint8_t *samples, double *energies, qubo__result *res);

/* Simulated annealing with group moves (sa_groups.c): the groups of m
 * (qubo_model_add_group) of up to 10 variables are set to their best values
 * after each flip of an ungrouped variable, never flipped on their own.
 * Same parameters (flags ignored), run control and outputs as
 * qubo__sa_sample. */
int qubo__sa_groups_sample(const qubo_model *m, const qubo__sa_params *p, const qubo__run *run,
			   uint8_t *samples, double *energies, qubo__result *res);

/* Steepest descent (descent.c): num_reads reads, each from a random state
 * (initial == NULL) or from row r of initial (num_reads × n bytes). Each read
 * flips the variable with the most negative energy change until none lowers
 * the energy. samples and energies as for qubo__sa_sample. */
int qubo__descent_sample(const qubo_model *m, const qubo__run *run, const uint8_t *initial,
			 uint8_t *samples, double *energies, qubo__result *res);

/* Tabu search parameters (tabu.c); 0 means the default rule. */
typedef struct qubo__tabu_params {
	size_t tenure;         /* < n; unset: min(20, n / 4), or n / 20 if larger */
	int tenure_set;
	size_t num_iterations; /* per restart; 0: max(1000, 10 n) */
	size_t num_restarts;   /* after the first run of each read */
} qubo__tabu_params;

/* One-flip tabu search with aspiration and restarts from an elite of the
 * best states found (doc/solvers.md); starts as qubo__descent_sample. */
int qubo__tabu_sample(const qubo_model *m, const qubo__tabu_params *p, const qubo__run *run,
		      const uint8_t *initial, uint8_t *samples, double *energies,
		      qubo__result *res);

/* 1 when qubo__tabu_sample picks its moves from bucket lists on m (every
 * weight a multiple of one power of two, every flip's change within 2^20
 * of those units), 0 when it scans. m is compiled. */
int qubo__tabu_buckets(const qubo_model *m);

/* Parallel tempering parameters (pt.c); 0 means the default rule. */
typedef struct qubo__pt_params {
	size_t num_sweeps;   /* rounds per read, >= 1 */
	size_t num_replicas; /* 0: qubo__pt_default_replicas */
	double beta_hot;     /* both 0: the default rule of qubo__sa_default_betas */
	double beta_cold;
	unsigned flags;      /* 0, or QUBO__PT_* below (tests and benchmarks) */
	int keep_lowest;     /* 1: a read returns the lowest state of its replicas
				seen at the end of a sweep (the starts count) or
				of a descent from the coldest one; 0: the
				coldest rung's final state */
} qubo__pt_params;

/* Never the integer engine, or never its AVX2 sweeps: the samples are the
 * same (on a model the integer engine takes). */
#define QUBO__PT_REAL 1u
#define QUBO__PT_PORTABLE 2u

/* 1 when qubo__pt_sample runs m on its integer engine (every weight a
 * multiple of one power of two, every flip's change within 4096 of those
 * units), 0 when on doubles. m is compiled. */
int qubo__pt_integer(const qubo_model *m);

/* Default ladder ends (doc/solvers.md, "pt"): the cold end log(1000) /
 * gap with the gap of the "sa" rule; the hot end 4 / s, s² the mean over
 * variables of Σ_j J_ij², within [the "sa" rule's hot end, β_cold / 2]. */
int qubo__pt_default_betas(const qubo_model *m, double *beta_hot, double *beta_cold);

/* Rung t of a ladder of R: beta_hot · (beta_cold / beta_hot)^(t / (R − 1))
 * within [beta_hot, beta_cold], exactly beta_hot for the first and
 * beta_cold for the last (and the only one of R = 1); in logarithms when
 * that ratio is beyond the range of double. */
double qubo__pt_rung(double beta_hot, double beta_cold, size_t t, size_t R);

/* Replicas per read when unset: rungs a factor 1 + 5.8 / sqrt(n) apart at
 * most from beta_hot to beta_cold, within 4..64, rounded up to a multiple
 * of 8 (replicas run 8 at a time in lanes). */
size_t qubo__pt_default_replicas(size_t n, double beta_hot, double beta_cold);

/* Parallel tempering over a geometric ladder of inverse temperatures
 * (doc/solvers.md); starts as qubo__descent_sample, every replica of read r
 * from the same state. samples and energies as for qubo__sa_sample. */
int qubo__pt_sample(const qubo_model *m, const qubo__pt_params *p, const qubo__run *run,
		    const uint8_t *initial, uint8_t *samples, double *energies,
		    qubo__result *res);

/* Exhaustive enumeration (exhaustive.c). */
typedef struct qubo__exh_params {
	size_t num_lowest;        /* 0: ground states; k: the k lowest states */
	size_t max_ground_states; /* ground states stored (all are counted) */
} qubo__exh_params;

typedef struct qubo__exh_output {
	size_t num_states;          /* rows in states */
	uint8_t *states;            /* num_states × n bytes, from run->alloc; caller frees */
	uint64_t num_ground_states; /* ground-state mode: states at the minimum */
	uint64_t states_visited;
} qubo__exh_output;

/* Enumerates all 2^n states (n <= QUBO_EXHAUSTIVE_MAX_VARIABLES) in Gray-code
 * order with incremental energies, split over run->threads threads by fixing
 * the top bits. run->num_reads and run->seed are ignored. */
int qubo__exhaustive_sample(const qubo_model *m, const qubo__exh_params *p, const qubo__run *run,
			    qubo__exh_output *out, qubo__result *res);

#endif /* QUBO_SOLVERS_KERNEL_H */
