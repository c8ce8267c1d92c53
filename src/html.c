/*
 * The render stage: expanded Markdown -> HTML body and table of contents
 * (cmark-gfm, the only module that includes its headers); shell.c puts
 * the page shell around them. Reads and writes no files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm/houdini.h>
#include <cmark-gfm/registry.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "html.h"
#include "mathml.h"
#include "template.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Smart punctuation; safe mode (raw HTML is an error before it would be
 * dropped); footnotes ([^name]) are a parser option.
 */
#define HTML_OPTIONS (CMARK_OPT_SMART | CMARK_OPT_SAFE | \
		      CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_FOOTNOTES)

struct heading {
	int level;
	char *id;
	char *text;
};

/* Length of a link token: nonce, "-q", six digits. */
#define TOKEN_LEN(x) (strlen((x)->nonce) + 8)

/* The link of the token at s (its first len bytes), or NULL. */
static const struct qlink *
token_at(const struct expansion *x, const char *s, size_t len)
{
	size_t nlen = strlen(x->nonce), i, k = 0;

	if (len < nlen + 8 || memcmp(s, x->nonce, nlen) || s[nlen] != '-' ||
	    s[nlen + 1] != 'q')
		return NULL;
	for (i = nlen + 2; i < nlen + 8; i++) {
		if (s[i] < '0' || s[i] > '9')
			return NULL;
		k = k * 10 + (size_t)(s[i] - '0');
	}
	return k < x->nlinks ? &x->links[k] : NULL;
}

/* The snippet whose token is the whole of s, or NULL. */
static const struct snippet *
snippet_of(const struct expansion *x, const char *s)
{
	size_t nlen = strlen(x->nonce), k = 0;
	const char *p = s + nlen;

	/* "%zu": digits, no leading zero. */
	if (strncmp(s, x->nonce, nlen) || !*p || (*p == '0' && p[1]))
		return NULL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || k > x->nsnippets)
			return NULL;
		k = k * 10 + (size_t)(*p - '0');
	}
	return k < x->nsnippets ? &x->snippets[k] : NULL;
}

/*
 * Where a token lands decides what it becomes: in a link's text a
 * number stays a number (a link there would nest links and break the
 * outer one), in an attribute (a URL, a title, alt text, a code block's
 * language) it is its text, elsewhere it is its link.
 */
enum place { IN_TEXT, IN_LINK, IN_ATTR };

/* Appends the address of quantity name's entry, for the page r renders. */
static void
quantity_href(struct buf *out, const struct rendered *r, const char *name)
{
	if (r->qhref) {
		r->qhref(out, name, r->qhref_ctx);
	} else {
		BUF_ADDLIT(out, "quantities.html#");
		buf_addstr(out, name);
	}
}

static void
formula_href(struct buf *out, const char *name, const void *r)
{
	quantity_href(out, r, name);
}

/* Appends q's formula typeset (flags: MATHML_*), linked for r's page. */
static void
put_formula(struct buf *out, const struct expansion *x,
	    const struct rendered *r, const struct quantity *q,
	    unsigned flags)
{
	struct mathml_links links = { formula_href, r };

	mathml_formula_linked(out, x->reg, q, &links, flags, NULL);
}

/*
 * Copies len bytes of s, the literal text of a code span or block, as
 * cmark-gfm would escape it (& < > "), writing each link token as the
 * HTML for its place on r's page. Appends to out.
 */
static void
put_literal(struct buf *out, const struct expansion *x,
	    const struct rendered *r, const char *s, size_t len,
	    enum place at)
{
	const char *end = s + len;
	size_t nlen = strlen(x->nonce);

	while (s < end) {
		const struct qlink *l = token_at(x, s, (size_t)(end - s));
		const char *next;

		if (l) {
			if (at == IN_ATTR) {
				html_attr(out, l->text);
			} else if (at == IN_LINK) {
				html_text(out, l->text);
			} else if (l->formula) {
				put_formula(out, x, r, l->formula, 0);
			} else {
				struct buf href = BUF_INIT;

				quantity_href(&href, r, l->name);
				BUF_ADDLIT(out, "<a href=\"");
				html_attr(out, href.data);
				buf_release(&href);
				BUF_ADDLIT(out, "\">");
				html_text(out, l->text);
				BUF_ADDLIT(out, "</a>");
			}
			s += nlen + 8;
			continue;
		}
		/* Up to the next byte that may start a token. */
		next = memchr(s + 1, x->nonce[0], (size_t)(end - s - 1));
		if (!next)
			next = end;
		html_literal(out, s, (size_t)(next - s));
		s = next;
	}
}

/* Plain text of a node's inline content. */
static void
node_text(cmark_node *n, struct buf *out)
{
	cmark_node *c;

	for (c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		cmark_node_type t = cmark_node_get_type(c);

		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
			buf_addstr(out, cmark_node_get_literal(c));
		} else if (t == CMARK_NODE_SOFTBREAK ||
			   t == CMARK_NODE_LINEBREAK) {
			buf_addch(out, ' ');
		} else {
			node_text(c, out);
		}
	}
}

/*
 * Copies len bytes of s, a heading's plain text, with each link token
 * as its number's text (escaped for HTML text, as the contents list has
 * always had it).
 */
static void
token_text(struct buf *out, const struct expansion *x, const char *s,
	   size_t len)
{
	const char *end = s + len, *u;

	while (s < end && (u = memchr(s, x->nonce[0], (size_t)(end - s)))) {
		const struct qlink *l = token_at(x, u, (size_t)(end - u));

		buf_add(out, s, (size_t)(u - s) + !l);
		s = u + 1;
		if (l) {
			html_text(out, l->text);
			s = u + TOKEN_LEN(x);
		}
	}
	if (s < end)
		buf_add(out, s, (size_t)(end - s));
}

