/*
 * The figure datasets (a part of the plot stage): reads the registry
 * and the model's datasets; writes the datasets drawn from the registry
 * ("devices", "ladder", whose labels ladder.c places) and the text of
 * the data files gnuplot reads (<name>.dat). Writes no file itself: the
 * plot stage stages the text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dataset.h"
#include "figdata.h"
#include "format.h"
#include "ladder.h"
#include "registry.h"
#include "xalloc.h"
#include "banned.h"

/* U+2060 WORD JOINER: no width, nothing shown (see add_label()). */
#define WORD_JOINER "\xe2\x81\xa0"

/*
 * Appends one row's label as a data-file field that gnuplot draws as it
 * is, whatever it holds (see figdata_write()). gnuplot reads a field's
 * backslash escapes (\\ is a backslash, \ooo the byte of octal ooo),
 * then draws the text as enhanced text, where \ { } ^ _ @ & ~ are
 * markup and \ooo stands for the character itself: so each of those is
 * written \\ooo ("{" is \\173; "&" could not be \\&, which the SVG
 * terminal writes unescaped), and '"' is \042 (at the start of a field
 * it opens a quoted string, and a tic label ends at it). Control
 * characters become spaces, "?" (the missing value) \?, and an empty
 * label "-". What the SVG terminal takes for its own (\U+ starts a
 * character reference; ]]> it writes unescaped, ending the SVG) is
 * broken by a word joiner.
 */
static void
add_label(struct buf *out, const char *label)
{
	const char *s = label ? label : "", *p;

	if (!*s)
		buf_addch(out, '-');
	if (!strcmp(s, "?"))
		buf_addch(out, '\\');
	for (p = s; *p; p++) {
		if (*p == '>' && p - s >= 2 && p[-1] == ']' && p[-2] == ']')
			BUF_ADDLIT(out, WORD_JOINER);
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			buf_addch(out, ' ');
		else if (*p == '"')
			BUF_ADDLIT(out, "\\042");
		else if (strchr("\\{}^_@&~", *p))
			buf_addf(out, "\\\\%03o", (unsigned)*p);
		else
			buf_addch(out, *p);
		if (*p == '\\' && p[1] == 'U' && p[2] == '+')
			BUF_ADDLIT(out, WORD_JOINER);
	}
}

static void
add_value(struct buf *out, double v)
{
	if (isfinite(v))
		format_exact(out, v);
	else
		buf_addch(out, '?');
}

/*
 * Writes a dataset as a tab-separated file: a "#" header naming the
 * columns, then rows, thinned to at most max rows (every k-th row and
 * the last: the fits still used every point).
 */
void
figdata_write(const struct dataset *ds, size_t max, struct buf *out)
{
	size_t r, c, step = 1;

	if (max && ds->nrows > max)
		step = (ds->nrows + max - 1) / max;
	BUF_ADDLIT(out, "#");
	for (c = 0; c < ds->ncols; c++)
		buf_addf(out, "%s\t", ds->cols[c]);
	BUF_ADDLIT(out, "label\n");
	for (r = 0; r < ds->nrows; r++) {
		if (r % step && r + 1 != ds->nrows)
			continue;
		for (c = 0; c < ds->ncols; c++) {
			add_value(out, ds->vals[r * ds->ncols + c]);
			buf_addch(out, '\t');
		}
		add_label(out, ds->labels ? ds->labels[r] : NULL);
		buf_addch(out, '\n');
	}
}

/* The registry value of name, or NAN when it is missing or text. */
static double
num_or_nan(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	return q && q->type == Q_NUMBER ? q->value : NAN;
}

/*
 * A row of the "devices" dataset before it is sorted: by year, then in
 * the registry's order (the data's), so that the gaps figure reads down
 * in time.
 */
struct device_row {
	double v[5];
	const char *label;
	size_t seq;
};

static int
by_year(const void *a, const void *b)
{
	const struct device_row *x = a, *y = b;

	if (x->v[0] != y->v[0] && !(isnan(x->v[0]) && isnan(y->v[0]))) {
		if (isnan(x->v[0]))
			return 1;
		if (isnan(y->v[0]))
			return -1;
		return x->v[0] < y->v[0] ? -1 : 1;
	}
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The ids of the device rows the model document picks in this edition
 * (then.KIND, current.KIND, closest.WHAT: each pick's ".id" is its
 * row's id), borrowed from reg; *n is set to their number. The caller
 * frees the array.
 */
static const char **
pick_ids(const struct registry *reg, size_t *n)
{
	static const char *const picks[] = { "then.", "current.", "closest." };
	size_t i, k, cnt = registry_count(reg);
	const char **ids = xcalloc(cnt ? cnt : 1, sizeof(*ids));

	*n = 0;
	for (i = 0; i < cnt; i++) {
		const struct quantity *q = registry_at(reg, i);
		size_t len = strlen(q->name);

		if (q->type != Q_TEXT || len < 4 ||
		    strcmp(q->name + len - 3, ".id"))
			continue;
		for (k = 0; k < sizeof(picks) / sizeof(picks[0]); k++) {
			size_t pl = strlen(picks[k]);

			if (len > pl + 3 && !strncmp(q->name, picks[k], pl) &&
			    !memchr(q->name + pl, '.', len - pl - 3)) {
				ids[(*n)++] = q->text;
				break;
			}
		}
	}
	return ids;
}

static int
is_picked(const char *const *ids, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ids[i], id))
			return 1;
	return 0;
}

