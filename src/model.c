/*
 * The model stage: data tables -> quantity registry. Reads assumptions
 * (through table.c), calls the pure functions of physics.c, and records
 * each result with its unit, formula, inputs and source. Formats no text
 * for the reader: that is the template stage's job.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "model.h"
#include "physics.h"
#include "registry.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

#define LLOYD2000 "S. Lloyd, Ultimate physical limits to computation, " \
	"Nature 406, 1047-1054 (2000)"
#define HENSON2008 "V. Henson, The Kernel Hacker's Bookshelf: Ultimate " \
	"Physical Limits of Computation, LWN.net (2008-06-18)"
#define CODATA "CODATA 2018 (NIST)"
#define OURS "derived here"

/* What the model needs from data/assumptions.csv. */
struct need {
	const char *name;
	const char *unit;
	double min;		/* exclusive lower bound */
	const char *why;	/* for the range error */
};

static const struct need needs[] = {
	{ "laptop.mass", "kg", 0, "a mass must be positive" },
	{ "laptop.volume", "m^3", 0, "a volume must be positive" },
	{ "laptop.modes", "", 0, "the number of massless modes must be "
	  "positive" },
	{ "sbops_per_flop", "", 0, "a conversion factor must be positive" },
	{ "atomic.bits", "bit", 0, "a bit count must be positive" },
	{ "atomic.energy_per_op", "eV", 0, "an energy must be positive" },
	{ "dust.volume", "m^3", 0, "a volume must be positive" },
	{ "landauer.room_temperature", "K", 0, "a temperature must be "
	  "positive" },
	{ "landauer.power", "W", 0, "a power budget must be positive" },
	{ "moore.lloyd_factor", "", 1, "a growth factor must exceed 1" },
	{ "moore.lloyd_period", "yr", 0, "a period must be positive" },
	{ "moore.article_doubling", "yr", 0, "a doubling time must be "
	  "positive" },
	{ "moore.fast_doubling", "yr", 0, "a doubling time must be "
	  "positive" },
	{ "moore.original_doubling", "yr", 0, "a doubling time must be "
	  "positive" },
	{ "universe.bits", "bit", 1, "a bit count must exceed 1" },
	{ "article.year", "year", 0, "a calendar year must be positive" },
	{ "article.laptop_flops", "FLOP/s", 0, "a speed must be positive" },
	{ "article.laptop_storage", "B", 0, "a capacity must be positive" },
};

struct model {
	struct registry *reg;
	const struct physconst *pc;
	int failed;	/* a quantity could not be added: add no more */
};

/*
 * Adds a computed number. After the first failure (a non-finite result
 * from extreme inputs) nothing more is added, so one bad input gives one
 * error rather than a cascade.
 */
static double
num(struct model *m, const char *name, double v, const char *unit,
    const char *formula, const char *inputs, const char *source)
{
	if (!m->failed && !registry_add_num(m->reg, name, v, unit, formula,
					    inputs, source, NULL))
		m->failed = 1;
	return v;
}

static double
get(struct model *m, const char *name)
{
	const struct quantity *q = registry_get(m->reg, name);

	if (!q && m->failed)
		return NAN;
	return registry_num(m->reg, name);
}

static void
add_constants(struct model *m)
{
	const struct physconst *pc = m->pc;

	num(m, "const.c", pc->c, "m/s", "speed of light in vacuum (exact)",
	    NULL, CODATA);
	num(m, "const.h", pc->h, "J s", "Planck constant (exact)", NULL,
	    CODATA);
	num(m, "const.hbar", pc->hbar, "J s", "hbar = h / (2 pi)", "const.h",
	    CODATA);
	num(m, "const.k", pc->k, "J/K", "Boltzmann constant (exact)", NULL,
	    CODATA);
	num(m, "const.G", pc->G, "m^3/(kg s^2)",
	    "Newtonian constant of gravitation", NULL, CODATA);
	num(m, "const.eV", pc->eV, "J", "electronvolt = e x 1 V (exact)",
	    NULL, CODATA);
	num(m, "const.sigma", phys_stefan_boltzmann(pc), "W/(m^2 K^4)",
	    "sigma = pi^2 k^4 / (60 hbar^3 c^2)", "const.k const.hbar const.c",
	    CODATA);
}

/*
 * Reads data/assumptions.csv into the registry: one quantity per row,
 * checked against needs[] for presence, unit and range. Returns -1 after
 * printing every problem.
 */
