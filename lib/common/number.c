/*
 * Decimal numbers under the C-locale rule (number.h).
 *
 * Parsing: Clinger's exact case first (an integer mantissa below 2^53 times
 * a power of ten up to 10^22 is one correctly rounded IEEE operation),
 * strtod_l() with a "C" locale object otherwise.
 *
 * Printing: the shortest decimal that reads back to the same double (exact
 * digit generation in 128-bit integers for the usual magnitudes; the
 * shortest of %.15g / %.16g / %.17g, checked by parsing back, for the
 * extremes), printf running inside uselocale() of the C locale so that its
 * decimal point is always '.'.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

/* ------------------------------------------------------------------ */
/* The C locale, created once. */

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static locale_t c_locale_get(void)
{
	pthread_once(&c_locale_once, c_locale_init);
	return c_locale;
}

int qubo__c_locale(const char *fn)
{
	if (c_locale_get() == (locale_t)0)
		return qubo__error(QUBO_ERR_NOMEM, "%s: cannot create the C locale", fn);
	return QUBO_OK;
}

/* ------------------------------------------------------------------ */
/* Parsing. */

int qubo__number_parse(const char *s, size_t n, double *out, const qubo_allocator *a,
		       char **scratch, size_t *cap_scratch)
{
	size_t i = 0;
	int neg = 0, any = 0, inexact = 0;
	uint64_t mant = 0;
	unsigned nd = 0;
	long exp10 = 0, e = 0;
	char local[QUBO__NUMBER_SHORT];
	char *buf, *endp;
	const char *stop;
	locale_t c;

	if (qubo__number_plain(s, s + n, out, &stop) && stop == s + n)
		return 1;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < n && qubo__is_digit(s[i]); i++) {
		any = 1;
		if (mant == 0 && s[i] == '0')
			continue;
		if (nd < 19) {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			nd++;
		} else {
			exp10++;
			inexact |= s[i] != '0';
		}
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && qubo__is_digit(s[i]); i++) {
			any = 1;
			if (mant == 0 && s[i] == '0') {
				exp10--;
			} else if (nd < 19) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				nd++;
				exp10--;
			} else {
				inexact |= s[i] != '0';
			}
		}
	}
	if (!any)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0, edig = 0;

		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		for (; i < n && qubo__is_digit(s[i]); i++) {
			edig = 1;
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
			else
				inexact = 1; /* saturated: leave it to strtod_l() */
		}
		if (!edig)
			return 0;
		if (eneg)
			e = -e;
	}
	if (i != n)
		return 0;
	/* exp10 is bounded by the token length, e by 10^6. */
	exp10 += e;
	if (mant == 0) {
		*out = neg ? -0.0 : 0.0;
		return 1;
	}
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
	if (!inexact && mant <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
		double d = (double)mant;

		d = exp10 >= 0 ? d * qubo__pow10_exact[exp10] : d / qubo__pow10_exact[-exp10];
		*out = neg ? -d : d;
		return 1;
	}
#endif
	c = c_locale_get();
	if (c == (locale_t)0)
		return -1;
	if (n < QUBO__NUMBER_SHORT) {
		buf = local;
	} else {
		if (!scratch)
			return -1;
		if (qubo__grow(a, (void **)scratch, cap_scratch, n + 1, 1))
			return -1;
		buf = *scratch;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod_l(buf, &endp, c);
	if (endp != buf + n) /* cannot happen after the syntax check */
		return 0;
	return 1;
}

