/*
 * The load stage: CSV files in data/ -> struct table, through libcsv.
 * Knows nothing of physics or of what the columns mean; it checks the
 * shape of a file (header, field counts, quoting, UTF-8) and converts
 * cells on request, reporting every problem with its file, line and field.
 *
 * libcsv reports no positions, so rows are fed to it one physical line at
 * a time and the line on which each record starts is counted here.
 */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "suggest.h"
#include "table.h"
#include "timing.h"
#include "xalloc.h"
#include "banned.h"

struct table {
	char *name;
	char *data;		/* the file's bytes, for error positions */
	size_t len;
	uint32_t *offs;		/* byte offset where each row starts,
				   header first (32 bits, as cells) */
	size_t offs_cap;
	size_t ncols;
	size_t nrows;
	const struct table_schema *schema;	/* borrowed, or NULL */
	struct buf text;	/* every cell, NUL-terminated, back to back */
	uint32_t *cells;	/* (nrows + 1) * ncols offsets into text
				   (32 bits: a million-row history stays
				   small; text over 4 GiB is refused);
				   row 0 is the header */
	size_t cells_cap;
	uint32_t *lines;	/* start line of each row, header first */
	size_t lines_cap;
	/* table_unique(): for each row, the first row with its cell in col */
	size_t *first;
	int first_col;		/* -1: not built */
	int show_source;	/* read from a file: errors show its line */
};

/* Parser state shared with the libcsv callbacks. */
struct loader {
	struct table *t;
	size_t line;		/* physical line being fed */
	size_t rec_line;	/* line on which the current record began */
	size_t rec_off;		/* byte offset where it began */
	int in_record;		/* bytes of a record fed, not yet ended */
	size_t *field;		/* offsets of the current record's fields */
	size_t nfield, field_cap;
	size_t errors;
	int stopped;		/* error cap reached */
	const struct table_schema *schema;	/* or NULL */
	/* The schema's column of each header column, or NULL. */
	const struct table_column **hcol;
};

/*
 * Prints an error at the len bytes at byte off of t's file (a caret
 * under each, or one when len is 0), the file's line above the caret
 * when t was read from a file, as a template's errors are. Returns -1.
 */
static int
verror_in(const struct table *t, size_t off, size_t len, const char *fmt,
	  va_list ap) __attribute__((format(printf, 4, 0)));

static int
verror_in(const struct table *t, size_t off, size_t len, const char *fmt,
	  va_list ap)
{
	struct srcfile f = { t->name, t->data, t->len, t->show_source, NULL,
			     NULL };
	struct srcloc loc = { &f, off, len };

	return verror_at(&loc, fmt, ap);
}

