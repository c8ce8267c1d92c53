/*
 * The figure data files (a part of the plot stage): reads the model's
 * datasets (the model document's data blocks, modelrows.c); writes the
 * text of the data files gnuplot reads (<name>.dat). Writes no file
 * itself: the plot stage stages the text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dataset.h"
#include "figdata.h"
#include "format.h"
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
	size_t r, c;

	BUF_ADDLIT(out, "#");
	for (c = 0; c < ds->ncols; c++)
		buf_addf(out, "%s\t", ds->cols[c]);
	BUF_ADDLIT(out, "label\n");
	for (r = 0; r < ds->nrows; r++) {
		if (!dataset_shows(r, ds->nrows, max))
			continue;
		for (c = 0; c < ds->ncols; c++) {
			add_value(out, ds->vals[r * ds->ncols + c]);
			buf_addch(out, '\t');
		}
		add_label(out, ds->labels ? ds->labels[r] : NULL);
		buf_addch(out, '\n');
	}
}
