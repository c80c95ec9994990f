/* The monotonic clock of time limits, progress periods and run times, and
 * the deadlines of time limits. */
#include <time.h>

#include "common_impl.h"

double qubo__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double qubo__deadline(double t0, double limit)
{
	return limit > 0 && limit <= QUBO__TIME_LIMIT_NONE_ABOVE ? t0 + limit : 0.0;
}
