#ifndef UNITS_H
#define UNITS_H

struct buf;

/*
 * Units as dimensions: a unit string of the registry or a template
 * ("J s", "W/(m^2 K^4)", "ops/s", "B", "yr", "year") parsed into
 * exponents of base dimensions and a scale, the size of one of the unit
 * in the coherent units (m, kg, s, K, bit, op, FLOP): "B" is 8 bit,
 * "L" 1e-3 m^3, "yr" 31557600 s (a Julian year), "eV" 1.602176634e-19 J.
 *
 * bit, op and FLOP are counts: dimensions of their own, so that bits do
 * not add to operations in a template, but pure numbers to physics (see
 * unit_same_si()).
 *
 * "year" is a calendar year, a point in time: year - year is a span in
 * yr, year + yr is a year, and year + year or 3 year is an error.
 * Pure: no I/O, no allocation.
 */
enum unit_base {
	U_M,
	U_KG,
	U_S,
	U_K,
	U_BIT,
	U_OP,
	U_FLOP,
	U_NBASE,
};

/*
 * The range of every exponent of a unit: m^100 is the most, m^-100 the
 * least, at every step of a product, quotient or power too.
 */
#define UNIT_EXP_MAX 100

/*
 * Invariants of a unit that parsed or came out of the algebra below:
 * scale is finite and greater than 0, and each exponent is from
 * -UNIT_EXP_MAX to UNIT_EXP_MAX (what signed char holds with room to
 * add two).
 */
struct unit {
	double scale;			/* coherent units per 1 of this */
	signed char exp[U_NBASE];	/* exponent of each base */
	unsigned char calendar;		/* a calendar year (exp: s^1) */
};

/* The dimensionless unit of scale 1 ("" or "1"). */
void unit_one(struct unit *u);

/*
 * Parses s: names and numbers separated by spaces or '*', '/', '^' with
 * an integer exponent, parentheses. Names are the units above plus g,
 * W, J, eV, Hz, B, L, in, min, h, d, month and SI prefixes (km, cm, mm,
 * um, ns, kJ, GB, TB, MiB, ...). "" is dimensionless. Returns 0, or -1
 * with a message in err ("unknown unit 'xyz'"), also when a step of the
 * product leaves an exponent out of range or the scale overflows to
 * infinity or underflows to 0 ("(Es/s)^9 (Es/s)^9").
 */
int unit_parse(const char *s, struct unit *u, struct buf *err);

/*
 * r = a b, r = a / b (r may be a or b). Return -1, r untouched, when an
 * exponent of the result is out of range or its scale is not a finite
 * nonzero number.
 */
int unit_mul(struct unit *r, const struct unit *a, const struct unit *b);
int unit_div(struct unit *r, const struct unit *a, const struct unit *b);
/*
 * r = a^p. Returns -1 when a has a dimension and p times an exponent is
 * not a whole number (m^(1/2)), or is out of range, when the scale of
 * the result is not a finite nonzero number, or a is a calendar year.
 */
int unit_pow(struct unit *r, const struct unit *a, double p);
/*
 * The unit of a + b (sub: a - b): the same dimension, or a calendar
 * year and a time span as above; r has the scale of the operand it
 * follows (a's, or b's for span + year). Returns -1 when they do not add.
 */
int unit_add(struct unit *r, const struct unit *a, const struct unit *b,
	     int sub);

/* 1 when a and b have the same dimension (counts and calendar too). */
int unit_same_dim(const struct unit *a, const struct unit *b);
/*
 * 1 when a and b agree in the SI dimensions and the calendar flag,
 * whatever their counts: Lloyd's 2 E / (pi hbar) is in 1/s and counts
 * operations per second, S / (k ln 2) is a pure number that counts bits.
 */
int unit_same_si(const struct unit *a, const struct unit *b);
/* 1 when no exponent is set and it is no calendar year (any scale). */
int unit_dimensionless(const struct unit *u);
/* 1 when only count exponents may be set (bits, ops, FLOP; any scale). */
int unit_is_count(const struct unit *u);

/*
 * Appends the dimension in coherent units: "kg m^2/s^2", "bit/s",
 * "year"; "1" when dimensionless; a scale other than 1 comes first
 * ("8 bit").
 */
void unit_format(struct buf *out, const struct unit *u);

#endif
