/*
 * The references list (the catalogue's references file) and its HTML. The template
 * expander resolves {{ cite(key) }} against it and lists the entries a
 * page cites with {{ references() }}.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "escape.h"
#include "bib.h"
#include "schema.h"
#include "suggest.h"
#include "xalloc.h"
#include "banned.h"

int
bib_load(struct bib *r, const char *dir, struct tableset *ts)
{
	enum { C_KEY, C_LABEL, C_AUTHORS, C_TITLE, C_VENUE, C_YEAR, C_DOI,
	       C_URL, NCOLS };
	int ci[NCOLS];
	const struct schema_file *f;
	struct table *t;
	size_t row, before = diag_errors();

	memset(r, 0, sizeof(*r));
	/* The list is optional: a report that cites nothing needs none. */
	if (!(f = schema_of_kind(ts, dir, SCHEMA_REFERENCES)))
		return 0;
	t = schema_load(ts, dir, f->s.file);
	if (!t || table_max_rows(t, 10000, "each reference is a row of "
				 "the report's references list"))
		return -1;
	r->file = table_name(t);
	/* By name, from the catalogue (schema.c): the header was checked. */
	ci[C_KEY] = table_col(t, "key");
	ci[C_LABEL] = table_col(t, "label");
	ci[C_AUTHORS] = table_col(t, "authors");
	ci[C_TITLE] = table_col(t, "title");
	ci[C_VENUE] = table_col(t, "venue");
	ci[C_YEAR] = table_col(t, "year");
	ci[C_DOI] = table_col(t, "doi");
	ci[C_URL] = table_col(t, "url");
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

/*
 * The address at s (len bytes) as a link; a bare one gets https://. Its
 * text may break after each '/' (<wbr>), not inside a number: a narrow
 * column wraps a long address there.
 */
static void
url_html(struct buf *out, const char *s, size_t len, int bare)
{
	struct buf url = BUF_INIT, part = BUF_INIT;
	const char *p, *slash;

	if (bare)
		BUF_ADDLIT(&url, "https://");
	buf_add(&url, s, len);
	BUF_ADDLIT(out, "<a href=\"");
	html_attr(out, url.data);
	BUF_ADDLIT(out, "\">");
	p = url.data + (bare ? 8 : 0);
	if ((slash = strstr(p, "://"))) {	/* the scheme as it is */
		buf_add(&part, p, (size_t)(slash + 3 - p));
		html_text(out, part.data);
		p = slash + 3;
	}
	for (; *p; p = slash + 1) {
		if (!(slash = strchr(p, '/')) || !slash[1]) {
			html_text(out, p);
			break;
		}
		buf_reset(&part);
		buf_add(&part, p, (size_t)(slash + 1 - p));
		html_text(out, part.data);
		BUF_ADDLIT(out, "<wbr>");
	}
	BUF_ADDLIT(out, "</a>");
	buf_release(&part);
	buf_release(&url);
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
		BUF_ADDLIT(out, " ");
		url_html(out, e->url, strlen(e->url), 0);
	}
}

/*
 * The length of a "[key]" marker at s, or 0; *klen is the key's (an
 * id's characters, as table_id() allows them).
 */
static size_t
marker_at(const char *s, size_t *klen)
{
	size_t n;

	if (*s != '[')
		return 0;
	n = 1 + strspn(s + 1, TABLE_ID_CHARS);
	if (n == 1 || s[n] != ']')
		return 0;
	*klen = n - 1;
	return n + 1;
}

size_t
bib_marker(const struct bib *r, const char *s, const struct bib_entry **e)
{
	struct buf key = BUF_INIT;
	size_t klen, len = marker_at(s, &klen);

	*e = NULL;
	if (!len)
		return 0;
	buf_add(&key, s + 1, klen);
	*e = bib_find(r, key.data);
	buf_release(&key);
	return len;
}

