#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Content keys for caches (XXH64): to tell whether inputs or outputs
 * changed since the last run, not to resist an adversary. hash_bytes(h,
 * p, n) is XXH64 of the n bytes with seed h, and so is hash_file() of
 * the file's bytes; chained calls key several parts in order.
 */
#define HASH_INIT UINT64_C(0xcbf29ce484222325)

uint64_t hash_bytes(uint64_t h, const void *p, size_t n);

/* XXH64 fed in pieces: the same key as hash_bytes() over them all. */
struct hasher {
	uint64_t v[4], seed, len;
	unsigned char buf[32];
	size_t nbuf;
};
void hash_init(struct hasher *hs, uint64_t seed);
void hash_update(struct hasher *hs, const void *data, size_t n);
uint64_t hash_final(const struct hasher *hs);
uint64_t hash_str(uint64_t h, const char *s);
/*
 * Adds a file's contents; returns -1 (h unchanged) when it cannot be
 * read. With keep, the bytes are stashed for the file's loader
 * (srcfile_stash()), so that an input is read once.
 */
int hash_file(uint64_t *h, const char *path, int keep);
/*
 * Adds every regular file under dir, in name order, with its path
 * relative to dir. Returns -1 when dir cannot be read.
 */
int hash_tree(uint64_t *h, const char *dir, int keep);

#endif
