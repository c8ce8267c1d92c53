/*
 * The MathML writer (mathml.h): a formula's expression tree -> <math>,
 * for the quantities page and the report's equations. Reads the tree
 * through expr.h and symbols from the registry; writes into a buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "expr.h"
#include "hash.h"
#include "mathml.h"
#include "registry.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A family's index in one formula ("d" of "m_d") and the row it stands
 * for there ("macbook_2008"), when every member of the formula with
 * that index has that row: then the members keep their family's
 * symbols, and the formula ends in "d = macbook_2008".
 */
struct binding {
	const char *index;	/* borrowed from a symbol; not NUL-ended */
	size_t len;
	const char *row;	/* borrowed from a quantity */
	int clash;		/* two rows: each member writes its own */
};

#define MAX_BINDINGS 8

struct writer {
	struct buf *out;
	const struct registry *reg;
	const char *page;	/* symbols link to page#name; NULL: no links */
	const struct mathml_links *links;	/* or here; NULL: page */
	struct binding bind[MAX_BINDINGS];
	size_t nbind;
	int solid;		/* the next linked symbol: not space-like */
	struct buf *seen;	/* NULL, or each name looked up, NUL-ended */
};

/* The quantity name stands for in w's registry, noted in w->seen. */
static const struct quantity *
lookup(const struct registry *reg, struct buf *seen, const char *name)
{
	if (seen)
		buf_add(seen, name, strlen(name) + 1);
	return reg ? registry_get(reg, name) : NULL;
}

/* Binding strength: what an operand must exceed to go without parens. */
enum {
	P_LOGIC = 0,
	P_CMP = 1,
	P_SUM = 2,
	P_PROD = 3,	/* products, a leading minus, 2.5 x 10^3 */
	P_POW = 4,	/* a power, 10^8 */
	P_ATOM = 5,	/* names, numbers, calls, fractions, roots */
};

/* The number as written, split at its exponent: "2.5e-3". */
static int
sci_parts(const struct expr *e, const char **mant, size_t *mlen,
	  const char **exp)
{
	const char *t = expr_text(e), *x;

	if (!t || !(x = strpbrk(t, "eE")))
		return 0;
	*mant = t;
	*mlen = (size_t)(x - t);
	*exp = x + 1;
	if (**exp == '+')
		(*exp)++;
	return 1;
}

/* The exponent of a power written as a root: 1/2 -> 2, 1/3 -> 3, else 0. */
static int
root_index(const struct expr *p)
{
	const struct expr *a, *b;
	double n;

	if (expr_kind(p) != EXPR_BIN || expr_op(p) != EXPR_DIV)
		return 0;
	a = expr_arg(p, 0);
	b = expr_arg(p, 1);
	if (expr_kind(a) != EXPR_NUM || expr_num(a) != 1 ||
	    expr_kind(b) != EXPR_NUM)
		return 0;
	n = expr_num(b);
	return n >= 2 && n <= 9 && n == (int)n ? (int)n : 0;
}

static int
prec(const struct expr *e)
{
	const char *m, *x;
	size_t ml;

	switch (expr_kind(e)) {
	case EXPR_NUM:
		if (sci_parts(e, &m, &ml, &x))
			return ml == 1 && *m == '1' ? P_POW : P_PROD;
		return expr_num(e) < 0 ? P_PROD : P_ATOM;
	case EXPR_NEG:
	case EXPR_NOT:
		return P_PROD;
	case EXPR_BIN:
		switch (expr_op(e)) {
		case EXPR_OR:
		case EXPR_AND:
			return P_LOGIC;
		case EXPR_EQ: case EXPR_NE: case EXPR_LT: case EXPR_LE:
		case EXPR_GT: case EXPR_GE:
			return P_CMP;
		case EXPR_ADD:
		case EXPR_SUB:
			return P_SUM;
		case EXPR_MUL:
			return P_PROD;
		case EXPR_DIV:
			return P_ATOM;
		case EXPR_POW:
			return root_index(expr_arg(e, 1)) ? P_ATOM : P_POW;
		}
		break;
	default:
		break;
	}
	return P_ATOM;
}

static void node(struct writer *w, const struct expr *e);

/*
 * Not buf_addf(): an operator is written some 4,500 times in one edition
 * (202.3M -> 199.2M instructions; every edition, 15M fewer).
 */
static void
mo(struct writer *w, const char *op)
{
	BUF_ADDLIT(w->out, "<mo>");
	buf_addstr(w->out, op);
	BUF_ADDLIT(w->out, "</mo>");
}

/* e, in parentheses when it binds less tightly than min. */
static void
operand(struct writer *w, const struct expr *e, int min)
{
	if (prec(e) >= min) {
		node(w, e);
		return;
	}
	BUF_ADDLIT(w->out, "<mrow>");
	mo(w, "(");
	node(w, e);
	mo(w, ")");
	BUF_ADDLIT(w->out, "</mrow>");
}