/*
 * Datasets drawn from the registry rather than from the model's tables:
 * "devices" (every device with its speed and working memory, and their
 * gaps: the figures device.<id>.sbops and .ram_bits measure them by),
 * "picked" (the same for the devices the document picks in the edition)
 * and "ladder" (every machine and limit as operations per second and
 * bits, with where its label goes for the picked machines: see ladder.h;
 * a machine not picked is drawn unnamed, its label's place missing).
 * The figures show the picks by name: every machine of an edition's
 * data would not fit in one column of labels or one bar chart.
 */
void
figdata_add(const struct registry *reg, struct datasets *all)
{
	static const char *const dev_cols[] = { "year", "sbops", "ram_bits",
		"ops_orders", "ram_orders" };
	static const char *const lad_cols[] = { "ops", "bits", "kind",
		"label_bits", "label_ops" };
	static const struct {
		const char *ops, *bits, *label;
		double kind;
	} limits[] = {
		{ "dust.atomic_ops", "dust.atomic_bits", "smart dust (1 µm³)", 2 },
		{ "atomic.ops", "atomic.bits", "atomic-matter laptop", 2 },
		{ "laptop.ops_max", "laptop.bits_max", "ultimate laptop", 3 },
		{ "blackhole.ops", "blackhole.bits", "1 kg black hole", 3 },
	};
	static const char *const dev_units[] = { "year", "ops/s", "bit", "",
		"" };
	static const char *const lad_units[] = { "ops/s", "bit", "", "bit",
		"ops/s" };
	struct dataset *dev = dataset_add(all, "devices", "every device, by "
		"year: speed, memory, and orders of magnitude below the 1 kg "
		"limits",
		dev_cols, dev_units, 5);
	struct dataset *pick = dataset_add(all, "picked", "the devices the "
		"document picks in the edition (of the article's year, the "
		"newest of each kind, the nearest to each limit), by year: as "
		"devices", dev_cols, dev_units, 5);
	struct dataset *lad = dataset_add(all, "ladder", "every device (kind "
		"1), the atomic-matter limits (2) and the ultimate ones (3), "
		"with where the label goes (missing for a device not picked)",
		lad_cols, lad_units, 5);
	struct buf name = BUF_INIT;
	struct ladder_machine *devs, *unnamed;
	struct device_row *rows;
	size_t i, ndev = 0, nun = 0, ndevrow = 0, npick;
	size_t n = registry_count(reg);
	const char **picks = pick_ids(reg, &npick);
	char *picked_row;

	devs = xcalloc(n ? n : 1, sizeof(*devs));
	unnamed = xcalloc(n ? n : 1, sizeof(*unnamed));
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	picked_row = xcalloc(n ? n : 1, 1);

	for (i = 0; i < n; i++) {
		const struct quantity *q = registry_at(reg, i);
		const char *nm = q->name;
		size_t len = strlen(nm);
		double row[5];
		const struct quantity *label;

		if (strncmp(nm, "device.", 7) || len < 11 ||
		    strcmp(nm + len - 3, ".id") ||
		    memchr(nm + 7, '.', len - 10))
			continue;
#define FIELD(f) (buf_reset(&name), buf_add(&name, nm, len - 3), \
		  buf_addstr(&name, f), name.data)
		label = registry_get(reg, FIELD(".label"));
		row[0] = num_or_nan(reg, FIELD(".year"));
		row[1] = num_or_nan(reg, FIELD(".sbops"));
		row[2] = num_or_nan(reg, FIELD(".ram_bits"));
		row[3] = num_or_nan(reg, FIELD(".gap.ops.orders"));
		row[4] = num_or_nan(reg, FIELD(".gap.ram.orders"));
#undef FIELD
		memcpy(rows[ndevrow].v, row, sizeof(row));
		rows[ndevrow].seq = ndevrow;
		picked_row[ndevrow] = (char)is_picked(picks, npick, q->text);
		rows[ndevrow++].label = label ? label->text : q->text;
		if (isfinite(row[1]) && isfinite(row[2])) {
			struct ladder_machine *m = picked_row[ndevrow - 1] ?
				&devs[ndev] : &unnamed[nun];

			m->ops = row[1];
			m->bits = row[2];
			m->seq = picked_row[ndevrow - 1] ? ndev++ : nun++;
			m->label = label ? label->text : q->text;
		}
	}
	/* The seq of a row is its index: sorting keeps picked_row's. */
	qsort(rows, ndevrow, sizeof(*rows), by_year);
	for (i = 0; i < ndevrow; i++) {
		dataset_row(dev, rows[i].v, rows[i].label);
		if (picked_row[rows[i].seq])
			dataset_row(pick, rows[i].v, rows[i].label);
	}
	free(rows);
	free(picked_row);
	free(picks);
	ladder_place(devs, ndev, lad);
	for (i = 0; i < nun; i++) {
		double row[5] = { unnamed[i].ops, unnamed[i].bits, 1, NAN,
				  NAN };

		dataset_row(lad, row, unnamed[i].label);
	}
	free(devs);
	free(unnamed);
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		double l[5] = { num_or_nan(reg, limits[i].ops),
				num_or_nan(reg, limits[i].bits),
				limits[i].kind, 0, 0 };

		l[3] = l[1];
		l[4] = l[0];

		dataset_row(lad, l, limits[i].label);
	}
	buf_release(&name);
}
