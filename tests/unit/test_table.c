/*
 * Unit tests for src/table.h, the CSV loader. Tables are parsed from
 * in-memory strings named "t.csv"; every error message is compared
 * exactly, position included: the line and the byte column where the
 * field starts (or, for quoting errors, where the bad byte is).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "schema.h"
#include "table.h"

#define ERR(line_col, msg) "t.csv:" line_col ": error: " msg "\n"

static int
reset(void **state)
{
	(void)state;
	diag_reset();
	return 0;
}

static struct table *
parse(const char *s)
{
	return table_parse("t.csv", s, strlen(s));
}

/* Parses s, which must be valid. */
static struct table *
parse_ok(const char *s)
{
	size_t before = diag_errors();
	struct table *t;

	capture_start();
	t = parse(s);
	assert_captured("");
	assert_non_null(t);
	assert_int_equal(diag_errors(), before);
	return t;
}

/* Parses s, which must fail with exactly the messages in want. */
#define assert_parse_error(s, want)                                          \
	do {                                                                 \
		struct table *t_;                                            \
		capture_start();                                             \
		t_ = parse(s);                                               \
		assert_captured(want);                                       \
		assert_null(t_);                                             \
	} while (0)

/* A table "v,w" whose one row is cell (CSV-encoded) and "x". */
static struct table *
one_cell(const char *cell)
{
	struct buf b = BUF_INIT;
	struct table *t;

	buf_addf(&b, "v,w\n%s,x\n", cell);
	t = parse_ok(b.data);
	buf_release(&b);
	assert_int_equal(table_rows(t), 1);
	return t;
}

static void
num_ok(const char *cell, unsigned flags, double want)
{
	struct table *t = one_cell(cell);
	double v = -12345;

	capture_start();
	assert_int_equal(table_num(t, 0, 0, flags, &v), 0);
	assert_captured("");
	if (isnan(want))
		assert_true(isnan(v));
	else if (want == 0)
		assert_true(v == 0);
	else
		assert_near(v, want, 1e-15);
	table_free(t);
}

static void
num_bad(const char *cell, unsigned flags, const char *want)
{
	struct table *t = one_cell(cell);
	double v;

	diag_reset();
	capture_start();
	assert_int_equal(table_num(t, 0, 0, flags, &v), -1);
	assert_captured(want);
	assert_int_equal(diag_errors(), 1);
	table_free(t);
}

static void
test_basic(void **state)
{
	struct table *t = parse_ok("name,mass_kg,year\n"
				   "laptop,2.5,2008\n"
				   "phone,0.2,2015\n");

	(void)state;
	assert_string_equal(table_name(t), "t.csv");
	assert_int_equal(table_cols(t), 3);
	assert_int_equal(table_rows(t), 2);
	assert_string_equal(table_header(t, 0), "name");
	assert_string_equal(table_header(t, 1), "mass_kg");
	assert_string_equal(table_header(t, 2), "year");
	assert_string_equal(table_cell(t, 0, 0), "laptop");
	assert_string_equal(table_cell(t, 0, 1), "2.5");
	assert_string_equal(table_cell(t, 1, 0), "phone");
	assert_string_equal(table_cell(t, 1, 2), "2015");
	assert_int_equal(table_line(t, 0), 2);
	assert_int_equal(table_line(t, 1), 3);
	table_free(t);
}

static void
test_header_only(void **state)
{
	struct table *t = parse_ok("a,b\n");

	(void)state;
	assert_int_equal(table_cols(t), 2);
	assert_int_equal(table_rows(t), 0);
	table_free(t);
	table_free(NULL);
}

static void
test_no_final_newline(void **state)
{
	struct table *t = parse_ok("a,b\n1,2\n3,4");

	(void)state;
	assert_int_equal(table_rows(t), 2);
	assert_string_equal(table_cell(t, 1, 1), "4");
	assert_int_equal(table_line(t, 1), 3);
	table_free(t);
}

/* Columns are found by name, in any order; extra columns are fine. */
static void
test_find_require(void **state)
{
	struct table *t = parse_ok("notes,b,a\nhello,2,1\n");

	(void)state;
	assert_int_equal(table_find(t, "a"), 2);
	assert_int_equal(table_find(t, "b"), 1);
	assert_int_equal(table_find(t, "notes"), 0);
	assert_int_equal(table_find(t, "missing"), -1);
	assert_int_equal(table_find(t, ""), -1);
	assert_int_equal(table_find(t, "A"), -1);

	capture_start();
	assert_int_equal(table_require(t, "a"), 2);
	assert_int_equal(table_require(t, "notes"), 0);
	assert_captured("");
	assert_int_equal(diag_errors(), 0);

	capture_start();
	assert_int_equal(table_require(t, "mass_kg"), -1);
	assert_captured(ERR("1:1", "missing required column 'mass_kg'"));
	assert_int_equal(diag_errors(), 1);
	table_free(t);
}

/* The missing-column error points at the header, wherever it is. */
static void
test_require_after_blank_lines(void **state)
{
	struct table *t = parse_ok("\n\na,b\n1,2\n");

	(void)state;
	assert_int_equal(table_line(t, 0), 4);
	capture_start();
	assert_int_equal(table_require(t, "c"), -1);
	assert_captured(ERR("3:1", "missing required column 'c'"));
	table_free(t);
}

static void
test_bom(void **state)
{
	struct table *t = parse_ok("\xef\xbb\xbf" "a,b\n1,2\n");

	(void)state;
	assert_string_equal(table_header(t, 0), "a");
	assert_int_equal(table_find(t, "a"), 0);
	assert_int_equal(table_rows(t), 1);
	assert_int_equal(table_line(t, 0), 2);
	table_free(t);

	/* Only a leading BOM is special. */
	t = parse_ok("a,b\n\xef\xbb\xbf" "1,2\n");
	assert_string_equal(table_cell(t, 0, 0), "\xef\xbb\xbf" "1");
	table_free(t);
}

