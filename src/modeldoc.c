/*
 * The model document: reads data/model.md (modeldoc.h), checks its
 * ```define blocks, and evaluates them into the registry with the
 * expression language of the templates (expr.c) and its units (units.c).
 * Reads the document; writes quantities into the registry, nothing else.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "hash.h"
#include "modeldoc.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

enum item_kind {
	ITEM_DEF = MODELDOC_DEF,	/* name = expression */
	ITEM_DECL = MODELDOC_GIVEN,	/* name alone: a quantity the data
					   give */
	ITEM_CALL = MODELDOC_CALL,	/* call provider */
};

/* An attribute: its text (owned) and where it is, for messages. */
struct attr {
	char *text;
	size_t off, len;
};

enum { A_UNIT, A_SYMBOL, A_NOTE, A_SOURCE, A_RATE, A_WHEN, NATTR };
static const char *const attr_names[NATTR] = {
	"unit", "symbol", "note", "source", "rate", "when",
};

struct item {
	enum item_kind kind;
	char *name;		/* quantity or provider */
	size_t off, len;	/* of the name */
	struct expr *expr;	/* ITEM_DEF */
	char *expr_text;	/* on one line, spaces collapsed */
	size_t expr_off, expr_len;
	struct attr a[NATTR];
	struct unit dim;	/* of a[A_UNIT] */
	struct expr *when;	/* of a[A_WHEN], or NULL */
	char *names;		/* the names expr reads, each after a
				   newline, in order (expr_inputs()) */
	/*
	 * A family ("for d in device current"): the variable, and the
	 * prefixes of the rows it ranges over, space-separated; NULL for a
	 * single quantity.
	 */
	const char *var, *over;
};

/* A run of the document: prose, or a define block (items [from, to)). */
struct part {
	size_t off, len;	/* bytes of the document */
	int block;
	size_t from, to;
};

struct modeldoc {
	struct srcfile *f;
	char **fams;		/* the families' texts: var, over, ... */
	size_t nfams;
	struct item *items;
	size_t n, cap;
	struct part *parts;
	size_t nparts, partcap;
};

static const char fence_open[] = "```define";
static const char fence_close[] = "```";

static int
is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static int __attribute__((format(printf, 4, 5)))
doc_error(const struct modeldoc *doc, size_t off, size_t len,
	  const char *fmt, ...)
{
	struct srcloc loc = { doc->f, off, len };
	va_list ap;

	va_start(ap, fmt);
	verror_at(&loc, fmt, ap);
	va_end(ap);
	return -1;
}

static void
add_part(struct modeldoc *doc, size_t off, size_t len, int block)
{
	struct part *p;

	if (!len && !block)
		return;
	if (doc->nparts == doc->partcap) {
		doc->partcap = doc->partcap ? 2 * doc->partcap : 16;
		doc->parts = xreallocarray(doc->parts, doc->partcap,
					   sizeof(*doc->parts));
	}
	p = &doc->parts[doc->nparts++];
	p->off = off;
	p->len = len;
	p->block = block;
	p->from = p->to = doc->n;
}

static struct item *
new_item(struct modeldoc *doc, enum item_kind kind, const char *s,
	 size_t off, size_t len)
{
	struct item *it;

	if (doc->n == doc->cap) {
		doc->cap = doc->cap ? 2 * doc->cap : 64;
		doc->items = xreallocarray(doc->items, doc->cap,
					   sizeof(*doc->items));
	}
	it = &doc->items[doc->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->name = xstrndup(s + off, len);
	it->off = off;
	it->len = len;
	return it;
}

/* The item that defines or declares name first, or NULL. */
static const struct item *
find(const struct modeldoc *doc, const char *name, enum item_kind kind,
     size_t before)
{
	size_t i;

	for (i = 0; i < before; i++)
		if (doc->items[i].kind == kind &&
		    !strcmp(doc->items[i].name, name))
			return &doc->items[i];
	return NULL;
}

/* Collapses every run of white space of s[0..len) to one space. */
static char *
one_line(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		if (strchr(" \t\r\n", s[i])) {
			if (b.len && b.data[b.len - 1] != ' ')
				buf_addch(&b, ' ');
		} else {
			buf_addch(&b, s[i]);
		}
	}
	while (b.len && b.data[b.len - 1] == ' ')
		b.data[--b.len] = '\0';
	return buf_detach(&b, NULL);
}