static int
error_in(const struct table *t, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
error_in(const struct table *t, size_t off, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_in(t, off, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Reports a problem at the len bytes at byte off of the file being
 * read, up to TABLE_MAX_ERRORS of them.
 */
static int
report(struct loader *ld, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
report(struct loader *ld, size_t off, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (ld->stopped)
		return -1;
	if (ld->errors == TABLE_MAX_ERRORS) {
		error_in(ld->t, off, len, "too many errors, stopping");
		ld->errors++;
		ld->stopped = 1;
		return -1;
	}
	va_start(ap, fmt);
	verror_in(ld->t, off, len, fmt, ap);
	va_end(ap);
	ld->errors++;
	return -1;
}

/* Whether the byte at i ends a line: a LF, or a CR not before a LF. */
static int
is_eol(const char *data, size_t len, size_t i)
{
	return data[i] == '\n' ||
	       (data[i] == '\r' && (i + 1 == len || data[i + 1] != '\n'));
}

/*
 * Where field (0-based) of the record at byte off starts: a quote-aware
 * walk, run only when an error is printed. Its bytes as written (quotes
 * included) go into *span. A field past the end of the record gives the
 * position just after its last byte, and a span of 0.
 */
static size_t
field_at(const char *data, size_t len, size_t off, size_t field,
	 size_t *span)
{
	size_t i, n = 0, end;
	int quoted = 0;

	for (i = off; i < len && n < field; i++) {
		char c = data[i];

		if (c == '"')
			quoted = !quoted;
		else if (c == ',' && !quoted)
			n++;
		else if (!quoted && is_eol(data, len, i))
			break;
	}
	*span = 0;
	if (n < field) {
		if (i > off && (i == len || data[i] == '\n') &&
		    data[i - 1] == '\r')
			i--;
		return i;
	}
	for (end = i, quoted = 0; end < len; end++) {
		if (data[end] == '"')
			quoted = !quoted;
		else if (!quoted && (data[end] == ',' ||
				     is_eol(data, len, end)))
			break;
	}
	*span = end - i;
	return i;
}

/* Reports a problem in field (0-based) of the record being read. */
static int
report_field(struct loader *ld, size_t field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
report_field(struct loader *ld, size_t field, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	size_t off, span;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	off = field_at(ld->t->data, ld->t->len, ld->rec_off, field, &span);
	report(ld, off, span, "%s", msg.data);
	buf_release(&msg);
	return -1;
}

/*
 * The offset of the first control character in the len bytes of valid
 * UTF-8 at p (a C0 control but tab, LF and CR; DEL; a C1 control,
 * U+0080 to U+009F), or len. Such a character has no place in a data
 * cell, and a terminal would obey it (ESC [ 2 J clears the screen)
 * wherever the cell is printed: in a message, by 'explain', in a page.
 */
static size_t
control_at(const void *p, size_t len)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < len; i++)
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' &&
		     s[i] != '\r') || s[i] == 0x7f ||
		    (s[i] == 0xc2 && i + 1 < len && s[i + 1] <= 0x9f))
			return i;
	return len;
}

static void
on_field(void *data, size_t len, void *arg)
{
	struct loader *ld = arg;
	struct table *t = ld->t;
	size_t ok = utf8_valid_prefix(data, len);

	if (ok < len && !((char *)data)[ok])
		report_field(ld, ld->nfield,
			     "NUL byte in field %zu: a data file is text",
			     ld->nfield + 1);
	else if (ok < len)
		report_field(ld, ld->nfield,
			     "invalid UTF-8 byte 0x%02x in field %zu",
			     ((unsigned char *)data)[ok], ld->nfield + 1);
	else if ((ok = control_at(data, len)) < len)
		report_field(ld, ld->nfield,
			     "control character U+%04X in field %zu: a cell "
			     "is text (a tab and line breaks aside)",
			     ((unsigned char *)data)[ok] == 0xc2 ?
			     ((unsigned char *)data)[ok + 1] :
			     ((unsigned char *)data)[ok], ld->nfield + 1);
	ld->field = xgrow(ld->field, &ld->field_cap, ld->nfield + 1,
			  sizeof(*ld->field));
	ld->field[ld->nfield++] = t->text.len;
	buf_add(&t->text, data, len);
	buf_addch(&t->text, '\0');
}

/* qsort() has no context argument: the text the offsets point into. */
static const char *sort_text;
static const size_t *sort_offs;

static int
by_text(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_text + sort_offs[i], sort_text + sort_offs[j]);

	return c ? c : (i > j) - (i < j);
}

/*
 * For each of the n strings at text + offs[i], the index of the first
 * one equal to it (itself when it is the first): sorted, not compared
 * pairwise, so that 100,000 columns or rows take milliseconds. The
 * caller frees the array.
 */
static size_t *
first_of_each(const char *text, const size_t *offs, size_t n)
{
	size_t *order = xcalloc(n ? n : 1, sizeof(*order));
	size_t *first = xcalloc(n ? n : 1, sizeof(*first));
	size_t i, run = 0;

	for (i = 0; i < n; i++)
		order[i] = i;
	sort_text = text;
	sort_offs = offs;
	if (n)
		qsort(order, n, sizeof(*order), by_text);
	for (i = 0; i < n; i++) {
		if (i && strcmp(text + offs[order[i]], text + offs[order[run]]))
			run = i;
		first[order[i]] = order[run];
	}
	free(order);
	return first;
}

const char *
table_kind_name(enum table_kind kind)
{
	switch (kind) {
	case TABLE_KIND_TEXT:
		return "text";
	case TABLE_KIND_ID:
		return "id";
	case TABLE_KIND_NUMBER:
		return "number";
	case TABLE_KIND_YEAR:
		return "year";
	case TABLE_KIND_MONTH:
		return "month";
	}
	BUG("table kind %d", (int)kind);
}

/* Whether s reads as a decimal number, as table_num() takes one. */
static int
is_number(const char *s)
{
	char *end;

	if (!*s || !strchr(".0123456789", s[*s == '+' || *s == '-']) ||
	    strpbrk(s, "xX"))
		return 0;
	(void)strtod(s, &end);
	return !*end;
}

/*
 * Whether cell looks like what column c holds (any cell does when c is
 * NULL: a column the schema does not know). For guessing only: the
 * loaders check cells with the getters.
 */
