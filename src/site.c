/*
 * The write stage: lock the output folder, stage output files, publish
 * them through a journal, recover what an interrupted run left. Reads
 * only inside outdir (the files it compares, its manifest and journal);
 * writes only inside outdir and, for an exchange, in one staging folder
 * beside it (PARENT/.NAME.staging-XXXXXX).
 */
/* renameat2() and statx() are Linux's, declared under _GNU_SOURCE. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "hash.h"
#include "site.h"
#include "sitefs.h"
#include "xalloc.h"
#include "banned.h"

#define MANIFEST_MAGIC "ultimate-manifest 1\ninputs "

struct entry {
	char *path;		/* relative to outdir */
	uint64_t key;		/* content key */
	int staged;		/* 1: in staging; 0: outdir has it already */
	struct stat st;		/* staged: as written (checked later) */
};

/* What site_watch() saw of one file of outdir. */
struct seen {
	char *path;		/* outdir/... */
	struct stat st;
};

struct site {
	char *outdir;
	int lockfd;		/* outdir/.lock, locked; -1 when none */
	int made;		/* outdir was made by this run */
	int readonly;		/* outdir cannot be written: no lock */
	int published;
	int failed;		/* a write failed: later ones fail quietly */
	char *target;		/* outdir resolved; NULL: no exchange */
	char *parent;		/* the folder that holds target */
	const char *base;	/* target's own name (points into target) */
	char *beside;		/* for an exchange: PARENT/.NAME.staging-* */
	int journaled;		/* a kept journal names staging: it stays */
	char *staging;		/* NULL before site_begin() */
	char *root;		/* staging/site: the tree to publish */
	struct buf dirs;	/* folders made in staging, each + '\0' */
	struct entry *files;	/* written or kept, in write order */
	size_t nfiles, cap;
	uint64_t inputs;
	/* The previous run's manifest, its paths checked. */
	struct entry *old;
	size_t nold, oldcap;
	uint64_t old_inputs;
	int have_old;
	struct seen *seen;	/* site_watch() */
	size_t nseen, seencap;
	struct site *next;	/* of the sites open (live) */
	pid_t pid;		/* of the process that opened it */
};

/*
 * The sites open in this process: a run that ends in exit() from deep
 * inside (out of memory, die()) leaves the output folder as site_close()
 * would, as a run that fails or is signalled does.
 */
static struct site *live;

/* -------------------------------------------------------------- paths */


/* ----------------------------------------------------------- exchange */


/*
 * What an exchange publishes into: the folder outdir resolves to (the
 * folder itself when outdir is a link to it), its parent and its name.
 * None for "/", nor for a name too long to carry the staging suffix.
 */
static void
find_target(struct site *s)
{
	char *t = file_realpath(s->outdir), *slash;

	if (!t || !(slash = strrchr(t, '/')) || !slash[1] ||
	    strlen(slash + 1) + sizeof(STAGING_PREFIX) + 7 > NAME_MAX) {
		free(t);
		return;
	}
	s->target = t;
	s->base = slash + 1;
	s->parent = slash == t ? xstrdup("/") :
		xstrndup(t, (size_t)(slash - t));
}

/*
 * Whether this process works in outdir or below it (ultimate -o .):
 * an exchange would move the folder from under it.
 */
static int
inside_target(const struct site *s)
{
	char *cwd = file_realpath(".");
	size_t n = strlen(s->target);
	int in = !cwd || (!strncmp(cwd, s->target, n) &&
			  (!cwd[n] || cwd[n] == '/'));

	free(cwd);
	return in;
}

/* The staging folders of an exchange: PARENT/.NAME.staging- */
static void
sibling_prefix(const struct site *s, struct buf *b)
{
	buf_addf(b, "%s/.%s" STAGING_PREFIX,
		 strcmp(s->parent, "/") ? s->parent : "", s->base);
}

/*
 * Makes the folder beside outdir (PARENT/.NAME.staging-XXXXXX) that the
 * staged tree moves into to be exchanged with outdir, when that can be
 * done: outdir is no mount point, the parent is writable and on the
 * same file system, and the file system exchanges folders (tried on two
 * empty folders in it). Returns 0 when so, else 1 with nothing left
 * behind. ULTIMATE_PUBLISH=journal says no, for the tests of the other
 * way.
 */
static int
begin_exchange(struct site *s)
{
	const char *how = getenv("ULTIMATE_PUBLISH");
	struct buf stg = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	struct stat out, st;
	int ret = 1;

	if ((how && !strcmp(how, "journal")) || !s->target ||
	    sitefs_mount_root(s->target, s->parent) || inside_target(s))
		return 1;
	sibling_prefix(s, &stg);
	BUF_ADDLIT(&stg, "XXXXXX");
	if (!mkdtemp(stg.data))
		goto out;
	buf_addf(&a, "%s/a", stg.data);
	buf_addf(&b, "%s/b", stg.data);
	if (lstat(s->target, &out) || lstat(stg.data, &st) ||
	    st.st_dev != out.st_dev || mkdir(a.data, 0777) ||
	    mkdir(b.data, 0777) || sitefs_exchange(a.data, b.data) ||
	    rmdir(a.data) || rmdir(b.data)) {
		sitefs_remove_tree(stg.data);
		goto out;
	}
	s->beside = buf_detach(&stg, NULL);
	ret = 0;
out:
	buf_release(&stg);
	buf_release(&a);
	buf_release(&b);
	return ret;
}

/* ----------------------------------------------------------- manifest */

