#ifndef SERVE_H
#define SERVE_H

#include <sys/select.h>

#include "buf.h"

/*
 * `ultimate watch --serve PORT`: the output folder over HTTP on
 * 127.0.0.1 only, for a browser to preview the site. GET and HEAD of the
 * files under the folder; a folder gives its index.html; names starting
 * with '.' (the lock, the manifest, staging folders, caches) and
 * anything that is not a regular file are not found; ".." is refused.
 * Pages are sent as they are, with nothing injected.
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
};
#define SERVE_REQUEST_INIT { .head_only = 0, .path = BUF_INIT }

/*
 * Parses the request head in data[0, len) (any bytes: only its first
 * line is read). Returns 0 with req filled in; else the status to
 * answer with, req->head_only still set for a HEAD: 400 for a request
 * line without a method, target and version, a target not starting
 * with '/', a bad %XX, a control character or a ".." segment; 404 for
 * a segment starting with '.'; 405 for a method other than GET or HEAD.
 * Pure: touches nothing but req. Free req->path with
 * serve_request_release().
 */
int serve_parse(const char *data, size_t len, struct serve_request *req);

void serve_request_release(struct serve_request *req);

/*
 * Adds to out the Location of the redirect from the folder path (a
 * serve_request path, without its final slash) to the folder with it:
 * '/', path with every byte but [A-Za-z0-9/._~!$&'()*+,;=:@-] %XX
 * encoded, '/'. It starts with a single '/' (path never does), so a
 * browser stays on the same host.
 */
void serve_location(const char *path, struct buf *out);

/*
 * Listens on 127.0.0.1:port (0: a free port) to serve the files under
 * root (borrowed: it must outlive the server). Returns the server and
 * sets *bound to the port, or returns NULL after printing an error.
 * Free with serve_free().
 */
struct serve *serve_open(int port, int *bound, const char *root);

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
