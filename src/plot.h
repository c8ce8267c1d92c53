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
 * Figures are drawn by one gnuplot process per run (started ahead of
 * need or by plot_start(), with posix_spawnp(), no shell), in figures/
 * of the staged tree (site_root()). Its run is bounded in time, and each
 * figure it draws must be a well-formed SVG before it is staged. A figure whose script,
 * variables and data did not change since the last run (a key kept in
 * figures/.cache of the published output) is kept instead of drawn.
 */

/*
 * gnuplot started ahead of need (plot_prestart()), waiting for commands,
 * so that its start-up overlaps the work before the figures are known.
 */
struct gnuplot;

struct plot_options {
	const char *figdir;	/* templates/figures */
	const char *gnuplot;	/* program name or path ("gnuplot") */
	size_t max_points;	/* series longer than this are thinned */
	double timeout;		/* seconds gnuplot may take to draw */
	/* Prestarted gnuplot or NULL; plot_start() takes it, always. */
	struct gnuplot *early;
};

/*
 * Starts prog (gnuplot) waiting for its commands and returns at once:
 * loading its libraries takes it some 15 ms, which then overlap the
 * model and the templates. Never NULL: when prog cannot be started,
 * plot_start() says so if a figure is to be drawn. Hand it to
 * plot_start() or plot_stop().
 */
struct gnuplot *plot_prestart(const char *prog);
/* Stops a gnuplot that is not needed and frees it; NULL does nothing. */
void plot_stop(struct gnuplot *g);

/* A batch of figures being drawn, from plot_start() to plot_finish(). */
struct plot;

/*
 * Starts drawing the n figures of uses into the site's staging area
 * (figures/): writes their data, keeps unchanged figures of the
 * published output, and hands the others to one gnuplot without
 * waiting for it. On
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
 * Waits for gnuplot, at most opt->timeout seconds from its start (then
 * its process group gets SIGTERM and, two seconds later, SIGKILL), or
 * stops it at once when the run is being interrupted. Checks and stages
 * the SVGs it drew, writes the cache, and frees pl; NULL does nothing.
 * Returns 0, -1 (a write failed, or interrupted) or -2 when gnuplot is
 * missing, failed, ran too long or drew a figure that is not a
 * well-formed SVG, after printing an error under the template location
 * of the figure.
 */
int plot_finish(struct plot *pl);

/*
 * Appends one dataset row's label to out as a data-file field: tabs, line
 * breaks and other control characters become spaces, '"' becomes U+201D
 * (gnuplot has no escape for it in data files), an empty label "-".
 */
void plot_label(struct buf *out, const char *label);

#endif