/* Frees the n entries of v and v. */
static void
entries_free(struct entry *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/*
 * Parses a manifest's text: "ultimate-manifest 1", "inputs KEY", then
 * "KEY PATH" lines, into *inputs and the entries *v (*n of them, each
 * path a copy). Returns 0; -1, with none, when it does not parse or
 * names a path this program would not write.
 */
static int
parse_manifest(const char *text, uint64_t *inputs, struct entry **v,
	       size_t *n)
{
	const char *p, *nl;
	char *end, *path;
	size_t cap = 0;

	*v = NULL;
	*n = 0;
	if (strncmp(text, MANIFEST_MAGIC, sizeof(MANIFEST_MAGIC) - 1))
		return -1;
	p = text + sizeof(MANIFEST_MAGIC) - 1;
	*inputs = strtoull(p, &end, 16);
	if (end != p + 16 || *end != '\n')
		return -1;
	for (p = end + 1; *p; p = nl + 1) {
		uint64_t key = strtoull(p, &end, 16);

		nl = strchr(p, '\n');
		if (!nl || end != p + 16 || *end != ' ')
			goto bad;
		path = xstrndup(end + 1, (size_t)(nl - end - 1));
		if (!sitefs_valid_relpath(path)) {
			free(path);
			goto bad;
		}
		*v = xgrow(*v, &cap, *n + 1, sizeof(**v));
		memset(&(*v)[*n], 0, sizeof(**v));
		(*v)[*n].path = path;
		(*v)[(*n)++].key = key;
	}
	return 0;
bad:
	entries_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

/* The text of outdir/.manifest into out. Returns 0, or -1. */
static int
manifest_text(const char *outdir, struct buf *out)
{
	struct buf path = BUF_INIT;
	int ret;

	buf_addf(&path, "%s/.manifest", outdir);
	ret = buf_read_file_flags(out, path.data, FILE_NOFOLLOW) ? -1 : 0;
	buf_release(&path);
	return ret;
}

/*
 * Reads outdir/.manifest into s->old. A manifest that does not parse
 * counts as none.
 */
static void
read_manifest(struct site *s)
{
	struct buf text = BUF_INIT;

	if (!manifest_text(s->outdir, &text) &&
	    !parse_manifest(text.data, &s->old_inputs, &s->old, &s->nold)) {
		s->oldcap = s->nold;
		s->have_old = 1;
	}
	buf_release(&text);
}

int
site_manifest(const char *outdir, struct buf *out)
{
	struct entry *v;
	uint64_t inputs;
	size_t n;

	buf_reset(out);
	if (!manifest_text(outdir, out) &&
	    !parse_manifest(out->data, &inputs, &v, &n)) {
		entries_free(v, n);
		return 0;
	}
	buf_reset(out);
	return -1;
}

static int by_path(const void *a, const void *b);

int
site_changes(const char *before, const char *after, size_t max,
	     struct buf *out)
{
	struct entry *a = NULL, *b = NULL;
	struct buf paths = BUF_INIT;
	uint64_t inputs;
	size_t na = 0, nb = 0, i = 0, j = 0;
	int n = -1, c;

	if (parse_manifest(before, &inputs, &a, &na) ||
	    parse_manifest(after, &inputs, &b, &nb))
		goto out;
	if (na)
		qsort(a, na, sizeof(*a), by_path);
	if (nb)
		qsort(b, nb, sizeof(*b), by_path);
	n = 0;
	while (i < na || j < nb) {
		const char *p;

		c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].path, b[j].path);
		if (c < 0)
			p = a[i++].path;	/* gone */
		else if (c > 0)
			p = b[j++].path;	/* made */
		else if (a[i++].key != b[j++].key)
			p = b[j - 1].path;	/* changed */
		else
			continue;
		if ((size_t)n++ == max) {
			n = -1;
			goto out;
		}
		buf_addstr(&paths, p);
		buf_addch(&paths, '\n');
	}
	buf_add(out, paths.data, paths.len);
out:
	entries_free(a, na);
	entries_free(b, nb);
	buf_release(&paths);
	return n;
}

int
site_uptodate(struct site *s, uint64_t inputs)
{
	struct buf path = BUF_INIT;
	struct stat st;
	size_t i;
	int ok = s->have_old && s->old_inputs == inputs;

	/* A publish left half done (in a folder we cannot finish it in). */
	buf_addf(&path, "%s/.publish", s->outdir);
	if (!lstat(path.data, &st))
		ok = 0;

	for (i = 0; ok && i < s->nold; i++) {
		uint64_t have = HASH_INIT;

		buf_reset(&path);
		buf_addf(&path, "%s/%s", s->outdir, s->old[i].path);
		ok = !hash_file(&have, path.data, 1) && have == s->old[i].key;
	}
	buf_release(&path);
	return ok;
}

void
site_set_inputs(struct site *s, uint64_t inputs)
{
	s->inputs = inputs;
}

/* ------------------------------------------------------------ journal */


/*
 * What a dead run left: a journal to carry out (or, when damaged, to
 * drop with a warning), a journal it had not finished writing, and its
 * staging folder. Runs under the lock, so no staging folder is live.
 * Returns 0, or -1 after printing an error.
 */
