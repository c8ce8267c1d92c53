/*
 * The preview server of `ultimate watch --serve`: reads HTTP requests
 * from sockets on 127.0.0.1 and answers them with the regular files of
 * the output folder, opened one folder at a time from it, never through
 * a symbolic link. Writes only to sockets.
 *
 * Every socket is non-blocking. A connection goes through three states:
 * READING its request head (at most HEAD_MAX bytes, within HEAD_MS),
 * SENDING the answer (the head and the file, CHUNK bytes at a time, as
 * fast as the client takes them, SEND_MS at most without progress),
 * then DRAINING: its sending side shut, whatever the client still sends
 * is read and dropped until it closes (at most DRAIN_MS), since a socket
 * closed with unread bytes resets the connection and may lose the
 * answer. A page's question for the status, while a build is under way
 * (serve_hold()), is HELD between READING and SENDING until the build
 * ends (at most HOLD_MS); what the client sends meanwhile is dropped,
 * and its closing closes it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
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
#define PAGE_MAX ((size_t)64 << 20)	/* a page read whole, to add to */
#define POLL_MS 100	/* how often a page asks for the status */
#define HOLD_MS 5000	/* the longest a status question is held */

/* The reserved path of the status (no file of the site starts "."). */
#define STATUS_PATH "/.ultimate/status"

enum conn_state { FREE, READING, HELD, SENDING, DRAINING };

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
	unsigned gen;		/* builds finished */
	char *errors;		/* of the last build, or NULL: it went well */
	char *changed;		/* the files it changed, or NULL: unknown */
	int hold;		/* a build is under way: serve_hold() */
	int back;		/* serve_page_back() */
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

/*
 * Adds to req the If-None-Match lines of the header lines in
 * data[0, len) (after the request line), each value without the spaces
 * around it; several are one list, as RFC 9110 has them.
 */
static void
header_lines(const char *data, size_t len, struct serve_request *req)
{
	static const char name[] = "If-None-Match:";
	const size_t nlen = sizeof(name) - 1;
	const char *p = data, *end = data + len, *eol, *v, *ve;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if ((size_t)(eol - p) < nlen || strncasecmp(p, name, nlen))
			continue;
		for (v = p + nlen; v < eol && (*v == ' ' || *v == '\t'); v++)
			;
		for (ve = eol; ve > v && (ve[-1] == ' ' || ve[-1] == '\t' ||
					  ve[-1] == '\r'); ve--)
			;
		if (req->if_none_match.len)
			BUF_ADDLIT(&req->if_none_match, ", ");
		buf_add(&req->if_none_match, v, (size_t)(ve - v));
	}
}

/*
 * Sets req->since from the query in [q, end) of the status path, if it
 * has "since=" and a generation (a number below 2^32) among its
 * '&'-separated parameters.
 */
static void
since(const char *q, const char *end, struct serve_request *req)
{
	static const char name[] = "since=";
	const size_t nlen = sizeof(name) - 1;
	unsigned long long v;
	const char *p;

	while (q < end) {
		q++;		/* past '?' or '&' */
		if ((size_t)(end - q) > nlen && !memcmp(q, name, nlen) &&
		    q[nlen] >= '0' && q[nlen] <= '9') {
			for (v = 0, p = q + nlen; p < end && *p >= '0' &&
			     *p <= '9' && v <= 0xffffffffULL; p++)
				v = v * 10 + (unsigned)(*p - '0');
			if ((p == end || *p == '&') && v <= 0xffffffffULL)
				req->since = (long long)v;
		}
		q = memchr(q, '&', (size_t)(end - q));
		if (!q)
			return;
	}
}

