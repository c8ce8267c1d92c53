/*
 * The watch command: builds the site, then watches the data and the
 * templates folders and builds it again after each change, printing one
 * line per build to stdout. Reads only the folders' file metadata (never
 * their contents); the builds read the inputs and write the site.
 *
 * Each build is a child process forked from the watcher, which returns
 * into main() and runs the report path as `ultimate report` would, then
 * exits; the watcher waits for it. A process per build, not a call:
 * - the report path is made for one run per process: it catches the run
 *   signals, holds out/.lock, spawns gnuplot and keeps statics (error
 *   counts, the confined folders); a child gets all of that fresh, and
 *   nothing it allocates or leaks reaches the next build;
 * - a crash, an abort() or a die() in a build ends the child, not the
 *   watcher, and out/ stays as the site's publish left it;
 * - stopping is the report's own clean stop: SIGINT from the terminal
 *   reaches both processes, SIGTERM or SIGHUP sent to the watcher alone
 *   is passed on, and the child stops gnuplot (its process group), leaves
 *   out/ as it was or finishes a publish under way (signals wait while it
 *   publishes), and its lock dies with it; the watcher ends only after
 *   reaping it.
 * fork() without exec() is safe here: the watcher has a single thread.
 * Of other programs it runs only the browser, with --open (gnuplot.c and
 * pdf.c spawn theirs).
 *
 * With every edition, a change is built in two children: NEWEST, the
 * newest edition alone published with the rest of the site kept as it
 * was (report_options.newest; by the journal, which moves only the
 * files that changed: the preview reloads after it), then REST, the
 * whole site. A change seen
 * while REST runs stops it (SIGTERM: its clean stop) and starts over
 * with NEWEST. Until a whole site has been published (the first build
 * failed), a change builds the whole site at once.
 *
 * With --serve, a build's stderr is a pipe read here, passed on to the
 * terminal as it comes and kept: the browser is told of each finished
 * build (serve_set_state()), with those errors when it failed. With
 * --open too, the browser is started on the preview's address once the
 * first build is done.
 *
 * What changed is found by comparing two snapshots of the folders (every
 * file's path, device, inode, size, mode and modification time), which
 * both ways of waiting share: inotify (Linux) only says when to look
 * again, and the portable way takes a snapshot every POLL_MS. So a file
 * replaced by rename, a new subfolder (watched as soon as it is seen)
 * and a lost or overflowing event queue all come out the same. A burst
 * of changes (an editor writing a temporary file and renaming it over
 * the old one) is one change once the folders have been quiet for
 * QUIET_MS. An editor's own files build nothing (ignored()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#define HAVE_INOTIFY 1
#endif

#include "buf.h"
#include "diag.h"
#include "serve.h"
#include "site.h"
#include "timing.h"
#include "watch.h"
#include "xalloc.h"
#include "banned.h"

#define POLL_MS 300	/* between two snapshots, polling */
#define QUIET_MS 50	/* no change for this long: a burst has ended */
#define SETTLE_MS 500	/* the longest wait for a preview to reload */
#define BURST_MS 2000	/* the longest wait for a burst to end */
#define MAX_DEPTH 32	/* folders nested deeper are not watched */
#define SHOW_NAMES 3	/* files named in a line, then "and N more" */
#define ERRORS_MAX 65536	/* of a build's stderr, kept for the browser */
#define OPENER "xdg-open"	/* opens an address, without $BROWSER */
#define CHANGED_MAX 200	/* files a build changed, told the preview */

/* POSIX: the application declares it. */
extern char **environ;

/* What a build builds. */
enum phase {
	WHOLE,			/* the site */
	NEWEST,			/* the newest edition, the rest kept */
	REST,			/* the site, after NEWEST */
};

#ifdef HAVE_INOTIFY
/* A file written and closed, made, removed or renamed; a folder gone. */
#define WATCH_EVENTS (IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |\
		      IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF |\
		      IN_ONLYDIR)
#endif

struct entry {
	char *path;		/* folder/relative/path, owned */
	struct stat st;		/* of what a symbolic link leads to */
};