/* e as one element: inside <mfrac>, <msup>... */
static void
group(struct writer *w, const struct expr *e)
{
	BUF_ADDLIT(w->out, "<mrow>");
	node(w, e);
	BUF_ADDLIT(w->out, "</mrow>");
}

/* The number as written; 1e8 as 10 to the 8, 2.5e-3 with "x 10". */
static void
number(struct writer *w, const struct expr *e)
{
	const char *m, *x, *t = expr_text(e);
	size_t ml;

	if (t && !strcmp(t, "pi")) {
		BUF_ADDLIT(w->out, "<mi>\xcf\x80</mi>");
		return;
	}
	if (!sci_parts(e, &m, &ml, &x)) {
		BUF_ADDLIT(w->out, "<mn>");
		if (t)
			html_text(w->out, t);
		else
			buf_addf(w->out, "%g", expr_num(e));
		BUF_ADDLIT(w->out, "</mn>");
		return;
	}
	if (!(ml == 1 && *m == '1')) {
		BUF_ADDLIT(w->out, "<mrow><mn>");
		buf_add(w->out, m, ml);
		BUF_ADDLIT(w->out, "</mn>");
		mo(w, "\xc3\x97");
	}
	BUF_ADDLIT(w->out, "<msup><mn>10</mn>");
	if (*x == '-')
		buf_addf(w->out, "<mrow><mo>\xe2\x88\x92</mo><mn>%s</mn>"
			 "</mrow>", x + 1);
	else
		buf_addf(w->out, "<mn>%s</mn>", x);
	BUF_ADDLIT(w->out, "</msup>");
	if (!(ml == 1 && *m == '1'))
		BUF_ADDLIT(w->out, "</mrow>");
}

