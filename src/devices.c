/*
 * The model's machines: reads devices.csv and quantum.csv through the
 * table set, as of the edition; writes each machine's figures (and its
 * kind, which the model document's picks read: the newest of each kind,
 * the one of the article's year, the nearest to each limit, all chosen
 * in data/model.md), the comparisons of the picks, and each quantum
 * processor, as quantities. The document's families over the machines
 * add their SBOPS, bits, gaps and own-mass limits, row by row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dataset.h"
#include "diag.h"
#include "fit.h"
#include "model.h"
#include "modeldoc.h"
#include "modelint.h"
#include "physics.h"
#include "registry.h"
#include "table.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* Device kinds, each with a "current" and a "then" pick. */
static const char *const device_kinds[] = {
	"laptop", "netbook", "supercomputer", "gpu", "phone",
};
#define NKINDS (sizeof(device_kinds) / sizeof(device_kinds[0]))

/*
 * The speed figures a row of devices.csv may give, each optional: what
 * each is (precision, peak or measured) is in its column's name. The
 * order is the order of preference when two machines are compared: FP64
 * with FP64 where both give it, else FP32 with FP32, else measured with
 * measured, else the low-precision peaks (16, 8 and 4 bits), which no
 * speed gap is taken from: the model document counts them at their own
 * precision.
 */
enum fig { FIG_FP64, FIG_FP32, FIG_HPL, FIG_FP16, FIG_FP8, FIG_FP4, NFIG };
static const struct {
	const char *col;	/* column of devices.csv */
	const char *name;	/* quantity: <prefix>.<name> */
	const char *what;	/* for the reader */
} figs[NFIG] = {
	{ "fp64_peak_flops", "fp64_peak", "FP64 peak" },
	{ "fp32_peak_flops", "fp32_peak", "FP32 peak" },
	{ "hpl_rmax_flops", "hpl_rmax", "measured HPL Rmax" },
	{ "fp16_peak_flops", "fp16_peak", "FP16 peak" },
	{ "fp8_peak_flops", "fp8_peak", "FP8 peak" },
	{ "fp4_peak_flops", "fp4_peak", "FP4 peak" },
};

/* One row of devices.csv as read; NAN where a cell is empty. */
struct devrow {
	const char *id, *name, *kind, *source;
	int year;
	size_t kindi;		/* index into device_kinds */
	double fig[NFIG];
	double ram, storage;	/* bytes: working memory, persistent */
	double mass, vol, power;	/* kg, litres, W */
	enum fig speed;		/* the figure of its speed gap */
};

/*
 * A row of devices.csv or quantum.csv dated after the newest year of the
 * history series would be in no edition, left out without a word (a
 * mistyped 2062 for 2026): an error at its date cell. Returns -1 then.
 */
int
model_after_newest(struct model *m, const struct table *t, size_t r, int col,
	     int year)
{
	if (!m->newest || year <= m->newest)
		return 0;
	return table_error(t, r, col, "dated %d, after the newest year of "
			   "the data (%d, in %s): no edition would show this "
			   "row", year, m->newest, m->newest_file);
}

/*
 * The columns of devices.csv the loader reads, found by name in the
 * catalogue (schema.c, which says what each holds); -1: an optional
 * column the file leaves out.
 */
struct devcols {
	int id, name, label, year, kind, fig[NFIG], ram, storage, source;
	int mass, vol, power;
};

/*
 * Which figure a device's speed gap is measured from: its highest peak
 * rate at 64 or 32 bits (FP64 when the two are equal), or, when it
 * gives no peak, its measured rate. Returns NFIG when it gives none.
 */
static enum fig
speed_figure(const double *fig)
{
	if (!isnan(fig[FIG_FP64]) && !(fig[FIG_FP32] > fig[FIG_FP64]))
		return FIG_FP64;
	if (!isnan(fig[FIG_FP32]))
		return FIG_FP32;
	return isnan(fig[FIG_HPL]) ? NFIG : FIG_HPL;
}

/* A positive number of column c, NAN when it is empty or absent. */
static double
optional_num(const struct table *t, size_t r, int c, int *bad)
{
	double v = NAN;

	if (c >= 0)
		*bad |= table_num(t, r, c, TABLE_POSITIVE | TABLE_OPTIONAL,
				  &v);
	return v;
}