/* A slug: ASCII letters and digits lowercased, runs of others as '-'. */
static void
slugify(const char *s, struct buf *out)
{
	int dash = 0;

	for (; *s; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && out->len)
				buf_addch(out, '-');
			dash = 0;
			buf_addch(out, c);
		} else {
			dash = 1;
		}
	}
	if (!out->len)
		BUF_ADDLIT(out, "section");
}

/* The headings of the report so far, in document order. */
struct headings {
	struct heading *h;
	size_t n, cap;
};

/* Appends the headings of doc, with ids unique among all so far. */
static void
collect_headings(cmark_node *doc, const struct expansion *x,
		 struct headings *hs)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	size_t i;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		struct buf text = BUF_INIT, id = BUF_INIT, base = BUF_INIT;
		struct buf raw = BUF_INIT;
		size_t dup = 1;

		if (ev != CMARK_EVENT_ENTER ||
		    cmark_node_get_type(node) != CMARK_NODE_HEADING)
			continue;
		node_text(node, &raw);
		/* Numbers in a heading: their text, for the slug and TOC. */
		token_text(&text, x, raw.data, raw.len);
		buf_reset(&raw);
		slugify(text.data, &base);
		buf_addstr(&id, base.data);
		/* The same heading twice gets -2, -3, ... */
		for (i = 0; i < hs->n; i++)
			if (!strcmp(hs->h[i].id, id.data)) {
				buf_reset(&id);
				buf_addf(&id, "%s-%zu", base.data, ++dup);
				i = (size_t)-1;
			}
		buf_release(&base);
		hs->h = xgrow(hs->h, &hs->cap, hs->n + 1, sizeof(*hs->h));
		hs->h[hs->n].level = cmark_node_get_heading_level(node);
		hs->h[hs->n].id = buf_detach(&id, NULL);
		hs->h[hs->n++].text = buf_detach(&text, NULL);
		buf_release(&raw);
	}
	cmark_iter_free(it);
}

/*
 * Where the text of n goes: alt text (an attribute) when an image holds
 * it, else a link's text when a link does, else the page's text.
 */
static enum place
place_of(cmark_node *n)
{
	enum place at = IN_TEXT;

	for (n = cmark_node_parent(n); n; n = cmark_node_parent(n)) {
		cmark_node_type t = cmark_node_get_type(n);

		if (t == CMARK_NODE_IMAGE)
			return IN_ATTR;
		if (t == CMARK_NODE_LINK)
			at = IN_LINK;
	}
	return at;
}

/*
 * Puts a node of type (a custom block or inline) that the renderer
 * writes as html before n. Returns 0, or -1 when n's parent cannot hold
 * one (a table cell holds only the inline nodes it knows).
 */
static int
html_before(cmark_node *n, cmark_node_type type, const char *html)
{
	cmark_node *c = cmark_node_new(type);

	cmark_node_set_on_enter(c, html);
	if (cmark_node_insert_before(n, c))
		return 0;
	cmark_node_free(c);
	return -1;
}

/* Puts a text node of s (not escaped: the renderer escapes it) before n. */
static void
text_before(cmark_node *n, struct buf *s)
{
	cmark_node *t;

	if (!s->len)
		return;
	t = cmark_node_new(CMARK_NODE_TEXT);
	cmark_node_set_literal(t, s->data);
	if (!cmark_node_insert_before(n, t))
		BUG("a text node cannot go where a text node was");
	buf_reset(s);
}

/*
 * Puts the link of l before n: a link node to its quantity's entry (for
 * r's page), its text the number (written as html_text() writes it).
 * Returns 0, or -1 when n's parent cannot hold a link.
 */
static int
link_before(cmark_node *n, const struct qlink *l, const struct rendered *r,
	    struct buf *scratch)
{
	cmark_node *a = cmark_node_new(CMARK_NODE_LINK);
	cmark_node *c = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);

	buf_reset(scratch);
	quantity_href(scratch, r, l->name);
	cmark_node_set_url(a, scratch->data);
	buf_reset(scratch);
	html_text(scratch, l->text);
	cmark_node_set_on_enter(c, scratch->data);
	if (!cmark_node_append_child(a, c))
		BUG("a link cannot hold a custom inline node");
	if (cmark_node_insert_before(n, a))
		return 0;
	cmark_node_free(a);
	return -1;
}

/*
 * s with every link token as its number's text (for a URL, a title or
 * alt text, which the renderer escapes). Appends to out.
 */
static void
tokens_as_text(struct buf *out, const struct expansion *x, const char *s)
{
	const char *u;

	while ((u = strstr(s, x->nonce))) {
		const struct qlink *l = token_at(x, u, strlen(u));

		buf_add(out, s, (size_t)(u - s) + !l);
		s = u + 1;
		if (l) {
			buf_addstr(out, l->text);
			s = u + TOKEN_LEN(x);
		}
	}
	buf_addstr(out, s);
}

/*
 * Text node n, which holds the nonce: each link token in it becomes the
 * nodes for its place (place_of()), the text around it text nodes.
 */
static void
resolve_text(cmark_node *n, const struct expansion *x,
	     const struct rendered *r, struct buf *scratch)
{
	const char *s = cmark_node_get_literal(n), *end = s + strlen(s), *u;
	enum place at = place_of(n);
	struct buf piece = BUF_INIT;

	if (at == IN_ATTR) {
		tokens_as_text(&piece, x, s);
		cmark_node_set_literal(n, piece.data);
		buf_release(&piece);
		return;
	}
	while ((u = strstr(s, x->nonce))) {
		const struct qlink *l = token_at(x, u, (size_t)(end - u));

		buf_add(&piece, s, (size_t)(u - s) + !l);
		s = u + 1;
		if (!l)
			continue;
		s = u + TOKEN_LEN(x);
		text_before(n, &piece);
		if (at == IN_TEXT && !l->formula) {
			if (link_before(n, l, r, scratch))
				BUG("a link cannot go where text was");
			continue;
		}
		buf_reset(scratch);
		put_literal(scratch, x, r, u, TOKEN_LEN(x), at);
		if (!html_before(n, CMARK_NODE_CUSTOM_INLINE, scratch->data))
			continue;
		/*
		 * A table cell holds no HTML of ours: a formula there is
		 * its text, linked (in a link, a number is its text).
		 */
		if (at == IN_LINK)
			buf_addstr(&piece, l->text);
		else if (link_before(n, l, r, scratch))
			BUG("a link cannot go where text was");
	}
	buf_addstr(&piece, s);
	text_before(n, &piece);
	cmark_node_free(n);
	buf_release(&piece);
}

