#ifndef EXPORT_H
#define EXPORT_H

struct buf;
struct registry;

/*
 * Machine-readable copies of the registry for out/: every quantity with
 * name, value (numbers with %.17g, so they read back to the same double),
 * unit, formula, inputs, source and origin, in registry order.
 */
/*
 * RFC 4180 CSV with a header line, appended to csv, and a JSON array of
 * objects, appended to json.
 */
void export_quantities(const struct registry *reg, struct buf *csv,
		       struct buf *json);
/* Appends s as a JSON string literal (quoted, escaped). */
void json_addstr(struct buf *out, const char *s);
/*
 * Appends s to out as one CSV field (RFC 4180): as it is, or in double
 * quotes, each quote doubled, when it holds a comma, a quote, a CR or an
 * LF, or begins or ends with a space (which some readers trim). For
 * every CSV that ultimate writes.
 */
void export_csv_field(struct buf *out, const char *s);

#endif
