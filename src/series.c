/*
 * The model's history series: reads top500.csv, disk_capacity.csv,
 * areal_density.csv, transistors.csv and ssd_capacity.csv through the
 * table set, as of the edition; writes each series' points and
 * least-squares trends (fit.c: slope, intercept, R^2, standard errors),
 * the trend of the TOP500 No. 1 since the article, the power of the No. 1
 * systems and the trends of their energy per FLOP, the trend of their
 * Rmax per kilogram of their own mass, the record holder, the
 * largest drives, the article's gaps and the figures' curves, as
 * quantities and figure data (dataset.c). What follows from the fits and
 * the rows by a formula (doubling times, the years limits are reached,
 * the pace, the energy per operation) is in data/model.md.
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
#include "modeldoc.h"
#include "modelint.h"
#include "physics.h"
#include "registry.h"
#include "rows.h"
#include "schema.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* How each history series is read and what its trend is held against. */
struct series_spec {
	const char *id;		/* registry prefix: series.<id> */
	const char *file;	/* its time is the catalogue's date column */
	const char *value_col;
	const char *label_col;
	const char *unit;
	const char *what;	/* "the No. 1 system of each TOP500 list" */
	int unique_time;	/* one row per time (a list has one No. 1) */
	const char *factor;	/* quantity the value is multiplied by, or NULL */
	const char *scaled_unit;	/* of the value times factor */
	/*
	 * Whether data/model.md extrapolates the trend to limits (the
	 * years series.<id>.fit_W.year_*): the fit then gives the value of
	 * its line at its last year, which those years count from.
	 */
	int to_limits;
	/*
	 * Records only: of each year the largest row, and only when it is
	 * at least the largest of every year before (the frontier a trend
	 * of "the largest drive" is about; milestones of form factor or
	 * technology that were never the largest of their year drop out).
	 */
	int record;
	int optional;	/* an edition may have no rows: no quantities then */
	/*
	 * A text column that leaves rows out of the series: a row whose
	 * cell is out_value is counted (series.<id>.left_out) and not
	 * read; one whose cell is in_value, or empty, is read; any other
	 * value is an error at its cell. NULL when every row is read.
	 */
	const char *out_col, *in_value, *out_value;
};

static const struct series_spec series_specs[] = {
	{ "top500", "top500.csv", "rmax_flops", "system", "FLOP/s",
	  "No. 1 system of each TOP500 list (Rmax)", 1, "sbops_per_flop",
	  "ops/s", 1, 0, 0, NULL, NULL, NULL },
	{ "disk", "disk_capacity.csv", "capacity_bytes", "model", "B",
	  "largest hard disk of its year", 0, "bits_per_byte", "bit",
	  1, 0, 0, NULL, NULL, NULL },
	{ "areal", "areal_density.csv", "density_bit_per_in2",
	  "product", "bit/in^2", "hard-disk areal density", 0, NULL, NULL,
	  0, 0, 0, NULL, NULL, NULL },
	/*
	 * A wafer-scale engine is a wafer, not a chip: its count says how
	 * much silicon was used, not how dense a chip grew, and its three
	 * rows alone moved the doubling time from 2.04 to 1.94 years.
	 */
	{ "transistors", "transistors.csv", "transistors",
	  "processor", "", "transistors per microprocessor", 0, NULL, NULL,
	  0, 0, 0, "form", "chip", "wafer" },
	{ "disk_record", "disk_capacity.csv", "capacity_bytes", "model",
	  "B", "record hard disks (the largest of each year, when no earlier "
	  "drive was larger)", 0, "bits_per_byte", "bit",
	  1, 1, 0, NULL, NULL, NULL },
	{ "ssd", "ssd_capacity.csv", "capacity_bytes", "model", "B",
	  "record solid-state drives (the largest of each year, when no "
	  "earlier drive was larger)", 0, "bits_per_byte", "bit",
	  1, 1, 1, NULL, NULL, NULL },
};

/* Indices into series_specs[] (and the series model_build() reads). */
enum { S_TOP500, S_DISK, S_AREAL, S_TRANSISTORS, S_DISK_RECORD, S_SSD };

/* Series are thinned to this many points for figures (fits use all). */
#define MODEL_PLOT_POINTS 2000


/* One series in memory, in file order, rows after the edition left out. */
struct series {
	const struct series_spec *spec;
	struct table *t;
	double *time;		/* decimal year (mid-month or mid-year) */
	double *value;
	size_t *row;		/* table row of each point */
	size_t n;
	size_t left_out;	/* rows of the edition the spec's out_col drops */
};

static void
series_release(struct series *se)
{
	free(se->time);
	free(se->value);
	free(se->row);
}

