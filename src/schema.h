#ifndef SCHEMA_H
#define SCHEMA_H

#include <stddef.h>

struct table_schema;

/*
 * The data files' columns (the CSV files in data/, references.csv too):
 * which columns each file must and may hold, the kind of each column's
 * cells (text, id, number, year, month) and their unit. When a file is
 * read (tableset_load(), table_load()), table.c checks every cell of
 * every column declared here against its kind, whether a loader
 * (model.c, audit.c, bib.c) reads that column or not; what a value
 * means (positive, a year the model knows) the loaders check.
 * `ultimate datasets --tables` prints the schemas, and the README's
 * column lists are tested against that listing.
 */

/* The schema of the data file called file ("devices.csv"), or NULL. */
const struct table_schema *schema_of(const char *file);
/*
 * Every schema: schema_at(0 .. count - 1) gives them in model_data_files
 * order, then references.csv; NULL past the end.
 */
size_t schema_count(void);
const struct table_schema *schema_at(size_t i);

#endif
