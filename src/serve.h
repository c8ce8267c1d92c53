#ifndef SERVE_H
#define SERVE_H

/*
 * `ultimate watch --serve PORT`: the output folder over HTTP on
 * 127.0.0.1 only, for a browser to preview the site. GET and HEAD of the
 * files under the folder; a folder gives its index.html; names starting
 * with '.' (the lock, the manifest, staging folders, caches) and
 * anything that is not a regular file are not found; ".." is refused.
 * Pages are sent as they are, with nothing injected. One request per
 * connection, answered in the caller's loop: it serves one author's
 * browser, not a crowd.
 */

/*
 * Listens on 127.0.0.1:port (0: a free port). Returns the socket
 * (non-blocking, close-on-exec) and sets *bound to the port, or returns
 * -1 after printing an error.
 */
int serve_open(int port, int *bound);

/*
 * Accepts a connection on the listening socket fd, answers its request
 * from the files under root, and closes it. A client that sends nothing
 * or reads nothing is dropped after a few seconds.
 */
void serve_one(int fd, const char *root);

#endif
