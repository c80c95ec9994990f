/*
 * The decimal numbers of lib/common (number.h): parsing and printing
 * doubles under the C-locale rule, whatever the caller's locale.
 */
#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "util.h"

/* A random finite double: random bits, NaN and ±inf redrawn. */
static double random_double(tu_rng *r)
{
	for (;;) {
		uint64_t bits = tu_next(r);
		double w;

		memcpy(&w, &bits, sizeof w);
		if (isfinite(w))
			return w;
	}
}

static uint64_t bits_of(double w)
{
	uint64_t b;

	memcpy(&b, &w, sizeof b);
	return b;
}

static size_t rounds(size_t n)
{
	return getenv("QUBO_TEST_VALGRIND") ? n / 20 : n;
}

/* qubo__number_format(w) as a string. */
static const char *fmt(char *buf, double w)
{
	buf[qubo__number_format(buf, w)] = '\0';
	return buf;
}

/* Its significant digits: those of the mantissa without leading and
 * trailing zeros. */
static int significant(const char *s)
{
	int n = 0, last = 0, seen = 0;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s != '0')
			seen = 1;
		if (!seen)
			continue;
		n++;
		if (*s != '0')
			last = n;
	}
	return last;
}

/* The fewest digits p for which printf's %.pg reads back as w. */
static int fewest_printf(double w)
{
	char buf[64];
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof buf, "%.*g", p, w);
		if (strtod(buf, NULL) == w)
			break;
	}
	return p;
}

Test(number, format_reads_back_bit_for_bit)
{
	tu_rng r = { 2318 };
	char buf[QUBO__NUMBER_SIZE + 1];
	size_t i, n = rounds(200000);

	for (i = 0; i < n; i++) {
		double w = i % 4 ? random_double(&r) : (tu_unit(&r) - 0.5) * 1e6, back = 0.0;
		size_t len = qubo__number_format(buf, w);

		cr_assert_lt(len, QUBO__NUMBER_SIZE);
		cr_assert_eq(qubo__number_parse(buf, len, &back, NULL, NULL, NULL), 1, "%.*s",
			     (int)len, buf);
		cr_assert_eq(bits_of(back), bits_of(w), "%.17g printed as %.*s", w, (int)len, buf);
	}
}

Test(number, format_is_shortest)
{
	tu_rng r = { 77 };
	char buf[QUBO__NUMBER_SIZE + 1];
	size_t i, n = rounds(100000);

	for (i = 0; i < n; i++) {
		double w = i % 2 ? random_double(&r)
				 : (tu_unit(&r) - 0.5) * pow(10.0, (double)tu_range(&r, -20, 30));
		int d = significant(fmt(buf, w)), p = fewest_printf(w);

		/* the extremes take the first of 15..17 digits that reads back;
		 * the rest printf's shortest, except perhaps where the gap below
		 * w is half the gap above (a power of two) */
		if (!(fabs(w) >= 1e-20 && fabs(w) <= 1e35)) {
			cr_assert_leq(d, p > 15 ? p : 15, "%.17g: %s", w, buf);
			continue;
		}
		cr_assert_leq(d, p, "%.17g: %s", w, buf);
		if ((bits_of(w) & ((UINT64_C(1) << 52) - 1)) != 0)
			cr_assert_eq(d, p, "%.17g: %s", w, buf);
	}
}

Test(number, format_layout)
{
	char buf[QUBO__NUMBER_SIZE + 1];

	cr_assert_str_eq(fmt(buf, 0.0), "0");
	cr_assert_str_eq(fmt(buf, -0.0), "-0");
	cr_assert_str_eq(fmt(buf, 3.0), "3");
	cr_assert_str_eq(fmt(buf, -9007199254740991.0), "-9007199254740991");
	cr_assert_str_eq(fmt(buf, 0.1), "0.1");
	cr_assert_str_eq(fmt(buf, -2.5), "-2.5");
	cr_assert_str_eq(fmt(buf, 1e-4), "0.0001");
	cr_assert_str_eq(fmt(buf, 1.5e-5), "1.5e-05");
	cr_assert_str_eq(fmt(buf, 1e16 + 2.0), "10000000000000002");
	cr_assert_str_eq(fmt(buf, 1e17), "1e+17");
	cr_assert_str_eq(fmt(buf, 0.30000000000000004), "0.30000000000000004");
	cr_assert_str_eq(fmt(buf, 1.7976931348623157e308), "1.7976931348623157e+308");
	/* the extremes go through printf: the first of 15..17 digits */
	cr_assert_str_eq(fmt(buf, 5e-324), "4.94065645841247e-324");
	cr_assert_eq(qubo__number_format_g(buf, 0.1), 3);
	cr_assert_str_eq(buf, "0.1");
	qubo__number_format_g(buf, 0.30000000000000004);
	cr_assert_str_eq(buf, "0.30000000000000004");
}

