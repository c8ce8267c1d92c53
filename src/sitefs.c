/*
 * The output folder's paths and files, for the write stage (site.c):
 * the paths it may write, folder lists that hold one descriptor at a
 * time, removal and creation of folders that never follow a link, the
 * exchange of two folders, and carrying out a publish journal. Reads
 * and writes only the paths it is given.
 */
/* renameat2() and statx() are Linux's, declared under _GNU_SOURCE. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "sitefs.h"
#include "banned.h"

/*
 * Whether p is a path this program may have written under outdir: one
 * or more components separated by '/', none empty, "." or "..", no
 * control characters, and not one of the bookkeeping names at the top.
 * Everything read back from outdir is checked with it before use.
 */
int
sitefs_valid_relpath(const char *p)
{
	const char *c = p;
	size_t n;

	if (!*p || strlen(p) > 1024 || !strncmp(p, STAGING_PREFIX, 9) ||
	    !strcmp(p, ".lock") || !strncmp(p, ".publish", 8) ||
	    !strcmp(p, ".manifest"))
		return 0;
	for (;;) {
		n = strcspn(c, "/");
		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		for (; n; n--, c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return 0;
		if (!*c)
			return 1;
		c++;
	}
}

/* Whether p is the six letters or digits that mkdtemp() puts in. */
int
sitefs_mkdtemp_suffix(const char *p)
{
	size_t i;

	for (i = 0; i < 6; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') ||
		      (p[i] >= 'A' && p[i] <= 'Z') ||
		      (p[i] >= '0' && p[i] <= '9')))
			return 0;
	return !p[6];
}

/* Whether name is a staging folder name: the prefix and six characters. */
int
sitefs_staging_name(const char *name)
{
	return !strncmp(name, STAGING_PREFIX, 9) && sitefs_mkdtemp_suffix(name + 9);
}

/*
 * The names in the folder path but "." and "..", each followed by a
 * '\0', into names; the folder is closed again before the caller goes
 * into any of them, so that a walk holds one descriptor at a time.
 * Returns 0, or -1 with errno set when the folder cannot be read whole:
 * a walk never takes a folder it cannot read (out of descriptors or of
 * memory) for an empty one.
 */
int
sitefs_list_dir(const char *path, struct buf *names)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int err;

	buf_reset(names);
	if (!d)
		return -1;
	for (;;) {
		errno = 0;
		if (!(e = readdir(d)))
			break;
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			buf_add(names, e->d_name, strlen(e->d_name) + 1);
	}
	err = errno;
	closedir(d);
	errno = err;
	return err ? -1 : 0;
}


/* The error for the folder path that sitefs_list_dir() could not read: -1. */
int
sitefs_unreadable(const char *path)
{
	return error("cannot read folder '%s': %s", path,
		     diag_strerror(errno));
}

/*
 * Removes path and, when it is a folder, everything in it, never
 * following symbolic links. Best effort.
 */
void
sitefs_remove_tree(const char *path)
{
	struct stat st;
	struct buf p = BUF_INIT, names = BUF_INIT;
	const char *n;

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	sitefs_list_dir(path, &names);
	SITEFS_EACH_NAME(n, &names) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", path, n);
		sitefs_remove_tree(p.data);
	}
	rmdir(path);
	buf_release(&p);
	buf_release(&names);
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
 * Creates the folders of relpath under base; those listed in made (if
 * not NULL) are not asked for again. 0, or -1 after printing an error.
 */
int
sitefs_make_parents(struct buf *made, const char *base, const char *relpath)
{
	struct buf p = BUF_INIT;
	const char *slash = relpath;
	struct stat st;
	int ret = 0;

	while ((slash = strchr(slash, '/'))) {
		buf_reset(&p);
		buf_addf(&p, "%s/%.*s", base, (int)(slash - relpath), relpath);
		slash++;
		if (made && made_before(made, p.data, p.len))
			continue;
		if (mkdir(p.data, 0777) && (errno != EEXIST ||
					    lstat(p.data, &st) ||
					    !S_ISDIR(st.st_mode))) {
			ret = error("cannot create folder '%s': %s", p.data,
				    errno == EEXIST ? "a file is in the way" :
				    strerror(errno));
			break;
		}
		if (made)
			buf_add(made, p.data, p.len + 1);
	}
	buf_release(&p);
	return ret;
}

/*
 * 1 when every folder on the way from base to base/relpath is a real
 * folder, not a symbolic link: a path read back from outdir is acted on
 * only inside outdir.
 */
int
sitefs_real_parents(const char *base, const char *relpath)
{
	struct buf p = BUF_INIT;
	const char *slash = relpath;
	struct stat st;
	int ok = 1;

	while (ok && (slash = strchr(slash, '/'))) {
		buf_reset(&p);
		buf_addf(&p, "%s/%.*s", base, (int)(slash - relpath), relpath);
		slash++;
		ok = !lstat(p.data, &st) && S_ISDIR(st.st_mode);
	}
	buf_release(&p);
	return ok;
}

