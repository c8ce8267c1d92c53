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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "hash.h"
#include "modeldoc.h"
#include "modeldocint.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

static const char fence_open[] = "```define";
#define ATTR_LIST "unit, symbol, note, source, rate, tag, when, value, " \
		  "label, needs, check and place"
static const char fence_close[] = "```";

int
modeldoc_name_char(char c)
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

		while (i < end && modeldoc_name_char(s[i]))
			i++;
		if (i >= end || s[i] != '{')
			return i;
		for (k = i + 1; k < end && modeldoc_name_char(s[k]) && s[k] != '.';
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

int
modeldoc_error(const struct modeldoc *doc, size_t off, size_t len,
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

		modeldoc_error(doc, off + k, kl, "unknown attribute '%s': a "
			  "definition has %s", key, ATTR_LIST);
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
 * Whether the len bytes at s are "WORD NAME in ...": a pick (largest,
 * smallest), a set of rows (rows) or a trend (trend). No expression
 * reads so (two names in a row).
 */
static int
rule_word(const char *s, size_t len, const char *word)
{
	size_t i = strlen(word), n;

	if (len <= i || memcmp(s, word, i) || s[i] != ' ')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	n = i;
	while (i < len && modeldoc_name_char(s[i]) && s[i] != '.')
		i++;
	return i > n && len - i >= 4 && !memcmp(s + i, " in ", 4);
}

static int
pick_word(const char *s, size_t len)
{
	return rule_word(s, len, "largest") || rule_word(s, len, "smallest");
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
		while (n < end && modeldoc_name_char(s[n]))
			n++;
		if (n == i || n != end)
			return modeldoc_error(doc, off, len, "'call' takes the name "
					 "of one provider");
		new_item(doc, ITEM_CALL, s, i, n - i);
		return 0;
	}
	i = name_end(s, i, end);
	/* "series.*.fit_all.to": a symbol for every name it matches. */
	while (i < end && s[i] == '*' && (i == off || s[i - 1] == '.') &&
	       (i + 1 == end || s[i + 1] == '.' || s[i + 1] == ' '))
		i = name_end(s, i + 1, end);
	name = unbraced(s + off, i - off);
	for (n = 0; name[n]; n++)
		if (name[n] == '*')
			name[n] = 'x';
	problem = i == off ? "a definition starts with a name" :
		  registry_name_problem(name);
	if (problem) {
		modeldoc_error(doc, off, i > off ? i - off : len, "'%.*s' is not a "
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
		return modeldoc_error(doc, i, 1, "expected '=' or the end of the "
				 "line after the name");
	if (memchr(s + off, '*', n - off))
		return modeldoc_error(doc, off, n - off, "a name with '*' "
				      "parts declares the symbol of the names "
				      "it matches: it has no '='");
	*cur = new_item(doc, ITEM_DEF, s, off, n - off);
	i++;
	while (i < end && s[i] == ' ')
		i++;
	if (pick_word(s + i, end - i))
		(*cur)->kind = ITEM_PICK;
	else if (rule_word(s + i, end - i, "rows"))
		(*cur)->kind = ITEM_ROWS;
	else if (rule_word(s + i, end - i, "trend"))
		(*cur)->kind = ITEM_TREND;
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
		/* A family's variable: the row's last part ("laptop"). */
		if (it->var && strlen(it->var) == n &&
		    !memcmp(b + 1, it->var, n))
			continue;
		if (it->rvar)
			return modeldoc_error(doc, off, len, "'{%.*s}' is no rate "
					 "variable: this block's rates are "
					 "'{%s}'", (int)n, b + 1, it->rvar);
		return modeldoc_error(doc, off, len, "'{%.*s}' stands for a rate: "
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
	while (*i < end && modeldoc_name_char(s[*i]) && (dots || s[*i] != '.'))
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
		return modeldoc_error(doc, from ? from - 1 : 0, 1, "expected %s",
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
				ret = modeldoc_error(doc, w, n, "'%s' is not a "
						"prefix of names: %s", word,
						problem);
			buf_addf(&over, "%s%s", over.len ? " " : "", word);
			free(word);
		}
	}
	pk->over = buf_detach(&over, NULL);
	if (!*pk->over)
		return modeldoc_error(doc, w, i > w ? i - w : 1, "expected the "
				 "prefix of the rows after 'in'");
	if (n != 2 || memcmp(s + w, "by", 2))
		return modeldoc_error(doc, w, n ? n : 1, "expected 'by' and the "
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
					       !modeldoc_name_char(s[i + 5]));
		if (!stop && (depth || s[i] != ','))
			continue;
		if (pk->nkeys == PICK_KEYS_MAX)
			return modeldoc_error(doc, start, i - start, "a pick has "
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


/* The clauses a rule may have, by kind of item. */
static const char *const rows_clauses[] = { "records", "where", NULL };
static const char *const trend_clauses[] = { "of", "from", "to", "where",
					     "distinct", NULL };
static const char *const data_clauses[] = { "where", "by", NULL };

/*
 * Where the next clause keyword of kw starts in [i, end) of s: a whole
 * word after a space, outside brackets and strings; end when none. *k
 * gets its index in kw.
 */
static size_t
next_clause(const char *s, size_t i, size_t end, const char *const *kw,
	    size_t *k)
{
	size_t depth = 0, n;

	for (; i < end; i++) {
		if (s[i] == '"') {
			for (i++; i < end && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && depth)
			depth--;
		if (depth || !is_space(s[i - 1]))
			continue;
		for (*k = 0; kw[*k]; (*k)++) {
			n = strlen(kw[*k]);
			if (end - i >= n && !memcmp(s + i, kw[*k], n) &&
			    (i + n == end || !modeldoc_name_char(s[i + n])))
				return i;
		}
	}
	return end;
}

/* The slot of clause word in rule r. */
static struct expr **
clause_slot(struct rowrule *r, const char *word)
{
	if (!strcmp(word, "where"))
		return &r->where;
	if (!strcmp(word, "records"))
		return &r->records;
	if (!strcmp(word, "of"))
		return &r->of;
	if (!strcmp(word, "from"))
		return &r->from;
	if (!strcmp(word, "to"))
		return &r->to;
	if (!strcmp(word, "distinct"))
		return &r->distinct;
	return &r->by;
}

/*
 * "VAR in SOURCE CLAUSE EXPR ..." at [i, end) into a new rule: SOURCE a
 * name (or, when ranges, "linspace(A, B, N)" or "logspace(A, B, N)"),
 * each clause one of kw and at most once ("records" is "records by").
 * Returns the rule, or NULL after errors.
 */
static struct rowrule *
parse_rule(struct modeldoc *doc, size_t i, size_t end,
	   const char *const *kw, int ranges)
{
	const char *s = doc->f->data;
	struct rowrule *r = xcalloc(1, sizeof(*r));
	size_t n, k, at, next;
	int bad = 0;

	n = word_at(s, &i, end, 0);
	r->var = xstrndup(s + i - n, n);
	if (!n || word_at(s, &i, end, 0) != 2 || memcmp(s + i - 2, "in", 2)) {
		modeldoc_error(doc, i - n, n ? n : 1, "expected 'VAR in "
			       "SOURCE': a name without dots, then the rows");
		goto fail;
	}
	n = word_at(s, &i, end, 1);
	r->source_off = i - n;
	r->source_len = n;
	r->source = xstrndup(s + i - n, n);
	if (ranges && i < end && s[i] == '(' && (!strcmp(r->source,
	    "linspace") || !strcmp(r->source, "logspace"))) {
		struct expr **arg[3] = { &r->from, &r->to, &r->count };
		size_t a = 0, depth = 0, start = ++i;

		/* Its three arguments, split at the commas outside brackets. */
		for (; i < end && a < 3; i++) {
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')' && depth)
				depth--;
			else if ((s[i] == ',' || s[i] == ')') && !depth) {
				if ((s[i] == ')') != (a == 2) ||
				    pick_expr(doc, start, i, "a number", arg[a]))
					break;
				a++;
				start = i + 1;
			}
		}
		if (a < 3) {
			modeldoc_error(doc, r->source_off, end - r->source_off,
				       "expected %s(FROM, TO, POINTS)",
				       r->source);
			goto fail;
		}
		r->range = !strcmp(r->source, "linspace") ? 1 : 2;
	} else if (!n || registry_name_problem(r->source)) {
		modeldoc_error(doc, r->source_off, n ? n : 1, "expected the "
			       "rows after 'in': a data file's prefix or a "
			       "set of rows the document names");
		goto fail;
	}
	while (i < end && is_space(s[i]))
		i++;
	if (i < end && next_clause(s, i, end, kw, &k) != i) {
		modeldoc_error(doc, i, end - i, "expected one of the clauses "
			       "after the rows");
		goto fail;
	}
	while (i < end) {
		struct expr **slot;

		at = next_clause(s, i, end, kw, &k);
		i = at + strlen(kw[k]);
		if (!strcmp(kw[k], "records")) {
			if (word_at(s, &i, end, 0) != 2 ||
			    memcmp(s + i - 2, "by", 2)) {
				modeldoc_error(doc, at, i - at, "expected "
					       "'records by KEY'");
				goto fail;
			}
		}
		slot = clause_slot(r, kw[k]);
		if (*slot) {
			modeldoc_error(doc, at, strlen(kw[k]), "a second "
				       "'%s'", kw[k]);
			goto fail;
		}
		next = next_clause(s, i, end, kw, &k);
		if (pick_expr(doc, i, next, "an expression after the clause",
			      slot))
			bad = -1;
		i = next;
	}
	if (!bad)
		return r;
fail:
	rowrule_free(r);
	return NULL;
}

/*
 * "check: CONDITION: WHY" c: the condition parsed, the words after the
 * first colon outside brackets and strings its reason.
 */
static int
parse_check(struct modeldoc *doc, struct check *c)
{
	const struct attr *a = &c->a;
	const char *s = doc->f->data;
	size_t i, depth = 0, end = a->off + a->len;

	for (i = a->off; i < end; i++) {
		if (s[i] == '"') {
			for (i++; i < end && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && depth)
			depth--;
		else if (!depth && s[i] == ':' && i + 1 < end &&
			 s[i + 1] == ' ')
			break;
	}
	if (i >= end)
		return modeldoc_error(doc, a->off, a->len, "expected 'check: "
				      "CONDITION: WHY', the reason after a "
				      "colon");
	c->reason = a->text + (i + 2 - a->off);
	return pick_expr(doc, a->off, i, "a condition", &c->cond);
}

/* "needs: N points, Y years" of a trend. */
static int
parse_needs(struct modeldoc *doc, struct item *it)
{
	const struct attr *a = &it->a[A_NEEDS];
	char *end;
	double y;
	unsigned long p = strtoul(a->text, &end, 10);

	if (end == a->text || strncmp(end, " points, ", 9))
		goto bad;
	y = strtod(end + 9, &end);
	if (strcmp(end, " years") || !(y >= 0) || p < 2 || p > 1000000)
		goto bad;
	it->need_points = p;
	it->need_years = y;
	return 0;
bad:
	return modeldoc_error(doc, a->off, a->len, "expected 'needs: N "
			      "points, Y years', N 2 or more");
}

/* Whether name holds "{var}". */
static int
brace_of(const char *name, const char *var)
{
	const char *b;
	size_t n = strlen(var);

	for (b = strchr(name, '{'); b; b = strchr(b + 1, '{'))
		if (!strncmp(b + 1, var, n) && b[n + 1] == '}')
			return 1;
	return 0;
}

/* The attributes item kind k takes, for messages. */
static int
only_for(struct modeldoc *doc, const struct item *it, int a, int ok,
	 const char *who)
{
	if (!it->a[a].text || ok)
		return 0;
	return modeldoc_error(doc, it->a[a].off, it->a[a].len, "'%s:' is %s",
			      attr_names[a], who);
}

/* A set of rows, a trend: the rule and the attributes they take. */
static int
finish_rule(struct modeldoc *doc, struct item *it)
{
	const char *s = doc->f->data;
	size_t w = strcspn(s + it->expr_off, " ");
	int rows = it->kind == ITEM_ROWS, trend = it->kind == ITEM_TREND;
	int ret = 0;

	ret |= only_for(doc, it, A_VALUE, rows, "a set of rows' (rows VAR "
			"in SOURCE)");
	ret |= only_for(doc, it, A_LABEL, rows, "a set of rows' (rows VAR "
			"in SOURCE)");
	ret |= only_for(doc, it, A_NEEDS, trend, "a trend's (trend VAR in "
			"SOURCE)");
	ret |= only_for(doc, it, A_PLACE, 0, "a dataset's (data NAME for "
			"...)");
	if (!rows && !trend)
		return ret;
	if (it->var)
		return modeldoc_error(doc, it->off, it->len, "a %s is no member "
				      "of a family: write it in a block "
				      "without 'for'", rows ? "set of rows" :
				      "trend");
	if ((rows && it->a[A_UNIT].text) || it->a[A_SYMBOL].text ||
	    it->a[A_RATE].text)
		ret = modeldoc_error(doc, it->off, it->len, "'%s' is a %s: "
				     "its quantities have units and symbols "
				     "of their own (it takes note:, source:, "
				     "when:%s)", it->name, rows ? "set of rows" :
				     "trend", rows ? ", value:, label: and "
				     "check:" : ", needs: and unit: (of its "
				     "values)");
	it->expr_text = one_line(s + it->expr_off, it->expr_len);
	it->rule = parse_rule(doc, it->expr_off + w, it->expr_off +
			      it->expr_len, rows ? rows_clauses :
			      trend_clauses, 0);
	if (!it->rule)
		return -1;
	if (it->a[A_VALUE].text &&
	    pick_expr(doc, it->a[A_VALUE].off, it->a[A_VALUE].off +
		      it->a[A_VALUE].len, "an expression", &it->value))
		ret = -1;
	if (it->a[A_LABEL].text &&
	    pick_expr(doc, it->a[A_LABEL].off, it->a[A_LABEL].off +
		      it->a[A_LABEL].len, "an expression", &it->label))
		ret = -1;
	if (it->a[A_NEEDS].text && parse_needs(doc, it))
		ret = -1;
	if (trend && !it->a[A_NEEDS].text)
		it->need_points = 2;
	return ret;
}

/* A dataset's "place: X, Y [where COND]". */
static int
parse_place(struct modeldoc *doc, struct item *it)
{
	static const char *const kw[] = { "where", NULL };
	const struct attr *a = &it->a[A_PLACE];
	const char *s = doc->f->data;
	size_t i = a->off, end = a->off + a->len, k, w, n;

	if (!a->text)
		return 0;
	n = word_at(s, &i, end, 0);
	it->place_x = xstrndup(s + i - n, n);
	while (i < end && is_space(s[i]))
		i++;
	if (!n || i >= end || s[i] != ',')
		goto bad;
	i++;
	n = word_at(s, &i, end, 0);
	it->place_y = xstrndup(s + i - n, n);
	if (!n)
		goto bad;
	while (i < end && is_space(s[i]))
		i++;
	if (i == end)
		return 0;
	w = next_clause(s, i, end, kw, &k);
	if (w != i)
		goto bad;
	return pick_expr(doc, i + 5, end, "a condition after 'where'",
			 &it->place_where);
bad:
	return modeldoc_error(doc, a->off, a->len, "expected 'place: X, Y' "
			      "(two of its columns), and maybe 'where "
			      "CONDITION'");
}

/*
 * A dataset's header ("data NAME for VAR in SOURCE ...": its rule was
 * read with its line) or one of its columns ("NAME = EXPR", unit:
 * optional): names unique within the dataset.
 */
static int
finish_data(struct modeldoc *doc, struct item *it)
{
	struct buf err = BUF_INIT;
	size_t i;
	int ret = 0, a;

	for (a = 0; a < NATTR; a++)
		if (it->a[a].text && a != A_NOTE && a != A_UNIT &&
		    (it->kind != ITEM_DATA || a != A_PLACE))
			ret = modeldoc_error(doc, it->a[a].off, it->a[a].len,
					     "a dataset's %s takes %s", it->kind ==
					     ITEM_DATA ? "header" : "column",
					     it->kind == ITEM_DATA ? "note:, "
					     "unit: (of a range) and place:" :
					     "note: and unit:");
	if (it->kind == ITEM_DATA && it->a[A_UNIT].text && it->rule &&
	    !it->rule->range)
		ret = modeldoc_error(doc, it->a[A_UNIT].off, it->a[A_UNIT].len,
				     "a dataset's unit: is its range's (for V "
				     "in linspace(...))");
	if (it->kind == ITEM_DATA && it->a[A_UNIT].text &&
	    unit_parse(it->a[A_UNIT].text, &it->dim, &err)) {
		struct srcloc loc = { doc->f, it->a[A_UNIT].off,
				      it->a[A_UNIT].len };

		ret = error_at(&loc, "%s", err.data);
	}
	if (it->kind == ITEM_DATA) {
		buf_release(&err);
		return ret | parse_place(doc, it);
	}
	for (i = it->data + 1; i < (size_t)(it - doc->items); i++)
		if (!strcmp(doc->items[i].name, it->name))
			ret = modeldoc_error(doc, it->off, it->len, "a second "
					     "column '%s' of the dataset",
					     it->name);
	if (strchr(it->name, '.') || strchr(it->name, '{'))
		ret = modeldoc_error(doc, it->off, it->len, "a column's name "
				     "is one word: a-z, 0-9 and _");
	it->expr = expr_parse(doc->f, it->expr_off, it->expr_len);
	if (!it->expr)
		ret = -1;
	it->expr_text = one_line(doc->f->data + it->expr_off, it->expr_len);
	it->any_unit = !it->a[A_UNIT].text;
	if (it->a[A_UNIT].text && unit_parse(it->a[A_UNIT].text, &it->dim,
					     &err)) {
		struct srcloc loc = { doc->f, it->a[A_UNIT].off,
				      it->a[A_UNIT].len };

		ret = error_at(&loc, "%s", err.data);
	}
	buf_release(&err);
	return ret;
}

/* Checks a finished item: its expression, unit and name. */
static int
finish(struct modeldoc *doc, struct item *it)
{
	struct buf err = BUF_INIT;
	size_t k;
	int ret = 0;

	if (it->kind == ITEM_CALL)
		return 0;
	if (it->kind == ITEM_COLUMN || it->kind == ITEM_DATA)
		return finish_data(doc, it);
	if (it->var && (strncmp(it->name, it->var, strlen(it->var)) ||
			it->name[strlen(it->var)] != '.') &&
	    !brace_of(it->name, it->var))
		ret = modeldoc_error(doc, it->off, it->len, "in a family over "
				"'%s', a name starts with '%s.' or holds "
				"'{%s}'", it->var, it->var, it->var);
	for (k = 0; k < it->nchecks; k++)
		if (parse_check(doc, &it->checks[k]))
			ret = -1;
	ret |= finish_rule(doc, it);
	if (check_braces(doc, it, it->name, it->off, it->len))
		ret = -1;
	it->per_rate = it->rvar && brace_of(it->name, it->rvar);
	if (strchr(it->name, '{'))
		it->shown_name = unbraced(it->name, strlen(it->name));
	if (it->a[A_SYMBOL].text && strchr(it->a[A_SYMBOL].text, '{'))
		it->shown_symbol = unbraced(it->a[A_SYMBOL].text,
					    strlen(it->a[A_SYMBOL].text));
	if (it->per_rate && it->kind != ITEM_DEF)
		ret = modeldoc_error(doc, it->off, it->len, "a name with '{%s}' is "
				"a definition: one quantity per rate", it->rvar);
	if (it->a[A_RATE].text && (it->var || it->per_rate))
		ret = modeldoc_error(doc, it->a[A_RATE].off, it->a[A_RATE].len,
				"a rate is one quantity, not a family's");
	if (it->a[A_TAG].text && !it->a[A_RATE].text)
		ret = modeldoc_error(doc, it->a[A_TAG].off, it->a[A_TAG].len,
				"'tag:' is a rate's: its subscript in the "
				"symbols of the quantities counted at it");
	if (it->a[A_WHEN].text) {
		it->when = expr_parse(doc->f, it->a[A_WHEN].off,
				      it->a[A_WHEN].len);
		if (!it->when) {
			ret = -1;
		} else {
			struct buf names = BUF_INIT;

			buf_addch(&names, '\n');
			expr_inputs(it->when, &names);
			it->when_names = buf_detach(&names, NULL);
		}
	}
	if (it->kind == ITEM_PICK) {
		it->expr_text = one_line(doc->f->data + it->expr_off,
					 it->expr_len);
		if (it->var)
			ret = modeldoc_error(doc, it->off, it->len, "a pick is no "
					"member of a family: write it in a "
					"block without 'for'");
		if (it->a[A_UNIT].text || it->a[A_SYMBOL].text ||
		    it->a[A_RATE].text)
			ret = modeldoc_error(doc, it->off, it->len, "'%s' is a "
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
			it->reduces = expr_reduces(it->expr);
			if (!it->per_rate && it->rvar &&
			    strstr(it->names, "{"))
				ret = modeldoc_error(doc, it->off, it->len, "'%s' "
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
			ret = modeldoc_error(doc, it->off, it->len, "'%s' has no "
					"unit: add a line 'unit: ...' (empty "
					"for a pure number)", it->name);
	}
	it->any_unit = it->a[A_UNIT].text && !strcmp(it->a[A_UNIT].text, "*");
	if (it->a[A_UNIT].text && !it->any_unit &&
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
	while (i < end && modeldoc_name_char(s[i]) && s[i] != '.')
		i++;
	if (i == v || end - i < 4 || memcmp(s + i, " in ", 4))
		return modeldoc_error(doc, off, len, "expected 'for VAR in PREFIX "
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
			ret = modeldoc_error(doc, w, i - w, "'%s' is not a prefix "
					"of names: %s", word,
					registry_name_problem(word));
		}
		buf_addf(&words, "%s%s", words.len ? " " : "", word);
		free(word);
	}
	if (!words.len && !ret)
		ret = modeldoc_error(doc, off, len, "'for %s in' names no prefix "
				"of rows", *var);
	doc->fams[doc->nfams++] = buf_detach(&words, NULL);
	*over = doc->fams[doc->nfams - 1];
	return ret;
}

/*
 * A dataset's first line, "data NAME for VAR in SOURCE [where COND]
 * [by KEY]" (SOURCE may be a range, linspace(A, B, N) or logspace(A, B,
 * N)): a new item, or NULL after errors.
 */
static struct item *
data_line(struct modeldoc *doc, size_t off, size_t len, int *bad)
{
	const char *s = doc->f->data;
	size_t i = off + 5, end = off + len, n;
	struct item *it;

	n = word_at(s, &i, end, 0);
	if (!n || strspn(s + i - n, "abcdefghijklmnopqrstuvwxyz0123456789_") <
	    n) {
		modeldoc_error(doc, i - n, n ? n : 1, "expected 'data NAME for "
			       "VAR in SOURCE': a dataset's name is a-z, 0-9 "
			       "and _");
		return NULL;
	}
	it = new_item(doc, ITEM_DATA, s, i - n, n);
	if (word_at(s, &i, end, 0) != 3 || memcmp(s + i - 3, "for", 3)) {
		modeldoc_error(doc, off, len, "expected 'data NAME for VAR in "
			       "SOURCE'");
		return NULL;
	}
	it->expr_off = i;
	it->expr_len = end - i;
	it->expr_text = one_line(s + i, end - i);
	it->rule = parse_rule(doc, i, end, data_clauses, 1);
	/* Its attributes and columns follow it either way. */
	*bad = !it->rule;
	return it;
}

/*
 * A block's "for VAR in OVER" line at off: a family's variable and
 * prefixes, or the rates' variable, into the block's. Returns 0, or -1
 * after an error.
 */
static int
for_line(struct modeldoc *doc, size_t off, size_t len, const char **fam_var,
	 const char **fam_over, const char **fam_rvar)
{
	const char *var = NULL, *over = NULL;

	if (parse_for(doc, off, len, &var, &over))
		return -1;
	if ((*fam_var && !strcmp(var, *fam_var)) ||
	    (*fam_rvar && !strcmp(var, *fam_rvar)))
		return modeldoc_error(doc, off, len, "'%s' is this block's "
				      "variable already", var);
	if (!strcmp(over, "rates") && *fam_rvar)
		return modeldoc_error(doc, off, len, "a block has one 'for "
				      "... in rates'");
	if (!strcmp(over, "rates")) {
		*fam_rvar = var;
		return 0;
	}
	if (*fam_var)
		return modeldoc_error(doc, off, len, "a block is a family "
				      "over one set of rows (and the rates)");
	*fam_var = var;
	*fam_over = over;
	return 0;
}

/*
 * Attribute a of cur, its text at toff of the line at off: once each,
 * but for "check:", as many as wanted (a[A_CHECK] keeps the first).
 * Returns 0, or -1 after an error.
 */
static int
add_attr(struct modeldoc *doc, struct item *cur, int a, size_t off,
	 size_t len, size_t toff)
{
	const char *s = doc->f->data;
	struct attr *at = &cur->a[a];

	if (a == A_CHECK) {
		struct check *c;

		cur->checks = xreallocarray(cur->checks, cur->nchecks + 1,
					    sizeof(*c));
		c = &cur->checks[cur->nchecks++];
		memset(c, 0, sizeof(*c));
		c->a.off = toff;
		c->a.len = off + len - toff;
		c->a.text = xstrndup(s + toff, c->a.len);
		if (at->text)
			return 0;
	}
	if (at->text)
		return modeldoc_error(doc, off, len, "a second '%s:' for '%s'",
				      attr_names[a], cur->name);
	at->off = toff;
	at->len = off + len - toff;
	at->text = xstrndup(s + toff, at->len);
	return 0;
}

static int
parse(struct modeldoc *doc)
{
	const char *fam_var = NULL, *fam_over = NULL, *fam_rvar = NULL;
	const char *s = doc->f->data;
	size_t off = 0, prose = 0, data = SIZE_MAX;
	int bad = 0;
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
				data = SIZE_MAX;
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
		} else if (len > 5 && !memcmp(s + off, "data ", 5)) {
			if (cur || doc->n != doc->parts[doc->nparts - 1].from)
				ret = modeldoc_error(doc, off, len, "'data' is "
						     "the first line of a block: "
						     "the whole block is the "
						     "dataset");
			else if (bad = 0, !(cur = data_line(doc, off, len,
							     &bad)))
				ret = -1;
			else
				data = doc->n - 1;
			if (bad)
				ret = -1;
		} else if (len > 4 && !memcmp(s + off, "for ", 4)) {
			if (cur || doc->n != doc->parts[doc->nparts - 1].from)
				ret = modeldoc_error(doc, off, len, "'for' is the "
						"first line of a block: the "
						"whole block is the family");
			else if (for_line(doc, off, len, &fam_var, &fam_over,
					  &fam_rvar))
				ret = -1;
		} else if (s[off] != ' ' && s[off] != '\t') {
			size_t had = doc->n;

			if (cur && finish(doc, cur))
				ret = -1;
			if (head_line(doc, off, len, &cur))
				ret = -1;
			if (data != SIZE_MAX && (!cur || cur->kind != ITEM_DEF)) {
				ret = modeldoc_error(doc, off, len, "a dataset's "
						     "block holds its columns: "
						     "NAME = EXPRESSION");
				cur = NULL;
			} else if (cur && data != SIZE_MAX) {
				cur->kind = ITEM_COLUMN;
				cur->data = data;
			} else if (cur) {
				cur->var = fam_var;
				cur->over = fam_over;
				cur->rvar = fam_rvar;
			} else if ((fam_var || fam_rvar) && doc->n > had) {
				ret = modeldoc_error(doc, off, len, "a family "
						"block calls no provider");
			}
		} else if (!cur) {
			ret = modeldoc_error(doc, off, len, "an indented line "
					"belongs to the definition above it, "
					"and there is none");
		} else if ((a = attr_line(doc, off, len, &toff)) < 0) {
			ret = -1;
		} else if (a < NATTR) {
			if (add_attr(doc, cur, a, off, len, toff))
				ret = -1;
		} else if ((cur->kind == ITEM_DEF || cur->kind == ITEM_PICK ||
			    cur->kind == ITEM_ROWS || cur->kind == ITEM_TREND ||
			    cur->kind == ITEM_COLUMN) && !has_attr(cur)) {
			/* The expression goes on. */
			cur->expr_len = off + len - cur->expr_off;
		} else {
			ret = modeldoc_error(doc, off, len, "expected 'key: text' "
					"(%s)", ATTR_LIST);
		}
		off = next;
	}
	if (in_block) {
		if (cur && finish(doc, cur))
			ret = -1;
		ret = modeldoc_error(doc, block_off, sizeof(fence_open) - 1,
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
	const struct modeldoc_key *x = a, *y = b;
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

/*
 * A per-rate definition's name's parts that every member's name holds:
 * the text after its family's variable up to the first brace, and the
 * text after the last.
 */
static void
rated_parts(struct item *it)
{
	const char *from = it->name + (it->var ? strlen(it->var) : 0);
	const char *open = strchr(from, '{'), *close = strrchr(from, '}');

	it->rated_in = xstrndup(from, (size_t)(open - from));
	it->rated_end = close + 1;
	it->rated_endlen = strlen(it->rated_end);
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

		if (it->kind == ITEM_ROWS)
			doc->views = push_index(doc->views, &doc->nviews, i);
		if (it->kind == ITEM_PICK || it->kind == ITEM_ROWS ||
		    it->kind == ITEM_TREND) {
			/* Each names the quantities under its name. */
			doc->picks = push_index(doc->picks, &doc->npicks, i);
		} else if (it->kind != ITEM_DEF) {
			continue;
		} else if (it->per_rate) {
			doc->rated = push_index(doc->rated, &doc->nrated, i);
			rated_parts(&doc->items[i]);
		} else if (it->var) {
			/* Its last part; all of a name like "x_{b}". */
			const char *dot = strrchr(it->name, '.');

			doc->members[doc->nmembers].key = dot ? dot + 1 :
							  it->name;
			doc->members[doc->nmembers++].i = i;
		} else {
			doc->singles[doc->nsingles].key = it->name;
			doc->singles[doc->nsingles++].i = i;
		}
	}
	doc->picklen = xcalloc(doc->npicks ? doc->npicks : 1,
			       sizeof(*doc->picklen));
	for (i = 0; i < doc->npicks; i++)
		doc->picklen[i] = strlen(doc->items[doc->picks[i]].name);
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
const struct modeldoc_key *
modeldoc_key_find(const struct modeldoc_key *keys, size_t n,
		  const char *key)
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

static int
by_key_then_index(const void *a, const void *b)
{
	const struct modeldoc_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/*
 * A name defined twice: an error at the later definition, naming the
 * line of the first. (Sorted once: a search of the items before each
 * was quadratic in the document's length.) Returns -1 after errors.
 */
static int
twins(struct modeldoc *doc)
{
	struct modeldoc_key *k = xcalloc(doc->n ? doc->n : 1, sizeof(*k));
	size_t i, n = 0, line, col;
	int ret = 0;

	for (i = 0; i < doc->n; i++) {
		enum item_kind kind = doc->items[i].kind;

		if (kind == ITEM_DEF || kind == ITEM_DECL || kind == ITEM_PICK ||
		    kind == ITEM_ROWS || kind == ITEM_TREND) {
			k[n].key = doc->items[i].name;
			k[n++].i = i;
		}
	}
	if (n)
		qsort(k, n, sizeof(*k), by_key_then_index);
	for (i = 1; i < n; i++) {
		size_t first = i - 1;
		const struct item *it = &doc->items[k[i].i];

		if (strcmp(k[i].key, k[first].key))
			continue;
		while (first && !strcmp(k[first - 1].key, k[i].key))
			first--;
		srcfile_locate(doc->f, doc->items[k[first].i].off, &line, &col);
		ret = modeldoc_error(doc, it->off, it->len, "'%s' is already "
				     "defined on line %zu", it->name, line);
	}
	free(k);
	return ret;
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
	if (!doc->f || srcfile_check_text(doc->f) || parse(doc) ||
	    twins(doc)) {
		modeldoc_free(doc);
		return NULL;
	}
	for (i = 0; i < doc->n; i++)
		if (doc->items[i].kind == ITEM_DECL &&
		    strchr(doc->items[i].name, '*') &&
		    doc->items[i].a[A_SYMBOL].text) {
			doc->patterns = xreallocarray(doc->patterns,
						      doc->npatterns + 1,
						      sizeof(*doc->patterns));
			doc->patterns[doc->npatterns][0] = doc->items[i].name;
			doc->patterns[doc->npatterns++][1] =
				doc->items[i].a[A_SYMBOL].text;
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

void
rowrule_free(struct rowrule *r)
{
	if (!r)
		return;
	free(r->var);
	free(r->source);
	expr_free(r->from);
	expr_free(r->to);
	expr_free(r->count);
	expr_free(r->where);
	expr_free(r->records);
	expr_free(r->of);
	expr_free(r->distinct);
	expr_free(r->by);
	free(r);
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
	size_t i, k;
	int j;

	if (!doc)
		return;
	for (i = 0; i < doc->n; i++) {
		free(doc->items[i].name);
		expr_free(doc->items[i].expr);
		expr_free(doc->items[i].when);
		pick_free(doc->items[i].pick);
		rowrule_free(doc->items[i].rule);
		expr_free(doc->items[i].value);
		expr_free(doc->items[i].label);
		for (k = 0; k < doc->items[i].nchecks; k++) {
			expr_free(doc->items[i].checks[k].cond);
			free(doc->items[i].checks[k].a.text);
		}
		free(doc->items[i].checks);
		free(doc->items[i].place_x);
		free(doc->items[i].place_y);
		expr_free(doc->items[i].place_where);
		free(doc->items[i].names);
		free(doc->items[i].when_names);
		free(doc->items[i].rated_in);
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
	free(doc->patterns);
	free(doc->views);
	free(doc->singles);
	free(doc->members);
	free(doc->picks);
	free(doc->picklen);
	free(doc->rated);
	for (i = 0; i < doc->nfams; i++)
		free(doc->fams[i]);
	free(doc->fams);
	srcfile_free(doc->f);
	free(doc);
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
	out->rule = it->rule ? it->expr_text : NULL;
	out->value = it->a[A_VALUE].text;
	out->label = it->a[A_LABEL].text;
	out->needs = it->a[A_NEEDS].text;
	out->text = it->expr_text;
	out->nchecks = it->nchecks;
}

const char *
modeldoc_rate(const struct modeldoc *doc, size_t k)
{
	return k < doc->nrates ? doc->items[doc->rates[k]].name : NULL;
}
