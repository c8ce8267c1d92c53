/*
 * The model stage: data -> quantity registry. Reads the project's data
 * catalogue (schema.h) through the table set: its values files, one
 * quantity a row, before anything else; then evaluates the model
 * document (data/model.md, modeldoc.c), handing it the rows of the
 * catalogue's files (rows.c) for its families, reductions, sets of rows,
 * trends and datasets. Everything it computes the document says; this
 * file knows no project's files, columns or physics. Writes quantities
 * into a new registry, and the figure data (dataset.c). Formats no
 * numbers for the reader, but in error messages.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dataset.h"
#include "diag.h"
#include "expr.h"
#include "model.h"
#include "modeldoc.h"
#include "registry.h"
#include "rows.h"
#include "schema.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/* The years an edition may be. */
#define YEAR_MIN 1900
#define YEAR_MAX 2100

/* One build of the model: an edition's registry. */
struct model {
	struct registry *reg;
	struct tableset *ts;	/* every table read, each once */
	const char *datadir;
	int as_of;		/* the edition: rows after it are left out */
	struct modeldoc_eval *ev;	/* the document's run */
	struct rows_source **src;	/* the rows files opened, each once */
	size_t nsrc;
};

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

/* modeldoc_row() after each row a provider adds: its families' members. */
static int
row_done(void *ctx, const char *row)
{
	struct model *m = ctx;

	return modeldoc_row(m->ev, row);
}

/*
 * The provider "rows": the rows of every rows file of the catalogue with
 * an id column, each row as quantities PREFIX.ID.NAME (rows.h), the
 * document's families evaluated for each row as it comes.
 */
static int
provide_rows(void *ctx)
{
	struct model *m = ctx;
	const struct schema_file *v;
	size_t n, i;
	int ret = 0;

	if (schema_catalogue(m->ts, m->datadir, &v, &n))
		return -1;
	for (i = 0; i < n && !ret; i++)
		if (v[i].kind == SCHEMA_ROWS && has_id(&v[i].s))
			ret = rows_add(m->reg, m->ts, m->datadir, &v[i],
				       m->as_of, row_done, m);
	return ret;
}

static const struct modeldoc_provider providers[] = {
	{ "rows", provide_rows },
	{ NULL, NULL },
};

/* The document's file_rows(): a rows file's rows of the edition. */
static int
file_rows(void *ctx, const char *prefix, struct expr_rows *out)
{
	struct model *m = ctx;
	const struct schema_file *f;
	struct rows_source *src;
	size_t i;

	f = schema_of_prefix(m->ts, m->datadir, prefix);
	/* A file with ids is the registry's family of its rows instead. */
	if (!f || has_id(&f->s))
		return 1;
	for (i = 0; i < m->nsrc; i++)
		if (rows_source_file(m->src[i]) == f)
			break;
	if (i == m->nsrc) {
		if (!(src = rows_source(m->ts, m->datadir, f, m->as_of)))
			return -1;
		m->src = xreallocarray(m->src, m->nsrc + 1, sizeof(*m->src));
		m->src[m->nsrc++] = src;
	}
	rows_source_expr(m->src[i], out);
	return 0;
}

/* The document's cell_error(): at a cell of the catalogue's files. */
static int
cell_error(void *ctx, const char *origin, const char *name, int of_unit,
	   const char *msg)
{
	struct model *m = ctx;

	return rows_cell_error(m->ts, m->datadir, origin, name, of_unit, msg);
}

static void
doc_free(void *doc)
{
	modeldoc_free(doc);
}

const struct modeldoc *
model_document(const char *datadir, struct tableset *ts)
{
	struct buf path = BUF_INIT;
	struct modeldoc *doc;

	/*
	 * Read once for every edition, kept with the tables of the run: a
	 * parse per edition made every edition 10% slower (wall, 10 pairs,
	 * December 2026), the least a speed-up must save to stay.
	 */
	buf_addf(&path, "%s/%s", datadir, MODEL_DOCUMENT);
	if (!(doc = tableset_kept(ts, path.data))) {
		doc = modeldoc_load(path.data);
		if (doc)
			tableset_keep(ts, path.data, doc, doc_free);
	}
	buf_release(&path);
	return doc;
}

