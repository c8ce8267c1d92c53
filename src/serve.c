/*
 * The preview server of `ultimate watch --serve`: reads HTTP requests
 * from sockets on 127.0.0.1 and answers them with the files of the
 * output folder, read through file_open(). Writes only to sockets.
 *
 * Every socket is non-blocking. A connection goes through three states:
 * READING its request head (at most HEAD_MAX bytes, within HEAD_MS),
 * SENDING the answer (the head and the file, CHUNK bytes at a time, as
 * fast as the client takes them, SEND_MS at most without progress),
 * then DRAINING: its sending side shut, whatever the client still sends
 * is read and dropped until it closes (at most DRAIN_MS), since a socket
 * closed with unread bytes resets the connection and may lose the
 * answer.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "serve.h"
#include "timing.h"
#include "xalloc.h"
#include "banned.h"

#define HEAD_MAX 8192	/* the longest request head read */
#define HEAD_MS 10000	/* for a request head to arrive whole */
#define SEND_MS 10000	/* the longest a client may take no byte */
#define DRAIN_MS 2000	/* for a client to close after its answer */
#define CHUNK 65536	/* of a file, sent at a time */
#define TURN 4		/* chunks sent or read from a client in a row */

enum conn_state { FREE, READING, SENDING, DRAINING };

struct conn {
	int fd;			/* the socket, or -1: a free slot */
	enum conn_state state;
	double since;		/* accepted at, in now_ms() */
	double deadline;	/* closed at, in now_ms() */
	char head[HEAD_MAX + 1];	/* the request head read so far */
	size_t len;		/* of head */
	struct buf out;		/* bytes of the answer to send */
	size_t off;		/* of out, sent */
	int file;		/* what is still to be read of the file, */
	size_t left;		/* or -1 */
};

struct serve {
	int fd;			/* the listening socket */
	const char *root;	/* borrowed */
	struct conn c[SERVE_CONN_MAX];
};

/* Milliseconds on the monotonic clock. */
static double
now_ms(void)
{
	return timing_now() * 1e3;
}

static int
hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	       c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Sets path to the path of target t (from "/" to before '?' or '#'),
 * %XX decoded, each segment added once, without empty ones: "//a//b/"
 * gives "a/b/". Returns 0; 400 for a bad target or one with a ".."
 * segment; 404 for one with a segment starting with '.'.
 */
static int
target_path(const char *t, size_t len, struct buf *path)
{
	struct buf dec = BUF_INIT;
	size_t i, seg;
	int code = 0;

	buf_reset(path);
	if (!len || *t != '/') {
		code = 400;
		goto out;
	}
	for (i = 0; i < len && t[i] != '?' && t[i] != '#'; i++) {
		int c = (unsigned char)t[i];

		if (c == '%') {
			if (i + 2 >= len || hex(t[i + 1]) < 0 ||
			    hex(t[i + 2]) < 0) {
				code = 400;
				goto out;
			}
			c = hex(t[i + 1]) * 16 + hex(t[i + 2]);
			i += 2;
		}
		if (c < ' ' || c == 0x7f) {
			code = 400;
			goto out;
		}
		buf_addch(&dec, c);
	}
	/* Segment by segment: ".." anywhere is refused before a dot. */
	for (seg = 0; seg < dec.len; seg = i + 1) {
		i = seg + strcspn(dec.data + seg, "/");
		if (i - seg == 2 && !strncmp(dec.data + seg, "..", 2)) {
			code = 400;
			goto out;
		}
		if (i == seg)
			continue;
		if (dec.data[seg] == '.')
			code = 404;
		if (path->len)
			buf_addch(path, '/');
		buf_add(path, dec.data + seg, i - seg);
	}
	if (path->len && dec.data[dec.len - 1] == '/')
		buf_addch(path, '/');
out:
	if (code)
		buf_reset(path);
	buf_release(&dec);
	return code;
}

int
serve_parse(const char *data, size_t len, struct serve_request *req)
{
	const char *eol = memchr(data, '\n', len), *sp, *end;
	size_t line = eol ? (size_t)(eol - data) : len;

	req->head_only = 0;
	buf_reset(&req->path);
	if (line && data[line - 1] == '\r')
		line--;
	sp = memchr(data, ' ', line);
	if (!sp)
		return 400;
	req->head_only = sp - data == 4 && !memcmp(data, "HEAD", 4);
	end = memchr(sp + 1, ' ', line - (size_t)(sp + 1 - data));
	if (!end)
		return 400;
	if (!req->head_only && !(sp - data == 3 && !memcmp(data, "GET", 3)))
		return 405;
	return target_path(sp + 1, (size_t)(end - sp - 1), &req->path);
}

void
serve_request_release(struct serve_request *req)
{
	buf_release(&req->path);
}

void
serve_location(const char *path, struct buf *out)
{
	static const char keep[] = "/-._~!$&'()*+,;=:@";
	const char *p;

	buf_addch(out, '/');
	for (p = path; *p; p++) {
		int c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr(keep, c))
			buf_addch(out, c);
		else
			buf_addf(out, "%%%02X", (unsigned)c);
	}
	buf_addch(out, '/');
}

