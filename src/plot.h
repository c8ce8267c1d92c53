#ifndef PLOT_H
#define PLOT_H

#include <stddef.h>

struct datasets;
struct figure;
struct registry;
struct site;

/*
 * The plot stage: draws every figure the report placed, as SVG, with
 * gnuplot. Each figure comes described by the template stage (figure.h):
 * its label, where it was placed, and its script, figdir/<label>.gp (the
 * author's), whose header lines declare what it reads:
 *
 *   # needs: laptop.ops_max series.top500.fit_all.slope
 *   # data: top500 devices
 *
 * "needs" quantities reach the script as numeric variables (dots become
 * underscores: laptop_ops_max); "data" datasets are written as
 * tab-separated files <name>.dat (figdata.h: labels from data in the
 * last column, "?" for a missing value) that the script plots. Text from
 * data never enters a gnuplot command.
 *
 * Figures are drawn by one gnuplot process per run (gnuplot.h: started
 * ahead of need or by plot_add(), no shell), in each
 * edition's figure folder of the staged tree (site_root()). Its run is
 * bounded in time, and each figure it draws must be a well-formed SVG
 * before it is staged. A figure whose script, variables and data did
 * not change since the last run (a key kept in <folder>/.cache of the
 * published output) is kept instead of drawn; one drawn from the same
 * as another edition's is drawn once.
 */

struct gnuplot;

struct plot_options {
	const char *figdir;	/* templates/figures */
	const char *gnuplot;	/* program name or path ("gnuplot") */
	size_t max_points;	/* series longer than this are thinned */
	double timeout;		/* seconds gnuplot may take to draw */
};

/*
 * The figures of a run being drawn, from plot_begin() to plot_finish()
 * (or plot_cancel()): one gnuplot draws the figures of every edition.
 */
struct plot;

/*
 * Starts a run's figures into the site's staging area (opt must live
 * until plot_finish()). Never fails.
 */
struct plot *plot_begin(struct site *site, const struct plot_options *opt);

/*
 * Adds the n figures of uses, placed by a report built from reg and ds,
 * to be drawn into dir (a folder of the site: "figures",
 * "editions/2008/figures"): writes their data there, keeps unchanged
 * figures of the published output, shares those drawn from the same
 * script, variables and data as a figure added before (another
 * edition's), and hands the others to gnuplot, which starts drawing
 * them while the caller goes on. what ("the 2008 edition", or NULL)
 * goes into error messages. uses, reg and the site must live until
 * plot_finish(). Returns 0; -1 after printing an error about a script
 * or data (exit status 1); -2 when gnuplot cannot be started (exit
 * status 3). After a failure, plot_cancel() the run.
 */
int plot_add(struct plot *pl, const char *dir, const char *what,
	     const struct registry *reg, const struct datasets *ds,
	     const struct figure *uses, size_t n);

/* Stops gnuplot, undoes what it wrote, frees pl; NULL does nothing. */
void plot_cancel(struct plot *pl);

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

#endif
