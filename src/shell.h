#ifndef SHELL_H
#define SHELL_H

struct buf;
struct srcfile;

/*
 * Checks a page shell (templates/page.html) before it is used: exactly
 * one "{{content}}", and no "{{...}}" but the slots shell_page() fills.
 * Returns 0, or -1 after printing each problem with its location.
 */
int shell_check(const struct srcfile *shell);

/* What the site has, for shell_page()'s navigation. */
enum shell_flags {
	/*
	 * The site has editions: its navigation links the editions and
	 * changes pages (a site of one edition has neither).
	 */
	SHELL_EDITIONS = (1 << 0),
};

/* A page of the report's own beside it (templates/NAME.md). */
struct shell_link {
	const char *file;	/* "audit.html", from the site's top */
	const char *name;	/* its title */
};

/* What shell_page() is told about the site around the page. */
struct shell_site {
	unsigned flags;		/* enum shell_flags */
	/* The report's other pages, linked after it, in this order. */
	const struct shell_link *pages;
	size_t npages;
};

/*
 * Fills the page shell: "{{title}}", "{{toc}}", "{{content}}", "{{nav}}"
 * and "{{root}}" in shell are replaced by the escaped title, the toc,
 * the body, the site navigation and the way up to the site's top (root:
 * "" for a page at the top, "../../" for an edition's). current is the
 * page's path from the top ("index.html", "editions/2008/index.html"):
 * the navigation marks it. Other text is copied as is (the shell is the
 * author's), and so is the body (html_render() wrote it whole; a page
 * written in C names its own tables). "{{pdf}}" becomes a link to pdf,
 * the page's PDF (a path from the page), when not NULL, and nothing
 * when NULL (a site without PDFs is the same as before the slot).
 * site (NULL: a site of one edition and one page) says what the
 * navigation lists. Appends to out.
 */
void shell_page(struct buf *out, const char *shell, const char *title,
		const char *toc, const char *body, const char *current,
		const char *root, const char *pdf,
		const struct shell_site *site);

#endif