int
serve_parse(const char *data, size_t len, struct serve_request *req)
{
	const char *eol = memchr(data, '\n', len), *sp, *end;
	size_t line = eol ? (size_t)(eol - data) : len, n;

	req->head_only = 0;
	req->status = 0;
	req->since = -1;
	buf_reset(&req->path);
	buf_reset(&req->if_none_match);
	if (eol)
		header_lines(eol + 1, len - line - 1, req);
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
	n = (size_t)(end - sp - 1);
	if (n >= strlen(STATUS_PATH) && !memcmp(sp + 1, STATUS_PATH,
						strlen(STATUS_PATH)) &&
	    (n == strlen(STATUS_PATH) || sp[1 + strlen(STATUS_PATH)] == '?')) {
		req->status = 1;
		since(sp + 1 + strlen(STATUS_PATH), end, req);
		return 0;
	}
	return target_path(sp + 1, (size_t)(end - sp - 1), &req->path);
}

void
serve_request_release(struct serve_request *req)
{
	buf_release(&req->path);
	buf_release(&req->if_none_match);
}

int
serve_etag_matches(const char *list, const char *etag)
{
	const char *p = list;
	size_t n = strlen(etag), len;

	for (;;) {
		p += strspn(p, " \t,");
		if (!*p)
			return 0;
		if (!strncmp(p, "W/", 2))
			p += 2;
		len = *p == '"' ? strcspn(p + 1, "\"") + 2 : strcspn(p, " \t,");
		if ((len == 1 && *p == '*') || (len == n && !strncmp(p, etag, n)))
			return 1;
		p += strnlen(p, len);
	}
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

/* The addresses of host (NULL: 127.0.0.1) to listen on at port. */
static int
resolve(const char *host, int port, struct addrinfo **res)
{
	struct addrinfo hints;
	char serv[16];

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(serv, sizeof(serv), "%d", port);
	return getaddrinfo(host ? host : "127.0.0.1", serv, &hints, res);
}

int
serve_check_host(const char *host, struct buf *why)
{
	struct addrinfo *res = NULL;
	int r;

	if (!*host) {
		buf_addstr(why, "empty");
		return -1;
	}
	r = resolve(host, 0, &res);
	if (r) {
		buf_addstr(why, r == EAI_SYSTEM ? strerror(errno) :
			   gai_strerror(r));
		return -1;
	}
	freeaddrinfo(res);
	return 0;
}

/* Listens on a: the socket, or -1 with errno set. */
static int
listen_on(const struct addrinfo *a)
{
	int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol), one = 1;
	int err;

	if (fd < 0)
		return -1;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, a->ai_addr, a->ai_addrlen) ||
	    listen(fd, SERVE_CONN_MAX)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	if (fd >= FD_SETSIZE) {
		close(fd);
		errno = EMFILE;
		return -1;
	}
	return fd;
}

struct serve *
serve_open(const char *host, int port, const char *root, struct buf *url)
{
	struct addrinfo *res = NULL, *a;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char addr[INET6_ADDRSTRLEN + 64], serv[16];
	struct serve *s = NULL;
	int fd = -1, err = 0, r, i;

	r = resolve(host, port, &res);
	if (r) {
		error("cannot serve on '%s': %s", host ? host : "127.0.0.1",
		      r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
		goto out;
	}
	/* The first address that works ("localhost": 127.0.0.1 or ::1). */
	for (a = res; a && fd < 0; a = a->ai_next) {
		fd = listen_on(a);
		if (fd < 0 && !err)
			err = errno;
	}
	if (fd < 0) {
		error("cannot serve on '%s' port %d: %s", host ? host :
		      "127.0.0.1", port, strerror(err));
		goto out;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &len) ||
	    getnameinfo((struct sockaddr *)&ss, len, addr, sizeof(addr), serv,
			sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV)) {
		error("cannot serve: %s", strerror(errno));
		close(fd);
		goto out;
	}
	buf_addf(url, strchr(addr, ':') ? "http://[%s]:%s/" :
		 "http://%s:%s/", addr, serv);
	s = xmalloc(sizeof(*s));
	s->fd = fd;
	s->root = root;
	s->gen = 0;
	s->errors = NULL;
	s->changed = NULL;
	s->hold = 0;
	s->back = 0;
	for (i = 0; i < SERVE_CONN_MAX; i++) {
		s->c[i].fd = s->c[i].file = -1;
		s->c[i].state = FREE;
		buf_init(&s->c[i].out);
	}
out:
	if (res)
		freeaddrinfo(res);
	return s;
}

