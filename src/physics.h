#ifndef PHYSICS_H
#define PHYSICS_H

/*
 * The few formulas of the limits (Lloyd, Nature 406, 1047, 2000) that the
 * C part of the model still computes, as pure functions of SI inputs:
 * the checks of devices.csv against the limits of a machine's own mass,
 * the figures' curves and the gaps of the series. The limits themselves
 * are defined once, in the model document (data/model.md). No I/O, no
 * allocation, no global state.
 *
 * Every function takes the constants it uses from a struct physconst, so
 * the same formula can be evaluated with CODATA 2018 (phys_codata2018)
 * and with the rounded constants a paper printed its figures with
 * (phys_lloyd2000): a claims audit then tells a rounding difference from
 * a wrong formula.
 */

struct physconst {
	const char *name;	/* "CODATA 2018" */
	double c;		/* speed of light in vacuum [m s^-1] */
	double h;		/* Planck constant [J s] */
	double hbar;		/* reduced Planck constant h / (2 pi) [J s] */
	double k;		/* Boltzmann constant [J K^-1] */
	double G;		/* Newtonian constant of gravitation [m^3 kg^-1 s^-2] */
	double eV;		/* electronvolt [J] (elementary charge x 1 V) */
};

/* CODATA 2018 recommended values (c, h, k, e exact; G measured). */
extern const struct physconst phys_codata2018;
/*
 * Five-digit constants close to those behind the printed figures of
 * Lloyd (2000): c = 2.9979e8 m/s gives the printed E = 8.9874e16 J, and
 * hbar = 1.0545e-34 J s (truncated: 1.0546e-34 would give 5.4253e50)
 * then gives 5.42585e50 ops/s, one unit in the fifth digit from the
 * printed 5.4258e50. No five-digit set reproduces both to the digit.
 */
extern const struct physconst phys_lloyd2000;

#define PHYS_PI 3.14159265358979323846
#define PHYS_LN2 0.69314718055994530942

/* 1. Energy and speed. */
/* E = m c^2; m [kg] -> [J] */
double phys_rest_energy(const struct physconst *pc, double m);
/* Margolus-Levitin: ops = 2 E / (pi hbar); E [J] -> [ops s^-1] */
double phys_ml_ops(const struct physconst *pc, double E);

/* 2. Entropy-limited memory: radiation of r massless modes in volume V. */
/*
 * E = (pi^2 r / 30) V (k T)^4 / (hbar c)^3 solved for T;
 * E [J], V [m^3], r [1] -> T [K]
 */
double phys_rad_temperature(const struct physconst *pc, double E, double V,
			    double r);
/* S = (4/3) E / T; E [J], T [K] -> [J K^-1] */
double phys_rad_entropy(double E, double T);
/* I = S / (k ln 2); S [J K^-1] -> [bit] */
double phys_entropy_bits(const struct physconst *pc, double S);

/* 3. Per bit. */



/* 6. Scaling a quantity that grows linearly with volume: x V / V0. */
double phys_volume_scale(double x, double V, double V0);

/* 7. The black-hole computer of mass m [kg]. */

/* 8. Landauer, Bremermann, Bekenstein. */

/* 9. Moore's-law arithmetic. Times in years, any consistent unit. */
/* Years from a to b at one doubling per t_d years: t_d log2(b / a) */
double phys_years_to(double a, double b, double t_d);

#endif
