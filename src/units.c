/*
 * Units: unit strings of the registry and of templates -> dimensions
 * (units.h). Used by the registry when a quantity is added, by the
 * expression evaluator for dimension checks, and by the in:"..." format.
 * Reads and writes nothing but its arguments.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "units.h"
#include "banned.h"

#define JULIAN_YEAR 31557600.0	/* 365.25 d, in s */
#define STR_(x) #x
#define STR(x) STR_(x)

struct named {
	const char *name;
	double scale;
	signed char exp[U_NBASE];	/* m kg s K bit op FLOP */
	unsigned char calendar;
	unsigned char prefix;		/* 1: takes SI prefixes, 2: also binary */
};

static const struct named units[] = {
	{ "m", 1, { 1, 0, 0, 0, 0, 0, 0 }, 0, 1 },
	{ "g", 1e-3, { 0, 1, 0, 0, 0, 0, 0 }, 0, 1 },
	{ "s", 1, { 0, 0, 1, 0, 0, 0, 0 }, 0, 1 },
	{ "K", 1, { 0, 0, 0, 1, 0, 0, 0 }, 0, 0 },
	{ "bit", 1, { 0, 0, 0, 0, 1, 0, 0 }, 0, 2 },
	{ "B", 8, { 0, 0, 0, 0, 1, 0, 0 }, 0, 2 },
	{ "ops", 1, { 0, 0, 0, 0, 0, 1, 0 }, 0, 1 },
	{ "op", 1, { 0, 0, 0, 0, 0, 1, 0 }, 0, 1 },
	{ "FLOP", 1, { 0, 0, 0, 0, 0, 0, 1 }, 0, 1 },
	{ "J", 1, { 2, 1, -2, 0, 0, 0, 0 }, 0, 1 },
	{ "W", 1, { 2, 1, -3, 0, 0, 0, 0 }, 0, 1 },
	{ "eV", 1.602176634e-19, { 2, 1, -2, 0, 0, 0, 0 }, 0, 1 },
	{ "Hz", 1, { 0, 0, -1, 0, 0, 0, 0 }, 0, 1 },
	{ "L", 1e-3, { 3, 0, 0, 0, 0, 0, 0 }, 0, 1 },
	{ "in", 0.0254, { 1, 0, 0, 0, 0, 0, 0 }, 0, 0 },
	{ "min", 60, { 0, 0, 1, 0, 0, 0, 0 }, 0, 0 },
	{ "h", 3600, { 0, 0, 1, 0, 0, 0, 0 }, 0, 0 },
	{ "d", 86400, { 0, 0, 1, 0, 0, 0, 0 }, 0, 0 },
	{ "day", 86400, { 0, 0, 1, 0, 0, 0, 0 }, 0, 0 },
	{ "month", JULIAN_YEAR / 12, { 0, 0, 1, 0, 0, 0, 0 }, 0, 0 },
	{ "yr", JULIAN_YEAR, { 0, 0, 1, 0, 0, 0, 0 }, 0, 0 },
	{ "year", JULIAN_YEAR, { 0, 0, 1, 0, 0, 0, 0 }, 1, 0 },
};

static const struct {
	const char *p;
	double f;
	int binary;
} prefixes[] = {
	{ "Ki", 1024.0, 1 }, { "Mi", 1048576.0, 1 },
	{ "Gi", 1073741824.0, 1 }, { "Ti", 1099511627776.0, 1 },
	{ "k", 1e3, 0 }, { "M", 1e6, 0 }, { "G", 1e9, 0 }, { "T", 1e12, 0 },
	{ "P", 1e15, 0 }, { "E", 1e18, 0 }, { "c", 1e-2, 0 },
	{ "m", 1e-3, 0 }, { "u", 1e-6, 0 }, { "\xc2\xb5", 1e-6, 0 },
	{ "n", 1e-9, 0 }, { "p", 1e-12, 0 }, { "f", 1e-15, 0 },
};

