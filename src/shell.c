/*
 * The page shell: templates/page.html, checked once (shell_check()) and
 * filled around each page's body (shell_page()): its title, contents,
 * the site's navigation and the way to the site's top. Reads and writes
 * no files.
 */
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "shell.h"
#include "banned.h"

/* The page shell's slots; "{{content}}" must be there, once. */
static const char *const slots[] = {
	"{{title}}", "{{toc}}", "{{content}}", "{{nav}}", "{{root}}",
	"{{pdf}}",
};

int
shell_check(const struct srcfile *shell)
{
	const char *p = shell->data, *open;
	struct srcloc loc = { shell, 0, 2 };
	size_t i, ncontent = 0;
	int ret = 0;

	while ((open = strstr(p, "{{"))) {
		for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
			if (!strncmp(open, slots[i], strlen(slots[i])))
				break;
		loc.off = (size_t)(open - shell->data);
		if (i == sizeof(slots) / sizeof(slots[0])) {
			loc.len = strcspn(open, "}\n") + (open[strcspn(open,
				"}\n")] == '}' ? 2 : 0);
			ret = error_at(&loc, "unknown slot '%.*s' in the page "
				       "shell (slots: {{title}}, {{toc}}, "
				       "{{content}}, {{nav}}, {{root}}, "
				       "{{pdf}})", (int)loc.len, open);
			p = open + 2;
			continue;
		}
		if (i == 2 && ncontent++) {
			loc.len = strlen(slots[i]);
			ret = error_at(&loc, "a second '{{content}}' in the "
				       "page shell");
		}
		p = open + strlen(slots[i]);
	}
	if (!ncontent) {
		loc.off = 0;
		loc.len = 1;
		ret = error_at(&loc, "the page shell has no '{{content}}' "
			       "slot: every page would be empty");
	}
	return ret;
}

/* One entry of the navigation: at, the page's aria-current or "". */
static void
nav_item(struct buf *out, const char *root, const char *file,
	 const char *name, const char *at)
{
	BUF_ADDLIT(out, "<li><a href=\"");
	html_attr(out, root);
	html_attr(out, file);
	buf_addf(out, "\"%s>", at);
	html_text(out, name);
	BUF_ADDLIT(out, "</a></li>");
}

/* The site's navigation, the report's other pages after it. */
static void
nav(struct buf *out, const char *current, const char *root,
    const struct shell_site *site)
{
	unsigned flags = site ? site->flags : 0;
	static const struct {
		const char *file, *name;
	} pages[] = {
		{ "index.html", "Report" },
		{ "methods.html", "Methods" },
		{ "editions/index.html", "Editions" },
		{ "changes.html", "Changes" },
		{ "quantities.html", "Quantities" },
		{ "data.html", "Data" },
		{ "references.html", "References" },
	};
	size_t i, k;

	BUF_ADDLIT(out, "<nav class=\"site\" aria-label=\"Site\"><ul>");
	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		const char *at = "";
		size_t len = strlen(pages[i].file) - 5;	/* ".html" */

		if (!strcmp(pages[i].file, current))
			at = " aria-current=\"page\"";
		/* quantities/KEY.html is a part of quantities.html. */
		else if (!strncmp(pages[i].file, current, len) &&
			 current[len] == '/')
			at = " aria-current=\"true\"";
		if ((flags & SHELL_EDITIONS) || (i != 2 && i != 3))
			nav_item(out, root, pages[i].file, pages[i].name, at);
		for (k = 0; i == 0 && site && k < site->npages; k++)
			nav_item(out, root, site->pages[k].file,
				 site->pages[k].name,
				 strcmp(site->pages[k].file, current) ? "" :
				 " aria-current=\"page\"");
	}
	BUF_ADDLIT(out, "</ul></nav>");
}

/* Copies shell to out, filling its slots. */
void
shell_page(struct buf *out, const char *shell, const char *title,
	   const char *toc, const char *body, const char *current,
	   const char *root, const char *pdf, const struct shell_site *site)
{
	const char *p = shell;

	while (*p) {
		const char *open = strstr(p, "{{");

		if (!open) {
			buf_addstr(out, p);
			break;
		}
		buf_add(out, p, (size_t)(open - p));
		if (!strncmp(open, "{{title}}", 9)) {
			html_text(out, title);
			p = open + 9;
		} else if (!strncmp(open, "{{toc}}", 7)) {
			buf_addstr(out, toc);
			p = open + 7;
		} else if (!strncmp(open, "{{content}}", 11)) {
			buf_addstr(out, body);
			p = open + 11;
		} else if (!strncmp(open, "{{nav}}", 7)) {
			nav(out, current, root, site);
			p = open + 7;
		} else if (!strncmp(open, "{{root}}", 8)) {
			buf_addstr(out, root);
			p = open + 8;
		} else if (!strncmp(open, "{{pdf}}", 7)) {
			if (pdf) {
				BUF_ADDLIT(out, "<p class=\"pdf-link\"><a "
					   "href=\"");
				html_attr(out, pdf);
				BUF_ADDLIT(out, "\">This report as PDF</a>"
					   "</p>");
			}
			p = open + 7;
		} else {
			buf_add(out, open, 2);
			p = open + 2;
		}
	}
}
