#ifndef CHANGES_H
#define CHANGES_H

#include <stddef.h>

struct buf;
struct quantity;
struct registry;
struct table;
struct tableset;

/*
 * What changed between two editions: every quantity whose value differs,
 * in order of the size of the change, each with the data rows that
 * caused it. Editions are read from the same data files, the later one
 * with more rows: the rows dated after the earlier edition's year, up
 * to the later one's, are the rows added. A change is caused by an
 * added row its quantity depends on: a row named as the origin of the
 * quantity or of one of its inputs (the newest laptop, the record
 * holder), or any added row of a file that a fit over the whole file
 * reads (source "data/top500.csv"), or of the quantities named in its
 * because (registry.h: the picks that decided that it exists, the
 * then-and-now comparison of a kind once it has a newer machine), in
 * either edition when it is new or gone.
 */
struct change {
	const char *name;
	const struct quantity *a, *b;	/* NULL: not in that edition */
	double size;		/* |relative change|; infinite for a text,
				   or from zero */
};

struct added_row {
	const struct table *t;
	size_t row;
	size_t line;		/* in its file */
	int year;
};

/* The added rows of one file: rows[first] to rows[first + n - 1]. */
struct added_file {
	const struct table *t;
	size_t first, n;
	char *runs;		/* all of them: "top500.csv:60-68" */
};

struct changes {
	int ya, yb;
	const struct registry *ra, *rb;
	struct change *c;	/* changed first, largest first; then new
				   and gone quantities, by name */
	size_t n, nchanged, cap;
	struct added_row *rows;	/* by file, then line */
	size_t nrows, rcap;
	struct added_file *files;	/* the files with added rows */
	size_t nfiles, fcap;
};

/*
 * Compares edition a (year ya) with the later edition b (year yb), both
 * built from the tables of ts (data files named by files, NULL-
 * terminated, read from datadir). Release with changes_release().
 */
void changes_compare(struct changes *cs, const struct registry *a, int ya,
		     const struct registry *b, int yb, struct tableset *ts,
		     const char *datadir, const char *const *files);
void changes_release(struct changes *cs);

/*
 * The added rows that change i depends on, as "file:line" with runs of
 * lines joined ("top500.csv:60-68, devices.csv:7"); nothing when none.
 */
void changes_causes(const struct changes *cs, size_t i, struct buf *out);

/* The comparison for people (`ultimate diff`): a summary, then a table. */
void changes_text(const struct changes *cs, struct buf *out);

/*
 * The comparison for scripts: a header line, then one row per changed,
 * new or gone quantity: name, unit, old, new, relative change (empty
 * for a text or from zero), and the causes.
 */
void changes_csv(const struct changes *cs, struct buf *out);

/*
 * An HTML section (from an <h2> with id id, titled title) of the
 * comparison: the rows added, each linked to data.html, and the table of
 * changes, each name linked where links->href says (NULL:
 * quantities.html#NAME).
 */
struct mathml_links;
void changes_html(const struct changes *cs, const char *id,
		  const char *title, const struct mathml_links *links,
		  struct buf *out);

#endif
