/*
 * Unit tests for src/expr.h, the expressions inside {{ }} slots. Each
 * expression is parsed from an in-memory file "t.md" (with the source
 * line and caret shown under errors) and evaluated against a small
 * registry; every error message is compared exactly, caret included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "testreg.h"
#include "expr.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"

static struct registry *reg;

static int
setup_registry(void **state)
{
	(void)state;
	reg = test_registry(0);
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

static struct srcfile *
src(const char *s)
{
	struct srcfile *f = srcfile_from_mem("t.md", s, strlen(s));

	f->show_source = 1;
	return f;
}

/* "d.x" -> "device.a.x", "d" -> "device.a.id": a loop variable. */
static int
resolve_d(void *ctx, const char *name, struct buf *out)
{
	(void)ctx;
	if (strncmp(name, "d", 1) || (name[1] && name[1] != '.'))
		return -1;
	buf_addf(out, "device.a%s", name[1] ? name + 1 : ".id");
	return 0;
}

/* Parses and evaluates s, which must succeed without a message. */
static void
eval_ok(const char *s, struct value *v)
{
	struct srcfile *f = src(s);
	struct expr_env env = { .reg = reg, .resolve = resolve_d, .missing_ok = 0 };
	size_t before = diag_errors();
	struct expr *e;

	capture_start();
	e = expr_parse(f, 0, f->len);
	if (e)
		assert_int_equal(expr_eval(e, &env, v), 0);
	assert_captured("");
	assert_non_null(e);
	assert_int_equal(diag_errors(), before);
	expr_free(e);
	srcfile_free(f);
}

static void
num_is(const char *s, double want)
{
	struct value v;

	eval_ok(s, &v);
	assert_int_equal(v.type, VALUE_NUMBER);
	assert_null(v.text);
	if (want == 0 || fabs(want) == 1 || want == floor(want))
		assert_true(v.num == want);
	else
		assert_near(v.num, want, 1e-15);
	value_release(&v);
}

static void
text_is(const char *s, const char *want)
{
	struct value v;

	eval_ok(s, &v);
	assert_int_equal(v.type, VALUE_TEXT);
	assert_string_equal(v.text, want);
	value_release(&v);
	assert_null(v.text);
}

/* s parses but its evaluation fails with exactly the messages in want. */
static void
eval_err(const char *s, const char *want)
{
	struct srcfile *f = src(s);
	struct expr_env env = { .reg = reg, .resolve = resolve_d, .missing_ok = 0 };
	struct value v;
	struct expr *e;

	diag_reset();
	capture_start();
	e = expr_parse(f, 0, f->len);
	assert_non_null(e);
	assert_int_equal(expr_eval(e, &env, &v), -1);
	assert_captured(want);
	assert_int_equal(diag_errors(), 1);
	expr_free(e);
	srcfile_free(f);
}

/* s does not parse; the messages are exactly want. */
static void
parse_err(const char *s, const char *want)
{
	struct srcfile *f = src(s);
	struct expr *e;

	diag_reset();
	capture_start();
	e = expr_parse(f, 0, f->len);
	assert_captured(want);
	assert_null(e);
	assert_int_equal(diag_errors(), 1);
	srcfile_free(f);
}

#define ERR(col, msg, line, caret)                                           \
	"t.md:1:" col ": error: " msg "\n    " line "\n    " caret "\n"

static void
test_numbers(void **state)
{
	(void)state;
	num_is("42", 42);
	num_is("1e3", 1000);
	num_is("2.5E-1", 0.25);
	num_is(".5", 0.5);
	num_is("  7  ", 7);
	num_is("\t1\n+\r\n2", 3);
}

static void
test_precedence(void **state)
{
	(void)state;
	num_is("1+2*3", 7);
	num_is("1 + 2 * 3", 7);
	num_is("2*3+4", 10);
	num_is("(1+2)*3", 9);
	num_is("2^3^2", 512);
	num_is("(2^3)^2", 64);
	num_is("-2^2", -4);
	num_is("(-2)^2", 4);
	num_is("2^-1", 0.5);
	num_is("2*3^2", 18);
	num_is("-3*-2", 6);
	num_is("--3", 3);
	num_is("1 + 2 < 4", 1);
	num_is("1 < 2 == 1", 1);
	num_is("1 || 0 && 0", 1);
	num_is("(1 || 0) && 0", 0);
	num_is("!0 + 1", 2);
}

static void
test_left_associative(void **state)
{
	(void)state;
	num_is("10-4-3", 3);
	num_is("16/4/2", 2);
	num_is("2/4*8", 4);
	num_is("1-2+3", 2);
}

static void
test_comparisons(void **state)
{
	(void)state;
	num_is("1 < 2", 1);
	num_is("2 < 2", 0);
	num_is("2 <= 2", 1);
	num_is("3 <= 2", 0);
	num_is("3 > 4", 0);
	num_is("5 > 4", 1);
	num_is("4 >= 4", 1);
	num_is("3 >= 4", 0);
	num_is("1 == 1", 1);
	num_is("1 == 2", 0);
	num_is("1 != 1", 0);
	num_is("1 != 2", 1);
	num_is("1<2", 1);
	num_is("2>=1", 1);
	num_is("laptop.volume < 1", 1);
	num_is("device.b.year - device.a.year == 16", 1);
}

static void
test_logic(void **state)
{
	(void)state;
	num_is("!0", 1);
	num_is("!5", 0);
	num_is("!!5", 1);
	num_is("2 && 3", 1);
	num_is("2 && 0", 0);
	num_is("0 || 0", 0);
	num_is("0 || 7", 1);
	num_is("!\"\"", 1);
	num_is("!\"x\"", 0);
	num_is("record.name && 1", 1);
	num_is("\"\" || 0", 0);
}

