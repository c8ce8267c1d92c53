/*
 * The model document's generic providers (src/modelrows.c, the checks
 * of src/modeleval.c): sets of rows over a data file's rows (here an
 * in-memory file, "lists"), trends fitted to them, datasets for the
 * figures, checks located at the definition, "with", families named by
 * their rows and symbol patterns. Each error message is compared
 * exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "buf.h"
#include "dataset.h"
#include "expr.h"
#include "modeldoc.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"

static char path[64];

static struct modeldoc *
load(const char *text)
{
	strcpy(path, "/tmp/modelrows-XXXXXX");
	write_temp(path, text, strlen(text));
	return modeldoc_load(path);
}

/*
 * The data file "lists": a system's rate each year, with a power on
 * some; the system M1 on two lists in a row. Rates double each year
 * (M0 to M3), then stall; row 3 has no power.
 */
static const struct {
	const char *system;
	int year;
	double rate, power;
} lists[] = {
	{ "M0", 2000, 1e12, 2e6 },
	{ "M1", 2001, 2e12, 3e6 },
	{ "M1", 2002, 4e12, 3e6 },
	{ "M2", 2003, 8e12, -1 },
	{ "M3", 2004, 8e12, 4e6 },
	{ "M3", 2005, 1.6e13, 5e6 },
};
#define NLISTS (sizeof(lists) / sizeof(lists[0]))
static size_t as_of_rows = NLISTS;	/* the edition's rows */
/* Their numbers in the file (expr_rows' ids), or NULL. */
static const size_t *lists_ids;
/* A row whose rate reads a thousandth of the table's (test_memo()). */
static size_t sunk = SIZE_MAX;
/* A row without a date (test_errors()), or SIZE_MAX. */
static size_t undated = SIZE_MAX;

static int
lists_get(void *ctx, size_t i, const char *rest, struct value *out)
{
	const char *unit;
	double v;

	(void)ctx;
	if (strcmp(rest, "system") && strcmp(rest, "year") &&
	    strcmp(rest, "time") && strcmp(rest, "rate") &&
	    strcmp(rest, "power"))
		return 2;
	if (i >= as_of_rows || (!strcmp(rest, "power") && lists[i].power < 0))
		return 1;
	if (i == undated && (!strcmp(rest, "year") || !strcmp(rest, "time")))
		return 1;
	if (!out)
		return 0;
	memset(out, 0, sizeof(*out));
	if (!strcmp(rest, "system")) {
		out->type = VALUE_TEXT;
		out->text = strdup(lists[i].system);
		return 0;
	}
	unit = !strcmp(rest, "rate") ? "FLOP/s" : !strcmp(rest, "power") ?
	       "W" : "year";
	v = !strcmp(rest, "rate") ? lists[i].rate : !strcmp(rest, "power") ?
	    lists[i].power : lists[i].year + (!strcmp(rest, "time") ? 0.5 : 0);
	if (i == sunk && !strcmp(rest, "rate"))
		v /= 1e3;
	out->type = VALUE_NUMBER;
	out->num = v;
	assert_int_equal(unit_parse(unit, &out->unit, NULL), 0);
	out->utext = unit;
	return 0;
}

static const char *
lists_where(void *ctx, size_t i, struct buf *origin)
{
	(void)ctx;
	buf_addf(origin, "lists.csv:%zu", i + 2);
	return "the lists";
}

static void
lists_names(void *ctx, struct suggest *sg)
{
	(void)ctx;
	suggest_add(sg, "system");
	suggest_add(sg, "rate");
	suggest_add(sg, "power");
}

static int
file_rows(void *ctx, const char *prefix, struct expr_rows *out)
{
	(void)ctx;
	if (strcmp(prefix, "lists"))
		return 1;
	*out = (struct expr_rows){ as_of_rows, NULL, lists_get, lists_where,
				   lists_names, "lists.csv", "lists.csv",
				   lists_ids };
	return 0;
}

