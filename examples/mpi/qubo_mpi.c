/*
 * libqubo over MPI (doc/mpi.md): more reads of one model than one machine
 * gives, or a batch of puzzles, spread over the ranks of an MPI job.
 *
 *   mpirun -np 4 qubo_mpi sample [--solver NAME] [--reads N] [--seed N]
 *                               [--sweeps N] [--threads N] MODEL.qubo
 *   mpirun -np 4 qubo_mpi puzzles [--seed N] [--time-limit S] [--threads N]
 *                                FILE...
 *
 * sample: rank 0 reads the model (qbsolv format) and sends its text to every
 * rank; rank k of P makes reads [k R / P, (k + 1) R / P) of the one seeded
 * run of R reads (option first_read), and rank 0 merges the slices into the
 * sample set of that run, bit for bit the same as one process (and as
 * `qubo solve --reads R --seed S` with the same solver options), and prints
 * it as `qubo solve` does: one line per distinct sample,
 * `<energy> <count> <bits>`, lowest energy first; figures on stderr.
 *
 * puzzles: file i goes to rank i mod P, which solves it with
 * qubo_puzzle_solve() (one thread and seed 1 by default, so the result does
 * not depend on P); rank 0 prints every result in the order of the files.
 *
 * The core library has no MPI in it: only this program links MPI.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <qubo.h>
#include <qubo/puzzle.h>

typedef struct args {
	const char *mode;
	const char *solver;
	int64_t reads;
	int64_t seed;
	int64_t sweeps;
	int64_t threads;
	int threads_set;
	double time_limit;
	const char *sets[32]; /* --set KEY=VALUE, in order */
	int num_sets;
	int first_file; /* argv index of the first file */
	int argc;
	char **argv;
} args;

static int rank, nranks;

static void usage(FILE *f)
{
	fprintf(f, "usage: qubo_mpi sample [--solver NAME] [--reads N] [--seed N] [--sweeps N]\n"
		   "                       [--threads N] [--set KEY=VALUE]... MODEL.qubo\n"
		   "       qubo_mpi puzzles [--seed N] [--time-limit S] [--threads N] FILE...\n"
		   "Run under mpirun; see doc/mpi.md.\n");
}

static int parse_int(const char *flag, const char *text, int64_t lo, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end || v < lo) {
		if (!rank)
			fprintf(stderr, "qubo_mpi: %s: not an integer >= %lld: '%s'\n", flag,
				(long long)lo, text);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, args *a)
{
	int i;

	memset(a, 0, sizeof *a);
	a->solver = "sa";
	a->reads = 16;
	a->seed = 1;
	a->time_limit = 60;
	a->argc = argc;
	a->argv = argv;
	if (argc < 2 || (strcmp(argv[1], "sample") && strcmp(argv[1], "puzzles"))) {
		if (!rank)
			usage(stderr);
		return -1;
	}
	a->mode = argv[1];
	for (i = 2; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *f = argv[i];
		if (i + 1 >= argc) {
			if (!rank)
				fprintf(stderr, "qubo_mpi: %s needs a value\n", f);
			return -1;
		}
		if (!strcmp(f, "--solver")) {
			a->solver = argv[++i];
		} else if (!strcmp(f, "--reads")) {
			if (parse_int(f, argv[++i], 1, &a->reads))
				return -1;
		} else if (!strcmp(f, "--seed")) {
			if (parse_int(f, argv[++i], INT64_MIN, &a->seed))
				return -1;
		} else if (!strcmp(f, "--sweeps")) {
			if (parse_int(f, argv[++i], 1, &a->sweeps))
				return -1;
		} else if (!strcmp(f, "--threads")) {
			if (parse_int(f, argv[++i], 0, &a->threads))
				return -1;
			a->threads_set = 1;
		} else if (!strcmp(f, "--set")) {
			if (a->num_sets == 32 || !strchr(argv[i + 1], '=')) {
				if (!rank)
					fprintf(stderr, "qubo_mpi: --set KEY=VALUE, at most 32\n");
				return -1;
			}
			a->sets[a->num_sets++] = argv[++i];
		} else if (!strcmp(f, "--time-limit")) {
			char *end;
			a->time_limit = strtod(argv[++i], &end);
			if (end == argv[i] || *end || !(a->time_limit >= 0)) {
				if (!rank)
					fprintf(stderr, "qubo_mpi: --time-limit: not seconds >= 0: "
							"'%s'\n", argv[i]);
				return -1;
			}
		} else {
			if (!rank) {
				fprintf(stderr, "qubo_mpi: unknown option %s\n", f);
				usage(stderr);
			}
			return -1;
		}
	}
	a->first_file = i;
	if (!strcmp(a->mode, "sample") ? argc - i != 1 : argc - i < 1) {
		if (!rank)
			usage(stderr);
		return -1;
	}
	return 0;
}

