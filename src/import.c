/*
 * Input stage: `ultimate import-refs FILE`. A reference manager's
 * export, BibTeX (read by the parser below) or CSL-JSON (read with
 * jansson), becomes the rows of data/references.csv, checked as
 * bib_load() checks that file, every error located in FILE.
 *
 * BibTeX has no parser here from a library: Debian's libbtparse prints
 * its own errors with a line and no column, may exit() on a usage
 * error, and exports a global function called error(), which diag.c
 * defines too. The format Zotero writes is small: @type{key, name =
 * {value} or "value" or a number or an @string macro, joined with #}.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "export.h"
#include "import.h"
#include "suggest.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/* As bib_load() takes at most from references.csv. */
#define MAX_REFS 10000

/* One entry, as references.csv will hold it. */
enum { F_KEY, F_TITLE, F_YEAR, F_DOI, F_URL, NFIELDS };

struct ref {
	char *v[NFIELDS];	/* UTF-8, owned; NULL when absent */
	size_t at[NFIELDS], len[NFIELDS];	/* where each is in the file */
	size_t entry, entry_len;	/* the entry's start ('@', '{') */
	struct buf authors;	/* "A, B and C" */
	struct buf venue;
	char *last[2];		/* the first two authors' family names */
	size_t nauthors;
	int others;		/* "and others": et al. */
	unsigned said;		/* 1 << F_*: an error about that field was
				   said (no "has no title" echo) */
};

struct refs {
	const struct srcfile *f;
	struct ref *v;
	size_t n, cap;
};

/* An error at off (len bytes) in f: file:line:col and the caret. */
static int
err(const struct srcfile *f, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
err(const struct srcfile *f, size_t off, size_t len, const char *fmt, ...)
{
	struct srcloc loc = { f, off > f->len ? f->len : off, len ? len : 1 };
	va_list ap;

	if (loc.off + loc.len > f->len)
		loc.len = f->len - loc.off;
	va_start(ap, fmt);
	verror_at(&loc, fmt, ap);
	va_end(ap);
	return -1;
}

static struct ref *
new_ref(struct refs *rs, size_t at, size_t len)
{
	struct ref *r;

	rs->v = xgrow(rs->v, &rs->cap, rs->n + 1, sizeof(*rs->v));
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	buf_init(&r->authors);
	buf_init(&r->venue);
	r->entry = at;
	r->entry_len = len;
	return r;
}

static void
set(struct ref *r, int field, const char *s, size_t at, size_t len)
{
	free(r->v[field]);
	r->v[field] = xstrdup(s);
	r->at[field] = at;
	r->len[field] = len;
}

/* Adds an author: shown as display, cited by last (the family name). */
static void
add_author(struct ref *r, const char *display, const char *last)
{
	if (!*display)
		return;		/* an empty name ("{}") is no author */
	if (r->nauthors < 2)
		r->last[r->nauthors] = xstrdup(last);
	r->nauthors++;
	/* "A", "A and B", "A, B and C": the last join is rewritten below. */
	if (r->authors.len)
		BUF_ADDLIT(&r->authors, ", ");
	buf_addstr(&r->authors, display);
}

/* "A, B, C" -> "A, B and C"; "A, B" + others -> "A, B et al." */
static void
end_authors(struct ref *r)
{
	char *s = r->authors.data, *comma = NULL, *p;
	struct buf out = BUF_INIT;

	if (r->others) {
		if (r->authors.len)
			BUF_ADDLIT(&r->authors, " et al.");
		return;
	}
	if (r->nauthors < 2)
		return;
	for (p = s; (p = strstr(p, ", ")); p += 2)
		comma = p;
	if (!comma)
		return;
	buf_add(&out, s, (size_t)(comma - s));
	BUF_ADDLIT(&out, " and ");
	buf_addstr(&out, comma + 2);
	buf_release(&r->authors);
	r->authors = out;
}

/*
 * The venue: base ("Nature"), then volume, issue in parentheses and
 * pages after a comma ("Nature 406 (6799), 1047–1054"); a '-' between
 * two digits of the pages becomes an en dash.
 */
static void
set_venue(struct ref *r, const char *base, const char *volume,
	  const char *issue, const char *pages)
{
	struct buf *v = &r->venue;
	const char *p;

	buf_reset(v);
	if (base && *base)
		buf_addstr(v, base);
	if (volume && *volume)
		buf_addf(v, "%s%s", v->len ? " " : "", volume);
	if (issue && *issue)
		buf_addf(v, "%s(%s)", v->len ? " " : "", issue);
	if (!pages || !*pages)
		return;
	if (v->len)
		BUF_ADDLIT(v, ", ");
	for (p = pages; *p; p++) {
		if (*p == '-' && p > pages && p[-1] >= '0' && p[-1] <= '9' &&
		    p[1] >= '0' && p[1] <= '9')
			buf_addstr(v, "\u2013");
		else
			buf_addch(v, *p);
	}
}

static void
ref_release(struct ref *r)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		free(r->v[i]);
	free(r->last[0]);
	free(r->last[1]);
	buf_release(&r->authors);
	buf_release(&r->venue);
}

/* Whether s has a C0 control or DEL: a data cell may hold none. */
static int
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/*
 * The checks of bib_load() and the importer's own: an id for a key,
 * unique; a title; a year of four digits; a DOI that starts with "10."
 * (a doi.org address or "doi:" before it is dropped); an http(s)
 * address. Returns 0, or -1 after printing the errors.
 */
static int
check(struct refs *rs)
{
	const struct srcfile *f = rs->f;
	size_t i, j;
	int ret = 0;

	for (i = 0; i < rs->n; i++) {
		struct ref *r = &rs->v[i];
		const char *k = r->v[F_KEY], *y = r->v[F_YEAR];
		const char *d = r->v[F_DOI], *u = r->v[F_URL];
		static const char *const doi_pre[] = { "https://doi.org/",
			"http://doi.org/", "https://dx.doi.org/",
			"http://dx.doi.org/", "doi:" };

		if (!k || !*k) {
			if (!(r->said & 1u << F_KEY))
				ret = err(f, r->entry, r->entry_len, "an "
					  "entry without a key");
			ret = -1;
			continue;
		}
		if (k[strspn(k, TABLE_ID_CHARS)])
			ret = err(f, r->at[F_KEY], r->len[F_KEY], "key '%s' "
				  "is not an id: use a-z, 0-9 and _, as "
				  "references.csv does", k);
		else if (strlen(k) > TABLE_ID_MAX)
			ret = err(f, r->at[F_KEY], r->len[F_KEY], "a key of "
				  "%zu characters is too long: at most %d",
				  strlen(k), TABLE_ID_MAX);
		for (j = 0; j < i; j++) {
			size_t line, col;

			if (!rs->v[j].v[F_KEY] || strcmp(rs->v[j].v[F_KEY], k))
				continue;
			srcfile_locate(f, rs->v[j].at[F_KEY], &line, &col);
			ret = err(f, r->at[F_KEY], r->len[F_KEY], "duplicate "
				  "key '%s' (first at line %zu)", k, line);
			break;
		}
		if ((!r->v[F_TITLE] || !*r->v[F_TITLE]) &&
		    !(r->said & 1u << F_TITLE))
			ret = err(f, r->entry, r->entry_len, "entry '%s' has "
				  "no title", k);
		if (!y || !*y)
			ret = err(f, r->entry, r->entry_len, "entry '%s' has "
				  "no year", k);
		else if (strlen(y) != 4 || strspn(y, "0123456789") != 4 ||
			 *y == '0')
			ret = err(f, r->at[F_YEAR], r->len[F_YEAR], "entry "
				  "'%s': '%s' is not a year (four digits)", k,
				  y);
		for (j = 0; d && j < sizeof(doi_pre) / sizeof(doi_pre[0]); j++)
			if (!strncmp(d, doi_pre[j], strlen(doi_pre[j]))) {
				memmove(r->v[F_DOI], d + strlen(doi_pre[j]),
					strlen(d + strlen(doi_pre[j])) + 1);
				break;
			}
		if (d && *d && strncmp(d, "10.", 3))
			ret = err(f, r->at[F_DOI], r->len[F_DOI], "entry '%s': "
				  "a DOI starts with '10.', got '%s'", k, d);
		if (u && *u && strncmp(u, "https://", 8) &&
		    strncmp(u, "http://", 7))
			ret = err(f, r->at[F_URL], r->len[F_URL], "entry '%s': "
				  "expected an http(s) address, got '%s'", k,
				  u);
	}
	return ret;
}