struct table *
model_load(struct model *m, const char *file)
{
	return schema_load(m->ts, m->datadir, file);
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
	int ct, cv, cl, cs, co = -1, monthly;
	size_t r, cap = 0, before = diag_errors();
	const char *time_col;

	memset(se, 0, sizeof(*se));
	se->spec = sp;
	se->t = model_load(m, sp->file);
	if (!se->t)
		return -1;
	/* By name, from the catalogue (schema.c): the header was checked. */
	ct = table_role(se->t, TABLE_COL_DATE);
	if (ct < 0)
		BUG("%s: the catalogue gives the series no date", sp->file);
	time_col = table_header(se->t, ct);
	monthly = table_column_of(se->t, ct)->kind == TABLE_KIND_MONTH;
	cv = table_col(se->t, sp->value_col);
	cl = table_col(se->t, sp->label_col);
	cs = table_col(se->t, "source");
	if (sp->out_col)
		co = table_col(se->t, sp->out_col);
	if (!table_rows(se->t))
		return error("%s: no rows in '%s'", table_name(se->t),
			     sp->file);
	for (r = 0; r < table_rows(se->t); r++) {
		const char *label, *src;
		double t, v;
		int y, out;

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
				    "per %s)", time_col,
				    table_cell(se->t, r, ct), time_col);
			continue;
		}
		if (se->n && t < se->time[se->n - 1] - 1e-9) {
			table_error(se->t, r, ct, "'%s' is earlier than the "
				    "row before it: keep rows in time order",
				    table_cell(se->t, r, ct));
			continue;
		}
		out = co >= 0 && !strcmp(table_cell(se->t, r, co),
					 sp->out_value);
		if (co >= 0 && !out && *table_cell(se->t, r, co) &&
		    strcmp(table_cell(se->t, r, co), sp->in_value)) {
			table_error(se->t, r, co, "'%s' is neither '%s' nor "
				    "'%s'", table_cell(se->t, r, co),
				    sp->in_value, sp->out_value);
			continue;
		}
		if (floor(t) > m->as_of)
			continue;
		if (out) {
			se->left_out++;
			continue;
		}
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
	double f = sp->factor ? model_get(m, sp->factor) : 1;
	int cl = table_col(se->t, sp->label_col);
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

/*
 * A trend is fitted, shown and extrapolated only over a window of at
 * least TREND_MIN_POINTS points spanning TREND_MIN_YEARS years or more,
 * the same rule for every series, window and fit: over a shorter window
 * the line follows the noise of single rows (the two lists of 2008 alone
 * give Roadrunner's rerun a doubling time of years), and two points make
 * a "trend" with R^2 = 1 and no error to give (the record SSDs of 2008
 * and 2009 alone had flash reach the memory limit in 2040 in the 2011 to
 * 2013 editions).
 */
#define TREND_MIN_YEARS 3.0
#define TREND_MIN_POINTS 3

/*
 * Fits the n points (t, v) in [lo, hi] into *f: 1 when they make a
 * trend by the rule above, else 0.
 */
static int
trend_holds(const double *t, const double *v, size_t n, double lo,
	    double hi, struct fit *f)
{
	return !fit_log2(t, v, n, lo, hi, f) && f->n >= TREND_MIN_POINTS &&
	       f->t1 - f->t0 >= TREND_MIN_YEARS;
}

/*
 * What a fitted line's quantities PREFIX.n, .from, .to, .slope and
 * .intercept say; .intercept_se is added only with a note, and
 * .value_to (the line at its last year, which the years to the limits
 * count from) only with a unit. .r2 and .slope_se read alike for all.
 */
struct fit_notes {
	const char *n, *from, *to, *slope, *intercept, *intercept_se;
	const char *value_to, *value_unit;
};

/* The quantities of the fitted line f under prefix, sourced to src. */
static void
add_fit_quantities(struct model *m, const char *prefix, const struct fit *f,
		   const struct fit_notes *fn, const char *src)
{
	struct buf name = BUF_INIT;

	model_num(m, SET(name, "%s.n", prefix), (double)f->n, "", fn->n, NULL,
		  src);
	model_num(m, SET(name, "%s.from", prefix), floor(f->t0), "year",
		  fn->from, NULL, src);
	model_num(m, SET(name, "%s.to", prefix), floor(f->t1), "year",
		  fn->to, NULL, src);
	model_num(m, SET(name, "%s.slope", prefix), f->b, "1/yr", fn->slope,
		  NULL, src);
	model_num(m, SET(name, "%s.intercept", prefix), f->a, "",
		  fn->intercept, NULL, src);
	model_num(m, SET(name, "%s.r2", prefix), f->r2, "", "coefficient of "
		  "determination of the fit", NULL, src);
	/* With three points or more, how well the data pin the line. */
	if (!isnan(f->se_b)) {
		model_num(m, SET(name, "%s.slope_se", prefix), f->se_b, "1/yr",
			  "standard error of the slope, from the scatter of "
			  "the points about the line (n - 2 degrees of "
			  "freedom)", NULL, src);
		if (fn->intercept_se)
			model_num(m, SET(name, "%s.intercept_se", prefix),
				  f->se_a, "", fn->intercept_se, NULL, src);
	}
	if (fn->value_unit)
		model_num(m, SET(name, "%s.value_to", prefix),
			  fit_value_at(f, floor(f->t1)), fn->value_unit,
			  fn->value_to, NULL, src);
	buf_release(&name);
}

