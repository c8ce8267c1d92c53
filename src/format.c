/*
 * The format stage: numbers and units as the report prints them. The
 * template expander calls these with a value from the registry and
 * appends UTF-8 text to a struct buf; nothing here reads input, prints
 * or allocates beyond the buffer.
 *
 * Every rounding is done once, correctly, by snprintf() ("%.*e" and
 * "%.*f"); the digits are then rearranged, never recomputed. Negative
 * numbers get U+2212 MINUS SIGN in every format meant for prose; only
 * format_e() keeps the ASCII '-', so that its output stays plain
 * e-notation that strtod() reads back. A value that rounds to zero never
 * gets a sign.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "format.h"
#include "banned.h"

#define MINUS "\xe2\x88\x92"	/* U+2212 MINUS SIGN */
#define TIMES "\xc3\x97"	/* U+00D7 MULTIPLICATION SIGN */
#define NBSP FORMAT_NBSP

#define MAX_DIGITS 17	/* "%.17g" reads back to the same double */
/*
 * Counts are whole numbers below 10^15: every one of them is a double,
 * and its digits are the number's, not the binary format's. format_sig()
 * turns to scientific there too.
 */
#define COUNT_MAX 1e15

/* U+2070 and friends; 1, 2 and 3 live in Latin-1. */
static const char *const superscript[10] = {
	"\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb4",
	"\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8",
	"\xe2\x81\xb9",
};
#define SUPERSCRIPT_MINUS "\xe2\x81\xbb"	/* U+207B */

/* SI prefixes step by 1000, binary ones by 1024; index 0 is plain bytes. */
#define NPREFIX 11
static const char *const si_prefix[NPREFIX] = {
	"", "k", "M", "G", "T", "P", "E", "Z", "Y", "R", "Q",
};
static const char *const binary_prefix[NPREFIX] = {
	"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi", "Ri", "Qi",
};

/*
 * A value rounded to n significant digits: d[0] d[1] ... d[n-1] times
 * 10^(exp - n + 1), the digits snprintf("%.*e") would write.
 */
struct dec {
	char d[MAX_DIGITS + 1];	/* the digits, NUL-terminated */
	int n;
	int exp;		/* decimal exponent of d[0]; 0 for zero */
	int neg;		/* negative and not rounded to zero */
};

/*
 * Rounds the finite v to digits (1 to MAX_DIGITS) significant digits:
 * the digits and the exponent of snprintf("%.*e"), taken apart.
 */
static void
round_sig(struct dec *dec, double v, int digits)
{
	char tmp[32];	/* "1.7976931348623157e+308" */
	const char *p;
	int len, n = 0;

	len = snprintf(tmp, sizeof(tmp), "%.*e", digits - 1, fabs(v));
	if (len < 0 || (size_t)len >= sizeof(tmp))
		BUG("snprintf(%%.*e) gave %d bytes", len);
	for (p = tmp; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && n < digits)
			dec->d[n++] = *p;
	if (*p != 'e' || n != digits)
		BUG("cannot parse snprintf(%%.*e) output '%s'", tmp);
	dec->d[n] = '\0';
	dec->n = n;
	/* Zero has exponent 0, and is the only value to round to zero. */
	dec->exp = atoi(p + 1);
	dec->neg = signbit(v) && v != 0;
}

/* |rounded value|, read back for comparisons with a prefix's base. */
static double
dec_value(const struct dec *dec)
{
	char tmp[MAX_DIGITS + 16];

	snprintf(tmp, sizeof(tmp), "%.*se%d", dec->n, dec->d, dec->exp -
		 dec->n + 1);
	return strtod(tmp, NULL);
}

static void
add_zeros(struct buf *out, int n)
{
	while (n-- > 0)
		buf_addch(out, '0');
}

/*
 * Writes the digits of dec as a plain decimal whose first digit stands
 * for 10^exp (exp need not be dec->exp: format_bytes() shifts it by the
 * prefix). Trailing zeros are significant and kept. No sign.
 */
