#ifndef SCHEMA_H
#define SCHEMA_H

#include <stddef.h>

struct table_schema;

/*
 * The data files' columns (the CSV files in data/): what each file must
 * and may hold, and what each column's cells are, as the loaders read them
 * (model.c, audit.c). tableset_load() checks every file it reads
 * against its schema, `ultimate datasets --tables` prints them, and the
 * README's column lists are tested against that listing.
 */

/* The schema of the data file called file ("devices.csv"), or NULL. */
const struct table_schema *schema_of(const char *file);
/* Every schema, in model_data_files order: schema_at(0 .. count - 1). */
size_t schema_count(void);
const struct table_schema *schema_at(size_t i);

#endif