/*
 * The least-squares trend over [lo, hi] (fit.c) as series.<id>.fit_W:
 * its points, years, slope, intercept, R^2, standard errors, and its
 * value at its last year. What follows from them (doubling time, the
 * year each limit is reached) is in data/model.md.
 */
static void
add_fit(struct model *m, const struct series *se, const char *window,
	const char *what, double lo, double hi)
{
	const struct series_spec *sp = se->spec;
	struct buf name = BUF_INIT, n = BUF_INIT, slope = BUF_INIT;
	struct fit fit;
	const char *src = table_name(se->t);

	/* An edition with too few points has no trend to show. */
	if (trend_holds(se->time, se->value, se->n, lo, hi, &fit)) {
		struct fit_notes fn = {
			NULL, "first year in the window",
			"last year in the window", NULL,
			"log2(value) at year 0 on the fitted line: log2(v) = "
			"intercept + slope x year",
			"standard error of the intercept (n - 2 degrees of "
			"freedom)",
			"value of the fitted line at the last year of the "
			"window", sp->to_limits ? sp->unit : NULL,
		};

		fn.n = SET(n, "points of %s in the window (%s)", sp->id, what);
		fn.slope = SET(slope, "least-squares slope of log2(%s) against "
			       "time (%s)", sp->value_col, what);
		add_fit_quantities(m, SET(name, "series.%s.fit_%s", sp->id,
					  window), &fit, &fn, src);
	}
	buf_release(&name);
	buf_release(&n);
	buf_release(&slope);
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
	se->left_out = from->left_out;
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
	double art = model_get(m, "article.year");
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
		model_num(m, SET(name, "series.%s.n", sp->id), (double)se->n, "",
		    SET(f, "rows of %s in this edition", sp->what), NULL, src);
		if (sp->out_col)
			model_num(m, SET(name, "series.%s.left_out", sp->id),
				  (double)se->left_out, "",
				  SET(f, "rows of %s whose %s is '%s', left out "
				      "of the series", sp->file, sp->out_col,
				      sp->out_value), NULL, src);
		registry_add_num(m->reg, SET(name, "series.%s.first_year",
					     sp->id), floor(se->time[0]),
				 "year", "year of the first row", NULL,
				 table_cell(se->t, se->row[0],
					    table_col(se->t, "source")),
				 point_origin(se, 0, &org));
		registry_add_num(m->reg, SET(name, "series.%s.first.value",
					     sp->id), se->value[0], sp->unit,
				 SET(f, "%s of the first row", sp->value_col),
				 NULL, table_cell(se->t, se->row[0],
						  table_col(se->t, "source")),
				 point_origin(se, 0, &org));
		registry_add_num(m->reg, SET(name, "series.%s.latest.year",
					     sp->id), floor(se->time[k]),
				 "year", "year of the newest row", NULL,
				 table_cell(se->t, se->row[k],
					    table_col(se->t, "source")),
				 point_origin(se, k, &org));
		registry_add_num(m->reg, SET(name, "series.%s.latest.value",
					     sp->id), se->value[k], sp->unit,
				 SET(f, "%s of the newest row", sp->value_col),
				 NULL, table_cell(se->t, se->row[k],
						  table_col(se->t, "source")),
				 point_origin(se, k, &org));
		registry_add_text(m->reg, SET(name, "series.%s.latest.label",
					      sp->id),
				  table_cell(se->t, se->row[k],
					     table_col(se->t, sp->label_col)),
				  SET(f, "%s of the newest row", sp->label_col),
				  NULL, table_cell(se->t, se->row[k],
						   table_col(se->t, "source")),
				  point_origin(se, k, &org));
		add_fit(m, se, "article", "up to the article's year", -INFINITY,
			art + 0.999);
		add_fit(m, se, "all", "the whole edition", -INFINITY,
			m->as_of + 0.999);
		/*
		 * A row of the document's family over the series, which
		 * derives what the fits give once the trend since the
		 * article (provider "pace") is in too.
		 */
		registry_add_text(m->reg, SET(name, "series.%s.id", sp->id),
				  sp->id, SET(f, "the series of %s", sp->what),
				  NULL, src, NULL);
	}
	buf_release(&name);
	buf_release(&f);
	buf_release(&org);
	return ret;
}

/*
 * A series over the calendar years [from, to] (quantities named by from
 * and to): the factor from its first row in them to its last, and the
 * slope of its trend over them. The doublings they make are in
 * data/model.md.
 */