static int
recover(struct site *s)
{
	struct buf path = BUF_INIT, text = BUF_INIT, names = BUF_INIT;
	const char *n;
	struct stat st;
	int ret = 0, r, err;

	buf_addf(&path, "%s/.publish", s->outdir);
	if (!buf_read_file_flags(&text, path.data, FILE_NOFOLLOW)) {
		r = sitefs_apply_journal(s->outdir, text.data);
		if (r == -2)
			diag_say("warning: '%s' is damaged; ignored",
				 path.data);
		if (r == -1)
			ret = error("cannot finish the publish that an "
				    "interrupted run began in '%s' (see "
				    "above)", s->outdir);
		else
			unlink(path.data);
	} else if ((err = errno) != ENOENT) {
		/*
		 * Not a regular file: nothing of ours. A journal that
		 * cannot be read now (out of descriptors) stays.
		 */
		if (!lstat(path.data, &st) && !S_ISREG(st.st_mode))
			sitefs_remove_tree(path.data);
		else
			ret = error("cannot read '%s': %s", path.data,
				    diag_strerror(err));
	}
	buf_reset(&path);
	buf_addf(&path, "%s/.publish.tmp", s->outdir);
	sitefs_remove_tree(path.data);
	if (!ret && sitefs_list_dir(s->outdir, &names))
		ret = sitefs_unreadable(s->outdir);
	SITEFS_EACH_NAME(n, &names) {
		if (ret || strncmp(n, STAGING_PREFIX, 9))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", s->outdir, n);
		sitefs_remove_tree(path.data);
	}
	/* And those of their exchanges, beside outdir. */
	if (!ret && s->target) {
		size_t plen;
		const char *name;

		buf_reset(&path);
		sibling_prefix(s, &path);
		name = strrchr(path.data, '/') + 1;
		plen = strlen(name);
		/* Best effort: the parent may be writable, not readable. */
		sitefs_list_dir(s->parent, &names);
		SITEFS_EACH_NAME(n, &names) {
			if (strncmp(n, name, plen) ||
			    !sitefs_mkdtemp_suffix(n + plen))
				continue;
			buf_reset(&text);
			buf_addf(&text, "%.*s%s", (int)(name - path.data),
				 path.data, n);
			sitefs_remove_tree(text.data);
		}
	}
	buf_release(&path);
	buf_release(&text);
	buf_release(&names);
	return ret;
}

/* --------------------------------------------------------------- lock */

/*
 * The error for an output folder this run cannot write, err the reason.
 * When the folder is someone else's (out/ made by `sudo make report`,
 * then `make report` as oneself), says whose and the two ways out, not
 * "Permission denied": the first write refused is the folder itself.
 * Returns -1.
 */
static int
not_writable(const struct site *s, int err)
{
	struct buf cmd = BUF_INIT, me = BUF_INIT, owner = BUF_INIT;
	struct passwd *pw;
	struct stat st;
	int ret;

	if ((err != EACCES && err != EPERM) || stat(s->outdir, &st) ||
	    st.st_uid == geteuid())
		return error("cannot write to output folder '%s': %s",
			     s->outdir, strerror(err));
	if ((pw = getpwuid(st.st_uid)))
		buf_addstr(&owner, pw->pw_name);
	else
		buf_addf(&owner, "%ld", (long)st.st_uid);
	if ((pw = getpwuid(geteuid())))
		buf_addstr(&me, pw->pw_name);
	else
		buf_addf(&me, "%ld", (long)geteuid());
	buf_add_shellword(&cmd, s->outdir);
	ret = error("cannot write to output folder '%s': it belongs to "
		    "%s%s, not to %s; remove it with `sudo rm -rf %s` or "
		    "`sudo chown -R %s %s`", s->outdir, st.st_uid ? "user " :
		    "root", st.st_uid ? owner.data : " (made by sudo?)",
		    me.data, cmd.data, me.data, cmd.data);
	buf_release(&cmd);
	buf_release(&me);
	buf_release(&owner);
	return ret;
}

/* Says, once, that this run waits for the one that holds fd's lock. */
static void
waiting(int fd, const char *outdir)
{
	char pid[32];
	ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
	long who = 0;

	if (n > 0) {
		pid[n] = '\0';
		who = strtol(pid, NULL, 10);
	}
	if (who > 0)
		diag_say("waiting for another run (process %ld) to finish "
			 "with '%s'", who, outdir);
	else
		diag_say("waiting for another run to finish with '%s'",
			 outdir);
}

/*
 * Takes outdir/.lock, making outdir first when needed. A flock() lock:
 * the kernel drops it when the process ends, however it ends, so a
 * killed run never leaves the folder locked (the file it leaves is
 * reused). Returns 0, or -1 after printing an error (quietly when a
 * signal arrived while waiting).
 */
