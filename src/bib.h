#ifndef BIB_H
#define BIB_H

#include <stddef.h>

#include "buf.h"
#include "table.h"

/*
 * The references list: data/references.csv, one published work a row
 * (key, label, authors, title, venue, year, doi, url). Templates cite
 * an entry with {{ cite(key) }} and list the cited ones with
 * {{ references() }} (docs/templates.md). Cells are borrowed from the
 * table, which the tableset owns.
 */
struct bib_entry {
	const char *key, *label, *authors, *title, *venue, *year;
	const char *doi, *url;
};

struct bib {
	struct bib_entry *v;
	size_t n;
	const char *file;	/* "dir/references.csv", for messages */
};

/*
 * Loads dir/references.csv into r. A data folder without the file has no
 * references (r->n == 0). Returns 0, or -1 after printing every error.
 */
int bib_load(struct bib *r, const char *dir, struct tableset *ts);
void bib_release(struct bib *r);

/* The entry called key, or NULL. */
const struct bib_entry *bib_find(const struct bib *r, const char *key);

/*
 * Appends the entry as one HTML list item with the id "ref-KEY":
 * authors (year). title. venue. A link to its DOI, else its URL.
 */
void bib_item_html(struct buf *out, const struct bib_entry *e);

#endif