static void
add_doublings_between(struct model *m, const struct series *se,
		      const char *from, const char *to)
{
	double y0 = model_get(m, from), y1 = model_get(m, to);
	size_t i, a = se->n, b = se->n;
	struct buf name = BUF_INIT, f = BUF_INIT, in = BUF_INIT;
	struct fit fit;

	for (i = 0; i < se->n; i++) {
		if (a == se->n && floor(se->time[i]) >= y0)
			a = i;
		if (floor(se->time[i]) <= y1)
			b = i;
	}
	if (a == se->n || b == se->n || b <= a)
		goto out;
	model_num(m, SET(name, "series.%s.factor_window", se->spec->id),
	    se->value[b] / se->value[a], "",
	    SET(f, "%s of its last row in ..%s / its first in %s..",
		se->spec->value_col, to, from),
	    SET(in, "%s %s", from, to), table_name(se->t));
	if (fit_log2(se->time, se->value, se->n, y0, y1 + 0.999, &fit))
		goto out;
	model_num(m, SET(name, "series.%s.fit_window.slope", se->spec->id),
	    fit.b, "1/yr", SET(f, "least-squares slope of log2(%s) against "
			       "time (%s..%s)", se->spec->value_col, from, to),
	    SET(in, "%s %s", from, to), table_name(se->t));
out:
	buf_release(&name);
	buf_release(&f);
	buf_release(&in);
}

/*
 * The TOP500 No. 1 since the article: the date of the newest list, and
 * the trend from the article's year on (add_fit()), which data/model.md
 * holds against the trend up to the article's year (the pace). Editions
 * with too short a window after the article have no such trend.
 */
static void
add_pace(struct model *m, const struct series *top)
{
	struct buf org = BUF_INIT;
	double art = model_get(m, "article.year"), hi = m->as_of + 0.999;
	size_t k = top->n - 1;

	registry_add_num(m->reg, "series.top500.latest.time", top->time[k],
			 "year", "date of the newest list as a decimal year "
			 "(mid-month)", NULL, table_cell(top->t, top->row[k],
			 table_col(top->t, "source")),
			 point_origin(top, k, &org));
	/* add_fit() holds the window to the rule of every trend. */
	if (registry_get(m->reg, "series.top500.fit_article.value_to"))
		add_fit(m, top, "since", "from the article's year on", art,
			hi);
	buf_release(&org);
}

/*
 * Checks every cell of col, an optional column of positive numbers (an
 * empty cell is a row without the figure). Returns -1 after printing an
 * error at each bad cell.
 */
static int
check_optional_positive(const struct table *t, int col)
{
	size_t r, before = diag_errors();
	double v;

	for (r = 0; r < table_rows(t); r++)
		table_num(t, r, col, TABLE_POSITIVE | TABLE_OPTIONAL, &v);
	return diag_errors() == before ? 0 : -1;
}

/*
 * Each time a new system took the top of the lists, with a power on
 * both sides: whether the newcomer, on its first list, spent more energy
 * per FLOP than the system it displaced did on its last
 * (energy.handovers, energy.handovers_worse); and the system before the
 * record's own (previous.record.*), on its last list, when both it and
 * the record have a power. power[i] is the power of point i of top, or
 * NaN.
 */
static void
add_handovers(struct model *m, const struct series *top, const double *power)
{
	const struct table *t = top->t;
	int cs = table_col(t, "system"), cl = table_col(t, "list");
	size_t i, n = 0, worse = 0, k = top->n - 1, p = top->n;
	double margin = model_get(m, "energy.alike_margin");
	struct buf org = BUF_INIT;
	const char *src = table_name(t);

	for (i = 1; i < top->n; i++) {
		if (!strcmp(table_cell(t, top->row[i], cs),
			    table_cell(t, top->row[i - 1], cs)))
			continue;
		p = i - 1;
		if (isnan(power[i]) || isnan(power[i - 1]))
			continue;
		n++;
		/* Worse beyond the margin within which two are alike. */
		worse += power[i] / top->value[i] >
			 (1 + margin) * power[i - 1] / top->value[i - 1];
	}
	if (n) {
		model_num(m, "energy.handovers", (double)n, "", "times a new "
		    "system took the top of the lists, with a power on both "
		    "lists", NULL, src);
		model_num(m, "energy.handovers_worse", (double)worse, "", "of "
		    "those, the times the newcomer spent more energy per FLOP "
		    "than the system it displaced, each on its own list", NULL,
		    src);
	}
	/* p: the last list of the system before the record's own. */
	if (p < top->n && !strcmp(table_cell(t, top->row[p + 1], cs),
				  table_cell(t, top->row[k], cs)) &&
	    !isnan(power[p]) && !isnan(power[k])) {
		const char *psrc = table_cell(t, top->row[p],
					      table_col(t, "source"));

		point_origin(top, p, &org);
		registry_set_because(m->reg, "record.list");
		registry_add_text(m->reg, "previous.record.name",
				  table_cell(t, top->row[p], cs), "the No. 1 "
				  "before the record's system, on its last "
				  "list", NULL, psrc, org.data);
		registry_add_text(m->reg, "previous.record.list",
				  table_cell(t, top->row[p], cl), "that list",
				  NULL, psrc, org.data);
		registry_add_num(m->reg, "previous.record.rmax",
				 top->value[p], "FLOP/s", "its Rmax on that "
				 "list", NULL, psrc, org.data);
		registry_add_num(m->reg, "previous.record.power", power[p], "W",
				 "its power on that list", NULL, psrc,
				 org.data);
		registry_set_because(m->reg, NULL);
	}
	buf_release(&org);
}

