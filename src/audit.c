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
#include "schema.h"
#include "buf.h"
#include "diag.h"
#include "format.h"
#include "registry.h"
#include "table.h"
#include "template.h"
#include "xalloc.h"
#include "banned.h"

/* Why a claim has the tolerance it has (audit.h). */
enum reason { R_DIGITS, R_ORDER, R_RANGE, R_CONSTANTS, R_ABOUT };
static const char *const reasons[] = {
	"digits", "order", "range", "constants", "about",
};

/* What a claim is marked (audit.h). */
enum status { S_REPRODUCIBLE, S_DISCREPANCY, S_INPUT };
static const char *const statuses[] = {
	"reproducible", "discrepancy", "input",
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

/*
 * Registers claim.<id>.<field> as text; inputs (space-separated names, or
 * NULL) are the quantities whose numbers it quotes, so that a change of
 * the text has its cause.
 */
static void
claim_text_of(struct registry *reg, const char *id, const char *field,
	      const char *text, const char *inputs, const char *origin)
{
	struct buf name = BUF_INIT, file = BUF_INIT, what = BUF_INIT;

	/* origin is "DIR/FILE.csv:LINE": the claims file's row. */
	buf_add(&file, origin, strcspn(origin, ":"));
	buf_addf(&what, "from %s", strrchr(file.data, '/') ?
		 strrchr(file.data, '/') + 1 : file.data);
	if (inputs && *inputs)
		BUF_ADDLIT(&what, ", with the numbers of its inputs");
	buf_addf(&name, "claim.%s.%s", id, field);
	registry_add_text(reg, name.data, text, what.data, inputs && *inputs ?
			  inputs : NULL, file.data, origin);
	buf_release(&name);
	buf_release(&file);
	buf_release(&what);
}

static void
claim_text(struct registry *reg, const char *id, const char *field,
	   const char *text, const char *origin)
{
	claim_text_of(reg, id, field, text, NULL, origin);
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
 * 1 when s names a data file other than values (the catalogue's file of
 * values, the sources' own figures; NULL: none): "DIR/FILE.csv",
 * optionally followed by ":LINE" (an origin), without a space (a source
 * that is a file, not words).
 */
static int
data_file(const char *s, const char *values)
{
	const char *csv, *base;

	if (!s || strchr(s, ' '))
		return 0;
	csv = strstr(s, ".csv");
	if (!csv || (csv[4] && csv[4] != ':'))
		return 0;
	for (base = csv; base > s && base[-1] != '/'; base--)
		;
	return !values || strlen(values) != (size_t)(csv + 4 - base) ||
	       strncmp(base, values, (size_t)(csv + 4 - base));
}

/*
 * 1 when q rests on something a source's printed figures are not: a
 * physical constant (const.*), or a row or fit of a data file other
 * than values, the file of values (devices, the history series), itself
 * or through its inputs; 0 when it rests on the values alone (the
 * article's and the paper's own figures, and definitions such as 8
 * bits a byte). *budget bounds the walk; an exhausted budget answers 1,
 * which accuses nothing.
 */
static int
independent(const struct registry *reg, const struct quantity *q,
	    const char *values, int *budget)
{
	size_t i;

	if (--*budget < 0)
		return 1;
	if (!strncmp(q->name, "const.", 6))
		return 1;
	if (q->origin ? data_file(q->origin, values) :
	    data_file(q->source, values))
		return 1;
	for (i = 0; i < q->ninputs; i++) {
		const struct quantity *in = registry_get(reg, q->inputs[i]);

		if (in && independent(reg, in, values, budget))
			return 1;
	}
	return 0;
}

/*
 * The columns of claims.csv the audit reads, found by name in the
 * catalogue (schema.c); -1: an optional column the file leaves out.
 */
struct claimcols {
	const char *values;	/* the catalogue's file of values, or NULL */
	int id, published, quantity, tolerance, status, explanation;
	int printed_in, claim, reason, category;
	int unit;		/* optional */
};

/* One claim row, checked and read. */
struct claim {
	const char *id, *qname, *where, *pub_s, *tol_s, *expl;
	const char *why;	/* the reason's words after the colon, or "" */
	const char *unit;	/* what the figure counts, for readers: the
				   quantity's unit, or the claim's own
				   ("orders") for a pure number */
	enum reason reason;
	enum status status;
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
	k = lookup(statuses, (int)(sizeof(statuses) / sizeof(*statuses)),
		   status, strlen(status));
	if (k < 0)
		return table_error(t, r, ci->status, "expected %s, got '%s'",
				   listed(statuses, (int)(sizeof(statuses) /
					  sizeof(*statuses)), hint), status);
	c->status = (enum status)k;
	c->discrepancy = c->status == S_DISCREPANCY;
	if (c->status == S_REPRODUCIBLE) {
		int budget = 100000;

		if (!independent(reg, c->q, ci->values, &budget))
			bad = table_error(t, r, ci->status, "'%s' rests on "
					  "%s alone, the "
					  "sources' own figures: nothing "
					  "independent of the printed one "
					  "recomputes it; mark it 'input', or "
					  "recompute it from a constant or "
					  "data", c->qname, ci->values ?
					  ci->values : "the values");
	}
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
				  "a%s claim has no category, got '%s'",
				  c->status == S_INPUT ? "n input" :
				  " reproducible", cat);
	}
	c->unit = *c->q->unit || ci->unit < 0 ? c->q->unit :
		table_cell(t, r, ci->unit);
	c->expl = table_cell(t, r, ci->explanation);
	if (c->discrepancy && !*c->expl)
		bad = table_error(t, r, ci->explanation,
				  "a discrepancy needs an "
				  "explanation");
	if (c->status == S_INPUT && !*c->expl)
		bad = table_error(t, r, ci->explanation,
				  "an input needs an explanation: "
				  "what the model takes it for, and why "
				  "nothing independent checks it");
	return bad;
}

/*
 * Appends " UNIT" for readers: nothing for a pure number, nor for a
 * calendar year ("2181", not "2181 year").
 */
static void
add_unit(struct buf *out, const char *unit)
{
	if (!*unit || !strcmp(unit, "year"))
		return;
	BUF_ADDLIT(out, FORMAT_NBSP);
	format_unit(out, unit);
}

/* Significant digits of a printed decimal: "2.13e31" 3, "0.92" 2. */
static int
sig_digits(const char *s)
{
	int n = 0, lead = 1;

	for (; *s && *s != 'e' && *s != 'E'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s == '0' && lead)
			continue;
		lead = 0;
		n++;
	}
	return n ? n : 1;
}

