/*
 * The number formats against exact expected strings: rounding at the
 * carries (9.9996e49 -> 10^50, 999.9 B -> 1.00 kB), no minus sign on
 * anything that rounds to zero, the extremes of double (DBL_MAX, the
 * smallest denormal, three-digit exponents), and -1 with the buffer
 * untouched for everything that cannot be written.
 *
 * The sources stay ASCII, so the non-ASCII characters are spelled as
 * UTF-8 escapes in the macros below: MINUS is U+2212, X is U+00D7, NB is
 * U+00A0 (the space that keeps a number together) and
 * S0..S9, SM are the superscript digits and minus.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <limits.h>

#include "testutil.h"
#include "format.h"

#define MINUS "\xe2\x88\x92"
#define X "\xc3\x97"
#define NB "\xc2\xa0"
#define S0 "\xe2\x81\xb0"
#define S1 "\xc2\xb9"
#define S2 "\xc2\xb2"
#define S3 "\xc2\xb3"
#define S4 "\xe2\x81\xb4"
#define S5 "\xe2\x81\xb5"
#define S6 "\xe2\x81\xb6"
#define S7 "\xe2\x81\xb7"
#define S8 "\xe2\x81\xb8"
#define S9 "\xe2\x81\xb9"
#define SM "\xe2\x81\xbb"

/*
 * call writes into the struct buf named out, which is emptied first;
 * it must return 0 and leave exactly want.
 */
#define assert_fmt(call, want)                                               \
	do {                                                                 \
		buf_reset(&out);                                             \
		assert_int_equal((call), 0);                                 \
		assert_sane_buf(&out);                                       \
		assert_string_equal(out.data, (want));                       \
	} while (0)

/* call writes into the emptied out and returns 0; out is checked after. */
#define assert_ok(call)                                                      \
	do {                                                                 \
		buf_reset(&out);                                             \
		assert_int_equal((call), 0);                                 \
		assert_sane_buf(&out);                                       \
	} while (0)

/* call must return -1 and leave out (holding "keep") unchanged. */
#define assert_rejected(call)                                                \
	do {                                                                 \
		buf_reset(&out);                                             \
		BUF_ADDLIT(&out, "keep");                                    \
		assert_int_equal((call), -1);                                \
		assert_sane_buf(&out);                                       \
		assert_int_equal(out.len, 4);                                \
		assert_string_equal(out.data, "keep");                       \
	} while (0)

/* Neither an ASCII '-' nor U+2212 anywhere in s. */
static void
assert_unsigned(const char *s)
{
	if (strchr(s, '-') || strstr(s, MINUS))
		fail_msg("'%s' has a minus sign", s);
}

static void
test_sci(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	/* The header's examples. */
	assert_fmt(format_sci(&out, 5.4256e50, 4), "5.426" NB X NB "10" S5 S0);
	assert_fmt(format_sci(&out, 1.5e-35, 3), "1.50" NB X NB "10" SM S3 S5);
	assert_fmt(format_sci(&out, 2.5, 3), "2.50");
	assert_fmt(format_sci(&out, -1200, 3), MINUS "1.20" NB X NB "10" S3);
	/* The carry into the exponent, and just below it. */
	assert_fmt(format_sci(&out, 9.99951e49, 4), "1.000" NB X NB "10" S5 S0);
	/*
	 * The double nearest 9.9995e49 is 9.99949999...e49, below the
	 * half-way point, so correct rounding gives 9.999, not 1.000.
	 */
	assert_fmt(format_sci(&out, 9.9995e49, 4), "9.999" NB X NB "10" S4 S9);
	/* Exact halves go to even: 999.5 up, 1.25 down. */
	assert_fmt(format_sci(&out, 999.5, 3), "1.00" NB X NB "10" S3);
	assert_fmt(format_sci(&out, 1.25, 2), "1.2");
	assert_fmt(format_sci(&out, 9.9994e49, 4), "9.999" NB X NB "10" S4 S9);
	assert_fmt(format_sci(&out, 9.96, 2), "1.0" NB X NB "10" S1);
	/* 0.95 is 0.9499999... in binary: "9", where v / 0.1 would say 10. */
	assert_fmt(format_sci(&out, 0.95, 1), "9" NB X NB "10" SM S1);
	assert_fmt(format_sci(&out, 5.4e50, 1), "5" NB X NB "10" S5 S0);
	assert_fmt(format_sci(&out, 0.1, 17),
		   "1.0000000000000001" NB X NB "10" SM S1);
	/* Zero: no exponent, no sign. */
	assert_fmt(format_sci(&out, 0, 3), "0.00");
	assert_fmt(format_sci(&out, -0.0, 3), "0.00");
	assert_fmt(format_sci(&out, -0.0, 1), "0");
	/* A tiny negative number is not zero in scientific notation. */
	assert_fmt(format_sci(&out, -1e-20, 3),
		   MINUS "1.00" NB X NB "10" SM S2 S0);
	assert_fmt(format_sci(&out, -7, 2), MINUS "7.0");
	buf_release(&out);
}

