/*
 * The init command: a new project, copied from the installed share
 * folder (data/, templates/, docs/templates.md). Reads only inside the
 * share folder, regular files through buf_read_file(); writes only a
 * temporary folder (beside the project's, PARENT/.NAME.init-XXXXXX, or
 * inside it when it is an empty folder, DIR/.init-XXXXXX) and then
 * moves the finished tree into place.
 */
/* nftw() is XSI, beyond the POSIX base the Makefile asks for. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "init.h"
#include "xalloc.h"
#include "banned.h"

#ifndef DATADIR
#define DATADIR "/usr/local/share/ultimate"
#endif

/* A project's parts: in the share folder, and where the copy goes. */
static const char *const parts[] = { "data", "templates",
				     "docs/templates.md" };
/* The folders at the top of a project, moved into an empty DIR. */
static const char *const tops[] = { "data", "templates", "docs" };

/* Folders nested deeper than this in the share folder are a loop. */
#define MAX_DEPTH 16

const char *
init_share(const char **why)
{
	const char *e = getenv("ULTIMATE_SHARE");

	if (e && *e) {
		*why = "from ULTIMATE_SHARE";
		return e;
	}
	*why = "built in";
	return DATADIR;
}

static int
unlink_one(const char *path, const struct stat *st, int flag,
	   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Removes path and everything in it, never following links. */
static void
remove_tree(const char *path)
{
	nftw(path, unlink_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Copies the file or folder from to the new path to (a folder's files
 * and folders, whole). Returns 0, or -1 after printing an error.
 */
static int
copy(const char *from, const char *to, int depth)
{
	struct buf data = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	struct dirent *e;
	struct stat st;
	DIR *d = NULL;
	int ret = -1;

	if (stat(from, &st)) {
		error("cannot read '%s': %s", from, strerror(errno));
		goto out;
	}
	if (S_ISREG(st.st_mode)) {
		if (buf_read_file(&data, from)) {
			error("cannot read '%s': %s", from,
			      file_strerror(errno));
			goto out;
		}
		if (file_write(to, data.data, data.len)) {
			error("cannot write '%s': %s", to, strerror(errno));
			goto out;
		}
		ret = 0;
		goto out;
	}
	if (!S_ISDIR(st.st_mode) || depth > MAX_DEPTH) {
		error("cannot copy '%s': %s", from, depth > MAX_DEPTH ?
		      "folders nested too deep (a link loop?)" :
		      "not a regular file or folder");
		goto out;
	}
	if (mkdir(to, 0777)) {
		error("cannot create folder '%s': %s", to, strerror(errno));
		goto out;
	}
	if (!(d = opendir(from))) {
		error("cannot read folder '%s': %s", from, strerror(errno));
		goto out;
	}
	ret = 0;
	while (!ret && (errno = 0, e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_reset(&a);
		buf_addf(&a, "%s/%s", from, e->d_name);
		buf_reset(&b);
		buf_addf(&b, "%s/%s", to, e->d_name);
		ret = copy(a.data, b.data, depth + 1);
	}
	if (!ret && errno)
		ret = error("cannot read folder '%s': %s", from,
			    strerror(errno));
out:
	if (d)
		closedir(d);
	buf_release(&data);
	buf_release(&a);
	buf_release(&b);
	return ret;
}

/*
 * Whether the share folder holds every part: 0, or -1 after an error
 * that names the path looked at and how the folder was chosen.
 */
static int
check_share(const char *share, const char *why)
{
	struct buf p = BUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	if (stat(share, &st) || !S_ISDIR(st.st_mode))
		ret = error("cannot start a project: no share folder '%s' "
			    "(%s; 'make install' puts it there, or choose "
			    "another with ULTIMATE_SHARE=DIR)", share, why);
	for (i = 0; !ret && i < sizeof(parts) / sizeof(*parts); i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", share, parts[i]);
		if (stat(p.data, &st))
			ret = error("cannot start a project: no '%s' in the "
				    "share folder '%s' (%s; choose another "
				    "with ULTIMATE_SHARE=DIR)", parts[i],
				    share, why);
	}
	buf_release(&p);
	return ret;
}

/*
 * Whether dir may become the project: 1 when it does not exist, 0 when
 * it is an empty folder, -1 after an error.
 */
static int
check_dir(const char *dir)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int empty = 1;

	if (lstat(dir, &st)) {
		if (errno == ENOENT)
			return 1;
		return error("cannot create project '%s': %s", dir,
			     strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return error("cannot create project '%s': it exists and is "
			     "not a folder", dir);
	if (!(d = opendir(dir)))
		return error("cannot create project '%s': %s", dir,
			     strerror(errno));
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty)
		return error("cannot create project '%s': it exists and is "
			     "not empty; choose a new folder", dir);
	return 0;
}

/* Copies every part of share into the folder tmp. 0, or -1. */
static int
copy_parts(const char *share, const char *tmp)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	size_t i;
	int ret = 0;

	buf_addf(&to, "%s/docs", tmp);
	if (mkdir(to.data, 0777))
		ret = error("cannot create folder '%s': %s", to.data,
			    strerror(errno));
	for (i = 0; !ret && i < sizeof(parts) / sizeof(*parts); i++) {
		buf_reset(&from);
		buf_addf(&from, "%s/%s", share, parts[i]);
		buf_reset(&to);
		buf_addf(&to, "%s/%s", tmp, parts[i]);
		ret = copy(from.data, to.data, 0);
	}
	buf_release(&from);
	buf_release(&to);
	return ret;
}

/*
 * Moves the tops of the project in tmp into the empty folder dir, each
 * by rename(); when one fails, those moved go back. 0, or -1.
 */
static int
move_tops(const char *tmp, const char *dir)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	size_t i, n = sizeof(tops) / sizeof(*tops);
	int ret = 0, err = 0;

	for (i = 0; i < n; i++) {
		buf_reset(&from);
		buf_addf(&from, "%s/%s", tmp, tops[i]);
		buf_reset(&to);
		buf_addf(&to, "%s/%s", dir, tops[i]);
		if (rename(from.data, to.data)) {
			err = errno;
			break;
		}
	}
	if (i < n) {
		ret = error("cannot create project '%s': %s", dir,
			    err == ENOTEMPTY || err == EEXIST ?
			    "it is no longer empty" : strerror(err));
		while (i--) {
			buf_reset(&from);
			buf_addf(&from, "%s/%s", tmp, tops[i]);
			buf_reset(&to);
			buf_addf(&to, "%s/%s", dir, tops[i]);
			rename(to.data, from.data);
		}
	}
	buf_release(&from);
	buf_release(&to);
	return ret;
}

int
init_project(const char *share, const char *why, const char *dir)
{
	struct buf name = BUF_INIT, tmp = BUF_INIT;
	sigset_t block, old;
	size_t len = strlen(dir);
	const char *slash;
	mode_t mask;
	int ret = -1, fresh;

	/* "proj/" and "proj" are one folder; "/" stays "/". */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	buf_add(&name, dir, len);
	/*
	 * Held off until the tree is in place or gone: a Ctrl-C then
	 * ends the run with a whole project or none, no temporary folder.
	 */
	sigemptyset(&block);
	diag_signal_set(&block, 1);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (!len) {
		error("project folder name is empty");
		goto out;
	}
	if (check_share(share, why) || (fresh = check_dir(name.data)) < 0)
		goto out;
	if (fresh) {
		slash = strrchr(name.data, '/');
		if (slash)
			buf_addf(&tmp, "%.*s/.%s.init-XXXXXX",
				 (int)(slash - name.data), name.data,
				 slash + 1);
		else
			buf_addf(&tmp, ".%s.init-XXXXXX", name.data);
	} else {
		buf_addf(&tmp, "%s/.init-XXXXXX", name.data);
	}
	if (!mkdtemp(tmp.data)) {
		error("cannot create project '%s': %s", name.data,
		      strerror(errno));
		goto out;
	}
	/* mkdtemp() makes it 0700; the project is as mkdir would make it. */
	mask = umask(0);
	umask(mask);
	if (chmod(tmp.data, 0777 & ~mask)) {
		error("cannot create project '%s': %s", name.data,
		      strerror(errno));
		remove_tree(tmp.data);
		goto out;
	}
	if (copy_parts(share, tmp.data)) {
		remove_tree(tmp.data);
		goto out;
	}
	if (!fresh) {
		ret = move_tops(tmp.data, name.data);
		remove_tree(tmp.data);
	} else if (rename(tmp.data, name.data)) {
		error("cannot create project '%s': %s", name.data,
		      errno == ENOTEMPTY || errno == EEXIST ?
		      "it exists now and is not empty" : strerror(errno));
		remove_tree(tmp.data);
	} else {
		ret = 0;
	}
	if (ret)
		goto out;
	fputs("ultimate: new project in '", stdout);
	diag_fputs(name.data, stdout);
	fputs("': data/, templates/, docs/templates.md\n  cd ", stdout);
	buf_reset(&tmp);
	buf_add_shellword(&tmp, name.data);
	diag_fputs(tmp.data, stdout);
	fputs(" && ultimate report\n", stdout);
	fflush(stdout);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	buf_release(&name);
	buf_release(&tmp);
	return ret;
}
