#ifndef TIMING_H
#define TIMING_H

/*
 * Wall-clock time per pipeline stage, for `ultimate --timings`. Stages
 * are named by string literals; timing_begin() starts a stage and
 * timing_end() adds the elapsed time to it. Nested stages subtract from
 * their parent, so the stages add up to the whole run.
 */
/* Seconds on the monotonic clock, for measuring spans of time. */
double timing_now(void);

void timing_begin(const char *stage);
void timing_end(void);
/*
 * Prints every stage and the total to stderr, in first-use order, then
 * "own" (the total without the "gnuplot" stage, the wait for gnuplot)
 * and "own-cpu" (CPU time of this process, user and system, which
 * leaves out gnuplot and every other child).
 */
void timing_print(void);

#endif