/*
 * Whether a and b describe one file in one state: the same inode, size
 * and times of change. A file written since (by us or by another
 * program) differs in its ctime at least.
 */
int
sitefs_same_state(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Whether the folder path is the root of a mount, which cannot be
 * renamed: statx() says so where the kernel knows (Linux 5.8 on), else
 * a folder on another device than its parent is one.
 */
int
sitefs_mount_root(const char *path, const char *parent)
{
	struct stat a, b;

#if defined(__linux__) && defined(STATX_ATTR_MOUNT_ROOT)
	struct statx sx;

	if (!statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
		   &sx) && (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return !!(sx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
#endif
	return lstat(path, &a) || lstat(parent, &b) || a.st_dev != b.st_dev;
}

/* Exchanges the folders a and b in one step: 0, or -1 with errno set. */
int
sitefs_exchange(const char *a, const char *b)
{
#if defined(__linux__) && defined(RENAME_EXCHANGE)
	return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
	(void)a;
	(void)b;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * Removes the folders of relpath under base that a removal left empty,
 * deepest first: folders that no longer belong to the site go with
 * their last file.
 */
static void
prune_parents(const char *base, const char *relpath)
{
	struct buf p = BUF_INIT;
	char *slash;

	buf_addf(&p, "%s/%s", base, relpath);
	while ((slash = strrchr(p.data + strlen(base) + 1, '/'))) {
		*slash = '\0';
		if (rmdir(p.data))
			break;
	}
	buf_release(&p);
}

/*
 * Carries out a journal: "ultimate-publish 1", "staging NAME", then
 * "move PATH" and "remove PATH" lines, then "end". Every line is checked
 * before anything is done; a move whose staged file is gone was done
 * already, so a journal can be carried out twice. Removes the staging
 * folder. Returns 0, -1 after printing an error (the journal is to
 * stay), or -2 when the journal is damaged (nothing done).
 */
int
sitefs_apply_journal(const char *outdir, const char *text)
{
	struct buf from = BUF_INIT, to = BUF_INIT, stg = BUF_INIT;
	struct buf r = BUF_INIT, top = BUF_INIT, made = BUF_INIT;
	const char *p = text, *nl, *rel;
	struct stat st;
	int ret = 0, act;

	if (strncmp(p, JOURNAL_MAGIC, sizeof(JOURNAL_MAGIC) - 1))
		return -2;
	p += sizeof(JOURNAL_MAGIC) - 1;
	nl = strchr(p, '\n');
	if (!nl || strncmp(p, "staging ", 8))
		return -2;
	buf_add(&stg, p + 8, (size_t)(nl - p - 8));
	if (!sitefs_staging_name(stg.data)) {
		buf_release(&stg);
		return -2;
	}
	buf_reset(&stg);
	buf_addf(&stg, "%s/%.*s", outdir, (int)(nl - p - 8), p + 8);
	buf_addf(&top, "%s/site", stg.data);
	text = nl + 1;
	/* Checked whole first (act 0), then carried out (act 1). */
	for (act = 0; act < 2 && !ret; act++) {
		for (p = text;; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl) {
				ret = -2;
				break;
			}
			if (nl - p == 3 && !strncmp(p, "end", 3))
				break;
			if (!strncmp(p, "move ", 5))
				rel = p + 5;
			else if (!strncmp(p, "remove ", 7))
				rel = p + 7;
			else
				rel = NULL;
			buf_reset(&r);
			if (rel)
				buf_add(&r, rel, (size_t)(nl - rel));
			/* The manifest is moved into place, never removed. */
			if (!rel || (!sitefs_valid_relpath(r.data) &&
				     (*p != 'm' || strcmp(r.data,
							  ".manifest")))) {
				ret = -2;
				break;
			}
			if (!act)
				continue;
			buf_reset(&from);
			buf_addf(&from, "%s/%s", top.data, r.data);
			buf_reset(&to);
			buf_addf(&to, "%s/%s", outdir, r.data);
			if (*p == 'r') {
				/* Through a link, it would be elsewhere. */
				if (!sitefs_real_parents(outdir, r.data))
					;
				else if (unlink(to.data) && errno != ENOENT)
					ret = error("cannot remove '%s': %s",
						    to.data, strerror(errno));
				else
					prune_parents(outdir, r.data);
			} else if (sitefs_make_parents(&made, outdir, r.data)) {
				ret = -1;
			} else if (rename(from.data, to.data) &&
				   (errno != ENOENT || !lstat(from.data, &st))) {
				/* (Gone from staging: moved already.) */
				ret = error("cannot move '%s' to '%s': %s",
					    from.data, to.data,
					    strerror(errno));
			}
			if (ret)
				break;
		}
	}
	if (!ret)
		sitefs_remove_tree(stg.data);
	buf_release(&top);
	buf_release(&made);
	buf_release(&r);
	buf_release(&from);
	buf_release(&to);
	buf_release(&stg);
	return ret;
}
