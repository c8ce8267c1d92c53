/*
 * The report stage: every edition's registry -> expanded templates ->
 * HTML pages and figures in the site's staging area -> published;
 * skipped when the key of everything the site is made from is the one
 * its manifest records (report_run()). The order of work: gnuplot
 * started ahead when figures are to be drawn; editions from the newest
 * down, each handing its figures to gnuplot as soon as its templates
 * are expanded (gnuplot draws on the other core while the next edition
 * is built), and rendered (the report's pages: pageset.h), then the
 * pages that need every edition (the editions' list, the history of
 * each quantity, the changes), then the wait for gnuplot.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit.h"
#include "bib.h"
#include "buf.h"
#include "changes.h"
#include "dataset.h"
#include "diag.h"
#include "escape.h"
#include "format.h"
#include "export.h"
#include "file.h"
#include "gnuplot.h"
#include "hash.h"
#include "html.h"
#include "mathml.h"
#include "methods.h"
#include "model.h"
#include "modeldoc.h"
#include "pages.h"
#include "pageset.h"
#include "pdf.h"
#include "plot.h"
#include "registry.h"
#include "schema.h"
#include "report.h"
#include "rows.h"
#include "shell.h"
#include "site.h"
#include "table.h"
#include "template.h"
#include "timing.h"
#include "xalloc.h"
#include "banned.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

/*
 * The math font that style.css names (fonts/math.otf), copied from the
 * file MATH_FONT, which the build may set (by default Debian's
 * fonts-lmodern, Latin Modern Math, under the GUST Font License): the
 * formulas are typeset in it whatever fonts the reader's machine has.
 * Returns 0, or -1 after an error that names the file and the package.
 */
static int
write_math_font(struct site *site)
{
	struct buf font = BUF_INIT;
	int ret;

	if (buf_read_file(&font, MATH_FONT)) {
		ret = error("cannot read the math font '%s': %s (install the "
			    "package " MATH_FONT_PACKAGE ", or build with "
			    "MATH_FONT=FILE)", MATH_FONT,
			    file_strerror(errno));
	} else {
		ret = site_write(site, "fonts/math.otf", font.data, font.len);
	}
	buf_release(&font);
	return ret;
}

struct edition {
	int year;
	char dir[32];		/* "editions/2008" */
	char what[40];		/* "the 2008 edition" */
	const struct registry *reg;
	struct registry *own;	/* reg, when built here */
	struct datasets ds;	/* its figure data, when built here */
	const struct datasets *dsp;
	/* Its report's pages (pageset.h), the report first: expanded, */
	struct expansion *x;
	/* and rendered for editions/YEAR/ (body, toc, title of each). */
	struct buf *body, *toc;
	char **title;
	struct figure *figs;	/* every page's, in order (borrowed) */
	size_t nfigs;
};

/* Editions are years of --as-of: 1900 to 2100. */
#define YEAR_FIRST 1900
#define YEAR_LAST 2100
#define NYEARS (YEAR_LAST - YEAR_FIRST + 1)

struct run {
	struct site *site;
	const struct report_options *opt;
	struct tableset *ts;
	const char *shell;
	struct pageset ps;	/* the report's pages */
	/* An edition's own files: its links to them are not sent to the top. */
	const char **own;
	struct shell_link *nav;	/* the report's other pages, by title */
	char **titles;		/* of the top's pages, for nav */
	struct shell_site nav_site;
	struct bib bib;		/* references.csv, for {{ cite() }} */
	struct plot *pl;
	struct plot_options po;
	struct edition *ed;	/* oldest first */
	size_t n;
	int article_year;
	/* Editions beside the site's pages: asked, and years to show (a
	 * project without dated rows has one edition, of no year). */
	int editions;
	/* The data files of the catalogue (schema.h). */
	const char **files;
	/* Rows of files[f] dated each year y: dated[f * NYEARS + y -
	 * YEAR_FIRST] (editions index). */
	unsigned *dated;
	struct qpages parts;	/* the pages of the site's quantities */
	const struct modeldoc *doc;	/* the model document, for Methods */
	struct mathml_memo *memo;	/* formulas typeset, for every page */
	struct pdf_page *pdfs;	/* with opt->pdf: the reports to print */
	size_t npdfs;
	struct buf pdfnames;	/* their paths, NUL-separated */
};

/*
 * An edition's own files, its links to which are not sent to the top:
 * its report's pages, its quantities page and its figures; and what
 * the navigation of every page is told.
 */
static void
own_files(struct run *run)
{
	size_t k, n = 0;

	run->own = xcalloc(run->ps.n + 3, sizeof(*run->own));
	for (k = 0; k < run->ps.n; k++)
		run->own[n++] = run->ps.v[k].file;
	run->own[n++] = "quantities.html";
	run->own[n++] = "figures/";
	run->nav_site.flags = run->editions ? SHELL_EDITIONS : 0;
}

/* The PDF of page file, as a link from it, or NULL. */
static const char *
pdf_link(const struct run *run, const char *file)
{
	size_t i;

	for (i = 0; i < run->npdfs; i++)
		if (!strcmp(run->pdfs[i].html, file))
			return strrchr(run->pdfs[i].pdf, '/') ?
			       strrchr(run->pdfs[i].pdf, '/') + 1 :
			       run->pdfs[i].pdf;
	return NULL;
}

/* Writes one page of the site through the shell. */
static int
write_page(struct run *run, const char *file, const char *root,
	   const char *title, const char *toc, const char *body)
{
	struct buf page = BUF_INIT;
	int ret;

	shell_page(&page, run->shell, title, toc, body, file, root,
		   pdf_link(run, file), &run->nav_site);
	ret = site_write(run->site, file, page.data, page.len);
	buf_release(&page);
	return ret;
}