static void
test_sci_extremes(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_sci(&out, 1e300, 3), "1.00" NB X NB "10" S3 S0 S0);
	assert_fmt(format_sci(&out, 1e-300, 3),
		   "1.00" NB X NB "10" SM S3 S0 S0);
	assert_fmt(format_sci(&out, -1e-300, 3),
		   MINUS "1.00" NB X NB "10" SM S3 S0 S0);
	/* The smallest denormal. */
	assert_fmt(format_sci(&out, 5e-324, 3),
		   "4.94" NB X NB "10" SM S3 S2 S4);
	assert_fmt(format_sci(&out, DBL_MIN, 3),
		   "2.23" NB X NB "10" SM S3 S0 S8);
	assert_fmt(format_sci(&out, 1.7976931348623157e308, 17),
		   "1.7976931348623157" NB X NB "10" S3 S0 S8);
	assert_fmt(format_sci(&out, DBL_MAX, 3), "1.80" NB X NB "10" S3 S0 S8);
	assert_fmt(format_sci(&out, -DBL_MAX, 1),
		   MINUS "2" NB X NB "10" S3 S0 S8);
	buf_release(&out);
}

static void
test_e(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_e(&out, 5.4256e50, 4), "5.426e50");
	assert_fmt(format_e(&out, 1.5e-35, 2), "1.5e-35");
	assert_fmt(format_e(&out, 1.5e-35, 3), "1.50e-35");
	/* Plain e-notation keeps ASCII, so strtod() can read it back. */
	assert_fmt(format_e(&out, -1.5e-35, 3), "-1.50e-35");
	assert_fmt(format_e(&out, 2.5, 3), "2.50e0");
	assert_fmt(format_e(&out, 9.99951e49, 4), "1.000e50");
	assert_fmt(format_e(&out, 9.9995e49, 4), "9.999e49");
	assert_fmt(format_e(&out, 0, 2), "0.0e0");
	assert_fmt(format_e(&out, -0.0, 2), "0.0e0");
	assert_fmt(format_e(&out, 1e-300, 1), "1e-300");
	assert_fmt(format_e(&out, 5e-324, 2), "4.9e-324");
	assert_fmt(format_e(&out, DBL_MAX, 17), "1.7976931348623157e308");
	assert_true(strtod(out.data, NULL) == DBL_MAX);
	buf_release(&out);
}

static void
test_fixed(void **state)
{
	struct buf out = BUF_INIT;
	int d;

	(void)state;
	assert_fmt(format_fixed(&out, 242.09, 2), "242.09");
	assert_fmt(format_fixed(&out, 242.09, 0), "242");
	assert_fmt(format_fixed(&out, 63.2, 1), "63.2");
	assert_fmt(format_fixed(&out, -3.14159, 2), MINUS "3.14");
	assert_fmt(format_fixed(&out, -0.6, 0), MINUS "1");
	/* Correct rounding of the binary value: 1.005 is 1.00499999... */
	assert_fmt(format_fixed(&out, 1.005, 2), "1.00");
	assert_fmt(format_fixed(&out, 0.1, 17), "0.10000000000000001");
	/* Nothing that rounds to zero has a sign. */
	assert_fmt(format_fixed(&out, -1e-20, 2), "0.00");
	assert_fmt(format_fixed(&out, -0.0, 1), "0.0");
	assert_fmt(format_fixed(&out, -0.0, 0), "0");
	assert_fmt(format_fixed(&out, -0.4, 0), "0");
	assert_fmt(format_fixed(&out, -0.004, 2), "0.00");
	assert_fmt(format_fixed(&out, -0.005001, 2), MINUS "0.01");
	for (d = 0; d <= 17; d++) {
		assert_ok(format_fixed(&out, -5e-324, d));
		assert_unsigned(out.data);
		assert_int_equal(out.data[0], '0');
	}
	assert_fmt(format_fixed(&out, 1e20, 0), "100000000000000000000");
	/* 1e300: 301 integer digits; DBL_MAX: 309. */
	assert_ok(format_fixed(&out, 1e300, 2));
	assert_int_equal(out.len, 301 + 3);
	assert_memory_equal(out.data, "1000000000000000052", 19);
	assert_string_equal(out.data + out.len - 3, ".00");
	assert_ok(format_fixed(&out, -DBL_MAX, 17));
	assert_int_equal(out.len, 3 + 309 + 1 + 17);
	assert_memory_equal(out.data, MINUS "17976931348623157", 20);
	assert_fmt(format_fixed(&out, 5e-324, 17), "0.00000000000000000");
	buf_release(&out);
}

