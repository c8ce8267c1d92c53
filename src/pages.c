/*
 * The reference pages: registry -> quantities.html body, data/NAME.csv ->
 * data.html body. Everything from data or the registry is escaped here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bib.h"
#include "buf.h"
#include "escape.h"
#include "format.h"
#include "mathml.h"
#include "pages.h"
#include "registry.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/* data.html shows at most this many rows of a file, half at each end. */
#define PAGES_MAX_ROWS 1000

/*
 * quantities.html folds a group of more quantities than this (it is
 * long on a phone); a link to a row opens its group.
 */
#define PAGES_OPEN_ROWS 50
#define PAGES_OPEN_ROWS_S "50"

/* "data/devices.csv:4" -> link "data.html#devices.csv-4". */
static void
origin_link(struct buf *out, const char *origin, const char *root,
	    struct buf *id)
{
	const char *colon = strrchr(origin, ':');
	const char *base = strrchr(origin, '/');

	base = base ? base + 1 : origin;
	if (!colon || colon < base) {
		html_text(out, origin);
		return;
	}
	buf_reset(id);
	buf_add(id, base, (size_t)(colon - base));
	buf_addch(id, '-');
	buf_addstr(id, colon + 1);
	buf_addf(out, "<a href=\"%sdata.html#", root);
	html_attr(out, id->data);
	BUF_ADDLIT(out, "\">");
	html_text(out, origin);
	BUF_ADDLIT(out, "</a>");
}

/* The value and unit; v is scratch space. */
static void
value_cell(struct buf *out, const struct quantity *q, struct buf *v)
{
	if (q->type == Q_TEXT) {
		html_text(out, q->text);
		return;
	}
	buf_reset(v);
	if (format_sci(v, q->value, 6))
		format_exact(v, q->value);
	if (*q->unit) {
		buf_addch(v, ' ');
		format_unit(v, q->unit);
	}
	html_text(out, v->data);
}

/*
 * Appends one quantity as a table row; scratch is scratch space. Names
 * need no escaping: the registry holds only [A-Za-z0-9._-] names.
 */
/* A value in a few characters, for the history of a quantity. */
static void
short_value(struct buf *out, const struct quantity *q)
{
	if (q->type == Q_TEXT)
		buf_addstr(out, q->text);
	else
		format_brief(out, q->value, q->unit);
}

/* Whether two editions' quantities hold the same value (NULL: none). */
static int
same_value(const struct quantity *a, const struct quantity *b)
{
	return a && b && a->type == b->type && (a->type == Q_TEXT ?
		!strcmp(a->text, b->text) : a->value == b->value);
}

/*
 * How the quantity called name moved over the editions: "the same in
 * every edition", or a small line chart (numbers) and the value of
 * each run of editions.
 */
static void
history_cell(struct buf *out, const char *name,
	     const struct quantities_page *qp, struct buf *v)
{
	const struct quantity *qs[256];
	size_t n = qp->neditions < 256 ? qp->neditions : 256, i, first = n;
	size_t have = 0, runs = 0;
	int same = 1, numeric = 1, logy = 1;
	double lo = INFINITY, hi = -INFINITY;

	for (i = 0; i < n; i++) {
		qs[i] = registry_get(qp->editions[i], name);
		if (!qs[i])
			continue;
		if (first == n)
			first = i;
		have++;
		if (qs[i]->type != Q_NUMBER) {
			numeric = 0;
		} else {
			lo = fmin(lo, qs[i]->value);
			hi = fmax(hi, qs[i]->value);
			logy &= qs[i]->value > 0;
		}
		if (i > first && !same_value(qs[i - 1], qs[i]))
			same = 0;
	}
	if (!have)
		return;
	if (same) {
		if (first == 0 && have == n)
			BUF_ADDLIT(out, "unchanged");
		else
			buf_addf(out, "unchanged since %d", qp->years[first]);
		return;
	}
	BUF_ADDLIT(out, "<details><summary>");
	if (numeric && have > 1) {
		/* A line over the editions, log scale when it spans 10x. */
		double w = 80, h = 16;

		logy &= hi / lo > 10;
		if (logy) {
			lo = log10(lo);
			hi = log10(hi);
		}
		BUF_ADDLIT(out, "<svg class=\"spark\" width=\"80\" "
			   "height=\"18\" viewBox=\"0 -1 80 18\" "
			   "aria-hidden=\"true\"><polyline fill=\"none\" "
			   "stroke=\"currentColor\" stroke-width=\"1.5\" "
			   "points=\"");
		for (i = first; i < n; i++) {
			double y;

			if (!qs[i])
				continue;
			y = logy ? log10(qs[i]->value) : qs[i]->value;
			y = hi > lo ? (y - lo) / (hi - lo) : 0.5;
			buf_addf(out, "%s%.1f,%.1f", i > first ? " " : "",
				 n > 1 ? w * (double)i / (double)(n - 1) : 0.0,
				 h - h * y);
		}
		BUF_ADDLIT(out, "\"/></svg> ");
	}
	buf_reset(v);
	short_value(v, qs[first]);
	html_text(out, v->data);
	BUF_ADDLIT(out, " (");
	buf_addf(out, "%d) → ", qp->years[first]);
	buf_reset(v);
	for (i = n; i-- > 0;)
		if (qs[i])
			break;
	short_value(v, qs[i]);
	html_text(out, v->data);
	buf_addf(out, " (%d)</summary><p class=\"runs\">", qp->years[i]);
	/* Each run of editions with one value. */
	for (i = first; i < n;) {
		size_t j = i + 1;

		if (!qs[i]) {
			i++;
			continue;
		}
		while (j < n && same_value(qs[i], qs[j]))
			j++;
		if (runs++)
			BUF_ADDLIT(out, " · ");
		if (j - i > 1)
			buf_addf(out, "%d–%d: ", qp->years[i], qp->years[j - 1]);
		else
			buf_addf(out, "%d: ", qp->years[i]);
		buf_reset(v);
		short_value(v, qs[i]);
		html_text(out, v->data);
		i = j;
	}
	BUF_ADDLIT(out, "</p></details>");
}

