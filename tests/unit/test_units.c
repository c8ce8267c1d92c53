/*
 * Unit tests for src/units.h: unit strings -> dimensions and scales,
 * and the algebra of dimensions (products, quotients, powers, roots,
 * sums and calendar years).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "units.h"

/* The unit s, which must parse; from a ring of 8, for use in calls. */
static const struct unit *
P(const char *s)
{
	static struct unit ring[8];
	static int next;
	struct unit *u = &ring[next++ % 8];
	struct buf err = BUF_INIT;

	if (unit_parse(s, u, &err))
		fail_msg("'%s': %s", s, err.data);
	assert_int_equal(err.len, 0);
	buf_release(&err);
	return u;
}

/* s parses as the dimension written out in want, at scale. */
static void
is(const char *s, const char *want, double scale)
{
	struct unit u = *P(s);
	struct buf b = BUF_INIT;

	u.scale = 1;
	unit_format(&b, &u);
	assert_string_equal(b.data, want);
	assert_near(P(s)->scale, scale, 1e-15);
	buf_release(&b);
}

static void
bad(const char *s, const char *msg)
{
	struct unit u;
	struct buf err = BUF_INIT;

	assert_int_equal(unit_parse(s, &u, &err), -1);
	assert_string_equal(err.data, msg);
	buf_release(&err);
}

static void
test_parse(void **state)
{
	(void)state;
	is("", "1", 1);
	is("1", "1", 1);
	is("kg", "kg", 1);
	is("J", "kg m^2/s^2", 1);
	is("J s", "kg m^2/s", 1);
	is("J/K", "kg m^2/(s^2 K)", 1);
	is("W/(m^2 K^4)", "kg/(s^3 K^4)", 1);
	is("m^3/(kg s^2)", "m^3/(kg s^2)", 1);
	is("bit/(m^2 s)", "bit/(m^2 s)", 1);
	is("ops/s", "ops/s", 1);
	is("FLOP/s", "FLOP/s", 1);
	is("1/yr", "1/s", 1 / 31557600.0);
	is("yr", "s", 31557600);
	is("month", "s", 31557600 / 12.0);
	is("B", "bit", 8);
	is("bit/B", "1", 0.125);
	is("GB", "bit", 8e9);
	is("GiB", "bit", 8.0 * 1024 * 1024 * 1024);
	is("L", "m^3", 1e-3);
	is("cm", "m", 1e-2);
	is("min", "s", 60);
	is("bit/in^2", "bit/m^2", 1 / (0.0254 * 0.0254));
	is("eV", "kg m^2/s^2", 1.602176634e-19);
	is("m s^-2", "m/s^2", 1);
	is("year", "year", 31557600);
	assert_true(P("year")->calendar);
	assert_false(P("yr")->calendar);
}

static void
test_parse_errors(void **state)
{
	(void)state;
	bad("furlong", "unknown unit 'furlong'");
	bad("furlong/s", "unknown unit 'furlong' in unit 'furlong/s'");
	bad("kg^x", "expected a whole exponent from -100 to 100 after '^' "
	    "in unit 'kg^x'");
	/* m^259 was taken for m^3 (a signed char wrapped around). */
	bad("m^259", "expected a whole exponent from -100 to 100 after '^' "
	    "in unit 'm^259'");
	bad("W/(m^2", "unclosed '(' in unit 'W/(m^2'");
	bad("J/", "expected a unit at the end in unit 'J/'");
	bad("year^2", "a calendar year has no power in unit 'year^2'");
	bad("kg year", "a calendar year in a product in unit 'kg year'");
	bad("m, s", "unexpected ',' in unit 'm, s'");
}

static void
test_algebra(void **state)
{
	struct unit a, r;

	(void)state;
	/* m c^2 is an energy; E / (hbar) a rate. */
	a = *P("m/s");
	unit_pow(&r, &a, 2);
	unit_mul(&r, P("kg"), &r);
	assert_true(unit_same_dim(&r, P("J")));
	unit_div(&r, P("J"), P("J s"));
	assert_true(unit_same_dim(&r, P("1/s")));
	assert_false(unit_same_dim(&r, P("ops/s")));
	/* Counts are pure numbers to physics, not to templates. */
	assert_true(unit_same_si(&r, P("ops/s")));
	assert_true(unit_is_count(P("bit")));
	assert_false(unit_is_count(P("m")));
	assert_true(unit_dimensionless(P("bit/B")));
	/* Powers of powers, roots of squares, roots of what is no square. */
	a = *P("m^3");
	assert_int_equal(unit_pow(&r, &a, 1.0 / 3), 0);
	assert_true(unit_same_dim(&r, P("m")));
	assert_int_equal(unit_pow(&r, P("J^4"), 0.25), 0);
	assert_true(unit_same_dim(&r, P("J")));
	assert_int_equal(unit_pow(&r, P("m^2"), 0.5), 0);
	assert_true(unit_same_dim(&r, P("m")));
	assert_int_equal(unit_pow(&r, &a, 0.5), -1);
	assert_int_equal(unit_pow(&r, P("L"), 2), 0);
	assert_near(r.scale, 1e-6, 1e-15);
	assert_int_equal(unit_pow(&r, P("1"), 0.37), 0);
	/* Sums need one dimension. */
	assert_int_equal(unit_add(&r, P("kg"), P("J"), 0), -1);
	assert_int_equal(unit_add(&r, P("m^3"), P("L"), 0), 0);
	assert_true(r.scale == 1);
	assert_int_equal(unit_add(&r, P("bit"), P("ops"), 0), -1);
}

