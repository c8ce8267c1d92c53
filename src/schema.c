/*
 * The load stage's catalogue of a project's data files: reads
 * data/schema.csv (one row per file, one per column of each) into the
 * schemas table.c checks the files against, and loads the files with
 * them. Knows the kinds of cells and of files, and the columns the
 * engine's own kinds of file (values, claims, references) are read by;
 * no file of any project.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "diag.h"
#include "registry.h"
#include "schema.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The catalogue's own columns. */
static const struct table_column self_cols[] = {
	{ "file", TABLE_KIND_TEXT, 0, NULL, "the data file, NAME.csv" },
	{ "column", TABLE_KIND_ID, TABLE_COL_EMPTY, NULL, "a column of its "
	  "header; empty on the row that describes the file" },
	{ "kind", TABLE_KIND_TEXT, 0, NULL, "a column's: id (names the rows), "
	  "year or month (the row's date), number or text; the file's: "
	  "rows, values, claims or references" },
	{ "unit", TABLE_KIND_TEXT, TABLE_COL_EMPTY, NULL, "a number's unit "
	  "(empty: a pure number)" },
	{ "required", TABLE_KIND_TEXT, TABLE_COL_EMPTY, NULL, "yes (a value "
	  "in every row), column (in the header, a cell may be empty) or no "
	  "(may be left out)" },
	{ "name", TABLE_KIND_TEXT, TABLE_COL_OPTIONAL | TABLE_COL_EMPTY, NULL,
	  "a column's name in the model (empty: the column's; -: none); "
	  "a rows file's prefix (empty: the file's name)" },
	{ "description", TABLE_KIND_TEXT, TABLE_COL_OPTIONAL |
	  TABLE_COL_EMPTY, NULL, "what a column holds, or a row of the file "
	  "is" },
};

static const struct table_schema self = {
	SCHEMA_FILE, "one data file, or one column of one", self_cols,
	N(self_cols),
};

const struct table_schema *
schema_self(void)
{
	return &self;
}

static const char *const cell_kinds[] = { "id", "year", "month", "number",
					  "text" };
static const enum table_kind cell_kind_of[] = { TABLE_KIND_ID,
	TABLE_KIND_YEAR, TABLE_KIND_MONTH, TABLE_KIND_NUMBER,
	TABLE_KIND_TEXT };
static const char *const file_kinds[] = { "rows", "values", "claims",
					  "references" };

/*
 * The columns the engine reads from its own kinds of file, each with
 * its kind; optional: the reader takes a file without it.
 */
static const struct engine_col {
	enum schema_kind kind;
	const char *name;
	enum table_kind cell;
	int optional;
} engine_cols[] = {
	{ SCHEMA_VALUES, "name", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_VALUES, "value", TABLE_KIND_NUMBER, 0 },
	{ SCHEMA_VALUES, "unit", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_VALUES, "source", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "id", TABLE_KIND_ID, 0 },
	{ SCHEMA_CLAIMS, "claim", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "published", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "unit", TABLE_KIND_TEXT, 1 },
	{ SCHEMA_CLAIMS, "printed_in", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "quantity", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "tolerance", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "tolerance_reason", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "status", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "category", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_CLAIMS, "explanation", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_REFERENCES, "key", TABLE_KIND_ID, 0 },
	{ SCHEMA_REFERENCES, "label", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_REFERENCES, "authors", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_REFERENCES, "title", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_REFERENCES, "venue", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_REFERENCES, "year", TABLE_KIND_YEAR, 0 },
	{ SCHEMA_REFERENCES, "doi", TABLE_KIND_TEXT, 0 },
	{ SCHEMA_REFERENCES, "url", TABLE_KIND_TEXT, 0 },
};

/* One data folder's catalogue, kept in the table set. */
struct catalogue {
	char *dir;
	int failed;
	struct schema_file *v;	/* strings borrowed from schema.csv */
	size_t n, cap;
	size_t shown;		/* v's first, the files there: the rest
				   may be absent and are */
	char **stems;		/* the default prefixes, ours */
	size_t nstems;
};

/* The catalogues the set keeps (CATALOGUES), one a data folder. */
#define CATALOGUES "data catalogue"

static void
catalogue_free(void *p)
{
	struct catalogue *c = p;
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].cols);
		free(c->v[i].names);
	}
	for (i = 0; i < c->nstems; i++)
		free(c->stems[i]);
	free(c->stems);
	free(c->v);
	free(c->dir);
	free(c);
}