/* "Lloyd 2000", "Margolus and Levitin 1998", "Carr et al. 2010". */
static void
label(const struct ref *r, struct buf *out)
{
	if (!r->nauthors)
		buf_addstr(out, r->venue.len ? r->venue.data :
			   r->v[F_TITLE]);
	else if (r->nauthors == 1 && !r->others)
		buf_addstr(out, r->last[0]);
	else if (r->nauthors == 2 && !r->others)
		buf_addf(out, "%s and %s", r->last[0], r->last[1]);
	else
		buf_addf(out, "%s et al.", r->last[0]);
	buf_addf(out, " %s", r->v[F_YEAR]);
}

static void
write_csv(const struct refs *rs, struct buf *out)
{
	struct buf lb = BUF_INIT;
	size_t i;

	BUF_ADDLIT(out, "key,label,authors,title,venue,year,doi,url,note\n");
	for (i = 0; i < rs->n; i++) {
		const struct ref *r = &rs->v[i];
		const char *cells[8];
		size_t c;

		buf_reset(&lb);
		label(r, &lb);
		cells[0] = r->v[F_KEY];
		cells[1] = lb.data;
		cells[2] = r->authors.data;
		cells[3] = r->v[F_TITLE];
		cells[4] = r->venue.data;
		cells[5] = r->v[F_YEAR];
		cells[6] = r->v[F_DOI] ? r->v[F_DOI] : "";
		cells[7] = r->v[F_URL] ? r->v[F_URL] : "";
		for (c = 0; c < 8; c++) {
			export_csv_field(out, cells[c]);
			buf_addch(out, ',');
		}
		buf_addch(out, '\n');
	}
	buf_release(&lb);
}

/* --- BibTeX ------------------------------------------------------------ */

