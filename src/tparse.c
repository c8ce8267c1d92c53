/*
 * The template stage's parser: templates/NAME.md and what it includes ->
 * a tree of text, value slots and blocks (tmpl.h), with the location of
 * each for errors (template_load(), template_parse()). Reads template
 * files; prints errors with their location; writes nothing else.
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
#include "mathml.h"
#include "registry.h"
#include "suggest.h"
#include "template.h"
#include "tmpl.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

const struct fmt_info fmt_info[] = {
	[F_SCI] = { "sci", 1, 1, 17, 3, NULL },
	[F_E] = { "e", 1, 1, 17, 3, NULL },
	[F_FIXED] = { "fixed", 1, 0, 17, 2, NULL },
	[F_SIG] = { "sig", 1, 1, 17, 3, NULL },
	[F_INT] = { "int", 0, 0, 0, 0, NULL },
	[F_YEAR] = { "year", 0, 0, 0, 0, NULL },
	[F_POW10] = { "pow10", 0, 0, 0, 0, NULL },
	[F_BYTES] = { "bytes", 1, 1, 17, 3, NULL },
	[F_IBYTES] = { "ibytes", 1, 1, 17, 3, NULL },
	[F_TEXT] = { "text", 0, 0, 0, 0, NULL },
	[F_UNIT] = { "unit", 3, 0, 0, 0, "J" },
	[F_NOLINK] = { "nolink", 0, 0, 0, 0, NULL },
	[F_OR] = { "or", 4, 0, 0, 0, "—" },
	[F_IN] = { "in", 4, 0, 0, 0, "J" },
};


static void
tnodes_free(struct tnode *n)
{
	while (n) {
		struct tnode *next = n->next;
		size_t i;

		expr_free(n->expr);
		for (i = 0; i < n->nfmts; i++)
			free(n->fmts[i].text);
		free(n->fmts);
		tnodes_free(n->body);
		tnodes_free(n->alt);
		tnodes_free(n->alt_text);
		free(n->var);
		free(n->prefix);
		for (i = 0; i < n->nnames; i++)
			free(n->names[i]);
		free(n->names);
		free(n->names_loc);
		free(n->label);
		free(n->message);
		free(n);
		n = next;
	}
}

void
template_free(struct template *t)
{
	size_t i;

	if (!t)
		return;
	tnodes_free(t->root);
	for (i = 0; i < t->nfiles; i++) {
		srcfile_free(t->files[i]);
		free(t->canon[i]);
	}
	free(t->files);
	free(t->canon);
	free(t->dir);
	free(t);
}

/* ---------------------------------------------------------------- parse */

/* One tag: {{ ... }} with its content trimmed. */
struct tag {
	size_t start, end;	/* of "{{" and just after "}}" */
	size_t cstart, cend;	/* of the trimmed content */
	char sigil;		/* '#', '/', '!', '>', '@' or 0 */
	size_t line_start;	/* with the standalone rule applied: */
	size_t line_end;	/* what the tag consumes of its line */
};

struct parser {
	struct template *t;
	const struct srcfile *f;
	size_t pos;
	int depth;
	int aborted;		/* a limit hit: stop, say no more */
	int values_only;	/* text and value slots only: no blocks */
	const char **stack;	/* include chain (resolved paths), for cycles */
	size_t nstack, stack_cap;
	int failed;
};

static struct srcloc
loc_of(const struct srcfile *f, size_t off, size_t len)
{
	struct srcloc l = { f, off, len ? len : 1 };

	return l;
}