/*
 * Code span n, which holds the nonce: the <code> element written with
 * its tokens as their place has them. In a table cell, which holds no
 * HTML of ours, and in alt text, the numbers are their text.
 */
static void
resolve_code(cmark_node *n, const struct expansion *x,
	     const struct rendered *r, struct buf *scratch)
{
	const char *s = cmark_node_get_literal(n);
	enum place at = place_of(n);

	buf_reset(scratch);
	if (at != IN_ATTR) {
		BUF_ADDLIT(scratch, "<code>");
		put_literal(scratch, x, r, s, strlen(s), at);
		BUF_ADDLIT(scratch, "</code>");
		if (!html_before(n, CMARK_NODE_CUSTOM_INLINE, scratch->data)) {
			cmark_node_free(n);
			return;
		}
		buf_reset(scratch);
	}
	tokens_as_text(scratch, x, s);
	cmark_node_set_literal(n, scratch->data);
}

/*
 * Code block n, which holds the nonce: written as the renderer writes
 * one (its language the first word of the info string), with its
 * tokens as links (in the language, as their text).
 */
static void
resolve_code_block(cmark_node *n, const struct expansion *x,
		   const struct rendered *r, struct buf *scratch)
{
	const char *info = cmark_node_get_fence_info(n);
	const char *s = cmark_node_get_literal(n);

	buf_reset(scratch);
	BUF_ADDLIT(scratch, "<pre><code");
	if (info && *info) {
		BUF_ADDLIT(scratch, " class=\"language-");
		put_literal(scratch, x, r, info,
			    strcspn(info, " \t\n\v\f\r"), IN_ATTR);
		buf_addch(scratch, '"');
	}
	buf_addch(scratch, '>');
	put_literal(scratch, x, r, s, strlen(s), IN_TEXT);
	BUF_ADDLIT(scratch, "</code></pre>\n");
	if (html_before(n, CMARK_NODE_CUSTOM_BLOCK, scratch->data))
		BUG("a custom block cannot go where a code block was");
	cmark_node_free(n);
}

/*
 * The snippet paragraph p (its one text node the token): its HTML, or
 * its equation typeset for r's page.
 */
static void
resolve_snippet(cmark_node *p, const struct snippet *sn,
		const struct expansion *x, const struct rendered *r,
		struct buf *scratch)
{
	/* As a paragraph was: its HTML, then a line break. */
	buf_reset(scratch);
	if (sn->formula)
		put_formula(scratch, x, r, sn->formula, MATHML_BLOCK);
	else
		buf_addstr(scratch, sn->html);
	buf_addch(scratch, '\n');
	if (html_before(p, CMARK_NODE_CUSTOM_BLOCK, scratch->data))
		BUG("a custom block cannot go where a paragraph was");
	cmark_node_free(p);
}

/*
 * Heading h gets its id: a custom block (which writes nothing itself)
 * holding a custom inline node that writes the tags, around the
 * heading's own inline content, which moves there.
 */
static cmark_node *
resolve_heading(cmark_node *h, const char *id, struct buf *scratch)
{
	cmark_node *block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
	cmark_node *tag = cmark_node_new(CMARK_NODE_CUSTOM_INLINE), *c;
	int level = cmark_node_get_heading_level(h);

	buf_reset(scratch);
	buf_addf(scratch, "<h%d id=\"", level);
	html_attr(scratch, id);
	BUF_ADDLIT(scratch, "\">");
	cmark_node_set_on_enter(tag, scratch->data);
	buf_reset(scratch);
	buf_addf(scratch, "</h%d>\n", level);
	cmark_node_set_on_exit(tag, scratch->data);
	while ((c = cmark_node_first_child(h)))
		if (!cmark_node_append_child(tag, c))
			BUG("a heading's inline content cannot move");
	if (!cmark_node_append_child(block, tag) ||
	    !cmark_node_insert_before(h, block))
		BUG("a custom block cannot go where a heading was");
	cmark_node_free(h);
	return block;
}

/* Puts a custom block that writes html after n (NULL: first in doc). */
static void
block_after(cmark_node *doc, cmark_node *n, const char *html)
{
	cmark_node *c = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);

	cmark_node_set_on_enter(c, html);
	if (!(n ? cmark_node_insert_after(n, c) :
	      cmark_node_prepend_child(doc, c)))
		BUG("a custom block cannot go after a heading");
}

/*
 * After the title (h, the first level-1 heading's block): a folded copy
 * of the contents' list (list: build_toc()'s), for narrow screens, where
 * the list cannot stand beside the text and before the title would push
 * the title down (style.css shows one or the other by the width); then
 * the banner, and a blank line. Without a title, the banner opens the
 * body.
 */
static void
after_title(cmark_node *doc, cmark_node *h, const char *list,
	    const char *banner, struct buf *scratch)
{
	if (!h) {
		if (banner && *banner)
			block_after(doc, NULL, banner);
		return;
	}
	if (banner) {
		buf_reset(scratch);
		buf_addstr(scratch, banner);
		buf_addch(scratch, '\n');
		block_after(doc, h, scratch->data);
	}
	if (*list) {
		buf_reset(scratch);
		BUF_ADDLIT(scratch, "<details class=\"toc-narrow\"><summary>"
			   "Contents</summary>\n");
		buf_addstr(scratch, list);
		BUF_ADDLIT(scratch, "</details>\n");
		block_after(doc, h, scratch->data);
	}
}