static void
test_sig(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_sig(&out, 242.09, 2), "240");
	assert_fmt(format_sig(&out, 1.8814, 2), "1.9");
	assert_fmt(format_sig(&out, 0.0012345, 2), "0.0012");
	assert_fmt(format_sig(&out, 999.6, 3), "1000");
	assert_fmt(format_sig(&out, 9.96, 2), "10");
	assert_fmt(format_sig(&out, 123.456, 5), "123.46");
	assert_fmt(format_sig(&out, 12, 5), "12.000");
	assert_fmt(format_sig(&out, 1, 1), "1");
	/* No grouping. */
	assert_fmt(format_sig(&out, 1234567, 4), "1235000");
	assert_fmt(format_sig(&out, -242.09, 2), MINUS "240");
	assert_fmt(format_sig_grouped(&out, 5480000, 2), "5,500,000");
	assert_fmt(format_sig_grouped(&out, -22049, 2), MINUS "22,000");
	assert_fmt(format_sig_grouped(&out, 11000, 2), "11,000");
	assert_fmt(format_sig_grouped(&out, 1000, 2), "1000");
	assert_fmt(format_sig_grouped(&out, 12481.5, 6), "12481.5");
	assert_fmt(format_sig_grouped(&out, 2.5e15, 2), "2.5" NB X NB "10" S1 S5);
	assert_fmt(format_sig(&out, -0.0012345, 3), MINUS "0.00123");
	assert_fmt(format_sig(&out, 0, 3), "0.00");
	assert_fmt(format_sig(&out, -0.0, 2), "0.0");
	/* The fallback to scientific, decided on the rounded value. */
	assert_fmt(format_sig(&out, 9.99e14, 3), "999000000000000");
	assert_fmt(format_sig(&out, 1e15, 3), "1.00" NB X NB "10" S1 S5);
	assert_fmt(format_sig(&out, 999999999999999.9, 3),
		   "1.00" NB X NB "10" S1 S5);
	assert_fmt(format_sig(&out, -2e20, 2), MINUS "2.0" NB X NB "10" S2 S0);
	assert_fmt(format_sig(&out, 1e-6, 2), "0.0000010");
	assert_fmt(format_sig(&out, 9.996e-7, 3), "0.00000100");
	assert_fmt(format_sig(&out, 9.99e-7, 3), "9.99" NB X NB "10" SM S7);
	assert_fmt(format_sig(&out, -1e-20, 2),
		   MINUS "1.0" NB X NB "10" SM S2 S0);
	assert_fmt(format_sig(&out, 5e-324, 2), "4.9" NB X NB "10" SM S3 S2 S4);
	assert_fmt(format_sig(&out, DBL_MAX, 2), "1.8" NB X NB "10" S3 S0 S8);
	buf_release(&out);
}

static void
test_int(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_int(&out, 1234567.4), "1,234,567");
	assert_fmt(format_int(&out, 999.5), "1,000");
	assert_fmt(format_int(&out, -1234), MINUS "1,234");
	assert_fmt(format_int(&out, 0), "0");
	assert_fmt(format_int(&out, -0.0), "0");
	assert_fmt(format_int(&out, -0.4), "0");
	assert_fmt(format_int(&out, -0.6), MINUS "1");
	assert_fmt(format_int(&out, 12), "12");
	assert_fmt(format_int(&out, 123), "123");
	assert_fmt(format_int(&out, 1234), "1,234");
	assert_fmt(format_int(&out, 123456), "123,456");
	assert_fmt(format_int(&out, -123456), MINUS "123,456");
	assert_fmt(format_int(&out, 999999.7), "1,000,000");
	/* Exact halves go to even, as snprintf rounds them. */
	assert_fmt(format_int(&out, 2.5), "2");
	assert_fmt(format_int(&out, 3.5), "4");
	/* The largest magnitude accepted, and the next double beyond. */
	assert_fmt(format_int(&out, 1e18), "1,000,000,000,000,000,000");
	assert_fmt(format_int(&out, -1e18),
		   MINUS "1,000,000,000,000,000,000");
	assert_rejected(format_int(&out, nextafter(1e18, INFINITY)));
	assert_rejected(format_int(&out, -1e300));
	buf_release(&out);
}

