#ifndef TMPL_H
#define TMPL_H

/*
 * What the two halves of the template stage share: the tree that
 * tparse.c makes from the template files and template.c expands. Not
 * for other stages: they use template.h.
 */
#include <stddef.h>

#include "diag.h"
#include "units.h"

struct expr;

/* Blocks and includes nested deeper than this are refused. */
#define TEMPLATE_MAX_DEPTH 64
/*
 * Bounds on what a template may cost, so that an include bomb or nested
 * loops end in an error, not in a hang: includes parsed (a file included
 * twice counts twice), bytes parsed, steps of expansion and Markdown
 * made. The shipped report uses a hundredth of each.
 */
#define TEMPLATE_MAX_INCLUDES 1000
#define TEMPLATE_MAX_BYTES ((size_t)64 << 20)
#define TEMPLATE_MAX_STEPS 10000000
#define TEMPLATE_MAX_OUTPUT ((size_t)64 << 20)

enum tnode_kind {
	T_TEXT,
	T_VALUE,
	T_IF,
	T_EACH,
	T_FIGURE,
	T_TABLE,
	T_REF,
	T_ASSERT,
};

enum fmt_kind {
	F_SCI, F_E, F_FIXED, F_SIG, F_INT, F_YEAR, F_POW10, F_BYTES,
	F_IBYTES, F_TEXT, F_UNIT, F_NOLINK, F_OR, F_IN,
};

/* The formats of a slot ("| sci:3"): name, argument and its bounds. */
struct fmt_info {
	const char *name;
	int arg;		/* 0 none, 1 optional number, 2 number,
				   3 optional quoted text, 4 quoted text */
	int lo, hi, def;
	const char *example;	/* the argument shown in errors (3 and 4) */
};
extern const struct fmt_info fmt_info[];

struct fmt {
	enum fmt_kind kind;
	int arg;
	char *text;		/* unit:"...", or:"...", in:"..." */
	struct unit in;		/* in:"...": the unit parsed */
	struct srcloc loc;
};

struct tnode {
	enum tnode_kind kind;
	struct srcloc loc;
	struct tnode *next;
	/* T_TEXT */
	const char *text;	/* borrowed from the srcfile */
	size_t len;
	/* T_VALUE, T_IF and T_ASSERT condition */
	struct expr *expr;
	struct fmt *fmts;
	size_t nfmts;
	/* T_IF: body, then elif/else chain in alt; T_EACH: body */
	struct tnode *body;
	struct tnode *alt;	/* next branch (a T_IF with expr NULL = else) */
	/* T_EACH */
	char *var;
	char *prefix;		/* "in" mode */
	char **names;		/* "of" mode */
	struct srcloc *names_loc;
	size_t nnames;
	/* T_FIGURE, T_TABLE, T_REF */
	char *label;
	struct tnode *alt_text;	/* T_FIGURE */
	/* T_ASSERT */
	char *message;
};

struct template {
	struct srcfile **files;	/* every file read, for error locations */
	char **canon;		/* their resolved paths; NULL from memory */
	size_t nfiles, files_cap, canon_cap;
	struct tnode *root;
	char *dir;
	size_t nincludes;	/* parsed so far, for the caps */
	size_t bytes;
};

/*
 * Parses f (borrowed: it must outlive the template) as text and value
 * slots only, for template_expand_text(): a tag with a sigil (a block,
 * an include, a reference) is an error. Returns NULL after printing
 * every error. Free with template_free().
 */
struct template *tmpl_parse_values(const struct srcfile *f);

/* White space, for the parser and for a figure's alt text. */
static inline int
tmpl_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

#endif
