/*
 * Unit tests for src/html.h, the render stage, on what it writes that
 * cmark-gfm does not: the footnotes' section, named by a "Notes"
 * heading, with cmark-gfm's own ids and back-links (the expected HTML
 * is cmark-gfm's, for the same Markdown, around the heading); and what
 * a page puts once after its title (rendered.banner: an edition's line
 * of navigation), with a parsed page's sections known before it is
 * rendered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "html.h"
#include "template.h"

/* What the footnotes' section starts with. */
#define NOTES "<section class=\"footnotes\" data-footnotes " \
	      "aria-labelledby=\"notes\">\n<h2 id=\"notes\">Notes</h2>\n"

/*
 * An expansion of Markdown md (len bytes) with no tokens: its nonce is
 * in no text. Release it with expansion_release().
 */
static void
expansion_of(struct expansion *x, const char *md, size_t len)
{
	expansion_init(x);
	snprintf(x->nonce, sizeof(x->nonce), "Unonce");
	buf_add(&x->md, md, len);
}

/* The body of md rendered for r's page (its body, toc, title). */
static char *
render(const char *md, size_t len, struct rendered *r)
{
	struct expansion x;
	struct buf body = BUF_INIT, toc = BUF_INIT;

	expansion_of(&x, md, len);
	r->body = &body;
	r->toc = &toc;
	capture_start();
	assert_int_equal(html_render(&x, r), 0);
	assert_captured("");
	free(r->title);
	buf_release(&toc);
	expansion_release(&x);
	return buf_detach(&body, NULL);
}

/* Asserts that got is a, then b, then c; frees got. */
static void
assert_body(char *got, const char *a, const char *b, const char *c)
{
	struct buf want = BUF_INIT;

	buf_addstr(&want, a);
	buf_addstr(&want, b);
	buf_addstr(&want, c);
	if (strcmp(got, want.data)) {
		print_error("body was:\n%s\nwanted:\n%s\n", got, want.data);
		fail();
	}
	buf_release(&want);
	free(got);
}

static const char t1_md[] =
	"Text[^a&b] and[^\xc3\xa9] again[^a&b] and [^c] [^c] [^c].\n"
	"\n"
	"> quote[^q] and[^bq], [^li] and [^x[^y] and [^e].\n"
	"\n"
	"[^a&b]: Note *one*.\n"
	"\n"
	"    more\n"
	"[^\xc3\xa9]: Code:\n"
	"\n"
	"        code\n"
	"\n"
	"[^c]: - list\n"
	"    - list2\n"
	"\n"
	"[^q]: q note\n"
	"\n"
	"    second para\n"
	"\n"
	"> [^bq]: in a quote\n"
	"\n"
	"- [^li]:\tin a list item\n"
	"\n"
	"[^x[^y]: odd label\n"
	"\n"
	"[^e]:\n"
	"\n"
	"[^unused]: never\n";

/* cmark-gfm's HTML of t1_md: before its <section>, and after. */
static const char t1_text[] =
	"<p>Text<sup class=\"footnote-ref\"><a href=\"#fn-a&amp;b\" id=\"fnref-"
	"a&amp;b\" data-footnote-ref>1</a></sup> and<sup class=\"footnote-ref\""
	"><a href=\"#fn-%C3%A9\" id=\"fnref-%C3%A9\" data-footnote-ref>2</a></s"
	"up> again<sup class=\"footnote-ref\"><a href=\"#fn-a&amp;b\" id=\"fnre"
	"f-a&amp;b-2\" data-footnote-ref>1</a></sup> and <sup class=\"footnote-"
	"ref\"><a href=\"#fn-c\" id=\"fnref-c\" data-footnote-ref>3</a></sup> <"
	"sup class=\"footnote-ref\"><a href=\"#fn-c\" id=\"fnref-c-2\" data-foo"
	"tnote-ref>3</a></sup> <sup class=\"footnote-ref\"><a href=\"#fn-c\" id"
	"=\"fnref-c-3\" data-footnote-ref>3</a></sup>.</p>\n"
	"<blockquote>\n"
	"<p>quote<sup class=\"footnote-ref\"><a href=\"#fn-q\" id=\"fnref-q\" d"
	"ata-footnote-ref>4</a></sup> and<sup class=\"footnote-ref\"><a href=\""
	"#fn-bq\" id=\"fnref-bq\" data-footnote-ref>5</a></sup>, <sup class=\"f"
	"ootnote-ref\"><a href=\"#fn-li\" id=\"fnref-li\" data-footnote-ref>6</"
	"a></sup> and [^x[^y] and <sup class=\"footnote-ref\"><a href=\"#fn-e\""
	" id=\"fnref-e\" data-footnote-ref>7</a></sup>.</p>\n"
	"</blockquote>\n"
	"<blockquote>\n"
	"</blockquote>\n"
	"<ul>\n"
	"<li></li>\n"
	"</ul>\n";
