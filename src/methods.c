/*
 * The Methods page (methods.h): reads the model document and the
 * registry of one edition; writes HTML into a buffer, nothing else.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "bib.h"
#include "buf.h"
#include "escape.h"
#include "expr.h"
#include "format.h"
#include "mathml.h"
#include "methods.h"
#include "modeldoc.h"
#include "registry.h"
#include "xalloc.h"
#include "banned.h"

/* Where a quantity's entry is: links->href's, else page#name. */
static void
href(struct buf *out, const struct mathml_links *links, const char *page,
     const char *name)
{
	if (links) {
		links->href(out, name, links->ctx);
	} else {
		buf_addf(out, "%s#", page);
		buf_addstr(out, name);
	}
}

static void
name_link(struct buf *out, const struct mathml_links *links,
	  const char *page, const char *name)
{
	BUF_ADDLIT(out, "<a href=\"");
	href(out, links, page, name);
	BUF_ADDLIT(out, "\"><code>");
	html_name(out, name);
	BUF_ADDLIT(out, "</code></a>");
}

/* "= 5.426 × 10⁵⁰ ops/s in this edition" */
static void
value_words(struct buf *out, const struct quantity *q)
{
	struct buf v = BUF_INIT;

	if (q->type == Q_TEXT) {
		html_text(out, q->text);
		return;
	}
	/* A whole number as one: 8 bits per byte, not 8.000; a year as one. */
	if (q->value == (double)(long)q->value && fabs(q->value) < 1e6 &&
	    strcmp(q->unit, "year"))
		format_count(&v, q->value);
	else
		format_brief(&v, q->value, q->unit);
	if (*q->unit && strcmp(q->unit, "year")) {
		buf_addstr(&v, "\xc2\xa0");
		format_unit(&v, q->unit);
	}
	html_text(out, v.data);
	buf_release(&v);
}

static void
definition(struct buf *out, const struct registry *reg,
	   const struct bib *bib, const char *name, enum modeldoc_kind kind,
	   const char *page, const struct mathml_links *links,
	   const char *root, struct mathml_memo *memo)
{
	const struct quantity *q = registry_get(reg, name);

	if (!q)
		return;
	BUF_ADDLIT(out, "<div class=\"definition\">\n");
	if (kind == MODELDOC_DEF && q->expr &&
	    !(links ? mathml_formula_linked(out, reg, q, links, MATHML_BLOCK,
					    memo) :
	      mathml_formula(out, reg, q, page, MATHML_BLOCK, memo))) {
		BUF_ADDLIT(out, "\n");
	}
	BUF_ADDLIT(out, "<p>");
	name_link(out, links, page, name);
	BUF_ADDLIT(out, " = ");
	value_words(out, q);
	if (kind == MODELDOC_GIVEN) {
		BUF_ADDLIT(out, ", given by the data");
		if (q->origin) {
			BUF_ADDLIT(out, " (");
			html_text(out, q->origin);
			BUF_ADDLIT(out, ")");
		}
	}
	if (kind != MODELDOC_GIVEN && q->note && *q->note) {
		BUF_ADDLIT(out, ": ");
		html_text(out, q->note);
	} else if (kind != MODELDOC_GIVEN && !q->expr && q->formula &&
		   *q->formula) {
		BUF_ADDLIT(out, ": ");
		html_text(out, q->formula);
	}
	if (q->source && *q->source) {
		BUF_ADDLIT(out, ". Source: ");
		bib_text_html(out, bib, q->source, root);
	}
	BUF_ADDLIT(out, ".</p>\n</div>\n");
}

/*
 * A pick (item i): the rule as written, its note, and the row it picked
 * in this edition (linked through the pick's id), or that it picked none.
 */
