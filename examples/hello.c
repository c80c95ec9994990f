/*
 * The smallest libqubo program: checks that the headers and the loaded
 * library agree, and prints the version and one status string.
 */
#include <stdio.h>

#include <qubo.h>

int main(void)
{
	printf("libqubo %s (headers %s)\n", qubo_version_string(), QUBO_VERSION_STRING);
	printf("%s: %s\n", qubo_status_name(QUBO_ERR_INFEASIBLE),
	       qubo_status_str(QUBO_ERR_INFEASIBLE));
	return qubo_version_number() == QUBO_VERSION_NUMBER ? 0 : 1;
}
