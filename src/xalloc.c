/*
 * Memory allocation that dies on exhaustion. Used by every module; reads
 * and writes nothing but stderr on failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"
#include "banned.h"

/*
 * Set aside by the first allocation and given back when memory runs
 * out, so that what exit() runs then (site.c removes its staging
 * folder) has memory to work with.
 */
#define RESERVE_BYTES ((size_t)256 << 10)
static void *reserve;
static int reserved;

static void
free_reserve(void)
{
	free(reserve);
	reserve = NULL;
}

static void
set_aside(void)
{
	reserved = 1;
	reserve = malloc(RESERVE_BYTES);
	atexit(free_reserve);
}

void
xalloc_die(void)
{
	static int dying;

	/* Out of memory again while cleaning up at exit: stop there. */
	if (dying++)
		_exit(1);
	free_reserve();
	fputs("ultimate: fatal: out of memory\n", stderr);
	exit(1);
}

void *
xmalloc(size_t size)
{
	void *p;

	if (!reserved)
		set_aside();
	p = malloc(size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (!reserved)
		set_aside();
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p;

	if (!reserved)
		set_aside();
	p = realloc(ptr, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		xalloc_die();
	return xrealloc(ptr, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *
xgrow(void *ptr, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;

	if (need <= c)
		return ptr;
	if (c > SIZE_MAX / 3)
		xalloc_die();
	c = c + c / 2;
	if (c < need)
		c = need;
	if (c < 8)
		c = 8;
	*cap = c;
	return xreallocarray(ptr, c, elem);
}
