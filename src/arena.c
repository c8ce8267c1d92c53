/*
 * A size-class arena for cmark-gfm (see arena.h). Every block has a
 * 16-byte header holding its capacity, a multiple of 16 bytes. Blocks of
 * up to SMALL_MAX bytes are cut from 64 kB chunks and, once freed, kept
 * on a list per capacity for the next request of that size. Larger
 * blocks come from malloc() one by one, on a list of their own. The
 * block cut last can grow in place: cmark's buffers mostly grow while
 * nothing else is allocated.
 *
 * Chunks stay under glibc's mmap threshold, so that after arena_reset()
 * their memory is reused by the pages that follow instead of being
 * returned to the kernel and faulted in again.
 *
 * Under AddressSanitizer the arena poisons what cmark must not touch:
 * headers, the slack after each block's requested size, freed blocks
 * and the unused end of a chunk. A stray read or write by cmark is
 * then reported as it would be with malloc().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#endif
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

static void
poison(const void *p, size_t n)
{
#ifdef ARENA_ASAN
	ASAN_POISON_MEMORY_REGION(p, n);
#else
	(void)p;
	(void)n;
#endif
}

static void
unpoison(const void *p, size_t n)
{
#ifdef ARENA_ASAN
	ASAN_UNPOISON_MEMORY_REGION(p, n);
#else
	(void)p;
	(void)n;
#endif
}

/* The header of block p, read through its poison. */
static struct hdr
hdr_get(const void *p)
{
	const struct hdr *h = (const struct hdr *)p - 1;
	struct hdr copy;

	unpoison(h, sizeof(*h));
	copy = *h;
	poison(h, sizeof(*h));
	return copy;
}

static void
hdr_set(struct hdr *h, size_t cap, size_t large)
{
	unpoison(h, sizeof(*h));
	h->cap = cap;
	h->large = large;
	poison(h, sizeof(*h));
}

/* Block p of capacity cap now holds n bytes: the rest is off limits. */
static void
fit(void *p, size_t n, size_t cap)
{
	unpoison(p, n);
	poison((unsigned char *)p + n, cap - n);
}

/* Capacity for n bytes; dies (as xmalloc does) past any sensible size. */
static size_t
cap_for(size_t n)
{
	if (n > SIZE_MAX / 2)
		xalloc_die();
	return n ? (n + ALIGN - 1) & ~(size_t)(ALIGN - 1) : ALIGN;
}

static void
link_large(struct large *b, size_t cap)
{
	b->prev = NULL;
	b->next = A.larges;
	if (A.larges)
		A.larges->prev = b;
	A.larges = b;
	A.footprint += sizeof(*b) + cap;
	hdr_set(&b->h, cap, 1);
}

static void
unlink_large(struct large *b, size_t cap)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		A.larges = b->next;
	if (b->next)
		b->next->prev = b->prev;
	A.footprint -= sizeof(*b) + cap;
	unpoison(b, sizeof(*b) + cap);
}

static void
push_free(void *p, size_t cap)
{
	struct free_block *f = p;
	size_t c = cap / ALIGN - 1;

	unpoison(f, sizeof(*f));
	f->next = A.free[c];
	poison(f, cap);
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
	uint64_t fits = A.nonempty >> (cap / ALIGN - 1);
	struct free_block *f;
	struct hdr h;
	size_t c;

	if (!fits)
		return NULL;
	c = cap / ALIGN - 1 + (size_t)__builtin_ctzll(fits);
	f = A.free[c];
	unpoison(f, sizeof(*f));
	A.free[c] = f->next;
	if (!A.free[c])
		A.nonempty &= ~(UINT64_C(1) << c);
	h = hdr_get(f);
	if (h.cap >= cap + sizeof(h) + ALIGN) {
		struct hdr *tail = (struct hdr *)((unsigned char *)f + cap);
		size_t rest = h.cap - cap - sizeof(h);

		hdr_set(tail, rest, 0);
		push_free(tail + 1, rest);
		hdr_set((struct hdr *)f - 1, cap, 0);
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

	if (cap > SMALL_MAX) {
		struct large *b = xmalloc(sizeof(*b) + cap);

		link_large(b, cap);
		fit(b + 1, n, cap);
		return b + 1;
	}
	p = take_free(cap);
	if (p) {
		fit(p, n, hdr_get(p).cap);
		return p;
	}
	if ((size_t)(A.end - A.next) < sizeof(*h) + cap) {
		struct chunk *c = A.spare;

		if (c) {
			A.spare = c->next;
		} else {
			c = xmalloc(CHUNK);
			c->size = CHUNK;
			A.footprint += CHUNK;
			poison(c + 1, CHUNK - sizeof(*c));
		}
		c->next = A.chunks;
		A.chunks = c;
		A.next = (unsigned char *)(c + 1);
		A.end = (unsigned char *)c + CHUNK;
	}
	h = (struct hdr *)A.next;
	hdr_set(h, cap, 0);
	A.last = h;
	A.next += sizeof(*h) + cap;
	fit(h + 1, n, cap);
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
	struct hdr h;

	if (!p)
		return;
	h = hdr_get(p);
	if (h.large) {
		/* h is the last member of struct large: the block follows. */
		struct large *b = (struct large *)p - 1;

		unlink_large(b, h.cap);
		free(b);
	} else if ((struct hdr *)p - 1 == A.last) {
		/* The end of the chunk: given back to the next cut. */
		A.next = (unsigned char *)A.last;
		A.last = NULL;
		poison(A.next, sizeof(h) + h.cap);
	} else if (h.cap <= SMALL_MAX) {
		push_free(p, h.cap);
	} else {
		/* A small block grown in place past SMALL_MAX: until reset. */
		poison(p, h.cap);
	}
}

void *
arena_realloc(void *p, size_t size)
{
	struct hdr h;
	size_t cap;
	void *q;

	if (!p)
		return alloc(size);
	h = hdr_get(p);
	if (size <= h.cap) {
		fit(p, size, h.cap);
		return p;
	}
	cap = cap_for(size);
	if (h.large) {
		struct large *b = (struct large *)p - 1;

		unlink_large(b, h.cap);
		b = xrealloc(b, sizeof(*b) + cap);
		link_large(b, cap);
		fit(b + 1, size, cap);
		return b + 1;
	}
	if ((struct hdr *)p - 1 == A.last &&
	    cap - h.cap <= (size_t)(A.end - A.next)) {
		A.next += cap - h.cap;
		hdr_set(A.last, cap, 0);
		fit(p, size, cap);
		return p;
	}
	q = alloc(size);
	unpoison(p, h.cap);
	memcpy(q, p, h.cap);
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
		poison(c + 1, c->size - sizeof(*c));
	}
	while (A.larges) {
		struct large *b = A.larges;
		struct hdr h = hdr_get(b + 1);

		A.larges = b->next;
		footprint -= sizeof(*b) + h.cap;
		unpoison(b, sizeof(*b) + h.cap);
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
		unpoison(c, c->size);
		free(c);
	}
	A.footprint = 0;
}

size_t
arena_footprint(void)
{
	return A.footprint;
}