static const struct accent {
	char accent, base;
	const char *utf8;
} accents[] = {
	{ '\'', 'A', "\xc3\x81" }, { '\'', 'a', "\xc3\xa1" },
	{ '\'', 'C', "\xc4\x86" }, { '\'', 'c', "\xc4\x87" },
	{ '\'', 'E', "\xc3\x89" }, { '\'', 'e', "\xc3\xa9" },
	{ '\'', 'G', "\xc7\xb4" }, { '\'', 'g', "\xc7\xb5" },
	{ '\'', 'I', "\xc3\x8d" }, { '\'', 'i', "\xc3\xad" },
	{ '\'', 'K', "\xe1\xb8\xb0" }, { '\'', 'k', "\xe1\xb8\xb1" },
	{ '\'', 'L', "\xc4\xb9" }, { '\'', 'l', "\xc4\xba" },
	{ '\'', 'N', "\xc5\x83" }, { '\'', 'n', "\xc5\x84" },
	{ '\'', 'O', "\xc3\x93" }, { '\'', 'o', "\xc3\xb3" },
	{ '\'', 'R', "\xc5\x94" }, { '\'', 'r', "\xc5\x95" },
	{ '\'', 'S', "\xc5\x9a" }, { '\'', 's', "\xc5\x9b" },
	{ '\'', 'U', "\xc3\x9a" }, { '\'', 'u', "\xc3\xba" },
	{ '\'', 'W', "\xe1\xba\x82" }, { '\'', 'w', "\xe1\xba\x83" },
	{ '\'', 'Y', "\xc3\x9d" }, { '\'', 'y', "\xc3\xbd" },
	{ '\'', 'Z', "\xc5\xb9" }, { '\'', 'z', "\xc5\xba" },
	{ '`', 'A', "\xc3\x80" }, { '`', 'a', "\xc3\xa0" },
	{ '`', 'E', "\xc3\x88" }, { '`', 'e', "\xc3\xa8" },
	{ '`', 'I', "\xc3\x8c" }, { '`', 'i', "\xc3\xac" },
	{ '`', 'N', "\xc7\xb8" }, { '`', 'n', "\xc7\xb9" },
	{ '`', 'O', "\xc3\x92" }, { '`', 'o', "\xc3\xb2" },
	{ '`', 'U', "\xc3\x99" }, { '`', 'u', "\xc3\xb9" },
	{ '`', 'W', "\xe1\xba\x80" }, { '`', 'w', "\xe1\xba\x81" },
	{ '`', 'Y', "\xe1\xbb\xb2" }, { '`', 'y', "\xe1\xbb\xb3" },
	{ '^', 'A', "\xc3\x82" }, { '^', 'a', "\xc3\xa2" },
	{ '^', 'C', "\xc4\x88" }, { '^', 'c', "\xc4\x89" },
	{ '^', 'E', "\xc3\x8a" }, { '^', 'e', "\xc3\xaa" },
	{ '^', 'G', "\xc4\x9c" }, { '^', 'g', "\xc4\x9d" },
	{ '^', 'H', "\xc4\xa4" }, { '^', 'h', "\xc4\xa5" },
	{ '^', 'I', "\xc3\x8e" }, { '^', 'i', "\xc3\xae" },
	{ '^', 'J', "\xc4\xb4" }, { '^', 'j', "\xc4\xb5" },
	{ '^', 'O', "\xc3\x94" }, { '^', 'o', "\xc3\xb4" },
	{ '^', 'S', "\xc5\x9c" }, { '^', 's', "\xc5\x9d" },
	{ '^', 'U', "\xc3\x9b" }, { '^', 'u', "\xc3\xbb" },
	{ '^', 'W', "\xc5\xb4" }, { '^', 'w', "\xc5\xb5" },
	{ '^', 'Y', "\xc5\xb6" }, { '^', 'y', "\xc5\xb7" },
	{ '^', 'Z', "\xe1\xba\x90" }, { '^', 'z', "\xe1\xba\x91" },
	{ '"', 'A', "\xc3\x84" }, { '"', 'a', "\xc3\xa4" },
	{ '"', 'E', "\xc3\x8b" }, { '"', 'e', "\xc3\xab" },
	{ '"', 'H', "\xe1\xb8\xa6" }, { '"', 'h', "\xe1\xb8\xa7" },
	{ '"', 'I', "\xc3\x8f" }, { '"', 'i', "\xc3\xaf" },
	{ '"', 'O', "\xc3\x96" }, { '"', 'o', "\xc3\xb6" },
	{ '"', 't', "\xe1\xba\x97" }, { '"', 'U', "\xc3\x9c" },
	{ '"', 'u', "\xc3\xbc" }, { '"', 'W', "\xe1\xba\x84" },
	{ '"', 'w', "\xe1\xba\x85" }, { '"', 'Y', "\xc5\xb8" },
	{ '"', 'y', "\xc3\xbf" }, { '~', 'A', "\xc3\x83" },
	{ '~', 'a', "\xc3\xa3" }, { '~', 'E', "\xe1\xba\xbc" },
	{ '~', 'e', "\xe1\xba\xbd" }, { '~', 'I', "\xc4\xa8" },
	{ '~', 'i', "\xc4\xa9" }, { '~', 'N', "\xc3\x91" },
	{ '~', 'n', "\xc3\xb1" }, { '~', 'O', "\xc3\x95" },
	{ '~', 'o', "\xc3\xb5" }, { '~', 'U', "\xc5\xa8" },
	{ '~', 'u', "\xc5\xa9" }, { '~', 'Y', "\xe1\xbb\xb8" },
	{ '~', 'y', "\xe1\xbb\xb9" }, { '=', 'A', "\xc4\x80" },
	{ '=', 'a', "\xc4\x81" }, { '=', 'E', "\xc4\x92" },
	{ '=', 'e', "\xc4\x93" }, { '=', 'G', "\xe1\xb8\xa0" },
	{ '=', 'g', "\xe1\xb8\xa1" }, { '=', 'I', "\xc4\xaa" },
	{ '=', 'i', "\xc4\xab" }, { '=', 'O', "\xc5\x8c" },
	{ '=', 'o', "\xc5\x8d" }, { '=', 'U', "\xc5\xaa" },
	{ '=', 'u', "\xc5\xab" }, { '=', 'Y', "\xc8\xb2" },
	{ '=', 'y', "\xc8\xb3" }, { '.', 'A', "\xc8\xa6" },
	{ '.', 'a', "\xc8\xa7" }, { '.', 'C', "\xc4\x8a" },
	{ '.', 'c', "\xc4\x8b" }, { '.', 'D', "\xe1\xb8\x8a" },
	{ '.', 'd', "\xe1\xb8\x8b" }, { '.', 'E', "\xc4\x96" },
	{ '.', 'e', "\xc4\x97" }, { '.', 'G', "\xc4\xa0" },
	{ '.', 'g', "\xc4\xa1" }, { '.', 'H', "\xe1\xb8\xa2" },
	{ '.', 'h', "\xe1\xb8\xa3" }, { '.', 'I', "\xc4\xb0" },
	{ '.', 'N', "\xe1\xb9\x84" }, { '.', 'n', "\xe1\xb9\x85" },
	{ '.', 'O', "\xc8\xae" }, { '.', 'o', "\xc8\xaf" },
	{ '.', 'R', "\xe1\xb9\x98" }, { '.', 'r', "\xe1\xb9\x99" },
	{ '.', 'S', "\xe1\xb9\xa0" }, { '.', 's', "\xe1\xb9\xa1" },
	{ '.', 'T', "\xe1\xb9\xaa" }, { '.', 't', "\xe1\xb9\xab" },
	{ '.', 'W', "\xe1\xba\x86" }, { '.', 'w', "\xe1\xba\x87" },
	{ '.', 'Y', "\xe1\xba\x8e" }, { '.', 'y', "\xe1\xba\x8f" },
	{ '.', 'Z', "\xc5\xbb" }, { '.', 'z', "\xc5\xbc" },
	{ 'u', 'A', "\xc4\x82" }, { 'u', 'a', "\xc4\x83" },
	{ 'u', 'E', "\xc4\x94" }, { 'u', 'e', "\xc4\x95" },
	{ 'u', 'G', "\xc4\x9e" }, { 'u', 'g', "\xc4\x9f" },
	{ 'u', 'I', "\xc4\xac" }, { 'u', 'i', "\xc4\xad" },
	{ 'u', 'O', "\xc5\x8e" }, { 'u', 'o', "\xc5\x8f" },
	{ 'u', 'U', "\xc5\xac" }, { 'u', 'u', "\xc5\xad" },
	{ 'v', 'A', "\xc7\x8d" }, { 'v', 'a', "\xc7\x8e" },
	{ 'v', 'C', "\xc4\x8c" }, { 'v', 'c', "\xc4\x8d" },
	{ 'v', 'D', "\xc4\x8e" }, { 'v', 'd', "\xc4\x8f" },
	{ 'v', 'E', "\xc4\x9a" }, { 'v', 'e', "\xc4\x9b" },
	{ 'v', 'G', "\xc7\xa6" }, { 'v', 'g', "\xc7\xa7" },
	{ 'v', 'H', "\xc8\x9e" }, { 'v', 'h', "\xc8\x9f" },
	{ 'v', 'I', "\xc7\x8f" }, { 'v', 'i', "\xc7\x90" },
	{ 'v', 'j', "\xc7\xb0" }, { 'v', 'K', "\xc7\xa8" },
	{ 'v', 'k', "\xc7\xa9" }, { 'v', 'L', "\xc4\xbd" },
	{ 'v', 'l', "\xc4\xbe" }, { 'v', 'N', "\xc5\x87" },
	{ 'v', 'n', "\xc5\x88" }, { 'v', 'O', "\xc7\x91" },
	{ 'v', 'o', "\xc7\x92" }, { 'v', 'R', "\xc5\x98" },
	{ 'v', 'r', "\xc5\x99" }, { 'v', 'S', "\xc5\xa0" },
	{ 'v', 's', "\xc5\xa1" }, { 'v', 'T', "\xc5\xa4" },
	{ 'v', 't', "\xc5\xa5" }, { 'v', 'U', "\xc7\x93" },
	{ 'v', 'u', "\xc7\x94" }, { 'v', 'Z', "\xc5\xbd" },
	{ 'v', 'z', "\xc5\xbe" }, { 'H', 'O', "\xc5\x90" },
	{ 'H', 'o', "\xc5\x91" }, { 'H', 'U', "\xc5\xb0" },
	{ 'H', 'u', "\xc5\xb1" }, { 'c', 'C', "\xc3\x87" },
	{ 'c', 'c', "\xc3\xa7" }, { 'c', 'D', "\xe1\xb8\x90" },
	{ 'c', 'd', "\xe1\xb8\x91" }, { 'c', 'E', "\xc8\xa8" },
	{ 'c', 'e', "\xc8\xa9" }, { 'c', 'G', "\xc4\xa2" },
	{ 'c', 'g', "\xc4\xa3" }, { 'c', 'H', "\xe1\xb8\xa8" },
	{ 'c', 'h', "\xe1\xb8\xa9" }, { 'c', 'K', "\xc4\xb6" },
	{ 'c', 'k', "\xc4\xb7" }, { 'c', 'L', "\xc4\xbb" },
	{ 'c', 'l', "\xc4\xbc" }, { 'c', 'N', "\xc5\x85" },
	{ 'c', 'n', "\xc5\x86" }, { 'c', 'R', "\xc5\x96" },
	{ 'c', 'r', "\xc5\x97" }, { 'c', 'S', "\xc5\x9e" },
	{ 'c', 's', "\xc5\x9f" }, { 'c', 'T', "\xc5\xa2" },
	{ 'c', 't', "\xc5\xa3" }, { 'k', 'A', "\xc4\x84" },
	{ 'k', 'a', "\xc4\x85" }, { 'k', 'E', "\xc4\x98" },
	{ 'k', 'e', "\xc4\x99" }, { 'k', 'I', "\xc4\xae" },
	{ 'k', 'i', "\xc4\xaf" }, { 'k', 'O', "\xc7\xaa" },
	{ 'k', 'o', "\xc7\xab" }, { 'k', 'U', "\xc5\xb2" },
	{ 'k', 'u', "\xc5\xb3" }, { 'r', 'A', "\xc3\x85" },
	{ 'r', 'a', "\xc3\xa5" }, { 'r', 'U', "\xc5\xae" },
	{ 'r', 'u', "\xc5\xaf" }, { 'r', 'w', "\xe1\xba\x98" },
	{ 'r', 'y', "\xe1\xba\x99" },
};

