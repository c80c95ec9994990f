/*
 * Decimal numbers under the C-locale rule, whatever the caller's
 * setlocale(): parsing (an exact fast path for short decimals, strtod_l()
 * with a "C" locale object otherwise) and printing (the shortest digits
 * that read back to the same double). The qbsolv reader and writer, the
 * QASM writer and the solvers' options use them.
 */
#ifndef QUBO_COMMON_NUMBER_H
#define QUBO_COMMON_NUMBER_H

#include <float.h>
#include <locale.h>
#include <stddef.h>
#include <stdint.h>

#include "common_impl.h"

/* Room for any number qubo__number_format() and qubo__number_format_g()
 * print, with its NUL. */
#define QUBO__NUMBER_SIZE 32
/* Numbers up to this length are parsed from a copy on the stack. */
#define QUBO__NUMBER_SHORT 128

/* The powers of ten that are doubles exactly. */
static const double qubo__pow10_exact[23] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Creates the "C" locale object the parser and printer use, once.
 * QUBO_OK, or QUBO_ERR_NOMEM with "<fn>: cannot create the C locale"
 * (message set). */
int qubo__c_locale(const char *fn);

/*
 * Checks that s[0..n) is a decimal number [+-](d+[.d*]|.d+)([eE][+-]?d+)?
 * and computes it, correctly rounded. Returns 1 and sets *out when the
 * syntax is valid (the value may be infinite when it overflows), 0
 * otherwise, -1 when out of memory (or the C locale cannot be made).
 * *scratch and *cap_scratch hold a growable buffer from a for numbers of
 * QUBO__NUMBER_SHORT bytes or more (NULL scratch: such numbers fail with
 * -1).
 */
int qubo__number_parse(const char *s, size_t n, double *out, const qubo_allocator *a,
		       char **scratch, size_t *cap_scratch);

/* qubo__number_parse() without scratch: 1 (a number), 0 (not one), -1 (out
 * of memory, or QUBO__NUMBER_SHORT bytes or more). */
int qubo__parse_double(const char *s, size_t n, double *out);

/* Decimal digits of v at p (at least 20 bytes); returns the length. */
size_t qubo__number_u64(char *p, uint64_t v);

/*
 * w (finite) as the shortest decimal that reads back as w, laid out as
 * %.17g lays it out: integers below 2^53 as integers, "-0" for negative
 * zero. p holds QUBO__NUMBER_SIZE bytes; no NUL is written. Returns the
 * length.
 */
size_t qubo__number_format(char *p, double w);

/* w (finite) as the first of %.15g, %.16g and %.17g, in the C locale, that
 * reads back as w. p holds QUBO__NUMBER_SIZE bytes; NUL-terminated.
 * Returns the length. */
size_t qubo__number_format_g(char *p, double w);

/* An ASCII decimal digit, whatever the locale. */
static inline int qubo__is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The common short decimal, [+-]d*[.d*] with 1 to 19 digits (leading zeros
 * count), at most 22 after the point and a value below 2^53 in units of
 * its last digit, read from s up to end: sets *out and *stop (past the
 * last byte read) and returns 1. That is Clinger's exact case of
 * qubo__number_parse(), computed the same way, so the same double; anything
 * else returns 0 (an exponent, more digits, no digit) and
 * qubo__number_parse() reads it; *stop is set either way.
 */
static inline int qubo__number_plain(const char *s, const char *end, double *out, const char **stop)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
	const char *p = s, *f;
	uint64_t mant = 0;
	unsigned d;
	size_t digits, frac = 0;
	int neg = 0;
	double v;

	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	for (f = p; p < end && (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
		mant = mant * 10 + d;
	digits = (size_t)(p - f);
	if (p < end && *p == '.') {
		for (f = ++p; p < end && (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
			mant = mant * 10 + d;
		frac = (size_t)(p - f);
		digits += frac;
	}
	*stop = p;
	if (digits == 0 || digits > 19 || frac > 22 || mant > (UINT64_C(1) << 53))
		return 0; /* 19 digits cannot overflow 64 bits */
	v = (double)mant / qubo__pow10_exact[frac];
	*out = neg ? -v : v;
	return 1;
#else
	(void)s;
	(void)end;
	(void)out;
	(void)stop;
	return 0;
#endif
}

#endif /* QUBO_COMMON_NUMBER_H */
