/*
 * The model on the shipped data: the registry holds every limit with its
 * provenance, the identities between quantities hold, and the article's
 * gaps come out as printed. On a small device table of our own: which
 * figure each device's gaps use, the current and then picks, and the
 * like-with-like comparisons.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "dataset.h"
#include "model.h"
#include "registry.h"

#define M_PI_ 3.14159265358979323846

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
		    4 * M_PI_ * pow(val(state, "laptop.sphere_radius"), 2),
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

/* ------------------------------------------- the fixture: a small TOP500 */

/*
 * A TOP500 history of seven lists, four with power, in a copy of the
 * shipped data otherwise; the expected values below are computed here,
 * by the textbook formulas, not by fit.c or the model.
 */
static char fixdir[64];

static const char *const fix_lists[] = { "2000-06", "2004-06", "2006-06",
	"2008-06", "2010-06", "2012-06", "2014-06" };
static const double fix_rmax[] = { 1e12, 1e13, 1e14, 1e15, 3e15, 2e16,
	4e16 };
static const double fix_power[] = { NAN, NAN, NAN, 2e6, 4e6, 5e6, 1e7 };
#define FIX_N (sizeof(fix_rmax) / sizeof(fix_rmax[0]))

static void
fix_write(const char *name, const char *text)
{
	struct buf path = BUF_INIT;
	FILE *fp;

	buf_addf(&path, "%s/%s", fixdir, name);
	fp = fopen(path.data, "w");
	assert_non_null(fp);
	assert_true(fputs(text, fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	buf_release(&path);
}

static void
fix_copy(const char *name)
{
	struct buf path = BUF_INIT, text = BUF_INIT;

	buf_addf(&path, "data/%s", name);
	assert_int_equal(buf_read_file(&text, path.data), 0);
	fix_write(name, text.data);
	buf_release(&path);
	buf_release(&text);
}

/* The fixture's top500.csv, with bad as the power of the last list. */
static void
fix_top500(const char *bad)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_addstr(&b, "list,system,site,country,rmax_flops,power_w,source\n");
	for (i = 0; i < FIX_N; i++) {
		buf_addf(&b, "%s,M%zu,Site,Nowhere,%.17g,", fix_lists[i], i,
			 fix_rmax[i]);
		if (bad && i == FIX_N - 1)
			buf_addstr(&b, bad);
		else if (!isnan(fix_power[i]))
			buf_addf(&b, "%.17g", fix_power[i]);
		buf_addstr(&b, ",fixture\n");
	}
	fix_write("top500.csv", b.data);
	buf_release(&b);
}

static int
fix_setup(void **state)
{
	static const char *const copies[] = { "assumptions.csv", "devices.csv",
		"disk_capacity.csv", "areal_density.csv", "transistors.csv",
		"claims.csv", "ssd_capacity.csv", "quantum.csv", "schema.csv",
		"references.csv", "dram_density.csv", MODEL_DOCUMENT };
	size_t i;

	(void)state;
	snprintf(fixdir, sizeof(fixdir), "/tmp/test_model.XXXXXX");
	assert_non_null(mkdtemp(fixdir));
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++)
		fix_copy(copies[i]);
	fix_top500(NULL);
	return 0;
}

static int
fix_teardown(void **state)
{
	static const char *const files[] = { "assumptions.csv", "devices.csv",
		"disk_capacity.csv", "areal_density.csv", "transistors.csv",
		"claims.csv", "ssd_capacity.csv", "quantum.csv", "top500.csv",
		"schema.csv", "references.csv", "dram_density.csv",
		MODEL_DOCUMENT };
	struct buf path = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", fixdir, files[i]);
		unlink(path.data);
	}
	buf_release(&path);
	return rmdir(fixdir);
}

/* Decimal year of "YYYY-MM": mid-month. */
static double
fix_time(size_t i)
{
	return atoi(fix_lists[i]) + (atoi(fix_lists[i] + 5) - 0.5) / 12;
}

