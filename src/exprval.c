/*
 * The expression stage's evaluator: a tree (expr.c) -> a value over the
 * quantity registry, numbers with their units; reductions over the rows
 * of a family. Prints errors with their location; writes nothing else.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "exprint.h"
#include "hash.h"
#include "registry.h"
#include "suggest.h"
#include "xalloc.h"
#include "banned.h"


void
value_release(struct value *v)
{
	free(v->text);
	v->text = NULL;
	v->utext = NULL;
	free(v->origin);
	v->origin = NULL;
	free(v->source);
	v->source = NULL;
}

int
value_truthy(const struct value *v)
{
	return v->type == VALUE_NUMBER ? v->num != 0 : *v->text != '\0';
}

static void
set_text(struct value *v, const char *s)
{
	v->type = VALUE_TEXT;
	v->text = xstrdup(s);
}

struct expr_bufs {
	struct buf **v;		/* each made once; the first n lent */
	size_t n, cap;
};

struct expr_bufs *
expr_bufs_new(void)
{
	return xcalloc(1, sizeof(struct expr_bufs));
}

struct buf *
expr_buf_take(struct expr_bufs *bs)
{
	struct buf *b;

	if (bs->n == bs->cap) {
		size_t k = bs->cap;

		bs->v = xgrow(bs->v, &bs->cap, k + 1, sizeof(*bs->v));
		for (; k < bs->cap; k++)
			bs->v[k] = NULL;
	}
	if (!bs->v[bs->n]) {
		bs->v[bs->n] = xmalloc(sizeof(**bs->v));
		buf_init(bs->v[bs->n]);
	}
	b = bs->v[bs->n++];
	buf_reset(b);
	return b;
}

void
expr_buf_give(struct expr_bufs *bs, struct buf *b)
{
	if (!bs->n || bs->v[bs->n - 1] != b)
		BUG("a buffer given back out of turn");
	bs->n--;
}

void
expr_bufs_free(struct expr_bufs *bs)
{
	size_t i;

	if (!bs)
		return;
	if (bs->n)
		BUG("%zu buffers not given back", bs->n);
	for (i = 0; i < bs->cap; i++) {
		if (bs->v[i])
			buf_release(bs->v[i]);
		free(bs->v[i]);
	}
	free(bs->v);
	free(bs);
}

/* A buffer for a name: env's to borrow, else local (released after). */
static struct buf *
name_buf(const struct expr_env *env, struct buf *local)
{
	buf_init(local);
	return env->bufs ? expr_buf_take(env->bufs) : local;
}

static void
name_buf_done(const struct expr_env *env, struct buf *b)
{
	if (env->bufs)
		expr_buf_give(env->bufs, b);
	else
		buf_release(b);
}

/* Appends the registry name that e (a name, maybe a loop variable) means. */
void
expr_resolve_name(const struct expr *e, const struct expr_env *env,
		  struct buf *name)
{
	if (!env->resolve || env->resolve(env->ctx, e->str, name))
		buf_addstr(name, e->str);
}

/*
 * The registry name that name means: name itself, or as resolved into
 * bound (empty before). No copy of a name that stays as it is: most of
 * them, and a copy of each was 1% of a whole report's instructions.
 */
static const char *
resolved(const char *name, const struct expr_env *env, struct buf *bound)
{
	if (env->resolve && !env->resolve(env->ctx, name, bound))
		return bound->data;
	return name;
}

/*
 * name as a variable bound to a source's row ("r.power_w", or
 * "r.prev.power_w" of the row before): 0 and *out (NULL: only whether
 * the row has it), 1 when the row has no such value, -1 after an error,
 * 2 when no bound variable starts name. *bp gets the binding.
 */
int
expr_bound_get(const struct expr_env *env, const char *name, struct value *out,
	       const struct expr_bound **bp)
{
	const struct expr_bound *b;

	for (b = env->bound; b; b = b->next) {
		size_t vl = strlen(b->var), i = b->i;
		const char *rest;

		/*
		 * VAR.rest, or VAR alone (a range's number: rest ""); name
		 * may be shorter than VAR, so its byte vl is read only after
		 * the comparison.
		 */
		if (strncmp(name, b->var, vl) ||
		    (name[vl] != '.' && name[vl] != '\0'))
			continue;
		rest = name + vl + (name[vl] == '.');
		if (bp)
			*bp = b;
		if (!strncmp(rest, "prev.", 5)) {
			if (!i)
				return 1;
			i--;
			rest += 5;
		}
		return b->rows->get(b->rows->ctx, i, rest, out);
	}
	return 2;
}

/*
 * e, a name bound to a row: its value into out. Returns 0, 2 when e is
 * bound to no row, 1 (nothing printed) when the row lacks it and
 * env->missing_ok is set, else -1 after an error.
 */
static int
bound_value(const struct expr *e, const struct expr_env *env,
	    struct value *out)
{
	const struct expr_bound *b = NULL;
	struct buf org = BUF_INIT;
	int ret;