static const char t1_list[] =
	"<ol>\n"
	"<li id=\"fn-a&amp;b\">\n"
	"<p>Note <em>one</em>.</p>\n"
	"<p>more <a href=\"#fnref-a&amp;b\" class=\"footnote-backref\" data-foo"
	"tnote-backref aria-label=\"Back to content\">\xe2\x86\xa9</a> <a href="
	"\"#fnref-a&amp;b-2\" class=\"footnote-backref\" data-footnote-backref "
	"aria-label=\"Back to content\">\xe2\x86\xa9<sup class=\"footnote-ref\""
	">2</sup></a></p>\n"
	"</li>\n"
	"<li id=\"fn-%C3%A9\">\n"
	"<p>Code:</p>\n"
	"<pre><code>code\n"
	"</code></pre>\n"
	"<a href=\"#fnref-%C3%A9\" class=\"footnote-backref\" data-footnote-bac"
	"kref aria-label=\"Back to content\">\xe2\x86\xa9</a>\n"
	"</li>\n"
	"<li id=\"fn-c\">\n"
	"<ul>\n"
	"<li>list</li>\n"
	"<li>list2</li>\n"
	"</ul>\n"
	"<a href=\"#fnref-c\" class=\"footnote-backref\" data-footnote-backref "
	"aria-label=\"Back to content\">\xe2\x86\xa9</a> <a href=\"#fnref-c-2\""
	" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to"
	" content\">\xe2\x86\xa9<sup class=\"footnote-ref\">2</sup></a> <a href"
	"=\"#fnref-c-3\" class=\"footnote-backref\" data-footnote-backref aria-"
	"label=\"Back to content\">\xe2\x86\xa9<sup class=\"footnote-ref\">3</s"
	"up></a>\n"
	"</li>\n"
	"<li id=\"fn-q\">\n"
	"<p>q note</p>\n"
	"<p>second para <a href=\"#fnref-q\" class=\"footnote-backref\" data-fo"
	"otnote-backref aria-label=\"Back to content\">\xe2\x86\xa9</a></p>\n"
	"</li>\n"
	"<li id=\"fn-bq\">\n"
	"<p>in a quote <a href=\"#fnref-bq\" class=\"footnote-backref\" data-fo"
	"otnote-backref aria-label=\"Back to content\">\xe2\x86\xa9</a></p>\n"
	"</li>\n"
	"<li id=\"fn-li\">\n"
	"<p>in a list item <a href=\"#fnref-li\" class=\"footnote-backref\" dat"
	"a-footnote-backref aria-label=\"Back to content\">\xe2\x86\xa9</a></p>"
	"\n"
	"</li>\n"
	"<li id=\"fn-e\">\n"
	"<a href=\"#fnref-e\" class=\"footnote-backref\" data-footnote-backref "
	"aria-label=\"Back to content\">\xe2\x86\xa9</a>\n"
	"</li>\n"
	"</ol>\n"
	"</section>\n";

/* A byte order mark, CR LF and CR line ends. */
static const char t2_md[] =
	"\xef\xbb\xbf[^a]: first line def\r\n"
	"\r\n"
	"Ref[^a] and[^b].\r\r[^b]: cr only\r";
static const char t2_text[] =
	"<p>Ref<sup class=\"footnote-ref\"><a href=\"#fn-a\" id=\"fnref-a\" dat"
	"a-footnote-ref>1</a></sup> and<sup class=\"footnote-ref\"><a href=\"#f"
	"n-b\" id=\"fnref-b\" data-footnote-ref>2</a></sup>.</p>\n";
static const char t2_list[] =
	"<ol>\n"
	"<li id=\"fn-a\">\n"
	"<p>first line def <a href=\"#fnref-a\" class=\"footnote-backref\" data"
	"-footnote-backref aria-label=\"Back to content\">\xe2\x86\xa9</a></p>"
	"\n"
	"</li>\n"
	"<li id=\"fn-b\">\n"
	"<p>cr only <a href=\"#fnref-b\" class=\"footnote-backref\" data-footno"
	"te-backref aria-label=\"Back to content\">\xe2\x86\xa9</a></p>\n"
	"</li>\n"
	"</ol>\n"
	"</section>\n";

/*
 * Footnotes of every shape: referenced more than once, ending in a
 * paragraph, a code block or a list, empty, defined in a quote and in
 * a list item, with labels that a URL escapes; one never referenced is
 * dropped, as cmark-gfm drops it.
 */
