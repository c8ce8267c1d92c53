/*
 * The model stage: data tables -> quantity registry. Reads the data
 * files (assumptions, devices, the history series, quantum processors)
 * from the table set (table.c), calls the pure functions of physics.c,
 * fits the series' trends (fit.c), and records each result with its
 * unit, formula, inputs and source; the series' points and the curves
 * of the figures go to the figure data (dataset.c). Formats no numbers
 * for the reader, but in error messages: that is the template stage's
 * job.
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

/*
 * Sources of what the code computes, as [key]s of data/references.csv,
 * which the pages link to its entry (bib.h).
 */
#define LLOYD2000 "[lloyd2000]"
#define HENSON2008 "[henson2008]"
#define CODATA "[codata2018]"
#define OURS "derived here"
/* An id (device.<id>, claim.<id>) is a part of quantities' names. */
_Static_assert(TABLE_ID_MAX <= REGISTRY_PART_MAX, "ids must fit names");
/*
 * Rows of devices.csv and assumptions.csv at most: each row makes many
 * quantities (a device some sixty), and every quantity is a row of the
 * quantities page. 200,000 devices took a minute and gigabytes.
 */
#define MAX_ROWS 10000

const char *const model_data_files[] = {
	"assumptions.csv", "devices.csv", "top500.csv", "disk_capacity.csv",
	"areal_density.csv", "transistors.csv", "ssd_capacity.csv",
	"quantum.csv", "claims.csv", NULL,
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
	{ "article.areal_doublings", "", 0, "a count of doublings must be "
	  "positive" },
	{ "particle.top_mass", "GeV", 0, "a mass must be positive" },
	{ "blackhole.mass_loss_constant", "kg^3/s", 0, "a rate must be "
	  "positive" },
	{ "blackhole.f_spin0", "", 0, "an emission weight must be positive" },
	{ "blackhole.f_spin_half_charged", "", 0, "an emission weight must be "
	  "positive" },
	{ "blackhole.f_spin_half_neutral", "", 0, "an emission weight must be "
	  "positive" },
	{ "blackhole.f_spin1", "", 0, "an emission weight must be positive" },
	{ "blackhole.f_spin2", "", 0, "an emission weight must be positive" },
	{ "blackhole.dof_spin0", "", -1, "a count cannot be negative" },
	{ "blackhole.dof_spin_half_charged", "", -1, "a count cannot be "
	  "negative" },
	{ "blackhole.dof_spin_half_neutral", "", -1, "a count cannot be "
	  "negative" },
	{ "blackhole.dof_spin1", "", -1, "a count cannot be negative" },
	{ "blackhole.dof_spin2", "", -1, "a count cannot be negative" },
	{ "blackhole.dof_photon", "", 0, "a count must be positive" },
	{ "sun.core_temperature", "K", 0, "a temperature must be positive" },
	{ "sun.luminosity", "W", 0, "a power must be positive" },
	{ "proton.radius", "m", 0, "a radius must be positive" },
};

struct model {
	struct registry *reg;
	const struct physconst *pc;
	const char *datadir;
	int failed;	/* a quantity could not be added: add no more */
	int as_of;	/* edition: rows after this year are left out */
	/*
	 * The newest year of the history series (and the file of the row),
	 * the newest edition: a row of another file dated after it would
	 * be in no edition, and is an error.
	 */
	int newest;
	const char *newest_file;
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
		if (registry_name_problem(name)) {
			table_error(t, r, cname, "'%s' is not a valid name: %s",
				    name, registry_name_problem(name));
			continue;
		}
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
	   "[bremermann1962]");
	fx(m, "laptop.bekenstein_bits",
	   phys_bekenstein_bits(pc, phys_sphere_radius(V), E), "bit",
	   "2 * pi * laptop.sphere_radius * laptop.energy / (const.hbar * "
	   "const.c * ln(2))", "Bekenstein bound, sphere",
	   "laptop.sphere_radius laptop.energy const.hbar const.c",
	   "[bekenstein1981]");
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

static void add_blackhole_species(struct model *m);

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
	   "[hawking1975]");
	fx(m, "blackhole.lifetime", phys_hawking_lifetime(pc, mass), "s",
	   "5120 * pi * const.G^2 * laptop.mass^3 / (const.hbar * const.c^4)",
	   "photon-only convention", "laptop.mass const.G const.hbar const.c",
	   "Hawking (1975); photon-only evaporation");
	fx(m, "blackhole.time_scale", phys_hawking_time_scale(pc, mass), "s",
	   "const.G^2 * laptop.mass^3 / (const.hbar * const.c^4)",
	   "the scale all conventions share",
	   "laptop.mass const.G const.hbar const.c", OURS);
	add_blackhole_species(m);
}

#define MACGIBBON "[macgibbon1990]; [macgibbon1991]; [page1976]"

/*
 * Which species the black hole radiates, and its lifetime counting them
 * all. The mass-loss rate is dM/dt = -K f / M^2 (MacGibbon 1991), where
 * f adds up, over every species light compared with kT, its degrees of
 * freedom times a greybody-weighted emission per degree of freedom that
 * depends on the spin (Page 1976; MacGibbon and Webber 1990). With f
 * constant, the hole lives M^3 / (3 K f).
 */
static void
add_blackhole_species(struct model *m)
{
	const struct physconst *pc = m->pc;
	double T = get(m, "blackhole.hawking_temperature");
	double mass = get(m, "laptop.mass");
	double K = get(m, "blackhole.mass_loss_constant");
	double kT, f_all, f_ph, t_all, t_ph;

	kT = fx(m, "blackhole.kT", pc->k * T / (1e9 * pc->eV), "GeV",
		"const.k * blackhole.hawking_temperature",
		"thermal energy at the Hawking temperature, in GeV",
		"const.k blackhole.hawking_temperature", OURS);
	fx(m, "blackhole.kT_over_top", kT / get(m, "particle.top_mass"), "",
	   "blackhole.kT / particle.top_mass",
	   "kT against the heaviest known particle: far above 1, every "
	   "Standard Model species radiates as if massless",
	   "blackhole.kT particle.top_mass", OURS);
	f_all = fx(m, "blackhole.f_all",
		   get(m, "blackhole.dof_spin0") * get(m, "blackhole.f_spin0") +
		   get(m, "blackhole.dof_spin_half_charged") *
		   get(m, "blackhole.f_spin_half_charged") +
		   get(m, "blackhole.dof_spin_half_neutral") *
		   get(m, "blackhole.f_spin_half_neutral") +
		   get(m, "blackhole.dof_spin1") * get(m, "blackhole.f_spin1") +
		   get(m, "blackhole.dof_spin2") * get(m, "blackhole.f_spin2"),
		   "", "blackhole.dof_spin0 * blackhole.f_spin0 + "
		   "blackhole.dof_spin_half_charged * "
		   "blackhole.f_spin_half_charged + "
		   "blackhole.dof_spin_half_neutral * "
		   "blackhole.f_spin_half_neutral + blackhole.dof_spin1 * "
		   "blackhole.f_spin1 + blackhole.dof_spin2 * blackhole.f_spin2",
		   "emission factor f(M) of every Standard Model species and "
		   "the graviton: degrees of freedom times the emission of "
		   "each, by spin",
		   "blackhole.dof_spin0 blackhole.f_spin0 "
		   "blackhole.dof_spin_half_charged "
		   "blackhole.f_spin_half_charged "
		   "blackhole.dof_spin_half_neutral "
		   "blackhole.f_spin_half_neutral blackhole.dof_spin1 "
		   "blackhole.f_spin1 blackhole.dof_spin2 blackhole.f_spin2",
		   MACGIBBON);
	f_ph = fx(m, "blackhole.f_photon", get(m, "blackhole.dof_photon") *
		  get(m, "blackhole.f_spin1"), "",
		  "blackhole.dof_photon * blackhole.f_spin1",
		  "emission factor f(M) of photons alone",
		  "blackhole.dof_photon blackhole.f_spin1", MACGIBBON);
	t_all = fx(m, "blackhole.lifetime_all_species",
		   mass * mass * mass / (3 * K * f_all), "s",
		   "laptop.mass^3 / (3 * blackhole.mass_loss_constant * "
		   "blackhole.f_all)",
		   "estimate: every Standard Model species radiating as if "
		   "massless, with its greybody factor; particles beyond the "
		   "Standard Model, if any, would shorten it further",
		   "laptop.mass blackhole.mass_loss_constant blackhole.f_all",
		   MACGIBBON);
	t_ph = fx(m, "blackhole.lifetime_photons",
		  mass * mass * mass / (3 * K * f_ph), "s",
		  "laptop.mass^3 / (3 * blackhole.mass_loss_constant * "
		  "blackhole.f_photon)",
		  "photons alone, with their greybody factor",
		  "laptop.mass blackhole.mass_loss_constant blackhole.f_photon",
		  MACGIBBON);
	fx(m, "blackhole.lifetime_ratio", t_ph / t_all, "",
	   "blackhole.lifetime_photons / blackhole.lifetime_all_species",
	   "how much sooner the hole is gone when every species radiates, "
	   "against photons alone (same greybody treatment)",
	   "blackhole.lifetime_photons blackhole.lifetime_all_species", OURS);
	fx(m, "blackhole.lifetime_ratio_bb",
	   get(m, "blackhole.lifetime") / t_all, "",
	   "blackhole.lifetime / blackhole.lifetime_all_species",
	   "the photon-only black-body lifetime against the all-species one",
	   "blackhole.lifetime blackhole.lifetime_all_species", OURS);
}

/*
 * Scales a reader can feel: the ultimate laptop against the Sun, and
 * the black hole against a proton.
 */
static void
add_scale(struct model *m)
{
	double T = get(m, "laptop.temperature"), P;

	fx(m, "scale.laptop_over_sun_core",
	   T / get(m, "sun.core_temperature"), "",
	   "laptop.temperature / sun.core_temperature",
	   "the ultimate laptop's temperature against the Sun's core",
	   "laptop.temperature sun.core_temperature", OURS);
	P = fx(m, "laptop.radiated_power", get(m, "const.sigma") * T * T * T *
	       T * get(m, "laptop.sphere_area"), "W",
	       "const.sigma * laptop.temperature^4 * laptop.sphere_area",
	       "black-body power through the surface of a sphere of one "
	       "litre", "const.sigma laptop.temperature laptop.sphere_area",
	       OURS);
	fx(m, "scale.laptop_power_over_sun", P / get(m, "sun.luminosity"), "",
	   "laptop.radiated_power / sun.luminosity",
	   "the ultimate laptop's glow against the Sun's whole output",
	   "laptop.radiated_power sun.luminosity", OURS);
	fx(m, "laptop.radiation_time", get(m, "laptop.energy") / P, "s",
	   "laptop.energy / laptop.radiated_power",
	   "time to radiate its whole rest energy at that power",
	   "laptop.energy laptop.radiated_power", OURS);
	fx(m, "scale.blackhole_over_proton",
	   get(m, "blackhole.radius") / get(m, "proton.radius"), "",
	   "blackhole.radius / proton.radius",
	   "the 1 kg black hole's horizon against the proton's radius",
	   "blackhole.radius proton.radius", OURS);
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
	   "[landauer1961]");
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
	   "[krauss2004]");
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
	const char *factor;	/* quantity the value is multiplied by, or NULL */
	const char *scaled_unit;	/* of the value times factor */
	/* Limits the trend is extrapolated to, after scaling by factor. */
	const char *limits[2];
	const char *limit_names[2];
	/*
	 * Records only: of each year the largest row, and only when it is
	 * at least the largest of every year before (the frontier a trend
	 * of "the largest drive" is about; milestones of form factor or
	 * technology that were never the largest of their year drop out).
	 */
	int record;
	int optional;	/* an edition may have no rows: no quantities then */
};

