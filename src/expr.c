/*
 * The expression stage of template expansion: text inside {{ }} -> a
 * tree (expr_parse) -> a value (expr_eval) over the quantity registry.
 * Prints errors with their location; writes nothing else.
 *
 * Grammar (lowest precedence first):
 *   or    = and { "||" and }
 *   and   = eq { "&&" eq }
 *   eq    = rel { ("==" | "!=") rel }
 *   rel   = add { ("<" | "<=" | ">" | ">=") add }
 *   add   = mul { ("+" | "-") mul }
 *   mul   = unary { ("*" | "/") unary }
 *   unary = ("-" | "!") unary | pow
 *   pow   = primary [ "^" unary ]
 *   primary = number | string | name | func "(" args ")" | "(" or ")"
 *
 * Reductions over the rows of a family (PREFIX.X for each X with a
 * quantity PREFIX.X.id, as the model document's families):
 *   max(VAR in PREFIX ... [where COND]: EXPR), min(...), and
 *   count(VAR in PREFIX ... [where COND]).
 *
 * unit(), formula(), source(), name() and has() take a bare name: has()
 * tells whether it exists (a quantity, or a prefix of some), so the name
 * in it is never an unknown quantity.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "registry.h"
#include "suggest.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Parentheses, signs and powers nested deeper than this are refused, and
 * so is a tree taller than EXPR_MAX_HEIGHT (a long chain such as
 * 1+1+...+1): parsing, evaluating and freeing recurse, and the stack is
 * not the user's to exhaust.
 */
#define EXPR_MAX_DEPTH 64
#define PI 3.14159265358979323846
#define EXPR_MAX_HEIGHT 256

enum node_kind {
	N_NUM,
	N_STR,
	N_NAME,
	N_NEG,
	N_NOT,
	N_BIN,
	N_CALL,
};

enum binop {
	OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW,
};

/* The public names of kinds and operators (expr.h) are these. */
_Static_assert((int)N_CALL == (int)EXPR_CALL && (int)OP_POW == (int)EXPR_POW &&
	       (int)OP_ADD == (int)EXPR_ADD && (int)N_BIN == (int)EXPR_BIN,
	       "enum expr_kind and enum expr_op follow the parser's");

static const char *const binop_text[] = {
	"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "^",
};

enum fn_kind {
	FN_MATH,	/* numbers in, a number out */
	FN_META,	/* a quantity name in, its unit, formula... as text */
	FN_HAS,		/* a name in, 1 when it or names below it exist */
	FN_SHOW,	/* a name in, its formula typeset: template.c */
	FN_CITE,	/* a reference's key in, a citation: template.c */
	FN_COUNT,	/* a reduction alone: count(VAR in PREFIX) */
};

struct func {
	const char *name;
	int nargs;
	enum fn_kind kind;
	double (*f1)(double);
	double (*f2)(double, double);
};

static double
fn_ln(double x)
{
	return log(x);
}

static const struct func funcs[] = {
	{ "log10", 1, FN_MATH, log10, NULL },
	{ "log2", 1, FN_MATH, log2, NULL },
	{ "ln", 1, FN_MATH, fn_ln, NULL },
	{ "exp", 1, FN_MATH, exp, NULL },
	{ "sqrt", 1, FN_MATH, sqrt, NULL },
	{ "abs", 1, FN_MATH, fabs, NULL },
	{ "floor", 1, FN_MATH, floor, NULL },
	{ "ceil", 1, FN_MATH, ceil, NULL },
	{ "round", 1, FN_MATH, round, NULL },
	{ "pow", 2, FN_MATH, NULL, pow },
	{ "min", 2, FN_MATH, NULL, fmin },
	{ "max", 2, FN_MATH, NULL, fmax },
	{ "unit", 1, FN_META, NULL, NULL },
	{ "formula", 1, FN_META, NULL, NULL },
	{ "source", 1, FN_META, NULL, NULL },
	{ "name", 1, FN_META, NULL, NULL },
	{ "has", 1, FN_HAS, NULL, NULL },
	{ "equation", 1, FN_SHOW, NULL, NULL },
	{ "math", 1, FN_SHOW, NULL, NULL },
	{ "cite", 1, FN_CITE, NULL, NULL },
	{ "references", 0, FN_CITE, NULL, NULL },
	{ "count", 1, FN_COUNT, NULL, NULL },
};

