/*
 * The claims audit: claims.csv (through table.c) and the registry ->
 * a table of published against recomputed values with verdicts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "buf.h"
#include "diag.h"
#include "registry.h"
#include "table.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Half a unit of the last digit of a number as printed: "2.13e31" ->
 * 0.005e31, "39" -> 0.5, "30" -> 0.5 (a whole number is taken as exact to
 * its units; a claim printed as "about" says so with its own tolerance).
 */
static double
printed_half_unit(const char *s)
{
	const char *e = strpbrk(s, "eE"), *dot = strchr(s, '.');
	size_t mlen = e ? (size_t)(e - s) : strlen(s);
	int exp10 = e ? atoi(e + 1) : 0, pos = 0;

	if (dot && dot < s + mlen)
		pos = -(int)(s + mlen - dot - 1);
	return 0.5 * pow(10, exp10 + pos);
}

static const char *
suggest(const struct registry *reg, const char *name, struct buf *b)
{
	const char *near[1];

	buf_reset(b);
	if (!diag_full() && registry_suggest(reg, name, near, 1))
		buf_addf(b, "; did you mean '%s'?", near[0]);
	return b->data;
}

/* Registers claim.<id>.<field> as text. */
static void
claim_text(struct registry *reg, const char *id, const char *field,
	   const char *text, const char *origin)
{
	struct buf name = BUF_INIT;

	buf_addf(&name, "claim.%s.%s", id, field);
	registry_add_text(reg, name.data, text, "from claims.csv", NULL,
			  "data/claims.csv", origin);
	buf_release(&name);
}

int
audit_run(const char *datadir, struct registry *reg, struct buf *out,
	  struct tableset *ts)
{
	struct tableset own = { 0 };
	static const char *const cols[] = { "id", "published", "quantity",
		"tolerance", "status", "explanation", "printed_in", "claim" };
	struct buf hint = BUF_INIT;
	struct buf name = BUF_INIT, org = BUF_INIT, in = BUF_INIT;
	struct table *t;
	int ci[sizeof(cols) / sizeof(cols[0])];
	size_t r, i, before = diag_errors();
	int bad = 0, agree = 0, known = 0;

