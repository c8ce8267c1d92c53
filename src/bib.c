/*
 * The references list (references.csv) and its HTML. The template
 * expander resolves {{ cite(key) }} against it and lists the entries a
 * page cites with {{ references() }}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "escape.h"
#include "bib.h"
#include "xalloc.h"
#include "banned.h"

#define BIB_FILE "references.csv"

int
bib_load(struct bib *r, const char *dir, struct tableset *ts)
{
	static const char *const cols[] = { "key", "label", "authors",
		"title", "venue", "year", "doi", "url" };
	enum { C_KEY, C_LABEL, C_AUTHORS, C_TITLE, C_VENUE, C_YEAR, C_DOI,
	       C_URL, NCOLS };
	int ci[NCOLS];
	struct buf path = BUF_INIT;
	struct stat st;
	struct table *t;
	size_t row, i, before = diag_errors();

	memset(r, 0, sizeof(*r));
	buf_addf(&path, "%s/%s", dir, BIB_FILE);
	/* The list is optional: a report that cites nothing needs none. */
	if (stat(path.data, &st) && errno == ENOENT) {
		buf_release(&path);
		return 0;
	}
	buf_release(&path);
	t = tableset_load(ts, dir, BIB_FILE);
	if (!t || table_max_rows(t, 10000, "each reference is a row of "
				 "the report's references list"))
		return -1;
	r->file = table_name(t);
	for (i = 0; i < NCOLS; i++)
		if ((ci[i] = table_require(t, cols[i])) < 0)
			return -1;
	r->v = xcalloc(table_rows(t) ? table_rows(t) : 1, sizeof(*r->v));
	for (row = 0; row < table_rows(t); row++) {
		struct bib_entry *e = &r->v[r->n];
		int yr;

		if (table_id(t, row, ci[C_KEY], &e->key) |
		    table_text(t, row, ci[C_LABEL], &e->label) |
		    table_text(t, row, ci[C_TITLE], &e->title) |
		    table_year(t, row, ci[C_YEAR], 1000, 9999, &yr))
			continue;
		if (table_unique(t, row, ci[C_KEY]))
			continue;
		e->authors = table_cell(t, row, ci[C_AUTHORS]);
		e->venue = table_cell(t, row, ci[C_VENUE]);
		e->year = table_cell(t, row, ci[C_YEAR]);
		e->doi = table_cell(t, row, ci[C_DOI]);
		e->url = table_cell(t, row, ci[C_URL]);
		if (*e->doi && strncmp(e->doi, "10.", 3)) {
			table_error(t, row, ci[C_DOI], "a DOI starts with "
				    "'10.', got '%s'", e->doi);
			continue;
		}
		if (*e->url && strncmp(e->url, "https://", 8) &&
		    strncmp(e->url, "http://", 7)) {
			table_error(t, row, ci[C_URL], "expected an http(s) "
				    "address, got '%s'", e->url);
			continue;
		}
		r->n++;
	}
	if (diag_errors() != before) {
		bib_release(r);
		return -1;
	}
	return 0;
}

void
bib_release(struct bib *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

const struct bib_entry *
bib_find(const struct bib *r, const char *key)
{
	size_t i;

	for (i = 0; r && i < r->n; i++)
		if (!strcmp(r->v[i].key, key))
			return &r->v[i];
	return NULL;
}

void
bib_item_html(struct buf *out, const struct bib_entry *e)
{
	BUF_ADDLIT(out, "<li id=\"ref-");
	html_attr(out, e->key);
	BUF_ADDLIT(out, "\">");
	if (*e->authors) {
		html_text(out, e->authors);
		BUF_ADDLIT(out, " ");
	}
	buf_addf(out, "(%s). ", e->year);
	html_text(out, e->title);
	BUF_ADDLIT(out, ".");
	if (*e->venue) {
		BUF_ADDLIT(out, " <i>");
		html_text(out, e->venue);
		BUF_ADDLIT(out, "</i>.");
	}
	if (*e->doi) {
		BUF_ADDLIT(out, " <a href=\"https://doi.org/");
		html_attr(out, e->doi);
		BUF_ADDLIT(out, "\">doi:");
		html_text(out, e->doi);
		BUF_ADDLIT(out, "</a>");
	} else if (*e->url) {
		BUF_ADDLIT(out, " <a href=\"");
		html_attr(out, e->url);
		BUF_ADDLIT(out, "\">");
		html_text(out, e->url);
		BUF_ADDLIT(out, "</a>");
	}
	BUF_ADDLIT(out, "</li>\n");
}