/* Whether n is a custom block whose HTML starts with s (len bytes). */
static int
block_starts(cmark_node *n, const char *s, size_t len)
{
	return n && cmark_node_get_type(n) == CMARK_NODE_CUSTOM_BLOCK &&
	       !strncmp(cmark_node_get_on_enter(n), s, len);
}

/* A custom node of type that writes enter and exit around its children. */
static cmark_node *
custom(cmark_node_type type, const char *enter, const char *exit)
{
	cmark_node *c = cmark_node_new(type);

	cmark_node_set_on_enter(c, enter);
	cmark_node_set_on_exit(c, exit);
	return c;
}

static void
append(cmark_node *parent, cmark_node *child)
{
	if (!cmark_node_append_child(parent, child))
		BUG("a %s cannot hold a %s",
		    cmark_node_get_type_string(parent),
		    cmark_node_get_type_string(child));
}

/*
 * Table t, written by the renderer as cmark-gfm's table extension would
 * write it, but with what the extension cannot write: the caption that
 * the expansion put before it ({{#table}}: a snippet block <div
 * class="caption" id="tab-...">, the caption's Markdown, a snippet block
 * </div>) as the table's own <caption>, and the table then wrapped in a
 * <div class="wide"> that scrolls; a table without one named by the
 * heading above it (label: its id, or NULL), so that every table has a
 * name a screen reader can say. Made of custom nodes: a table cell
 * holds none of them, a custom node holds anything.
 */
static void
resolve_table(cmark_node *t, const char *label, struct buf *scratch)
{
	static const char cap[] = "<div class=\"caption\" id=\"";
	cmark_node *end = cmark_node_previous(t), *open = NULL, *w, *row;
	cmark_node *head = NULL, *body = NULL;
	const uint8_t *align = cmark_gfm_extensions_get_table_alignments(t);
	uint16_t ncols = cmark_gfm_extensions_get_table_columns(t);

	/* The caption's blocks, when the table follows them. */
	if (block_starts(end, "</div>\n", 8))
		for (open = cmark_node_previous(end); open;
		     open = cmark_node_previous(open))
			if (block_starts(open, cap, sizeof(cap) - 1) ||
			    (cmark_node_get_type(open) ==
			     CMARK_NODE_CUSTOM_BLOCK &&
			     strstr(cmark_node_get_on_enter(open), "</div>")))
				break;
	if (!block_starts(open, cap, sizeof(cap) - 1))
		open = NULL;
	buf_reset(scratch);
	if (open) {
		BUF_ADDLIT(scratch, "<div class=\"wide\"><table>\n<caption "
			   "id=\"");
		buf_addstr(scratch, cmark_node_get_on_enter(open) +
			   sizeof(cap) - 1);
		w = custom(CMARK_NODE_CUSTOM_BLOCK, scratch->data,
			   "</table></div>");
		while (cmark_node_next(open) != end)
			append(w, cmark_node_next(open));
		append(w, custom(CMARK_NODE_CUSTOM_BLOCK, "</caption>", ""));
		cmark_node_free(open);
		cmark_node_free(end);
	} else {
		BUF_ADDLIT(scratch, "<table");
		if (label) {
			BUF_ADDLIT(scratch, " aria-labelledby=\"");
			html_attr(scratch, label);
			buf_addch(scratch, '"');
		}
		buf_addch(scratch, '>');
		w = custom(CMARK_NODE_CUSTOM_BLOCK, scratch->data, "</table>");
	}
	while ((row = cmark_node_first_child(t))) {
		int th = cmark_gfm_extensions_get_table_row_is_header(row);
		cmark_node **group = th ? &head : &body, *tr, *cell;
		size_t col = 0;

		if (!*group) {
			*group = custom(CMARK_NODE_CUSTOM_BLOCK, th ? "<thead>" :
					"<tbody>", th ? "</thead>" : "</tbody>");
			append(w, *group);
		}
		tr = custom(CMARK_NODE_CUSTOM_BLOCK, "<tr>", "</tr>");
		append(*group, tr);
		while ((cell = cmark_node_first_child(row))) {
			cmark_node *b = custom(CMARK_NODE_CUSTOM_BLOCK, "", "");
			cmark_node *in, *c;
			char a = col < ncols && align ? (char)align[col] : 0;

			buf_reset(scratch);
			buf_addstr(scratch, th ? "<th" : "<td");
			if (a == 'l' || a == 'c' || a == 'r')
				buf_addstr(scratch, a == 'l' ? " align=\"left\"" :
					   a == 'c' ? " align=\"center\"" :
					   " align=\"right\"");
			buf_addch(scratch, '>');
			in = custom(CMARK_NODE_CUSTOM_INLINE, scratch->data,
				    th ? "</th>" : "</td>");
			while ((c = cmark_node_first_child(cell)))
				append(in, c);
			append(b, in);
			append(tr, b);
			cmark_node_free(cell);
			col++;
		}
		cmark_node_free(row);
	}
	if (!cmark_node_insert_before(t, w))
		BUG("a custom block cannot go where a table was");
	cmark_node_free(t);
}

/*
 * The tables of doc, each with the id of the heading above it (h: the
 * ids of the headings, in document order), made by resolve_table().
 */
