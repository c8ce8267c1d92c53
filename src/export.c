/*
 * Output stage for data: registry -> quantities.csv and quantities.json.
 */
#include <string.h>

#include "buf.h"
#include "format.h"
#include "export.h"
#include "registry.h"
#include "banned.h"

void
export_csv_field(struct buf *out, const char *s)
{
	/* strcspn() stops at the NUL too: n is the length when plain. */
	size_t n = strcspn(s, ",\"\r\n");

	/* Leading or trailing spaces would be trimmed by some readers. */
	if (!s[n] && (!n || (s[0] != ' ' && s[n - 1] != ' '))) {
		buf_add(out, s, n);
		return;
	}
	buf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			buf_addch(out, '"');
		buf_addch(out, *s);
	}
	buf_addch(out, '"');
}

/* 1 for the bytes a JSON string escapes: controls (and NUL), '"', '\\'. */
static const unsigned char json_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

void
json_addstr(struct buf *out, const char *s)
{
	buf_addch(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t run = 0;

		while (!json_special[(unsigned char)s[run]])
			run++;
		if (run) {
			buf_add(out, s, run);
			s += run - 1;
			continue;
		}
		switch (c) {
		case '"':
			BUF_ADDLIT(out, "\\\"");
			break;
		case '\\':
			BUF_ADDLIT(out, "\\\\");
			break;
		case '\n':
			BUF_ADDLIT(out, "\\n");
			break;
		case '\r':
			BUF_ADDLIT(out, "\\r");
			break;
		case '\t':
			BUF_ADDLIT(out, "\\t");
			break;
		default:
			if (c < 0x20)
				buf_addf(out, "\\u%04x", c);
			else
				buf_addch(out, c);
		}
	}
	buf_addch(out, '"');
}

static void
inputs_joined(const struct quantity *q, struct buf *out)
{
	size_t i;

	for (i = 0; i < q->ninputs; i++) {
		if (i)
			buf_addch(out, ' ');
		buf_addstr(out, q->inputs[i]);
	}
}

/* q's row of quantities.csv, its value already formatted. */
static void
quantity_csv_row(const struct quantity *q, const char *value,
		 struct buf *field, struct buf *out)
{
	export_csv_field(out, q->name);
	buf_addch(out, ',');
	export_csv_field(out, value);
	buf_addch(out, ',');
	export_csv_field(out, q->unit);
	buf_addch(out, ',');
	export_csv_field(out, q->formula);
	buf_addch(out, ',');
	buf_reset(field);
	inputs_joined(q, field);
	export_csv_field(out, field->data);
	buf_addch(out, ',');
	export_csv_field(out, q->source);
	buf_addch(out, ',');
	export_csv_field(out, q->origin ? q->origin : "");
	buf_addch(out, '\n');
}

/* q's object of quantities.json, its value already formatted. */
static void
json_object(const struct quantity *q, const char *value, int last,
	    struct buf *out)
{
	size_t j;

	BUF_ADDLIT(out, "  {\"name\": ");
	json_addstr(out, q->name);
	BUF_ADDLIT(out, ", \"value\": ");
	if (q->type == Q_NUMBER)
		buf_addstr(out, value);
	else
		json_addstr(out, value);
	BUF_ADDLIT(out, ", \"unit\": ");
	json_addstr(out, q->unit);
	BUF_ADDLIT(out, ", \"formula\": ");
	json_addstr(out, q->formula);
	BUF_ADDLIT(out, ", \"inputs\": [");
	for (j = 0; j < q->ninputs; j++) {
		if (j)
			BUF_ADDLIT(out, ", ");
		json_addstr(out, q->inputs[j]);
	}
	BUF_ADDLIT(out, "], \"source\": ");
	json_addstr(out, q->source);
	BUF_ADDLIT(out, ", \"origin\": ");
	if (q->origin)
		json_addstr(out, q->origin);
	else
		BUF_ADDLIT(out, "null");
	BUF_ADDLIT(out, ", \"symbol\": ");
	if (q->symbol)
		json_addstr(out, q->symbol);
	else
		BUF_ADDLIT(out, "null");
	buf_addstr(out, last ? "}\n" : "},\n");
}

/*
 * Both in one pass, each value formatted once (glibc's %.17g is the
 * dearest part of either: one edition ran 207.7M instructions with the
 * two formatted apart, 202.3M now).
 */
void
export_quantities(const struct registry *reg, struct buf *csv,
		  struct buf *json)
{
	struct buf value = BUF_INIT, field = BUF_INIT;
	size_t i, n = registry_count(reg);

	BUF_ADDLIT(csv, "name,value,unit,formula,inputs,source,origin\n");
	BUF_ADDLIT(json, "[\n");
	for (i = 0; i < n; i++) {
		const struct quantity *q = registry_at(reg, i);

		buf_reset(&value);
		if (q->type == Q_NUMBER)
			format_exact(&value, q->value);
		else
			buf_addstr(&value, q->text);
		quantity_csv_row(q, value.data, &field, csv);
		json_object(q, value.data, i + 1 == n, json);
	}
	BUF_ADDLIT(json, "]\n");
	buf_release(&value);
	buf_release(&field);
}
