/*
 * The load stage for data files declared without C (data/schema.csv,
 * schema.c): each row of each declared file becomes named quantities in
 * the registry, numbers with their declared units and text as text.
 * Reads the tables through the set; writes only the registry.
 */
#include <math.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "registry.h"
#include "rows.h"
#include "schema.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Each row is a handful of quantities on every page: a bound, as
 * devices.csv has.
 */
#define ROWS_MAX 10000

/* The quantities of row r of t under prefix. Returns -1 on errors. */
static int
add_row(struct registry *reg, const struct table *t, size_t r,
	const char *prefix, double year, const char *source)
{
	const struct table_schema *sc = table_schema_of(t);
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
	for (k = 0; k < sc->ncols; k++) {
		const struct table_column *c = &sc->cols[k];
		int col = table_find(t, c->name);
		const char *cell = col >= 0 ? table_cell(t, r, col) : "";
		double v;

		if (!*cell || (c->flags & (TABLE_COL_ID | TABLE_COL_DATE)))
			continue;
		buf_reset(&name);
		buf_addf(&name, "%s.%s.%s", prefix, id, c->name);
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

/*
 * The year of row r's date (NAN when it has none: it is in every
 * edition), into *year. Returns -1 after an error.
 */
static int
row_year(const struct table *t, size_t r, int col, double *year)
{
	const struct table_schema *sc = table_schema_of(t);
	size_t k;
	int y;

	*year = NAN;
	if (col < 0 || !*table_cell(t, r, col))
		return 0;
	for (k = 0; !(sc->cols[k].flags & TABLE_COL_DATE); k++)
		;
	if (sc->cols[k].kind == TABLE_KIND_MONTH)
		return table_month(t, r, col, TABLE_YEAR_MIN, TABLE_YEAR_MAX,
				   year);
	if (table_year(t, r, col, TABLE_YEAR_MIN, TABLE_YEAR_MAX, &y))
		return -1;
	*year = y;
	return 0;
}

/*
 * Groups of names added after the model (the claims audit's): a file
 * called so would collide with them later, where no cell is to blame.
 */
static const char *const later[] = { "claim", "claims" };

/* Whether prefix names quantities the model has, or adds later. */
static int
taken(const struct registry *reg, const char *prefix)
{
	size_t i;

	for (i = 0; i < sizeof(later) / sizeof(later[0]); i++)
		if (!strcmp(later[i], prefix))
			return 1;
	return registry_has(reg, prefix);
}

/* Adds the rows of one declared file. Returns -1 after errors. */
static int
add_file(struct registry *reg, struct tableset *ts, const char *datadir,
	 const struct table_schema *sc, int as_of, int newest,
	 const char *newest_file)
{
	struct buf prefix = BUF_INIT;
	struct table *t;
	size_t r, before = diag_errors();
	int cdate, csrc;

	buf_add(&prefix, sc->file, strlen(sc->file) - strlen(".csv"));
	if (taken(reg, prefix.data)) {
		/* At the file's first declaration (read already). */
		t = tableset_load(ts, datadir, SCHEMA_FILE);
		cdate = table_col(t, "file");
		for (r = 0; strcmp(table_cell(t, r, cdate), sc->file); r++)
			;
		table_error(t, r, cdate, "'%s' would name its rows "
			    "%s.<id>.*, and the model has quantities called "
			    "%s.* already: name the file otherwise", sc->file,
			    prefix.data, prefix.data);
		goto out;
	}
	t = tableset_load_as(ts, datadir, sc->file, sc);
	if (!t || table_max_rows(t, ROWS_MAX, "each row is quantities of "
				  "the report"))
		goto out;
	cdate = table_role(t, TABLE_COL_DATE);
	csrc = table_find(t, "source");
	for (r = 0; r < table_rows(t); r++) {
		double year;
		const char *src;

		if (table_unique(t, r, table_role(t, TABLE_COL_ID)) ||
		    row_year(t, r, cdate, &year))
			continue;
		if (newest && floor(year) > newest) {
			table_error(t, r, cdate, "dated %d, after the newest "
				    "year of the data (%d, in %s): no edition "
				    "would show this row", (int)floor(year),
				    newest, newest_file);
			continue;
		}
		if (floor(year) > as_of)
			continue;
		src = csrc >= 0 && *table_cell(t, r, csrc) ?
		      table_cell(t, r, csrc) : table_name(t);
		add_row(reg, t, r, prefix.data, year, src);
	}
out:
	buf_release(&prefix);
	return diag_errors() == before ? 0 : -1;
}

int
rows_add(struct registry *reg, struct tableset *ts, const char *datadir,
	 int as_of, int newest, const char *newest_file)
{
	const struct table_schema *sc;
	size_t n, i;
	int ret = 0;

	if (schema_declared(ts, datadir, &sc, &n))
		return -1;
	for (i = 0; i < n; i++)
		ret |= add_file(reg, ts, datadir, &sc[i], as_of, newest,
				newest_file);
	return ret;
}

const char **
rows_files(struct tableset *ts, const char *datadir,
	   const char *const *builtin)
{
	const struct table_schema *sc;
	const char **v;
	size_t n = 0, nb, i;

	for (nb = 0; builtin[nb]; nb++)
		;
	if (schema_declared(ts, datadir, &sc, &n))
		n = 0;
	v = xcalloc(nb + n + 1, sizeof(*v));
	for (i = 0; i < nb; i++)
		v[i] = builtin[i];
	for (i = 0; i < n; i++)
		v[nb + i] = sc[i].file;
	return v;
}