static void
memo_free(void *memo)
{
	modeldoc_memo_free(memo);
}

/*
 * What the document's evaluations share (modeldoc.h), kept with the
 * tables of the run as the document is: an edition checks no data row
 * that an edition before it checked. Every edition, warm, at 1e5 rows
 * of history: 1.17 against 1.50 s (8 runs each in turn, 0.80); at 1e6
 * rows 7.6 against 10.6 s; at 1e4 rows 0.93; the shipped data, 0.999
 * of the instructions.
 */
static struct modeldoc_memo *
model_memo(const char *datadir, struct tableset *ts)
{
	struct buf key = BUF_INIT;
	struct modeldoc_memo *memo;

	buf_addf(&key, "%s/%s#memo", datadir, MODEL_DOCUMENT);
	if (!(memo = tableset_kept(ts, key.data))) {
		memo = modeldoc_memo_new();
		tableset_keep(ts, key.data, memo, memo_free);
	}
	buf_release(&key);
	return memo;
}

/*
 * The start of every build: the values files, the newest year of the
 * data and the edition (as_of, 0 or after the data: the newest), and
 * edition.year. Returns -1 after printing errors.
 */
static int
model_start(struct model *m, int *newest)
{
	const struct schema_file *v;
	struct buf origin = BUF_INIT;
	size_t n, i;
	int ret = 0;

	if (schema_catalogue(m->ts, m->datadir, &v, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].kind == SCHEMA_VALUES)
			ret |= rows_values(m->reg, m->ts, m->datadir, &v[i]);
	if (ret || rows_newest(m->ts, m->datadir, &m->as_of, newest, &origin))
		ret = -1;
	else if (*newest && (*newest < YEAR_MIN || *newest > YEAR_MAX))
		ret = error("%s: a row is dated %d: the editions are years "
			    "from %d to %d", origin.data, *newest, YEAR_MIN,
			    YEAR_MAX);
	/*
	 * A project without dated rows has one edition, this year's none;
	 * the newest row the edition shows decides its year (`diff`).
	 */
	else if (m->as_of && !registry_add_num(m->reg, "edition.year",
			m->as_of, "year", "newest year of data used (--as-of, "
			"default the newest in the data)", NULL, "derived here",
			origin.data))
		ret = -1;
	buf_release(&origin);
	return ret;
}

static void
model_release(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nsrc; i++)
		rows_source_free(m->src[i]);
	free(m->src);
}

/*
 * The label of a file's row in its dataset: the column called label,
 * else name, else its id (their quantity names); NULL for none.
 */
static const char *
label_column(const struct schema_file *f)
{
	static const char *const pref[] = { "label", "name", "id" };
	size_t i, k;

	for (i = 0; i < sizeof(pref) / sizeof(pref[0]); i++)
		for (k = 0; k < f->s.ncols; k++)
			if (f->names[k] && !strcmp(f->names[k], pref[i]))
				return pref[i];
	return NULL;
}

/*
 * Each rows file of the catalogue is a dataset the figures can read,
 * named by its prefix when the document names none so: its rows of the
 * edition, their date (year, time) and every number column by its name
 * in the model, in its unit (missing where a row has none), with the
 * label its row is known by.
 */