void
unit_one(struct unit *u)
{
	memset(u, 0, sizeof(*u));
	u->scale = 1;
}

static void
from_named(struct unit *u, const struct named *n, double f)
{
	unit_one(u);
	u->scale = n->scale * f;
	memcpy(u->exp, n->exp, sizeof(u->exp));
	u->calendar = n->calendar;
}

/* The unit called by the len bytes at s, with or without a prefix. */
static int
lookup(const char *s, size_t len, struct unit *u)
{
	size_t i, k;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len &&
		    !memcmp(units[i].name, s, len)) {
			from_named(u, &units[i], 1);
			return 0;
		}
	for (k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		size_t pl = strlen(prefixes[k].p);

		if (len <= pl || memcmp(s, prefixes[k].p, pl))
			continue;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (units[i].prefix > prefixes[k].binary &&
			    strlen(units[i].name) == len - pl &&
			    !memcmp(units[i].name, s + pl, len - pl)) {
				/* kg is the base: "kg" is found above. */
				from_named(u, &units[i], prefixes[k].f);
				return 0;
			}
	}
	return -1;
}

struct uparser {
	const char *s, *p;
	struct buf *err;
	int depth;
};

static void
skip(struct uparser *up)
{
	while (*up->p == ' ')
		up->p++;
}

static int fail(struct uparser *up, const char *what, const char *at,
		size_t len);

static int
fail(struct uparser *up, const char *what, const char *at, size_t len)
{
	if (up->err && !up->err->len) {
		if (at && at == up->s && !at[len])
			buf_addf(up->err, "%s '%s'", what, up->s);
		else if (at)
			buf_addf(up->err, "%s '%.*s' in unit '%s'", what,
				 (int)len, at, up->s);
		else
			buf_addf(up->err, "%s in unit '%s'", what, up->s);
	}
	return -1;
}

static int parse_quot(struct uparser *up, struct unit *u);

/*
 * A product, quotient or power left the range of units.h: says which
 * way, given the scale it would have had.
 */
static int
out_of_range(struct uparser *up, double scale)
{
	if (!isfinite(scale))
		return fail(up, "scale overflows", NULL, 0);
	if (scale == 0)
		return fail(up, "scale underflows to 0", NULL, 0);
	return fail(up, "exponent out of range (-" STR(UNIT_EXP_MAX) " to "
		    STR(UNIT_EXP_MAX) ")", NULL, 0);
}

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (unsigned char)c >= 0x80;
}

/* atom [ "^" integer ] */
static int
parse_factor(struct uparser *up, struct unit *u)
{
	skip(up);
	if (*up->p == '(') {
		up->p++;
		if (++up->depth > 16)
			return fail(up, "parentheses nested too deeply", NULL,
				    0);
		if (parse_quot(up, u))
			return -1;
		up->depth--;
		skip(up);
		if (*up->p != ')')
			return fail(up, "unclosed '('", NULL, 0);
		up->p++;
	} else if ((*up->p >= '0' && *up->p <= '9') || *up->p == '.') {
		char *end;
		double v = strtod(up->p, &end);

		if (end == up->p || !(v > 0) || !isfinite(v))
			return fail(up, "bad number", up->p, 1);
		unit_one(u);
		u->scale = v;
		up->p = end;
	} else if (is_alpha(*up->p)) {
		const char *start = up->p;

		while (is_alpha(*up->p))
			up->p++;
		if (lookup(start, (size_t)(up->p - start), u))
			return fail(up, "unknown unit", start,
				    (size_t)(up->p - start));
	} else if (!*up->p) {
		return fail(up, "expected a unit at the end", NULL, 0);
	} else {
		return fail(up, "unexpected", up->p, 1);
	}
	skip(up);
	if (*up->p == '^') {
		char *end;
		long n;

		up->p++;
		skip(up);
		n = strtol(up->p, &end, 10);
		if (end == up->p || n < -UNIT_EXP_MAX || n > UNIT_EXP_MAX)
			return fail(up, "expected a whole exponent from -"
				    STR(UNIT_EXP_MAX) " to " STR(UNIT_EXP_MAX)
				    " after '^'", NULL, 0);
		up->p = end;
		if (u->calendar && n != 1)
			return fail(up, "a calendar year has no power", NULL,
				    0);
		if (unit_pow(u, u, (double)n))
			return out_of_range(up, pow(u->scale, (double)n));
	}
	return 0;
}