static void
resolve_tables(cmark_node *doc, const struct heading *h, size_t nh,
	       struct buf *scratch)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	cmark_node **t = NULL;
	const char **label = NULL;
	const char *last = NULL;
	size_t n = 0, cap = 0, lcap = 0, k = 0, i;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (cmark_node_get_type(node) == CMARK_NODE_HEADING && k < nh)
			last = h[k++].id;
		if (strcmp(cmark_node_get_type_string(node), "table"))
			continue;
		t = xgrow(t, &cap, n + 1, sizeof(*t));
		label = xgrow(label, &lcap, n + 1, sizeof(*label));
		label[n] = last;
		t[n++] = node;
	}
	cmark_iter_free(it);
	for (i = 0; i < n; i++)
		resolve_table(t[i], label[i], scratch);
	free(t);
	free(label);
}

/*
 * Makes the tree say everything the page shows, so that the renderer
 * writes the finished HTML: paragraphs that are exactly a snippet token
 * become the snippet's trusted HTML (custom blocks, which safe mode
 * writes as they are), link tokens become links to the quantities page
 * (or their MathML, or their text, by place_of()), the template's own
 * links to quantities.html#NAME lead where r's page has NAME's entry,
 * headings carry the ids of h (nh of them, in document order), and the
 * title is followed by what after_title() puts there (list: the
 * contents' list).
 * Tokens have no punctuation but the '-' that smart punctuation splits
 * text at, so the text nodes are joined first.
 */
static void
resolve(cmark_node *doc, const struct expansion *x, const struct rendered *r,
	const struct heading *h, size_t nh, const char *list)
{
	static const char qpage[] = "quantities.html#";
	cmark_iter *it;
	cmark_event_type ev;
	cmark_node **todo = NULL, **heads = NULL, *title = NULL;
	size_t ntodo = 0, todo_cap = 0, nheads = 0, heads_cap = 0, i;
	struct buf scratch = BUF_INIT;

	cmark_consolidate_text_nodes(doc);
	/* Nodes first, changes after: the iterator walks a fixed tree. */
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *s = NULL, *s2 = NULL;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_HEADING) {
			heads = xgrow(heads, &heads_cap, nheads + 1,
				      sizeof(*heads));
			heads[nheads++] = n;
			continue;
		}
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE ||
		    t == CMARK_NODE_CODE_BLOCK)
			s = cmark_node_get_literal(n);
		if (t == CMARK_NODE_CODE_BLOCK)
			s2 = cmark_node_get_fence_info(n);
		if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			s = cmark_node_get_url(n);
			s2 = cmark_node_get_title(n);
		}
		if ((s && strstr(s, x->nonce)) || (s2 && strstr(s2, x->nonce)) ||
		    (t == CMARK_NODE_LINK && r->qhref &&
		     !strncmp(s, qpage, sizeof(qpage) - 1))) {
			todo = xgrow(todo, &todo_cap, ntodo + 1,
				     sizeof(*todo));
			todo[ntodo++] = n;
		}
	}
	cmark_iter_free(it);
	if (nheads != nh)
		BUG("%zu headings, %zu ids", nheads, nh);
	/* Snippets first: a table's caption is made of them. */
	for (i = 0; i < ntodo; i++) {
		cmark_node *n = todo[i], *p = cmark_node_parent(n);
		const struct snippet *sn = NULL;

		if (cmark_node_get_type(n) == CMARK_NODE_TEXT &&
		    cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH &&
		    !cmark_node_previous(n) && !cmark_node_next(n))
			sn = snippet_of(x, cmark_node_get_literal(n));
		if (sn) {
			resolve_snippet(p, sn, x, r, &scratch);
			todo[i] = NULL;
		}
	}
	/* Then tables, whose cells can then hold what tokens become. */
	resolve_tables(doc, h, nh, &scratch);
	for (i = 0; i < ntodo; i++) {
		cmark_node *n = todo[i];

		if (!n)
			continue;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
			resolve_text(n, x, r, &scratch);
			break;
		case CMARK_NODE_CODE:
			resolve_code(n, x, r, &scratch);
			break;
		case CMARK_NODE_CODE_BLOCK:
			resolve_code_block(n, x, r, &scratch);
			break;
		default:
			/* A link or an image: its URL and title. */
			buf_reset(&scratch);
			tokens_as_text(&scratch, x, cmark_node_get_url(n));
			if (cmark_node_get_type(n) == CMARK_NODE_LINK &&
			    r->qhref && !strncmp(scratch.data, qpage,
						 sizeof(qpage) - 1)) {
				char *name = xstrdup(scratch.data +
						     sizeof(qpage) - 1);

				buf_reset(&scratch);
				r->qhref(&scratch, name, r->qhref_ctx);
				free(name);
			}
			cmark_node_set_url(n, scratch.data);
			buf_reset(&scratch);
			tokens_as_text(&scratch, x, cmark_node_get_title(n));
			cmark_node_set_title(n, scratch.data);
			break;
		}
	}
	for (i = 0; i < nheads; i++) {
		cmark_node *b = resolve_heading(heads[i], h[i].id, &scratch);

		if (h[i].level == 1 && !title)
			title = b;
	}
	after_title(doc, title, list, r->banner, &scratch);
	free(todo);
	free(heads);
	buf_release(&scratch);
}

/*
 * The contents' list: the level-2 headings of h (n of them), each with
 * the level-3 headings under it, linked to their ids. Appends to toc,
 * nothing when there are none.
 */
static void
build_toc(const struct heading *h, size_t n, struct buf *toc)
{
	size_t i;
	int open2 = 0, open3 = 0;

	for (i = 0; i < n; i++) {
		if (h[i].level != 2 && h[i].level != 3)
			continue;
		if (!toc->len)
			BUF_ADDLIT(toc, "<ol>\n");
		if (h[i].level == 2) {
			if (open3)
				BUF_ADDLIT(toc, "</ol>\n");
			if (open2)
				BUF_ADDLIT(toc, "</li>\n");
			open3 = 0;
			open2 = 1;
			BUF_ADDLIT(toc, "<li>");
		} else {
			if (!open3)
				buf_addstr(toc, open2 ? "<ol>\n" :
					   "<li><ol>\n");
			open2 = 1;
			open3 = 1;
			BUF_ADDLIT(toc, "<li>");
		}
		BUF_ADDLIT(toc, "<a href=\"#");
		html_attr(toc, h[i].id);
		BUF_ADDLIT(toc, "\">");
		html_text(toc, h[i].text);
		BUF_ADDLIT(toc, "</a>");
		if (h[i].level == 3)
			BUF_ADDLIT(toc, "</li>\n");
	}
	if (open3)
		BUF_ADDLIT(toc, "</ol>\n");
	if (open2)
		BUF_ADDLIT(toc, "</li>\n");
	if (toc->len)
		BUF_ADDLIT(toc, "</ol>\n");
}

