#ifndef ROWS_H
#define ROWS_H

#include <stddef.h>

struct expr_rows;
struct registry;
struct schema_file;
struct tableset;

/*
 * The generic provider of data rows (model stage): the files of a
 * project's data catalogue (schema.h), as of an edition.
 *
 * A rows file with an id column gives each row as quantities, for the
 * model document's families over its prefix:
 *
 *   <prefix>.<id>.id       the row's id, text
 *   <prefix>.<id>.year     the year of its date, when it has one
 *   <prefix>.<id>.<name>   every other non-empty cell whose column has a
 *                          name in the model: a number in the column's
 *                          unit, or text
 *
 * A values file gives one quantity a row (name, value, unit, source).
 * Any rows file, with an id or not, is also rows a reduction or a trend
 * ranges over (rows_source()): VAR.<name> is the row's cell, VAR.year
 * the year of its date and VAR.time its middle as a decimal year (June
 * 2008 is 2008.458, a year 2008 is 2008.5). The source of a row's
 * quantities is its column called source, else the file. An edition
 * leaves out the rows dated after its year.
 */

/*
 * Adds the values of f, a values file of datadir, to reg: one quantity a
 * row, its name valid and new, its unit one units.h knows. Returns 0,
 * or -1 after printing errors at the cells.
 */
int rows_values(struct registry *reg, struct tableset *ts,
		const char *datadir, const struct schema_file *f);

/*
 * Adds the rows of f, a rows file of datadir with an id column, dated
 * up to as_of, to reg; after each row, row_done(ctx, "PREFIX.ID")
 * unless it is NULL (-1 stops). Returns 0, or -1 after errors: a
 * duplicate id, a prefix the model has names under already.
 */
int rows_add(struct registry *reg, struct tableset *ts, const char *datadir,
	     const struct schema_file *f, int as_of,
	     int (*row_done)(void *ctx, const char *row), void *ctx);

/*
 * The newest year of the data, the newest edition, into *newest (0:
 * no dated row): the newest row's of the histories (rows files with a
 * date and no id column), or, with none, of every dated file. A row of
 * a file with ids dated after it is an error: no edition would show it.
 * *year, the edition asked for (0: the newest), is set to one that is
 * (no later than *newest), and origin to the newest row of those files
 * it shows ("data/top500.csv:70"), what decides the edition's year.
 * Returns -1 after printing errors.
 */
int rows_newest(struct tableset *ts, const char *datadir, int *year,
		int *newest, struct buf *origin);

/*
 * Prints msg as an error at the cell that gives name (a quantity, or a
 * column's quantity name) in the row of a data file at origin
 * ("data/top500.csv:60", as a row's quantities have it): a rows file's
 * column of that name ("year" and "time" its date), a values file's
 * value; with of_unit, the cell of its unit instead (a rows file's in
 * the catalogue). Returns 0, or 1 (nothing printed) when origin is no
 * row of datadir's files read, or name no column of it.
 */
int rows_cell_error(struct tableset *ts, const char *datadir,
		    const char *origin, const char *name, int of_unit,
		    const char *msg);

/* One rows file's rows of an edition, for reductions and trends. */
struct rows_source;

/*
 * The rows of f (datadir's, read through ts) dated up to as_of, in the
 * file's order. Returns NULL after printing errors. Free with
 * rows_source_free().
 */
struct rows_source *rows_source(struct tableset *ts, const char *datadir,
				const struct schema_file *f, int as_of);
/* The rows as a reduction's (expr.h); valid while src is. */
void rows_source_expr(struct rows_source *src, struct expr_rows *out);
const struct schema_file *rows_source_file(const struct rows_source *src);
const struct table *rows_source_table(const struct rows_source *src);
void rows_source_free(struct rows_source *src);

#endif