static int
lock(struct site *s)
{
	struct buf path = BUF_INIT;
	struct stat a, b;
	char pid[32];
	ssize_t n;
	int fd = -1, said = 0, ret = -1;

	buf_addf(&path, "%s/.lock", s->outdir);
	for (;;) {
		if (!mkdir(s->outdir, 0777)) {
			s->made = 1;
		} else if (errno != EEXIST) {
			error("cannot create output folder '%s': %s",
			      s->outdir, strerror(errno));
			goto out;
		}
		fd = open(path.data, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			  0666);
		if (fd < 0 && (errno == EACCES || errno == EROFS) &&
		    !s->made) {
			/*
			 * A folder this run cannot write: no run can publish
			 * into it, so it needs no lock to be read. It may
			 * still be up to date; site_begin() says it if not.
			 */
			s->readonly = 1;
			ret = 0;
			goto out;
		}
		if (fd < 0 && errno != EACCES && errno != EROFS &&
		    !lstat(path.data, &a)) {
			/* Something else stands where the lock goes. */
			error("cannot take the lock '%s': %s; remove it and "
			      "run again", path.data,
			      S_ISDIR(a.st_mode) ? "it is a folder" :
			      S_ISLNK(a.st_mode) ? "it is a symbolic link" :
			      strerror(errno));
			goto out;
		}
		if (fd < 0) {
			not_writable(s, errno);
			goto out;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			if (errno != EWOULDBLOCK) {
				error("cannot lock '%s': %s", path.data,
				      strerror(errno));
				goto out;
			}
			if (!said++)
				waiting(fd, s->outdir);
			while (flock(fd, LOCK_EX)) {
				if (errno != EINTR) {
					error("cannot lock '%s': %s",
					      path.data, strerror(errno));
					goto out;
				}
				if (diag_interrupted())
					goto out;
			}
		}
		/*
		 * Still the lock of outdir? The run that held it may have
		 * removed it (and outdir) on its way out; then again.
		 */
		if (!fstat(fd, &a) && !lstat(path.data, &b) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	/* Who holds it, for a run that waits: only informative. */
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	n = ftruncate(fd, 0) ? -1 : write(fd, pid, strlen(pid));
	(void)n;
	s->lockfd = fd;
	fd = -1;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	buf_release(&path);
	return ret;
}

/*
 * What site_close() removes from the file system: the staging folders
 * (not one that a kept journal names), the lock, outdir when this run
 * made it and published nothing.
 */
static void
clean_up(struct site *s)
{
	struct buf path = BUF_INIT;

	if (s->staging && !s->journaled)
		sitefs_remove_tree(s->staging);
	if (s->beside)
		sitefs_remove_tree(s->beside);
	if (s->lockfd >= 0) {
		/* The lock file goes first, while it is still held. */
		buf_addf(&path, "%s/.lock", s->outdir);
		unlink(path.data);
		if (s->made && !s->published)
			rmdir(s->outdir);
		close(s->lockfd);
		s->lockfd = -1;
	}
	buf_release(&path);
}

/* At exit(): the sites this process left open (a child's are not its). */
static void
clean_up_live(void)
{
	struct site *s;

	for (s = live; s; s = s->next)
		if (s->pid == getpid())
			clean_up(s);
}

struct site *
site_open(const char *outdir)
{
	static int registered;
	struct site *s = xcalloc(1, sizeof(*s));
	size_t len = strlen(outdir);

	/* "out/" and "out" are one folder; "/" stays "/". */
	while (len > 1 && outdir[len - 1] == '/')
		len--;
	s->outdir = xstrndup(outdir, len);
	s->lockfd = -1;
	if (!registered++)
		atexit(clean_up_live);
	s->pid = getpid();
	s->next = live;
	live = s;
	buf_init(&s->dirs);
	if (!*s->outdir) {
		error("output folder name is empty");
		goto fail;
	}
	if (lock(s))
		goto fail;
	find_target(s);
	if (!s->readonly && recover(s))
		goto fail;
	read_manifest(s);
	return s;
fail:
	site_close(s);
	return NULL;
}

void
site_close(struct site *s)
{
	struct site **p;
	size_t i;

	if (!s)
		return;
	clean_up(s);
	for (p = &live; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	free(s->files);
	for (i = 0; i < s->nold; i++)
		free(s->old[i].path);
	free(s->old);
	for (i = 0; i < s->nseen; i++)
		free(s->seen[i].path);
	free(s->seen);
	buf_release(&s->dirs);
	free(s->staging);
	free(s->root);
	free(s->beside);
	free(s->target);
	free(s->parent);
	free(s->outdir);
	free(s);
}

/* ------------------------------------------------------------ staging */

int
site_begin(struct site *s, enum site_how how)
{
	struct buf tmpl = BUF_INIT;

	if (s->staging)
		BUG("site_begin() twice");
	if (!s->readonly && how == SITE_WHOLE)
		begin_exchange(s);
	buf_addf(&tmpl, "%s/" STAGING_PREFIX "XXXXXX", s->outdir);
	if (!mkdtemp(tmpl.data)) {
		not_writable(s, errno);
		buf_release(&tmpl);
		return -1;
	}
	BUF_ADDLIT(&tmpl, "/site");
	if (mkdir(tmpl.data, 0777)) {
		error("cannot create folder '%s': %s", tmpl.data,
		      strerror(errno));
		tmpl.data[tmpl.len - 5] = '\0';
		rmdir(tmpl.data);
		buf_release(&tmpl);
		return -1;
	}
	s->root = xstrdup(tmpl.data);
	tmpl.data[tmpl.len - 5] = '\0';
	s->staging = buf_detach(&tmpl, NULL);
	return 0;
}

const char *
site_root(const struct site *s)
{
	return s->root;
}

const char *
site_outdir(const struct site *s)
{
	return s->outdir;
}

int
site_mkdirs(struct site *s, const char *relpath)
{
	return sitefs_make_parents(&s->dirs, s->root, relpath);
}

static void
add_file(struct site *s, const char *relpath, uint64_t key, int staged,
	 const struct stat *st)
{
	struct entry *e;

	s->files = xgrow(s->files, &s->cap, s->nfiles + 1, sizeof(*s->files));
	e = &s->files[s->nfiles++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(relpath);
	e->key = key;
	e->staged = staged;
	if (st)
		e->st = *st;
}

/*
 * 1 when outdir/relpath is a regular file (not a link) holding exactly
 * data: then it is left in place, not staged, and keeps its timestamp.
 */
static int
published_same(const struct site *s, const char *relpath, const void *data,
	       size_t len)
{
	struct buf path = BUF_INIT;
	char chunk[65536];
	size_t off = 0, size;
	ssize_t n;
	int fd, same;

	buf_addf(&path, "%s/%s", s->outdir, relpath);
	fd = file_open(path.data, FILE_NOFOLLOW, &size);
	buf_release(&path);
	if (fd < 0)
		return 0;
	same = size == len;
	while (same && off < len) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (size_t)n > len - off ||
		    memcmp(chunk, (const char *)data + off, (size_t)n))
			same = 0;
		else
			off += (size_t)n;
	}
	close(fd);
	return same;
}

/* site_write() for relpath, checked or bookkeeping. */
static int
stage(struct site *s, const char *relpath, const void *data, size_t len)
{
	struct buf path = BUF_INIT;
	struct stat st;
	FILE *fp;
	int ret = 0;

	if (!s->staging)
		BUG("site_write() before site_begin()");
	/* Interrupted, or a full disk: fail quietly, said once already. */
	if (diag_interrupted() || s->failed)
		return -1;
	if (published_same(s, relpath, data, len)) {
		add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 0,
			 NULL);
		return 0;
	}
	if (sitefs_make_parents(&s->dirs, s->root, relpath))
		return -1;
	buf_addf(&path, "%s/%s", s->root, relpath);
	fp = fopen(path.data, "wbx");
	if (!fp) {
		ret = error("cannot write '%s': %s", path.data,
			    strerror(errno));
		goto out;
	}
	if ((len && fwrite(data, 1, len, fp) != len) | fflush(fp) |
	    ferror(fp)) {
		ret = error("cannot write '%s': %s", path.data,
			    strerror(errno));
		fclose(fp);
		goto out;
	}
	if (fstat(fileno(fp), &st) | fclose(fp)) {
		ret = error("cannot write '%s': %s", path.data,
			    strerror(errno));
		goto out;
	}
	add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 1, &st);
out:
	if (ret)
		s->failed = 1;
	buf_release(&path);
	return ret;
}

