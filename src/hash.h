#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Content keys for caches (FNV-1a, 64 bits): to tell whether inputs or
 * outputs changed since the last run, not to resist an adversary.
 */
#define HASH_INIT UINT64_C(0xcbf29ce484222325)

uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_str(uint64_t h, const char *s);
/*
 * Adds a file's contents; returns -1 (h unchanged) when it cannot be
 * read.
 */
int hash_file(uint64_t *h, const char *path);
/*
 * Adds every regular file under dir, in name order, with its path
 * relative to dir. Returns -1 when dir cannot be read.
 */
int hash_tree(uint64_t *h, const char *dir);

#endif