static int
looks_like(const struct table_column *c, const char *cell)
{
	size_t i;

	if (!c)
		return 1;
	if (!*cell)
		return !!(c->flags & TABLE_COL_EMPTY);
	switch (c->kind) {
	case TABLE_KIND_TEXT:
		return !is_number(cell);
	case TABLE_KIND_ID:
		return strspn(cell, TABLE_ID_CHARS) == strlen(cell) &&
		       strlen(cell) <= TABLE_ID_MAX;
	case TABLE_KIND_NUMBER:
		return is_number(cell);
	case TABLE_KIND_YEAR:
		return strspn(cell, "0123456789") == strlen(cell);
	case TABLE_KIND_MONTH:
		for (i = 0; i < 7; i++)
			if (i == 4 ? cell[i] != '-' :
			    (cell[i] < '0' || cell[i] > '9'))
				return 0;
		return !cell[7];
	}
	return 1;
}

/* A known column and a header name this close are one misspelt. */
static int
misspelt(const char *known, const char *header)
{
	return suggest_distance(known, header) <= 1 + strlen(known) / 6;
}

/*
 * Checks the header against the schema: every required column present;
 * a header name close to a known column it lacks is a misspelling.
 * Fills ld->hcol.
 */
static void
check_header(struct loader *ld)
{
	const struct table_schema *sc = ld->schema;
	struct table *t = ld->t;
	size_t i, k, n = ld->nfield;
	unsigned char *used = xcalloc(n ? n : 1, 1);

	ld->hcol = xcalloc(n ? n : 1, sizeof(*ld->hcol));
	for (i = 0; i < n; i++)
		for (k = 0; k < sc->ncols && !ld->hcol[i]; k++)
			if (!strcmp(t->text.data + ld->field[i],
				    sc->cols[k].name))
				ld->hcol[i] = &sc->cols[k];
	for (k = 0; k < sc->ncols; k++) {
		const struct table_column *c = &sc->cols[k];
		size_t best = n;

		for (i = 0; i < n; i++)
			if (ld->hcol[i] == c)
				break;
		if (i < n || (c->flags & TABLE_COL_OPTIONAL))
			continue;
		for (i = 0; i < n && best == n; i++)
			if (!ld->hcol[i] && !used[i] &&
			    misspelt(c->name, t->text.data + ld->field[i]))
				best = i;
		if (best < n) {
			used[best] = 1;
			report_field(ld, best,
				     "missing required column '%s': is '%s' "
				     "a misspelling of it?", c->name,
				     t->text.data + ld->field[best]);
		} else {
			report(ld, ld->rec_off, 0, "missing required column "
			       "'%s'", c->name);
		}
	}
	/* An unknown name close to an optional column the header lacks. */
	for (i = 0; i < n; i++) {
		const char *h = t->text.data + ld->field[i];

		if (ld->hcol[i] || used[i])
			continue;
		for (k = 0; k < sc->ncols; k++) {
			size_t j;

			for (j = 0; j < n && ld->hcol[j] != &sc->cols[k]; j++)
				;
			if (j == n && misspelt(sc->cols[k].name, h))
				break;
		}
		if (k < sc->ncols)
			report_field(ld, i, "unknown column "
				     "'%s'; did you mean '%s'?", h,
				     sc->cols[k].name);
	}
	free(used);
}

/*
 * A row with one field too few: the columns it may leave out, those
 * whose absence lines the other fields up with the columns' kinds.
 * Columns that may be empty or absent come first when there are such:
 * a value that can be left out is the likelier to be. Returns how many,
 * into out[] (at most 3; 0 when it cannot tell).
 */
static size_t
missing_columns(const struct loader *ld, size_t *out)
{
	const struct table *t = ld->t;
	size_t p, i, n = 0, nopt = 0, cand[3], opt[3];

	if (!ld->hcol || ld->nfield + 1 != t->ncols)
		return 0;
	for (p = 0; p < t->ncols; p++) {
		for (i = 0; i < ld->nfield; i++)
			if (!looks_like(ld->hcol[i < p ? i : i + 1],
					t->text.data + ld->field[i]))
				break;
		if (i < ld->nfield)
			continue;
		if (n == 3)
			return 0;	/* anything goes: no guess */
		cand[n++] = p;
		if (!ld->hcol[p] || (ld->hcol[p]->flags & (TABLE_COL_EMPTY |
							  TABLE_COL_OPTIONAL)))
			opt[nopt++] = p;
	}
	if (nopt && nopt < n)
		memcpy(cand, opt, (n = nopt) * sizeof(*cand));
	memcpy(out, cand, n * sizeof(*cand));
	return n;
}

