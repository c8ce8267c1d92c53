/*
 * Unit tests for src/schema.h, the catalogue of a project's data files,
 * and src/rows.h, the provider of their rows: as quantities (a file with
 * ids, a file of values) and as rows a reduction ranges over. The
 * catalogue and data are written to a temporary folder; every error
 * message is compared exactly, file, line and column included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "expr.h"
#include "registry.h"
#include "rows.h"
#include "schema.h"
#include "table.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	diag_reset();
	snprintf(dir, sizeof(dir), "/tmp/test_schema.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static void
put(const char *file, const char *text)
{
	struct buf path = BUF_INIT;
	FILE *fp;

	buf_addf(&path, "%s/%s", dir, file);
	fp = fopen(path.data, "wb");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	buf_release(&path);
}

static int
teardown(void **state)
{
	static const char *const files[] = { "schema.csv", "bench.csv",
		"values.csv", "lists.csv", "claims.csv" };
	struct buf path = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, files[i]);
		unlink(path.data);
	}
	buf_release(&path);
	return rmdir(dir);
}

/* "DIR/file:where: error: msg\n", into b. */
static const char *
err(struct buf *b, const char *file, const char *where, const char *msg)
{
	buf_addf(b, "%s/%s:%s: error: %s\n", dir, file, where, msg);
	return b->data;
}

/*
 * The shipped catalogue: each file with one id and one date at most, of
 * the right kinds, a prefix of its own for each rows file, and the
 * engine's files of values, claims and references.
 */
static void
test_shipped(void **state)
{
	struct tableset ts = { 0 };
	const struct schema_file *v;
	size_t i, j, k, n;

	(void)state;
	assert_int_equal(schema_catalogue(&ts, "data", &v, &n), 0);
	assert_true(n >= 10);
	for (i = 0; i < n; i++) {
		int ids = 0, dates = 0;

		assert_ptr_equal(schema_find(&ts, "data", v[i].s.file), &v[i]);
		for (k = 0; k < v[i].s.ncols; k++) {
			const struct table_column *c = &v[i].s.cols[k];

			if (c->flags & TABLE_COL_ID) {
				ids++;
				assert_int_equal(c->kind, TABLE_KIND_ID);
				assert_false(c->flags & TABLE_COL_OPTIONAL);
			}
			if (c->flags & TABLE_COL_DATE) {
				dates++;
				assert_int_equal(v[i].kind, SCHEMA_ROWS);
			}
		}
		assert_true(ids <= 1);
		assert_true(dates <= 1);
		for (j = 0; j < i && v[i].kind == SCHEMA_ROWS; j++)
			if (v[j].kind == SCHEMA_ROWS)
				assert_string_not_equal(v[i].prefix,
							v[j].prefix);
	}
	assert_string_equal(schema_of_kind(&ts, "data", SCHEMA_VALUES)->s.file,
			    "assumptions.csv");
	assert_string_equal(schema_of_kind(&ts, "data", SCHEMA_CLAIMS)->s.file,
			    "claims.csv");
	assert_string_equal(schema_of_prefix(&ts, "data", "device")->s.file,
			    "devices.csv");
	assert_null(schema_find(&ts, "data", "nosuch.csv"));
	tableset_release(&ts);
}

/* table_col() and table_role() find columns by name and by role. */
static void
test_columns(void **state)
{
	struct tableset ts = { 0 };
	const struct table *t;

	(void)state;
	t = schema_load(&ts, "data", "top500.csv");
	assert_non_null(t);
	assert_true(table_col(t, "rmax_flops") >= 0);
	assert_int_equal(table_role(t, TABLE_COL_DATE), 0);
	assert_int_equal(table_column_of(t, 0)->kind, TABLE_KIND_MONTH);
	assert_int_equal(table_role(t, TABLE_COL_ID), -1);
	t = schema_load(&ts, "data", "devices.csv");
	assert_non_null(t);
	assert_int_equal(table_role(t, TABLE_COL_ID), 0);
	assert_true(table_role(t, TABLE_COL_DATE) > 0);
	tableset_release(&ts);
}

