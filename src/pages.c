/*
 * The reference pages: registry -> quantities.html body, data/NAME.csv ->
 * data.html body. Everything from data or the registry is escaped here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bib.h"
#include "buf.h"
#include "escape.h"
#include "format.h"
#include "mathml.h"
#include "pages.h"
#include "registry.h"
#include "schema.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A source longer than this is written in full once per table; a later
 * row with the same source says "as for" the row that holds it.
 */
#define SOURCE_SAID_ONCE 60

/* A data cell longer than this is prose: its column keeps some width. */
#define PROSE_CELL 60

/*
 * A data file of more columns than this does not fit across a printed
 * page: its rows print as blocks (style.css, table.columns-many).
 */
#define PRINT_COLUMNS 6

/*
 * quantities.html folds a group of more quantities than this (it is
 * long on a phone); a link to a row opens its group.
 */
#define PAGES_OPEN_ROWS 50
#define PAGES_OPEN_ROWS_S "50"

/*
 * "data/devices.csv:4" -> link "data.html#devices.csv-4", or to the
 * file's table there ("data.html#devices.csv") when the page does not
 * show that row (the middle of a long history).
 */
static void
origin_link(struct buf *out, const char *origin,
	    const struct quantities_page *qp, struct buf *id)
{
	const char *colon = strrchr(origin, ':');
	const char *base = strrchr(origin, '/'), *root = qp->root;
	const struct table *t;

	base = base ? base + 1 : origin;
	if (!colon || colon < base) {
		html_text(out, origin);
		return;
	}
	buf_reset(id);
	buf_add(id, origin, (size_t)(colon - origin));
	t = qp->ts ? tableset_find(qp->ts, id->data) : NULL;
	buf_reset(id);
	if (t) {
		pages_data_anchor(id, t, strtoul(colon + 1, NULL, 10));
	} else {
		buf_add(id, base, (size_t)(colon - base));
		buf_addch(id, '-');
		buf_addstr(id, colon + 1);
	}
	buf_addf(out, "<a href=\"%sdata.html#", root);
	html_attr(out, id->data);
	BUF_ADDLIT(out, "\">");
	html_text(out, origin);
	BUF_ADDLIT(out, "</a>");
}

/*
 * A number to six significant digits and its unit; a calendar year
 * reads as one (2008, 2145.30), without its unit, and a count as a
 * count (35, 15 yr: format_count_unit()).
 */
static void
number_text(struct buf *v, const struct quantity *q)
{
	if (!strcmp(q->unit, "year")) {
		int r = q->value == nearbyint(q->value) ?
			format_year(v, q->value) : format_sig(v, q->value, 6);

		if (!r)
			return;
		buf_reset(v);
	}
	if (!format_count_unit(q->unit) || format_count(v, q->value)) {
		if (format_sci(v, q->value, 6))
			format_exact(v, q->value);
	}
	if (*q->unit) {
		BUF_ADDLIT(v, FORMAT_NBSP);
		format_unit(v, q->unit);
	}
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
	number_text(v, q);
	html_text(out, v->data);
}

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
		else if (first == n - 1)	/* in the newest edition only */
			buf_addf(out, "new in %d", qp->years[first]);
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

/* A formula's words, after it. */
static void
note_after(struct buf *out, const struct quantity *q)
{
	if (!*q->note)
		return;
	BUF_ADDLIT(out, " <span class=\"note\">(");
	html_text(out, q->note);
	BUF_ADDLIT(out, ")</span>");
}

/*
 * Where links to quantities go: links->href, else page#NAME ("" on a
 * single page).
 */
struct qlink {
	const char *page;
	const struct mathml_links *links;
};

/* A link to the row of quantity name, which it names. */
static void
row_link(struct buf *out, const struct qlink *to, const char *name)
{
	BUF_ADDLIT(out, "<a href=\"");
	if (to->links) {
		to->links->href(out, name, to->links->ctx);
	} else {
		buf_addstr(out, to->page);
		buf_addch(out, '#');
		buf_addstr(out, name);
	}
	BUF_ADDLIT(out, "\"><code>");
	html_name(out, name);
	BUF_ADDLIT(out, "</code></a>");
}

/*
 * Appends one quantity as a table row; scratch is scratch space. Names
 * need no escaping: the registry holds only [A-Za-z0-9._-] names.
 * to: where links to another quantity go. *held: the row whose long
 * source the table wrote last (NULL: none yet).
 */