/* The length of the line at off, without its newline. */
static size_t
line_len(const struct srcfile *f, size_t off)
{
	const char *nl = memchr(f->data + off, '\n', f->len - off);

	return nl ? (size_t)(nl - (f->data + off)) : f->len - off;
}

/*
 * An attribute line "  key: text" at off (len bytes). Returns its index
 * in attr_names, NATTR for an indented line that is not one (the
 * expression goes on), or -1 after an error (a key no definition has).
 */
static int
attr_line(struct modeldoc *doc, size_t off, size_t len, size_t *text_off)
{
	const char *s = doc->f->data + off;
	size_t i = 0, k, kl;
	int j;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	k = i;
	while (i < len && s[i] >= 'a' && s[i] <= 'z')
		i++;
	kl = i - k;
	if (!kl || i >= len || s[i] != ':' ||
	    (i + 1 < len && s[i + 1] != ' '))
		return NATTR;
	for (j = 0; j < NATTR; j++)
		if (strlen(attr_names[j]) == kl &&
		    !memcmp(attr_names[j], s + k, kl))
			break;
	if (j == NATTR) {
		char *key = xstrndup(s + k, kl);

		doc_error(doc, off + k, kl, "unknown attribute '%s': a "
			  "definition has %s", key, "unit, symbol, note, "
			  "source, rate and when");
		free(key);
		return -1;
	}
	i++;
	while (i < len && s[i] == ' ')
		i++;
	*text_off = off + i;
	return j;
}

/* Whether an attribute line came after it yet. */
static int
has_attr(const struct item *it)
{
	int j;

	for (j = 0; j < NATTR; j++)
		if (it->a[j].text)
			return 1;
	return 0;
}

/* The line at off of a define block, starting with a name. */
static int
head_line(struct modeldoc *doc, size_t off, size_t len, struct item **cur)
{
	const char *s = doc->f->data;
	size_t i = off, end = off + len, n;
	const char *problem;
	char *name;

	*cur = NULL;
	if (len > 5 && !memcmp(s + off, "call ", 5)) {
		i = off + 5;
		while (i < end && s[i] == ' ')
			i++;
		n = i;
		while (n < end && is_name_char(s[n]))
			n++;
		if (n == i || n != end)
			return doc_error(doc, off, len, "'call' takes the name "
					 "of one provider");
		new_item(doc, ITEM_CALL, s, i, n - i);
		return 0;
	}
	while (i < end && is_name_char(s[i]))
		i++;
	name = xstrndup(s + off, i - off);
	problem = i == off ? "a definition starts with a name" :
		  registry_name_problem(name);
	if (problem) {
		doc_error(doc, off, i > off ? i - off : len, "'%s' is not a "
			  "valid name: %s", name, problem);
		free(name);
		return -1;
	}
	free(name);
	n = i;
	while (i < end && s[i] == ' ')
		i++;
	if (i == end) {
		*cur = new_item(doc, ITEM_DECL, s, off, n - off);
		return 0;
	}
	if (s[i] != '=')
		return doc_error(doc, i, 1, "expected '=' or the end of the "
				 "line after the name");
	*cur = new_item(doc, ITEM_DEF, s, off, n - off);
	i++;
	while (i < end && s[i] == ' ')
		i++;
	(*cur)->expr_off = i;
	(*cur)->expr_len = end - i;
	return 0;
}

/* Checks a finished item: its expression, unit and name. */
static int
finish(struct modeldoc *doc, struct item *it)
{
	const struct item *twin;
	struct buf err = BUF_INIT;
	int ret = 0;

	if (it->kind == ITEM_CALL)
		return 0;
	twin = find(doc, it->name, ITEM_DEF, (size_t)(it - doc->items));
	if (!twin)
		twin = find(doc, it->name, ITEM_DECL,
			    (size_t)(it - doc->items));
	if (twin) {
		size_t line, col;
		char where[32];

		srcfile_locate(doc->f, twin->off, &line, &col);
		snprintf(where, sizeof(where), "%zu", line);
		ret = doc_error(doc, it->off, it->len, "'%s' is already "
				"defined on line %s", it->name, where);
	}
	if (it->var && (strncmp(it->name, it->var, strlen(it->var)) ||
			it->name[strlen(it->var)] != '.'))
		ret = doc_error(doc, it->off, it->len, "in a family over "
				"'%s', a name starts with '%s.'", it->var,
				it->var);
	if (it->a[A_WHEN].text) {
		it->when = expr_parse(doc->f, it->a[A_WHEN].off,
				      it->a[A_WHEN].len);
		if (!it->when)
			ret = -1;
	}
	if (it->kind == ITEM_DEF) {
		it->expr = expr_parse(doc->f, it->expr_off, it->expr_len);
		if (!it->expr)
			ret = -1;
		it->expr_text = one_line(doc->f->data + it->expr_off,
					 it->expr_len);
		if (it->expr) {
			struct buf names = BUF_INIT;

			buf_addch(&names, '\n');
			expr_inputs(it->expr, &names);
			it->names = buf_detach(&names, NULL);
		}
		if (!it->a[A_UNIT].text)
			ret = doc_error(doc, it->off, it->len, "'%s' has no "
					"unit: add a line 'unit: ...' (empty "
					"for a pure number)", it->name);
	}
	if (it->a[A_UNIT].text &&
	    unit_parse(it->a[A_UNIT].text, &it->dim, &err)) {
		struct srcloc loc = { doc->f, it->a[A_UNIT].off,
				      it->a[A_UNIT].len };

		ret = error_at(&loc, "%s", err.data);
	}
	buf_release(&err);
	return ret;
}

