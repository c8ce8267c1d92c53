/*
 * export_csv_field(), the one CSV quoting that quantities.csv and
 * `ultimate --format csv diff` share: a field is written as it is, or
 * quoted (RFC 4180) when it holds a comma, a quote, a CR or an LF, or
 * begins or ends with a space.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "export.h"

/* s written as one field, after what out held, must leave exactly want. */
static void
assert_field(const char *s, const char *want)
{
	struct buf out = BUF_INIT;

	BUF_ADDLIT(&out, "a,");
	export_csv_field(&out, s);
	assert_sane_buf(&out);
	assert_true(out.len >= 2);
	assert_string_equal(out.data + 2, want);
	buf_release(&out);
}

static void
test_plain(void **state)
{
	(void)state;
	assert_field("", "");
	assert_field("x", "x");
	assert_field("laptop.ops_max", "laptop.ops_max");
	assert_field("5.4258e50", "5.4258e50");
	assert_field("kg m^2 s^-2", "kg m^2 s^-2");
	assert_field("tab\tinside", "tab\tinside");
	assert_field("caf\xc3\xa9", "caf\xc3\xa9");
}

static void
test_separators(void **state)
{
	(void)state;
	assert_field(",", "\",\"");
	assert_field("a,b", "\"a,b\"");
	assert_field("top500.csv:60-68, devices.csv:7",
		     "\"top500.csv:60-68, devices.csv:7\"");
	assert_field("line\nbreak", "\"line\nbreak\"");
	assert_field("cr\rlf", "\"cr\rlf\"");
	assert_field("crlf\r\n", "\"crlf\r\n\"");
}

static void
test_quotes_doubled(void **state)
{
	(void)state;
	assert_field("\"", "\"\"\"\"");
	assert_field("say \"hi\"", "\"say \"\"hi\"\"\"");
	assert_field("\"\"", "\"\"\"\"\"\"");
	assert_field("a\",b", "\"a\"\",b\"");
}

static void
test_edge_spaces(void **state)
{
	(void)state;
	assert_field(" ", "\" \"");
	assert_field(" lead", "\" lead\"");
	assert_field("trail ", "\"trail \"");
	assert_field("in side", "in side");
	assert_field("  both  ", "\"  both  \"");
}

/* Fields written one after another, as a row is. */
static void
test_row(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	export_csv_field(&out, "name");
	buf_addch(&out, ',');
	export_csv_field(&out, "");
	buf_addch(&out, ',');
	export_csv_field(&out, "a \"b\", c");
	buf_addch(&out, '\n');
	assert_sane_buf(&out);
	assert_string_equal(out.data, "name,,\"a \"\"b\"\", c\"\n");
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_separators),
		cmocka_unit_test(test_quotes_doubled),
		cmocka_unit_test(test_edge_spaces),
		cmocka_unit_test(test_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
