/*
 * The model stage's generic provider of data rows: the files of the
 * data catalogue (schema.h), read through the table set, as of an
 * edition. Writes a values file's rows and a rows file's rows with ids
 * into the registry as quantities, and hands any rows file to the
 * expressions as rows to range over (expr.h). Knows no file of any
 * project: the catalogue names them and their columns.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "registry.h"
#include "rows.h"
#include "schema.h"
#include "suggest.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Each row of a file with ids is a handful of quantities on every page,
 * and each value one: a bound, so that a catalogue of a million rows is
 * an error rather than a minute and gigabytes.
 */
#define ROWS_MAX 10000

/* The column called source, whose cell is the source of a row's values. */
static int
source_column(const struct table *t)
{
	return table_find(t, "source");
}

int
rows_values(struct registry *reg, struct tableset *ts, const char *datadir,
	    const struct schema_file *f)
{
	struct buf origin = BUF_INIT, uerr = BUF_INIT;
	struct unit dim;
	struct table *t;
	int cname, cvalue, cunit, csource;
	size_t before = diag_errors(), r;

	t = schema_load(ts, datadir, f->s.file);
	if (!t || table_max_rows(t, ROWS_MAX, "each row is a quantity of "
				 "the report"))
		return -1;
	/* The catalogue declares them (schema.c checks a values file's). */
	cname = table_col(t, "name");
	cvalue = table_col(t, "value");
	cunit = table_col(t, "unit");
	csource = table_col(t, "source");
	for (r = 0; r < table_rows(t); r++) {
		const char *name, *source, *unit = table_cell(t, r, cunit);
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
		if (registry_has(reg, name)) {
			table_error(t, r, cname, "duplicate name '%s'", name);
			continue;
		}
		if (unit_parse(unit, &dim, &uerr)) {
			table_error(t, r, cunit, "%s", uerr.data);
			buf_reset(&uerr);
			continue;
		}
		buf_reset(&origin);
		buf_addf(&origin, "%s:%zu", table_name(t), table_line(t, r));
		registry_add_num(reg, name, v, unit, "assumption", NULL,
				 source, origin.data);
	}
	buf_release(&origin);
	buf_release(&uerr);
	return diag_errors() == before ? 0 : -1;
}

/*
 * The year of row r's date into *year (the middle of its period into
 * *time), or both NAN when the file is not dated or the cell is empty.
 * The cell's kind was checked when the file was read.
 */
static void
row_date(const struct table *t, size_t r, int col, double *year,
	 double *time)
{
	const struct table_column *c = table_column_of(t, col);
	const char *cell = col >= 0 ? table_cell(t, r, col) : "";

	*year = *time = NAN;
	if (!*cell || !c)
		return;
	*year = atoi(cell);
	if (c->kind == TABLE_KIND_MONTH)
		table_month(t, r, col, TABLE_YEAR_MIN, TABLE_YEAR_MAX, time);
	else
		*time = *year + 0.5;
}

/*
 * What is read of a rows file's cells, once for every edition of a run
 * (kept with the table set): each row's date, and each number when it
 * is first read. An edition's rows are some of the table's, so each
 * edition parsed its dates and numbers again (a strtod() a cell): at a
 * million rows, a tenth of every edition's time.
 */
struct rows_cells {
	double *date;		/* per table row: its year and middle, or NAN */
	double *num;		/* per table row and catalogue column: the
				   number, NAN when it is not read yet */
};

static void
cells_free(void *p)
{
	struct rows_cells *c = p;

	free(c->date);
	free(c->num);
	free(c);
}

