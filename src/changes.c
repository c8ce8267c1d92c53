/*
 * Editions compared: two registries built from the same data as of two
 * years -> the quantities that changed, largest change first, and the
 * data rows added between the two years that caused each change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "changes.h"
#include "mathml.h"
#include "escape.h"
#include "export.h"
#include "format.h"
#include "model.h"
#include "pages.h"
#include "registry.h"
#include "schema.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/* The file name of a path ("data/top500.csv" -> "top500.csv"). */
static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Lines of a file written as runs: "top500.csv:60-68, devices.csv:7". */
struct runs {
	struct buf out;
	const struct table *t;	/* of the run open, or NULL */
	size_t first, last;
};

static void
runs_end(struct runs *rn)
{
	if (!rn->t)
		return;
	buf_addf(&rn->out, "%s%s:%zu", rn->out.len ? ", " : "",
		 base_name(table_name(rn->t)), rn->first);
	if (rn->last != rn->first)
		buf_addf(&rn->out, "-%zu", rn->last);
	rn->t = NULL;
}

/* Adds a line; lines of a file come in increasing order. */
static void
runs_add(struct runs *rn, const struct table *t, size_t line)
{
	if (rn->t == t && line == rn->last + 1) {
		rn->last = line;
		return;
	}
	runs_end(rn);
	rn->t = t;
	rn->first = rn->last = line;
}

