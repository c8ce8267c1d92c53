/*
 * Unit tests for the parts of the site's quantities (src/pages.h): which
 * page each name is on, their order, links made to lead to them, and
 * how their rows read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "buf.h"
#include "escape.h"
#include "pages.h"
#include "registry.h"

/* U+00A0 NO-BREAK SPACE: what keeps a number and its unit together. */
#define NB "\xc2\xa0"

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

/* The address of one entry, as html.c asks for it while rendering. */
static void
test_href(void **state)
{
	struct registry *r = parts_registry();
	struct qpages p;
	struct buf out = BUF_INIT;

	(void)state;
	qpages_init(&p, r);
	qpages_href(&p, "quantities/", NULL, "device.a.x0", &out);
	assert_string_equal(out.data, "quantities/device.a.html#device.a.x0");
	buf_reset(&out);
	qpages_href(&p, "", &p.v[1], "laptop.energy", &out);
	assert_string_equal(out.data, "#laptop.energy");
	buf_reset(&out);
	qpages_href(&p, "quantities/", NULL, "gone", &out);
	assert_string_equal(out.data, "quantities.html#gone");
	buf_release(&out);
	qpages_release(&p);
	registry_free(r);
}

/* The body of part key of r, with no editions and no data tables. */
static char *
part_html(const struct registry *r, const char *key)
{
	struct quantities_page qp = { .root = "../" };
	struct qpages p;
	struct buf out = BUF_INIT;
	char *html;

	qpages_init(&p, r);
	pages_quantities_part(r, &qp, &p, qpages_find(&p, key), &out);
	html = strdup(out.data);
	buf_release(&out);
	qpages_release(&p);
	return html;
}

/*
 * How a row reads: a text wraps (class "text", not "num"), a calendar
 * year is a year, names may break after their dots, and a long source
 * is written once per table, later rows pointing to the row that has it.
 */
static void
test_rows(void **state)
{
	static const char src[] = "A review of the machine, its maker's "
				  "datasheet and a benchmark report (all "
				  "three agree)";
	struct registry *r = registry_new();
	char *html;

	(void)state;
	assert_non_null(registry_add_text(r, "m.a.name", "A long machine name",
					  "from m.csv", NULL, src,
					  "data/m.csv:2"));
	assert_non_null(registry_add_num(r, "m.a.year", 2008, "year",
					 "from m.csv", NULL, src,
					 "data/m.csv:2"));
	assert_non_null(registry_add_num(r, "m.a.when", 2145.25, "year",
					 "later", NULL, "derived here", NULL));
	assert_non_null(registry_add_num(r, "m.a.ram", 2e9, "B", "from m.csv",
					 NULL, src, "data/m.csv:2"));
	html = part_html(r, "m");
	assert_non_null(strstr(html, "<td><code>m.<wbr>a.<wbr>name</code></td>"
			       "<td class=\"text\" data-label=\"Value\">A "
			       "long machine name</td>"));
	assert_non_null(strstr(html, "data-label=\"Value\">2008</td>"));
	assert_non_null(strstr(html, "data-label=\"Value\">2145.25</td>"));
	assert_non_null(strstr(html, "data-label=\"Value\">2.00000" NB "×" NB
			       "10⁹" NB "B</td>"));
	/* The source in full once, on the first row; "as for" it after,
	 * past a row of another source; each row keeps its origin. */
	assert_non_null(strstr(html, src));
	assert_null(strstr(strstr(html, src) + 1, src));
	assert_non_null(strstr(html, "<tr id=\"m.a.ram\">"));
	assert_non_null(strstr(strstr(html, "<tr id=\"m.a.ram\">"),
			       "<td data-label=\"Source\">as for <a href=\""
			       "#m.a.name\"><code>m.<wbr>a.<wbr>name</code>"
			       "</a> (<a href=\"../data.html#m.csv-2\">"
			       "data/m.csv:2</a>)</td>"));
	free(html);
	registry_free(r);
}

/*
 * A part's links to quantities are written where they lead as the page
 * is made: its own rows by fragment, another part's by its file; no
 * "quantities.html#" is left for anything to rewrite.
 */
static void
test_part_links(void **state)
{
	struct registry *r = registry_new();
	struct quantity *q;
	char *html;

	(void)state;
	assert_non_null(registry_add_num(r, "c.x", 2, "m", "given", NULL,
					 "s", NULL));
	assert_non_null(registry_add_num(r, "m.a", 3, "m", "given", NULL,
					 "s", NULL));
	q = registry_add_num(r, "m.b", 6, "m^2", "m.a * c.x", "m.a c.x",
			     "derived here", NULL);
	assert_non_null(q);
	registry_set_expr(q, "m.a * c.x", NULL);
	html = part_html(r, "m");
	assert_non_null(strstr(html, "<a href=\"#m.a\"><code>m.<wbr>a</code>"));
	assert_non_null(strstr(html, "<a href=\"c.html#c.x\"><code>c.<wbr>x"));
	assert_null(strstr(html, "quantities.html#"));
	free(html);
	registry_free(r);
}

/*
 * The editions column: "unchanged" over every edition, "new in" for a
 * quantity of the newest edition only, "unchanged since" for one that
 * came later and kept its value.
 */
static void
test_history(void **state)
{
	static const int years[3] = { 2024, 2025, 2026 };
	struct registry *e[3];
	const struct registry *eds[3];
	struct quantities_page qp = { .root = "../", .years = years,
				      .neditions = 3, .editions = eds };
	struct qpages p;
	struct buf out = BUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		e[i] = registry_new();
		eds[i] = e[i];
		assert_non_null(registry_add_num(e[i], "m.old", 1, "", "", NULL,
						 "", NULL));
		if (i >= 1)
			assert_non_null(registry_add_num(e[i], "m.later", 2, "",
							 "", NULL, "", NULL));
		if (i == 2)
			assert_non_null(registry_add_num(e[i], "m.new", 3, "",
							 "", NULL, "", NULL));
	}
	qpages_init(&p, e[2]);
	pages_quantities_part(e[2], &qp, &p, qpages_find(&p, "m.old"), &out);
	assert_non_null(strstr(out.data, "data-label=\"Editions\">unchanged"
			       "</td>"));
	assert_non_null(strstr(out.data, "data-label=\"Editions\">unchanged "
			       "since 2025</td>"));
	assert_non_null(strstr(out.data, "data-label=\"Editions\">new in "
			       "2026</td>"));
	buf_release(&out);
	qpages_release(&p);
	for (i = 0; i < 3; i++)
		registry_free(e[i]);
}

/*
 * html_name(): a break after a dot before a letter, never in 1.5;
 * html_heading(): after an underscore.
 */
static void
test_html_name(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	html_name(&out, "log10(a.b_c / 1.5) < x._y.");
	assert_string_equal(out.data, "log10(a.<wbr>b_c / 1.5) &lt; "
			    "x.<wbr>_y.");
	buf_reset(&out);
	/* html_heading(): after an underscore, not at the end. */
	html_heading(&out, "fp64_peak_<b>_");
	assert_string_equal(out.data, "fp64_<wbr>peak_<wbr>&lt;b&gt;_");
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_small_group),
		cmocka_unit_test(test_part_links),
		cmocka_unit_test(test_href),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_html_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