static int
perr(struct parser *p, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
perr(struct parser *p, size_t off, size_t len, const char *fmt, ...)
{
	struct srcloc l = loc_of(p->f, off, len);
	va_list ap;

	va_start(ap, fmt);
	verror_at(&l, fmt, ap);
	va_end(ap);
	p->failed = 1;
	return -1;
}

/*
 * Finds the next tag at or after p->pos. Returns 1 with *tg filled, 0 at
 * the end of the file, -1 after an error (an unclosed "{{").
 */
/* The first "{{" in d[from..len), or NULL. */
static const char *
find_open(const char *d, size_t from, size_t len)
{
	const char *p = d + from, *end = d + len;

	/*
	 * memchr() and a look at the next byte, not strstr(): that stays
	 * linear where a checking strstr() measures the rest of the file
	 * at every call (AddressSanitizer's does).
	 */
	while (p < end && (p = memchr(p, '{', (size_t)(end - p)))) {
		if (p + 1 < end && p[1] == '{')
			return p;
		p++;
	}
	return NULL;
}

static int
next_tag(struct parser *p, struct tag *tg)
{
	const char *d = p->f->data;
	size_t len = p->f->len, i, j;
	const char *open = find_open(d, p->pos, len);
	int in_str = 0;

	if (!open)
		return 0;
	tg->start = (size_t)(open - d);
	for (i = tg->start + 2; i + 1 < len; i++) {
		if (in_str && d[i] == '\\')
			i++;	/* an escaped character, maybe a quote */
		else if (d[i] == '"')
			in_str = !in_str;
		else if (!in_str && d[i] == '}' && d[i + 1] == '}')
			break;
		else if (!in_str && d[i] == '{' && d[i + 1] == '{')
			i = len + 1;
	}
	if (i + 1 >= len)
		return perr(p, tg->start, 2, "unclosed '{{': no '}}' before "
			    "%s", i > len ? "the next '{{'" : p->values_only ?
			    "the end of the text" : "the end of the file");
	tg->end = i + 2;
	tg->cstart = tg->start + 2;
	tg->cend = i;
	while (tg->cstart < tg->cend && tmpl_is_space(d[tg->cstart]))
		tg->cstart++;
	while (tg->cend > tg->cstart && tmpl_is_space(d[tg->cend - 1]))
		tg->cend--;
	tg->sigil = tg->cstart < tg->cend &&
		    strchr("#/!>@", d[tg->cstart]) ? d[tg->cstart] : 0;
	tg->line_start = tg->start;
	tg->line_end = tg->end;
	/* Standalone: a block tag alone on its line takes the line. */
	if (tg->sigil && tg->sigil != '@') {
		for (j = tg->start; j > 0 && (d[j - 1] == ' ' ||
					      d[j - 1] == '\t'); j--)
			;
		if (j == 0 || d[j - 1] == '\n') {
			size_t k = tg->end;

			while (k < len && (d[k] == ' ' || d[k] == '\t' ||
					   d[k] == '\r'))
				k++;
			if (k == len || d[k] == '\n') {
				tg->line_start = j;
				tg->line_end = k < len ? k + 1 : k;
			}
		}
	}
	return 1;
}

/* The content of a tag after its sigil, trimmed, as a new string. */
static char *
tag_word(const struct parser *p, const struct tag *tg, size_t *off)
{
	size_t s = tg->cstart + (tg->sigil ? 1 : 0), e = tg->cend;

	while (s < e && tmpl_is_space(p->f->data[s]))
		s++;
	*off = s;
	return xstrndup(p->f->data + s, e - s);
}

static struct tnode *
tnode(enum tnode_kind kind, const struct srcfile *f, size_t off, size_t len)
{
	struct tnode *n = xcalloc(1, sizeof(*n));

	n->kind = kind;
	n->loc = loc_of(f, off, len);
	return n;
}

static int
valid_label(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* Parses one format "name" or "name:arg" at [off, off+len). */
static int
parse_fmt(struct parser *p, size_t off, size_t len, struct fmt *f)
{
	const char *d = p->f->data + off;
	size_t nlen = 0, i;

	memset(f, 0, sizeof(*f));
	f->loc = loc_of(p->f, off, len);
	while (nlen < len && d[nlen] != ':')
		nlen++;
	for (i = 0; i < sizeof(fmt_info) / sizeof(fmt_info[0]); i++)
		if (strlen(fmt_info[i].name) == nlen &&
		    !memcmp(fmt_info[i].name, d, nlen))
			break;
	if (i == sizeof(fmt_info) / sizeof(fmt_info[0])) {
		struct buf list = BUF_INIT, hint = BUF_INIT;
		char *name = xstrndup(d, nlen);
		const char *near[3];
		struct suggest s;
		size_t k, n, kept = 0;

		suggest_init(&s, name, near, 3);
		for (k = 0; k < sizeof(fmt_info) / sizeof(fmt_info[0]); k++) {
			buf_addf(&list, "%s%s", k ? ", " : "",
				 fmt_info[k].name);
			suggest_add(&s, fmt_info[k].name);
		}
		/*
		 * One edit away only: the names are short, and 'foo' is
		 * as near 'or', 'sci' and 'e' as it is near anything.
		 */
		n = suggest_end(&s);
		for (k = 0; k < n; k++)
			if (suggest_distance(name, near[k]) <= 1)
				near[kept++] = near[k];
		suggest_hint(&hint, near, kept);
		perr(p, off, nlen, "unknown format '%s' (formats: %s)%s", name,
		     list.data, hint.data);
		free(name);
		buf_release(&list);
		buf_release(&hint);
		return -1;
	}
	f->kind = (enum fmt_kind)i;
	f->arg = fmt_info[i].def;
	if (nlen == len) {
		if (fmt_info[i].arg == 2)
			return perr(p, off, len, "format '%s' needs a number: "
				    "'%s:N'", fmt_info[i].name,
				    fmt_info[i].name);
		if (fmt_info[i].arg == 4)
			return perr(p, off, len, "format '%s' needs a quoted "
				    "text: '%s:\"%s\"'", fmt_info[i].name,
				    fmt_info[i].name, fmt_info[i].example);
		return 0;
	}
	if (fmt_info[i].arg == 0)
		return perr(p, off, len, "format '%s' takes no argument",
			    fmt_info[i].name);
	if (fmt_info[i].arg >= 3) {
		if (len - nlen < 3 || d[nlen + 1] != '"' || d[len - 1] != '"')
			return perr(p, off + nlen + 1, len - nlen - 1,
				    "format '%s' takes a quoted text: "
				    "%s:\"%s\"", fmt_info[i].name,
				    fmt_info[i].name, fmt_info[i].example);
		f->text = xstrndup(d + nlen + 2, len - nlen - 3);
		if (f->kind == F_IN) {
			struct buf err = BUF_INIT;
			int r = 0;

			if (unit_parse(f->text, &f->in, &err))
				r = perr(p, off + nlen + 2, len - nlen - 3,
					 "%s", err.data);
			buf_release(&err);
			if (r) {
				free(f->text);
				f->text = NULL;
			}
			return r;
		}
		return 0;
	}
	{
		char *end, *arg = xstrndup(d + nlen + 1, len - nlen - 1);
		long v = strtol(arg, &end, 10);
		int bad = !*arg || *end || v < fmt_info[i].lo ||
			  v > fmt_info[i].hi;

		free(arg);
		if (bad)
			return perr(p, off + nlen + 1, len - nlen - 1,
				    "format '%s' takes a whole number from "
				    "%d to %d", fmt_info[i].name,
				    fmt_info[i].lo, fmt_info[i].hi);
		f->arg = (int)v;
	}
	return 0;
}

/* A value tag: "expr | fmt | fmt". */
static struct tnode *
parse_value(struct parser *p, const struct tag *tg)
{
	const char *d = p->f->data;
	size_t i, start = tg->cstart, cap = 0;
	int in_str = 0, seen_number_fmt = 0, seen_or = 0;
	struct tnode *n = tnode(T_VALUE, p->f, tg->cstart,
				tg->cend - tg->cstart);
	size_t cut[32], ncut = 0;

	if (tg->cstart == tg->cend) {
		perr(p, tg->start, tg->end - tg->start, "empty '{{ }}': "
		     "expected a quantity or an expression");
		free(n);
		return NULL;
	}
	for (i = tg->cstart; i < tg->cend; i++) {
		if (in_str && d[i] == '\\')
			i++;
		else if (d[i] == '"')
			in_str = !in_str;
		else if (!in_str && d[i] == '|') {
			if (i + 1 < tg->cend && d[i + 1] == '|') {
				i++;
				continue;
			}
			if (ncut == 31) {
				perr(p, i, 1, "too many formats");
				tnodes_free(n);
				return NULL;
			}
			cut[ncut++] = i;
		}
	}
	cut[ncut] = tg->cend;
	n->expr = expr_parse(p->f, start, cut[0] - start);
	if (!n->expr)
		p->failed = 1;
	for (i = 0; i < ncut; i++) {
		size_t s = cut[i] + 1, e = cut[i + 1];
		struct fmt f;

		while (s < e && tmpl_is_space(d[s]))
			s++;
		while (e > s && tmpl_is_space(d[e - 1]))
			e--;
		if (s == e) {
			perr(p, cut[i], 1, "expected a format after '|'");
			continue;
		}
		if (parse_fmt(p, s, e - s, &f))
			continue;
		if (f.kind == F_OR && seen_or++) {
			perr(p, s, e - s, "a second fallback: a slot has one "
			     "'or'");
			free(f.text);
			continue;
		}
		if (f.kind != F_UNIT && f.kind != F_NOLINK && f.kind != F_OR &&
		    f.kind != F_IN) {
			if (seen_number_fmt++) {
				perr(p, s, e - s, "a second number format: "
				     "use one of sci, e, fixed, sig, int, "
				     "year, pow10, bytes, ibytes, text");
				free(f.text);
				continue;
			}
		}
		n->fmts = xgrow(n->fmts, &cap, n->nfmts + 1, sizeof(*n->fmts));
		n->fmts[n->nfmts++] = f;
	}
	return n;
}

static int parse_nodes(struct parser *p, struct tnode **out,
		       const char *const *closers, struct tag *end_tag,
		       const struct tag *opener);

/* Does the tag's content (after the sigil) start with word? */
static int
tag_is(const struct parser *p, const struct tag *tg, const char *word)
{
	size_t s = tg->cstart + 1, n = strlen(word);

	return tg->cend - s >= n && !memcmp(p->f->data + s, word, n) &&
	       (tg->cend - s == n || tmpl_is_space(p->f->data[s + n]));
}

static struct tnode *
parse_if(struct parser *p, const struct tag *open, size_t kwlen)
{
	static const char *const closers[] = { "#elif", "#else", "/if", NULL };
	static const char *const else_closers[] = { "/if", NULL };
	struct tnode *head = NULL, **branch = &head;
	struct tag tg = *open;
	size_t kw = kwlen;

	for (;;) {
		struct tnode *n = tnode(T_IF, p->f, tg.cstart,
					tg.cend - tg.cstart);
		size_t s = tg.cstart + 1 + kw;
		int r;

		if (kw) {
			while (s < tg.cend && tmpl_is_space(p->f->data[s]))
				s++;
			if (s == tg.cend)
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "'{{#%.*s}}' needs a condition", (int)kw,
				     p->f->data + tg.cstart + 1);
			else if (!(n->expr = expr_parse(p->f, s, tg.cend - s)))
				p->failed = 1;
		}
		*branch = n;
		branch = &n->alt;
		{
			struct tag op = tg;

			r = parse_nodes(p, &n->body, kw ? closers :
					else_closers, &tg, &op);
		}
		if (r < 0)
			return head;
		if (tag_is(p, &tg, "if"))
			return head;
		if (tag_is(p, &tg, "elif")) {
			kw = 4;
		} else {
			kw = 0;
			if (tg.cend - tg.cstart != 5)
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "'{{#else}}' takes no condition: use "
				     "'{{#elif ...}}'");
		}
	}
}

