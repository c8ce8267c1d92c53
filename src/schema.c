/*
 * The load stage's knowledge of the data files: for each, its columns,
 * their kinds and units, and which the loaders need. Data, not code:
 * table.c checks a file against its schema when it is read; the
 * meaning of the values is the model's (model.c) and the audit's.
 */
#include <string.h>

#include "schema.h"
#include "table.h"
#include "banned.h"

#define T TABLE_KIND_TEXT
#define ID TABLE_KIND_ID
#define NUM TABLE_KIND_NUMBER
#define YEAR TABLE_KIND_YEAR
#define MONTH TABLE_KIND_MONTH
/* A column the loaders do not need: it may be absent, or empty. */
#define OPT (TABLE_COL_OPTIONAL | TABLE_COL_EMPTY)
#define EMPTY TABLE_COL_EMPTY
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_column assumptions[] = {
	{ "name", T, 0, NULL, "the quantity's name (laptop.mass)" },
	{ "value", NUM, 0, NULL, "its value, in the row's unit" },
	{ "unit", T, EMPTY, NULL, "its unit (kg, m^3, yr); empty: a "
	  "pure number" },
	{ "source", T, 0, NULL, "where the value comes from" },
	{ "note", T, OPT, NULL, "a remark (an estimate, how it was "
	  "found)" },
};