/* Decimals of a printed decimal: "118.9" 1, "125" 0. */
static int
decimals(const char *s, const char *end)
{
	const char *dot = memchr(s, '.', (size_t)(end - s));

	return dot ? (int)(end - dot - 1) : 0;
}

/*
 * The printed figure as a reader reads it: "2.13e31" with unit "bit" ->
 * "2.13 × 10³¹ bit", "125" -> "125 yr", "50..100" -> "50 to 100 yr".
 */
void
audit_printed_text(struct buf *out, const char *printed, const char *unit)
{
	const char *dots = strstr(printed, "..");

	if (dots) {
		buf_add(out, printed, (size_t)(dots - printed));
		buf_addf(out, " to %s", dots + 2);
	} else if (!strncmp(printed, "1e", 2) || !strncmp(printed, "1E", 2)) {
		/* A bare power of ten: "1e31" is 10³¹. */
		buf_addstr(out, "10");
		format_superscript(out, atoi(printed + 2));
	} else if (!strpbrk(printed, "eE") ||
		   format_sci(out, strtod(printed, NULL),
			      sig_digits(printed))) {
		buf_addstr(out, printed);
	}
	add_unit(out, unit);
}

/*
 * A recomputed value in the terms of the printed one, a digit finer: to
 * "39" (orders) 38.7, to "125" 118.9, to "2.13e31" 2.133 × 10³¹, to a
 * range "50..100" 119.2; a calendar year as a year.
 */
void
audit_recomputed_text(struct buf *out, double got, const char *printed,
		      const char *unit)
{
	const char *dots = strstr(printed, ".."), *end = printed +
		strlen(printed);
	int d;

	if (!strcmp(unit, "year")) {
		format_year(out, got);
	} else if (dots) {
		d = decimals(printed, dots);
		if (decimals(dots + 2, end) > d)
			d = decimals(dots + 2, end);
		format_fixed(out, got, d + 1);
	} else if (strpbrk(printed, "eE")) {
		format_sci(out, got, sig_digits(printed) + 1);
	} else {
		format_fixed(out, got, decimals(printed, end) + 1);
	}
	add_unit(out, unit);
}

