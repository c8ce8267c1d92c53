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
		/*
		 * 128 bytes at least: most buffers hold a name or a line,
		 * and grew from a few bytes by reallocations (one edition:
		 * 222.6M -> 214.4M instructions; peak memory unchanged,
		 * 8.5 MB).
		 */
		b->data = NULL;
		b->data = xgrow(b->data, &b->cap, need < 128 ? 128 : need, 1);
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

/*
 * vsnprintf() into the spare room, from a copy of the arguments; when
 * the room is too small, grows the buffer and formats again (git's
 * strbuf_vaddf()). Where the room is short (a fresh buffer has none), a
 * result that fits a small array on the stack is formatted there and
 * copied: most results are names and short phrases added to a new
 * buffer, formatted twice before (one edition, warm: 242.6M -> 230.9M
 * instructions). An empty result allocates nothing.
 */
void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char tmp[256];
	va_list cp;
	int n;

	va_copy(cp, ap);
	if (b->cap - b->len < sizeof(tmp)) {
		n = vsnprintf(tmp, sizeof(tmp), fmt, cp);
		va_end(cp);
		if (n >= 0 && (size_t)n < sizeof(tmp)) {
			buf_add(b, tmp, (size_t)n);
			return;
		}
	} else {
		/* cap - len is the room, NUL included. */
		n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, cp);
		va_end(cp);
	}
	if (n > 0 && (size_t)n >= b->cap - b->len) {
		buf_grow(b, (size_t)n);
		n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	}
	if (n < 0) {
		fputs("ultimate: fatal: formatting failed\n", stderr);
		exit(1);
	}
	b->len += (size_t)n;
}

void
buf_add_shellword(struct buf *b, const char *s)
{
	const char *c;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR"
			 "STUVWXYZ0123456789._/-+,:@%") == strlen(s)) {
		buf_addstr(b, s);
		return;
	}
	BUF_ADDLIT(b, "'");
	for (c = s; *c; c++)
		if (*c == '\'')
			BUF_ADDLIT(b, "'\\''");
		else
			buf_add(b, c, 1);
	BUF_ADDLIT(b, "'");
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