static const struct series_spec series_specs[] = {
	{ "top500", "top500.csv", "list", "rmax_flops", "system", "FLOP/s",
	  "No. 1 system of each TOP500 list (Rmax)", 1, "sbops_per_flop",
	  "ops/s", { "laptop.ops_max", "atomic.ops" }, { "ml", "atomic" }, 0, 0 },
	{ "disk", "disk_capacity.csv", "year", "capacity_bytes", "model", "B",
	  "largest hard disk of its year", 0, "bits_per_byte", "bit",
	  { "laptop.bits_max", "atomic.bits" }, { "entropy", "atomic" }, 0, 0 },
	{ "areal", "areal_density.csv", "year", "density_bit_per_in2",
	  "product", "bit/in^2", "hard-disk areal density", 0, NULL, NULL,
	  { NULL, NULL }, { NULL, NULL }, 0, 0 },
	{ "transistors", "transistors.csv", "year", "transistors",
	  "processor", "", "transistors per microprocessor", 0, NULL, NULL,
	  { NULL, NULL }, { NULL, NULL }, 0, 0 },
	{ "disk_record", "disk_capacity.csv", "year", "capacity_bytes", "model",
	  "B", "record hard disks (the largest of each year, when no earlier "
	  "drive was larger)", 0, "bits_per_byte", "bit",
	  { "laptop.bits_max", "atomic.bits" }, { "entropy", "atomic" }, 1, 0 },
	{ "ssd", "ssd_capacity.csv", "year", "capacity_bytes", "model", "B",
	  "record solid-state drives (the largest of each year, when no "
	  "earlier drive was larger)", 0, "bits_per_byte", "bit",
	  { "laptop.bits_max", "atomic.bits" }, { "entropy", "atomic" }, 1, 1 },
};

/* Indices into series_specs[] (and the series model_build() reads). */
enum { S_TOP500, S_DISK, S_AREAL, S_TRANSISTORS, S_DISK_RECORD, S_SSD };

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
 * Keeps, of the points of from (a series in time order), the largest of
 * each year (the first of equals) when it is at least every point of the
 * years before: the record holders, one a year at most. They go into se,
 * which is from itself (thinned in place) or an empty series (given
 * arrays of just that size: a copy of a million points that keeps a
 * hundred holds a hundred).
 */
static void
series_keep_records(const struct series *from, struct series *se)
{
	size_t i, j, k = 0, best;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		double top = -INFINITY;

		for (i = 0, k = 0; i < from->n; i = j) {
			best = i;
			for (j = i + 1; j < from->n && floor(from->time[j]) ==
			     floor(from->time[i]); j++)
				if (from->value[j] > from->value[best])
					best = j;
			if (from->value[best] < top)
				continue;
			top = from->value[best];
			/* In place, k <= i: nothing still to read is lost. */
			if (pass) {
				se->time[k] = from->time[best];
				se->value[k] = from->value[best];
				se->row[k] = from->row[best];
			}
			k++;
		}
		if (!pass && se != from) {
			se->time = xmalloc(sizeof(*se->time) * (k + 1));
			se->value = xmalloc(sizeof(*se->value) * (k + 1));
			se->row = xmalloc(sizeof(*se->row) * (k + 1));
		}
	}
	se->n = k;
}

/*
 * Reads one series: every row checked (time, positive value, label,
 * source; rows in time order, one per time when the spec says so), rows
 * newer than the edition skipped, the rest thinned to the records when
 * the spec asks for them. Returns -1 on errors.
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
	if (sp->record)
		series_keep_records(se, se);
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
 * A series read from the same file as one read before (its rows checked
 * and reported once): a copy of its points, thinned to records if sp
 * asks for them.
 */
static void
series_copy(const struct series *from, const struct series_spec *sp,
	    struct series *se)
{
	memset(se, 0, sizeof(*se));
	se->spec = sp;
	se->t = from->t;
	if (sp->record) {
		series_keep_records(from, se);
		return;
	}
	se->n = from->n;
	se->time = xmalloc(sizeof(*se->time) * (from->n + 1));
	se->value = xmalloc(sizeof(*se->value) * (from->n + 1));
	se->row = xmalloc(sizeof(*se->row) * (from->n + 1));
	if (from->n) {
		memcpy(se->time, from->time, sizeof(*se->time) * from->n);
		memcpy(se->value, from->value, sizeof(*se->value) * from->n);
		memcpy(se->row, from->row, sizeof(*se->row) * from->n);
	}
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
	char bad[sizeof(series_specs) / sizeof(series_specs[0])] = { 0 };
	size_t i, k;
	int ret = 0;

