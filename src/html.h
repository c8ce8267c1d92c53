#ifndef HTML_H
#define HTML_H

#include <stddef.h>

struct buf;
struct expansion;
struct srcfile;

/*
 * The render stage: Markdown -> HTML through cmark-gfm, with the table
 * and strikethrough extensions (no autolink: bare URLs stay text), smart punctuation and safe mode
 * (raw HTML in the Markdown is not passed through). Headings get stable
 * ids (a slug of their text, made unique with -2, -3, ...), paragraphs
 * that hold exactly a snippet token become the snippet's trusted HTML,
 * and a table of contents of the level-2 and level-3 headings is built.
 */
struct rendered {
	struct buf *body;	/* the HTML of the document */
	struct buf *toc;	/* a <nav> list, empty when no headings */
	char *title;		/* text of the first level-1 heading, or NULL;
				   the caller frees it */
};

/*
 * Renders the expanded Markdown x->md, with its snippets and links;
 * appends to r->body and r->toc. Returns 0 (cmark accepts every input).
 */
int html_render(const struct expansion *x, struct rendered *r);

/*
 * Frees what cmark-gfm keeps for the whole process (its registered
 * extensions), so that a run ends with every allocation freed.
 */
void html_release(void);

/*
 * Checks a page shell (templates/page.html) before it is used: exactly
 * one "{{content}}", and no "{{...}}" but the slots html_page() fills.
 * Returns 0, or -1 after printing each problem with its location.
 */
int html_check_shell(const struct srcfile *shell);

/*
 * Fills the page shell: "{{title}}", "{{toc}}", "{{content}}" and
 * "{{nav}}" in shell are replaced by the escaped title, the toc, the body
 * and the site navigation (current marks the page being written). Other
 * text is copied as is (the shell is the author's).
 */
void html_page(struct buf *out, const char *shell, const char *title,
	       const char *toc, const char *body, const char *current);
#endif
