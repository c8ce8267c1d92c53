#ifndef WATCH_H
#define WATCH_H

/*
 * `ultimate watch`: builds the site, then builds it again whenever a file
 * under the data or the templates folder changes, until SIGINT, SIGTERM
 * or SIGHUP. Each build is `ultimate report` itself, run in a child
 * process (see watch.c); this process only watches, waits and prints one
 * line per build. With every edition, a change is built in two: the
 * newest edition first, published with the rest of the site as it was,
 * then the whole site; a change during the second starts over.
 */
struct watch_options {
	const char *datadir;
	const char *templatedir;
	const char *outdir;
	int poll;		/* stat the folders instead of inotify */
	int serve;		/* serve outdir on port serve; -1: no */
	const char *host;	/* and address host; NULL: 127.0.0.1 */
	int editions;		/* every edition: the newest is built first */
	int open;		/* with serve: open the browser on it */
};

/*
 * What watch_run() returns in a child that is to build the site: the
 * whole site, or the newest edition alone (report_options.newest).
 */
#define WATCH_BUILD (-1)
#define WATCH_BUILD_NEWEST (-2)

/*
 * Watches until a signal ends it. Returns in two ways:
 * - WATCH_BUILD or WATCH_BUILD_NEWEST in a new child process, whose signal mask and handlers
 *   are as they were before the call and which holds nothing of the
 *   watcher's: it builds the site as `report` does and exits with
 *   report's status, which the watcher reads;
 * - in the watcher, the exit status: 0 when a signal ended it, 1 after
 *   printing an error when it cannot watch or serve.
 */
int watch_run(const struct watch_options *opt);

#endif
