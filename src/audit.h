#ifndef AUDIT_H
#define AUDIT_H

struct buf;
struct registry;
struct tableset;

/*
 * The claims audit: data/claims.csv lists the figures the article and the
 * paper print, each with the quantity that recomputes it, a tolerance and
 * the reason for it (tolerance_reason), which the tool turns into the
 * tolerance itself wherever it can, so that no tolerance is typed to make
 * a claim pass:
 *
 *   digits     half a unit of the last printed digit ("2.13e31": 0.005e31;
 *              "125": 0.5), computed from the published cell; the
 *              tolerance cell stays empty
 *   order      a power of ten ("10^31 bits"): within half an order of
 *              magnitude; the tolerance cell stays empty
 *   range      the published cell is a range "LO..HI" ("50..100"): the
 *              recomputed value must lie inside it; no tolerance cell
 *   constants  the source computed with rounded constants: the tolerance
 *              cell gives the relative tolerance, and the reason, after a
 *              colon, how it follows from the rounding
 *   about      the source's own "about": the tolerance cell gives the
 *              relative tolerance, and the reason, after a colon, how
 *              much "about" is taken to mean and why
 *
 * A claim marked "reproducible" must be recomputed from something the
 * source did not print, and agree: its quantity must rest, itself or
 * through its inputs, on a constant (const.*) or a data file other than
 * assumptions.csv (devices, the history series), else the row is an
 * error that says to mark it "input";
 * one marked "input" is the source's own figure that the model takes
 * as an assumption (or computes from such figures alone): it must come
 * out as printed, is shown as an input and is not counted as agreeing,
 * and needs an explanation. One marked "discrepancy" must
 * disagree, say which kind (category: error, an error in the source;
 * rounding, the source rounded; convention, a convention or definition
 * that differs from what the data measure; data-moved, a trend that
 * changed since) and explain why.
 *
 * An explanation may quote computed numbers with the value slots of the
 * template language (docs/templates.md): "{{ NAME }}", "{{ NAME |
 * FORMAT }}", any expression and format a slot takes, but no blocks and
 * no citations; expanded as plain text by the template stage
 * (template_expand_text()), each error (an unknown name or format) at
 * its place in the cell. The names it quotes are the inputs of
 * claim.<id>.explanation. The claim's own numbers are there to quote
 * (claim.<id>.ratio).
 *
 * Reads datadir/claims.csv, checks every row against the registry,
 * appends the audit table (plain text) to out, and adds the results to
 * the registry as claim.<id>.{id,claim,where,quantity,printed,published,
 * recomputed,ratio,verdict,status,category,tolerance,explanation,
 * printed_text,recomputed_text} (and published_low, published_high for a
 * range) and claims.{agree,input,known,off,error,rounding,convention,
 * data_moved}. category is "input" for an input; printed_text and
 * recomputed_text are the figures as a reader reads them
 * (audit_printed_text(), audit_recomputed_text()). The claims are the
 * data catalogue's file of kind claims (none: no audit, nothing added),
 * read through ts (kept there) when ts is not NULL. Returns the number
 * of claims that do not behave as marked (0 when the audit passes), or
 * -1 after printing errors in the claims.
 */
int audit_run(const char *datadir, struct registry *reg, struct buf *out,
	      struct tableset *ts);

/*
 * Half a unit of the last digit of a decimal number as printed:
 * "2.13e31" -> 0.005e31, "39" -> 0.5, "1.5" -> 0.05, "1e-15" -> 0.5e-15.
 * A whole number is taken as exact to its units ("600" -> 0.5).
 */
double audit_half_unit(const char *printed);

/*
 * A published range "LO..HI" of two decimal numbers, LO < HI. Returns 0
 * and sets *lo and *hi; 1 when s is no range (holds no ".."); -1 when it
 * is a malformed one.
 */
int audit_parse_range(const char *s, double *lo, double *hi);

/* Where got lies against [lo, hi]: -1 below, 0 inside (ends included), 1 above. */
int audit_range_verdict(double got, double lo, double hi);

/*
 * The printed figure as a reader reads it, with unit (its unit, or
 * the claim's own word for a pure number: "orders"; "" for none):
 * "2.13e31" -> "2.13 × 10³¹ bit", "1e51" -> "10⁵¹", "125" -> "125 yr",
 * "50..100" -> "50 to 100 yr". Appends to out.
 */
void audit_printed_text(struct buf *out, const char *printed,
			const char *unit);
/*
 * A recomputed value got in the terms of its printed figure, a digit
 * finer, with unit as above: 38.73 to "39" (orders) -> "38.7 orders",
 * 118.92 to "125" -> "118.9 yr", to "2.13e31" -> "2.133 × 10³¹ bit",
 * to a range "50..100" -> "119.2 yr"; with unit "year" a calendar year.
 * Appends to out.
 */
void audit_recomputed_text(struct buf *out, double got, const char *printed,
			   const char *unit);

#endif