/* Reports a record with too few fields, naming what it leaves out. */
static void
too_few(struct loader *ld)
{
	struct table *t = ld->t;
	struct buf cols = BUF_INIT;
	size_t miss[3], n = missing_columns(ld, miss), i;

	if (n == 1)
		report_field(ld, miss[0], "too few fields: "
			     "expected %zu, got %zu: column '%s' is missing "
			     "(the other fields line up without it)",
			     t->ncols, ld->nfield,
			     t->text.data + t->cells[miss[0]]);
	else if (n) {
		for (i = 0; i < n; i++)
			buf_addf(&cols, "%s'%s'", i ? (i + 1 == n ? " or " :
						   ", ") : "",
				 t->text.data + t->cells[miss[i]]);
		report_field(ld, miss[0], "too few fields: "
			     "expected %zu, got %zu: column %s is missing "
			     "(the other fields line up without any one of "
			     "them)",
			     t->ncols, ld->nfield, cols.data);
	} else {
		/* The header's first names: enough to know the file by. */
		for (i = 0; i < t->ncols && i < 12; i++)
			buf_addf(&cols, "%s%s", i ? "," : "",
				 t->text.data + t->cells[i]);
		if (i < t->ncols)
			buf_addf(&cols, ", and %zu more", t->ncols - i);
		report_field(ld, t->ncols, "too few fields: "
			     "expected %zu (%s), got %zu", t->ncols,
			     cols.data, ld->nfield);
	}
	buf_release(&cols);
}

static void
on_record(int c, void *arg)
{
	struct loader *ld = arg;
	struct table *t = ld->t;
	size_t i, row = t->nrows + 1;

	(void)c;
	ld->in_record = 0;
	if (t->ncols == 0) {
		/* The header row: column names must be non-empty, distinct. */
		size_t *first = first_of_each(t->text.data, ld->field,
					      ld->nfield);

		t->ncols = ld->nfield;
		for (i = 0; i < ld->nfield; i++) {
			const char *h = t->text.data + ld->field[i];

			if (!*h)
				report_field(ld, i,
					     "empty column name in header");
			else if (first[i] != i)
				report_field(ld, i,
					     "duplicate column '%s' in header "
					     "(also field %zu)", h,
					     first[i] + 1);
		}
		free(first);
		if (ld->schema)
			check_header(ld);
		/*
		 * Rows read against a broken header only repeat its error
		 * on every line (a duplicated column makes each row one
		 * field short): the header's errors are the file's.
		 */
		if (ld->errors)
			ld->stopped = 1;
		row = 0;
	} else if (ld->nfield != t->ncols) {
		if (ld->nfield > t->ncols)
			report_field(ld, t->ncols,
				     "too many fields: expected %zu, got %zu",
				     t->ncols, ld->nfield);
		else
			too_few(ld);
		ld->nfield = 0;
		return;
	}
	t->cells = xgrow(t->cells, &t->cells_cap, (row + 1) * t->ncols,
			 sizeof(*t->cells));
	if (t->text.len > UINT32_MAX || ld->rec_off > UINT32_MAX)
		die("'%s' holds more than 4 GiB of text", t->name);
	for (i = 0; i < t->ncols; i++)
		t->cells[row * t->ncols + i] = (uint32_t)ld->field[i];
	t->lines = xgrow(t->lines, &t->lines_cap, row + 1, sizeof(*t->lines));
	t->lines[row] = (uint32_t)ld->rec_line;	/* <= rec_off + 1 */
	t->offs = xgrow(t->offs, &t->offs_cap, row + 1, sizeof(*t->offs));
	t->offs[row] = (uint32_t)ld->rec_off;
	if (row)
		t->nrows++;
	ld->nfield = 0;
}