/*
 * "for VAR in PREFIX ...", the first line of a block: its definitions
 * are a family over the rows PREFIX.X of each prefix (X where PREFIX.X.id
 * is a quantity), VAR.name standing for PREFIX.X.name.
 */
static int
parse_for(struct modeldoc *doc, size_t off, size_t len, const char **var,
	  const char **over)
{
	const char *s = doc->f->data;
	size_t i = off + 4, v, end = off + len;
	struct buf words = BUF_INIT;
	int ret = 0;

	while (i < end && s[i] == ' ')
		i++;
	v = i;
	while (i < end && is_name_char(s[i]) && s[i] != '.')
		i++;
	if (i == v || end - i < 4 || memcmp(s + i, " in ", 4))
		return doc_error(doc, off, len, "expected 'for VAR in PREFIX "
				 "...': a name without dots, then the "
				 "prefixes of the rows");
	doc->fams = xreallocarray(doc->fams, doc->nfams + 2,
				  sizeof(*doc->fams));
	doc->fams[doc->nfams++] = xstrndup(s + v, i - v);
	*var = doc->fams[doc->nfams - 1];
	for (i += 4; i < end;) {
		size_t w;
		char *word;

		while (i < end && s[i] == ' ')
			i++;
		w = i;
		while (i < end && s[i] != ' ')
			i++;
		if (i == w)
			break;
		word = xstrndup(s + w, i - w);
		if (registry_name_problem(word)) {
			ret = doc_error(doc, w, i - w, "'%s' is not a prefix "
					"of names: %s", word,
					registry_name_problem(word));
		}
		buf_addf(&words, "%s%s", words.len ? " " : "", word);
		free(word);
	}
	if (!words.len && !ret)
		ret = doc_error(doc, off, len, "'for %s in' names no prefix "
				"of rows", *var);
	doc->fams[doc->nfams++] = buf_detach(&words, NULL);
	*over = doc->fams[doc->nfams - 1];
	return ret;
}