struct expr {
	enum node_kind kind;
	struct srcloc loc;
	double num;			/* N_NUM */
	char *str;			/* N_STR text, N_NAME name */
	enum binop op;			/* N_BIN */
	const struct func *fn;		/* N_CALL */
	struct expr *a, *b;		/* operands, call arguments; a
					   reduction's EXPR and COND */
	int height;			/* of the tree below, leaves 1 */
	/* A reduction (N_CALL of max, min or count): its VAR and its
	 * prefixes, space-separated; NULL for a plain call. */
	char *var, *over;
};

struct parser {
	const struct srcfile *f;
	size_t pos, end;
	int depth;
	int failed;
};

static struct expr *parse_or(struct parser *p);

static struct expr *
node(struct parser *p, enum node_kind kind, size_t start)
{
	struct expr *e = xcalloc(1, sizeof(*e));

	e->height = 1;
	e->kind = kind;
	e->loc.file = p->f;
	e->loc.off = start;
	e->loc.len = p->pos > start ? p->pos - start : 1;
	return e;
}

void
expr_free(struct expr *e)
{
	if (!e)
		return;
	expr_free(e->a);
	expr_free(e->b);
	free(e->str);
	free(e->var);
	free(e->over);
	free(e);
}

static struct expr *syntax(struct parser *p, size_t off, size_t len,
			    const char *msg);

/* Sets e's height from its children; NULL (and e freed) when too tall. */
static struct expr *
grow(struct parser *p, struct expr *e)
{
	int h = 0;

	if (e->a && e->a->height > h)
		h = e->a->height;
	if (e->b && e->b->height > h)
		h = e->b->height;
	e->height = h + 1;
	if (e->height > EXPR_MAX_HEIGHT) {
		syntax(p, e->loc.off, e->loc.len, "expression too long or "
		       "nested too deeply");
		expr_free(e);
		return NULL;
	}
	return e;
}

static const char *
cur(const struct parser *p)
{
	return p->f->data + p->pos;
}

static void
skip_space(struct parser *p)
{
	while (p->pos < p->end && strchr(" \t\r\n", p->f->data[p->pos]))
		p->pos++;
}

/* Reports a syntax error at [off, off+len) once per expression. */
static struct expr *
syntax(struct parser *p, size_t off, size_t len, const char *msg)
{
	struct srcloc loc = { p->f, off, len ? len : 1 };

	if (!p->failed)
		error_at(&loc, "%s", msg);
	p->failed = 1;
	return NULL;
}

static int
accept(struct parser *p, const char *tok)
{
	size_t n;

	skip_space(p);
	/* Most tries fail on the first byte: no strlen() for those. */
	if (p->pos >= p->end || cur(p)[0] != tok[0])
		return 0;
	n = strlen(tok);
	if (p->end - p->pos >= n && !memcmp(cur(p), tok, n)) {
		/* "<" must not take the first half of "<=", and so on. */
		if (n == 1 && p->pos + 1 < p->end && strchr("<>=!", *tok) &&
		    cur(p)[1] == '=')
			return 0;
		if (n == 1 && (*tok == '|' || *tok == '&') &&
		    p->pos + 1 < p->end && cur(p)[1] == *tok)
			return 0;
		p->pos += n;
		return 1;
	}
	return 0;
}

static int
is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static struct expr *
parse_number(struct parser *p)
{
	size_t start = p->pos;
	char *end;
	double v;
	struct buf tmp = BUF_INIT;
	struct expr *e;

	while (p->pos < p->end &&
	       (strchr("0123456789.", cur(p)[0]) ||
		((cur(p)[0] == 'e' || cur(p)[0] == 'E') && p->pos > start) ||
		((cur(p)[0] == '+' || cur(p)[0] == '-') &&
		 (p->f->data[p->pos - 1] == 'e' ||
		  p->f->data[p->pos - 1] == 'E'))))
		p->pos++;
	buf_add(&tmp, p->f->data + start, p->pos - start);
	v = strtod(tmp.data, &end);
	if (*end || !isfinite(v)) {
		buf_release(&tmp);
		return syntax(p, start, p->pos - start, "malformed number");
	}
	e = node(p, N_NUM, start);
	e->num = v;
	e->str = buf_detach(&tmp, NULL);
	return e;
}