/*
 * Reads row r of devices.csv (its columns in dc) into d, checking every
 * cell. Returns -1 after printing the row's errors.
 */
static int
devrow_read(const struct table *t, const struct devcols *dc, size_t r,
	    struct devrow *d)
{
	int bad = 0;
	size_t i;

	bad |= table_id(t, r, dc->id, &d->id);
	bad |= table_text(t, r, dc->name, &d->name);
	bad |= table_year(t, r, dc->year, YEAR_MIN, YEAR_MAX, &d->year);
	bad |= table_text(t, r, dc->kind, &d->kind);
	for (i = 0; i < NFIG; i++)
		d->fig[i] = optional_num(t, r, dc->fig[i], &bad);
	d->ram = optional_num(t, r, dc->ram, &bad);
	d->storage = optional_num(t, r, dc->storage, &bad);
	bad |= table_text(t, r, dc->source, &d->source);
	d->mass = optional_num(t, r, dc->mass, &bad);
	d->vol = optional_num(t, r, dc->vol, &bad);
	d->power = optional_num(t, r, dc->power, &bad);
	if (bad)
		return -1;
	for (d->kindi = 0; d->kindi < NKINDS; d->kindi++)
		if (!strcmp(device_kinds[d->kindi], d->kind))
			break;
	if (d->kindi == NKINDS)
		return table_error(t, r, dc->kind, "unknown kind '%s': "
				   "expected laptop, netbook, supercomputer, "
				   "gpu or phone", d->kind);
	d->speed = speed_figure(d->fig);
	if (d->speed == NFIG)
		return table_error(t, r, dc->fig[FIG_FP64], "no speed figure: "
				   "give "
				   "fp64_peak_flops, fp32_peak_flops or "
				   "hpl_rmax_flops");
	if (d->fig[FIG_HPL] > d->fig[FIG_FP64])
		return table_error(t, r, dc->fig[FIG_HPL], "a measured rate "
				   "of %s FLOP/s beats the FP64 peak of %s",
				   table_cell(t, r, dc->fig[FIG_HPL]),
				   table_cell(t, r, dc->fig[FIG_FP64]));
	return 0;
}

/* The columns of devices.csv, by name (its header was checked). */
static void
device_columns(const struct table *t, struct devcols *dc)
{
	size_t i;

	dc->id = table_col(t, "id");
	dc->name = table_col(t, "name");
	dc->label = table_col(t, "label");
	dc->year = table_col(t, "year");
	dc->kind = table_col(t, "kind");
	for (i = 0; i < NFIG; i++)
		dc->fig[i] = table_col(t, figs[i].col);
	dc->ram = table_col(t, "ram_bytes");
	dc->storage = table_col(t, "storage_bytes");
	dc->source = table_col(t, "source");
	dc->mass = table_col(t, "mass_kg");
	dc->vol = table_col(t, "volume_l");
	dc->power = table_col(t, "power_w");
}

/* Adds NAME, a data figure of the row, with what it is and how picked. */
static void
add_figure(struct model *m, const char *name, double v, const char *unit,
	   const char *what, const char *how, const char *src,
	   const char *org)
{
	struct buf d = BUF_INIT;

	buf_addf(&d, "%s; %s", what, how);
	registry_add_num(m->reg, name, v, unit, d.data, NULL, src, org);
	buf_release(&d);
}

/*
 * Adds one device, device.<id>: its figures as the data give them; the
 * one its speed gap is measured from (its highest peak). The model
 * document's families over devices add the rest (SBOPS, bits, gaps and
 * the limits of its own mass), and its picks (current.laptop, ...)
 * copy the row.
 */