/* A provider of two registry rows, box.a (2 kg) and box.b (3 kg). */
static int
give_boxes(void *ctx)
{
	struct registry *reg = ctx;

	registry_add_text(reg, "box.a.id", "a", "row", NULL, "test",
			  "boxes.csv:2");
	registry_add_num(reg, "box.a.mass", 2, "kg", "data", NULL, "test",
			 NULL);
	registry_add_text(reg, "box.b.id", "b", "row", NULL, "test",
			  "boxes.csv:3");
	registry_add_num(reg, "box.b.mass", 3, "kg", "data", NULL, "test",
			 NULL);
	return 0;
}

static const struct modeldoc_provider providers[] = {
	{ "boxes", give_boxes },
	{ NULL, NULL },
};

/* Runs text into a new registry: its result into *ret, messages want. */
static struct registry *
run(const char *text, struct datasets *ds, const char *want, int *ret)
{
	struct modeldoc *doc;
	struct registry *reg = registry_new();
	struct modeldoc_eval ev = { 0 };
	char *got;
	size_t at;

	diag_reset();
	capture_start();
	doc = load(text);
	assert_non_null(doc);
	ev = (struct modeldoc_eval){ .doc = doc, .reg = reg,
		.providers = providers, .ctx = reg, .file_rows = file_rows,
		.ds = ds };
	*ret = modeldoc_run(&ev);
	got = capture_end();
	/*
	 * The message's first line, after the document's name (want
	 * starts at the line number); its source line follows.
	 */
	at = *want && !strncmp(got, path, strlen(path)) ? strlen(path) + 1 : 0;
	if ((!*want && *got) || strncmp(got + at, want, strlen(want)))
		fail_msg("stderr was:\n%s\nwanted:\n%s", got, want);
	free(got);
	modeldoc_free(doc);
	unlink(path);
	return reg;
}

static double
num(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	if (!q)
		fail_msg("no quantity '%s'", name);
	return q->value;
}

/*
 * A set of rows: its source's rows where COND holds, with a value and a
 * label; a row of the family over its prefix (NAME.id); reductions over
 * it, one row's value keeping its data row.
 */
static void
test_rows(void **state)
{
	struct registry *reg;
	const struct quantity *q;
	int ret;

	(void)state;
	reg = run("```define\n"
		  "set.fast = rows r in lists where r.rate > 1.5e12\n"
		  "  value: r.rate\n  label: r.system\n  note: the fast ones\n"
		  "\nn = count(r in set.fast)\n  unit:\n"
		  "\nlast_label = last(r in set.fast: r.label)\n  unit:\n"
		  "\nfirst_rate = first(r in set.fast: r.value)\n  unit: *\n"
		  "\nsystems = count(r in lists distinct r.system)\n  unit:\n"
		  "\nmoved = count(r in lists where has(r.prev.system) && "
		  "r.system != r.prev.system)\n  unit:\n```\n", NULL, "", &ret);
	assert_int_equal(ret, 0);
	q = registry_get(reg, "set.fast.id");
	assert_non_null(q);
	assert_string_equal(q->text, "fast");
	assert_near(num(reg, "n"), 5, 0);
	assert_string_equal(registry_get(reg, "last_label")->text, "M3");
	q = registry_get(reg, "first_rate");
	assert_near(q->value, 2e12, 0);
	assert_string_equal(q->unit, "FLOP/s");
	/* One row's value: that row's origin and source. */
	assert_string_equal(q->origin, "lists.csv:3");
	assert_string_equal(q->source, "the lists");
	/* A count: the file it counted. */
	assert_string_equal(registry_get(reg, "n")->source, "lists.csv");
	assert_near(num(reg, "systems"), 4, 0);
	assert_near(num(reg, "moved"), 3, 0);
	registry_free(reg);
}

/*
 * "records by KEY": of each year the row with the largest key, kept
 * when it is at least every row kept before.
 */
static void
test_records(void **state)
{
	struct registry *reg;
	int ret;

	(void)state;
	reg = run("```define\n"
		  "rec = rows r in lists records by r.rate\n  value: r.rate\n"
		  "\nn = count(r in rec)\n  unit:\n"
		  "\nstall = count(r in rec where r.year == 2004)\n  unit:\n"
		  "```\n", NULL, "", &ret);
	assert_int_equal(ret, 0);
	/* 2004 ties 2003's 8e12: kept (at least every row before). */
	assert_near(num(reg, "n"), 6, 0);
	assert_near(num(reg, "stall"), 1, 0);
	registry_free(reg);
}

