#ifndef XALLOC_H
#define XALLOC_H

#include <stddef.h>

/*
 * Allocation wrappers that never return NULL: on exhaustion they print
 * "ultimate: fatal: out of memory" and exit (git wrapper.c). Callers
 * therefore write no out-of-memory paths. Everything they return is
 * freed with free().
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Like reallocarray(): dies when nmemb * size overflows. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/*
 * Prints the out-of-memory message and exits. exit() runs what modules
 * registered with atexit() (site.c removes its staging folder), with
 * 256 KiB that the first allocation set aside given back for it.
 */
_Noreturn void xalloc_die(void);

/* Grow *cap (by 1.5x, at least to need) for an array of elem-sized items. */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t elem);

#endif
