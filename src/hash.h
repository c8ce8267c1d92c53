#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

#define XXH_STATIC_LINKING_ONLY	/* struct XXH64_state_s, for the stack */
#include <xxhash.h>

/*
 * Content keys for caches: to tell whether inputs or outputs changed
 * since the last run, not to resist an adversary. hash_bytes(h, p, n) is
 * XXH64 (libxxhash, the reference implementation) of the n bytes with
 * seed h, and so is hash_file() of the file's bytes; chained calls key
 * several parts in order.
 */
#define HASH_INIT UINT64_C(0xcbf29ce484222325)

uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_str(uint64_t h, const char *s);
/*
 * For in-memory tables only (never kept in a file: it is not the key
 * hash_bytes() gives): XXH3, libxxhash's faster hash of short inputs,
 * of the n bytes at p. The registry hashes every name it is asked for
 * with it (one edition: 214.4M -> 211.5M instructions, where XXH64 took
 * about twice as many per name).
 */
uint64_t hash_name(const void *p, size_t n);

/* XXH64 fed in pieces: the same key as hash_bytes() over them all. */
struct hasher {
	XXH64_state_t st;
};
void hash_init(struct hasher *hs, uint64_t seed);
void hash_update(struct hasher *hs, const void *data, size_t n);
uint64_t hash_final(const struct hasher *hs);

/*
 * Adds the contents of the regular file at path (symbolic links
 * followed unless nofollow). Returns -1 (h unchanged) when it cannot be
 * read or is not a regular file: a FIFO or a device is never opened
 * for reading.
 */
int hash_file(uint64_t *h, const char *path, int nofollow);
/*
 * Adds every entry under dir, in name order, with its path relative to
 * dir: regular files by content, symbolic links by their target's text
 * (never followed), other kinds by their type. Names starting with '.'
 * are left out. Returns -1 when dir or a file in it cannot be read;
 * -2 after printing an error for each symbolic link that does not lead
 * to a regular file inside dir (a loop, a link to a folder, one that
 * leads nowhere or outside).
 */
int hash_tree(uint64_t *h, const char *dir);

/*
 * A set of strings (open addressing), each copied: for the "distinct"
 * of reductions and trends. Zero-initialise; release with
 * strset_release().
 */
struct strset {
	char **slot;
	size_t n, cap;
};
/* Adds s to the set: 1 when it was in it already, else 0. */
int strset_add(struct strset *st, const char *s);
void strset_release(struct strset *st);

#endif
