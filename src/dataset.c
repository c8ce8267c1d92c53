/*
 * Numeric tables from the model stage to the plot stage.
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "xalloc.h"
#include "banned.h"

struct dataset *
dataset_add(struct datasets *all, const char *name, const char *what,
	    const char *const *cols, const char *const *units, size_t ncols)
{
	struct dataset *ds = xcalloc(1, sizeof(*ds));
	size_t i;

	ds->name = xstrdup(name);
	ds->what = xstrdup(what ? what : "");
	ds->ncols = ncols;
	ds->cols = xcalloc(ncols, sizeof(*ds->cols));
	ds->units = xcalloc(ncols, sizeof(*ds->units));
	for (i = 0; i < ncols; i++) {
		ds->cols[i] = xstrdup(cols[i]);
		ds->units[i] = xstrdup(units && units[i] ? units[i] : "");
	}
	all->d = xgrow(all->d, &all->cap, all->n + 1, sizeof(*all->d));
	all->d[all->n++] = ds;
	return ds;
}

void
dataset_row(struct dataset *ds, const double *vals, const char *label)
{
	if (ds->nrows == ds->cap) {
		ds->labels = xgrow(ds->labels, &ds->cap, ds->nrows + 1,
				   sizeof(*ds->labels));
		ds->vals = xreallocarray(ds->vals, ds->cap,
					 ds->ncols * sizeof(*ds->vals));
	}
	memcpy(ds->vals + ds->nrows * ds->ncols, vals,
	       ds->ncols * sizeof(*vals));
	ds->labels[ds->nrows++] = label ? xstrdup(label) : NULL;
}

int
dataset_shows(size_t r, size_t n, size_t max)
{
	size_t step;

	if (!max || n <= max)
		return 1;
	if (max == 1)
		return r + 1 == n;
	/*
	 * Rows 0, step, 2 step, ... up to row n - 1, at most max - 1 steps
	 * apart, and the last: at most max rows. A step of n / max kept
	 * max + 1 (n = 100,000 and max 2,000: 2,001), and the data file
	 * thinned those again, to 1,001.
	 */
	step = (n - 1 + max - 2) / (max - 1);
	return !(r % step) || r + 1 == n;
}

const struct dataset *
datasets_get(const struct datasets *all, const char *name)
{
	size_t i;

	for (i = 0; i < all->n; i++)
		if (!strcmp(all->d[i]->name, name))
			return all->d[i];
	return NULL;
}

void
datasets_release(struct datasets *all)
{
	size_t i, j;

	for (i = 0; i < all->n; i++) {
		struct dataset *ds = all->d[i];

		for (j = 0; j < ds->ncols; j++) {
			free(ds->cols[j]);
			free(ds->units[j]);
		}
		for (j = 0; j < ds->nrows; j++)
			free(ds->labels[j]);
		free(ds->cols);
		free(ds->units);
		free(ds->what);
		free(ds->vals);
		free(ds->labels);
		free(ds->name);
		free(ds);
	}
	free(all->d);
	memset(all, 0, sizeof(*all));
}
