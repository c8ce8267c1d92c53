/*
 * The model on the shipped data: the registry holds every limit with its
 * provenance, the identities between quantities hold, and the article's
 * gaps come out as printed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "model.h"
#include "physics.h"
#include "registry.h"

static int
setup(void **state)
{
	struct registry *reg = model_build("data", 0, NULL, NULL);

	if (!reg)
		return -1;
	*state = reg;
	return 0;
}

static int
teardown(void **state)
{
	registry_free(*state);
	return 0;
}

static double
val(void **state, const char *name)
{
	const struct quantity *q = registry_get(*state, name);

	if (!q)
		fail_msg("no quantity '%s'", name);
	return q->value;
}

static void
test_provenance(void **state)
{
	const struct registry *reg = *state;
	size_t i, j;

	assert_true(registry_count(reg) > 50);
	for (i = 0; i < registry_count(reg); i++) {
		const struct quantity *q = registry_at(reg, i);

		assert_true(*q->formula);
		assert_true(*q->source);
		assert_true(q->type != Q_NUMBER || isfinite(q->value));
		for (j = 0; j < q->ninputs; j++)
			assert_non_null(registry_get(reg, q->inputs[j]));
		/* Assumptions name the data row they came from. */
		if (!strcmp(q->formula, "assumption"))
			assert_non_null(strstr(q->origin,
					       "data/assumptions.csv:"));
	}
}

static void
test_limits(void **state)
{
	assert_near(val(state, "laptop.energy"), 8.9876e16, 0.5e-4 / 8.9876);
	assert_near(val(state, "laptop.ops_max"), 5.4256e50, 0.5e-4 / 5.4256);
	assert_near(val(state, "laptop.bits_max"), 2.13e31, 0.5e-2 / 2.13);
	assert_near(val(state, "dust.atomic_bits"), 1e10, 1e-12);
	assert_near(val(state, "laptop.sphere_area"),
		    4 * PHYS_PI * pow(val(state, "laptop.sphere_radius"), 2),
		    1e-14);
}

static void
test_identities(void **state)
{
	assert_near(val(state, "laptop.ops_per_bit") *
			    val(state, "laptop.bits_max"),
		    val(state, "laptop.ops_max"), 1e-15);
	assert_near(val(state, "laptop.bb_bit_flux"),
		    val(state, "laptop.bb_bit_flux_density"), 1e-12);
	assert_near(val(state, "laptop.flip_time") *
			    val(state, "laptop.ops_per_bit"), 1, 1e-15);
	/* Parallel laptop, serial black hole. */
	assert_true(val(state, "laptop.crossing_per_flip") > 1e9);
	assert_true(val(state, "blackhole.flip_time") /
			    val(state, "blackhole.crossing_time") < 100);
	assert_true(val(state, "blackhole.flip_time") /
			    val(state, "blackhole.crossing_time") > 1);
	/* Scaling by volume at fixed density is linear for both limits. */
	assert_near(val(state, "dust.ultimate_bits") /
			    val(state, "laptop.bits_max"),
		    val(state, "dust.scale"), 1e-12);
}

static void
test_article_gaps(void **state)
{
	assert_near(val(state, "article.laptop_sbops"), 1e12, 0);
	assert_near(round(val(state, "article.gap.ops.orders")), 39, 0);
	assert_near(round(val(state, "article.gap.bits.orders")), 19,
		    0);
	assert_near(val(state, "article.gap.bits.doublings"), 63.2,
		    0.05 / 63.2);
	assert_near(val(state, "article.gap.ops.years_lloyd"), 250,
		    0.04);
	assert_near(val(state, "article.gap.bits.years_lloyd"), 120,
		    0.01);
	assert_near(val(state, "article.gap.ops.year_lloyd"),
		    2008 + val(state, "article.gap.ops.years_lloyd"),
		    1e-15);
	assert_near(val(state, "universe.years_18mo"), 600, 0.01);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provenance),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_article_gaps),
	};

	return cmocka_run_group_tests_name("model", tests, setup, teardown);
}
