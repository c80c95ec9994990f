/* The names of the status codes and of the limits (qubo/status.h). The
 * per-thread error itself lives in lib/common/error_state.c. */
#include "internal.h"

const char *qubo_status_str(int status)
{
	switch (status) {
#define QUBO__STR_CASE(name, value, text) \
	case value:                       \
		return text;
		QUBO_STATUS_LIST(QUBO__STR_CASE)
#undef QUBO__STR_CASE
	}
	return "unknown status";
}

const char *qubo_status_name(int status)
{
	switch (status) {
#define QUBO__NAME_CASE(name, value, text) \
	case value:                        \
		return #name;
		QUBO_STATUS_LIST(QUBO__NAME_CASE)
#undef QUBO__NAME_CASE
	}
	return "QUBO_UNKNOWN";
}

const char *qubo_limit_name(int limit)
{
	switch (limit) {
#define QUBO__LIMIT_CASE(name, value, id, text) \
	case value:                             \
		return id;
		QUBO_LIMIT_LIST(QUBO__LIMIT_CASE)
#undef QUBO__LIMIT_CASE
	}
	return "unknown";
}
