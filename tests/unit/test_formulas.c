/*
 * The formulas of the model, checked against the code that computes
 * them: for every edition of the shipped data (2008 to the newest),
 * every quantity with a formula (registry.h, q->expr) must name exactly
 * its inputs, have the dimension of its unit, and reproduce the value
 * the model computed from the values of its inputs (expr.h,
 * expr_check_formula()). A formula that drifts from the code fails here,
 * naming the quantity; so does a unit that does not parse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "audit.h"
#include "expr.h"
#include "model.h"
#include "registry.h"

/* The model and the claims audit of one edition (0: the newest). */
static struct registry *
edition(int year)
{
	struct registry *reg = model_build("data", year, NULL, NULL);
	struct buf out = BUF_INIT;

	if (!reg)
		fail_msg("the model of the %d edition failed", year);
	assert_true(audit_run("data", reg, &out, NULL) >= 0);
	buf_release(&out);
	return reg;
}

/* Checks every formula of reg; returns how many there are. */
static size_t
check_all(const struct registry *reg, int year)
{
	size_t i, n = 0;
	int ret;

	for (i = 0; i < registry_count(reg); i++) {
		const struct quantity *q = registry_at(reg, i);

		if (!q->dim_ok)
			fail_msg("%d: the unit '%s' of '%s' does not parse",
				 year, q->unit, q->name);
		if (!q->expr)
			continue;
		ret = expr_check_formula(reg, q);
		n += ret == 0;
		if (ret < 0)
			fail_msg("%d: the formula of '%s' does not reproduce "
				 "it (see the message above)", year, q->name);
	}
	return n;
}

static void
test_every_edition(void **state)
{
	struct registry *reg = edition(0);
	int newest = (int)registry_num(reg, "edition.year"), year;
	size_t n;

	(void)state;
	n = check_all(reg, newest);
	/* Every limit, gap and conversion has one: hundreds. */
	assert_true(n > 300);
	registry_free(reg);
	for (year = 2008; year < newest; year++) {
		reg = edition(year);
		assert_true(check_all(reg, year) > 100);
		registry_free(reg);
	}
}

/* A quantity of reg to tamper with (the registry hands out const). */
static struct quantity *
mutable(struct registry *reg, const char *name)
{
	return (struct quantity *)(uintptr_t)registry_get(reg, name);
}

/* The check fails with a message naming the quantity. */
static void
check_fails(struct registry *reg, const char *name, const char *want)
{
	char *got;

	diag_reset();
	capture_start();
	assert_int_equal(expr_check_formula(reg, registry_get(reg, name)),
			 -1);
	got = capture_end();
	if (!strstr(got, want))
		fail_msg("wanted '%s' in: %s", want, got);
	free(got);
}

static void
test_drift_fails(void **state)
{
	struct registry *reg = edition(2008);
	struct quantity *q;

	(void)state;
	/* A factor of two lost from Margolus-Levitin. */
	q = mutable(reg, "laptop.ops_max");
	registry_set_expr(q, "laptop.energy / (pi * const.hbar)", NULL);
	check_fails(reg, "laptop.ops_max", "formula of 'laptop.ops_max' "
		    "gives 2.7127849793042642e+50, but the model computed "
		    "5.4255699586085285e+50 (relative difference 0.5)");
	/* The wrong dimension: an energy for a speed. */
	registry_set_expr(q, "laptop.energy * const.hbar", NULL);
	check_fails(reg, "laptop.ops_max", "formula of 'laptop.ops_max' is "
		    "in kg^2 m^4/s^3, but its unit is 'ops/s'");
	/* A name that is not an input, an input that is not named. */
	registry_set_expr(q, "2 * laptop.mass * const.c^2 / (pi * const.hbar)",
			  NULL);
	check_fails(reg, "laptop.ops_max", "formula of 'laptop.ops_max' uses "
		    "'laptop.mass', which is not one of its inputs");
	registry_set_expr(q, "2 * laptop.energy / (pi * 1.0545718176461565e-34)",
			  NULL);
	check_fails(reg, "laptop.ops_max", "input 'const.hbar' of "
		    "'laptop.ops_max' is not in its formula");
	/* A calendar year is reproduced exactly, not to 1e-12. */
	q = mutable(reg, "article.gap.ops.year_24mo");
	registry_set_expr(q, "article.year + article.gap.ops.years_24mo * "
			  "(1 + 1e-15)", NULL);
	check_fails(reg, "article.gap.ops.year_24mo", "formula of "
		    "'article.gap.ops.year_24mo' gives");
	/* A unit converted by its scale: kT in eV from joules. */
	assert_int_equal(expr_check_formula(reg, registry_get(reg,
							      "laptop.kT")), 0);
	/* A syntax error names the quantity as its file. */
	q = mutable(reg, "laptop.energy");
	registry_set_expr(q, "laptop.mass * const.c^", NULL);
	check_fails(reg, "laptop.energy", "formula of laptop.energy:1:");
	registry_free(reg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_edition),
		cmocka_unit_test(test_drift_fails),
	};

	return cmocka_run_group_tests_name("formulas", tests, NULL, NULL);
}