/* format_count(): whole numbers below 10^15 only; format_count_unit(). */
static void
test_count(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_count(&out, 35), "35");
	assert_fmt(format_count(&out, 0), "0");
	assert_fmt(format_count(&out, -0.0), "0");
	assert_fmt(format_count(&out, -1557), MINUS "1,557");
	assert_fmt(format_count(&out, 1234567), "1,234,567");
	assert_fmt(format_count(&out, 999999999999999),
		   "999,999,999,999,999");
	assert_rejected(format_count(&out, 1e15));
	assert_rejected(format_count(&out, -1e15));
	assert_rejected(format_count(&out, 35.5));
	assert_rejected(format_count(&out, nextafter(35, 36)));
	assert_rejected(format_count(&out, 1e-300));
	assert_rejected(format_count(&out, NAN));
	assert_rejected(format_count(&out, INFINITY));
	assert_int_equal(format_count_unit(""), 1);
	assert_int_equal(format_count_unit("1"), 1);
	assert_int_equal(format_count_unit("yr"), 1);
	assert_int_equal(format_count_unit("year"), 0);
	assert_int_equal(format_count_unit("bit"), 0);
	assert_int_equal(format_count_unit("ops/s"), 0);
	assert_int_equal(format_count_unit("kg"), 0);
	buf_release(&out);
}

static void
test_year(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_year(&out, 2145.3), "2145");
	assert_fmt(format_year(&out, 1993.99), "1994");
	assert_fmt(format_year(&out, 2008), "2008");
	assert_fmt(format_year(&out, 12345), "12345");
	assert_fmt(format_year(&out, 0), "0");
	assert_fmt(format_year(&out, -0.3), "0");
	assert_fmt(format_year(&out, -500), MINUS "500");
	assert_fmt(format_year(&out, -9999), MINUS "9999");
	assert_fmt(format_year(&out, -9999.4), MINUS "9999");
	assert_fmt(format_year(&out, 99999.4), "99999");
	assert_rejected(format_year(&out, 99999.6));
	assert_rejected(format_year(&out, -9999.6));
	assert_rejected(format_year(&out, 1e10));
	assert_rejected(format_year(&out, -1e300));
	buf_release(&out);
}

static void
test_pow10(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_pow10(&out, 5.4e50), "10" S5 S1);
	assert_fmt(format_pow10(&out, 2.13e31), "10" S3 S1);
	assert_fmt(format_pow10(&out, 1e-15), "10" SM S1 S5);
	assert_fmt(format_pow10(&out, 1), "10" S0);
	assert_fmt(format_pow10(&out, 3), "10" S0);
	assert_fmt(format_pow10(&out, 4), "10" S1);
	assert_fmt(format_pow10(&out, 0.2), "10" SM S1);
	assert_fmt(format_pow10(&out, 1e300), "10" S3 S0 S0);
	assert_fmt(format_pow10(&out, 1e-300), "10" SM S3 S0 S0);
	assert_fmt(format_pow10(&out, 5e-324), "10" SM S3 S2 S3);
	assert_fmt(format_pow10(&out, DBL_MAX), "10" S3 S0 S8);
	assert_rejected(format_pow10(&out, 0));
	assert_rejected(format_pow10(&out, -0.0));
	assert_rejected(format_pow10(&out, -5));
	buf_release(&out);
}