	if (!env->bound)
		return 2;
	ret = expr_bound_get(env, e->str, out, &b);
	if (ret == 2 && b) {
		struct suggest sg;
		size_t vl = strlen(b->var), n;
		/* VAR.rest, or VAR alone: a row's, not a value. */
		const char *near[3], *rest = e->str + vl + (e->str[vl] == '.');

		if (!strncmp(rest, "prev.", 5))
			rest += 5;
		suggest_init(&sg, rest, near, 3);
		if (b->rows->names)
			b->rows->names(b->rows->ctx, &sg);
		n = suggest_end(&sg);
		suggest_hint(&org, near, n);
		if (!*rest)
			ret = error_at(&e->loc, "'%s' is a row of %s, not a "
				       "value: name one of its columns ('%s."
				       "NAME')", e->str, b->rows->what,
				       e->str);
		else
			ret = error_at(&e->loc, "'%s' names nothing of the "
				       "rows of %s: no '%s'%s", e->str,
				       b->rows->what, rest, org.data);
		buf_release(&org);
		return ret;
	}
	if (ret != 1 || env->missing_ok)
		return ret;
	b->rows->where(b->rows->ctx, b->i, &org);
	ret = error_at(&e->loc, "'%s' has no value in the row of %s (an empty "
		       "cell: guard it with has(%s))", e->str, org.data,
		       e->str);
	buf_release(&org);
	return ret;
}

/*
 * Looks up a (possibly loop-rewritten) name into *qp. Returns 0, or -1
 * after an error with suggestions, or 1 without a word when the quantity
 * does not exist and env->missing_ok is set.
 */
static int
lookup(const struct expr *e, const struct expr_env *env,
       const struct quantity **qp)
{
	struct buf local, *bound = name_buf(env, &local), msg = BUF_INIT;
	const struct quantity *q;
	const char *near[3], *name = resolved(e->str, env, bound);
	size_t n;
	int ret = 0;

	q = *qp = registry_get(env->reg, name);
	if (!q && env->missing_ok) {
		ret = 1;
	} else if (!q) {
		/* Past the shown errors, suggestions would go unseen. */
		n = diag_full() ? 0 : registry_suggest(env->reg, name, near,
						       3);
		if (env->why_missing)
			env->why_missing(env->ctx, name, &msg);
		if (!msg.len)
			suggest_hint(&msg, near, n);
		if (strcmp(name, e->str))
			error_at(&e->loc, "unknown quantity '%s' (from '%s')%s",
				 name, e->str, msg.data);
		else
			error_at(&e->loc, "unknown quantity '%s'%s", name,
				 msg.data);
		ret = -1;
	}
	buf_release(&msg);
	name_buf_done(env, bound);
	return ret;
}

/* has(NAME): 1 when NAME (resolved) is a quantity or a prefix of some. */
static int
has(const struct expr *e, const struct expr_env *env)
{
	struct buf local, *name;
	int r;

	if (env->bound) {
		const struct expr_bound *b = NULL;

		r = expr_bound_get(env, e->str, NULL, &b);
		if (b)
			return r == 0;
	}
	name = name_buf(env, &local);
	r = registry_has(env->reg, resolved(e->str, env, name));
	name_buf_done(env, name);
	return r;
}

static int
want_number(const struct expr *e, const struct value *v, const char *what)
{
	if (v->type == VALUE_NUMBER)
		return 0;
	return error_at(&e->loc, "'%s' needs a number, got the text '%s'",
			what, v->text);
}

void
value_unit_text(const struct value *v, struct buf *out)
{
	if (v->utext && *v->utext)
		buf_addstr(out, v->utext);
	else if (unit_dimensionless(&v->unit) && v->unit.scale == 1)
		BUF_ADDLIT(out, "a pure number");
	else
		unit_format(out, &v->unit);
}

static void
set_num(struct value *v, double num, const struct unit *u, int literal,
	const char *utext)
{
	v->type = VALUE_NUMBER;
	v->num = num;
	v->unit = *u;
	v->literal = literal;
	v->utext = utext;
}

/* x, a number in unit from, in unit to (of the same dimension). */
double
expr_convert(double x, const struct unit *from, const struct unit *to)
{
	return from->scale == to->scale ? x : x * (from->scale / to->scale);
}

/* "cannot add kg and J" at e, naming both units. */
static int
unit_error(const struct expr *e, const char *verb, const struct value *a,
	   const char *join, const struct value *b)
{
	struct buf ua = BUF_INIT, ub = BUF_INIT;

	value_unit_text(a, &ua);
	value_unit_text(b, &ub);
	error_at(&e->loc, "cannot %s %s %s %s", verb, ua.data, join, ub.data);
	buf_release(&ua);
	buf_release(&ub);
	return -1;
}

/*
 * "cannot multiply m^90 by m^20: ..." at e: the product or quotient
 * of two units leaves the range of units.h.
 */
static int
range_error(const struct expr *e, const char *verb, const struct value *a,
	    const struct value *b)
{
	struct buf ua = BUF_INIT, ub = BUF_INIT;

	value_unit_text(a, &ua);
	value_unit_text(b, &ub);
	error_at(&e->loc, "cannot %s %s by %s: the unit would be out of range "
		 "(exponents from -%d to %d, a finite nonzero scale)", verb,
		 ua.data, ub.data, UNIT_EXP_MAX, UNIT_EXP_MAX);
	buf_release(&ua);
	buf_release(&ub);
	return -1;
}

/*
 * For a comparison, min() and max(): b's number in a's unit, or a's in
 * b's when a is a literal (out set to the unit of the result). A number
 * written in the template compares with any unit. -1 when the units
 * differ.
 */
static int
common_unit(const struct value *a, const struct value *b, double *x,
	    double *y, struct unit *out, const char **utext)
{
	*x = a->num;
	*y = b->num;
	*out = a->unit;
	*utext = a->utext;
	if (a->literal && !b->literal) {
		*out = b->unit;
		*utext = b->utext;
		return 0;
	}
	if (b->literal)
		return 0;
	if (!unit_same_dim(&a->unit, &b->unit))
		return -1;
	*y = expr_convert(b->num, &b->unit, &a->unit);
	return 0;
}

