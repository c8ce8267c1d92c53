/*
 * Growable byte buffer shared by every stage that builds text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"
#include "banned.h"

char buf_empty[1];

void
buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = b->cap = 0;
}

void
buf_release(struct buf *b)
{
	if (b->cap)
		free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->cap)
		b->data[0] = '\0';
}

void
buf_grow(struct buf *b, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - b->len - 1) {
		fputs("ultimate: fatal: buffer size overflow\n", stderr);
		exit(1);
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	if (!b->cap) {
		b->data = NULL;
		b->data = xgrow(b->data, &b->cap, need, 1);
		b->data[0] = '\0';
		return;
	}
	b->data = xgrow(b->data, &b->cap, need, 1);
}

void
buf_addstr(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->data + b->len, b->cap ? b->cap - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0) {
		fputs("ultimate: fatal: formatting failed\n", stderr);
		exit(1);
	}
	if ((size_t)n >= (b->cap ? b->cap - b->len : 0)) {
		buf_grow(b, (size_t)n);
		n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *
buf_detach(struct buf *b, size_t *lenp)
{
	char *p;

	if (!b->cap)
		buf_grow(b, 0);
	p = b->data;
	if (lenp)
		*lenp = b->len;
	buf_init(b);
	return p;
}
