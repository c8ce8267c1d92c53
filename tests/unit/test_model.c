/*
 * The model on the shipped data: the registry holds every limit with its
 * provenance, the identities between quantities hold, and the article's
 * gaps come out as printed. On a small device table of our own: which
 * figure each device's gaps use, the current and then picks, and the
 * like-with-like comparisons.
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

/* Writes text to dir/name; fails the test if it cannot. */
static void
write_file(const char *dir, const char *name, const char *text)
{
	struct buf path = BUF_INIT;
	FILE *f;

	buf_addf(&path, "%s/%s", dir, name);
	f = fopen(path.data, "w");
	if (!f || fputs(text, f) == EOF || fclose(f))
		fail_msg("cannot write '%s'", path.data);
	buf_release(&path);
}

/* A copy of the shipped data in a new folder, devices.csv replaced. */
static char *
data_with_devices(const char *devices)
{
	char tmpl[] = "/tmp/ultimate-test-XXXXXX", *dir;
	size_t i;

	dir = mkdtemp(tmpl);
	if (!dir)
		fail_msg("mkdtemp failed");
	dir = strdup(dir);
	for (i = 0; model_data_files[i]; i++) {
		struct buf src = BUF_INIT, text = BUF_INIT;
		char chunk[4096];
		size_t n;
		FILE *f;

		buf_addf(&src, "data/%s", model_data_files[i]);
		f = fopen(src.data, "r");
		if (!f)
			fail_msg("cannot read '%s'", src.data);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&text, chunk, n);
		fclose(f);
		write_file(dir, model_data_files[i], text.data);
		buf_release(&src);
		buf_release(&text);
	}
	write_file(dir, "devices.csv", devices);
	return dir;
}

static void
remove_data(char *dir)
{
	struct buf path = BUF_INIT;
	size_t i;

	for (i = 0; model_data_files[i]; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, model_data_files[i]);
		unlink(path.data);
	}
	rmdir(dir);
	free(dir);
	buf_release(&path);
}

static const char *
text(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	if (!q || q->type != Q_TEXT)
		fail_msg("no text quantity '%s'", name);
	return q->text;
}

/*
 * Each figure says what it is, a gap uses the highest peak, the current
 * pick is the newest and then the fastest of its year, and a comparison
 * takes the first figure both machines give: FP64 peak, FP32 peak,
 * measured. Supercomputers are compared by Rmax with the TOP500 No. 1.
 */
static void
test_devices_like_with_like(void **state)
{
	static const char devices[] =
		"id,name,year,kind,fp64_peak_flops,fp32_peak_flops,"
		"hpl_rmax_flops,ram_bytes,storage_bytes,source\n"
		"old_laptop,Old,2008,laptop,1e10,2e10,,1e9,1e11,s\n"
		"new_laptop,New,2020,laptop,,1e12,,8e9,1e12,s\n"
		"slow_laptop,Slow,2020,laptop,,5e11,,16e9,2e12,s\n"
		"old_gpu,Old GPU,2008,gpu,1e11,1e12,,1e9,,s\n"
		"new_gpu,New GPU,2020,gpu,1e13,2e13,,1e11,,s\n"
		"even_gpu,Even GPU,2019,gpu,5e12,5e12,,,,s\n"
		"old_super,Old super,2008,supercomputer,2e15,,1e15,1e14,,s\n"
		"measured,Measured only,2019,supercomputer,,,3e16,,,s\n";
	char *dir = data_with_devices(devices);
	struct registry *reg = model_build(dir, 0, NULL, NULL), *art;

	(void)state;
	if (!reg)
		fail_msg("the model failed on the test devices");
	/* The gap's figure: the highest peak, FP64 on a tie, else Rmax. */
	assert_string_equal(text(reg, "device.old_gpu.flops_figure"),
			    "FP32 peak");
	assert_near(registry_num(reg, "device.old_gpu.flops"), 1e12, 0);
	assert_string_equal(text(reg, "device.even_gpu.flops_figure"),
			    "FP64 peak");
	assert_string_equal(text(reg, "device.measured.flops_figure"),
			    "measured HPL Rmax");
	assert_near(registry_num(reg, "device.old_super.flops"), 2e15, 0);
	assert_near(registry_num(reg, "device.old_super.hpl_sbops"),
		    1e15 * registry_num(reg, "sbops_per_flop"), 1e-15);
	/* Memory gaps by working memory, storage gaps by storage. */
	assert_near(registry_num(reg, "device.old_laptop.gap.ram.orders"),
		    log10(registry_num(reg, "laptop.bits_max") / 8e9), 1e-12);
	assert_near(registry_num(reg,
				 "device.old_laptop.gap.storage.orders"),
		    log10(registry_num(reg, "laptop.bits_max") / 8e11), 1e-12);
	assert_false(registry_has(reg, "device.old_gpu.gap.storage"));
	/* Picks: newest, then fastest of the year; then: the article's. */
	assert_string_equal(text(reg, "current.laptop.id"), "new_laptop");
	assert_string_equal(text(reg, "then.laptop.id"), "old_laptop");
	assert_string_equal(text(reg, "current.gpu.id"), "new_gpu");
	assert_string_equal(text(reg, "closest.memory.id"), "old_super");
	/* Like with like: FP32 for the laptops, FP64 for the GPUs. */
	assert_string_equal(text(reg, "compare.laptop.speed.figure"),
			    "FP32 peak");
	assert_near(registry_num(reg, "compare.laptop.speed.orders"),
		    log10(1e12 / 2e10), 1e-12);
	assert_near(registry_num(reg, "compare.laptop.speed.doubling_time"),
		    12 / log2(1e12 / 2e10), 1e-12);
	assert_near(registry_num(reg, "compare.laptop.ram.orders"),
		    log10(8), 1e-12);
	assert_near(registry_num(reg, "compare.laptop.storage.orders"), 1,
		    1e-12);
	assert_string_equal(text(reg, "compare.gpu.speed.figure"),
			    "FP64 peak");
	assert_near(registry_num(reg, "compare.gpu.speed.orders"), 2, 1e-12);
	assert_false(registry_has(reg, "compare.gpu.storage"));
	assert_string_equal(text(reg, "compare.supercomputer.speed.figure"),
			    "measured HPL Rmax");
	assert_near(registry_num(reg, "compare.supercomputer.speed.then"),
		    1e15, 0);
	assert_near(registry_num(reg, "compare.supercomputer.speed.now"),
		    registry_num(reg, "record.rmax"), 0);
	registry_free(reg);
	/* In the article's own year there is nothing to compare. */
	art = model_build(dir, 2008, NULL, NULL);
	if (!art)
		fail_msg("the model of 2008 failed on the test devices");
	assert_string_equal(text(art, "current.laptop.id"), "old_laptop");
	assert_false(registry_has(art, "compare.laptop"));
	assert_false(registry_has(art, "compare.gpu"));
	registry_free(art);
	remove_data(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provenance),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_article_gaps),
		cmocka_unit_test(test_devices_like_with_like),
	};

	return cmocka_run_group_tests_name("model", tests, setup, teardown);
}