static void
quantity_row(struct buf *out, const struct registry *reg,
	     const struct quantity *q, const struct quantities_page *qp,
	     const struct qlink *to, const struct quantity **held,
	     struct buf *scratch)
{
	size_t j;

	/* The row is the target of links; its name links nowhere. */
	BUF_ADDLIT(out, "<tr id=\"");
	buf_addstr(out, q->name);
	BUF_ADDLIT(out, "\"><td><code>");
	html_name(out, q->name);
	/* data-label: the column's name, shown on a narrow screen. */
	BUF_ADDLIT(out, "</code></td><td class=\"");
	/* A number stays on one line; a text (a machine's name) wraps. */
	buf_addstr(out, q->type == Q_TEXT ? "text" : "num");
	BUF_ADDLIT(out, "\" data-label=\"Value\">");
	value_cell(out, q, scratch);
	if (qp->neditions) {
		BUF_ADDLIT(out, "</td><td class=\"history\" "
			   "data-label=\"Editions\">");
		history_cell(out, q->name, qp, scratch);
	}
	BUF_ADDLIT(out, "</td><td data-label=\"Formula\">");
	/*
	 * The formula typeset when it is made of symbols, else as code
	 * (names in upright letters read no better), its words after it;
	 * else the description.
	 */
	if (!(to->links ? mathml_formula_linked(out, reg, q, to->links,
						MATHML_SYMBOLS, qp->memo) :
	      mathml_formula(out, reg, q, to->page, MATHML_SYMBOLS,
			     qp->memo))) {
		note_after(out, q);
	} else if (q->expr) {
		BUF_ADDLIT(out, "<code class=\"formula\">");
		html_name(out, q->expr);
		BUF_ADDLIT(out, "</code>");
		note_after(out, q);
	} else {
		html_text(out, q->formula);
	}
	BUF_ADDLIT(out, "</td><td data-label=\"Inputs\">");
	for (j = 0; j < q->ninputs; j++) {
		row_link(out, to, q->inputs[j]);
		if (j + 1 < q->ninputs)
			BUF_ADDLIT(out, ", ");
	}
	BUF_ADDLIT(out, "</td><td data-label=\"Source\">");
	/*
	 * A long source said in full on an earlier row of the table (the
	 * dozen quantities read from one device's row) points there.
	 */
	if (*held && !strcmp((*held)->source, q->source)) {
		BUF_ADDLIT(out, "as for ");
		row_link(out, to, (*held)->name);
	} else {
		bib_text_html(out, qp->bib, q->source, qp->root);
		if (strlen(q->source) > SOURCE_SAID_ONCE)
			*held = q;
	}
	if (q->origin) {
		BUF_ADDLIT(out, " (");
		origin_link(out, q->origin, qp, scratch);
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

/*
 * The groups of the quantities keep marks (NULL: all): the part of a
 * name before its first dot, in order of first use. Sets first[k] (the
 * registry index of group k's first quantity), count[k], group[i] (for
 * each quantity kept); returns the number of groups. Names mostly come
 * in runs of one group: the previous name's group is tried first.
 */
static size_t
find_groups(const struct registry *reg, const unsigned char *keep,
	    size_t *first, size_t *group, size_t *count)
{
	size_t i, k, ngroups = 0, n = registry_count(reg);

	for (i = 0, k = 0; i < n; i++) {
		const char *name = registry_at(reg, i)->name;
		size_t len = strcspn(name, ".");

		if (keep && !keep[i])
			continue;
		if (!same_group(reg, first, ngroups, k, name, len))
			for (k = 0; k < ngroups; k++)
				if (same_group(reg, first, ngroups, k, name,
					       len))
					break;
		if (k == ngroups) {
			first[ngroups] = i;
			count[ngroups++] = 0;
		}
		group[i] = k;
		count[k]++;
	}
	return ngroups;
}

/*
 * One table of quantities: the n of registry indices at, all named
 * key or key.something (keylen bytes of key).
 */
static void
quantity_table(struct buf *out, const struct registry *reg,
	       const struct quantities_page *qp, const char *key,
	       size_t keylen, const size_t *at, size_t n,
	       const struct qlink *to, struct buf *scratch)
{
	const struct quantity *held = NULL;
	int more = 0;
	size_t i;

	for (i = 0; i < n; i++)
		more |= registry_at(reg, at[i])->name[keylen] == '.';
	BUF_ADDLIT(out, "<div class=\"wide\"><table class=\""
		   "quantities\">\n<caption>");
	if (n == 1 && !more)
		BUF_ADDLIT(out, "The quantity <code>");
	else if (n == 1)
		BUF_ADDLIT(out, "The quantity named <code>");
	else
		buf_addf(out, "The %zu quantities named <code>", n);
	buf_add(out, key, keylen);
	buf_addstr(out, more ? ".</code>&hellip;" : "</code>");
	BUF_ADDLIT(out, ", with value, formula, inputs and source"
		   "</caption>\n<thead><tr><th>Name</th><th>Value</th>");
	if (qp->neditions)
		BUF_ADDLIT(out, "<th>Editions</th>");
	BUF_ADDLIT(out, "<th>Formula</th><th>Inputs</th>"
		   "<th>Source</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++)
		quantity_row(out, reg, registry_at(reg, at[i]), qp, to,
			     &held, scratch);
	BUF_ADDLIT(out, "</tbody>\n</table>\n</div>\n");
}

/* The sentence on what the "Editions" column shows. */
static void
editions_words(struct buf *out, const struct quantities_page *qp)
{
	if (qp->neditions > 1)
		buf_addf(out, " “Editions” charts a value from the %d edition "
			 "to the %d edition (on a log scale when it spans more "
			 "than a factor of ten) and, opened, gives it for each "
			 "run of editions.", qp->years[0],
			 qp->years[qp->neditions - 1]);
}

void
pages_quantities(const struct registry *reg,
		 const struct quantities_page *qp, struct buf *out)
{
	size_t i, k, n = registry_count(reg), ngroups = 0;
	size_t *group = xcalloc(n ? n : 1, sizeof(*group));
	size_t *first = xcalloc(n ? n : 1, sizeof(*first));
	size_t *count = xcalloc(n ? n : 1, sizeof(*count));
	size_t *at = xcalloc(n ? n : 1, sizeof(*at));
	struct buf scratch = BUF_INIT;
	const struct qlink self = { "", NULL };

	ngroups = find_groups(reg, qp->keep, first, group, count);
	BUF_ADDLIT(out, "<h1 id=\"quantities\">Quantities of the ");
	html_text(out, qp->edition);
	BUF_ADDLIT(out, "</h1>\n<p>The numbers this edition's report shows, "
		   "and every quantity they are computed from, with formula, "
		   "inputs (each a link), value and unit (six significant "
		   "digits), and source. <a href=\"");
	buf_addstr(out, qp->root);
	BUF_ADDLIT(out, "quantities.html\">All quantities</a>, with their "
		   "values in every edition, are on the newest edition's "
		   "pages.</p>\n");
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
		size_t len = strcspn(g, "."), m = 0;
		int fold = count[k] > PAGES_OPEN_ROWS;

		BUF_ADDLIT(out, "<h2 id=\"group-");
		buf_add(out, g, len);
		BUF_ADDLIT(out, "\"><code>");
		buf_add(out, g, len);
		BUF_ADDLIT(out, "</code></h2>\n");
		if (fold)
			buf_addf(out, "<details class=\"group\"><summary>The "
				 "%zu quantities</summary>\n", count[k]);
		for (i = first[k]; i < n; i++)
			if (group[i] == k && (!qp->keep || qp->keep[i]))
				at[m++] = i;
		quantity_table(out, reg, qp, g, len, at, m, &self, &scratch);
		if (fold)
			BUF_ADDLIT(out, "</details>\n");
	}
	buf_release(&scratch);
	free(count);
	free(group);
	free(first);
	free(at);
}

/* The page key of name: its first part, or two in a big group. */
static size_t
key_len(const char *name, int big)
{
	size_t len = strcspn(name, ".");

	if (big && name[len])
		len += 1 + strcspn(name + len + 1, ".");
	return len;
}

/* key against the len bytes of name: strcmp()'s sign. */
static int
key_cmp(const char *key, const char *name, size_t len)
{
	int c = strncmp(key, name, len);

	return c ? c : key[len] != '\0';
}

/*
 * The index of the page whose key is the len bytes of name, or p->n: by
 * bisection once the pages are sorted (a link to each formula's every
 * symbol asks, and a scan was 7% of a report's instructions).
 */
static size_t
find_key(const struct qpages *p, const char *name, size_t len)
{
	size_t i, lo = 0, hi = p->n;

	if (!p->order) {
		for (i = 0; i < p->n; i++)
			if (!key_cmp(p->v[i].key, name, len))
				break;
		return i;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(p->v[p->order[mid]].key, name, len);

		if (!c)
			return p->order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return p->n;
}

/* A page's key and index, for sorting the order. */
struct keyed {
	const char *key;
	size_t i;
};

static int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key,
		      ((const struct keyed *)b)->key);
}

void
qpages_init(struct qpages *p, const struct registry *reg)
{
	size_t n = registry_count(reg), i, k, cap = 0;
	size_t *first = xcalloc(n ? n : 1, sizeof(*first));
	size_t *count = xcalloc(n ? n : 1, sizeof(*count));
	size_t *group = xcalloc(n ? n : 1, sizeof(*group));
	struct keyed *keyed;

	p->v = NULL;
	p->n = 0;
	p->order = NULL;
	find_groups(reg, NULL, first, group, count);
	/* The pages: each name's key, a page the first time it is met. */
	for (i = 0; i < n; i++) {
		const char *name = registry_at(reg, i)->name;
		size_t len = key_len(name, count[group[i]] > PAGES_SPLIT);
		struct qpage *pg;

		k = find_key(p, name, len);
		if (k == p->n) {
			p->v = xgrow(p->v, &cap, p->n + 1, sizeof(*p->v));
			p->v[p->n].key = xstrndup(name, len);
			p->v[p->n].at = xcalloc(count[group[i]],
						sizeof(*p->v[p->n].at));
			p->v[p->n++].n = 0;
		}
		pg = &p->v[k];
		pg->at[pg->n++] = i;
	}
	/* A group's parts together: by group, then by first quantity. */
	for (i = 1; i < p->n; i++) {
		struct qpage t = p->v[i];

		for (k = i; k > 0 && group[p->v[k - 1].at[0]] > group[t.at[0]];
		     k--)
			p->v[k] = p->v[k - 1];
		p->v[k] = t;
	}
	keyed = xcalloc(p->n ? p->n : 1, sizeof(*keyed));
	for (i = 0; i < p->n; i++)
		keyed[i] = (struct keyed){ p->v[i].key, i };
	qsort(keyed, p->n, sizeof(*keyed), by_key);
	p->order = xcalloc(p->n ? p->n : 1, sizeof(*p->order));
	for (i = 0; i < p->n; i++)
		p->order[i] = keyed[i].i;
	free(keyed);
	free(first);
	free(count);
	free(group);
}

void
qpages_release(struct qpages *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].key);
		free(p->v[i].at);
	}
	free(p->v);
	free(p->order);
	p->v = NULL;
	p->order = NULL;
	p->n = 0;
}