/* The unit of a log, exp...: counts and pure numbers; x made coherent. */
static int
want_pure(const struct expr *e, const struct value *a, double *x)
{
	struct buf u = BUF_INIT;

	*x = a->num * a->unit.scale;
	if (unit_is_count(&a->unit))
		return 0;
	value_unit_text(a, &u);
	error_at(&e->loc, "'%s' needs a pure number, got %s (divide by a "
		 "quantity of the same unit first)", e->fn->name, u.data);
	buf_release(&u);
	return -1;
}

/*
 * 1 when u^p has whole exponents, so that only the range of units.h can
 * refuse it (a calendar year has no power at all).
 */
static int
whole_exponents(const struct unit *u, double p)
{
	int i;

	if (u->calendar)
		return 0;
	for (i = 0; i < U_NBASE; i++) {
		double x = u->exp[i] * p;

		if (!(fabs(x - round(x)) <= 1e-9))
			return 0;
	}
	return 1;
}

/* a ^ p: the number and unit into out; -1 after an error at e. */
static int
power(const struct expr *e, const struct value *a, const struct value *b,
      struct value *out)
{
	struct unit u;
	double p;
	struct buf ua = BUF_INIT;

	if (!unit_dimensionless(&b->unit)) {
		value_unit_text(b, &ua);
		error_at(&e->loc, "an exponent must be a pure number, got %s",
			 ua.data);
		buf_release(&ua);
		return -1;
	}
	p = b->num * b->unit.scale;
	if (unit_pow(&u, &a->unit, p)) {
		value_unit_text(a, &ua);
		if (whole_exponents(&a->unit, p))
			error_at(&e->loc, "%s to the power %g is out of the "
				 "range of units (exponents from -%d to %d, a "
				 "finite nonzero scale)", ua.data, p,
				 UNIT_EXP_MAX, UNIT_EXP_MAX);
		else
			error_at(&e->loc, "%s to the power %g has no unit",
				 ua.data, p);
		buf_release(&ua);
		return -1;
	}
	set_num(out, pow(a->num, p), &u, a->literal && b->literal,
		p == 1 ? a->utext : NULL);
	return 0;
}

static int eval(const struct expr *e, const struct expr_env *env,
		struct value *out);

/*
 * "EXPR with NAME = VALUE, ...": the values given, and the quantities
 * computed again because their formulas read them (through their
 * inputs): each quantity's formula (q->expr) evaluated anew with these,
 * once, in its own unit. A quantity without a formula keeps its value.
 */
struct expr_with {
	const struct expr_env *outer;
	struct expr_with *parent;	/* an outer "with", or NULL */
	struct wvar {
		char *name;
		int state;	/* 1 given or computed, 2 unchanged */
		struct value v;
	} *v;
	size_t n, cap;
	int depth;
};

/* The wvar of name in w (not its parents), or NULL. */
static struct wvar *
with_var(struct expr_with *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].name, name))
			return &w->v[i];
	return NULL;
}

static struct wvar *
with_add(struct expr_with *w, const char *name, int state)
{
	struct wvar *x;

	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof(*w->v));
	x = &w->v[w->n++];
	memset(x, 0, sizeof(*x));
	x->name = xstrdup(name);
	x->state = state;
	return x;
}

static void
value_copy(struct value *to, const struct value *from)
{
	*to = *from;
	to->text = from->text ? xstrdup(from->text) : NULL;
	to->utext = from->utext;
	to->origin = from->origin ? xstrdup(from->origin) : NULL;
	to->source = from->source ? xstrdup(from->source) : NULL;
}

/* Whether a quantity's formula reads, through its inputs, a given name. */
static int
with_depends(struct expr_with *w, const char *name)
{
	const struct quantity *q = registry_get(w->outer->reg, name);
	struct wvar *x = with_var(w, name);
	size_t i;
	int dep = 0;

	if (x)
		return x->state == 1;
	if (!q || !q->expr || ++w->depth > 256) {
		if (q && q->expr)
			w->depth--;
		return 0;
	}
	for (i = 0; i < q->ninputs && !dep; i++)
		dep = with_depends(w, q->inputs[i]);
	w->depth--;
	/* Unchanged: remembered, so that the walk meets it once. */
	if (!dep)
		with_add(w, name, 2);
	return dep;
}

/* One quantity's formula, parsed: its text's srcfile and its tree. */
struct formula {
	const struct quantity *q;
	struct srcfile *f;
	struct expr *e;		/* NULL when it does not parse */
};

struct expr_formulas {
	struct formula *v;	/* open addressing by q, a power of two */
	size_t n, slots;
};

struct expr_formulas *
expr_formulas_new(void)
{
	return xcalloc(1, sizeof(struct expr_formulas));
}

void
expr_formulas_free(struct expr_formulas *fs)
{
	size_t i;

	if (!fs)
		return;
	for (i = 0; i < fs->slots; i++) {
		expr_free(fs->v[i].e);
		srcfile_free(fs->v[i].f);
	}
	free(fs->v);
	free(fs);
}

static size_t
formula_slot(const struct formula *v, size_t slots, const struct quantity *q)
{
	size_t i = (size_t)(((uintptr_t)q >> 4) * 0x9E3779B97F4A7C15u);

	for (i &= slots - 1; v[i].q && v[i].q != q; i = (i + 1) & (slots - 1))
		;
	return i;
}

