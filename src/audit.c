/*
 * The claims audit: claims.csv (through table.c) and the registry ->
 * a table of published against recomputed values with verdicts.
 */
#include <errno.h>
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

/* Why a claim has the tolerance it has (audit.h). */
enum reason { R_DIGITS, R_ORDER, R_RANGE, R_CONSTANTS, R_ABOUT };
static const char *const reasons[] = {
	"digits", "order", "range", "constants", "about",
};

/* What kind of discrepancy a claim is (audit.h). */
static const char *const categories[] = {
	"error", "rounding", "convention", "data-moved",
};

double
audit_half_unit(const char *s)
{
	const char *e = strpbrk(s, "eE"), *dot = strchr(s, '.');
	size_t mlen = e ? (size_t)(e - s) : strlen(s);
	int exp10 = e ? atoi(e + 1) : 0, pos = 0;

	if (dot && dot < s + mlen)
		pos = -(int)(s + mlen - dot - 1);
	return 0.5 * pow(10, exp10 + pos);
}

/* A decimal number filling [s, end): no "inf", "nan" or hex. */
static int
decimal(const char *s, const char *end, double *out)
{
	char tmp[64], *stop;
	size_t n = (size_t)(end - s);

	if (!n || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (!strchr(".0123456789", tmp[*tmp == '+' || *tmp == '-']) ||
	    strpbrk(tmp, "xX"))
		return -1;
	errno = 0;
	*out = strtod(tmp, &stop);
	if (*stop || stop == tmp || errno == ERANGE || !isfinite(*out))
		return -1;
	return 0;
}

int
audit_parse_range(const char *s, double *lo, double *hi)
{
	const char *dots = strstr(s, "..");

	if (!dots)
		return 1;
	if (decimal(s, dots, lo) || decimal(dots + 2, dots + strlen(dots),
					    hi) || !(*lo < *hi))
		return -1;
	return 0;
}

int
audit_range_verdict(double got, double lo, double hi)
{
	return got < lo ? -1 : got > hi ? 1 : 0;
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

/* Index of word in list[n], or -1. */
static int
lookup(const char *const *list, int n, const char *word, size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(list[i], word, len))
			return i;
	return -1;
}

/* "a, b or c" of a list, for messages. */
static const char *
listed(const char *const *list, int n, struct buf *b)
{
	int i;

	buf_reset(b);
	for (i = 0; i < n; i++)
		buf_addf(b, "%s'%s'", i == 0 ? "" : i == n - 1 ? " or " : ", ",
			 list[i]);
	return b->data;
}

/*
 * The columns of claims.csv the audit reads, found by name in the
 * catalogue (schema.c); -1: an optional column the file leaves out.
 */
struct claimcols {
	int id, published, quantity, tolerance, status, explanation;
	int printed_in, claim, reason, category;
};

/* One claim row, checked and read. */
struct claim {
	const char *id, *qname, *where, *pub_s, *tol_s, *expl;
	const char *why;	/* the reason's words after the colon, or "" */
	enum reason reason;
	int discrepancy;
	int category;		/* index into categories[], or -1 */
	int range;
	double pub, lo, hi, tol;
	const struct quantity *q;
};

/*
 * Reads and checks row r of claims.csv into c. Returns -1 after printing
 * errors (at the cell).
 */
static int
claim_read(struct table *t, size_t r, const struct claimcols *ci,
	   const struct registry *reg, struct claim *c, struct buf *hint)
{
	const char *status, *rs, *cat, *colon;
	size_t klen;
	int k, bad = 0;

	memset(c, 0, sizeof(*c));
	if (table_id(t, r, ci->id, &c->id) |
	    table_text(t, r, ci->quantity, &c->qname) |
	    table_text(t, r, ci->status, &status) |
	    table_text(t, r, ci->printed_in, &c->where) |
	    table_text(t, r, ci->reason, &rs))
		return -1;
	if (table_unique(t, r, ci->id))
		return -1;
	c->pub_s = table_cell(t, r, ci->published);
	k = audit_parse_range(c->pub_s, &c->lo, &c->hi);
	if (k < 0)
		return table_error(t, r, ci->published,
				   "expected a range 'LO..HI' "
				   "of two numbers, LO below HI, got '%s'",
				   c->pub_s);
	c->range = k == 0;
	if (!c->range && table_num(t, r, ci->published, 0, &c->pub))
		return -1;
	c->q = registry_get(reg, c->qname);
	if (!c->q)
		return table_error(t, r, ci->quantity,
				   "unknown quantity '%s'%s",
				   c->qname, suggest(reg, c->qname, hint));
	if (c->q->type != Q_NUMBER)
		return table_error(t, r, ci->quantity,
				   "quantity '%s' is text, not a "
				   "number", c->qname);
	c->discrepancy = !strcmp(status, "discrepancy");
	if (!c->discrepancy && strcmp(status, "reproducible"))
		return table_error(t, r, ci->status,
				   "expected 'reproducible' or "
				   "'discrepancy', got '%s'", status);
	/* The reason: a keyword, then (after a colon) the words why. */
	colon = strchr(rs, ':');
	klen = colon ? (size_t)(colon - rs) : strlen(rs);
	while (klen && rs[klen - 1] == ' ')
		klen--;
	k = lookup(reasons, (int)(sizeof(reasons) / sizeof(*reasons)), rs,
		   klen);
	if (k < 0)
		return table_error(t, r, ci->reason, "unknown tolerance reason "
				   "'%.*s': expected %s", (int)klen, rs,
				   listed(reasons, (int)(sizeof(reasons) /
					  sizeof(*reasons)), hint));
	c->reason = (enum reason)k;
	c->why = colon ? colon + 1 + strspn(colon + 1, " ") : "";
	c->tol_s = table_cell(t, r, ci->tolerance);
	if (c->reason == R_CONSTANTS || c->reason == R_ABOUT) {
		if (table_num(t, r, ci->tolerance, TABLE_POSITIVE, &c->tol))
			bad = -1;
		else if (!*c->why)
			bad = table_error(t, r, ci->reason,
					  "reason '%s' needs the "
					  "words why after a colon: how much, "
					  "and why", reasons[k]);
	} else if (*c->tol_s) {
		bad = table_error(t, r, ci->tolerance,
				  "a tolerance for the reason "
				  "'%s' is computed, not given: leave the "
				  "cell empty", reasons[k]);
	}
	if (c->range != (c->reason == R_RANGE))
		bad = table_error(t, r, ci->published, c->range ?
				  "a published range needs the tolerance "
				  "reason 'range'" : "the reason 'range' needs "
				  "a published range 'LO..HI'");
	cat = table_cell(t, r, ci->category);
	c->category = -1;
	if (c->discrepancy) {
		c->category = lookup(categories, (int)(sizeof(categories) /
				     sizeof(*categories)), cat, strlen(cat));
		if (c->category < 0)
			bad = table_error(t, r, ci->category,
					  "a discrepancy needs a "
					  "category, %s; got '%s'",
					  listed(categories,
						 (int)(sizeof(categories) /
						       sizeof(*categories)),
						 hint), cat);
	} else if (*cat) {
		bad = table_error(t, r, ci->category,
				  "a reproducible claim has no "
				  "category, got '%s'", cat);
	}
	c->expl = table_cell(t, r, ci->explanation);
	if (c->discrepancy && !*c->expl)
		bad = table_error(t, r, ci->explanation,
				  "a discrepancy needs an "
				  "explanation");
	return bad;
}

/*
 * Judges c against got: 1 when it agrees within its tolerance. Sets
 * c->pub for a range (the end nearest got, which the ratio is taken
 * to) and writes the tolerance in words into tol.
 */
static int
claim_judge(struct claim *c, double got, struct buf *tol)
{
	double err, lim;

	buf_reset(tol);
	switch (c->reason) {
	case R_RANGE:
		c->pub = got < c->lo ? c->lo : got > c->hi ? c->hi :
			got / c->lo < c->hi / got ? c->lo : c->hi;
		BUF_ADDLIT(tol, "the printed range");
		return audit_range_verdict(got, c->lo, c->hi) == 0;
	case R_ORDER:
		BUF_ADDLIT(tol, "half an order of magnitude");
		return c->pub > 0 && got / c->pub > 0 &&
			fabs(log10(got / c->pub)) <= 0.5;
	case R_DIGITS:
		lim = audit_half_unit(c->pub_s);
		buf_addf(tol, "\xc2\xb1%g", lim);
		break;
	default:
		lim = c->tol * fabs(c->pub);
		buf_addf(tol, "\xc2\xb1%g relative (%s)", c->tol,
			 reasons[c->reason]);
		break;
	}
	/* A value on the very edge is in: printed 0.5 is not 0.49999... */
	err = fabs(got - c->pub);
	return c->pub != 0 && got / c->pub > 0 &&
		err <= lim * (1 + 1e-12);
}

int
audit_run(const char *datadir, struct registry *reg, struct buf *out,
	  struct tableset *ts)
{
	struct tableset own = { 0 };
	struct buf hint = BUF_INIT, tol = BUF_INIT, verdict = BUF_INIT;
	struct buf name = BUF_INIT, org = BUF_INIT, in = BUF_INIT;
	struct table *t;
	struct claimcols cc;
	int bycat[sizeof(categories) / sizeof(categories[0])] = { 0 };
	size_t r, i, before = diag_errors();
	int bad = 0, agree = 0, known = 0;

	t = tableset_load(ts ? ts : &own, datadir, "claims.csv");
	if (!t || table_max_rows(t, 10000, "each claim is a row of the "
				 "report's audit"))
		goto out;
	/* By name, from the catalogue: the header was checked. */
	cc.id = table_col(t, "id");
	cc.published = table_col(t, "published");
	cc.quantity = table_col(t, "quantity");
	cc.tolerance = table_col(t, "tolerance");
	cc.status = table_col(t, "status");
	cc.explanation = table_col(t, "explanation");
	cc.printed_in = table_col(t, "printed_in");
	cc.claim = table_col(t, "claim");
	cc.reason = table_col(t, "tolerance_reason");
	cc.category = table_col(t, "category");
	buf_addf(out, "%-18s %-11s %-12s %-8s %s\n", "claim", "published",
		 "recomputed", "ratio", "verdict");
	for (r = 0; r < table_rows(t); r++) {
		struct claim c;
		const struct quantity *q;
		struct quantity *rq;
		const char *cat;
		double got;
		int ok;

		if (claim_read(t, r, &cc, reg, &c, &hint))
			continue;
		q = c.q;
		got = q->value;
		ok = claim_judge(&c, got, &tol);
		cat = c.category >= 0 ? categories[c.category] : "";
		buf_addf(out, "%-18s %-11s %-12.6g %-8.4g ", c.id, c.pub_s, got,
			 got / c.pub);
		buf_reset(&verdict);
		if (ok && !c.discrepancy) {
			agree++;
			if (c.range)
				buf_addf(out, "inside the printed range\n");
			else
				buf_addf(out, "agrees (within %s%s)\n",
					 tol.data, c.reason == R_DIGITS ?
					 ", half a unit of the last printed "
					 "digit" : "");
			buf_addstr(&verdict, c.range ?
				   "inside the printed range" : "agrees");
		} else if (!ok && c.discrepancy) {
			known++;
			bycat[c.category]++;
			buf_addf(out, "%s [%s]: %s\n", c.range ?
				 "outside the printed range, a known "
				 "discrepancy" : "known discrepancy", cat,
				 c.expl);
			buf_addstr(&verdict, c.range ?
				   "outside the printed range" :
				   "known discrepancy");
		} else if (ok) {
			bad++;
			buf_addf(out, "AGREES (within %s), but marked as a "
				 "discrepancy: review %s:%zu\n", tol.data,
				 table_name(t), table_line(t, r));
			BUF_ADDLIT(&verdict, "agrees, though marked a "
				   "discrepancy");
		} else {
			bad++;
			buf_addf(out, "DRIFTS outside its tolerance (%s): %s = "
				 "%.6g (%s)\n", tol.data, c.qname, got,
				 q->formula);
			BUF_ADDLIT(&verdict, "drifts");
		}
		/* The audit joins the registry, for the report's table. */
		buf_reset(&org);
		buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
		buf_reset(&name);
		buf_addf(&name, "claim.%s.id", c.id);
		registry_add_text(reg, name.data, c.id, "from claims.csv", NULL,
				  "data/claims.csv", org.data);
		claim_text(reg, c.id, "claim", table_cell(t, r, cc.claim),
			   org.data);
		claim_text(reg, c.id, "where", c.where, org.data);
		claim_text(reg, c.id, "quantity", c.qname, org.data);
		claim_text(reg, c.id, "verdict", verdict.data, org.data);
		claim_text(reg, c.id, "category", cat, org.data);
		claim_text(reg, c.id, "tolerance", tol.data, org.data);
		claim_text(reg, c.id, "tolerance_reason",
			   table_cell(t, r, cc.reason), org.data);
		claim_text(reg, c.id, "explanation", c.expl, org.data);
		claim_text(reg, c.id, "printed", c.pub_s, org.data);
		if (c.range) {
			buf_reset(&name);
			buf_addf(&name, "claim.%s.published_low", c.id);
			registry_add_num(reg, name.data, c.lo, q->unit,
					 "the low end of the printed range",
					 NULL, c.where, org.data);
			buf_reset(&name);
			buf_addf(&name, "claim.%s.published_high", c.id);
			registry_add_num(reg, name.data, c.hi, q->unit,
					 "the high end of the printed range",
					 NULL, c.where, org.data);
		}
		buf_reset(&name);
		buf_addf(&name, "claim.%s.published", c.id);
		registry_add_num(reg, name.data, c.pub, q->unit, c.range ?
				 "the end of the printed range nearest the "
				 "recomputed value" : "the value as printed",
				 NULL, c.where, org.data);
		buf_reset(&name);
		buf_addf(&name, "claim.%s.recomputed", c.id);
		if ((rq = registry_add_num(reg, name.data, got, q->unit,
					   NULL, c.qname, q->source, NULL)))
			registry_set_expr(rq, c.qname,
					  "as the model computes it");
		buf_reset(&name);
		buf_addf(&name, "claim.%s.ratio", c.id);
		buf_reset(&in);
		buf_addf(&in, "claim.%s.recomputed claim.%s.published", c.id,
			 c.id);
		rq = registry_add_num(reg, name.data, got / c.pub, "", NULL,
				      in.data, "derived here", NULL);
		buf_reset(&in);
		buf_addf(&in, "claim.%s.recomputed / claim.%s.published", c.id,
			 c.id);
		if (rq)
			registry_set_expr(rq, in.data, NULL);
	}
	if (diag_errors() == before) {
		buf_addf(out, "claims: %d agree, %d known discrepancies (",
			 agree, known);
		for (i = 0; i < sizeof(categories) / sizeof(*categories); i++)
			buf_addf(out, "%s%d %s", i ? ", " : "", bycat[i],
				 categories[i]);
		buf_addf(out, "), %d off\n", bad);
		registry_add_num(reg, "claims.agree", agree, "",
				 "claims that agree within their tolerance",
				 NULL, "derived here", NULL);
		registry_add_num(reg, "claims.known", known, "",
				 "known discrepancies, each explained", NULL,
				 "derived here", NULL);
		registry_add_num(reg, "claims.off", bad, "",
				 "claims that do not behave as marked", NULL,
				 "derived here", NULL);
		for (i = 0; i < sizeof(categories) / sizeof(*categories); i++) {
			buf_reset(&name);
			buf_addf(&name, "claims.%s", categories[i]);
			/* "data-moved" is no name: claims.data_moved. */
			for (char *p = name.data; *p; p++)
				if (*p == '-')
					*p = '_';
			buf_reset(&in);
			buf_addf(&in, "known discrepancies of the category "
				 "'%s'", categories[i]);
			registry_add_num(reg, name.data, bycat[i], "", in.data,
					 NULL, "derived here", NULL);
		}
	}
out:
	tableset_release(&own);
	buf_release(&hint);
	buf_release(&tol);
	buf_release(&verdict);
	buf_release(&name);
	buf_release(&org);
	buf_release(&in);
	return diag_errors() == before ? bad : -1;
}
