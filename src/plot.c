/*
 * The plot stage: reads the figures the template stage described
 * (figure.h: each script read once, with its header words), the registry
 * and the datasets; writes the data files (figdata.h), a file for each
 * figure to draw and a batch script per figure folder that loads them,
 * has gnuplot (gnuplot.h) draw figures/NAME.svg in the staging area,
 * and stages them with the figure cache. A figure's file is assembled
 * from the author's figure script and numeric variables; text from data
 * reaches gnuplot only inside data files. What gnuplot draws is parsed (expat) before it is staged, and
 * its messages are reported under the figure that caused them.
 */
#include <errno.h>
#include <expat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "buf.h"
#include "dataset.h"
#include "diag.h"
#include "figdata.h"
#include "figure.h"
#include "file.h"
#include "format.h"
#include "gnuplot.h"
#include "hash.h"
#include "plot.h"
#include "registry.h"
#include "site.h"
#include "suggest.h"
#include "timing.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A throwaway plot before every figure: it leaves the SVG terminal in the
 * same state whatever was drawn before, so that a figure's bytes do not
 * depend on the other figures of the batch (a cached figure and a redrawn
 * one must be identical).
 */
#define PRIMER "set output '/dev/null'\nunset border\nunset tics\n" \
	"set xrange [0:1]\nset yrange [-1:1]\n" \
	"unset key\nplot 0 lw 1 lc rgb \"#000000\" notitle\nunset output\n"
/*
 * Each figure is drawn twice: wide (on screens wider than 30rem)
 * and narrow, for phones, on a smaller canvas, so that its text stays
 * readable at 390 px (templates/figures/style.gp sets the fonts, by
 * narrow). The narrow one is NAME-narrow.svg (figure.h); template.c
 * offers it to narrow screens with <picture>.
 */
#define TERMINAL "set terminal svg size %s enhanced " \
	"font \"sans-serif,14\" background rgb \"white\""