static int
add_assumptions(struct model *m, const char *datadir)
{
	struct buf path = BUF_INIT, origin = BUF_INIT;
	struct table *t;
	int cname, cvalue, cunit, csource, ret = 0;
	size_t before = diag_errors(), r, i;
	unsigned char *found = xcalloc(sizeof(needs) / sizeof(needs[0]), 1);

	buf_addf(&path, "%s/assumptions.csv", datadir);
	t = table_load(path.data);
	if (!t) {
		ret = -1;
		goto out;
	}
	cname = table_require(t, "name");
	cvalue = table_require(t, "value");
	cunit = table_require(t, "unit");
	csource = table_require(t, "source");
	if (cname < 0 || cvalue < 0 || cunit < 0 || csource < 0) {
		ret = -1;
		goto out;
	}
	for (r = 0; r < table_rows(t); r++) {
		const char *name, *source, *unit = table_cell(t, r, cunit);
		const struct need *nd = NULL;
		double v;

		if (table_text(t, r, cname, &name) |
		    table_num(t, r, cvalue, 0, &v) |
		    table_text(t, r, csource, &source))
			continue;
		for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
			if (!strcmp(needs[i].name, name))
				nd = &needs[i], found[i] = 1;
		if (registry_get(m->reg, name)) {
			table_error(t, r, cname, "duplicate name '%s'", name);
			continue;
		}
		if (nd && strcmp(nd->unit, unit)) {
			table_error(t, r, cunit, "'%s' must be given in '%s', "
				    "got '%s'", name, nd->unit, unit);
			continue;
		}
		if (nd && !(v > nd->min)) {
			table_error(t, r, cvalue, "%s: '%s' is %s", nd->why,
				    name, table_cell(t, r, cvalue));
			continue;
		}
		buf_reset(&origin);
		buf_addf(&origin, "%s:%zu", path.data, table_line(t, r));
		registry_add_num(m->reg, name, v, unit, "assumption", NULL,
				 source, origin.data);
	}
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (!found[i] && diag_errors() == before)
			error("%s: missing assumption '%s' (unit '%s')",
			      path.data, needs[i].name, needs[i].unit);
	if (diag_errors() != before)
		ret = -1;
out:
	free(found);
	table_free(t);
	buf_release(&path);
	buf_release(&origin);
	return ret;
}

