/*
 * Unit tests for src/escape.h: the one loop that escapes text for HTML,
 * through each of its entry points (text, attribute, literal code; the
 * names' breaks are tested with the pages, test_pages.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "buf.h"
#include "escape.h"

/* The bytes of every kind: plain, special, control, UTF-8. */
static const char mixed[] = "a&b<c>d\"e'f\tg\nh\ri\x01j\x7fk\xc3\xa9l";

static void
test_escape_text(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	html_text(&out, mixed);
	assert_sane_buf(&out);
	/* Quotes stay in text; controls go, a carriage return is a space. */
	assert_string_equal(out.data, "a&amp;b&lt;c&gt;d\"e'f\tg\nh i"
			    "j\x7fk\xc3\xa9l");
	buf_reset(&out);
	html_text(&out, "");
	assert_int_equal(out.len, 0);
	/* A long run with nothing to escape is copied whole. */
	html_text(&out, "plain text with no special byte at all");
	assert_string_equal(out.data, "plain text with no special byte at "
			    "all");
	buf_release(&out);
}

static void
test_escape_attr(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	html_attr(&out, mixed);
	assert_sane_buf(&out);
	assert_string_equal(out.data, "a&amp;b&lt;c&gt;d&quot;e'f\tg\nh i"
			    "j\x7fk\xc3\xa9l");
	buf_release(&out);
}

/* As cmark-gfm escapes a code span: & < > " escaped, the rest kept. */
static void
test_escape_literal(void **state)
{
	struct buf out = BUF_INIT;
	/* A NUL inside: the length, not the terminator, ends the text. */
	static const char s[] = "x<\x00>\"\r\x01&y";

	(void)state;
	html_literal(&out, s, sizeof(s) - 1);
	assert_sane_buf(&out);
	assert_int_equal(out.len, 24);
	assert_memory_equal(out.data, "x&lt;\x00&gt;&quot;\r\x01&amp;y", 24);
	/* Only len bytes: "&y" is not read. */
	buf_reset(&out);
	html_literal(&out, s, 2);
	assert_string_equal(out.data, "x&lt;");
	buf_reset(&out);
	html_literal(&out, s, 0);
	assert_int_equal(out.len, 0);
	buf_release(&out);
}

/* Each entry point appends: what is in the buffer stays. */
static void
test_escape_appends(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	BUF_ADDLIT(&out, "<p>");
	html_text(&out, "1 < 2");
	html_attr(&out, "\"");
	html_literal(&out, ">", 1);
	assert_string_equal(out.data, "<p>1 &lt; 2&quot;&gt;");
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_text),
		cmocka_unit_test(test_escape_attr),
		cmocka_unit_test(test_escape_literal),
		cmocka_unit_test(test_escape_appends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