/* Commands that stand for a character, and their UTF-8. */
static const struct {
	const char *name, *utf8;
} symbols[] = {
	{ "textendash", "\u2013" }, { "textemdash", "\u2014" },
	{ "ss", "\u00df" }, { "o", "\u00f8" }, { "O", "\u00d8" },
	{ "aa", "\u00e5" }, { "AA", "\u00c5" }, { "ae", "\u00e6" },
	{ "AE", "\u00c6" }, { "oe", "\u0153" }, { "OE", "\u0152" },
	{ "l", "\u0142" }, { "L", "\u0141" }, { "i", "\u0131" },
	{ "j", "\u0237" }, { "textquoteright", "\u2019" },
	{ "textquoteleft", "\u2018" }, { "textquotedblleft", "\u201c" },
	{ "textquotedblright", "\u201d" }, { "ldots", "\u2026" },
	{ "dots", "\u2026" }, { "textasciitilde", "~" },
	{ "textbackslash", "\\" }, { "textunderscore", "_" },
	{ "textbar", "|" }, { "textless", "<" }, { "textgreater", ">" },
	{ "textasciicircum", "^" }, { "textdegree", "\u00b0" },
	{ "textmu", "\u00b5" }, { "texttimes", "\u00d7" },
	{ "textperiodcentered", "\u00b7" }, { "textregistered", "\u00ae" },
	{ "texttrademark", "\u2122" }, { "textcopyright", "\u00a9" },
};

/* Commands that only style their argument: the argument stays. */
static const char *const styles[] = {
	"emph", "textit", "textbf", "textsc", "textrm", "textsf", "texttt",
	"textup", "textnormal", "textsl", "mkbibquote", "enquote", "url",
	"NoCaseChange", "mbox",
};

static int
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Appends the TeX text s[0..len) of f (at offset off) as UTF-8: braces
 * dropped, accents and the commands above replaced, "--" and "---" as
 * dashes, '~' and runs of white space as one space. Returns 0, or -1
 * after an error at an unknown command or math.
 */
static int
tex_text(const struct srcfile *f, size_t off, size_t len, struct buf *out)
{
	const char *s = f->data + off;
	size_t i = 0, k;
	int space = 0;

	while (i < len) {
		char c = s[i];
		size_t at = i, n;

		if (is_space(c) || c == '~') {
			space = 1;
			i++;
			continue;
		}
		if (c == '{' || c == '}') {
			i++;
			continue;
		}
		if (space && out->len)
			buf_addch(out, ' ');
		space = 0;
		if (c == '$')
			return err(f, off + i, 1, "TeX math ('$') is not "
				   "supported in a reference: write the text "
				   "in Unicode");
		if (c == '-') {
			n = strspn(s + i, "-");
			if (n > len - i)
				n = len - i;
			buf_addstr(out, n == 2 ? "\u2013" : n == 3 ? "\u2014" :
				   "-");
			if (n != 2 && n != 3)
				n = 1;
			i += n;
			continue;
		}
		if (c != '\\') {
			buf_addch(out, c);
			i++;
			continue;
		}
		/* A command: \name (letters) or \c (one other character). */
		i++;
		if (i >= len)
			return err(f, off + at, 1, "a '\\' ends the field");
		n = 1;
		if (is_letter(s[i]))
			while (i + n < len && is_letter(s[i + n]))
				n++;
		if (n == 1 && strchr("&%$#_{} ,;", s[i])) {
			buf_addch(out, s[i] == ',' || s[i] == ';' ? ' ' : s[i]);
			i++;
			continue;
		}
		if (n == 1 && s[i] == '\\') {
			space = 1;
			i++;
			continue;
		}
		if (n == 1 && strchr("'`^\"~=.uvHckr", s[i])) {
			char a = s[i], b;
			size_t j = i + 1, bl = 1;

			while (is_letter(a) && j < len && s[j] == ' ')
				j++;
			if (j < len && s[j] == '{') {
				j++;
				bl = 2;
			}
			if (j + 1 < len && s[j] == '\\' && (s[j + 1] == 'i' ||
							    s[j + 1] == 'j')) {
				j++;	/* a dotless i or j under an accent */
				bl++;
			}
			b = j < len ? s[j] : '\0';
			for (k = 0; k < sizeof(accents) / sizeof(accents[0]);
			     k++)
				if (accents[k].accent == a &&
				    accents[k].base == b)
					break;
			if (k == sizeof(accents) / sizeof(accents[0]))
				return err(f, off + at, j + 1 - at, "unsupported "
					   "accent '\\%c' on '%c': write the "
					   "letter in Unicode", a, b ? b : ' ');
			buf_addstr(out, accents[k].utf8);
			i = j + 1;
			if (bl >= 2 && i < len && s[i] == '}')
				i++;
			continue;
		}
		for (k = 0; k < sizeof(symbols) / sizeof(symbols[0]); k++)
			if (strlen(symbols[k].name) == n &&
			    !strncmp(symbols[k].name, s + i, n))
				break;
		if (k < sizeof(symbols) / sizeof(symbols[0])) {
			buf_addstr(out, symbols[k].utf8);
		} else {
			for (k = 0; k < sizeof(styles) / sizeof(styles[0]); k++)
				if (strlen(styles[k]) == n &&
				    !strncmp(styles[k], s + i, n))
					break;
			if (k == sizeof(styles) / sizeof(styles[0]))
				return err(f, off + at, n + 1, "unsupported TeX "
					   "command '\\%.*s': write the text "
					   "in Unicode", (int)n, s + i);
		}
		i += n;
		/* TeX swallows the spaces after a command's name. */
		if (is_letter(s[i - 1]))
			while (i < len && s[i] == ' ')
				i++;
	}
	return 0;
}

/* A field: its name, its value's text and where the value is. */
struct field {
	char name[32];
	struct buf text;	/* UTF-8 */
	size_t at, len;		/* the value in the file */
	size_t raw, rawlen;	/* one braced or quoted part: its inside */
	int single;		/* the value is that part alone */
};

/* An @string macro. */
struct macro {
	char *name, *text;
};

struct bibparse {
	const struct srcfile *f;
	const char *s;
	size_t i, n;
	struct macro *m;
	size_t nm, mcap;
};

static void
skip_space(struct bibparse *p)
{
	while (p->i < p->n && is_space(p->s[p->i]))
		p->i++;
}

/* What is at i, for "expected X, got Y": a quoted character or "the end". */
static void
got(const struct bibparse *p, struct buf *b)
{
	buf_reset(b);
	if (p->i >= p->n)
		BUF_ADDLIT(b, "the end of the file");
	else if ((unsigned char)p->s[p->i] < 0x80 &&
		 (unsigned char)p->s[p->i] >= 0x20)
		buf_addf(b, "'%c'", p->s[p->i]);
	else
		BUF_ADDLIT(b, "another character");
}

static int
expected(struct bibparse *p, const char *what)
{
	struct buf b = BUF_INIT;

	got(p, &b);
	err(p->f, p->i, 1, "syntax error: expected %s, got %s", what, b.data);
	buf_release(&b);
	return -1;
}