static const struct table_column devices[] = {
	{ "id", ID, 0, NULL, "names its quantities: device.<id>.*" },
	{ "name", T, 0, NULL, "the machine's full name" },
	{ "label", T, OPT, NULL, "a short name for figures (empty: the "
	  "name)" },
	{ "year", YEAR, 0, NULL, "the year it came out" },
	{ "kind", T, 0, NULL, "laptop, netbook, supercomputer, gpu or "
	  "phone" },
	{ "fp64_peak_flops", NUM, EMPTY, "FLOP/s", "peak rate at 64-bit "
	  "floating point" },
	{ "fp32_peak_flops", NUM, EMPTY, "FLOP/s", "peak rate at 32-bit "
	  "floating point" },
	{ "hpl_rmax_flops", NUM, EMPTY, "FLOP/s", "measured LINPACK (HPL) "
	  "Rmax; a row gives at least one of the three speeds" },
	{ "ram_bytes", NUM, EMPTY, "B", "working memory (RAM, or on-package "
	  "HBM or unified memory)" },
	{ "storage_bytes", NUM, EMPTY, "B", "persistent storage (SSD, disk, "
	  "flash)" },
	{ "mass_kg", NUM, OPT, "kg", "mass" },
	{ "volume_l", NUM, OPT, "L", "volume" },
	{ "power_w", NUM, OPT, "W", "power drawn" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark (estimates, how they were "
	  "found)" },
};

static const struct table_column top500[] = {
	{ "list", MONTH, 0, NULL, "the list's date, YYYY-MM" },
	{ "system", T, 0, NULL, "its No. 1 system" },
	{ "site", T, EMPTY, NULL, "where that system is" },
	{ "country", T, OPT, NULL, "the site's country" },
	{ "rmax_flops", NUM, 0, "FLOP/s", "measured speed (Rmax)" },
	{ "rpeak_flops", NUM, OPT, "FLOP/s", "peak speed (Rpeak)" },
	{ "power_w", NUM, OPT, "W", "power drawn running the benchmark, as "
	  "published with the list (empty: none published)" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column disk_capacity[] = {
	{ "year", YEAR, 0, NULL, "the year it shipped" },
	{ "model", T, 0, NULL, "the largest hard disk of that year" },
	{ "manufacturer", T, OPT, NULL, "who made it" },
	{ "capacity_bytes", NUM, 0, "B", "its capacity" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column areal_density[] = {
	{ "year", YEAR, 0, NULL, "the year" },
	{ "product", T, 0, NULL, "the drive or demonstration" },
	{ "density_bit_per_in2", NUM, 0, "bit/in^2", "its areal density" },
	{ "source", T, 0, NULL, "where the figure comes from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column transistors[] = {
	{ "year", YEAR, 0, NULL, "the year it came out" },
	{ "processor", T, 0, NULL, "the microprocessor" },
	{ "designer", T, OPT, NULL, "who designed it" },
	{ "transistors", NUM, 0, NULL, "its transistor count" },
	{ "source", T, 0, NULL, "where the figure comes from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column claims[] = {
	{ "id", ID, 0, NULL, "names its quantities: claim.<id>.*" },
	{ "claim", T, EMPTY, NULL, "what is claimed, in words" },
	{ "published", T, 0, NULL, "the figure as printed, or a printed "
	  "range LOW..HIGH" },
	{ "unit", T, OPT, NULL, "its unit, as printed" },
	{ "printed_in", T, 0, NULL, "where it is printed" },
	{ "quantity", T, 0, NULL, "the quantity that recomputes it" },
	{ "tolerance", T, EMPTY, NULL, "empty: from tolerance_reason; a "
	  "number: relative; order: half an order of magnitude" },
	{ "tolerance_reason", T, 0, NULL, "why that tolerance: digits, "
	  "range, order, about or constants" },
	{ "status", T, 0, NULL, "reproducible or discrepancy" },
	{ "category", T, EMPTY, NULL, "for a discrepancy: error, rounding, "
	  "convention or data-moved" },
	{ "explanation", T, EMPTY, NULL, "why a discrepancy is one" },
};

static const struct table_column ssd_capacity[] = {
	{ "year", YEAR, 0, NULL, "the year it shipped" },
	{ "model", T, 0, NULL, "the largest solid-state drive of that "
	  "year" },
	{ "manufacturer", T, OPT, NULL, "who made it" },
	{ "capacity_bytes", NUM, 0, "B", "its capacity" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_column quantum[] = {
	{ "id", ID, 0, NULL, "names its quantities: quantum.<id>.*" },
	{ "name", T, 0, NULL, "the processor's name" },
	{ "year", YEAR, 0, NULL, "the year its figures were published" },
	{ "qubit_frequency_hz", NUM, 0, "Hz", "a qubit's transition "
	  "frequency" },
	{ "coupling_hz", NUM, 0, "Hz", "the coupling between two qubits "
	  "during a two-qubit gate" },
	{ "gate_1q_s", NUM, 0, "s", "single-qubit gate time" },
	{ "gate_2q_s", NUM, 0, "s", "two-qubit gate time" },
	{ "source", T, 0, NULL, "where the figures come from" },
	{ "note", T, OPT, NULL, "a remark (estimates)" },
};

static const struct table_column references[] = {
	{ "key", ID, 0, NULL, "what templates cite: {{ cite(key) }}" },
	{ "label", T, 0, NULL, "the citation's text (Lloyd 2000)" },
	{ "authors", T, EMPTY, NULL, "the authors, as listed" },
	{ "title", T, 0, NULL, "the work's title" },
	{ "venue", T, EMPTY, NULL, "journal, volume and pages, or "
	  "publisher" },
	{ "year", YEAR, 0, NULL, "the year of publication" },
	{ "doi", T, EMPTY, NULL, "its DOI (10.xxxx/...), linked through "
	  "doi.org" },
	{ "url", T, EMPTY, NULL, "an address, for works without a DOI" },
	{ "note", T, OPT, NULL, "a remark" },
};

static const struct table_schema schemas[] = {
	{ "assumptions.csv", "one input of the model", assumptions,
	  N(assumptions) },
	{ "devices.csv", "one machine compared with the limits", devices,
	  N(devices) },
	{ "top500.csv", "the No. 1 of one TOP500 list, in time order",
	  top500, N(top500) },
	{ "disk_capacity.csv", "the largest hard disk of a year, in time "
	  "order", disk_capacity, N(disk_capacity) },
	{ "areal_density.csv", "a hard-disk areal density of a year, in "
	  "time order", areal_density, N(areal_density) },
	{ "transistors.csv", "a microprocessor's transistor count, in time "
	  "order", transistors, N(transistors) },
	{ "ssd_capacity.csv", "the largest solid-state drive of a year, in "
	  "time order", ssd_capacity, N(ssd_capacity) },
	{ "quantum.csv", "one quantum processor's published gate figures",
	  quantum, N(quantum) },
	{ "claims.csv", "one figure the article or the paper prints",
	  claims, N(claims) },
	{ "references.csv", "one published work the report cites",
	  references, N(references) },
};

const struct table_schema *
schema_of(const char *file)
{
	size_t i;

	for (i = 0; i < N(schemas); i++)
		if (!strcmp(schemas[i].file, file))
			return &schemas[i];
	return NULL;
}

size_t
schema_count(void)
{
	return N(schemas);
}

const struct table_schema *
schema_at(size_t i)
{
	return i < N(schemas) ? &schemas[i] : NULL;
}
