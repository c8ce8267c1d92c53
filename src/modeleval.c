/*
 * The model document's evaluation: runs the items modeldoc.c parsed and
 * checked, in order, into the registry: definitions (with the
 * expression language of the templates, expr.c, and its units), the
 * families over rows, the picks and the providers' calls. Reads the
 * document and the registry; writes quantities, nothing else.
 */
/* memmem() is GNU's (and POSIX.1-2024's): declared under _GNU_SOURCE. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "hash.h"
#include "modeldoc.h"
#include "modeldocint.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* The quantities being evaluated, innermost last: for loops. */
#define DEPTH_MAX 256



static int eval_item(struct modeldoc_eval *ev, size_t i);
static int check_item(struct modeldoc_eval *ev, const struct item *it,
		      struct bind *b);
static int eval_member(struct modeldoc_eval *ev, size_t i, const char *row,
		       size_t k);

/* b for item it, for row (or NULL) and the document's rate k (or none). */
void
modeleval_bind(struct bind *b, struct modeldoc_eval *ev, const struct item *it,
	  const char *row, size_t k)
{
	memset(b, 0, sizeof(*b));
	b->ev = ev;
	if (row) {
		b->var = it->var;
		b->row = row;
	}
	if (k != NO_RATE && it->per_rate) {
		const struct item *r = &ev->doc->items[ev->doc->rates[k]];
		const char *dot = strrchr(r->name, '.');

		b->rvar = it->rvar;
		b->rate = r->name;
		b->rshort = dot ? dot + 1 : r->name;
		b->rtag = r->a[A_TAG].text ? r->a[A_TAG].text : b->rshort;
		b->rwhat = r->a[A_RATE].text;
	}
}

/*
 * A buffer lent by the run (expr_bufs), given back with buf_give(): so
 * that the words, formula and inputs of each member cost no malloc()
 * and free() (those were 11% of the model's instructions).
 */
static struct buf *
buf_take(struct modeldoc_eval *ev)
{
	return expr_buf_take(ev->bufs);
}

static void
buf_give(struct modeldoc_eval *ev, struct buf *b)
{
	expr_buf_give(ev->bufs, b);
}

/*
 * text with each "{r}" of the rate variable replaced by with, into out.
 * Returns whether there was one.
 */
static int
unbrace_rate(const struct bind *b, const char *text, const char *with,
	     struct buf *out)
{
	size_t rl = b->rvar ? strlen(b->rvar) : 0;
	const char *p = text, *q;
	int n = 0;

	while (rl && (q = strchr(p, '{'))) {
		if (!strncmp(q + 1, b->rvar, rl) && q[rl + 1] == '}') {
			buf_add(out, p, (size_t)(q - p));
			buf_addstr(out, with);
			p = q + rl + 2;
			n++;
		} else {
			buf_add(out, p, (size_t)(q - p) + 1);
			p = q + 1;
		}
	}
	buf_addstr(out, p);
	return n > 0;
}

/*
 * name as it reads for the binding b: a family's variable replaced by
 * the row, a rate's "{r}" by its short name and "r" alone by the rate,
 * into out. Returns 0, or -1 (out untouched) when b changes nothing.
 */
int
modeleval_bound_name(const struct bind *b, const char *name, struct buf *out)
{
	size_t at = out->len, vl;
	const char *last;
	int changed = 0;

	if (!b->var && !b->rvar)
		return -1;
	if (b->rvar && !strcmp(name, b->rvar)) {
		buf_addstr(out, b->rate);
		return 0;
	}
	vl = b->var ? strlen(b->var) : 0;
	if (vl && !strncmp(name, b->var, vl) &&
	    (name[vl] == '.' || !name[vl])) {
		buf_addstr(out, b->row);
		/* The variable alone is its row (count(r in s) of a family). */
		if (!name[vl])
			return 0;
		name += vl;
		changed = 1;
	}
	/* Most names have no braces. */
	if (!strchr(name, '{')) {
		if (!changed)
			return -1;
		buf_addstr(out, name);
		return 0;
	}
	last = b->row ? strrchr(b->row, '.') : NULL;
	/*
	 * "{r}" is the rate's short name, "{d}" the row's last part
	 * (compare.{k}.years of the row then.laptop: compare.laptop.years).
	 */
	while (*name) {
		const char *open = strchr(name, '{'), *close;
		size_t n;

		if (!open || !(close = strchr(open, '}')))
			break;
		n = (size_t)(close - open - 1);
		buf_add(out, name, (size_t)(open - name));
		if (b->rvar && strlen(b->rvar) == n &&
		    !memcmp(open + 1, b->rvar, n)) {
			buf_addstr(out, b->rshort);
			changed = 1;
		} else if (vl == n && last && !memcmp(open + 1, b->var, n)) {
			buf_addstr(out, last + 1);
			changed = 1;
		} else {
			buf_add(out, open, n + 2);
		}
		name = close + 1;
	}
	if (changed) {
		buf_addstr(out, name);
		return 0;
	}
	out->len = at;
	if (out->data)
		out->data[at] = '\0';
	return -1;
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
	int ret = modeleval_bound_name(b, name, out);

	if (!registry_get(b->ev->reg, ret ? name : out->data + at))
		modeldoc_need(b->ev, ret ? name : out->data + at);
	return ret;
}

/* The rows of a reduction: a set the document names, or a data file's. */
static int
rows_hook(void *ctx, const char *over, struct expr_rows *out)
{
	struct bind *b = ctx;
	int ret = modelrows_find(b->ev, over, out);

	/* An error was printed: no rows, and the run has failed. */
	if (ret < 0) {
		b->ev->failed = 1;
		memset(out, 0, sizeof(*out));
		return 1;
	}
	return ret;
}

