/*
 * The template stage: templates/NAME.md -> a tree of text, value slots and
 * blocks (template_load) -> Markdown with every value filled in from the
 * quantity registry (template_expand). Reads template files; prints
 * errors with their location; writes nothing else. Figures are only
 * placed here: drawing them is the plot stage's job.
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
#include "file.h"
#include "format.h"
#include "plot.h"
#include "registry.h"
#include "template.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* Blocks and includes nested deeper than this are refused. */
#define TEMPLATE_MAX_DEPTH 64
/*
 * Bounds on what a template may cost, so that an include bomb or nested
 * loops end in an error, not in a hang: includes parsed (a file included
 * twice counts twice), bytes parsed, steps of expansion and Markdown
 * made. The shipped report uses a hundredth of each.
 */
#define TEMPLATE_MAX_INCLUDES 1000
#define TEMPLATE_MAX_BYTES ((size_t)64 << 20)
#define TEMPLATE_MAX_STEPS 10000000
#define TEMPLATE_MAX_OUTPUT ((size_t)64 << 20)

enum tnode_kind {
	T_TEXT,
	T_VALUE,
	T_IF,
	T_EACH,
	T_FIGURE,
	T_TABLE,
	T_REF,
	T_ASSERT,
};

enum fmt_kind {
	F_SCI, F_E, F_FIXED, F_SIG, F_INT, F_YEAR, F_POW10, F_BYTES,
	F_IBYTES, F_TEXT, F_UNIT, F_NOLINK, F_OR, F_IN,
};

