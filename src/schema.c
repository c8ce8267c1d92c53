/*
 * The load stage's knowledge of the data files: for each, its columns,
 * their kinds and units, which the loaders need, and which is the id
 * and which the date. Data, not code: table.c checks a file against
 * its schema when it is read; the meaning of the values is the model's
 * (model.c) and the audit's. The built-in files are listed here; more
 * are read from data/schema.csv (schema_declared()) and loaded by
 * rows.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "diag.h"
#include "schema.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

#define T TABLE_KIND_TEXT
#define ID TABLE_KIND_ID
#define NUM TABLE_KIND_NUMBER
#define YEAR TABLE_KIND_YEAR
#define MONTH TABLE_KIND_MONTH
/* A column the loaders do not need: it may be absent, or empty. */
#define OPT (TABLE_COL_OPTIONAL | TABLE_COL_EMPTY)
#define EMPTY TABLE_COL_EMPTY
/* The row's id (names its quantities) and its date (editions). */
#define ROLE_ID TABLE_COL_ID
#define DATE TABLE_COL_DATE
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_column assumptions[] = {
	{ "name", T, 0, NULL, "the quantity's name (laptop.mass)" },
	{ "value", NUM, 0, NULL, "its value, in the row's unit" },
	{ "unit", T, EMPTY, NULL, "its unit (kg, m^3, yr); empty: a "
	  "pure number" },
	{ "source", T, 0, NULL, "where the value comes from" },
	{ "note", T, OPT, NULL, "a remark (an estimate, how it was "
	  "found)" },
};