static void
put_plain(struct buf *out, const struct dec *dec, int exp)
{
	if (exp >= dec->n - 1) {
		buf_add(out, dec->d, (size_t)dec->n);
		add_zeros(out, exp - (dec->n - 1));
	} else if (exp >= 0) {
		buf_add(out, dec->d, (size_t)exp + 1);
		buf_addch(out, '.');
		buf_addstr(out, dec->d + exp + 1);
	} else {
		BUF_ADDLIT(out, "0.");
		add_zeros(out, -exp - 1);
		buf_add(out, dec->d, (size_t)dec->n);
	}
}

/* Writes "d.ddd × 10^exp" with a superscript exponent, or "d.ddd" for 0. */
static void
put_sci(struct buf *out, const struct dec *dec, int exp)
{
	buf_addch(out, dec->d[0]);
	if (dec->n > 1) {
		buf_addch(out, '.');
		buf_addstr(out, dec->d + 1);
	}
	if (exp) {
		BUF_ADDLIT(out, NBSP TIMES NBSP "10");
		format_superscript(out, exp);
	}
}

/* Decimal digits of u, grouped by three with commas when group is set. */
static void
put_uint(struct buf *out, unsigned long long u, int group)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	int n = 0;

	do {
		if (group && n && n % 3 == 0)
			*--p = ',';
		*--p = (char)('0' + (int)(u % 10));
		u /= 10;
		n++;
	} while (u);
	buf_add(out, p, (size_t)(tmp + sizeof(tmp) - p));
}

static void
put_sign(struct buf *out, int neg)
{
	if (neg)
		BUF_ADDLIT(out, MINUS);
}

static int
digits_ok(int digits)
{
	return digits >= 1 && digits <= MAX_DIGITS;
}

/* Returns -1 for NaN, infinity or digits out of 1..17. */
int
format_sci(struct buf *out, double v, int digits)
{
	struct dec dec;

	if (!isfinite(v) || !digits_ok(digits))
		return -1;
	round_sig(&dec, v, digits);
	put_sign(out, dec.neg);
	put_sci(out, &dec, dec.exp);
	return 0;
}

/*
 * "5.426e50", "-1.50e-35": the exponent has no '+' and no leading
 * zeros, and is always written, so 2.5 (3) is "2.50e0" and 0 is
 * "0.00e0". The sign is ASCII, unlike everywhere else. Returns -1 for
 * NaN, infinity or digits out of 1..17.
 */
int
format_e(struct buf *out, double v, int digits)
{
	struct dec dec;

	if (!isfinite(v) || !digits_ok(digits))
		return -1;
	round_sig(&dec, v, digits);
	if (dec.neg)
		buf_addch(out, '-');
	buf_addch(out, dec.d[0]);
	if (dec.n > 1) {
		buf_addch(out, '.');
		buf_addstr(out, dec.d + 1);
	}
	buf_addf(out, "e%d", dec.exp);
	return 0;
}

/*
 * "%.*f" with a U+2212 minus, dropped when every digit is zero. No
 * grouping. Returns -1 for NaN, infinity or decimals out of 0..17.
 */
int
format_fixed(struct buf *out, double v, int decimals)
{
	/* DBL_MAX has 309 integer digits; sign, point and 17 decimals. */
	char tmp[352];
	const char *p = tmp;
	int len, neg;

	if (!isfinite(v) || decimals < 0 || decimals > MAX_DIGITS)
		return -1;
	len = snprintf(tmp, sizeof(tmp), "%.*f", decimals, v);
	if (len < 0 || (size_t)len >= sizeof(tmp))
		BUG("snprintf(%%.*f) gave %d bytes", len);
	neg = *p == '-';
	if (neg)
		p++;
	put_sign(out, neg && strspn(p, "0.") != strlen(p));
	buf_addstr(out, p);
	return 0;
}

/*
 * The fallback to format_sci() is decided on the rounded value, so
 * 999999999999999.9 (3) is "1.00 × 10¹⁵" and 9.996e-7 (3) is
 * "0.00000100". Zero is plain: "0.00" (3). No grouping: 1234567 (4) is
 * "1235000". Returns -1 for NaN, infinity or digits out of 1..17.
 */
int
format_sig(struct buf *out, double v, int digits)
{
	struct dec dec;

	if (!isfinite(v) || !digits_ok(digits))
		return -1;
	round_sig(&dec, v, digits);
	put_sign(out, dec.neg);
	if (dec.exp >= 15 || dec.exp < -6)
		put_sci(out, &dec, dec.exp);
	else
		put_plain(out, &dec, dec.exp);
	return 0;
}

