/*
 * Unit tests for src/mathml.h: expressions typeset as MathML, with
 * parentheses only where precedence needs them, fractions, powers,
 * roots, unary minus, functions, and symbols from the registry.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "expr.h"
#include "mathml.h"
#include "registry.h"

/* The MathML of s inside <math>...</math>, symbols from reg. */
static void
typeset(const char *s, const struct registry *reg, const char *page,
	const char *want)
{
	struct srcfile *f = srcfile_from_mem("t", s, strlen(s));
	struct expr *e = expr_parse(f, 0, f->len);
	struct buf b = BUF_INIT, w = BUF_INIT;

	assert_non_null(e);
	mathml_expr(&b, e, reg, NULL, page, 0);
	buf_addf(&w, "<math>%s</math>", want);
	assert_string_equal(b.data, w.data);
	buf_release(&b);
	buf_release(&w);
	expr_free(e);
	srcfile_free(f);
}

static void
is(const char *s, const char *want)
{
	typeset(s, NULL, NULL, want);
}

#define MI(x) "<mi>" x "</mi>"
#define MN(x) "<mn>" x "</mn>"
#define MO(x) "<mo>" x "</mo>"
#define ROW(x) "<mrow>" x "</mrow>"
#define PAREN(x) ROW(MO("(") x MO(")"))
#define TIMES MO("&#x2062;")
/* A linked symbol: HTML in <mtext>; beside a spaced operator, an empty
   <mi> keeps it from being space-like. */
#define SYM(x) "<mtext class=\"sym\">" x "</mtext>"
#define SOLID(x) "<mrow>" SYM(x) "<mi></mi></mrow>"
#define MINUS MO("\xe2\x88\x92")

static void
test_precedence(void **state)
{
	(void)state;
	is("a + b * c", ROW(MI("a") MO("+") ROW(MI("b") TIMES MI("c"))));
	is("(a + b) * c",
	   ROW(PAREN(ROW(MI("a") MO("+") MI("b"))) TIMES MI("c")));
	is("a - (b - c)",
	   ROW(MI("a") MINUS PAREN(ROW(MI("b") MINUS MI("c")))));
	is("a - b - c", ROW(ROW(MI("a") MINUS MI("b")) MINUS MI("c")));
	is("a + (b + c)",
	   ROW(MI("a") MO("+") PAREN(ROW(MI("b") MO("+") MI("c")))));
	/* A number after a factor needs a sign; before it, none. */
	is("2 * a", ROW(MN("2") TIMES MI("a")));
	is("a * 2", ROW(MI("a") MO("\xc3\x97") MN("2")));
	is("pi * a^2", ROW(MI("\xcf\x80") TIMES
			   "<msup>" MI("a") ROW(MN("2")) "</msup>"));
}

static void
test_fractions(void **state)
{
	(void)state;
	/* The bar groups: no parentheses above or below it. */
	is("(a + b) / (c * d)",
	   "<mfrac>" ROW(ROW(MI("a") MO("+") MI("b")))
	   ROW(ROW(MI("c") TIMES MI("d"))) "</mfrac>");
	is("a / (b / c)",
	   "<mfrac>" ROW(MI("a")) ROW("<mfrac>" ROW(MI("b")) ROW(MI("c"))
				       "</mfrac>") "</mfrac>");
	is("4 / 3 * a",
	   ROW("<mfrac>" ROW(MN("4")) ROW(MN("3")) "</mfrac>" TIMES MI("a")));
}

static void
test_powers(void **state)
{
	(void)state;
	/* Right-associative: a^b^c needs none, (a^b)^c does. */
	is("a^b^c", "<msup>" MI("a") ROW("<msup>" MI("b") ROW(MI("c"))
					 "</msup>") "</msup>");
	is("(a^b)^c", "<msup>" PAREN("<msup>" MI("a") ROW(MI("b")) "</msup>")
	   ROW(MI("c")) "</msup>");
	is("(a / b)^2", "<msup>" PAREN("<mfrac>" ROW(MI("a")) ROW(MI("b"))
				       "</mfrac>") ROW(MN("2")) "</msup>");
	is("(a + b)^2", "<msup>" PAREN(ROW(MI("a") MO("+") MI("b")))
	   ROW(MN("2")) "</msup>");
	/* Powers 1/2 and 1/n are roots. */
	is("x^(1/2)", "<msqrt>" MI("x") "</msqrt>");
	is("x^(1/3)", "<mroot>" ROW(MI("x")) MN("3") "</mroot>");
	is("sqrt(a + b)", "<msqrt>" ROW(MI("a") MO("+") MI("b")) "</msqrt>");
	/* 1e8 is ten to the eight; 2.5e-3 has its mantissa. */
	is("1e8", "<msup>" MN("10") MN("8") "</msup>");
	is("2.5e-3", ROW(MN("2.5") MO("\xc3\x97") "<msup>" MN("10")
			 ROW(MINUS MN("3")) "</msup>"));
}

