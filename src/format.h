#ifndef FORMAT_H
#define FORMAT_H

#include <stddef.h>

struct buf;

/*
 * Number formats for the report. Every function appends UTF-8 text to
 * out and returns 0, or returns -1 without touching out when the value
 * cannot be written in that format (NaN or infinity: the caller reports
 * it with a location). No function here prints anything.
 *
 * Rounding is done once, correctly, on the double itself (the digits of
 * snprintf "%.*e", or "%.*f"): 9.99951e49 to 4 digits is
 * "1.000 × 10⁵⁰", never "10.00 × 10⁴⁹"; 9.9995e49 is "9.999 × 10⁴⁹",
 * since the double nearest it lies just below the half; a value that
 * rounds to zero prints without a minus sign.
 *
 * A number never breaks across lines: the spaces a format writes inside
 * a number ("3.60 × 10⁹"), between a number and its unit ("250 GB") and
 * inside a unit ("J s") are FORMAT_NBSP, which reads as a space in a
 * terminal, a CSV cell or an SVG label, and needs no markup. The
 * examples below show them as plain spaces.
 */

/* U+00A0 NO-BREAK SPACE in UTF-8: what separates a number from its unit. */
#define FORMAT_NBSP "\xc2\xa0"

/*
 * Scientific with digits significant digits (1 to 17) and a Unicode
 * exponent: 5.4256e50 -> "5.426 × 10⁵⁰", 1.5e-35 -> "1.50 × 10⁻³⁵"
 * (digits 3). An exponent of 0 is left out: 2.5 -> "2.50". Negative
 * numbers get U+2212 MINUS SIGN: "−1.20 × 10³".
 */
int format_sci(struct buf *out, double v, int digits);
/* Plain e-notation with digits significant digits: "5.426e50", "1.5e-35". */
int format_e(struct buf *out, double v, int digits);
/* Fixed notation with decimals (0 to 17) decimals: "242.09", never "-0.0". */
int format_fixed(struct buf *out, double v, int decimals);
/*
 * Plain decimal rounded to digits significant digits, without exponent:
 * 242.09 (2) -> "240", 1.8814 (2) -> "1.9", 0.0012345 (2) -> "0.0012".
 * Values of 1e15 or more (or under 1e-6) fall back to format_sci().
 */
int format_sig(struct buf *out, double v, int digits);
/*
 * format_sig(), but a whole number of five digits or more is grouped by
 * three with commas, as prose writes it: 22000 (2) is "22,000", 1000 (2)
 * stays "1000" and 12481.5 (6) "12481.5".
 */
int format_sig_grouped(struct buf *out, double v, int digits);
/* Whole number with comma grouping: 1234567.4 -> "1,234,567". */
int format_int(struct buf *out, double v);
/*
 * A count: a whole number below 10^15 in magnitude, grouped as by
 * format_int(): 35 -> "35", 1234567 -> "1,234,567". Returns -1 for
 * anything else (35.5, 1e15, NaN), out untouched. Whether a value is a
 * count at all (a pure number, not 35 kg) is the caller's to decide.
 */
int format_count(struct buf *out, double v);
/*
 * 1 when a whole number of unit counts things, and is written by
 * format_count() where no format is asked for: a pure number ("" or "1":
 * machines, points, claims) or years ("yr": 15 years between two
 * editions). A whole number of bits, operations or joules is a physical
 * amount, not a count: 0.
 */
int format_count_unit(const char *unit);
/* A calendar year: rounded, no grouping: 2145.3 -> "2145". */
int format_year(struct buf *out, double v);
/*
 * The nearest power of ten: 5.4e50 -> "10⁵¹", 2.13e31 -> "10³¹"
 * (rounding log10(|v|) to the nearest integer). v must be > 0.
 */
int format_pow10(struct buf *out, double v);
/*
 * Bytes with SI prefixes (binary = 0: kB, MB, GB, TB, PB, EB, ZB, YB, RB,
 * QB, powers of 1000) or binary prefixes (binary = 1: KiB, MiB, GiB, ...
 * powers of 1024), digits significant digits: 2.5e11 -> "250 GB",
 * 4.4e13 -> "44.0 TB" (3). Below 1000 (or 1024): "512 B". Beyond the
 * largest prefix: scientific with the largest prefix.
 */
int format_bytes(struct buf *out, double v, int digits, int binary);
/*
 * A unit written for readers: "m^3" -> "m³", "bit/(m^2 s)" ->
 * "bit/(m² s)", "m^3/(kg s^2)" -> "m³/(kg s²)", "W/(m^2 K^4)" ->
 * "W/(m² K⁴)", "1/s" stays, "yr" stays. Any "^" followed by an optional
 * "-" and digits becomes superscripts, a space FORMAT_NBSP; everything
 * else is copied.
 */
void format_unit(struct buf *out, const char *unit);
/*
 * A number of unit unit in a few characters, for tables that compare
 * values (the changes, a quantity across editions): a calendar year
 * ("year") as a year, a count (format_count_unit(), and a value that
 * format_count() writes) with grouping,
 * anything from 0.001 to a million to four significant digits, the rest
 * scientific with four ("2.198 × 10¹⁸"). The unit is not written.
 */
void format_brief(struct buf *out, double v, const char *unit);
/*
 * "%.17g": the double as stored, which strtod() reads back exactly, for
 * the exports and gnuplot's data ("inf", "nan" as printf writes them).
 */
void format_exact(struct buf *out, double v);
/* Appends the exponent e in Unicode superscripts: -35 -> "⁻³⁵". */
void format_superscript(struct buf *out, int e);

#endif