/* Every file under the two folders, sorted by path. */
struct snapshot {
	struct entry *e;
	size_t n, cap;
};

struct watcher {
	const struct watch_options *opt; /* borrowed */
	int ino;		/* inotify descriptor, or -1: polling */
	int ino_error;		/* errno of a failed inotify_add_watch() */
	struct serve *http;	/* the preview server, or NULL */
	int errfd;		/* a build's stderr, read here, or -1 */
	struct buf errors;	/* what the build printed there */
	struct buf manifest;	/* of the site the preview was last told of */
	struct buf changed;	/* published() */
	pid_t opener;		/* the browser started (--open), or 0 */
	const char *opener_name;	/* its program, for messages */
	int restart;		/* a change came during a REST build */
	int reloading;		/* preview pages told to reload by say() */
	int whole;		/* a whole site has been published */
	sigset_t oldmask;	/* the caller's signal mask */
	struct sigaction oldchld; /* the caller's SIGCHLD action */
	struct snapshot built;	/* the folders as the last build saw them */
	struct snapshot now, prev;
};

/* One line of the watch's own: user text shown, not obeyed. */
static void
say_line(const struct buf *line)
{
	diag_fputs(line->data, stdout);
	putchar('\n');
	fflush(stdout);
}

/*
 * Starts the browser on url: $BROWSER (a program's name or path) when
 * set, else xdg-open; without a shell, its input and output /dev/null,
 * in a process group of its own (Ctrl-C on the watch leaves the browser
 * open). Not waited for: reap_opener() collects it. One line when it
 * cannot be started; the watch goes on.
 */
static void
open_browser(struct watcher *w, const char *url)
{
	const char *prog = getenv("BROWSER");
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct buf line = BUF_INIT;
	char *argv[3];
	int err, fd, given = prog && *prog;

	if (!given)
		prog = OPENER;
	argv[0] = xstrdup(prog);
	argv[1] = xstrdup(url);
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	for (fd = 0; fd < 3; fd++)
		posix_spawn_file_actions_addopen(&fa, fd, "/dev/null",
						 fd ? O_WRONLY : O_RDONLY, 0);
	posix_spawnattr_init(&at);
	diag_child_attr(&at);
	err = posix_spawnp(&w->opener, prog, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	free(argv[0]);
	free(argv[1]);
	if (err) {
		w->opener = 0;
		buf_addf(&line, "watch: cannot open a browser: '%s': %s (%s); "
			 "open %s by hand", prog, strerror(err),
			 given ? "from BROWSER" :
			 "install xdg-utils, or set BROWSER", url);
		say_line(&line);
	}
	w->opener_name = prog;
	buf_release(&line);
}

/* Collects the browser started, once it has ended: one line if it failed. */
static void
reap_opener(struct watcher *w)
{
	struct buf line = BUF_INIT;
	int status;

	if (w->opener <= 0 || waitpid(w->opener, &status, WNOHANG) != w->opener)
		return;
	w->opener = 0;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return;
	buf_addf(&line, "watch: '%s' did not open the browser (%s %d)",
		 w->opener_name, WIFEXITED(status) ? "exit status" : "signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	say_line(&line);
	buf_release(&line);
}

/* Does nothing but end pselect() with EINTR when a build ends. */
static void
on_child(int sig)
{
	(void)sig;
}

/* Milliseconds on the monotonic clock. */
static double
now_ms(void)
{
	return timing_now() * 1e3;
}

static void
snapshot_clear(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->e[i].path);
	s->n = 0;
}

static void
snapshot_release(struct snapshot *s)
{
	snapshot_clear(s);
	free(s->e);
	s->e = NULL;
	s->cap = 0;
}

static void
snapshot_swap(struct snapshot *a, struct snapshot *b)
{
	struct snapshot t = *a;

	*a = *b;
	*b = t;
}

/*
 * Names left out: those starting with '.', as the inputs key
 * (hash_tree()) leaves them out (vim's .name.swp, emacs's .#name), and
 * an editor's autosave and backup files (#name#, name~).
 */
static int
ignored(const char *name)
{
	size_t len = strlen(name);

	return name[0] == '.' || name[0] == '#' || !len ||
	       name[len - 1] == '~';
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

/*
 * Adds every file under dir to s, and watches dir and every folder in it
 * when inotify is in use (a folder already watched keeps its watch).
 */
static void
walk(struct watcher *w, struct snapshot *s, const char *dir, int depth)
{
	struct buf path = BUF_INIT;
	struct dirent *d;
	struct stat st;
	DIR *dp;

#ifdef HAVE_INOTIFY
	/* Watched before it is read: nothing made meanwhile is missed. */
	if (w->ino >= 0 && inotify_add_watch(w->ino, dir, WATCH_EVENTS) < 0 &&
	    errno != ENOENT && errno != ENOTDIR && !w->ino_error)
		w->ino_error = errno;
#endif
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (ignored(d->d_name))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, d->d_name);
		if (lstat(path.data, &st))
			continue;	/* gone meanwhile */
		if (S_ISDIR(st.st_mode)) {
			if (depth < MAX_DEPTH)
				walk(w, s, path.data, depth + 1);
			continue;
		}
		if (S_ISLNK(st.st_mode))
			stat(path.data, &st);	/* else the link itself */
		s->e = xgrow(s->e, &s->cap, s->n + 1, sizeof(*s->e));
		s->e[s->n].path = xstrdup(path.data);
		s->e[s->n++].st = st;
	}
	closedir(dp);
	buf_release(&path);
}

