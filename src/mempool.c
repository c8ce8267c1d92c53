/*
 * Memory carved from chunks and freed with them (mempool.h): a base
 * module, as buf.c is.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mempool.h"
#include "xalloc.h"
#include "banned.h"

struct mempool_chunk {
	struct mempool_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

void *
mempool_alloc(struct mempool *mp, size_t n, size_t align)
{
	struct mempool_chunk *c = mp->head;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;

	if (!c || at > c->cap || c->cap - at < n) {
		size_t cap = n > mp->chunk ? n : mp->chunk;

		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->next = mp->head;
		mp->head = c;
		at = 0;
	}
	c->used = at + n;
	return (char *)c->data + at;
}

char *
mempool_strndup(struct mempool *mp, const char *s, size_t n)
{
	char *t = mempool_alloc(mp, n + 1, 1);

	memcpy(t, s, n);
	t[n] = '\0';
	return t;
}

char *
mempool_strdup(struct mempool *mp, const char *s)
{
	return mempool_strndup(mp, s, strlen(s));
}

void
mempool_release(struct mempool *mp)
{
	struct mempool_chunk *c, *next;

	for (c = mp->head; c; c = next) {
		next = c->next;
		free(c);
	}
	mp->head = NULL;
}