static void
quantity_row(struct buf *out, const struct registry *reg,
	     const struct quantity *q, const struct quantities_page *qp,
	     struct buf *scratch)
{
	size_t j;

	/* The row is the target of links; its name links nowhere. */
	BUF_ADDLIT(out, "<tr id=\"");
	buf_addstr(out, q->name);
	BUF_ADDLIT(out, "\"><td><code>");
	buf_addstr(out, q->name);
	BUF_ADDLIT(out, "</code></td><td class=\"num\">");
	value_cell(out, q, scratch);
	if (qp->neditions) {
		BUF_ADDLIT(out, "</td><td class=\"history\">");
		history_cell(out, q->name, qp, scratch);
	}
	BUF_ADDLIT(out, "</td><td>");
	/* The formula typeset, its words after it; else the description. */
	if (!mathml_formula(out, reg, q, "", 0)) {
		if (*q->note) {
			BUF_ADDLIT(out, " <span class=\"note\">(");
			html_text(out, q->note);
			BUF_ADDLIT(out, ")</span>");
		}
	} else {
		html_text(out, q->formula);
	}
	BUF_ADDLIT(out, "</td><td>");
	for (j = 0; j < q->ninputs; j++) {
		BUF_ADDLIT(out, "<a href=\"#");
		buf_addstr(out, q->inputs[j]);
		BUF_ADDLIT(out, "\"><code>");
		buf_addstr(out, q->inputs[j]);
		BUF_ADDLIT(out, "</code></a>");
		if (j + 1 < q->ninputs)
			BUF_ADDLIT(out, ", ");
	}
	BUF_ADDLIT(out, "</td><td>");
	bib_text_html(out, qp->bib, q->source, qp->root);
	if (q->origin) {
		BUF_ADDLIT(out, " (");
		origin_link(out, q->origin, qp->root, scratch);
		BUF_ADDLIT(out, ")");
	}
	BUF_ADDLIT(out, "</td></tr>\n");
}

/* Whether group k (of n) is the len bytes of name and then a dot. */
static int
same_group(const struct registry *reg, const size_t *first, size_t n,
	   size_t k, const char *name, size_t len)
{
	const char *g;

	if (k >= n)
		return 0;
	g = registry_at(reg, first[k])->name;
	return !strncmp(g, name, len) && (g[len] == '.' || !g[len]);
}