/* Least squares of log2(y) on t over points lo..hi-1 of the fixture. */
struct line {
	double slope, tmean, ymean;
};

static struct line
fix_line(size_t lo, size_t hi, int what)
{
	double st = 0, sy = 0, stt = 0, sty = 0;
	struct line l;
	size_t i, n = hi - lo;

	for (i = lo; i < hi; i++) {
		double y = what == 0 ? fix_rmax[i] : what == 1 ? fix_power[i] :
			   fix_power[i] / fix_rmax[i];

		st += fix_time(i);
		sy += log2(y);
	}
	l.tmean = st / (double)n;
	l.ymean = sy / (double)n;
	for (i = lo; i < hi; i++) {
		double y = what == 0 ? fix_rmax[i] : what == 1 ? fix_power[i] :
			   fix_power[i] / fix_rmax[i];

		stt += (fix_time(i) - l.tmean) * (fix_time(i) - l.tmean);
		sty += (fix_time(i) - l.tmean) * (log2(y) - l.ymean);
	}
	l.slope = sty / stt;
	return l;
}

/* The value on the line at time t. */
static double
line_at(struct line l, double t)
{
	return exp2(l.ymean + l.slope * (t - l.tmean));
}

static double
num_of(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	if (!q)
		fail_msg("no quantity '%s'", name);
	return q->value;
}

static void
test_fixture_pace(void **state)
{
	struct registry *reg = model_build(fixdir, 2014, NULL, NULL);
	/* Up to the article (2008): lists 0-3; since: lists 3-6. */
	struct line before = fix_line(0, 4, 0), since = fix_line(3, 7, 0);
	double forecast = line_at(before, fix_time(6));

	(void)state;
	assert_non_null(reg);
	assert_near(num_of(reg, "series.top500.fit_since.n"), 4, 0);
	assert_near(num_of(reg, "series.top500.fit_since.doubling_time"),
		    1 / since.slope, 1e-9);
	assert_near(num_of(reg, "series.top500.fit_article.doubling_time"),
		    1 / before.slope, 1e-9);
	assert_near(num_of(reg, "series.top500.pace.slowdown"),
		    before.slope / since.slope, 1e-9);
	assert_near(num_of(reg, "series.top500.latest.time"), 2014 + 5.5 / 12,
		    1e-15);
	assert_near(num_of(reg, "series.top500.fit_article.value_latest"),
		    forecast, 1e-9);
	assert_near(num_of(reg, "series.top500.pace.shortfall"),
		    forecast / fix_rmax[6], 1e-9);
	assert_near(num_of(reg, "rate.top500_since"), 1 / since.slope, 1e-9);
	/* The new rate reaches every gap: the record's, for one. */
	assert_near(num_of(reg, "record.gap.ops.years_top500_since"),
		    num_of(reg, "record.gap.ops.doublings") / since.slope,
		    1e-9);
	registry_free(reg);
}

