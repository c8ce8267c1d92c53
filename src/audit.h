#ifndef AUDIT_H
#define AUDIT_H

struct buf;
struct registry;
struct tableset;

/*
 * The claims audit: data/claims.csv lists the figures the article and the
 * paper print, each with the quantity that recomputes it and a tolerance
 * (empty: half a unit of the last printed digit; a number: relative;
 * "order": within half an order of magnitude). A claim marked
 * "reproducible" must agree; one marked "discrepancy" must disagree and
 * explain why.
 *
 * Reads datadir/claims.csv, checks every row against the registry,
 * appends the audit table (plain text) to out, and adds the results to
 * the registry as claim.<id>.{id,claim,where,quantity,printed,published,
 * recomputed,ratio,verdict,explanation} and claims.{agree,known,off}.
 * claims.csv is read through ts (kept there) when ts is not NULL.
 * Returns the number of claims that do not behave as marked (0 when the
 * audit passes), or -1 after printing errors in claims.csv.
 */
int audit_run(const char *datadir, struct registry *reg, struct buf *out,
	      struct tableset *ts);

#endif