/* A line of nothing but spaces, tabs and a CR holds no record. */
static int
is_blank_line(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * The end of the physical line that starts at pos: the offset of its
 * LF, of its CR when a CR ends it alone (old Mac line ends, which libcsv
 * takes for record ends too), or len.
 */
static size_t
line_end(const char *data, size_t len, size_t pos)
{
	while (pos < len && data[pos] != '\n' && data[pos] != '\r')
		pos++;
	if (pos + 1 < len && data[pos] == '\r' && data[pos + 1] == '\n')
		pos++;
	return pos;
}

/*
 * libcsv is fed a line in pieces of at most this many bytes, so that a
 * signal stops a 10 MB field within one piece.
 */
#define FEED_CHUNK (64 * 1024)

static void
parser_init(struct csv_parser *p)
{
	if (csv_init(p, CSV_STRICT | CSV_STRICT_FINI))
		die("cannot initialise the CSV parser");
	csv_set_realloc_func(p, xrealloc);
}

/*
 * Feeds libcsv len bytes at s in pieces of FEED_CHUNK. libcsv grows its
 * field buffer by a fixed step (128 bytes unless told), so a 10 MB
 * field took 80,000 reallocations, each a copy under AddressSanitizer:
 * the step is set to half the buffer before each piece (growth by 1.5,
 * as buf.c grows), and never less than a piece. Returns the bytes
 * parsed (len, or where libcsv stopped on an error); stops early, at a
 * piece's end, when a signal came (diag_interrupted()).
 */
static size_t
feed(struct csv_parser *p, const char *s, size_t len, struct loader *ld)
{
	size_t done = 0;

	while (done < len) {
		size_t n = len - done, got, step;

		if (n > FEED_CHUNK)
			n = FEED_CHUNK;
		step = csv_get_buffer_size(p) / 2;
		csv_set_blk_size(p, step > FEED_CHUNK ? step : FEED_CHUNK);
		got = csv_parse(p, s + done, n, on_field, on_record, ld);
		done += got;
		if (got != n || ld->stopped)
			break;
		if (done < len && diag_interrupted())
			break;
	}
	return done;
}

/*
 * Parses t->data, checked against schema when not NULL; returns 0, or
 * -1 after printing every error.
 */
static int
parse(struct table *t, const struct table_schema *schema)
{
	const char *data = t->data;
	size_t len = t->len;
	struct csv_parser p;
	struct loader ld = { 0 };
	size_t pos = 0;

	ld.t = t;
	ld.schema = schema;
	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		pos = 3;
	parser_init(&p);
	while (pos < len && !ld.stopped) {
		size_t eol = line_end(data, len, pos);
		size_t end = eol < len ? eol + 1 : len;
		size_t n;

		ld.line++;
		/* A million rows take a second: Ctrl-C stops it. */
		if (diag_interrupted())
			break;
		if (!ld.in_record) {
			if (is_blank_line(data + pos, eol - pos)) {
				pos = end;
				continue;
			}
			ld.in_record = 1;
			ld.rec_line = ld.line;
			ld.rec_off = pos;
		}
		n = feed(&p, data + pos, end - pos, &ld);
		if (diag_interrupted())
			break;
		if (n != end - pos && !ld.stopped) {
			report(&ld, pos + n, 1, "%s",
			       csv_error(&p) == CSV_EPARSE
				       ? "malformed quoting: a quote inside "
					 "an unquoted field or after a closing "
					 "quote"
				       : csv_strerror(csv_error(&p)));
			/* Resynchronise on the next line. */
			csv_free(&p);
			parser_init(&p);
			ld.in_record = 0;
			ld.nfield = 0;
			/* Without a header nothing after it can be read. */
			if (t->ncols == 0)
				break;
		}
		pos = end;
	}
	if (diag_interrupted()) {
		ld.errors++;
		ld.stopped = 1;
	}
	if (!ld.stopped && csv_fini(&p, on_field, on_record, &ld))
		report_field(&ld, ld.nfield,
			     "unterminated quoted field");
	csv_free(&p);
	free(ld.field);
	free(ld.hcol);
	/* No line to show: the file has none. */
	if (!ld.errors && t->ncols == 0)
		ld.errors += error_at_line(t->name, 1, 1, "empty file: "
					   "expected a header line") < 0;
	return ld.errors ? -1 : 0;
}

/*
 * Checks one cell against what its column holds (column c of the
 * schema); an empty cell passes where the column may be empty. Returns
 * 0, or -1 after printing the error the getters print.
 */
static int
check_cell(const struct table *t, size_t row, int col,
	   const struct table_column *c)
{
	const char *s;
	double v;
	int y;

	if (!*table_cell(t, row, col) && (c->flags & TABLE_COL_EMPTY))
		return 0;
	switch (c->kind) {
	case TABLE_KIND_TEXT:
		return table_text(t, row, col, &s);
	case TABLE_KIND_ID:
		return table_id(t, row, col, &s);
	case TABLE_KIND_NUMBER:
		return table_num(t, row, col, 0, &v);
	case TABLE_KIND_YEAR:
		return table_year(t, row, col, TABLE_YEAR_MIN, TABLE_YEAR_MAX,
				  &y);
	case TABLE_KIND_MONTH:
		return table_month(t, row, col, TABLE_YEAR_MIN,
				   TABLE_YEAR_MAX, &v);
	}
	BUG("table kind %d", (int)c->kind);
}

/*
 * Checks every cell of every column the schema declares, whether a
 * loader reads the column or not: schema.c is the one list of what the
 * columns hold, and a column no loader reads (top500.csv's rpeak_flops)
 * is still published. What a value means (positive, a year the model
 * knows) the loaders check. Returns 0, or -1 after printing up to
 * TABLE_MAX_ERRORS errors.
 */
static int
check_cells(const struct table *t, const struct table_schema *schema)
{
	int *col = xcalloc(schema->ncols ? schema->ncols : 1, sizeof(*col));
	size_t r, k, errors = 0;

	for (k = 0; k < schema->ncols; k++)
		col[k] = table_find(t, schema->cols[k].name);
	for (r = 0; r < t->nrows; r++) {
		/* A million rows: Ctrl-C stops it. */
		if (r % 4096 == 0 && diag_interrupted()) {
			errors++;
			break;
		}
		if (errors >= TABLE_MAX_ERRORS) {
			error_in(t, t->offs[r + 1], 0,
				 "too many errors, stopping");
			break;
		}
		for (k = 0; k < schema->ncols && errors < TABLE_MAX_ERRORS;
		     k++)
			if (col[k] >= 0 &&
			    check_cell(t, r, col[k], &schema->cols[k]))
				errors++;
	}
	free(col);
	return errors ? -1 : 0;
}

/*
 * Takes ownership of data (len bytes, NUL-terminated); show_source: its
 * errors show the line of the file (read from one, not from memory).
 */
static struct table *
table_from(const char *name, char *data, size_t len,
	   const struct table_schema *schema, int show_source)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->name = xstrdup(name);
	t->data = data;
	t->len = len;
	t->first_col = -1;
	t->show_source = show_source;
	buf_init(&t->text);
	t->schema = schema;
	if (parse(t, schema) || (schema && check_cells(t, schema))) {
		table_free(t);
		return NULL;
	}
	return t;
}

