/*
 * Unit tests for src/schema.h, the catalogue of the data files, and
 * src/rows.h, the loader of the files data/schema.csv declares. The
 * declarations and data are written to a temporary folder; every error
 * message is compared exactly, file, line and column included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
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
	static const char *const files[] = { "schema.csv", "bench.csv" };
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
 * The file's line under an error, into b, and n carets (one when n is
 * 0) under it from column col.
 */
static void
shown(struct buf *b, const char *line, size_t col, size_t n)
{
	size_t k;

	buf_addf(b, "    %s\n    %*s", line, (int)(col - 1), "");
	for (k = 0; k < (n ? n : 1); k++)
		buf_addch(b, '^');
	buf_addch(b, '\n');
}

/* Each built-in file: one id and one date at most, of the right kinds. */
static void
test_roles(void **state)
{
	size_t i, k;

	(void)state;
	assert_true(schema_count() >= 10);
	for (i = 0; i < schema_count(); i++) {
		const struct table_schema *sc = schema_at(i);
		int ids = 0, dates = 0;

		assert_ptr_equal(schema_of(sc->file), sc);
		for (k = 0; k < sc->ncols; k++) {
			const struct table_column *c = &sc->cols[k];

			if (c->flags & TABLE_COL_ID) {
				ids++;
				assert_int_equal(c->kind, TABLE_KIND_ID);
				assert_false(c->flags & TABLE_COL_OPTIONAL);
			}
			if (c->flags & TABLE_COL_DATE) {
				dates++;
				assert_true(c->kind == TABLE_KIND_YEAR ||
					    c->kind == TABLE_KIND_MONTH);
			}
		}
		assert_true(ids <= 1);
		assert_true(dates <= 1);
	}
	/* The declarations' own schema is found, not listed. */
	assert_non_null(schema_of(SCHEMA_FILE));
	for (i = 0; i < schema_count(); i++)
		assert_ptr_not_equal(schema_at(i), schema_of(SCHEMA_FILE));
	assert_null(schema_of("nosuch.csv"));
}

/* table_col() and table_role() find columns by name and by role. */
static void
test_columns(void **state)
{
	static const char top[] = "list,system,site,rmax_flops,source\n"
		"2008-06,Roadrunner,LANL,1.026e15,top500.org\n";
	static const char dev[] = "id,name,year,kind,fp64_peak_flops,"
		"fp32_peak_flops,hpl_rmax_flops,ram_bytes,storage_bytes,"
		"source\nm,Mac,2008,laptop,1e10,,,1e9,1e11,x\n";
	struct table *t;

	(void)state;
	t = table_parse_schema("top500.csv", top, strlen(top),
			       schema_of("top500.csv"));
	assert_non_null(t);
	assert_int_equal(table_col(t, "rmax_flops"), 3);
	assert_int_equal(table_col(t, "power_w"), -1);	/* optional */
	assert_int_equal(table_role(t, TABLE_COL_DATE), 0);
	assert_int_equal(table_column_of(t, 0)->kind, TABLE_KIND_MONTH);
	assert_int_equal(table_role(t, TABLE_COL_ID), -1);
	table_free(t);
	t = table_parse_schema("devices.csv", dev, strlen(dev),
			       schema_of("devices.csv"));
	assert_non_null(t);
	assert_int_equal(table_role(t, TABLE_COL_ID), 0);
	assert_int_equal(table_role(t, TABLE_COL_DATE), 2);
	assert_int_equal(table_col(t, "source"), 9);
	assert_int_equal(table_col(t, "mass_kg"), -1);
	table_free(t);
}