static void
test_fixture_energy(void **state)
{
	struct registry *reg = model_build(fixdir, 2014, NULL, NULL);
	struct line e = fix_line(3, 7, 2), r = fix_line(3, 7, 0);
	struct line p = fix_line(3, 7, 1);
	double sb, kt, per_op;

	(void)state;
	assert_non_null(reg);
	sb = num_of(reg, "sbops_per_flop");
	kt = 1.380649e-23 * num_of(reg, "landauer.room_temperature") * log(2);
	assert_near(num_of(reg, "landauer.energy_room"), kt, 1e-12);
	assert_near(num_of(reg, "energy.fit.n"), 4, 0);
	assert_near(num_of(reg, "energy.fit.from"), 2008, 0);
	assert_near(num_of(reg, "energy.fit.slope"), e.slope, 1e-9);
	assert_near(num_of(reg, "energy.fit.halving_time"), -1 / e.slope,
		    1e-9);
	assert_near(num_of(reg, "energy.fit_rmax.doubling_time"), 1 / r.slope,
		    1e-9);
	assert_near(num_of(reg, "energy.fit_power.doubling_time"), 1 / p.slope,
		    1e-9);
	/* log2 P = log2 R + log2 e, point by point: so are the slopes. */
	assert_near(p.slope, r.slope + e.slope, 1e-12);
	assert_near(num_of(reg, "energy.efficiency_lag"),
		    (-1 / e.slope) / (1 / r.slope), 1e-9);
	assert_near(num_of(reg, "energy.fit.value_to"), line_at(e, 2014),
		    1e-9);
	assert_near(num_of(reg, "energy.fit.year_landauer"),
		    floor(2014 + log2(kt * sb / line_at(e, 2014)) / e.slope),
		    0);
	/* The record: 10 MW for 4e16 FLOP/s. */
	assert_near(num_of(reg, "record.power"), 1e7, 0);
	assert_near(num_of(reg, "record.energy_per_flop"), 2.5e-10, 1e-15);
	per_op = 2.5e-10 / sb;
	assert_near(num_of(reg, "record.energy_per_op"), per_op, 1e-15);
	assert_near(num_of(reg, "record.gap.landauer.orders"),
		    log10(per_op / kt), 1e-12);
	assert_near(num_of(reg, "record.gap.landauer.year"),
		    2014 + log2(per_op / kt) * (-1 / e.slope), 1e-9);
	/* Then (2008-06, 2 MW for 1e15) and now. */
	assert_near(num_of(reg, "energy.power_ratio"), 5, 1e-15);
	assert_near(num_of(reg, "energy.speed_ratio"), 40, 1e-15);
	assert_near(num_of(reg, "energy.efficiency_ratio"), 8, 1e-15);
	/* Margolus-Levitin for the flip time is the energy per bit. */
	assert_near(num_of(reg, "laptop.op_energy"),
		    num_of(reg, "laptop.energy") /
		    num_of(reg, "laptop.bits_max"), 1e-12);
	assert_near(num_of(reg, "record.gap.laptop_op.ratio"),
		    per_op / num_of(reg, "laptop.op_energy"), 1e-12);
	registry_free(reg);
}

/* Editions whose lists after the article span under 3 years: no trends. */
static void
test_fixture_short_editions(void **state)
{
	struct registry *reg;

	(void)state;
	/* 2008-06 and 2010-06: two lists two years apart. */
	reg = model_build(fixdir, 2010, NULL, NULL);
	assert_non_null(reg);
	assert_null(registry_get(reg, "series.top500.fit_since.slope"));
	assert_null(registry_get(reg, "series.top500.pace.slowdown"));
	assert_null(registry_get(reg, "rate.top500_since"));
	assert_null(registry_get(reg, "energy.fit.slope"));
	assert_null(registry_get(reg, "record.gap.landauer.year"));
	/* The record's own figures need no trend. */
	assert_near(num_of(reg, "record.energy_per_flop"), 4e6 / 3e15, 1e-15);
	assert_near(num_of(reg, "energy.power_ratio"), 2, 1e-15);
	registry_free(reg);
	/* Four years: 2008-06 to 2012-06. */
	reg = model_build(fixdir, 2012, NULL, NULL);
	assert_non_null(reg);
	assert_near(num_of(reg, "series.top500.fit_since.n"), 3, 0);
	assert_near(num_of(reg, "energy.fit.n"), 3, 0);
	registry_free(reg);
}

/*
 * One rule for every trend: three points or more over three years or
 * more. Two lists four years apart (2000-06, 2004-06) make no trend,
 * though they span enough; the third list (2006-06) makes one.
 */