/* The cells of t (file f) read so far, made and kept on the first call. */
static struct rows_cells *
rows_cells(struct tableset *ts, const struct schema_file *f,
	   const struct table *t)
{
	struct buf key = BUF_INIT;
	struct rows_cells *c;
	size_t r, n = table_rows(t), nc = f->s.ncols;
	int col = table_role(t, TABLE_COL_DATE);

	buf_addf(&key, "rows cells %s", table_name(t));
	if ((c = tableset_kept(ts, key.data))) {
		buf_release(&key);
		return c;
	}
	c = xcalloc(1, sizeof(*c));
	c->date = xcalloc(2 * (n ? n : 1), sizeof(*c->date));
	for (r = 0; r < n; r++)
		row_date(t, r, col, &c->date[2 * r], &c->date[2 * r + 1]);
	c->num = xcalloc((n ? n : 1) * (nc ? nc : 1), sizeof(*c->num));
	for (r = 0; r < n * nc; r++)
		c->num[r] = NAN;
	tableset_keep(ts, key.data, c, cells_free);
	buf_release(&key);
	return c;
}

/* The quantities of row r of t (file f) under prefix. -1 on errors. */
static int
add_row(struct registry *reg, const struct schema_file *f,
	const struct table *t, size_t r, const char *prefix, double year,
	const char *source)
{
	struct buf name = BUF_INIT, org = BUF_INIT, what = BUF_INIT;
	const char *id = table_cell(t, r, table_role(t, TABLE_COL_ID));
	size_t k;
	int bad = 0;

	buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
	buf_addf(&name, "%s.%s.id", prefix, id);
	buf_addf(&what, "the row's id, from %s", table_name(t));
	if (!registry_add_text(reg, name.data, id, what.data, NULL, source,
			       org.data))
		bad = -1;
	if (!isnan(year)) {
		buf_reset(&name);
		buf_addf(&name, "%s.%s.year", prefix, id);
		buf_reset(&what);
		buf_addf(&what, "the row's date, from %s", table_name(t));
		if (!registry_add_num(reg, name.data, year, "year", what.data,
				      NULL, source, org.data))
			bad = -1;
	}
	for (k = 0; k < f->s.ncols; k++) {
		const struct table_column *c = &f->s.cols[k];
		int col = table_find(t, c->name);
		const char *cell = col >= 0 ? table_cell(t, r, col) : "";
		double v;

		if (!*cell || !f->names[k] ||
		    (c->flags & (TABLE_COL_ID | TABLE_COL_DATE)))
			continue;
		buf_reset(&name);
		buf_addf(&name, "%s.%s.%s", prefix, id, f->names[k]);
		buf_reset(&what);
		if (c->what && *c->what)
			buf_addstr(&what, c->what);
		else
			buf_addf(&what, "column '%s' of %s", c->name,
				 table_name(t));
		if (c->kind != TABLE_KIND_NUMBER) {
			if (!registry_add_text(reg, name.data, cell, what.data,
					       NULL, source, org.data))
				bad = -1;
		} else if (table_num(t, r, col, 0, &v) ||
			   !registry_add_num(reg, name.data, v, c->unit ?
					     c->unit : "", what.data, NULL,
					     source, org.data)) {
			bad = -1;
		}
	}
	buf_release(&name);
	buf_release(&org);
	buf_release(&what);
	return bad;
}

int
rows_add(struct registry *reg, struct tableset *ts, const char *datadir,
	 const struct schema_file *f, int as_of,
	 int (*row_done)(void *ctx, const char *row), void *ctx)
{
	struct buf row = BUF_INIT;
	struct table *t;
	size_t r, before = diag_errors();
	int cdate, cid, csrc;

	if (registry_has(reg, f->prefix)) {
		error("%s/%s: its rows would be %s.<id>.*, and the model has "
		      "quantities called %s.* already: give the file another "
		      "prefix in the catalogue (%s)", datadir, f->s.file,
		      f->prefix, f->prefix, SCHEMA_FILE);
		return -1;
	}
	t = schema_load(ts, datadir, f->s.file);
	if (!t || table_max_rows(t, ROWS_MAX, "each row is quantities of "
				  "the report"))
		return -1;
	cdate = table_role(t, TABLE_COL_DATE);
	cid = table_role(t, TABLE_COL_ID);
	csrc = source_column(t);
	for (r = 0; r < table_rows(t) && cid >= 0; r++) {
		double year, time;
		const char *src;

		if (table_unique(t, r, cid))
			continue;
		row_date(t, r, cdate, &year, &time);
		if (!isnan(year) && year > as_of)
			continue;
		src = csrc >= 0 && *table_cell(t, r, csrc) ?
		      table_cell(t, r, csrc) : table_name(t);
		if (add_row(reg, f, t, r, f->prefix, year, src))
			break;
		buf_reset(&row);
		buf_addf(&row, "%s.%s", f->prefix, table_cell(t, r, cid));
		if (row_done && row_done(ctx, row.data))
			break;
	}
	buf_release(&row);
	return diag_errors() == before ? 0 : -1;
}

