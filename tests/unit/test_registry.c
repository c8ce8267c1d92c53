/*
 * Unit tests for src/registry.h, the quantity registry: adding and
 * looking up numbers and text, insertion order, the errors for duplicate
 * and non-finite quantities, input lists, and name suggestions (and
 * src/suggest.h, which makes them, over any list of names).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "registry.h"
#include "suggest.h"

static int
setup(void **state)
{
	diag_reset();
	*state = registry_new();
	assert_non_null(*state);
	return 0;
}

static int
teardown(void **state)
{
	registry_free(*state);
	return 0;
}

static const struct quantity *
add(struct registry *reg, const char *name, double value)
{
	const struct quantity *q;

	capture_start();
	q = registry_add_num(reg, name, value, "", "", NULL, "", NULL);
	assert_captured("");
	assert_non_null(q);
	return q;
}

static void
test_empty(void **state)
{
	struct registry *reg = *state;
	const char *out[4];

	assert_int_equal(registry_count(reg), 0);
	assert_null(registry_get(reg, "x"));
	assert_null(registry_get(reg, ""));
	assert_int_equal(registry_suggest(reg, "x", out, 4), 0);
	registry_free(NULL);
}

static void
test_add_num(void **state)
{
	struct registry *reg = *state;
	char name[] = "laptop.mass", unit[] = "kg", formula[] = "measured";
	char source[] = "spec sheet", origin[] = "data/devices.csv:3";
	const struct quantity *q, *got;

	capture_start();
	q = registry_add_num(reg, name, 2.5, unit, formula, NULL, source,
			     origin);
	assert_captured("");
	assert_non_null(q);
	/* Every string is copied. */
	name[0] = unit[0] = formula[0] = source[0] = origin[0] = '#';

	got = registry_get(reg, "laptop.mass");
	assert_ptr_equal(got, q);
	assert_null(registry_get(reg, name));
	assert_string_equal(got->name, "laptop.mass");
	assert_int_equal(got->type, Q_NUMBER);
	assert_true(got->value == 2.5);
	assert_null(got->text);
	assert_string_equal(got->unit, "kg");
	assert_string_equal(got->formula, "measured");
	assert_int_equal(got->ninputs, 0);
	assert_string_equal(got->source, "spec sheet");
	assert_string_equal(got->origin, "data/devices.csv:3");
	assert_int_equal(registry_count(reg), 1);
	assert_true(registry_num(reg, "laptop.mass") == 2.5);
	assert_int_equal(diag_errors(), 0);
}

/* NULL strings become "" (origin stays NULL). */
static void
test_add_defaults(void **state)
{
	struct registry *reg = *state;
	const struct quantity *q;

	capture_start();
	q = registry_add_num(reg, "c", 299792458, NULL, NULL, NULL, NULL,
			     NULL);
	assert_captured("");
	assert_non_null(q);
	assert_string_equal(q->unit, "");
	assert_string_equal(q->formula, "");
	assert_string_equal(q->source, "");
	assert_null(q->origin);
	assert_int_equal(q->ninputs, 0);
	assert_true(registry_num(reg, "c") == 299792458);

	/* Zero, negative and tiny values are fine. */
	add(reg, "zero", 0);
	add(reg, "neg", -1e300);
	add(reg, "tiny", 5e-324);
	assert_true(registry_num(reg, "zero") == 0);
	assert_true(registry_num(reg, "neg") == -1e300);
	assert_true(registry_num(reg, "tiny") == 5e-324);
}

static void
test_add_text(void **state)
{
	struct registry *reg = *state;
	char text[] = "Intel Core 2 Duo";
	const struct quantity *q;

	capture_start();
	q = registry_add_text(reg, "laptop.cpu", text, "from the list", NULL,
			      "ark.intel.com", "data/devices.csv:4");
	assert_captured("");
	assert_non_null(q);
	text[0] = '#';
	q = registry_get(reg, "laptop.cpu");
	assert_non_null(q);
	assert_int_equal(q->type, Q_TEXT);
	assert_string_equal(q->text, "Intel Core 2 Duo");
	assert_string_equal(q->unit, "");
	assert_string_equal(q->formula, "from the list");
	assert_string_equal(q->source, "ark.intel.com");
	assert_string_equal(q->origin, "data/devices.csv:4");

	/* Empty text is a value too. */
	capture_start();
	q = registry_add_text(reg, "empty", "", NULL, NULL, NULL, NULL);
	assert_captured("");
	assert_non_null(q);
	assert_string_equal(registry_get(reg, "empty")->text, "");
	assert_int_equal(registry_count(reg), 2);
}

