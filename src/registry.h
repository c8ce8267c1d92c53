#ifndef REGISTRY_H
#define REGISTRY_H

#include <stddef.h>

#include "units.h"

/*
 * The quantity registry: every named value of the report, with its unit,
 * formula, inputs and source. It is the single source of truth for the
 * report, `ultimate get`/`explain`/`list`, out/quantities.* and the
 * claims audit. Names are dotted ("laptop.ops_max"); quantities keep the
 * order in which they were added, so listings are stable. A quantity
 * and its strings belong to the registry, valid until registry_free():
 * change them only through the functions below.
 */
enum qtype {
	Q_NUMBER,
	Q_TEXT,
};

struct quantity {
	char *name;
	enum qtype type;
	double value;		/* Q_NUMBER: finite */
	char *text;		/* Q_TEXT: the value; NULL for numbers */
	char *unit;		/* "" when dimensionless */
	struct unit dim;	/* unit parsed (units.h), when dim_ok */
	int dim_ok;		/* 0: the unit string does not parse */
	char *formula;		/* one line of plain text: the expression
				   and its note, or the description */
	char *expr;		/* the formula as an expression over the
				   inputs (docs/templates.md), or NULL for
				   data and lookups */
	char *note;		/* words: "Margolus-Levitin", or the
				   description when there is no expr */
	char *symbol;		/* how formulas write it: "E", "\u0127",
				   "E_max"; NULL: the name */
	char *row;		/* a family member's row ("macbook_2008"),
				   written in place of the last item of
				   its symbol's subscript ("m_d"); NULL */
	char **inputs;		/* names of the quantities it came from */
	size_t ninputs;
	char *source;		/* where the value or formula comes from */
	char *origin;		/* "data/assumptions.csv:3" or NULL */
	char *because;		/* space-separated names of the quantities
				   that decided whether it exists (the pick
				   it describes: "current.laptop.id"), or
				   NULL; they need not be in the registry */
};

struct registry;

/*
 * What is wrong with a quantity's name, or NULL: a name is parts of
 * letters, digits, '_' and '-', at most REGISTRY_PART_MAX each, joined
 * by single dots, so that it can go into HTML ids, links and (its first
 * parts) file names as it is.
 */
#define REGISTRY_PART_MAX 64
#define REGISTRY_PART_MAX_S "64"
const char *registry_name_problem(const char *name);

struct registry *registry_new(void);
/* Frees the registry and every quantity in it; NULL is fine. */
void registry_free(struct registry *reg);

/*
 * Adds a number. inputs is a space-separated list of quantity names that
 * must already be in the registry (else BUG); origin may be NULL. Returns
 * the new quantity, or NULL after printing an error when the name is
 * already taken or the value is not finite. All strings are copied. The
 * name must have no registry_name_problem() (else BUG: names come from
 * the code, from ids checked by table_id() and from names the model
 * checked).
 */
struct quantity *registry_add_num(struct registry *reg, const char *name,
				  double value, const char *unit,
				  const char *formula, const char *inputs,
				  const char *source, const char *origin);
/*
 * While names is set (space-separated quantity names; NULL or "" ends
 * it), every quantity added gets them as its because: what decided
 * that it exists when no input says so, for the causes of changes.c.
 * names is copied.
 */
void registry_set_because(struct registry *reg, const char *names);
/* Sets q's because to names (copied; NULL or "": none). */
void registry_set_because_of(struct quantity *q, const char *names);

/* Adds a text value, as registry_add_num(). */
struct quantity *registry_add_text(struct registry *reg, const char *name,
				   const char *text, const char *formula,
				   const char *inputs, const char *source,
				   const char *origin);

/*
 * Gives q a formula: expr, an expression in the template language whose
 * names are q's inputs, and note, a few words or NULL; q->formula
 * becomes "expr (note)". make test evaluates every expr against the
 * value (tests/unit/test_formulas.c).
 */
