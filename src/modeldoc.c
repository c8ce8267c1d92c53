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
#include "modeldocint.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

static const char fence_open[] = "```define";
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

		modeldoc_error(doc, off + k, kl, "unknown attribute '%s': a "
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
	while (i < len && modeldoc_name_char(s[i]) && s[i] != '.')
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
		while (n < end && modeldoc_name_char(s[n]))
			n++;
		if (n == i || n != end)
			return modeldoc_error(doc, off, len, "'call' takes the name "
					 "of one provider");
		new_item(doc, ITEM_CALL, s, i, n - i);
		return 0;
	}
	i = name_end(s, i, end);
	name = unbraced(s + off, i - off);
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
		ret = modeldoc_error(doc, it->off, it->len, "'%s' is already "
				"defined on line %s", it->name, where);
	}
	if (it->var && (strncmp(it->name, it->var, strlen(it->var)) ||
			it->name[strlen(it->var)] != '.'))
		ret = modeldoc_error(doc, it->off, it->len, "in a family over "
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
		if (!it->when)
			ret = -1;
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
				ret = modeldoc_error(doc, off, len, "'for' is the "
						"first line of a block: the "
						"whole block is the family");
			else if (parse_for(doc, off, len, &var, &over))
				ret = -1;
			else if ((fam_var && !strcmp(var, fam_var)) ||
				 (fam_rvar && !strcmp(var, fam_rvar)))
				ret = modeldoc_error(doc, off, len, "'%s' is this "
						"block's variable already",
						var);
			else if (!strcmp(over, "rates") && fam_rvar)
				ret = modeldoc_error(doc, off, len, "a block has "
						"one 'for ... in rates'");
			else if (!strcmp(over, "rates"))
				fam_rvar = var;
			else if (fam_var)
				ret = modeldoc_error(doc, off, len, "a block is a "
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
			struct attr *at = &cur->a[a];

			if (at->text) {
				ret = modeldoc_error(doc, off, len, "a second "
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
			ret = modeldoc_error(doc, off, len, "expected 'key: text' "
					"(unit, symbol, note, source, rate, when)");
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