int
table_col(const struct table *t, const char *name)
{
	size_t k;

	if (!t->schema)
		BUG("%s: no schema to find column '%s' in", t->name, name);
	for (k = 0; k < t->schema->ncols; k++)
		if (!strcmp(t->schema->cols[k].name, name))
			return table_find(t, name);
	BUG("%s: column '%s' is not in the catalogue (schema.c)", t->name,
	    name);
}

int
table_role(const struct table *t, unsigned flag)
{
	size_t k;

	for (k = 0; t->schema && k < t->schema->ncols; k++)
		if (t->schema->cols[k].flags & flag)
			return table_find(t, t->schema->cols[k].name);
	return -1;
}

const struct table_column *
table_column_of(const struct table *t, int col)
{
	size_t k;

	if (!t->schema || col < 0 || (size_t)col >= t->ncols)
		return NULL;
	for (k = 0; k < t->schema->ncols; k++)
		if (!strcmp(t->schema->cols[k].name, table_header(t, col)))
			return &t->schema->cols[k];
	return NULL;
}

const struct table_schema *
table_schema_of(const struct table *t)
{
	return t->schema;
}

struct table *
table_parse(const char *name, const char *data, size_t len)
{
	return table_from(name, xstrndup(data, len), len, NULL, 0);
}

struct table *
table_parse_schema(const char *name, const char *data, size_t len,
		   const struct table_schema *schema)
{
	return table_from(name, xstrndup(data, len), len, schema, 0);
}

struct table *
table_load(const char *path, const struct table_schema *schema)
{
	struct srcfile *f;
	struct table *t = NULL;

	timing_begin("load");
	f = srcfile_read(path);
	if (f) {
		t = table_from(path, f->data, f->len, schema, 1);
		f->data = NULL;
		srcfile_free(f);
	}
	timing_end();
	return t;
}

void
table_free(struct table *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->data);
	free(t->offs);
	buf_release(&t->text);
	free(t->cells);
	free(t->lines);
	free(t->first);
	free(t);
}

const char *
table_name(const struct table *t)
{
	return t->name;
}

const char *
table_source(const struct table *t, size_t *len)
{
	*len = t->len;
	return t->data;
}

size_t
table_rows(const struct table *t)
{
	return t->nrows;
}

size_t
table_cols(const struct table *t)
{
	return t->ncols;
}

const char *
table_header(const struct table *t, size_t col)
{
	if (col >= t->ncols)
		BUG("column %zu of %zu", col, t->ncols);
	return t->text.data + t->cells[col];
}