static void
scan(struct watcher *w, struct snapshot *s)
{
	snapshot_clear(s);
	walk(w, s, w->opt->datadir, 0);
	walk(w, s, w->opt->templatedir, 0);
	if (s->n)
		qsort(s->e, s->n, sizeof(*s->e), by_path);
#ifdef HAVE_INOTIFY
	/* Out of watches (fs.inotify.max_user_watches): poll instead. */
	if (w->ino >= 0 && w->ino_error) {
		printf("watch: cannot watch with inotify (%s); polling every "
		       "%d ms instead\n", strerror(w->ino_error), POLL_MS);
		fflush(stdout);
		close(w->ino);
		w->ino = -1;
	}
#endif
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size && a->st_mode == b->st_mode &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/*
 * The number of files that differ from snapshot a to b; when msg is not
 * NULL, says which into it: "data/x.csv changed, templates/y.md added
 * and 2 more".
 */
static size_t
diff(const struct snapshot *a, const struct snapshot *b, struct buf *msg)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 :
			strcmp(a->e[i].path, b->e[j].path);
		const char *name, *what;

		if (c < 0) {
			name = a->e[i++].path;
			what = "removed";
		} else if (c > 0) {
			name = b->e[j++].path;
			what = "added";
		} else {
			name = a->e[i].path;
			what = "changed";
			if (same_file(&a->e[i++].st, &b->e[j++].st))
				continue;
		}
		if (msg && n < SHOW_NAMES)
			buf_addf(msg, "%s%s %s", n ? ", " : "", name, what);
		n++;
	}
	if (msg && n > SHOW_NAMES)
		buf_addf(msg, " and %zu more", n - SHOW_NAMES);
	return n;
}

/*
 * Reads what the build wrote to its stderr (when the browser is served)
 * and passes it on to ours: the terminal sees it as it comes, and the
 * browser once the build is done. At the end of the pipe, closes it.
 */
static void
read_errors(struct watcher *w)
{
	char chunk[4096];
	ssize_t n;

	while (w->errfd >= 0) {
		n = read(w->errfd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			close(w->errfd);
			w->errfd = -1;
			return;
		}
		fwrite(chunk, 1, (size_t)n, stderr);
		fflush(stderr);
		if (w->errors.len < ERRORS_MAX)
			buf_add(&w->errors, chunk, (size_t)n);
	}
}

/*
 * Waits at most ms milliseconds (< 0: without end) for fd (-1: none) to
 * be readable, answering the browser meanwhile: its sockets are waited
 * on here too, and served without blocking, so a client never delays a
 * build or the watch; so is the build's stderr (read_errors()). The run signals and SIGCHLD, blocked elsewhere,
 * arrive only in here, so that none is missed between a check and the
 * wait. Returns 1 when fd is readable, 0 when the time is up, -1 when a
 * signal arrived (or pselect() failed).
 */
