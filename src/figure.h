#ifndef FIGURE_H
#define FIGURE_H

#include <stddef.h>

struct srcfile;

/*
 * A figure as the template stage placed it, handed to the plot stage:
 * its label, number and template location, and its script,
 * figdir/<label>.gp (the author's), read once, with the words of its
 * header lines:
 *
 *   # needs: laptop.ops_max series.top500.fit_all.slope
 *   # data: top500 devices
 *
 * The template stage links the "data" datasets under the figure; the
 * plot stage checks every word against the registry and the datasets
 * and draws the figure. Nothing here is checked: whether the names
 * exist, and whether the script could be read, is the plot stage's to
 * say.
 */

/*
 * Each figure is drawn twice: NAME.svg, and NAME-narrow.svg on a smaller
 * canvas, for screens up to FIGURE_NARROW_MEDIA (a <source> of the
 * figure's <picture>), whose text stays readable on a phone.
 */
#define FIGURE_NARROW_SUFFIX "-narrow"
#define FIGURE_NARROW_MEDIA "(max-width: 30rem)"

/* What a header word names (struct figure_word's data). */
enum { FIGURE_NEEDS = 0, FIGURE_DATA = 1, FIGURE_OPTIONAL = 2 };

/* A word of a figure script's header lines. */
struct figure_word {
	size_t off, len;	/* into script->data */
	int data;		/* FIGURE_DATA: a dataset of "# data:";
				   FIGURE_NEEDS: a quantity of "# needs:";
				   FIGURE_OPTIONAL: one of "# optional:" */
};

struct figure {
	char *label;		/* "top500": figures/top500.svg */
	int number;		/* Figure 1, 2, ... of its report */
	const char *file;	/* template that placed it (borrowed) */
	size_t line, col;
	char *path;		/* "templates/figures/top500.gp", or NULL
				   when no figure folder was given */
	struct srcfile *script;	/* its text, or NULL: see error */
	int error;		/* errno when the script could not be read */
	struct figure_word *words;	/* of its header, in order */
	size_t nwords;
};

/*
 * Describes the figure label, numbered number, placed at file:line:col
 * (file borrowed): copies label, reads figdir/<label>.gp (srcfile_load(),
 * quiet; figdir NULL: no script, error ENOENT) and its header words.
 * Never fails. Release with figure_release().
 */
void figure_init(struct figure *f, const char *figdir, const char *label,
		 int number, const char *file, size_t line, size_t col);
/* Frees what f holds; f is then empty. */
void figure_release(struct figure *f);

/*
 * The one reader of a script's header: finds the first header word of
 * text[0, len) at or after *pos (start at 0), sets *w to it (off, len
 * into text) and *pos past it, and returns 1; returns 0 when no word is
 * left. figure_init() keeps them all in f->words.
 */
int figure_header_word(const char *text, size_t len, size_t *pos,
		       struct figure_word *w);

#endif