static void
test_short_circuit(void **state)
{
	(void)state;
	num_is("0 && unknown.name", 0);
	num_is("1 || unknown.name", 1);
	num_is("0 && 1 / 0", 0);
	num_is("1 || log10(0)", 1);
	num_is("0 && record.name + 1", 0);
	eval_err("1 && unknown.name",
		 ERR("6", "unknown quantity 'unknown.name'; did you mean "
		     "'record.name'?", "1 && unknown.name",
		     "     ^^^^^^^^^^^^"));
	eval_err("0 || 1 / 0",
		 ERR("6", "'/' gives no finite number here (division by zero)",
		     "0 || 1 / 0", "     ^^^^^"));
}

static void
test_text(void **state)
{
	(void)state;
	text_is("\"hello\"", "hello");
	text_is("\"\"", "");
	text_is("\"a \\\"quoted\\\" b\"", "a \"quoted\" b");
	text_is("\"back\\\\slash\"", "back\\slash");
	text_is("\"1 + 2\"", "1 + 2");
	text_is("record.name", "Roadrunner");
	num_is("record.name == \"Roadrunner\"", 1);
	num_is("record.name == \"roadrunner\"", 0);
	num_is("record.name != \"Roadrunner\"", 0);
	num_is("\"a\" != \"b\"", 1);
	num_is("\"a\" == \"a\"", 1);
	num_is("\"\" == \"\"", 1);
	num_is("d.name == device.a.name", 1);
}

static void
test_names(void **state)
{
	struct value v;
	struct srcfile *f;
	struct expr *e;

	(void)state;
	eval_ok("laptop.energy", &v);
	assert_int_equal(v.type, VALUE_NUMBER);
	assert_true(v.num == 8.987551787368176e16);
	assert_ptr_equal(v.q, registry_get(reg, "laptop.energy"));
	value_release(&v);

	eval_ok(" laptop.ops_max ", &v);
	assert_true(v.num == 5.4255699586085285e50);
	assert_ptr_equal(v.q, registry_get(reg, "laptop.ops_max"));
	value_release(&v);

	eval_ok("record.name", &v);
	assert_int_equal(v.type, VALUE_TEXT);
	assert_ptr_equal(v.q, registry_get(reg, "record.name"));
	value_release(&v);

	/* Through the resolver: d.year is device.a.year. */
	eval_ok("d.year", &v);
	assert_true(v.num == 2008);
	assert_ptr_equal(v.q, registry_get(reg, "device.a.year"));
	value_release(&v);
	text_is("d", "a");

	/* An expression is no quantity, even when it has the same value. */
	eval_ok("laptop.energy * 1", &v);
	assert_true(v.num == 8.987551787368176e16);
	assert_null(v.q);
	value_release(&v);
	eval_ok("-laptop.energy", &v);
	assert_null(v.q);
	value_release(&v);
	eval_ok("1 + 2", &v);
	assert_null(v.q);
	value_release(&v);
	eval_ok("\"Roadrunner\"", &v);
	assert_null(v.q);
	value_release(&v);
	eval_ok("unit(laptop.energy)", &v);
	assert_null(v.q);
	value_release(&v);

	f = src("laptop.energy");
	e = expr_parse(f, 0, f->len);
	assert_string_equal(expr_name(e), "laptop.energy");
	expr_free(e);
	srcfile_free(f);
	f = src("laptop.energy / 2");
	e = expr_parse(f, 0, f->len);
	assert_null(expr_name(e));
	expr_free(e);
	srcfile_free(f);
	f = src("12");
	e = expr_parse(f, 0, f->len);
	assert_null(expr_name(e));
	expr_free(e);
	srcfile_free(f);
	assert_null(expr_name(NULL));
}

static void
test_parse_slice(void **state)
{
	struct srcfile *f = src("xx 6 * 7 yy");
	struct expr_env env = { .reg = reg };
	struct value v;
	struct expr *e;

	(void)state;
	e = expr_parse(f, 3, 5);
	assert_non_null(e);
	assert_int_equal(expr_eval(e, &env, &v), 0);
	assert_true(v.num == 42);
	value_release(&v);
	expr_free(e);
	srcfile_free(f);
}

static void
test_functions(void **state)
{
	(void)state;
	num_is("log10(1000)", 3);
	num_is("log10(laptop.volume / laptop.volume)", 0);
	num_is("log2(8)", 3);
	num_is("log2(0.5)", -1);
	num_is("ln(1)", 0);
	num_is("ln(exp(2))", 2);
	num_is("exp(0)", 1);
	num_is("exp(1)", 2.718281828459045);
	num_is("sqrt(16)", 4);
	num_is("sqrt(2)", 1.4142135623730951);
	num_is("abs(-3)", 3);
	num_is("abs(3)", 3);
	num_is("floor(2.7)", 2);
	num_is("floor(-2.5)", -3);
	num_is("ceil(2.1)", 3);
	num_is("ceil(-2.1)", -2);
	num_is("round(2.5)", 3);
	num_is("round(-2.5)", -3);
	num_is("round(2.4)", 2);
	num_is("pow(2, 10)", 1024);
	num_is("pow(2,0.5)", 1.4142135623730951);
	num_is("min(3, 4)", 3);
	num_is("min(4, -3)", -3);
	num_is("max(3, 4)", 4);
	num_is("max(4, -3)", 4);
	num_is("max(min(1, 2), 1 + 1)", 2);
	num_is(" sqrt( 9 ) ", 3);
	num_is("log10(laptop.ops_max / laptop.ops_max * 1e51) > 50", 1);
	text_is("unit(laptop.ops_max)", "ops/s");
	text_is("unit(laptop.volume)", "m^3");
	text_is("unit(device.a.year)", "");
	text_is("formula(laptop.energy)", "m c^2");
	text_is("source(laptop.energy)", "Einstein 1905");
	text_is("source(record.name)", "TOP500");
	text_is("name(laptop.energy)", "laptop.energy");
	text_is("name(d.year)", "device.a.year");
	num_is("unit(laptop.energy) == \"J\"", 1);
}

