/**
 * @file qubo.h
 * @brief Umbrella header of libqubo: includes every module header.
 */
#ifndef QUBO_H
#define QUBO_H

#include "qubo/alloc.h"
#include "qubo/backend.h"
#include "qubo/common.h"
#include "qubo/literal.h"
#include "qubo/model.h"
#include "qubo/parity.h"
#include "qubo/penalty.h"
#include "qubo/qaoa.h"
#include "qubo/qbsolv.h"
#include "qubo/solver.h"
#include "qubo/status.h"
#include "qubo/version.h"

#endif /* QUBO_H */