static void
pick(struct buf *out, const struct modeldoc *doc, size_t i,
     const struct registry *reg, const char *page,
     const struct mathml_links *links)
{
	struct modeldoc_def d;
	struct buf id = BUF_INIT;
	const struct quantity *q;

	modeldoc_def(doc, i, &d);
	buf_addf(&id, "%s.id", d.name);
	q = registry_get(reg, id.data);
	BUF_ADDLIT(out, "<div class=\"definition\">\n<p><code>");
	html_name(out, d.name);
	BUF_ADDLIT(out, " = ");
	html_text(out, d.pick);
	BUF_ADDLIT(out, "</code>");
	if (d.note) {
		BUF_ADDLIT(out, ": ");
		html_text(out, d.note);
	}
	if (q && q->type == Q_TEXT) {
		BUF_ADDLIT(out, ". In this edition, ");
		name_link(out, links, page, id.data);
		BUF_ADDLIT(out, " = ");
		html_text(out, q->text);
	} else {
		BUF_ADDLIT(out, ". In this edition no row qualifies: it picks "
			   "none");
	}
	BUF_ADDLIT(out, ".</p>\n</div>\n");
	buf_release(&id);
}

/*
 * The symbol the family block of item i gives name ("d.mass", or
 * "d.years_r" for d.years_{r}) as the Methods page shows it; or NULL.
 */
static const char *
family_symbol(const struct modeldoc *doc, size_t from, size_t to,
	      const char *name)
{
	struct modeldoc_def d;
	size_t k;

	for (k = from; k < to; k++) {
		modeldoc_def(doc, k, &d);
		if (!strcmp(d.shown_name, name) && d.shown_symbol)
			return d.shown_symbol;
	}
	return NULL;
}

/* The rates of the document this edition has, as words, into out. */
static size_t
rates_of(const struct modeldoc *doc, const struct registry *reg,
	 struct buf *out)
{
	const char *r;
	size_t k, n = 0;

	for (k = 0; (r = modeldoc_rate(doc, k)); k++) {
		if (!registry_get(reg, r))
			continue;
		if (n++)
			BUF_ADDLIT(out, ", ");
		BUF_ADDLIT(out, "<code>");
		html_name(out, r);
		BUF_ADDLIT(out, "</code>");
	}
	return n;
}

/*
 * The rows of a family in this edition (modeldoc_row_id()): how many,
 * and the first of them in first ("device.eee_pc_2008"; "" for none).
 */
static size_t
rows_of(const struct registry *reg, const char *over, struct buf *first)
{
	struct buf row = BUF_INIT;
	size_t k, n = 0;

	for (k = 0; k < registry_nids(reg); k++)
		if (modeldoc_row_id(over, registry_id_at(reg, k)->name, &row) &&
		    !n++)
			buf_addstr(first, row.data);
	buf_release(&row);
	return n;
}

/* What a family's equation shows a name it reads as. */
struct shown {
	char *name;
	const char *sym;	/* NULL: the name */
	const char *row;	/* a quantity of one row's (rate.lloyd): it */
};

/*
 * The equation of the family of item i: its formula typeset with the
 * symbols in shown (nshown of them), in a registry of its own so that
 * the names stand for no value and link nowhere.
 */
static void
family_equation(struct buf *out, const struct modeldoc_def *d,
		const struct shown *shown, size_t nshown)
{
	struct registry *scratch = registry_new();
	size_t k;

	for (k = 0; k < nshown; k++) {
		const char *n = shown[k].name;

		if (registry_get(scratch, n) || registry_name_problem(n))
			continue;
		registry_add_num(scratch, n, 0, "", "", NULL, "", NULL);
		if (shown[k].sym)
			registry_set_member_symbol(scratch, n, shown[k].sym,
						   shown[k].row);
	}
	mathml_expr(out, d->shown, scratch, registry_get(scratch,
							 d->shown_name),
		    NULL, MATHML_BLOCK);
	registry_free(scratch);
}

/* The rows of a family block, counted once for each of its definitions. */
struct rows {
	const char *over;	/* NULL: not counted yet */
	size_t n;
	struct buf first;
};