/* Where a page at the site's top links to a quantity: its part's page. */
static void
top_qhref(struct buf *out, const char *name, const void *parts)
{
	qpages_href(parts, "quantities/", NULL, name, out);
}

struct registry *
report_registry(const char *datadir, int year, struct datasets *ds,
		struct tableset *ts)
{
	struct buf audit = BUF_INIT;
	struct registry *reg = model_build(datadir, year, ds, ts);

	/* The claims' quantities, which the templates show. */
	if (reg && audit_run(datadir, reg, &audit, ts) < 0) {
		registry_free(reg);
		reg = NULL;
	}
	buf_release(&audit);
	return reg;
}

/*
 * The line of edition navigation of edition i's page file (one of its
 * report's), at the site's top (top) or in editions/YEAR/: which
 * edition it is, the same page in the editions before and after it,
 * and every edition.
 */
static void
edition_nav(const struct run *run, size_t i, const char *file, int top,
	    struct buf *out)
{
	const char *up = top ? "editions/" : "../";
	const struct edition *e = &run->ed[i];

	buf_addf(out, "<p class=\"edition-nav\">The %d edition%s", e->year,
		 i + 1 == run->n && run->n > 1 ? ", the newest" : "");
	if (i)
		buf_addf(out, " \xc2\xb7 <a href=\"%s%d/%s\" rel=\"prev\">"
			 "\xe2\x86\x90 %d</a>", up, e[-1].year, file,
			 e[-1].year);
	buf_addf(out, " \xc2\xb7 <a href=\"%sindex.html\">all editions</a>",
		 up);
	if (i + 1 < run->n)
		buf_addf(out, " \xc2\xb7 <a href=\"%s%d/%s\" rel=\"next\">"
			 "%d \xe2\x86\x92</a>", up, e[1].year, file,
			 e[1].year);
	BUF_ADDLIT(out, "</p>\n");
}

/* An edition's pages parsed, for links to headings across them. */
struct parsed {
	struct html_doc **docs;
	const struct pageset *ps;
};

/* rendered.elsewhere: the page that has a heading of id, or NULL. */
static const char *
heading_page(const char *id, const void *ctx)
{
	const struct parsed *p = ctx;
	size_t k;

	for (k = 0; k < p->ps->n; k++)
		if (html_doc_has_id(p->docs[k], id))
			return p->ps->v[k].file;
	return NULL;
}

/*
 * Renders edition i's pages, for the site's top (top: their links to
 * quantities made for the parts' pages) or for editions/YEAR/, into
 * body[k], toc[k] (initialised here) and title[k] (the caller frees
 * it), each with its line of edition navigation after the title when
 * the site has editions. All are parsed first, so that a link to a
 * heading of another page goes there. Returns 0, or -1 after an error
 * (raw HTML in a template).
 */
static int
render_pages(struct run *run, size_t i, int top, struct buf *body,
	     struct buf *toc, char **title)
{
	struct edition *e = &run->ed[i];
	size_t np = run->ps.n, k;
	struct parsed p = { xcalloc(np, sizeof(*p.docs)), &run->ps };
	struct buf nav = BUF_INIT;
	int ret = 0;

	for (k = 0; k < np; k++)
		if (html_parse(&e->x[k], &p.docs[k]))
			ret = -1;
	for (k = 0; k < np; k++) {
		struct rendered r = { .body = &body[k], .toc = &toc[k],
				      .elsewhere = heading_page,
				      .elsewhere_ctx = &p };

		if (top) {
			r.qhref = top_qhref;
			r.qhref_ctx = &run->parts;
		} else {
			r.root = "../../";
			r.own = run->own;
		}
		buf_init(&body[k]);
		buf_init(&toc[k]);
		buf_reset(&nav);
		if (run->editions)
			edition_nav(run, i, run->ps.v[k].file, top, &nav);
		r.banner = nav.data;
		html_doc_render(p.docs[k], &r);
		title[k] = r.title;
	}
	for (k = 0; k < np; k++)
		html_doc_free(p.docs[k]);
	free(p.docs);
	buf_release(&nav);
	return ret;
}

/* Renders edition i's pages for editions/YEAR/. Returns 0 or -1. */
static int
render_edition(struct run *run, size_t i)
{
	struct edition *e = &run->ed[i];

	e->body = xcalloc(run->ps.n, sizeof(*e->body));
	e->toc = xcalloc(run->ps.n, sizeof(*e->toc));
	e->title = xcalloc(run->ps.n, sizeof(*e->title));
	return render_pages(run, i, 0, e->body, e->toc, e->title);
}

/*
 * Builds edition e: its registry (unless given), its report's pages
 * expanded (and rendered for editions/YEAR/), its figures handed to
 * gnuplot. Returns 0, -1 after input errors, -2 when gnuplot cannot be
 * started.
 */