int
site_write(struct site *s, const char *relpath, const void *data, size_t len)
{
	if (!sitefs_valid_relpath(relpath))
		BUG("bad output path '%s'", relpath);
	return stage(s, relpath, data, len);
}

int
site_adopt(struct site *s, const char *relpath, const void *data, size_t len)
{
	struct buf path = BUF_INIT;
	struct stat st;
	int ret = 0;

	if (!sitefs_valid_relpath(relpath))
		BUG("bad output path '%s'", relpath);
	buf_addf(&path, "%s/%s", s->root, relpath);
	if (published_same(s, relpath, data, len)) {
		/* The published file stays; this copy goes with staging. */
		add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 0,
			 NULL);
	} else if (lstat(path.data, &st) || !S_ISREG(st.st_mode)) {
		ret = error("cannot stage '%s': %s", path.data,
			    strerror(errno));
	} else {
		add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 1,
			 &st);
	}
	buf_release(&path);
	return ret;
}

/* The entry of relpath among the files written or kept, or NULL. */
static const struct entry *
find_file(const struct site *s, const char *relpath)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].path, relpath))
			return &s->files[i];
	return NULL;
}

int
site_staged(const struct site *s, const char *relpath)
{
	const struct entry *e = find_file(s, relpath);

	return e && e->staged;
}

void
site_keep(struct site *s, const char *relpath, uint64_t key)
{
	add_file(s, relpath, key, 0, NULL);
}

/* ------------------------------------------------------------ publish */

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

static int
path_is(const void *key, const void *e)
{
	return strcmp(key, ((const struct entry *)e)->path);
}

/* Whether path is among the n entries v, sorted by path. */
static int
listed(const struct entry *v, size_t n, const char *path)
{
	return n && bsearch(path, v, n, sizeof(*v), path_is);
}

void
site_keep_rest(struct site *s)
{
	struct entry *done = NULL;
	struct buf path = BUF_INIT;
	size_t i, n = s->nfiles;

	if (n) {
		done = xcalloc(n, sizeof(*done));
		memcpy(done, s->files, n * sizeof(*done));
		qsort(done, n, sizeof(*done), by_path);
	}
	for (i = 0; i < s->nold; i++) {
		uint64_t have = HASH_INIT;

		if (listed(done, n, s->old[i].path))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", s->outdir, s->old[i].path);
		/* As it is now: a file gone or not regular is dropped. */
		if (!hash_file(&have, path.data, 1))
			add_file(s, s->old[i].path, have, 0, NULL);
	}
	free(done);
	buf_release(&path);
}


/*
 * The staged files are as this run wrote them: a program that wrote
 * into the staging folder since (a figure script's stray output) would
 * otherwise be published. 0, or -1 after printing an error.
 */
static int
check_staged(const struct site *s)
{
	struct buf path = BUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	for (i = 0; i < s->nfiles; i++) {
		const struct entry *e = &s->files[i];

		if (!e->staged)
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", s->root, e->path);
		if (lstat(path.data, &st) || !S_ISREG(st.st_mode) ||
		    !sitefs_same_state(&st, &e->st))
			ret = error("'%s' changed after it was written (by a "
				    "figure script?); nothing published",
				    path.data);
	}
	buf_release(&path);
	return ret;
}

/*
 * The first folder on the way to base/relpath that is something else
 * (a file, a link), as a length of relpath, or 0 when there is none.
 */
static size_t
blocked_at(const char *base, const char *relpath)
{
	struct buf p = BUF_INIT;
	const char *slash = relpath;
	struct stat st;
	size_t at = 0;

	while (!at && (slash = strchr(slash, '/'))) {
		buf_reset(&p);
		buf_addf(&p, "%s/%.*s", base, (int)(slash - relpath), relpath);
		if (lstat(p.data, &st)) {
			if (errno == ENOENT)
				break;
			at = (size_t)(slash - relpath);
		} else if (!S_ISDIR(st.st_mode)) {
			at = (size_t)(slash - relpath);
		}
		slash++;
	}
	buf_release(&p);
	return at;
}