static void
test_inputs(void **state)
{
	struct registry *reg = *state;
	const struct quantity *q;

	add(reg, "m", 2);
	add(reg, "v", 3);
	capture_start();
	q = registry_add_num(reg, "e_k", 9, "J", "m v^2 / 2", "m v", "", NULL);
	assert_captured("");
	assert_non_null(q);
	assert_int_equal(q->ninputs, 2);
	assert_string_equal(q->inputs[0], "m");
	assert_string_equal(q->inputs[1], "v");

	/* Runs of spaces, leading and trailing, are ignored. */
	capture_start();
	q = registry_add_text(reg, "t", "x", "", "  e_k   m  v ", "", NULL);
	assert_captured("");
	assert_non_null(q);
	assert_int_equal(q->ninputs, 3);
	assert_string_equal(q->inputs[0], "e_k");
	assert_string_equal(q->inputs[1], "m");
	assert_string_equal(q->inputs[2], "v");

	/* An input may be listed twice; empty lists give no inputs. */
	capture_start();
	q = registry_add_num(reg, "twice", 4, "", "", "m m", "", NULL);
	assert_non_null(q);
	assert_int_equal(q->ninputs, 2);
	q = registry_add_num(reg, "none", 1, "", "", "", "", NULL);
	assert_non_null(q);
	assert_int_equal(q->ninputs, 0);
	q = registry_add_num(reg, "spaces", 1, "", "", "   ", "", NULL);
	assert_non_null(q);
	assert_int_equal(q->ninputs, 0);
	assert_captured("");
}

static void
test_order(void **state)
{
	struct registry *reg = *state;
	static const char *const names[] = {
		"zeta", "alpha", "m.b", "m.a", "beta", "a.z", "a.a", "omega",
	};
	size_t i, n = sizeof(names) / sizeof(names[0]);

	for (i = 0; i < n; i++)
		add(reg, names[i], (double)i);
	assert_int_equal(registry_count(reg), n);
	for (i = 0; i < n; i++) {
		const struct quantity *q = registry_at(reg, i);

		assert_string_equal(q->name, names[i]);
		assert_true(q->value == (double)i);
		assert_ptr_equal(registry_get(reg, names[i]), q);
	}
}

static void
test_duplicate(void **state)
{
	struct registry *reg = *state;

	add(reg, "laptop.mass", 2.5);
	capture_start();
	assert_null(registry_add_num(reg, "laptop.mass", 3, "kg", "", NULL,
				     "", NULL));
	assert_captured("ultimate: error: quantity 'laptop.mass' is defined "
			"twice\n");
	assert_int_equal(diag_errors(), 1);

	/* A text cannot take a number's name either. */
	capture_start();
	assert_null(registry_add_text(reg, "laptop.mass", "x", "", NULL, "",
				      NULL));
	assert_captured("ultimate: error: quantity 'laptop.mass' is defined "
			"twice\n");
	assert_int_equal(diag_errors(), 2);

	/* The first definition stays. */
	assert_int_equal(registry_count(reg), 1);
	assert_true(registry_num(reg, "laptop.mass") == 2.5);
	assert_int_equal(registry_get(reg, "laptop.mass")->type, Q_NUMBER);

	/* Names are case-sensitive. */
	add(reg, "Laptop.mass", 1);
	assert_int_equal(registry_count(reg), 2);
}

static void
test_not_finite(void **state)
{
	struct registry *reg = *state;

	add(reg, "a", 1);
	add(reg, "b", 0);
	capture_start();
	assert_null(registry_add_num(reg, "ratio", NAN, "", "a / b", "a b", "",
				     NULL));
	assert_null(registry_add_num(reg, "big", INFINITY, "", "a / b",
				     "a b", "", NULL));
	assert_null(registry_add_num(reg, "small", -INFINITY, "", "-a / b",
				     NULL, "", NULL));
	assert_captured("ultimate: error: quantity 'ratio' is not a finite "
			"number (a / b); check its inputs: a b\n"
			"ultimate: error: quantity 'big' is not a finite "
			"number (a / b); check its inputs: a b\n"
			"ultimate: error: quantity 'small' is not a finite "
			"number (-a / b); check its inputs: none\n");
	assert_int_equal(diag_errors(), 3);
	assert_int_equal(registry_count(reg), 2);
	assert_null(registry_get(reg, "ratio"));
	assert_null(registry_get(reg, "big"));
	assert_null(registry_get(reg, "small"));

	/* The name is still free for a finite value. */
	add(reg, "ratio", 0.5);
	assert_true(registry_num(reg, "ratio") == 0.5);
}

