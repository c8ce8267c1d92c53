/*
 * The preview server's request parser, serve_parse(), and the Location
 * of its redirects, serve_location(): methods, targets decoded and
 * normalised, what is refused (400), not found (404) or not allowed
 * (405), and a redirect that stays on the same host.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "serve.h"

/* serve_parse() of head; its status, and *path the path it gave. */
static int
parse(const char *head, int *head_only, struct buf *path)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	int code = serve_parse(head, strlen(head), &req);

	assert_sane_buf(&req.path);
	if (code)
		assert_int_equal(req.path.len, 0);
	if (head_only)
		*head_only = req.head_only;
	buf_reset(path);
	buf_add(path, req.path.data, req.path.len);
	serve_request_release(&req);
	return code;
}

/* The path of "GET target HTTP/1.0", or "<status>" when refused. */
static void
assert_target(const char *target, const char *want)
{
	struct buf head = BUF_INIT, path = BUF_INIT;
	int code;

	buf_addf(&head, "GET %s HTTP/1.0\r\nHost: x\r\n\r\n", target);
	code = parse(head.data, NULL, &path);
	if (code) {
		buf_reset(&path);
		buf_addf(&path, "<%d>", code);
	}
	if (strcmp(path.data, want))
		fail_msg("%s: '%s', want '%s'", target, path.data, want);
	buf_release(&head);
	buf_release(&path);
}

static void
test_methods(void **state)
{
	struct buf path = BUF_INIT;
	int head_only = -1;

	(void)state;
	assert_int_equal(parse("GET /index.html HTTP/1.1\r\n\r\n", &head_only,
			       &path), 0);
	assert_int_equal(head_only, 0);
	assert_string_equal(path.data, "index.html");
	assert_int_equal(parse("HEAD / HTTP/1.0\n\n", &head_only, &path), 0);
	assert_int_equal(head_only, 1);
	assert_string_equal(path.data, "");
	/* A HEAD refused is still a HEAD: the answer has no body. */
	assert_int_equal(parse("HEAD /.lock HTTP/1.0\r\n\r\n", &head_only,
			       &path), 404);
	assert_int_equal(head_only, 1);
	assert_int_equal(parse("POST / HTTP/1.0\r\n\r\n", &head_only, &path),
			 405);
	assert_int_equal(head_only, 0);
	assert_int_equal(parse("get / HTTP/1.0\r\n\r\n", NULL, &path), 405);
	assert_int_equal(parse("GETS / HTTP/1.0\r\n\r\n", NULL, &path), 405);
	buf_release(&path);
}

static void
test_malformed(void **state)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	struct buf path = BUF_INIT;

	(void)state;
	assert_int_equal(parse("", NULL, &path), 400);
	assert_int_equal(parse("GET", NULL, &path), 400);
	assert_int_equal(parse("GET /\r\n\r\n", NULL, &path), 400);
	/* The target and version are on the request line, not later. */
	assert_int_equal(parse("GET /\r\nHost: a b\r\n\r\n", NULL, &path), 400);
	assert_int_equal(parse("\r\n\r\n", NULL, &path), 400);
	/* Bytes, not a string: a NUL ends nothing. */
	assert_int_equal(serve_parse("GET /a\0b HTTP/1.0\r\n\r\n", 20, &req),
			 400);
	assert_int_equal(serve_parse("GET /ab HTTP/1.0\0\r\n\r\n", 20, &req),
			 0);
	assert_string_equal(req.path.data, "ab");
	/* Only len bytes are read. */
	assert_int_equal(serve_parse("GET /ab HTTP/1.0", 7, &req), 400);
	serve_request_release(&req);
	buf_release(&path);
}

static void
test_targets(void **state)
{
	(void)state;
	assert_target("/", "");
	assert_target("/index.html", "index.html");
	assert_target("/index.html?x=1/../..", "index.html");
	assert_target("/index.html#../..", "index.html");
	assert_target("/figures/", "figures/");
	assert_target("/figures", "figures");
	assert_target("/figures/dust.svg", "figures/dust.svg");
	assert_target("/a%20b.html", "a b.html");
	assert_target("/%c3%a9t%C3%A9", "\xc3\xa9t\xc3\xa9");
	assert_target("/a\\b", "a\\b");
	assert_target("/caf\xc3\xa9", "caf\xc3\xa9");
}

/* Repeated slashes, plain or %2F: one, never a leading one. */
static void
test_slashes(void **state)
{
	(void)state;
	assert_target("//", "");
	assert_target("///", "");
	assert_target("//figures", "figures");
	assert_target("///figures//dust.svg", "figures/dust.svg");
	assert_target("/figures//", "figures/");
	assert_target("/%2F%2Fevil.example", "evil.example");
	assert_target("/%2f/figures%2f", "figures/");
	assert_target("//evil.example/", "evil.example/");
}

static void
test_refused(void **state)
{
	(void)state;
	assert_target("", "<400>");
	assert_target("index.html", "<400>");
	assert_target("http://evil.example/", "<400>");
	assert_target("*", "<400>");
	assert_target("..", "<400>");
	assert_target("/..", "<400>");
	assert_target("/../log", "<400>");
	assert_target("/figures/../../log", "<400>");
	assert_target("/%2e%2e/log", "<400>");
	assert_target("/figures/%2E%2E/%2e%2e/log", "<400>");
	assert_target("/a%2f..%2fb", "<400>");
	/* A ".." after a dotfile is refused all the same. */
	assert_target("/.x/../log", "<400>");
	assert_target("/%", "<400>");
	assert_target("/%2", "<400>");
	assert_target("/%zz", "<400>");
	assert_target("/%00", "<400>");
	assert_target("/a%0d%0aLocation:%20//evil", "<400>");
	assert_target("/a%7f", "<400>");
	assert_target("/a\tb", "<400>");
}

static void
test_dotfiles(void **state)
{
	(void)state;
	assert_target("/.manifest", "<404>");
	assert_target("/.lock", "<404>");
	assert_target("/figures/.cache", "<404>");
	assert_target("/figures/.cache/x.svg", "<404>");
	assert_target("/.", "<404>");
	assert_target("/./index.html", "<404>");
	assert_target("/%2emanifest", "<404>");
	assert_target("/...", "<404>");
	/* A dot elsewhere in a name is a name. */
	assert_target("/a.b/c..d", "a.b/c..d");
}

static void
assert_location(const char *path, const char *want)
{
	struct buf loc = BUF_INIT;

	BUF_ADDLIT(&loc, "Location: ");
	serve_location(path, &loc);
	assert_sane_buf(&loc);
	assert_string_equal(loc.data + strlen("Location: "), want);
	buf_release(&loc);
}

static void
test_location(void **state)
{
	(void)state;
	assert_location("figures", "/figures/");
	assert_location("a/b", "/a/b/");
	assert_location("evil.example", "/evil.example/");
	assert_location("\\evil", "/%5Cevil/");
	assert_location("a b?c#d%e", "/a%20b%3Fc%23d%25e/");
	assert_location("\xc3\xa9", "/%C3%A9/");
	assert_location("a-b_c~d!$&'()*+,;=:@", "/a-b_c~d!$&'()*+,;=:@/");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_methods),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_slashes),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_dotfiles),
		cmocka_unit_test(test_location),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
