/*
 * The model document: reads data/model.md (modeldoc.h), checks its
 * ```define blocks, and evaluates them into the registry with the
 * expression language of the templates (expr.c) and its units (units.c).
 * Reads the document; writes quantities into the registry, nothing else.
 */
/* memmem() is GNU's (and POSIX.1-2024's): declared under _GNU_SOURCE. */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "hash.h"
#include "modeldoc.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

enum item_kind {
	ITEM_DEF = MODELDOC_DEF,	/* name = expression */
	ITEM_DECL = MODELDOC_GIVEN,	/* name alone: a quantity the data
					   give */
	ITEM_CALL = MODELDOC_CALL,	/* call provider */
	ITEM_PICK = MODELDOC_PICK,	/* name = largest VAR in PREFIX by ... */
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

enum { A_UNIT, A_SYMBOL, A_NOTE, A_SOURCE, A_RATE, A_TAG, A_WHEN, NATTR };
static const char *const attr_names[NATTR] = {
	"unit", "symbol", "note", "source", "rate", "tag", "when",
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
	struct expr *when;	/* of a[A_WHEN], or NULL */
	char *names;		/* the names expr reads, each after a
				   newline, in order (expr_inputs()) */
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
	struct key {
		const char *key;
		size_t i;
	} *singles, *members;
	size_t nsingles, nmembers;
	size_t *picks, *rated;
	size_t npicks, nrated;
};

static const char fence_open[] = "```define";
static const char fence_close[] = "```";

static int
is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/*
 * The end of the name that starts at s[i], before end: name characters,
 * and "{r}" groups (a rate's variable, see struct item).
 */
static size_t
name_end(const char *s, size_t i, size_t end)
{
	for (;;) {
		size_t k = i + 1;

		while (i < end && is_name_char(s[i]))
			i++;
		if (i >= end || s[i] != '{')
			return i;
		for (k = i + 1; k < end && is_name_char(s[k]) && s[k] != '.';
		     k++)
			;
		if (k == i + 1 || k >= end || s[k] != '}')
			return i;
		i = k + 1;
	}
}

/* s without its braces: "d.years_{r}" is "d.years_r". */
static char *
unbraced(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != '{' && s[i] != '}')
			buf_addch(&b, s[i]);
	return buf_detach(&b, NULL);
}

static int __attribute__((format(printf, 4, 5)))
doc_error(const struct modeldoc *doc, size_t off, size_t len,
	  const char *fmt, ...)
{
	struct srcloc loc = { doc->f, off, len };
	va_list ap;

	va_start(ap, fmt);
	verror_at(&loc, fmt, ap);
	va_end(ap);
	return -1;
}

static void
add_part(struct modeldoc *doc, size_t off, size_t len, int block)
{
	struct part *p;

	if (!len && !block)
		return;
	if (doc->nparts == doc->partcap) {
		doc->partcap = doc->partcap ? 2 * doc->partcap : 16;
		doc->parts = xreallocarray(doc->parts, doc->partcap,
					   sizeof(*doc->parts));
	}
	p = &doc->parts[doc->nparts++];
	p->off = off;
	p->len = len;
	p->block = block;
	p->from = p->to = doc->n;
}

static struct item *
new_item(struct modeldoc *doc, enum item_kind kind, const char *s,
	 size_t off, size_t len)
{
	struct item *it;

	if (doc->n == doc->cap) {
		doc->cap = doc->cap ? 2 * doc->cap : 64;
		doc->items = xreallocarray(doc->items, doc->cap,
					   sizeof(*doc->items));
	}
	it = &doc->items[doc->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->name = xstrndup(s + off, len);
	it->off = off;
	it->len = len;
	return it;
}

/* The item that defines or declares name first, or NULL. */
static const struct item *
find(const struct modeldoc *doc, const char *name, enum item_kind kind,
     size_t before)
{
	size_t i;

	for (i = 0; i < before; i++)
		if (doc->items[i].kind == kind &&
		    !strcmp(doc->items[i].name, name))
			return &doc->items[i];
	return NULL;
}

/* Collapses every run of white space of s[0..len) to one space. */
static char *
one_line(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		if (strchr(" \t\r\n", s[i])) {
			if (b.len && b.data[b.len - 1] != ' ')
				buf_addch(&b, ' ');
		} else {
			buf_addch(&b, s[i]);
		}
	}
	while (b.len && b.data[b.len - 1] == ' ')
		b.data[--b.len] = '\0';
	return buf_detach(&b, NULL);
}

/* The length of the line at off, without its newline. */
static size_t
line_len(const struct srcfile *f, size_t off)
{
	const char *nl = memchr(f->data + off, '\n', f->len - off);

	return nl ? (size_t)(nl - (f->data + off)) : f->len - off;
}

/*
 * An attribute line "  key: text" at off (len bytes). Returns its index
 * in attr_names, NATTR for an indented line that is not one (the
 * expression goes on), or -1 after an error (a key no definition has).
 */
static int
attr_line(struct modeldoc *doc, size_t off, size_t len, size_t *text_off)
{
	const char *s = doc->f->data + off;
	size_t i = 0, k, kl;
	int j;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	k = i;
	while (i < len && s[i] >= 'a' && s[i] <= 'z')
		i++;
	kl = i - k;
	if (!kl || i >= len || s[i] != ':' ||
	    (i + 1 < len && s[i + 1] != ' '))
		return NATTR;
	for (j = 0; j < NATTR; j++)
		if (strlen(attr_names[j]) == kl &&
		    !memcmp(attr_names[j], s + k, kl))
			break;
	if (j == NATTR) {
		char *key = xstrndup(s + k, kl);

		doc_error(doc, off + k, kl, "unknown attribute '%s': a "
			  "definition has %s", key, "unit, symbol, note, "
			  "source, rate and when");
		free(key);
		return -1;
	}
	i++;
	while (i < len && s[i] == ' ')
		i++;
	*text_off = off + i;
	return j;
}

/* Whether an attribute line came after it yet. */
static int
has_attr(const struct item *it)
{
	int j;

	for (j = 0; j < NATTR; j++)
		if (it->a[j].text)
			return 1;
	return 0;
}

/*
 * Whether the len bytes at s open a pick, "largest NAME in " or
 * "smallest NAME in ": no expression reads so (two names in a row).
 */
static int
pick_word(const char *s, size_t len)
{
	size_t i = 0, n;

	if (len > 8 && !memcmp(s, "largest ", 8))
		i = 8;
	else if (len > 9 && !memcmp(s, "smallest ", 9))
		i = 9;
	else
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	n = i;
	while (i < len && is_name_char(s[i]) && s[i] != '.')
		i++;
	return i > n && len - i >= 4 && !memcmp(s + i, " in ", 4);
}

/* The line at off of a define block, starting with a name. */
static int
head_line(struct modeldoc *doc, size_t off, size_t len, struct item **cur)
{
	const char *s = doc->f->data;
	size_t i = off, end = off + len, n;
	const char *problem;
	char *name;

	*cur = NULL;
	if (len > 5 && !memcmp(s + off, "call ", 5)) {
		i = off + 5;
		while (i < end && s[i] == ' ')
			i++;
		n = i;
		while (n < end && is_name_char(s[n]))
			n++;
		if (n == i || n != end)
			return doc_error(doc, off, len, "'call' takes the name "
					 "of one provider");
		new_item(doc, ITEM_CALL, s, i, n - i);
		return 0;
	}
	i = name_end(s, i, end);
	name = unbraced(s + off, i - off);
	problem = i == off ? "a definition starts with a name" :
		  registry_name_problem(name);
	if (problem) {
		doc_error(doc, off, i > off ? i - off : len, "'%.*s' is not a "
			  "valid name: %s", (int)(i - off), s + off, problem);
		free(name);
		return -1;
	}
	free(name);
	n = i;
	while (i < end && s[i] == ' ')
		i++;
	if (i == end) {
		*cur = new_item(doc, ITEM_DECL, s, off, n - off);
		return 0;
	}
	if (s[i] != '=')
		return doc_error(doc, i, 1, "expected '=' or the end of the "
				 "line after the name");
	*cur = new_item(doc, ITEM_DEF, s, off, n - off);
	i++;
	while (i < end && s[i] == ' ')
		i++;
	if (pick_word(s + i, end - i))
		(*cur)->kind = ITEM_PICK;
	(*cur)->expr_off = i;
	(*cur)->expr_len = end - i;
	return 0;
}

/*
 * Whether every "{x}" of text (a name, or the names an expression reads)
 * is the rate variable of it's block. Returns 0, or -1 after an error
 * located at off, len.
 */
