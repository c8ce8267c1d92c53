/*
 * Number to text for the format and output stages: correctly rounded
 * decimal digits of a double. Reads and writes nothing.
 *
 * glibc's "%.17g" is exact but costs some 3,000 instructions a call
 * (multiple-precision division, slow on any processor); a report
 * formats a few thousand numbers, so that was a fifth of a cold run. A
 * double is m * 2^e with m < 2^53. Scaled to n digits, m * 2^e * 10^s
 * is a fraction; floor and rounding (half to even) are exact integer
 * arithmetic: in 128 bits when |v| lies roughly between 1e-6 and 1e38
 * (the data and most results), else in small big numbers of up to 1280
 * bits. Only compilers without 128-bit integers go to snprintf.
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
scale128(uint64_t m, int e, int s, u128 *q, int *half)
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
 * Beyond 128 bits: numbers of up to BIG_LIMBS 64-bit limbs, least
 * significant first. m 2^e 10^s needs at most 53 + 1130 bits (the
 * smallest denormal at 17 digits) and 10^308 needs 1024.
 */
#define BIG_LIMBS 20

struct big {
	uint64_t w[BIG_LIMBS];
	int n;			/* limbs in use; w[n - 1] != 0 unless n is 0 */
};

static void
big_set(struct big *b, uint64_t v)
{
	b->w[0] = v;
	b->n = v != 0;
}

static void
big_trim(struct big *b)
{
	while (b->n && !b->w[b->n - 1])
		b->n--;
}

/* b *= f; -1 when it would not fit. */
static int
big_mul(struct big *b, uint64_t f)
{
	u128 carry = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		carry += (u128)b->w[i] * f;
		b->w[i] = (uint64_t)carry;
		carry >>= 64;
	}
	if (carry) {
		if (b->n == BIG_LIMBS)
			return -1;
		b->w[b->n++] = (uint64_t)carry;
	}
	big_trim(b);	/* f may be 0 */
	return 0;
}

/* b *= 10^k. */
static int
big_mul_pow10(struct big *b, int k)
{
	for (; k >= 19; k -= 19)
		if (big_mul(b, pow10_64[19]))
			return -1;
	return k ? big_mul(b, pow10_64[k]) : 0;
}

/* b <<= k. */
static int
big_shl(struct big *b, int k)
{
	int limbs = k / 64, bits = k % 64, i;

	if (!b->n)
		return 0;
	if (b->n + limbs + 1 > BIG_LIMBS)
		return -1;
	b->w[b->n + limbs] = 0;
	for (i = b->n - 1; i >= 0; i--) {
		uint64_t w = b->w[i];

		if (bits) {
			b->w[i + limbs + 1] |= w >> (64 - bits);
			b->w[i + limbs] = w << bits;
		} else {
			b->w[i + limbs] = w;
		}
	}
	for (i = 0; i < limbs; i++)
		b->w[i] = 0;
	b->n += limbs + 1;
	big_trim(b);
	return 0;
}

static int
big_bits(const struct big *b)
{
	return b->n ? 64 * (b->n - 1) + 64 - __builtin_clzll(b->w[b->n - 1])
		    : 0;
}

/* b >> k, which must fit in 128 bits. */
static u128
big_shr128(const struct big *b, int k)
{
	u128 r = 0;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		int lo = 64 * i - k;	/* bit position of w[i] in r */

		if (lo >= 128 || lo <= -64)
			continue;
		if (lo >= 0)
			r |= (u128)b->w[i] << lo;
		else
			r |= (u128)(b->w[i] >> -lo);
	}
	return r;
}

static int
big_cmp(const struct big *a, const struct big *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* a -= b, with a >= b. */
static void
big_sub(struct big *a, const struct big *b)
{
	uint64_t borrow = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		uint64_t bw = i < b->n ? b->w[i] : 0;
		uint64_t d = a->w[i] - bw - borrow;

		borrow = a->w[i] < bw || (a->w[i] == bw && borrow);
		a->w[i] = d;
	}
	big_trim(a);
}

/* a += b. */
static int
big_add(struct big *a, const struct big *b)
{
	u128 carry = 0;
	int i, n = a->n > b->n ? a->n : b->n;

	for (i = 0; i < n; i++) {
		carry += (u128)(i < a->n ? a->w[i] : 0) +
			 (i < b->n ? b->w[i] : 0);
		a->w[i] = (uint64_t)carry;
		carry >>= 64;
	}
	a->n = n;
	if (carry) {
		if (n == BIG_LIMBS)
			return -1;
		a->w[a->n++] = 1;
	}
	return 0;
}

/*
 * scale128() for any double, with big numbers: q = floor(num / den) is
 * estimated from their top bits (off by at most a few) and corrected
 * with exact products. -1 when q would not fit in 128 bits... or 64:
 * callers want at most 10^19.
 */
