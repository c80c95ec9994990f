/**
 * @file qubo/common.h
 * @brief Export macros, C++ guards and the basic scalar types of libqubo.
 *
 * Thread safety: libqubo has no global mutable state and needs no
 * initialisation. Objects are not internally synchronised, so use each object
 * from one thread at a time. Distinct objects may be used concurrently. A
 * compiled model is read-only and may be shared by several threads and
 * solvers. Error messages are per thread.
 */
#ifndef QUBO_COMMON_H
#define QUBO_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(QUBO_BUILDING_LIBRARY)
#define QUBO_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
/** Marks a declaration as part of the exported API. */
#define QUBO_API __attribute__((visibility("default")))
#else
#define QUBO_API
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(QUBO_DISABLE_DEPRECATION_WARNINGS)
/** Marks a declaration as deprecated, with a hint naming its replacement. */
#define QUBO_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define QUBO_DEPRECATED(msg)
#endif

#ifdef __cplusplus
/** Opens a block of declarations with C linkage. */
#define QUBO_BEGIN_DECLS extern "C" {
/** Closes a block opened by #QUBO_BEGIN_DECLS. */
#define QUBO_END_DECLS }
#else
/** Opens a block of declarations with C linkage (empty in C). */
#define QUBO_BEGIN_DECLS
/** Closes a block opened by #QUBO_BEGIN_DECLS (empty in C). */
#define QUBO_END_DECLS
#endif

#ifdef __cplusplus
/** Converts @p expr to @p type: a static_cast in C++, so that the macros of
 *  these headers raise no -Wold-style-cast warning in C++ code. */
#define QUBO_CAST(type, expr) (static_cast<type>(expr))
#else
/** Converts @p expr to @p type: a cast in C (a static_cast in C++, so that
 *  the macros of these headers raise no -Wold-style-cast warning there). */
#define QUBO_CAST(type, expr) ((type)(expr))
#endif

#endif /* QUBO_COMMON_H */
