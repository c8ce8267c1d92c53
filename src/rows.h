#ifndef ROWS_H
#define ROWS_H

struct registry;
struct tableset;

/*
 * The generic loader: every data file that data/schema.csv declares
 * (schema.h) read, each row as quantities, for the model document to
 * define families over:
 *
 *   <prefix>.<id>.id        the row's id, text
 *   <prefix>.<id>.year      the year of its date, when one is declared
 *                           (a month YYYY-MM: its middle, as a decimal
 *                           year) and the row has one
 *   <prefix>.<id>.<column>  every other non-empty cell: a number in the
 *                           column's declared unit, or text
 *
 * where prefix is the file's name without ".csv" and id the cell of its
 * id column. A column called source also gives the source of the row's
 * quantities (else the file does). Rows dated after as_of are left out
 * (this edition does not know them); a row dated after newest (the
 * newest year of the history series, from newest_file; 0: none) is in
 * no edition, and an error at its date.
 */

/*
 * Adds the rows of every declared file of datadir (read through ts) to
 * reg. Returns 0, or -1 after printing located errors: a cell not of
 * its column's kind, a missing required column, a duplicate id, a file
 * whose prefix names quantities the model has already.
 */
int rows_add(struct registry *reg, struct tableset *ts, const char *datadir,
	     int as_of, int newest, const char *newest_file);

/*
 * The data files of datadir for the pages that show or compare them
 * (data.html and out/data/, the editions' rows, the changes): builtin
 * (NULL-terminated), then the files schema.csv declares (none when it
 * failed), read through ts. Returns a NULL-terminated array that the
 * caller frees with free(); its strings are borrowed from builtin and
 * from ts.
 */
const char **rows_files(struct tableset *ts, const char *datadir,
			const char *const *builtin);

#endif
