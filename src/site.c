/*
 * The write stage: stage output files, then publish them into out/.
 * Reads nothing but the files it compares; writes only inside outdir.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "hash.h"
#include "site.h"
#include "xalloc.h"
#include "banned.h"

struct site {
	int failed;		/* a write failed: later ones fail quietly */
	char *outdir;
	char *staging;
	char **files;		/* relative paths written, in write order */
	uint64_t *keys;		/* their content keys */
	unsigned char *staged;	/* 1: in staging; 0: out/ has it already */
	size_t nfiles, cap, kcap, scap;
	uint64_t inputs;
	int fresh;		/* outdir did not exist: staging becomes it */
	struct buf made;	/* folders made or found, each + '\0' */
};

static volatile sig_atomic_t caught;

static void
on_signal(int sig)
{
	caught = sig;
}

int
site_interrupted(void)
{
	return caught;
}

/*
 * Catches the signals that end a run, without SA_RESTART, so that a
 * blocking read (of gnuplot's output) returns EINTR and the run can stop.
 */
static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

struct site *
site_open(const char *outdir)
{
	struct site *s;
	struct buf tmpl = BUF_INIT;
	struct stat st;
	size_t len = strlen(outdir);
	int fresh = 0;

	/*
	 * No outdir yet: the staging folder is made beside it and renamed
	 * to it whole, one rename instead of one per file; a failed run
	 * then leaves no outdir at all.
	 */
	while (len > 1 && outdir[len - 1] == '/')
		len--;
	if (stat(outdir, &st) && errno == ENOENT && len) {
		buf_add(&tmpl, outdir, len);
		BUF_ADDLIT(&tmpl, ".staging-XXXXXX");
		fresh = mkdtemp(tmpl.data) != NULL;
		if (!fresh)
			buf_reset(&tmpl);
	}
	if (!fresh) {
		if (mkdir(outdir, 0777) && errno != EEXIST) {
			error("cannot create output folder '%s': %s", outdir,
			      strerror(errno));
			buf_release(&tmpl);
			return NULL;
		}
		buf_addf(&tmpl, "%s/.staging-XXXXXX", outdir);
		if (!mkdtemp(tmpl.data)) {
			error("cannot write to output folder '%s': %s",
			      outdir, strerror(errno));
			buf_release(&tmpl);
			return NULL;
		}
	}
	s = xcalloc(1, sizeof(*s));
	s->fresh = fresh;
	buf_init(&s->made);
	s->outdir = xstrdup(outdir);
	s->staging = buf_detach(&tmpl, NULL);
	catch_signals();
	return s;
}

const char *
site_staging(const struct site *s)
{
	return s->staging;
}

/* 1 when the folder path was made (or found) before. */
static int
made_before(const struct buf *made, const char *path, size_t len)
{
	const char *p;

	for (p = made->data; p < made->data + made->len; p += strlen(p) + 1)
		if (strlen(p) == len && !memcmp(p, path, len))
			return 1;
	return 0;
}

/*
 * Creates the folders of relpath under base; those already made, listed
 * in made, are not asked for again. 0, or -1 after printing an error.
 */
static int
make_parents(struct buf *made, const char *base, const char *relpath)
{
	struct buf p = BUF_INIT;
	const char *slash = relpath;
	int ret = 0;

	while ((slash = strchr(slash, '/'))) {
		buf_reset(&p);
		buf_addf(&p, "%s/%.*s", base, (int)(slash - relpath), relpath);
		slash++;
		if (made_before(made, p.data, p.len))
			continue;
		if (mkdir(p.data, 0777) && errno != EEXIST) {
			ret = error("cannot create folder '%s': %s", p.data,
				    strerror(errno));
			break;
		}
		buf_add(made, p.data, p.len + 1);
	}
	buf_release(&p);
	return ret;
}

static void
add_file(struct site *s, const char *relpath, uint64_t key, int staged)
{
	s->files = xgrow(s->files, &s->cap, s->nfiles + 1, sizeof(*s->files));
	s->keys = xgrow(s->keys, &s->kcap, s->nfiles + 1, sizeof(*s->keys));
	s->staged = xgrow(s->staged, &s->scap, s->nfiles + 1,
			  sizeof(*s->staged));
	s->keys[s->nfiles] = key;
	s->staged[s->nfiles] = (unsigned char)staged;
	s->files[s->nfiles++] = xstrdup(relpath);
}

/*
 * 1 when outdir/relpath is a regular file holding exactly data: then it
 * is left in place, not staged, and keeps its timestamp.
 */