/* q's formula parsed into *fm: kept in fs when there is one (else the
 * caller frees fm's srcfile and tree). */
static void
formula_of(struct expr_formulas *fs, const struct quantity *q,
	   struct formula *fm)
{
	struct buf fname = BUF_INIT;
	size_t i;

	if (fs && fs->slots) {
		i = formula_slot(fs->v, fs->slots, q);
		if (fs->v[i].q) {
			*fm = fs->v[i];
			return;
		}
	}
	buf_addf(&fname, "formula of %s", q->name);
	fm->q = q;
	fm->f = srcfile_from_mem(fname.data, q->expr, strlen(q->expr));
	buf_release(&fname);
	fm->e = expr_parse(fm->f, 0, fm->f->len);
	if (!fs)
		return;
	if ((fs->n + 1) * 2 > fs->slots) {
		struct formula *old = fs->v;
		size_t n = fs->slots;

		fs->slots = n ? 2 * n : 64;
		fs->v = xcalloc(fs->slots, sizeof(*fs->v));
		for (i = 0; i < n; i++)
			if (old[i].q)
				fs->v[formula_slot(fs->v, fs->slots,
						   old[i].q)] = old[i];
		free(old);
	}
	fs->v[formula_slot(fs->v, fs->slots, q)] = *fm;
	fs->n++;
}

/*
 * name's value under w into out: 0, 2 when w changes nothing of it (its
 * registry value stands), -1 after an error.
 */
static int
with_value(struct expr_with *w, const char *name, struct value *out)
{
	const struct quantity *q;
	struct wvar *x;
	struct formula fm;
	struct expr_env env;
	int ret;

	for (; w; w = w->parent) {
		if ((x = with_var(w, name)) && x->state == 1) {
			value_copy(out, &x->v);
			return 0;
		}
		if (!x && with_depends(w, name))
			break;
	}
	if (!w)
		return 2;
	q = registry_get(w->outer->reg, name);
	formula_of(w->outer->formulas, q, &fm);
	env = *w->outer;
	env.resolve = NULL;
	env.bound = NULL;
	env.with = w;
	ret = fm.e ? eval(fm.e, &env, out) : -1;
	if (!ret && out->type == VALUE_NUMBER && q->dim_ok) {
		out->num = expr_convert(out->num, &out->unit, &q->dim);
		out->unit = q->dim;
		out->utext = q->unit;
	}
	if (!ret) {
		x = with_add(w, name, 1);
		value_copy(&x->v, out);
	}
	if (!w->outer->formulas) {
		expr_free(fm.e);
		srcfile_free(fm.f);
	}
	return ret;
}

/* "EXPR with NAME = VALUE, ...". */
static int
eval_with(const struct expr *e, const struct expr_env *env, struct value *out)
{
	struct expr_with w = { env, env->with, NULL, 0, 0, 0 };
	struct expr_env inner = *env;
	struct buf name = BUF_INIT;
	const struct expr *b;
	struct value v;
	size_t i;
	int ret = 0;

	for (b = e->b; b && !ret; b = b->b) {
		if ((ret = eval(b->a, env, &v)))
			break;
		buf_reset(&name);
		if (!env->resolve || env->resolve(env->ctx, b->str, &name))
			buf_addstr(&name, b->str);
		with_add(&w, name.data, 1)->v = v;
	}
	inner.with = &w;
	if (!ret)
		ret = eval(e->a, &inner, out);
	for (i = 0; i < w.n; i++) {
		free(w.v[i].name);
		value_release(&w.v[i].v);
	}
	free(w.v);
	buf_release(&name);
	return ret;
}

/* A reduction's variable bound to one row, over the outer lookups. */
struct reduce_env {
	const struct expr_env *outer;
	const char *var, *row;
};

/* VAR.rest is ROW.rest, which the outer lookups then resolve. */
static int
reduce_resolve(void *ctx, const char *name, struct buf *out)
{
	const struct reduce_env *r = ctx;
	const struct expr_env *o = r->outer;
	size_t vl = strlen(r->var);
	struct buf local, *bound;

	if (strncmp(name, r->var, vl) || name[vl] != '.')
		return o->resolve ? o->resolve(o->ctx, name, out) : -1;
	bound = name_buf(o, &local);
	buf_addstr(bound, r->row);
	buf_addstr(bound, name + vl);
	if (!o->resolve || o->resolve(o->ctx, bound->data, out))
		buf_addstr(out, bound->data);
	name_buf_done(o, bound);
	return 0;
}

/*
 * The rows of over ("device current"), each "PREFIX.X" after a newline,
 * into rows: X for each quantity PREFIX.X.id, in the registry's order.
 */
void
expr_family_rows(const struct registry *reg, const char *over, struct buf *rows)
{
	size_t k, n = registry_nids(reg);

	for (k = 0; k < n; k++) {
		const char *name = registry_id_at(reg, k)->name, *p = over;
		/* Every name of registry_id_at() ends in ".id". */
		size_t len = strlen(name) - 3, pl;
		const char *dot;

		for (dot = name + len - 1; dot > name && *dot != '.'; dot--)
			;
		if (dot == name)
			continue;
		for (; *p; p += pl + (p[pl] == ' ')) {
			pl = strcspn(p, " ");
			if ((size_t)(dot - name) == pl && !memcmp(p, name, pl)) {
				buf_addch(rows, '\n');
				buf_add(rows, name, len);
				break;
			}
		}
	}
}