size_t
table_line(const struct table *t, size_t row)
{
	if (row >= t->nrows)
		BUG("row %zu of %zu", row, t->nrows);
	return t->lines[row + 1];
}

size_t
table_row_at_line(const struct table *t, size_t line)
{
	size_t lo = 0, hi = t->nrows;

	/* Rows start on increasing lines: the header's, then each row's. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->lines[mid + 1] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nrows && t->lines[lo + 1] == line ? lo : SIZE_MAX;
}

int
table_find(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(table_header(t, i), name))
			return (int)i;
	return -1;
}

int
table_require(const struct table *t, const char *name)
{
	int c = table_find(t, name);

	if (c < 0)
		error_in(t, t->offs[0], 0, "missing required column '%s'",
			 name);
	return c;
}

const char *
table_cell(const struct table *t, size_t row, int col)
{
	if (row >= t->nrows || col < 0 || (size_t)col >= t->ncols)
		BUG("cell %zu,%d of %zux%zu", row, col, t->nrows, t->ncols);
	return t->text.data + t->cells[(row + 1) * t->ncols + (size_t)col];
}

int
table_error(const struct table *t, size_t row, int col, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;
	size_t off, span;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	off = field_at(t->data, t->len, t->offs[row + 1], (size_t)col, &span);
	error_in(t, off, span, "column '%s': %s", table_header(t, (size_t)col),
		 msg.data);
	buf_release(&msg);
	return -1;
}

int
table_error_in(const struct table *t, size_t row, int col, size_t within,
	       const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;
	size_t i, k, span;
	int quoted;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/* The field's first byte, then within bytes of its text on. */
	i = field_at(t->data, t->len, t->offs[row + 1], (size_t)col, &span);
	quoted = i < t->len && t->data[i] == '"';
	i += quoted;
	for (k = 0; k < within && i < t->len; k++, i++)
		if (quoted && t->data[i] == '"' && i + 1 < t->len &&
		    t->data[i + 1] == '"')
			i++;
	error_in(t, i, 1, "column '%s': %s", table_header(t, (size_t)col),
		 msg.data);
	buf_release(&msg);
	return -1;
}

int
table_num(const struct table *t, size_t row, int col, unsigned flags,
	  double *out)
{
	const char *s = table_cell(t, row, col);
	char *end;
	double v;

	if (!*s) {
		if (flags & TABLE_OPTIONAL) {
			*out = NAN;
			return 0;
		}
		return table_error(t, row, col, "expected a number, got an "
				   "empty cell");
	}
	errno = 0;
	v = strtod(s, &end);
	/*
	 * strtod also takes "inf", "nan" and hexadecimal floats; data files
	 * hold decimal numbers only, so check the first character too.
	 */
	if (end == s || *end ||
	    !strchr(".0123456789", s[*s == '+' || *s == '-']) ||
	    strpbrk(s, "xX"))
		return table_error(t, row, col, "expected a number, got '%s'",
				   s);
	if (!isfinite(v) || errno == ERANGE)
		return table_error(t, row, col, "number '%s' is out of range",
				   s);
	if ((flags & TABLE_POSITIVE) && !(v > 0))
		return table_error(t, row, col, "expected a positive number, "
				   "got '%s'", s);
	if ((flags & TABLE_NONNEG) && v < 0)
		return table_error(t, row, col, "expected a number >= 0, "
				   "got '%s'", s);
	if ((flags & TABLE_INTEGER) && v != floor(v))
		return table_error(t, row, col, "expected a whole number, "
				   "got '%s'", s);
	*out = v;
	return 0;
}

int
table_year(const struct table *t, size_t row, int col, int lo, int hi,
	   int *out)
{
	double v;

	if (table_num(t, row, col, TABLE_INTEGER, &v))
		return -1;
	if (v < lo || v > hi)
		return table_error(t, row, col, "year %s out of range "
				   "%d to %d", table_cell(t, row, col), lo, hi);
	*out = (int)v;
	return 0;
}