static int
by_size(const void *x, const void *y)
{
	const struct change *a = x, *b = y;

	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int
by_name(const void *x, const void *y)
{
	const struct change *a = x, *b = y;

	return strcmp(a->name, b->name);
}

static void
add_change(struct changes *cs, const char *name, const struct quantity *a,
	   const struct quantity *b, double size)
{
	struct change *c;

	cs->c = xgrow(cs->c, &cs->cap, cs->n + 1, sizeof(*cs->c));
	c = &cs->c[cs->n++];
	c->name = name;
	c->a = a;
	c->b = b;
	c->size = size;
}

/* How much a quantity changed, or -1 when it did not. */
static double
change_size(const struct quantity *a, const struct quantity *b)
{
	if (a->type != b->type)
		return INFINITY;
	if (a->type == Q_TEXT)
		return strcmp(a->text, b->text) ? INFINITY : -1;
	if (a->value == b->value)
		return -1;
	if (a->value == 0)
		return INFINITY;
	return fabs((b->value - a->value) / a->value);
}

void
changes_compare(struct changes *cs, const struct registry *a, int ya,
		const struct registry *b, int yb, struct tableset *ts,
		const char *datadir, const char *const *files)
{
	size_t i, r, first_new;

	memset(cs, 0, sizeof(*cs));
	cs->ya = ya;
	cs->yb = yb;
	cs->ra = a;
	cs->rb = b;
	for (i = 0; i < registry_count(b); i++) {
		const struct quantity *qb = registry_at(b, i);
		const struct quantity *qa = registry_get(a, qb->name);
		double size;

		if (qa && (size = change_size(qa, qb)) >= 0)
			add_change(cs, qb->name, qa, qb, size);
	}
	if (cs->n)	/* qsort(NULL, 0) is undefined */
		qsort(cs->c, cs->n, sizeof(*cs->c), by_size);
	cs->nchanged = cs->n;
	first_new = cs->n;
	for (i = 0; i < registry_count(b); i++) {
		const struct quantity *qb = registry_at(b, i);

		if (!registry_get(a, qb->name))
			add_change(cs, qb->name, NULL, qb, INFINITY);
	}
	for (i = 0; i < registry_count(a); i++) {
		const struct quantity *qa = registry_at(a, i);

		if (!registry_get(b, qa->name))
			add_change(cs, qa->name, qa, NULL, INFINITY);
	}
	if (cs->n > first_new)
		qsort(cs->c + first_new, cs->n - first_new, sizeof(*cs->c),
		      by_name);
	/* The rows dated after the earlier edition, up to the later one. */
	for (i = 0; files[i]; i++) {
		const struct table *t;
		struct added_file *af;
		int col;

		t = schema_load(ts, datadir, files[i]);
		col = t ? model_time_column(t) : -1;
		for (r = 0; col >= 0 && r < table_rows(t); r++) {
			int y = model_row_year(t, r, col);
			struct added_row *ar;

			if (y <= ya || y > yb)
				continue;
			if (!cs->nfiles || cs->files[cs->nfiles - 1].t != t) {
				cs->files = xgrow(cs->files, &cs->fcap,
						  cs->nfiles + 1,
						  sizeof(*cs->files));
				af = &cs->files[cs->nfiles++];
				af->t = t;
				af->first = cs->nrows;
				af->n = 0;
				af->runs = NULL;
			}
			cs->rows = xgrow(cs->rows, &cs->rcap, cs->nrows + 1,
					 sizeof(*cs->rows));
			ar = &cs->rows[cs->nrows++];
			ar->t = t;
			ar->row = r;
			ar->line = table_line(t, r);
			ar->year = y;
			cs->files[cs->nfiles - 1].n++;
		}
	}
	/* Each file's added rows as runs of lines, for the causes. */
	for (i = 0; i < cs->nfiles; i++) {
		struct added_file *af = &cs->files[i];
		struct runs rn = { BUF_INIT, NULL, 0, 0 };

		for (r = 0; r < af->n; r++)
			runs_add(&rn, af->t, cs->rows[af->first + r].line);
		runs_end(&rn);
		af->runs = buf_detach(&rn.out, NULL);
	}
}

void
changes_release(struct changes *cs)
{
	size_t i;

	for (i = 0; i < cs->nfiles; i++)
		free(cs->files[i].runs);
	free(cs->files);
	free(cs->c);
	free(cs->rows);
	memset(cs, 0, sizeof(*cs));
}

/*
 * What a quantity was computed from, in reg: the rows named as origins
 * ("devices.csv:7\n") and the files read whole ("top500.csv\n") of it and
 * of its inputs, transitively. seen holds the quantities visited.
 */
struct deps {
	struct buf rows, files;
	const struct quantity **seen;
	size_t nseen, cap;
};

static void walk(const struct registry *reg, const struct quantity *q,
		 struct deps *d);

/*
 * The files a source names when it is a list of whole data files
 * ("data/top500.csv", "disk_capacity.csv, ssd_capacity.csv"), into
 * d->files; a source in words names none.
 */
static void
source_files(const char *src, struct deps *d)
{
	const char *p;
	size_t len;

	for (p = src; *p; p += len + strspn(p + len, ", ")) {
		len = strcspn(p, ", ");
		if (len <= 4 || strncmp(p + len - 4, ".csv", 4) ||
		    (p[len] && strncmp(p + len, ", ", 2)))
			return;
	}
	for (p = src; *p; p += len + strspn(p + len, ", ")) {
		size_t k;

		len = strcspn(p, ", ");
		for (k = len; k && p[k - 1] != '/'; k--)
			;
		buf_addch(&d->files, '\n');
		buf_add(&d->files, p + k, len - k);
		buf_addch(&d->files, '\n');
	}
}

/* Walks the quantities of reg named in q's because (those that exist). */
static void
walk_because(const struct registry *reg, const struct quantity *q,
	     struct deps *d)
{
	struct buf name = BUF_INIT;
	const char *p;
	size_t len;

	for (p = q->because ? q->because : ""; *p; p += len) {
		const struct quantity *c;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		buf_reset(&name);
		buf_add(&name, p, len);
		if (len && (c = registry_get(reg, name.data)))
			walk(reg, c, d);
	}
	buf_release(&name);
}

static void
walk(const struct registry *reg, const struct quantity *q, struct deps *d)
{
	size_t i;

	for (i = 0; i < d->nseen; i++)
		if (d->seen[i] == q)
			return;
	d->seen = xgrow(d->seen, &d->cap, d->nseen + 1, sizeof(*d->seen));
	d->seen[d->nseen++] = q;
	if (q->origin)
		buf_addf(&d->rows, "\n%s\n", base_name(q->origin));
	if (q->source)
		source_files(q->source, d);
	for (i = 0; i < q->ninputs; i++) {
		const struct quantity *in = registry_get(reg, q->inputs[i]);

		if (in)
			walk(reg, in, d);
	}
	walk_because(reg, q, d);
}

static int
by_line(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return (a > b) - (a < b);
}

/* Whether line is one of the n added rows of af (in line order). */
static int
added(const struct changes *cs, const struct added_file *af, size_t line)
{
	size_t lo = 0, hi = af->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		size_t l = cs->rows[af->first + mid].line;

		if (l == line)
			return 1;
		if (l < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * The pick or row that name describes: the quantity ".id" (or ".name")
 * of its longest prefix that has one in reg ("current.laptop.ram":
 * "current.laptop.id"), or NULL.
 */
static const struct quantity *
owner_of(const struct registry *reg, const char *name)
{
	struct buf p = BUF_INIT;
	const struct quantity *q = NULL;
	size_t len = strlen(name);

	while (!q && len) {
		while (len && name[len - 1] != '.')
			len--;
		if (!len)
			break;
		len--;
		buf_reset(&p);
		buf_add(&p, name, len);
		BUF_ADDLIT(&p, ".id");
		q = registry_get(reg, p.data);
		if (!q) {
			buf_reset(&p);
			buf_add(&p, name, len);
			BUF_ADDLIT(&p, ".name");
			q = registry_get(reg, p.data);
		}
	}
	buf_release(&p);
	return q;
}

/*
 * A quantity gone from the later edition went with what replaced the
 * thing it described: the current pick "current.supercomputer" has no
 * storage figure once a newer machine without one is picked. The
 * causes of that pick (its ".id" or ".name" in the later edition) are
 * the gone quantity's.
 */
static void
walk_owner(const struct registry *reg, const char *name, struct deps *d)
{
	const struct quantity *q = owner_of(reg, name);

	if (q)
		walk(reg, q, d);
}

/*
 * A quantity of a pick that picked another row changed with the pick
 * ("series.ssd.fit_verdict.slope" when the verdicts' window moved):
 * the pick's causes are its own too. Only when the owner's value
 * differs between the editions, so that a row that stayed lends no
 * causes of its own to every figure it holds.
 */
static void
walk_moved_owner(const struct changes *cs, const char *name, struct deps *d)
{
	const struct quantity *a = owner_of(cs->ra, name);
	const struct quantity *b = owner_of(cs->rb, name);

	if (!a || !b || strcmp(a->name, b->name))
		return;
	if (a->type == b->type && (a->text ? b->text && !strcmp(a->text,
	    b->text) : !b->text && a->value == b->value))
		return;
	walk(cs->rb, b, d);
}

/*
 * The causes of change i: for each file with added rows, all of them
 * when a quantity it depends on was fitted to the whole file, else those
 * of its rows named as the origin of such a quantity.
 */
void
changes_causes(const struct changes *cs, size_t i, struct buf *out)
{
	const struct change *c = &cs->c[i];
	struct deps d;
	struct buf key = BUF_INIT;
	size_t f, *lines = NULL, nlines = 0, lcap = 0, k;

	memset(&d, 0, sizeof(d));
	buf_init(&d.rows);
	buf_init(&d.files);
	if (c->a) {
		walk(cs->ra, c->a, &d);
		d.nseen = 0;
	}
	if (c->b)
		walk(cs->rb, c->b, &d);
	else
		walk_owner(cs->rb, c->name, &d);
	if (c->a && c->b)
		walk_moved_owner(cs, c->name, &d);
	/*
	 * A quantity new or gone came or went with what decided that it
	 * exists: the pick it describes, as the other edition has it.
	 */
	d.nseen = 0;
	if (!c->a)
		walk_because(cs->ra, c->b, &d);
	else if (!c->b)
		walk_because(cs->rb, c->a, &d);
	for (f = 0; f < cs->nfiles; f++) {
		const struct added_file *af = &cs->files[f];
		const char *name = base_name(table_name(af->t)), *p;
		struct runs rn = { BUF_INIT, NULL, 0, 0 };
		size_t len = strlen(name);

		buf_reset(&key);
		buf_addf(&key, "\n%s\n", name);
		if (d.files.data && strstr(d.files.data, key.data)) {
			buf_addf(out, "%s%s", out->len ? ", " : "", af->runs);
			continue;
		}
		/* Origins: "\nname:line\n" entries of d.rows. */
		nlines = 0;
		for (p = d.rows.data; p && (p = strchr(p, '\n')); p++) {
			if (strncmp(p + 1, name, len) || p[len + 1] != ':')
				continue;
			lines = xgrow(lines, &lcap, nlines + 1, sizeof(*lines));
			lines[nlines] = strtoul(p + len + 2, NULL, 10);
			if (added(cs, af, lines[nlines]))
				nlines++;
		}
		if (nlines)	/* qsort(NULL, 0) is undefined */
			qsort(lines, nlines, sizeof(*lines), by_line);
		for (k = 0; k < nlines; k++)
			if (!k || lines[k] != lines[k - 1])
				runs_add(&rn, af->t, lines[k]);
		runs_end(&rn);
		if (rn.out.len)
			buf_addf(out, "%s%s", out->len ? ", " : "", rn.out.data);
		buf_release(&rn.out);
	}
	free(lines);
	buf_release(&key);
	buf_release(&d.rows);
	buf_release(&d.files);
	free(d.seen);
}

/* A value for people: four significant digits and the unit, or text. */
static void
show_value(struct buf *out, const struct quantity *q)
{
	if (!q) {
		BUF_ADDLIT(out, "-");
		return;
	}
	if (q->type == Q_TEXT) {
		buf_addstr(out, q->text);
		return;
	}
	format_brief(out, q->value, q->unit);
	if (*q->unit && strcmp(q->unit, "year")) {
		BUF_ADDLIT(out, FORMAT_NBSP);
		format_unit(out, q->unit);
	}
}

/* The change as a signed percentage, "+26.2%", or "" for a text. */
static void
show_change(struct buf *out, const struct change *c)
{
	double rel;

	if (!c->a || !c->b || c->a->type != Q_NUMBER ||
	    c->b->type != Q_NUMBER || c->a->value == 0)
		return;
	rel = (c->b->value - c->a->value) / fabs(c->a->value);
	if (fabs(rel) >= 10) {
		buf_addf(out, "x");
		format_sig(out, c->b->value / c->a->value, 3);
		return;
	}
	buf_addstr(out, rel < 0 ? "\u2212" : "+");
	format_fixed(out, fabs(rel) * 100, fabs(rel) < 0.001 ? 4 :
		     fabs(rel) < 0.01 ? 3 : 1);
	buf_addch(out, '%');
}

/* Columns need display width, not bytes: UTF-8 continuations skipped. */
static size_t
width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* s, then spaces to width w, and at least two (a column too wide). */
static void
pad(struct buf *out, const char *s, size_t w)
{
	size_t have = width(s);

	buf_addstr(out, s);
	if (have + 2 > w)
		w = have + 2;
	while (have++ < w)
		buf_addch(out, ' ');
}

/* "2 rows of top500.csv, 1 of devices.csv" for the summary. */
static void
rows_summary(const struct changes *cs, struct buf *out)
{
	size_t r = 0;

	if (!cs->nrows) {
		BUF_ADDLIT(out, "no data rows");
		return;
	}
	while (r < cs->nrows) {
		const struct table *t = cs->rows[r].t;
		size_t n = 0;

		while (r < cs->nrows && cs->rows[r].t == t) {
			n++;
			r++;
		}
		buf_addf(out, "%s%zu %s of %s", out->len ? ", " : "", n,
			 n == 1 ? "row" : "rows", base_name(table_name(t)));
	}
}

/* One change as both tables show it: old, new, change, causes. */
struct cells {
	struct buf a, b, ch, why;
};

/* Fills c with change i; its causes (the costly part) when causes. */
static void
cells_of(const struct changes *cs, size_t i, struct cells *c, int causes)
{
	const struct change *x = &cs->c[i];

	buf_reset(&c->a);
	buf_reset(&c->b);
	buf_reset(&c->ch);
	buf_reset(&c->why);
	show_value(&c->a, x->a);
	show_value(&c->b, x->b);
	show_change(&c->ch, x);
	if (!x->a)
		buf_addstr(&c->ch, "new");
	else if (!x->b)
		buf_addstr(&c->ch, "gone");
	if (causes)
		changes_causes(cs, i, &c->why);
}

static void
cells_release(struct cells *c)
{
	buf_release(&c->a);
	buf_release(&c->b);
	buf_release(&c->ch);
	buf_release(&c->why);
}

/* How many quantities are new in the later edition, and gone from it. */
static void
count_new_gone(const struct changes *cs, size_t *nnew, size_t *ngone)
{
	size_t i;

	*nnew = *ngone = 0;
	for (i = cs->nchanged; i < cs->n; i++) {
		*nnew += !cs->c[i].a;
		*ngone += !cs->c[i].b;
	}
}

/*
 * A cell for the terminal: its no-break spaces (which keep a number
 * together on a page) as plain spaces, so that what `diff` prints can be
 * searched and pasted as typed.
 */
static void
plain_spaces(struct buf *b)
{
	size_t i, j;

	for (i = j = 0; i < b->len; i++, j++) {
		if (i + 1 < b->len && !memcmp(b->data + i, FORMAT_NBSP, 2))
			b->data[j] = ' ', i++;
		else
			b->data[j] = b->data[i];
	}
	b->len = j;
	if (b->data)
		b->data[j] = '\0';
}

/* cells_of() for the terminal. */
static void
text_cells_of(const struct changes *cs, size_t i, struct cells *c, int causes)
{
	cells_of(cs, i, c, causes);
	plain_spaces(&c->a);
	plain_spaces(&c->b);
}

void
changes_text(const struct changes *cs, struct buf *out)
{
	struct cells c = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
	struct buf rows = BUF_INIT, year = BUF_INIT;
	size_t i, wn = 8, wa = 4, wb = 4, wc = 6, nnew, ngone;

	count_new_gone(cs, &nnew, &ngone);
	rows_summary(cs, &rows);
	buf_addf(out, "From the %d edition to the %d edition: %zu %s "
		 "changed, %zu new, %zu gone. Data rows dated ", cs->ya,
		 cs->yb, cs->nchanged, cs->nchanged == 1 ? "quantity" :
		 "quantities", nnew, ngone);
	if (cs->ya + 1 < cs->yb)
		buf_addf(out, "%d-%d", cs->ya + 1, cs->yb);
	else
		buf_addf(out, "%d", cs->yb);
	buf_addf(out, ": %s.\n", rows.data);
	/* The widths of the columns, then the table. */
	for (i = 0; i < cs->n; i++) {
		text_cells_of(cs, i, &c, 0);
		if (strlen(cs->c[i].name) > wn)
			wn = strlen(cs->c[i].name);
		if (width(c.a.data) > wa && width(c.a.data) <= 40)
			wa = width(c.a.data);
		if (width(c.b.data) > wb && width(c.b.data) <= 40)
			wb = width(c.b.data);
		if (width(c.ch.data) > wc)
			wc = width(c.ch.data);
	}
	if (cs->n) {
		BUF_ADDLIT(out, "\n");
		pad(out, "quantity", wn + 2);
		buf_addf(&year, "%d", cs->ya);
		pad(out, year.data, wa + 2);
		buf_reset(&year);
		buf_addf(&year, "%d", cs->yb);
		pad(out, year.data, wb + 2);
		pad(out, "change", wc + 2);
		BUF_ADDLIT(out, "caused by\n");
	}
	for (i = 0; i < cs->n; i++) {
		text_cells_of(cs, i, &c, 1);
		pad(out, cs->c[i].name, wn + 2);
		pad(out, c.a.data, wa + 2);
		pad(out, c.b.data, wb + 2);
		pad(out, c.ch.data, wc + 2);
		buf_addstr(out, c.why.len ? c.why.data : "-");
		/* No trailing blanks. */
		while (out->len && out->data[out->len - 1] == ' ')
			out->data[--out->len] = '\0';
		buf_addch(out, '\n');
	}
	cells_release(&c);
	buf_release(&year);
	buf_release(&rows);
}

/* A value as a CSV field: a text quoted as needed, a number exact. */
static void
value_field(struct buf *out, const struct quantity *q)
{
	if (!q)
		return;
	if (q->type == Q_TEXT)
		export_csv_field(out, q->text);
	else
		format_exact(out, q->value);
}

void
changes_csv(const struct changes *cs, struct buf *out)
{
	struct buf why = BUF_INIT;
	size_t i;

	buf_addf(out, "name,unit,value_%d,value_%d,relative_change,"
		 "caused_by\n", cs->ya, cs->yb);
	for (i = 0; i < cs->n; i++) {
		const struct change *c = &cs->c[i];
		const struct quantity *q = c->b ? c->b : c->a;

		export_csv_field(out, c->name);
		buf_addch(out, ',');
		export_csv_field(out, q->unit);
		buf_addch(out, ',');
		value_field(out, c->a);
		buf_addch(out, ',');
		value_field(out, c->b);
		buf_addch(out, ',');
		if (c->a && c->b && c->a->type == Q_NUMBER &&
		    c->b->type == Q_NUMBER && c->a->value != 0)
			format_exact(out, (c->b->value - c->a->value) /
				     fabs(c->a->value));
		buf_addch(out, ',');
		buf_reset(&why);
		changes_causes(cs, i, &why);
		export_csv_field(out, why.data ? why.data : "");
		buf_addch(out, '\n');
	}
	buf_release(&why);
}

/*
 * A file's added rows listed on the page, at most: a history of a
 * million rows adds a quarter of a million between two editions, all in
 * its CSV file.
 */
#define CHANGES_LIST_ROWS 100

/* The table of the file with added rows called f (flen bytes), or NULL. */
static const struct table *
added_file(const struct changes *cs, const char *f, size_t flen)
{
	size_t i;

	for (i = 0; i < cs->nfiles; i++) {
		const char *name = base_name(table_name(cs->files[i].t));

		if (strlen(name) == flen && !strncmp(name, f, flen))
			return cs->files[i].t;
	}
	return NULL;
}

/*
 * "top500.csv:60-68, devices.csv:7" with each run linked to its first
 * row on data.html, or to the file there when the page does not show
 * that row (the middle of a long history).
 */
static void
html_causes(struct buf *out, const struct changes *cs, const char *causes)
{
	const char *p = causes;

	while (*p) {
		size_t len = strcspn(p, ",");
		const char *colon = memchr(p, ':', len);

		if (colon) {
			const struct table *t;

			t = added_file(cs, p, (size_t)(colon - p));
			BUF_ADDLIT(out, "<a href=\"data.html#");
			if (t)
				pages_data_anchor(out, t,
						  strtoul(colon + 1, NULL, 10));
			else
				buf_add(out, p, (size_t)(colon - p));
			BUF_ADDLIT(out, "\">");
			buf_add(out, p, len);
			BUF_ADDLIT(out, "</a>");
		} else {
			buf_add(out, p, len);
		}
		p += len;
		if (*p == ',') {
			BUF_ADDLIT(out, ", ");
			p += 1 + strspn(p + 1, " ");
		}
	}
}

/*
 * One added row: where (linked to its row on data.html when the page
 * shows it), when, and what it names (its first columns).
 */
static void
html_row(struct buf *out, const struct added_row *ar)
{
	const char *f = base_name(table_name(ar->t));
	size_t line = table_line(ar->t, ar->row), c;
	int link = pages_data_shows(ar->t, ar->row);

	BUF_ADDLIT(out, "<li>");
	if (link) {
		BUF_ADDLIT(out, "<a href=\"data.html#");
		html_attr(out, f);
		buf_addf(out, "-%zu\">", line);
	}
	html_text(out, f);
	buf_addf(out, ":%zu%s (%d): ", line, link ? "</a>" : "", ar->year);
	/* The columns before the numbers: list, name, model... */
	for (c = 0; c < 3 && c < table_cols(ar->t); c++) {
		const char *cell = table_cell(ar->t, ar->row, (int)c);

		if (!strcmp(table_header(ar->t, c), "id") ||
		    !strcmp(table_header(ar->t, c), "year") ||
		    !strcmp(table_header(ar->t, c), "label"))
			continue;
		if (c && strcmp(table_header(ar->t, c), "list"))
			BUF_ADDLIT(out, " ");
		html_text(out, cell);
		if (!strcmp(table_header(ar->t, c), "list"))
			BUF_ADDLIT(out, ":");
	}
	BUF_ADDLIT(out, "</li>\n");
}

/* The added rows of each file; past CHANGES_LIST_ROWS, their count. */
static void
html_rows(struct buf *out, const struct changes *cs)
{
	size_t i, r;

	for (i = 0; i < cs->nfiles; i++) {
		const struct added_file *af = &cs->files[i];
		const char *f = base_name(table_name(af->t));
		size_t shown = af->n > CHANGES_LIST_ROWS ? CHANGES_LIST_ROWS :
			       af->n;

		for (r = 0; r < shown; r++)
			html_row(out, &cs->rows[af->first + r]);
		if (shown == af->n)
			continue;
		buf_addf(out, "<li>… and %zu more rows of ", af->n - shown);
		html_text(out, f);
		buf_addf(out, ", lines %zu to %zu: all in <a href=\"data/",
			 cs->rows[af->first + shown].line,
			 cs->rows[af->first + af->n - 1].line);
		html_attr(out, f);
		BUF_ADDLIT(out, "\">its CSV file</a></li>\n");
	}
}

void
changes_html(const struct changes *cs, const char *id, const char *title,
	     const struct mathml_links *links, struct buf *out)
{
	struct cells cl = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
	struct buf rows = BUF_INIT;
	size_t i, nnew, ngone;

	count_new_gone(cs, &nnew, &ngone);
	rows_summary(cs, &rows);
	buf_addf(out, "<h2 id=\"%s\">", id);
	html_text(out, title);
	buf_addf(out, "</h2>\n<p>From the <a href=\"editions/%d/index.html\">"
		 "%d edition</a> to the <a href=\"editions/%d/index.html\">%d "
		 "edition</a>: %zu %s changed, %zu new, %zu gone. The data "
		 "gained ", cs->ya, cs->ya, cs->yb, cs->yb, cs->nchanged,
		 cs->nchanged == 1 ? "quantity" : "quantities", nnew, ngone);
	html_text(out, rows.data);
	if (cs->ya + 1 < cs->yb)
		buf_addf(out, " dated %d to %d.</p>\n", cs->ya + 1, cs->yb);
	else
		buf_addf(out, " dated %d.</p>\n", cs->yb);
	if (cs->nrows) {
		if (cs->nrows == 1)
			BUF_ADDLIT(out, "<details><summary>The data row added"
				   "</summary>\n<ul class=\"rows\">\n");
		else
			buf_addf(out, "<details><summary>The %zu data rows "
				 "added</summary>\n<ul class=\"rows\">\n",
				 cs->nrows);
		html_rows(out, cs);
		BUF_ADDLIT(out, "</ul>\n</details>\n");
	}
	if (!cs->n) {
		BUF_ADDLIT(out, "<p>No quantity changed.</p>\n");
		goto out;
	}
	buf_addf(out, "<div class=\"wide\"><table class=\"changes\">\n"
		 "<caption>The quantities changed, new or gone from the %d "
		 "edition to the %d edition, with the data rows that caused "
		 "each</caption>\n"
		 "<thead><tr><th>Quantity</th><th>%d</th><th>%d</th>"
		 "<th>Change</th><th>Caused by</th></tr></thead>\n<tbody>\n",
		 cs->ya, cs->yb, cs->ya, cs->yb);
	for (i = 0; i < cs->n; i++) {
		const struct change *c = &cs->c[i];

		cells_of(cs, i, &cl, 1);
		BUF_ADDLIT(out, "<tr><td>");
		if (c->b && links) {
			BUF_ADDLIT(out, "<a href=\"");
			links->href(out, c->name, links->ctx);
			BUF_ADDLIT(out, "\">");
		} else if (c->b) {
			buf_addf(out, "<a href=\"quantities.html#%s\">",
				 c->name);
		}
		BUF_ADDLIT(out, "<code>");
		html_name(out, c->name);
		BUF_ADDLIT(out, "</code>");
		if (c->b)
			BUF_ADDLIT(out, "</a>");
		/* data-label: the column's name, shown on a narrow screen. */
		buf_addf(out, "</td><td data-label=\"%d\"%s>", cs->ya,
			 (c->a ? c->a : c->b)->type == Q_TEXT ? "" :
			 " class=\"num\"");
		html_text(out, cl.a.data);
		buf_addf(out, "</td><td data-label=\"%d\"%s>", cs->yb,
			 (c->b ? c->b : c->a)->type == Q_TEXT ? "" :
			 " class=\"num\"");
		html_text(out, cl.b.data);
		BUF_ADDLIT(out, "</td><td data-label=\"Change\" "
			   "class=\"num\">");
		html_text(out, cl.ch.data);
		BUF_ADDLIT(out, "</td><td data-label=\"Caused by\">");
		if (cl.why.len)
			html_causes(out, cs, cl.why.data);
		else
			BUF_ADDLIT(out, "—");
		BUF_ADDLIT(out, "</td></tr>\n");
	}
	BUF_ADDLIT(out, "</tbody>\n</table>\n</div>\n");
out:
	cells_release(&cl);
	buf_release(&rows);
}