/* No catalogue: no data files, nothing loaded, no error. */
static void
test_none(void **state)
{
	struct tableset ts = { 0 };
	const struct schema_file *v;
	const char **files;
	size_t n = 7;
	int newest = 1, year = 0;
	struct buf origin = BUF_INIT;

	(void)state;
	capture_start();
	assert_int_equal(schema_catalogue(&ts, dir, &v, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(rows_newest(&ts, dir, &year, &newest, &origin), 0);
	assert_int_equal(newest, 0);
	assert_int_equal(origin.len, 0);
	buf_release(&origin);
	files = schema_files(&ts, dir);
	assert_null(files[0]);
	free(files);
	assert_captured("");
	tableset_release(&ts);
}

static const char catalogue[] =
	"file,column,kind,unit,required,name,description\n"
	"bench.csv,,rows,,,machine,one machine\n"
	"bench.csv,id,id,,yes,,the machine\n"
	"bench.csv,year,year,,yes,,\n"
	"bench.csv,score_ops,number,ops/s,yes,score,its score\n"
	"bench.csv,mass,number,kg,no,,\n"
	"bench.csv,vendor,text,,column,,who made it\n"
	"bench.csv,note,text,,no,-,a remark\n"
	"values.csv,,values,,,,a value a row\n"
	"values.csv,name,text,,yes,,\n"
	"values.csv,value,number,,yes,,\n"
	"values.csv,unit,text,,column,,\n"
	"values.csv,source,text,,yes,,\n"
	"lists.csv,list,month,,yes,,\n"
	"lists.csv,system,text,,yes,,\n"
	"lists.csv,power,number,W,no,,\n";

/*
 * A rows file with ids: each row as quantities named as the catalogue
 * says (score of score_ops, no note), its year the year of its date;
 * rows after the edition left out.
 */
static void
test_rows(void **state)
{
	struct tableset ts = { 0 };
	const struct schema_file *f;
	struct registry *reg = registry_new();
	const struct quantity *q;

	(void)state;
	put("schema.csv", catalogue);
	put("bench.csv", "id,vendor,year,score_ops,mass,note\n"
	    "a,Acme,2010,5e9,2.5,fine\n"
	    "b,,2012,7,,\n"
	    "c,Zed,2020,1e12,1,\n");
	capture_start();
	f = schema_find(&ts, dir, "bench.csv");
	assert_non_null(f);
	assert_string_equal(f->prefix, "machine");
	assert_int_equal(f->s.ncols, 6);
	assert_true(f->s.cols[0].flags & TABLE_COL_ID);
	assert_true(f->s.cols[1].flags & TABLE_COL_DATE);
	assert_string_equal(f->names[2], "score");
	assert_null(f->names[5]);
	assert_int_equal(rows_add(reg, &ts, dir, f, 2015, NULL, NULL), 0);
	assert_captured("");
	q = registry_get(reg, "machine.a.id");
	assert_non_null(q);
	assert_string_equal(q->text, "a");
	q = registry_get(reg, "machine.a.score");
	assert_near(q->value, 5e9, 0);
	assert_string_equal(q->unit, "ops/s");
	assert_string_equal(q->formula, "its score");
	assert_string_equal(q->origin + strlen(q->origin) - 11, "bench.csv:2");
	q = registry_get(reg, "machine.a.year");
	assert_near(q->value, 2010, 0);
	assert_string_equal(q->unit, "year");
	assert_string_equal(registry_get(reg, "machine.a.vendor")->text,
			    "Acme");
	/* No note (named -), empty cells none, c dated after 2015. */
	assert_null(registry_get(reg, "machine.a.note"));
	assert_non_null(registry_get(reg, "machine.b.score"));
	assert_null(registry_get(reg, "machine.b.mass"));
	assert_null(registry_get(reg, "machine.b.vendor"));
	assert_null(registry_get(reg, "machine.c.id"));
	assert_int_equal(registry_count(reg), 5 + 3);
	registry_free(reg);
	tableset_release(&ts);
}

/* A file of values: one quantity a row, in its unit, from its row. */
static void
test_values(void **state)
{
	struct tableset ts = { 0 };
	struct registry *reg = registry_new();
	const struct quantity *q;
	struct buf want = BUF_INIT;

	(void)state;
	put("schema.csv", catalogue);
	put("values.csv", "name,value,unit,source\n"
	    "box.mass,2,kg,weighed\n"
	    "box.count,3,,counted\n");
	capture_start();
	assert_int_equal(rows_values(reg, &ts, dir,
				     schema_find(&ts, dir, "values.csv")), 0);
	assert_captured("");
	q = registry_get(reg, "box.mass");
	assert_near(q->value, 2, 0);
	assert_string_equal(q->unit, "kg");
	assert_string_equal(q->source, "weighed");
	assert_non_null(registry_get(reg, "box.count"));
	registry_free(reg);
	tableset_release(&ts);
	/* A name twice, a unit no one knows: each at its cell. */
	put("values.csv", "name,value,unit,source\n"
	    "box.mass,2,kg,weighed\n"
	    "box.mass,3,kg,again\n"
	    "box.len,3,furlong,x\n");
	reg = registry_new();
	err(&want, "values.csv", "3:1", "column 'name': duplicate name "
	    "'box.mass'");
	err(&want, "values.csv", "4:11", "column 'unit': unknown unit "
	    "'furlong'");
	capture_start();
	assert_int_equal(rows_values(reg, &ts, dir,
				     schema_find(&ts, dir, "values.csv")), -1);
	assert_captured_messages(want.data);
	buf_release(&want);
	registry_free(reg);
	tableset_release(&ts);
}

/*
 * A dated file without ids as rows to range over: its cells by their
 * names, the year and middle of each row's date, empty cells none, the
 * rows of the edition only.
 */
static void
test_source(void **state)
{
	struct tableset ts = { 0 };
	struct rows_source *src;
	struct expr_rows rows;
	struct value v = { 0 };
	struct buf org = BUF_INIT;

	(void)state;
	put("schema.csv", catalogue);
	put("lists.csv", "list,system,power\n"
	    "2008-06,Alpha,2e6\n2009-06,Beta,\n2030-06,Late,1\n");
	capture_start();
	src = rows_source(&ts, dir, schema_find(&ts, dir, "lists.csv"), 2026);
	assert_non_null(src);
	rows_source_expr(src, &rows);
	assert_int_equal(rows.n, 2);
	assert_int_equal(rows.get(rows.ctx, 0, "power", &v), 0);
	assert_near(v.num, 2e6, 0);
	assert_string_equal(v.utext, "W");
	value_release(&v);
	assert_int_equal(rows.get(rows.ctx, 1, "power", &v), 1);
	assert_int_equal(rows.get(rows.ctx, 1, "power", NULL), 1);
	assert_int_equal(rows.get(rows.ctx, 1, "system", &v), 0);
	assert_string_equal(v.text, "Beta");
	value_release(&v);
	assert_int_equal(rows.get(rows.ctx, 0, "year", &v), 0);
	assert_near(v.num, 2008, 0);
	value_release(&v);
	assert_int_equal(rows.get(rows.ctx, 0, "time", &v), 0);
	assert_near(v.num, 2008 + 5.5 / 12, 1e-15);
	value_release(&v);
	assert_int_equal(rows.get(rows.ctx, 0, "list", &v), 0);
	assert_string_equal(v.text, "2008-06");
	value_release(&v);
	assert_int_equal(rows.get(rows.ctx, 0, "nosuch", &v), 2);
	assert_string_equal(rows.where(rows.ctx, 1, &org), v.source ?
			    v.source : table_name(schema_load(&ts, dir,
							      "lists.csv")));
	assert_string_equal(org.data + strlen(org.data) - 11, "lists.csv:3");
	assert_captured("");
	rows_source_free(src);
	buf_release(&org);
	tableset_release(&ts);
}

/* Runs the catalogue over the files as written, wanting exactly want. */
static void
catalogue_fails(const char *want)
{
	struct tableset ts = { 0 };
	const struct schema_file *v;
	size_t n;

	capture_start();
	assert_int_equal(schema_catalogue(&ts, dir, &v, &n), -1);
	assert_captured_messages(want);
	tableset_release(&ts);
}

/* Bad catalogues: each at its cell. */
static void
test_bad_catalogue(void **state)
{
	struct buf want = BUF_INIT;

	(void)state;
	put("schema.csv", "file,column,kind,unit,required\n"
	    "bench.csv,id,id,,yes\n"
	    "bench.csv,score,number,furlong,yes\n"
	    "bench.csv,name,text,kg,yes\n"
	    "bench.csv,size,bignum,,yes\n"
	    "bench.csv,when,year,,maybe\n"
	    "bench.csv,id,text,,yes\n"
	    "Bench.csv,x,text,,yes\n"
	    "other.csv,,table,,\n");
	err(&want, "schema.csv", "3:24", "column 'unit': unknown unit "
	    "'furlong'");
	err(&want, "schema.csv", "4:21", "column 'unit': a unit is for a "
	    "number column, not for one of kind 'text'");
	err(&want, "schema.csv", "5:16", "column 'kind': unknown kind "
	    "'bignum': expected id, year, month, number or text");
	err(&want, "schema.csv", "6:22", "column 'required': expected 'yes', "
	    "'column' or 'no', got 'maybe'");
	err(&want, "schema.csv", "7:11", "column 'column': duplicate column "
	    "'id' of 'bench.csv'");
	err(&want, "schema.csv", "8:1", "column 'file': 'Bench.csv' is not a "
	    "data file name: NAME.csv, NAME of a-z, 0-9 and _, not "
	    "schema.csv");
	err(&want, "schema.csv", "9:12", "column 'kind': unknown kind of "
	    "file 'table': expected rows, values, claims or references");
	catalogue_fails(want.data);
	buf_reset(&want);
	/* A file's checks: one id, one date, names, the engine's columns. */
	put("schema.csv", "file,column,kind,unit,required,name\n"
	    "bench.csv,id,id,,yes,\n"
	    "bench.csv,key,id,,yes,\n"
	    "bench.csv,year,year,,yes,\n"
	    "bench.csv,when,month,,yes,\n"
	    "bench.csv,a,number,,yes,x\n"
	    "bench.csv,b,number,,yes,x\n"
	    "values.csv,,values,,,\n"
	    "values.csv,name,text,,yes,\n");
	err(&want, "schema.csv", "3:15", "column 'kind': 'bench.csv' has an "
	    "id column already: one at most");
	err(&want, "schema.csv", "5:16", "column 'kind': 'bench.csv' has a "
	    "date column already: one at most");
	err(&want, "schema.csv", "7:25", "column 'name': 'a' and 'b' of "
	    "'bench.csv' would name one quantity, 'x'");
	err(&want, "schema.csv", "8:1", "column 'file': a values file declares "
	    "the column 'value' (number, not 'no'): the engine reads it");
	err(&want, "schema.csv", "8:1", "column 'file': a values file declares "
	    "the column 'unit' (text, not 'no'): the engine reads it");
	err(&want, "schema.csv", "8:1", "column 'file': a values file declares "
	    "the column 'source' (text, not 'no'): the engine reads it");
	catalogue_fails(want.data);
	buf_release(&want);
}

/* Bad data in a catalogued file: each at its cell. */
static void
test_bad_rows(void **state)
{
	struct tableset ts = { 0 };
	struct registry *reg;
	struct buf want = BUF_INIT;

	(void)state;
	put("schema.csv", catalogue);
	put("bench.csv", "id,year,mass,vendor\na,2010,1,x\n");
	err(&want, "bench.csv", "1:1", "missing required column 'score_ops'");
	reg = registry_new();
	capture_start();
	assert_int_equal(rows_add(reg, &ts, dir, schema_find(&ts, dir,
				  "bench.csv"), 2026, NULL, NULL), -1);
	assert_captured_messages(want.data);
	registry_free(reg);
	tableset_release(&ts);
	buf_reset(&want);
	put("bench.csv", "id,year,score_ops,vendor\nb,2010,1,x\nb,2011,2,y\n");
	err(&want, "bench.csv", "3:1", "column 'id': duplicate id 'b' (first "
	    "on line 2)");
	reg = registry_new();
	capture_start();
	assert_int_equal(rows_add(reg, &ts, dir, schema_find(&ts, dir,
				  "bench.csv"), 2026, NULL, NULL), -1);
	assert_captured_messages(want.data);
	registry_free(reg);
	tableset_release(&ts);
	buf_release(&want);
}

/* A file whose prefix is a group the model has: an error, no rows. */
static void
test_taken_prefix(void **state)
{
	struct tableset ts = { 0 };
	struct registry *reg = registry_new();
	struct buf want = BUF_INIT;

	(void)state;
	put("schema.csv", catalogue);
	put("bench.csv", "id,year,score_ops,vendor\na,2010,1,x\n");
	registry_add_num(reg, "machine.top", 1, "", "x", NULL, "s", NULL);
	buf_addf(&want, "ultimate: error: %s/bench.csv: its rows would be "
		 "machine.<id>.*, and the model has quantities called "
		 "machine.* already: give the file another prefix in the "
		 "catalogue (schema.csv)\n", dir);
	capture_start();
	assert_int_equal(rows_add(reg, &ts, dir, schema_find(&ts, dir,
				  "bench.csv"), 2026, NULL, NULL), -1);
	assert_captured_messages(want.data);
	assert_null(registry_get(reg, "machine.a.id"));
	registry_free(reg);
	tableset_release(&ts);
	buf_release(&want);
}

/*
 * The editions: the newest row of the histories (lists.csv, no ids)
 * decides; a thing (bench.csv, ids) dated after it is an error at its
 * date; an edition asked past the newest is the newest, and origin is
 * the newest history row the edition shows.
 */
static void
test_newest(void **state)
{
	struct tableset ts = { 0 }, ts2 = { 0 };
	struct buf origin = BUF_INIT, want = BUF_INIT;
	int year = 0, newest = 0;

	(void)state;
	put("schema.csv", catalogue);
	put("lists.csv", "list,system,power\n2009-06,X,1\n2010-11,Y,\n");
	put("bench.csv", "id,vendor,year,score_ops\na,A,2008,1\nb,B,2010,2\n");
	capture_start();
	assert_int_equal(rows_newest(&ts, dir, &year, &newest, &origin), 0);
	assert_captured("");
	assert_int_equal(newest, 2010);
	assert_int_equal(year, 2010);
	buf_addf(&want, "%s/lists.csv:3", dir);
	assert_string_equal(origin.data, want.data);
	/* The 2009 edition: the list of 2009 decides its year. */
	year = 2009;
	assert_int_equal(rows_newest(&ts, dir, &year, &newest, &origin), 0);
	assert_int_equal(year, 2009);
	buf_reset(&want);
	buf_addf(&want, "%s/lists.csv:2", dir);
	assert_string_equal(origin.data, want.data);
	tableset_release(&ts);
	/* A machine dated after the histories: no edition would show it. */
	put("bench.csv", "id,vendor,year,score_ops\na,A,2008,1\nb,B,2062,2\n");
	buf_reset(&want);
	err(&want, "bench.csv", "3:5", "column 'year': dated 2062, after "
	    "the newest year of the data (2010, in lists.csv): no edition "
	    "would show this row");
	capture_start();
	year = 0;
	assert_int_equal(rows_newest(&ts2, dir, &year, &newest, &origin), -1);
	assert_captured_messages(want.data);
	tableset_release(&ts2);
	buf_release(&origin);
	buf_release(&want);
}

/*
 * The cell a row's quantity comes from, for an error there: a rows
 * file's column by the quantity's name (PREFIX.ID. taken off, year the
 * date), a values file's value or unit, a rows file's unit in the
 * catalogue; 1 for what is no cell.
 */
static void
test_cell_error(void **state)
{
	struct tableset ts = { 0 };
	struct registry *reg = registry_new();
	struct buf want = BUF_INIT, org = BUF_INIT;

	(void)state;
	put("schema.csv", catalogue);
	put("bench.csv", "id,vendor,year,score_ops\na,Acme,2010,5e9\n");
	put("values.csv", "name,value,unit,source\nx.mass,2,kg,here\n");
	capture_start();
	assert_int_equal(rows_add(reg, &ts, dir, schema_find(&ts, dir,
			 "bench.csv"), 0, NULL, NULL), 0);
	assert_int_equal(rows_values(reg, &ts, dir, schema_find(&ts, dir,
			 "values.csv")), 0);
	buf_addf(&org, "%s/bench.csv:2", dir);
	assert_int_equal(rows_cell_error(&ts, dir, org.data,
			 "machine.a.score", 0, "too fast"), 0);
	assert_int_equal(rows_cell_error(&ts, dir, org.data, "year", 0,
			 "too old"), 0);
	assert_int_equal(rows_cell_error(&ts, dir, org.data, "score", 1,
			 "wrong unit"), 0);
	assert_int_equal(rows_cell_error(&ts, dir, org.data, "derived", 0,
			 "x"), 1);
	buf_reset(&org);
	buf_addf(&org, "%s/values.csv:2", dir);
	assert_int_equal(rows_cell_error(&ts, dir, org.data, "x.mass", 0,
			 "too heavy"), 0);
	assert_int_equal(rows_cell_error(&ts, dir, org.data, "x.mass", 1,
			 "not a mass"), 0);
	assert_int_equal(rows_cell_error(&ts, dir, "elsewhere.csv:2",
			 "x.mass", 0, "x"), 1);
	err(&want, "bench.csv", "2:13", "column 'score_ops': too fast");
	err(&want, "bench.csv", "2:8", "column 'year': too old");
	err(&want, "schema.csv", "5:28", "column 'unit': wrong unit");
	err(&want, "values.csv", "2:8", "column 'value': too heavy");
	err(&want, "values.csv", "2:10", "column 'unit': not a mass");
	assert_captured_messages(want.data);
	registry_free(reg);
	tableset_release(&ts);
	buf_release(&want);
	buf_release(&org);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_shipped),
		T(test_columns),
		T(test_none),
		T(test_rows),
		T(test_values),
		T(test_source),
		T(test_bad_catalogue),
		T(test_bad_rows),
		T(test_taken_prefix),
		T(test_newest),
		T(test_cell_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
