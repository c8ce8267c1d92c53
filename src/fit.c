/*
 * Least-squares trends for the model stage: log2(value) against time.
 * Centred sums (two passes) keep the slope accurate when times are
 * calendar years near 2000 and values span 40 orders of magnitude.
 */
#include <math.h>
#include <string.h>

#include "fit.h"
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
	f->se_b = f->se_a = NAN;
	if (m > 2) {
		double s2 = ss_res / (double)(m - 2);

		f->se_b = sqrt(s2 / stt);
		f->se_a = sqrt(s2 * (1 / (double)m + mt * mt / stt));
	}
	return 0;
}

double
fit_value_at(const struct fit *f, double t)
{
	return exp2(f->a + f->b * t);
}
