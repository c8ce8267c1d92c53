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
#include "exprint.h"
#include "mempool.h"
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

const char *const expr_binop_text[] = {
	"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "^",
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
	{ "first", 1, FN_ROWS, NULL, NULL },
	{ "last", 1, FN_ROWS, NULL, NULL },
	{ "largest", 1, FN_ROWS, NULL, NULL },
	{ "smallest", 1, FN_ROWS, NULL, NULL },
	{ "join", 1, FN_ROWS, NULL, NULL },
	{ "if", 3, FN_IF, NULL, NULL },
};


/*
 * A tree's memory: its nodes and their strings, in a pool (mempool.h)
 * of chunks of 512 bytes freed with its root (expr_free()). A malloc()
 * and a free() of each node and string were 3.5% of an edition's
 * instructions: the Methods page and the quantities' pages parse every
 * formula again to typeset it. Chunks of 2 KiB cost 2.7 MB more of peak
 * memory for the templates' slots, and more instructions.
 */
#define POOL_CHUNK 512

/* Frees pool and its chunks; NULL is fine. */
static void
pool_free(struct mempool *pool)
{
	if (!pool)
		return;
	mempool_release(pool);
	free(pool);
}

struct parser {
	const struct srcfile *f;
	size_t pos, end;
	int depth;
	int failed;
	struct mempool *pool;	/* the tree's */
};

static struct expr *parse_or(struct parser *p);

/* The n bytes at s as a string of the tree's. */
static char *
tree_strndup(struct parser *p, const char *s, size_t n)
{
	return mempool_strndup(p->pool, s, n);
}

static struct expr *
node(struct parser *p, enum node_kind kind, size_t start)
{
	struct expr *e = mempool_alloc(p->pool, sizeof(*e),
				       _Alignof(struct expr));

	memset(e, 0, sizeof(*e));
	e->height = 1;
	e->kind = kind;
	e->loc.file = p->f;
	e->loc.off = start;
	e->loc.len = p->pos > start ? p->pos - start : 1;
	return e;
}

/*
 * A tree is freed whole with its root; a node below it goes with the
 * root (the parser lets go of a subtree it cannot finish that way).
 */
void
expr_free(struct expr *e)
{
	if (e)
		pool_free(e->pool);
}

static struct expr *syntax(struct parser *p, size_t off, size_t len,
			    const char *msg);

