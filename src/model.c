/*
 * The model stage: data -> quantity registry. Reads the model document
 * (data/model.md, modeldoc.c) and evaluates it; the document calls the
 * providers written in C where it needs them: data/assumptions.csv
 * (here), the history series (series.c), the machines (devices.c) and
 * the files data/schema.csv declares (rows.c). Writes quantities, with
 * unit, formula, inputs and source, into a new registry, and the figure
 * data (dataset.c). Formats no numbers for the reader, but in error
 * messages: that is the template stage's job.
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
#include "modelint.h"
#include "modeldoc.h"
#include "physics.h"
#include "registry.h"
#include "rows.h"
#include "schema.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

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
	{ "universe.lloyd2002_ops", "", 0, "a count of operations must be "
	  "positive" },
	{ "universe.lloyd2002_bits", "bit", 0, "a bit count must be "
	  "positive" },
	{ "energy.alike_margin", "", 0, "a margin must be positive" },
	{ "fma.flops_per_fma", "", 0, "a count of FLOPs must be positive" },
	{ "fma.and_gates", "", 0, "a gate count must be positive" },
	{ "fma.full_adder_gates", "", 0, "a gate count must be positive" },
	{ "fma.half_adder_gates", "", 0, "a gate count must be positive" },
	{ "fma.mux_gates", "", 0, "a gate count must be positive" },
	{ "fma.shifters", "", -1, "a count cannot be negative" },
	{ "fma.width_factor", "", 0, "a width factor must be positive" },
	{ "fma.width_guard", "", -1, "a count of bits cannot be negative" },
	{ "fma.fp64.p", "", 1, "a significand holds more than one bit" },
	{ "fma.fp32.p", "", 1, "a significand holds more than one bit" },
	{ "fma.fp16.p", "", 1, "a significand holds more than one bit" },
	{ "fma.bf16.p", "", 1, "a significand holds more than one bit" },
	{ "fma.fp8_e4m3.p", "", 1, "a significand holds more than one bit" },
	{ "fma.fp8_e5m2.p", "", 1, "a significand holds more than one bit" },
	{ "fma.fp4_e2m1.p", "", 1, "a significand holds more than one bit" },
};


/*
 * Adds a computed number. After the first failure (a non-finite result
 * from extreme inputs) nothing more is added, so one bad input gives one
 * error rather than a cascade.
 */
double
model_num(struct model *m, const char *name, double v, const char *unit,
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
double
model_fx(struct model *m, const char *name, double v, const char *unit,
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

/*
 * The value of a quantity the C part reads: from the registry, or
 * evaluated now when the model document defines it further down.
 */
double
model_get(struct model *m, const char *name)
{
	const struct quantity *q = registry_get(m->reg, name);

	if (!q && m->ev && !m->failed && !modeldoc_need(m->ev, name))
		q = registry_get(m->reg, name);
	if (!q) {
		if (!m->failed && m->ev)
			error("%s: the model's C part needs '%s', which the "
			      "model document does not define",
			      MODEL_DOCUMENT, name);
		if (!m->failed && !m->ev)
			BUG("no quantity '%s'", name);
		m->failed = 1;
		return NAN;
	}
	if (q->type != Q_NUMBER)
		BUG("'%s' is not a number", name);
	return q->value;
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
	const struct schema_file *vf, *all;
	size_t nfiles;
	int cname, cvalue, cunit, csource, ret = 0;
	size_t before = diag_errors(), r, i;
	unsigned char *found = xcalloc(sizeof(needs) / sizeof(needs[0]), 1);

	vf = schema_of_kind(m->ts, datadir, SCHEMA_VALUES);
	if (!vf) {
		ret = schema_catalogue(m->ts, datadir, &all, &nfiles) ? -1 : 0;
		goto out;
	}
	t = schema_load(m->ts, datadir, vf->s.file);
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


int
model_time_column(const struct table *t)
{
	return table_role(t, TABLE_COL_DATE);
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
 * The provider "assumptions": data/assumptions.csv, and the edition's
 * year, which needs the history series' newest year.
 */
static int
provide_assumptions(void *ctx)
{
	struct model *m = ctx;
	size_t before = diag_errors();

	if (add_assumptions(m, m->datadir))
		return -1;
	model_newest_year(m);
	/* No edition after the data: main.c says so for --as-of. */
	if (!m->as_of || (m->newest && m->as_of > m->newest))
		m->as_of = m->newest;
	if (diag_errors() != before)
		return -1;
	model_add_edition(m);
	return m->failed ? -1 : 0;
}

/*
 * The provider "rows": the files data/schema.csv declares, each row as
 * quantities PREFIX.ID.COLUMN (rows.c), for the document's families.
 */
/* Whether a file of the catalogue has an id column. */
static int
has_id(const struct table_schema *s)
{
	size_t k;

	for (k = 0; k < s->ncols; k++)
		if (s->cols[k].flags & TABLE_COL_ID)
			return 1;
	return 0;
}

static int
provide_rows(void *ctx)
{
	struct model *m = ctx;
	const struct schema_file *v;
	size_t n, i;
	int ret = 0;

	if (schema_catalogue(m->ts, m->datadir, &v, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].kind == SCHEMA_ROWS && v[i].s.ncols &&
		    !registry_has(m->reg, v[i].prefix) &&
		    has_id(&v[i].s))
			ret |= rows_add(m->reg, m->ts, m->datadir, &v[i],
					m->as_of, NULL, NULL);
	return ret || m->failed ? -1 : 0;
}

static const struct modeldoc_provider providers[] = {
	{ "assumptions", provide_assumptions },
	{ "series", provide_series },
	{ "pace", provide_pace },
	{ "article_gaps", provide_article_gaps },
	{ "records", provide_records },
	{ "devices", provide_devices },
	{ "compare", provide_compare },
	{ "quantum", provide_quantum },
	{ "rows", provide_rows },
	{ "curves", provide_curves },
	{ NULL, NULL },
};

static void
doc_free(void *doc)
{
	modeldoc_free(doc);
}

const struct modeldoc *
model_document(const char *datadir, struct tableset *ts)
{
	struct buf path = BUF_INIT;

	if (!ts->doc) {
		buf_addf(&path, "%s/%s", datadir, MODEL_DOCUMENT);
		ts->doc = modeldoc_load(path.data);
		ts->doc_free = doc_free;
		buf_release(&path);
	}
	return ts->doc;
}

struct registry *
model_build(const char *datadir, int as_of, struct datasets *ds,
	    struct tableset *ts)
{
	struct tableset own = { 0 };
	struct model m = { .reg = registry_new(), .pc = &phys_codata2018,
			   .datadir = datadir, .as_of = as_of, .ds = ds,
			   .ts = ts ? ts : &own };
	struct series *all = model_series_new();
	struct modeldoc_eval ev = { 0 };
	const struct modeldoc *doc;
	size_t before = diag_errors();
	int ok = 0;

	m.all = all;
	doc = model_document(datadir, m.ts);
	if (doc) {
		ev = (struct modeldoc_eval){ .doc = doc, .reg = m.reg,
			.providers = providers, .ctx = &m };
		m.ev = &ev;
		ok = !modeldoc_run(&ev) && !m.failed &&
		     diag_errors() == before;
	}
	if (ok)
		model_set_symbols(m.reg);
	model_series_free(all);
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

	if (!add_assumptions(&m, datadir)) {
		model_newest_year(&m);
		if (diag_errors() == before) {
			*first = (int)model_get(&m, "article.year");
			*newest = m.newest;
			ret = 0;
		}
	}
	registry_free(m.reg);
	tableset_release(&own);
	return ret;
}
