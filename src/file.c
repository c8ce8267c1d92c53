/*
 * Files, read safely and written whole. file_open() opens regular files
 * only, bounded in size: every read goes through it (buf.c's
 * buf_read_file() for data, templates and figure scripts by way of
 * diag.c's srcfile_read() and srcfile_load(); hash.c, site.c, plot.c
 * and serve.c for what they read back from the output folder).
 * file_confined() and file_realpath() keep reads inside their folders.
 * file_write() writes a file whole, never through a symbolic link, and
 * removes it when a write fails: the publish journal and files copied
 * into the output folder (site.c), gnuplot's batch and data (plot.c).
 */
/* realpath() is XSI, beyond the POSIX base the Makefile asks for. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "banned.h"

int
file_open(const char *path, unsigned flags, size_t *size)
{
	struct stat st;
	int fd, nofollow = flags & FILE_NOFOLLOW, err;

	/*
	 * Looked at before it is opened: opening a FIFO waits for a
	 * writer, and opening some devices has effects of its own.
	 */
	if ((nofollow ? lstat(path, &st) : stat(path, &st)))
		return -1;
	if (nofollow && S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	/* O_NONBLOCK: should it have become a FIFO since, open at once. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		  (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -1;
	if (fstat(fd, &st))
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if ((uintmax_t)st.st_size > FILE_MAX_BYTES)
		err = EFBIG;
	else
		err = 0;
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

const char *
file_strerror(int err)
{
	switch (err) {
	case EINVAL:
		return "not a regular file";
	case EFBIG:
		return "larger than 512 MiB";
	case EXDEV:
		return "a symbolic link leading outside its folder";
	default:
		return strerror(err);
	}
}

int
file_confined(const char *path, const char *root)
{
	char *p = realpath(path, NULL);
	size_t n = strlen(root);
	int inside;

	if (!p)
		return -1;
	/* "/" holds everything; "/a" holds "/a/b", not "/ab". */
	inside = !strncmp(p, root, n) && (p[n] == '/' || !p[n] ||
					 (n == 1 && root[0] == '/'));
	free(p);
	if (!inside) {
		errno = EXDEV;
		return -1;
	}
	return 0;
}

char *
file_realpath(const char *path)
{
	return realpath(path, NULL);
}

int
file_write(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		      O_NOFOLLOW, 0666), err;
	size_t off = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (off < len) {
		n = write(fd, (const char *)data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			close(fd);
			unlink(path);
			errno = err;
			return -1;
		}
		off += (size_t)n;
	}
	if (close(fd)) {
		err = errno;
		unlink(path);
		errno = err;
		return -1;
	}
	return 0;
}