/* Sets e's height from its children; NULL (and e freed) when too tall. */
static struct expr *
grow(struct parser *p, struct expr *e)
{
	const struct expr *kids[] = { e->a, e->b, e->c, e->by, e->distinct };
	int h = 0;
	size_t i;

	for (i = 0; i < sizeof(kids) / sizeof(kids[0]); i++)
		if (kids[i] && kids[i]->height > h)
			h = kids[i]->height;
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
	const char *s = p->f->data;

	while (p->pos < p->end && (s[p->pos] == ' ' || s[p->pos] == '\t' ||
				   s[p->pos] == '\r' || s[p->pos] == '\n'))
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
	e->str = tree_strndup(p, tmp.data, tmp.len);
	buf_release(&tmp);
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
	e->str = tree_strndup(p, s.data, s.len);
	buf_release(&s);
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
/* Whether the n bytes at w are the keyword kw. */
static int
is_word(const char *w, size_t n, const char *kw)
{
	return n == strlen(kw) && !memcmp(w, kw, n);
}

/*
 * The rest of a reduction after "max(": "VAR in PREFIX ... [where COND]
 * [by KEY] [distinct KEY] : EXPR)", the clauses in any order (count: no
 * ": EXPR"; largest and smallest need "by", no other takes it). Returns
 * the node, or NULL after a syntax error.
 */
static struct expr *
parse_reduce(struct parser *p, size_t start, const struct func *fn)
{
	static const char *const clause[] = { "where", "by", "distinct" };
	struct expr *e = node(p, N_CALL, start), **slot;
	struct buf over = BUF_INIT;
	int keyed = !strcmp(fn->name, "largest") ||
		    !strcmp(fn->name, "smallest");
	size_t n, w, k;

	e->fn = fn;
	n = scan_name(p, 0);
	if (!n || !is_name_start(p->f->data[p->pos - n])) {
		syntax(p, p->pos - n, n ? n : 1, "expected 'VAR in PREFIX' "
		       "after the '(' of a reduction");
		goto fail;
	}
	e->var = tree_strndup(p, cur(p) - n, n);
	scan_name(p, 0);	/* "in", as reduction_ahead() saw */
	for (;;) {
		n = scan_name(p, 1);
		w = p->pos - n;
		for (k = 0; n && k < 3 && !is_word(p->f->data + w, n, clause[k]);
		     k++)
			;
		if (!n || k < 3)
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
	e->over = tree_strndup(p, over.data, over.len);
	buf_release(&over);
	/* The clauses: a keyword just read, then its expression. */
	while (n) {
		slot = k == 0 ? &e->b : k == 1 ? &e->by : &e->distinct;
		if (*slot || (k == 1 && !keyed)) {
			syntax(p, w, n, k == 1 && !keyed ? "only largest() and "
			       "smallest() take 'by'" : "a second clause of "
			       "this kind");
			goto fail;
		}
		if (!(*slot = parse_or(p)))
			goto fail;
		skip_space(p);
		w = p->pos;
		n = scan_name(p, 0);
		for (k = 0; n && k < 3 && !is_word(p->f->data + w, n, clause[k]);
		     k++)
			;
		if (n && k == 3) {
			syntax(p, w, n, "expected 'where', 'by', 'distinct', "
			       "':' or ')'");
			goto fail;
		}
	}
	if (keyed && !e->by) {
		skip_space(p);
		syntax(p, p->pos, 1, "largest() and smallest() need 'by' and "
		       "the key the rows are compared by");
		goto fail;
	}
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
	struct expr *e, *args[3] = { NULL, NULL, NULL };
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
	if (fn->kind == FN_COUNT || fn->kind == FN_ROWS ||
	    reduction_ahead(p))
		return parse_reduce(p, start, fn);
	skip_space(p);
	if (!accept(p, ")")) {
		do {
			if (nargs == (fn->nargs > 2 ? (size_t)fn->nargs : 2)) {
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
	if (fn->kind != FN_MATH && fn->kind != FN_IF && nargs &&
	    args[0]->kind != N_NAME) {
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
	e->c = args[2];
	return grow(p, e);
fail:
	expr_free(args[0]);
	expr_free(args[1]);
	expr_free(args[2]);
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
			(is_name_char(cur(p)[1]) || cur(p)[1] == '{'))))
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
				(is_name_char(cur(p)[1]) ||
				 cur(p)[1] == '{'))))
				p->pos++;
		}
		name = tree_strndup(p, p->f->data + start, p->pos - start);
		if (p->pos < p->end && cur(p)[0] == '(' && !strchr(name, '.'))
			return parse_call(p, start, name);
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
	/*
	 * The bytes the level's operators start with: most values are
	 * followed by none, and each of twelve accept() was tried for
	 * every one (the parser is 5% of an edition's instructions: the
	 * Methods page parses every formula again to typeset it).
	 */
	static const char *const first[] = { "|", "&", "=!", "<>", "+-",
					     "*/" };
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

		skip_space(p);
		if (p->pos >= p->end || !cur(p)[0] ||
		    !strchr(first[level], cur(p)[0]))
			break;
		for (i = 0; i < count[level]; i++)
			if (accept(p, expr_binop_text[levels[level][i]]))
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

/*
 * "EXPR with NAME = EXPR, NAME = EXPR ...": what EXPR would be were each
 * NAME the value given, the quantities that follow from it computed
 * again (exprval.c). The whole expression's last part only.
 */