static void
test_crlf(void **state)
{
	struct table *t = parse_ok("a,b\r\n1,2\r\n\r\n3,4\r\n");

	(void)state;
	assert_int_equal(table_rows(t), 2);
	assert_string_equal(table_header(t, 1), "b");
	assert_string_equal(table_cell(t, 0, 1), "2");
	assert_string_equal(table_cell(t, 1, 0), "3");
	assert_string_equal(table_cell(t, 1, 1), "4");
	assert_int_equal(table_line(t, 0), 2);
	assert_int_equal(table_line(t, 1), 4);
	table_free(t);

	/* Mixed line ends, and a CRLF inside a quoted field is kept. */
	t = parse_ok("a,b\n1,2\r\n\"x\r\ny\",3\n4,5");
	assert_int_equal(table_rows(t), 3);
	assert_string_equal(table_cell(t, 0, 1), "2");
	assert_string_equal(table_cell(t, 1, 0), "x\r\ny");
	assert_int_equal(table_line(t, 1), 3);
	assert_int_equal(table_line(t, 2), 5);
	table_free(t);
}

static void
test_quoting(void **state)
{
	struct table *t = parse_ok("a,b,c\n"
				   "\"1,5\",\"say \"\"hi\"\"\",\"\"\n"
				   "\"\"\"\",plain,\"quoted\"\n");

	(void)state;
	assert_int_equal(table_rows(t), 2);
	assert_string_equal(table_cell(t, 0, 0), "1,5");
	assert_string_equal(table_cell(t, 0, 1), "say \"hi\"");
	assert_string_equal(table_cell(t, 0, 2), "");
	assert_string_equal(table_cell(t, 1, 0), "\"");
	assert_string_equal(table_cell(t, 1, 1), "plain");
	assert_string_equal(table_cell(t, 1, 2), "quoted");
	table_free(t);
}

/* A row's line is where it starts, even after multi-line fields. */
static void
test_embedded_newlines(void **state)
{
	struct table *t = parse_ok("a,b\n"
				   "\"one\ntwo\nthree\",1\n"
				   "x,2\n"
				   "y,\"p\n\nq\"\n"
				   "z,3\n");

	(void)state;
	assert_int_equal(table_rows(t), 4);
	assert_string_equal(table_cell(t, 0, 0), "one\ntwo\nthree");
	assert_string_equal(table_cell(t, 2, 1), "p\n\nq");
	assert_int_equal(table_line(t, 0), 2);
	assert_int_equal(table_line(t, 1), 5);
	assert_int_equal(table_line(t, 2), 6);
	assert_int_equal(table_line(t, 3), 9);
	table_free(t);

	/* A multi-line header. */
	t = parse_ok("\"a\nb\",c\n1,2\n");
	assert_string_equal(table_header(t, 0), "a\nb");
	assert_int_equal(table_line(t, 0), 3);
	table_free(t);
}

static void
test_blank_lines(void **state)
{
	struct table *t = parse_ok("\n\na,b\n\n1,2\n\n\n3,4\n\n");

	(void)state;
	assert_int_equal(table_rows(t), 2);
	assert_string_equal(table_cell(t, 0, 0), "1");
	assert_string_equal(table_cell(t, 1, 0), "3");
	assert_int_equal(table_line(t, 0), 5);
	assert_int_equal(table_line(t, 1), 8);
	table_free(t);
}

/* A line holding only spaces is no row either. */
static void
test_spaces_line(void **state)
{
	struct table *t = parse_ok("a,b\n1,2\n  \n3,4\n");

	(void)state;
	assert_int_equal(table_rows(t), 2);
	assert_string_equal(table_cell(t, 1, 0), "3");
	assert_int_equal(table_line(t, 0), 2);
	assert_int_equal(table_line(t, 1), 4);
	table_free(t);
}

static void
test_utf8_valid(void **state)
{
	struct table *t = parse_ok("caf\xc3\xa9,b\n"
				   "\xe2\x82\xac,\"\xf0\x9f\x98\x80\"\n");

	(void)state;
	assert_int_equal(table_find(t, "caf\xc3\xa9"), 0);
	assert_string_equal(table_cell(t, 0, 0), "\xe2\x82\xac");
	assert_string_equal(table_cell(t, 0, 1), "\xf0\x9f\x98\x80");
	table_free(t);
}

static void
test_utf8_invalid(void **state)
{
	(void)state;
	assert_parse_error("a,b\n1,\xff\n",
			   ERR("2:3", "invalid UTF-8 byte 0xff in field 2"));
	assert_parse_error("a,b\n1,2\nab\xfe" "cd,3\n",
			   ERR("3:1", "invalid UTF-8 byte 0xfe in field 1"));
	/* Overlong, truncated, surrogate, beyond U+10FFFF. */
	assert_parse_error("a,b\n\xc0\xaf,2\n",
			   ERR("2:1", "invalid UTF-8 byte 0xc0 in field 1"));
	assert_parse_error("a,b\n1,\"x\xe2\x82\"\n",
			   ERR("2:3", "invalid UTF-8 byte 0xe2 in field 2"));
	assert_parse_error("a,b\n1,\xed\xa0\x80\n",
			   ERR("2:3", "invalid UTF-8 byte 0xed in field 2"));
	assert_parse_error("a,b\n1,\xf4\x90\x80\x80\n",
			   ERR("2:3", "invalid UTF-8 byte 0xf4 in field 2"));
	/* In the header. */
	assert_parse_error("a,\x80\n1,2\n",
			   ERR("1:3", "invalid UTF-8 byte 0x80 in field 2"));
}