static void
test_suggest(void **state)
{
	struct registry *reg = *state;
	const char *out[8];
	size_t n;

	add(reg, "laptop.ops_max", 1);
	add(reg, "laptop.mass", 2);
	add(reg, "phone.ops_max", 3);
	add(reg, "sun.luminosity", 4);
	add(reg, "earth.radius", 5);

	/* One typo: the intended name comes first. */
	n = registry_suggest(reg, "laptop.ops_mx", out, 8);
	assert_true(n >= 1);
	assert_string_equal(out[0], "laptop.ops_max");
	/* And the strings are the registry's own. */
	assert_ptr_equal(out[0], registry_get(reg, "laptop.ops_max")->name);

	/* A transposition is one edit. */
	n = registry_suggest(reg, "laptop.mssa", out, 8);
	assert_true(n >= 1);
	assert_string_equal(out[0], "laptop.mass");

	n = registry_suggest(reg, "sun.luminosty", out, 8);
	assert_true(n >= 1);
	assert_string_equal(out[0], "sun.luminosity");

	/* A part of names: every name holding it, in insertion order. */
	n = registry_suggest(reg, "ops_max", out, 8);
	assert_int_equal(n, 2);
	assert_string_equal(out[0], "laptop.ops_max");
	assert_string_equal(out[1], "phone.ops_max");

	/* max limits the answer to the best ones. */
	n = registry_suggest(reg, "laptop.ops_mx", out, 1);
	assert_int_equal(n, 1);
	assert_string_equal(out[0], "laptop.ops_max");
	assert_int_equal(registry_suggest(reg, "laptop.ops_mx", out, 0), 0);

	/* Nothing close. */
	assert_int_equal(registry_suggest(reg, "zzzzzzzzzz", out, 8), 0);
	assert_int_equal(registry_suggest(reg, "quux", out, 8), 0);

	/* The exact name is its own best match. */
	n = registry_suggest(reg, "earth.radius", out, 8);
	assert_true(n >= 1);
	assert_string_equal(out[0], "earth.radius");
}

/* A name, or the dotted prefix of names; never a part of a word. */
static void
test_has(void **state)
{
	struct registry *reg = *state;

	assert_int_equal(registry_has(reg, "current"), 0);
	add(reg, "current.phone.year", 2023);
	add(reg, "laptop.mass", 1);
	assert_int_equal(registry_has(reg, "current.phone.year"), 1);
	assert_int_equal(registry_has(reg, "current.phone"), 1);
	assert_int_equal(registry_has(reg, "current"), 1);
	assert_int_equal(registry_has(reg, "laptop.mass"), 1);
	assert_int_equal(registry_has(reg, "laptop"), 1);
	assert_int_equal(registry_has(reg, "current.ph"), 0);
	assert_int_equal(registry_has(reg, "current.phone.year.x"), 0);
	assert_int_equal(registry_has(reg, "current.phone."), 0);
	assert_int_equal(registry_has(reg, "current.gpu"), 0);
	assert_int_equal(registry_has(reg, "laptop.mas"), 0);
	assert_int_equal(registry_has(reg, ""), 0);
}

