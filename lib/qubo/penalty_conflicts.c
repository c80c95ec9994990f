/*
 * Conflict graphs (qubo_penalty_conflicts): the rules of penalty.c's first
 * comment hold.
 */
#include <stdlib.h>
#include <string.h>

#include "penalty_impl.h"

/* ------------------------------------------------------------------ */
/* Conflict graphs */

/* An edge that can be violated at all: no end is the constant 0 and the ends
 * are not x and x̄. */
static int edge_active(qubo_lit u, qubo_lit v)
{
	return u != QUBO_LIT_FALSE && v != QUBO_LIT_FALSE && u != QUBO_LIT_NOT(v);
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* The implication-graph node of a free literal: 2·(rank of its variable)
 * plus its sign. */
static uint32_t sat_node(const uint32_t *vars, size_t nv, qubo_lit l)
{
	size_t lo = 0, hi = nv;
	uint32_t v = QUBO_LIT_VAR(l);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (vars[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)(2 * lo) | QUBO_LIT_IS_NEG(l);
}

/* Each active edge forbids ℓu ∧ ℓv, the clause (¬ℓu ∨ ¬ℓv): a 2-SAT
 * instance, satisfiable iff no variable shares a strongly connected
 * component of the implication graph with its complement (Tarjan,
 * iterative). */
static int conflicts_satisfiable(const qubo_allocator *al, const qubo_lit *e, size_t ne,
				 int *sat)
{
	const uint32_t none = UINT32_MAX;
	uint32_t *vars = NULL, *src = NULL, *dst = NULL, *adj = NULL, *idx = NULL;
	uint32_t *low = NULL, *comp = NULL, *stk = NULL, *cnode = NULL;
	size_t *off = NULL, *cpos = NULL;
	size_t nv = 0, na = 0, nodes, i, j, sp = 0, cs = 0;
	uint32_t counter = 0, ncomp = 0, s;
	int rc = QUBO_OK;

	vars = qubo__malloc_array(al, 2 * ne, sizeof *vars);
	src = qubo__malloc_array(al, 2 * ne, sizeof *src);
	dst = qubo__malloc_array(al, 2 * ne, sizeof *dst);
	if (!vars || !src || !dst)
		goto nomem;
	for (i = 0; i < ne; i++) {
		if (!edge_active(e[2 * i], e[2 * i + 1]))
			continue;
		for (j = 0; j < 2; j++)
			if (qubo__pen_is_free(e[2 * i + j]))
				vars[nv++] = QUBO_LIT_VAR(e[2 * i + j]);
	}
	qsort(vars, nv, sizeof *vars, cmp_u32);
	for (i = 0, j = 0; i < nv; i++)
		if (!j || vars[i] != vars[j - 1])
			vars[j++] = vars[i];
	nv = j;
	nodes = 2 * nv;
	for (i = 0; i < ne; i++) {
		qubo_lit u = e[2 * i], v = e[2 * i + 1];
		if (!edge_active(u, v))
			continue;
		if (u == QUBO_LIT_TRUE || v == QUBO_LIT_TRUE) { /* unit clause ¬ℓ */
			uint32_t x = sat_node(vars, nv, u == QUBO_LIT_TRUE ? v : u);
			src[na] = x;
			dst[na++] = x ^ 1u;
		} else {
			uint32_t x = sat_node(vars, nv, u), y = sat_node(vars, nv, v);
			src[na] = x;
			dst[na++] = y ^ 1u;
			src[na] = y;
			dst[na++] = x ^ 1u;
		}
	}
	off = qubo__calloc_array(al, nodes + 1, sizeof *off);
	adj = qubo__malloc_array(al, na, sizeof *adj);
	idx = qubo__malloc_array(al, nodes, sizeof *idx);
	low = qubo__malloc_array(al, nodes, sizeof *low);
	comp = qubo__malloc_array(al, nodes, sizeof *comp);
	stk = qubo__malloc_array(al, nodes, sizeof *stk);
	cnode = qubo__malloc_array(al, nodes, sizeof *cnode);
	cpos = qubo__malloc_array(al, nodes, sizeof *cpos);
	if (!off || !adj || !idx || !low || !comp || !stk || !cnode || !cpos)
		goto nomem;
	for (i = 0; i < na; i++)
		off[src[i] + 1]++;
	for (i = 0; i < nodes; i++)
		off[i + 1] += off[i];
	for (i = 0; i < nodes; i++) /* cpos: fill cursors, reused below */
		cpos[i] = off[i];
	for (i = 0; i < na; i++)
		adj[cpos[src[i]]++] = dst[i];
	for (i = 0; i < nodes; i++)
		idx[i] = comp[i] = none;
	for (s = 0; s < nodes; s++) {
		if (idx[s] != none)
			continue;
		idx[s] = low[s] = counter++;
		stk[sp++] = s;
		cnode[cs] = s;
		cpos[cs++] = off[s];
		while (cs) {
			uint32_t v = cnode[cs - 1];
			if (cpos[cs - 1] < off[v + 1]) {
				uint32_t w = adj[cpos[cs - 1]++];
				if (idx[w] == none) {
					idx[w] = low[w] = counter++;
					stk[sp++] = w;
					cnode[cs] = w;
					cpos[cs++] = off[w];
				} else if (comp[w] == none && idx[w] < low[v]) {
					low[v] = idx[w];
				}
			} else {
				cs--;
				if (low[v] == idx[v]) {
					uint32_t w;
					do {
						w = stk[--sp];
						comp[w] = ncomp;
					} while (w != v);
					ncomp++;
				}
				if (cs && low[v] < low[cnode[cs - 1]])
					low[cnode[cs - 1]] = low[v];
			}
		}
	}
	*sat = 1;
	for (i = 0; i < nv; i++)
		if (comp[2 * i] == comp[2 * i + 1])
			*sat = 0;
	goto out;
nomem:
	rc = qubo__nomem("a conflict graph's feasibility check");
out:
	qubo__free(al, vars);
	qubo__free(al, src);
	qubo__free(al, dst);
	qubo__free(al, off);
	qubo__free(al, adj);
	qubo__free(al, idx);
	qubo__free(al, low);
	qubo__free(al, comp);
	qubo__free(al, stk);
	qubo__free(al, cnode);
	qubo__free(al, cpos);
	return rc;
}

int qubo_penalty_conflicts(qubo_model *model, const qubo_lit *pairs, size_t num_edges,
			   double weight)
{
	static const char fn[] = "qubo_penalty_conflicts";
	const qubo_allocator *al;
	double off = 0.0;
	size_t i, np = 0;
	qubo__pen_batch pb;
	int rc, has_pos = 0, has_neg = 0, sat = 1;

	rc = qubo__pen_check_model_weight(model, weight, fn);
	if (rc)
		return rc;
	if (num_edges > SIZE_MAX / 2 / sizeof(uint32_t))
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX, "%s: %zu edges", fn,
				       num_edges);
	rc = qubo__pen_check_lits(model, pairs, 2 * num_edges, fn, "pairs");
	if (rc)
		return rc;
	if (!qubo__is_finite(2.0 * weight * (double)num_edges))
		return qubo__pen_overflow_error(fn);
	for (i = 0; i < num_edges; i++) {
		qubo_lit u = pairs[2 * i], v = pairs[2 * i + 1];
		if (u == QUBO_LIT_TRUE && v == QUBO_LIT_TRUE)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "%s: edge %zu joins two constants 1", fn, i);
		if (!edge_active(u, v))
			continue;
		if (qubo__pen_is_free(u) && qubo__pen_is_free(v) &&
		    QUBO_LIT_VAR(u) != QUBO_LIT_VAR(v))
			np++;
		has_pos |= (qubo__pen_is_free(u) && !QUBO_LIT_IS_NEG(u)) ||
			   (qubo__pen_is_free(v) && !QUBO_LIT_IS_NEG(v));
		has_neg |= (qubo__pen_is_free(u) && QUBO_LIT_IS_NEG(u)) ||
			   (qubo__pen_is_free(v) && QUBO_LIT_IS_NEG(v));
	}
	al = &model->alloc;
	/* With one polarity only, all 0 (or all 1) satisfies every edge. */
	if (has_pos && has_neg) {
		rc = conflicts_satisfiable(al, pairs, num_edges, &sat);
		if (rc)
			return rc;
		if (!sat)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "%s: the edges cannot all be respected (through "
					   "complements and constants they force some variable "
					   "both ways)", fn);
	}
	if (!qubo__pen_batch_init(al, &pb, np)) {
		rc = qubo__nomem("a conflict graph's terms");
		goto out;
	}
	for (i = 0; i < num_edges; i++) {
		qubo_lit u = pairs[2 * i], v = pairs[2 * i + 1];
		double cu, su, cv, sv;
		if (!edge_active(u, v) || !qubo__pen_is_free(u) || !qubo__pen_is_free(v) ||
		    QUBO_LIT_VAR(u) == QUBO_LIT_VAR(v))
			continue;
		qubo__pen_lit_parts(u, &cu, &su);
		qubo__pen_lit_parts(v, &cv, &sv);
		qubo__pen_batch_push(&pb, u, v, weight * su * sv);
		off += weight * cu * cv;
	}
	/* Commit: the batch is the only call that allocates. */
	rc = qubo__pen_batch_commit(model, &pb);
	for (i = 0; i < num_edges && !rc; i++) {
		qubo_lit u = pairs[2 * i], v = pairs[2 * i + 1];
		double cu, su, cv, sv;
		if (!edge_active(u, v))
			continue;
		if (u == QUBO_LIT_TRUE || v == QUBO_LIT_TRUE) {
			rc = qubo_model_add_lit(model, u == QUBO_LIT_TRUE ? v : u, weight);
			continue;
		}
		if (u == v) { /* ℓ·ℓ = ℓ */
			rc = qubo_model_add_lit(model, u, weight);
			continue;
		}
		qubo__pen_lit_parts(u, &cu, &su);
		qubo__pen_lit_parts(v, &cv, &sv);
		if (cv != 0.0)
			rc = qubo_model_add_linear(model, QUBO_LIT_VAR(u), weight * su * cv);
		if (!rc && cu != 0.0)
			rc = qubo_model_add_linear(model, QUBO_LIT_VAR(v), weight * cu * sv);
	}
	if (!rc && off != 0.0)
		rc = qubo_model_add_offset(model, off);
out:
	qubo__pen_batch_free(al, &pb);
	return rc;
}