static int
build_edition(struct run *run, struct edition *e)
{
	struct buf dir = BUF_INIT;
	size_t k, j;
	int ret = -1;

	if (!e->reg) {
		e->reg = e->own = report_registry(run->opt->datadir, e->year,
						  &e->ds, run->ts);
		e->dsp = &e->ds;
		if (!e->own)
			goto out;
	}
	e->x = xcalloc(run->ps.n, sizeof(*e->x));
	for (k = 0; k < run->ps.n; k++)
		expansion_init(&e->x[k]);
	if (pageset_expand(&run->ps, e->reg, &run->bib, run->po.figdir,
			   e->x) || diag_interrupted())
		goto out;
	/* The figures of every page, drawn into the edition's folder. */
	for (k = 0; k < run->ps.n; k++)
		e->nfigs += e->x[k].nfigures;
	e->figs = xcalloc(e->nfigs + 1, sizeof(*e->figs));
	for (k = 0, e->nfigs = 0; k < run->ps.n; k++)
		for (j = 0; j < e->x[k].nfigures; j++)
			e->figs[e->nfigs++] = e->x[k].figures[j];
	/* The newest edition's figures at the top: drawn first. */
	ret = e == &run->ed[run->n - 1] ? plot_add(run->pl, "figures", NULL,
		e->reg, e->dsp, e->figs, e->nfigs) : 0;
	if (ret || !run->editions)
		goto out;
	ret = render_edition(run, (size_t)(e - run->ed));
	/* Only the newest: the previous edition's figures are kept. */
	if (ret || (run->opt->newest && e != &run->ed[run->n - 1]))
		goto out;
	buf_addf(&dir, "%s/figures", e->dir);
	ret = plot_add(run->pl, dir.data, e->what, e->reg, e->dsp,
		       e->figs, e->nfigs);
out:
	/*
	 * Its figures' data are written: its datasets (every data file's
	 * rows among them) go now, not with the last edition (a million-row
	 * history kept 19 copies, 540 MB).
	 */
	datasets_release(&e->ds);
	buf_release(&dir);
	return ret;
}

/*
 * The site's Methods page: the model document with the newest
 * edition's values, its names linking to the quantities' pages. An
 * edition has none of its own: its formulas are the model's, and each
 * number on its pages links to its quantities page, where formula,
 * inputs and source are given with its values.
 */
static int
write_methods(struct run *run)
{
	struct mathml_links parts = { top_qhref, &run->parts };
	struct buf body = BUF_INIT;
	int ret;

	methods_page(&body, run->doc, run->ed[run->n - 1].reg, &run->bib,
		     "quantities.html", &parts, "", run->memo);
	ret = write_page(run, "methods.html", "", "Methods", "", body.data);
	buf_release(&body);
	return ret;
}

static int
write_edition(struct run *run, size_t i)
{
	struct edition *e = &run->ed[i];
	struct buf body = BUF_INIT, file = BUF_INIT;
	struct quantities_page qp = { "../../", NULL, NULL, NULL, NULL, 0,
				      &run->bib, run->ts, run->memo };
	size_t n = registry_count(e->reg), k, j, p;
	unsigned char *keep = xcalloc(n ? n : 1, 1);
	size_t *stack = xcalloc(n ? n : 1, sizeof(*stack)), top = 0;
	char name[48];
	int ret = 0;

	for (p = 0; p < run->ps.n; p++) {
		buf_reset(&file);
		buf_addf(&file, "%s/%s", e->dir, run->ps.v[p].file);
		ret |= write_page(run, file.data, "../../", e->title[p] ?
				  e->title[p] : p ? run->ps.v[p].name :
				  "Report", e->toc[p].data, e->body[p].data);
	}
	/* The quantities its pages link to, and their inputs. */
	for (p = 0; p < run->ps.n; p++)
		for (k = 0; k < e->x[p].nlinks; k++) {
			size_t at = registry_index(e->reg,
						   e->x[p].links[k].name);

			if (at != SIZE_MAX && !keep[at]) {
				keep[at] = 1;
				stack[top++] = at;
			}
		}
	while (top) {
		const struct quantity *q = registry_at(e->reg, stack[--top]);

		for (j = 0; j < q->ninputs; j++) {
			size_t at = registry_index(e->reg, q->inputs[j]);

			if (at != SIZE_MAX && !keep[at]) {
				keep[at] = 1;
				stack[top++] = at;
			}
		}
	}
	snprintf(name, sizeof(name), "%d edition", e->year);
	qp.edition = name;
	qp.keep = keep;
	buf_reset(&body);
	pages_quantities(e->reg, &qp, &body);
	buf_reset(&file);
	buf_addf(&file, "%s/quantities.html", e->dir);
	ret |= write_page(run, file.data, "../../", "Quantities", "",
			  body.data);
	free(keep);
	free(stack);
	buf_release(&body);
	buf_release(&file);
	return ret;
}

/*
 * The newest edition's report at the top: index.html and its other
 * pages, each rendered first, their titles then in the navigation of
 * every page of the site.
 */
static int
write_top_report(struct run *run)
{
	size_t np = run->ps.n, k;
	struct buf *body = xcalloc(np, sizeof(*body));
	struct buf *toc = xcalloc(np, sizeof(*toc));
	char **title = xcalloc(np, sizeof(*title));
	int ret = render_pages(run, run->n - 1, 1, body, toc, title);

	run->nav = xcalloc(np, sizeof(*run->nav));
	for (k = 1; k < np; k++) {
		run->nav[k - 1].file = run->ps.v[k].file;
		run->nav[k - 1].name = title[k] ? title[k] :
				       run->ps.v[k].name;
	}
	run->nav_site.pages = run->nav;
	run->nav_site.npages = np - 1;
	for (k = 0; k < np && !ret; k++)
		ret = write_page(run, run->ps.v[k].file, "", title[k] ?
				 title[k] : k ? run->ps.v[k].name : "Report",
				 toc[k].data, body[k].data);
	for (k = 0; k < np; k++) {
		buf_release(&body[k]);
		buf_release(&toc[k]);
	}
	free(body);
	free(toc);
	/* The navigation's names, until the run ends. */
	run->titles = title;
	return ret;
}

