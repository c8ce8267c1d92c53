/*
 * The render stage: expanded Markdown -> HTML body and table of contents
 * (cmark-gfm, the only module that includes its headers), and the page
 * shell around them. Reads and writes no files.
 */
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm/registry.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "html.h"
#include "template.h"
#include "xalloc.h"
#include "banned.h"

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

/*
 * Copies len bytes of s, writing each link token as its link (linked
 * set: text outside any <a> element) or as its number (escaped for an
 * attribute when attr). Other bytes are copied as they are.
 */
static void
put_tokens(struct buf *out, const struct expansion *x, const char *s,
	   size_t len, int linked, int attr)
{
	const char *end = s + len, *u;
	char first = x->nonce[0];

	while (s < end) {
		const struct qlink *l;

		u = first ? memchr(s, first, (size_t)(end - s)) : NULL;
		if (!u) {
			buf_add(out, s, (size_t)(end - s));
			break;
		}
		buf_add(out, s, (size_t)(u - s));
		l = token_at(x, u, (size_t)(end - u));
		if (!l) {
			buf_addch(out, *u);
			s = u + 1;
			continue;
		}
		if (linked && l->html) {
			buf_addstr(out, l->html);
		} else if (linked) {
			BUF_ADDLIT(out, "<a href=\"quantities.html#");
			buf_addstr(out, l->name);
			BUF_ADDLIT(out, "\">");
			html_text(out, l->text);
			BUF_ADDLIT(out, "</a>");
		} else if (attr) {
			html_attr(out, l->text);
		} else {
			html_text(out, l->text);
		}
		s = u + TOKEN_LEN(x);
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
		buf_reset(&text);
		put_tokens(&text, x, raw.data, raw.len, 0, 0);
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
 * Copies html to out, adding ids to heading tags (in document order),
 * swapping snippet paragraphs for their HTML and link tokens for links.
 * cmark escapes '<' in text, so every '<' in its output opens a tag, and
 * every "<hN>" is a heading it opened. A token inside a link's text or
 * inside a tag (a URL) becomes its number alone.
 */
static void
postprocess(const char *html, const struct heading *h, size_t nh,
	    const struct expansion *x, struct buf *out)
{
	const char *p = html, *gt;
	size_t next = 0, i;
	int in_a = 0;

	while (*p) {
		const char *lt = strchr(p, '<');

		if (!lt) {
			put_tokens(out, x, p, strlen(p), !in_a, 0);
			break;
		}
		put_tokens(out, x, p, (size_t)(lt - p), !in_a, 0);
		p = lt;
		if (p[1] == 'h' && p[2] >= '1' && p[2] <= '6' && p[3] == '>' &&
		    next < nh) {
			buf_addf(out, "<h%c id=\"", p[2]);
			html_attr(out, h[next++].id);
			BUF_ADDLIT(out, "\">");
			p += 4;
			continue;
		}
		if (!strncmp(p, "<p>", 3)) {
			for (i = 0; i < x->nsnippets; i++) {
				size_t tl = strlen(x->snippets[i].token);

				if (!strncmp(p + 3, x->snippets[i].token, tl) &&
				    !strncmp(p + 3 + tl, "</p>", 4))
					break;
			}
			if (i < x->nsnippets) {
				buf_addstr(out, x->snippets[i].html);
				p += 3 + strlen(x->snippets[i].token) + 4;
				continue;
			}
		}
		if (!strncmp(p, "<a ", 3) || !strncmp(p, "<a>", 3))
			in_a = 1;
		else if (!strncmp(p, "</a>", 4))
			in_a = 0;
		/* The tag itself, a token in an attribute as its number. */
		gt = strchr(p, '>');
		gt = gt ? gt + 1 : p + strlen(p);
		put_tokens(out, x, p, (size_t)(gt - p), 0, 1);
		p = gt;
	}
}

static void
build_toc(const struct heading *h, size_t n, struct buf *toc)
{
	size_t i;
	int open2 = 0, open3 = 0;

	for (i = 0; i < n; i++) {
		if (h[i].level != 2 && h[i].level != 3)
			continue;
		if (!toc->len)
			BUF_ADDLIT(toc, "<nav class=\"toc\" aria-label=\"Contents"
				   "\">\n<p class=\"toc-title\">Contents</p>\n<ol>\n");
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
		BUF_ADDLIT(toc, "</ol>\n</nav>\n");
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

/*
 * The footnotes that cmark lists at the end of the page get a heading,
 * so that they do not read as the end of the list before them.
 */
static void
footnotes_heading(char **html, cmark_mem *mem)
{
	static const char open[] = "<section class=\"footnotes\" "
				   "data-footnotes>\n";
	char *at = strstr(*html, open);
	struct buf b = BUF_INIT;

	if (!at)
		return;
	buf_add(&b, *html, (size_t)(at - *html));
	BUF_ADDLIT(&b, "<section class=\"footnotes\" data-footnotes "
		   "aria-labelledby=\"notes\">\n<h2 id=\"notes\">Notes</h2>\n");
	buf_addstr(&b, at + sizeof(open) - 1);
	mem->free(*html);
	*html = mem->calloc(b.len + 1, 1);
	memcpy(*html, b.data, b.len + 1);
	buf_release(&b);
}

int
html_render(const struct expansion *x, struct rendered *r)
{
	/*
	 * No autolink: text from data stays text, and the templates write
	 * their links out. Footnotes ([^name]) are a parser option.
	 */
	static const char *const exts[] = { "table", "strikethrough" };
	int opts = CMARK_OPT_SMART | CMARK_OPT_SAFE | CMARK_OPT_VALIDATE_UTF8 |
		   CMARK_OPT_FOOTNOTES;
	struct headings hs = { NULL, 0, 0 };
	int ret;
	cmark_parser *parser;
	cmark_node *doc;
	cmark_mem *mem = cmark_get_default_mem_allocator();
	size_t i;
	char *html;

	cmark_gfm_core_extensions_ensure_registered();
	parser = cmark_parser_new(opts);
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e;

		e = cmark_find_syntax_extension(exts[i]);

		if (!e)
			BUG("cmark-gfm has no '%s' extension", exts[i]);
		cmark_parser_attach_syntax_extension(parser, e);
	}
	cmark_parser_feed(parser, x->md.data, x->md.len);
	doc = cmark_parser_finish(parser);
	ret = check_raw_html(doc, x) ? -1 : 0;
	if (r->root)
		reroot_links(doc, r);
	collect_headings(doc, x, &hs);
	html = cmark_render_html(doc, opts,
				 cmark_parser_get_syntax_extensions(parser));
	footnotes_heading(&html, mem);
	postprocess(html, hs.h, hs.n, x, r->body);
	mem->free(html);
	cmark_node_free(doc);
	cmark_parser_free(parser);
	r->title = NULL;
	for (i = 0; i < hs.n && !r->title; i++)
		if (hs.h[i].level == 1)
			r->title = xstrdup(hs.h[i].text);
	build_toc(hs.h, hs.n, r->toc);
	for (i = 0; i < hs.n; i++) {
		free(hs.h[i].id);
		free(hs.h[i].text);
	}
	free(hs.h);
	return ret;
}

void
html_release(void)
{
	cmark_release_plugins();
}

/* The page shell's slots; "{{content}}" must be there, once. */
static const char *const slots[] = {
	"{{title}}", "{{toc}}", "{{content}}", "{{nav}}", "{{root}}",
	"{{pdf}}",
};

int
html_check_shell(const struct srcfile *shell)
{
	const char *p = shell->data, *open;
	struct srcloc loc = { shell, 0, 2 };
	size_t i, ncontent = 0;
	int ret = 0;

	while ((open = strstr(p, "{{"))) {
		for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
			if (!strncmp(open, slots[i], strlen(slots[i])))
				break;
		loc.off = (size_t)(open - shell->data);
		if (i == sizeof(slots) / sizeof(slots[0])) {
			loc.len = strcspn(open, "}\n") + (open[strcspn(open,
				"}\n")] == '}' ? 2 : 0);
			ret = error_at(&loc, "unknown slot '%.*s' in the page "
				       "shell (slots: {{title}}, {{toc}}, "
				       "{{content}}, {{nav}}, {{root}}, {{pdf}})", (int)loc.len,
				       open);
			p = open + 2;
			continue;
		}
		if (i == 2 && ncontent++) {
			loc.len = strlen(slots[i]);
			ret = error_at(&loc, "a second '{{content}}' in the "
				       "page shell");
		}
		p = open + strlen(slots[i]);
	}
	if (!ncontent) {
		loc.off = 0;
		loc.len = 1;
		ret = error_at(&loc, "the page shell has no '{{content}}' "
			       "slot: every page would be empty");
	}
	return ret;
}

/* Whether the site has editions (and so the pages about them). */
static int with_editions = 1;

void
html_nav_editions(int on)
{
	with_editions = on;
}

static void
nav(struct buf *out, const char *current, const char *root)
{
	static const struct {
		const char *file, *name;
	} pages[] = {
		{ "index.html", "Report" },
		{ "methods.html", "Methods" },
		{ "editions/index.html", "Editions" },
		{ "changes.html", "Changes" },
		{ "quantities.html", "Quantities" },
		{ "data.html", "Data" },
		{ "references.html", "References" },
	};
	size_t i;

	BUF_ADDLIT(out, "<nav class=\"site\" aria-label=\"Site\"><ul>");
	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		const char *at = "";
		size_t len = strlen(pages[i].file) - 5;	/* ".html" */

		if (!strcmp(pages[i].file, current))
			at = " aria-current=\"page\"";
		/* quantities/KEY.html is a part of quantities.html. */
		else if (!strncmp(pages[i].file, current, len) &&
			 current[len] == '/')
			at = " aria-current=\"true\"";
		if (with_editions || (i != 2 && i != 3))
			buf_addf(out, "<li><a href=\"%s%s\"%s>%s</a></li>",
				 root, pages[i].file, at, pages[i].name);
	}
	BUF_ADDLIT(out, "</ul></nav>");
}

/* Whether the tag from lt to gt has an aria- attribute. */
static int
has_aria(const char *lt, const char *gt)
{
	for (; lt + 5 <= gt; lt++)
		if (!strncmp(lt, "aria-", 5))
			return 1;
	return 0;
}

/*
 * Copies a page's body to out with its tables made readable: a caption
 * the expansion wrote before its table ({{#table}}: a <div
 * class="caption" id="tab-..."> right before "<table>") becomes the
 * table's own <caption>, and the table is wrapped in a scrolling <div
 * class="wide">; a table without a caption is named by the heading
 * above it (aria-labelledby), so that every table has a name a screen
 * reader can say.
 */
static void
put_body(struct buf *out, const char *body)
{
	static const char cap[] = "<div class=\"caption\" id=\"";
	const char *p = body, *lt, *id = NULL, *end, *t, *gt;
	size_t idlen = 0;
	int wrapped = 0;

	while ((lt = strchr(p, '<'))) {
		buf_add(out, p, (size_t)(lt - p));
		p = lt;
		if (lt[1] == 'h' && lt[2] >= '1' && lt[2] <= '6' &&
		    !strncmp(lt + 3, " id=\"", 5)) {
			id = lt + 8;
			idlen = strcspn(id, "\"");
		} else if (!strncmp(lt, cap, sizeof(cap) - 1) &&
			   (end = strstr(lt, "</div>")) &&
			   !strncmp(t = end + 6 + strspn(end + 6, " \n"),
				    "<table>", 7)) {
			BUF_ADDLIT(out, "<div class=\"wide\"><table>\n"
				   "<caption id=\"");
			buf_add(out, lt + sizeof(cap) - 1,
				(size_t)(end - lt - (sizeof(cap) - 1)));
			BUF_ADDLIT(out, "</caption>");
			p = t + 7;
			wrapped = 1;
			continue;
		} else if (!strncmp(lt, "<table", 6) && (gt = strchr(lt, '>')) &&
			   strncmp(gt + 1 + strspn(gt + 1, " \n"), "<caption",
				   8) && id && !has_aria(lt, gt)) {
			buf_add(out, lt, 6);
			BUF_ADDLIT(out, " aria-labelledby=\"");
			buf_add(out, id, idlen);
			BUF_ADDLIT(out, "\"");
			p = lt + 6;
			continue;
		} else if (wrapped && !strncmp(lt, "</table>", 8)) {
			BUF_ADDLIT(out, "</table></div>");
			p = lt + 8;
			wrapped = 0;
			continue;
		}
		buf_addch(out, '<');
		p++;
	}
	buf_addstr(out, p);
}

/*
 * The body. On a narrow screen the contents list cannot stand beside
 * the text, and before the title it would push the title down, so a
 * folded copy of its list follows the page's <h1> (style.css shows one
 * or the other by the width).
 */
static void
put_content(struct buf *out, const char *body, const char *toc)
{
	const char *h1 = strstr(body, "</h1>\n"), *ol = strstr(toc, "<ol>");
	const char *end = strstr(toc, "</nav>");
	struct buf b = BUF_INIT;

	if (!h1 || !ol || !end || end < ol) {
		put_body(out, body);
		return;
	}
	h1 += 6;
	buf_add(&b, body, (size_t)(h1 - body));
	BUF_ADDLIT(&b, "<details class=\"toc-narrow\"><summary>Contents"
		   "</summary>\n");
	buf_add(&b, ol, (size_t)(end - ol));
	BUF_ADDLIT(&b, "</details>\n");
	buf_addstr(&b, h1);
	put_body(out, b.data);
	buf_release(&b);
}

/* Copies shell to out, filling its slots. */
void
html_page(struct buf *out, const char *shell, const char *title,
	  const char *toc, const char *body, const char *current,
	  const char *root, const char *pdf)
{
	const char *p = shell;

	while (*p) {
		const char *open = strstr(p, "{{");

		if (!open) {
			buf_addstr(out, p);
			break;
		}
		buf_add(out, p, (size_t)(open - p));
		if (!strncmp(open, "{{title}}", 9)) {
			html_text(out, title);
			p = open + 9;
		} else if (!strncmp(open, "{{toc}}", 7)) {
			buf_addstr(out, toc);
			p = open + 7;
		} else if (!strncmp(open, "{{content}}", 11)) {
			put_content(out, body, toc);
			p = open + 11;
		} else if (!strncmp(open, "{{nav}}", 7)) {
			nav(out, current, root);
			p = open + 7;
		} else if (!strncmp(open, "{{root}}", 8)) {
			buf_addstr(out, root);
			p = open + 8;
		} else if (!strncmp(open, "{{pdf}}", 7)) {
			if (pdf) {
				BUF_ADDLIT(out, "<p class=\"pdf-link\"><a "
					   "href=\"");
				html_attr(out, pdf);
				BUF_ADDLIT(out, "\">This report as PDF</a>"
					   "</p>");
			}
			p = open + 7;
		} else {
			buf_add(out, open, 2);
			p = open + 2;
		}
	}
}
