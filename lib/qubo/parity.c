/*
 * Parity classes: union-find with parity bits.
 *
 * Every element is a node of a forest. A non-root node x stores its parent
 * and the bit x_x XOR x_parent; a root stores what holds for its whole class:
 * the rank (union by rank keeps trees O(log n) deep), the smallest element of
 * the class with that element's parity relative to the root (so the reported
 * representative is the smallest element whatever the union order, without
 * constraining which node becomes the root), and the class's fixed value,
 * stored as the value of the root itself.
 *
 * find() compresses paths iteratively, in two passes over the path: the
 * first finds the root and the parity of the start node, the second points
 * every node of the path straight at the root with its own parity. n may be
 * in the millions, so no recursion. A node takes 12 bytes.
 *
 * Only qubo_parity_new() allocates. Nothing is recorded when a relation or a
 * fix contradicts the known facts; path compression is the only change such
 * a call makes, and it does not change what the structure describes.
 */
#include <inttypes.h>
#include <stdint.h>

#include "internal.h"
#include "qubo/parity.h"

/* node.state of a root. */
enum { PARITY_FREE = 0, PARITY_FIXED0 = 1, PARITY_FIXED1 = 2 };

struct parity_node {
	uint32_t parent;  /* the node itself for a root */
	uint32_t min;     /* root only: smallest element of the class */
	uint8_t flip;     /* non-root: x_node XOR x_parent; root: 0 */
	uint8_t rank;     /* root only: upper bound of the tree's height */
	uint8_t state;    /* root only: PARITY_FREE or the fixed value of x_root */
	uint8_t min_flip; /* root only: x_min XOR x_root */
};

struct qubo_parity {
	qubo_allocator alloc;
	struct parity_node *node;
	size_t n;
	size_t classes;      /* number of classes */
	size_t free_classes; /* classes whose value is not fixed */
};

/* The root of a's tree and x_a XOR x_root; compresses a's path. */
static uint32_t find_root(struct parity_node *node, uint32_t a, unsigned *parity_out)
{
	uint32_t root = a, cur = a, next;
	unsigned parity = 0, up;

	while (node[root].parent != root) {
		parity ^= node[root].flip;
		root = node[root].parent;
	}
	*parity_out = parity;
	/* Walk the path again from a, keeping parity = x_cur XOR x_root. */
	while (cur != root) {
		next = node[cur].parent;
		up = node[cur].flip;
		node[cur].parent = root;
		node[cur].flip = (uint8_t)parity;
		parity ^= up;
		cur = next;
	}
	return root;
}

/* The value of the element whose parity relative to root is parity, or -1. */
static int root_value(const struct parity_node *r, unsigned parity)
{
	if (r->state == PARITY_FREE)
		return -1;
	return (int)((unsigned)(r->state == PARITY_FIXED1) ^ parity);
}

static int check_element(const qubo_parity *p, const char *func, const char *arg, uint32_t a)
{
	if ((size_t)a >= p->n)
		return qubo__error(QUBO_ERR_OUT_OF_RANGE,
				   "%s: %s is %" PRIu32 ", but the structure has %zu elements",
				   func, arg, a, p->n);
	return QUBO_OK;
}