/*
 * A family's definition, typeset once with the family's symbols (m_d for
 * d.mass) and no links (a member is a row of the quantities page).
 */
static void
family(struct buf *out, const struct modeldoc *doc, size_t i, size_t from,
       size_t to, const struct registry *reg, const struct bib *bib,
       const char *root, struct rows *rows, struct mathml_memo *memo)
{
	struct modeldoc_def d;
	struct buf names = BUF_INIT, member = BUF_INIT, key = BUF_INIT;
	struct buf note = BUF_INIT, words = BUF_INIT;
	struct shown *shown = NULL;
	const struct buf *kept;
	const char *p;
	size_t nrates = 0, nshown = 0, cap = 0, k;

	modeldoc_def(doc, i, &d);
	if (!d.expr)
		return;
	/* Every name the formula reads, with the symbol it is shown as. */
	buf_addch(&names, '\n');
	buf_addstr(&names, d.shown_name);
	buf_addch(&names, '\n');
	expr_inputs(d.shown, &names);
	if (d.var && (!rows->over || strcmp(rows->over, d.over))) {
		buf_reset(&rows->first);
		rows->n = rows_of(reg, d.over, &rows->first);
		rows->over = d.over;
	}
	if (d.per_rate)
		nrates = rates_of(doc, reg, &words);
	/* The key of the equation: the item, then what each name shows. */
	buf_add(&key, "methods family", sizeof("methods family"));
	buf_add(&key, &i, sizeof(i));
	for (p = names.data + 1; *p; p += strcspn(p, "\n") + 1) {
		char *n = xstrndup(p, strcspn(p, "\n"));
		const struct quantity *q = registry_get(reg, n);
		const char *sym = q ? q->symbol :
				  family_symbol(doc, from, to, n);
		size_t vl = d.var ? strlen(d.var) : 0;

		/* The rate variable: the symbol the rates are shown with. */
		if (!q && d.rvar && !strcmp(n, d.rvar) && modeldoc_rate(doc, 0) &&
		    (q = registry_get(reg, modeldoc_rate(doc, 0))))
			sym = q->symbol, q = NULL;
		/* Else the symbol a member of the first row is shown with. */
		if (!q && !sym && rows->first.len && vl &&
		    !strncmp(n, d.var, vl) && n[vl] == '.') {
			const struct quantity *m;

			buf_reset(&member);
			buf_addf(&member, "%s%s", rows->first.data, n + vl);
			if ((m = registry_get(reg, member.data)))
				sym = m->symbol;
		}
		shown = xgrow(shown, &cap, nshown + 1, sizeof(*shown));
		shown[nshown++] = (struct shown){ n, sym, q ? q->row : NULL };
		buf_add(&key, n, strlen(n) + 1);
		buf_add(&key, sym ? sym : "\n", strlen(sym ? sym : "\n") + 1);
		buf_add(&key, q && q->row ? q->row : "\n",
			strlen(q && q->row ? q->row : "\n") + 1);
	}
	buf_release(&member);
	BUF_ADDLIT(out, "<div class=\"definition family\">\n");
	if (memo && (kept = mathml_memo_text(memo, key.data, key.len))) {
		buf_add(out, kept->data, kept->len);
	} else {
		size_t at = out->len;

		family_equation(out, &d, shown, nshown);
		if (memo)
			mathml_memo_keep(memo, key.data, key.len,
					 out->data + at, out->len - at);
	}
	for (k = 0; k < nshown; k++)
		free(shown[k].name);
	free(shown);
	buf_release(&key);
	BUF_ADDLIT(out, "\n<p><code>");
	html_name(out, d.name);
	BUF_ADDLIT(out, "</code>, for each");
	if (d.var) {
		buf_addf(out, " of the %zu rows <i>", rows->n);
		html_text(out, d.var);
		BUF_ADDLIT(out, "</i> of ");
		for (p = d.over; *p; p += strcspn(p, " ") +
		     (p[strcspn(p, " ")] == ' ')) {
			if (p != d.over)
				BUF_ADDLIT(out, ", ");
			BUF_ADDLIT(out, "<code>");
			buf_add(out, p, strcspn(p, " "));
			BUF_ADDLIT(out, ".*</code>");
		}
		BUF_ADDLIT(out, " that have what it reads");
	}
	if (d.per_rate) {
		buf_addf(out, "%s rate <i>", d.var ? ", and at each" : "");
		html_text(out, d.rvar);
		buf_addf(out, "</i> the document defines (%zu in this edition: ",
			 nrates);
		buf_add(out, words.data, words.len);
		BUF_ADDLIT(out, ")");
	}
	if (d.unit && *d.unit) {
		BUF_ADDLIT(out, ", in ");
		format_unit(out, d.unit);
	}
	if (d.note) {
		BUF_ADDLIT(out, ": ");
		/* A rate's words stand for "{r}" in a member's note. */
		buf_reset(&note);
		for (p = d.note; *p; p++) {
			size_t rl = d.rvar ? strlen(d.rvar) : 0;

			if (rl && *p == '{' && !strncmp(p + 1, d.rvar, rl) &&
			    p[rl + 1] == '}') {
				buf_addf(&note, "rate %s", d.rvar);
				p += rl + 1;
			} else {
				buf_addch(&note, *p);
			}
		}
		html_text(out, note.data);
	}
	if (d.source) {
		BUF_ADDLIT(out, ". Source: ");
		bib_text_html(out, bib, d.source, root);
	}
	BUF_ADDLIT(out, ".</p>\n</div>\n");
	buf_release(&names);
	buf_release(&note);
	buf_release(&words);
}

