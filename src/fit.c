/*
 * Least-squares trends for the model stage: log2(value) against time.
 * Centred sums (two passes) keep the slope accurate when times are
 * calendar years near 2000 and values span 40 orders of magnitude.
 */
#include <math.h>
#include <string.h>

#include "fit.h"

#define PI 3.14159265358979323846
#include "banned.h"

int
fit_log2(const double *t, const double *v, size_t n, double lo, double hi,
	 struct fit *f)
{
	double st = 0, sy = 0, stt = 0, sty = 0, syy = 0, mt, my, ss_res;
	size_t i, m = 0;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++) {
		if (t[i] < lo || t[i] > hi)
			continue;
		if (!m || t[i] < f->t0)
			f->t0 = t[i];
		if (!m || t[i] > f->t1)
			f->t1 = t[i];
		st += t[i];
		sy += log2(v[i]);
		m++;
	}
	if (m < 2 || f->t0 == f->t1) {
		memset(f, 0, sizeof(*f));
		return -1;
	}
	mt = st / (double)m;
	my = sy / (double)m;
	for (i = 0; i < n; i++) {
		double dt, dy;

		if (t[i] < lo || t[i] > hi)
			continue;
		dt = t[i] - mt;
		dy = log2(v[i]) - my;
		stt += dt * dt;
		sty += dt * dy;
		syy += dy * dy;
	}
	f->n = m;
	f->b = sty / stt;
	f->a = my - f->b * mt;
	ss_res = syy - f->b * sty;
	if (ss_res < 0)
		ss_res = 0;
	f->r2 = syy > 0 ? 1 - ss_res / syy : 1;
	f->se_b = f->se_a = f->t95 = NAN;
	if (m > 2) {
		double s2 = ss_res / (double)(m - 2);

		f->se_b = sqrt(s2 / stt);
		f->se_a = sqrt(s2 * (1 / (double)m + mt * mt / stt));
		f->t95 = student_t(0.95, (unsigned)(m - 2));
	}
	return 0;
}

/*
 * P(|T| < t) for Student's t with df degrees of freedom, exact for an
 * integer df (Abramowitz and Stegun 26.7.3 and 26.7.4): with
 * th = atan(t / sqrt(df)), a finite series in cos^2 th.
 */
static double
student_within(double t, unsigned df)
{
	double th = atan(t / sqrt((double)df)), c2 = cos(th) * cos(th);
	double term = 1, sum = 1;
	unsigned k;

	if (df % 2 == 0) {	/* sin th (1 + c2/2 + 1.3 c2^2/(2.4) + ...) */
		for (k = 2; k < df; k += 2) {
			term *= c2 * (double)(k - 1) / (double)k;
			sum += term;
		}
		return sin(th) * sum;
	}
	if (df == 1)
		return 2 * th / PI;
	/* 2/pi (th + sin th cos th (1 + 2/3 c2 + 2.4/(3.5) c2^2 + ...)) */
	for (k = 3; k < df; k += 2) {
		term *= c2 * (double)(k - 1) / (double)k;
		sum += term;
	}
	return 2 / PI * (th + sin(th) * cos(th) * sum);
}

/*
 * For many degrees of freedom: the normal quantile x with P(|X| < x) = p
 * (bisection on erf), then Student's t as a series in 1/df (Abramowitz
 * and Stegun 26.7.5, four terms). At df = 1001 it agrees with the exact
 * series to 4e-14 of t for p from 0.5 to 0.99 (the unit tests check
 * 1e-12); beyond, the exact series loses more to rounding than the
 * terms left out weigh. The exact series takes df/2 terms at each of
 * about fifty steps: a trend over a million rows spent 0.1 s on it.
 */
#define STUDENT_SERIES_MAX 1000

static double
student_t_many(double p, unsigned df)
{
	double lo = 0, hi = 1, x, x2, n = (double)df, g1, g2, g3, g4;
	int i;

	while (erf(hi / sqrt(2)) < p && hi < 64)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (erf(mid / sqrt(2)) < p)
			lo = mid;
		else
			hi = mid;
	}
	x = (lo + hi) / 2;
	x2 = x * x;
	g1 = x * (x2 + 1) / 4;
	g2 = x * ((5 * x2 + 16) * x2 + 3) / 96;
	g3 = x * (((3 * x2 + 19) * x2 + 17) * x2 - 15) / 384;
	g4 = x * ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) /
	     92160;
	return x + (g1 + (g2 + (g3 + g4 / n) / n) / n) / n;
}

double
student_t(double p, unsigned df)
{
	double lo = 0, hi = 1;
	int i;

	if (!df || !(p > 0 && p < 1))
		return NAN;
	if (df > STUDENT_SERIES_MAX)
		return student_t_many(p, df);
	while (student_within(hi, df) < p && hi < 1e12)
		hi *= 2;
	/* Bisection: the series is monotonic in t; 200 halvings of [0, hi]
	 * reach the last bit of a double. */
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_within(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double
fit_value_at(const struct fit *f, double t)
{
	return exp2(f->a + f->b * t);
}