/* quantities.html, data.html, the CSV/JSON exports and data copies. */
static int
write_reference(struct run *run)
{
	const struct edition *e = &run->ed[run->n - 1];
	const struct registry **regs = xcalloc(run->n, sizeof(*regs));
	int *years = xcalloc(run->n, sizeof(*years));
	/* No memo: these formulas are typeset once in a run. */
	struct quantities_page qp = { "", NULL, NULL, NULL, NULL, 0,
				      &run->bib, run->ts, NULL };
	struct buf b = BUF_INIT, path = BUF_INIT, title = BUF_INIT;
	struct buf json = BUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < run->n; i++) {
		regs[i] = run->ed[i].reg;
		years[i] = run->ed[i].year;
	}
	if (run->n > 1) {
		qp.editions = regs;
		qp.years = years;
		qp.neditions = run->n;
	}
	pages_quantities_index(&qp, &run->parts, &b);
	ret |= write_page(run, "quantities.html", "", "Quantities", "",
			  b.data);
	qp.root = "../";
	for (i = 0; i < run->parts.n; i++) {
		const struct qpage *pg = &run->parts.v[i];

		buf_reset(&b);
		pages_quantities_part(e->reg, &qp, &run->parts, pg, &b);
		buf_reset(&path);
		buf_addf(&path, "quantities/%s.html", pg->key);
		buf_reset(&title);
		buf_addf(&title, "Quantities: %s", pg->key);
		ret |= write_page(run, path.data, "../", title.data, "",
				  b.data);
	}
	buf_reset(&b);
	ret |= pages_data(run->opt->datadir, run->files, run->ts,
			  &run->bib, &b);
	ret |= write_page(run, "data.html", "", "Data", "", b.data);
	buf_reset(&b);
	for (i = 0; i < run->ps.n && run->ps.v[i].file != run->ps.bib_page;
	     i++)
		;
	if (i < run->ps.n)
		pages_references(&run->bib, e->x[i].cited, e->x[i].ncited,
				 run->ps.bib_page, &b);
	else
		pages_references(&run->bib, NULL, 0, NULL, &b);
	ret |= write_page(run, "references.html", "", "References", "",
			  b.data);
	buf_reset(&b);
	buf_reset(&json);
	export_quantities(e->reg, &b, &json);
	ret |= site_write(run->site, "quantities.csv", b.data, b.len);
	ret |= site_write(run->site, "quantities.json", json.data, json.len);
	for (i = 0; run->files[i] && !ret; i++) {
		const struct table *t;
		const char *bytes;
		size_t len;

		t = schema_load(run->ts, run->opt->datadir, run->files[i]);
		if (!t) {
			ret = -1;
			break;
		}
		bytes = table_source(t, &len);
		buf_reset(&path);
		buf_addf(&path, "data/%s", run->files[i]);
		ret |= site_write(run->site, path.data, bytes, len);
	}
	free(regs);
	free(years);
	buf_release(&b);
	buf_release(&json);
	buf_release(&path);
	buf_release(&title);
	return ret ? -1 : 0;
}

/* How many rows of each data file are dated each year, counted once. */
static void
count_dated(struct run *run)
{
	size_t f, r;

	for (f = 0; run->files[f]; f++)
		;
	run->dated = xcalloc(f ? f * NYEARS : 1, sizeof(*run->dated));
	for (f = 0; run->files[f]; f++) {
		const struct table *t;
		int col;

		t = schema_load(run->ts, run->opt->datadir, run->files[f]);
		col = t ? model_time_column(t) : -1;
		for (r = 0; col >= 0 && r < table_rows(t); r++) {
			int y = model_row_year(t, r, col);

			if (y >= YEAR_FIRST && y <= YEAR_LAST)
				run->dated[f * NYEARS + y - YEAR_FIRST]++;
		}
	}
}

/* The number of rows of each data file dated year (exactly, or up to). */
static void
rows_dated(const struct run *run, int year, int upto, struct buf *out)
{
	size_t f;
	int any = 0, y;

	for (f = 0; run->files[f]; f++) {
		size_t n = 0;

		for (y = upto ? YEAR_FIRST : year; y <= year; y++)
			n += run->dated[f * NYEARS + y - YEAR_FIRST];
		if (!n)
			continue;
		buf_addf(out, "%s%zu in <a href=\"../data.html#", any ? ", " :
			 "", n);
		html_attr(out, run->files[f]);
		BUF_ADDLIT(out, "\"><code>");
		html_text(out, run->files[f]);
		BUF_ADDLIT(out, "</code></a>");
		any = 1;
	}
	if (!any)
		BUF_ADDLIT(out, "none");
}

/*
 * Whether q, a PREFIX.ID.id, is a row of the file its origin names
 * (not a pick's copy of it, then.laptop.id): PREFIX is that file's.
 */
static int
own_row(const struct run *run, const struct quantity *q)
{
	const struct schema_file *f;
	const char *dir = run->opt->datadir, *colon;
	struct buf file = BUF_INIT;
	size_t dl = strlen(dir), pl;
	int ret = 0;

	if (!q->origin || strncmp(q->origin, dir, dl) || q->origin[dl] != '/' ||
	    !(colon = strrchr(q->origin, ':')))
		return 0;
	buf_add(&file, q->origin + dl + 1, (size_t)(colon - q->origin) - dl - 1);
	f = schema_find(run->ts, dir, file.data);
	pl = f && f->prefix ? strlen(f->prefix) : 0;
	ret = pl && !strncmp(q->name, f->prefix, pl) && q->name[pl] == '.';
	buf_release(&file);
	return ret;
}

/*
 * The rows of files with ids that reg has and prev does not: each
 * PREFIX.ID.id new, named by its PREFIX.ID.name when it has one.
 */
