#ifndef REPORT_H
#define REPORT_H

struct datasets;
struct registry;
struct tableset;

/*
 * The site: the report of every edition, from the article's year
 * (article.year) to the year of the registry given (edition.year), each
 * built from the data rows dated up to its year.
 *
 *   index.html, figures/        the newest edition's report
 *   NAME.html                   its other pages, templates/NAME.md
 *   quantities.html             the list of quantities/GROUP.html, every
 *                               quantity and its value in every edition
 *                               (pages.h); quantities.csv, .json
 *   data.html, data/NAME.csv    the data
 *   changes.html                what changed since the previous edition
 *                               and since the article's
 *   editions/index.html         every edition, with what was new in it
 *   editions/YEAR/index.html    an edition's report (and NAME.html),
 *                               its figures/ and
 *   editions/YEAR/quantities.html   the quantities it shows
 *   report.pdf, editions/YEAR/report.pdf   with pdf: the reports as PDF
 *
 * One gnuplot draws every edition's figures, while the next edition is
 * built; a figure drawn from the same data as another edition's is drawn
 * once.
 */
/*
 * The math font's file, copied into every site as fonts/math.otf: the
 * build sets it (make MATH_FONT=FILE); by default Debian's, from the
 * package MATH_FONT_PACKAGE.
 */
#ifndef MATH_FONT
#define MATH_FONT \
	"/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf"
#endif
#define MATH_FONT_PACKAGE "fonts-lmodern"

struct report_options {
	const char *datadir;
	const char *templatedir;
	const char *outdir;	/* the output folder, published in one step */
	int as_of;		/* the newest edition's year; 0: the data's */
	int editions;		/* 0: the one edition only, no editions/ */
	double figure_timeout;	/* seconds gnuplot may run */
	/*
	 * 1: the newest edition alone (index.html, figures/ and
	 * editions/NEWEST/), every other file of the site kept
	 * as it was: the quick first publish of `watch` after a change,
	 * before the whole site; published by the journal (SITE_QUICK).
	 */
	int newest;
	/*
	 * With pdf, each edition's report is printed to report.pdf beside
	 * it (pdf.h) before the site is published, and links to it.
	 */
	int pdf;
	double pdf_timeout;	/* seconds the browser may take a page */
};

/*
 * The registry of the edition of year: the model (model_build(), its
 * figure data into ds when not NULL) and the claims audit's quantities.
 * NULL after printing errors; free with registry_free().
 */
struct registry *report_registry(const char *datadir, int year,
				 struct datasets *ds, struct tableset *ts);

/*
 * The report command: the site into opt->outdir, unless nothing it is
 * made from changed since the last one (the inputs key: the data files,
 * every file under the templates folder, the options that change the
 * output, this program and the math font by identity; then nothing is
 * written and no gnuplot started). From its start a signal stops the
 * run cleanly: the output folder is left as it was. ts holds the tables
 * read (the caller releases it). Then says where the site is
 * (report_say()). Returns an exit status: 0, 1 (input errors, printed;
 * or a signal), 3 (gnuplot or, with pdf, the browser failed).
 */
int report_run(const struct report_options *opt, struct tableset *ts);

#endif