static int
wait_for(struct watcher *w, int fd, double ms)
{
	double end = now_ms() + ms;
	sigset_t mask = w->oldmask;

	diag_signal_set(&mask, 0);
	sigdelset(&mask, SIGCHLD);
	for (;;) {
		struct timespec ts, *tp = NULL;
		fd_set rd, wr;
		double left = -1;
		int nfds = 0, r;

		FD_ZERO(&rd);
		FD_ZERO(&wr);
		if (fd >= 0) {
			FD_SET(fd, &rd);
			nfds = fd + 1;
		}
		if (w->errfd >= 0) {
			FD_SET(w->errfd, &rd);
			if (w->errfd >= nfds)
				nfds = w->errfd + 1;
		}
		if (ms >= 0) {
			left = end - now_ms();
			if (left <= 0)
				return 0;
		}
		/* Lowers left to the nearest deadline of a connection. */
		if (w->http)
			nfds = serve_fds(w->http, &rd, &wr, nfds, &left);
		if (left >= 0) {
			ts.tv_sec = (time_t)(left / 1e3);
			ts.tv_nsec = (long)((left - (double)ts.tv_sec * 1e3) *
					    1e6);
			tp = &ts;
		}
		r = pselect(nfds, &rd, &wr, NULL, tp, &mask);
		reap_opener(w);
		if (r < 0)
			return -1;
		if (w->http)
			serve_run(w->http, &rd, &wr);
		if (w->errfd >= 0 && FD_ISSET(w->errfd, &rd))
			read_errors(w);
		if (fd >= 0 && FD_ISSET(fd, &rd))
			return 1;
	}
}

#ifdef HAVE_INOTIFY
/*
 * Reads every pending event. Returns 1 when one may matter: about a
 * name not ignored(), about a watched folder itself, or a lost event
 * (the queue overflowed); else 0.
 */
static int
drain(int fd)
{
	union {
		struct inotify_event ev;
		char bytes[8192];
	} u;
	ssize_t n;
	int matters = 0;

	while ((n = read(fd, u.bytes, sizeof(u.bytes))) > 0) {
		size_t off = 0;

		while (off + sizeof(struct inotify_event) <= (size_t)n) {
			struct inotify_event ev;

			memcpy(&ev, u.bytes + off, sizeof(ev));
			if (!ev.len || (ev.mask & IN_Q_OVERFLOW) ||
			    !ignored(u.bytes + off + sizeof(ev)))
				matters = 1;
			off += sizeof(ev) + ev.len;
		}
	}
	return matters;
}
#endif

/*
 * A change is seen (on 1), or came to nothing (0): with --serve, a page
 * asking meanwhile is answered when the build ends (serve_hold()), so
 * that it reloads then, not up to a polling interval later.
 */
static void
hold(struct watcher *w, int on)
{
	if (w->http)
		serve_hold(w->http, on);
}

/*
 * Waits until the folders differ from w->built and have settled; when
 * pending, a change has been seen already (w->now holds it, polling),
 * and only the settling is waited for. Returns 1 with w->now holding
 * them, or 0 when a signal came.
 */
static int
wait_change(struct watcher *w, int pending)
{
	double start;
	int r;

	while (!diag_interrupted()) {
#ifdef HAVE_INOTIFY
		if (w->ino >= 0) {
			if (!pending && (wait_for(w, w->ino, -1) <= 0 ||
					 !drain(w->ino)))
				continue;
			pending = 0;
			hold(w, 1);
			start = now_ms();
			while (now_ms() - start < BURST_MS &&
			       (r = wait_for(w, w->ino, QUIET_MS)) != 0) {
				if (r > 0)
					drain(w->ino);
				else if (diag_interrupted())
					return 0;
			}
			scan(w, &w->now);
			if (diff(&w->built, &w->now, NULL))
				return 1;
			hold(w, 0);
			continue;
		}
#endif
		if (!pending) {
			if (wait_for(w, -1, POLL_MS) < 0)
				continue;
			scan(w, &w->now);
			if (!diff(&w->built, &w->now, NULL))
				continue;
		}
		pending = 0;
		hold(w, 1);
		/* Until two snapshots QUIET_MS apart agree. */
		start = now_ms();
		do {
			snapshot_swap(&w->prev, &w->now);
			r = wait_for(w, -1, QUIET_MS);
			if (r < 0 && diag_interrupted())
				return 0;
			scan(w, &w->now);
		} while (diff(&w->prev, &w->now, NULL) &&
			 now_ms() - start < BURST_MS);
		if (diff(&w->built, &w->now, NULL))
			return 1;
		hold(w, 0);
	}
	return 0;
}