/* One UTF-8 character or more: a one-character symbol is italic. */
static int
one_char(const char *s, size_t len)
{
	size_t n = 1;

	if ((unsigned char)s[0] >= 0xc0)
		while (n < len && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
	return n == len;
}

static void
mi(const struct writer *w, const char *s, size_t len)
{
	struct buf *out = w->out;

	BUF_ADDLIT(out, "<mi");
	if (!one_char(s, len))
		BUF_ADDLIT(out, " mathvariant=\"normal\"");
	BUF_ADDLIT(out, ">");
	{
		char *t = xstrndup(s, len);

		html_text(out, t);
		free(t);
	}
	BUF_ADDLIT(out, "</mi>");
}

/*
 * A symbol cut for writing: its base ("E" of "E_max") and its
 * subscript. A family member's row (q->row) takes the place of the
 * subscript's last item, the family's index: "m_d" of
 * device.macbook_2008.mass is m with macbook_2008 below, "t_ops,d" is
 * t with "ops," and the row below. A name written for want of a symbol
 * is whole: its '_' is text.
 */
struct symparts {
	char *base;
	char *sub;		/* "" when none; the row follows it */
	const char *row;	/* borrowed from q; NULL when none */
};

/* The index of a member's symbol: its subscript's last item, or NULL. */
static const char *
symbol_index(const struct quantity *q, size_t *len)
{
	const char *us, *comma;

	if (!q || !q->symbol || !q->row || !(us = strchr(q->symbol, '_')))
		return NULL;
	comma = strrchr(us + 1, ',');
	us = comma ? comma + 1 : us + 1;
	*len = strlen(us);
	return *len ? us : NULL;
}

/* The binding of q's index in w, or NULL (none, or a clash). */
static const struct binding *
bound(const struct writer *w, const struct quantity *q)
{
	const char *idx;
	size_t len, i;

	if (!(idx = symbol_index(q, &len)))
		return NULL;
	for (i = 0; i < w->nbind; i++)
		if (w->bind[i].len == len &&
		    !memcmp(w->bind[i].index, idx, len))
			return w->bind[i].clash ? NULL : &w->bind[i];
	return NULL;
}

static void
symparts_init(struct symparts *sp, const struct writer *w, const char *sym,
	      const struct quantity *q)
{
	const char *us = q && q->symbol ? strchr(sym, '_') : NULL;
	size_t sublen = us ? strlen(us + 1) : 0;

	/* A bound index is written as it is: "d", said once at the end. */
	sp->row = q && q->symbol && !bound(w, q) ? q->row : NULL;
	sp->base = xstrndup(sym, us ? (size_t)(us - sym) : strlen(sym));
	if (sp->row && us) {
		const char *comma = strrchr(us + 1, ',');

		/* The index goes; a comma before it stays. */
		sublen = comma ? (size_t)(comma + 1 - (us + 1)) : 0;
	}
	sp->sub = xstrndup(us ? us + 1 : "", sublen);
}

static void
symparts_release(struct symparts *sp)
{
	free(sp->base);
	free(sp->sub);
}

/*
 * A linked quantity's symbol, as HTML inside <mtext>: a link with a
 * title (the quantity's name and unit), which every browser follows and
 * shows on hover, where MathML's own href is ignored by Chromium and
 * MathML elements take no title. A one-letter symbol is italic, a
 * subscript ("E_max") upright below it, a member's row in it set apart
 * (class "row"); a quantity with no symbol is written as its whole
 * name, upright.
 */
static void
linked_symbol(struct writer *w, const char *sym, const struct quantity *q)
{
	struct buf *out = w->out;
	struct symparts sp;
	int one;

	symparts_init(&sp, w, sym, q);
	one = one_char(sp.base, strlen(sp.base));
	/*
	 * Beside a spaced operator, in an <mrow> with an empty <mi>: an
	 * <mtext> alone is space-like (MathML Core), and "a + b" of two of
	 * them would make the "+" an embellished operator, spaced outside
	 * the sum instead of inside (a product's invisible times has no
	 * space to lose).
	 */
	if (w->solid)
		BUF_ADDLIT(out, "<mrow>");
	BUF_ADDLIT(out, "<mtext class=\"sym\"><a href=\"");
	if (w->links) {
		struct buf href = BUF_INIT;

		w->links->href(&href, q->name, w->links->ctx);
		html_attr(out, href.data);
		buf_release(&href);
	} else {
		html_attr(out, w->page);
		buf_addch(out, '#');
		html_attr(out, q->name);
	}
	BUF_ADDLIT(out, "\" title=\"");
	html_attr(out, q->name);
	if (*q->unit) {
		BUF_ADDLIT(out, ", ");
		html_attr(out, q->unit);
	}
	BUF_ADDLIT(out, "\">");
	buf_addstr(out, one ? "<i>" : "<span>");
	html_text(out, sp.base);
	buf_addstr(out, one ? "</i>" : "</span>");
	if (*sp.sub || sp.row) {
		BUF_ADDLIT(out, "<sub>");
		html_text(out, sp.sub);
		if (sp.row) {
			BUF_ADDLIT(out, "<span class=\"row\">");
			html_text(out, sp.row);
			BUF_ADDLIT(out, "</span>");
		}
		BUF_ADDLIT(out, "</sub>");
	}
	BUF_ADDLIT(out, "</a></mtext>");
	if (w->solid)
		BUF_ADDLIT(out, "<mi></mi></mrow>");
	symparts_release(&sp);
}

/*
 * A quantity: its symbol ("E", "E_max": E with max below, upright; a
 * member's row in the subscript) or its name, upright; linked to its
 * entry on the quantities page when the writer links.
 */
static void
symbol(struct writer *w, const char *name, const struct quantity *q)
{
	const char *sym = q && q->symbol ? q->symbol : NULL;
	struct symparts sp;

	if (q && (w->page || w->links)) {
		linked_symbol(w, sym ? sym : name, q);
		return;
	}
	if (!sym) {
		mi(w, name, strlen(name));
		return;
	}
	symparts_init(&sp, w, sym, q);
	if (!*sp.sub && !sp.row) {
		mi(w, sp.base, strlen(sp.base));
	} else {
		BUF_ADDLIT(w->out, "<msub>");
		mi(w, sp.base, strlen(sp.base));
		BUF_ADDLIT(w->out, "<mi mathvariant=\"normal\">");
		html_text(w->out, sp.sub);
		if (sp.row)
			html_text(w->out, sp.row);
		BUF_ADDLIT(w->out, "</mi></msub>");
	}
	symparts_release(&sp);
}

static void
name(struct writer *w, const struct expr *e)
{
	const char *n = expr_text(e);

	symbol(w, n, lookup(w->reg, w->seen, n));
}

/* The first leaf written for e: a number there wants "x" before it. */
static int
starts_with_number(const struct expr *e)
{
	for (;;) {
		switch (expr_kind(e)) {
		case EXPR_NUM:
			return !expr_text(e) || strcmp(expr_text(e), "pi");
		case EXPR_BIN:
			if (expr_op(e) == EXPR_DIV)
				return 0;
			if (expr_op(e) == EXPR_POW &&
			    root_index(expr_arg(e, 1)))
				return 0;
			if (prec(expr_arg(e, 0)) < prec(e))
				return 0;	/* in parentheses */
			e = expr_arg(e, 0);
			break;
		default:
			return 0;
		}
	}
}

/* f(x): the argument in parentheses unless it is a name or a number. */
static void
apply(struct writer *w, const char *fn_mathml, const struct expr *x)
{
	BUF_ADDLIT(w->out, "<mrow>");
	buf_addstr(w->out, fn_mathml);
	if (expr_kind(x) == EXPR_NAME ||
	    (expr_kind(x) == EXPR_NUM && prec(x) == P_ATOM)) {
		/* "ln 2": a thin space where no parenthesis separates. */
		BUF_ADDLIT(w->out, "<mo rspace=\"0.1667em\">&#x2061;</mo>");
		node(w, x);
	} else {
		mo(w, "&#x2061;");
		operand(w, x, P_ATOM + 1);
	}
	BUF_ADDLIT(w->out, "</mrow>");
}

/* ", by KEY" or ", distinct KEY" under a reduction. */
static void
reduction_key(struct writer *w, const char *word, const struct expr *key)
{
	if (!key)
		return;
	mo(w, ",");
	BUF_ADDLIT(w->out, "<mtext>");
	html_text(w->out, word);
	BUF_ADDLIT(w->out, "</mtext>");
	node(w, key);
}

/*
 * A reduction, "max(d in device where COND: EXPR)": max with
 * "d ∈ device : COND" below it (and ", by KEY", ", distinct KEY"),
 * then (EXPR); count has no EXPR.
 */
static void
reduction(struct writer *w, const struct expr *e, const char *var,
	  const char *over)
{
	const struct expr *a = expr_arg(e, 0), *b = expr_arg(e, 1);
	const struct expr *by, *distinct;

	BUF_ADDLIT(w->out, "<mrow><munder><mi>");
	html_text(w->out, expr_text(e));
	BUF_ADDLIT(w->out, "</mi><mrow>");
	mi(w, var, strlen(var));
	mo(w, "\xe2\x88\x88");
	BUF_ADDLIT(w->out, "<mtext>");
	html_text(w->out, over);
	BUF_ADDLIT(w->out, "</mtext>");
	if (b) {
		mo(w, ":");
		node(w, b);
	}
	expr_reduction_keys(e, &by, &distinct);
	reduction_key(w, "by\xc2\xa0", by);
	reduction_key(w, "distinct\xc2\xa0", distinct);
	BUF_ADDLIT(w->out, "</mrow></munder>");
	if (a) {
		mo(w, "&#x2061;");
		BUF_ADDLIT(w->out, "<mrow>");
		mo(w, "(");
		node(w, a);
		mo(w, ")");
		BUF_ADDLIT(w->out, "</mrow>");
	}
	BUF_ADDLIT(w->out, "</mrow>");
}

static void
call(struct writer *w, const struct expr *e)
{
	const char *f = expr_text(e), *over;
	const struct expr *a = expr_arg(e, 0), *b = expr_arg(e, 1);
	const char *var = expr_reduction(e, &over);

	if (var) {
		reduction(w, e, var, over);
	} else if (!strcmp(f, "if")) {
		/* Cases: THEN if COND, ELSE otherwise. */
		BUF_ADDLIT(w->out, "<mrow>");
		mo(w, "{");
		BUF_ADDLIT(w->out, "<mtable columnalign=\"left\"><mtr><mtd>");
		node(w, a);
		BUF_ADDLIT(w->out, "</mtd><mtd><mtext>if\xc2\xa0</mtext>");
		node(w, b);
		BUF_ADDLIT(w->out, "</mtd></mtr><mtr><mtd>");
		node(w, expr_arg(e, 2));
		BUF_ADDLIT(w->out, "</mtd><mtd><mtext>otherwise</mtext></mtd>"
			   "</mtr></mtable></mrow>");
	} else if (!strcmp(f, "log10") || !strcmp(f, "log2")) {
		apply(w, f[3] == '1' ? "<msub><mi>log</mi><mn>10</mn></msub>" :
		      "<msub><mi>log</mi><mn>2</mn></msub>", a);
	} else if (!strcmp(f, "ln")) {
		apply(w, "<mi>ln</mi>", a);
	} else if (!strcmp(f, "exp")) {
		BUF_ADDLIT(w->out, "<msup><mi>e</mi>");
		group(w, a);
		BUF_ADDLIT(w->out, "</msup>");
	} else if (!strcmp(f, "sqrt")) {
		BUF_ADDLIT(w->out, "<msqrt>");
		node(w, a);
		BUF_ADDLIT(w->out, "</msqrt>");
	} else if (!strcmp(f, "pow")) {
		BUF_ADDLIT(w->out, "<msup>");
		operand(w, a, P_ATOM);
		group(w, b);
		BUF_ADDLIT(w->out, "</msup>");
	} else if (!strcmp(f, "abs") || !strcmp(f, "floor") ||
		   !strcmp(f, "ceil")) {
		const char *l = *f == 'a' ? "|" : *f == 'f' ? "\xe2\x8c\x8a" :
				"\xe2\x8c\x88";
		const char *r = *f == 'a' ? "|" : *f == 'f' ? "\xe2\x8c\x8b" :
				"\xe2\x8c\x89";

		BUF_ADDLIT(w->out, "<mrow>");
		mo(w, l);
		node(w, a);
		mo(w, r);
		BUF_ADDLIT(w->out, "</mrow>");
	} else {
		/* min, max, round and the rest: written out. */
		BUF_ADDLIT(w->out, "<mrow><mi>");
		html_text(w->out, f);
		BUF_ADDLIT(w->out, "</mi>");
		mo(w, "&#x2061;");
		BUF_ADDLIT(w->out, "<mrow>");
		mo(w, "(");
		if (a)
			node(w, a);
		if (b) {
			mo(w, ",");
			node(w, b);
		}
		mo(w, ")");
		BUF_ADDLIT(w->out, "</mrow></mrow>");
	}
}

/* An operand of a spaced operator (+, =, <): a name not space-like. */
static void
spaced_operand(struct writer *w, const struct expr *e, int min)
{
	w->solid = expr_kind(e) == EXPR_NAME;
	operand(w, e, min);
	w->solid = 0;
}

static void
binary(struct writer *w, const struct expr *e)
{
	static const char *const ops[] = {
		[EXPR_OR] = "\xe2\x88\xa8", [EXPR_AND] = "\xe2\x88\xa7",
		[EXPR_EQ] = "=", [EXPR_NE] = "\xe2\x89\xa0",
		[EXPR_LT] = "&lt;", [EXPR_LE] = "\xe2\x89\xa4",
		[EXPR_GT] = "&gt;", [EXPR_GE] = "\xe2\x89\xa5",
		[EXPR_ADD] = "+", [EXPR_SUB] = "\xe2\x88\x92",
	};
	const struct expr *a = expr_arg(e, 0), *b = expr_arg(e, 1);
	enum expr_op op = expr_op(e);
	int p = prec(e), k;

	switch (op) {
	case EXPR_DIV:
		BUF_ADDLIT(w->out, "<mfrac>");
		group(w, a);
		group(w, b);
		BUF_ADDLIT(w->out, "</mfrac>");
		return;
	case EXPR_POW:
		if ((k = root_index(b))) {
			if (k == 2) {
				BUF_ADDLIT(w->out, "<msqrt>");
				node(w, a);
				BUF_ADDLIT(w->out, "</msqrt>");
			} else {
				BUF_ADDLIT(w->out, "<mroot>");
				group(w, a);
				buf_addf(w->out, "<mn>%d</mn></mroot>", k);
			}
			return;
		}
		BUF_ADDLIT(w->out, "<msup>");
		/* A power of a power, a fraction, a sum: in parentheses. */
		operand(w, a, P_ATOM + (expr_kind(a) == EXPR_BIN ||
					expr_kind(a) == EXPR_CALL));
		group(w, b);
		BUF_ADDLIT(w->out, "</msup>");
		return;
	case EXPR_MUL:
		BUF_ADDLIT(w->out, "<mrow>");
		operand(w, a, P_PROD);
		/* 2 x 3 and E x 2 need a sign; 2 E and m c^2 do not. */
		if (starts_with_number(b) && prec(b) >= P_PROD)
			mo(w, "\xc3\x97");
		else if (expr_kind(b) == EXPR_CALL)
			/* "k T ln 2": a thin space before a function. */
			BUF_ADDLIT(w->out, "<mo lspace=\"0.1667em\">"
				   "&#x2062;</mo>");
		else
			mo(w, "&#x2062;");
		operand(w, b, expr_kind(b) == EXPR_NEG ? P_ATOM : P_PROD);
		BUF_ADDLIT(w->out, "</mrow>");
		return;
	default:
		break;
	}
	BUF_ADDLIT(w->out, "<mrow>");
	spaced_operand(w, a, p);
	mo(w, ops[op]);
	/* a - (b + c), a - (-b), a < (b < c): the right side binds more. */
	spaced_operand(w, b, expr_kind(b) == EXPR_NEG ? P_ATOM : p + 1);
	BUF_ADDLIT(w->out, "</mrow>");
}

static void
node(struct writer *w, const struct expr *e)
{
	switch (expr_kind(e)) {
	case EXPR_NUM:
		number(w, e);
		return;
	case EXPR_STR:
		BUF_ADDLIT(w->out, "<ms>");
		html_text(w->out, expr_text(e));
		BUF_ADDLIT(w->out, "</ms>");
		return;
	case EXPR_NAME:
		name(w, e);
		return;
	case EXPR_NEG:
	case EXPR_NOT:
		BUF_ADDLIT(w->out, "<mrow>");
		mo(w, expr_kind(e) == EXPR_NEG ? "\xe2\x88\x92" : "\xc2\xac");
		operand(w, expr_arg(e, 0), P_PROD + 1);
		BUF_ADDLIT(w->out, "</mrow>");
		return;
	case EXPR_BIN:
		binary(w, e);
		return;
	case EXPR_CALL:
		call(w, e);
		return;
	case EXPR_WITH:
		/* E evaluated at a = x, b = y: E with a bar and those below. */
		BUF_ADDLIT(w->out, "<mrow>");
		operand(w, expr_arg(e, 0), P_ATOM);
		BUF_ADDLIT(w->out, "<msub><mo stretchy=\"true\">|</mo><mrow>");
		for (e = expr_arg(e, 1); e; e = expr_arg(e, 1)) {
			mi(w, expr_text(e), strlen(expr_text(e)));
			mo(w, "=");
			node(w, expr_arg(e, 0));
			if (expr_arg(e, 1))
				mo(w, ",");
		}
		BUF_ADDLIT(w->out, "</mrow></msub></mrow>");
		return;
	case EXPR_BIND:
		break;
	}
	BUG("expression kind %d", (int)expr_kind(e));
}

/* Notes q's index and row in w's bindings (a second row: a clash). */
static void
bind(struct writer *w, const struct quantity *q)
{
	const char *idx;
	size_t len, i;

	if (!(idx = symbol_index(q, &len)))
		return;
	for (i = 0; i < w->nbind; i++) {
		struct binding *b = &w->bind[i];

		if (b->len == len && !memcmp(b->index, idx, len)) {
			if (strcmp(b->row, q->row))
				b->clash = 1;
			return;
		}
	}
	if (w->nbind < MAX_BINDINGS) {
		w->bind[w->nbind].index = idx;
		w->bind[w->nbind].len = len;
		w->bind[w->nbind].row = q->row;
		w->bind[w->nbind++].clash = 0;
	}
}

/* The bindings of every name e reads. */
static void
bind_names(struct writer *w, const struct expr *e)
{
	if (!e || !w->reg)
		return;
	if (expr_kind(e) == EXPR_NAME) {
		bind(w, lookup(w->reg, w->seen, expr_text(e)));
		return;
	}
	bind_names(w, expr_arg(e, 0));
	bind_names(w, expr_arg(e, 1));
	bind_names(w, expr_arg(e, 2));
}

/*
 * After the formula: ", d = macbook_2008" for each index bound to one
 * row (a clash is written in the members). Inside an equation's <math>;
 * after an inline formula, each a <math> of its own, so that a line can
 * break before it (a table's cell is no wider than the formula).
 */
static void
bindings(struct writer *w, int block)
{
	size_t i;

	for (i = 0; i < w->nbind; i++) {
		const struct binding *b = &w->bind[i];

		if (b->clash)
			continue;
		if (block)
			BUF_ADDLIT(w->out, "<mo separator=\"true\">,</mo>"
				   "<mspace width=\"0.5em\"></mspace><mrow>");
		else
			BUF_ADDLIT(w->out, ", <math>");
		mi(w, b->index, b->len);
		mo(w, "=");
		BUF_ADDLIT(w->out, "<mtext class=\"row\">");
		html_text(w->out, b->row);
		BUF_ADDLIT(w->out, "</mtext>");
		buf_addstr(w->out, block ? "</mrow>" : "</math>");
	}
}

/* mathml_expr(), its symbols linked to page#name or where links say. */
static void
expr_linked(struct buf *out, const struct expr *e, const struct registry *reg,
	    const struct quantity *lhs, const char *page,
	    const struct mathml_links *links, unsigned flags, struct buf *seen)
{
	struct writer w = { .out = out, .reg = reg, .page = page,
			    .links = links, .seen = seen };

	if (lhs)
		bind(&w, lhs);
	bind_names(&w, e);

	BUF_ADDLIT(out, "<math");
	if (flags & MATHML_BLOCK)
		BUF_ADDLIT(out, " display=\"block\"");
	if (lhs && lhs->expr) {
		/* What a reader without MathML gets: the plain text. */
		BUF_ADDLIT(out, " alttext=\"");
		html_attr(out, lhs->name);
		BUF_ADDLIT(out, " = ");
		html_attr(out, lhs->expr);
		BUF_ADDLIT(out, "\"");
	}
	BUF_ADDLIT(out, ">");
	if (lhs) {
		BUF_ADDLIT(out, "<mrow>");
		w.solid = 1;
		symbol(&w, lhs->name, lhs);
		w.solid = expr_kind(e) == EXPR_NAME;
		mo(&w, "=");
	}
	node(&w, e);
	w.solid = 0;
	if (flags & MATHML_BLOCK)
		bindings(&w, 1);
	if (lhs)
		BUF_ADDLIT(out, "</mrow>");
	BUF_ADDLIT(out, "</math>");
	if (!(flags & MATHML_BLOCK))
		bindings(&w, 0);
}

void
mathml_expr(struct buf *out, const struct expr *e, const struct registry *reg,
	    const struct quantity *lhs, const char *page, unsigned flags)
{
	expr_linked(out, e, reg, lhs, page, NULL, flags, NULL);
}

/*
 * Whether every quantity e names (reg's) has a symbol of its own; a name
 * a reduction binds (d.mass in count(d in device where has(d.mass)))
 * names no quantity, and is written as it is, as is a name of no
 * quantity (a row's empty cell, in a branch of if() not taken).
 */
static int
all_symbols(const struct registry *reg, const struct expr *e,
	    const char *bound, struct buf *seen)
{
	const struct quantity *q;
	const char *over, *var;

	if (!e)
		return 1;
	if (expr_kind(e) == EXPR_NAME) {
		const char *n = expr_text(e);
		size_t bl = bound ? strlen(bound) : 0;

		if (bl && !strncmp(n, bound, bl) && n[bl] == '.')
			return 1;
		/*
		 * A name of no quantity sits in a branch of if() not taken;
		 * a text (a machine's kind) is its name, as it is compared.
		 */
		return !(q = lookup(reg, seen, n)) || q->symbol ||
		       q->type == Q_TEXT;
	}
	if (expr_kind(e) == EXPR_CALL && (var = expr_reduction(e, &over))) {
		const struct expr *by, *distinct;

		bound = var;
		expr_reduction_keys(e, &by, &distinct);
		if (!all_symbols(reg, by, bound, seen) ||
		    !all_symbols(reg, distinct, bound, seen))
			return 0;
	}
	return all_symbols(reg, expr_arg(e, 0), bound, seen) &&
	       all_symbols(reg, expr_arg(e, 1), bound, seen) &&
	       all_symbols(reg, expr_arg(e, 2), bound, seen);
}

/* q's formula typeset into out: 0, or -1 with nothing written. */
static int
typeset(struct buf *out, const struct registry *reg, const struct quantity *q,
	const char *page, const struct mathml_links *links, unsigned flags,
	struct buf *seen)
{
	struct srcfile *f;
	struct expr *e;

	if (!q->expr || ((flags & MATHML_SYMBOLS) && !q->symbol))
		return -1;
	f = srcfile_from_mem(q->name, q->expr, strlen(q->expr));
	e = expr_parse(f, 0, f->len);
	srcfile_free(f);
	if (!e)
		return -1;
	if ((flags & MATHML_SYMBOLS) && !all_symbols(reg, e, NULL, seen)) {
		expr_free(e);
		return -1;
	}
	expr_linked(out, e, reg, q, page, links, flags, seen);
	expr_free(e);
	return 0;
}

/*
 * The memo. A formula's MathML is a function of its quantity's name,
 * formula, symbol, row and unit, of the flags and the page, and of what
 * the writer finds for each name it looks up (present or not; symbol,
 * row and unit; the address links->href gives): the same in every
 * edition for most formulas. An entry keeps the first group as its key,
 * the names looked up, what was found for them (their print) and the
 * result; a formula is taken from its entry when the print is the same
 * in this registry. What the writer does depends on nothing else, so
 * the same print means the same lookups and the same MathML.
 */
struct memo_entry {
	struct memo_entry *next;	/* in its slot */
	uint64_t hash;
	struct buf key, names, print, html;
	int ret;
};

struct mathml_memo {
	struct memo_entry **slot;
	size_t nslots, n;	/* nslots: a power of two */
};

struct mathml_memo *
mathml_memo_new(void)
{
	struct mathml_memo *m = xcalloc(1, sizeof(*m));

	m->nslots = 1024;
	m->slot = xcalloc(m->nslots, sizeof(*m->slot));
	return m;
}

void
mathml_memo_free(struct mathml_memo *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nslots; i++) {
		struct memo_entry *e = m->slot[i], *next;

		for (; e; e = next) {
			next = e->next;
			buf_release(&e->key);
			buf_release(&e->names);
			buf_release(&e->print);
			buf_release(&e->html);
			free(e);
		}
	}
	free(m->slot);
	free(m);
}

