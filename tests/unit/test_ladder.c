/*
 * Unit tests for src/ladder.h, the placement of labels a dataset's
 * "place:" asks for (the ladder figure's machines): each label goes into
 * a slot of one column, and the leader line from a machine to its label
 * must cross no other, whatever the machines' speeds and memories.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "ladder.h"

#define MAXDEV 24

/* A machine: log10 of its memory (bits) and speed (ops/s). */
struct machine {
	double bits, ops;
};

/*
 * Which side of the line a -> b c is on, in the figure's decades (the
 * sign, all that is used, does not depend on the axes' scales).
 */
static double
side(const double *a, const double *b, const double *c)
{
	return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* Whether segments ab and cd have a point in common. */
static int
cross(const double *a, const double *b, const double *c, const double *d)
{
	return side(a, b, c) * side(a, b, d) <= 0 &&
	       side(c, d, a) * side(c, d, b) <= 0;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The number of pairs of the n segments from p[i] to s[i] that meet. */
static size_t
crossings(double (*p)[2], double (*s)[2], size_t n)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			k += (size_t)cross(p[i], s[i], p[j], s[j]);
	return k;
}

/*
 * Places the labels of the n machines m (distinct points) and checks
 * them: the slots are those of the rule (a column LADDER_GAP decades of
 * bits right of the rightmost machine, each LADDER_DROP decades below
 * its machine's speed in speed order but LADDER_LINE decades above the
 * one below), each used
 * once, and no two leader lines meet. Returns how many pairs met when
 * the i-th slowest machine had the i-th slot (the order before).
 */
static size_t
check_ladder(const struct machine *m, size_t n)
{
	struct ladder_machine dev[MAXDEV];
	double p[MAXDEV][2], s[MAXDEV][2], want[MAXDEV], got[MAXDEV];
	double col = -INFINITY, below = -INFINITY, ops[MAXDEV];
	size_t i, k, before;

	assert_true(n <= MAXDEV);
	for (i = 0; i < n; i++) {
		dev[i].ops = pow(10, m[i].ops);
		dev[i].bits = pow(10, m[i].bits);
		dev[i].seq = i;
		ops[i] = m[i].ops;
		if (m[i].bits > col)
			col = m[i].bits;
	}
	ladder_place(dev, n);
	col += LADDER_GAP;
	qsort(ops, n, sizeof(*ops), by_value);
	for (i = 0; i < n; i++) {
		want[i] = fmax(ops[i] - LADDER_DROP, below + LADDER_LINE);
		below = want[i];
	}
	for (k = 0; k < n; k++) {
		p[k][0] = log10(dev[k].bits);
		p[k][1] = log10(dev[k].ops);
		s[k][0] = log10(dev[k].label_bits);
		s[k][1] = got[k] = log10(dev[k].label_ops);
		assert_near(s[k][0], col, 1e-12);
		/* In speed order, as before. */
		assert_near(p[k][1], ops[k], 1e-12);
	}
	qsort(got, n, sizeof(*got), by_value);
	for (i = 0; i < n; i++)
		assert_near(got[i], want[i], 1e-12);
	if (crossings(p, s, n))
		fail_msg("%zu pairs of leader lines cross", crossings(p, s, n));
	for (i = 0; i < n; i++)
		s[i][1] = want[i];
	before = crossings(p, s, n);
	return before;
}

/*
 * The shipped data's pattern: a cluster of laptops and GPUs far left,
 * whose slots stack up above them, and faster machines with more memory
 * nearer the column, whose lines then ran across the cluster's.
 */
static void
test_ladder_uncrossed(void **state)
{
	static const struct machine m[] = {
		{ 9.6, 12.6 }, { 10.2, 13.6 }, { 9.9, 15.0 }, { 10.8, 15.3 },
		{ 11.0, 15.4 }, { 11.1, 15.6 }, { 11.8, 16.8 }, { 12.4, 16.9 },
		{ 12.2, 16.9 }, { 12.3, 17.2 }, { 14.8, 18.1 }, { 16.7, 21.4 },
	};

	(void)state;
	assert_true(check_ladder(m, sizeof(m) / sizeof(m[0])) > 0);
}

/* One machine, and none (only the limits' rows, which have no slots). */
static void
test_ladder_small(void **state)
{
	static const struct machine m[] = { { 12, 15 } };

	(void)state;
	assert_int_equal(check_ladder(m, 1), 0);
	assert_int_equal(check_ladder(m, 0), 0);
}

/* Random machines, from a fixed seed: no lines cross, for any data. */
static void
test_ladder_random(void **state)
{
	struct machine m[MAXDEV];
	uint64_t x = 12345;
	size_t t, i, n, crossed = 0;

	(void)state;
	for (t = 0; t < 300; t++) {
		n = 2 + t % (MAXDEV - 1);
		for (i = 0; i < n; i++) {
			x = x * UINT64_C(6364136223846793005) +
			    UINT64_C(1442695040888963407);
			m[i].bits = 9 + (double)(x >> 40 & 0xffff) / 0xffff * 9;
			x = x * UINT64_C(6364136223846793005) +
			    UINT64_C(1442695040888963407);
			m[i].ops = 12 + (double)(x >> 40 & 0xffff) / 0xffff * 10;
		}
		crossed += check_ladder(m, n) > 0;
	}
	/* The old order crossed in most of them. */
	assert_true(crossed > 100);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ladder_uncrossed),
		cmocka_unit_test(test_ladder_small),
		cmocka_unit_test(test_ladder_random),
	};

	return cmocka_run_group_tests_name("ladder", tests, NULL, NULL);
}