/*
 * While a REST build runs: waits for an event (inotify) or POLL_MS, and
 * returns 1 when the folders have changed since w->built (w->now holds
 * them); else 0 (also when the build ended: SIGCHLD).
 */
static int
changed_meanwhile(struct watcher *w)
{
#ifdef HAVE_INOTIFY
	if (w->ino >= 0) {
		if (wait_for(w, w->ino, -1) <= 0 || !drain(w->ino))
			return 0;
		scan(w, &w->now);
		return diff(&w->built, &w->now, NULL) != 0;
	}
#endif
	if (wait_for(w, -1, POLL_MS) < 0)
		return 0;
	scan(w, &w->now);
	return diff(&w->built, &w->now, NULL) != 0;
}

/* Closes, frees and restores all the watcher took; again does nothing. */
static void
release(struct watcher *w)
{
	if (w->ino >= 0)
		close(w->ino);
	if (w->errfd >= 0)
		close(w->errfd);
	w->errfd = -1;
	buf_release(&w->errors);
	buf_release(&w->manifest);
	buf_release(&w->changed);
	serve_free(w->http);
	w->http = NULL;
	w->ino = -1;
	snapshot_release(&w->built);
	snapshot_release(&w->now);
	snapshot_release(&w->prev);
	sigaction(SIGCHLD, &w->oldchld, NULL);
	sigprocmask(SIG_SETMASK, &w->oldmask, NULL);
}

/*
 * Builds the site (phase) in a child process and waits for it, passing
 * on a signal that ends the watcher; when serving, the child's stderr
 * comes through a pipe into w->errors. A REST build is stopped (SIGTERM,
 * its clean stop) when the folders change meanwhile: then w->restart is
 * set. Returns WATCH_BUILD or WATCH_BUILD_NEWEST in the child; in the
 * watcher 0, with *status the child's wait status (-1 when it could not
 * be started) and *ms the time it took.
 */
static int
build(struct watcher *w, enum phase phase, int *status, double *ms)
{
	double start = now_ms();
	int pipefd[2] = { -1, -1 };
	pid_t pid, r;
	int passed = 0;

	*status = -1;
	*ms = 0;
	w->restart = 0;
	buf_reset(&w->errors);
	hold(w, 1);	/* until say() gives the browser its outcome */
	if (w->http && pipe(pipefd)) {
		error("cannot start a build: %s", strerror(errno));
		return 0;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		error("cannot start a build: %s", strerror(errno));
		if (pipefd[0] >= 0) {
			close(pipefd[0]);
			close(pipefd[1]);
		}
		return 0;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (pipefd[1] >= 0) {
			dup2(pipefd[1], STDERR_FILENO);
			close(pipefd[0]);
			close(pipefd[1]);
		}
		/*
		 * What a build says on stdout (report's "report: out/index.html"
		 * line) the watcher says in its own line for the build.
		 */
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		release(w);
		return phase == NEWEST ? WATCH_BUILD_NEWEST : WATCH_BUILD;
	}
	if (pipefd[0] >= 0) {
		close(pipefd[1]);
		fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		w->errfd = pipefd[0];
	}
	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (diag_interrupted() && !passed) {
			kill(pid, diag_interrupted());
			passed = 1;
		}
		if (phase == REST && !passed && !w->restart) {
			if (changed_meanwhile(w)) {
				w->restart = 1;
				kill(pid, SIGTERM);
			}
		} else {
			wait_for(w, -1, -1);
		}
	}
	/* What is left in the pipe; a grandchild may hold it: no wait. */
	read_errors(w);
	if (w->errfd >= 0)
		close(w->errfd);
	w->errfd = -1;
	*ms = now_ms() - start;
	return 0;
}