/* A name: letters, digits and _-:.+/ ; its length (0: none). */
static size_t
name_at(const struct bibparse *p)
{
	size_t n = 0;

	while (p->i + n < p->n && (is_letter(p->s[p->i + n]) ||
				   (p->s[p->i + n] >= '0' &&
				    p->s[p->i + n] <= '9') ||
				   strchr("_-:.+/", p->s[p->i + n])))
		n++;
	return n;
}

/*
 * Skips a group from the '{' or '"' at i to its end (braces nested).
 * Returns 0, or -1 after an error at the opening one.
 */
static int
skip_group(struct bibparse *p)
{
	size_t start = p->i, depth = 0;
	char open = p->s[p->i];

	for (p->i++; p->i < p->n; p->i++) {
		char c = p->s[p->i];

		if (c == '\\' && p->i + 1 < p->n) {
			p->i++;
			continue;
		}
		if (c == '{') {
			depth++;
		} else if (c == '}') {
			if (!depth && open == '{') {
				p->i++;
				return 0;
			}
			if (!depth)
				return err(p->f, p->i, 1, "syntax error: "
					   "'}' closes no '{'");
			depth--;
		} else if (c == '"' && open == '"' && !depth) {
			p->i++;
			return 0;
		}
	}
	return err(p->f, start, 1, "syntax error: this '%c' is never "
		   "closed", open);
}

static const char *const months[][2] = {
	{ "jan", "January" }, { "feb", "February" }, { "mar", "March" },
	{ "apr", "April" }, { "may", "May" }, { "jun", "June" },
	{ "jul", "July" }, { "aug", "August" }, { "sep", "September" },
	{ "oct", "October" }, { "nov", "November" }, { "dec", "December" },
};

/*
 * A value at i: parts ({...}, "...", a number, a macro) joined by '#',
 * into fd. Returns 0, or -1 after an error.
 */
static int
value(struct bibparse *p, struct field *fd)
{
	size_t nparts = 0;

	fd->at = p->i;
	for (;;) {
		size_t start = p->i, n, k;

		if (p->i >= p->n)
			return expected(p, "a value");
		if (p->s[p->i] == '{' || p->s[p->i] == '"') {
			if (skip_group(p))
				return -1;
			fd->raw = start + 1;
			fd->rawlen = p->i - start - 2;
			if (tex_text(p->f, fd->raw, fd->rawlen, &fd->text))
				return -1;
		} else if (p->s[p->i] >= '0' && p->s[p->i] <= '9') {
			n = strspn(p->s + p->i, "0123456789");
			buf_add(&fd->text, p->s + p->i, n);
			p->i += n;
		} else if ((n = name_at(p)) && is_letter(p->s[p->i])) {
			for (k = 0; k < p->nm; k++)
				if (strlen(p->m[k].name) == n &&
				    !strncmp(p->m[k].name, p->s + p->i, n))
					break;
			if (k < p->nm) {
				buf_addstr(&fd->text, p->m[k].text);
			} else {
				for (k = 0; k < 12; k++)
					if (n == 3 && !strncmp(months[k][0],
							       p->s + p->i, 3))
						break;
				if (k == 12)
					return err(p->f, p->i, n, "unknown "
						   "@string macro '%.*s'",
						   (int)n, p->s + p->i);
				buf_addstr(&fd->text, months[k][1]);
			}
			p->i += n;
		} else {
			return expected(p, "a value ({...}, \"...\", a "
					"number or a macro)");
		}
		nparts++;
		fd->len = p->i - fd->at;
		skip_space(p);
		if (p->i >= p->n || p->s[p->i] != '#')
			break;
		p->i++;
		skip_space(p);
	}
	fd->single = nparts == 1 && fd->rawlen;
	return 0;
}

/* name = value at i, into fd. Returns 0, or -1 after an error. */
static int
field(struct bibparse *p, struct field *fd)
{
	size_t n = name_at(p), k;

	if (!n || !is_letter(p->s[p->i]))
		return expected(p, "a field name");
	if (n >= sizeof(fd->name))
		return err(p->f, p->i, n, "a field name of %zu characters "
			   "is too long", n);
	for (k = 0; k < n; k++)
		fd->name[k] = (char)(p->s[p->i + k] | (is_letter(p->s[p->i +
							k]) ? 0x20 : 0));
	fd->name[n] = '\0';
	p->i += n;
	skip_space(p);
	if (p->i >= p->n || p->s[p->i] != '=')
		return expected(p, "'=' after the field name");
	p->i++;
	skip_space(p);
	buf_reset(&fd->text);
	fd->raw = fd->rawlen = 0;
	return value(p, fd);
}

static const char *const bib_types[] = {
	"article", "book", "booklet", "inbook", "incollection",
	"inproceedings", "conference", "manual", "mastersthesis", "misc",
	"phdthesis", "proceedings", "techreport", "unpublished", "online",
	"report", "thesis", "software", "dataset", "electronic", "www",
	"patent", "standard", "collection", "mvbook", "periodical",
};

/*
 * Steps over s[*i] of s[0..len) as BibTeX reads it: a backslash takes the
 * next character with it, and braces open and close groups (*depth).
 * Returns 1 when s[*i] stands outside every group and is not a brace.
 */
static int
at_top(const char *s, size_t len, size_t *i, size_t *depth)
{
	if (s[*i] == '\\' && *i + 1 < len) {
		(*i)++;
		return 0;
	}
	if (s[*i] == '{') {
		(*depth)++;
		return 0;
	}
	if (s[*i] == '}' && *depth) {
		(*depth)--;
		return 0;
	}
	return !*depth;
}

/*
 * One BibTeX name, "Family, Given", "Family, Jr, Given" or "Given
 * Family" ("{Particle Data Group}" as it is), at s[0..len) of f (off),
 * added to r.
 */
static int
bib_name(const struct srcfile *f, size_t off, size_t len, struct ref *r)
{
	const char *s = f->data + off;
	size_t i, depth = 0, comma[2], nc = 0;
	struct buf fam = BUF_INIT, giv = BUF_INIT, disp = BUF_INIT;
	int ret = 0;

	for (i = 0; i < len; i++)
		if (at_top(s, len, &i, &depth) && s[i] == ',' && nc < 2)
			comma[nc++] = i;
	if (nc) {
		size_t g = comma[nc - 1] + 1;

		if (tex_text(f, off, comma[0], &fam) ||
		    tex_text(f, off + g, len - g, &giv))
			ret = -1;
	} else {
		/* "Given Family": the family name is the last word. */
		size_t last = 0;

		depth = 0;
		for (i = 0; i < len; i++)
			if (at_top(s, len, &i, &depth) && is_space(s[i]) &&
			    i + 1 < len && !is_space(s[i + 1]))
				last = i + 1;
		if (tex_text(f, off + last, len - last, &fam) ||
		    tex_text(f, off, last, &giv))
			ret = -1;
	}
	if (!ret) {
		buf_addf(&disp, "%s%s%s", giv.data, giv.len ? " " : "",
			 fam.data);
		add_author(r, disp.data, fam.data);
	}
	buf_release(&fam);
	buf_release(&giv);
	buf_release(&disp);
	return ret;
}