/* A field of a key: its length, then its bytes; NULL is not "". */
static void
key_field(struct buf *key, const char *s)
{
	size_t len = s ? strlen(s) : SIZE_MAX;

	buf_add(key, &len, sizeof(len));
	if (s)
		buf_add(key, s, len);
}

/* What the writer finds for the names in seen and for q, into print. */
static void
memo_print(struct buf *print, const struct registry *reg,
	   const struct quantity *q, const struct mathml_links *links,
	   const struct buf *seen)
{
	const char *p;

	if (links)
		links->href(print, q->name, links->ctx);
	buf_addch(print, '\n');
	for (p = seen->data; p < seen->data + seen->len; p += strlen(p) + 1) {
		const struct quantity *x = reg ? registry_get(reg, p) : NULL;

		if (!x) {
			buf_addch(print, '-');
			continue;
		}
		buf_addch(print, '+');
		key_field(print, x->symbol);
		key_field(print, x->row);
		key_field(print, x->unit);
		if (links)
			links->href(print, p, links->ctx);
		buf_addch(print, '\n');
	}
}

static void
memo_grow(struct mathml_memo *m)
{
	size_t n = m->nslots * 2, i;
	struct memo_entry **slot = xcalloc(n, sizeof(*slot));

	for (i = 0; i < m->nslots; i++) {
		struct memo_entry *e = m->slot[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = slot[e->hash & (n - 1)];
			slot[e->hash & (n - 1)] = e;
		}
	}
	free(m->slot);
	m->slot = slot;
	m->nslots = n;
}