	t = tableset_load(ts ? ts : &own, datadir, "claims.csv");
	if (!t || table_max_rows(t, 10000, "each claim is a row of the "
				 "report's audit"))
		goto out;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if ((ci[i] = table_require(t, cols[i])) < 0)
			goto out;
	buf_addf(out, "%-18s %-11s %-12s %-8s %s\n", "claim", "published",
		 "recomputed", "ratio", "verdict");
	for (r = 0; r < table_rows(t); r++) {
		const char *id, *qname, *status, *tol_s, *expl, *where;
		const struct quantity *q;
		struct quantity *rq;
		double pub, tol, got, err;
		int order = 0, ok, discrepancy;

		if (table_id(t, r, ci[0], &id) |
		    table_num(t, r, ci[1], 0, &pub) |
		    table_text(t, r, ci[2], &qname) |
		    table_text(t, r, ci[4], &status) |
		    table_text(t, r, ci[6], &where))
			continue;
		if (table_unique(t, r, ci[0]))
			continue;
		q = registry_get(reg, qname);
		if (!q) {
			table_error(t, r, ci[2], "unknown quantity '%s'%s",
				    qname, suggest(reg, qname, &hint));
			continue;
		}
		if (q->type != Q_NUMBER) {
			table_error(t, r, ci[2], "quantity '%s' is text, not a "
				    "number", qname);
			continue;
		}
		discrepancy = !strcmp(status, "discrepancy");
		if (!discrepancy && strcmp(status, "reproducible")) {
			table_error(t, r, ci[4], "expected 'reproducible' or "
				    "'discrepancy', got '%s'", status);
			continue;
		}
		expl = table_cell(t, r, ci[5]);
		if (discrepancy && !*expl) {
			table_error(t, r, ci[5], "a discrepancy needs an "
				    "explanation");
			continue;
		}
		tol_s = table_cell(t, r, ci[3]);
		if (!strcmp(tol_s, "order")) {
			order = 1;
			tol = 0.5;
		} else if (*tol_s) {
			if (table_num(t, r, ci[3], TABLE_POSITIVE, &tol))
				continue;
			tol *= fabs(pub);
		} else {
			tol = printed_half_unit(table_cell(t, r, ci[1]));
		}
		got = q->value;
		err = order ? fabs(log10(got / pub)) : fabs(got - pub);
		ok = pub != 0 && got / pub > 0 && err <= tol;
		buf_addf(out, "%-18s %-11s %-12.6g %-8.4g ", id,
			 table_cell(t, r, ci[1]), got, got / pub);
		buf_reset(&hint);
		if (ok && !discrepancy) {
			agree++;
			buf_addf(&hint, "agrees (within %s)",
				 order ? "half an order of magnitude" :
				 *tol_s ? tol_s : "printed digits");
			buf_addf(out, "%s\n", hint.data);
			buf_reset(&hint);
			BUF_ADDLIT(&hint, "agrees");
		} else if (!ok && discrepancy) {
			known++;
			buf_addf(out, "known discrepancy: %s\n", expl);
			BUF_ADDLIT(&hint, "known discrepancy");
		} else if (ok) {
			bad++;
			buf_addf(out, "AGREES, but marked as a discrepancy: "
				 "review %s:%zu\n", table_name(t),
				 table_line(t, r));
			BUF_ADDLIT(&hint, "agrees, though marked a discrepancy");
		} else {
			bad++;
			buf_addf(out, "DRIFTS outside its tolerance: %s = "
				 "%.6g (%s)\n", qname, got, q->formula);
			BUF_ADDLIT(&hint, "drifts");
		}
		/* The audit joins the registry, for the report's table. */
		buf_reset(&org);
		buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
		buf_reset(&name);
		buf_addf(&name, "claim.%s.id", id);
		registry_add_text(reg, name.data, id, "from claims.csv", NULL,
				  "data/claims.csv", org.data);
		claim_text(reg, id, "claim", table_cell(t, r, ci[7]), org.data);
		claim_text(reg, id, "where", where, org.data);
		claim_text(reg, id, "quantity", qname, org.data);
		claim_text(reg, id, "verdict", hint.data, org.data);
		claim_text(reg, id, "explanation", expl, org.data);
		claim_text(reg, id, "printed", table_cell(t, r, ci[1]),
			   org.data);
		buf_reset(&name);
		buf_addf(&name, "claim.%s.published", id);
		registry_add_num(reg, name.data, pub, q->unit,
				 "the value as printed", NULL,
				 table_cell(t, r, ci[6]), org.data);
		buf_reset(&name);
		buf_addf(&name, "claim.%s.recomputed", id);
		if ((rq = registry_add_num(reg, name.data, got, q->unit,
					   NULL, qname, q->source, NULL)))
			registry_set_expr(rq, qname, "as the model computes it");
		buf_reset(&name);
		buf_addf(&name, "claim.%s.ratio", id);
		buf_reset(&in);
		buf_addf(&in, "claim.%s.recomputed claim.%s.published", id, id);
		rq = registry_add_num(reg, name.data, got / pub, "", NULL,
				      in.data, "derived here", NULL);
		buf_reset(&in);
		buf_addf(&in, "claim.%s.recomputed / claim.%s.published", id,
			 id);
		if (rq)
			registry_set_expr(rq, in.data, NULL);
	}
	if (diag_errors() == before) {
		buf_addf(out, "claims: %d agree, %d known discrepancies, %d "
			 "off\n", agree, known, bad);
		registry_add_num(reg, "claims.agree", agree, "",
				 "claims that agree within their tolerance",
				 NULL, "derived here", NULL);
		registry_add_num(reg, "claims.known", known, "",
				 "known discrepancies, each explained", NULL,
				 "derived here", NULL);
		registry_add_num(reg, "claims.off", bad, "",
				 "claims that do not behave as marked", NULL,
				 "derived here", NULL);
	}
out:
	tableset_release(&own);
	buf_release(&hint);
	buf_release(&name);
	buf_release(&org);
	buf_release(&in);
	return diag_errors() == before ? bad : -1;
}