/* One row of a reduction: a family's of the registry, or a source's. */
struct rowwalk {
	const struct expr *e;
	const struct expr_env *env;
	struct expr_rows src;	/* the rows when is_src */
	int is_src;
	struct buf rows, row;	/* the registry's: "\nROW..." and one */
	const char *p;
	size_t i;		/* the source row, or the registry row's number */
	struct reduce_env r;
	struct expr_bound bound;
	struct expr_env sub;
};

/*
 * The outer environment's rows() and why_missing() for a walk over a
 * family, whose own context is the walk's (reduce_resolve()): each
 * hook's context is the one it was given with.
 */
static int
reduce_rows(void *ctx, const char *over, struct expr_rows *out)
{
	const struct expr_env *o = ((const struct reduce_env *)ctx)->outer;

	return o->rows(o->ctx, over, out);
}

static void
reduce_why(void *ctx, const char *name, struct buf *hint)
{
	const struct expr_env *o = ((const struct reduce_env *)ctx)->outer;

	o->why_missing(o->ctx, name, hint);
}

/*
 * The rows of e's prefixes, each resolved through the outer lookups (a
 * variable of the model document's family stands for its row), from the
 * environment's sources, else the registry's families.
 */
static void
walk_init(struct rowwalk *w, const struct expr *e, const struct expr_env *env)
{
	struct buf over = BUF_INIT, one = BUF_INIT;
	const char *p;

	memset(w, 0, sizeof(*w));
	buf_init(&w->rows);
	buf_init(&w->row);
	w->e = e;
	w->env = env;
	for (p = e->over; *p; p += strcspn(p, " ") + (p[strcspn(p, " ")] == ' ')) {
		buf_reset(&one);
		buf_add(&one, p, strcspn(p, " "));
		if (over.len)
			buf_addch(&over, ' ');
		if (!env->resolve || env->resolve(env->ctx, one.data, &over))
			buf_addstr(&over, one.data);
	}
	w->is_src = env->rows && !strchr(over.data, ' ') &&
		    !env->rows(env->ctx, over.data, &w->src);
	if (!w->is_src)
		expr_family_rows(env->reg, over.data, &w->rows);
	w->p = w->rows.data;
	w->r = (struct reduce_env){ env, e->var, NULL };
	w->sub = *env;
	if (w->is_src) {
		w->bound = (struct expr_bound){ e->var, &w->src, 0,
						 env->bound };
		w->sub.bound = &w->bound;
	} else {
		w->sub.resolve = reduce_resolve;
		w->sub.rows = env->rows ? reduce_rows : NULL;
		w->sub.why_missing = env->why_missing ? reduce_why : NULL;
		w->sub.ctx = &w->r;
	}
	buf_release(&over);
	buf_release(&one);
}

/* Binds the next row: 1, or 0 past the last. */
static int
walk_next(struct rowwalk *w)
{
	if (w->is_src) {
		if (w->i && w->bound.i + 1 >= w->src.n)
			return 0;
		w->bound.i = w->i++ ? w->bound.i + 1 : 0;
		return w->bound.i < w->src.n;
	}
	if (!*w->p)
		return 0;
	buf_reset(&w->row);
	w->p++;
	buf_add(&w->row, w->p, strcspn(w->p, "\n"));
	w->p += strcspn(w->p, "\n");
	w->r.row = w->row.data;
	w->i++;
	return 1;
}

/* Binds row k again (k counted as walk_next() counts, from 1). */
static void
walk_seek(struct rowwalk *w, size_t k)
{
	size_t j;

	if (w->is_src) {
		w->bound.i = k - 1;
		return;
	}
	w->p = w->rows.data;
	w->i = 0;
	for (j = 0; j < k; j++)
		walk_next(w);
}

/* The row bound now, for messages: "device.x" or "data/top500.csv:12". */
static const char *
walk_name(struct rowwalk *w, struct buf *out)
{
	buf_reset(out);
	if (w->is_src)
		w->src.where(w->src.ctx, w->bound.i, out);
	else
		buf_addstr(out, w->row.data);
	return out->data;
}

static void
walk_release(struct rowwalk *w)
{
	buf_release(&w->rows);
	buf_release(&w->row);
}

void
value_key(const struct value *v, struct buf *out)
{
	buf_reset(out);
	if (v->type == VALUE_TEXT)
		buf_addf(out, "t%s", v->text);
	else
		buf_addf(out, "n%.17g", v->num * v->unit.scale);
}

/*
 * Whether the row bound in w counts: COND holds and, with "distinct",
 * its key is new. Returns 1, 0, or -1 after an error.
 */
static int
row_counts(struct rowwalk *w, struct strset *st, struct buf *key)
{
	const struct expr *e = w->e;
	struct value v = { 0 };
	int ret, t;

	if (e->b) {
		if ((ret = eval(e->b, &w->sub, &v)))
			return ret < 0 ? -1 : 0;
		t = value_truthy(&v);
		value_release(&v);
		if (!t)
			return 0;
	}
	if (!e->distinct)
		return 1;
	if ((ret = eval(e->distinct, &w->sub, &v)))
		return ret < 0 ? -1 : 0;
	value_key(&v, key);
	value_release(&v);
	return !strset_add(st, key->data);
}