/* "#each v in prefix" or "#each q of name name ...". */
static struct tnode *
parse_each(struct parser *p, const struct tag *tg)
{
	static const char *const closers[] = { "/each", NULL };
	const char *d = p->f->data;
	size_t s = tg->cstart + 5, e = tg->cend, w, cap = 0;
	struct tnode *n = tnode(T_EACH, p->f, tg->cstart, tg->cend - tg->cstart);
	struct tag end;
	char *word;
	int mode = 0;

	for (;;) {
		while (s < e && tmpl_is_space(d[s]))
			s++;
		if (s == e)
			break;
		for (w = s; w < e && !tmpl_is_space(d[w]); w++)
			;
		word = xstrndup(d + s, w - s);
		if (!n->var) {
			n->var = word;
		} else if (!mode && (!strcmp(word, "in") ||
				     !strcmp(word, "of"))) {
			mode = word[0];
			free(word);
		} else if (mode == 'i' && !n->prefix) {
			n->prefix = word;
		} else if (mode == 'o') {
			size_t c2 = cap;

			n->names = xgrow(n->names, &cap, n->nnames + 1,
					 sizeof(*n->names));
			n->names_loc = xgrow(n->names_loc, &c2, n->nnames + 1,
					     sizeof(*n->names_loc));
			n->names_loc[n->nnames] = loc_of(p->f, s, w - s);
			n->names[n->nnames++] = word;
		} else {
			perr(p, s, w - s, "unexpected '%s' in '{{#each}}'",
			     word);
			free(word);
		}
		s = w;
	}
	if (!n->var || !mode || (mode == 'i' && !n->prefix) ||
	    (mode == 'o' && !n->nnames))
		perr(p, tg->cstart, tg->cend - tg->cstart, "expected "
		     "'{{#each VAR in PREFIX}}' or '{{#each VAR of NAME "
		     "...}}'");
	parse_nodes(p, &n->body, closers, &end, tg);
	return n;
}