/* Whether file is NAME.csv with NAME an id (a-z, 0-9, _). */
static int
file_name_ok(const char *file)
{
	size_t n = strlen(file);

	return n > 4 && n - 4 <= TABLE_ID_MAX &&
	       !strcmp(file + n - 4, ".csv") &&
	       strspn(file, TABLE_ID_CHARS) == n - 4;
}

/* The index of word in the n words of list, or n. */
static size_t
word_index(const char *const *list, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n && strcmp(list[i], word); i++)
		;
	return i;
}

/* The catalogue's columns, by name. */
struct selfcols {
	int file, column, kind, unit, req, name, desc;
};

/* The file called file of c, or NULL. */
static struct schema_file *
find_file(struct catalogue *c, const char *file)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].s.file, file))
			return &c->v[i];
	return NULL;
}

/*
 * The row of t that describes a file (its column empty): the file's
 * kind, prefix and what a row is. Returns -1 after an error.
 */
static int
read_file_row(const struct table *t, const struct selfcols *sc, size_t r,
	      struct catalogue *c)
{
	const char *file = table_cell(t, r, sc->file);
	const char *kind = table_cell(t, r, sc->kind);
	const char *name = sc->name >= 0 ? table_cell(t, r, sc->name) : "";
	struct schema_file *f = find_file(c, file);
	size_t k = word_index(file_kinds, N(file_kinds), kind);

	if (k == N(file_kinds))
		return table_error(t, r, sc->kind, "unknown kind of file '%s': "
				   "expected rows, values, claims or "
				   "references", kind);
	if (f && f->line)
		return table_error(t, r, sc->file, "'%s' is described on line "
				   "%zu already", file, f->line);
	if (*table_cell(t, r, sc->unit))
		return table_error(t, r, sc->unit, "the row that describes a "
				   "file has no unit");
	if (*table_cell(t, r, sc->req) && strcmp(table_cell(t, r, sc->req),
						 "yes") &&
	    strcmp(table_cell(t, r, sc->req), "no"))
		return table_error(t, r, sc->req, "the row that describes a "
				   "file says 'yes' (empty: yes) or 'no' (the "
				   "file may be absent), not '%s'",
				   table_cell(t, r, sc->req));
	if (*name && (k != SCHEMA_ROWS || registry_name_problem(name) ||
		      strchr(name, '.')))
		return table_error(t, r, sc->name, k != SCHEMA_ROWS ? "only a "
				   "rows file has a prefix" : "'%s' is no "
				   "prefix of names: a-z, 0-9 and _", name);
	if (!f) {
		c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof(*c->v));
		f = &c->v[c->n++];
		memset(f, 0, sizeof(*f));
		f->s.file = file;
	}
	f->line = table_line(t, r);
	f->optional = !strcmp(table_cell(t, r, sc->req), "no");
	f->kind = (enum schema_kind)k;
	f->prefix = *name ? name : NULL;
	if (sc->desc >= 0 && *table_cell(t, r, sc->desc))
		f->s.what = table_cell(t, r, sc->desc);
	return 0;
}

/* A column's row of t, added to its file. Returns -1 after an error. */
static int
read_column_row(const struct table *t, const struct selfcols *sc, size_t r,
		struct catalogue *c)
{
	const char *file = table_cell(t, r, sc->file);
	const char *col = table_cell(t, r, sc->column);
	const char *kind = table_cell(t, r, sc->kind);
	const char *unit = table_cell(t, r, sc->unit);
	const char *req = table_cell(t, r, sc->req);
	const char *name = sc->name >= 0 ? table_cell(t, r, sc->name) : "";
	struct schema_file *f = find_file(c, file);
	struct table_column *cols;
	struct buf err = BUF_INIT;
	struct unit u;
	size_t k = word_index(cell_kinds, N(cell_kinds), kind), i;
	int ret = 0;

