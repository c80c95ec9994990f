/*
 * The qbsolv reader's parts (qbsolv_read.c: the public readers and their
 * limits; qbsolv_parse.c: the parser; qbsolv_fields.c: its field checks
 * and failure records).
 */
#ifndef QUBO_QBSOLV_IMPL_H
#define QUBO_QBSOLV_IMPL_H

#include "model_impl.h"
#include "qubo/qbsolv.h"

/* The caller's limits, zeros replaced by the defaults. */
typedef struct qubo__qbsolv_limits {
	qubo_allocator a;
	size_t max_input_bytes, max_variables, max_couplers;
} qubo__qbsolv_limits;

/* Parses data[0..length) into a new model *out (compiled, or with its
 * terms pending when pending is set). On failure the message is set,
 * prefixed by func and, when path is not NULL, naming the file. */
int qubo__qbsolv_parse(qubo_model **out, const char *data, size_t length,
		       const qubo__qbsolv_limits *l, const char *func, const char *path,
		       int pending);

#endif /* QUBO_QBSOLV_IMPL_H */
