#ifndef EXPR_H
#define EXPR_H

#include <stddef.h>

#include "units.h"

struct buf;
struct expr_bufs;
struct expr_formulas;
struct expr_with;
struct quantity;
struct suggest;
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
	struct unit unit;		/* VALUE_NUMBER: num is in this unit */
	/*
	 * The unit as written (a quantity's, in:"L"), or NULL: borrowed
	 * from what outlives the value (the registry, the documents, the
	 * catalogue); a copy of each was 1.5% of a report's instructions.
	 */
	const char *utext;
	int literal;			/* made of numbers alone: compares
					   with a value of any unit */
	/*
	 * The data row a row-valued reduction (first, last, largest,
	 * smallest) took its value from: "file:line" and the row's
	 * source, or NULL. Owned.
	 */
	char *origin, *source;
};

/*
 * Rows a reduction may range over that are no family of the registry:
 * the rows of a data file, or of a set of rows the model document
 * names (modelrows.c). Row i's VAR.rest is get(ctx, i, rest, out).
 */
struct expr_rows {
	size_t n;
	void *ctx;
	/*
	 * VAR.rest of row i (rest without the dot): 0 and *out (release
	 * it with value_release()); 1 when the row has no such value (an
	 * empty cell, or i past the rows), out untouched; 2 when rest
	 * names nothing the rows have; -1 after an error. With out NULL,
	 * only whether it has one (0, 1 or 2).
	 */
	int (*get)(void *ctx, size_t i, const char *rest, struct value *out);
	/* Row i's "file:line", appended to origin; returns its source. */
	const char *(*where)(void *ctx, size_t i, struct buf *origin);
	/* Offers each name the rows have, for a "did you mean". */
	void (*names)(void *ctx, struct suggest *sg);
	const char *what;	/* the rows, for messages: "top500.csv" */
	const char *file;	/* the data file they are rows of, or NULL */
	/*
	 * Each row's number among the rows of file, in order: a row has
	 * the same number in every edition of a run. NULL: unknown (the
	 * rows of a set). With it, a run checks a row once (modeldoc.h).
	 */
	const size_t *ids;
};