static void
test_unary_minus(void **state)
{
	(void)state;
	is("-a^2", ROW(MINUS "<msup>" MI("a") ROW(MN("2")) "</msup>"));
	is("(-a)^2", "<msup>" PAREN(ROW(MINUS MI("a"))) ROW(MN("2"))
	   "</msup>");
	is("a * -b", ROW(MI("a") TIMES PAREN(ROW(MINUS MI("b")))));
	is("a - -b", ROW(MI("a") MINUS PAREN(ROW(MINUS MI("b")))));
	is("-(a + b)", ROW(MINUS PAREN(ROW(MI("a") MO("+") MI("b")))));
}

static void
test_functions(void **state)
{
	(void)state;
	is("log10(a / b)",
	   ROW("<msub>" MI("log") MN("10") "</msub>" MO("&#x2061;")
	       PAREN("<mfrac>" ROW(MI("a")) ROW(MI("b")) "</mfrac>")));
#define APPLY_SPACED "<mo rspace=\"0.1667em\">&#x2061;</mo>"
	is("log2(x)", ROW("<msub>" MI("log") MN("2") "</msub>"
			  APPLY_SPACED MI("x")));
	is("ln(2)", ROW(MI("ln") APPLY_SPACED MN("2")));
	is("ln(2)^2", "<msup>" PAREN(ROW(MI("ln") APPLY_SPACED MN("2")))
	   ROW(MN("2")) "</msup>");
	is("k * ln(2)", ROW(MI("k") "<mo lspace=\"0.1667em\">&#x2062;</mo>"
			    ROW(MI("ln") APPLY_SPACED MN("2"))));
	is("exp(-a)", "<msup>" MI("e") ROW(ROW(MINUS MI("a"))) "</msup>");
	is("abs(a - b)", ROW(MO("|") ROW(MI("a") MINUS MI("b")) MO("|")));
	is("min(a, b)", ROW(MI("min") MO("&#x2061;")
			    ROW(MO("(") MI("a") MO(",") MI("b") MO(")"))));
}

static void
test_symbols(void **state)
{
	struct registry *reg = registry_new();

	(void)state;
	assert_non_null(registry_add_num(reg, "laptop.energy", 1, "J", NULL,
					 NULL, NULL, NULL));
	assert_non_null(registry_add_num(reg, "const.hbar", 1, "J s", NULL,
					 NULL, NULL, NULL));
	assert_non_null(registry_add_num(reg, "x.ops_max", 1, "ops/s",
					 NULL, NULL, NULL, NULL));
	registry_set_symbol(reg, "laptop.energy", "E");
	registry_set_symbol(reg, "const.hbar", "\xc4\xa7");
	registry_set_symbol(reg, "x.ops_max", "R_max");
	/*
	 * Linked: an HTML link with a title inside <mtext> (Chromium follows
	 * no MathML href); one letter italic, a subscript below it.
	 */
	typeset("2 * laptop.energy / (pi * const.hbar)", reg,
		"quantities.html",
		"<mfrac>" ROW(ROW(MN("2") TIMES
		SYM("<a href=\"quantities.html#laptop.energy\" "
		"title=\"laptop.energy, J\"><i>E</i></a>")))
		ROW(ROW(MI("\xcf\x80") TIMES
		SYM("<a href=\"quantities.html#const.hbar\" "
		"title=\"const.hbar, J s\"><i>\xc4\xa7</i></a>")))
		"</mfrac>");
	typeset("x.ops_max", reg, "",
		SYM("<a href=\"#x.ops_max\" title=\"x.ops_max, "
		"ops/s\"><i>R</i><sub>max</sub></a>"));
	/* Not linked: MathML's own letters, the subscript upright. */
	typeset("x.ops_max", reg, NULL,
		"<msub>" MI("R") "<mi mathvariant=\"normal\">max</mi></msub>");
	/* No symbol: the name, upright; no quantity: no link. */
	typeset("laptop.energy + y.z", NULL, "",
		ROW("<mi mathvariant=\"normal\">laptop.energy</mi>" MO("+")
		    "<mi mathvariant=\"normal\">y.z</mi>"));
	registry_free(reg);
}

