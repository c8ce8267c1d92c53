#ifndef PLOT_H
#define PLOT_H

#include <stddef.h>

struct buf;
struct datasets;
struct figure_use;
struct registry;
struct site;

/*
 * The plot stage: draws every figure the report placed, as SVG, with
 * gnuplot. Each figure has a script, figdir/<label>.gp (the author's),
 * whose header lines declare what it reads:
 *
 *   # needs: laptop.ops_max series.top500.fit_all.slope
 *   # data: top500 devices
 *
 * "needs" quantities reach the script as numeric variables (dots become
 * underscores: laptop_ops_max); "data" datasets are written as
 * tab-separated files <name>.dat (labels from data in the last column,
 * "?" for a missing value) that the script plots. Text from data never
 * enters a gnuplot command.
 *
 * Figures are drawn in one gnuplot process, in the figures/ folder of
 * the staging area, without a shell, while the caller goes on. A figure whose script, variables and
 * data did not change since the last run (a key kept in figures/.cache of
 * the published output) is copied from outdir instead of drawn.
 */
/*
 * gnuplot started ahead of need (plot_prestart()), so that its start-up
 * overlaps the work before the figures are known.
 */
struct plot_process;

struct plot_options {
	const char *figdir;	/* templates/figures */
	const char *outdir;	/* published output, for the cache */
	const char *gnuplot;	/* program name or path ("gnuplot") */
	size_t max_points;	/* series longer than this are thinned */
	/* Prestarted gnuplot or NULL; plot_start() takes it, always. */
	struct plot_process *early;
};

/*
 * Starts prog (gnuplot), waiting for commands, and returns at once.
 * Never NULL: when prog cannot be started, plot_start() says so if a
 * figure is to be drawn. Hand it to plot_start() or plot_process_stop().
 */
struct plot_process *plot_prestart(const char *prog);
/* Stops a prestarted gnuplot that is not needed; NULL does nothing. */
void plot_process_stop(struct plot_process *pp);

/* A batch of figures being drawn, from plot_start() to plot_finish(). */
struct plot;

/*
 * Starts drawing the n figures of uses into the site's staging area
 * (figures/): writes their data, takes unchanged figures from the
 * published output, and starts one gnuplot for the others without
 * waiting for it, so that the caller can render pages meanwhile. On
 * success *plp is the batch, which plot_finish() must be given (uses,
 * reg and the site must live until then). Returns 0; -1 after printing
 * an error about a script or data (exit status 1); -2 when gnuplot
 * cannot be started (exit status 3). *plp is NULL on failure.
 */
int plot_start(struct plot **plp, struct site *site,
	       const struct plot_options *opt, const struct registry *reg,
	       const struct datasets *ds, const struct figure_use *uses,
	       size_t n);
/*
 * Waits for gnuplot (stopping it first if the run is being
 * interrupted), stages the SVGs it drew and the cache, and frees pl;
 * NULL does nothing. Returns 0, -1 (a write failed, or interrupted) or
 * -2 when gnuplot is missing or failed, after printing its message under
 * the template location of the figure.
 */
int plot_finish(struct plot *pl);

/*
 * Appends one dataset row's label to out as a data-file field: tabs, line
 * breaks and other control characters become spaces, '"' becomes U+201D
 * (gnuplot has no escape for it in data files), an empty label "-".
 */
void plot_label(struct buf *out, const char *label);

#endif