static void
test_fixture_trend_rule(void **state)
{
	struct registry *reg;

	(void)state;
	reg = model_build(fixdir, 2004, NULL, NULL);
	assert_non_null(reg);
	assert_null(registry_get(reg, "series.top500.fit_all.slope"));
	assert_null(registry_get(reg, "series.top500.fit_article.slope"));
	assert_null(registry_get(reg, "rate.top500"));
	registry_free(reg);
	reg = model_build(fixdir, 2006, NULL, NULL);
	assert_non_null(reg);
	assert_near(num_of(reg, "series.top500.fit_all.n"), 3, 0);
	assert_non_null(registry_get(reg, "series.top500.fit_all.slope"));
	registry_free(reg);
}

/*
 * The fixture's top500.csv with a mass for each list from 2008 on, the
 * No. 1 of those lists named by the letters of systems ("AABB").
 */
static void
fix_top500_mass(const char *systems)
{
	struct buf b = BUF_INIT;
	size_t i, k = 0;

	buf_addstr(&b, "list,system,site,country,rmax_flops,power_w,mass_kg,"
		   "source\n");
	for (i = 0; i < FIX_N; i++) {
		int late = atoi(fix_lists[i]) >= 2008;

		if (late)
			buf_addf(&b, "%s,%c,Site,Nowhere,%.17g,,%g,fixture\n",
				 fix_lists[i], systems[k++], fix_rmax[i],
				 1e5 * (double)(i + 1));
		else
			buf_addf(&b, "%s,M%zu,Site,Nowhere,%.17g,,,fixture\n",
				 fix_lists[i], i, fix_rmax[i]);
	}
	fix_write("top500.csv", b.data);
	buf_release(&b);
}

/*
 * The trend per kilogram counts each machine once, on its first list:
 * four lists of two machines are two points, and make no trend; of
 * three machines, they are three points.
 */
static void
test_fixture_mass_machines(void **state)
{
	struct registry *reg;

	(void)state;
	fix_top500_mass("AABB");
	reg = model_build(fixdir, 2014, NULL, NULL);
	assert_non_null(reg);
	assert_near(num_of(reg, "mass.known.count"), 4, 0);
	assert_near(num_of(reg, "mass.known.systems"), 2, 0);
	assert_null(registry_get(reg, "mass.fit.slope"));
	assert_null(registry_get(reg, "mass.fit.year_kg"));
	registry_free(reg);
	fix_top500_mass("ABBC");
	reg = model_build(fixdir, 2014, NULL, NULL);
	fix_top500(NULL);
	assert_non_null(reg);
	assert_near(num_of(reg, "mass.known.systems"), 3, 0);
	assert_near(num_of(reg, "mass.fit.n"), 3, 0);
	assert_non_null(registry_get(reg, "mass.fit.year_kg"));
	registry_free(reg);
}

/* A power that is no positive number is an error at its cell. */
static void
test_fixture_bad_power(void **state)
{
	struct registry *reg;
	char *err;

	(void)state;
	fix_top500("-5");
	diag_reset();
	capture_start();
	reg = model_build(fixdir, 2014, NULL, NULL);
	err = capture_end();
	fix_top500(NULL);
	assert_null(reg);
	/* At the cell, naming the check and the values it read. */
	if (!strstr(err, "top500.csv:8:43: error: column 'power_w': fails "
		    "the check 'a power is above zero' (has(r.power_w) = 1, "
		    "r.power_w = -5), ") || !strstr(err, "model.md:"))
		fail_msg("unexpected message: %s", err);
	free(err);
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
	DIR *d = opendir("data");
	struct dirent *e;

	dir = mkdtemp(tmpl);
	if (!dir || !d)
		fail_msg("mkdtemp or opendir failed");
	dir = strdup(dir);
	while ((e = readdir(d))) {
		struct buf src = BUF_INIT, text = BUF_INIT;

		if (*e->d_name == '.')
			continue;
		buf_addf(&src, "data/%s", e->d_name);
		if (buf_read_file(&text, src.data))
			fail_msg("cannot read '%s'", src.data);
		write_file(dir, e->d_name, text.data);
		buf_release(&src);
		buf_release(&text);
	}
	closedir(d);
	write_file(dir, "devices.csv", devices);
	return dir;
}