static void
test_unknown_quantity(void **state)
{
	(void)state;
	eval_err("laptop.ops_mx",
		 ERR("1", "unknown quantity 'laptop.ops_mx'; did you mean "
		     "'laptop.ops_max'?", "laptop.ops_mx", "^^^^^^^^^^^^^"));
	eval_err("2 * laptop.ops_mx + 1",
		 ERR("5", "unknown quantity 'laptop.ops_mx'; did you mean "
		     "'laptop.ops_max'?", "2 * laptop.ops_mx + 1",
		     "    ^^^^^^^^^^^^^"));
	eval_err("zzzzzzzzzzzzzzzzzzzzzzzzz",
		 ERR("1", "unknown quantity 'zzzzzzzzzzzzzzzzzzzzzzzzz'",
		     "zzzzzzzzzzzzzzzzzzzzzzzzz",
		     "^^^^^^^^^^^^^^^^^^^^^^^^^"));
	eval_err("unit(laptop.enrgy)",
		 ERR("6", "unknown quantity 'laptop.enrgy'; did you mean "
		     "'laptop.energy'?", "unit(laptop.enrgy)",
		     "     ^^^^^^^^^^^^"));
	/* A name rewritten by the resolver says where it came from. */
	eval_err("d.nam",
		 ERR("1", "unknown quantity 'device.a.nam' (from 'd.nam'); "
		     "did you mean 'device.a.name' or 'device.b.name'?", "d.nam",
		     "^^^^^"));
}

/*
 * has(NAME): a quantity or the dotted prefix of some, through the loop
 * variables; never an unknown quantity, whatever the name.
 */
static void
test_has(void **state)
{
	(void)state;
	num_is("has(laptop.energy)", 1);
	num_is("has(record.name)", 1);
	num_is("has(laptop)", 1);
	num_is("has(device.b)", 1);
	num_is("has(device)", 1);
	num_is("has(device.c)", 0);
	num_is("has(lap)", 0);
	num_is("has(laptop.energy.x)", 0);
	num_is("has(laptop.ops_mx)", 0);
	num_is("has(zzzzzzzz)", 0);
	/* The loop variable d is device.a. */
	num_is("has(d.year)", 1);
	num_is("has(d)", 1);
	num_is("has(d.power_w)", 0);
	num_is("has( d.name )", 1);
	/* A number, usable in any expression. */
	num_is("has(laptop) + has(device.a) + has(nothing)", 2);
	num_is("!has(device.c)", 1);
	num_is("has(device.c) && device.c.year > 2000", 0);
	num_is("has(d.year) && d.year == 2008", 1);
	/* Its argument is a name, nothing else. */
	parse_err("has(1)",
		  ERR("5", "'has' takes a quantity name or a prefix of names",
		      "has(1)", "    ^"));
	parse_err("has(\"laptop\")",
		  ERR("5", "'has' takes a quantity name or a prefix of names",
		      "has(\"laptop\")", "    ^^^^^^^^"));
	parse_err("1 + has(laptop.energy * 2)",
		  ERR("9", "'has' takes a quantity name or a prefix of names",
		      "1 + has(laptop.energy * 2)",
		      "        ^^^^^^^^^^^^^^^^^"));
	parse_err("has(has(laptop))",
		  ERR("5", "'has' takes a quantity name or a prefix of names",
		      "has(has(laptop))", "    ^^^^^^^^^^^"));
	parse_err("has()", ERR("1", "'has' takes 1 argument, got 0", "has()",
			       "^^^^^"));
	parse_err("has(a, b)", ERR("1", "'has' takes 1 argument, got 2",
				   "has(a, b)", "^^^^^^^^^"));
}

/*
 * Evaluates s with env.missing_ok: expr_eval() returns want_ret, and
 * prints exactly want_msg (and counts it when there is one).
 */
static void
eval_missing(const char *s, int want_ret, const char *want_msg)
{
	struct srcfile *f = src(s);
	struct expr_env env = { .reg = reg, .resolve = resolve_d, .missing_ok = 1 };
	struct value v = { 0 };
	struct expr *e;
	int ret;

	diag_reset();
	capture_start();
	e = expr_parse(f, 0, f->len);
	assert_non_null(e);
	ret = expr_eval(e, &env, &v);
	assert_captured(want_msg);
	assert_int_equal(ret, want_ret);
	assert_int_equal(diag_errors(), *want_msg ? 1 : 0);
	if (!ret)
		value_release(&v);
	assert_null(v.text);
	expr_free(e);
	srcfile_free(f);
}