static int
published_same(const struct site *s, const char *relpath, const void *data,
	       size_t len)
{
	struct buf path = BUF_INIT;
	struct stat st;
	char chunk[65536];
	size_t off = 0;
	ssize_t n;
	int fd, same;

	if (s->fresh)
		return 0;	/* no outdir: nothing published */
	buf_addf(&path, "%s/%s", s->outdir, relpath);
	fd = open(path.data, O_RDONLY);
	buf_release(&path);
	if (fd < 0)
		return 0;
	same = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       (uintmax_t)st.st_size == (uintmax_t)len;
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

void
site_set_inputs(struct site *s, uint64_t inputs)
{
	s->inputs = inputs;
}

/*
 * Reads outdir/.manifest: the inputs key into *inputs, and each file
 * line to fn. Returns -1 when there is no readable manifest.
 */
static int
read_manifest(const char *outdir, uint64_t *inputs,
	      int (*fn)(void *ctx, const char *rel, uint64_t key), void *ctx)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	char *p, *nl;
	int ret = 0;

	buf_addf(&path, "%s/.manifest", outdir);
	ret = buf_read_file(&text, path.data);
	buf_release(&path);
	if (ret) {
		buf_release(&text);
		return -1;
	}
	p = text.data;
	if (strncmp(p, "ultimate-manifest 1\ninputs ", 27)) {
		buf_release(&text);
		return -1;
	}
	*inputs = strtoull(p + 27, &p, 16);
	for (p = strchr(p, '\n'); p && p[1]; p = nl) {
		uint64_t key = strtoull(p + 1, &p, 16);

		nl = strchr(p, '\n');
		if (!nl || *p != ' ') {
			ret = -1;
			break;
		}
		*nl = '\0';
		if (fn(ctx, p + 1, key)) {
			ret = -1;
			break;
		}
		*nl = '\n';
	}
	buf_release(&text);
	return ret;
}

struct check {
	const char *outdir;
};

static int
check_file(void *ctx, const char *rel, uint64_t key)
{
	const struct check *c = ctx;
	struct buf path = BUF_INIT;
	uint64_t have = HASH_INIT;
	int bad;

	buf_addf(&path, "%s/%s", c->outdir, rel);
	bad = hash_file(&have, path.data, 0) || have != key;
	buf_release(&path);
	return bad;
}

int
site_uptodate(const char *outdir, uint64_t inputs)
{
	struct check c = { outdir };
	uint64_t recorded;

	return !read_manifest(outdir, &recorded, check_file, &c) &&
	       recorded == inputs;
}

/* qsort() has no context argument: the paths being sorted. */
static char **sort_files;

static int
by_path(const void *a, const void *b)
{
	return strcmp(sort_files[*(const size_t *)a],
		      sort_files[*(const size_t *)b]);
}

/* Collects the files of the old manifest that this run did not write. */
struct stale {
	struct site *s;
	struct buf paths;	/* NUL-separated */
};

static int
find_stale(void *ctx, const char *rel, uint64_t key)
{
	struct stale *st = ctx;
	size_t i;

	(void)key;
	for (i = 0; i < st->s->nfiles; i++)
		if (!strcmp(st->s->files[i], rel))
			return 0;
	if (!strstr(rel, "..") && *rel != '/') {
		buf_addf(&st->paths, "%s/%s", st->s->outdir, rel);
		buf_addch(&st->paths, '\0');
	}
	return 0;
}

int
site_write(struct site *s, const char *relpath, const void *data, size_t len)
{
	struct buf path = BUF_INIT;
	FILE *fp;
	int ret = 0;

	if (!*relpath || *relpath == '/' || strstr(relpath, ".."))
		BUG("bad output path '%s'", relpath);
	/* Interrupted, or a full disk: fail quietly, said once already. */
	if (caught || s->failed)
		return -1;
	if (published_same(s, relpath, data, len)) {
		add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 0);
		return 0;
	}
	if (make_parents(&s->made, s->staging, relpath))
		return -1;
	buf_addf(&path, "%s/%s", s->staging, relpath);
	fp = fopen(path.data, "wb");
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
	if (fclose(fp)) {
		ret = error("cannot write '%s': %s", path.data,
			    strerror(errno));
		goto out;
	}
	add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 1);
out:
	if (ret)
		s->failed = 1;
	buf_release(&path);
	return ret;
}

void
site_keep(struct site *s, const char *relpath, const void *data, size_t len)
{
	add_file(s, relpath, hash_bytes(HASH_INIT, data, len), 0);
}

int
site_staged(const struct site *s, const char *relpath)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i], relpath))
			return s->staged[i];
	return 0;
}

int
site_mkdirs(struct site *s, const char *relpath)
{
	return make_parents(&s->made, s->staging, relpath);
}

int
site_adopt(struct site *s, const char *relpath)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	int ret = 0;

	buf_addf(&path, "%s/%s", s->staging, relpath);
	if (buf_read_file(&data, path.data))
		ret = error("expected '%s' to be written, but it is not there",
			    path.data);
	else
		add_file(s, relpath, hash_bytes(HASH_INIT, data.data,
						data.len),
			 !published_same(s, relpath, data.data, data.len));
	buf_release(&path);
	buf_release(&data);
	return ret;
}