const struct qpage *
qpages_find(const struct qpages *p, const char *name)
{
	size_t k = find_key(p, name, key_len(name, 1));

	/* A small group's two-part prefix is no key: its first part is. */
	if (k == p->n)
		k = find_key(p, name, key_len(name, 0));
	return k < p->n ? &p->v[k] : NULL;
}

void
qpages_href(const struct qpages *p, const char *dir,
	    const struct qpage *self, const char *name, struct buf *out)
{
	const struct qpage *pg = qpages_find(p, name);

	if (pg && pg != self) {
		buf_addstr(out, dir);
		buf_addstr(out, pg->key);
		BUF_ADDLIT(out, ".html");
	} else if (!pg) {
		BUF_ADDLIT(out, "quantities.html");
	}
	buf_addch(out, '#');
	buf_addstr(out, name);
}

/* A part of the quantities page, and the part a link is written on. */
struct qpart_ctx {
	const struct qpages *p;
	const struct qpage *self;
};

/* mathml_links' href on part self: "#NAME" there, else "KEY.html#NAME". */
static void
part_href(struct buf *out, const char *name, const void *ctx)
{
	const struct qpart_ctx *c = ctx;

	qpages_href(c->p, "", c->self, name, out);
}

/*
 * A link to part pg, from dir ("" in quantities/, "quantities/" beside
 * it), shown as its key from byte skip on.
 */
