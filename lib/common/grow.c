/* Arrays that grow together under one capacity (qubo__grow_arrays). */
#include <stdint.h>

#include "common_impl.h"

int qubo__grow_arrays(const qubo_allocator *a, size_t *cap, size_t need, size_t first,
		      const struct qubo__grow_array *arrays, size_t count, const char *what)
{
	size_t ncap = *cap ? *cap : (first ? first : 1), k;

	if (need <= *cap)
		return QUBO_OK;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	for (k = 0; k < count; k++) {
		size_t per = arrays[k].per ? arrays[k].per : 1;
		void *p;

		/* ncap × per × elem, each product checked (the realloc checks
		 * the second) */
		if (ncap > SIZE_MAX / per ||
		    !(p = qubo__realloc_array(a, *arrays[k].ptr, ncap * per, arrays[k].elem)))
			return qubo__nomem(what);
		*arrays[k].ptr = p;
	}
	*cap = ncap;
	return QUBO_OK;
}