static int release_all(struct serve *s);

int
serve_set_state(struct serve *s, const char *errors, const char *changed)
{
	free(s->errors);
	free(s->changed);
	s->errors = errors ? xstrdup(errors) : NULL;
	s->changed = changed && !errors ? xstrdup(changed) : NULL;
	s->gen++;
	s->back = 0;
	s->hold = 0;
	return release_all(s);
}

int
serve_page_back(const struct serve *s)
{
	return s->back;
}

/* The bytes [p, end) as the text of a JSON string, markup escaped. */
static void
json_text(struct buf *out, const char *p, const char *end)
{
	for (; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"' || c == '\\')
			buf_addf(out, "\\%c", c);
		else if (c == '\n')
			BUF_ADDLIT(out, "\\n");
		/* No "</script>" or markup, wherever it is pasted. */
		else if (c < ' ' || c == 0x7f || c == '<' || c == '>' ||
			 c == '&')
			buf_addf(out, "\\u%04x", c);
		else
			buf_addch(out, c);
	}
}

void
serve_status(struct buf *out, unsigned gen, const char *errors,
	     const char *changed)
{
	const char *p, *nl;

	buf_addf(out, "{\"generation\":%u,\"ok\":%s,\"errors\":\"", gen,
		 errors ? "false" : "true");
	if (errors)
		json_text(out, errors, errors + strlen(errors));
	BUF_ADDLIT(out, "\",\"changed\":");
	if (!changed) {
		BUF_ADDLIT(out, "null}\n");
		return;
	}
	buf_addch(out, '[');
	for (p = changed; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl == p)
			continue;
		if (out->data[out->len - 1] != '[')
			buf_addch(out, ',');
		buf_addch(out, '"');
		json_text(out, p, nl);
		buf_addch(out, '"');
	}
	BUF_ADDLIT(out, "]}\n");
}

/* Where a page ends: at its last "</body>" (any case), else its end. */
static size_t
body_end(const char *page, size_t len)
{
	size_t i;

	for (i = len; i >= 7; i--)
		if (page[i - 7] == '<' && page[i - 6] == '/' &&
		    !strncasecmp(page + i - 5, "body>", 5))
			return i - 7;
	return len;
}

