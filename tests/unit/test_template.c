/*
 * Unit tests for src/template.h, the template stage. Templates are parsed
 * from in-memory strings named "t.md" (includes from a temporary folder)
 * and expanded against a small registry; the Markdown is compared
 * exactly, with the random snippet tokens replaced by "<S0>", "<S1>", ...
 * Every error message is compared exactly, caret line included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "testutil.h"
#include "testreg.h"
#include "registry.h"
#include "template.h"
#include "html.h"
#include "pageset.h"

/* U+00A0 NO-BREAK SPACE: what keeps a number and its unit together. */
#define NB "\xc2\xa0"

static struct registry *reg;

static int
setup_registry(void **state)
{
	(void)state;
	reg = test_registry(1);
	return 0;
}

static int
teardown_registry(void **state)
{
	(void)state;
	registry_free(reg);
	reg = NULL;
	return 0;
}

static struct template *
parse(const char *s)
{
	return template_parse("templates", "t.md", s, strlen(s));
}

/*
 * The Markdown of x with every snippet token (alone on its line) replaced
 * by "<S0>", "<S1>", ... and every link token by the Markdown link it
 * stands for; checks that no token is left. Caller frees.
 */
static char *
normalize(const struct expansion *x)
{
	struct buf md = BUF_INIT, tok = BUF_INIT;
	size_t i;

	assert_sane_buf(&x->md);
	buf_add(&md, x->md.data, x->md.len);
	for (i = 0; i < x->nsnippets; i++) {
		struct buf next = BUF_INIT;
		char *at;

		assert_int_equal(x->snippets[i].token[0], 'U');
		buf_reset(&tok);
		buf_addf(&tok, "\n%s\n", x->snippets[i].token);
		at = strstr(md.data, tok.data);
		assert_non_null(at);
		buf_add(&next, md.data, (size_t)(at - md.data));
		buf_addf(&next, "\n<S%zu>\n", i);
		buf_addstr(&next, at + tok.len);
		buf_release(&md);
		md = next;
	}
	/* Link tokens: written back as the Markdown links they stand for. */
	for (i = 0; i < x->nlinks; i++) {
		struct buf next = BUF_INIT;
		char *at;

		buf_reset(&tok);
		buf_addf(&tok, "%s-q%06zu", x->nonce, i);
		at = strstr(md.data, tok.data);
		assert_non_null(at);
		buf_add(&next, md.data, (size_t)(at - md.data));
		buf_addf(&next, "[%s](quantities.html#", x->links[i].text);
		md_escape(&next, x->links[i].name);
		buf_addch(&next, ')');
		buf_addstr(&next, at + tok.len);
		buf_release(&md);
		md = next;
	}
	if (x->nsnippets) {
		/* The nonce: the first token without its index. */
		buf_reset(&tok);
		buf_add(&tok, x->snippets[0].token,
			strlen(x->snippets[0].token) - 1);
		assert_null(strstr(md.data, tok.data));
	}
	if (x->nlinks || x->nsnippets)
		assert_null(strstr(md.data, x->nonce));
	buf_release(&tok);
	return buf_detach(&md, NULL);
}

/*
 * Expands s, which must be valid, into x. Returns the template, which
 * x.figures[].file borrows from: release x, then free the template.
 */
static struct template *
expand_into(const char *s, struct expansion *x)
{
	size_t before = diag_errors();
	struct template *t;
	int ret = 0;

	expansion_init(x);
	capture_start();
	t = parse(s);
	if (t)
		ret = template_expand(t, reg, x);
	assert_captured("");
	assert_non_null(t);
	assert_int_equal(ret, 0);
	assert_int_equal(diag_errors(), before);
	return t;
}

/* Expands s, which must be valid, and compares the Markdown with want. */
static void
expand_ok(const char *s, const char *want)
{
	struct expansion x;
	struct template *t = expand_into(s, &x);
	char *got;

	got = normalize(&x);
	if (strcmp(got, want)) {
		print_error("template:\n%s\nMarkdown was:\n%s\nwanted:\n%s\n", s,
			    got, want);
		free(got);
		expansion_release(&x);
		template_free(t);
		fail();
	}
	free(got);
	expansion_release(&x);
	template_free(t);
}

/* s does not parse; the messages are exactly want, nerr of them. */
static void
parse_err(const char *s, const char *want, size_t nerr)
{
	struct template *t;

	diag_reset();
	capture_start();
	t = parse(s);
	assert_captured(want);
	assert_null(t);
	assert_int_equal(diag_errors(), nerr);
}

/* s parses but does not expand; the messages are exactly want. */
static void
expand_err(const char *s, const char *want, size_t nerr)
{
	struct expansion x;
	struct template *t;
	int ret;

	diag_reset();
	expansion_init(&x);
	capture_start();
	t = parse(s);
	ret = t ? template_expand(t, reg, &x) : 0;
	assert_captured(want);
	assert_non_null(t);
	assert_int_equal(ret, -1);
	assert_int_equal(diag_errors(), nerr);
	assert_sane_buf(&x.md);
	expansion_release(&x);
	template_free(t);
}

#define ERR(line_col, msg, line, caret)                                      \
	"t.md:" line_col ": error: " msg "\n    " line "\n    " caret "\n"

#define OPS "[5.43" NB "×" NB "10⁵⁰](quantities.html#laptop\\.ops\\_max)"