/*
 * Energy per operation of the TOP500 No. 1, from the power published with
 * each list (the optional column power_w; every cell is checked, empty
 * cells are lists without a figure): the lists with power for the energy
 * figure; the trends of the energy per FLOP, of Rmax and of power over
 * them (energy.fit*); the record's power, and the No. 1 of the article's
 * first list with its power. What follows from them (energy per FLOP and
 * per operation, halving time, the distance to Landauer's kT ln 2, then
 * against now) is in data/model.md. Returns -1 after printing errors in
 * the column.
 */
static int
add_energy(struct model *m, const struct series *top)
{
	static const char *const then_now[] = {
		"article.record.energy_per_flop", "energy.power_ratio",
		"energy.speed_ratio", "energy.efficiency_ratio",
	};
	const struct table *t = top->t;
	int cp = table_col(t, "power_w");
	size_t i, n = 0, k = top->n - 1;
	size_t first_art = top->n;
	double *tt = NULL, *ej = NULL, *pw = NULL, *rx = NULL;
	double *power = NULL, art = model_get(m, "article.year");
	struct buf org = BUF_INIT;
	struct dataset *ds = NULL;
	struct fit fe, fr, fp;
	int ret = 0;

	if (cp < 0)
		goto out;
	if (check_optional_positive(t, cp)) {
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
					  ej[n] / model_get(m, "sbops_per_flop") };

			dataset_row(ds, row, table_cell(t, top->row[i],
				    table_col(t, "system")));
		}
		n++;
	}

	/* The trend of the energy per FLOP, and of Rmax and power with it. */
	if (trend_holds(tt, ej, n, -INFINITY, INFINITY, &fe) &&
	    !fit_log2(tt, rx, n, -INFINITY, INFINITY, &fr) &&
	    !fit_log2(tt, pw, n, -INFINITY, INFINITY, &fp) && fe.b < 0 &&
	    fr.b > 0) {
		static const struct fit_notes fn = {
			"lists whose No. 1 has a published power, in this "
			"edition",
			"first year with a published power",
			"last year with a published power",
			"least-squares slope of log2(power / Rmax) of the "
			"No. 1 against time",
			"log2(J per FLOP) at year 0 on the fitted line: "
			"log2(e) = intercept + slope x year", NULL,
			"energy per FLOP on the fitted line at its last year",
			"J/FLOP",
		};
		const char *src = table_name(t);

		add_fit_quantities(m, "energy.fit", &fe, &fn, src);
		model_num(m, "energy.fit_rmax.slope", fr.b, "1/yr", "least-squares "
		    "slope of log2(Rmax) over the same lists", NULL, src);
		model_num(m, "energy.fit_power.slope", fp.b, "1/yr", "least-squares "
		    "slope of log2(power) over the same lists (the slope of "
		    "Rmax plus that of the energy per FLOP)", NULL, src);
		model_num(m, "energy.fit_rmax.slope_se", fr.se_b, "1/yr",
		    "standard error of that slope", NULL, src);
		model_num(m, "energy.fit_power.slope_se", fp.se_b, "1/yr",
		    "standard error of that slope", NULL, src);
	}

	/* The record holder of the edition, when its list gives power. */
	if (!isnan(power[k])) {
		const char *src = table_cell(t, top->row[k],
					     table_col(t, "source"));

		point_origin(top, k, &org);
		registry_add_num(m->reg, "record.power", power[k], "W",
				 "power of the record holder during its run",
				 NULL, src, org.data);
	}

	/* Then and now: the No. 1 of the article's first list against it. */
	if (first_art < top->n && !isnan(power[first_art]) &&
	    registry_get(m->reg, "record.power")) {
		size_t a = first_art;
		const char *src = table_cell(t, top->row[a],
					     table_col(t, "source"));

		point_origin(top, a, &org);
		/* The record's own, before what follows its list. */
		if (m->ev && modeldoc_need(m->ev, "record.energy_per_flop") < 0)
			m->failed = 1;
		/* Only while the record has a power figure. */
		registry_set_because(m->reg, "record.list");
		registry_add_text(m->reg, "article.record.name",
				  table_cell(t, top->row[a],
					     table_col(t, "system")),
				  "No. 1 of the first TOP500 list of the "
				  "article's year", NULL, src, org.data);
		registry_add_text(m->reg, "article.record.list",
				  table_cell(t, top->row[a],
					     table_col(t, "list")),
				  "date of that list", NULL, src, org.data);
		registry_add_num(m->reg, "article.record.rmax", top->value[a],
				 "FLOP/s", "Rmax of that No. 1", NULL, src,
				 org.data);
		registry_add_num(m->reg, "article.record.power", power[a], "W",
				 "power of that No. 1 during its run", NULL,
				 src, org.data);
		/*
		 * What the document derives from them (data/model.md, "Then
		 * and now") is evaluated here, so that it too comes and goes
		 * with the record's list (changes.c).
		 */
		for (i = 0; m->ev && i < sizeof(then_now) / sizeof(*then_now);
		     i++)
			if (modeldoc_need(m->ev, then_now[i]) < 0)
				m->failed = 1;
		registry_set_because(m->reg, NULL);
	}
	add_handovers(m, top, power);
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
 * Whether the system of point i of top appeared at an earlier point from
 * the year art on, with a mass there when known is set (mass[j] not
 * NaN), without one when it is not.
 */
