#ifndef HTML_H
#define HTML_H

#include <stddef.h>

struct buf;
struct expansion;
struct srcfile;

/*
 * The render stage: Markdown -> HTML through cmark-gfm, with the table
 * and strikethrough extensions (no autolink: bare URLs stay text),
 * footnotes (listed under a "Notes" heading), smart punctuation and
 * safe mode. Raw HTML in a template is an error at its place (safe mode
 * would drop it without a word). Headings get stable ids (a slug of
 * their text, made unique with -2, -3, ...), paragraphs that hold
 * exactly a snippet token become the snippet's trusted HTML, link
 * tokens become links, and a table of contents of the level-2 and
 * level-3 headings is built; a folded copy of its list follows the
 * title, for narrow screens. A {{#table}} caption becomes its table's
 * <caption>, the table wrapped in a scrolling <div class="wide">, and a
 * table without one is named by the heading above it (aria-labelledby).
 * The footnotes are listed in a section named by a "Notes" heading
 * (id "notes"), with cmark-gfm's ids and back-links. All of it is done
 * in cmark-gfm's tree before it is rendered (custom nodes for trusted
 * HTML, link nodes for links), so that the renderer writes the
 * finished body.
 */
struct rendered {
	struct buf *body;	/* the HTML of the document */
	struct buf *toc;	/* a <nav> list, empty when no headings */
	char *title;		/* text of the first level-1 heading, or NULL;
				   the caller frees it */
	/*
	 * For a page below the site's top (an edition's): the way up
	 * ("../../"), put before every relative link of the Markdown that
	 * does not lead to one of the page's own files (own: prefixes such
	 * as "quantities.html", "figures/", NULL-terminated). NULL: none.
	 */
	const char *root;
	const char *const *own;
	/*
	 * Where a link to a quantity's entry goes (a number's, a formula's
	 * symbols', the template's own links to quantities.html#NAME):
	 * qhref appends the address of name's entry, not escaped, to out,
	 * given qhref_ctx. NULL: "quantities.html#NAME", a page beside a
	 * single quantities page.
	 */
	void (*qhref)(struct buf *out, const char *name, const void *ctx);
	const void *qhref_ctx;
	/*
	 * HTML put after the title (the first level-1 heading) and the
	 * folded copy of the contents that follows it there, then a blank
	 * line (an edition's line of navigation); or first, when there is
	 * no title. NULL: none.
	 */
	const char *banner;
	/*
	 * For a page among others (a report's pages): where a link "#id"
	 * of the Markdown goes when the page has no heading of that id:
	 * elsewhere returns the file of the page that has it ("audit.html",
	 * the link becoming "audit.html#id"), or NULL to leave the link
	 * as it is. NULL: every such link stays.
	 */
	const char *(*elsewhere)(const char *id, const void *ctx);
	const void *elsewhere_ctx;
};

/*
 * Renders the expanded Markdown x->md, with its snippets and links;
 * appends to r->body and r->toc. Returns 0, or -1 after an error at
 * each piece of raw HTML (block or inline, comments too) in the
 * templates' text, located through x->spans (the page is rendered all
 * the same, without it).
 */
int html_render(const struct expansion *x, struct rendered *r);

/*
 * html_render() in two steps, for pages that link to each other's
 * headings: html_parse() reads the page, so that its headings are known
 * (html_doc_has_id()) before any page is rendered; then
 * html_doc_render() writes it.
 */
struct html_doc;

/*
 * Parses x->md into *doc (x is borrowed until html_doc_render()): the
 * headings get their ids and the contents list is made. Returns 0, or
 * -1 after an error at each piece of raw HTML, as html_render() does
 * (*doc is made all the same). Free *doc with html_doc_free().
 */
int html_parse(const struct expansion *x, struct html_doc **doc);

/*
 * Whether doc has a heading of id, at any level, or "notes", the
 * footnotes' heading, when it has footnotes; before it is rendered
 * and after.
 */
int html_doc_has_id(const struct html_doc *doc, const char *id);

/*
 * Renders doc for the page r describes, as html_render() does: appends
 * to r->body and r->toc and sets r->title (the caller frees it). Once
 * a doc: it keeps only its sections afterwards.
 */
void html_doc_render(struct html_doc *doc, struct rendered *r);

void html_doc_free(struct html_doc *doc);

/*
 * Frees what cmark-gfm keeps for the whole process (its registered
 * extensions), so that a run ends with every allocation freed.
 */
void html_release(void);

#endif