static void
add_device(struct model *m, const struct table *t, size_t r)
{
	struct buf name = BUF_INIT, f = BUF_INIT, in = BUF_INIT, e = BUF_INIT;
	struct buf org = BUF_INIT, src = BUF_INIT, pre = BUF_INIT;
	const char *how = "from devices.csv", *prefix;
	struct devrow d;
	struct devcols dc;
	double flops;
	size_t i;

	/* The row was read and checked by add_devices(). */
	device_columns(t, &dc);
	if (devrow_read(t, &dc, r, &d))
		BUG("device row %zu was not checked", r);
	buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
	buf_addstr(&src, d.source);
	buf_addf(&pre, "device.%s", d.id);
	prefix = pre.data;

	registry_add_text(m->reg, SET(name, "%s.name", prefix), d.name, how,
			  NULL, src.data, org.data);
	registry_add_text(m->reg, SET(name, "%s.label", prefix),
			  dc.label >= 0 && *table_cell(t, r, dc.label) ?
			  table_cell(t, r, dc.label) : d.name,
			  "short name for figures (the name when no label)",
			  NULL, src.data, org.data);
	registry_add_text(m->reg, SET(name, "%s.id", prefix), d.id, how,
			  NULL, src.data, org.data);
	registry_add_num(m->reg, SET(name, "%s.year", prefix), d.year, "year",
			 how, NULL, src.data, org.data);
	registry_add_text(m->reg, SET(name, "%s.kind", prefix), d.kind,
			  "kind of machine (laptop, netbook, supercomputer, "
			  "gpu or phone): what the document's picks choose "
			  "among", NULL, src.data, org.data);

	/* Speed: every figure given, then the one the gap is taken from. */
	for (i = 0; i < NFIG; i++)
		if (!isnan(d.fig[i]))
			add_figure(m, SET(name, "%s.%s", prefix, figs[i].name),
				   d.fig[i], "FLOP/s", figs[i].what, how,
				   src.data, org.data);
	flops = d.fig[d.speed];
	if (d.speed == FIG_HPL)
		model_fx(m, SET(name, "%s.flops", prefix), flops, "FLOP/s",
		   SET(e, "%s.hpl_rmax", prefix),
		   "no peak figure: the measured rate",
		   SET(in, "%s.hpl_rmax", prefix), OURS);
	else if (!isnan(d.fig[FIG_FP64]) && !isnan(d.fig[FIG_FP32]))
		model_fx(m, SET(name, "%s.flops", prefix), flops, "FLOP/s",
		   SET(e, "max(%s.fp64_peak, %s.fp32_peak)", prefix, prefix),
		   "the highest peak rate, at 64 or 32 bits",
		   SET(in, "%s.fp64_peak %s.fp32_peak", prefix, prefix), OURS);
	else
		model_fx(m, SET(name, "%s.flops", prefix), flops, "FLOP/s",
		   SET(e, "%s.%s", prefix, figs[d.speed].name),
		   "the only peak rate given",
		   SET(in, "%s.%s", prefix, figs[d.speed].name), OURS);
	registry_add_text(m->reg, SET(name, "%s.flops_figure", prefix),
			  figs[d.speed].what, "which figure the speed and its "
			  "gap are taken from: the highest of the FP64 and "
			  "FP32 peaks, else the measured HPL Rmax", NULL,
			  src.data, org.data);

	/* Memory: working memory and storage, each with its own gap. */
	if (!isnan(d.ram)) {
		add_figure(m, SET(name, "%s.ram", prefix), d.ram, "B",
			   "working memory (RAM; on-package HBM or unified "
			   "memory for GPUs and SoCs)", how, src.data,
			   org.data);
	}
	if (!isnan(d.storage)) {
		add_figure(m, SET(name, "%s.storage", prefix), d.storage, "B",
			   "persistent storage (SSD, disk or flash)", how,
			   src.data, org.data);
	}
	if (!isnan(d.power))
		add_figure(m, SET(name, "%s.power", prefix), d.power, "W",
			   "power draw", how, src.data, org.data);
	if (!isnan(d.mass))
		add_figure(m, SET(name, "%s.mass", prefix), d.mass, "kg",
			   "mass", how, src.data, org.data);
	if (!isnan(d.mass) && !isnan(d.vol))
		add_figure(m, SET(name, "%s.volume", prefix), d.vol * 1e-3,
			   "m^3", "volume", how, src.data, org.data);
	/* The document's families over devices: SBOPS, bits, own-mass
	 * limits. */
	if (m->ev && modeldoc_row(m->ev, prefix))
		m->failed = 1;
	buf_release(&name);
	buf_release(&f);
	buf_release(&in);
	buf_release(&org);
	buf_release(&src);
	buf_release(&pre);
	buf_release(&e);
}

/*
 * The physics checks the data: no device may compute faster than the
 * Margolus-Levitin limit of its own mass (at its highest rate), nor hold
 * more bits, working memory and storage together, than the entropy of
 * its own mass in its own volume. Returns -1 after printing the error.
 */