static struct expr *
parse_with(struct parser *p, struct expr *body, size_t start)
{
	struct expr *w = node(p, N_WITH, start), **tail = &w->b;
	size_t at, n;

	w->a = body;
	do {
		struct expr *bind;

		skip_space(p);
		at = p->pos;
		n = scan_name(p, 1);
		if (!n || !is_name_start(p->f->data[at]) || !accept(p, "=")) {
			syntax(p, at, n ? n : 1, "expected 'NAME = EXPRESSION' "
			       "after 'with'");
			goto fail;
		}
		bind = node(p, N_BIND, at);
		bind->str = tree_strndup(p, p->f->data + at, n);
		*tail = bind;
		tail = &bind->b;
		if (!(bind->a = parse_or(p)))
			goto fail;
	} while (accept(p, ","));
	w->loc.len = p->pos - start;
	return w;
fail:
	expr_free(w);
	return NULL;
}

struct expr *
expr_parse(const struct srcfile *f, size_t off, size_t len)
{
	struct parser p = { f, off, off + len, 0, 0,
			    xcalloc(1, sizeof(struct mempool)) };
	struct expr *e;

	p.pool->chunk = POOL_CHUNK;
	e = parse_or(&p);

	if (e) {
		skip_space(&p);
		if (p.end - p.pos > 5 && !memcmp(cur(&p), "with", 4) &&
		    strchr(" \t\r\n", cur(&p)[4])) {
			p.pos += 4;
			e = parse_with(&p, e, off);
		}
	}
	if (e) {
		skip_space(&p);
		if (p.pos < p.end) {
			syntax(&p, p.pos, 1, "unexpected text after the "
			       "expression");
			e = NULL;
		}
	}
	/* The root holds the tree's memory; a failed parse frees it. */
	if (e)
		e->pool = p.pool;
	else
		pool_free(p.pool);
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

int
expr_reduces(const struct expr *e)
{
	return e && ((e->kind == N_CALL && e->var) || expr_reduces(e->a) ||
		     expr_reduces(e->b) || expr_reduces(e->c) ||
		     expr_reduces(e->by) || expr_reduces(e->distinct));
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

static void names_of(const struct expr *e, struct buf *out);

/* Whether lines ("\nA\nB\n") holds the len bytes at s as a line. */
static int
has_line(const char *lines, const char *s, size_t len)
{
	const char *p = lines;

	while ((p = strchr(p, '\n')) && *++p)
		if (!strncmp(p, s, len) && p[len] == '\n')
			return 1;
	return 0;
}

/* Appends the len bytes at s and a newline to out unless it holds them. */
static void
add_line(struct buf *out, const char *s, size_t len)
{
	if (has_line(out->data, s, len))
		return;
	buf_add(out, s, len);
	buf_addch(out, '\n');
}

/* A reduction's names: those of its variable are no quantity's. */
static void
reduce_names(const struct expr *e, struct buf *out)
{
	struct buf all = BUF_INIT;
	size_t vl = strlen(e->var);
	const char *p;

	buf_addch(&all, '\n');
	names_of(e->b, &all);
	names_of(e->by, &all);
	names_of(e->distinct, &all);
	names_of(e->a, &all);
	for (p = all.data + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, e->var, vl) && p[vl] == '.')
			continue;
		add_line(out, p, len);
	}
	buf_release(&all);
}

/* Appends the distinct quantity names of e, each followed by '\n'. */
static void
names_of(const struct expr *e, struct buf *out)
{
	if (!e)
		return;
	if (e->kind == N_CALL && e->var) {
		reduce_names(e, out);
		return;
	}
	if (e->kind == N_NAME) {
		add_line(out, e->str, strlen(e->str));
		return;
	}
	if (e->kind == N_BIND)
		add_line(out, e->str, strlen(e->str));
	names_of(e->a, out);
	names_of(e->b, out);
	names_of(e->c, out);
}

void
expr_inputs(const struct expr *e, struct buf *out)
{
	if (!out->len || out->data[out->len - 1] != '\n')
		BUG("expr_inputs() appends after a newline");
	names_of(e, out);
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
	return i == 0 ? e->a : i == 1 ? e->b : i == 2 ? e->c : NULL;
}

void
expr_reduction_keys(const struct expr *e, const struct expr **by,
		    const struct expr **distinct)
{
	*by = e->by;
	*distinct = e->distinct;
}