static int
parse(struct modeldoc *doc)
{
	const char *fam_var = NULL, *fam_over = NULL;
	const char *s = doc->f->data;
	size_t off = 0, prose = 0;
	struct item *cur = NULL;
	int in_block = 0, ret = 0;
	size_t block_off = 0;

	while (off < doc->f->len) {
		size_t len = line_len(doc->f, off), next, toff;
		int a;

		next = off + len + (off + len < doc->f->len);
		if (!in_block) {
			if (len >= sizeof(fence_open) - 1 &&
			    !memcmp(s + off, fence_open,
				    sizeof(fence_open) - 1) &&
			    len == sizeof(fence_open) - 1) {
				add_part(doc, prose, off - prose, 0);
				add_part(doc, off, 0, 1);
				in_block = 1;
				block_off = off;
				cur = NULL;
				fam_var = fam_over = NULL;
			}
			off = next;
			if (!in_block)
				continue;
			continue;
		}
		if (len == sizeof(fence_close) - 1 &&
		    !memcmp(s + off, fence_close, len)) {
			if (cur && finish(doc, cur))
				ret = -1;
			cur = NULL;
			in_block = 0;
			doc->parts[doc->nparts - 1].len = next - block_off;
			doc->parts[doc->nparts - 1].to = doc->n;
			prose = next;
			off = next;
			continue;
		}
		if (!len || strspn(s + off, " \t") == len) {
			/* A blank line ends a definition. */
		} else if (len > 4 && !memcmp(s + off, "for ", 4)) {
			if (cur || doc->n != doc->parts[doc->nparts - 1].from)
				ret = doc_error(doc, off, len, "'for' is the "
						"first line of a block: the "
						"whole block is the family");
			else if (parse_for(doc, off, len, &fam_var,
					   &fam_over))
				ret = -1;
		} else if (s[off] != ' ' && s[off] != '\t') {
			size_t had = doc->n;

			if (cur && finish(doc, cur))
				ret = -1;
			if (head_line(doc, off, len, &cur))
				ret = -1;
			if (cur) {
				cur->var = fam_var;
				cur->over = fam_over;
			} else if (fam_var && doc->n > had) {
				ret = doc_error(doc, off, len, "a family "
						"block calls no provider");
			}
		} else if (!cur) {
			ret = doc_error(doc, off, len, "an indented line "
					"belongs to the definition above it, "
					"and there is none");
		} else if ((a = attr_line(doc, off, len, &toff)) < 0) {
			ret = -1;
		} else if (a < NATTR) {
			struct attr *at = &cur->a[a];

			if (at->text) {
				ret = doc_error(doc, off, len, "a second "
						"'%s:' for '%s'", attr_names[a],
						cur->name);
			} else {
				at->off = toff;
				at->len = off + len - toff;
				at->text = xstrndup(s + toff, at->len);
			}
		} else if (cur->kind == ITEM_DEF && !has_attr(cur)) {
			/* The expression goes on. */
			cur->expr_len = off + len - cur->expr_off;
		} else {
			ret = doc_error(doc, off, len, "expected 'key: text' "
					"(unit, symbol, note, source, rate, when)");
		}
		off = next;
	}
	if (in_block) {
		if (cur && finish(doc, cur))
			ret = -1;
		ret = doc_error(doc, block_off, sizeof(fence_open) - 1,
				"this block has no closing %s%s", fence_close,
				"");
	} else {
		add_part(doc, prose, doc->f->len - prose, 0);
	}
	return ret;
}

/* Takes f: checks and parses it into a new document, or NULL. */
static struct modeldoc *
load(struct srcfile *f)
{
	struct modeldoc *doc = xcalloc(1, sizeof(*doc));

	doc->f = f;
	if (f)
		f->show_source = 1;
	if (!doc->f || srcfile_check_text(doc->f) || parse(doc)) {
		modeldoc_free(doc);
		return NULL;
	}
	return doc;
}

struct modeldoc *
modeldoc_load(const char *path)
{
	return load(srcfile_read(path));
}

struct modeldoc *
modeldoc_from_mem(const char *name, const char *data, size_t len)
{
	return load(srcfile_from_mem(name, data, len));
}

void
modeldoc_free(struct modeldoc *doc)
{
	size_t i;
	int j;

	if (!doc)
		return;
	for (i = 0; i < doc->n; i++) {
		free(doc->items[i].name);
		expr_free(doc->items[i].expr);
		expr_free(doc->items[i].when);
		free(doc->items[i].names);
		free(doc->items[i].expr_text);
		for (j = 0; j < NATTR; j++)
			free(doc->items[i].a[j].text);
	}
	free(doc->items);
	free(doc->parts);
	for (i = 0; i < doc->nfams; i++)
		free(doc->fams[i]);
	free(doc->fams);
	srcfile_free(doc->f);
	free(doc);
}

/* The quantities being evaluated, innermost last: for loops. */
#define DEPTH_MAX 256

/*
 * What an expression's names mean while one definition is evaluated:
 * for a family's member, its variable stands for the row ("d.mass" is
 * "device.eee_pc_2008.mass").
 */
struct bind {
	struct modeldoc_eval *ev;
	const char *var;	/* NULL: a single quantity */
	const char *row;	/* "device.eee_pc_2008" */
};

static int eval_item(struct modeldoc_eval *ev, size_t i);
static int eval_member(struct modeldoc_eval *ev, size_t i, const char *row);

/* name with a family's variable replaced by the row, into out. */
static int
bound_name(const struct bind *b, const char *name, struct buf *out)
{
	size_t vl;

	if (!b->var)
		return -1;
	vl = strlen(b->var);
	if (strncmp(name, b->var, vl) || name[vl] != '.')
		return -1;
	buf_addstr(out, b->row);
	buf_addstr(out, name + vl);
	return 0;
}

/*
 * The expression's lookups: the variable of a family is its row; a
 * name the document defines and that is not evaluated yet is evaluated
 * first.
 */
