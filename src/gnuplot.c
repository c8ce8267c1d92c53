/*
 * The gnuplot process (a part of the plot stage, and the only code that
 * starts it): reads the commands it is given and gnuplot's stderr;
 * writes gnuplot's standard input. posix_spawnp() without a shell, its
 * own process group, signals to their defaults (diag_child_attr()); its
 * run bounded in time (SIGTERM, then SIGKILL to the group), and stopped
 * at once when the run is interrupted (diag_interrupted()).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "gnuplot.h"
#include "xalloc.h"
#include "banned.h"

/* POSIX: the application declares it. */
extern char **environ;

/* Kept of gnuplot's messages; the rest is read and dropped. */
#define ERR_KEEP 65536
/* From SIGTERM to SIGKILL, when gnuplot has to be stopped. */
#define GRACE_SECONDS 2.0

/*
 * gnuplot waiting for its commands on a pipe, from spawn() (at the
 * first figure to draw: its start-up, loading eighty libraries, then
 * overlaps the rest of the run) to gnuplot_wait().
 */
struct gnuplot {
	const char *prog;
	int error;		/* errno of starting it, or 0 */
	pid_t pid;		/* 0: not running */
	int infd;		/* its stdin */
	int errfd;		/* its stderr */
	struct timespec started;	/* when it was sent its first command */
	int sent;		/* it was */
	sigset_t mask;		/* the mask before spawn() */
	struct sigaction old_chld;
};

/* Only to wake pselect() in gnuplot_wait(). */
static void
on_child(int sig)
{
	(void)sig;
}

static double
seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/*
 * Starts prog on "/dev/stdin" (a file argument, so that its messages are
 * worded as for a script file): no shell, stdin on a pipe, stdout on
 * /dev/null, stderr on a pipe, its own process group, default signal
 * handling. From here SIGCHLD is blocked (and caught) until
 * gnuplot_wait() waits for it. Sets g->error (ENOENT: gnuplot is not
 * installed) when it cannot be started.
 */
static void
spawn(struct gnuplot *g)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t chld;
	struct sigaction sa;
	char *argv[3];
	int in[2] = { -1, -1 }, err[2] = { -1, -1 };
	size_t i;

	g->infd = g->errfd = -1;
	if (pipe(in) || pipe(err)) {
		g->error = errno;
		goto out;
	}
	/* Only the duplicates made for the child survive its exec. */
	for (i = 0; i < 2; i++) {
		fcntl(in[i], F_SETFD, FD_CLOEXEC);
		fcntl(err[i], F_SETFD, FD_CLOEXEC);
	}
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &g->mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &g->old_chld);

	argv[0] = xstrdup(g->prog);
	argv[1] = xstrdup("/dev/stdin");
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	posix_spawnattr_init(&at);
	/* Its own process group, so that stopping it stops all. */
	diag_child_attr(&at);
	g->error = posix_spawnp(&g->pid, g->prog, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	free(argv[0]);
	free(argv[1]);
	if (g->error) {
		g->pid = 0;
		sigaction(SIGCHLD, &g->old_chld, NULL);
		sigprocmask(SIG_SETMASK, &g->mask, NULL);
	}
out:
	if (in[0] >= 0)
		close(in[0]);
	if (err[1] >= 0)
		close(err[1]);
	if (g->error) {
		if (in[1] >= 0)
			close(in[1]);
		if (err[0] >= 0)
			close(err[0]);
	} else {
		g->infd = in[1];
		g->errfd = err[0];
	}
}

struct gnuplot *
gnuplot_start(const char *prog)
{
	struct gnuplot *g = xcalloc(1, sizeof(*g));

	g->prog = prog;
	spawn(g);
	return g;
}