static void
test_field_count(void **state)
{
	(void)state;
	/* The position is where the first extra field starts. */
	assert_parse_error("a,b,c\n1,2,3\n1,2,3,4\n",
			   ERR("3:7", "too many fields: expected 3, got 4"));
	assert_parse_error("a,b,c\n1,2,3,4,5\n",
			   ERR("2:7", "too many fields: expected 3, got 5"));
	assert_parse_error("a,b\n\"x,\"\"y\",\"1,2\",3\n",
			   ERR("2:15", "too many fields: expected 2, got 3"));
	/* After a multi-line field. */
	assert_parse_error("a,b\n\"x\ny\nz\",1\n1,2,3\n",
			   ERR("5:5", "too many fields: expected 2, got 3"));
	/* Inside a row that spans lines. */
	assert_parse_error("a,b\n\"x\ny\",1,2\n",
			   ERR("3:6", "too many fields: expected 2, got 3"));
	/* A trailing comma is one more (empty) field. */
	assert_parse_error("a,b\n1,2,\n",
			   ERR("2:5", "too many fields: expected 2, got 3"));
}

/*
 * Without a schema no column is guessed: the header is listed, and the
 * position is just after the last byte of the row.
 */
static void
test_too_few_fields(void **state)
{
	(void)state;
	assert_parse_error("a,b,c\n1,2\n",
			   ERR("2:4", "too few fields: expected 3 (a,b,c), "
			       "got 2"));
	assert_parse_error("a,b,c\n1\n",
			   ERR("2:2", "too few fields: expected 3 (a,b,c), "
			       "got 1"));
	/* Not counting the CR of a CRLF. */
	assert_parse_error("a,b\r\n10\r\n",
			   ERR("2:3", "too few fields: expected 2 (a,b), "
			       "got 1"));
	assert_parse_error("a,b,c\n\"x\ny\",1\n",
			   ERR("3:5", "too few fields: expected 3 (a,b,c), "
			       "got 2"));
}

/* A schema of every kind: what the header check and the guesses use. */
static const struct table_column test_cols[] = {
	{ "id", TABLE_KIND_ID, 0, NULL, "" },
	{ "name", TABLE_KIND_TEXT, 0, NULL, "" },
	{ "label", TABLE_KIND_TEXT, TABLE_COL_OPTIONAL | TABLE_COL_EMPTY,
	  NULL, "" },
	{ "year", TABLE_KIND_YEAR, 0, NULL, "" },
	{ "list", TABLE_KIND_MONTH, TABLE_COL_OPTIONAL, NULL, "" },
	{ "mass_kg", TABLE_KIND_NUMBER, TABLE_COL_OPTIONAL | TABLE_COL_EMPTY,
	  "kg", "" },
	{ "source", TABLE_KIND_TEXT, 0, NULL, "" },
};
static const struct table_schema test_schema = { "t.csv", "a test",
	test_cols, sizeof(test_cols) / sizeof(test_cols[0]) };

static struct table *
parse_schema(const char *s)
{
	return table_parse_schema("t.csv", s, strlen(s), &test_schema);
}

#define assert_schema_error(s, want)                                         \
	do {                                                                 \
		struct table *t_;                                            \
		capture_start();                                             \
		t_ = parse_schema(s);                                        \
		assert_captured(want);                                       \
		assert_null(t_);                                             \
	} while (0)

/* The header names every required column; others may come and go. */
static void
test_schema_header(void **state)
{
	struct table *t;

	(void)state;
	/* Optional columns absent, an unknown one kept, any order. */
	capture_start();
	t = parse_schema("source,year,name,id,url\nsrc,2008,A,a,x\n");
	assert_captured("");
	assert_non_null(t);
	assert_int_equal(table_find(t, "url"), 4);
	table_free(t);
	/* A required column missing, nothing like it: at the header. */
	assert_schema_error("id,name,source\na,A,s\n",
			    ERR("1:1", "missing required column 'year'"));
	/* After a byte-order mark and blank lines, the header's own line. */
	assert_schema_error("\n\nid,name,source\na,A,s\n",
			    ERR("3:1", "missing required column 'year'"));
	/* Two missing: both. */
	assert_schema_error("id,source\na,s\n",
			    ERR("1:1", "missing required column 'name'")
			    ERR("1:1", "missing required column 'year'"));
	/* A misspelling of it: at that column, said once. */
	assert_schema_error("id,nme,year,source\na,A,2008,s\n",
			    ERR("1:4", "missing required column 'name': is "
				"'nme' a misspelling of it?"));
	/* A misspelt optional column is not silently ignored... */
	assert_schema_error("id,name,year,mas_kg,source\na,A,2008,1,s\n",
			    ERR("1:14", "unknown column 'mas_kg'; did you mean "
				"'mass_kg'?"));
	/* ...but a name far from every column is a column of its own. */
	t = parse_ok("id,name,year,mass,source,comment\na,A,2008,1,s,c\n");
	table_free(t);
}