/* Appends one more item of a list: "A", "A and B", "A, B and C". */
static void
join_add(struct buf *list, size_t *n, const char *item, struct buf *last)
{
	if (*n == 1) {
		buf_addstr(list, last->data);
	} else if (*n > 1) {
		BUF_ADDLIT(list, ", ");
		buf_addstr(list, last->data);
	}
	buf_reset(last);
	buf_addstr(last, item);
	(*n)++;
}

/*
 * Sets out's origin and source from the row bound in w: a source's row,
 * or the quantity the value came from.
 */
static void
row_origin(struct rowwalk *w, struct value *out)
{
	struct buf org = BUF_INIT;
	const char *src;

	if (w->is_src) {
		src = w->src.where(w->src.ctx, w->bound.i, &org);
		out->origin = buf_detach(&org, NULL);
		out->source = src ? xstrdup(src) : NULL;
	} else if (out->q) {
		out->origin = out->q->origin ? xstrdup(out->q->origin) : NULL;
		out->source = out->q->source ? xstrdup(out->q->source) : NULL;
	}
	buf_release(&org);
}

/*
 * A reduction over the rows of a family or a source: each row bound to
 * the variable, those where COND holds and, with "distinct KEY", whose
 * KEY no row before gave. count: how many (0 for none); max, min: the
 * largest or smallest EXPR, a number of one dimension for all (in the
 * first row's unit); first, last: EXPR of the first or last row;
 * largest, smallest: EXPR of the row with the largest or smallest KEY
 * (the first of equals); join: the texts "A, B and C" ("" for none).
 * The four that take one row's value give its origin. Any but count and
 * join over no row is an error.
 */
static int
reduce(const struct expr *e, const struct expr_env *env, struct value *out)
{
	const char *fn = e->fn->name;
	struct rowwalk w;
	struct strset st = { NULL, 0, 0 };
	struct buf key = BUF_INIT, msg = BUF_INIT, list = BUF_INIT;
	struct buf last = BUF_INIT;
	struct value v = { 0 }, best = { 0 };
	struct unit one;
	double x;
	size_t n = 0, pick = 0;
	int ret = 0, c, is_max = !strcmp(fn, "max") || !strcmp(fn, "largest");
	int minmax = !strcmp(fn, "max") || !strcmp(fn, "min");

	/* largest and smallest take the row of the largest or smallest KEY. */
	int keyed = e->by != NULL, join = !strcmp(fn, "join");

	unit_one(&one);
	walk_init(&w, e, env);
	while (!ret && walk_next(&w)) {
		if ((c = row_counts(&w, &st, &key)) <= 0) {
			ret = c;
			continue;
		}
		if (!e->a || !strcmp(fn, "last")) {	/* count, last */
			n++;
			pick = w.i;
			continue;
		}
		if (!strcmp(fn, "first")) {
			n++;
			pick = w.i;
			break;
		}
		if ((ret = eval(keyed ? e->by : e->a, &w.sub, &v)))
			break;
		if (join) {
			if (v.type != VALUE_TEXT) {
				ret = error_at(&e->a->loc, "'join' needs a text "
					       "for each row, got a number (row "
					       "%s)", walk_name(&w, &msg));
			} else {
				join_add(&list, &n, v.text, &last);
			}
		} else if (v.type != VALUE_NUMBER) {
			ret = error_at(&(keyed ? e->by : e->a)->loc, "'%s' "
				       "needs a number for each row, got the "
				       "text '%s' (row %s)", fn, v.text,
				       walk_name(&w, &msg));
		} else if (!n++) {
			set_num(&best, v.num, &v.unit, 0, v.utext);
			pick = w.i;
		} else if (!unit_same_dim(&v.unit, &best.unit) ||
			   v.unit.calendar != best.unit.calendar) {
			ret = unit_error(keyed ? e->by : e->a, is_max ?
					 "take the max of" : "take the min of",
					 &best, "and", &v);
		} else {
			x = expr_convert(v.num, &v.unit, &best.unit);
			if (is_max ? x > best.num : x < best.num) {
				best.num = x;
				pick = w.i;
			}
		}
		value_release(&v);
	}
	if (ret) {
		/* nothing */
	} else if (!e->a) {
		set_num(out, (double)n, &one, 0, NULL);
	} else if (join) {
		if (n > 1)
			BUF_ADDLIT(&list, " and ");
		buf_addstr(&list, last.data);
		out->type = VALUE_TEXT;
		out->text = buf_detach(&list, NULL);
	} else if (!n && w.is_src) {
		ret = error_at(&e->loc, "'%s' over no rows: %s has none in "
			       "this edition%s", fn, w.src.what,
			       e->b || e->distinct ? " for which the "
			       "condition holds" : "");
	} else if (!n) {
		ret = error_at(&e->loc, "'%s' over no rows: no '%s.X.id' in "
			       "this edition%s", fn, e->over,
			       e->b || e->distinct ? " for which the "
			       "condition holds" : "");
	} else if (minmax) {
		*out = best;
		memset(&best, 0, sizeof(best));
	} else {
		/* One row's value: EXPR evaluated at that row alone. */
		walk_seek(&w, pick);
		if (!(ret = eval(e->a, &w.sub, out)))
			row_origin(&w, out);
	}
	if (ret)
		value_release(out);
	value_release(&best);
	walk_release(&w);
	strset_release(&st);
	buf_release(&key);
	buf_release(&msg);
	buf_release(&list);
	buf_release(&last);
	return ret;
}