/*
 * Makes base/to a copy of from, a file of outdir that is published
 * unchanged: a hard link (the same file, timestamps and all), or a copy
 * where the file system cannot link it. 0, or -1 after printing an
 * error.
 */
static int
link_or_copy(const char *from, const char *to)
{
	struct buf data = BUF_INIT;
	struct stat st;
	int ret = 0;

	if (!link(from, to))
		return 0;
	if (lstat(from, &st) || !S_ISREG(st.st_mode)) {
		/* Under the lock: only another program can do this. */
		return error("'%s' changed while this run was writing; "
			     "nothing published", from);
	}
	if (buf_read_file_flags(&data, from, FILE_NOFOLLOW) ||
	    file_write(to, data.data, data.len))
		ret = error("cannot write '%s': %s", to, strerror(errno));
	buf_release(&data);
	return ret;
}

/*
 * Puts the files published unchanged into the staged tree, where the
 * figure stage may have written unpublished copies of them. 0, or -1
 * after printing an error.
 */
static int
link_unchanged(struct site *s)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < s->nfiles && !ret; i++) {
		const struct entry *e = &s->files[i];

		if (e->staged)
			continue;
		buf_reset(&from);
		buf_addf(&from, "%s/%s", s->outdir, e->path);
		buf_reset(&to);
		buf_addf(&to, "%s/%s", s->root, e->path);
		sitefs_remove_tree(to.data);
		ret = sitefs_make_parents(&s->dirs, s->root, e->path) ||
		      link_or_copy(from.data, to.data) ? -1 : 0;
	}
	buf_release(&from);
	buf_release(&to);
	return ret;
}

/*
 * Removes from the staged tree below rel ("" for the top) what is not
 * to be published: the figure stage's scripts and copies, a figure
 * script's stray files, and the folders that end empty. Returns 0, or
 * -1 after printing an error when a folder cannot be read (its strays
 * would be published).
 */
static int
drop_strays(const struct site *s, size_t n, const char *rel)
{
	struct buf dir = BUF_INIT, path = BUF_INIT, sub = BUF_INIT;
	struct buf names = BUF_INIT;
	struct stat st;
	const char *e;
	int ret = 0;

	buf_addf(&dir, "%s%s%s", s->root, *rel ? "/" : "", rel);
	if (sitefs_list_dir(dir.data, &names))
		ret = sitefs_unreadable(dir.data);
	SITEFS_EACH_NAME(e, &names) {
		if (ret)
			break;
		buf_reset(&sub);
		buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", e);
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir.data, e);
		if (lstat(path.data, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			ret = drop_strays(s, n, sub.data);
			rmdir(path.data);
		} else if (!listed(s->files, n, sub.data) &&
			   strcmp(sub.data, ".manifest")) {
			unlink(path.data);
		}
	}
	buf_release(&dir);
	buf_release(&path);
	buf_release(&sub);
	buf_release(&names);
	return ret;
}

/* Whether name, at the top of outdir, is this program's bookkeeping. */
static int
bookkeeping(const char *name)
{
	return !strcmp(name, ".lock") || !strcmp(name, ".manifest") ||
	       !strncmp(name, ".publish", 8) || sitefs_staging_name(name);
}

/*
 * Carries into the staged tree, by hard link, what outdir below rel
 * holds that no run of this program wrote (a file such as out/CNAME,
 * put there by hand): neither this run's files (n sorted entries) nor
 * those of the manifest of the run before. Folders come only with a
 * file to hold, so that those of an older site go. A file of this
 * run's where such a folder is, or a folder where such a file is, stops
 * the publish. 0, or -1 after printing an error.
 */
