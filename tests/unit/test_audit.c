/*
 * The claims audit: tolerances derived from how a figure is printed,
 * published ranges and their verdicts, and the audit end to end on a
 * small claims.csv against a registry made here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "audit.h"
#include "buf.h"
#include "registry.h"

static void
test_half_unit_from_digits(void **state)
{
	(void)state;
	assert_near(audit_half_unit("2.13e31"), 5e28, 1e-12);
	assert_near(audit_half_unit("8.9874e16"), 5e11, 1e-12);
	assert_near(audit_half_unit("5E50"), 5e49, 1e-12);
	assert_near(audit_half_unit("1e-15"), 5e-16, 1e-12);
	assert_near(audit_half_unit("1.5"), 0.05, 1e-12);
	assert_near(audit_half_unit("0.25"), 0.005, 1e-12);
	/* A whole number is exact to its units, trailing zeros or not. */
	assert_near(audit_half_unit("125"), 0.5, 1e-12);
	assert_near(audit_half_unit("600"), 0.5, 1e-12);
	assert_near(audit_half_unit("2.0e12"), 5e10, 1e-12);
}

static void
test_parse_range(void **state)
{
	double lo = 0, hi = 0;

	(void)state;
	assert_int_equal(audit_parse_range("50..100", &lo, &hi), 0);
	assert_near(lo, 50, 0);
	assert_near(hi, 100, 0);
	assert_int_equal(audit_parse_range("1e2..2.5e2", &lo, &hi), 0);
	assert_near(lo, 100, 0);
	assert_near(hi, 250, 0);
	assert_int_equal(audit_parse_range("-3..0.5", &lo, &hi), 0);
	/* No range at all: a plain number is for table_num(). */
	assert_int_equal(audit_parse_range("125", &lo, &hi), 1);
	assert_int_equal(audit_parse_range("1.5e3", &lo, &hi), 1);
	/* Malformed: reversed, empty, not decimal, an end missing. */
	assert_int_equal(audit_parse_range("100..50", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("50..50", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("50..", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("..100", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("inf..1", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("0x10..0x20", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("50..100..150", &lo, &hi), -1);
	assert_int_equal(audit_parse_range("fifty..100", &lo, &hi), -1);
}

static void
test_range_verdict(void **state)
{
	(void)state;
	/* "64 more doublings ... about 50-100 years": 105 is outside. */
	assert_int_equal(audit_range_verdict(105, 50, 100), 1);
	assert_int_equal(audit_range_verdict(75, 50, 100), 0);
	assert_int_equal(audit_range_verdict(50, 50, 100), 0);
	assert_int_equal(audit_range_verdict(100, 50, 100), 0);
	assert_int_equal(audit_range_verdict(49.99, 50, 100), -1);
}

/* Runs the audit of claims (the rows after the header) against reg. */
static int
audit_of(struct registry *reg, const char *rows, struct buf *out)
{
	char dir[] = "/tmp/test_audit.XXXXXX";
	struct buf path = BUF_INIT, cat = BUF_INIT, target = BUF_INIT;
	char cwd[4096];
	FILE *f;
	int ret;

	assert_non_null(mkdtemp(dir));
	buf_addf(&path, "%s/claims.csv", dir);
	f = fopen(path.data, "w");
	assert_non_null(f);
	fputs("id,claim,published,unit,printed_in,quantity,tolerance,"
	      "tolerance_reason,status,category,explanation\n", f);
	fputs(rows, f);
	fclose(f);
	/* The audit finds the claims through the catalogue: the shipped one. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	buf_addf(&target, "%s/data/schema.csv", cwd);
	buf_addf(&cat, "%s/schema.csv", dir);
	assert_int_equal(symlink(target.data, cat.data), 0);
	ret = audit_run(dir, reg, out, NULL);
	unlink(cat.data);
	unlink(path.data);
	rmdir(dir);
	buf_release(&path);
	buf_release(&cat);
	buf_release(&target);
	return ret;
}

static struct registry *
made_up(void)
{
	struct registry *reg = registry_new();

	registry_add_num(reg, "years", 118.925, "yr", "made up", NULL,
			 "data/made_up.csv", NULL);
	registry_add_num(reg, "pace", 104.5, "yr", "made up", NULL,
			 "data/made_up.csv", NULL);
	return reg;
}

static void
test_audit_range_claims(void **state)
{
	struct registry *reg;
	struct buf out = BUF_INIT;

	(void)state;
	/* Outside its range and marked so: the audit passes. */
	reg = made_up();
	assert_int_equal(audit_of(reg, "r,about 50-100 years,50..100,yr,here,"
				  "pace,,range,discrepancy,error,too slow\n",
				  &out), 0);
	assert_non_null(strstr(out.data, "outside the printed range"));
	assert_near(registry_num(reg, "claim.r.published_low"), 50, 0);
	assert_near(registry_num(reg, "claim.r.published_high"), 100, 0);
	/* The ratio is to the nearer end: 104.5 / 100. */
	assert_near(registry_num(reg, "claim.r.ratio"), 1.045, 1e-12);
	assert_near(registry_num(reg, "claims.error"), 1, 0);
	registry_free(reg);
	/* Marked reproducible, the same range drifts. */
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "r,about 50-100 years,50..100,yr,here,"
				  "pace,,range,reproducible,,\n", &out), 1);
	assert_non_null(strstr(out.data, "DRIFTS"));
	registry_free(reg);
	/* Inside it, marked a discrepancy: told to review. */
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "r,x,100..150,yr,here,pace,,range,"
				  "discrepancy,rounding,why\n", &out), 1);
	assert_non_null(strstr(out.data, "AGREES"));
	registry_free(reg);
	buf_release(&out);
}

static void
test_audit_tolerance_from_reason(void **state)
{
	struct registry *reg;
	struct buf out = BUF_INIT;
	char *err;

	(void)state;
	/*
	 * "About 125 years" against 118.9: a relative 0.05 let it pass by
	 * a hair; printed to the units it is 6 years off, a discrepancy.
	 */
	reg = made_up();
	assert_int_equal(audit_of(reg, "y,125 years,125,yr,here,years,,digits,"
				  "reproducible,,\n", &out), 1);
	registry_free(reg);
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "y,125 years,125,yr,here,years,,digits,"
				  "discrepancy,rounding,20 orders\n", &out), 0);
	assert_near(registry_num(reg, "claims.rounding"), 1, 0);
	registry_free(reg);
	/* 119 printed as 119 agrees; as 118.9 too; as 118.94 not. */
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "a,x,119,yr,here,years,,digits,"
				  "reproducible,,\nb,x,118.9,yr,here,years,,"
				  "digits,reproducible,,\nc,x,118.94,yr,here,"
				  "years,,digits,reproducible,,\n", &out), 1);
	assert_non_null(strstr(out.data, "c                  118.94"));
	registry_free(reg);
	/* A tolerance typed where the reason computes it is an error. */
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,0.05,digits,"
				  "reproducible,,\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "is computed, not given"));
	free(err);
	registry_free(reg);
	/* "about" needs its width and the words why. */
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,0.05,about,"
				  "reproducible,,\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "needs the words why"));
	free(err);
	registry_free(reg);
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,0.05,about: the "
				  "article rounds to 5 %,reproducible,,\n",
				  &out), 0);
	registry_free(reg);
	buf_release(&out);
}