static void
part_link(struct buf *out, const char *dir, const struct qpage *pg,
	  size_t skip)
{
	BUF_ADDLIT(out, "<a href=\"");
	buf_addstr(out, dir);
	buf_addstr(out, pg->key);
	BUF_ADDLIT(out, ".html\"><code>");
	buf_addstr(out, pg->key + skip);
	BUF_ADDLIT(out, "</code></a>");
}

void
pages_quantities_part(const struct registry *reg,
		      const struct quantities_page *qp,
		      const struct qpages *p, const struct qpage *pg,
		      struct buf *out)
{
	struct qpart_ctx ctx = { p, pg };
	struct mathml_links links = { part_href, &ctx };
	const struct qlink to = { NULL, &links };
	struct buf scratch = BUF_INIT;
	size_t k = (size_t)(pg - p->v);

	BUF_ADDLIT(out, "<h1 id=\"quantities\">Quantities: <code>");
	buf_addstr(out, pg->key);
	BUF_ADDLIT(out, "</code></h1>\n<p class=\"parts\">Part of <a href=\"");
	buf_addstr(out, qp->root);
	BUF_ADDLIT(out, "quantities.html\">all quantities</a>");
	if (k > 0) {
		BUF_ADDLIT(out, "; previous: ");
		part_link(out, "", &p->v[k - 1], 0);
	}
	if (k + 1 < p->n) {
		BUF_ADDLIT(out, "; next: ");
		part_link(out, "", &p->v[k + 1], 0);
	}
	BUF_ADDLIT(out, ".</p>\n<p>Values to six significant digits (<a "
		   "href=\"");
	buf_addstr(out, qp->root);
	BUF_ADDLIT(out, "quantities.csv\">CSV</a> and <a href=\"");
	buf_addstr(out, qp->root);
	BUF_ADDLIT(out, "quantities.json\">JSON</a> at full precision); "
		   "each input links to its row.");
	editions_words(out, qp);
	BUF_ADDLIT(out, "</p>\n");
	quantity_table(out, reg, qp, pg->key, strlen(pg->key), pg->at,
		       pg->n, &to, &scratch);
	buf_release(&scratch);
}

