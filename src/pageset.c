/*
 * The template stage's pages: which Markdown files of the templates
 * folder are pages (report.md, the report, then every other NAME.md at
 * the top, by name), each parsed once (pageset_load()) and expanded for
 * each edition, the pages joined (pageset_expand()). Reads the
 * templates folder; writes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "pageset.h"
#include "template.h"
#include "xalloc.h"
#include "banned.h"

/* The report's own template, index.html. */
#define REPORT "report.md"

/* Pages the site writes itself, at the top: NAME.html or NAME/. */
static const char *const reserved[] = {
	"index", "methods", "data", "quantities", "changes", "references",
	"editions", "figures", "fonts", NULL,
};

int
pageset_name(const char *name)
{
	size_t i;

	if (!*name || name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
				  "0123456789-")])
		return 1;
	for (i = 0; reserved[i]; i++)
		if (!strcmp(name, reserved[i]))
			return 2;
	return 0;
}

/* scandir() filter: a Markdown file at the top, not hidden. */
static int
markdown(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 3 && !strcmp(e->d_name + n - 3, ".md") &&
	       *e->d_name != '.';
}

/* Adds page name (a file of dir) to ps, parsed. Returns 0 or -1. */
static int
add_page(struct pageset *ps, const char *dir, const char *file)
{
	struct page *p;
	size_t n = strlen(file) - 3;

	ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	p = &ps->v[ps->n++];
	memset(p, 0, sizeof(*p));
	p->name = xstrndup(file, n);
	if (!strcmp(file, REPORT)) {
		p->file = xstrdup("index.html");
	} else {
		struct buf f = BUF_INIT;

		buf_addf(&f, "%s.html", p->name);
		p->file = buf_detach(&f, NULL);
	}
	p->t = template_load(dir, file);
	if (!p->t)
		return -1;
	p->lists = template_lists_references(p->t);
	return 0;
}

int
pageset_load(struct pageset *ps, const char *dir)
{
	struct dirent **names = NULL;
	struct buf path = BUF_INIT;
	int n, i, ret;
	size_t k;

	ret = add_page(ps, dir, REPORT);
	n = scandir(dir, &names, markdown, alphasort);
	if (n < 0 && errno != ENOENT)
		ret = error("cannot read the templates folder '%s': %s", dir,
			    file_strerror(errno));
	for (i = 0; i < n; i++) {
		const char *file = names[i]->d_name;
		int why;

		char *name = xstrndup(file, strlen(file) - 3);

		why = pageset_name(name);
		free(name);
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, file);
		if (!strcmp(file, REPORT)) {
			;
		} else if (why == 1) {
			ret = error_at_line(path.data, 1, 1, "a page's name is "
					    "made of a-z, 0-9 and '-': rename "
					    "it (or move it into a folder, for "
					    "an include)");
		} else if (why == 2) {
			ret = error_at_line(path.data, 1, 1, "the site writes "
					    "a page '%.*s' itself: name this "
					    "page otherwise", (int)strlen(file)
					    - 3, file);
		} else if (add_page(ps, dir, file)) {
			ret = -1;
		}
		free(names[i]);
	}
	free(names);
	buf_release(&path);
	for (k = 0; k < ps->n && !ps->bib_page; k++)
		if (ps->v[k].lists)
			ps->bib_page = ps->v[k].file;
	return ret;
}

void
pageset_release(struct pageset *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		free(ps->v[i].name);
		free(ps->v[i].file);
		template_free(ps->v[i].t);
	}
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

int
pageset_expand(const struct pageset *ps, const struct registry *reg,
	       const struct bib *bib, const char *figdir,
	       struct expansion *xs)
{
	struct expansion **all = xcalloc(ps->n, sizeof(*all));
	const char **files = xcalloc(ps->n, sizeof(*files));
	size_t i;
	int ret = 0;

	for (i = 0; i < ps->n; i++) {
		struct expansion *x = &xs[i];

		x->bib = bib;
		x->figdir = figdir;
		x->pages = 1;
		/* Numbered on from the page before. */
		x->figs = i ? xs[i - 1].figs : 0;
		x->tabs = i ? xs[i - 1].tabs : 0;
		x->bib_page = ps->v[i].lists ? NULL : ps->bib_page;
		if (template_expand(ps->v[i].t, reg, x))
			ret = -1;
		all[i] = x;
		files[i] = ps->v[i].file;
	}
	if (!ret && template_link(all, files, ps->n))
		ret = -1;
	free(all);
	free(files);
	return ret;
}