static int
resolve_hook(void *ctx, const char *name, struct buf *out)
{
	struct bind *b = ctx;
	size_t at = out->len;
	int ret = bound_name(b, name, out);

	if (!registry_get(b->ev->reg, ret ? name : out->data + at))
		modeldoc_need(b->ev, ret ? name : out->data + at);
	return ret;
}

/* The definition of name, as an index, or SIZE_MAX. */
static size_t
def_index(const struct modeldoc *doc, const char *name)
{
	size_t i;

	for (i = 0; i < doc->n; i++)
		if (doc->items[i].kind == ITEM_DEF && !doc->items[i].var &&
		    !strcmp(doc->items[i].name, name))
			return i;
	return (size_t)-1;
}

/* Whether row is "PREFIX.X" of a prefix of over, X one part. */
static int
row_of(const char *over, const char *row)
{
	const char *p = over, *dot = strrchr(row, '.');

	if (!dot || dot == row)
		return 0;
	while (*p) {
		size_t len = strcspn(p, " ");

		if ((size_t)(dot - row) == len && !memcmp(p, row, len))
			return 1;
		p += len + (p[len] == ' ');
	}
	return 0;
}

int
modeldoc_need(struct modeldoc_eval *ev, const char *name)
{
	const struct modeldoc *doc = ev->doc;
	struct buf row = BUF_INIT, id = BUF_INIT;
	size_t i = def_index(doc, name);
	int ret = 1;

	if (!ev->state)
		BUG("modeldoc_need() outside modeldoc_run()");
	if (registry_get(ev->reg, name))
		return 0;
	if (i != (size_t)-1)
		return eval_item(ev, i);
	/* A member of a family: PREFIX.X.rest, defined as VAR.rest. */
	for (i = 0; i < doc->n && ret == 1; i++) {
		const struct item *it = &doc->items[i];
		const char *rest;
		size_t nl = strlen(name), rl;

		if (it->kind != ITEM_DEF || !it->var)
			continue;
		rest = it->name + strlen(it->var);	/* ".rest" */
		rl = strlen(rest);
		if (nl <= rl || strcmp(name + nl - rl, rest))
			continue;
		buf_reset(&row);
		buf_add(&row, name, nl - rl);
		buf_reset(&id);
		buf_addf(&id, "%s.id", row.data);
		if (row_of(it->over, row.data) && registry_get(ev->reg, id.data))
			ret = eval_member(ev, i, row.data);
	}
	buf_release(&row);
	buf_release(&id);
	if (ret == 1)
		return 1;
	return registry_get(ev->reg, name) ? 0 : ret < 0 ? -1 : 1;
}

/*
 * Pushes name on the stack of quantities being evaluated. Returns 0, or
 * -1 after the error naming the loop when it is there already.
 */
static int
push(struct modeldoc_eval *ev, const struct item *it, const char *name)
{
	struct buf loop = BUF_INIT;
	size_t k;

	for (k = 0; k < ev->depth; k++)
		if (!strcmp(ev->stack[k], name))
			break;
	if (k == ev->depth && ev->depth < DEPTH_MAX) {
		ev->stack[ev->depth++] = xstrdup(name);
		return 0;
	}
	for (; k < ev->depth; k++)
		buf_addf(&loop, "%s -> ", ev->stack[k]);
	buf_addstr(&loop, name);
	doc_error(ev->doc, it->off, it->len, "'%s' depends on itself: %s",
		  name, k > DEPTH_MAX ? "too deep" : loop.data);
	buf_release(&loop);
	return -1;
}

static void
pop(struct modeldoc_eval *ev)
{
	free(ev->stack[--ev->depth]);
}

/* Appends e's text with each name a family's variable starts bound. */
static void
bound_text(const struct bind *b, const char *text, struct buf *out)
{
	size_t vl = b->var ? strlen(b->var) : 0;
	const char *p = text;

	while (*p) {
		int start = p == text || !is_name_char(p[-1]);

		if (vl && start && !strncmp(p, b->var, vl) && p[vl] == '.') {
			buf_addstr(out, b->row);
			p += vl;
			continue;
		}
		/* Inside a string, nothing is a name. */
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');
			size_t n = q ? (size_t)(q - p) + 1 : strlen(p);

			buf_add(out, p, n);
			p += n;
			continue;
		}
		buf_addch(out, *p++);
	}
}

/*
 * How a member's row is written after its formula: the row's last part
 * for the family's first prefix ("macbook_2008" of device.macbook_2008),
 * else its parts as words ("current laptop" of current.laptop).
 */
