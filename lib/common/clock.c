/* The monotonic clock of time limits, progress periods and run times. */
#include <time.h>

#include "common_impl.h"

double qubo__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