static void
new_rows(const struct run *run, const struct registry *reg,
	 const struct registry *prev, struct buf *out)
{
	struct buf name = BUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < registry_nids(reg); i++) {
		const struct quantity *q = registry_id_at(reg, i), *nm;

		if (!own_row(run, q) || (prev && registry_get(prev, q->name)))
			continue;
		buf_reset(&name);
		buf_add(&name, q->name, strlen(q->name) - 2);
		BUF_ADDLIT(&name, "name");
		nm = registry_get(reg, name.data);
		buf_addstr(out, n++ ? ", " : "");
		html_text(out, nm && nm->type == Q_TEXT ? nm->text : q->text);
	}
	if (!n)
		BUF_ADDLIT(out, "none");
	buf_release(&name);
}

/* The document's columns of the index: edition.index.* (their notes). */
#define INDEX_PREFIX "edition.index."

/* A quantity's value as a cell: a text as it is, a number in brief. */
static void
cell_value(struct buf *out, const struct quantity *q)
{
	struct buf v = BUF_INIT;

	if (q->type == Q_TEXT) {
		html_text(out, q->text);
		return;
	}
	format_brief(&v, q->value, q->unit);
	if (*q->unit && strcmp(q->unit, "year")) {
		buf_addstr(&v, "\xc2\xa0");
		format_unit(&v, q->unit);
	}
	html_text(out, v.data);
	buf_release(&v);
}

/* Whether q has another value in prev (a text or a number). */
static int
changed(const struct quantity *q, const struct registry *prev)
{
	const struct quantity *p = prev ? registry_get(prev, q->name) : NULL;

	if (!p)
		return 0;
	return q->type == Q_TEXT ? p->type != Q_TEXT || strcmp(q->text,
							       p->text) :
	       p->type != Q_NUMBER || p->value != q->value;
}

/* editions/index.html: every edition, with what was new in it. */
static int
write_editions_index(struct run *run)
{
	const struct registry *newest = run->ed[run->n - 1].reg;
	struct buf b = BUF_INIT;
	size_t i, k, pl = strlen(INDEX_PREFIX);
	int ret;

	count_dated(run);
	buf_addf(&b, "<h1 id=\"editions\">Editions</h1>\n<p>The report as it "
		 "would have been written in each year from the first "
		 "edition's, %d, to %d: each edition is computed from the "
		 "data rows dated up to its year only, so its rows and the "
		 "trends fitted to them are those known then; the data without "
		 "a date are the same in every edition. <a href=\"../"
		 "changes.html\">The changes page</a> lists every number that "
		 "moved in the newest edition.</p>\n<div class=\"wide\">"
		 "<table aria-labelledby=\"editions\" class=\"editions\">\n"
		 "<thead><tr><th>Edition</th>", run->ed[0].year,
		 run->ed[run->n - 1].year);
	/* The document's columns, in its order, headed by their notes. */
	for (k = 0; k < registry_count(newest); k++) {
		const struct quantity *q = registry_at(newest, k);

		if (strncmp(q->name, INDEX_PREFIX, pl))
			continue;
		BUF_ADDLIT(&b, "<th>");
		html_text(&b, q->note && *q->note ? q->note : q->name + pl);
		BUF_ADDLIT(&b, "</th>");
	}
	BUF_ADDLIT(&b, "<th>New rows</th><th>Data rows dated that year</th>"
		   "</tr></thead>\n<tbody>\n");
	for (i = run->n; i-- > 0;) {
		const struct edition *e = &run->ed[i];
		const struct registry *prev = i ? run->ed[i - 1].reg : NULL;

		buf_addf(&b, "<tr id=\"e%d\"><td><a href=\"%d/index.html\">%d"
			 "</a>%s</td>", e->year, e->year, e->year,
			 e->year == run->article_year ? " (the first)" :
			 i + 1 == run->n ? " (newest)" : "");
		for (k = 0; k < registry_count(newest); k++) {
			const struct quantity *h = registry_at(newest, k), *q;

			if (strncmp(h->name, INDEX_PREFIX, pl))
				continue;
			BUF_ADDLIT(&b, "<td data-label=\"");
			html_attr(&b, h->note && *h->note ? h->note :
				  h->name + pl);
			BUF_ADDLIT(&b, "\">");
			if ((q = registry_get(e->reg, h->name))) {
				cell_value(&b, q);
				if (changed(q, prev))
					BUF_ADDLIT(&b, " (new)");
			} else {
				BUF_ADDLIT(&b, "\xe2\x80\x94");
			}
			BUF_ADDLIT(&b, "</td>");
		}
		BUF_ADDLIT(&b, "<td data-label=\"New rows\">");
		new_rows(run, e->reg, prev, &b);
		BUF_ADDLIT(&b, "</td><td data-label=\"Data rows\">");
		if (i == 0)
			BUF_ADDLIT(&b, "up to that year: ");
		rows_dated(run, e->year, i == 0, &b);
		BUF_ADDLIT(&b, "</td></tr>\n");
	}
	BUF_ADDLIT(&b, "</tbody>\n</table>\n</div>\n");
	ret = write_page(run, "editions/index.html", "../", "Editions", "",
			 b.data);
	buf_release(&b);
	return ret;
}