static int
scale_big(uint64_t m, int e, int s, u128 *q, int *half)
{
	struct big num, den, prod, rem;
	uint64_t qq;
	u128 nt;
	int sh, i;

	big_set(&num, m);
	big_set(&den, 1);
	if (s >= 0 ? big_mul_pow10(&num, s) : big_mul_pow10(&den, -s))
		return -1;
	if (e >= 0 ? big_shl(&num, e) : big_shl(&den, -e))
		return -1;
	/* num >> sh over den >> sh, den's top 64 bits. */
	sh = big_bits(&den) > 64 ? big_bits(&den) - 64 : 0;
	if (big_bits(&num) - sh > 127)
		return -1;
	nt = big_shr128(&num, sh) / (uint64_t)big_shr128(&den, sh);
	if (nt >> 64)
		return -1;
	qq = (uint64_t)nt;
	prod = den;
	if (big_mul(&prod, qq))
		return -1;
	for (i = 0; big_cmp(&prod, &num) > 0; i++) {
		if (i == 4 || !qq)
			BUG("quotient estimate too far off");
		qq--;
		big_sub(&prod, &den);
	}
	rem = num;
	big_sub(&rem, &prod);
	for (i = 0; big_cmp(&rem, &den) >= 0; i++) {
		if (i == 4)
			BUG("quotient estimate too far off");
		qq++;
		big_sub(&rem, &den);
	}
	/* 2 rem against den: the half. */
	if (big_add(&rem, &rem))
		return -1;
	*half = big_cmp(&rem, &den);
	*q = qq;
	return 0;
}

/* m 2^e 10^s: 128-bit integers when they suffice, else big numbers. */
static int
scale(uint64_t m, int e, int s, u128 *q, int *half)
{
	if (!scale128(m, e, s, q, half))
		return 0;
	return scale_big(m, e, s, q, half);
}

/*
 * The decimal digits of q (no sign), at least min of them (leading
 * zeros), into out; returns how many. 64-bit division by 10 is a
 * multiplication.
 */
static size_t
put_digits(char *out, uint64_t q, int min)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	size_t len;

	do {
		*--p = (char)('0' + (int)(q % 10));
		q /= 10;
	} while (q || tmp + sizeof(tmp) - p < min);
	len = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(out, p, len);
	return len;
}

/* |v| = m 2^*e for a finite v, m < 2^53 (0 for zero). */
static uint64_t
decompose(double v, int *e)
{
	uint64_t bits, m;
	int be;

	memcpy(&bits, &v, sizeof(bits));
	m = bits & ((1ULL << 52) - 1);
	be = (int)(bits >> 52 & 0x7ff);
	*e = be ? be - 1075 : -1074;
	return be ? m | 1ULL << 52 : m;
}

/*
 * The exact way. floor(log10 |v|) is est or est + 1, where est comes
 * from the binary exponent; the right one is the one whose scaled value
 * has n digits before rounding. Returns -1 when 128 bits do not suffice.
 */
static int
round_exact(double v, int n, char *d, int *exp10)
{
	uint64_t m;
	int e, b, est, x, half;
	u128 q = 0;

	if (!isfinite(v))
		return -1;
	m = decompose(v, &e);
	if (!m) {
		memset(d, '0', (size_t)n);
		d[n] = '\0';
		*exp10 = 0;
		return 0;
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
	/* q has n digits: 10^(n - 1) <= q < 10^17 < 2^64. */
	d[put_digits(d, (uint64_t)q, n)] = '\0';
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


int
dtoa_fixed(char out[DTOA_FIXED_SIZE], double v, int decimals)
{
#ifdef __SIZEOF_INT128__
	uint64_t m;
	int e, half = -1;
	u128 q = 0;
	char *p = out;
	size_t len;

	if (decimals < 0 || decimals > DTOA_MAX_DIGITS || !isfinite(v))
		return -1;
	m = decompose(v, &e);
	if (m && scale(m, e, decimals, &q, &half))
		return -1;
	if (q >> 63)
		return -1;	/* 19 digits and more: snprintf's */
	if (half > 0 || (half == 0 && (q & 1)))
		q++;
	if (signbit(v))
		*p++ = '-';
	len = put_digits(p, (uint64_t)q, decimals + 1);
	if (decimals) {
		/* The last decimals digits go after a point. */
		memmove(p + len - (size_t)decimals + 1,
			p + len - (size_t)decimals, (size_t)decimals);
		p[len - (size_t)decimals] = '.';
		len++;
	}
	p[len] = '\0';
	return (int)(p + len - out);
#else
	(void)out, (void)v, (void)decimals;
	return -1;
#endif
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
