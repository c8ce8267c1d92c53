#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>

/* The model document, in the data folder (modeldoc.h). */
#define MODEL_DOCUMENT "model.md"

struct datasets;
struct modeldoc;
struct registry;
struct tableset;

/*
 * The model document of datadir, read into ts the first time and kept
 * there for every edition; NULL after printing its errors.
 */
const struct modeldoc *model_document(const char *datadir,
				      struct tableset *ts);

/*
 * The model stage: evaluates the model document, datadir/model.md
 * (modeldoc.h), which defines the constants, the limits and their
 * ratios, and calls the C providers of this file where it says: reading
 * data/assumptions.csv from datadir (checking every assumption the
 * physics needs: present, right unit, in range), the history series and
 * their fits, the gaps and the devices. Fills a new registry. Returns NULL after printing all errors found.
 * as_of chooses the edition: rows dated after that year are left out
 * (0, or a year after the data: the newest year of the history series,
 * which is the newest edition; a row of devices.csv or quantum.csv
 * dated after it is an error at its date). When ds is not NULL it receives the
 * figure data (series points, sensitivity and scaling curves), to be
 * released with datasets_release() also on failure. When ts is not NULL
 * every table read stays in it (for the data page), else they are freed.
 * The caller frees the result with registry_free().
 */
struct registry *model_build(const char *datadir, int as_of,
			     struct datasets *ds, struct tableset *ts);

/*
 * The editions the data in datadir allow, for the command line to check
 * --as-of and diff's years against: *first, the article's year
 * (article.year of assumptions.csv), and *newest, the newest year of the
 * history series (top500.csv, disk_capacity.csv, ...). Reads only
 * assumptions.csv and the series (kept in ts when not NULL). Returns
 * -1 after printing the errors found in them.
 */
int model_editions(const char *datadir, struct tableset *ts, int *first,
		   int *newest);

/*
 * The column that dates the rows of a data file (its rows count from
 * the edition of that year on): the catalogue's date column (schema.h),
 * or -1 for a file whose rows are not dated (assumptions.csv,
 * claims.csv); and the year of a row by that column (0 when col is -1
 * or the cell holds no year).
 */
struct table;
int model_time_column(const struct table *t);
int model_row_year(const struct table *t, size_t row, int col);

/* The data files the model reads, NULL-terminated (for data.html). */
extern const char *const model_data_files[];

/*
 * Gives the quantities of reg that the C providers add their symbols
 * (symbols.c), the model document's having theirs already; a quantity
 * added later (the claims) takes them too.
 */
void model_set_symbols(struct registry *reg);

#endif