void
pages_quantities_index(const struct quantities_page *qp,
		       const struct qpages *p, struct buf *out)
{
	size_t k, total = 0;

	for (k = 0; k < p->n; k++)
		total += p->v[k].n;
	buf_addf(out, "<h1 id=\"quantities\">Quantities</h1>\n<p>Every "
		 "number of the report, %zu quantities in all, with the "
		 "formula that computes it, its inputs (each a link), its "
		 "value and unit (six significant digits), and its source. "
		 "They are listed by the first part of their names, and the "
		 "largest groups by the first two parts, one page each. "
		 "<a href=\"quantities.csv\">quantities.csv</a> and <a href="
		 "\"quantities.json\">quantities.json</a> hold them all at "
		 "full precision.", total);
	editions_words(out, qp);
	BUF_ADDLIT(out, "</p>\n<ul class=\"parts\">\n");
	for (k = 0; k < p->n;) {
		const char *key = p->v[k].key;
		size_t glen = strcspn(key, "."), j = k, n = 0;

		/* A group split in parts: the parts of it in one item. */
		while (j < p->n && !strncmp(p->v[j].key, key, glen) &&
		       (p->v[j].key[glen] == '.' || !p->v[j].key[glen]) &&
		       (j == k || key[glen])) {
			n += p->v[j].n;
			j++;
		}
		BUF_ADDLIT(out, "<li>");
		if (!key[glen]) {
			part_link(out, "quantities/", &p->v[k], 0);
			buf_addf(out, " (%zu)", n);
		} else {
			BUF_ADDLIT(out, "<code>");
			buf_add(out, key, glen);
			buf_addf(out, "</code> (%zu): ", n);
			for (; k < j; k++) {
				part_link(out, "quantities/", &p->v[k],
					  glen + 1);
				buf_addf(out, "&nbsp;(%zu)", p->v[k].n);
				if (k + 1 < j)
					BUF_ADDLIT(out, " · ");
			}
		}
		BUF_ADDLIT(out, "</li>\n");
		k = j;
	}
	BUF_ADDLIT(out, "</ul>\n");
}

/* The first row data.html shows after the middle it leaves out. */
static size_t
shown_after_gap(const struct table *t)
{
	return table_rows(t) - PAGES_MAX_ROWS / 2;
}

int
pages_data_shows(const struct table *t, size_t row)
{
	size_t n = table_rows(t);

	return n <= PAGES_MAX_ROWS || row < PAGES_MAX_ROWS / 2 ||
	       row >= shown_after_gap(t);
}