/*
 * A trend: least squares of log2 of the value against time, over a
 * window of years, with "needs:" N points over Y years or none.
 */
static void
test_trend(void **state)
{
	struct registry *reg;
	const struct quantity *q;
	int ret;

	(void)state;
	reg = run("```define\n"
		  "set = rows r in lists\n  value: r.rate\n"
		  "\nfit.early = trend r in set to 2003\n"
		  "  needs: 3 points, 3 years\n"
		  "\nfit.late = trend r in set from 2004\n"
		  "  needs: 3 points, 3 years\n"
		  "\nfit.power = trend r in lists of r.power where "
		  "has(r.power)\n"
		  "\nfit.machines = trend r in set distinct r.system\n"
		  "```\n", NULL, "", &ret);
	assert_int_equal(ret, 0);
	/* 2000-2003: a doubling a year, exactly. */
	assert_near(num(reg, "fit.early.slope"), 1, 1e-12);
	assert_near(num(reg, "fit.early.r2"), 1, 1e-12);
	assert_near(num(reg, "fit.early.n"), 4, 0);
	assert_near(num(reg, "fit.early.from"), 2000, 0);
	assert_near(num(reg, "fit.early.to"), 2003, 0);
	/* The line at the window's last calendar year: 2003.0, not 2003.5. */
	q = registry_get(reg, "fit.early.value_to");
	assert_near(q->value, 8e12 / sqrt(2), 1e-12);
	assert_string_equal(q->unit, "FLOP/s");
	assert_string_equal(q->source, "lists.csv");
	/* Two points are no trend by the rule: none. */
	assert_null(registry_get(reg, "fit.late.n"));
	/* Without "needs:", two points make a line; the empty one left out. */
	assert_near(num(reg, "fit.power.n"), 5, 0);
	assert_string_equal(registry_get(reg, "fit.power.value_to")->unit,
			    "W");
	/* Each system once: its first list. */
	assert_near(num(reg, "fit.machines.n"), 4, 0);
	registry_free(reg);
}

/*
 * A set's value is evaluated once a row and kept: read again by two
 * trends and two counts, a row without one stays without one, and an
 * edition with fewer rows (a new run) sees only its own.
 */
static void
test_value_kept(void **state)
{
	struct registry *reg;
	int ret;

	(void)state;
	reg = run("```define\n"
		  "pset = rows r in lists\n  value: r.power\n"
		  "\nall = trend r in pset\n"
		  "\nlate = trend r in pset from 2001\n"
		  "\nn = count(r in pset where has(r.value))\n  unit:\n"
		  "\nbig = count(r in pset where has(r.value) && "
		  "r.value > 3e6)\n  unit:\n"
		  "```\n", NULL, "", &ret);
	assert_int_equal(ret, 0);
	/* Row 3 (2003) has no power: five points, four from 2001. */
	assert_near(num(reg, "all.n"), 5, 0);
	assert_near(num(reg, "late.n"), 4, 0);
	assert_near(num(reg, "n"), 5, 0);
	assert_near(num(reg, "big"), 2, 0);
	assert_string_equal(registry_get(reg, "all.value_to")->unit, "W");
	registry_free(reg);
	/* Read unguarded after a trend kept it, the empty row still says so. */
	reg = run("```define\n"
		  "pset = rows r in lists\n  value: r.power\n"
		  "\nall = trend r in pset\n"
		  "\nbig = count(r in pset where r.value > 3e6)\n  unit:\n"
		  "```\n", NULL, "7:29: error: 'r.value' has no value in the "
		  "row of lists.csv:5 (an empty cell: guard it with "
		  "has(r.value))", &ret);
	assert_int_not_equal(ret, 0);
	registry_free(reg);
	as_of_rows = 3;
	reg = run("```define\n"
		  "pset = rows r in lists\n  value: r.power\n"
		  "\nn = count(r in pset where has(r.value))\n  unit:\n"
		  "\nall = trend r in pset\n"
		  "```\n", NULL, "", &ret);
	as_of_rows = NLISTS;
	assert_int_equal(ret, 0);
	assert_near(num(reg, "n"), 3, 0);
	assert_near(num(reg, "all.n"), 3, 0);
	registry_free(reg);
}