	if (k == N(cell_kinds))
		return table_error(t, r, sc->kind, "unknown kind '%s': expected "
				   "id, year, month, number or text", kind);
	if (cell_kind_of[k] == TABLE_KIND_NUMBER) {
		if (unit_parse(unit, &u, &err))
			ret = table_error(t, r, sc->unit, "%s", err.data);
		buf_release(&err);
		if (ret)
			return ret;
	} else if (*unit) {
		return table_error(t, r, sc->unit, "a unit is for a number "
				   "column, not for one of kind '%s'", kind);
	}
	if (strcmp(req, "yes") && strcmp(req, "column") && strcmp(req, "no"))
		return table_error(t, r, sc->req, "expected 'yes', 'column' or "
				   "'no', got '%s'", req);
	if (cell_kind_of[k] == TABLE_KIND_ID && strcmp(req, "yes"))
		return table_error(t, r, sc->req, "the id column names the "
				   "rows: it is required");
	if (*name && strcmp(name, "-") && (registry_name_problem(name) ||
					   strchr(name, '.')))
		return table_error(t, r, sc->name, "'%s' is no name of a "
				   "quantity's part: a-z, 0-9 and _ (or - for "
				   "none)", name);
	if (!f) {
		c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof(*c->v));
		f = &c->v[c->n++];
		memset(f, 0, sizeof(*f));
		f->s.file = file;
		f->kind = SCHEMA_ROWS;
	}
	for (i = 0; i < f->s.ncols; i++)
		if (!strcmp(f->s.cols[i].name, col))
			return table_error(t, r, sc->column, "duplicate column "
					   "'%s' of '%s'", col, file);
	cols = xreallocarray(f->cols, f->s.ncols + 1, sizeof(*cols));
	f->names = xreallocarray(f->names, f->s.ncols + 1, sizeof(*f->names));
	f->s.cols = f->cols = cols;
	cols += f->s.ncols;
	cols->name = col;
	cols->kind = cell_kind_of[k];
	cols->flags = !strcmp(req, "no") ? TABLE_COL_OPTIONAL |
		      TABLE_COL_EMPTY : !strcmp(req, "column") ?
		      TABLE_COL_EMPTY : 0;
	cols->unit = cols->kind == TABLE_KIND_NUMBER && *unit ? unit : NULL;
	cols->what = sc->desc >= 0 ? table_cell(t, r, sc->desc) : "";
	f->names[f->s.ncols++] = !strcmp(name, "-") ? NULL : *name ? name :
				 col;
	return 0;
}

/* The line of t on which file's column col is declared. */
static size_t
column_line(const struct table *t, const struct selfcols *sc,
	    const char *file, const char *col)
{
	size_t r;

	for (r = 0; r < table_rows(t); r++)
		if (!strcmp(table_cell(t, r, sc->file), file) &&
		    !strcmp(table_cell(t, r, sc->column), col))
			return r;
	return 0;
}

/* The first row of t about file. */
static size_t
file_row(const struct table *t, const struct selfcols *sc, const char *file)
{
	size_t r;

	for (r = 0; r < table_rows(t); r++)
		if (!strcmp(table_cell(t, r, sc->file), file))
			break;
	return r;
}

/*
 * The checks of a whole file f of t: a rows file's id and date (one of
 * each at most) and names; an engine file's columns. Returns -1 after
 * errors.
 */
static int
check_file(const struct table *t, const struct selfcols *sc,
	   struct schema_file *f, struct catalogue *c)
{
	size_t k, j, ids = 0, dates = 0, first = file_row(t, sc, f->s.file);
	int bad = 0;