/*
 * "#assert EXPR "message"": a condition, then a quoted message that ends
 * the tag. Returns the node, or NULL after an error.
 */
static struct tnode *
parse_assert(struct parser *p, const struct tag *tg)
{
	const char *d = p->f->data;
	size_t s = tg->cstart + 7, e = tg->cend, msg = e, i, ce;
	struct buf text = BUF_INIT;
	struct tnode *n;
	int in_str = 0;

	/* The message is the last string, and nothing may follow it. */
	for (i = s; i < e; i++) {
		if (in_str && d[i] == '\\') {
			i++;
		} else if (d[i] == '"') {
			if (!in_str)
				msg = i;
			in_str = !in_str;
		}
	}
	if (in_str || msg == e || d[e - 1] != '"') {
		perr(p, tg->cstart, tg->cend - tg->cstart, "'{{#assert}}' "
		     "needs a condition and then a quoted message: "
		     "'{{#assert EXPR \"message\"}}'");
		return NULL;
	}
	while (s < msg && tmpl_is_space(d[s]))
		s++;
	for (ce = msg; ce > s && tmpl_is_space(d[ce - 1]); ce--)
		;
	if (s == ce) {
		perr(p, tg->cstart, tg->cend - tg->cstart, "'{{#assert}}' "
		     "needs a condition before its message");
		return NULL;
	}
	for (i = msg + 1; i < e - 1; i++) {
		if (d[i] == '\\')
			i++;
		buf_addch(&text, d[i]);
	}
	if (!text.len) {
		perr(p, msg, e - msg, "'{{#assert}}' needs a message that "
		     "says what should hold");
		buf_release(&text);
		return NULL;
	}
	n = tnode(T_ASSERT, p->f, s, ce - s);
	n->message = buf_detach(&text, NULL);
	if (!(n->expr = expr_parse(p->f, s, ce - s))) {
		p->failed = 1;
		tnodes_free(n);
		return NULL;
	}
	return n;
}