/* What is wrong with a name: the first problem met, reading it. */
static void
test_name_problem(void **state)
{
	static const char *const empty = "a name's parts, between its dots, "
					 "cannot be empty";
	static const char *const bytes = "a name is letters, digits, '_' and "
					 "'-', in parts joined by dots";
	static const char *const longer = "a part of a name, between its "
					  "dots, is at most 64 characters";
	char part[70];

	(void)state;
	assert_string_equal(registry_name_problem(""),
			    "a name cannot be empty");
	assert_null(registry_name_problem("a"));
	assert_null(registry_name_problem("Device_9.mac-book.X"));
	assert_string_equal(registry_name_problem(".a"), empty);
	assert_string_equal(registry_name_problem("a."), empty);
	assert_string_equal(registry_name_problem("a..b"), empty);
	assert_string_equal(registry_name_problem("$"), bytes);
	assert_string_equal(registry_name_problem("a.$b"), bytes);
	assert_string_equal(registry_name_problem("a b"), bytes);
	assert_string_equal(registry_name_problem("a.b/"), bytes);
	assert_string_equal(registry_name_problem("caf\xc3\xa9"), bytes);
	memset(part, 'x', 64);
	part[64] = '\0';
	assert_null(registry_name_problem(part));
	part[64] = 'x';
	part[65] = '\0';
	assert_string_equal(registry_name_problem(part), longer);
	/* The 65th byte of a part comes before a bad one after it. */
	part[65] = '$';
	part[66] = '\0';
	assert_string_equal(registry_name_problem(part), longer);
	part[3] = '$';
	assert_string_equal(registry_name_problem(part), bytes);
}

/*
 * A formula set again: "expr (note)", or the expression alone, whatever
 * the quantity had (the registry's blocks are not zeroed: a formula
 * written without its end once read on into the next bytes).
 */
static void
test_set_expr(void **state)
{
	struct registry *reg = *state;
	struct quantity *q;
	char *junk = malloc(70000);

	/*
	 * Memory full of bytes that end no string, freed for a block to
	 * take; whichever it takes, ASan's malloc() fills new memory with
	 * 0xbe, so that the suite under ASan reads no end that was not
	 * written.
	 */
	assert_non_null(junk);
	memset(junk, 'x', 70000);
	free(junk);
	q = (struct quantity *)(uintptr_t)add(reg, "x.a", 1);
	registry_set_expr(q, "x.b + x.c", NULL);
	assert_string_equal(q->formula, "x.b + x.c");
	assert_string_equal(q->expr, "x.b + x.c");
	assert_string_equal(q->note, "");
	registry_set_expr(q, "x.b", "a note");
	assert_string_equal(q->formula, "x.b (a note)");
	assert_string_equal(q->note, "a note");
	registry_set_expr(q, "x.b", NULL);
	assert_string_equal(q->formula, "x.b");
	registry_set_expr(q, "x.b", "");
	assert_string_equal(q->formula, "x.b");
	assert_string_equal(q->note, "");
}

/*
 * The prefixes of many names, the set of them rehashed several times:
 * each still found, by the quantity it was first seen in.
 */
static void
test_has_many(void **state)
{
	struct registry *reg = *state;
	struct buf name = BUF_INIT;
	size_t i, n = 3000;

	for (i = 0; i < n; i++) {
		buf_reset(&name);
		buf_addf(&name, "a%zu.b%zu.c", i % 11, i);
		add(reg, name.data, (double)i);
	}
	for (i = 0; i < n; i++) {
		buf_reset(&name);
		buf_addf(&name, "a%zu.b%zu", i % 11, i);
		assert_int_equal(registry_has(reg, name.data), 1);
		buf_reset(&name);
		buf_addf(&name, "a%zu.b%zu", (i + 1) % 11, i);
		assert_int_equal(registry_has(reg, name.data), 0);
		buf_reset(&name);
		buf_addf(&name, "a%zu", i % 11);
		assert_int_equal(registry_has(reg, name.data), 1);
	}
	assert_int_equal(registry_has(reg, "a11"), 0);
	assert_int_equal(registry_has(reg, "a1.b"), 0);
	buf_release(&name);
}

/* Enough quantities to rehash the table several times. */
static void
test_many(void **state)
{
	struct registry *reg = *state;
	struct buf name = BUF_INIT;
	const char *out[3];
	size_t i, n = 5000;

	for (i = 0; i < n; i++) {
		buf_reset(&name);
		buf_addf(&name, "group%zu.q%zu", i % 7, i);
		add(reg, name.data, (double)i);
	}
	assert_int_equal(registry_count(reg), n);
	for (i = 0; i < n; i++) {
		const struct quantity *q;

		buf_reset(&name);
		buf_addf(&name, "group%zu.q%zu", i % 7, i);
		q = registry_get(reg, name.data);
		assert_non_null(q);
		assert_string_equal(q->name, name.data);
		assert_true(q->value == (double)i);
		assert_ptr_equal(registry_at(reg, i), q);
		assert_true(registry_num(reg, name.data) == (double)i);
	}
	assert_null(registry_get(reg, "group0.q1"));
	assert_null(registry_get(reg, "group0.q5000"));

	/* Still an error after rehashing. */
	capture_start();
	assert_null(registry_add_num(reg, "group1.q4999", 1, "", "", NULL, "",
				     NULL));
	assert_captured("ultimate: error: quantity 'group1.q4999' is defined "
			"twice\n");

	assert_true(registry_suggest(reg, "group1.q4999x", out, 3) >= 1);
	assert_string_equal(out[0], "group1.q4999");
	buf_release(&name);
}

