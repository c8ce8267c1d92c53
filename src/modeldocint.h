#ifndef MODELDOCINT_H
#define MODELDOCINT_H

/*
 * What the parts of the model document share: the parsed items
 * (modeldoc.c reads and checks them) and their evaluation (modeleval.c
 * runs them into the registry, with modelpick.c for the picks,
 * modelrows.c for sets of rows, trends and datasets, modelcheck.c for
 * the checks). Not for other modules: they use modeldoc.h.
 */
#include <stddef.h>

#include "modeldoc.h"
#include "units.h"

struct expr;
struct srcfile;

/* A name's index entry (struct modeldoc's singles and members). */
struct modeldoc_key {
	const char *key;
	size_t i;
};

enum item_kind {
	ITEM_DEF = MODELDOC_DEF,	/* name = expression */
	ITEM_DECL = MODELDOC_GIVEN,	/* name alone: a quantity the data
					   give */
	ITEM_CALL = MODELDOC_CALL,	/* call provider */
	ITEM_PICK = MODELDOC_PICK,	/* name = largest VAR in PREFIX by ... */
	ITEM_ROWS = MODELDOC_ROWS,	/* name = rows VAR in SOURCE ... */
	ITEM_TREND = MODELDOC_TREND,	/* name = trend VAR in SOURCE ... */
	ITEM_DATA = MODELDOC_DATA,	/* data NAME for VAR in SOURCE ... */
	ITEM_COLUMN = MODELDOC_COLUMN,	/* a dataset's column: name = expr */
};

/*
 * The rows a set of rows, a trend or a dataset ranges over: "VAR in
 * SOURCE" and its clauses. SOURCE is a data file's rows (its prefix), a
 * set of rows the document names, or for a dataset a range
 * "linspace(A, B, N)" or "logspace(A, B, N)" (range: 1 or 2; A, B, N
 * in from, to and count).
 */
struct rowrule {
	char *var, *source;
	size_t source_off, source_len;
	int range;			/* 0, 1 linspace, 2 logspace */
	struct expr *from, *to, *count;	/* a trend's window; a range */
	struct expr *where, *records, *of, *distinct, *by;
};

/*
 * A pick: "largest d in device by d.year, d.flops where d.kind ==
 * \"laptop\"" (or smallest): the row of the prefixes' rows that passes
 * where and has the largest first key, ties broken by the next key, then
 * by the order of the rows (the first wins).
 */
#define PICK_KEYS_MAX 8
struct pick {
	int smallest;
	char *var, *over;	/* the variable, the prefixes (spaces) */
	struct expr *key[PICK_KEYS_MAX];
	size_t nkeys;
	struct expr *where;	/* or NULL */
};

/* An attribute: its text (owned) and where it is, for messages. */
struct attr {
	char *text;
	size_t off, len;
};

enum { A_UNIT, A_SYMBOL, A_NOTE, A_SOURCE, A_RATE, A_TAG, A_WHEN, A_VALUE,
       A_LABEL, A_NEEDS, A_CHECK, A_PLACE, NATTR };
static const char *const attr_names[NATTR] = {
	"unit", "symbol", "note", "source", "rate", "tag", "when", "value",
	"label", "needs", "check", "place",
};

/* "check: CONDITION: WHY": what must hold, and why. */
struct check {
	struct attr a;
	struct expr *cond;
	const char *reason;	/* a.text's words after the condition */
};

struct item {
	enum item_kind kind;
	char *name;		/* quantity or provider */
	size_t off, len;	/* of the name */
	struct expr *expr;	/* ITEM_DEF */
	struct pick *pick;	/* ITEM_PICK */
	char *expr_text;	/* on one line, spaces collapsed */
	size_t expr_off, expr_len;
	struct attr a[NATTR];
	struct unit dim;	/* of a[A_UNIT] */
	int any_unit;		/* "unit: *": the unit the value comes with */
	struct expr *when;	/* of a[A_WHEN], or NULL */
	char *when_names;	/* the names when reads, as names */
	struct rowrule *rule;	/* ITEM_ROWS, ITEM_TREND, ITEM_DATA */
	struct expr *value, *label;	/* a set of rows' value: and label: */
	struct check *checks;	/* each "check:" (a[A_CHECK] the first) */
	size_t nchecks;
	size_t need_points;	/* a trend's needs: N points, Y years */
	double need_years;
	size_t data;		/* ITEM_COLUMN: its dataset's item */
	/* ITEM_DATA's "place: X, Y [where COND]": its columns X and Y. */
	char *place_x, *place_y;
	struct expr *place_where;
	char *names;		/* the names expr reads, each after a
				   newline, in order (expr_inputs()) */
	int reduces;		/* expr has a reduction (expr_reduces()) */
	/*
	 * A family ("for d in device current"): the variable, and the
	 * prefixes of the rows it ranges over, space-separated; NULL for a
	 * single quantity.
	 */
	const char *var, *over;
	/*
	 * In a block that also says "for r in rates", the variable r; a
	 * definition whose name holds "{r}" is then one quantity per rate
	 * (per_rate): d.gap.ops.years_{r} is d.gap.ops.years_lloyd, ...
	 */
	const char *rvar;
	int per_rate;
	/* Per rate: what each member's name holds of its own, the text
	 * from after the variable to the first "{" and after the last
	 * "}" (modeldoc_need()). */
	char *rated_in;
	const char *rated_end;
	size_t rated_endlen;
	/* Its expression with each "{r}" written "r", for the Methods
	 * page (names with braces are no quantity's); or NULL. */
	struct srcfile *shown_f;
	struct expr *shown;
	/* Its name and symbol so, where they hold "{r}"; or NULL. */
	char *shown_name, *shown_symbol;
};