int qubo_parity_new(qubo_parity **out, size_t num_elements, const qubo_allocator *allocator)
{
	qubo_allocator alloc;
	qubo_parity *p;
	struct parity_node *node;
	size_t i;
	int rc;

	if (!out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_new: out is NULL");
	*out = NULL;
	if (num_elements >= QUBO_MAX_VARIABLES)
		return qubo__too_large(
			QUBO_LIMIT_VARIABLE_INDEX, QUBO_MAX_VARIABLES - 1,
			"qubo_parity_new: num_elements is %zu, but it must be below %u",
			num_elements, (unsigned)QUBO_MAX_VARIABLES);
	rc = qubo__alloc_init(&alloc, allocator, "qubo_parity_new");
	if (rc != QUBO_OK)
		return rc;
	p = qubo__malloc(&alloc, sizeof *p);
	if (!p)
		return qubo__nomem("a parity structure");
	node = qubo__malloc_array(&alloc, num_elements, sizeof *node);
	if (!node) {
		qubo__free(&alloc, p);
		return qubo__nomem("the nodes of a parity structure");
	}
	for (i = 0; i < num_elements; i++) {
		node[i].parent = (uint32_t)i;
		node[i].min = (uint32_t)i;
		node[i].flip = 0;
		node[i].rank = 0;
		node[i].state = PARITY_FREE;
		node[i].min_flip = 0;
	}
	p->alloc = alloc;
	p->node = node;
	p->n = num_elements;
	p->classes = num_elements;
	p->free_classes = num_elements;
	*out = p;
	return QUBO_OK;
}

void qubo_parity_free(qubo_parity *parity)
{
	qubo_allocator alloc;

	if (!parity)
		return;
	alloc = parity->alloc;
	qubo__free(&alloc, parity->node);
	qubo__free(&alloc, parity);
}

int qubo_parity_relate(qubo_parity *parity, uint32_t a, uint32_t b, int differ)
{
	static const char *const rel[2] = { "=", "\xe2\x89\xa0" }; /* "=", "≠" */
	struct parity_node *node;
	uint32_t ra, rb, child, root;
	unsigned pa, pb, d, t, one;
	int va, vb, rc;

	if (!parity)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_relate: parity is NULL");
	rc = check_element(parity, "qubo_parity_relate", "a", a);
	if (rc == QUBO_OK)
		rc = check_element(parity, "qubo_parity_relate", "b", b);
	if (rc != QUBO_OK)
		return rc;
	node = parity->node;
	d = differ != 0;
	ra = find_root(node, a, &pa);
	rb = find_root(node, b, &pb);
	if (ra == rb) {
		if ((pa ^ pb) == d)
			return QUBO_OK;
		if (a == b)
			return qubo__error(QUBO_ERR_INFEASIBLE,
					   "qubo_parity_relate: x_%" PRIu32 " %s x_%" PRIu32
					   " can never hold",
					   a, rel[d], b);
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "qubo_parity_relate: x_%" PRIu32 " %s x_%" PRIu32
				   " contradicts x_%" PRIu32 " %s x_%" PRIu32
				   " implied by earlier relations",
				   a, rel[d], b, a, rel[d ^ 1], b);
	}
	/* x_ra XOR x_rb must equal t. */
	t = pa ^ pb ^ d;
	va = root_value(&node[ra], pa);
	vb = root_value(&node[rb], pb);
	if (va >= 0 && vb >= 0 && ((unsigned)(va ^ vb)) != d)
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "qubo_parity_relate: x_%" PRIu32 " %s x_%" PRIu32
				   " contradicts x_%" PRIu32 " = %d and x_%" PRIu32
				   " = %d implied by earlier fixes and relations",
				   a, rel[d], b, a, va, b, vb);

	/* Consistent: hang the lower tree under the higher one. */
	if (node[ra].rank < node[rb].rank) {
		child = ra;
		root = rb;
	} else {
		child = rb;
		root = ra;
	}
	if (node[root].rank == node[child].rank)
		node[root].rank++;
	if (node[root].state == PARITY_FREE || node[child].state == PARITY_FREE) {
		/* Two free classes become one, or a free one joins a fixed one. */
		parity->free_classes--;
		if (node[root].state == PARITY_FREE && node[child].state != PARITY_FREE) {
			/* x_root = x_child XOR t. */
			one = (unsigned)(node[child].state == PARITY_FIXED1) ^ t;
			node[root].state = one ? PARITY_FIXED1 : PARITY_FIXED0;
		}
	}
	if (node[child].min < node[root].min) {
		node[root].min = node[child].min;
		node[root].min_flip = (uint8_t)(node[child].min_flip ^ t);
	}
	node[child].parent = root;
	node[child].flip = (uint8_t)t;
	node[child].state = PARITY_FREE;
	node[child].min_flip = 0;
	parity->classes--;
	return QUBO_OK;
}