/* Reads what gnuplot's stderr holds now, keeping the first ERR_KEEP bytes. */
static void
drain(struct gnuplot *g, struct buf *err)
{
	char chunk[4096];
	ssize_t n;

	while (g->errfd >= 0) {
		n = read(g->errfd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;	/* EAGAIN: nothing more for now */
		if (n == 0) {
			close(g->errfd);
			g->errfd = -1;
			break;
		}
		if (err->len < ERR_KEEP)
			buf_add(err, chunk, (size_t)n < ERR_KEEP - err->len ?
				(size_t)n : ERR_KEEP - err->len);
	}
}

/* SIGTERM, then SIGKILL GRACE_SECONDS later: see gnuplot.h. */
int
gnuplot_wait(struct gnuplot *g, double timeout, struct buf *err, int *why)
{
	sigset_t block, waitmask;
	siginfo_t info;
	double t, stop_at = -1, next;
	int status = -1, killed = 0;

	if (g->infd >= 0)
		close(g->infd);
	g->infd = -1;
	if (!timeout) {
		kill(-g->pid, SIGKILL);
		killed = 1;
	}
	/* Signals arrive only inside pselect(): none is missed. */
	sigemptyset(&block);
	diag_signal_set(&block, 1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	waitmask = g->mask;
	sigdelset(&waitmask, SIGCHLD);
	diag_signal_set(&waitmask, 0);
	*why = 0;
	for (;;) {
		struct timespec ts;
		fd_set rd;
		int nfds = 0;

		/* Ended? Seen without reaping: its group id stays ours. */
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)g->pid, &info, WEXITED | WNOHANG |
			   WNOWAIT) && errno != EINTR)
			break;
		if (info.si_pid == g->pid)
			break;
		t = seconds_since(&g->started);
		if (!killed && diag_interrupted()) {
			*why = diag_interrupted();
			kill(-g->pid, SIGKILL);
			killed = 1;
		} else if (!killed && stop_at < 0 && t >= timeout) {
			*why = 'T';
			kill(-g->pid, SIGTERM);
			stop_at = t;
		} else if (stop_at >= 0 && !killed &&
			   t >= stop_at + GRACE_SECONDS) {
			kill(-g->pid, SIGKILL);
			killed = 1;
		}
		if (killed)
			next = 1;
		else if (stop_at >= 0)
			next = stop_at + GRACE_SECONDS - t;
		else
			next = timeout - t;
		if (next < 0.001)
			next = 0.001;
		ts.tv_sec = (time_t)next;
		ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
		FD_ZERO(&rd);
		if (g->errfd >= 0) {
			FD_SET(g->errfd, &rd);
			nfds = g->errfd + 1;
		}
		if (pselect(nfds, &rd, NULL, NULL, &ts, &waitmask) > 0)
			drain(g, err);
	}
	drain(g, err);
	if (g->errfd >= 0)
		close(g->errfd);
	g->errfd = -1;
	/* Whatever it left running in its group goes with it. */
	kill(-g->pid, SIGKILL);
	while (waitpid(g->pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGCHLD, &g->old_chld, NULL);
	sigprocmask(SIG_SETMASK, &g->mask, NULL);
	g->pid = 0;
	return status;
}

int
gnuplot_check(const struct gnuplot *g)
{
	if (g->error == ENOENT)
		return error("cannot run '%s': %s; install gnuplot with: "
			     "sudo apt-get install -y gnuplot-nox", g->prog,
			     strerror(g->error));
	if (g->error)
		return error("cannot start '%s': %s", g->prog,
			     diag_strerror(g->error));
	return 0;
}

void
gnuplot_send(struct gnuplot *g, const char *cmd, size_t len)
{
	struct sigaction ign, old;
	size_t off = 0;
	ssize_t n;

	/* A dead reader is an error to read in its status, not a signal. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	while (off < len) {
		n = write(g->infd, cmd + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	sigaction(SIGPIPE, &old, NULL);
	if (!g->sent)
		clock_gettime(CLOCK_MONOTONIC, &g->started);
	g->sent = 1;
}

int
gnuplot_running(const struct gnuplot *g)
{
	return g && g->pid;
}

void
gnuplot_stop(struct gnuplot *g)
{
	struct buf err = BUF_INIT;
	int why;

	if (!g)
		return;
	if (g->pid)
		gnuplot_wait(g, 0, &err, &why);
	buf_release(&err);
	free(g);
}