/* changes.html: the newest edition against the previous and the first. */
static int
write_changes(struct run *run)
{
	const struct edition *last = &run->ed[run->n - 1];
	struct mathml_links parts = { top_qhref, &run->parts };
	struct changes cs;
	struct buf b = BUF_INIT, title = BUF_INIT;
	int ret;

	BUF_ADDLIT(&b, "<h1 id=\"changes\">What changed</h1>\n<p>Every "
		   "quantity whose value differs between the newest edition "
		   "and an earlier one, largest relative change first, with "
		   "the data rows added since that edition that it depends "
		   "on (through its inputs, or through a trend fitted to a "
		   "whole file). Quantities that are new or gone are listed "
		   "after the changes. <code>ultimate diff YEAR1 YEAR2</code> "
		   "prints the same for any two editions.</p>\n");
	if (run->n == 1) {
		buf_addf(&b, "<p>The %d edition is the only one: nothing to "
			 "compare it with.</p>\n", last->year);
	} else {
		changes_compare(&cs, run->ed[run->n - 2].reg,
				run->ed[run->n - 2].year, last->reg,
				last->year, run->ts, run->opt->datadir,
				run->files);
		buf_addf(&title, "Since the %d edition",
			 run->ed[run->n - 2].year);
		changes_html(&cs, "since-previous", title.data, &parts, &b);
		changes_release(&cs);
	}
	if (run->n > 2) {
		changes_compare(&cs, run->ed[0].reg, run->ed[0].year,
				last->reg, last->year, run->ts,
				run->opt->datadir, run->files);
		buf_reset(&title);
		buf_addf(&title, "Since the article's edition (%d)",
			 run->ed[0].year);
		changes_html(&cs, "since-article", title.data, &parts, &b);
		changes_release(&cs);
	}
	ret = write_page(run, "changes.html", "", "What changed", "", b.data);
	buf_release(&b);
	buf_release(&title);
	return ret;
}

static void
release_editions(struct run *run)
{
	size_t i, k;

	for (i = 0; i < run->n; i++) {
		struct edition *e = &run->ed[i];

		registry_free(e->own);
		datasets_release(&e->ds);
		for (k = 0; e->x && k < run->ps.n; k++)
			expansion_release(&e->x[k]);
		for (k = 0; e->body && k < run->ps.n; k++) {
			buf_release(&e->body[k]);
			buf_release(&e->toc[k]);
			free(e->title[k]);
		}
		free(e->x);
		free(e->body);
		free(e->toc);
		free(e->title);
		free(e->figs);
	}
	free(run->ed);
	for (k = 0; run->titles && k < run->ps.n; k++)
		free(run->titles[k]);
	free(run->titles);
	free(run->nav);
	free(run->own);
}

/*
 * The reports to print: the newest at the top (report.pdf), and each
 * edition's (editions/YEAR/report.pdf) when there are editions.
 */
static void
list_pdfs(struct run *run)
{
	size_t i, k = 0, *at;

	run->npdfs = 1 + (run->editions ? run->n : 0);
	run->pdfs = xcalloc(run->npdfs, sizeof(*run->pdfs));
	at = xcalloc(run->npdfs * 2, sizeof(*at));
	buf_init(&run->pdfnames);
	/* Paths first: the buffer moves while it grows. */
	at[0] = run->pdfnames.len;
	BUF_ADDLIT(&run->pdfnames, "index.html");
	buf_addch(&run->pdfnames, '\0');
	at[1] = run->pdfnames.len;
	BUF_ADDLIT(&run->pdfnames, "report.pdf");
	buf_addch(&run->pdfnames, '\0');
	run->pdfs[0].year = run->ed[run->n - 1].year;
	for (i = 0; i + 1 < run->npdfs; i++) {
		k = i + 1;
		at[2 * k] = run->pdfnames.len;
		buf_addf(&run->pdfnames, "%s/index.html", run->ed[i].dir);
		buf_addch(&run->pdfnames, '\0');
		at[2 * k + 1] = run->pdfnames.len;
		buf_addf(&run->pdfnames, "%s/report.pdf", run->ed[i].dir);
		buf_addch(&run->pdfnames, '\0');
		run->pdfs[k].year = run->ed[i].year;
	}
	for (i = 0; i < run->npdfs; i++) {
		run->pdfs[i].html = run->pdfnames.data + at[2 * i];
		run->pdfs[i].pdf = run->pdfnames.data + at[2 * i + 1];
	}
	free(at);
}

/*
 * Prints where the site published in (or found up to date in) site is,
 * one line on stdout: "report: out/index.html (179 pages)", and
 * ", out/report.pdf (20 PDFs)" when it holds PDFs. Returns 0.
 */
static int
report_say(const struct site *site)
{
	const char *out = site_outdir(site);
	size_t len = strlen(out), pdfs = site_count(site, ".pdf");
	const char *slash = len && out[len - 1] == '/' ? "" : "/";
	struct buf line = BUF_INIT;

	buf_addf(&line, "report: %s%sindex.html (%zu pages)", out, slash,
		 site_count(site, ".html"));
	if (pdfs)
		buf_addf(&line, ", %s%sreport.pdf (%zu PDF%s)", out, slash,
			 pdfs, pdfs == 1 ? "" : "s");
	/* The folder's name is shown, not obeyed by the terminal. */
	diag_fputs(line.data, stdout);
	putchar('\n');
	buf_release(&line);
	return 0;
}

/*
 * The editions of the run from the first (edition.first, when the model
 * document defines it) to reg's (edition.year; a project without dated
 * rows has none, and one edition), or reg's alone without
 * opt->editions: their years and folders; the newest is reg with ds.
 * The data files, the formulas' memo and the PDFs to print, too.
 * Returns 0, or -1 after an error: a first edition before YEAR_FIRST.
 */
