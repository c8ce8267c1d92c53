/*
 * The plot stage: registry and datasets -> data files and one gnuplot
 * script -> figures/NAME.svg in the staging area. The only module that
 * starts another program. gnuplot runs without a shell (fork and execvp),
 * in the staging figures folder, on a script assembled from the author's
 * figure scripts and numeric variables; text from data reaches gnuplot
 * only inside data files.
 */
/* sched_getcpu() and the CPU_* macros are GNU extensions. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "dataset.h"
#include "diag.h"
#include "format.h"
#include "hash.h"
#include "plot.h"
#include "registry.h"
#include "site.h"
#include "template.h"
#include "timing.h"
#include "xalloc.h"
#include "banned.h"

/* POSIX: the application declares it. */
extern char **environ;

/*
 * A throwaway plot before every figure: it leaves the SVG terminal in the
 * same state whatever was drawn before, so that a figure's bytes do not
 * depend on the other figures of the batch (a cached figure and a redrawn
 * one must be identical).
 */
#define PRIMER "set output '/dev/null'\nunset border\nunset tics\n" \
	"set xrange [0:1]\nset yrange [-1:1]\n" \
	"unset key\nplot 0 lw 1 lc rgb \"#000000\" notitle\nunset output\n"
#define TERMINAL "set terminal svg size 800,500 enhanced " \
	"font \"sans-serif,13\" background rgb \"white\""

/* One figure to draw: its script and the text that goes before it. */
struct job {
	const struct figure_use *use;
	struct srcfile *script;
	struct buf pre;		/* reset, output, variables */
	uint64_t key;
	size_t first_line;	/* of the script in the batch file */
	size_t lines;		/* of pre + script */
	int cached;
};

/* gnuplot running in the background, from spawn() to reap(). */
struct child {
	pid_t pid;
	int errfd;		/* its stderr, read by reap() */
};

struct plot {
	struct site *site;	/* borrowed */
	struct job *jobs;
	size_t n, todo;
	struct buf cache;	/* figures/.cache for this run */
	struct child child;
	int running;
};

void
plot_label(struct buf *out, const char *label)
{
	const char *s = label ? label : "";

	if (!*s)
		buf_addch(out, '-');
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			buf_addch(out, ' ');
		else if (*s == '"')
			/*
			 * gnuplot reads a double quote in a data file as the
			 * start of a quoted string and has no escape for it:
			 * a right double quotation mark keeps the label whole.
			 */
			BUF_ADDLIT(out, "\xe2\x80\x9d");
		else
			buf_addch(out, *s);
	}
}

static void
add_value(struct buf *out, double v)
{
	if (isfinite(v))
		format_exact(out, v);
	else
		buf_addch(out, '?');
}

/*
 * Writes a dataset as a tab-separated file: a "#" header naming the
 * columns, then rows, thinned to at most max rows (every k-th row and
 * the last: the fits still used every point).
 */
static void
write_dataset(const struct dataset *ds, size_t max, struct buf *out)
{
	size_t r, c, step = 1;

	if (max && ds->nrows > max)
		step = (ds->nrows + max - 1) / max;
	BUF_ADDLIT(out, "#");
	for (c = 0; c < ds->ncols; c++)
		buf_addf(out, "%s\t", ds->cols[c]);
	BUF_ADDLIT(out, "label\n");
	for (r = 0; r < ds->nrows; r++) {
		if (r % step && r + 1 != ds->nrows)
			continue;
		for (c = 0; c < ds->ncols; c++) {
			add_value(out, ds->vals[r * ds->ncols + c]);
			buf_addch(out, '\t');
		}
		plot_label(out, ds->labels ? ds->labels[r] : NULL);
		buf_addch(out, '\n');
	}
}

/* The registry value of name, or NAN when it is missing or text. */
static double
num_or_nan(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	return q && q->type == Q_NUMBER ? q->value : NAN;
}

/*
 * Datasets drawn from the registry rather than from the model's tables:
 * "devices" (every device with its speed and memory, and its gaps) and
 * "ladder" (every machine and limit as operations per second and bits).
 */
