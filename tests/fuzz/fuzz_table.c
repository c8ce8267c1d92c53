/*
 * libFuzzer target for the CSV loader: any bytes as a CSV file, checked
 * against one of the shipped catalogue's schemas (data/schema.csv, read
 * once, from the folder the target runs in; the catalogue's own when
 * there is none), chosen by the input's size: the bytes stay a CSV file
 * as they are; then as a file without one, every cell through the typed
 * getters. Never writes files.
 */
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "schema.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Schema i of the catalogue's files and its own, mod their count. */
static const struct table_schema *
schema_pick(size_t i)
{
	static struct tableset ts;
	static const struct schema_file *v;
	static size_t n;
	static int read;

	if (!read) {
		read = 1;
		if (schema_catalogue(&ts, "data", &v, &n))
			n = 0;
	}
	i %= n + 1;
	return i < n ? &v[i].s : schema_self();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table *t;
	size_t r, c;

	diag_set_quiet(1);
	t = table_parse_schema("fuzz.csv", (const char *)data, size,
			       schema_pick(size));
	table_free(t);
	t = table_parse("fuzz.csv", (const char *)data, size);
	if (!t)
		return 0;
	for (r = 0; r < table_rows(t) && r < 64; r++) {
		for (c = 0; c < table_cols(t); c++) {
			double v;
			int y;
			const char *s;

			table_num(t, r, (int)c, TABLE_OPTIONAL, &v);
			table_num(t, r, (int)c, TABLE_POSITIVE, &v);
			table_year(t, r, (int)c, 1900, 2100, &y);
			table_month(t, r, (int)c, 1900, 2100, &v);
			table_text(t, r, (int)c, &s);
			table_unique(t, r, (int)c);
		}
		table_line(t, r);
	}
	table_find(t, "name");
	table_free(t);
	return 0;
}