static int
check_braces(struct modeldoc *doc, const struct item *it, const char *text,
	     size_t off, size_t len)
{
	const char *b;

	for (b = strchr(text, '{'); b; b = strchr(b + 1, '{')) {
		size_t n = strcspn(b + 1, "}");

		if (it->rvar && strlen(it->rvar) == n &&
		    !memcmp(b + 1, it->rvar, n))
			continue;
		if (it->rvar)
			return doc_error(doc, off, len, "'{%.*s}' is no rate "
					 "variable: this block's rates are "
					 "'{%s}'", (int)n, b + 1, it->rvar);
		return doc_error(doc, off, len, "'{%.*s}' stands for a rate: "
				 "the block starts 'for %.*s in rates'",
				 (int)n, b + 1, (int)n, b + 1);
	}
	return 0;
}

/* The expression of a per-rate item as the Methods page shows it. */
static int
parse_shown(struct item *it)
{
	char *text = unbraced(it->expr_text, strlen(it->expr_text));

	it->shown_f = srcfile_from_mem("(Methods)", text, strlen(text));
	free(text);
	it->shown = expr_parse(it->shown_f, 0, it->shown_f->len);
	return it->shown ? 0 : -1;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The word (name characters) at *i of s, up to end; *i moves past it. */
static size_t
word_at(const char *s, size_t *i, size_t end, int dots)
{
	size_t w;

	while (*i < end && is_space(s[*i]))
		(*i)++;
	w = *i;
	while (*i < end && is_name_char(s[*i]) && (dots || s[*i] != '.'))
		(*i)++;
	return *i - w;
}

/* Parses the expression at [from, to) of a pick, trimmed, into *e. */
static int
pick_expr(struct modeldoc *doc, size_t from, size_t to, const char *what,
	  struct expr **e)
{
	const char *s = doc->f->data;

	while (from < to && is_space(s[from]))
		from++;
	while (to > from && is_space(s[to - 1]))
		to--;
	if (from == to)
		return doc_error(doc, from ? from - 1 : 0, 1, "expected %s",
				 what);
	*e = expr_parse(doc->f, from, to - from);
	return *e ? 0 : -1;
}

/*
 * The right-hand side of a pick: "largest VAR in PREFIX ... by KEY, ...
 * [where COND]" (or smallest), into it->pick. Returns 0, or -1 after
 * the errors.
 */
static int
parse_pick(struct modeldoc *doc, struct item *it)
{
	const char *s = doc->f->data;
	size_t i = it->expr_off, end = it->expr_off + it->expr_len, w, n;
	size_t start, depth = 0;
	struct pick *pk = xcalloc(1, sizeof(*pk));
	struct buf over = BUF_INIT;
	int ret = 0;

	it->pick = pk;
	pk->smallest = s[i] == 's';
	n = word_at(s, &i, end, 0);	/* the keyword */
	n = word_at(s, &i, end, 0);
	pk->var = xstrndup(s + i - n, n);
	word_at(s, &i, end, 0);		/* "in", as pick_word() saw */
	for (;;) {
		n = word_at(s, &i, end, 1);
		w = i - n;
		if (!n || (n == 2 && !memcmp(s + w, "by", 2)))
			break;
		{
			char *word = xstrndup(s + w, n);
			const char *problem = registry_name_problem(word);

			if (problem)
				ret = doc_error(doc, w, n, "'%s' is not a "
						"prefix of names: %s", word,
						problem);
			buf_addf(&over, "%s%s", over.len ? " " : "", word);
			free(word);
		}
	}
	pk->over = buf_detach(&over, NULL);
	if (!*pk->over)
		return doc_error(doc, w, i > w ? i - w : 1, "expected the "
				 "prefix of the rows after 'in'");
	if (n != 2 || memcmp(s + w, "by", 2))
		return doc_error(doc, w, n ? n : 1, "expected 'by' and the "
				 "keys the rows are compared by");
	/* The keys, split at the commas outside brackets and strings. */
	for (start = i; i <= end && !ret; i++) {
		int stop = i == end;

		if (!stop && s[i] == '"') {
			for (i++; i < end && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (!stop && s[i] == '(')
			depth++;
		else if (!stop && s[i] == ')' && depth)
			depth--;
		stop |= !depth && end - i >= 5 && !memcmp(s + i, "where", 5) &&
			is_space(s[i - 1]) && (end - i == 5 ||
					       !is_name_char(s[i + 5]));
		if (!stop && (depth || s[i] != ','))
			continue;
		if (pk->nkeys == PICK_KEYS_MAX)
			return doc_error(doc, start, i - start, "a pick has "
					 "at most %d keys", PICK_KEYS_MAX);
		if (pick_expr(doc, start, i, "a key: an expression the rows "
			      "are compared by", &pk->key[pk->nkeys++]))
			ret = -1;
		start = i + 1;
		if (i < end && s[i] != ',') {
			ret |= pick_expr(doc, i + 5, end, "a condition after "
					 "'where'", &pk->where);
			break;
		}
	}
	return ret;
}

/* Checks a finished item: its expression, unit and name. */
static int
finish(struct modeldoc *doc, struct item *it)
{
	const struct item *twin;
	struct buf err = BUF_INIT;
	int ret = 0;

	if (it->kind == ITEM_CALL)
		return 0;
	twin = find(doc, it->name, ITEM_DEF, (size_t)(it - doc->items));
	if (!twin)
		twin = find(doc, it->name, ITEM_DECL,
			    (size_t)(it - doc->items));
	if (!twin)
		twin = find(doc, it->name, ITEM_PICK,
			    (size_t)(it - doc->items));
	if (twin) {
		size_t line, col;
		char where[32];

		srcfile_locate(doc->f, twin->off, &line, &col);
		snprintf(where, sizeof(where), "%zu", line);
		ret = doc_error(doc, it->off, it->len, "'%s' is already "
				"defined on line %s", it->name, where);
	}
	if (it->var && (strncmp(it->name, it->var, strlen(it->var)) ||
			it->name[strlen(it->var)] != '.'))
		ret = doc_error(doc, it->off, it->len, "in a family over "
				"'%s', a name starts with '%s.'", it->var,
				it->var);
	if (check_braces(doc, it, it->name, it->off, it->len))
		ret = -1;
	it->per_rate = strchr(it->name, '{') != NULL;
	if (it->per_rate)
		it->shown_name = unbraced(it->name, strlen(it->name));
	if (it->a[A_SYMBOL].text && strchr(it->a[A_SYMBOL].text, '{'))
		it->shown_symbol = unbraced(it->a[A_SYMBOL].text,
					    strlen(it->a[A_SYMBOL].text));
	if (it->per_rate && it->kind != ITEM_DEF)
		ret = doc_error(doc, it->off, it->len, "a name with '{%s}' is "
				"a definition: one quantity per rate", it->rvar);
	if (it->a[A_RATE].text && (it->var || it->per_rate))
		ret = doc_error(doc, it->a[A_RATE].off, it->a[A_RATE].len,
				"a rate is one quantity, not a family's");
	if (it->a[A_TAG].text && !it->a[A_RATE].text)
		ret = doc_error(doc, it->a[A_TAG].off, it->a[A_TAG].len,
				"'tag:' is a rate's: its subscript in the "
				"symbols of the quantities counted at it");
	if (it->a[A_WHEN].text) {
		it->when = expr_parse(doc->f, it->a[A_WHEN].off,
				      it->a[A_WHEN].len);
		if (!it->when)
			ret = -1;
	}
	if (it->kind == ITEM_PICK) {
		it->expr_text = one_line(doc->f->data + it->expr_off,
					 it->expr_len);
		if (it->var)
			ret = doc_error(doc, it->off, it->len, "a pick is no "
					"member of a family: write it in a "
					"block without 'for'");
		if (it->a[A_UNIT].text || it->a[A_SYMBOL].text ||
		    it->a[A_RATE].text)
			ret = doc_error(doc, it->off, it->len, "'%s' is a "
					"pick: its quantities keep the units "
					"and symbols of their row (it takes "
					"note:, source: and when:)", it->name);
		if (parse_pick(doc, it))
			ret = -1;
	}
	if (it->kind == ITEM_DEF) {
		it->expr = expr_parse(doc->f, it->expr_off, it->expr_len);
		if (!it->expr)
			ret = -1;
		it->expr_text = one_line(doc->f->data + it->expr_off,
					 it->expr_len);
		if (it->expr) {
			struct buf names = BUF_INIT;

			buf_addch(&names, '\n');
			expr_inputs(it->expr, &names);
			it->names = buf_detach(&names, NULL);
			if (!it->per_rate && it->rvar &&
			    strstr(it->names, "{"))
				ret = doc_error(doc, it->off, it->len, "'%s' "
						"reads a name with '{%s}': its "
						"own name has one too, to be one "
						"quantity per rate", it->name,
						it->rvar);
			if (check_braces(doc, it, it->names, it->expr_off,
					 it->expr_len) ||
			    (strchr(it->names, '{') && parse_shown(it)))
				ret = -1;
		}
		if (!it->a[A_UNIT].text)
			ret = doc_error(doc, it->off, it->len, "'%s' has no "
					"unit: add a line 'unit: ...' (empty "
					"for a pure number)", it->name);
	}
	if (it->a[A_UNIT].text &&
	    unit_parse(it->a[A_UNIT].text, &it->dim, &err)) {
		struct srcloc loc = { doc->f, it->a[A_UNIT].off,
				      it->a[A_UNIT].len };

		ret = error_at(&loc, "%s", err.data);
	}
	buf_release(&err);
	return ret;
}

/*
 * "for VAR in PREFIX ...", the first line of a block: its definitions
 * are a family over the rows PREFIX.X of each prefix (X where PREFIX.X.id
 * is a quantity), VAR.name standing for PREFIX.X.name.
 */
static int
parse_for(struct modeldoc *doc, size_t off, size_t len, const char **var,
	  const char **over)
{
	const char *s = doc->f->data;
	size_t i = off + 4, v, end = off + len;
	struct buf words = BUF_INIT;
	int ret = 0;

	while (i < end && s[i] == ' ')
		i++;
	v = i;
	while (i < end && is_name_char(s[i]) && s[i] != '.')
		i++;
	if (i == v || end - i < 4 || memcmp(s + i, " in ", 4))
		return doc_error(doc, off, len, "expected 'for VAR in PREFIX "
				 "...': a name without dots, then the "
				 "prefixes of the rows");
	doc->fams = xreallocarray(doc->fams, doc->nfams + 2,
				  sizeof(*doc->fams));
	doc->fams[doc->nfams++] = xstrndup(s + v, i - v);
	*var = doc->fams[doc->nfams - 1];
	for (i += 4; i < end;) {
		size_t w;
		char *word;

		while (i < end && s[i] == ' ')
			i++;
		w = i;
		while (i < end && s[i] != ' ')
			i++;
		if (i == w)
			break;
		word = xstrndup(s + w, i - w);
		if (registry_name_problem(word)) {
			ret = doc_error(doc, w, i - w, "'%s' is not a prefix "
					"of names: %s", word,
					registry_name_problem(word));
		}
		buf_addf(&words, "%s%s", words.len ? " " : "", word);
		free(word);
	}
	if (!words.len && !ret)
		ret = doc_error(doc, off, len, "'for %s in' names no prefix "
				"of rows", *var);
	doc->fams[doc->nfams++] = buf_detach(&words, NULL);
	*over = doc->fams[doc->nfams - 1];
	return ret;
}

static int
parse(struct modeldoc *doc)
{
	const char *fam_var = NULL, *fam_over = NULL, *fam_rvar = NULL;
	const char *s = doc->f->data;
	size_t off = 0, prose = 0;
	struct item *cur = NULL;
	int in_block = 0, ret = 0;
	size_t block_off = 0;

	while (off < doc->f->len) {
		size_t len = line_len(doc->f, off), next, toff;
		int a;

		next = off + len + (off + len < doc->f->len);
		if (!in_block) {
			if (len >= sizeof(fence_open) - 1 &&
			    !memcmp(s + off, fence_open,
				    sizeof(fence_open) - 1) &&
			    len == sizeof(fence_open) - 1) {
				add_part(doc, prose, off - prose, 0);
				add_part(doc, off, 0, 1);
				in_block = 1;
				block_off = off;
				cur = NULL;
				fam_var = fam_over = fam_rvar = NULL;
			}
			off = next;
			if (!in_block)
				continue;
			continue;
		}
		if (len == sizeof(fence_close) - 1 &&
		    !memcmp(s + off, fence_close, len)) {
			if (cur && finish(doc, cur))
				ret = -1;
			cur = NULL;
			in_block = 0;
			doc->parts[doc->nparts - 1].len = next - block_off;
			doc->parts[doc->nparts - 1].to = doc->n;
			prose = next;
			off = next;
			continue;
		}
		if (!len || strspn(s + off, " \t") == len) {
			/* A blank line ends a definition. */
		} else if (len > 4 && !memcmp(s + off, "for ", 4)) {
			const char *var = NULL, *over = NULL;

			if (cur || doc->n != doc->parts[doc->nparts - 1].from)
				ret = doc_error(doc, off, len, "'for' is the "
						"first line of a block: the "
						"whole block is the family");
			else if (parse_for(doc, off, len, &var, &over))
				ret = -1;
			else if ((fam_var && !strcmp(var, fam_var)) ||
				 (fam_rvar && !strcmp(var, fam_rvar)))
				ret = doc_error(doc, off, len, "'%s' is this "
						"block's variable already",
						var);
			else if (!strcmp(over, "rates") && fam_rvar)
				ret = doc_error(doc, off, len, "a block has "
						"one 'for ... in rates'");
			else if (!strcmp(over, "rates"))
				fam_rvar = var;
			else if (fam_var)
				ret = doc_error(doc, off, len, "a block is a "
						"family over one set of rows "
						"(and the rates)");
			else {
				fam_var = var;
				fam_over = over;
			}
		} else if (s[off] != ' ' && s[off] != '\t') {
			size_t had = doc->n;

			if (cur && finish(doc, cur))
				ret = -1;
			if (head_line(doc, off, len, &cur))
				ret = -1;
			if (cur) {
				cur->var = fam_var;
				cur->over = fam_over;
				cur->rvar = fam_rvar;
			} else if ((fam_var || fam_rvar) && doc->n > had) {
				ret = doc_error(doc, off, len, "a family "
						"block calls no provider");
			}
		} else if (!cur) {
			ret = doc_error(doc, off, len, "an indented line "
					"belongs to the definition above it, "
					"and there is none");
		} else if ((a = attr_line(doc, off, len, &toff)) < 0) {
			ret = -1;
		} else if (a < NATTR) {
			struct attr *at = &cur->a[a];

			if (at->text) {
				ret = doc_error(doc, off, len, "a second "
						"'%s:' for '%s'", attr_names[a],
						cur->name);
			} else {
				at->off = toff;
				at->len = off + len - toff;
				at->text = xstrndup(s + toff, at->len);
			}
		} else if ((cur->kind == ITEM_DEF || cur->kind == ITEM_PICK) &&
			   !has_attr(cur)) {
			/* The expression goes on. */
			cur->expr_len = off + len - cur->expr_off;
		} else {
			ret = doc_error(doc, off, len, "expected 'key: text' "
					"(unit, symbol, note, source, rate, when)");
		}
		off = next;
	}
	if (in_block) {
		if (cur && finish(doc, cur))
			ret = -1;
		ret = doc_error(doc, block_off, sizeof(fence_open) - 1,
				"this block has no closing %s%s", fence_close,
				"");
	} else {
		add_part(doc, prose, doc->f->len - prose, 0);
	}
	return ret;
}

static int
key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* Appends index i to list (n of them). */
static size_t *
push_index(size_t *list, size_t *n, size_t i)
{
	list = xreallocarray(list, *n + 1, sizeof(*list));
	list[(*n)++] = i;
	return list;
}

/* The indexes of struct modeldoc, for modeldoc_need(). */
static void
index_items(struct modeldoc *doc)
{
	size_t i;

	doc->singles = xcalloc(doc->n ? doc->n : 1, sizeof(*doc->singles));
	doc->members = xcalloc(doc->n ? doc->n : 1, sizeof(*doc->members));
	for (i = 0; i < doc->n; i++) {
		const struct item *it = &doc->items[i];

		if (it->kind == ITEM_PICK) {
			doc->picks = push_index(doc->picks, &doc->npicks, i);
		} else if (it->kind != ITEM_DEF) {
			continue;
		} else if (it->per_rate) {
			doc->rated = push_index(doc->rated, &doc->nrated, i);
		} else if (it->var) {
			doc->members[doc->nmembers].key =
				strrchr(it->name, '.') + 1;
			doc->members[doc->nmembers++].i = i;
		} else {
			doc->singles[doc->nsingles].key = it->name;
			doc->singles[doc->nsingles++].i = i;
		}
	}
	/* qsort() takes no NULL array, even of none. */
	if (doc->nsingles)
		qsort(doc->singles, doc->nsingles, sizeof(*doc->singles),
		      key_cmp);
	if (doc->nmembers)
		qsort(doc->members, doc->nmembers, sizeof(*doc->members),
		      key_cmp);
}

/*
 * The first of the n keys sorted by key_cmp() whose key is key, or
 * keys + n when none is.
 */
static const struct key *
key_find(const struct key *keys, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(keys[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(keys[lo].key, key) ? keys + lo : keys + n;
}

/* Takes f: checks and parses it into a new document, or NULL. */
static struct modeldoc *
load(struct srcfile *f)
{
	struct modeldoc *doc = xcalloc(1, sizeof(*doc));
	size_t i;

	doc->f = f;
	if (f)
		f->show_source = 1;
	if (!doc->f || srcfile_check_text(doc->f) || parse(doc)) {
		modeldoc_free(doc);
		return NULL;
	}
	for (i = 0; i < doc->n; i++)
		if (doc->items[i].a[A_RATE].text) {
			doc->rates = xreallocarray(doc->rates, doc->nrates + 1,
						   sizeof(*doc->rates));
			doc->rates[doc->nrates++] = i;
		}
	index_items(doc);
	return doc;
}

struct modeldoc *
modeldoc_load(const char *path)
{
	return load(srcfile_read(path));
}

struct modeldoc *
modeldoc_from_mem(const char *name, const char *data, size_t len)
{
	return load(srcfile_from_mem(name, data, len));
}

static void
pick_free(struct pick *pk)
{
	size_t k;

	if (!pk)
		return;
	free(pk->var);
	free(pk->over);
	for (k = 0; k < pk->nkeys; k++)
		expr_free(pk->key[k]);
	expr_free(pk->where);
	free(pk);
}

void
modeldoc_free(struct modeldoc *doc)
{
	size_t i;
	int j;

	if (!doc)
		return;
	for (i = 0; i < doc->n; i++) {
		free(doc->items[i].name);
		expr_free(doc->items[i].expr);
		expr_free(doc->items[i].when);
		pick_free(doc->items[i].pick);
		free(doc->items[i].names);
		free(doc->items[i].expr_text);
		expr_free(doc->items[i].shown);
		free(doc->items[i].shown_name);
		free(doc->items[i].shown_symbol);
		srcfile_free(doc->items[i].shown_f);
		for (j = 0; j < NATTR; j++)
			free(doc->items[i].a[j].text);
	}
	free(doc->items);
	free(doc->parts);
	free(doc->rates);
	free(doc->singles);
	free(doc->members);
	free(doc->picks);
	free(doc->rated);
	for (i = 0; i < doc->nfams; i++)
		free(doc->fams[i]);
	free(doc->fams);
	srcfile_free(doc->f);
	free(doc);
}

/* The quantities being evaluated, innermost last: for loops. */
#define DEPTH_MAX 256

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

/* No rate: an item that is not per_rate. */
#define NO_RATE ((size_t)-1)

static int eval_item(struct modeldoc_eval *ev, size_t i);
static int push(struct modeldoc_eval *ev, const struct item *it,
		const char *name);
static int eval_member(struct modeldoc_eval *ev, size_t i, const char *row,
		       size_t k);

/* b for item it, for row (or NULL) and the document's rate k (or none). */
static void
bind_init(struct bind *b, struct modeldoc_eval *ev, const struct item *it,
	  const char *row, size_t k)
{
	memset(b, 0, sizeof(*b));
	b->ev = ev;
	if (row) {
		b->var = it->var;
		b->row = row;
	}
	if (k != NO_RATE && it->per_rate) {
		const struct item *r = &ev->doc->items[ev->doc->rates[k]];
		const char *dot = strrchr(r->name, '.');

		b->rvar = it->rvar;
		b->rate = r->name;
		b->rshort = dot ? dot + 1 : r->name;
		b->rtag = r->a[A_TAG].text ? r->a[A_TAG].text : b->rshort;
		b->rwhat = r->a[A_RATE].text;
	}
}

/*
 * text with each "{r}" of the rate variable replaced by with, into out.
 * Returns whether there was one.
 */
static int
unbrace_rate(const struct bind *b, const char *text, const char *with,
	     struct buf *out)
{
	size_t rl = b->rvar ? strlen(b->rvar) : 0;
	const char *p = text, *q;
	int n = 0;

	while (rl && (q = strchr(p, '{'))) {
		if (!strncmp(q + 1, b->rvar, rl) && q[rl + 1] == '}') {
			buf_add(out, p, (size_t)(q - p));
			buf_addstr(out, with);
			p = q + rl + 2;
			n++;
		} else {
			buf_add(out, p, (size_t)(q - p) + 1);
			p = q + 1;
		}
	}
	buf_addstr(out, p);
	return n > 0;
}

/*
 * name as it reads for the binding b: a family's variable replaced by
 * the row, a rate's "{r}" by its short name and "r" alone by the rate,
 * into out. Returns 0, or -1 (out untouched) when b changes nothing.
 */
static int
bound_name(const struct bind *b, const char *name, struct buf *out)
{
	size_t at = out->len, vl = b->var ? strlen(b->var) : 0;
	int changed = 0;

	if (!vl && !b->rvar)
		return -1;
	if (b->rvar && !strcmp(name, b->rvar)) {
		buf_addstr(out, b->rate);
		return 0;
	}
	if (vl && !strncmp(name, b->var, vl) && name[vl] == '.') {
		buf_addstr(out, b->row);
		name += vl;
		changed = 1;
	}
	if (!b->rvar || !strchr(name, '{')) {
		if (changed)
			buf_addstr(out, name);
		return changed ? 0 : -1;
	}
	if (unbrace_rate(b, name, b->rshort, out))
		changed = 1;
	if (changed)
		return 0;
	out->len = at;
	if (out->data)
		out->data[at] = '\0';
	return -1;
}

/*
 * The expression's lookups: the variable of a family is its row; a
 * name the document defines and that is not evaluated yet is evaluated
 * first.
 */
static int
resolve_hook(void *ctx, const char *name, struct buf *out)
{
	struct bind *b = ctx;
	size_t at = out->len;
	int ret = bound_name(b, name, out);

	if (!registry_get(b->ev->reg, ret ? name : out->data + at))
		modeldoc_need(b->ev, ret ? name : out->data + at);
	return ret;
}

/* The definition of name, as an index, or SIZE_MAX. */
static size_t
def_index(const struct modeldoc *doc, const char *name)
{
	const struct key *k = key_find(doc->singles, doc->nsingles, name);

	return k < doc->singles + doc->nsingles ? k->i : (size_t)-1;
}

/* The pick that name is (or is below: "current.laptop.year"), or SIZE_MAX. */
static size_t
pick_index(const struct modeldoc *doc, const char *name)
{
	size_t k, i, len;

	for (k = 0; k < doc->npicks; k++) {
		i = doc->picks[k];
		len = strlen(doc->items[i].name);
		if (!strncmp(doc->items[i].name, name, len) &&
		    (!name[len] || name[len] == '.'))
			return i;
	}
	return (size_t)-1;
}

/* Whether row is "PREFIX.X" of a prefix of over, X one part. */
static int
row_of(const char *over, const char *row)
{
	const char *p = over, *dot = strrchr(row, '.');

	if (!dot || dot == row)
		return 0;
	while (*p) {
		size_t len = strcspn(p, " ");

		if ((size_t)(dot - row) == len && !memcmp(p, row, len))
			return 1;
		p += len + (p[len] == ' ');
	}
	return 0;
}

/*
 * Whether name may be a member of per-rate item it: it holds the
 * name's text between the family's variable and "{r}", and ends with
 * the text after it. Without this test before each rate is tried,
 * looking up names the rows lack cost 5% of a report's instructions
 * (callgrind: 238.5 M against 226.9 M with it).
 */
static int
may_be_member(const struct item *it, const char *name)
{
	const char *from = it->name + (it->var ? strlen(it->var) : 0);
	const char *open = strchr(from, '{'), *close = strrchr(from, '}');
	size_t nl = strlen(name), pl = (size_t)(open - from);
	size_t tl = strlen(close + 1);

	if (nl < pl + tl || strcmp(name + nl - tl, close + 1))
		return 0;
	/*
	 * memmem(), not strncmp() at each byte: asked of every name the
	 * rows lack, for every per-rate family, that scan was 35.7M of
	 * every edition's instructions.
	 */
	return pl == 0 || memmem(name, nl, from, pl) != NULL;
}

int
modeldoc_need(struct modeldoc_eval *ev, const char *name)
{
	const struct modeldoc *doc = ev->doc;
	struct buf row = BUF_INIT, id = BUF_INIT;
	size_t i = def_index(doc, name), c, nfam;
	const struct key *fam;
	const char *last;
	int ret = 1;

	if (!ev->state)
		BUG("modeldoc_need() outside modeldoc_run()");
	if (registry_get(ev->reg, name))
		return 0;
	if (i != (size_t)-1)
		return eval_item(ev, i);
	if ((i = pick_index(doc, name)) != (size_t)-1) {
		/*
		 * Busy choosing its row (on the stack): a loop through it.
		 * Busy copying it: its families read its row.
		 */
		for (c = 0; ev->state[i] && c < ev->depth; c++)
			if (!strcmp(ev->stack[c], doc->items[i].name))
				return push(ev, &doc->items[i],
					    doc->items[i].name);
		if (!ev->state[i] && eval_item(ev, i))
			return -1;
		return registry_has(ev->reg, name) ? 0 : 1;
	}
	/*
	 * A member of a family: PREFIX.X.rest, defined as VAR.rest; or of
	 * a rate's: its name with "{r}" as the rate's short name.
	 */
	last = strrchr(name, '.');
	last = last ? last + 1 : name;
	fam = key_find(doc->members, doc->nmembers, last);
	for (nfam = 0; fam + nfam < doc->members + doc->nmembers &&
	     !strcmp(fam[nfam].key, last); nfam++)
		;
	/* The families' definitions whose names end so, then the rates'. */
	for (c = 0; c < nfam + doc->nrated && ret == 1; c++) {
		const struct item *it;
		size_t k, nk;

		i = c < nfam ? fam[c].i : doc->rated[c - nfam];
		it = &doc->items[i];
		nk = it->per_rate ? doc->nrates : 1;
		if (it->per_rate && !may_be_member(it, name))
			continue;
		for (k = 0; k < nk && ret == 1; k++) {
			struct bind b;
			const char *rest;
			size_t nl = strlen(name), rl;

			bind_init(&b, ev, it, NULL, it->per_rate ? k : NO_RATE);
			buf_reset(&id);
			if (bound_name(&b, it->name, &id))
				buf_addstr(&id, it->name);
			if (!it->var) {
				if (!strcmp(id.data, name))
					ret = eval_member(ev, i, NULL, k);
				continue;
			}
			rest = id.data + strlen(it->var);	/* ".rest" */
			rl = strlen(rest);
			if (nl <= rl || strcmp(name + nl - rl, rest))
				continue;
			buf_reset(&row);
			buf_add(&row, name, nl - rl);
			buf_reset(&id);
			buf_addf(&id, "%s.id", row.data);
			if (row_of(it->over, row.data) &&
			    registry_get(ev->reg, id.data))
				ret = eval_member(ev, i, row.data,
						  it->per_rate ? k : NO_RATE);
		}
	}
	buf_release(&row);
	buf_release(&id);
	if (ret == 1)
		return 1;
	return registry_get(ev->reg, name) ? 0 : ret < 0 ? -1 : 1;
}

/*
 * Pushes name on the stack of quantities being evaluated. Returns 0, or
 * -1 after the error naming the loop when it is there already.
 */
static int
push(struct modeldoc_eval *ev, const struct item *it, const char *name)
{
	struct buf loop = BUF_INIT;
	size_t k;

	for (k = 0; k < ev->depth; k++)
		if (!strcmp(ev->stack[k], name))
			break;
	if (k == ev->depth && ev->depth < DEPTH_MAX) {
		ev->stack[ev->depth++] = xstrdup(name);
		return 0;
	}
	for (; k < ev->depth; k++)
		buf_addf(&loop, "%s -> ", ev->stack[k]);
	buf_addstr(&loop, name);
	doc_error(ev->doc, it->off, it->len, "'%s' depends on itself: %s",
		  name, k > DEPTH_MAX ? "too deep" : loop.data);
	buf_release(&loop);
	return -1;
}

static void
pop(struct modeldoc_eval *ev)
{
	free(ev->stack[--ev->depth]);
}

/* Appends e's text with each name a family's variable starts bound. */
static void
bound_text(const struct bind *b, const char *text, struct buf *out)
{
	size_t vl = b->var ? strlen(b->var) : 0;
	size_t rl = b->rvar ? strlen(b->rvar) : 0;
	const char *p = text;

	while (*p) {
		int start = p == text || (!is_name_char(p[-1]) && p[-1] != '}');

		if (vl && start && !strncmp(p, b->var, vl) && p[vl] == '.') {
			buf_addstr(out, b->row);
			p += vl;
			continue;
		}
		if (rl && start && !strncmp(p, b->rvar, rl) &&
		    !is_name_char(p[rl]) && p[rl] != '{') {
			buf_addstr(out, b->rate);
			p += rl;
			continue;
		}
		if (rl && *p == '{' && !strncmp(p + 1, b->rvar, rl) &&
		    p[rl + 1] == '}') {
			buf_addstr(out, b->rshort);
			p += rl + 2;
			continue;
		}
		/* Inside a string, nothing is a name. */
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');
			size_t n = q ? (size_t)(q - p) + 1 : strlen(p);

			buf_add(out, p, n);
			p += n;
			continue;
		}
		buf_addch(out, *p++);
	}
}

/*
 * How a member's row is written after its formula: the row's last part
 * for the family's first prefix ("macbook_2008" of device.macbook_2008),
 * else its parts as words ("current laptop" of current.laptop).
 */
static void
row_words(const char *over, const char *row, struct buf *out)
{
	const char *dot = strrchr(row, '.');
	size_t first = strcspn(over, " ");
	const char *p;

	if ((size_t)(dot - row) == first && !memcmp(over, row, first)) {
		buf_addstr(out, dot + 1);
		return;
	}
	for (p = row; *p; p++)
		buf_addch(out, *p == '.' ? ' ' : *p);
}

/*
 * Sets name's symbol; for a member of a family, with its row; for a
 * rate's, "{r}" in it is the rate's tag.
 */
static void
set_symbol(const struct bind *b, const struct item *it, const char *name)
{
	struct buf words = BUF_INIT, sym = BUF_INIT;

	if (!it->a[A_SYMBOL].text)
		return;
	if (b->row)
		row_words(it->over, b->row, &words);
	unbrace_rate(b, it->a[A_SYMBOL].text, b->rtag, &sym);
	registry_set_member_symbol(b->ev->reg, name, sym.data,
				   b->row ? words.data : NULL);
	buf_release(&words);
	buf_release(&sym);
}

/*
 * Evaluates definition it, for row (a member of its family) or alone
 * (row NULL). Returns 0, 1 when its "when:" is false (no quantity), or
 * -1 after an error.
 */
/* Appends name to the space-separated inputs unless it is there. */
static void
add_input(struct buf *inputs, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = inputs->data; *p; p += strcspn(p, " ") + (p[strcspn(p, " ")] == ' '))
		if (strcspn(p, " ") == len && !memcmp(p, name, len))
			return;
	if (inputs->len)
		buf_addch(inputs, ' ');
	buf_add(inputs, name, len);
}

/* The names of e that var binds ("d.mass" for d), each "\n.mass\n". */
static void
bound_rests(const struct expr *e, const char *var, struct buf *rests)
{
	size_t vl = strlen(var);

	if (!e)
		return;
	if (expr_kind(e) == EXPR_NAME) {
		const char *n = expr_text(e);

		if (!strncmp(n, var, vl) && n[vl] == '.') {
			buf_addch(rests, '\n');
			buf_addstr(rests, n + vl);
			buf_addch(rests, '\n');
		}
		return;
	}
	bound_rests(expr_arg(e, 0), var, rests);
	bound_rests(expr_arg(e, 1), var, rests);
}

/*
 * The inputs a reduction of e adds: for each row it ranges over, the
 * row's id and each ROW.rest it reads there (VAR.rest) that the row has.
 * A count or a maximum changes with its rows, and these lead diff to the
 * data row that changed it (the reduction's own names bind no quantity).
 */
static void
reduction_inputs(const struct registry *reg, const struct expr *e,
		 struct buf *inputs)
{
	const char *over, *var;

	if (!e)
		return;
	if (expr_kind(e) == EXPR_CALL && (var = expr_reduction(e, &over))) {
		struct buf rests = BUF_INIT, row = BUF_INIT, name = BUF_INIT;
		size_t k;

		bound_rests(expr_arg(e, 0), var, &rests);
		bound_rests(expr_arg(e, 1), var, &rests);
		for (k = 0; k < registry_nids(reg); k++) {
			const char *id = registry_id_at(reg, k)->name, *p;

			if (!modeldoc_row_id(over, id, &row))
				continue;
			add_input(inputs, id);
			for (p = rests.data; *p; p += strcspn(p + 1, "\n") + 2) {
				buf_reset(&name);
				buf_addstr(&name, row.data);
				buf_add(&name, p + 1, strcspn(p + 1, "\n"));
				if (registry_get(reg, name.data))
					add_input(inputs, name.data);
			}
		}
		buf_release(&rests);
		buf_release(&row);
		buf_release(&name);
	}
	reduction_inputs(reg, expr_arg(e, 0), inputs);
	reduction_inputs(reg, expr_arg(e, 1), inputs);
}

static int
eval_def(struct modeldoc_eval *ev, const struct item *it, const char *row,
	 size_t k)
{
	const struct modeldoc *doc = ev->doc;
	struct bind b;
	struct expr_env env = { ev->reg, resolve_hook, &b, 0 };
	struct buf names = BUF_INIT, inputs = BUF_INIT, formula = BUF_INIT;
	struct buf ua = BUF_INIT, name = BUF_INIT, text = BUF_INIT;
	struct buf notes = BUF_INIT;
	struct value v = { 0 };
	struct quantity *q;
	const char *p, *note = it->a[A_NOTE].text;
	const char *source = it->a[A_SOURCE].text ? it->a[A_SOURCE].text :
			     "derived here";
	double x;
	int ret = -1;

	bind_init(&b, ev, it, row, k);
	if (bound_name(&b, it->name, &name))
		buf_addstr(&name, it->name);
	/* A rate this edition lacks (no fit yet) counts nothing. */
	if (b.rate && !registry_get(ev->reg, b.rate)) {
		if (modeldoc_need(ev, b.rate) < 0)
			goto out;
		if (!registry_get(ev->reg, b.rate)) {
			ret = 1;
			goto out;
		}
	}
	if (note && b.rvar) {
		unbrace_rate(&b, note, b.rwhat, &notes);
		note = notes.data;
	}
	if (registry_get(ev->reg, name.data)) {
		doc_error(doc, it->off, it->len, "'%s' is already a quantity "
			  "(of the data or a provider): a definition "
			  "names a new one", name.data);
		goto out;
	}
	if (push(ev, it, name.data))
		goto out;
	if (it->when) {
		env.missing_ok = 1;
		ret = expr_eval(it->when, &env, &v);
		env.missing_ok = 0;
		if (ret < 0)
			goto popped;
		ret = ret == 0 && value_truthy(&v) ? -1 : 1;
		value_release(&v);
		memset(&v, 0, sizeof(v));
		if (ret == 1)
			goto popped;
	}
	/*
	 * A number alone is a value given in the unit declared (the speed
	 * of light): its words are its formula, it has no inputs.
	 */
	if (expr_kind(it->expr) == EXPR_NUM &&
	    strcmp(expr_text(it->expr), "pi")) {
		q = registry_add_num(ev->reg, name.data, expr_num(it->expr),
				     it->a[A_UNIT].text, note ? note : "",
				     NULL, source, NULL);
		if (!q)
			goto popped;
		goto added;
	}
	if (expr_eval(it->expr, &env, &v))
		goto popped;
	if (v.type != VALUE_NUMBER) {
		doc_error(doc, it->expr_off, it->expr_len, "'%s' must be a "
			  "number, and this expression gives a text",
			  name.data);
		goto popped;
	}
	if (!unit_same_si(&v.unit, &it->dim)) {
		value_unit_text(&v, &ua);
		buf_addf(&formula, "'%s'", it->a[A_UNIT].text);
		if (row)
			buf_addf(&formula, " (row %s)", row);
		doc_error(doc, it->expr_off, it->expr_len, "this expression "
			  "is in %s, but the unit given is %s", ua.data,
			  formula.data);
		goto popped;
	}
	x = v.unit.scale == it->dim.scale ? v.num :
	    v.num * (v.unit.scale / it->dim.scale);
	/* Its formula: the expression, a member's with its row's names. */
	bound_text(&b, it->expr_text, &text);
	/* Its inputs: the names it reads, in order, that are quantities. */
	for (p = it->names + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t at = inputs.len + (inputs.len > 0);

		buf_reset(&names);
		buf_add(&names, p, strcspn(p, "\n"));
		if (inputs.len)
			buf_addch(&inputs, ' ');
		if (bound_name(&b, names.data, &inputs))
			buf_addstr(&inputs, names.data);
		if (!registry_get(ev->reg, inputs.data + at))
			inputs.data[inputs.len = at ? at - 1 : 0] = '\0';
	}
	reduction_inputs(ev->reg, it->expr, &inputs);
	buf_addstr(&formula, text.data);
	if (note) {
		BUF_ADDLIT(&formula, " (");
		buf_addstr(&formula, note);
		buf_addch(&formula, ')');
	}
	q = registry_add_num(ev->reg, name.data, x, it->a[A_UNIT].text,
			     formula.data, inputs.data, source, NULL);
	if (!q) {
		doc_error(doc, it->off, it->len, "'%s' could not be added "
			  "(see above)", name.data);
		goto popped;
	}
	registry_set_expr(q, text.data, note);
added:
	/* A given number and a formula alike: its symbol. */
	set_symbol(&b, it, name.data);
	ret = 0;
popped:
	pop(ev);
out:
	value_release(&v);
	buf_release(&names);
	buf_release(&inputs);
	buf_release(&formula);
	buf_release(&ua);
	buf_release(&name);
	buf_release(&text);
	buf_release(&notes);
	if (ret < 0)
		ev->failed = 1;
	return ret;
}

/*
 * Adds name to the set of members evaluated. Returns 1 when it was in
 * it already, else 0.
 */
static int
member_seen(struct modeldoc_eval *ev, const char *name)
{
	size_t i, mask;

	if ((ev->nmembers + 1) * 2 > ev->memberslots) {
		char **old = ev->members;
		size_t n = ev->memberslots;

		ev->memberslots = n ? 2 * n : 1024;
		ev->members = xcalloc(ev->memberslots, sizeof(*ev->members));
		mask = ev->memberslots - 1;
		for (i = 0; i < n; i++) {
			size_t j;

			if (!old[i])
				continue;
			j = (size_t)hash_str(0, old[i]) & mask;
			while (ev->members[j])
				j = (j + 1) & mask;
			ev->members[j] = old[i];
		}
		free(old);
	}
	mask = ev->memberslots - 1;
	for (i = (size_t)hash_str(0, name) & mask; ev->members[i];
	     i = (i + 1) & mask)
		if (!strcmp(ev->members[i], name))
			return 1;
	ev->members[i] = xstrdup(name);
	ev->nmembers++;
	return 0;
}

/*
 * Evaluates the member of definition i for row (NULL: no family of rows)
 * and rate k (NO_RATE: not per rate), unless it is there.
 */
static int
eval_member(struct modeldoc_eval *ev, size_t i, const char *row, size_t k)
{
	const struct item *it = &ev->doc->items[i];
	struct buf name = BUF_INIT;
	struct bind b;
	int ret = 0;

	bind_init(&b, ev, it, row, k);
	if (bound_name(&b, it->name, &name))
		buf_addstr(&name, it->name);
	/* Evaluated once: a false "when:" is not asked again. */
	if (!registry_get(ev->reg, name.data) && !member_seen(ev, name.data))
		ret = eval_def(ev, it, row, k);
	buf_release(&name);
	return ret;
}

/* Every member of definition i for row (or NULL): one, or one per rate. */
static int
eval_rates(struct modeldoc_eval *ev, size_t i, const char *row)
{
	const struct item *it = &ev->doc->items[i];
	size_t k;

	if (!it->per_rate)
		return eval_member(ev, i, row, NO_RATE);
	for (k = 0; k < ev->doc->nrates; k++)
		if (eval_member(ev, i, row, k) < 0)
			return -1;
	return 0;
}

static int
eval_decl(struct modeldoc_eval *ev, const struct item *it, const char *row)
{
	struct buf name = BUF_INIT, hint = BUF_INIT;
	struct bind b;
	const struct quantity *q;
	const char *near[3];
	size_t n;
	int ret = -1;

	bind_init(&b, ev, it, row, NO_RATE);
	if (bound_name(&b, it->name, &name))
		buf_addstr(&name, it->name);
	q = registry_get(ev->reg, name.data);
	if (!q && row) {
		ret = 0;	/* a row without it */
	} else if (!q) {
		n = registry_suggest(ev->reg, name.data, near, 3);
		suggest_hint(&hint, near, n);
		doc_error(ev->doc, it->off, it->len, "'%s' is not a quantity "
			  "of the data or of a provider called above%s",
			  name.data, hint.data);
	} else if (it->a[A_UNIT].text && strcmp(it->a[A_UNIT].text,
						q->unit)) {
		buf_addf(&hint, "'%s', but the data give '%s'",
			 it->a[A_UNIT].text, q->unit);
		doc_error(ev->doc, it->a[A_UNIT].off, it->a[A_UNIT].len,
			  "the unit of '%s' is declared %s", name.data,
			  hint.data);
	} else {
		set_symbol(&b, it, name.data);
		ret = 0;
	}
	buf_release(&name);
	buf_release(&hint);
	return ret;
}

static int
eval_call(struct modeldoc_eval *ev, const struct item *it)
{
	const struct modeldoc_provider *pv;
	const char *near[3];
	struct suggest sg;
	struct buf hint = BUF_INIT;
	size_t n;

	for (pv = ev->providers; pv && pv->name; pv++)
		if (!strcmp(pv->name, it->name))
			return pv->run(ev->ctx);
	suggest_init(&sg, it->name, near, 3);
	for (pv = ev->providers; pv && pv->name; pv++)
		suggest_add(&sg, pv->name);
	n = suggest_end(&sg);
	suggest_hint(&hint, near, n);
	doc_error(ev->doc, it->off, it->len, "unknown provider '%s'%s",
		  it->name, hint.data);
	buf_release(&hint);
	return -1;
}

int
modeldoc_row_id(const char *over, const char *name, struct buf *row)
{
	size_t len = strlen(name);

	if (len < 4 || strcmp(name + len - 3, ".id"))
		return 0;
	buf_reset(row);
	buf_add(row, name, len - 3);
	return row_of(over, row->data);
}

/* Every member of family item i, one per row. */
static int
eval_family(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct buf row = BUF_INIT;
	size_t k;
	int ret = 0;

	for (k = 0; k < registry_nids(ev->reg) && ret >= 0; k++) {
		const char *name = registry_id_at(ev->reg, k)->name;

		if (!modeldoc_row_id(it->over, name, &row))
			continue;
		ret = it->kind == ITEM_DEF ? eval_rates(ev, i, row.data) :
		      eval_decl(ev, it, row.data);
	}
	buf_release(&row);
	return ret < 0 ? -1 : 0;
}

int
modeldoc_row(struct modeldoc_eval *ev, const char *row)
{
	size_t i;

	if (!ev->state)
		BUG("modeldoc_row() outside modeldoc_run()");

	for (i = 0; i < ev->doc->n && !ev->failed; i++) {
		const struct item *it = &ev->doc->items[i];

		if (!it->var || !row_of(it->over, row))
			continue;
		if ((it->kind == ITEM_DEF ? eval_rates(ev, i, row) :
		     eval_decl(ev, it, row)) < 0)
			return -1;
	}
	return ev->failed ? -1 : 0;
}

/*
 * What the families over the pick's row compute (".sbops" of d.sbops),
 * each after a newline, into rests: the family evaluates those for the
 * pick, and they are not copied.
 */
static void
family_rests(struct modeldoc_eval *ev, const char *pick, struct buf *rests)
{
	const struct modeldoc *doc = ev->doc;
	size_t i, k;

	for (i = 0; i < doc->n; i++) {
		const struct item *it = &doc->items[i];

		if (it->kind != ITEM_DEF || !it->var || !row_of(it->over, pick))
			continue;
		/* A per-rate one, once per rate: ".gap.ops.years_lloyd". */
		for (k = 0; k < (it->per_rate ? doc->nrates : 1); k++) {
			struct bind b;

			bind_init(&b, ev, it, NULL,
				  it->per_rate ? k : NO_RATE);
			buf_addch(rests, '\n');
			if (bound_name(&b, it->name + strlen(it->var), rests))
				buf_addstr(rests, it->name + strlen(it->var));
			buf_addch(rests, '\n');
		}
	}
}

/*
 * The picked row's quantities under the pick's name: each quantity
 * ROW.rest as PICK.rest, with the same value, unit, source and data row.
 * One the data give stays one the data give, its words saying which row
 * it is and why; one computed has the formula ROW.rest (its input) and
 * the pick's note. Then the families over the pick's prefix evaluate
 * their members for it (modeldoc_row()).
 */
/* bsearch() and qsort() of the rests: strcmp() of the strings. */
static int
by_rest(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
copy_row(struct modeldoc_eval *ev, const struct item *it, const char *row)
{
	struct buf name = BUF_INIT, formula = BUF_INIT, rests = BUF_INIT;
	const char *note = it->a[A_NOTE].text;
	size_t k, n = registry_count(ev->reg), rl = strlen(row);
	size_t nrest = 0, cap = 0;
	char **rest = NULL, *p;
	int ret = 0;

	family_rests(ev, it->name, &rests);
	/*
	 * Its lines, sorted, for bisection: a strstr() of the text for
	 * each quantity of the row was 17.4M of every edition's
	 * instructions.
	 */
	for (p = rests.data; *(p += strspn(p, "\n"));) {
		size_t len = strcspn(p, "\n");

		rest = xgrow(rest, &cap, nrest + 1, sizeof(*rest));
		rest[nrest++] = p;
		if (p[len])
			p[len++] = '\0';
		p += len;
	}
	if (nrest)	/* qsort() and bsearch() take no NULL array */
		qsort(rest, nrest, sizeof(*rest), by_rest);
	for (k = 0; k < n && !ret; k++) {
		const struct quantity *q = registry_at(ev->reg, k);
		const char *in = q->ninputs ? q->name : NULL, *tail;
		struct quantity *c;

		if (strncmp(q->name, row, rl) || q->name[rl] != '.')
			continue;
		tail = q->name + rl;
		if (nrest && bsearch(&tail, rest, nrest, sizeof(*rest), by_rest))
			continue;
		buf_reset(&name);
		buf_addstr(&name, it->name);
		buf_addstr(&name, q->name + rl);
		buf_reset(&formula);
		if (in) {
			buf_addstr(&formula, q->name);
			if (note)
				buf_addf(&formula, " (%s)", note);
		} else {
			buf_addf(&formula, "%s; the row %s", q->formula, row);
			if (note)
				buf_addf(&formula, ", %s", note);
		}
		if (q->type == Q_TEXT) {
			c = registry_add_text(ev->reg, name.data, q->text,
					      formula.data, in, q->source,
					      q->origin);
		} else {
			c = registry_add_num(ev->reg, name.data, q->value,
					     q->unit, formula.data, in,
					     q->source, q->origin);
			if (c && in)
				registry_set_expr(c, q->name, note);
		}
		if (!c)
			ret = doc_error(ev->doc, it->off, it->len, "'%s' "
					"could not be added (see above)",
					name.data);
	}
	buf_release(&name);
	buf_release(&formula);
	buf_release(&rests);
	free(rest);
	return ret ? ret : modeldoc_row(ev, it->name);
}

/* Whether a prefix of over is named by a family of the document. */
static int
known_prefix(const struct modeldoc *doc, const char *over)
{
	struct buf row = BUF_INIT;
	const char *p = over;
	size_t i, len;
	int known = 0;

	for (; *p && !known; p += len + (p[len] == ' ')) {
		len = strcspn(p, " ");
		buf_reset(&row);
		buf_add(&row, p, len);
		BUF_ADDLIT(&row, ".x");
		for (i = 0; i < doc->n && !known; i++)
			known = doc->items[i].var &&
				row_of(doc->items[i].over, row.data);
	}
	buf_release(&row);
	return known;
}

/*
 * The rows of a pick (modeldoc_row_id()), each "PREFIX.X" after a
 * newline, into rows; their number. No rows, and a prefix no family of
 * the document names and no quantity starts with: an error (-1).
 */
static long
pick_rows(struct modeldoc_eval *ev, const struct item *it, struct buf *rows)
{
	const struct pick *pk = it->pick;
	struct buf row = BUF_INIT, hint = BUF_INIT;
	size_t k;
	long n = 0;
	char *near[3];

	for (k = 0; k < registry_nids(ev->reg); k++) {
		const char *name = registry_id_at(ev->reg, k)->name;

		if (!modeldoc_row_id(pk->over, name, &row))
			continue;
		buf_addch(rows, '\n');
		buf_addstr(rows, row.data);
		n++;
	}
	if (!n && !known_prefix(ev->doc, pk->over) &&
	    !registry_has(ev->reg, pk->over)) {
		size_t m = registry_suggest_prefix(ev->reg, pk->over, near, 3);

		suggest_hint(&hint, (const char *const *)near, m);
		while (m)
			free(near[--m]);
		n = doc_error(ev->doc, it->expr_off, it->expr_len, "unknown "
			      "family '%s': no rows '%s.X' (X where '%s.X.id' "
			      "is a quantity), and no 'for' of the document "
			      "ranges over it%s", pk->over, pk->over, pk->over,
			      hint.data);
	}
	buf_release(&row);
	buf_release(&hint);
	return n;
}

/*
 * The keys of row (bound to the pick's variable) into key[], each in
 * the unit of the first row's (unit[]; first: set them). Returns 0, 1
 * when the row does not pass "where", or -1 after an error.
 */
static int
pick_keys(struct modeldoc_eval *ev, const struct item *it, const char *row,
	  double *key, struct unit *unit, int first)
{
	const struct pick *pk = it->pick;
	struct bind b = { .ev = ev, .var = pk->var, .row = row };
	struct expr_env env = { ev->reg, resolve_hook, &b, 0 };
	struct value v = { 0 };
	struct buf ua = BUF_INIT, ub = BUF_INIT;
	size_t k;
	int ret = 0;

	if (pk->where) {
		if (expr_eval(pk->where, &env, &v))
			return -1;
		ret = value_truthy(&v) ? 0 : 1;
		value_release(&v);
	}
	for (k = 0; k < pk->nkeys && !ret; k++) {
		const struct expr *e = pk->key[k];

		if (expr_eval(e, &env, &v))
			return -1;
		if (v.type != VALUE_NUMBER) {
			ret = doc_error(ev->doc, expr_loc(e)->off,
					expr_loc(e)->len, "a key of a pick is a "
					"number, and this gives the text '%s' "
					"(row %s)", v.text, row);
		} else if (first) {
			unit[k] = v.unit;
			key[k] = v.num;
		} else if (!unit_same_dim(&v.unit, &unit[k]) ||
			   v.unit.calendar != unit[k].calendar) {
			value_unit_text(&v, &ua);
			unit_format(&ub, &unit[k]);
			ret = doc_error(ev->doc, expr_loc(e)->off,
					expr_loc(e)->len, "this key is in %s "
					"for row %s, and in %s for the rows "
					"before: the rows cannot be compared",
					ua.data, row, ub.data);
		} else {
			key[k] = v.unit.scale == unit[k].scale ? v.num :
				 v.num * (v.unit.scale / unit[k].scale);
		}
		value_release(&v);
	}
	buf_release(&ua);
	buf_release(&ub);
	return ret;
}

/*
 * A pick: of the rows of its prefixes that pass "where", the one with
 * the largest (smallest) first key, ties broken by the next key, then
 * by the rows' order (the first wins); its quantities are copied under
 * the pick's name (copy_row()). No such row: no quantities, and no
 * error (an early edition without a phone). Returns 0, 1 when nothing
 * was picked, or -1 after an error.
 */
static int
eval_pick(struct modeldoc_eval *ev, const struct item *it)
{
	const struct pick *pk = it->pick;
	struct buf rows = BUF_INIT, best = BUF_INIT, row = BUF_INIT;
	struct bind b = { .ev = ev };
	struct expr_env env = { ev->reg, resolve_hook, &b, 1 };
	struct unit unit[PICK_KEYS_MAX];
	double key[PICK_KEYS_MAX], top[PICK_KEYS_MAX];
	struct value v = { 0 };
	const char *p;
	long n;
	int ret = -1;

	if (registry_has(ev->reg, it->name)) {
		doc_error(ev->doc, it->off, it->len, "'%s' is already a "
			  "quantity or a prefix of some: a pick names new "
			  "ones", it->name);
		goto out;
	}
	if (push(ev, it, it->name))
		goto out;
	if (it->when) {
		ret = expr_eval(it->when, &env, &v);
		if (ret < 0)
			goto popped;
		ret = ret == 0 && value_truthy(&v) ? -1 : 1;
		value_release(&v);
		if (ret == 1)
			goto popped;
	}
	ret = -1;
	if ((n = pick_rows(ev, it, &rows)) < 0)
		goto popped;
	for (p = rows.data; *p; p += strcspn(p, "\n")) {
		size_t k;
		int r;

		buf_reset(&row);
		p++;
		buf_add(&row, p, strcspn(p, "\n"));
		r = pick_keys(ev, it, row.data, key, unit, !best.len);
		if (r < 0)
			goto popped;
		if (r)
			continue;
		for (k = 0; best.len && k < pk->nkeys; k++)
			if (key[k] != top[k])
				break;
		if (best.len && (k == pk->nkeys ||
				 (key[k] > top[k]) == pk->smallest))
			continue;
		buf_reset(&best);
		buf_addstr(&best, row.data);
		memcpy(top, key, sizeof(key));
	}
	/* Chosen: copying the row is no loop (modeldoc_need()). */
	pop(ev);
	ret = best.len ? copy_row(ev, it, best.data) : 1;
	goto out;
popped:
	pop(ev);
out:
	buf_release(&rows);
	buf_release(&best);
	buf_release(&row);
	return ret;
}

static int
eval_item(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	int ret;

	if (ev->state[i] == 2)
		return 0;
	ev->state[i] = 1;
	if (it->var)
		ret = eval_family(ev, i);
	else if (it->per_rate)
		ret = eval_rates(ev, i, NULL);
	else if (it->kind == ITEM_DEF)
		ret = eval_def(ev, it, NULL, NO_RATE) < 0 ? -1 : 0;
	else if (it->kind == ITEM_DECL)
		ret = eval_decl(ev, it, NULL);
	else if (it->kind == ITEM_PICK)
		ret = eval_pick(ev, it) < 0 ? -1 : 0;
	else
		ret = eval_call(ev, it);
	ev->state[i] = 2;
	if (ret)
		ev->failed = 1;
	return ret;
}

/*
 * The single definitions that item i reads, depth first, on the stack
 * that push() names a loop from; done marks those walked. Returns -1
 * after the error naming a loop.
 */
static int
walk_defs(struct modeldoc_eval *ev, char *done, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct buf name = BUF_INIT;
	const char *p;
	size_t j;
	int ret = 0;

	if (done[i])
		return 0;
	if (push(ev, it, it->name))
		return -1;
	for (p = it->names ? it->names + 1 : ""; *p && !ret;
	     p += strcspn(p, "\n") + 1) {
		buf_reset(&name);
		buf_add(&name, p, strcspn(p, "\n"));
		if ((j = def_index(ev->doc, name.data)) != (size_t)-1)
			ret = walk_defs(ev, done, j);
	}
	pop(ev);
	done[i] = 1;
	buf_release(&name);
	return ret;
}

/*
 * A loop among the single definitions is named as the loop, whatever
 * order evaluating them would meet it in: on demand, it could first come
 * to a quantity that a provider below gives, and call that unknown
 * ("const.hbar = laptop.ops_max / (2 * pi)": 'laptop.mass'). Returns -1
 * after the error.
 */
static int
find_loop(struct modeldoc_eval *ev)
{
	const struct item *it;
	char *done = xcalloc(ev->doc->n ? ev->doc->n : 1, 1);
	size_t i;
	int ret = 0;

	/* In the document's order, as they are evaluated. */
	for (i = 0; i < ev->doc->n && !ret; i++) {
		it = &ev->doc->items[i];
		if (it->kind == ITEM_DEF && !it->var && !it->per_rate)
			ret = walk_defs(ev, done, i);
	}
	free(done);
	return ret;
}

int
modeldoc_run(struct modeldoc_eval *ev)
{
	size_t i;
	int ret = 0;

	ev->state = xcalloc(ev->doc->n ? ev->doc->n : 1, 1);
	ev->stack = xcalloc(DEPTH_MAX, sizeof(*ev->stack));
	ev->members = NULL;
	ev->nmembers = ev->memberslots = 0;
	ev->depth = 0;
	ev->failed = find_loop(ev) ? 1 : 0;
	for (i = 0; i < ev->doc->n && !ev->failed; i++)
		if (eval_item(ev, i))
			ret = -1;
	if (ev->failed)
		ret = -1;
	while (ev->depth)
		pop(ev);
	free(ev->stack);
	ev->stack = NULL;
	for (i = 0; i < ev->memberslots; i++)
		free(ev->members[i]);
	free(ev->members);
	ev->members = NULL;
	free(ev->state);
	ev->state = NULL;
	return ret;
}

size_t
modeldoc_nparts(const struct modeldoc *doc)
{
	return doc->nparts;
}

void
modeldoc_part(const struct modeldoc *doc, size_t i, struct modeldoc_part *out)
{
	const struct part *p = &doc->parts[i];

	out->block = p->block;
	out->text = doc->f->data + p->off;
	out->len = p->len;
	out->from = p->from;
	out->to = p->to;
}

const char *
modeldoc_item(const struct modeldoc *doc, size_t i, enum modeldoc_kind *kind)
{
	*kind = (enum modeldoc_kind)doc->items[i].kind;
	return doc->items[i].name;
}

size_t
modeldoc_nitems(const struct modeldoc *doc)
{
	return doc->n;
}

void
modeldoc_def(const struct modeldoc *doc, size_t i, struct modeldoc_def *out)
{
	const struct item *it = &doc->items[i];

	out->name = it->name;
	out->expr = it->expr;
	out->unit = it->a[A_UNIT].text;
	out->symbol = it->a[A_SYMBOL].text;
	out->note = it->a[A_NOTE].text;
	out->source = it->a[A_SOURCE].text;
	out->var = it->var;
	out->over = it->over;
	out->rvar = it->rvar;
	out->shown = it->shown ? it->shown : it->expr;
	out->shown_name = it->shown_name ? it->shown_name : it->name;
	out->shown_symbol = it->shown_symbol ? it->shown_symbol :
			    it->a[A_SYMBOL].text;
	out->per_rate = it->per_rate;
	out->pick = it->kind == ITEM_PICK ? it->expr_text : NULL;
}

const char *
modeldoc_rate(const struct modeldoc *doc, size_t k)
{
	return k < doc->nrates ? doc->items[doc->rates[k]].name : NULL;
}
