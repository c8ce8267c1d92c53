#ifndef ARENA_H
#define ARENA_H

#include <stddef.h>

/*
 * Defined when built with AddressSanitizer (gcc or clang): the arena
 * then poisons what its callers must not touch (arena.c).
 */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif

/*
 * The memory of one cmark-gfm rendering: the report's Markdown makes
 * some ten thousand small allocations (nodes, strings), each freed one
 * by one with glibc's malloc. Here a block comes from a free list of
 * its size, or from the end of a chunk; freeing puts it back on its
 * list; arena_reset() drops everything at once, so the tree need not be
 * walked to be freed. Blocks are aligned for any type.
 *
 * One process-wide arena (cmark's allocator interface takes no
 * context). Aborts, as xmalloc() does, when memory runs out.
 */
void *arena_calloc(size_t n, size_t size);
void *arena_realloc(void *p, size_t size);
void arena_free(void *p);
/*
 * Frees every block but keeps the chunks for the blocks to come: the
 * memory is not returned and faulted in again.
 */
void arena_clear(void);
/* Frees every block and all memory; the arena can be used again. */
void arena_reset(void);
/* Bytes of memory the arena holds (chunks and large blocks). */
size_t arena_footprint(void);

#endif