/*
 * A linked quantity with no symbol is its whole name: its '_' is not a
 * subscript. With MATHML_SYMBOLS, only a formula of symbols is typeset.
 */
static void
test_names(void **state)
{
	struct registry *reg = registry_new();
	struct quantity *q;
	struct buf b = BUF_INIT;

	(void)state;
	assert_non_null(registry_add_num(reg, "device.air_m5.mass", 1, "kg",
					 NULL, NULL, NULL, NULL));
	assert_non_null(registry_add_num(reg, "const.c", 1, "m/s", NULL,
					 NULL, NULL, NULL));
	registry_set_symbol(reg, "const.c", "c");
	typeset("device.air_m5.mass", reg, "",
		SYM("<a href=\"#device.air_m5.mass\" "
		"title=\"device.air_m5.mass, kg\"><span>device.air_m5.mass"
		"</span></a>"));
	q = registry_add_num(reg, "e.rest", 1, "J", NULL,
			     "device.air_m5.mass const.c", NULL, NULL);
	assert_non_null(q);
	registry_set_expr(q, "device.air_m5.mass * const.c^2", "rest energy");
	assert_int_equal(mathml_formula(&b, reg, q, "", MATHML_SYMBOLS, NULL), -1);
	assert_int_equal(b.len, 0);
	registry_set_symbol(reg, "e.rest", "E");
	assert_int_equal(mathml_formula(&b, reg, q, "", MATHML_SYMBOLS, NULL), -1);
	assert_int_equal(b.len, 0);
	registry_set_symbol(reg, "device.air_m5.mass", "m");
	assert_int_equal(mathml_formula(&b, reg, q, "", MATHML_SYMBOLS, NULL), 0);
	assert_non_null(strstr(b.data, "<i>m</i>"));
	buf_release(&b);
	registry_free(reg);
}

static const char *const families[][2] = {
	{ "device.*.year", "y_d" },
	{ "device.*.gap.ops.years_lloyd", "t_R,L,d" },
	{ "rate.*", "T_r" },
};

static const char *const family_aliases[][2] = {
	{ "current.*", "device.*" }, { "then.*", "device.*" },
};

/* A member of a family, linked: its family's symbol, its row below. */
static void
member(struct registry *reg, const char *name)
{
	assert_non_null(registry_add_num(reg, name, 1, "yr", NULL, NULL,
					 NULL, NULL));
}

/*
 * A family's members: where every member with an index has one row, the
 * index stays ("d") and the formula ends in "d = macbook_2008"; two rows
 * of one index are each written in their members.
 */
