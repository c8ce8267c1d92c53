/*
 * The expression stage's evaluation: a tree (eparse.c, exprint.h) -> a
 * value (expr_eval()) over the quantity registry, numbers with their
 * units; the names a tree reads; a quantity's formula checked against
 * its value. Prints errors with their location; writes nothing else.
 * The language is in eparse.c and docs/templates.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "exprint.h"
#include "registry.h"
#include "suggest.h"
#include "xalloc.h"
#include "banned.h"

const char *
expr_reduction(const struct expr *e, const char **over)
{
	if (e->kind != N_CALL || !e->var)
		return NULL;
	*over = e->over;
	return e->var;
}

const struct srcloc *
expr_loc(const struct expr *e)
{
	return &e->loc;
}

const char *
expr_name(const struct expr *e)
{
	return e && e->kind == N_NAME ? e->str : NULL;
}

void
value_release(struct value *v)
{
	free(v->text);
	v->text = NULL;
	free(v->utext);
	v->utext = NULL;
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

/* Appends the registry name that e (a name, maybe a loop variable) means. */
static void
resolve(const struct expr *e, const struct expr_env *env, struct buf *name)
{
	if (!env->resolve || env->resolve(env->ctx, e->str, name))
		buf_addstr(name, e->str);
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
	struct buf name = BUF_INIT, msg = BUF_INIT;
	const struct quantity *q;
	const char *near[3];
	size_t n;
	int ret = 0;

	resolve(e, env, &name);
	q = *qp = registry_get(env->reg, name.data);
	if (!q && env->missing_ok) {
		ret = 1;
	} else if (!q) {
		/* Past the shown errors, suggestions would go unseen. */
		n = diag_full() ? 0 : registry_suggest(env->reg, name.data,
						       near, 3);
		suggest_hint(&msg, near, n);
		if (strcmp(name.data, e->str))
			error_at(&e->loc, "unknown quantity '%s' (from '%s')%s",
				 name.data, e->str, msg.data);
		else
			error_at(&e->loc, "unknown quantity '%s'%s",
				 name.data, msg.data);
		ret = -1;
	}
	buf_release(&name);
	buf_release(&msg);
	return ret;
}

/* has(NAME): 1 when NAME (resolved) is a quantity or a prefix of some. */
static int
has(const struct expr *e, const struct expr_env *env)
{
	struct buf name = BUF_INIT;
	int r;

	resolve(e, env, &name);
	r = registry_has(env->reg, name.data);
	buf_release(&name);
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
	v->utext = utext ? xstrdup(utext) : NULL;
}

/* x, a number in unit from, in unit to (of the same dimension). */
static double
convert(double x, const struct unit *from, const struct unit *to)
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
	*y = convert(b->num, &b->unit, &a->unit);
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
	struct buf bound = BUF_INIT;

	if (strncmp(name, r->var, vl) || name[vl] != '.')
		return o->resolve ? o->resolve(o->ctx, name, out) : -1;
	buf_addstr(&bound, r->row);
	buf_addstr(&bound, name + vl);
	if (!o->resolve || o->resolve(o->ctx, bound.data, out))
		buf_addstr(out, bound.data);
	buf_release(&bound);
	return 0;
}

/*
 * The rows of over ("device current"), each "PREFIX.X" after a newline,
 * into rows: X for each quantity PREFIX.X.id, in the registry's order.
 */
static void
family_rows(const struct registry *reg, const char *over, struct buf *rows)
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

/*
 * max(), min() or count() over the rows of a family: each row bound to
 * the variable, those where COND holds, EXPR a number of one dimension
 * for all (the result is in the first row's unit). max and min of no
 * row are an error; count of none is 0.
 */