/*
 * Why name is no quantity, when the document says: a trend of the
 * document that this edition's rows are too few for gives nothing.
 */
static void
why_hook(void *ctx, const char *name, struct buf *hint)
{
	const struct bind *b = ctx;
	const struct modeldoc *doc = b->ev->doc;
	size_t k, len;

	for (k = 0; k < doc->n; k++) {
		const struct item *it = &doc->items[k];

		len = strlen(it->name);
		if (it->kind != ITEM_TREND || strncmp(name, it->name, len) ||
		    name[len] != '.' || !b->ev->state || b->ev->state[k] != 2 ||
		    registry_has(b->ev->reg, it->name))
			continue;
		buf_addf(hint, " (the trend '%s' gives nothing in this "
			 "edition: it needs %s%s; say what holds without it "
			 "with has(%s.slope))", it->name, it->a[A_NEEDS].text,
			 it->when ? ", and its 'when:'" : "", it->name);
		return;
	}
}

void
modeleval_env(struct bind *b, struct expr_env *env)
{
	memset(env, 0, sizeof(*env));
	env->reg = b->ev->reg;
	env->formulas = b->ev->formulas;
	env->bufs = b->ev->bufs;
	env->resolve = resolve_hook;
	env->ctx = b;
	env->rows = rows_hook;
	env->why_missing = why_hook;
}

/* The definition of name, as an index, or SIZE_MAX. */
static size_t
def_index(const struct modeldoc *doc, const char *name)
{
	const struct modeldoc_key *k = modeldoc_key_find(doc->singles, doc->nsingles, name);

	return k < doc->singles + doc->nsingles ? k->i : (size_t)-1;
}

/* The pick that name is (or is below: "current.laptop.year"), or SIZE_MAX. */
static size_t
pick_index(const struct modeldoc *doc, const char *name)
{
	size_t k, i, len;

	for (k = 0; k < doc->npicks; k++) {
		i = doc->picks[k];
		len = doc->picklen[k];
		if (*doc->items[i].name == *name &&
		    !strncmp(doc->items[i].name, name, len) &&
		    (!name[len] || name[len] == '.'))
			return i;
	}
	return (size_t)-1;
}

/* Whether row is "PREFIX.X" of a prefix of over, X one part. */
int
modeleval_row_of(const char *over, const char *row)
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

/*
 * Whether name may be a member of per-rate item it: it holds the
 * name's text between the family's variable and "{r}", and ends with
 * the text after it. Without this test before each rate is tried,
 * looking up names the rows lack cost 5% of a report's instructions
 * (callgrind: 238.5 M against 226.9 M with it).
 */
static int
may_be_member(const struct item *it, const char *name, size_t nl)
{
	size_t tl = it->rated_endlen;

	if (nl < tl || strcmp(name + nl - tl, it->rated_end))
		return 0;
	/*
	 * strstr() of the part before the braces, made at load: asked of
	 * every name the rows lack, for every per-rate family, a scan with
	 * strncmp() at each byte was 35.7M of every edition's
	 * instructions, memmem() of the name's part 1.3% of a report's.
	 */
	return !*it->rated_in || strstr(name, it->rated_in) != NULL;
}

/*
 * name as a member of family item i whose name holds "{VAR}" (pattern,
 * its rate's short name in already: compare.{k}.years): the part of
 * name in its place is the row's last part, under one of the family's
 * prefixes. Evaluates it for that row. Returns as modeldoc_need().
 */
static int
brace_member(struct modeldoc_eval *ev, size_t i, const char *pattern,
	     const char *name, size_t k)
{
	const struct item *it = &ev->doc->items[i];
	struct buf brace = BUF_INIT, row = BUF_INIT;
	const char *open, *p;
	size_t before, after, nl = strlen(name), mid, len;
	int ret = 1;

	buf_addf(&brace, "{%s}", it->var);
	open = strstr(pattern, brace.data);
	if (!open)
		goto out;
	before = (size_t)(open - pattern);
	after = strlen(open + brace.len);
	if (nl <= before + after || strncmp(name, pattern, before) ||
	    strcmp(name + nl - after, open + brace.len))
		goto out;
	mid = nl - before - after;
	if (memchr(name + before, '.', mid))
		goto out;
	for (p = it->over; *p && ret == 1; p += len + (p[len] == ' ')) {
		len = strcspn(p, " ");
		buf_reset(&row);
		buf_add(&row, p, len);
		buf_addch(&row, '.');
		buf_add(&row, name + before, mid);
		buf_reset(&brace);
		buf_addf(&brace, "%s.id", row.data);
		if (registry_get(ev->reg, brace.data))
			ret = eval_member(ev, i, row.data, k);
	}
out:
	buf_release(&brace);
	buf_release(&row);
	return ret;
}

