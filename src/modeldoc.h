#ifndef MODELDOC_H
#define MODELDOC_H

#include <stddef.h>

#include "buf.h"

struct bib;
struct buf;
struct datasets;
struct expr_bufs;
struct expr_formulas;
struct expr_rows;
struct modelrows;
struct registry;

/*
 * The model document (data/model.md, docs/templates.md "The model
 * document"): Markdown prose around ```define blocks, each of which
 * states quantities once:
 *
 *	laptop.energy = laptop.mass * const.c^2
 *	  unit: J
 *	  symbol: E
 *	  note: rest energy
 *	  source: [lloyd2000]
 *
 * A definition's value is what its expression evaluates to, in its unit
 * (the dimensions must agree); its inputs are the names the expression
 * reads. A name alone ("laptop.mass", with unit: and symbol:) declares a
 * quantity the data give; "call NAME" runs one of the model's C
 * providers (loading data rows, fits, lookups) at that point. A block
 * that opens with "for d in device current" is a family: each of its
 * definitions ("d.sbops = d.flops * sbops_per_flop", with "when:" an
 * expression that must hold) stands for one quantity per row
 * device.X, current.X (where device.X.id is a quantity). A pick,
 * "current.laptop = largest d in device by d.year, d.flops where d.kind
 * == \"laptop\"", copies the row that wins as current.laptop.*, a row of
 * the families over "current" (docs/templates.md "Picks").
 * Definitions are evaluated in the order written, and a definition that
 * reads one written further down is evaluated first (a loop is an
 * error naming it).
 */
struct modeldoc;

/*
 * Reads and checks path: the blocks' syntax, each expression, units,
 * duplicate names. Returns the document, or NULL after printing every
 * error (file:line:col). Free with modeldoc_free().
 */
struct modeldoc *modeldoc_load(const char *path);
/* The same from len bytes of data, named name in messages (tests). */
struct modeldoc *modeldoc_from_mem(const char *name, const char *data,
				   size_t len);
void modeldoc_free(struct modeldoc *doc);

/*
 * What one document's evaluations in a run (an edition each) share:
 * the rows of a data file for which a set's checks held, so that an
 * edition whose rows of that file begin with those rows, in that order,
 * does not check them again. Kept only for checks that read their row
 * alone (VAR.NAME, and VAR.prev.NAME of the row before it): one that
 * reads a quantity or reduces over rows is made in every edition. For
 * the evaluations of one document (another one starts it afresh), over
 * data that do not change between them.
 */
struct modeldoc_memo *modeldoc_memo_new(void);
void modeldoc_memo_free(struct modeldoc_memo *memo);

/* A provider: a step of the model written in C (model.c). */
struct modeldoc_provider {
	const char *name;
	/* Returns 0, or -1 after printing the errors. */
	int (*run)(void *ctx);
};

struct modeldoc_eval {
	const struct modeldoc *doc;
	struct registry *reg;
	const struct modeldoc_provider *providers;	/* ends with NULL name */
	void *ctx;				/* for the providers */
	/*
	 * The rows of the data file whose prefix is prefix, as of the
	 * edition (rows.h): 0 and *out, or 1 when there is none. NULL:
	 * no data files.
	 */
	int (*file_rows)(void *ctx, const char *prefix, struct expr_rows *out);
	/*
	 * Prints msg as an error at the data cell that gives name (a
	 * quantity, or a column's name in a row) in the row of a data file
	 * at origin ("data/top500.csv:60"), or with of_unit at the cell of
	 * its unit: 0, or 1 when that is no cell (nothing printed). NULL:
	 * errors about the data are told in the document.
	 */
	int (*cell_error)(void *ctx, const char *origin, const char *name,
			  int of_unit, const char *msg);
	/* Where the datasets go (data blocks), or NULL: none computed. */
	struct datasets *ds;
	/* What the editions of a run share (modeldoc_memo_new()), or NULL. */
	struct modeldoc_memo *memo;
	/* private */
	struct modelrows *rows;	/* the sets of rows named, this run's */
	unsigned char *state;	/* per item: 0 to do, 1 busy, 2 done */
	/* The names being evaluated, for loops: borrowed from the names
	 * pushed (modeleval_push()) until they are popped. */
	const char **stack;
	size_t depth;
	/* The family members evaluated (a set of names, open addressing:
	 * a member whose "when:" was false is not asked again): offsets
	 * + 1 into memberbytes, which holds the names, 0 for none. */
	size_t *members;
	struct buf memberbytes;
	size_t nmembers, memberslots;
	struct expr_formulas *formulas;	/* "with"'s, parsed once */
	struct expr_bufs *bufs;	/* the run's buffers, lent and reused */
	int failed;
};

