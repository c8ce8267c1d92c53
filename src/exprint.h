#ifndef EXPRINT_H
#define EXPRINT_H

/*
 * What the expression parser (expr.c) and its evaluator (exprval.c)
 * share: the tree. Not for other modules: they use expr.h.
 */
#include <stddef.h>

#include "diag.h"
#include "expr.h"

struct mempool;

enum node_kind {
	N_NUM,
	N_STR,
	N_NAME,
	N_NEG,
	N_NOT,
	N_BIN,
	N_CALL,
	N_WITH,		/* a "with" b, a chain of N_BIND */
	N_BIND,		/* str = a, then the next binding in b */
};

enum binop {
	OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW,
};

/* The public names of kinds and operators (expr.h) are these. */
_Static_assert((int)N_CALL == (int)EXPR_CALL && (int)OP_POW == (int)EXPR_POW &&
	       (int)OP_ADD == (int)EXPR_ADD && (int)N_BIN == (int)EXPR_BIN,
	       "enum expr_kind and enum expr_op follow the parser's");

/* The operators as written, indexed by enum binop. */
extern const char *const expr_binop_text[];

enum fn_kind {
	FN_MATH,	/* numbers in, a number out */
	FN_META,	/* a quantity name in, its unit, formula... as text */
	FN_HAS,		/* a name in, 1 when it or names below it exist */
	FN_SHOW,	/* a name in, its formula typeset: template.c */
	FN_CITE,	/* a reference's key in, a citation: template.c */
	FN_COUNT,	/* a reduction alone: count(VAR in PREFIX) */
	FN_ROWS,	/* a reduction alone, of a row's value: first(...) */
	FN_IF,		/* if(COND, THEN, ELSE): one branch evaluated */
};

struct func {
	const char *name;
	int nargs;
	enum fn_kind kind;
	double (*f1)(double);
	double (*f2)(double, double);
};

struct expr {
	enum node_kind kind;
	struct srcloc loc;
	double num;			/* N_NUM */
	char *str;			/* N_STR text, N_NAME name */
	enum binop op;			/* N_BIN */
	const struct func *fn;		/* N_CALL */
	struct expr *a, *b, *c;		/* operands, call arguments; a
					   reduction's EXPR and COND */
	struct expr *by, *distinct;	/* a reduction's keys, or NULL */
	int height;			/* of the tree below, leaves 1 */
	/* A reduction (N_CALL of max, min or count): its VAR and its
	 * prefixes, space-separated; NULL for a plain call. */
	char *var, *over;
	/* The root's: every node and string of the tree; NULL below. */
	struct mempool *pool;
};

/* exprval.c's, for exprwhy.c. */
/* Appends the registry name that e (a name, maybe a loop variable) means. */
void expr_resolve_name(const struct expr *e, const struct expr_env *env,
		       struct buf *name);
/*
 * name as a variable bound to a source's row: 0 and *out (NULL: only
 * whether the row has it), 1 when the row has no such value, -1 after
 * an error, 2 when no bound variable starts name. *bp gets the binding.
 */
int expr_bound_get(const struct expr_env *env, const char *name,
		   struct value *out, const struct expr_bound **bp);
/* x, a number in unit from, in unit to (of the same dimension). */
double expr_convert(double x, const struct unit *from, const struct unit *to);
/* The rows of over, each "\nX" for the quantities PREFIX.X.id, into rows. */
void expr_family_rows(const struct registry *reg, const char *over,
		      struct buf *rows);

#endif