/* The author field of one part: names split at " and " outside braces. */
static int
bib_authors(const struct srcfile *f, const struct field *fd, struct ref *r)
{
	const char *s = f->data + fd->raw;
	size_t i, start = 0, depth = 0, len = fd->rawlen;
	int ret = 0;

	for (i = 0; i <= len; i++) {
		size_t a = start, b;

		if (i < len && (!at_top(s, len, &i, &depth) ||
				!is_space(s[i]) || i + 5 > len ||
				strncmp(s + i + 1, "and", 3) ||
				!is_space(s[i + 4])))
			continue;
		b = i;
		while (a < b && is_space(s[a]))
			a++;
		while (b > a && is_space(s[b - 1]))
			b--;
		if (b - a == 6 && !strncmp(s + a, "others", 6))
			r->others = 1;
		else if (b > a && bib_name(f, fd->raw + a, b - a, r))
			ret = -1;
		start = i + 5;
		i += 4;
	}
	end_authors(r);
	return ret;
}

/* The fields of one entry, as a reference. */
static int
bib_entry(struct bibparse *p, struct ref *r, struct field *fds, size_t n)
{
	const char *base = NULL, *vol = NULL, *num = NULL, *pages = NULL;
	static const char *const venues[] = { "journal", "journaltitle",
		"booktitle", "publisher", "howpublished", "institution",
		"school", "organization" };
	size_t i, k, bv = sizeof(venues) / sizeof(venues[0]);
	int ret = 0;

	for (i = 0; i < n; i++) {
		struct field *fd = &fds[i];
		const char *t = fd->text.data, *nm = fd->name;

		if (has_control(t))
			ret = err(p->f, fd->at, fd->len, "field '%s' holds a "
				  "control character", nm);
		if (!strcmp(nm, "title"))
			set(r, F_TITLE, t, fd->at, fd->len);
		else if (!strcmp(nm, "year") || (!strcmp(nm, "date") &&
						 !r->v[F_YEAR]))
			set(r, F_YEAR, t, fd->at, fd->len);
		else if (!strcmp(nm, "doi"))
			set(r, F_DOI, t, fd->at, fd->len);
		else if (!strcmp(nm, "url"))
			set(r, F_URL, t, fd->at, fd->len);
		else if (!strcmp(nm, "volume"))
			vol = t;
		else if (!strcmp(nm, "number") || !strcmp(nm, "issue"))
			num = t;
		else if (!strcmp(nm, "pages"))
			pages = t;
		else if (!strcmp(nm, "author") && !r->nauthors) {
			if (!fd->single)
				ret = err(p->f, fd->at, fd->len, "an author "
					  "list is one {...} or \"...\"");
			else if (bib_authors(p->f, fd, r))
				ret = -1;
		}
	}
	/* The venue: the first of venues[] the entry has. */
	for (k = 0; k < bv && !base; k++)
		for (i = 0; i < n && !base; i++)
			if (!strcmp(fds[i].name, venues[k]) && fds[i].text.len)
				base = fds[i].text.data;
	/* biblatex's date: "2000-08-31" gives its year. */
	if (r->v[F_YEAR] && strlen(r->v[F_YEAR]) > 4 &&
	    r->v[F_YEAR][4] == '-')
		r->v[F_YEAR][4] = '\0';
	set_venue(r, base, vol, num, pages);
	return ret;
}

static void
fields_release(struct field *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_release(&fds[i].text);
	free(fds);
}

/*
 * "@string{name = ...}" after its '{' or '(': the macro, kept for the
 * fields after it. Returns 0, or -1 after an error.
 */
static int
read_macro(struct bibparse *p, char close)
{
	struct field fd = { "", BUF_INIT, 0, 0, 0, 0, 0 };

	if (field(p, &fd)) {
		buf_release(&fd.text);
		return -1;
	}
	skip_space(p);
	if (p->i >= p->n || p->s[p->i] != close) {
		buf_release(&fd.text);
		return expected(p, close == '}' ? "'}'" : "')'");
	}
	p->i++;
	p->m = xgrow(p->m, &p->mcap, p->nm + 1, sizeof(*p->m));
	p->m[p->nm].name = xstrdup(fd.name);
	p->m[p->nm++].text = buf_detach(&fd.text, NULL);
	return 0;
}

/*
 * The key of entry r, at p->i (up to ',', white space or the end of the
 * entry), and its type, the tl bytes at ts, checked against
 * bib_types[] (an error with the closest). Returns the key's length;
 * *ret is -1 after an error.
 */
static size_t
read_key(struct bibparse *p, struct ref *r, size_t ts, size_t tl, int *ret)
{
	struct buf key = BUF_INIT, type = BUF_INIT, hint = BUF_INIT;
	size_t keyat = p->i, keylen = 0, k, n = sizeof(bib_types) /
		sizeof(bib_types[0]);
	const char *near[3];
	struct suggest sg;

	while (keyat + keylen < p->n && !strchr(",{}()\"=#",
					       p->s[keyat + keylen]) &&
	       !is_space(p->s[keyat + keylen]))
		keylen++;
	buf_add(&key, p->s + keyat, keylen);
	set(r, F_KEY, key.data, keyat, keylen);
	for (k = 0; k < tl; k++)
		buf_addch(&type, p->s[ts + k] | 0x20);
	for (k = 0; k < n && strcmp(type.data, bib_types[k]); k++)
		;
	if (k == n) {
		suggest_init(&sg, type.data, near, 3);
		for (k = 0; k < n; k++)
			suggest_add(&sg, bib_types[k]);
		suggest_hint(&hint, near, suggest_end(&sg));
		*ret = err(p->f, ts, tl, "unknown entry type '@%s'%s",
			   type.data, hint.data);
	}
	buf_release(&key);
	buf_release(&type);
	buf_release(&hint);
	p->i += keylen;
	return keylen;
}

/*
 * The fields of entry r after its key, up to close, into *fds (*nf of
 * them, *fcap allocated); head is where the entry starts and the
 * length of "@type", keyed whether it has a key. Returns 0, or -1
 * after a syntax error.
 */
static int
read_fields(struct bibparse *p, const struct ref *r, char close,
	    const struct srcloc *head, int keyed, struct field **fds,
	    size_t *nf, size_t *fcap)
{
	for (;;) {
		skip_space(p);
		if (p->i < p->n && p->s[p->i] == close) {
			p->i++;
			return 0;
		}
		if (p->i >= p->n)
			return err(p->f, head->off, head->len, "entry '%s' is "
				   "not closed: the file ends inside it (a "
				   "'{' left open?)", r->v[F_KEY]);
		if (p->s[p->i] != ',')
			return expected(p, *nf || keyed ? "',' or the end of "
					"the entry" : "a key");
		p->i++;
		skip_space(p);
		if (p->i < p->n && p->s[p->i] == close) {
			p->i++;
			return 0;
		}
		*fds = xgrow(*fds, fcap, *nf + 1, sizeof(**fds));
		memset(&(*fds)[*nf], 0, sizeof((*fds)[*nf]));
		buf_init(&(*fds)[*nf].text);
		if (field(p, &(*fds)[(*nf)++]))
			return -1;
	}
}

/*
 * The entries of a BibTeX file: text between entries is a comment, as
 * for BibTeX; @comment and @preamble are skipped, @string defines a
 * macro. Stops at the first syntax error. Returns 0, or -1 after
 * printing the errors.
 */