/* Prefixes for a prefix no name starts with, cut as it is. */
static void
test_suggest_prefix(void **state)
{
	struct registry *reg = *state;
	char *out[4];
	size_t n, i;

	add(reg, "laptop.ops_max", 1);
	add(reg, "laptop.mass", 2);
	add(reg, "device.roadrunner.sbops", 3);
	add(reg, "device.roadrunner.bits", 4);
	add(reg, "device.summit.sbops", 5);
	/* A whole part, with its dot: "laptop." once for both names. */
	n = registry_suggest_prefix(reg, "lapt0p.", out, 4);
	assert_int_equal(n, 1);
	assert_string_equal(out[0], "laptop.");
	free(out[0]);
	/* A part cut short: the part whole. */
	n = registry_suggest_prefix(reg, "device.roadrunnr", out, 4);
	assert_int_equal(n, 1);
	assert_string_equal(out[0], "device.roadrunner");
	free(out[0]);
	n = registry_suggest_prefix(reg, "laptop.ops_mx", out, 4);
	assert_true(n >= 1);
	assert_string_equal(out[0], "laptop.ops_max");
	for (i = 0; i < n; i++)
		free(out[i]);
	/* Deeper than any name, or nothing close: none. */
	assert_int_equal(registry_suggest_prefix(reg, "a.b.c.d.", out, 4), 0);
	assert_int_equal(registry_suggest_prefix(reg, "zzzzzz", out, 4), 0);
	assert_int_equal(registry_suggest_prefix(reg, "laptop.", out, 0), 0);
}

/* suggest.h over names that are not a registry's: datasets, prefixes. */
static void
test_suggest_any(void **state)
{
	static const char *const names[] = { "top500", "disk", "areal",
		"disk", "dust", "devices" };
	const char *near[4];
	struct suggest s;
	struct buf b = BUF_INIT;
	size_t n, i;

	(void)state;
	suggest_init(&s, "dusk", near, 4);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		suggest_add(&s, names[i]);
	n = suggest_end(&s);
	/* "disk" is offered twice and kept once; both at one edit. */
	assert_int_equal(n, 2);
	assert_string_equal(near[0], "disk");
	assert_string_equal(near[1], "dust");
	suggest_hint(&b, near, n);
	assert_string_equal(b.data, "; did you mean 'disk' or 'dust'?");
	buf_reset(&b);
	suggest_hint(&b, names, 3);
	assert_string_equal(b.data,
			    "; did you mean 'top500', 'disk' or 'areal'?");
	buf_reset(&b);
	suggest_hint(&b, names, 1);
	assert_string_equal(b.data, "; did you mean 'top500'?");
	buf_reset(&b);
	suggest_hint(&b, names, 0);
	assert_string_equal(b.data, "");
	/* max 0 keeps nothing. */
	suggest_init(&s, "dusk", near, 0);
	suggest_add(&s, "disk");
	assert_int_equal(suggest_end(&s), 0);
	buf_release(&b);
}

/* Whether pattern matches name, and the row it gives ("" for none). */
static void
match(const char *pattern, const char *name, int want, const char *row)
{
	const char *r;
	size_t len;

	assert_int_equal(registry_pattern_match(pattern, name, &r, &len),
			 want);
	if (!want)
		return;
	if (!*row) {
		assert_null(r);
		assert_int_equal(len, 0);
		return;
	}
	assert_non_null(r);
	assert_int_equal(len, strlen(row));
	assert_memory_equal(r, row, len);
}