static void
registry_datasets(const struct registry *reg, struct datasets *all)
{
	static const char *const dev_cols[] = { "year", "sbops", "bits",
		"ops_orders", "bits_orders" };
	static const char *const lad_cols[] = { "ops", "bits", "kind" };
	static const struct {
		const char *ops, *bits, *label;
		double kind;
	} limits[] = {
		{ "dust.atomic_ops", "dust.atomic_bits", "smart dust (atoms, 1 µm³)", 2 },
		{ "atomic.ops", "atomic.bits", "atomic-matter laptop", 2 },
		{ "laptop.ops_max", "laptop.bits_max", "ultimate laptop", 3 },
		{ "blackhole.ops", "blackhole.bits", "1 kg black hole", 3 },
	};
	struct dataset *dev = dataset_add(all, "devices", dev_cols, 5);
	struct dataset *lad = dataset_add(all, "ladder", lad_cols, 3);
	struct buf name = BUF_INIT;
	size_t i, n = registry_count(reg);

	for (i = 0; i < n; i++) {
		const struct quantity *q = registry_at(reg, i);
		const char *nm = q->name;
		size_t len = strlen(nm);
		double row[5];
		const struct quantity *label;

		if (strncmp(nm, "device.", 7) || len < 11 ||
		    strcmp(nm + len - 3, ".id") ||
		    memchr(nm + 7, '.', len - 10))
			continue;
#define FIELD(f) (buf_reset(&name), buf_add(&name, nm, len - 3), \
		  buf_addstr(&name, f), name.data)
		label = registry_get(reg, FIELD(".label"));
		row[0] = num_or_nan(reg, FIELD(".year"));
		row[1] = num_or_nan(reg, FIELD(".sbops"));
		row[2] = num_or_nan(reg, FIELD(".bits"));
		row[3] = num_or_nan(reg, FIELD(".gap.ops.orders"));
		row[4] = num_or_nan(reg, FIELD(".gap.bits.orders"));
#undef FIELD
		dataset_row(dev, row, label ? label->text : q->text);
		if (isfinite(row[2])) {
			double l[3] = { row[1], row[2], 1 };

			dataset_row(lad, l, label ? label->text : q->text);
		}
	}
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		double l[3] = { num_or_nan(reg, limits[i].ops),
				num_or_nan(reg, limits[i].bits),
				limits[i].kind };

		dataset_row(lad, l, limits[i].label);
	}
	buf_release(&name);
}

static int
use_error(const struct figure_use *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
use_error(const struct figure_use *u, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_at_line(u->file, u->line, u->col, "figure '%s': %s", u->label,
		      msg.data);
	buf_release(&msg);
	return -1;
}

/*
 * Reads the "# needs:" and "# data:" header lines of a script: variables
 * into j->pre, dataset names into *data (space-separated). Returns -1
 * after printing errors with the script's own file:line.
 */
static int
read_header(struct job *j, const struct registry *reg, struct buf *data)
{
	const struct srcfile *f = j->script;
	const char *p = f->data, *end = f->data + f->len;
	size_t line = 1;
	int ret = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *w;
		int needs = !strncmp(p, "# needs:", 8);
		int isdata = !strncmp(p, "# data:", 7);

		if (needs || isdata) {
			for (w = p + (needs ? 8 : 7); w < le;) {
				const char *we;
				char *word;

				while (w < le && (*w == ' ' || *w == '\t'))
					w++;
				for (we = w; we < le && *we != ' ' &&
				     *we != '\t' && *we != '\r'; we++)
					;
				if (we == w)
					break;
				word = xstrndup(w, (size_t)(we - w));
				if (isdata) {
					buf_addf(data, " %s", word);
				} else {
					const struct quantity *q =
						registry_get(reg, word);
					char *v;

					if (!q || q->type != Q_NUMBER) {
						ret = error_at_line(
							f->name, line,
							(size_t)(w - p) + 1,
							"%s '%s'", q ?
							"needs a number, got "
							"text" :
							"unknown quantity",
							word);
					} else {
						for (v = word; *v; v++)
							if (*v == '.')
								*v = '_';
						/* Finite: the registry takes no other. */
						buf_addf(&j->pre, "%s = ", word);
						format_exact(&j->pre, q->value);
						buf_addch(&j->pre, '\n');
					}
				}
				free(word);
				w = we;
			}
		}
		line++;
		p = le + 1;
	}
	return ret;
}

