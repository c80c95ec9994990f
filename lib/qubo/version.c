/* Run-time version of the library. */
#include "qubo/version.h"

int qubo_version_number(void)
{
	return QUBO_VERSION_NUMBER;
}

const char *qubo_version_string(void)
{
	return QUBO_VERSION_STRING;
}
