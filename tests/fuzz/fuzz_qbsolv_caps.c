/*
 * libFuzzer target for the qbsolv reader under tight limits: the target of
 * fuzz_qbsolv.c with FUZZ_QBSOLV_CAPS (see there).
 */
#define FUZZ_NAME "fuzz_qbsolv_caps"
#define FUZZ_QBSOLV_CAPS 1
#include "fuzz_qbsolv.c"