int
table_month(const struct table *t, size_t row, int col, int lo, int hi,
	    double *out)
{
	const char *s = table_cell(t, row, col);
	int y, m, i;

	for (i = 0; i < 7; i++)
		if (i == 4 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			break;
	if (i < 7 || s[7])
		return table_error(t, row, col, "expected a list date "
				   "YYYY-MM, got '%s'", s);
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	if (m < 1 || m > 12)
		return table_error(t, row, col, "month %02d out of range 01 "
				   "to 12 in '%s'", m, s);
	if (y < lo || y > hi)
		return table_error(t, row, col, "year %d out of range %d to "
				   "%d in '%s'", y, lo, hi, s);
	*out = y + (m - 0.5) / 12.0;
	return 0;
}

int
table_unique(struct table *t, size_t row, int col)
{
	if (t->first_col != col) {
		size_t *offs = xcalloc(t->nrows ? t->nrows : 1, sizeof(*offs));
		size_t r;

		for (r = 0; r < t->nrows; r++)
			offs[r] = t->cells[(r + 1) * t->ncols + (size_t)col];
		free(t->first);
		t->first = first_of_each(t->text.data, offs, t->nrows);
		t->first_col = col;
		free(offs);
	}
	if (row >= t->nrows)
		BUG("row %zu of %zu", row, t->nrows);
	if (t->first[row] != row)
		return table_error(t, row, col, "duplicate %s '%s' (first on "
				   "line %zu)", table_header(t, (size_t)col),
				   table_cell(t, row, col),
				   table_line(t, t->first[row]));
	return 0;
}

int
table_max_rows(const struct table *t, size_t max, const char *why)
{
	if (t->nrows <= max)
		return 0;
	return error_in(t, t->offs[max + 1], 0, "more than %zu rows: %s", max,
			why);
}

int
table_text(const struct table *t, size_t row, int col, const char **out)
{
	const char *s = table_cell(t, row, col);

	if (!*s)
		return table_error(t, row, col, "expected text, got an empty "
				   "cell");
	*out = s;
	return 0;
}

int
table_id(const struct table *t, size_t row, int col, const char **out)
{
	const char *s = NULL;

	if (table_text(t, row, col, &s))
		return -1;
	*out = s;
	if (s[strspn(s, TABLE_ID_CHARS)])
		return table_error(t, row, col, "'%s' is not a valid id: use "
				   "a-z, 0-9 and _", s);
	if (strlen(s) > TABLE_ID_MAX)
		return table_error(t, row, col, "an id of %zu characters is "
				   "too long: at most %d", strlen(s),
				   TABLE_ID_MAX);
	return 0;
}

const struct table *
tableset_find(const struct tableset *ts, const char *name)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->t[i]->name, name))
			return ts->t[i];
	return NULL;
}

struct table *
tableset_load_as(struct tableset *ts, const char *dir, const char *file,
		 const struct table_schema *schema)
{
	struct buf path = BUF_INIT;
	struct table *t = NULL;
	size_t i;

	buf_addf(&path, "%s/%s", dir, file);
	for (i = 0; i < ts->n && !t; i++)
		if (!strcmp(ts->t[i]->name, path.data))
			t = ts->t[i];
	for (i = 0; i < ts->nfailed && !t; i++)
		if (!strcmp(ts->failed[i], path.data))
			goto out;
	if (!t && (t = table_load(path.data, schema))) {
		ts->t = xgrow(ts->t, &ts->cap, ts->n + 1, sizeof(*ts->t));
		ts->t[ts->n++] = t;
	} else if (!t) {
		ts->failed = xgrow(ts->failed, &ts->failed_cap,
				   ts->nfailed + 1, sizeof(*ts->failed));
		ts->failed[ts->nfailed++] = buf_detach(&path, NULL);
	}
out:
	buf_release(&path);
	return t;
}

/* One thing a stage keeps with the set (tableset_keep()). */
struct tableset_kept {
	char *key;
	void *p;
	void (*free_fn)(void *);
	struct tableset_kept *next;
};

void
tableset_release(struct tableset *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		table_free(ts->t[i]);
	free(ts->t);
	for (i = 0; i < ts->nfailed; i++)
		free(ts->failed[i]);
	free(ts->failed);
	while (ts->kept) {
		struct tableset_kept *k = ts->kept;

		ts->kept = k->next;
		if (k->free_fn)
			k->free_fn(k->p);
		free(k->key);
		free(k);
	}
	memset(ts, 0, sizeof(*ts));
}

void
tableset_keep(struct tableset *ts, const char *key, void *p,
	      void (*free_fn)(void *))
{
	struct tableset_kept *k = xcalloc(1, sizeof(*k));

	k->key = xstrdup(key);
	k->p = p;
	k->free_fn = free_fn;
	k->next = ts->kept;
	ts->kept = k;
}

void *
tableset_kept(const struct tableset *ts, const char *key)
{
	const struct tableset_kept *k;

	for (k = ts->kept; k; k = k->next)
		if (!strcmp(k->key, key))
			return k->p;
	return NULL;
}