/* A run of the document: prose, or a define block (items [from, to)). */
struct part {
	size_t off, len;	/* bytes of the document */
	int block;
	size_t from, to;
};

struct modeldoc {
	struct srcfile *f;
	char **fams;		/* the families' texts: var, over, ... */
	size_t nfams;
	struct item *items;
	size_t n, cap;
	struct part *parts;
	size_t nparts, partcap;
	size_t *rates;		/* the items with "rate:", in order */
	size_t nrates;
	/*
	 * For modeldoc_need(), which is asked for every name an expression
	 * reads that is not there yet: the single definitions by name, the
	 * families' definitions by their names' last parts, and the picks
	 * and per-rate definitions apart. Scans of every item there were
	 * 4.5% of a whole report's instructions (callgrind; one edition:
	 * 185.5 M -> 181.0 M).
	 */
	struct modeldoc_key *singles, *members;
	size_t nsingles, nmembers;
	size_t *picks, *rated;
	size_t npicks, nrated;
	size_t *picklen;	/* the picks' names' lengths */
	/* The declarations with "*" parts and their symbols, for the
	 * registry (registry_set_symbols()): borrowed from the items. */
	const char *(*patterns)[2];
	size_t npatterns;
	size_t *views;		/* the sets of rows (ITEM_ROWS), in order */
	size_t nviews;
};


/*
 * What an expression's names mean while one definition is evaluated:
 * for a family's member, its variable stands for the row ("d.mass" is
 * "device.eee_pc_2008.mass").
 */
struct bind {
	struct modeldoc_eval *ev;
	const char *var;	/* NULL: a single quantity */
	const char *row;	/* "device.eee_pc_2008" */
	/* A per-rate item's rate: its variable ("r"), its quantity
	 * ("rate.lloyd"), its short name ("lloyd": "{r}" in names), its
	 * subscript ("L": "{r}" in symbols) and its words ("{r}" in
	 * notes); rvar NULL for none. */
	const char *rvar, *rate, *rshort, *rtag, *rwhat;
};

/* modeleval.c: env to evaluate with b's bindings, over the run's rows. */
struct expr_env;
void modeleval_env(struct bind *b, struct expr_env *env);
/* No rate: an item that is not per_rate. */
#define NO_RATE ((size_t)-1)

/* The evaluation's own, for its parts (modelpick.c, modelcheck.c). */
void modeleval_bind(struct bind *b, struct modeldoc_eval *ev,
		    const struct item *it, const char *row, size_t k);
int modeleval_bound_name(const struct bind *b, const char *name,
			 struct buf *out);
int modeleval_row_of(const char *over, const char *row);
int modeleval_push(struct modeldoc_eval *ev, const struct item *it,
		   const char *name);
void modeleval_pop(struct modeldoc_eval *ev);
int modelpick_eval(struct modeldoc_eval *ev, const struct item *it);
/*
 * The checks of it in env: 0 when each holds, -1 after an error, or 1
 * and *failed the first that does not, nothing printed: what the error
 * says of the row is made only then (modeleval_check_failed()).
 */
int modeleval_check(const struct item *it, const struct expr_env *env,
		    const struct check **failed);
/*
 * The error of check c, failed in env (a row of a file at origin bound
 * to var, or var NULL; where: the row, for an error told at the
 * check); marks the run failed.
 */
void modeleval_check_failed(struct modeldoc_eval *ev, const struct check *c,
			    const struct expr_env *env, const char *var,
			    const char *origin, const char *where);

/* modelrows.c: the sets of rows, trends and datasets of a run. */
int modelrows_find(struct modeldoc_eval *ev, const char *name,
		   struct expr_rows *out);
int modelrows_view(struct modeldoc_eval *ev, size_t i);
int modelrows_trend(struct modeldoc_eval *ev, size_t i);
int modelrows_data(struct modeldoc_eval *ev, size_t i);
void modelrows_free(struct modeldoc_eval *ev);

/* Frees a rule and what it holds; NULL is fine. */
void rowrule_free(struct rowrule *r);
/* Whether c may be part of a name (letters, digits, '_', '-', '.'). */
int modeldoc_name_char(char c);
/* An error at [off, off + len) of the document; returns -1. */
int modeldoc_error(const struct modeldoc *doc, size_t off, size_t len,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * The first of the n keys sorted by key and index whose key is key, or
 * keys + n when none is.
 */
const struct modeldoc_key *modeldoc_key_find(const struct modeldoc_key *keys,
					      size_t n, const char *key);

#endif
