/*
 * The template stage's expansion: the tree of a template (tparse.c) ->
 * Markdown with every value filled in from the quantity registry
 * (template_expand()), with the snippets, links and figures the render
 * stage needs. Prints errors with their location; writes nothing else.
 * Figures are only placed here, each described for the plot stage
 * (figure.h: its script read once); drawing them is the plot stage's
 * job.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "expr.h"
#include "figure.h"
#include "file.h"
#include "format.h"
#include "registry.h"
#include "suggest.h"
#include "template.h"
#include "tmpl.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* --------------------------------------------------------------- expand */

struct binding {
	const char *var;
	const char *prefix;	/* "device.roadrunner" (in) */
	const char *name;	/* the quantity (of) */
};

struct expander {
	const struct registry *reg;
	struct expansion *x;
	struct binding *bind;
	size_t nbind, bind_cap;
	size_t steps;		/* nodes expanded, for TEMPLATE_MAX_STEPS */
	const struct tnode *bib_node;	/* {{ references() }} */
	int stopped;		/* a limit hit or interrupted: no more */
	int failed;
	int text_only;		/* template_expand_text(): no page around */
	/* The buffer each of x->spans is in until it reaches x->md. */
	const struct buf **span_in;
	size_t span_in_cap;
};

static int
resolve(void *ctx, const char *name, struct buf *out)
{
	struct expander *ex = ctx;
	size_t i, n;

	for (i = ex->nbind; i > 0; i--) {
		const struct binding *b = &ex->bind[i - 1];

		n = strlen(b->var);
		if (strncmp(name, b->var, n) || (name[n] && name[n] != '.'))
			continue;
		if (b->name) {
			if (name[n])
				return -1;
			buf_addstr(out, b->name);
		} else {
			buf_addf(out, "%s%s", b->prefix, name[n] ? name + n :
				 ".id");
		}
		return 0;
	}
	return -1;
}

/* How expressions look names up while expanding: through the loops. */
static struct expr_env
env_of(struct expander *ex, int missing_ok)
{
	struct expr_env env = { .reg = ex->reg, .resolve = resolve, .ctx = ex,
				.missing_ok = missing_ok };

	return env;
}

void
md_escape(struct buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n' || c == '\r' || c == '\t')
			buf_addch(out, ' ');
		else if (c < 0x20 || c == 0x7f)
			continue;
		else if (c < 0x80 && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
					    c)) {
			buf_addch(out, '\\');
			buf_addch(out, c);
		} else {
			buf_addch(out, c);
		}
	}
}

/* Text for plain contexts (alt text): control characters become spaces. */
static void
plain_text(struct buf *out, const char *s)
{
	for (; *s; s++)
		buf_addch(out, (unsigned char)*s < 0x20 ? ' ' : *s);
}

/* A random x->nonce, which text from data cannot know: "U" and 16 hex. */
static void
nonce_init(struct expansion *x)
{
	unsigned char r[8] = { 0 };
	int fd = open("/dev/urandom", O_RDONLY);
	size_t i;

	if (fd < 0 || read(fd, r, sizeof(r)) != (ssize_t)sizeof(r)) {
		/* Weaker, but the nonce only guards against forged tokens. */
		unsigned long v = (unsigned long)time(NULL) ^
				  ((unsigned long)getpid() << 16);

		for (i = 0; i < sizeof(r); i++)
			r[i] ^= (unsigned char)(v >> (i * 8 % 32));
	}
	if (fd >= 0)
		close(fd);
	x->nonce[0] = 'U';
	for (i = 0; i < sizeof(r); i++)
		snprintf(x->nonce + 1 + 2 * i, 3, "%02x", r[i]);
}

/* Adds a trusted snippet; its token goes on a line of its own in md. */
static void
add_snippet(struct expander *ex, struct buf *md, const char *html)
{
	struct expansion *x = ex->x;
	struct buf tok = BUF_INIT;

	buf_addf(&tok, "%s%zu", x->nonce, x->nsnippets);
	x->snippets = xgrow(x->snippets, &x->snippets_cap, x->nsnippets + 1,
			    sizeof(*x->snippets));
	x->snippets[x->nsnippets].html = xstrdup(html);
	x->snippets[x->nsnippets].formula = NULL;
	x->snippets[x->nsnippets++].token = xstrdup(tok.data);
	buf_addf(md, "\n\n%s\n\n", tok.data);
	buf_release(&tok);
}