/* The text claim.<id>.<field> the audit registered. */
static const char *
text_of(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	assert_non_null(q);
	assert_non_null(q->text);
	return q->text;
}

static void
test_audit_input(void **state)
{
	struct registry *reg;
	struct buf out = BUF_INIT;
	char *err;

	(void)state;
	/*
	 * The source's own figure, taken by the model as printed: an input,
	 * not an agreement, though it "agrees" with itself.
	 */
	reg = made_up();
	assert_int_equal(audit_of(reg, "i,x,119,yr,here,years,,digits,input,,"
				  "the article's own\n", &out), 0);
	assert_near(registry_num(reg, "claims.input"), 1, 0);
	assert_near(registry_num(reg, "claims.agree"), 0, 0);
	assert_string_equal(text_of(reg, "claim.i.category"), "input");
	assert_string_equal(text_of(reg, "claim.i.status"), "input");
	assert_string_equal(text_of(reg, "claim.i.verdict"),
			    "input, used as printed");
	registry_free(reg);
	/* An input the model no longer takes as printed drifts. */
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "i,x,125,yr,here,years,,digits,input,,"
				  "the article's own\n", &out), 1);
	assert_non_null(strstr(out.data, "DRIFTS"));
	registry_free(reg);
	/* An input needs its explanation, and has no category. */
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "i,x,119,yr,here,years,,digits,input,,"
				  "\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "an input needs an explanation"));
	free(err);
	registry_free(reg);
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "i,x,119,yr,here,years,,digits,input,"
				  "rounding,why\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "an input claim has no category"));
	free(err);
	registry_free(reg);
	buf_release(&out);
}

