#ifndef PAGES_H
#define PAGES_H

#include <stddef.h>

struct bib;
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
struct quantities_page {
	const char *root;	/* the way to the site's top: "" or "../../"
				   (data.html and the exports are there) */
	const char *edition;	/* "2008 edition" for an edition's page */
	const unsigned char *keep;	/* NULL: every quantity; else
					   keep[i] for registry_at(reg, i) */
	/*
	 * The registries of every edition, oldest first, with their years
	 * (NULL: none): each quantity then shows how its value moved.
	 */
	const struct registry *const *editions;
	const int *years;
	size_t neditions;
	const struct bib *bib;	/* cited [key]s in sources link to it */
};
void pages_quantities(const struct registry *reg,
		      const struct quantities_page *qp, struct buf *out);
/*
 * Appends a table for each CSV file named in files (NULL-terminated)
 * under datadir, read through ts (the tables the model already read).
 * In the sources (columns "source" and "printed_in"), a [key] of bib
 * links to references.html and an address to itself; an unknown key is
 * an error. Returns 0, or -1 after printing an error.
 */
int pages_data(const char *datadir, const char *const *files,
	       struct tableset *ts, const struct bib *bib, struct buf *out);

/*
 * Appends every entry of bib as a list, the body of references.html;
 * those of cited (ncited of them, the report's) link to the report's
 * own list (index.html#ref-KEY).
 */
struct bib_entry;
void pages_references(const struct bib *bib,
		      const struct bib_entry *const *cited, size_t ncited,
		      struct buf *out);

#endif