static void
test_members(void **state)
{
	struct registry *reg = registry_new();
	struct buf b = BUF_INIT;
	struct quantity *q;

	(void)state;
	member(reg, "device.macbook_2008.year");
	member(reg, "current.laptop.year");
	member(reg, "then.laptop.year");
	member(reg, "rate.lloyd");
	q = registry_add_num(reg, "device.macbook_2008.gap.ops.years_lloyd",
			     1, "yr", NULL, "rate.lloyd", NULL, NULL);
	registry_set_expr(q, "2 * rate.lloyd", NULL);
	registry_set_symbols(reg, families,
			     sizeof(families) / sizeof(families[0]),
			     family_aliases,
			     sizeof(family_aliases) / sizeof(family_aliases[0]));
	assert_int_equal(mathml_formula(&b, reg, q, "", MATHML_SYMBOLS, NULL), 0);
	assert_string_equal(b.data,
		"<math alttext=\"device.macbook_2008.gap.ops.years_lloyd = "
		"2 * rate.lloyd\">" ROW(
		SOLID("<a href=\"#device.macbook_2008.gap.ops.years_lloyd\" "
		    "title=\"device.macbook_2008.gap.ops.years_lloyd, yr\">"
		    "<i>t</i><sub>R,L,d</sub></a>") MO("=")
		ROW(MN("2") TIMES
		SYM("<a href=\"#rate.lloyd\" title=\"rate.lloyd, yr\">"
		    "<i>T</i><sub>r</sub></a>"))) "</math>"
		/* Inline, each a <math> of its own: a line breaks there. */
		", <math>" MI("d") MO("=")
		"<mtext class=\"row\">macbook_2008</mtext></math>"
		", <math>" MI("r") MO("=")
		"<mtext class=\"row\">lloyd</mtext></math>");
	/* An equation holds them. */
	buf_reset(&b);
	assert_int_equal(mathml_formula(&b, reg, q, NULL, MATHML_BLOCK, NULL), 0);
	assert_non_null(strstr(b.data, "</msub></mrow>"
		"<mo separator=\"true\">,</mo><mspace width=\"0.5em\">"
		"</mspace>" ROW(MI("d") MO("=")
		"<mtext class=\"row\">macbook_2008</mtext>")
		"<mo separator=\"true\">,</mo><mspace width=\"0.5em\">"
		"</mspace>" ROW(MI("r") MO("=")
		"<mtext class=\"row\">lloyd</mtext>") "</mrow></math>"));
	/* Two laptops: each row where its member stands, none after. */
	typeset("current.laptop.year - then.laptop.year", reg, "",
		ROW(SOLID("<a href=\"#current.laptop.year\" "
			"title=\"current.laptop.year, yr\"><i>y</i><sub>"
			"<span class=\"row\">current laptop</span></sub></a>")
		    MINUS
		    SOLID("<a href=\"#then.laptop.year\" "
			"title=\"then.laptop.year, yr\"><i>y</i><sub>"
			"<span class=\"row\">then laptop</span></sub></a>")));
	/* Not linked: the same in MathML's own letters. */
	typeset("current.laptop.year - then.laptop.year", reg, NULL,
		ROW("<msub>" MI("y") "<mi mathvariant=\"normal\">current laptop"
		    "</mi></msub>" MINUS "<msub>" MI("y") "<mi mathvariant="
		    "\"normal\">then laptop</mi></msub>"));
	/* A subscript's other items stay before the row. */
	q = registry_add_num(reg, "current.laptop.gap.ops.years_lloyd", 1,
			     "yr", NULL, NULL, NULL, NULL);
	assert_non_null(q);
	typeset("current.laptop.gap.ops.years_lloyd + then.laptop.year", reg,
		NULL,
		ROW("<msub>" MI("t") "<mi mathvariant=\"normal\">R,L,current "
		    "laptop</mi></msub>" MO("+") "<msub>" MI("y")
		    "<mi mathvariant=\"normal\">then laptop</mi></msub>"));
	buf_release(&b);
	registry_free(reg);
}

/*
 * A reduction's bound names (d.mass) name no quantity: a formula of
 * symbols may hold them; a name outside it without a symbol still makes
 * the formula code.
 */
static void
test_reduction_symbols(void **state)
{
	struct registry *reg = registry_new();
	struct buf b = BUF_INIT;
	struct quantity *q;

	(void)state;
	assert_non_null(registry_add_num(reg, "k.other", 1, "", NULL, NULL,
					 NULL, NULL));
	q = registry_add_num(reg, "n.mass", 2, "", NULL, NULL, NULL, NULL);
	registry_set_expr(q, "count(d in device where has(d.mass))", NULL);
	registry_set_symbol(reg, "n.mass", "n");
	assert_int_equal(mathml_formula(&b, reg, q, "", MATHML_SYMBOLS, NULL),
			 0);
	assert_non_null(strstr(b.data, "<munder><mi>count</mi>"));
	assert_non_null(strstr(b.data, "d.mass"));
	buf_reset(&b);
	registry_set_expr(q, "count(d in device where has(d.mass)) + k.other",
			  NULL);
	assert_int_equal(mathml_formula(&b, reg, q, "", MATHML_SYMBOLS, NULL),
			 -1);
	assert_int_equal(b.len, 0);
	buf_release(&b);
	registry_free(reg);
}

/* One edition's registry: e.rest = m * c^2, with what it is given. */
static struct registry *
edition(const char *c_symbol, int with_mass)
{
	struct registry *reg = registry_new();
	struct quantity *q;

	if (with_mass) {
		assert_non_null(registry_add_num(reg, "device.x.mass", 1,
						 "kg", NULL, NULL, NULL, NULL));
		registry_set_symbol(reg, "device.x.mass", "m");
	}
	assert_non_null(registry_add_num(reg, "const.c", 1, "m/s", NULL,
					 NULL, NULL, NULL));
	registry_set_symbol(reg, "const.c", c_symbol);
	q = registry_add_num(reg, "e.rest", 1, "J", NULL, with_mass ?
			     "device.x.mass const.c" : "const.c", NULL, NULL);
	assert_non_null(q);
	registry_set_expr(q, "device.x.mass * const.c^2", "rest energy");
	registry_set_symbol(reg, "e.rest", "E");
	return reg;
}