int
bib_check_text(const struct bib *r, const char *text,
	       void (*err)(void *ctx, size_t at, size_t len, const char *msg),
	       void *ctx)
{
	const char *s = text;
	struct buf key = BUF_INIT, msg = BUF_INIT;
	int ret = 0;

	for (; *s; s++) {
		const char *near[3];
		struct suggest sg;
		size_t klen, len = marker_at(s, &klen), i, n;

		if (!len)
			continue;
		buf_reset(&key);
		buf_add(&key, s + 1, klen);
		s += len - 1;
		if (bib_find(r, key.data))
			continue;
		buf_reset(&msg);
		if (!r || !r->n) {
			buf_addf(&msg, "unknown reference '[%s]': the data "
				 "catalogue names no references file",
				 key.data);
		} else {
			suggest_init(&sg, key.data, near, 3);
			for (i = 0; i < r->n; i++)
				suggest_add(&sg, r->v[i].key);
			n = suggest_end(&sg);
			buf_addf(&msg, "unknown reference '[%s]' (not a key of "
				 "%s)", key.data, r->file);
			suggest_hint(&msg, near, n);
		}
		err(ctx, (size_t)(s - text) - (len - 1), len, msg.data);
		ret = -1;
	}
	buf_release(&key);
	buf_release(&msg);
	return ret;
}

/* bib_check_text()'s error at a cell. */
struct cell_at {
	const struct table *t;
	size_t row;
	int col;
};

static void
cell_error(void *ctx, size_t at, size_t len, const char *msg)
{
	const struct cell_at *c = ctx;

	(void)len;
	table_error_in(c->t, c->row, c->col, at, "%s", msg);
}

int
bib_check_cell(const struct bib *r, const struct table *t, size_t row,
	       int col)
{
	struct cell_at c = { t, row, col };

	return bib_check_text(r, table_cell(t, row, col), cell_error, &c);
}

static int
host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* The characters of an address's path: no quotes, brackets, spaces. */
static int
path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("-._~:/?#@!$&*+,;=%",
						     c));
}

/*
 * The length of a host at s ("www.top500.org"): labels of letters,
 * digits and '-' between dots, at least two, the last of two or more
 * letters. 0 if there is none. A full stop after it is not its own.
 */
static size_t
host_at(const char *s)
{
	size_t n = 0, i, label = 0, dots = 0, alpha = 0;

	while (host_char(s[n]))
		n++;
	if (n && s[n - 1] == '.')
		n--;
	for (i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (!label || s[i - 1] == '-')
				return 0;
			dots++;
			label = alpha = 0;
			continue;
		}
		if (s[i] == '-' && !label)
			return 0;
		label++;
		alpha += (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= 'A' && s[i] <= 'Z');
	}
	return dots && label >= 2 && alpha == label ? n : 0;
}

/*
 * The length of an address at s, where a word starts: "http://" or
 * "https://" and a host, or a host and '/' (a bare address, *bare set),
 * then a path; a full stop, comma, semicolon or colon at its end is the
 * sentence's. 0 if there is none.
 */
static size_t
url_at(const char *s, int *bare)
{
	size_t n = 0, h;

	*bare = 0;
	if (!strncmp(s, "https://", 8))
		n = 8;
	else if (!strncmp(s, "http://", 7))
		n = 7;
	if (!(h = host_at(s + n)))
		return 0;
	if (!n && s[h] != '/')
		return 0;
	*bare = !n;
	n += h;
	if (s[n] == '/' || s[n] == '?' || s[n] == '#')
		while (path_char(s[n]))
			n++;
	while (strchr(".,;:!?", s[n - 1]))
		n--;
	return n;
}

/* Whether an address may start at s: at the start or after a word. */
static int
url_start(const char *text, const char *s)
{
	return s == text ||
	       !(host_char(s[-1]) || s[-1] == '/' || s[-1] == '@');
}

void
bib_text_html(struct buf *out, const struct bib *r, const char *text,
	      const char *root)
{
	struct buf chunk = BUF_INIT;
	const char *s = text;

	while (*s) {
		const struct bib_entry *e;
		size_t len;
		int bare;

		if ((len = bib_marker(r, s, &e)) && e) {
			html_text(out, chunk.data);
			buf_reset(&chunk);
			buf_addf(out, "<a href=\"%sreferences.html#ref-", root);
			html_attr(out, e->key);
			BUF_ADDLIT(out, "\">");
			html_text(out, e->label);
			BUF_ADDLIT(out, "</a>");
			s += len;
		} else if (url_start(text, s) && (len = url_at(s, &bare))) {
			html_text(out, chunk.data);
			buf_reset(&chunk);
			url_html(out, s, len, bare);
			s += len;
		} else {
			buf_addch(&chunk, *s++);
		}
	}
	html_text(out, chunk.data);
	buf_release(&chunk);
}