static void
test_plain_text(void **state)
{
	(void)state;
	expand_ok("", "");
	expand_ok("Hello, *world*.\n", "Hello, *world*.\n");
	expand_ok("no final newline", "no final newline");
	expand_ok("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		  "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
	expand_ok("braces { } and }} alone, <b>html</b> & \\ stay\n",
		  "braces { } and }} alone, <b>html</b> & \\ stay\n");
	expand_ok("{ {x} }\n", "{ {x} }\n");
}

static void
test_value_default(void **state)
{
	(void)state;
	/* A bare name is a link; the destination renders as #laptop.ops_max. */
	expand_ok("{{ laptop.ops_max }}", OPS);
	expand_ok("{{laptop.ops_max}}", OPS);
	expand_ok("The laptop does {{ laptop.ops_max }} ops.\n",
		  "The laptop does " OPS " ops.\n");
	expand_ok("{{ laptop.volume }}",
		  "1.00" NB "×" NB "10⁻³");
	/*
	 * A count, a whole pure number, is written as one; this year has
	 * no unit (real ones have "year") and so is counted like any
	 * number. Explicit formats win.
	 */
	expand_ok("{{ device.a.year }}", "2,008");
	expand_ok("{{ device.a.year | sci:3 }}", "2.01" NB "×" NB "10³");
	expand_ok("{{ 35 }}", "35");
	expand_ok("{{ 35 | sci:3 }}", "3.50" NB "×" NB "10¹");
	expand_ok("{{ 35.5 }}", "3.55" NB "×" NB "10¹");
	expand_ok("{{ 999999999999999 }}", "999,999,999,999,999");
	expand_ok("{{ 1e15 }}", "1.00" NB "×" NB "10¹⁵");
	expand_ok("{{ laptop.volume / laptop.volume * 3 }}", "3");
	/* A whole number of a unit that does not count is no count. */
	expand_ok("{{ laptop.volume * 3000 }}", "3.00");
	/* Expressions are not linked. */
	expand_ok("{{ laptop.ops_max * 1 }}", "5.43" NB "×" NB "10⁵⁰");
	expand_ok("{{ 2.5 }}", "2.50");
	expand_ok("{{ -1200 }}", "−1,200");
	expand_ok("{{ -1200.5 }}", "−1.20" NB "×" NB "10³");
	expand_ok("{{ 1 < 2 }}", "1");
}

static void
test_formats(void **state)
{
	(void)state;
	expand_ok("{{ laptop.ops_max | sci:5 }}",
		  "[5.4256" NB "×" NB "10⁵⁰"
		  "](quantities.html#laptop\\.ops\\_max)");
	expand_ok("{{ laptop.ops_max | sci:1 }}",
		  "[5" NB "×" NB "10⁵⁰](quantities.html#laptop\\.ops\\_max)");
	expand_ok("{{ laptop.ops_max | e:3 }}",
		  "[5.43e50](quantities.html#laptop\\.ops\\_max)");
	expand_ok("{{ laptop.ops_max | e }}",
		  "[5.43e50](quantities.html#laptop\\.ops\\_max)");
	expand_ok("{{ 242.0917 | fixed:2 }}", "242.09");
	expand_ok("{{ 242.0917 | fixed:0 }}", "242");
	expand_ok("{{ 242.0917 | fixed }}", "242.09");
	expand_ok("{{ -0.0001 | fixed:2 }}", "0.00");
	expand_ok("{{ 242.09 | sig:2 }}", "240");
	expand_ok("{{ 1.8814 | sig:2 }}", "1.9");
	expand_ok("{{ 1234567.4 | int }}", "1,234,567");
	expand_ok("{{ device.a.year | year }}",
		  "2008");
	expand_ok("{{ 2145.3 | year }}", "2145");
	expand_ok("{{ laptop.ops_max | pow10 }}",
		  "[10⁵¹](quantities.html#laptop\\.ops\\_max)");
	expand_ok("{{ 2.5e11 | bytes }}", "250" NB "GB");
	expand_ok("{{ 2.5e11 | bytes:2 }}", "250" NB "GB");
	expand_ok("{{ 4.4e13 | bytes }}", "44.0" NB "TB");
	expand_ok("{{ 2.5e11 | ibytes:4 }}", "232.8" NB "GiB");
	expand_ok("{{ 2.5e11 | ibytes }}", "233" NB "GiB");
	expand_ok("{{ record.name | text }}", "Roadrunner");
	expand_ok("{{ 9.99951e49 | sci:4 }}", "1.000" NB "×" NB "10⁵⁰");
	expand_ok("{{laptop.ops_max|sci:2}}",
		  "[5.4" NB "×" NB "10⁵⁰](quantities.html#laptop\\.ops\\_max)");
}

static void
test_units_and_links(void **state)
{
	(void)state;
	expand_ok("{{ laptop.energy | sci:5 | unit }}",
		  "[8.9876" NB "×" NB "10¹⁶"
		  "](quantities.html#laptop\\.energy)" NB "J");
	expand_ok("{{ laptop.energy | unit | sci:2 }}",
		  "[9.0" NB "×" NB "10¹⁶"
		  "](quantities.html#laptop\\.energy)" NB "J");
	/* The unit is Markdown-escaped; '^3' becomes a superscript. */
	expand_ok("{{ laptop.ops_max | unit }}", OPS NB "ops\\/s");
	expand_ok("{{ laptop.volume | sci:1 | unit }}",
		  "1" NB "×" NB "10⁻³" NB "m³");
	/* A dimensionless quantity gets no unit. */
	expand_ok("{{ device.a.year | year | unit }}",
		  "2008");
	expand_ok("{{ laptop.energy / 2 | sci:2 | unit:\"J\" }}",
		  "4.5" NB "×" NB "10¹⁶" NB "J");
	expand_ok("{{ laptop.volume | unit:\"m^3/s\" }}",
		  "1.00" NB "×" NB "10⁻³" NB "m³\\/s");
	expand_ok("{{ 3 | fixed:0 | unit:\"a|b\" }}", "3" NB "a\\|b");
	expand_ok("{{ laptop.ops_max | nolink }}", "5.43" NB "×" NB "10⁵⁰");
	expand_ok("{{ laptop.ops_max | nolink | sci:5 }}",
		  "5.4256" NB "×" NB "10⁵⁰");
	expand_ok("{{ laptop.energy | nolink | unit }}",
		  "8.99" NB "×" NB "10¹⁶" NB "J");
	expand_ok("{{ laptop.energy | sci:2 | unit | nolink }}",
		  "9.0" NB "×" NB "10¹⁶" NB "J");
}

static void
test_text_escaped(void **state)
{
	(void)state;
	expand_ok("{{ record.name }}", "Roadrunner");
	expand_ok("{{ device.a.name }}",
		  "A \\<b\\>\\*bold\\*\\<\\/b\\> \\| pipe");
	expand_ok("| {{ device.a.name }} |\n",
		  "| A \\<b\\>\\*bold\\*\\<\\/b\\> \\| pipe |\n");
	/* Line breaks and tabs become spaces, control characters go. */
	expand_ok("{{ record.note }}", "one two three \\!");
	expand_ok("{{ \"#1. [x](y) `z` _w_ ~v~ {}\" }}",
		  "\\#1\\. \\[x\\]\\(y\\) \\`z\\` \\_w\\_ \\~v\\~ \\{\\}");
	expand_ok("{{ \"a}}b|c\" }}", "a\\}\\}b\\|c");
	expand_ok("{{ \"say \\\"hi\\\"\" }}", "say \\\"hi\\\"");
	/* A string that ends in an escaped backslash. */
	expand_ok("{{ \"a\\\\\" }} after", "a\\\\ after");
	expand_ok("{{ unit(laptop.volume) }}", "m\\^3");
	expand_ok("{{ formula(laptop.ops_max) }}", "2 E \\/ \\(pi hbar\\)");
	expand_ok("{{ source(laptop.energy) }}", "Einstein 1905");
	expand_ok("{{ name(laptop.ops_max) }}", "laptop\\.ops\\_max");
	expand_ok("é ü → {{ \"é→\" }}", "é ü → é→");
}

static void
test_md_escape(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	md_escape(&b, "");
	assert_string_equal(b.data, "");
	md_escape(&b, "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
	assert_string_equal(b.data, "\\!\\\"\\#\\$\\%\\&\\'\\(\\)\\*\\+\\,\\-"
			    "\\.\\/\\:\\;\\<\\=\\>\\?\\@\\[\\\\\\]\\^\\_\\`"
			    "\\{\\|\\}\\~");
	buf_reset(&b);
	md_escape(&b, "a\nb\r\nc\td\x01\x1f\x7f" "e ü");
	assert_string_equal(b.data, "a b  c de ü");
	assert_sane_buf(&b);
	buf_release(&b);
}

static void
test_comments(void **state)
{
	(void)state;
	expand_ok("a {{! a note }}b\n", "a b\n");
	expand_ok("a\n{{! a note for editors }}\nb\n", "a\nb\n");
	expand_ok("{{!x}}", "");
	expand_ok("a\n  {{! indented }}  \nb\n", "a\nb\n");
	expand_ok("{{! \"}}\" }}x", "x");
}

static void
test_standalone(void **state)
{
	(void)state;
	expand_ok("a\n{{#if 1}}\nb\n{{/if}}\nc\n", "a\nb\nc\n");
	expand_ok("a\n  {{#if 1}}  \n\tb\n\t{{/if}}\t\nc\n", "a\n\tb\nc\n");
	expand_ok("a\r\n{{#if 1}}\r\nb\r\n{{/if}}\r\nc\r\n",
		  "a\r\nb\r\nc\r\n");
	expand_ok("{{#if 1}}\nb\n{{/if}}", "b\n");
	/* Not alone on the line: the line stays. */
	expand_ok("a {{#if 1}}b{{/if}} c\n", "a b c\n");
	expand_ok("{{#if 1}} b\n{{/if}}\n", " b\n");
	expand_ok("a\n{{#if 1}}\nb {{/if}}\n", "a\nb \n");
	/* Value tags and references are never standalone. */
	expand_ok("a\n{{ 1 | fixed:0 }}\nb\n", "a\n1\nb\n");
	expand_ok("a\n{{#if 0}}\nb\n{{/if}}\nc\n", "a\nc\n");
	/* Blank lines around a block are kept. */
	expand_ok("a\n\n{{#if 1}}\n\nb\n\n{{/if}}\n\nc\n",
		  "a\n\n\nb\n\n\nc\n");
}

static void
test_standalone_table(void **state)
{
	(void)state;
	expand_ok("| name | year | id |\n"
		  "|---|---|---|\n"
		  "{{#each d in device }}\n"
		  "| {{ d.name }} | {{ d.year | year | nolink }} | {{ d }} |\n"
		  "{{/each}}\n"
		  "\n"
		  "After.\n",
		  "| name | year | id |\n"
		  "|---|---|---|\n"
		  "| A \\<b\\>\\*bold\\*\\<\\/b\\> \\| pipe | 2008 | a |\n"
		  "| B | 2024 | b |\n"
		  "\n"
		  "After.\n");
	expand_ok("| a |\n|---|\n{{#if 1}}\n| x |\n{{#else}}\n| y |\n{{/if}}\n"
		  "{{! end }}\n| z |\n",
		  "| a |\n|---|\n| x |\n| z |\n");
}

/* "{{#if A}}a{{#elif B}}b{{#else}}c{{/if}}" with A and B. */
static void
if_chain(const char *a, const char *b, const char *want)
{
	struct buf s = BUF_INIT;

	buf_addf(&s, "<\n{{#if %s}}\na\n{{#elif %s}}\nb\n{{#else}}\nc\n"
		 "{{/if}}\n>\n", a, b);
	expand_ok(s.data, want);
	buf_release(&s);
}

static void
test_if(void **state)
{
	(void)state;
	expand_ok("{{#if 1}}yes{{/if}}", "yes");
	expand_ok("{{#if 0}}yes{{/if}}", "");
	expand_ok("{{#if 0}}yes{{#else}}no{{/if}}", "no");
	expand_ok("{{#if \"\"}}yes{{#else}}no{{/if}}", "no");
	expand_ok("{{#if record.name}}yes{{#else}}no{{/if}}", "yes");
	expand_ok("{{#if record.name == \"Roadrunner\"}}yes{{/if}}", "yes");
	expand_ok("{{#if laptop.energy > 1e17}}big{{#else}}small{{/if}}",
		  "small");
	if_chain("1", "1", "<\na\n>\n");
	if_chain("1", "0", "<\na\n>\n");
	if_chain("0", "1", "<\nb\n>\n");
	if_chain("0", "0", "<\nc\n>\n");
	if_chain("device.a.year < 2000", "device.b.year > 2020",
		 "<\nb\n>\n");
	expand_ok("{{#if 0}}a{{#elif 0}}b{{#elif 1}}c{{#elif 1}}d{{/if}}",
		  "c");
	expand_ok("{{#if 0}}a{{#elif 0}}b{{/if}}", "");
	expand_ok("{{#if 1}}{{#if 0}}a{{#else}}b{{/if}}{{#if 1}}c{{/if}}"
		  "{{#else}}d{{/if}}", "bc");
	/* A branch not taken is not evaluated. */
	expand_ok("{{#if 0}}{{ 1 / 0 }}{{#else}}ok{{/if}}", "ok");
	expand_ok("{{#if 0 && laptop.nope}}a{{#else}}b{{/if}}", "b");
	expand_ok("{{#if 1}}{{ laptop.ops_max }}{{/if}}", OPS);
}

static void
test_each_in(void **state)
{
	(void)state;
	expand_ok("{{#each d in device}}{{ d.id }}={{ d.name }};{{/each}}",
		  "a=A \\<b\\>\\*bold\\*\\<\\/b\\> \\| pipe;b=B;");
	/* A bare loop name links to the quantity it stands for. */
	expand_ok("{{#each d in device}}{{ d.year | year }} {{/each}}",
		  "2008 "
		  "2024 ");
	expand_ok("{{#each d in device}}{{ name(d.year) }},{{/each}}",
		  "device\\.a\\.year,device\\.b\\.year,");
	expand_ok("{{#each d in device}}"
		  "{{#if d.year > 2010}}{{ d.id }} is new{{/if}}"
		  "{{/each}}", "b is new");
	expand_ok("{{#each d in device}}{{#each e in device}}{{ d }}{{ e }} "
		  "{{/each}}{{/each}}", "aa ab ba bb ");
	/* Names outside the loop variable are looked up as written. */
	expand_ok("{{#each d in device}}{{ record.name }}{{/each}}",
		  "RoadrunnerRoadrunner");
}

/* has() in blocks, with loop variables. */
static void
test_has(void **state)
{
	(void)state;
	expand_ok("{{#if has(device.b)}}b{{/if}}{{#if has(device.c)}}c{{/if}}",
		  "b");
	expand_ok("{{#if has(laptop)}}yes{{#else}}no{{/if}}", "yes");
	expand_ok("{{#if has(laptop.nope)}}yes{{#else}}no{{/if}}", "no");
	expand_ok("{{ has(record) | int }}{{ has(record.nam) | int }}", "10");
	/* A table row only where the quantity exists. */
	expand_ok("| a |\n|---|\n"
		  "{{#each d in device}}\n"
		  "{{#if has(d.power_w)}}\n"
		  "| {{ d.power_w }} |\n"
		  "{{#elif d.year > 2010}}\n"
		  "| {{ d.id }} has no power |\n"
		  "{{/if}}\n"
		  "{{/each}}\n",
		  "| a |\n|---|\n| b has no power |\n");
	expand_ok("{{#each d in device}}{{ has(d) | int }}{{ has(d.name) | int }}"
		  "{{ has(d.nam) | int }};{{/each}}", "110;110;");
}

/* | or:"text": the text when the slot names a missing quantity. */
static void
test_fallback(void **state)
{
	(void)state;
	expand_ok("{{ device.c.year | year | or:\"—\" }}", "—");
	expand_ok("{{ laptop.nope * 2 | sci:2 | or:\"none\" }}", "none");
	expand_ok("{{ laptop.nope | or:\"none\" | sci:2 }}", "none");
	expand_ok("{{ unit(laptop.nope) | or:\"none\" }}", "none");
	expand_ok("{{ laptop.nope | or:\"\" }}", "");
	/* Present: the value as without the fallback, link and unit. */
	expand_ok("{{ laptop.ops_max | or:\"—\" }}", OPS);
	expand_ok("{{ laptop.energy | sci:2 | unit | or:\"n/a\" }}",
		  "[9.0" NB "×" NB "10¹⁶"
		  "](quantities.html#laptop\\.energy)" NB "J");
	expand_ok("{{ record.name | or:\"—\" }}", "Roadrunner");
	/* The text is Markdown-escaped like text from data. */
	expand_ok("{{ laptop.nope | or:\"*n/a* | [x]\" }}",
		  "\\*n\\/a\\* \\| \\[x\\]");
	/* In a loop, each pass on its own. */
	expand_ok("{{#each d in device}}"
		  "{{ d.year | year | nolink | or:\"?\" }}/"
		  "{{ d.power_w | sci:3 | or:\"—\" }};{{/each}}",
		  "2008/—;2024/—;");
	/* Alt text is plain: the text as typed. */
	expand_ok("{{#figure f}}c{{#alt}}{{ laptop.nope | or:\"*n/a*\" }}"
		  "{{/figure}}",
		  "\n\n<S0>\n\n**Figure 1.** c\n\n<S1>\n\n");
}

/*
 * Terminal controls in a template are shown escaped in messages, the
 * source line too, and the caret stays under what it points at.
 */
static void
test_error_escapes_controls(void **state)
{
	(void)state;
	parse_err("\x1b]0;t\x07 \xc2\x9b\x7f {{ laptop.ops_max | sc:2 }}",
		  ERR("1:32", "unknown format 'sc' (formats: sci, e, fixed, "
		      "sig, int, year, pow10, bytes, ibytes, text, unit, "
		      "nolink, or, in); did you mean 'sci'?",
		      "\\x1b]0;t\\x07 \\u009b\\x7f "
		      "{{ laptop.ops_max | sc:2 }}",
		      "                                            ^^"), 1);
	/* Not UTF-8: the byte escaped, the caret as wide; a tab stays. */
	parse_err("\t\xff {{ laptop.nope }}",
		  ERR("1:2", "invalid UTF-8 byte 0xff",
		      "\t\\xff {{ laptop.nope }}", "\t^^^^"), 1);
}

/* The fallback hides a missing quantity, no other error. */
static void
test_fallback_errors(void **state)
{
	(void)state;
	expand_err("{{ record.name | sci:2 | or:\"x\" }}",
		   ERR("1:18", "format 'sci' needs a number, got the text "
		       "'Roadrunner'", "{{ record.name | sci:2 | or:\"x\" }}",
		       "                 ^^^^^"), 1);
	expand_err("{{ laptop.volume / 0 | or:\"x\" }}",
		   ERR("1:4", "'/' gives no finite number here (division by "
		       "zero)", "{{ laptop.volume / 0 | or:\"x\" }}",
		       "   ^^^^^^^^^^^^^^^^^^"), 1);
	expand_err("{{ log10(laptop.volume / laptop.volume - 1) | or:\"x\" }}",
		   ERR("1:4", "'log10' gives no finite number here",
		       "{{ log10(laptop.volume / laptop.volume - 1) | or:\"x\" }}",
		       "   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"), 1);
	/* A unit error is no missing quantity: or:"..." does not hide it. */
	expand_err("{{ laptop.volume + laptop.energy | or:\"x\" }}",
		   ERR("1:4", "cannot add m^3 and J",
		       "{{ laptop.volume + laptop.energy | or:\"x\" }}",
		       "   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"), 1);
	/* Found by the fuzzer: 'in' without its unit once reached the
	 * conversion with no unit text. */
	parse_err("{{ laptop.volume | in }}",
		  ERR("1:20", "format 'in' needs a quoted text: 'in:\"J\"'",
		      "{{ laptop.volume | in }}",
		      "                   ^^"), 1);
	expand_err("{{ laptop.volume | in:\"kg\" }}",
		   ERR("1:20", "cannot convert m^3 to kg",
		       "{{ laptop.volume | in:\"kg\" }}",
		       "                   ^^^^^^^"), 1);
	expand_err("{{ laptop.energy | bytes }}",
		   ERR("1:20", "format 'bytes' needs a number of bytes, got J",
		       "{{ laptop.energy | bytes }}",
		       "                   ^^^^^"), 1);
	expand_err("{{ record.name + 1 | or:\"x\" }}",
		   ERR("1:4", "'+' needs a number, got the text 'Roadrunner'",
		       "{{ record.name + 1 | or:\"x\" }}", "   ^^^^^^^^^^^"),
		   1);
	/* Without it, a missing quantity is the error it always was. */
	expand_err("{{ laptop.nope | or:\"x\" }} {{ laptop.nope }}",
		   ERR("1:31", "unknown quantity 'laptop.nope'; did you mean "
		       "'laptop.mass', 'laptop.volume' or 'laptop.energy'?",
		       "{{ laptop.nope | or:\"x\" }} {{ laptop.nope }}",
		       "                              ^^^^^^^^^^^"), 1);
	parse_err("{{ 1 | or }}{{ 1 | or:x }}{{ 1 | or:\"a\" | or:\"b\" }}",
		  ERR("1:8", "format 'or' needs a quoted text: 'or:\"—\"'",
		      "{{ 1 | or }}{{ 1 | or:x }}{{ 1 | or:\"a\" | or:\"b\" }}",
		      "       ^^")
		  ERR("1:23", "format 'or' takes a quoted text: or:\"—\"",
		      "{{ 1 | or }}{{ 1 | or:x }}{{ 1 | or:\"a\" | or:\"b\" }}",
		      "                      ^")
		  ERR("1:43", "a second fallback: a slot has one 'or'",
		      "{{ 1 | or }}{{ 1 | or:x }}{{ 1 | or:\"a\" | or:\"b\" }}",
		      "                                          ^^^^^^"), 3);
}

/* {{#assert EXPR "message"}}: nothing when true. */
static void
test_assert(void **state)
{
	(void)state;
	expand_ok("a\n{{#assert 1 \"never fails\"}}\nb\n", "a\nb\n");
	expand_ok("a\n  {{#assert laptop.volume < 1 \"small\" }}  \nb\n",
		  "a\nb\n");
	expand_ok("a {{#assert 1 \"inline\"}}b", "a b");
	expand_ok("{{#assert record.name == \"Roadrunner\" \"the record\"}}x",
		  "x");
	expand_ok("{{#assert 1 \"a \\\"quoted\\\" }} message\"}}x", "x");
	expand_ok("{{#assert has(device.c) || laptop.volume > 0 \"h\"}}x", "x");
	expand_ok("{{#each d in device}}{{#assert d.year >= 2008 \"new\"}}"
		  "{{ d }}{{/each}}", "ab");
	/* A branch not taken is not checked. */
	expand_ok("{{#if 0}}{{#assert 0 \"x\"}}{{/if}}ok", "ok");
	expand_ok("{{#if has(device.c)}}\n{{#assert device.c.year > 0 \"x\"}}"
		  "\n{{/if}}\nok\n", "ok\n");
}

/* A false assertion: its message and the values it names. */
static void
test_assert_errors(void **state)
{
	(void)state;
	expand_err("{{#assert laptop.energy > 1e17 \"over 1e17 J\"}}",
		   ERR("1:11", "assertion failed: over 1e17 J (laptop.energy = "
		       "8.98755e+16)",
		       "{{#assert laptop.energy > 1e17 \"over 1e17 J\"}}",
		       "          ^^^^^^^^^^^^^^^^^^^^"), 1);
	expand_err("{{#assert 1 > 2 \"arithmetic\" }}",
		   ERR("1:11", "assertion failed: arithmetic",
		       "{{#assert 1 > 2 \"arithmetic\" }}", "          ^^^^^"),
		   1);
	expand_err("{{#assert record.name != \"Roadrunner\" && has(x.y) "
		   "\"say \\\"no\\\"\"}}",
		   ERR("1:11", "assertion failed: say \"no\" (record.name = "
		       "'Roadrunner', has(x.y) = 0)",
		       "{{#assert record.name != \"Roadrunner\" && has(x.y) "
		       "\"say \\\"no\\\"\"}}",
		       "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"), 1);
	/* Checked at each pass of a loop; every failure is reported. */
	expand_err("{{#each d in device}}\n"
		   "  {{#assert d.year < 2020 \"old\"}}\n"
		   "{{/each}}\n{{#assert 0 \"second\"}}\n",
		   ERR("2:13", "assertion failed: old (device.b.year = 2024)",
		       "  {{#assert d.year < 2020 \"old\"}}",
		       "            ^^^^^^^^^^^^^")
		   ERR("4:11", "assertion failed: second",
		       "{{#assert 0 \"second\"}}", "          ^"), 2);
	/* Its names are quantities as anywhere else. */
	expand_err("{{#assert laptop.enrgy > 0 \"e\"}}",
		   ERR("1:11", "unknown quantity 'laptop.enrgy'; did you mean "
		       "'laptop.energy'?", "{{#assert laptop.enrgy > 0 \"e\"}}",
		       "          ^^^^^^^^^^^^"), 1);
	expand_err("{{#assert record.name > 0 \"e\"}}",
		   ERR("1:11", "'>' needs a number, got the text 'Roadrunner'",
		       "{{#assert record.name > 0 \"e\"}}",
		       "          ^^^^^^^^^^^"), 1);
	parse_err("{{#assert}}\n{{#assert 1}}\n{{#assert \"m\"}}\n"
		  "{{#assert 1 \"\"}}\n{{#assert 1 \"m\" x}}\n"
		  "{{#assert 1 + \"m\"}}\n",
		  ERR("1:3", "'{{#assert}}' needs a condition and then a quoted "
		      "message: '{{#assert EXPR \"message\"}}'", "{{#assert}}",
		      "  ^^^^^^^")
		  ERR("2:3", "'{{#assert}}' needs a condition and then a quoted "
		      "message: '{{#assert EXPR \"message\"}}'",
		      "{{#assert 1}}", "  ^^^^^^^^^")
		  ERR("3:3", "'{{#assert}}' needs a condition before its message",
		      "{{#assert \"m\"}}", "  ^^^^^^^^^^^")
		  ERR("4:13", "'{{#assert}}' needs a message that says what "
		      "should hold", "{{#assert 1 \"\"}}", "            ^^")
		  ERR("5:3", "'{{#assert}}' needs a condition and then a quoted "
		      "message: '{{#assert EXPR \"message\"}}'",
		      "{{#assert 1 \"m\" x}}", "  ^^^^^^^^^^^^^^^")
		  ERR("6:13", "expected a value at the end of the expression",
		      "{{#assert 1 + \"m\"}}", "            ^"), 6);
}

static void
test_each_of(void **state)
{
	(void)state;
	expand_ok("{{#each q of laptop.energy laptop.volume}}\n"
		  "- {{ name(q) }}: {{ q | sci:2 | unit }}\n"
		  "{{/each}}\n",
		  "- laptop\\.energy: "
		  "[9.0" NB "×" NB "10¹⁶"
		  "](quantities.html#laptop\\.energy)" NB "J\n"
		  "- laptop\\.volume: "
		  "1.0" NB "×" NB "10⁻³" NB "m³\n");
	expand_ok("{{#each q of record.name laptop.energy}}"
		  "{{ unit(q) }}/{{ formula(q) }}/{{ source(q) }};"
		  "{{/each}}", "//TOP500;J/m c\\^2/Einstein 1905;");
	expand_ok("{{#each q of laptop.ops_max}}{{ q * 2 | sci:2 }}{{/each}}",
		  "1.1" NB "×" NB "10⁵¹");
	expand_ok("{{#each d in device}}{{#each q of laptop.energy}}"
		  "{{ d }}:{{ name(q) }} {{/each}}{{/each}}",
		  "a:laptop\\.energy b:laptop\\.energy ");
}

static void
test_figure(void **state)
{
	struct template *t;
	struct expansion x;
	char *md;

	(void)state;
	t = expand_into("Before.\n\n"
		    "{{#figure top500 }}\n"
		    "Doubling every {{ laptop.energy | sci:2 }} *years*.\n"
		    "{{#alt}}\n"
		    "Alt \"q\" <x> & {{ record.name }} {{ device.a.name }} "
		    "{{ laptop.energy | sci:2 | unit }}\n"
		    "{{/figure}}\n"
		    "\n"
		    "After.\n", &x);
	md = normalize(&x);
	assert_string_equal(md,
			    "Before.\n\n"
			    "\n\n<S0>\n\n"
			    "**Figure 1.** Doubling every "
			    "[9.0" NB "×" NB "10¹⁶"
			    "](quantities.html#laptop\\.energy) "
			    "*years*.\n"
			    "\n\n<S1>\n\n"
			    "\n"
			    "After.\n");
	free(md);
	assert_int_equal(x.nsnippets, 2);
	assert_string_equal(x.snippets[0].html,
			    "<figure id=\"fig-top500\">\n<picture>\n"
			    "<source media=\"(max-width: 30rem)\" "
			    "srcset=\"figures/top500-narrow.svg\">\n"
			    "<img src=\"figures/top500.svg\" alt=\"Alt &quot;q"
			    "&quot; &lt;x&gt; &amp; Roadrunner A &lt;b&gt;"
			    "*bold*&lt;/b&gt; | pipe 9.0" NB "×" NB "10¹⁶" NB
			    "J\">\n"
			    "</picture>\n<figcaption>");
	/* No figure folder: the full-size SVG alone. */
	assert_string_equal(x.snippets[1].html,
			    "<p class=\"figure-links\">Full size: <a href=\""
			    "figures/top500.svg\">SVG</a></p>\n"
			    "</figcaption>\n</figure>");
	assert_int_equal(strlen(x.snippets[0].token), 18);
	assert_string_not_equal(x.snippets[0].token, x.snippets[1].token);
	assert_int_equal(x.nfigures, 1);
	assert_string_equal(x.figures[0].label, "top500");
	assert_int_equal(x.figures[0].number, 1);
	assert_string_equal(x.figures[0].file, "t.md");
	assert_int_equal(x.figures[0].line, 3);
	assert_int_equal(x.figures[0].col, 3);
	expansion_release(&x);
	template_free(t);

	/* All on one line. */
	t = expand_into("{{#figure x}}cap{{#alt}}alt{{/figure}}", &x);
	md = normalize(&x);
	assert_string_equal(md, "\n\n<S0>\n\n**Figure 1.** cap\n\n<S1>\n\n");
	free(md);
	assert_string_equal(x.snippets[0].html,
			    "<figure id=\"fig-x\">\n<picture>\n"
			    "<source media=\"(max-width: 30rem)\" "
			    "srcset=\"figures/x-narrow.svg\">\n"
			    "<img src=\"figures/x.svg\" alt=\"alt\">\n"
			    "</picture>\n<figcaption>");
	assert_int_equal(x.nfigures, 1);
	assert_string_equal(x.figures[0].label, "x");
	assert_int_equal(x.figures[0].line, 1);
	expansion_release(&x);
	template_free(t);
}

static void
test_table_caption(void **state)
{
	struct template *t;
	struct expansion x;
	char *md;

	(void)state;
	t = expand_into("{{#table t}}cap{{/table}}\n", &x);
	md = normalize(&x);
	assert_string_equal(md, "\n\n<S0>\n\n**Table 1.** cap\n\n<S1>\n\n\n");
	free(md);
	assert_int_equal(x.nsnippets, 2);
	assert_string_equal(x.snippets[0].html,
			    "<div class=\"caption\" id=\"tab-t\">");
	assert_string_equal(x.snippets[1].html, "</div>");
	assert_int_equal(x.nfigures, 0);
	expansion_release(&x);
	template_free(t);

	expand_ok("{{#table devices}}\n"
		  "Devices, {{ record.name }}.\n"
		  "{{/table}}\n"
		  "| a |\n"
		  "|---|\n",
		  "\n\n<S0>\n\n**Table 1.** Devices, Roadrunner.\n"
		  "\n\n<S1>\n\n| a |\n|---|\n");
}

static void
test_references(void **state)
{
	struct template *t;
	struct expansion x;
	char *md;

	(void)state;
	/* A reference before its figure still gets the right number. */
	expand_ok("See {{@x}}.\n{{#figure x}}cap{{#alt}}alt{{/figure}}\n",
		  "See [Figure 1](#fig-x).\n"
		  "\n\n<S0>\n\n**Figure 1.** cap\n\n<S1>\n\n\n");

	/* Numbers follow the page, tables separately from figures. */
	t = expand_into("{{@second}} {{@first}} {{@tab}} {{@tab2}}\n"
		    "{{#figure first}}A{{#alt}}a{{/figure}}\n"
		    "{{#table tab}}T{{/table}}\n"
		    "{{#figure second}}B {{@first}}{{#alt}}b{{/figure}}\n"
		    "{{#table tab2}}U{{/table}}\n"
		    "{{@second}}\n", &x);
	md = normalize(&x);
	assert_string_equal(md,
			    "[Figure 2](#fig-second) [Figure 1](#fig-first) "
			    "[Table 1](#tab-tab) [Table 2](#tab-tab2)\n"
			    "\n\n<S0>\n\n**Figure 1.** A\n\n<S1>\n\n\n"
			    "\n\n<S2>\n\n**Table 1.** T\n\n<S3>\n\n\n"
			    "\n\n<S4>\n\n**Figure 2.** B [Figure 1](#fig-first)"
			    "\n\n<S5>\n\n\n"
			    "\n\n<S6>\n\n**Table 2.** U\n\n<S7>\n\n\n"
			    "[Figure 2](#fig-second)\n");
	free(md);
	assert_int_equal(x.nfigures, 2);
	assert_string_equal(x.figures[0].label, "first");
	assert_int_equal(x.figures[0].number, 1);
	assert_int_equal(x.figures[0].line, 2);
	assert_string_equal(x.figures[1].label, "second");
	assert_int_equal(x.figures[1].number, 2);
	assert_int_equal(x.figures[1].line, 4);
	expansion_release(&x);
	template_free(t);
}

static void
test_label_errors(void **state)
{
	(void)state;
	expand_err("{{#figure a}}x{{#alt}}y{{/figure}}\n"
		   "{{#figure a}}z{{#alt}}w{{/figure}}\n",
		   ERR("2:3", "label 'a' is used twice (first at t.md:1)",
		       "{{#figure a}}z{{#alt}}w{{/figure}}", "  ^^^^^^^^^"), 1);
	expand_err("{{#table t}}x{{/table}}\n"
		   "{{#figure t}}z{{#alt}}w{{/figure}}\n",
		   ERR("2:3", "label 't' is used twice (first at t.md:1)",
		       "{{#figure t}}z{{#alt}}w{{/figure}}", "  ^^^^^^^^^"), 1);
	expand_err("{{#figure top500}}x{{#alt}}y{{/figure}}\n"
		   "{{@top50}} {{@zzz}}\n",
		   ERR("2:3", "no figure or table labelled 'top50'; did you "
		       "mean 'top500'?", "{{@top50}} {{@zzz}}", "  ^^^^^^")
		   ERR("2:14", "no figure or table labelled 'zzz'",
		       "{{@top50}} {{@zzz}}", "             ^^^^"), 2);
	expand_err("{{@a}}", ERR("1:3", "no figure or table labelled 'a'",
				 "{{@a}}", "  ^^"), 1);
	expand_err("{{#figure a}}cap{{#alt}}alt {{@a}} "
		   "{{#table t}}x{{/table}}{{/figure}}",
		   ERR("1:31", "a reference cannot be placed inside alt text",
		       "{{#figure a}}cap{{#alt}}alt {{@a}} {{#table t}}x"
		       "{{/table}}{{/figure}}",
		       "                              ^^")
		   ERR("1:38", "a table caption cannot be placed inside alt "
		       "text",
		       "{{#figure a}}cap{{#alt}}alt {{@a}} {{#table t}}x"
		       "{{/table}}{{/figure}}",
		       "                                     ^^^^^^^^"), 2);
	parse_err("{{#figure a}}x{{/figure}}",
		  ERR("1:3", "'{{#figure a}}' needs alt text: add '{{#alt}}' "
		      "and a sentence that states what the figure shows",
		      "{{#figure a}}x{{/figure}}", "  ^^^^^^^^^"), 1);
	parse_err("{{#figure A}}x{{#alt}}y{{/figure}}\n{{#table}}x{{/table}}\n"
		  "{{@Bad}}",
		  ERR("1:3", "'{{#figure}}' needs a label of a-z, 0-9, '_' and "
		      "'-'", "{{#figure A}}x{{#alt}}y{{/figure}}", "  ^^^^^^^^^")
		  ERR("2:3", "'{{#table}}' needs a label of a-z, 0-9, '_' and "
		      "'-'", "{{#table}}x{{/table}}", "  ^^^^^^")
		  ERR("3:3", "'{{@...}}' needs a figure or table label",
		      "{{@Bad}}", "  ^^^^"), 3);
}

static void
test_syntax_errors(void **state)
{
	(void)state;
	parse_err("a {{ laptop.energy\nmore\n",
		  ERR("1:3", "unclosed '{{': no '}}' before the end of the file",
		      "a {{ laptop.energy", "  ^^"), 1);
	parse_err("a {{ x {{ y }}\n",
		  ERR("1:3", "unclosed '{{': no '}}' before the next '{{'",
		      "a {{ x {{ y }}", "  ^^"), 1);
	parse_err("x\n{{#foo x}}\n{{#bar}}\n",
		  ERR("2:3", "unknown block '{{#foo x}}' (blocks: #if, #each, "
		      "#figure, #table, #assert)", "{{#foo x}}", "  ^^^^^^")
		  ERR("3:3", "unknown block '{{#bar}}' (blocks: #if, #each, "
		      "#figure, #table, #assert)", "{{#bar}}", "  ^^^^"), 2);
	parse_err("{{#if 1}}\nx\n{{/each}}\ny\n",
		  ERR("3:3", "'{{/each}}' does not close '{{#if 1}}' (line 1): "
		      "expected '{{/if}}'", "{{/each}}", "  ^^^^^")
		  ERR("1:1", "unclosed '{{#if 1}}': expected '{{/if}}' before "
		      "the end of the file", "{{#if 1}}", "^^^^^^^^^"), 2);
	parse_err("a\n{{#if 1}}\nx\n",
		  ERR("2:1", "unclosed '{{#if 1}}': expected '{{/if}}' before "
		      "the end of the file", "{{#if 1}}", "^^^^^^^^^"), 1);
	parse_err("{{#each d in device}}\n{{#if 1}}x{{/each}}\n",
		  ERR("2:13", "'{{/each}}' does not close '{{#if 1}}' (line 2): "
		      "expected '{{/if}}'", "{{#if 1}}x{{/each}}",
		      "            ^^^^^")
		  ERR("2:1", "unclosed '{{#if 1}}': expected '{{/if}}' before "
		      "the end of the file", "{{#if 1}}x{{/each}}", "^^^^^^^^^")
		  ERR("1:1", "unclosed '{{#each d in device}}': expected "
		      "'{{/each}}' before the end of the file",
		      "{{#each d in device}}", "^^^^^^^^^^^^^^^^^^^^^"), 3);
	parse_err("{{#if 1}}\nx\n{{#else 1}}\ny\n{{/if}}\n",
		  ERR("3:3", "'{{#else}}' takes no condition: use "
		      "'{{#elif ...}}'", "{{#else 1}}", "  ^^^^^^^"), 1);
	parse_err("{{/if}}\n{{#else}}\n{{#elif 1}}\n{{#alt}}\n",
		  ERR("1:3", "'{{/if}}' closes no open block", "{{/if}}",
		      "  ^^^")
		  ERR("2:3", "'{{#else}}' outside its block", "{{#else}}",
		      "  ^^^^^")
		  ERR("3:3", "'{{#elif 1}}' outside its block", "{{#elif 1}}",
		      "  ^^^^^^^")
		  ERR("4:3", "'{{#alt}}' outside its block", "{{#alt}}",
		      "  ^^^^"), 4);
	parse_err("{{#if}}x{{/if}}{{#elif}}",
		  ERR("1:3", "'{{#if}}' needs a condition",
		      "{{#if}}x{{/if}}{{#elif}}", "  ^^^")
		  ERR("1:18", "'{{#elif}}' outside its block",
		      "{{#if}}x{{/if}}{{#elif}}", "                 ^^^^^"), 2);
	parse_err("{{#each d}}x{{/each}}",
		  ERR("1:3", "expected '{{#each VAR in PREFIX}}' or '{{#each "
		      "VAR of NAME ...}}'", "{{#each d}}x{{/each}}",
		      "  ^^^^^^^"), 1);
	parse_err("{{#each d in a b}}x{{/each}}",
		  ERR("1:16", "unexpected 'b' in '{{#each}}'",
		      "{{#each d in a b}}x{{/each}}", "               ^"), 1);
	parse_err("{{ }} {{ laptop.energy | }}",
		  ERR("1:1", "empty '{{ }}': expected a quantity or an "
		      "expression", "{{ }} {{ laptop.energy | }}", "^^^^^")
		  ERR("1:24", "expected a format after '|'",
		      "{{ }} {{ laptop.energy | }}", "                       ^"),
		  2);
	/* An expression error and a format error in one slot: both. */
	parse_err("{{ 1 + | foo }}",
		  ERR("1:7", "expected a value at the end of the expression",
		      "{{ 1 + | foo }}", "      ^")
		  ERR("1:10", "unknown format 'foo' (formats: sci, e, fixed, "
		      "sig, int, year, pow10, bytes, ibytes, text, unit, "
		      "nolink, or, in)", "{{ 1 + | foo }}", "         ^^^"), 2);
	parse_err("{{#if 1 +}}x{{/if}}",
		  ERR("1:9", "expected a value at the end of the expression",
		      "{{#if 1 +}}x{{/if}}", "        ^"), 1);
}

static void
test_format_errors(void **state)
{
	(void)state;
	parse_err("{{ laptop.energy | foo }}\n"
		  "{{ laptop.energy | sci:0 }} {{ laptop.energy | sci:x }}\n",
		  ERR("1:20", "unknown format 'foo' (formats: sci, e, fixed, sig, "
		      "int, year, pow10, bytes, ibytes, text, unit, nolink, "
		      "or, in)",
		      "{{ laptop.energy | foo }}", "                   ^^^")
		  ERR("2:24", "format 'sci' takes a whole number from 1 to 17",
		      "{{ laptop.energy | sci:0 }} {{ laptop.energy | sci:x }}",
		      "                       ^")
		  ERR("2:52", "format 'sci' takes a whole number from 1 to 17",
		      "{{ laptop.energy | sci:0 }} {{ laptop.energy | sci:x }}",
		      "                                                   ^"),
		  3);
	parse_err("{{ 1 | sci:18 }}{{ 1 | fixed:-1 }}{{ 1 | bytes: }}",
		  ERR("1:12", "format 'sci' takes a whole number from 1 to 17",
		      "{{ 1 | sci:18 }}{{ 1 | fixed:-1 }}{{ 1 | bytes: }}",
		      "           ^^")
		  ERR("1:30", "format 'fixed' takes a whole number from 0 to 17",
		      "{{ 1 | sci:18 }}{{ 1 | fixed:-1 }}{{ 1 | bytes: }}",
		      "                             ^^")
		  ERR("1:48", "format 'bytes' takes a whole number from 1 to 17",
		      "{{ 1 | sci:18 }}{{ 1 | fixed:-1 }}{{ 1 | bytes: }}",
		      "                                               ^"), 3);
	parse_err("{{ laptop.energy | sci:2 | fixed:1 }}",
		  ERR("1:28", "a second number format: use one of sci, e, fixed, "
		      "sig, int, year, pow10, bytes, ibytes, text",
		      "{{ laptop.energy | sci:2 | fixed:1 }}",
		      "                           ^^^^^^^"), 1);
	/* One edit away: a hint; farther, the list alone. */
	parse_err("{{ laptop.energy | fixd:2 }} {{ 1 | yaer }}",
		  ERR("1:20", "unknown format 'fixd' (formats: sci, e, fixed, "
		      "sig, int, year, pow10, bytes, ibytes, text, unit, "
		      "nolink, or, in); did you mean 'fixed'?",
		      "{{ laptop.energy | fixd:2 }} {{ 1 | yaer }}",
		      "                   ^^^^")
		  ERR("1:37", "unknown format 'yaer' (formats: sci, e, fixed, "
		      "sig, int, year, pow10, bytes, ibytes, text, unit, "
		      "nolink, or, in); did you mean 'year'?",
		      "{{ laptop.energy | fixd:2 }} {{ 1 | yaer }}",
		      "                                    ^^^^"), 2);
	parse_err("{{ laptop.energy | unit:J }} {{ laptop.energy | int:2 }}",
		  ERR("1:25", "format 'unit' takes a quoted text: unit:\"J\"",
		      "{{ laptop.energy | unit:J }} {{ laptop.energy | int:2 }}",
		      "                        ^")
		  ERR("1:49", "format 'int' takes no argument",
		      "{{ laptop.energy | unit:J }} {{ laptop.energy | int:2 }}",
		      "                                                ^^^^^"),
		  2);
}

static void
test_expand_errors(void **state)
{
	(void)state;
	/* An expression's unit comes from its dimension. */
	expand_ok("{{ laptop.energy * 2 | sci:2 | unit }}, "
		  "{{ laptop.energy / laptop.volume | sci:2 | unit }}, "
		  "{{ laptop.volume | in:\"L\" | sig:1 | unit | nolink }}",
		  "1.8" NB "×" NB "10¹⁷" NB "J, "
		  "9.0" NB "×" NB "10¹⁹" NB "kg\\/\\(m" NB "s²\\), "
		  "1" NB "L");
	expand_err("{{ laptop.energy * 2 | unit }} and {{ record.name | sci:2 }}",
		   ERR("1:53", "format 'sci' needs a number, got the text "
		       "'Roadrunner'",
		       "{{ laptop.energy * 2 | unit }} and {{ record.name | "
		       "sci:2 }}",
		       "                                                    "
		       "^^^^^"), 1);
	expand_err("{{ record.name | unit }}\n{{ laptop.energy | text }}\n",
		   ERR("1:18", "'unit' needs a number, got the text 'Roadrunner'",
		       "{{ record.name | unit }}", "                 ^^^^")
		   ERR("2:20", "format 'text' needs a text, got a number",
		       "{{ laptop.energy | text }}", "                   ^^^^"),
		   2);
	/* Two bad slots: two messages. */
	expand_err("{{ laptop.ops_mx | sci:4 }} and {{ 1 / 0 }}\n",
		   ERR("1:4", "unknown quantity 'laptop.ops_mx'; did you mean "
		       "'laptop.ops_max'?",
		       "{{ laptop.ops_mx | sci:4 }} and {{ 1 / 0 }}",
		       "   ^^^^^^^^^^^^^")
		   ERR("1:36", "'/' gives no finite number here (division by "
		       "zero)", "{{ laptop.ops_mx | sci:4 }} and {{ 1 / 0 }}",
		       "                                   ^^^^^"), 2);
	expand_err("{{#if laptop.nope}}a{{#else}}b{{/if}}",
		   ERR("1:7", "unknown quantity 'laptop.nope'; did you mean "
		       "'laptop.mass', 'laptop.volume' or 'laptop.energy'?",
		       "{{#if laptop.nope}}a{{#else}}b{{/if}}", "      ^^^^^^^^^^^"),
		   1);
	/* The loop variable: the message says which name it came from. */
	expand_err("{{#each d in device}}{{ d.nam }}{{/each}}",
		   ERR("1:25", "unknown quantity 'device.a.nam' (from 'd.nam'); "
		       "did you mean 'device.a.name' or 'device.b.name'?",
		       "{{#each d in device}}{{ d.nam }}{{/each}}",
		       "                        ^^^^^")
		   ERR("1:25", "unknown quantity 'device.b.nam' (from 'd.nam'); "
		       "did you mean 'device.b.name' or 'device.a.name'?",
		       "{{#each d in device}}{{ d.nam }}{{/each}}",
		       "                        ^^^^^"), 2);
	expand_err("{{#each q of laptop.energy}}{{ q.x }}{{/each}}",
		   ERR("1:32", "unknown quantity 'q.x'",
		       "{{#each q of laptop.energy}}{{ q.x }}{{/each}}",
		       "                               ^^^"), 1);
	expand_err("{{#each q of laptop.enrgy laptop.volume}}x{{/each}}",
		   ERR("1:14", "unknown quantity 'laptop.enrgy'; did you mean "
		       "'laptop.energy'?",
		       "{{#each q of laptop.enrgy laptop.volume}}x{{/each}}",
		       "             ^^^^^^^^^^^^"), 1);
	expand_err("{{#each d in nothing}}x{{/each}}",
		   ERR("1:3", "nothing to repeat: no 'nothing.<id>.id' in the "
		       "registry", "{{#each d in nothing}}x{{/each}}",
		       "  ^^^^^^^^^^^^^^^^^^"), 1);
}

/* Builds n copies of open, then mid, then n copies of close. */
static char *
nested(const char *open, size_t n, const char *mid, const char *close)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		buf_addstr(&b, open);
	buf_addstr(&b, mid);
	for (i = 0; i < n; i++)
		buf_addstr(&b, close);
	return buf_detach(&b, NULL);
}

static void
test_nesting_limit(void **state)
{
	static const char first[] =
		"t.md:64:1: error: blocks nested too deeply (more than 64)\n"
		"    {{#if 1}}\n"
		"    ^^\n";
	struct template *t;
	char *s, *got;

	(void)state;
	s = nested("{{#if 1}}\n", 63, "x\n", "{{/if}}\n");
	expand_ok(s, "x\n");
	free(s);

	/* Deeper is an error, not a crash. */
	s = nested("{{#if 1}}\n", 100, "x\n", "{{/if}}\n");
	diag_reset();
	capture_start();
	t = parse(s);
	got = capture_end();
	assert_null(t);
	assert_true(diag_errors() >= 1);
	if (strncmp(got, first, strlen(first))) {
		print_error("stderr was:\n%s\nwanted first:\n%s\n", got, first);
		fail();
	}
	/* One message, not one per enclosing block. */
	assert_int_equal(diag_errors(), 1);
	free(got);
	free(s);

	s = nested("{{#each d in device}}", 1000, "x", "{{/each}}");
	diag_reset();
	capture_start();
	t = parse(s);
	got = capture_end();
	assert_null(t);
	assert_non_null(strstr(got, "error: blocks nested too deeply (more "
			       "than 64)\n"));
	free(got);
	free(s);
}

/* ------------------------------------------------------------- includes */

static char tmpdir[64];

static void
write_file(const char *name, const char *text)
{
	struct buf path = BUF_INIT;
	FILE *fp;

	buf_addf(&path, "%s/%s", tmpdir, name);
	fp = fopen(path.data, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	buf_release(&path);
}

static void
remove_file(const char *name)
{
	struct buf path = BUF_INIT;

	buf_addf(&path, "%s/%s", tmpdir, name);
	assert_int_equal(unlink(path.data), 0);
	buf_release(&path);
}

static int
setup_dir(void **state)
{
	(void)state;
	diag_reset();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_template.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int
teardown_dir(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

/* Parses s named "t.md" with includes from tmpdir. */
static struct template *
parse_in(const char *s)
{
	return template_parse(tmpdir, "t.md", s, strlen(s));
}

static void
test_include(void **state)
{
	struct template *t;
	struct expansion x;

	(void)state;
	write_file("part.md", "Part {{ laptop.energy | sci:2 | nolink }}\n"
		   "{{! a comment }}\n");
	t = parse_in("x\n{{> part.md }}\ny\n");
	assert_non_null(t);
	expansion_init(&x);
	capture_start();
	assert_int_equal(template_expand(t, reg, &x), 0);
	assert_captured("");
	assert_string_equal(x.md.data, "x\nPart 9.0" NB "×" NB "10¹⁶\ny\n");
	expansion_release(&x);
	template_free(t);

	/* template_load reads the top file from the folder too. */
	write_file("top.md", "A {{> part.md }}B\n");
	capture_start();
	t = template_load(tmpdir, "top.md");
	assert_captured("");
	assert_non_null(t);
	expansion_init(&x);
	assert_int_equal(template_expand(t, reg, &x), 0);
	assert_string_equal(x.md.data, "A Part 9.0" NB "×" NB "10¹⁶\nB\n");
	expansion_release(&x);
	template_free(t);
	remove_file("top.md");
	remove_file("part.md");
}

/*
 * With the figure folder known, the line under a caption links to each
 * dataset the script's "# data:" lines name, once, in their order; the
 * "# needs:" names and other lines are not data.
 */
static void
test_figure_links(void **state)
{
	const char *s = "{{#figure f }}\nCap.\n{{#alt}}\nAlt.\n{{/figure}}\n"
			"{{#figure nofile }}\nCap.\n{{#alt}}\nAlt.\n"
			"{{/figure}}\n";
	struct template *t;
	struct expansion x;

	(void)state;
	write_file("f.gp", "# Figure.\n# needs: laptop.energy\n"
		   "# data: top500\tdevices\r\nplot 1\n"
		   "#  data: not_a_header\n# data: top500 ladder\n");
	t = parse_in(s);
	assert_non_null(t);
	expansion_init(&x);
	x.figdir = tmpdir;
	capture_start();
	assert_int_equal(template_expand(t, reg, &x), 0);
	assert_captured("");
	assert_int_equal(x.nsnippets, 4);
	assert_string_equal(x.snippets[1].html,
			    "<p class=\"figure-links\">Full size: <a href=\""
			    "figures/f.svg\">SVG</a> \xc2\xb7 Data: <a href=\""
			    "figures/top500.dat\">top500.dat</a>, <a href=\""
			    "figures/devices.dat\">devices.dat</a>, <a href=\""
			    "figures/ladder.dat\">ladder.dat</a></p>\n"
			    "</figcaption>\n</figure>");
	/* No script: the plot stage says so; the SVG link stays. */
	assert_string_equal(x.snippets[3].html,
			    "<p class=\"figure-links\">Full size: <a href=\""
			    "figures/nofile.svg\">SVG</a></p>\n"
			    "</figcaption>\n</figure>");
	expansion_release(&x);
	template_free(t);
	remove_file("f.gp");
}

static void
test_include_errors(void **state)
{
	const char *s = "{{> ../etc/passwd }}\n{{> /etc/passwd }}\n"
			"{{> nope.md }}\n{{> a b }}\n";
	struct template *t;

	(void)state;
	capture_start();
	t = template_parse(tmpdir, "t.md", s, strlen(s));
	assert_captured(
		ERR("1:5", "cannot include '../etc/passwd': give a path inside "
		    "the templates folder, without '..'",
		    "{{> ../etc/passwd }}", "    ^^^^^^^^^^^^^")
		ERR("2:5", "cannot include '/etc/passwd': give a path inside "
		    "the templates folder, without '..'",
		    "{{> /etc/passwd }}", "    ^^^^^^^^^^^")
		ERR("3:5", "cannot include 'nope.md': No such file or directory",
		    "{{> nope.md }}", "    ^^^^^^^")
		ERR("4:5", "cannot include 'a b': give a path inside the "
		    "templates folder, without '..'", "{{> a b }}", "    ^^^"));
	assert_null(t);
	assert_int_equal(diag_errors(), 4);
}

static void
test_include_errors_in_file(void **state)
{
	struct buf want = BUF_INIT;
	struct template *t;
	struct expansion x;

	(void)state;
	/* Errors in an included file carry its name. */
	write_file("bad.md", "ok\n{{ laptop.energy | sci:99 }}\n");
	capture_start();
	t = parse_in("{{> bad.md }}\n{{ | }}");
	buf_addf(&want, "%s/bad.md:2:24: error: format 'sci' takes a whole "
		 "number from 1 to 17\n"
		 "    {{ laptop.energy | sci:99 }}\n"
		 "                           ^^\n"
		 "t.md:2:3: error: expected a value at the end of the "
		 "expression\n"
		 "    {{ | }}\n"
		 "      ^\n"
		 "t.md:2:4: error: expected a format after '|'\n"
		 "    {{ | }}\n"
		 "       ^\n", tmpdir);
	assert_captured(want.data);
	assert_null(t);
	remove_file("bad.md");

	write_file("eval.md", "{{ nope.x }}\n");
	t = parse_in("x\n{{> eval.md }}\n");
	assert_non_null(t);
	expansion_init(&x);
	buf_reset(&want);
	buf_addf(&want, "%s/eval.md:1:4: error: unknown quantity 'nope.x'\n"
		 "    {{ nope.x }}\n"
		 "       ^^^^^^\n", tmpdir);
	capture_start();
	assert_int_equal(template_expand(t, reg, &x), -1);
	assert_captured(want.data);
	expansion_release(&x);
	template_free(t);
	remove_file("eval.md");
	buf_release(&want);
}

static void
test_include_cycle(void **state)
{
	struct buf want = BUF_INIT;
	struct template *t;

	(void)state;
	write_file("a.md", "A\n{{> b.md }}\n");
	write_file("b.md", "B\n{{> a.md }}\n");
	write_file("c.md", "C {{> c.md }}\n");

	capture_start();
	t = template_load(tmpdir, "a.md");
	buf_addf(&want, "%s/b.md:2:5: error: 'a.md' includes itself (through "
		 "%s/b.md)\n    {{> a.md }}\n        ^^^^\n", tmpdir, tmpdir);
	assert_captured(want.data);
	assert_null(t);

	capture_start();
	t = template_load(tmpdir, "c.md");
	buf_reset(&want);
	buf_addf(&want, "%s/c.md:1:7: error: 'c.md' includes itself (through "
		 "%s/c.md)\n    C {{> c.md }}\n          ^^^^\n", tmpdir, tmpdir);
	assert_captured(want.data);
	assert_null(t);

	/* The same from a template in memory. */
	capture_start();
	t = parse_in("{{> c.md }}");
	buf_reset(&want);
	buf_addf(&want, "%s/c.md:1:7: error: 'c.md' includes itself (through "
		 "%s/c.md)\n    C {{> c.md }}\n          ^^^^\n", tmpdir, tmpdir);
	assert_captured(want.data);
	assert_null(t);
	/* Included twice, but not inside itself: fine. */
	write_file("d.md", "D\n");
	t = parse_in("{{> d.md }}{{> d.md }}");
	assert_non_null(t);
	template_free(t);

	capture_start();
	t = template_load(tmpdir, "missing.md");
	buf_reset(&want);
	buf_addf(&want, "ultimate: error: cannot open '%s/missing.md': No such "
		 "file or directory\n", tmpdir);
	assert_captured(want.data);
	assert_null(t);

	remove_file("a.md");
	remove_file("b.md");
	remove_file("c.md");
	remove_file("d.md");
	buf_release(&want);
}

static void
test_include_depth(void **state)
{
	struct buf name = BUF_INIT, text = BUF_INIT;
	struct template *t;
	char *got;
	int i;

	(void)state;
	for (i = 0; i < 70; i++) {
		buf_reset(&name);
		buf_reset(&text);
		buf_addf(&name, "f%d.md", i);
		buf_addf(&text, "{{> f%d.md }}\n", i + 1);
		write_file(name.data, text.data);
	}
	capture_start();
	t = template_load(tmpdir, "f0.md");
	got = capture_end();
	assert_null(t);
	assert_non_null(strstr(got, "error: includes nested too deeply\n"));
	free(got);
	for (i = 0; i < 70; i++) {
		buf_reset(&name);
		buf_addf(&name, "f%d.md", i);
		remove_file(name.data);
	}
	buf_release(&name);
	buf_release(&text);
}

#define T(f) cmocka_unit_test_setup(f, reset)

/* Expands and renders s; returns the body HTML (caller frees). */
static char *
render(const char *s, char **toc)
{
	struct expansion x;
	struct template *t = expand_into(s, &x);
	struct buf body = BUF_INIT, tb = BUF_INIT;
	struct rendered r = { .body = &body, .toc = &tb };

	capture_start();
	assert_int_equal(html_render(&x, &r), 0);
	assert_captured("");
	/* No token may be left, in the text or in an attribute. */
	assert_null(strstr(body.data, x.nonce));
	assert_null(strstr(tb.data, x.nonce));
	if (r.title)
		assert_null(strstr(r.title, x.nonce));
	free(r.title);
	expansion_release(&x);
	template_free(t);
	*toc = buf_detach(&tb, NULL);
	return buf_detach(&body, NULL);
}

/*
 * {{ equation(NAME) }} is a block of MathML in place of its paragraph,
 * {{ math(NAME) }} inline MathML; a quantity without a formula, or a
 * format after either, is an error.
 */
static void
test_equations(void **state)
{
	struct quantity *q = (struct quantity *)(uintptr_t)
		registry_get(reg, "laptop.ops_max");
	/* The registry's strings live as long as it does. */
	char *saved = q->formula, *saved_note = q->note;
	char *html, *toc;

	(void)state;
	registry_set_expr(q, "2 * laptop.energy / (pi * laptop.volume)",
			  "not physics");
	html = render("Speed {{ math(laptop.ops_max) }} here.\n\n"
		      "{{ equation(laptop.ops_max) }}\n", &toc);
	assert_non_null(strstr(html, "<p>Speed <math alttext=\"laptop.ops_max "
			       "= 2 * laptop.energy / (pi * laptop.volume)\">"
			       "<mrow><mrow><mtext class=\"sym\"><a href=\""
			       "quantities.html#laptop.ops_max\" title=\""
			       "laptop.ops_max, ops/s\"><span>"));
	assert_non_null(strstr(html, "</math> here.</p>\n<math display=\""
			       "block\" alttext="));
	assert_null(strstr(html, "<p><math display"));
	free(html);
	free(toc);
	expand_err("{{ equation(laptop.energy) }}",
		   ERR("1:4", "'laptop.energy' has no formula to typeset "
		       "(only a description: 'm c^2')",
		       "{{ equation(laptop.energy) }}",
		       "   ^^^^^^^^^^^^^^^^^^^^^^^"), 1);
	expand_err("{{ math(laptop.ops_max) | sci:2 }}",
		   ERR("1:27", "'math' takes no format",
		       "{{ math(laptop.ops_max) | sci:2 }}",
		       "                          ^^^^^"), 1);
	expand_err("{{ 1 + math(laptop.ops_max) }}",
		   ERR("1:8", "'math' typesets a formula: use it alone in a "
		       "slot, {{ math(NAME) }}",
		       "{{ 1 + math(laptop.ops_max) }}",
		       "       ^^^^^^^^^^^^^^^^^^^^"), 1);
	q->expr = NULL;
	q->formula = saved;
	q->note = saved_note;
}

/* A references list for the citation tests: the file's order matters. */
static struct bib_entry bib_v[] = {
	{ "lloyd2000", "Lloyd 2000", "Seth Lloyd",
	  "Ultimate physical limits to computation", "Nature", "2000",
	  "10.1038/35023282", "" },
	{ "henson2008", "Henson 2008", "Valerie Henson",
	  "The <Kernel> Hacker's Bookshelf", "", "2008", "",
	  "https://lwn.net/Articles/286233/" },
	{ "unused", "Nobody 1999", "", "Not cited", "", "1999", "", "" },
};
static const struct bib test_bib = { bib_v, 3, "data/references.csv" };

/* Expands s with test_bib: 0 or -1; the messages are exactly want. */
static int
expand_cited(const char *s, struct expansion *x, const char *want)
{
	struct template *t;
	int ret;

	diag_reset();
	expansion_init(x);
	x->bib = &test_bib;
	capture_start();
	t = parse(s);
	assert_non_null(t);
	ret = template_expand(t, reg, x);
	assert_captured(want);
	template_free(t);
	return ret;
}

static void
test_cite(void **state)
{
	struct expansion x;
	char *md;

	(void)state;
	assert_int_equal(expand_cited("See {{ cite(henson2008) }} and "
		"{{ cite(lloyd2000) }}, again {{ cite(henson2008) }}.\n\n"
		"{{ references() }}\n", &x, ""), 0);
	md = normalize(&x);
	assert_string_equal(md, "See [Henson 2008](#ref-henson2008) and "
		"[Lloyd 2000](#ref-lloyd2000), again "
		"[Henson 2008](#ref-henson2008).\n\n\n\n<S0>\n\n\n");
	/* Cited entries only, in the file's order, escaped, linked. */
	assert_int_equal(x.nsnippets, 1);
	assert_string_equal(x.snippets[0].html,
		"<ol class=\"references\">\n"
		"<li id=\"ref-lloyd2000\">Seth Lloyd (2000). Ultimate physical "
		"limits to computation. <i>Nature</i>. "
		"<a href=\"https://doi.org/10.1038/35023282\">"
		"doi:10.1038/35023282</a></li>\n"
		"<li id=\"ref-henson2008\">Valerie Henson (2008). The "
		"&lt;Kernel&gt; Hacker's Bookshelf. "
		"<a href=\"https://lwn.net/Articles/286233/\">"
		"https://lwn.net/<wbr>Articles/<wbr>286233/</a></li>\n</ol>");
	free(md);
	expansion_release(&x);

	/* In alt text, a citation is its label. */
	assert_int_equal(expand_cited("{{#figure f }}Cap{{#alt}}As in "
		"{{ cite(lloyd2000) }}.{{/figure}}\n\n{{ references() }}\n",
		&x, ""), 0);
	assert_non_null(x.nfigures ? x.figures[0].label : NULL);
	expansion_release(&x);

	assert_int_equal(expand_cited("{{ cite(loyd2000) }}\n\n"
		"{{ references() }}\n", &x,
		ERR("1:4", "unknown reference 'loyd2000' (not a key of "
		    "data/references.csv); did you mean 'lloyd2000'?",
		    "{{ cite(loyd2000) }}", "   ^^^^^^^^^^^^^^")), -1);
	expansion_release(&x);
	/* Nothing close: no list of every key (a report cites dozens). */
	assert_int_equal(expand_cited("{{ cite(zzzzzz) }}\n\n"
		"{{ references() }}\n", &x,
		ERR("1:4", "unknown reference 'zzzzzz' (not a key of "
		    "data/references.csv)",
		    "{{ cite(zzzzzz) }}", "   ^^^^^^^^^^^^")), -1);
	expansion_release(&x);
	assert_int_equal(expand_cited("{{ cite(lloyd2000) }}\n", &x,
		ERR("1:4", "a citation needs a references list to link to: "
		    "add {{ references() }} to the page",
		    "{{ cite(lloyd2000) }}", "   ^^^^^^^^^^^^^^^")), -1);
	expansion_release(&x);
	assert_int_equal(expand_cited("{{ references() }}\n\n"
		"{{ references() }}\n", &x,
		ERR("3:4", "a second references list: a page has one",
		    "{{ references() }}", "   ^^^^^^^^^^^^")), -1);
	expansion_release(&x);
	assert_int_equal(expand_cited("{{#if cite(lloyd2000) }}x{{/if}}\n",
		&x, ERR("1:7", "'cite' writes a citation: use it alone in a "
		    "slot", "{{#if cite(lloyd2000) }}x{{/if}}",
		    "      ^^^^^^^^^^^^^^^")), -1);
	expansion_release(&x);
	/* No references.csv at all. */
	diag_reset();
	expansion_init(&x);
	capture_start();
	{
		struct template *t = parse("{{ cite(lloyd2000) }}\n");

		assert_int_equal(template_expand(t, reg, &x), -1);
		template_free(t);
	}
	assert_captured(ERR("1:4", "unknown reference 'lloyd2000': there is "
		"no references.csv in the data folder",
		"{{ cite(lloyd2000) }}", "   ^^^^^^^^^^^^^^^"));
	expansion_release(&x);
	parse_err("{{ cite(1) }}", ERR("1:9", "'cite' takes a reference's key",
		  "{{ cite(1) }}", "        ^"), 1);
}

/*
 * Expands the pages texts[0 .. n - 1] ("a.md", "b.md", ...) as one
 * report, each numbered on from the one before, citations linking to
 * bib_page when the page has no list of its own, then joins them;
 * the messages are exactly want. Returns template_link()'s result (or
 * -1 when an expansion failed). Release xs[] and free ts[] after.
 */
static int
expand_pages(const char *const *texts, size_t n, struct expansion *xs,
	     struct template **ts, const char *bib_page, const char *want)
{
	static const char *const files[] = { "index.html", "b.html",
					     "c.html" };
	struct expansion *all[3];
	char name[8];
	size_t i;
	int ret = 0;

	diag_reset();
	capture_start();
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%c.md", (char)('a' + i));
		ts[i] = template_parse("templates", name, texts[i],
				       strlen(texts[i]));
		assert_non_null(ts[i]);
		expansion_init(&xs[i]);
		xs[i].bib = &test_bib;
		xs[i].pages = 1;
		xs[i].figs = i ? xs[i - 1].figs : 0;
		xs[i].tabs = i ? xs[i - 1].tabs : 0;
		xs[i].bib_page = template_lists_references(ts[i]) ? NULL :
				 bib_page;
		if (template_expand(ts[i], reg, &xs[i]))
			ret = -1;
		all[i] = &xs[i];
	}
	if (!ret)
		ret = template_link(all, files, n);
	assert_captured(want);
	return ret;
}

static void
release_pages(struct expansion *xs, struct template **ts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		expansion_release(&xs[i]);
		template_free(ts[i]);
	}
}

/*
 * A report of pages: numbers go on from page to page, a reference to
 * another page's label links there, a citation on a page without a
 * list links to the report's list, which lists it.
 */
static void
test_pages(void **state)
{
	static const char *const texts[] = {
		"{{@t2}} {{@f1}} {{ cite(henson2008) }}\n"
		"{{#figure f1}}A{{#alt}}a{{/figure}}\n"
		"{{#table t1}}T{{/table}}\n"
		"{{ references() }}\n",
		"{{@t1}} {{@t2}} {{@f2}} {{ cite(lloyd2000) }}\n"
		"{{#table t2}}U{{/table}}\n"
		"{{#figure f2}}B{{#alt}}b{{/figure}}\n",
	};
	struct expansion xs[2];
	struct template *ts[2];
	char *md;

	(void)state;
	assert_int_equal(expand_pages(texts, 2, xs, ts, "index.html", ""), 0);
	md = normalize(&xs[0]);
	assert_string_equal(md, "[Table 2](b.html#tab-t2) [Figure 1](#fig-f1) "
			    "[Henson 2008](#ref-henson2008)\n"
			    "\n\n<S0>\n\n**Figure 1.** A\n\n<S1>\n\n\n"
			    "\n\n<S2>\n\n**Table 1.** T\n\n<S3>\n\n\n"
			    "\n\n<S4>\n\n\n");
	free(md);
	md = normalize(&xs[1]);
	assert_string_equal(md, "[Table 1](index.html#tab-t1) "
			    "[Table 2](#tab-t2) [Figure 2](#fig-f2) "
			    "[Lloyd 2000](index.html#ref-lloyd2000)\n"
			    "\n\n<S0>\n\n**Table 2.** U\n\n<S1>\n\n\n"
			    "\n\n<S2>\n\n**Figure 2.** B\n\n<S3>\n\n\n");
	free(md);
	assert_int_equal(xs[1].figures[0].number, 2);
	/* The report's list: both works, in the file's order. */
	assert_non_null(strstr(xs[0].snippets[4].html,
			       "<li id=\"ref-lloyd2000\">"));
	assert_true(strstr(xs[0].snippets[4].html, "ref-lloyd2000") <
		    strstr(xs[0].snippets[4].html, "ref-henson2008"));
	assert_null(strstr(xs[0].snippets[4].html, "ref-unused"));
	release_pages(xs, ts, 2);
}

/* A page's name: a-z, 0-9 and '-', and not a page the site writes. */
static void
test_page_names(void **state)
{
	(void)state;
	assert_int_equal(pageset_name("audit"), 0);
	assert_int_equal(pageset_name("appendix-2"), 0);
	assert_int_equal(pageset_name(""), 1);
	assert_int_equal(pageset_name("Audit"), 1);
	assert_int_equal(pageset_name("my_page"), 1);
	assert_int_equal(pageset_name("a.b"), 1);
	assert_int_equal(pageset_name("index"), 2);
	assert_int_equal(pageset_name("methods"), 2);
	assert_int_equal(pageset_name("data"), 2);
	assert_int_equal(pageset_name("quantities"), 2);
	assert_int_equal(pageset_name("changes"), 2);
	assert_int_equal(pageset_name("references"), 2);
	assert_int_equal(pageset_name("editions"), 2);
}

static void
test_pages_errors(void **state)
{
	static const char *const twice[] = {
		"{{#table tab}}T{{/table}}\n",
		"{{@zz}} {{@tab2}}\n{{#table tab}}U{{/table}}\n",
	};
	static const char *const nolist[] = {
		"No list.\n",
		"{{ cite(lloyd2000) }}\n",
	};
	struct expansion xs[2];
	struct template *ts[2];

	(void)state;
	assert_int_equal(expand_pages(twice, 2, xs, ts, NULL,
		"b.md:2:3: error: label 'tab' is used on two pages (first at "
		"a.md:1)\n    {{#table tab}}U{{/table}}\n    "
		"  ^^^^^^^^^^\n"
		"b.md:1:3: error: no figure or table labelled 'zz'\n"
		"    {{@zz}} {{@tab2}}\n      ^^^\n"
		"b.md:1:11: error: no figure or table labelled 'tab2'; did you "
		"mean 'tab'?\n    {{@zz}} {{@tab2}}\n              ^^^^^\n"),
		-1);
	release_pages(xs, ts, 2);
	assert_int_equal(expand_pages(nolist, 2, xs, ts, "index.html",
		"b.md:1:4: error: a citation needs a references list to link "
		"to: add {{ references() }} to this page or to index.html\n"
		"    {{ cite(lloyd2000) }}\n       ^^^^^^^^^^^^^^^\n"), -1);
	release_pages(xs, ts, 2);
}

/*
 * Renders s, which must expand, and must fail to render with exactly
 * the messages in want (raw HTML).
 */
static void
render_err(const char *s, const char *want, size_t nerr)
{
	struct expansion x;
	struct template *t = expand_into(s, &x);
	struct buf body = BUF_INIT, tb = BUF_INIT;
	struct rendered r = { .body = &body, .toc = &tb };

	diag_reset();
	capture_start();
	assert_int_equal(html_render(&x, &r), -1);
	assert_captured(want);
	assert_int_equal(diag_errors(), nerr);
	free(r.title);
	buf_release(&body);
	buf_release(&tb);
	expansion_release(&x);
	template_free(t);
}

#define RAW "raw HTML is not allowed in templates (it would be dropped " \
	"from the page): write Markdown, or '\\<' for a '<' that is text"

/*
 * Raw HTML in a template, which safe mode would drop without a word, is
 * an error at its place in the template: inline or a block, after
 * values and references (whose text is not the template's), in a
 * caption (expanded apart, then moved), in a quote, list or table.
 * HTML from data stays text, and '<' in code, escaped or not opening a
 * tag is no HTML.
 */
static void
test_raw_html(void **state)
{
	char *html, *toc;

	(void)state;
	render_err("a <b>x</b> b\n",
		   ERR("1:3", RAW, "a <b>x</b> b", "  ^^^")
		   ERR("1:7", RAW, "a <b>x</b> b", "      ^^^^"), 2);
	render_err("Text.\n\n<div class=\"x\">\n\ntext\n",
		   ERR("3:1", RAW, "<div class=\"x\">", "^^^^^^^^^^^^^^^"), 1);
	render_err("  <!-- note -->\n",
		   ERR("1:3", "an HTML comment is not allowed in templates "
		       "(it would be dropped from the page): write a template "
		       "comment, '{{! ... }}'", "  <!-- note -->",
		       "  ^^^^^^^^^^^^^"), 1);
	/* After a value, a reference and a multi-line paragraph. */
	render_err("{{@f}} {{ laptop.ops_max }} {{ device.a.name }}\n"
		   "and {{ laptop.energy }} <br>\n\n"
		   "{{#figure f}}\nCap {{ laptop.energy }} <em>e</em>"
		   "{{#alt}}alt{{/figure}}\n",
		   ERR("2:25", RAW, "and {{ laptop.energy }} <br>",
		       "                        ^^^^")
		   ERR("5:25", RAW, "Cap {{ laptop.energy }} <em>e</em>"
		       "{{#alt}}alt{{/figure}}", "                        ^^^^")
		   ERR("5:30", RAW, "Cap {{ laptop.energy }} <em>e</em>"
		       "{{#alt}}alt{{/figure}}",
		       "                             ^^^^^"), 3);
	/* In a quote, a list item's second line and a table cell. */
	render_err("> a <i>b</i>\n\n- item\n  more <span>\n\n"
		   "| a |\n|---|\n| <u>c |\n",
		   ERR("1:5", RAW, "> a <i>b</i>", "    ^^^")
		   ERR("1:9", RAW, "> a <i>b</i>", "        ^^^^")
		   ERR("4:8", RAW, "  more <span>", "       ^^^^^^")
		   ERR("8:3", RAW, "| <u>c |", "  ^^^"), 4);
	/* Inside an #each: the body's text, once for all its passes. */
	render_err("{{#each d in device}}<b>{{ d.id }}{{/each}}\n",
		   ERR("1:22", RAW, "{{#each d in device}}<b>{{ d.id }}"
		       "{{/each}}", "                     ^^^"), 1);
	/* Not HTML: code, an escaped '<', a '<' that opens no tag. */
	html = render("`<b>` and \\<i> and a < b and 1<2\n\n"
		      "    <pre>code</pre>\n\n```\n<div>\n```\n", &toc);
	assert_non_null(strstr(html, "<code>&lt;b&gt;</code>"));
	assert_non_null(strstr(html, "&lt;i&gt;"));
	assert_non_null(strstr(html, "&lt;pre&gt;code&lt;/pre&gt;"));
	assert_non_null(strstr(html, "&lt;div&gt;"));
	free(html);
	free(toc);
	/* HTML from data is text: no error, no markup. */
	html = render("Name: {{ device.a.name }}\n", &toc);
	assert_non_null(strstr(html, "A &lt;b&gt;*bold*&lt;/b&gt; | pipe"));
	assert_null(strstr(html, "<b>"));
	free(html);
	free(toc);
}

/*
 * The report was once rendered in pieces cut before headings; every
 * piece boundary here is one a whole document would also have. Each
 * document is rendered as it is (cut) and with a trailing paragraph,
 * which keeps it whole: the bodies must differ by the paragraph alone,
 * and the contents not at all. (An HTML block spanning blank lines was
 * a case too; raw HTML is an error now: test_raw_html.)
 */
static void
test_pieces_render_as_whole(void **state)
{
	static const char *const docs[] = {
		/* Lists, quotes, tables and paragraphs end at blank lines. */
		"# Title\n\n- a\n- b\n\n## Two\n\n> q\n> r\n\n"
		"## Three\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
		"## Two\n\nSame heading: \"quoted\" -- text.\n",
		/* A fence holding heading-like lines is not cut. */
		"## Code\n\n```\n\n# not a heading\n\n## nor this\n```\n"
		"\n## After\n\n~~~~\n\n# inside\n~~~\n\n# still\n~~~~\n\n"
		"## End {{ laptop.ops_max | sci:2 }}\n",
		/* Not a fence (a backtick after ```), then a real one. */
		"## A\n\n``` not `a` fence\n\n```\n\n# in code\n```\n\n## B\n",
		/* A link reference defined after its use: kept whole. */
		"## A\n\nSee [the paper][p].\n\n## B\n\n> [p]: https://x.org\n",
		/* A heading line right after text is a paragraph's end. */
		"Text\n# Head\n\n#Not a heading\n\n## Real\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct buf whole = BUF_INIT, want = BUF_INIT;
		char *cut, *kept, *toc1, *toc2;

		buf_addf(&whole, "%s\n\nWhole.\n", docs[i]);
		cut = render(docs[i], &toc1);
		kept = render(whole.data, &toc2);
		buf_addf(&want, "%s<p>Whole.</p>\n", cut);
		assert_string_equal(kept, want.data);
		assert_string_equal(toc1, toc2);
		/* The kept-whole cases, checked on their own too. */
		if (i == 2)
			assert_null(strstr(cut, "<h1"));
		if (i == 3)
			assert_non_null(strstr(cut, "<a href=\"https://x.org"
						    "\">the paper</a>"));
		free(cut);
		free(kept);
		free(toc1);
		free(toc2);
		buf_release(&whole);
		buf_release(&want);
	}
}

/*
 * Linked numbers travel through cmark-gfm as tokens and become links in
 * the HTML: as cmark would have written them, never inside another link
 * or a tag, as plain text in headings' ids and the contents.
 */
static void
test_links_rendered(void **state)
{
	char *html, *toc, *again, *toc2;

	(void)state;
	html = render("Top {{ laptop.ops_max | sci:2 }} ops.\n", &toc);
	assert_string_equal(html, "<p>Top <a href=\"quantities.html#laptop."
			    "ops_max\">5.4" NB "×" NB "10⁵⁰</a> ops.</p>\n");
	free(html);
	free(toc);
	/* In a heading: a link there, its text in the id and contents. */
	html = render("## Speed {{ laptop.ops_max | sci:2 }}\n", &toc);
	assert_string_equal(html, "<h2 id=\"speed-5-4-10\">Speed <a href=\""
			    "quantities.html#laptop.ops_max\">5.4" NB "×" NB
			    "10⁵⁰</a></h2>\n");
	assert_non_null(strstr(toc, ">Speed 5.4" NB "×" NB "10⁵⁰</a>"));
	free(html);
	free(toc);
	/* Inside a link's text: no link in a link. */
	html = render("[see {{ laptop.ops_max | sci:2 }}](https://example.org)"
		      "\n", &toc);
	assert_string_equal(html, "<p><a href=\"https://example.org\">see "
			    "5.4" NB "×" NB "10⁵⁰</a></p>\n");
	free(html);
	free(toc);
	/* Inside a URL and in code: the number, never the token. */
	html = render("[x](https://e.org/{{ device.a.year | year }}) and "
		      "`{{ device.a.year | year }}`\n", &toc);
	assert_string_equal(html, "<p><a href=\"https://e.org/2008\">x</a> "
			    "and <code>2008</code></p>\n");
	free(html);
	free(toc);
	/* Two runs, two nonces, the same bytes. */
	html = render("# T {{ device.a.year }}\n\n{{ laptop.ops_max }}\n",
		      &toc);
	again = render("# T {{ device.a.year }}\n\n{{ laptop.ops_max }}\n",
		       &toc2);
	assert_string_equal(html, again);
	assert_string_equal(toc, toc2);
	free(html);
	free(again);
	free(toc);
	free(toc2);
}

/*
 * Every place a linked number can land, as the renderer writes it from
 * the tree (no HTML is edited after cmark-gfm): a link in code spans,
 * code blocks and table cells, its text in alt text, titles and a code
 * block's language.
 */
static void
test_links_everywhere(void **state)
{
	char *html, *toc;

	(void)state;
	html = render("`n = {{ laptop.ops_max | sci:2 }} & more`\n", &toc);
	assert_string_equal(html, "<p><code>n = <a href=\"quantities.html#"
			    "laptop.ops_max\">5.4" NB "×" NB "10⁵⁰</a> &amp; "
			    "more</code></p>\n");
	free(html);
	free(toc);
	html = render("[`{{ laptop.ops_max | sci:2 }}`](https://e.org)\n",
		      &toc);
	assert_string_equal(html, "<p><a href=\"https://e.org\"><code>5.4"
			    NB "×" NB "10⁵⁰</code></a></p>\n");
	free(html);
	free(toc);
	html = render("```c{{ laptop.ops_max | sci:2 }} x\nv < "
		      "{{ laptop.ops_max | sci:2 }}\n```\n", &toc);
	assert_string_equal(html, "<pre><code class=\"language-c5.4" NB "×"
			    NB "10⁵⁰\">v &lt; <a href=\"quantities.html#"
			    "laptop.ops_max\">5.4" NB "×" NB "10⁵⁰</a>\n"
			    "</code></pre>\n");
	free(html);
	free(toc);
	html = render("| a | b |\n|---|---|\n| {{ laptop.ops_max | sci:2 }} "
		      "| `{{ laptop.ops_max | sci:2 }}` |\n", &toc);
	assert_non_null(strstr(html, "<td><a href=\"quantities.html#laptop."
			       "ops_max\">5.4" NB "×" NB "10⁵⁰</a></td>\n"));
	assert_non_null(strstr(html, "<td><code><a href=\"quantities.html#"
			       "laptop.ops_max\">5.4" NB "×" NB "10⁵⁰</a>"
			       "</code></td>\n"));
	free(html);
	free(toc);
	html = render("![a {{ laptop.ops_max | sci:2 }}](f.svg \"t "
		      "{{ laptop.ops_max | sci:2 }}\")\n", &toc);
	assert_string_equal(html, "<p><img src=\"f.svg\" alt=\"a 5.4" NB "×"
			    NB "10⁵⁰\" title=\"t 5.4" NB "×" NB "10⁵⁰\" />"
			    "</p>\n");
	free(html);
	free(toc);
}

/* A resolver as the site's top has one: each name on its own page. */
static void
part_href(struct buf *out, const char *name, const void *ctx)
{
	buf_addf(out, "%s%s.html#%s", (const char *)ctx, name, name);
}

/*
 * The page being rendered says where links to quantities go (the site's
 * top: to the parts, quantities/KEY.html): numbers, the symbols of
 * equations and inline formulas, and the template's own links to
 * quantities.html#NAME lead there from the renderer's output; other
 * links stay.
 */
static void
test_links_resolved(void **state)
{
	struct quantity *q = (struct quantity *)(uintptr_t)
		registry_get(reg, "laptop.ops_max");
	/* The registry's strings live as long as it does. */
	char *saved = q->formula, *saved_note = q->note;
	char *saved_expr = q->expr;
	const char *s = "Top {{ laptop.ops_max | sci:2 }}, "
			"[the energy](quantities.html#laptop.energy), "
			"[all](quantities.html) and {{ math(laptop.ops_max) }}"
			".\n\n{{ equation(laptop.ops_max) }}\n";
	struct expansion x;
	struct template *t;
	struct buf body = BUF_INIT, tb = BUF_INIT;
	struct rendered r = { .body = &body, .toc = &tb,
			      .qhref = part_href, .qhref_ctx = "q/" };

	(void)state;
	registry_set_expr(q, "2 * laptop.energy / (pi * laptop.volume)",
			  "not physics");
	t = expand_into(s, &x);
	capture_start();
	assert_int_equal(html_render(&x, &r), 0);
	assert_captured("");
	assert_non_null(strstr(body.data, "<p>Top <a href=\"q/laptop.ops_max."
			       "html#laptop.ops_max\">5.4"));
	assert_non_null(strstr(body.data, "<a href=\"q/laptop.energy.html#"
			       "laptop.energy\">the energy</a>, <a href=\""
			       "quantities.html\">all</a> and <math alttext="));
	/* Inline and block: every symbol, no link left for one page. */
	if (!strstr(body.data, "<math alttext=\"laptop.ops_max = "
		    "2 * laptop.energy / (pi * laptop.volume)\">"
		    "<mrow><mrow><mtext class=\"sym\"><a href=\"q/laptop."
		    "ops_max.html#laptop.ops_max\""))
		fail_msg("body: %s", body.data);
	assert_non_null(strstr(body.data, "<math display=\"block\""));
	assert_non_null(strstr(body.data, "href=\"q/laptop.volume.html#"
			       "laptop.volume\""));
	assert_null(strstr(body.data, "quantities.html#"));
	free(r.title);
	buf_release(&body);
	buf_release(&tb);
	expansion_release(&x);
	template_free(t);
	q->expr = saved_expr;
	q->formula = saved;
	q->note = saved_note;
}

/*
 * Tables are written from the tree as cmark-gfm writes them, with what
 * it cannot write: a {{#table}} caption as the table's <caption>, the
 * table in a scrolling <div class="wide">; a table without one named by
 * the heading above it; a formula in a cell typeset there.
 */
static void
test_tables(void **state)
{
	struct quantity *q = (struct quantity *)(uintptr_t)
		registry_get(reg, "laptop.ops_max");
	/* The registry's strings live as long as it does. */
	char *saved = q->formula, *saved_note = q->note;
	char *html, *toc;

	(void)state;
	html = render("{{#table t}}Cap *x*.{{/table}}\n| a | b | c |\n"
		      "|:--|:-:|--:|\n| 1 | | 3 |\n| 4 |\n", &toc);
	assert_string_equal(html, "<div class=\"wide\"><table>\n<caption id="
			    "\"tab-t\">\n<p><strong>Table 1.</strong> Cap "
			    "<em>x</em>.</p>\n</caption>\n<thead>\n<tr>\n"
			    "<th align=\"left\">a</th>\n<th align=\"center\">b"
			    "</th>\n<th align=\"right\">c</th>\n</tr>\n"
			    "</thead>\n<tbody>\n<tr>\n<td align=\"left\">1"
			    "</td>\n<td align=\"center\"></td>\n<td align=\""
			    "right\">3</td>\n</tr>\n<tr>\n<td align=\"left\">4"
			    "</td>\n<td align=\"center\"></td>\n<td align=\""
			    "right\"></td>\n</tr>\n</tbody>\n</table></div>\n");
	free(html);
	free(toc);
	html = render("Text.\n\n| a |\n|---|\n\n## Head\n\n| a |\n|---|\n",
		      &toc);
	assert_string_equal(html, "<p>Text.</p>\n<table>\n<thead>\n<tr>\n"
			    "<th>a</th>\n</tr>\n</thead>\n</table>\n<h2 id=\""
			    "head\">Head</h2>\n<table aria-labelledby=\"head\">"
			    "\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n"
			    "</table>\n");
	free(html);
	free(toc);
	registry_set_expr(q, "2 * laptop.energy", "not physics");
	html = render("| f |\n|---|\n| {{ math(laptop.ops_max) }} |\n", &toc);
	assert_non_null(strstr(html, "<td><math alttext=\"laptop.ops_max = 2 "
			       "* laptop.energy\">"));
	free(html);
	free(toc);
	q->expr = NULL;
	q->formula = saved;
	q->note = saved_note;
}

/* Renders s with banner (r.banner) into a body the caller frees. */
static char *
render_banner(const char *s, const char *banner)
{
	struct expansion x;
	struct template *t = expand_into(s, &x);
	struct buf body = BUF_INIT, tb = BUF_INIT;
	struct rendered r = { .body = &body, .toc = &tb, .banner = banner };

	assert_int_equal(html_render(&x, &r), 0);
	free(r.title);
	buf_release(&tb);
	expansion_release(&x);
	template_free(t);
	return buf_detach(&body, NULL);
}

/*
 * The renderer writes what follows the title: the contents folded (for
 * narrow screens), then the banner and a blank line; with no title, the
 * banner opens the body, and with no contents only the banner follows.
 */
static void
test_after_title(void **state)
{
	char *html;

	(void)state;
	html = render_banner("# T\n\n## A\n\nText.\n", "<p>B</p>\n");
	assert_string_equal(html, "<h1 id=\"t\">T</h1>\n<details class=\""
			    "toc-narrow\"><summary>Contents</summary>\n<ol>\n"
			    "<li><a href=\"#a\">A</a></li>\n</ol>\n</details>\n"
			    "<p>B</p>\n\n<h2 id=\"a\">A</h2>\n<p>Text.</p>\n");
	free(html);
	html = render_banner("Text.\n\n# T\n", "");
	assert_string_equal(html, "<p>Text.</p>\n<h1 id=\"t\">T</h1>\n\n");
	free(html);
	html = render_banner("Text.\n", "<p>B</p>\n");
	assert_string_equal(html, "<p>B</p>\n<p>Text.</p>\n");
	free(html);
	html = render_banner("# T\n\n## A\n", NULL);
	assert_null(strstr(html, "<p>"));
	assert_non_null(strstr(html, "</h1>\n<details class=\"toc-narrow\">"));
	free(html);
}

/* What a piece's errors were: "OFF: MESSAGE" lines. */
static int
note_error(const void *ctx, size_t off, const char *msg)
{
	struct buf *seen = (struct buf *)(uintptr_t)ctx;

	buf_addf(seen, "%zu: %s\n", off, msg);
	return -1;
}

/*
 * Expands s as template_expand_text() does, as a piece whose errors are
 * noted in *errs; the text into out, the names into names. Returns what
 * it returns.
 */
static int
expand_text(const char *s, struct buf *out, struct buf *names,
	    struct buf *errs)
{
	struct srcfile *f = srcfile_piece(s, strlen(s), note_error, errs);
	int ret;

	buf_reset(out);
	buf_reset(names);
	buf_reset(errs);
	capture_start();
	ret = template_expand_text(f, reg, out, names);
	assert_captured("");
	assert_sane_buf(out);
	assert_sane_buf(names);
	srcfile_free(f);
	return ret;
}

/*
 * One text with value slots (a claim's explanation): plain text, no
 * Markdown escapes and no links; any expression and format a slot
 * takes; the registry names it reads, each once, in order (not those
 * has() looks for that are not there).
 */
static void
test_expand_text(void **state)
{
	struct buf out = BUF_INIT, names = BUF_INIT, errs = BUF_INIT;

	(void)state;
	assert_int_equal(expand_text("a *b* {{ laptop.ops_max | sci:2 | unit }}"
				     " and {{ record.name }}, "
				     "{{ laptop.energy / laptop.mass | sci:3 }}"
				     "{{! a comment }} {{ laptop.mass | int }}"
				     "{{ has(laptop.nope) }}",
				     &out, &names, &errs), 0);
	assert_string_equal(out.data, "a *b* 5.4" NB "×" NB "10⁵⁰" NB
			    "ops/s and Roadrunner, 8.99" NB "×" NB "10¹⁶ 1"
			    "0");
	assert_string_equal(names.data, "laptop.ops_max record.name "
			    "laptop.energy laptop.mass");
	assert_int_equal(errs.len, 0);
	/* Text from the registry as it is: "<b>" stays, no backslashes. */
	assert_int_equal(expand_text("{{ device.a.name }}", &out, &names,
				     &errs), 0);
	assert_string_equal(out.data, "A <b>*bold*</b> | pipe");
	assert_int_equal(expand_text("", &out, &names, &errs), 0);
	assert_string_equal(out.data, "");
	assert_string_equal(names.data, "");
	buf_release(&out);
	buf_release(&names);
	buf_release(&errs);
}

/*
 * Its errors are located in the text (offsets, for the piece's reader
 * to place): an unknown name with the closest, an unknown format, a
 * slot left open; a block, an include or a reference is refused once.
 */
static void
test_expand_text_errors(void **state)
{
	struct buf out = BUF_INIT, names = BUF_INIT, errs = BUF_INIT;

	(void)state;
	assert_int_equal(expand_text("at {{ laptop.mas | sci:2 }}", &out,
				     &names, &errs), -1);
	assert_string_equal(errs.data, "6: unknown quantity 'laptop.mas'; "
			    "did you mean 'laptop.mass'?\n");
	assert_int_equal(expand_text("{{ laptop.mass | round }} x {{ 1 + }}",
				     &out, &names, &errs), -1);
	assert_string_equal(errs.data, "17: unknown format 'round' (formats: "
			    "sci, e, fixed, sig, int, year, pow10, bytes, "
			    "ibytes, text, unit, nolink, or, in)\n"
			    "33: expected a value at the end of the "
			    "expression\n");
	assert_int_equal(expand_text("a {{ laptop.mass", &out, &names,
				     &errs), -1);
	assert_string_equal(errs.data, "2: unclosed '{{': no '}}' before the "
			    "end of the text\n");
	assert_int_equal(expand_text("a {{#if laptop.mass}}b{{/if}} "
				     "{{> x.md}}", &out, &names, &errs), -1);
	assert_string_equal(errs.data, "4: '{{#if laptop.mass}}' cannot be "
			    "used here: this text takes values only, "
			    "'{{ NAME | FORMAT }}'\n");
	assert_int_equal(expand_text("{{@fig-a}}", &out, &names, &errs), -1);
	assert_string_equal(errs.data, "2: '{{@fig-a}}' cannot be used here: "
			    "this text takes values only, '{{ NAME | FORMAT "
			    "}}'\n");
	/* A citation needs a page with a references list: none here. */
	assert_int_equal(expand_text("as {{ cite(lloyd2000) }} says", &out,
				     &names, &errs), -1);
	assert_string_equal(errs.data, "6: 'cite' cannot be used here: this "
			    "text is on no page with a references list\n");
	/* A text value with a number format: at the format. */
	assert_int_equal(expand_text("{{ record.name | sci:2 }}", &out,
				     &names, &errs), -1);
	assert_string_equal(errs.data, "17: format 'sci' needs a number, got "
			    "the text 'Roadrunner'\n");
	buf_release(&out);
	buf_release(&names);
	buf_release(&errs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_plain_text),
		T(test_value_default),
		T(test_formats),
		T(test_units_and_links),
		T(test_links_rendered),
		T(test_links_everywhere),
		T(test_links_resolved),
		T(test_after_title),
		T(test_tables),
		T(test_pieces_render_as_whole),
		T(test_raw_html),
		T(test_text_escaped),
		T(test_md_escape),
		T(test_comments),
		T(test_standalone),
		T(test_standalone_table),
		T(test_if),
		T(test_each_in),
		T(test_has),
		T(test_fallback),
		T(test_fallback_errors),
		T(test_assert),
		T(test_assert_errors),
		T(test_each_of),
		T(test_figure),
		T(test_table_caption),
		T(test_references),
		T(test_label_errors),
		T(test_syntax_errors),
		T(test_format_errors),
		T(test_expand_errors),
		T(test_error_escapes_controls),
		T(test_nesting_limit),
		T(test_equations),
		T(test_expand_text),
		T(test_expand_text_errors),
		cmocka_unit_test(test_cite),
		cmocka_unit_test_setup_teardown(test_include, setup_dir,
						teardown_dir),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_pages_errors),
		cmocka_unit_test(test_page_names),
		cmocka_unit_test_setup_teardown(test_include_errors, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_figure_links, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_include_errors_in_file,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_include_cycle, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_include_depth, setup_dir,
						teardown_dir),
	};

	return cmocka_run_group_tests(tests, setup_registry,
				      teardown_registry);
}