/*
 * Exponents stay from -UNIT_EXP_MAX to UNIT_EXP_MAX at every step, and
 * scales finite and nonzero: m^259 once wrapped around to m^3 in a
 * signed char, and (Es/s)^18 overflowed to an infinite scale that made
 * every value in it print as 0.
 */
static void
test_range(void **state)
{
	struct unit a, r;

	(void)state;
	bad("(m^9)^9 (m^9)^9 (m^9)^9 m^9 m^7",
	    "exponent out of range (-100 to 100) in unit "
	    "'(m^9)^9 (m^9)^9 (m^9)^9 m^9 m^7'");
	bad("1/(m^9)^9/(m^9)^9", "exponent out of range (-100 to 100) in "
	    "unit '1/(m^9)^9/(m^9)^9'");
	bad("((m^9)^9)^2", "exponent out of range (-100 to 100) in unit "
	    "'((m^9)^9)^2'");
	/* Out and back in again is still out: each step is checked. */
	bad("(m^9)^9 m^9 m^9 m^9 / (m^9)^9", "exponent out of range "
	    "(-100 to 100) in unit '(m^9)^9 m^9 m^9 m^9 / (m^9)^9'");
	bad("(Es/s)^9 (Es/s)^9", "scale overflows in unit "
	    "'(Es/s)^9 (Es/s)^9'");
	bad("(fs/Es)^9 (fs/Es)^9", "scale underflows to 0 in unit "
	    "'(fs/Es)^9 (fs/Es)^9'");
	bad("1/(1e300 1e300)", "scale overflows in unit '1/(1e300 1e300)'");
	is("(m^9)^9 m^9 m^9 m^1", "m^100", 1);
	is("1/((m^9)^9 m^9 m^9 m^1)", "1/m^100", 1);
	is("(Es/s)^9 (Es/s)^8", "1", 1e306);

	/* The algebra refuses too, and leaves r as it was. */
	a = *P("(m^9)^9 m^9 m^9 m^1");
	unit_one(&r);
	assert_int_equal(unit_mul(&r, &a, P("m")), -1);
	assert_true(unit_dimensionless(&r) && r.scale == 1);
	assert_int_equal(unit_div(&r, &a, P("1/m")), -1);
	assert_int_equal(unit_div(&r, P("1/m"), &a), -1);
	assert_int_equal(unit_mul(&r, &a, P("1/m")), 0);
	assert_int_equal(r.exp[U_M], 99);
	assert_int_equal(unit_pow(&r, P("(m^3)^9 (m^3)^8"), 2), -1);
	assert_int_equal(unit_pow(&r, P("(m^5)^5 (m^5)^5"), 2), 0);
	assert_int_equal(unit_pow(&r, P("(m^5)^5 (m^5)^5"), -2), 0);
	assert_int_equal(r.exp[U_M], -100);
	a = *P("(Es/s)^9");
	assert_int_equal(unit_mul(&r, &a, &a), -1);
	assert_int_equal(unit_div(&r, &a, P("(s/Es)^9")), -1);
	assert_int_equal(unit_pow(&r, &a, 2), -1);
	assert_int_equal(unit_pow(&r, &a, -2), -1);
	assert_int_equal(unit_pow(&r, P("m"), 1e300), -1);
	assert_int_equal(unit_pow(&r, P("2"), 1e300), -1);
	assert_int_equal(unit_pow(&r, P("1"), 1e300), 0);
}

static void
test_calendar(void **state)
{
	struct unit r, year = *P("year"), yr = *P("yr");

	(void)state;
	/* year - year = yr, year + yr = year, yr + year = year. */
	assert_int_equal(unit_add(&r, &year, &year, 1), 0);
	assert_false(r.calendar);
	assert_true(unit_same_dim(&r, &yr));
	assert_int_equal(unit_add(&r, &year, &yr, 0), 0);
	assert_true(r.calendar);
	assert_int_equal(unit_add(&r, &year, &yr, 1), 0);
	assert_true(r.calendar);
	assert_int_equal(unit_add(&r, &yr, &year, 0), 0);
	assert_true(r.calendar);
	assert_int_equal(unit_add(&r, P("month"), &year, 0), 0);
	assert_true(r.calendar);
	/* year + year, yr - year, year + kg, year^2 make no sense. */
	assert_int_equal(unit_add(&r, &year, &year, 0), -1);
	assert_int_equal(unit_add(&r, &yr, &year, 1), -1);
	assert_int_equal(unit_add(&r, &year, P("kg"), 0), -1);
	assert_int_equal(unit_pow(&r, &year, 2), -1);
	assert_false(unit_same_dim(&year, &yr));
}

static void
test_format(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	unit_format(&b, P("B"));
	assert_string_equal(b.data, "8 bit");
	buf_reset(&b);
	unit_format(&b, P("year"));
	assert_string_equal(b.data, "year");
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_algebra),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_calendar),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