void
serve_inject(struct buf *out, const char *page, size_t len, unsigned gen,
	     const char *errors)
{
	size_t at = body_end(page, len);

	buf_add(out, page, at);
	if (errors) {
		BUF_ADDLIT(out, "<div id=\"ultimate-errors\" role=\"alert\" "
			   "style=\"position:fixed;left:0;right:0;top:0;"
			   "z-index:2147483647;max-height:70vh;overflow:auto;"
			   "margin:0;padding:0.75em 1em;background:#fff0f0;"
			   "color:#600;border-bottom:3px solid #c00;"
			   "font:14px/1.4 sans-serif\"><strong>The build "
			   "failed; this page is the last good one.</strong> "
			   "It reloads when the build is fixed.<pre style=\""
			   "margin:0.5em 0 0;white-space:pre-wrap;font:13px/1.4 "
			   "monospace\">");
		html_text(out, errors);
		BUF_ADDLIT(out, "</pre></div>\n");
	}
	/*
	 * The script: a build that changed neither the page nor a file it
	 * shows (an image, the style sheet, the fonts) is taken in without a
	 * reload; any doubt (a build missed, one that failed, no list of
	 * what changed) reloads.
	 */
	buf_addf(out, "<script>/* ultimate watch --serve: reloads the page "
		 "after a build that changed it or a file it shows */\n"
		 "(function () {\n"
		 "\tvar seen = %u, failed = %d;\n"
		 "\tfunction path(u) {\n"
		 "\t\tvar p = new URL(u, location.href).pathname;\n"
		 "\t\tp = decodeURIComponent(p).slice(1);\n"
		 "\t\treturn p === \"\" || p.slice(-1) === \"/\" ?\n"
		 "\t\t\tp + \"index.html\" : p;\n"
		 "\t}\n"
		 "\tfunction mine(changed) {\n"
		 "\t\tvar e = document.querySelectorAll(\"img[src], \" +\n"
		 "\t\t\t\"source[srcset], link[href], script[src]\");\n"
		 "\t\tvar own = [path(location.href)], i, u;\n"
		 "\t\tfor (i = 0; i < e.length; i++) {\n"
		 "\t\t\tu = e[i].getAttribute(\"src\") ||\n"
		 "\t\t\t\te[i].getAttribute(\"srcset\") ||\n"
		 "\t\t\t\te[i].getAttribute(\"href\");\n"
		 "\t\t\town.push(path(u.split(/[\\s,]/)[0]));\n"
		 "\t\t}\n"
		 "\t\tfor (i = 0; i < changed.length; i++)\n"
		 "\t\t\tif (own.indexOf(changed[i]) >= 0 ||\n"
		 "\t\t\t    /^fonts\\//.test(changed[i]))\n"
		 "\t\t\t\treturn true;\n"
		 "\t\treturn false;\n"
		 "\t}\n"
		 "\tfunction ask() {\n"
		 "\t\tfetch(\"" STATUS_PATH "?since=\" + seen, "
		 "{ cache: \"no-store\" })\n"
		 "\t\t.then(function (r) { return r.json(); })\n"
		 "\t\t.then(function (s) {\n"
		 "\t\t\tvar keep = s.generation === seen + 1 && s.ok &&\n"
		 "\t\t\t\t!failed && s.changed;\n"
		 "\t\t\ttry {\n"
		 "\t\t\t\tkeep = keep && !mine(s.changed);\n"
		 "\t\t\t} catch (x) {\n"
		 "\t\t\t\tkeep = false;\n"
		 "\t\t\t}\n"
		 "\t\t\tif (s.generation === seen) {\n"
		 "\t\t\t\tsetTimeout(ask, %d);\n"
		 "\t\t\t} else if (keep) {\n"
		 "\t\t\t\tseen = s.generation;\n"
		 "\t\t\t\task();\n"
		 "\t\t\t} else {\n"
		 "\t\t\t\tlocation.reload();\n"
		 "\t\t\t}\n"
		 "\t\t}, function () { setTimeout(ask, %d); });\n"
		 "\t}\n"
		 "\tsetTimeout(ask, %d);\n"
		 "})();\n</script>\n", gen, errors != NULL, POLL_MS,
		 4 * POLL_MS, POLL_MS);
	buf_add(out, page + at, len - at);
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
 * Opens the file that path (a request's, serve.h) names in the folder
 * root: each folder on the way opened from the one before, from root,
 * never through a symbolic link (O_NOFOLLOW | O_DIRECTORY), and then the
 * file (O_NOFOLLOW), so that a link anywhere, to a folder or a file,
 * in out/ or leading out of it, is not followed; root itself may be a
 * link (out/ -> the served folder). A folder gives its index.html.
 * Returns the descriptor of a regular file of at most FILE_MAX_BYTES,
 * its fstat() in *st; -2 for a folder named without its final '/' (to be
 * redirected); else -1 (not found).
 */
static int
open_under(const char *root, const char *path, struct stat *st)
{
	struct buf part = BUF_INIT;
	const char *p = path, *slash, *name;
	int dir, fd = -1, sub;

	dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (dir >= 0 && (slash = strchr(p, '/'))) {
		buf_reset(&part);
		buf_add(&part, p, (size_t)(slash - p));
		sub = openat(dir, part.data, O_RDONLY | O_DIRECTORY |
			     O_NOFOLLOW | O_CLOEXEC);
		close(dir);
		dir = sub;
		p = slash + 1;
	}
	if (dir < 0)
		goto out;
	name = *p ? p : "index.html";
	/* Looked at first: opening a FIFO or a device has effects. */
	if (fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW))
		goto out;
	if (S_ISDIR(st->st_mode) && *p) {
		fd = -2;
		goto out;
	}
	if (!S_ISREG(st->st_mode))
		goto out;
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, st) || !S_ISREG(st->st_mode) ||
			(uintmax_t)st->st_size > FILE_MAX_BYTES)) {
		close(fd);
		fd = -1;
	}