static int
seen_before(const struct table *t, const struct series *top, int cs,
	    size_t i, const double *mass, double art, int known)
{
	const char *name = table_cell(t, top->row[i], cs);
	size_t j;

	for (j = 0; j < i; j++)
		if (floor(top->time[j]) >= art && (!isnan(mass[j])) == known &&
		    !strcmp(table_cell(t, top->row[j], cs), name))
			return 1;
	return 0;
}

/*
 * Rmax per kilogram of the TOP500 No. 1, from the mass of each list's
 * No. 1 (the optional column mass_kg; every cell is checked, empty cells,
 * or no column, are systems whose mass is unknown): over the lists from the article's
 * year on that give a mass, the trend of Rmax over mass (mass.fit*), held
 * to the rule of every trend; how many of those lists give a mass and
 * which No. 1 systems have none (mass.unknown.*), so that the report can
 * say whom the view per kilogram leaves out; and the record holder's
 * mass. The years that trend reaches the limit of one kilogram (which is
 * each machine's own-mass limit per kilogram) are in data/model.md.
 * Returns -1 after printing errors in the column.
 */
static int
add_mass(struct model *m, const struct series *top)
{
	const struct table *t = top->t;
	int cm = table_col(t, "mass_kg"), cs = table_col(t, "system");
	size_t i, n = 0, lists = 0, unknown = 0, names = 0, systems = 0;
	size_t k = top->n - 1;
	double *tt = NULL, *pk = NULL, *mass = NULL;
	double art = model_get(m, "article.year");
	const char *last = NULL;
	struct buf org = BUF_INIT, who = BUF_INIT;
	struct dataset *ds = NULL;
	struct fit f;
	int ret = 0;

	/* Without the column, every No. 1's mass is unknown. */
	if (cm >= 0 && check_optional_positive(t, cm)) {
		ret = -1;
		goto out;
	}
	mass = xcalloc(top->n, sizeof(*mass));
	tt = xcalloc(top->n, sizeof(*tt));
	pk = xcalloc(top->n, sizeof(*pk));
	if (m->ds) {
		static const char *const cols[] = { "year", "mass_kg",
			"rmax_per_kg" };
		static const char *const units[] = { "year", "kg",
			"FLOP/s/kg" };

		ds = dataset_add(m->ds, "mass", "the TOP500 No. 1 of each list "
				 "from the article's year on whose mass the "
				 "data give: mass and Rmax per kilogram", cols,
				 units, 3);
	}
	for (i = 0; i < top->n; i++) {
		const char *name = table_cell(t, top->row[i], cs);

		mass[i] = NAN;
		if (cm >= 0)
			table_num(t, top->row[i], cm, TABLE_OPTIONAL,
				  &mass[i]);
		if (floor(top->time[i]) < art)
			continue;
		lists++;
		if (isnan(mass[i])) {
			unknown++;
			/* Each system once, in the order of the lists. */
			if ((!last || strcmp(last, name)) &&
			    !seen_before(t, top, cs, i, mass, art, 0)) {
				/* "A, B and C": the last joined by and. */
				if (names)
					BUF_ADDLIT(&who, "\x1f");
				buf_addstr(&who, name);
				names++;
			}
			last = name;
			continue;
		}
		last = name;
		/* Each system with a mass counted once. */
		if (!seen_before(t, top, cs, i, mass, art, 1))
			systems++;
		tt[n] = top->time[i];
		pk[n] = top->value[i] / mass[i];
		if (ds) {
			double row[3] = { tt[n], mass[i], pk[n] };

			dataset_row(ds, row, name);
		}
		n++;
	}
	if (lists) {
		const char *src = table_name(t);

		model_num(m, "mass.lists", (double)lists, "", "TOP500 lists "
		    "from the article's year on, in this edition", NULL, src);
		model_num(m, "mass.known.count", (double)(lists - unknown), "",
		    "of them, lists whose No. 1 has a mass in the data", NULL,
		    src);
		model_num(m, "mass.known.systems", (double)systems, "",
		    "distinct No. 1 systems of those lists with a mass", NULL,
		    src);
		model_num(m, "mass.unknown.count", (double)unknown, "",
		    "of them, lists whose No. 1 has no mass in the data", NULL,
		    src);
		model_num(m, "mass.unknown.systems", (double)names, "",
		    "distinct No. 1 systems of those lists without a mass",
		    NULL, src);
		if (names) {
			char *sep;
			struct buf list = BUF_INIT;
			const char *p = who.data;

			/* Separators: ", " between, " and " before the last. */
			while ((sep = strchr(p, '\x1f'))) {
				buf_add(&list, p, (size_t)(sep - p));
				if (strchr(sep + 1, '\x1f'))
					BUF_ADDLIT(&list, ", ");
				else
					BUF_ADDLIT(&list, " and ");
				p = sep + 1;
			}
			buf_addstr(&list, p);
			buf_reset(&who);
			buf_addstr(&who, list.data);
			buf_release(&list);
		}
		if (names)
			registry_add_text(m->reg, "mass.unknown.names", who.data,
					  "the No. 1 systems from the article's "
					  "year on whose mass the data do not "
					  "give, in the order of the lists",
					  NULL, src, NULL);
	}

	/*
	 * The trend of Rmax per kilogram, by the rule of every trend, and
	 * over as many machines as that rule asks of points: the lists of
	 * one system repeat its mass, so two machines over four lists would
	 * make a line through two (the 2014-2017 editions had one, from
	 * Roadrunner and Titan, reach the limit before the whole machine).
	 */
	if (systems >= TREND_MIN_POINTS &&
	    trend_holds(tt, pk, n, -INFINITY, INFINITY, &f) && f.b > 0) {
		static const struct fit_notes fn = {
			"lists from the article's year on whose No. 1 has a "
			"mass, in this edition",
			"first year of the trend per kilogram",
			"last year of the trend per kilogram",
			"least-squares slope of log2(Rmax / mass) of the No. 1 "
			"against time",
			"log2(FLOP/s per kg) at year 0 on the fitted line: "
			"log2(x) = intercept + slope x year", NULL,
			"Rmax per kilogram on the fitted line at its last year",
			"FLOP/s/kg",
		};

		add_fit_quantities(m, "mass.fit", &f, &fn, table_name(t));
	}

	/* The record holder of the edition, when its list gives a mass. */
	if (!isnan(mass[k])) {
		point_origin(top, k, &org);
		registry_add_num(m->reg, "record.mass", mass[k], "kg",
				 "mass of the record holder", NULL,
				 table_cell(t, top->row[k],
					    table_col(t, "source")), org.data);
	}
out:
	free(mass);
	free(tt);
	free(pk);
	buf_release(&org);
	buf_release(&who);
	return ret;
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
	src = table_cell(t, se->row[k], table_col(t, "source"));
	point_origin(se, k, &org);
	buf_addf(&how, "the largest %s in %s of the edition", what,
		 table_name(t));
	registry_add_text(m->reg, SET(name, "%s.name", prefix),
			  table_cell(t, se->row[k], table_col(t, "model")),
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
		model_num(m, "current.disk.is_ssd", 0, "", "no solid-state drive "
		    "in ssd_capacity.csv of the edition: the hard disk holds "
		    "the record", NULL, OURS);
	} else {
		ks = add_largest_drive(m, "current.ssd", "solid-state drive",
				       ssd);
		ssd_leads = ssd->value[ks] > hdd->value[kh];
		model_fx(m, "current.disk.is_ssd", ssd_leads, "",
		   "current.ssd.storage > current.hdd.storage",
		   "1 when a solid-state drive holds the per-drive record, "
		   "else 0", "current.ssd.storage current.hdd.storage", OURS);
	}
	win = ssd_leads ? ssd : hdd;
	i = ssd_leads ? ks : kh;
	src = table_cell(win->t, win->row[i], table_col(win->t, "source"));
	point_origin(win, i, &org);
	registry_add_text(m->reg, "current.disk.name",
			  table_cell(win->t, win->row[i],
				     table_col(win->t, "model")),
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
	const char *src = table_cell(t, r, table_col(t, "source"));

	point_origin(top, k, &org);
	registry_add_text(m->reg, "record.name",
			  table_cell(t, r, table_col(t, "system")),
			  "No. 1 of the newest TOP500 list of the edition",
			  NULL, src, org.data);
	registry_add_text(m->reg, "record.list",
			  table_cell(t, r, table_col(t, "list")),
			  "date of that list", NULL, src, org.data);
	registry_add_text(m->reg, "record.site",
			  table_cell(t, r, table_col(t, "site")),
			  "site of the record holder", NULL, src, org.data);
	registry_add_num(m->reg, "record.year", floor(top->time[k]), "year",
			 "year of that list", NULL, src, org.data);
	registry_add_num(m->reg, "record.rmax", top->value[k], "FLOP/s",
			 "Rmax of the record holder", NULL, src, org.data);
	buf_release(&org);
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
	double lim = model_get(m, "laptop.ops_max"), sb = model_get(m, "sbops_per_flop");
	double lap = model_get(m, "article.laptop_flops");
	double rec = model_get(m, "record.rmax");
	double rho = model_get(m, "laptop.mass") / model_get(m, "laptop.volume");
	double V0 = model_get(m, "laptop.volume");
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
		double td = model_get(m, "rate.lloyd");
		double row[3] = { f, phys_years_to(lap * f, lim, td),
				  phys_years_to(rec * f, lim, td) };

		dataset_row(ds, row, NULL);
	}
	ds = dataset_add(m->ds, "dust", "bits and operations per second "
			 "against volume, from the smart dust's to a litre",
			 dust_cols, dust_units, 5);
	for (i = 0; i <= 75; i++) {
		double V = model_get(m, "dust.volume") * pow(10, 0.2 * i);
		double E = phys_rest_energy(pc, rho * V);
		double T = phys_rad_temperature(pc, E, V,
						model_get(m, "laptop.modes"));
		double row[5] = {
			V,
			phys_volume_scale(model_get(m, "atomic.bits"), V, V0),
			phys_volume_scale(model_get(m, "atomic.ops"), V, V0),
			phys_entropy_bits(pc, phys_rad_entropy(E, T)),
			phys_ml_ops(pc, E),
		};

		if (V > V0 * 1.0001)
			break;
		dataset_row(ds, row, NULL);
	}
}