/* A reduction's variable bound to row i of rows, inside another's. */
struct expr_bound {
	const char *var;
	const struct expr_rows *rows;
	size_t i;
	const struct expr_bound *next;
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
	/*
	 * The rows of a reduction's PREFIX when they are no family of
	 * the registry: 0 and *out set, 1 when over is none of them (the
	 * registry's rows are taken). NULL: the registry's alone.
	 */
	int (*rows)(void *ctx, const char *over, struct expr_rows *out);
	/* Variables bound to rows (VAR.rest is that row's), or NULL. */
	const struct expr_bound *bound;
	/*
	 * Why name, unknown, is not a quantity, appended to hint for its
	 * error (" (...)"), or nothing; NULL: no more said.
	 */
	void (*why_missing)(void *ctx, const char *name, struct buf *hint);
	/*
	 * Where "with" keeps the formulas it evaluates anew, each parsed
	 * once (expr_formulas_new()), or NULL: parsed at each use. The
	 * registry's quantities must outlive it.
	 */
	struct expr_formulas *formulas;
	/* Buffers to borrow for names (expr_bufs_new()), or NULL. */
	struct expr_bufs *bufs;
	/* private: the values a "with" gives, and what follows from them */
	struct expr_with *with;
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

/*
 * The formulas "with" has parsed (expr_env's formulas): a dataset
 * evaluates one "with" for each of its points, and a formula parsed
 * for each was 4.6% of a whole report's instructions (callgrind). Free
 * with expr_formulas_free(); NULL is fine.
 */
struct expr_formulas;
struct expr_formulas *expr_formulas_new(void);
void expr_formulas_free(struct expr_formulas *fs);

/*
 * Buffers lent and given back, the last taken first, kept for the next
 * borrower: a name resolved, a formula written, without a malloc() and
 * a free() each (11% of the model's instructions). expr_buf_take()
 * returns an empty buffer; expr_buf_give() takes it back (BUG when it
 * is not the last taken). expr_bufs_free() frees them all (BUG when one
 * is lent); NULL is fine.
 */
struct expr_bufs;
struct expr_bufs *expr_bufs_new(void);
struct buf *expr_buf_take(struct expr_bufs *bs);
void expr_buf_give(struct expr_bufs *bs, struct buf *b);
void expr_bufs_free(struct expr_bufs *bs);
void value_release(struct value *v);

/*
 * Appends to out, for a failed assertion, each name e mentions, once and
 * in the order written, with its value: "a.b = 2145.27, c = 'text'",
 * "has(current.phone) = 0", "x.y = (no such quantity)". Loop variables
 * appear under the registry name they stand for. Prints nothing.
 */
void expr_values(const struct expr *e, const struct expr_env *env,
		 struct buf *out);

/*
 * Appends to out, which must end in a newline, each name e reads that
 * out does not hold yet, followed by a newline, in the order written:
 * the inputs of a formula.
 */
void expr_inputs(const struct expr *e, struct buf *out);

/*
 * The unit of v as text, for messages and the unit format: the unit as
 * written when known, else its dimension (unit_format()), or "a pure
 * number". Appends to out.
 */
void value_unit_text(const struct value *v, struct buf *out);

/*
 * For a condition e that is false in env: the names to blame, most
 * first, each once, as lines after a newline appended to out ("\nr.mass_kg
 * \nr.prev.mass_kg\n"): a name bound to a row as written, any other as
 * it resolves. For an error at the data cell that fails a check.
 */
void expr_culprits(const struct expr *e, const struct expr_env *env,
		   struct buf *out);
/*
 * Of a condition e false in env, the part that makes it so: of "and"
 * its first false side, of if() its branch taken, down to a part that
 * is neither. For the values a message about a failed check lists.
 */
const struct expr *expr_failing(const struct expr *e,
				const struct expr_env *env);

/*
 * Checks the formula of q (q->expr) against the registry: it parses,
 * it names q's inputs (all of them, and no other name of a quantity: a
 * name of none sits in a branch of if() not taken), its dimension is the
 * one of q's unit (SI dimensions and calendar years; counts such as bit
 * and ops are pure numbers to physics, units.h), and evaluated with the
 * values of its inputs it gives q's value to 1e-12 relative, exactly
 * for calendar years and whole numbers. Returns 0 (also when q has no
 * expr), 1 when the formula reduces over a data file's rows, which the
 * registry does not hold (its names checked, its value not), or -1
 * after an error naming q.
 */
int expr_check_formula(const struct registry *reg, const struct quantity *q);

/*
 * The tree, read-only, for the MathML writer (mathml.c). Kinds and
 * operators mirror the grammar; pi is a number whose text is "pi".
 */
enum expr_kind {
	EXPR_NUM,
	EXPR_STR,
	EXPR_NAME,
	EXPR_NEG,
	EXPR_NOT,
	EXPR_BIN,
	EXPR_CALL,
	EXPR_WITH,	/* expr_arg(e, 0) with the bindings from arg 1 */
	EXPR_BIND,	/* expr_text(e) = expr_arg(e, 0); arg 1: the next */
};
enum expr_op {
	EXPR_OR, EXPR_AND, EXPR_EQ, EXPR_NE, EXPR_LT, EXPR_LE, EXPR_GT,
	EXPR_GE, EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_DIV, EXPR_POW,
};
enum expr_kind expr_kind(const struct expr *e);
enum expr_op expr_op(const struct expr *e);		/* EXPR_BIN */
double expr_num(const struct expr *e);			/* EXPR_NUM */
/* EXPR_NUM: the number as written ("pi", "1e8"); EXPR_STR, EXPR_NAME: the
 * text; EXPR_CALL: the function's name. */
const char *expr_text(const struct expr *e);
/* Operands and arguments: 0, 1 and 2 (if's third); NULL when there is
 * none. */
const struct expr *expr_arg(const struct expr *e, int i);

/*
 * For a reduction (EXPR_CALL "max", "min", "count", "first", "last",
 * "largest", "smallest" or "join", written "max(d in device where COND:
 * EXPR)"): its variable, and its prefixes into *over (space-separated);
 * its EXPR is expr_arg(e, 0) (NULL for count), its COND expr_arg(e, 1)
 * (or NULL). NULL for any other node.
 */
const char *expr_reduction(const struct expr *e, const char **over);
/* Whether e or an expression in it is a reduction; 0 for NULL. */
int expr_reduces(const struct expr *e);
/* A reduction's "by KEY" and "distinct KEY" (each NULL when absent). */
void expr_reduction_keys(const struct expr *e, const struct expr **by,
			 const struct expr **distinct);

/* Where e is in its source, for messages. */
const struct srcloc *expr_loc(const struct expr *e);

/* The name as written when e is a bare quantity name, else NULL. */
const char *expr_name(const struct expr *e);
/*
 * The text that keys v for "distinct" (numbers exactly, in coherent SI
 * units; texts as they are), into out (reset first).
 */
void value_key(const struct value *v, struct buf *out);
/* Truthiness: a number other than 0, a non-empty text. */
int value_truthy(const struct value *v);

#endif
