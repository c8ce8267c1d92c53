/*
 * The preview server's request parser, serve_parse(), and the Location
 * of its redirects, serve_location(): methods, targets decoded and
 * normalised, what is refused (400), not found (404) or not allowed
 * (405), and a redirect that stays on the same host; the status path,
 * the status as JSON, and the script and errors added to a page.
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

/* The status path: "status" set, only for that exact path. */
static void
test_status_path(void **state)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	static const char *const yes[] = {
		"GET /.ultimate/status HTTP/1.0\r\n\r\n",
		"GET /.ultimate/status?t=1 HTTP/1.1\r\n\r\n",
		"HEAD /.ultimate/status HTTP/1.0\r\n\r\n",
	};
	static const char *const no[] = {
		"GET /.ultimate/statusx HTTP/1.0\r\n\r\n",
		"GET /.ultimate/status/ HTTP/1.0\r\n\r\n",
		"GET /.ultimate/ HTTP/1.0\r\n\r\n",
		"GET /.ultimate/reload.js HTTP/1.0\r\n\r\n",
		"GET /%2eultimate/status HTTP/1.0\r\n\r\n",
		"GET /x/.ultimate/status HTTP/1.0\r\n\r\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		assert_int_equal(serve_parse(yes[i], strlen(yes[i]), &req), 0);
		assert_int_equal(req.status, 1);
		assert_int_equal(req.path.len, 0);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		assert_int_equal(serve_parse(no[i], strlen(no[i]), &req), 404);
		assert_int_equal(req.status, 0);
	}
	/* Not a way around the methods allowed. */
	assert_int_equal(serve_parse("POST /.ultimate/status HTTP/1.0\r\n\r\n",
				     36, &req), 405);
	assert_int_equal(req.status, 0);
	serve_request_release(&req);
}

/* The generation a status question names: -1 for none, or a bad one. */
static void
assert_since(const char *target, long long want)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	struct buf head = BUF_INIT;

	buf_addf(&head, "GET %s HTTP/1.0\r\n\r\n", target);
	assert_int_equal(serve_parse(head.data, head.len, &req), 0);
	assert_int_equal(req.status, 1);
	if (req.since != want)
		fail_msg("%s: since %lld, want %lld", target, req.since, want);
	serve_request_release(&req);
	buf_release(&head);
}

static void
test_status_since(void **state)
{
	(void)state;
	assert_since("/.ultimate/status", -1);
	assert_since("/.ultimate/status?since=0", 0);
	assert_since("/.ultimate/status?since=17", 17);
	assert_since("/.ultimate/status?t=1&since=4294967295", 4294967295LL);
	assert_since("/.ultimate/status?since=4294967296", -1);
	assert_since("/.ultimate/status?since=99999999999999999999999", -1);
	assert_since("/.ultimate/status?since=", -1);
	assert_since("/.ultimate/status?since=-1", -1);
	assert_since("/.ultimate/status?since=3x", -1);
	assert_since("/.ultimate/status?since=3&x=1", 3);
	assert_since("/.ultimate/status?xsince=3", -1);
	assert_since("/.ultimate/status?", -1);
	assert_since("/.ultimate/status?&&since=5", 5);
}

static void
test_status_json(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	serve_status(&b, 3, NULL, NULL);
	assert_sane_buf(&b);
	assert_string_equal(b.data, "{\"generation\":3,\"ok\":true,"
			    "\"errors\":\"\",\"changed\":null}\n");
	buf_reset(&b);
	serve_status(&b, 4, "t.md:1:2: error: 'a\"b\\c'\n  <b>&\x1b\t^\n",
		     NULL);
	assert_string_equal(b.data, "{\"generation\":4,\"ok\":false,"
			    "\"errors\":\"t.md:1:2: error: 'a\\\"b\\\\c'\\n  "
			    "\\u003cb\\u003e\\u0026\\u001b\\u0009^\\n\","
			    "\"changed\":null}\n");
	/* What a build changed: one string a line, escaped; none: []. */
	buf_reset(&b);
	serve_status(&b, 5, NULL, "index.html\nfigures/a \"<b>\".svg\n");
	assert_string_equal(b.data, "{\"generation\":5,\"ok\":true,"
			    "\"errors\":\"\",\"changed\":[\"index.html\","
			    "\"figures/a \\\"\\u003cb\\u003e\\\".svg\"]}\n");
	buf_reset(&b);
	serve_status(&b, 6, NULL, "");
	assert_string_equal(b.data, "{\"generation\":6,\"ok\":true,"
			    "\"errors\":\"\",\"changed\":[]}\n");
	buf_reset(&b);
	serve_status(&b, 7, NULL, "a.html");
	assert_string_equal(b.data, "{\"generation\":7,\"ok\":true,"
			    "\"errors\":\"\",\"changed\":[\"a.html\"]}\n");
	buf_release(&b);
}

/* serve_inject() of page: the text before the script and after it. */
static void
assert_inject(const char *page, const char *errors, const char *before,
	      const char *after)
{
	struct buf b = BUF_INIT;
	const char *script, *end;

	serve_inject(&b, page, strlen(page), 7, errors);
	assert_sane_buf(&b);
	script = strstr(b.data, "<script>");
	assert_non_null(script);
	end = strstr(script, "</script>\n");
	assert_non_null(end);
	end += strlen("</script>\n");
	assert_non_null(strstr(script, errors ? "var seen = 7, failed = 1;" :
			       "var seen = 7, failed = 0;"));
	assert_non_null(strstr(script, "\"/.ultimate/status?since=\" + seen"));
	if ((size_t)(script - b.data) != strlen(before) ||
	    strncmp(b.data, before, strlen(before)))
		fail_msg("before the script: '%.*s', want '%s'",
			 (int)(script - b.data), b.data, before);
	assert_string_equal(end, after);
	buf_release(&b);
}

