/*
 * The preview server of `ultimate watch --serve`: reads HTTP requests
 * from sockets on 127.0.0.1 and answers them with the files of the
 * output folder, read through file_open(). Writes only to sockets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "serve.h"
#include "banned.h"

#define HEAD_MAX 8192	/* the longest request head read */

int
serve_open(int port, int *bound)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		return error("cannot serve: %s", strerror(errno));
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		error("cannot serve on 127.0.0.1:%d: %s", port,
		      strerror(errno));
		close(fd);
		return -1;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

static const char *
content_type(const char *path)
{
	static const char *const types[][2] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".csv", "text/csv; charset=utf-8" },
		{ ".json", "application/json" },
		{ ".png", "image/png" },
		{ ".dat", "text/plain; charset=utf-8" },
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(dot, types[i][0]))
			return types[i][1];
	return "application/octet-stream";
}

static void
send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;	/* the browser went away */
		p += n;
		len -= (size_t)n;
	}
}

/* An answer without a file: its status line is its text. */
static void
reply(int fd, const char *code, const char *extra, int head_only)
{
	struct buf b = BUF_INIT;

	buf_addf(&b, "HTTP/1.0 %s\r\nContent-Type: text/plain; "
		 "charset=utf-8\r\nContent-Length: %zu\r\n%sConnection: "
		 "close\r\n\r\n", code, strlen(code) + 1, extra);
	if (!head_only)
		buf_addf(&b, "%s\n", code);
	send_all(fd, b.data, b.len);
	buf_release(&b);
}

static int
hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	       c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Adds the path of target t (from "/" to before '?' or '#'), %XX
 * decoded, to path. Returns 0; 400 for a bad target or one with a ".."
 * segment; 404 for one with a segment starting with '.'.
 */
static int
target_path(const char *t, size_t len, struct buf *path)
{
	size_t i, start = path->len;
	const char *seg;

	if (!len || *t != '/')
		return 400;
	for (i = 0; i < len && t[i] != '?' && t[i] != '#'; i++) {
		int c = (unsigned char)t[i];

		if (c <= ' ' || c == 0x7f)
			return 400;
		if (c == '%') {
			if (i + 2 >= len || hex(t[i + 1]) < 0 ||
			    hex(t[i + 2]) < 0)
				return 400;
			c = hex(t[i + 1]) * 16 + hex(t[i + 2]);
			i += 2;
			if (!c)
				return 400;
		}
		buf_addch(path, c);
	}
	for (seg = path->data + start; seg; seg = strchr(seg + 1, '/')) {
		if (!strncmp(seg, "/..", 3) && (!seg[3] || seg[3] == '/'))
			return 400;
		if (seg[1] == '.')
			return 404;
	}
	return 0;
}

/* Answers one request whose head is in req. */
static void
answer(int fd, const char *root, const char *req)
{
	const char *sp = strchr(req, ' '), *end = sp ? strchr(sp + 1, ' ') : 0;
	struct buf path = BUF_INIT, head = BUF_INIT;
	struct stat st;
	size_t size;
	int file = -1, head_only = sp && sp - req == 4 &&
				   !strncmp(req, "HEAD", 4), code;

	if (!end) {
		reply(fd, "400 Bad Request", "", 0);
		goto out;
	}
	if (!head_only && !(sp - req == 3 && !strncmp(req, "GET", 3))) {
		reply(fd, "405 Method Not Allowed", "Allow: GET, HEAD\r\n", 0);
		goto out;
	}
	buf_addstr(&path, root);
	code = target_path(sp + 1, (size_t)(end - sp - 1), &path);
	if (code) {
		reply(fd, code == 400 ? "400 Bad Request" : "404 Not Found",
		      "", head_only);
		goto out;
	}
	if (!stat(path.data, &st) && S_ISDIR(st.st_mode)) {
		if (path.data[path.len - 1] != '/') {
			/* For relative links in its index.html to work. */
			buf_addf(&head, "Location: %.*s/\r\n",
				 (int)strcspn(sp + 1, "?# "), sp + 1);
			reply(fd, "301 Moved Permanently", head.data,
			      head_only);
			goto out;
		}
		buf_addstr(&path, "index.html");
	}
	file = file_open(path.data, FILE_NOFOLLOW, &size);
	if (file < 0) {
		reply(fd, "404 Not Found", "", head_only);
		goto out;
	}
	buf_addf(&head, "HTTP/1.0 200 OK\r\nContent-Type: %s\r\nContent-"
		 "Length: %zu\r\nCache-Control: no-cache\r\nConnection: "
		 "close\r\n\r\n", content_type(path.data), size);
	send_all(fd, head.data, head.len);
	while (!head_only && size) {
		char chunk[65536];
		ssize_t n = read(file, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		send_all(fd, chunk, (size_t)n);
		size -= (size_t)n < size ? (size_t)n : size;
	}
out:
	if (file >= 0)
		close(file);
	buf_release(&path);
	buf_release(&head);
}

void
serve_one(int lfd, const char *root)
{
	struct timeval tv = { 2, 0 };
	char req[HEAD_MAX + 1];
	size_t len = 0;
	time_t start = time(NULL);
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0)
		return;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	/*
	 * The whole head (a socket closed unread may lose the answer), in
	 * at most a few seconds: meanwhile the watcher waits.
	 */
	while (len < HEAD_MAX && time(NULL) - start <= 2) {
		ssize_t n = recv(fd, req + len, HEAD_MAX - len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[len] = '\0';
	if (len)
		answer(fd, root, req);
	close(fd);
}