static const struct table_column devices[] = {
	{ "id", ID, ROLE_ID, NULL, "names its quantities: device.<id>.*" },
	{ "name", T, 0, NULL, "the machine's full name" },
	{ "label", T, OPT, NULL, "a short name for figures (empty: the "
	  "name)" },
	{ "year", YEAR, DATE, NULL, "the year it came out" },
	{ "kind", T, 0, NULL, "laptop, netbook, supercomputer, gpu or "
	  "phone" },
	{ "fp64_peak_flops", NUM, EMPTY, "FLOP/s", "peak rate at 64-bit "
	  "floating point" },
	{ "fp32_peak_flops", NUM, EMPTY, "FLOP/s", "peak rate at 32-bit "
	  "floating point" },
	{ "fp16_peak_flops", NUM, OPT, "FLOP/s", "peak rate at 16-bit "
	  "floating point (dense, without sparsity)" },
	{ "fp8_peak_flops", NUM, OPT, "FLOP/s", "peak rate at 8-bit "
	  "floating point (dense, without sparsity)" },
	{ "fp4_peak_flops", NUM, OPT, "FLOP/s", "peak rate at 4-bit "
	  "floating point (dense, without sparsity)" },
	{ "hpl_rmax_flops", NUM, EMPTY, "FLOP/s", "measured LINPACK (HPL) "
	  "Rmax; a row gives at least one of the three speeds" },
	{ "ram_bytes", NUM, EMPTY, "B", "working memory (RAM, or on-package "
	  "HBM or unified memory)" },
	{ "storage_bytes", NUM, EMPTY, "B", "persistent storage (SSD, disk, "
	  "flash)" },
	{ "mass_kg", NUM, OPT, "kg", "mass" },
	{ "volume_l", NUM, OPT, "L", "volume" },
	{ "power_w", NUM, OPT, "W", "power drawn" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark (estimates, how they were "
	  "found)" },
};

static const struct table_column top500[] = {
	{ "list", MONTH, DATE, NULL, "the list's date, YYYY-MM" },
	{ "system", T, 0, NULL, "its No. 1 system" },
	{ "site", T, EMPTY, NULL, "where that system is" },
	{ "country", T, OPT, NULL, "the site's country" },
	{ "rmax_flops", NUM, 0, "FLOP/s", "measured speed (Rmax)" },
	{ "rpeak_flops", NUM, OPT, "FLOP/s", "peak speed (Rpeak)" },
	{ "power_w", NUM, OPT, "W", "power drawn running the benchmark, as "
	  "published with the list (empty: none published)" },
	{ "mass_kg", NUM, OPT, "kg", "mass of the system (empty: none "
	  "published; the note says how it was found or estimated)" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column disk_capacity[] = {
	{ "year", YEAR, DATE, NULL, "the year it shipped" },
	{ "model", T, 0, NULL, "the largest hard disk of that year" },
	{ "manufacturer", T, OPT, NULL, "who made it" },
	{ "capacity_bytes", NUM, 0, "B", "its capacity" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column areal_density[] = {
	{ "year", YEAR, DATE, NULL, "the year" },
	{ "product", T, 0, NULL, "the drive or demonstration" },
	{ "density_bit_per_in2", NUM, 0, "bit/in^2", "its areal density" },
	{ "source", T, 0, NULL, "where the figure comes from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column transistors[] = {
	{ "year", YEAR, DATE, NULL, "the year it came out" },
	{ "processor", T, 0, NULL, "the microprocessor" },
	{ "designer", T, OPT, NULL, "who designed it" },
	{ "transistors", NUM, 0, NULL, "its transistor count" },
	{ "form", T, OPT, NULL, "chip, or wafer for a wafer-scale engine (left "
	  "out of the trend of chips)" },
	{ "source", T, 0, NULL, "where the figure comes from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column claims[] = {
	{ "id", ID, ROLE_ID, NULL, "names its quantities: claim.<id>.*" },
	{ "claim", T, EMPTY, NULL, "what is claimed, in words" },
	{ "published", T, 0, NULL, "the figure as printed, or a printed "
	  "range LOW..HIGH" },
	{ "unit", T, OPT, NULL, "its unit, as printed" },
	{ "printed_in", T, 0, NULL, "where it is printed" },
	{ "quantity", T, 0, NULL, "the quantity that recomputes it" },
	{ "tolerance", T, EMPTY, NULL, "empty: from tolerance_reason; a "
	  "number: relative; order: half an order of magnitude" },
	{ "tolerance_reason", T, 0, NULL, "why that tolerance: digits, "
	  "range, order, about or constants" },
	{ "status", T, 0, NULL, "reproducible, discrepancy or input (the "
	  "source's own figure, taken as an assumption)" },
	{ "category", T, EMPTY, NULL, "for a discrepancy: error, rounding, "
	  "convention or data-moved" },
	{ "explanation", T, EMPTY, NULL, "why a discrepancy is one, or "
	  "what an input stands for; quotes numbers as {{ NAME | FORMAT }}" },
};

static const struct table_column ssd_capacity[] = {
	{ "year", YEAR, DATE, NULL, "the year it shipped" },
	{ "model", T, 0, NULL, "the largest solid-state drive of that "
	  "year" },
	{ "manufacturer", T, OPT, NULL, "who made it" },
	{ "capacity_bytes", NUM, 0, "B", "its capacity" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column quantum[] = {
	{ "id", ID, ROLE_ID, NULL, "names its quantities: quantum.<id>.*" },
	{ "name", T, 0, NULL, "the processor's name" },
	{ "year", YEAR, DATE, NULL, "the year its figures were published" },
	{ "qubit_frequency_hz", NUM, 0, "Hz", "a qubit's transition "
	  "frequency" },
	{ "coupling_hz", NUM, 0, "Hz", "the coupling between two qubits "
	  "during a two-qubit gate" },
	{ "gate_1q_s", NUM, 0, "s", "single-qubit gate time" },
	{ "gate_2q_s", NUM, 0, "s", "two-qubit gate time" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark (estimates)" },
};

static const struct table_column references[] = {
	{ "key", ID, ROLE_ID, NULL, "what templates cite: {{ cite(key) }}" },
	{ "label", T, 0, NULL, "the citation's text (Lloyd 2000)" },
	{ "authors", T, EMPTY, NULL, "the authors, as listed" },
	{ "title", T, 0, NULL, "the work's title" },
	{ "venue", T, EMPTY, NULL, "journal, volume and pages, or "
	  "publisher" },
	{ "year", YEAR, 0, NULL, "the year of publication" },
	{ "doi", T, EMPTY, NULL, "its DOI (10.xxxx/...), linked through "
	  "doi.org" },
	{ "url", T, EMPTY, NULL, "an address, for works without a DOI" },
	{ "note", T, OPT, NULL, "a remark" },
};

/*
 * data/schema.csv: the data files declared without C, one row per
 * column (schema_declared() reads it). Not one of the model's files:
 * found by schema_of(), not listed by schema_at().
 */
static const struct table_column declarations[] = {
	{ "file", T, 0, NULL, "the declared file, NAME.csv: its rows become "
	  "NAME.<id>.*" },
	{ "column", ID, 0, NULL, "a column of its header" },
	{ "kind", T, 0, NULL, "id (names the rows), year or month (the "
	  "row's date), number or text" },
	{ "unit", T, EMPTY, NULL, "a number's unit (empty: a pure number)" },
	{ "required", T, 0, NULL, "yes, or no: may be absent or empty" },
	{ "description", T, OPT, NULL, "what the column holds" },
};

static const struct table_schema declarations_schema = {
	SCHEMA_FILE, "one column of a declared data file", declarations,
	N(declarations),
};

static const struct table_schema schemas[] = {
	{ "assumptions.csv", "one input of the model", assumptions,
	  N(assumptions) },
	{ "devices.csv", "one machine compared with the limits", devices,
	  N(devices) },
	{ "top500.csv", "the No. 1 of one TOP500 list, in time order",
	  top500, N(top500) },
	{ "disk_capacity.csv", "the largest hard disk of a year, in time "
	  "order", disk_capacity, N(disk_capacity) },
	{ "areal_density.csv", "a hard-disk areal density of a year, in "
	  "time order", areal_density, N(areal_density) },
	{ "transistors.csv", "a microprocessor's transistor count, in time "
	  "order", transistors, N(transistors) },
	{ "ssd_capacity.csv", "the largest solid-state drive of a year, in "
	  "time order", ssd_capacity, N(ssd_capacity) },
	{ "quantum.csv", "one quantum processor's published gate figures",
	  quantum, N(quantum) },
	{ "claims.csv", "one figure the article or the paper prints",
	  claims, N(claims) },
	{ "references.csv", "one published work the report cites",
	  references, N(references) },
};

const struct table_schema *
schema_of(const char *file)
{
	size_t i;

	for (i = 0; i < N(schemas); i++)
		if (!strcmp(schemas[i].file, file))
			return &schemas[i];
	if (!strcmp(file, SCHEMA_FILE))
		return &declarations_schema;
	return NULL;
}

size_t
schema_count(void)
{
	return N(schemas);
}

const struct table_schema *
schema_at(size_t i)
{
	return i < N(schemas) ? &schemas[i] : NULL;
}

/* The files one data folder's schema.csv declares; a list per folder. */
struct schema_decls {
	char *dir;
	int failed;
	struct table_schema *v;	/* strings borrowed from schema.csv */
	struct table_column **cols;	/* v[i].cols, ours to free */
	size_t n;
	struct schema_decls *next;
};

void
schema_decls_free(struct schema_decls *d)
{
	while (d) {
		struct schema_decls *next = d->next;
		size_t i;

		for (i = 0; i < d->n; i++)
			free(d->cols[i]);
		free(d->cols);
		free(d->v);
		free(d->dir);
		free(d);
		d = next;
	}
}

static const char *const kinds[] = { "id", "year", "month", "number",
				     "text" };
static const enum table_kind kind_of[] = { TABLE_KIND_ID, TABLE_KIND_YEAR,
	TABLE_KIND_MONTH, TABLE_KIND_NUMBER, TABLE_KIND_TEXT };

/* Whether file is NAME.csv with NAME an id (a-z, 0-9, _). */
static int
file_name_ok(const char *file)
{
	size_t n = strlen(file);

	return n > 4 && n - 4 <= TABLE_ID_MAX &&
	       !strcmp(file + n - 4, ".csv") &&
	       strspn(file, TABLE_ID_CHARS) == n - 4;
}

/* The row of column name of declared schema sc (the rows in *line). */
static size_t
decl_find(const struct table_schema *sc, const size_t *line,
	  const char *name)
{
	size_t k;

	for (k = 0; k < sc->ncols; k++)
		if (!strcmp(sc->cols[k].name, name))
			return line[k];
	return 0;
}

/*
 * Reads the declarations of t (schema.csv, its cells' kinds checked)
 * into d. Returns 0, or -1 after printing errors at the cells.
 */
static int
decls_read(const struct table *t, struct schema_decls *d)
{
	int cf = table_col(t, "file"), cc = table_col(t, "column");
	int ck = table_col(t, "kind"), cu = table_col(t, "unit");
	int cr = table_col(t, "required"), cd = table_col(t, "description");
	size_t r, i, k, cap = 0, ccap = 0, *first = NULL, **lines;
	struct buf err = BUF_INIT;
	struct unit u;
	int bad = 0;

	lines = xcalloc(table_rows(t) ? table_rows(t) : 1, sizeof(*lines));
	first = xcalloc(table_rows(t) ? table_rows(t) : 1, sizeof(*first));
	for (r = 0; r < table_rows(t); r++) {
		const char *file = table_cell(t, r, cf);
		const char *col = table_cell(t, r, cc);
		const char *kind = table_cell(t, r, ck);
		const char *unit = table_cell(t, r, cu);
		const char *req = table_cell(t, r, cr);
		struct table_schema *sc;
		struct table_column *c;
		size_t ki, prev;

		if (!file_name_ok(file)) {
			bad = table_error(t, r, cf, "'%s' is not a data file "
					  "name: NAME.csv, NAME of a-z, 0-9 "
					  "and _", file);
			continue;
		}
		if (schema_of(file) || !strcmp(file, "references.csv")) {
			bad = table_error(t, r, cf, "'%s' is a built-in data "
					  "file: its columns are in src/"
					  "schema.c (ultimate datasets "
					  "--tables)", file);
			continue;
		}
		for (ki = 0; ki < N(kinds) && strcmp(kinds[ki], kind); ki++)
			;
		if (ki == N(kinds)) {
			bad = table_error(t, r, ck, "unknown kind '%s': "
					  "expected id, year, month, number "
					  "or text", kind);
			continue;
		}
		if (kind_of[ki] == TABLE_KIND_NUMBER) {
			if (unit_parse(unit, &u, &err)) {
				bad = table_error(t, r, cu, "%s", err.data);
				buf_reset(&err);
				continue;
			}
		} else if (*unit) {
			bad = table_error(t, r, cu, "a unit is for a number "
					  "column, not for one of kind '%s'",
					  kind);
			continue;
		}
		if (strcmp(req, "yes") && strcmp(req, "no")) {
			bad = table_error(t, r, cr, "expected 'yes' or 'no', "
					  "got '%s'", req);
			continue;
		}
		if (kind_of[ki] == TABLE_KIND_ID && strcmp(req, "yes")) {
			bad = table_error(t, r, cr, "the id column names the "
					  "rows: it is required");
			continue;
		}
		for (i = 0; i < d->n && strcmp(d->v[i].file, file); i++)
			;
		if (i == d->n) {
			d->v = xgrow(d->v, &cap, d->n + 1, sizeof(*d->v));
			d->cols = xgrow(d->cols, &ccap, d->n + 1,
					sizeof(*d->cols));
			memset(&d->v[d->n], 0, sizeof(*d->v));
			d->cols[d->n] = NULL;
			d->v[d->n].file = file;
			d->v[d->n].what = "a row of a file declared in "
					  SCHEMA_FILE;
			first[d->n] = r;
			lines[d->n] = xcalloc(table_rows(t), sizeof(size_t));
			d->n++;
		}
		sc = &d->v[i];
		if ((prev = decl_find(sc, lines[i], col))) {
			bad = table_error(t, r, cc, "duplicate column '%s' of "
					  "'%s' (first on line %zu)", col,
					  file, prev);
			continue;
		}
		for (k = 0; k < sc->ncols; k++) {
			unsigned f = sc->cols[k].flags;

			if ((kind_of[ki] == TABLE_KIND_ID && (f & TABLE_COL_ID))
			    || ((kind_of[ki] == TABLE_KIND_YEAR ||
				 kind_of[ki] == TABLE_KIND_MONTH) &&
				(f & TABLE_COL_DATE)))
				break;
		}
		if (k < sc->ncols) {
			bad = table_error(t, r, ck, "'%s' has %s column "
					  "already ('%s', line %zu): one "
					  "at most", file,
					  kind_of[ki] == TABLE_KIND_ID ?
					  "an id" : "a date",
					  sc->cols[k].name, lines[i][k]);
			continue;
		}
		d->cols[i] = xrealloc(d->cols[i], (sc->ncols + 1) *
				      sizeof(*d->cols[i]));
		sc->cols = d->cols[i];
		c = &d->cols[i][sc->ncols];
		c->name = col;
		c->kind = kind_of[ki];
		c->flags = strcmp(req, "yes") ? (TABLE_COL_OPTIONAL |
						 TABLE_COL_EMPTY) : 0;
		if (c->kind == TABLE_KIND_ID)
			c->flags |= TABLE_COL_ID;
		if (c->kind == TABLE_KIND_YEAR || c->kind == TABLE_KIND_MONTH)
			c->flags |= TABLE_COL_DATE;
		c->unit = c->kind == TABLE_KIND_NUMBER && *unit ? unit : NULL;
		c->what = cd >= 0 ? table_cell(t, r, cd) : "";
		lines[i][sc->ncols++] = table_line(t, r);
	}
	/*
	 * Each file's rows are named by their id: a column called "id"
	 * that is not the id, or "year" that is not the date of a file
	 * that has one, would name the quantity they do.
	 */
	for (i = 0; i < d->n; i++) {
		const struct table_schema *sc = &d->v[i];
		int dated = 0;

		for (k = 0; k < sc->ncols; k++)
			dated |= !!(sc->cols[k].flags & TABLE_COL_DATE);
		for (k = 0; k < sc->ncols && !(sc->cols[k].flags &
					       TABLE_COL_ID); k++)
			;
		if (k == sc->ncols) {
			bad = table_error(t, first[i], cf, "'%s' declares no "
					  "column of kind 'id': one column "
					  "names its rows", sc->file);
			continue;
		}
		for (k = 0; k < sc->ncols; k++) {
			const struct table_column *c = &sc->cols[k];
			const char *taken = NULL;

			if (!strcmp(c->name, "id") &&
			    !(c->flags & TABLE_COL_ID))
				taken = "row's id";
			if (!strcmp(c->name, "year") && dated &&
			    !(c->flags & TABLE_COL_DATE))
				taken = "row's year, of its date";
			if (taken)
				bad = table_error(t, table_row_at_line(t,
						  lines[i][k]), cc, "'%s' of "
						  "'%s' would name the same "
						  "quantity as the %s",
						  c->name, sc->file, taken);
		}
	}
	for (i = 0; i < d->n; i++)
		free(lines[i]);
	free(lines);
	free(first);
	buf_release(&err);
	return bad ? -1 : 0;
}

int
schema_declared(struct tableset *ts, const char *datadir,
		const struct table_schema **out, size_t *n)
{
	struct schema_decls *d;
	struct buf path = BUF_INIT;
	const struct table *t;
	struct stat st;

	for (d = ts->decls; d && strcmp(d->dir, datadir); d = d->next)
		;
	if (!d) {
		d = xcalloc(1, sizeof(*d));
		d->dir = xstrdup(datadir);
		d->next = ts->decls;
		ts->decls = d;
		buf_addf(&path, "%s/%s", datadir, SCHEMA_FILE);
		/* The file is optional: no file declares nothing. */
		if (!(stat(path.data, &st) && errno == ENOENT)) {
			t = tableset_load(ts, datadir, SCHEMA_FILE);
			d->failed = !t || decls_read(t, d);
		}
		buf_release(&path);
	}
	*out = d->v;
	*n = d->failed ? 0 : d->n;
	return d->failed ? -1 : 0;
}
