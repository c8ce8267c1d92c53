#ifndef DATASET_H
#define DATASET_H

#include <stddef.h>

/*
 * Numeric tables the model hands to the plot stage: history series as
 * read (the edition's rows, thinned beyond DATASET_PLOT_ROWS) and curves
 * computed from the physics (sensitivity, scaling). Columns are numbers;
 * each row may carry a text label from data, which the plot stage
 * writes into data files (never into a gnuplot command).
 */
struct dataset {
	char *name;		/* file stem: "top500" -> top500.dat */
	char *what;		/* what a row is, for `ultimate datasets` */
	char **cols;		/* column names, ncols of them */
	char **units;		/* the unit of each column ("" for none) */
	size_t ncols;
	double *vals;		/* nrows x ncols, row-major */
	char **labels;		/* nrows labels (owned), or NULL */
	size_t nrows, cap;
};

/*
 * A dataset longer than this is thinned for plotting (every k-th row and
 * the last) when it is made; trends and reductions read every row.
 */
#define DATASET_PLOT_ROWS 2000

struct datasets {
	struct dataset **d;
	size_t n, cap;
};

/*
 * A new empty dataset named name, what a row of it is, with the given
 * column names and their units (units may be NULL, an entry NULL or "":
 * none), all copied, appended to all; returns it.
 */
struct dataset *dataset_add(struct datasets *all, const char *name,
			    const char *what, const char *const *cols,
			    const char *const *units, size_t ncols);
/* Appends a row of ds->ncols values and a label (copied; may be NULL). */
void dataset_row(struct dataset *ds, const double *vals, const char *label);
/*
 * Whether row r of n is one a plot of at most max rows shows (max 0:
 * every row): every k-th row and the last, at most max in all; so rows
 * already thinned to max are all shown again.
 */
int dataset_shows(size_t r, size_t n, size_t max);
/* The dataset called name, or NULL. */
const struct dataset *datasets_get(const struct datasets *all,
				   const char *name);
/* Frees every dataset; all is left empty. */
void datasets_release(struct datasets *all);

#endif