int qubo__parse_double(const char *s, size_t n, double *out)
{
	return qubo__number_parse(s, n, out, NULL, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Printing. */

size_t qubo__number_u64(char *p, uint64_t v)
{
	char t[20];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = t[n - 1 - i];
	return n;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 number_u128;

/*
 * The digit loop of the free-format algorithm, for r < s with r + mp < s
 * (mp >= mm): emits digits of r / s until the rest is within mm below or mp
 * above, then rounds the last digit to the closest (ties to an even
 * digit). The last digit is at most 9 because r + mp < s held before it.
 * Both versions are the same code; the 64-bit one runs when 10 s fits
 * (the usual magnitudes) and is about twice as fast. Returns the count, 0
 * past 17 digits (cannot happen).
 */
#define GEN_DIGITS(T)                                                                   \
	T s2 = s * 2, s4 = s * 4, s8 = s * 8;                                           \
	int n = 0, d, b, lo, up;                                                        \
									                \
	for (;;) {                                                                          \
		r *= 10;                                                                    \
		mp *= 10;                                                                   \
		mm *= 10;                                                                   \
		/* d = r / s without branches (random digits mispredict) */             \
		b = r >= s8;                                                            \
		r -= s8 & -(T)b;                                                        \
		d = 8 * b;                                                              \
		b = r >= s4;                                                            \
		r -= s4 & -(T)b;                                                        \
		d += 4 * b;                                                             \
		b = r >= s2;                                                            \
		r -= s2 & -(T)b;                                                        \
		d += 2 * b;                                                             \
		b = r >= s;                                                             \
		r -= s & -(T)b;                                                         \
		d += b;                                                                     \
		lo = even ? r <= mm : r < mm;                                           \
		up = even ? r + mp >= s : r + mp > s;                                   \
		if (!lo && !up) {                                                       \
			if (n == 17)                                                    \
				return 0;                                               \
			dig[n++] = (char)('0' + d);                                     \
			continue;                                                       \
		}                                                                           \
		if (lo && up)                                                           \
			d += 2 * r > s || (2 * r == s && (d & 1));                      \
		else if (up)                                                            \
			d++;                                                            \
		dig[n++] = (char)('0' + d);                                             \
		return n;                                                                   \
	}

/* s < 2^59. */
static int gen_digits64(uint64_t r, uint64_t s, uint64_t mp, uint64_t mm, int even, char *dig)
{
	GEN_DIGITS(uint64_t)
}

/* s <= 2^123. */
static int gen_digits128(number_u128 r, number_u128 s, number_u128 mp, number_u128 mm, int even,
			 char *dig)
{
	GEN_DIGITS(number_u128)
}

/*
 * The shortest decimal digits that read back as |w| (the closest such when
 * several have that length), by Burger and Dybvig's free-format algorithm
 * ("Printing floating-point numbers quickly and accurately", 1996) in
 * 128-bit integers. With |w| = f · 2^e: r/s is the scaled value, mp and mm
 * the distances to the rounding boundaries above and below (half the gaps
 * to the neighbouring doubles, in the same scale); both boundaries belong
 * to w when f is even (the reader rounds ties to even). Fills dig with the
 * digits (at most 17, '0'..'9') and *k10 with k such that |w| reads as
 * 0.d1d2...dn · 10^k. Returns the digit count, or 0 when the integers would
 * not fit in 128 bits (|w| below about 1e-21 or above about 1e36, and
 * subnormals): the caller then falls back to printf.
 */
static int shortest_digits(double w, char *dig, int *k10)
{
	const number_u128 lim = (number_u128)1 << 123;
	number_u128 r, s, mp, mm, p, hi;
	uint64_t bits, f;
	int be, e, even, asym, k, i;

	memcpy(&bits, &w, sizeof bits);
	be = (int)((bits >> 52) & 0x7ff);
	f = bits & ((UINT64_C(1) << 52) - 1);
	if (be == 0)
		return 0;
	asym = f == 0 && be > 1; /* the gap below is half the gap above */
	f |= UINT64_C(1) << 52;
	e = be - 1075;
	even = (f & 1) == 0;
	if (e >= 0) {
		if (e > 68)
			return 0;
		r = (number_u128)f << (e + 1 + asym);
		s = asym ? 4 : 2;
		mp = (number_u128)1 << (e + asym);
		mm = (number_u128)1 << e;
	} else {
		if (e < -120)
			return 0;
		r = (number_u128)f << (1 + asym);
		s = (number_u128)1 << (1 - e + asym);
		mp = asym ? 2 : 1;
		mm = 1;
	}
	/* Scale by 10^-k so that (r + mp) / s lies in [0.1, 1). */
	k = (int)ceil(log10(fabs(w)) - 1e-10);
	for (p = 1, i = k < 0 ? -k : k; i > 0; i--)
		p *= 10; /* |k| <= 38 here */
	if (k >= 0) {
		if (__builtin_mul_overflow(s, p, &s) || s > lim)
			return 0;
	} else {
		if (__builtin_mul_overflow(r, p, &r) || r > lim)
			return 0;
		mp *= p; /* mm <= mp <= r */
		mm *= p;
	}
	for (;;) {
		hi = r + mp;
		if (even ? hi >= s : hi > s) {
			if (s > lim / 10) /* a constant */
				return 0;
			s *= 10;
			k++;
		} else if (even ? hi * 10 < s : hi * 10 <= s) {
			r *= 10;
			mp *= 10;
			mm *= 10;
			k--;
		} else {
			break;
		}
	}
	*k10 = k;
	if (s < (number_u128)1 << 59)
		return gen_digits64((uint64_t)r, (uint64_t)s, (uint64_t)mp, (uint64_t)mm, even,
				    dig);
	return gen_digits128(r, s, mp, mm, even, dig);
}
#endif


/* Lays out n digits with value 0.d1...dn · 10^k like %.17g: fixed notation
 * when the decimal exponent k − 1 is in [−4, 17), else d.ddde±XX. */
static size_t format_digits(char *p, int neg, const char *dig, int n, int k)
{
	int x = k - 1, i;
	size_t len = 0;

	if (neg)
		p[len++] = '-';
	if (x >= -4 && x < 17) {
		if (x >= 0) {
			for (i = 0; i <= x; i++)
				p[len++] = i < n ? dig[i] : '0';
			if (n > x + 1) {
				p[len++] = '.';
				for (i = x + 1; i < n; i++)
					p[len++] = dig[i];
			}
		} else {
			p[len++] = '0';
			p[len++] = '.';
			for (i = 0; i < -x - 1; i++)
				p[len++] = '0';
			for (i = 0; i < n; i++)
				p[len++] = dig[i];
		}
		return len;
	}
	p[len++] = dig[0];
	if (n > 1) {
		p[len++] = '.';
		for (i = 1; i < n; i++)
			p[len++] = dig[i];
	}
	p[len++] = 'e';
	p[len++] = x < 0 ? '-' : '+';
	if (x < 0)
		x = -x;
	if (x < 10)
		p[len++] = '0';
	return len + qubo__number_u64(p + len, (uint64_t)x);
}

size_t qubo__number_format(char *p, double w)
{
	if (w == 0.0) {
		if (signbit(w)) {
			memcpy(p, "-0", 2);
			return 2;
		}
		p[0] = '0';
		return 1;
	}
	if (w > -9007199254740992.0 && w < 9007199254740992.0 && w == (double)(int64_t)w) {
		int64_t v = (int64_t)w;

		if (v < 0) {
			p[0] = '-';
			return 1 + qubo__number_u64(p + 1, (uint64_t)-v);
		}
		return qubo__number_u64(p, (uint64_t)v);
	}
#if defined(__SIZEOF_INT128__)
	{
		char dig[17];
		int k, nd = shortest_digits(w, dig, &k);

		if (nd > 0)
			return format_digits(p, w < 0, dig, nd, k);
	}
#endif
	return qubo__number_format_g(p, w);
}

size_t qubo__number_format_g(char *p, double w)
{
	locale_t c = c_locale_get(), old = (locale_t)0;
	double back;
	int prec, k = 0;

	if (c != (locale_t)0)
		old = uselocale(c);
	for (prec = 15; prec <= 17; prec++) {
		k = snprintf(p, QUBO__NUMBER_SIZE, "%.*g", prec, w);
		if (prec == 17 || (qubo__number_parse(p, (size_t)k, &back, NULL, NULL, NULL) == 1 &&
				   back == w))
			break;
	}
	if (old != (locale_t)0)
		uselocale(old);
	return (size_t)k;
}