static const struct variant {
	const char *suffix;	/* of the SVG's name */
	const char *size;	/* of the canvas, px */
	const char *what;	/* in error messages, or NULL */
} variants[] = {
	{ "", "600,450", NULL },
	{ FIGURE_NARROW_SUFFIX, "380,500", "the narrow rendering" },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

/*
 * The line gnuplot prints (to its standard error, as its messages)
 * before it draws job K: FIGURE_MARK "K". A message after it, naming
 * the batch file's line, is that figure's (figure_mark()).
 */
#define FIGURE_MARK "ultimate: drawing figure "
/*
 * gnuplot 5.4 counts a line twice each time a command outgrows its input
 * buffer (1 KiB to begin with, grown by 1 KiB), so that after a long
 * command its messages name the wrong line. A comment this long, sent
 * before the first figure, grows the buffer once and for all.
 */
#define LONG_LINE 16384

/* The house style, loaded before every figure script: figdir/STYLE.gp. */
#define STYLE "style"

/*
 * Put into every SVG, after its root's start tag: in dark mode the figure
 * shows its lightness inverted, hues kept (invert, then the hue turned
 * back), so that it has no white panel and each colour of the house
 * style stands out from the dark background as it did from the white one.
 * White becomes #141414, near the page's dark background. Only on
 * screen: printed, a figure stays black on white.
 */
#define DARK_CSS "\n<style>@media screen and (prefers-color-scheme: dark) " \
	"{ #gnuplot_canvas { filter: invert(0.92) hue-rotate(180deg); } }" \
	"</style>"

/* One figure to draw: its script and the text that goes before it. */
struct job {
	const struct figure *use;
	size_t batch;		/* of the plot_add() call that made it */
	const struct srcfile *script;	/* use->script */
	struct buf pre;		/* reset, output, variables */
	uint64_t key;		/* of what it is drawn from */
	uint64_t svgkey;	/* of the SVG drawn or kept */
	size_t variant;		/* of variants[] */
	size_t first_line;	/* of pre in its batch file, from 1 */
	int cached;
	size_t same;		/* drawn as jobs[same] (same label and key),
				   or SIZE_MAX */
};

/* The figures of one plot_add() call: one folder, one batch file. */
struct batch {
	char *dir;		/* "figures", "editions/2008/figures" */
	char *work;		/* that folder in the staged tree, or NULL */
	char *what;		/* "the 2008 edition", or NULL */
	struct buf prev;	/* the previous run's figure cache there */
	size_t first, n;	/* its jobs */
	size_t todo;		/* of them, to be drawn */
};


struct plot {
	struct site *site;	/* borrowed */
	const struct plot_options *opt;	/* borrowed */
	struct job *jobs;
	size_t n, cap;
	struct batch *batches;
	size_t nbatches, bcap;
	double timeout;
	struct gnuplot *g;	/* NULL: nothing to draw */
	int handed;		/* g has the batch: it may have written */
	struct srcfile *style;	/* the house style, once read */
	size_t style_lines;
	int style_failed;	/* and said so */
};


static int
use_error(const struct figure *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
use_error(const struct figure *u, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_at_line(u->file, u->line, u->col, "figure '%s': %s", u->label,
		      msg.data);
	buf_release(&msg);
	return -1;
}

/* The dataset called name, of the model's or of the registry's. */
static const struct dataset *
dataset_of(const struct datasets *ds, const struct datasets *mine,
	   const char *name)
{
	const struct dataset *d = ds ? datasets_get(ds, name) : NULL;

	return d ? d : datasets_get(mine, name);
}

/*
 * An error at the word [w, we) of a script's header line: an unknown
 * quantity or dataset, with the closest names.
 */
static int
header_error(const struct srcfile *f, const char *w, const char *we,
	     const struct registry *reg, const struct datasets *ds,
	     const struct datasets *mine, const char *what)
{
	struct srcloc loc = { f, (size_t)(w - f->data), (size_t)(we - w) };
	struct buf msg = BUF_INIT;
	char *word = xstrndup(w, (size_t)(we - w));
	const char *near[3];
	size_t n = 0, i;

	if (!diag_full() && !strcmp(what, "dataset")) {
		struct suggest s;

		suggest_init(&s, word, near, 3);
		for (i = 0; ds && i < ds->n; i++)
			suggest_add(&s, ds->d[i]->name);
		for (i = 0; i < mine->n; i++)
			suggest_add(&s, mine->d[i]->name);
		n = suggest_end(&s);
	} else if (!diag_full()) {
		n = registry_suggest(reg, word, near, 3);
	}
	suggest_hint(&msg, near, n);
	error_at(&loc, "unknown %s '%s'%s%s", what, word, msg.data,
		 n ? "" : !strcmp(what, "dataset") ?
		 " (see 'ultimate datasets')" : " (see 'ultimate list')");
	free(word);
	buf_release(&msg);
	return -1;
}

/*
 * Checks the "# needs:", "# optional:" and "# data:" header words of
 * figure u's script: variables into vars, dataset names into *data
 * (space-separated), each checked to exist in ds or mine; a name of
 * "# optional:" that the registry does not hold (a quantity missing
 * from the edition) gives no variable (it is undefined), for the script
 * to test with exists("NAME"). Returns -1 after printing errors at
 * the script's own file:line:col, with the closest names.
 */
static int
read_header(const struct figure *u, struct buf *vars,
	    const struct registry *reg, const struct datasets *ds,
	    const struct datasets *mine, struct buf *data)
{
	const struct srcfile *f = u->script;
	size_t i;
	int ret = 0;

	for (i = 0; i < u->nwords; i++) {
		const struct figure_word *hw = &u->words[i];
		const char *w = f->data + hw->off, *we = w + hw->len;
		char *word = xstrndup(w, hw->len);

		if (hw->data == FIGURE_DATA) {
			if (dataset_of(ds, mine, word))
				buf_addf(data, " %s", word);
			else
				ret = header_error(f, w, we, reg, ds, mine,
						   "dataset");
		} else {
			const struct quantity *q = registry_get(reg, word);
			char *v;

			if (!q && hw->data == FIGURE_OPTIONAL) {
				/*
				 * Missing in this edition: no variable, not
				 * even one a figure drawn before in the same
				 * gnuplot left (reset keeps variables).
				 */
				for (v = word; *v; v++)
					if (*v == '.')
						*v = '_';
				buf_addf(vars, "undefine %s\n", word);
			} else if (!q) {
				ret = header_error(f, w, we, reg, ds, mine,
						   "quantity");
			} else if (q->type != Q_NUMBER) {
				struct srcloc l = { f, hw->off, hw->len };

				ret = error_at(&l, "needs a number, got text "
					       "'%s'", word);
			} else {
				for (v = word; *v; v++)
					if (*v == '.')
						*v = '_';
				/* Finite: the registry takes no other. */
				buf_addf(vars, "%s = ", word);
				format_exact(vars, q->value);
				buf_addch(vars, '\n');
			}
		}
		free(word);
	}
	return ret;
}

/*
 * The keys recorded for label in the previous run's figure cache ("label
 * key svgkey" lines, read into cache): what it was drawn from and what
 * was drawn. Returns 0 when there is no such line.
 */
static int
cached_key(const struct buf *cache, const char *label, uint64_t *key,
	   uint64_t *svgkey)
{
	const char *p;
	char *end;
	size_t n = strlen(label);

	for (p = cache->data; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, label, n) && p[n] == ' ') {
			*key = strtoull(p + n + 1, &end, 16);
			if (*end != ' ')
				return 0;
			*svgkey = strtoull(end + 1, &end, 16);
			return *end == '\n';
		}
	return 0;
}

/* Adds the text [p, p + len) to b, ending it with a line feed. */
static void
add_lines(struct buf *b, const char *p, size_t len)
{
	buf_add(b, p, len);
	if (len && p[len - 1] != '\n')
		buf_addch(b, '\n');
}

/* Writes b to path; 0, or -1 after printing an error. */
static int
write_file(const char *path, const struct buf *b)
{
	if (file_write(path, b->data, b->len))
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

/*
 * Where gnuplot's message line [p, p + len) points: the batch file's
 * line into *line (0: none), and the message after "line N: " returned;
 * NULL when the line names no batch file.
 */
static const char *
batch_place(const char *p, size_t len, size_t *line)
{
	static const char tag[] = "\".batch-";
	const char *at = NULL, *q, *msg;
	char *end;

	for (q = p; q + sizeof(tag) - 1 <= p + len; q++)
		if (!memcmp(q, tag, sizeof(tag) - 1)) {
			at = q;
			break;
		}
	if (!at)
		return NULL;
	strtoul(at + sizeof(tag) - 1, &end, 10);
	*line = 0;
	if (!strncmp(end, ".gp\" line ", 10))
		*line = strtoul(end + 10, NULL, 10);
	msg = memchr(at, ':', len - (size_t)(at - p));
	msg = msg ? msg + 1 : at;
	return msg + strspn(msg, " ");
}

/* Whether [p, p + len) is a figure's mark; its job into *job. */
static int
figure_mark(const char *p, size_t len, size_t *job)
{
	static const char mark[] = FIGURE_MARK;
	char *end;

	if (len <= sizeof(mark) - 1 || memcmp(p, mark, sizeof(mark) - 1))
		return 0;
	*job = strtoul(p + sizeof(mark) - 1, &end, 10);
	return end == p + len;
}

/* The job drawn as job k, or NULL. */
static struct job *
drawn_job(struct plot *pl, size_t k)
{
	if (k >= pl->n || pl->jobs[k].cached || pl->jobs[k].same != SIZE_MAX)
		return NULL;
	return &pl->jobs[k];
}

/*
 * Reports gnuplot's message line [p, p + len) under the figure that
 * caused it, job k (the mark gnuplot printed last before it): the
 * batch file's line it names falls in the job's variables, the house
 * style or its script. The first line gives the template location, the
 * figure, the script's (or the style's) file:line and gnuplot's
 * message; ctx (gnuplot's context lines: the command and its caret)
 * follows, indented. With no figure to go by, every figure drawn is
 * named.
 */
static void
report_message(struct plot *pl, const char *p, size_t len, const char *ctx,
	       int status, size_t k)
{
	const char *msg = p;
	size_t line = 0, i, pre = 0;
	struct job *j = NULL;
	struct buf m = BUF_INIT, where = BUF_INIT;
	const char *q;

	q = batch_place(p, len, &line);
	if (q) {
		msg = q;
		j = drawn_job(pl, k);
	}
	/* From the batch file's line to the figure's, from 1 (0: none). */
	if (j)
		line = line >= j->first_line ? line - j->first_line + 1 : 0;
	buf_add(&m, msg, len - (size_t)(msg - p));
	if (j) {
		const char *what = pl->batches[j->batch].what;
		const char *vwhat = variants[j->variant].what;

		if (what)
			buf_addf(&where, ", %s", what);
		if (vwhat)
			buf_addf(&where, ", %s", vwhat);
		for (q = j->pre.data; *q; q++)
			pre += *q == '\n';
		if (!line--)
			use_error(j->use, "gnuplot: %s (%s%s)", m.data,
				  j->script->name, where.data);
		else if (line >= pre + pl->style_lines)
			use_error(j->use, "gnuplot: %s (%s:%zu%s)", m.data,
				  j->script->name,
				  line - pre - pl->style_lines + 1, where.data);
		else if (line >= pre)
			use_error(j->use, "gnuplot: %s (%s:%zu, the house "
				  "style%s)", m.data, pl->style->name,
				  line - pre + 1, where.data);
		else
			use_error(j->use, "gnuplot: %s (in the variables "
				  "set for %s%s)", m.data, j->script->name,
				  where.data);
	} else {
		/* No figure to go by: name every figure drawn. */
		struct buf names = BUF_INIT;
		struct job *first = NULL;

		for (i = 0; i < pl->n; i++)
			if (!pl->jobs[i].cached &&
			    pl->jobs[i].same == SIZE_MAX) {
				size_t o;

				for (o = 0; o < i; o++)
					if (!strcmp(pl->jobs[o].use->label,
						    pl->jobs[i].use->label))
						break;
				if (o < i)
					continue;	/* named already */
				if (!first)
					first = &pl->jobs[i];
				buf_addf(&names, "%s'%s'", names.len ? ", " :
					 "", pl->jobs[i].use->label);
			}
		if (first && m.len)
			use_error(first->use, "%s%s, drawing %s",
				  strncmp(m.data, "gnuplot", 7) ? "gnuplot: " :
				  "", m.data, names.data);
		else if (first)
			use_error(first->use, "gnuplot exited with status %d "
				  "and no message, drawing %s", status,
				  names.data);
		buf_release(&names);
	}
	if (ctx)
		diag_put_lines(ctx);
	buf_release(&m);
	buf_release(&where);
}

/*
 * Reports a gnuplot failure: its last message that names a batch file's
 * line (it stops at its first error; warnings may come before), under
 * the figure marked last before it, with the lines since the message
 * before it as context; else its first line, with the rest.
 */
static void
report_failure(struct plot *pl, const char *err, int status)
{
	const char *p, *last = NULL, *from = err, *ctx_from = err, *ctx_end;
	size_t k = SIZE_MAX, cur = SIZE_MAX, line, len = 0;
	struct buf ctx = BUF_INIT;

	for (p = err; *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		if (figure_mark(p, len, &cur))
			continue;
		if (batch_place(p, len, &line)) {
			ctx_from = from;
			last = p;
			k = cur;
			from = p + len + (p[len] == '\n');
		}
	}
	if (last) {
		ctx_end = last;
	} else {
		/* The first line that is no mark, then the rest. */
		for (last = err; *last; last += len + (last[len] == '\n')) {
			len = strcspn(last, "\n");
			if (!figure_mark(last, len, &cur))
				break;
		}
		ctx_from = last + strcspn(last, "\n");
		ctx_end = last + strlen(last);
	}
	len = strcspn(last, "\n");
	for (p = ctx_from; p < ctx_end;) {
		size_t n = strcspn(p, "\n");

		if (n && strspn(p, " ") < n && !figure_mark(p, n, &cur))
			buf_addf(&ctx, "    %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	report_message(pl, last, len, ctx.data, status, k);
	buf_release(&ctx);
}

/*
 * Reports each warning gnuplot printed (a figure with a wrong column or
 * no points: "warning: Skipping data file with no valid points") as an
 * error under its figure, each message of a figure once (the narrow
 * rendering and other editions repeat it). Returns how many it
 * reported.
 */
static size_t
report_warnings(struct plot *pl, const char *err)
{
	struct buf seen = BUF_INIT, key = BUF_INIT;
	const char *p, *msg;
	size_t len, k = SIZE_MAX, line, n = 0;

	for (p = err; *p; p += len + (p[len] == '\n')) {
		struct job *j;

		len = strcspn(p, "\n");
		if (figure_mark(p, len, &k))
			continue;
		msg = batch_place(p, len, &line);
		if (!msg || strncmp(msg, "warning:", 8))
			continue;
		j = drawn_job(pl, k);
		buf_reset(&key);
		buf_addf(&key, "\n%s %.*s\n", j ? j->use->label : "",
			 (int)(len - (size_t)(msg - p)), msg);
		if (strstr(seen.data, key.data))
			continue;
		buf_add(&seen, key.data, key.len);
		report_message(pl, p, len, NULL, 0, k);
		n++;
	}
	buf_release(&seen);
	buf_release(&key);
	return n;
}

/* ------------------------------------------------------------ gnuplot */

/*
 * Gives gnuplot batch k: it changes to the batch's folder and loads its
 * file (.batch-K.gp, which loads each figure's file). Its standard
 * input stays open for the next batch until plot_finish(). Returns 0,
 * or -1 after printing an error when gnuplot could not be started or
 * cannot be written the folder's name.
 */
static int
hand_over(struct plot *pl, size_t k)
{
	const char *work = pl->batches[k].work, *p;
	struct buf cmd = BUF_INIT;

	if (gnuplot_check(pl->g))
		return -1;
	if (strpbrk(work, "\n\r"))
		return error("cannot draw figures in '%s': gnuplot takes no "
			     "line break in a folder name", work);
	BUF_ADDLIT(&cmd, "cd '");
	for (p = work; *p; p++) {
		/* In single quotes, gnuplot reads '' as one quote. */
		if (*p == '\'')
			buf_addch(&cmd, '\'');
		buf_addch(&cmd, *p);
	}
	BUF_ADDLIT(&cmd, "'\n");
	if (!pl->handed) {
		/* Its messages then count lines right (LONG_LINE). */
		size_t end = cmd.len + LONG_LINE;

		buf_addch(&cmd, '#');
		while (cmd.len < end)
			buf_addch(&cmd, ' ');
		buf_addch(&cmd, '\n');
	}
	buf_addf(&cmd, "load '.batch-%zu.gp'\n", k);
	gnuplot_send(pl->g, cmd.data, cmd.len);
	pl->handed = 1;
	buf_release(&cmd);
	return 0;
}

/* --------------------------------------------------------------- SVG */

struct svg_root {
	XML_Parser p;
	int seen;		/* the root element was reached */
	int svg;		/* and it is SVG's <svg> */
	size_t end;		/* of the root's start tag, in bytes */
};

static void XMLCALL
on_element(void *ctx, const XML_Char *name, const XML_Char **attrs)
{
	struct svg_root *r = ctx;

	(void)attrs;
	if (!r->seen++) {
		r->svg = !strcmp(name, "http://www.w3.org/2000/svg svg");
		r->end = (size_t)XML_GetCurrentByteIndex(r->p) +
			 (size_t)XML_GetCurrentByteCount(r->p);
	}
}

/*
 * Whether data is a well-formed XML document whose root is SVG's <svg>
 * (namespaces resolved; external entities and DTDs are never loaded).
 * Returns NULL when it is, with where the root's start tag ends in
 * *root_end, else what is wrong, in why.
 */
static const char *
check_svg(const char *data, size_t len, struct buf *why, size_t *root_end)
{
	XML_Parser p;
	struct svg_root r = { NULL, 0, 0, 0 };
	const char *ret = NULL;

	if (!len)
		return "the file is empty";
	p = XML_ParserCreateNS(NULL, ' ');
	if (!p)
		die("out of memory");
	r.p = p;
	XML_SetUserData(p, &r);
	XML_SetStartElementHandler(p, on_element);
	if (len > INT32_MAX) {
		ret = "the file is too large";
	} else if (XML_Parse(p, data, (int)len, 1) != XML_STATUS_OK) {
		buf_addf(why, "not well-formed XML: %s at line %lu",
			 XML_ErrorString(XML_GetErrorCode(p)),
			 (unsigned long)XML_GetCurrentLineNumber(p));
		ret = why->data;
	} else if (!r.svg) {
		ret = "its root element is not <svg> (of the SVG namespace)";
	} else if (r.end > len) {
		BUG("expat put the root's start tag past the end");
	}
	*root_end = r.end;
	XML_ParserFree(p);
	return ret;
}

/* ------------------------------------------------------------- stages */

/* Frees what plot_start() kept for plot_finish(). */
static void
plot_free(struct plot *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++) {
		buf_release(&pl->jobs[i].pre);
	}
	srcfile_free(pl->style);
	for (i = 0; i < pl->nbatches; i++) {
		free(pl->batches[i].dir);
		free(pl->batches[i].work);
		free(pl->batches[i].what);
		buf_release(&pl->batches[i].prev);
	}
	free(pl->batches);
	free(pl->jobs);
	if (pl->handed && gnuplot_running(pl->g)) {
		/* Failed after the hand-over: what it wrote must not stay. */
		gnuplot_stop(pl->g);
		site_verify(pl->site, "gnuplot");
	} else {
		gnuplot_stop(pl->g);
	}
	free(pl);
}

/* j's figure's name: its label, and "-narrow" for the narrow one. */
static void
add_stem(struct buf *out, const struct job *j)
{
	buf_addf(out, "%s%s", j->use->label, variants[j->variant].suffix);
}

/* The published path of j's figure, "<dir>/<stem>.svg", into path. */
static void
svg_path(const struct plot *pl, const struct job *j, struct buf *path)
{
	buf_reset(path);
	buf_addf(path, "%s/", pl->batches[j->batch].dir);
	add_stem(path, j);
	BUF_ADDLIT(path, ".svg");
}

/*
 * Whether outdir/path holds the figure drawn with key svgkey; when data
 * is not NULL it receives the bytes.
 */
static int
published_is(const char *outdir, const char *path, uint64_t svgkey,
	     struct buf *data)
{
	struct buf full = BUF_INIT;
	uint64_t have = HASH_INIT;
	int ok;

	buf_addf(&full, "%s/%s", outdir, path);
	if (data) {
		ok = !buf_read_file_flags(data, full.data, FILE_NOFOLLOW) &&
		     hash_bytes(HASH_INIT, data->data, data->len) == svgkey;
	} else {
		ok = !hash_file(&have, full.data, 1) && have == svgkey;
	}
	buf_release(&full);
	return ok;
}

/*
 * Whether the published figure of j can be kept: the previous run drew
 * it from what j is drawn from, and it still holds what was drawn, so a
 * figure changed or removed by hand is drawn again.
 */
static int
keep_cached(struct plot *pl, struct job *j, struct buf *path)
{
	uint64_t old;

	buf_reset(path);
	add_stem(path, j);
	if (!cached_key(&pl->batches[j->batch].prev, path->data, &old,
			&j->svgkey) || old != j->key)
		return 0;
	svg_path(pl, j, path);
	return published_is(site_outdir(pl->site), path->data, j->svgkey,
			    NULL);
}

/*
 * j is drawn from what an earlier job of the run is drawn from (another
 * edition's figure with the same data): it is not drawn again. When the
 * earlier one is kept from the published output, so is this one (its
 * bytes copied); when it is drawn, this one is staged with its bytes.
 * Returns 0, or -1 after an error writing the copy.
 */
static int
share_figure(struct plot *pl, struct job *j, struct buf *path)
{
	struct buf svg = BUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; &pl->jobs[i] != j; i++) {
		struct job *o = &pl->jobs[i];

		if (o->same != SIZE_MAX || o->key != j->key ||
		    o->variant != j->variant ||
		    strcmp(o->use->label, j->use->label))
			continue;
		if (!o->cached) {
			j->same = i;
			break;
		}
		svg_path(pl, o, path);
		if (!published_is(site_outdir(pl->site), path->data,
				  o->svgkey, &svg))
			continue;
		svg_path(pl, j, path);
		j->svgkey = o->svgkey;
		j->cached = 1;
		ret = site_write(pl->site, path->data, svg.data, svg.len);
		break;
	}
	buf_release(&svg);
	return ret;
}

/*
 * Batch k's folder in the staged tree (site_root()/dir), into its work:
 * gnuplot reads the data files there and draws the figures there.
 * 0, or -1 after printing an error.
 */
static int
make_work(struct plot *pl, size_t k)
{
	struct batch *b = &pl->batches[k];
	struct buf path = BUF_INIT;
	int ret;

	buf_addf(&path, "%s/.batch-%zu.gp", b->dir, k);
	ret = site_mkdirs(pl->site, path.data);
	buf_reset(&path);
	buf_addf(&path, "%s/%s", site_root(pl->site), b->dir);
	/*
	 * Absolute: gnuplot changes to one batch's folder after another,
	 * and a relative name would be taken from the one before.
	 */
	b->work = ret ? NULL : file_realpath(path.data);
	if (!ret && !b->work)
		ret = error("cannot find '%s': %s", path.data,
			    strerror(errno));
	buf_release(&path);
	return ret;
}

struct plot *
plot_begin(struct site *site, const struct plot_options *opt)
{
	struct plot *pl = xcalloc(1, sizeof(*pl));

	pl->site = site;
	pl->opt = opt;
	pl->timeout = opt->timeout;
	return pl;
}

/*
 * Reads the house style, figdir/style.gp, once, for the first figure to
 * be drawn. Returns 0, or -1 after printing an error under u (once).
 */
static int
load_style(struct plot *pl, const struct figure *u)
{
	struct buf path = BUF_INIT;
	size_t i;

	if (pl->style || pl->style_failed)
		return pl->style ? 0 : -1;
	buf_addf(&path, "%s/%s.gp", pl->opt->figdir, STYLE);
	pl->style = srcfile_load(path.data);
	if (!pl->style) {
		use_error(u, errno == ENOENT ? "no house style '%s' to draw "
			  "it with" : "cannot read the house style '%s': %s",
			  path.data, file_strerror(errno));
		pl->style_failed = 1;
	} else {
		pl->style->show_source = 1;
		for (i = 0; i < pl->style->len; i++)
			pl->style_lines += pl->style->data[i] == '\n';
		if (pl->style->len &&
		    pl->style->data[pl->style->len - 1] != '\n')
			pl->style_lines++;
	}
	buf_release(&path);
	return pl->style ? 0 : -1;
}

/* A dataset written for the batch, with its text, for gnuplot's copy. */
struct written {
	char *name;
	struct buf text;
};

/* The datasets a batch has written. */
struct data_written {
	struct written *v;
	size_t n, cap;
};

/*
 * The datasets a figure reads (names, space-separated), each written to
 * the site once for the batch (dir/NAME.dat) and into dw; their names
 * and bytes go into *dkey, the figure's data key. Returns 0, or -1
 * when one could not be written.
 */
static int
write_data(struct plot *pl, const char *dir, const char *names,
	   const struct datasets *ds, const struct datasets *mine,
	   struct data_written *dw, uint64_t *dkey)
{
	struct buf file = BUF_INIT, path = BUF_INIT;
	const char *w;
	size_t k;
	int ret = 0;

	for (w = names; *w;) {
		const struct dataset *d;
		size_t len;
		char *nm;

		w += strspn(w, " ");
		len = strcspn(w, " ");
		if (!len)
			break;
		nm = xstrndup(w, len);
		w += len;
		d = dataset_of(ds, mine, nm);
		if (!d)
			BUG("dataset '%s' passed read_header()", nm);
		buf_reset(&file);
		figdata_write(d, pl->opt->max_points, &file);
		*dkey = hash_bytes(*dkey, nm, len + 1);
		*dkey = hash_bytes(*dkey, file.data, file.len);
		for (k = 0; k < dw->n; k++)
			if (!strcmp(dw->v[k].name, nm))
				break;
		if (k < dw->n) {
			free(nm);
			continue;
		}
		buf_reset(&path);
		buf_addf(&path, "%s/%s.dat", dir, nm);
		if (site_write(pl->site, path.data, file.data, file.len))
			ret = -1;
		dw->v = xgrow(dw->v, &dw->cap, dw->n + 1, sizeof(*dw->v));
		/* Kept, not copied: file starts afresh. */
		dw->v[dw->n].name = nm;
		dw->v[dw->n++].text = file;
		buf_init(&file);
	}
	buf_release(&file);
	buf_release(&path);
	return ret;
}

/*
 * The renderings of figure use, the jobs j[0..NVARIANTS): each one's
 * preamble (vars, its size), its key, and whether the last run's SVG
 * stays or another job's is shared. Returns 0, or -1 after an error.
 */
static int
variant_jobs(struct plot *pl, struct job *j, const struct figure *use,
	     const struct buf *vars, uint64_t dkey)
{
	struct buf path = BUF_INIT;
	size_t v;
	int ret = 0;

	for (v = 0; v < NVARIANTS; v++) {
		j[v].script = j->script;
		/*
		 * The terminal is set again for every figure: gnuplot's SVG
		 * terminal carries state (the current colour) from one plot
		 * to the next, and a figure must not depend on which others
		 * were drawn before it in the same process.
		 */
		buf_addf(&j[v].pre, "reset\n" TERMINAL "\n" PRIMER
			 "reset\nset output '%s%s.svg'\n"
			 "set datafile separator \"\\t\"\n"
			 "set datafile missing \"?\"\n"
			 "narrow = %zu\n", variants[v].size, use->label,
			 variants[v].suffix, v);
		buf_add(&j[v].pre, vars->data, vars->len);
		j[v].key = hash_bytes(HASH_INIT, j[v].pre.data, j[v].pre.len);
		j[v].key = hash_bytes(j[v].key, pl->style->data,
				      pl->style->len);
		j[v].key = hash_bytes(j[v].key, j->script->data,
				      j->script->len);
		j[v].key = hash_bytes(j[v].key, &dkey, sizeof(dkey));
		/* Unchanged since the last run: the SVG stays. */
		if (keep_cached(pl, &j[v], &path)) {
			site_keep(pl->site, path.data, j[v].svgkey);
			j[v].cached = 1;
		} else if (share_figure(pl, &j[v], &path)) {
			ret = -1;
		}
	}
	buf_release(&path);
	return ret;
}

int
plot_add(struct plot *pl, const char *dir, const char *what,
	 const struct registry *reg, const struct datasets *ds,
	 const struct figure *uses, size_t n)
{
	const struct plot_options *opt = pl->opt;
	struct site *site = pl->site;
	struct datasets mine = { 0 };
	struct buf batch = BUF_INIT, data = BUF_INIT, path = BUF_INIT;
	struct buf vars = BUF_INIT;
	struct data_written dw = { NULL, 0, 0 };
	size_t i, k, line, from, nb = pl->nbatches;
	struct batch *b;
	int ret = 0;

	pl->batches = xgrow(pl->batches, &pl->bcap, nb + 1,
			    sizeof(*pl->batches));
	b = &pl->batches[pl->nbatches++];
	memset(b, 0, sizeof(*b));
	b->dir = xstrdup(dir);
	b->what = what ? xstrdup(what) : NULL;
	b->first = pl->n;
	b->n = n * NVARIANTS;
	buf_init(&b->prev);
	pl->jobs = xgrow(pl->jobs, &pl->cap, pl->n + n * NVARIANTS,
			 sizeof(*pl->jobs));
	/* The previous run's cache manifest, read once (none: all drawn). */
	buf_addf(&path, "%s/%s/.cache", site_outdir(site), dir);
	if (buf_read_file_flags(&b->prev, path.data, FILE_NOFOLLOW))
		buf_reset(&b->prev);
	for (i = 0; i < n; i++) {
		struct job *j = &pl->jobs[pl->n];
		uint64_t dkey = HASH_INIT;
		size_t v;

		/* One job a rendering, all made before anything can fail. */
		for (v = 0; v < NVARIANTS; v++) {
			memset(&j[v], 0, sizeof(*j));
			j[v].use = &uses[i];
			j[v].batch = nb;
			j[v].same = SIZE_MAX;
			j[v].variant = v;
			buf_init(&j[v].pre);
		}
		pl->n += NVARIANTS;
		if (!strcmp(uses[i].label, STYLE)) {
			ret = use_error(&uses[i], "'%s/%s.gp' is the house "
					"style of the figures, not a figure",
					opt->figdir, STYLE);
			continue;
		}
		/* Read once, by the template stage (figure.h). */
		j->script = uses[i].script;
		if (!j->script) {
			buf_reset(&path);
			buf_addf(&path, "%s/%s.gp", opt->figdir, uses[i].label);
			ret = use_error(&uses[i], uses[i].error == ENOENT ?
					"no script '%s' to draw it" :
					"cannot read '%s': %s", path.data,
					file_strerror(uses[i].error));
			continue;
		}
		buf_reset(&vars);
		buf_reset(&data);
		if (read_header(&uses[i], &vars, reg, ds, &mine, &data) ||
		    load_style(pl, &uses[i])) {
			ret = -1;
			continue;
		}
		/* Each dataset the script reads: written once, keyed in. */
		if (write_data(pl, dir, data.data, ds, &mine, &dw, &dkey))
			ret = -1;
		if (variant_jobs(pl, j, &uses[i], &vars, dkey))
			ret = -1;
	}
	if (ret)
		goto out;

	for (i = b->first; i < b->first + b->n; i++)
		if (!pl->jobs[i].cached && pl->jobs[i].same == SIZE_MAX)
			b->todo++;
	if (!b->todo)
		goto out;
	if (make_work(pl, nb)) {
		ret = -1;
		goto out;
	}
	/*
	 * The figures to draw, one after another in the batch file (not
	 * published: written beside the figures, not staged), each after
	 * a line that has gnuplot print its mark, so that a message is
	 * told under the figure that caused it. A file for each figure,
	 * loaded by the batch, had done the same at 12 ms more of a cold
	 * edition on disk (161 against 178 ms, --timings total, 5 runs):
	 * creating a file there took about half a millisecond.
	 */
	for (i = b->first, line = 1; i < b->first + b->n; i++) {
		struct job *j = &pl->jobs[i];

		if (j->cached || j->same != SIZE_MAX)
			continue;
		buf_addf(&batch, "set print\nprint \"" FIGURE_MARK "%zu\"\n",
			 i);
		j->first_line = line + 2;
		from = batch.len;
		buf_add(&batch, j->pre.data, j->pre.len);
		add_lines(&batch, pl->style->data, pl->style->len);
		add_lines(&batch, j->script->data, j->script->len);
		BUF_ADDLIT(&batch, "unset output\n");
		for (line += 2; from < batch.len; from++)
			line += batch.data[from] == '\n';
	}
	buf_reset(&path);
	buf_addf(&path, "%s/.batch-%zu.gp", b->work, nb);
	if (!ret)
		ret = write_file(path.data, &batch);
	/*
	 * gnuplot reads the data in the staged tree, where only the changed
	 * files went: the others are put there too, unpublished (out/
	 * keeps its copies).
	 */
	for (k = 0; k < dw.n && !ret; k++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s.dat", dir, dw.v[k].name);
		if (site_staged(site, path.data))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s.dat", b->work, dw.v[k].name);
		ret = write_file(path.data, &dw.v[k].text);
	}
	if (ret)
		goto out;
	if (!pl->g)
		pl->g = gnuplot_start(opt->gnuplot);
	/* What gnuplot may write outside its folders, it must not. */
	if (!pl->handed && site_watch(site))
		ret = -1;
	else if (hand_over(pl, nb))
		ret = -2;
out:
	for (k = 0; k < dw.n; k++) {
		free(dw.v[k].name);
		buf_release(&dw.v[k].text);
	}
	free(dw.v);
	datasets_release(&mine);
	buf_release(&batch);
	buf_release(&data);
	buf_release(&path);
	buf_release(&vars);
	return ret;
}

void
plot_cancel(struct plot *pl)
{
	if (pl)
		plot_free(pl);
}

/*
 * The figure gnuplot was drawing when it was stopped: the last one whose
 * file it had opened (set output creates it), else the first drawn.
 */
static struct job *
stopped_at(struct plot *pl)
{
	struct buf path = BUF_INIT;
	struct job *j = NULL;
	struct stat st;
	size_t i;

	for (i = 0; i < pl->n; i++) {
		struct job *o = &pl->jobs[i];

		if (o->cached || o->same != SIZE_MAX)
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/", pl->batches[o->batch].work);
		add_stem(&path, o);
		BUF_ADDLIT(&path, ".svg");
		if (!j || !lstat(path.data, &st))
			j = o;
	}
	buf_release(&path);
	return j;
}

/*
 * Checks and stages the figures gnuplot drew, and the copies of each in
 * other editions. Returns 0, -2 after an error about a figure, or -1
 * when a write failed.
 */
static int
stage_figures(struct plot *pl)
{
	struct buf path = BUF_INIT, svg = BUF_INIT, why = BUF_INIT;
	const char *bad;
	size_t i, k, end;
	int ret = 0;

	for (i = 0; i < pl->n; i++) {
		struct job *j = &pl->jobs[i];
		const char *what = pl->batches[j->batch].what;

		if (j->cached || j->same != SIZE_MAX)
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/", pl->batches[j->batch].work);
		add_stem(&path, j);
		BUF_ADDLIT(&path, ".svg");
		buf_reset(&svg);
		buf_reset(&why);
		if (buf_read_file_flags(&svg, path.data, FILE_NOFOLLOW)) {
			use_error(j->use, "%s drew no figure%s%s: %s",
				  j->script->name, what ? " for " : "",
				  what ? what : "", errno == ENOENT ?
				  "gnuplot wrote no SVG file" :
				  file_strerror(errno));
			ret = -2;
			continue;
		}
		bad = check_svg(svg.data, svg.len, &why, &end);
		if (bad) {
			use_error(j->use, "%s drew no usable figure%s%s: %s",
				  j->script->name, what ? " for " : "",
				  what ? what : "", bad);
			ret = -2;
			continue;
		}
		/* Its dark rendering: the page's colour scheme, inside it. */
		buf_reset(&why);
		buf_add(&why, svg.data, end);
		BUF_ADDLIT(&why, DARK_CSS);
		buf_add(&why, svg.data + end, svg.len - end);
		buf_reset(&svg);
		buf_add(&svg, why.data, why.len);
		if (!ret && write_file(path.data, &svg))
			ret = -1;
		svg_path(pl, j, &path);
		j->svgkey = hash_bytes(HASH_INIT, svg.data, svg.len);
		if (!ret && site_adopt(pl->site, path.data, svg.data, svg.len))
			ret = -1;
		for (k = i + 1; k < pl->n && !ret; k++) {
			struct job *o = &pl->jobs[k];

			if (o->same != i)
				continue;
			o->svgkey = j->svgkey;
			svg_path(pl, o, &path);
			if (site_write(pl->site, path.data, svg.data, svg.len))
				ret = -1;
		}
	}
	buf_release(&path);
	buf_release(&svg);
	buf_release(&why);
	return ret;
}

int
plot_finish(struct plot *pl)
{
	struct buf err = BUF_INIT, cache = BUF_INIT, path = BUF_INIT;
	struct job *j;
	size_t i, k;
	int ret = 0, status, why = 0;

	if (!pl)
		return 0;
	if (pl->g) {
		timing_begin("gnuplot");
		status = gnuplot_wait(pl->g, pl->timeout, &err, &why);
		timing_end();
		if (site_verify(pl->site, "gnuplot"))
			ret = -2;
		if (why && why != 'T') {
			ret = -1;	/* interrupted: said by the caller */
		} else if (why == 'T') {
			j = stopped_at(pl);
			use_error(j->use, "gnuplot did not finish %s%s%s within "
				  "%g s (--figure-timeout); stopped",
				  j->script->name,
				  pl->batches[j->batch].what ? " for " : "",
				  pl->batches[j->batch].what ?
				  pl->batches[j->batch].what : "",
				  pl->timeout);
			ret = -2;
		} else if (status < 0) {
			error("cannot wait for gnuplot: %s", strerror(errno));
			ret = -2;
		} else if (WIFSIGNALED(status)) {
			buf_addf(&err, "gnuplot was killed by signal %d",
				 WTERMSIG(status));
			report_failure(pl, err.data, 128 + WTERMSIG(status));
			ret = -2;
		} else if (WEXITSTATUS(status)) {
			report_failure(pl, err.data, WEXITSTATUS(status));
			ret = -2;
		} else if (report_warnings(pl, err.data)) {
			/* Drawn, but not what the script meant. */
			ret = -2;
		}
		if (!ret)
			ret = stage_figures(pl);
	}
	/* Each folder's figure cache: what each was drawn from, and what. */
	for (k = 0; !ret && k < pl->nbatches; k++) {
		const struct batch *b = &pl->batches[k];

		buf_reset(&cache);
		for (i = b->first; i < b->first + b->n; i++) {
			add_stem(&cache, &pl->jobs[i]);
			buf_addf(&cache, " %016llx %016llx\n",
				 (unsigned long long)pl->jobs[i].key,
				 (unsigned long long)pl->jobs[i].svgkey);
		}
		buf_reset(&path);
		buf_addf(&path, "%s/.cache", b->dir);
		if (site_write(pl->site, path.data, cache.data, cache.len))
			ret = -1;
	}
	buf_release(&cache);
	buf_release(&path);
	buf_release(&err);
	plot_free(pl);
	return ret;
}