/*
 * Evaluates the document into ev->reg, in order. Returns 0, or -1 after
 * printing the first error (one bad input gives one error).
 */
int modeldoc_run(struct modeldoc_eval *ev);
/*
 * Evaluates only name, and what it reads, when the document defines it
 * (nothing when it does not). Returns 0, or -1 after printing an error.
 */
int modeldoc_run_one(struct modeldoc_eval *ev, const char *name);

/*
 * For a provider (during modeldoc_run() only) that reads a quantity the
 * document defines further down: evaluates it now when it is a definition not yet evaluated.
 * Returns 0 when name is then a quantity (or was already), 1 when the
 * document does not define it, -1 after an error.
 */
int modeldoc_need(struct modeldoc_eval *ev, const char *name);

/*
 * For a provider (during modeldoc_run() only) that has added a row
 * ("device.eee_pc_2008", with its ".id"): evaluates every family of the document over that row's prefix
 * for it now, so that the row's quantities stay together. Returns 0, or
 * -1 after an error.
 */
int modeldoc_row(struct modeldoc_eval *ev, const char *row);

/*
 * The document read back, for the Methods page (methods.c): its parts
 * in order, each prose (Markdown, as written) or a define block (the
 * items from to to, exclusive); and each item's name and kind.
 */
struct modeldoc_part {
	int block;
	const char *text;	/* prose: the bytes, len of them */
	size_t len;
	size_t from, to;	/* block: items */
};
enum modeldoc_kind {
	MODELDOC_DEF,		/* name = expression */
	MODELDOC_GIVEN,		/* a name alone: given by the data */
	MODELDOC_CALL,		/* call provider */
	MODELDOC_PICK,		/* name = largest VAR in PREFIX by KEY */
	MODELDOC_ROWS,		/* name = rows VAR in SOURCE ... */
	MODELDOC_TREND,		/* name = trend VAR in SOURCE ... */
	MODELDOC_DATA,		/* data NAME for VAR in SOURCE: a dataset */
	MODELDOC_COLUMN,	/* one of its columns */
};
/*
 * Whether name is "PREFIX.X.id" for a prefix of over (a family's
 * "device current"): then the row PREFIX.X is in row (reset first).
 */
int modeldoc_row_id(const char *over, const char *name, struct buf *row);

/* A definition or declaration as written (family members unbound). */
struct modeldoc_def {
	const char *name;		/* "d.sbops" in a family */
	const struct expr *expr;	/* NULL for a declaration */
	const char *unit, *symbol, *note, *source;	/* or NULL */
	const char *var, *over;		/* a family's, or NULL */
	/* In a block with "for r in rates": "r"; per_rate when the name
	 * holds "{r}", one quantity per rate. */
	const char *rvar;
	int per_rate;
	/* The expression, name and symbol as the Methods page shows them:
	 * "{r}" as "r" (d.years_r, t_R,r,d). */
	const struct expr *shown;
	const char *shown_name, *shown_symbol;
	const char *pick;		/* a pick's right-hand side on one
					   line ("largest d in device by
					   d.sbops"), or NULL */
	/* A set of rows', a trend's, a dataset's rule on one line ("rows
	 * r in top500 where ..."), its value:, label:, needs: or NULL. */
	const char *rule, *value, *label, *needs;
	const char *text;		/* its expression on one line */
	size_t nchecks;			/* its "check:" lines */
};
void modeldoc_def(const struct modeldoc *doc, size_t i,
		  struct modeldoc_def *out);
/*
 * Checks the works each "source:" cites ("[lloyd2000]") against the
 * references list: an unknown key is an error at it, with the closest
 * keys. Returns 0, or -1 after the errors.
 */
int modeldoc_check_sources(const struct modeldoc *doc, const struct bib *bib);

/*
 * The k-th check of item i (k < nchecks of modeldoc_def()): its
 * condition as written, cond_len bytes at *cond, and its reason.
 */
void modeldoc_check(const struct modeldoc *doc, size_t i, size_t k,
		    const char **cond, size_t *cond_len, const char **why);

/* The k-th rate of the document (a definition with "rate:"), or NULL
 * past the last: what "for r in rates" ranges over. */
const char *modeldoc_rate(const struct modeldoc *doc, size_t k);
size_t modeldoc_nparts(const struct modeldoc *doc);
size_t modeldoc_nitems(const struct modeldoc *doc);
void modeldoc_part(const struct modeldoc *doc, size_t i,
		   struct modeldoc_part *out);
const char *modeldoc_item(const struct modeldoc *doc, size_t i,
			  enum modeldoc_kind *kind);

#endif