/* For a fallback (| or:"..."): a missing quantity alone is quiet. */
static void
test_missing_ok(void **state)
{
	(void)state;
	eval_missing("laptop.ops_mx", 1, "");
	eval_missing("d.power_w", 1, "");
	eval_missing("2 * device.c.year + 1", 1, "");
	eval_missing("unit(device.c.year)", 1, "");
	eval_missing("record.name == device.c.name", 1, "");
	eval_missing("-device.c.year", 1, "");
	eval_missing("log10(device.c.year)", 1, "");
	eval_missing("1 && device.c.year", 1, "");
	/* Present: a value as usual. */
	eval_missing("laptop.energy", 0, "");
	eval_missing("d.year * 2", 0, "");
	eval_missing("0 && device.c.year", 0, "");
	eval_missing("has(device.c)", 0, "");
	/* Every other error stays one. */
	eval_missing("record.name + 1",
		     -1, ERR("1", "'+' needs a number, got the text "
			     "'Roadrunner'", "record.name + 1", "^^^^^^^^^^^"));
	eval_missing("log10(0)",
		     -1, ERR("1", "'log10' gives no finite number here",
			     "log10(0)", "^^^^^^^^"));
	eval_missing("laptop.energy / 0",
		     -1, ERR("1", "'/' gives no finite number here (division "
			     "by zero)", "laptop.energy / 0",
			     "^^^^^^^^^^^^^^^^^"));
	/* Evaluated left to right: what fails first decides. */
	eval_missing("record.name + device.c.year", 1, "");
	eval_missing("(record.name + 1) + device.c.year",
		     -1, ERR("2", "'+' needs a number, got the text "
			     "'Roadrunner'", "(record.name + 1) + device.c.year",
			     " ^^^^^^^^^^^"));
}

/* The values named in an expression, as a failed assertion shows them. */
static void
values_are(const char *s, const char *want)
{
	struct srcfile *f = src(s);
	struct expr_env env = { .reg = reg, .resolve = resolve_d, .missing_ok = 0 };
	struct buf out = BUF_INIT;
	struct expr *e;

	diag_reset();
	capture_start();
	e = expr_parse(f, 0, f->len);
	assert_non_null(e);
	expr_values(e, &env, &out);
	assert_captured("");
	assert_int_equal(diag_errors(), 0);
	assert_string_equal(out.data, want);
	assert_sane_buf(&out);
	buf_release(&out);
	expr_free(e);
	srcfile_free(f);
}

static void
test_values(void **state)
{
	(void)state;
	values_are("1 + 2 < 3", "");
	values_are("laptop.volume", "laptop.volume = 0.001");
	values_are("laptop.energy > 1e17",
		   "laptop.energy = 8.98755e+16");
	/* Once each, in the order written; loop variables resolved. */
	values_are("d.year < device.b.year && device.a.year > 2000",
		   "device.a.year = 2008, device.b.year = 2024");
	values_are("record.name == \"x\" || unit(laptop.volume) == \"m\"",
		   "record.name = 'Roadrunner', laptop.volume = 0.001");
	values_are("has(device.c) || has(d) || device.c.year > 1",
		   "has(device.c) = 0, has(device.a.id) = 1, "
		   "device.c.year = (no such quantity)");
	values_are("has(laptop.volume) && laptop.volume > 1",
		   "has(laptop.volume) = 1, laptop.volume = 0.001");
	values_are("abs(log10(laptop.volume) - log10(laptop.volume)) < 0.5",
		   "laptop.volume = 0.001");
}

/* Values carry their units: sums need one, conversions say so. */
static void
test_units(void **state)
{
	struct value v;

	(void)state;
	num_is("laptop.energy + laptop.energy", 2 * 8.987551787368176e16);
	num_is("laptop.energy / laptop.energy", 1);
	/* A number written in the template compares with any unit. */
	num_is("laptop.volume < 0.002", 1);
	num_is("min(laptop.volume, 1)", 0.001);
	/* Products and quotients multiply units; x / 8 keeps its own. */
	eval_ok("laptop.volume / 8", &v);
	assert_string_equal(v.utext, "m^3");
	value_release(&v);
	eval_ok("laptop.energy / laptop.volume", &v);
	assert_null(v.utext);
	assert_int_equal(v.unit.exp[U_M], -1);
	assert_int_equal(v.unit.exp[U_KG], 1);
	value_release(&v);
	/* sqrt of a square, a power of a power. */
	eval_ok("sqrt(laptop.volume^2)", &v);
	assert_int_equal(v.unit.exp[U_M], 3);
	value_release(&v);
	eval_ok("(laptop.volume^2)^(1/6)", &v);
	assert_int_equal(v.unit.exp[U_M], 1);
	assert_near(v.num, 0.1, 1e-15);
	value_release(&v);
	/* Logs of ratios and of counts are pure numbers. */
	num_is("log10(laptop.ops_max / laptop.ops_max)", 0);
	num_is("device.b.year - device.a.year", 16);
	eval_err("laptop.volume + laptop.energy",
		 ERR("1", "cannot add m^3 and J",
		     "laptop.volume + laptop.energy",
		     "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"));
	eval_err("laptop.energy - 1",
		 ERR("1", "cannot subtract a pure number from J",
		     "laptop.energy - 1", "^^^^^^^^^^^^^^^^^"));
	eval_err("laptop.energy > laptop.volume",
		 ERR("1", "cannot compare J with m^3",
		     "laptop.energy > laptop.volume",
		     "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"));
	eval_err("max(laptop.energy, laptop.ops_max)",
		 ERR("1", "cannot take the max of J and ops/s",
		     "max(laptop.energy, laptop.ops_max)",
		     "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"));
	eval_err("log10(laptop.volume)",
		 ERR("1", "'log10' needs a pure number, got m^3 (divide by "
		     "a quantity of the same unit first)",
		     "log10(laptop.volume)", "^^^^^^^^^^^^^^^^^^^^"));
	eval_err("sqrt(laptop.volume)",
		 ERR("1", "m^3 to the power 0.5 has no unit",
		     "sqrt(laptop.volume)", "^^^^^^^^^^^^^^^^^^^"));
	eval_err("2 ^ laptop.volume",
		 ERR("1", "an exponent must be a pure number, got m^3",
		     "2 ^ laptop.volume", "^^^^^^^^^^^^^^^^^"));
}