/*
 * The key recorded for label in the previous run's cache manifest
 * ("label key" lines, already read into cache); 0 when there is none.
 */
static int
cached_key(const struct buf *cache, const char *label, uint64_t *key)
{
	const char *p;
	size_t n = strlen(label);

	for (p = cache->data; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, label, n) && p[n] == ' ') {
			*key = strtoull(p + n + 1, NULL, 16);
			return 1;
		}
	return 0;
}

/* Writes b to path; 0, or -1 after printing an error. */
static int
write_file(const char *path, const struct buf *b)
{
	FILE *fp = fopen(path, "wb");
	int bad;

	if (!fp)
		return error("cannot write '%s': %s", path, strerror(errno));
	bad = fwrite(b->data, 1, b->len, fp) != b->len;
	bad |= fclose(fp) != 0;
	if (bad)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

/*
 * gnuplot waiting for its commands on a pipe. Started before the
 * figures are known, loading its eighty-odd libraries (some 15 ms)
 * overlaps the model and the templates instead of following them.
 */
struct plot_process {
	struct child child;	/* pid 0: not started */
	int infd;		/* its stdin */
	int execfd;		/* forked: a failed exec's errno, else EOF */
	int error;		/* errno from starting it, or 0 */
};

/*
 * The cores gnuplot may use: all of this process's but the one it runs
 * on, when it has others. With two cores the scheduler tends to wake
 * the parent on the core where its child has just started; the model
 * and gnuplot's start-up then take turns of a tick (4 ms) there while
 * the other core idles.
 */
struct cores {
#ifdef __linux__
	cpu_set_t set;
#endif
	int other;		/* 0: no other core, or not Linux */
};

static void
other_cores(struct cores *c)
{
	c->other = 0;
#ifdef __linux__
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(c->set), &c->set) ||
	    CPU_COUNT(&c->set) < 2 || !CPU_ISSET(cpu, &c->set))
		return;
	CPU_CLR(cpu, &c->set);
	c->other = 1;
#endif
}

/* Moves pid (0: this process) to the cores of c, if there are any. */
static void
move_child(pid_t pid, const struct cores *c)
{
#ifdef __linux__
	if (c->other)
		sched_setaffinity(pid, sizeof(c->set), &c->set);
#else
	(void)pid;
	(void)c;
#endif
}

/*
 * The forked child: off the parent's core, its own process group, its
 * standard streams, then prog. It makes only system calls; a failed
 * exec sends its errno on statusfd (closed on exec: EOF means prog
 * runs).
 */