static int
device_physics(struct model *m, const struct table *t,
	       const struct devcols *dc, size_t r, const struct devrow *d)
{
	const struct physconst *pc = m->pc;
	double sb = model_get(m, "sbops_per_flop"), E, I, bits;
	size_t i, top = d->speed;

	if (isnan(d->mass))
		return 0;
	/* Its highest rate at any precision, low ones included. */
	for (i = 0; i < NFIG; i++)
		if (d->fig[i] > d->fig[top])
			top = i;
	E = phys_rest_energy(pc, d->mass);
	if (d->fig[top] * sb > phys_ml_ops(pc, E))
		return table_error(t, r, dc->fig[top], "%s FLOP/s x %g "
				   "SBOPS per FLOP beats the Margolus-Levitin "
				   "limit of %.4g ops/s for its %g kg",
				   table_cell(t, r, dc->fig[top]), sb,
				   phys_ml_ops(pc, E), d->mass);
	if (isnan(d->vol) || (isnan(d->ram) && isnan(d->storage)))
		return 0;
	I = phys_entropy_bits(pc, phys_rad_entropy(E, phys_rad_temperature(
		pc, E, d->vol * 1e-3, model_get(m, "laptop.modes"))));
	bits = ((isnan(d->ram) ? 0 : d->ram) +
		(isnan(d->storage) ? 0 : d->storage)) * 8;
	if (bits > I)
		return table_error(t, r, isnan(d->storage) ? dc->ram :
				   dc->storage,
				   "%.4g bytes of memory and storage beat the "
				   "entropy limit of %.4g bits for %g kg in "
				   "%g litres", bits / 8, I, d->mass, d->vol);
	return 0;
}

/*
 * One like-with-like comparison of a figure between the machine of the
 * article's year and today's: compare.<kind>.<what>.then and .now, the
 * same figure of both, as picked. How much it grew and how fast is the
 * document's family over the comparisons (data/model.md).
 */
static void
add_compare_figure(struct model *m, const char *kind, const char *what,
		   const char *then_name, const char *now_name,
		   const char *unit, const char *note)
{
	struct buf name = BUF_INIT;
	double a = model_get(m, then_name), b = model_get(m, now_name);

	model_fx(m, SET(name, "compare.%s.%s.then", kind, what), a, unit,
		 then_name, note, then_name, OURS);
	model_fx(m, SET(name, "compare.%s.%s.now", kind, what), b, unit,
		 now_name, note, now_name, OURS);
	buf_release(&name);
}

/*
 * Then and now, like with like: for each kind with a machine of the
 * article's year (then.<kind>) and a later one (current.<kind>), the
 * speed by the first figure both give (FP64 peak, FP32 peak, measured),
 * named in compare.<kind>.speed.figure; working memory with working
 * memory; storage with storage. Supercomputers are compared by their
 * measured HPL Rmax with the TOP500 No. 1 of the edition (record.*).
 */
