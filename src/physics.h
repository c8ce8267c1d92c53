#ifndef PHYSICS_H
#define PHYSICS_H

/*
 * Physical limits to computation (Lloyd, Nature 406, 1047, 2000), as pure
 * functions of SI inputs. No I/O, no allocation, no global state.
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

/* Stefan-Boltzmann constant sigma = pi^2 k^4 / (60 hbar^3 c^2) [W m^-2 K^-4] */
double phys_stefan_boltzmann(const struct physconst *pc);

/* 1. Energy and speed. */
/* E = m c^2; m [kg] -> [J] */
double phys_rest_energy(const struct physconst *pc, double m);
/* Margolus-Levitin: ops = 2 E / (pi hbar); E [J] -> [ops s^-1] */
double phys_ml_ops(const struct physconst *pc, double E);
/* Minimum time per operation dt = pi hbar / (2 E); E [J] -> [s] */
double phys_ml_time(const struct physconst *pc, double E);

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
/* ops per bit per second = ops / I; [ops s^-1], [bit] -> [s^-1] */
double phys_ops_per_bit(double ops, double bits);
/* Energy per bit = E / I; [J], [bit] -> [J bit^-1] */
double phys_energy_per_bit(double E, double bits);

/* 4. Black-body error rejection. */
/*
 * Entropy flux of black-body radiation at T, in bits:
 * (4/3) sigma T^3 / (k ln 2); T [K] -> [bit m^-2 s^-1].
 * Equals (c / 4)(I / V) for the radiation gas that holds I bits in V.
 */
double phys_bb_bit_flux(const struct physconst *pc, double T);
/* Sphere of volume V: radius (3 V / (4 pi))^(1/3) [m], area 4 pi R^2 [m^2]. */
double phys_sphere_radius(double V);
double phys_sphere_area(double V);
/* Cube of volume V: edge V^(1/3) [m], area 6 V^(2/3) [m^2]. */
double phys_cube_edge(double V);
double phys_cube_area(double V);

/* 5. Serial vs parallel: time for light to cross distance d [m] -> [s]. */
double phys_light_time(const struct physconst *pc, double d);

/* 6. Scaling a quantity that grows linearly with volume: x V / V0. */
double phys_volume_scale(double x, double V, double V0);

/* 7. The black-hole computer of mass m [kg]. */
/* R_s = 2 G m / c^2 -> [m] */
double phys_schwarzschild_radius(const struct physconst *pc, double m);
/* Bekenstein-Hawking memory I = 4 pi G m^2 / (ln 2 hbar c) -> [bit] */
double phys_bh_bits(const struct physconst *pc, double m);
/* Hawking temperature T = hbar c^3 / (8 pi G m k) -> [K] */
double phys_hawking_temperature(const struct physconst *pc, double m);
/*
 * Hawking lifetime, photon-only convention (emission of massless quanta
 * of one kind, Stefan-Boltzmann law at the Hawking temperature):
 * t = 5120 pi G^2 m^3 / (hbar c^4) -> [s]
 */
double phys_hawking_lifetime(const struct physconst *pc, double m);
/* The bare scale of every convention: G^2 m^3 / (hbar c^4) -> [s] */
double phys_hawking_time_scale(const struct physconst *pc, double m);

/* 8. Landauer, Bremermann, Bekenstein. */
/* Landauer: k T ln 2 per erased bit; T [K] -> [J bit^-1] */
double phys_landauer_energy(const struct physconst *pc, double T);
/* Erasures per second a power P [W] allows at T [K] -> [bit s^-1] */
double phys_landauer_rate(const struct physconst *pc, double P, double T);
/* Bremermann: m c^2 / h; m [kg] -> [bit s^-1] */
double phys_bremermann(const struct physconst *pc, double m);
/* Bekenstein bound I <= 2 pi R E / (hbar c ln 2); R [m], E [J] -> [bit] */
double phys_bekenstein_bits(const struct physconst *pc, double R, double E);

/* 9. Moore's-law arithmetic. Times in years, any consistent unit. */
/* Doubling time of growth by factor over period: period / log2(factor) */
double phys_doubling_time(double factor, double period);
/* Doublings from a to b: log2(b / a) */
double phys_doublings(double a, double b);
/* Orders of magnitude from a to b: log10(b / a) */
double phys_orders(double a, double b);
/* Years from a to b at one doubling per t_d years: t_d log2(b / a) */
double phys_years_to(double a, double b, double t_d);
/* Calendar year when a value a in year y0 reaches b: y0 + years_to */
double phys_year_reached(double y0, double a, double b, double t_d);

#endif
