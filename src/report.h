#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>

struct datasets;
struct gnuplot;
struct registry;
struct site;
struct tableset;

/*
 * The site: the report of every edition, from the article's year
 * (article.year) to the year of the registry given (edition.year), each
 * built from the data rows dated up to its year.
 *
 *   index.html, figures/        the newest edition's report
 *   quantities.html             the list of quantities/GROUP.html, every
 *                               quantity and its value in every edition
 *                               (pages.h); quantities.csv, .json
 *   data.html, data/NAME.csv    the data
 *   changes.html                what changed since the previous edition
 *                               and since the article's
 *   editions/index.html         every edition, with what was new in it
 *   editions/YEAR/index.html    an edition's report, its figures/ and
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
/*
 * Prints where the site published in (or found up to date in) site is,
 * one line on stdout: "report: out/index.html (179 pages)", and
 * ", out/report.pdf (20 PDFs)" when it holds PDFs. Returns 0.
 */
int report_say(const struct site *site);

#endif
#define MATH_FONT_PACKAGE "fonts-lmodern"

struct report_options {
	const char *datadir;
	const char *templatedir;
	int editions;		/* 0: the one edition only, no editions/ */
	double figure_timeout;	/* seconds gnuplot may run */
	uint64_t inputs;	/* key of the inputs, for the manifest */
	struct gnuplot *early;	/* gnuplot started ahead (taken), or NULL */
	/*
	 * 1: the newest edition alone (index.html, figures/ and
	 * editions/NEWEST/; the previous edition is built too, unpublished,
	 * for the links between them), every other file of the site kept
	 * as it was: the quick first publish of `watch` after a change,
	 * before the whole site.
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
 * Writes the site into site's staging area and publishes it when every
 * part succeeded, then says where it is (report_say()). reg, ds (the
 * newest edition, with its figure data) and ts (the tables read) come
 * from model_build(). Returns an exit status: 0, 1 (input errors,
 * printed), 3 (gnuplot or, with pdf, the browser failed).
 */
int report_write(struct site *site, const struct registry *reg,
		 const struct datasets *ds, struct tableset *ts,
		 struct report_options *opt);

/*
 * Prints where the site published in (or found up to date in) site is,
 * one line on stdout: "report: out/index.html (179 pages)", and
 * ", out/report.pdf (20 PDFs)" when it holds PDFs. Returns 0.
 */
int report_say(const struct site *site);

#endif