static void
test_unknown_function(void **state)
{
	(void)state;
	parse_err("1 + foo(2)",
		  ERR("5", "unknown function 'foo' (functions: log10, log2, "
		      "ln, exp, sqrt, abs, floor, ceil, round, pow, min, max, "
		      "unit, formula, source, name, has, equation, math, cite, "
		      "references, count, first, last, largest, smallest, "
		      "join, if)",
		      "1 + foo(2)",
		      "    ^^^"));
	/* A dotted name before '(' is a quantity, not a call. */
	parse_err("laptop.energy(2)",
		  ERR("14", "unexpected text after the expression",
		      "laptop.energy(2)", "             ^"));
}

static void
test_arity(void **state)
{
	(void)state;
	parse_err("pow(2)", ERR("1", "'pow' takes 2 arguments, got 1",
				"pow(2)", "^^^^^^"));
	parse_err("min()", ERR("1", "'min' takes 2 arguments, got 0",
			       "min()", "^^^^^"));
	parse_err("sqrt(1, 2)", ERR("1", "'sqrt' takes 1 argument, got 2",
				    "sqrt(1, 2)", "^^^^^^^^^^"));
	parse_err("1 + log10()", ERR("5", "'log10' takes 1 argument, got 0",
				     "1 + log10()", "    ^^^^^^^"));
	parse_err("max(1, 2, 3)", ERR("11", "too many arguments",
				      "max(1, 2, 3)", "          ^"));
	parse_err("max(1 2)", ERR("7", "expected ',' or ')' in the arguments",
				  "max(1 2)", "      ^"));
	parse_err("unit(1)", ERR("6", "'unit' takes a quantity name",
				 "unit(1)", "     ^"));
	parse_err("name(laptop.energy + 1)",
		  ERR("6", "'name' takes a quantity name",
		      "name(laptop.energy + 1)", "     ^^^^^^^^^^^^^^^^^"));
}

static void
test_type_errors(void **state)
{
	(void)state;
	eval_err("record.name + 1",
		 ERR("1", "'+' needs a number, got the text 'Roadrunner'",
		     "record.name + 1", "^^^^^^^^^^^"));
	eval_err("1 * record.name",
		 ERR("5", "'*' needs a number, got the text 'Roadrunner'",
		     "1 * record.name", "    ^^^^^^^^^^^"));
	eval_err("\"a\" < \"b\"",
		 ERR("1", "'<' needs a number, got the text 'a'",
		     "\"a\" < \"b\"", "^^^"));
	eval_err("record.name == 1",
		 ERR("1", "'==' needs a number, got the text 'Roadrunner'",
		     "record.name == 1", "^^^^^^^^^^^"));
	eval_err("1 != \"1\"",
		 ERR("6", "'!=' needs a number, got the text '1'",
		     "1 != \"1\"", "     ^^^"));
	eval_err("-record.name",
		 ERR("1", "'-' needs a number, got the text 'Roadrunner'",
		     "-record.name", "^"));
	eval_err("sqrt(record.name)",
		 ERR("6", "'sqrt' needs a number, got the text 'Roadrunner'",
		     "sqrt(record.name)", "     ^^^^^^^^^^^"));
	eval_err("2 ^ unit(laptop.energy)",
		 ERR("5", "'^' needs a number, got the text 'J'",
		     "2 ^ unit(laptop.energy)", "    ^^^^^^^^^^^^^^^^^^^"));
}

/* max, min and count over the rows of a family (device.a, device.b). */
static void
test_reductions(void **state)
{
	struct srcfile *f;
	struct expr *e;
	struct buf names = BUF_INIT;

	(void)state;
	num_is("max(x in device: x.year)", 2024);
	num_is("min(x in device: x.year)", 2008);
	num_is("count(x in device)", 2);
	num_is("count(x in device where x.year > 2010)", 1);
	num_is("count(x in device where x.year > 3000)", 0);
	num_is("max(x in device where x.year < 2010: x.year)", 2008);
	num_is("max(x in device: x.year - 2000) * laptop.mass / laptop.mass",
	       24);
	/* The reduction's d is its own, over the loop's d. */
	num_is("max(d in device: d.year) - d.year", 16);
	num_is("count(x in device laptop)", 2);
	/* Units: one dimension for every row, the first row's unit. */
	num_is("max(x in device: x.year * laptop.mass) / laptop.mass", 2024);
	eval_err("max(x in nothing: x.year)",
		 ERR("1", "'max' over no rows: no 'nothing.X.id' in this "
		     "edition", "max(x in nothing: x.year)",
		     "^^^^^^^^^^^^^^^^^^^^^^^^^"));
	eval_err("min(x in device: x.name)",
		 ERR("18", "'min' needs a number for each row, got the text "
		     "'A <b>*bold*</b> | pipe' (row device.a)",
		     "min(x in device: x.name)", "                 ^^^^^^"));
	eval_err("max(x in device: x.mass)",
		 ERR("18", "unknown quantity 'device.a.mass' (from 'x.mass'); "
		     "did you mean 'device.a.name', 'device.a.id' or "
		     "'device.a.year'?",
		     "max(x in device: x.mass)", "                 ^^^^^^"));
	parse_err("max(x in device x.year)",
		  ERR("23", "expected ':' and the expression of each row",
		      "max(x in device x.year)", "                      ^"));
	parse_err("count(3)",
		  ERR("7", "expected 'VAR in PREFIX' after the '(' of a "
		      "reduction", "count(3)", "      ^"));
	parse_err("max(x in : x.year)",
		  ERR("10", "expected the prefix of the rows after 'in'",
		      "max(x in : x.year)", "         ^"));
	/* Its inputs: the names that are not its variable's. */
	f = src("max(x in device: x.year * laptop.mass) + laptop.volume");
	e = expr_parse(f, 0, f->len);
	assert_non_null(e);
	buf_addch(&names, '\n');
	expr_inputs(e, &names);
	assert_string_equal(names.data, "\nlaptop.mass\nlaptop.volume\n");
	buf_release(&names);
	expr_free(e);
	srcfile_free(f);
}


