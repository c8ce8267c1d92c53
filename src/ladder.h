#ifndef LADDER_H
#define LADDER_H

#include <stddef.h>

struct dataset;

/*
 * The label-placement solver of the ladder figure (every machine and
 * limit by speed and memory): where each machine's label goes, in a
 * column to the right of the machines, so that no label sits on another
 * or on a point and no two leader lines cross.
 */

/* A machine of the ladder figure before its label is placed. */
struct ladder_machine {
	double ops, bits;	/* ops/s and bits, both finite and > 0 */
	const char *label;	/* borrowed */
	size_t seq;		/* the registry's order, for ties */
};

/*
 * Places the labels of the n machines devs and adds them to lad (columns
 * ops, bits, kind, label_bits, label_ops; kind 1), sorted by speed (devs
 * is reordered). Never fails.
 */
void ladder_place(struct ladder_machine *devs, size_t n, struct dataset *lad);

#endif