static struct expr *
parse_string(struct parser *p)
{
	size_t start = p->pos++;
	struct buf s = BUF_INIT;
	struct expr *e;

	while (p->pos < p->end && cur(p)[0] != '"') {
		if (cur(p)[0] == '\\' && p->pos + 1 < p->end)
			p->pos++;
		buf_addch(&s, cur(p)[0]);
		p->pos++;
	}
	if (p->pos >= p->end) {
		buf_release(&s);
		return syntax(p, start, 1, "unterminated string");
	}
	p->pos++;
	e = node(p, N_STR, start);
	e->str = buf_detach(&s, NULL);
	return e;
}

/*
 * Whether the text after "max(" is a reduction's "VAR in ": no
 * expression has two names in a row.
 */
static int
reduction_ahead(const struct parser *p)
{
	size_t i = p->pos, v;
	const char *s = p->f->data;

	while (i < p->end && strchr(" \t\r\n", s[i]))
		i++;
	v = i;
	while (i < p->end && is_name_char(s[i]))
		i++;
	if (i == v || !is_name_start(s[v]))
		return 0;
	while (i < p->end && strchr(" \t\r\n", s[i]))
		i++;
	return p->end - i > 3 && !memcmp(s + i, "in", 2) &&
	       strchr(" \t\r\n", s[i + 2]);
}

/* A name at p (letters, digits, '_', and dots when dots): its length. */
static size_t
scan_name(struct parser *p, int dots)
{
	size_t start;

	skip_space(p);
	start = p->pos;
	while (p->pos < p->end && (is_name_char(cur(p)[0]) ||
	       (dots && cur(p)[0] == '.' && p->pos > start)))
		p->pos++;
	return p->pos - start;
}

/*
 * The rest of a reduction after "max(": "VAR in PREFIX ... [where COND]
 * : EXPR)" (count: no ": EXPR"). Returns the node, or NULL after a
 * syntax error.
 */
static struct expr *
parse_reduce(struct parser *p, size_t start, const struct func *fn)
{
	struct expr *e = node(p, N_CALL, start);
	struct buf over = BUF_INIT;
	size_t n, w;

	e->fn = fn;
	n = scan_name(p, 0);
	if (!n || !is_name_start(p->f->data[p->pos - n])) {
		syntax(p, p->pos - n, n ? n : 1, "expected 'VAR in PREFIX' "
		       "after the '(' of a reduction");
		goto fail;
	}
	e->var = xstrndup(cur(p) - n, n);
	scan_name(p, 0);	/* "in", as reduction_ahead() saw */
	for (;;) {
		n = scan_name(p, 1);
		w = p->pos - n;
		if (!n || (n == 5 && !memcmp(p->f->data + w, "where", 5)))
			break;
		buf_addf(&over, "%s%.*s", over.len ? " " : "", (int)n,
			 p->f->data + w);
	}
	if (!over.len) {
		skip_space(p);
		syntax(p, p->pos, 1, "expected the prefix of the rows after "
		       "'in'");
		goto fail;
	}
	e->over = buf_detach(&over, NULL);
	if (n && !(e->b = parse_or(p)))
		goto fail;
	if (fn->kind != FN_COUNT) {
		if (!accept(p, ":")) {
			skip_space(p);
			syntax(p, p->pos, 1, "expected ':' and the expression "
			       "of each row");
			goto fail;
		}
		if (!(e->a = parse_or(p)))
			goto fail;
	}
	if (!accept(p, ")")) {
		skip_space(p);
		syntax(p, p->pos, 1, "expected ')' after the reduction");
		goto fail;
	}
	p->depth--;
	e->loc.len = p->pos - start;
	return grow(p, e);
fail:
	buf_release(&over);
	expr_free(e);
	return NULL;
}

