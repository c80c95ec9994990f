/* Argument checks and the check of size-first structs (common_impl.h). */
#include "common_impl.h"

int qubo__null_arg(const char *fn, const char *what)
{
	return qubo__error(QUBO_ERR_MISUSE, "%s: %s is NULL", fn, what);
}

int qubo__check_struct(const void *s, size_t size, size_t v1, size_t known, const char *name,
		       const char *fn)
{
	size_t i;

	if (size < v1)
		return qubo__error(QUBO_ERR_UNSUPPORTED_VERSION,
				   "%s: %s.struct_size is %zu, expected at least %zu", fn, name,
				   size, v1);
	for (i = known; i < size; i++)
		if (((const unsigned char *)s)[i])
			return qubo__error(QUBO_ERR_UNSUPPORTED_VERSION,
					   "%s: %s.struct_size is %zu and byte %zu is set; this "
					   "library knows %zu bytes",
					   fn, name, size, i, known);
	return QUBO_OK;
}
