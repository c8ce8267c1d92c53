/*
 * Unit tests for src/shell.h, the page shell: its slots checked, each
 * with its place, and filled around a page.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "buf.h"
#include "diag.h"
#include "shell.h"

static int
reset(void **state)
{
	(void)state;
	diag_reset();
	return 0;
}

/* shell_check() of text s: its return, and stderr is exactly want. */
static void
check(const char *s, int ret, const char *want)
{
	struct srcfile *f = srcfile_from_mem("page.html", s, strlen(s));

	f->show_source = 1;
	capture_start();
	assert_int_equal(shell_check(f), ret);
	assert_captured(want);
	srcfile_free(f);
}

/*
 * Every slot once, "{{content}}" exactly once; an unknown slot and a
 * second content are errors at their place, a missing content at the
 * start.
 */
static void
test_shell_check(void **state)
{
	(void)state;
	check("<title>{{title}}</title>{{nav}}{{toc}}{{content}}{{root}}"
	      "{{pdf}}{{pdf}}", 0, "");
	check("a {{content}} {{conent}} {{content}}\n", -1,
	      "page.html:1:15: error: unknown slot '{{conent}}' in the page "
	      "shell (slots: {{title}}, {{toc}}, {{content}}, {{nav}}, "
	      "{{root}}, {{pdf}})\n"
	      "    a {{content}} {{conent}} {{content}}\n"
	      "                  ^^^^^^^^^^\n"
	      "page.html:1:26: error: a second '{{content}}' in the page "
	      "shell\n"
	      "    a {{content}} {{conent}} {{content}}\n"
	      "                             ^^^^^^^^^^^\n");
	assert_int_equal(diag_errors(), 2);
	check("<p>{{title}}</p>", -1,
	      "page.html:1:1: error: the page shell has no '{{content}}' "
	      "slot: every page would be empty\n"
	      "    <p>{{title}}</p>\n"
	      "    ^\n");
}

/*
 * Each slot filled: the title escaped, the toc and body as they are,
 * the way to the top; "{{pdf}}" a link only with a PDF; other text,
 * and a "{{" that is no slot, copied.
 */
static void
test_shell_page(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	shell_page(&out, "<title>{{title}}</title>{{toc}}|{{content}}|"
		   "{{root}}style.css|{{pdf}}|{{x}} {{", "A < B", "<ol></ol>",
		   "<p>b</p>", "index.html", "../../", NULL, NULL);
	assert_string_equal(out.data, "<title>A &lt; B</title><ol></ol>|"
			    "<p>b</p>|../../style.css||{{x}} {{");
	buf_reset(&out);
	shell_page(&out, "{{pdf}}", "T", "", "", "index.html", "",
		   "report.pdf", NULL);
	assert_string_equal(out.data, "<p class=\"pdf-link\"><a href=\""
			    "report.pdf\">This report as PDF</a></p>");
	buf_release(&out);
}

/*
 * The site's navigation is told whether the site has editions, page by
 * page (no state kept between pages): without them, no link to the
 * editions or changes pages; the page itself is marked.
 */
static void
test_page_nav(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct shell_site eds = { SHELL_EDITIONS, NULL, 0 };

	(void)state;
	shell_page(&a, "{{nav}}", "T", "", "", "changes.html", "", NULL,
		   &eds);
	shell_page(&b, "{{nav}}", "T", "", "", "data.html", "../", NULL,
		   NULL);
	assert_non_null(strstr(a.data, "<li><a href=\"editions/index.html\">"
			       "Editions</a></li><li><a href=\"changes.html\" "
			       "aria-current=\"page\">Changes</a></li>"));
	assert_null(strstr(b.data, "editions/"));
	assert_null(strstr(b.data, "changes.html"));
	assert_non_null(strstr(b.data, "<li><a href=\"../data.html\" "
			       "aria-current=\"page\">Data</a></li>"));
	buf_reset(&a);
	shell_page(&a, "{{nav}}", "T", "", "", "index.html", "", NULL,
		   &eds);
	assert_non_null(strstr(a.data, "Editions"));
	buf_release(&a);
	buf_release(&b);
}

/*
 * The report's own pages follow it in the navigation, in the order
 * given, their titles escaped, the current one marked; from an
 * edition's page they lead to the top's.
 */
static void
test_page_nav_pages(void **state)
{
	static const struct shell_link pages[] = {
		{ "appendix.html", "Appendix" },
		{ "audit.html", "Claims & checks" },
	};
	struct shell_site site = { 0, pages, 2 };
	struct buf a = BUF_INIT, b = BUF_INIT;

	(void)state;
	shell_page(&a, "{{nav}}", "T", "", "", "audit.html", "", NULL, &site);
	assert_non_null(strstr(a.data, "<li><a href=\"index.html\">Report"
			       "</a></li><li><a href=\"appendix.html\">"
			       "Appendix</a></li><li><a href=\"audit.html\" "
			       "aria-current=\"page\">Claims &amp; checks"
			       "</a></li><li><a href=\"methods.html\">"));
	shell_page(&b, "{{nav}}", "T", "", "", "editions/2008/audit.html",
		   "../../", NULL, &site);
	assert_non_null(strstr(b.data, "<a href=\"../../audit.html\">"
			       "Claims &amp; checks</a>"));
	assert_null(strstr(b.data, "aria-current"));
	buf_release(&a);
	buf_release(&b);
}

#define T(f) cmocka_unit_test_setup(f, reset)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_shell_check),
		T(test_shell_page),
		T(test_page_nav),
		T(test_page_nav_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