	if (!f->s.what)
		f->s.what = "a row";
	for (k = 0; k < f->s.ncols; k++) {
		struct table_column *col = &f->cols[k];

		if (col->kind == TABLE_KIND_ID && f->kind == SCHEMA_ROWS) {
			col->flags |= TABLE_COL_ID;
			ids++;
		}
		if ((col->kind == TABLE_KIND_YEAR ||
		     col->kind == TABLE_KIND_MONTH) &&
		    f->kind == SCHEMA_ROWS) {
			col->flags |= TABLE_COL_DATE;
			dates++;
		}
		if ((ids > 1 && col->kind == TABLE_KIND_ID) ||
		    (dates > 1 && (col->flags & TABLE_COL_DATE)))
			bad = table_error(t, column_line(t, sc, f->s.file,
					  col->name), sc->kind, "'%s' has %s "
					  "column already: one at most",
					  f->s.file, col->kind ==
					  TABLE_KIND_ID ? "an id" : "a date");
		/*
		 * A row's quantities are PREFIX.ID.NAME, its id and date
		 * PREFIX.ID.id and .year: two columns of one name would
		 * be one quantity.
		 */
		for (j = 0; j < k && f->names[k]; j++)
			if (f->names[j] && !strcmp(f->names[j], f->names[k]))
				bad = table_error(t, column_line(t, sc,
						  f->s.file, col->name),
						  sc->name, "'%s' and '%s' of "
						  "'%s' would name one "
						  "quantity, '%s'",
						  f->s.cols[j].name, col->name,
						  f->s.file, f->names[k]);
	}
	for (k = 0; k < f->s.ncols && f->kind == SCHEMA_ROWS; k++) {
		const char *nm = f->names[k];
		const char *taken = NULL;

		if (!nm)
			continue;
		if (!strcmp(nm, "id") && !(f->s.cols[k].flags & TABLE_COL_ID))
			taken = "row's id";
		if (!strcmp(nm, "year") && dates &&
		    !(f->s.cols[k].flags & TABLE_COL_DATE))
			taken = "row's year, of its date";
		if (!strcmp(nm, "time") && dates)
			taken = "middle of its date, as a decimal year";
		if (taken)
			bad = table_error(t, column_line(t, sc, f->s.file,
					  f->s.cols[k].name), sc->column,
					  "'%s' of '%s' would name the same "
					  "quantity as the %s", nm, f->s.file,
					  taken);
	}
	if (f->kind == SCHEMA_ROWS && !f->prefix) {
		/* The file's name without ".csv", which file_name_ok() took. */
		c->stems = xreallocarray(c->stems, c->nstems + 1,
					 sizeof(*c->stems));
		c->stems[c->nstems] = xstrndup(f->s.file,
					       strlen(f->s.file) - 4);
		f->prefix = c->stems[c->nstems++];
	}
	/* The engine's own names: the edition's, the claims audit's. */
	if (f->kind == SCHEMA_ROWS && (!strcmp(f->prefix, "edition") ||
				       !strcmp(f->prefix, "claim") ||
				       !strcmp(f->prefix, "claims")))
		bad = table_error(t, first, sc->file, "'%s' would name its rows "
				  "%s.<id>.*, and the engine names quantities "
				  "%s.* itself: give it another prefix (the "
				  "column 'name' of its row)", f->s.file,
				  f->prefix, f->prefix);
	for (k = 0; k < N(engine_cols); k++) {
		const struct engine_col *ec = &engine_cols[k];

		if (ec->kind != f->kind)
			continue;
		for (j = 0; j < f->s.ncols &&
		     strcmp(f->s.cols[j].name, ec->name); j++)
			;
		if (j < f->s.ncols && f->s.cols[j].kind == ec->cell &&
		    (ec->optional || !(f->s.cols[j].flags &
				       TABLE_COL_OPTIONAL)))
			continue;
		bad = table_error(t, first, sc->file, "a %s file declares the "
				  "column '%s' (%s%s): the engine reads it",
				  file_kinds[f->kind], ec->name,
				  table_kind_name(ec->cell), ec->optional ? "" :
				  ", not 'no'");
	}
	for (k = 0; k < c->n; k++)
		if (&c->v[k] != f && c->v[k].kind == f->kind &&
		    (f->kind == SCHEMA_CLAIMS || f->kind == SCHEMA_REFERENCES) &&
		    &c->v[k] < f)
			bad = table_error(t, first, sc->kind, "'%s' is a second "
					  "%s file ('%s' is one): one at most",
					  f->s.file, file_kinds[f->kind],
					  c->v[k].s.file);
	return bad;
}

/* Reads the catalogue t into c. Returns 0, or -1 after errors. */
static int
catalogue_read(const struct table *t, struct catalogue *c)
{
	struct selfcols sc = {
		table_col(t, "file"), table_col(t, "column"),
		table_col(t, "kind"), table_col(t, "unit"),
		table_col(t, "required"), table_col(t, "name"),
		table_col(t, "description"),
	};
	size_t r, i, k;
	int bad = 0, rows_bad;

	for (r = 0; r < table_rows(t); r++) {
		const char *file = table_cell(t, r, sc.file);

		if (!file_name_ok(file) || !strcmp(file, SCHEMA_FILE)) {
			bad = table_error(t, r, sc.file, "'%s' is not a data "
					  "file name: NAME.csv, NAME of a-z, "
					  "0-9 and _, not %s", file,
					  SCHEMA_FILE);
			continue;
		}
		if (*table_cell(t, r, sc.column) ?
		    read_column_row(t, &sc, r, c) : read_file_row(t, &sc, r, c))
			bad = -1;
	}
	rows_bad = bad;
	/* Each file whole; a prefix names one rows file's rows. */
	for (i = 0; !rows_bad && i < c->n; i++) {
		bad |= check_file(t, &sc, &c->v[i], c);
		for (k = 0; k < i && c->v[i].kind == SCHEMA_ROWS; k++)
			if (c->v[k].kind == SCHEMA_ROWS &&
			    !strcmp(c->v[k].prefix, c->v[i].prefix))
				bad = table_error(t, file_row(t, &sc,
						  c->v[i].s.file), sc.name,
						  "'%s' and '%s' would both be "
						  "the rows '%s'",
						  c->v[k].s.file, c->v[i].s.file,
						  c->v[i].prefix);
	}
	return bad ? -1 : 0;
}