static int
read_bibtex(struct refs *rs)
{
	struct bibparse p = { rs->f, rs->f->data, 0, rs->f->len, NULL, 0, 0 };
	struct field *fds = NULL;
	struct ref *r = NULL;
	size_t nf = 0, fcap = 0, k;
	int ret = 0;

	while (p.i < p.n) {
		const char *at = memchr(p.s + p.i, '@', p.n - p.i);
		size_t start, ts, tl, keylen;
		struct srcloc head;
		char close;

		if (!at)
			break;
		start = p.i = (size_t)(at - p.s);
		p.i++;
		skip_space(&p);
		ts = p.i;
		tl = 0;
		while (p.i + tl < p.n && is_letter(p.s[p.i + tl]))
			tl++;
		if (!tl) {
			ret = expected(&p, "an entry type after '@'");
			break;
		}
		p.i += tl;
		skip_space(&p);
		if (p.i >= p.n || (p.s[p.i] != '{' && p.s[p.i] != '(')) {
			ret = expected(&p, "'{' after the entry type");
			break;
		}
		close = p.s[p.i] == '{' ? '}' : ')';
		if ((tl == 7 && !strncasecmp(p.s + ts, "comment", 7)) ||
		    (tl == 8 && !strncasecmp(p.s + ts, "preamble", 8))) {
			if (close == '}' && skip_group(&p)) {
				ret = -1;
				break;
			}
			continue;
		}
		p.i++;
		skip_space(&p);
		if (tl == 6 && !strncasecmp(p.s + ts, "string", 6)) {
			if (read_macro(&p, close)) {
				ret = -1;
				break;
			}
			continue;
		}
		if (rs->n >= MAX_REFS) {
			ret = err(rs->f, start, 1, "more than %d entries: "
				  "the references list is not a library",
				  MAX_REFS);
			break;
		}
		r = new_ref(rs, start, ts + tl - start);
		keylen = read_key(&p, r, ts, tl, &ret);
		head = (struct srcloc){ rs->f, start, ts + tl - start };
		nf = 0;
		if (read_fields(&p, r, close, &head, keylen > 0, &fds, &nf,
				&fcap)) {
			ret = -1;
			goto out;
		}
		if (bib_entry(&p, r, fds, nf))
			ret = -1;
		r = NULL;
		for (k = 0; k < nf; k++)
			buf_release(&fds[k].text);
		nf = 0;
	}
out:
	/* An entry cut by a syntax error is not checked: its errors would
	   be the syntax error's echoes ("has no title"). */
	if (r) {
		ref_release(r);
		rs->n--;
	}
	fields_release(fds, nf);
	for (k = 0; k < p.nm; k++) {
		free(p.m[k].name);
		free(p.m[k].text);
	}
	free(p.m);
	return ret;
}

/* --- CSL-JSON ---------------------------------------------------------- */

/*
 * Where things are in a JSON text jansson has accepted (jansson keeps
 * no positions): the start of each element of the top array and, in
 * each that is an object, where each member's value starts.
 */
struct spot {
	size_t at;		/* the element */
	struct member {
		size_t key, keylen, at;	/* the key's inside; the value */
	} *m;
	size_t nm, mcap;
};

static size_t
skip_string(const char *s, size_t i, size_t n)
{
	for (i++; i < n && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i + 1;
}

static struct spot *
json_spots(const struct srcfile *f, size_t *nspots)
{
	const char *s = f->data;
	size_t i = 0, n = f->len, depth = 0, cap = 0, ns = 0;
	struct spot *sp = NULL;
	int want_key = 0, want_value = 0;

	while (i < n) {
		char c = s[i];

		if (is_space(c)) {
			i++;
			continue;
		}
		if (depth == 1 && c != ',' && c != ']') {
			sp = xgrow(sp, &cap, ns + 1, sizeof(*sp));
			memset(&sp[ns], 0, sizeof(sp[ns]));
			sp[ns++].at = i;
			/* A number or a literal: one element, however long. */
			if (c != '"' && c != '{' && c != '[') {
				while (i < n && s[i] != ',' && s[i] != ']' &&
				       !is_space(s[i]))
					i++;
				continue;
			}
		}
		if (depth == 2 && want_value && ns) {
			struct spot *e = &sp[ns - 1];

			if (e->nm)
				e->m[e->nm - 1].at = i;
			want_value = 0;
		}
		if (c == '"') {
			size_t end = skip_string(s, i, n);

			if (depth == 2 && want_key && ns) {
				struct spot *e = &sp[ns - 1];

				e->m = xgrow(e->m, &e->mcap, e->nm + 1,
					     sizeof(*e->m));
				e->m[e->nm].key = i + 1;
				e->m[e->nm].keylen = end - i - 2;
				e->m[e->nm++].at = i;
				want_key = 0;
			}
			i = end;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
			want_key = depth == 2 && c == '{';
		} else if (c == '}' || c == ']') {
			if (depth)
				depth--;
		} else if (c == ',' && depth == 2) {
			want_key = 1;
		} else if (c == ':' && depth == 2) {
			want_value = 1;
		}
		i++;
	}
	*nspots = ns;
	return sp;
}

/* Where member name of element e has its value, else where e starts. */
static size_t
spot_of(const struct srcfile *f, const struct spot *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nm; i++)
		if (e->m[i].keylen == strlen(name) &&
		    !memcmp(f->data + e->m[i].key, name, e->m[i].keylen))
			return e->m[i].at;
	return e->at;
}

static const char *const csl_types[] = {
	"article", "article-journal", "article-magazine", "article-newspaper",
	"bill", "book", "broadcast", "chapter", "classic", "collection",
	"dataset", "document", "entry", "entry-dictionary",
	"entry-encyclopedia", "event", "figure", "graphic", "hearing",
	"interview", "legal_case", "legislation", "manuscript", "map",
	"motion_picture", "musical_score", "pamphlet", "paper-conference",
	"patent", "performance", "periodical", "personal_communication",
	"post", "post-weblog", "regulation", "report", "review",
	"review-book", "software", "song", "speech", "standard", "thesis",
	"treaty", "webpage",
};

/*
 * The text of member name of object o, or NULL when it has none; a
 * number is written as its digits (a volume, a year). Another type is an
 * error at the member (*bad set).
 */
static const char *
csl_text(const struct srcfile *f, const struct spot *e, json_t *o,
	 const char *name, struct buf *tmp, int *bad)
{
	json_t *v = json_object_get(o, name);

	if (!v)
		return NULL;
	if (json_is_string(v)) {
		if (has_control(json_string_value(v)) ||
		    strlen(json_string_value(v)) != json_string_length(v)) {
			*bad = err(f, spot_of(f, e, name), 1, "'%s' holds a "
				   "control character", name);
			return NULL;
		}
		return json_string_value(v);
	}
	if (json_is_integer(v)) {
		buf_reset(tmp);
		buf_addf(tmp, "%lld", (long long)json_integer_value(v));
		return tmp->data;
	}
	*bad = err(f, spot_of(f, e, name), 1, "'%s': expected a string",
		   name);
	return NULL;
}

/* The CSL "author" array: {family, given, non-dropping-particle} or {literal}. */
static int
csl_authors(const struct srcfile *f, const struct spot *e, json_t *o,
	    struct ref *r)
{
	json_t *a = json_object_get(o, "author"), *p;
	size_t i;
	int ret = 0;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return err(f, spot_of(f, e, "author"), 1, "'author': "
			   "expected an array of names");
	json_array_foreach(a, i, p) {
		struct buf fam = BUF_INIT, disp = BUF_INIT;
		const char *lit, *family, *given, *part;

		if (!json_is_object(p)) {
			ret = err(f, spot_of(f, e, "author"), 1, "'author': "
				  "name %zu is not an object", i + 1);
			continue;
		}
		lit = json_string_value(json_object_get(p, "literal"));
		family = json_string_value(json_object_get(p, "family"));
		given = json_string_value(json_object_get(p, "given"));
		part = json_string_value(json_object_get(p,
						 "non-dropping-particle"));
		if (lit) {
			buf_addstr(&fam, lit);
		} else if (family) {
			if (part)
				buf_addf(&fam, "%s ", part);
			buf_addstr(&fam, family);
		} else {
			ret = err(f, spot_of(f, e, "author"), 1, "'author': "
				  "name %zu has no 'family' nor 'literal'",
				  i + 1);
			continue;
		}
		if (has_control(fam.data) || (given && has_control(given))) {
			ret = err(f, spot_of(f, e, "author"), 1, "'author': "
				  "name %zu holds a control character", i + 1);
		} else {
			buf_addf(&disp, "%s%s%s", given && !lit ? given : "",
				 given && !lit ? " " : "", fam.data);
			add_author(r, disp.data, fam.data);
		}
		buf_release(&fam);
		buf_release(&disp);
	}
	end_authors(r);
	return ret;
}