static void
test_audit_fills_explanation(void **state)
{
	struct registry *reg;
	struct buf out = BUF_INIT;
	char *err;

	(void)state;
	/* Numbers quoted from the registry, the claim's own among them. */
	reg = made_up();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,,digits,"
				  "discrepancy,rounding,\"{{ years | fixed:1 "
				  "| unit }} at {{pace|sig:2}}; {{ "
				  "claim.y.ratio | fixed:3 }} of it{{ years "
				  "| int | unit }}\"\n",
				  &out), 0);
	assert_string_equal(text_of(reg, "claim.y.explanation"),
			    "118.9\xc2\xa0yr at 100; 0.951 of it119"
			    "\xc2\xa0yr");
	assert_non_null(strstr(out.data, "118.9\xc2\xa0yr at 100"));
	/* What it quotes are its inputs, each once: a change has a cause. */
	{
		const struct quantity *q = registry_get(reg,
							"claim.y.explanation");

		assert_int_equal(q->ninputs, 3);
		assert_string_equal(q->inputs[0], "years");
		assert_string_equal(q->inputs[1], "pace");
		assert_string_equal(q->inputs[2], "claim.y.ratio");
	}
	registry_free(reg);
	/*
	 * Any expression a template's slot takes: its names are inputs,
	 * those that are quantities (has() of one that is not: none).
	 */
	reg = made_up();
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,,digits,"
				  "discrepancy,rounding,\"{{ years / pace | "
				  "fixed:3 }} {{ has(nothing) }}\"\n", &out),
			 0);
	assert_string_equal(text_of(reg, "claim.y.explanation"), "1.138 0");
	{
		const struct quantity *q = registry_get(reg,
							"claim.y.explanation");

		assert_int_equal(q->ninputs, 2);
		assert_string_equal(q->inputs[0], "years");
		assert_string_equal(q->inputs[1], "pace");
	}
	registry_free(reg);
	/*
	 * Where the file has "" for a quote and a line break, the error
	 * is still at its place in the file: line 3, after the quotes.
	 */
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,,digits,"
				  "discrepancy,rounding,\"a \"\"b\"\"\n"
				  "c \"\"d\"\" {{ yeers }}\"\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "claims.csv:3:12: error: column "
			       "'explanation': unknown quantity 'yeers'; did "
			       "you mean 'years'?"));
	free(err);
	registry_free(reg);
	/* An unknown name: at the name, with the closest one. */
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,,digits,"
				  "discrepancy,rounding,at {{ yeers }}\n",
				  &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "claims.csv:2:58: error: column "
			       "'explanation': unknown quantity 'yeers'"));
	free(err);
	registry_free(reg);
	/* An unknown format, and a placeholder left open. */
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,,digits,"
				  "discrepancy,rounding,{{ years | round }}"
				  "\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "unknown format 'round'"));
	free(err);
	registry_free(reg);
	reg = made_up();
	buf_reset(&out);
	capture_start();
	assert_int_equal(audit_of(reg, "y,x,125,yr,here,years,,digits,"
				  "discrepancy,rounding,{{ years\n", &out),
			 -1);
	err = capture_end();
	assert_non_null(strstr(err, "claims.csv:2:52: error: column "
			       "'explanation': unclosed '{{': no '}}' before "
			       "the end of the text"));
	free(err);
	registry_free(reg);
	buf_release(&out);
}

static void
test_audit_written_for_readers(void **state)
{
	struct registry *reg;
	struct buf out = BUF_INIT, b = BUF_INIT;

	(void)state;
	/* Printed figures as printed, typeset. */
	audit_printed_text(&b, "2.13e31", "bit");
	assert_string_equal(b.data, "2.13\xc2\xa0\xc3\x97\xc2\xa0" "10\xc2\xb3\xc2\xb9"
			    "\xc2\xa0" "bit");
	buf_reset(&b);
	audit_printed_text(&b, "1e51", "ops/s");
	assert_string_equal(b.data, "10\xe2\x81\xb5\xc2\xb9\xc2\xa0ops/s");
	buf_reset(&b);
	audit_printed_text(&b, "50..100", "yr");
	assert_string_equal(b.data, "50 to 100\xc2\xa0yr");
	buf_reset(&b);
	audit_printed_text(&b, "39", "");
	assert_string_equal(b.data, "39");
	/* Recomputed values a digit finer, in the claim's terms. */
	buf_reset(&b);
	audit_recomputed_text(&b, 38.734, "39", "orders");
	assert_string_equal(b.data, "38.7\xc2\xa0orders");
	buf_reset(&b);
	audit_recomputed_text(&b, 2.1329e31, "2.13e31", "bit");
	assert_string_equal(b.data, "2.133\xc2\xa0\xc3\x97\xc2\xa0" "10\xc2\xb3\xc2\xb9"
			    "\xc2\xa0" "bit");
	buf_reset(&b);
	audit_recomputed_text(&b, 119.186, "50..100", "yr");
	assert_string_equal(b.data, "119.2\xc2\xa0yr");
	buf_reset(&b);
	audit_recomputed_text(&b, 2180.6, "2200", "year");
	assert_string_equal(b.data, "2181");
	/* Tolerances carry their unit; a relative one is a percentage. */
	reg = made_up();
	assert_int_equal(audit_of(reg, "a,x,119,yr,here,years,,digits,"
				  "reproducible,,\nb,x,120,yr,here,years,0.05,"
				  "about: five per cent,reproducible,,\n",
				  &out), 0);
	assert_string_equal(text_of(reg, "claim.a.tolerance"),
			    "\xc2\xb1" "0.5\xc2\xa0yr");
	assert_string_equal(text_of(reg, "claim.b.tolerance"),
			    "\xc2\xb1" "5\xc2\xa0% (about)");
	assert_string_equal(text_of(reg, "claim.a.recomputed_text"),
			    "118.9\xc2\xa0yr");
	registry_free(reg);
	/* A pure number takes the claim's own unit cell. */
	reg = made_up();
	registry_add_num(reg, "gap", 38.734, "", "made up", NULL,
			 "data/made_up.csv", NULL);
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "g,x,39,orders,here,gap,,digits,"
				  "reproducible,,\n", &out), 0);
	assert_string_equal(text_of(reg, "claim.g.recomputed_text"),
			    "38.7\xc2\xa0orders");
	assert_string_equal(text_of(reg, "claim.g.tolerance"),
			    "\xc2\xb1" "0.5\xc2\xa0orders");
	registry_free(reg);
	buf_release(&out);
	buf_release(&b);
}