static int
init_editions(struct run *run, const struct registry *reg,
	      const struct datasets *ds)
{
	const struct report_options *opt = run->opt;
	const struct quantity *y = registry_get(reg, "edition.year");
	const struct quantity *f = registry_get(reg, "edition.first");
	int newest = y && y->type == Q_NUMBER ? (int)y->value : 0;
	size_t i;

	run->files = schema_files(run->ts, opt->datadir);
	run->article_year = f && f->type == Q_NUMBER ? (int)f->value : newest;
	if (run->article_year < YEAR_FIRST && run->article_year < newest)
		return error("'edition.first' is %d: the editions are years "
			     "from %d to %d", run->article_year, YEAR_FIRST,
			     YEAR_LAST);
	run->editions = opt->editions && newest > 0;
	run->n = run->editions && run->article_year < newest ?
		 (size_t)(newest - run->article_year) + 1 : 1;
	run->ed = xcalloc(run->n, sizeof(*run->ed));
	/* Each edition typesets mostly the same formulas (mathml.h). */
	if (run->n > 1)
		run->memo = mathml_memo_new();
	for (i = 0; i < run->n; i++) {
		struct edition *e = &run->ed[i];

		e->year = newest - (int)(run->n - 1 - i);
		snprintf(e->dir, sizeof(e->dir), "editions/%d", e->year);
		snprintf(e->what, sizeof(e->what), "the %d edition", e->year);
	}
	run->ed[run->n - 1].reg = reg;
	run->ed[run->n - 1].dsp = ds;
	if (opt->pdf)
		list_pdfs(run);
	return 0;
}

/*
 * Builds every edition (with opt->newest, the newest alone), the newest
 * first: its figures go to gnuplot first (and the top's copy of them,
 * drawn once), and its errors, about the data as they stand, are the
 * ones to see first. Returns 0, -1 after errors or a signal, -2 when
 * gnuplot cannot be started.
 */
static int
build_editions(struct run *run)
{
	const struct report_options *opt = run->opt;
	/* The newest alone: the pages of the others are kept. */
	size_t i, lo = opt->newest ? run->n - 1 : 0;
	int r = 0;

	for (i = run->n; i-- > lo && !r;) {
		struct edition *e = &run->ed[i];

		if (i + 1 < run->n)
			diag_set_context(e->what);
		r = build_edition(run, e);
		if (!r && diag_interrupted())
			r = -1;
	}
	diag_set_context(NULL);
	return r;
}

/*
 * Every page of the site (with opt->newest, the newest edition's only),
 * style.css and the math font, into the staging area. Returns 0, or -1
 * after an error.
 */
static int
write_pages(struct run *run, const struct srcfile *css)
{
	const struct report_options *opt = run->opt;
	size_t i;
	int r;

	qpages_init(&run->parts, run->ed[run->n - 1].reg);
	r = write_top_report(run);
	if (!r)
		r = write_methods(run);
	for (i = opt->newest ? run->n - 1 : 0; run->editions && i < run->n &&
	     !r; i++)
		r = write_edition(run, i);
	if (!r && !opt->newest)
		r = write_reference(run);
	if (!r && run->editions && !opt->newest)
		r = write_editions_index(run);
	if (!r && run->editions && !opt->newest)
		r = write_changes(run);
	if (!r)
		r = site_write(run->site, "style.css", css->data, css->len);
	if (!r)
		r = write_math_font(run->site);
	return r;
}

/*
 * Writes the site into site's staging area and publishes it when every
 * part succeeded. reg, ds (the newest edition, with its figure data)
 * and ts (the tables read) come from report_registry(); key is the
 * inputs key for the manifest. Returns an exit status: 0, 1 (input
 * errors, printed), 3 (gnuplot or, with pdf, the browser failed).
 */
static int
report_write(struct site *site, const struct registry *reg,
	     const struct datasets *ds, struct tableset *ts,
	     const struct report_options *opt, uint64_t key)
{
	struct run run = { .site = site, .opt = opt, .ts = ts };
	struct srcfile *shell = NULL, *css = NULL;
	struct buf path = BUF_INIT;
	int ret = 1, r = -1;

	if (init_editions(&run, reg, ds))
		goto out;
	buf_addf(&path, "%s/page.html", opt->templatedir);
	shell = srcfile_read(path.data);
	buf_reset(&path);
	buf_addf(&path, "%s/style.css", opt->templatedir);
	css = srcfile_read(path.data);
	if (shell)
		shell->show_source = 1;
	/* The newest edition alone is watch's, for the preview. */
	if (!shell || !css || shell_check(shell) ||
	    site_begin(site, opt->newest ? SITE_QUICK : SITE_WHOLE))
		goto out;
	run.shell = shell->data;
	site_set_inputs(site, key);
	timing_begin("templates");
	r = pageset_load(&run.ps, opt->templatedir);
	if (!r)
		run.doc = model_document(opt->datadir, run.ts);
	timing_end();
	if (!r)
		own_files(&run);
	r = -1;
	if (!run.doc || bib_load(&run.bib, opt->datadir, run.ts) ||
	    modeldoc_check_sources(run.doc, &run.bib))
		goto out;
	/* gnuplot is started with the first figure to draw. */
	run.po = (struct plot_options){ NULL, "gnuplot", DATASET_PLOT_ROWS,
					opt->figure_timeout };
	buf_reset(&path);
	buf_addf(&path, "%s/figures", opt->templatedir);
	run.po.figdir = path.data;
	run.pl = plot_begin(site, &run.po);

	timing_begin("editions");
	r = build_editions(&run);
	timing_end();
	timing_begin("pages");
	if (!r)
		r = write_pages(&run, css);
	timing_end();
	if (!r && diag_interrupted())
		r = -1;
	if (r) {
		plot_cancel(run.pl);
	} else {
		timing_begin("figures");
		r = plot_finish(run.pl);
		timing_end();
	}
	run.pl = NULL;
	if (!r && opt->pdf) {
		struct pdf_options po = { getenv("ULTIMATE_CHROMIUM"),
					  opt->pdf_timeout, 2 };

		if (!po.browser || !*po.browser)
			po.browser = "chromium";
		timing_begin("pdf");
		if (pdf_write(site, run.pdfs, run.npdfs, &po))
			r = diag_interrupted() ? -1 : -2;
		timing_end();
	}
	if (r == -2)
		ret = 3;
	timing_begin("write");
	if (!r && opt->newest)
		site_keep_rest(site);
	if (!r && !site_publish(site))
		ret = report_say(site);
	timing_end();
out:
	if (run.pl)
		plot_cancel(run.pl);
	release_editions(&run);
	pageset_release(&run.ps);
	bib_release(&run.bib);
	qpages_release(&run.parts);
	mathml_memo_free(run.memo);
	free(run.pdfs);
	free(run.files);
	free(run.dated);
	buf_release(&run.pdfnames);
	srcfile_free(shell);
	srcfile_free(css);
	buf_release(&path);
	return ret;
}

