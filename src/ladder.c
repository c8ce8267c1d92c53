/*
 * The ladder figure's label-placement solver (a part of the figure
 * data): reads the machines' speeds and memories; writes their rows,
 * with where each label goes, into the "ladder" dataset. Pure
 * arithmetic: no files, no registry, no messages.
 */
#include <math.h>
#include <stdlib.h>

#include "ladder.h"
#include "xalloc.h"
#include "banned.h"

static int
by_ops(const void *a, const void *b)
{
	const struct ladder_machine *x = a, *y = b;

	if (x->ops != y->ops)
		return x->ops < y->ops ? -1 : 1;
	if (x->bits != y->bits)
		return x->bits < y->bits ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* > 0 when c is left of the line a -> b, < 0 right of it, 0 on it. */
static double
turn(const double *a, const double *b, const double *c)
{
	return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/*
 * Whether the segments ab and cd meet, touching included. (It would take
 * all four ends on one line for this to be wrong, which two leader lines
 * ending at different heights of one column never are.)
 */
static int
segments_meet(const double *a, const double *b, const double *c,
	      const double *d)
{
	return turn(a, b, c) * turn(a, b, d) <= 0 &&
	       turn(c, d, a) * turn(c, d, b) <= 0;
}

static double
dist(const double *a, const double *b)
{
	return hypot(a[0] - b[0], a[1] - b[1]);
}

/*
 * The machines' labels of the ladder figure, drawn in its panel of the
 * machines alone (enlarged: the limits span 46 decades of speed, the
 * machines a fifth of them), in a column to the right of the rightmost
 * machine (LADDER_GAP decades of bits past it), one per line: the slots,
 * from the bottom, at max(the i-th slowest machine's speed /
 * 10^LADDER_DROP, the slot below x 10^LADDER_LINE), so that no label
 * sits on another or on a point. The panel is drawn at about 15 pixels
 * a decade on both axes: a line of its 12-point labels is 1.2 decades.
 *
 * A leader line runs from each machine to its label. Given the i-th
 * slowest the i-th slot, two lines cross when the machines' bits differ
 * enough, so the slots are dealt out again: for each pair of machines
 * whose lines meet, in a fixed order (by speed, then bits, then the
 * data's order), the two swap their slots, pass after pass until a pass
 * swaps none. Where p1-s1 and p2-s2 cross at X, |p1 s2| + |p2 s1| <
 * |p1 X| + |X s2| + |p2 X| + |X s1|, their length before the swap (the
 * triangle inequality; strict unless p1 = p2, as no machine is on a line
 * through two slots of the column): each swap shortens the lines' total
 * length, measured in the panel's pixels (LADDER_XPX, LADDER_YPX;
 * whether lines cross does not depend on the scale), and one that would
 * not (two machines at one point) is not made. So no assignment comes
 * back; there are finitely many, so the passes end, when no two lines
 * meet. n^2 passes bound them all the same (80 random machines take
 * about 10).
 *
 * Adds the rows to lad, sorted by speed (devs is reordered).
 */
#define LADDER_XPX 15.0	/* pixels per decade of bits */
#define LADDER_YPX 15.0	/* pixels per decade of ops/s */
void
ladder_place(struct ladder_machine *devs, size_t n)
{
	double col = -INFINITY, below = -INFINITY;
	double *lift = xcalloc(n ? n : 1, sizeof(*lift));
	double (*pt)[2] = xcalloc(n ? n : 1, sizeof(*pt));
	double (*slot)[2] = xcalloc(n ? n : 1, sizeof(*slot));
	size_t *to = xcalloc(n ? n : 1, sizeof(*to));
	size_t i, j, pass;
	int swapped = 1;

	for (i = 0; i < n; i++)
		if (log10(devs[i].bits) > col)
			col = log10(devs[i].bits);
	col += LADDER_GAP;
	qsort(devs, n, sizeof(*devs), by_ops);
	for (i = 0; i < n; i++) {
		double at = log10(devs[i].ops) - LADDER_DROP;

		if (at < below + LADDER_LINE)
			at = below + LADDER_LINE;
		below = lift[i] = at;
		pt[i][0] = log10(devs[i].bits) * LADDER_XPX;
		pt[i][1] = log10(devs[i].ops) * LADDER_YPX;
		slot[i][0] = col * LADDER_XPX;
		slot[i][1] = at * LADDER_YPX;
		to[i] = i;
	}
	for (pass = 0; swapped && pass < n * n; pass++) {
		swapped = 0;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				const double *a = slot[to[i]], *b = slot[to[j]];
				size_t t = to[i];

				if (!segments_meet(pt[i], a, pt[j], b) ||
				    !(dist(pt[i], b) + dist(pt[j], a) <
				      dist(pt[i], a) + dist(pt[j], b)))
					continue;
				to[i] = to[j];
				to[j] = t;
				swapped = 1;
			}
	}
	for (i = 0; i < n; i++) {
		devs[i].label_bits = pow(10, col);
		devs[i].label_ops = pow(10, lift[to[i]]);
	}
	free(lift);
	free(pt);
	free(slot);
	free(to);
}