int
modeldoc_need(struct modeldoc_eval *ev, const char *name)
{
	const struct modeldoc *doc = ev->doc;
	struct buf *row, *id;
	size_t i = def_index(doc, name), c, nfam, nl = strlen(name);
	const struct modeldoc_key *fam;
	const char *last;
	int ret = 1;

	if (!ev->state)
		BUG("modeldoc_need() outside modeldoc_run()");
	if (registry_get(ev->reg, name))
		return 0;
	if (i != (size_t)-1)
		return eval_item(ev, i);
	if ((i = pick_index(doc, name)) != (size_t)-1) {
		/*
		 * Busy choosing its row (on the stack): a loop through it.
		 * Busy copying it: its families read its row.
		 */
		for (c = 0; ev->state[i] && c < ev->depth; c++)
			if (!strcmp(ev->stack[c], doc->items[i].name))
				return modeleval_push(ev, &doc->items[i],
					    doc->items[i].name);
		if (!ev->state[i] && eval_item(ev, i))
			return -1;
		/*
		 * A pick's row holds what its families compute too; a
		 * trend's name is the prefix of definitions of its own
		 * (energy.fit.halving_time): those are looked for below.
		 */
		if (registry_get(ev->reg, name))
			return 0;
		if (doc->items[i].kind == ITEM_PICK)
			return registry_has(ev->reg, name) ? 0 : 1;
	}
	/*
	 * A member of a family: PREFIX.X.rest, defined as VAR.rest; or of
	 * a rate's: its name with "{r}" as the rate's short name.
	 */
	last = strrchr(name, '.');
	last = last ? last + 1 : name;
	row = buf_take(ev);
	id = buf_take(ev);
	fam = modeldoc_key_find(doc->members, doc->nmembers, last);
	for (nfam = 0; fam + nfam < doc->members + doc->nmembers &&
	     !strcmp(fam[nfam].key, last); nfam++)
		;
	/* The families' definitions whose names end so, then the rates'. */
	for (c = 0; c < nfam + doc->nrated && ret == 1; c++) {
		const struct item *it;
		size_t k, nk;

		i = c < nfam ? fam[c].i : doc->rated[c - nfam];
		it = &doc->items[i];
		nk = it->per_rate ? doc->nrates : 1;
		if (it->per_rate && !may_be_member(it, name, nl))
			continue;
		for (k = 0; k < nk && ret == 1; k++) {
			struct bind b;
			const char *rest;
			size_t rl;

			modeleval_bind(&b, ev, it, NULL, it->per_rate ? k : NO_RATE);
			buf_reset(id);
			if (modeleval_bound_name(&b, it->name, id))
				buf_addstr(id, it->name);
			if (!it->var) {
				if (!strcmp(id->data, name))
					ret = eval_member(ev, i, NULL, k);
				continue;
			}
			if (strncmp(it->name, it->var, strlen(it->var)) ||
			    it->name[strlen(it->var)] != '.') {
				ret = brace_member(ev, i, id->data, name,
						   it->per_rate ? k : NO_RATE);
				continue;
			}
			rest = id->data + strlen(it->var);	/* ".rest" */
			rl = strlen(rest);
			if (nl <= rl || strcmp(name + nl - rl, rest))
				continue;
			buf_reset(row);
			buf_add(row, name, nl - rl);
			buf_reset(id);
			buf_addf(id, "%s.id", row->data);
			if (modeleval_row_of(it->over, row->data) &&
			    registry_get(ev->reg, id->data))
				ret = eval_member(ev, i, row->data,
						  it->per_rate ? k : NO_RATE);
		}
	}
	buf_give(ev, id);
	buf_give(ev, row);
	if (ret == 1)
		return 1;
	return registry_get(ev->reg, name) ? 0 : ret < 0 ? -1 : 1;
}

/*
 * Pushes name (borrowed until it is popped: a copy of each was 0.4% of
 * a report's instructions) on the stack of quantities being evaluated.
 * Returns 0, or -1 after the error naming the loop when it is there
 * already.
 */
int
modeleval_push(struct modeldoc_eval *ev, const struct item *it, const char *name)
{
	struct buf loop = BUF_INIT;
	size_t k;

	for (k = 0; k < ev->depth; k++)
		if (!strcmp(ev->stack[k], name))
			break;
	if (k == ev->depth && ev->depth < DEPTH_MAX) {
		ev->stack[ev->depth++] = name;
		return 0;
	}
	for (; k < ev->depth; k++)
		buf_addf(&loop, "%s -> ", ev->stack[k]);
	buf_addstr(&loop, name);
	modeldoc_error(ev->doc, it->off, it->len, "'%s' depends on itself: %s",
		  name, k > DEPTH_MAX ? "too deep" : loop.data);
	buf_release(&loop);
	return -1;
}

void
modeleval_pop(struct modeldoc_eval *ev)
{
	ev->depth--;
}