static struct expr *
parse_call(struct parser *p, size_t start, const char *name)
{
	const struct func *fn = NULL;
	struct expr *e, *args[2] = { NULL, NULL };
	size_t i, nargs = 0;

	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		if (!strcmp(funcs[i].name, name))
			fn = &funcs[i];
	if (!fn) {
		struct buf msg = BUF_INIT;

		buf_addf(&msg, "unknown function '%s' (functions: ", name);
		for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
			buf_addf(&msg, "%s%s", i ? ", " : "", funcs[i].name);
		buf_addch(&msg, ')');
		syntax(p, start, strlen(name), msg.data);
		buf_release(&msg);
		return NULL;
	}
	p->pos++;	/* "(" */
	if (++p->depth > EXPR_MAX_DEPTH) {
		syntax(p, start, strlen(name), "expression nested too deeply");
		goto fail;
	}
	if (fn->kind == FN_COUNT || reduction_ahead(p))
		return parse_reduce(p, start, fn);
	skip_space(p);
	if (!accept(p, ")")) {
		do {
			if (nargs == 2) {
				skip_space(p);
				syntax(p, p->pos, 1, "too many arguments");
				goto fail;
			}
			args[nargs] = parse_or(p);
			if (!args[nargs])
				goto fail;
			nargs++;
		} while (accept(p, ","));
		if (!accept(p, ")")) {
			skip_space(p);
			syntax(p, p->pos, 1, "expected ',' or ')' in the "
			       "arguments");
			goto fail;
		}
	}
	p->depth--;
	if ((int)nargs != fn->nargs) {
		struct buf msg = BUF_INIT;

		buf_addf(&msg, "'%s' takes %d argument%s, got %zu", fn->name,
			 fn->nargs, fn->nargs == 1 ? "" : "s", nargs);
		syntax(p, start, p->pos - start, msg.data);
		buf_release(&msg);
		goto fail;
	}
	if (fn->kind != FN_MATH && nargs && args[0]->kind != N_NAME) {
		struct buf msg = BUF_INIT;

		buf_addf(&msg, "'%s' takes a %s", fn->name,
			 fn->kind == FN_HAS ? "quantity name or a prefix of names" :
			 fn->kind == FN_CITE ? "reference's key" : "quantity name");
		syntax(p, args[0]->loc.off, args[0]->loc.len, msg.data);
		buf_release(&msg);
		goto fail;
	}
	e = node(p, N_CALL, start);
	e->fn = fn;
	e->a = args[0];
	e->b = args[1];
	return grow(p, e);
fail:
	expr_free(args[0]);
	expr_free(args[1]);
	return NULL;
}

static struct expr *
parse_primary(struct parser *p)
{
	size_t start;
	char c;

	skip_space(p);
	start = p->pos;
	if (p->pos >= p->end)
		return syntax(p, p->pos ? p->pos - 1 : 0, 1,
			      "expected a value at the end of the expression");
	c = cur(p)[0];
	if ((c >= '0' && c <= '9') || c == '.')
		return parse_number(p);
	if (c == '"')
		return parse_string(p);
	if (c == '(') {
		struct expr *e;

		p->pos++;
		if (++p->depth > EXPR_MAX_DEPTH)
			return syntax(p, start, 1, "expression nested too "
				      "deeply");
		e = parse_or(p);
		p->depth--;
		if (!e)
			return NULL;
		if (!accept(p, ")")) {
			expr_free(e);
			skip_space(p);
			return syntax(p, start, 1, "unclosed '('");
		}
		return e;
	}
	if (is_name_start(c)) {
		struct expr *e;
		char *name;
		size_t k;

		while (p->pos < p->end && (is_name_char(cur(p)[0]) ||
		       (cur(p)[0] == '.' && p->pos + 1 < p->end &&
			is_name_char(cur(p)[1]))))
			p->pos++;
		/*
		 * Inside a name, "{r}" stands for a rate of the model
		 * document's "for r in rates" (modeldoc.c), as in
		 * d.gap.ops.years_{r}: the document binds it, nothing else.
		 */
		while (p->pos + 2 < p->end && cur(p)[0] == '{' &&
		       is_name_start(cur(p)[1])) {
			for (k = 2; p->pos + k < p->end &&
			     is_name_char(cur(p)[k]); k++)
				;
			if (p->pos + k >= p->end || cur(p)[k] != '}')
				break;
			p->pos += k + 1;
			while (p->pos < p->end && (is_name_char(cur(p)[0]) ||
			       (cur(p)[0] == '.' && p->pos + 1 < p->end &&
				is_name_char(cur(p)[1]))))
				p->pos++;
		}
		name = xstrndup(p->f->data + start, p->pos - start);
		if (p->pos < p->end && cur(p)[0] == '(' && !strchr(name, '.')) {
			e = parse_call(p, start, name);
			free(name);
			return e;
		}
		/* pi is the number: no quantity is called that. */
		e = node(p, strcmp(name, "pi") ? N_NAME : N_NUM, start);
		e->str = name;
		if (e->kind == N_NUM)
			e->num = PI;
		return e;
	}
	{
		struct buf msg = BUF_INIT;
		struct expr *e;

		buf_addf(&msg, "unexpected '%c'", c);
		e = syntax(p, start, 1, msg.data);
		buf_release(&msg);
		return e;
	}
}

