/*
 * A size-class arena for cmark-gfm (see arena.h). Every block has a
 * 16-byte header holding its capacity, a multiple of 16 bytes. Blocks of
 * up to SMALL_MAX bytes are cut from 64 kB chunks and, once freed, kept
 * on a list per capacity for the next request of that size. Larger
 * blocks come from malloc() one by one, on a list of their own. The
 * block cut last can grow in place: cmark's buffers mostly grow while
 * nothing else is allocated.
 *
 * Chunks stay under glibc's mmap threshold (128 kB), so that after
 * arena_reset() their memory is reused by the pages that follow instead
 * of being returned to the kernel and faulted in again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "xalloc.h"
#include "banned.h"

#define ALIGN 16
#define SMALL_MAX 1024
#define NCLASS (SMALL_MAX / ALIGN)
#define CHUNK (64 * 1024)

struct hdr {
	size_t cap;		/* bytes usable after the header */
	size_t large;		/* 1: a block of its own (struct large) */
};

struct large {
	struct large *prev, *next;
	struct hdr h;		/* last: the block follows it */
};

struct chunk {
	struct chunk *next;
	size_t size;		/* keeps the data 16-byte aligned */
};

struct free_block {
	struct free_block *next;
};

static struct {
	struct chunk *chunks;
	struct chunk *spare;	/* cleared chunks, for reuse */
	unsigned char *next, *end;	/* unused part of the newest chunk */
	struct hdr *last;	/* the block cut last, while it is the end */
	struct free_block *free[NCLASS];
	uint64_t nonempty;	/* bit i: free[i] has blocks */
	struct large *larges;
	size_t footprint;
} A;

static struct hdr *
hdr_of(void *p)
{
	return (struct hdr *)p - 1;
}

/* Capacity for n bytes; dies (as xmalloc does) past any sensible size. */
static size_t
cap_for(size_t n)
{
	if (n > SIZE_MAX / 2)
		xalloc_die();
	return n ? (n + ALIGN - 1) & ~(size_t)(ALIGN - 1) : ALIGN;
}

static void *
alloc_large(size_t cap)
{
	struct large *b = xmalloc(sizeof(*b) + cap);

	b->h.cap = cap;
	b->h.large = 1;
	b->prev = NULL;
	b->next = A.larges;
	if (A.larges)
		A.larges->prev = b;
	A.larges = b;
	A.footprint += sizeof(*b) + cap;
	return b + 1;
}

static void
unlink_large(struct large *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		A.larges = b->next;
	if (b->next)
		b->next->prev = b->prev;
	A.footprint -= sizeof(*b) + b->h.cap;
}

static void
push_free(struct hdr *h)
{
	struct free_block *f = (struct free_block *)(h + 1);
	size_t c = h->cap / ALIGN - 1;

	f->next = A.free[c];
	A.free[c] = f;
	A.nonempty |= UINT64_C(1) << c;
}

/*
 * A freed block of at least cap bytes, or NULL: the smallest there is.
 * A block larger by a header and more is split, its tail freed.
 */
static void *
take_free(size_t cap)
{
	uint64_t fit = A.nonempty >> (cap / ALIGN - 1);
	struct free_block *f;
	struct hdr *h, *tail;
	size_t c;

	if (!fit)
		return NULL;
	c = cap / ALIGN - 1 + (size_t)__builtin_ctzll(fit);
	f = A.free[c];
	A.free[c] = f->next;
	if (!f->next)
		A.nonempty &= ~(UINT64_C(1) << c);
	h = hdr_of(f);
	if (h->cap >= cap + sizeof(*h) + ALIGN) {
		tail = (struct hdr *)((unsigned char *)(h + 1) + cap);
		tail->cap = h->cap - cap - sizeof(*h);
		tail->large = 0;
		h->cap = cap;
		push_free(tail);
	}
	return f;
}

/* A block of n bytes, not zeroed. */
static void *
alloc(size_t n)
{
	size_t cap = cap_for(n);
	struct hdr *h;
	void *p;

	if (cap > SMALL_MAX)
		return alloc_large(cap);
	p = take_free(cap);
	if (p)
		return p;
	if ((size_t)(A.end - A.next) < sizeof(*h) + cap) {
		struct chunk *c = A.spare;

		if (c) {
			A.spare = c->next;
		} else {
			c = xmalloc(CHUNK);
			c->size = CHUNK;
			A.footprint += CHUNK;
		}
		c->next = A.chunks;
		A.chunks = c;
		A.next = (unsigned char *)(c + 1);
		A.end = (unsigned char *)c + CHUNK;
	}
	h = (struct hdr *)A.next;
	h->cap = cap;
	h->large = 0;
	A.last = h;
	A.next += sizeof(*h) + cap;
	return h + 1;
}

void *
arena_calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		xalloc_die();
	p = alloc(n * size);
	memset(p, 0, n * size);
	return p;
}

void
arena_free(void *p)
{
	struct hdr *h;

	if (!p)
		return;
	h = hdr_of(p);
	if (h->large) {
		/* h is the last member of struct large: the block follows. */
		struct large *b = (struct large *)p - 1;

		unlink_large(b);
		free(b);
	} else if (h == A.last) {
		/* The end of the chunk: given back to the next cut. */
		A.next = (unsigned char *)h;
		A.last = NULL;
	} else if (h->cap <= SMALL_MAX) {
		push_free(h);
	}
	/* A small block grown in place past SMALL_MAX waits for reset. */
}

void *
arena_realloc(void *p, size_t size)
{
	struct hdr *h;
	size_t cap;
	void *q;

	if (!p)
		return alloc(size);
	h = hdr_of(p);
	if (size <= h->cap)
		return p;
	cap = cap_for(size);
	if (h->large) {
		struct large *b = (struct large *)p - 1, *nb;

		unlink_large(b);
		nb = xrealloc(b, sizeof(*nb) + cap);
		nb->h.cap = cap;
		nb->prev = NULL;
		nb->next = A.larges;
		if (A.larges)
			A.larges->prev = nb;
		A.larges = nb;
		A.footprint += sizeof(*nb) + cap;
		return nb + 1;
	}
	if (h == A.last && cap - h->cap <= (size_t)(A.end - A.next)) {
		A.next += cap - h->cap;
		h->cap = cap;
		return p;
	}
	q = alloc(size);
	memcpy(q, p, h->cap);
	arena_free(p);
	return q;
}

void
arena_clear(void)
{
	struct chunk *spare = A.spare;
	size_t footprint = A.footprint;

	while (A.chunks) {
		struct chunk *c = A.chunks;

		A.chunks = c->next;
		c->next = spare;
		spare = c;
	}
	while (A.larges) {
		struct large *b = A.larges;

		A.larges = b->next;
		footprint -= sizeof(*b) + b->h.cap;
		free(b);
	}
	memset(&A, 0, sizeof(A));
	A.spare = spare;
	A.footprint = footprint;
}

void
arena_reset(void)
{
	arena_clear();
	while (A.spare) {
		struct chunk *c = A.spare;

		A.spare = c->next;
		free(c);
	}
	A.footprint = 0;
}

size_t
arena_footprint(void)
{
	return A.footprint;
}