/* The ultimate laptop: energy, speed, memory and their ratios. */
static void
add_laptop(struct model *m)
{
	const struct physconst *pc = m->pc;
	double mass = get(m, "laptop.mass"), V = get(m, "laptop.volume");
	double E, T, S, I, ops, flux, area;

	E = num(m, "laptop.energy", phys_rest_energy(pc, mass), "J",
		"E = m c^2", "laptop.mass const.c", LLOYD2000);
	ops = num(m, "laptop.ops_max", phys_ml_ops(pc, E), "ops/s",
		  "ops = 2 E / (pi hbar) (Margolus-Levitin)",
		  "laptop.energy const.hbar", LLOYD2000);
	num(m, "laptop.op_time_min", phys_ml_time(pc, E), "s",
	    "dt = pi hbar / (2 E)", "laptop.energy const.hbar", LLOYD2000);
	T = num(m, "laptop.temperature",
		phys_rad_temperature(pc, E, V, get(m, "laptop.modes")), "K",
		"T from E = (pi^2 r / 30) V (k T)^4 / (hbar c)^3",
		"laptop.energy laptop.volume laptop.modes const.k const.hbar "
		"const.c", LLOYD2000);
	S = num(m, "laptop.entropy", phys_rad_entropy(E, T), "J/K",
		"S = (4/3) E / T", "laptop.energy laptop.temperature",
		LLOYD2000);
	I = num(m, "laptop.bits_max", phys_entropy_bits(pc, S), "bit",
		"I = S / (k ln 2)", "laptop.entropy const.k", LLOYD2000);
	num(m, "laptop.ops_per_bit", phys_ops_per_bit(ops, I), "1/s",
	    "ops / I", "laptop.ops_max laptop.bits_max", LLOYD2000);
	num(m, "laptop.flip_time", I / ops, "s",
	    "I / ops: time for one bit to change state",
	    "laptop.ops_max laptop.bits_max", LLOYD2000);
	num(m, "laptop.energy_per_bit", phys_energy_per_bit(E, I), "J/bit",
	    "E / I", "laptop.energy laptop.bits_max", LLOYD2000);
	num(m, "laptop.kT", pc->k * T / pc->eV, "eV", "k T / e",
	    "const.k laptop.temperature const.eV", OURS);

	/* Error rejection through the surface, for two shapes of 1 litre. */
	flux = num(m, "laptop.bb_bit_flux", phys_bb_bit_flux(pc, T),
		   "bit/(m^2 s)", "(4/3) sigma T^3 / (k ln 2)",
		   "const.sigma laptop.temperature const.k", LLOYD2000);
	num(m, "laptop.bb_bit_flux_density", pc->c / 4 * I / V, "bit/(m^2 s)",
	    "(c / 4)(I / V): equals the black-body flux",
	    "const.c laptop.bits_max laptop.volume", OURS);
	num(m, "laptop.sphere_radius", phys_sphere_radius(V), "m",
	    "R = (3 V / (4 pi))^(1/3)", "laptop.volume", OURS);
	area = num(m, "laptop.sphere_area", phys_sphere_area(V), "m^2",
		   "A = 4 pi R^2", "laptop.sphere_radius", OURS);
	num(m, "laptop.sphere_reject_rate", flux * area, "bit/s",
	    "flux x A (sphere)", "laptop.bb_bit_flux laptop.sphere_area",
	    LLOYD2000);
	num(m, "laptop.sphere_reject_fraction", flux * area / ops, "",
	    "rejected bits per operation (sphere)",
	    "laptop.sphere_reject_rate laptop.ops_max", OURS);
	num(m, "laptop.cube_edge", phys_cube_edge(V), "m", "a = V^(1/3)",
	    "laptop.volume", OURS);
	area = num(m, "laptop.cube_area", phys_cube_area(V), "m^2",
		   "A = 6 a^2", "laptop.cube_edge", OURS);
	num(m, "laptop.cube_reject_rate", flux * area, "bit/s",
	    "flux x A (cube)", "laptop.bb_bit_flux laptop.cube_area",
	    LLOYD2000);
	num(m, "laptop.cube_reject_fraction", flux * area / ops, "",
	    "rejected bits per operation (cube)",
	    "laptop.cube_reject_rate laptop.ops_max", OURS);

	/* Serial or parallel: can a signal cross before a bit flips? */
	num(m, "laptop.sphere_crossing_time",
	    phys_light_time(pc, 2 * phys_sphere_radius(V)), "s",
	    "2 R / c: light across the sphere",
	    "laptop.sphere_radius const.c", LLOYD2000);
	num(m, "laptop.cube_crossing_time",
	    phys_light_time(pc, phys_cube_edge(V)), "s",
	    "a / c: light across the cube", "laptop.cube_edge const.c",
	    LLOYD2000);
	num(m, "laptop.crossing_per_flip",
	    get(m, "laptop.sphere_crossing_time") / get(m, "laptop.flip_time"),
	    "", "bit flips during one light crossing (sphere): >> 1 means "
	    "highly parallel", "laptop.sphere_crossing_time laptop.flip_time",
	    OURS);

	num(m, "laptop.bremermann", phys_bremermann(pc, mass), "bit/s",
	    "m c^2 / h (Bremermann)", "laptop.mass const.c const.h",
	    "H. J. Bremermann, Proc. 5th Berkeley Symp. (1967)");
	num(m, "laptop.bekenstein_bits",
	    phys_bekenstein_bits(pc, phys_sphere_radius(V), E), "bit",
	    "2 pi R E / (hbar c ln 2) (Bekenstein bound, sphere)",
	    "laptop.sphere_radius laptop.energy const.hbar const.c",
	    "J. D. Bekenstein, Phys. Rev. D 23, 287 (1981)");
}

/* Ordinary matter and smart dust, by volume scaling. */
static void
add_atomic(struct model *m)
{
	const struct physconst *pc = m->pc;
	double e1 = get(m, "atomic.energy_per_op") * pc->eV;
	double V = get(m, "laptop.volume"), Vd = get(m, "dust.volume");
	double rate, ops, scale, md;

	rate = num(m, "atomic.ops_per_bit", phys_ml_ops(pc, e1), "1/s",
		   "2 E1 / (pi hbar) with E1 the energy per operation",
		   "atomic.energy_per_op const.eV const.hbar", LLOYD2000);
	ops = num(m, "atomic.ops", rate * get(m, "atomic.bits"), "ops/s",
		  "bits x ops per bit", "atomic.bits atomic.ops_per_bit",
		  LLOYD2000);
	scale = num(m, "dust.scale", Vd / V, "", "V_dust / V_laptop",
		    "dust.volume laptop.volume", HENSON2008);
	num(m, "dust.atomic_bits", phys_volume_scale(get(m, "atomic.bits"),
						     Vd, V), "bit",
	    "atomic bits x V_dust / V_laptop", "atomic.bits dust.scale",
	    HENSON2008);
	num(m, "dust.atomic_ops", phys_volume_scale(ops, Vd, V), "ops/s",
	    "atomic ops x V_dust / V_laptop", "atomic.ops dust.scale",
	    HENSON2008);
	/* The ultimate limits at the laptop's density, for contrast. */
	md = num(m, "dust.mass", get(m, "laptop.mass") * scale, "kg",
		 "m_laptop x V_dust / V_laptop", "laptop.mass dust.scale",
		 OURS);
	num(m, "dust.ultimate_ops", phys_ml_ops(pc, phys_rest_energy(pc, md)),
	    "ops/s", "2 m c^2 / (pi hbar) for the dust's mass",
	    "dust.mass const.c const.hbar", OURS);
	num(m, "dust.ultimate_bits",
	    phys_entropy_bits(pc, phys_rad_entropy(phys_rest_energy(pc, md),
		phys_rad_temperature(pc, phys_rest_energy(pc, md), Vd,
				     get(m, "laptop.modes")))), "bit",
	    "radiation entropy of the dust's mass in its volume",
	    "dust.mass dust.volume laptop.modes const.k const.hbar const.c",
	    OURS);
}

