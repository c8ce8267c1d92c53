#ifndef PAGES_H
#define PAGES_H

struct buf;
struct registry;
struct tableset;

/*
 * The reference pages around the report, as HTML bodies for the page
 * shell: every quantity with its formula, inputs, value, unit, source and
 * origin (one row each, its id the quantity's name, so the report's
 * numbers link to it), and every data file as a table with its sources
 * (one row each, its id "<file>-<line>", so origins link to it).
 */
void pages_quantities(const struct registry *reg, struct buf *out);
/*
 * Appends a table for each CSV file named in files (NULL-terminated)
 * under datadir, read through ts (the tables the model already read).
 * Returns 0, or -1 after printing an error.
 */
int pages_data(const char *datadir, const char *const *files,
	       struct tableset *ts, struct buf *out);

#endif
