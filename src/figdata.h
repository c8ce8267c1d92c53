#ifndef FIGDATA_H
#define FIGDATA_H

#include <stddef.h>

struct buf;
struct dataset;
struct datasets;
struct registry;

/*
 * The figure datasets written for gnuplot: the datasets drawn from the
 * registry rather than from the model's tables, and the tab-separated
 * text of any dataset as a figure script reads it (<name>.dat). Text
 * from data goes into data files only, never into a gnuplot command.
 */


/*
 * Appends ds to out as a tab-separated data file: a "#" header naming
 * the columns, then its rows (numbers as format_exact() writes them, "?"
 * for a missing value, the row's label last), thinned to at most max
 * rows (0: all) by keeping every k-th row and the last. A label is
 * written for gnuplot to draw as enhanced text (the terminal's default):
 * escaped so, it shows as it is, whatever characters it holds ("{/=40
 * x}", "a\\", '"'), never as markup; drawn noenhanced, it would show
 * its escapes. Control characters become spaces, an empty label "-".
 */
void figdata_write(const struct dataset *ds, size_t max, struct buf *out);

#endif