/* Whether url is relative: no scheme, not from the root, not "#...". */
static int
relative_url(const char *url)
{
	size_t n = strcspn(url, ":/?#");

	return *url && *url != '/' && *url != '#' && url[n] != ':';
}

/* Puts r->root before the relative links that leave the page's folder. */
static void
reroot_links(cmark_node *doc, const struct rendered *r)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	struct buf url = BUF_INIT;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *u;
		size_t i;

		if (ev != CMARK_EVENT_ENTER || (t != CMARK_NODE_LINK &&
						t != CMARK_NODE_IMAGE))
			continue;
		u = cmark_node_get_url(n);
		if (!u || !relative_url(u))
			continue;
		for (i = 0; r->own && r->own[i]; i++)
			if (!strncmp(u, r->own[i], strlen(r->own[i])))
				break;
		if (r->own && r->own[i])
			continue;
		buf_reset(&url);
		buf_addstr(&url, r->root);
		buf_addstr(&url, u);
		cmark_node_set_url(n, url.data);
	}
	cmark_iter_free(it);
	buf_release(&url);
}

/*
 * Raw HTML in the Markdown: an error at its place in the template, for
 * safe mode would drop it from the page without a word. Only templates
 * can hold it: text from data reaches md escaped ('<' as '\<'), and the
 * expansion's own HTML goes through snippets and tokens. cmark gives
 * the line and the byte column where a node starts; they are turned
 * into an offset of md and looked up in the expansion's spans. A node
 * whose column cmark gets wrong (it is exact for blocks, and for inline
 * HTML in paragraphs, lists, quotes and tables) is found by its first
 * bytes on that line; one that maps to no template text (which should
 * not happen) is reported without a location. A place is reported once
 * (a loop repeats its body). Returns the number of nodes found.
 */
static size_t
check_raw_html(cmark_node *doc, const struct expansion *x)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	size_t *lines = NULL, nlines = 0, cap = 0, i, found = 0;
	struct srcloc *seen = NULL;	/* reported: a loop's body once */
	size_t nseen = 0, seen_cap = 0;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *lit, *md = x->md.data, *lt;
		size_t line, col, off, end, len;
		struct srcloc loc;

		if (ev != CMARK_EVENT_ENTER || (t != CMARK_NODE_HTML_BLOCK &&
						t != CMARK_NODE_HTML_INLINE))
			continue;
		if (!lines) {
			lines = xgrow(lines, &cap, 1, sizeof(*lines));
			lines[nlines++] = 0;
			for (i = 0; i < x->md.len; i++)
				if (md[i] == '\n') {
					lines = xgrow(lines, &cap, nlines + 1,
						      sizeof(*lines));
					lines[nlines++] = i + 1;
				}
		}
		found++;
		lit = cmark_node_get_literal(n);
		lit = lit ? lit + strspn(lit, " \t") : "";
		len = strcspn(lit, "\r\n");
		line = (size_t)cmark_node_get_start_line(n);
		col = (size_t)cmark_node_get_start_column(n);
		if (line < 1 || line > nlines) {
			error("raw HTML is not allowed in templates: '%.*s'",
			      (int)len, lit);
			continue;
		}
		off = lines[line - 1];
		end = line < nlines ? lines[line] : x->md.len;
		if (col < 1 || off + col - 1 >= end ||
		    strncmp(md + off + col - 1, lit, len)) {
			/* Not where cmark says: its first bytes on the line. */
			for (lt = md + off; lt < md + end; lt++)
				if (!strncmp(lt, lit, len))
					break;
			off = lt < md + end ? (size_t)(lt - md) : off;
		} else {
			off += col - 1;
		}
		if (expansion_locate(x, off, &loc)) {
			error("raw HTML is not allowed in templates: '%.*s'",
			      (int)len, lit);
			continue;
		}
		if (loc.len > len)
			loc.len = len ? len : 1;
		for (i = 0; i < nseen; i++)
			if (seen[i].file == loc.file && seen[i].off == loc.off)
				break;
		if (i < nseen)
			continue;
		seen = xgrow(seen, &seen_cap, nseen + 1, sizeof(*seen));
		seen[nseen++] = loc;
		if (!strncmp(lit, "<!--", 4))
			error_at(&loc, "an HTML comment is not allowed in "
				 "templates (it would be dropped from the "
				 "page): write a template comment, '{{! ... "
				 "}}'");
		else
			error_at(&loc, "raw HTML is not allowed in templates "
				 "(it would be dropped from the page): write "
				 "Markdown, or '\\<' for a '<' that is text");
	}
	cmark_iter_free(it);
	free(lines);
	free(seen);
	return found;
}

/* A page parsed, and until it is rendered its tree. */
struct html_doc {
	const struct expansion *x;	/* borrowed */
	cmark_parser *parser;		/* NULL once rendered */
	cmark_node *tree;		/* NULL once rendered */
	cmark_node **defs;		/* footnotes out of the tree */
	size_t ndefs;
	struct headings hs;
	struct buf list;		/* the contents' list */
	struct buf toc;			/* the list in its <nav> */
	int notes;			/* it has footnotes */
};