static void
remove_data(char *dir)
{
	struct buf path = BUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (*e->d_name == '.')
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, e->d_name);
		unlink(path.data);
	}
	if (d)
		closedir(d);
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

/*
 * Operations per FLOP by precision: the gate count of a minimal fused
 * multiply-add, worked by hand for FP64 (p = 53, a 3p + 2 = 161-bit
 * datapath, 8 shifter stages): 53^2 AND gates, 5 x 53 x 51 in full
 * adders, 2 x 53 in half adders, 5 x 161 in the adder, 2 x 3 x 161 x 8
 * in the two shifters; two FLOPs to the FMA. The record and the Landauer
 * year at FP64's conversion follow from it.
 */
static void
test_precision(void **state)
{
	double fp64 = 53.0 * 53 + 5.0 * 53 * 51 + 2.0 * 53 + 5.0 * 161 +
		      2.0 * 3 * 161 * 8, ratio;

	assert_near(val(state, "fma.fp64.gates"), fp64, 0);
	assert_near(val(state, "fma.fp64.ops_per_flop"), fp64 / 2, 0);
	/* FP32: p = 24, 74 bits, 7 stages. */
	assert_near(val(state, "fma.fp32.ops_per_flop"),
		    (24.0 * 24 + 5.0 * 24 * 22 + 2.0 * 24 + 5.0 * 74 +
		     2.0 * 3 * 74 * 7) / 2, 0);
	assert_true(val(state, "fma.fp64.ops_per_flop") >
		    val(state, "fma.fp32.ops_per_flop"));
	assert_true(val(state, "fma.fp8_e4m3.ops_per_flop") >
		    val(state, "fma.fp4_e2m1.ops_per_flop"));
	ratio = val(state, "fma.fp64.ops_per_flop") /
		val(state, "sbops_per_flop");
	assert_near(val(state, "record.sbops_fp64") / val(state,
							  "record.sbops"),
		    ratio, 1e-12);
	assert_near(val(state, "record.gap.ops.orders") -
			    val(state, "record.gap.ops_fp64.orders"),
		    log10(ratio), 1e-12);
	assert_true(val(state, "energy.fit.year_landauer_fp64") <
		    val(state, "energy.fit.year_landauer"));
	assert_true(val(state, "series.top500.fit_since.year_ml_fp64") <=
		    val(state, "series.top500.fit_since.year_ml"));
}

/*
 * The low-precision peaks of devices.csv: read when the columns are
 * there, never the figure a gap is taken from, each counted at its own
 * format; the speed gap at the device's own precision takes FP32's
 * conversion for an FP32 figure and FP64's for an FP64 peak or a
 * measured rate.
 */