/* A name: a row's cell, a "with" value, or a quantity. */
static int
eval_name(const struct expr *e, const struct expr_env *env,
	  struct value *out)
{
	const struct quantity *q;
	struct unit one;
	int ret;

	if ((ret = bound_value(e, env, out)) != 2)
		return ret;
	if (env->with) {
		struct buf local, *name = name_buf(env, &local);

		ret = with_value(env->with, resolved(e->str, env, name), out);
		name_buf_done(env, name);
		if (ret != 2)
			return ret;
	}
	if ((ret = lookup(e, env, &q)))
		return ret;
	unit_one(&one);
	if (q->type == Q_TEXT)
		set_text(out, q->text);
	else if (!q->dim_ok)
		return error_at(&e->loc, "the unit '%s' of '%s' is no unit "
				"this tool knows", q->unit, q->name);
	else
		set_num(out, q->value, &q->dim, 0, q->unit);
	out->q = q;
	return 0;
}

/* -x and !x. */
static int
eval_unary(const struct expr *e, const struct expr_env *env,
	   struct value *out)
{
	struct value a = { 0 };
	struct unit one;
	int ret;

	if ((ret = eval(e->a, env, &a)))
		return ret;
	ret = -1;
	unit_one(&one);
	if (e->kind == N_NOT) {
		set_num(out, !value_truthy(&a), &one, 1, NULL);
		ret = 0;
	} else if (!want_number(e, &a, "-")) {
		set_num(out, -a.num, &a.unit, a.literal, a.utext);
		ret = 0;
	}
	value_release(&a);
	return ret;
}

/* A function of numbers: pow, min, max, sqrt, the logarithms, ... */
static int
eval_math(const struct expr *e, const struct expr_env *env,
	  struct value *out)
{
	struct value a = { 0 }, b = { 0 };
	struct unit one, u;
	const char *ut;
	int ret, done = 0;
	double r, x, y;

	unit_one(&one);
	if ((ret = eval(e->a, env, &a)) ||
	    (e->b && (ret = eval(e->b, env, &b))))
		goto out;
	ret = -1;
	if (want_number(e->a, &a, e->fn->name) ||
	    (e->b && want_number(e->b, &b, e->fn->name)))
		goto out;
	ut = a.utext;
	u = a.unit;
	x = a.num;
	y = b.num;
	if (!strcmp(e->fn->name, "pow")) {
		if (power(e, &a, &b, out))
			goto out;
		r = out->num;
		done = 1;
	} else if (e->fn->f2) {
		if (common_unit(&a, &b, &x, &y, &u, &ut)) {
			unit_error(e, !strcmp(e->fn->name, "min") ?
				   "take the min of" : "take the max of", &a,
				   "and", &b);
			goto out;
		}
		r = e->fn->f2(x, y);
	} else if (!strcmp(e->fn->name, "sqrt")) {
		b.literal = 1;
		b.num = 0.5;
		unit_one(&b.unit);
		if (power(e, &a, &b, out))
			goto out;
		r = sqrt(a.num);
		done = 1;
	} else if (strstr("log10 log2 ln exp", e->fn->name)) {
		if (want_pure(e, &a, &x))
			goto out;
		u = one;
		ut = NULL;
		r = e->fn->f1(x);
	} else {
		r = e->fn->f1(a.num);	/* abs floor ceil round */
	}
	if (!isfinite(r)) {
		error_at(&e->loc, "'%s' gives no finite number here",
			 e->fn->name);
		value_release(out);
		goto out;
	}
	if (done)
		out->num = r;
	else
		set_num(out, r, &u, a.literal && (!e->b || b.literal), ut);
	ret = 0;
out:
	value_release(&a);
	value_release(&b);
	return ret;
}

/* A call: a reduction, has(), if(), a quantity's words, or math. */
static int
eval_call(const struct expr *e, const struct expr_env *env,
	  struct value *out)
{
	const struct quantity *q;
	struct value a = { 0 };
	struct unit one;
	int ret, t;

	unit_one(&one);
	if (e->var)
		return reduce(e, env, out);
	switch (e->fn->kind) {
	case FN_HAS:
		set_num(out, has(e->a, env), &one, 1, NULL);
		return 0;
	case FN_IF:
		/* One branch only: the other may read what is not. */
		if ((ret = eval(e->a, env, &a)))
			return ret;
		t = value_truthy(&a);
		value_release(&a);
		return eval(t ? e->b : e->c, env, out);
	case FN_SHOW:
		return error_at(&e->loc, "'%s' typesets a formula: use it "
				"alone in a slot, {{ %s(NAME) }}", e->fn->name,
				e->fn->name);
	case FN_CITE:
		return error_at(&e->loc, "'%s' writes a %s: use it alone in a "
				"slot", e->fn->name, e->fn->nargs ?
				"citation" : "references list");
	case FN_META:
		if ((ret = lookup(e->a, env, &q)))
			return ret;
		set_text(out, !strcmp(e->fn->name, "unit") ? q->unit :
			 !strcmp(e->fn->name, "formula") ? q->formula :
			 !strcmp(e->fn->name, "source") ? q->source : q->name);
		return 0;
	default:
		return eval_math(e, env, out);
	}
}