/* The laptop compressed to a black hole. */
static void
add_blackhole(struct model *m)
{
	const struct physconst *pc = m->pc;
	double mass = get(m, "laptop.mass"), ops = get(m, "laptop.ops_max");
	double R, I;

	R = num(m, "blackhole.radius", phys_schwarzschild_radius(pc, mass),
		"m", "R_s = 2 G m / c^2", "laptop.mass const.G const.c",
		LLOYD2000);
	I = num(m, "blackhole.bits", phys_bh_bits(pc, mass), "bit",
		"I = 4 pi G m^2 / (ln 2 hbar c) (Bekenstein-Hawking)",
		"laptop.mass const.G const.hbar const.c", LLOYD2000);
	num(m, "blackhole.ops", ops, "ops/s",
	    "2 E / (pi hbar): the same energy, so the same speed",
	    "laptop.ops_max", LLOYD2000);
	num(m, "blackhole.flip_time", I / ops, "s", "I / ops",
	    "blackhole.bits laptop.ops_max", LLOYD2000);
	num(m, "blackhole.ops_per_bit", ops / I, "1/s", "ops / I",
	    "laptop.ops_max blackhole.bits", LLOYD2000);
	num(m, "blackhole.crossing_time", phys_light_time(pc, 2 * R), "s",
	    "2 R_s / c: light across the horizon", "blackhole.radius const.c",
	    LLOYD2000);
	num(m, "blackhole.hawking_temperature",
	    phys_hawking_temperature(pc, mass), "K",
	    "T_H = hbar c^3 / (8 pi G m k)",
	    "laptop.mass const.hbar const.c const.G const.k",
	    "S. W. Hawking, Commun. Math. Phys. 43, 199 (1975)");
	num(m, "blackhole.lifetime", phys_hawking_lifetime(pc, mass), "s",
	    "5120 pi G^2 m^3 / (hbar c^4) (photon-only convention)",
	    "laptop.mass const.G const.hbar const.c",
	    "Hawking (1975); photon-only evaporation");
	num(m, "blackhole.time_scale", phys_hawking_time_scale(pc, mass), "s",
	    "G^2 m^3 / (hbar c^4): the scale all conventions share",
	    "laptop.mass const.G const.hbar const.c", OURS);
}

static void
add_landauer(struct model *m)
{
	const struct physconst *pc = m->pc;
	double Troom = get(m, "landauer.room_temperature");

	num(m, "landauer.energy_room", phys_landauer_energy(pc, Troom),
	    "J/bit", "k T ln 2 at room temperature",
	    "const.k landauer.room_temperature",
	    "R. Landauer, IBM J. Res. Dev. 5, 183 (1961)");
	num(m, "landauer.energy_laptop",
	    phys_landauer_energy(pc, get(m, "laptop.temperature")), "J/bit",
	    "k T ln 2 at the ultimate laptop's temperature",
	    "const.k laptop.temperature", "Landauer (1961)");
	num(m, "landauer.rate_room",
	    phys_landauer_rate(pc, get(m, "landauer.power"), Troom), "bit/s",
	    "P / (k T ln 2): erasures per second the power budget allows",
	    "landauer.power landauer.energy_room", "Landauer (1961)");
}

/*
 * Adds the gap from have (in quantity have_name) to the limit in
 * limit_name under prefix: orders of magnitude, doublings, and years at
 * each Moore's-law rate, plus the calendar year reached from year_name.
 */