/* A row with one field too few: the column left out, when it shows. */
static void
test_schema_missing_field(void **state)
{
	(void)state;
	/*
	 * The year where the label should be: the label is left out (the
	 * optional one of id, name and label, which all line up).
	 */
	assert_schema_error("id,name,label,year,mass_kg,source\n"
			    "a,A,short,2008,1,s\n"
			    "b,B,2009,2,s\n",
			    ERR("3:5", "too few fields: expected 6, got 5: "
				"column 'label' is missing (the other fields "
				"line up without it)"));
	/*
	 * The year left out: only that lines up (2.5 is no year). With a
	 * whole number there, the mass would be the one left out.
	 */
	assert_schema_error("id,name,year,mass_kg,source\n"
			    "b,B,2.5,s\n",
			    ERR("2:5", "too few fields: expected 5, got 4: "
				"column 'year' is missing (the other fields "
				"line up without it)"));
	/* The last column: the position is past the end of the row. */
	assert_schema_error("id,name,year,source\n"
			    "b,B,2009\n",
			    ERR("2:9", "too few fields: expected 4, got 3: "
				"column 'source' is missing (the other fields "
				"line up without it)"));
	/* Required text columns side by side: any one of them. */
	assert_schema_error("id,name,source,year\n"
			    "b,x,2009\n",
			    ERR("2:1", "too few fields: expected 4, got 3: "
				"column 'id', 'name' or 'source' is missing "
				"(the other fields line up without any one of "
				"them)"));
	/* "B" is no id: the id is the one left out. */
	assert_schema_error("id,name,source,year\n"
			    "B,x,2009\n",
			    ERR("2:1", "too few fields: expected 4, got 3: "
				"column 'id' is missing (the other fields "
				"line up without it)"));
	/* Text where only a year or a month may be: no guess. */
	assert_schema_error("id,name,year,list,source\n"
			    "b,B,x,s\n",
			    ERR("2:8", "too few fields: expected 5 (id,name,"
				"year,list,source), got 4"));
	/* A month fills a month's place. */
	assert_schema_error("id,name,year,list,source\n"
			    "b,B,2009-06,s\n",
			    ERR("2:5", "too few fields: expected 5, got 4: "
				"column 'year' is missing (the other fields "
				"line up without it)"));
	/* Two fields too few: no guess either. */
	assert_schema_error("id,name,year,source\n"
			    "b,B\n",
			    ERR("2:4", "too few fields: expected 4 (id,name,"
				"year,source), got 2"));
}

/* Every bad row is reported, and parsing goes on after each. */
static void
test_several_errors(void **state)
{
	(void)state;
	assert_parse_error("a,b\n1,2,3\n4,5\n6,7,8\n\xff,9\n",
			   ERR("2:5", "too many fields: expected 2, got 3")
			   ERR("4:5", "too many fields: expected 2, got 3")
			   ERR("5:1", "invalid UTF-8 byte 0xff in field 1"));
	assert_int_equal(diag_errors(), 3);
}

/* The position is where the open quoted field starts. */
static void
test_unterminated_quote(void **state)
{
	(void)state;
	assert_parse_error("a,b,c\n1,2,\"3\n",
			   ERR("2:5", "unterminated quoted field"));
	assert_parse_error("a,b\n1,2\n\"x\n3,4\n5,6\n",
			   ERR("3:1", "unterminated quoted field"));
	/* Without a final newline. */
	assert_parse_error("a,b\n1,\"x",
			   ERR("2:3", "unterminated quoted field"));
	/* Opened on the second line of a row. */
	assert_parse_error("a,b,c\n\"x\ny\",1,\"z\n",
			   ERR("3:6", "unterminated quoted field"));
	assert_int_equal(diag_errors(), 4);
}

#define MALFORMED "malformed quoting: a quote inside an unquoted field " \
		  "or after a closing quote"

/* The position is the offending byte. */
static void
test_malformed_quote(void **state)
{
	(void)state;
	/* A quote inside an unquoted field. */
	assert_parse_error("a,b,c\n1,2\"x,3\n", ERR("2:4", MALFORMED));
	/* Text after a closing quote. */
	assert_parse_error("a,b,c\n1,\"2\"x,3\n", ERR("2:6", MALFORMED));
	assert_parse_error("a,b\n\"a\"b,1\n", ERR("2:4", MALFORMED));
	/* On the second line of a row. */
	assert_parse_error("a,b,c\n\"x\ny\",1\"z,3\n", ERR("3:5", MALFORMED));
	assert_int_equal(diag_errors(), 4);
}

/* The parser resynchronises on the next line after a malformed quote. */
static void
test_malformed_quote_resync(void **state)
{
	(void)state;
	assert_parse_error("a,b\n1,2\"x\n3,4\n5,6,7\n",
			   ERR("2:4", MALFORMED)
			   ERR("4:5", "too many fields: expected 2, got 3"));
	assert_int_equal(diag_errors(), 2);
}

static void
test_empty_file(void **state)
{
	static const char msg[] = ERR("1:1", "empty file: expected a header "
				      "line");

	(void)state;
	assert_parse_error("", msg);
	assert_parse_error("\xef\xbb\xbf", msg);
	assert_parse_error("\n\n\n", msg);
	assert_parse_error("\r\n", msg);
	assert_int_equal(diag_errors(), 4);
}

static void
test_bad_header(void **state)
{
	(void)state;
	assert_parse_error("a,b,a\n1,2,3\n",
			   ERR("1:5", "duplicate column 'a' in header (also "
			       "field 1)"));
	assert_parse_error("x,y,z,y\n",
			   ERR("1:7", "duplicate column 'y' in header (also "
			       "field 2)"));
	assert_parse_error("a,,b\n1,2,3\n",
			   ERR("1:3", "empty column name in header"));
	assert_parse_error("a,b,\n",
			   ERR("1:5", "empty column name in header"));
	/* Two empty names are two errors, not a duplicate. */
	assert_parse_error(",\n",
			   ERR("1:1", "empty column name in header")
			   ERR("1:2", "empty column name in header"));
	/* On the line where the header is. */
	assert_parse_error("\n\na,a\n",
			   ERR("3:3", "duplicate column 'a' in header (also "
			       "field 1)"));
}

static void
test_error_cap(void **state)
{
	struct buf in = BUF_INIT, want = BUF_INIT;
	int i;

	(void)state;
	buf_addstr(&in, "a,b\n");
	for (i = 0; i < TABLE_MAX_ERRORS + 5; i++)
		buf_addstr(&in, "1,2,3\n");
	for (i = 0; i < TABLE_MAX_ERRORS; i++)
		buf_addf(&want, "t.csv:%d:5: error: too many fields: "
			 "expected 2, got 3\n", i + 2);
	buf_addf(&want, "t.csv:%d:5: error: too many errors, stopping\n",
		 TABLE_MAX_ERRORS + 2);
	/* Nothing after the stop, not even the unterminated quote. */
	buf_addstr(&in, "\"open\n");
	assert_parse_error(in.data, want.data);
	assert_true(diag_errors() >= TABLE_MAX_ERRORS);
	buf_release(&in);
	buf_release(&want);
}