/*
 * Writes the number q in unit instead, of the same dimension (a volume
 * the data give in litres, declared in m^3). Returns 0, or -1 (q
 * untouched) when q is no number or the units differ in dimension.
 */
int registry_convert(struct quantity *q, const char *unit);
void registry_set_expr(struct quantity *q, const char *expr,
		       const char *note);
/* Sets the symbol formulas write for name, when it is a quantity. */
void registry_set_symbol(struct registry *reg, const char *name,
			 const char *symbol);
/*
 * The same for a member of a family: row, written in place of the last
 * item of the symbol's subscript ("macbook_2008" for the d of "m_d"),
 * or NULL.
 */
void registry_set_member_symbol(struct registry *reg, const char *name,
				const char *symbol, const char *row);
/* The same, of q. */
void registry_set_symbol_of(struct quantity *q, const char *symbol,
			    const char *row);

/*
 * Whether name matches pattern: dotted parts, each one equal, but for
 * at most one part "*" that stands for any one part (a family's row:
 * "device.*.mass"). Returns 1 and the part "*" stood for in *row,
 * *rowlen (borrowed from name; NULL, 0 for a pattern with no "*"), or
 * 0 when it does not match.
 */
int registry_pattern_match(const char *pattern, const char *name,
			   const char **row, size_t *rowlen);

/*
 * Gives symbols by name and by family: table[i][0] is a name or a
 * pattern (registry_pattern_match()), table[i][1] its symbol. A
 * quantity that has no symbol yet takes the first entry it matches, in
 * table order; a member of a family also takes its row (q->row).
 * aliases[i] = { "current.*", "device.*" }: a name that begins with
 * the alias's parts ("current.laptop.mass") is matched as if it began
 * with the family's ("device.*.mass"), and its row is the alias's parts
 * as words ("current laptop"). Names are tried as they are first.
 * The tables are copied and kept: a quantity added later takes its
 * symbol from them too (the claims the audit adds).
 */
void registry_set_symbols(struct registry *reg, const char *const table[][2],
			  size_t n, const char *const aliases[][2],
			  size_t naliases);

/* The quantity called name, or NULL. */
/* The same, to change it (registry_convert()). */
struct quantity *registry_get_mut(struct registry *reg, const char *name);
const struct quantity *registry_get(const struct registry *reg,
				    const char *name);
/* The place of name in insertion order (registry_at()), or SIZE_MAX. */
size_t registry_index(const struct registry *reg, const char *name);

/*
 * 1 when name is a quantity or the dotted prefix of one ("current.phone"
 * for "current.phone.year"; "current.ph" is no prefix), else 0.
 */
int registry_has(const struct registry *reg, const char *name);
/* The value of a number that must exist (else BUG): for the model. */
double registry_num(const struct registry *reg, const char *name);

size_t registry_count(const struct registry *reg);
/*
 * The quantities whose names end in ".id" (the rows PREFIX.X of the
 * model document's families), in the order they were added: the k-th,
 * or NULL past the last. Finding rows by these instead of a scan of
 * every quantity saved 8.7% of one edition's instructions (callgrind:
 * 210.5 M -> 192.3 M).
 */
size_t registry_nids(const struct registry *reg);
const struct quantity *registry_id_at(const struct registry *reg, size_t k);
/* The i-th quantity in insertion order. */
const struct quantity *registry_at(const struct registry *reg, size_t i);

/*
 * Up to max names of the registry closest to name (edit distance, and
 * names that contain it), best first, into out[]; returns how many.
 * The strings are borrowed from the registry.
 */
size_t registry_suggest(const struct registry *reg, const char *name,
			const char **out, size_t max);
/*
 * For a prefix no name starts with: up to max prefixes of names closest
 * to it, cut as it is ("lapt0p." gives "laptop.", "device.roadrunnr"
 * gives "device.roadrunner": the part it ends in, whole), best first,
 * into out[]; returns how many. The caller frees each with free().
 */
size_t registry_suggest_prefix(const struct registry *reg,
			       const char *prefix, char **out, size_t max);

#endif