static _Noreturn void
exec_child(char **argv, const int in[2], const int err[2], int statusfd,
	   const struct cores *c)
{
	int fd, e;

	/*
	 * Often the child runs first, on the parent's core: until its
	 * exec's work let the parent have its turn again, up to a tick
	 * (4 ms measured). So it leaves before anything else.
	 */
	move_child(0, c);
	setpgid(0, 0);
	fd = open("/dev/null", O_WRONLY);
	if (dup2(in[0], 0) < 0 || fd < 0 || dup2(fd, 1) < 0 ||
	    dup2(err[1], 2) < 0)
		goto fail;
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(statusfd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(126);	/* the parent then sees gnuplot exit 126 */
	_exit(127);
}

/*
 * Starts prog on "/dev/stdin" (a file argument, not "-", so that its
 * errors are worded as for a script file), in its own process group,
 * with stdin and stderr on pipes, and returns at once. Returns 0 or an
 * errno value (ENOENT: prog is not installed); when forked, an exec
 * failure is known only in pp->execfd.
 *
 * Early, while this process is small, fork(): it returns at once,
 * where posix_spawnp() waits until the child has exec'd and, with few
 * cores, often longer: woken on the child's core, the parent waits for
 * its turn there (up to 4 ms measured, 0.2 ms with fork()). Later the
 * process may hold hundreds of MB; posix_spawnp() then spares copying
 * its page tables and the copy-on-write faults that follow.
 */
static int
spawn(const char *prog, struct plot_process *pp, int early)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	/* execvp() wants mutable strings. */
	char *argv[] = { xstrdup(prog), xstrdup("/dev/stdin"), NULL };
	int in[2] = { -1, -1 }, err[2] = { -1, -1 }, st[2] = { -1, -1 };
	int rc = 0, i;
	struct cores c;
	pid_t pid;

	pp->infd = pp->child.errfd = pp->execfd = -1;
	if (pipe(in) || pipe(err) || (early && pipe(st))) {
		rc = errno;
		goto out;
	}
	/* Only the duplicates made for the child survive its exec. */
	for (i = 0; i < 2; i++) {
		fcntl(in[i], F_SETFD, FD_CLOEXEC);
		fcntl(err[i], F_SETFD, FD_CLOEXEC);
		if (early)
			fcntl(st[i], F_SETFD, FD_CLOEXEC);
	}
	other_cores(&c);
	if (early) {
		pid = fork();
		if (pid < 0) {
			rc = errno;
			goto out;
		}
		if (!pid)
			exec_child(argv, in, err, st[1], &c);
		/* If this process runs first, it moves the child itself. */
		move_child(pid, &c);
		/* Its group exists before anything may signal it. */
		setpgid(pid, pid);
		pp->child.pid = pid;
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	posix_spawnattr_init(&at);
	/* Its own process group, so that stopping it stops all. */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	rc = posix_spawnp(&pp->child.pid, prog, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (!rc)
		move_child(pp->child.pid, &c);
out:
	if (in[0] >= 0)
		close(in[0]);
	if (err[1] >= 0)
		close(err[1]);
	if (st[1] >= 0)
		close(st[1]);
	if (rc) {
		pp->child.pid = 0;
		if (in[1] >= 0)
			close(in[1]);
		if (err[0] >= 0)
			close(err[0]);
		if (st[0] >= 0)
			close(st[0]);
	} else {
		pp->infd = in[1];
		pp->child.errfd = err[0];
		pp->execfd = st[0];
	}
	free(argv[0]);
	free(argv[1]);
	return rc;
}

/*
 * Waits for the child, capturing its stderr into err; stops its process
 * group first when the run is being interrupted. Returns its exit
 * status, 128 + the signal that killed it or interrupted the run, or -1
 * when waiting fails.
 */
static int
reap(struct child *c, struct buf *err)
{
	char buf[4096];
	ssize_t n;
	int status;

	if (site_interrupted())
		kill(-c->pid, SIGTERM);
	while ((n = read(c->errfd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR)) {
		if (n > 0) {
			buf_add(err, buf, (size_t)n);
		} else if (site_interrupted()) {
			/* The run is stopping: so does gnuplot's group. */
			kill(-c->pid, SIGTERM);
			break;
		}
	}
	close(c->errfd);
	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (site_interrupted()) {
		buf_reset(err);
		buf_addf(err, "interrupted by signal %d", site_interrupted());
		return 128 + site_interrupted();
	}
	if (WIFSIGNALED(status)) {
		buf_addf(err, "gnuplot was killed by signal %d",
			 WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/*
 * prog started, forked when early (see spawn()). Never NULL: a failure
 * to start it is kept in its error and reported when it is needed.
 */
static struct plot_process *
start(const char *prog, int early)
{
	struct plot_process *pp = xcalloc(1, sizeof(*pp));

	pp->error = spawn(prog, pp, early);
	return pp;
}

struct plot_process *
plot_prestart(const char *prog)
{
	return start(prog, 1);
}

void
plot_process_stop(struct plot_process *pp)
{
	int status;

	if (!pp)
		return;
	if (pp->child.pid > 0) {
		close(pp->infd);
		kill(-pp->child.pid, SIGKILL);
		close(pp->child.errfd);
		if (pp->execfd >= 0)
			close(pp->execfd);
		while (waitpid(pp->child.pid, &status, 0) < 0 &&
		       errno == EINTR)
			;
	}
	free(pp);
}

/*
 * Whether a forked prog did exec: waits for its exec (by now long
 * done) or its exit, and takes a failure into pp->error.
 */
static void
check_exec(struct plot_process *pp)
{
	ssize_t n;
	int e;

	if (pp->execfd < 0)
		return;
	while ((n = read(pp->execfd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(pp->execfd);
	pp->execfd = -1;
	if (n == (ssize_t)sizeof(e))
		pp->error = e;
}

/*
 * Gives gnuplot the batch: it changes to dir and loads .batch.gp, so
 * that its messages name the batch file and its lines. Takes pp and
 * returns its child in c. Returns 0; -1 after printing an error when
 * gnuplot could not be started, or dir cannot be written as a gnuplot
 * string (a line break in the output folder's path).
 */
static int
hand_over(struct plot_process *pp, const char *prog, const char *dir,
	  struct child *c)
{
	struct buf cmd = BUF_INIT;
	struct sigaction ign, old;
	const char *p;
	size_t off = 0;
	ssize_t n;
	int ret = 0;

	check_exec(pp);
	if (pp->error == ENOENT) {
		ret = error("cannot run '%s': %s; install gnuplot with: "
			    "sudo apt-get install -y gnuplot-nox", prog,
			    strerror(pp->error));
		goto out;
	}
	if (pp->error) {
		ret = error("cannot start '%s': %s", prog,
			    strerror(pp->error));
		goto out;
	}
	if (strpbrk(dir, "\n\r")) {
		ret = error("cannot draw figures in '%s': gnuplot takes no "
			    "line break in a folder name", dir);
		goto out;
	}
	BUF_ADDLIT(&cmd, "cd '");
	for (p = dir; *p; p++) {
		/* In single quotes, gnuplot reads '' as one quote. */
		if (*p == '\'')
			buf_addch(&cmd, '\'');
		buf_addch(&cmd, *p);
	}
	BUF_ADDLIT(&cmd, "'\nload '.batch.gp'\n");
	/* A dead reader is an error to read in its status, not a signal. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	while (off < cmd.len) {
		n = write(pp->infd, cmd.data + off, cmd.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	sigaction(SIGPIPE, &old, NULL);
	close(pp->infd);
	*c = pp->child;
	free(pp);
	pp = NULL;
out:
	plot_process_stop(pp);
	buf_release(&cmd);
	return ret;
}

/*
 * Reports a gnuplot failure under the figure that caused it: gnuplot
 * names the batch file's line, which falls in one job's range. The first
 * line gives the template location, the figure, the script line and
 * gnuplot's message; gnuplot's context lines (the command and its caret)
 * follow, indented.
 */
static void
report_failure(struct job *jobs, size_t n, const char *err, int status)
{
	static const char tag[] = "\".batch.gp\" line ";
	const char *at = strstr(err, tag), *msg = err, *p;
	size_t line = 0, i, pre = 0;
	struct job *j = NULL;
	struct buf m = BUF_INIT, ctx = BUF_INIT;

	if (at) {
		line = strtoul(at + sizeof(tag) - 1, NULL, 10);
		msg = strchr(at, ':');
		msg = msg ? msg + 1 : at;
		msg += strspn(msg, " ");
	}
	buf_add(&m, msg, strcspn(msg, "\n"));
	/* Context: gnuplot's lines before the one naming the batch file. */
	for (p = err; *p && p < (at ? at : err + strlen(err));) {
		size_t len = strcspn(p, "\n");

		if (len && strspn(p, " ") < len)
			buf_addf(&ctx, "    %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
	for (i = 0; i < n; i++)
		if (!jobs[i].cached && line >= jobs[i].first_line &&
		    line < jobs[i].first_line + jobs[i].lines)
			j = &jobs[i];
	if (j) {
		for (p = j->pre.data; *p; p++)
			pre += *p == '\n';
		if (line >= j->first_line + pre)
			use_error(j->use, "gnuplot: %s (%s:%zu)", m.data,
				  j->script->name,
				  line - j->first_line - pre + 1);
		else
			use_error(j->use, "gnuplot: %s (in the variables "
				  "set for %s)", m.data, j->script->name);
	} else {
		/* No line to go by: name every figure of the batch. */
		struct buf names = BUF_INIT;
		struct job *first = NULL;

		for (i = 0; i < n; i++)
			if (!jobs[i].cached) {
				if (!first)
					first = &jobs[i];
				buf_addf(&names, "%s'%s'", names.len ? ", " :
					 "", jobs[i].use->label);
			}
		if (first && m.len)
			use_error(first->use, "%s%s, drawing %s",
				  strncmp(m.data, "gnuplot", 7) ? "gnuplot: " :
				  "", m.data, names.data);
		else if (first)
			use_error(first->use, "gnuplot exited with status %d "
				  "and no message, drawing %s", status,
				  names.data);
		buf_release(&names);
	}
	fputs(ctx.data, stderr);
	buf_release(&m);
	buf_release(&ctx);
}

/* Frees what plot_start() kept for plot_finish(). */
static void
plot_free(struct plot *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++) {
		srcfile_free(pl->jobs[i].script);
		buf_release(&pl->jobs[i].pre);
	}
	free(pl->jobs);
	buf_release(&pl->cache);
	free(pl);
}

int
plot_start(struct plot **plp, struct site *site,
	   const struct plot_options *opt, const struct registry *reg,
	   const struct datasets *ds, const struct figure_use *uses, size_t n)
{
	struct plot *pl = xcalloc(1, sizeof(*pl));
	struct plot_process *early = opt->early;
	struct job *jobs = xcalloc(n ? n : 1, sizeof(*jobs));
	struct datasets mine = { 0 };
	struct buf batch = BUF_INIT, data = BUF_INIT, path = BUF_INIT;
	struct buf file = BUF_INIT, prev = BUF_INIT;
	/* Datasets written, with their text, for drawing from staging. */
	struct written {
		char *name;
		struct buf text;
	} *written = NULL;
	size_t nwritten = 0, wcap = 0, i, k, line = 1;
	int ret = 0;

	*plp = NULL;
	pl->site = site;
	pl->jobs = jobs;
	pl->n = n;
	buf_init(&pl->cache);

	registry_datasets(reg, &mine);
	/* The previous run's cache manifest, read once (none: all drawn). */
	buf_addf(&path, "%s/figures/.cache", opt->outdir);
	if (buf_read_file(&prev, path.data))
		buf_reset(&prev);
	if (site_mkdirs(site, "figures/x")) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		const char *w;
		uint64_t old;

		j->use = &uses[i];
		buf_init(&j->pre);
		buf_reset(&path);
		buf_addf(&path, "%s/%s.gp", opt->figdir, uses[i].label);
		j->script = srcfile_load(path.data);
		if (!j->script) {
			ret = use_error(&uses[i], "no script '%s' to draw it",
					path.data);
			continue;
		}
		/*
		 * The terminal is set again for every figure: gnuplot's SVG
		 * terminal carries state (the current colour) from one plot
		 * to the next, and a figure must not depend on which others
		 * were drawn before it in the same process.
		 */
		buf_addf(&j->pre, "reset\n" TERMINAL "\n" PRIMER
			 "reset\nset output '%s.svg'\n"
			 "set datafile separator \"\\t\"\n"
			 "set datafile missing \"?\"\n", uses[i].label);
		buf_reset(&data);
		if (read_header(j, reg, &data)) {
			ret = -1;
			continue;
		}
		j->key = hash_bytes(HASH_INIT, j->pre.data, j->pre.len);
		j->key = hash_bytes(j->key, j->script->data, j->script->len);
		/* Each dataset the script reads: written once, keyed in. */
		for (w = data.data; *w;) {
			const struct dataset *d;
			size_t len;
			char *nm;

			w += strspn(w, " ");
			len = strcspn(w, " ");
			if (!len)
				break;
			nm = xstrndup(w, len);
			w += len;
			d = datasets_get(ds, nm);
			if (!d)
				d = datasets_get(&mine, nm);
			if (!d) {
				ret = use_error(&uses[i], "%s asks for data "
						"'%s', which no model dataset "
						"holds", j->script->name, nm);
				free(nm);
				continue;
			}
			buf_reset(&file);
			write_dataset(d, opt->max_points, &file);
			j->key = hash_bytes(j->key, nm, len + 1);
			j->key = hash_bytes(j->key, file.data, file.len);
			for (k = 0; k < nwritten; k++)
				if (!strcmp(written[k].name, nm))
					break;
			if (k == nwritten) {
				buf_reset(&path);
				buf_addf(&path, "figures/%s.dat", nm);
				if (site_write(site, path.data, file.data,
					       file.len))
					ret = -1;
				written = xgrow(written, &wcap, nwritten + 1,
						sizeof(*written));
				/* Kept, not copied: file starts afresh. */
				written[nwritten].name = nm;
				written[nwritten++].text = file;
				buf_init(&file);
			} else {
				free(nm);
			}
		}
		/* Unchanged since the last run: copy the published SVG. */
		buf_reset(&path);
		buf_addf(&path, "%s/figures/%s.svg", opt->outdir,
			 uses[i].label);
		buf_reset(&file);
		if (cached_key(&prev, uses[i].label, &old) &&
		    old == j->key && !buf_read_file(&file, path.data)) {
			buf_reset(&path);
			buf_addf(&path, "figures/%s.svg", uses[i].label);
			site_keep(site, path.data, file.data, file.len);
			j->cached = 1;
		}
		buf_addf(&pl->cache, "%s %016llx\n", uses[i].label,
			 (unsigned long long)j->key);
	}
	if (ret)
		goto out;

	/* One batch script for every figure to draw. */
	line = 1;
	for (i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		const char *q;

		if (j->cached)
			continue;
		pl->todo++;
		j->first_line = line;
		buf_add(&batch, j->pre.data, j->pre.len);
		buf_add(&batch, j->script->data, j->script->len);
		if (j->script->len && j->script->data[j->script->len - 1] !=
		    '\n')
			buf_addch(&batch, '\n');
		BUF_ADDLIT(&batch, "unset output\n");
		for (q = j->pre.data; *q; q++)
			line += *q == '\n';
		for (q = j->script->data; q < j->script->data +
		     j->script->len; q++)
			line += *q == '\n';
		if (j->script->len && j->script->data[j->script->len - 1] !=
		    '\n')
			line++;
		j->lines = line - j->first_line;
		line++;
	}
	if (pl->todo) {
		/* Not published: written beside the figures, not staged. */
		buf_reset(&path);
		buf_addf(&path, "%s/figures/.batch.gp", site_staging(site));
		if (write_file(path.data, &batch)) {
			ret = -1;
			goto out;
		}
		/*
		 * gnuplot reads the data in the staging folder, where only
		 * the changed files went: the others are put there too,
		 * unpublished (out/ keeps its copies).
		 */
		for (k = 0; k < nwritten && !ret; k++) {
			buf_reset(&path);
			buf_addf(&path, "figures/%s.dat", written[k].name);
			if (site_staged(site, path.data))
				continue;
			buf_reset(&path);
			buf_addf(&path, "%s/figures/%s.dat", site_staging(site),
				 written[k].name);
			if (write_file(path.data, &written[k].text))
				ret = -1;
		}
		if (ret)
			goto out;
		buf_reset(&path);
		buf_addf(&path, "%s/figures", site_staging(site));
		if (!early)
			early = start(opt->gnuplot, 0);
		ret = hand_over(early, opt->gnuplot, path.data, &pl->child);
		early = NULL;	/* taken */
		if (ret) {
			ret = -2;
			goto out;
		}
		pl->running = 1;
	}
out:
	/* Not needed after all: nothing to draw, or an error. */
	plot_process_stop(early);
	if (ret)
		plot_free(pl);
	else
		*plp = pl;
	for (k = 0; k < nwritten; k++) {
		free(written[k].name);
		buf_release(&written[k].text);
	}
	free(written);
	datasets_release(&mine);
	buf_release(&batch);
	buf_release(&data);
	buf_release(&path);
	buf_release(&file);
	buf_release(&prev);
	return ret;
}

int
plot_finish(struct plot *pl)
{
	struct buf err = BUF_INIT, path = BUF_INIT;
	size_t i;
	int ret = 0, status;

	if (!pl)
		return 0;
	if (pl->running) {
		timing_begin("gnuplot");
		status = reap(&pl->child, &err);
		timing_end();
		if (status && site_interrupted()) {
			ret = -1;
		} else if (status < 0) {
			error("cannot wait for gnuplot: %s", strerror(errno));
			ret = -2;
		} else if (status) {
			report_failure(pl->jobs, pl->n, err.data, status);
			ret = -2;
		}
	}
	for (i = 0; i < pl->n && !ret; i++) {
		if (pl->jobs[i].cached)
			continue;
		buf_reset(&path);
		buf_addf(&path, "figures/%s.svg", pl->jobs[i].use->label);
		if (site_adopt(pl->site, path.data))
			ret = -2;
	}
	if (!ret && site_write(pl->site, "figures/.cache", pl->cache.data,
			       pl->cache.len))
		ret = -1;
	buf_release(&err);
	buf_release(&path);
	plot_free(pl);
	return ret;
}