static void
test_notes(void **state)
{
	struct rendered r = { 0 };

	(void)state;
	assert_body(render(t1_md, sizeof(t1_md) - 1, &r), t1_text, NOTES,
		    t1_list);
}

/* The labels are read where cmark-gfm counts lines and columns. */
static void
test_notes_line_ends(void **state)
{
	struct rendered r = { 0 };

	(void)state;
	assert_body(render(t2_md, sizeof(t2_md) - 1, &r), t2_text, NOTES,
		    t2_list);
}

/* No footnotes, no section. */
static void
test_no_notes(void **state)
{
	static const char md[] = "Text [^none] and [x].\n";
	struct rendered r = { 0 };

	(void)state;
	assert_body(render(md, sizeof(md) - 1, &r),
		    "<p>Text [^none] and [x].</p>\n", "", "");
}

/* An edition's line of navigation, for rendered.banner. */
#define NAV "<p class=\"nav\">editions</p>"

static const char sections_md[] =
	"# Title\n\n## One\n\nText.[^n]\n\n### Sub\n\n## One\n\n"
	"> ## In a quote\n\n## Quiet\n\nEnd.\n\n[^n]: A note.\n";

/*
 * The banner (an edition's navigation) comes once, after the title and
 * the folded contents: nothing after any section's heading or the
 * notes' (where the links to the same section in other editions were).
 */
static void
test_banner_once(void **state)
{
	struct rendered r = { .banner = NAV };

	(void)state;
	assert_body(render(sections_md, sizeof(sections_md) - 1, &r),
		    "<h1 id=\"title\">Title</h1>\n"
		    "<details class=\"toc-narrow\"><summary>Contents"
		    "</summary>\n<ol>\n<li><a href=\"#one\">One</a><ol>\n"
		    "<li><a href=\"#sub\">Sub</a></li>\n</ol>\n</li>\n"
		    "<li><a href=\"#one-2\">One</a></li>\n"
		    "<li><a href=\"#in-a-quote\">In a quote</a></li>\n"
		    "<li><a href=\"#quiet\">Quiet</a></li>\n</ol>\n"
		    "</details>\n" NAV "\n"
		    "<h2 id=\"one\">One</h2>\n"
		    "<p>Text.<sup class=\"footnote-ref\"><a href=\"#fn-n\" "
		    "id=\"fnref-n\" data-footnote-ref>1</a></sup></p>\n"
		    "<h3 id=\"sub\">Sub</h3>\n"
		    "<h2 id=\"one-2\">One</h2>\n"
		    "<blockquote>\n<h2 id=\"in-a-quote\">In a quote</h2>\n"
		    "</blockquote>\n"
		    "<h2 id=\"quiet\">Quiet</h2>\n<p>End.</p>\n",
		    NOTES,
		    "<ol>\n<li id=\"fn-n\">\n"
		    "<p>A note. <a href=\"#fnref-n\" class=\"footnote-backref"
		    "\" data-footnote-backref aria-label=\"Back to content\">"
		    "\xe2\x86\xa9</a></p>\n</li>\n</ol>\n</section>\n");
}

/* rendered.elsewhere: "there" and "sub-there" are on b.html. */
static const char *
on_b(const char *id, const void *ctx)
{
	(void)ctx;
	return !strcmp(id, "there") || !strcmp(id, "sub-there") ? "b.html" :
	       NULL;
}

/*
 * A link "#id" to no heading of the page goes where elsewhere says
 * that heading is; one to a heading of its own (any level), or to one
 * no page has, stays; other links are not touched. html_doc_has_id()
 * knows every level's headings and the notes.
 */
static void
test_elsewhere(void **state)
{
	static const char md[] =
		"# Title\n\n## Here\n\n### Sub there\n\n"
		"[a](#here) [b](#there) [c](#sub-there) [d](#nowhere) "
		"[e](x.html#there) [f](#title)[^n]\n\n[^n]: A note.\n";
	struct rendered r = { .elsewhere = on_b };
	struct expansion x;
	struct html_doc *d;
	char *body;

	(void)state;
	body = render(md, sizeof(md) - 1, &r);
	assert_non_null(strstr(body, "<a href=\"#here\">a</a> "
			       "<a href=\"b.html#there\">b</a> "
			       "<a href=\"#sub-there\">c</a> "
			       "<a href=\"#nowhere\">d</a> "
			       "<a href=\"x.html#there\">e</a> "
			       "<a href=\"#title\">f</a>"));
	free(body);
	expansion_of(&x, md, sizeof(md) - 1);
	capture_start();
	assert_int_equal(html_parse(&x, &d), 0);
	assert_captured("");
	assert_true(html_doc_has_id(d, "title"));
	assert_true(html_doc_has_id(d, "here"));
	assert_true(html_doc_has_id(d, "sub-there"));
	assert_true(html_doc_has_id(d, "notes"));
	assert_false(html_doc_has_id(d, "there"));
	html_doc_free(d);
	expansion_release(&x);
}

