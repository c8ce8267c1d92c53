/*
 * Unit tests for the parts of the site's quantities (src/pages.h): which
 * page each name is on, their order, and links made to lead to them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "buf.h"
#include "pages.h"
#include "registry.h"

/*
 * A registry with small groups (const, laptop), a group of more than
 * PAGES_SPLIT names (device: a and b, interleaved with a later name of
 * laptop), a one-part name in it ("device") and a group "dev" whose
 * name is a prefix of another.
 */
static struct registry *
parts_registry(void)
{
	struct registry *r = registry_new();
	char name[64];
	int i;

	assert_non_null(registry_add_num(r, "const.c", 1, "", "", NULL, "",
					 NULL));
	assert_non_null(registry_add_num(r, "laptop.mass", 1, "", "", NULL,
					 "", NULL));
	for (i = 0; i < PAGES_SPLIT; i++) {
		snprintf(name, sizeof(name), "device.%s.x%d", i % 2 ? "b" : "a",
			 i);
		assert_non_null(registry_add_num(r, name, i, "", "", NULL, "",
						 NULL));
	}
	assert_non_null(registry_add_num(r, "laptop.energy", 1, "", "", NULL,
					 "", NULL));
	assert_non_null(registry_add_num(r, "device", 1, "", "", NULL, "",
					 NULL));
	assert_non_null(registry_add_num(r, "dev.one", 1, "", "", NULL, "",
					 NULL));
	return r;
}

static void
test_keys(void **state)
{
	struct registry *r = parts_registry();
	struct qpages p;

	(void)state;
	qpages_init(&p, r);
	/* By group, in order of first use; a big group by its parts. */
	assert_int_equal(p.n, 6);
	assert_string_equal(p.v[0].key, "const");
	assert_string_equal(p.v[1].key, "laptop");
	assert_int_equal(p.v[1].n, 2);
	assert_string_equal(p.v[2].key, "device.a");
	assert_int_equal(p.v[2].n, PAGES_SPLIT / 2);
	assert_string_equal(p.v[3].key, "device.b");
	assert_string_equal(p.v[4].key, "device");
	assert_int_equal(p.v[4].n, 1);
	assert_string_equal(p.v[5].key, "dev");
	assert_ptr_equal(qpages_find(&p, "laptop.energy"), &p.v[1]);
	assert_ptr_equal(qpages_find(&p, "device.b.x3"), &p.v[3]);
	assert_ptr_equal(qpages_find(&p, "device"), &p.v[4]);
	assert_ptr_equal(qpages_find(&p, "dev.one"), &p.v[5]);
	assert_null(qpages_find(&p, "nothing.here"));
	qpages_release(&p);
	registry_free(r);
}

/* A group of exactly PAGES_SPLIT names stays one page. */
static void
test_small_group(void **state)
{
	struct registry *r = registry_new();
	struct qpages p;
	char name[64];
	int i;

	(void)state;
	for (i = 0; i < PAGES_SPLIT; i++) {
		snprintf(name, sizeof(name), "claim.c%d.value", i);
		assert_non_null(registry_add_num(r, name, i, "", "", NULL, "",
						 NULL));
	}
	qpages_init(&p, r);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].key, "claim");
	assert_ptr_equal(qpages_find(&p, "claim.c7.value"), &p.v[0]);
	qpages_release(&p);
	registry_free(r);
}

static void
check_relink(const struct qpages *p, const char *dir,
	     const struct qpage *self, const char *html, const char *want)
{
	struct buf out = BUF_INIT;

	qpages_relink(p, dir, self, html, &out);
	assert_string_equal(out.data, want);
	buf_release(&out);
}

static void
test_relink(void **state)
{
	struct registry *r = parts_registry();
	struct qpages p;

	(void)state;
	qpages_init(&p, r);
	check_relink(&p, "quantities/", NULL,
		     "<a href=\"quantities.html#laptop.mass\">1</a> and "
		     "<a href=\"quantities.html#device.a.x0\" title=\"t\">",
		     "<a href=\"quantities/laptop.html#laptop.mass\">1</a> and "
		     "<a href=\"quantities/device.a.html#device.a.x0\" "
		     "title=\"t\">");
	/* On a part: its own rows by fragment, others by their page. */
	check_relink(&p, "", &p.v[1],
		     "href=\"quantities.html#laptop.energy\" "
		     "href=\"quantities.html#const.c\"",
		     "href=\"#laptop.energy\" href=\"const.html#const.c\"");
	/* Unknown names, other links, text and a cut-off link stay. */
	check_relink(&p, "quantities/", NULL,
		     "href=\"quantities.html#gone\" href=\"quantities.html\" "
		     "quantities.html#const.c href=\"quantities.html#const.c",
		     "href=\"quantities.html#gone\" href=\"quantities.html\" "
		     "quantities.html#const.c href=\"quantities.html#const.c");
	qpages_release(&p);
	registry_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_small_group),
		cmocka_unit_test(test_relink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
