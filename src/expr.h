#ifndef EXPR_H
#define EXPR_H

#include <stddef.h>

struct buf;
struct quantity;
struct registry;
struct srcfile;

/*
 * Expressions of the template language ({{ ... }} slots): numbers,
 * strings, quantity names, arithmetic, comparisons, logic and a few
 * functions (docs/templates.md). Parsing keeps the byte offset of every
 * node so that evaluation errors point at the culprit.
 */
struct expr;

enum value_type {
	VALUE_NUMBER,
	VALUE_TEXT,
};

struct value {
	enum value_type type;
	double num;
	char *text;			/* VALUE_TEXT: owned */
	const struct quantity *q;	/* the quantity when the expression
					   is a bare name, else NULL;
					   borrowed from the registry */
};

/*
 * How names are looked up: resolve() maps a name as written (perhaps a
 * loop variable such as "d.name") to a registry name, appended to out;
 * it returns 0, or -1 when the name is not one it rewrites (then the name
 * is looked up as written). has(NAME) goes through the same resolve().
 */
struct expr_env {
	const struct registry *reg;
	int (*resolve)(void *ctx, const char *name, struct buf *out);
	void *ctx;
	int missing_ok;		/* an unknown quantity is no error: for a
				   slot with a fallback (| or:"...") */
};

/*
 * Parses the len bytes at byte offset off of f. Returns the tree, or
 * NULL after printing every syntax error (file:line:col with a caret).
 * Free with expr_free().
 */
struct expr *expr_parse(const struct srcfile *f, size_t off, size_t len);
void expr_free(struct expr *e);

/*
 * Evaluates e. Returns 0 and fills *out (release with value_release()),
 * or -1 after printing an error: unknown quantity (with the closest
 * names), type mismatch, a result that is not finite. With
 * env->missing_ok, a name that is no quantity makes it return 1 instead,
 * without a word (other errors stay errors); has(NAME) never fails.
 */
int expr_eval(const struct expr *e, const struct expr_env *env,
	      struct value *out);
void value_release(struct value *v);

/*
 * Appends to out, for a failed assertion, each name e mentions, once and
 * in the order written, with its value: "a.b = 2145.27, c = 'text'",
 * "has(current.phone) = 0", "x.y = (no such quantity)". Loop variables
 * appear under the registry name they stand for. Prints nothing.
 */
void expr_values(const struct expr *e, const struct expr_env *env,
		 struct buf *out);

/* The name as written when e is a bare quantity name, else NULL. */
const char *expr_name(const struct expr *e);
/* Truthiness: a number other than 0, a non-empty text. */
int value_truthy(const struct value *v);

#endif