static void
add_compare(struct model *m, const char *kind, const struct devrow *then,
	    const struct devrow *now)
{
	struct buf name = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	struct buf in = BUF_INIT;
	int record = now == NULL;
	size_t i;

	if (record && (isnan(then->fig[FIG_HPL]) ||
		       !registry_get(m->reg, "record.rmax") ||
		       !(model_get(m, "record.year") > then->year)))
		return;
	for (i = 0; !record && i < NFIG; i++)
		if (!isnan(then->fig[i]) && !isnan(now->fig[i]))
			break;
	if (!record && i == NFIG)
		return;
	/* They exist because of the two machines picked. */
	registry_set_because(m->reg, SET(name, "%s then.%s.id", record ?
					 "record.list" : SET(a, "current.%s.id",
							     kind), kind));
	buf_addf(&b, "%s.year", record ? "record" : SET(a, "current.%s",
							 kind));
	model_fx(m, SET(name, "compare.%s.years", kind),
	   model_get(m, b.data) - then->year, "yr",
	   SET(in, "%s - then.%s.year", b.data, kind),
	   "years between the two machines",
	   SET(a, "%s then.%s.year", b.data, kind), OURS);
	if (record) {
		registry_add_text(m->reg, SET(name, "compare.%s.speed.figure",
					      kind), figs[FIG_HPL].what,
				  "the figure both speeds are: TOP500 Rmax, "
				  "measured with HPL at FP64", NULL, OURS,
				  NULL);
		add_compare_figure(m, kind, "speed",
				   SET(a, "then.%s.hpl_rmax", kind),
				   "record.rmax", "FLOP/s", figs[FIG_HPL].what);
		goto out;
	}
	registry_add_text(m->reg, SET(name, "compare.%s.speed.figure", kind),
			  figs[i].what, "the figure both speeds are: FP64 "
			  "peak where both give it, else FP32 peak, else "
			  "measured", NULL, OURS, NULL);
	add_compare_figure(m, kind, "speed",
			   SET(a, "then.%s.%s", kind, figs[i].name),
			   SET(b, "current.%s.%s", kind, figs[i].name),
			   "FLOP/s", figs[i].what);
	if (!isnan(then->ram) && !isnan(now->ram))
		add_compare_figure(m, kind, "ram",
				   SET(a, "then.%s.ram", kind),
				   SET(b, "current.%s.ram", kind), "B",
				   "working memory");
	if (!isnan(then->storage) && !isnan(now->storage))
		add_compare_figure(m, kind, "storage",
				   SET(a, "then.%s.storage", kind),
				   SET(b, "current.%s.storage", kind), "B",
				   "storage");
out:
	/* The document's family over the comparisons: growth and pace. */
	registry_add_text(m->reg, SET(name, "compare.%s.id", kind), kind,
			  "a comparison of then and now", NULL, OURS, NULL);
	if (m->ev && modeldoc_row(m->ev, SET(name, "compare.%s", kind)))
		m->failed = 1;
	registry_set_because(m->reg, NULL);
	buf_release(&name);
	buf_release(&a);
	buf_release(&b);
	buf_release(&in);
}

/*
 * Reads data/devices.csv: every row checked, including against physics
 * (no device may beat the limits of its own mass); rows newer than the
 * edition are skipped. Adds each device; the model document picks among
 * them (current.KIND, then.KIND, closest.WHAT).
 */
static int
add_devices(struct model *m)
{
	struct table *t = model_load(m, "devices.csv");
	size_t r, before = diag_errors();
	struct devcols dc;

	if (!t)
		return -1;
	/* Each device becomes some sixty quantities on every page. */
	if (table_max_rows(t, MAX_ROWS, "the report compares machines, "
			   "it is no catalogue"))
		goto out;
	device_columns(t, &dc);
	for (r = 0; r < table_rows(t); r++) {
		struct devrow d;

		if (devrow_read(t, &dc, r, &d) || table_unique(t, r, dc.id) ||
		    model_after_newest(m, t, r, dc.year, d.year) ||
		    device_physics(m, t, &dc, r, &d))
			continue;
		if (d.year > m->as_of)
			continue;
		add_device(m, t, r);
	}
out:
	return diag_errors() == before ? 0 : -1;
}

/*
 * The row of devices.csv of the machine the document picked as
 * PICK.KIND (then.laptop), read into d. Returns 0, or 1 when there is
 * no such pick.
 */
static int
picked_row(struct model *m, const struct table *t, const char *pick,
	   const char *kind, struct devrow *d)
{
	struct buf name = BUF_INIT;
	const struct quantity *q;
	struct devcols dc;
	size_t r;

	q = registry_get(m->reg, SET(name, "%s.%s.id", pick, kind));
	buf_release(&name);
	if (!q || q->type != Q_TEXT)
		return 1;
	device_columns(t, &dc);
	for (r = 0; r < table_rows(t); r++)
		if (!strcmp(table_cell(t, r, dc.id), q->text)) {
			if (devrow_read(t, &dc, r, d))
				BUG("device row %zu was not checked", r);
			return 0;
		}
	BUG("picked device '%s' is no row of %s", q->text, table_name(t));
}

/*
 * The like-with-like comparisons of then and now, for each kind with a
 * machine of the article's year (then.KIND) and a later one
 * (current.KIND), or for supercomputers the record holder: after the
 * document's picks.
 */
static int
add_compares(struct model *m)
{
	struct table *t = model_load(m, "devices.csv");
	struct devrow then, now;
	size_t i;

	if (!t)
		return -1;
	for (i = 0; i < NKINDS; i++) {
		const char *kind = device_kinds[i];

		if (picked_row(m, t, "then", kind, &then))
			continue;
		if (!strcmp(kind, "supercomputer"))
			add_compare(m, kind, &then, NULL);
		else if (!picked_row(m, t, "current", kind, &now) &&
			 strcmp(then.id, now.id))
			add_compare(m, kind, &then, &now);
	}
	return 0;
}