static struct expr *parse_unary(struct parser *p);

static struct expr *
parse_pow(struct parser *p)
{
	size_t start;
	struct expr *l, *e;

	skip_space(p);
	start = p->pos;
	l = parse_primary(p);
	if (!l || !accept(p, "^"))
		return l;
	e = node(p, N_BIN, start);
	e->op = OP_POW;
	e->a = l;
	if (++p->depth > EXPR_MAX_DEPTH) {
		expr_free(e);
		skip_space(p);
		return syntax(p, p->pos, 1, "expression nested too deeply");
	}
	e->b = parse_unary(p);
	p->depth--;
	if (!e->b) {
		expr_free(e);
		return NULL;
	}
	e->loc.len = p->pos - start;
	return grow(p, e);
}

static struct expr *
parse_unary(struct parser *p)
{
	size_t start;
	struct expr *e;
	enum node_kind kind;

	skip_space(p);
	start = p->pos;
	if (accept(p, "-"))
		kind = N_NEG;
	else if (accept(p, "!"))
		kind = N_NOT;
	else
		return parse_pow(p);
	if (++p->depth > EXPR_MAX_DEPTH)
		return syntax(p, start, 1, "expression nested too deeply");
	e = node(p, kind, start);
	e->a = parse_unary(p);
	p->depth--;
	if (!e->a) {
		expr_free(e);
		return NULL;
	}
	return grow(p, e);
}

/* One level of left-associative binary operators. */
static struct expr *
parse_level(struct parser *p, int level)
{
	static const enum binop levels[][4] = {
		{ OP_OR }, { OP_AND }, { OP_EQ, OP_NE },
		{ OP_LE, OP_GE, OP_LT, OP_GT }, { OP_ADD, OP_SUB },
		{ OP_MUL, OP_DIV },
	};
	static const size_t count[] = { 1, 1, 2, 4, 2, 2 };
	struct expr *l;
	size_t start;

	if (level == 6)
		return parse_unary(p);
	skip_space(p);
	start = p->pos;
	l = parse_level(p, level + 1);
	while (l) {
		size_t i;
		struct expr *e;

		for (i = 0; i < count[level]; i++)
			if (accept(p, binop_text[levels[level][i]]))
				break;
		if (i == count[level])
			break;
		e = node(p, N_BIN, start);
		e->op = levels[level][i];
		e->a = l;
		e->b = parse_level(p, level + 1);
		e->loc.len = p->pos - start;
		if (!e->b) {
			expr_free(e);
			l = NULL;
			break;
		}
		l = grow(p, e);
	}
	return l;
}

static struct expr *
parse_or(struct parser *p)
{
	return parse_level(p, 0);
}

struct expr *
expr_parse(const struct srcfile *f, size_t off, size_t len)
{
	struct parser p = { f, off, off + len, 0, 0 };
	struct expr *e = parse_or(&p);

	if (e) {
		skip_space(&p);
		if (p.pos < p.end) {
			syntax(&p, p.pos, 1, "unexpected text after the "
			       "expression");
			expr_free(e);
			e = NULL;
		}
	}
	return e;
}

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

/*
 * Evaluates e into out: 0, -1 after an error, 1 (nothing printed) at an
 * unknown quantity when env->missing_ok is set. Numbers carry their
 * unit: a sum needs one dimension, a product multiplies them.
 */