int qubo_parity_fix(qubo_parity *parity, uint32_t a, int value)
{
	struct parity_node *r;
	uint32_t root;
	unsigned pa;
	int known, rc;

	if (!parity)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_fix: parity is NULL");
	rc = check_element(parity, "qubo_parity_fix", "a", a);
	if (rc != QUBO_OK)
		return rc;
	if (value != 0 && value != 1)
		return qubo__error(QUBO_ERR_INVALID_ARG,
				   "qubo_parity_fix: value is %d, expected 0 or 1", value);
	root = find_root(parity->node, a, &pa);
	r = &parity->node[root];
	known = root_value(r, pa);
	if (known == value)
		return QUBO_OK;
	if (known >= 0)
		return qubo__error(QUBO_ERR_INFEASIBLE,
				   "qubo_parity_fix: x_%" PRIu32 " = %d contradicts x_%" PRIu32
				   " = %d implied by earlier fixes and relations",
				   a, value, a, known);
	r->state = ((unsigned)value ^ pa) ? PARITY_FIXED1 : PARITY_FIXED0;
	parity->free_classes--;
	return QUBO_OK;
}

int qubo_parity_find(qubo_parity *parity, uint32_t a, uint32_t *rep_out, int *flip_out)
{
	struct parity_node *r;
	unsigned pa;
	int rc;

	if (!parity)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_find: parity is NULL");
	if (!rep_out || !flip_out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_find: %s is NULL",
				   rep_out ? "flip_out" : "rep_out");
	rc = check_element(parity, "qubo_parity_find", "a", a);
	if (rc != QUBO_OK)
		return rc;
	r = &parity->node[find_root(parity->node, a, &pa)];
	*rep_out = r->min;
	*flip_out = (int)(pa ^ r->min_flip);
	return QUBO_OK;
}

int qubo_parity_value(qubo_parity *parity, uint32_t a, int *value_out)
{
	uint32_t root;
	unsigned pa;
	int rc;

	if (!parity)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_value: parity is NULL");
	if (!value_out)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_value: value_out is NULL");
	rc = check_element(parity, "qubo_parity_value", "a", a);
	if (rc != QUBO_OK)
		return rc;
	root = find_root(parity->node, a, &pa);
	*value_out = root_value(&parity->node[root], pa);
	return QUBO_OK;
}

int qubo_parity_count(qubo_parity *parity, size_t *classes_out, size_t *free_out)
{
	if (!parity)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_count: parity is NULL");
	if (classes_out)
		*classes_out = parity->classes;
	if (free_out)
		*free_out = parity->free_classes;
	return QUBO_OK;
}

int qubo_parity_literals(qubo_parity *parity, qubo_lit *lits, size_t capacity,
			 size_t *num_vars_out)
{
	struct parity_node *node, *r;
	uint32_t a, root, n32;
	unsigned pa;
	qubo_lit next = 0;
	int v;

	if (!parity)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_literals: parity is NULL");
	if (num_vars_out)
		*num_vars_out = parity->free_classes;
	if (capacity < parity->n)
		return qubo__error(QUBO_ERR_BUFFER_TOO_SMALL,
				   "qubo_parity_literals: capacity is %zu, but the structure has "
				   "%zu elements",
				   capacity, parity->n);
	if (!lits && parity->n > 0)
		return qubo__error(QUBO_ERR_MISUSE, "qubo_parity_literals: lits is NULL");
	node = parity->node;
	n32 = (uint32_t)parity->n;
	/*
	 * Elements in increasing order: the first element met of a free class is
	 * its smallest, which takes the next variable; later elements of the
	 * class read that literal back from lits[min].
	 */
	for (a = 0; a < n32; a++) {
		root = find_root(node, a, &pa);
		r = &node[root];
		v = root_value(r, pa);
		if (v >= 0)
			lits[a] = v ? QUBO_LIT_TRUE : QUBO_LIT_FALSE;
		else if (r->min == a)
			lits[a] = QUBO_LIT(next++);
		else
			lits[a] = lits[r->min] ^ (qubo_lit)(pa ^ r->min_flip);
	}
	return QUBO_OK;
}
