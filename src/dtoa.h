#ifndef DTOA_H
#define DTOA_H

#include <stddef.h>

/*
 * Decimal digits of doubles, byte for byte what glibc's printf writes
 * (in the default rounding mode, which this program never changes), but
 * without its multiple-precision arithmetic on the common path. Nothing
 * here allocates or prints.
 */

#define DTOA_MAX_DIGITS 17
/* Room for any dtoa_g() result: "-1.2345678901234567e-308" and a NUL. */
#define DTOA_G_SIZE 32

/*
 * Rounds the finite |v| to n significant digits (1 to DTOA_MAX_DIGITS),
 * correctly, exact halves to even: the digits of snprintf("%.*e",
 * n - 1, v). Writes the n digits and a NUL to d and returns the decimal
 * exponent of the first digit. Zero gives n '0's and exponent 0.
 */
int dtoa_round(double v, int n, char d[DTOA_MAX_DIGITS + 1]);

/*
 * snprintf(out, DTOA_G_SIZE, "%.*g", n, v) for n from 1 to
 * DTOA_MAX_DIGITS: the same bytes, for every double. Returns the length.
 * "%.17g" reads back to the same double.
 */
size_t dtoa_g(char out[DTOA_G_SIZE], double v, int n);

/* Room for any dtoa_fixed() result: 19 digits, sign, point and NUL. */
#define DTOA_FIXED_SIZE 24

/*
 * snprintf(out, DTOA_FIXED_SIZE, "%.*f", decimals, v), the same bytes,
 * for decimals from 0 to DTOA_MAX_DIGITS and |v| 10^decimals below
 * 2^63; returns the length, or -1 (out untouched) for anything else,
 * NaN and infinity included, which the caller gives to snprintf().
 */
int dtoa_fixed(char out[DTOA_FIXED_SIZE], double v, int decimals);

#endif