int
format_sig_grouped(struct buf *out, double v, int digits)
{
	struct buf tmp = BUF_INIT;
	size_t skip, n;
	int ret = format_sig(&tmp, v, digits);

	if (ret) {
		buf_release(&tmp);
		return ret;
	}
	skip = strncmp(tmp.data, MINUS, strlen(MINUS)) ? 0 : strlen(MINUS);
	n = strlen(tmp.data + skip);
	if (n >= 5 && strspn(tmp.data + skip, "0123456789") == n) {
		buf_add(out, tmp.data, skip);
		put_uint(out, strtoull(tmp.data + skip, NULL, 10), 1);
	} else {
		buf_addstr(out, tmp.data);
	}
	buf_release(&tmp);
	return 0;
}

/*
 * Rounds to an integer as "%.0f" does (exact halves to even: 2.5 ->
 * "2", 999.5 -> "1,000") and groups by three with commas. Values beyond
 * 1e18 in magnitude are refused with -1: doubles there are spaced 256 or
 * more apart, so the low digits would be artefacts of the binary format,
 * not figures; such values belong in format_sci(). Also -1 for NaN and
 * infinity.
 */
int
format_int(struct buf *out, double v)
{
	double r;

	if (!isfinite(v) || fabs(v) > 1e18)
		return -1;
	r = nearbyint(v);	/* halves to even, as "%.0f" */
	put_sign(out, r < 0);
	put_uint(out, (unsigned long long)fabs(r), 1);
	return 0;
}

/*
 * Rounds like format_int() but without grouping; a negative year (BCE
 * in astronomical numbering) gets U+2212. Returns -1 for NaN, infinity
 * or a rounded year outside -9999..99999.
 */
int
format_year(struct buf *out, double v)
{
	double r;

	if (!isfinite(v) || v < -10000 || v > 100000)
		return -1;
	r = nearbyint(v);
	if (r < -9999 || r > 99999)
		return -1;
	put_sign(out, r < 0);
	put_uint(out, (unsigned long long)fabs(r), 0);
	return 0;
}

/*
 * "10" and the superscript of log10(v) rounded to the nearest integer
 * (halves away from zero); 1 gives "10⁰". Returns -1 unless v is finite
 * and > 0.
 */
int
format_pow10(struct buf *out, double v)
{
	if (!isfinite(v) || v <= 0)
		return -1;
	BUF_ADDLIT(out, "10");
	format_superscript(out, (int)lround(log10(v)));
	return 0;
}

/*
 * Whole bytes below the first prefix: a fractional byte means nothing,
 * so dec (v rounded to digits) is rounded again, from v, to its integer
 * digits only. 512.4 (5) -> "512 B", 0.6 -> "1 B". Returns 1 when that
 * rounding reaches base (999.6 (4) -> 1.00e3), leaving in dec the value
 * to print with the first prefix; otherwise writes "n B" and returns 0.
 */
static int
put_bytes(struct buf *out, struct dec *dec, double v, double base)
{
	char tmp[8];

	if (dec->exp < 0) {
		/* Under one byte: "0 B" or "1 B". */
		snprintf(tmp, sizeof(tmp), "%.0f", v);
		buf_addstr(out, tmp);
		BUF_ADDLIT(out, NBSP "B");
		return 0;
	}
	if (dec->exp < dec->n - 1)
		round_sig(dec, v, dec->exp + 1);
	if (dec_value(dec) >= base)
		return 1;
	put_plain(out, dec, dec->exp);
	BUF_ADDLIT(out, NBSP "B");
	return 0;
}

/*
 * SI: the prefix follows from the decimal exponent of the rounded value,
 * so the one rounding of v decides it and 999.9 (3) carries to "1.00 kB".
 * Binary: v is scaled by 2^(-10 p), which is exact, and rounded; when
 * the rounded value reaches 1024 (1023.9 KiB at 3 digits) it is written
 * as 1 of the next prefix, "1.00 MiB", which is within the rounding of
 * the digits shown. Beyond Q (1000 QB, 1024 QiB) the number is
 * scientific: "1.00 × 10¹⁰ QB". A plain space separates number and
 * unit. Returns -1 for negative numbers (-0 is 0), NaN, infinity or
 * digits out of 1..17.
 */