out:
	if (dir >= 0)
		close(dir);
	buf_release(&part);
	return fd;
}

/* Reads the size bytes of fd into page. Returns 0, or -1. */
static int
read_whole(int fd, size_t size, struct buf *page)
{
	buf_grow(page, size);
	while (page->len < size) {
		ssize_t n = read(fd, page->data + page->len, size - page->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;	/* shorter than it was */
		page->len += (size_t)n;
	}
	page->data[page->len] = '\0';
	return 0;
}

/* The status, as a whole answer into c->out. */
static void
status_answer(const struct serve *s, struct conn *c, int head_only)
{
	struct buf json = BUF_INIT;

	serve_status(&json, s->gen, s->errors, s->changed);
	buf_addf(&c->out, "HTTP/1.0 200 OK\r\nContent-Type: "
		 "application/json\r\nContent-Length: %zu\r\n"
		 "Cache-Control: no-store\r\nConnection: close\r\n"
		 "\r\n", json.len);
	if (!head_only)
		buf_add(&c->out, json.data, json.len);
	buf_release(&json);
}

/*
 * Makes the answer to the request head of c (code: 431 when it is too
 * long, else 0): its head into c->out, and the file to send after it,
 * if any, into c->file and c->left. Returns 1, with c->out empty, for
 * a status question to hold (a page of the current generation asking
 * while a build is under way); else 0.
 */
static int
answer(struct serve *s, struct conn *c, int code)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	struct buf path = BUF_INIT, extra = BUF_INIT, etag = BUF_INIT;
	struct stat st;
	int page, held = 0;

	buf_reset(&c->out);
	c->off = 0;
	if (!code)
		code = serve_parse(c->head, c->len, &req);
	if (code) {
		reply(&c->out, code, code == 405 ? "Allow: GET, HEAD\r\n" :
		      "", req.head_only && code != 405);
		goto out;
	}
	if (req.status) {
		int current = req.since == s->gen;

		s->back |= current;
		held = s->hold && current && !req.head_only;
		if (!held)
			status_answer(s, c, req.head_only);
		goto out;
	}
	c->file = open_under(s->root, req.path.data, &st);
	if (c->file == -2) {
		/* For relative links in its index.html to work. */
		c->file = -1;
		BUF_ADDLIT(&extra, "Location: ");
		serve_location(req.path.data, &extra);
		BUF_ADDLIT(&extra, "\r\n");
		reply(&c->out, 301, extra.data, req.head_only);
		goto out;
	}
	if (c->file < 0) {
		reply(&c->out, 404, "", req.head_only);
		goto out;
	}
	/* Its name, for its type: a folder's is its index.html. */
	buf_addstr(&path, req.path.data);
	if (!path.len || path.data[path.len - 1] == '/')
		buf_addstr(&path, "index.html");
	/* A page gets the script that reloads it, and the errors. */
	page = !strncmp(content_type(path.data), "text/html", 9) &&
	       (size_t)st.st_size <= PAGE_MAX;
	/*
	 * A file written again is a new inode (site.c stages it), and its
	 * time of change is in nanoseconds; a page as sent changes with
	 * the generation too.
	 */
	buf_addf(&etag, "\"%jx-%jx-%jx.%lx", (uintmax_t)st.st_ino,
		 (uintmax_t)st.st_size, (uintmax_t)st.st_mtim.tv_sec,
		 (unsigned long)st.st_mtim.tv_nsec);
	if (page)
		buf_addf(&etag, "-%x", s->gen);
	buf_addch(&etag, '"');
	if (serve_etag_matches(req.if_none_match.data, etag.data)) {
		close(c->file);
		c->file = -1;
		buf_addf(&c->out, "HTTP/1.0 304 Not Modified\r\nETag: %s\r\n"
			 "Cache-Control: no-cache\r\nConnection: close\r\n"
			 "\r\n", etag.data);
		goto out;
	}
	/* A page is sent from extra, as served; a file from c->file. */
	if (page) {
		struct buf text = BUF_INIT;

		code = read_whole(c->file, (size_t)st.st_size, &text);
		close(c->file);
		c->file = -1;
		if (code) {
			buf_release(&text);
			reply(&c->out, 404, "", req.head_only);
			goto out;
		}
		serve_inject(&extra, text.data, text.len, s->gen, s->errors);
		buf_release(&text);
	}
	buf_addf(&c->out, "HTTP/1.0 200 OK\r\nContent-Type: %s\r\nContent-"
		 "Length: %zu\r\nETag: %s\r\nCache-Control: no-cache\r\n"
		 "Connection: close\r\n\r\n", content_type(path.data),
		 page ? extra.len : (size_t)st.st_size, etag.data);
	if (page && !req.head_only)
		buf_add(&c->out, extra.data, extra.len);
	if (!page) {
		c->left = (size_t)st.st_size;
		if (req.head_only || !st.st_size) {
			close(c->file);
			c->file = -1;
		}
	}
out:
	serve_request_release(&req);
	buf_release(&path);
	buf_release(&extra);
	buf_release(&etag);
	return held;
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

/* c's answer is made: sends what the socket takes of it now. */
static void
start_sending(struct conn *c)
{
	c->state = SENDING;
	c->deadline = now_ms() + SEND_MS;
	sending(c);
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
	if (answer(s, c, n && !head_ends(c, was) ? 431 : 0)) {
		c->state = HELD;
		c->deadline = now_ms() + HOLD_MS;
		return;
	}
	start_sending(c);
}

/* Answers a held status question with the status as it is now. */
static void
release_held(const struct serve *s, struct conn *c)
{
	status_answer(s, c, 0);
	start_sending(c);
}

/* Answers every held question; returns how many there were. */
static int
release_all(struct serve *s)
{
	int i, n = 0;

	for (i = 0; i < SERVE_CONN_MAX; i++)
		if (s->c[i].state == HELD) {
			release_held(s, &s->c[i]);
			n++;
		}
	return n;
}

void
serve_hold(struct serve *s, int on)
{
	s->hold = on;
	if (!on)
		release_all(s);
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
 * request or held, closed (a page whose question is closed asks again).
 * NULL when all are sending an answer.
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
		if ((c->state == READING || c->state == HELD) &&
		    (!idle || c->since < idle->since))
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
		else if ((c->state == DRAINING || c->state == HELD) &&
			 FD_ISSET(c->fd, rd))
			draining(c);	/* held: its close closes it */
	}
	if (FD_ISSET(s->fd, rd))
		accept_all(s);
	now = now_ms();
	for (i = 0; i < SERVE_CONN_MAX; i++)
		if (s->c[i].state == HELD && now >= s->c[i].deadline)
			release_held(s, &s->c[i]);
		else if (s->c[i].state != FREE && now >= s->c[i].deadline)
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
	free(s->errors);
	free(s->changed);
	free(s);
}
