#ifndef EXPORT_H
#define EXPORT_H

struct buf;
struct registry;

/*
 * Machine-readable copies of the registry for out/: every quantity with
 * name, value (numbers with %.17g, so they read back to the same double),
 * unit, formula, inputs, source and origin, in registry order.
 */
/* RFC 4180 CSV with a header line, appended to out. */
void export_csv(const struct registry *reg, struct buf *out);
/* A JSON array of objects, appended to out. */
void export_json(const struct registry *reg, struct buf *out);
/* Appends s as a JSON string literal (quoted, escaped). */
void json_addstr(struct buf *out, const char *s);
/* Appends s as one CSV field, quoted when it needs to be. */
void csv_addfield(struct buf *out, const char *s);

#endif
