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
#include "dataset.h"
#include "diag.h"
#include "fit.h"
#include "model.h"
#include "physics.h"
#include "registry.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

#define LLOYD2000 "S. Lloyd, Ultimate physical limits to computation, " \
	"Nature 406, 1047-1054 (2000)"
#define HENSON2008 "V. Henson, The Kernel Hacker's Bookshelf: Ultimate " \
	"Physical Limits of Computation, LWN.net (2008-06-18)"
#define CODATA "CODATA 2018 (NIST)"
#define OURS "derived here"
/*
 * Rows of devices.csv and assumptions.csv at most: each row makes many
 * quantities (a device some fifty), and every quantity is a row of the
 * quantities page. 200,000 devices took a minute and gigabytes.
 */
#define MAX_ROWS 10000

const char *const model_data_files[] = {
	"assumptions.csv", "devices.csv", "top500.csv", "disk_capacity.csv",
	"areal_density.csv", "transistors.csv", "claims.csv", NULL,
};

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
	{ "article.density_from", "year", 0, "a calendar year must be "
	  "positive" },
	{ "article.density_to", "year", 0, "a calendar year must be "
	  "positive" },
};

struct model {
	struct registry *reg;
	const struct physconst *pc;
	const char *datadir;
	int failed;	/* a quantity could not be added: add no more */
	int as_of;	/* edition: rows after this year are left out */
	struct datasets *ds;	/* figure data, or NULL */
	struct tableset *ts;	/* every table read, each once */
	/* Doubling-time quantities that gaps are converted to years with. */
	const char *rates[8];
	const char *rate_what[8];
	size_t nrates;
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

/*
 * Adds a computed number with its formula: expr, an expression of the
 * template language over exactly the names in inputs (checked by
 * tests/unit/test_formulas.c, which evaluates it against v), and note, a
 * few words or NULL.
 */
static double
fx(struct model *m, const char *name, double v, const char *unit,
   const char *expr, const char *note, const char *inputs,
   const char *source)
{
	struct quantity *q;
	struct buf f = BUF_INIT;

	if (m->failed)
		return v;
	/* As registry_set_expr() writes it, for the message of a failure. */
	buf_addstr(&f, expr);
	if (note)
		buf_addf(&f, " (%s)", note);
	q = registry_add_num(m->reg, name, v, unit, f.data, inputs, source,
			     NULL);
	if (!q)
		m->failed = 1;
	else
		registry_set_expr(q, expr, note);
	buf_release(&f);
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
	fx(m, "const.hbar", pc->hbar, "J s", "const.h / (2 * pi)",
	   "reduced Planck constant", "const.h", CODATA);
	num(m, "const.k", pc->k, "J/K", "Boltzmann constant (exact)", NULL,
	    CODATA);
	num(m, "const.G", pc->G, "m^3/(kg s^2)",
	    "Newtonian constant of gravitation", NULL, CODATA);
	num(m, "const.eV", pc->eV, "J", "electronvolt = e x 1 V (exact)",
	    NULL, CODATA);
	num(m, "bits_per_byte", 8, "bit/B", "8 bits per byte (definition)",
	    NULL, "ISO/IEC 80000-13");
	fx(m, "const.sigma", phys_stefan_boltzmann(pc), "W/(m^2 K^4)",
	   "pi^2 * const.k^4 / (60 * const.hbar^3 * const.c^2)",
	   "Stefan-Boltzmann constant", "const.k const.hbar const.c", CODATA);
}

/*
 * Reads data/assumptions.csv into the registry: one quantity per row,
 * checked against needs[] for presence, unit and range. Returns -1 after
 * printing every problem.
 */
static int
add_assumptions(struct model *m, const char *datadir)
{
	struct buf origin = BUF_INIT, uerr = BUF_INIT;
	struct unit dim;
	struct table *t;
	int cname, cvalue, cunit, csource, ret = 0;
	size_t before = diag_errors(), r, i;
	unsigned char *found = xcalloc(sizeof(needs) / sizeof(needs[0]), 1);

	t = tableset_load(m->ts, datadir, "assumptions.csv");
	if (!t || table_max_rows(t, MAX_ROWS, "each row is a quantity of "
				  "the report")) {
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
		if (unit_parse(unit, &dim, &uerr)) {
			table_error(t, r, cunit, "%s", uerr.data);
			buf_reset(&uerr);
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
		buf_addf(&origin, "%s:%zu", table_name(t), table_line(t, r));
		registry_add_num(m->reg, name, v, unit, "assumption", NULL,
				 source, origin.data);
	}
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (!found[i] && diag_errors() == before)
			error("%s: missing assumption '%s' (unit '%s')",
			      table_name(t), needs[i].name, needs[i].unit);
	if (diag_errors() != before)
		ret = -1;
out:
	free(found);
	buf_release(&origin);
	buf_release(&uerr);
	return ret;
}

/* The ultimate laptop: energy, speed, memory and their ratios. */
static void
add_laptop(struct model *m)
{
	const struct physconst *pc = m->pc;
	double mass = get(m, "laptop.mass"), V = get(m, "laptop.volume");
	double E, T, S, I, ops, flux, area;

	E = fx(m, "laptop.energy", phys_rest_energy(pc, mass), "J",
	       "laptop.mass * const.c^2", "rest energy",
	       "laptop.mass const.c", LLOYD2000);
	ops = fx(m, "laptop.ops_max", phys_ml_ops(pc, E), "ops/s",
		 "2 * laptop.energy / (pi * const.hbar)", "Margolus-Levitin",
		 "laptop.energy const.hbar", LLOYD2000);
	fx(m, "laptop.op_time_min", phys_ml_time(pc, E), "s",
	   "pi * const.hbar / (2 * laptop.energy)", "Margolus-Levitin",
	   "laptop.energy const.hbar", LLOYD2000);
	T = fx(m, "laptop.temperature",
	       phys_rad_temperature(pc, E, V, get(m, "laptop.modes")), "K",
	       "(30 * laptop.energy * (const.hbar * const.c)^3 / (pi^2 * "
	       "laptop.modes * laptop.volume))^(1/4) / const.k",
	       "radiation of r massless modes holding E in V",
	       "laptop.energy laptop.volume laptop.modes const.k const.hbar "
	       "const.c", LLOYD2000);
	S = fx(m, "laptop.entropy", phys_rad_entropy(E, T), "J/K",
	       "4 * laptop.energy / (3 * laptop.temperature)",
	       "entropy of radiation", "laptop.energy laptop.temperature",
	       LLOYD2000);
	I = fx(m, "laptop.bits_max", phys_entropy_bits(pc, S), "bit",
	       "laptop.entropy / (const.k * ln(2))", "entropy in bits",
	       "laptop.entropy const.k", LLOYD2000);
	fx(m, "laptop.ops_per_bit", phys_ops_per_bit(ops, I), "1/s",
	   "laptop.ops_max / laptop.bits_max", "flips of each bit per second",
	   "laptop.ops_max laptop.bits_max", LLOYD2000);
	fx(m, "laptop.flip_time", I / ops, "s",
	   "laptop.bits_max / laptop.ops_max",
	   "time for one bit to change state",
	   "laptop.ops_max laptop.bits_max", LLOYD2000);
	fx(m, "laptop.energy_per_bit", phys_energy_per_bit(E, I), "J/bit",
	   "laptop.energy / laptop.bits_max", NULL,
	   "laptop.energy laptop.bits_max", LLOYD2000);
	fx(m, "laptop.kT", pc->k * T / pc->eV, "eV",
	   "const.k * laptop.temperature", "thermal energy, in eV",
	   "const.k laptop.temperature", OURS);

	/* Error rejection through the surface, for two shapes of 1 litre. */
	flux = fx(m, "laptop.bb_bit_flux", phys_bb_bit_flux(pc, T),
		  "bit/(m^2 s)", "4 * const.sigma * laptop.temperature^3 / "
		  "(3 * const.k * ln(2))", "black-body entropy flux in bits",
		  "const.sigma laptop.temperature const.k", LLOYD2000);
	fx(m, "laptop.bb_bit_flux_density", pc->c / 4 * I / V, "bit/(m^2 s)",
	   "const.c / 4 * laptop.bits_max / laptop.volume",
	   "equals the black-body flux",
	   "const.c laptop.bits_max laptop.volume", OURS);
	fx(m, "laptop.sphere_radius", phys_sphere_radius(V), "m",
	   "(3 * laptop.volume / (4 * pi))^(1/3)", "sphere of volume V",
	   "laptop.volume", OURS);
	area = fx(m, "laptop.sphere_area", phys_sphere_area(V), "m^2",
		  "4 * pi * laptop.sphere_radius^2", NULL,
		  "laptop.sphere_radius", OURS);
	fx(m, "laptop.sphere_reject_rate", flux * area, "bit/s",
	   "laptop.bb_bit_flux * laptop.sphere_area", "sphere",
	   "laptop.bb_bit_flux laptop.sphere_area", LLOYD2000);
	fx(m, "laptop.sphere_reject_fraction", flux * area / ops, "",
	   "laptop.sphere_reject_rate / laptop.ops_max",
	   "rejected bits per operation (sphere)",
	   "laptop.sphere_reject_rate laptop.ops_max", OURS);
	fx(m, "laptop.cube_edge", phys_cube_edge(V), "m",
	   "laptop.volume^(1/3)", "cube of volume V", "laptop.volume", OURS);
	area = fx(m, "laptop.cube_area", phys_cube_area(V), "m^2",
		  "6 * laptop.cube_edge^2", NULL, "laptop.cube_edge", OURS);
	fx(m, "laptop.cube_reject_rate", flux * area, "bit/s",
	   "laptop.bb_bit_flux * laptop.cube_area", "cube",
	   "laptop.bb_bit_flux laptop.cube_area", LLOYD2000);
	fx(m, "laptop.cube_reject_fraction", flux * area / ops, "",
	   "laptop.cube_reject_rate / laptop.ops_max",
	   "rejected bits per operation (cube)",
	   "laptop.cube_reject_rate laptop.ops_max", OURS);

	/* Serial or parallel: can a signal cross before a bit flips? */
	fx(m, "laptop.sphere_crossing_time",
	   phys_light_time(pc, 2 * phys_sphere_radius(V)), "s",
	   "2 * laptop.sphere_radius / const.c", "light across the sphere",
	   "laptop.sphere_radius const.c", LLOYD2000);
	fx(m, "laptop.cube_crossing_time",
	   phys_light_time(pc, phys_cube_edge(V)), "s",
	   "laptop.cube_edge / const.c", "light across the cube",
	   "laptop.cube_edge const.c", LLOYD2000);
	fx(m, "laptop.crossing_per_flip",
	   get(m, "laptop.sphere_crossing_time") / get(m, "laptop.flip_time"),
	   "", "laptop.sphere_crossing_time / laptop.flip_time",
	   "bit flips during one light crossing (sphere): >> 1 means "
	   "highly parallel", "laptop.sphere_crossing_time laptop.flip_time",
	   OURS);

	fx(m, "laptop.bremermann", phys_bremermann(pc, mass), "bit/s",
	   "laptop.mass * const.c^2 / const.h", "Bremermann",
	   "laptop.mass const.c const.h",
	   "H. J. Bremermann, Proc. 5th Berkeley Symp. (1967)");
	fx(m, "laptop.bekenstein_bits",
	   phys_bekenstein_bits(pc, phys_sphere_radius(V), E), "bit",
	   "2 * pi * laptop.sphere_radius * laptop.energy / (const.hbar * "
	   "const.c * ln(2))", "Bekenstein bound, sphere",
	   "laptop.sphere_radius laptop.energy const.hbar const.c",
	   "J. D. Bekenstein, Phys. Rev. D 23, 287 (1981)");
}

/* Radiation entropy in bits of mass M in volume V, as an expression. */
#define RAD_BITS(M, V) "4 * " M " * const.c^2 / (3 * ln(2) * (30 * " M \
	" * const.c^2 * (const.hbar * const.c)^3 / (pi^2 * laptop.modes * " \
	V "))^(1/4))"

/* Ordinary matter and smart dust, by volume scaling. */
static void
add_atomic(struct model *m)
{
	const struct physconst *pc = m->pc;
	double e1 = get(m, "atomic.energy_per_op") * pc->eV;
	double V = get(m, "laptop.volume"), Vd = get(m, "dust.volume");
	double rate, ops, scale, md;

	rate = fx(m, "atomic.ops_per_bit", phys_ml_ops(pc, e1), "1/s",
		  "2 * atomic.energy_per_op / (pi * const.hbar)",
		  "Margolus-Levitin for the energy of one operation",
		  "atomic.energy_per_op const.hbar", LLOYD2000);
	ops = fx(m, "atomic.ops", rate * get(m, "atomic.bits"), "ops/s",
		 "atomic.bits * atomic.ops_per_bit", NULL,
		 "atomic.bits atomic.ops_per_bit", LLOYD2000);
	scale = fx(m, "dust.scale", Vd / V, "", "dust.volume / laptop.volume",
		   NULL, "dust.volume laptop.volume", HENSON2008);
	fx(m, "dust.atomic_bits", phys_volume_scale(get(m, "atomic.bits"),
						    Vd, V), "bit",
	   "atomic.bits * dust.scale", NULL, "atomic.bits dust.scale",
	   HENSON2008);
	fx(m, "dust.atomic_bytes", phys_volume_scale(get(m, "atomic.bits"),
						     Vd, V) / 8, "B",
	   "dust.atomic_bits / bits_per_byte", NULL,
	   "dust.atomic_bits bits_per_byte", HENSON2008);
	fx(m, "dust.atomic_ops", phys_volume_scale(ops, Vd, V), "ops/s",
	   "atomic.ops * dust.scale", NULL, "atomic.ops dust.scale",
	   HENSON2008);
	/* The ultimate limits at the laptop's density, for contrast. */
	md = fx(m, "dust.mass", get(m, "laptop.mass") * scale, "kg",
		"laptop.mass * dust.scale", NULL, "laptop.mass dust.scale",
		OURS);
	fx(m, "dust.ultimate_ops", phys_ml_ops(pc, phys_rest_energy(pc, md)),
	   "ops/s", "2 * dust.mass * const.c^2 / (pi * const.hbar)",
	   "Margolus-Levitin for the dust's mass",
	   "dust.mass const.c const.hbar", OURS);
	fx(m, "dust.ultimate_bits",
	   phys_entropy_bits(pc, phys_rad_entropy(phys_rest_energy(pc, md),
		phys_rad_temperature(pc, phys_rest_energy(pc, md), Vd,
				     get(m, "laptop.modes")))), "bit",
	   RAD_BITS("dust.mass", "dust.volume"),
	   "radiation entropy of the dust's mass in its volume",
	   "dust.mass dust.volume laptop.modes const.hbar const.c", OURS);
}

/* The laptop compressed to a black hole. */
static void
add_blackhole(struct model *m)
{
	const struct physconst *pc = m->pc;
	double mass = get(m, "laptop.mass"), ops = get(m, "laptop.ops_max");
	double R, I;

	R = fx(m, "blackhole.radius", phys_schwarzschild_radius(pc, mass),
	       "m", "2 * const.G * laptop.mass / const.c^2",
	       "Schwarzschild radius", "laptop.mass const.G const.c",
	       LLOYD2000);
	I = fx(m, "blackhole.bits", phys_bh_bits(pc, mass), "bit",
	       "4 * pi * const.G * laptop.mass^2 / (ln(2) * const.hbar * "
	       "const.c)", "Bekenstein-Hawking",
	       "laptop.mass const.G const.hbar const.c", LLOYD2000);
	fx(m, "blackhole.ops", ops, "ops/s", "laptop.ops_max",
	   "the same energy, so the same speed", "laptop.ops_max", LLOYD2000);
	fx(m, "blackhole.flip_time", I / ops, "s",
	   "blackhole.bits / laptop.ops_max", NULL,
	   "blackhole.bits laptop.ops_max", LLOYD2000);
	fx(m, "blackhole.ops_per_bit", ops / I, "1/s",
	   "laptop.ops_max / blackhole.bits", NULL,
	   "laptop.ops_max blackhole.bits", LLOYD2000);
	fx(m, "blackhole.crossing_time", phys_light_time(pc, 2 * R), "s",
	   "2 * blackhole.radius / const.c", "light across the horizon",
	   "blackhole.radius const.c", LLOYD2000);
	fx(m, "blackhole.hawking_temperature",
	   phys_hawking_temperature(pc, mass), "K",
	   "const.hbar * const.c^3 / (8 * pi * const.G * laptop.mass * "
	   "const.k)", "Hawking temperature",
	   "laptop.mass const.hbar const.c const.G const.k",
	   "S. W. Hawking, Commun. Math. Phys. 43, 199 (1975)");
	fx(m, "blackhole.lifetime", phys_hawking_lifetime(pc, mass), "s",
	   "5120 * pi * const.G^2 * laptop.mass^3 / (const.hbar * const.c^4)",
	   "photon-only convention", "laptop.mass const.G const.hbar const.c",
	   "Hawking (1975); photon-only evaporation");
	fx(m, "blackhole.time_scale", phys_hawking_time_scale(pc, mass), "s",
	   "const.G^2 * laptop.mass^3 / (const.hbar * const.c^4)",
	   "the scale all conventions share",
	   "laptop.mass const.G const.hbar const.c", OURS);
}

static void
add_landauer(struct model *m)
{
	const struct physconst *pc = m->pc;
	double Troom = get(m, "landauer.room_temperature");

	fx(m, "landauer.energy_room", phys_landauer_energy(pc, Troom),
	   "J/bit", "const.k * landauer.room_temperature * ln(2)",
	   "Landauer, at room temperature",
	   "const.k landauer.room_temperature",
	   "R. Landauer, IBM J. Res. Dev. 5, 183 (1961)");
	fx(m, "landauer.energy_laptop",
	   phys_landauer_energy(pc, get(m, "laptop.temperature")), "J/bit",
	   "const.k * laptop.temperature * ln(2)",
	   "Landauer, at the ultimate laptop's temperature",
	   "const.k laptop.temperature", "Landauer (1961)");
	fx(m, "landauer.rate_room",
	   phys_landauer_rate(pc, get(m, "landauer.power"), Troom), "bit/s",
	   "landauer.power / landauer.energy_room",
	   "erasures per second the power budget allows",
	   "landauer.power landauer.energy_room", "Landauer (1961)");
}
#define SET(b, ...) (buf_reset(&(b)), buf_addf(&(b), __VA_ARGS__), (b).data)

/*
 * Adds the gap from the value in have_name to the limit in limit_name
 * under prefix: orders of magnitude, doublings, and for every rate in
 * m->rates the years it takes and the calendar year it is reached,
 * counted from the year in year_name.
 */
static void
add_gap(struct model *m, const char *prefix, const char *have_name,
	const char *limit_name, const char *year_name)
{
	struct buf name = BUF_INIT, in = BUF_INIT, f = BUF_INIT;
	struct buf note = BUF_INIT;
	double have = get(m, have_name), lim = get(m, limit_name);
	double y0 = get(m, year_name);
	size_t i;

	fx(m, SET(name, "%s.orders", prefix), phys_orders(have, lim), "",
	   SET(f, "log10(%s / %s)", limit_name, have_name),
	   "orders of magnitude", SET(in, "%s %s", have_name, limit_name),
	   OURS);
	fx(m, SET(name, "%s.doublings", prefix), phys_doublings(have, lim),
	   "", SET(f, "log2(%s / %s)", limit_name, have_name), "doublings",
	   SET(in, "%s %s", have_name, limit_name), OURS);
	for (i = 0; i < m->nrates; i++) {
		const char *rate = m->rates[i], *sfx = strrchr(rate, '.') + 1;
		double td = get(m, rate);

		fx(m, SET(name, "%s.years_%s", prefix, sfx),
		   phys_years_to(have, lim, td), "yr",
		   SET(f, "%s.doublings * %s", prefix, rate),
		   SET(note, "at %s", m->rate_what[i]),
		   SET(in, "%s.doublings %s", prefix, rate), OURS);
		fx(m, SET(name, "%s.year_%s", prefix, sfx),
		   phys_year_reached(y0, have, lim, td), "year",
		   SET(f, "%s + %s.years_%s", year_name, prefix, sfx),
		   SET(note, "the year it is reached at %s",
		       m->rate_what[i]),
		   SET(in, "%s %s.years_%s", year_name, prefix, sfx), OURS);
	}
	buf_release(&name);
	buf_release(&in);
	buf_release(&f);
	buf_release(&note);
}

static void
add_rate(struct model *m, const char *name, const char *what)
{
	if (m->nrates == sizeof(m->rates) / sizeof(m->rates[0]))
		BUG("too many rates");
	m->rates[m->nrates] = name;
	m->rate_what[m->nrates++] = what;
}

static void
add_moore(struct model *m)
{
	double sb = get(m, "sbops_per_flop"), bits;

	fx(m, "moore.lloyd_doubling",
	   phys_doubling_time(get(m, "moore.lloyd_factor"),
			      get(m, "moore.lloyd_period")), "yr",
	   "moore.lloyd_period / log2(moore.lloyd_factor)",
	   "doubling time of growth by a factor over a period",
	   "moore.lloyd_period moore.lloyd_factor", LLOYD2000);
	fx(m, "rate.lloyd", get(m, "moore.lloyd_doubling"), "yr",
	   "moore.lloyd_doubling", "Lloyd's 1e8 per 50 years",
	   "moore.lloyd_doubling", LLOYD2000);
	fx(m, "rate.24mo", get(m, "moore.article_doubling"), "yr",
	   "moore.article_doubling", "the article's 24 months",
	   "moore.article_doubling", HENSON2008);
	fx(m, "rate.18mo", get(m, "moore.fast_doubling"), "yr",
	   "moore.fast_doubling", "18 months", "moore.fast_doubling",
	   LLOYD2000);
	add_rate(m, "rate.lloyd", "1e8 per 50 years");
	add_rate(m, "rate.24mo", "24 months");
	add_rate(m, "rate.18mo", "18 months");

	fx(m, "article.laptop_sbops", get(m, "article.laptop_flops") * sb,
	   "ops/s", "article.laptop_flops * sbops_per_flop", "SBOPS",
	   "article.laptop_flops sbops_per_flop", HENSON2008);
	bits = fx(m, "article.laptop_bits",
		  get(m, "article.laptop_storage") * 8, "bit",
		  "article.laptop_storage * bits_per_byte", NULL,
		  "article.laptop_storage bits_per_byte", HENSON2008);
	(void)bits;

	fx(m, "universe.doublings", log2(get(m, "universe.bits")), "",
	   "log2(universe.bits)", "bits the universe can process",
	   "universe.bits",
	   "L. M. Krauss, G. D. Starkman, astro-ph/0404510 (2004)");
	fx(m, "universe.years_18mo", get(m, "universe.doublings") *
	   get(m, "moore.fast_doubling"), "yr",
	   "universe.doublings * moore.fast_doubling", "at 18 months",
	   "universe.doublings moore.fast_doubling", OURS);
	fx(m, "universe.years_24mo", get(m, "universe.doublings") *
	   get(m, "moore.article_doubling"), "yr",
	   "universe.doublings * moore.article_doubling", "at 24 months",
	   "universe.doublings moore.article_doubling", OURS);
	fx(m, "universe.years_lloyd", get(m, "universe.doublings") *
	   get(m, "moore.lloyd_doubling"), "yr",
	   "universe.doublings * moore.lloyd_doubling",
	   "at 1e8 per 50 years",
	   "universe.doublings moore.lloyd_doubling", OURS);
}

/* How each history series is read and what its trend is held against. */
struct series_spec {
	const char *id;		/* registry prefix: series.<id> */
	const char *file;
	const char *time_col;	/* "list" (YYYY-MM) or "year" */
	const char *value_col;
	const char *label_col;
	const char *unit;
	const char *what;	/* "the No. 1 system of each TOP500 list" */
	int unique_time;	/* one row per time (a list has one No. 1) */
	/* Limits the trend is extrapolated to, after scaling by factor. */
	const char *factor;	/* quantity the value is multiplied by, or NULL */
	const char *scaled_unit;
	const char *limits[2];
	const char *limit_names[2];
};

static const struct series_spec series_specs[] = {
	{ "top500", "top500.csv", "list", "rmax_flops", "system", "FLOP/s",
	  "No. 1 system of each TOP500 list (Rmax)", 1, "sbops_per_flop",
	  "ops/s", { "laptop.ops_max", "atomic.ops" }, { "ml", "atomic" } },
	{ "disk", "disk_capacity.csv", "year", "capacity_bytes", "model", "B",
	  "largest hard disk of its year", 0, "bits_per_byte", "bit",
	  { "laptop.bits_max", "atomic.bits" }, { "entropy", "atomic" } },
	{ "areal", "areal_density.csv", "year", "density_bit_per_in2",
	  "product", "bit/in^2", "hard-disk areal density", 0, NULL, NULL,
	  { NULL, NULL }, { NULL, NULL } },
	{ "transistors", "transistors.csv", "year", "transistors",
	  "processor", "", "transistors per microprocessor", 0, NULL, NULL,
	  { NULL, NULL }, { NULL, NULL } },
};

/* Series are thinned to this many points for figures (fits use all). */
#define MODEL_PLOT_POINTS 2000

#define YEAR_MIN 1900
#define YEAR_MAX 2100

/* One series in memory, in file order, rows after the edition left out. */
struct series {
	const struct series_spec *spec;
	struct table *t;
	double *time;		/* decimal year (mid-month or mid-year) */
	double *value;
	size_t *row;		/* table row of each point */
	size_t n;
};

static void
series_release(struct series *se)
{
	free(se->time);
	free(se->value);
	free(se->row);
}

static struct table *
load(struct model *m, const char *file)
{
	return tableset_load(m->ts, m->datadir, file);
}

/*
 * Reads one series: every row checked (time, positive value, label,
 * source), rows newer than the edition skipped. Returns -1 on errors.
 */
static int
series_read(struct model *m, const struct series_spec *sp, struct series *se)
{
	int ct, cv, cl, cs;
	size_t r, cap = 0, before = diag_errors();
	int monthly = !strcmp(sp->time_col, "list");

	memset(se, 0, sizeof(*se));
	se->spec = sp;
	se->t = load(m, sp->file);
	if (!se->t)
		return -1;
	ct = table_require(se->t, sp->time_col);
	cv = table_require(se->t, sp->value_col);
	cl = table_require(se->t, sp->label_col);
	cs = table_require(se->t, "source");
	if (ct < 0 || cv < 0 || cl < 0 || cs < 0)
		return -1;
	if (!table_rows(se->t))
		return error("%s: no rows in '%s'", table_name(se->t),
			     sp->file);
	for (r = 0; r < table_rows(se->t); r++) {
		const char *label, *src;
		double t, v;
		int y;

		/* A million rows take a while: Ctrl-C stops them. */
		if (diag_interrupted())
			return -1;
		if (monthly) {
			if (table_month(se->t, r, ct, YEAR_MIN, YEAR_MAX, &t))
				continue;
		} else {
			if (table_year(se->t, r, ct, YEAR_MIN, YEAR_MAX, &y))
				continue;
			t = y + 0.5;
		}
		if (table_num(se->t, r, cv, TABLE_POSITIVE, &v) |
		    table_text(se->t, r, cl, &label) |
		    table_text(se->t, r, cs, &src))
			continue;
		if (sp->unique_time && se->n && t == se->time[se->n - 1]) {
			table_error(se->t, r, ct, "duplicate %s '%s' (one row "
				    "per %s)", sp->time_col,
				    table_cell(se->t, r, ct), sp->time_col);
			continue;
		}
		if (se->n && t < se->time[se->n - 1] - 1e-9) {
			table_error(se->t, r, ct, "'%s' is earlier than the "
				    "row before it: keep rows in time order",
				    table_cell(se->t, r, ct));
			continue;
		}
		if (floor(t) > m->as_of)
			continue;
		if (se->n == cap) {
			size_t c = cap;

			se->time = xgrow(se->time, &c, se->n + 1,
					 sizeof(*se->time));
			c = cap;
			se->value = xgrow(se->value, &c, se->n + 1,
					  sizeof(*se->value));
			se->row = xgrow(se->row, &cap, se->n + 1,
					sizeof(*se->row));
		}
		se->time[se->n] = t;
		se->value[se->n] = v;
		se->row[se->n++] = r;
	}
	return diag_errors() == before ? 0 : -1;
}

/* Origin "file:line" of point i of a series, into b. */
static const char *
point_origin(const struct series *se, size_t i, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "%s:%zu", table_name(se->t), table_line(se->t, se->row[i]));
	return b->data;
}

/*
 * The points of a series for its figure: time, value and, when the spec
 * scales it, the scaled value; labels from the label column.
 */
static void
series_dataset(struct model *m, const struct series *se)
{
	const struct series_spec *sp = se->spec;
	const char *cols[] = { "year", sp->value_col, "scaled" };
	const char *units[] = { "year", sp->unit, sp->scaled_unit };
	struct dataset *ds = dataset_add(m->ds, sp->id, sp->what, cols, units,
					 sp->factor ? 3 : 2);
	double f = sp->factor ? get(m, sp->factor) : 1;
	int cl = table_find(se->t, sp->label_col);
	size_t i, step = 1;

	/* A plot shows no more than this: every k-th point and the last. */
	if (se->n > MODEL_PLOT_POINTS)
		step = (se->n + MODEL_PLOT_POINTS - 1) / MODEL_PLOT_POINTS;
	for (i = 0; i < se->n; i++) {
		double row[3] = { se->time[i], se->value[i],
				  se->value[i] * f };

		if (i % step && i + 1 != se->n)
			continue;
		dataset_row(ds, row, table_cell(se->t, se->row[i], cl));
	}
}

/* The least-squares trend over [lo, hi] and where it meets the limits. */
static void
add_fit(struct model *m, const struct series *se, const char *window,
	const char *what, double lo, double hi)
{
	const struct series_spec *sp = se->spec;
	struct buf name = BUF_INIT, f = BUF_INIT, in = BUF_INIT;
	struct fit fit;
	const char *src = table_name(se->t);
	size_t k;

	if (fit_log2(se->time, se->value, se->n, lo, hi, &fit)) {
		/* An edition with too few points has no trend to show. */
		goto out;
	}
	num(m, SET(name, "series.%s.fit_%s.n", sp->id, window), (double)fit.n,
	    "", SET(f, "points of %s in the window (%s)", sp->id, what), NULL,
	    src);
	num(m, SET(name, "series.%s.fit_%s.from", sp->id, window),
	    floor(fit.t0), "year", "first year in the window", NULL, src);
	num(m, SET(name, "series.%s.fit_%s.to", sp->id, window),
	    floor(fit.t1), "year", "last year in the window", NULL, src);
	num(m, SET(name, "series.%s.fit_%s.slope", sp->id, window), fit.b,
	    "1/yr", SET(f, "least-squares slope of log2(%s) against time "
			"(%s)", sp->value_col, what), NULL, src);
	num(m, SET(name, "series.%s.fit_%s.intercept", sp->id, window), fit.a,
	    "", "log2(value) at year 0 on the fitted line: log2(v) = "
	    "intercept + slope x year", NULL, src);
	fx(m, SET(name, "series.%s.fit_%s.doubling_time", sp->id, window),
	   fit_doubling_time(&fit), "yr",
	   SET(f, "1 / series.%s.fit_%s.slope", sp->id, window),
	   "the fitted doubling time",
	   SET(in, "series.%s.fit_%s.slope", sp->id, window), OURS);
	num(m, SET(name, "series.%s.fit_%s.r2", sp->id, window), fit.r2, "",
	    "coefficient of determination of the fit", NULL, src);
	if (!sp->limits[0])
		goto out;
	/*
	 * Where the line is at its last year: the point the years below
	 * count from, so that each is a formula over named quantities.
	 */
	num(m, SET(name, "series.%s.fit_%s.value_to", sp->id, window),
	    fit_value_at(&fit, floor(fit.t1)), sp->unit,
	    "value of the fitted line at the last year of the window", NULL,
	    src);
	for (k = 0; k < 2 && sp->limits[k]; k++) {
		/* As the formula reads, operation for operation. */
		double lim = get(m, sp->limits[k]) / get(m, sp->factor);
		double t = floor(fit.t1) + log2(lim / fit_value_at(&fit,
			   floor(fit.t1))) / fit.b;

		fx(m, SET(name, "series.%s.fit_%s.year_%s", sp->id, window,
			  sp->limit_names[k]),
		   fit.b > 0 ? floor(t) : NAN, "year",
		   SET(f, "floor(series.%s.fit_%s.to + log2(%s / %s / "
		       "series.%s.fit_%s.value_to) / series.%s.fit_%s.slope)",
		       sp->id, window, sp->limits[k], sp->factor, sp->id,
		       window, sp->id, window),
		   "the year the fitted line reaches the limit",
		   SET(in, "series.%s.fit_%s.to %s %s series.%s.fit_%s.value_to "
		       "series.%s.fit_%s.slope", sp->id, window, sp->limits[k],
		       sp->factor, sp->id, window, sp->id, window), OURS);
	}
out:
	buf_release(&name);
	buf_release(&f);
	buf_release(&in);
}

/*
 * Adds every series: its extent, its newest point, its trend over the
 * article's window (up to the article's year) and over the whole edition.
 */
static int
add_series(struct model *m, struct series *all)
{
	struct buf name = BUF_INIT, f = BUF_INIT, org = BUF_INIT;
	double art = get(m, "article.year");
	size_t i, k;
	int ret = 0;

	for (i = 0; i < sizeof(series_specs) / sizeof(series_specs[0]); i++) {
		const struct series_spec *sp = &series_specs[i];
		struct series *se = &all[i];
		const char *src;

		if (series_read(m, sp, se)) {
			ret = -1;
			continue;
		}
		if (!se->n) {
			ret = error("%s: no rows in or before %d", 
				    table_name(se->t), m->as_of);
			continue;
		}
		src = table_name(se->t);
		k = se->n - 1;
		if (m->ds)
			series_dataset(m, se);
		num(m, SET(name, "series.%s.n", sp->id), (double)se->n, "",
		    SET(f, "rows of %s in this edition", sp->what), NULL, src);
		num(m, SET(name, "series.%s.first_year", sp->id),
		    floor(se->time[0]), "year", "year of the first row", NULL,
		    point_origin(se, 0, &org));
		num(m, SET(name, "series.%s.latest.year", sp->id),
		    floor(se->time[k]), "year", "year of the newest row", NULL,
		    point_origin(se, k, &org));
		registry_add_num(m->reg, SET(name, "series.%s.latest.value",
					     sp->id), se->value[k], sp->unit,
				 SET(f, "%s of the newest row", sp->value_col),
				 NULL, table_cell(se->t, se->row[k],
						  table_find(se->t, "source")),
				 point_origin(se, k, &org));
		registry_add_text(m->reg, SET(name, "series.%s.latest.label",
					      sp->id),
				  table_cell(se->t, se->row[k],
					     table_find(se->t, sp->label_col)),
				  SET(f, "%s of the newest row", sp->label_col),
				  NULL, table_cell(se->t, se->row[k],
						   table_find(se->t, "source")),
				  point_origin(se, k, &org));
		add_fit(m, se, "article", "up to the article's year", -INFINITY,
			art + 0.999);
		add_fit(m, se, "all", "the whole edition", -INFINITY,
			m->as_of + 0.999);
	}
	buf_release(&name);
	buf_release(&f);
	buf_release(&org);
	return ret;
}

/* Calendar-year interval [y0, y1] of a series: log2 of the value change. */
static void
add_doublings_between(struct model *m, const struct series *se,
		      const char *from, const char *to)
{
	double y0 = get(m, from), y1 = get(m, to);
	size_t i, a = se->n, b = se->n;
	struct buf name = BUF_INIT, f = BUF_INIT, in = BUF_INIT;

	for (i = 0; i < se->n; i++) {
		if (a == se->n && floor(se->time[i]) >= y0)
			a = i;
		if (floor(se->time[i]) <= y1)
			b = i;
	}
	if (a == se->n || b == se->n || b <= a)
		goto out;
	num(m, SET(name, "series.%s.factor_window", se->spec->id),
	    se->value[b] / se->value[a], "",
	    SET(f, "%s of its last row in ..%s / its first in %s..",
		se->spec->value_col, to, from),
	    SET(in, "%s %s", from, to), table_name(se->t));
	fx(m, SET(name, "series.%s.doublings_window", se->spec->id),
	   log2(se->value[b] / se->value[a]), "",
	   SET(f, "log2(series.%s.factor_window)", se->spec->id),
	   "doublings between the two rows",
	   SET(in, "series.%s.factor_window", se->spec->id), OURS);
	{
		struct fit fit;

		if (fit_log2(se->time, se->value, se->n, y0, y1 + 0.999,
			     &fit))
			goto out;
		num(m, SET(name, "series.%s.fit_window.slope", se->spec->id),
		    fit.b, "1/yr",
		    SET(f, "least-squares slope of log2(%s) against time "
			"(%s..%s)", se->spec->value_col, from, to),
		    SET(in, "%s %s", from, to), table_name(se->t));
		fx(m, SET(name, "series.%s.doublings_window_fit",
			  se->spec->id), fit.b * (y1 - y0), "",
		   SET(f, "series.%s.fit_window.slope * (%s - %s)",
		       se->spec->id, to, from),
		   "doublings of the fitted line between the two years",
		   SET(in, "series.%s.fit_window.slope %s %s", se->spec->id,
		       to, from), OURS);
	}
out:
	buf_release(&name);
	buf_release(&f);
	buf_release(&in);
}

/* Device kinds, and which of them has a "current" pick. */
static const char *const device_kinds[] = {
	"laptop", "netbook", "supercomputer", "gpu", "phone",
};

/*
 * Adds one device under prefix (device.<id> or an alias such as
 * current.laptop): its figures, its gaps to the 1 kg limits and, when its
 * mass (and volume) is known, to the limits of its own mass.
 */
static void
add_device_as(struct model *m, const char *prefix, const struct table *t,
	      size_t r, const char *how)
{
	struct buf name = BUF_INIT, f = BUF_INIT, in = BUF_INIT, e = BUF_INIT;
	struct buf org = BUF_INIT, src = BUF_INIT, mn = BUF_INIT, vn = BUF_INIT;
	const struct physconst *pc = m->pc;
	double flops, storage, mass, vol, power, year;
	int c;

	buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
	buf_addstr(&src, table_cell(t, r, table_find(t, "source")));
	table_num(t, r, table_find(t, "year"), 0, &year);
	table_num(t, r, table_find(t, "flops"), 0, &flops);
	table_num(t, r, table_find(t, "storage_bytes"), TABLE_OPTIONAL,
		  &storage);
	mass = vol = power = NAN;
	if ((c = table_find(t, "mass_kg")) >= 0)
		table_num(t, r, c, TABLE_OPTIONAL, &mass);
	if ((c = table_find(t, "volume_l")) >= 0)
		table_num(t, r, c, TABLE_OPTIONAL, &vol);
	if ((c = table_find(t, "power_w")) >= 0)
		table_num(t, r, c, TABLE_OPTIONAL, &power);

	registry_add_text(m->reg, SET(name, "%s.name", prefix),
			  table_cell(t, r, table_find(t, "name")), how, NULL,
			  src.data, org.data);
	c = table_find(t, "label");
	registry_add_text(m->reg, SET(name, "%s.label", prefix),
			  c >= 0 && *table_cell(t, r, c) ?
			  table_cell(t, r, c) :
			  table_cell(t, r, table_find(t, "name")),
			  "short name for figures (the name when no label)",
			  NULL, src.data, org.data);
	registry_add_text(m->reg, SET(name, "%s.id", prefix),
			  table_cell(t, r, table_find(t, "id")), how, NULL,
			  src.data, org.data);
	registry_add_num(m->reg, SET(name, "%s.year", prefix), year, "year",
			 how, NULL, src.data, org.data);
	registry_add_num(m->reg, SET(name, "%s.flops", prefix), flops,
			 "FLOP/s", how, NULL, src.data, org.data);
	fx(m, SET(name, "%s.sbops", prefix), flops * get(m, "sbops_per_flop"),
	   "ops/s", SET(e, "%s.flops * sbops_per_flop", prefix), "SBOPS",
	   SET(in, "%s.flops sbops_per_flop", prefix), HENSON2008);
	add_gap(m, SET(f, "%s.gap.ops", prefix), SET(in, "%s.sbops", prefix),
		"laptop.ops_max", SET(name, "%s.year", prefix));
	if (!isnan(storage)) {
		registry_add_num(m->reg, SET(name, "%s.storage", prefix),
				 storage, "B", how, NULL, src.data, org.data);
		fx(m, SET(name, "%s.bits", prefix), storage * 8, "bit",
		   SET(e, "%s.storage * bits_per_byte", prefix), NULL,
		   SET(in, "%s.storage bits_per_byte", prefix), OURS);
		add_gap(m, SET(f, "%s.gap.bits", prefix),
			SET(in, "%s.bits", prefix), "laptop.bits_max",
			SET(name, "%s.year", prefix));
	}
	if (!isnan(power))
		registry_add_num(m->reg, SET(name, "%s.power", prefix), power,
				 "W", how, NULL, src.data, org.data);
	if (!isnan(mass)) {
		double E = phys_rest_energy(pc, mass);

		registry_add_num(m->reg, SET(name, "%s.mass", prefix), mass,
				 "kg", how, NULL, src.data, org.data);
		fx(m, SET(name, "%s.ops_limit_own", prefix),
		   phys_ml_ops(pc, E), "ops/s",
		   SET(e, "2 * %s.mass * const.c^2 / (pi * const.hbar)",
		       prefix), "Margolus-Levitin for the device's own mass",
		   SET(in, "%s.mass const.c const.hbar", prefix), LLOYD2000);
		fx(m, SET(name, "%s.gap.ops_own.orders", prefix),
		   phys_orders(flops * get(m, "sbops_per_flop"),
			       phys_ml_ops(pc, E)), "",
		   SET(e, "log10(%s.ops_limit_own / %s.sbops)", prefix,
		       prefix), "orders of magnitude to its own-mass limit",
		   SET(in, "%s.sbops %s.ops_limit_own", prefix, prefix), OURS);
		if (!isnan(vol) && !isnan(storage)) {
			double V = vol * 1e-3;
			double T = phys_rad_temperature(pc, E, V,
						get(m, "laptop.modes"));

			registry_add_num(m->reg, SET(name, "%s.volume", prefix),
					 V, "m^3", how, NULL, src.data,
					 org.data);
			buf_reset(&mn);
			buf_addf(&mn, "%s.mass", prefix);
			buf_reset(&vn);
			buf_addf(&vn, "%s.volume", prefix);
			fx(m, SET(name, "%s.bits_limit_own", prefix),
			   phys_entropy_bits(pc, phys_rad_entropy(E, T)),
			   "bit", SET(e, RAD_BITS("%s", "%s"), mn.data,
				      mn.data, vn.data),
			   "radiation entropy of its own mass in its own "
			   "volume", SET(in, "%s.mass %s.volume laptop.modes "
			   "const.hbar const.c", prefix, prefix), LLOYD2000);
			fx(m, SET(name, "%s.gap.bits_own.orders", prefix),
			   phys_orders(storage * 8, get(m, SET(f,
				"%s.bits_limit_own", prefix))), "",
			   SET(e, "log10(%s.bits_limit_own / %s.bits)",
			       prefix, prefix),
			   "orders of magnitude to its own-mass memory limit",
			   SET(in, "%s.bits %s.bits_limit_own", prefix,
			       prefix), OURS);
		}
	}
	buf_release(&name);
	buf_release(&f);
	buf_release(&in);
	buf_release(&org);
	buf_release(&src);
	buf_release(&e);
	buf_release(&mn);
	buf_release(&vn);
}

/*
 * Reads data/devices.csv: every row checked, including against physics
 * (no device may beat the limits of its own mass); rows newer than the
 * edition are skipped. Adds each device and the current pick per kind.
 */
static int
add_devices(struct model *m)
{
	static const char *const cols[] = { "id", "name", "year", "kind",
		"flops", "storage_bytes", "source" };
	struct table *t = load(m, "devices.csv");
	size_t r, i, before = diag_errors();
	size_t pick[sizeof(device_kinds) / sizeof(device_kinds[0])];
	size_t fast = (size_t)-1, big = (size_t)-1;
	double best_flops = 0, best_storage = 0;
	struct buf name = BUF_INIT, how = BUF_INIT;
	const struct physconst *pc = m->pc;
	int ci[sizeof(cols) / sizeof(cols[0])];

	if (!t)
		return -1;
	/* Each device becomes some fifty quantities on every page. */
	if (table_max_rows(t, MAX_ROWS, "the report compares machines, "
			   "it is no catalogue"))
		goto out;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if ((ci[i] = table_require(t, cols[i])) < 0)
			goto out;
	for (i = 0; i < sizeof(pick) / sizeof(pick[0]); i++)
		pick[i] = (size_t)-1;
	for (r = 0; r < table_rows(t); r++) {
		const char *id, *nm, *kind, *src;
		double flops, storage, mass = NAN, vol = NAN, power = NAN;
		int year, c, bad = 0;
		size_t k;

		bad |= table_id(t, r, ci[0], &id);
		bad |= table_text(t, r, ci[1], &nm);
		bad |= table_year(t, r, ci[2], YEAR_MIN, YEAR_MAX, &year);
		bad |= table_text(t, r, ci[3], &kind);
		bad |= table_num(t, r, ci[4], TABLE_POSITIVE, &flops);
		bad |= table_num(t, r, ci[5], TABLE_POSITIVE | TABLE_OPTIONAL,
				 &storage);
		bad |= table_text(t, r, ci[6], &src);
		if ((c = table_find(t, "mass_kg")) >= 0)
			bad |= table_num(t, r, c, TABLE_POSITIVE |
					 TABLE_OPTIONAL, &mass);
		if ((c = table_find(t, "volume_l")) >= 0)
			bad |= table_num(t, r, c, TABLE_POSITIVE |
					 TABLE_OPTIONAL, &vol);
		if ((c = table_find(t, "power_w")) >= 0)
			bad |= table_num(t, r, c, TABLE_POSITIVE |
					 TABLE_OPTIONAL, &power);
		if (bad)
			continue;
		if (table_unique(t, r, ci[0]))
			continue;
		for (k = 0; k < sizeof(device_kinds) / sizeof(*device_kinds); k++)
			if (!strcmp(device_kinds[k], kind))
				break;
		if (k == sizeof(device_kinds) / sizeof(*device_kinds)) {
			table_error(t, r, ci[3], "unknown kind '%s': expected "
				    "laptop, netbook, supercomputer, gpu or "
				    "phone", kind);
			continue;
		}
		/* The physics checks the data. */
		if (!isnan(mass) && flops * get(m, "sbops_per_flop") >
		    phys_ml_ops(pc, phys_rest_energy(pc, mass))) {
			table_error(t, r, ci[4], "%s FLOP/s x %g SBOPS per "
				    "FLOP beats the Margolus-Levitin limit of "
				    "%.4g ops/s for its %g kg",
				    table_cell(t, r, ci[4]),
				    get(m, "sbops_per_flop"),
				    phys_ml_ops(pc, phys_rest_energy(pc, mass)),
				    mass);
			continue;
		}
		if (!isnan(mass) && !isnan(vol) && !isnan(storage)) {
			double E = phys_rest_energy(pc, mass);
			double I = phys_entropy_bits(pc, phys_rad_entropy(E,
				phys_rad_temperature(pc, E, vol * 1e-3,
						     get(m, "laptop.modes"))));

			if (storage * 8 > I) {
				table_error(t, r, ci[5], "%s bytes beat the "
					    "entropy limit of %.4g bits for "
					    "%g kg in %g litres",
					    table_cell(t, r, ci[5]), I, mass,
					    vol);
				continue;
			}
		}
		if (year > m->as_of)
			continue;
		if (pick[k] == (size_t)-1 ||
		    year >= atoi(table_cell(t, pick[k], ci[2])))
			pick[k] = r;
		if (fast == (size_t)-1 || flops > best_flops)
			fast = r, best_flops = flops;
		if (!isnan(storage) && (big == (size_t)-1 ||
					storage > best_storage))
			big = r, best_storage = storage;
		buf_reset(&name);
		buf_addf(&name, "device.%s", id);
		add_device_as(m, name.data, t, r, "from devices.csv");
	}
	if (diag_errors() != before)
		goto out;
	/* The machines nearest the limits, whatever the data hold. */
	if (fast != (size_t)-1) {
		buf_reset(&how);
		buf_addf(&how, "the device with the most FLOP/s in devices.csv "
			 "as of %d", m->as_of);
		add_device_as(m, "closest.speed", t, fast, how.data);
	}
	if (big != (size_t)-1) {
		buf_reset(&how);
		buf_addf(&how, "the device with the most storage in devices.csv "
			 "as of %d", m->as_of);
		add_device_as(m, "closest.memory", t, big, how.data);
	}
	for (i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
		if (pick[i] == (size_t)-1)
			continue;
		buf_reset(&name);
		buf_addf(&name, "current.%s", device_kinds[i]);
		buf_reset(&how);
		buf_addf(&how, "the newest %s in devices.csv as of %d",
			 device_kinds[i], m->as_of);
		add_device_as(m, name.data, t, pick[i], how.data);
	}
out:
	buf_release(&name);
	buf_release(&how);
	return diag_errors() == before ? 0 : -1;
}

/* The largest drive of the edition (not always the newest row). */
static void
add_current_disk(struct model *m, const struct series *disk)
{
	struct buf org = BUF_INIT;
	size_t i, k = 0;
	const struct table *t = disk->t;
	const char *src;

	for (i = 1; i < disk->n; i++)
		if (disk->value[i] >= disk->value[k])
			k = i;
	src = table_cell(t, disk->row[k], table_find(t, "source"));
	point_origin(disk, k, &org);
	registry_add_text(m->reg, "current.disk.name",
			  table_cell(t, disk->row[k], table_find(t, "model")),
			  "the largest drive in disk_capacity.csv of the "
			  "edition", NULL, src, org.data);
	registry_add_num(m->reg, "current.disk.year", floor(disk->time[k]),
			 "year", "year of that drive", NULL, src, org.data);
	registry_add_num(m->reg, "current.disk.storage", disk->value[k], "B",
			 "capacity of that drive", NULL, src, org.data);
	fx(m, "current.disk.bits", disk->value[k] * 8, "bit",
	   "current.disk.storage * bits_per_byte", NULL,
	   "current.disk.storage bits_per_byte", OURS);
	add_gap(m, "current.disk.gap.bits", "current.disk.bits",
		"laptop.bits_max", "current.disk.year");
	buf_release(&org);
}

/* The record holder: the newest TOP500 No. 1 of the edition. */
static void
add_record(struct model *m, const struct series *top)
{
	struct buf org = BUF_INIT;
	size_t k = top->n - 1, r = top->row[k];
	const struct table *t = top->t;
	const char *src = table_cell(t, r, table_find(t, "source"));

	point_origin(top, k, &org);
	registry_add_text(m->reg, "record.name",
			  table_cell(t, r, table_find(t, "system")),
			  "No. 1 of the newest TOP500 list of the edition",
			  NULL, src, org.data);
	registry_add_text(m->reg, "record.list",
			  table_cell(t, r, table_find(t, "list")),
			  "date of that list", NULL, src, org.data);
	registry_add_text(m->reg, "record.site",
			  table_cell(t, r, table_find(t, "site")),
			  "site of the record holder", NULL, src, org.data);
	registry_add_num(m->reg, "record.year", floor(top->time[k]), "year",
			 "year of that list", NULL, src, org.data);
	registry_add_num(m->reg, "record.rmax", top->value[k], "FLOP/s",
			 "Rmax of the record holder", NULL, src, org.data);
	fx(m, "record.sbops", top->value[k] * get(m, "sbops_per_flop"),
	   "ops/s", "record.rmax * sbops_per_flop", "SBOPS",
	   "record.rmax sbops_per_flop", HENSON2008);
	add_gap(m, "record.gap.ops", "record.sbops", "laptop.ops_max",
		"record.year");
	add_gap(m, "record.gap.atomic_ops", "record.sbops", "atomic.ops",
		"record.year");
	buf_release(&org);
}

static void
add_edition(struct model *m)
{
	num(m, "edition.year", m->as_of, "year",
	    "newest year of data used (--as-of, default the newest in data/)",
	    NULL, OURS);
}

/*
 * Curves for the sensitivity and scaling figures, computed from the same
 * physics as the quantities: years to the 1 kg speed limit as the
 * doubling time and the SBOPS-per-FLOP factor vary, and the limits of a
 * computer as its volume shrinks from a litre to a cubic micrometre.
 */
static void
add_curves(struct model *m)
{
	static const char *const rate_cols[] = { "doubling_time",
		"years_article_laptop", "years_record" };
	static const char *const sb_cols[] = { "sbops_per_flop",
		"years_article_laptop", "years_record" };
	static const char *const dust_cols[] = { "volume", "atomic_bits",
		"atomic_ops", "ultimate_bits", "ultimate_ops" };
	static const char *const rate_units[] = { "yr", "yr", "yr" };
	static const char *const sb_units[] = { "", "yr", "yr" };
	static const char *const dust_units[] = { "m^3", "bit", "ops/s",
		"bit", "ops/s" };
	const struct physconst *pc = m->pc;
	struct dataset *ds;
	double lim = get(m, "laptop.ops_max"), sb = get(m, "sbops_per_flop");
	double lap = get(m, "article.laptop_flops");
	double rec = get(m, "record.rmax");
	double rho = get(m, "laptop.mass") / get(m, "laptop.volume");
	double V0 = get(m, "laptop.volume");
	int i;

	ds = dataset_add(m->ds, "sensitivity_rate", "years to the 1 kg "
			 "speed limit against the doubling time", rate_cols,
			 rate_units, 3);
	for (i = 0; i <= 70; i++) {
		double td = 0.5 + 0.05 * i;
		double row[3] = { td, phys_years_to(lap * sb, lim, td),
				  phys_years_to(rec * sb, lim, td) };

		dataset_row(ds, row, NULL);
	}
	ds = dataset_add(m->ds, "sensitivity_sbops", "years to the 1 kg "
			 "speed limit against SBOPS per FLOP", sb_cols,
			 sb_units, 3);
	for (i = 0; i <= 60; i++) {
		double f = pow(10, 0.1 * i);
		double td = get(m, "rate.lloyd");
		double row[3] = { f, phys_years_to(lap * f, lim, td),
				  phys_years_to(rec * f, lim, td) };

		dataset_row(ds, row, NULL);
	}
	ds = dataset_add(m->ds, "dust", "bits and operations per second "
			 "against volume, from the smart dust's to a litre",
			 dust_cols, dust_units, 5);
	for (i = 0; i <= 75; i++) {
		double V = get(m, "dust.volume") * pow(10, 0.2 * i);
		double E = phys_rest_energy(pc, rho * V);
		double T = phys_rad_temperature(pc, E, V,
						get(m, "laptop.modes"));
		double row[5] = {
			V,
			phys_volume_scale(get(m, "atomic.bits"), V, V0),
			phys_volume_scale(get(m, "atomic.ops"), V, V0),
			phys_entropy_bits(pc, phys_rad_entropy(E, T)),
			phys_ml_ops(pc, E),
		};

		if (V > V0 * 1.0001)
			break;
		dataset_row(ds, row, NULL);
	}
}

/*
 * How formulas write the quantities (mathml.c): as physicists do, with
 * "_" before a subscript. The rest are written as their names.
 */
static const char *const symbols[][2] = {
	{ "const.c", "c" }, { "const.h", "h" }, { "const.hbar", "\xc4\xa7" },
	{ "const.k", "k_B" }, { "const.G", "G" }, { "const.sigma", "\xcf\x83" },
	{ "const.eV", "eV" }, { "bits_per_byte", "b" },
	{ "laptop.mass", "m" }, { "laptop.volume", "V" },
	{ "laptop.modes", "r" }, { "laptop.energy", "E" },
	{ "laptop.ops_max", "R_max" }, { "laptop.op_time_min", "\xce\x94t" },
	{ "laptop.temperature", "T" }, { "laptop.entropy", "S" },
	{ "laptop.bits_max", "I" }, { "laptop.flip_time", "t_flip" },
	{ "laptop.bb_bit_flux", "\xce\xa6" },
	{ "laptop.sphere_radius", "R" }, { "laptop.sphere_area", "A" },
	{ "laptop.cube_edge", "a" }, { "laptop.cube_area", "A_cube" },
	{ "laptop.sphere_crossing_time", "t_cross" },
	{ "laptop.sphere_reject_rate", "R_reject" },
	{ "atomic.energy_per_op", "E_op" }, { "atomic.bits", "I_atom" },
	{ "atomic.ops_per_bit", "\xce\xbd_op" }, { "atomic.ops", "R_atom" },
	{ "dust.volume", "V_dust" }, { "dust.mass", "m_dust" },
	{ "dust.scale", "s" },
	{ "blackhole.radius", "R_s" }, { "blackhole.bits", "I_BH" },
	{ "blackhole.hawking_temperature", "T_H" },
	{ "landauer.room_temperature", "T_room" },
	{ "landauer.power", "P" }, { "landauer.energy_room", "E_L" },
	{ "moore.lloyd_period", "\xcf\x84" },
	{ "moore.lloyd_factor", "f" }, { "universe.bits", "I_U" },
	{ "universe.doublings", "n_U" },
};

int
model_time_column(const struct table *t)
{
	const char *base = strrchr(table_name(t), '/');
	const char *col = NULL;
	size_t i;

	base = base ? base + 1 : table_name(t);
	if (!strcmp(base, "devices.csv"))
		col = "year";
	for (i = 0; !col && i < sizeof(series_specs) / sizeof(series_specs[0]);
	     i++)
		if (!strcmp(base, series_specs[i].file))
			col = series_specs[i].time_col;
	return col ? table_find(t, col) : -1;
}

int
model_row_year(const struct table *t, size_t row, int col)
{
	const char *cell;

	if (col < 0 || row >= table_rows(t))
		return 0;
	cell = table_cell(t, row, col);
	/* "2008" or "2008-06": the year is what leads. */
	return strspn(cell, "0123456789") >= 4 ? atoi(cell) : 0;
}

/* Largest year in any data file: the default edition. */
static int
newest_year(struct model *m)
{
	int newest = 0;
	size_t i, r;

	for (i = 0; i < sizeof(series_specs) / sizeof(series_specs[0]); i++) {
		struct table *t = load(m, series_specs[i].file);
		int c;

		if (!t)
			continue;
		c = table_find(t, series_specs[i].time_col);
		for (r = 0; c >= 0 && r < table_rows(t); r++) {
			int y = atoi(table_cell(t, r, c));

			if (y > newest && y <= YEAR_MAX)
				newest = y;
		}
	}
	return newest;
}

struct registry *
model_build(const char *datadir, int as_of, struct datasets *ds,
	    struct tableset *ts)
{
	struct tableset own = { 0 };
	struct model m = { .reg = registry_new(), .pc = &phys_codata2018,
			   .datadir = datadir, .as_of = as_of, .ds = ds,
			   .ts = ts ? ts : &own };
	struct series all[sizeof(series_specs) / sizeof(series_specs[0])];
	size_t before = diag_errors(), i;
	int ok = 0;