static void
test_devices_precision(void **state)
{
	static const char devices[] =
		"id,name,year,kind,fp64_peak_flops,fp32_peak_flops,"
		"fp16_peak_flops,fp8_peak_flops,fp4_peak_flops,"
		"hpl_rmax_flops,ram_bytes,storage_bytes,source\n"
		"acc,Acc,2024,gpu,4e13,8e13,2e15,4e15,8e15,,1e11,,s\n"
		"cpu,Cpu,2020,laptop,1e11,5e10,,,,,8e9,1e12,s\n"
		"sup,Sup,2008,supercomputer,,,,,,1e15,1e14,,s\n";
	char *dir = data_with_devices(devices);
	struct registry *reg = model_build(dir, 0, NULL, NULL);
	double b64, b32;

	(void)state;
	if (!reg)
		fail_msg("the model failed on the test devices");
	b64 = registry_num(reg, "fma.fp64.ops_per_flop");
	b32 = registry_num(reg, "fma.fp32.ops_per_flop");
	assert_near(registry_num(reg, "device.acc.fp8_peak"), 4e15, 0);
	assert_string_equal(text(reg, "device.acc.flops_figure"),
			    "FP32 peak");
	assert_near(registry_num(reg, "device.acc.flops"), 8e13, 0);
	assert_near(registry_num(reg, "device.acc.ops_per_flop"), b32, 0);
	assert_near(registry_num(reg, "device.acc.sbops_prec"), 8e13 * b32,
		    1e-15);
	assert_near(registry_num(reg, "device.acc.sbops_fp4"),
		    8e15 * registry_num(reg, "fma.fp4_e2m1.ops_per_flop"),
		    1e-15);
	assert_near(registry_num(reg, "device.acc.gap.ops_fp8.orders"),
		    log10(registry_num(reg, "laptop.ops_max") / (4e15 *
		    registry_num(reg, "fma.fp8_e4m3.ops_per_flop"))), 1e-12);
	assert_near(registry_num(reg, "device.cpu.ops_per_flop"), b64, 0);
	assert_false(registry_has(reg, "device.cpu.sbops_fp8"));
	assert_false(registry_has(reg, "device.cpu.fp16_peak"));
	assert_near(registry_num(reg, "device.sup.ops_per_flop"), b64, 0);
	/* The pick carries the row's figures and its own precision. */
	assert_string_equal(text(reg, "current.gpu.id"), "acc");
	assert_near(registry_num(reg, "current.gpu.sbops_fp16"),
		    2e15 * registry_num(reg, "fma.fp16.ops_per_flop"), 1e-15);
	registry_free(reg);
	remove_data(dir);
}

/*
 * Every rows file of the catalogue is a dataset, by its prefix, unless
 * the document names one so: device (no set of that name) has a row a
 * machine of the edition, its date and its numbers by their model
 * names, missing where a machine has none, and the machine's label;
 * top500 is the document's set, not the file's rows.
 */
static void
test_file_datasets(void **state)
{
	struct datasets ds = { 0 };
	struct registry *reg = model_build("data", 2008, &ds, NULL);
	const struct dataset *d;
	size_t k, mass = (size_t)-1, r, n = 0;

	(void)state;
	assert_non_null(reg);
	d = datasets_get(&ds, "device");
	assert_non_null(d);
	assert_string_equal(d->cols[0], "year");
	for (k = 0; k < d->ncols; k++)
		if (!strcmp(d->cols[k], "mass"))
			mass = k;
	assert_true(mass < d->ncols);
	assert_string_equal(d->units[mass], "kg");
	for (k = 0; k < registry_nids(reg); k++)
		n += !strncmp(registry_id_at(reg, k)->name, "device.", 7);
	assert_int_equal(d->nrows, n);
	for (r = 0; r < d->nrows; r++)
		assert_true(d->vals[r * d->ncols] <= 2008);
	assert_non_null(d->labels);
	/* The set series.top500 is the dataset top500: time, its value. */
	d = datasets_get(&ds, "top500");
	assert_non_null(d);
	assert_string_equal(d->cols[1], "rmax_flops");
	datasets_release(&ds);
	registry_free(reg);
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
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_devices_precision),
		cmocka_unit_test(test_file_datasets),
	};

	const struct CMUnitTest fixture[] = {
		cmocka_unit_test(test_fixture_pace),
		cmocka_unit_test(test_fixture_energy),
		cmocka_unit_test(test_fixture_short_editions),
		cmocka_unit_test(test_fixture_trend_rule),
		cmocka_unit_test(test_fixture_bad_power),
		cmocka_unit_test(test_fixture_mass_machines),
	};

	return cmocka_run_group_tests_name("model", tests, setup, teardown) |
	       cmocka_run_group_tests_name("model on a small TOP500", fixture,
					   fix_setup, fix_teardown);
}