/*
 * Judges c against got: 1 when it agrees within its tolerance. Sets
 * c->pub for a range (the end nearest got, which the ratio is taken
 * to) and writes the tolerance in words, with its unit, into tol.
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
		BUF_ADDLIT(tol, "\xc2\xb1");
		/* Five hundred thousand kelvin read as 5 × 10⁵ K. */
		if (lim >= 1e4 || lim < 1e-3)
			format_sci(tol, lim, 1);
		else
			format_sig(tol, lim, 1);
		add_unit(tol, c->unit);
		break;
	default:
		lim = c->tol * fabs(c->pub);
		BUF_ADDLIT(tol, "\xc2\xb1");
		/* In per cent, to the digits of the cell: 3.9e-5 is 0.0039. */
		format_sig(tol, c->tol * 100, sig_digits(c->tol_s));
		buf_addf(tol, FORMAT_NBSP "%% (%s)", reasons[c->reason]);
		break;
	}
	/* A value on the very edge is in: printed 0.5 is not 0.49999... */
	err = fabs(got - c->pub);
	return c->pub != 0 && got / c->pub > 0 &&
		err <= lim * (1 + 1e-12);
}

/* Where an error in an explanation is: its cell (table_error_in()). */
struct cell {
	const struct table *t;
	size_t row;
	int col;
};

static int
cell_error(const void *ctx, size_t off, const char *msg)
{
	const struct cell *c = ctx;

	return table_error_in(c->t, c->row, c->col, off, "%s", msg);
}

/*
 * The cell of row r in col with its value slots filled from the
 * registry by the template stage (template_expand_text()), into out
 * (reset first), and the names it quotes, space-separated, into names
 * (reset first). Returns -1 after errors at the cell.
 */
static int
explain(const struct table *t, size_t r, int col,
	const struct registry *reg, struct buf *out, struct buf *names)
{
	const struct cell at = { t, r, col };
	const char *s = table_cell(t, r, col);
	struct srcfile *f = srcfile_piece(s, strlen(s), cell_error, &at);
	int ret;

	buf_reset(out);
	buf_reset(names);
	ret = template_expand_text(f, reg, out, names);
	srcfile_free(f);
	return ret;
}

/* The audit's counts, by outcome. */
struct tally {
	int agree, known, inputs, bad;
	int bycat[sizeof(categories) / sizeof(categories[0])];
};

/*
 * claim.<id>.{published_low,published_high,published,recomputed,ratio}:
 * c's numbers, got the recomputed value, org where the row is.
 */
static void
add_numbers(struct registry *reg, const struct claim *c, double got,
	    const char *org)
{
	const struct quantity *q = c->q;
	struct buf name = BUF_INIT, in = BUF_INIT;
	struct quantity *rq;

	if (c->range) {
		buf_addf(&name, "claim.%s.published_low", c->id);
		registry_add_num(reg, name.data, c->lo, q->unit,
				 "the low end of the printed range", NULL,
				 c->where, org);
		buf_reset(&name);
		buf_addf(&name, "claim.%s.published_high", c->id);
		registry_add_num(reg, name.data, c->hi, q->unit,
				 "the high end of the printed range", NULL,
				 c->where, org);
	}
	buf_reset(&name);
	buf_addf(&name, "claim.%s.published", c->id);
	registry_add_num(reg, name.data, c->pub, q->unit, c->range ?
			 "the end of the printed range nearest the "
			 "recomputed value" : "the value as printed", NULL,
			 c->where, org);
	buf_reset(&name);
	buf_addf(&name, "claim.%s.recomputed", c->id);
	if ((rq = registry_add_num(reg, name.data, got, q->unit, NULL,
				   c->qname, q->source, NULL)))
		registry_set_expr(rq, c->qname, "as the model computes it");
	buf_reset(&name);
	buf_addf(&name, "claim.%s.ratio", c->id);
	buf_addf(&in, "claim.%s.recomputed claim.%s.published", c->id, c->id);
	rq = registry_add_num(reg, name.data, got / c->pub, "", NULL, in.data,
			      "derived here", NULL);
	buf_reset(&in);
	buf_addf(&in, "claim.%s.recomputed / claim.%s.published", c->id,
		 c->id);
	if (rq)
		registry_set_expr(rq, in.data, NULL);
	buf_release(&name);
	buf_release(&in);
}