static int
xerr(struct expander *ex, const struct srcloc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
xerr(struct expander *ex, const struct srcloc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
	ex->failed = 1;
	return -1;
}

/*
 * Notes that n's text is about to be appended to out: a span of out,
 * moved into x->md with the text it is copied into (move_spans()).
 */
static void
add_span(struct expander *ex, const struct buf *out, const struct tnode *n)
{
	struct expansion *x = ex->x;

	if (!n->len)
		return;
	ex->span_in = xgrow(ex->span_in, &ex->span_in_cap, x->nspans + 1,
			    sizeof(*ex->span_in));
	ex->span_in[x->nspans] = out;
	x->spans = xgrow(x->spans, &x->spans_cap, x->nspans + 1,
			 sizeof(*x->spans));
	x->spans[x->nspans].off = out->len;
	x->spans[x->nspans].len = n->len;
	x->spans[x->nspans].loc = n->loc;
	x->spans[x->nspans++].loc.len = n->len;
}

/*
 * The bytes of from after its first skip were appended to to at at:
 * its spans (the last ones noted) follow them there.
 */
static void
move_spans(struct expander *ex, const struct buf *from, size_t skip,
	   const struct buf *to, size_t at)
{
	struct expansion *x = ex->x;
	size_t i = x->nspans;

	while (i > 0 && ex->span_in[i - 1] == from) {
		struct mdspan *sp = &x->spans[--i];

		ex->span_in[i] = to;
		if (sp->off < skip) {
			size_t cut = skip - sp->off < sp->len ?
				     skip - sp->off : sp->len;

			sp->off += cut;
			sp->len -= cut;
			sp->loc.off += cut;
			sp->loc.len -= cut;
		}
		sp->off = sp->off - skip + at;
	}
}

/*
 * Whether v's unit counts (format_count_unit()): the unit as written
 * when there is one, else its dimension: a pure number of scale 1, or
 * years (what year - year gives).
 */
static int
counts(const struct value *v)
{
	struct unit yr;

	if (v->utext)
		return format_count_unit(v->utext);
	if (unit_dimensionless(&v->unit))
		return v->unit.scale == 1;
	return !unit_parse("yr", &yr, NULL) && unit_same_dim(&v->unit, &yr) &&
	       v->unit.scale == yr.scale;
}

/*
 * Writes one formatted number; -1 when the format cannot write it.
 * Without a format, a count (a whole number below 10^15 of a unit that
 * counts()) is written as one, "35", anything else as sci:3.
 */
static int
write_number(struct buf *out, const struct value *val, const struct fmt *f)
{
	double v = val->num;

	if (!f && counts(val) && !format_count(out, v))
		return 0;
	switch (f ? f->kind : F_SCI) {
	case F_SCI: return format_sci(out, v, f ? f->arg : 3);
	case F_E: return format_e(out, v, f->arg);
	case F_FIXED: return format_fixed(out, v, f->arg);
	case F_SIG: return format_sig_grouped(out, v, f->arg);
	case F_INT: return format_int(out, v);
	case F_YEAR: return format_year(out, v);
	case F_POW10: return format_pow10(out, v);
	case F_BYTES: return format_bytes(out, v, f->arg, 0);
	case F_IBYTES: return format_bytes(out, v, f->arg, 1);
	default: BUG("format %d for a number", (int)f->kind);
	}
}

/*
 * | in:"L": v's number in that unit, which becomes v's unit. Returns -1
 * after an error when the dimensions differ.
 */
static int
convert_value(struct expander *ex, struct value *v, const struct fmt *f)
{
	struct buf u = BUF_INIT;

	if (!unit_same_dim(&v->unit, &f->in)) {
		value_unit_text(v, &u);
		xerr(ex, &f->loc, "cannot convert %s to %s", u.data, f->text);
		buf_release(&u);
		return -1;
	}
	if (v->unit.scale != f->in.scale)
		v->num *= v->unit.scale / f->in.scale;
	v->unit = f->in;
	v->utext = f->text;
	return 0;
}

/*
 * bytes and ibytes write a number of bytes: bits and other units of
 * information become bytes, a pure number is taken as bytes. -1 after
 * an error for any other unit.
 */
static int
bytes_value(struct expander *ex, struct value *v, const struct fmt *f)
{
	struct unit byte;
	struct buf u = BUF_INIT;

	if (unit_dimensionless(&v->unit) && v->unit.scale == 1)
		return 0;
	unit_parse("B", &byte, NULL);
	if (!unit_same_dim(&v->unit, &byte)) {
		value_unit_text(v, &u);
		xerr(ex, &f->loc, "format '%s' needs a number of bytes, got %s",
		     fmt_info[f->kind].name, u.data);
		buf_release(&u);
		return -1;
	}
	if (v->unit.scale != byte.scale)
		v->num *= v->unit.scale / byte.scale;
	return 0;
}

/* 1 when e is equation(NAME) or math(NAME): a formula to typeset. */
static int
is_show(const struct expr *e)
{
	return expr_kind(e) == EXPR_CALL &&
	       (!strcmp(expr_text(e), "equation") ||
		!strcmp(expr_text(e), "math"));
}

/*
 * {{ equation(NAME) }}: NAME's formula as a block equation (a snippet,
 * a paragraph of its own); {{ math(NAME) }}: inline, a token that html.c
 * typesets in its place. Plain text (md 0) gets the formula as text.
 */
static void
expand_show(struct expander *ex, const struct tnode *n, struct buf *out,
	    int md)
{
	struct expr_env env = env_of(ex, 0);
	const char *fn = expr_text(n->expr);
	int block = !strcmp(fn, "equation");
	const struct quantity *q;
	struct value v;

	if (n->nfmts) {
		xerr(ex, &n->fmts[0].loc, "'%s' takes no format", fn);
		return;
	}
	if (expr_eval(expr_arg(n->expr, 0), &env, &v)) {
		ex->failed = 1;
		return;
	}
	q = v.q;
	value_release(&v);
	if (!q->expr) {
		xerr(ex, &n->loc, "'%s' has no formula to typeset (only a "
		     "description: '%s')", q->name, q->formula);
		return;
	}
	if (!md) {
		buf_addf(out, "%s = %s", q->name, q->expr);
		return;
	}
	/* Typeset by html.c: its links depend on the page it renders. */
	if (block) {
		add_snippet(ex, out, "");
		ex->x->snippets[ex->x->nsnippets - 1].formula = q;
	} else if (ex->x->nlinks < 1000000) {
		struct expansion *x = ex->x;
		struct buf text = BUF_INIT;

		buf_addf(&text, "%s = %s", q->name, q->expr);
		x->links = xgrow(x->links, &x->links_cap, x->nlinks + 1,
				 sizeof(*x->links));
		x->links[x->nlinks].text = buf_detach(&text, NULL);
		x->links[x->nlinks].name = q->name;
		x->links[x->nlinks].formula = q;
		buf_addf(out, "%s-q%06zu", x->nonce, x->nlinks++);
	}
}

/* 1 when e is cite(KEY) or references(). */
static int
is_cite(const struct expr *e)
{
	return expr_kind(e) == EXPR_CALL &&
	       (!strcmp(expr_text(e), "cite") ||
		!strcmp(expr_text(e), "references"));
}

/* Cites e from node n: a link to its entry, its label in plain text. */
static void
cite_entry(struct expander *ex, const struct tnode *n,
	   const struct bib_entry *e, struct buf *out, int md)
{
	struct expansion *x = ex->x;
	size_t i;

	if (!x->cite_loc.file)
		x->cite_loc = n->loc;
	for (i = 0; i < x->ncited && x->cited[i] != e; i++)
		;
	if (i == x->ncited) {
		x->cited = xgrow(x->cited, &x->cited_cap, x->ncited + 1,
				 sizeof(*x->cited));
		x->cited[x->ncited++] = e;
	}
	if (!md) {
		plain_text(out, e->label);
		return;
	}
	BUF_ADDLIT(out, "[");
	md_escape(out, e->label);
	buf_addf(out, "](%s#ref-%s)", x->bib_page ? x->bib_page : "", e->key);
}

/*
 * {{ cite(KEY) }}: a link to KEY's entry in the references list (its
 * label as text where links cannot go); {{ references() }}: the list of
 * the entries cited on the page, written when expansion ends.
 */
static void
expand_cite(struct expander *ex, const struct tnode *n, struct buf *out,
	    int md)
{
	struct expansion *x = ex->x;
	const struct bib_entry *e;
	const char *key;
	size_t i;

	if (n->nfmts) {
		xerr(ex, &n->fmts[0].loc, "'%s' takes no format",
		     expr_text(n->expr));
		return;
	}
	if (!strcmp(expr_text(n->expr), "references")) {
		if (ex->bib_node) {
			xerr(ex, &n->loc, "a second references list: a page "
			     "has one");
			return;
		}
		ex->bib_node = n;
		if (!md)
			return;
		x->bib_snippet = x->nsnippets + 1;
		add_snippet(ex, out, "");
		return;
	}
	key = expr_text(expr_arg(n->expr, 0));
	if (!(e = bib_find(x->bib, key))) {
		struct buf hint = BUF_INIT;
		const char *near[3];
		size_t nn = 0;

		if (!x->bib || !x->bib->n) {
			xerr(ex, &n->loc, "unknown reference '%s': there is no "
			     "references.csv in the data folder", key);
			return;
		}
		/* The closest keys, as for a [key] in a data cell (bib.c). */
		if (!diag_full()) {
			struct suggest sg;

			suggest_init(&sg, key, near, 3);
			for (i = 0; i < x->bib->n; i++)
				suggest_add(&sg, x->bib->v[i].key);
			nn = suggest_end(&sg);
		}
		suggest_hint(&hint, near, nn);
		xerr(ex, &n->loc, "unknown reference '%s' (not a key of %s)%s",
		     key, x->bib->file, hint.data);
		buf_release(&hint);
		return;
	}
	cite_entry(ex, n, e, out, md);
}

/*
 * A text value (a source from the data): each [key] of the references
 * list in it is cited as {{ cite(key) }} would; the rest is text.
 */
static void
text_with_cites(struct expander *ex, const struct tnode *n,
		struct buf *out, int md, const char *text)
{
	struct buf chunk = BUF_INIT;
	const struct bib_entry *e;
	size_t len;

	for (; *text; text += len) {
		if ((len = bib_marker(ex->x->bib, text, &e)) && e) {
			(md ? md_escape : plain_text)(out, chunk.data);
			buf_reset(&chunk);
			cite_entry(ex, n, e, out, md);
			continue;
		}
		len = 1;
		buf_addch(&chunk, *text);
	}
	(md ? md_escape : plain_text)(out, chunk.data);
	buf_release(&chunk);
}

/* The references list, when x has one: its entries cited, in the file's order. */
static void
bib_list(struct expansion *x)
{
	struct buf html = BUF_INIT;
	size_t i, k;

	if (!x->bib_snippet)
		return;
	BUF_ADDLIT(&html, "<ol class=\"references\">\n");
	for (i = 0; x->bib && i < x->bib->n; i++)
		for (k = 0; k < x->ncited; k++)
			if (x->cited[k] == &x->bib->v[i]) {
				bib_item_html(&html, &x->bib->v[i]);
				BUF_ADDLIT(&html, "</li>\n");
			}
	BUF_ADDLIT(&html, "</ol>");
	free(x->snippets[x->bib_snippet - 1].html);
	x->snippets[x->bib_snippet - 1].html = buf_detach(&html, NULL);
}

static void
finish_bib(struct expander *ex)
{
	if (ex->x->cite_loc.file && !ex->bib_node && !ex->x->bib_page) {
		xerr(ex, &ex->x->cite_loc, "a citation needs a references "
		     "list to link to: add {{ references() }} to the page");
		return;
	}
	bib_list(ex->x);
}

/* Expands a value slot into out (Markdown when md, else plain text). */
static void
expand_value(struct expander *ex, const struct tnode *n, struct buf *out,
	     int md)
{
	const struct fmt *numf = NULL, *unitf = NULL, *orf = NULL;
	const struct fmt *inf = NULL;
	struct expr_env env;
	struct value v;
	struct buf num = BUF_INIT;
	int link = md, r;
	size_t i;

	for (i = 0; i < n->nfmts; i++) {
		if (n->fmts[i].kind == F_NOLINK)
			link = 0;
		else if (n->fmts[i].kind == F_UNIT)
			unitf = &n->fmts[i];
		else if (n->fmts[i].kind == F_OR)
			orf = &n->fmts[i];
		else if (n->fmts[i].kind == F_IN)
			inf = &n->fmts[i];
		else
			numf = &n->fmts[i];
	}
	if (is_show(n->expr)) {
		expand_show(ex, n, out, md);
		return;
	}
	if (is_cite(n->expr) && ex->text_only) {
		xerr(ex, &n->loc, "'%s' cannot be used here: this text is "
		     "on no page with a references list",
		     expr_text(n->expr));
		return;
	}
	if (is_cite(n->expr)) {
		expand_cite(ex, n, out, md);
		return;
	}
	/* With a fallback, a quantity that is not there gives its text. */
	env = env_of(ex, orf != NULL);
	r = expr_eval(n->expr, &env, &v);
	if (r > 0) {
		if (md)
			md_escape(out, orf->text);
		else
			plain_text(out, orf->text);
		return;
	}
	if (r < 0) {
		ex->failed = 1;
		return;
	}
	if (v.type == VALUE_TEXT) {
		if (numf && numf->kind != F_TEXT) {
			xerr(ex, &numf->loc, "format '%s' needs a number, got "
			     "the text '%s'", fmt_info[numf->kind].name, v.text);
			goto out;
		}
		if (unitf) {
			xerr(ex, &unitf->loc, "'unit' needs a number, got the "
			     "text '%s'", v.text);
			goto out;
		}
		text_with_cites(ex, n, out, md, v.text);
		goto out;
	}
	if (numf && numf->kind == F_TEXT) {
		xerr(ex, &numf->loc, "format 'text' needs a text, got a "
		     "number");
		goto out;
	}
	if (inf && convert_value(ex, &v, inf))
		goto out;
	if (numf && (numf->kind == F_BYTES || numf->kind == F_IBYTES) &&
	    bytes_value(ex, &v, numf))
		goto out;
	if (write_number(&num, &v, numf)) {
		xerr(ex, numf ? &numf->loc : &n->loc, "cannot write %.17g as "
		     "'%s'", v.num, fmt_info[numf ? numf->kind : F_SCI].name);
		goto out;
	}
	/*
	 * Only a computed number links to its formula and inputs: a value
	 * typed in data or read from it (no inputs: a device's year, a
	 * list's date) is text. Six digits in a token: past a million
	 * links, numbers stay text.
	 */
	if (link && v.q && v.q->ninputs && ex->x->nlinks < 1000000) {
		struct expansion *x = ex->x;

		x->links = xgrow(x->links, &x->links_cap, x->nlinks + 1,
				 sizeof(*x->links));
		x->links[x->nlinks].text = xstrdup(num.data);
		x->links[x->nlinks].name = v.q->name;
		x->links[x->nlinks].formula = NULL;
		buf_addf(out, "%s-q%06zu", x->nonce, x->nlinks++);
	} else {
		buf_add(out, num.data, num.len);
	}
	if (unitf) {
		struct buf u = BUF_INIT;

		if (unitf->text) {
			format_unit(&u, unitf->text);
		} else if (v.utext) {
			format_unit(&u, v.utext);
		} else if (!unit_dimensionless(&v.unit) ||
			   v.unit.scale != 1) {
			struct buf dim = BUF_INIT;

			/* An expression's unit, from its dimension. */
			unit_format(&dim, &v.unit);
			format_unit(&u, dim.data);
			buf_release(&dim);
		}
		if (u.len) {
			BUF_ADDLIT(out, FORMAT_NBSP);
			if (md)
				md_escape(out, u.data);
			else
				buf_add(out, u.data, u.len);
		}
		buf_release(&u);
	}
out:
	buf_release(&num);
	value_release(&v);
}

static void expand_nodes(struct expander *ex, const struct tnode *n,
			 struct buf *out, int md);

/*
 * {{#assert}}: nothing when the condition holds; else an error at the
 * condition with the message and the values of the names in it.
 */
static void
check_assert(struct expander *ex, const struct tnode *n)
{
	struct expr_env env = env_of(ex, 0);
	struct buf vals = BUF_INIT;
	struct value v;
	int t;

	if (expr_eval(n->expr, &env, &v)) {
		ex->failed = 1;
		return;
	}
	t = value_truthy(&v);
	value_release(&v);
	if (t)
		return;
	expr_values(n->expr, &env, &vals);
	xerr(ex, &n->loc, "assertion failed: %s%s%s%s", n->message,
	     vals.len ? " (" : "", vals.data, vals.len ? ")" : "");
	buf_release(&vals);
}

static struct xlabel *
find_label(const struct expansion *x, const char *label)
{
	size_t i;

	for (i = 0; i < x->nlabels; i++)
		if (!strcmp(x->labels[i].label, label))
			return &x->labels[i];
	return NULL;
}

/*
 * Numbers a figure or table at its first placement and returns its
 * number, or 0 after an error. The number, not the label: expanding the
 * caption may place more labels and move the array.
 */
static int
place_label(struct expander *ex, const struct tnode *n)
{
	struct expansion *x = ex->x;
	struct xlabel *l = find_label(x, n->label);
	size_t line, col;

	if (l) {
		srcfile_locate(l->loc.file, l->loc.off, &line, &col);
		xerr(ex, &n->loc, "label '%s' is used twice (first at %s:%zu)",
		     n->label, l->loc.file->name, line);
		return 0;
	}
	x->labels = xgrow(x->labels, &x->labels_cap, x->nlabels + 1,
			  sizeof(*x->labels));
	l = &x->labels[x->nlabels++];
	l->label = xstrdup(n->label);
	l->figure = n->kind == T_FIGURE;
	l->number = l->figure ? ++x->figs : ++x->tabs;
	l->loc = n->loc;
	return l->number;
}

/*
 * The line under a figure's caption: links to its SVG at full size and
 * to the data files (written beside it by the plot stage) that its
 * script's "# data:" lines name, once each. A script that could not be
 * read gets the SVG link alone: the plot stage says what is wrong with
 * it.
 */
static void
figure_links(const struct figure *f, struct buf *html)
{
	struct buf names = BUF_INIT, key = BUF_INIT;
	size_t i;

	buf_addf(html, "<p class=\"figure-links\">Full size: <a href=\""
		 "figures/%s.svg\">SVG</a>", f->label);
	/* " a b ": the names linked so far, each found as " NAME ". */
	buf_addch(&names, ' ');
	for (i = 0; i < f->nwords; i++) {
		const struct figure_word *w = &f->words[i];

		if (w->data != FIGURE_DATA)
			continue;
		buf_reset(&key);
		buf_addch(&key, ' ');
		buf_add(&key, f->script->data + w->off, w->len);
		buf_addch(&key, ' ');
		if (strstr(names.data, key.data))
			continue;
		buf_addstr(html, names.len == 1 ? " \xc2\xb7 Data: " : ", ");
		buf_add(&names, key.data + 1, key.len - 1);
		key.data[key.len - 1] = '\0';
		BUF_ADDLIT(html, "<a href=\"figures/");
		html_attr(html, key.data + 1);
		BUF_ADDLIT(html, ".dat\">");
		html_text(html, key.data + 1);
		BUF_ADDLIT(html, ".dat</a>");
	}
	BUF_ADDLIT(html, "</p>\n");
	buf_release(&key);
	buf_release(&names);
}

static void
expand_figure(struct expander *ex, const struct tnode *n, struct buf *out)
{
	int number = place_label(ex, n);
	struct buf cap = BUF_INIT, alt = BUF_INIT, html = BUF_INIT;
	struct expansion *x = ex->x;
	struct figure *f;
	size_t line, col;

	if (!number)
		return;
	expand_nodes(ex, n->body, &cap, 1);
	expand_nodes(ex, n->alt_text, &alt, 0);
	/* One line of text: runs of spaces and line breaks become a space. */
	{
		size_t i, o = 0;

		for (i = 0; i < alt.len; i++) {
			char c = tmpl_is_space(alt.data[i]) ? ' ' : alt.data[i];

			if (c == ' ' && (o == 0 || alt.data[o - 1] == ' '))
				continue;
			alt.data[o++] = c;
		}
		while (o && alt.data[o - 1] == ' ')
			o--;
		alt.len = o;
		if (alt.cap)
			alt.data[o] = '\0';
	}
	/* A phone gets the narrow rendering (figure.h), larger text. */
	buf_addf(&html, "<figure id=\"fig-%s\">\n<picture>\n<source media=\""
		 FIGURE_NARROW_MEDIA "\" srcset=\"figures/%s"
		 FIGURE_NARROW_SUFFIX
		 ".svg\">\n<img src=\"figures/%s.svg\" alt=\"", n->label,
		 n->label, n->label);
	html_attr(&html, alt.data);
	BUF_ADDLIT(&html, "\">\n</picture>\n<figcaption>");
	add_snippet(ex, out, html.data);
	buf_addf(out, "**Figure %d.** ", number);
	move_spans(ex, &cap, strspn(cap.data, " \n"), out, out->len);
	buf_add(out, cap.data + strspn(cap.data, " \n"),
		cap.len - strspn(cap.data, " \n"));
	/* Described once, here, for the caption's links and the plot stage. */
	x->figures = xgrow(x->figures, &x->figures_cap, x->nfigures + 1,
			   sizeof(*x->figures));
	srcfile_locate(n->loc.file, n->loc.off, &line, &col);
	f = &x->figures[x->nfigures++];
	figure_init(f, x->figdir, n->label, number, n->loc.file->name, line,
		    col);
	buf_reset(&html);
	figure_links(f, &html);
	BUF_ADDLIT(&html, "</figcaption>\n</figure>");
	add_snippet(ex, out, html.data);
	buf_release(&cap);
	buf_release(&alt);
	buf_release(&html);
}

static void
expand_table(struct expander *ex, const struct tnode *n, struct buf *out)
{
	int number = place_label(ex, n);
	struct buf cap = BUF_INIT, html = BUF_INIT;

	if (!number)
		return;
	expand_nodes(ex, n->body, &cap, 1);
	buf_addf(&html, "<div class=\"caption\" id=\"tab-%s\">", n->label);
	add_snippet(ex, out, html.data);
	buf_addf(out, "**Table %d.** ", number);
	move_spans(ex, &cap, strspn(cap.data, " \n"), out, out->len);
	buf_add(out, cap.data + strspn(cap.data, " \n"),
		cap.len - strspn(cap.data, " \n"));
	add_snippet(ex, out, "</div>");
	buf_release(&cap);
	buf_release(&html);
}

/*
 * A reference: a token now, the link once every label has its number
 * (references may come before their figure, or be to another page).
 */
static void
add_ref(struct expansion *x, const struct tnode *n, struct buf *out)
{
	x->refs = xgrow(x->refs, &x->refs_cap, x->nrefs + 1,
			sizeof(*x->refs));
	x->refs[x->nrefs].label = xstrdup(n->label);
	x->refs[x->nrefs].loc = n->loc;
	buf_addf(out, "%s-r%06zu", x->nonce, x->nrefs++);
}

/* Ids of PREFIX.<id>.id in registry order. */
static void
each_in(struct expander *ex, const struct tnode *n, struct buf *out, int md)
{
	size_t i, plen = strlen(n->prefix), count = 0;
	struct buf prefix = BUF_INIT;

	for (i = 0; i < registry_count(ex->reg); i++) {
		const struct quantity *q = registry_at(ex->reg, i);
		const char *rest = q->name + plen + 1;
		size_t nlen = strlen(q->name);

		if (strncmp(q->name, n->prefix, plen) || q->name[plen] != '.' ||
		    nlen < plen + 5 || strcmp(q->name + nlen - 3, ".id") ||
		    memchr(rest, '.', nlen - plen - 4))
			continue;
		buf_reset(&prefix);
		buf_add(&prefix, q->name, nlen - 3);
		ex->bind = xgrow(ex->bind, &ex->bind_cap, ex->nbind + 1,
				 sizeof(*ex->bind));
		ex->bind[ex->nbind].var = n->var;
		ex->bind[ex->nbind].prefix = prefix.data;
		ex->bind[ex->nbind++].name = NULL;
		expand_nodes(ex, n->body, out, md);
		ex->nbind--;
		count++;
	}
	if (!count)
		xerr(ex, &n->loc, "nothing to repeat: no '%s.<id>.id' in the "
		     "registry", n->prefix);
	buf_release(&prefix);
}

static void
each_of(struct expander *ex, const struct tnode *n, struct buf *out, int md)
{
	size_t i;

	for (i = 0; i < n->nnames; i++) {
		if (!registry_get(ex->reg, n->names[i])) {
			const char *near[1];

			if (!diag_full() &&
			    registry_suggest(ex->reg, n->names[i], near, 1))
				xerr(ex, &n->names_loc[i], "unknown quantity "
				     "'%s'; did you mean '%s'?", n->names[i],
				     near[0]);
			else
				xerr(ex, &n->names_loc[i], "unknown quantity "
				     "'%s'", n->names[i]);
			continue;
		}
		ex->bind = xgrow(ex->bind, &ex->bind_cap, ex->nbind + 1,
				 sizeof(*ex->bind));
		ex->bind[ex->nbind].var = n->var;
		ex->bind[ex->nbind].prefix = NULL;
		ex->bind[ex->nbind++].name = n->names[i];
		expand_nodes(ex, n->body, out, md);
		ex->nbind--;
	}
}

/*
 * Whether expansion must stop before n: interrupted, or past one of the
 * limits (said once, at n).
 */
static int
must_stop(struct expander *ex, const struct tnode *n, const struct buf *out)
{
	if (ex->stopped)
		return 1;
	if (diag_interrupted()) {
		ex->stopped = ex->failed = 1;
	} else if (++ex->steps > TEMPLATE_MAX_STEPS) {
		xerr(ex, &n->loc, "expanding takes more than %d steps "
		     "(loops inside loops?); stopped", TEMPLATE_MAX_STEPS);
		ex->stopped = 1;
	} else if (out->len > TEMPLATE_MAX_OUTPUT ||
		   ex->x->md.len > TEMPLATE_MAX_OUTPUT) {
		xerr(ex, &n->loc, "the report expands to more than %zu MiB "
		     "of Markdown; stopped", TEMPLATE_MAX_OUTPUT >> 20);
		ex->stopped = 1;
	}
	return ex->stopped;
}

static void
expand_nodes(struct expander *ex, const struct tnode *n, struct buf *out,
	     int md)
{
	for (; n && !must_stop(ex, n, out); n = n->next) {
		switch (n->kind) {
		case T_TEXT:
			if (md)
				add_span(ex, out, n);
			buf_add(out, n->text, n->len);
			break;
		case T_VALUE:
			expand_value(ex, n, out, md);
			break;
		case T_IF: {
			const struct tnode *b;

			for (b = n; b; b = b->alt) {
				struct expr_env env = env_of(ex, 0);
				struct value v;
				int t;

				if (!b->expr)
					break;
				if (expr_eval(b->expr, &env, &v)) {
					ex->failed = 1;
					b = NULL;
					break;
				}
				t = value_truthy(&v);
				value_release(&v);
				if (t)
					break;
			}
			if (b)
				expand_nodes(ex, b->body, out, md);
			break;
		}
		case T_ASSERT:
			check_assert(ex, n);
			break;
		case T_EACH:
			if (n->prefix)
				each_in(ex, n, out, md);
			else
				each_of(ex, n, out, md);
			break;
		case T_FIGURE:
			if (!md)
				xerr(ex, &n->loc, "a figure cannot be placed "
				     "inside alt text");
			else
				expand_figure(ex, n, out);
			break;
		case T_TABLE:
			if (!md)
				xerr(ex, &n->loc, "a table caption cannot be "
				     "placed inside alt text");
			else
				expand_table(ex, n, out);
			break;
		case T_REF:
			/*
			 * A token now, the link once every label has its
			 * number: references may come before their figure.
			 */
			if (!md) {
				xerr(ex, &n->loc, "a reference cannot be "
				     "placed inside alt text");
				break;
			}
			add_ref(ex->x, n, out);
			break;
		}
	}
}

void
expansion_init(struct expansion *x)
{
	memset(x, 0, sizeof(*x));
	buf_init(&x->md);
}

void
expansion_release(struct expansion *x)
{
	size_t i;

	buf_release(&x->md);
	for (i = 0; i < x->nsnippets; i++) {
		free(x->snippets[i].token);
		free(x->snippets[i].html);
	}
	free(x->snippets);
	for (i = 0; i < x->nlinks; i++)
		free(x->links[i].text);
	free(x->links);
	for (i = 0; i < x->nfigures; i++)
		figure_release(&x->figures[i]);
	free(x->figures);
	free(x->cited);
	free(x->spans);
	for (i = 0; i < x->nlabels; i++)
		free(x->labels[i].label);
	free(x->labels);
	for (i = 0; i < x->nrefs; i++)
		free(x->refs[i].label);
	free(x->refs);
	memset(x, 0, sizeof(*x));
}

int
expansion_locate(const struct expansion *x, size_t off, struct srcloc *loc)
{
	size_t lo = 0, hi = x->nspans;

	/* The last span that starts at or before off. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->spans[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || off >= x->spans[lo - 1].off + x->spans[lo - 1].len)
		return -1;
	*loc = x->spans[lo - 1].loc;
	loc->off += off - x->spans[lo - 1].off;
	loc->len -= off - x->spans[lo - 1].off;
	return 0;
}

/*
 * Appends to names the registry names that the value slots of the node
 * list n read, each once, separated by spaces.
 */
static void
slot_names(const struct tnode *n, const struct registry *reg,
	   struct buf *names)
{
	struct buf lines = BUF_INIT;
	char *p, *end;

	buf_addch(&lines, '\n');
	for (; n; n = n->next)
		if (n->kind == T_VALUE && n->expr)
			expr_inputs(n->expr, &lines);
	/* expr_inputs() ends each name with a newline. */
	for (p = lines.data + 1; *p; p = end + 1) {
		end = strchr(p, '\n');
		*end = '\0';
		if (registry_get(reg, p))
			buf_addf(names, "%s%s", names->len ? " " : "", p);
	}
	buf_release(&lines);
}

int
template_expand_text(const struct srcfile *f, const struct registry *reg,
		     struct buf *out, struct buf *names)
{
	struct template *t = tmpl_parse_values(f);
	struct expansion x;
	struct expander ex = { .reg = reg, .x = &x, .text_only = 1 };

	if (!t)
		return -1;
	expansion_init(&x);
	x.reg = reg;
	expand_nodes(&ex, t->root, out, 0);
	slot_names(t->root, reg, names);
	expansion_release(&x);
	free(ex.bind);
	template_free(t);
	return ex.failed ? -1 : 0;
}

int
template_expand(const struct template *t, const struct registry *reg,
		struct expansion *x)
{
	struct expander ex = { .reg = reg, .x = x };
	size_t i, ns;

	nonce_init(x);
	x->reg = reg;
	expand_nodes(&ex, t->root, &x->md, 1);
	finish_bib(&ex);
	/* The spans still in other buffers wrote nothing to md: dropped. */
	for (i = ns = 0; i < x->nspans; i++)
		if (ex.span_in[i] == &x->md)
			x->spans[ns++] = x->spans[i];
	x->nspans = ns;
	free(ex.bind);
	free(ex.span_in);
	/* One page: its references are to its own labels. */
	if (!x->pages && template_link(&x, NULL, 1))
		ex.failed = 1;
	return ex.failed ? -1 : 0;
}

/* Whether a node of the list n, or of a block in it, is references(). */
static int
lists_references(const struct tnode *n)
{
	for (; n; n = n->next) {
		if (n->kind == T_VALUE && n->expr &&
		    expr_kind(n->expr) == EXPR_CALL &&
		    !strcmp(expr_text(n->expr), "references"))
			return 1;
		if (lists_references(n->body) || lists_references(n->alt))
			return 1;
	}
	return 0;
}

int
template_lists_references(const struct template *t)
{
	return lists_references(t->root);
}

/*
 * Where page i's reference r leads: the label, on page *at (i when it
 * is there). NULL after an error at the reference.
 */
static const struct xlabel *
ref_target(struct expansion *const *xs, size_t n, size_t i,
	   const struct xref *r, size_t *at)
{
	const struct xlabel *l = find_label(xs[i], r->label);
	const char *best = NULL;
	size_t k, j;

	*at = i;
	for (k = 0; !l && k < n; k++)
		if (k != i && (l = find_label(xs[k], r->label)))
			*at = k;
	if (l)
		return l;
	for (k = 0; k < n && !best; k++)
		for (j = 0; j < xs[k]->nlabels && !best; j++)
			if (!strncmp(xs[k]->labels[j].label, r->label, 3))
				best = xs[k]->labels[j].label;
	error_at(&r->loc, "no figure or table labelled '%s'%s%s%s", r->label,
		 best ? "; did you mean '" : "", best ? best : "",
		 best ? "'?" : "");
	return NULL;
}

/*
 * Swaps page i's reference tokens for links. Returns 0, or -1 after an
 * error at each reference to no label.
 */
static int
link_refs(struct expansion *const *xs, const char *const *files, size_t n,
	  size_t i)
{
	struct expansion *x = xs[i];
	struct buf md = BUF_INIT;
	const char *p, *q;
	size_t ns = 0, prev, nlen = strlen(x->nonce), k;
	const struct xlabel **to = xcalloc(x->nrefs + 1, sizeof(*to));
	size_t *at = xcalloc(x->nrefs + 1, sizeof(*at));
	int ret = 0;

	for (k = 0; k < x->nrefs; k++)
		if (!(to[k] = ref_target(xs, n, i, &x->refs[k], &at[k])))
			ret = -1;
	for (p = x->md.data; x->nrefs && (q = strstr(p, x->nonce));) {
		const struct xlabel *l;
		size_t old;

		if (strncmp(q + nlen, "-r", 2)) {
			buf_add(&md, p, (size_t)(q - p) + nlen);
			p = q + nlen;
			continue;
		}
		buf_add(&md, p, (size_t)(q - p));
		/* The spans before the token move with the text. */
		old = (size_t)(q - x->md.data);
		for (; ns < x->nspans && x->spans[ns].off < old; ns++)
			x->spans[ns].off = x->spans[ns].off - old + md.len;
		k = strtoul(q + nlen + 2, NULL, 10);
		p = q + nlen + 8;
		if (k < x->nrefs && (l = to[k]))
			buf_addf(&md, "[%s %d](%s#%s-%s)", l->figure ?
				 "Figure" : "Table", l->number,
				 at[k] == i ? "" : files[at[k]],
				 l->figure ? "fig" : "tab", l->label);
	}
	prev = (size_t)(p - x->md.data);
	for (; ns < x->nspans; ns++)
		x->spans[ns].off = x->spans[ns].off - prev + md.len;
	buf_add(&md, x->md.data + prev, x->md.len - prev);
	buf_release(&x->md);
	x->md = md;
	free(to);
	free(at);
	return ret;
}

/* A label placed on page i and on one before it: an error at page i's. */
static int
labels_unique(struct expansion *const *xs, size_t i)
{
	size_t j, k, line, col;
	int ret = 0;

	for (j = 0; j < xs[i]->nlabels; j++) {
		const struct xlabel *l = &xs[i]->labels[j], *first = NULL;

		for (k = 0; k < i && !first; k++)
			first = find_label(xs[k], l->label);
		if (!first)
			continue;
		srcfile_locate(first->loc.file, first->loc.off, &line, &col);
		ret = error_at(&l->loc, "label '%s' is used on two pages (first "
			       "at %s:%zu)", l->label, first->loc.file->name,
			       line);
	}
	return ret;
}

/*
 * The works page i cites, added to those of the page whose list it
 * links to. Returns 0, or -1 after an error: that page has no list.
 */
static int
join_cited(struct expansion *const *xs, const char *const *files, size_t n,
	   size_t i)
{
	struct expansion *x = xs[i], *to = NULL;
	size_t k, j;

	if (!x->bib_page || !x->ncited)
		return 0;
	for (k = 0; k < n && !to; k++)
		if (k != i && !strcmp(files[k], x->bib_page))
			to = xs[k];
	if (!to || !to->bib_snippet)
		return error_at(&x->cite_loc, "a citation needs a references "
				"list to link to: add {{ references() }} to "
				"this page or to %s", x->bib_page);
	for (j = 0; j < x->ncited; j++) {
		for (k = 0; k < to->ncited && to->cited[k] != x->cited[j]; k++)
			;
		if (k < to->ncited)
			continue;
		to->cited = xgrow(to->cited, &to->cited_cap, to->ncited + 1,
				  sizeof(*to->cited));
		to->cited[to->ncited++] = x->cited[j];
	}
	return 0;
}

int
template_link(struct expansion *const *xs, const char *const *files,
	      size_t n)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		ret |= labels_unique(xs, i);
		ret |= link_refs(xs, files, n, i);
		ret |= files ? join_cited(xs, files, n, i) : 0;
	}
	for (i = 0; i < n; i++)
		bib_list(xs[i]);
	return ret ? -1 : 0;
}
