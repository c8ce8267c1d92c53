#ifndef FIT_H
#define FIT_H

#include <stddef.h>

/*
 * Exponential trends: least squares of log2(value) against time, so the
 * slope is in doublings per unit of time. Pure arithmetic, no I/O.
 */
struct fit {
	size_t n;		/* points used */
	double t0, t1;		/* first and last time used */
	double a, b;		/* log2(value) = a + b t */
	double r2;		/* coefficient of determination */
	/*
	 * Standard errors of b and a from the residuals' variance
	 * (n - 2 degrees of freedom): NAN for two points, which a line
	 * always fits exactly.
	 */
	double se_b, se_a;
	/*
	 * Student's t for a two-sided 95% interval at n - 2 degrees of
	 * freedom (12.71 for three points, 1.96 in the limit): the slope's
	 * range is b +- t95 se_b. NAN for two points.
	 */
	double t95;
};

/*
 * Fits the points with lo <= t[i] <= hi (values must be positive).
 * Returns 0, or -1 when fewer than two points or fewer than two distinct
 * times fall in the window (f is then zeroed).
 */
int fit_log2(const double *t, const double *v, size_t n, double lo,
	     double hi, struct fit *f);
/*
 * The two-sided quantile of Student's t with df degrees of freedom
 * (df >= 1): the t with P(|T| < t) = p, for 0 < p < 1. NAN otherwise.
 */
double student_t(double p, unsigned df);
/* The trend's value at time t: 2^(a + b t). */
double fit_value_at(const struct fit *f, double t);

#endif
