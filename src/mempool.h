#ifndef MEMPOOL_H
#define MEMPOOL_H

#include <stddef.h>

/*
 * Memory carved from chunks in turn and freed all at once (git's
 * mem-pool.h): for what lives and dies together, a registry's
 * quantities and strings, an expression's nodes, a page's cmark-gfm
 * memory (html.c). Nothing is freed alone
 * and nothing is zeroed. Initialise with MEMPOOL_INIT(size), the size
 * of a chunk; free with mempool_release().
 */
struct mempool {
	struct mempool_chunk *head;
	size_t chunk;		/* a chunk's size, unless more is asked */
};
#define MEMPOOL_INIT(size) { NULL, (size) }

/* n bytes at a multiple of align (a power of two, at most that of
 * max_align_t), not zeroed; dies when memory is out. */
void *mempool_alloc(struct mempool *mp, size_t n, size_t align);
/* The n bytes at s and a NUL; s as a string. */
char *mempool_strndup(struct mempool *mp, const char *s, size_t n);
char *mempool_strdup(struct mempool *mp, const char *s);
/* Frees every chunk; mp is then empty, ready for use again. */
void mempool_release(struct mempool *mp);

#endif