/*
 * A source of rows for reductions (a data file's, in the model): three
 * lists, the second without a power, the third on the same system as
 * the second.
 */
static const struct {
	const char *system;
	double year, power;
} lists[] = {
	{ "Alpha", 2008, 2.5e6 },
	{ "Beta", 2010, -1 },
	{ "Beta", 2011, 4e6 },
};

static int
lists_get(void *ctx, size_t i, const char *rest, struct value *out)
{
	(void)ctx;
	if (strcmp(rest, "system") && strcmp(rest, "year") &&
	    strcmp(rest, "power"))
		return 2;
	if (i >= sizeof(lists) / sizeof(lists[0]))
		return 1;
	if (!strcmp(rest, "power") && lists[i].power < 0)
		return 1;
	if (!out)
		return 0;
	memset(out, 0, sizeof(*out));
	if (!strcmp(rest, "system")) {
		out->type = VALUE_TEXT;
		out->text = strdup(lists[i].system);
		return 0;
	}
	out->type = VALUE_NUMBER;
	if (!strcmp(rest, "year")) {
		out->num = lists[i].year;
		assert_int_equal(unit_parse("year", &out->unit, NULL), 0);
		return 0;
	}
	if (!strcmp(rest, "power")) {
		out->num = lists[i].power;
		assert_int_equal(unit_parse("W", &out->unit, NULL), 0);
		out->utext = "W";
		return 0;
	}
	return 1;
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
	suggest_add(sg, "year");
	suggest_add(sg, "power");
}

static int
lists_rows(void *ctx, const char *over, struct expr_rows *out)
{
	(void)ctx;
	if (strcmp(over, "lists"))
		return 1;
	out->n = sizeof(lists) / sizeof(lists[0]);
	out->ctx = NULL;
	out->get = lists_get;
	out->where = lists_where;
	out->names = lists_names;
	out->what = "lists.csv";
	return 0;
}

/* s evaluated with the rows of "lists": 0, or -1 with messages want. */
static int
rows_eval(const char *s, struct value *v, const char *want)
{
	struct srcfile *f = src(s);
	struct expr_env env = { .reg = reg, .rows = lists_rows };
	struct expr *e;
	int ret;

	diag_reset();
	capture_start();
	e = expr_parse(f, 0, f->len);
	assert_non_null(e);
	ret = expr_eval(e, &env, v);
	assert_captured(want);
	expr_free(e);
	srcfile_free(f);
	return ret;
}

static void
test_row_reductions(void **state)
{
	struct value v;

	(void)state;
	/* Over a family of the registry. */
	text_is("first(x in device: x.name)", "A <b>*bold*</b> | pipe");
	text_is("last(x in device: x.name)", "B");
	text_is("largest(x in device by x.year: x.name)", "B");
	text_is("smallest(x in device by x.year: x.name)",
		"A <b>*bold*</b> | pipe");
	text_is("join(x in device: x.id)", "a and b");
	text_is("join(x in device where x.year > 3000: x.id)", "");
	num_is("count(x in device distinct x.year > 2000)", 1);
	num_is("if(laptop.mass > 0, 2, 1 / 0)", 2);
	text_is("if(0, \"yes\", \"no\")", "no");

	/* Over a source's rows, with the row before and empty cells. */
	assert_int_equal(rows_eval("count(r in lists where has(r.power))", &v,
				   ""), 0);
	assert_true(v.num == 2);
	value_release(&v);
	assert_int_equal(rows_eval("count(r in lists distinct r.system)", &v,
				   ""), 0);
	assert_true(v.num == 2);
	value_release(&v);
	assert_int_equal(rows_eval("count(r in lists where has(r.prev.system) "
				   "&& r.system != r.prev.system)", &v, ""), 0);
	assert_true(v.num == 1);
	value_release(&v);
	assert_int_equal(rows_eval("join(r in lists distinct r.system: "
				   "r.system)", &v, ""), 0);
	assert_string_equal(v.text, "Alpha and Beta");
	value_release(&v);
	/* One row's value keeps its row. */
	assert_int_equal(rows_eval("last(r in lists: r.power)", &v, ""), 0);
	assert_true(v.num == 4e6);
	assert_string_equal(v.utext, "W");
	assert_string_equal(v.origin, "lists.csv:4");
	assert_string_equal(v.source, "the lists");
	value_release(&v);
	assert_int_equal(rows_eval("largest(r in lists by r.year where "
				   "r.year < 2011: r.system)", &v, ""), 0);
	assert_string_equal(v.text, "Beta");
	assert_string_equal(v.origin, "lists.csv:3");
	value_release(&v);
	assert_int_equal(rows_eval("max(r in lists where has(r.power): "
				   "r.power)", &v, ""), 0);
	assert_true(v.num == 4e6);
	value_release(&v);
	assert_int_equal(rows_eval("max(r in lists: r.power)", &v,
		ERR("17", "'r.power' has no value in the row of lists.csv:3 "
		    "(an empty cell: guard it with has(r.power))",
		    "max(r in lists: r.power)", "                ^^^^^^^")), -1);
	assert_int_equal(rows_eval("first(r in lists where r.year > 2020: "
				   "r.year)", &v,
		ERR("1", "'first' over no rows: lists.csv has none in this "
		    "edition for which the condition holds",
		    "first(r in lists where r.year > 2020: r.year)",
		    "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")), -1);
	assert_int_equal(rows_eval("count(r in lists where r.sytem == \"x\")",
				   &v, ERR("24", "'r.sytem' names nothing of the "
				   "rows of lists.csv: no 'sytem'; did you "
				   "mean 'system'?", "count(r in lists where "
				   "r.sytem == \"x\")",
				   "                       ^^^^^^^")), -1);
	parse_err("largest(x in device: x.year)",
		  ERR("20", "largest() and smallest() need 'by' and the key "
		      "the rows are compared by",
		      "largest(x in device: x.year)",
		      "                   ^"));
	parse_err("first(x in device by x.year: x.year)",
		  ERR("19", "only largest() and smallest() take 'by'",
		      "first(x in device by x.year: x.year)",
		      "                  ^^"));
}

