/*
 * Least-squares trends: exact recovery of a known exponential, windows,
 * R^2, and the degenerate cases.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "fit.h"

static void
test_exact_exponential(void **state)
{
	double t[20], v[20];
	struct fit f;
	size_t i;

	(void)state;
	/* Doubling every 1.5 years from 1e9 in 1990. */
	for (i = 0; i < 20; i++) {
		t[i] = 1990 + (double)i;
		v[i] = 1e9 * exp2((t[i] - 1990) / 1.5);
	}
	assert_int_equal(fit_log2(t, v, 20, -INFINITY, INFINITY, &f), 0);
	assert_int_equal(f.n, 20);
	/* The slope is doublings per year: one per 1.5 years. */
	assert_near(f.b, 1 / 1.5, 1e-12);
	assert_near(f.r2, 1, 1e-12);
	assert_near(fit_value_at(&f, 2000), 1e9 * exp2(10 / 1.5), 1e-10);
	/* Where the line reaches a value, as the model reckons it. */
	assert_near(2000 + log2(1e9 * exp2(100 / 1.5) / fit_value_at(&f, 2000)) /
		    f.b, 2090, 1e-12);
}

static void
test_window_and_noise(void **state)
{
	double t[] = { 1990, 1991, 1992, 1993, 2010, 2011 };
	double v[] = { 1, 2.2, 3.9, 8.1, 1e30, 1e-30 };
	struct fit f;

	(void)state;
	/* The outliers after 2000 are outside the window. */
	assert_int_equal(fit_log2(t, v, 6, 1990, 2000, &f), 0);
	assert_int_equal(f.n, 4);
	assert_near(f.t0, 1990, 0);
	assert_near(f.t1, 1993, 0);
	assert_near(f.b, 1, 0.05);
	assert_true(f.r2 > 0.99 && f.r2 < 1);
}

/* Student's t against published two-sided 95% quantiles. */
static void
test_student_t(void **state)
{
	static const struct { unsigned df; double t; } q[] = {
		{ 1, 12.7062047 }, { 2, 4.30265273 }, { 3, 3.18244631 },
		{ 4, 2.77644511 }, { 5, 2.57058184 }, { 10, 2.22813885 },
		{ 30, 2.04227246 }, { 1000, 1.96233908 },
	};
	double t[] = { 2000, 2001, 2002, 2003, 2004 };
	double v[] = { 1, 2.5, 3.5, 9, 15 };
	struct fit f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		assert_near(student_t(0.95, q[i].df), q[i].t, 1e-7);
	/*
	 * Beyond 1000 degrees of freedom, the series in 1/df: against the
	 * exact series (A&S 26.7.3, summed to the last term) at the first
	 * df it serves, and far beyond, where the exact series' own
	 * rounding is about 1e-11.
	 */
	assert_near(student_t(0.95, 1001), 1.9623367052809, 1e-12);
	assert_near(student_t(0.99, 1001), 2.5807497687504, 1e-12);
	assert_near(student_t(0.95, 1000000), 1.9599663568, 1e-9);
	assert_near(student_t(0.5, 1), 1, 1e-12);
	assert_true(isnan(student_t(0.95, 0)));
	assert_true(isnan(student_t(1, 3)));
	/* A fit of five points carries t at three degrees of freedom. */
	assert_int_equal(fit_log2(t, v, 5, -INFINITY, INFINITY, &f), 0);
	assert_near(f.t95, 3.18244631, 1e-7);
	/* Two points: a line fits exactly, and there is no interval. */
	assert_int_equal(fit_log2(t, v, 2, -INFINITY, INFINITY, &f), 0);
	assert_true(isnan(f.t95));
}

static void
test_degenerate(void **state)
{
	double t[] = { 2000, 2000, 2001 };
	double v[] = { 1, 2, 4 };
	struct fit f;

	(void)state;
	assert_int_equal(fit_log2(t, v, 1, -INFINITY, INFINITY, &f), -1);
	assert_int_equal(f.n, 0);
	/* Two points at the same time give no slope. */
	assert_int_equal(fit_log2(t, v, 2, -INFINITY, INFINITY, &f), -1);
	assert_int_equal(fit_log2(t, v, 3, 2002, 2003, &f), -1);
	/* A flat series fits with zero slope: it never doubles. */
	v[2] = 1;
	v[1] = 1;
	assert_int_equal(fit_log2(t, v, 3, -INFINITY, INFINITY, &f), 0);
	assert_near(f.b, 0, 0);
}

/*
 * Standard errors by hand: log2 values 0, 1, 3 at t = 0, 1, 2 fit
 * b = 1.5, a = -1/6, with residuals 1/6, -1/3, 1/6: s^2 = (1/6) / 1,
 * se(b) = sqrt(s^2 / 2), se(a) = sqrt(s^2 (1/3 + 1/2)). Two points have
 * none.
 */
static void
test_standard_errors(void **state)
{
	const double t[] = { 0, 1, 2 }, v[] = { 1, 2, 8 };
	struct fit f;

	(void)state;
	assert_int_equal(fit_log2(t, v, 3, -INFINITY, INFINITY, &f), 0);
	assert_near(f.b, 1.5, 1e-15);
	assert_near(f.a, -1.0 / 6, 1e-14);
	assert_near(f.se_b, sqrt(1.0 / 12), 1e-14);
	assert_near(f.se_a, sqrt(5.0 / 36), 1e-14);
	assert_int_equal(fit_log2(t, v, 2, -INFINITY, INFINITY, &f), 0);
	assert_true(isnan(f.se_b) && isnan(f.se_a));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_standard_errors),
		cmocka_unit_test(test_exact_exponential),
		cmocka_unit_test(test_window_and_noise),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_degenerate),
	};

	return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
