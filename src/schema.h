#ifndef SCHEMA_H
#define SCHEMA_H

#include <stddef.h>

struct table_schema;
struct tableset;

/*
 * The catalogue of the data files (the CSV files in data/,
 * references.csv too): which columns each file must and may hold, the
 * kind of each column's cells (text, id, number, year, month), their
 * unit, and which column is the row's id (TABLE_COL_ID: it names the
 * row's quantities) and which its date (TABLE_COL_DATE: editions leave
 * out later rows). When tableset_load() reads a file, table.c checks
 * every cell of every column declared here against its kind, whether a
 * loader (model.c, audit.c, bib.c, rows.c) reads that column or not;
 * the loaders find their columns by name through it (table_col(),
 * table_role()), and check what a value means (positive, a year the
 * model knows). `ultimate datasets --tables` prints the schemas, and
 * the README's column lists are tested against that listing.
 */

/* The schema of the data file called file ("devices.csv"), or NULL. */
const struct table_schema *schema_of(const char *file);
/*
 * Every schema: schema_at(0 .. count - 1) gives them in model_data_files
 * order, then references.csv; NULL past the end.
 */
size_t schema_count(void);
const struct table_schema *schema_at(size_t i);

/*
 * Data files declared without C: dir/schema.csv, when it exists, holds
 * one row per column of each (file, column, kind, unit, required,
 * description; docs/templates.md, "A data file of your own"). Each
 * file must declare one column of kind id and may declare one date (a
 * year or month column); a number's unit must parse (units.h).
 */
#define SCHEMA_FILE "schema.csv"
struct schema_decls;

/*
 * The files datadir/schema.csv declares, read through ts once per
 * folder (the set owns them, and frees them in tableset_release()):
 * *out gets *n schemas, in the order the files first appear, each
 * column with TABLE_COL_ID or TABLE_COL_DATE for its role. No file, or
 * one with a header only, declares none (0). Returns -1 after printing
 * located errors (then *n is 0; later calls return -1 without a word).
 */
int schema_declared(struct tableset *ts, const char *datadir,
		    const struct table_schema **out, size_t *n);
/* Frees a folder list of declarations; NULL is fine. */
void schema_decls_free(struct schema_decls *d);

#endif