struct serve *
serve_open(int port, int *bound, const char *root)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	struct serve *s = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, i;

	if (fd < 0) {
		error("cannot serve: %s", strerror(errno));
		goto out;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, SERVE_CONN_MAX) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		error("cannot serve on 127.0.0.1:%d: %s", port,
		      strerror(errno));
		close(fd);
		goto out;
	}
	if (fd >= FD_SETSIZE) {
		error("cannot serve: too many open files");
		close(fd);
		goto out;
	}
	*bound = ntohs(a.sin_port);
	s = xmalloc(sizeof(*s));
	s->fd = fd;
	s->root = root;
	for (i = 0; i < SERVE_CONN_MAX; i++) {
		s->c[i].fd = s->c[i].file = -1;
		s->c[i].state = FREE;
		buf_init(&s->c[i].out);
	}
out:
	return s;
}

static void
conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->file >= 0)
		close(c->file);
	buf_release(&c->out);
	c->fd = c->file = -1;
	c->state = FREE;
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

static const char *
status_line(int code)
{
	static const char *const lines[] = {
		"301 Moved Permanently", "400 Bad Request", "404 Not Found",
		"405 Method Not Allowed",
		"431 Request Header Fields Too Large",
	};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (atoi(lines[i]) == code)
			return lines[i];
	BUG("no status line for %d", code);
}

/* An answer without a file into out: its status line is its text. */
static void
reply(struct buf *out, int code, const char *extra, int head_only)
{
	const char *status = status_line(code);

	buf_addf(out, "HTTP/1.0 %s\r\nContent-Type: text/plain; "
		 "charset=utf-8\r\nContent-Length: %zu\r\n%sConnection: "
		 "close\r\n\r\n", status, strlen(status) + 1, extra);
	if (!head_only)
		buf_addf(out, "%s\n", status);
}

/*
 * Makes the answer to the request head of c (code: 431 when it is too
 * long, else 0): its head into c->out, and the file to send after it,
 * if any, into c->file and c->left.
 */
static void
answer(struct serve *s, struct conn *c, int code)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	struct buf path = BUF_INIT, extra = BUF_INIT;
	struct stat st;
	size_t size;

	buf_reset(&c->out);
	c->off = 0;
	if (!code)
		code = serve_parse(c->head, c->len, &req);
	if (code) {
		reply(&c->out, code, code == 405 ? "Allow: GET, HEAD\r\n" :
		      "", req.head_only && code != 405);
		goto out;
	}
	buf_addf(&path, "%s/%s", s->root, req.path.data);
	if (!stat(path.data, &st) && S_ISDIR(st.st_mode)) {
		if (req.path.len && req.path.data[req.path.len - 1] != '/') {
			/* For relative links in its index.html to work. */
			BUF_ADDLIT(&extra, "Location: ");
			serve_location(req.path.data, &extra);
			BUF_ADDLIT(&extra, "\r\n");
			reply(&c->out, 301, extra.data, req.head_only);
			goto out;
		}
		buf_addstr(&path, "index.html");
	}
	c->file = file_open(path.data, FILE_NOFOLLOW, &size);
	if (c->file < 0) {
		reply(&c->out, 404, "", req.head_only);
		goto out;
	}
	buf_addf(&c->out, "HTTP/1.0 200 OK\r\nContent-Type: %s\r\nContent-"
		 "Length: %zu\r\nCache-Control: no-cache\r\nConnection: "
		 "close\r\n\r\n", content_type(path.data), size);
	c->left = size;
	if (req.head_only || !size) {
		close(c->file);
		c->file = -1;
	}
out:
	serve_request_release(&req);
	buf_release(&path);
	buf_release(&extra);
}

/*
 * Sends what the socket takes of the answer, TURN chunks at most (a
 * client that reads fast leaves the others their turn); when all is
 * sent, shuts the sending side and drains. Closes c when the client
 * went away.
 */
static void
sending(struct conn *c)
{
	int turn = 0;

	for (;;) {
		ssize_t n;

		if (c->off == c->out.len && c->file >= 0 && c->left) {
			if (turn++ == TURN)
				return;	/* the socket is still writable */
			buf_reset(&c->out);
			c->off = 0;
			buf_grow(&c->out, CHUNK);
			n = read(c->file, c->out.data,
				 c->left < CHUNK ? c->left : CHUNK);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				/* Shorter than it was: the length was wrong. */
				conn_close(c);
				return;
			}
			c->out.len = (size_t)n;
			c->out.data[c->out.len] = '\0';
			c->left -= (size_t)n;
		}
		if (c->off == c->out.len)
			break;
		n = send(c->fd, c->out.data + c->off, c->out.len - c->off,
			 MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;	/* on POLLOUT, again */
		if (n <= 0) {
			conn_close(c);	/* the browser went away */
			return;
		}
		c->off += (size_t)n;
		c->deadline = now_ms() + SEND_MS;
	}
	if (c->file >= 0)
		close(c->file);
	c->file = -1;
	buf_release(&c->out);
	shutdown(c->fd, SHUT_WR);
	c->state = DRAINING;
	c->deadline = now_ms() + DRAIN_MS;
}

