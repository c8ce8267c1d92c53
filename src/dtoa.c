/*
 * Number to text for the format and output stages: correctly rounded
 * decimal digits of a double. Reads and writes nothing.
 *
 * glibc's "%.17g" is exact but costs some 3,000 instructions a call
 * (multiple-precision division); a report formats a few thousand
 * numbers, so that was a fifth of a cold run. A double is m * 2^e with
 * m < 2^53. Scaled to n digits, m * 2^e * 10^s is a fraction whose
 * numerator and denominator fit in 128 bits whenever |v| lies roughly
 * between 1e-6 and 1e38 (the data and most results), and then the
 * digits and the rounding are exact integer arithmetic. Every other
 * value, and every compiler without 128-bit integers, goes to snprintf.
 * tests/unit/test_dtoa.c compares both ways on hard cases and 600,000 random doubles.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "dtoa.h"
#include "banned.h"

/*
 * The slow, always right way: glibc's "%.*e", whose digits and exponent
 * are taken apart. "-d.dddde-308" fits in 32 bytes with 17 digits.
 */
static int
round_libc(double v, int n, char *d)
{
	char tmp[48];
	const char *p = tmp;
	int len, k = 0, exp, sign = 1;

	len = snprintf(tmp, sizeof(tmp), "%.*e", n - 1, fabs(v));
	if (len < 0 || (size_t)len >= sizeof(tmp))
		BUG("snprintf(%%.*e) gave %d bytes", len);
	for (; *p && *p != 'e'; p++)
		if (*p != '.' && k < n)
			d[k++] = *p;
	d[k] = '\0';
	if (*p != 'e' || k != n)
		BUG("cannot parse snprintf(%%.*e) output '%s'", tmp);
	p++;
	if (*p == '-' || *p == '+')
		sign = *p++ == '-' ? -1 : 1;
	for (exp = 0; *p >= '0' && *p <= '9'; p++)
		exp = exp * 10 + (*p - '0');
	return v == 0 ? 0 : sign * exp;
}

#ifdef __SIZEOF_INT128__
/* A GCC and Clang extension, hence __extension__ (quiet under -pedantic). */
__extension__ typedef unsigned __int128 u128;

static const uint64_t pow10_64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

/* 10^k for 0 <= k <= 38 (10^38 < 2^128). */
static u128
pow10_128(int k)
{
	if (k < 20)
		return pow10_64[k];
	return (u128)pow10_64[19] * pow10_64[k - 19];
}

/* Significant bits of x: 0 for 0, 128 for 2^127 and above. */
static int
bits128(u128 x)
{
	uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;

	if (hi)
		return 128 - __builtin_clzll(hi);
	return lo ? 64 - __builtin_clzll(lo) : 0;
}

/*
 * t = m * 2^e * 10^s as num / den, both below 2^128. Sets *q to
 * floor(t) and *half to the sign of (t - q) - 1/2. Returns -1 when a
 * part does not fit.
 */
static int
scale(uint64_t m, int e, int s, u128 *q, int *half)
{
	u128 num = m, den = 1, rem;

	if (s > 38 || s < -38)
		return -1;
	if (s >= 0) {
		if (bits128(num) + bits128(pow10_128(s)) > 128)
			return -1;
		num *= pow10_128(s);
	} else {
		den = pow10_128(-s);
	}
	if (e >= 0) {
		if (bits128(num) + e > 128)
			return -1;
		num <<= e;
	} else {
		if (bits128(den) - e > 128)
			return -1;
		den <<= -e;
	}
	*q = num / den;
	rem = num % den;
	/* rem < den, so den - rem cannot wrap. */
	*half = rem < den - rem ? -1 : rem > den - rem;
	return 0;
}

/*
 * The exact way. floor(log10 |v|) is est or est + 1, where est comes
 * from the binary exponent; the right one is the one whose scaled value
 * has n digits before rounding. Returns -1 when 128 bits do not suffice.
 */
