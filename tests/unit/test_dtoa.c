/*
 * dtoa against glibc's printf, which it replaces: the same bytes for
 * "%.*g" and "%.*f" and the same digits and exponent for "%.*e",
 * on hand-picked hard cases (exact halves, powers of ten and their
 * neighbours, the ends of the 128-bit range, denormals, DBL_MAX) and on
 * a million pseudo-random doubles from a fixed seed, spread both over
 * every bit pattern and over the decimal range the fast path covers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>

#include "testutil.h"
#include "dtoa.h"

/* xorshift64*: a fixed seed, so a failure reproduces. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned long checked;

/* dtoa_g and dtoa_round agree with snprintf for v at n digits. */
static void
check(double v, int n)
{
	char want[64], got[DTOA_G_SIZE], d[DTOA_MAX_DIGITS + 1], e[64];
	const char *p;
	size_t len;
	int x, k;

	snprintf(want, sizeof(want), "%.*g", n, v);
	len = dtoa_g(got, v, n);
	if (strcmp(got, want) || len != strlen(want))
		fail_msg("%%.%dg of %a: got '%s' (%zu), want '%s'", n, v, got,
			 len, want);
	if (!isfinite(v))
		return;
	snprintf(e, sizeof(e), "%.*e", n - 1, v);
	x = dtoa_round(v, n, d);
	p = e + (*e == '-');
	for (k = 0; *p != 'e'; p++)
		if (*p != '.' && d[k++] != *p)
			fail_msg("%%.%de of %a: digits '%s', want '%s'", n - 1,
				 v, d, e);
	if (k != n || d[n] || (v != 0 && x != atoi(p + 1)) ||
	    (v == 0 && x != 0))
		fail_msg("%%.%de of %a: '%s' exponent %d, want '%s'", n - 1,
			 v, d, x, e);
	checked++;
}

static void
check_all_digits(double v)
{
	int n;

	for (n = 1; n <= DTOA_MAX_DIGITS; n++) {
		check(v, n);
		check(-v, n);
	}
}

static void
test_hand_picked(void **state)
{
	static const double cases[] = {
		0.0, 1, 2, 3, 5, 9, 10, 0.1, 0.2, 0.3, 0.5, 0.25, 0.125,
		2.5, 3.5, 9.5, 99.5, 999.5, 0.15, 0.35, 1.5e-5, 2.5e-5,
		299792458, 6.62607015e-34, 1.0545718176461565e-34,
		1.380649e-23, 6.6743e-11, 5.4256e50, 2.198e18, 1993.5,
		2026.4166666666667, 123456789012345678.0,
		9007199254740992.0, 9007199254740993.0, 4503599627370495.5,
		0.1 + 0.2, 1.0 / 3, 2.0 / 3, 1e-6, 9.99999e-7, 1e-7,
		1.7e38, 3.4e38, 1e38, 1e39, 99999999999999999999.0,
		DBL_MAX, DBL_MIN, DBL_TRUE_MIN, DBL_EPSILON, 5e-324,
		2.2250738585072009e-308, 1e308, 1e-308, 1e22, 1e23,
		8.988465674311579e307, 0.000123456, 123456.789, 1e15, 1e16,
		1e17, 999999999999999.9, 9.9996e49, 9.9995e49, 1e21,
		HUGE_VAL, NAN,
	};
	size_t i;
	int p;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_all_digits(cases[i]);
	/* Powers of ten and two, each with its neighbours. */
	for (p = -330; p <= 310; p++) {
		double t = pow(10, p), u = ldexp(1, p * 3);

		check_all_digits(t);
		check_all_digits(nextafter(t, 0));
		check_all_digits(nextafter(t, HUGE_VAL));
		check_all_digits(u);
		check_all_digits(nextafter(u, 0));
		check_all_digits(nextafter(u, HUGE_VAL));
	}
	/* Exact halves at every digit count: k + 0.5 and (k + 0.5) / 2^j. */
	for (p = 0; p < 2000; p++) {
		double h = (double)(rng() % 100000000) + 0.5;

		check_all_digits(h);
		check_all_digits(ldexp(h, -(int)(rng() % 40)));
	}
}

/* Every bit pattern: most land outside the 128-bit range. */
static void
test_random_bits(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		uint64_t b = rng();
		double v;

		memcpy(&v, &b, sizeof(v));
		check(v, 1 + (int)(rng() % DTOA_MAX_DIGITS));
		check(v, DTOA_MAX_DIGITS);
	}
}

/* The fast path's range, 1e-8 to 1e40, where reports live. */
static void
test_random_decimal(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		double mant = (double)(rng() >> 11) * 0x1p-53;
		double v = (1 + 9 * mant) * pow(10, (int)(rng() % 49) - 8);

		check(v, 1 + (int)(rng() % DTOA_MAX_DIGITS));
		check(v, DTOA_MAX_DIGITS);
		/* Few digits, as data is typed: 2.198e18, 1993.5. */
		v = (double)(rng() % 100000) * pow(10, (int)(rng() % 40) - 12);
		check(v, DTOA_MAX_DIGITS);
		check(v, 3);
	}
}

/* dtoa_fixed() against "%.*f", or -1 where it leaves it to snprintf. */
static void
check_fixed(double v, int decimals)
{
	char want[400], got[DTOA_FIXED_SIZE];
	int len;

	snprintf(want, sizeof(want), "%.*f", decimals, v);
	len = dtoa_fixed(got, v, decimals);
	if (len < 0) {
		/* Only what does not fit may be refused. */
		if (isfinite(v) && fabs(v) * pow(10, decimals) < 9e18)
			fail_msg("%%.%df of %a refused", decimals, v);
		return;
	}
	if (strcmp(got, want) || (size_t)len != strlen(want))
		fail_msg("%%.%df of %a: got '%s', want '%s'", decimals, v, got,
			 want);
	checked++;
}

static void
test_fixed(void **state)
{
	static const double cases[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1.005, 2.675,
		-0.04, -0.004, 999.5, 9.995, 242.09, 1993.5, 2026.4166666666667,
		1e-20, 5e-324, 123456789.125, 9.2e18, 1e19, 1e300, HUGE_VAL,
		NAN,
	};
	size_t i;
	int d, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (d = 0; d <= DTOA_MAX_DIGITS; d++) {
			check_fixed(cases[i], d);
			check_fixed(-cases[i], d);
		}
	for (k = 0; k < 100000; k++) {
		double mant = (double)(rng() >> 11) * 0x1p-53;
		double v = (mant - 0.5) * pow(10, (int)(rng() % 24) - 8);

		check_fixed(v, (int)(rng() % (DTOA_MAX_DIGITS + 1)));
		/* Exact halves at the last decimal. */
		d = (int)(rng() % 6);
		check_fixed(((double)(rng() % 2000000) + 0.5) / pow(10, d), d);
	}
}

static void
test_count(void **state)
{
	(void)state;
	/* The loops above ran: guards against a check() that returns early. */
	assert_true(checked > 500000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_picked),
		cmocka_unit_test(test_random_bits),
		cmocka_unit_test(test_random_decimal),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