static void
test_bytes_si(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_bytes(&out, 2.5e11, 3, 0), "250" NB "GB");
	assert_fmt(format_bytes(&out, 4.4e13, 3, 0), "44.0" NB "TB");
	assert_fmt(format_bytes(&out, 512, 3, 0), "512" NB "B");
	assert_fmt(format_bytes(&out, 1000, 3, 0), "1.00" NB "kB");
	assert_fmt(format_bytes(&out, 123456789, 2, 0), "120" NB "MB");
	assert_fmt(format_bytes(&out, 1.5e6, 1, 0), "2" NB "MB");
	assert_fmt(format_bytes(&out, 1e30, 3, 0), "1.00" NB "QB");
	assert_fmt(format_bytes(&out, 9.99e32, 3, 0), "999" NB "QB");
	/* Rounding carries into the next prefix. */
	assert_fmt(format_bytes(&out, 999.9, 3, 0), "1.00" NB "kB");
	assert_fmt(format_bytes(&out, 999.4e6, 3, 0), "999" NB "MB");
	assert_fmt(format_bytes(&out, 999.6e6, 3, 0), "1.00" NB "GB");
	/* Whole bytes below 1 kB; 999.6 B rounds to 1.00e3 at 3 digits. */
	assert_fmt(format_bytes(&out, 5, 3, 0), "5" NB "B");
	assert_fmt(format_bytes(&out, 512.4, 5, 0), "512" NB "B");
	assert_fmt(format_bytes(&out, 999.6, 4, 0), "1.00" NB "kB");
	assert_fmt(format_bytes(&out, 0.6, 3, 0), "1" NB "B");
	assert_fmt(format_bytes(&out, 0.4, 3, 0), "0" NB "B");
	assert_fmt(format_bytes(&out, 0, 3, 0), "0" NB "B");
	assert_fmt(format_bytes(&out, -0.0, 3, 0), "0" NB "B");
	assert_fmt(format_bytes(&out, 5e-324, 3, 0), "0" NB "B");
	/* Beyond the largest prefix. */
	assert_fmt(format_bytes(&out, 1e40, 3, 0),
		   "1.00" NB X NB "10" S1 S0 NB "QB");
	assert_fmt(format_bytes(&out, 9.9996e32, 4, 0),
		   "1.000" NB X NB "10" S3 NB "QB");
	assert_fmt(format_bytes(&out, DBL_MAX, 3, 0),
		   "1.80" NB X NB "10" S2 S7 S8 NB "QB");
	assert_rejected(format_bytes(&out, -1, 3, 0));
	assert_rejected(format_bytes(&out, -1e-300, 3, 0));
	buf_release(&out);
}

static void
test_bytes_binary(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt(format_bytes(&out, 1073741824, 3, 1), "1.00" NB "GiB");
	assert_fmt(format_bytes(&out, 2.5e11, 4, 1), "232.8" NB "GiB");
	assert_fmt(format_bytes(&out, 512, 3, 1), "512" NB "B");
	assert_fmt(format_bytes(&out, 1024, 3, 1), "1.00" NB "KiB");
	assert_fmt(format_bytes(&out, 1536, 3, 1), "1.50" NB "KiB");
	assert_fmt(format_bytes(&out, 0, 3, 1), "0" NB "B");
	/* 1000 to 1023 of a unit stay in it. */
	assert_fmt(format_bytes(&out, 1023, 4, 1), "1023" NB "B");
	assert_fmt(format_bytes(&out, 1023, 3, 1), "1020" NB "B");
	assert_fmt(format_bytes(&out, 1048575, 3, 1), "1020" NB "KiB");
	/* Rounding to 1024 carries into the next prefix. */
	assert_fmt(format_bytes(&out, 1048575, 4, 1), "1.000" NB "MiB");
	assert_fmt(format_bytes(&out, 1023.7, 5, 1), "1.000" NB "KiB");
	assert_fmt(format_bytes(&out, ldexp(1, 100), 3, 1), "1.00" NB "QiB");
	/* Beyond QiB: scientific. */
	assert_fmt(format_bytes(&out, ldexp(1, 110), 3, 1),
		   "1.02" NB X NB "10" S3 NB "QiB");
	assert_fmt(format_bytes(&out, 1e40, 3, 1),
		   "7.89" NB X NB "10" S9 NB "QiB");
	assert_rejected(format_bytes(&out, -1024, 3, 1));
	buf_release(&out);
}

static void
test_rejected(void **state)
{
	const double bad[] = { NAN, -NAN, INFINITY, -INFINITY };
	struct buf out = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_rejected(format_sci(&out, bad[i], 3));
		assert_rejected(format_e(&out, bad[i], 3));
		assert_rejected(format_fixed(&out, bad[i], 2));
		assert_rejected(format_sig(&out, bad[i], 3));
		assert_rejected(format_int(&out, bad[i]));
		assert_rejected(format_year(&out, bad[i]));
		assert_rejected(format_pow10(&out, bad[i]));
		assert_rejected(format_bytes(&out, bad[i], 3, 0));
		assert_rejected(format_bytes(&out, bad[i], 3, 1));
	}
	assert_rejected(format_sci(&out, 1, 0));
	assert_rejected(format_sci(&out, 1, 18));
	assert_rejected(format_sci(&out, 1, -1));
	assert_rejected(format_e(&out, 1, 0));
	assert_rejected(format_e(&out, 1, 18));
	assert_rejected(format_sig(&out, 1, 0));
	assert_rejected(format_sig(&out, 1, 18));
	assert_rejected(format_bytes(&out, 1, 0, 0));
	assert_rejected(format_bytes(&out, 1, 18, 1));
	assert_rejected(format_fixed(&out, 1, -1));
	assert_rejected(format_fixed(&out, 1, 18));
	/* The limits themselves are accepted. */
	assert_fmt(format_sci(&out, 1, 1), "1");
	assert_fmt(format_sci(&out, 1, 17), "1.0000000000000000");
	assert_fmt(format_fixed(&out, 1, 0), "1");
	buf_release(&out);
}

