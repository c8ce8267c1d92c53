#ifndef WATCH_H
#define WATCH_H

/*
 * `ultimate watch`: builds the site, then builds it again whenever a file
 * under the data or the templates folder changes, until SIGINT, SIGTERM
 * or SIGHUP. Each build is `ultimate report` itself, run in a child
 * process (see watch.c); this process only watches, waits and prints one
 * line per build.
 */
struct watch_options {
	const char *datadir;
	const char *templatedir;
	const char *outdir;
	int poll;		/* stat the folders instead of inotify */
	int serve;		/* serve outdir on 127.0.0.1:serve; -1: no */
};

/* What watch_run() returns in a child that is to build the site. */
#define WATCH_BUILD (-1)

/*
 * Watches until a signal ends it. Returns in two ways:
 * - WATCH_BUILD in a new child process, whose signal mask and handlers
 *   are as they were before the call and which holds nothing of the
 *   watcher's: it builds the site as `report` does and exits with
 *   report's status, which the watcher reads;
 * - in the watcher, the exit status: 0 when a signal ended it, 1 after
 *   printing an error when it cannot watch or serve.
 */
int watch_run(const struct watch_options *opt);

#endif