/* "#figure label" ... "#alt" ... "/figure", "#table label" ... "/table". */
static struct tnode *
parse_labelled(struct parser *p, const struct tag *tg, int figure)
{
	static const char *const fig_closers[] = { "#alt", "/figure", NULL };
	static const char *const alt_closers[] = { "/figure", NULL };
	static const char *const tab_closers[] = { "/table", NULL };
	struct tnode *n = tnode(figure ? T_FIGURE : T_TABLE, p->f, tg->cstart,
				tg->cend - tg->cstart);
	size_t off;
	char *word = tag_word(p, tg, &off);
	char *label = word + (figure ? 6 : 5);
	struct tag end;

	while (*label == ' ' || *label == '\t')
		label++;
	if (!valid_label(label))
		perr(p, tg->cstart, tg->cend - tg->cstart, "'{{#%s}}' needs "
		     "a label of a-z, 0-9, '_' and '-'", figure ? "figure" :
		     "table");
	n->label = xstrdup(label);
	free(word);
	if (parse_nodes(p, &n->body, figure ? fig_closers : tab_closers,
			&end, tg) < 0)
		return n;
	if (figure && tag_is(p, &end, "alt"))
		parse_nodes(p, &n->alt_text, alt_closers, &end, tg);
	else if (figure)
		perr(p, tg->cstart, tg->cend - tg->cstart, "'{{#figure %s}}' "
		     "needs alt text: add '{{#alt}}' and a sentence that "
		     "states what the figure shows", n->label);
	return n;
}