void
pages_data_anchor(struct buf *out, const struct table *t, size_t line)
{
	const char *name = table_name(t), *base = strrchr(name, '/');
	size_t row = table_row_at_line(t, line);

	buf_addstr(out, base ? base + 1 : name);
	if (row != SIZE_MAX && pages_data_shows(t, row))
		buf_addf(out, "-%zu", line);
}

/* Whether column c of t holds a row's sources. */
static int
source_column(const struct table *t, size_t c)
{
	return !strcmp(table_header(t, c), "source") ||
	       !strcmp(table_header(t, c), "printed_in");
}

/*
 * prose[c]: whether column c of t holds sentences (a cell on the page
 * longer than PROSE_CELL bytes). Such a column keeps a readable width
 * when the table is wider than the screen and the others shrink. Looks
 * only at the rows the page shows (at most PAGES_MAX_ROWS).
 */
static void
prose_columns(const struct table *t, char *prose)
{
	size_t r, c;

	memset(prose, 0, table_cols(t));
	for (r = 0; r < table_rows(t); r++) {
		if (!pages_data_shows(t, r))
			r = shown_after_gap(t);
		for (c = 0; c < table_cols(t); c++)
			prose[c] |= strlen(table_cell(t, r, (int)c)) >
				    PROSE_CELL;
	}
}

void
pages_references(const struct bib *bib,
		 const struct bib_entry *const *cited, size_t ncited,
		 const char *list, struct buf *out)
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
			BUF_ADDLIT(out, " (<a href=\"");
			html_attr(out, list);
			BUF_ADDLIT(out, "#ref-");
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
	int ret = 0, many;
	char *prose = NULL;

	BUF_ADDLIT(out, "<h1 id=\"data\">Data</h1>\n<p>Every row the report "
		   "is computed from, with its source. Each file can be "
		   "downloaded as CSV; a note says where a value is an "
		   "estimate or could not be verified. A source that names a "
		   "published work links to it in the <a href=\"references."
		   "html\">references</a>, and an address in a source links "
		   "to that address.</p>\n");
	for (f = 0; files[f]; f++) {
		struct table *t;

		t = schema_load(ts, datadir, files[f]);
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
		many = table_cols(t) > PRINT_COLUMNS;
		buf_addf(out, "\">Download</a> (%zu rows)</p>\n<div class=\""
			 "wide\"><table class=\"data%s\">\n<caption>The rows "
			 "of <code>", table_rows(t), many ? " columns-many" : "");
		html_text(out, files[f]);
		BUF_ADDLIT(out, "</code>, each with its line in the file"
			   "</caption>\n<thead><tr><th>Line</th>");
		for (c = 0; c < table_cols(t); c++) {
			BUF_ADDLIT(out, "<th>");
			/* fp64_peak_flops: on paper, a narrow column. */
			html_heading(out, table_header(t, c));
			BUF_ADDLIT(out, "</th>");
		}
		BUF_ADDLIT(out, "</tr></thead>\n<tbody>\n");
		prose = xreallocarray(prose, table_cols(t), sizeof(*prose));
		prose_columns(t, prose);
		for (r = 0; r < table_rows(t); r++) {
			/* A long history: its ends here, all of it in the CSV. */
			if (!pages_data_shows(t, r)) {
				buf_addf(out, "<tr><td colspan=\"%zu\">... %zu "
					 "more rows: see the CSV file ..."
					 "</td></tr>\n", table_cols(t) + 1,
					 table_rows(t) - PAGES_MAX_ROWS);
				r = shown_after_gap(t) - 1;
				continue;
			}
			buf_addf(out, "<tr id=\"");
			html_attr(out, files[f]);
			/* data-label: the column's name, printed beside the
			 * cell where the rows print as blocks. */
			buf_addf(out, "-%zu\"><td%s>%zu</td>", table_line(t, r),
				 many ? " data-label=\"Line\"" : "",
				 table_line(t, r));
			for (c = 0; c < table_cols(t); c++) {
				const char *cell = table_cell(t, r, (int)c);

				BUF_ADDLIT(out, "<td");
				if (prose[c])
					BUF_ADDLIT(out, " class=\"prose\"");
				if (many) {
					BUF_ADDLIT(out, " data-label=\"");
					html_attr(out, table_header(t, c));
					BUF_ADDLIT(out, "\"");
				}
				BUF_ADDLIT(out, ">");
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
	free(prose);
	return ret;
}