static int
reduce(const struct expr *e, const struct expr_env *env, struct value *out)
{
	struct reduce_env r = { env, e->var, NULL };
	struct expr_env sub = { env->reg, reduce_resolve, &r, env->missing_ok };
	struct buf rows = BUF_INIT, row = BUF_INIT;
	struct value v = { 0 };
	struct unit one;
	const char *p;
	double x;
	size_t n = 0;
	int ret = 0, is_max = !strcmp(e->fn->name, "max");

	unit_one(&one);
	family_rows(env->reg, e->over, &rows);
	for (p = rows.data; *p && !ret; p += strcspn(p, "\n")) {
		buf_reset(&row);
		p++;
		buf_add(&row, p, strcspn(p, "\n"));
		r.row = row.data;
		if (e->b) {
			if ((ret = eval(e->b, &sub, &v)))
				break;
			x = value_truthy(&v);
			value_release(&v);
			if (!x)
				continue;
		}
		if (!e->a) {
			n++;
			continue;
		}
		if ((ret = eval(e->a, &sub, &v)))
			break;
		if (v.type != VALUE_NUMBER) {
			ret = error_at(&e->a->loc, "'%s' needs a number for "
				       "each row, got the text '%s' (row %s)",
				       e->fn->name, v.text, row.data);
		} else if (!n++) {
			set_num(out, v.num, &v.unit, 0, v.utext);
		} else if (!unit_same_dim(&v.unit, &out->unit) ||
			   v.unit.calendar != out->unit.calendar) {
			ret = unit_error(e->a, is_max ? "take the max of" :
					 "take the min of", out, "and", &v);
		} else {
			x = convert(v.num, &v.unit, &out->unit);
			if (is_max ? x > out->num : x < out->num)
				out->num = x;
		}
		value_release(&v);
	}
	if (!ret && !e->a)
		set_num(out, (double)n, &one, 0, NULL);
	else if (!ret && !n)
		ret = error_at(&e->loc, "'%s' over no rows: no '%s.X.id' in "
			       "this edition%s", e->fn->name, e->over,
			       e->b ? " for which the condition holds" : "");
	if (ret)
		value_release(out);
	buf_release(&rows);
	buf_release(&row);
	return ret;
}

/* A quantity: its text, or its number in its unit. */
static int
eval_name(const struct expr *e, const struct expr_env *env,
	  struct value *out)
{
	const struct quantity *q;
	int ret;

	if ((ret = lookup(e, env, &q)))
		return ret;
	if (q->type == Q_TEXT) {
		set_text(out, q->text);
	} else if (!q->dim_ok) {
		return error_at(&e->loc, "the unit '%s' of '%s' is no unit "
				"this tool knows", q->unit, q->name);
	} else {
		set_num(out, q->value, &q->dim, 0, q->unit);
	}
	out->q = q;
	return 0;
}

/* -x, a number in its unit; !x, 1 or 0. */
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
	if (e->kind == N_NOT) {
		unit_one(&one);
		set_num(out, !value_truthy(&a), &one, 1, NULL);
		ret = 0;
	} else if (!want_number(e, &a, "-")) {
		set_num(out, -a.num, &a.unit, a.literal, a.utext);
		ret = 0;
	}
	value_release(&a);
	return ret;
}

/* unit(NAME), formula(NAME), source(NAME), name(NAME): NAME's words. */
static int
eval_meta(const struct expr *e, const struct expr_env *env,
	  struct value *out)
{
	const struct quantity *q;
	int ret;

	if ((ret = lookup(e->a, env, &q)))
		return ret;
	if (!strcmp(e->fn->name, "unit"))
		set_text(out, q->unit);
	else if (!strcmp(e->fn->name, "formula"))
		set_text(out, q->formula);
	else if (!strcmp(e->fn->name, "source"))
		set_text(out, q->source);
	else
		set_text(out, q->name);
	return 0;
}

/*
 * A call: a reduction, has(), a quantity's words, or a function of one
 * or two numbers (pow, min, max, sqrt, logarithms, abs, ...), whose
 * unit follows from its arguments'.
 */
static int
eval_call(const struct expr *e, const struct expr_env *env,
	  struct value *out)
{
	struct value a = { 0 }, b = { 0 };
	struct unit one, u;
	const char *ut;
	int ret, done = 0;
	double r, x, y;

	unit_one(&one);
	if (e->var)
		return reduce(e, env, out);
	if (e->fn->kind == FN_HAS) {
		set_num(out, has(e->a, env), &one, 1, NULL);
		return 0;
	}
	if (e->fn->kind == FN_SHOW)
		return error_at(&e->loc, "'%s' typesets a formula: use it "
				"alone in a slot, {{ %s(NAME) }}",
				e->fn->name, e->fn->name);
	if (e->fn->kind == FN_CITE)
		return error_at(&e->loc, "'%s' writes a %s: use it alone in "
				"a slot", e->fn->name, e->fn->nargs ?
				"citation" : "references list");
	if (e->fn->kind == FN_META)
		return eval_meta(e, env, out);
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
				   "take the min of" : "take the max of",
				   &a, "and", &b);
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
	if (ret)
		value_release(out);
	return ret;
}

/*
 * The unit of a binary operator's result, and its operands in it
 * (*x, *y): comparisons in a common unit give a pure number, a sum
 * needs one dimension, a product multiplies them, a power needs a pure
 * exponent. Returns -1 after an error.
 */