/* Appends e's text with each name a family's variable starts bound. */
static void
bound_text(const struct bind *b, const char *text, struct buf *out)
{
	size_t vl = b->var ? strlen(b->var) : 0;
	size_t rl = b->rvar ? strlen(b->rvar) : 0;
	const char *p = text;
	char stops[5] = "\"{";

	/*
	 * Only where a name or a brace or a string starts is there
	 * anything to do: the text between is copied whole (a byte at a
	 * time, each tried, was 2% of the model's instructions).
	 */
	if (!vl && !rl) {
		buf_addstr(out, text);
		return;
	}
	if (vl)
		stops[strlen(stops)] = *b->var;
	if (rl)
		stops[strlen(stops)] = *b->rvar;
	while (*p) {
		size_t n = strcspn(p, stops);
		int start;

		buf_add(out, p, n);
		p += n;
		if (!*p)
			break;
		start = p == text ||
			(!modeldoc_name_char(p[-1]) && p[-1] != '}');
		if (vl && start && !strncmp(p, b->var, vl) && p[vl] == '.') {
			buf_addstr(out, b->row);
			p += vl;
			continue;
		}
		if (rl && start && !strncmp(p, b->rvar, rl) &&
		    !modeldoc_name_char(p[rl]) && p[rl] != '{') {
			buf_addstr(out, b->rate);
			p += rl;
			continue;
		}
		if (rl && *p == '{' && !strncmp(p + 1, b->rvar, rl) &&
		    p[rl + 1] == '}') {
			buf_addstr(out, b->rshort);
			p += rl + 2;
			continue;
		}
		if (vl && b->row && *p == '{' && !strncmp(p + 1, b->var, vl) &&
		    p[vl + 1] == '}') {
			buf_addstr(out, strrchr(b->row, '.') + 1);
			p += vl + 2;
			continue;
		}
		/* Inside a string, nothing is a name. */
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');

			n = q ? (size_t)(q - p) + 1 : strlen(p);
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

/*
 * Sets name's symbol; for a member of a family, with its row; for a
 * rate's, "{r}" in it is the rate's tag.
 */
static void
set_symbol(const struct bind *b, const struct item *it, struct quantity *q)
{
	struct buf *words, *sym;
	const char *symbol = it->a[A_SYMBOL].text;

	if (!symbol)
		return;
	words = buf_take(b->ev);
	sym = buf_take(b->ev);
	if (b->row)
		row_words(it->over, b->row, words);
	if (b->rvar) {
		unbrace_rate(b, symbol, b->rtag, sym);
		symbol = sym->data;
	}
	registry_set_symbol_of(q, symbol, b->row ? words->data : NULL);
	buf_give(b->ev, sym);
	buf_give(b->ev, words);
}

/* Appends name to the space-separated inputs unless it is there. */
static void
add_input(struct buf *inputs, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = inputs->data; *p; p += strcspn(p, " ") + (p[strcspn(p, " ")] == ' '))
		if (strcspn(p, " ") == len && !memcmp(p, name, len))
			return;
	if (inputs->len)
		buf_addch(inputs, ' ');
	buf_add(inputs, name, len);
}

/* The names of e that var binds ("d.mass" for d), each "\n.mass\n". */
static void
bound_rests(const struct expr *e, const char *var, struct buf *rests)
{
	size_t vl = strlen(var);

	if (!e)
		return;
	if (expr_kind(e) == EXPR_NAME) {
		const char *n = expr_text(e);

		if (!strncmp(n, var, vl) && n[vl] == '.') {
			buf_addch(rests, '\n');
			buf_addstr(rests, n + vl);
			buf_addch(rests, '\n');
		}
		return;
	}
	bound_rests(expr_arg(e, 0), var, rests);
	bound_rests(expr_arg(e, 1), var, rests);
}

/* Whether name is a set of rows of doc. */
static int
is_set(const struct modeldoc *doc, const char *name)
{
	size_t k;

	for (k = 0; k < doc->nviews; k++)
		if (!strcmp(doc->items[doc->views[k]].name, name))
			return 1;
	return 0;
}

/*
 * The inputs a reduction of e adds: for each row it ranges over, the
 * row's id and each ROW.rest it reads there (VAR.rest) that the row has.
 * A count or a maximum changes with its rows, and these lead diff to the
 * data row that changed it (the reduction's own names bind no quantity).
 */
static void
reduction_inputs(const struct modeldoc_eval *ev, const struct expr *e,
		 struct buf *inputs)
{
	const struct registry *reg = ev->reg;
	const char *over, *var;

	if (!e)
		return;
	/*
	 * A set of rows is what a reduction over its name ranges over, even
	 * where rows of a family share its prefix (the windows of a series,
	 * "series.top500.fit_all"): their ids are none of its inputs.
	 */
	if (expr_kind(e) == EXPR_CALL && (var = expr_reduction(e, &over)) &&
	    !is_set(ev->doc, over)) {
		struct buf rests = BUF_INIT, row = BUF_INIT, name = BUF_INIT;
		size_t k;

		bound_rests(expr_arg(e, 0), var, &rests);
		bound_rests(expr_arg(e, 1), var, &rests);
		for (k = 0; k < registry_nids(reg); k++) {
			const char *id = registry_id_at(reg, k)->name, *p;

			if (!modeldoc_row_id(over, id, &row))
				continue;
			add_input(inputs, id);
			for (p = rests.data; *p; p += strcspn(p + 1, "\n") + 2) {
				buf_reset(&name);
				buf_addstr(&name, row.data);
				buf_add(&name, p + 1, strcspn(p + 1, "\n"));
				if (registry_get(reg, name.data))
					add_input(inputs, name.data);
			}
		}
		buf_release(&rests);
		buf_release(&row);
		buf_release(&name);
	}
	reduction_inputs(ev, expr_arg(e, 0), inputs);
	reduction_inputs(ev, expr_arg(e, 1), inputs);
}

/* q's because: the quantities its "when:" reads, as bound by b. */
static void
set_because(struct quantity *q, const struct bind *b, const struct item *it)
{
	struct buf *one = buf_take(b->ev), *because = buf_take(b->ev);
	const char *p;

	for (p = it->when_names + 1; *p; p += strcspn(p, "\n") + 1) {
		buf_reset(one);
		buf_add(one, p, strcspn(p, "\n"));
		if (because->len)
			buf_addch(because, ' ');
		if (modeleval_bound_name(b, one->data, because))
			buf_addstr(because, one->data);
	}
	registry_set_because_of(q, because->data);
	buf_give(b->ev, because);
	buf_give(b->ev, one);
}

/*
 * Whether v, the value of it (name, in row or NULL), is one it may
 * have: a text only without a unit, a number in its unit's dimension
 * (or with "unit: *", in one the value comes with). 0, or -1 after an
 * error at its expression.
 */
static int
value_fits(struct modeldoc_eval *ev, const struct item *it,
	   const char *name, const char *row, const struct value *v)
{
	struct buf ua = BUF_INIT, given = BUF_INIT;
	int ret = -1;

	if (v->type != VALUE_NUMBER && *it->a[A_UNIT].text) {
		modeldoc_error(ev->doc, it->expr_off, it->expr_len, "'%s' "
			       "gives a text, and a text has no unit: give "
			       "it 'unit:' empty", name);
	} else if (v->type == VALUE_NUMBER && it->any_unit && !v->utext) {
		value_unit_text(v, &ua);
		modeldoc_error(ev->doc, it->expr_off, it->expr_len, "'unit: "
			       "*' keeps the unit a value comes with, and "
			       "this one's (%s) is computed: give it",
			       ua.data);
	} else if (v->type == VALUE_NUMBER && !it->any_unit &&
		   !unit_same_si(&v->unit, &it->dim)) {
		value_unit_text(v, &ua);
		buf_addf(&given, "'%s'", it->a[A_UNIT].text);
		if (row)
			buf_addf(&given, " (row %s)", row);
		modeldoc_error(ev->doc, it->expr_off, it->expr_len, "this "
			       "expression is in %s, but the unit given is %s",
			       ua.data, given.data);
	} else {
		ret = 0;
	}
	buf_release(&ua);
	buf_release(&given);
	return ret;
}

/*
 * The inputs of it bound by b, into inputs: the names it reads, in
 * order, that are quantities, and what its reductions read.
 */
static void
def_inputs(struct modeldoc_eval *ev, const struct item *it,
	   const struct bind *b, struct buf *inputs)
{
	struct buf *one = buf_take(ev);
	const char *p;

	for (p = it->names + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t at = inputs->len + (inputs->len > 0);

		buf_reset(one);
		buf_add(one, p, strcspn(p, "\n"));
		if (inputs->len)
			buf_addch(inputs, ' ');
		if (modeleval_bound_name(b, one->data, inputs))
			buf_addstr(inputs, one->data);
		if (!registry_get(ev->reg, inputs->data + at))
			inputs->data[inputs->len = at ? at - 1 : 0] = '\0';
	}
	/* Most read no rows: their trees are not walked for every member. */
	if (it->reduces)
		reduction_inputs(ev, it->expr, inputs);
	buf_give(ev, one);
}

/*
 * The data files the reductions of e range over (a set's, a data
 * file's rows), each once, ", " between, appended to out: what a count
 * or a total of rows was made from.
 */
static void
reduction_files(struct bind *b, const struct expr *e, struct buf *out)
{
	const char *over, *var;
	const struct expr *by, *distinct;
	struct buf word = BUF_INIT;
	struct expr_rows rows;
	int k;

	if (!e)
		return;
	if (expr_kind(e) == EXPR_CALL && (var = expr_reduction(e, &over))) {
		const char *p = over;
		size_t len;

		for (; *p; p += len + (p[len] == ' ')) {
			len = strcspn(p, " ");
			buf_reset(&word);
			buf_add(&word, p, len);
			/* A family's variable stands for its row. */
			if (!strchr(word.data, '.')) {
				struct buf bound = BUF_INIT;

				if (!modeleval_bound_name(b, word.data, &bound)) {
					buf_reset(&word);
					buf_addstr(&word, bound.data);
				}
				buf_release(&bound);
			}
			if (!modelrows_find(b->ev, word.data, &rows) &&
			    rows.file && !strstr(out->data, rows.file))
				buf_addf(out, "%s%s", out->len ? ", " : "",
					 rows.file);
		}
		expr_reduction_keys(e, &by, &distinct);
		reduction_files(b, by, out);
		reduction_files(b, distinct, out);
	}
	for (k = 0; k < 3; k++)
		reduction_files(b, expr_arg(e, k), out);
	buf_release(&word);
}

/*
 * Evaluates definition it, called name, for row (a member of its
 * family) or alone (row NULL). Returns 0, 1 when its "when:" is false
 * (no quantity), or -1 after an error.
 */
static int
eval_def(struct modeldoc_eval *ev, const struct item *it, const char *row,
	 size_t k, const char *name)
{
	const struct modeldoc *doc = ev->doc;
	struct bind b;
	struct expr_env env;
	struct buf *inputs = buf_take(ev), *formula = buf_take(ev);
	struct buf *text = buf_take(ev), *notes = buf_take(ev);
	struct buf *files = buf_take(ev);
	struct value v = { 0 };
	struct quantity *q;
	const char *note = it->a[A_NOTE].text;
	const char *source = it->a[A_SOURCE].text ? it->a[A_SOURCE].text :
			     "derived here";
	double x;
	int ret = -1;

	modeleval_bind(&b, ev, it, row, k);
	modeleval_env(&b, &env);
	/* A rate this edition lacks (no fit yet) counts nothing. */
	if (b.rate && !registry_get(ev->reg, b.rate)) {
		if (modeldoc_need(ev, b.rate) < 0)
			goto out;
		if (!registry_get(ev->reg, b.rate)) {
			ret = 1;
			goto out;
		}
	}
	if (note && b.rvar) {
		unbrace_rate(&b, note, b.rwhat, notes);
		note = notes->data;
	}
	if (registry_get(ev->reg, name)) {
		modeldoc_error(doc, it->off, it->len, "'%s' is already a quantity "
			  "(of the data or a provider): a definition "
			  "names a new one", name);
		goto out;
	}
	if (modeleval_push(ev, it, name))
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
		q = registry_add_num(ev->reg, name, expr_num(it->expr),
				     it->a[A_UNIT].text, note ? note : "",
				     NULL, source, NULL);
		if (!q)
			goto popped;
		goto added;
	}
	if (expr_eval(it->expr, &env, &v) ||
	    value_fits(ev, it, name, row, &v))
		goto popped;
	x = v.type != VALUE_NUMBER || it->any_unit ||
	    v.unit.scale == it->dim.scale ? v.num :
	    v.num * (v.unit.scale / it->dim.scale);
	/* Its formula: the expression, a member's with its row's names. */
	bound_text(&b, it->expr_text, text);
	def_inputs(ev, it, &b, inputs);
	buf_addstr(formula, text->data);
	if (note) {
		BUF_ADDLIT(formula, " (");
		buf_addstr(formula, note);
		buf_addch(formula, ')');
	}
	/*
	 * One data row's value (last(r in top500: r.system)): its row's
	 * source; a value of many rows (a count): their files.
	 */
	if (v.origin && !it->a[A_SOURCE].text && v.source)
		source = v.source;
	else if (!it->a[A_SOURCE].text &&
		 it->reduces &&
		 (reduction_files(&b, it->expr, files), files->len))
		source = files->data;
	if (v.type == VALUE_TEXT)
		q = registry_add_text(ev->reg, name, v.text, formula->data,
				      inputs->data, source, v.origin);
	else
		q = registry_add_num(ev->reg, name, x, it->any_unit ?
				     v.utext : it->a[A_UNIT].text,
				     formula->data, inputs->data, source,
				     v.origin);
	if (!q) {
		modeldoc_error(doc, it->off, it->len, "'%s' could not be added "
			       "(see above)", name);
		goto popped;
	}
	registry_set_expr(q, text->data, note);
	if (check_item(ev, it, &b))
		goto popped;
added:
	/* A given number and a formula alike: its symbol. */
	set_symbol(&b, it, q);
	/* What decided that it exists: its "when:", for `diff`'s causes. */
	if (it->when)
		set_because(q, &b, it);
	ret = 0;
popped:
	modeleval_pop(ev);
out:
	value_release(&v);
	buf_give(ev, files);
	buf_give(ev, notes);
	buf_give(ev, text);
	buf_give(ev, formula);
	buf_give(ev, inputs);
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
	const char *bytes = ev->memberbytes.data;

	if ((ev->nmembers + 1) * 2 > ev->memberslots) {
		size_t *old = ev->members;
		size_t n = ev->memberslots;

		ev->memberslots = n ? 2 * n : 1024;
		ev->members = xcalloc(ev->memberslots, sizeof(*ev->members));
		mask = ev->memberslots - 1;
		for (i = 0; i < n; i++) {
			size_t j;

			if (!old[i])
				continue;
			j = (size_t)hash_str(0, bytes + old[i] - 1) & mask;
			while (ev->members[j])
				j = (j + 1) & mask;
			ev->members[j] = old[i];
		}
		free(old);
	}
	mask = ev->memberslots - 1;
	for (i = (size_t)hash_str(0, name) & mask; ev->members[i];
	     i = (i + 1) & mask)
		if (!strcmp(bytes + ev->members[i] - 1, name))
			return 1;
	/* Each name after the others' in one buffer: no copy of its own. */
	ev->members[i] = ev->memberbytes.len + 1;
	buf_add(&ev->memberbytes, name, strlen(name) + 1);
	ev->nmembers++;
	return 0;
}