static void
row_words(const char *over, const char *row, struct buf *out)
{
	const char *dot = strrchr(row, '.');
	size_t first = strcspn(over, " ");
	const char *p;

	if ((size_t)(dot - row) == first && !memcmp(over, row, first)) {
		buf_addstr(out, dot + 1);
		return;
	}
	for (p = row; *p; p++)
		buf_addch(out, *p == '.' ? ' ' : *p);
}

/* Sets name's symbol; for a member of a family, with its row. */
static void
set_symbol(struct modeldoc_eval *ev, const struct item *it, const char *name,
	   const char *row)
{
	struct buf words = BUF_INIT;

	if (!it->a[A_SYMBOL].text)
		return;
	if (row)
		row_words(it->over, row, &words);
	registry_set_member_symbol(ev->reg, name, it->a[A_SYMBOL].text,
				   row ? words.data : NULL);
	buf_release(&words);
}

/*
 * Evaluates definition it, for row (a member of its family) or alone
 * (row NULL). Returns 0, 1 when its "when:" is false (no quantity), or
 * -1 after an error.
 */
static int
eval_def(struct modeldoc_eval *ev, const struct item *it, const char *row)
{
	const struct modeldoc *doc = ev->doc;
	struct bind b = { ev, row ? it->var : NULL, row };
	struct expr_env env = { ev->reg, resolve_hook, &b, 0 };
	struct buf names = BUF_INIT, inputs = BUF_INIT, formula = BUF_INIT;
	struct buf ua = BUF_INIT, name = BUF_INIT, text = BUF_INIT;
	struct value v = { 0 };
	struct quantity *q;
	const char *p, *note = it->a[A_NOTE].text;
	const char *source = it->a[A_SOURCE].text ? it->a[A_SOURCE].text :
			     "derived here";
	double x;
	int ret = -1;

	if (bound_name(&b, it->name, &name))
		buf_addstr(&name, it->name);
	if (registry_get(ev->reg, name.data)) {
		doc_error(doc, it->off, it->len, "'%s' is already a quantity "
			  "(of the data or a provider): a definition "
			  "names a new one", name.data);
		goto out;
	}
	if (push(ev, it, name.data))
		goto out;
	if (it->when) {
		env.missing_ok = 1;
		ret = expr_eval(it->when, &env, &v);
		env.missing_ok = 0;
		if (ret < 0)
			goto popped;
		ret = ret == 0 && value_truthy(&v) ? -1 : 1;
		value_release(&v);
		memset(&v, 0, sizeof(v));
		if (ret == 1)
			goto popped;
	}
	/*
	 * A number alone is a value given in the unit declared (the speed
	 * of light): its words are its formula, it has no inputs.
	 */
	if (expr_kind(it->expr) == EXPR_NUM &&
	    strcmp(expr_text(it->expr), "pi")) {
		q = registry_add_num(ev->reg, name.data, expr_num(it->expr),
				     it->a[A_UNIT].text, note ? note : "",
				     NULL, source, NULL);
		if (!q)
			goto popped;
		goto added;
	}
	if (expr_eval(it->expr, &env, &v))
		goto popped;
	if (v.type != VALUE_NUMBER) {
		doc_error(doc, it->expr_off, it->expr_len, "'%s' must be a "
			  "number, and this expression gives a text",
			  name.data);
		goto popped;
	}
	if (!unit_same_si(&v.unit, &it->dim)) {
		value_unit_text(&v, &ua);
		buf_addf(&formula, "'%s'", it->a[A_UNIT].text);
		if (row)
			buf_addf(&formula, " (row %s)", row);
		doc_error(doc, it->expr_off, it->expr_len, "this expression "
			  "is in %s, but the unit given is %s", ua.data,
			  formula.data);
		goto popped;
	}
	x = v.unit.scale == it->dim.scale ? v.num :
	    v.num * (v.unit.scale / it->dim.scale);
	/* Its formula: the expression, a member's with its row's names. */
	bound_text(&b, it->expr_text, &text);
	/* Its inputs: the names it reads, in order, that are quantities. */
	for (p = it->names + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t at = inputs.len + (inputs.len > 0);

		buf_reset(&names);
		buf_add(&names, p, strcspn(p, "\n"));
		if (inputs.len)
			buf_addch(&inputs, ' ');
		if (bound_name(&b, names.data, &inputs))
			buf_addstr(&inputs, names.data);
		if (!registry_get(ev->reg, inputs.data + at))
			inputs.data[inputs.len = at ? at - 1 : 0] = '\0';
	}
	buf_addstr(&formula, text.data);
	if (note)
		buf_addf(&formula, " (%s)", note);
	q = registry_add_num(ev->reg, name.data, x, it->a[A_UNIT].text,
			     formula.data, inputs.data, source, NULL);
	if (!q) {
		doc_error(doc, it->off, it->len, "'%s' could not be added "
			  "(see above)", name.data);
		goto popped;
	}
	registry_set_expr(q, text.data, note);
added:
	/* A given number and a formula alike: its symbol, and its rate. */
	set_symbol(ev, it, name.data, row);
	if (it->a[A_RATE].text && ev->rate)
		ev->rate(ev->ctx, q->name, it->a[A_RATE].text);
	ret = 0;
popped:
	pop(ev);
out:
	value_release(&v);
	buf_release(&names);
	buf_release(&inputs);
	buf_release(&formula);
	buf_release(&ua);
	buf_release(&name);
	buf_release(&text);
	if (ret < 0)
		ev->failed = 1;
	return ret;
}