static void
add_gap(struct model *m, const char *prefix, const char *have_name,
	const char *limit_name, const char *year_name)
{
	static const struct {
		const char *suffix, *rate, *what;
	} rates[] = {
		{ "lloyd", "moore.lloyd_doubling", "1e8 per 50 years" },
		{ "24mo", "moore.article_doubling", "24 months" },
		{ "18mo", "moore.fast_doubling", "18 months" },
	};
	struct buf name = BUF_INIT, in = BUF_INIT, f = BUF_INIT;
	double have = get(m, have_name), lim = get(m, limit_name);
	double y0 = get(m, year_name);
	size_t i;

#define SET(b, ...) (buf_reset(&(b)), buf_addf(&(b), __VA_ARGS__), (b).data)
	num(m, SET(name, "%s.orders", prefix), phys_orders(have, lim), "",
	    SET(f, "log10(%s / %s)", limit_name, have_name),
	    SET(in, "%s %s", have_name, limit_name), OURS);
	num(m, SET(name, "%s.doublings", prefix), phys_doublings(have, lim),
	    "", SET(f, "log2(%s / %s)", limit_name, have_name),
	    SET(in, "%s %s", have_name, limit_name), OURS);
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		double td = get(m, rates[i].rate);

		num(m, SET(name, "%s.years_%s", prefix, rates[i].suffix),
		    phys_years_to(have, lim, td), "yr",
		    SET(f, "doublings x %s (%s)", rates[i].rate, rates[i].what),
		    SET(in, "%s.doublings %s", prefix, rates[i].rate), OURS);
		num(m, SET(name, "%s.year_%s", prefix, rates[i].suffix),
		    phys_year_reached(y0, have, lim, td), "year",
		    SET(f, "%s + %s.years_%s", year_name, prefix,
			rates[i].suffix),
		    SET(in, "%s %s.years_%s", year_name, prefix,
			rates[i].suffix), OURS);
	}
#undef SET
	buf_release(&name);
	buf_release(&in);
	buf_release(&f);
}

static void
add_moore(struct model *m)
{
	double sb = get(m, "sbops_per_flop"), bits;

	num(m, "moore.lloyd_doubling",
	    phys_doubling_time(get(m, "moore.lloyd_factor"),
			       get(m, "moore.lloyd_period")), "yr",
	    "period / log2(factor)", "moore.lloyd_period moore.lloyd_factor",
	    LLOYD2000);

	num(m, "article.laptop_sbops", get(m, "article.laptop_flops") * sb,
	    "ops/s", "FLOP/s x SBOPS per FLOP",
	    "article.laptop_flops sbops_per_flop", HENSON2008);
	bits = num(m, "article.laptop_bits",
		   get(m, "article.laptop_storage") * 8, "bit", "bytes x 8",
		   "article.laptop_storage", HENSON2008);
	(void)bits;
	add_gap(m, "gap.article_laptop.ops", "article.laptop_sbops",
		"laptop.ops_max", "article.year");
	add_gap(m, "gap.article_laptop.bits", "article.laptop_bits",
		"laptop.bits_max", "article.year");

	num(m, "universe.doublings", log2(get(m, "universe.bits")), "",
	    "log2(bits the universe can process)", "universe.bits",
	    "L. M. Krauss, G. D. Starkman, astro-ph/0404510 (2004)");
	num(m, "universe.years_18mo", get(m, "universe.doublings") *
	    get(m, "moore.fast_doubling"), "yr", "doublings x 18 months",
	    "universe.doublings moore.fast_doubling", OURS);
	num(m, "universe.years_24mo", get(m, "universe.doublings") *
	    get(m, "moore.article_doubling"), "yr", "doublings x 24 months",
	    "universe.doublings moore.article_doubling", OURS);
	num(m, "universe.years_lloyd", get(m, "universe.doublings") *
	    get(m, "moore.lloyd_doubling"), "yr",
	    "doublings x (1e8 per 50 years)",
	    "universe.doublings moore.lloyd_doubling", OURS);
}

struct registry *
model_build(const char *datadir)
{
	struct model m = { .reg = registry_new(), .pc = &phys_codata2018 };
	size_t before = diag_errors();

	add_constants(&m);
	if (add_assumptions(&m, datadir))
		goto fail;
	add_laptop(&m);
	add_atomic(&m);
	add_blackhole(&m);
	add_landauer(&m);
	add_moore(&m);
	if (m.failed || diag_errors() != before)
		goto fail;
	return m.reg;
fail:
	registry_free(m.reg);
	return NULL;
}