/*
 * Evaluates the member of definition i for row (NULL: no family of rows)
 * and rate k (NO_RATE: not per rate), unless it is there.
 */
static int
eval_member(struct modeldoc_eval *ev, size_t i, const char *row, size_t k)
{
	const struct item *it = &ev->doc->items[i];
	struct buf *name = buf_take(ev);
	struct bind b;
	int ret = 0;

	modeleval_bind(&b, ev, it, row, k);
	if (modeleval_bound_name(&b, it->name, name))
		buf_addstr(name, it->name);
	/* Evaluated once: a false "when:" is not asked again. */
	if (!registry_get(ev->reg, name->data) && !member_seen(ev, name->data))
		ret = eval_def(ev, it, row, k, name->data);
	buf_give(ev, name);
	return ret;
}

/* Every member of definition i for row (or NULL): one, or one per rate. */
static int
eval_rates(struct modeldoc_eval *ev, size_t i, const char *row)
{
	const struct item *it = &ev->doc->items[i];
	size_t k;

	if (!it->per_rate)
		return eval_member(ev, i, row, NO_RATE);
	for (k = 0; k < ev->doc->nrates; k++)
		if (eval_member(ev, i, row, k) < 0)
			return -1;
	return 0;
}

/*
 * The checks of it for its binding b: 0 when they hold, else -1 after
 * an error (a failed one's told at its row's id's data row).
 */