static int
valid_include(const char *s)
{
	if (!*s || *s == '/' || strstr(s, ".."))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_-./", *s)))
			return 0;
	return 1;
}

static int parse_file(struct parser *p, struct srcfile *f,
		      const char *canon, struct tnode **out);

/* Keeps f (and its resolved path, taken) for the template's lifetime. */
static void
add_file(struct template *t, struct srcfile *f, char *canon)
{
	f->show_source = 1;
	t->files = xgrow(t->files, &t->files_cap, t->nfiles + 1,
			 sizeof(*t->files));
	t->canon = xgrow(t->canon, &t->canon_cap, t->nfiles + 1,
			 sizeof(*t->canon));
	t->canon[t->nfiles] = canon;
	t->files[t->nfiles++] = f;
}

static struct tnode *
parse_include(struct parser *p, const struct tag *tg)
{
	struct buf path = BUF_INIT;
	struct srcfile *f = NULL;
	struct tnode *nodes = NULL;
	size_t off, i;
	char *name = tag_word(p, tg, &off), *canon = NULL;
	const char *key;

	if (!valid_include(name)) {
		perr(p, off, strlen(name), "cannot include '%s': give a path "
		     "inside the templates folder, without '..'", name);
		goto out;
	}
	buf_addf(&path, "%s/%s", p->t->dir, name);
	/* One file, however it is spelt: "./a.md", "x/../a.md", a link. */
	canon = file_realpath(path.data);
	if (!canon) {
		perr(p, off, strlen(name), "cannot include '%s': %s", name,
		     strerror(errno));
		goto out;
	}
	for (i = 0; i < p->nstack; i++)
		if (p->stack[i] && !strcmp(p->stack[i], canon)) {
			perr(p, off, strlen(name), "'%s' includes itself "
			     "(through %s)", name, p->f->name);
			goto out;
		}
	if (p->nstack >= TEMPLATE_MAX_DEPTH) {
		perr(p, off, strlen(name), "includes nested too deeply");
		goto out;
	}
	if (++p->t->nincludes > TEMPLATE_MAX_INCLUDES) {
		perr(p, off, strlen(name), "more than %d includes (a file "
		     "included many times over?); stopped",
		     TEMPLATE_MAX_INCLUDES);
		p->aborted = 1;
		goto out;
	}
	/* Read once, parsed at each include. */
	for (i = 0; i < p->t->nfiles; i++)
		if (p->t->canon[i] && !strcmp(p->t->canon[i], canon))
			break;
	if (i < p->t->nfiles) {
		f = p->t->files[i];
		free(canon);
		canon = NULL;
		key = p->t->canon[i];
	} else {
		f = srcfile_load(path.data);
		if (!f) {
			perr(p, off, strlen(name), "cannot include '%s': %s",
			     name, file_strerror(errno));
			goto out;
		}
		/* The template keeps both from here. */
		add_file(p->t, f, canon);
		key = canon;
		canon = NULL;
		if (srcfile_check_text(f)) {
			p->failed = 1;
			goto out;
		}
	}
	if ((p->t->bytes += f->len) > TEMPLATE_MAX_BYTES) {
		perr(p, off, strlen(name), "the templates with their includes "
		     "come to more than %zu MiB; stopped",
		     TEMPLATE_MAX_BYTES >> 20);
		p->aborted = 1;
		goto out;
	}
	parse_file(p, f, key, &nodes);
out:
	free(canon);
	buf_release(&path);
	free(name);
	return nodes;
}