/* Datasets: a range, a set's rows, a family's rows with placed labels. */
static void
test_data(void **state)
{
	struct datasets ds = { 0 };
	const struct dataset *d;
	struct registry *reg;
	int ret;

	(void)state;
	reg = run("```define\ncall boxes\n\nk = 2\n  unit: kg\n```\n\n"
		  "```define\ndata line for x in linspace(1, 3, 5)\n"
		  "  unit: m\n  note: a line\n"
		  "at = x\ndouble = 2 * x\n  unit: m\n```\n\n"
		  "```define\ndata pts for r in lists where has(r.power) "
		  "by -r.rate\n"
		  "year = r.time\nrate = r.rate\nlabel = r.system\n```\n\n"
		  "```define\ndata boxes for b in box\n"
		  "  place: mass, mass where b.mass > 2.5\n"
		  "mass = b.mass\nlabel = b.id\n```\n", &ds, "", &ret);
	assert_int_equal(ret, 0);
	d = datasets_get(&ds, "line");
	assert_non_null(d);
	assert_string_equal(d->what, "a line");
	assert_int_equal(d->ncols, 2);
	assert_int_equal(d->nrows, 5);
	assert_string_equal(d->units[0], "m");
	assert_near(d->vals[2 * 2], 2, 1e-15);
	assert_near(d->vals[2 * 4 + 1], 6, 1e-15);
	d = datasets_get(&ds, "pts");
	assert_int_equal(d->nrows, 5);
	/* By the rate, falling: M3's last list first; FLOP/s, labels. */
	assert_near(d->vals[1], 1.6e13, 0);
	assert_string_equal(d->units[1], "FLOP/s");
	assert_string_equal(d->labels[0], "M3");
	d = datasets_get(&ds, "boxes");
	assert_int_equal(d->ncols, 3);
	assert_string_equal(d->cols[1], "label_mass");
	/* The placed row first (b), its label's place set; a's missing. */
	assert_string_equal(d->labels[0], "b");
	assert_true(isfinite(d->vals[1]));
	assert_string_equal(d->labels[1], "a");
	assert_true(isnan(d->vals[3 + 1]));
	datasets_release(&ds);
	registry_free(reg);
}

/*
 * Checks: on a definition, a declaration (for every row of a family),
 * a set's rows; each error at the check, with the row and the values.
 */