static int
check_item(struct modeldoc_eval *ev, const struct item *it, struct bind *b)
{
	struct expr_env env;
	struct buf where = BUF_INIT, id = BUF_INIT;
	const struct quantity *q;
	const struct check *c;
	int ret;

	if (!it->nchecks)
		return 0;
	modeleval_env(b, &env);
	ret = modeleval_check(it, &env, &c);
	if (ret <= 0)
		return ret;
	if (b->row) {
		buf_addf(&id, "%s.id", b->row);
		q = registry_get(ev->reg, id.data);
		buf_addf(&where, "row %s", b->row);
		if (q && q->origin)
			buf_addf(&where, " (%s)", q->origin);
		BUF_ADDLIT(&where, ": ");
	}
	modeleval_check_failed(ev, c, &env, NULL, NULL, where.data);
	buf_release(&where);
	buf_release(&id);
	return -1;
}

/*
 * A declaration of a quantity the data give (one per row in a family):
 * it must exist (a row may lack it), in the unit declared or one of the
 * same dimension, which it is then written in (volume_l, in L, declared
 * in m^3); its symbol is set and its check made. A name with "*" parts
 * declares the symbol of every quantity it matches (the claims' too,
 * which come later). Returns 0, or -1 after an error.
 */
static int
eval_decl(struct modeldoc_eval *ev, const struct item *it, const char *row)
{
	struct buf *name = buf_take(ev), hint = BUF_INIT;
	struct bind b;
	struct quantity *q;
	const char *near[3];
	size_t n;
	int ret = -1;

	modeleval_bind(&b, ev, it, row, NO_RATE);
	if (modeleval_bound_name(&b, it->name, name))
		buf_addstr(name, it->name);
	q = registry_get_mut(ev->reg, name->data);
	if (it->when) {
		struct expr_env env;
		struct value v = { 0 };
		int t;

		modeleval_env(&b, &env);
		env.missing_ok = 1;
		t = expr_eval(it->when, &env, &v);
		t = t < 0 ? -1 : t == 0 && value_truthy(&v);
		value_release(&v);
		if (t <= 0) {
			buf_give(ev, name);
			return t;
		}
	}
	if (strchr(it->name, '*')) {
		ret = 0;	/* a pattern: the registry's symbols */
	} else if (!q && row) {
		ret = 0;	/* a row without it */
	} else if (!q) {
		n = registry_suggest(ev->reg, name->data, near, 3);
		suggest_hint(&hint, near, n);
		modeldoc_error(ev->doc, it->off, it->len, "'%s' is declared "
			  "here, and no data give it: a row of a values file "
			  "of the catalogue, or a provider called above%s",
			  name->data, hint.data);
	} else if (it->a[A_UNIT].text && !it->any_unit &&
		   strcmp(it->a[A_UNIT].text, q->unit) &&
		   registry_convert(q, it->a[A_UNIT].text)) {
		size_t line, col;

		srcfile_locate(ev->doc->f, it->a[A_UNIT].off, &line, &col);
		buf_addf(&hint, "'%s' is not of the dimension of '%s', the "
			 "unit %s:%zu:%zu declares for '%s'", q->unit,
			 it->a[A_UNIT].text, ev->doc->f->name, line, col,
			 name->data);
		/* At the data's unit, else at the declaration's. */
		if (!q->origin || !ev->cell_error ||
		    ev->cell_error(ev->ctx, q->origin, name->data, 1,
				   hint.data)) {
			buf_reset(&hint);
			buf_addf(&hint, "'%s', but the data give '%s'",
				 it->a[A_UNIT].text, q->unit);
			modeldoc_error(ev->doc, it->a[A_UNIT].off,
				       it->a[A_UNIT].len, "the unit of '%s' is "
				       "declared %s, of another dimension",
				       name->data, hint.data);
		}
	} else {
		set_symbol(&b, it, q);
		ret = 0;
	}
	/* A row's check holds whether the row has the quantity or not. */
	if (!ret && !strchr(it->name, '*'))
		ret = check_item(ev, it, &b);
	buf_release(&hint);
	buf_give(ev, name);
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
	modeldoc_error(ev->doc, it->off, it->len, "unknown provider '%s'%s",
		  it->name, hint.data);
	buf_release(&hint);
	return -1;
}