/*
 * The offset in md (len bytes) of line (1-based) as cmark-gfm counts
 * lines: a LF, a CR or a CR LF ends one (a byte order mark that opens
 * md counts in the first line's columns). len when md has fewer lines.
 */
static size_t
line_start(const char *md, size_t len, size_t line)
{
	size_t i = 0;

	for (; line > 1 && i < len; i++)
		if (md[i] == '\n' || (md[i] == '\r' &&
				      (i + 1 == len || md[i + 1] != '\n')))
			line--;
	return i;
}

/*
 * The label of footnote definition n ("[^label]:"), read from md where
 * the definition stands, for cmark-gfm keeps it from its API. n starts
 * after the colon and the blanks that follow it. A label holds no ']',
 * blank or line break, so it runs back from the ']' to the first "[^"
 * of the bytes that are none of those (before that "[^" only a quote's
 * '>' or the ':' of a definition on the same line can stand). Sets
 * *len; the label is not NUL-terminated.
 */
static const char *
note_label(const struct expansion *x, cmark_node *n, size_t *len)
{
	const char *md = x->md.data;
	size_t line = line_start(md, x->md.len,
				 (size_t)cmark_node_get_start_line(n));
	size_t end = line + (size_t)cmark_node_get_start_column(n) - 1;
	size_t start;

	if (end > x->md.len)
		end = x->md.len;
	while (end > line && (md[end - 1] == ' ' || md[end - 1] == '\t'))
		end--;
	if (end < line + 5 || md[end - 1] != ':' || md[end - 2] != ']')
		BUG("no footnote definition at line %d, column %d",
		    cmark_node_get_start_line(n),
		    cmark_node_get_start_column(n));
	end -= 2;
	for (start = end; start > line && md[start - 1] != ']' &&
	     md[start - 1] != ' ' && md[start - 1] != '\t'; start--)
		;
	while (start + 2 < end && (md[start] != '[' || md[start + 1] != '^'))
		start++;
	if (start + 2 >= end)
		BUG("no footnote label at line %d",
		    cmark_node_get_start_line(n));
	*len = end - start - 2;
	return md + start + 2;
}

/*
 * The back-links of a footnote, written as cmark-gfm writes them: one
 * to each of its nrefs references (the first "fnref-ID", then
 * "fnref-ID-2", ...), id its label escaped for a URL; the first always.
 * (cmark-gfm also counts a reference in a definition that nothing
 * references, which it then drops: the tree no longer has it, so a
 * footnote referenced from there alone gets one back-link fewer here.)
 */
static void
backlinks(struct buf *out, const char *id, size_t nrefs)
{
	static const char rest[] = "\" class=\"footnote-backref\" "
				   "data-footnote-backref aria-label=\"Back "
				   "to content\">\xe2\x86\xa9";	/* ↩ */
	size_t i;

	buf_addf(out, "<a href=\"#fnref-%s%s</a>", id, rest);
	for (i = 2; i <= nrefs; i++)
		buf_addf(out, " <a href=\"#fnref-%s-%zu%s<sup class=\""
			 "footnote-ref\">%zu</sup></a>", id, i, rest, i);
}

/*
 * The footnotes, which cmark-gfm puts last in the tree, as a section
 * that a "Notes" heading names (so that they do not read as the end of
 * the list before them), and the list: each definition written as cmark-gfm writes it
 * (the id "fn-" and its label, the back-links to its references at the
 * end of its last paragraph, or after its last block), its blocks moved
 * into it. The definitions leave the tree for d->defs: the renderer
 * still reads a reference's label from its definition.
 */
static void
resolve_notes(cmark_node *doc, struct html_doc *d, struct buf *scratch)
{
	cmark_mem *mem = cmark_get_default_mem_allocator();
	cmark_node *c, *sec, *h, *ol;
	cmark_iter *it;
	cmark_event_type ev;
	size_t i, cap = 0, *nrefs;

	for (c = cmark_node_first_child(doc); c; c = cmark_node_next(c))
		if (cmark_node_get_type(c) == CMARK_NODE_FOOTNOTE_DEFINITION) {
			d->defs = xgrow(d->defs, &cap, d->ndefs + 1,
					sizeof(*d->defs));
			d->defs[d->ndefs++] = c;
		}
	if (!d->ndefs)
		return;
	/* A reference's text is its definition's number, from 1. */
	nrefs = xcalloc(d->ndefs, sizeof(*nrefs));
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		unsigned long k;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) !=
		    CMARK_NODE_FOOTNOTE_REFERENCE)
			continue;
		k = strtoul(cmark_node_get_literal(n), NULL, 10);
		if (k < 1 || k > d->ndefs)
			BUG("a reference to footnote %lu of %zu", k, d->ndefs);
		nrefs[k - 1]++;
	}
	cmark_iter_free(it);
	sec = custom(CMARK_NODE_CUSTOM_BLOCK, "<section class=\"footnotes\" "
		     "data-footnotes aria-labelledby=\"notes\">", "</section>");
	h = custom(CMARK_NODE_CUSTOM_BLOCK, "<h2 id=\"notes\">Notes</h2>", "");
	ol = custom(CMARK_NODE_CUSTOM_BLOCK, "<ol>", "</ol>");
	append(sec, h);
	append(sec, ol);
	append(doc, sec);
	for (i = 0; i < d->ndefs; i++) {
		cmark_node *def = d->defs[i], *li, *last;
		cmark_strbuf id;
		size_t len;
		const char *label = note_label(d->x, def, &len);

		cmark_strbuf_init(mem, &id, 0);
		houdini_escape_href(&id, (const uint8_t *)label,
				    (bufsize_t)len);
		buf_reset(scratch);
		buf_addf(scratch, "<li id=\"fn-%s\">", cmark_strbuf_cstr(&id));
		li = custom(CMARK_NODE_CUSTOM_BLOCK, scratch->data, "");
		append(ol, li);
		while ((c = cmark_node_first_child(def)))
			append(li, c);
		cmark_node_unlink(def);
		buf_reset(scratch);
		last = cmark_node_last_child(li);
		if (last && cmark_node_get_type(last) == CMARK_NODE_PARAGRAPH) {
			buf_addch(scratch, ' ');
			backlinks(scratch, cmark_strbuf_cstr(&id), nrefs[i]);
			c = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);
			cmark_node_set_on_enter(c, scratch->data);
			append(last, c);
			cmark_node_set_on_exit(li, "</li>");
		} else {
			backlinks(scratch, cmark_strbuf_cstr(&id), nrefs[i]);
			BUF_ADDLIT(scratch, "\n</li>");
			cmark_node_set_on_exit(li, scratch->data);
		}
		cmark_strbuf_free(&id);
	}
	free(nrefs);
}

