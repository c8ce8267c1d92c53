#ifndef BUF_H
#define BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/*
 * A growable byte buffer (git strbuf.h). Invariants: data is never NULL
 * and data[len] == '\0', so data can always be used as a C string.
 * A buffer is initialised with BUF_INIT or buf_init() and released with
 * buf_release(); ownership of the bytes leaves only through buf_detach().
 */
struct buf {
	char *data;
	size_t len, cap;
};

extern char buf_empty[];
#define BUF_INIT { .data = buf_empty, .len = 0, .cap = 0 }
/* s must be a string literal: "" s "" fails to compile for anything else
 * (a pointer would make sizeof measure the pointer). */
#define BUF_ADDLIT(b, s) buf_add((b), "" s "", sizeof(s) - 1)

void buf_init(struct buf *b);
/* Frees the bytes and leaves b as after buf_init(). */
void buf_release(struct buf *b);
/* Empties b but keeps its allocation. */
void buf_reset(struct buf *b);
/* Makes room for at least extra more bytes without reallocating. */
void buf_grow(struct buf *b, size_t extra);
/* Inline: most calls add a few bytes to a buffer that has room. */
static inline void
buf_add(struct buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	/* cap - len cannot wrap: len < cap, or both are 0. */
	if (len >= b->cap - b->len)
		buf_grow(b, len);
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}
void buf_addstr(struct buf *b, const char *s);
/*
 * Appends s as one word for a POSIX shell (git's sq_quote_buf): as it is
 * when it holds only letters, digits and ._/-+,:@%, else in single
 * quotes, each ' as '\''. For commands a message tells the user to run.
 */
void buf_add_shellword(struct buf *b, const char *s);
/* Inline: the hot path of every escaping loop. */
static inline void
buf_addch(struct buf *b, int c)
{
	if (b->len + 1 >= b->cap)
		buf_grow(b, 1);
	b->data[b->len++] = (char)c;
	b->data[b->len] = '\0';
}
void buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/*
 * Returns the bytes (NUL-terminated, never NULL) and leaves b empty;
 * the caller frees them with free(). *lenp gets the length if lenp is
 * not NULL.
 */
char *buf_detach(struct buf *b, size_t *lenp);
/*
 * Appends the whole regular file at path (git's strbuf_read_file),
 * opened with file_open() (file.h): FIFOs, devices and folders are
 * refused, and so is a file larger than FILE_MAX_BYTES. Returns 0; -1
 * when it cannot be opened (errno from the system), -2 when it is not a
 * regular file (errno EINVAL), too large (EFBIG) or reading failed;
 * then b is as it was.
 */
int buf_read_file(struct buf *b, const char *path);
/* The same with file_open()'s flags (FILE_NOFOLLOW). */
int buf_read_file_flags(struct buf *b, const char *path, unsigned flags);

#endif