int
modeldoc_row_id(const char *over, const char *name, struct buf *row)
{
	size_t len = strlen(name), rl;
	const char *p = over, *dot;

	if (len < 4 || strcmp(name + len - 3, ".id"))
		return 0;
	/* As modeleval_row_of(), the row not copied unless it is one. */
	rl = len - 3;
	for (dot = name + rl - 1; dot > name && *dot != '.'; dot--)
		;
	if (dot == name)
		return 0;
	while (*p) {
		size_t pl = strcspn(p, " ");

		if ((size_t)(dot - name) == pl && !memcmp(p, name, pl)) {
			buf_reset(row);
			buf_add(row, name, rl);
			return 1;
		}
		p += pl + (p[pl] == ' ');
	}
	return 0;
}

/* Every member of family item i, one per row. */
static int
eval_family(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct buf *row = buf_take(ev);
	size_t k;
	int ret = 0;

	for (k = 0; k < registry_nids(ev->reg) && ret >= 0; k++) {
		const char *name = registry_id_at(ev->reg, k)->name;

		if (!modeldoc_row_id(it->over, name, row))
			continue;
		ret = it->kind == ITEM_DEF ? eval_rates(ev, i, row->data) :
		      eval_decl(ev, it, row->data);
	}
	buf_give(ev, row);
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

		if (!it->var || !modeleval_row_of(it->over, row))
			continue;
		if ((it->kind == ITEM_DEF ? eval_rates(ev, i, row) :
		     eval_decl(ev, it, row)) < 0)
			return -1;
	}
	return ev->failed ? -1 : 0;
}

/*
 * A set of rows or a trend (modelrows.c), when its "when:" holds, with
 * loops through it caught. Returns 0, 1 when "when:" is false, or -1.
 */