static int
round_exact(double v, int n, char *d, int *exp10)
{
	uint64_t bits, m, r;
	int be, e, b, est, x, half, i;
	u128 q = 0;

	memcpy(&bits, &v, sizeof(bits));
	m = bits & ((1ULL << 52) - 1);
	be = (int)(bits >> 52 & 0x7ff);
	if (be == 0x7ff)
		return -1;
	if (!be && !m)
		return -1;	/* zero: round_libc() knows its sign rules */
	if (be) {
		m |= 1ULL << 52;
		e = be - 1075;
	} else {
		e = -1074;
	}
	b = 63 - __builtin_clzll(m) + e;	/* floor(log2 |v|) */
	/* floor(b log10 2); b log10 2 is an integer only for b = 0. */
	est = (int)floor(b * 0.30102999566398119521);
	for (x = est + 1; x >= est - 1; x--) {
		if (scale(m, e, n - 1 - x, &q, &half))
			return -1;
		if (q >= pow10_64[n - 1])
			break;
	}
	if (x < est - 1 || q >= pow10_64[n])
		return -1;	/* est was wrong: cannot happen, but be safe */
	if (half > 0 || (half == 0 && (q & 1)))
		q++;
	if (q == pow10_64[n]) {
		q = pow10_64[n - 1];
		x++;
	}
	/* q < 10^17 < 2^64: 64-bit division by 10 is a multiplication. */
	for (i = n - 1, r = (uint64_t)q; i >= 0; i--) {
		d[i] = (char)('0' + (int)(r % 10));
		r /= 10;
	}
	d[n] = '\0';
	*exp10 = x;
	return 0;
}
#else
static int
round_exact(double v, int n, char *d, int *exp10)
{
	(void)v, (void)n, (void)d, (void)exp10;
	return -1;
}
#endif

int
dtoa_round(double v, int n, char d[DTOA_MAX_DIGITS + 1])
{
	int exp10;

	if (n < 1 || n > DTOA_MAX_DIGITS || !isfinite(v))
		BUG("dtoa_round(%g, %d)", v, n);
	if (!round_exact(v, n, d, &exp10))
		return exp10;
	return round_libc(v, n, d);
}

size_t
dtoa_g(char out[DTOA_G_SIZE], double v, int n)
{
	char d[DTOA_MAX_DIGITS + 1], *p = out;
	int x, last, i;

	if (n < 1 || n > DTOA_MAX_DIGITS)
		BUG("dtoa_g(%d digits)", n);
	if (!isfinite(v) || v == 0) {
		/* "inf", "-nan", "0", "-0": nothing to gain. */
		int len = snprintf(out, DTOA_G_SIZE, "%.*g", n, v);

		if (len < 0 || len >= DTOA_G_SIZE)
			BUG("snprintf(%%.*g) gave %d bytes", len);
		return (size_t)len;
	}
	x = dtoa_round(v, n, d);
	/* %g drops trailing zeros, and the point when nothing follows. */
	for (last = n - 1; last > 0 && d[last] == '0'; last--)
		;
	if (signbit(v))
		*p++ = '-';
	if (x < -4 || x >= n) {
		*p++ = d[0];
		if (last > 0) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)last);
			p += last;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (x >= 100)
			*p++ = (char)('0' + x / 100);
		*p++ = (char)('0' + x / 10 % 10);
		*p++ = (char)('0' + x % 10);
	} else if (x >= 0) {
		/* x < n digits before the point, then the rest. */
		memcpy(p, d, (size_t)x + 1);
		p += x + 1;
		if (last > x) {
			*p++ = '.';
			memcpy(p, d + x + 1, (size_t)(last - x));
			p += last - x;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (i = x; i < -1; i++)
			*p++ = '0';
		memcpy(p, d, (size_t)last + 1);
		p += last + 1;
	}
	*p = '\0';
	return (size_t)(p - out);
}