/* The unit of a op b into *u (and *x, *y converted): 0, or -1. */
static int
binary_unit(const struct expr *e, struct value *a, struct value *b,
	    double *x, double *y, struct unit *u, const char **ut,
	    struct value *out)
{
	switch (e->op) {
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT:
	case OP_GE:
		if (common_unit(a, b, x, y, u, ut))
			return unit_error(e, "compare", a, "with", b);
		unit_one(u);
		*ut = NULL;
		return 0;
	case OP_ADD:
	case OP_SUB:
		/* A written zero has every unit: if(has(x), x, 0) + y. */
		if (a->literal && a->num == 0 && !b->literal)
			a->unit = b->unit;
		else if (b->literal && b->num == 0 && !a->literal)
			b->unit = a->unit;
		if (unit_add(u, &a->unit, &b->unit, e->op == OP_SUB))
			return e->op == OP_ADD ?
			       unit_error(e, "add", a, "and", b) :
			       unit_error(e, "subtract", b, "from", a);
		*x = expr_convert(a->num, &a->unit, u);
		*y = expr_convert(b->num, &b->unit, u);
		*ut = u->scale == a->unit.scale &&
		      u->calendar == a->unit.calendar ? a->utext :
		      u->scale == b->unit.scale &&
		      u->calendar == b->unit.calendar ? b->utext : NULL;
		return 0;
	case OP_MUL:
	case OP_DIV:
		if (a->unit.calendar || b->unit.calendar)
			return unit_error(e, e->op == OP_MUL ? "multiply" :
					  "divide", a, "by", b);
		if (e->op == OP_MUL ? unit_mul(u, &a->unit, &b->unit) :
		    unit_div(u, &a->unit, &b->unit))
			return range_error(e, e->op == OP_MUL ? "multiply" :
					   "divide", a, b);
		/* x / 8 is still in bit; 1 / x is not. */
		*ut = b->literal ? a->utext : a->literal && e->op == OP_MUL ?
		      b->utext : NULL;
		return 0;
	case OP_POW:
		if (power(e, a, b, out))
			return -1;
		*u = out->unit;
		*ut = NULL;
		value_release(out);
		return 0;
	default:
		BUG("operator %d", (int)e->op);
	}
}

/* A binary operator; && and || short-circuit. */
static int
eval_binary(const struct expr *e, const struct expr_env *env,
	    struct value *out)
{
	struct value a = { 0 }, b = { 0 };
	struct unit one, u;
	const char *ut;
	int ret;
	double r, x, y;

	unit_one(&one);
	if ((ret = eval(e->a, env, &a)))
		goto out;
	if (e->op == OP_AND || e->op == OP_OR) {
		int t = value_truthy(&a);

		if ((e->op == OP_AND) == t && (ret = eval(e->b, env, &b)))
			goto out;
		set_num(out, (e->op == OP_AND) != t ? t : value_truthy(&b),
			&one, 1, NULL);
		goto out;
	}
	if ((ret = eval(e->b, env, &b)))
		goto out;
	ret = -1;
	if ((e->op == OP_EQ || e->op == OP_NE) && a.type == VALUE_TEXT &&
	    b.type == VALUE_TEXT) {
		set_num(out, !strcmp(a.text, b.text) == (e->op == OP_EQ),
			&one, 1, NULL);
		ret = 0;
		goto out;
	}
	if (want_number(e->a, &a, expr_binop_text[e->op]) ||
	    want_number(e->b, &b, expr_binop_text[e->op]))
		goto out;
	x = a.num;
	y = b.num;
	u = a.unit;
	ut = a.utext;
	if (binary_unit(e, &a, &b, &x, &y, &u, &ut, out))
		goto out;
	switch (e->op) {
	case OP_EQ: r = x == y; break;
	case OP_NE: r = x != y; break;
	case OP_LT: r = x < y; break;
	case OP_LE: r = x <= y; break;
	case OP_GT: r = x > y; break;
	case OP_GE: r = x >= y; break;
	case OP_ADD: r = x + y; break;
	case OP_SUB: r = x - y; break;
	case OP_MUL: r = x * y; break;
	case OP_DIV: r = x / y; break;
	case OP_POW: r = pow(x, y * b.unit.scale); break;
	default: BUG("operator %d", (int)e->op);
	}
	if (!isfinite(r)) {
		error_at(&e->loc, "'%s' gives no finite number here%s",
			 expr_binop_text[e->op], e->op == OP_DIV && y == 0 ?
			 " (division by zero)" : "");
		goto out;
	}
	set_num(out, r, &u, a.literal && b.literal, ut);
	ret = 0;
out:
	value_release(&a);
	value_release(&b);
	if (ret)
		value_release(out);
	return ret;
}

/*
 * Evaluates e into out: 0, -1 after an error, 1 (nothing printed) at an
 * unknown quantity when env->missing_ok is set. Numbers carry their
 * unit: a sum needs one dimension, a product multiplies them.
 */
static int
eval(const struct expr *e, const struct expr_env *env, struct value *out)
{
	struct unit one;

	memset(out, 0, sizeof(*out));
	unit_one(&one);
	switch (e->kind) {
	case N_NUM:
		set_num(out, e->num, &one, 1, NULL);
		return 0;
	case N_STR:
		set_text(out, e->str);
		return 0;
	case N_NAME:
		return eval_name(e, env, out);
	case N_NEG:
	case N_NOT:
		return eval_unary(e, env, out);
	case N_CALL:
		return eval_call(e, env, out);
	case N_BIN:
		return eval_binary(e, env, out);
	case N_WITH:
		return eval_with(e, env, out);
	case N_BIND:
		break;
	}
	BUG("a binding outside its 'with'");
}

int
expr_eval(const struct expr *e, const struct expr_env *env, struct value *out)
{
	return eval(e, env, out);
}