static void
test_checks(void **state)
{
	struct buf want = BUF_INIT;
	struct registry *reg;
	int ret;

	(void)state;
	buf_addf(&want, "9:10: error: row box.b (boxes.csv:3): this check "
		 "fails: a box is light (box.b.mass = 3)\n");
	reg = run("```define\ncall boxes\n```\n\n```define\nfor b in box\n"
		  "b.mass\n  unit: kg\n  check: b.mass < 2.5: a box is light\n"
		  "```\n", NULL, want.data, &ret);
	registry_free(reg);
	buf_reset(&want);
	buf_addf(&want, "4:10: error: this check fails: a square is "
		 "small (x = 4)\n");
	reg = run("```define\nx = 2^2\n  unit:\n  check: x < 3: a square is "
		  "small\n```\n", NULL, want.data, &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	buf_reset(&want);
	buf_addf(&want, "3:10: error: the row of lists.csv:6: this check "
		 "fails: rates grow (has(r.prev.rate) = 1, r.rate = 8e+12, "
		 "r.prev.rate = 8e+12)\n");
	reg = run("```define\nset = rows r in lists\n"
		  "  check: !has(r.prev.rate) || r.rate > r.prev.rate: rates "
		  "grow\n```\n", NULL, want.data, &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	buf_release(&want);
}

/* Evaluates doc with memo into a registry thrown away: 0 or -1. */
static int
run_with_memo(const struct modeldoc *doc, struct modeldoc_memo *memo)
{
	struct registry *reg = registry_new();
	struct modeldoc_eval ev = { .doc = doc, .reg = reg,
		.providers = providers, .ctx = reg, .file_rows = file_rows,
		.memo = memo };
	int ret;

	diag_reset();
	capture_start();
	ret = modeldoc_run(&ev);
	free(capture_end());
	registry_free(reg);
	return ret;
}

/*
 * A run's memo (modeldoc.h): the rows a set's checks held for are not
 * checked again by an evaluation whose rows begin with them (seen here
 * by a row that changed in between: the memo trusts that a row of a
 * run is the same row); rows in another order are, and so are checks
 * that read a quantity, and the rows of another document.
 */
static void
test_memo(void **state)
{
	static const size_t ids[] = { 0, 1, 2, 3, 4, 5 }, other[] = { 0, 2, 3 };
	struct modeldoc_memo *memo = modeldoc_memo_new();
	struct modeldoc *grow, *high;

	(void)state;
	grow = load("```define\nset = rows r in lists\n  check: "
		    "!has(r.prev.rate) || r.rate >= r.prev.rate: rates grow\n"
		    "```\n");
	unlink(path);
	high = load("```define\nlow = 1e11\n  unit: FLOP/s\n\n"
		     "set = rows r in lists\n  check: r.rate > low: rates "
		     "are high\n```\n");
	unlink(path);
	assert_non_null(grow);
	assert_non_null(high);
	lists_ids = ids;
	assert_int_equal(run_with_memo(grow, memo), 0);
	/* Row 2 falls below row 1: the first four rows are not checked. */
	sunk = 2;
	as_of_rows = 4;
	assert_int_equal(run_with_memo(grow, memo), 0);
	assert_int_equal(run_with_memo(grow, NULL), -1);
	/* Rows 0, 2 and 3 of the file: row 2 has another row before it. */
	lists_ids = other;
	as_of_rows = 3;
	assert_int_equal(run_with_memo(grow, memo), -1);
	/* A check that reads a quantity is made each time. */
	lists_ids = ids;
	sunk = SIZE_MAX;
	as_of_rows = NLISTS;
	assert_int_equal(run_with_memo(high, memo), 0);
	sunk = 2;
	as_of_rows = 4;
	assert_int_equal(run_with_memo(high, memo), -1);
	/* Another document: what the first kept is not its. */
	sunk = SIZE_MAX;
	as_of_rows = NLISTS;
	assert_int_equal(run_with_memo(grow, memo), 0);
	assert_int_equal(run_with_memo(high, memo), 0);
	sunk = 2;
	as_of_rows = 4;
	assert_int_equal(run_with_memo(grow, memo), -1);
	sunk = SIZE_MAX;
	as_of_rows = NLISTS;
	lists_ids = NULL;
	modeldoc_free(grow);
	modeldoc_free(high);
	modeldoc_memo_free(memo);
}

/*
 * "with": a definition evaluated at other inputs, what follows from
 * them computed again by each quantity's own formula.
 */
static void
test_with(void **state)
{
	struct registry *reg;
	int ret;

	(void)state;
	reg = run("```define\nm = 2\n  unit: kg\n\nc = 3\n  unit: m/s\n\n"
		  "e = m * c^2\n  unit: J\n\nhalf = e / 2\n  unit: J\n\n"
		  "light = half with m = 1\n  unit: J\n\n"
		  "slow = half with c = 1, m = 4\n  unit: J\n```\n", NULL, "",
		  &ret);
	assert_int_equal(ret, 0);
	assert_near(num(reg, "half"), 9, 1e-15);
	assert_near(num(reg, "light"), 4.5, 1e-15);
	assert_near(num(reg, "slow"), 2, 1e-15);
	registry_free(reg);
}

/*
 * A family named by its rows' last part ("{b}"), reading other rows by
 * it; a text by if(); a symbol pattern for every name it matches.
 */
static void
test_family_names(void **state)
{
	struct registry *reg;
	int ret;

	(void)state;
	reg = run("```define\ncall boxes\n\nbox.a.twin = 5\n  unit: kg\n```\n\n"
		  "```define\nfor b in box\n"
		  "sum.{b}.mass = b.mass + box.{b}.twin\n"
		  "  when: has(box.{b}.twin)\n  unit: kg\n\n"
		  "b.heavy = if(b.mass > 2.5, \"heavy\", \"light\")\n"
		  "  unit:\n```\n\n"
		  "```define\nbox.*.mass\n  symbol: m_b\n```\n", NULL, "",
		  &ret);
	assert_int_equal(ret, 0);
	assert_near(num(reg, "sum.a.mass"), 7, 0);
	assert_null(registry_get(reg, "sum.b.mass"));
	assert_string_equal(registry_get(reg, "box.a.heavy")->text, "light");
	assert_string_equal(registry_get(reg, "box.b.heavy")->text, "heavy");
	assert_string_equal(registry_get(reg, "box.b.mass")->symbol, "m_b");
	assert_string_equal(registry_get(reg, "box.b.mass")->row, "b");
	registry_free(reg);
}

/* Located mistakes in the new constructs. */
static void
test_errors(void **state)
{
	struct buf want = BUF_INIT;
	struct registry *reg;
	int ret;

	(void)state;
	buf_addf(&want, "2:17: error: unknown rows 'list': no data file "
		 "has that prefix in the catalogue, and no 'list = rows ...' "
		 "of the document names it; did you mean 'set'?\n");
	reg = run("```define\nset = rows r in list\n```\n", NULL, want.data,
		  &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	buf_reset(&want);
	buf_addf(&want, "2:28: error: 'r.rat' names nothing of the rows "
		 "of lists.csv: no 'rat'; did you mean 'rate'?\n");
	reg = run("```define\nn = count(r in lists where r.rat > 0)\n  unit:\n"
		  "```\n", NULL, want.data, &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	buf_reset(&want);
	buf_addf(&want, "2:5: error: a trend fits the logarithm of its "
		 "values, and the row of lists.csv:2 gives one not above "
		 "zero\n");
	reg = run("```define\nt = trend r in lists of r.rate - r.rate\n```\n",
		  NULL, want.data, &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	/* A row without a date, in a file's rows and in a set's. */
	undated = 4;
	buf_reset(&want);
	buf_addf(&want, "2:16: error: a trend needs rows with a date, and "
		 "lists.csv has none\n");
	reg = run("```define\nt = trend r in lists from 2003 of r.rate\n"
		  "```\n", NULL, want.data, &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	buf_reset(&want);
	buf_addf(&want, "5:16: error: a trend needs rows with a date, and "
		 "set (lists.csv) has none\n");
	reg = run("```define\nset = rows r in lists\n  value: r.rate\n\n"
		  "t = trend r in set from 2003\n```\n", NULL, want.data,
		  &ret);
	assert_int_equal(ret, -1);
	registry_free(reg);
	undated = SIZE_MAX;
	buf_release(&want);
}

/*
 * dataset_shows(): at most max rows, the first and the last among them,
 * more than half of max when there are more; shown again, all are kept.
 */
static void
test_shows(void **state)
{
	static const size_t maxes[] = { 2, 3, 7, 2000 };
	size_t i, n, r, kept, again;

	(void)state;
	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		size_t max = maxes[i];

		for (n = 1; n < 50 * max; n += n < 3 * max ? 1 : 97) {
			kept = 0;
			for (r = 0; r < n; r++)
				kept += dataset_shows(r, n, max) != 0;
			if (kept > max || (n <= max && kept != n) ||
			    (n > max && kept <= max / 2) ||
			    !dataset_shows(0, n, max) ||
			    !dataset_shows(n - 1, n, max))
				fail_msg("n %zu, max %zu: %zu rows", n, max, kept);
			for (again = 0, r = 0; r < kept; r++)
				again += dataset_shows(r, kept, max) != 0;
			assert_int_equal(again, kept);
		}
	}
	/* The case that was thinned twice: 100,000 rows, 2,000 shown. */
	for (kept = 0, r = 0; r < 100000; r++)
		kept += dataset_shows(r, 100000, 2000) != 0;
	assert_in_range(kept, 1900, 2000);
	assert_true(dataset_shows(5, 6, 0));
	assert_true(dataset_shows(2, 3, 1));
	assert_false(dataset_shows(0, 3, 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_trend),
		cmocka_unit_test(test_value_kept),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_with),
		cmocka_unit_test(test_family_names),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_shows),
	};

	return cmocka_run_group_tests_name("modelrows", tests, NULL, NULL);
}