/* The whole file, NUL-terminated, or NULL with a message. */
static char *read_file(const char *path, size_t *length)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0;

	if (!f) {
		fprintf(stderr, "qubo_mpi: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;
		if (len + 1 >= cap) {
			char *b = realloc(buf, cap ? 2 * cap : 65536);
			if (!b) {
				fprintf(stderr, "qubo_mpi: %s: out of memory\n", path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
			cap = cap ? 2 * cap : 65536;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "qubo_mpi: %s: read error\n", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	*length = len;
	return buf;
}

/* The model's text from rank 0 to every rank; every rank parses it. */
static int share_model(const char *path, qubo_model **m)
{
	char *text = NULL;
	size_t len = 0;
	uint64_t len64 = 0;
	int ok = 1, rc;

	if (!rank) {
		text = read_file(path, &len);
		ok = text != NULL && len <= INT_MAX;
		if (text && !ok)
			fprintf(stderr, "qubo_mpi: %s: larger than 2 GiB\n", path);
		len64 = ok ? (uint64_t)len : 0;
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!ok) {
		free(text);
		return -1;
	}
	MPI_Bcast(&len64, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	len = (size_t)len64;
	if (rank) {
		text = malloc(len + 1);
		if (!text) {
			fprintf(stderr, "qubo_mpi: rank %d: out of memory\n", rank);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
	rc = qubo_qbsolv_read_ex(m, text, len, NULL);
	free(text);
	if (rc) {
		if (!rank)
			fprintf(stderr, "qubo_mpi: %s: %s\n", path, qubo_error_message());
		return -1;
	}
	return 0;
}

/* Applies --set KEY=VALUE: an integer, else a number, else a string (as
 * `qubo solve --set` does). */
static int set_option(qubo_solver *s, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[65], *end;
	size_t klen = (size_t)(eq - kv);
	long long i;
	double d;

	if (klen >= sizeof key) {
		fprintf(stderr, "qubo_mpi: --set %s: key too long\n", kv);
		return QUBO_ERR_INVALID_ARG;
	}
	memcpy(key, kv, klen);
	key[klen] = '\0';
	errno = 0;
	i = strtoll(eq + 1, &end, 10);
	if (!errno && end != eq + 1 && !*end)
		return qubo_solver_set_int(s, key, i);
	d = strtod(eq + 1, &end);
	if (end != eq + 1 && !*end)
		return qubo_solver_set_double(s, key, d);
	return qubo_solver_set_string(s, key, eq + 1);
}

/* Samples reads [first, first + count) on this rank; NULL set for none. */
static int sample_slice(const args *a, const qubo_model *m, int64_t first, int64_t count,
			qubo_sampleset **set)
{
	qubo_solver *s = NULL;
	int rc, k;

	*set = NULL;
	if (!count)
		return QUBO_OK;
	rc = qubo_solver_new(&s, a->solver, NULL);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_SEED, a->seed);
	if (!rc)
		rc = qubo_solver_set_int(s, QUBO_PARAM_NUM_READS, count);
	/* slice 0 of one rank is the run itself: set the key only when needed,
	 * so that a solver without slices still runs on one rank */
	if (!rc && first)
		rc = qubo_solver_set_int(s, QUBO_PARAM_FIRST_READ, first);
	if (!rc && a->sweeps)
		rc = qubo_solver_set_int(s, QUBO_PARAM_NUM_SWEEPS, a->sweeps);
	if (!rc && a->threads_set)
		rc = qubo_solver_set_int(s, QUBO_PARAM_THREADS, a->threads);
	for (k = 0; !rc && k < a->num_sets; k++)
		rc = set_option(s, a->sets[k]);
	if (!rc)
		rc = qubo_solver_sample(set, s, m);
	if (rc)
		fprintf(stderr, "qubo_mpi: rank %d: %s\n", rank, qubo_error_message());
	qubo_solver_free(s);
	return rc;
}

/* The energy with the fewest digits (15 to 17) that reads back exactly. */
static void format_energy(char *buf, size_t size, double e)
{
	int digits;

	for (digits = 15; digits <= 17; digits++) {
		snprintf(buf, size, "%.*g", digits, e);
		if (strtod(buf, NULL) == e)
			return;
	}
}

static int print_set(const qubo_sampleset *set)
{
	size_t n = qubo_sampleset_num_variables(set), i, v;
	char *bits = malloc(n + 1), energy[40];

	if (!bits)
		return -1;
	for (i = 0; i < qubo_sampleset_size(set); i++) {
		const uint8_t *x = qubo_sampleset_sample_data(set, i);
		double e = 0;
		uint64_t count = 0;
		qubo_sampleset_get(set, i, NULL, 0, &e, &count);
		for (v = 0; v < n; v++)
			bits[v] = (char)('0' + x[v]);
		bits[n] = '\0';
		format_energy(energy, sizeof energy, e);
		printf("%s %" PRIu64 " %s\n", energy, count, bits);
	}
	free(bits);
	return fflush(stdout) ? -1 : 0;
}

static int run_sample(const args *a)
{
	qubo_model *m = NULL;
	qubo_sampleset *set = NULL, *merged = NULL;
	int64_t first = a->reads * rank / nranks, last = a->reads * (rank + 1) / nranks;
	size_t n, rows = 0;
	int status, all_ok, code = 0;
	int *row_counts = NULL, *byte_counts = NULL, *row_displs = NULL, *byte_displs = NULL;
	int local[2];
	uint8_t *bits = NULL, *all_bits = NULL;
	uint64_t *occ = NULL, *all_occ = NULL;
	double t0 = MPI_Wtime();
	int r;

	if (share_model(a->argv[a->first_file], &m))
		return 1;
	n = qubo_model_num_variables(m);
	status = sample_slice(a, m, first, last - first, &set);
	if (!status && set) {
		rows = qubo_sampleset_size(set);
		if (rows > (size_t)INT_MAX / (n ? n : 1)) {
			fprintf(stderr, "qubo_mpi: rank %d: %zu samples are too many to send\n",
				rank, rows);
			status = QUBO_ERR_TOO_LARGE;
		}
	}
	if (!status && rows) {
		bits = malloc(rows * (n ? n : 1));
		occ = malloc(rows * sizeof *occ);
		if (!bits || !occ)
			status = QUBO_ERR_NOMEM;
		else
			status = qubo_sampleset_export(set, bits, NULL, occ, rows);
	}
	/* Everyone learns whether every slice worked before anything is sent. */
	local[0] = status < 0;
	local[1] = (int)rows;
	MPI_Allreduce(&local[0], &all_ok, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	all_ok = !all_ok;
	if (!rank) {
		row_counts = calloc((size_t)nranks, sizeof *row_counts);
		byte_counts = calloc((size_t)nranks, sizeof *byte_counts);
		row_displs = calloc((size_t)nranks, sizeof *row_displs);
		byte_displs = calloc((size_t)nranks, sizeof *byte_displs);
		if (!row_counts || !byte_counts || !row_displs || !byte_displs)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (all_ok) {
		size_t total = 0;

		MPI_Gather(&local[1], 1, MPI_INT, row_counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!rank) {
			for (r = 0; r < nranks; r++) {
				if (total + (size_t)row_counts[r] > (size_t)INT_MAX / (n ? n : 1)) {
					fprintf(stderr, "qubo_mpi: too many samples to gather\n");
					MPI_Abort(MPI_COMM_WORLD, 1);
				}
				row_displs[r] = (int)total;
				byte_displs[r] = (int)(total * n);
				byte_counts[r] = (int)((size_t)row_counts[r] * n);
				total += (size_t)row_counts[r];
			}
			all_bits = malloc(total * n + 1);
			all_occ = malloc((total ? total : 1) * sizeof *all_occ);
			if (!all_bits || !all_occ)
				MPI_Abort(MPI_COMM_WORLD, 1);
		}
		MPI_Gatherv(bits, (int)(rows * n), MPI_UINT8_T, all_bits, byte_counts, byte_displs,
			    MPI_UINT8_T, 0, MPI_COMM_WORLD);
		MPI_Gatherv(occ, (int)rows, MPI_UINT64_T, all_occ, row_counts, row_displs,
			    MPI_UINT64_T, 0, MPI_COMM_WORLD);
		if (!rank) {
			/* the slices' distinct samples, occurrences added up, sorted:
			 * the sample set of the whole run */
			int rc = qubo_sampleset_from_counts(&merged, m, all_bits, all_occ, total, n,
							    NULL);
			if (rc) {
				fprintf(stderr, "qubo_mpi: merging: %s\n", qubo_error_message());
				code = 1;
			} else if (print_set(merged)) {
				fprintf(stderr, "qubo_mpi: cannot write the samples\n");
				code = 1;
			} else {
				qubo_sample_info info = QUBO_SAMPLE_INFO_INIT;
				qubo_sampleset_get_info(merged, &info);
				fprintf(stderr,
					"variables: %zu\nsolver: %s\nseed: %" PRId64 "\nranks: %d\n"
					"samples: %" PRIu64 " (%zu distinct)\nwall time: %.6f s\n",
					n, a->solver, a->seed, nranks, info.num_samples,
					qubo_sampleset_size(merged), MPI_Wtime() - t0);
			}
		}
	} else {
		code = 1;
	}
	MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	qubo_sampleset_free(merged);
	qubo_sampleset_free(set);
	qubo_model_free(m);
	free(bits);
	free(occ);
	free(all_bits);
	free(all_occ);
	free(row_counts);
	free(byte_counts);
	free(row_displs);
	free(byte_displs);
	return code;
}

static const char *verdict_name(int32_t v)
{
	static const char *const names[] = { "unknown", "solved", "optimal", "best found",
					     "infeasible", "stopped", "not found" };

	return v >= 0 && v < (int32_t)(sizeof names / sizeof names[0]) ? names[v] : "?";
}

/* Appends the strings of parts (NULL-terminated) to a growing buffer; -1
 * when out of memory. */
static int append(char **buf, size_t *len, const char *const *parts)
{
	size_t add = 0, i;
	char *b;

	for (i = 0; parts[i]; i++)
		add += strlen(parts[i]);
	b = realloc(*buf, *len + add + 1);
	if (!b)
		return -1;
	for (i = 0; parts[i]; i++) {
		size_t k = strlen(parts[i]);
		memcpy(b + *len, parts[i], k);
		*len += k;
	}
	b[*len] = '\0';
	*buf = b;
	return 0;
}

/* The result text of one puzzle: "== FILE: verdict (method)" and the board
 * in the solution layout of doc/formats.md. *failed is set on an error or a
 * verdict other than solved or optimal. */
static char *solve_one(const args *a, const char *path, int *failed)
{
	qubo_puzzle *p = NULL;
	qubo_puzzle_stats st;
	qubo_puzzle_solve_options o = QUBO_PUZZLE_SOLVE_OPTIONS_INIT;
	qubo_puzzle_result r = QUBO_PUZZLE_RESULT_INIT;
	uint8_t *board = NULL;
	char *out = NULL, *sol = NULL;
	size_t len = 0, slen = 0;
	int rc;

	memset(&st, 0, sizeof st);
	st.struct_size = sizeof st;
	o.seed = (uint64_t)a->seed;
	o.threads = a->threads_set ? (int32_t)a->threads : 1;
	o.time_limit = a->time_limit;
	rc = qubo_puzzle_parse_file(&p, path, NULL);
	if (!rc)
		rc = qubo_puzzle_get_stats(p, &st);
	if (!rc) {
		board = malloc(st.width * st.height + 1);
		if (!board)
			rc = QUBO_ERR_NOMEM;
	}
	if (!rc)
		rc = qubo_puzzle_solve(p, &o, board, st.width * st.height, &r);
	if (rc < 0) {
		*failed = 1;
		const char *const parts[] = { "== ", path, ": error: ", qubo_error_message(),
					      "\n", NULL };
		if (append(&out, &len, parts))
			goto oom;
		goto done;
	}
	if (r.verdict != QUBO_PUZZLE_SOLVED && r.verdict != QUBO_PUZZLE_OPTIMAL)
		*failed = 1;
	{
		const char *const parts[] = { "== ", path, ": ", verdict_name(r.verdict), " (",
					      r.method ? r.method : "-", ")\n", NULL };
		if (append(&out, &len, parts))
			goto oom;
	}
	if (r.has_board &&
	    qubo_puzzle_format_solution(p, board, st.width * st.height, NULL, 0, &slen) ==
		    QUBO_OK) {
		sol = malloc(slen + 1);
		if (!sol || qubo_puzzle_format_solution(p, board, st.width * st.height, sol,
							slen + 1, NULL))
			goto oom;
		{
			const char *const parts[] = { sol, NULL };
			if (append(&out, &len, parts))
				goto oom;
		}
	}
done:
	free(sol);
	free(board);
	qubo_puzzle_free(p);
	return out;
oom:
	fprintf(stderr, "qubo_mpi: rank %d: out of memory\n", rank);
	MPI_Abort(MPI_COMM_WORLD, 1);
	return NULL;
}

static int run_puzzles(const args *a)
{
	int nfiles = a->argc - a->first_file, i, failed = 0, any_failed = 0;
	char **mine = calloc((size_t)nfiles, sizeof *mine);

	if (!mine)
		MPI_Abort(MPI_COMM_WORLD, 1);
	/* file i on rank i mod P */
	for (i = rank; i < nfiles; i += nranks)
		mine[i] = solve_one(a, a->argv[a->first_file + i], &failed);
	if (rank) {
		/* to rank 0 in file order, which is the order it receives them in */
		for (i = rank; i < nfiles; i += nranks)
			MPI_Send(mine[i], (int)strlen(mine[i]), MPI_CHAR, 0, i, MPI_COMM_WORLD);
	} else {
		for (i = 0; i < nfiles; i++) {
			if (i % nranks) {
				MPI_Status st;
				int count;
				char *text;

				MPI_Probe(i % nranks, i, MPI_COMM_WORLD, &st);
				MPI_Get_count(&st, MPI_CHAR, &count);
				text = malloc((size_t)count + 1);
				if (!text)
					MPI_Abort(MPI_COMM_WORLD, 1);
				MPI_Recv(text, count, MPI_CHAR, i % nranks, i, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				text[count] = '\0';
				fputs(text, stdout);
				free(text);
			} else {
				fputs(mine[i], stdout);
			}
		}
		fflush(stdout);
	}
	MPI_Reduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Bcast(&any_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; i < nfiles; i++)
		free(mine[i]);
	free(mine);
	return any_failed;
}

int main(int argc, char **argv)
{
	args a;
	int code;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (parse_args(argc, argv, &a)) {
		MPI_Finalize();
		return 2;
	}
	code = !strcmp(a.mode, "sample") ? run_sample(&a) : run_puzzles(&a);
	MPI_Finalize();
	return code;
}