/* The entry of key after entry after (NULL: the first), or NULL. */
static struct memo_entry *
memo_find(const struct mathml_memo *m, const struct buf *key,
	  const struct memo_entry *after)
{
	uint64_t h = after ? after->hash : hash_name(key->data, key->len);
	struct memo_entry *e;

	e = after ? after->next : m->slot[h & (m->nslots - 1)];
	for (; e; e = e->next)
		if (e->hash == h && e->key.len == key->len &&
		    !memcmp(e->key.data, key->data, key->len))
			return e;
	return NULL;
}

/* A new entry, empty, under key (which it takes). */
static struct memo_entry *
memo_add(struct mathml_memo *m, struct buf *key)
{
	struct memo_entry *e = xcalloc(1, sizeof(*e));

	buf_init(&e->names);
	buf_init(&e->print);
	buf_init(&e->html);
	e->hash = hash_name(key->data, key->len);
	e->key = *key;
	buf_init(key);
	e->next = m->slot[e->hash & (m->nslots - 1)];
	m->slot[e->hash & (m->nslots - 1)] = e;
	if (++m->n > 2 * m->nslots)
		memo_grow(m);
	return e;
}

/* A key of the caller's: 'T' first, where a formula's has 'F'. */
static void
text_key(struct buf *b, const void *key, size_t len)
{
	buf_addch(b, 'T');
	buf_add(b, key, len);
}