/* Whether f's rows are things with ids rather than a history. */
static int
has_ids(const struct schema_file *f)
{
	size_t k;

	for (k = 0; k < f->s.ncols; k++)
		if (f->s.cols[k].flags & TABLE_COL_ID)
			return 1;
	return 0;
}

int
rows_newest(struct tableset *ts, const char *datadir, int *year,
	    int *newest, struct buf *origin)
{
	const char *file = NULL;
	const struct schema_file *v;
	size_t n, i, r, before = diag_errors();
	int pass, histories = 0, best = 0;
	const double *date;

	*newest = 0;
	if (schema_catalogue(ts, datadir, &v, &n))
		return -1;
	/*
	 * Pass 0 the histories (dated files without ids), whose newest row
	 * is the newest edition; pass 1 the things with ids, none of which
	 * may be newer (no edition would show it), or, with no history,
	 * the newest of them is. Pass 2 finds the newest row the edition
	 * shows of the files that decided.
	 */
	for (pass = 0; pass < 3; pass++) {
		if (pass == 2 && (!*year || *year > *newest))
			*year = *newest;
		for (i = 0; i < n; i++) {
			const struct table *t;
			int col;

			if (v[i].kind != SCHEMA_ROWS ||
			    (pass < 2 ? has_ids(&v[i]) != pass :
			     histories && has_ids(&v[i])))
				continue;
			if (!(t = schema_load(ts, datadir, v[i].s.file)))
				return -1;
			col = table_role(t, TABLE_COL_DATE);
			date = col >= 0 ? rows_cells(ts, &v[i], t)->date : NULL;
			for (r = 0; col >= 0 && r < table_rows(t); r++) {
				/* An empty date counts as year 0. */
				int y = isnan(date[2 * r]) ? 0 : (int)date[2 * r];

				if (pass == 2) {
					if (y > *year || y < best)
						continue;
					best = y;
					buf_reset(origin);
					buf_addf(origin, "%s:%zu", table_name(t),
						 table_line(t, r));
					continue;
				}
				histories |= !pass;
				if (y <= *newest)
					continue;
				if (pass && histories)
					table_error(t, r, col, "dated %d, after "
						    "the newest year of the "
						    "data (%d, in %s): no "
						    "edition would show this "
						    "row", y, *newest, file);
				else {
					*newest = y;
					file = v[i].s.file;
				}
			}
		}
	}
	return diag_errors() == before ? 0 : -1;
}

/*
 * The row of datadir's catalogue that describes column col of file, or
 * SIZE_MAX; *cat its table.
 */
static size_t
catalogue_row(struct tableset *ts, const char *datadir, const char *file,
	      const char *col, const struct table **cat)
{
	struct buf path = BUF_INIT;
	size_t r;
	int cf, cc;

	buf_addf(&path, "%s/%s", datadir, SCHEMA_FILE);
	*cat = tableset_find(ts, path.data);
	buf_release(&path);
	if (!*cat)
		return SIZE_MAX;
	cf = table_find(*cat, "file");
	cc = table_find(*cat, "column");
	for (r = 0; cf >= 0 && cc >= 0 && r < table_rows(*cat); r++)
		if (!strcmp(table_cell(*cat, r, cf), file) &&
		    !strcmp(table_cell(*cat, r, cc), col))
			return r;
	return SIZE_MAX;
}

