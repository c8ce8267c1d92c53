#ifndef PDF_H
#define PDF_H

#include <stddef.h>

struct buf;
struct site;

/*
 * The PDF of a report page, printed by headless Chromium from the staged
 * site before it is published (report --pdf): the page, its stylesheet
 * and its figures as the new site will hold them, printed with the
 * stylesheet's @media print rules.
 *
 * A page's PDF is byte-identical from run to run: Chromium's dates are
 * set to the edition's year, its tag ids numbered in order, and the
 * links to the site's own pages made relative to the PDF (so that they
 * lead to the site's pages beside it, wherever it is served).
 */
struct pdf_page {
	const char *html;	/* "editions/2010/index.html" in the site */
	const char *pdf;	/* "editions/2010/report.pdf", same folder */
	int year;		/* the edition's: the PDF's date */
};

struct pdf_options {
	/* The browser: $ULTIMATE_CHROMIUM, else "chromium" on PATH. */
	const char *browser;
	double timeout;		/* seconds one page may take */
	int jobs;		/* pages printed at once */
};

/*
 * Prints the n pages into the site (site_write(): a PDF that did not
 * change is not staged again). The browser runs without a shell, in its
 * own process group, with its own profile in the staging folder; past
 * the timeout it gets SIGTERM, and SIGKILL two seconds later. Returns
 * 0; -1 after printing an error (the browser missing, failing, out of
 * time, or writing no PDF: one line naming the page), or quietly when
 * the run is interrupted.
 */
int pdf_write(struct site *s, const struct pdf_page *pages, size_t n,
	      const struct pdf_options *opt);

/*
 * Makes Chromium's PDF in (len bytes) reproducible, into out: the dates
 * (/CreationDate, /ModDate) become January 1 of year, the tag ids
 * ("node" and 8 digits) are numbered in their order, and each link
 * "(file://" prefix ... ")" into the printed tree (prefix: the URL of
 * its top, ending in '/') becomes relative to the folder dir ("" or
 * "editions/2010/") of the PDF; the cross-reference table follows the
 * offsets that moved. Returns 0, or -1 when in is not a PDF as Chromium
 * writes them (out then holds nothing useful).
 */
int pdf_normalize(const char *in, size_t len, const char *prefix,
		  const char *dir, int year, struct buf *out);

#endif