const struct buf *
mathml_memo_text(const struct mathml_memo *m, const void *key, size_t len)
{
	struct buf k = BUF_INIT;
	const struct memo_entry *e;

	text_key(&k, key, len);
	e = memo_find(m, &k, NULL);
	buf_release(&k);
	return e ? &e->html : NULL;
}

void
mathml_memo_keep(struct mathml_memo *m, const void *key, size_t len,
		 const char *html, size_t n)
{
	struct buf k = BUF_INIT;
	struct memo_entry *e;

	text_key(&k, key, len);
	if (!(e = memo_find(m, &k, NULL)))
		e = memo_add(m, &k);
	buf_release(&k);
	buf_reset(&e->html);
	buf_add(&e->html, html, n);
}

/* mathml_formula(), its symbols linked to page#name or where links say. */
static int
formula_linked(struct buf *out, const struct registry *reg,
	       const struct quantity *q, const char *page,
	       const struct mathml_links *links, unsigned flags,
	       struct mathml_memo *m)
{
	struct buf key = BUF_INIT, print = BUF_INIT;
	struct memo_entry *e;
	size_t at;

	if (!m)
		return typeset(out, reg, q, page, links, flags, NULL);
	buf_addch(&key, 'F');
	buf_add(&key, &flags, sizeof(flags));
	key_field(&key, links ? NULL : page);
	key_field(&key, q->name);
	key_field(&key, q->expr);
	key_field(&key, q->symbol);
	key_field(&key, q->row);
	key_field(&key, q->unit);
	/*
	 * Each of the formula's entries (one for each way its names were
	 * found: a row picked otherwise in an older edition), the one
	 * whose print this registry gives.
	 */
	for (e = memo_find(m, &key, NULL); e; e = memo_find(m, &key, e)) {
		buf_reset(&print);
		memo_print(&print, reg, q, links, &e->names);
		if (print.len == e->print.len &&
		    !memcmp(print.data, e->print.data, print.len)) {
			buf_add(out, e->html.data, e->html.len);
			buf_release(&key);
			buf_release(&print);
			return e->ret;
		}
	}
	e = memo_add(m, &key);
	at = out->len;
	e->ret = typeset(out, reg, q, page, links, flags, &e->names);
	buf_add(&e->html, out->data + at, out->len - at);
	memo_print(&e->print, reg, q, links, &e->names);
	buf_release(&print);
	return e->ret;
}

int
mathml_formula(struct buf *out, const struct registry *reg,
	       const struct quantity *q, const char *page, unsigned flags,
	       struct mathml_memo *m)
{
	return formula_linked(out, reg, q, page, NULL, flags, m);
}

int
mathml_formula_linked(struct buf *out, const struct registry *reg,
		      const struct quantity *q,
		      const struct mathml_links *links, unsigned flags,
		      struct mathml_memo *m)
{
	return formula_linked(out, reg, q, NULL, links, flags, m);
}