/*
 * Adds name to the set of members evaluated. Returns 1 when it was in
 * it already, else 0.
 */
static int
member_seen(struct modeldoc_eval *ev, const char *name)
{
	size_t i, mask;

	if ((ev->nmembers + 1) * 2 > ev->memberslots) {
		char **old = ev->members;
		size_t n = ev->memberslots;

		ev->memberslots = n ? 2 * n : 1024;
		ev->members = xcalloc(ev->memberslots, sizeof(*ev->members));
		mask = ev->memberslots - 1;
		for (i = 0; i < n; i++) {
			size_t j;

			if (!old[i])
				continue;
			j = (size_t)hash_str(0, old[i]) & mask;
			while (ev->members[j])
				j = (j + 1) & mask;
			ev->members[j] = old[i];
		}
		free(old);
	}
	mask = ev->memberslots - 1;
	for (i = (size_t)hash_str(0, name) & mask; ev->members[i];
	     i = (i + 1) & mask)
		if (!strcmp(ev->members[i], name))
			return 1;
	ev->members[i] = xstrdup(name);
	ev->nmembers++;
	return 0;
}

/* Evaluates member row of family definition i, unless it is there. */
static int
eval_member(struct modeldoc_eval *ev, size_t i, const char *row)
{
	const struct item *it = &ev->doc->items[i];
	struct buf name = BUF_INIT;
	int ret = 0;

	buf_addf(&name, "%s%s", row, it->name + strlen(it->var));
	/* Evaluated once: a false "when:" is not asked again. */
	if (!registry_get(ev->reg, name.data) && !member_seen(ev, name.data))
		ret = eval_def(ev, it, row);
	buf_release(&name);
	return ret;
}

static int
eval_decl(struct modeldoc_eval *ev, const struct item *it, const char *row)
{
	struct buf name = BUF_INIT, hint = BUF_INIT;
	struct bind b = { ev, row ? it->var : NULL, row };
	const struct quantity *q;
	const char *near[3];
	size_t n;
	int ret = -1;

	if (bound_name(&b, it->name, &name))
		buf_addstr(&name, it->name);
	q = registry_get(ev->reg, name.data);
	if (!q && row) {
		ret = 0;	/* a row without it */
	} else if (!q) {
		n = registry_suggest(ev->reg, name.data, near, 3);
		suggest_hint(&hint, near, n);
		doc_error(ev->doc, it->off, it->len, "'%s' is not a quantity "
			  "of the data or of a provider called above%s",
			  name.data, hint.data);
	} else if (it->a[A_UNIT].text && strcmp(it->a[A_UNIT].text,
						q->unit)) {
		buf_addf(&hint, "'%s', but the data give '%s'",
			 it->a[A_UNIT].text, q->unit);
		doc_error(ev->doc, it->a[A_UNIT].off, it->a[A_UNIT].len,
			  "the unit of '%s' is declared %s", name.data,
			  hint.data);
	} else {
		set_symbol(ev, it, name.data, row);
		ret = 0;
	}
	buf_release(&name);
	buf_release(&hint);
	return ret;
}