/*
 * Moves the files that may be absent and are after the others, keeping
 * the order: the catalogue's files are v[0..shown).
 */
static void
drop_absent(struct catalogue *c)
{
	struct schema_file *v = xcalloc(c->n ? c->n : 1, sizeof(*v));
	struct buf path = BUF_INIT;
	struct stat st;
	size_t i, k = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < c->n; i++) {
			int absent;

			buf_reset(&path);
			buf_addf(&path, "%s/%s", c->dir, c->v[i].s.file);
			absent = c->v[i].optional && stat(path.data, &st) &&
				 errno == ENOENT;
			if (absent == (int)pass)
				v[k++] = c->v[i];
			if (!pass && !absent)
				c->shown++;
		}
	if (c->n)	/* memcpy() of NULL is undefined, even of 0 bytes */
		memcpy(c->v, v, c->n * sizeof(*v));
	free(v);
	buf_release(&path);
}

int
schema_catalogue(struct tableset *ts, const char *datadir,
		 const struct schema_file **out, size_t *n)
{
	struct catalogue *c;
	struct buf path = BUF_INIT;
	const struct table *t;
	struct stat st;

	buf_addf(&path, "%s %s", CATALOGUES, datadir);
	c = tableset_kept(ts, path.data);
	if (!c) {
		c = xcalloc(1, sizeof(*c));
		c->dir = xstrdup(datadir);
		/* One catalogue a data folder, each kept by the set. */
		tableset_keep(ts, path.data, c, catalogue_free);
		buf_reset(&path);
		buf_addf(&path, "%s/%s", datadir, SCHEMA_FILE);
		/* No catalogue: no data files. */
		if (!(stat(path.data, &st) && errno == ENOENT)) {
			t = tableset_load_as(ts, datadir, SCHEMA_FILE, &self);
			c->failed = !t || catalogue_read(t, c);
		}
		if (!c->failed)
			drop_absent(c);
	}
	buf_release(&path);
	*out = c->v;
	*n = c->failed ? 0 : c->shown;
	return c->failed ? -1 : 0;
}

const struct schema_file *
schema_find(struct tableset *ts, const char *datadir, const char *file)
{
	const struct schema_file *v;
	size_t n, i;

	if (schema_catalogue(ts, datadir, &v, &n))
		return NULL;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].s.file, file))
			return &v[i];
	return NULL;
}

const struct schema_file *
schema_of_kind(struct tableset *ts, const char *datadir,
	       enum schema_kind kind)
{
	const struct schema_file *v;
	size_t n, i;

	if (schema_catalogue(ts, datadir, &v, &n))
		return NULL;
	for (i = 0; i < n; i++)
		if (v[i].kind == kind)
			return &v[i];
	return NULL;
}

const struct schema_file *
schema_of_prefix(struct tableset *ts, const char *datadir,
		 const char *prefix)
{
	const struct schema_file *v;
	size_t n, i;

	if (schema_catalogue(ts, datadir, &v, &n))
		return NULL;
	for (i = 0; i < n; i++)
		if (v[i].kind == SCHEMA_ROWS && !strcmp(v[i].prefix, prefix))
			return &v[i];
	return NULL;
}

struct table *
schema_load(struct tableset *ts, const char *datadir, const char *file)
{
	const struct schema_file *f;

	if (!strcmp(file, SCHEMA_FILE))
		return tableset_load_as(ts, datadir, file, &self);
	f = schema_find(ts, datadir, file);
	if (!f) {
		const struct schema_file *v;
		size_t n;

		/* A catalogue that failed has said why already. */
		if (!schema_catalogue(ts, datadir, &v, &n))
			error("%s/%s: no such data file in the catalogue "
			      "(%s/%s)", datadir, file, datadir, SCHEMA_FILE);
		return NULL;
	}
	return tableset_load_as(ts, datadir, file, &f->s);
}

const char **
schema_files(struct tableset *ts, const char *datadir)
{
	const struct schema_file *v;
	const char **files;
	size_t n, i, k;

	if (schema_catalogue(ts, datadir, &v, &n))
		n = 0;
	files = xcalloc(n + 1, sizeof(*files));
	for (i = 0, k = 0; i < n; i++)
		if (v[i].kind != SCHEMA_REFERENCES)
			files[k++] = v[i].s.file;
	return files;
}
