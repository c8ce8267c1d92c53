/*
 * Stage timings for --timings: a stack of open stages over
 * CLOCK_MONOTONIC. Costs two clock reads per stage when unused.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
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

double
timing_now(void)
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
	double t = timing_now();

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
	double t = timing_now();

	if (!depth)
		return;
	depth--;
	stages[stack[depth].stage].secs += t - stack[depth].start;
	if (depth)
		stack[depth - 1].start = t;
}

/*
 * CPU seconds of this process alone (not of gnuplot, its child), in
 * user space and in the kernel, and its page faults.
 */
static void
cpu_self(double *user, double *sys, long *faults)
{
	struct rusage ru;

	*user = *sys = 0;
	*faults = 0;
	if (getrusage(RUSAGE_SELF, &ru))
		return;
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	*faults = ru.ru_minflt + ru.ru_majflt;
}

void
timing_print(void)
{
	double total = 0, wait = 0, user, sys;
	long faults;
	size_t i;

	for (i = 0; i < nstages; i++) {
		total += stages[i].secs;
		if (!strcmp(stages[i].name, "gnuplot"))
			wait = stages[i].secs;
	}
	for (i = 0; i < nstages; i++)
		fprintf(stderr, "timing: %-10s %9.3f ms\n", stages[i].name,
			stages[i].secs * 1e3);
	fprintf(stderr, "timing: %-10s %9.3f ms\n", "total", total * 1e3);
	/* What the program itself took, gnuplot apart. */
	fprintf(stderr, "timing: %-10s %9.3f ms\n", "own", (total - wait) *
		1e3);
	cpu_self(&user, &sys, &faults);
	fprintf(stderr, "timing: %-10s %9.3f ms\n", "own-cpu",
		(user + sys) * 1e3);
	fprintf(stderr, "timing: %-10s %9.3f ms\n", "own-user", user * 1e3);
	fprintf(stderr, "timing: %-10s %9.3f ms\n", "own-sys", sys * 1e3);
	fprintf(stderr, "timing: %-10s %9ld\n", "own-faults", faults);
}