	for (i = 0; i < sizeof(series_specs) / sizeof(series_specs[0]); i++) {
		const struct series_spec *sp = &series_specs[i];
		struct series *se = &all[i];
		const char *src;
		size_t j;

		for (j = 0; j < i && strcmp(series_specs[j].file, sp->file);
		     j++)
			;
		if (j < i) {
			/* Its rows were checked, and any error told, once. */
			if (bad[j]) {
				bad[i] = 1;
				continue;
			}
			series_copy(&all[j], sp, se);
		} else if (series_read(m, sp, se)) {
			bad[i] = 1;
			ret = -1;
			continue;
		}
		if (!se->n) {
			bad[i] = 1;
			if (!sp->optional)
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
		registry_add_num(m->reg, SET(name, "series.%s.first_year",
					     sp->id), floor(se->time[0]),
				 "year", "year of the first row", NULL,
				 table_cell(se->t, se->row[0],
					    table_find(se->t, "source")),
				 point_origin(se, 0, &org));
		registry_add_num(m->reg, SET(name, "series.%s.latest.year",
					     sp->id), floor(se->time[k]),
				 "year", "year of the newest row", NULL,
				 table_cell(se->t, se->row[k],
					    table_find(se->t, "source")),
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

/*
 * A trend is fitted only to lists spanning at least this many years: over
 * a shorter window the line follows the noise of single lists (the two
 * lists of 2008 alone give Roadrunner's rerun a doubling time of years).
 */
#define TREND_MIN_YEARS 3.0

/* 1 when the n points (t, v) in [lo, hi] span TREND_MIN_YEARS or more. */
static int
long_enough(const double *t, const double *v, size_t n, double lo,
	    double hi)
{
	struct fit f;

	return !fit_log2(t, v, n, lo, hi, &f) && f.t1 - f.t0 >= TREND_MIN_YEARS;
}

/*
 * The TOP500 No. 1 since the article: its trend from the article's year
 * on, with the years it reaches each limit (add_fit()), and how much the
 * pace changed against the trend up to the article's year: the ratio of
 * the doubling times, and what that earlier trend predicts for the
 * newest list against the record actually set. Editions with too short a
 * window after the article have none of these.
 */
static void
add_pace(struct model *m, const struct series *top)
{
	struct buf org = BUF_INIT;
	double art = get(m, "article.year"), hi = m->as_of + 0.999;
	size_t k = top->n - 1;

	registry_add_num(m->reg, "series.top500.latest.time", top->time[k],
			 "year", "date of the newest list as a decimal year "
			 "(mid-month)", NULL, table_cell(top->t, top->row[k],
			 table_find(top->t, "source")),
			 point_origin(top, k, &org));
	if (!long_enough(top->time, top->value, top->n, art, hi) ||
	    !registry_get(m->reg, "series.top500.fit_article.value_to"))
		goto out;
	add_fit(m, top, "since", "from the article's year on", art, hi);
	fx(m, "series.top500.pace.slowdown",
	   get(m, "series.top500.fit_since.doubling_time") /
	   get(m, "series.top500.fit_article.doubling_time"), "",
	   "series.top500.fit_since.doubling_time / "
	   "series.top500.fit_article.doubling_time",
	   "how many times longer a doubling takes since the article than "
	   "before it",
	   "series.top500.fit_since.doubling_time "
	   "series.top500.fit_article.doubling_time", OURS);
	fx(m, "series.top500.fit_article.value_latest",
	   get(m, "series.top500.fit_article.value_to") *
	   pow(2, get(m, "series.top500.fit_article.slope") *
	       (top->time[k] - get(m, "series.top500.fit_article.to"))),
	   "FLOP/s", "series.top500.fit_article.value_to * "
	   "2^(series.top500.fit_article.slope * (series.top500.latest.time - "
	   "series.top500.fit_article.to))",
	   "the trend up to the article's year, extended to the newest list",
	   "series.top500.fit_article.value_to series.top500.fit_article.slope "
	   "series.top500.latest.time series.top500.fit_article.to", OURS);
	fx(m, "series.top500.pace.shortfall",
	   get(m, "series.top500.fit_article.value_latest") / top->value[k],
	   "", "series.top500.fit_article.value_latest / "
	   "series.top500.latest.value",
	   "how many times faster the newest No. 1 would be had the pace "
	   "before the article held",
	   "series.top500.fit_article.value_latest series.top500.latest.value",
	   OURS);
out:
	buf_release(&org);
}

/*
 * Energy per operation of the TOP500 No. 1, from the power published with
 * each list (the optional column power_w; every cell is checked, empty
 * cells are lists without a figure): the record's energy per FLOP and per
 * single-bit operation, its distance above Landauer's kT ln 2 at room
 * temperature, the trend of the energy per FLOP over the lists with power
 * (halving time, the year it reaches Landauer) beside the trends of Rmax
 * and power over the same lists, and the article's No. 1 against the
 * newest. Returns -1 after printing errors in the column.
 */
static int
add_energy(struct model *m, const struct series *top)
{
	const struct physconst *pc = m->pc;
	const struct table *t = top->t;
	int cp = table_find(t, "power_w");
	size_t r, i, n = 0, k = top->n - 1, before = diag_errors();
	size_t first_art = top->n;
	double *tt = NULL, *ej = NULL, *pw = NULL, *rx = NULL;
	double *power = NULL, art = get(m, "article.year");
	struct buf org = BUF_INIT;
	struct dataset *ds = NULL;
	struct fit fe, fr, fp;
	int ret = 0;

	/* What one operation holds in the ultimate laptop: no data needed. */
	fx(m, "laptop.op_energy",
	   PHYS_PI * pc->hbar / (2 * get(m, "laptop.flip_time")), "J/op",
	   "pi * const.hbar / (2 * laptop.flip_time)",
	   "Margolus-Levitin energy of one operation that lasts the laptop's "
	   "flip time; equals its energy per bit, held, not dissipated",
	   "const.hbar laptop.flip_time", LLOYD2000);
	if (cp < 0)
		goto out;
	for (r = 0; r < table_rows(t); r++) {
		double w;

		table_num(t, r, cp, TABLE_POSITIVE | TABLE_OPTIONAL, &w);
	}
	if (diag_errors() != before) {
		ret = -1;
		goto out;
	}
	power = xcalloc(top->n, sizeof(*power));
	tt = xcalloc(top->n, sizeof(*tt));
	ej = xcalloc(top->n, sizeof(*ej));
	pw = xcalloc(top->n, sizeof(*pw));
	rx = xcalloc(top->n, sizeof(*rx));
	if (m->ds) {
		static const char *const cols[] = { "year", "power_w",
			"j_per_flop", "j_per_op" };
		static const char *const units[] = { "year", "W", "J/FLOP",
			"J/op" };

		ds = dataset_add(m->ds, "energy", "the TOP500 No. 1 of each "
				 "list with a published power: power, energy "
				 "per FLOP and per single-bit operation", cols,
				 units, 4);
	}
	for (i = 0; i < top->n; i++) {
		table_num(t, top->row[i], cp, TABLE_OPTIONAL, &power[i]);
		if (first_art == top->n && floor(top->time[i]) >= art)
			first_art = i;
		if (isnan(power[i]))
			continue;
		tt[n] = top->time[i];
		pw[n] = power[i];
		rx[n] = top->value[i];
		ej[n] = power[i] / top->value[i];
		if (ds) {
			double row[4] = { tt[n], pw[n], ej[n],
					  ej[n] / get(m, "sbops_per_flop") };

			dataset_row(ds, row, table_cell(t, top->row[i],
				    table_find(t, "system")));
		}
		n++;
	}

	/* The trend of the energy per FLOP, and of Rmax and power with it. */
	if (n >= 2 && long_enough(tt, ej, n, -INFINITY, INFINITY) &&
	    !fit_log2(tt, ej, n, -INFINITY, INFINITY, &fe) &&
	    !fit_log2(tt, rx, n, -INFINITY, INFINITY, &fr) &&
	    !fit_log2(tt, pw, n, -INFINITY, INFINITY, &fp) && fe.b < 0 &&
	    fr.b > 0) {
		const char *src = table_name(t);

		num(m, "energy.fit.n", (double)fe.n, "", "lists whose No. 1 "
		    "has a published power, in this edition", NULL, src);
		num(m, "energy.fit.from", floor(fe.t0), "year",
		    "first year with a published power", NULL, src);
		num(m, "energy.fit.to", floor(fe.t1), "year",
		    "last year with a published power", NULL, src);
		num(m, "energy.fit.slope", fe.b, "1/yr", "least-squares slope "
		    "of log2(power / Rmax) of the No. 1 against time", NULL,
		    src);
		num(m, "energy.fit.intercept", fe.a, "", "log2(J per FLOP) at "
		    "year 0 on the fitted line: log2(e) = intercept + slope x "
		    "year", NULL, src);
		num(m, "energy.fit.r2", fe.r2, "", "coefficient of "
		    "determination of the fit", NULL, src);
		fx(m, "energy.fit.halving_time", -1 / fe.b, "yr",
		   "-1 / energy.fit.slope", "halving time of the energy per "
		   "FLOP: the doubling time of FLOP/s per watt",
		   "energy.fit.slope", OURS);
		num(m, "energy.fit.value_to", fit_value_at(&fe, floor(fe.t1)),
		    "J/FLOP", "energy per FLOP on the fitted line at its last "
		    "year", NULL, src);
		fx(m, "energy.fit.year_landauer",
		   floor(floor(fe.t1) + log2(get(m, "landauer.energy_room") *
		   get(m, "sbops_per_flop") / fit_value_at(&fe,
		   floor(fe.t1))) / fe.b), "year",
		   "floor(energy.fit.to + log2(landauer.energy_room * "
		   "sbops_per_flop / energy.fit.value_to) / energy.fit.slope)",
		   "the year the fitted line reaches kT ln 2 at room "
		   "temperature for each single-bit operation",
		   "energy.fit.to landauer.energy_room sbops_per_flop "
		   "energy.fit.value_to energy.fit.slope", OURS);
		num(m, "energy.fit_rmax.slope", fr.b, "1/yr", "least-squares "
		    "slope of log2(Rmax) over the same lists", NULL, src);
		fx(m, "energy.fit_rmax.doubling_time", 1 / fr.b, "yr",
		   "1 / energy.fit_rmax.slope", "doubling time of Rmax over "
		   "the lists with a published power",
		   "energy.fit_rmax.slope", OURS);
		num(m, "energy.fit_power.slope", fp.b, "1/yr", "least-squares "
		    "slope of log2(power) over the same lists (the slope of "
		    "Rmax plus that of the energy per FLOP)", NULL, src);
		if (fp.b > 0)
			fx(m, "energy.fit_power.doubling_time", 1 / fp.b, "yr",
			   "1 / energy.fit_power.slope", "doubling time of "
			   "the No. 1's power", "energy.fit_power.slope",
			   OURS);
		fx(m, "energy.efficiency_lag", (-1 / fe.b) / (1 / fr.b), "",
		   "energy.fit.halving_time / energy.fit_rmax.doubling_time",
		   "how many times longer FLOP/s per watt takes to double "
		   "than FLOP/s", "energy.fit.halving_time "
		   "energy.fit_rmax.doubling_time", OURS);
	}

	/* The record holder of the edition, when its list gives power. */
	if (!isnan(power[k])) {
		const char *src = table_cell(t, top->row[k],
					     table_find(t, "source"));

		point_origin(top, k, &org);
		registry_add_num(m->reg, "record.power", power[k], "W",
				 "power of the record holder during its run",
				 NULL, src, org.data);
		fx(m, "record.energy_per_flop", power[k] / top->value[k],
		   "J/FLOP", "record.power / record.rmax", NULL,
		   "record.power record.rmax", OURS);
		fx(m, "record.energy_per_op", power[k] / top->value[k] /
		   get(m, "sbops_per_flop"), "J/op",
		   "record.energy_per_flop / sbops_per_flop",
		   "per single-bit operation",
		   "record.energy_per_flop sbops_per_flop", HENSON2008);
		fx(m, "record.gap.landauer.orders",
		   log10(get(m, "record.energy_per_op") /
			 get(m, "landauer.energy_room")), "",
		   "log10(record.energy_per_op / landauer.energy_room)",
		   "orders of magnitude above kT ln 2 at room temperature, "
		   "counting one bit erased per single-bit operation",
		   "record.energy_per_op landauer.energy_room", OURS);
		fx(m, "record.gap.landauer.halvings",
		   log2(get(m, "record.energy_per_op") /
			get(m, "landauer.energy_room")), "",
		   "log2(record.energy_per_op / landauer.energy_room)",
		   "halvings of the energy per operation to kT ln 2",
		   "record.energy_per_op landauer.energy_room", OURS);
		if (registry_get(m->reg, "energy.fit.halving_time")) {
			fx(m, "record.gap.landauer.years",
			   get(m, "record.gap.landauer.halvings") *
			   get(m, "energy.fit.halving_time"), "yr",
			   "record.gap.landauer.halvings * "
			   "energy.fit.halving_time",
			   "at the fitted halving time of the energy per FLOP",
			   "record.gap.landauer.halvings "
			   "energy.fit.halving_time", OURS);
			fx(m, "record.gap.landauer.year",
			   get(m, "record.year") +
			   get(m, "record.gap.landauer.years"), "year",
			   "record.year + record.gap.landauer.years",
			   "the year the record's energy per operation would "
			   "reach kT ln 2 at that pace",
			   "record.year record.gap.landauer.years", OURS);
		}
		fx(m, "record.gap.laptop_op.ratio",
		   get(m, "record.energy_per_op") /
		   get(m, "laptop.op_energy"), "",
		   "record.energy_per_op / laptop.op_energy",
		   "energy the record dissipates per single-bit operation, "
		   "over the energy one operation holds in the ultimate laptop",
		   "record.energy_per_op laptop.op_energy", OURS);
	}

	/* Then and now: the No. 1 of the article's first list against it. */
	if (first_art < top->n && !isnan(power[first_art]) &&
	    registry_get(m->reg, "record.power")) {
		size_t a = first_art;
		const char *src = table_cell(t, top->row[a],
					     table_find(t, "source"));

		point_origin(top, a, &org);
		/* Only while the record has a power figure. */
		registry_set_because(m->reg, "record.list");
		registry_add_text(m->reg, "article.record.name",
				  table_cell(t, top->row[a],
					     table_find(t, "system")),
				  "No. 1 of the first TOP500 list of the "
				  "article's year", NULL, src, org.data);
		registry_add_text(m->reg, "article.record.list",
				  table_cell(t, top->row[a],
					     table_find(t, "list")),
				  "date of that list", NULL, src, org.data);
		registry_add_num(m->reg, "article.record.rmax", top->value[a],
				 "FLOP/s", "Rmax of that No. 1", NULL, src,
				 org.data);
		registry_add_num(m->reg, "article.record.power", power[a], "W",
				 "power of that No. 1 during its run", NULL,
				 src, org.data);
		fx(m, "article.record.energy_per_flop",
		   power[a] / top->value[a], "J/FLOP",
		   "article.record.power / article.record.rmax", NULL,
		   "article.record.power article.record.rmax", OURS);
		fx(m, "energy.power_ratio", power[k] / power[a], "",
		   "record.power / article.record.power",
		   "the No. 1's power now over then",
		   "record.power article.record.power", OURS);
		fx(m, "energy.speed_ratio", top->value[k] / top->value[a], "",
		   "record.rmax / article.record.rmax",
		   "the No. 1's Rmax now over then",
		   "record.rmax article.record.rmax", OURS);
		fx(m, "energy.efficiency_ratio",
		   (power[a] / top->value[a]) / (power[k] / top->value[k]), "",
		   "article.record.energy_per_flop / record.energy_per_flop",
		   "how many times less energy a FLOP takes now than then",
		   "article.record.energy_per_flop record.energy_per_flop",
		   OURS);
		registry_set_because(m->reg, NULL);
	}
out:
	free(power);
	free(tt);
	free(ej);
	free(pw);
	free(rx);
	buf_release(&org);
	return ret;
}

/*
 * The article's "64 more doublings ... at this historical rate": the
 * memory gap in years at the pace of areal density over the article's
 * window, as the data give it and as the article counts it.
 */
static void
add_areal_pace(struct model *m)
{
	double span = get(m, "article.density_to") -
		get(m, "article.density_from");
	double n = get(m, "article.gap.bits.doublings");

	if (!registry_get(m->reg, "series.areal.doublings_window"))
		return;
	fx(m, "series.areal.years_per_doubling_window",
	   span / get(m, "series.areal.doublings_window"), "yr",
	   "(article.density_to - article.density_from) / "
	   "series.areal.doublings_window",
	   "years per doubling of areal density over the article's window",
	   "article.density_to article.density_from "
	   "series.areal.doublings_window", OURS);
	fx(m, "article.gap.bits.years_areal",
	   n * get(m, "series.areal.years_per_doubling_window"), "yr",
	   "article.gap.bits.doublings * series.areal.years_per_doubling_window",
	   "the article's memory gap at the historical pace of areal density",
	   "article.gap.bits.doublings series.areal.years_per_doubling_window",
	   OURS);
	fx(m, "article.gap.bits.years_article_pace",
	   n * span / get(m, "article.areal_doublings"), "yr",
	   "article.gap.bits.doublings * (article.density_to - "
	   "article.density_from) / article.areal_doublings",
	   "the same gap at the article's own count of areal doublings",
	   "article.gap.bits.doublings article.density_to "
	   "article.density_from article.areal_doublings", OURS);
}

/* Device kinds, each with a "current" and a "then" pick. */
static const char *const device_kinds[] = {
	"laptop", "netbook", "supercomputer", "gpu", "phone",
};
#define NKINDS (sizeof(device_kinds) / sizeof(device_kinds[0]))

/*
 * The speed figures a row of devices.csv may give, each optional: what
 * each is (precision, peak or measured) is in its column's name. The
 * order is the order of preference when two machines are compared: FP64
 * with FP64 where both give it, else FP32 with FP32, else measured with
 * measured.
 */
enum fig { FIG_FP64, FIG_FP32, FIG_HPL, NFIG };
static const struct {
	const char *col;	/* column of devices.csv */
	const char *name;	/* quantity: <prefix>.<name> */
	const char *what;	/* for the reader */
} figs[NFIG] = {
	{ "fp64_peak_flops", "fp64_peak", "FP64 peak" },
	{ "fp32_peak_flops", "fp32_peak", "FP32 peak" },
	{ "hpl_rmax_flops", "hpl_rmax", "measured HPL Rmax" },
};

/* One row of devices.csv as read; NAN where a cell is empty. */
struct devrow {
	const char *id, *name, *kind, *source;
	int year;
	size_t kindi;		/* index into device_kinds */
	double fig[NFIG];
	double ram, storage;	/* bytes: working memory, persistent */
	double mass, vol, power;	/* kg, litres, W */
	enum fig speed;		/* the figure of its speed gap */
};

/*
 * A row of devices.csv or quantum.csv dated after the newest year of the
 * history series would be in no edition, left out without a word (a
 * mistyped 2062 for 2026): an error at its date cell. Returns -1 then.
 */
static int
after_newest(struct model *m, const struct table *t, size_t r, int col,
	     int year)
{
	if (!m->newest || year <= m->newest)
		return 0;
	return table_error(t, r, col, "dated %d, after the newest year of "
			   "the data (%d, in %s): no edition would show this "
			   "row", year, m->newest, m->newest_file);
}

/* The required columns of devices.csv, in the order of struct devrow. */
static const char *const device_cols[] = {
	"id", "name", "year", "kind", "fp64_peak_flops", "fp32_peak_flops",
	"hpl_rmax_flops", "ram_bytes", "storage_bytes", "source",
};

/*
 * Which figure a device's speed gap is measured from: its highest peak
 * rate at 64 or 32 bits (FP64 when the two are equal), or, when it
 * gives no peak, its measured rate. Returns NFIG when it gives none.
 */
static enum fig
speed_figure(const double *fig)
{
	if (!isnan(fig[FIG_FP64]) && !(fig[FIG_FP32] > fig[FIG_FP64]))
		return FIG_FP64;
	if (!isnan(fig[FIG_FP32]))
		return FIG_FP32;
	return isnan(fig[FIG_HPL]) ? NFIG : FIG_HPL;
}

static double
optional_num(const struct table *t, size_t r, const char *col, int *bad)
{
	int c = table_find(t, col);
	double v = NAN;

	if (c >= 0)
		*bad |= table_num(t, r, c, TABLE_POSITIVE | TABLE_OPTIONAL,
				  &v);
	return v;
}

/*
 * Reads row r of devices.csv (whose required columns are ci[]) into d,
 * checking every cell. Returns -1 after printing the row's errors.
 */
static int
devrow_read(const struct table *t, const int *ci, size_t r,
	    struct devrow *d)
{
	int bad = 0;
	size_t i;

	bad |= table_id(t, r, ci[0], &d->id);
	bad |= table_text(t, r, ci[1], &d->name);
	bad |= table_year(t, r, ci[2], YEAR_MIN, YEAR_MAX, &d->year);
	bad |= table_text(t, r, ci[3], &d->kind);
	for (i = 0; i < NFIG; i++)
		bad |= table_num(t, r, ci[4 + i], TABLE_POSITIVE |
				 TABLE_OPTIONAL, &d->fig[i]);
	bad |= table_num(t, r, ci[7], TABLE_POSITIVE | TABLE_OPTIONAL,
			 &d->ram);
	bad |= table_num(t, r, ci[8], TABLE_POSITIVE | TABLE_OPTIONAL,
			 &d->storage);
	bad |= table_text(t, r, ci[9], &d->source);
	d->mass = optional_num(t, r, "mass_kg", &bad);
	d->vol = optional_num(t, r, "volume_l", &bad);
	d->power = optional_num(t, r, "power_w", &bad);
	if (bad)
		return -1;
	for (d->kindi = 0; d->kindi < NKINDS; d->kindi++)
		if (!strcmp(device_kinds[d->kindi], d->kind))
			break;
	if (d->kindi == NKINDS)
		return table_error(t, r, ci[3], "unknown kind '%s': expected "
				   "laptop, netbook, supercomputer, gpu or "
				   "phone", d->kind);
	d->speed = speed_figure(d->fig);
	if (d->speed == NFIG)
		return table_error(t, r, ci[4], "no speed figure: give "
				   "fp64_peak_flops, fp32_peak_flops or "
				   "hpl_rmax_flops");
	if (d->fig[FIG_HPL] > d->fig[FIG_FP64])
		return table_error(t, r, ci[6], "a measured rate of %s FLOP/s "
				   "beats the FP64 peak of %s",
				   table_cell(t, r, ci[6]),
				   table_cell(t, r, ci[4]));
	return 0;
}

/* Columns of devices.csv: the required ones into ci[]; -1 if missing. */
static int
device_columns(const struct table *t, int *ci)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(device_cols) / sizeof(device_cols[0]); i++)
		if ((ci[i] = table_require(t, device_cols[i])) < 0)
			ret = -1;
	return ret;
}

/* Adds NAME, a data figure of the row, with what it is and how picked. */
static void
add_figure(struct model *m, const char *name, double v, const char *unit,
	   const char *what, const char *how, const char *src,
	   const char *org)
{
	struct buf d = BUF_INIT;

	buf_addf(&d, "%s; %s", what, how);
	registry_add_num(m->reg, name, v, unit, d.data, NULL, src, org);
	buf_release(&d);
}

/*
 * Adds one device under prefix (device.<id> or an alias such as
 * current.laptop): its figures as the data give them; the one its speed
 * gap is measured from (its highest peak) and its gaps to the 1 kg
 * limits, for speed, for working memory and for storage; and, when its
 * mass (and volume) is known, the limits of its own mass.
 */
static void
add_device_as(struct model *m, const char *prefix, const struct table *t,
	      size_t r, const char *how)
{
	struct buf name = BUF_INIT, f = BUF_INIT, in = BUF_INIT, e = BUF_INIT;
	struct buf org = BUF_INIT, src = BUF_INIT, mn = BUF_INIT, vn = BUF_INIT;
	const struct physconst *pc = m->pc;
	struct devrow d;
	int ci[sizeof(device_cols) / sizeof(device_cols[0])], c;
	double flops;
	size_t i;

	/* The row was read and checked by add_devices(). */
	if (device_columns(t, ci) || devrow_read(t, ci, r, &d))
		BUG("device row %zu was not checked", r);
	buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
	buf_addstr(&src, d.source);

	registry_add_text(m->reg, SET(name, "%s.name", prefix), d.name, how,
			  NULL, src.data, org.data);
	c = table_find(t, "label");
	registry_add_text(m->reg, SET(name, "%s.label", prefix),
			  c >= 0 && *table_cell(t, r, c) ?
			  table_cell(t, r, c) : d.name,
			  "short name for figures (the name when no label)",
			  NULL, src.data, org.data);
	registry_add_text(m->reg, SET(name, "%s.id", prefix), d.id, how,
			  NULL, src.data, org.data);
	registry_add_num(m->reg, SET(name, "%s.year", prefix), d.year, "year",
			 how, NULL, src.data, org.data);

	/* Speed: every figure given, then the one the gap is taken from. */
	for (i = 0; i < NFIG; i++)
		if (!isnan(d.fig[i]))
			add_figure(m, SET(name, "%s.%s", prefix, figs[i].name),
				   d.fig[i], "FLOP/s", figs[i].what, how,
				   src.data, org.data);
	flops = d.fig[d.speed];
	if (d.speed == FIG_HPL)
		fx(m, SET(name, "%s.flops", prefix), flops, "FLOP/s",
		   SET(e, "%s.hpl_rmax", prefix),
		   "no peak figure: the measured rate",
		   SET(in, "%s.hpl_rmax", prefix), OURS);
	else if (!isnan(d.fig[FIG_FP64]) && !isnan(d.fig[FIG_FP32]))
		fx(m, SET(name, "%s.flops", prefix), flops, "FLOP/s",
		   SET(e, "max(%s.fp64_peak, %s.fp32_peak)", prefix, prefix),
		   "the highest peak rate, at 64 or 32 bits",
		   SET(in, "%s.fp64_peak %s.fp32_peak", prefix, prefix), OURS);
	else
		fx(m, SET(name, "%s.flops", prefix), flops, "FLOP/s",
		   SET(e, "%s.%s", prefix, figs[d.speed].name),
		   "the only peak rate given",
		   SET(in, "%s.%s", prefix, figs[d.speed].name), OURS);
	registry_add_text(m->reg, SET(name, "%s.flops_figure", prefix),
			  figs[d.speed].what, "which figure the speed and its "
			  "gap are taken from: the highest of the FP64 and "
			  "FP32 peaks, else the measured HPL Rmax", NULL,
			  src.data, org.data);
	fx(m, SET(name, "%s.sbops", prefix), flops * get(m, "sbops_per_flop"),
	   "ops/s", SET(e, "%s.flops * sbops_per_flop", prefix), "SBOPS",
	   SET(in, "%s.flops sbops_per_flop", prefix), HENSON2008);
	add_gap(m, SET(f, "%s.gap.ops", prefix), SET(in, "%s.sbops", prefix),
		"laptop.ops_max", SET(name, "%s.year", prefix));
	if (!isnan(d.fig[FIG_HPL]))
		fx(m, SET(name, "%s.hpl_sbops", prefix),
		   d.fig[FIG_HPL] * get(m, "sbops_per_flop"), "ops/s",
		   SET(e, "%s.hpl_rmax * sbops_per_flop", prefix),
		   "SBOPS of the measured rate",
		   SET(in, "%s.hpl_rmax sbops_per_flop", prefix), HENSON2008);

	/* Memory: working memory and storage, each with its own gap. */
	if (!isnan(d.ram)) {
		add_figure(m, SET(name, "%s.ram", prefix), d.ram, "B",
			   "working memory (RAM; on-package HBM or unified "
			   "memory for GPUs and SoCs)", how, src.data,
			   org.data);
		fx(m, SET(name, "%s.ram_bits", prefix), d.ram * 8, "bit",
		   SET(e, "%s.ram * bits_per_byte", prefix),
		   "working memory in bits: the memory gap's figure",
		   SET(in, "%s.ram bits_per_byte", prefix), OURS);
		add_gap(m, SET(f, "%s.gap.ram", prefix),
			SET(in, "%s.ram_bits", prefix), "laptop.bits_max",
			SET(name, "%s.year", prefix));
	}
	if (!isnan(d.storage)) {
		add_figure(m, SET(name, "%s.storage", prefix), d.storage, "B",
			   "persistent storage (SSD, disk or flash)", how,
			   src.data, org.data);
		fx(m, SET(name, "%s.storage_bits", prefix), d.storage * 8,
		   "bit", SET(e, "%s.storage * bits_per_byte", prefix),
		   "storage in bits",
		   SET(in, "%s.storage bits_per_byte", prefix), OURS);
		add_gap(m, SET(f, "%s.gap.storage", prefix),
			SET(in, "%s.storage_bits", prefix), "laptop.bits_max",
			SET(name, "%s.year", prefix));
	}
	if (!isnan(d.power))
		add_figure(m, SET(name, "%s.power", prefix), d.power, "W",
			   "power draw", how, src.data, org.data);
	if (!isnan(d.mass)) {
		double E = phys_rest_energy(pc, d.mass);

		add_figure(m, SET(name, "%s.mass", prefix), d.mass, "kg",
			   "mass", how, src.data, org.data);
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
	}
	if (!isnan(d.mass) && !isnan(d.vol)) {
		double E = phys_rest_energy(pc, d.mass), V = d.vol * 1e-3;
		double T = phys_rad_temperature(pc, E, V,
						get(m, "laptop.modes"));
		double I = phys_entropy_bits(pc, phys_rad_entropy(E, T));

		add_figure(m, SET(name, "%s.volume", prefix), V, "m^3",
			   "volume", how, src.data, org.data);
		buf_reset(&mn);
		buf_addf(&mn, "%s.mass", prefix);
		buf_reset(&vn);
		buf_addf(&vn, "%s.volume", prefix);
		fx(m, SET(name, "%s.bits_limit_own", prefix), I, "bit",
		   SET(e, RAD_BITS("%s", "%s"), mn.data, mn.data, vn.data),
		   "radiation entropy of its own mass in its own volume",
		   SET(in, "%s.mass %s.volume laptop.modes const.hbar "
		       "const.c", prefix, prefix), LLOYD2000);
		if (!isnan(d.ram))
			fx(m, SET(name, "%s.gap.ram_own.orders", prefix),
			   phys_orders(d.ram * 8, I), "",
			   SET(e, "log10(%s.bits_limit_own / %s.ram_bits)",
			       prefix, prefix), "orders of magnitude from its "
			   "working memory to its own-mass memory limit",
			   SET(in, "%s.ram_bits %s.bits_limit_own", prefix,
			       prefix), OURS);
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
 * The physics checks the data: no device may compute faster than the
 * Margolus-Levitin limit of its own mass (at its highest rate), nor hold
 * more bits, working memory and storage together, than the entropy of
 * its own mass in its own volume. Returns -1 after printing the error.
 */
static int
device_physics(struct model *m, const struct table *t, const int *ci,
	       size_t r, const struct devrow *d)
{
	const struct physconst *pc = m->pc;
	double sb = get(m, "sbops_per_flop"), E, I, bits;

	if (isnan(d->mass))
		return 0;
	E = phys_rest_energy(pc, d->mass);
	if (d->fig[d->speed] * sb > phys_ml_ops(pc, E))
		return table_error(t, r, ci[4 + d->speed], "%s FLOP/s x %g "
				   "SBOPS per FLOP beats the Margolus-Levitin "
				   "limit of %.4g ops/s for its %g kg",
				   table_cell(t, r, ci[4 + d->speed]), sb,
				   phys_ml_ops(pc, E), d->mass);
	if (isnan(d->vol) || (isnan(d->ram) && isnan(d->storage)))
		return 0;
	I = phys_entropy_bits(pc, phys_rad_entropy(E, phys_rad_temperature(
		pc, E, d->vol * 1e-3, get(m, "laptop.modes"))));
	bits = ((isnan(d->ram) ? 0 : d->ram) +
		(isnan(d->storage) ? 0 : d->storage)) * 8;
	if (bits > I)
		return table_error(t, r, ci[isnan(d->storage) ? 7 : 8],
				   "%.4g bytes of memory and storage beat the "
				   "entropy limit of %.4g bits for %g kg in "
				   "%g litres", bits / 8, I, d->mass, d->vol);
	return 0;
}

/* Whether row a is picked over row b: newer, then faster, then later. */
static int
newer(const struct devrow *a, size_t ra, const struct devrow *b, size_t rb)
{
	if (a->year != b->year)
		return a->year > b->year;
	if (a->fig[a->speed] != b->fig[b->speed])
		return a->fig[a->speed] > b->fig[b->speed];
	return ra > rb;
}

/*
 * One like-with-like comparison of a figure between the machine of the
 * article's year and today's: compare.<kind>.<what>.then and .now (the
 * same figure of both), how many orders of magnitude and doublings it
 * grew, and the doubling time over the years between them.
 */
static void
add_compare_figure(struct model *m, const char *kind, const char *what,
		   const char *then_name, const char *now_name,
		   const char *unit, const char *note)
{
	struct buf name = BUF_INIT, e = BUF_INIT, in = BUF_INIT;
	struct buf p = BUF_INIT;
	double a = get(m, then_name), b = get(m, now_name), years;

	buf_addf(&p, "compare.%s.%s", kind, what);
	fx(m, SET(name, "%s.then", p.data), a, unit, then_name, note,
	   then_name, OURS);
	fx(m, SET(name, "%s.now", p.data), b, unit, now_name, note, now_name,
	   OURS);
	fx(m, SET(name, "%s.orders", p.data), log10(b / a), "",
	   SET(e, "log10(%s.now / %s.then)", p.data, p.data),
	   "orders of magnitude gained",
	   SET(in, "%s.now %s.then", p.data, p.data), OURS);
	fx(m, SET(name, "%s.doublings", p.data), log2(b / a), "",
	   SET(e, "log2(%s.now / %s.then)", p.data, p.data),
	   "doublings gained", SET(in, "%s.now %s.then", p.data, p.data),
	   OURS);
	years = get(m, SET(name, "compare.%s.years", kind));
	if (b > a)
		fx(m, SET(name, "%s.doubling_time", p.data),
		   years / log2(b / a), "yr",
		   SET(e, "compare.%s.years / %s.doublings", kind, p.data),
		   "years per doubling between the two",
		   SET(in, "compare.%s.years %s.doublings", kind, p.data),
		   OURS);
	buf_release(&name);
	buf_release(&e);
	buf_release(&in);
	buf_release(&p);
}

/*
 * Then and now, like with like: for each kind with a machine of the
 * article's year (then.<kind>) and a later one (current.<kind>), the
 * speed by the first figure both give (FP64 peak, FP32 peak, measured),
 * named in compare.<kind>.speed.figure; working memory with working
 * memory; storage with storage. Supercomputers are compared by their
 * measured HPL Rmax with the TOP500 No. 1 of the edition (record.*).
 */
static void
add_compare(struct model *m, const char *kind, const struct devrow *then,
	    const struct devrow *now)
{
	struct buf name = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	struct buf in = BUF_INIT;
	int record = now == NULL;
	size_t i;

	if (record && (isnan(then->fig[FIG_HPL]) ||
		       !registry_get(m->reg, "record.rmax") ||
		       !(get(m, "record.year") > then->year)))
		return;
	for (i = 0; !record && i < NFIG; i++)
		if (!isnan(then->fig[i]) && !isnan(now->fig[i]))
			break;
	if (!record && i == NFIG)
		return;
	/* They exist because of the two machines picked. */
	registry_set_because(m->reg, SET(name, "%s then.%s.id", record ?
					 "record.list" : SET(a, "current.%s.id",
							     kind), kind));
	buf_addf(&b, "%s.year", record ? "record" : SET(a, "current.%s",
							 kind));
	fx(m, SET(name, "compare.%s.years", kind),
	   get(m, b.data) - then->year, "yr",
	   SET(in, "%s - then.%s.year", b.data, kind),
	   "years between the two machines",
	   SET(a, "%s then.%s.year", b.data, kind), OURS);
	if (record) {
		registry_add_text(m->reg, SET(name, "compare.%s.speed.figure",
					      kind), figs[FIG_HPL].what,
				  "the figure both speeds are: TOP500 Rmax, "
				  "measured with HPL at FP64", NULL, OURS,
				  NULL);
		add_compare_figure(m, kind, "speed",
				   SET(a, "then.%s.hpl_rmax", kind),
				   "record.rmax", "FLOP/s", figs[FIG_HPL].what);
		goto out;
	}
	registry_add_text(m->reg, SET(name, "compare.%s.speed.figure", kind),
			  figs[i].what, "the figure both speeds are: FP64 "
			  "peak where both give it, else FP32 peak, else "
			  "measured", NULL, OURS, NULL);
	add_compare_figure(m, kind, "speed",
			   SET(a, "then.%s.%s", kind, figs[i].name),
			   SET(b, "current.%s.%s", kind, figs[i].name),
			   "FLOP/s", figs[i].what);
	if (!isnan(then->ram) && !isnan(now->ram))
		add_compare_figure(m, kind, "ram",
				   SET(a, "then.%s.ram", kind),
				   SET(b, "current.%s.ram", kind), "B",
				   "working memory");
	if (!isnan(then->storage) && !isnan(now->storage))
		add_compare_figure(m, kind, "storage",
				   SET(a, "then.%s.storage", kind),
				   SET(b, "current.%s.storage", kind), "B",
				   "storage");
out:
	registry_set_because(m->reg, NULL);
	buf_release(&name);
	buf_release(&a);
	buf_release(&b);
	buf_release(&in);
}

/*
 * Reads data/devices.csv: every row checked, including against physics
 * (no device may beat the limits of its own mass); rows newer than the
 * edition are skipped. Adds each device; the current pick per kind (the
 * newest, then the fastest of its year); the pick of the article's year
 * per kind (then.<kind>); the machines nearest each limit; and the
 * like-with-like comparisons of then and now.
 */
static int
add_devices(struct model *m)
{
	struct table *t = load(m, "devices.csv");
	size_t r, i, before = diag_errors();
	size_t pick[NKINDS], then[NKINDS];
	size_t fast = (size_t)-1, big = (size_t)-1;
	struct devrow *rows = NULL;
	struct buf name = BUF_INIT, how = BUF_INIT;
	int ci[sizeof(device_cols) / sizeof(device_cols[0])];
	int art = (int)get(m, "article.year");

	if (!t)
		return -1;
	/* Each device becomes some sixty quantities on every page. */
	if (table_max_rows(t, MAX_ROWS, "the report compares machines, "
			   "it is no catalogue"))
		goto out;
	if (device_columns(t, ci))
		goto out;
	rows = xcalloc(table_rows(t) ? table_rows(t) : 1, sizeof(*rows));
	for (i = 0; i < NKINDS; i++)
		pick[i] = then[i] = (size_t)-1;
	for (r = 0; r < table_rows(t); r++) {
		struct devrow *d = &rows[r];
		size_t k;

		if (devrow_read(t, ci, r, d) || table_unique(t, r, ci[0]) ||
		    after_newest(m, t, r, ci[2], d->year) ||
		    device_physics(m, t, ci, r, d))
			continue;
		if (d->year > m->as_of)
			continue;
		k = d->kindi;
		if (pick[k] == (size_t)-1 || newer(d, r, &rows[pick[k]],
						   pick[k]))
			pick[k] = r;
		if (d->year <= art && (then[k] == (size_t)-1 ||
				       newer(d, r, &rows[then[k]], then[k])))
			then[k] = r;
		if (fast == (size_t)-1 ||
		    d->fig[d->speed] > rows[fast].fig[rows[fast].speed])
			fast = r;
		if (!isnan(d->ram) && (big == (size_t)-1 ||
				       d->ram > rows[big].ram))
			big = r;
		buf_reset(&name);
		buf_addf(&name, "device.%s", d->id);
		add_device_as(m, name.data, t, r, "from devices.csv");
	}
	if (diag_errors() != before)
		goto out;
	/* The machines nearest the limits, whatever the data hold. */
	if (fast != (size_t)-1) {
		buf_reset(&how);
		buf_addf(&how, "the device with the highest speed figure in "
			 "devices.csv as of %d", m->as_of);
		add_device_as(m, "closest.speed", t, fast, how.data);
	}
	if (big != (size_t)-1) {
		buf_reset(&how);
		buf_addf(&how, "the device with the most working memory in "
			 "devices.csv as of %d", m->as_of);
		add_device_as(m, "closest.memory", t, big, how.data);
	}
	for (i = 0; i < NKINDS; i++) {
		if (pick[i] == (size_t)-1)
			continue;
		buf_reset(&name);
		buf_addf(&name, "current.%s", device_kinds[i]);
		buf_reset(&how);
		buf_addf(&how, "the newest %s in devices.csv as of %d (the "
			 "fastest of its year)", device_kinds[i], m->as_of);
		add_device_as(m, name.data, t, pick[i], how.data);
	}
	for (i = 0; i < NKINDS; i++) {
		if (then[i] == (size_t)-1)
			continue;
		buf_reset(&name);
		buf_addf(&name, "then.%s", device_kinds[i]);
		buf_reset(&how);
		buf_addf(&how, "the newest %s in devices.csv as of the "
			 "article's year, %d (the fastest of its year)",
			 device_kinds[i], art);
		add_device_as(m, name.data, t, then[i], how.data);
	}
	for (i = 0; i < NKINDS; i++) {
		if (then[i] == (size_t)-1)
			continue;
		if (!strcmp(device_kinds[i], "supercomputer"))
			add_compare(m, device_kinds[i], &rows[then[i]], NULL);
		else if (pick[i] != then[i])
			add_compare(m, device_kinds[i], &rows[then[i]],
				    &rows[pick[i]]);
	}
out:
	free(rows);
	buf_release(&name);
	buf_release(&how);
	return diag_errors() == before ? 0 : -1;
}

/*
 * The largest drive of a series in the edition (not always the newest
 * row) under prefix: name, year and capacity. Returns its index.
 */
static size_t
add_largest_drive(struct model *m, const char *prefix, const char *what,
		  const struct series *se)
{
	struct buf org = BUF_INIT, name = BUF_INIT, how = BUF_INIT;
	const struct table *t = se->t;
	size_t i, k = 0;
	const char *src;

	for (i = 1; i < se->n; i++)
		if (se->value[i] > se->value[k])
			k = i;
	src = table_cell(t, se->row[k], table_find(t, "source"));
	point_origin(se, k, &org);
	buf_addf(&how, "the largest %s in %s of the edition", what,
		 table_name(t));
	registry_add_text(m->reg, SET(name, "%s.name", prefix),
			  table_cell(t, se->row[k], table_find(t, "model")),
			  how.data, NULL, src, org.data);
	registry_add_num(m->reg, SET(name, "%s.year", prefix),
			 floor(se->time[k]), "year", "year of that drive", NULL,
			 src, org.data);
	registry_add_num(m->reg, SET(name, "%s.storage", prefix),
			 se->value[k], "B", "capacity of that drive", NULL, src,
			 org.data);
	buf_release(&org);
	buf_release(&name);
	buf_release(&how);
	return k;
}

/*
 * Which technology holds the per-drive record: the largest hard disk
 * (current.hdd), the largest solid-state drive (current.ssd), and the
 * larger of the two (current.disk, the drive the memory gap is measured
 * with; on a tie the hard disk, which got there first).
 * storage.ssd_record_since is the first year of the unbroken run of
 * years up to the edition in which the largest solid-state drive so far
 * was larger than every hard disk so far, when there is such a run.
 */
static void
add_current_disk(struct model *m, const struct series *hdd,
		 const struct series *ssd)
{
	struct buf org = BUF_INIT;
	size_t kh, ks, i = 0, j = 0;
	const struct series *win;
	const char *src;
	double hmax = 0, smax = 0, since = NAN;
	int ssd_leads, y, y0;

	kh = add_largest_drive(m, "current.hdd", "hard disk", hdd);
	if (!ssd->n) {
		/* No solid-state drive in the data of this edition. */
		ks = 0;
		ssd_leads = 0;
		num(m, "current.disk.is_ssd", 0, "", "no solid-state drive "
		    "in ssd_capacity.csv of the edition: the hard disk holds "
		    "the record", NULL, OURS);
	} else {
		ks = add_largest_drive(m, "current.ssd", "solid-state drive",
				       ssd);
		ssd_leads = ssd->value[ks] > hdd->value[kh];
		fx(m, "current.disk.is_ssd", ssd_leads, "",
		   "current.ssd.storage > current.hdd.storage",
		   "1 when a solid-state drive holds the per-drive record, "
		   "else 0", "current.ssd.storage current.hdd.storage", OURS);
		fx(m, "current.disk.ssd_over_hdd",
		   ssd->value[ks] / hdd->value[kh], "",
		   "current.ssd.storage / current.hdd.storage",
		   "the largest solid-state drive against the largest hard "
		   "disk", "current.ssd.storage current.hdd.storage", OURS);
	}
	win = ssd_leads ? ssd : hdd;
	i = ssd_leads ? ks : kh;
	src = table_cell(win->t, win->row[i], table_find(win->t, "source"));
	point_origin(win, i, &org);
	registry_add_text(m->reg, "current.disk.name",
			  table_cell(win->t, win->row[i],
				     table_find(win->t, "model")),
			  "the largest drive of the edition, hard disk or "
			  "solid-state (disk_capacity.csv, ssd_capacity.csv)",
			  NULL, src, org.data);
	registry_add_text(m->reg, "current.disk.technology",
			  ssd_leads ? "solid-state drive" : "hard disk",
			  "technology of the largest drive of the edition",
			  NULL, src, org.data);
	registry_add_num(m->reg, "current.disk.year", floor(win->time[i]),
			 "year", "year of that drive", NULL, src, org.data);
	registry_add_num(m->reg, "current.disk.storage", win->value[i], "B",
			 "capacity of that drive", NULL, src, org.data);
	fx(m, "current.disk.bits", win->value[i] * 8, "bit",
	   "current.disk.storage * bits_per_byte", NULL,
	   "current.disk.storage bits_per_byte", OURS);
	add_gap(m, "current.disk.gap.bits", "current.disk.bits",
		"laptop.bits_max", "current.disk.year");
	/* Year by year: who held the record, and since when the SSD. */
	y0 = (int)floor(ssd->n ? fmin(hdd->time[0], ssd->time[0]) :
			      hdd->time[0]);
	i = j = 0;
	for (y = y0; y <= m->as_of; y++) {
		for (; i < hdd->n && floor(hdd->time[i]) <= y; i++)
			hmax = fmax(hmax, hdd->value[i]);
		for (; j < ssd->n && floor(ssd->time[j]) <= y; j++)
			smax = fmax(smax, ssd->value[j]);
		if (smax > hmax) {
			if (isnan(since))
				since = y;
		} else {
			since = NAN;
		}
	}
	if (!isnan(since))
		registry_add_num(m->reg, "storage.ssd_record_since", since,
				 "year", "first year of the unbroken run up to "
				 "the edition in which the largest solid-state "
				 "drive so far held more than every hard disk "
				 "so far", NULL, "disk_capacity.csv, "
				 "ssd_capacity.csv", NULL);
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

/*
 * Quantum gates against the Margolus-Levitin time of the energy each
 * one uses. A two-qubit gate is driven by the coupling between the
 * qubits: the exchange Hamiltonian hg (|01><10| + |10><01|) gives the
 * state |01> a mean energy hg above the ground state of the pair, so
 * no gate it drives can turn |01> into an orthogonal state faster than
 * pi hbar / (2 h g) = 1 / (4 g); an iSWAP at constant coupling takes
 * exactly that long. A single-qubit flip could at most use the qubit's
 * whole excitation energy hf, which bounds it by 1 / (4 f); real flips
 * use a far weaker microwave drive, and their distance from this bound
 * says how little of the qubit's energy does the computing. Rows dated
 * after the edition are left out. Returns -1 after errors.
 */
static int
add_quantum(struct model *m)
{
	static const char *const cols[] = { "id", "name", "year",
		"qubit_frequency_hz", "coupling_hz", "gate_1q_s", "gate_2q_s",
		"source" };
	struct table *t = load(m, "quantum.csv");
	struct buf name = BUF_INIT, e = BUF_INIT, in = BUF_INIT;
	struct buf org = BUF_INIT, pre = BUF_INIT;
	int ci[sizeof(cols) / sizeof(cols[0])];
	size_t r, i, before = diag_errors();
	const struct physconst *pc = m->pc;

	if (!t)
		return -1;
	if (table_max_rows(t, MAX_ROWS, "the report shows a few devices"))
		goto out;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if ((ci[i] = table_require(t, cols[i])) < 0)
			goto out;
	for (r = 0; r < table_rows(t); r++) {
		const char *id, *nm, *src;
		double f, g, t1, t2, E, Eg, ml1, ml2;
		int year;
		const char *p;

		if (table_id(t, r, ci[0], &id) | table_text(t, r, ci[1], &nm) |
		    table_year(t, r, ci[2], YEAR_MIN, YEAR_MAX, &year) |
		    table_num(t, r, ci[3], TABLE_POSITIVE, &f) |
		    table_num(t, r, ci[4], TABLE_POSITIVE, &g) |
		    table_num(t, r, ci[5], TABLE_POSITIVE, &t1) |
		    table_num(t, r, ci[6], TABLE_POSITIVE, &t2) |
		    table_text(t, r, ci[7], &src))
			continue;
		if (table_unique(t, r, ci[0]) ||
		    after_newest(m, t, r, ci[2], year) || year > m->as_of)
			continue;
		buf_reset(&org);
		buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
		buf_reset(&pre);
		buf_addf(&pre, "quantum.%s", id);
		p = pre.data;
		registry_add_text(m->reg, SET(name, "%s.name", p), nm,
				  "from quantum.csv", NULL, src, org.data);
		registry_add_num(m->reg, SET(name, "%s.year", p), year, "year",
				 "year of the published figures", NULL, src,
				 org.data);
		registry_add_num(m->reg, SET(name, "%s.qubit_frequency", p), f,
				 "Hz", "qubit frequency", NULL, src, org.data);
		registry_add_num(m->reg, SET(name, "%s.coupling", p), g, "Hz",
				 "qubit-qubit coupling g/2pi", NULL, src,
				 org.data);
		registry_add_num(m->reg, SET(name, "%s.gate_1q", p), t1, "s",
				 "single-qubit gate time", NULL, src, org.data);
		registry_add_num(m->reg, SET(name, "%s.gate_2q", p), t2, "s",
				 "two-qubit gate time", NULL, src, org.data);
		E = pc->h * f;
		Eg = pc->h * g;
		ml1 = phys_ml_time(pc, E);
		ml2 = phys_ml_time(pc, Eg);
		fx(m, SET(name, "%s.qubit_energy", p), E / pc->eV, "eV",
		   SET(e, "const.h * %s.qubit_frequency", p),
		   "energy of the qubit's excited state above its ground state",
		   SET(in, "const.h %s.qubit_frequency", p), OURS);
		fx(m, SET(name, "%s.coupling_energy", p), Eg / pc->eV, "eV",
		   SET(e, "const.h * %s.coupling", p),
		   "the exchange energy that drives a two-qubit gate",
		   SET(in, "const.h %s.coupling", p), OURS);
		fx(m, SET(name, "%s.ml_time_qubit", p), ml1, "s",
		   SET(e, "pi * const.hbar / (2 * %s.qubit_energy)", p),
		   "Margolus-Levitin time of the qubit's whole excitation "
		   "energy: the fastest any flip of it could be",
		   SET(in, "const.hbar %s.qubit_energy", p), LLOYD2000);
		fx(m, SET(name, "%s.ml_time_coupling", p), ml2, "s",
		   SET(e, "pi * const.hbar / (2 * %s.coupling_energy)", p),
		   "Margolus-Levitin time of the coupling energy: the fastest "
		   "two-qubit gate that coupling can drive",
		   SET(in, "const.hbar %s.coupling_energy", p), LLOYD2000);
		fx(m, SET(name, "%s.gate_1q_over_limit", p), t1 / ml1, "",
		   SET(e, "%s.gate_1q / %s.ml_time_qubit", p, p),
		   "single-qubit gate time against the limit of the qubit's "
		   "energy", SET(in, "%s.gate_1q %s.ml_time_qubit", p, p),
		   OURS);
		fx(m, SET(name, "%s.gate_2q_over_limit", p), t2 / ml2, "",
		   SET(e, "%s.gate_2q / %s.ml_time_coupling", p, p),
		   "two-qubit gate time against the limit of its coupling "
		   "energy: near 1, the gate runs at the speed limit",
		   SET(in, "%s.gate_2q %s.ml_time_coupling", p, p), OURS);
		fx(m, SET(name, "%s.gate_1q_orders", p), log10(t1 / ml1), "",
		   SET(e, "log10(%s.gate_1q_over_limit)", p),
		   "orders of magnitude the single-qubit gate is slower than "
		   "the limit of the qubit's energy",
		   SET(in, "%s.gate_1q_over_limit", p), OURS);
	}
out:
	buf_release(&name);
	buf_release(&e);
	buf_release(&in);
	buf_release(&org);
	buf_release(&pre);
	return diag_errors() == before ? 0 : -1;
}

static void
add_edition(struct model *m)
{
	struct buf newest = BUF_INIT;
	size_t i;

	/* The year of the newest rows of the history series. */
	for (i = 0; i < sizeof(series_specs) / sizeof(series_specs[0]); i++)
		buf_addf(&newest, "%sseries.%s.latest.year", i ? " " : "",
			 series_specs[i].id);
	registry_set_because(m->reg, newest.data);
	num(m, "edition.year", m->as_of, "year",
	    "newest year of data used (--as-of, default the newest in data/)",
	    NULL, OURS);
	registry_set_because(m->reg, NULL);
	buf_release(&newest);
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
	{ "moore.lloyd_factor", "f" }, { "moore.lloyd_doubling", "T_L" },
	{ "universe.bits", "I_U" },
	{ "universe.doublings", "n_U" },
	/* Each a name of its own, written as a physicist would. */
	{ "article.areal_doublings", "n_areal" },
	{ "article.density_from", "y_from" }, { "article.density_to", "y_to" },
	{ "article.laptop_bits", "I_art" },
	{ "article.laptop_flops", "F_art" },
	{ "article.laptop_sbops", "R_art" },
	{ "article.laptop_storage", "D_art" },
	{ "article.record.rmax", "F_HPL,art" },
	{ "article.record.power", "P_art" },
	{ "article.record.energy_per_flop", "E_F,art" },
	{ "blackhole.ops", "R_BH" }, { "blackhole.flip_time", "t_flip,BH" },
	{ "blackhole.ops_per_bit", "\xce\xbd_BH" },
	{ "blackhole.crossing_time", "t_cross,BH" },
	{ "blackhole.lifetime", "\xcf\x84_BH" },
	{ "blackhole.time_scale", "t_BH" }, { "blackhole.kT", "E_th,BH" },
	{ "blackhole.kT_over_top", "\xcf\x81_top" },
	{ "blackhole.mass_loss_constant", "\xce\xb1" },
	{ "blackhole.dof_spin0", "g_0" },
	{ "blackhole.dof_spin_half_charged", "g_\xc2\xbd,\xc2\xb1" },
	{ "blackhole.dof_spin_half_neutral", "g_\xc2\xbd,0" },
	{ "blackhole.dof_spin1", "g_1" }, { "blackhole.dof_spin2", "g_2" },
	{ "blackhole.dof_photon", "g_\xce\xb3" },
	{ "blackhole.f_spin0", "f_0" },
	{ "blackhole.f_spin_half_charged", "f_\xc2\xbd,\xc2\xb1" },
	{ "blackhole.f_spin_half_neutral", "f_\xc2\xbd,0" },
	{ "blackhole.f_spin1", "f_1" }, { "blackhole.f_spin2", "f_2" },
	{ "blackhole.f_photon", "f_\xce\xb3" }, { "blackhole.f_all", "f_all" },
	{ "blackhole.lifetime_all_species", "\xcf\x84_all" },
	{ "blackhole.lifetime_photons", "\xcf\x84_\xce\xb3" },
	{ "blackhole.lifetime_ratio", "\xcf\x81_\xce\xb3" },
	{ "blackhole.lifetime_ratio_bb", "\xcf\x81_BH" },
	{ "current.disk.is_ssd", "s_SSD" },
	{ "current.disk.ssd_over_hdd", "\xcf\x81_SSD" },
	{ "dust.atomic_bits", "I_atom,dust" },
	{ "dust.atomic_bytes", "B_atom,dust" },
	{ "dust.atomic_ops", "R_atom,dust" },
	{ "dust.ultimate_bits", "I_dust" }, { "dust.ultimate_ops", "R_dust" },
	{ "energy.efficiency_lag", "\xce\xbb_E" },
	{ "energy.efficiency_ratio", "\xcf\x81_E" },
	{ "energy.power_ratio", "\xcf\x81_P" },
	{ "energy.speed_ratio", "\xcf\x81_F" },
	{ "landauer.energy_laptop", "E_L,T" }, { "landauer.rate_room", "R_L" },
	{ "laptop.bb_bit_flux_density", "\xcf\x86" },
	{ "laptop.bekenstein_bits", "I_Bek" },
	{ "laptop.bremermann", "R_Brem" },
	{ "laptop.crossing_per_flip", "\xcf\x81_cross" },
	{ "laptop.cube_crossing_time", "t_cross,cube" },
	{ "laptop.cube_reject_rate", "R_reject,cube" },
	{ "laptop.cube_reject_fraction", "\xce\xb7_cube" },
	{ "laptop.sphere_reject_fraction", "\xce\xb7" },
	{ "laptop.energy_per_bit", "E_bit" }, { "laptop.kT", "E_th" },
	{ "laptop.op_energy", "\xce\xb5_op" },
	{ "laptop.ops_per_bit", "\xce\xbd" },
	{ "laptop.radiated_power", "P_rad" },
	{ "laptop.radiation_time", "t_rad" },
	{ "moore.article_doubling", "T_art" },
	{ "moore.fast_doubling", "T_fast" }, { "particle.top_mass", "m_t" },
	{ "proton.radius", "r_p" },
	{ "sun.core_temperature", "T_\xe2\x98\x89" },
	{ "sun.luminosity", "L_\xe2\x98\x89" },
	{ "sbops_per_flop", "\xce\xb2" },
	{ "scale.blackhole_over_proton", "q_R" },
	{ "scale.laptop_over_sun_core", "q_T" },
	{ "scale.laptop_power_over_sun", "q_P" },
	{ "universe.years_lloyd", "t_U,L" },
	{ "universe.years_24mo", "t_U,24" },
	{ "universe.years_18mo", "t_U,18" },
	{ "universe.years_top500", "t_U,top" },
};

/*
 * The symbols of families (registry_set_symbols()): a pattern's "*" is
 * the row, and the last item of the symbol's subscript is the family's
 * index (d a device, s a series, e an energy fit, c a comparison or a
 * claim, r a rate, k a quantum chip), where a member's formula writes
 * its row: device.macbook_2008.mass is m with macbook_2008 below. The
 * gaps' subscripts say what is short (R operations per second, M memory,
 * D storage, I bits, atom the atomic limit) and at which doubling time
 * (L Lloyd's, 24 and 18 months, top the TOP500 trend, top' since the
 * article, disk, areal density, pace the article's).
 */
static const char *const symbol_patterns[][2] = {
	{ "device.*.year", "y_d" },
	{ "device.*.mass", "m_d" },
	{ "device.*.volume", "V_d" },
	{ "device.*.power", "P_d" },
	{ "device.*.fp64_peak", "F_64,d" },
	{ "device.*.fp32_peak", "F_32,d" },
	{ "device.*.flops", "F_d" },
	{ "device.*.hpl_rmax", "F_HPL,d" },
	{ "device.*.rmax", "F_HPL,d" },
	{ "device.*.hpl_sbops", "R_HPL,d" },
	{ "device.*.sbops", "R_d" },
	{ "device.*.ram", "M_d" },
	{ "device.*.ram_bits", "I_M,d" },
	{ "device.*.storage", "D_d" },
	{ "device.*.storage_bits", "I_D,d" },
	{ "device.*.bits", "I_D,d" },
	{ "device.*.ops_limit_own", "R_own,d" },
	{ "device.*.bits_limit_own", "I_own,d" },
	{ "device.*.energy_per_flop", "E_F,d" },
	{ "device.*.energy_per_op", "E_op,d" },
	{ "device.*.gap.ops.orders", "N_R,d" },
	{ "device.*.gap.ops.doublings", "n_d" },
	{ "device.*.gap.ops.years_lloyd", "t_R,L,d" },
	{ "device.*.gap.ops.year_lloyd", "Y_R,L,d" },
	{ "device.*.gap.ops.years_24mo", "t_R,24,d" },
	{ "device.*.gap.ops.year_24mo", "Y_R,24,d" },
	{ "device.*.gap.ops.years_18mo", "t_R,18,d" },
	{ "device.*.gap.ops.year_18mo", "Y_R,18,d" },
	{ "device.*.gap.ops.years_top500", "t_R,top,d" },
	{ "device.*.gap.ops.year_top500", "Y_R,top,d" },
	{ "device.*.gap.ops.years_top500_since", "t_R,top\xe2\x80\xb2,d" },
	{ "device.*.gap.ops.year_top500_since", "Y_R,top\xe2\x80\xb2,d" },
	{ "device.*.gap.ops.years_disk", "t_R,disk,d" },
	{ "device.*.gap.ops.year_disk", "Y_R,disk,d" },
	{ "device.*.gap.ram.orders", "N_M,d" },
	{ "device.*.gap.ram.doublings", "n_M,d" },
	{ "device.*.gap.ram.years_lloyd", "t_M,L,d" },
	{ "device.*.gap.ram.year_lloyd", "Y_M,L,d" },
	{ "device.*.gap.ram.years_24mo", "t_M,24,d" },
	{ "device.*.gap.ram.year_24mo", "Y_M,24,d" },
	{ "device.*.gap.ram.years_18mo", "t_M,18,d" },
	{ "device.*.gap.ram.year_18mo", "Y_M,18,d" },
	{ "device.*.gap.ram.years_top500", "t_M,top,d" },
	{ "device.*.gap.ram.year_top500", "Y_M,top,d" },
	{ "device.*.gap.ram.years_top500_since", "t_M,top\xe2\x80\xb2,d" },
	{ "device.*.gap.ram.year_top500_since", "Y_M,top\xe2\x80\xb2,d" },
	{ "device.*.gap.ram.years_disk", "t_M,disk,d" },
	{ "device.*.gap.ram.year_disk", "Y_M,disk,d" },
	{ "device.*.gap.storage.orders", "N_D,d" },
	{ "device.*.gap.storage.doublings", "n_D,d" },
	{ "device.*.gap.storage.years_lloyd", "t_D,L,d" },
	{ "device.*.gap.storage.year_lloyd", "Y_D,L,d" },
	{ "device.*.gap.storage.years_24mo", "t_D,24,d" },
	{ "device.*.gap.storage.year_24mo", "Y_D,24,d" },
	{ "device.*.gap.storage.years_18mo", "t_D,18,d" },
	{ "device.*.gap.storage.year_18mo", "Y_D,18,d" },
	{ "device.*.gap.storage.years_top500", "t_D,top,d" },
	{ "device.*.gap.storage.year_top500", "Y_D,top,d" },
	{ "device.*.gap.storage.years_top500_since", "t_D,top\xe2\x80\xb2,d" },
	{ "device.*.gap.storage.year_top500_since", "Y_D,top\xe2\x80\xb2,d" },
	{ "device.*.gap.storage.years_disk", "t_D,disk,d" },
	{ "device.*.gap.storage.year_disk", "Y_D,disk,d" },
	{ "device.*.gap.bits.orders", "N_I,d" },
	{ "device.*.gap.bits.doublings", "n_I,d" },
	{ "device.*.gap.bits.years_lloyd", "t_I,L,d" },
	{ "device.*.gap.bits.year_lloyd", "Y_I,L,d" },
	{ "device.*.gap.bits.years_24mo", "t_I,24,d" },
	{ "device.*.gap.bits.year_24mo", "Y_I,24,d" },
	{ "device.*.gap.bits.years_18mo", "t_I,18,d" },
	{ "device.*.gap.bits.year_18mo", "Y_I,18,d" },
	{ "device.*.gap.bits.years_top500", "t_I,top,d" },
	{ "device.*.gap.bits.year_top500", "Y_I,top,d" },
	{ "device.*.gap.bits.years_top500_since", "t_I,top\xe2\x80\xb2,d" },
	{ "device.*.gap.bits.year_top500_since", "Y_I,top\xe2\x80\xb2,d" },
	{ "device.*.gap.bits.years_disk", "t_I,disk,d" },
	{ "device.*.gap.bits.year_disk", "Y_I,disk,d" },
	{ "device.*.gap.bits.years_areal", "t_I,areal,d" },
	{ "device.*.gap.bits.years_article_pace", "t_I,pace,d" },
	{ "device.*.gap.atomic_ops.orders", "N_atom,d" },
	{ "device.*.gap.atomic_ops.doublings", "n_atom,d" },
	{ "device.*.gap.atomic_ops.years_lloyd", "t_atom,L,d" },
	{ "device.*.gap.atomic_ops.year_lloyd", "Y_atom,L,d" },
	{ "device.*.gap.atomic_ops.years_24mo", "t_atom,24,d" },
	{ "device.*.gap.atomic_ops.year_24mo", "Y_atom,24,d" },
	{ "device.*.gap.atomic_ops.years_18mo", "t_atom,18,d" },
	{ "device.*.gap.atomic_ops.year_18mo", "Y_atom,18,d" },
	{ "device.*.gap.atomic_ops.years_top500", "t_atom,top,d" },
	{ "device.*.gap.atomic_ops.year_top500", "Y_atom,top,d" },
	{ "device.*.gap.atomic_ops.years_top500_since",
	  "t_atom,top\xe2\x80\xb2,d" },
	{ "device.*.gap.atomic_ops.year_top500_since",
	  "Y_atom,top\xe2\x80\xb2,d" },
	{ "device.*.gap.atomic_ops.years_disk", "t_atom,disk,d" },
	{ "device.*.gap.atomic_ops.year_disk", "Y_atom,disk,d" },
	{ "device.*.gap.ops_own.orders", "N_R,own,d" },
	{ "device.*.gap.ram_own.orders", "N_M,own,d" },
	{ "device.*.gap.landauer.orders", "N_L,d" },
	{ "device.*.gap.landauer.halvings", "n_L,d" },
	{ "device.*.gap.landauer.years", "t_L,d" },
	{ "device.*.gap.landauer.year", "Y_L,d" },
	{ "device.*.gap.laptop_op.ratio", "\xcf\x81_op,d" },
	{ "series.*.fit_all.slope", "k_all,s" },
	{ "series.*.fit_all.doubling_time", "T_all,s" },
	{ "series.*.fit_all.to", "t_all,s" },
	{ "series.*.fit_all.value_to", "x_all,s" },
	{ "series.*.fit_all.year_ml", "Y_ML,all,s" },
	{ "series.*.fit_all.year_atomic", "Y_atom,all,s" },
	{ "series.*.fit_all.year_entropy", "Y_S,all,s" },
	{ "series.*.fit_article.slope", "k_art,s" },
	{ "series.*.fit_article.doubling_time", "T_art,s" },
	{ "series.*.fit_article.to", "t_art,s" },
	{ "series.*.fit_article.value_to", "x_art,s" },
	{ "series.*.fit_article.value_latest", "x_art,last,s" },
	{ "series.*.fit_article.year_ml", "Y_ML,art,s" },
	{ "series.*.fit_article.year_atomic", "Y_atom,art,s" },
	{ "series.*.fit_article.year_entropy", "Y_S,art,s" },
	{ "series.*.fit_since.slope", "k_new,s" },
	{ "series.*.fit_since.doubling_time", "T_new,s" },
	{ "series.*.fit_since.to", "t_new,s" },
	{ "series.*.fit_since.value_to", "x_new,s" },
	{ "series.*.fit_since.year_ml", "Y_ML,new,s" },
	{ "series.*.fit_since.year_atomic", "Y_atom,new,s" },
	{ "series.*.fit_window.slope", "k_win,s" },
	{ "series.*.latest.value", "x_last,s" },
	{ "series.*.latest.time", "t_last,s" },
	{ "series.*.doublings_window", "n_win,s" },
	{ "series.*.factor_window", "f_win,s" },
	{ "series.*.doublings_window_fit", "n_fit,win,s" },
	{ "series.*.years_per_doubling_window", "T_win,s" },
	{ "series.*.pace.slowdown", "r_slow,s" },
	{ "series.*.pace.shortfall", "r_short,s" },
	{ "energy.*.slope", "k_e" },
	{ "energy.*.doubling_time", "T_e" },
	{ "energy.*.to", "t_e" },
	{ "energy.*.value_to", "x_e" },
	{ "energy.*.halving_time", "T_\xc2\xbd,e" },
	{ "energy.*.year_landauer", "Y_L,e" },
	{ "compare.*.years", "\xce\x94t_c" },
	{ "compare.*.speed.now", "F_now,c" },
	{ "compare.*.speed.then", "F_then,c" },
	{ "compare.*.speed.orders", "N_F,c" },
	{ "compare.*.speed.doublings", "n_F,c" },
	{ "compare.*.speed.doubling_time", "T_F,c" },
	{ "compare.*.ram.now", "M_now,c" },
	{ "compare.*.ram.then", "M_then,c" },
	{ "compare.*.ram.orders", "N_M,c" },
	{ "compare.*.ram.doublings", "n_M,c" },
	{ "compare.*.ram.doubling_time", "T_M,c" },
	{ "compare.*.storage.now", "D_now,c" },
	{ "compare.*.storage.then", "D_then,c" },
	{ "compare.*.storage.orders", "N_D,c" },
	{ "compare.*.storage.doublings", "n_D,c" },
	{ "compare.*.storage.doubling_time", "T_D,c" },
	{ "claim.*.recomputed", "x_c" },
	{ "claim.*.published", "x_p,c" },
	{ "claim.*.ratio", "\xcf\x81_c" },
	{ "rate.*", "T_r" },
	{ "quantum.*.qubit_frequency", "\xce\xbd_q,k" },
	{ "quantum.*.coupling", "\xce\xbd_g,k" },
	{ "quantum.*.qubit_energy", "E_q,k" },
	{ "quantum.*.coupling_energy", "E_g,k" },
	{ "quantum.*.ml_time_qubit", "t_ML,q,k" },
	{ "quantum.*.ml_time_coupling", "t_ML,g,k" },
	{ "quantum.*.gate_1q", "t_1q,k" },
	{ "quantum.*.gate_2q", "t_2q,k" },
	{ "quantum.*.gate_1q_over_limit", "\xcf\x81_1q,k" },
	{ "quantum.*.gate_2q_over_limit", "\xcf\x81_2q,k" },
	{ "quantum.*.gate_1q_orders", "N_1q,k" },
};

/*
 * Names that stand for a device's row, shown as their own words:
 * current.laptop.mass is m with "current laptop" below.
 */
static const char *const symbol_aliases[][2] = {
	{ "current.*", "device.*" }, { "then.*", "device.*" },
	{ "closest.*", "device.*" }, { "record", "device.*" },
	{ "article", "device.*" },
};

int
model_time_column(const struct table *t)
{
	const char *base = strrchr(table_name(t), '/');
	const char *col = NULL;
	size_t i;

	base = base ? base + 1 : table_name(t);
	if (!strcmp(base, "devices.csv") || !strcmp(base, "quantum.csv"))
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

/*
 * The newest year of the history series (m->newest, and the file of
 * the row in m->newest_file): the default edition, and the newest one.
 */
static void
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

			if (y > newest && y <= YEAR_MAX) {
				newest = y;
				m->newest_file = series_specs[i].file;
			}
		}
	}
	m->newest = newest;
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
	newest_year(&m);
	/* No edition after the data: main.c says so for --as-of. */
	if (!m.as_of || (m.newest && m.as_of > m.newest))
		m.as_of = m.newest;
	if (diag_errors() != before)
		goto out;
	add_edition(&m);
	add_laptop(&m);
	add_atomic(&m);
	add_blackhole(&m);
	add_landauer(&m);
	add_scale(&m);
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
	add_pace(&m, &all[S_TOP500]);
	if (registry_get(m.reg, "series.top500.fit_since.doubling_time")) {
		fx(&m, "rate.top500_since", get(&m,
		   "series.top500.fit_since.doubling_time"), "yr",
		   "series.top500.fit_since.doubling_time",
		   "fitted doubling time of the TOP500 No. 1 since the article",
		   "series.top500.fit_since.doubling_time", OURS);
		add_rate(&m, "rate.top500_since",
			 "TOP500 No. 1 trend since the article");
	}
	/* The frontier: record drives, not every milestone drive. */
	if (registry_get(m.reg, "series.disk_record.fit_all.doubling_time")) {
		fx(&m, "rate.disk", get(&m,
		   "series.disk_record.fit_all.doubling_time"), "yr",
		   "series.disk_record.fit_all.doubling_time",
		   "fitted doubling time of record hard-disk capacity",
		   "series.disk_record.fit_all.doubling_time", OURS);
		add_rate(&m, "rate.disk", "disk capacity trend");
	}
	add_gap(&m, "article.gap.ops", "article.laptop_sbops",
		"laptop.ops_max", "article.year");
	add_gap(&m, "article.gap.bits", "article.laptop_bits",
		"laptop.bits_max", "article.year");
	add_doublings_between(&m, &all[S_AREAL], "article.density_from",
			      "article.density_to");
	add_areal_pace(&m);
	if (registry_get(m.reg, "rate.top500"))
		fx(&m, "universe.years_top500", get(&m, "universe.doublings") *
		   get(&m, "rate.top500"), "yr",
		   "universe.doublings * rate.top500",
		   "at the TOP500 No. 1 doubling time",
		   "universe.doublings rate.top500", OURS);
	add_record(&m, &all[S_TOP500]);
	add_current_disk(&m, &all[S_DISK_RECORD], &all[S_SSD]);
	if (add_energy(&m, &all[S_TOP500]))
		goto out;
	if (add_devices(&m) || add_quantum(&m))
		goto out;
	if (ds && !m.failed)
		add_curves(&m);
	ok = !m.failed && diag_errors() == before;
	for (i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		registry_set_symbol(m.reg, symbols[i][0], symbols[i][1]);
	registry_set_symbols(m.reg, symbol_patterns,
			     sizeof(symbol_patterns) / sizeof(*symbol_patterns),
			     symbol_aliases,
			     sizeof(symbol_aliases) / sizeof(*symbol_aliases));
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

int
model_editions(const char *datadir, struct tableset *ts, int *first,
	       int *newest)
{
	struct tableset own = { 0 };
	struct model m = { .reg = registry_new(), .pc = &phys_codata2018,
			   .datadir = datadir, .ts = ts ? ts : &own };
	size_t before = diag_errors();
	int ret = -1;

	add_constants(&m);
	if (!add_assumptions(&m, datadir)) {
		newest_year(&m);
		if (diag_errors() == before) {
			*first = (int)get(&m, "article.year");
			*newest = m.newest;
			ret = 0;
		}
	}
	registry_free(m.reg);
	tableset_release(&own);
	return ret;
}
