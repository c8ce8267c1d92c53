/*
 * Content keys for the figure cache and the no-op check of a report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "hash.h"
#include "xalloc.h"
#include "banned.h"

/*
 * XXH64 (Yann Collet's xxHash, 64-bit; specified in the xxHash
 * repository's doc/xxhash_spec.md): four independent lanes of
 * multiply-rotate rounds, so the processor overlaps them. It hashes the
 * ~2 MB of inputs and outputs a report keys at several GB/s, where the
 * word-wise FNV-1a it replaces took half a millisecond.
 * tests/unit/test_hash.c checks it against xxhsum's values.
 */
#define P1 UINT64_C(11400714785074694791)
#define P2 UINT64_C(14029467366897019727)
#define P3 UINT64_C(1609587929392839161)
#define P4 UINT64_C(9650029242287828579)
#define P5 UINT64_C(2870177450012600261)

static uint64_t
rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static uint64_t
read64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

static uint32_t
read32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t
round64(uint64_t acc, uint64_t w)
{
	return rotl(acc + w * P2, 31) * P1;
}

static uint64_t
merge(uint64_t acc, uint64_t v)
{
	return (acc ^ round64(0, v)) * P1 + P4;
}

void
hash_init(struct hasher *hs, uint64_t seed)
{
	hs->v[0] = seed + P1 + P2;
	hs->v[1] = seed + P2;
	hs->v[2] = seed;
	hs->v[3] = seed - P1;
	hs->seed = seed;
	hs->len = 0;
	hs->nbuf = 0;
}

static void
stripe(uint64_t v[4], const unsigned char *p)
{
	v[0] = round64(v[0], read64(p));
	v[1] = round64(v[1], read64(p + 8));
	v[2] = round64(v[2], read64(p + 16));
	v[3] = round64(v[3], read64(p + 24));
}

void
hash_update(struct hasher *hs, const void *data, size_t n)
{
	const unsigned char *p = data;

	hs->len += n;
	if (hs->nbuf) {
		size_t take = 32 - hs->nbuf < n ? 32 - hs->nbuf : n;

		memcpy(hs->buf + hs->nbuf, p, take);
		hs->nbuf += take;
		p += take;
		n -= take;
		if (hs->nbuf < 32)
			return;
		stripe(hs->v, hs->buf);
		hs->nbuf = 0;
	}
	for (; n >= 32; p += 32, n -= 32)
		stripe(hs->v, p);
	memcpy(hs->buf, p, n);
	hs->nbuf = n;
}

uint64_t
hash_final(const struct hasher *hs)
{
	const unsigned char *p = hs->buf, *end = hs->buf + hs->nbuf;
	uint64_t h;

	if (hs->len >= 32) {
		h = rotl(hs->v[0], 1) + rotl(hs->v[1], 7) +
		    rotl(hs->v[2], 12) + rotl(hs->v[3], 18);
		h = merge(h, hs->v[0]);
		h = merge(h, hs->v[1]);
		h = merge(h, hs->v[2]);
		h = merge(h, hs->v[3]);
	} else {
		h = hs->seed + P5;
	}
	h += hs->len;
	for (; p + 8 <= end; p += 8)
		h = rotl(h ^ round64(0, read64(p)), 27) * P1 + P4;
	if (p + 4 <= end) {
		h = rotl(h ^ (uint64_t)read32(p) * P1, 23) * P2 + P3;
		p += 4;
	}
	for (; p < end; p++)
		h = rotl(h ^ *p * P5, 11) * P1;
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

uint64_t
hash_bytes(uint64_t h, const void *p, size_t n)
{
	struct hasher hs;

	hash_init(&hs, h);
	hash_update(&hs, p, n);
	return hash_final(&hs);
}

uint64_t
hash_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

int
hash_file(uint64_t *h, const char *path, int keep)
{
	struct buf b = BUF_INIT;
	struct hasher hs;
	char chunk[65536];
	ssize_t n;
	int fd;

	if (keep) {
		if (buf_read_file(&b, path)) {
			buf_release(&b);
			return -1;
		}
		*h = hash_bytes(*h, b.data, b.len);
		srcfile_stash(path, &b);
		return 0;
	}
	/* Only the key: through a buffer, not the whole file in memory. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	hash_init(&hs, *h);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n > 0)
			hash_update(&hs, chunk, (size_t)n);
		else if (errno != EINTR)
			break;
	}
	close(fd);
	if (n < 0)
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
tree(uint64_t *h, const char *dir, const char *rel, int keep)
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
			ret |= tree(h, path.data, sub.data, keep);
		} else if (S_ISREG(st.st_mode)) {
			*h = hash_str(*h, sub.data);
			ret |= hash_file(h, path.data, keep);
		}
		free(names[i]);
	}
	free(names);
	buf_release(&path);
	buf_release(&sub);
	return ret;
}

int
hash_tree(uint64_t *h, const char *dir, int keep)
{
	return tree(h, dir, "", keep);
}
