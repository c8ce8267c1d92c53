/*
 * libFuzzer target for the preview server's request parser: any bytes
 * as a request head through serve_parse(), and the redirect Location of
 * every path it gives. Checks what keeps a request inside the folder
 * served and a redirect on the same host; a broken one abort()s. Opens
 * no socket and no file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz_http: %s:%d: '%s' fails\n", \
				__FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

/* path and Location: no byte a header or a path could be split by. */
static int
clean(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < ' ' || s[i] == 0x7f)
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	struct buf loc = BUF_INIT;
	const char *p, *seg;
	int code = serve_parse((const char *)data, size, &req);

	CHECK(code == 0 || code == 400 || code == 404 || code == 405);
	CHECK(req.head_only == 0 || req.head_only == 1);
	if (code) {
		CHECK(req.path.len == 0);
		goto out;
	}
	p = req.path.data;
	CHECK(strlen(p) == req.path.len && clean(p, req.path.len));
	CHECK(p[0] != '/' && !strstr(p, "//"));
	for (seg = p; seg; seg = strchr(seg, '/')) {
		if (*seg == '/')
			seg++;
		CHECK(*seg != '.');	/* so no "..", no dotfile */
	}
	/* What the server answers for a folder asked without its slash. */
	if (req.path.len && p[req.path.len - 1] != '/') {
		serve_location(p, &loc);
		CHECK(clean(loc.data, loc.len) && strlen(loc.data) == loc.len);
		CHECK(loc.data[0] == '/' && loc.data[1] != '/');
		CHECK(!strchr(loc.data, '\\') && !strchr(loc.data, ' '));
		CHECK(loc.data[loc.len - 1] == '/' && !strstr(loc.data, "//"));
	}
out:
	buf_release(&loc);
	serve_request_release(&req);
	return 0;
}
