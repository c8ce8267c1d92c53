#ifndef FILE_H
#define FILE_H

#include <stddef.h>

/*
 * Opening input files safely. Every file the program reads (data,
 * templates, figure scripts, and what it reads back from its output
 * folder) goes through file_open(): only regular files are opened for
 * reading, so a FIFO, a device such as /dev/zero or a folder is refused
 * before it can block or feed the program forever, and a file larger
 * than FILE_MAX_BYTES is refused before it is read.
 */

/* The largest input read whole: 512 MiB (a 1e6-row history is 90 MB). */
#define FILE_MAX_BYTES ((size_t)512 << 20)

enum file_flags {
	FILE_NOFOLLOW = (1 << 0),	/* refuse a symbolic link (out/) */
};

/*
 * Opens path for reading (close-on-exec) when it is a regular file of
 * at most FILE_MAX_BYTES, and sets *size to its size. Returns the
 * descriptor, or -1 with errno set: ENOENT and the like from the system,
 * EINVAL when it is not a regular file, EFBIG when it is too large,
 * ELOOP for a symbolic link under FILE_NOFOLLOW.
 */
int file_open(const char *path, unsigned flags, size_t *size);

/*
 * The reason for errno value err after file_open() or file_confined(),
 * worded for a message: "not a regular file", "larger than 512 MiB",
 * "a symbolic link leading outside its folder", else strerror(err).
 */
const char *file_strerror(int err);

/*
 * 0 when path, with every symbolic link resolved, lies inside the folder
 * root (a path already resolved by file_realpath()); else -1 with errno
 * set: EXDEV when it leads outside, or the error of resolving it
 * (ENOENT, ELOOP, ...).
 */
int file_confined(const char *path, const char *root);

/*
 * path with every symbolic link, "." and ".." resolved (realpath()), or
 * NULL with errno set. The caller frees it.
 */
char *file_realpath(const char *path);

/*
 * Writes len bytes of data to path, created or truncated (never through
 * a symbolic link). Returns 0, or -1 with errno set, the file removed.
 */
int file_write(const char *path, const void *data, size_t len);

#endif