static void
test_negative_zero(void **state)
{
	struct buf out = BUF_INIT;
	int d;

	(void)state;
	for (d = 1; d <= 17; d++) {
		assert_ok(format_sci(&out, -0.0, d));
		assert_unsigned(out.data);
		assert_ok(format_e(&out, -0.0, d));
		assert_unsigned(out.data);
		assert_ok(format_sig(&out, -0.0, d));
		assert_unsigned(out.data);
		assert_fmt(format_bytes(&out, -0.0, d, 0), "0" NB "B");
		assert_fmt(format_bytes(&out, -0.0, d, 1), "0" NB "B");
	}
	for (d = 0; d <= 17; d++) {
		assert_ok(format_fixed(&out, -0.0, d));
		assert_unsigned(out.data);
		assert_ok(format_fixed(&out, -1e-20, d));
		assert_unsigned(out.data);
	}
	assert_fmt(format_int(&out, -0.0), "0");
	assert_fmt(format_year(&out, -0.0), "0");
	buf_release(&out);
}

static void
test_appends(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	BUF_ADDLIT(&out, "E = ");
	assert_int_equal(format_sci(&out, 8.9876e16, 5), 0);
	BUF_ADDLIT(&out, " ");
	format_unit(&out, "J");
	BUF_ADDLIT(&out, ", ");
	assert_int_equal(format_int(&out, 1234), 0);
	BUF_ADDLIT(&out, ", ");
	assert_int_equal(format_bytes(&out, 2.5e11, 3, 0), 0);
	assert_sane_buf(&out);
	assert_string_equal(out.data, "E = 8.9876" NB X NB "10" S1 S6
				      " J, 1,234, 250" NB "GB");
	buf_release(&out);
}

static void
test_unit(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt((format_unit(&out, "m^3"), 0), "m" S3);
	/* Spaces are no-break spaces: a unit does not break either. */
	assert_fmt((format_unit(&out, "bit/(m^2 s)"), 0), "bit/(m" S2 NB "s)");
	assert_fmt((format_unit(&out, "m^3/(kg s^2)"), 0),
		   "m" S3 "/(kg" NB "s" S2 ")");
	assert_fmt((format_unit(&out, "W/(m^2 K^4)"), 0),
		   "W/(m" S2 NB "K" S4 ")");
	assert_fmt((format_unit(&out, "J s"), 0), "J" NB "s");
	assert_fmt((format_unit(&out, "1/s"), 0), "1/s");
	assert_fmt((format_unit(&out, "yr"), 0), "yr");
	assert_fmt((format_unit(&out, "J/K"), 0), "J/K");
	assert_fmt((format_unit(&out, ""), 0), "");
	assert_fmt((format_unit(&out, "kg"), 0), "kg");
	assert_fmt((format_unit(&out, "m^-2"), 0), "m" SM S2);
	assert_fmt((format_unit(&out, "s^10 m^-105"), 0),
		   "s" S1 S0 NB "m" SM S1 S0 S5);
	/* A "^" without digits is text. */
	assert_fmt((format_unit(&out, "^"), 0), "^");
	assert_fmt((format_unit(&out, "m^"), 0), "m^");
	assert_fmt((format_unit(&out, "m^-"), 0), "m^-");
	assert_fmt((format_unit(&out, "m^-x"), 0), "m^-x");
	assert_fmt((format_unit(&out, "m^+2"), 0), "m^+2");
	assert_fmt((format_unit(&out, "m^^2"), 0), "m^" S2);
	assert_fmt((format_unit(&out, "a-2"), 0), "a-2");
	buf_release(&out);
}

