#ifndef PAGES_H
#define PAGES_H

#include <stddef.h>

struct bib;
struct mathml_memo;
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
	const char *root;	/* the way to the site's top: "", "../" or "../../"
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
	/*
	 * The data's tables, so that an origin ("data/devices.csv:4")
	 * links to its row on data.html only when the page shows it.
	 */
	const struct tableset *ts;
	/* Formulas typeset for earlier pages (mathml.h), or NULL. */
	struct mathml_memo *memo;
};
/*
 * An edition's quantities page (qp->edition set): the quantities qp->keep
 * marks, by group, on one page.
 */
void pages_quantities(const struct registry *reg,
		      const struct quantities_page *qp, struct buf *out);

/*
 * The site's own quantities, one page each part: quantities/KEY.html,
 * KEY the part of a name before its first dot ("const"), or, in a group
 * of more than PAGES_SPLIT quantities, before its second
 * ("device.macbook_2008"), so that no page is long to open on a phone;
 * quantities.html lists the parts. Pages come in the order of their
 * first quantity in the registry.
 */
#define PAGES_SPLIT 100
struct qpage {
	char *key;
	size_t *at;		/* its quantities: registry_at() indices */
	size_t n;
};
struct qpages {
	struct qpage *v;
	size_t n;
	size_t *order;	/* v's indices sorted by key, for qpages_find() */
};
void qpages_init(struct qpages *p, const struct registry *reg);
void qpages_release(struct qpages *p);
/* The page of name (a quantity of the registry p was made from), or NULL. */
const struct qpage *qpages_find(const struct qpages *p, const char *name);
/*
 * Appends the address of name's entry from a page in dir ("" in
 * quantities/, "quantities/" beside it): "<dir>KEY.html#NAME", "#NAME"
 * on self's own page (self may be NULL), "quantities.html#NAME" for a
 * NAME of no part.
 */
void qpages_href(const struct qpages *p, const char *dir,
		 const struct qpage *self, const char *name, struct buf *out);
/*
 * The body of quantities/KEY.html for part pg (qp->root: "../"), and of
 * quantities.html, which lists the parts.
 */
void pages_quantities_part(const struct registry *reg,
			   const struct quantities_page *qp,
			   const struct qpages *p, const struct qpage *pg,
			   struct buf *out);
void pages_quantities_index(const struct quantities_page *qp,
			    const struct qpages *p, struct buf *out);
/*
 * Whether data.html shows row (0-based) of t: a file of more than
 * PAGES_MAX_ROWS rows shows its first and last PAGES_MAX_ROWS / 2 there
 * (all of them are in its CSV download), so that a link to
 * data.html#FILE-LINE leads somewhere only for those.
 */
#define PAGES_MAX_ROWS 1000
struct table;
int pages_data_shows(const struct table *t, size_t row);
/*
 * Appends the fragment of data.html that shows line of t: "FILE-LINE"
 * (FILE its base name), or "FILE", the file's table, when the page does
 * not show the row that starts there.
 */
void pages_data_anchor(struct buf *out, const struct table *t, size_t line);

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
 * own list on page list ("index.html": index.html#ref-KEY).
 */
struct bib_entry;
void pages_references(const struct bib *bib,
		      const struct bib_entry *const *cited, size_t ncited,
		      const char *list, struct buf *out);

#endif