static void
test_audit_independence(void **state)
{
	struct registry *reg;
	struct buf out = BUF_INIT;
	struct quantity *q;
	char *err;

	(void)state;
	/*
	 * The article's own figure times its own factor: assumptions.csv
	 * alone. "Reproducible" would be an echo; an input it is.
	 */
	reg = registry_new();
	registry_add_num(reg, "flops", 1e9, "", "assumption", NULL,
			 "[henson2008]", "data/assumptions.csv:18");
	registry_add_num(reg, "per_flop", 1000, "", "assumption", NULL,
			 "[henson2008]", "data/assumptions.csv:5");
	q = registry_add_num(reg, "sbops", 1e12, "", NULL, "flops per_flop",
			     "[henson2008]", NULL);
	registry_set_expr(q, "flops * per_flop", NULL);
	registry_add_num(reg, "const.h", 6.6e-34, "J s", "a constant", NULL,
			 "[codata2018]", NULL);
	q = registry_add_num(reg, "limit", 1e12 * 6.6e-34, "J s", NULL,
			     "sbops const.h", "derived here", NULL);
	registry_set_expr(q, "sbops * const.h", NULL);
	registry_add_num(reg, "rmax", 1.026e15, "", "data", NULL, "TOP500",
			 "data/devices.csv:4");
	capture_start();
	assert_int_equal(audit_of(reg, "e,x,1e12,,here,sbops,,digits,"
				  "reproducible,,\n", &out), -1);
	err = capture_end();
	assert_non_null(strstr(err, "claims.csv:2:"));
	assert_non_null(strstr(err, "'sbops' rests on assumptions.csv "
			       "alone"));
	free(err);
	registry_free(reg);
	/* Marked an input, the same row passes, counted apart. */
	reg = registry_new();
	registry_add_num(reg, "flops", 1e9, "", "assumption", NULL,
			 "[henson2008]", "data/assumptions.csv:18");
	registry_add_num(reg, "const.h", 6.6e-34, "J s", "a constant", NULL,
			 "[codata2018]", NULL);
	q = registry_add_num(reg, "limit", 1e9 * 6.6e-34, "J s", NULL,
			     "flops const.h", "derived here", NULL);
	registry_set_expr(q, "flops * const.h", NULL);
	/* A data folder of another name (-d DIR) is data all the same. */
	registry_add_num(reg, "rmax", 1.026e15, "", "data", NULL, "TOP500",
			 "/tmp/mine/devices.csv:4");
	buf_reset(&out);
	assert_int_equal(audit_of(reg, "i,x,1e9,,here,flops,,digits,input,,"
				  "the article's own\n"
				  "c,x,6.6e-25,J s,here,limit,,digits,"
				  "reproducible,,\n"
				  "d,x,1e15,,here,rmax,,digits,reproducible,,"
				  "\n", &out), 0);
	/* A constant among the inputs, or a data row, is independent. */
	assert_near(registry_num(reg, "claims.agree"), 2, 0);
	assert_near(registry_num(reg, "claims.input"), 1, 0);
	registry_free(reg);
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_unit_from_digits),
		cmocka_unit_test(test_parse_range),
		cmocka_unit_test(test_range_verdict),
		cmocka_unit_test(test_audit_range_claims),
		cmocka_unit_test(test_audit_tolerance_from_reason),
		cmocka_unit_test(test_audit_input),
		cmocka_unit_test(test_audit_independence),
		cmocka_unit_test(test_audit_fills_explanation),
		cmocka_unit_test(test_audit_written_for_readers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
