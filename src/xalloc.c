/*
 * Memory allocation that dies on exhaustion. Used by every module; reads
 * and writes nothing but stderr on failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "banned.h"

void
xalloc_die(void)
{
	fputs("ultimate: fatal: out of memory\n", stderr);
	exit(1);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		xalloc_die();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xalloc_die();
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

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