/* Where a link goes: "PAGE#NAME", PAGE the context for a constant. */
static void
page_href(struct buf *out, const char *name, const void *ctx)
{
	buf_addstr(out, strncmp(name, "const.", 6) ? "same.html" : ctx);
	buf_addch(out, '#');
	buf_addstr(out, name);
}

/*
 * Typesets e.rest of reg with the memo and without it: the same, every
 * time (a formula kept for one registry, given for another where its
 * names stand for something else, would differ).
 */
static void
same_with_memo(struct mathml_memo *m, const struct registry *reg,
	       const struct mathml_links *links, unsigned flags)
{
	const struct quantity *q = registry_get(reg, "e.rest");
	struct buf with = BUF_INIT, without = BUF_INIT;
	int r1, r2;

	BUF_ADDLIT(&with, "before ");
	BUF_ADDLIT(&without, "before ");
	if (links) {
		r1 = mathml_formula_linked(&with, reg, q, links, flags, m);
		r2 = mathml_formula_linked(&without, reg, q, links, flags,
					   NULL);
	} else {
		r1 = mathml_formula(&with, reg, q, "q.html", flags, m);
		r2 = mathml_formula(&without, reg, q, "q.html", flags, NULL);
	}
	assert_int_equal(r1, r2);
	assert_string_equal(with.data, without.data);
	buf_release(&with);
	buf_release(&without);
}

static void
test_memo(void **state)
{
	struct mathml_memo *m = mathml_memo_new();
	struct registry *a = edition("c", 1), *b = edition("c", 1);
	struct registry *other = edition("c_0", 1), *none = edition("c", 0);
	struct mathml_links top = { page_href, "top.html" };
	struct mathml_links part = { page_href, "part.html" };
	const struct buf *kept;
	struct buf first = BUF_INIT;
	int k;

	(void)state;
	/* Twice over, so that the second round takes what the first kept. */
	for (k = 0; k < 2; k++) {
		same_with_memo(m, a, NULL, MATHML_SYMBOLS);
		same_with_memo(m, b, NULL, MATHML_SYMBOLS);
		same_with_memo(m, other, NULL, MATHML_SYMBOLS);
		same_with_memo(m, a, NULL, MATHML_BLOCK);
		same_with_memo(m, none, NULL, MATHML_SYMBOLS);
		same_with_memo(m, none, NULL, MATHML_BLOCK);
		same_with_memo(m, a, &top, MATHML_SYMBOLS);
		same_with_memo(m, a, &part, MATHML_SYMBOLS);
		same_with_memo(m, other, &part, MATHML_SYMBOLS);
	}
	/* Another symbol in this registry: another formula. */
	assert_int_equal(mathml_formula(&first, a, registry_get(a, "e.rest"),
					"q.html", MATHML_SYMBOLS, m), 0);
	assert_null(strstr(first.data, "<sub>0</sub>"));
	buf_reset(&first);
	assert_int_equal(mathml_formula(&first, other,
					registry_get(other, "e.rest"),
					"q.html", MATHML_SYMBOLS, m), 0);
	assert_non_null(strstr(first.data, "<sub>0</sub>"));
	/* Text kept under a key of one's own. */
	assert_null(mathml_memo_text(m, "prose", 5));
	mathml_memo_keep(m, "prose", 5, "<p>x</p>", 8);
	assert_non_null(kept = mathml_memo_text(m, "prose", 5));
	assert_string_equal(kept->data, "<p>x</p>");
	assert_null(mathml_memo_text(m, "pros", 4));
	mathml_memo_keep(m, "prose", 5, "<p>y</p>", 8);
	assert_string_equal(mathml_memo_text(m, "prose", 5)->data, "<p>y</p>");
	buf_release(&first);
	registry_free(a);
	registry_free(b);
	registry_free(other);
	registry_free(none);
	mathml_memo_free(m);
	mathml_memo_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_powers),
		cmocka_unit_test(test_unary_minus),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_reduction_symbols),
		cmocka_unit_test(test_memo),
	};

	return cmocka_run_group_tests_name("mathml", tests, NULL, NULL);
}
