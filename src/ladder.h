#ifndef LADDER_H
#define LADDER_H

#include <stddef.h>

/*
 * The label-placement solver of the ladder figure (every machine and
 * limit by speed and memory): where each machine's label goes, in a
 * column to the right of the machines, so that no label sits on another
 * or on a point and no two leader lines cross.
 */

/*
 * The column of labels (in decades): LADDER_GAP right of the rightmost
 * point; each label LADDER_DROP below its point's height, but
 * LADDER_LINE above the label below it. ladder.gp draws them so.
 */
#define LADDER_GAP 1.0
#define LADDER_DROP 0.5
#define LADDER_LINE 1.2

/* A point whose label is placed: x and y both finite and > 0. */
struct ladder_machine {
	double ops, bits;	/* y and x (speed and memory on the ladder) */
	size_t seq;		/* the data's order, for ties */
	double label_bits, label_ops;	/* where its label goes */
};

/*
 * Places the labels of the n points devs (a dataset's "place:"): sorts
 * devs by y, then x, then seq, and sets each one's label_bits and
 * label_ops. Never fails.
 */
void ladder_place(struct ladder_machine *devs, size_t n);

#endif