/*
 * The files the build just published changed since the site the
 * preview was last told of (one a line), or NULL when that is not known
 * (no site before, or more than CHANGED_MAX files): a page open then
 * reloads whether it changed or not. Valid until the next call.
 */
static const char *
published(struct watcher *w)
{
	struct buf now = BUF_INIT;
	int n;

	buf_reset(&w->changed);
	site_manifest(w->opt->outdir, &now);
	n = w->manifest.len && now.len ?
	    site_changes(w->manifest.data, now.data, CHANGED_MAX,
			 &w->changed) : -1;
	buf_release(&w->manifest);
	w->manifest = now;
	return n < 0 ? NULL : w->changed.data ? w->changed.data : "";
}

/* One line on how a build (of phase) went. */
static void
say(struct watcher *w, const char *what, enum phase phase, int status,
    double ms)
{
	const char *out = w->opt->outdir;
	size_t len = strlen(out);
	const char *slash = len && out[len - 1] == '/' ? "" : "/";
	struct buf line = BUF_INIT;

	if (diag_interrupted())
		return;		/* the build said so */
	buf_addf(&line, "watch: %s%s", what ? what : "", what ? "; " : "");
	if (phase == REST && w->restart)
		buf_addf(&line, "the other editions' build stopped after %.0f "
			 "ms: a newer change, built from the newest edition "
			 "again", ms);
	else if (status == 0 && phase == NEWEST)
		buf_addf(&line, "rebuilt the newest edition in %s%s in %.0f "
			 "ms; the other editions next", out, slash, ms);
	else if (status == 0 && phase == REST)
		buf_addf(&line, "rebuilt the other editions in %s%s in %.0f ms",
			 out, slash, ms);
	else if (status == 0)
		buf_addf(&line, "%s %s%s in %.0f ms",
			 what ? "rebuilt" : "built", out, slash, ms);
	else if (status != -1 && WIFEXITED(status))
		buf_addf(&line, "%sbuild failed (exit status %d) in %.0f ms; "
			 "%s%s %s", phase == REST ? "the other editions' " : "",
			 WEXITSTATUS(status), ms, out, slash, phase == REST ?
			 "has the newest edition rebuilt, the others as they "
			 "were" : "left as it was");
	else if (status != -1 && WIFSIGNALED(status))
		buf_addf(&line, "build killed by signal %d after %.0f ms; "
			 "%s%s left as it was", WTERMSIG(status), ms, out,
			 slash);
	else
		buf_addf(&line, "no build; %s%s left as it was", out, slash);
	/* File names are shown, not obeyed by the terminal. */
	say_line(&line);
	/* The browser: reloaded, or shown what failed. */
	w->reloading = 0;
	if (w->http && !(phase == REST && w->restart)) {
		if (status == 0)
			w->reloading = serve_set_state(w->http, NULL,
						       published(w));
		else
			w->reloading = serve_set_state(w->http, w->errors.len ?
						       w->errors.data :
						       line.data, NULL);
	}
	buf_release(&line);
}

/*
 * When say() told preview pages to reload: serves until one of them is
 * back (asks for the status again), at most SETTLE_MS, before the other
 * editions' build takes the machine from the browser. A prose edit is
 * then on screen at 322 ms instead of 367 (medians, 6 paired runs,
 * headless Chromium on 2 cores, docs/bench.md); with no page open,
 * nothing is waited for.
 */
static void
settle(struct watcher *w)
{
	double start = now_ms(), left = SETTLE_MS;

	/* Looked at every 10 ms: wait_for() serves until its time is up. */
	while (w->reloading && left > 0 && !serve_page_back(w->http) &&
	       !diag_interrupted()) {
		wait_for(w, -1, left < 10 ? left : 10);
		left = SETTLE_MS - (now_ms() - start);
	}
}