/*
 * Reads quantum.csv: each chip as quantum.ID (its id, name, year, qubit
 * frequency, coupling and gate times), every cell checked; rows dated
 * after the edition are left out. The document's family over the chips
 * (data/model.md, "Quantum processors") holds each gate against the
 * Margolus-Levitin time of the energy that drives it. Returns -1 after
 * errors.
 */
static int
add_quantum(struct model *m)
{
	struct table *t = model_load(m, "quantum.csv");
	struct buf name = BUF_INIT;
	struct buf org = BUF_INIT, pre = BUF_INIT;
	size_t r, before = diag_errors();
	int cid, cname, cyear, cf, cg, c1, c2, csrc;

	if (!t)
		return -1;
	if (table_max_rows(t, MAX_ROWS, "the report shows a few devices"))
		goto out;
	/* By name, from the catalogue (schema.c): the header was checked. */
	cid = table_col(t, "id");
	cname = table_col(t, "name");
	cyear = table_col(t, "year");
	cf = table_col(t, "qubit_frequency_hz");
	cg = table_col(t, "coupling_hz");
	c1 = table_col(t, "gate_1q_s");
	c2 = table_col(t, "gate_2q_s");
	csrc = table_col(t, "source");
	for (r = 0; r < table_rows(t); r++) {
		const char *id, *nm, *src;
		double f, g, t1, t2;
		int year;
		const char *p;

		if (table_id(t, r, cid, &id) | table_text(t, r, cname, &nm) |
		    table_year(t, r, cyear, YEAR_MIN, YEAR_MAX, &year) |
		    table_num(t, r, cf, TABLE_POSITIVE, &f) |
		    table_num(t, r, cg, TABLE_POSITIVE, &g) |
		    table_num(t, r, c1, TABLE_POSITIVE, &t1) |
		    table_num(t, r, c2, TABLE_POSITIVE, &t2) |
		    table_text(t, r, csrc, &src))
			continue;
		if (table_unique(t, r, cid) ||
		    model_after_newest(m, t, r, cyear, year) || year > m->as_of)
			continue;
		buf_reset(&org);
		buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
		buf_reset(&pre);
		buf_addf(&pre, "quantum.%s", id);
		p = pre.data;
		registry_add_text(m->reg, SET(name, "%s.id", p), id,
				  "from quantum.csv", NULL, src, org.data);
		registry_add_text(m->reg, SET(name, "%s.name", p), nm,
				  "from quantum.csv", NULL, src, org.data);
		registry_add_num(m->reg, SET(name, "%s.year", p), year, "year",
				 "year of the published figures", NULL, src,
				 org.data);
		registry_add_num(m->reg, SET(name, "%s.qubit_frequency", p), f,
				 "Hz", "qubit frequency", NULL, src, org.data);
		registry_add_num(m->reg, SET(name, "%s.coupling", p), g, "Hz",
				 "qubit-qubit coupling g/2pi", NULL, src,
				 org.data);
		registry_add_num(m->reg, SET(name, "%s.gate_1q", p), t1, "s",
				 "single-qubit gate time", NULL, src, org.data);
		registry_add_num(m->reg, SET(name, "%s.gate_2q", p), t2, "s",
				 "two-qubit gate time", NULL, src, org.data);
		/* The document's family over the chips: limits, ratios. */
		if (m->ev && modeldoc_row(m->ev, p))
			m->failed = 1;
	}
out:
	buf_release(&name);
	buf_release(&org);
	buf_release(&pre);
	return diag_errors() == before ? 0 : -1;
}


/* The provider "devices": devices.csv, each machine. */
int
provide_devices(void *ctx)
{
	struct model *m = ctx;

	return add_devices(m) || m->failed ? -1 : 0;
}

/* The provider "quantum": quantum.csv. */
int
provide_quantum(void *ctx)
{
	struct model *m = ctx;

	return add_quantum(m) || m->failed ? -1 : 0;
}

/* The provider "compare": then and now, like with like (after the picks). */
int
provide_compare(void *ctx)
{
	struct model *m = ctx;

	return add_compares(m) || m->failed ? -1 : 0;
}
