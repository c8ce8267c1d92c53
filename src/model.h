#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>

/* The model document, in the data folder (modeldoc.h). */
#define MODEL_DOCUMENT "model.md"

struct datasets;
struct modeldoc;
struct registry;
struct table;
struct tableset;

/*
 * The model document of datadir, read into ts the first time and kept
 * there for every edition; NULL after printing its errors.
 */
const struct modeldoc *model_document(const char *datadir,
				      struct tableset *ts);

/*
 * The model stage: data -> quantity registry. Reads the data catalogue's
 * values files (one quantity a row), then evaluates the model document
 * (modeldoc.h), which reads the data's rows where it says: "call rows"
 * adds the rows of the files with ids as quantities, and its reductions,
 * sets of rows, trends and datasets range over any rows file (rows.h).
 * as_of chooses the edition: rows dated after that year are left out (0,
 * or a year after the data: the newest year of any dated row, the
 * newest edition), and edition.year is that year. When ds is not NULL
 * it receives the document's datasets (the figures' data), to be
 * released with datasets_release() also on failure. When ts is not NULL
 * every table read stays in it (for the data page), else they are
 * freed. Returns a new registry (free with registry_free()), or NULL
 * after printing all errors found.
 */
struct registry *model_build(const char *datadir, int as_of,
			     struct datasets *ds, struct tableset *ts);

/*
 * The editions the data in datadir allow, for the command line to check
 * --as-of and diff's years against: *newest, the newest year of any
 * dated row of the catalogue's files, and *first, the first edition:
 * the document's edition.first (evaluated alone, over the values
 * files), or the newest year when it does not define one (a single
 * edition). Returns -1 after printing errors.
 */
int model_editions(const char *datadir, struct tableset *ts, int *first,
		   int *newest);

/*
 * The column that dates the rows of a data file (its rows count from
 * the edition of that year on): the catalogue's date column (schema.h),
 * or -1 for a file whose rows are not dated; and the year of a row by
 * that column (0 when col is -1 or the cell holds no year).
 */
int model_time_column(const struct table *t);
int model_row_year(const struct table *t, size_t row, int col);

#endif