/* factor { [ " " | "*" ] factor } */
static int
parse_prod(struct uparser *up, struct unit *u)
{
	if (parse_factor(up, u))
		return -1;
	for (;;) {
		struct unit f;

		skip(up);
		if (*up->p == '*')
			up->p++;
		else if (!*up->p || *up->p == '/' || *up->p == ')')
			return 0;
		if (parse_factor(up, &f))
			return -1;
		if (u->calendar || f.calendar)
			return fail(up, "a calendar year in a product", NULL,
				    0);
		if (unit_mul(u, u, &f))
			return out_of_range(up, u->scale * f.scale);
	}
}

/* prod { "/" prod } */
static int
parse_quot(struct uparser *up, struct unit *u)
{
	if (parse_prod(up, u))
		return -1;
	for (;;) {
		struct unit d;

		skip(up);
		if (*up->p != '/')
			return 0;
		up->p++;
		if (parse_prod(up, &d))
			return -1;
		if (u->calendar || d.calendar)
			return fail(up, "a calendar year in a quotient", NULL,
				    0);
		if (unit_div(u, u, &d))
			return out_of_range(up, u->scale / d.scale);
	}
}

int
unit_parse(const char *s, struct unit *u, struct buf *err)
{
	struct uparser up = { s, s, err, 0 };

	unit_one(u);
	while (*up.p == ' ')
		up.p++;
	if (!*up.p)
		return 0;
	if (parse_quot(&up, u))
		return -1;
	skip(&up);
	if (*up.p)
		return fail(&up, "unexpected", up.p, 1);
	return 0;
}

/*
 * The invariants of units.h for a result about to be stored: -1 when an
 * exponent (in int, before the cast to signed char) is out of range or
 * the scale is not a finite nonzero number.
 */
static int
in_range(double scale, const int *exp)
{
	int i;

	if (!isfinite(scale) || scale == 0)
		return -1;
	for (i = 0; i < U_NBASE; i++)
		if (exp[i] < -UNIT_EXP_MAX || exp[i] > UNIT_EXP_MAX)
			return -1;
	return 0;
}

/*
 * r = the unit of scale and exponents exp, computed wide; -1, r
 * untouched, when they are out of range.
 */
static int
set_unit(struct unit *r, double scale, const int exp[U_NBASE])
{
	int i;

	if (in_range(scale, exp))
		return -1;
	unit_one(r);
	r->scale = scale;
	for (i = 0; i < U_NBASE; i++)
		r->exp[i] = (signed char)exp[i];
	return 0;
}

/* r = a b^sign (sign 1 or -1); -1, r untouched, when out of range. */
static int
combine(struct unit *r, const struct unit *a, const struct unit *b,
	int sign)
{
	int exp[U_NBASE], i;
	double scale = sign > 0 ? a->scale * b->scale : a->scale / b->scale;

	for (i = 0; i < U_NBASE; i++)
		exp[i] = a->exp[i] + sign * b->exp[i];
	return set_unit(r, scale, exp);
}

int
unit_mul(struct unit *r, const struct unit *a, const struct unit *b)
{
	return combine(r, a, b, 1);
}

int
unit_div(struct unit *r, const struct unit *a, const struct unit *b)
{
	return combine(r, a, b, -1);
}