/*
 * Builds what changed (what: which files), in two phases when there
 * are editions. Returns WATCH_BUILD or WATCH_BUILD_NEWEST in a child;
 * else 0, or 1 when a change came during the second phase (w->now
 * holds it, still settling).
 */
static int
rebuild(struct watcher *w, const char *what)
{
	double ms;
	int status, r;

	/*
	 * The newest edition alone keeps the rest of a whole site: until
	 * one has been published, the whole site at once.
	 */
	if (!w->opt->editions || !w->whole) {
		r = build(w, WHOLE, &status, &ms);
		if (r)
			return r;
		say(w, what, WHOLE, status, ms);
		w->whole = status == 0;
		return 0;
	}
	r = build(w, NEWEST, &status, &ms);
	if (r)
		return r;
	say(w, what, NEWEST, status, ms);
	if (status != 0 || diag_interrupted())
		return 0;
	settle(w);
	r = build(w, REST, &status, &ms);
	if (r)
		return r;
	say(w, NULL, REST, status, ms);
	if (status == 0)
		w->whole = 1;
	return w->restart;
}

int
watch_run(const struct watch_options *opt)
{
	struct watcher w = { .opt = opt, .ino = -1, .http = NULL,
			     .errfd = -1, .errors = BUF_INIT,
			     .manifest = BUF_INIT, .changed = BUF_INIT };
	const char *dirs[2] = { opt->datadir, opt->templatedir };
	struct buf what = BUF_INIT, url = BUF_INIT;
	struct sigaction sa;
	sigset_t block;
	double ms;
	int status, ret = 0, pending = 0, i;

	/* A signal ends the watch: until then, it is held for pselect(). */
	diag_catch_signals();
	sigemptyset(&block);
	diag_signal_set(&block, 1);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &w.oldmask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &w.oldchld);

	for (i = 0; i < 2; i++) {
		DIR *d = opendir(dirs[i]);

		if (!d) {
			ret = 1;
			error("cannot watch '%s': %s (choose the %s folder "
			      "with %s)", dirs[i], strerror(errno),
			      i ? "templates" : "data", i ? "-t" : "-d");
			goto out;
		}
		closedir(d);
	}
	if (opt->serve >= 0 && !(w.http = serve_open(opt->host, opt->serve,
						     opt->outdir, &url))) {
		ret = 1;
		goto out;
	}
#ifdef HAVE_INOTIFY
	if (!opt->poll) {
		w.ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (w.ino < 0)
			printf("watch: cannot use inotify (%s); polling every "
			       "%d ms instead\n", strerror(errno), POLL_MS);
	}
#endif
	scan(&w, &w.built);
	/* Folder names are shown, not obeyed by the terminal. */
	buf_addf(&what, "watch: watching '%s' and '%s' (%s); Ctrl-C stops",
		 opt->datadir, opt->templatedir,
		 w.ino >= 0 ? "inotify" : "polling");
	say_line(&what);
	if (w.http) {
		buf_reset(&what);
		buf_addf(&what, "watch: serving '%s' at %s", opt->outdir,
			 url.data);
		say_line(&what);
		if (opt->host) {
			buf_reset(&what);
			buf_addf(&what, "watch: anyone who can reach '%s' can "
				 "read the preview (no TLS, no password)",
				 opt->host);
			say_line(&what);
		}
	}
	ret = build(&w, WHOLE, &status, &ms);
	if (ret)
		goto out;
	say(&w, NULL, WHOLE, status, ms);
	w.whole = status == 0;
	if (w.http && opt->open && !diag_interrupted())
		open_browser(&w, url.data);
	while (wait_change(&w, pending)) {
		buf_reset(&what);
		diff(&w.built, &w.now, &what);
		snapshot_swap(&w.built, &w.now);
		pending = rebuild(&w, what.data);
		if (pending < 0) {
			ret = pending;
			goto out;
		}
	}
	printf("watch: stopped\n");
out:
	fflush(stdout);
	buf_release(&what);
	buf_release(&url);
	release(&w);
	return ret;
}