int
rows_cell_error(struct tableset *ts, const char *datadir, const char *origin,
		const char *name, int of_unit, const char *msg)
{
	struct buf path = BUF_INIT;
	const struct schema_file *f = NULL;
	const struct table *t;
	const char *colon = strrchr(origin, ':'), *file;
	size_t k, pl, r = SIZE_MAX;
	int col = -1;

	if (!colon)
		return 1;
	buf_add(&path, origin, (size_t)(colon - origin));
	t = tableset_find(ts, path.data);
	buf_release(&path);
	/* Its catalogue entry: the name after "DATADIR/". */
	file = t ? table_name(t) : "";
	if (!strncmp(file, datadir, strlen(datadir)) &&
	    file[strlen(datadir)] == '/')
		f = schema_find(ts, datadir, file + strlen(datadir) + 1);
	if (f)
		r = table_row_at_line(t, strtoul(colon + 1, NULL, 10));
	if (r == SIZE_MAX)
		return 1;
	pl = f->prefix ? strlen(f->prefix) : 0;
	/* A row's quantity, PREFIX.ID.NAME: its NAME's column. */
	if (pl && !strncmp(name, f->prefix, pl) && name[pl] == '.' &&
	    strchr(name + pl + 1, '.'))
		name = strchr(name + pl + 1, '.') + 1;
	if (f->kind == SCHEMA_VALUES)
		col = table_find(t, of_unit ? "unit" : "value");
	else if (!strcmp(name, "year") || !strcmp(name, "time"))
		col = table_role(t, TABLE_COL_DATE);
	for (k = 0; col < 0 && k < f->s.ncols; k++)
		if (f->names[k] && !strcmp(f->names[k], name))
			col = table_find(t, f->s.cols[k].name);
	if (col < 0)
		return 1;
	/* A rows file's unit is its column's, in the catalogue. */
	if (of_unit && f->kind != SCHEMA_VALUES) {
		r = catalogue_row(ts, datadir, f->s.file,
				  table_header(t, (size_t)col), &t);
		col = r == SIZE_MAX ? -1 : table_find(t, "unit");
		if (col < 0)
			return 1;
	}
	table_error(t, r, col, "%s", msg);
	return 0;
}

/*
 * One rows file's rows of an edition. What a reduction or a trend reads
 * of a row is worked out once for the run (rows_cells()); the date's
 * unit is parsed once here (it was at every read: 2.4% of a report's
 * instructions).
 */
struct rows_source {
	const struct schema_file *f;
	const struct table *t;
	size_t *row;		/* the table's rows of the edition */
	size_t n;
	int cdate, csrc;
	int *col;		/* per catalogue column: the table's, or -1 */
	struct unit *unit;	/* per catalogue column, of a number */
	struct unit year;	/* of a date */
	struct rows_cells *cells;
};

struct rows_source *
rows_source(struct tableset *ts, const char *datadir,
	    const struct schema_file *f, int as_of)
{
	struct rows_source *s;
	struct table *t = schema_load(ts, datadir, f->s.file);
	size_t r, k;

	if (!t)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->f = f;
	s->t = t;
	s->cells = rows_cells(ts, f, t);
	s->cdate = table_role(t, TABLE_COL_DATE);
	s->csrc = source_column(t);
	s->row = xcalloc(table_rows(t) ? table_rows(t) : 1, sizeof(*s->row));
	s->col = xcalloc(f->s.ncols ? f->s.ncols : 1, sizeof(*s->col));
	s->unit = xcalloc(f->s.ncols ? f->s.ncols : 1, sizeof(*s->unit));
	for (k = 0; k < f->s.ncols; k++) {
		s->col[k] = table_find(t, f->s.cols[k].name);
		/* The catalogue's units parse: schema.c checked them. */
		if (f->s.cols[k].kind == TABLE_KIND_NUMBER &&
		    unit_parse(f->s.cols[k].unit ? f->s.cols[k].unit : "",
			       &s->unit[k], NULL))
			BUG("unit '%s' of %s", f->s.cols[k].unit, f->s.file);
	}
	/* An undated row is every edition's. */
	for (r = 0; r < table_rows(t); r++)
		if (!(s->cells->date[2 * r] > as_of))
			s->row[s->n++] = r;
	if (unit_parse("year", &s->year, NULL))
		BUG("the unit 'year'");
	return s;
}