void
model_add_edition(struct model *m)
{
	struct buf newest = BUF_INIT;
	size_t i;

	/* The year of the newest rows of the history series. */
	for (i = 0; i < sizeof(series_specs) / sizeof(series_specs[0]); i++)
		buf_addf(&newest, "%sseries.%s.latest.year", i ? " " : "",
			 series_specs[i].id);
	registry_set_because(m->reg, newest.data);
	model_num(m, "edition.year", m->as_of, "year",
	    "newest year of data used (--as-of, default the newest in data/)",
	    NULL, OURS);
	registry_set_because(m->reg, NULL);
	buf_release(&newest);
}

/*
 * The newest year of the data's dated rows (m->newest, and the file of
 * the row in m->newest_file): the default edition, and the newest one.
 */
void
model_newest_year(struct model *m)
{
	rows_newest(m->ts, m->datadir, &m->newest, &m->newest_file);
}


/*
 * The provider "series": the history series (top500.csv, the disks,
 * flash, areal density, transistors), each read as of the edition and
 * fitted (fit.c). The C arithmetic from here on takes the constants the
 * document defines.
 */
int
provide_series(void *ctx)
{
	struct model *m = ctx;

	m->pcv = (struct physconst){ "model document", model_get(m, "const.c"),
		model_get(m, "const.h"), model_get(m, "const.hbar"), model_get(m, "const.k"),
		model_get(m, "const.G"), model_get(m, "const.eV") };
	m->pc = &m->pcv;
	if (m->failed || add_series(m, m->all) || m->failed)
		return -1;
	return 0;
}