static void
file_datasets(struct model *m, struct datasets *ds)
{
	const struct schema_file *v;
	struct expr_rows rows;
	size_t n, i, k, r, nc;

	if (schema_catalogue(m->ts, m->datadir, &v, &n))
		return;
	for (i = 0; i < n; i++) {
		const char **cols, **units, *label;
		double *vals;
		struct rows_source *src;
		struct dataset *d;
		struct value x;

		if (v[i].kind != SCHEMA_ROWS || datasets_get(ds, v[i].prefix) ||
		    !(src = rows_source(m->ts, m->datadir, &v[i], m->as_of)))
			continue;
		rows_source_expr(src, &rows);
		/* The date's two columns, and at most each of the file's. */
		cols = xcalloc(v[i].s.ncols + 2, sizeof(*cols));
		units = xcalloc(v[i].s.ncols + 2, sizeof(*units));
		vals = xcalloc(v[i].s.ncols + 2, sizeof(*vals));
		nc = 0;
		if (table_role(rows_source_table(src), TABLE_COL_DATE) >= 0) {
			cols[nc] = "year";
			units[nc++] = "year";
			cols[nc] = "time";
			units[nc++] = "year";
		}
		for (k = 0; k < v[i].s.ncols; k++)
			if (v[i].names[k] &&
			    v[i].s.cols[k].kind == TABLE_KIND_NUMBER) {
				cols[nc] = v[i].names[k];
				units[nc++] = v[i].s.cols[k].unit;
			}
		label = label_column(&v[i]);
		d = dataset_add(ds, v[i].prefix, v[i].s.what, cols, units, nc);
		/*
		 * Thinned as the model's datasets are: every k-th row and the
		 * last (each edition made all of a million-row history's rows,
		 * 10% of every edition's time at 1e5 rows, for a plot).
		 */
		for (r = 0; r < rows.n; r++) {
			if (!dataset_shows(r, rows.n, DATASET_PLOT_ROWS))
				continue;
			for (k = 0; k < nc; k++) {
				vals[k] = NAN;
				if (!rows.get(rows.ctx, r, cols[k], &x)) {
					vals[k] = x.num;
					value_release(&x);
				}
			}
			memset(&x, 0, sizeof(x));
			if (label && !rows.get(rows.ctx, r, label, &x))
				dataset_row(d, vals, x.text);
			else
				dataset_row(d, vals, NULL);
			value_release(&x);
		}
		rows_source_free(src);
		free(cols);
		free(units);
		free(vals);
	}
}

struct registry *
model_build(const char *datadir, int as_of, struct datasets *ds,
	    struct tableset *ts)
{
	struct tableset own = { 0 };
	struct model m = { .reg = registry_new(), .ts = ts ? ts : &own,
			   .datadir = datadir, .as_of = as_of };
	struct modeldoc_eval ev = { 0 };
	const struct modeldoc *doc;
	size_t before = diag_errors();
	int ok = 0, newest;

	doc = model_document(datadir, m.ts);
	if (doc && !model_start(&m, &newest)) {
		ev = (struct modeldoc_eval){ .doc = doc, .reg = m.reg,
			.providers = providers, .ctx = &m,
			.file_rows = file_rows, .cell_error = cell_error,
			.ds = ds, .memo = model_memo(datadir, m.ts) };
		m.ev = &ev;
		ok = !modeldoc_run(&ev) && diag_errors() == before;
		if (ok && ds)
			file_datasets(&m, ds);
	}
	model_release(&m);
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
	struct model m = { .reg = registry_new(), .ts = ts ? ts : &own,
			   .datadir = datadir };
	struct modeldoc_eval ev = { 0 };
	const struct modeldoc *doc = model_document(datadir, m.ts);
	const struct quantity *q;
	int ret = -1;

	if (doc && !model_start(&m, newest)) {
		ev = (struct modeldoc_eval){ .doc = doc, .reg = m.reg,
			.providers = providers, .ctx = &m,
			.file_rows = file_rows, .cell_error = cell_error };
		m.ev = &ev;
		/* The first edition, when the document says which. */
		if (!modeldoc_run_one(&ev, "edition.first")) {
			q = registry_get(m.reg, "edition.first");
			*first = q && q->type == Q_NUMBER ? (int)q->value :
				 *newest;
			ret = 0;
		}
	}
	model_release(&m);
	registry_free(m.reg);
	tableset_release(&own);
	return ret;
}