	memset(all, 0, sizeof(all));
	add_constants(&m);
	if (add_assumptions(&m, datadir))
		goto out;
	if (!m.as_of)
		m.as_of = newest_year(&m);
	if (diag_errors() != before)
		goto out;
	add_edition(&m);
	add_laptop(&m);
	add_atomic(&m);
	add_blackhole(&m);
	add_landauer(&m);
	add_moore(&m);
	if (add_series(&m, all) || m.failed)
		goto out;
	/* The fitted rates join the fixed ones for every gap below. */
	if (registry_get(m.reg, "series.top500.fit_all.doubling_time")) {
		fx(&m, "rate.top500", get(&m,
		   "series.top500.fit_all.doubling_time"), "yr",
		   "series.top500.fit_all.doubling_time",
		   "fitted doubling time of the TOP500 No. 1",
		   "series.top500.fit_all.doubling_time", OURS);
		add_rate(&m, "rate.top500", "TOP500 No. 1 trend");
	}
	if (registry_get(m.reg, "series.disk.fit_all.doubling_time")) {
		fx(&m, "rate.disk", get(&m,
		   "series.disk.fit_all.doubling_time"), "yr",
		   "series.disk.fit_all.doubling_time",
		   "fitted doubling time of disk capacity",
		   "series.disk.fit_all.doubling_time", OURS);
		add_rate(&m, "rate.disk", "disk capacity trend");
	}
	add_gap(&m, "article.gap.ops", "article.laptop_sbops",
		"laptop.ops_max", "article.year");
	add_gap(&m, "article.gap.bits", "article.laptop_bits",
		"laptop.bits_max", "article.year");
	add_doublings_between(&m, &all[2], "article.density_from",
			      "article.density_to");
	if (registry_get(m.reg, "rate.top500"))
		fx(&m, "universe.years_top500", get(&m, "universe.doublings") *
		   get(&m, "rate.top500"), "yr",
		   "universe.doublings * rate.top500",
		   "at the TOP500 No. 1 doubling time",
		   "universe.doublings rate.top500", OURS);
	add_record(&m, &all[0]);
	add_current_disk(&m, &all[1]);
	if (add_devices(&m))
		goto out;
	if (ds && !m.failed)
		add_curves(&m);
	ok = !m.failed && diag_errors() == before;
	for (i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		registry_set_symbol(m.reg, symbols[i][0], symbols[i][1]);
out:
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		series_release(&all[i]);
	tableset_release(&own);
	if (!ok) {
		registry_free(m.reg);
		return NULL;
	}
	return m.reg;
}