static void
provider(struct buf *out, const char *name)
{
	BUF_ADDLIT(out, "<p class=\"provider\">");
	if (!strcmp(name, "rows")) {
		BUF_ADDLIT(out, "Here the tool reads the rows of every data "
			   "file of the catalogue with an id column, each "
			   "row as quantities <code>PREFIX.ID.NAME</code>.");
	} else {
		BUF_ADDLIT(out, "Here the tool runs its step <code>");
		html_name(out, name);
		BUF_ADDLIT(out, "</code>.");
	}
	BUF_ADDLIT(out, "</p>\n");
}

/* The checks of item i, one paragraph: what must hold, and why. */
static void
checks(struct buf *out, const struct modeldoc *doc, size_t i, size_t n)
{
	const char *cond, *why;
	size_t k, len;

	for (k = 0; k < n; k++) {
		modeldoc_check(doc, i, k, &cond, &len, &why);
		buf_addstr(out, k ? "; <code>" : n > 1 ? "<p class=\"check\">"
			   "Checks: <code>" : "<p class=\"check\">Check: "
			   "<code>");
		html_literal(out, cond, len);
		BUF_ADDLIT(out, "</code>: ");
		html_text(out, why);
	}
	if (n)
		BUF_ADDLIT(out, ".</p>\n");
}

/*
 * A set of rows, a trend or a dataset: its rule as written, what it
 * keeps of each row, its note; a dataset's columns follow it.
 */
static void
rule_item(struct buf *out, const struct modeldoc_def *d,
	  enum modeldoc_kind kind)
{
	static const char *const what[] = {
		[MODELDOC_ROWS] = "a set of rows",
		[MODELDOC_TREND] = "a trend: the least-squares line "
			"log\xe2\x82\x82 x = a + k t through its rows, with "
			"its slope k, intercept a, R\xc2\xb2 and their "
			"standard errors",
		[MODELDOC_DATA] = "a dataset the figures read",
	};