/* rows_source_expr()'s get(): a cell, the date's year or its middle. */
static int
source_get(void *ctx, size_t i, const char *rest, struct value *out)
{
	const struct rows_source *s = ctx;
	const struct schema_file *f = s->f;
	size_t k;
	double v;
	const char *cell;

	if (s->cdate >= 0 && (!strcmp(rest, "year") || !strcmp(rest, "time"))) {
		if (i >= s->n || isnan(s->cells->date[2 * s->row[i]]))
			return 1;
		if (out) {
			memset(out, 0, sizeof(*out));
			out->type = VALUE_NUMBER;
			out->num = s->cells->date[2 * s->row[i] + (*rest != 'y')];
			out->unit = s->year;
			out->utext = "year";
		}
		return 0;
	}
	for (k = 0; k < f->s.ncols; k++)
		if (f->names[k] && *f->names[k] == *rest &&
		    !strcmp(f->names[k], rest))
			break;
	if (k == f->s.ncols)
		return 2;
	/* The date by its own name: a month as written, a year a year. */
	if (f->s.cols[k].kind == TABLE_KIND_YEAR)
		return source_get(ctx, i, "year", out);
	if (i >= s->n || s->col[k] < 0)
		return 1;
	cell = table_cell(s->t, s->row[i], s->col[k]);
	if (!*cell)
		return 1;
	if (!out)
		return 0;
	memset(out, 0, sizeof(*out));
	if (f->s.cols[k].kind != TABLE_KIND_NUMBER) {
		/* Text: its own, or a month's date as written (2008-06). */
		out->type = VALUE_TEXT;
		out->text = xstrdup(cell);
		return 0;
	}
	/* The cell was checked as a number when the file was read. */
	v = s->cells->num[s->row[i] * f->s.ncols + k];
	if (isnan(v)) {
		if (table_num(s->t, s->row[i], s->col[k], 0, &v))
			return -1;
		s->cells->num[s->row[i] * f->s.ncols + k] = v;
	}
	out->type = VALUE_NUMBER;
	out->num = v;
	out->unit = s->unit[k];
	/* The catalogue's unit, "" for a pure number. */
	out->utext = f->s.cols[k].unit ? f->s.cols[k].unit : "";
	return 0;
}

static const char *
source_where(void *ctx, size_t i, struct buf *origin)
{
	const struct rows_source *s = ctx;
	const char *src;

	if (i >= s->n) {
		buf_addstr(origin, table_name(s->t));
		return table_name(s->t);
	}
	buf_addf(origin, "%s:%zu", table_name(s->t),
		 table_line(s->t, s->row[i]));
	src = s->csrc >= 0 ? table_cell(s->t, s->row[i], s->csrc) : "";
	return *src ? src : table_name(s->t);
}

static void
source_names(void *ctx, struct suggest *sg)
{
	const struct rows_source *s = ctx;
	size_t k;

	for (k = 0; k < s->f->s.ncols; k++)
		if (s->f->names[k])
			suggest_add(sg, s->f->names[k]);
	if (s->cdate >= 0) {
		suggest_add(sg, "year");
		suggest_add(sg, "time");
	}
}

void
rows_source_expr(struct rows_source *src, struct expr_rows *out)
{
	memset(out, 0, sizeof(*out));
	out->n = src->n;
	out->ctx = src;
	out->get = source_get;
	out->where = source_where;
	out->names = source_names;
	out->what = table_name(src->t);
	out->file = table_name(src->t);
	out->ids = src->row;
}

const struct schema_file *
rows_source_file(const struct rows_source *src)
{
	return src->f;
}

const struct table *
rows_source_table(const struct rows_source *src)
{
	return src->t;
}

void
rows_source_free(struct rows_source *src)
{
	if (!src)
		return;
	free(src->row);
	free(src->col);
	free(src->unit);
	free(src);
}