static int
binary_unit(const struct expr *e, struct value *a, struct value *b,
	    struct value *out, double *x, double *y, struct unit *u,
	    const char **ut)
{
	*x = a->num;
	*y = b->num;
	*u = a->unit;
	*ut = a->utext;
	switch (e->op) {
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT:
	case OP_GE:
		if (common_unit(a, b, x, y, u, ut)) {
			unit_error(e, "compare", a, "with", b);
			return -1;
		}
		unit_one(u);
		*ut = NULL;
		return 0;
	case OP_ADD:
	case OP_SUB:
		if (unit_add(u, &a->unit, &b->unit, e->op == OP_SUB)) {
			if (e->op == OP_ADD)
				unit_error(e, "add", a, "and", b);
			else
				unit_error(e, "subtract", b, "from", a);
			return -1;
		}
		*x = convert(a->num, &a->unit, u);
		*y = convert(b->num, &b->unit, u);
		*ut = u->scale == a->unit.scale &&
		      u->calendar == a->unit.calendar ? a->utext :
		      u->scale == b->unit.scale &&
		      u->calendar == b->unit.calendar ? b->utext : NULL;
		return 0;
	case OP_MUL:
	case OP_DIV:
		if (a->unit.calendar || b->unit.calendar) {
			unit_error(e, e->op == OP_MUL ? "multiply" : "divide",
				   a, "by", b);
			return -1;
		}
		if (e->op == OP_MUL ? unit_mul(u, &a->unit, &b->unit) :
		    unit_div(u, &a->unit, &b->unit)) {
			range_error(e, e->op == OP_MUL ? "multiply" :
				    "divide", a, b);
			return -1;
		}
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

/* Binary operators; && and || short-circuit. */
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
	ret = -1;
	if (e->op == OP_AND || e->op == OP_OR) {
		int t = value_truthy(&a);

		if ((e->op == OP_AND) != t) {
			set_num(out, t, &one, 1, NULL);
			ret = 0;
			goto out;
		}
		if ((ret = eval(e->b, env, &b)))
			goto out;
		set_num(out, value_truthy(&b), &one, 1, NULL);
		ret = 0;
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
	    want_number(e->b, &b, expr_binop_text[e->op]) ||
	    binary_unit(e, &a, &b, out, &x, &y, &u, &ut))
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
	switch (e->kind) {
	case N_NUM:
		unit_one(&one);
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
	}
	BUG("expression kind %d", (int)e->kind);
}

int
expr_eval(const struct expr *e, const struct expr_env *env, struct value *out)
{
	return eval(e, env, out);
}

/* The names below e, into out, skipping those in seen ("\n"-separated). */
static void
add_values(const struct expr *e, const struct expr_env *env, struct buf *out,
	   struct buf *seen)
{
	struct buf name = BUF_INIT, key = BUF_INIT;
	const struct quantity *q;
	int in_has;

	if (!e)
		return;
	in_has = e->kind == N_CALL && e->fn->kind == FN_HAS;
	if (e->kind == N_CALL && e->var)
		return;		/* its names are each row's */
	if (e->kind != N_NAME && !in_has) {
		add_values(e->a, env, out, seen);
		add_values(e->b, env, out, seen);
		return;
	}
	resolve(in_has ? e->a : e, env, &name);
	buf_addf(&key, "\n%s%s\n", in_has ? "has " : "", name.data);
	if (!strstr(seen->data, key.data)) {
		if (seen->len > 1)
			BUF_ADDLIT(out, ", ");
		buf_add(seen, key.data + 1, key.len - 1);
		if (in_has) {
			buf_addf(out, "has(%s) = %d", name.data,
				 registry_has(env->reg, name.data));
		} else if (!(q = registry_get(env->reg, name.data))) {
			buf_addf(out, "%s = (no such quantity)", name.data);
		} else if (q->type == Q_TEXT) {
			const char *c;

			/* One line of message: control characters as spaces. */
			buf_addf(out, "%s = '", name.data);
			for (c = q->text; *c; c++)
				buf_addch(out, (unsigned char)*c < 0x20 ?
					  ' ' : *c);
			buf_addch(out, '\'');
		} else {
			buf_addf(out, "%s = %.6g", name.data, q->value);
		}
	}
	buf_release(&name);
	buf_release(&key);
}

void
expr_values(const struct expr *e, const struct expr_env *env, struct buf *out)
{
	struct buf seen = BUF_INIT;

	buf_addch(&seen, '\n');
	add_values(e, env, out, &seen);
	buf_release(&seen);
}

static void names_of(const struct expr *e, struct buf *out);

/* A reduction's names: those of its variable are no quantity's. */
static void
reduce_names(const struct expr *e, struct buf *out)
{
	struct buf all = BUF_INIT, key = BUF_INIT;
	size_t vl = strlen(e->var);
	const char *p;

	buf_addch(&all, '\n');
	names_of(e->b, &all);
	names_of(e->a, &all);
	for (p = all.data + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, e->var, vl) && p[vl] == '.')
			continue;
		buf_reset(&key);
		buf_addch(&key, '\n');
		buf_add(&key, p, len + 1);
		if (!strstr(out->data, key.data))
			buf_add(out, p, len + 1);
	}
	buf_release(&all);
	buf_release(&key);
}