/*
 * The line of c (row r of t) in the audit table into out, judged ok or
 * not against got within tol, its verdict in words into verdict, and
 * the outcome counted in *n.
 */
static void
add_verdict(struct buf *out, struct buf *verdict, const struct claim *c,
	    double got, int ok, const char *tol, const char *expl,
	    const struct table *t, size_t r, struct tally *n)
{
	const char *cat = c->category >= 0 ? categories[c->category] : "";

	buf_addf(out, "%-18s %-11s %-12.6g %-8.4g ", c->id, c->pub_s, got,
		 got / c->pub);
	buf_reset(verdict);
	if (ok && c->status == S_REPRODUCIBLE) {
		n->agree++;
		if (c->range)
			buf_addf(out, "inside the printed range\n");
		else
			buf_addf(out, "agrees (within %s%s)\n", tol,
				 c->reason == R_DIGITS ? ", half a unit of "
				 "the last printed digit" : "");
		buf_addstr(verdict, c->range ? "inside the printed range" :
			   "agrees");
	} else if (ok && c->status == S_INPUT) {
		n->inputs++;
		buf_addf(out, "input, used as printed (within %s): %s\n", tol,
			 expl);
		BUF_ADDLIT(verdict, "input, used as printed");
	} else if (!ok && c->discrepancy) {
		n->known++;
		n->bycat[c->category]++;
		buf_addf(out, "%s [%s]: %s\n", c->range ? "outside the printed "
			 "range, a known discrepancy" : "known discrepancy",
			 cat, expl);
		buf_addf(verdict, "%s: %s", c->range ? "outside the printed "
			 "range" : "known discrepancy", cat);
	} else if (ok) {
		n->bad++;
		buf_addf(out, "AGREES (within %s), but marked as a "
			 "discrepancy: review %s:%zu\n", tol, table_name(t),
			 table_line(t, r));
		BUF_ADDLIT(verdict, "agrees, though marked a discrepancy");
	} else {
		n->bad++;
		buf_addf(out, "DRIFTS outside its tolerance (%s)%s: %s = %.6g "
			 "(%s)\n", tol, c->status == S_INPUT ? ", an input the "
			 "model no longer takes as printed" : "", c->qname,
			 got, c->q->formula);
		BUF_ADDLIT(verdict, "drifts");
	}
}

/*
 * claim.<id>.{id,claim,where,quantity,status,verdict,...}: the words of
 * c (row r of t), for the report's table; quoted the names its
 * explanation quotes, org where the row is.
 */
static void
add_words(struct registry *reg, const struct table *t, size_t r,
	  const struct claimcols *cc, const struct claim *c, double got,
	  const char *verdict, const char *tol, const char *expl,
	  const char *quoted, const char *org)
{
	const char *cat = c->category >= 0 ? categories[c->category] : "";
	struct buf name = BUF_INIT, shown = BUF_INIT;

	buf_addf(&name, "claim.%s.id", c->id);
	registry_add_text(reg, name.data, c->id, "from claims.csv", NULL,
			  table_name(t), org);
	claim_text(reg, c->id, "claim", table_cell(t, r, cc->claim), org);
	claim_text(reg, c->id, "where", c->where, org);
	claim_text(reg, c->id, "quantity", c->qname, org);
	claim_text(reg, c->id, "status", statuses[c->status], org);
	claim_text(reg, c->id, "verdict", verdict, org);
	claim_text(reg, c->id, "category", c->status == S_INPUT ? "input" :
		   cat, org);
	claim_text(reg, c->id, "tolerance", tol, org);
	claim_text(reg, c->id, "tolerance_reason",
		   table_cell(t, r, cc->reason), org);
	claim_text_of(reg, c->id, "explanation", expl, quoted, org);
	claim_text(reg, c->id, "printed", c->pub_s, org);
	audit_printed_text(&shown, c->pub_s, c->unit);
	claim_text(reg, c->id, "printed_text", shown.data, org);
	buf_reset(&shown);
	audit_recomputed_text(&shown, got, c->pub_s, c->unit);
	buf_reset(&name);
	buf_addf(&name, "claim.%s.recomputed", c->id);
	claim_text_of(reg, c->id, "recomputed_text", shown.data, name.data,
		      org);
	buf_release(&name);
	buf_release(&shown);
}

