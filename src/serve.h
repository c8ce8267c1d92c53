#ifndef SERVE_H
#define SERVE_H

#include <sys/select.h>

#include "buf.h"

/*
 * `ultimate watch --serve PORT`: the output folder over HTTP on
 * 127.0.0.1 (or the address of --host), for a browser to preview the
 * site. GET and HEAD of the files under the folder; a folder gives its
 * index.html; names starting with '.' (the lock, the manifest, staging
 * folders, caches), anything that is not a regular file, and anything
 * reached through a symbolic link (a folder or a file, at any depth:
 * out/x -> /etc) are not found; ".." is refused.
 *
 * Every answer with a file has an ETag (its inode, size and time of
 * change; a page's, also the generation below) and "Cache-Control:
 * no-cache": a browser asks again each time it shows the file, and a
 * file that has not changed since is answered 304 Not Modified without
 * its bytes. A reload after a prose edit then sends the page alone, not
 * its figures and fonts again (1.1 MB: the report's page was parsed 228
 * ms after a reload without validators, 100 ms with them; headless
 * Chromium, docs/bench.md).
 *
 * The preview, not the site: every page (text/html) is sent with a
 * small script added before its "</body>", which asks for the status,
 * GET /.ultimate/status?since=GEN (a reserved path: no file of the site
 * starts with '.'; GEN the generation the page was sent in), every
 * 100 ms and reloads the page when another build has finished since.
 * While a build is under way (serve_hold()), that question is held and
 * answered the moment the build ends: the page reloads then, not at its
 * next question. While the last build failed, each page
 * also gets an overlay with that build's errors (HTML-escaped, as the
 * terminal showed them). The files in the folder stay as they are.
 *
 * One request per connection (HTTP/1.0, Connection: close), but many
 * connections at once: every socket is non-blocking and waited on in
 * the watcher's own pselect(), beside inotify and the signals, so no
 * client (idle, slow, malformed or not reading its answer) delays a
 * rebuild or another client. There are SERVE_CONN_MAX connections at
 * most (for a new one, the oldest already answered, else the oldest
 * still sending its request, is closed), each with a deadline: its
 * request head within 10 s, then progress in reading its answer every
 * 10 s, or it is closed.
 */

/* Connections served at once. */
#define SERVE_CONN_MAX 64

/* The server: a listening socket and its connections. */
struct serve;

/* A request, as serve_parse() reads it. */
struct serve_request {
	int head_only;		/* HEAD: the answer without its body */
	/*
	 * The file asked for, relative to the folder served, %XX decoded:
	 * "" for the folder itself, "figures/" for a folder asked with
	 * its slash, "figures" without. Never starts with '/', never has
	 * "//", a segment starting with '.' (so no ".."), nor a control
	 * character.
	 */
	struct buf path;
	int status;		/* GET /.ultimate/status; path is "" */
	long long since;	/* its ?since=GEN, or -1 */
	/*
	 * The value of its If-None-Match header, spaces around it left
	 * out; "" when it has none. For the answer to be 304 Not Modified
	 * when it names the file's ETag (serve_etag_matches()).
	 */
	struct buf if_none_match;
};
#define SERVE_REQUEST_INIT { .head_only = 0, .path = BUF_INIT, .status = 0, \
			     .since = -1, .if_none_match = BUF_INIT }

/*
 * Parses the request head in data[0, len) (any bytes: only its first
 * line is read). Returns 0 with req filled in; else the status to
 * answer with, req->head_only still set for a HEAD: 400 for a request
 * line without a method, target and version, a target not starting
 * with '/', a bad %XX, a control character or a ".." segment; 404 for
 * a segment starting with '.'; 405 for a method other than GET or HEAD.
 * The status path, with or without a query, sets req->status instead,
 * and req->since when the query has since=GEN (a number < 2^32).
 * Of the header lines, only If-None-Match is read. Pure: touches
 * nothing but req. Free it with serve_request_release().
 */
int serve_parse(const char *data, size_t len, struct serve_request *req);

