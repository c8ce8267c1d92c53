#ifndef METHODS_H
#define METHODS_H

struct bib;
struct buf;
struct mathml_links;
struct mathml_memo;
struct modeldoc;
struct registry;

/*
 * The Methods page: the model document (modeldoc.h) as the reader sees
 * it. Its prose is rendered as Markdown; each definition of a define
 * block becomes an equation typeset in MathML with the quantities'
 * symbols (mathml.h), its value in the edition of reg, its words and
 * its source; a given quantity shows its value and where it is read
 * from; a provider says what it reads. Names link where links->href
 * says, or with links NULL to page#NAME (the quantities page beside it),
 * references to root + "references.html". Appends the page's body to
 * out. memo (or NULL): what was typeset for the page of another edition,
 * to take again where it is the same (its prose, a family's equation, a
 * definition's).
 */
void methods_page(struct buf *out, const struct modeldoc *doc,
		  const struct registry *reg, const struct bib *bib,
		  const char *page, const struct mathml_links *links,
		  const char *root, struct mathml_memo *memo);

#endif
