/*
 * Content keys for the figure cache and the no-op check of a report:
 * XXH64 from libxxhash over bytes, files and folders. Reads the files it
 * keys; writes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
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

static int
tree(uint64_t *h, const char *dir, const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct buf path = BUF_INIT, sub = BUF_INIT, link = BUF_INIT;
	int ret = 0;

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
		if (lstat(path.data, &st)) {
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			buf_addch(&sub, '/');
			ret |= tree(h, path.data, sub.data);
		} else if (S_ISREG(st.st_mode)) {
			*h = hash_str(*h, sub.data);
			ret |= hash_file(h, path.data, 1);
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t len;

			buf_reset(&link);
			buf_grow(&link, 4096);
			len = readlink(path.data, link.data, link.cap - 1);
			if (len < 0) {
				ret = -1;
				continue;
			}
			*h = hash_str(*h, sub.data);
			*h = hash_bytes(*h, "->", 2);
			*h = hash_bytes(*h, link.data, (size_t)len);
		} else {
			/* A FIFO or a device: its name, never its bytes. */
			*h = hash_str(*h, sub.data);
			*h = hash_bytes(*h, "?", 1);
		}
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
	return tree(h, dir, "");
}