/* Appends the distinct quantity names of e, each followed by '\n'. */
static void
names_of(const struct expr *e, struct buf *out)
{
	struct buf key = BUF_INIT;

	if (!e)
		return;
	if (e->kind == N_CALL && e->var) {
		reduce_names(e, out);
		return;
	}
	if (e->kind == N_NAME) {
		buf_addf(&key, "\n%s\n", e->str);
		if (!strstr(out->data, key.data))
			buf_addf(out, "%s\n", e->str);
		buf_release(&key);
		return;
	}
	names_of(e->a, out);
	names_of(e->b, out);
}

void
expr_inputs(const struct expr *e, struct buf *out)
{
	if (!out->len || out->data[out->len - 1] != '\n')
		BUG("expr_inputs() appends after a newline");
	names_of(e, out);
}

int
expr_check_formula(const struct registry *reg, const struct quantity *q)
{
	struct buf fname = BUF_INIT, names = BUF_INIT, key = BUF_INIT;
	struct buf ua = BUF_INIT;
	struct expr_env env = { reg, NULL, NULL, 0 };
	struct srcfile *f;
	struct expr *e = NULL;
	struct value v = { 0 };
	const char *p;
	double got;
	size_t i;
	int ret = -1, exact;

	if (!q->expr)
		return 0;
	buf_addf(&fname, "formula of %s", q->name);
	f = srcfile_from_mem(fname.data, q->expr, strlen(q->expr));
	f->show_source = 1;
	if (!(e = expr_parse(f, 0, f->len)))
		goto out;
	/* Its names are its inputs: no more, no fewer. */
	buf_addch(&names, '\n');
	names_of(e, &names);
	for (p = names.data + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t len = strcspn(p, "\n");

		for (i = 0; i < q->ninputs; i++)
			if (strlen(q->inputs[i]) == len &&
			    !memcmp(q->inputs[i], p, len))
				break;
		if (i == q->ninputs) {
			error("formula of '%s' uses '%.*s', which is not one "
			      "of its inputs", q->name, (int)len, p);
			goto out;
		}
	}
	for (i = 0; i < q->ninputs; i++) {
		buf_reset(&key);
		buf_addf(&key, "\n%s\n", q->inputs[i]);
		if (!strstr(names.data, key.data)) {
			error("input '%s' of '%s' is not in its formula '%s'",
			      q->inputs[i], q->name, q->expr);
			goto out;
		}
	}
	if (expr_eval(e, &env, &v))
		goto out;
	if (v.type != VALUE_NUMBER || q->type != Q_NUMBER) {
		error("formula of '%s' gives %s, the model %s", q->name,
		      v.type == VALUE_NUMBER ? "a number" : "a text",
		      q->type == Q_NUMBER ? "a number" : "a text");
		goto out;
	}
	if (!q->dim_ok || !unit_same_si(&v.unit, &q->dim)) {
		unit_format(&ua, &v.unit);
		error("formula of '%s' is in %s, but its unit is '%s'",
		      q->name, ua.data, q->unit);
		goto out;
	}
	got = convert(v.num, &v.unit, &q->dim);
	/*
	 * Years and whole numbers exactly; the rest to 1e-12. From 2^52 on
	 * every double is whole, counts or not (6.9e15 FLOP/s): those too
	 * are held to 1e-12.
	 */
	exact = q->dim.calendar ||
		(q->value == floor(q->value) && fabs(q->value) < 4503599627370496.0);
	if (exact ? got != q->value :
	    !(fabs(got - q->value) <= 1e-12 * fabs(q->value))) {
		error("formula of '%s' gives %.17g, but the model computed "
		      "%.17g (relative difference %.3g): %s", q->name, got,
		      q->value, q->value ? fabs(got / q->value - 1) : got,
		      q->expr);
		goto out;
	}
	ret = 0;
out:
	value_release(&v);
	expr_free(e);
	srcfile_free(f);
	buf_release(&fname);
	buf_release(&names);
	buf_release(&key);
	buf_release(&ua);
	return ret;
}

enum expr_kind
expr_kind(const struct expr *e)
{
	return (enum expr_kind)e->kind;
}

enum expr_op
expr_op(const struct expr *e)
{
	return (enum expr_op)e->op;
}

double
expr_num(const struct expr *e)
{
	return e->num;
}

const char *
expr_text(const struct expr *e)
{
	return e->kind == N_CALL ? e->fn->name : e->str;
}

const struct expr *
expr_arg(const struct expr *e, int i)
{
	return i == 0 ? e->a : i == 1 ? e->b : NULL;
}