/* The provider "pace": the TOP500 No. 1's pace against its own trend. */
int
provide_pace(void *ctx)
{
	struct model *m = ctx;

	add_pace(m, &m->all[S_TOP500]);
	return m->failed ? -1 : 0;
}

/*
 * The provider "article_gaps": the article's 2008 laptop against the
 * 1 kg limits, and its areal-density doublings.
 */
int
provide_article_gaps(void *ctx)
{
	struct model *m = ctx;

	add_doublings_between(m, &m->all[S_AREAL], "article.density_from",
			      "article.density_to");
	return m->failed ? -1 : 0;
}

/*
 * The provider "records": the record TOP500 No. 1 of the edition, the
 * largest drives, the energy per operation of the No. 1 systems and their
 * Rmax per kilogram.
 */
int
provide_records(void *ctx)
{
	struct model *m = ctx;

	add_record(m, &m->all[S_TOP500]);
	add_current_disk(m, &m->all[S_DISK_RECORD], &m->all[S_SSD]);
	if (add_energy(m, &m->all[S_TOP500]) ||
	    add_mass(m, &m->all[S_TOP500]))
		return -1;
	return m->failed ? -1 : 0;
}

/* The provider "curves": the figures' curves (only for a report). */
int
provide_curves(void *ctx)
{
	struct model *m = ctx;

	if (m->ds && !m->failed)
		add_curves(m);
	return m->failed ? -1 : 0;
}

/* The series model_build() reads, one per entry of series_specs[]. */
struct series *
model_series_new(void)
{
	return xcalloc(sizeof(series_specs) / sizeof(series_specs[0]),
		       sizeof(struct series));
}

void
model_series_free(struct series *all)
{
	size_t i;

	for (i = 0; all && i < sizeof(series_specs) / sizeof(series_specs[0]);
	     i++)
		series_release(&all[i]);
	free(all);
}
