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

enum { A_UNIT, A_SYMBOL, A_NOTE, A_SOURCE, A_RATE, NATTR };
static const char *const attr_names[NATTR] = {
	"unit", "symbol", "note", "source", "rate",
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
};

/* A run of the document: prose, or a define block (items [from, to)). */
struct part {
	size_t off, len;	/* bytes of the document */
	int block;
	size_t from, to;
};

struct modeldoc {
	struct srcfile *f;
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
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_at(&loc, "%s", msg.data);
	buf_release(&msg);
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
			  "source and rate");
		free(key);
		return -1;
	}
	i++;
	while (i < len && s[i] == ' ')
		i++;
	*text_off = off + i;
	return j;
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
	if (it->kind == ITEM_DEF) {
		it->expr = expr_parse(doc->f, it->expr_off, it->expr_len);
		if (!it->expr)
			ret = -1;
		it->expr_text = one_line(doc->f->data + it->expr_off,
					 it->expr_len);
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

static int
parse(struct modeldoc *doc)
{
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
		} else if (s[off] != ' ' && s[off] != '\t') {
			if (cur && finish(doc, cur))
				ret = -1;
			if (head_line(doc, off, len, &cur))
				ret = -1;
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
		} else if (cur->kind == ITEM_DEF && !cur->a[0].text &&
			   !cur->a[1].text && !cur->a[2].text &&
			   !cur->a[3].text && !cur->a[4].text) {
			/* The expression goes on. */
			cur->expr_len = off + len - cur->expr_off;
		} else {
			ret = doc_error(doc, off, len, "expected 'key: text' "
					"(unit, symbol, note, source, rate)");
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

struct modeldoc *
modeldoc_load(const char *path)
{
	struct modeldoc *doc;

	doc = xcalloc(1, sizeof(*doc));
	doc->f = srcfile_read(path);
	if (!doc->f || srcfile_check_text(doc->f) || parse(doc)) {
		modeldoc_free(doc);
		return NULL;
	}
	doc->f->show_source = 1;
	return doc;
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
		free(doc->items[i].expr_text);
		for (j = 0; j < NATTR; j++)
			free(doc->items[i].a[j].text);
	}
	free(doc->items);
	free(doc->parts);
	srcfile_free(doc->f);
	free(doc);
}

static int eval_item(struct modeldoc_eval *ev, size_t i);

/* The definition of name, as an index, or SIZE_MAX. */
static size_t
def_index(const struct modeldoc *doc, const char *name)
{
	size_t i;

	for (i = 0; i < doc->n; i++)
		if (doc->items[i].kind == ITEM_DEF &&
		    !strcmp(doc->items[i].name, name))
			return i;
	return (size_t)-1;
}

/*
 * The expression's lookups: a name the document defines and that is not
 * evaluated yet is evaluated first (the name is then looked up as
 * written).
 */
static int
resolve_hook(void *ctx, const char *name, struct buf *out)
{
	struct modeldoc_eval *ev = ctx;

	(void)out;
	if (!registry_get(ev->reg, name))
		modeldoc_need(ev, name);
	return -1;
}

int
modeldoc_need(struct modeldoc_eval *ev, const char *name)
{
	size_t i = def_index(ev->doc, name);

	if (registry_get(ev->reg, name))
		return 0;
	if (i == (size_t)-1)
		return 1;
	return eval_item(ev, i);
}

/* The loop through item i, for the error: "a -> b -> a". */
static void
loop_text(const struct modeldoc_eval *ev, size_t i, struct buf *out)
{
	const struct modeldoc *doc = ev->doc;
	const struct item *it = &doc->items[i];
	struct buf names = BUF_INIT;
	size_t guard = 0;

	buf_addstr(out, it->name);
	/* Follow, from i, an input that is busy, until back at i. */
	for (;;) {
		const char *p;
		size_t j = (size_t)-1;

		buf_reset(&names);
		buf_addch(&names, '\n');
		if (it->expr)
			expr_inputs(it->expr, &names);
		for (p = names.data + 1; *p; p += strcspn(p, "\n") + 1) {
			char *n = xstrndup(p, strcspn(p, "\n"));
			size_t k = def_index(doc, n);

			free(n);
			if (k != (size_t)-1 && ev->state[k] == 1) {
				j = k;
				break;
			}
		}
		if (j == (size_t)-1 || ++guard > doc->n)
			break;
		it = &doc->items[j];
		buf_addf(out, " -> %s", it->name);
		if (j == i)
			break;
	}
	buf_release(&names);
}

static int
eval_def(struct modeldoc_eval *ev, const struct item *it)
{
	const struct modeldoc *doc = ev->doc;
	struct expr_env env = { ev->reg, resolve_hook, ev, 0 };
	struct buf names = BUF_INIT, inputs = BUF_INIT, formula = BUF_INIT;
	struct buf ua = BUF_INIT;
	struct value v = { 0 };
	struct quantity *q;
	const char *p, *note = it->a[A_NOTE].text;
	const char *source = it->a[A_SOURCE].text ? it->a[A_SOURCE].text :
			     "derived here";
	double x;
	int ret = -1;

	if (registry_get(ev->reg, it->name)) {
		doc_error(doc, it->off, it->len, "'%s' is already a quantity "
			  "(of the data or a provider): a definition "
			  "names a new one", it->name);
		goto out;
	}
	/*
	 * A number alone is a value given in the unit declared (the speed
	 * of light): its words are its formula, it has no inputs.
	 */
	if (expr_kind(it->expr) == EXPR_NUM &&
	    strcmp(expr_text(it->expr), "pi")) {
		q = registry_add_num(ev->reg, it->name, expr_num(it->expr),
				     it->a[A_UNIT].text, note ? note : "",
				     NULL, source, NULL);
		ret = q ? 0 : -1;
		if (q && it->a[A_SYMBOL].text)
			registry_set_symbol(ev->reg, it->name,
					    it->a[A_SYMBOL].text);
		goto out;
	}
	if (expr_eval(it->expr, &env, &v))
		goto out;
	if (v.type != VALUE_NUMBER) {
		doc_error(doc, it->expr_off, it->expr_len, "'%s' must be a "
			  "number, and this expression gives a text",
			  it->name);
		goto out;
	}
	if (!unit_same_si(&v.unit, &it->dim)) {
		value_unit_text(&v, &ua);
		buf_addf(&formula, "'%s'", it->a[A_UNIT].text);
		doc_error(doc, it->expr_off, it->expr_len, "this expression "
			  "is in %s, but the unit given is %s", ua.data,
			  formula.data);
		goto out;
	}
	x = v.unit.scale == it->dim.scale ? v.num :
	    v.num * (v.unit.scale / it->dim.scale);
	/* Its inputs: the names it reads, in order, that are quantities. */
	buf_addch(&names, '\n');
	expr_inputs(it->expr, &names);
	for (p = names.data + 1; *p; p += strcspn(p, "\n") + 1) {
		char *n = xstrndup(p, strcspn(p, "\n"));

		if (registry_get(ev->reg, n))
			buf_addf(&inputs, "%s%s", inputs.len ? " " : "", n);
		free(n);
	}
	buf_addstr(&formula, it->expr_text);
	if (note)
		buf_addf(&formula, " (%s)", note);
	q = registry_add_num(ev->reg, it->name, x, it->a[A_UNIT].text,
			     formula.data, inputs.data, source, NULL);
	if (!q) {
		doc_error(doc, it->off, it->len, "'%s' could not be added "
			  "(see above)", it->name);
		goto out;
	}
	registry_set_expr(q, it->expr_text, note);
	if (it->a[A_SYMBOL].text)
		registry_set_symbol(ev->reg, it->name, it->a[A_SYMBOL].text);
	if (it->a[A_RATE].text && ev->rate)
		ev->rate(ev->ctx, it->name, it->a[A_RATE].text);
	ret = 0;
out:
	value_release(&v);
	buf_release(&names);
	buf_release(&inputs);
	buf_release(&formula);
	buf_release(&ua);
	return ret;
}

static int
eval_decl(struct modeldoc_eval *ev, const struct item *it)
{
	const struct quantity *q = registry_get(ev->reg, it->name);
	const char *near[3];
	struct buf hint = BUF_INIT;
	size_t n;

	if (!q) {
		n = registry_suggest(ev->reg, it->name, near, 3);
		suggest_hint(&hint, near, n);
		doc_error(ev->doc, it->off, it->len, "'%s' is not a quantity "
			  "of the data or of a provider called above%s",
			  it->name, hint.data);
		buf_release(&hint);
		return -1;
	}
	if (it->a[A_UNIT].text && strcmp(it->a[A_UNIT].text, q->unit)) {
		buf_addf(&hint, "'%s', but the data give '%s'",
			 it->a[A_UNIT].text, q->unit);
		doc_error(ev->doc, it->a[A_UNIT].off, it->a[A_UNIT].len,
			  "the unit of '%s' is declared %s", it->name,
			  hint.data);
		buf_release(&hint);
		return -1;
	}
	if (it->a[A_SYMBOL].text)
		registry_set_symbol(ev->reg, it->name, it->a[A_SYMBOL].text);
	return 0;
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

static int
eval_item(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	int ret;

	if (ev->state[i] == 2)
		return 0;
	if (ev->state[i] == 1) {
		struct buf loop = BUF_INIT;

		loop_text(ev, i, &loop);
		doc_error(ev->doc, it->off, it->len, "'%s' depends on itself: "
			  "%s", it->name, loop.data);
		buf_release(&loop);
		return -1;
	}
	ev->state[i] = 1;
	switch (it->kind) {
	case ITEM_DEF:
		ret = eval_def(ev, it);
		break;
	case ITEM_DECL:
		ret = eval_decl(ev, it);
		break;
	default:
		ret = eval_call(ev, it);
		break;
	}
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
	ev->failed = 0;
	for (i = 0; i < ev->doc->n && !ev->failed; i++)
		if (eval_item(ev, i))
			ret = -1;
	if (ev->failed)
		ret = -1;
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