static void
test_superscript(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_fmt((format_superscript(&out, 0), 0), S0);
	assert_fmt((format_superscript(&out, 1234567890), 0),
		   S1 S2 S3 S4 S5 S6 S7 S8 S9 S0);
	assert_fmt((format_superscript(&out, -35), 0), SM S3 S5);
	assert_fmt((format_superscript(&out, INT_MIN), 0),
		   SM S2 S1 S4 S7 S4 S8 S3 S6 S4 S8);
	assert_fmt((format_superscript(&out, INT_MAX), 0),
		   S2 S1 S4 S7 S4 S8 S3 S6 S4 S7);
	/* The code points: U+2070, U+00B9, U+00B2, U+00B3, U+2074..9, U+207B */
	assert_string_equal(S0 S1 S2 S3 S4 S5 S6 S7 S8 S9 SM,
			    "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076"
			    "\u2077\u2078\u2079\u207b");
	assert_string_equal(MINUS X, "\u2212\u00d7");
	buf_release(&out);
}

/* format_brief(): years, whole counts, four digits, scientific. */
static void
test_brief(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
#define BRIEF(v, unit) (format_brief(&out, (v), (unit)), 0)
	assert_fmt(BRIEF(2145.3, "year"), "2145");
	/* Counts: whole pure numbers and whole years, below 10^15. */
	assert_fmt(BRIEF(1234567, ""), "1,234,567");
	assert_fmt(BRIEF(35, "1"), "35");
	assert_fmt(BRIEF(1e9, ""), "1,000,000,000");
	assert_fmt(BRIEF(999999999999999, ""), "999,999,999,999,999");
	assert_fmt(BRIEF(1e15, ""), "1.000" NB X NB "10" S1 S5);
	assert_fmt(BRIEF(35.5, ""), "35.50");
	assert_fmt(BRIEF(67, "yr"), "67");
	assert_fmt(BRIEF(64, "bit"), "64.00");
	assert_fmt(BRIEF(80.93124, "yr"), "80.93");
	assert_fmt(BRIEF(0.97814, ""), "0.9781");
	assert_fmt(BRIEF(-1557.2, ""), MINUS "1557");
	assert_fmt(BRIEF(-1557, ""), MINUS "1,557");
	assert_fmt(BRIEF(2.198e18, "FLOP/s"), "2.198" NB X NB "10" S1 S8);
	assert_fmt(BRIEF(4.2e-4, "J"), "4.200" NB X NB "10" SM S4);
#undef BRIEF
	buf_release(&out);
}

/* format_exact(): "%.17g", which reads back to the same double. */
static void
test_exact(void **state)
{
	static const double v[] = { 0.1, 6.62607015e-34, 5.4256e50, 2026,
				    -1.5, 0.0, 1e300 };
	static const double odd[] = { -0.0, INFINITY, -INFINITY, NAN };
	struct buf out = BUF_INIT;
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		buf_reset(&out);
		BUF_ADDLIT(&out, "x=");
		format_exact(&out, v[i]);
		snprintf(want, sizeof(want), "x=%.17g", v[i]);
		assert_string_equal(out.data, want);
		assert_true(strtod(out.data + 2, NULL) == v[i]);
	}
	buf_reset(&out);
	format_exact(&out, 0.1);
	assert_string_equal(out.data, "0.10000000000000001");
	/* What printf writes for the rest: "-0", "inf", "-inf", "nan". */
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		buf_reset(&out);
		format_exact(&out, odd[i]);
		snprintf(want, sizeof(want), "%.17g", odd[i]);
		assert_sane_buf(&out);
		assert_string_equal(out.data, want);
	}
	buf_release(&out);
}

/*
 * What snprintf() gives, rearranged as each format documents: the digits
 * and exponent of "%.*e" for format_sci() and format_e(), "%.*f" for
 * format_fixed(), "%.17g" for format_exact(). Zero, and for "%.*f"
 * anything that rounds to zero, loses its sign.
 */
static const char *const superscript[10] = {
	S0, S1, S2, S3, S4, S5, S6, S7, S8, S9,
};

/* "%.*e" of v taken apart: the mantissa ("-1.50") into m, the exponent. */
static int
split_e(char m[64], double v, int digits)
{
	char *e;

	snprintf(m, 64, "%.*e", digits - 1, v);
	e = strchr(m, 'e');
	assert_non_null(e);
	*e = '\0';
	if (v == 0 && m[0] == '-')
		memmove(m, m + 1, strlen(m));
	return atoi(e + 1);
}