static int
eval_rule(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct bind b = { .ev = ev };
	struct expr_env env;
	struct value v = { 0 };
	int ret;

	if (registry_has(ev->reg, it->name))
		return modeldoc_error(ev->doc, it->off, it->len, "'%s' is "
				      "already a quantity or a prefix of "
				      "some: a %s names new ones", it->name,
				      it->kind == ITEM_ROWS ? "set of rows" :
				      "trend");
	if (modeleval_push(ev, it, it->name))
		return -1;
	modeleval_env(&b, &env);
	env.missing_ok = 1;
	ret = 0;
	if (it->when) {
		ret = expr_eval(it->when, &env, &v);
		ret = ret < 0 ? -1 : ret == 0 && value_truthy(&v) ? 0 : 1;
		value_release(&v);
	}
	if (!ret)
		ret = it->kind == ITEM_ROWS ? modelrows_view(ev, i) :
		      modelrows_trend(ev, i);
	modeleval_pop(ev);
	return ret;
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
	else if (it->per_rate)
		ret = eval_rates(ev, i, NULL);
	else if (it->kind == ITEM_DEF)
		ret = eval_def(ev, it, NULL, NO_RATE, it->name) < 0 ? -1 : 0;
	else if (it->kind == ITEM_DECL)
		ret = eval_decl(ev, it, NULL);
	else if (it->kind == ITEM_PICK)
		ret = modelpick_eval(ev, it) < 0 ? -1 : 0;
	else if (it->kind == ITEM_ROWS || it->kind == ITEM_TREND)
		ret = eval_rule(ev, i) < 0 ? -1 : 0;
	else if (it->kind == ITEM_DATA)
		ret = modelrows_data(ev, i);
	else if (it->kind == ITEM_COLUMN)
		ret = 0;	/* its dataset's */
	else
		ret = eval_call(ev, it);
	ev->state[i] = 2;
	if (ret)
		ev->failed = 1;
	return ret;
}

static void
run_begin(struct modeldoc_eval *ev)
{
	ev->state = xcalloc(ev->doc->n ? ev->doc->n : 1, 1);
	ev->stack = xcalloc(DEPTH_MAX, sizeof(*ev->stack));
	ev->members = NULL;
	ev->nmembers = ev->memberslots = 0;
	buf_init(&ev->memberbytes);
	ev->formulas = expr_formulas_new();
	ev->bufs = expr_bufs_new();
	ev->depth = 0;
	ev->failed = 0;
}

/* The end of a run: ret, or -1 when it failed. */
static int
run_end(struct modeldoc_eval *ev, int ret)
{
	if (ev->failed)
		ret = -1;
	while (ev->depth)
		modeleval_pop(ev);
	modelrows_free(ev);
	free(ev->stack);
	ev->stack = NULL;
	free(ev->members);
	ev->members = NULL;
	buf_release(&ev->memberbytes);
	expr_formulas_free(ev->formulas);
	ev->formulas = NULL;
	expr_bufs_free(ev->bufs);
	ev->bufs = NULL;
	free(ev->state);
	ev->state = NULL;
	return ret;
}

/*
 * The single definitions that item i reads, depth first, on the stack
 * that modeleval_push() names a loop from; done marks those walked. Returns -1
 * after the error naming a loop.
 */
static int
walk_defs(struct modeldoc_eval *ev, char *done, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct buf name = BUF_INIT;
	const char *p;
	size_t j;
	int ret = 0;

	if (done[i])
		return 0;
	if (modeleval_push(ev, it, it->name))
		return -1;
	for (p = it->names ? it->names + 1 : ""; *p && !ret;
	     p += strcspn(p, "\n") + 1) {
		buf_reset(&name);
		buf_add(&name, p, strcspn(p, "\n"));
		if ((j = def_index(ev->doc, name.data)) != (size_t)-1)
			ret = walk_defs(ev, done, j);
	}
	modeleval_pop(ev);
	done[i] = 1;
	buf_release(&name);
	return ret;
}

/*
 * A loop among the single definitions is named as the loop, whatever
 * order evaluating them would meet it in: on demand, it could first come
 * to a quantity that a provider below gives, and call that unknown
 * ("const.hbar = laptop.ops_max / (2 * pi)": 'laptop.mass'). Returns -1
 * after the error.
 */
static int
find_loop(struct modeldoc_eval *ev)
{
	const struct item *it;
	char *done = xcalloc(ev->doc->n ? ev->doc->n : 1, 1);
	size_t i;
	int ret = 0;

	/* In the document's order, as they are evaluated. */
	for (i = 0; i < ev->doc->n && !ret; i++) {
		it = &ev->doc->items[i];
		if (it->kind == ITEM_DEF && !it->var && !it->per_rate)
			ret = walk_defs(ev, done, i);
	}
	free(done);
	return ret;
}

int
modeldoc_run(struct modeldoc_eval *ev)
{
	size_t i;
	int ret = 0;

	run_begin(ev);
	ev->failed = find_loop(ev) ? 1 : 0;
	for (i = 0; i < ev->doc->n && !ev->failed; i++)
		if (eval_item(ev, i))
			ret = -1;
	/* The symbols of names by pattern, for the quantities added later
	 * too (the claims). */
	if (!ret && !ev->failed && ev->doc->npatterns)
		registry_set_symbols(ev->reg, (const char *const (*)[2])
				     ev->doc->patterns, ev->doc->npatterns,
				     NULL, 0);
	return run_end(ev, ret);
}

int
modeldoc_run_one(struct modeldoc_eval *ev, const char *name)
{
	run_begin(ev);
	return run_end(ev, modeldoc_need(ev, name) < 0 ? -1 : 0);
}