static int
eval_call(struct modeldoc_eval *ev, const struct item *it)
{
	const struct modeldoc_provider *pv;
	const char *near[3];
	struct suggest sg;
	struct buf hint = BUF_INIT;
	size_t n;

	for (pv = ev->providers; pv && pv->name; pv++)
		if (!strcmp(pv->name, it->name))
			return pv->run(ev->ctx);
	suggest_init(&sg, it->name, near, 3);
	for (pv = ev->providers; pv && pv->name; pv++)
		suggest_add(&sg, pv->name);
	n = suggest_end(&sg);
	suggest_hint(&hint, near, n);
	doc_error(ev->doc, it->off, it->len, "unknown provider '%s'%s",
		  it->name, hint.data);
	buf_release(&hint);
	return -1;
}

int
modeldoc_row_id(const char *over, const char *name, struct buf *row)
{
	size_t len = strlen(name);

	if (len < 4 || strcmp(name + len - 3, ".id"))
		return 0;
	buf_reset(row);
	buf_add(row, name, len - 3);
	return row_of(over, row->data);
}

/* Every member of family item i, one per row. */
static int
eval_family(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct buf row = BUF_INIT;
	size_t k;
	int ret = 0;

	for (k = 0; k < registry_count(ev->reg) && ret >= 0; k++) {
		const char *name = registry_at(ev->reg, k)->name;

		if (!modeldoc_row_id(it->over, name, &row))
			continue;
		ret = it->kind == ITEM_DEF ? eval_member(ev, i, row.data) :
		      eval_decl(ev, it, row.data);
	}
	buf_release(&row);
	return ret < 0 ? -1 : 0;
}

int
modeldoc_row(struct modeldoc_eval *ev, const char *row)
{
	size_t i;

	if (!ev->state)
		BUG("modeldoc_row() outside modeldoc_run()");

	for (i = 0; i < ev->doc->n && !ev->failed; i++) {
		const struct item *it = &ev->doc->items[i];

		if (!it->var || !row_of(it->over, row))
			continue;
		if ((it->kind == ITEM_DEF ? eval_member(ev, i, row) :
		     eval_decl(ev, it, row)) < 0)
			return -1;
	}
	return ev->failed ? -1 : 0;
}

static int
eval_item(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	int ret;

	if (ev->state[i] == 2)
		return 0;
	ev->state[i] = 1;
	if (it->var)
		ret = eval_family(ev, i);
	else if (it->kind == ITEM_DEF)
		ret = eval_def(ev, it, NULL) < 0 ? -1 : 0;
	else if (it->kind == ITEM_DECL)
		ret = eval_decl(ev, it, NULL);
	else
		ret = eval_call(ev, it);
	ev->state[i] = 2;
	if (ret)
		ev->failed = 1;
	return ret;
}

int
modeldoc_run(struct modeldoc_eval *ev)
{
	size_t i;
	int ret = 0;

	ev->state = xcalloc(ev->doc->n ? ev->doc->n : 1, 1);
	ev->stack = xcalloc(DEPTH_MAX, sizeof(*ev->stack));
	ev->members = NULL;
	ev->nmembers = ev->memberslots = 0;
	ev->depth = 0;
	ev->failed = 0;
	for (i = 0; i < ev->doc->n && !ev->failed; i++)
		if (eval_item(ev, i))
			ret = -1;
	if (ev->failed)
		ret = -1;
	while (ev->depth)
		pop(ev);
	free(ev->stack);
	ev->stack = NULL;
	for (i = 0; i < ev->memberslots; i++)
		free(ev->members[i]);
	free(ev->members);
	ev->members = NULL;
	free(ev->state);
	ev->state = NULL;
	return ret;
}

size_t
modeldoc_nparts(const struct modeldoc *doc)
{
	return doc->nparts;
}

void
modeldoc_part(const struct modeldoc *doc, size_t i, struct modeldoc_part *out)
{
	const struct part *p = &doc->parts[i];

	out->block = p->block;
	out->text = doc->f->data + p->off;
	out->len = p->len;
	out->from = p->from;
	out->to = p->to;
}

const char *
modeldoc_item(const struct modeldoc *doc, size_t i, enum modeldoc_kind *kind)
{
	*kind = (enum modeldoc_kind)doc->items[i].kind;
	return doc->items[i].name;
}

size_t
modeldoc_nitems(const struct modeldoc *doc)
{
	return doc->n;
}

void
modeldoc_def(const struct modeldoc *doc, size_t i, struct modeldoc_def *out)
{
	const struct item *it = &doc->items[i];

	out->name = it->name;
	out->expr = it->expr;
	out->unit = it->a[A_UNIT].text;
	out->symbol = it->a[A_SYMBOL].text;
	out->note = it->a[A_NOTE].text;
	out->source = it->a[A_SOURCE].text;
	out->var = it->var;
	out->over = it->over;
}
