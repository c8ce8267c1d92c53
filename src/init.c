/*
 * The init command: a new project, copied from one of the examples of
 * the installed share folder (examples[]) and docs/templates.md. Reads
 * only inside the share folder, regular files through buf_read_file();
 * writes only a temporary folder (beside the project's,
 * PARENT/.NAME.init-XXXXXX, or inside it when it is an empty folder,
 * DIR/.init-XXXXXX) and then moves the finished tree into place.
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

/*
 * The examples a project starts from, the first by default: each is a
 * folder of the share folder (make install lays them out), copied whole
 * or only the parts named. The share folder's own data/ and templates/
 * are the Lloyd report, which the commands read when no project is
 * found (main.c), so that example is those two.
 */
static const char *const lloyd_parts[] = { "data", "templates", NULL };
static const struct example {
	const char *name;
	const char *dir;		/* in the share folder */
	const char *const *parts;	/* of dir; NULL: all it holds */
} examples[] = {
	{ "minimal", "examples/minimal", NULL },
	{ "lloyd", ".", lloyd_parts },
};
#define NEXAMPLES (sizeof(examples) / sizeof(examples[0]))
/* Every project has the language's reference beside it. */
#define REFERENCE "docs/templates.md"

/* Folders nested deeper than this in the share folder are a loop. */
#define MAX_DEPTH 16

const char *
init_example(size_t i)
{
	return i < NEXAMPLES ? examples[i].name : NULL;
}

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

/* scandir() filter: every entry but "." and "..". */
static int
not_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

/*
 * The entries of the folder dir, in name order, into *names (the caller
 * frees each and the array with free_names()). Returns how many, or -1
 * after printing an error.
 */
static int
list_dir(const char *dir, struct dirent ***names)
{
	int n = scandir(dir, names, not_dots, alphasort);

	if (n < 0)
		error("cannot read folder '%s': %s", dir, strerror(errno));
	return n;
}

static void
free_names(struct dirent **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

static int copy(const char *from, const char *to, int depth);

/*
 * Copies every file and folder of the folder from into the folder to,
 * which exists. Returns 0, or -1 after printing an error.
 */
static int
copy_entries(const char *from, const char *to, int depth)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct dirent **names;
	int n = list_dir(from, &names), i, ret = n < 0 ? -1 : 0;

	for (i = 0; !ret && i < n; i++) {
		buf_reset(&a);
		buf_addf(&a, "%s/%s", from, names[i]->d_name);
		buf_reset(&b);
		buf_addf(&b, "%s/%s", to, names[i]->d_name);
		ret = copy(a.data, b.data, depth + 1);
	}
	if (n >= 0)
		free_names(names, n);
	buf_release(&a);
	buf_release(&b);
	return ret;
}

/*
 * Copies the file or folder from to the new path to (a folder's files
 * and folders, whole). Returns 0, or -1 after printing an error.
 */
static int
copy(const char *from, const char *to, int depth)
{
	struct buf data = BUF_INIT;
	struct stat st;
	int ret = -1;

	if (stat(from, &st)) {
		error("cannot read '%s': %s", from, strerror(errno));
	} else if (S_ISREG(st.st_mode)) {
		if (buf_read_file(&data, from))
			error("cannot read '%s': %s", from,
			      file_strerror(errno));
		else if (file_write(to, data.data, data.len))
			error("cannot write '%s': %s", to, strerror(errno));
		else
			ret = 0;
	} else if (!S_ISDIR(st.st_mode) || depth > MAX_DEPTH) {
		error("cannot copy '%s': %s", from, depth > MAX_DEPTH ?
		      "folders nested too deep (a link loop?)" :
		      "not a regular file or folder");
	} else if (mkdir(to, 0777)) {
		error("cannot create folder '%s': %s", to, strerror(errno));
	} else {
		ret = copy_entries(from, to, depth);
	}
	buf_release(&data);
	return ret;
}

/* The example called name, or NULL. */
static const struct example *
find_example(const char *name)
{
	size_t i;

	for (i = 0; i < NEXAMPLES; i++)
		if (!strcmp(examples[i].name, name))
			return &examples[i];
	return NULL;
}

/* Into p: part (NULL: the folder itself) of ex, relative to share. */
static void
part_path(struct buf *p, const struct example *ex, const char *part)
{
	buf_reset(p);
	if (strcmp(ex->dir, "."))
		buf_addstr(p, ex->dir);
	if (part)
		buf_addf(p, "%s%s", p->len ? "/" : "", part);
}

/*
 * Whether the share folder holds rel: 0, or -1 after an error that
 * names the path looked at and how the folder was chosen (why).
 */
static int
check_part(const char *share, const char *why, const char *rel)
{
	struct buf full = BUF_INIT;
	struct stat st;
	int ret = 0;

	buf_addf(&full, "%s/%s", share, rel);
	if (*rel && stat(full.data, &st))
		ret = error("cannot start a project: no '%s' in the share "
			    "folder '%s' (%s; choose another with "
			    "ULTIMATE_SHARE=DIR)", rel, share, why);
	buf_release(&full);
	return ret;
}

/*
 * Whether the share folder holds every part of ex and the reference: 0,
 * or -1 after an error.
 */