void serve_request_release(struct serve_request *req);

/*
 * Whether list, the value of an If-None-Match header, names etag (a
 * quoted string): "*", or etag among its comma-separated entries, "W/"
 * before one ignored (the weak comparison RFC 9110 asks for here).
 */
int serve_etag_matches(const char *list, const char *etag);

/*
 * Adds to out the Location of the redirect from the folder path (a
 * serve_request path, without its final slash) to the folder with it:
 * '/', path with every byte but [A-Za-z0-9/._~!$&'()*+,;=:@-] %XX
 * encoded, '/'. It starts with a single '/' (path never does), so a
 * browser stays on the same host.
 */
void serve_location(const char *path, struct buf *out);

/*
 * 0 when host is an address or a name that getaddrinfo() resolves to
 * one to listen on; else -1 with the reason added to why.
 */
int serve_check_host(const char *host, struct buf *why);

/*
 * Listens on host (NULL: 127.0.0.1; the first of its addresses that
 * works), port (0: a free port), to serve the files under root
 * (borrowed: it must outlive the server). Returns the server, its URL
 * added to url ("http://127.0.0.1:8000/", "http://[::1]:8000/"), or
 * NULL after printing an error. Free with serve_free().
 */
struct serve *serve_open(const char *host, int port, const char *root,
			 struct buf *url);

/*
 * A build has finished: errors is what it printed when it failed (the
 * server keeps a copy), NULL when it went well; changed, the paths of
 * the files it published anew or removed, one a line (a copy is kept),
 * or NULL when that is not known. Pages sent from now on show the
 * errors; those open reload, but for a page that neither changed nor
 * shows a file that did; held questions are answered. Returns how many
 * were: pages told of the build now.
 */
int serve_set_state(struct serve *s, const char *errors,
		    const char *changed);

/*
 * Whether a page of the current generation has asked for the status
 * (with ?since=): one reloaded after serve_set_state() is up.
 */
int serve_page_back(const struct serve *s);

/*
 * on: a change has been seen and a build is coming or under way: a
 * page that asks for the status with the current generation (GET, not
 * HEAD) is held, for serve_set_state() to answer (at most 5 s, then
 * with the status as it is). 0: no build after all: those held are
 * answered now, and no more are held.
 */
void serve_hold(struct serve *s, int on);

/*
 * Adds the status to out, as GET /.ultimate/status answers it (JSON):
 * {"generation":gen,"ok":true|false,"errors":"...","changed":[...]},
 * errors NULL when the last build went well; changed, the lines of
 * changed (serve_set_state()) as strings, null when it is NULL; in
 * strings '<', '>' and '&' as \u escapes too.
 */
void serve_status(struct buf *out, unsigned gen, const char *errors,
		  const char *changed);

/*
 * Adds to out page[0, len) as the preview sends it: before its last
 * "</body>" (else at its end), the overlay of errors (NULL: none) and
 * the script that asks for the status while the generation is gen,
 * and reloads the page after a build unless the status says what
 * changed and it is neither the page nor a file the page shows.
 */
void serve_inject(struct buf *out, const char *page, size_t len,
		  unsigned gen, const char *errors);

/*
 * Adds the server's sockets to rd (waiting to read) and wr (waiting to
 * write), each below FD_SETSIZE, and returns the highest of them plus
 * one, or nfds when that is more. Lowers *ms (< 0: no limit) to the
 * milliseconds until the nearest deadline of a connection.
 */
int serve_fds(struct serve *s, fd_set *rd, fd_set *wr, int nfds,
	      double *ms);

/*
 * Does what the sockets ready in rd and wr allow (accepts, reads
 * requests, sends answers) and closes the connections past their
 * deadline. Never blocks. rd and wr may be empty (a time-out).
 */
void serve_run(struct serve *s, const fd_set *rd, const fd_set *wr);

/*
 * Closes every socket and file of the server and frees it (only
 * close(): in a child after fork(), the parent's connections stay
 * open). serve_free(NULL) does nothing.
 */
void serve_free(struct serve *s);

#endif