/* Appends node list n at *tail, advancing tail to the new end. */
static void
append(struct tnode ***tail, struct tnode *n)
{
	if (!n)
		return;
	**tail = n;
	while (n->next)
		n = n->next;
	*tail = &n->next;
}

/*
 * Parses nodes until one of closers (tag texts such as "/if", "#alt") or
 * the end of the file (allowed only when closers is NULL). The closing
 * tag goes into *end_tag. Returns 0, or -1 at the end of the file
 * without the closer.
 */
static size_t
line_of(const struct parser *p, const struct tag *tg)
{
	size_t line, col;

	srcfile_locate(p->f, tg->start, &line, &col);
	return line;
}

/* The closing tag a block expects: the first closer starting with '/'. */
static const char *
closer_of(const char *const *closers)
{
	size_t k;

	for (k = 0; closers[k] && closers[k][0] != '/'; k++)
		;
	return closers[k] ? closers[k] : closers[0];
}

static int
parse_nodes(struct parser *p, struct tnode **out, const char *const *closers,
	    struct tag *end_tag, const struct tag *opener)
{
	struct tnode **tail = out;
	struct tag tg;
	int r = 0;

	*out = NULL;
	if (++p->depth > TEMPLATE_MAX_DEPTH) {
		perr(p, opener ? opener->start : 0, 2, "blocks nested too "
		     "deeply (more than %d)", TEMPLATE_MAX_DEPTH);
		p->depth--;
		p->pos = p->f->len;
		p->aborted = 1;
		return -1;
	}
	while (!p->aborted && (r = next_tag(p, &tg)) == 1) {
		const char *d = p->f->data;
		size_t i;

		if (diag_interrupted()) {
			p->aborted = p->failed = 1;
			break;
		}
		if (tg.line_start > p->pos) {
			struct tnode *t = tnode(T_TEXT, p->f, p->pos,
						tg.line_start - p->pos);

			t->text = d + p->pos;
			t->len = tg.line_start - p->pos;
			append(&tail, t);
		}
		p->pos = tg.line_end;
		if (tg.sigil == '#' || tg.sigil == '/') {
			for (i = 0; closers && closers[i]; i++) {
				size_t n = strlen(closers[i]);

				if (closers[i][0] == tg.sigil &&
				    tag_is(p, &tg, closers[i] + 1) &&
				    n > 1)
					break;
			}
			if (closers && closers[i]) {
				*end_tag = tg;
				p->depth--;
				return 0;
			}
		}
		/* Said once: the rest of a block would echo it. */
		if (p->values_only && tg.sigil && tg.sigil != '!') {
			perr(p, tg.cstart, tg.cend - tg.cstart, "'{{%.*s}}' "
			     "cannot be used here: this text takes values "
			     "only, '{{ NAME | FORMAT }}'",
			     (int)(tg.cend - tg.cstart), d + tg.cstart);
			p->aborted = 1;
			break;
		}
		switch (tg.sigil) {
		case '!':
			break;
		case '>':
			append(&tail, parse_include(p, &tg));
			break;
		case '@': {
			size_t off;
			char *label = tag_word(p, &tg, &off);
			struct tnode *t = tnode(T_REF, p->f, tg.cstart,
						tg.cend - tg.cstart);

			if (!valid_label(label))
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "'{{@...}}' needs a figure or table "
				     "label");
			t->label = label;
			append(&tail, t);
			break;
		}
		case '#':
			if (tag_is(p, &tg, "if"))
				append(&tail, parse_if(p, &tg, 2));
			else if (tag_is(p, &tg, "each"))
				append(&tail, parse_each(p, &tg));
			else if (tag_is(p, &tg, "figure"))
				append(&tail, parse_labelled(p, &tg, 1));
			else if (tag_is(p, &tg, "table"))
				append(&tail, parse_labelled(p, &tg, 0));
			else if (tag_is(p, &tg, "assert"))
				append(&tail, parse_assert(p, &tg));
			else if (tag_is(p, &tg, "elif") ||
				 tag_is(p, &tg, "else") ||
				 tag_is(p, &tg, "alt"))
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "'{{%.*s}}' outside its block",
				     (int)(tg.cend - tg.cstart),
				     d + tg.cstart);
			else
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "unknown block '{{%.*s}}' (blocks: #if, "
				     "#each, #figure, #table, #assert)",
				     (int)(tg.cend - tg.cstart),
				     d + tg.cstart);
			break;
		case '/':
			if (opener)
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "'{{%.*s}}' does not close '{{%.*s}}' "
				     "(line %zu): expected '{{%s}}'",
				     (int)(tg.cend - tg.cstart), d + tg.cstart,
				     (int)(opener->cend - opener->cstart),
				     d + opener->cstart, line_of(p, opener),
				     closer_of(closers));
			else
				perr(p, tg.cstart, tg.cend - tg.cstart,
				     "'{{%.*s}}' closes no open block",
				     (int)(tg.cend - tg.cstart), d + tg.cstart);
			break;
		default:
			append(&tail, parse_value(p, &tg));
			break;
		}
	}
	if (r == 0 && p->pos < p->f->len) {
		struct tnode *t = tnode(T_TEXT, p->f, p->pos,
					p->f->len - p->pos);

		t->text = p->f->data + p->pos;
		t->len = p->f->len - p->pos;
		append(&tail, t);
	}
	p->pos = p->f->len;
	p->depth--;
	if (opener) {
		if (!p->aborted)
			perr(p, opener->start, opener->end - opener->start,
			     "unclosed '{{%.*s}}': expected '{{%s}}' before "
			     "the end of the file",
			     (int)(opener->cend - opener->cstart),
			     p->f->data + opener->cstart, closer_of(closers));
		return -1;
	}
	return 0;
}