static void
test_not_finite(void **state)
{
	(void)state;
	eval_err("1 / 0",
		 ERR("1", "'/' gives no finite number here (division by zero)",
		     "1 / 0", "^^^^^"));
	eval_err("laptop.energy / (1 - 1)",
		 ERR("1", "'/' gives no finite number here (division by zero)",
		     "laptop.energy / (1 - 1)", "^^^^^^^^^^^^^^^^^^^^^^^"));
	eval_err("log10(0)", ERR("1", "'log10' gives no finite number here",
				 "log10(0)", "^^^^^^^^"));
	eval_err("2 + ln(0)", ERR("5", "'ln' gives no finite number here",
				  "2 + ln(0)", "    ^^^^^"));
	eval_err("sqrt(-1)", ERR("1", "'sqrt' gives no finite number here",
				 "sqrt(-1)", "^^^^^^^^"));
	eval_err("exp(1000)", ERR("1", "'exp' gives no finite number here",
				  "exp(1000)", "^^^^^^^^^"));
	eval_err("10^400", ERR("1", "'^' gives no finite number here",
			       "10^400", "^^^^^^"));
	eval_err("laptop.ops_max * laptop.ops_max * laptop.ops_max * "
		 "laptop.ops_max * laptop.ops_max * laptop.ops_max * "
		 "laptop.ops_max",
		 ERR("1", "'*' gives no finite number here",
		     "laptop.ops_max * laptop.ops_max * laptop.ops_max * "
		     "laptop.ops_max * laptop.ops_max * laptop.ops_max * "
		     "laptop.ops_max",
		     "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
		     "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
		     "^^^^^^^^^^^^^^"));
}

static void
test_syntax_errors(void **state)
{
	(void)state;
	parse_err("(1 + 2", ERR("1", "unclosed '('", "(1 + 2", "^"));
	parse_err("3 * (1 + (2)", ERR("5", "unclosed '('", "3 * (1 + (2)",
				      "    ^"));
	parse_err("\"abc", ERR("1", "unterminated string", "\"abc", "^"));
	parse_err("record.name == \"abc\\\"",
		  ERR("16", "unterminated string",
		      "record.name == \"abc\\\"", "               ^"));
	parse_err("1 2", ERR("3", "unexpected text after the expression",
			     "1 2", "  ^"));
	parse_err("(1) x", ERR("5", "unexpected text after the expression",
			       "(1) x", "    ^"));
	parse_err("1 + 2)", ERR("6", "unexpected text after the expression",
				"1 + 2)", "     ^"));
	parse_err("", ERR("1", "expected a value at the end of the expression",
			  "", "^"));
	parse_err("   ", ERR("3", "expected a value at the end of the "
			     "expression", "   ", "  ^"));
	parse_err("1 +", ERR("3", "expected a value at the end of the "
			     "expression", "1 +", "  ^"));
	parse_err("1 + #", ERR("5", "unexpected '#'", "1 + #", "    ^"));
	parse_err("1 + )", ERR("5", "unexpected ')'", "1 + )", "    ^"));
	parse_err("1.2.3", ERR("1", "malformed number", "1.2.3", "^^^^^"));
	parse_err("2 * 1e", ERR("5", "malformed number", "2 * 1e", "    ^^"));
	parse_err("1e999", ERR("1", "malformed number", "1e999", "^^^^^"));
	/* A single '&' or '|' is no operator. */
	parse_err("1 & 2", ERR("3", "unexpected text after the expression",
			       "1 & 2", "  ^"));
}