	BUF_ADDLIT(out, "<div class=\"definition\">\n<p><code>");
	if (kind == MODELDOC_DATA)
		BUF_ADDLIT(out, "data ");
	html_name(out, d->name);
	buf_addstr(out, kind == MODELDOC_DATA ? " for " : " = ");
	html_text(out, d->rule);
	BUF_ADDLIT(out, "</code>");
	if (d->var) {
		BUF_ADDLIT(out, " for each <i>");
		html_text(out, d->var);
		BUF_ADDLIT(out, "</i> of <code>");
		html_name(out, d->over);
		BUF_ADDLIT(out, "</code>");
	}
	BUF_ADDLIT(out, ": ");
	buf_addstr(out, what[kind]);
	if (d->value) {
		BUF_ADDLIT(out, "; each row's value <code>");
		html_text(out, d->value);
		BUF_ADDLIT(out, "</code>");
	}
	if (d->label) {
		BUF_ADDLIT(out, ", its label <code>");
		html_text(out, d->label);
		BUF_ADDLIT(out, "</code>");
	}
	if (d->needs) {
		BUF_ADDLIT(out, "; it needs ");
		html_text(out, d->needs);
	}
	if (d->note) {
		BUF_ADDLIT(out, " (");
		html_text(out, d->note);
		BUF_ADDLIT(out, ")");
	}
	BUF_ADDLIT(out, ".</p>\n</div>\n");
}

/* A dataset's column: NAME = EXPRESSION, as written. */
static void
column_item(struct buf *out, const struct modeldoc_def *d)
{
	BUF_ADDLIT(out, "<p class=\"column\"><code>");
	html_name(out, d->name);
	BUF_ADDLIT(out, " = ");
	if (d->text)
		html_text(out, d->text);
	BUF_ADDLIT(out, "</code>");
	if (d->unit && *d->unit) {
		BUF_ADDLIT(out, ", in ");
		format_unit(out, d->unit);
	}
	BUF_ADDLIT(out, "</p>\n");
}

/* Markdown prose as HTML, from the memo when an edition made it. */
static void
prose(struct buf *out, const char *text, size_t len, struct mathml_memo *memo)
{
	const struct buf *kept = memo ? mathml_memo_text(memo, text, len) :
				 NULL;
	char *html;

	if (kept) {
		buf_add(out, kept->data, kept->len);
		return;
	}
	html = cmark_markdown_to_html(text, len, CMARK_OPT_SMART |
				      CMARK_OPT_SAFE |
				      CMARK_OPT_VALIDATE_UTF8);
	if (memo)
		mathml_memo_keep(memo, text, len, html, strlen(html));
	buf_addstr(out, html);
	free(html);
}

void
methods_page(struct buf *out, const struct modeldoc *doc,
	     const struct registry *reg, const struct bib *bib,
	     const char *page, const struct mathml_links *links,
	     const char *root, struct mathml_memo *memo)
{
	size_t i, j;

	for (i = 0; i < modeldoc_nparts(doc); i++) {
		struct modeldoc_part p;
		struct rows rows = { NULL, 0, BUF_INIT };

		modeldoc_part(doc, i, &p);
		if (!p.block) {
			prose(out, p.text, p.len, memo);
			continue;
		}
		for (j = p.from; j < p.to; j++) {
			enum modeldoc_kind kind;
			const char *name = modeldoc_item(doc, j, &kind);
			struct modeldoc_def d;

			modeldoc_def(doc, j, &d);
			if (kind == MODELDOC_ROWS || kind == MODELDOC_TREND ||
			    kind == MODELDOC_DATA)
				rule_item(out, &d, kind);
			else if (kind == MODELDOC_COLUMN)
				column_item(out, &d);
			else if ((d.var || d.per_rate) && kind == MODELDOC_DEF)
				family(out, doc, j, p.from, p.to, reg, bib,
				       root, &rows, memo);
			else if (d.var && !d.nchecks)
				continue;
			else if (kind == MODELDOC_CALL)
				provider(out, name);
			else if (kind == MODELDOC_PICK)
				pick(out, doc, j, reg, page, links);
			else if (!d.var)
				definition(out, reg, bib, name, kind, page,
					   links, root, memo);
			checks(out, doc, j, d.nchecks);
		}
		buf_release(&rows.first);
	}
}
