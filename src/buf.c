/*
 * Growable byte buffer shared by every stage that builds text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "file.h"
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

/* One conversion of a format, as parse_spec() read it. */
struct spec {
	int left;		/* '-' */
	int zero;		/* '0' */
	int width;		/* -1: none; -2: '*' */
	int prec;		/* -1: none; -2: '*' */
	int len;		/* 0, 'l', 'L' (ll), 'z' */
	char conv;
};

/*
 * Reads the conversion after a '%' at *pp into sp and moves *pp past
 * it. Returns 0 for what fast_vaddf() writes (%s %c %d %i %u %x %%,
 * flags '-' and '0', a width, a precision for %s only, l, ll, z for the
 * unsigned ones); -1 for anything else, which goes to vsnprintf().
 */
static int
parse_spec(const char **pp, struct spec *sp)
{
	const char *p = *pp;

	sp->left = sp->zero = 0;
	sp->width = sp->prec = -1;
	sp->len = 0;
	for (;; p++) {
		if (*p == '-')
			sp->left = 1;
		else if (*p == '0')
			sp->zero = 1;
		else
			break;
	}
	if (*p == '*') {
		sp->width = -2;
		p++;
	} else if (*p >= '1' && *p <= '9') {
		for (sp->width = 0; *p >= '0' && *p <= '9'; p++)
			if ((sp->width = sp->width * 10 + (*p - '0')) > 4096)
				return -1;
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			sp->prec = -2;
			p++;
		} else {
			for (sp->prec = 0; *p >= '0' && *p <= '9'; p++)
				if ((sp->prec = sp->prec * 10 + (*p - '0')) >
				    4096)
					return -1;
		}
	}
	if (*p == 'l') {
		sp->len = 'l';
		if (*++p == 'l') {
			sp->len = 'L';
			p++;
		}
	} else if (*p == 'z') {
		sp->len = 'z';
		p++;
	}
	sp->conv = *p;
	*pp = *p ? p + 1 : p;
	switch (sp->conv) {
	case 's':
	case 'c':
		return sp->len || sp->zero ? -1 : 0;
	case '%':
		return sp->len ? -1 : 0;
	case 'd':
	case 'i':
		return sp->prec != -1 || sp->len == 'z' ? -1 : 0;
	case 'u':
	case 'x':
		return sp->prec != -1 ? -1 : 0;
	default:
		return -1;
	}
}

/* Appends s (n bytes) padded to width as sp says. */
static void
add_padded(struct buf *b, const struct spec *sp, int width, const char *s,
	   size_t n)
{
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	char fill = sp->zero && !sp->left && sp->conv != 's' &&
		    sp->conv != 'c' ? '0' : ' ';

	if (!sp->left && fill == '0' && n && *s == '-') {
		/* "-0042": the sign before the zeros. */
		buf_addch(b, '-');
		s++;
		n--;
	}
	if (!sp->left)
		while (pad--)
			buf_addch(b, fill);
	buf_add(b, s, n);
	if (sp->left)
		while (pad--)
			buf_addch(b, ' ');
}

/*
 * printf() for the conversions of parse_spec(), with the same output as
 * vsnprintf(): most formats here are "%s.%s" names and file:line pairs,
 * for which glibc's stream set-up cost more than the text. Returns 0,
 * or -1 at the first conversion it does not write (having taken no
 * argument of it; what it wrote before is for the caller to drop).
 */
static int
fast_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char num[32], *e = num + sizeof(num), *q;
	struct spec sp;
	const char *pct;

	while ((pct = strchr(fmt, '%'))) {
		int width;

		buf_add(b, fmt, (size_t)(pct - fmt));
		fmt = pct + 1;
		/* Read before any argument of it is taken. */
		if (parse_spec(&fmt, &sp))
			return -1;
		width = sp.width;
		if (width == -2) {
			width = va_arg(ap, int);
			/* A negative '*' width means '-' and its size. */
			if (width < 0) {
				sp.left = 1;
				width = width < -4096 ? 4096 : -width;
			}
		}
		switch (sp.conv) {
		case '%':
			buf_addch(b, '%');
			break;
		case 'c':
			num[0] = (char)va_arg(ap, int);
			add_padded(b, &sp, width, num, 1);
			break;
		case 's': {
			int prec = sp.prec == -2 ? va_arg(ap, int) : sp.prec;
			const char *str = va_arg(ap, const char *);
			size_t n = prec >= 0 ? strnlen(str, (size_t)prec) :
				   strlen(str);

			add_padded(b, &sp, width, str, n);
			break;
		}
		case 'd':
		case 'i': {
			long long v = sp.len == 'L' ? va_arg(ap, long long) :
				      sp.len == 'l' ? va_arg(ap, long) :
				      va_arg(ap, int);
			/* -LLONG_MIN overflows; its magnitude does not. */
			unsigned long long u = v < 0 ? 0ULL - (unsigned long
							      long)v :
					       (unsigned long long)v;

			q = e;
			do {
				*--q = (char)('0' + (int)(u % 10));
				u /= 10;
			} while (u);
			if (v < 0)
				*--q = '-';
			add_padded(b, &sp, width, q, (size_t)(e - q));
			break;
		}
		case 'u':
		case 'x': {
			unsigned long long u = sp.len == 'L' ?
				va_arg(ap, unsigned long long) :
				sp.len == 'l' ? va_arg(ap, unsigned long) :
				sp.len == 'z' ? va_arg(ap, size_t) :
				va_arg(ap, unsigned);
			unsigned base = sp.conv == 'x' ? 16 : 10;

			q = e;
			do {
				*--q = "0123456789abcdef"[u % base];
				u /= base;
			} while (u);
			add_padded(b, &sp, width, q, (size_t)(e - q));
			break;
		}
		}
	}
	buf_addstr(b, fmt);
	return 0;
}

void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp, again;
	size_t start = b->len;
	int n;

	va_copy(cp, ap);
	if (!fast_vaddf(b, fmt, ap)) {
		va_end(cp);
		return;
	}
	/* A conversion it does not write: all of it by vsnprintf(). */
	b->len = start;
	if (b->cap)
		b->data[start] = '\0';
	va_copy(again, cp);
	n = vsnprintf(b->data + b->len, b->cap ? b->cap - b->len : 0, fmt,
		      again);
	va_end(again);
	if (n < 0) {
		fputs("ultimate: fatal: formatting failed\n", stderr);
		exit(1);
	}
	if ((size_t)n >= (b->cap ? b->cap - b->len : 0)) {
		buf_grow(b, (size_t)n);
		n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, cp);
	}
	va_end(cp);
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

int
buf_read_file_flags(struct buf *b, const char *path, unsigned flags)
{
	size_t len = b->len, size;
	int fd = file_open(path, flags, &size), err;
	ssize_t n;

	if (fd < 0)
		return errno == EINVAL || errno == EFBIG ? -2 : -1;
	/* One allocation: its size, and a byte to see the end. */
	buf_grow(b, size + 1);
	for (;;) {
		if (b->len - len > FILE_MAX_BYTES) {
			errno = EFBIG;	/* it grew while being read */
			n = -1;
			break;
		}
		if (b->cap - b->len < 2)
			buf_grow(b, 65536);
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n > 0)
			b->len += (size_t)n;
		else if (!n || errno != EINTR)
			break;
	}
	err = errno;
	close(fd);
	if (n < 0) {
		b->len = len;
		b->data[len] = '\0';
		errno = err;
		return -2;
	}
	b->data[b->len] = '\0';
	return 0;
}

int
buf_read_file(struct buf *b, const char *path)
{
	return buf_read_file_flags(b, path, 0);
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
