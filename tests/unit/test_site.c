/*
 * What the preview is told a build changed: site_changes() of two
 * manifests (files made, changed and gone, in path order; a bound; a
 * text that does not parse), and site_manifest() reading the one of a
 * folder.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "site.h"

#define HEAD "ultimate-manifest 1\ninputs 0123456789abcdef\n"
#define K1 "1111111111111111 "
#define K2 "2222222222222222 "

/* site_changes(before, after, max): its count, and the list it gave. */
static void
assert_changes(const char *before, const char *after, size_t max, int n,
	       const char *want)
{
	struct buf out = BUF_INIT;

	buf_addstr(&out, "kept\n");
	assert_int_equal(site_changes(before, after, max, &out), n);
	assert_sane_buf(&out);
	assert_string_equal(out.data, want);
	buf_release(&out);
}

static void
test_changes(void **state)
{
	const char *a = HEAD K1 "index.html\n" K1 "figures/a.svg\n"
			K1 "style.css\n";

	(void)state;
	assert_changes(a, a, 10, 0, "kept\n");
	/* Changed, made and gone; whatever the order of the lines. */
	assert_changes(a, HEAD K1 "style.css\n" K2 "index.html\n"
		       K1 "editions/2008/index.html\n", 10, 3,
		       "kept\neditions/2008/index.html\nfigures/a.svg\n"
		       "index.html\n");
	/* The inputs key is not a file. */
	assert_changes(a, "ultimate-manifest 1\ninputs fedcba9876543210\n"
		       K1 "index.html\n" K1 "figures/a.svg\n" K1 "style.css\n",
		       10, 0, "kept\n");
	/* Everything gone, everything made. */
	assert_changes(a, HEAD, 10, 3,
		       "kept\nfigures/a.svg\nindex.html\nstyle.css\n");
	assert_changes(HEAD, a, 10, 3,
		       "kept\nfigures/a.svg\nindex.html\nstyle.css\n");
	/* More than max: not known, out as it was. */
	assert_changes(HEAD, a, 3, 3,
		       "kept\nfigures/a.svg\nindex.html\nstyle.css\n");
	assert_changes(HEAD, a, 2, -1, "kept\n");
	/* A text that does not parse, on either side. */
	assert_changes("", a, 10, -1, "kept\n");
	assert_changes(a, HEAD "1111 index.html\n", 10, -1, "kept\n");
	assert_changes(a, HEAD K1 "../index.html\n", 10, -1, "kept\n");
	assert_changes(HEAD K1 "index.html", a, 10, -1, "kept\n");
}

static void
test_manifest(void **state)
{
	char dir[] = "/tmp/test_site.XXXXXX";
	struct buf path = BUF_INIT, text = BUF_INIT;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	buf_addstr(&text, "left over");
	assert_int_equal(site_manifest(dir, &text), -1);
	assert_int_equal(text.len, 0);
	buf_addf(&path, "%s/.manifest", dir);
	f = fopen(path.data, "w");
	assert_non_null(f);
	fputs(HEAD K1 "index.html\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(site_manifest(dir, &text), 0);
	assert_string_equal(text.data, HEAD K1 "index.html\n");
	/* One that does not parse counts as none. */
	f = fopen(path.data, "w");
	assert_non_null(f);
	fputs(HEAD "zz index.html\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(site_manifest(dir, &text), -1);
	assert_int_equal(text.len, 0);
	assert_int_equal(unlink(path.data), 0);
	assert_int_equal(rmdir(dir), 0);
	buf_release(&path);
	buf_release(&text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changes),
		cmocka_unit_test(test_manifest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