int
unit_pow(struct unit *r, const struct unit *a, double p)
{
	int exp[U_NBASE], i;
	double scale;

	if (a->calendar && p != 1)
		return -1;
	if (a->calendar) {
		*r = *a;
		return 0;
	}
	scale = pow(a->scale, p);
	for (i = 0; i < U_NBASE; i++) {
		double e = a->exp[i] * p, n = round(e);

		if (!(fabs(e - n) <= 1e-9) || !(fabs(n) <= UNIT_EXP_MAX))
			return -1;
		exp[i] = (int)n;
	}
	return set_unit(r, scale, exp);
}

static int
same_exp(const struct unit *a, const struct unit *b, int upto)
{
	int i;

	for (i = 0; i < upto; i++)
		if (a->exp[i] != b->exp[i])
			return 0;
	return 1;
}

int
unit_same_dim(const struct unit *a, const struct unit *b)
{
	return same_exp(a, b, U_NBASE) && a->calendar == b->calendar;
}

int
unit_same_si(const struct unit *a, const struct unit *b)
{
	return same_exp(a, b, U_BIT) && a->calendar == b->calendar;
}

int
unit_dimensionless(const struct unit *u)
{
	struct unit one;

	unit_one(&one);
	return unit_same_dim(u, &one);
}

int
unit_is_count(const struct unit *u)
{
	struct unit one;

	unit_one(&one);
	return unit_same_si(u, &one);
}

/* A time span: s^1 and nothing else, no calendar year. */
static int
is_span(const struct unit *u)
{
	struct unit s;

	unit_one(&s);
	s.exp[U_S] = 1;
	return unit_same_dim(u, &s);
}

int
unit_add(struct unit *r, const struct unit *a, const struct unit *b, int sub)
{
	if (!a->calendar && !b->calendar) {
		if (!unit_same_dim(a, b))
			return -1;
		*r = *a;
		return 0;
	}
	if (a->calendar && b->calendar) {
		if (!sub)
			return -1;
		*r = *a;	/* year - year: a span in a's scale */
		r->calendar = 0;
		return 0;
	}
	if (a->calendar) {	/* year +- span */
		if (!is_span(b))
			return -1;
		*r = *a;
		return 0;
	}
	if (sub || !is_span(a))	/* span - year makes no sense */
		return -1;
	*r = *b;
	return 0;
}

void
unit_format(struct buf *out, const struct unit *u)
{
	static const char *const names[U_NBASE] = {
		"m", "kg", "s", "K", "bit", "ops", "FLOP",
	};
	/* The order physicists write them in: kg m^2/(s^2 K). */
	static const int order[U_NBASE] = {
		U_KG, U_M, U_BIT, U_OP, U_FLOP, U_S, U_K,
	};
	int i, num = 0, den = 0;

	if (u->calendar) {
		BUF_ADDLIT(out, "year");
		return;
	}
	if (u->scale != 1)
		buf_addf(out, "%.6g", u->scale);
	for (i = 0; i < U_NBASE; i++) {
		int k = order[i];

		if (u->exp[k] > 0) {
			if (num++ || u->scale != 1)
				buf_addch(out, ' ');
			buf_addstr(out, names[k]);
			if (u->exp[k] != 1)
				buf_addf(out, "^%d", u->exp[k]);
		} else if (u->exp[k] < 0) {
			den++;
		}
	}
	if (!num && u->scale == 1)
		buf_addch(out, '1');
	if (!den)
		return;
	buf_addstr(out, den > 1 ? "/(" : "/");
	den = 0;
	for (i = 0; i < U_NBASE; i++) {
		int k = order[i];

		if (u->exp[k] >= 0)
			continue;
		if (den++)
			buf_addch(out, ' ');
		buf_addstr(out, names[k]);
		if (u->exp[k] != -1)
			buf_addf(out, "^%d", -u->exp[k]);
	}
	if (den > 1)
		buf_addch(out, ')');
}