/* Parses a whole file (kept by the template) into *out. */
static int
parse_file(struct parser *p, struct srcfile *f, const char *canon,
	   struct tnode **out)
{
	const struct srcfile *saved_f = p->f;
	size_t saved_pos = p->pos;
	int saved_depth = p->depth;
	struct tag none;

	p->stack = xgrow(p->stack, &p->stack_cap, p->nstack + 1,
			 sizeof(*p->stack));
	p->stack[p->nstack++] = canon;
	p->f = f;
	p->pos = 0;
	parse_nodes(p, out, NULL, &none, NULL);
	p->nstack--;
	p->f = saved_f;
	p->pos = saved_pos;
	p->depth = saved_depth;
	return p->failed ? -1 : 0;
}

/* Parses the top file f (kept by t) into t->root. */
static struct template *
parse_top(struct template *t, struct srcfile *f, char *canon)
{
	struct parser p = { .t = t };

	add_file(t, f, canon);
	t->bytes = f->len;
	if (srcfile_check_text(f))
		p.failed = 1;
	else
		parse_file(&p, f, canon, &t->root);
	free(p.stack);
	if (p.failed) {
		template_free(t);
		return NULL;
	}
	return t;
}

struct template *
tmpl_parse_values(const struct srcfile *f)
{
	struct template *t = xcalloc(1, sizeof(*t));
	struct parser p = { .t = t, .f = f, .values_only = 1 };
	struct tag none;

	if (srcfile_check_text(f))
		p.failed = 1;
	else
		parse_nodes(&p, &t->root, NULL, &none, NULL);
	if (p.failed) {
		template_free(t);
		return NULL;
	}
	return t;
}

struct template *
template_parse(const char *dir, const char *name, const char *text,
	       size_t len)
{
	struct template *t = xcalloc(1, sizeof(*t));

	t->dir = xstrdup(dir);
	return parse_top(t, srcfile_from_mem(name, text, len), NULL);
}

struct template *
template_load(const char *dir, const char *name)
{
	struct buf path = BUF_INIT;
	struct srcfile *f;
	struct template *t;

	buf_addf(&path, "%s/%s", dir, name);
	f = srcfile_read(path.data);
	if (!f) {
		buf_release(&path);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->dir = xstrdup(dir);
	t = parse_top(t, f, file_realpath(path.data));
	buf_release(&path);
	return t;
}

