#ifndef GNUPLOT_H
#define GNUPLOT_H

#include <stddef.h>

struct buf;

/*
 * The gnuplot process: started without a shell, in its own process
 * group, waiting for commands on its standard input; its messages read
 * from a pipe; its run bounded in time, and stopped with its whole group
 * on a timeout or when the run is interrupted. What it is told to draw
 * is the plot stage's business (plot.h).
 */
struct gnuplot;

/*
 * Starts prog (gnuplot) waiting for its commands and returns at once:
 * loading its libraries then overlaps the rest of the run. Never NULL:
 * when prog cannot be started, gnuplot_check() says so. From here
 * SIGCHLD is blocked until gnuplot_wait(). Free with gnuplot_stop().
 */
struct gnuplot *gnuplot_start(const char *prog);

/*
 * Whether g was started: 0, or -1 after printing why not (for a
 * missing gnuplot, the line that installs it).
 */
int gnuplot_check(const struct gnuplot *g);

/*
 * Writes cmd[0, len) to g's standard input (a dead gnuplot is seen in
 * its wait status, not as SIGPIPE). The first command starts the clock
 * that gnuplot_wait()'s timeout counts from.
 */
void gnuplot_send(struct gnuplot *g, const char *cmd, size_t len);

/* Whether g is running (started and not yet waited for); NULL: 0. */
int gnuplot_running(const struct gnuplot *g);

/*
 * Closes g's standard input and waits for it to end, reading its stderr
 * into err meanwhile (the first 64 KiB), but not for the end of its
 * stderr (a child of gnuplot may keep it open). When timeout seconds
 * have passed since the first command, its process group gets SIGTERM,
 * and SIGKILL two seconds later; when the run is interrupted, or when
 * timeout is 0, SIGKILL at once. Whatever gnuplot leaves running in its
 * group is killed. Returns gnuplot's wait status, or -1 when waiting
 * fails; *why is 0, 'T' when it ran out of time, or the signal that
 * interrupted the run.
 */
int gnuplot_wait(struct gnuplot *g, double timeout, struct buf *err,
		 int *why);

/* Stops g at once if it runs, and frees it; NULL does nothing. */
void gnuplot_stop(struct gnuplot *g);

#endif
