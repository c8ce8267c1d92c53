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

/* Appends one row's label as a data-file field (see figdata_write()). */
static void
add_label(struct buf *out, const char *label)
{
	const char *s = label ? label : "";

	if (!*s)
		buf_addch(out, '-');
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			buf_addch(out, ' ');
		else if (*s == '"')
			/*
			 * gnuplot reads a double quote in a data file as the
			 * start of a quoted string and has no escape for it:
			 * a right double quotation mark keeps the label whole.
			 */
			BUF_ADDLIT(out, "\xe2\x80\x9d");
		else
			buf_addch(out, *s);
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