static int
check_share(const char *share, const char *why, const struct example *ex)
{
	struct buf p = BUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	if (stat(share, &st) || !S_ISDIR(st.st_mode))
		ret = error("cannot start a project: no share folder '%s' "
			    "(%s; 'make install' puts it there, or choose "
			    "another with ULTIMATE_SHARE=DIR)", share, why);
	part_path(&p, ex, NULL);
	if (!ret && !ex->parts)
		ret = check_part(share, why, p.data);
	for (i = 0; !ret && ex->parts && ex->parts[i]; i++) {
		part_path(&p, ex, ex->parts[i]);
		ret = check_part(share, why, p.data);
	}
	if (!ret)
		ret = check_part(share, why, REFERENCE);
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
		empty = !not_dots(e);
	closedir(d);
	if (!empty)
		return error("cannot create project '%s': it exists and is "
			     "not empty; choose a new folder", dir);
	return 0;
}

/*
 * Copies the parts of ex and the reference from share into the folder
 * tmp. Returns 0, or -1 after an error.
 */
static int
copy_parts(const char *share, const struct example *ex, const char *tmp)
{
	struct buf from = BUF_INIT, to = BUF_INIT, p = BUF_INIT;
	struct stat st;
	size_t i;
	int ret;

	part_path(&p, ex, NULL);
	buf_addf(&from, "%s/%s", share, p.data);
	ret = ex->parts ? 0 : copy_entries(from.data, tmp, 0);
	for (i = 0; !ret && ex->parts && ex->parts[i]; i++) {
		part_path(&p, ex, ex->parts[i]);
		buf_reset(&from);
		buf_addf(&from, "%s/%s", share, p.data);
		buf_reset(&to);
		buf_addf(&to, "%s/%s", tmp, ex->parts[i]);
		ret = copy(from.data, to.data, 0);
	}
	buf_reset(&to);
	buf_addf(&to, "%s/docs", tmp);
	if (!ret && mkdir(to.data, 0777) && (errno != EEXIST ||
	    stat(to.data, &st) || !S_ISDIR(st.st_mode)))
		ret = error("cannot create folder '%s': %s", to.data,
			    strerror(errno == EEXIST ? ENOTDIR : errno));
	buf_reset(&from);
	buf_addf(&from, "%s/%s", share, REFERENCE);
	buf_reset(&to);
	buf_addf(&to, "%s/%s", tmp, REFERENCE);
	if (!ret)
		ret = copy(from.data, to.data, 0);
	buf_release(&from);
	buf_release(&to);
	buf_release(&p);
	return ret;
}

/*
 * Moves each file and folder of the project in tmp into the empty
 * folder dir, by rename(); when one fails, those moved go back.
 * Returns 0, or -1 after an error.
 */
static int
move_tops(const char *tmp, const char *dir)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	struct dirent **names;
	int n = list_dir(tmp, &names), i, ret = n < 0 ? -1 : 0, err = 0;

	for (i = 0; i < n; i++) {
		buf_reset(&from);
		buf_addf(&from, "%s/%s", tmp, names[i]->d_name);
		buf_reset(&to);
		buf_addf(&to, "%s/%s", dir, names[i]->d_name);
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
			buf_addf(&from, "%s/%s", tmp, names[i]->d_name);
			buf_reset(&to);
			buf_addf(&to, "%s/%s", dir, names[i]->d_name);
			rename(to.data, from.data);
		}
	}
	if (n >= 0)
		free_names(names, n);
	buf_release(&from);
	buf_release(&to);
	return ret;
}

/*
 * Says on stdout what the new project dir holds (its files and folders,
 * a folder with its slash) and how to build it.
 */
static void
say_made(const char *dir, const struct example *ex)
{
	struct buf b = BUF_INIT, sh = BUF_INIT, p = BUF_INIT;
	struct dirent **names;
	struct stat st;
	int n = scandir(dir, &names, not_dots, alphasort), i;

	buf_addf(&b, "ultimate: new project in '%s', from the example '%s':",
		 dir, ex->name);
	for (i = 0; i < n; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, names[i]->d_name);
		buf_addf(&b, "%s %s%s", i ? "," : "", names[i]->d_name,
			 !stat(p.data, &st) && S_ISDIR(st.st_mode) ? "/" : "");
	}
	if (n >= 0)
		free_names(names, n);
	/* Names are shown, not obeyed by the terminal. */
	diag_fputs(b.data, stdout);
	fputs("\n  cd ", stdout);
	buf_add_shellword(&sh, dir);
	diag_fputs(sh.data, stdout);
	fputs(" && ultimate report\n", stdout);
	fflush(stdout);
	buf_release(&b);
	buf_release(&sh);
	buf_release(&p);
}

int
init_project(const char *share, const char *why, const char *dir,
	     const char *example)
{
	const struct example *ex = find_example(example);
	struct buf name = BUF_INIT, tmp = BUF_INIT;
	sigset_t block, old;
	size_t len = strlen(dir);
	const char *slash;
	mode_t mask;
	int ret = -1, fresh;

	if (!ex)
		BUG("unknown example '%s'", example);
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
	if (check_share(share, why, ex) ||
	    (fresh = check_dir(name.data)) < 0)
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
	if (copy_parts(share, ex, tmp.data)) {
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
	if (!ret)
		say_made(name.data, ex);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	buf_release(&name);
	buf_release(&tmp);
	return ret;
}