/* Exactly TABLE_MAX_ERRORS errors print no stop message. */
static void
test_error_cap_exact(void **state)
{
	struct buf in = BUF_INIT, want = BUF_INIT;
	int i;

	(void)state;
	buf_addstr(&in, "a,b\n");
	for (i = 0; i < TABLE_MAX_ERRORS; i++)
		buf_addstr(&in, "1\n1,2\n");
	for (i = 0; i < TABLE_MAX_ERRORS; i++)
		buf_addf(&want, "t.csv:%d:2: error: too few fields: "
			 "expected 2 (a,b), got 1\n", 2 * i + 2);
	assert_parse_error(in.data, want.data);
	assert_int_equal(diag_errors(), TABLE_MAX_ERRORS);
	buf_release(&in);
	buf_release(&want);
}

static void
test_num_ok(void **state)
{
	(void)state;
	num_ok("42", 0, 42);
	num_ok("2.5", 0, 2.5);
	num_ok("-3.25", 0, -3.25);
	num_ok("+7", 0, 7);
	num_ok(".5", 0, 0.5);
	num_ok("5.", 0, 5);
	num_ok("1e3", 0, 1000);
	num_ok("6.02E23", 0, 6.02e23);
	num_ok("-1.5e-3", 0, -1.5e-3);
	num_ok("0", 0, 0);
	num_ok("\"12\"", 0, 12);
	num_ok("1.7e308", 0, 1.7e308);
}

static void
test_num_bad(void **state)
{
	(void)state;
	num_bad("n/a", 0, ERR("2:1", "column 'v': expected a number, got "
			      "'n/a'"));
	num_bad("", 0, ERR("2:1", "column 'v': expected a number, got an "
			   "empty cell"));
	num_bad("inf", 0, ERR("2:1", "column 'v': expected a number, got "
			      "'inf'"));
	num_bad("nan", 0, ERR("2:1", "column 'v': expected a number, got "
			      "'nan'"));
	num_bad("NaN", 0, ERR("2:1", "column 'v': expected a number, got "
			      "'NaN'"));
	num_bad("infinity", 0, ERR("2:1", "column 'v': expected a number, "
				   "got 'infinity'"));
	num_bad("0x10", 0, ERR("2:1", "column 'v': expected a number, got "
			       "'0x10'"));
	num_bad("-0x1p3", 0, ERR("2:1", "column 'v': expected a number, got "
				 "'-0x1p3'"));
	num_bad("1e999", 0, ERR("2:1", "column 'v': number '1e999' is out "
				"of range"));
	num_bad("-1e999", 0, ERR("2:1", "column 'v': number '-1e999' is out "
				 "of range"));
	num_bad("\"1,5\"", 0, ERR("2:1", "column 'v': expected a number, got "
				  "'1,5'"));
	num_bad("12abc", 0, ERR("2:1", "column 'v': expected a number, got "
				"'12abc'"));
	num_bad("1e", 0, ERR("2:1", "column 'v': expected a number, got "
			     "'1e'"));
	num_bad("-", 0, ERR("2:1", "column 'v': expected a number, got "
			    "'-'"));
	num_bad("\" 1\"", 0, ERR("2:1", "column 'v': expected a number, got "
				 "' 1'"));
	num_bad("\"1 \"", 0, ERR("2:1", "column 'v': expected a number, got "
				 "'1 '"));
}

/* A signed infinity or NaN is not a number. */
static void
test_num_signed_inf_nan(void **state)
{
	static const char *const cells[] = { "-inf", "+inf", "-nan",
					     "+infinity" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		struct table *t = one_cell(cells[i]);
		double v;
		char *got;

		diag_reset();
		capture_start();
		assert_int_equal(table_num(t, 0, 0, 0, &v), -1);
		got = capture_end();
		assert_memory_equal(got, "t.csv:2:1: error: column 'v': "
				    "expected a number, got '", 54);
		assert_int_equal(diag_errors(), 1);
		free(got);
		table_free(t);
	}
}

static void
test_num_flags(void **state)
{
	(void)state;
	num_ok("0.001", TABLE_POSITIVE, 0.001);
	num_bad("0", TABLE_POSITIVE, ERR("2:1", "column 'v': expected a "
					 "positive number, got '0'"));
	num_bad("-1", TABLE_POSITIVE, ERR("2:1", "column 'v': expected a "
					  "positive number, got '-1'"));
	num_bad("-0", TABLE_POSITIVE, ERR("2:1", "column 'v': expected a "
					  "positive number, got '-0'"));

	num_ok("0", TABLE_NONNEG, 0);
	num_ok("3", TABLE_NONNEG, 3);
	num_bad("-1", TABLE_NONNEG, ERR("2:1", "column 'v': expected a "
					"number >= 0, got '-1'"));
	num_bad("-0.5", TABLE_NONNEG, ERR("2:1", "column 'v': expected a "
					  "number >= 0, got '-0.5'"));

	num_ok("12", TABLE_INTEGER, 12);
	num_ok("-4", TABLE_INTEGER, -4);
	num_ok("1e3", TABLE_INTEGER, 1000);
	num_ok("7.0", TABLE_INTEGER, 7);
	num_bad("2.5", TABLE_INTEGER, ERR("2:1", "column 'v': expected a "
					  "whole number, got '2.5'"));

	num_ok("", TABLE_OPTIONAL, NAN);
	num_ok("", TABLE_OPTIONAL | TABLE_POSITIVE, NAN);
	num_ok("5", TABLE_OPTIONAL, 5);
	num_bad("n/a", TABLE_OPTIONAL, ERR("2:1", "column 'v': expected a "
					   "number, got 'n/a'"));

	num_ok("8", TABLE_POSITIVE | TABLE_INTEGER, 8);
	num_bad("0.5", TABLE_POSITIVE | TABLE_INTEGER,
		ERR("2:1", "column 'v': expected a whole number, got '0.5'"));
}

