/*
 * Content keys for the figure cache and the no-op check of a report:
 * XXH64 from libxxhash over bytes, files and folders. Reads the files it
 * keys; writes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "hash.h"
#include "xalloc.h"
#include "banned.h"

uint64_t
hash_bytes(uint64_t h, const void *p, size_t n)
{
	return XXH64(p, n, h);
}

uint64_t
hash_name(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

uint64_t
hash_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

void
hash_init(struct hasher *hs, uint64_t seed)
{
	XXH64_reset(&hs->st, seed);
}

void
hash_update(struct hasher *hs, const void *data, size_t n)
{
	XXH64_update(&hs->st, data, n);
}

uint64_t
hash_final(const struct hasher *hs)
{
	return XXH64_digest(&hs->st);
}

int
hash_file(uint64_t *h, const char *path, int nofollow)
{
	struct hasher hs;
	char chunk[65536];
	size_t size, total = 0;
	ssize_t n;
	int fd = file_open(path, nofollow ? FILE_NOFOLLOW : 0, &size);

	if (fd < 0)
		return -1;
	/* Through a buffer: a history of 90 MB is not held twice. */
	hash_init(&hs, *h);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (diag_interrupted()) {
			n = -1;
			break;
		}
		if (n > 0 && (total += (size_t)n) <= FILE_MAX_BYTES)
			hash_update(&hs, chunk, (size_t)n);
		else if (n > 0 || errno != EINTR)
			break;
	}
	close(fd);
	if (n != 0)
		return -1;
	*h = hash_final(&hs);
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A link in the tree must lead to a regular file inside root: a link to
 * a folder could make the tree a loop, and one that leads nowhere or out
 * of the folder is a mistake. Returns 0, or -2 after printing an error.
 */
static int
check_link(const char *path, const char *root)
{
	char *to = file_realpath(path);
	struct stat st;
	int ret = 0;

	if (!to)
		ret = error("'%s' is a symbolic link that cannot be followed: "
			    "%s", path, strerror(errno));
	else if (stat(to, &st) || S_ISDIR(st.st_mode))
		ret = error("'%s' is a symbolic link to a folder: links to "
			    "folders are not followed; copy or move the "
			    "folder instead", path);
	else if (file_confined(path, root))
		ret = error("'%s' is %s", path, file_strerror(errno));
	free(to);
	return ret ? -2 : 0;
}

static int
tree(uint64_t *h, const char *root, const char *dir, const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct buf path = BUF_INIT, sub = BUF_INIT, link = BUF_INIT;
	int ret = 0, r;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = xgrow(names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		struct stat st;

		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, names[i]);
		buf_reset(&sub);
		buf_addf(&sub, "%s%s", rel, names[i]);
		r = 0;
		if (lstat(path.data, &st)) {
			r = -1;
		} else if (S_ISDIR(st.st_mode)) {
			buf_addch(&sub, '/');
			r = tree(h, root, path.data, sub.data);
		} else if (S_ISREG(st.st_mode)) {
			*h = hash_str(*h, sub.data);
			r = hash_file(h, path.data, 1);
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t len;

			r = check_link(path.data, root);
			buf_reset(&link);
			buf_grow(&link, 4096);
			len = readlink(path.data, link.data, link.cap - 1);
			if (len < 0) {
				if (!r)
					r = -1;
				goto next;
			}
			*h = hash_str(*h, sub.data);
			*h = hash_bytes(*h, "->", 2);
			*h = hash_bytes(*h, link.data, (size_t)len);
		} else {
			/* A FIFO or a device: its name, never its bytes. */
			*h = hash_str(*h, sub.data);
			*h = hash_bytes(*h, "?", 1);
		}
next:
		/* -2 (refused, said) outweighs -1 (unreadable). */
		if (r < ret)
			ret = r;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	buf_release(&path);
	buf_release(&sub);
	buf_release(&link);
	return ret;
}

int
hash_tree(uint64_t *h, const char *dir)
{
	char *root = file_realpath(dir);
	int ret;

	if (!root)
		return -1;
	ret = tree(h, root, dir, "");
	free(root);
	return ret;
}

int
strset_add(struct strset *st, const char *s)
{
	size_t i, mask;

	if ((st->n + 1) * 2 > st->cap) {
		struct strset big = { NULL, 0, st->cap ? 2 * st->cap : 64 };

		big.slot = xcalloc(big.cap, sizeof(*big.slot));
		for (i = 0; i < st->cap; i++)
			if (st->slot[i]) {
				size_t j = (size_t)hash_name(st->slot[i],
					strlen(st->slot[i])) & (big.cap - 1);

				while (big.slot[j])
					j = (j + 1) & (big.cap - 1);
				big.slot[j] = st->slot[i];
			}
		free(st->slot);
		big.n = st->n;
		*st = big;
	}
	mask = st->cap - 1;
	for (i = (size_t)hash_name(s, strlen(s)) & mask; st->slot[i];
	     i = (i + 1) & mask)
		if (!strcmp(st->slot[i], s))
			return 1;
	st->slot[i] = xstrdup(s);
	st->n++;
	return 0;
}

void
strset_release(struct strset *st)
{
	size_t i;

	for (i = 0; i < st->cap; i++)
		free(st->slot[i]);
	free(st->slot);
}
