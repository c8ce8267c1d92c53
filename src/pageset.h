#ifndef PAGESET_H
#define PAGESET_H

#include <stddef.h>

struct bib;
struct expansion;
struct registry;
struct template;

/*
 * The pages of a report: templates/report.md, the report itself
 * (index.html), then every other Markdown file at the top of the
 * templates folder, templates/NAME.md, a page of its own (NAME.html),
 * in name order. Each is expanded with the same registry as the
 * report, its figures and tables numbered on from the pages before it,
 * and the pages are joined (template_link()): a reference to a label
 * on another page links there, a citation on a page without a
 * references list links to the first page that has one.
 */
struct page {
	char *name;		/* "report", "audit" */
	char *file;		/* "index.html", "audit.html" */
	struct template *t;
	int lists;		/* writes a references list */
};

struct pageset {
	struct page *v;		/* the report first */
	size_t n;
	/* Where the citations of a page without a list link: a file of v, or NULL. */
	const char *bib_page;
};

/*
 * Whether NAME may name a page of its own: made of a-z, 0-9 and '-'
 * (not empty), and not a page the site writes itself (index, methods,
 * data, ...). Returns 0, 1 when the name is not made so, 2 when the
 * site writes that page.
 */
int pageset_name(const char *name);

/*
 * Loads the pages of the templates folder dir into *ps (zeroed by the
 * caller). Returns 0, or -1 after printing every error: a template's,
 * or a page's name (file:1:1: error: ...). Release with
 * pageset_release() either way.
 */
int pageset_load(struct pageset *ps, const char *dir);
void pageset_release(struct pageset *ps);

/*
 * Expands every page of ps against reg into xs[0 .. ps->n - 1] (each
 * initialised with expansion_init(); its bib and figdir set from bib
 * and figdir here) and joins them. Returns 0, or -1 after printing
 * every error of every page.
 */
int pageset_expand(const struct pageset *ps, const struct registry *reg,
		   const struct bib *bib, const char *figdir,
		   struct expansion *xs);

#endif