/* A file by identity: where it is, its size and its time. */
static uint64_t
hash_identity(uint64_t h, const struct stat *st)
{
	uint64_t id[5] = { (uint64_t)st->st_dev, (uint64_t)st->st_ino,
			   (uint64_t)st->st_size,
			   (uint64_t)st->st_mtim.tv_sec,
			   (uint64_t)st->st_mtim.tv_nsec };

	return hash_bytes(h, id, sizeof(id));
}

/*
 * scandir() filter: a .csv file of the data folder (the catalogue and
 * every file it may name).
 */
static int
declared_csv(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n >= 5 && !strcmp(e->d_name + n - 4, ".csv") &&
	       *e->d_name != '.';
}

/*
 * Adds to *h the name and bytes of each declared_csv() file of dir, in
 * name order (none: *h as it was). Returns -1 when one cannot be read.
 */
static int
hash_declared(uint64_t *h, const char *dir)
{
	struct dirent **names;
	struct buf path = BUF_INIT;
	int n, i, ret = 0;

	n = scandir(dir, &names, declared_csv, alphasort);
	for (i = 0; i < n; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, names[i]->d_name);
		*h = hash_str(*h, names[i]->d_name);
		ret |= hash_file(h, path.data, 0);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	buf_release(&path);
	return ret;
}

/*
 * The key of everything a report is made from: the data files (the
 * catalogue and every file it may name), the model document, every
 * file under the templates folder, the edition, this program itself and
 * the math font it copies.
 * Returns 0, -1 when something cannot be read (then no run is
 * skipped), or -2 after printing an error about the templates folder
 * (a symbolic link that leads nowhere, to a folder, or outside it).
 */
static int
inputs_key(const struct report_options *opt, uint64_t *key)
{
	struct buf path = BUF_INIT;
	uint64_t h = HASH_INIT;
	struct stat st;
	int ret = 0, tree;

	/* The model document: every formula. */
	buf_reset(&path);
	buf_addf(&path, "%s/%s", opt->datadir, MODEL_DOCUMENT);
	h = hash_str(h, MODEL_DOCUMENT);
	ret |= hash_file(&h, path.data, 0);
	/* Every data file, the catalogue too: a file gone is a state. */
	ret |= hash_declared(&h, opt->datadir);
	tree = hash_tree(&h, opt->templatedir);
	if (tree == -2) {
		buf_release(&path);
		return -2;
	}
	ret |= tree;
	h = hash_bytes(h, &opt->as_of, sizeof(opt->as_of));
	h = hash_bytes(h, &opt->editions, sizeof(opt->editions));
	/* A site of the newest edition alone is not the whole site. */
	if (opt->newest)
		h = hash_str(h, "newest edition alone");
	/* Only with --pdf: a site without PDFs keeps its key. */
	if (opt->pdf)
		h = hash_str(h, "--pdf");
	h = hash_str(h, VERSION);
	/*
	 * This program by identity, not content: hashing half a megabyte
	 * of code took a quarter of a millisecond, and a rebuilt program
	 * is a new file with a new time.
	 */
	if (stat("/proc/self/exe", &st))
		ret = -1;
	else
		h = hash_identity(h, &st);
	/* The math font the site ships, the same way: a new copy is new. */
	if (stat(MATH_FONT, &st))
		h = hash_str(h, "no math font");
	else
		h = hash_identity(h, &st);
	buf_release(&path);
	*key = h;
	return ret;
}

int
report_run(const struct report_options *opt, struct tableset *ts)
{
	struct site *site;
	struct registry *reg = NULL;
	struct datasets ds = { 0 };
	uint64_t key = 0;
	int ret = 1, k, stop, fresh;

	/*
	 * From here on a signal stops the run cleanly: the output folder
	 * is left as it was and nothing is left behind.
	 */
	diag_catch_signals();
	timing_begin("noop");
	site = site_open(opt->outdir);
	k = site ? inputs_key(opt, &key) : -2;
	stop = k == -2 || diag_interrupted();
	/* Nothing changed since the last report: nothing to do. */
	fresh = !stop && !k && site_uptodate(site, key);
	timing_end();
	if (stop)
		goto out;
	if (fresh) {
		ret = report_say(site);
		goto out;
	}
	timing_begin("model");
	reg = report_registry(opt->datadir, opt->as_of, &ds, ts);
	timing_end();
	if (reg && !diag_interrupted()) {
		ret = report_write(site, reg, &ds, ts, opt, key);
	}
out:
	site_close(site);
	registry_free(reg);
	datasets_release(&ds);
	return ret;
}