static const struct {
	const char *name;
	int arg;		/* 0 none, 1 optional number, 2 number,
				   3 optional quoted text, 4 quoted text */
	int lo, hi, def;
	const char *example;	/* the argument shown in errors (3 and 4) */
} fmt_info[] = {
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

struct fmt {
	enum fmt_kind kind;
	int arg;
	char *text;		/* unit:"...", or:"...", in:"..." */
	struct unit in;		/* in:"...": the unit parsed */
	struct srcloc loc;
};

struct tnode {
	enum tnode_kind kind;
	struct srcloc loc;
	struct tnode *next;
	/* T_TEXT */
	const char *text;	/* borrowed from the srcfile */
	size_t len;
	/* T_VALUE, T_IF and T_ASSERT condition */
	struct expr *expr;
	struct fmt *fmts;
	size_t nfmts;
	/* T_IF: body, then elif/else chain in alt; T_EACH: body */
	struct tnode *body;
	struct tnode *alt;	/* next branch (a T_IF with expr NULL = else) */
	/* T_EACH */
	char *var;
	char *prefix;		/* "in" mode */
	char **names;		/* "of" mode */
	struct srcloc *names_loc;
	size_t nnames;
	/* T_FIGURE, T_TABLE, T_REF */
	char *label;
	struct tnode *alt_text;	/* T_FIGURE */
	/* T_ASSERT */
	char *message;
};

struct template {
	struct srcfile **files;	/* every file read, for error locations */
	char **canon;		/* their resolved paths; NULL from memory */
	size_t nfiles, files_cap, canon_cap;
	struct tnode *root;
	char *dir;
	size_t nincludes;	/* parsed so far, for the caps */
	size_t bytes;
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
	struct srcfile *f;
	size_t pos;
	int depth;
	int aborted;		/* a limit hit: stop, say no more */
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
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_at(&l, "%s", msg.data);
	buf_release(&msg);
	p->failed = 1;
	return -1;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
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
			    "%s", i > len ? "the next '{{'" :
			    "the end of the file");
	tg->end = i + 2;
	tg->cstart = tg->start + 2;
	tg->cend = i;
	while (tg->cstart < tg->cend && is_space(d[tg->cstart]))
		tg->cstart++;
	while (tg->cend > tg->cstart && is_space(d[tg->cend - 1]))
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

	while (s < e && is_space(p->f->data[s]))
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
	const char *near = NULL;

	memset(f, 0, sizeof(*f));
	f->loc = loc_of(p->f, off, len);
	while (nlen < len && d[nlen] != ':')
		nlen++;
	for (i = 0; i < sizeof(fmt_info) / sizeof(fmt_info[0]); i++) {
		if (strlen(fmt_info[i].name) == nlen &&
		    !memcmp(fmt_info[i].name, d, nlen))
			break;
		if (nlen && !near && !strncmp(fmt_info[i].name, d, 1))
			near = fmt_info[i].name;
	}
	if (i == sizeof(fmt_info) / sizeof(fmt_info[0])) {
		struct buf list = BUF_INIT;
		size_t k;

		for (k = 0; k < sizeof(fmt_info) / sizeof(fmt_info[0]); k++)
			buf_addf(&list, "%s%s", k ? ", " : "",
				 fmt_info[k].name);
		perr(p, off, nlen, "unknown format '%.*s' (formats: %s)",
		     (int)nlen, d, list.data);
		buf_release(&list);
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

		while (s < e && is_space(d[s]))
			s++;
		while (e > s && is_space(d[e - 1]))
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
	       (tg->cend - s == n || is_space(p->f->data[s + n]));
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
			while (s < tg.cend && is_space(p->f->data[s]))
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
		while (s < e && is_space(d[s]))
			s++;
		if (s == e)
			break;
		for (w = s; w < e && !is_space(d[w]); w++)
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
	while (s < msg && is_space(d[s]))
		s++;
	for (ce = msg; ce > s && is_space(d[ce - 1]); ce--)
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
	struct srcfile *saved_f = p->f;
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

/* --------------------------------------------------------------- expand */

struct binding {
	const char *var;
	const char *prefix;	/* "device.roadrunner" (in) */
	const char *name;	/* the quantity (of) */
};

struct label {
	char *label;
	int figure;
	int number;
	struct srcloc loc;
};

struct expander {
	const struct registry *reg;
	struct expansion *x;
	struct binding *bind;
	size_t nbind, bind_cap;
	struct label *labels;
	size_t nlabels, labels_cap;
	int nfig, ntab;
	/* References, as tokens until expansion ends. */
	struct ref {
		const struct tnode *n;
	} *refs;
	size_t nrefs, refs_cap;
	size_t steps;		/* nodes expanded, for TEMPLATE_MAX_STEPS */
	/* {{ references() }}: its snippet + 1 (0: none), filled in last. */
	size_t bib_snippet;
	const struct tnode *bib_node, *first_cite;
	int stopped;		/* a limit hit or interrupted: no more */
	int failed;
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
	struct expr_env env = { ex->reg, resolve, ex, missing_ok };

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
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_at(loc, "%s", msg.data);
	buf_release(&msg);
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
	case F_SIG: return format_sig(out, v, f->arg);
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
	free(v->utext);
	v->utext = xstrdup(f->text);
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

	if (!ex->first_cite)
		ex->first_cite = n;
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
	buf_addf(out, "](#ref-%s)", e->key);
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
		ex->bib_snippet = x->nsnippets + 1;
		add_snippet(ex, out, "");
		return;
	}
	key = expr_text(expr_arg(n->expr, 0));
	if (!(e = bib_find(x->bib, key))) {
		struct buf have = BUF_INIT;

		for (i = 0; x->bib && i < x->bib->n && i < 30; i++)
			buf_addf(&have, "%s%s", i ? ", " : "", x->bib->v[i].key);
		if (!x->bib || !x->bib->n)
			xerr(ex, &n->loc, "unknown reference '%s': there is no "
			     "references.csv in the data folder", key);
		else
			xerr(ex, &n->loc, "unknown reference '%s' (%s has: %s)",
			     key, x->bib->file, have.data);
		buf_release(&have);
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

/* The references list: the cited entries, in the file's order. */
static void
finish_bib(struct expander *ex)
{
	struct expansion *x = ex->x;
	struct buf html = BUF_INIT;
	size_t i, k;

	if (ex->first_cite && !ex->bib_node) {
		xerr(ex, &ex->first_cite->loc, "a citation needs a references "
		     "list to link to: add {{ references() }} to the page");
		return;
	}
	if (!ex->bib_snippet)
		return;
	BUF_ADDLIT(&html, "<ol class=\"references\">\n");
	for (i = 0; x->bib && i < x->bib->n; i++)
		for (k = 0; k < x->ncited; k++)
			if (x->cited[k] == &x->bib->v[i]) {
				bib_item_html(&html, &x->bib->v[i]);
				BUF_ADDLIT(&html, "</li>\n");
			}
	BUF_ADDLIT(&html, "</ol>");
	free(x->snippets[ex->bib_snippet - 1].html);
	x->snippets[ex->bib_snippet - 1].html = buf_detach(&html, NULL);
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

static struct label *
find_label(struct expander *ex, const char *label)
{
	size_t i;

	for (i = 0; i < ex->nlabels; i++)
		if (!strcmp(ex->labels[i].label, label))
			return &ex->labels[i];
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
	struct label *l = find_label(ex, n->label);
	size_t line, col;

	if (l) {
		srcfile_locate(l->loc.file, l->loc.off, &line, &col);
		xerr(ex, &n->loc, "label '%s' is used twice (first at %s:%zu)",
		     n->label, l->loc.file->name, line);
		return 0;
	}
	ex->labels = xgrow(ex->labels, &ex->labels_cap, ex->nlabels + 1,
			   sizeof(*ex->labels));
	l = &ex->labels[ex->nlabels++];
	l->label = xstrdup(n->label);
	l->figure = n->kind == T_FIGURE;
	l->number = l->figure ? ++ex->nfig : ++ex->ntab;
	l->loc = n->loc;
	return l->number;
}

/*
 * The line under a figure's caption: links to its SVG at full size and
 * to the data files (written beside it by plot.c) that its script's
 * "# data:" lines name, once each. A script that cannot be read gets
 * the SVG link alone: the plot stage says what is wrong with it.
 */
static void
figure_links(const struct expansion *x, const char *label, struct buf *html)
{
	struct buf path = BUF_INIT, script = BUF_INIT, names = BUF_INIT;
	struct buf key = BUF_INIT;
	struct plot_word w;
	size_t pos = 0;

	buf_addf(html, "<p class=\"figure-links\">Full size: <a href=\""
		 "figures/%s.svg\">SVG</a>", label);
	if (x->figdir) {
		buf_addf(&path, "%s/%s.gp", x->figdir, label);
		if (buf_read_file(&script, path.data))
			buf_reset(&script);
	}
	/* " a b ": the names linked so far, each found as " NAME ". */
	buf_addch(&names, ' ');
	while (plot_header_word(script.data, script.len, &pos, &w)) {
		if (!w.data)
			continue;
		buf_reset(&key);
		buf_addch(&key, ' ');
		buf_add(&key, w.word, w.len);
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
	buf_release(&path);
	buf_release(&script);
	buf_release(&key);
	buf_release(&names);
}

static void
expand_figure(struct expander *ex, const struct tnode *n, struct buf *out)
{
	int number = place_label(ex, n);
	struct buf cap = BUF_INIT, alt = BUF_INIT, html = BUF_INIT;
	struct expansion *x = ex->x;
	size_t line, col;

	if (!number)
		return;
	expand_nodes(ex, n->body, &cap, 1);
	expand_nodes(ex, n->alt_text, &alt, 0);
	/* One line of text: runs of spaces and line breaks become a space. */
	{
		size_t i, o = 0;

		for (i = 0; i < alt.len; i++) {
			char c = is_space(alt.data[i]) ? ' ' : alt.data[i];

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
	/* A phone gets the narrow rendering (plot.h), larger text. */
	buf_addf(&html, "<figure id=\"fig-%s\">\n<picture>\n<source media=\""
		 PLOT_NARROW_MEDIA "\" srcset=\"figures/%s" PLOT_NARROW_SUFFIX
		 ".svg\">\n<img src=\"figures/%s.svg\" alt=\"", n->label,
		 n->label, n->label);
	html_attr(&html, alt.data);
	BUF_ADDLIT(&html, "\">\n</picture>\n<figcaption>");
	add_snippet(ex, out, html.data);
	buf_addf(out, "**Figure %d.** ", number);
	move_spans(ex, &cap, strspn(cap.data, " \n"), out, out->len);
	buf_add(out, cap.data + strspn(cap.data, " \n"),
		cap.len - strspn(cap.data, " \n"));
	buf_reset(&html);
	figure_links(x, n->label, &html);
	BUF_ADDLIT(&html, "</figcaption>\n</figure>");
	add_snippet(ex, out, html.data);
	x->figures = xgrow(x->figures, &x->figures_cap, x->nfigures + 1,
			   sizeof(*x->figures));
	srcfile_locate(n->loc.file, n->loc.off, &line, &col);
	x->figures[x->nfigures].label = xstrdup(n->label);
	x->figures[x->nfigures].number = number;
	x->figures[x->nfigures].file = n->loc.file->name;
	x->figures[x->nfigures].line = line;
	x->figures[x->nfigures++].col = col;
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
			ex->refs = xgrow(ex->refs, &ex->refs_cap,
					 ex->nrefs + 1, sizeof(*ex->refs));
			ex->refs[ex->nrefs].n = n;
			buf_addf(out, "%s-r%06zu", ex->x->nonce, ex->nrefs++);
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
		free(x->figures[i].label);
	free(x->figures);
	free(x->cited);
	free(x->spans);
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

int
template_expand(const struct template *t, const struct registry *reg,
		struct expansion *x)
{
	struct expander ex = { .reg = reg, .x = x };
	struct buf md = BUF_INIT;
	const char *p, *q;
	size_t i, ns, prev, nlen;

	nonce_init(x);
	x->reg = reg;
	expand_nodes(&ex, t->root, &x->md, 1);
	finish_bib(&ex);
	/* Swap reference tokens for links now that labels have numbers. */
	for (i = 0; i < ex.nrefs; i++) {
		const struct tnode *n = ex.refs[i].n;
		struct label *l = find_label(&ex, n->label);

		if (l)
			continue;
		{
			const char *best = NULL;
			size_t k;

			for (k = 0; k < ex.nlabels && !best; k++)
				if (!strncmp(ex.labels[k].label, n->label, 3))
					best = ex.labels[k].label;
			xerr(&ex, &n->loc, "no figure or table labelled '%s'%s%s%s",
			     n->label, best ? "; did you mean '" : "",
			     best ? best : "", best ? "'?" : "");
		}
	}
	nlen = strlen(x->nonce);
	/* The spans still in other buffers wrote nothing to md: dropped. */
	for (i = ns = 0; i < x->nspans; i++)
		if (ex.span_in[i] == &x->md)
			x->spans[ns++] = x->spans[i];
	x->nspans = ns;
	for (p = x->md.data, ns = 0; ex.nrefs &&
	     (q = strstr(p, x->nonce));) {
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
		i = strtoul(q + nlen + 2, NULL, 10);
		p = q + nlen + 8;
		if (i < ex.nrefs) {
			struct label *l = find_label(&ex, ex.refs[i].n->label);

			if (l)
				buf_addf(&md, "[%s %d](#%s-%s)", l->figure ?
					 "Figure" : "Table", l->number,
					 l->figure ? "fig" : "tab", l->label);
		}
	}
	prev = (size_t)(p - x->md.data);
	for (; ns < x->nspans; ns++)
		x->spans[ns].off = x->spans[ns].off - prev + md.len;
	buf_add(&md, x->md.data + prev, x->md.len - prev);
	buf_release(&x->md);
	x->md = md;
	for (i = 0; i < ex.nlabels; i++)
		free(ex.labels[i].label);
	free(ex.labels);
	free(ex.refs);
	free(ex.bind);
	free(ex.span_in);
	return ex.failed ? -1 : 0;
}