/* '*' stands for one whole part, anywhere; every other part is equal. */
static void
test_pattern_match(void **state)
{
	(void)state;
	match("device.*.mass", "device.macbook_2008.mass", 1, "macbook_2008");
	match("device.*.gap.ops.doublings", "device.x.gap.ops.doublings", 1,
	      "x");
	match("rate.*", "rate.24mo", 1, "24mo");
	match("*.gap", "record.gap", 1, "record");
	match("laptop.mass", "laptop.mass", 1, "");
	/* One part, not two or none; the rest whole, not a prefix. */
	match("device.*.mass", "device.a.b.mass", 0, NULL);
	match("device.*.mass", "device.mass", 0, NULL);
	match("device.*.mass", "device.x.mass_own", 0, NULL);
	match("device.*.mass", "device.x.mas", 0, NULL);
	match("device.*.mass", "device.x.mass.y", 0, NULL);
	match("device.*.mass", "devices.x.mass", 0, NULL);
	match("rate.*", "rate", 0, NULL);
	match("rate.*", "rate.a.b", 0, NULL);
	match("laptop.mass", "laptop.massive", 0, NULL);
	match("laptop.mass", "laptop", 0, NULL);
	/* A second '*' is a part like any other. */
	match("a.*.*", "a.b.*", 1, "b");
	match("a.*.*", "a.b.c", 0, NULL);
}

static const char *const test_table[][2] = {
	{ "device.*.mass", "m_d" },
	{ "device.*.gap.ops.doublings", "n_d" },
	{ "device.*.year", "y_d" },
	{ "*.year", "Y_x" },		/* never reached by device.*.year */
	{ "claim.*.ratio", "\xcf\x81_c" },
};

static const char *const test_aliases[][2] = {
	{ "current.*", "device.*" },
	{ "record", "device.*" },
};

static const struct quantity *
add_get(struct registry *reg, const char *name)
{
	assert_non_null(registry_add_num(reg, name, 1, "", NULL, NULL, NULL,
					 NULL));
	return registry_get(reg, name);
}

/*
 * Symbols by family: the first entry a name matches, its row; a name of
 * its own keeps its symbol; an alias's words are the row; a quantity
 * added later takes its symbol too.
 */
static void
test_set_symbols(void **state)
{
	struct registry *reg = *state;
	const struct quantity *mass, *year, *alias, *rec, *own, *none, *late;

	mass = add_get(reg, "device.macbook_2008.mass");
	year = add_get(reg, "device.macbook_2008.year");
	alias = add_get(reg, "current.laptop.gap.ops.doublings");
	rec = add_get(reg, "record.year");
	own = add_get(reg, "laptop.mass");
	none = add_get(reg, "current.laptop.name");
	registry_set_symbol(reg, "laptop.mass", "m");
	registry_set_symbols(reg, test_table,
			     sizeof(test_table) / sizeof(test_table[0]),
			     test_aliases,
			     sizeof(test_aliases) / sizeof(test_aliases[0]));
	assert_string_equal(mass->symbol, "m_d");
	assert_string_equal(mass->row, "macbook_2008");
	assert_string_equal(year->symbol, "y_d");
	assert_string_equal(alias->symbol, "n_d");
	assert_string_equal(alias->row, "current laptop");
	/* record.year is "*.year" as it is, before any alias. */
	assert_string_equal(rec->symbol, "Y_x");
	assert_string_equal(rec->row, "record");
	assert_string_equal(own->symbol, "m");
	assert_null(own->row);
	assert_null(none->symbol);
	assert_null(none->row);
	late = add_get(reg, "claim.bits_max.ratio");
	assert_string_equal(late->symbol, "\xcf\x81_c");
	assert_string_equal(late->row, "bits_max");
	late = add_get(reg, "record.gap.ops.doublings");
	assert_string_equal(late->symbol, "n_d");
	assert_string_equal(late->row, "record");
	/* A name's own symbol, set later, takes the family's place. */
	registry_set_symbol(reg, "device.macbook_2008.mass", "M");
	assert_string_equal(mass->symbol, "M");
	assert_null(mass->row);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_empty),
		T(test_add_num),
		T(test_add_defaults),
		T(test_add_text),
		T(test_inputs),
		T(test_order),
		T(test_duplicate),
		T(test_not_finite),
		T(test_suggest),
		T(test_suggest_any),
		T(test_suggest_prefix),
		T(test_has),
		T(test_has_many),
		T(test_set_expr),
		T(test_name_problem),
		T(test_many),
		T(test_pattern_match),
		T(test_set_symbols),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