/* The totals: the audit's last line, and claims.{agree,input,...}. */
static void
add_totals(struct registry *reg, struct buf *out, const struct tally *n)
{
	struct buf name = BUF_INIT, what = BUF_INIT;
	size_t i;

	buf_addf(out, "claims: %d agree, %d known discrepancies (", n->agree,
		 n->known);
	for (i = 0; i < sizeof(categories) / sizeof(*categories); i++)
		buf_addf(out, "%s%d %s", i ? ", " : "", n->bycat[i],
			 categories[i]);
	buf_addf(out, "), %d inputs, %d off\n", n->inputs, n->bad);
	registry_add_num(reg, "claims.agree", n->agree, "", "claims "
			 "recomputed from something the source did not print "
			 "that agree within their tolerance", NULL,
			 "derived here", NULL);
	registry_add_num(reg, "claims.input", n->inputs, "", "the source's "
			 "figures the model takes as inputs, checked by "
			 "nothing independent and not counted as agreeing",
			 NULL, "derived here", NULL);
	registry_add_num(reg, "claims.known", n->known, "", "known "
			 "discrepancies, each explained", NULL, "derived here",
			 NULL);
	registry_add_num(reg, "claims.off", n->bad, "", "claims that do not "
			 "behave as marked", NULL, "derived here", NULL);
	for (i = 0; i < sizeof(categories) / sizeof(*categories); i++) {
		buf_reset(&name);
		buf_addf(&name, "claims.%s", categories[i]);
		/* "data-moved" is no name: claims.data_moved. */
		for (char *p = name.data; *p; p++)
			if (*p == '-')
				*p = '_';
		buf_reset(&what);
		buf_addf(&what, "known discrepancies of the category '%s'",
			 categories[i]);
		registry_add_num(reg, name.data, n->bycat[i], "", what.data,
				 NULL, "derived here", NULL);
	}
	buf_release(&name);
	buf_release(&what);
}

int
audit_run(const char *datadir, struct registry *reg, struct buf *out,
	  struct tableset *ts)
{
	struct tableset own = { 0 };
	struct buf hint = BUF_INIT, tol = BUF_INIT, verdict = BUF_INIT;
	struct buf org = BUF_INIT, expl = BUF_INIT, quoted = BUF_INIT;
	struct tally n = { 0 };
	struct table *t;
	const struct schema_file *cf, *vf, *all;
	struct claimcols cc;
	size_t r, nfiles, before = diag_errors();
	int failed = 0;

	/* A project without claims has no audit. */
	if (!ts)
		ts = &own;
	if (!(cf = schema_of_kind(ts, datadir, SCHEMA_CLAIMS))) {
		if (schema_catalogue(ts, datadir, &all, &nfiles))
			failed = 1;
		goto out;
	}
	vf = schema_of_kind(ts, datadir, SCHEMA_VALUES);
	cc.values = vf ? vf->s.file : NULL;
	t = schema_load(ts, datadir, cf->s.file);
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
	cc.unit = table_col(t, "unit");
	buf_addf(out, "%-18s %-11s %-12s %-8s %s\n", "claim", "published",
		 "recomputed", "ratio", "verdict");
	for (r = 0; r < table_rows(t); r++) {
		struct claim c;
		double got;
		int ok;

		if (claim_read(t, r, &cc, reg, &c, &hint))
			continue;
		got = c.q->value;
		ok = claim_judge(&c, got, &tol);
		buf_reset(&org);
		buf_addf(&org, "%s:%zu", table_name(t), table_line(t, r));
		/* The numbers first: an explanation may quote them. */
		add_numbers(reg, &c, got, org.data);
		if (explain(t, r, cc.explanation, reg, &expl, &quoted))
			continue;
		add_verdict(out, &verdict, &c, got, ok, tol.data, expl.data, t,
			    r, &n);
		/* The audit joins the registry, for the report's table. */
		add_words(reg, t, r, &cc, &c, got, verdict.data, tol.data,
			  expl.data, quoted.data, org.data);
	}
	if (diag_errors() == before)
		add_totals(reg, out, &n);
out:
	tableset_release(&own);
	buf_release(&hint);
	buf_release(&tol);
	buf_release(&verdict);
	buf_release(&org);
	buf_release(&expl);
	buf_release(&quoted);
	return diag_errors() == before && !failed ? n.bad : -1;
}
