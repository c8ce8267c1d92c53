#ifndef AUDIT_H
#define AUDIT_H

struct buf;
struct registry;

/*
 * The claims audit: data/claims.csv lists the figures the article and the
 * paper print, each with the quantity that recomputes it and a tolerance
 * (empty: half a unit of the last printed digit; a number: relative;
 * "order": within half an order of magnitude). A claim marked
 * "reproducible" must agree; one marked "discrepancy" must disagree and
 * explain why.
 *
 * Reads datadir/claims.csv, checks every row against the registry, and
 * appends the audit table to out. Returns the number of claims that do
 * not behave as marked (0 when the audit passes), or -1 after printing
 * errors in claims.csv.
 */
int audit_run(const char *datadir, const struct registry *reg,
	      struct buf *out);

#endif