void
pages_quantities(const struct registry *reg,
		 const struct quantities_page *qp, struct buf *out)
{
	size_t i, k, n = registry_count(reg), ngroups = 0;
	size_t *group = xcalloc(n ? n : 1, sizeof(*group));
	size_t *first = xcalloc(n ? n : 1, sizeof(*first));
	size_t *count = xcalloc(n ? n : 1, sizeof(*count));
	struct buf scratch = BUF_INIT;

	/*
	 * Groups (the part before the first dot), in order of first use.
	 * Names mostly come in runs of one group: the previous name's
	 * group is tried first.
	 */
	for (i = 0, k = 0; i < n; i++) {
		const char *name = registry_at(reg, i)->name;
		size_t len = strcspn(name, ".");

		if (qp->keep && !qp->keep[i])
			continue;
		if (!same_group(reg, first, ngroups, k, name, len))
			for (k = 0; k < ngroups; k++)
				if (same_group(reg, first, ngroups, k, name,
					       len))
					break;
		if (k == ngroups)
			first[ngroups++] = i;
		group[i] = k;
	}
	if (qp->edition) {
		BUF_ADDLIT(out, "<h1 id=\"quantities\">Quantities of the ");
		html_text(out, qp->edition);
		BUF_ADDLIT(out, "</h1>\n<p>The numbers this edition's report "
			   "shows, and every quantity they are computed from, "
			   "with formula, inputs (each a link), value and unit "
			   "(six significant digits), and source. <a href=\"");
		buf_addstr(out, qp->root);
		BUF_ADDLIT(out, "quantities.html\">All quantities</a>, with "
			   "their values in every edition, are on the newest "
			   "edition's page.</p>\n");
	} else {
		BUF_ADDLIT(out, "<h1 id=\"quantities\">Quantities</h1>\n"
			   "<p>Every number of the report, with the formula "
			   "that computes it, its inputs (each a link), its "
			   "value and unit (six significant digits; <a href=\""
			   "quantities.csv\">quantities.csv</a> and <a href="
			   "\"quantities.json\">quantities.json</a> hold full "
			   "precision), and its source.");
		if (qp->neditions > 1)
			buf_addf(out, " The column “Editions” shows how each "
				 "value moved from the %d edition to the %d "
				 "edition: a small chart (logarithmic when it "
				 "spans more than a factor of ten) and, opened, "
				 "the value of each run of editions.",
				 qp->years[0], qp->years[qp->neditions - 1]);
		BUF_ADDLIT(out, "</p>\n");
	}
	for (i = 0; i < n; i++)
		if (!qp->keep || qp->keep[i])
			count[group[i]]++;
	/* The groups' contents, each with its number of quantities. */
	if (ngroups > 1) {
		BUF_ADDLIT(out, "<p class=\"groups\">The quantities by the first part "
			   "of their names; a group of more "
			   "than " PAGES_OPEN_ROWS_S " quantities is folded "
			   "(a link to one of them opens it): ");
		for (k = 0; k < ngroups; k++) {
			const char *g = registry_at(reg, first[k])->name;
			size_t len = strcspn(g, ".");

			if (k)
				BUF_ADDLIT(out, " · ");
			BUF_ADDLIT(out, "<a href=\"#group-");
			buf_add(out, g, len);
			BUF_ADDLIT(out, "\"><code>");
			buf_add(out, g, len);
			buf_addf(out, "</code></a>&nbsp;(%zu)", count[k]);
		}
		BUF_ADDLIT(out, ".</p>\n");
	}
	for (k = 0; k < ngroups; k++) {
		const char *g = registry_at(reg, first[k])->name;
		size_t len = strcspn(g, ".");
		int fold = count[k] > PAGES_OPEN_ROWS;

		BUF_ADDLIT(out, "<h2 id=\"group-");
		buf_add(out, g, len);
		BUF_ADDLIT(out, "\"><code>");
		buf_add(out, g, len);
		BUF_ADDLIT(out, "</code></h2>\n");
		if (fold)
			buf_addf(out, "<details class=\"group\"><summary>The "
				 "%zu quantities</summary>\n", count[k]);
		BUF_ADDLIT(out, "<div class=\"wide\"><table class=\""
			   "quantities\">\n<caption>");
		if (count[k] == 1 && !g[len])
			BUF_ADDLIT(out, "The quantity <code>");
		else if (count[k] == 1)
			BUF_ADDLIT(out, "The quantity named <code>");
		else
			buf_addf(out, "The %zu quantities named <code>",
				 count[k]);
		buf_add(out, g, len);
		buf_addstr(out, g[len] ? ".</code>&hellip;" : "</code>");
		BUF_ADDLIT(out, ", with value, formula, inputs and source"
			   "</caption>\n<thead><tr><th>Name</th><th>Value</th>");
		if (qp->neditions)
			BUF_ADDLIT(out, "<th>Editions</th>");
		BUF_ADDLIT(out, "<th>Formula</th><th>Inputs</th>"
			   "<th>Source</th></tr></thead>\n<tbody>\n");
		for (i = first[k]; i < n; i++)
			if (group[i] == k && (!qp->keep || qp->keep[i]))
				quantity_row(out, reg, registry_at(reg, i), qp,
					     &scratch);
		BUF_ADDLIT(out, "</tbody>\n</table>\n</div>\n");
		if (fold)
			BUF_ADDLIT(out, "</details>\n");
	}
	buf_release(&scratch);
	free(count);
	free(group);
	free(first);
}