/* Does the head end, with an empty line, in its bytes from 'from' on? */
static int
head_ends(const struct conn *c, size_t from)
{
	size_t i;

	for (i = from; i < c->len; i++)
		if (c->head[i] == '\n' && ((i >= 1 && c->head[i - 1] == '\n') ||
		    (i >= 3 && !memcmp(c->head + i - 3, "\r\n\r\n", 4))))
			return 1;
	return 0;
}

/* Reads what came of the request head; answers it once it is whole. */
static void
reading(struct serve *s, struct conn *c)
{
	size_t was = c->len;
	ssize_t n = recv(c->fd, c->head + c->len, HEAD_MAX - c->len, 0);

	if (n < 0 && (errno == EINTR || errno == EAGAIN ||
		      errno == EWOULDBLOCK))
		return;
	if (n < 0 || (n == 0 && !c->len)) {
		conn_close(c);
		return;
	}
	c->len += (size_t)n;
	c->head[c->len] = '\0';
	/* A client that has said all it will say is answered too. */
	if (n && !head_ends(c, was) && c->len < HEAD_MAX)
		return;
	answer(s, c, n && !head_ends(c, was) ? 431 : 0);
	c->state = SENDING;
	c->deadline = now_ms() + SEND_MS;
	sending(c);
}

/*
 * Reads and drops what the client sends after its answer, TURN chunks
 * at most: one that keeps sending does not keep the others waiting.
 */
static void
draining(struct conn *c)
{
	char scrap[CHUNK];
	ssize_t n = 1;
	int turn;

	for (turn = 0; turn < TURN && n > 0; turn++)
		n = recv(c->fd, scrap, sizeof(scrap), 0);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN &&
		       errno != EWOULDBLOCK))
		conn_close(c);
}

/*
 * A slot for a new connection: a free one, else that of the oldest
 * connection done (draining), else of the oldest still reading its
 * request, closed. NULL when all are sending an answer.
 */
static struct conn *
slot(struct serve *s)
{
	struct conn *done = NULL, *idle = NULL;
	int i;

	for (i = 0; i < SERVE_CONN_MAX; i++) {
		struct conn *c = &s->c[i];

		if (c->state == FREE)
			return c;
		if (c->state == DRAINING && (!done || c->since < done->since))
			done = c;
		if (c->state == READING && (!idle || c->since < idle->since))
			idle = c;
	}
	if (!done)
		done = idle;
	if (done)
		conn_close(done);
	return done;
}

/* Accepts the connections waiting, each into a slot. */
static void
accept_all(struct serve *s)
{
	int i;

	for (i = 0; i < SERVE_CONN_MAX; i++) {
		int fd = accept(s->fd, NULL, NULL);
		struct conn *c;

		if (fd < 0)
			break;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		fcntl(fd, F_SETFL, O_NONBLOCK);
		c = fd < FD_SETSIZE ? slot(s) : NULL;
		if (!c) {
			close(fd);	/* refused: every slot is answering */
			continue;
		}
		c->fd = fd;
		c->state = READING;
		c->since = now_ms();
		c->deadline = c->since + HEAD_MS;
		c->len = 0;
		c->off = 0;
		c->file = -1;
		c->left = 0;
	}
}

int
serve_fds(struct serve *s, fd_set *rd, fd_set *wr, int nfds, double *ms)
{
	double now = now_ms();
	int i;

	FD_SET(s->fd, rd);
	if (s->fd >= nfds)
		nfds = s->fd + 1;
	for (i = 0; i < SERVE_CONN_MAX; i++) {
		const struct conn *c = &s->c[i];
		double left = c->deadline - now;

		if (c->state == FREE)
			continue;
		FD_SET(c->fd, c->state == SENDING ? wr : rd);
		if (c->fd >= nfds)
			nfds = c->fd + 1;
		if (left < 0)
			left = 0;
		if (*ms < 0 || left < *ms)
			*ms = left;
	}
	return nfds;
}

void
serve_run(struct serve *s, const fd_set *rd, const fd_set *wr)
{
	double now;
	int i;

	for (i = 0; i < SERVE_CONN_MAX; i++) {
		struct conn *c = &s->c[i];

		if (c->state == READING && FD_ISSET(c->fd, rd))
			reading(s, c);
		else if (c->state == SENDING && FD_ISSET(c->fd, wr))
			sending(c);
		else if (c->state == DRAINING && FD_ISSET(c->fd, rd))
			draining(c);
	}
	if (FD_ISSET(s->fd, rd))
		accept_all(s);
	now = now_ms();
	for (i = 0; i < SERVE_CONN_MAX; i++)
		if (s->c[i].state != FREE && now >= s->c[i].deadline)
			conn_close(&s->c[i]);
}

void
serve_free(struct serve *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < SERVE_CONN_MAX; i++)
		conn_close(&s->c[i]);
	close(s->fd);
	free(s);
}