static int
eval(const struct expr *e, const struct expr_env *env, struct value *out)
{
	struct value a = { 0 }, b = { 0 };
	const struct quantity *q;
	struct unit one, u;
	const char *ut;
	int ret, done = 0;
	double r, x, y;

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
		if ((ret = lookup(e, env, &q)))
			return ret;
		if (q->type == Q_TEXT) {
			set_text(out, q->text);
		} else if (!q->dim_ok) {
			return error_at(&e->loc, "the unit '%s' of '%s' is no "
					"unit this tool knows", q->unit,
					q->name);
		} else {
			set_num(out, q->value, &q->dim, 0, q->unit);
		}
		out->q = q;
		return 0;
	case N_NEG:
	case N_NOT:
		if ((ret = eval(e->a, env, &a)))
			return ret;
		ret = -1;
		if (e->kind == N_NOT) {
			set_num(out, !value_truthy(&a), &one, 1, NULL);
			ret = 0;
		} else if (!want_number(e, &a, "-")) {
			set_num(out, -a.num, &a.unit, a.literal, a.utext);
			ret = 0;
		}
		value_release(&a);
		return ret;
	case N_CALL:
		if (e->var)
			return reduce(e, env, out);
		if (e->fn->kind == FN_HAS) {
			set_num(out, has(e->a, env), &one, 1, NULL);
			return 0;
		}
		if (e->fn->kind == FN_SHOW)
			return error_at(&e->loc, "'%s' typesets a formula: "
					"use it alone in a slot, "
					"{{ %s(NAME) }}", e->fn->name,
					e->fn->name);
		if (e->fn->kind == FN_CITE)
			return error_at(&e->loc, "'%s' writes a %s: use it "
					"alone in a slot", e->fn->name,
					e->fn->nargs ? "citation" :
					"references list");
		if (e->fn->kind == FN_META) {
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
					   "take the min of" :
					   "take the max of", &a, "and", &b);
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
		if (done) {
			out->num = r;
		} else {
			set_num(out, r, &u, a.literal && (!e->b || b.literal),
				ut);
		}
		ret = 0;
		goto out;
	case N_BIN:
		break;
	}

	/* Binary operators; && and || short-circuit. */
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
	if (want_number(e->a, &a, binop_text[e->op]) ||
	    want_number(e->b, &b, binop_text[e->op]))
		goto out;
	x = a.num;
	y = b.num;
	u = a.unit;
	ut = a.utext;
	switch (e->op) {
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT:
	case OP_GE:
		if (common_unit(&a, &b, &x, &y, &u, &ut)) {
			unit_error(e, "compare", &a, "with", &b);
			goto out;
		}
		u = one;
		ut = NULL;
		break;
	case OP_ADD:
	case OP_SUB:
		if (unit_add(&u, &a.unit, &b.unit, e->op == OP_SUB)) {
			if (e->op == OP_ADD)
				unit_error(e, "add", &a, "and", &b);
			else
				unit_error(e, "subtract", &b, "from", &a);
			goto out;
		}
		x = convert(a.num, &a.unit, &u);
		y = convert(b.num, &b.unit, &u);
		ut = u.scale == a.unit.scale && u.calendar == a.unit.calendar ?
		     a.utext : u.scale == b.unit.scale &&
		     u.calendar == b.unit.calendar ? b.utext : NULL;
		break;
	case OP_MUL:
	case OP_DIV:
		if (a.unit.calendar || b.unit.calendar) {
			unit_error(e, e->op == OP_MUL ? "multiply" : "divide",
				   &a, "by", &b);
			goto out;
		}
		if (e->op == OP_MUL ? unit_mul(&u, &a.unit, &b.unit) :
		    unit_div(&u, &a.unit, &b.unit)) {
			range_error(e, e->op == OP_MUL ? "multiply" :
				    "divide", &a, &b);
			goto out;
		}
		/* x / 8 is still in bit; 1 / x is not. */
		ut = b.literal ? a.utext : a.literal && e->op == OP_MUL ?
		     b.utext : NULL;
		break;
	case OP_POW:
		if (power(e, &a, &b, out))
			goto out;
		u = out->unit;
		ut = NULL;
		value_release(out);
		break;
	default:
		BUG("operator %d", (int)e->op);
	}
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
			 binop_text[e->op], e->op == OP_DIV && y == 0 ?
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