/* No schema.csv declares nothing; the loader adds nothing. */
static void
test_none(void **state)
{
	struct tableset ts = { 0 };
	const struct table_schema *sc;
	struct registry *reg = registry_new();
	size_t n = 7;

	(void)state;
	capture_start();
	assert_int_equal(schema_declared(&ts, dir, &sc, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(rows_add(reg, &ts, dir, 2026, 2026, "x"), 0);
	assert_captured("");
	assert_int_equal(registry_count(reg), 0);
	registry_free(reg);
	tableset_release(&ts);
}

static const char decl[] =
	"file,column,kind,unit,required,description\n"
	"bench.csv,id,id,,yes,the machine\n"
	"bench.csv,year,year,,yes,\n"
	"bench.csv,score,number,ops/s,yes,its score\n"
	"bench.csv,mass,number,kg,no,\n"
	"bench.csv,vendor,text,,no,who made it\n";

/* Each row as quantities; rows after the edition left out. */
static void
test_rows(void **state)
{
	struct tableset ts = { 0 };
	const struct table_schema *sc;
	struct registry *reg = registry_new();
	const struct quantity *q;
	size_t n;

	(void)state;
	put("schema.csv", decl);
	put("bench.csv", "id,vendor,year,score,mass\n"
	    "a,Acme,2010,5e9,2.5\n"
	    "b,,2012,7,\n"
	    "c,Zed,2020,1e12,1\n");
	capture_start();
	assert_int_equal(schema_declared(&ts, dir, &sc, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sc[0].file, "bench.csv");
	assert_int_equal(sc[0].ncols, 5);
	assert_true(sc[0].cols[0].flags & TABLE_COL_ID);
	assert_true(sc[0].cols[1].flags & TABLE_COL_DATE);
	assert_string_equal(sc[0].cols[2].unit, "ops/s");
	assert_true(sc[0].cols[3].flags & TABLE_COL_OPTIONAL);
	assert_int_equal(rows_add(reg, &ts, dir, 2015, 2020, "t.csv"), 0);
	assert_captured("");
	q = registry_get(reg, "bench.a.id");
	assert_non_null(q);
	assert_int_equal(q->type, Q_TEXT);
	assert_string_equal(q->text, "a");
	q = registry_get(reg, "bench.a.score");
	assert_non_null(q);
	assert_near(q->value, 5e9, 0);
	assert_string_equal(q->unit, "ops/s");
	assert_string_equal(q->note ? q->note : q->formula, "its score");
	q = registry_get(reg, "bench.a.year");
	assert_non_null(q);
	assert_near(q->value, 2010, 0);
	assert_string_equal(q->unit, "year");
	q = registry_get(reg, "bench.a.mass");
	assert_non_null(q);
	assert_string_equal(q->unit, "kg");
	assert_string_equal(registry_get(reg, "bench.a.vendor")->text,
			    "Acme");
	/* Empty cells are no quantities; c is dated after 2015. */
	assert_non_null(registry_get(reg, "bench.b.score"));
	assert_null(registry_get(reg, "bench.b.mass"));
	assert_null(registry_get(reg, "bench.b.vendor"));
	assert_null(registry_get(reg, "bench.c.id"));
	assert_int_equal(registry_count(reg), 5 + 3);
	registry_free(reg);
	tableset_release(&ts);
}

/* Runs the loader over the files as written, wanting exactly want. */
static void
load_fails(const char *want)
{
	struct tableset ts = { 0 };
	struct registry *reg = registry_new();

	capture_start();
	assert_int_equal(rows_add(reg, &ts, dir, 2026, 2026, "t.csv"), -1);
	assert_captured(want);
	registry_free(reg);
	tableset_release(&ts);
}

/* Bad declarations: each at its cell. */
static void
test_bad_declarations(void **state)
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
	    "devices.csv,x,text,,yes\n"
	    "other.csv,x,text,,yes\n"
	    "bench.csv,key,id,,yes\n"
	    "other.csv,year,number,,yes\n"
	    "bench.csv,year,number,yr,no\n"
	    "bench.csv,date,year,,yes\n");
	err(&want, "schema.csv", "3:24", "column 'unit': unknown unit "
	    "'furlong'");
	shown(&want, "bench.csv,score,number,furlong,yes", 24, 7);
	err(&want, "schema.csv", "4:21", "column 'unit': a unit is for a "
	    "number column, not for one of kind 'text'");
	shown(&want, "bench.csv,name,text,kg,yes", 21, 2);
	err(&want, "schema.csv", "5:16", "column 'kind': unknown kind "
	    "'bignum': expected id, year, month, number or text");
	shown(&want, "bench.csv,size,bignum,,yes", 16, 6);
	err(&want, "schema.csv", "6:22", "column 'required': expected 'yes' "
	    "or 'no', got 'maybe'");
	shown(&want, "bench.csv,when,year,,maybe", 22, 5);
	err(&want, "schema.csv", "7:11", "column 'column': duplicate column "
	    "'id' of 'bench.csv' (first on line 2)");
	shown(&want, "bench.csv,id,text,,yes", 11, 2);
	err(&want, "schema.csv", "8:1", "column 'file': 'Bench.csv' is not a "
	    "data file name: NAME.csv, NAME of a-z, 0-9 and _");
	shown(&want, "Bench.csv,x,text,,yes", 1, 9);
	err(&want, "schema.csv", "9:1", "column 'file': 'devices.csv' is a "
	    "built-in data file: its columns are in src/schema.c (ultimate "
	    "datasets --tables)");
	shown(&want, "devices.csv,x,text,,yes", 1, 11);
	err(&want, "schema.csv", "11:15", "column 'kind': 'bench.csv' has an "
	    "id column already ('id', line 2): one at most");
	shown(&want, "bench.csv,key,id,,yes", 15, 2);
	err(&want, "schema.csv", "13:11", "column 'column': 'year' of "
	    "'bench.csv' would name the same quantity as the row's year, "
	    "of its date");
	shown(&want, "bench.csv,year,number,yr,no", 11, 4);
	err(&want, "schema.csv", "10:1", "column 'file': 'other.csv' "
	    "declares no column of kind 'id': one column names its rows");
	shown(&want, "other.csv,x,text,,yes", 1, 9);
	load_fails(want.data);
	buf_release(&want);
}

/* Bad data in a declared file: each at its cell. */
static void
test_bad_rows(void **state)
{
	struct buf want = BUF_INIT;

	(void)state;
	put("schema.csv", decl);
	put("bench.csv", "id,year,mass\na,2010,1\n");
	err(&want, "bench.csv", "1:1", "missing required column 'score'");
	shown(&want, "id,year,mass", 1, 0);
	load_fails(want.data);
	buf_reset(&want);
	put("bench.csv", "id,year,score\na,2010,fast\n");
	err(&want, "bench.csv", "2:8", "column 'score': expected a number, "
	    "got 'fast'");
	shown(&want, "a,2010,fast", 8, 4);
	load_fails(want.data);
	buf_reset(&want);
	put("bench.csv", "id,year,score\nb,2010,1\nb,2011,2\nc,2031,1\n");
	err(&want, "bench.csv", "3:1", "column 'id': duplicate id 'b' (first on line 2)");
	shown(&want, "b,2011,2", 1, 1);
	err(&want, "bench.csv", "4:3", "column 'year': dated 2031, after the "
	    "newest year of the data (2026, in t.csv): no edition would "
	    "show this row");
	shown(&want, "c,2031,1", 3, 4);
	load_fails(want.data);
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
	put("schema.csv", decl);
	put("bench.csv", "id,year,score\na,2010,1\n");
	registry_add_num(reg, "bench.top", 1, "", "x", NULL, "s", NULL);
	err(&want, "schema.csv", "2:1", "column 'file': 'bench.csv' would "
	    "name its rows bench.<id>.*, and the model has quantities "
	    "called bench.* already: name the file otherwise");
	shown(&want, "bench.csv,id,id,,yes,the machine", 1, 9);
	capture_start();
	assert_int_equal(rows_add(reg, &ts, dir, 2026, 2026, "t.csv"), -1);
	assert_captured(want.data);
	assert_null(registry_get(reg, "bench.a.id"));
	registry_free(reg);
	tableset_release(&ts);
	/* The audit's claim.* come after the model: taken all the same. */
	put("schema.csv", "file,column,kind,unit,required\n"
	    "claim.csv,id,id,,yes\n");
	buf_reset(&want);
	err(&want, "schema.csv", "2:1", "column 'file': 'claim.csv' would "
	    "name its rows claim.<id>.*, and the model has quantities "
	    "called claim.* already: name the file otherwise");
	shown(&want, "claim.csv,id,id,,yes", 1, 9);
	load_fails(want.data);
	buf_release(&want);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_roles),
		T(test_columns),
		T(test_none),
		T(test_rows),
		T(test_bad_declarations),
		T(test_bad_rows),
		T(test_taken_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
