#ifndef SCHEMA_H
#define SCHEMA_H

#include <stddef.h>

#include "table.h"

/*
 * The catalogue of a project's data files: data/schema.csv, one row per
 * file (its column empty) saying what kind of file it is and what a row
 * of it is, and one row per column of each: its kind of cells (id,
 * year, month, number, text), its unit, whether it is required, and the
 * name its quantities take. Data, not code: the engine knows kinds of
 * files and cells, and no file of any project (docs/templates.md, "The
 * data catalogue"). When a file is loaded (schema_load()), table.c
 * checks every cell of every column the catalogue declares against its
 * kind; what a value means the model document checks. `ultimate
 * datasets --tables` prints every file's columns and the catalogue's
 * own (schema_self()); docs/design.md's column lists of the data files
 * are tested against that listing.
 */

/* What the engine does with a file. */
enum schema_kind {
	SCHEMA_ROWS,		/* rows: with an id column, quantities
				   PREFIX.ID.NAME; dated or not; the rows
				   of reductions and trends */
	SCHEMA_VALUES,		/* one named quantity per row: name,
				   value, unit, source */
	SCHEMA_CLAIMS,		/* the claims audit's figures */
	SCHEMA_REFERENCES,	/* the works the templates cite */
};

/* One file of the catalogue. */
struct schema_file {
	struct table_schema s;	/* the file, what a row is, its columns */
	enum schema_kind kind;
	/*
	 * A rows file's name in the model: its rows are PREFIX.ID.* (with
	 * an id column) and the rows a reduction's "in PREFIX" ranges over.
	 */
	const char *prefix;
	/*
	 * Each column's name in the model ("fp64_peak" of the column
	 * fp64_peak_flops: device.ID.fp64_peak), s.cols' order; NULL for
	 * a column that gives no quantity (a row's source or note).
	 */
	const char **names;
	size_t line;		/* its row in schema.csv, for messages */
	int optional;		/* "required" no: it may be absent */
	struct table_column *cols;	/* private: s.cols, the catalogue's */
};

/* The catalogue of a data folder: in it, named so. */
#define SCHEMA_FILE "schema.csv"

/*
 * The catalogue of datadir (SCHEMA_FILE there), read and checked through
 * ts once per folder (the set keeps it): *out gets its *n files, in the
 * order they first appear. No such file: no data files. Returns 0, or
 * -1 after printing located errors (later calls: -1 without a word).
 */
int schema_catalogue(struct tableset *ts, const char *datadir,
		     const struct schema_file **out, size_t *n);

/* The file called file ("devices.csv") of the catalogue, or NULL. */
const struct schema_file *schema_find(struct tableset *ts,
				      const char *datadir, const char *file);
/* The first file of kind of the catalogue, or NULL. */
const struct schema_file *schema_of_kind(struct tableset *ts,
					 const char *datadir,
					 enum schema_kind kind);
/* The rows file whose prefix is prefix, or NULL. */
const struct schema_file *schema_of_prefix(struct tableset *ts,
					   const char *datadir,
					   const char *prefix);

/*
 * The table of datadir/file from ts, loaded on first use and checked
 * against its catalogue entry (the catalogue itself against its own
 * fixed columns). A file the catalogue does not name is an error.
 * Returns NULL after printing errors (later calls: NULL without a
 * word). The table belongs to the set.
 */
struct table *schema_load(struct tableset *ts, const char *datadir,
			  const char *file);

/*
 * The data files of the catalogue, NULL-terminated, for the pages that
 * show or compare them (data.html and out/data/, the editions' rows, the
 * changes): all but the references, which have a page of their own;
 * none when the catalogue failed. The caller frees the array
 * with free(); the strings belong to ts.
 */
const char **schema_files(struct tableset *ts, const char *datadir);

/* The columns of the catalogue itself, for `ultimate datasets --tables`. */
const struct table_schema *schema_self(void);

#endif
