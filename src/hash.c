/*
 * Content keys for the figure cache and the no-op check of a report.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "hash.h"
#include "xalloc.h"
#include "banned.h"

/*
 * FNV-1a over 8-byte words (then the tail byte by byte): eight times
 * fewer multiplications than the byte-wise original, the same use.
 */
uint64_t
hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		h = (h ^ w) * UINT64_C(0x100000001b3);
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ s[i]) * UINT64_C(0x100000001b3);
	return h;
}

uint64_t
hash_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

int
hash_file(uint64_t *h, const char *path)
{
	FILE *fp = fopen(path, "rb");
	char chunk[65536];
	uint64_t v = *h;
	size_t n;
	int bad;

	if (!fp)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		v = hash_bytes(v, chunk, n);
	bad = ferror(fp);
	fclose(fp);
	if (bad)
		return -1;
	*h = v;
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
	struct buf path = BUF_INIT, sub = BUF_INIT;
	int ret = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = xgrow(names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		struct stat st;

		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, names[i]);
		buf_reset(&sub);
		buf_addf(&sub, "%s%s", rel, names[i]);
		if (stat(path.data, &st))
			ret = -1;
		else if (S_ISDIR(st.st_mode)) {
			buf_addch(&sub, '/');
			ret |= tree(h, path.data, sub.data);
		} else if (S_ISREG(st.st_mode)) {
			*h = hash_str(*h, sub.data);
			ret |= hash_file(h, path.data);
		}
		free(names[i]);
	}
	free(names);
	buf_release(&path);
	buf_release(&sub);
	return ret;
}

int
hash_tree(uint64_t *h, const char *dir)
{
	return tree(h, dir, "");
}