int
html_parse(const struct expansion *x, struct html_doc **out)
{
	/*
	 * No autolink: text from data stays text, and the templates write
	 * their links out.
	 */
	static const char *const exts[] = { "table", "strikethrough" };
	struct html_doc *d = xcalloc(1, sizeof(*d));
	cmark_node *c;
	size_t i;

	cmark_gfm_core_extensions_ensure_registered();
	d->x = x;
	buf_init(&d->list);
	buf_init(&d->toc);
	d->parser = cmark_parser_new(HTML_OPTIONS);
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e;

		e = cmark_find_syntax_extension(exts[i]);

		if (!e)
			BUG("cmark-gfm has no '%s' extension", exts[i]);
		cmark_parser_attach_syntax_extension(d->parser, e);
	}
	cmark_parser_feed(d->parser, x->md.data, x->md.len);
	d->tree = cmark_parser_finish(d->parser);
	collect_headings(d->tree, x, &d->hs);
	build_toc(d->hs.h, d->hs.n, &d->list);
	if (d->list.len) {
		BUF_ADDLIT(&d->toc, "<nav class=\"toc\" aria-label=\""
			   "Contents\">\n<p class=\"toc-title\">Contents"
			   "</p>\n");
		buf_add(&d->toc, d->list.data, d->list.len);
		BUF_ADDLIT(&d->toc, "</nav>\n");
	}
	for (c = cmark_node_first_child(d->tree); c && !d->notes;
	     c = cmark_node_next(c))
		d->notes = cmark_node_get_type(c) ==
			   CMARK_NODE_FOOTNOTE_DEFINITION;
	*out = d;
	return check_raw_html(d->tree, x) ? -1 : 0;
}

/* Frees d's tree, the footnotes taken out of it and the parser. */
static void
drop_tree(struct html_doc *d)
{
	size_t i;

	if (d->tree)
		cmark_node_free(d->tree);
	d->tree = NULL;
	for (i = 0; i < d->ndefs; i++)
		cmark_node_free(d->defs[i]);
	free(d->defs);
	d->defs = NULL;
	d->ndefs = 0;
	if (d->parser)
		cmark_parser_free(d->parser);
	d->parser = NULL;
}

/*
 * Sends each link "#id" to no heading of d where r->elsewhere says that
 * heading is: "audit.html#id".
 */
static void
relink_anchors(struct html_doc *d, const struct rendered *r)
{
	cmark_iter *it = cmark_iter_new(d->tree);
	cmark_event_type ev;
	struct buf url = BUF_INIT;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *u, *file;

		if (ev != CMARK_EVENT_ENTER ||
		    cmark_node_get_type(n) != CMARK_NODE_LINK)
			continue;
		u = cmark_node_get_url(n);
		if (!u || *u != '#' || html_doc_has_id(d, u + 1) ||
		    !(file = r->elsewhere(u + 1, r->elsewhere_ctx)))
			continue;
		buf_reset(&url);
		buf_addstr(&url, file);
		buf_addstr(&url, u);
		cmark_node_set_url(n, url.data);
	}
	cmark_iter_free(it);
	buf_release(&url);
}

void
html_doc_render(struct html_doc *d, struct rendered *r)
{
	struct buf scratch = BUF_INIT;
	size_t i;
	char *html;

	if (!d->tree)
		BUG("a page rendered twice");
	if (r->elsewhere)
		relink_anchors(d, r);
	if (r->root)
		reroot_links(d->tree, r);
	resolve(d->tree, d->x, r, d->hs.h, d->hs.n, d->list.data);
	resolve_notes(d->tree, d, &scratch);
	html = cmark_render_html(d->tree, HTML_OPTIONS,
				 cmark_parser_get_syntax_extensions(d->parser));
	buf_addstr(r->body, html);
	cmark_get_default_mem_allocator()->free(html);
	drop_tree(d);
	r->title = NULL;
	for (i = 0; i < d->hs.n && !r->title; i++)
		if (d->hs.h[i].level == 1)
			r->title = xstrdup(d->hs.h[i].text);
	buf_add(r->toc, d->toc.data, d->toc.len);
	buf_release(&scratch);
}

int
html_doc_has_id(const struct html_doc *d, const char *id)
{
	size_t i;

	if (d->notes && !strcmp(id, "notes"))
		return 1;
	for (i = 0; i < d->hs.n; i++)
		if (!strcmp(d->hs.h[i].id, id))
			return 1;
	return 0;
}

void
html_doc_free(struct html_doc *d)
{
	size_t i;

	if (!d)
		return;
	drop_tree(d);
	for (i = 0; i < d->hs.n; i++) {
		free(d->hs.h[i].id);
		free(d->hs.h[i].text);
	}
	free(d->hs.h);
	buf_release(&d->list);
	buf_release(&d->toc);
	free(d);
}

int
html_render(const struct expansion *x, struct rendered *r)
{
	struct html_doc *d;
	int ret = html_parse(x, &d);

	html_doc_render(d, r);
	html_doc_free(d);
	return ret;
}

void
html_release(void)
{
	cmark_release_plugins();
}