static void
test_inject(void **state)
{
	(void)state;
	assert_inject("<html><body><p>x</p></body></html>\n", NULL,
		      "<html><body><p>x</p>", "</body></html>\n");
	/* The last "</body>", any case; none: at the end. */
	assert_inject("<body><pre></body></pre></BODY>\n", NULL,
		      "<body><pre></body></pre>", "</BODY>\n");
	assert_inject("<p>no end", NULL, "<p>no end", "");
	assert_inject("", NULL, "", "");
	/* The errors, escaped, before the script. */
	assert_inject("<body></body>", "a.md:1:2: error: <script>&\n",
		      "<body><div id=\"ultimate-errors\" role=\"alert\" "
		      "style=\"position:fixed;left:0;right:0;top:0;"
		      "z-index:2147483647;max-height:70vh;overflow:auto;"
		      "margin:0;padding:0.75em 1em;background:#fff0f0;"
		      "color:#600;border-bottom:3px solid #c00;"
		      "font:14px/1.4 sans-serif\"><strong>The build "
		      "failed; this page is the last good one.</strong> "
		      "It reloads when the build is fixed.<pre style=\""
		      "margin:0.5em 0 0;white-space:pre-wrap;font:13px/1.4 "
		      "monospace\">a.md:1:2: error: &lt;script&gt;&amp;\n"
		      "</pre></div>\n", "</body>");
}

static void
test_check_host(void **state)
{
	struct buf why = BUF_INIT;

	(void)state;
	assert_int_equal(serve_check_host("127.0.0.1", &why), 0);
	assert_int_equal(serve_check_host("0.0.0.0", &why), 0);
	assert_int_equal(serve_check_host("::1", &why), 0);
	assert_int_equal(serve_check_host("::", &why), 0);
	assert_int_equal(why.len, 0);
	assert_int_equal(serve_check_host("", &why), -1);
	assert_string_equal(why.data, "empty");
	buf_reset(&why);
	assert_int_equal(serve_check_host("127.0.0.1:80", &why), -1);
	assert_true(why.len > 0);
	buf_reset(&why);
	assert_int_equal(serve_check_host("[::1]", &why), -1);
	assert_true(why.len > 0);
	buf_release(&why);
}

/* The If-None-Match serve_parse() reads from head. */
static void
assert_inm(const char *head, const char *want)
{
	struct serve_request req = SERVE_REQUEST_INIT;

	assert_int_equal(serve_parse(head, strlen(head), &req), 0);
	assert_sane_buf(&req.if_none_match);
	if (strcmp(req.if_none_match.data, want))
		fail_msg("%s: '%s', want '%s'", head,
			 req.if_none_match.data, want);
	serve_request_release(&req);
}

static void
test_if_none_match(void **state)
{
	struct serve_request req = SERVE_REQUEST_INIT;
	const char *head;

	(void)state;
	assert_inm("GET / HTTP/1.0\r\nHost: x\r\n\r\n", "");
	assert_inm("GET / HTTP/1.0\r\nIf-None-Match: \"a-1\"\r\n\r\n",
		   "\"a-1\"");
	/* Any case, spaces and tabs around it, a bare LF. */
	assert_inm("GET / HTTP/1.0\nif-none-match:\t \"a\" \t\n\n", "\"a\"");
	/* Two lines: one list. Others, and look-alikes, are not it. */
	assert_inm("GET / HTTP/1.1\r\nIf-None-Match: \"a\"\r\nX-If-None-"
		   "Match: \"x\"\r\nIf-None-Matches: \"y\"\r\nIf-None-"
		   "Match: W/\"b\"\r\n\r\n", "\"a\", W/\"b\"");
	/* Not the request line's: a target that looks like one. */
	assert_inm("GET /If-None-Match:x HTTP/1.0\r\n\r\n", "");
	/* Read again, req holds only the last head's. */
	head = "GET / HTTP/1.0\r\nIf-None-Match: \"a\"\r\n\r\n";
	assert_int_equal(serve_parse(head, strlen(head), &req), 0);
	assert_string_equal(req.if_none_match.data, "\"a\"");
	head = "GET / HTTP/1.0\r\n\r\n";
	assert_int_equal(serve_parse(head, strlen(head), &req), 0);
	assert_string_equal(req.if_none_match.data, "");
	serve_request_release(&req);
}

static void
test_etag_matches(void **state)
{
	(void)state;
	assert_true(serve_etag_matches("\"a-1\"", "\"a-1\""));
	assert_true(serve_etag_matches("*", "\"a-1\""));
	assert_true(serve_etag_matches("\"x\", \"a-1\"", "\"a-1\""));
	assert_true(serve_etag_matches("\"x\",W/\"a-1\"", "\"a-1\""));
	assert_true(serve_etag_matches(" \t\"a-1\" , ", "\"a-1\""));
	assert_false(serve_etag_matches("", "\"a-1\""));
	assert_false(serve_etag_matches("\"a-1-2\"", "\"a-1\""));
	assert_false(serve_etag_matches("\"a-\"", "\"a-1\""));
	assert_false(serve_etag_matches("a-1", "\"a-1\""));
	assert_false(serve_etag_matches("\"a-1", "\"a-1\""));
	assert_false(serve_etag_matches("**", "\"a-1\""));
	assert_false(serve_etag_matches("W/", "\"a-1\""));
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
		cmocka_unit_test(test_status_path),
		cmocka_unit_test(test_status_since),
		cmocka_unit_test(test_status_json),
		cmocka_unit_test(test_inject),
		cmocka_unit_test(test_check_host),
		cmocka_unit_test(test_if_none_match),
		cmocka_unit_test(test_etag_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