Test(number, parse_syntax)
{
	static const char *const bad[] = { "",	 "+",	  "-",	   ".",	  "+.",	  "e5",	 "1e",
					   "1e+", "1.2.3", "--1",  "1 ",  " 1",	  "0x10", "inf",
					   "nan", "1e5x",  "1,5",  "1_0", "١",	  "1e-+2" };
	static const struct {
		const char *s;
		double v;
	} good[] = { { "0", 0.0 },	    { ".5", 0.5 },	 { "5.", 5.0 },
		     { "+1", 1.0 },	    { "-2.25", -2.25 },	 { "1e3", 1000.0 },
		     { "1E-3", 0.001 },	    { "-.5e+1", -5.0 },	 { "0.1", 0.1 },
		     { "123456789012345678901234567890", 123456789012345678901234567890.0 },
		     { "4.9406564584124654e-324", 5e-324 },
		     { "1e400", HUGE_VAL }, { "-1e400", -HUGE_VAL }, { "1e-400", 0.0 } };
	double v;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_assert_eq(qubo__number_parse(bad[i], strlen(bad[i]), &v, NULL, NULL, NULL), 0,
			     "'%s'", bad[i]);
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		v = 42.0;
		cr_assert_eq(qubo__number_parse(good[i].s, strlen(good[i].s), &v, NULL, NULL, NULL),
			     1, "'%s'", good[i].s);
		cr_assert_eq(v, good[i].v, "'%s': %.17g", good[i].s, v);
	}
	cr_assert_eq(qubo__parse_double("-0", 2, &v), 1);
	cr_assert(v == 0.0 && signbit(v));
	/* only the n bytes given are read */
	cr_assert_eq(qubo__parse_double("2.5junk", 3, &v), 1);
	cr_assert_eq(v, 2.5);
}

Test(number, long_numbers_use_the_scratch)
{
	char text[400], *scratch = NULL;
	size_t cap = 0, n;
	double v = 0.0;
	tu_failalloc fa;

	/* 10^-299 written out: longer than QUBO__NUMBER_SHORT */
	n = (size_t)snprintf(text, sizeof text, "0.%0299d", 1);
	cr_assert_gt(n, QUBO__NUMBER_SHORT);
	cr_assert_eq(qubo__parse_double(text, n, &v), -1);
	tu_failalloc_init(&fa, 1);
	cr_assert_eq(qubo__number_parse(text, n, &v, &fa.a, &scratch, &cap), -1);
	cr_assert_null(scratch);
	tu_failalloc_init(&fa, 0);
	cr_assert_eq(qubo__number_parse(text, n, &v, &fa.a, &scratch, &cap), 1);
	cr_assert_eq(v, 1e-299);
	cr_assert_geq(cap, n + 1);
	qubo__free(&fa.a, scratch);
	cr_assert_eq(fa.live, 0);
}

Test(number, u64)
{
	char buf[24];

	buf[qubo__number_u64(buf, 0)] = '\0';
	cr_assert_str_eq(buf, "0");
	buf[qubo__number_u64(buf, UINT64_MAX)] = '\0';
	cr_assert_str_eq(buf, "18446744073709551615");
}

/* Under a locale whose decimal point is a comma, the module still reads
 * and writes points, and the caller's locale is left as it was. */
Test(number, c_locale_under_a_comma_locale)
{
	char buf[QUBO__NUMBER_SIZE + 1], check[16];
	double v = 0.0;

	if (getenv("QUBO_TEST_VALGRIND") || !tu_set_comma_locale())
		cr_skip_test("no locale with a decimal comma");
	cr_assert_eq(qubo__c_locale("test"), QUBO_OK);
	cr_assert_eq(qubo__parse_double("0.5", 3, &v), 1);
	cr_assert_eq(v, 0.5);
	cr_assert_eq(qubo__parse_double("0,5", 3, &v), 0);
	/* a subnormal is printed by printf */
	cr_assert_eq(qubo__parse_double("1.25e-310", 9, &v), 1);
	cr_assert_not_null(strchr(fmt(buf, v), '.'), "%s", buf);
	cr_assert_null(strchr(buf, ','), "%s", buf);
	qubo__number_format_g(buf, 2.5e300);
	cr_assert_str_eq(buf, "2.5e+300");
	cr_assert_str_eq(fmt(buf, 0.75), "0.75");
	snprintf(check, sizeof check, "%.1f", 0.5);
	cr_assert_str_eq(check, "0,5");
	setlocale(LC_ALL, "C");
}