static void
want_sci(struct buf *want, double v, int digits)
{
	char m[64], tmp[16], *p;
	int exp = split_e(m, v, digits);

	buf_reset(want);
	if (m[0] == '-')
		BUF_ADDLIT(want, MINUS);
	buf_addstr(want, m + (m[0] == '-'));
	if (!exp)
		return;
	BUF_ADDLIT(want, NB X NB "10");
	snprintf(tmp, sizeof(tmp), "%d", exp);
	for (p = tmp; *p; p++)
		buf_addstr(want, *p == '-' ? SM : superscript[*p - '0']);
}

static void
want_e(struct buf *want, double v, int digits)
{
	char m[64];
	int exp = split_e(m, v, digits);

	buf_reset(want);
	buf_addf(want, "%se%d", m, exp);
}

static void
want_fixed(struct buf *want, double v, int decimals)
{
	char f[400];
	const char *p = f;

	snprintf(f, sizeof(f), "%.*f", decimals, v);
	buf_reset(want);
	if (*p == '-') {
		p++;
		if (strspn(p, "0.") != strlen(p))
			BUF_ADDLIT(want, MINUS);
	}
	buf_addstr(want, p);
}

/* out holds what fn(v, n) wrote and returned (rc); it must be want. */
static void
assert_same(const struct buf *out, int rc, const struct buf *want,
	    const char *fn, double v, int n)
{
	assert_sane_buf(out);
	if (rc || strcmp(out->data, want->data))
		fail_msg("%s(%a, %d) returned %d, wrote '%s', want '%s'", fn, v,
			 n, rc, out->data, want->data);
}

/* v and -v at every digit count against snprintf(). */
static void
assert_like_snprintf(double v)
{
	struct buf out = BUF_INIT, want = BUF_INIT;
	int s, n;

	for (s = 0; s < 2; s++, v = -v) {
		for (n = 1; n <= 17; n++) {
			buf_reset(&out);
			want_sci(&want, v, n);
			assert_same(&out, format_sci(&out, v, n), &want,
				    "format_sci", v, n);
			buf_reset(&out);
			want_e(&want, v, n);
			assert_same(&out, format_e(&out, v, n), &want,
				    "format_e", v, n);
		}
		for (n = 0; n <= 17; n++) {
			buf_reset(&out);
			want_fixed(&want, v, n);
			assert_same(&out, format_fixed(&out, v, n), &want,
				    "format_fixed", v, n);
		}
		buf_reset(&out);
		format_exact(&out, v);
		buf_reset(&want);
		buf_addf(&want, "%.17g", v);
		assert_same(&out, 0, &want, "format_exact", v, 17);
	}
	buf_release(&out);
	buf_release(&want);
}

/*
 * Hard cases for correct rounding: exact halves (to even), decimals
 * just off a half in binary, integers beyond 2^53, the ends of 64- and
 * 128-bit integers, powers of ten and their neighbours, denormals,
 * DBL_MIN, DBL_MAX and (through the sign loop) negative zero.
 */
static void
test_hard_cases(void **state)
{
	static const double cases[] = {
		0.0, 0.5, 0.125, 0.375, 2.5, 3.5, 9.5, 99.5, 999.5, 1993.5,
		0.15, 0.35, 1.005, 2.675, 9.995, 1.5e-5, 2.5e-5, 0.1 + 0.2,
		1.0 / 3, 2.0 / 3, 123456789.125, 4503599627370495.5,
		9007199254740992.0, 9007199254740993.0, 123456789012345678.0,
		999999999999999.9, 9.2e18, 1e19, 99999999999999999999.0, 1e21,
		1e22, 1e23, 1.7e38, 3.4e38, 1e38, 1e39, 9.99999e-7, 1e-6, 1e-7,
		9.9996e49, 9.9995e49, 6.62607015e-34, 2026.4166666666667,
		DBL_EPSILON, DBL_MIN, 2.2250738585072009e-308, DBL_TRUE_MIN,
		1e-308, 1e308, 8.988465674311579e307, DBL_MAX,
	};
	size_t i;
	int p;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_like_snprintf(cases[i]);
	for (p = -323; p <= 308; p++) {
		double t = pow(10, p);

		assert_like_snprintf(t);
		assert_like_snprintf(nextafter(t, 0));
		assert_like_snprintf(nextafter(t, HUGE_VAL));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sci),
		cmocka_unit_test(test_sci_extremes),
		cmocka_unit_test(test_e),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_sig),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_year),
		cmocka_unit_test(test_pow10),
		cmocka_unit_test(test_bytes_si),
		cmocka_unit_test(test_bytes_binary),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_negative_zero),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_unit),
		cmocka_unit_test(test_superscript),
		cmocka_unit_test(test_brief),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_hard_cases),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