static int
carry_over(struct site *s, size_t n, const char *rel)
{
	struct buf dir = BUF_INIT, from = BUF_INIT, to = BUF_INIT;
	struct buf sub = BUF_INIT, names = BUF_INIT;
	struct stat st;
	const char *e;
	size_t at;
	int ret = 0;

	buf_addf(&dir, "%s%s%s", s->outdir, *rel ? "/" : "", rel);
	if (sitefs_list_dir(dir.data, &names))
		ret = sitefs_unreadable(dir.data);
	SITEFS_EACH_NAME(e, &names) {
		if (ret)
			break;
		if (!*rel && bookkeeping(e))
			continue;
		buf_reset(&sub);
		buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", e);
		buf_reset(&from);
		buf_addf(&from, "%s/%s", dir.data, e);
		if (lstat(from.data, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			ret = carry_over(s, n, sub.data);
			continue;
		}
		if (listed(s->files, n, sub.data) ||
		    listed(s->old, s->nold, sub.data))
			continue;
		buf_reset(&to);
		buf_addf(&to, "%s/%s", s->root, sub.data);
		if ((at = blocked_at(s->root, sub.data)))
			ret = error("cannot publish into '%s': '%s', which "
				    "this program did not write, stands in "
				    "a folder where the site now has the "
				    "file '%.*s'; move it away and run "
				    "again", s->outdir, from.data, (int)at,
				    sub.data);
		else if (!lstat(to.data, &st) && S_ISDIR(st.st_mode))
			ret = error("cannot publish into '%s': '%s', which "
				    "this program did not write, stands "
				    "where the site now has a folder; move "
				    "it away and run again", s->outdir,
				    from.data);
		else if (lstat(to.data, &st) &&
			 (sitefs_make_parents(&s->dirs, s->root, sub.data) ||
			  linkat(AT_FDCWD, from.data, AT_FDCWD, to.data, 0)))
			ret = error("cannot keep '%s' in the new site: %s",
				    from.data, strerror(errno));
	}
	buf_release(&dir);
	buf_release(&from);
	buf_release(&to);
	buf_release(&sub);
	buf_release(&names);
	return ret;
}

/*
 * Publishes by exchange: completes the staged tree (the unchanged files
 * linked in, strays out, what the folder held that is not ours carried
 * over, a lock of its own held), moves it beside outdir (a folder cannot
 * be exchanged with one inside it), exchanges it with outdir in one
 * rename, and removes the old tree. The first n files are sorted.
 */
static int
publish_exchange(struct site *s, size_t n)
{
	struct buf path = BUF_INIT, tree = BUF_INIT;
	struct stat st;
	char pid[32];
	sigset_t block, old;
	ssize_t w;
	int fd = -1, ret = -1;

	if (link_unchanged(s))
		goto out;
	if (drop_strays(s, n, "") || carry_over(s, n, ""))
		goto out;
	/* Held before the exchange: the next run waits on this one. */
	buf_addf(&path, "%s/.lock", s->root);
	fd = open(path.data, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
		  O_NOFOLLOW, 0666);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		error("cannot write '%s': %s", path.data, strerror(errno));
		goto out;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	w = write(fd, pid, strlen(pid));
	(void)w;	/* who holds it: only informative */
	/*
	 * The new folder takes the old one's owner (where this run may set
	 * it) and permissions, which a web server may depend on.
	 */
	if (!lstat(s->target, &st) &&
	    ((lchown(s->root, st.st_uid, st.st_gid) &&
	      lchown(s->root, (uid_t)-1, st.st_gid)) |
	     chmod(s->root, st.st_mode & 07777)))
		errno = 0;	/* best effort: else it stays this run's */
	buf_addf(&tree, "%s/site", s->beside);
	sigemptyset(&block);
	diag_signal_set(&block, 1);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (diag_interrupted()) {
		/* Said by the caller. */
	} else if (rename(s->root, tree.data)) {
		error("cannot move '%s' to '%s': %s; nothing published",
		      s->root, tree.data, strerror(errno));
	} else if (sitefs_exchange(tree.data, s->target)) {
		error("cannot publish into '%s': %s; nothing published",
		      s->outdir, strerror(errno));
	} else {
		/* The new site is out: its lock is this run's now. */
		close(s->lockfd);
		s->lockfd = fd;
		fd = -1;
		s->published = 1;
		ret = 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!ret) {
		/* Beside outdir now: the old site, with the staging folder. */
		free(s->staging);
		s->staging = NULL;
		free(s->root);
		s->root = NULL;
	}
out:
	if (fd >= 0)
		close(fd);
	buf_release(&path);
	buf_release(&tree);
	return ret;
}

/*
 * 0 when every staged file can be moved into outdir: no folder where a
 * file goes, no file or link where a folder goes. Else -1 after printing
 * an error: nothing has moved yet.
 */
static int
check_destinations(const struct site *s)
{
	struct buf to = BUF_INIT;
	struct stat st;
	size_t i, at;
	int ret = 0;

	for (i = 0; i < s->nfiles && !ret; i++) {
		const struct entry *e = &s->files[i];

		if (!e->staged)
			continue;
		buf_reset(&to);
		buf_addf(&to, "%s/%s", s->outdir, e->path);
		if ((at = blocked_at(s->outdir, e->path)))
			ret = error("cannot publish '%s': '%s/%.*s' is not a "
				    "folder; nothing published", to.data,
				    s->outdir, (int)at, e->path);
		else if (!lstat(to.data, &st) && S_ISDIR(st.st_mode))
			ret = error("cannot publish '%s': a folder is in the "
				    "way; nothing published", to.data);
	}
	buf_release(&to);
	return ret;
}

/*
 * Publishes through a journal, where outdir cannot be exchanged whole:
 * checks every destination, commits the journal, carries it out. The
 * first n files are sorted.
 */
static int
publish_journal(struct site *s, size_t n)
{
	struct buf j = BUF_INIT, path = BUF_INIT, jpath = BUF_INIT;
	sigset_t block, old;
	size_t i;
	int ret = -1;

	if (check_destinations(s))
		goto out;
	/* The journal: what to move, then what the last run left over. */
	buf_addf(&j, JOURNAL_MAGIC "staging %s\n",
		 strrchr(s->staging, '/') + 1);
	for (i = 0; i < s->nfiles; i++)
		if (s->files[i].staged)
			buf_addf(&j, "move %s\n", s->files[i].path);
	for (i = 0; i < s->nold; i++)
		if (!listed(s->files, n, s->old[i].path))
			buf_addf(&j, "remove %s\n", s->old[i].path);
	BUF_ADDLIT(&j, "end\n");
	buf_addf(&path, "%s/.publish.tmp", s->outdir);
	buf_addf(&jpath, "%s/.publish", s->outdir);
	if (file_write(path.data, j.data, j.len)) {
		error("cannot write '%s': %s", path.data, strerror(errno));
		goto out;
	}
	/* From the journal on, publishing is not interrupted halfway. */
	sigemptyset(&block);
	diag_signal_set(&block, 1);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (diag_interrupted()) {
		unlink(path.data);
	} else if (rename(path.data, jpath.data)) {
		error("cannot write '%s': %s", jpath.data, strerror(errno));
		unlink(path.data);
	} else {
		/*
		 * Committed: done now, or by the next run if not, which
		 * needs the staging folder the journal names (should this
		 * one end on the way, out of memory).
		 */
		s->journaled = 1;
		ret = sitefs_apply_journal(s->outdir, j.data);
		if (ret == -2)
			BUG("the journal written does not parse");
		if (!ret) {
			s->journaled = 0;
			unlink(jpath.data);
			s->published = 1;
			free(s->staging);
			s->staging = NULL;
			free(s->root);
			s->root = NULL;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	buf_release(&j);
	buf_release(&path);
	buf_release(&jpath);
	return ret;
}

int
site_publish(struct site *s)
{
	struct buf m = BUF_INIT;
	size_t i, n;
	int ret = -1;

	if (!s->staging)
		BUG("site_publish() before site_begin()");
	if (diag_interrupted() || s->failed)
		return -1;
	/*
	 * The manifest, in path order: the same site, the same bytes. The
	 * files and the last run's are looked up by path from here on.
	 */
	n = s->nfiles;
	if (n)
		qsort(s->files, n, sizeof(*s->files), by_path);
	if (s->nold)
		qsort(s->old, s->nold, sizeof(*s->old), by_path);
	buf_addf(&m, MANIFEST_MAGIC "%016llx\n",
		 (unsigned long long)s->inputs);
	for (i = 0; i < n; i++)
		buf_addf(&m, "%016llx %s\n",
			 (unsigned long long)s->files[i].key,
			 s->files[i].path);
	/* Bookkeeping: staged and published like the rest, listed in none. */
	if (!stage(s, ".manifest", m.data, m.len) && !check_staged(s))
		ret = s->beside ? publish_exchange(s, n) :
			publish_journal(s, n);
	buf_release(&m);
	return ret;
}

size_t
site_count(const struct site *s, const char *suffix)
{
	const struct entry *v = s->published ? s->files : s->old;
	size_t n = s->published ? s->nfiles : s->nold, i, k = 0;
	size_t len = strlen(suffix), plen;

	for (i = 0; i < n; i++) {
		plen = strlen(v[i].path);
		k += plen >= len && !strcmp(v[i].path + plen - len, suffix);
	}
	return k;
}

/* -------------------------------------------------------------- watch */

/*
 * Notes every entry under dir (outdir/...), the staging folder apart.
 * Returns 0, or -1 after printing an error when a folder cannot be read:
 * taken for empty, everything in it would look new afterwards.
 */
static int
note_tree(struct site *s, const char *dir, int top)
{
	struct buf path = BUF_INIT, names = BUF_INIT;
	struct stat st;
	const char *e;
	int ret = 0;

	if (sitefs_list_dir(dir, &names))
		ret = sitefs_unreadable(dir);
	SITEFS_EACH_NAME(e, &names) {
		struct seen *n;

		if (ret)
			break;
		if (top && (!strncmp(e, STAGING_PREFIX, 9) ||
			    !strcmp(e, ".lock")))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, e);
		if (lstat(path.data, &st))
			continue;
		s->seen = xgrow(s->seen, &s->seencap, s->nseen + 1,
				sizeof(*s->seen));
		n = &s->seen[s->nseen++];
		n->path = xstrdup(path.data);
		n->st = st;
		if (S_ISDIR(st.st_mode))
			ret = note_tree(s, path.data, 0);
	}
	buf_release(&path);
	buf_release(&names);
	return ret;
}

/* Forgets what site_watch() noted. */
static void
forget_seen(struct site *s)
{
	size_t i;

	for (i = 0; i < s->nseen; i++)
		free(s->seen[i].path);
	free(s->seen);
	s->seen = NULL;
	s->nseen = s->seencap = 0;
}

int
site_watch(struct site *s)
{
	forget_seen(s);
	if (!note_tree(s, s->outdir, 1))
		return 0;
	forget_seen(s);
	return -1;
}

/*
 * Whether the path p (outdir/...) is, or holds, a file of the site as
 * last published: a file there that another program seems to have
 * added is never removed (the manifest names what this program wrote).
 */
static int
published_path(const struct site *s, const char *p)
{
	size_t i, n, len = strlen(s->outdir);

	if (strncmp(p, s->outdir, len) || p[len] != '/')
		return 1;	/* not ours to judge: kept */
	p += len + 1;
	n = strlen(p);
	if (!strcmp(p, ".manifest") || !strncmp(p, ".publish", 8))
		return 1;
	for (i = 0; i < s->nold; i++)
		if (!strncmp(s->old[i].path, p, n) &&
		    (!s->old[i].path[n] || s->old[i].path[n] == '/'))
			return 1;
	return 0;
}

int
site_verify(struct site *s, const char *who)
{
	struct seen *before = s->seen;
	size_t nbefore = s->nseen, i, k;
	int ret = 0;

	s->seen = NULL;
	s->nseen = s->seencap = 0;
	if (note_tree(s, s->outdir, 1)) {
		/* Nothing is judged from half a look. */
		ret = -1;
		goto out;
	}
	for (i = 0; i < s->nseen; i++) {
		const struct seen *now = &s->seen[i];

		for (k = 0; k < nbefore; k++)
			if (!strcmp(before[k].path, now->path))
				break;
		if (k == nbefore && published_path(s, now->path)) {
			ret = error("%s wrote '%s', outside the staging "
				    "folder; the next run rewrites it", who,
				    now->path);
		} else if (k == nbefore) {
			ret = error("%s wrote '%s', outside the staging "
				    "folder; removed", who, now->path);
			sitefs_remove_tree(now->path);
		} else if (!sitefs_same_state(&before[k].st, &now->st)) {
			/* A folder changes when an entry is added to it. */
			if (S_ISDIR(now->st.st_mode))
				continue;
			ret = error("%s changed '%s', outside the staging "
				    "folder; the next run rewrites it", who,
				    now->path);
		}
	}
out:
	forget_seen(s);
	for (i = 0; i < nbefore; i++)
		free(before[i].path);
	free(before);
	return ret;
}