int
format_bytes(struct buf *out, double v, int digits, int binary)
{
	const char *const *prefix = binary ? binary_prefix : si_prefix;
	double base = binary ? 1024 : 1000, scaled;
	struct dec dec;
	int p = 0, exp, beyond = 0;

	if (!isfinite(v) || v < 0 || !digits_ok(digits))
		return -1;
	v = fabs(v);	/* -0.0 */
	if (binary) {
		while (p < NPREFIX - 1 && v >= ldexp(1, 10 * (p + 1)))
			p++;
		scaled = ldexp(v, -10 * p);
		round_sig(&dec, scaled, digits);
		if (!p && !put_bytes(out, &dec, v, base))
			return 0;
		if (p == NPREFIX - 1 &&
		    (scaled >= base || dec_value(&dec) >= base)) {
			beyond = 1;
		} else if (dec_value(&dec) >= base) {
			/* Carry: v is just under 1 of the next prefix. */
			round_sig(&dec, 1, dec.n);
			p++;
		}
		exp = dec.exp;
	} else {
		round_sig(&dec, v, digits);
		if (dec.exp < 3 && !put_bytes(out, &dec, v, base))
			return 0;
		p = dec.exp / 3;
		if (p > NPREFIX - 1)
			p = NPREFIX - 1;
		exp = dec.exp - 3 * p;
		beyond = exp >= 3;
	}
	if (beyond)
		put_sci(out, &dec, exp);
	else
		put_plain(out, &dec, exp);
	BUF_ADDLIT(out, NBSP);
	buf_addstr(out, prefix[p]);
	buf_addch(out, 'B');
	return 0;
}

/*
 * Copies unit, turning each "^" followed by an optional "-" and at least
 * one digit into superscripts. A "^" without digits is copied as is.
 */
void
format_unit(struct buf *out, const char *unit)
{
	const char *p = unit, *q;

	while (*p) {
		if (*p == ' ') {
			/* "J s" stays one word, like "3.60 × 10⁹". */
			BUF_ADDLIT(out, NBSP);
			p++;
			continue;
		}
		q = p + 1 + (p[1] == '-');
		if (*p != '^' || *q < '0' || *q > '9') {
			buf_addch(out, *p++);
			continue;
		}
		if (p[1] == '-')
			BUF_ADDLIT(out, SUPERSCRIPT_MINUS);
		for (p = q; *p >= '0' && *p <= '9'; p++)
			buf_addstr(out, superscript[*p - '0']);
	}
}

/*
 * A whole number below COUNT_MAX, grouped as format_int() does it.
 * Returns -1, out untouched, for anything else.
 */
int
format_count(struct buf *out, double v)
{
	if (!isfinite(v) || v != floor(v) || fabs(v) >= COUNT_MAX)
		return -1;
	return format_int(out, v);
}

int
format_count_unit(const char *unit)
{
	return !*unit || !strcmp(unit, "1") || !strcmp(unit, "yr");
}

void
format_brief(struct buf *out, double v, const char *unit)
{
	if (!strcmp(unit, "year"))
		format_year(out, v);
	else if (format_count_unit(unit) && !format_count(out, v))
		return;
	else if (fabs(v) >= 1e-3 && fabs(v) < 1e6)
		format_sig(out, v, 4);
	else if (format_sci(out, v, 4))
		format_exact(out, v);
}

void
format_exact(struct buf *out, double v)
{
	buf_addf(out, "%.17g", v);
}

void
format_superscript(struct buf *out, int e)
{
	char tmp[16], *p = tmp + sizeof(tmp);
	long long x = e;	/* -INT_MIN fits */

	if (x < 0) {
		BUF_ADDLIT(out, SUPERSCRIPT_MINUS);
		x = -x;
	}
	do {
		*--p = (char)('0' + (int)(x % 10));
		x /= 10;
	} while (x);
	for (; p < tmp + sizeof(tmp); p++)
		buf_addstr(out, superscript[*p - '0']);
}
