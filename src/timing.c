/*
 * Stage timings for --timings: a stack of open stages over
 * CLOCK_MONOTONIC. Costs two clock reads per stage when unused.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "timing.h"
#include "banned.h"

#define MAX_STAGES 16
#define MAX_DEPTH 8

static struct {
	const char *name;
	double secs;
} stages[MAX_STAGES];
static size_t nstages;
static struct {
	size_t stage;
	double start;
} stack[MAX_DEPTH];
static size_t depth;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t
stage_index(const char *name)
{
	size_t i;

	for (i = 0; i < nstages; i++)
		if (!strcmp(stages[i].name, name))
			return i;
	if (nstages == MAX_STAGES)
		return MAX_STAGES - 1;
	stages[nstages].name = name;
	return nstages++;
}

void
timing_begin(const char *stage)
{
	double t = now();

	if (depth == MAX_DEPTH)
		return;
	/* The parent stops counting while the child runs. */
	if (depth)
		stages[stack[depth - 1].stage].secs += t - stack[depth - 1].start;
	stack[depth].stage = stage_index(stage);
	stack[depth++].start = t;
}

void
timing_end(void)
{
	double t = now();

	if (!depth)
		return;
	depth--;
	stages[stack[depth].stage].secs += t - stack[depth].start;
	if (depth)
		stack[depth - 1].start = t;
}

void
timing_print(void)
{
	double total = 0;
	size_t i;

	for (i = 0; i < nstages; i++)
		total += stages[i].secs;
	for (i = 0; i < nstages; i++)
		fprintf(stderr, "timing: %-10s %9.3f ms\n", stages[i].name,
			stages[i].secs * 1e3);
	fprintf(stderr, "timing: %-10s %9.3f ms\n", "total", total * 1e3);
}
