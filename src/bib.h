#ifndef BIB_H
#define BIB_H

#include <stddef.h>

#include "buf.h"
#include "table.h"

/*
 * The references list: the data catalogue's file of kind references
 * (data/references.csv in the shipped project), one published work a
 * row (key, label, authors, title, venue, year, doi, url). Templates
 * cite an entry with {{ cite(key) }} and list the cited ones with
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
 * Loads the references file of dir's catalogue into r. A catalogue
 * without one has no references (r->n == 0). Returns 0, or -1 after
 * printing every error.
 */
int bib_load(struct bib *r, const char *dir, struct tableset *ts);
void bib_release(struct bib *r);

/* The entry called key, or NULL. */
const struct bib_entry *bib_find(const struct bib *r, const char *key);

/*
 * Appends the entry as an HTML list item with the id "ref-KEY":
 * authors (year). title. venue. A link to its DOI, else its URL. The
 * item is left open: the caller adds what its page needs and writes
 * "</li>".
 */
void bib_item_html(struct buf *out, const struct bib_entry *e);

/*
 * A data row's source cites entries with markers: "[lloyd2000] memory
 * section". Checks the markers of cell (row, col) of t: an unknown key
 * is an error at the cell with the closest keys. Returns 0, or -1 after
 * printing the errors.
 */
/*
 * The length of a "[key]" marker at s, or 0; *e is the entry it names
 * in r, or NULL (an unknown key).
 */
size_t bib_marker(const struct bib *r, const char *s,
		  const struct bib_entry **e);

int bib_check_cell(const struct bib *r, const struct table *t, size_t row,
		   int col);
/*
 * The same for any text (a definition's "source:"): each unknown key is
 * err(ctx, at, len, message), at the byte offset of its marker in text.
 * Returns 0, or -1 when there was one.
 */
int bib_check_text(const struct bib *r, const char *text,
		   void (*err)(void *ctx, size_t at, size_t len,
			       const char *msg), void *ctx);

/*
 * Appends text as HTML, escaped: each known [key] becomes a link to
 * ROOTreferences.html#ref-KEY showing the entry's label, and each
 * well-formed http(s) address, or a bare address with a path
 * ("top500.org/lists/"), a link to it. r may be NULL (no markers).
 */
void bib_text_html(struct buf *out, const struct bib *r, const char *text,
		   const char *root);

#endif