/*
 * A page parsed tells its headings (at any level, and "notes" when it
 * has footnotes) before it is rendered, and after; rendered in two
 * steps it is what html_render() writes.
 */
static void
test_parse_sections(void **state)
{
	static const char plain[] = "## Only\n\nNo notes.\n";
	struct expansion x, y;
	struct html_doc *d, *e;
	struct buf body = BUF_INIT, toc = BUF_INIT;
	struct rendered r = { .body = &body, .toc = &toc,
			      .banner = NAV };
	struct rendered once = { .banner = NAV };
	char *want;

	(void)state;
	expansion_of(&x, sections_md, sizeof(sections_md) - 1);
	expansion_of(&y, plain, sizeof(plain) - 1);
	capture_start();
	assert_int_equal(html_parse(&x, &d), 0);
	assert_int_equal(html_parse(&y, &e), 0);
	assert_captured("");
	assert_true(html_doc_has_id(d, "one"));
	assert_true(html_doc_has_id(d, "one-2"));
	assert_true(html_doc_has_id(d, "in-a-quote"));
	assert_true(html_doc_has_id(d, "notes"));
	assert_true(html_doc_has_id(d, "title"));
	assert_true(html_doc_has_id(d, "sub"));
	assert_false(html_doc_has_id(d, "two"));
	assert_true(html_doc_has_id(e, "only"));
	assert_false(html_doc_has_id(e, "notes"));
	html_doc_render(d, &r);
	assert_true(html_doc_has_id(d, "one-2"));
	assert_true(html_doc_has_id(d, "notes"));
	assert_string_equal(r.title, "Title");
	want = render(sections_md, sizeof(sections_md) - 1, &once);
	assert_string_equal(body.data, want);
	assert_non_null(strstr(toc.data, "<a href=\"#one-2\">One</a>"));
	free(want);
	free(r.title);
	html_doc_free(d);
	html_doc_free(e);
	buf_release(&body);
	buf_release(&toc);
	expansion_release(&x);
	expansion_release(&y);
}

/*
 * Code that holds the nonce is written by html.c, escaped as cmark-gfm
 * escapes code (escape.h's html_literal()): & < > " escaped, controls
 * kept; a link token becomes its link, a near miss ("Unonce-q" without
 * its digits, "Unonc") and the nonce's first letter stay text; in the
 * language of a fenced block the token is its number.
 */
static void
test_code_tokens(void **state)
{
	static const char md[] =
		"`U & < > \" Unonce-q000000 Unonce-q Unonc`\n"
		"\n"
		"```Unonce-q000000 rest\n"
		"a<b>&\"c\" \x01Unonce-q000000.\n"
		"```\n";
	struct expansion x;
	struct buf body = BUF_INIT, toc = BUF_INIT;
	struct rendered r = { .body = &body, .toc = &toc };

	(void)state;
	expansion_of(&x, md, sizeof(md) - 1);
	x.links = calloc(1, sizeof(*x.links));
	assert_non_null(x.links);
	x.links[0].text = strdup("1.5 \xc3\x97 10\xc2\xb3");
	x.links[0].name = "a.b";
	x.nlinks = x.links_cap = 1;
	capture_start();
	assert_int_equal(html_render(&x, &r), 0);
	assert_captured("");
	assert_string_equal(body.data,
		"<p><code>U &amp; &lt; &gt; &quot; <a href=\"quantities.html"
		"#a.b\">1.5 \xc3\x97 10\xc2\xb3</a> Unonce-q Unonc</code></p>\n"
		"<pre><code class=\"language-1.5 \xc3\x97 10\xc2\xb3\">"
		"a&lt;b&gt;&amp;&quot;c&quot; \x01<a href=\"quantities.html#a.b"
		"\">1.5 \xc3\x97 10\xc2\xb3</a>.\n</code></pre>\n");
	free(r.title);
	buf_release(&body);
	buf_release(&toc);
	expansion_release(&x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_notes_line_ends),
		cmocka_unit_test(test_no_notes),
		cmocka_unit_test(test_banner_once),
		cmocka_unit_test(test_elsewhere),
		cmocka_unit_test(test_parse_sections),
		cmocka_unit_test(test_code_tokens),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	html_release();
	return ret;
}