/* The year of "issued": date-parts [[2000, 8, 31]], or raw "2000-08-31". */
static void
csl_year(const struct srcfile *f, const struct spot *e, json_t *o,
	 struct ref *r)
{
	json_t *d = json_object_get(o, "issued"), *y;
	struct buf b = BUF_INIT;
	size_t at = spot_of(f, e, "issued");

	if (!d)
		return;
	y = json_array_get(json_array_get(json_object_get(d, "date-parts"), 0),
			   0);
	if (json_is_integer(y))
		buf_addf(&b, "%lld", (long long)json_integer_value(y));
	else if (json_is_string(y))
		buf_addstr(&b, json_string_value(y));
	else if (json_is_string(json_object_get(d, "raw")))
		buf_add(&b, json_string_value(json_object_get(d, "raw")),
			strcspn(json_string_value(json_object_get(d, "raw")),
				"-/ "));
	else if (json_is_string(d))
		buf_add(&b, json_string_value(d),
			strcspn(json_string_value(d), "-/ "));
	set(r, F_YEAR, b.data, at, 1);
	buf_release(&b);
}

/*
 * The entries of a CSL-JSON file: an array of objects. Returns 0, or -1
 * after printing the errors.
 */
static int
read_json(struct refs *rs)
{
	const struct srcfile *f = rs->f;
	json_error_t je;
	json_t *root, *o;
	struct spot *sp;
	struct buf t1 = BUF_INIT, t2 = BUF_INIT, t3 = BUF_INIT, t4 = BUF_INIT;
	size_t i, k, ns = 0;
	int ret = 0;

	root = json_loadb(f->data, f->len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return err(f, je.position > 0 ? (size_t)je.position - 1 : 0,
			   1, "syntax error: %s", je.text);
	if (!json_is_array(root)) {
		json_decref(root);
		return err(f, f->len - strlen(f->data + strspn(f->data,
							       " \t\r\n")),
			   1, "CSL-JSON is an array of entries ('[...]')");
	}
	sp = json_spots(f, &ns);
	if (ns != json_array_size(root))
		BUG("json_spots() found %zu elements, jansson %zu", ns,
		    json_array_size(root));
	if (ns > MAX_REFS) {
		ret = err(f, sp[MAX_REFS].at, 1, "more than %d entries: the "
			  "references list is not a library", MAX_REFS);
		goto out;
	}
	json_array_foreach(root, i, o) {
		const struct spot *e = &sp[i];
		const char *key, *type, *s;
		struct ref *r;
		int bad = 0, was;

		if (!json_is_object(o)) {
			ret = err(f, e->at, 1, "an entry is an object "
				  "('{...}')");
			continue;
		}
		r = new_ref(rs, e->at, 1);
		was = bad;
		key = csl_text(f, e, o, "citation-key", &t1, &bad);
		if (key)
			set(r, F_KEY, key, spot_of(f, e, "citation-key"), 1);
		else if ((key = csl_text(f, e, o, "id", &t1, &bad)))
			set(r, F_KEY, key, spot_of(f, e, "id"), 1);
		if (bad != was)
			r->said |= 1u << F_KEY;
		type = csl_text(f, e, o, "type", &t2, &bad);
		if (!type) {
			if (!bad)
				bad = err(f, e->at, 1, "entry '%s' has no "
					  "'type'", key ? key : "");
		} else {
			for (k = 0; k < sizeof(csl_types) /
			     sizeof(csl_types[0]); k++)
				if (!strcmp(type, csl_types[k]))
					break;
			if (k == sizeof(csl_types) / sizeof(csl_types[0])) {
				const char *near[3];
				struct suggest sg;
				struct buf hint = BUF_INIT;
				size_t nn;

				suggest_init(&sg, type, near, 3);
				for (k = 0; k < sizeof(csl_types) /
				     sizeof(csl_types[0]); k++)
					suggest_add(&sg, csl_types[k]);
				nn = suggest_end(&sg);
				suggest_hint(&hint, near, nn);
				bad = err(f, spot_of(f, e, "type"), 1, "unknown "
					  "entry type '%s'%s", type, hint.data);
				buf_release(&hint);
			}
		}
		was = bad;
		if ((s = csl_text(f, e, o, "title", &t1, &bad)))
			set(r, F_TITLE, s, spot_of(f, e, "title"), 1);
		if (bad != was)
			r->said |= 1u << F_TITLE;
		if ((s = csl_text(f, e, o, "DOI", &t1, &bad)))
			set(r, F_DOI, s, spot_of(f, e, "DOI"), 1);
		if ((s = csl_text(f, e, o, "URL", &t1, &bad)))
			set(r, F_URL, s, spot_of(f, e, "URL"), 1);
		csl_year(f, e, o, r);
		if (csl_authors(f, e, o, r))
			bad = -1;
		s = csl_text(f, e, o, "container-title", &t1, &bad);
		if (!s)
			s = csl_text(f, e, o, "publisher", &t1, &bad);
		set_venue(r, s, csl_text(f, e, o, "volume", &t2, &bad),
			  csl_text(f, e, o, "issue", &t3, &bad),
			  csl_text(f, e, o, "page", &t4, &bad));
		if (bad)
			ret = -1;
	}
out:
	for (i = 0; i < ns; i++)
		free(sp[i].m);
	free(sp);
	json_decref(root);
	buf_release(&t1);
	buf_release(&t2);
	buf_release(&t3);
	buf_release(&t4);
	return ret;
}

/* import_refs() on f, which it frees. */
static int
import_srcfile(struct srcfile *f, struct buf *out)
{
	struct refs rs = { f, NULL, 0, 0 };
	size_t i;
	int ret;

	if (!f)
		return -1;
	f->show_source = 1;
	if (srcfile_check_text(f)) {
		srcfile_free(f);
		return -1;
	}
	i = strspn(f->data, " \t\r\n");
	if (f->data[i] == '[' || f->data[i] == '{')
		ret = read_json(&rs);
	else
		ret = read_bibtex(&rs);
	if (!ret && !rs.n)
		ret = err(f, 0, 0, "no references in the file (expected "
			  "BibTeX '@type{key, ...}' entries or a CSL-JSON "
			  "array)");
	if (check(&rs))
		ret = -1;
	if (!ret)
		write_csv(&rs, out);
	for (i = 0; i < rs.n; i++)
		ref_release(&rs.v[i]);
	free(rs.v);
	srcfile_free(f);
	return ret;
}

int
import_refs(const char *path, struct buf *out)
{
	return import_srcfile(srcfile_read(path), out);
}

int
import_refs_mem(const char *name, const char *data, size_t len,
		struct buf *out)
{
	return import_srcfile(srcfile_from_mem(name, data, len), out);
}
