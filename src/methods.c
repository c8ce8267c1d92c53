/*
 * The Methods page (methods.h): reads the model document and the
 * registry of one edition; writes HTML into a buffer, nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "bib.h"
#include "buf.h"
#include "escape.h"
#include "format.h"
#include "mathml.h"
#include "methods.h"
#include "modeldoc.h"
#include "registry.h"
#include "banned.h"

/* What each provider of model.c reads, for the reader. */
static const struct {
	const char *name, *what;
} provider_words[] = {
	{ "assumptions", "Here the tool reads data/assumptions.csv: one "
	  "quantity per row, each checked for its unit and range." },
	{ "history", "Here the tool reads the history series and the "
	  "machines (data.html lists the files), fits the trends and "
	  "computes the gaps, in C: these are the quantities whose "
	  "formulas the quantities pages give." },
};

static void
name_link(struct buf *out, const char *page, const char *name)
{
	buf_addf(out, "<a href=\"%s#", page);
	buf_addstr(out, name);
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
	   const char *page, const char *root)
{
	const struct quantity *q = registry_get(reg, name);

	if (!q)
		return;
	BUF_ADDLIT(out, "<div class=\"definition\">\n");
	if (kind == MODELDOC_DEF && q->expr &&
	    !mathml_formula(out, reg, q, page, MATHML_BLOCK)) {
		BUF_ADDLIT(out, "\n");
	}
	BUF_ADDLIT(out, "<p>");
	name_link(out, page, name);
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
	if (q->note && *q->note) {
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

static void
provider(struct buf *out, const char *name)
{
	size_t i;

	BUF_ADDLIT(out, "<p class=\"provider\">");
	for (i = 0; i < sizeof(provider_words) / sizeof(provider_words[0]);
	     i++)
		if (!strcmp(provider_words[i].name, name)) {
			html_text(out, provider_words[i].what);
			break;
		}
	if (i == sizeof(provider_words) / sizeof(provider_words[0])) {
		BUF_ADDLIT(out, "Here the tool runs its step <code>");
		html_name(out, name);
		BUF_ADDLIT(out, "</code>.");
	}
	BUF_ADDLIT(out, "</p>\n");
}

void
methods_page(struct buf *out, const struct modeldoc *doc,
	     const struct registry *reg, const struct bib *bib,
	     const char *page, const char *root)
{
	size_t i, j;

	for (i = 0; i < modeldoc_nparts(doc); i++) {
		struct modeldoc_part p;

		modeldoc_part(doc, i, &p);
		if (!p.block) {
			char *html = cmark_markdown_to_html(p.text, p.len,
				CMARK_OPT_SMART | CMARK_OPT_SAFE |
				CMARK_OPT_VALIDATE_UTF8);

			buf_addstr(out, html);
			free(html);
			continue;
		}
		for (j = p.from; j < p.to; j++) {
			enum modeldoc_kind kind;
			const char *name = modeldoc_item(doc, j, &kind);

			if (kind == MODELDOC_CALL)
				provider(out, name);
			else
				definition(out, reg, bib, name, kind, page,
					   root);
		}
	}
}