/* One message per expression, even with several mistakes. */
static void
test_one_syntax_error(void **state)
{
	(void)state;
	parse_err("(1 + # + foo(2)",
		  ERR("6", "unexpected '#'", "(1 + # + foo(2)", "     ^"));
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

/*
 * The expected message for text s (ASCII, one line) with the caret at
 * byte off: a line longer than 256 bytes is shown as the 256 bytes from
 * 85 before the caret, with "..." where it is cut.
 */
static char *
deep_msg(const char *s, size_t off)
{
	struct buf b = BUF_INIT;
	size_t len = strlen(s), ws = 0, we = len, col = off + 1;

	if (len > 256) {
		if (off > 85)
			ws = off - 85;
		if (len - ws > 256)
			we = ws + 256;
	}
	buf_addf(&b, "t.md:1:%zu: error: expression nested too deeply\n"
		 "    %s%.*s%s\n    %s", col, ws ? "..." : "",
		 (int)(we - ws), s + ws, we < len ? "..." : "",
		 ws ? "   " : "");
	for (off -= ws; off; off--)
		buf_addch(&b, ' ');
	buf_addstr(&b, "^\n");
	return buf_detach(&b, NULL);
}

static void
test_nesting_limit(void **state)
{
	char *s, *want;

	(void)state;
	/* Shallow nesting is fine. */
	/* Parentheses, signs and powers each cost one level of 64. */
	s = nested("(", 60, "1", ")");
	num_is(s, 1);
	free(s);
	s = nested("-", 20, "1", "");
	num_is(s, 1);
	free(s);
	s = nested("!", 21, "0", "");
	num_is(s, 1);
	free(s);

	/* Deep nesting is an error, not a crash. */
	s = nested("(", 200, "1", ")");
	diag_reset();
	capture_start();
	{
		struct srcfile *f = src(s);
		struct expr *e = expr_parse(f, 0, f->len);
		char *got = capture_end();

		assert_null(e);
		assert_int_equal(diag_errors(), 1);
		assert_non_null(strstr(got, "error: expression nested too "
				       "deeply\n"));
		assert_int_equal(strncmp(got, "t.md:1:", 7), 0);
		free(got);
		srcfile_free(f);
	}
	free(s);

	/* The 65th minus is one level too many. */
	s = nested("-", 200, "1", "");
	want = deep_msg(s, 64);
	parse_err(s, want);
	free(want);
	free(s);
	s = nested("!", 100000, "1", "");
	want = deep_msg(s, 64);
	parse_err(s, want);
	free(want);
	free(s);
	/* Powers nest to the right: refused at the same depth. */
	s = nested("2^", 100000, "1", "");
	{
		struct srcfile *f = src(s);
		struct expr *e;
		char *got;

		diag_reset();
		capture_start();
		e = expr_parse(f, 0, f->len);
		got = capture_end();
		assert_null(e);
		assert_int_equal(diag_errors(), 1);
		assert_non_null(strstr(got, "expression nested too deeply"));
		free(got);
		srcfile_free(f);
	}
	free(s);
	/* A long flat chain makes a tall tree: refused, not a crash. */
	s = nested("1+", 100000, "1", "");
	{
		struct srcfile *f = src(s);
		struct expr *e;
		char *got;

		diag_reset();
		capture_start();
		e = expr_parse(f, 0, f->len);
		got = capture_end();
		assert_null(e);
		assert_int_equal(diag_errors(), 1);
		assert_non_null(strstr(got, "expression too long or nested "
				       "too deeply"));
		free(got);
		srcfile_free(f);
	}
	free(s);
	/* A chain of 200 terms is fine. */
	s = nested("1+", 200, "1", "");
	num_is(s, 201);
	free(s);
}

static void
test_truthy(void **state)
{
	struct value v = { 0 };
	char empty[] = "", zero[] = "0";

	(void)state;
	v.type = VALUE_NUMBER;
	v.num = 0;
	assert_false(value_truthy(&v));
	v.num = -0.0;
	assert_false(value_truthy(&v));
	v.num = 1e-300;
	assert_true(value_truthy(&v));
	v.type = VALUE_TEXT;
	v.text = empty;
	assert_false(value_truthy(&v));
	v.text = zero;
	assert_true(value_truthy(&v));
}

/*
 * Buffers lent for names come back the last first and are lent again,
 * empty, without a new allocation; a name evaluated through them reads
 * as through the environment without.
 */
static void
test_bufs(void **state)
{
	struct expr_bufs *bs = expr_bufs_new();
	struct buf *a, *b, *c;
	struct srcfile *f = src("d.year * 2");
	struct expr *e = expr_parse(f, 0, f->len);
	struct expr_env env = { .reg = reg, .resolve = resolve_d,
				.bufs = bs };
	struct value v = { 0 };

	(void)state;
	a = expr_buf_take(bs);
	b = expr_buf_take(bs);
	assert_ptr_not_equal(a, b);
	buf_addstr(b, "device.a.year");
	expr_buf_give(bs, b);
	c = expr_buf_take(bs);
	assert_ptr_equal(c, b);
	assert_int_equal(c->len, 0);
	assert_string_equal(c->data, "");
	expr_buf_give(bs, c);
	expr_buf_give(bs, a);
	assert_non_null(e);
	assert_int_equal(expr_eval(e, &env, &v), 0);
	assert_true(v.num == 2 * registry_get(reg, "device.a.year")->value);
	value_release(&v);
	expr_free(e);
	srcfile_free(f);
	expr_bufs_free(bs);
	expr_bufs_free(NULL);
}

#define T(f) cmocka_unit_test_setup(f, reset)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_numbers),
		T(test_bufs),
		T(test_precedence),
		T(test_left_associative),
		T(test_comparisons),
		T(test_logic),
		T(test_short_circuit),
		T(test_text),
		T(test_names),
		T(test_parse_slice),
		T(test_functions),
		T(test_unknown_quantity),
		T(test_has),
		T(test_missing_ok),
		T(test_values),
		T(test_units),
		T(test_unknown_function),
		T(test_arity),
		T(test_type_errors),
		T(test_reductions),
		T(test_row_reductions),
		T(test_not_finite),
		T(test_syntax_errors),
		T(test_one_syntax_error),
		T(test_nesting_limit),
		T(test_truthy),
	};

	return cmocka_run_group_tests(tests, setup_registry,
				      teardown_registry);
}