/* Cell errors name the row's first line, the field and the column. */
static void
test_cell_error_position(void **state)
{
	struct table *t = parse_ok("v,w\n"
				   "\"a\nb\nc\",1\n"
				   "\n"
				   "2,n/a\n");
	double v;

	(void)state;
	assert_int_equal(table_line(t, 1), 6);
	capture_start();
	assert_int_equal(table_num(t, 0, 1, 0, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(table_num(t, 1, 1, 0, &v), -1);
	assert_int_equal(table_num(t, 0, 0, 0, &v), -1);
	assert_captured(ERR("6:3", "column 'w': expected a number, got 'n/a'")
			ERR("2:1", "column 'v': expected a number, got "
			    "'a\\nb\\nc'"));

	capture_start();
	assert_int_equal(table_error(t, 1, 0, "custom %d", 5), -1);
	assert_captured(ERR("6:1", "column 'v': custom 5"));

	/* A cell that starts on a later line of its row. */
	capture_start();
	assert_int_equal(table_error(t, 0, 1, "%s", "later"), -1);
	assert_captured(ERR("4:4", "column 'w': later"));
	table_free(t);
}

static void
test_year(void **state)
{
	struct table *t = parse_ok("y\n2008\n1900\n2100\n1899\n2101\n2008.5\n"
				   "soon\n2008.0\n");
	int y = 0;

	(void)state;
	capture_start();
	assert_int_equal(table_year(t, 0, 0, 1900, 2100, &y), 0);
	assert_int_equal(y, 2008);
	assert_int_equal(table_year(t, 1, 0, 1900, 2100, &y), 0);
	assert_int_equal(y, 1900);
	assert_int_equal(table_year(t, 2, 0, 1900, 2100, &y), 0);
	assert_int_equal(y, 2100);
	assert_int_equal(table_year(t, 7, 0, 1900, 2100, &y), 0);
	assert_int_equal(y, 2008);
	assert_captured("");

	capture_start();
	assert_int_equal(table_year(t, 3, 0, 1900, 2100, &y), -1);
	assert_int_equal(table_year(t, 4, 0, 1900, 2100, &y), -1);
	assert_int_equal(table_year(t, 5, 0, 1900, 2100, &y), -1);
	assert_int_equal(table_year(t, 6, 0, 1900, 2100, &y), -1);
	assert_captured(ERR("5:1", "column 'y': year 1899 out of range 1900 "
			    "to 2100")
			ERR("6:1", "column 'y': year 2101 out of range 1900 "
			    "to 2100")
			ERR("7:1", "column 'y': expected a whole number, got "
			    "'2008.5'")
			ERR("8:1", "column 'y': expected a number, got "
			    "'soon'"));
	assert_int_equal(diag_errors(), 4);
	table_free(t);
}

static void
test_month(void **state)
{
	struct table *t = parse_ok("m\n2008-06\n2008-01\n2008-12\n1990-03\n");
	double v;

	(void)state;
	capture_start();
	assert_int_equal(table_month(t, 0, 0, 1950, 2030, &v), 0);
	assert_near(v, 2008 + 5.5 / 12, 1e-15);
	assert_int_equal(table_month(t, 1, 0, 1950, 2030, &v), 0);
	assert_near(v, 2008 + 0.5 / 12, 1e-15);
	assert_int_equal(table_month(t, 2, 0, 1950, 2030, &v), 0);
	assert_near(v, 2008 + 11.5 / 12, 1e-15);
	assert_int_equal(table_month(t, 3, 0, 1990, 1990, &v), 0);
	assert_near(v, 1990 + 2.5 / 12, 1e-15);
	assert_captured("");
	table_free(t);
}

static void
test_month_bad(void **state)
{
	struct table *t = parse_ok("m,n\n"
				   "2008-13,2008-6\n"
				   "2008-00,08-06\n"
				   "2008-06x,2008/06\n"
				   "1949-12,\n"
				   "x008-06,2008-06-01\n");
	double v;

	(void)state;
	capture_start();
	assert_int_equal(table_month(t, 0, 0, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 0, 1, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 1, 0, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 1, 1, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 2, 0, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 2, 1, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 3, 0, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 3, 1, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 4, 0, 1950, 2030, &v), -1);
	assert_int_equal(table_month(t, 4, 1, 1950, 2030, &v), -1);
	assert_captured(
		ERR("2:1", "column 'm': month 13 out of range 01 to 12 in "
		    "'2008-13'")
		ERR("2:9", "column 'n': expected a list date YYYY-MM, got "
		    "'2008-6'")
		ERR("3:1", "column 'm': month 00 out of range 01 to 12 in "
		    "'2008-00'")
		ERR("3:9", "column 'n': expected a list date YYYY-MM, got "
		    "'08-06'")
		ERR("4:1", "column 'm': expected a list date YYYY-MM, got "
		    "'2008-06x'")
		ERR("4:10", "column 'n': expected a list date YYYY-MM, got "
		    "'2008/06'")
		ERR("5:1", "column 'm': year 1949 out of range 1950 to 2030 "
		    "in '1949-12'")
		ERR("5:9", "column 'n': expected a list date YYYY-MM, got "
		    "''")
		ERR("6:1", "column 'm': expected a list date YYYY-MM, got "
		    "'x008-06'")
		ERR("6:9", "column 'n': expected a list date YYYY-MM, got "
		    "'2008-06-01'"));
	assert_int_equal(diag_errors(), 10);
	table_free(t);
}

static void
test_text(void **state)
{
	struct table *t = parse_ok("name,note\nlaptop,\n,\"\"\n");
	const char *s = NULL;

	(void)state;
	capture_start();
	assert_int_equal(table_text(t, 0, 0, &s), 0);
	assert_string_equal(s, "laptop");
	assert_captured("");
	assert_string_equal(table_cell(t, 0, 1), "");

	capture_start();
	assert_int_equal(table_text(t, 0, 1, &s), -1);
	assert_int_equal(table_text(t, 1, 0, &s), -1);
	assert_int_equal(table_text(t, 1, 1, &s), -1);
	assert_captured(ERR("2:8", "column 'note': expected text, got an "
			    "empty cell")
			ERR("3:1", "column 'name': expected text, got an "
			    "empty cell")
			ERR("3:2", "column 'note': expected text, got an "
			    "empty cell"));
	assert_int_equal(diag_errors(), 3);
	table_free(t);
}

/* Lone CRs end lines as LFs do (libcsv ends records there too). */
static void
test_cr(void **state)
{
	struct table *t = parse_ok("a,b\r1,2\r\r\"x\ry\",3\r4,5");

	(void)state;
	assert_int_equal(table_rows(t), 3);
	assert_string_equal(table_cell(t, 0, 1), "2");
	assert_string_equal(table_cell(t, 1, 0), "x\ry");
	assert_string_equal(table_cell(t, 2, 1), "5");
	assert_int_equal(table_line(t, 0), 2);
	assert_int_equal(table_line(t, 1), 4);
	assert_int_equal(table_line(t, 2), 6);
	capture_start();
	table_error(t, 2, 1, "bad");
	table_error_in(t, 1, 0, 2, "bad");
	assert_captured(ERR("6:3", "column 'b': bad")
			ERR("5:1", "column 'a': bad"));
	table_free(t);
	/* Errors while reading name the line too. */
	assert_parse_error("a,b\r1,2\r3\r4,5,6\r",
			   ERR("3:2", "too few fields: expected 2 (a,b), "
			       "got 1")
			   ERR("4:5", "too many fields: expected 2, got 3"));
	assert_parse_error("a,b\r1,2\r3,x\"y\r",
			   ERR("3:4", "malformed quoting: a quote inside an "
			       "unquoted field or after a closing quote"));
}

/* Every column the schema declares is checked, read or not. */
static void
test_schema_cells(void **state)
{
	(void)state;
	assert_schema_error("id,name,year,list,mass_kg,label,source\n"
			    "a,A,2008,2008-06,1,,s\n"
			    "B,,20x8,2008-13,banana,,\n"
			    "c,C,2008,2008-06,0x10,,s\n",
			    ERR("3:1", "column 'id': 'B' is not a valid id: "
				"use a-z, 0-9 and _")
			    ERR("3:3", "column 'name': expected text, got an "
				"empty cell")
			    ERR("3:4", "column 'year': expected a number, got "
				"'20x8'")
			    ERR("3:9", "column 'list': month 13 out of range "
				"01 to 12 in '2008-13'")
			    ERR("3:17", "column 'mass_kg': expected a number, "
				"got 'banana'")
			    ERR("3:25", "column 'source': expected text, got "
				"an empty cell")
			    ERR("4:18", "column 'mass_kg': expected a number, "
				"got '0x10'"));
	assert_schema_error("id,name,year,source\na,A,1e400,s\n",
			    ERR("2:5", "column 'year': number '1e400' is out "
				"of range"));
	assert_schema_error("id,name,year,source\na,A,99,s\n",
			    ERR("2:5", "column 'year': year 99 out of range "
				"1000 to 9999"));
}

/* Past TABLE_MAX_ERRORS bad cells, the check stops and says so. */
static void
test_schema_cells_cap(void **state)
{
	struct buf in = BUF_INIT, want = BUF_INIT;
	int i;

	(void)state;
	buf_addstr(&in, "id,name,year,source\n");
	for (i = 0; i < TABLE_MAX_ERRORS + 2; i++)
		buf_addstr(&in, "a,A,x,s\n");
	for (i = 0; i < TABLE_MAX_ERRORS; i++)
		buf_addf(&want, "t.csv:%d:5: error: column 'year': expected "
			 "a number, got 'x'\n", i + 2);
	buf_addf(&want, "t.csv:%d:1: error: too many errors, stopping\n",
		 TABLE_MAX_ERRORS + 2);
	assert_schema_error(in.data, want.data);
	buf_release(&in);
	buf_release(&want);
}

/* A value of kind that its column takes (good) or refuses. */
static const char *
good_value(enum table_kind kind)
{
	switch (kind) {
	case TABLE_KIND_TEXT:
	case TABLE_KIND_ID:
		return "x";
	case TABLE_KIND_NUMBER:
		return "1";
	case TABLE_KIND_YEAR:
		return "2000";
	case TABLE_KIND_MONTH:
		return "2000-06";
	}
	return "?";
}

static const char *const bad_text[] = { "", NULL };
static const char *const bad_id[] = { "", "Not an id", NULL };
static const char *const bad_number[] = { "banana", "Infinity", "0x10",
					  "1e400", "nan", "1,5", NULL };
static const char *const bad_year[] = { "banana", "2000.5", "99", "1e400",
					NULL };
static const char *const bad_month[] = { "banana", "2000-13", "2000-1",
					 "0999-06", NULL };

/*
 * Every column of every shipped file of the catalogue (data/schema.csv), with a bad
 * value of its kind in the one row, the others good: one error, at
 * line 2 and that cell, naming the column. A column added to the catalogue
 * is covered without a word here.
 */
static void
test_schema_every_column(void **state)
{
	struct tableset ts = { 0 };
	const struct schema_file *files;
	size_t i, k, j, n, checked = 0;

	(void)state;
	/* The shipped catalogue's files. */
	assert_int_equal(schema_catalogue(&ts, "data", &files, &n), 0);
	assert_true(n >= 10);
	for (i = 0; i < n; i++) {
		const struct table_schema *sc = &files[i].s;

		for (k = 0; k < sc->ncols; k++) {
			const struct table_column *c = &sc->cols[k];
			const char *const *bad =
				c->kind == TABLE_KIND_TEXT ? bad_text :
				c->kind == TABLE_KIND_ID ? bad_id :
				c->kind == TABLE_KIND_NUMBER ? bad_number :
				c->kind == TABLE_KIND_YEAR ? bad_year :
				bad_month;

			for (; *bad; bad++) {
				struct buf in = BUF_INIT, want = BUF_INIT;
				size_t col = 1;
				struct table *t;
				char *got;

				/* An empty cell is no fault where allowed. */
				if (!**bad && (c->flags & TABLE_COL_EMPTY))
					continue;
				for (j = 0; j < sc->ncols; j++)
					buf_addf(&in, "%s%s", j ? "," : "",
						 sc->cols[j].name);
				buf_addch(&in, '\n');
				for (j = 0; j < sc->ncols; j++) {
					const char *v = j == k ? *bad :
						good_value(sc->cols[j].kind);

					if (j < k)
						col += strlen(v) + 1;
					if (j == k && strchr(v, ','))
						buf_addf(&in, "%s\"%s\"",
							 j ? "," : "", v);
					else
						buf_addf(&in, "%s%s",
							 j ? "," : "", v);
				}
				buf_addch(&in, '\n');
				buf_addf(&want, "%s:2:%zu: error: column '%s': ",
					 sc->file, col, c->name);
				diag_reset();
				capture_start();
				t = table_parse_schema(sc->file, in.data,
						       in.len, sc);
				got = capture_end();
				if (t || strncmp(got, want.data, want.len) ||
				    strchr(got, '\n') != got + strlen(got) - 1)
					fail_msg("%s, %s = '%s': got %s%s",
						 sc->file, c->name, *bad,
						 t ? "no error" : "", got);
				free(got);
				table_free(t);
				buf_release(&in);
				buf_release(&want);
				checked++;
			}
		}
	}
	/* The shipped files declare some 90 columns. */
	assert_true(checked > 100);
	tableset_release(&ts);
}

/*
 * A line longer than the pieces libcsv is fed (64 KiB): fields cut
 * between two pieces, and an error past the first piece at its column.
 */
static void
test_long_line(void **state)
{
	struct buf in = BUF_INIT, want = BUF_INIT;
	struct table *t;
	size_t i;

	(void)state;
	buf_addstr(&in, "a,b\n\"");
	for (i = 0; i < 300000; i++)
		buf_addstr(&in, i % 1000 == 999 ? "\"\"" : i % 7 ? "x" : ",");
	buf_addstr(&in, "\",2\n");
	t = parse_ok(in.data);
	assert_int_equal(table_rows(t), 1);
	assert_int_equal(strlen(table_cell(t, 0, 0)), 300000);
	assert_int_equal(table_cell(t, 0, 0)[999], '"');
	assert_string_equal(table_cell(t, 0, 1), "2");
	table_free(t);
	buf_reset(&in);
	buf_addstr(&in, "a,b\n");
	for (i = 0; i < 200000; i++)
		buf_addch(&in, 'x');
	buf_addstr(&in, "\"y,2\n");
	buf_addf(&want, "t.csv:2:%d: error: malformed quoting: a quote inside "
		 "an unquoted field or after a closing quote\n", 200001);
	assert_parse_error(in.data, want.data);
	buf_release(&in);
	buf_release(&want);
}

/* A larger table: growth of the cell and line arrays. */
static void
test_many_rows(void **state)
{
	struct buf in = BUF_INIT;
	struct table *t;
	size_t i;
	double v;

	(void)state;
	buf_addstr(&in, "i,sq,label\n");
	for (i = 0; i < 5000; i++)
		buf_addf(&in, "%zu,%zu,\"row %zu, ok\"\n", i, i * i, i);
	t = parse_ok(in.data);
	assert_int_equal(table_rows(t), 5000);
	for (i = 0; i < 5000; i += 499) {
		assert_int_equal(table_num(t, i, 1, TABLE_INTEGER, &v), 0);
		assert_true(v == (double)(i * i));
		assert_int_equal(table_line(t, i), i + 2);
	}
	assert_string_equal(table_cell(t, 4999, 2), "row 4999, ok");
	table_free(t);
	buf_release(&in);
}

#define T(f) cmocka_unit_test_setup(f, reset)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_basic),
		T(test_header_only),
		T(test_no_final_newline),
		T(test_find_require),
		T(test_require_after_blank_lines),
		T(test_bom),
		T(test_crlf),
		T(test_cr),
		T(test_quoting),
		T(test_embedded_newlines),
		T(test_blank_lines),
		T(test_spaces_line),
		T(test_utf8_valid),
		T(test_utf8_invalid),
		T(test_field_count),
		T(test_too_few_fields),
		T(test_schema_header),
		T(test_schema_missing_field),
		T(test_several_errors),
		T(test_unterminated_quote),
		T(test_malformed_quote),
		T(test_malformed_quote_resync),
		T(test_empty_file),
		T(test_bad_header),
		T(test_error_cap),
		T(test_error_cap_exact),
		T(test_num_ok),
		T(test_num_bad),
		T(test_num_signed_inf_nan),
		T(test_num_flags),
		T(test_cell_error_position),
		T(test_year),
		T(test_month),
		T(test_month_bad),
		T(test_text),
		T(test_schema_cells),
		T(test_schema_cells_cap),
		T(test_schema_every_column),
		T(test_many_rows),
		T(test_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
