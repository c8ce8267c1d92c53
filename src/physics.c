/*
 * The physics stage: pure functions from SI inputs to SI outputs. The
 * model (model.c) calls these to fill the quantity registry; nothing here
 * reads or writes anything.
 */
#include <math.h>

#include "physics.h"
#include "banned.h"

const struct physconst phys_codata2018 = {
	.name = "CODATA 2018",
	.c = 299792458.0,
	.h = 6.62607015e-34,
	.hbar = 6.62607015e-34 / (2 * PHYS_PI),
	.k = 1.380649e-23,
	.G = 6.67430e-11,
	.eV = 1.602176634e-19,
};

/*
 * Only c and hbar can be read back from the paper's printed figures
 * (8.9874e16 J and 5.4258e50 ops/s); the other constants are CODATA 2018.
 */
const struct physconst phys_lloyd2000 = {
	.name = "five-digit c and hbar of Lloyd (2000)",
	.c = 2.9979e8,
	.h = 6.62607015e-34,
	.hbar = 1.0545e-34,
	.k = 1.380649e-23,
	.G = 6.67430e-11,
	.eV = 1.602176634e-19,
};

double
phys_rest_energy(const struct physconst *pc, double m)
{
	return m * pc->c * pc->c;
}

double
phys_ml_ops(const struct physconst *pc, double E)
{
	return 2 * E / (PHYS_PI * pc->hbar);
}

double
phys_rad_temperature(const struct physconst *pc, double E, double V, double r)
{
	double hc = pc->hbar * pc->c;
	double kT4 = 30 * E * hc * hc * hc / (PHYS_PI * PHYS_PI * r * V);

	return pow(kT4, 0.25) / pc->k;
}

double
phys_rad_entropy(double E, double T)
{
	return 4.0 / 3.0 * E / T;
}

double
phys_entropy_bits(const struct physconst *pc, double S)
{
	return S / (pc->k * PHYS_LN2);
}

double
phys_volume_scale(double x, double V, double V0)
{
	return x * (V / V0);
}

double
phys_years_to(double a, double b, double t_d)
{
	return t_d * log2(b / a);
}