static void
site_release(struct site *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->keys);
	free(s->staged);
	buf_release(&s->made);
	free(s->outdir);
	free(s->staging);
	free(s);
}

/*
 * Removes path and, when it is a folder, everything in it (not following
 * symbolic links). Best effort: used to clean up the staging folder,
 * which may also hold files that tools wrote there themselves.
 */
static void
remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	struct buf p = BUF_INIT;

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_reset(&p);
		buf_addf(&p, "%s/%s", path, e->d_name);
		remove_tree(p.data);
	}
	if (d)
		closedir(d);
	rmdir(path);
	buf_release(&p);
}

/* Removes the staging folder and whatever is left in it. */
static void
cleanup(struct site *s)
{
	remove_tree(s->staging);
}

/*
 * Removes what tools left in the staging folder that is not to be
 * published (gnuplot's batch file), so that it can become outdir.
 */
static void
prune(struct site *s, const char *dir, const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct buf path = BUF_INIT, sub = BUF_INIT;
	size_t i;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, e->d_name);
		buf_reset(&sub);
		buf_addf(&sub, "%s%s", rel, e->d_name);
		for (i = 0; i < s->nfiles; i++)
			if (s->staged[i] && !strcmp(s->files[i], sub.data))
				break;
		if (i < s->nfiles)
			continue;
		buf_addch(&sub, '/');
		if (made_before(&s->made, path.data, path.len))
			prune(s, path.data, sub.data);
		else
			remove_tree(path.data);
	}
	if (d)
		closedir(d);
	buf_release(&path);
	buf_release(&sub);
}

/*
 * A fresh site: the staging folder, with outdir's permissions, becomes
 * outdir in one rename. Returns 0, or -1 (nothing done) when outdir
 * appeared meanwhile: then the files are moved one by one.
 */
static int
publish_whole(struct site *s)
{
	mode_t mask = umask(0);

	umask(mask);
	prune(s, s->staging, "");
	if (chmod(s->staging, 0777 & ~mask) || rename(s->staging, s->outdir))
		return -1;
	return 0;
}

int
site_publish(struct site *s)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	struct stale stale = { NULL, BUF_INIT };
	sigset_t block, old;
	size_t i;
	int ret = 0;

	if (caught) {
		site_abort(s);
		return -1;
	}
	/* The manifest, for the next run's no-op check. */
	{
		struct buf m = BUF_INIT;
		uint64_t prev;

		size_t *order = xcalloc(s->nfiles ? s->nfiles : 1,
					sizeof(*order));

		/* In path order: the same site gives the same manifest. */
		for (i = 0; i < s->nfiles; i++)
			order[i] = i;
		sort_files = s->files;
		qsort(order, s->nfiles, sizeof(*order), by_path);
		buf_addf(&m, "ultimate-manifest 1\ninputs %016llx\n",
			 (unsigned long long)s->inputs);
		for (i = 0; i < s->nfiles; i++)
			buf_addf(&m, "%016llx %s\n",
				 (unsigned long long)s->keys[order[i]],
				 s->files[order[i]]);
		free(order);
		stale.s = s;
		read_manifest(s->outdir, &prev, find_stale, &stale);
		ret = site_write(s, ".manifest", m.data, m.len);
		buf_release(&m);
		if (ret) {
			buf_release(&stale.paths);
			site_abort(s);
			return -1;
		}
	}
	/* Publishing is not interrupted halfway: signals wait until done. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (s->fresh && !publish_whole(s))
		goto done;
	buf_reset(&s->made);
	for (i = 0; i < s->nfiles && !ret; i++) {
		if (!s->staged[i])
			continue;
		buf_reset(&from);
		buf_reset(&to);
		buf_addf(&from, "%s/%s", s->staging, s->files[i]);
		buf_addf(&to, "%s/%s", s->outdir, s->files[i]);
		if (make_parents(&s->made, s->outdir, s->files[i]))
			ret = -1;
		else if (rename(from.data, to.data))
			ret = error("cannot move '%s' to '%s': %s", from.data,
				    to.data, strerror(errno));
	}
	/* Files of the last run that this one no longer makes. */
	if (!ret) {
		const char *p;

		for (p = stale.paths.data; p < stale.paths.data +
		     stale.paths.len; p += strlen(p) + 1)
			unlink(p);
	}
	buf_release(&stale.paths);
	cleanup(s);
done:
	site_release(s);
	buf_release(&from);
	buf_release(&to);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void
site_abort(struct site *s)
{
	if (!s)
		return;
	cleanup(s);
	site_release(s);
}
