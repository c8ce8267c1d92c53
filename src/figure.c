/*
 * Figure descriptions, between the template stage and the plot stage:
 * reads a figure's script (templates/figures/NAME.gp) once and finds the
 * words of its "# needs:", "# optional:" and "# data:" header lines;
 * holds where the
 * template placed the figure. Reads the script; writes nothing, prints
 * nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "figure.h"
#include "xalloc.h"
#include "banned.h"

/*
 * The header key that the line text[0, len) starts with: FIGURE_NEEDS,
 * FIGURE_DATA, FIGURE_OPTIONAL, or -1.
 */
static int
header_key(const char *text, size_t len, size_t *keylen)
{
	if (len >= 8 && !memcmp(text, "# needs:", 8)) {
		*keylen = 8;
		return FIGURE_NEEDS;
	}
	if (len >= 7 && !memcmp(text, "# data:", 7)) {
		*keylen = 7;
		return FIGURE_DATA;
	}
	if (len >= 11 && !memcmp(text, "# optional:", 11)) {
		*keylen = 11;
		return FIGURE_OPTIONAL;
	}
	return -1;
}

int
figure_header_word(const char *text, size_t len, size_t *pos,
		   struct figure_word *w)
{
	size_t p = *pos;

	while (p < len) {
		size_t ls = p, le, we, keylen = 0;
		int data;

		while (ls && text[ls - 1] != '\n')
			ls--;
		for (le = p; le < len && text[le] != '\n'; le++)
			;
		data = header_key(text + ls, le - ls, &keylen);
		if (data >= 0) {
			if (p < ls + keylen)
				p = ls + keylen;
			while (p < le && (text[p] == ' ' || text[p] == '\t'))
				p++;
			for (we = p; we < le && text[we] != ' ' &&
			     text[we] != '\t' && text[we] != '\r'; we++)
				;
			if (we > p) {
				w->off = p;
				w->len = we - p;
				w->data = data;
				*pos = we;
				return 1;
			}
		}
		p = le + 1;
	}
	*pos = len;
	return 0;
}

void
figure_init(struct figure *f, const char *figdir, const char *label,
	    int number, const char *file, size_t line, size_t col)
{
	struct figure_word w;
	size_t pos = 0, cap = 0;

	memset(f, 0, sizeof(*f));
	f->label = xstrdup(label);
	f->number = number;
	f->file = file;
	f->line = line;
	f->col = col;
	if (figdir) {
		struct buf path = BUF_INIT;

		buf_addf(&path, "%s/%s.gp", figdir, label);
		f->path = buf_detach(&path, NULL);
		f->script = srcfile_load(f->path);
	}
	if (f->script)
		f->script->show_source = 1;	/* errors show its line */
	else
		f->error = figdir ? errno : ENOENT;
	while (f->script && figure_header_word(f->script->data,
					       f->script->len, &pos, &w)) {
		f->words = xgrow(f->words, &cap, f->nwords + 1,
				 sizeof(*f->words));
		f->words[f->nwords++] = w;
	}
}

void
figure_release(struct figure *f)
{
	free(f->label);
	free(f->path);
	srcfile_free(f->script);
	free(f->words);
	memset(f, 0, sizeof(*f));
}