/* Whether column c of t holds a row's sources. */
static int
source_column(const struct table *t, size_t c)
{
	return !strcmp(table_header(t, c), "source") ||
	       !strcmp(table_header(t, c), "printed_in");
}

void
pages_references(const struct bib *bib,
		 const struct bib_entry *const *cited, size_t ncited,
		 struct buf *out)
{
	size_t i, k;

	BUF_ADDLIT(out, "<h1 id=\"references\">References</h1>\n<p>Every "
		   "work the data rows and the report cite (the data folder's "
		   "references.csv), each with its DOI or address. A source "
		   "in the <a href=\"data.html\">data</a> that names one "
		   "links here.</p>\n<ol class=\"references\">\n");
	for (i = 0; bib && i < bib->n; i++) {
		bib_item_html(out, &bib->v[i]);
		for (k = 0; k < ncited && cited[k] != &bib->v[i]; k++)
			;
		if (k < ncited) {
			BUF_ADDLIT(out, " (<a href=\"index.html#ref-");
			html_attr(out, bib->v[i].key);
			BUF_ADDLIT(out, "\">cited in the report</a>)");
		}
		BUF_ADDLIT(out, "</li>\n");
	}
	BUF_ADDLIT(out, "</ol>\n");
}

int
pages_data(const char *datadir, const char *const *files,
	   struct tableset *ts, const struct bib *bib, struct buf *out)
{
	size_t f, r, c;
	int ret = 0;

	BUF_ADDLIT(out, "<h1 id=\"data\">Data</h1>\n<p>Every row the report "
		   "is computed from, with its source. Each file can be "
		   "downloaded as CSV; a note says where a value is an "
		   "estimate or could not be verified. A source that names a "
		   "published work links to it in the <a href=\"references."
		   "html\">references</a>, and an address in a source links "
		   "to that address.</p>\n");
	for (f = 0; files[f]; f++) {
		struct table *t;

		t = tableset_load(ts, datadir, files[f]);
		if (!t) {
			ret = -1;
			continue;
		}
		BUF_ADDLIT(out, "<h2 id=\"");
		html_attr(out, files[f]);
		BUF_ADDLIT(out, "\"><code>");
		html_text(out, files[f]);
		BUF_ADDLIT(out, "</code></h2>\n<p><a href=\"data/");
		html_attr(out, files[f]);
		buf_addf(out, "\">Download</a> (%zu rows)</p>\n<div class=\""
			 "wide\"><table class=\"data\">\n<caption>The rows of "
			 "<code>", table_rows(t));
		html_text(out, files[f]);
		BUF_ADDLIT(out, "</code>, each with its line in the file"
			   "</caption>\n<thead><tr><th>Line</th>");
		for (c = 0; c < table_cols(t); c++) {
			BUF_ADDLIT(out, "<th>");
			html_text(out, table_header(t, c));
			BUF_ADDLIT(out, "</th>");
		}
		BUF_ADDLIT(out, "</tr></thead>\n<tbody>\n");
		for (r = 0; r < table_rows(t); r++) {
			/* A long history: its ends here, all of it in the CSV. */
			if (table_rows(t) > PAGES_MAX_ROWS &&
			    r == PAGES_MAX_ROWS / 2) {
				buf_addf(out, "<tr><td colspan=\"%zu\">... %zu "
					 "more rows: see the CSV file ..."
					 "</td></tr>\n", table_cols(t) + 1,
					 table_rows(t) - PAGES_MAX_ROWS);
				r = table_rows(t) - PAGES_MAX_ROWS / 2 - 1;
				continue;
			}
			buf_addf(out, "<tr id=\"");
			html_attr(out, files[f]);
			buf_addf(out, "-%zu\"><td>%zu</td>", table_line(t, r),
				 table_line(t, r));
			for (c = 0; c < table_cols(t); c++) {
				const char *cell = table_cell(t, r, (int)c);

				BUF_ADDLIT(out, "<td>");
				if (!source_column(t, c)) {
					html_text(out, cell);
				} else {
					if (bib_check_cell(bib, t, r, (int)c))
						ret = -1;
					bib_text_html(out, bib, cell, "");
				}
				BUF_ADDLIT(out, "</td>");
			}
			BUF_ADDLIT(out, "</tr>\n");
		}
		BUF_ADDLIT(out, "</tbody>\n</table></div>\n");
	}
	return ret;
}
