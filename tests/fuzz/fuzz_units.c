/*
 * libFuzzer target for unit strings (src/units.c): the input's first
 * line and second line as two units, each parsed, formatted and parsed
 * back, then multiplied, divided, added and raised to a power chosen by
 * the first byte. Asserts the invariants of units.h on every unit that
 * parses or comes out of the algebra: a finite scale above 0, exponents
 * from -UNIT_EXP_MAX to UNIT_EXP_MAX, and a calendar year only as s^1.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "units.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const struct unit *u)
{
	int i;

	if (!isfinite(u->scale) || !(u->scale > 0))
		abort();
	for (i = 0; i < U_NBASE; i++)
		if (u->exp[i] < -UNIT_EXP_MAX || u->exp[i] > UNIT_EXP_MAX)
			abort();
	if (u->calendar) {
		struct unit s;

		unit_one(&s);
		s.exp[U_S] = 1;
		if (memcmp(u->exp, s.exp, sizeof(s.exp)))
			abort();
	}
}

/*
 * u parsed: it holds the invariants, and its formatted text parses back
 * into the same dimension, at the same scale to the six digits printed.
 */
static void
round_trip(const struct unit *u)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct unit back;

	check(u);
	unit_format(&text, u);
	if (unit_parse(text.data, &back, &err) || err.len)
		abort();
	check(&back);
	if (!unit_same_dim(u, &back))
		abort();
	if (u->scale >= DBL_MIN &&
	    fabs(back.scale - u->scale) > 1e-5 * u->scale)
		abort();
	buf_release(&text);
	buf_release(&err);
}

/* -1 with r left as it was, or 0 with a unit that holds. */
static void
holds(int ret, const struct unit *r, const struct unit *was)
{
	if (ret && memcmp(r, was, sizeof(*r)))
		abort();
	if (!ret)
		check(r);
}

/* Products, quotients, sums and powers of a and b (op chooses). */
static void
algebra(const struct unit *a, const struct unit *b, uint8_t op)
{
	static const double powers[] = { 0, 1, -1, 2, -2, 3, 0.5, 1.0 / 3,
					 -0.25, 7, 50, -101, 1e300, NAN };
	double p = powers[op % (sizeof(powers) / sizeof(powers[0]))];
	struct unit r, was;

	memset(&was, 0xa5, sizeof(was));
	r = was;
	holds(unit_mul(&r, a, b), &r, &was);
	r = was;
	holds(unit_div(&r, a, b), &r, &was);
	r = was;
	holds(unit_pow(&r, a, p), &r, &was);
	if (!unit_add(&r, a, b, op & 1))
		check(&r);
	unit_same_si(a, b);
	unit_dimensionless(a);
	unit_is_count(a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1), *nl;
	struct unit a, b;
	struct buf err = BUF_INIT;
	int ok_a, ok_b = 0;

	memcpy(s, data, size);
	s[size] = '\0';
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	ok_a = !unit_parse(s, &a, &err);
	/* An error always says something; a success says nothing. */
	if (ok_a ? err.len != 0 : err.len == 0)
		abort();
	buf_reset(&err);
	if (ok_a)
		round_trip(&a);
	if (nl) {
		ok_b = !unit_parse(nl + 1, &b, &err);
		if (ok_b ? err.len != 0 : err.len == 0)
			abort();
		if (ok_b)
			round_trip(&b);
	}
	if (ok_a) {
		if (!ok_b)
			unit_one(&b);
		algebra(&a, &b, size ? data[0] : 0);
		algebra(&b, &a, size ? data[size - 1] : 0);
	}
	buf_release(&err);
	free(s);
	return 0;
}
